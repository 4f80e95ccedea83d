//! Views of the objects that say who uses a Service or what an operator reached:
//! OpenShift's static-pod operators (`status.nodeStatuses`), its Infrastructure and
//! ClusterOperators, Routes, and the API server's own references to Services (admission
//! webhook configurations, APIServices). Only the fields the rules read.

use super::meta::{Condition, ObjectMeta};
use serde::Deserialize;

/// An operator of OpenShift's static pods (`operator.openshift.io` KubeAPIServer,
/// KubeControllerManager, KubeScheduler, Etcd): the revision each node runs.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StaticPodOperator {
    pub metadata: ObjectMeta,
    pub status: StaticPodOperatorStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StaticPodOperatorStatus {
    pub latest_available_revision: Option<i64>,
    pub node_statuses: Vec<NodeStatus>,
}

/// One node's revisions, as library-go's installer controller writes them.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeStatus {
    pub node_name: String,
    pub current_revision: Option<i64>,
    pub target_revision: Option<i64>,
    pub last_failed_revision: Option<i64>,
}

/// `infrastructures.config.openshift.io/cluster`: the platform the cluster runs on.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Infrastructure {
    pub metadata: ObjectMeta,
    pub status: InfrastructureStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct InfrastructureStatus {
    pub platform: Option<String>,
    pub platform_status: Option<PlatformStatus>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PlatformStatus {
    #[serde(rename = "type")]
    pub type_: Option<String>,
}

impl Infrastructure {
    /// `status.platformStatus.type`, else the older `status.platform`.
    pub fn platform(&self) -> Option<&str> {
        self.status
            .platform_status
            .as_ref()
            .and_then(|p| p.type_.as_deref())
            .or(self.status.platform.as_deref())
            .filter(|p| !p.is_empty())
    }
}

/// `clusteroperators.config.openshift.io`: its conditions.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterOperator {
    pub metadata: ObjectMeta,
    pub status: ClusterOperatorStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterOperatorStatus {
    pub conditions: Vec<Condition>,
}

/// A Service named by another object (`{namespace, name}`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ServiceReference {
    pub namespace: Option<String>,
    pub name: String,
}

/// `route.openshift.io` Route: `spec.to` and `spec.alternateBackends`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Route {
    pub metadata: ObjectMeta,
    pub spec: RouteSpec,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RouteSpec {
    pub to: RouteTarget,
    pub alternate_backends: Vec<RouteTarget>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RouteTarget {
    pub kind: Option<String>,
    pub name: String,
}

impl Route {
    /// The Services the Route sends traffic to (in its own namespace).
    pub fn services(&self) -> impl Iterator<Item = &str> {
        std::iter::once(&self.spec.to)
            .chain(&self.spec.alternate_backends)
            .filter(|t| t.kind.as_deref().is_none_or(|k| k == "Service") && !t.name.is_empty())
            .map(|t| t.name.as_str())
    }
}

/// A Validating- or MutatingWebhookConfiguration: each webhook's `clientConfig.service`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WebhookConfiguration {
    pub metadata: ObjectMeta,
    pub webhooks: Vec<Webhook>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Webhook {
    pub name: String,
    pub client_config: ClientConfig,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClientConfig {
    pub service: Option<ServiceReference>,
}

/// `apiregistration.k8s.io` APIService: `spec.service` (none for a local API group).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ApiService {
    pub metadata: ObjectMeta,
    pub spec: ApiServiceSpec,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ApiServiceSpec {
    pub service: Option<ServiceReference>,
}

//! OpenShift views: ClusterVersion, ClusterOperator, Infrastructure (config.openshift.io),
//! MachineConfigPool and MachineConfig (machineconfiguration.openshift.io) and the
//! machine-config daemon's annotations on a Node, as `oc adm upgrade status` reads them;
//! the static-pod operators' node revisions; and the objects that say who uses a Service
//! (Routes, admission webhook configurations, APIServices). Only the fields rules read.

use super::meta::{Condition, LabelSelector, ObjectMeta, null_default, null_vec};
use serde::Deserialize;

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterVersion {
    pub metadata: ObjectMeta,
    #[serde(deserialize_with = "null_default")]
    pub status: ClusterVersionStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterVersionStatus {
    #[serde(deserialize_with = "null_default")]
    pub desired: Release,
    /// Newest first: `history[0]` is the update in progress or the last one.
    #[serde(deserialize_with = "null_vec")]
    pub history: Vec<UpdateHistory>,
    #[serde(deserialize_with = "null_vec")]
    pub conditions: Vec<Condition>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Release {
    pub version: Option<String>,
    pub image: Option<String>,
}

/// One entry of `status.history`: `state` is `Completed` or `Partial`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct UpdateHistory {
    pub state: String,
    pub version: String,
    pub image: Option<String>,
    pub started_time: Option<String>,
    pub completion_time: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterOperator {
    pub metadata: ObjectMeta,
    #[serde(deserialize_with = "null_default")]
    pub status: ClusterOperatorStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterOperatorStatus {
    #[serde(deserialize_with = "null_vec")]
    pub conditions: Vec<Condition>,
    /// `operator` is the release version the operator reached; other names are operands.
    #[serde(deserialize_with = "null_vec")]
    pub versions: Vec<OperandVersion>,
    #[serde(deserialize_with = "null_vec")]
    pub related_objects: Vec<RelatedObject>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct OperandVersion {
    pub name: String,
    pub version: String,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct RelatedObject {
    pub group: String,
    pub resource: String,
    pub namespace: Option<String>,
    pub name: String,
}

impl ClusterOperator {
    /// Operators of the release payload carry `include.release.openshift.io/…` or
    /// `exclude.release.openshift.io/…` annotations; `oc` counts only those.
    pub fn is_platform(&self) -> bool {
        self.metadata.annotations.get().0.keys().any(|k| {
            k.starts_with("include.release.openshift.io/")
                || k.starts_with("exclude.release.openshift.io/")
        })
    }

    /// The version of operand `name` (`operator` is the operator's own).
    pub fn version(&self, name: &str) -> Option<&str> {
        self.status
            .versions
            .iter()
            .find(|v| v.name == name)
            .map(|v| v.version.as_str())
    }

    /// Namespaces the operator names among its related objects: its operands live there.
    pub fn namespaces(&self) -> Vec<&str> {
        let mut ns: Vec<&str> = self
            .status
            .related_objects
            .iter()
            .filter_map(|r| {
                if r.resource == "namespaces" && r.group.is_empty() {
                    Some(r.name.as_str())
                } else {
                    None
                }
            })
            .collect();
        ns.sort_unstable();
        ns.dedup();
        ns
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineConfigPool {
    pub metadata: ObjectMeta,
    #[serde(deserialize_with = "null_default")]
    pub spec: MachineConfigPoolSpec,
    #[serde(deserialize_with = "null_default")]
    pub status: MachineConfigPoolStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineConfigPoolSpec {
    pub paused: bool,
    /// The rendered MachineConfig the pool's nodes should run.
    #[serde(deserialize_with = "null_default")]
    pub configuration: ConfigurationRef,
    pub node_selector: Option<LabelSelector>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct ConfigurationRef {
    pub name: String,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineConfigPoolStatus {
    #[serde(deserialize_with = "null_vec")]
    pub conditions: Vec<Condition>,
    pub machine_count: Option<i64>,
    pub updated_machine_count: Option<i64>,
    pub degraded_machine_count: Option<i64>,
}

/// A MachineConfig: only its name and annotations (its ignition config is large).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct MachineConfig {
    pub metadata: ObjectMeta,
}

impl MachineConfig {
    /// The OpenShift release a rendered config belongs to.
    pub fn release_version(&self) -> Option<&str> {
        self.metadata
            .annotation(mcd::RELEASE_IMAGE_VERSION)
            .filter(|v| !v.is_empty())
    }
}

/// The machine-config daemon's annotations on a Node (machine-config-operator
/// `pkg/daemon/constants`), and the values its state takes.
pub mod mcd {
    pub const CURRENT_CONFIG: &str = "machineconfiguration.openshift.io/currentConfig";
    pub const DESIRED_CONFIG: &str = "machineconfiguration.openshift.io/desiredConfig";
    pub const STATE: &str = "machineconfiguration.openshift.io/state";
    pub const REASON: &str = "machineconfiguration.openshift.io/reason";
    pub const DESIRED_DRAIN: &str = "machineconfiguration.openshift.io/desiredDrain";
    pub const LAST_APPLIED_DRAIN: &str = "machineconfiguration.openshift.io/lastAppliedDrain";
    pub const RELEASE_IMAGE_VERSION: &str =
        "machineconfiguration.openshift.io/release-image-version";
    pub const DONE: &str = "Done";
    pub const DEGRADED: &str = "Degraded";
    pub const UNRECONCILABLE: &str = "Unreconcilable";
    pub const REBOOTING: &str = "Rebooting";
}

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

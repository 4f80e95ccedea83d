//! Views of the objects that say who uses a Service or what an operator reached:
//! OpenShift's static-pod operators (`status.nodeStatuses`), its Infrastructure and
//! ClusterOperators, Routes, and the API server's own references to Services (admission
//! webhook configurations, APIServices). Only the fields the rules read.

use super::meta::ObjectMeta;
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

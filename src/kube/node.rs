//! Node view: allocatable, taints, conditions, kubelet version.

use super::meta::{
    Condition, FieldAt, ObjectMeta, ResourceList, UnreadField, condition, unread_quantities,
};
use serde::Deserialize;

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Node {
    pub metadata: ObjectMeta,
    pub spec: NodeSpec,
    pub status: NodeStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSpec {
    pub unschedulable: bool,
    pub taints: Vec<Taint>,
    pub provider_id: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Taint {
    pub key: String,
    pub value: Option<String>,
    pub effect: String,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeStatus {
    pub allocatable: ResourceList,
    pub capacity: ResourceList,
    pub conditions: Vec<Condition>,
    pub node_info: NodeInfo,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeInfo {
    pub kubelet_version: Option<String>,
    pub os_image: Option<String>,
    pub operating_system: Option<String>,
    pub architecture: Option<String>,
    pub container_runtime_version: Option<String>,
}

impl Node {
    /// Its allocatable and capacity quantities that do not read (see [`UnreadField`]).
    pub fn unread_quantities(&self, out: &mut Vec<UnreadField>) {
        let status = || FieldAt::default().key("status");
        unread_quantities(
            &self.status.allocatable,
            || status().key("allocatable"),
            out,
        );
        unread_quantities(&self.status.capacity, || status().key("capacity"), out);
    }

    /// `Ready` condition status: `True`, `False`, `Unknown`, or `None` when absent.
    pub fn ready_status(&self) -> Option<&str> {
        condition(&self.status.conditions, "Ready").map(|c| c.status.as_str())
    }
}

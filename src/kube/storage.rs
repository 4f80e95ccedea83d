//! Storage views: PersistentVolumeClaim, PersistentVolume, StorageClass.

use super::meta::{ObjectMeta, ResourceList};
use serde::Deserialize;
use serde_json::Value;

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolumeClaim {
    pub metadata: ObjectMeta,
    pub spec: PvcSpec,
    pub status: PhaseStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PvcSpec {
    pub storage_class_name: Option<String>,
    pub volume_name: Option<String>,
    pub access_modes: Vec<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct PhaseStatus {
    pub phase: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolume {
    pub metadata: ObjectMeta,
    pub spec: PvSpec,
    pub status: PhaseStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PvSpec {
    pub storage_class_name: Option<String>,
    pub claim_ref: Option<Value>,
    pub capacity: ResourceList,
    pub node_affinity: Option<Value>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StorageClass {
    pub metadata: ObjectMeta,
    pub provisioner: Option<String>,
    /// `Immediate` (default) or `WaitForFirstConsumer`.
    pub volume_binding_mode: Option<String>,
}

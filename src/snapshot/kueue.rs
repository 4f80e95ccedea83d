//! Kueue views (kueue.x-k8s.io v1beta1 and v1beta2): Workload, LocalQueue, ClusterQueue,
//! ResourceFlavor, Cohort, AdmissionCheck, WorkloadPriorityClass.

use super::meta::ObjectMeta;
use serde::Deserialize;

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Workload {
    pub metadata: ObjectMeta,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LocalQueue {
    pub metadata: ObjectMeta,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterQueue {
    pub metadata: ObjectMeta,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceFlavor {
    pub metadata: ObjectMeta,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Cohort {
    pub metadata: ObjectMeta,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AdmissionCheck {
    pub metadata: ObjectMeta,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WorkloadPriorityClass {
    pub metadata: ObjectMeta,
}

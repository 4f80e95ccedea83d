//! Controller views (apps/v1, batch/v1): replica counts, conditions, pod templates.

use super::meta::{Condition, LabelSelector, ObjectMeta, condition};
use super::pod::PodTemplate;
use serde::Deserialize;

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Deployment {
    pub metadata: ObjectMeta,
    pub spec: ReplicatedSpec,
    pub status: ReplicatedStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ReplicaSet {
    pub metadata: ObjectMeta,
    pub spec: ReplicatedSpec,
    pub status: ReplicatedStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StatefulSet {
    pub metadata: ObjectMeta,
    pub spec: ReplicatedSpec,
    pub status: ReplicatedStatus,
}

/// Spec shared by Deployment, ReplicaSet and StatefulSet.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ReplicatedSpec {
    /// Absent means 1.
    pub replicas: Option<i64>,
    pub selector: LabelSelector,
    pub template: PodTemplate,
    pub service_name: Option<String>,
    /// StatefulSet: `OrderedReady` (default) or `Parallel`.
    pub pod_management_policy: Option<String>,
    /// Deployment: seconds before `ProgressDeadlineExceeded` (default 600).
    pub progress_deadline_seconds: Option<i64>,
    /// Deployment: a paused rollout does not progress.
    pub paused: bool,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ReplicatedStatus {
    pub replicas: i64,
    pub ready_replicas: i64,
    pub available_replicas: i64,
    pub updated_replicas: i64,
    pub unavailable_replicas: i64,
    pub current_replicas: i64,
    pub conditions: Vec<Condition>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DaemonSet {
    pub metadata: ObjectMeta,
    pub spec: DaemonSetSpec,
    pub status: DaemonSetStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DaemonSetSpec {
    pub selector: LabelSelector,
    pub template: PodTemplate,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DaemonSetStatus {
    pub desired_number_scheduled: i64,
    pub current_number_scheduled: i64,
    pub number_ready: i64,
    pub number_available: i64,
    pub number_unavailable: i64,
    pub number_misscheduled: i64,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Job {
    pub metadata: ObjectMeta,
    pub spec: JobSpec,
    pub status: JobStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct JobSpec {
    pub parallelism: Option<i64>,
    pub completions: Option<i64>,
    pub suspend: Option<bool>,
    pub backoff_limit: Option<i64>,
    pub template: PodTemplate,
    pub active_deadline_seconds: Option<i64>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct JobStatus {
    pub active: i64,
    pub succeeded: i64,
    pub failed: i64,
    pub conditions: Vec<Condition>,
    pub start_time: Option<String>,
    pub completion_time: Option<String>,
}

impl Job {
    /// `Complete=True` (or the newer `SuccessCriteriaMet=True`).
    pub fn is_complete(&self) -> bool {
        ["Complete", "SuccessCriteriaMet"]
            .iter()
            .any(|t| condition(&self.status.conditions, t).is_some_and(|c| c.status == "True"))
    }

    /// `Failed=True`.
    pub fn is_failed(&self) -> bool {
        condition(&self.status.conditions, "Failed").is_some_and(|c| c.status == "True")
    }
}

impl ReplicatedSpec {
    pub fn desired(&self) -> i64 {
        self.replicas.unwrap_or(1)
    }
}

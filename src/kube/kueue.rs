//! Kueue views (kueue.x-k8s.io v1beta1 and v1beta2): Workload, LocalQueue, ClusterQueue,
//! ResourceFlavor, Cohort, AdmissionCheck, WorkloadPriorityClass.
//!
//! Both API versions are read by the same structs: where a field was renamed
//! (`cohort` → `cohortName`, Cohort `parent` → `parentName`, LocalQueue `flavorUsage` →
//! `flavorsUsage`, plain `admissionChecks` → `admissionChecksStrategy`) both spellings are
//! fields and an accessor picks whichever is set. Collections accept `null` (Go nil
//! slices in JSON dumps).

use super::meta::{
    Condition, FieldAt, LabelSelector, ObjectMeta, Qty, ResourceList, UnreadField, condition,
    null_default, null_vec, unread_quantities, unread_quantity,
};
use super::node::Taint;
use super::pod::{PodTemplate, Toleration};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// Label on a Workload naming the uid of the Job (or other owner) it was created for.
pub const JOB_UID_LABEL: &str = "kueue.x-k8s.io/job-uid";
/// Label on a Job (or Pod, JobSet, …) naming its LocalQueue.
pub const QUEUE_NAME_LABEL: &str = "kueue.x-k8s.io/queue-name";
/// Scheduling gate Kueue puts on plain pods until admission.
pub const ADMISSION_GATE: &str = "kueue.x-k8s.io/admission";

// ---------------------------------------------------------------- Workload

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Workload {
    #[serde(deserialize_with = "null_default")]
    pub metadata: ObjectMeta,
    #[serde(deserialize_with = "null_default")]
    pub spec: WorkloadSpec,
    #[serde(deserialize_with = "null_default")]
    pub status: WorkloadStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WorkloadSpec {
    #[serde(deserialize_with = "null_vec")]
    pub pod_sets: Vec<PodSet>,
    pub queue_name: Option<String>,
    pub priority: Option<i64>,
    /// v1beta1.
    pub priority_class_name: Option<String>,
    /// v1beta1.
    pub priority_class_source: Option<String>,
    /// v1beta2 `{group, kind, name}`.
    pub priority_class_ref: Option<Value>,
    /// Absent means `true`.
    pub active: Option<bool>,
    pub maximum_execution_time_seconds: Option<i64>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodSet {
    pub name: String,
    /// Absent means 1.
    pub count: Option<i64>,
    pub min_count: Option<i64>,
    #[serde(deserialize_with = "null_default")]
    pub template: PodTemplate,
}

impl Default for PodSet {
    fn default() -> Self {
        PodSet {
            name: "main".into(),
            count: None,
            min_count: None,
            template: PodTemplate::default(),
        }
    }
}

impl PodSet {
    pub fn count(&self) -> i64 {
        self.count.unwrap_or(1).max(0)
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WorkloadStatus {
    #[serde(deserialize_with = "null_vec")]
    pub conditions: Vec<Condition>,
    pub admission: Option<Admission>,
    pub requeue_state: Option<RequeueState>,
    #[serde(deserialize_with = "null_vec")]
    pub admission_checks: Vec<AdmissionCheckState>,
    #[serde(deserialize_with = "null_vec")]
    pub reclaimable_pods: Vec<ReclaimablePod>,
    #[serde(deserialize_with = "null_vec")]
    pub resource_requests: Vec<PodSetRequest>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Admission {
    pub cluster_queue: String,
    #[serde(deserialize_with = "null_vec")]
    pub pod_set_assignments: Vec<PodSetAssignment>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodSetAssignment {
    pub name: String,
    /// Resource name → flavor name.
    #[serde(deserialize_with = "null_default")]
    pub flavors: BTreeMap<String, String>,
    /// Total for all pods of the podset.
    #[serde(deserialize_with = "null_default")]
    pub resource_usage: ResourceList,
    pub count: Option<i64>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RequeueState {
    pub count: Option<i64>,
    pub requeue_at: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AdmissionCheckState {
    pub name: String,
    /// `Pending`, `Ready`, `Retry` or `Rejected`.
    pub state: String,
    pub message: Option<String>,
    pub last_transition_time: Option<String>,
    pub retry_count: Option<i64>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ReclaimablePod {
    pub name: String,
    pub count: i64,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodSetRequest {
    pub name: String,
    #[serde(deserialize_with = "null_default")]
    pub resources: ResourceList,
}

impl Workload {
    /// Its podsets' requests and its recorded usage that do not read (see [`UnreadField`]).
    pub fn unread_quantities(&self, out: &mut Vec<UnreadField>) {
        let root = FieldAt::default;
        for (i, ps) in self.spec.pod_sets.iter().enumerate() {
            let spec = || {
                root()
                    .keys("spec.podSets")
                    .item(i, &ps.name)
                    .keys("template.spec")
            };
            ps.template.spec.unread_quantities(spec, out);
        }
        if let Some(adm) = &self.status.admission {
            for (i, psa) in adm.pod_set_assignments.iter().enumerate() {
                let at = || {
                    root()
                        .keys("status.admission.podSetAssignments")
                        .item(i, &psa.name)
                        .key("resourceUsage")
                };
                unread_quantities(&psa.resource_usage, at, out);
            }
        }
        for (i, rr) in self.status.resource_requests.iter().enumerate() {
            let at = || {
                root()
                    .keys("status.resourceRequests")
                    .item(i, &rr.name)
                    .key("resources")
            };
            unread_quantities(&rr.resources, at, out);
        }
    }

    pub fn condition(&self, type_: &str) -> Option<&Condition> {
        condition(&self.status.conditions, type_)
    }

    fn is_true(&self, type_: &str) -> bool {
        self.condition(type_).is_some_and(|c| c.status == "True")
    }

    /// `QuotaReserved=True`; without that condition (older Kueue wrote `Admitted` only, and
    /// captures may hold the status partly) `status.admission`, which Kueue sets exactly
    /// while quota is reserved.
    pub fn has_quota_reserved(&self) -> bool {
        self.is_true("QuotaReserved")
            || (self.condition("QuotaReserved").is_none() && self.status.admission.is_some())
    }

    /// `Admitted=True`.
    pub fn is_admitted(&self) -> bool {
        self.is_true("Admitted")
    }

    /// `Finished=True`.
    pub fn is_finished(&self) -> bool {
        self.is_true("Finished")
    }

    /// `spec.active` (absent means active).
    pub fn is_active(&self) -> bool {
        self.spec.active.unwrap_or(true)
    }

    pub fn queue_name(&self) -> Option<&str> {
        self.spec.queue_name.as_deref().filter(|q| !q.is_empty())
    }

    /// Priority as Kueue orders queues: `spec.priority`, absent means 0.
    pub fn priority(&self) -> i64 {
        self.spec.priority.unwrap_or(0)
    }

    /// The WorkloadPriorityClass or PriorityClass name, from either API version.
    pub fn priority_class(&self) -> Option<String> {
        self.spec
            .priority_class_name
            .clone()
            .filter(|s| !s.is_empty())
            .or_else(|| {
                self.spec
                    .priority_class_ref
                    .as_ref()
                    .and_then(|r| r.get("name"))
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
    }

    /// The uid of the Job (or other owner) the Workload was created for.
    pub fn job_uid(&self) -> Option<&str> {
        self.metadata
            .labels
            .get(JOB_UID_LABEL)
            .map(|s| s.as_str())
            .filter(|s| !s.is_empty())
    }
}

// ---------------------------------------------------------------- LocalQueue

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LocalQueue {
    #[serde(deserialize_with = "null_default")]
    pub metadata: ObjectMeta,
    #[serde(deserialize_with = "null_default")]
    pub spec: LocalQueueSpec,
    #[serde(deserialize_with = "null_default")]
    pub status: QueueStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LocalQueueSpec {
    pub cluster_queue: String,
    /// `None` (default), `Hold` or `HoldAndDrain`.
    pub stop_policy: Option<String>,
}

/// Status shared by LocalQueue and ClusterQueue (the fields each has).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct QueueStatus {
    #[serde(deserialize_with = "null_vec")]
    pub conditions: Vec<Condition>,
    #[serde(deserialize_with = "null_vec")]
    pub flavors_reservation: Vec<FlavorUsage>,
    #[serde(deserialize_with = "null_vec")]
    pub flavors_usage: Vec<FlavorUsage>,
    /// LocalQueue v1beta1 spelling of `flavorsUsage`.
    #[serde(deserialize_with = "null_vec")]
    pub flavor_usage: Vec<FlavorUsage>,
    pub pending_workloads: Option<i64>,
    pub reserving_workloads: Option<i64>,
    pub admitted_workloads: Option<i64>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FlavorUsage {
    pub name: String,
    #[serde(deserialize_with = "null_vec")]
    pub resources: Vec<ResourceUsage>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceUsage {
    pub name: String,
    pub total: Option<Qty>,
    pub borrowed: Option<Qty>,
}

/// A stop policy that stops admission (`Hold` or `HoldAndDrain`).
pub fn is_stopping(stop_policy: Option<&str>) -> bool {
    matches!(stop_policy, Some("Hold" | "HoldAndDrain"))
}

impl LocalQueue {
    pub fn active(&self) -> Option<&Condition> {
        condition(&self.status.conditions, "Active")
    }
    pub fn is_stopped(&self) -> bool {
        is_stopping(self.spec.stop_policy.as_deref())
    }
}

// ---------------------------------------------------------------- ClusterQueue

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterQueue {
    #[serde(deserialize_with = "null_default")]
    pub metadata: ObjectMeta,
    #[serde(deserialize_with = "null_default")]
    pub spec: ClusterQueueSpec,
    #[serde(deserialize_with = "null_default")]
    pub status: QueueStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterQueueSpec {
    /// v1beta1.
    pub cohort: Option<String>,
    /// v1beta2.
    pub cohort_name: Option<String>,
    /// `None` when absent or `null`: Kueue then admits **no** namespace; `{}` admits all.
    pub namespace_selector: Option<LabelSelector>,
    /// `StrictFIFO` or `BestEffortFIFO` (default).
    pub queueing_strategy: Option<String>,
    #[serde(deserialize_with = "null_vec")]
    pub resource_groups: Vec<ResourceGroup>,
    pub stop_policy: Option<String>,
    /// v1beta1 plain list.
    #[serde(deserialize_with = "null_vec")]
    pub admission_checks: Vec<String>,
    pub admission_checks_strategy: Option<AdmissionChecksStrategy>,
    pub preemption: Option<Preemption>,
    pub flavor_fungibility: Option<Value>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AdmissionChecksStrategy {
    #[serde(deserialize_with = "null_vec")]
    pub admission_checks: Vec<AdmissionCheckStrategyRule>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AdmissionCheckStrategyRule {
    pub name: String,
    #[serde(deserialize_with = "null_vec")]
    pub on_flavors: Vec<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Preemption {
    pub reclaim_within_cohort: Option<String>,
    pub within_cluster_queue: Option<String>,
    pub borrow_within_cohort: Option<Value>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceGroup {
    #[serde(deserialize_with = "null_vec")]
    pub covered_resources: Vec<String>,
    #[serde(deserialize_with = "null_vec")]
    pub flavors: Vec<FlavorQuotas>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FlavorQuotas {
    pub name: String,
    #[serde(deserialize_with = "null_vec")]
    pub resources: Vec<ResourceQuota>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceQuota {
    pub name: String,
    pub nominal_quota: Option<Qty>,
    /// `None` = unlimited borrowing from the cohort.
    pub borrowing_limit: Option<Qty>,
    /// `None` = all unused nominal quota can be lent.
    pub lending_limit: Option<Qty>,
}

impl ClusterQueue {
    /// Its quotas and recorded usage that do not read (see [`UnreadField`]).
    pub fn unread_quantities(&self, out: &mut Vec<UnreadField>) {
        self.each_quantity(|_, _, q, at| unread_quantity(q, at, out));
    }

    /// Its quotas and reservations that do not read, in words, by (flavor, resource):
    /// `` the nominalQuota for cpu in flavor default of ClusterQueue cq is unreadable (`x`) ``.
    pub fn unread_quotas(&self) -> Vec<((String, String), String)> {
        let mut out = Vec::new();
        // Usage is what the LocalQueues show; the quota arithmetic reads the reservations.
        self.each_quantity(|fr, field, q, _| {
            if let Some(q) = q.filter(|q| q.value.is_none())
                && !field.starts_with("flavorsUsage")
            {
                let (flavor, res) = fr;
                out.push((
                    (flavor.to_owned(), res.to_owned()),
                    format!(
                        "the {field} for {res} in flavor {flavor} of ClusterQueue {} is {}",
                        self.metadata.name,
                        q.unreadable()
                    ),
                ));
            }
        });
        out
    }

    /// Calls `each` with every quota of the spec and every recorded reservation and usage:
    /// (flavor, resource), its field's name, its value and where it is.
    fn each_quantity(
        &self,
        mut each: impl FnMut((&str, &str), &str, Option<&Qty>, &dyn Fn() -> FieldAt),
    ) {
        let root = FieldAt::default;
        for (g, group) in self.spec.resource_groups.iter().enumerate() {
            for (f, flavor) in group.flavors.iter().enumerate() {
                for (r, quota) in flavor.resources.iter().enumerate() {
                    let at = || {
                        root()
                            .keys("spec.resourceGroups")
                            .item(g, "")
                            .key("flavors")
                            .item(f, &flavor.name)
                            .key("resources")
                            .item(r, &quota.name)
                    };
                    let fr = (flavor.name.as_str(), quota.name.as_str());
                    for (field, q) in [
                        ("nominalQuota", &quota.nominal_quota),
                        ("borrowingLimit", &quota.borrowing_limit),
                        ("lendingLimit", &quota.lending_limit),
                    ] {
                        each(fr, field, q.as_ref(), &|| at().key(field));
                    }
                }
            }
        }
        for (list, usage) in [
            ("flavorsReservation", &self.status.flavors_reservation),
            ("flavorsUsage", &self.status.flavors_usage),
        ] {
            for (f, flavor) in usage.iter().enumerate() {
                for (r, res) in flavor.resources.iter().enumerate() {
                    let at = || {
                        root()
                            .key("status")
                            .key(list)
                            .item(f, &flavor.name)
                            .key("resources")
                            .item(r, &res.name)
                    };
                    let fr = (flavor.name.as_str(), res.name.as_str());
                    for (field, q) in [("total", &res.total), ("borrowed", &res.borrowed)] {
                        each(fr, &format!("{list} {field}"), q.as_ref(), &|| {
                            at().key(field)
                        });
                    }
                }
            }
        }
    }

    /// The cohort, from either API version.
    pub fn cohort(&self) -> Option<&str> {
        self.spec
            .cohort_name
            .as_deref()
            .or(self.spec.cohort.as_deref())
            .filter(|c| !c.is_empty())
    }
    pub fn active(&self) -> Option<&Condition> {
        condition(&self.status.conditions, "Active")
    }
    pub fn is_stopped(&self) -> bool {
        is_stopping(self.spec.stop_policy.as_deref())
    }
    pub fn is_strict_fifo(&self) -> bool {
        self.spec.queueing_strategy.as_deref() == Some("StrictFIFO")
    }
    /// Every flavor named by a resource group, in order, without repeats.
    pub fn flavor_names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for g in &self.spec.resource_groups {
            for f in &g.flavors {
                if !out.contains(&f.name.as_str()) {
                    out.push(&f.name);
                }
            }
        }
        out
    }
    /// Admission checks from either the v1beta1 list or the strategy: (name, onFlavors).
    pub fn admission_check_rules(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = self
            .spec
            .admission_checks
            .iter()
            .map(|n| (n.clone(), Vec::new()))
            .collect();
        if let Some(s) = &self.spec.admission_checks_strategy {
            for r in &s.admission_checks {
                if !out.iter().any(|(n, _)| n == &r.name) {
                    out.push((r.name.clone(), r.on_flavors.clone()));
                }
            }
        }
        out
    }
}

// ---------------------------------------------------------------- ResourceFlavor

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceFlavor {
    #[serde(deserialize_with = "null_default")]
    pub metadata: ObjectMeta,
    #[serde(deserialize_with = "null_default")]
    pub spec: ResourceFlavorSpec,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceFlavorSpec {
    #[serde(deserialize_with = "null_default")]
    pub node_labels: BTreeMap<String, String>,
    #[serde(deserialize_with = "null_vec")]
    pub node_taints: Vec<Taint>,
    #[serde(deserialize_with = "null_vec")]
    pub tolerations: Vec<Toleration>,
    pub topology_name: Option<String>,
}

// ---------------------------------------------------------------- Cohort

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Cohort {
    #[serde(deserialize_with = "null_default")]
    pub metadata: ObjectMeta,
    #[serde(deserialize_with = "null_default")]
    pub spec: CohortSpec,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CohortSpec {
    /// v1alpha1.
    pub parent: Option<String>,
    /// v1beta1 and later.
    pub parent_name: Option<String>,
    #[serde(deserialize_with = "null_vec")]
    pub resource_groups: Vec<ResourceGroup>,
}

impl Cohort {
    /// The parent cohort, from either API version.
    pub fn parent(&self) -> Option<&str> {
        self.spec
            .parent_name
            .as_deref()
            .or(self.spec.parent.as_deref())
            .filter(|p| !p.is_empty())
    }
}

// ---------------------------------------------------------------- AdmissionCheck

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AdmissionCheck {
    #[serde(deserialize_with = "null_default")]
    pub metadata: ObjectMeta,
    #[serde(deserialize_with = "null_default")]
    pub spec: AdmissionCheckSpec,
    #[serde(deserialize_with = "null_default")]
    pub status: AdmissionCheckStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AdmissionCheckSpec {
    pub controller_name: Option<String>,
    pub parameters: Option<Value>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AdmissionCheckStatus {
    #[serde(deserialize_with = "null_vec")]
    pub conditions: Vec<Condition>,
}

// ---------------------------------------------------------------- WorkloadPriorityClass

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WorkloadPriorityClass {
    #[serde(deserialize_with = "null_default")]
    pub metadata: ObjectMeta,
    pub value: Option<i64>,
    pub description: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn namespace_selector_none_vs_empty() {
        let absent: ClusterQueue = serde_json::from_value(json!({"spec": {}})).unwrap();
        assert!(absent.spec.namespace_selector.is_none());
        let null: ClusterQueue =
            serde_json::from_value(json!({"spec": {"namespaceSelector": null}})).unwrap();
        assert!(null.spec.namespace_selector.is_none());
        let all: ClusterQueue =
            serde_json::from_value(json!({"spec": {"namespaceSelector": {}}})).unwrap();
        assert!(all.spec.namespace_selector.is_some());
    }

    #[test]
    fn both_api_versions() {
        let v1: ClusterQueue = serde_json::from_value(json!({
            "spec": {"cohort": "team", "admissionChecks": ["prov"],
                     "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [
                        {"name": "default", "resources": [{"name": "cpu", "nominalQuota": 2, "borrowingLimit": "1"}]}]}]}
        }))
        .unwrap();
        assert_eq!(v1.cohort(), Some("team"));
        assert_eq!(v1.admission_check_rules()[0].0, "prov");
        let q = &v1.spec.resource_groups[0].flavors[0].resources[0];
        assert_eq!(q.nominal_quota.as_ref().unwrap().raw, "2");
        assert_eq!(q.borrowing_limit.as_ref().unwrap().raw, "1");
        assert!(q.lending_limit.is_none());
        let v2: ClusterQueue = serde_json::from_value(json!({
            "spec": {"cohortName": "team2", "admissionChecksStrategy": {"admissionChecks": [{"name": "a", "onFlavors": ["f"]}]}}
        }))
        .unwrap();
        assert_eq!(v2.cohort(), Some("team2"));
        assert_eq!(
            v2.admission_check_rules(),
            vec![("a".into(), vec!["f".into()])]
        );
        let c1: Cohort = serde_json::from_value(json!({"spec": {"parent": "root"}})).unwrap();
        let c2: Cohort = serde_json::from_value(json!({"spec": {"parentName": "root"}})).unwrap();
        assert_eq!(c1.parent(), Some("root"));
        assert_eq!(c2.parent(), Some("root"));
        let w: Workload = serde_json::from_value(json!({
            "spec": {"podSets": [{"template": {"spec": {}}}], "priorityClassRef": {"name": "high"}},
            "status": {"admissionChecks": null, "conditions": null}
        }))
        .unwrap();
        assert_eq!(w.spec.pod_sets[0].name, "main");
        assert_eq!(w.spec.pod_sets[0].count(), 1);
        assert_eq!(w.priority_class().as_deref(), Some("high"));
        assert!(w.is_active());
    }
}

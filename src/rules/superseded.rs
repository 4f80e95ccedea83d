//! What superseded a Failed pod (not a rule): the owner's current state decides, not
//! the oldest pod. A failure is history when
//! - its Job reached its completions (`Complete=True`, `status.succeeded >= completions`):
//!   "retried: Job web-migrate completed at …";
//! - its Job is not in the bundle, but the events record that it completed: the Job
//!   controller's `Completed` event ("Job completed") on the Job, or the CronJob
//!   controller's `SawCompletedJob` ("Saw completed job: NAME, status: Complete");
//! - it is an OpenShift static-pod installer or pruner (`installer-N[-retry-M]-NODE` or
//!   `revision-pruner-N-NODE`, owned by ConfigMap `revision-status-N`, as library-go's
//!   installer controller names them) and a later one on the same node succeeded
//!   (revision N' > N, or N with a higher retry M'), or, for an installer, the static pod on
//!   that node runs revision N or later (its `revision` label) or the operator's
//!   `status.nodeStatuses[].currentRevision` for that node says so;
//! - its top-level controller has its desired ready replicas again.
//!
//! Callers report such pods as `info` at most, with the sentence this module gives.

use crate::kube::event::Event;
use crate::kube::openshift::StaticPodOperator;
use crate::kube::pod::Pod;
use crate::rules::evidence;
use crate::rules::pod_findings::{self, owning_job};
use crate::rules::{Evidence, Severity};
use crate::snapshot::{ObjectId, Snapshot};

/// What superseded a failure: a sentence completing "… — ", and the evidence for it.
pub struct Superseded {
    pub note: String,
    pub evidence: Evidence,
    pub help: &'static str,
}

impl Superseded {
    /// Lowers a diagnosis of the failed pod to `info` and says what superseded it.
    pub fn apply(
        self,
        severity: &mut Severity,
        summary: &mut String,
        cause: &mut String,
        evidence: &mut Vec<Evidence>,
    ) -> &'static str {
        *severity = Severity::Info;
        summary.push_str(" — ");
        summary.push_str(&self.note);
        cause.push_str(":superseded");
        evidence.push(self.evidence);
        self.help
    }
}

/// The namespaces of OpenShift's static-pod operators and the kind of their operator
/// resource (`operator.openshift.io`).
const STATIC_POD_OPERATORS: &[(&str, &str)] = &[
    ("openshift-kube-apiserver", "KubeAPIServer"),
    ("openshift-kube-controller-manager", "KubeControllerManager"),
    ("openshift-kube-scheduler", "KubeScheduler"),
    ("openshift-etcd", "Etcd"),
];

/// What superseded the failure of `pod` (phase Failed), if anything did.
pub fn superseded(snap: &Snapshot, id: ObjectId, pod: &Pod) -> Option<Superseded> {
    if let Some(s) = job_completed(snap, pod) {
        return Some(s);
    }
    if let Some(s) = job_completed_by_events(snap, pod) {
        return Some(s);
    }
    if let Some(s) = static_pod_installed(snap, id, pod) {
        return Some(s);
    }
    if pod_findings::controller_is_healthy(snap, id) {
        let (cref, cid) = snap.top_controller(id)?;
        return Some(Superseded {
            note: "a leftover: its controller has its desired ready replicas again".into(),
            evidence: evidence::field(
                snap,
                cid?,
                &["status"],
                format!("{} has its desired ready replicas", cref.display()),
            ),
            help: "delete the leftover Failed pods once their cause is understood",
        });
    }
    None
}

/// The pod's Job reached its completions.
fn job_completed(snap: &Snapshot, pod: &Pod) -> Option<Superseded> {
    let (jid, job) = owning_job(snap, pod)?;
    let completions = job.spec.completions.unwrap_or(1);
    if !job.is_complete() || job.status.succeeded < completions {
        return None;
    }
    let name = &snap.object(jid).name;
    let cond = ["Complete", "SuccessCriteriaMet"]
        .iter()
        .find_map(|t| crate::kube::meta::condition(&job.status.conditions, t))?;
    let at = job
        .status
        .completion_time
        .clone()
        .or_else(|| cond.last_transition_time.as_deref().map(String::from));
    let at = at.map(|t| format!(" at {t}")).unwrap_or_default();
    Some(Superseded {
        note: format!(
            "retried: Job {name} completed{at} ({} of {completions} completion(s) succeeded)",
            job.status.succeeded
        ),
        evidence: evidence::field(
            snap,
            jid,
            &["status", "conditions", &format!("type={}", cond.type_)],
            format!(
                "Job {name}: {}=True{}; status.succeeded {}, failed {}",
                cond.type_, at, job.status.succeeded, job.status.failed
            ),
        ),
        help: "nothing to fix: the Job's retry succeeded; read the failed pod's log if the first attempt's failure matters",
    })
}

/// The Job owner of a pod whose Job the bundle does not hold: (name, uid).
fn missing_job(snap: &Snapshot, pod: &Pod) -> Option<(String, String)> {
    let owner = pod
        .metadata
        .owner_references
        .iter()
        .find(|o| o.kind == "Job" && o.api_version.starts_with("batch/"))?;
    if owning_job(snap, pod).is_some() {
        return None;
    }
    Some((owner.name.to_string(), owner.uid.to_string()))
}

/// The pod's Job is not in the bundle, but the events record that it completed.
fn job_completed_by_events(snap: &Snapshot, pod: &Pod) -> Option<Superseded> {
    let (job, uid) = missing_job(snap, pod)?;
    let (eid, e, true) = job_end_event(snap, pod.metadata.namespace.as_deref(), &job, &uid)? else {
        return None;
    };
    Some(Superseded {
        note: format!(
            "retried: its Job {job} is not in the bundle, but {} records that it completed",
            if e.regarding.kind == "CronJob" {
                format!("CronJob {}'s event {}", e.regarding.name, e.reason)
            } else {
                format!("its event {}", e.reason)
            }
        ),
        evidence: evidence::event(snap, eid, e),
        help: "nothing to fix: the Job completed after this failure; read the failed pod's log if the first attempt's failure matters",
    })
}

/// Job condition reasons the Job controller also writes as a Warning event when it fails
/// the Job for good.
const JOB_FAILED_REASONS: &[&str] = &[
    "BackoffLimitExceeded",
    "DeadlineExceeded",
    "PodFailurePolicy",
    "MaxFailedIndexesExceeded",
    "FailedIndexes",
];

/// How the events record the end of Job `job` (uid `uid`, namespace `ns`): the latest of
/// the Job's own `Completed` event ("Job completed") or failure event
/// (`BackoffLimitExceeded` …), and its CronJob's `SawCompletedJob` ("Saw completed job:
/// NAME, status: Complete|Failed"); `true` when it completed. Events attach by uid when
/// both sides have one (DESIGN "Identity").
pub fn job_end_event<'a>(
    snap: &'a Snapshot,
    ns: Option<&str>,
    job: &str,
    uid: &str,
) -> Option<(ObjectId, &'a Event, bool)> {
    snap.events()
        .iter()
        .filter_map(|(eid, e)| {
            let r = &e.regarding;
            let here = r.namespace.as_deref() == ns;
            let completed = match r.kind.as_str() {
                "Job" => {
                    let same = match r.uid.as_deref().filter(|u| !u.is_empty()) {
                        Some(u) if !uid.is_empty() => u == uid,
                        _ => here && r.name == job,
                    };
                    if !same {
                        return None;
                    }
                    if e.reason == "Completed" {
                        true
                    } else if JOB_FAILED_REASONS.contains(&e.reason.as_str()) {
                        false
                    } else {
                        return None;
                    }
                }
                "CronJob" if here && e.reason == "SawCompletedJob" => {
                    let (name, status) = saw_completed_job(&e.message)?;
                    if name != job {
                        return None;
                    }
                    match status {
                        "Complete" => true,
                        "Failed" => false,
                        _ => return None,
                    }
                }
                _ => return None,
            };
            Some((*eid, e, completed))
        })
        .max_by_key(|(eid, e, _)| (e.last, *eid))
}

/// (job name, status) from the CronJob controller's "Saw completed job: NAME, status: S".
fn saw_completed_job(message: &str) -> Option<(&str, &str)> {
    let rest = message.trim().strip_prefix("Saw completed job: ")?;
    let (name, status) = rest.split_once(", status: ")?;
    Some((name.trim(), status.trim()))
}

/// An OpenShift static-pod installer or pruner pod, parsed from its name and owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RevisionPod<'a> {
    pruner: bool,
    revision: i64,
    retry: i64,
    node: &'a str,
}

/// `installer-N-NODE`, `installer-N-retry-M-NODE` or `revision-pruner-N-NODE`.
fn parse_revision_pod(name: &str) -> Option<RevisionPod<'_>> {
    let (pruner, rest) = match name.strip_prefix("installer-") {
        Some(rest) => (false, rest),
        None => (true, name.strip_prefix("revision-pruner-")?),
    };
    let (n, rest) = rest.split_once('-')?;
    let revision = n.parse().ok()?;
    let (retry, node) = match rest.strip_prefix("retry-").filter(|_| !pruner) {
        Some(r) => {
            let (m, node) = r.split_once('-')?;
            (m.parse().ok()?, node)
        }
        None => (0, rest),
    };
    (!node.is_empty()).then_some(RevisionPod {
        pruner,
        revision,
        retry,
        node,
    })
}

/// The pod as an installer or pruner of a static-pod operator: named so, and owned by
/// ConfigMap `revision-status-N` of the same revision.
fn revision_pod(pod: &Pod) -> Option<RevisionPod<'_>> {
    let r = parse_revision_pod(&pod.metadata.name)?;
    let owned = pod
        .metadata
        .owner_references
        .iter()
        .any(|o| o.kind == "ConfigMap" && o.name == format!("revision-status-{}", r.revision));
    owned.then_some(r)
}

/// A later installer or pruner on the node succeeded, or the node runs the revision.
fn static_pod_installed(snap: &Snapshot, id: ObjectId, pod: &Pod) -> Option<Superseded> {
    let me = revision_pod(pod)?;
    let ns = pod.metadata.namespace.as_deref()?;
    let node = pod.spec.node_name.as_deref().unwrap_or(me.node);
    let what = if me.pruner { "pruner" } else { "installer" };
    let help = "nothing to fix: the operator retried and the node reached this revision; read the failed pod's log if the failure recurs";
    // A later pod of the same kind on the same node that succeeded.
    let later = snap
        .pods()
        .iter()
        .filter(|(oid, p)| {
            *oid != id
                && p.phase() == "Succeeded"
                && p.metadata.namespace.as_deref() == Some(ns)
                && p.spec.node_name.as_deref().unwrap_or("") == node
        })
        .filter_map(|(oid, p)| revision_pod(p).map(|r| (*oid, p, r)))
        .filter(|(_, _, r)| {
            r.pruner == me.pruner && (r.revision, r.retry) > (me.revision, me.retry)
        })
        .min_by_key(|(_, _, r)| (r.revision, r.retry));
    if let Some((oid, p, _)) = later {
        return Some(Superseded {
            note: format!(
                "superseded: the later {what} {} succeeded on the same node",
                p.metadata.name
            ),
            evidence: evidence::field(
                snap,
                oid,
                &["status", "phase"],
                format!("{what} {} on node {node}: phase Succeeded", p.metadata.name),
            ),
            help,
        });
    }
    if me.pruner {
        return None;
    }
    // The static pod on that node runs this revision or a later one.
    let running = snap.pods_on_node(node).iter().find_map(|&sid| {
        let p = snap.pod(sid)?;
        let rev: i64 = p.metadata.labels.get("revision")?.parse().ok()?;
        let mirror = p.metadata.owner_references.iter().any(|o| o.kind == "Node")
            || p.metadata
                .annotation("kubernetes.io/config.mirror")
                .is_some();
        (mirror
            && p.phase() == "Running"
            && p.metadata.namespace.as_deref() == Some(ns)
            && rev >= me.revision)
            .then_some((sid, p, rev))
    });
    if let Some((sid, p, rev)) = running {
        return Some(Superseded {
            note: format!(
                "superseded: the static pod {} on the same node runs revision {rev}",
                p.metadata.name
            ),
            evidence: evidence::field(
                snap,
                sid,
                &["metadata", "labels", "revision"],
                format!(
                    "static pod {} runs revision {rev} (label revision)",
                    p.metadata.name
                ),
            ),
            help,
        });
    }
    // The operator's own record of the node.
    let (_, kind) = STATIC_POD_OPERATORS.iter().find(|(n, _)| *n == ns)?;
    let oid = snap
        .ids_of_group("operator.openshift.io", kind)
        .iter()
        .copied()
        .find(|&o| snap.object(o).name == "cluster")?;
    let op: StaticPodOperator = snap.object(oid).deserialize().ok()?;
    let current = op
        .status
        .node_statuses
        .iter()
        .find(|s| s.node_name == node)?
        .current_revision?;
    (current >= me.revision).then(|| Superseded {
        note: format!("superseded: {kind} cluster reports node {node} at revision {current}"),
        evidence: evidence::field(
            snap,
            oid,
            &["status", "nodeStatuses", &format!("nodeName={node}")],
            format!("{kind} cluster: node {node} currentRevision {current}"),
        ),
        help,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saw_completed_job_messages() {
        assert_eq!(
            saw_completed_job("Saw completed job: nightly-29312160, status: Complete"),
            Some(("nightly-29312160", "Complete"))
        );
        assert_eq!(
            saw_completed_job("Saw completed job: nightly-29312160, status: Failed"),
            Some(("nightly-29312160", "Failed"))
        );
        // Before Kubernetes 1.21 the message named no status.
        assert_eq!(
            saw_completed_job("Saw completed job: nightly-29312160"),
            None
        );
    }

    #[test]
    fn installer_and_pruner_names() {
        let p = |n| parse_revision_pod(n).map(|r| (r.pruner, r.revision, r.retry, r.node));
        assert_eq!(
            p("installer-6-ip-10-0-1-23.ec2.internal"),
            Some((false, 6, 0, "ip-10-0-1-23.ec2.internal"))
        );
        assert_eq!(
            p("installer-6-retry-2-ip-10-0-1-23.ec2.internal"),
            Some((false, 6, 2, "ip-10-0-1-23.ec2.internal"))
        );
        assert_eq!(
            p("revision-pruner-7-master-0"),
            Some((true, 7, 0, "master-0"))
        );
        // A node whose name starts with "retry-" is a node for a pruner.
        assert_eq!(
            p("revision-pruner-7-retry-1-x"),
            Some((true, 7, 0, "retry-1-x"))
        );
        assert_eq!(p("installer-x-node"), None);
        assert_eq!(p("installer-6-"), None);
        assert_eq!(p("web-installer-6-node"), None);
    }
}

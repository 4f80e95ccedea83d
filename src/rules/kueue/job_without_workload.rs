//! Jobs (and gated pods) that Kueue should manage but that have no Workload.

use super::chain::evidence::missing;
use super::model::{kueue_gated, queue_label, workloads_of};
use crate::declare_rule;
use crate::kube::meta::ObjectMeta;
use crate::rules::reach::Reach;
use crate::rules::{Context, Evidence, Finding, Severity, Stage, evidence};
use crate::snapshot::{ObjectId, Snapshot};

declare_rule! {
    /// A Job with a queue-name label or held suspended (or a pod held by Kueue's admission gate) has no Workload.
    ///
    /// Kueue creates a Workload for every Job it manages (owner reference and the
    /// `kueue.x-k8s.io/job-uid` label) and keeps the Job `suspend: true` until the
    /// Workload is admitted. A suspended Job labelled `kueue.x-k8s.io/queue-name` without a
    /// Workload means Kueue never picked it up (Kueue down, its Job integration or webhook
    /// disabled), so nothing will ever unsuspend it; the same holds for a pod gated by
    /// `kueue.x-k8s.io/admission`. A labelled Job running without a Workload bypassed
    /// Kueue's quota (info); a suspended unlabelled Job without a Workload is not managed by
    /// Kueue and waits for whoever suspended it (info). When the bundle holds no Workloads
    /// at all, the finding says that the Kueue side was not collected.
    pub static JOB_WITHOUT_WORKLOAD = {
        id: "kueue/job-without-workload",
        stage: Stage::Queue,
        severity: Severity::Error,
        fallback: false,
        // Local: each Job with its Workload (an owned object) and the LocalQueue of its namespace.
        reach: Reach::Local,
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let kueue_present = ["Workload", "LocalQueue", "ClusterQueue"]
        .iter()
        .any(|k| snap.has_kind(k));
    let workloads_collected = snap.has_kind("Workload");
    let mut out = Vec::new();
    for (id, job) in snap.jobs() {
        if !is_live(&job.metadata) || job.is_complete() || job.is_failed() {
            continue;
        }
        let label = queue_label(&job.metadata).or_else(|| queue_label(&job.spec.template.metadata));
        let suspended = job.spec.suspend == Some(true);
        if label.is_none() && (!suspended || !kueue_present) {
            continue;
        }
        if has_workload(snap, *id) {
            continue;
        }
        let ns = snap.object(*id).namespace.clone().unwrap_or_default();
        let name = &job.metadata.name;
        let pods: Vec<ObjectId> = job
            .metadata
            .uid
            .as_deref()
            .map(|u| {
                snap.children_of(u)
                    .iter()
                    .copied()
                    .filter(|c| snap.object(*c).kind == "Pod")
                    .collect()
            })
            .unwrap_or_default();
        let mut ev = vec![evidence::field(
            snap,
            *id,
            &["spec", "suspend"],
            format!(
                "Job {ns}/{name}: suspend: {}{}",
                job.spec.suspend.unwrap_or(false),
                label
                    .map(|l| format!(", label kueue.x-k8s.io/queue-name={l}"))
                    .unwrap_or_default()
            ),
        )];
        let lq_note = label
            .map(|l| lq_words(snap, &ns, l, &mut ev))
            .unwrap_or_default();
        let (severity, cause, message, help, explains) = match (
            label,
            suspended,
            workloads_collected,
        ) {
            (_, true, false) => (
                Severity::Warning,
                "workloads-not-collected",
                format!(
                    "Job {ns}/{name} is suspended{}, and the bundle holds no Kueue Workloads, so why it is not admitted cannot be followed{lq_note}",
                    label
                        .map(|l| format!(" for Kueue (queue {l})"))
                        .unwrap_or_default()
                ),
                "collect the Kueue objects too (kubectl get workloads,localqueues -A -o yaml; kubectl get clusterqueues,resourceflavors,cohorts -o yaml)",
                pods.clone(),
            ),
            (Some(l), true, true) => (
                Severity::Error,
                "no-workload",
                format!(
                    "Job {ns}/{name} is suspended and labelled for LocalQueue {l}, but Kueue created no Workload for it: nothing will unsuspend it{lq_note}"
                ),
                "check that the Kueue controller is running and its batch/job integration is enabled (Configuration integrations.frameworks), and look at the Job's events for ErrWorkloadCompose; recreating the Job after fixing it makes Kueue create the Workload",
                pods.clone(),
            ),
            (Some(l), false, true) => (
                Severity::Info,
                "bypassed",
                format!(
                    "Job {ns}/{name} is labelled for LocalQueue {l} but runs without a Workload: it bypassed Kueue's quota{lq_note}"
                ),
                "if Kueue should manage it, check that its batch/job integration is enabled; Jobs created while Kueue's webhook was down are not suspended",
                Vec::new(),
            ),
            (None, true, true) => (
                Severity::Info,
                "suspended-unmanaged",
                format!(
                    "Job {ns}/{name} is suspended and has neither a kueue.x-k8s.io/queue-name label nor a Workload: Kueue does not manage it, so it stays suspended until someone sets suspend: false"
                ),
                "set the queue-name label if Kueue should admit it, or unsuspend it yourself",
                pods.clone(),
            ),
            _ => continue,
        };
        let mut explains = explains;
        explains.push(*id);
        out.push(Finding::new(
            &JOB_WITHOUT_WORKLOAD,
            severity,
            snap.object(*id).reference(),
            cause,
            message,
            ev,
            help.into(),
            explains,
        ));
    }
    // Plain pods held by Kueue's admission gate with no Workload.
    for (id, pod) in snap.pods() {
        if !kueue_gated(&pod.spec) || !is_live(&pod.metadata) || pod.spec.node_name.is_some() {
            continue;
        }
        // Pods of a Job are covered above (the Workload belongs to the Job).
        if pod
            .metadata
            .owner_references
            .iter()
            .any(|o| o.controller == Some(true))
            || has_workload(snap, *id)
        {
            continue;
        }
        let ns = snap.object(*id).namespace.clone().unwrap_or_default();
        let name = &pod.metadata.name;
        let mut ev = vec![evidence::field(
            snap,
            *id,
            &["spec", "schedulingGates"],
            "scheduling gate kueue.x-k8s.io/admission: the scheduler does not try it until Kueue admits it",
        )];
        let lq_note = queue_label(&pod.metadata)
            .map(|l| lq_words(snap, &ns, l, &mut ev))
            .unwrap_or_default();
        let (severity, cause, message) = if snap.has_kind("Workload") {
            (
                Severity::Error,
                "gated-no-workload",
                format!(
                    "pod {ns}/{name} waits for Kueue admission (scheduling gate kueue.x-k8s.io/admission), but no Workload exists for it: nothing will remove the gate{lq_note}"
                ),
            )
        } else {
            (
                Severity::Warning,
                "workloads-not-collected",
                format!(
                    "pod {ns}/{name} waits for Kueue admission (scheduling gate kueue.x-k8s.io/admission), and the bundle holds no Kueue Workloads, so why it is not admitted cannot be followed{lq_note}"
                ),
            )
        };
        out.push(Finding::new(
            &JOB_WITHOUT_WORKLOAD,
            severity,
            snap.object(*id).reference(),
            cause,
            message,
            ev,
            "check that Kueue's pod integration is enabled and its controller running; look at the pod's Kueue Workload (kdiag why pod/NAME)".into(),
            vec![*id],
        ));
    }
    out
}

/// A live object (not a manifest): it has a uid and a creation time.
fn is_live(meta: &ObjectMeta) -> bool {
    meta.uid.is_some() && meta.creation_timestamp.is_some()
}

/// Whether the object, or any owner above it (JobSet, RayJob …), has a Workload.
fn has_workload(snap: &Snapshot, id: ObjectId) -> bool {
    let mut cur = Some(id);
    for _ in 0..4 {
        let Some(c) = cur else { break };
        let o = snap.object(c);
        if let Some(u) = &o.uid
            && !workloads_of(snap, u).is_empty()
        {
            return true;
        }
        let owner_uid = o.owners().first().map(|owner| owner.uid.as_str());
        cur = owner_uid.and_then(|u| snap.by_uid(u));
    }
    false
}

/// "; LocalQueue ns/q does not exist" (the bundle lists every LocalQueue of ns) or "… is
/// not in the bundle" (and its evidence) for the queue a label names.
fn lq_words(snap: &Snapshot, ns: &str, lq: &str, ev: &mut Vec<Evidence>) -> String {
    match snap.find("LocalQueue", Some(ns), lq) {
        Some(lid) => {
            ev.push(evidence::object(
                snap,
                lid,
                format!("LocalQueue {ns}/{lq} exists"),
            ));
            String::new()
        }
        None if snap.listed_whole("LocalQueue", Some(ns)) => {
            ev.push(missing(
                "LocalQueue",
                Some(ns),
                lq,
                "not in the bundle, which lists every LocalQueue of the namespace",
            ));
            format!("; LocalQueue {ns}/{lq} does not exist either")
        }
        None if snap.has_kind("LocalQueue") => {
            ev.push(missing(
                "LocalQueue",
                Some(ns),
                lq,
                "not in the bundle, which holds no complete list of the namespace's LocalQueues",
            ));
            format!("; LocalQueue {ns}/{lq} is not in the bundle either")
        }
        None => String::new(),
    }
}

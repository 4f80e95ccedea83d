//! Pending pods that only terminating pods keep off a node, for `scheduling/unschedulable`
//! and `scheduling/awaiting-termination` (a [`crate::rules::Model`], built once a run).
//!
//! The scheduler counts a pod being deleted on its node until the kubelet confirms it gone
//! (requests, host ports, inter-pod anti-affinity; topology spread skips it), so a rolling
//! update with `maxSurge: 0` and required anti-affinity, a replacement that needs the cpu
//! or host port of the pod it replaces, or a pod whose preemption victims are still
//! stopping is Pending until those pods leave. For each pending pod no node takes by the
//! bundle, the filters are evaluated again without the terminating pods: the nodes that
//! pass then are the ones their leaving frees, and the terminating pods that held the
//! failing filter there are its blockers.
//!
//! That is a rollout in progress unless it will not end on its own: a blocker is stuck
//! (its grace period ended [`OVERDUE_SECS`] or more before the snapshot, the deletion
//! `node/terminating` reports), or its node is not Ready (no kubelet will confirm it), or
//! the wait is past the Deployment's `progressDeadlineSeconds` — by the Deployment's own
//! `Progressing` condition when the bundle holds it, else by how long the pod has been
//! pending.
//!
//! [`OVERDUE_SECS`]: crate::rules::deletion::OVERDUE_SECS

use super::claims::claims;
use super::fit::{self, Exclusion, NodeFit};
use super::placer::Placer;
use crate::kube::meta::{ObjectRef, condition};
use crate::kube::placement::host_ports;
use crate::kube::pod::Pod;
use crate::kube::requests::{Units, pod_units, unread_requests};
use crate::kube::time::{format_duration, parse_timestamp};
use crate::rules::deletion::Deletion;
use crate::rules::node_usage::{Usage, priority_of};
use crate::rules::{CauseHint, Evidence, Severity, evidence, pod_findings};
use crate::snapshot::{ObjectId, Snapshot};
use foldhash::HashMap;
use std::collections::BTreeSet;

/// What to do about a wait past the progress deadline.
const DEADLINE_HELP: &str = "find why the terminating pods take so long (a long terminationGracePeriodSeconds, a slow preStop hook, a volume that does not unmount), or let the rollout surge (maxSurge) or relax the required anti-affinity so the new pod need not wait for them";

/// The default of `spec.progressDeadlineSeconds`.
const DEFAULT_DEADLINE_SECS: i64 = 600;

/// The pending pods only terminating pods keep off a node, by pod.
pub(super) struct Waiting;

impl crate::rules::Model for Waiting {
    type Of<'a> = HashMap<ObjectId, Wait>;
    fn build(snapshot: &Snapshot) -> Self::Of<'_> {
        build(snapshot)
    }
}

/// One terminating pod a pending pod waits for.
pub(super) struct Blocker {
    pub id: ObjectId,
    pub node: String,
    pub deletion: Deletion,
    /// The Ready status of its node; `None` when the node is not in the bundle.
    pub node_ready: Option<String>,
}

impl Blocker {
    /// The kubelet of a Ready node stops it; on a node not Ready nobody confirms it.
    fn node_down(&self) -> bool {
        self.node_ready.as_deref() != Some("True")
    }
}

/// Why the wait will not end on its own, strongest first.
pub(super) struct Escalation {
    pub severity: Severity,
    /// Why, as a clause to follow "but " (no final period).
    pub words: String,
    pub evidence: Vec<Evidence>,
    /// What to do about it.
    pub help: String,
    /// The findings that explain it (the stuck blockers' own, from `node/terminating`).
    pub causes: Vec<CauseHint>,
}

/// A pending pod that only terminating pods keep off a node.
pub(super) struct Wait {
    /// The nodes their leaving frees, each with the terminating pods that hold it (in
    /// node order; blockers in id order).
    pub freed: Vec<(String, Vec<ObjectId>)>,
    /// Every blocker named in `freed`, in id order.
    pub blockers: Vec<Blocker>,
    /// Set when the wait will not end on its own.
    pub escalation: Option<Escalation>,
}

impl Wait {
    /// A rollout (or preemption) in progress: it ends when the blockers are gone.
    pub fn transient(&self) -> bool {
        self.escalation.is_none()
    }

    pub fn blocker(&self, id: ObjectId) -> Option<&Blocker> {
        self.blockers.iter().find(|b| b.id == id)
    }

    /// "node-b takes it once web-6c9-abcde leaves (terminating on node-b, grace period
    /// ends …)"; the first three freed nodes.
    pub fn sentence(&self, snap: &Snapshot) -> String {
        const SHOWN: usize = 3;
        let mut parts: Vec<String> = self
            .freed
            .iter()
            .take(SHOWN)
            .map(|(node, ids)| {
                let named: Vec<String> = ids
                    .iter()
                    .filter_map(|id| self.blocker(*id))
                    .map(|b| describe(snap, b))
                    .collect();
                format!(
                    "{node} takes it once {} {}",
                    named.join(" and "),
                    if ids.len() == 1 { "leaves" } else { "leave" }
                )
            })
            .collect();
        if self.freed.len() > SHOWN {
            parts.push(format!(
                "and {} more nodes as their terminating pods leave",
                self.freed.len() - SHOWN
            ));
        }
        parts.join("; ")
    }

    /// One evidence line per blocker: its deletionTimestamp.
    pub fn evidence(&self, snap: &Snapshot) -> Vec<Evidence> {
        self.blockers
            .iter()
            .map(|b| {
                evidence::field(
                    snap,
                    b.id,
                    &["metadata", "deletionTimestamp"],
                    format!(
                        "terminating on node {}, counted by the scheduler until it is gone: {}",
                        b.node,
                        b.deletion.words(snap.as_of)
                    ),
                )
            })
            .collect()
    }
}

/// "ns/web-6c9-abcde (terminating on node node-b, grace period ends …)".
pub(super) fn describe(snap: &Snapshot, b: &Blocker) -> String {
    let down = match b.node_ready.as_deref() {
        Some("True") => String::new(),
        Some(s) => format!(", which is not Ready (Ready={s})"),
        None => ", which is not in the bundle".to_string(),
    };
    format!(
        "{} (terminating on node {}{down}; {})",
        snap.object(b.id).reference().display(),
        b.node,
        b.deletion.words(snap.as_of)
    )
}

fn build(snap: &Snapshot) -> HashMap<ObjectId, Wait> {
    let mut out = HashMap::default();
    let any_terminating = snap.pods().iter().any(|(_, p)| {
        p.metadata.deletion_timestamp.is_some()
            && p.is_active()
            && p.spec.node_name.as_deref().is_some_and(|n| !n.is_empty())
    });
    if !any_terminating || !snap.has_kind("Node") {
        return out;
    }
    let usage = Usage::build(snap);
    let without = Usage::without_terminating(snap);
    let mut nominated: Nominated = HashMap::default();
    for (id, pod) in snap.pods() {
        if let Some(n) = pod
            .status
            .nominated_node_name
            .as_deref()
            .filter(|n| !n.is_empty() && super::unschedulable::is_candidate(pod))
        {
            nominated
                .entry(n.to_string())
                .or_default()
                .push((*id, priority_of(snap, pod)));
        }
    }
    let counts = Counts {
        usage: &Placer::new(snap, &usage),
        without: &Placer::new(snap, &without),
        nominated: &nominated,
    };
    for (id, pod) in snap.pods() {
        if !super::unschedulable::is_candidate(pod) {
            continue;
        }
        if let Some(w) = analyze(snap, &counts, *id, pod) {
            out.insert(*id, w);
        }
    }
    out
}

/// Pending pods the scheduler nominated for a node (after preempting there), by node, with
/// their priorities.
type Nominated = HashMap<String, Vec<(ObjectId, i64)>>;

/// What the nodes hold, with and without the terminating pods, and who is nominated where.
struct Counts<'u> {
    usage: &'u Placer<'u>,
    without: &'u Placer<'u>,
    nominated: &'u Nominated,
}

fn analyze(snap: &Snapshot, counts: &Counts, id: ObjectId, pod: &Pod) -> Option<Wait> {
    let (usage, without) = (counts.usage, counts.without);
    if claims(snap, id, pod).iter().any(|c| c.blocking()) || !unread_requests(&pod.spec).is_empty()
    {
        return None;
    }
    let now = usage.evaluate(id, pod);
    if now.is_empty() || now.any_fits() {
        return None;
    }
    let need = pod_units(&pod.spec);
    if fit::unread_capacity(snap, now.unread_nodes(), &need, 0).1 > 0 {
        return None;
    }
    let later = without.evaluate(id, pod);
    let mut freed = Vec::new();
    let mut ids = BTreeSet::new();
    let prio = priority_of(snap, pod);
    // Only nodes that fit once the terminating pods are gone can be freed by them.
    for i in later.indices_where(|v| v.exclusions.is_empty()) {
        let (n, l) = (now.node(i), later.node(i));
        if taken_by_nominated(snap, counts.nominated, id, prio, &need, &l) {
            continue;
        }
        let held = holders(snap, pod, &n);
        if held.is_empty() {
            continue;
        }
        ids.extend(held.iter().copied());
        freed.push((n.name.to_string(), held));
    }
    if freed.is_empty() {
        return None;
    }
    let blockers: Vec<Blocker> = ids
        .into_iter()
        .filter_map(|b| {
            let deletion = Deletion::of(snap, b)?;
            let node = snap
                .pod(b)?
                .spec
                .node_name
                .as_deref()
                .unwrap_or("")
                .to_string();
            let node_ready = snap
                .node_named(&node)
                .map(|(_, nd)| nd.ready_status().unwrap_or("Unknown").to_string());
            Some(Blocker {
                id: b,
                node,
                deletion,
                node_ready,
            })
        })
        .collect();
    let mut wait = Wait {
        freed,
        blockers,
        escalation: None,
    };
    let found: Vec<Escalation> = [stuck(snap, &wait), past_deadline(snap, id, pod)]
        .into_iter()
        .flatten()
        .collect();
    wait.escalation = found.into_iter().reduce(|a, b| Escalation {
        severity: a.severity.min(b.severity),
        words: format!("{}; and {}", a.words, b.words),
        evidence: [a.evidence, b.evidence].concat(),
        help: format!("{}; {}", a.help, b.help),
        causes: [a.causes, b.causes].concat(),
    });
    Some(wait)
}

/// Whether pods nominated for node `l` with a priority of at least `prio` take the room the
/// terminating pods leave there: the scheduler counts them on their nominated node when it
/// filters a pod of lower or equal priority (upstream `addGENominatedPods`), so a pod
/// waiting for another's preemption victims does not get that room.
fn taken_by_nominated(
    snap: &Snapshot,
    nominated: &Nominated,
    id: ObjectId,
    prio: i64,
    need: &Units,
    l: &NodeFit,
) -> bool {
    let others: Vec<ObjectId> = nominated
        .get(l.name)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter(|(o, p)| *o != id && *p >= prio)
        .map(|(o, _)| *o)
        .collect();
    if others.is_empty() {
        return false;
    }
    let mut held: Units = Units::new();
    for o in &others {
        if let Some(p) = snap.pod(*o) {
            for (r, v) in pod_units(&p.spec) {
                *held.entry(r).or_default() += v;
            }
        }
    }
    let short = need.iter().any(|(r, want)| {
        let (free, _) = l.verdict.free.get(r).copied().unwrap_or((0, 0));
        want + held.get(r).copied().unwrap_or(0) > free
    });
    let slots = l.node.status.allocatable.contains_key("pods")
        && (l.usage.pods.len() + 1 + others.len()) as i128
            > crate::kube::meta::get_qty(&l.node.status.allocatable, "pods").value_ceil();
    short || slots
}

/// The terminating pods that make node `n` fail a filter the pod would pass without them:
/// those holding a resource it lacks, the host port it needs or a pod slot, and the
/// (anti-)affinity peer the filter named.
fn holders(snap: &Snapshot, pod: &Pod, n: &NodeFit) -> Vec<ObjectId> {
    let terminating = &n.usage.terminating;
    let mut out = BTreeSet::new();
    let ports = host_ports(&pod.spec);
    for x in &n.verdict.exclusions {
        match x {
            Exclusion::Resources(short) => {
                for id in terminating {
                    let units = snap
                        .pod(*id)
                        .map(|p| pod_units(&p.spec))
                        .unwrap_or_default();
                    if short
                        .iter()
                        .any(|s| units.get(s.resource.as_str()).is_some_and(|v| *v > 0))
                    {
                        out.insert(*id);
                    }
                }
            }
            Exclusion::TooManyPods { .. } => out.extend(terminating.iter().copied()),
            Exclusion::HostPort(port) => {
                for id in terminating {
                    if snap.pod(*id).is_some_and(|p| {
                        host_ports(&p.spec)
                            .iter()
                            .any(|hp| hp.0 == *port && ports.contains(hp))
                    }) {
                        out.insert(*id);
                    }
                }
            }
            Exclusion::AntiAffinity { other } | Exclusion::ExistingAntiAffinity { other }
                if snap
                    .pod(*other)
                    .is_some_and(|p| p.metadata.deletion_timestamp.is_some()) =>
            {
                out.insert(*other);
            }
            _ => {}
        }
    }
    out.into_iter().collect()
}

/// The wait does not end on its own when every freed node waits for a stuck blocker or one
/// on a node that is not Ready: an error when some blocker sits stuck on a node that is
/// gone or not Ready, else a warning (a Ready node's kubelet may still finish).
fn stuck(snap: &Snapshot, w: &Wait) -> Option<Escalation> {
    let healthy = |id: &ObjectId| {
        w.blocker(*id)
            .is_some_and(|b| !b.deletion.overdue(snap.as_of) && !b.node_down())
    };
    if w.freed.iter().any(|(_, ids)| ids.iter().all(healthy)) {
        return None;
    }
    let bad: Vec<&Blocker> = w
        .blockers
        .iter()
        .filter(|b| b.deletion.overdue(snap.as_of) || b.node_down())
        .collect();
    let lost = bad
        .iter()
        .any(|b| b.deletion.overdue(snap.as_of) && b.node_down());
    let overdue = bad.iter().any(|b| b.deletion.overdue(snap.as_of));
    let names: Vec<String> = bad
        .iter()
        .map(|b| snap.object(b.id).reference().display())
        .collect();
    let words = if overdue {
        format!(
            "that will not happen on its own: the deletion of {} is stuck, its grace period over by {} or more (node/terminating reports it)",
            names.join(", "),
            format_duration(crate::rules::deletion::OVERDUE_SECS)
        )
    } else {
        format!(
            "that will not happen on its own: {} {} on a node that is not Ready, whose kubelet cannot confirm the deletion",
            names.join(", "),
            if names.len() == 1 { "is" } else { "are" }
        )
    };
    let causes: BTreeSet<ObjectRef> = bad
        .iter()
        .map(|b| pod_findings::owner_of(snap, b.id))
        .collect();
    Some(Escalation {
        severity: if lost {
            Severity::Error
        } else {
            Severity::Warning
        },
        words,
        evidence: Vec::new(),
        help: "the terminating pods it waits for must go first: recover their node, or if it is gone for good delete its Node object (see node/terminating for the stuck deletion)".into(),
        causes: causes.into_iter().map(CauseHint::Object).collect(),
    })
}

/// Past the progress deadline of the pod's Deployment: by the Deployment's `Progressing`
/// condition when the bundle holds one (an error), else by the pod's pending time against
/// `progressDeadlineSeconds` (an error), or against the default 600 s when the owner is not
/// a Deployment in the bundle (a warning: nothing set that deadline).
fn past_deadline(snap: &Snapshot, id: ObjectId, pod: &Pod) -> Option<Escalation> {
    let deployment = deployment_of(snap, id);
    if let Some((did, d)) = deployment
        && let Some(c) = condition(&d.status.conditions, "Progressing")
    {
        if c.status == "False" && c.reason.as_deref() == Some("ProgressDeadlineExceeded") {
            let since = c
                .last_transition_time
                .as_deref()
                .and_then(parse_timestamp)
                .zip(snap.as_of)
                .map(|(t, now)| format!(" {} before the snapshot", format_duration(now - t)))
                .unwrap_or_default();
            return Some(Escalation {
                severity: Severity::Error,
                words: format!(
                    "the rollout is past its progress deadline: Deployment {} says Progressing=False, ProgressDeadlineExceeded{since}",
                    d.metadata.name
                ),
                evidence: vec![evidence::progress_deadline(snap, did, c)],
                help: DEADLINE_HELP.into(),
                causes: Vec::new(),
            });
        }
        // The controller's own account: still within the deadline.
        return None;
    }
    let deadline = deployment
        .and_then(|(_, d)| d.spec.progress_deadline_seconds)
        .unwrap_or(DEFAULT_DEADLINE_SECS);
    let since = pod
        .condition("PodScheduled")
        .filter(|c| c.status == "False")
        .and_then(|c| c.last_transition_time.as_deref())
        .or(pod.metadata.creation_timestamp.as_deref())
        .and_then(parse_timestamp)?;
    let pending = snap.as_of? - since;
    if pending <= deadline {
        return None;
    }
    let whose = match deployment {
        Some((_, d)) => format!(
            "Deployment {}'s progressDeadlineSeconds ({deadline}s; the bundle holds no Progressing condition for it, so kdiag measures the pod's pending time)",
            d.metadata.name
        ),
        None => format!(
            "the {deadline}s a Deployment's progress deadline allows by default ({} has no progress deadline, so kdiag measures the pod's pending time against that)",
            pod_findings::owner_of(snap, id).display()
        ),
    };
    Some(Escalation {
        // A Deployment has passed its own deadline; another owner only the yardstick.
        severity: if deployment.is_some() {
            Severity::Error
        } else {
            Severity::Warning
        },
        words: format!(
            "it has been pending for {}, longer than {whose}",
            format_duration(pending)
        ),
        evidence: Vec::new(),
        help: DEADLINE_HELP.into(),
        causes: Vec::new(),
    })
}

/// The Deployment that owns the pod's ReplicaSet, when the bundle holds both.
fn deployment_of(
    snap: &Snapshot,
    id: ObjectId,
) -> Option<(ObjectId, &crate::kube::workload::Deployment)> {
    let (r, found) = snap.top_controller(id)?;
    if r.kind != "Deployment" {
        return None;
    }
    let did = found?;
    Snapshot::view_of(snap.deployments(), did).map(|d| (did, d))
}

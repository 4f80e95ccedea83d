//! Who stopped a pod, in the pod's own words (not a rule): the `DisruptionTarget`
//! condition the API server, the scheduler, the taint manager, the pod garbage collector
//! and the kubelet write before they delete or terminate a pod, and Kueue's
//! `TerminationTarget` condition written when it stops a pod it manages. A Failed or
//! terminating pod that carries one was stopped on purpose, and the condition's reason and
//! message say by whom; every rule that judges a pod reads it here, so no such pod is
//! "failed without a reason".
//!
//! The words are the writers' own (Kubernetes `k8s.io/api` core/v1 and the controllers,
//! Kueue's pod integration):
//! - `PreemptionByScheduler`, "<scheduler>: preempting to accommodate a higher priority pod",
//!   with a `Preempted` event on the victim, "Preempted by pod <uid> on node <node>";
//! - `DeletionByTaintManager`, "Taint manager: deleting due to NoExecute taint";
//! - `EvictionByEvictionAPI`, "Eviction API: evicting" (whoever called it: a drain, the
//!   descheduler, an autoscaler, a user);
//! - `TerminationByKubelet`: node-pressure eviction (the eviction message), graceful node
//!   shutdown ("Pod was terminated in response to imminent node shutdown."), critical pod
//!   admission ("Pod was preempted by Kubelet to accommodate a critical pod.");
//! - `DeletionByPodGC`, "PodGC: node no longer exists" and the like;
//! - Kueue: type `TerminationTarget`, reason the stop reason (`WorkloadEvicted`,
//!   `WorkloadDeleted`, `NoMatchingWorkload`, `NotAdmitted`; `StoppedByKueue` before Kueue
//!   0.7), message the Workload's eviction message ("Preempted to accommodate a workload
//!   (UID: …) due to prioritization in the ClusterQueue", "Exceeded the PodsReady timeout
//!   ns/name", "The workload is deactivated", …).

use crate::kube::event::Event;
use crate::kube::kueue::Workload;
use crate::kube::meta::Condition;
use crate::kube::pod::Pod;
use crate::rules::evidence;
use crate::rules::{Evidence, Stage};
use crate::snapshot::{ObjectId, Snapshot};

/// Who stopped the pod, from the condition's reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Actor {
    /// Kueue's job framework (the Workload was evicted, deleted, not admitted).
    Kueue,
    /// kube-scheduler's preemption, for a higher-priority pod.
    Scheduler,
    /// The taint manager (taint-eviction controller), for a NoExecute taint.
    TaintManager,
    /// A call to the Eviction API (a drain, the descheduler, an autoscaler, a user).
    EvictionApi,
    /// The kubelet: node-pressure eviction, node shutdown, critical pod admission.
    Kubelet,
    /// The pod garbage collector (its node is gone or out of service).
    PodGc,
    /// A reason this module does not know, quoted as written.
    Other,
}

/// The condition that says the pod was stopped on purpose.
pub struct Disruption<'a> {
    pub actor: Actor,
    pub condition: &'a Condition,
}

impl Disruption<'_> {
    pub fn type_(&self) -> &str {
        &self.condition.type_
    }

    pub fn reason(&self) -> &str {
        self.condition.reason.as_deref().unwrap_or("")
    }

    pub fn message(&self) -> &str {
        self.condition.message.as_deref().unwrap_or("").trim()
    }

    /// The stage whose component stopped the pod.
    pub fn stage(&self) -> Stage {
        match self.actor {
            Actor::Kueue => Stage::Queue,
            Actor::Scheduler => Stage::Scheduling,
            _ => Stage::Node,
        }
    }

    /// "preempted by the scheduler", completing "was …".
    pub fn verb(&self) -> &'static str {
        match self.actor {
            Actor::Kueue => "stopped by Kueue",
            Actor::Scheduler => "preempted by the scheduler",
            Actor::TaintManager => "deleted by the taint manager",
            Actor::EvictionApi => "evicted through the Eviction API",
            Actor::Kubelet => "terminated by the kubelet",
            Actor::PodGc => "deleted by the pod garbage collector",
            Actor::Other => "marked for disruption",
        }
    }

    /// `DisruptionTarget=True, reason R at T: message`, cited at the condition.
    pub fn evidence(&self, snap: &Snapshot, id: ObjectId) -> Evidence {
        let t = self.type_();
        evidence::field(
            snap,
            id,
            &["status", "conditions", &format!("type={t}")],
            format!(
                "{t}=True, reason {}{}{}",
                if self.reason().is_empty() {
                    "(none)"
                } else {
                    self.reason()
                },
                self.condition
                    .last_transition_time
                    .as_deref()
                    .map(|at| format!(" at {at}"))
                    .unwrap_or_default(),
                if self.message().is_empty() {
                    String::new()
                } else {
                    format!(": {}", self.message())
                }
            ),
        )
    }
}

/// Kueue's own condition type for a pod it stops (`TerminationTarget`).
const KUEUE_TYPE: &str = "TerminationTarget";

/// The reasons Kueue's job framework gives a pod it stops (`jobframework.StopReason`), and
/// the one it gave before 0.7.
const KUEUE_REASONS: &[&str] = &[
    "StoppedByKueue",
    "WorkloadEvicted",
    "WorkloadDeleted",
    "NoMatchingWorkload",
    "NotAdmitted",
];

fn actor(c: &Condition) -> Option<Actor> {
    if c.status != "True" {
        return None;
    }
    let reason = c.reason.as_deref().unwrap_or("");
    if c.type_ == KUEUE_TYPE {
        return Some(Actor::Kueue);
    }
    if c.type_ != "DisruptionTarget" {
        return None;
    }
    Some(match reason {
        "PreemptionByScheduler" => Actor::Scheduler,
        "DeletionByTaintManager" => Actor::TaintManager,
        "EvictionByEvictionAPI" => Actor::EvictionApi,
        "TerminationByKubelet" => Actor::Kubelet,
        "DeletionByPodGC" => Actor::PodGc,
        r if KUEUE_REASONS.contains(&r) => Actor::Kueue,
        _ => Actor::Other,
    })
}

/// The pod's disruption condition (status True), if it carries one: the earliest written
/// when it carries two, as the first actor started the pod's end.
pub fn of(pod: &Pod) -> Option<Disruption<'_>> {
    pod.status
        .conditions
        .iter()
        .filter_map(|c| {
            actor(c).map(|a| Disruption {
                actor: a,
                condition: c,
            })
        })
        .min_by(|a, b| {
            let at = |d: &Disruption| d.condition.last_transition_time.clone();
            at(a).cmp(&at(b)).then(a.actor.cmp(&b.actor))
        })
}

/// What the bundle shows of the actor behind a disruption: a sentence completing "… — "
/// (empty when the condition says all there is) and its evidence.
pub struct Initiator {
    pub sentence: String,
    pub evidence: Vec<Evidence>,
    /// Kueue admitted the pod's Workload again since: the stop is history.
    pub resolved: Option<String>,
}

/// Follows the disruption to what the bundle shows of its cause: the Workload Kueue
/// evicted, the preemptor, the taint, who called the Eviction API.
pub fn initiator(snap: &Snapshot, id: ObjectId, pod: &Pod, d: &Disruption) -> Initiator {
    let mut out = Initiator {
        sentence: String::new(),
        evidence: Vec::new(),
        resolved: None,
    };
    let node = pod.spec.node_name.as_deref().filter(|n| !n.is_empty());
    match d.actor {
        Actor::Kueue => kueue(snap, id, pod, &mut out),
        Actor::Scheduler => preemptor(snap, id, &mut out),
        Actor::TaintManager => taint(snap, id, node, &mut out),
        Actor::EvictionApi => evictor(snap, id, node, &mut out),
        Actor::Kubelet | Actor::PodGc | Actor::Other => {
            if let Some(n) = node {
                out.evidence
                    .push(crate::rules::pod_findings::node_evidence(snap, n));
            }
        }
    }
    out
}

/// The Workload of a pod Kueue manages: owned by the pod or by one of its owners (a Job),
/// or named by the pod group label.
fn workload_of<'a>(snap: &'a Snapshot, pod: &Pod) -> Option<(ObjectId, &'a Workload)> {
    let ns = pod.metadata.namespace.as_deref();
    let mut uids: Vec<&str> = pod
        .metadata
        .owner_references
        .iter()
        .map(|o| o.uid.as_str())
        .collect();
    if let Some(u) = pod.metadata.uid.as_deref() {
        uids.push(u);
    }
    uids.retain(|u| !u.is_empty());
    let group = pod.metadata.labels.get("kueue.x-k8s.io/pod-group-name");
    snap.workloads()
        .iter()
        .filter(|(_, w)| w.metadata.namespace.as_deref() == ns)
        .find(|(_, w)| {
            w.metadata
                .owner_references
                .iter()
                .any(|o| uids.contains(&o.uid.as_str()))
                || group.is_some_and(|g| w.metadata.name == g.as_str())
        })
        .map(|(wid, w)| (*wid, w))
}

fn kueue(snap: &Snapshot, id: ObjectId, pod: &Pod, out: &mut Initiator) {
    let Some((wid, w)) = workload_of(snap, pod) else {
        let missing = if snap.has_kind("Workload") {
            "its Workload is not in the bundle"
        } else {
            "the bundle holds no Workloads, so why Kueue stopped it is only what the condition says"
        };
        out.sentence = missing.into();
        out.evidence
            .push(evidence::object(snap, id, format!("pod: {missing}")));
        return;
    };
    let name = &snap.object(wid).name;
    let mut said = Vec::new();
    for t in ["Evicted", "Preempted"] {
        if let Some(c) = w.condition(t).filter(|c| c.status == "True") {
            let reason = c.reason.as_deref().unwrap_or("(none)");
            let msg = c.message.as_deref().unwrap_or("").trim();
            said.push(format!("{t} ({reason})"));
            out.evidence.push(evidence::field(
                snap,
                wid,
                &["status", "conditions", &format!("type={t}")],
                format!(
                    "Workload {name}: {t}=True, reason {reason}{}{}",
                    c.last_transition_time
                        .as_deref()
                        .map(|at| format!(" at {at}"))
                        .unwrap_or_default(),
                    if msg.is_empty() {
                        String::new()
                    } else {
                        format!(": {msg}")
                    }
                ),
            ));
        }
    }
    if !w.is_active() {
        said.push("deactivated (spec.active: false)".into());
        out.evidence.push(evidence::field(
            snap,
            wid,
            &["spec", "active"],
            format!("Workload {name}: spec.active: false (deactivated)"),
        ));
    }
    out.sentence = if said.is_empty() {
        format!("its Workload {name} carries no Evicted, Preempted or deactivation now")
    } else {
        format!("its Workload {name} is {}", said.join(", "))
    };
    if w.is_active() && !w.is_finished() && w.has_quota_reserved() {
        out.resolved = Some(format!("Kueue admitted its Workload {name} again since"));
        out.evidence.push(evidence::field(
            snap,
            wid,
            &["status", "conditions", "type=QuotaReserved"],
            format!("Workload {name}: QuotaReserved=True"),
        ));
    }
}

/// The preemptor named by the scheduler's `Preempted` event: "Preempted by pod <uid> on
/// node <node>" (before Kubernetes 1.27: "Preempted by <namespace>/<name> on node <node>").
fn preemptor(snap: &Snapshot, id: ObjectId, out: &mut Initiator) {
    let events = snap.events_for(id);
    let Some((eid, e)) = events
        .iter()
        .rev()
        .find(|(_, e)| e.reason == "Preempted" && e.message.starts_with("Preempted by "))
    else {
        out.sentence = "the bundle holds no Preempted event naming the preemptor (events expire after about an hour)".into();
        return;
    };
    out.evidence.push(evidence::event(snap, *eid, e));
    let Some((who, node)) = parse_preempted(e) else {
        return;
    };
    let found = if who.contains('/') {
        let (ns, name) = who.split_once('/').unwrap_or_default();
        snap.find("Pod", Some(ns), name)
    } else {
        snap.by_uid(who).filter(|p| snap.pod(*p).is_some())
    };
    out.sentence = match found {
        Some(pid) => {
            let p = snap.object(pid);
            let who = format!("{}/{}", p.namespace.as_deref().unwrap_or(""), p.name);
            let prio = snap
                .pod(pid)
                .and_then(|p| p.spec.priority)
                .map(|n| format!(" (priority {n})"))
                .unwrap_or_default();
            out.evidence.push(evidence::object(
                snap,
                pid,
                format!("the preemptor: pod {who}{prio}"),
            ));
            format!("it made room for pod {who}{prio} on node {node}")
        }
        None => format!("it made room for pod {who} on node {node}, which is not in the bundle"),
    };
}

/// (preemptor uid or namespace/name, node) from a `Preempted` event.
fn parse_preempted(e: &Event) -> Option<(&str, &str)> {
    let rest = e.message.trim().strip_prefix("Preempted by ")?;
    let rest = rest.strip_prefix("pod ").unwrap_or(rest);
    let (who, node) = rest.split_once(" on node ")?;
    (!who.is_empty()).then_some((who.trim(), node.trim()))
}

/// The NoExecute taints of the pod's node.
fn taint(snap: &Snapshot, id: ObjectId, node: Option<&str>, out: &mut Initiator) {
    let events = snap.events_for(id);
    if let Some((eid, e)) = events
        .iter()
        .rev()
        .find(|(_, e)| e.reason == "TaintManagerEviction")
    {
        out.evidence.push(evidence::event(snap, *eid, e));
    }
    let Some(node) = node else {
        out.sentence = "it names no node, so which taint is unknown".into();
        return;
    };
    let Some((nid, n)) = snap.node_named(node) else {
        out.sentence = format!("node {node} is not in the bundle, so which taint is unknown");
        return;
    };
    let taints: Vec<String> = n
        .spec
        .taints
        .iter()
        .filter(|t| t.effect == "NoExecute")
        .map(|t| match t.value.as_deref().filter(|v| !v.is_empty()) {
            Some(v) => format!("{}={v}:NoExecute", t.key),
            None => format!("{}:NoExecute", t.key),
        })
        .collect();
    if taints.is_empty() {
        out.sentence = format!("node {node} carries no NoExecute taint now (it was removed since)");
        out.evidence.push(evidence::object(
            snap,
            nid,
            format!("node {node}: no NoExecute taint"),
        ));
        return;
    }
    out.sentence = format!("node {node} is tainted {}", taints.join(", "));
    out.evidence.push(evidence::field(
        snap,
        nid,
        &["spec", "taints"],
        format!("node {node}: taints {}", taints.join(", ")),
    ));
}

/// Who called the Eviction API, as far as the bundle shows: the descheduler's or the
/// cluster autoscaler's event on the pod, or a cordoned node (a drain cordons first).
fn evictor(snap: &Snapshot, id: ObjectId, node: Option<&str>, out: &mut Initiator) {
    let events = snap.events_for(id);
    let by = events.iter().rev().find_map(|(eid, e)| {
        if e.message.contains("sigs.k8s.io/descheduler") {
            Some((eid, e, "the descheduler evicted it"))
        } else if e.reason == "ScaleDown" {
            Some((
                eid,
                e,
                "the cluster autoscaler evicted it to scale its node down",
            ))
        } else {
            None
        }
    });
    if let Some((eid, e, what)) = by {
        out.sentence = what.into();
        out.evidence.push(evidence::event(snap, *eid, e));
        return;
    }
    if let Some(node) = node
        && let Some((nid, n)) = snap.node_named(node)
        && n.spec.unschedulable
    {
        out.sentence =
            format!("node {node} is cordoned (spec.unschedulable: true), as a drain leaves it");
        out.evidence.push(evidence::field(
            snap,
            nid,
            &["spec", "unschedulable"],
            format!("node {node}: spec.unschedulable: true"),
        ));
        return;
    }
    out.sentence = "the bundle does not show who called the Eviction API (a drain, the descheduler, an autoscaler or a user)".into();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(message: &str) -> Event {
        Event {
            reason: "Preempted".into(),
            message: message.into(),
            ..Event::default()
        }
    }

    #[test]
    fn preempted_event_names_the_preemptor() {
        assert_eq!(
            parse_preempted(&ev(
                "Preempted by pod 5c1f2a8e-1b2c-4d3e-8f90-a1b2c3d4e5f6 on node worker-1"
            )),
            Some(("5c1f2a8e-1b2c-4d3e-8f90-a1b2c3d4e5f6", "worker-1"))
        );
        assert_eq!(
            parse_preempted(&ev("Preempted by batch/importer-x on node n1")),
            Some(("batch/importer-x", "n1"))
        );
        assert_eq!(parse_preempted(&ev("Preempted by  on node n1")), None);
        assert_eq!(parse_preempted(&ev("Preempting")), None);
    }
}

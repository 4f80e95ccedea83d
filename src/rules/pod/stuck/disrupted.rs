//! A pod stopped on purpose: its `DisruptionTarget` (or Kueue's `TerminationTarget`)
//! condition names who stopped it and why, and the stage is that component's; and a
//! Failed pod that was never scheduled, whose `PodScheduled=False` condition keeps the
//! scheduler's last word.

use super::{Diagnosis, pod_field};
use crate::kube::pod::Pod;
use crate::kube::time::{format_duration, parse_timestamp};
use crate::rules::disruption::{self, Actor, Disruption};
use crate::rules::{Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};

/// The diagnosis of a Failed pod (`terminating` false) or of a pod being deleted
/// (`terminating` true) that carries a disruption condition.
pub(super) fn disrupted(
    snap: &Snapshot,
    id: ObjectId,
    pod: &Pod,
    d: &Disruption,
    terminating: bool,
) -> Diagnosis {
    let who = disruption::initiator(snap, id, pod, d);
    let mut evidence = vec![d.evidence(snap, id)];
    evidence.extend(who.evidence);
    let mut summary = format!("was {} ({}", d.verb(), label(d));
    if !d.message().is_empty() {
        summary.push_str(&format!(": {}", d.message()));
    }
    summary.push(')');
    if !who.sentence.is_empty() {
        summary.push_str(&format!("; {}", who.sentence));
    }
    // Containers that exited non-zero because they were stopped are the stop's effect,
    // not a crash: said as a fact.
    if let Some((cs, _)) = pod.all_statuses().find(|(c, _)| {
        c.state
            .terminated
            .as_ref()
            .is_some_and(|t| t.exit_code.unwrap_or(0) != 0)
    }) {
        let code = cs
            .state
            .terminated
            .as_ref()
            .and_then(|t| t.exit_code)
            .unwrap_or(0);
        summary.push_str(&format!(
            "; container {} exited with code {code} as it was stopped",
            cs.name
        ));
    }
    let mut severity = match (terminating, d.actor) {
        (false, Actor::Kubelet) => Severity::Error,
        _ => Severity::Warning,
    };
    let mut cause = format!("disrupted:{}", label(d));
    if terminating {
        match grace_left(snap, pod) {
            Some(left) if left >= 0 => {
                severity = Severity::Info;
                summary.push_str(&format!(
                    " — it is terminating, and its grace period ends in {}",
                    format_duration(left)
                ));
                cause.push_str(":terminating");
            }
            Some(left) => summary.push_str(&format!(
                " — it is still terminating {} after its grace period ended",
                format_duration(-left)
            )),
            None => {}
        }
    }
    if let Some(resolved) = who.resolved
        && severity != Severity::Info
    {
        severity = Severity::Info;
        summary.push_str(&format!(" — history: {resolved}"));
        cause.push_str(":resolved");
    }
    Diagnosis {
        stage: d.stage(),
        severity,
        cause,
        summary,
        evidence,
        help: help(d.actor),
    }
}

/// The condition's reason, or its type when it gives none.
fn label<'a>(d: &'a Disruption) -> &'a str {
    if d.reason().is_empty() {
        d.type_()
    } else {
        d.reason()
    }
}

/// Seconds from the snapshot to the end of the pod's grace period (its
/// `deletionTimestamp`), negative once it has passed.
fn grace_left(snap: &Snapshot, pod: &Pod) -> Option<i64> {
    let end = parse_timestamp(pod.metadata.deletion_timestamp.as_deref()?)?;
    Some(end - snap.as_of?)
}

fn help(actor: Actor) -> &'static str {
    match actor {
        Actor::Kueue => {
            "Kueue stops the pods of a Workload that lost its admission (preempted, PodsReady timeout, deactivated, deleted): the Workload's Evicted condition says why; a stopped pod is not restarted, so what created it must create it again"
        }
        Actor::Scheduler => {
            "a higher-priority pod took its place: give the workload a PriorityClass that matches its importance, or add capacity so both fit"
        }
        Actor::TaintManager => {
            "its node carries a NoExecute taint the pod does not tolerate (or tolerates only for tolerationSeconds): fix the node's condition, or add a toleration if the pod must stay"
        }
        Actor::EvictionApi => {
            "an eviction honours PodDisruptionBudgets; if it was not planned, find who evicted it (a drain, the descheduler, an autoscaler) in the API audit log"
        }
        Actor::Kubelet => {
            "the kubelet stopped the pod (node pressure, node shutdown, or to admit a critical pod): check the node's conditions and whether the controller replaced the pod"
        }
        Actor::PodGc => {
            "its node is gone or out of service; its controller replaces the pod elsewhere"
        }
        Actor::Other => {
            "the condition's reason and message name the component that stopped the pod"
        }
    }
}

/// A Failed pod that was never scheduled: the scheduler's last word is the reason.
pub(super) fn failed_unscheduled(snap: &Snapshot, id: ObjectId, pod: &Pod) -> Option<Diagnosis> {
    if pod.spec.node_name.as_deref().is_some_and(|n| !n.is_empty()) {
        return None;
    }
    let c = pod
        .condition("PodScheduled")
        .filter(|c| c.status == "False")?;
    let reason = c.reason.as_deref().unwrap_or("(none)");
    let message = c.message.as_deref().unwrap_or("").trim();
    let at = c
        .last_transition_time
        .as_deref()
        .map(|t| format!(" at {t}"))
        .unwrap_or_default();
    Some(Diagnosis {
        stage: Stage::Scheduling,
        severity: Severity::Error,
        cause: format!("failed-unscheduled:{reason}"),
        summary: format!(
            "failed without ever being scheduled; the scheduler's last word{at} ({reason}){}",
            if message.is_empty() {
                String::new()
            } else {
                format!(": {message}")
            }
        ),
        evidence: vec![pod_field(
            snap,
            id,
            &["status", "conditions", "type=PodScheduled"],
            format!(
                "PodScheduled=False, reason {reason}{at}{}",
                if message.is_empty() {
                    String::new()
                } else {
                    format!(": {message}")
                }
            ),
        )],
        help: "the pod was deleted or failed while it waited for a node; compare its requests, selectors, affinity and tolerations with the nodes, as the scheduler's message says",
    })
}

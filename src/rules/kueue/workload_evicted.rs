//! Workloads that lost their admission: preempted, PodsReady timeout, deactivated,
//! stopped queues; and deactivated Workloads that will not be admitted again.

use super::chain::words::until_words;
use super::chain::{self, Chain, Ctx, Verdict};
use crate::declare_rule;
use crate::rules::reach::Reach;
use crate::rules::{Context, Evidence, Finding, Severity, Stage, evidence};

declare_rule! {
    /// A Workload was evicted (preempted, PodsReady timeout, stopped queue) or deactivated, and is not admitted now.
    ///
    /// Reads the `Evicted` condition (reasons `Preempted`, `PodsReadyTimeout`,
    /// `LocalQueueStopped`, `ClusterQueueStopped`, `AdmissionCheck`, `NodeFailures`,
    /// `Deactivated` and `DeactivatedDueTo<cause>`), the `Preempted` condition (which
    /// preemptor and why), `spec.active` and `status.requeueState` (back-off after a
    /// PodsReady timeout). A deactivated Workload (`spec.active: false`, e.g. after too many
    /// re-queues or the maximum execution time) is never admitted again until someone
    /// reactivates it: an error. An evicted one is re-queued; what keeps it out now is
    /// reported by the chain rules.
    pub static WORKLOAD_EVICTED = {
        id: "kueue/workload-evicted",
        stage: Stage::Queue,
        severity: Severity::Warning,
        fallback: false,
        // Wide: see `kueue_reach`.
        reach: Reach::Wide(super::kueue_reach),
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    if !ctx.snapshot.has_kind("Workload") {
        return Vec::new();
    }
    let snap = ctx.snapshot;
    // Only Workloads that are deactivated, evicted or in back-off are analyzed.
    let candidates: Vec<_> = snap
        .workloads()
        .iter()
        .filter(|(id, w)| {
            chain::is_live(snap, *id)
                && !w.has_quota_reserved()
                && !w.is_finished()
                && (!w.is_active()
                    || w.condition("Evicted").is_some_and(|e| e.status == "True")
                    || w.status
                        .requeue_state
                        .as_ref()
                        .is_some_and(|r| r.requeue_at.is_some()))
        })
        .collect();
    if candidates.is_empty() {
        return Vec::new();
    }
    let k = Ctx::new(snap);
    candidates
        .into_iter()
        .filter_map(|(id, w)| finding(&k, &chain::analyze(&k, *id, w)))
        .collect()
}

fn finding(k: &Ctx, c: &Chain) -> Option<Finding> {
    let snap = c.snap;
    let w = c.wl;
    if matches!(c.verdict, Verdict::Admitted | Verdict::Finished) || w.has_quota_reserved() {
        return None;
    }
    let evicted = w.condition("Evicted").filter(|e| e.status == "True");
    let inactive = !w.is_active();
    let backoff = match c.verdict {
        Verdict::Backoff { until } => Some(until),
        _ => None,
    };
    if evicted.is_none() && !inactive && backoff.is_none() {
        return None;
    }
    let subj = c.subject();
    let reason = evicted.and_then(|e| e.reason.clone()).unwrap_or_default();
    let message = evicted.and_then(|e| e.message.clone()).unwrap_or_default();
    let requeues = w
        .status
        .requeue_state
        .as_ref()
        .and_then(|r| r.count)
        .map(|n| format!(", re-queued {n} time(s) so far"))
        .unwrap_or_default();
    let mut ev: Vec<Evidence> = Vec::new();
    if inactive {
        ev.push(k.field(
            c.id,
            &["spec", "active"],
            "spec.active: false (deactivated)",
        ));
    }
    if let Some(e) = evicted {
        ev.push(k.field(
            c.id,
            &["status", "conditions", "type=Evicted"],
            format!(
                "Evicted=True, reason {}{}: {}",
                e.reason.as_deref().unwrap_or("(none)"),
                e.last_transition_time
                    .as_deref()
                    .map(|t| format!(" at {t}"))
                    .unwrap_or_default(),
                e.message.as_deref().unwrap_or("")
            ),
        ));
    }
    if let Some(p) = w.condition("Preempted").filter(|p| p.status == "True") {
        ev.push(k.field(
            c.id,
            &["status", "conditions", "type=Preempted"],
            format!(
                "Preempted=True, reason {}: {}",
                p.reason.as_deref().unwrap_or("(none)"),
                p.message.as_deref().unwrap_or("")
            ),
        ));
    }
    if let Some(r) = &w.status.requeue_state {
        ev.push(k.field(
            c.id,
            &["status", "requeueState"],
            format!(
                "requeueState: count {}, requeueAt {}",
                r.count.map(|n| n.to_string()).unwrap_or_else(|| "-".into()),
                r.requeue_at.as_deref().unwrap_or("-")
            ),
        ));
    }
    for (eid, e) in snap
        .events_for(c.id)
        .into_iter()
        .filter(|(_, e)| {
            matches!(
                e.reason.as_str(),
                "Preempted" | "EvictedDueToPodsReadyTimeout" | "Evicted" | "Deactivated"
            )
        })
        .rev()
        .take(2)
    {
        ev.push(evidence::event(snap, eid, e));
    }
    let full = c.evidence(k);
    // The owner (Job) and the queue hops, from the chain.
    ev.extend(full.into_iter().filter(|e| {
        e.object.as_ref().is_some_and(|o| {
            o.kind != "Event" && (o.kind != "Workload" || o.name != w.metadata.name)
        })
    }));
    let (severity, cause, what, help) = if inactive {
        (
            Severity::Error,
            "deactivated".to_string(),
            format!(
                "{subj} is deactivated (spec.active: false){}{requeues}: Kueue will not admit it again until it is reactivated",
                if reason.is_empty() {
                    String::new()
                } else {
                    format!(", evicted with reason {reason}: {message}")
                }
            ),
            "find why it was deactivated (the Evicted reason: re-queue limit, maximum execution time, a rejected admission check), fix that, then set spec.active: true on the Workload (or recreate the Job)",
        )
    } else if let Some(until) = backoff {
        (
            Severity::Warning,
            "requeue-backoff".to_string(),
            format!(
                "{subj} was evicted{}{requeues}; it waits in re-queue back-off until {} ({})",
                if reason.is_empty() {
                    String::new()
                } else {
                    format!(" ({reason}: {message})")
                },
                crate::kube::time::format_rfc3339(until),
                until_words(snap, until)
            ),
            "the Workload is re-queued when the back-off ends; repeated PodsReady timeouts mean its pods cannot all start in time: look at why they stay Pending",
        )
    } else {
        let preempted = w
            .condition("Preempted")
            .filter(|p| p.status == "True")
            .and_then(|p| p.reason.clone())
            .map(|r| format!(" ({r})"))
            .unwrap_or_default();
        (
            Severity::Warning,
            format!("evicted:{reason}"),
            format!(
                "{subj} was evicted, reason {reason}{preempted}: {message}{requeues}; it is queued again and not admitted now"
            ),
            match reason.as_str() {
                "Preempted" => {
                    "a higher-priority Workload (or a cohort reclaim) took its quota; it is admitted again when quota frees up — see the queue finding for what it waits on now"
                }
                "PodsReadyTimeout" => {
                    "its pods did not all become ready within waitForPodsReady's timeout; look at why the pods stayed Pending (scheduling or node stage)"
                }
                "LocalQueueStopped" | "ClusterQueueStopped" => {
                    "the queue was stopped with HoldAndDrain; resume it (stopPolicy: None)"
                }
                _ => {
                    "read the Evicted message; the Workload is re-queued and the queue finding says what it waits on now"
                }
            },
        )
    };
    let mut explains = c.pods.clone();
    if let Some((_, _, Some(oid))) = &c.owner {
        explains.push(*oid);
    }
    explains.push(c.id);
    let mut f = Finding::new(
        &WORKLOAD_EVICTED,
        severity,
        snap.object(c.id).reference(),
        &cause,
        what,
        ev,
        help.to_string(),
        explains,
    );
    f.details = Some(c.details(k));
    Some(f)
}

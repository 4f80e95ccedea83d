//! A startup probe that has not succeeded yet.

use crate::declare_rule;
use crate::kube::pod::Pod;
use crate::kube::time::{format_duration, parse_timestamp};
use crate::rules::evidence;
use crate::rules::not_ready::{self, NotReady, PodDiagnosis, ProbeKind};
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};

declare_rule! {
    /// A Running pod is not Ready because a container's startup probe has not succeeded yet.
    ///
    /// Until the startup probe passes (`started: false`) the kubelet runs neither the
    /// readiness nor the liveness probe, so the pod stays out of its Services. Recomputed:
    /// the time since the container started against the probe's budget (initialDelaySeconds
    /// + failureThreshold × periodSeconds). Within the budget the app is still starting
    /// (`info`); past it, or with restarts and `Startup probe failed` events, the app does
    /// not come up in time and the kubelet keeps restarting it (`warning`): raise the budget
    /// to the app's real start time or fix what slows the start.
    pub static STARTUP_PROBE_PENDING = {
        id: "readiness/startup-probe-pending",
        stage: Stage::Readiness,
        severity: Severity::Warning,
        fallback: false,
        // Local: each pod with its Events, grouped by the pod's owner.
        reach: Reach::Local,
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let diags = snap
        .pods()
        .iter()
        .filter_map(|(id, pod)| match not_ready::classify(pod)? {
            NotReady::Startup { containers } => Some(diagnose(snap, *id, pod, &containers)),
            _ => None,
        })
        .collect();
    not_ready::group(snap, &STARTUP_PROBE_PENDING, diags)
}

fn diagnose(snap: &Snapshot, id: ObjectId, pod: &Pod, containers: &[String]) -> PodDiagnosis {
    let events = snap.events_for(id);
    let mut ev = Vec::new();
    let mut parts = Vec::new();
    let mut severity = Severity::Info;
    for name in containers {
        let Some(c) = pod.spec.containers.iter().find(|c| c.name == name) else {
            continue;
        };
        let Some(probe) = ProbeKind::Startup.of(c) else {
            continue;
        };
        let cs = pod
            .status
            .container_statuses
            .iter()
            .find(|s| s.name == name);
        let restarts = cs.map(|s| s.restart_count).unwrap_or(0);
        let elapsed = cs
            .and_then(|s| s.state.running.as_ref())
            .and_then(|r| r.started_at.as_deref())
            .and_then(parse_timestamp)
            .zip(snap.as_of)
            .map(|(t, a)| a - t);
        let budget = probe.startup_budget();
        ev.push(not_ready::probe_evidence(
            snap,
            id,
            name,
            ProbeKind::Startup,
            format!(
                "container {name} startupProbe: {} — budget {budget}s (initialDelaySeconds {} + failureThreshold {} × periodSeconds {})",
                probe.describe(),
                probe.initial_delay,
                probe.failure_threshold,
                probe.period
            ),
        ));
        let status_path = format!("name={name}");
        ev.push(evidence::field(
            snap,
            id,
            &["status", "containerStatuses", &status_path],
            format!(
                "container {name}: running, started=false, {restarts} restart(s){}",
                elapsed
                    .map(|e| format!(", started {} before the snapshot", format_duration(e)))
                    .unwrap_or_default()
            ),
        ));
        let probe_evs = not_ready::probe_events(&events, name, ProbeKind::Startup);
        for (eid, e) in probe_evs.iter().rev().take(1) {
            ev.push(evidence::event(snap, *eid, e));
        }
        let over_budget = elapsed.is_some_and(|e| e > budget);
        let failing = restarts > 0 || !probe_evs.is_empty() || over_budget;
        let mut part = match elapsed {
            Some(e) if !failing => format!(
                "container {name} is still starting: {} of its {} startup budget used",
                format_duration(e),
                format_duration(budget)
            ),
            Some(e) => format!(
                "container {name} has not passed its startup probe ({} since its last start, budget {})",
                format_duration(e),
                format_duration(budget)
            ),
            None => format!(
                "container {name} has not passed its startup probe yet (budget {})",
                format_duration(budget)
            ),
        };
        if failing {
            severity = Severity::Warning;
            if restarts > 0 {
                part.push_str(&format!(
                    "; the kubelet restarted it {} because the app does not come up within the budget",
                    if restarts == 1 { "once".to_string() } else { format!("{restarts} times") }
                ));
            }
            if let Some((_, e)) = probe_evs.last() {
                let (out, _) = not_ready::probe_output(&e.message);
                part.push_str(&format!(": {out}"));
                if let Some(f) = not_ready::failing_for(snap, &probe_evs) {
                    part.push_str(&format!("; {f}"));
                }
            }
        }
        parts.push(part);
    }
    ev.extend(not_ready::ready_condition_evidence(snap, id, pod));
    let help = if severity == Severity::Info {
        "nothing to do yet if the app normally starts this slowly; the pod joins its Services once the startup and readiness probes pass"
    } else {
        "raise the startup probe's failureThreshold × periodSeconds to the app's real start time, or find what slows the start in the app's log"
    };
    PodDiagnosis {
        id,
        severity,
        cause: format!("startup-probe:{}", containers.join(",")),
        summary: format!("is Running but not Ready: {}", parts.join("; ")),
        evidence: ev,
        help: help.into(),
    }
}

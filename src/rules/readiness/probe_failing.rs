//! Running but not Ready because the readiness probe fails.

use crate::declare_rule;
use crate::kube::pod::Pod;
use crate::rules::evidence;
use crate::rules::not_ready::{self, NotReady, PodDiagnosis, PortRef, ProbeKind};
use crate::rules::pod_findings;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};

declare_rule! {
    /// A Running pod is not Ready because a container's readiness probe keeps failing.
    ///
    /// Quotes the probe's own words from the kubelet's `Unhealthy` events (HTTP status code,
    /// connection refused, timeout, exec output) with how long it has been failing and how
    /// often, next to the probe definition from the pod spec. A failing readiness probe does
    /// not restart the container; it only keeps the pod out of every Service's ready
    /// endpoints, so the pod runs and receives no traffic. When the bundle holds no probe
    /// event (they expire after about an hour) the finding says so and dates the failure from
    /// the Ready condition; a pod created less than 60 seconds before the snapshot with no
    /// probe event yet is `info`: nothing has had time to happen. Fix the app or the probe (path, port, timeout), not the node.
    pub static PROBE_FAILING = {
        id: "readiness/probe-failing",
        stage: Stage::Readiness,
        severity: Severity::Warning,
        fallback: false,
        // Local: each pod with its Events and its namespace's Services, grouped by the pod's owner.
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
            NotReady::ProbeFailing { containers } => Some(diagnose(snap, *id, pod, &containers)),
            _ => None,
        })
        .collect();
    not_ready::group(snap, &PROBE_FAILING, diags)
}

fn diagnose(snap: &Snapshot, id: ObjectId, pod: &Pod, containers: &[String]) -> PodDiagnosis {
    let events = snap.events_for(id);
    let mut ev = Vec::new();
    ev.extend(not_ready::ready_condition_evidence(snap, id, pod));
    let mut parts = Vec::new();
    let mut any_event = false;
    for name in containers {
        let Some(c) = pod.spec.containers.iter().find(|c| c.name == name) else {
            continue;
        };
        let Some(probe) = ProbeKind::Readiness.of(c) else {
            continue;
        };
        ev.push(not_ready::probe_evidence(
            snap,
            id,
            name,
            ProbeKind::Readiness,
            format!(
                "container {name} readinessProbe: {} (timeout {}s, every {}s, failureThreshold {})",
                probe.describe(),
                probe.timeout,
                probe.period,
                probe.failure_threshold
            ),
        ));
        let probe_evs = not_ready::probe_events(&events, name, ProbeKind::Readiness);
        let mut part = format!(
            "container {name} fails its readiness probe ({})",
            probe.describe()
        );
        any_event |= !probe_evs.is_empty();
        match probe_evs.last() {
            Some((_, e)) => {
                let (out, errored) = not_ready::probe_output(&e.message);
                if errored {
                    part.push_str(&format!(": the kubelet cannot run it: {out}"));
                } else {
                    part.push_str(&format!(": {out}"));
                }
                if let Some(words) = not_ready::explain_output(out, Some(&probe)) {
                    part.push_str(&format!(" — {words}"));
                }
                if let Some(f) = not_ready::failing_for(snap, &probe_evs) {
                    part.push_str(&format!("; {f}"));
                }
                // Older distinct failures first, the newest last (the one quoted).
                let distinct = probe_evs.len();
                for (eid, e) in probe_evs.iter().skip(distinct.saturating_sub(2)) {
                    ev.push(evidence::event(snap, *eid, e));
                }
                if out.contains("connection refused")
                    && let Some(PortRef::Number(n)) = probe.port()
                    && !c.ports.is_empty()
                    && !c.ports.iter().any(|p| p.container_port == *n)
                {
                    let declared: Vec<String> = c
                        .ports
                        .iter()
                        .map(|p| match &p.name {
                            Some(pn) => format!("{} ({pn})", p.container_port),
                            None => p.container_port.to_string(),
                        })
                        .collect();
                    ev.push(not_ready::probe_evidence(
                        snap,
                        id,
                        name,
                        ProbeKind::Readiness,
                        format!(
                            "the probe targets port {n}, but container {name} declares only {}: the probe may point at the wrong port",
                            declared.join(", ")
                        ),
                    ));
                    part.push_str(&format!(
                        "; the probe targets port {n}, the container declares {}",
                        declared.join(", ")
                    ));
                }
            }
            None => {
                let since = not_ready::since_transition(snap, pod, "Ready")
                    .map(|d| format!(" for {d}"))
                    .unwrap_or_default();
                part.push_str(&format!(
                    ": not ready{since}, and the bundle holds no Unhealthy event saying why (events expire after about an hour)"
                ));
            }
        }
        parts.push(part);
    }
    let mut d = PodDiagnosis {
        id,
        severity: Severity::Warning,
        cause: format!("readiness-probe:{}", containers.join(",")),
        summary: format!("is Running but not Ready: {}", parts.join("; ")),
        evidence: ev,
        help: "the readiness probe fails, so no Service sends this pod traffic (it is not restarted): compare the probe's path, port and timeout with what the app serves, and read the app's log".into(),
    };
    // No probe event yet for a pod created seconds before the snapshot: nothing has had
    // time to happen.
    if !any_event && let Some(age) = pod_findings::just_created(snap, pod) {
        d.severity = Severity::Info;
        d.summary.push_str(&format!(
            " — created {age}s before the snapshot; nothing has had time to happen"
        ));
        d.cause.push_str(":just-created");
        d.help =
            "nothing to do yet: take the bundle again in a minute if the pod is still not Ready"
                .into();
    }
    d
}

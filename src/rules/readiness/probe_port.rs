//! A probe that targets a port name the container does not declare.

use crate::declare_rule;
use crate::kube::pod::Pod;
use crate::rules::evidence;
use crate::rules::not_ready::{self, NotReady, PodDiagnosis, PortRef, ProbeKind};
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};

declare_rule! {
    /// A readiness or startup probe names a port the container does not declare.
    ///
    /// The pod never becomes Ready.
    /// The kubelet resolves a probe's named port only in that container's own `ports`
    /// (`findPortByName`); when the name is missing it tries the name as a number, fails,
    /// and the probe errors on every period (`Readiness probe errored …: strconv.Atoi:
    /// parsing "http": invalid syntax`). An errored probe keeps its last result, so the
    /// container stays not ready (or not started) forever without a restart, and no Service
    /// routes to it. Recomputed from the pod spec: the probe's port name against the
    /// container's declared port names. Fix: name the container port, or probe a number.
    pub static PROBE_PORT_UNDECLARED = {
        id: "readiness/probe-port-undeclared",
        stage: Stage::Readiness,
        severity: Severity::Error,
        fallback: false,
        // Local: each pod with its Events.
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
            NotReady::PortUndeclared {
                container,
                kind,
                port,
            } => Some(diagnose(snap, *id, pod, &container, kind, &port)),
            _ => None,
        })
        .collect();
    not_ready::group(snap, &PROBE_PORT_UNDECLARED, diags)
}

fn diagnose(
    snap: &Snapshot,
    id: ObjectId,
    pod: &Pod,
    container: &str,
    kind: ProbeKind,
    port: &str,
) -> PodDiagnosis {
    let c = pod.spec.containers.iter().find(|c| c.name == container);
    let declared: Vec<String> = c
        .map(|c| {
            c.ports
                .iter()
                .map(|p| match p.name.as_deref().filter(|n| !n.is_empty()) {
                    Some(n) => format!("{n}={}", p.container_port),
                    None => format!("{} (unnamed)", p.container_port),
                })
                .collect()
        })
        .unwrap_or_default();
    let declared_text = if declared.is_empty() {
        "no ports at all".to_string()
    } else {
        declared.join(", ")
    };
    let probe = c.and_then(|c| kind.of(c));
    let mut ev = Vec::new();
    ev.push(not_ready::probe_evidence(
        snap,
        id,
        container,
        kind,
        format!(
            "container {container} {}Probe: {} — port name {port:?} is not among the container's ports ({declared_text})",
            kind.word(),
            probe.as_ref().map(|p| p.describe()).unwrap_or_default()
        ),
    ));
    if let Some(c) = c
        && !c.ports.is_empty()
    {
        let name = format!("name={container}");
        ev.push(evidence::field(
            snap,
            id,
            &["spec", "containers", &name, "ports"],
            format!("container {container} declares ports: {declared_text}"),
        ));
    }
    // Other probes of the container that name the same missing port.
    let others: Vec<&str> = c
        .map(|c| {
            [
                ProbeKind::Readiness,
                ProbeKind::Startup,
                ProbeKind::Liveness,
            ]
            .into_iter()
            .filter(|k| *k != kind)
            .filter(|k| {
                k.of(c).as_ref().and_then(|p| p.port().cloned())
                    == Some(PortRef::Name(port.to_string()))
            })
            .map(ProbeKind::word)
            .collect()
        })
        .unwrap_or_default();
    ev.extend(not_ready::ready_condition_evidence(snap, id, pod));
    let events = snap.events_for(id);
    let probe_evs = not_ready::probe_events(&events, container, kind);
    let mut summary = format!(
        "never becomes Ready: the {} probe of container {container} targets port name {port:?}, which the container does not declare (it declares {declared_text}), so the kubelet cannot run the probe",
        kind.word()
    );
    if let Some((eid, e)) = probe_evs.last() {
        ev.push(evidence::event(snap, *eid, e));
        let (out, _) = not_ready::probe_output(&e.message);
        summary.push_str(&format!(": {out}"));
        if let Some(f) = not_ready::failing_for(snap, &probe_evs) {
            summary.push_str(&format!("; {f}"));
        }
    }
    if !others.is_empty() {
        summary.push_str(&format!(
            "; its {} probe names the same port",
            others.join(" and ")
        ));
    }
    PodDiagnosis {
        id,
        severity: Severity::Error,
        cause: format!("probe-port:{container}:{port}"),
        summary,
        evidence: ev,
        help: format!(
            "add `name: {port}` to the container port the app listens on, or give the probe the port number; waiting will not help"
        ),
    }
}

//! Containers ready, pod held back by readiness gates.

use crate::declare_rule;
use crate::kube::pod::Pod;
use crate::rules::evidence;
use crate::rules::not_ready::{self, NotReady, PodDiagnosis};
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};

declare_rule! {
    /// Every container is ready, but readiness gates hold the pod back.
    ///
    /// A readiness gate's condition is missing or not `True`.
    /// A pod with `spec.readinessGates` is Ready only when every gate's condition in
    /// `status.conditions` is `True`; some other controller (often a cloud load balancer
    /// controller registering the pod as a target) must set it. Recomputed: each gate
    /// against the pod's conditions, so "missing" (nobody has written it) is told apart from
    /// "False" (the controller says no, with its reason). Look at that controller, not at the
    /// app.
    pub static READINESS_GATES_PENDING = {
        id: "readiness/gates-pending",
        stage: Stage::Readiness,
        severity: Severity::Warning,
        fallback: false,
        // Local: each pod's own conditions.
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
            NotReady::Gates { pending } => Some(diagnose(snap, *id, pod, &pending)),
            _ => None,
        })
        .collect();
    not_ready::group(snap, &READINESS_GATES_PENDING, diags)
}

/// Who usually owns a gate, by its well-known prefix.
fn owner_hint(gate: &str) -> Option<&'static str> {
    if gate.starts_with("target-health.elbv2.k8s.aws/")
        || gate.starts_with("target-health.alb.ingress.k8s.aws/")
    {
        Some("the AWS Load Balancer Controller")
    } else if gate.starts_with("cloud.google.com/load-balancer-neg-ready") {
        Some("the GKE NEG controller")
    } else {
        None
    }
}

fn diagnose(snap: &Snapshot, id: ObjectId, pod: &Pod, pending: &[String]) -> PodDiagnosis {
    let mut ev = vec![evidence::field(
        snap,
        id,
        &["spec", "readinessGates"],
        format!(
            "spec.readinessGates: {}",
            pod.spec
                .readiness_gates
                .iter()
                .map(|g| g.condition_type.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )];
    let mut parts = Vec::new();
    for gate in pending {
        let owner = owner_hint(gate)
            .map(|o| format!(" (set by {o})"))
            .unwrap_or_default();
        match pod.condition(gate) {
            None => parts.push(format!(
                "{gate}{owner}: condition missing, no controller has written it"
            )),
            Some(c) => {
                let path = format!("type={gate}");
                let detail = format!(
                    "{}{}",
                    c.reason
                        .as_deref()
                        .map(|r| format!(", reason {r}"))
                        .unwrap_or_default(),
                    c.message
                        .as_deref()
                        .map(|m| format!(": {m}"))
                        .unwrap_or_default()
                );
                ev.push(evidence::field(
                    snap,
                    id,
                    &["status", "conditions", &path],
                    format!("{gate}={}{detail}", c.status),
                ));
                parts.push(format!("{gate}{owner}: {}{detail}", c.status));
            }
        }
    }
    if pod
        .condition("ContainersReady")
        .is_some_and(|c| c.status == "True")
    {
        ev.push(evidence::field(
            snap,
            id,
            &["status", "conditions", "type=ContainersReady"],
            "ContainersReady=True: every container passes its probes",
        ));
    }
    ev.extend(not_ready::ready_condition_evidence(snap, id, pod));
    let since = not_ready::since_transition(snap, pod, "Ready")
        .map(|d| format!(" (not Ready for {d})"))
        .unwrap_or_default();
    PodDiagnosis {
        id,
        severity: Severity::Warning,
        cause: format!("readiness-gates:{}", pending.join(",")),
        summary: format!(
            "has every container ready but is held back by readiness gate(s){since}: {}",
            parts.join("; ")
        ),
        evidence: ev,
        help: "the controller that owns the gate has not set it to True: check that controller (its logs and the load balancer target it manages); the app itself is ready".into(),
    }
}

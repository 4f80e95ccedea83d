//! `platform/node-degraded`: a node whose machine-config daemon is Degraded, and what
//! blocks its drain.

use super::drain::{Blocker, blockers};
use super::model::{NodeState, Phase, Platform};
use crate::declare_rule;
use crate::kube::openshift::mcd;
use crate::rules::evidence;
use crate::rules::pod_findings::note;
use crate::rules::reach::Reach;
use crate::rules::{CauseHint, Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::Snapshot;

declare_rule! {
    /// Reports nodes whose machine-config daemon is `Degraded` or `Unreconcilable`, with its reason, and names the PodDisruptionBudget that blocks a failed drain.
    ///
    /// A degraded daemon stops applying configuration: the node's pool cannot finish the
    /// update, and the cluster's update waits for it. An error, as in `oc adm upgrade
    /// status`. When the reason is a drain that failed ("failed to drain node: X after 1
    /// hour", where `oc` only says to read the machine-config-controller logs), or a node
    /// is still draining while the controller reports failed evictions, the budgets are
    /// recomputed from the bundle's pods: one that allows 0 disruptions (healthy pods not
    /// above what minAvailable / maxUnavailable demands) and selects a pod on that node is
    /// named with its pods. A bundle without PodDisruptionBudgets says it cannot tell.
    pub static NODE_DEGRADED = {
        id: "platform/node-degraded",
        stage: Stage::Platform,
        severity: Severity::Error,
        fallback: false,
        // Wide: see `platform_reach`.
        reach: Reach::Wide(super::platform_reach),
        run: run,
    };
}

/// Events the drain controller and the daemon write when evictions keep failing.
const DRAIN_EVENTS: &[&str] = &["FailedToDrain", "DrainThresholdExceeded"];

fn run(ctx: &Context) -> Vec<Finding> {
    let p = ctx.model::<super::model::Update>();
    let snap = ctx.snapshot;
    let mut out = Vec::new();
    for pool in &p.pools {
        for n in &pool.nodes {
            let events = drain_events(snap, n);
            if n.degraded {
                out.push(degraded(snap, p, pool.name(), n, events));
            } else if n.phase == Phase::Draining && !events.is_empty() {
                let blocked = blockers(snap, n.name());
                if !blocked.is_empty() {
                    out.push(stuck_drain(snap, pool.name(), n, events, &blocked));
                }
            }
        }
    }
    out
}

fn drain_events(snap: &Snapshot, n: &NodeState) -> Vec<Evidence> {
    snap.events_for(n.id)
        .into_iter()
        .filter(|(_, e)| DRAIN_EVENTS.contains(&e.reason.as_str()))
        .map(|(id, e)| evidence::event(snap, id, e))
        .collect()
}

fn degraded(
    snap: &Snapshot,
    p: &Platform,
    pool: &str,
    n: &NodeState,
    events: Vec<Evidence>,
) -> Finding {
    let name = n.name();
    let state = n.annotation(mcd::STATE).unwrap_or("");
    let reason = n.annotation(mcd::REASON).unwrap_or("");
    let mut message = format!("Node {name} is degraded (machine-config daemon state {state})");
    if !reason.is_empty() {
        message.push_str(&format!(": {reason}"));
    }
    let mut ev = vec![evidence::field(
        snap,
        n.id,
        &["metadata", "annotations", mcd::STATE],
        format!(
            "{}: {state}; {}: {}",
            mcd::STATE,
            mcd::REASON,
            if reason.is_empty() { "(none)" } else { reason }
        ),
    )];
    ev.extend(events.iter().cloned());
    let draining = reason.contains("drain")
        || n.annotation(mcd::DESIRED_DRAIN) != n.annotation(mcd::LAST_APPLIED_DRAIN)
        || !events.is_empty();
    let mut help = format!(
        "read the machine-config daemon's log on {name} (namespace openshift-machine-config-operator) for the failing step; the pool {pool} resumes once the node reports Done"
    );
    let mut details = serde_json::json!({ "pool": pool, "state": state, "reason": reason });
    let mut causes = Vec::new();
    if draining {
        let blocked = blockers(snap, name);
        message.push_str(&format!("; {}", drain_words(snap, &blocked)));
        add_blockers(snap, &blocked, &mut ev, &mut causes);
        if !blocked.is_empty() {
            help = format!(
                "the drain waits for the PodDisruptionBudget{} named above: scale its workload up so a pod may be evicted, or relax the budget, then the daemon retries",
                if blocked.len() == 1 { "" } else { "s" }
            );
        }
        details["pdbs"] = pdb_details(snap, &blocked);
    }
    if let Some(target) = p.target {
        details["target"] = serde_json::json!(target);
    }
    let mut f = Finding::new(
        &NODE_DEGRADED,
        Severity::Error,
        snap.object(n.id).reference(),
        "Degraded",
        message,
        ev,
        help,
        Vec::new(),
    );
    f.causes = causes;
    f.details = Some(details);
    f
}

fn stuck_drain(
    snap: &Snapshot,
    pool: &str,
    n: &NodeState,
    events: Vec<Evidence>,
    blocked: &[Blocker],
) -> Finding {
    let name = n.name();
    let message = format!(
        "Node {name} cannot finish draining for its update; {}",
        drain_words(snap, blocked)
    );
    let mut ev = events;
    let mut causes = Vec::new();
    add_blockers(snap, blocked, &mut ev, &mut causes);
    let mut f = Finding::new(
        &NODE_DEGRADED,
        Severity::Warning,
        snap.object(n.id).reference(),
        "DrainBlocked",
        message,
        ev,
        "scale the budget's workload up so a pod may be evicted, or relax the budget; after an hour of failed drains the daemon reports the node Degraded".into(),
        Vec::new(),
    );
    f.causes = causes;
    f.details = Some(serde_json::json!({ "pool": pool, "pdbs": pdb_details(snap, blocked) }));
    f
}

fn drain_words(snap: &Snapshot, blocked: &[Blocker]) -> String {
    if blocked.is_empty() {
        if snap.has_kind("PodDisruptionBudget") {
            return "no PodDisruptionBudget in the bundle blocks a pod on this node, so the drain waits on something else (a pod that does not terminate, an eviction webhook): see the machine-config-controller log".into();
        }
        return "the bundle holds no PodDisruptionBudgets, so what blocks the drain cannot be recomputed: see the machine-config-controller log".into();
    }
    let parts: Vec<String> = blocked
        .iter()
        .map(|b| {
            let pods: Vec<&str> = b
                .pods_here
                .iter()
                .map(|id| snap.object(*id).name.as_str())
                .collect();
            format!(
                "PodDisruptionBudget {} allows 0 disruptions ({} of {} pods healthy, {} demands {}), and its {} on this node: {}",
                b.name(),
                b.healthy,
                b.expected,
                b.demand,
                b.desired,
                if pods.len() == 1 { "pod" } else { "pods" },
                pods.join(", ")
            )
        })
        .collect();
    format!("the drain is blocked: {}", parts.join("; "))
}

fn add_blockers(
    snap: &Snapshot,
    blocked: &[Blocker],
    ev: &mut Vec<Evidence>,
    causes: &mut Vec<CauseHint>,
) {
    for b in blocked {
        let s = &b.pdb.status;
        ev.push(evidence::field(
            snap,
            b.id,
            &["spec"],
            format!(
                "PodDisruptionBudget {}: {}; status says disruptionsAllowed {}, currentHealthy {}, desiredHealthy {}",
                b.name(),
                b.demand,
                opt(s.disruptions_allowed),
                opt(s.current_healthy),
                opt(s.desired_healthy)
            ),
        ));
        for id in &b.pods_here {
            causes.push(CauseHint::Object(snap.object(*id).reference()));
        }
    }
    if blocked.is_empty() {
        ev.push(note("no blocking PodDisruptionBudget recomputed"));
    }
}

fn pdb_details(snap: &Snapshot, blocked: &[Blocker]) -> serde_json::Value {
    serde_json::Value::Array(
        blocked
            .iter()
            .map(|b| {
                serde_json::json!({
                    "name": b.name(),
                    "demand": b.demand,
                    "expected": b.expected,
                    "healthy": b.healthy,
                    "desired_healthy": b.desired,
                    "disruptions_allowed": b.allowed(),
                    "pods": b.pods_here.iter().map(|id| snap.object(*id).name.clone()).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

fn opt(v: Option<i64>) -> String {
    v.map_or("?".into(), |v| v.to_string())
}

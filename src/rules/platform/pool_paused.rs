//! `platform/pool-paused`: a paused MachineConfigPool holding outdated nodes.

use super::model::Phase;
use crate::declare_rule;
use crate::rules::evidence;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// Reports a paused MachineConfigPool whose nodes have not reached the release being installed: they will not be updated.
    ///
    /// A paused pool stops every change to its nodes, updates included; the update of the
    /// control plane can complete while these nodes stay on the old release until an
    /// administrator unpauses the pool. A warning, as in `oc adm upgrade status`; the
    /// nodes are listed in `details.nodes`.
    pub static POOL_PAUSED = {
        id: "platform/pool-paused",
        stage: Stage::Platform,
        severity: Severity::Warning,
        fallback: false,
        // Wide: see `platform_reach`.
        reach: Reach::Wide(super::platform_reach),
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let p = ctx.model::<super::model::Update>();
    let snap = ctx.snapshot;
    let mut out = Vec::new();
    for pool in &p.pools {
        if !pool.pool.spec.paused || pool.excluded() == 0 {
            continue;
        }
        let excluded: Vec<&str> = pool
            .nodes
            .iter()
            .filter(|n| n.phase == Phase::Paused)
            .map(|n| n.name())
            .collect();
        let name = pool.name();
        let target = p.target.unwrap_or("the release being installed");
        let message = format!(
            "Outdated nodes in a paused pool '{name}' will not be updated: {} of {} nodes are not at {target} ({})",
            excluded.len(),
            pool.nodes.len(),
            excluded.join(", ")
        );
        let mut ev = vec![evidence::field(
            snap,
            pool.id,
            &["spec", "paused"],
            "spec.paused: true",
        )];
        for n in pool
            .nodes
            .iter()
            .filter(|n| n.phase == Phase::Paused)
            .take(3)
        {
            ev.push(evidence::field(
                snap,
                n.id,
                &["metadata", "annotations"],
                format!(
                    "node {} runs {} ({})",
                    n.name(),
                    n.annotation(crate::kube::openshift::mcd::CURRENT_CONFIG)
                        .unwrap_or("no currentConfig"),
                    n.version.unwrap_or("release unknown")
                ),
            ));
        }
        let mut f = Finding::new(
            &POOL_PAUSED,
            Severity::Warning,
            snap.object(pool.id).reference(),
            "Paused",
            message,
            ev,
            format!(
                "unpause the pool when its nodes may be updated: `oc patch mcp {name} --type merge -p '{{\"spec\":{{\"paused\":false}}}}'`"
            ),
            Vec::new(),
        );
        f.details = Some(serde_json::json!({ "nodes": excluded }));
        out.push(f);
    }
    out
}

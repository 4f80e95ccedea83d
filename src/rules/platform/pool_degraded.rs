//! `platform/pool-degraded`: a MachineConfigPool reporting `Degraded=True` for a reason
//! its nodes do not explain on their own.

use crate::declare_rule;
use crate::kube::meta::condition;
use crate::rules::evidence;
use crate::rules::platform::operator::first_line;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// Reports a MachineConfigPool with `Degraded=True` (RenderDegraded, or NodeDegraded for nodes the bundle does not show degraded), listing the nodes it names.
    ///
    /// A degraded pool rolls out nothing. When the cause is a node whose daemon reports
    /// Degraded, that node's own finding (`platform/node-degraded`) says it and this rule
    /// stays quiet; it speaks for what no node finding covers: a configuration that does
    /// not render (`RenderDegraded`: a MachineConfig the controller cannot merge) or nodes
    /// the pool names that are missing from the bundle.
    pub static POOL_DEGRADED = {
        id: "platform/pool-degraded",
        stage: Stage::Platform,
        severity: Severity::Error,
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
        let conds = &pool.pool.status.conditions;
        if condition(conds, "Degraded").is_none_or(|c| c.status != "True") {
            continue;
        }
        let render = condition(conds, "RenderDegraded").filter(|c| c.status == "True");
        let node_cond = condition(conds, "NodeDegraded").filter(|c| c.status == "True");
        let named: Vec<&str> = node_cond
            .and_then(|c| c.message.as_deref())
            .map(|m| {
                m.split("Node ")
                    .skip(1)
                    .filter_map(|rest| rest.split_once(" is reporting").map(|(n, _)| n))
                    .collect()
            })
            .unwrap_or_default();
        let uncovered: Vec<&str> = named
            .iter()
            .copied()
            .filter(|n| !p.node(n).is_some_and(|(_, s)| s.degraded))
            .collect();
        let (c, kind) = match (render, node_cond) {
            (Some(c), _) => (c, "RenderDegraded"),
            (None, Some(c)) if !uncovered.is_empty() || named.is_empty() => (c, "NodeDegraded"),
            (None, Some(_)) => continue,
            (None, None) => match condition(conds, "Degraded") {
                Some(c) => (c, "Degraded"),
                None => continue,
            },
        };
        let name = pool.name();
        let text = c.message.as_deref().unwrap_or("").trim();
        let mut message = format!(
            "MachineConfigPool {name} is degraded ({kind}{})",
            c.reason
                .as_deref()
                .filter(|r| !r.is_empty())
                .map(|r| format!(": {r}"))
                .unwrap_or_default()
        );
        if !text.is_empty() {
            message.push_str(&format!(": {}", first_line(text, 400)));
        }
        if !uncovered.is_empty() {
            let missing: Vec<&str> = uncovered
                .iter()
                .copied()
                .filter(|n| snap.node_named(n).is_none())
                .collect();
            if !missing.is_empty() {
                message.push_str(&format!("; not in the bundle: node {}", missing.join(", ")));
            }
        }
        let ev = vec![evidence::field(
            snap,
            pool.id,
            &["status", "conditions", &format!("type={kind}")],
            format!(
                "{kind}=True since {}: {}",
                c.last_transition_time.as_deref().unwrap_or("(no time)"),
                if text.is_empty() {
                    "<no message>"
                } else {
                    text
                }
            ),
        )];
        let mut f = Finding::new(
            &POOL_DEGRADED,
            Severity::Error,
            snap.object(pool.id).reference(),
            kind,
            message,
            ev,
            if kind == "RenderDegraded" {
                "fix or delete the MachineConfig the message names; the controller renders the pool's configuration again on its own".into()
            } else {
                format!(
                    "read the machine-config daemon's log on each node named (namespace openshift-machine-config-operator); the pool {name} resumes when they report Done"
                )
            },
            Vec::new(),
        );
        f.details = Some(serde_json::json!({ "nodes": named }));
        out.push(f);
    }
    out
}

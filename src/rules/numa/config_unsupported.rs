//! `numa/kubelet-config-unsupported`: kubelet settings with which pod-level resource
//! management cannot work.

use super::budget::PodBudget;
use super::kubelet::{
    GATE_POD_LEVEL_RESOURCE_MANAGERS, GATE_POD_LEVEL_RESOURCES, Gate, KubeletIndex, NodeKubelet,
    POD_LEVEL_POLICIES, SourceKind,
};
use super::locate::child_evidence;
use super::placement::candidate_nodes;
use crate::declare_rule;
use crate::kube::pod::PodSpec;
use crate::rules::evidence;
use crate::rules::pod_findings::{self, note, plural};
use crate::rules::reach::Reach;
use crate::rules::{Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::{BTreeMap, BTreeSet};

declare_rule! {
    /// Flags kubelet settings with which pod-level resource managers cannot work: a topology policy other than single-numa-node/restricted/best-effort, Windows nodes, missing feature gates.
    ///
    /// Pod-level resource management (KEP-5526) needs the static CPU manager and/or the
    /// Static memory manager, the PodLevelResources and PodLevelResourceManagers feature
    /// gates, Linux, and a topologyManagerPolicy of single-numa-node, restricted or
    /// best-effort (with `none` the kubelet allocates container by container and never
    /// builds a pod bubble). When the gates are off, the managers ignore `spec.resources`:
    /// Guaranteed pods that rely on their pod budget get no NUMA alignment and no exclusive
    /// CPUs, silently. Settings come from configz, KubeletConfiguration files, OpenShift
    /// KubeletConfig (through MachineConfigPools) and PerformanceProfiles; a gate whose
    /// default is disputed for the node's kubelet version is left alone.
    pub static KUBELET_CONFIG_UNSUPPORTED = {
        id: "numa/kubelet-config-unsupported",
        stage: Stage::Node,
        severity: Severity::Warning,
        fallback: false,
        // Wide: see `numa_reach`.
        reach: Reach::Wide(super::numa_reach),
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let index = KubeletIndex::build(snap);
    let all = index.all();
    if all.is_empty() {
        return Vec::new();
    }
    // Nodes per source object: one finding per configuration, listing its nodes.
    let mut by_source: BTreeMap<ObjectId, Vec<&NodeKubelet>> = BTreeMap::new();
    for k in all {
        by_source.entry(k.source).or_default().push(k);
    }
    let users = PodLevelUsers::build(snap);
    let mut out = Vec::new();
    for (source, nodes) in by_source {
        let k = nodes[0];
        let st = &k.settings;
        if !(st.cpu_static() || st.memory_static()) {
            continue;
        }
        let names: Vec<&str> = nodes.iter().map(|n| n.node.as_str()).collect();
        let on = |n: &NodeKubelet, g: &str| n.gate(snap, &index.gates, g);
        let plrm = on(k, GATE_POD_LEVEL_RESOURCE_MANAGERS);
        let plr = on(k, GATE_POD_LEVEL_RESOURCES);
        let managers = managers(k);
        let where_ = node_list(&names);

        if plrm.is_on() && !POD_LEVEL_POLICIES.contains(&st.policy()) {
            out.push(finding(
                snap,
                k,
                source,
                "policy",
                format!(
                    "{where_} enable{} PodLevelResourceManagers with {managers}, but topologyManagerPolicy={}: pod-level resource management only works with single-numa-node, restricted or best-effort; with {} the kubelet allocates container by container and never builds a pod bubble or a pod shared pool",
                    if names.len() == 1 { "s" } else { "" },
                    st.policy(),
                    st.policy()
                ),
                vec![k.evidence(snap, "topologyManagerPolicy"), note(plrm.how().to_string())],
                "set topologyManagerPolicy to single-numa-node, restricted or best-effort (the tutorial uses single-numa-node) and restart the kubelet".into(),
            ));
        }

        let windows: Vec<&&NodeKubelet> = nodes.iter().filter(|n| n.windows).collect();
        if !windows.is_empty() && plrm.is_on() {
            let wn: Vec<&str> = windows.iter().map(|n| n.node.as_str()).collect();
            let mut ev = vec![k.evidence(snap, "featureGates")];
            if let Some((nid, _)) = snap.node_named(wn[0]) {
                ev.push(evidence::field(
                    snap,
                    nid,
                    &["status", "nodeInfo", "operatingSystem"],
                    format!("node {}: operatingSystem windows", wn[0]),
                ));
            }
            out.push(finding(
                snap,
                k,
                source,
                "windows",
                format!(
                    "{} run{} Windows, where pod-level resource managers are not supported: {managers} with PodLevelResourceManagers does nothing there, and pod-level resources are not supported for Windows pods",
                    node_list(&wn),
                    if wn.len() == 1 { "s" } else { "" }
                ),
                ev,
                "run pods that need pod-level resource management on Linux nodes; drop the gate from the Windows kubelets".into(),
            ));
        }

        if plrm.is_on() && plr.is_off() {
            out.push(finding(
                snap,
                k,
                source,
                "gate-dependency",
                format!(
                    "{where_} enable{} PodLevelResourceManagers but not PodLevelResources ({}): the managers need both gates, so they ignore spec.resources",
                    if names.len() == 1 { "s" } else { "" },
                    plr.how()
                ),
                vec![k.evidence(snap, "featureGates"), note(plrm.how().to_string())],
                "enable PodLevelResources on the API server, scheduler and kubelets as well".into(),
            ));
            continue;
        }

        // Gates off while pods rely on their pod budget on these nodes.
        let off: Vec<&Gate> = [&plr, &plrm].into_iter().filter(|g| g.is_off()).collect();
        if off.is_empty() || windows.len() == nodes.len() {
            continue;
        }
        let affected = users.on(&names);
        if affected.is_empty() {
            continue;
        }
        let gate_names: Vec<&str> = [
            (&plr, GATE_POD_LEVEL_RESOURCES),
            (&plrm, GATE_POD_LEVEL_RESOURCE_MANAGERS),
        ]
        .into_iter()
        .filter(|(g, _)| g.is_off())
        .map(|(_, n)| n)
        .collect();
        let listed: Vec<String> = affected.iter().take(5).map(|(d, _)| d.clone()).collect();
        let more = affected.len().saturating_sub(5);
        let field = if k.settings.feature_gates.is_empty() {
            "cpuManagerPolicy"
        } else {
            "featureGates"
        };
        let mut ev = vec![k.evidence(snap, field)];
        ev.extend(off.iter().map(|g| note(g.how().to_string())));
        for (d, (id, path)) in affected.iter().take(pod_findings::EVIDENCE_PODS) {
            ev.push(child_evidence(
                snap,
                *id,
                path,
                "resources",
                format!("{d}: Guaranteed pod-level budget with an integer cpu"),
            ));
        }
        out.push(finding(
            snap,
            k,
            source,
            &format!("gate-off:{}", gate_names.join("+")),
            format!(
                "{where_} run{} {managers} with {} off, so the resource managers ignore spec.resources: {}{} rel{} on a pod-level budget and will get no pod bubble, no NUMA alignment and no exclusive cpus from it",
                if names.len() == 1 { "s" } else { "" },
                gate_names.join(" and "),
                listed.join(", "),
                if more > 0 { format!(" and {more} more") } else { String::new() },
                if affected.len() == 1 { "ies" } else { "y" }
            ),
            ev,
            format!(
                "enable {} (alpha in 1.36, beta in 1.37) on the kubelets of these nodes, or move the pods' exclusive requests to their containers",
                gate_names.join(" and ")
            ),
        ));
    }
    out
}

/// "node numa-1" / "3 nodes (a, b, c)".
fn node_list(names: &[&str]) -> String {
    if names.len() == 1 {
        format!("node {}", names[0])
    } else {
        format!("{} ({})", plural(names.len(), "node"), names.join(", "))
    }
}

/// "the static CPU manager and the Static memory manager".
fn managers(k: &NodeKubelet) -> String {
    match (k.settings.cpu_static(), k.settings.memory_static()) {
        (true, true) => "the static CPU manager and the Static memory manager".into(),
        (true, false) => "the static CPU manager".into(),
        _ => "the Static memory manager".into(),
    }
}

fn finding(
    snap: &Snapshot,
    k: &NodeKubelet,
    source: ObjectId,
    cause: &str,
    message: String,
    evidence: Vec<Evidence>,
    help: String,
) -> Finding {
    let message = match &k.kind {
        SourceKind::KubeletConfig { pool, .. } => {
            format!("applied through MachineConfigPool {pool}: {message}")
        }
        SourceKind::PerformanceProfile => {
            format!("rendered by the Node Tuning Operator: {message}")
        }
        SourceKind::KubeletConfiguration => message,
    };
    Finding::new(
        &KUBELET_CONFIG_UNSUPPORTED,
        Severity::Warning,
        snap.object(source).reference(),
        cause,
        message,
        evidence,
        help,
        Vec::new(),
    )
}

/// Pods and controller templates that rely on a Guaranteed pod-level budget with an
/// integer cpu, and the nodes they run on or can land on.
struct PodLevelUsers {
    /// "Deployment ml/trainer" → (object, spec path, nodes).
    users: BTreeMap<String, (ObjectId, &'static [&'static str], BTreeSet<String>)>,
}

impl PodLevelUsers {
    fn build(snap: &Snapshot) -> PodLevelUsers {
        let mut users = BTreeMap::new();
        let mut add =
            |id: ObjectId, path: &'static [&'static str], spec: &PodSpec, qos: Option<&str>| {
                if !super::budget::pod_level_set(spec) {
                    return;
                }
                if PodBudget::of(spec, qos).not_eligible().is_some() {
                    return;
                }
                let nodes: BTreeSet<String> = candidate_nodes(snap, spec).into_iter().collect();
                let o = snap.object(id);
                let name = format!(
                    "{} {}",
                    o.kind,
                    match &o.namespace {
                        Some(ns) => format!("{ns}/{}", o.name),
                        None => o.name.clone(),
                    }
                );
                users.insert(name, (id, path, nodes));
            };
        const TEMPLATE: &[&str] = &["spec", "template", "spec"];
        for (id, p) in snap.pods() {
            if p.is_active() && snap.top_controller(*id).is_none_or(|(_, c)| c.is_none()) {
                add(*id, &["spec"], &p.spec, p.status.qos_class.as_deref());
            }
        }
        for (id, d) in snap.deployments() {
            add(*id, TEMPLATE, &d.spec.template.spec, None);
        }
        for (id, d) in snap.stateful_sets() {
            add(*id, TEMPLATE, &d.spec.template.spec, None);
        }
        for (id, d) in snap.daemon_sets() {
            add(*id, TEMPLATE, &d.spec.template.spec, None);
        }
        for (id, j) in snap.jobs() {
            if !j.is_complete() {
                add(*id, TEMPLATE, &j.spec.template.spec, None);
            }
        }
        for (id, r) in snap.replica_sets() {
            if snap.top_controller(*id).is_none() {
                add(*id, TEMPLATE, &r.spec.template.spec, None);
            }
        }
        PodLevelUsers { users }
    }

    /// Users that run on or can land on any of `nodes`.
    fn on(&self, nodes: &[&str]) -> Vec<(String, (ObjectId, &'static [&'static str]))> {
        self.users
            .iter()
            .filter(|(_, (_, _, n))| nodes.iter().any(|x| n.contains(*x)))
            .map(|(d, (id, p, _))| (d.clone(), (*id, *p)))
            .collect()
    }
}

//! `creation/daemonset-coverage`: DaemonSets missing pods on eligible nodes, or with pods
//! on nodes they no longer fit.

use super::failed_create::has_failed_create;
use crate::declare_rule;
use crate::kube::node::Node;
use crate::kube::placement::{
    node_matches_terms, required_node_terms, unmatched_selector, untolerated,
};
use crate::kube::pod::{Pod, PodSpec, Toleration};
use crate::rules::evidence;
use crate::rules::pod_findings::{self, note};
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::{BTreeMap, BTreeSet};

declare_rule! {
    /// Recomputes which nodes a DaemonSet should run on and reports nodes without its pod, and pods on nodes it no longer fits.
    ///
    /// Eligible nodes match the template's nodeSelector and required node affinity and
    /// have no NoSchedule/NoExecute taint the pod (plus the tolerations the DaemonSet
    /// controller adds: not-ready, unreachable, disk/memory/PID pressure, unschedulable)
    /// does not tolerate. When the controller reports fewer pods than it wants and the
    /// bundle shows no FailedCreate event (that case is `creation/failed-create`), the
    /// finding names the eligible nodes without a pod. Misscheduled pods sit on nodes the
    /// DaemonSet no longer selects (labels or taints changed). Pods that exist but are not
    /// Ready are explained by their own findings.
    pub static DAEMONSET_COVERAGE = {
        id: "creation/daemonset-coverage",
        stage: Stage::Creation,
        severity: Severity::Warning,
        fallback: false,
        // Local: each DaemonSet with its own pods and the nodes.
        reach: Reach::Local,
        run: run,
    };
}

/// Tolerations the DaemonSet controller adds to its pods (`AddOrUpdateDaemonPodTolerations`).
fn daemon_tolerations(spec: &PodSpec) -> Vec<Toleration> {
    let t = |key: &str, effect: &str| Toleration {
        key: Some(key.into()),
        operator: Some("Exists".into()),
        value: None,
        effect: Some(effect.into()),
        toleration_seconds: None,
    };
    let mut v = spec.tolerations.clone();
    v.push(t("node.kubernetes.io/not-ready", "NoExecute"));
    v.push(t("node.kubernetes.io/unreachable", "NoExecute"));
    v.push(t("node.kubernetes.io/disk-pressure", "NoSchedule"));
    v.push(t("node.kubernetes.io/memory-pressure", "NoSchedule"));
    v.push(t("node.kubernetes.io/pid-pressure", "NoSchedule"));
    v.push(t("node.kubernetes.io/unschedulable", "NoSchedule"));
    if spec.host_network {
        v.push(t("node.kubernetes.io/network-unavailable", "NoSchedule"));
    }
    v
}

/// Why a node is not eligible for the template, or `None` when it is.
fn ineligible(
    snap: &Snapshot,
    spec: &PodSpec,
    tolerations: &[Toleration],
    (id, node): (ObjectId, &Node),
) -> Option<String> {
    if let Some((k, v)) = unmatched_selector(&spec.node_selector, &node.metadata.labels) {
        return Some(match evidence::unreadable_label(snap, id, k) {
            Some(why) => format!("has label {k} {why}, the DaemonSet selects {k}={v}"),
            None => format!("lacks label {k}={v}"),
        });
    }
    if let Some(terms) = required_node_terms(spec.affinity.get().as_ref())
        && !node_matches_terms(&node.metadata, &terms)
    {
        return Some("is outside the required node affinity".into());
    }
    untolerated(tolerations, &node.spec.taints)
        .map(|t| format!("has untolerated taint {}:{}", t.key, t.effect))
}

/// The node a DaemonSet pod is for: its nodeName, else the `metadata.name` its affinity pins.
fn target_node(p: &Pod) -> Option<String> {
    if let Some(n) = p.spec.node_name.as_deref().filter(|n| !n.is_empty()) {
        return Some(n.to_string());
    }
    let terms = required_node_terms(p.spec.affinity.get().as_ref())?;
    terms.iter().find_map(|t| {
        t.match_fields
            .iter()
            .find_map(|f| (f.key == "metadata.name").then(|| f.values.first().cloned())?)
    })
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let mut out = Vec::new();
    if !snap.has_kind("Node") {
        return out;
    }
    for (id, ds) in snap.daemon_sets() {
        let st = &ds.status;
        let missing_reported = st.desired_number_scheduled > st.current_number_scheduled;
        if !missing_reported && st.number_misscheduled == 0 {
            continue;
        }
        let o = snap.object(*id);
        let ns = o.namespace.as_deref();
        if !snap
            .ids_of("Pod")
            .iter()
            .any(|&p| snap.object(p).namespace.as_deref() == ns)
        {
            continue; // no pods of the namespace collected: cannot tell which nodes lack one
        }
        let spec = &ds.spec.template.spec;
        let tol = daemon_tolerations(spec);
        let uid = o.uid.clone().unwrap_or_default();
        let pods: Vec<(ObjectId, &Pod)> = snap
            .children_of(&uid)
            .iter()
            .filter_map(|&c| snap.pod(c).map(|p| (c, p)))
            .filter(|(_, p)| p.metadata.deletion_timestamp.is_none())
            .collect();
        let covered: BTreeSet<String> = pods.iter().filter_map(|(_, p)| target_node(p)).collect();
        let mut missing = Vec::new();
        let mut misplaced: BTreeMap<String, String> = BTreeMap::new();
        for (node_id, node) in snap.nodes() {
            let name = &node.metadata.name;
            match ineligible(snap, spec, &tol, (*node_id, node)) {
                None if !covered.contains(name.as_str()) => missing.push(name.to_string()),
                Some(why) if covered.contains(name.as_str()) => {
                    misplaced.insert(name.to_string(), why);
                }
                _ => {}
            }
        }
        let mut ev = vec![evidence::field(
            snap,
            *id,
            &["status"],
            format!(
                "desiredNumberScheduled {}, currentNumberScheduled {}, numberMisscheduled {}, numberReady {}",
                st.desired_number_scheduled,
                st.current_number_scheduled,
                st.number_misscheduled,
                st.number_ready
            ),
        )];
        if missing_reported && !missing.is_empty() && !has_failed_create(snap, *id) {
            ev.push(note(format!(
                "eligible nodes without a pod of it: {}",
                missing.join(", ")
            )));
            out.push(Finding::new(
                &DAEMONSET_COVERAGE,
                Severity::Warning,
                o.reference(),
                "missing-pods",
                format!(
                    "DaemonSet has no pod on {} ({}), which {} its selector, affinity and tolerations; the bundle holds no FailedCreate event saying why (events expire after about an hour)",
                    pod_findings::plural(missing.len(), "eligible node"),
                    missing.join(", "),
                    if missing.len() == 1 { "matches" } else { "match" }
                ),
                ev.clone(),
                "look at the DaemonSet's recent events and the controller manager's log; quota, webhooks or PodSecurity refuse DaemonSet pods like any other".into(),
                Vec::new(),
            ));
        }
        if st.number_misscheduled > 0 && !misplaced.is_empty() {
            let list: Vec<String> = misplaced
                .iter()
                .map(|(n, why)| format!("{n} {why}"))
                .collect();
            ev.push(note(format!(
                "pods on nodes it does not select: {}",
                list.join("; ")
            )));
            out.push(Finding::new(
                &DAEMONSET_COVERAGE,
                Severity::Warning,
                o.reference(),
                "misscheduled",
                format!(
                    "DaemonSet runs {} on nodes it no longer selects: {} (labels or taints changed after the pods started; the controller removes them)",
                    pod_findings::plural(misplaced.len(), "pod"),
                    list.join("; ")
                ),
                ev,
                "if the pods should stay, fix the DaemonSet's nodeSelector/affinity/tolerations; otherwise they are being removed".into(),
                Vec::new(),
            ));
        }
    }
    out
}

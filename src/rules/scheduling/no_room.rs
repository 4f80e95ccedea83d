//! `scheduling/no-room`: many controllers wait on the same nodes refusing them the same way.

use super::fit::{Exclusion, NodeFit, per_class};
use super::fit_text::{list_names, node_room_evidence, short_resources};
use super::placer::Fits;
use crate::declare_rule;
use crate::kube::meta::ObjectRef;
use crate::kube::placement::is_not_ready_taint;
use crate::rules::common_cause::{self, SharedCause};
use crate::rules::evidence;
use crate::rules::reach::{Involve, Reach};
use crate::rules::{Evidence, Severity, Stage};
use crate::snapshot::Snapshot;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

declare_rule! {
    /// The cluster has no room for pods: many controllers wait on the same nodes, refused the same way.
    ///
    /// When `scheduling/unschedulable` recomputes, for the pending pods of ten or more
    /// controllers, the same verdict on every node — cordoned, NotReady, an untolerated
    /// taint, at its pod limit, short of the same resources — that is one cause, not ten:
    /// this finding opens the report with it ("the cluster has no room for pods: 3 of 5
    /// nodes cordoned, 2 at their 110-pod limit; 186 Deployments wait on it") and lists the
    /// controllers. The verdicts are recomputed from the nodes, not read from the
    /// scheduler's messages, so messages written at different times still group. Pods
    /// refused for what they ask themselves (a nodeSelector, affinity, a host port, a
    /// request larger than any node) are not a shared cause. Each controller keeps its own
    /// finding, linked to this one by `details.cause`.
    pub static NO_ROOM = {
        id: "scheduling/no-room",
        stage: Stage::Scheduling,
        severity: Severity::Error,
        fallback: false,
        // Wide: it counts controllers of every namespace; it can touch a namespace only
        // where `scheduling/unschedulable` has a finding.
        reach: Reach::Wide(reaches),
        run: common_cause::gathered,
    };
}

fn reaches(inv: &Involve) -> bool {
    inv.findings
        .iter()
        .any(|f| f.rule == super::unschedulable::UNSCHEDULABLE.id && inv.touches_namespace(f))
}

/// The causes the pending pods of one run share, built once per cause: many pods name the
/// same nodes' verdicts, and the words and evidence of a cause need be read only once.
#[derive(Default)]
pub(super) struct SharedCauses {
    by_key: HashMap<String, Arc<SharedCause>>,
    /// By the nodes' partition and each class's verdict words: pods that get the same
    /// verdicts get the same answer without a pass over every node.
    by_classes: HashMap<ClassVerdicts, Option<Arc<SharedCause>>>,
}

/// A partition of the nodes (its id) and each class's verdict words, sorted by class.
type ClassVerdicts = (usize, Vec<(u32, String)>);

impl SharedCauses {
    /// The cause every node's verdict for a pod names, when each node refuses it for what
    /// the node is (cordoned, NotReady, tainted, full) rather than for what the pod asks;
    /// `None` when a node refuses it for the pod's own constraints, or when no node is in
    /// the bundle.
    pub(super) fn of(&mut self, snap: &Snapshot, fits: &Fits) -> Option<Arc<SharedCause>> {
        let mut sides: Vec<(u32, String)> = Vec::new();
        for (_, f) in fits.classes() {
            sides.push((f.class, node_side(&f)?));
        }
        sides.sort();
        let classes = (fits.partition_id(), sides);
        if let Some(known) = self.by_classes.get(&classes) {
            return known.clone();
        }
        let cause = self.of_nodes(snap, fits.nodes());
        self.by_classes.insert(classes, cause.clone());
        cause
    }

    fn of_nodes(&mut self, snap: &Snapshot, fits: &[NodeFit]) -> Option<Arc<SharedCause>> {
        let mut verdicts: Vec<(String, &NodeFit)> = Vec::with_capacity(fits.len());
        for f in fits {
            verdicts.push((node_side(f)?, f));
        }
        if verdicts.is_empty() {
            return None;
        }
        verdicts.sort_by(|a, b| a.1.name.cmp(b.1.name).then(a.0.cmp(&b.0)));
        let identity: Vec<String> = verdicts
            .iter()
            .map(|(v, f)| format!("{}={v}", f.name))
            .collect();
        let mut kinds: Vec<&str> = verdicts.iter().map(|(v, _)| kind_of(v)).collect();
        kinds.sort();
        kinds.dedup();
        let key = format!("{}:{:016x}", kinds.join("+"), fnv1a(&identity.join(",")));
        if let Some(known) = self.by_key.get(&key) {
            return Some(Arc::clone(known));
        }
        let cause = Arc::new(describe(snap, fits.len(), &verdicts, key.clone()));
        self.by_key.insert(key, Arc::clone(&cause));
        Some(cause)
    }
}

/// The cause's words, evidence and help, from the nodes' verdicts (sorted by node).
fn describe(
    snap: &Snapshot,
    total: usize,
    verdicts: &[(String, &NodeFit)],
    key: String,
) -> SharedCause {
    let mut by_verdict: BTreeMap<&str, Vec<&NodeFit>> = BTreeMap::new();
    for (v, f) in verdicts {
        by_verdict.entry(v.as_str()).or_default().push(f);
    }
    let mut groups: Vec<(&str, Vec<&NodeFit>)> = by_verdict.into_iter().collect();
    groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));

    let mut parts = Vec::new();
    let mut evidence = Vec::new();
    for (i, (_, nodes)) in groups.iter().enumerate() {
        let head = if i == 0 {
            format!("{} of {total} nodes", nodes.len())
        } else {
            nodes.len().to_string()
        };
        parts.push(format!("{head} {}", state(nodes)));
        evidence.extend(group_evidence(snap, nodes));
    }
    SharedCause {
        rule: &NO_ROOM,
        key,
        object: ObjectRef {
            api_version: "kdiag.io/v1".into(),
            kind: "Cluster".into(),
            namespace: None,
            name: "nodes".into(),
        },
        what: format!("the cluster has no room for pods: {}", parts.join(", ")),
        evidence,
        help: help(&groups),
    }
}

/// A node's verdict when it is about the node: its first exclusion's category (with the
/// resources it lacks); `None` when the node refuses the pod for the pod's own asks.
fn node_side(f: &NodeFit) -> Option<String> {
    match f.verdict.exclusions.first()? {
        Exclusion::Cordoned => Some("cordoned".into()),
        Exclusion::Taint(t) if is_not_ready_taint(&t.key) => Some("not-ready".into()),
        Exclusion::Taint(t) => Some(format!("taint:{}:{}", t.key, t.effect)),
        Exclusion::TooManyPods { .. } => Some("too-many-pods".into()),
        Exclusion::Resources(_) => Some(format!(
            "insufficient:{}",
            short_resources([(1, &*f.verdict)]).join(",")
        )),
        _ => None,
    }
}

/// The verdict's kind without its detail, for the readable part of the key.
fn kind_of(verdict: &str) -> &str {
    match verdict.split_once(':') {
        Some(("taint", _)) => "taint",
        Some(("insufficient", _)) => "insufficient",
        _ => verdict,
    }
}

/// "cordoned", "at their 110-pod limit", "short of cpu, memory", for nodes of one verdict.
fn state(nodes: &[&NodeFit]) -> String {
    let one = nodes.len() == 1;
    match nodes[0].verdict.exclusions.first() {
        Some(Exclusion::Cordoned) => "cordoned".into(),
        Some(Exclusion::Taint(t)) if is_not_ready_taint(&t.key) => "NotReady".into(),
        Some(Exclusion::Taint(t)) => format!("tainted {}:{}", t.key, t.effect),
        Some(Exclusion::TooManyPods { .. }) => {
            let limits: Vec<i128> = nodes
                .iter()
                .filter_map(|f| match f.verdict.exclusions.first() {
                    Some(Exclusion::TooManyPods { allocatable, .. }) => Some(*allocatable),
                    _ => None,
                })
                .collect();
            let their = if one { "its" } else { "their" };
            match limits.split_first() {
                Some((first, rest)) if rest.iter().all(|l| l == first) => {
                    format!("at {their} {first}-pod limit")
                }
                _ => format!("at {their} pod limit"),
            }
        }
        _ => format!(
            "short of {}",
            short_resources(
                per_class(nodes.iter().copied())
                    .into_iter()
                    .map(|(n, f)| (n, &*f.verdict))
            )
            .join(", ")
        ),
    }
}

/// Nodes of one verdict cited: the field that says so, for the first few.
fn group_evidence(snap: &Snapshot, nodes: &[&NodeFit]) -> Vec<Evidence> {
    const SHOWN: usize = 3;
    let mut out: Vec<Evidence> = nodes
        .iter()
        .take(SHOWN)
        .map(|f| match f.verdict.exclusions.first() {
            Some(Exclusion::Cordoned) => evidence::field(
                snap,
                f.id,
                &["spec", "unschedulable"],
                format!("node {}: cordoned (spec.unschedulable: true)", f.name),
            ),
            Some(Exclusion::Taint(t)) => evidence::field(
                snap,
                f.id,
                &["spec", "taints"],
                format!("node {}: taint {}:{}", f.name, t.key, t.effect),
            ),
            Some(Exclusion::TooManyPods { used, allocatable }) => evidence::field(
                snap,
                f.id,
                &["status", "allocatable", "pods"],
                format!(
                    "node {}: {used} non-terminated pods bound there, allocatable.pods {allocatable}",
                    f.name
                ),
            ),
            _ => node_room_evidence(snap, f),
        })
        .collect();
    if nodes.len() > SHOWN {
        let names: Vec<&str> = nodes.iter().map(|f| f.name).collect();
        out.push(Evidence {
            object: None,
            input: None,
            file: None,
            line: None,
            note: format!(
                "{} nodes the same way in all: {}",
                nodes.len(),
                list_names(&names)
            ),
        });
    }
    out
}

/// What to do, one clause per verdict, the most common first.
fn help(groups: &[(&str, Vec<&NodeFit>)]) -> String {
    let mut clauses: Vec<&str> = Vec::new();
    for (_, nodes) in groups {
        let clause = match nodes[0].verdict.exclusions.first() {
            Some(Exclusion::Cordoned) => {
                "uncordon the nodes that may take work again (kubectl uncordon)"
            }
            Some(Exclusion::Taint(t)) if is_not_ready_taint(&t.key) => {
                "bring the NotReady nodes back"
            }
            Some(Exclusion::Taint(_)) => {
                "remove the taint from nodes that should take these pods, or add a toleration"
            }
            _ => {
                "add nodes or free room on them (scale down or move other pods); raising maxPods on a full node needs a kubelet change"
            }
        };
        if !clauses.contains(&clause) {
            clauses.push(clause);
        }
    }
    format!(
        "{}; fixing the nodes releases every controller listed here at once",
        clauses.join("; or ")
    )
}

/// FNV-1a, 64 bits: a stable short identity for a long list (the same in every build,
/// unlike the standard library's hasher).
fn fnv1a(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

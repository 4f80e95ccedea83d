//! Recomputes the scheduler's Filter phase from the snapshot: for one pod and each node,
//! which constraint excludes the node (reference §2.3, §2.6).
//!
//! Order follows the default plugin order, so the first exclusion of a node is the one
//! the scheduler reports: NodeUnschedulable, TaintToleration, NodeAffinity (nodeSelector
//! and required node affinity), NodePorts, NodeResourcesFit, VolumeBinding (PV node
//! affinity), PodTopologySpread (DoNotSchedule constraints, [`super::spread`]),
//! InterPodAffinity. Requested = Σ effective requests of the non-terminated
//! pods bound to the node (cpu in millicores, the rest in whole units), against
//! `status.allocatable`; pods count against `allocatable.pods`. Pods being deleted count
//! until they are gone, as upstream's NodeInfo counts them (topology spread alone skips
//! them); evaluated against [`Usage::without_terminating`] they do not.
//! Not recomputed: volume limits, DRA, scheduler profiles.

use crate::kube::meta::{Labels, Str, get_qty};
use crate::kube::node::{Node, Taint};
use crate::kube::placement::{
    AffinityTerm, NodeSelectorTerm, affinity_terms, claim_names, host_ports, is_not_ready_taint,
    node_matches_terms, node_selector_terms, required_node_terms, tolerates_cordon,
    unmatched_selector, untolerated,
};
use crate::kube::pod::{Pod, PodSpec};
use crate::kube::requests::{Units, pod_units, scheduler_units};
use crate::rules::node_usage::{NodeUsage, Usage};
use crate::snapshot::{ObjectId, Snapshot};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use serde_json::Value;
use std::rc::Rc;

/// A resource the node has too little of for the pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Short {
    pub resource: Str,
    pub need: i128,
    pub free: i128,
    pub allocatable: i128,
}

/// Why a node cannot take the pod, in the scheduler's filter order.
#[derive(Clone, Debug)]
pub enum Exclusion {
    Cordoned,
    Taint(Taint),
    /// `nodeSelector` label `key` is missing or different.
    NodeSelector {
        key: String,
        want: String,
    },
    NodeAffinity,
    HostPort(i64),
    Resources(Vec<Short>),
    TooManyPods {
        used: i128,
        allocatable: i128,
    },
    VolumeNodeAffinity {
        pv: String,
    },
    /// A DoNotSchedule topology spread constraint: the node lacks its `topologyKey`
    /// (`missing_label`), or one more pod in its domain exceeds `maxSkew`.
    TopologySpread {
        key: String,
        missing_label: bool,
        /// The constraint and its per-domain counts, in words.
        words: String,
    },
    /// An existing pod matches the pod's required anti-affinity in the node's domain.
    AntiAffinity {
        other: ObjectId,
    },
    /// An existing pod's required anti-affinity rejects the pod in the node's domain.
    ExistingAntiAffinity {
        other: ObjectId,
    },
    /// No pod matching a required pod-affinity term runs in the node's domain.
    PodAffinity,
}

impl Exclusion {
    /// Capacity problems: the ones preemption or more nodes can fix.
    pub fn is_capacity(&self) -> bool {
        matches!(
            self,
            Exclusion::Resources(_) | Exclusion::TooManyPods { .. }
        )
    }

    /// A stable category name (no numbers) for grouping and cause keys.
    pub fn category(&self) -> String {
        match self {
            Exclusion::Cordoned => "cordoned".into(),
            Exclusion::Taint(t) if is_not_ready_taint(&t.key) => "not-ready".into(),
            Exclusion::Taint(t) => format!("taint:{}", t.key),
            Exclusion::NodeSelector { key, .. } => format!("node-selector:{key}"),
            Exclusion::NodeAffinity => "node-affinity".into(),
            Exclusion::HostPort(_) => "host-port".into(),
            Exclusion::Resources(_) => "insufficient".into(),
            Exclusion::TooManyPods { .. } => "too-many-pods".into(),
            Exclusion::VolumeNodeAffinity { .. } => "volume-node-affinity".into(),
            Exclusion::TopologySpread {
                key,
                missing_label: true,
                ..
            } => format!("topology-spread-label:{key}"),
            Exclusion::TopologySpread { key, .. } => format!("topology-spread:{key}"),
            Exclusion::AntiAffinity { .. } => "pod-anti-affinity".into(),
            Exclusion::ExistingAntiAffinity { .. } => "existing-anti-affinity".into(),
            Exclusion::PodAffinity => "pod-affinity".into(),
        }
    }
}

/// The Filter's verdict for the pod on a node: the same for every node of one class
/// ([`super::placer`]), so it is computed once per class and shared.
#[derive(Debug)]
///
/// One is held per class of nodes per distinct pending pod for the whole rule
/// ([`super::placer`] keeps them for pods that ask the same), tens of thousands on a
/// large bundle: so it holds no spare capacity and no tree, and its short names in place.
pub struct Verdict {
    pub exclusions: Vec<Exclusion>,
    /// Per requested resource: (free, allocatable) in scheduler units.
    pub free: Free,
    /// The first exclusion's [`Exclusion::category`], when there is one.
    pub category: Option<Str>,
    /// Excluded only for capacity (resources or pod count).
    pub capacity_only: bool,
}

impl Verdict {
    fn new(mut exclusions: Vec<Exclusion>, free: Free) -> Verdict {
        exclusions.shrink_to_fit();
        Verdict {
            category: exclusions.first().map(|x| Str::from(x.category())),
            capacity_only: !exclusions.is_empty() && exclusions.iter().all(Exclusion::is_capacity),
            exclusions,
            free,
        }
    }
}

/// Per requested resource, (free, allocatable) in scheduler units, sorted by resource
/// name: a slice sized to the pod's few resources. A `BTreeMap` allocated a whole node
/// (eleven slots, about 630 bytes) for the usual two, per verdict.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Free(Box<[(Str, (i128, i128))]>);

impl Free {
    /// From entries in any order; a resource named twice keeps its last value, as a
    /// map's insert does.
    pub fn new(mut entries: Vec<(Str, (i128, i128))>) -> Free {
        entries.reverse();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        entries.dedup_by(|a, b| a.0 == b.0);
        Free(entries.into_boxed_slice())
    }

    pub fn get(&self, resource: &str) -> Option<&(i128, i128)> {
        self.0
            .binary_search_by(|(r, _)| r.as_str().cmp(resource))
            .ok()
            .map(|i| &self.0[i].1)
    }

    pub fn contains_key(&self, resource: &str) -> bool {
        self.get(resource).is_some()
    }

    /// In resource name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &(i128, i128))> {
        self.0.iter().map(|(r, v)| (r.as_str(), v))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Printed as the map it stands for.
impl std::fmt::Debug for Free {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// One node's verdict for the pod.
pub struct NodeFit<'a> {
    pub id: ObjectId,
    pub name: &'a str,
    pub node: &'a Node,
    /// The node's class in the pod's partition (nodes of one class share the verdict).
    pub class: u32,
    pub verdict: Rc<Verdict>,
    pub usage: &'a NodeUsage,
    /// The node's allocatable or a bound pod's request holds a value that does not read.
    pub unread: bool,
}

impl NodeFit<'_> {
    pub fn fits(&self) -> bool {
        self.verdict.exclusions.is_empty()
    }

    /// Excluded only for capacity (resources or pod count).
    pub fn capacity_only(&self) -> bool {
        self.verdict.capacity_only
    }
}

/// The classes among `nodes`, each with how many of `nodes` it has and its first node, in
/// order of first appearance: what per-node counts are built from, one verdict per class.
pub fn per_class<'f, 'a>(
    nodes: impl IntoIterator<Item = &'f NodeFit<'a>>,
) -> Vec<(usize, &'f NodeFit<'a>)>
where
    'a: 'f,
{
    let mut slot_of: Vec<usize> = Vec::new();
    let mut out: Vec<(usize, &NodeFit)> = Vec::new();
    for f in nodes {
        let c = f.class as usize;
        if c >= slot_of.len() {
            slot_of.resize(c + 1, usize::MAX);
        }
        if slot_of[c] == usize::MAX {
            slot_of[c] = out.len();
            out.push((0, f));
        }
        out[slot_of[c]].0 += 1;
    }
    out
}

/// What a node's verdict for a pod needing `need` rests on and cannot read: the node's
/// allocatable of a needed resource (or of `pods`), or a bound pod's request for one. Only
/// for nodes whose verdict is about capacity (they fit, or only lack room): another
/// exclusion stands whatever the numbers are. The first `shown` in words, and how many
/// there are (a bundle may hold thousands; only the shown ones are written out).
pub fn unread_capacity<'a>(
    snap: &Snapshot,
    fits: impl IntoIterator<Item = NodeFit<'a>>,
    need: &Units,
    shown: usize,
) -> (Vec<String>, usize) {
    let mut words = Vec::new();
    let mut total = 0;
    for f in fits
        .into_iter()
        .filter(|f| f.unread && (f.fits() || f.capacity_only()))
    {
        let alloc = &f.node.status.allocatable;
        for res in need.keys().map(String::as_str).chain(["pods"]) {
            if let Some(q) = alloc.get(res).filter(|q| q.value.is_none()) {
                total += 1;
                if words.len() < shown {
                    words.push(format!(
                        "the allocatable {res} of node {} is {}",
                        f.name,
                        q.unreadable()
                    ));
                }
            }
            let bound = f.usage.unread.get(res).map_or(&[][..], Vec::as_slice);
            total += bound.len();
            for (pid, u) in bound.iter().take(shown.saturating_sub(words.len())) {
                words.push(format!(
                    "{} on node {}: {}",
                    snap.object(*pid).reference().display(),
                    f.name,
                    u.describe()
                ));
            }
        }
    }
    (words, total)
}

/// One pending pod's Filter, prepared once (its request, claims' PV affinity, inter-pod
/// and spread domains) and then asked node by node, or once per class of nodes.
pub struct PodFilter<'p> {
    spec: &'p PodSpec,
    need: Units,
    pv_affinities: Vec<(String, Vec<NodeSelectorTerm>)>,
    inter: InterPod,
    spread: super::spread::Spread,
    ports: Vec<(i64, String)>,
    node_terms: Option<Vec<NodeSelectorTerm>>,
}

impl<'p> PodFilter<'p> {
    pub fn new(snap: &Snapshot, usage: &Usage, pod_id: ObjectId, pod: &'p Pod) -> PodFilter<'p> {
        let ns = snap.object(pod_id).namespace.clone().unwrap_or_default();
        PodFilter {
            spec: &pod.spec,
            need: pod_units(&pod.spec),
            pv_affinities: pv_node_affinities(snap, &ns, &pod.spec),
            inter: InterPod::build(snap, usage, pod_id, pod, &ns),
            spread: super::spread::Spread::build(snap, pod_id, pod),
            ports: host_ports(&pod.spec),
            node_terms: required_node_terms(pod.spec.affinity.get().as_ref()),
        }
    }

    /// The node labels the verdict reads (sorted, once each), and whether it reads the
    /// node's name (a `matchFields` term): nodes that agree on these and on their
    /// [`super::placer`] base class get the same verdict.
    pub fn consulted(&self) -> (Vec<String>, bool) {
        let mut keys: Vec<String> = self
            .spec
            .node_selector
            .keys()
            .map(|k| k.to_string())
            .collect();
        let mut by_name = false;
        let terms = self
            .node_terms
            .iter()
            .flatten()
            .chain(self.pv_affinities.iter().flat_map(|(_, t)| t));
        for t in terms {
            keys.extend(t.match_expressions.iter().map(|e| e.key.clone()));
            by_name |= !t.match_fields.is_empty();
        }
        keys.extend(self.spread.keys().map(String::from));
        keys.extend(self.inter.keys().map(String::from));
        keys.sort();
        keys.dedup();
        (keys, by_name)
    }

    /// The verdict on one node, whose bound pods hold `nu`.
    pub fn verdict(&self, node: &Node, nu: &NodeUsage) -> Verdict {
        let spec = self.spec;
        let mut ex = Vec::new();
        if node.spec.unschedulable && !tolerates_cordon(&spec.tolerations) {
            ex.push(Exclusion::Cordoned);
        }
        if let Some(t) = untolerated(&spec.tolerations, &node.spec.taints) {
            ex.push(Exclusion::Taint(t.clone()));
        }
        if let Some((k, v)) = unmatched_selector(&spec.node_selector, &node.metadata.labels) {
            ex.push(Exclusion::NodeSelector {
                key: k.to_string(),
                want: v.to_string(),
            });
        } else if let Some(terms) = &self.node_terms
            && !node_matches_terms(&node.metadata, terms)
        {
            ex.push(Exclusion::NodeAffinity);
        }
        if let Some((p, _)) = self.ports.iter().find(|p| nu.host_ports.contains(p)) {
            ex.push(Exclusion::HostPort(*p));
        }
        let mut free = Vec::with_capacity(self.need.len());
        let mut short = Vec::new();
        for (res, n) in &self.need {
            let alloc = scheduler_units(res, get_qty(&node.status.allocatable, res));
            let used = nu.requested.get(res).copied().unwrap_or(0);
            let f = alloc - used;
            free.push((Str::from(res.as_str()), (f, alloc)));
            if *n > f {
                short.push(Short {
                    resource: Str::from(res.as_str()),
                    need: *n,
                    free: f,
                    allocatable: alloc,
                });
            }
        }
        if !short.is_empty() {
            short.shrink_to_fit();
            ex.push(Exclusion::Resources(short));
        }
        if node.status.allocatable.contains_key("pods") {
            let alloc = get_qty(&node.status.allocatable, "pods").value_ceil();
            let used = nu.pods.len() as i128;
            if used + 1 > alloc {
                ex.push(Exclusion::TooManyPods {
                    used,
                    allocatable: alloc,
                });
            }
        }
        if let Some((pv, _)) = self
            .pv_affinities
            .iter()
            .find(|(_, terms)| !node_matches_terms(&node.metadata, terms))
        {
            ex.push(Exclusion::VolumeNodeAffinity { pv: pv.clone() });
        }
        if let Some(x) = self.spread.check(node) {
            ex.push(x);
        }
        if let Some(x) = self.inter.check(node) {
            ex.push(x);
        }
        Verdict::new(ex, Free::new(free))
    }
}

/// Whether a pod in namespace `other_ns` falls under `t`, a term of a pod in `own_ns`.
fn covers(t: &AffinityTerm, snap: &Snapshot, own_ns: &str, other_ns: &str) -> bool {
    t.covers_namespace(own_ns, other_ns, |ns| {
        snap.namespaces()
            .iter()
            .find(|(_, n)| n.metadata.name == ns)
            .map(|(_, n)| &n.metadata.labels)
    })
}

/// Required inter-pod (anti-)affinity of one pending pod, reduced to topology domains
/// once (`(topologyKey, value)` pairs), so each node is checked by label lookups.
struct InterPod {
    /// Domains where an existing pod's anti-affinity rejects this pod.
    rejected_by: HashMap<(String, String), ObjectId>,
    /// Per own anti-affinity term: its key and the domains holding a matching pod.
    avoid: Vec<(String, HashMap<String, ObjectId>)>,
    /// Per own affinity term: its key, the domains holding a matching pod, and whether
    /// the pod may start the group (no pod matches anywhere and it matches itself).
    need: Vec<(String, HashSet<String>, bool)>,
}

impl InterPod {
    fn build(snap: &Snapshot, usage: &Usage, pod_id: ObjectId, pod: &Pod, ns: &str) -> InterPod {
        let labels_of = |node: &str| -> Option<&Labels> {
            snap.node_named(node).map(|(_, n)| &n.metadata.labels)
        };
        let mut rejected_by = HashMap::new();
        for (other, other_node, terms) in usage.anti_for(ns) {
            let other_ns = snap.object(*other).namespace.as_deref().unwrap_or("");
            for t in terms {
                if covers(t, snap, other_ns, ns)
                    && t.selector.matches(&pod.metadata.labels)
                    && let Some(v) = labels_of(other_node).and_then(|l| l.get(&t.topology_key))
                {
                    rejected_by
                        .entry((t.topology_key.clone(), v.to_string()))
                        .or_insert(*other);
                }
            }
        }
        let own_anti = affinity_terms(pod.spec.affinity.get().as_ref(), "podAntiAffinity");
        let own_aff = affinity_terms(pod.spec.affinity.get().as_ref(), "podAffinity");
        let mut avoid = Vec::new();
        let mut need = Vec::new();
        if !own_anti.is_empty() || !own_aff.is_empty() {
            // Terms that cover only the pod's own namespace need only its pods.
            let local = own_anti
                .iter()
                .chain(&own_aff)
                .all(AffinityTerm::own_namespace_only);
            let pods = if local {
                snap.pods_in_namespace(snap.object(pod_id).namespace.as_deref())
            } else {
                snap.pods()
            };
            let bound: Vec<(ObjectId, &Pod, &Labels)> = pods
                .iter()
                .filter(|(id, p)| *id != pod_id && usage.holds(p))
                .filter_map(|(id, p)| {
                    let n = p.spec.node_name.as_deref().filter(|n| !n.is_empty())?;
                    labels_of(n).map(|l| (*id, &**p, l))
                })
                .collect();
            let matches = |t: &AffinityTerm, p: &Pod| {
                covers(t, snap, ns, p.metadata.namespace.as_deref().unwrap_or(""))
                    && t.selector.matches(&p.metadata.labels)
            };
            for t in &own_anti {
                let mut domains = HashMap::new();
                for (id, _, l) in bound.iter().filter(|(_, p, _)| matches(t, p)) {
                    if let Some(v) = l.get(&t.topology_key) {
                        domains.entry(v.to_string()).or_insert(*id);
                    }
                }
                avoid.push((t.topology_key.clone(), domains));
            }
            for t in &own_aff {
                let mut domains = HashSet::new();
                let mut any = false;
                for (_, _, l) in bound.iter().filter(|(_, p, _)| matches(t, p)) {
                    any = true;
                    if let Some(v) = l.get(&t.topology_key) {
                        domains.insert(v.to_string());
                    }
                }
                let first_of_group = !any && t.selector.matches(&pod.metadata.labels);
                need.push((t.topology_key.clone(), domains, first_of_group));
            }
        }
        InterPod {
            rejected_by,
            avoid,
            need,
        }
    }

    /// The topology keys its checks read from a node's labels.
    fn keys(&self) -> impl Iterator<Item = &str> {
        self.need
            .iter()
            .map(|(k, _, _)| k.as_str())
            .chain(self.avoid.iter().map(|(k, _)| k.as_str()))
            .chain(self.rejected_by.keys().map(|(k, _)| k.as_str()))
    }

    /// The first failing check, in upstream's Filter order: the pod's required affinity,
    /// its required anti-affinity, then the existing pods' anti-affinity (the scheduler
    /// names only the first: "didn't match pod affinity rules", "didn't match pod
    /// anti-affinity rules", "didn't satisfy existing pods anti-affinity rules").
    fn check(&self, node: &Node) -> Option<Exclusion> {
        let labels = &node.metadata.labels;
        for (key, domains, first_of_group) in &self.need {
            let here = labels.get(key);
            let ok = here.is_some_and(|v| domains.contains(v.as_str()))
                || (*first_of_group && here.is_some());
            if !ok {
                return Some(Exclusion::PodAffinity);
            }
        }
        for (key, domains) in &self.avoid {
            if let Some(other) = labels.get(key).and_then(|v| domains.get(v.as_str())) {
                return Some(Exclusion::AntiAffinity { other: *other });
            }
        }
        // In id order, so the pod named is the same from run to run.
        let mut rejected: Vec<(&(String, String), &ObjectId)> = self.rejected_by.iter().collect();
        rejected.sort_by_key(|(_, id)| **id);
        for ((key, value), other) in rejected {
            if labels.get(key).map(|s| s.as_str()) == Some(value.as_str()) {
                return Some(Exclusion::ExistingAntiAffinity { other: *other });
            }
        }
        None
    }
}

/// Required node affinity of the PVs bound to the pod's claims: (PV name, terms).
fn pv_node_affinities(
    snap: &Snapshot,
    ns: &str,
    spec: &PodSpec,
) -> Vec<(String, Vec<NodeSelectorTerm>)> {
    let mut out = Vec::new();
    for claim in claim_names(spec) {
        let Some(pvc_id) = snap.find("PersistentVolumeClaim", Some(ns), &claim) else {
            continue;
        };
        let Some(pvc) = Snapshot::view_of(snap.pvcs(), pvc_id) else {
            continue;
        };
        let Some(pv_name) = pvc.spec.volume_name.as_deref().filter(|v| !v.is_empty()) else {
            continue;
        };
        let Some(pv) = snap
            .find("PersistentVolume", None, pv_name)
            .and_then(|id| Snapshot::view_of(snap.pvs(), id))
        else {
            continue;
        };
        if let Some(terms) = pv
            .spec
            .node_affinity
            .as_ref()
            .and_then(|a| a.pointer("/required/nodeSelectorTerms"))
            .and_then(Value::as_array)
        {
            out.push((pv_name.to_string(), node_selector_terms(terms)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn free_room_reads_as_the_map_it_replaces() {
        let free = Free::new(vec![
            (Str::from("memory"), (1, 2)),
            (Str::from("cpu"), (3, 4)),
            (Str::from("memory"), (5, 6)),
        ]);
        // Sorted by name, the last value of a name kept, as a BTreeMap's inserts would.
        let map: BTreeMap<&str, (i128, i128)> = [("memory", (5, 6)), ("cpu", (3, 4))].into();
        assert_eq!(format!("{free:?}"), format!("{map:?}"));
        assert_eq!(
            free.iter().map(|(r, v)| (r, *v)).collect::<Vec<_>>(),
            map.iter().map(|(r, v)| (*r, *v)).collect::<Vec<_>>()
        );
        assert_eq!(free.get("cpu"), Some(&(3, 4)));
        assert_eq!(free.get("memory"), Some(&(5, 6)));
        assert_eq!(free.get("pods"), None);
        assert!(free.contains_key("cpu") && !free.contains_key("c"));
        assert_eq!(free.len(), 2);
        assert!(Free::new(Vec::new()).is_empty());
    }

    #[test]
    fn a_verdict_holds_no_spare_room() {
        // A slice's pointer and length: no capacity, no tree node.
        assert_eq!(std::mem::size_of::<Free>(), 16);
        let mut ex = vec![Exclusion::Cordoned, Exclusion::NodeAffinity];
        ex.pop();
        assert!(ex.capacity() > 1);
        let v = Verdict::new(ex, Free::default());
        assert_eq!(v.exclusions.capacity(), 1);
        assert_eq!(v.category.as_deref(), Some("cordoned"));
        // Short category names are held in place, not on the heap.
        assert!(!v.category.as_ref().unwrap().is_heap_allocated());
    }
}

//! Recomputes the scheduler's Filter phase from the snapshot: for one pod and each node,
//! which constraint excludes the node (reference §2.3, §2.6).
//!
//! Order follows the default plugin order, so the first exclusion of a node is the one
//! the scheduler reports: NodeUnschedulable, TaintToleration, NodeAffinity (nodeSelector
//! and required node affinity), NodePorts, NodeResourcesFit, VolumeBinding (PV node
//! affinity), PodTopologySpread (DoNotSchedule constraints, [`super::spread`]),
//! InterPodAffinity. Requested = Σ effective requests of the non-terminated
//! pods bound to the node (cpu in millicores, the rest in whole units), against
//! `status.allocatable`; pods count against `allocatable.pods`.
//! Not recomputed: volume limits, DRA, scheduler profiles.

use super::requests::{UnreadRequest, effective_requests, scheduler_units, unread_requests};
use crate::kube::meta::{LabelSelector, Labels, ObjectMeta, get_qty};
use crate::kube::node::{Node, Taint};
use crate::kube::pod::{Pod, PodSpec, Toleration};
use crate::snapshot::{ObjectId, Snapshot};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Requests in scheduler units (millicores for cpu, whole units otherwise).
pub type Units = BTreeMap<String, i128>;

/// A pod's effective request in scheduler units.
pub fn pod_units(spec: &PodSpec) -> Units {
    effective_requests(spec)
        .into_iter()
        .map(|(k, q)| {
            let u = scheduler_units(&k, q);
            (k, u)
        })
        .filter(|(_, u)| *u != 0)
        .collect()
}

/// What the non-terminated pods bound to each node hold.
#[derive(Default)]
pub struct Usage {
    nodes: HashMap<String, NodeUsage>,
    /// Returned for nodes with no pod bound.
    empty: NodeUsage,
    /// Bound, non-terminated pods with required anti-affinity terms, in id order.
    anti: Vec<(ObjectId, String, Vec<AffinityTerm>)>,
    /// Indexes into `anti` of the pods whose terms all cover only their own namespace,
    /// by that namespace, and of the others: a pending pod is checked against its
    /// namespace's and the others only, not against every such pod of the cluster.
    anti_local: HashMap<String, Vec<usize>>,
    anti_cross: Vec<usize>,
}

#[derive(Default, Clone)]
pub struct NodeUsage {
    pub requested: Units,
    pub pods: Vec<ObjectId>,
    pub host_ports: BTreeSet<(i64, String)>,
    /// Requests of bound pods that do not read, by resource: `requested` leaves them out,
    /// so it is a floor for these resources, not a count.
    pub unread: BTreeMap<String, Vec<(ObjectId, UnreadRequest)>>,
    by_priority: std::sync::OnceLock<ByPriority>,
}

/// A node's pods ordered by priority with running totals, so "what would evicting every
/// pod below priority P free here" is one binary search. The preemption check asks it
/// for every pending pod and every node; summing pods each time made it quadratic.
#[derive(Default, Clone)]
pub struct ByPriority {
    /// (priority, pod), ascending.
    pub pods: Vec<(i64, ObjectId)>,
    /// The resources any of the pods requests, sorted.
    resources: Vec<String>,
    /// Row `i` (one value per resource): what the first `i` pods of `pods` request. A
    /// map per row was a tree per pod of the cluster (about 30 MB at 65,000 pods).
    freed: Vec<i128>,
}

impl ByPriority {
    /// How many pods have a priority below `prio`: they are `pods[..n]` and free
    /// [`ByPriority::freed`]`(n, …)`.
    pub fn below(&self, prio: i64) -> usize {
        self.pods.partition_point(|(p, _)| *p < prio)
    }

    /// What the first `n` pods request of `resource`.
    pub fn freed(&self, n: usize, resource: &str) -> i128 {
        match self
            .resources
            .binary_search_by(|r| r.as_str().cmp(resource))
        {
            Ok(i) => self.freed[n * self.resources.len() + i],
            Err(_) => 0,
        }
    }
}

impl NodeUsage {
    pub fn by_priority(&self, snap: &Snapshot) -> &ByPriority {
        self.by_priority.get_or_init(|| {
            let mut pods: Vec<(i64, ObjectId)> = self
                .pods
                .iter()
                .filter_map(|id| snap.pod(*id).map(|p| (priority_of(snap, p), *id)))
                .collect();
            pods.sort();
            let units: Vec<Units> = pods
                .iter()
                .map(|(_, id)| {
                    snap.pod(*id)
                        .map(|p| pod_units(&p.spec))
                        .unwrap_or_default()
                })
                .collect();
            let resources: Vec<String> = units
                .iter()
                .flat_map(|u| u.keys().cloned())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            let mut freed = vec![0; (pods.len() + 1) * resources.len()];
            let mut row = vec![0; resources.len()];
            for (i, u) in units.iter().enumerate() {
                for (r, sum) in resources.iter().zip(row.iter_mut()) {
                    *sum += u.get(r).copied().unwrap_or(0);
                }
                let at = (i + 1) * resources.len();
                freed[at..at + resources.len()].copy_from_slice(&row);
            }
            ByPriority {
                pods,
                resources,
                freed,
            }
        })
    }
}

impl Usage {
    pub fn build(snap: &Snapshot) -> Usage {
        let mut u = Usage::default();
        for (id, p) in snap.pods() {
            let Some(node) = p.spec.node_name.as_deref().filter(|n| !n.is_empty()) else {
                continue;
            };
            if !p.is_active() {
                continue;
            }
            let nu = u.nodes.entry(node.to_string()).or_default();
            for (k, v) in pod_units(&p.spec) {
                *nu.requested.entry(k).or_default() += v;
            }
            nu.pods.push(*id);
            for u in unread_requests(&p.spec) {
                nu.unread
                    .entry(u.resource.clone())
                    .or_default()
                    .push((*id, u));
            }
            nu.host_ports.extend(host_ports(&p.spec));
            let terms = affinity_terms(p.spec.affinity.get().as_ref(), "podAntiAffinity");
            if !terms.is_empty() {
                let at = u.anti.len();
                if terms.iter().all(AffinityTerm::own_namespace_only) {
                    let ns = snap.object(*id).namespace.clone().unwrap_or_default();
                    u.anti_local.entry(ns).or_default().push(at);
                } else {
                    u.anti_cross.push(at);
                }
                u.anti.push((*id, node.to_string(), terms));
            }
        }
        u
    }

    /// The bound pods whose anti-affinity may reject a pod of namespace `ns`, in id order.
    fn anti_for(&self, ns: &str) -> impl Iterator<Item = &(ObjectId, String, Vec<AffinityTerm>)> {
        let local = self.anti_local.get(ns).map_or(&[][..], Vec::as_slice);
        let mut at: Vec<usize> = local.iter().chain(&self.anti_cross).copied().collect();
        at.sort_unstable();
        at.into_iter().map(|i| &self.anti[i])
    }

    pub fn of(&self, node: &str) -> &NodeUsage {
        self.nodes.get(node).unwrap_or(&self.empty)
    }
}

/// A resource the node has too little of for the pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Short {
    pub resource: String,
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

/// Taints the node lifecycle controller puts on NotReady / unreachable nodes.
pub fn is_not_ready_taint(key: &str) -> bool {
    matches!(
        key,
        "node.kubernetes.io/not-ready" | "node.kubernetes.io/unreachable"
    )
}

/// One node's verdict for the pod.
pub struct NodeFit<'a> {
    pub id: ObjectId,
    pub name: &'a str,
    pub node: &'a Node,
    pub exclusions: Vec<Exclusion>,
    /// Per requested resource: (free, allocatable) in scheduler units.
    pub free: BTreeMap<String, (i128, i128)>,
    pub usage: &'a NodeUsage,
}

impl NodeFit<'_> {
    pub fn fits(&self) -> bool {
        self.exclusions.is_empty()
    }

    /// Excluded only for capacity (resources or pod count).
    pub fn capacity_only(&self) -> bool {
        !self.exclusions.is_empty() && self.exclusions.iter().all(Exclusion::is_capacity)
    }
}

/// What a node's verdict for a pod needing `need` rests on and cannot read: the node's
/// allocatable of a needed resource (or of `pods`), or a bound pod's request for one. Only
/// for nodes whose verdict is about capacity (they fit, or only lack room): another
/// exclusion stands whatever the numbers are. The first `shown` in words, and how many
/// there are (a bundle may hold thousands; only the shown ones are written out).
pub fn unread_capacity(
    snap: &Snapshot,
    fits: &[NodeFit],
    need: &Units,
    shown: usize,
) -> (Vec<String>, usize) {
    let mut words = Vec::new();
    let mut total = 0;
    for f in fits.iter().filter(|f| f.fits() || f.capacity_only()) {
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

/// Evaluates every node of the bundle for `pod`.
pub fn evaluate<'a>(
    snap: &'a Snapshot,
    usage: &'a Usage,
    pod_id: ObjectId,
    pod: &Pod,
) -> Vec<NodeFit<'a>> {
    let need = pod_units(&pod.spec);
    let ns = snap.object(pod_id).namespace.clone().unwrap_or_default();
    let pv_affinities = pv_node_affinities(snap, &ns, &pod.spec);
    let inter = InterPod::build(snap, usage, pod_id, pod, &ns);
    let spread = super::spread::Spread::build(snap, pod_id, pod);
    let ports = host_ports(&pod.spec);
    snap.nodes()
        .iter()
        .map(|(nid, node)| {
            let name = node.metadata.name.as_str();
            let nu = usage.of(name);
            let mut ex = Vec::new();
            if node.spec.unschedulable
                && !tolerates(
                    &pod.spec.tolerations,
                    &Taint {
                        key: "node.kubernetes.io/unschedulable".into(),
                        value: None,
                        effect: "NoSchedule".into(),
                    },
                )
            {
                ex.push(Exclusion::Cordoned);
            }
            if let Some(t) = node.spec.taints.iter().find(|t| {
                matches!(t.effect.as_str(), "NoSchedule" | "NoExecute")
                    && !tolerates(&pod.spec.tolerations, t)
            }) {
                ex.push(Exclusion::Taint(t.clone()));
            }
            if let Some((k, v)) = pod
                .spec
                .node_selector
                .iter()
                .find(|(k, v)| node.metadata.labels.get(k) != Some(*v))
            {
                ex.push(Exclusion::NodeSelector {
                    key: k.to_string(),
                    want: v.to_string(),
                });
            } else if let Some(terms) = required_node_terms(pod.spec.affinity.get().as_ref())
                && !node_matches_terms(&node.metadata, terms)
            {
                ex.push(Exclusion::NodeAffinity);
            }
            if let Some((p, _)) = ports.iter().find(|p| nu.host_ports.contains(p)) {
                ex.push(Exclusion::HostPort(*p));
            }
            let mut free = BTreeMap::new();
            let mut short = Vec::new();
            for (res, n) in &need {
                let alloc = scheduler_units(res, get_qty(&node.status.allocatable, res));
                let used = nu.requested.get(res).copied().unwrap_or(0);
                let f = alloc - used;
                free.insert(res.clone(), (f, alloc));
                if *n > f {
                    short.push(Short {
                        resource: res.clone(),
                        need: *n,
                        free: f,
                        allocatable: alloc,
                    });
                }
            }
            if !short.is_empty() {
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
            if let Some((pv, _)) = pv_affinities
                .iter()
                .find(|(_, terms)| !node_matches_terms(&node.metadata, terms))
            {
                ex.push(Exclusion::VolumeNodeAffinity { pv: pv.clone() });
            }
            if let Some(x) = spread.check(node) {
                ex.push(x);
            }
            if let Some(x) = inter.check(node) {
                ex.push(x);
            }
            NodeFit {
                id: *nid,
                name,
                node,
                exclusions: ex,
                free,
                usage: nu,
            }
        })
        .collect()
}

/// `ToleratesTaint` (k8s.io/api core/v1 helpers).
pub fn tolerates(tolerations: &[Toleration], taint: &Taint) -> bool {
    tolerations.iter().any(|t| {
        let effect_ok = t
            .effect
            .as_deref()
            .is_none_or(|e| e.is_empty() || e == taint.effect);
        let key = t.key.as_deref().unwrap_or("");
        let key_ok = key.is_empty() || key == taint.key;
        let op = t.operator.as_deref().unwrap_or("Equal");
        let value_ok = match op {
            "Exists" => true,
            "Equal" | "" => {
                t.value.as_deref().unwrap_or("") == taint.value.as_deref().unwrap_or("")
            }
            _ => false,
        };
        // An empty key only makes sense with Exists (it matches every taint).
        effect_ok && key_ok && value_ok && (!key.is_empty() || op == "Exists")
    })
}

/// `spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`.
pub fn required_node_terms(affinity: Option<&Value>) -> Option<&Vec<Value>> {
    affinity?
        .pointer("/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms")?
        .as_array()
}

/// NodeSelectorTerms are ORed; a term's expressions and fields are ANDed; a term with
/// neither matches nothing.
pub fn node_matches_terms(node: &ObjectMeta, terms: &[Value]) -> bool {
    terms.iter().any(|term| {
        let exprs = term.get("matchExpressions").and_then(Value::as_array);
        let fields = term.get("matchFields").and_then(Value::as_array);
        if exprs.is_none_or(|e| e.is_empty()) && fields.is_none_or(|f| f.is_empty()) {
            return false;
        }
        exprs
            .into_iter()
            .flatten()
            .all(|e| requirement_matches(e, node.labels.get(str_at(e, "key")).map(|s| s.as_str())))
            && fields.into_iter().flatten().all(|f| {
                let value = (str_at(f, "key") == "metadata.name").then_some(node.name.as_str());
                requirement_matches(f, value)
            })
    })
}

fn str_at<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

/// One NodeSelectorRequirement against a label value.
fn requirement_matches(req: &Value, value: Option<&str>) -> bool {
    let values: Vec<&str> = req
        .get("values")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let num = |s: &str| s.trim().parse::<i64>().ok();
    match str_at(req, "operator") {
        "In" => value.is_some_and(|v| values.contains(&v)),
        "NotIn" => value.is_none_or(|v| !values.contains(&v)),
        "Exists" => value.is_some(),
        "DoesNotExist" => value.is_none(),
        "Gt" => {
            matches!((value.and_then(num), values.first().and_then(|v| num(v))), (Some(a), Some(b)) if a > b)
        }
        "Lt" => {
            matches!((value.and_then(num), values.first().and_then(|v| num(v))), (Some(a), Some(b)) if a < b)
        }
        _ => false,
    }
}

/// `(hostPort, protocol)` of every container port that asks for one.
fn host_ports(spec: &PodSpec) -> Vec<(i64, String)> {
    spec.containers
        .iter()
        .chain(spec.init_containers.iter())
        .flat_map(|c| c.ports.iter())
        .filter_map(|p| {
            p.host_port
                .filter(|h| *h > 0)
                .map(|h| (h, p.protocol.as_deref().unwrap_or("TCP").to_string()))
        })
        .collect()
}

/// A required pod (anti-)affinity term.
#[derive(Clone, Debug)]
pub struct AffinityTerm {
    pub selector: LabelSelector,
    pub topology_key: String,
    pub namespaces: Vec<String>,
    /// `Some(selector)` when `namespaceSelector` is set (empty = every namespace).
    pub namespace_selector: Option<LabelSelector>,
}

/// Required terms of `podAffinity` or `podAntiAffinity`.
pub fn affinity_terms(affinity: Option<&Value>, which: &str) -> Vec<AffinityTerm> {
    let Some(list) = affinity
        .and_then(|a| a.get(which))
        .and_then(|a| a.get("requiredDuringSchedulingIgnoredDuringExecution"))
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|t| {
            let selector = t
                .get("labelSelector")
                .filter(|v| !v.is_null())
                .map(|v| serde_json::from_value::<LabelSelector>(v.clone()).ok())?;
            Some(AffinityTerm {
                selector: selector?,
                topology_key: str_at(t, "topologyKey").to_string(),
                namespaces: t
                    .get("namespaces")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default(),
                namespace_selector: t
                    .get("namespaceSelector")
                    .filter(|v| !v.is_null())
                    .and_then(|v| serde_json::from_value(v.clone()).ok()),
            })
        })
        .collect()
}

impl AffinityTerm {
    /// A term with neither `namespaces` nor `namespaceSelector` covers its pod's own
    /// namespace only.
    fn own_namespace_only(&self) -> bool {
        self.namespaces.is_empty() && self.namespace_selector.is_none()
    }

    /// Whether a pod in namespace `other_ns` falls under the term of a pod in `own_ns`.
    fn covers_namespace(&self, snap: &Snapshot, own_ns: &str, other_ns: &str) -> bool {
        if self.namespaces.iter().any(|n| n == other_ns) {
            return true;
        }
        match &self.namespace_selector {
            Some(sel) => {
                if sel.match_labels.is_empty() && sel.match_expressions.is_empty() {
                    return true;
                }
                snap.namespaces()
                    .iter()
                    .find(|(_, n)| n.metadata.name == other_ns)
                    .is_some_and(|(_, n)| sel.matches(&n.metadata.labels))
            }
            None => self.namespaces.is_empty() && own_ns == other_ns,
        }
    }
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
                if t.covers_namespace(snap, other_ns, ns)
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
                .filter(|(id, p)| *id != pod_id && p.is_active())
                .filter_map(|(id, p)| {
                    let n = p.spec.node_name.as_deref().filter(|n| !n.is_empty())?;
                    labels_of(n).map(|l| (*id, &**p, l))
                })
                .collect();
            let matches = |t: &AffinityTerm, p: &Pod| {
                t.covers_namespace(snap, ns, p.metadata.namespace.as_deref().unwrap_or(""))
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

    fn check(&self, node: &Node) -> Option<Exclusion> {
        let labels = &node.metadata.labels;
        for ((key, value), other) in &self.rejected_by {
            if labels.get(key).map(|s| s.as_str()) == Some(value.as_str()) {
                return Some(Exclusion::ExistingAntiAffinity { other: *other });
            }
        }
        for (key, domains) in &self.avoid {
            if let Some(other) = labels.get(key).and_then(|v| domains.get(v.as_str())) {
                return Some(Exclusion::AntiAffinity { other: *other });
            }
        }
        for (key, domains, first_of_group) in &self.need {
            let here = labels.get(key);
            let ok = here.is_some_and(|v| domains.contains(v.as_str()))
                || (*first_of_group && here.is_some());
            if !ok {
                return Some(Exclusion::PodAffinity);
            }
        }
        None
    }
}

/// Required node affinity of the PVs bound to the pod's claims: (PV name, terms).
fn pv_node_affinities(snap: &Snapshot, ns: &str, spec: &PodSpec) -> Vec<(String, Vec<Value>)> {
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
            out.push((pv_name.to_string(), terms.clone()));
        }
    }
    out
}

/// Names of the PVCs the pod's volumes use (ephemeral volumes: `<pod>-<volume>`).
pub fn claim_names(spec: &PodSpec) -> Vec<String> {
    spec.volumes
        .get()
        .iter()
        .filter_map(|v| {
            v.pointer("/persistentVolumeClaim/claimName")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .collect()
}

/// A pod's priority: `spec.priority`, else its PriorityClass's value, else the global
/// default class, else 0.
pub fn priority_of(snap: &Snapshot, pod: &Pod) -> i64 {
    if let Some(p) = pod.spec.priority {
        return p;
    }
    let classes = snap.priority_classes();
    if let Some(name) = pod.spec.priority_class_name.as_deref()
        && let Some((_, pc)) = classes.iter().find(|(_, c)| c.metadata.name == name)
    {
        return pc.value;
    }
    classes
        .iter()
        .find(|(_, c)| c.global_default)
        .map(|(_, c)| c.value)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tol(v: serde_json::Value) -> Vec<Toleration> {
        serde_json::from_value(v).unwrap()
    }

    fn taint(key: &str, value: Option<&str>, effect: &str) -> Taint {
        Taint {
            key: key.into(),
            value: value.map(str::to_string),
            effect: effect.into(),
        }
    }

    #[test]
    fn toleration_matching() {
        let t = taint("dedicated", Some("gpu"), "NoSchedule");
        assert!(tolerates(
            &tol(
                json!([{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}])
            ),
            &t
        ));
        assert!(tolerates(
            &tol(json!([{"key": "dedicated", "operator": "Exists"}])),
            &t
        ));
        assert!(
            tolerates(&tol(json!([{"operator": "Exists"}])), &t),
            "empty key + Exists tolerates all"
        );
        assert!(!tolerates(
            &tol(json!([{"key": "dedicated", "value": "cpu", "effect": "NoSchedule"}])),
            &t
        ));
        assert!(!tolerates(
            &tol(json!([{"key": "dedicated", "operator": "Exists", "effect": "NoExecute"}])),
            &t
        ));
        assert!(!tolerates(&[], &t));
        let cp = taint("node-role.kubernetes.io/control-plane", None, "NoSchedule");
        assert!(
            tolerates(
                &tol(
                    json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}])
                ),
                &cp
            ),
            "Equal with empty value matches an empty value"
        );
    }

    #[test]
    fn node_selector_terms() {
        let meta: ObjectMeta =
            serde_json::from_value(json!({"name": "n1", "labels": {"zone": "a", "gen": "5"}}))
                .unwrap();
        let terms = |v: serde_json::Value| -> Vec<Value> { serde_json::from_value(v).unwrap() };
        assert!(node_matches_terms(
            &meta,
            &terms(
                json!([{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a", "b"]}]}])
            )
        ));
        assert!(!node_matches_terms(
            &meta,
            &terms(
                json!([{"matchExpressions": [{"key": "zone", "operator": "NotIn", "values": ["a"]}]}])
            )
        ));
        assert!(
            node_matches_terms(
                &meta,
                &terms(json!([
                    {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["z"]}]},
                    {"matchExpressions": [{"key": "gen", "operator": "Gt", "values": ["4"]}]}
                ]))
            ),
            "terms are ORed"
        );
        assert!(!node_matches_terms(
            &meta,
            &terms(
                json!([{"matchExpressions": [{"key": "gen", "operator": "Lt", "values": ["4"]}]}])
            )
        ));
        assert!(node_matches_terms(
            &meta,
            &terms(
                json!([{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]}])
            )
        ));
        assert!(
            !node_matches_terms(&meta, &terms(json!([{}]))),
            "an empty term matches nothing"
        );
        assert!(!node_matches_terms(&meta, &[]));
        assert!(node_matches_terms(
            &meta,
            &terms(json!([{"matchExpressions": [{"key": "gpu", "operator": "DoesNotExist"}]}]))
        ));
    }
}

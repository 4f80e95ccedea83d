//! The Filter of [`super::fit`] asked for many pending pods over many nodes, at a cost
//! linear in pods + nodes rather than their product.
//!
//! Two things make it so. Nodes that the Filter cannot tell apart for a pod — the same
//! cordon, taints, allocatable, requested room, pod count and host ports (their base
//! class, computed once), and the same values of the labels the pod's constraints read —
//! form one class, and the verdict is computed once per class and shared by its nodes.
//! Pods that ask the same (namespace, effective request, claims, nodeSelector, affinity,
//! tolerations, spread constraints, host ports; labels when a constraint reads them) get
//! the same verdicts, so a controller's pods are evaluated once.

use super::fit::{NodeFit, PodFilter, Verdict};
use crate::kube::node::Node;
use crate::kube::pod::Pod;
use crate::rules::node_usage::{NodeUsage, Usage};
use crate::snapshot::{ObjectId, Snapshot};
use foldhash::{HashMap, HashMapExt};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::rc::Rc;

/// Nodes split into classes for one set of consulted labels.
pub struct Partition {
    /// Per node (in `snap.nodes()` order), its class.
    class_of: Vec<u32>,
    /// Per class, its nodes in `snap.nodes()` order (the first is the class's sample).
    members: Vec<Vec<u32>>,
    /// Per class, the node with the smallest name (the last of equal names): the one
    /// "the most free, then the first by name" picks within a class.
    least_name: Vec<u32>,
}

/// Nodes that share one category of first exclusion for a pod: how many, the first few
/// in `snap.nodes()` order, and their classes with how many nodes each.
pub struct Group<'a> {
    /// How many nodes.
    pub n: usize,
    /// The first [`Group::SHOWN`] nodes' names, in `snap.nodes()` order.
    pub names: Vec<&'a str>,
    /// The first node (in `snap.nodes()` order).
    pub first: NodeFit<'a>,
    /// Each class's node count and first node, in order of their first node.
    pub classes: Vec<(usize, NodeFit<'a>)>,
}

impl Group<'_> {
    /// Names kept: enough for [`super::fit_text::list_names`] to word the list.
    pub const SHOWN: usize = 4;
}

/// Every node's verdict for one pod, held per class of nodes: what a finding is worded
/// from costs the classes, not the nodes; a node's own [`NodeFit`] is built on demand.
pub struct Fits<'a> {
    placer: &'a Placer<'a>,
    verdicts: Rc<[Rc<Verdict>]>,
    partition: Rc<Partition>,
    /// Every node's [`NodeFit`], built only for the few uses that read each node.
    all: std::cell::OnceCell<Vec<NodeFit<'a>>>,
}

impl<'a> Fits<'a> {
    /// Which partition of the nodes the classes are of: pods with the same partition and
    /// the same verdict per class get the same verdict on every node.
    pub fn partition_id(&self) -> usize {
        Rc::as_ptr(&self.partition) as usize
    }

    /// How many nodes.
    pub fn len(&self) -> usize {
        self.partition.class_of.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Node `i` (in `snap.nodes()` order) with its verdict.
    pub fn node(&self, i: usize) -> NodeFit<'a> {
        let (nid, node) = &self.placer.snap.nodes()[i];
        let class = self.partition.class_of[i];
        NodeFit {
            id: *nid,
            name: node.metadata.name.as_str(),
            node,
            class,
            verdict: Rc::clone(&self.verdicts[class as usize]),
            usage: self.placer.usages[i],
            unread: self.placer.unread[i],
        }
    }

    /// Every node's verdict, in `snap.nodes()` order: a pass over every node, for the
    /// uses that are not per pod (a shared cause is worded once per set of verdicts).
    pub fn nodes(&self) -> &[NodeFit<'a>] {
        self.all
            .get_or_init(|| (0..self.len()).map(|i| self.node(i)).collect())
    }

    /// Each class: its node count, verdict and a sample node, in order of first node.
    pub fn classes(&self) -> impl Iterator<Item = (usize, NodeFit<'a>)> + '_ {
        let mut order: Vec<usize> = (0..self.verdicts.len()).collect();
        order.sort_by_key(|&c| self.partition.members[c][0]);
        order.into_iter().map(|c| {
            let m = &self.partition.members[c];
            (m.len(), self.node(m[0] as usize))
        })
    }

    /// Whether some node passes every filter.
    pub fn any_fits(&self) -> bool {
        self.verdicts.iter().any(|v| v.exclusions.is_empty())
    }

    /// The indices (in `snap.nodes()`) of the nodes of the classes `keep` accepts, in order.
    pub fn indices_where(&self, keep: impl Fn(&Verdict) -> bool) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.verdicts.len())
            .filter(|&c| keep(&self.verdicts[c]))
            .flat_map(|c| self.partition.members[c].iter().map(|&i| i as usize))
            .collect();
        idx.sort_unstable();
        idx
    }

    /// Whether some node is excluded for capacity alone.
    pub fn any_capacity_only(&self) -> bool {
        self.verdicts.iter().any(|v| v.capacity_only)
    }

    /// Per class `keep` accepts, the node "the most free, then the first by name" would
    /// pick among its nodes (the smallest name), with the class's verdict, in
    /// `snap.nodes()` order.
    pub fn least_named(&self, keep: impl Fn(&Verdict) -> bool) -> Vec<NodeFit<'a>> {
        let mut idx: Vec<u32> = (0..self.verdicts.len())
            .filter(|&c| keep(&self.verdicts[c]))
            .map(|c| self.partition.least_name[c])
            .collect();
        idx.sort_unstable();
        idx.into_iter().map(|i| self.node(i as usize)).collect()
    }

    /// The nodes whose allocatable, or a bound pod's request, does not read.
    pub fn unread_nodes(&self) -> impl Iterator<Item = NodeFit<'a>> + '_ {
        self.placer.unread_at.iter().map(|&i| self.node(i))
    }

    /// The nodes excluded for capacity alone that hold a pod with a priority below
    /// `prio` (the only ones preemption can help), in `snap.nodes()` order.
    pub fn capacity_with_lower(&self, prio: i64) -> Vec<NodeFit<'a>> {
        let lowest = self.placer.lowest();
        let end = lowest.partition_point(|(p, _)| *p < prio);
        let mut idx: Vec<usize> = lowest[..end]
            .iter()
            .map(|(_, i)| *i)
            .filter(|&i| self.verdicts[self.partition.class_of[i] as usize].capacity_only)
            .collect();
        idx.sort_unstable();
        idx.into_iter().map(|i| self.node(i)).collect()
    }

    /// The nodes grouped by their first exclusion's category (nodes that fit are in no
    /// group), categories in order: counted per class, the first few named.
    pub fn by_category(&self) -> BTreeMap<&str, Group<'a>> {
        let mut cats: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (c, v) in self.verdicts.iter().enumerate() {
            if let Some(cat) = v.category.as_deref() {
                cats.entry(cat).or_default().push(c);
            }
        }
        cats.into_iter()
            .map(|(cat, classes)| (cat, self.group(classes)))
            .collect()
    }

    /// The nodes that pass every filter as one group, when there are any.
    pub fn fitting(&self) -> Option<Group<'a>> {
        let classes: Vec<usize> = (0..self.verdicts.len())
            .filter(|&c| self.verdicts[c].exclusions.is_empty())
            .collect();
        (!classes.is_empty()).then(|| self.group(classes))
    }

    /// The nodes that pass every filter and were created after `t` (a Unix time), with
    /// their creation times, in `snap.nodes()` order: read from the nodes sorted by
    /// creation, not from every node.
    pub fn fitting_created_after(&self, t: i64) -> Vec<(&'a str, i64)> {
        let created = self.placer.created();
        let start = created.partition_point(|(c, _)| *c <= t);
        let mut newer: Vec<(usize, i64)> = created[start..]
            .iter()
            .filter(|(_, i)| {
                self.verdicts[self.partition.class_of[*i] as usize]
                    .exclusions
                    .is_empty()
            })
            .map(|(c, i)| (*i, *c))
            .collect();
        newer.sort_unstable();
        let nodes = self.placer.snap.nodes();
        newer
            .into_iter()
            .map(|(i, c)| (nodes[i].1.metadata.name.as_str(), c))
            .collect()
    }

    /// The nodes named `names`, in `snap.nodes()` order: found by name, not by a pass
    /// over every node.
    pub fn named<'n>(&self, names: impl IntoIterator<Item = &'n str>) -> Vec<NodeFit<'a>> {
        let by_name = self.placer.by_name.get_or_init(|| {
            let mut m: HashMap<String, Vec<usize>> = HashMap::new();
            for (i, (_, n)) in self.placer.snap.nodes().iter().enumerate() {
                m.entry(n.metadata.name.to_string()).or_default().push(i);
            }
            m
        });
        let mut idx: Vec<usize> = names
            .into_iter()
            .filter_map(|n| by_name.get(n))
            .flatten()
            .copied()
            .collect();
        idx.sort_unstable();
        idx.dedup();
        idx.into_iter().map(|i| self.node(i)).collect()
    }

    /// The nodes of `classes` (not empty) as one group.
    fn group(&self, mut classes: Vec<usize>) -> Group<'a> {
        let members = &self.partition.members;
        classes.sort_by_key(|&c| members[c][0]);
        let first = self.first_of(&classes, Group::SHOWN);
        Group {
            n: classes.iter().map(|&c| members[c].len()).sum(),
            names: first
                .iter()
                .map(|&i| self.placer.snap.nodes()[i].1.metadata.name.as_str())
                .collect(),
            first: self.node(first[0]),
            classes: classes
                .iter()
                .map(|&c| (members[c].len(), self.node(members[c][0] as usize)))
                .collect(),
        }
    }

    /// The first `k` nodes of `classes` in `snap.nodes()` order: each class's first `k`
    /// merged, not every member.
    fn first_of(&self, classes: &[usize], k: usize) -> Vec<usize> {
        let mut idx: Vec<u32> = classes
            .iter()
            .flat_map(|&c| self.partition.members[c].iter().take(k).copied())
            .collect();
        idx.sort_unstable();
        idx.truncate(k);
        idx.into_iter().map(|i| i as usize).collect()
    }
}

/// The label keys (sorted) and whether the node's name is read.
type Consulted = (Vec<String>, bool);

/// The Filter over every node of the bundle, for pod after pod of one rule's run.
pub struct Placer<'a> {
    snap: &'a Snapshot,
    usage: &'a Usage,
    /// Per node: what its pods hold, and its base class.
    usages: Vec<&'a NodeUsage>,
    base: Vec<u32>,
    /// Per node: some allocatable value or bound request of it does not read.
    unread: Vec<bool>,
    /// The nodes with `unread`, in order.
    unread_at: Vec<usize>,
    /// Per node that holds pods: the lowest priority among them, and the node; ascending.
    lowest: std::cell::OnceCell<Vec<(i64, usize)>>,
    /// Per node with a creation time that reads: that time and the node; ascending.
    created: std::cell::OnceCell<Vec<(i64, usize)>>,
    /// The nodes by name.
    by_name: std::cell::OnceCell<HashMap<String, Vec<usize>>>,
    partitions: RefCell<HashMap<Consulted, Rc<Partition>>>,
    /// Per pod key: the partition and each class's verdict.
    answers: RefCell<HashMap<String, Answer>>,
    /// Per pod key, how many pods said to come ([`Placer::expect`]) have not asked yet:
    /// an answer is let go after the last of them.
    left: RefCell<HashMap<String, u32>>,
    /// How many verdicts were computed (one per class per distinct pod).
    computed: std::cell::Cell<usize>,
}

type Answer = (Rc<Partition>, Rc<[Rc<Verdict>]>);

impl<'a> Placer<'a> {
    pub fn new(snap: &'a Snapshot, usage: &'a Usage) -> Placer<'a> {
        let mut ids: HashMap<String, u32> = HashMap::new();
        let mut base = Vec::with_capacity(snap.nodes().len());
        let mut usages = Vec::with_capacity(snap.nodes().len());
        let mut unread = Vec::with_capacity(snap.nodes().len());
        for (_, node) in snap.nodes() {
            let nu = usage.of(node.metadata.name.as_str());
            let key = base_key(node, nu);
            let next = ids.len() as u32;
            base.push(*ids.entry(key).or_insert(next));
            usages.push(nu);
            unread.push(
                !nu.unread.is_empty()
                    || node.status.allocatable.values().any(|q| q.value.is_none()),
            );
        }
        let unread_at = (0..unread.len()).filter(|&i| unread[i]).collect();
        Placer {
            snap,
            usage,
            usages,
            base,
            unread,
            unread_at,
            lowest: std::cell::OnceCell::new(),
            created: std::cell::OnceCell::new(),
            by_name: std::cell::OnceCell::new(),
            partitions: RefCell::new(HashMap::new()),
            answers: RefCell::new(HashMap::new()),
            left: RefCell::new(HashMap::new()),
            computed: std::cell::Cell::new(0),
        }
    }

    /// Says which pods will be evaluated, each once: an answer is then kept until the
    /// last of them that asks the same, not for the whole run. A pod's verdicts are one per
    /// class of nodes; kept to the end, 1,000 pending pods of 194 kinds over the 1 GB
    /// bundle's nodes held 78 MB of them at the rules' peak.
    pub fn expect<'p>(&self, pods: impl IntoIterator<Item = (ObjectId, &'p Pod)>) {
        let mut left = self.left.borrow_mut();
        for (id, pod) in pods {
            if let Some(k) = pod_key(self.snap, self.usage, id, pod) {
                *left.entry(k).or_insert(0) += 1;
            }
        }
    }

    /// Every node's verdict for `pod`, held per class of nodes.
    pub fn evaluate<'p>(&'p self, pod_id: ObjectId, pod: &Pod) -> Fits<'p> {
        let key = pod_key(self.snap, self.usage, pod_id, pod);
        // Whether this is the last pod said to come that asks the same.
        let last = key.as_ref().is_some_and(|k| {
            let mut left = self.left.borrow_mut();
            match left.get_mut(k) {
                Some(1) => {
                    left.remove(k);
                    true
                }
                Some(n) => {
                    *n -= 1;
                    false
                }
                None => false,
            }
        });
        let known = key.as_ref().and_then(|k| {
            let mut answers = self.answers.borrow_mut();
            if last {
                answers.remove(k)
            } else {
                answers.get(k).cloned()
            }
        });
        let (partition, verdicts) = match known {
            Some(a) => a,
            None => {
                let filter = PodFilter::new(self.snap, self.usage, pod_id, pod);
                let partition = self.partition(filter.consulted());
                let nodes = self.snap.nodes();
                self.computed
                    .set(self.computed.get() + partition.members.len());
                let verdicts: Rc<[Rc<Verdict>]> = partition
                    .members
                    .iter()
                    .map(|m| m[0] as usize)
                    .map(|i| Rc::new(filter.verdict(&nodes[i].1, self.usages[i])))
                    .collect();
                if let Some(k) = key.filter(|_| !last) {
                    self.answers
                        .borrow_mut()
                        .insert(k, (Rc::clone(&partition), Rc::clone(&verdicts)));
                }
                (partition, verdicts)
            }
        };
        Fits {
            placer: self,
            verdicts,
            partition,
            all: std::cell::OnceCell::new(),
        }
    }

    /// Per node that holds pods, the lowest priority among them; built once, for the
    /// preemption check.
    fn lowest(&self) -> &[(i64, usize)] {
        self.lowest.get_or_init(|| {
            let mut v: Vec<(i64, usize)> = self
                .usages
                .iter()
                .enumerate()
                .filter_map(|(i, u)| Some((u.by_priority(self.snap).pods.first()?.0, i)))
                .collect();
            v.sort_unstable();
            v
        })
    }

    /// Per node with a creation time that reads, that time; built once, for "the
    /// scheduler's message is stale".
    fn created(&self) -> &[(i64, usize)] {
        self.created.get_or_init(|| {
            let mut v: Vec<(i64, usize)> = self
                .snap
                .nodes()
                .iter()
                .enumerate()
                .filter_map(|(i, (_, n))| {
                    let t = n.metadata.creation_timestamp.as_deref()?;
                    Some((crate::kube::time::parse_timestamp(t)?, i))
                })
                .collect();
            v.sort_unstable();
            v
        })
    }

    /// The nodes' classes for a pod that reads `consulted`, built once per such set.
    fn partition(&self, consulted: Consulted) -> Rc<Partition> {
        if let Some(p) = self.partitions.borrow().get(&consulted) {
            return Rc::clone(p);
        }
        let (keys, by_name) = &consulted;
        let mut ids: HashMap<(u32, Vec<Option<&str>>), u32> = HashMap::new();
        let mut class_of = Vec::with_capacity(self.base.len());
        let mut members: Vec<Vec<u32>> = Vec::new();
        for (i, (_, node)) in self.snap.nodes().iter().enumerate() {
            let labels = &node.metadata.labels;
            let mut values: Vec<Option<&str>> = keys
                .iter()
                .map(|k| labels.get(k).map(|v| v.as_str()))
                .collect();
            if *by_name {
                values.push(Some(node.metadata.name.as_str()));
            }
            let next = members.len() as u32;
            let class = *ids.entry((self.base[i], values)).or_insert(next);
            if class == next {
                members.push(Vec::new());
            }
            members[class as usize].push(i as u32);
            class_of.push(class);
        }
        let nodes = self.snap.nodes();
        let name = |i: u32| nodes[i as usize].1.metadata.name.as_str();
        let least_name = members
            .iter()
            .map(|m| {
                // The smallest name; of equal names the last, as a scan in node order
                // that keeps ties picks.
                m.iter()
                    .copied()
                    .reduce(|b, i| if name(b) >= name(i) { i } else { b })
                    .expect("a class has a node")
            })
            .collect();
        let p = Rc::new(Partition {
            class_of,
            members,
            least_name,
        });
        self.partitions
            .borrow_mut()
            .insert(consulted, Rc::clone(&p));
        p
    }
}

/// Everything of a node the Filter reads but its labels and name: nodes with the same
/// key get the same verdict for any pod that reads no label.
fn base_key(node: &Node, nu: &NodeUsage) -> String {
    let mut k = String::new();
    let _ = write!(
        k,
        "{}\0{:?}\0{:?}\0{:?}\0{}\0{:?}",
        node.spec.unschedulable,
        node.spec.taints,
        node.status.allocatable,
        nu.requested,
        nu.pods.len(),
        nu.host_ports
    );
    k
}

/// What the Filter reads of a pending pod, as one string: pods with the same key get the
/// same verdict on every node. `None` for a pod bound to a node (the Filter leaves the
/// pod itself out of its counts, so its id matters).
fn pod_key(snap: &Snapshot, usage: &Usage, pod_id: ObjectId, pod: &Pod) -> Option<String> {
    if pod.spec.node_name.as_deref().is_some_and(|n| !n.is_empty()) {
        return None;
    }
    let spec = &pod.spec;
    let ns = snap.object(pod_id).namespace.as_deref().unwrap_or("");
    let affinity = spec.affinity.get();
    let spread = spec.topology_spread_constraints.get();
    let mut k = String::new();
    let _ = write!(
        k,
        "{ns}\0{:?}\0{:?}\0{:?}\0{:?}\0{:?}\0{:?}\0{:?}",
        crate::kube::requests::pod_units(spec),
        crate::kube::placement::claim_names(spec),
        spec.node_selector,
        affinity,
        spec.tolerations,
        spread,
        crate::kube::placement::host_ports(spec),
    );
    // Labels are read by the pod's own spread and inter-pod terms, and by the
    // anti-affinity of pods already bound.
    if !spread.is_empty() || affinity.is_some() || usage.anti_for(ns).next().is_some() {
        let _ = write!(k, "\0{:?}", pod.metadata.labels);
    }
    Some(k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{InputArg, load};
    use serde_json::{Value, json};

    fn node(i: usize, cpu: &str, zone: &str, tainted: bool) -> Value {
        json!({"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": format!("n{i:02}"), "uid": format!("00000000-0000-4000-8000-{i:012}"),
                "labels": {"kubernetes.io/hostname": format!("n{i:02}"), "zone": zone}},
            "spec": if tainted { json!({"taints": [{"key": "gpu", "effect": "NoSchedule"}]}) } else { json!({}) },
            "status": {"allocatable": {"cpu": cpu, "memory": "8Gi", "pods": "3"}}})
    }

    fn pod(name: &str, cpu: &str, node: Option<&str>, spec: Value) -> Value {
        let mut p = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "ns", "uid": format!("11111111-0000-4000-8000-{:0>12}", name.len() * 1000 + name.bytes().map(usize::from).sum::<usize>()),
                "labels": {"app": "web"}},
            "spec": {"containers": [{"name": "c", "image": "i", "resources": {"requests": {"cpu": cpu}}}]},
            "status": {"phase": if node.is_some() { "Running" } else { "Pending" }}});
        if let Some(n) = node {
            p["spec"]["nodeName"] = json!(n);
        }
        for (k, v) in spec.as_object().unwrap() {
            p["spec"][k] = v.clone();
        }
        p
    }

    fn snapshot(items: Vec<Value>, tag: &str) -> Snapshot {
        let dir = std::env::temp_dir().join(format!("kdiag-placer-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let list = json!({"apiVersion": "v1", "kind": "List", "items": items});
        std::fs::write(dir.join("objects.json"), list.to_string()).unwrap();
        let snap = Snapshot::build(load(&[InputArg::Path(dir.clone())]).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
        snap
    }

    /// Every node's verdict through the classes is the verdict of that node evaluated on
    /// its own, for pods whose constraints read labels, names, taints and room.
    #[test]
    fn a_class_verdict_is_each_nodes_own() {
        let mut items: Vec<Value> = (0..12)
            .map(|i| node(i, ["2", "4", "8"][i % 3], ["a", "b"][i % 2], i % 4 == 3))
            .collect();
        items.push(pod("bound-1", "1500m", Some("n01"), json!({})));
        items.push(pod("bound-2", "1", Some("n04"), json!({"affinity": {"podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {"matchLabels": {"app": "web"}},
                "topologyKey": "kubernetes.io/hostname"}]}}})));
        let asks = [
            json!({}),
            json!({"nodeSelector": {"zone": "b"}}),
            json!({"tolerations": [{"key": "gpu", "operator": "Exists"}]}),
            json!({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n05", "n06"]}]}]}}}}),
            json!({"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone",
                "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "web"}}}]}),
            json!({"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "zone"}]}}}),
        ];
        for (i, ask) in asks.iter().enumerate() {
            for cpu in ["1", "3"] {
                items.push(pod(&format!("p{i}-{cpu}"), cpu, None, ask.clone()));
            }
        }
        let snap = snapshot(items, "verdicts");
        let usage = Usage::build(&snap);
        let placer = Placer::new(&snap, &usage);
        let mut pending = 0;
        for (id, p) in snap
            .pods()
            .iter()
            .filter(|(_, p)| p.spec.node_name.is_none())
        {
            pending += 1;
            let fits = placer.evaluate(*id, p);
            let filter = PodFilter::new(&snap, &usage, *id, p);
            assert_eq!(fits.len(), 12);
            for (f, (nid, n)) in fits.nodes().iter().zip(snap.nodes()) {
                let own = filter.verdict(n, usage.of(&n.metadata.name));
                assert_eq!(f.id, *nid);
                assert_eq!(
                    format!("{:?} {:?}", f.verdict.exclusions, f.verdict.free),
                    format!("{:?} {:?}", own.exclusions, own.free),
                    "pod {} on node {}",
                    snap.object(*id).name,
                    f.name
                );
            }
        }
        assert_eq!(pending, 12);
    }

    /// The class-level views are what a pass over every node would give: per category
    /// the count, the first names and the first node; the nodes that fit; per class the
    /// node with the smallest name.
    #[test]
    fn class_views_match_a_pass_over_the_nodes() {
        // Names out of node order, so "first" and "smallest name" differ.
        let mut items: Vec<Value> = (0..23)
            .map(|i| {
                let mut n = node(i, ["2", "4", "8"][i % 3], ["a", "b"][i % 2], i % 5 == 4);
                n["metadata"]["name"] = json!(format!("n{:02}", (i * 7) % 23));
                n["metadata"]["creationTimestamp"] =
                    json!(format!("2026-01-01T00:00:{:02}Z", (i * 5) % 23));
                n
            })
            .collect();
        items.push(pod("bound-1", "1500m", Some("n01"), json!({})));
        for (i, cpu) in ["1", "3", "5", "9"].iter().enumerate() {
            items.push(pod(&format!("p{i}"), cpu, None, json!({})));
            items.push(pod(
                &format!("z{i}"),
                cpu,
                None,
                json!({"nodeSelector": {"zone": "b"}}),
            ));
        }
        let snap = snapshot(items, "views");
        let usage = Usage::build(&snap);
        let placer = Placer::new(&snap, &usage);
        for (id, p) in snap
            .pods()
            .iter()
            .filter(|(_, p)| p.spec.node_name.is_none())
        {
            let fits = placer.evaluate(*id, p);
            let all = fits.nodes();
            let mut by_cat: BTreeMap<&str, Vec<&NodeFit>> = BTreeMap::new();
            for f in all {
                if let Some(c) = f.verdict.category.as_deref() {
                    by_cat.entry(c).or_default().push(f);
                }
            }
            let groups = fits.by_category();
            assert_eq!(
                groups.keys().collect::<Vec<_>>(),
                by_cat.keys().collect::<Vec<_>>()
            );
            for (cat, g) in &groups {
                let nodes = &by_cat[cat];
                let names: Vec<&str> = nodes.iter().take(Group::SHOWN).map(|f| f.name).collect();
                assert_eq!(
                    (g.n, &g.names, g.first.id),
                    (nodes.len(), &names, nodes[0].id)
                );
                assert_eq!(g.classes.iter().map(|(n, _)| n).sum::<usize>(), g.n);
            }
            let fitting: Vec<&NodeFit> = all.iter().filter(|f| f.fits()).collect();
            let names: Vec<&str> = fitting.iter().take(Group::SHOWN).map(|f| f.name).collect();
            let viewed = fits.fitting().map(|g| (g.n, g.names, g.first.id));
            assert_eq!(
                viewed,
                fitting.first().map(|f| (fitting.len(), names, f.id))
            );
            assert_eq!(fits.any_fits(), !fitting.is_empty());
            let t0 = crate::kube::time::parse_timestamp("2026-01-01T00:00:10Z").unwrap();
            let newer: Vec<(&str, i64)> = fitting
                .iter()
                .map(|f| {
                    let c = f.node.metadata.creation_timestamp.as_deref().unwrap();
                    (f.name, crate::kube::time::parse_timestamp(c).unwrap())
                })
                .filter(|(_, c)| *c > t0)
                .collect();
            assert_eq!(fits.fitting_created_after(t0), newer);
            for least in fits.least_named(|_| true) {
                let smallest = all
                    .iter()
                    .filter(|f| f.class == least.class)
                    .map(|f| f.name)
                    .min()
                    .unwrap();
                assert_eq!(least.name, smallest);
            }
        }
    }

    /// Pods that ask alike are evaluated once, and nodes that are alike once per pod: 30
    /// pods of one template and 30 that each ask a different cpu over 40 nodes of 4 kinds
    /// cost 31 × 4 verdicts, not 60 × 40.
    #[test]
    fn alike_pods_and_nodes_are_evaluated_once() {
        let mut items: Vec<Value> = (0..40)
            .map(|i| node(i, ["2", "4", "8", "16"][i % 4], "a", false))
            .collect();
        for i in 0..30 {
            items.push(pod(&format!("same-{i}"), "32", None, json!({})));
            items.push(pod(
                &format!("own-{i}"),
                &format!("{}m", 20_000 + i),
                None,
                json!({}),
            ));
        }
        let snap = snapshot(items, "memo");
        let usage = Usage::build(&snap);
        let placer = Placer::new(&snap, &usage);
        for (id, p) in snap.pods() {
            let fits = placer.evaluate(*id, p);
            assert_eq!(fits.len(), 40);
            assert!(
                fits.nodes()
                    .iter()
                    .all(|f| f.verdict.category.as_deref() == Some("insufficient"))
            );
        }
        assert_eq!(placer.computed.get(), 31 * 4);
    }

    /// Pods said to come keep an answer only until the last of them that asks the same:
    /// the same verdicts and the same count of them as without, and none held at the end.
    #[test]
    fn an_answer_is_let_go_after_its_last_expected_pod() {
        let mut items: Vec<Value> = (0..8)
            .map(|i| node(i, ["2", "4"][i % 2], "a", false))
            .collect();
        for i in 0..6 {
            items.push(pod(&format!("same-{i}"), "3", None, json!({})));
            items.push(pod(
                &format!("own-{i}"),
                &format!("{}m", 1_000 + i),
                None,
                json!({}),
            ));
        }
        let snap = snapshot(items, "expect");
        let usage = Usage::build(&snap);
        let kept = Placer::new(&snap, &usage);
        let planned = Placer::new(&snap, &usage);
        planned.expect(snap.pods().iter().map(|(id, p)| (*id, &**p)));
        for (id, p) in snap.pods() {
            let words = |f: &Fits| {
                f.nodes()
                    .iter()
                    .map(|n| (n.verdict.category.clone(), n.verdict.exclusions.len()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                words(&kept.evaluate(*id, p)),
                words(&planned.evaluate(*id, p))
            );
        }
        assert_eq!(kept.computed.get(), 7 * 2);
        assert_eq!(planned.computed.get(), 7 * 2);
        assert_eq!(kept.answers.borrow().len(), 7);
        assert!(planned.answers.borrow().is_empty());
        assert!(planned.left.borrow().is_empty());
        // A pod asked for again past its last expected ask is evaluated again, not missed.
        let (id, p) = &snap.pods()[0];
        assert_eq!(planned.evaluate(*id, p).len(), 8);
        assert_eq!(planned.computed.get(), 7 * 2 + 2);
    }
}

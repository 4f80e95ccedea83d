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
use std::ops::Deref;
use std::rc::Rc;

/// Nodes split into classes for one set of consulted labels.
pub struct Partition {
    /// Per node (in `snap.nodes()` order), its class.
    class_of: Vec<u32>,
    /// Per class, its first node.
    first: Vec<usize>,
}

/// Every node's verdict for one pod; derefs to the nodes' [`NodeFit`]s in
/// `snap.nodes()` order.
pub struct Fits<'a> {
    nodes: Vec<NodeFit<'a>>,
    /// How many classes the verdicts came from (`NodeFit::class` is below it).
    classes: usize,
    partition: Rc<Partition>,
}

impl<'a> Fits<'a> {
    /// Which partition of the nodes the classes are of: pods with the same partition and
    /// the same verdict per class get the same verdict on every node.
    pub fn partition_id(&self) -> usize {
        Rc::as_ptr(&self.partition) as usize
    }

    /// The nodes grouped by their first exclusion's category (nodes that fit are in no
    /// group), categories in order, nodes in `snap.nodes()` order: one lookup per class,
    /// not a category's words per node.
    pub fn by_category(&self) -> BTreeMap<&str, Vec<&NodeFit<'a>>> {
        const UNSEEN: usize = usize::MAX;
        const FITS: usize = usize::MAX - 1;
        let mut slot_of = vec![UNSEEN; self.classes];
        let mut slots: BTreeMap<&str, usize> = BTreeMap::new();
        let mut lists: Vec<Vec<&NodeFit<'a>>> = Vec::new();
        for f in &self.nodes {
            let c = f.class as usize;
            if slot_of[c] == UNSEEN {
                slot_of[c] = match f.verdict.category.as_deref() {
                    None => FITS,
                    Some(cat) => *slots.entry(cat).or_insert_with(|| {
                        lists.push(Vec::new());
                        lists.len() - 1
                    }),
                };
            }
            if slot_of[c] != FITS {
                lists[slot_of[c]].push(f);
            }
        }
        slots
            .into_iter()
            .map(|(cat, slot)| (cat, std::mem::take(&mut lists[slot])))
            .collect()
    }
}

impl<'a> Deref for Fits<'a> {
    type Target = [NodeFit<'a>];
    fn deref(&self) -> &[NodeFit<'a>] {
        &self.nodes
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
    partitions: RefCell<HashMap<Consulted, Rc<Partition>>>,
    /// Per pod key: the partition and each class's verdict.
    answers: RefCell<HashMap<String, Answer>>,
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
        Placer {
            snap,
            usage,
            usages,
            base,
            unread,
            partitions: RefCell::new(HashMap::new()),
            answers: RefCell::new(HashMap::new()),
            computed: std::cell::Cell::new(0),
        }
    }

    /// Every node's verdict for `pod`, in `snap.nodes()` order.
    pub fn evaluate(&self, pod_id: ObjectId, pod: &Pod) -> Fits<'a> {
        let key = pod_key(self.snap, self.usage, pod_id, pod);
        let known = key
            .as_ref()
            .and_then(|k| self.answers.borrow().get(k).cloned());
        let (partition, verdicts) = match known {
            Some(a) => a,
            None => {
                let filter = PodFilter::new(self.snap, self.usage, pod_id, pod);
                let partition = self.partition(filter.consulted());
                let nodes = self.snap.nodes();
                self.computed
                    .set(self.computed.get() + partition.first.len());
                let verdicts: Rc<[Rc<Verdict>]> = partition
                    .first
                    .iter()
                    .map(|&i| Rc::new(filter.verdict(&nodes[i].1, self.usages[i])))
                    .collect();
                if let Some(k) = key {
                    self.answers
                        .borrow_mut()
                        .insert(k, (Rc::clone(&partition), Rc::clone(&verdicts)));
                }
                (partition, verdicts)
            }
        };
        let nodes = self
            .snap
            .nodes()
            .iter()
            .enumerate()
            .map(|(i, (nid, node))| {
                let class = partition.class_of[i];
                NodeFit {
                    id: *nid,
                    name: node.metadata.name.as_str(),
                    node,
                    class,
                    verdict: Rc::clone(&verdicts[class as usize]),
                    usage: self.usages[i],
                    unread: self.unread[i],
                }
            })
            .collect();
        Fits {
            nodes,
            classes: verdicts.len(),
            partition,
        }
    }

    /// The nodes' classes for a pod that reads `consulted`, built once per such set.
    fn partition(&self, consulted: Consulted) -> Rc<Partition> {
        if let Some(p) = self.partitions.borrow().get(&consulted) {
            return Rc::clone(p);
        }
        let (keys, by_name) = &consulted;
        let mut ids: HashMap<(u32, Vec<Option<&str>>), u32> = HashMap::new();
        let mut class_of = Vec::with_capacity(self.base.len());
        let mut first = Vec::new();
        for (i, (_, node)) in self.snap.nodes().iter().enumerate() {
            let labels = &node.metadata.labels;
            let mut values: Vec<Option<&str>> = keys
                .iter()
                .map(|k| labels.get(k).map(|v| v.as_str()))
                .collect();
            if *by_name {
                values.push(Some(node.metadata.name.as_str()));
            }
            let next = first.len() as u32;
            let class = *ids.entry((self.base[i], values)).or_insert(next);
            if class == next {
                first.push(i);
            }
            class_of.push(class);
        }
        let p = Rc::new(Partition { class_of, first });
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
            for (f, (nid, n)) in fits.iter().zip(snap.nodes()) {
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
                fits.iter()
                    .all(|f| f.verdict.category.as_deref() == Some("insufficient"))
            );
        }
        assert_eq!(placer.computed.get(), 31 * 4);
    }
}

//! The Kueue model the rules and `kdiag why` share: a podset's quota usage, flavor
//! matching, the quota tree (ClusterQueues and Cohorts) and the links between Jobs,
//! Workloads and pods. Formulas follow kubernetes-semantics.md §1.12–1.14.

use crate::kube::kueue::{
    ADMISSION_GATE, ClusterQueue, Cohort, QUEUE_NAME_LABEL, ResourceFlavor, ResourceGroup, Workload,
};
use crate::kube::meta::{ObjectMeta, ResourceList, null_default, null_vec};
use crate::kube::placement::{NodeSelectorRequirement, required_node_terms, untolerated};
use crate::kube::pod::{PodSpec, Toleration};
use crate::kube::requests::{Counter, display_units, in_units, requests_counted, scheduler_units};
use crate::snapshot::{ObjectId, Snapshot};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// An amount in Kueue's internal unit: millicores for `cpu`, whole units otherwise (the
/// scheduler's units: [`scheduler_units`], shown by [`display_units`]).
pub type Units = i128;

/// `3 cpu`, `2 pods`, `8 nvidia.com/gpu`, `12Gi memory`.
pub fn show_with(resource: &str, u: Units) -> String {
    format!("{} {resource}", display_units(resource, u))
}

// ---------------------------------------------------------------- podset usage

/// Namespace LimitRange defaults Kueue applies before computing requests.
#[derive(Clone, Debug, Default)]
pub struct LimitDefaults {
    pub default_limits: ResourceList,
    pub default_requests: ResourceList,
    /// Names of the LimitRanges that contributed (for the evidence).
    pub sources: Vec<ObjectId>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct LimitRangeView {
    metadata: ObjectMeta,
    spec: LimitRangeSpec,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct LimitRangeSpec {
    #[serde(deserialize_with = "null_vec")]
    limits: Vec<LimitRangeItem>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct LimitRangeItem {
    #[serde(rename = "type")]
    type_: String,
    #[serde(deserialize_with = "null_default")]
    default: ResourceList,
    #[serde(deserialize_with = "null_default")]
    default_request: ResourceList,
}

/// The container defaults of every LimitRange, per namespace.
pub fn limit_defaults(snap: &Snapshot) -> HashMap<String, LimitDefaults> {
    let mut out: HashMap<String, LimitDefaults> = HashMap::new();
    if !snap.has_kind("LimitRange") {
        return out;
    }
    for (id, lr) in snap.deserialize_all::<LimitRangeView>("LimitRange") {
        let Some(ns) = lr.metadata.namespace.as_deref().map(String::from) else {
            continue;
        };
        let d = out.entry(ns).or_default();
        let mut used = false;
        for item in lr.spec.limits.iter().filter(|i| i.type_ == "Container") {
            for (k, v) in &item.default {
                if !d.default_limits.contains_key(k) {
                    used = true;
                    d.default_limits.insert(k.clone(), v.clone());
                }
            }
            for (k, v) in &item.default_request {
                if !d.default_requests.contains_key(k) {
                    used = true;
                    d.default_requests.insert(k.clone(), v.clone());
                }
            }
        }
        if used {
            d.sources.push(id);
        }
    }
    out
}

/// The effective per-pod request of a podset's template as Kueue counts it
/// ([`Counter::Kueue`]: the scheduler's `PodRequests` with the namespace's LimitRange
/// defaults standing in), in Kueue units; zero and negative amounts are dropped.
pub fn pod_requests(spec: &PodSpec, d: &LimitDefaults) -> BTreeMap<String, Units> {
    let counter = Counter::Kueue {
        default_requests: &d.default_requests,
        default_limits: &d.default_limits,
    };
    let mut units = in_units(requests_counted(spec, counter));
    units.retain(|_, u| *u > 0);
    units
}

// ---------------------------------------------------------------- flavor matching

/// The tolerations a podset's pods have on a flavor's nodes: their own and the flavor's.
pub fn flavor_tolerations(rf: &ResourceFlavor, pod_tolerations: &[Toleration]) -> Vec<Toleration> {
    pod_tolerations
        .iter()
        .chain(&rf.spec.tolerations)
        .cloned()
        .collect()
}

/// Why a flavor cannot hold a podset (admission-time matching, §1.14), or `None`.
pub fn flavor_mismatch(rf: &ResourceFlavor, spec: &PodSpec) -> Option<String> {
    let tolerations = flavor_tolerations(rf, &spec.tolerations);
    if let Some(taint) = untolerated(&tolerations, &rf.spec.node_taints) {
        return Some(format!(
            "untolerated taint {}{}:{} in flavor {}",
            taint.key,
            taint
                .value
                .as_deref()
                .map(|v| format!("={v}"))
                .unwrap_or_default(),
            taint.effect,
            rf.metadata.name
        ));
    }
    let labels = &rf.spec.node_labels;
    for (k, v) in &spec.node_selector {
        if let Some(fv) = labels.get(k.as_str())
            && fv != v
        {
            return Some(format!(
                "flavor {} doesn't match node affinity (nodeSelector {k}={v}, flavor has {k}={fv})",
                rf.metadata.name
            ));
        }
    }
    if let Some(terms) = required_node_terms(spec.affinity.get().as_ref()) {
        let mut any = false;
        let mut last_failed = String::new();
        for term in &terms {
            let relevant: Vec<&NodeSelectorRequirement> = term
                .match_expressions
                .iter()
                .filter(|r| labels.contains_key(&r.key))
                .collect();
            match relevant
                .iter()
                .find(|r| !r.matches(labels.get(&r.key).map(String::as_str)))
            {
                None => {
                    any = true;
                    break;
                }
                Some(r) => last_failed = r.describe(),
            }
        }
        if !terms.is_empty() && !any {
            return Some(format!(
                "flavor {} doesn't match node affinity ({last_failed})",
                rf.metadata.name
            ));
        }
    }
    None
}

// ---------------------------------------------------------------- quota tree

/// A (flavor, resource) pair.
pub type FlavorResource = (String, String);

/// One node's quota for a (flavor, resource).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub nominal: Units,
    pub borrowing: Option<Units>,
    pub lending: Option<Units>,
}

/// Node of the quota tree: a ClusterQueue or a Cohort.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Node {
    Cq(String),
    Cohort(String),
}

#[derive(Clone, Debug, Default)]
struct TreeNode {
    parent: Option<String>,
    quotas: HashMap<FlavorResource, Limits>,
    subtree: HashMap<FlavorResource, Units>,
    usage: HashMap<FlavorResource, Units>,
    children: Vec<Node>,
}

/// ClusterQueues and Cohorts with their quotas and current reservations (§1.13).
#[derive(Debug, Default)]
pub struct QuotaTree {
    nodes: HashMap<Node, TreeNode>,
    /// Cohorts that are part of a parent cycle (Kueue disables their members).
    pub cycles: BTreeSet<String>,
    /// ClusterQueues whose usage came from their Workloads because the status had none.
    pub recomputed_usage: BTreeSet<String>,
    /// (ClusterQueue, flavor and resource) → a quota or reservation of it that does not
    /// read, in words: the arithmetic above counts it as nothing, so a verdict on that
    /// flavor and resource in its cohort is not made (see [`QuotaTree::unread_quotas`]).
    pub unread: BTreeMap<(String, FlavorResource), Vec<String>>,
}

fn quotas_of(groups: &[ResourceGroup]) -> HashMap<FlavorResource, Limits> {
    let mut out = HashMap::new();
    for g in groups {
        for f in &g.flavors {
            for r in &f.resources {
                let u = |q: &Option<crate::kube::meta::Qty>| {
                    q.as_ref()
                        .and_then(|q| q.value)
                        .map(|v| scheduler_units(&r.name, v))
                };
                out.insert(
                    (f.name.clone(), r.name.clone()),
                    Limits {
                        nominal: u(&r.nominal_quota).unwrap_or(0),
                        borrowing: u(&r.borrowing_limit),
                        lending: u(&r.lending_limit),
                    },
                );
            }
        }
    }
    out
}

/// Reserved quota per ClusterQueue as the Workloads say: Σ `resourceUsage` of the
/// Workloads holding a reservation (QuotaReserved=True, not finished).
pub fn reserved_by_workloads(snap: &Snapshot) -> HashMap<String, HashMap<FlavorResource, Units>> {
    let mut out: HashMap<String, HashMap<FlavorResource, Units>> = HashMap::new();
    for (_, w) in snap.workloads() {
        for (fr, u) in holdings(w) {
            let cq = w
                .status
                .admission
                .as_ref()
                .map(|a| a.cluster_queue.clone())
                .unwrap_or_default();
            *out.entry(cq).or_default().entry(fr).or_default() += u;
        }
    }
    out
}

/// What one Workload holds: (flavor, resource) → amount, empty when it holds nothing.
pub fn holdings(w: &Workload) -> Vec<(FlavorResource, Units)> {
    if !w.has_quota_reserved() || w.is_finished() {
        return Vec::new();
    }
    let Some(adm) = &w.status.admission else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for psa in &adm.pod_set_assignments {
        for (res, flavor) in &psa.flavors {
            let amount = psa
                .resource_usage
                .get(res)
                .and_then(|q| q.value)
                .map(|q| scheduler_units(res, q))
                .or_else(|| (res == "pods").then_some(psa.count.unwrap_or(0) as i128))
                .unwrap_or(0);
            if amount > 0 {
                out.push(((flavor.clone(), res.clone()), amount));
            }
        }
    }
    out
}

impl QuotaTree {
    pub fn build(snap: &Snapshot) -> QuotaTree {
        let cqs: Vec<&ClusterQueue> = snap.cluster_queues().iter().map(|(_, c)| c).collect();
        let cohorts: Vec<&Cohort> = snap.cohorts().iter().map(|(_, c)| c).collect();
        QuotaTree::from_objects(&cqs, &cohorts, &reserved_by_workloads(snap))
    }

    /// The tree of these ClusterQueues and Cohorts; a ClusterQueue without
    /// `status.flavorsReservation` takes its usage from `by_workloads`.
    pub fn from_objects(
        cqs: &[&ClusterQueue],
        cohorts: &[&Cohort],
        by_workloads: &HashMap<String, HashMap<FlavorResource, Units>>,
    ) -> QuotaTree {
        let mut t = QuotaTree::default();
        let cohort_objs: HashMap<&str, &Cohort> = cohorts
            .iter()
            .map(|c| (c.metadata.name.as_str(), *c))
            .collect();
        for cq in cqs {
            let name = cq.metadata.name.to_string();
            let mut usage: HashMap<FlavorResource, Units> = HashMap::new();
            for f in &cq.status.flavors_reservation {
                for r in &f.resources {
                    if let Some(q) = r.total.as_ref().and_then(|q| q.value) {
                        usage.insert(
                            (f.name.clone(), r.name.clone()),
                            scheduler_units(&r.name, q),
                        );
                    }
                }
            }
            if cq.status.flavors_reservation.is_empty()
                && let Some(w) = by_workloads.get(&name)
            {
                usage = w.clone();
                t.recomputed_usage.insert(name.clone());
            }
            for (fr, words) in cq.unread_quotas() {
                t.unread.entry((name.clone(), fr)).or_default().push(words);
            }
            t.nodes.insert(
                Node::Cq(name),
                TreeNode {
                    parent: cq.cohort().map(str::to_string),
                    quotas: quotas_of(&cq.spec.resource_groups),
                    usage,
                    ..Default::default()
                },
            );
        }
        // Cohorts: every one named by a ClusterQueue, a Cohort object or a parent.
        let mut pending: Vec<String> = t
            .nodes
            .values()
            .filter_map(|n| n.parent.clone())
            .chain(cohort_objs.keys().map(|k| k.to_string()))
            .collect();
        while let Some(name) = pending.pop() {
            if t.nodes.contains_key(&Node::Cohort(name.clone())) {
                continue;
            }
            let obj = cohort_objs.get(name.as_str());
            let parent = obj.and_then(|c| c.parent()).map(str::to_string);
            if let Some(p) = &parent {
                pending.push(p.clone());
            }
            t.nodes.insert(
                Node::Cohort(name),
                TreeNode {
                    parent,
                    quotas: obj
                        .map(|c| quotas_of(&c.spec.resource_groups))
                        .unwrap_or_default(),
                    ..Default::default()
                },
            );
        }
        // Cycles: a cohort that reaches itself through parents.
        let cohorts: Vec<String> = t
            .nodes
            .keys()
            .filter_map(|n| match n {
                Node::Cohort(c) => Some(c.clone()),
                Node::Cq(_) => None,
            })
            .collect();
        for c in &cohorts {
            let mut seen = HashSet::new();
            let mut cur = Some(c.clone());
            while let Some(x) = cur {
                if !seen.insert(x.clone()) {
                    if &x == c {
                        t.cycles.insert(c.clone());
                    }
                    break;
                }
                cur = t.nodes.get(&Node::Cohort(x)).and_then(|n| n.parent.clone());
            }
        }
        let cyclic = t.cycles.clone();
        for c in &cyclic {
            if let Some(n) = t.nodes.get_mut(&Node::Cohort(c.clone())) {
                n.parent = None;
            }
        }
        // Children lists.
        let links: Vec<(Node, String)> = t
            .nodes
            .iter()
            .filter_map(|(k, n)| n.parent.clone().map(|p| (k.clone(), p)))
            .collect();
        for (child, parent) in links {
            if let Some(p) = t.nodes.get_mut(&Node::Cohort(parent)) {
                p.children.push(child);
            }
        }
        for n in t.nodes.values_mut() {
            n.children.sort();
        }
        // Subtree quota and usage, bottom-up from every root.
        let roots: Vec<Node> = t
            .nodes
            .iter()
            .filter(|(_, n)| n.parent.is_none())
            .map(|(k, _)| k.clone())
            .collect();
        for r in roots {
            t.accumulate(&r, 0);
        }
        t
    }

    fn accumulate(&mut self, node: &Node, depth: usize) {
        if depth > 64 {
            return;
        }
        let children = self
            .nodes
            .get(node)
            .map(|n| n.children.clone())
            .unwrap_or_default();
        let mut subtree: HashMap<FlavorResource, Units> = self
            .nodes
            .get(node)
            .map(|n| {
                n.quotas
                    .iter()
                    .map(|(k, l)| (k.clone(), l.nominal))
                    .collect()
            })
            .unwrap_or_default();
        let mut usage: HashMap<FlavorResource, Units> = match node {
            Node::Cq(_) => self
                .nodes
                .get(node)
                .map(|n| n.usage.clone())
                .unwrap_or_default(),
            Node::Cohort(_) => HashMap::new(),
        };
        for child in &children {
            self.accumulate(child, depth + 1);
            let Some(c) = self.nodes.get(child) else {
                continue;
            };
            for (fr, q) in &c.subtree {
                *subtree.entry(fr.clone()).or_default() += q - local_quota(c, fr);
            }
            for (fr, u) in &c.usage {
                *usage.entry(fr.clone()).or_default() += (u - local_quota(c, fr)).max(0);
            }
        }
        if let Some(n) = self.nodes.get_mut(node) {
            n.subtree = subtree;
            n.usage = usage;
        }
    }

    fn parent_of(&self, node: &Node) -> Option<Node> {
        self.nodes
            .get(node)
            .and_then(|n| n.parent.clone())
            .map(Node::Cohort)
            .filter(|p| self.nodes.contains_key(p))
    }

    /// Unused quota now (`available`, may be negative on over-admission).
    pub fn available(&self, node: &Node, fr: &FlavorResource) -> Units {
        self.available_at(node, fr, 0)
    }

    fn available_at(&self, node: &Node, fr: &FlavorResource, depth: usize) -> Units {
        let Some(n) = self.nodes.get(node) else {
            return 0;
        };
        let sub = n.subtree.get(fr).copied().unwrap_or(0);
        let used = n.usage.get(fr).copied().unwrap_or(0);
        let Some(parent) = self.parent_of(node).filter(|_| depth < 64) else {
            return sub - used;
        };
        let mut parent_available = self.available_at(&parent, fr, depth + 1);
        let local = local_quota(n, fr);
        if let Some(b) = n.quotas.get(fr).and_then(|l| l.borrowing) {
            let stored = sub - local;
            let used_in_parent = (used - local).max(0);
            parent_available = parent_available.min(stored - used_in_parent + b);
        }
        (local - used).max(0) + parent_available
    }

    /// Maximum capacity with no usage (`potentialAvailable`).
    pub fn max_capacity(&self, node: &Node, fr: &FlavorResource) -> Units {
        self.max_capacity_at(node, fr, 0)
    }

    fn max_capacity_at(&self, node: &Node, fr: &FlavorResource, depth: usize) -> Units {
        let Some(n) = self.nodes.get(node) else {
            return 0;
        };
        let sub = n.subtree.get(fr).copied().unwrap_or(0);
        let Some(parent) = self.parent_of(node).filter(|_| depth < 64) else {
            return sub;
        };
        let mut avail = local_quota(n, fr) + self.max_capacity_at(&parent, fr, depth + 1);
        if let Some(b) = n.quotas.get(fr).and_then(|l| l.borrowing) {
            avail = avail.min(sub + b);
        }
        avail
    }

    /// The limits a node sets for a (flavor, resource).
    pub fn limits(&self, node: &Node, fr: &FlavorResource) -> Option<&Limits> {
        self.nodes.get(node).and_then(|n| n.quotas.get(fr))
    }

    /// Current usage counted at a node (for a cohort: what its children put there).
    pub fn usage(&self, node: &Node, fr: &FlavorResource) -> Units {
        self.nodes
            .get(node)
            .and_then(|n| n.usage.get(fr))
            .copied()
            .unwrap_or(0)
    }

    /// Subtree quota of a node (a cohort: own nominal plus what its children lend).
    pub fn subtree(&self, node: &Node, fr: &FlavorResource) -> Units {
        self.nodes
            .get(node)
            .and_then(|n| n.subtree.get(fr))
            .copied()
            .unwrap_or(0)
    }

    /// The chain of cohorts above a ClusterQueue, nearest first.
    pub fn ancestors(&self, cq: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = self.parent_of(&Node::Cq(cq.to_string()));
        while let Some(Node::Cohort(c)) = cur {
            if out.contains(&c) || out.len() > 64 {
                break;
            }
            out.push(c.clone());
            cur = self.parent_of(&Node::Cohort(c));
        }
        out
    }

    /// The quotas and reservations of `fr` that do not read in the quota tree `cq` draws
    /// on: its own, and those of every ClusterQueue under its top cohort (they lend and
    /// borrow). Empty when every one reads.
    pub fn unread_quotas(&self, cq: &str, fr: &FlavorResource) -> Vec<String> {
        if self.unread.is_empty() {
            return Vec::new();
        }
        let queues = match self.ancestors(cq).last() {
            Some(top) => self.members(top),
            None => vec![cq.to_owned()],
        };
        queues
            .into_iter()
            .filter_map(|q| self.unread.get(&(q, fr.clone())))
            .flatten()
            .cloned()
            .collect()
    }

    /// Every ClusterQueue below a cohort (all levels).
    pub fn members(&self, cohort: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![Node::Cohort(cohort.to_string())];
        let mut seen = HashSet::new();
        while let Some(n) = stack.pop() {
            if !seen.insert(n.clone()) {
                continue;
            }
            match &n {
                Node::Cq(c) => out.push(c.clone()),
                Node::Cohort(_) => {
                    if let Some(t) = self.nodes.get(&n) {
                        stack.extend(t.children.iter().cloned());
                    }
                }
            }
        }
        out.sort();
        out
    }
}

fn local_quota(n: &TreeNode, fr: &FlavorResource) -> Units {
    match n.quotas.get(fr).and_then(|l| l.lending) {
        Some(l) => (n.subtree.get(fr).copied().unwrap_or(0) - l).max(0),
        None => 0,
    }
}

/// Which resource group of a ClusterQueue covers a resource.
pub fn group_for<'a>(cq: &'a ClusterQueue, resource: &str) -> Option<(usize, &'a ResourceGroup)> {
    cq.spec
        .resource_groups
        .iter()
        .enumerate()
        .find(|(_, g)| g.covered_resources.iter().any(|r| r == resource))
}

/// Whether a ClusterQueue covers the `pods` resource.
pub fn covers_pods(cq: &ClusterQueue) -> bool {
    group_for(cq, "pods").is_some()
}

// ---------------------------------------------------------------- links

/// The Workloads of an owner (Job, Pod, JobSet …): owner references or the job-uid label.
pub fn workloads_of(snap: &Snapshot, owner_uid: &str) -> Vec<ObjectId> {
    let mut out: Vec<ObjectId> = snap
        .children_of(owner_uid)
        .iter()
        .copied()
        .filter(|id| snap.object(*id).kind == "Workload")
        .collect();
    for (id, w) in snap.workloads() {
        if w.job_uid() == Some(owner_uid) && !out.contains(id) {
            out.push(*id);
        }
    }
    out.sort();
    out
}

/// The owner a Workload was created for: its controller reference (else the job-uid
/// label), with the owner's id when it is in the bundle.
pub fn owner_of(
    snap: &Snapshot,
    id: ObjectId,
    w: &Workload,
) -> Option<(String, String, Option<ObjectId>)> {
    let refs = &w.metadata.owner_references;
    if let Some(o) = refs
        .iter()
        .find(|o| o.controller == Some(true))
        .or_else(|| refs.first())
    {
        let found = snap.by_uid(&o.uid).or_else(|| {
            let ns = snap.object(id).namespace.as_deref();
            snap.find_ref(&o.api_version, &o.kind, ns, &o.name)
        });
        return Some((o.kind.to_string(), o.name.to_string(), found));
    }
    let uid = w.job_uid()?;
    let found = snap.by_uid(uid)?;
    let o = snap.object(found);
    Some((o.kind.clone(), o.name.clone(), Some(found)))
}

/// Pods that belong to a Workload: pods it is owned by (plain-pod integration) and the
/// pods under its owner (Job → pods, JobSet → Jobs → pods).
pub fn pods_of(snap: &Snapshot, w: &Workload) -> Vec<ObjectId> {
    let mut out = Vec::new();
    let mut owner_uids: Vec<String> = w
        .metadata
        .owner_references
        .iter()
        .map(|o| o.uid.to_string())
        .collect();
    if let Some(u) = w.job_uid() {
        owner_uids.push(u.to_string());
    }
    for uid in owner_uids {
        let Some(oid) = snap.by_uid(&uid) else {
            continue;
        };
        if snap.object(oid).kind == "Pod" {
            out.push(oid);
            continue;
        }
        let mut stack = vec![(uid, 0)];
        while let Some((u, depth)) = stack.pop() {
            for &c in snap.children_of(&u) {
                let o = snap.object(c);
                if o.kind == "Pod" {
                    out.push(c);
                } else if depth < 2
                    && o.kind != "Workload"
                    && let Some(cu) = &o.uid
                {
                    stack.push((cu.clone(), depth + 1));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Whether a pod is held back by Kueue's admission gate.
pub fn kueue_gated(spec: &PodSpec) -> bool {
    spec.scheduling_gates
        .iter()
        .any(|g| g.name == ADMISSION_GATE || g.name.starts_with("kueue.x-k8s.io/"))
}

/// The queue-name label of an object's metadata.
pub fn queue_label(meta: &ObjectMeta) -> Option<&str> {
    meta.labels
        .get(QUEUE_NAME_LABEL)
        .map(|s| s.as_str())
        .filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn spec(v: Value) -> PodSpec {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn effective_requests_follow_pod_requests() {
        let s = spec(json!({
            "containers": [
                {"name": "a", "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}},
                {"name": "b", "resources": {"limits": {"cpu": "1", "nvidia.com/gpu": "1"}}}
            ],
            "initContainers": [
                {"name": "sidecar", "restartPolicy": "Always", "resources": {"requests": {"cpu": "250m"}}},
                {"name": "init", "resources": {"requests": {"cpu": "3"}}}
            ],
            "overhead": {"cpu": "100m"}
        }));
        let r = pod_requests(&s, &LimitDefaults::default());
        // app 1500m + sidecar 250m = 1750m; init needs 3000m + 250m = 3250m; + overhead.
        assert_eq!(r["cpu"], 3350);
        assert_eq!(r["memory"], 1 << 30);
        assert_eq!(r["nvidia.com/gpu"], 1);
        let pod_level = spec(json!({
            "containers": [{"name": "a", "resources": {"requests": {"cpu": "1", "nvidia.com/gpu": "2"}}}],
            "resources": {"requests": {"cpu": "4"}}
        }));
        let r = pod_requests(&pod_level, &LimitDefaults::default());
        assert_eq!(r["cpu"], 4000);
        assert_eq!(r["nvidia.com/gpu"], 2);
    }

    #[test]
    fn limit_range_defaults_fill_missing_requests() {
        let mut d = LimitDefaults::default();
        d.default_requests
            .insert("cpu", serde_json::from_value(json!("200m")).unwrap());
        let s = spec(json!({"containers": [{"name": "a"}]}));
        assert_eq!(pod_requests(&s, &d)["cpu"], 200);
    }

    #[test]
    fn flavor_matching() {
        let rf: ResourceFlavor = serde_json::from_value(json!({
            "metadata": {"name": "spot"},
            "spec": {"nodeLabels": {"instance-type": "spot"},
                     "nodeTaints": [{"key": "spot", "value": "true", "effect": "NoSchedule"}]}
        }))
        .unwrap();
        let plain = spec(json!({"containers": []}));
        assert!(
            flavor_mismatch(&rf, &plain)
                .unwrap()
                .starts_with("untolerated taint spot=true:NoSchedule")
        );
        let tolerant = spec(json!({"tolerations": [{"key": "spot", "operator": "Exists"}]}));
        assert_eq!(flavor_mismatch(&rf, &tolerant), None);
        let wrong = spec(
            json!({"tolerations": [{"operator": "Exists"}], "nodeSelector": {"instance-type": "on-demand", "other": "x"}}),
        );
        assert!(
            flavor_mismatch(&rf, &wrong)
                .unwrap()
                .contains("doesn't match node affinity")
        );
        let affinity = spec(
            json!({"tolerations": [{"operator": "Exists"}], "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "instance-type", "operator": "NotIn", "values": ["spot"]}]}
            ]}}}}),
        );
        assert!(flavor_mismatch(&rf, &affinity).is_some());
        let other_key = spec(
            json!({"tolerations": [{"operator": "Exists"}], "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}
            ]}}}}),
        );
        assert_eq!(
            flavor_mismatch(&rf, &other_key),
            None,
            "keys the flavor does not label are ignored"
        );
    }

    fn cq(v: Value) -> ClusterQueue {
        serde_json::from_value(v).unwrap()
    }

    fn tree(cqs: &[ClusterQueue], cohorts: &[Cohort]) -> QuotaTree {
        let cqs: Vec<&ClusterQueue> = cqs.iter().collect();
        let cohorts: Vec<&Cohort> = cohorts.iter().collect();
        QuotaTree::from_objects(&cqs, &cohorts, &HashMap::new())
    }

    fn quota_cq(
        name: &str,
        cohort: Option<&str>,
        nominal: &str,
        borrowing: Option<&str>,
        lending: Option<&str>,
        used: &str,
    ) -> ClusterQueue {
        let mut r = json!({"name": "cpu", "nominalQuota": nominal});
        if let Some(b) = borrowing {
            r["borrowingLimit"] = json!(b);
        }
        if let Some(l) = lending {
            r["lendingLimit"] = json!(l);
        }
        cq(json!({
            "metadata": {"name": name},
            "spec": {"cohort": cohort, "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [{"name": "f", "resources": [r]}]}]},
            "status": {"flavorsReservation": [{"name": "f", "resources": [{"name": "cpu", "total": used}]}]}
        }))
    }

    #[test]
    fn quota_math_without_cohort() {
        let t = tree(&[quota_cq("a", None, "2", None, None, "1")], &[]);
        let fr = ("f".to_string(), "cpu".to_string());
        assert_eq!(t.max_capacity(&Node::Cq("a".into()), &fr), 2000);
        assert_eq!(t.available(&Node::Cq("a".into()), &fr), 1000);
    }

    #[test]
    fn quota_math_with_cohort_and_limits() {
        let fr = ("f".to_string(), "cpu".to_string());
        // a: 2 nominal, no borrowing limit; b: 6 nominal, uses 1; cohort total 8.
        let t = tree(
            &[
                quota_cq("a", Some("k"), "2", None, None, "0"),
                quota_cq("b", Some("k"), "6", None, None, "1"),
            ],
            &[],
        );
        assert_eq!(t.max_capacity(&Node::Cq("a".into()), &fr), 8000);
        assert_eq!(t.available(&Node::Cq("a".into()), &fr), 7000);
        // With borrowingLimit 2 on a: at most 4.
        let t = tree(
            &[
                quota_cq("a", Some("k"), "2", Some("2"), None, "0"),
                quota_cq("b", Some("k"), "6", None, None, "1"),
            ],
            &[],
        );
        assert_eq!(t.max_capacity(&Node::Cq("a".into()), &fr), 4000);
        assert_eq!(t.available(&Node::Cq("a".into()), &fr), 4000);
        // b lends at most 1: a can reach 2 + 1.
        let t = tree(
            &[
                quota_cq("a", Some("k"), "2", None, None, "0"),
                quota_cq("b", Some("k"), "6", None, Some("1"), "1"),
            ],
            &[],
        );
        assert_eq!(t.max_capacity(&Node::Cq("a".into()), &fr), 3000);
        // b's usage of 1 stays inside its local 5: a still has 3 available.
        assert_eq!(t.available(&Node::Cq("a".into()), &fr), 3000);
        // A Cohort object with its own pool and a parent.
        let co: Cohort = serde_json::from_value(json!({
            "metadata": {"name": "k"},
            "spec": {"parentName": "root", "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [{"name": "f", "resources": [{"name": "cpu", "nominalQuota": "10"}]}]}]}
        }))
        .unwrap();
        let t = tree(&[quota_cq("a", Some("k"), "2", None, None, "0")], &[co]);
        assert_eq!(t.max_capacity(&Node::Cq("a".into()), &fr), 12000);
        assert_eq!(t.ancestors("a"), vec!["k".to_string(), "root".to_string()]);
    }

    #[test]
    fn cohort_cycles_are_found_without_hanging() {
        let a: Cohort =
            serde_json::from_value(json!({"metadata": {"name": "a"}, "spec": {"parentName": "b"}}))
                .unwrap();
        let b: Cohort =
            serde_json::from_value(json!({"metadata": {"name": "b"}, "spec": {"parentName": "a"}}))
                .unwrap();
        let t = tree(&[quota_cq("q", Some("a"), "2", None, None, "0")], &[a, b]);
        assert!(t.cycles.contains("a") && t.cycles.contains("b"));
        let fr = ("f".to_string(), "cpu".to_string());
        // Cut at the cycle: no endless recursion, a finite answer.
        assert!(t.max_capacity(&Node::Cq("q".into()), &fr) >= 2000);
    }
}

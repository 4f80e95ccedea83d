//! What the pods bound to each node hold (not a rule): their requests in scheduler units,
//! host ports and required anti-affinity terms, and their priorities. The scheduling
//! area's filter recomputation and the node area's kubelet admission check both count
//! against it; it is built once per rule that asks.

use crate::kube::placement::{AffinityTerm, affinity_terms, host_ports};
use crate::kube::pod::Pod;
use crate::kube::requests::{Units, UnreadRequest, pod_units, unread_requests};
use crate::snapshot::{ObjectId, Snapshot};
use foldhash::HashMap;
use std::collections::{BTreeMap, BTreeSet};

/// What the non-terminated pods bound to each node hold. Pods being deleted (a
/// deletionTimestamp, still Running) count, as the scheduler counts them until they are
/// gone, and are also listed as such; [`Usage::without_terminating`] leaves them out, to
/// tell what their leaving would free.
#[derive(Default)]
pub struct Usage {
    /// Built without the pods being deleted.
    skip_terminating: bool,
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
    /// The pods of `pods` being deleted (in id order): counted until they are gone.
    pub terminating: Vec<ObjectId>,
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
    /// What every non-terminated bound pod holds, as the scheduler counts it.
    pub fn build(snap: &Snapshot) -> Usage {
        Usage::build_with(snap, false)
    }

    /// The same without the pods being deleted: what the nodes hold once they are gone.
    pub fn without_terminating(snap: &Snapshot) -> Usage {
        Usage::build_with(snap, true)
    }

    /// Whether pod `p` occupies its node in this account.
    pub fn holds(&self, p: &Pod) -> bool {
        p.is_active() && !(self.skip_terminating && p.metadata.deletion_timestamp.is_some())
    }

    fn build_with(snap: &Snapshot, skip_terminating: bool) -> Usage {
        let mut u = Usage {
            skip_terminating,
            ..Usage::default()
        };
        for (id, p) in snap.pods() {
            let Some(node) = p.spec.node_name.as_deref().filter(|n| !n.is_empty()) else {
                continue;
            };
            if !u.holds(p) {
                continue;
            }
            let nu = u.nodes.entry(node.to_string()).or_default();
            for (k, v) in pod_units(&p.spec) {
                *nu.requested.entry(k).or_default() += v;
            }
            nu.pods.push(*id);
            if p.metadata.deletion_timestamp.is_some() {
                nu.terminating.push(*id);
            }
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
    pub fn anti_for(
        &self,
        ns: &str,
    ) -> impl Iterator<Item = &(ObjectId, String, Vec<AffinityTerm>)> {
        let local = self.anti_local.get(ns).map_or(&[][..], Vec::as_slice);
        let mut at: Vec<usize> = local.iter().chain(&self.anti_cross).copied().collect();
        at.sort_unstable();
        at.into_iter().map(|i| &self.anti[i])
    }

    pub fn of(&self, node: &str) -> &NodeUsage {
        self.nodes.get(node).unwrap_or(&self.empty)
    }
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

//! The quota arithmetic of a chain: which flavor of each resource group a podset gets
//! and what it is short of (the tries), which admitted Workloads hold that quota, and
//! the quota table of a ClusterQueue. Separate from the walk, which only reads the tries.

use super::{
    Chain, Ctx, FlavorTry, GroupTry, MAX_HOLDERS, PodSetNeed, PodSetTry, Try, resource_flavor,
};
use crate::kube::kueue::ClusterQueue;
use crate::kube::meta::Qty;
use crate::kube::requests::{display_units, scheduler_units, unread_requests};
use crate::rules::kueue::model::{
    self, FlavorResource, Node, Units, flavor_mismatch, group_for, pod_requests, show_with,
};
use crate::snapshot::ObjectId;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};

impl<'a> Chain<'a> {
    /// Adds a note once (each flavor's try may find the same gap).
    fn note(&mut self, note: String) {
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    pub(super) fn compute_tries(&mut self, ctx: &Ctx<'a>, cq: &ClusterQueue) {
        let snap = self.snap;
        let empty = model::LimitDefaults::default();
        let defaults = ctx.defaults.get(&self.namespace).unwrap_or(&empty);
        if !defaults.sources.is_empty() {
            self.notes.push(
                "container requests include the namespace's LimitRange defaults, as Kueue applies them".into(),
            );
        }
        let covers_pods = model::covers_pods(cq);
        let node = Node::Cq(cq.metadata.name.to_string());
        // Usage by earlier podsets of this Workload, per (flavor, resource).
        let mut used: HashMap<FlavorResource, Units> = HashMap::new();
        for ps in &self.wl.spec.pod_sets {
            let count = ps.count() as i128;
            let per_pod = pod_requests(&ps.template.spec, defaults);
            for u in unread_requests(&ps.template.spec) {
                self.note(format!(
                    "podSet {}: {}, so {} is left out of its quota check",
                    ps.name,
                    u.describe(),
                    u.resource
                ));
            }
            let mut total: BTreeMap<String, Units> = per_pod
                .iter()
                .map(|(k, v)| (k.clone(), v.saturating_mul(count)))
                .filter(|(_, v)| *v > 0)
                .collect();
            if covers_pods && count > 0 {
                total.insert("pods".into(), count);
            }
            let need = PodSetNeed {
                name: ps.name.clone(),
                count: ps.count(),
                per_pod,
                total: total.clone(),
            };
            let mut ptry = PodSetTry {
                podset: ps.name.clone(),
                uncovered: Vec::new(),
                groups: Vec::new(),
            };
            // Resources per resource group, in the group's order.
            let mut by_group: BTreeMap<usize, Vec<String>> = BTreeMap::new();
            for res in total.keys() {
                match group_for(cq, res) {
                    Some((gi, _)) => by_group.entry(gi).or_default().push(res.clone()),
                    None => ptry.uncovered.push(res.clone()),
                }
            }
            for (gi, resources) in by_group {
                let group = &cq.spec.resource_groups[gi];
                let mut tries = Vec::new();
                let mut chosen: Option<String> = None;
                for fq in &group.flavors {
                    let outcome = match resource_flavor(snap, &fq.name) {
                        None if snap.listed_whole("ResourceFlavor", None) => Try::Missing,
                        rf => match rf.and_then(|(_, rf)| flavor_mismatch(rf, &ps.template.spec)) {
                            Some(why) => Try::Mismatch(why),
                            None => {
                                let mut out = Try::Fits;
                                for res in &resources {
                                    let fr = (fq.name.clone(), res.clone());
                                    let unread = ctx.tree.unread_quotas(&cq.metadata.name, &fr);
                                    if !unread.is_empty() {
                                        self.note(format!(
                                            "{}, so {res} in flavor {} is left out of the quota check",
                                            unread.join("; "),
                                            fq.name
                                        ));
                                        continue;
                                    }
                                    let need = total[res] + used.get(&fr).copied().unwrap_or(0);
                                    let max = ctx.tree.max_capacity(&node, &fr);
                                    let free = ctx.tree.available(&node, &fr);
                                    if need > max {
                                        out = Try::Exceeds {
                                            resource: res.clone(),
                                            need,
                                            max,
                                        };
                                        break;
                                    }
                                    if need > free && !matches!(out, Try::Short { .. }) {
                                        out = Try::Short {
                                            resource: res.clone(),
                                            need,
                                            free,
                                        };
                                    }
                                }
                                out
                            }
                        },
                    };
                    let fits = matches!(outcome, Try::Fits);
                    let short = matches!(outcome, Try::Short { .. });
                    if chosen.is_none() && (fits || short) {
                        chosen = Some(fq.name.clone());
                    }
                    tries.push(FlavorTry {
                        flavor: fq.name.clone(),
                        outcome,
                    });
                    if fits {
                        chosen = Some(fq.name.clone());
                        break;
                    }
                }
                if let Some(f) = chosen {
                    for res in &resources {
                        *used.entry((f.clone(), res.clone())).or_default() += total[res];
                    }
                }
                ptry.groups.push(GroupTry { resources, tries });
            }
            self.needs.push(need);
            self.tries.push(ptry);
        }
        // Cross-check with Kueue's own per-podset totals (status.resourceRequests).
        for rr in &self.wl.status.resource_requests {
            let Some(need) = self.needs.iter().find(|n| n.name == rr.name) else {
                continue;
            };
            for (res, q) in &rr.resources {
                let Some(q) = q.value else { continue };
                let theirs = scheduler_units(res, q);
                let ours = need.total.get(res.as_str()).copied().unwrap_or(0);
                if theirs != ours {
                    self.notes.push(format!(
                        "Kueue recorded {} for podSet {} (status.resourceRequests) where the recomputation from the pod template gives {}",
                        show_with(res, theirs),
                        rr.name,
                        show_with(res, ours)
                    ));
                }
            }
        }
        if ctx
            .tree
            .recomputed_usage
            .contains(cq.metadata.name.as_str())
        {
            self.notes.push(format!(
                "ClusterQueue {} has no status.flavorsReservation; its usage is summed from the Workloads in the bundle",
                cq.metadata.name
            ));
        }
    }

    /// Admitted Workloads holding quota in the ClusterQueue (and its cohort when borrowing
    /// matters) for the resources this Workload is short of.
    pub(super) fn find_holders(&mut self, ctx: &Ctx, cq: &ClusterQueue) {
        let short: Vec<FlavorResource> = self
            .tries
            .iter()
            .flat_map(|t| t.groups.iter())
            .flat_map(|g| g.tries.iter())
            .filter_map(|t| match &t.outcome {
                Try::Short { resource, .. } => Some((t.flavor.clone(), resource.clone())),
                _ => None,
            })
            .collect();
        let mut queues = vec![cq.metadata.name.to_string()];
        if let Some(top) = ctx.tree.ancestors(&cq.metadata.name).last() {
            for m in ctx.tree.members(top) {
                if !queues.contains(&m) {
                    queues.push(m);
                }
            }
        }
        let lists: Vec<(&FlavorResource, &Vec<(ObjectId, Units)>)> = queues
            .iter()
            .flat_map(|q| {
                short.iter().filter_map(move |fr| {
                    ctx.holders_by_fr
                        .get(&(q.clone(), fr.clone()))
                        .map(|l| (fr, l))
                })
            })
            .collect();
        self.holders_total = if lists.len() == 1 {
            lists[0].1.iter().filter(|(id, _)| *id != self.id).count()
        } else {
            let ids: std::collections::HashSet<ObjectId> = lists
                .iter()
                .flat_map(|(_, l)| l.iter().map(|(id, _)| *id))
                .filter(|id| *id != self.id)
                .collect();
            ids.len()
        };
        for (fr, list) in lists {
            for (id, amount) in list
                .iter()
                .filter(|(id, _)| *id != self.id)
                .take(MAX_HOLDERS)
            {
                self.holders
                    .push((*id, fr.0.clone(), fr.1.clone(), *amount));
            }
        }
        // Largest first; the message, evidence and details keep the first few.
        self.holders
            .sort_by(|a, b| b.3.cmp(&a.3).then(a.0.cmp(&b.0)));
        self.holders.truncate(MAX_HOLDERS);
    }
}

/// The quota table of a ClusterQueue: flavor × resource with nominal, limits, reserved,
/// free now, maximum capacity, and what the chain's Workload needs there.
pub fn quota_table(ctx: &Ctx, cq: &ClusterQueue, chain: Option<&Chain>) -> Vec<Value> {
    let node = Node::Cq(cq.metadata.name.to_string());
    let mut rows = Vec::new();
    for g in &cq.spec.resource_groups {
        for f in &g.flavors {
            for r in &f.resources {
                let fr = (f.name.clone(), r.name.clone());
                let l = ctx.tree.limits(&node, &fr).cloned().unwrap_or_default();
                let needed = chain.and_then(|c| {
                    let mut sum = 0;
                    let mut any = false;
                    for t in &c.tries {
                        for gt in &t.groups {
                            if !gt.resources.contains(&r.name) {
                                continue;
                            }
                            let chosen = gt.fits().map(str::to_string).or_else(|| {
                                gt.tries
                                    .iter()
                                    .find(|x| !matches!(x.outcome, Try::Missing | Try::Mismatch(_)))
                                    .map(|x| x.flavor.clone())
                            });
                            if chosen.as_deref() == Some(f.name.as_str()) {
                                any = true;
                                sum += c
                                    .needs
                                    .iter()
                                    .find(|n| n.name == t.podset)
                                    .and_then(|n| n.total.get(&r.name))
                                    .copied()
                                    .unwrap_or(0);
                            }
                        }
                    }
                    any.then_some(sum)
                });
                // A quota that does not read is shown as written, and what is computed
                // from it is not shown.
                let unread = !ctx.tree.unread_quotas(&cq.metadata.name, &fr).is_empty();
                let limit = |q: &Option<Qty>, u: Option<Units>| match q {
                    Some(q) if q.value.is_none() => Some(q.unreadable()),
                    _ => u.map(|u| display_units(&r.name, u)),
                };
                let computed = |u: Units| (!unread).then(|| display_units(&r.name, u));
                rows.push(json!({
                    "cluster_queue": cq.metadata.name,
                    "flavor": f.name,
                    "resource": r.name,
                    "nominal": limit(&r.nominal_quota, Some(l.nominal)),
                    "borrowing_limit": limit(&r.borrowing_limit, l.borrowing),
                    "lending_limit": limit(&r.lending_limit, l.lending),
                    "reserved": computed(ctx.tree.usage(&node, &fr)),
                    "free": computed(ctx.tree.available(&node, &fr).max(0)),
                    "max_capacity": computed(ctx.tree.max_capacity(&node, &fr)),
                    "needed": needed.map(|n| display_units(&r.name, n)),
                }));
            }
        }
    }
    rows
}

//! `kueue/quota-backlog`: many Workloads wait for the same unused quota of one ClusterQueue.

use super::chain::{Chain, Ctx, Try, Verdict};
use crate::declare_rule;
use crate::kube::requests::display_units;
use crate::rules::common_cause::{self, SharedCause};
use crate::rules::evidence;
use crate::rules::reach::Reach;
use crate::rules::{Severity, Stage};
use std::collections::BTreeSet;

declare_rule! {
    /// Many Workloads wait for the same ClusterQueue's unused quota of the same resources in the same flavors.
    ///
    /// When `kueue/quota-in-use` recomputes, for the Workloads of ten or more controllers,
    /// the same shortfall — the same ClusterQueue, flavors and resources short of unused
    /// quota — that is one cause: this finding names the ClusterQueue, its nominal quota
    /// and what holds it, and lists the Workloads. The shortfall is recomputed from the
    /// quota and the reservations, not read from Kueue's messages, so messages naming
    /// different amounts still group. Workloads larger than the ClusterQueue could ever
    /// give are their own cause (`kueue/quota-exceeds-capacity`) and are not grouped. Each
    /// Workload keeps its own finding, linked to this one by `details.cause`.
    pub static QUOTA_BACKLOG = {
        id: "kueue/quota-backlog",
        stage: Stage::Queue,
        severity: Severity::Warning,
        fallback: false,
        // Wide: see `kueue_reach`.
        reach: Reach::Wide(super::kueue_reach),
        run: common_cause::gathered,
    };
}

/// The shortfall a Workload waiting for unused quota shares with others: its ClusterQueue
/// and each (flavor, resource) short of unused quota for the podset that stops it.
pub(super) fn shared_quota(chain: &Chain, ctx: &Ctx) -> Option<SharedCause> {
    let Verdict::Later { podset } = &chain.verdict else {
        return None;
    };
    let (cq_id, cq) = chain.cq?;
    let mut short: BTreeSet<(String, String)> = BTreeSet::new();
    for t in chain.tries.iter().filter(|t| &t.podset == podset) {
        for g in t.groups.iter().filter(|g| g.fits().is_none()) {
            for ft in &g.tries {
                if let Try::Short { resource, .. } = &ft.outcome {
                    short.insert((ft.flavor.clone(), resource.clone()));
                }
            }
        }
    }
    if short.is_empty() {
        return None;
    }
    let snap = chain.snap;
    let name = cq.metadata.name.as_str();
    let node = super::model::Node::Cq(name.to_string());
    let words: Vec<String> = short
        .iter()
        .map(|(f, r)| {
            let fr = (f.clone(), r.clone());
            let nominal = ctx.tree.limits(&node, &fr).map(|l| l.nominal).unwrap_or(0);
            let reserved = ctx.tree.usage(&node, &fr);
            format!(
                "{r} in flavor {f} ({} nominal, {} reserved)",
                display_units(r, nominal),
                display_units(r, reserved)
            )
        })
        .collect();
    let mut ev = vec![evidence::field(
        snap,
        cq_id,
        &["spec", "resourceGroups"],
        format!("ClusterQueue {name}: the quota they wait for"),
    )];
    let holders: BTreeSet<_> = chain.holders.iter().map(|(id, ..)| *id).collect();
    for id in holders.iter().take(3) {
        let o = snap.object(*id);
        ev.push(evidence::field(
            snap,
            *id,
            &["status", "admission"],
            format!(
                "admitted Workload {}/{} holds quota in {name}",
                o.namespace.as_deref().unwrap_or(""),
                o.name
            ),
        ));
    }
    let held = match chain.holders_total {
        0 => String::new(),
        1 => ", held by 1 admitted Workload".to_string(),
        n => format!(", held by {n} admitted Workloads"),
    };
    let key: Vec<String> = short.iter().map(|(f, r)| format!("{f}/{r}")).collect();
    Some(SharedCause {
        rule: &QUOTA_BACKLOG,
        key: format!("{name}:{}", key.join(",")),
        object: snap.object(cq_id).reference(),
        what: format!(
            "ClusterQueue {name} has no unused quota left for {}{held}",
            words.join("; ")
        ),
        evidence: ev,
        help: format!(
            "the Workloads are admitted in turn as the admitted ones finish; to admit more at once raise nominalQuota in {name}, let it borrow from a cohort, or lower the Workloads' requests"
        ),
    })
}

//! Rules of the `kueue` area, one file per rule; `RULES` registers them.
//!
//! Every Workload that Kueue has not admitted is followed along its chain (Workload →
//! LocalQueue → ClusterQueue → ResourceFlavor → Cohort, see [`chain`]); the first broken
//! link, or the quota arithmetic, decides which rule reports it, so each stuck Workload
//! gets one primary finding. [`model`] holds the shared arithmetic.

pub mod admission_checks;
pub mod admitted_pods_pending;
pub mod chain;
pub mod clusterqueue_unusable;
pub mod job_without_workload;
pub mod localqueue_unusable;
pub mod model;
pub mod namespace_not_selected;
pub mod no_matching_flavor;
pub mod quota_backlog;
pub mod quota_exceeds_capacity;
pub mod quota_in_use;
pub mod strict_fifo_blocked;
pub mod workload_evicted;
pub mod workload_pending;

use crate::rules::{Context, Finding, RuleMeta, Severity};
use crate::snapshot::Snapshot;
use chain::{Chain, Ctx};

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[
    &localqueue_unusable::LOCALQUEUE_UNUSABLE,
    &clusterqueue_unusable::CLUSTERQUEUE_UNUSABLE,
    &namespace_not_selected::NAMESPACE_NOT_SELECTED,
    &no_matching_flavor::NO_MATCHING_FLAVOR,
    &quota_exceeds_capacity::QUOTA_EXCEEDS_CAPACITY,
    &quota_in_use::QUOTA_IN_USE,
    &quota_backlog::QUOTA_BACKLOG,
    &admission_checks::ADMISSION_CHECKS,
    &strict_fifo_blocked::STRICT_FIFO_BLOCKED,
    &workload_pending::WORKLOAD_PENDING,
    &workload_evicted::WORKLOAD_EVICTED,
    &job_without_workload::JOB_WITHOUT_WORKLOAD,
    &admitted_pods_pending::ADMITTED_PODS_PENDING,
];

/// Reports the Workloads whose verdict is one of `words` (see `chain::verdict_word`)
/// and that `select` accepts, with the severity it returns. Only those Workloads are
/// analyzed in full; the verdicts are computed once per snapshot for every rule.
pub(crate) fn report(
    ctx: &Context,
    rule: &RuleMeta,
    words: &[&str],
    select: impl Fn(&Chain) -> Option<Severity>,
) -> Vec<Finding> {
    let snap = ctx.snapshot;
    if !snap.has_kind("Workload") {
        return Vec::new();
    }
    let ids = chain::workloads_with(ctx, words);
    if ids.is_empty() {
        return Vec::new();
    }
    let k = Ctx::new(snap);
    ids.into_iter()
        .filter_map(|id| {
            let w = Snapshot::view_of(snap.workloads(), id)?;
            let c = chain::analyze(&k, id, w);
            select(&c).map(|sev| c.finding(&k, rule, sev))
        })
        .collect()
}

/// Shorthand for rules that report some verdicts at the rule's severity.
pub(crate) fn report_verdicts(ctx: &Context, rule: &RuleMeta, words: &[&str]) -> Vec<Finding> {
    report(ctx, rule, words, |c| {
        words
            .contains(&chain::verdict_word(&c.verdict))
            .then_some(rule.severity)
    })
}

/// Whether a Kueue finding could touch the object asked. Findings are on Workloads, and
/// a ClusterQueue's usage counts (and cites) the Workloads of every namespace sharing it;
/// a finding explains its Workload's Jobs and pods, of its namespace. So one could touch
/// an object of the namespace read only when that namespace holds a Workload.
pub(crate) fn kueue_reach(inv: &crate::rules::reach::Involve) -> bool {
    crate::rules::reach::namespace_holds(inv, "Workload")
}

//! A Workload that needs more than its ClusterQueue can ever give.

use crate::declare_rule;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// A Workload needs more than the maximum capacity of its ClusterQueue, even with borrowing: it can never be admitted.
    ///
    /// Recomputes each podset's total (count × the effective per-pod request: app
    /// containers, init containers and sidecars, pod-level resources, overhead, LimitRange
    /// defaults; plus `pods` when the ClusterQueue covers it) and compares it, per flavor
    /// and resource, with the maximum capacity: nominal quota plus what the cohort can
    /// lend, capped by `borrowingLimit`, with the cohort's lending limits (Kueue's
    /// `potentialAvailable`). Kueue says "insufficient quota for … > maximum capacity"
    /// (older: "… in ClusterQueue"), reason `ExceedsMaxQuota` or legacy `Pending`.
    /// Waiting never helps: raise the quota, borrow, or request less.
    pub static QUOTA_EXCEEDS_CAPACITY = {
        id: "kueue/quota-exceeds-capacity",
        stage: Stage::Queue,
        severity: Severity::Error,
        fallback: false,
        // Wide: see `kueue_reach`.
        reach: Reach::Wide(super::kueue_reach),
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    super::report_verdicts(
        ctx,
        &QUOTA_EXCEEDS_CAPACITY,
        &["never-fits", "kueue-says-never-fits"],
    )
}

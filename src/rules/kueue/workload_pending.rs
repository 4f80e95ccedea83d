//! A Workload that is not admitted although the recomputation finds no blocker, or whose
//! chain the bundle cannot follow.

use crate::declare_rule;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// A Workload is not admitted, but the bundle shows no blocker (or lacks the queue objects to tell).
    ///
    /// Every link of the chain is sound and the recomputed quota fits, yet Kueue has not
    /// reserved quota: Kueue may not have evaluated it yet ("Workload is pending
    /// evaluation"), preemptions may be under way, or the bundle was taken after the
    /// queues changed. Kueue's own condition is quoted; when it disagrees with the
    /// recomputation the finding says so. Also reports Workloads whose LocalQueue or
    /// ClusterQueue kinds the bundle did not collect, naming what is missing.
    pub static WORKLOAD_PENDING = {
        id: "kueue/workload-pending",
        stage: Stage::Queue,
        severity: Severity::Warning,
        fallback: false,
        // Wide: see `kueue_reach`.
        reach: Reach::Wide(super::kueue_reach),
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    super::report_verdicts(
        ctx,
        &WORKLOAD_PENDING,
        &[
            "fits-now",
            "not-collected",
            "kueue-says-topology",
            "kueue-says-pending",
        ],
    )
}

//! A Workload that fits its ClusterQueue, but not the quota left unused now.

use crate::declare_rule;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// A Workload fits its ClusterQueue's capacity but not the unused quota now; names the admitted Workloads holding it.
    ///
    /// Same arithmetic as quota-exceeds-capacity, compared with the unused quota instead:
    /// nominal minus the reservation (`status.flavorsReservation`), plus what the cohort
    /// can still lend within `borrowingLimit`/`lendingLimit` (Kueue's `available`). Kueue
    /// says "insufficient unused quota for X in flavor F, N more needed" (reason
    /// `WaitingForQuota` or legacy `Pending`). The Workload is admitted once the listed
    /// Workloads finish, or by preemption if the ClusterQueue allows it.
    pub static QUOTA_IN_USE = {
        id: "kueue/quota-in-use",
        stage: Stage::Queue,
        severity: Severity::Warning,
        fallback: false,
        // Wide: see `kueue_reach`.
        reach: Reach::Wide(super::kueue_reach),
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    super::report_verdicts(ctx, &QUOTA_IN_USE, &["fits-later", "kueue-says-fits-later"])
}

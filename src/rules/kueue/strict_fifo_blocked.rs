//! A Workload that would fit but waits behind the head of a StrictFIFO queue.

use crate::declare_rule;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// A Workload would fit but waits behind the head of a StrictFIFO ClusterQueue that cannot be admitted.
    ///
    /// Under `queueingStrategy: StrictFIFO` only the head of the queue is tried; Workloads
    /// behind a head that does not fit wait even when they would fit. Queue order is
    /// priority first, then creation (or last eviction) time, so the blocker may be newer
    /// than the blocked Workload. Recomputed: this Workload fits the unused quota, and
    /// another pending Workload of the same ClusterQueue is ahead of it.
    pub static STRICT_FIFO_BLOCKED = {
        id: "kueue/strict-fifo-blocked",
        stage: Stage::Queue,
        severity: Severity::Warning,
        fallback: false,
        // Wide: see `kueue_reach`.
        reach: Reach::Wide(super::kueue_reach),
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    super::report_verdicts(ctx, &STRICT_FIFO_BLOCKED, &["strict-fifo-blocked"])
}

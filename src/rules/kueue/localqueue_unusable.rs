//! A Workload whose LocalQueue is missing, stopped or inactive (or that names none).

use crate::declare_rule;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// A Workload waits on a LocalQueue that does not exist, is stopped or is inactive.
    ///
    /// The first hop of Kueue's admission chain is the LocalQueue named by the Job's
    /// `kueue.x-k8s.io/queue-name` label (the Workload's `spec.queueName`), in the same
    /// namespace. A missing LocalQueue (Kueue: "LocalQueue X doesn't exist", reason
    /// `Inadmissible` or `Misconfigured`), a `stopPolicy` of `Hold`/`HoldAndDrain`
    /// ("LocalQueue X is stopped") or an inactive LocalQueue means no ClusterQueue ever
    /// considers the Workload: quota is not the problem. Fix the label or create/resume
    /// the LocalQueue.
    pub static LOCALQUEUE_UNUSABLE = {
        id: "kueue/localqueue-unusable",
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
        &LOCALQUEUE_UNUSABLE,
        &[
            "no-queue-name",
            "localqueue-missing",
            "localqueue-stopped",
            "localqueue-inactive",
        ],
    )
}

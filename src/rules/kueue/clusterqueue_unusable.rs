//! A Workload whose ClusterQueue is missing, stopped or inactive.

use crate::declare_rule;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// A Workload's LocalQueue points at a ClusterQueue that is missing, stopped or inactive.
    ///
    /// Recomputed from the objects: the ClusterQueue named by the LocalQueue's
    /// `spec.clusterQueue` must exist, have no stopping `stopPolicy`, and reference only
    /// ResourceFlavors and AdmissionChecks that exist and are active (otherwise Kueue sets
    /// `Active=False`, e.g. reason `FlavorNotFound`, "Can't admit new workloads: references
    /// missing ResourceFlavor(s)"). Cohort cycles also disable every member. No Workload of
    /// such a queue is admitted, whatever its quota says.
    pub static CLUSTERQUEUE_UNUSABLE = {
        id: "kueue/clusterqueue-unusable",
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
        &CLUSTERQUEUE_UNUSABLE,
        &[
            "clusterqueue-missing",
            "clusterqueue-stopped",
            "clusterqueue-inactive",
        ],
    )
}

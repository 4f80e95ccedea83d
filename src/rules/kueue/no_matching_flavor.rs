//! No flavor of the ClusterQueue can hold a podset (labels, taints, missing flavor,
//! uncovered resource).

use crate::declare_rule;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// No ResourceFlavor of the ClusterQueue can hold a podset: taints, node labels, or a resource no group covers.
    ///
    /// Kueue matches each podset against the flavors of the resource group covering its
    /// resources, in order: a flavor's `nodeTaints` (NoSchedule/NoExecute) must be
    /// tolerated by the pod's tolerations or the flavor's own, and the pod's nodeSelector
    /// and required node affinity, restricted to the keys the flavor labels, must match
    /// the flavor's `nodeLabels`. A requested resource that no resource group covers
    /// ("resource X unavailable in ClusterQueue") can never be admitted either. Adding
    /// quota does not help; the podset or the flavors must change.
    pub static NO_MATCHING_FLAVOR = {
        id: "kueue/no-matching-flavor",
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
        &NO_MATCHING_FLAVOR,
        &[
            "no-matching-flavor",
            "resource-not-covered",
            "kueue-says-no-matching-flavor",
        ],
    )
}

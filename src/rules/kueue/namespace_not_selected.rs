//! A Workload in a namespace its ClusterQueue does not select.

use crate::declare_rule;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// A Workload's namespace is not selected by its ClusterQueue's `namespaceSelector`.
    ///
    /// A ClusterQueue without `namespaceSelector` (or with `null`) selects **no**
    /// namespace; `namespaceSelector: {}` selects all. Otherwise the selector is matched
    /// against the Namespace's labels from the bundle. Kueue reports it as "workload
    /// namespace doesn't match ClusterQueue selector" (reason `Inadmissible` or
    /// `Misconfigured`). A very common misconfiguration: the ClusterQueue was created
    /// without `namespaceSelector: {}`.
    pub static NAMESPACE_NOT_SELECTED = {
        id: "kueue/namespace-not-selected",
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
        &NAMESPACE_NOT_SELECTED,
        &[
            "namespace-not-selected",
            "kueue-says-namespace-not-selected",
        ],
    )
}

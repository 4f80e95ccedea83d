//! `platform/operator-degraded`: ClusterOperators reporting `Degraded=True`.

use super::operator::{Bad, findings};
use crate::declare_rule;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// Reports ClusterOperators with `Degraded=True`, with the condition's reason word for word, since when, and the cause the bundle shows.
    ///
    /// A degraded operator still serves but cannot reach its desired state; during an
    /// update the cluster-version operator waits for it. As `oc adm upgrade status`
    /// does, a condition younger than 5 minutes is only `info` (operators flip it while
    /// they roll out), a warning after 5 minutes and an error after 40. The message is
    /// followed: a node it names (`node "X" not ready`) is checked against the bundle's
    /// Node — a NotReady node's own finding is linked in `details.cause`, a Ready one or
    /// one missing from the bundle is said — and stuck pods in the operator's namespaces
    /// are linked too.
    pub static OPERATOR_DEGRADED = {
        id: "platform/operator-degraded",
        stage: Stage::Platform,
        severity: Severity::Error,
        fallback: false,
        // Wide: see `platform_reach`.
        reach: Reach::Wide(super::platform_reach),
        run: run,
    };
}

static BAD: Bad = Bad {
    condition: "Degraded",
    status_bad: |s| s == "True",
    word: "degraded",
    warn: 5 * 60,
    error: 40 * 60,
    help: "read the condition's message: its prefix (`NodeControllerDegraded:`, `EtcdMembersDegraded:` …) names the operator's controller that failed",
};

fn run(ctx: &Context) -> Vec<Finding> {
    findings(ctx, &OPERATOR_DEGRADED, &BAD)
}

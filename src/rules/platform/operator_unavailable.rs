//! `platform/operator-unavailable`: ClusterOperators reporting `Available` other than True.

use super::operator::{Bad, findings};
use crate::declare_rule;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// Reports ClusterOperators whose `Available` condition is False or Unknown, with its reason word for word and since when.
    ///
    /// An unavailable operator's component does not serve (an API, the console, the
    /// registry …). As `oc adm upgrade status` does, it is `info` for the first 5
    /// minutes, a warning after that and an error after 20. Nodes its message names and
    /// stuck pods in its namespaces are followed as for a degraded operator.
    pub static OPERATOR_UNAVAILABLE = {
        id: "platform/operator-unavailable",
        stage: Stage::Platform,
        severity: Severity::Error,
        fallback: false,
        // Wide: see `platform_reach`.
        reach: Reach::Wide(super::platform_reach),
        run: run,
    };
}

static BAD: Bad = Bad {
    condition: "Available",
    status_bad: |s| s != "True",
    word: "unavailable",
    warn: 5 * 60,
    error: 20 * 60,
    help: "look at the operator's deployment and pods: `Available=False` usually means its operand has no ready replica",
};

fn run(ctx: &Context) -> Vec<Finding> {
    findings(ctx, &OPERATOR_UNAVAILABLE, &BAD)
}

//! A Workload held back by admission checks.

use super::chain::Verdict;
use crate::declare_rule;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// A Workload is held back by admission checks that are Pending, Retry or Rejected.
    ///
    /// With quota reserved, a Workload is admitted only when every admission check of its
    /// ClusterQueue (`admissionChecks` or `admissionChecksStrategy`) is `Ready` in
    /// `status.admissionChecks` (Kueue: `Admitted=False`, reason
    /// `UnsatisfiedAdmissionChecks` or legacy `UnsatisfiedChecks`). A check in `Retry` or
    /// `Rejected` keeps it out even when quota is free ("The workload has failed admission
    /// checks"). The check's controller (e.g. ProvisioningRequest) decides, not the quota.
    pub static ADMISSION_CHECKS = {
        id: "kueue/admission-checks",
        stage: Stage::Queue,
        severity: Severity::Warning,
        fallback: false,
        // Wide: see `kueue_reach`.
        reach: Reach::Wide(super::kueue_reach),
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    super::report(
        ctx,
        &ADMISSION_CHECKS,
        &["admission-checks", "kueue-says-admission-checks"],
        |c| match &c.verdict {
            Verdict::AdmissionChecks { worst } if worst == "Rejected" => Some(Severity::Error),
            Verdict::AdmissionChecks { worst } if worst == "Ready" => Some(Severity::Info),
            Verdict::AdmissionChecks { .. } | Verdict::KueueCause { .. } => Some(Severity::Warning),
            _ => None,
        },
    )
}

//! Rules of the `creation` area, one file per rule; `RULES` registers them.

pub mod daemonset_coverage;
pub mod failed_create;
pub mod progress_deadline;
pub mod statefulset_ordinal;

use crate::rules::RuleMeta;

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[
    &failed_create::FAILED_CREATE,
    &progress_deadline::PROGRESS_DEADLINE,
    &statefulset_ordinal::STATEFULSET_ORDINAL,
    &daemonset_coverage::DAEMONSET_COVERAGE,
];

//! Rules of the `readiness` area, one file per rule; `RULES` registers them.
//! [`crate::rules::not_ready`] is shared by them (and by the traffic rules): it decides the
//! one readiness cause of each Running-but-not-Ready pod, so a pod gets one readiness finding.

pub mod probe_failing;
pub mod probe_port;
pub mod readiness_gates;
pub mod startup_probe;

use crate::rules::RuleMeta;

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[
    &probe_port::PROBE_PORT_UNDECLARED,
    &startup_probe::STARTUP_PROBE_PENDING,
    &probe_failing::PROBE_FAILING,
    &readiness_gates::READINESS_GATES_PENDING,
];

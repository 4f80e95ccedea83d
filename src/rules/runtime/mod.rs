//! Rules of the `runtime` area, one file per rule; `RULES` registers them.
//! [`facts`] holds what they share (last termination, exit codes, log lines, owning Job).

pub mod config_error;
pub mod crash_loop;
pub mod facts;
pub mod init_container;
pub mod job_failed;
pub mod start_error;

use crate::rules::RuleMeta;

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[
    &crash_loop::CRASH_LOOP,
    &start_error::START_ERROR,
    &config_error::CONFIG_ERROR,
    &init_container::INIT_CONTAINER,
    &job_failed::JOB_FAILED,
];

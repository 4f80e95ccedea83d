//! Rules of the `scheduling` area, one file per rule; `RULES` registers them.
//!
//! Shared building blocks live here too: [`requests`] (the effective pod request),
//! [`message`] (the FailedScheduling text parser) and [`fit`] (per-node recomputation of
//! the scheduler's filters). The grouped pod findings and evidence helpers that the
//! creation, node and runtime rules use as well are in [`crate::rules::pod_findings`].

pub mod fit;
pub mod message;
pub mod requests;
pub mod unschedulable;

use crate::rules::RuleMeta;

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[&unschedulable::UNSCHEDULABLE];

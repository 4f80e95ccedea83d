//! Rules of the `scheduling` area, one file per rule; `RULES` registers them.
//!
//! Shared building blocks live here too: [`requests`] (the effective pod request),
//! [`message`] (the FailedScheduling text parser), [`fit`] (per-node recomputation of the
//! scheduler's filters) and [`common`] (grouped pod findings and evidence helpers used by
//! the creation, node and runtime rules as well).

pub mod common;
pub mod fit;
pub mod message;
pub mod requests;
pub mod unschedulable;

use crate::rules::RuleMeta;

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[&unschedulable::UNSCHEDULABLE];

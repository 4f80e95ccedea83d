//! Rules of the `scheduling` area, one file per rule; `RULES` registers them.
//!
//! Shared building blocks live here too: [`requests`] (the effective pod request),
//! [`message`] (the FailedScheduling text parser) and [`fit`] (per-node recomputation of
//! the scheduler's filters, with `spread`: PodTopologySpread). The `unschedulable` rule's own parts are private modules
//! beside it: `claims`, `fit_text`, `preemption`, `autoscaler` and `scheduler_compare`.
//! The grouped pod findings and evidence helpers that the creation, node and runtime
//! rules use as well are in [`crate::rules::pod_findings`].

mod autoscaler;
mod claims;
pub mod fit;
mod fit_text;
pub mod message;
mod preemption;
pub mod requests;
mod scheduler_compare;
mod spread;
pub mod unschedulable;

use crate::rules::RuleMeta;

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[&unschedulable::UNSCHEDULABLE];

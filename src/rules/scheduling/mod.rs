//! Rules of the `scheduling` area, one file per rule; `RULES` registers them.
//!
//! Its building blocks live here too: [`message`] (the FailedScheduling text parser) and
//! [`fit`] (per-node recomputation of the scheduler's filters, with `spread`:
//! PodTopologySpread). The `unschedulable` rule's own parts are private modules beside
//! it: `claims`, `fit_text`, `preemption`, `autoscaler` and `scheduler_compare`; `waiting`
//! (the pending pods only terminating pods keep off a node) is shared by `unschedulable`
//! and `awaiting_termination`. What
//! other areas share with it lives below the areas: the effective pod request and the
//! placement semantics in [`crate::kube::requests`] and [`crate::kube::placement`], what
//! the pods bound to each node hold in [`crate::rules::node_usage`], the grouped pod
//! findings and evidence helpers in [`crate::rules::pod_findings`].

mod autoscaler;
pub mod awaiting_termination;
mod claims;
pub mod fit;
mod fit_text;
pub mod message;
pub mod no_room;
mod placer;
mod preemption;
mod scheduler_compare;
mod spread;
pub mod unschedulable;
mod waiting;

use crate::rules::RuleMeta;

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[
    &unschedulable::UNSCHEDULABLE,
    &no_room::NO_ROOM,
    &awaiting_termination::AWAITING_TERMINATION,
];

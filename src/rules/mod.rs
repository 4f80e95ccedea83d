//! Rules: the core every area builds on, the areas, and the registry that runs them.
//!
//! The core — [`finding`] (what a rule reports), [`rule`] (what a rule is and sees:
//! [`declare_rule!`], [`Context`]) and the helpers several areas share — sits below the
//! areas. Each area (`platform/`, `kueue/` …) holds one file per rule, declared with
//! [`declare_rule!`] so its doc comment is also what `kdiag rules` prints; an area never
//! imports another. [`registry`] sits above them all: it lists the areas and runs them.

pub mod common_cause;
pub mod deletion;
pub mod disruption;
pub mod evidence;
pub mod finding;
pub mod pod_findings;
pub mod reach;
pub mod rule;
pub mod statefulset_ordinals;
pub mod superseded;

pub mod creation;
pub mod kueue;
pub mod node;
pub mod node_usage;
pub mod not_ready;
pub mod numa;
pub mod platform;
pub mod pod;
pub mod readiness;
pub mod resource_manager;
pub mod runtime;
pub mod scheduling;
pub mod traffic;

pub mod registry;

pub use finding::{CauseHint, Evidence, Finding, Severity, Stage};
pub use rule::{Context, Model, RuleMeta};

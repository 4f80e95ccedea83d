//! Rules of the `numa` area (kubelet CPU/Memory/Topology managers, pod-level resources),
//! one file per rule; `RULES` registers them.

use crate::rules::RuleMeta;

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[];

//! Rules about pods as a whole.

pub mod stuck;

use crate::rules::RuleMeta;

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[&stuck::POD_STUCK];

//! Rules of the `node` area, one file per rule; `RULES` registers them.

pub mod admission;
pub mod condition;
pub mod evicted;
pub mod image_pull;
pub mod registry_failing;
pub mod sandbox;
pub mod terminating;
pub mod volume_mount;

use crate::rules::RuleMeta;

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[
    &image_pull::IMAGE_PULL,
    &registry_failing::REGISTRY_FAILING,
    &admission::ADMISSION_REJECTED,
    &volume_mount::VOLUME_MOUNT,
    &sandbox::SANDBOX,
    &condition::NODE_CONDITION,
    &evicted::EVICTED,
    &terminating::TERMINATING,
];

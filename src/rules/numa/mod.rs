//! Rules of the `numa` area (kubelet CPU/Memory/Topology managers, pod-level resources),
//! one file per rule; `RULES` registers them.
//!
//! Helpers: [`kubelet`] attaches kubelet settings to nodes from every source a bundle
//! keeps, [`budget`] recomputes the pod-level budget split of KEP-5526, [`topology`] reads
//! NodeResourceTopology objects, [`placement`] finds the nodes a pod template can land on.

pub mod budget;
pub mod config_unsupported;
pub mod kubelet;
pub mod locate;
pub mod placement;
pub mod predicted;
pub mod rejected;
pub mod topology;

use crate::rules::RuleMeta;

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[
    &rejected::RESOURCE_MANAGER_REJECTED,
    &predicted::SHARED_POOL_PREDICTED,
    &config_unsupported::KUBELET_CONFIG_UNSUPPORTED,
];

/// Whether a NUMA finding could touch the object asked. What a node's kubelet is set to
/// comes from cluster-scoped sources (and the pods bound to a node named by one), and the
/// area explains pods first, so others skip them. So it could when the bundle holds such a
/// source or NodeResourceTopology, or a NUMA finding comes out of the narrow read.
pub(crate) fn numa_reach(inv: &crate::rules::reach::Involve) -> bool {
    let mut kinds = kubelet::SOURCE_KINDS.to_vec();
    kinds.push("NodeResourceTopology");
    crate::rules::reach::bundle_holds(inv, &kinds)
        || inv.findings.iter().any(|f| f.rule.starts_with("numa/"))
}

//! Rules of the `platform` stage: an OpenShift cluster's own operators (cluster-version
//! operator, ClusterOperators, machine-config operator and daemon). They come first:
//! when the platform is broken, workloads are downstream of it. `model` recomputes where
//! an update stands as `oc adm upgrade status` does; each rule reports one kind of
//! obstacle with `oc`'s level and words, and follows it to what the bundle shows.

pub mod drain;
pub mod estimate;
pub mod model;
pub mod node_degraded;
pub mod operator;
pub mod operator_degraded;
pub mod operator_unavailable;
pub mod pool_degraded;
pub mod pool_paused;
pub mod previous_update;
pub mod update_failing;

use crate::rules::RuleMeta;

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[
    &update_failing::UPDATE_FAILING,
    &previous_update::PREVIOUS_UPDATE,
    &operator_degraded::OPERATOR_DEGRADED,
    &operator_unavailable::OPERATOR_UNAVAILABLE,
    &pool_paused::POOL_PAUSED,
    &pool_degraded::POOL_DEGRADED,
    &node_degraded::NODE_DEGRADED,
];

/// The one namespaced object the platform model weighs to decide whether there is a
/// finding at all: the machine-config operator's Deployment (its image tells whether
/// that operator is still updating). A narrow read (`kdiag describe`) reads it too.
pub const MCO_DEPLOYMENT: (&str, &str) = (
    "openshift-machine-config-operator",
    "machine-config-operator",
);

/// Whether a platform finding could touch the object asked. Its findings are on
/// cluster-scoped objects (ClusterVersion, ClusterOperators, MachineConfigPools, nodes)
/// and whether there is one is told by those, the snapshot time and [`MCO_DEPLOYMENT`]
/// alone, which a narrow read holds whole; what they weigh in namespaces (operands' pods,
/// PodDisruptionBudgets, causes in the operators' namespaces) only shapes a finding that
/// is there anyway. So it could only when a platform finding comes out of the narrow read.
pub(crate) fn platform_reach(inv: &crate::rules::reach::Involve) -> bool {
    inv.findings
        .iter()
        .any(|f| f.stage == crate::rules::Stage::Platform)
}

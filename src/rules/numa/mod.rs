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

use crate::kube::pod::Pod;
use crate::rules::RuleMeta;

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[
    &rejected::RESOURCE_MANAGER_REJECTED,
    &predicted::SHARED_POOL_PREDICTED,
    &config_unsupported::KUBELET_CONFIG_UNSUPPORTED,
];

/// The pod is a kubelet resource-manager rejection that `numa/resource-manager-rejected`
/// explains (and sets `explains` for): Failed with `TopologyAffinityError`,
/// `EmptyPodSharedPoolError` or `SMTAlignmentError`, or `UnexpectedAdmissionError` whose
/// text comes from the CPU or Memory manager (device-plugin errors are not claimed).
/// Other rules that report kubelet admission rejections skip these pods.
pub fn explains_rejection(pod: &Pod) -> bool {
    if pod.phase() != "Failed" {
        return false;
    }
    let reason = pod.status.reason.as_deref().unwrap_or("");
    match reason {
        "TopologyAffinityError" | "EmptyPodSharedPoolError" | "SMTAlignmentError" => true,
        "UnexpectedAdmissionError" => {
            resource_manager_text(pod.status.message.as_deref().unwrap_or(""))
        }
        _ => false,
    }
}

/// An admission error text that comes from the CPU or Memory manager.
pub fn resource_manager_text(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    !m.contains("devices")
        && (m.contains("cpus")
            || m.contains("[memorymanager]")
            || m.contains("[cpumanager]")
            || m.contains("pod rejected,")
            || m.contains("memory manager")
            || m.contains("cpu manager"))
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(phase: &str, reason: &str, message: &str) -> Pod {
        serde_json::from_value(serde_json::json!({
            "status": {"phase": phase, "reason": reason, "message": message}
        }))
        .unwrap()
    }

    #[test]
    fn claims_resource_manager_rejections_only() {
        let pod_scope = "Pod was rejected: Pod Scope pod with pod-level resources failed admission under pod-scope topology manager";
        assert!(explains_rejection(&pod(
            "Failed",
            "TopologyAffinityError",
            pod_scope
        )));
        assert!(explains_rejection(&pod(
            "Failed",
            "EmptyPodSharedPoolError",
            "Pod was rejected: pod rejected, sum of exclusive container cpu requests equals pod budget, leaving no cpus for shared containers"
        )));
        assert!(explains_rejection(&pod(
            "Failed",
            "SMTAlignmentError",
            "Pod was rejected: SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2"
        )));
        assert!(explains_rejection(&pod(
            "Failed",
            "UnexpectedAdmissionError",
            "Pod was rejected: Allocate failed due to not enough cpus available to satisfy request: requested=4, available=2, which is unexpected"
        )));
        assert!(!explains_rejection(&pod(
            "Failed",
            "UnexpectedAdmissionError",
            "Pod was rejected: Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected"
        )));
        assert!(!explains_rejection(&pod(
            "Failed",
            "OutOfcpu",
            "Pod was rejected: Node didn't have enough resource: cpu"
        )));
        assert!(!explains_rejection(&pod(
            "Pending",
            "TopologyAffinityError",
            ""
        )));
    }
}

//! Kubelet admission rejections that come from its resource managers (CPU, Memory and
//! Topology managers), not a rule: the NUMA area explains them, the node area's admission
//! rule leaves them to it.

use crate::kube::pod::Pod;

/// The pod is a kubelet resource-manager rejection, which `numa/resource-manager-rejected`
/// explains (and sets `explains` for): Failed with `TopologyAffinityError`,
/// `EmptyPodSharedPoolError` or `SMTAlignmentError`, or `UnexpectedAdmissionError` whose
/// text comes from the CPU or Memory manager (device-plugin errors are not claimed).
/// Other rules that report kubelet admission rejections skip these pods.
pub fn is_resource_manager_rejection(pod: &Pod) -> bool {
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
fn resource_manager_text(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    !m.contains("devices")
        && (m.contains("cpus")
            || m.contains("[memorymanager]")
            || m.contains("[cpumanager]")
            || m.contains("pod rejected,")
            || m.contains("memory manager")
            || m.contains("cpu manager"))
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
        assert!(is_resource_manager_rejection(&pod(
            "Failed",
            "TopologyAffinityError",
            pod_scope
        )));
        assert!(is_resource_manager_rejection(&pod(
            "Failed",
            "EmptyPodSharedPoolError",
            "Pod was rejected: pod rejected, sum of exclusive container cpu requests equals pod budget, leaving no cpus for shared containers"
        )));
        assert!(is_resource_manager_rejection(&pod(
            "Failed",
            "SMTAlignmentError",
            "Pod was rejected: SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2"
        )));
        assert!(is_resource_manager_rejection(&pod(
            "Failed",
            "UnexpectedAdmissionError",
            "Pod was rejected: Allocate failed due to not enough cpus available to satisfy request: requested=4, available=2, which is unexpected"
        )));
        assert!(!is_resource_manager_rejection(&pod(
            "Failed",
            "UnexpectedAdmissionError",
            "Pod was rejected: Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected"
        )));
        assert!(!is_resource_manager_rejection(&pod(
            "Failed",
            "OutOfcpu",
            "Pod was rejected: Node didn't have enough resource: cpu"
        )));
        assert!(!is_resource_manager_rejection(&pod(
            "Pending",
            "TopologyAffinityError",
            ""
        )));
    }
}

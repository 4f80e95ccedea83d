//! A kind is its API group plus its kind (DESIGN.md "Identity and duplicates"): a
//! `longhorn.io` `Node` is not a core Node. Rules and users name the kinds kdiag knows
//! without a group; this is the group such a name means.

/// The group a kind named without one means, for the kinds kdiag knows ("" is core).
/// A `match`: lookups by kind ask it on every call.
pub fn default_group(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "Pod"
        | "Node"
        | "Service"
        | "Event"
        | "Namespace"
        | "Secret"
        | "ConfigMap"
        | "ServiceAccount"
        | "Endpoints"
        | "PersistentVolumeClaim"
        | "PersistentVolume"
        | "ResourceQuota"
        | "LimitRange"
        | "ReplicationController"
        | "PodTemplate"
        | "ComponentStatus" => "",
        "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet" | "ControllerRevision" => "apps",
        "Job" | "CronJob" => "batch",
        "EndpointSlice" => "discovery.k8s.io",
        "Ingress" | "IngressClass" | "NetworkPolicy" => "networking.k8s.io",
        "StorageClass" | "CSIDriver" | "CSINode" | "CSIStorageCapacity" | "VolumeAttachment" => {
            "storage.k8s.io"
        }
        "PriorityClass" => "scheduling.k8s.io",
        "PodDisruptionBudget" => "policy",
        "HorizontalPodAutoscaler" => "autoscaling",
        "CustomResourceDefinition" => "apiextensions.k8s.io",
        "ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration" => {
            "admissionregistration.k8s.io"
        }
        "Role" | "RoleBinding" | "ClusterRole" | "ClusterRoleBinding" => {
            "rbac.authorization.k8s.io"
        }
        "Lease" => "coordination.k8s.io",
        "RuntimeClass" => "node.k8s.io",
        "KubeletConfiguration" => "kubelet.config.k8s.io",
        "Workload"
        | "ClusterQueue"
        | "LocalQueue"
        | "ResourceFlavor"
        | "Cohort"
        | "AdmissionCheck"
        | "WorkloadPriorityClass"
        | "ProvisioningRequestConfig"
        | "MultiKueueConfig"
        | "MultiKueueCluster"
        | "Topology" => "kueue.x-k8s.io",
        "ClusterVersion" | "ClusterOperator" | "Infrastructure" => "config.openshift.io",
        "MachineConfigPool" | "MachineConfig" => "machineconfiguration.openshift.io",
        _ => return None,
    })
}

/// The group an object of `kind` at `api_version` is stored under: the group of its
/// apiVersion, where one kind served by two groups is one (`events.k8s.io` Events are
/// Events; `extensions` Deployments of old dumps are `apps` ones). Without an
/// apiVersion (a hand-written dump), the group the kind means.
pub fn canonical_group<'a>(api_version: &'a str, kind: &str) -> &'a str {
    let group = match api_version.rsplit_once('/') {
        Some((g, _)) => g,
        None if api_version.is_empty() => return default_group(kind).unwrap_or(""),
        None => "",
    };
    match (group, kind) {
        ("events.k8s.io", "Event") => "",
        ("extensions", "Deployment" | "ReplicaSet" | "DaemonSet") => "apps",
        ("extensions", "Ingress" | "NetworkPolicy") => "networking.k8s.io",
        ("extensions", "PodSecurityPolicy") => "policy",
        _ => group,
    }
}

/// An all-zero uid (hand-made must-gathers write one on every object) is no uid.
pub fn is_real_uid(uid: &str) -> bool {
    uid.bytes().any(|b| b != b'0' && b != b'-')
}

/// Kinds without a namespace that kdiag knows (no namespace column, `-n` ignored): a
/// selective read reads every one of them (see `ingest::want`).
pub const CLUSTER_SCOPED: &[&str] = &[
    "Node",
    "Namespace",
    "PersistentVolume",
    "StorageClass",
    "PriorityClass",
    "IngressClass",
    "CustomResourceDefinition",
    "ClusterQueue",
    "ResourceFlavor",
    "Cohort",
    "AdmissionCheck",
    "WorkloadPriorityClass",
    "ClusterRole",
    "ClusterRoleBinding",
    "ValidatingWebhookConfiguration",
    "MutatingWebhookConfiguration",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups() {
        assert_eq!(canonical_group("v1", "Node"), "");
        assert_eq!(
            canonical_group("longhorn.io/v1beta1", "Node"),
            "longhorn.io"
        );
        assert_eq!(canonical_group("events.k8s.io/v1", "Event"), "");
        assert_eq!(canonical_group("extensions/v1beta1", "Deployment"), "apps");
        assert_eq!(canonical_group("", "Job"), "batch");
        assert_eq!(canonical_group("", "Frobnicator"), "");
        assert!(!is_real_uid("00000000-0000-0000-0000-000000000000"));
        assert!(!is_real_uid(""));
        assert!(is_real_uid("0a000000-0000-0000-0000-000000000000"));
    }
}

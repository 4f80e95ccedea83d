//! Which kind and which object the user means: kubectl's kind names (plural, short,
//! `kind.group`), the kinds without a namespace, and one object found by name.

use kdiag::snapshot::{ObjectId, Snapshot};

/// Kinds kubectl knows: (Kind, plural, short names). Singular is the lowercased Kind.
const KINDS: &[(&str, &str, &[&str])] = &[
    ("Pod", "pods", &["po"]),
    ("Service", "services", &["svc"]),
    ("Deployment", "deployments", &["deploy"]),
    ("ReplicaSet", "replicasets", &["rs"]),
    ("StatefulSet", "statefulsets", &["sts"]),
    ("DaemonSet", "daemonsets", &["ds"]),
    ("Job", "jobs", &[]),
    ("CronJob", "cronjobs", &["cj"]),
    ("Namespace", "namespaces", &["ns"]),
    ("Node", "nodes", &["no"]),
    ("Event", "events", &["ev"]),
    ("Ingress", "ingresses", &["ing"]),
    ("IngressClass", "ingressclasses", &[]),
    ("Endpoints", "endpoints", &["ep"]),
    ("EndpointSlice", "endpointslices", &[]),
    ("PersistentVolumeClaim", "persistentvolumeclaims", &["pvc"]),
    ("PersistentVolume", "persistentvolumes", &["pv"]),
    ("StorageClass", "storageclasses", &["sc"]),
    ("ConfigMap", "configmaps", &["cm"]),
    ("Secret", "secrets", &[]),
    ("ServiceAccount", "serviceaccounts", &["sa"]),
    ("ResourceQuota", "resourcequotas", &["quota"]),
    ("LimitRange", "limitranges", &["limits"]),
    ("PriorityClass", "priorityclasses", &["pc"]),
    ("NetworkPolicy", "networkpolicies", &["netpol"]),
    ("PodDisruptionBudget", "poddisruptionbudgets", &["pdb"]),
    (
        "HorizontalPodAutoscaler",
        "horizontalpodautoscalers",
        &["hpa"],
    ),
    (
        "CustomResourceDefinition",
        "customresourcedefinitions",
        &["crd", "crds"],
    ),
    ("Workload", "workloads", &["kwl", "wl"]),
    ("ClusterQueue", "clusterqueues", &["cq"]),
    ("LocalQueue", "localqueues", &["lq", "queue", "queues"]),
    (
        "ResourceFlavor",
        "resourceflavors",
        &["rf", "flavor", "flavors"],
    ),
    ("Cohort", "cohorts", &[]),
    ("AdmissionCheck", "admissionchecks", &[]),
    ("WorkloadPriorityClass", "workloadpriorityclasses", &[]),
];

/// Cluster-scoped kinds (no namespace column, `-n` ignored).
const CLUSTER_SCOPED: &[&str] = &[
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

/// The Kind for what a user typed; kinds outside the table are matched against the
/// kinds the bundle holds (singular or plural, any case).
pub(super) fn resolve_kind(snap: &Snapshot, typed: &str) -> Option<String> {
    let t = typed
        .split('.')
        .next()
        .unwrap_or(typed)
        .to_ascii_lowercase();
    if t.is_empty() {
        return None;
    }
    for (kind, plural, short) in KINDS {
        if kind.to_ascii_lowercase() == t || *plural == t || short.contains(&t.as_str()) {
            return Some(kind.to_string());
        }
    }
    let mut kinds: Vec<&str> = snap.objects.iter().map(|o| o.kind.as_str()).collect();
    kinds.dedup();
    kinds
        .into_iter()
        .find(|k| plural_forms(k).contains(&t))
        .map(str::to_string)
}

fn plural_forms(kind: &str) -> Vec<String> {
    let k = kind.to_ascii_lowercase();
    let mut v = vec![k.clone(), format!("{k}s"), format!("{k}es")];
    if let Some(stem) = k.strip_suffix('y') {
        v.push(format!("{stem}ies"));
    }
    v
}

pub(super) fn cluster_scoped(snap: &Snapshot, kind: &str) -> bool {
    CLUSTER_SCOPED.contains(&kind)
        || snap
            .ids_of(kind)
            .first()
            .is_some_and(|&id| snap.object(id).namespace.is_none())
}

/// Finds one object: `-n` when given, else the only object of that name.
pub(super) fn resolve_object(
    snap: &Snapshot,
    kind: &str,
    name: &str,
    ns: Option<&str>,
) -> Result<ObjectId, String> {
    snap.resolve(kind, name, ns, cluster_scoped(snap, kind))
}

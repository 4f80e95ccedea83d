//! The one table of the kinds kdiag knows: per kind its API group and version, plural,
//! singular, kubectl short names, scope and categories as the API server serves them, the
//! words bundles name its files by, and which of kdiag's readers know it by name alone.
//!
//! The store (`snapshot::kinds`), the layouts (`ingest::layout`) and the explorer's kind
//! names (`explorer::lookup`) read it; so can an API server's discovery (`/api/v1`,
//! `/apis/G/V`), which is why a row holds what discovery serves even where kdiag does not
//! use it yet. Built-in kinds are as Kubernetes serves them (`api/discovery/*.json` of
//! kubernetes/kubernetes); CRD-backed kinds as their CRDs declare them: Kueue
//! (config/components/crd/bases at v0.19), OpenShift (openshift/api), NodeResourceTopology
//! (noderesourcetopology-api v1alpha2).
//!
//! Where kdiag's readers knew a kind differently, each keeps its answer here as a column
//! ([`Known`], [`KindInfo::read_whole`], the explorer's own short names of Kueue's kinds).

use Known::{Kubectl, KubectlAs, Path};
use std::sync::OnceLock;

/// One kind: what discovery serves of it, and how kdiag's readers know it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindInfo {
    /// `v1` for the core group, `GROUP/VERSION` otherwise: the version kdiag gives an
    /// object of this kind that does not say its own (a kind-less file). For Kueue's kinds,
    /// v1beta1, which every release since 0.9 serves (0.15 and later prefer v1beta2).
    pub api_version: &'static str,
    pub kind: &'static str,
    /// The resource's name in API paths; `""` for a kind no API server serves (the
    /// kubelet's own configuration, read from its configz).
    pub plural: &'static str,
    pub singular: &'static str,
    /// kubectl's short names, as the API server serves them.
    pub short_names: &'static [&'static str],
    pub namespaced: bool,
    /// Categories (`all`: what `kubectl get all` lists).
    pub categories: &'static [&'static str],
    /// The words layouts name this kind's files and folders by (`pods.yaml`, troubleshoot's
    /// `cluster-resources/pvcs/`), first the plural when it is one: kind inference from a
    /// path and a selective read. Empty: no layout names it.
    pub path_words: &'static [&'static str],
    pub known: Known,
    /// A selective read's "none" of this cluster-scoped kind stands: every selective read
    /// reads all of its objects (see `Snapshot::has_kind`). The other cluster-scoped kinds
    /// (platform, CSI, Kueue's later ones) were never listed so: their "none" is doubted.
    pub read_whole: bool,
}

/// Which of kdiag's readers know a kind by its name alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// Only layouts, from a path; a kind named without a group means every group's.
    Path,
    /// Rules and the store: its kind alone means this row's group (`Job` is `batch`'s).
    ByName,
    /// Also the explorer: kubectl's names for it resolve without the bundle (plural,
    /// singular, the short names), and it has its own columns and sections.
    Kubectl,
    /// [`Known::Kubectl`], with the short names the explorer accepts where they are not the
    /// row's (Kueue's changed between releases).
    KubectlAs(&'static [&'static str]),
}

impl KindInfo {
    /// The API group ("" for core).
    pub fn group(&self) -> &'static str {
        self.api_version.rsplit_once('/').map_or("", |(g, _)| g)
    }

    /// The version of [`KindInfo::api_version`].
    pub fn version(&self) -> &'static str {
        self.api_version
            .rsplit_once('/')
            .map_or(self.api_version, |(_, v)| v)
    }

    /// Whether the store and rules name it by its kind alone (see [`Known::ByName`]).
    pub fn by_name(&self) -> bool {
        self.known != Known::Path
    }

    /// The short names the explorer accepts, for the explorer's own kinds.
    pub fn kubectl_short_names(&self) -> Option<&'static [&'static str]> {
        match self.known {
            Known::Kubectl => Some(self.short_names),
            Known::KubectlAs(names) => Some(names),
            Known::Path | Known::ByName => None,
        }
    }

    const fn cluster(self) -> KindInfo {
        KindInfo {
            namespaced: false,
            ..self
        }
    }

    const fn read_whole(self) -> KindInfo {
        KindInfo {
            read_whole: true,
            ..self
        }
    }

    const fn categories(self, categories: &'static [&'static str]) -> KindInfo {
        KindInfo { categories, ..self }
    }

    const fn files(self, path_words: &'static [&'static str]) -> KindInfo {
        KindInfo { path_words, ..self }
    }

    const fn known(self, known: Known) -> KindInfo {
        KindInfo { known, ..self }
    }
}

/// A namespaced kind of no category that no layout names, known by name.
const fn kind(
    api_version: &'static str,
    kind: &'static str,
    plural: &'static str,
    singular: &'static str,
    short_names: &'static [&'static str],
) -> KindInfo {
    KindInfo {
        api_version,
        kind,
        plural,
        singular,
        short_names,
        namespaced: true,
        categories: &[],
        path_words: &[],
        known: Known::ByName,
        read_whole: false,
    }
}

const ALL: &[&str] = &["all"];
const API_EXTENSIONS: &[&str] = &["api-extensions"];
const KUEUE: &str = "kueue.x-k8s.io/v1beta1";

/// Every kind kdiag knows. The explorer's kinds come first, commonest first: the order
/// kubectl's names are offered in "did you mean" (see `explorer::lookup`).
#[rustfmt::skip]
pub static KINDS: &[KindInfo] = &[
    kind("v1", "Pod", "pods", "pod", &["po"]).categories(ALL).files(&["pods", "pod"]).known(Kubectl),
    kind("v1", "Service", "services", "service", &["svc"]).categories(ALL).files(&["services"]).known(Kubectl),
    kind("apps/v1", "Deployment", "deployments", "deployment", &["deploy"]).categories(ALL).files(&["deployments"]).known(Kubectl),
    kind("apps/v1", "ReplicaSet", "replicasets", "replicaset", &["rs"]).categories(ALL).files(&["replicasets"]).known(Kubectl),
    kind("v1", "ReplicationController", "replicationcontrollers", "replicationcontroller", &["rc"])
        .categories(ALL).files(&["replicationcontrollers"]).known(Kubectl),
    kind("apps/v1", "StatefulSet", "statefulsets", "statefulset", &["sts"]).categories(ALL).files(&["statefulsets"]).known(Kubectl),
    kind("apps/v1", "DaemonSet", "daemonsets", "daemonset", &["ds"]).categories(ALL).files(&["daemonsets"]).known(Kubectl),
    kind("batch/v1", "Job", "jobs", "job", &[]).categories(ALL).files(&["jobs"]).known(Kubectl),
    kind("batch/v1", "CronJob", "cronjobs", "cronjob", &["cj"]).categories(ALL).files(&["cronjobs"]).known(Kubectl),
    kind("v1", "Namespace", "namespaces", "namespace", &["ns"]).cluster().read_whole().files(&["namespaces"]).known(Kubectl),
    kind("v1", "Node", "nodes", "node", &["no"]).cluster().read_whole().files(&["nodes", "node"]).known(Kubectl),
    kind("v1", "Event", "events", "event", &["ev"]).files(&["events"]).known(Kubectl),
    kind("networking.k8s.io/v1", "Ingress", "ingresses", "ingress", &["ing"]).files(&["ingresses", "ingress"]).known(Kubectl),
    kind("networking.k8s.io/v1", "IngressClass", "ingressclasses", "ingressclass", &[])
        .cluster().read_whole().files(&["ingressclasses"]).known(Kubectl),
    kind("v1", "Endpoints", "endpoints", "endpoints", &["ep"]).files(&["endpoints"]).known(Kubectl),
    kind("discovery.k8s.io/v1", "EndpointSlice", "endpointslices", "endpointslice", &[]).files(&["endpointslices"]).known(Kubectl),
    kind("v1", "PersistentVolumeClaim", "persistentvolumeclaims", "persistentvolumeclaim", &["pvc"])
        .files(&["persistentvolumeclaims", "pvcs"]).known(Kubectl),
    kind("v1", "PersistentVolume", "persistentvolumes", "persistentvolume", &["pv"])
        .cluster().read_whole().files(&["persistentvolumes", "pvs"]).known(Kubectl),
    kind("storage.k8s.io/v1", "StorageClass", "storageclasses", "storageclass", &["sc"])
        .cluster().read_whole().files(&["storageclasses", "storage-classes"]).known(Kubectl),
    kind("v1", "ConfigMap", "configmaps", "configmap", &["cm"]).files(&["configmaps"]).known(Kubectl),
    kind("v1", "Secret", "secrets", "secret", &[]).files(&["secrets"]).known(Kubectl),
    kind("v1", "ServiceAccount", "serviceaccounts", "serviceaccount", &["sa"]).files(&["serviceaccounts"]).known(Kubectl),
    kind("v1", "ResourceQuota", "resourcequotas", "resourcequota", &["quota"])
        .files(&["resourcequotas", "resource-quotas", "resource-quota"]).known(Kubectl),
    kind("v1", "LimitRange", "limitranges", "limitrange", &["limits"]).files(&["limitranges"]).known(Kubectl),
    kind("scheduling.k8s.io/v1", "PriorityClass", "priorityclasses", "priorityclass", &["pc"])
        .cluster().read_whole().files(&["priorityclasses"]).known(Kubectl),
    kind("networking.k8s.io/v1", "NetworkPolicy", "networkpolicies", "networkpolicy", &["netpol"])
        .files(&["networkpolicies", "network-policy"]).known(Kubectl),
    kind("policy/v1", "PodDisruptionBudget", "poddisruptionbudgets", "poddisruptionbudget", &["pdb"])
        .files(&["poddisruptionbudgets", "pod-disruption-budgets"]).known(Kubectl),
    kind("autoscaling/v2", "HorizontalPodAutoscaler", "horizontalpodautoscalers", "horizontalpodautoscaler", &["hpa"])
        .categories(&["all", "podautoscalers"]).known(Kubectl),
    kind("apiextensions.k8s.io/v1", "CustomResourceDefinition", "customresourcedefinitions", "customresourcedefinition", &["crd", "crds"])
        .cluster().read_whole().categories(API_EXTENSIONS)
        .files(&["customresourcedefinitions", "custom-resource-definitions"]).known(Kubectl),
    kind(KUEUE, "Workload", "workloads", "workload", &["kwl", "kueueworkload", "kueueworkloads"])
        .files(&["workloads"]).known(KubectlAs(&["kwl", "wl"])),
    kind(KUEUE, "ClusterQueue", "clusterqueues", "clusterqueue", &["cq"])
        .cluster().read_whole().files(&["clusterqueues"]).known(Kubectl),
    kind(KUEUE, "LocalQueue", "localqueues", "localqueue", &["queue", "queues", "lq"]).files(&["localqueues"]).known(Kubectl),
    kind(KUEUE, "ResourceFlavor", "resourceflavors", "resourceflavor", &["flavor", "flavors", "rf"])
        .cluster().read_whole().files(&["resourceflavors"]).known(Kubectl),
    // Cohort: v1alpha1 until Kueue 0.12, v1beta1 from 0.13.
    kind("kueue.x-k8s.io/v1alpha1", "Cohort", "cohorts", "cohort", &["co"])
        .cluster().read_whole().files(&["cohorts"]).known(KubectlAs(&[])),
    kind(KUEUE, "AdmissionCheck", "admissionchecks", "admissioncheck", &["ac"])
        .cluster().read_whole().files(&["admissionchecks"]).known(KubectlAs(&[])),
    kind(KUEUE, "WorkloadPriorityClass", "workloadpriorityclasses", "workloadpriorityclass", &["wpc"])
        .cluster().read_whole().files(&["workloadpriorityclasses"]).known(KubectlAs(&[])),
    kind("v1", "PodTemplate", "podtemplates", "podtemplate", &[]),
    kind("v1", "ComponentStatus", "componentstatuses", "componentstatus", &["cs"]).cluster(),
    kind("apps/v1", "ControllerRevision", "controllerrevisions", "controllerrevision", &[]),
    kind("storage.k8s.io/v1", "CSIDriver", "csidrivers", "csidriver", &[]).cluster(),
    kind("storage.k8s.io/v1", "CSINode", "csinodes", "csinode", &[]).cluster(),
    kind("storage.k8s.io/v1", "CSIStorageCapacity", "csistoragecapacities", "csistoragecapacity", &[]),
    kind("storage.k8s.io/v1", "VolumeAttachment", "volumeattachments", "volumeattachment", &[]).cluster(),
    kind("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "validatingwebhookconfigurations",
        "validatingwebhookconfiguration", &[]).cluster().read_whole().categories(API_EXTENSIONS),
    kind("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", "mutatingwebhookconfigurations",
        "mutatingwebhookconfiguration", &[]).cluster().read_whole().categories(API_EXTENSIONS),
    kind("rbac.authorization.k8s.io/v1", "Role", "roles", "role", &[]).files(&["roles"]),
    kind("rbac.authorization.k8s.io/v1", "RoleBinding", "rolebindings", "rolebinding", &[]).files(&["rolebindings"]),
    kind("rbac.authorization.k8s.io/v1", "ClusterRole", "clusterroles", "clusterrole", &[])
        .cluster().read_whole().files(&["clusterroles"]),
    kind("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", "clusterrolebindings", "clusterrolebinding", &[])
        .cluster().read_whole().files(&["clusterrolebindings"]),
    kind("coordination.k8s.io/v1", "Lease", "leases", "lease", &[]).files(&["leases"]),
    kind("node.k8s.io/v1", "RuntimeClass", "runtimeclasses", "runtimeclass", &[]).cluster(),
    kind("kubelet.config.k8s.io/v1beta1", "KubeletConfiguration", "", "kubeletconfiguration", &[]).cluster(),
    kind(KUEUE, "ProvisioningRequestConfig", "provisioningrequestconfigs", "provisioningrequestconfig", &["prc"]).cluster(),
    kind(KUEUE, "MultiKueueConfig", "multikueueconfigs", "multikueueconfig", &["mkconf"]).cluster(),
    kind(KUEUE, "MultiKueueCluster", "multikueueclusters", "multikueuecluster", &["mkc"]).cluster(),
    kind(KUEUE, "Topology", "topologies", "topology", &["topo"]).cluster(),
    kind("config.openshift.io/v1", "ClusterVersion", "clusterversions", "clusterversion", &[]).cluster().files(&["clusterversions"]),
    kind("config.openshift.io/v1", "ClusterOperator", "clusteroperators", "clusteroperator", &["co"])
        .cluster().files(&["clusteroperators", "clusteroperator"]),
    kind("config.openshift.io/v1", "Infrastructure", "infrastructures", "infrastructure", &[]).cluster(),
    kind("machineconfiguration.openshift.io/v1", "MachineConfigPool", "machineconfigpools", "machineconfigpool", &["mcp"])
        .cluster().files(&["machineconfigpools"]),
    kind("machineconfiguration.openshift.io/v1", "MachineConfig", "machineconfigs", "machineconfig", &["mc"]).cluster(),
    kind("machineconfiguration.openshift.io/v1", "KubeletConfig", "kubeletconfigs", "kubeletconfig", &[])
        .cluster().files(&["kubeletconfigs"]).known(Path),
    kind("performance.openshift.io/v2", "PerformanceProfile", "performanceprofiles", "performanceprofile", &[])
        .cluster().files(&["performanceprofiles"]).known(Path),
    kind("topology.node.k8s.io/v1alpha2", "NodeResourceTopology", "noderesourcetopologies", "noderesourcetopology", &["node-res-topo"])
        .cluster().files(&["noderesourcetopologies"]).known(Path),
];

/// The row of `kind` (no two rows share a kind): asked on every lookup of objects by
/// kind, so from an index built once.
pub fn by_kind(kind: &str) -> Option<&'static KindInfo> {
    static INDEX: OnceLock<foldhash::HashMap<&'static str, &'static KindInfo>> = OnceLock::new();
    INDEX
        .get_or_init(|| KINDS.iter().map(|k| (k.kind, k)).collect())
        .get(kind)
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn rows_are_consistent() {
        let mut kinds = HashSet::new();
        let mut words = HashSet::new();
        for k in KINDS {
            assert!(kinds.insert(k.kind), "{} twice", k.kind);
            assert_eq!(k.singular, k.kind.to_ascii_lowercase(), "{}", k.kind);
            assert!(!k.read_whole || !k.namespaced, "{}", k.kind);
            for w in k.path_words {
                assert!(words.insert(*w), "path word {w} twice");
            }
            assert!(
                k.path_words.first().is_none_or(|w| *w == k.plural),
                "{}",
                k.kind
            );
        }
        // The explorer's names resolve to one kind each.
        let mut names = HashSet::new();
        for k in KINDS {
            if let Some(short) = k.kubectl_short_names() {
                let mut own: HashSet<&str> = short.iter().copied().collect();
                own.extend([k.singular, k.plural]);
                for n in own {
                    assert!(names.insert(n), "{n} names two kinds");
                }
            }
        }
        assert_eq!(by_kind("Job").map(KindInfo::group), Some("batch"));
        assert_eq!(by_kind("Pod").map(KindInfo::version), Some("v1"));
        assert_eq!(by_kind("Frobnicator"), None);
    }

    #[test]
    fn all_is_kubectl_get_all() {
        let all: Vec<&str> = KINDS
            .iter()
            .filter(|k| k.categories.contains(&"all"))
            .map(|k| k.plural)
            .collect();
        assert_eq!(
            all,
            [
                "pods",
                "services",
                "deployments",
                "replicasets",
                "replicationcontrollers",
                "statefulsets",
                "daemonsets",
                "jobs",
                "cronjobs",
                "horizontalpodautoscalers"
            ]
        );
    }
}

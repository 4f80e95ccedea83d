//! Bundle layouts: which tool wrote the bundle, which files hold objects, which are
//! logs or metadata, and what kind a kind-less object has given where it sits.

use serde::Serialize;

/// The tool that produced an input, reported as `inputs[].layout`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    MustGather,
    Troubleshoot,
    ClusterInfoDump,
    Insights,
    KubectlDump,
}

impl Layout {
    pub const ALL: [Layout; 5] = [
        Layout::MustGather,
        Layout::Troubleshoot,
        Layout::ClusterInfoDump,
        Layout::Insights,
        Layout::KubectlDump,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Layout::MustGather => "must-gather",
            Layout::Troubleshoot => "troubleshoot",
            Layout::ClusterInfoDump => "cluster-info-dump",
            Layout::Insights => "insights",
            Layout::KubectlDump => "kubectl-dump",
        }
    }
}

/// Decides the layout from the paths of an input's files (archive-relative).
pub fn detect<'a>(paths: impl Iterator<Item = &'a str>) -> Layout {
    let (mut mg, mut ts, mut ins, mut cid) = (0, 0, 0, 0);
    for p in paths {
        let comps: Vec<&str> = p.split('/').collect();
        let has = |c: &str| comps.contains(&c);
        if has("cluster-resources")
            || comps
                .first()
                .is_some_and(|c| c.starts_with("support-bundle"))
            || comps.last() == Some(&"analysis.json")
        {
            ts += 1;
        }
        if has("insights-operator")
            || p.contains("config/clusteroperator/")
            || p.ends_with("config/version.json")
        {
            ins += 1;
        }
        if has("cluster-scoped-resources") || (has("namespaces") && is_mg_group_path(&comps)) {
            mg += 1;
        }
        if comps.last() == Some(&"timestamp") {
            mg += 1;
        }
        // `kubectl cluster-info dump --output-directory`: NS/pods.json, NS/events.json…
        if comps.len() == 2
            && matches!(comps[1], "pods.json" | "events.json" | "replicasets.json")
            && !has("cluster-resources")
        {
            cid += 1;
        }
    }
    if ins > 0 {
        Layout::Insights
    } else if ts > 0 && ts >= mg {
        Layout::Troubleshoot
    } else if mg > 0 {
        Layout::MustGather
    } else if cid > 0 {
        Layout::ClusterInfoDump
    } else {
        Layout::KubectlDump
    }
}

/// `namespaces/<ns>/<group>/<plural>.yaml`, must-gather's per-namespace resource files.
fn is_mg_group_path(comps: &[&str]) -> bool {
    comps
        .iter()
        .position(|c| *c == "namespaces")
        .is_some_and(|i| comps.len() == i + 4 && comps[i + 3].ends_with(".yaml"))
}

/// What a file is, before reading it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileClass {
    /// Should hold Kubernetes objects: failing to parse is a problem.
    Objects,
    /// May hold objects (collector output, extension-less files): loaded when it does,
    /// otherwise counted as skipped.
    MaybeObjects,
    /// A container log.
    Log(LogKey),
    /// must-gather `timestamp`: gives the snapshot time.
    Timestamp,
    /// troubleshoot `cluster-info/cluster_version.json`.
    ClusterVersion,
    /// A known non-object file (logs without a pod, analysis.json, version.yaml, DNS…).
    Skip,
}

/// A container log's identity.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct LogKey {
    pub namespace: String,
    pub pod: String,
    pub container: String,
    pub previous: bool,
}

const SKIP_DIRS: &[&str] = &[
    "auth-cani-list",
    "dns",
    "goldpinger",
    "execution-data",
    "collectd",
    "secrets-errors",
    "collector-errors",
    "host_service_logs",
    "network_logs",
    "sysinfo",
    "metrics",
    "aggregated",
];

/// Classifies one file by its layout and path (archive-relative, `!/` for nested).
pub fn classify(layout: Layout, path: &str) -> FileClass {
    let inner = path.rsplit("!/").next().unwrap_or(path);
    let comps: Vec<&str> = inner.split('/').filter(|c| !c.is_empty()).collect();
    let Some(file) = comps.last().copied() else {
        return FileClass::Skip;
    };
    if let Some(key) = log_key(layout, &comps) {
        return FileClass::Log(key);
    }
    if file == "timestamp" && layout == Layout::MustGather {
        return FileClass::Timestamp;
    }
    if file == "cluster_version.json" && comps.contains(&"cluster-info") {
        return FileClass::ClusterVersion;
    }
    let lower = file.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    let object_ext = matches!(ext, "yaml" | "yml" | "json");
    if !object_ext && !lower.contains('.') {
        // Extension-less files: insights and pfpstatus keep JSON this way.
        return FileClass::MaybeObjects;
    }
    if !object_ext {
        return FileClass::Skip;
    }
    if comps.iter().any(|c| SKIP_DIRS.contains(c))
        || matches!(
            file,
            "analysis.json" | "version.yaml" | "errors.json" | "events-errors.json"
        )
        || (layout == Layout::Troubleshoot
            && matches!(
                file,
                "groups.json" | "resources.json" | "cluster_version.json"
            ))
        || lower.ends_with("-errors.json")
    {
        return FileClass::Skip;
    }
    match layout {
        Layout::Troubleshoot => {
            if comps.contains(&"cluster-resources") {
                FileClass::Objects
            } else {
                FileClass::MaybeObjects
            }
        }
        Layout::MustGather => {
            if comps.contains(&"namespaces") || comps.contains(&"cluster-scoped-resources") {
                FileClass::Objects
            } else {
                FileClass::MaybeObjects
            }
        }
        Layout::Insights => {
            if file.starts_with("events") || comps.contains(&"events") {
                // Insights' compact events carry no involvedObject: nothing to attach them to.
                FileClass::Skip
            } else {
                FileClass::MaybeObjects
            }
        }
        Layout::ClusterInfoDump | Layout::KubectlDump => FileClass::Objects,
    }
}

/// Whether a file can be parsed before the layout is known (an archive member, as it is
/// inflated): some layout reads objects from it, and none reads it as a log, a timestamp or
/// a version. A layout that skips it only makes the parse wasted, never wrong.
pub fn parse_early(path: &str) -> bool {
    let classes = Layout::ALL.map(|l| classify(l, path));
    classes
        .iter()
        .any(|c| matches!(c, FileClass::Objects | FileClass::MaybeObjects))
        && classes.iter().all(|c| {
            matches!(
                c,
                FileClass::Objects | FileClass::MaybeObjects | FileClass::Skip
            )
        })
}

fn log_key(layout: Layout, comps: &[&str]) -> Option<LogKey> {
    let n = comps.len();
    let file = comps[n - 1];
    // must-gather: namespaces/NS/pods/POD/CONTAINER/CONTAINER/logs/{current,previous}[.insecure].log
    if n >= 7 && comps[n - 2] == "logs" && comps[n - 6] == "pods" && file.ends_with(".log") {
        let previous = file.starts_with("previous");
        if file.starts_with("current") || previous {
            return Some(LogKey {
                namespace: comps[n - 7].to_string(),
                pod: comps[n - 5].to_string(),
                container: comps[n - 4].to_string(),
                previous,
            });
        }
    }
    // troubleshoot: cluster-resources/pods/logs/NS/POD/CONTAINER[-previous].log
    if layout == Layout::Troubleshoot
        && n >= 6
        && comps[n - 4] == "logs"
        && comps[n - 5] == "pods"
        && let Some(stem) = file.strip_suffix(".log")
    {
        let (container, previous) = match stem.strip_suffix("-previous") {
            Some(c) => (c, true),
            None => (stem, false),
        };
        return Some(LogKey {
            namespace: comps[n - 3].to_string(),
            pod: comps[n - 2].to_string(),
            container: container.to_string(),
            previous,
        });
    }
    // cluster-info dump: NS/POD/logs.txt (one container, unnamed)
    if layout == Layout::ClusterInfoDump && n >= 3 && file == "logs.txt" {
        return Some(LogKey {
            namespace: comps[n - 3].to_string(),
            pod: comps[n - 2].to_string(),
            container: String::new(),
            previous: false,
        });
    }
    None
}

/// (plural or path word, apiVersion, kind) for the resources bundles write by name.
const RESOURCES: &[(&str, &str, &str)] = &[
    ("pods", "v1", "Pod"),
    ("pod", "v1", "Pod"),
    ("nodes", "v1", "Node"),
    ("node", "v1", "Node"),
    ("events", "v1", "Event"),
    ("namespaces", "v1", "Namespace"),
    ("services", "v1", "Service"),
    ("endpoints", "v1", "Endpoints"),
    ("configmaps", "v1", "ConfigMap"),
    ("secrets", "v1", "Secret"),
    ("serviceaccounts", "v1", "ServiceAccount"),
    ("persistentvolumeclaims", "v1", "PersistentVolumeClaim"),
    ("pvcs", "v1", "PersistentVolumeClaim"),
    ("persistentvolumes", "v1", "PersistentVolume"),
    ("pvs", "v1", "PersistentVolume"),
    ("resourcequotas", "v1", "ResourceQuota"),
    ("resource-quotas", "v1", "ResourceQuota"),
    ("resource-quota", "v1", "ResourceQuota"),
    ("limitranges", "v1", "LimitRange"),
    ("replicationcontrollers", "v1", "ReplicationController"),
    ("deployments", "apps/v1", "Deployment"),
    ("replicasets", "apps/v1", "ReplicaSet"),
    ("statefulsets", "apps/v1", "StatefulSet"),
    ("daemonsets", "apps/v1", "DaemonSet"),
    ("jobs", "batch/v1", "Job"),
    ("cronjobs", "batch/v1", "CronJob"),
    ("endpointslices", "discovery.k8s.io/v1", "EndpointSlice"),
    ("ingresses", "networking.k8s.io/v1", "Ingress"),
    ("ingress", "networking.k8s.io/v1", "Ingress"),
    ("ingressclasses", "networking.k8s.io/v1", "IngressClass"),
    ("networkpolicies", "networking.k8s.io/v1", "NetworkPolicy"),
    ("network-policy", "networking.k8s.io/v1", "NetworkPolicy"),
    ("storageclasses", "storage.k8s.io/v1", "StorageClass"),
    ("storage-classes", "storage.k8s.io/v1", "StorageClass"),
    ("poddisruptionbudgets", "policy/v1", "PodDisruptionBudget"),
    ("pod-disruption-budgets", "policy/v1", "PodDisruptionBudget"),
    ("priorityclasses", "scheduling.k8s.io/v1", "PriorityClass"),
    ("leases", "coordination.k8s.io/v1", "Lease"),
    ("roles", "rbac.authorization.k8s.io/v1", "Role"),
    (
        "rolebindings",
        "rbac.authorization.k8s.io/v1",
        "RoleBinding",
    ),
    (
        "clusterroles",
        "rbac.authorization.k8s.io/v1",
        "ClusterRole",
    ),
    (
        "clusterrolebindings",
        "rbac.authorization.k8s.io/v1",
        "ClusterRoleBinding",
    ),
    ("workloads", "kueue.x-k8s.io/v1beta1", "Workload"),
    ("localqueues", "kueue.x-k8s.io/v1beta1", "LocalQueue"),
    ("clusterqueues", "kueue.x-k8s.io/v1beta1", "ClusterQueue"),
    (
        "resourceflavors",
        "kueue.x-k8s.io/v1beta1",
        "ResourceFlavor",
    ),
    ("cohorts", "kueue.x-k8s.io/v1alpha1", "Cohort"),
    (
        "admissionchecks",
        "kueue.x-k8s.io/v1beta1",
        "AdmissionCheck",
    ),
    (
        "workloadpriorityclasses",
        "kueue.x-k8s.io/v1beta1",
        "WorkloadPriorityClass",
    ),
    (
        "customresourcedefinitions",
        "apiextensions.k8s.io/v1",
        "CustomResourceDefinition",
    ),
    (
        "custom-resource-definitions",
        "apiextensions.k8s.io/v1",
        "CustomResourceDefinition",
    ),
    (
        "noderesourcetopologies",
        "topology.node.k8s.io/v1alpha2",
        "NodeResourceTopology",
    ),
    (
        "clusteroperator",
        "config.openshift.io/v1",
        "ClusterOperator",
    ),
    (
        "clusteroperators",
        "config.openshift.io/v1",
        "ClusterOperator",
    ),
    (
        "machineconfigpools",
        "machineconfiguration.openshift.io/v1",
        "MachineConfigPool",
    ),
    (
        "kubeletconfigs",
        "machineconfiguration.openshift.io/v1",
        "KubeletConfig",
    ),
    (
        "performanceprofiles",
        "performance.openshift.io/v2",
        "PerformanceProfile",
    ),
];

/// The kind (and default apiVersion) a path implies for objects that do not say.
/// Looks at the file's stem first, then at its parent folders, nearest first
/// (`namespaces/ns/core/pods.yaml`, `cluster-resources/pods/ns.json`,
/// `config/pod/ns/name.json`, `namespaces/ns/pods/p/p.yaml`).
pub fn kind_from_path(path: &str) -> Option<(&'static str, &'static str)> {
    let inner = path.rsplit("!/").next().unwrap_or(path);
    let mut comps: Vec<&str> = inner.split('/').filter(|c| !c.is_empty()).collect();
    let file = comps.pop()?;
    let stem = file.split('.').next().unwrap_or(file);
    let lookup = |word: &str| {
        RESOURCES
            .iter()
            .find(|(w, _, _)| *w == word)
            .map(|(_, v, k)| (*v, *k))
    };
    if let Some(found) = lookup(stem) {
        return Some(found);
    }
    // Only the two nearest folders: deeper ones describe the bundle, not the object.
    comps.iter().rev().take(3).find_map(|c| lookup(c))
}

/// Node name a kubelet `configz` file belongs to, from its path
/// (`nodes/<node>/…`, or `<node>.json`, `<node>_configz.json`, `configz-<node>.json`).
pub fn node_from_path(path: &str) -> Option<String> {
    let inner = path.rsplit("!/").next().unwrap_or(path);
    let comps: Vec<&str> = inner.split('/').filter(|c| !c.is_empty()).collect();
    if let Some(i) = comps.iter().position(|c| *c == "nodes")
        && i + 2 < comps.len()
    {
        return Some(comps[i + 1].to_string());
    }
    let file = comps.last()?;
    let stem = file
        .strip_suffix(".json")
        .or_else(|| file.strip_suffix(".yaml"))
        .unwrap_or(file);
    let stem = stem
        .trim_end_matches("_configz")
        .trim_end_matches("-configz")
        .trim_end_matches(".configz")
        .trim_start_matches("configz-")
        .trim_start_matches("configz_");
    (!stem.is_empty() && stem != "configz" && stem != "kubelet").then(|| stem.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_layouts() {
        let mg = [
            "must-gather.local.1/img/timestamp",
            "must-gather.local.1/img/namespaces/demo/core/pods.yaml",
        ];
        assert_eq!(detect(mg.iter().copied()), Layout::MustGather);
        let ts = [
            "support-bundle/cluster-resources/pods/demo.json",
            "support-bundle/version.yaml",
        ];
        assert_eq!(detect(ts.iter().copied()), Layout::Troubleshoot);
        let ins = ["config/clusteroperator/dns.json", "config/pod/ns/p.json"];
        assert_eq!(detect(ins.iter().copied()), Layout::Insights);
        let cid = [
            "nodes.json",
            "kube-system/pods.json",
            "kube-system/events.json",
        ];
        assert_eq!(detect(["nodes.json"].iter().copied()), Layout::KubectlDump);
        assert_eq!(detect(cid.iter().copied()), Layout::ClusterInfoDump);
        assert_eq!(detect(["pods.yaml"].iter().copied()), Layout::KubectlDump);
    }

    #[test]
    fn parses_early_only_what_no_layout_reads_otherwise() {
        for path in [
            "namespaces/a/core/pods.yaml",
            "cluster-resources/pods/a.json",
            "case.zip!/mg/cluster-scoped-resources/core/nodes.yaml",
            "extra/notes.yaml",
        ] {
            assert!(parse_early(path), "{path}");
        }
        for path in [
            "mg/timestamp",
            "cluster-info/cluster_version.json",
            "mg/namespaces/a/pods/p/c/c/logs/current.log",
            "cluster-resources/pods/logs/a/p/c-previous.log",
            "a/p/logs.txt",
            "analysis.json",
            "mg/host_service_logs/kubelet.yaml",
        ] {
            assert!(!parse_early(path), "{path}");
        }
    }

    #[test]
    fn classifies_logs() {
        assert_eq!(
            classify(
                Layout::MustGather,
                "mg/namespaces/demo/pods/p/c/c/logs/previous.log"
            ),
            FileClass::Log(LogKey {
                namespace: "demo".into(),
                pod: "p".into(),
                container: "c".into(),
                previous: true
            })
        );
        assert_eq!(
            classify(
                Layout::Troubleshoot,
                "sb/cluster-resources/pods/logs/demo/p/web-previous.log"
            ),
            FileClass::Log(LogKey {
                namespace: "demo".into(),
                pod: "p".into(),
                container: "web".into(),
                previous: true
            })
        );
        assert_eq!(
            classify(Layout::Troubleshoot, "sb/analysis.json"),
            FileClass::Skip
        );
        assert_eq!(
            classify(Layout::Troubleshoot, "sb/dns/debug.json"),
            FileClass::Skip
        );
        assert_eq!(
            classify(Layout::Troubleshoot, "sb/cluster-resources/pods/demo.json"),
            FileClass::Objects
        );
        assert_eq!(
            classify(Layout::Troubleshoot, "sb/mysql/mysql-example.json"),
            FileClass::MaybeObjects
        );
    }

    #[test]
    fn infers_kind_from_path() {
        assert_eq!(
            kind_from_path("mg/namespaces/demo/core/pods.yaml"),
            Some(("v1", "Pod"))
        );
        assert_eq!(
            kind_from_path("sb/cluster-resources/pods/demo.json"),
            Some(("v1", "Pod"))
        );
        assert_eq!(
            kind_from_path("x/config/pod/openshift-etcd/etcd-0.json"),
            Some(("v1", "Pod"))
        );
        assert_eq!(
            kind_from_path("mg/namespaces/ml/kueue.x-k8s.io/workloads.yaml"),
            Some(("kueue.x-k8s.io/v1beta1", "Workload"))
        );
        assert_eq!(kind_from_path("values.yaml"), None);
    }

    #[test]
    fn configz_node_names() {
        assert_eq!(
            node_from_path("mg/nodes/node-a/configz.json").as_deref(),
            Some("node-a")
        );
        assert_eq!(
            node_from_path("node-b_configz.json").as_deref(),
            Some("node-b")
        );
    }
}

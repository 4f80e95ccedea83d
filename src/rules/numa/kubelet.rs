//! The kubelet resource-manager settings of each node, from every place a bundle keeps
//! them (reference §5.5, §5.6), with the object each came from so findings can cite it.
//!
//! Sources, most authoritative first:
//! 1. `KubeletConfiguration` objects named after their node: `configz` output
//!    (`{"kubeletconfig": {…}}`) and `kind: KubeletConfiguration` files (ingest names both
//!    after the node their path names);
//! 2. OpenShift `KubeletConfig` (`spec.kubeletConfig`), applied to the nodes of the
//!    `MachineConfigPool`s its `spec.machineConfigPoolSelector` selects (the pool's
//!    `spec.nodeSelector` picks the nodes; without pools in the bundle, the conventional
//!    `pools.operator.machineconfiguration.openshift.io/<pool>` label is read as the
//!    `node-role.kubernetes.io/<pool>` role); the newest wins when several match;
//! 3. OpenShift `PerformanceProfile` (`spec.nodeSelector`): the Node Tuning Operator renders
//!    `cpuManagerPolicy: static`, `reservedSystemCPUs` from `spec.cpu.reserved`,
//!    `topologyManagerPolicy` from `spec.numa.topologyPolicy` (default `best-effort`) and
//!    `memoryManagerPolicy: Static` for `restricted`/`single-numa-node`; the
//!    `kubeletconfig.experimental` annotation overrides fields.
//!
//! Feature gates come from the configuration's `featureGates`, else an OpenShift
//! `FeatureGate` object's status, else the gate's default for the node's kubelet version
//! (§5.1; the 1.37 default of `PodLevelResourceManagers` is disputed and stays unknown).
//!
//! Fields are read from the raw JSON by hand so that an odd value (a string where a bool
//! is expected) loses that field, not the whole configuration.

use crate::kube::meta::{LabelSelector, Labels};
use crate::kube::time::parse_timestamp;
use crate::rules::Evidence;
use crate::rules::evidence;
use crate::rules::pod_findings::note;
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

pub const GATE_POD_LEVEL_RESOURCES: &str = "PodLevelResources";
pub const GATE_POD_LEVEL_RESOURCE_MANAGERS: &str = "PodLevelResourceManagers";

/// The topology manager policies pod-level resource management works with.
pub const POD_LEVEL_POLICIES: &[&str] = &["single-numa-node", "restricted", "best-effort"];

/// Resource-manager settings of one kubelet.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KubeletSettings {
    pub cpu_manager_policy: Option<String>,
    pub cpu_manager_policy_options: BTreeMap<String, String>,
    pub memory_manager_policy: Option<String>,
    pub topology_manager_policy: Option<String>,
    pub topology_manager_scope: Option<String>,
    pub topology_manager_policy_options: BTreeMap<String, String>,
    pub feature_gates: BTreeMap<String, bool>,
    pub reserved_system_cpus: Option<String>,
}

impl KubeletSettings {
    /// Reads the fields of a `KubeletConfiguration` (or `spec.kubeletConfig`) object.
    pub fn from_value(v: &Value) -> KubeletSettings {
        let text = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        let strings = |k: &str| -> BTreeMap<String, String> {
            v.get(k)
                .and_then(Value::as_object)
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| {
                            let s = match v {
                                Value::String(s) => s.clone(),
                                other => other.to_string(),
                            };
                            (k.clone(), s)
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let feature_gates = v
            .get("featureGates")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| {
                        let b = match v {
                            Value::Bool(b) => Some(*b),
                            Value::String(s) => s.trim().parse::<bool>().ok(),
                            _ => None,
                        };
                        b.map(|b| (k.clone(), b))
                    })
                    .collect()
            })
            .unwrap_or_default();
        KubeletSettings {
            cpu_manager_policy: text("cpuManagerPolicy"),
            cpu_manager_policy_options: strings("cpuManagerPolicyOptions"),
            memory_manager_policy: text("memoryManagerPolicy"),
            topology_manager_policy: text("topologyManagerPolicy"),
            topology_manager_scope: text("topologyManagerScope"),
            topology_manager_policy_options: strings("topologyManagerPolicyOptions"),
            feature_gates,
            reserved_system_cpus: text("reservedSystemCPUs"),
        }
    }

    /// Later settings replace earlier ones field by field (an annotation over a profile).
    fn overlay(&mut self, other: &KubeletSettings) {
        macro_rules! take {
            ($f:ident) => {
                if other.$f.is_some() {
                    self.$f = other.$f.clone();
                }
            };
        }
        take!(cpu_manager_policy);
        take!(memory_manager_policy);
        take!(topology_manager_policy);
        take!(topology_manager_scope);
        take!(reserved_system_cpus);
        self.cpu_manager_policy_options
            .extend(other.cpu_manager_policy_options.clone());
        self.topology_manager_policy_options
            .extend(other.topology_manager_policy_options.clone());
        self.feature_gates.extend(other.feature_gates.clone());
    }

    /// `cpuManagerPolicy: static` (default `none`).
    pub fn cpu_static(&self) -> bool {
        self.cpu_manager_policy
            .as_deref()
            .is_some_and(|p| p.eq_ignore_ascii_case("static"))
    }

    /// `memoryManagerPolicy: Static` (default `None`).
    pub fn memory_static(&self) -> bool {
        self.memory_manager_policy
            .as_deref()
            .is_some_and(|p| p.eq_ignore_ascii_case("static"))
    }

    /// `topologyManagerScope`, default `container`.
    pub fn scope(&self) -> &str {
        self.topology_manager_scope
            .as_deref()
            .unwrap_or("container")
    }

    /// `topologyManagerPolicy`, default `none`.
    pub fn policy(&self) -> &str {
        self.topology_manager_policy.as_deref().unwrap_or("none")
    }

    /// The CPU manager option `full-pcpus-only` is on.
    pub fn full_pcpus_only(&self) -> bool {
        self.cpu_manager_policy_options
            .get("full-pcpus-only")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
    }

    /// `cpuManagerPolicy=static, memoryManagerPolicy=Static, topologyManagerPolicy=…, topologyManagerScope=…`
    /// (unset fields shown with their defaults).
    pub fn describe(&self) -> String {
        format!(
            "cpuManagerPolicy={}, memoryManagerPolicy={}, topologyManagerPolicy={}, topologyManagerScope={}",
            self.cpu_manager_policy.as_deref().unwrap_or("none"),
            self.memory_manager_policy.as_deref().unwrap_or("None"),
            self.policy(),
            self.scope()
        )
    }
}

/// Where a node's settings came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// A `KubeletConfiguration` named after the node (configz or file).
    KubeletConfiguration,
    /// An OpenShift `KubeletConfig` through the named MachineConfigPool.
    KubeletConfig { pool: String, inferred: bool },
    /// An OpenShift `PerformanceProfile` whose nodeSelector matches the node.
    PerformanceProfile,
}

/// The settings one node runs with, and their provenance.
#[derive(Clone, Debug)]
pub struct NodeKubelet {
    pub node: String,
    pub settings: KubeletSettings,
    pub source: ObjectId,
    pub kind: SourceKind,
    /// Other sources that also match the node (lower priority or older).
    pub others: Vec<ObjectId>,
    /// Kubelet version from the Node object.
    pub version: Option<String>,
    /// The node runs Windows (`status.nodeInfo.operatingSystem` or `kubernetes.io/os`).
    pub windows: bool,
}

/// The state of a feature gate on one kubelet, and how we know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gate {
    On(String),
    Off(String),
    Unknown(String),
}

impl Gate {
    pub fn is_on(&self) -> bool {
        matches!(self, Gate::On(_))
    }
    pub fn is_off(&self) -> bool {
        matches!(self, Gate::Off(_))
    }
    pub fn how(&self) -> &str {
        match self {
            Gate::On(s) | Gate::Off(s) | Gate::Unknown(s) => s,
        }
    }
}

impl NodeKubelet {
    /// Path of the settings inside the source object (for `Snapshot::locate`).
    fn prefix(&self) -> &'static [&'static str] {
        match self.kind {
            SourceKind::KubeletConfiguration => &[],
            SourceKind::KubeletConfig { .. } => &["spec", "kubeletConfig"],
            SourceKind::PerformanceProfile => &["spec"],
        }
    }

    /// "KubeletConfiguration node-1" / "KubeletConfig cpu-pinning (pool worker-cnf)" / "PerformanceProfile p".
    pub fn source_name(&self, snap: &Snapshot) -> String {
        let o = snap.object(self.source);
        match &self.kind {
            SourceKind::KubeletConfiguration => format!("KubeletConfiguration {}", o.name),
            SourceKind::KubeletConfig { pool, inferred } => format!(
                "KubeletConfig {} (MachineConfigPool {pool}{})",
                o.name,
                if *inferred {
                    ", inferred from the pool label; no MachineConfigPools in the bundle"
                } else {
                    ""
                }
            ),
            SourceKind::PerformanceProfile => format!("PerformanceProfile {}", o.name),
        }
    }

    /// Evidence pointing at one field of the source (`topologyManagerScope`), with the
    /// node's effective settings as the note.
    pub fn evidence(&self, snap: &Snapshot, field: &str) -> Evidence {
        self.evidence_for(snap, field, &[self.node.as_str()])
    }

    /// Like [`evidence`](Self::evidence), for several nodes sharing this source.
    pub fn evidence_for(&self, snap: &Snapshot, field: &str, nodes: &[&str]) -> Evidence {
        let mut path: Vec<&str> = self.prefix().to_vec();
        match self.kind {
            SourceKind::PerformanceProfile => path.extend(["numa", "topologyPolicy"]),
            _ => path.push(field),
        }
        let who = if nodes.len() == 1 {
            format!("node {}", nodes[0])
        } else {
            format!("nodes {}", nodes.join(", "))
        };
        let note = format!(
            "{who}: {} ({})",
            self.settings.describe(),
            self.source_name(snap)
        );
        evidence::field(snap, self.source, &path, note)
    }

    /// The effective state of a feature gate.
    pub fn gate(&self, snap: &Snapshot, ocp: &OpenShiftGates, name: &str) -> Gate {
        if let Some(b) = self.settings.feature_gates.get(name) {
            let how = format!("featureGates.{name}={b} in {}", self.source_name(snap));
            return if *b { Gate::On(how) } else { Gate::Off(how) };
        }
        if let Some((b, how)) = ocp.get(name) {
            return if b { Gate::On(how) } else { Gate::Off(how) };
        }
        default_gate(name, self.version.as_deref())
    }
}

/// The default of a gate for a kubelet version (reference §5.1).
pub fn default_gate(name: &str, version: Option<&str>) -> Gate {
    let Some(v) = version else {
        return Gate::Unknown(format!(
            "{name} is not set in the kubelet configuration and the node's kubelet version is unknown"
        ));
    };
    let (maj, min) = minor_of(v);
    let unset = format!("{name} is not set in the kubelet configuration");
    match name {
        GATE_POD_LEVEL_RESOURCES => {
            if maj == 1 && min >= 34 {
                Gate::On(format!("{unset}; beta and on by default in kubelet {v}"))
            } else if maj == 1 && min >= 32 {
                Gate::Off(format!("{unset}; alpha and off by default in kubelet {v}"))
            } else {
                Gate::Off(format!("{name} does not exist in kubelet {v}"))
            }
        }
        GATE_POD_LEVEL_RESOURCE_MANAGERS => {
            if maj == 1 && min >= 37 {
                Gate::Unknown(format!(
                    "{unset}; kubelet {v} has it in beta, and sources disagree whether beta is on by default"
                ))
            } else if maj == 1 && min == 36 {
                Gate::Off(format!("{unset}; alpha and off by default in kubelet {v}"))
            } else {
                Gate::Off(format!(
                    "{name} does not exist in kubelet {v} (alpha in 1.36)"
                ))
            }
        }
        _ => Gate::Unknown(unset),
    }
}

/// `v1.36.1+k3s1` → (1, 36).
fn minor_of(v: &str) -> (u32, u32) {
    let mut parts = v
        .trim_start_matches('v')
        .split(|c: char| !c.is_ascii_digit())
        .map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

/// Gates an OpenShift `FeatureGate` object lists (status per version, or the custom set).
#[derive(Default)]
pub struct OpenShiftGates {
    gates: BTreeMap<String, (bool, String)>,
}

impl OpenShiftGates {
    fn build(snap: &Snapshot) -> OpenShiftGates {
        let mut gates = BTreeMap::new();
        for &id in snap.ids_of("FeatureGate") {
            let o = snap.object(id);
            if !o.api_version.starts_with("config.openshift.io") {
                continue;
            }
            let names = |v: Option<&Value>| -> Vec<String> {
                v.and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|e| {
                                e.as_str()
                                    .or_else(|| e.get("name").and_then(Value::as_str))
                                    .map(str::to_string)
                            })
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let v = o.value();
            let mut put = |list: Option<&Value>, on: bool, where_: &str| {
                for n in names(list) {
                    gates.insert(
                        n.clone(),
                        (
                            on,
                            format!(
                                "{n} is {} in FeatureGate {} ({where_})",
                                if on { "enabled" } else { "disabled" },
                                o.name
                            ),
                        ),
                    );
                }
            };
            if let Some(list) = v.pointer("/status/featureGates").and_then(Value::as_array) {
                // The newest version listed is the one the cluster runs or moves to.
                if let Some(entry) = list.first() {
                    put(entry.get("enabled"), true, "status");
                    put(entry.get("disabled"), false, "status");
                }
            }
            put(
                v.pointer("/spec/customNoUpgrade/enabled"),
                true,
                "spec.customNoUpgrade",
            );
            put(
                v.pointer("/spec/customNoUpgrade/disabled"),
                false,
                "spec.customNoUpgrade",
            );
        }
        OpenShiftGates { gates }
    }

    fn get(&self, name: &str) -> Option<(bool, String)> {
        self.gates.get(name).cloned()
    }
}

/// Every node's kubelet settings, built once per rule run.
pub struct KubeletIndex {
    nodes: HashMap<String, NodeKubelet>,
    /// `KubeletConfiguration` objects whose name is not a node of the bundle.
    pub unattached: Vec<ObjectId>,
    pub gates: OpenShiftGates,
    /// Whether the bundle holds any kubelet configuration at all.
    pub any: bool,
}

/// Kinds that carry kubelet settings, for "which evidence is missing".
pub const SOURCE_KINDS: &[&str] = &[
    "KubeletConfiguration",
    "KubeletConfig",
    "PerformanceProfile",
];

/// A node's name, labels, kubelet version and whether it runs Windows.
type NodeMeta = (String, Labels, Option<String>, bool);

impl KubeletIndex {
    pub fn build(snap: &Snapshot) -> KubeletIndex {
        let mut nodes: HashMap<String, NodeKubelet> = HashMap::new();
        let node_meta: Vec<NodeMeta> = snap
            .nodes()
            .iter()
            .map(|(_, n)| {
                let windows = n
                    .status
                    .node_info
                    .operating_system
                    .as_deref()
                    .or(n
                        .metadata
                        .labels
                        .get("kubernetes.io/os")
                        .map(|s| s.as_str()))
                    .is_some_and(|os| os.eq_ignore_ascii_case("windows"));
                (
                    n.metadata.name.to_string(),
                    n.metadata.labels.clone(),
                    n.status.node_info.kubelet_version.clone(),
                    windows,
                )
            })
            .collect();
        let meta_of = |name: &str| node_meta.iter().find(|(n, ..)| n == name);
        let put = |nodes: &mut HashMap<String, NodeKubelet>, nk: NodeKubelet| match nodes
            .get_mut(&nk.node)
        {
            // Sources are offered most authoritative first: later ones are "others".
            Some(existing) => existing.others.push(nk.source),
            None => {
                nodes.insert(nk.node.clone(), nk);
            }
        };
        let mut unattached = Vec::new();

        // 1. KubeletConfiguration named after a node.
        for &id in snap.ids_of("KubeletConfiguration") {
            let o = snap.object(id);
            let known = meta_of(&o.name);
            let pods_use_it = !snap.pods_on_node(&o.name).is_empty();
            if known.is_none() && !pods_use_it {
                unattached.push(id);
                continue;
            }
            put(
                &mut nodes,
                NodeKubelet {
                    node: o.name.clone(),
                    settings: KubeletSettings::from_value(o.value()),
                    source: id,
                    kind: SourceKind::KubeletConfiguration,
                    others: Vec::new(),
                    version: known.and_then(|m| m.2.clone()),
                    windows: known.is_some_and(|m| m.3),
                },
            );
        }

        // 2. KubeletConfig → MachineConfigPool → nodes, newest first.
        let pools: Vec<(String, BTreeMap<String, String>, LabelSelector)> = snap
            .ids_of("MachineConfigPool")
            .iter()
            .map(|&id| {
                let v = &snap.object(id).value();
                let labels = v
                    .pointer("/metadata/labels")
                    .and_then(|l| serde_json::from_value(l.clone()).ok())
                    .unwrap_or_default();
                let sel = v
                    .pointer("/spec/nodeSelector")
                    .and_then(|s| serde_json::from_value(s.clone()).ok())
                    .unwrap_or_default();
                (snap.object(id).name.clone(), labels, sel)
            })
            .collect();
        let mut kcs: Vec<ObjectId> = snap.ids_of("KubeletConfig").to_vec();
        kcs.sort_by_key(|&id| {
            std::cmp::Reverse(
                snap.object(id)
                    .value()
                    .pointer("/metadata/creationTimestamp")
                    .and_then(Value::as_str)
                    .and_then(parse_timestamp),
            )
        });
        for id in kcs {
            let v = &snap.object(id).value();
            let Some(cfg) = v.pointer("/spec/kubeletConfig") else {
                continue;
            };
            let settings = KubeletSettings::from_value(cfg);
            let Some(selector) = v
                .pointer("/spec/machineConfigPoolSelector")
                .and_then(|s| serde_json::from_value::<LabelSelector>(s.clone()).ok())
            else {
                continue;
            };
            let mut targets: Vec<(String, LabelSelector, bool)> = pools
                .iter()
                .filter(|(_, labels, _)| selector.matches(labels))
                .map(|(name, _, sel)| (name.clone(), sel.clone(), false))
                .collect();
            if pools.is_empty() {
                // `pools.operator.machineconfiguration.openshift.io/<pool>: ""` names the
                // pool; its nodes carry `node-role.kubernetes.io/<pool>`.
                for key in selector.match_labels.keys() {
                    if let Some(pool) =
                        key.strip_prefix("pools.operator.machineconfiguration.openshift.io/")
                    {
                        let mut sel = LabelSelector::default();
                        sel.match_labels
                            .insert(format!("node-role.kubernetes.io/{pool}"), String::new());
                        targets.push((pool.to_string(), sel, true));
                    }
                }
            }
            for (pool, node_sel, inferred) in targets {
                // An empty pool selector would select every node: ignore it.
                if node_sel.match_labels.is_empty() && node_sel.match_expressions.is_empty() {
                    continue;
                }
                for (name, labels, version, windows) in &node_meta {
                    if node_sel.matches(labels) {
                        put(
                            &mut nodes,
                            NodeKubelet {
                                node: name.clone(),
                                settings: settings.clone(),
                                source: id,
                                kind: SourceKind::KubeletConfig {
                                    pool: pool.clone(),
                                    inferred,
                                },
                                others: Vec::new(),
                                version: version.clone(),
                                windows: *windows,
                            },
                        );
                    }
                }
            }
        }

        // 3. PerformanceProfile → nodeSelector.
        for &id in snap.ids_of("PerformanceProfile") {
            let v = &snap.object(id).value();
            let selector: BTreeMap<String, String> = v
                .pointer("/spec/nodeSelector")
                .and_then(|s| serde_json::from_value(s.clone()).ok())
                .unwrap_or_default();
            if selector.is_empty() {
                continue;
            }
            let settings = profile_settings(v);
            for (name, labels, version, windows) in &node_meta {
                if selector
                    .iter()
                    .all(|(k, val)| labels.get(k).map(|s| s.as_str()) == Some(val.as_str()))
                {
                    put(
                        &mut nodes,
                        NodeKubelet {
                            node: name.clone(),
                            settings: settings.clone(),
                            source: id,
                            kind: SourceKind::PerformanceProfile,
                            others: Vec::new(),
                            version: version.clone(),
                            windows: *windows,
                        },
                    );
                }
            }
        }

        let any = SOURCE_KINDS.iter().any(|k| snap.has_kind(k));
        KubeletIndex {
            nodes,
            unattached,
            gates: OpenShiftGates::build(snap),
            any,
        }
    }

    pub fn for_node(&self, node: &str) -> Option<&NodeKubelet> {
        self.nodes.get(node)
    }

    /// Every node with known settings, sorted by name.
    pub fn all(&self) -> Vec<&NodeKubelet> {
        let mut v: Vec<&NodeKubelet> = self.nodes.values().collect();
        v.sort_by(|a, b| a.node.cmp(&b.node));
        v
    }

    /// Says which evidence is missing for a node whose settings are unknown.
    pub fn missing(&self, snap: &Snapshot, node: &str) -> Evidence {
        let mut text = format!(
            "the bundle holds no kubelet configuration for node {node} (no configz or KubeletConfiguration named after it, no KubeletConfig whose MachineConfigPool selects it, no PerformanceProfile whose nodeSelector matches it)"
        );
        if !self.any {
            text = format!(
                "the bundle holds no kubelet configuration at all (no configz, KubeletConfiguration, KubeletConfig or PerformanceProfile), so node {node}'s cpuManagerPolicy, memoryManagerPolicy and topologyManager policy and scope are unknown"
            );
        } else if !self.unattached.is_empty() {
            let names: Vec<String> = self
                .unattached
                .iter()
                .map(|&id| snap.object(id).name.clone())
                .collect();
            text.push_str(&format!(
                "; KubeletConfiguration {} names no node of the bundle",
                names.join(", ")
            ));
        }
        note(text)
    }
}

/// The kubelet settings the Node Tuning Operator renders from a PerformanceProfile.
fn profile_settings(v: &Value) -> KubeletSettings {
    let policy = v
        .pointer("/spec/numa/topologyPolicy")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .unwrap_or("best-effort")
        .to_string();
    let mut s = KubeletSettings {
        cpu_manager_policy: Some("static".into()),
        memory_manager_policy: matches!(policy.as_str(), "restricted" | "single-numa-node")
            .then(|| "Static".to_string()),
        topology_manager_policy: Some(policy),
        reserved_system_cpus: v
            .pointer("/spec/cpu/reserved")
            .and_then(Value::as_str)
            .map(str::to_string),
        ..KubeletSettings::default()
    };
    if let Some(extra) = v
        .pointer("/metadata/annotations/kubeletconfig.experimental")
        .and_then(Value::as_str)
        .and_then(|s| serde_json::from_str::<Value>(s).ok())
    {
        s.overlay(&KubeletSettings::from_value(&extra));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_settings_and_survives_odd_values() {
        let s = KubeletSettings::from_value(&json!({
            "cpuManagerPolicy": "static",
            "memoryManagerPolicy": "Static",
            "topologyManagerScope": "pod",
            "topologyManagerPolicy": "single-numa-node",
            "cpuManagerPolicyOptions": {"full-pcpus-only": "true"},
            "featureGates": {"PodLevelResourceManagers": true, "PodLevelResources": "true", "Odd": 3},
            "reservedSystemCPUs": 7
        }));
        assert!(s.cpu_static() && s.memory_static() && s.full_pcpus_only());
        assert_eq!(s.scope(), "pod");
        assert_eq!(s.policy(), "single-numa-node");
        assert_eq!(s.feature_gates.len(), 2, "non-bool gates are dropped");
        assert_eq!(
            s.reserved_system_cpus, None,
            "a number is not a cpu list string"
        );
        let d = KubeletSettings::from_value(&json!("not an object"));
        assert_eq!(d.scope(), "container");
        assert_eq!(d.policy(), "none");
        assert!(!d.cpu_static());
    }

    #[test]
    fn profile_rendering() {
        let p = json!({
            "metadata": {"annotations": {"kubeletconfig.experimental": "{\"topologyManagerScope\": \"pod\"}"}},
            "spec": {"cpu": {"reserved": "0-1", "isolated": "2-15"}, "numa": {"topologyPolicy": "single-numa-node"}}
        });
        let s = profile_settings(&p);
        assert!(s.cpu_static() && s.memory_static());
        assert_eq!(s.scope(), "pod");
        assert_eq!(s.reserved_system_cpus.as_deref(), Some("0-1"));
        let s = profile_settings(&json!({"spec": {}}));
        assert_eq!(s.policy(), "best-effort");
        assert!(!s.memory_static());
    }

    #[test]
    fn gate_defaults() {
        assert!(default_gate(GATE_POD_LEVEL_RESOURCES, Some("v1.34.2")).is_on());
        assert!(default_gate(GATE_POD_LEVEL_RESOURCES, Some("v1.33.0")).is_off());
        assert!(default_gate(GATE_POD_LEVEL_RESOURCE_MANAGERS, Some("v1.36.1")).is_off());
        assert!(matches!(
            default_gate(GATE_POD_LEVEL_RESOURCE_MANAGERS, Some("v1.37.0")),
            Gate::Unknown(_)
        ));
        assert!(default_gate(GATE_POD_LEVEL_RESOURCE_MANAGERS, Some("v1.31.2")).is_off());
        assert!(matches!(
            default_gate(GATE_POD_LEVEL_RESOURCE_MANAGERS, None),
            Gate::Unknown(_)
        ));
    }
}

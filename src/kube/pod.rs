//! Pod view: what scheduling, kubelet and readiness rules read.

use super::Str;
use super::lazy::Lazy;
use super::meta::{
    Condition, FieldAt, LabelSelector, Labels, ObjectMeta, ResourceList, UnreadField, condition,
    null_vec, unread_quantities,
};
use serde::Deserialize;
use serde_json::Value;

/// Waiting reasons of a container whose image is not there (reference §3.1).
pub const IMAGE_REASONS: &[&str] = &[
    "ErrImagePull",
    "ImagePullBackOff",
    "InvalidImageName",
    "ErrImageNeverPull",
    "ImageInspectError",
    "RegistryUnavailable",
    "SignatureValidationFailed",
];

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Pod {
    pub metadata: ObjectMeta,
    pub spec: PodSpec,
    pub status: PodStatus,
}

/// Template of a controller (Deployment, Job, …).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodTemplate {
    pub metadata: ObjectMeta,
    pub spec: PodSpec,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodSpec {
    pub node_name: Option<Str>,
    #[serde(deserialize_with = "null_vec")]
    pub containers: Vec<Container>,
    #[serde(deserialize_with = "null_vec")]
    pub init_containers: Vec<Container>,
    #[serde(deserialize_with = "null_vec")]
    pub scheduling_gates: Vec<NamedItem>,
    pub node_selector: Labels,
    #[serde(deserialize_with = "null_vec")]
    pub tolerations: Vec<Toleration>,
    pub affinity: Lazy<Option<Value>>,
    /// Pod-level `spec.resources` (PodLevelResources); boxed, as few pods set it.
    pub resources: Option<Box<Resources>>,
    pub overhead: ResourceList,
    pub priority: Option<i64>,
    pub priority_class_name: Option<Str>,
    pub scheduler_name: Option<Str>,
    pub service_account_name: Option<Str>,
    #[serde(deserialize_with = "null_vec")]
    pub image_pull_secrets: Vec<NamedItem>,
    pub volumes: Lazy<Vec<Value>>,
    #[serde(deserialize_with = "null_vec")]
    pub readiness_gates: Vec<ReadinessGate>,
    pub restart_policy: Option<Str>,
    pub os: Option<NamedItem>,
    /// `PreemptLowerPriority` (default) or `Never`.
    pub preemption_policy: Option<Str>,
    pub host_network: bool,
    pub termination_grace_period_seconds: Option<i64>,
    pub topology_spread_constraints: Lazy<Vec<Value>>,
}

impl Pod {
    /// Its quantities that do not read (see [`UnreadField`]).
    pub fn unread_quantities(&self, out: &mut Vec<UnreadField>) {
        self.spec
            .unread_quantities(|| FieldAt::default().key("spec"), out);
    }
}

impl PodSpec {
    /// Its requests, limits and overhead that do not read, as fields under `at`.
    pub fn unread_quantities(&self, at: impl Fn() -> FieldAt, out: &mut Vec<UnreadField>) {
        for (field, containers) in [
            ("containers", &self.containers),
            ("initContainers", &self.init_containers),
        ] {
            for (i, c) in containers.iter().enumerate() {
                let resources = || at().key(field).item(i, &c.name).key("resources");
                c.resources.unread_quantities(resources, out);
            }
        }
        if let Some(r) = &self.resources {
            r.unread_quantities(|| at().key("resources"), out);
        }
        unread_quantities(&self.overhead, || at().key("overhead"), out);
    }
}

impl Resources {
    fn unread_quantities(&self, at: impl Fn() -> FieldAt, out: &mut Vec<UnreadField>) {
        unread_quantities(&self.requests, || at().key("requests"), out);
        unread_quantities(&self.limits, || at().key("limits"), out);
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct NamedItem {
    pub name: Str,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ReadinessGate {
    pub condition_type: Str,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Toleration {
    pub key: Option<Str>,
    pub operator: Option<Str>,
    pub value: Option<Str>,
    pub effect: Option<Str>,
    pub toleration_seconds: Option<i64>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Resources {
    pub requests: ResourceList,
    pub limits: ResourceList,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Container {
    pub name: Str,
    #[serde(deserialize_with = "super::long::opt_str")]
    pub image: Option<Str>,
    pub resources: Resources,
    #[serde(deserialize_with = "null_vec")]
    pub ports: Vec<ContainerPort>,
    pub readiness_probe: Lazy<Option<Value>>,
    pub liveness_probe: Lazy<Option<Value>>,
    pub startup_probe: Lazy<Option<Value>>,
    /// `Always` on an init container makes it a sidecar.
    pub restart_policy: Option<Str>,
    /// `env[]` entries (`valueFrom.configMapKeyRef` / `secretKeyRef` are read by rules).
    pub env: Lazy<Vec<Value>>,
    /// `envFrom[]` entries (`configMapRef` / `secretRef`).
    pub env_from: Lazy<Vec<Value>>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerPort {
    pub name: Option<Str>,
    pub container_port: i64,
    pub protocol: Option<Str>,
    pub host_port: Option<i64>,
    #[serde(rename = "hostIP")]
    pub host_ip: Option<Str>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodStatus {
    pub phase: Option<Str>,
    #[serde(deserialize_with = "super::long::opt_str")]
    pub reason: Option<Str>,
    #[serde(deserialize_with = "super::long::opt_str")]
    pub message: Option<Str>,
    #[serde(deserialize_with = "null_vec")]
    pub conditions: Vec<Condition>,
    #[serde(deserialize_with = "null_vec")]
    pub container_statuses: Vec<ContainerStatus>,
    #[serde(deserialize_with = "null_vec")]
    pub init_container_statuses: Vec<ContainerStatus>,
    pub qos_class: Option<Str>,
    pub start_time: Option<Str>,
    pub nominated_node_name: Option<Str>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerStatus {
    pub name: Str,
    pub ready: bool,
    pub started: Option<bool>,
    pub restart_count: i64,
    #[serde(deserialize_with = "super::long::opt_str")]
    pub image: Option<Str>,
    pub state: ContainerState,
    pub last_state: ContainerState,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct ContainerState {
    // Boxed: at most one is set, and an unboxed detail is 128 bytes in every status.
    pub waiting: Option<Box<StateDetail>>,
    pub running: Option<Box<StateDetail>>,
    pub terminated: Option<Box<StateDetail>>,
}

/// Fields of `waiting`, `running` and `terminated` merged (each uses a subset).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StateDetail {
    #[serde(deserialize_with = "super::long::opt_str")]
    pub reason: Option<Str>,
    #[serde(deserialize_with = "super::long::opt_str")]
    pub message: Option<Str>,
    pub exit_code: Option<i64>,
    pub signal: Option<i64>,
    pub started_at: Option<Str>,
    pub finished_at: Option<Str>,
}

impl Pod {
    pub fn phase(&self) -> &str {
        self.status.phase.as_deref().unwrap_or("")
    }

    pub fn condition(&self, type_: &str) -> Option<&Condition> {
        condition(&self.status.conditions, type_)
    }

    /// `Ready=True`.
    pub fn is_ready(&self) -> bool {
        self.condition("Ready").is_some_and(|c| c.status == "True")
    }

    /// Neither Succeeded nor Failed: still holds its node's resources.
    pub fn is_active(&self) -> bool {
        !matches!(self.phase(), "Succeeded" | "Failed")
    }

    /// Init container statuses first (they run first), then app containers.
    pub fn all_statuses(&self) -> impl Iterator<Item = (&ContainerStatus, bool)> {
        self.status
            .init_container_statuses
            .iter()
            .map(|s| (s, true))
            .chain(self.status.container_statuses.iter().map(|s| (s, false)))
    }

    pub fn container(&self, name: &str) -> Option<&Container> {
        self.spec
            .containers
            .iter()
            .chain(self.spec.init_containers.iter())
            .find(|c| c.name == name)
    }
}

impl PodSpec {
    /// True when `selector` would match labels of a template with this spec (helper for
    /// controllers that select their pods).
    pub fn selected_by(labels: &Labels, selector: &LabelSelector) -> bool {
        selector.matches(labels)
    }
}

#[cfg(test)]
mod tests {
    /// The store keeps each pod's view in a box of its own (`snapshot::Holding`), and the
    /// allocator's size classes step from 1,024 bytes to 1,280: a view a few bytes over
    /// 1 KiB costs a quarter more for each pod of the bundle.
    #[test]
    fn a_pod_view_fits_in_a_kibibyte() {
        let size = std::mem::size_of::<super::Pod>();
        assert!(size <= 1024, "a Pod view is {size} bytes");
    }
}

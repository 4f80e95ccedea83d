//! The pod-level resource budget and how the kubelet's static CPU and Memory managers
//! split it under `topologyManagerScope: pod` (KEP-5526, reference §5.6).
//!
//! Recomputed from the pod spec exactly as `cpumanager/policy_static.go` and
//! `memorymanager/policy_static.go` (`validatePodScopeResources`) do:
//! - the pod's QoS comes from `status.qosClass` when the bundle has it, else from
//!   `spec.resources` when set (cpu and memory requests equal to limits, non-zero: Guaranteed),
//!   else from the containers;
//! - the pod budget is the pod-level request; for CPU only an integer pod-level request of a
//!   Guaranteed pod makes a bubble (otherwise nothing is checked);
//! - a container gets an exclusive slice when the pod is Guaranteed and the container itself
//!   has cpu and memory requests equal to limits (non-zero); for CPU its request must also
//!   be an integer; memory exclusivity (memory and `hugepages-*` requests) has no integer rule;
//! - standard init containers run one at a time: an exclusive one must fit in the budget
//!   minus the sidecars started before it, a shared one needs that remainder to be non-empty;
//! - sidecars (restartable init containers) and app containers run together: if any of them
//!   needs the pod shared pool and the exclusive ones use the whole budget (`>=`), the pod is
//!   rejected.
//!
//! API defaulting is applied to specs that were not defaulted (controller templates): a
//! request that is not set equals the limit.

use crate::kube::meta::ResourceList;
use crate::kube::pod::{Container, PodSpec, Resources};
use crate::kube::quantity::Quantity;
use crate::kube::requests::{display_units, is_sidecar};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qos {
    Guaranteed,
    Burstable,
    BestEffort,
}

impl Qos {
    pub fn as_str(self) -> &'static str {
        match self {
            Qos::Guaranteed => "Guaranteed",
            Qos::Burstable => "Burstable",
            Qos::BestEffort => "BestEffort",
        }
    }
    fn parse(s: &str) -> Option<Qos> {
        match s {
            "Guaranteed" => Some(Qos::Guaranteed),
            "Burstable" => Some(Qos::Burstable),
            "BestEffort" => Some(Qos::BestEffort),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Init,
    Sidecar,
    App,
}

/// One container and what it can take exclusively.
#[derive(Clone, Debug)]
pub struct Member {
    pub name: String,
    pub role: Role,
    /// cpu and memory requests equal limits, non-zero (`IsContainerEquivalentQOSGuaranteed`).
    pub guaranteed: bool,
    /// Exclusive CPUs (0: runs in a shared pool).
    pub cpus: i128,
    /// Exclusive bytes per memory resource (`memory`, `hugepages-*`); empty: shared.
    pub memory: BTreeMap<String, i128>,
    /// Why the container gets no exclusive CPUs although it has some cpu request.
    pub cpu_note: Option<String>,
}

impl Member {
    /// `spec.containers` / `spec.initContainers`.
    pub fn list(&self) -> &'static str {
        match self.role {
            Role::App => "containers",
            _ => "initContainers",
        }
    }
}

/// The pod's budget and its containers, as the resource managers see them.
#[derive(Clone, Debug)]
pub struct PodBudget {
    /// `spec.resources` sets cpu, memory or hugepages.
    pub pod_level: bool,
    pub qos: Qos,
    /// Where the QoS class comes from.
    pub qos_from: &'static str,
    /// Pod-level cpu request (limit when no request), as written.
    pub cpu_request: Option<Quantity>,
    /// CPUs of the pod bubble: the integer pod-level cpu of a Guaranteed pod, else 0.
    pub cpus: i128,
    /// Pod-level memory and hugepages requests in bytes.
    pub memory: BTreeMap<String, i128>,
    pub members: Vec<Member>,
    /// Cpu, memory and hugepages requests and limits that do not read, in words: the QoS
    /// class and the budget rest on them, so nothing is checked (see `not_eligible`).
    pub unread: Vec<String>,
}

/// Which rule of `validatePodScopeResources` a pod breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Breach {
    /// Exclusive sidecars and app containers use the whole budget while others need the pool.
    EmptyPool { shared: Vec<String> },
    /// A standard init container needs more exclusive resources than the sidecars before it leave.
    InitTooLarge { init: String, need: i128 },
    /// A standard init container needs the pool, and the sidecars before it use the whole budget.
    SharedInit { init: String },
}

/// One resource's violation, with the numbers behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// `cpu`, `memory` or `hugepages-<size>`.
    pub resource: String,
    pub budget: i128,
    /// Exclusive long-running containers counted so far (name, amount).
    pub exclusive: Vec<(String, i128)>,
    pub breach: Breach,
}

impl Violation {
    pub fn sum(&self) -> i128 {
        self.exclusive.iter().map(|(_, a)| a).sum()
    }

    fn unit(&self, v: i128) -> String {
        if self.resource == "cpu" {
            v.to_string()
        } else {
            display_units(&self.resource, v)
        }
    }

    /// The manager whose check this is.
    pub fn manager(&self) -> &'static str {
        if self.resource == "cpu" {
            "CPU"
        } else {
            "Memory"
        }
    }

    /// The kubelet's own error text for this violation (`EmptyPodSharedPoolError`).
    pub fn kubelet_text(&self) -> String {
        let cpu = self.resource == "cpu";
        match &self.breach {
            Breach::EmptyPool { .. } if cpu => "pod rejected, sum of exclusive container cpu requests equals pod budget, leaving no cpus for shared containers".to_string(),
            Breach::EmptyPool { .. } => format!(
                "pod rejected, sum of exclusive container {} requests equals pod budget, leaving no memory for shared containers",
                self.resource
            ),
            Breach::InitTooLarge { need, .. } if cpu => format!(
                "pod rejected, largest exclusive init container requests {need} cpus, but only {} available",
                self.budget - self.sum()
            ),
            Breach::InitTooLarge { need, .. } => format!(
                "pod rejected, largest exclusive init container requests {need} of {}, but only {} available",
                self.resource,
                self.budget - self.sum()
            ),
            Breach::SharedInit { .. } if cpu => {
                "pod rejected, pod has shared init containers but no cpus available for them".to_string()
            }
            Breach::SharedInit { .. } => format!(
                "pod rejected, pod has shared init containers but no {} available for them",
                self.resource
            ),
        }
    }

    /// "main-app 3 + metrics-sidecar 1 exclusive = 4" (app containers first).
    fn exclusive_sum(&self, members: &[Member]) -> String {
        let role = |n: &str| members.iter().find(|m| m.name == n).map(|m| m.role);
        let mut parts: Vec<&(String, i128)> = self.exclusive.iter().collect();
        parts.sort_by_key(|(n, _)| role(n) != Some(Role::App));
        let terms: Vec<String> = parts
            .iter()
            .map(|(n, a)| format!("{n} {}", self.unit(*a)))
            .collect();
        if terms.len() == 1 {
            format!("{} exclusive", terms[0])
        } else {
            format!(
                "{} exclusive = {}",
                terms.join(" + "),
                self.unit(self.sum())
            )
        }
    }

    /// The sentence a finding carries, e.g. "pod budget 4 cpu: main-app 3 + metrics-sidecar 1
    /// exclusive = 4, leaving 0 cpu for logging-sidecar in the pod shared pool".
    pub fn sentence(&self, members: &[Member]) -> String {
        let res = &self.resource;
        let left = (self.budget - self.sum()).max(0);
        let head = format!("pod budget {} {res}", self.unit(self.budget));
        match &self.breach {
            Breach::EmptyPool { shared } => format!(
                "{head}: {}, leaving {} {res} for {} in the pod shared pool",
                self.exclusive_sum(members),
                self.unit(left),
                shared.join(", ")
            ),
            Breach::InitTooLarge { init, need } => {
                if self.exclusive.is_empty() {
                    format!(
                        "{head}: init container {init} needs {} {res} exclusively, more than the whole budget",
                        self.unit(*need)
                    )
                } else {
                    format!(
                        "{head}: the sidecars started before init container {init} hold {}, leaving {} {res}, but {init} needs {} exclusively",
                        self.exclusive_sum(members),
                        self.unit(left),
                        self.unit(*need)
                    )
                }
            }
            Breach::SharedInit { init } => format!(
                "{head}: the sidecars started before init container {init} hold {}, leaving {} {res} for {init}, which needs the pod shared pool",
                self.exclusive_sum(members),
                self.unit(left)
            ),
        }
    }
}

/// A request with API defaulting (limit when the request is not set).
fn request(res: &Resources, name: &str) -> Option<Quantity> {
    res.requests
        .get(name)
        .or_else(|| res.limits.get(name))
        .and_then(|q| q.value)
}

fn limit(res: &Resources, name: &str) -> Option<Quantity> {
    res.limits.get(name).and_then(|q| q.value)
}

fn is_memory_resource(name: &str) -> bool {
    name == "memory" || name.starts_with("hugepages-")
}

/// `isIntegralCPUAmount`.
pub fn integral_cpu(q: Quantity) -> bool {
    q.value_ceil() * 1000 == q.milli_ceil()
}

/// `resourceQOS` over cpu and memory of one requirements block.
fn resource_qos(res: &Resources) -> Qos {
    let lists_empty = |l: &ResourceList| l.values().all(|q| q.value.is_none());
    if lists_empty(&res.requests) && lists_empty(&res.limits) {
        return Qos::BestEffort;
    }
    let mut qos = None;
    for name in ["cpu", "memory"] {
        let req = request(res, name).unwrap_or_default();
        let lim = limit(res, name).unwrap_or_default();
        if req != lim {
            return Qos::Burstable;
        }
        let best_effort = req.is_zero();
        match qos {
            None => {
                qos = Some(if best_effort {
                    Qos::BestEffort
                } else {
                    Qos::Guaranteed
                })
            }
            Some(q) if best_effort != (q == Qos::BestEffort) => return Qos::Burstable,
            _ => {}
        }
    }
    qos.unwrap_or(Qos::BestEffort)
}

/// `IsContainerEquivalentQOSGuaranteed`: cpu and memory requests equal limits, non-zero.
fn equivalent_guaranteed(res: &Resources) -> bool {
    ["cpu", "memory"].iter().all(|name| {
        let req = request(res, name).unwrap_or_default();
        !req.is_zero() && Some(req) == limit(res, name)
    })
}

/// Pod-level resources are set (`IsPodLevelResourcesSet`).
pub fn pod_level_set(spec: &PodSpec) -> bool {
    spec.resources.as_ref().is_some_and(|r| {
        r.requests
            .keys()
            .chain(r.limits.keys())
            .any(|k| k == "cpu" || is_memory_resource(k))
    })
}

impl PodBudget {
    /// Computes the budget of a pod (`status_qos` from `status.qosClass`) or a template.
    pub fn of(spec: &PodSpec, status_qos: Option<&str>) -> PodBudget {
        let pod_level = pod_level_set(spec);
        let (qos, qos_from) = match status_qos.and_then(Qos::parse) {
            Some(q) => (q, "status.qosClass"),
            None if pod_level => (
                resource_qos(spec.resources.as_ref().expect("pod-level set")),
                "spec.resources",
            ),
            None => (containers_qos(spec), "the containers' resources"),
        };
        let guaranteed = qos == Qos::Guaranteed;
        let pod_res = spec.resources.clone().unwrap_or_default();
        let cpu_request = if pod_level {
            request(&pod_res, "cpu")
        } else {
            None
        };
        let cpus = match cpu_request {
            Some(q) if guaranteed && integral_cpu(q) => q.value_ceil(),
            _ => 0,
        };
        let mut memory = BTreeMap::new();
        if pod_level {
            for name in pod_res.requests.keys().chain(pod_res.limits.keys()) {
                if is_memory_resource(name)
                    && let Some(q) = request(&pod_res, name)
                    && !q.is_zero()
                {
                    memory.insert(name.to_string(), q.value_ceil());
                }
            }
        }
        let member = |c: &Container, role: Role| -> Member {
            let eq = equivalent_guaranteed(&c.resources);
            // With pod-level resources the container itself must be "Guaranteed"; without
            // them a Guaranteed pod's containers all are.
            let eligible = guaranteed && (!pod_level || eq);
            let cpu_req = request(&c.resources, "cpu");
            let (cpus, cpu_note) = match cpu_req {
                Some(q) if eligible && integral_cpu(q) && !q.is_zero() => (q.value_ceil(), None),
                Some(q) if eligible && !q.is_zero() => (
                    0,
                    Some(format!(
                        "cpu {} is not an integer, so it runs in the shared pool",
                        q.display_for("cpu")
                    )),
                ),
                Some(q) if guaranteed && pod_level && !q.is_zero() => (
                    0,
                    Some("its cpu and memory requests do not both equal their limits, so it shares the pool".to_string()),
                ),
                _ => (0, None),
            };
            let mut mem = BTreeMap::new();
            if eligible {
                for name in c.resources.requests.keys().chain(c.resources.limits.keys()) {
                    if is_memory_resource(name)
                        && let Some(q) = request(&c.resources, name)
                        && !q.is_zero()
                    {
                        mem.insert(name.to_string(), q.value_ceil());
                    }
                }
            }
            Member {
                name: c.name.to_string(),
                role,
                guaranteed: eq,
                cpus,
                memory: mem,
                cpu_note,
            }
        };
        let members = spec
            .init_containers
            .iter()
            .map(|c| {
                member(
                    c,
                    if is_sidecar(c) {
                        Role::Sidecar
                    } else {
                        Role::Init
                    },
                )
            })
            .chain(spec.containers.iter().map(|c| member(c, Role::App)))
            .collect();
        PodBudget {
            pod_level,
            qos,
            qos_from,
            cpu_request,
            cpus,
            memory,
            members,
            unread: unread_values(spec),
        }
    }

    /// Why the pod gets no pod bubble (None: it does). `Guaranteed at pod level` and an
    /// integer pod-level CPU are the preconditions of every pod-scope rejection.
    pub fn not_eligible(&self) -> Option<String> {
        if !self.pod_level {
            return Some("it sets no pod-level spec.resources".into());
        }
        if !self.unread.is_empty() {
            return Some(format!(
                "{}, so kdiag cannot recompute its QoS class or budget",
                self.unread.join("; ")
            ));
        }
        if self.qos != Qos::Guaranteed {
            return Some(format!(
                "it is {} at pod level ({}), and only Guaranteed pods get a pod bubble",
                self.qos.as_str(),
                self.qos_from
            ));
        }
        match self.cpu_request {
            Some(q) if integral_cpu(q) && !q.is_zero() => None,
            Some(q) => Some(format!(
                "its pod-level cpu {} is not an integer, so the CPU manager makes no pod bubble",
                q.display_for("cpu")
            )),
            None => Some("it sets no pod-level cpu".into()),
        }
    }

    /// The CPU manager's check (static policy, pod scope).
    pub fn cpu_violation(&self) -> Option<Violation> {
        if self.cpus == 0 || !self.unread.is_empty() {
            return None;
        }
        let amounts: Vec<(&Member, i128)> = self.members.iter().map(|m| (m, m.cpus)).collect();
        validate("cpu", self.cpus, &amounts, |m| m.cpus > 0)
    }

    /// The Memory manager's check (Static policy, pod scope), first resource that fails.
    pub fn memory_violation(&self) -> Option<Violation> {
        if self.qos != Qos::Guaranteed || !self.pod_level || !self.unread.is_empty() {
            return None;
        }
        self.memory.iter().find_map(|(res, &budget)| {
            let amounts: Vec<(&Member, i128)> = self
                .members
                .iter()
                .map(|m| (m, m.memory.get(res).copied().unwrap_or(0)))
                .collect();
            validate(res, budget, &amounts, |m| !m.memory.is_empty())
        })
    }

    /// Both checks, CPU first (the order the kubelet's hint providers run in).
    pub fn violations(&self, cpu: bool, memory: bool) -> Vec<Violation> {
        let mut v = Vec::new();
        if !self.unread.is_empty() {
            return v;
        }
        if cpu && let Some(x) = self.cpu_violation() {
            v.push(x);
        }
        if memory && let Some(x) = self.memory_violation() {
            v.push(x);
        }
        v
    }

    /// Exclusive CPUs the pod asks for without pod-level resources (`podGuaranteedCPUs`:
    /// the larger of app + sidecars and the largest init container with the sidecars before it).
    pub fn container_cpus(&self) -> i128 {
        let (mut sidecars, mut init_max, mut apps) = (0, 0, 0);
        for m in &self.members {
            match m.role {
                Role::Sidecar => sidecars += m.cpus,
                Role::Init => init_max = init_max.max(sidecars + m.cpus),
                Role::App => apps += m.cpus,
            }
        }
        init_max.max(apps + sidecars)
    }

    /// What the pod needs aligned on one NUMA node: the bubble under pod scope with
    /// pod-level resources, else the containers' exclusive CPUs.
    pub fn aligned_cpus(&self) -> i128 {
        if self.pod_level {
            self.cpus
        } else {
            self.container_cpus()
        }
    }

    /// Exclusive memory bytes aligned (pod-level budget, else the containers').
    pub fn aligned_memory(&self) -> BTreeMap<String, i128> {
        if self.pod_level {
            return if self.qos == Qos::Guaranteed {
                self.memory.clone()
            } else {
                BTreeMap::new()
            };
        }
        let mut out: BTreeMap<String, i128> = BTreeMap::new();
        for m in self.members.iter().filter(|m| m.role != Role::Init) {
            for (k, v) in &m.memory {
                *out.entry(k.clone()).or_default() += v;
            }
        }
        out
    }

    /// "main-app 3 cpu + 3Gi memory exclusive; logging-sidecar shared" for evidence notes.
    pub fn member_note(&self, m: &Member) -> String {
        let role = match m.role {
            Role::Init => "init container",
            Role::Sidecar => "sidecar",
            Role::App => "container",
        };
        let mut parts = Vec::new();
        if m.cpus > 0 {
            parts.push(format!("{} cpu", m.cpus));
        }
        for (k, v) in &m.memory {
            parts.push(format!("{} {k}", display_units(k, *v)));
        }
        let mut s = if parts.is_empty() {
            format!(
                "{role} {}: no exclusive resources, runs in the pod shared pool",
                m.name
            )
        } else if m.cpus == 0 && self.cpus > 0 {
            format!(
                "{role} {}: exclusive {}, but shares the pool for cpu",
                m.name,
                parts.join(" + ")
            )
        } else {
            format!(
                "{role} {}: exclusive {} (requests = limits)",
                m.name,
                parts.join(" + ")
            )
        };
        if let Some(n) = &m.cpu_note {
            s.push_str(&format!("; {n}"));
        }
        s
    }

    /// "4 cpu, 4Gi memory (requests = limits: Guaranteed)".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(q) = self.cpu_request {
            parts.push(format!("{} cpu", q.display_for("cpu")));
        }
        for (k, v) in &self.memory {
            parts.push(format!("{} {k}", display_units(k, *v)));
        }
        format!(
            "pod budget {} ({} from {})",
            if parts.is_empty() {
                "none".to_string()
            } else {
                parts.join(", ")
            },
            self.qos.as_str(),
            self.qos_from
        )
    }
}

/// The cpu, memory and hugepages values of `spec` (requests and limits, pod-level and
/// per container) that do not read, in words.
fn unread_values(spec: &PodSpec) -> Vec<String> {
    let blocks = spec
        .resources
        .iter()
        .map(|r| ("the pod-level".to_owned(), &**r));
    let containers = spec.init_containers.iter().chain(&spec.containers);
    let blocks =
        blocks.chain(containers.map(|c| (format!("container {}'s", c.name), &c.resources)));
    let mut out = Vec::new();
    for (whose, res) in blocks {
        for (kind, list) in [("request", &res.requests), ("limit", &res.limits)] {
            for (name, q) in list.iter() {
                if (name == "cpu" || is_memory_resource(name)) && q.value.is_none() {
                    out.push(format!("{whose} {kind} for {name} is {}", q.unreadable()));
                }
            }
        }
    }
    out
}

/// The classic per-container QoS (no pod-level resources).
fn containers_qos(spec: &PodSpec) -> Qos {
    let mut pod: Option<Qos> = None;
    for c in spec.init_containers.iter().chain(spec.containers.iter()) {
        let q = resource_qos(&c.resources);
        if q == Qos::Burstable {
            return q;
        }
        match pod {
            None => pod = Some(q),
            Some(p) if p != q => return Qos::Burstable,
            _ => {}
        }
    }
    pod.unwrap_or(Qos::BestEffort)
}

/// `validatePodScopeResources` for one resource; `exclusive(m)` says whether the container
/// takes an exclusive slice of any resource of this manager (else it needs the pool).
fn validate(
    resource: &str,
    budget: i128,
    amounts: &[(&Member, i128)],
    exclusive: impl Fn(&Member) -> bool,
) -> Option<Violation> {
    let mut long_running: Vec<(String, i128)> = Vec::new();
    let mut shared: Vec<String> = Vec::new();
    let sum = |l: &[(String, i128)]| l.iter().map(|(_, a)| a).sum::<i128>();
    let violation = |l: &[(String, i128)], breach| Violation {
        resource: resource.to_string(),
        budget,
        exclusive: l.to_vec(),
        breach,
    };
    for (m, amount) in amounts.iter().filter(|(m, _)| m.role != Role::App) {
        if m.role == Role::Init {
            if exclusive(m) {
                if *amount > budget - sum(&long_running) {
                    return Some(violation(
                        &long_running,
                        Breach::InitTooLarge {
                            init: m.name.clone(),
                            need: *amount,
                        },
                    ));
                }
            } else if sum(&long_running) >= budget {
                return Some(violation(
                    &long_running,
                    Breach::SharedInit {
                        init: m.name.clone(),
                    },
                ));
            }
            continue;
        }
        if exclusive(m) {
            if *amount > 0 {
                long_running.push((m.name.clone(), *amount));
            }
        } else {
            shared.push(m.name.clone());
        }
    }
    for (m, amount) in amounts.iter().filter(|(m, _)| m.role == Role::App) {
        if exclusive(m) {
            if *amount > 0 {
                long_running.push((m.name.clone(), *amount));
            }
        } else {
            shared.push(m.name.clone());
        }
    }
    (!shared.is_empty() && sum(&long_running) >= budget)
        .then(|| violation(&long_running, Breach::EmptyPool { shared }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(v: serde_json::Value) -> PodSpec {
        serde_json::from_value(v).unwrap()
    }

    fn guaranteed(cpu: &str, mem: &str) -> serde_json::Value {
        json!({"requests": {"cpu": cpu, "memory": mem}, "limits": {"cpu": cpu, "memory": mem}})
    }

    /// The tutorial's empty-shared-pool pod.
    fn empty_pool() -> PodSpec {
        spec(json!({
            "resources": guaranteed("4", "4Gi"),
            "initContainers": [
                {"name": "metrics-sidecar", "restartPolicy": "Always", "resources": guaranteed("1", "1Gi")},
                {"name": "logging-sidecar", "restartPolicy": "Always"}
            ],
            "containers": [{"name": "main-app", "resources": guaranteed("3", "3Gi")}]
        }))
    }

    #[test]
    fn tutorial_empty_shared_pool() {
        let b = PodBudget::of(&empty_pool(), None);
        assert_eq!(b.qos, Qos::Guaranteed);
        assert_eq!(b.not_eligible(), None);
        assert_eq!(b.cpus, 4);
        let v = b.cpu_violation().unwrap();
        assert_eq!(
            v.sentence(&b.members),
            "pod budget 4 cpu: main-app 3 + metrics-sidecar 1 exclusive = 4, leaving 0 cpu for logging-sidecar in the pod shared pool"
        );
        assert!(
            v.kubelet_text()
                .contains("leaving no cpus for shared containers")
        );
        let m = b.memory_violation().unwrap();
        assert_eq!(m.resource, "memory");
        assert_eq!(
            m.sentence(&b.members),
            "pod budget 4Gi memory: main-app 3Gi + metrics-sidecar 1Gi exclusive = 4Gi, leaving 0 memory for logging-sidecar in the pod shared pool"
        );
        assert_eq!(b.violations(true, true).len(), 2);
        assert_eq!(b.violations(false, true).len(), 1);
    }

    #[test]
    fn tutorial_valid_examples() {
        // pod-scope-mixed: main-app 2 exclusive, two sidecars share the other 2.
        let s = spec(json!({
            "resources": guaranteed("4", "4Gi"),
            "initContainers": [
                {"name": "metrics-sidecar", "restartPolicy": "Always"},
                {"name": "logging-sidecar", "restartPolicy": "Always"}
            ],
            "containers": [{"name": "main-app", "resources": guaranteed("2", "2Gi")}]
        }));
        let b = PodBudget::of(&s, None);
        assert!(b.violations(true, true).is_empty());
        // container-scope-mixed: also fine under pod scope (2 of 4 exclusive).
        let s = spec(json!({
            "resources": guaranteed("4", "4Gi"),
            "initContainers": [{"name": "infrastructure-sidecar", "restartPolicy": "Always", "resources": guaranteed("2", "2Gi")}],
            "containers": [{"name": "worker-1"}, {"name": "worker-2"}]
        }));
        assert!(PodBudget::of(&s, None).violations(true, true).is_empty());
        // All exclusive and the budget fully used: no shared container, no rejection.
        let s = spec(json!({
            "resources": guaranteed("4", "4Gi"),
            "containers": [
                {"name": "a", "resources": guaranteed("3", "3Gi")},
                {"name": "b", "resources": guaranteed("1", "1Gi")}
            ]
        }));
        assert!(PodBudget::of(&s, None).violations(true, true).is_empty());
    }

    #[test]
    fn preconditions() {
        // Burstable at pod level: never checked.
        let s = spec(json!({
            "resources": {"requests": {"cpu": "4", "memory": "4Gi"}, "limits": {"cpu": "8", "memory": "4Gi"}},
            "containers": [{"name": "a", "resources": guaranteed("4", "2Gi")}, {"name": "b"}]
        }));
        let b = PodBudget::of(&s, None);
        assert_eq!(b.qos, Qos::Burstable);
        assert!(b.not_eligible().unwrap().contains("Burstable"));
        assert!(b.violations(true, true).is_empty());
        // Fractional pod-level cpu: no bubble, no CPU check.
        let s = spec(json!({
            "resources": guaranteed("3500m", "4Gi"),
            "containers": [{"name": "a", "resources": guaranteed("3", "4Gi")}, {"name": "b"}]
        }));
        let b = PodBudget::of(&s, None);
        assert!(b.not_eligible().unwrap().contains("3.5"));
        assert!(b.cpu_violation().is_none());
        // The status wins over the recomputation.
        let b = PodBudget::of(&empty_pool(), Some("Burstable"));
        assert!(b.violations(true, true).is_empty());
        // Limits only at pod level: requests default to them.
        let s = spec(json!({
            "resources": {"limits": {"cpu": "2", "memory": "1Gi"}},
            "containers": [{"name": "a", "resources": {"limits": {"cpu": "2", "memory": "512Mi"}}}, {"name": "b"}]
        }));
        let b = PodBudget::of(&s, None);
        assert_eq!(b.qos, Qos::Guaranteed);
        assert_eq!(b.cpu_violation().unwrap().sum(), 2);
        assert!(b.memory_violation().is_none(), "512Mi of 1Gi leaves a pool");
    }

    #[test]
    fn fractional_container_cpu_needs_the_pool() {
        // b is equivalent-Guaranteed with 500m: it shares the CPU pool but has exclusive memory.
        let s = spec(json!({
            "resources": guaranteed("2", "2Gi"),
            "containers": [
                {"name": "a", "resources": guaranteed("2", "1Gi")},
                {"name": "b", "resources": guaranteed("500m", "1Gi")}
            ]
        }));
        let b = PodBudget::of(&s, None);
        let v = b.cpu_violation().unwrap();
        assert_eq!(
            v.breach,
            Breach::EmptyPool {
                shared: vec!["b".into()]
            }
        );
        assert!(
            b.memory_violation().is_none(),
            "both have exclusive memory: nobody needs the pool"
        );
        assert!(b.members[1].cpu_note.as_deref().unwrap().contains("500m"));
    }

    #[test]
    fn init_container_rules() {
        let s = spec(json!({
            "resources": guaranteed("4", "4Gi"),
            "initContainers": [
                {"name": "proxy", "restartPolicy": "Always", "resources": guaranteed("2", "1Gi")},
                {"name": "migrate", "resources": guaranteed("3", "1Gi")}
            ],
            "containers": [{"name": "app", "resources": guaranteed("2", "3Gi")}]
        }));
        let b = PodBudget::of(&s, None);
        let v = b.cpu_violation().unwrap();
        assert_eq!(
            v.kubelet_text(),
            "pod rejected, largest exclusive init container requests 3 cpus, but only 2 available"
        );
        assert!(
            v.sentence(&b.members)
                .contains("migrate needs 3 exclusively"),
            "{}",
            v.sentence(&b.members)
        );
        let s = spec(json!({
            "resources": guaranteed("4", "4Gi"),
            "initContainers": [
                {"name": "proxy", "restartPolicy": "Always", "resources": guaranteed("4", "1Gi")},
                {"name": "setup"}
            ],
            "containers": [{"name": "app", "resources": guaranteed("2", "1Gi")}]
        }));
        let b = PodBudget::of(&s, None);
        let v = b.cpu_violation().unwrap();
        assert_eq!(
            v.breach,
            Breach::SharedInit {
                init: "setup".into()
            }
        );
        assert_eq!(
            v.kubelet_text(),
            "pod rejected, pod has shared init containers but no cpus available for them"
        );
        // An init container that finished frees its cpus: later containers may reuse them.
        let s = spec(json!({
            "resources": guaranteed("4", "4Gi"),
            "initContainers": [{"name": "warmup", "resources": guaranteed("4", "1Gi")}],
            "containers": [{"name": "app", "resources": guaranteed("2", "2Gi")}, {"name": "log"}]
        }));
        assert!(PodBudget::of(&s, None).cpu_violation().is_none());
    }

    #[test]
    fn hugepages_are_checked_per_resource() {
        let s = spec(json!({
            "resources": {"requests": {"cpu": "4", "memory": "4Gi", "hugepages-1Gi": "2Gi"},
                          "limits": {"cpu": "4", "memory": "4Gi", "hugepages-1Gi": "2Gi"}},
            "containers": [
                {"name": "dpdk", "resources": {"requests": {"cpu": "2", "memory": "1Gi", "hugepages-1Gi": "2Gi"},
                                              "limits": {"cpu": "2", "memory": "1Gi", "hugepages-1Gi": "2Gi"}}},
                {"name": "agent"}
            ]
        }));
        let b = PodBudget::of(&s, None);
        assert!(b.cpu_violation().is_none());
        let v = b.memory_violation().unwrap();
        assert_eq!(v.resource, "hugepages-1Gi");
        assert!(
            v.kubelet_text()
                .contains("hugepages-1Gi requests equals pod budget")
        );
        assert!(v.sentence(&b.members).starts_with(
            "pod budget 2Gi hugepages-1Gi: dpdk 2Gi exclusive, leaving 0 hugepages-1Gi for agent"
        ));
    }

    #[test]
    fn classic_pods_without_pod_level_resources() {
        let s = spec(json!({
            "initContainers": [{"name": "init", "resources": guaranteed("6", "1Gi")}],
            "containers": [{"name": "a", "resources": guaranteed("2", "1Gi")}, {"name": "b", "resources": guaranteed("1", "1Gi")}]
        }));
        let b = PodBudget::of(&s, None);
        assert!(!b.pod_level);
        assert_eq!(b.qos, Qos::Guaranteed);
        assert_eq!(b.container_cpus(), 6);
        assert_eq!(b.aligned_cpus(), 6);
        assert!(b.violations(true, true).is_empty());
        let s =
            spec(json!({"containers": [{"name": "a", "resources": {"requests": {"cpu": "2"}}}]}));
        let b = PodBudget::of(&s, None);
        assert_eq!(b.qos, Qos::Burstable);
        assert_eq!(b.aligned_cpus(), 0);
        assert_eq!(
            PodBudget::of(&PodSpec::default(), None).qos,
            Qos::BestEffort
        );
    }
}

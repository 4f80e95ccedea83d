//! `numa/resource-manager-rejected`: the kubelet's topology, CPU or Memory manager refused
//! a pod, explained from the pod spec and the node's kubelet settings.

use super::budget::{Breach, PodBudget, Violation};
use super::kubelet::{KubeletIndex, NodeKubelet};
use super::locate::child_evidence;
use super::topology::NodeTopology;
use crate::declare_rule;
use crate::kube::meta::ObjectRef;
use crate::kube::pod::Pod;
use crate::kube::requests::{display_units, effective_requests};
use crate::rules::evidence;
use crate::rules::pod_findings::{self, Case, note};
use crate::rules::reach::Reach;
use crate::rules::resource_manager::is_resource_manager_rejection;
use crate::rules::{Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::BTreeMap;

declare_rule! {
    /// Explains pods the kubelet's resource managers rejected (TopologyAffinityError, EmptyPodSharedPoolError, SMTAlignmentError) by recomputing the pod-level budget split.
    ///
    /// With pod-level resources (`spec.resources`) and `topologyManagerScope: pod`, the
    /// static CPU and Memory managers carve exclusive slices out of the pod budget for the
    /// containers that are themselves Guaranteed (requests = limits; integer CPU) and leave
    /// the rest as a pod shared pool for the others. When the exclusive slices use the whole
    /// budget while another long-running container needs the pool, the kubelet rejects the
    /// pod: `TopologyAffinityError` ("Pod Scope pod with pod-level resources failed admission
    /// under pod-scope topology manager") under `single-numa-node`/`restricted`,
    /// `EmptyPodSharedPoolError` under `best-effort`. Init containers have their own checks.
    /// The rule recomputes the budget, names the containers that needed the pool, and
    /// cites the node's kubelet configuration (or says it is missing). A
    /// `TopologyAffinityError` the spec does not explain may be real NUMA exhaustion: the
    /// rule compares with NodeResourceTopology zones when the bundle has them, else says
    /// the bundle cannot tell. Rejected pods are not retried on another node.
    pub static RESOURCE_MANAGER_REJECTED = {
        id: "numa/resource-manager-rejected",
        stage: Stage::Node,
        severity: Severity::Error,
        fallback: false,
        // Wide: see `numa_reach`.
        reach: Reach::Wide(super::numa_reach),
        run: run,
    };
}

/// The kubelet's wording for a pod-level pod refused by the pod-scope topology manager.
pub const POD_SCOPE_MESSAGE: &str =
    "Pod Scope pod with pod-level resources failed admission under pod-scope topology manager";

/// What one pod's analysis produced, before grouping.
struct Explained {
    cause: String,
    summary: String,
    help: String,
    evidence: Vec<Evidence>,
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let mut index: Option<KubeletIndex> = None;
    let mut groups: BTreeMap<(ObjectRef, String), (Vec<Case>, String, Severity)> = BTreeMap::new();
    for (id, pod) in snap.pods() {
        if !is_resource_manager_rejection(pod) {
            continue;
        }
        let index = index.get_or_insert_with(|| KubeletIndex::build(snap));
        let e = explain(snap, index, *id, pod);
        let healthy = pod_findings::controller_is_healthy(snap, *id);
        let severity = if healthy {
            Severity::Info
        } else {
            Severity::Error
        };
        let summary = if healthy {
            format!(
                "{} — a leftover: its controller has its desired ready replicas again",
                e.summary
            )
        } else {
            e.summary
        };
        let entry = groups
            .entry((pod_findings::owner_of(snap, *id), e.cause))
            .or_insert_with(|| (Vec::new(), e.help, severity));
        entry.2 = entry.2.min(severity);
        entry.0.push(Case {
            id: *id,
            summary,
            evidence: e.evidence,
        });
    }
    groups
        .into_iter()
        .map(|((owner, cause), (cases, help, sev))| {
            pod_findings::pods_finding(
                snap,
                &RESOURCE_MANAGER_REJECTED,
                sev,
                owner,
                &cause,
                cases,
                help,
            )
        })
        .collect()
}

fn explain(snap: &Snapshot, index: &KubeletIndex, id: ObjectId, pod: &Pod) -> Explained {
    let reason = pod.status.reason.clone().unwrap_or_default();
    let message = pod.status.message.clone().unwrap_or_default();
    let inner = message
        .trim()
        .trim_start_matches("Pod was rejected:")
        .trim()
        .to_string();
    let node = pod.spec.node_name.clone().unwrap_or_default();
    let kc = index.for_node(&node);
    let budget = PodBudget::of(&pod.spec, pod.status.qos_class.as_deref());

    let mut ev = vec![evidence::field(
        snap,
        id,
        &["status", "reason"],
        format!(
            "phase Failed, reason {reason}: {}",
            pod_findings::clip(&message, 300)
        ),
    )];
    let events = snap.events_for(id);
    let evs: Vec<_> = events.iter().filter(|(_, e)| e.reason == reason).collect();
    ev.extend(pod_findings::last_events(snap, &evs, 1));

    let mut e = match reason.as_str() {
        "SMTAlignmentError" => smt(snap, kc, &budget, &node, &inner),
        "UnexpectedAdmissionError" if !inner.contains("pod rejected,") => {
            unexpected(&budget, &node, &inner)
        }
        _ => topology(snap, kc, &budget, &devices(pod), &node, &reason, &inner),
    };
    ev.append(&mut e.evidence);
    ev.extend(budget_evidence(snap, id, &budget, &e.cause));
    ev.push(match kc {
        Some(k) => k.evidence(snap, "topologyManagerScope"),
        None => index.missing(snap, &node),
    });
    ev.push(pod_findings::node_evidence(snap, &node));
    e.evidence = ev;
    e
}

/// Evidence for the pod budget and the containers the cause involves.
fn budget_evidence(snap: &Snapshot, id: ObjectId, b: &PodBudget, cause: &str) -> Vec<Evidence> {
    let mut ev = Vec::new();
    if b.pod_level {
        ev.push(child_evidence(
            snap,
            id,
            &["spec"],
            "resources",
            b.describe(),
        ));
    }
    // Empty-pool and init causes name containers; the others list the exclusive ones.
    let involved: Vec<_> = b
        .members
        .iter()
        .filter(|m| {
            cause.starts_with("empty-shared-pool")
                || cause.starts_with("init-")
                || m.cpus > 0
                || !m.memory.is_empty()
        })
        .take(6)
        .collect();
    for m in involved {
        ev.push(evidence::field(
            snap,
            id,
            &["spec", m.list(), &format!("name={}", m.name)],
            b.member_note(m),
        ));
    }
    ev
}

/// `TopologyAffinityError`, `EmptyPodSharedPoolError` and manager errors that quote the
/// pod-scope checks.
fn topology(
    snap: &Snapshot,
    kc: Option<&NodeKubelet>,
    b: &PodBudget,
    devices: &BTreeMap<String, i128>,
    node: &str,
    reason: &str,
    inner: &str,
) -> Explained {
    let says_pod_scope = inner.contains(POD_SCOPE_MESSAGE)
        || reason == "EmptyPodSharedPoolError"
        || inner.contains("pod rejected,");
    let (cpu, mem) = match kc {
        Some(k) => (k.settings.cpu_static(), k.settings.memory_static()),
        None => (true, true),
    };
    // The pod-level checks surface as the pod-scope wording or EmptyPodSharedPoolError; a
    // TopologyAffinityError worded for containers came from the container-level path.
    let pod_level_path = says_pod_scope || inner.is_empty();
    let breaches = b.violations(cpu, mem);
    let violations = if pod_level_path {
        breaches.clone()
    } else {
        Vec::new()
    };
    let scope_note = match kc {
        Some(k) => format!(
            "topologyManagerScope={}, topologyManagerPolicy={}",
            k.settings.scope(),
            k.settings.policy()
        ),
        None if says_pod_scope => {
            "topologyManagerScope=pod per the kubelet's message; the bundle has no kubelet configuration for the node".to_string()
        }
        None => "the bundle has no kubelet configuration for the node".to_string(),
    };

    if !violations.is_empty() {
        return pod_scope_breach(snap, kc, b, &violations, node, reason, &scope_note);
    }

    // The spec leaves the pool non-empty (or the pod gets no bubble): alignment failed.
    let why_no_breach = why_no_breach(b, &breaches);
    let container_scope = kc.is_some_and(|k| k.settings.scope() != "pod");
    let model = if container_scope {
        " Under topologyManagerScope=container there is no pod shared pool: each Guaranteed container is aligned on its own from the node's free resources and the others run in the node's shared pool, so a rejection means one container's exclusive resources did not fit one NUMA node."
    } else {
        ""
    };
    let mut need = aligned_need(b, container_scope);
    let need_text = need_words(b, &need, devices);
    let what = if container_scope {
        "its largest container needs"
    } else {
        "it needs"
    };
    let mut ev = Vec::new();
    let topo = NodeTopology::of(snap, node);
    if let Some(t) = &topo {
        for (k, v) in devices {
            if t.zones.iter().any(|z| z.resources.contains_key(k)) {
                need.insert(k.clone(), *v);
            }
        }
    }
    let (cause, numa) = match topo {
        Some(t) if !need.is_empty() => {
            ev.push(evidence::field(
                snap,
                t.id,
                &["zones"],
                format!("NodeResourceTopology {node}: {}", t.describe(&need)),
            ));
            if t.zones_fitting(&need, true).is_empty() {
                (
                    "numa-too-large",
                    format!(
                        "{what} {need_text} on one NUMA node, and no NUMA zone of node {node} has that much allocatable at all (NodeResourceTopology: {}): it can never be aligned there",
                        t.describe(&need)
                    ),
                )
            } else if t.zones_fitting(&need, false).is_empty() {
                (
                    "numa-exhausted",
                    format!(
                        "{what} {need_text} on one NUMA node, and no NUMA zone of node {node} has that much available (NodeResourceTopology: {}): real NUMA exhaustion",
                        t.describe(&need)
                    ),
                )
            } else {
                let fit: Vec<&str> = t
                    .zones_fitting(&need, false)
                    .iter()
                    .map(|z| z.name.as_str())
                    .collect();
                (
                    "topology-unexplained",
                    format!(
                        "{what} {need_text} on one NUMA node, and NodeResourceTopology now shows zone {} with enough available: the zones may have freed up since the rejection (the exporter refreshes periodically), or a device or hugepages hint failed",
                        fit.join(", ")
                    ),
                )
            }
        }
        _ => (
            "topology-unexplained",
            format!(
                "{what} {need_text} aligned on one NUMA node; this may be real NUMA exhaustion (not enough free resources on any single NUMA node of {node}), but the bundle holds no NodeResourceTopology for {node} (per-NUMA-zone free resources), so it cannot tell"
            ),
        ),
    };
    let mut summary = format!(
        "was rejected by the kubelet on node {node} with {reason} ({scope_note}): {why_no_breach}; {numa}"
    );
    if !inner.is_empty() {
        summary.push_str(&format!(
            " (the kubelet: \"{}\")",
            pod_findings::clip(inner, 160)
        ));
    }
    summary.push('.');
    summary.push_str(model);
    let summary = summary.replace("..", ".");
    Explained {
        cause: cause.to_string(),
        summary,
        help: "compare the pod's aligned request with the free cpus and memory per NUMA node (NodeResourceTopology, or the kubelet's cpu_manager_state/memory_manager_state on the node); free a NUMA node, shrink the exclusive request, or relax topologyManagerPolicy; the pod is not retried on another node, its controller makes a new one".to_string(),
        evidence: ev,
    }
}

/// The spec breaches a pod-scope check (`violations`, the first one the kubelet's): the
/// sentence for each, the manager's check quoted.
fn pod_scope_breach(
    snap: &Snapshot,
    kc: Option<&NodeKubelet>,
    b: &PodBudget,
    violations: &[Violation],
    node: &str,
    reason: &str,
    scope_note: &str,
) -> Explained {
    let first = &violations[0];
    let mut sentence = format!("{} ({scope_note})", first.sentence(&b.members));
    for v in &violations[1..] {
        sentence.push_str(&format!("; likewise {}", v.sentence(&b.members)));
    }
    let mut summary = format!(
        "was rejected by the kubelet on node {node} with {reason}: {sentence}; the {} manager's check: \"{}\"",
        first.manager(),
        first.kubelet_text()
    );
    if reason == "TopologyAffinityError" {
        summary.push_str(
            ". Under topologyManagerPolicy single-numa-node or restricted the topology manager refuses the pod before allocation; best-effort would report EmptyPodSharedPoolError",
        );
    }
    if let Some(k) = kc
        && k.settings.scope() != "pod"
    {
        summary.push_str(&format!(
            ". The bundle's {} says topologyManagerScope={}, where there is no pod shared pool and this check does not run: the configuration in the bundle differs from the one the kubelet ran with when it rejected the pod",
            k.source_name(snap),
            k.settings.scope()
        ));
    }
    let cause = cause_of(first);
    Explained {
        help: help_for(first),
        cause,
        summary,
        evidence: Vec::new(),
    }
}

/// Why the spec does not explain the rejection: no pod bubble, unreadable values, a
/// breach of a check the kubelet's message says did not run, or a non-empty pool.
fn why_no_breach(b: &PodBudget, breaches: &[Violation]) -> String {
    match b.not_eligible() {
        Some(why) if b.pod_level && !b.unread.is_empty() => {
            format!("kdiag cannot check the spec: {why}")
        }
        Some(why) if b.pod_level => format!(
            "the spec does not explain it: {why}, so the CPU and Memory managers make no pod bubble and run no shared-pool check"
        ),
        Some(_) => "the pod sets no pod-level resources, so the pod shared pool does not apply".to_string(),
        None if !breaches.is_empty() => format!(
            "{} under pod-level resource management, but the kubelet's message is the container-level one, so that check did not reject it (are pod-level resource managers off on this kubelet?)",
            breaches[0].sentence(&b.members)
        ),
        None => "the spec leaves the pod shared pool non-empty (the exclusive slices fit the pod budget)".to_string(),
    }
}

/// What has to fit one NUMA node: the pod's aligned cpu and memory (pod scope) or its
/// largest container's; empty when cpu or memory does not read (unknown, not zero).
fn aligned_need(b: &PodBudget, container_scope: bool) -> BTreeMap<String, i128> {
    let mut need: BTreeMap<String, i128> = BTreeMap::new();
    if container_scope {
        if let Some(m) = b
            .members
            .iter()
            .max_by_key(|m| (m.cpus, m.memory.values().sum::<i128>()))
        {
            if m.cpus > 0 {
                need.insert("cpu".into(), m.cpus * 1000);
            }
            need.extend(m.memory.clone());
        }
    } else {
        if b.aligned_cpus() > 0 {
            need.insert("cpu".into(), b.aligned_cpus() * 1000);
        }
        need.extend(b.aligned_memory());
    }
    if !b.unread.is_empty() {
        need.clear();
    }
    need
}

/// The words for what has to be aligned: the exclusive cpu and memory `need`, then the
/// devices.
fn need_words(
    b: &PodBudget,
    need: &BTreeMap<String, i128>,
    devices: &BTreeMap<String, i128>,
) -> String {
    let listed = |m: &BTreeMap<String, i128>| {
        m.iter()
            .map(|(k, v)| format!("{} {k}", display_units(k, *v)))
            .collect::<Vec<_>>()
            .join(" + ")
    };
    let mut need_text = if !b.unread.is_empty() {
        "cpu and memory that kdiag cannot recompute".to_string()
    } else if need.is_empty() {
        "no exclusive cpu or memory".to_string()
    } else {
        listed(need)
    };
    if !devices.is_empty() {
        need_text.push_str(&format!(" and the devices {}", listed(devices)));
    } else if need.is_empty() && b.unread.is_empty() {
        need_text.push_str(" (so the failing hint came from another resource)");
    }
    need_text
}

/// Stable cause key: breach kind and resource (no numbers).
fn cause_of(v: &Violation) -> String {
    let kind = match v.breach {
        Breach::EmptyPool { .. } => "empty-shared-pool",
        Breach::InitTooLarge { .. } => "init-exclusive-too-large",
        Breach::SharedInit { .. } => "init-shared-no-pool",
    };
    format!("{kind}:{}", v.resource)
}

pub(super) fn help_for(v: &Violation) -> String {
    let unit = |x: i128| {
        if v.resource == "cpu" {
            x.to_string()
        } else {
            display_units(&v.resource, x)
        }
    };
    match &v.breach {
        Breach::EmptyPool { shared } => format!(
            "leave room in the pod shared pool: raise spec.resources {res} above {} (the exclusive containers' sum), lower an exclusive container's {res}, or give {} Guaranteed {res} of its own; under topologyManagerScope=container the non-exclusive containers would use the node's shared pool instead",
            unit(v.sum()),
            shared.join(", "),
            res = v.resource
        ),
        Breach::InitTooLarge { init, need } => format!(
            "init container {init} needs {} {res} exclusively: raise spec.resources {res} to at least {} (its need plus the sidecars started before it) or lower its request",
            unit(*need),
            unit(need + v.sum()),
            res = v.resource
        ),
        Breach::SharedInit { init } => format!(
            "init container {init} needs the pod shared pool: raise spec.resources {res} above the sidecars' {} or give {init} Guaranteed {res} of its own",
            unit(v.sum()),
            res = v.resource
        ),
    }
}

/// `SMTAlignmentError`: `full-pcpus-only` needs whole physical cores.
fn smt(
    snap: &Snapshot,
    kc: Option<&NodeKubelet>,
    b: &PodBudget,
    node: &str,
    inner: &str,
) -> Explained {
    let nums = |after: &str| -> Option<i128> {
        let s = inner.split(after).nth(1)?;
        let d: String = s
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        d.parse().ok()
    };
    let per_core = nums("cpus per core =").or_else(|| nums("CPUs per core ="));
    let option = match kc {
        Some(k) if k.settings.full_pcpus_only() => format!(
            "the static CPU manager runs with full-pcpus-only ({})",
            k.source_name(snap)
        ),
        Some(k) => format!(
            "the bundle's {} does not set full-pcpus-only, yet the kubelet enforced it: the configuration in the bundle differs from the running one",
            k.source_name(snap)
        ),
        None => format!(
            "the kubelet on node {node} runs the static CPU manager with full-pcpus-only (per its message; the bundle has no kubelet configuration for the node)"
        ),
    };
    let scope_pod = kc.is_some_and(|k| k.settings.scope() == "pod") && b.pod_level && b.cpus > 0;
    let need = if scope_pod { b.cpus } else { b.aligned_cpus() };
    let exclusive: Vec<String> = b
        .members
        .iter()
        .filter(|m| m.cpus > 0)
        .map(|m| format!("{} {}", m.name, m.cpus))
        .collect();
    let (cause, what) = if inner.contains("not enough free physical CPUs") {
        (
            "smt-no-free-cores",
            format!(
                "{option}, and the node had too few free whole physical cores for the pod's {need} exclusive cpus: {inner}"
            ),
        )
    } else {
        let odd = match per_core {
            Some(c) if c > 0 => {
                let bad: Vec<String> = if scope_pod {
                    if b.cpus % c != 0 {
                        vec![format!("the pod bubble of {} cpu", b.cpus)]
                    } else {
                        vec![]
                    }
                } else {
                    b.members
                        .iter()
                        .filter(|m| m.cpus > 0 && m.cpus % c != 0)
                        .map(|m| format!("{} ({} cpu)", m.name, m.cpus))
                        .collect()
                };
                if bad.is_empty() {
                    format!(
                        "the spec's exclusive cpus ({}) are multiples of {c}; the kubelet counted differently (\"{inner}\")",
                        if exclusive.is_empty() {
                            "none".to_string()
                        } else {
                            exclusive.join(", ")
                        }
                    )
                } else {
                    format!(
                        "{} {} not a multiple of the {c} hardware threads per core",
                        bad.join(", "),
                        if bad.len() == 1 { "is" } else { "are" }
                    )
                }
            }
            _ => format!(
                "the pod's exclusive cpus ({need}) do not fill whole physical cores (\"{inner}\")"
            ),
        };
        ("smt-alignment", format!("{option}; {odd}"))
    };
    Explained {
        cause: cause.to_string(),
        summary: format!(
            "was rejected by the kubelet on node {node} with SMTAlignmentError: {what}"
        ),
        help: format!(
            "request exclusive cpus in whole physical cores{}, or drop the full-pcpus-only option; the pod is not retried on another node",
            per_core
                .map(|c| format!(" (multiples of {c})"))
                .unwrap_or_default()
        ),
        evidence: Vec::new(),
    }
}

/// `UnexpectedAdmissionError` raised by the CPU or Memory manager while allocating.
fn unexpected(b: &PodBudget, node: &str, inner: &str) -> Explained {
    let memory = inner.to_ascii_lowercase().contains("memory");
    let need = if memory {
        b.aligned_memory()
            .iter()
            .map(|(k, v)| format!("{} {k}", display_units(k, *v)))
            .collect::<Vec<_>>()
            .join(" + ")
    } else {
        format!("{} cpu", b.aligned_cpus())
    };
    Explained {
        cause: if memory {
            "unexpected:memory".into()
        } else {
            "unexpected:cpu".into()
        },
        summary: format!(
            "was rejected by the kubelet on node {node} with UnexpectedAdmissionError from the {} manager while allocating its exclusive {need}: {}",
            if memory { "Memory" } else { "CPU" },
            pod_findings::clip(inner, 300)
        ),
        help: "the kubelet's view of free exclusive cpus or NUMA memory differed from the scheduler's (other Guaranteed pods, reserved cpus, a stale cpu_manager_state/memory_manager_state); compare with the node's other Guaranteed pods; the pod is not retried on another node".into(),
        evidence: vec![note(format!(
            "{}; recomputed exclusive need: {need}",
            b.describe()
        ))],
    }
}

/// Extended resources (devices) the pod requests, in units.
fn devices(pod: &Pod) -> BTreeMap<String, i128> {
    effective_requests(&pod.spec)
        .into_iter()
        .filter(|(k, _)| {
            !matches!(
                k.as_str(),
                "cpu" | "memory" | "ephemeral-storage" | "storage" | "pods"
            ) && !k.starts_with("hugepages-")
        })
        .map(|(k, q)| {
            let u = q.value_ceil();
            (k, u)
        })
        .filter(|(_, u)| *u > 0)
        .collect()
}

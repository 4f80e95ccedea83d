//! `numa/shared-pool-predicted`: pods and pod templates the kubelet will reject for an
//! empty pod shared pool, before any pod is rejected.

use super::budget::PodBudget;
use super::kubelet::{
    GATE_POD_LEVEL_RESOURCE_MANAGERS, GATE_POD_LEVEL_RESOURCES, Gate, KubeletIndex, NodeKubelet,
    POD_LEVEL_POLICIES,
};
use super::locate::child_evidence;
use super::placement::candidate_nodes;
use super::rejected::POD_SCOPE_MESSAGE;
use crate::declare_rule;
use crate::kube::pod::PodSpec;
use crate::rules::evidence;
use crate::rules::pod_findings::{self, note, plural};
use crate::rules::reach::Reach;
use crate::rules::resource_manager::is_resource_manager_rejection;
use crate::rules::{Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::HashMap;

declare_rule! {
    /// Predicts pod-scope admission rejections (empty pod shared pool) for pods and controller templates before any pod is rejected.
    ///
    /// For a Deployment, StatefulSet, DaemonSet, Job or ReplicaSet template (and a pod not
    /// yet admitted), finds the nodes it can land on (nodeSelector, required node affinity,
    /// taints) and, on those whose kubelet runs the static CPU or Memory manager with
    /// `topologyManagerScope: pod`, a policy of single-numa-node, restricted or best-effort
    /// and the PodLevelResources and PodLevelResourceManagers gates on, recomputes the
    /// pod-level budget split. Only pods that get a pod bubble are predicted to fail:
    /// Guaranteed at pod level with an integer pod-level CPU; Burstable pods never are.
    /// Nodes with `topologyManagerScope: container` have no pod shared pool (Guaranteed
    /// containers get exclusive resources from the node, the others use the node's shared
    /// pool), so the same spec is valid there. Nodes whose kubelet settings the bundle does
    /// not hold are named as unknown, never guessed.
    pub static SHARED_POOL_PREDICTED = {
        id: "numa/shared-pool-predicted",
        stage: Stage::Node,
        severity: Severity::Error,
        fallback: false,
        // Wide: see `numa_reach`.
        reach: Reach::Wide(super::numa_reach),
        run: run,
    };
}

/// A pod spec to judge, and where it lives.
struct Subject {
    id: ObjectId,
    /// Path of the pod spec inside the object.
    spec_path: &'static [&'static str],
    spec: PodSpec,
    status_qos: Option<String>,
    /// A Pending pod bound to its node: the prediction explains it.
    explains: bool,
}

/// One node's verdict.
enum Verdict<'a> {
    Rejects(&'a NodeKubelet, Vec<super::budget::Violation>),
    Admits,
    Unknown(String),
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let subjects = subjects(snap);
    if subjects.is_empty() {
        return Vec::new();
    }
    let index = KubeletIndex::build(snap);
    if index.all().is_empty() {
        return Vec::new();
    }
    subjects
        .into_iter()
        .filter_map(|s| predict(snap, &index, s))
        .collect()
}

/// Controller templates and not-yet-admitted bare pods with pod-level resources.
fn subjects(snap: &Snapshot) -> Vec<Subject> {
    // Pods per top-level controller, to skip controllers already rejected or running.
    let mut pods_of: HashMap<ObjectId, Vec<ObjectId>> = HashMap::new();
    let mut out = Vec::new();
    for (id, pod) in snap.pods() {
        match snap.top_controller(*id) {
            Some((_, Some(cid))) => pods_of.entry(cid).or_default().push(*id),
            Some((_, None)) => {}
            None => {
                let bound = pod.spec.node_name.as_deref().is_some_and(|n| !n.is_empty());
                if pod.phase() == "Pending" && super::budget::pod_level_set(&pod.spec) {
                    out.push(Subject {
                        id: *id,
                        spec_path: &["spec"],
                        spec: pod.spec.clone(),
                        status_qos: pod.status.qos_class.as_deref().map(String::from),
                        explains: bound,
                    });
                }
            }
        }
    }
    let template = |id: ObjectId, spec: &PodSpec, out: &mut Vec<Subject>| {
        if super::budget::pod_level_set(spec) {
            out.push(Subject {
                id,
                spec_path: &["spec", "template", "spec"],
                spec: spec.clone(),
                status_qos: None,
                explains: false,
            });
        }
    };
    let mut controllers = Vec::new();
    for (id, d) in snap.deployments() {
        if d.spec.desired() > 0 {
            template(*id, &d.spec.template.spec, &mut controllers);
        }
    }
    for (id, s) in snap.stateful_sets() {
        if s.spec.desired() > 0 {
            template(*id, &s.spec.template.spec, &mut controllers);
        }
    }
    for (id, d) in snap.daemon_sets() {
        template(*id, &d.spec.template.spec, &mut controllers);
    }
    for (id, j) in snap.jobs() {
        // A suspended Job (queued by Kueue) is judged too: it fails once admitted.
        if !j.is_complete() && !j.is_failed() {
            template(*id, &j.spec.template.spec, &mut controllers);
        }
    }
    for (id, r) in snap.replica_sets() {
        // A Deployment's ReplicaSets are judged through the Deployment.
        if r.spec.desired() > 0 && snap.top_controller(*id).is_none() {
            template(*id, &r.spec.template.spec, &mut controllers);
        }
    }
    for c in controllers {
        let pods = pods_of.get(&c.id).map(Vec::as_slice).unwrap_or(&[]);
        // Already rejected: `numa/resource-manager-rejected` reports the controller.
        if pods
            .iter()
            .any(|p| snap.pod(*p).is_some_and(is_resource_manager_rejection))
        {
            continue;
        }
        out.push(c);
    }
    out
}

fn predict(snap: &Snapshot, index: &KubeletIndex, s: Subject) -> Option<Finding> {
    let budget = PodBudget::of(&s.spec, s.status_qos.as_deref());
    // Burstable pods, fractional pod-level cpu: no pod bubble, never predicted to fail.
    if budget.not_eligible().is_some() {
        return None;
    }
    let nodes = candidate_nodes(snap, &s.spec);
    let verdicts: Vec<(String, Verdict)> = nodes
        .iter()
        .map(|n| (n.clone(), verdict(snap, index, n, &budget)))
        .collect();
    let rejecting: Vec<&(String, Verdict)> = verdicts
        .iter()
        .filter(|(_, v)| matches!(v, Verdict::Rejects(..)))
        .collect();
    let (first_node, kc, violations) = match rejecting.first() {
        Some((n, Verdict::Rejects(kc, v))) => (n.clone(), *kc, v.clone()),
        _ => return None,
    };
    // A pod with the same breach already runs on a node we say rejects it: the bundle's
    // kubelet settings are not what that kubelet ran with; do not guess. (Running pods of
    // an older template, e.g. under a paused rollout, do not count.)
    let contradicted = running_pods_of(snap, s.id).iter().any(|(node, pid)| {
        rejecting.iter().any(|(n, v)| {
            n == node
                && matches!(v, Verdict::Rejects(k, _) if snap.pod(*pid).is_some_and(|p| {
                    !PodBudget::of(&p.spec, p.status.qos_class.as_deref())
                        .violations(k.settings.cpu_static(), k.settings.memory_static())
                        .is_empty()
                }))
        })
    });
    if contradicted {
        return None;
    }
    let obj = snap.object(s.id);
    let admits = verdicts
        .iter()
        .filter(|(_, v)| matches!(v, Verdict::Admits))
        .count();
    let unknown: Vec<(&str, &str)> = verdicts
        .iter()
        .filter_map(|(n, v)| match v {
            Verdict::Unknown(why) => Some((n.as_str(), why.as_str())),
            _ => None,
        })
        .collect();
    let severity = if admits == 0 && unknown.is_empty() {
        Severity::Error
    } else {
        Severity::Warning
    };
    let rejecting_names: Vec<&str> = rejecting.iter().map(|(n, _)| n.as_str()).collect();
    let where_ = if rejecting_names.len() == 1 {
        format!("node {}", rejecting_names[0])
    } else {
        format!(
            "{} ({})",
            plural(rejecting_names.len(), "node"),
            rejecting_names.join(", ")
        )
    };
    let first = &violations[0];
    let mut sentence = first.sentence(&budget.members);
    for v in &violations[1..] {
        sentence.push_str(&format!("; likewise {}", v.sentence(&budget.members)));
    }
    let policy = kc.settings.policy();
    let expected = if policy == "best-effort" {
        format!(
            "EmptyPodSharedPoolError \"Pod was rejected: {}\"",
            first.kubelet_text()
        )
    } else {
        format!("TopologyAffinityError \"Pod was rejected: {POD_SCOPE_MESSAGE}\"")
    };
    let who = if obj.kind == "Pod" {
        "this pod".to_string()
    } else {
        format!("the pods of this {}", obj.kind)
    };
    let mut message = format!(
        "{who} will be rejected by the kubelet on {where_} before they start ({}): {sentence}; expect {expected}",
        kc.settings.describe(),
    );
    if admits > 0 {
        message.push_str(&format!(
            "; {} it can land on would admit it",
            plural(admits, "other node")
        ));
    }
    if !unknown.is_empty() {
        let list: Vec<String> = unknown
            .iter()
            .map(|(n, why)| format!("{n}: {why}"))
            .collect();
        message.push_str(&format!(
            "; {} it can land on cannot be judged ({})",
            plural(unknown.len(), "other node"),
            list.join("; ")
        ));
    }

    let mut ev: Vec<Evidence> = Vec::new();
    ev.push(child_evidence(
        snap,
        s.id,
        s.spec_path,
        "resources",
        budget.describe(),
    ));
    for m in &budget.members {
        let mut p: Vec<&str> = s.spec_path.to_vec();
        let sel = format!("name={}", m.name);
        p.push(m.list());
        p.push(&sel);
        ev.push(evidence::field(snap, s.id, &p, budget.member_note(m)));
    }
    // One evidence per configuration source, naming its nodes.
    let mut sources: Vec<(&NodeKubelet, Vec<&str>)> = Vec::new();
    for (n, v) in &rejecting {
        if let Verdict::Rejects(k, _) = v {
            match sources.iter_mut().find(|(s, _)| s.source == k.source) {
                Some((_, nodes)) => nodes.push(n.as_str()),
                None => sources.push((k, vec![n.as_str()])),
            }
        }
    }
    for (k, nodes) in sources.iter().take(pod_findings::EVIDENCE_PODS) {
        ev.push(k.evidence_for(snap, "topologyManagerScope", nodes));
    }
    if sources.len() > pod_findings::EVIDENCE_PODS {
        ev.push(note(format!(
            "and {} more kubelet configuration(s) with the same settings",
            sources.len() - pod_findings::EVIDENCE_PODS
        )));
    }
    for (n, _) in unknown.iter().take(2) {
        if index.for_node(n).is_none() {
            ev.push(index.missing(snap, n));
        }
    }
    ev.push(pod_findings::node_evidence(snap, &first_node));

    let cause = format!(
        "{}:{}",
        match first.breach {
            super::budget::Breach::EmptyPool { .. } => "empty-shared-pool",
            super::budget::Breach::InitTooLarge { .. } => "init-exclusive-too-large",
            super::budget::Breach::SharedInit { .. } => "init-shared-no-pool",
        },
        first.resource
    );
    let help = format!(
        "before rolling this out, {}",
        super::rejected::help_for(first)
    );
    let mut f = Finding::new(
        &SHARED_POOL_PREDICTED,
        severity,
        obj.reference(),
        &cause,
        message,
        ev,
        help,
        if s.explains { vec![s.id] } else { Vec::new() },
    );
    f.details = Some(serde_json::json!({
        "rejecting_nodes": rejecting_names,
        "unknown_nodes": unknown.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        "admitting_nodes": admits,
    }));
    Some(f)
}

/// Running pods of a controller (or the pod itself), with their nodes.
fn running_pods_of(snap: &Snapshot, id: ObjectId) -> Vec<(String, ObjectId)> {
    snap.pods()
        .iter()
        .filter(|(pid, p)| {
            p.phase() == "Running"
                && (*pid == id
                    || snap
                        .top_controller(*pid)
                        .is_some_and(|(_, c)| c == Some(id)))
        })
        .filter_map(|(pid, p)| {
            p.spec
                .node_name
                .as_deref()
                .map(String::from)
                .map(|n| (n, *pid))
        })
        .collect()
}

/// Whether the kubelet of `node` would reject a pod with this budget.
fn verdict<'a>(
    snap: &Snapshot,
    index: &'a KubeletIndex,
    node: &str,
    budget: &PodBudget,
) -> Verdict<'a> {
    let Some(kc) = index.for_node(node) else {
        return Verdict::Unknown("the bundle holds no kubelet configuration for it".into());
    };
    let st = &kc.settings;
    if !(st.cpu_static() || st.memory_static())
        || st.scope() != "pod"
        || !POD_LEVEL_POLICIES.contains(&st.policy())
        || kc.windows
    {
        return Verdict::Admits;
    }
    for gate in [GATE_POD_LEVEL_RESOURCES, GATE_POD_LEVEL_RESOURCE_MANAGERS] {
        match kc.gate(snap, &index.gates, gate) {
            Gate::On(_) => {}
            Gate::Off(_) => return Verdict::Admits,
            Gate::Unknown(why) => return Verdict::Unknown(why),
        }
    }
    let v = budget.violations(st.cpu_static(), st.memory_static());
    if v.is_empty() {
        Verdict::Admits
    } else {
        Verdict::Rejects(kc, v)
    }
}

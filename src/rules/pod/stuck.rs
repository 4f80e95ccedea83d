//! The generic stage classifier: where did each stuck pod stop?

use crate::declare_rule;
use crate::kube::event::Event;
use crate::kube::meta::ObjectRef;
use crate::kube::pod::{ContainerStatus, Pod};
use crate::kube::time::{format_duration, parse_timestamp};
use crate::rules::disruption;
use crate::rules::evidence;
use crate::rules::pod_findings::{self, Case, node_evidence};
use crate::rules::reach::Reach;
use crate::rules::superseded::{job_end_event, superseded};
use crate::rules::{Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::BTreeMap;

mod containers;
mod disrupted;
mod table;

use containers::{container_problem, crashed};
use disrupted::{disrupted, failed_unscheduled};

declare_rule! {
    /// Names the stage where each pod that is neither Running-and-Ready nor Succeeded stopped.
    ///
    /// A pod stops at one of: scheduling (no node: the scheduler's condition and
    /// FailedScheduling events), node (kubelet admission, image pulls, volume mounts,
    /// sandbox, eviction, a lost node), runtime (crash loops, OOM kills, exit codes,
    /// container config errors) or readiness (Running but not Ready). Knowing the stage
    /// decides which component to investigate: adding nodes does not fix an image pull.
    /// Pods failing the same way under one controller are one finding on the controller.
    /// A failure that a later success superseded is history, `info` with what superseded it:
    /// a Job that reached its completions, an OpenShift static-pod installer or pruner whose
    /// node a later one (or the static pod's revision) brought up to date, a controller with
    /// its desired ready replicas again, a Job missing from the bundle whose completion the
    /// events record (`Completed`, the CronJob's `SawCompletedJob … status: Complete`). A
    /// pod stopped on purpose — its `DisruptionTarget` condition (scheduler preemption,
    /// taint manager, Eviction API, kubelet, pod GC) or Kueue's `TerminationTarget` — is
    /// judged at that component's stage in its words, never as a crash or "without a
    /// reason"; a Failed pod never scheduled, by its `PodScheduled=False` message. A pod
    /// created less than 60 seconds before the snapshot whose diagnosis rests on an event or
    /// condition not written yet (no scheduler decision, no kubelet event, no probe event)
    /// is `info`: nothing has had time to happen. More specific rules replace this finding
    /// for the pods they explain.
    pub static POD_STUCK = {
        id: "pod/stuck",
        stage: Stage::Scheduling,
        severity: Severity::Error,
        fallback: true,
        // Local: each pod with its owner chain, node, Events and logs, grouped by the pod's owner; it skips pods other rules explained, which are of the pod's namespace.
        reach: Reach::Local,
        run: run,
    };
}

/// Diagnosed pods grouped by (stage, controller or pod, cause).
type Groups<'a> = BTreeMap<(Stage, ObjectRef, String), Vec<(ObjectId, &'a Pod, Diagnosis)>>;

/// One pod's diagnosis before grouping.
struct Diagnosis {
    stage: Stage,
    severity: Severity,
    /// Stable cause key for grouping and the fingerprint (no counts, no times).
    cause: String,
    /// What happened, completing "pod X …".
    summary: String,
    evidence: Vec<Evidence>,
    help: &'static str,
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    // (controller or pod, stage, cause) → diagnosed pods.
    let mut groups: Groups = BTreeMap::new();
    for (id, pod) in snap.pods() {
        if ctx.explained.contains(id) {
            continue;
        }
        let controller = snap.top_controller(*id);
        let Some(d) = diagnose(snap, *id, pod) else {
            continue;
        };
        let owner = controller
            .map(|(r, _)| r)
            .unwrap_or_else(|| snap.object(*id).reference());
        groups
            .entry((d.stage, owner, d.cause.clone()))
            .or_default()
            .push((*id, pod, d));
    }
    groups
        .into_iter()
        .map(|((stage, owner, cause), pods)| finding(snap, stage, owner, &cause, pods))
        .collect()
}

fn finding(
    snap: &Snapshot,
    stage: Stage,
    owner: ObjectRef,
    cause: &str,
    pods: Vec<(ObjectId, &Pod, Diagnosis)>,
) -> Finding {
    let severity = pods
        .iter()
        .map(|(_, _, d)| d.severity)
        .min()
        .unwrap_or(Severity::Error);
    let help = pods
        .first()
        .map(|(_, _, d)| d.help.to_string())
        .unwrap_or_default();
    let cases = pods
        .into_iter()
        .map(|(id, _, d)| Case {
            id,
            summary: d.summary,
            evidence: d.evidence,
        })
        .collect();
    let mut f = pod_findings::pods_finding(snap, &POD_STUCK, severity, owner, cause, cases, help);
    f.stage = stage;
    f
}

/// Decides where one pod stopped, or `None` when it is healthy or done.
fn diagnose(snap: &Snapshot, id: ObjectId, pod: &Pod) -> Option<Diagnosis> {
    if snap.holds_tables() && crate::kube::table::is_from_table(&pod.metadata) {
        return table::diagnose(snap, id, pod, &snap.events_for(id));
    }
    let phase = pod.phase();
    // No status at all: a manifest (a template or an example), not a live pod.
    if phase.is_empty() && pod.status.conditions.is_empty() && pod.spec.node_name.is_none() {
        return None;
    }
    if phase == "Succeeded" {
        return None;
    }
    if phase == "Running" && pod.is_ready() {
        return None;
    }
    if !matches!(
        phase,
        "" | "Pending" | "Running" | "Succeeded" | "Failed" | "Unknown"
    ) && pod.is_ready()
    {
        return Some(invalid_phase(snap, id, phase));
    }
    let events = snap.events_for(id);
    if phase == "Failed" {
        return failed(snap, id, pod, &events);
    }
    let mut d = stuck(snap, id, pod, &events)?;
    // Marked for disruption but not deleted (yet): the condition is a fact to show.
    if !d.cause.starts_with("disrupted:")
        && let Some(dis) = disruption::of(pod)
    {
        d.summary.push_str(&format!(
            "; its {} condition says it is to be {} ({})",
            dis.type_(),
            dis.verb(),
            dis.reason()
        ));
        d.evidence.push(dis.evidence(snap, id));
    }
    // A diagnosis that rests on an event or condition not written yet means nothing for a
    // pod created seconds before the snapshot.
    let node_ready = pod.spec.node_name.as_deref().is_none_or(|n| {
        snap.node_named(n)
            .is_none_or(|(_, node)| node.ready_status() == Some("True"))
    });
    if NO_EVIDENCE_YET.iter().any(|c| d.cause.starts_with(c))
        && node_ready
        && !events.iter().any(|(_, e)| e.is_warning())
        && let Some(age) = pod_findings::just_created(snap, pod)
    {
        d.severity = Severity::Info;
        d.summary.push_str(&format!(
            " — created {age}s before the snapshot; nothing has had time to happen"
        ));
        d.cause.push_str(":just-created");
        d.help =
            "nothing to do yet: take the bundle again in a minute if the pod is still not running";
    }
    Some(d)
}

/// A phase the API never writes (`CrashLoopBackOff` is a container's waiting reason, not
/// a pod phase) on a pod whose Ready condition is True: an edited object, not a stuck pod.
fn invalid_phase(snap: &Snapshot, id: ObjectId, phase: &str) -> Diagnosis {
    Diagnosis {
        stage: Stage::Runtime,
        severity: Severity::Info,
        cause: "invalid-phase".into(),
        summary: format!(
            "has phase {phase:?}, which is not a pod phase (Pending, Running, Succeeded, Failed, Unknown), while its Ready condition is True: the object was edited or written by hand, and nothing says it is stuck"
        ),
        evidence: vec![pod_field(
            snap,
            id,
            &["status", "phase"],
            format!("status.phase: {phase}"),
        )],
        help: "read the pod's containers' own states; the phase field of this copy cannot be trusted",
    }
}

/// Causes that rest on the absence of a scheduler decision, a kubelet event or a probe
/// event: the ones a just-created pod shows while nothing has had time to happen.
const NO_EVIDENCE_YET: &[&str] = &[
    "unscheduled-no-evidence",
    "pending-on-node",
    "not-ready:",
    "starting:",
];

/// Where a pod that is neither Failed nor done stopped.
fn stuck(
    snap: &Snapshot,
    id: ObjectId,
    pod: &Pod,
    events: &[(ObjectId, &Event)],
) -> Option<Diagnosis> {
    let phase = pod.phase();
    if let Some(d) = terminating_on_lost_node(snap, id, pod) {
        return Some(d);
    }
    // Being deleted by the component its condition names.
    if pod.metadata.deletion_timestamp.is_some()
        && let Some(d) = disruption::of(pod)
    {
        return Some(disrupted(snap, id, pod, &d, true));
    }
    let Some(node) = pod.spec.node_name.as_deref().filter(|n| !n.is_empty()) else {
        return Some(unscheduled(snap, id, pod, events));
    };
    if let Some(d) = container_problem(snap, id, pod, node, events) {
        return Some(d);
    }
    if phase == "Running" {
        return Some(not_ready(snap, id, pod, events));
    }
    Some(pending_on_node(snap, id, pod, node, events))
}

fn pod_field(snap: &Snapshot, id: ObjectId, path: &[&str], note: String) -> Evidence {
    evidence::field(snap, id, path, note)
}

fn events_with<'a>(
    events: &'a [(ObjectId, &'a Event)],
    reasons: &[&str],
) -> Vec<&'a (ObjectId, &'a Event)> {
    events
        .iter()
        .filter(|(_, e)| reasons.contains(&e.reason.as_str()))
        .collect()
}

fn event_evidence(snap: &Snapshot, evs: &[&(ObjectId, &Event)]) -> Vec<Evidence> {
    evs.iter()
        .map(|(eid, e)| evidence::event(snap, *eid, e))
        .collect()
}

fn unscheduled(
    snap: &Snapshot,
    id: ObjectId,
    pod: &Pod,
    events: &[(ObjectId, &Event)],
) -> Diagnosis {
    if !pod.spec.scheduling_gates.is_empty() {
        let gates: Vec<&str> = pod
            .spec
            .scheduling_gates
            .iter()
            .map(|g| g.name.as_str())
            .collect();
        let kueue = gates.iter().any(|g| g.starts_with("kueue.x-k8s.io/"));
        let ev = vec![pod_field(
            snap,
            id,
            &["spec", "schedulingGates"],
            format!("spec.schedulingGates: {}", gates.join(", ")),
        )];
        return Diagnosis {
            stage: if kueue {
                Stage::Queue
            } else {
                Stage::Scheduling
            },
            severity: Severity::Warning,
            cause: format!("gated:{}", gates.join(",")),
            summary: if kueue {
                format!(
                    "waits for Kueue admission (scheduling gate {})",
                    gates.join(", ")
                )
            } else {
                format!(
                    "is held back by scheduling gates ({}); the scheduler does not try it",
                    gates.join(", ")
                )
            },
            evidence: ev,
            help: if kueue {
                "look at the pod's Kueue Workload and its ClusterQueue, not at the scheduler"
            } else {
                "find the controller that owns the gate and why it has not removed it"
            },
        };
    }
    let cond = pod
        .condition("PodScheduled")
        .filter(|c| c.status == "False");
    let failed = events_with(events, &["FailedScheduling"]);
    let latest = failed.last();
    let message = cond
        .and_then(|c| c.message.as_deref().map(String::from))
        .filter(|m| !m.is_empty())
        .or_else(|| latest.map(|(_, e)| e.message.clone()));
    let mut ev = Vec::new();
    if let Some(c) = cond {
        ev.push(pod_field(
            snap,
            id,
            &["status", "conditions", "type=PodScheduled"],
            format!(
                "PodScheduled=False, reason {}{}",
                c.reason.as_deref().unwrap_or("(none)"),
                c.message
                    .as_deref()
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default()
            ),
        ));
    }
    ev.extend(event_evidence(
        snap,
        &failed
            .iter()
            .rev()
            .take(2)
            .rev()
            .copied()
            .collect::<Vec<_>>(),
    ));
    match message {
        Some(m) => {
            let since = cond
                .and_then(|c| c.last_transition_time.as_deref())
                .and_then(parse_timestamp)
                .zip(snap.as_of)
                .map(|(t, asof)| format!(" (unschedulable for {})", format_duration(asof - t)))
                .unwrap_or_default();
            Diagnosis {
                stage: Stage::Scheduling,
                severity: Severity::Error,
                cause: "unschedulable".into(),
                summary: format!("cannot be scheduled{since}: {}", m.trim()),
                evidence: ev,
                help: "compare the pod's requests, node selector, affinity and tolerations with the nodes; the scheduler's reasons say which constraint excluded each node",
            }
        }
        None => Diagnosis {
            stage: Stage::Scheduling,
            severity: Severity::Warning,
            cause: "unscheduled-no-evidence".into(),
            summary: "has no node, and the bundle holds no scheduler decision for it (no PodScheduled=False condition, no FailedScheduling event)".into(),
            evidence: vec![evidence::object(snap, id, "spec.nodeName is empty")],
            help: "check that the scheduler named in spec.schedulerName is running; events expire after about an hour, so their absence proves nothing",
        },
    }
}

/// Running, bound, containers started, but not Ready: the readiness stage.
fn not_ready(snap: &Snapshot, id: ObjectId, pod: &Pod, events: &[(ObjectId, &Event)]) -> Diagnosis {
    let unready: Vec<&ContainerStatus> = pod
        .status
        .container_statuses
        .iter()
        .filter(|c| !c.ready)
        .collect();
    let names: Vec<&str> = unready.iter().map(|c| c.name.as_str()).collect();
    let mut ev = Vec::new();
    if let Some(c) = pod.condition("Ready") {
        ev.push(pod_field(
            snap,
            id,
            &["status", "conditions", "type=Ready"],
            format!(
                "Ready={}{}{}",
                c.status,
                c.reason
                    .as_deref()
                    .map(|r| format!(", reason {r}"))
                    .unwrap_or_default(),
                c.message
                    .as_deref()
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default()
            ),
        ));
    }
    let probe_events: Vec<_> = events
        .iter()
        .filter(|(_, e)| e.reason == "Unhealthy" && e.message.starts_with("Readiness probe"))
        .collect();
    let starting: Vec<&str> = unready
        .iter()
        .filter(|c| c.started == Some(false))
        .map(|c| c.name.as_str())
        .collect();
    ev.extend(event_evidence(
        snap,
        &probe_events
            .iter()
            .rev()
            .take(2)
            .rev()
            .copied()
            .collect::<Vec<_>>(),
    ));
    let gates_pending: Vec<&str> = pod
        .spec
        .readiness_gates
        .iter()
        .map(|g| g.condition_type.as_str())
        .filter(|t| pod.condition(t).is_none_or(|c| c.status != "True"))
        .collect();
    let (cause, summary, help) = if let Some((_, e)) = probe_events.last() {
        (
            format!("readiness-probe:{}", names.join(",")),
            format!(
                "is Running but not Ready: container(s) {} fail the readiness probe: {}",
                names.join(", "),
                e.message
                    .trim_start_matches("Readiness probe failed: ")
                    .trim()
            ),
            "the readiness probe fails, so Services send it no traffic: check the probe's path and port against what the app serves, and the app's log",
        )
    } else if !starting.is_empty() {
        (
            format!("starting:{}", starting.join(",")),
            format!(
                "is Running but container(s) {} have not passed their startup probe yet",
                starting.join(", ")
            ),
            "wait for the startup probe or check its threshold against the app's real start time",
        )
    } else if names.is_empty() && !gates_pending.is_empty() {
        (
            format!("readiness-gates:{}", gates_pending.join(",")),
            format!(
                "has every container ready but is held back by readiness gate(s) {}",
                gates_pending.join(", ")
            ),
            "the controller that owns the readiness gate (often a load balancer controller) has not set it; check that controller",
        )
    } else {
        (
            format!("not-ready:{}", names.join(",")),
            format!(
                "is Running but not Ready{}; the bundle holds no probe event saying why",
                if names.is_empty() {
                    String::new()
                } else {
                    format!(": container(s) {} not ready", names.join(", "))
                }
            ),
            "check the readiness probe and the app's log; probe events expire after about an hour",
        )
    };
    Diagnosis {
        stage: Stage::Readiness,
        severity: Severity::Warning,
        cause,
        summary,
        evidence: ev,
        help,
    }
}

/// Bound to a node, not running, no container reason: the kubelet has not started it.
fn pending_on_node(
    snap: &Snapshot,
    id: ObjectId,
    pod: &Pod,
    node: &str,
    events: &[(ObjectId, &Event)],
) -> Diagnosis {
    let mut ev = vec![evidence::object(
        snap,
        id,
        format!("phase {}, bound to node {node}", pod.phase()),
    )];
    let warnings: Vec<_> = events.iter().filter(|(_, e)| e.is_warning()).collect();
    ev.extend(event_evidence(
        snap,
        &warnings
            .iter()
            .rev()
            .take(2)
            .rev()
            .copied()
            .collect::<Vec<_>>(),
    ));
    ev.push(node_evidence(snap, node));
    let node_state = snap
        .node_named(node)
        .and_then(|(_, n)| n.ready_status().map(str::to_string));
    let summary = match node_state.as_deref() {
        Some("True") | None if warnings.is_empty() => format!(
            "is bound to node {node} but the kubelet has not started its containers, and the bundle holds no event saying why"
        ),
        Some(s) if s != "True" => {
            format!("is bound to node {node}, which is not Ready (Ready={s})")
        }
        _ => format!(
            "is bound to node {node} but has not started: {}",
            warnings
                .last()
                .map(|(_, e)| format!("{}: {}", e.reason, e.message.trim()))
                .unwrap_or_default()
        ),
    };
    Diagnosis {
        stage: Stage::Node,
        severity: Severity::Warning,
        cause: "pending-on-node".into(),
        summary,
        evidence: ev,
        help: "look at the kubelet on that node (its events and log); the pod is past the scheduler",
    }
}

/// Deleted long ago but still present, on a node that is gone or not Ready.
fn terminating_on_lost_node(snap: &Snapshot, id: ObjectId, pod: &Pod) -> Option<Diagnosis> {
    let deleted = pod.metadata.deletion_timestamp.as_deref()?;
    let node = pod.spec.node_name.as_deref()?;
    let node_ok = snap
        .node_named(node)
        .is_some_and(|(_, n)| n.ready_status() == Some("True"));
    if node_ok {
        return None;
    }
    let age = parse_timestamp(deleted)
        .zip(snap.as_of)
        .map(|(t, a)| format!(" for {}", format_duration(a - t)))
        .unwrap_or_default();
    Some(Diagnosis {
        stage: Stage::Node,
        severity: Severity::Error,
        cause: "terminating-lost-node".into(),
        summary: format!(
            "has been Terminating{age} on node {node}, which is not Ready or gone; the kubelet cannot confirm the deletion"
        ),
        evidence: vec![
            evidence::field(
                snap,
                id,
                &["metadata", "deletionTimestamp"],
                format!("deletionTimestamp {deleted}"),
            ),
            node_evidence(snap, node),
        ],
        help: "recover the node, or if it is gone for good delete the Node object so the pods are garbage-collected",
    })
}

const KUBELET_REJECTIONS: &[&str] = &[
    "TopologyAffinityError",
    "UnexpectedAdmissionError",
    "EmptyPodSharedPoolError",
    "SMTAlignmentError",
    "InvalidNodeInfo",
    "NodeAffinity",
    "NodePorts",
    "NodeName",
    "PodLevelResourcesIncompatible",
];

/// A Failed pod: kubelet rejection, eviction, node loss, or containers that exited.
fn failed(
    snap: &Snapshot,
    id: ObjectId,
    pod: &Pod,
    events: &[(ObjectId, &Event)],
) -> Option<Diagnosis> {
    let reason = pod.status.reason.clone().unwrap_or_default();
    let message = pod.status.message.clone().unwrap_or_default();
    let node = pod.spec.node_name.clone().unwrap_or_default();
    let rejected = KUBELET_REJECTIONS.contains(&reason.as_str())
        || reason.starts_with("OutOf")
        || message.starts_with("Pod was rejected");
    let mut d = if let Some(dis) = disruption::of(pod) {
        // Stopped on purpose: the condition names who and why.
        disrupted(snap, id, pod, &dis, false)
    } else if rejected
        || matches!(
            reason.as_str(),
            "Evicted" | "NodeShutdown" | "Terminated" | "NodeLost" | "Shutdown"
        )
    {
        let mut ev = vec![evidence::field(
            snap,
            id,
            &["status", "reason"],
            format!("phase Failed, reason {reason}: {message}"),
        )];
        let evs: Vec<_> = events.iter().filter(|(_, e)| e.reason == reason).collect();
        ev.extend(event_evidence(
            snap,
            &evs.iter().rev().take(1).copied().collect::<Vec<_>>(),
        ));
        if !node.is_empty() {
            ev.push(node_evidence(snap, &node));
        }
        let what = if rejected {
            "was rejected by the kubelet"
        } else {
            "was stopped by the kubelet"
        };
        Diagnosis {
            stage: Stage::Node,
            severity: Severity::Error,
            cause: format!("failed:{reason}"),
            summary: format!("{what} on node {node} ({reason}): {message}"),
            evidence: ev,
            help: if rejected {
                "kubelet admission rejected the pod after scheduling; it is not retried on another node. Compare the pod's resources with the node's kubelet resource managers and free capacity"
            } else {
                "the node reclaimed resources or shut down; check the node's pressure conditions and whether the controller replaced the pod"
            },
        }
    } else {
        let cs = pod.all_statuses().find(|(c, _)| {
            c.state
                .terminated
                .as_ref()
                .is_some_and(|t| t.exit_code.unwrap_or(0) != 0)
        });
        match cs {
            Some((cs, init)) => crashed(snap, id, pod, cs, init, events),
            None => failed_unscheduled(snap, id, pod).unwrap_or_else(|| Diagnosis {
                stage: Stage::Runtime,
                severity: Severity::Error,
                cause: format!("failed:{reason}"),
                summary: format!(
                    "failed{}",
                    if reason.is_empty() && message.is_empty() {
                        " without a reason in its status".to_string()
                    } else {
                        format!(" ({reason}): {message}")
                    }
                ),
                evidence: vec![evidence::field(
                    snap,
                    id,
                    &["status", "phase"],
                    "phase Failed",
                )],
                help: "read the pod's containers' logs and events",
            }),
        }
    };
    // The owner's current state decides: a Job that completed, a later installer or the
    // static pod's revision on the node, a controller at its desired ready replicas.
    if let Some(s) = superseded(snap, id, pod) {
        d.help = s.apply(
            &mut d.severity,
            &mut d.summary,
            &mut d.cause,
            &mut d.evidence,
        );
    } else if let Some((job, job_uid)) = missing_job(snap, pod)
        && d.severity == Severity::Error
    {
        // A failed run of a Job the bundle does not hold: unless the events record how
        // the Job ended, it may have retried and succeeded since; the outcome is unknown.
        // (Events that record its completion made it history above.)
        match job_end_event(snap, pod.metadata.namespace.as_deref(), job, job_uid) {
            Some((eid, e, false)) => {
                d.summary.push_str(&format!(
                    "; its Job {job} is not in the bundle, but {}",
                    if e.regarding.kind == "CronJob" {
                        format!(
                            "CronJob {}'s event {} says it failed: {}",
                            e.regarding.name,
                            e.reason,
                            e.message.trim()
                        )
                    } else {
                        format!("its event {} says it gave up", e.reason)
                    }
                ));
                d.evidence.push(evidence::event(snap, eid, e));
            }
            _ => {
                d.severity = Severity::Warning;
                d.summary.push_str(&format!(
                    "; its Job {job} is not in the bundle, so whether a retry succeeded is unknown"
                ));
            }
        }
    }
    Some(d)
}

/// The name and uid of the Job that owns `pod` when the bundle does not hold it.
fn missing_job<'a>(snap: &Snapshot, pod: &'a Pod) -> Option<(&'a str, &'a str)> {
    let owner = pod
        .metadata
        .owner_references
        .iter()
        .find(|o| o.kind == "Job" && o.api_version.starts_with("batch/"))?;
    let ns = pod.metadata.namespace.as_deref();
    snap.find("Job", ns, &owner.name)
        .is_none()
        .then_some((owner.name.as_str(), owner.uid.as_str()))
}

//! The container stages of a stuck pod: a container that cannot start (its image, its
//! config, its sandbox) or that keeps crashing.

use super::{Diagnosis, event_evidence, events_with, pod_field};
use crate::kube::event::Event;
use crate::kube::pod::{ContainerStatus, Pod};
use crate::rules::pod_findings::node_evidence;
use crate::rules::{Evidence, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};

use crate::kube::pod::IMAGE_REASONS;
const RUNTIME_REASONS: &[&str] = &[
    "CrashLoopBackOff",
    "RunContainerError",
    "CreateContainerConfigError",
    "CreateContainerError",
    "PostStartHookError",
    "ContainerCannotRun",
    "PreStartHookError",
];

/// A container (init first) waiting or terminated with a reason that names the stage.
pub(super) fn container_problem(
    snap: &Snapshot,
    id: ObjectId,
    pod: &Pod,
    node: &str,
    events: &[(ObjectId, &Event)],
) -> Option<Diagnosis> {
    for (cs, init) in pod.all_statuses() {
        let Some(w) = &cs.state.waiting else {
            if init
                && let Some(t) = &cs.state.terminated
                && t.exit_code.unwrap_or(0) != 0
            {
                return Some(crashed(snap, id, pod, cs, init, events));
            }
            continue;
        };
        let reason = w.reason.as_deref().unwrap_or("");
        let kind = if init { "init container" } else { "container" };
        let where_ = status_path(init, &cs.name);
        if IMAGE_REASONS.contains(&reason) {
            let image = pod
                .container(&cs.name)
                .and_then(|c| c.image.clone())
                .or_else(|| cs.image.clone())
                .unwrap_or_default();
            let mut ev = vec![pod_field(
                snap,
                id,
                &where_.iter().map(String::as_str).collect::<Vec<_>>(),
                format!(
                    "{kind} {} waiting: {reason}{}",
                    cs.name,
                    w.message
                        .as_deref()
                        .map(|m| format!(": {m}"))
                        .unwrap_or_default()
                ),
            )];
            let pulls = events_with(
                events,
                &["Failed", "BackOff", "InspectFailed", "ErrImageNeverPull"],
            );
            let pulls: Vec<_> = pulls
                .into_iter()
                .filter(|(_, e)| {
                    e.message.contains(image.as_str()) || e.message.starts_with("Error: ")
                })
                .collect();
            let detailed = pulls
                .iter()
                .rev()
                .find(|(_, e)| {
                    e.message.starts_with("Failed to pull image") || e.reason == "InspectFailed"
                })
                .copied();
            let detail = detailed.map(|(_, e)| e.message.clone());
            // The runtime's own words first, then the latest back-off.
            let detailed_id = detailed.map(|(id, _)| *id);
            let mut shown: Vec<&(ObjectId, &Event)> = detailed.into_iter().collect();
            shown.extend(
                pulls
                    .iter()
                    .rev()
                    .filter(|p| Some(p.0) != detailed_id)
                    .take(2)
                    .copied(),
            );
            ev.extend(event_evidence(snap, &shown));
            ev.push(node_evidence(snap, node));
            return Some(Diagnosis {
                stage: Stage::Node,
                severity: Severity::Error,
                cause: format!("image:{}:{image}", cs.name),
                summary: format!(
                    "is bound to node {node} but cannot get image {image} for {kind} {} ({reason}){}",
                    cs.name,
                    detail.map(|d| format!(": {d}")).unwrap_or_default()
                ),
                evidence: ev,
                help: "check the image reference (registry, repository, tag) and the pull credentials; adding nodes will not fix an image pull",
            });
        }
        if RUNTIME_REASONS.contains(&reason) {
            return Some(crashed(snap, id, pod, cs, init, events));
        }
        if matches!(reason, "ContainerCreating" | "PodInitializing") {
            continue; // look at events below
        }
    }
    // Sandbox, volume and attach problems show only as events while containers are created.
    let node_events = events_with(
        events,
        &[
            "FailedMount",
            "FailedAttachVolume",
            "FailedCreatePodSandBox",
            "FailedKillPod",
            "FailedSync",
            "NetworkNotReady",
        ],
    );
    let creating = pod.all_statuses().any(|(cs, _)| {
        cs.state
            .waiting
            .as_ref()
            .and_then(|w| w.reason.as_deref())
            .is_some_and(|r| matches!(r, "ContainerCreating" | "PodInitializing"))
    }) || pod.status.container_statuses.is_empty();
    if creating && let Some((_, last)) = node_events.last() {
        let mut ev = event_evidence(
            snap,
            &node_events
                .iter()
                .rev()
                .take(2)
                .rev()
                .copied()
                .collect::<Vec<_>>(),
        );
        ev.push(node_evidence(snap, node));
        return Some(Diagnosis {
            stage: Stage::Node,
            severity: Severity::Error,
            cause: format!("creating:{}", last.reason),
            summary: format!(
                "is bound to node {node} but its containers cannot be created ({}): {}",
                last.reason,
                last.message.trim()
            ),
            evidence: ev,
            help: match last.reason.as_str() {
                "FailedMount" | "FailedAttachVolume" => {
                    "check the volume's PVC/PV, Secret or ConfigMap named in the event, and the CSI driver on the node"
                }
                _ => {
                    "check the node's container runtime and CNI plugin (kubelet and runtime logs on that node)"
                }
            },
        });
    }
    None
}

fn status_path(init: bool, name: &str) -> Vec<String> {
    vec![
        "status".into(),
        if init {
            "initContainerStatuses"
        } else {
            "containerStatuses"
        }
        .into(),
        format!("name={name}"),
    ]
}

/// A container that crashes, exits non-zero or cannot start: the runtime stage.
pub(super) fn crashed(
    snap: &Snapshot,
    id: ObjectId,
    pod: &Pod,
    cs: &ContainerStatus,
    init: bool,
    events: &[(ObjectId, &Event)],
) -> Diagnosis {
    let kind = if init { "init container" } else { "container" };
    let reason = cs
        .state
        .waiting
        .as_ref()
        .and_then(|w| w.reason.clone())
        .or_else(|| cs.state.terminated.as_ref().and_then(|t| t.reason.clone()))
        .unwrap_or_else(|| "Error".into());
    let waiting_msg = cs.state.waiting.as_ref().and_then(|w| w.message.clone());
    let term = cs
        .state
        .terminated
        .as_ref()
        .or(cs.last_state.terminated.as_ref());
    let mut facts = Vec::new();
    if cs.restart_count > 0 {
        facts.push(format!("{} restarts", cs.restart_count));
    }
    if let Some(t) = term {
        let mut s = format!("last exit code {}", t.exit_code.unwrap_or(0));
        if let Some(r) = &t.reason {
            s.push_str(&format!(" ({r})"));
        }
        facts.push(s);
    }
    let oom = term.and_then(|t| t.reason.as_deref()) == Some("OOMKilled");
    if oom
        && let Some(limit) = pod
            .container(&cs.name)
            .and_then(|c| c.resources.limits.get("memory"))
    {
        facts.push(format!("memory limit {}", limit.raw));
    }
    let where_ = status_path(init, &cs.name);
    let mut ev = vec![pod_field(
        snap,
        id,
        &where_.iter().map(String::as_str).collect::<Vec<_>>(),
        format!(
            "{kind} {}: {reason}{}{}",
            cs.name,
            waiting_msg
                .as_deref()
                .map(|m| format!(": {m}"))
                .unwrap_or_default(),
            if facts.is_empty() {
                String::new()
            } else {
                format!("; {}", facts.join(", "))
            }
        ),
    )];
    let evs = events_with(events, &["BackOff", "Failed", "Killing", "OOMKilling"]);
    ev.extend(event_evidence(
        snap,
        &evs.iter().rev().take(2).rev().copied().collect::<Vec<_>>(),
    ));
    let logs = snap.logs_of(
        snap.object(id).namespace.as_deref().unwrap_or(""),
        &snap.object(id).name,
    );
    let log_note: Vec<String> = logs
        .iter()
        .filter(|l| l.key.container == cs.name)
        .map(|l| {
            format!(
                "{}{}",
                l.path,
                if l.key.previous {
                    " (previous run)"
                } else {
                    ""
                }
            )
        })
        .collect();
    if !log_note.is_empty() {
        ev.push(Evidence {
            object: None,
            input: logs.first().map(|l| l.input),
            file: None,
            line: None,
            note: format!("container logs in the bundle: {}", log_note.join(", ")),
        });
    }
    let summary = match reason.as_str() {
        "CrashLoopBackOff" if oom => format!(
            "has {kind} {} in CrashLoopBackOff: it is OOMKilled ({})",
            cs.name,
            facts.join(", ")
        ),
        "CrashLoopBackOff" => format!(
            "has {kind} {} in CrashLoopBackOff ({})",
            cs.name,
            facts.join(", ")
        ),
        // A container that ended for good (a Failed pod's, an init container's): what it
        // ended with, in the past tense.
        _ if cs.state.waiting.is_none()
            && let Some(t) = &cs.state.terminated =>
        {
            let others: Vec<&str> = facts
                .iter()
                .map(String::as_str)
                .filter(|f| !f.starts_with("last exit code"))
                .collect();
            format!(
                "has {kind} {} that exited with code {} ({reason}){}",
                cs.name,
                t.exit_code.unwrap_or(0),
                if others.is_empty() {
                    String::new()
                } else {
                    format!("; {}", others.join(", "))
                }
            )
        }
        _ => format!(
            "has {kind} {} failing with {reason}{}{}",
            cs.name,
            waiting_msg
                .as_deref()
                .map(|m| format!(": {m}"))
                .unwrap_or_default(),
            if facts.is_empty() {
                String::new()
            } else {
                format!(" ({})", facts.join(", "))
            }
        ),
    };
    Diagnosis {
        stage: Stage::Runtime,
        severity: Severity::Error,
        cause: format!(
            "{}:{}",
            if oom { "OOMKilled" } else { reason.as_str() },
            cs.name
        ),
        summary,
        evidence: ev,
        help: if oom {
            "raise the container's memory limit or reduce its memory use; the kernel killed it at the limit"
        } else if matches!(
            reason.as_str(),
            "CreateContainerConfigError" | "CreateContainerError"
        ) {
            "the container spec references something missing (a Secret or ConfigMap key, a user, a command); the message names it"
        } else if cs.restart_count == 0 && cs.state.terminated.is_some() {
            "read the container's log (it ran once and its log is the current one); the exit code says how it ended"
        } else {
            "read the container's previous log (the crash happened there); the exit code says how it ended"
        },
    }
}

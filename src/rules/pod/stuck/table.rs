//! Pods read from kubectl's table text (see `kube::table`): where each stopped, from
//! what the row shows (STATUS, READY, RESTARTS, NODE) and the pod's Events.
//!
//! A row's STATUS is kubectl's summary: a container's waiting or terminated reason when
//! one has one, else the phase. The row does not hold which container, its exit code, its
//! last termination's reason and message, its limits or probes: a diagnosis names a
//! container only when an Event does, and says what the table cannot tell.

use super::{Diagnosis, event_evidence, pod_field};
use crate::kube::event::Event;
use crate::kube::pod::Pod;
use crate::kube::table;
use crate::rules::pod_findings::{self, node_evidence};
use crate::rules::{Evidence, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::BTreeSet;

use crate::kube::pod::IMAGE_REASONS as IMAGE;
const CONFIG: &[&str] = &[
    "CreateContainerConfigError",
    "CreateContainerError",
    "RunContainerError",
    "PreStartHookError",
    "PostStartHookError",
];
const EXITED: &[&str] = &[
    "Error",
    "ContainerCannotRun",
    "StartError",
    "DeadlineExceeded",
];

/// What a table cannot tell about a container that ended.
const NO_TERMINATION: &str =
    "the exit code and the last termination's reason and message are not in a kubectl table";

/// The diagnosis of a pod read from a table (see [`table::is_from_table`]), or `None`
/// when its row shows it healthy or done.
pub(super) fn diagnose(
    snap: &Snapshot,
    id: ObjectId,
    pod: &Pod,
    events: &[(ObjectId, &Event)],
) -> Option<Diagnosis> {
    let meta = &pod.metadata;
    let status = table::cell(meta, "STATUS").unwrap_or("");
    let ready = table::ready_counts(meta);
    let all_ready = ready.is_some_and(|(n, m)| m > 0 && n == m);
    if matches!(status, "Completed" | "Succeeded") || (status == "Running" && all_ready) {
        return None;
    }
    let row = Row::of(snap, id, pod, status);
    let node = pod.spec.node_name.as_deref().filter(|n| !n.is_empty());
    let (reason, init) = match status.strip_prefix("Init:") {
        Some(r) => (r, true),
        None => (status, false),
    };
    let mut d = if reason == "CrashLoopBackOff" {
        crash_loop(snap, &row, events, init)
    } else if reason == "OOMKilled" {
        oom_killed(snap, &row, events, init)
    } else if EXITED.contains(&reason)
        || reason.starts_with("ExitCode:")
        || reason.starts_with("Signal:")
    {
        exited(snap, &row, events, reason, init)
    } else if IMAGE.contains(&reason) {
        image(snap, &row, events, node, reason)
    } else if CONFIG.contains(&reason) {
        config(snap, &row, events, reason)
    } else if status == "Running" || status == "NotReady" {
        not_ready(snap, &row, events)
    } else if status == "Terminating" {
        terminating(&row)
    } else {
        other(snap, &row, events, node, status)
    };
    if d.severity != Severity::Info
        && let Some(age) = pod_findings::just_created(snap, pod)
        && !events.iter().any(|(_, e)| e.is_warning())
    {
        d.severity = Severity::Info;
        d.summary.push_str(&format!(
            " — created {age}s before the snapshot; nothing has had time to happen"
        ));
        d.cause.push_str(":just-created");
    }
    Some(d)
}

/// The row as evidence, and what it shows in words.
struct Row {
    evidence: Evidence,
    /// `READY 0/1, RESTARTS 8 (last 4m53s before the capture)`.
    shows: String,
    restarts: Option<u64>,
}

impl Row {
    fn of(snap: &Snapshot, id: ObjectId, pod: &Pod, status: &str) -> Row {
        let meta = &pod.metadata;
        let mut shows = format!("STATUS {status}");
        if let Some(r) = table::cell(meta, "READY") {
            shows.push_str(&format!(", READY {r}"));
        }
        let restarts = table::restarts(meta);
        if let Some((n, ago)) = restarts {
            shows.push_str(&format!(", RESTARTS {n}"));
            if let Some(a) = ago {
                shows.push_str(&format!(" (last {a} before the capture)"));
            }
        }
        if let Some(age) = table::cell(meta, "AGE") {
            shows.push_str(&format!(", AGE {age}"));
        }
        if let Some(n) = pod.spec.node_name.as_deref() {
            shows.push_str(&format!(", NODE {n}"));
        }
        let key = table::cell_key("STATUS");
        let evidence = pod_field(
            snap,
            id,
            &["metadata", "annotations", &key],
            format!("kubectl get pods row: {shows}"),
        );
        Row {
            evidence,
            shows,
            restarts: restarts.map(|(n, _)| n),
        }
    }
}

/// The containers the pod's Events name (`spec.containers{web}`), sorted.
fn named_containers(events: &[(ObjectId, &Event)], init: bool) -> BTreeSet<String> {
    let prefix = if init {
        "spec.initContainers{"
    } else {
        "spec.containers{"
    };
    events
        .iter()
        .filter_map(|(_, e)| e.regarding.field_path.as_deref())
        .filter_map(|p| p.strip_prefix(prefix)?.strip_suffix('}'))
        .map(str::to_string)
        .collect()
}

/// The container a `Back-off restarting failed container X in pod …` Event names.
fn backoff_container(e: &Event) -> Option<&str> {
    let rest = e
        .message
        .strip_prefix("Back-off restarting failed container ")?;
    rest.split_once(" in pod ").map(|(c, _)| c)
}

fn with_reasons<'a>(
    events: &'a [(ObjectId, &'a Event)],
    keep: impl Fn(&Event) -> bool,
) -> Vec<&'a (ObjectId, &'a Event)> {
    let mut out: Vec<_> = events.iter().filter(|(_, e)| keep(e)).collect();
    // The most recent last: evidence quotes the newest few.
    out.sort_by_key(|(_, e)| e.last);
    let skip = out.len().saturating_sub(2);
    out.split_off(skip)
}

fn listed(names: &BTreeSet<String>) -> String {
    names.iter().cloned().collect::<Vec<_>>().join(", ")
}

fn crash_loop(snap: &Snapshot, row: &Row, events: &[(ObjectId, &Event)], init: bool) -> Diagnosis {
    let backoffs = with_reasons(events, |e| backoff_container(e).is_some());
    let from_backoff: BTreeSet<String> = backoffs
        .iter()
        .filter_map(|(_, e)| backoff_container(e).map(str::to_string))
        .collect();
    let kind = if init { "init container" } else { "container" };
    let who = if from_backoff.is_empty() {
        format!("a {kind} (the table does not say which, and no BackOff event names it)")
    } else {
        format!("{kind} {}", listed(&from_backoff))
    };
    let mut evidence = vec![row.evidence.clone()];
    evidence.extend(event_evidence(snap, &backoffs));
    Diagnosis {
        stage: Stage::Runtime,
        severity: Severity::Error,
        cause: format!("table:crash-loop:{}", listed(&from_backoff)),
        summary: format!(
            "is in CrashLoopBackOff ({}): {who} starts and keeps exiting, and the kubelet backs off restarting it; whether it ran out of memory (OOMKilled) or exited with an error cannot be told: {NO_TERMINATION}",
            row.shows
        ),
        evidence,
        help: "read the container's previous log (kubectl logs --previous) and `kubectl describe pod` for its last state: exit code 137 with OOMKilled is its memory limit, another code is the app",
    }
}

fn oom_killed(snap: &Snapshot, row: &Row, events: &[(ObjectId, &Event)], init: bool) -> Diagnosis {
    let names = named_containers(events, init);
    let mut evidence = vec![row.evidence.clone()];
    evidence.extend(event_evidence(
        snap,
        &with_reasons(events, |e| {
            e.reason == "BackOff" || e.reason == "OOMKilling"
        }),
    ));
    Diagnosis {
        stage: Stage::Runtime,
        severity: Severity::Error,
        cause: "table:oom-killed".into(),
        summary: format!(
            "was OOMKilled ({}): a container's last run ended when it exceeded its memory limit{}; the limit and which container are not in a kubectl table",
            row.shows,
            if names.is_empty() {
                String::new()
            } else {
                format!(" (its events name {})", listed(&names))
            }
        ),
        evidence,
        help: "raise the container's memory limit or find what makes it grow; `kubectl describe pod` shows the limit and the last state",
    }
}

fn exited(
    snap: &Snapshot,
    row: &Row,
    events: &[(ObjectId, &Event)],
    reason: &str,
    init: bool,
) -> Diagnosis {
    let names = named_containers(events, init);
    let kind = if init {
        "an init container"
    } else {
        "a container"
    };
    let restarted = match row.restarts {
        Some(0) => "; RESTARTS 0: it was not restarted",
        _ => "",
    };
    let which = match names.len() {
        0 => String::new(),
        1 => format!(" (its events name one container, {})", listed(&names)),
        _ => format!(
            " (its events name containers {}; the table does not say which ended)",
            listed(&names)
        ),
    };
    let probes = with_reasons(events, |e| e.reason == "Unhealthy" || e.reason == "Killing");
    let mut evidence = vec![row.evidence.clone()];
    evidence.extend(event_evidence(snap, &probes));
    Diagnosis {
        stage: Stage::Runtime,
        severity: Severity::Error,
        cause: format!("table:exited:{reason}"),
        summary: format!(
            "has {kind} that terminated with {reason} ({}){which}{restarted}; {NO_TERMINATION}{}",
            row.shows,
            if probes.is_empty() {
                "; no probe or kill event says the kubelet stopped it: it exited by itself"
            } else {
                ""
            }
        ),
        evidence,
        help: "read the container's log and `kubectl describe pod` for its exit code and message",
    }
}

fn image(
    snap: &Snapshot,
    row: &Row,
    events: &[(ObjectId, &Event)],
    node: Option<&str>,
    reason: &str,
) -> Diagnosis {
    let failures = with_reasons(events, |e| {
        e.reason == "Failed" && e.message.starts_with("Failed to pull image")
    });
    let said = failures
        .last()
        .map(|(_, e)| format!("; the kubelet said: {}", e.message.trim()))
        .unwrap_or_else(|| {
            "; no event in the bundle says why the pull failed (events expire after about an hour)"
                .to_string()
        });
    let mut evidence = vec![row.evidence.clone()];
    evidence.extend(event_evidence(snap, &failures));
    if let Some(n) = node {
        evidence.push(node_evidence(snap, n));
    }
    Diagnosis {
        stage: Stage::Node,
        severity: Severity::Error,
        cause: format!("table:image:{reason}"),
        summary: format!("cannot pull its image: {reason} ({}){said}", row.shows),
        evidence,
        help: "check the image name and tag, that the registry is reachable from the node, and the pull secret",
    }
}

fn config(snap: &Snapshot, row: &Row, events: &[(ObjectId, &Event)], reason: &str) -> Diagnosis {
    let failed = with_reasons(events, |e| e.reason == "Failed");
    let mut evidence = vec![row.evidence.clone()];
    evidence.extend(event_evidence(snap, &failed));
    Diagnosis {
        stage: Stage::Runtime,
        severity: Severity::Error,
        cause: format!("table:config:{reason}"),
        summary: format!(
            "cannot create its container: {reason} ({}){}",
            row.shows,
            failed
                .last()
                .map(|(_, e)| format!("; the kubelet said: {}", e.message.trim()))
                .unwrap_or_default()
        ),
        evidence,
        help: "check the ConfigMaps, Secrets and volumes the container refers to",
    }
}

fn not_ready(snap: &Snapshot, row: &Row, events: &[(ObjectId, &Event)]) -> Diagnosis {
    let probes = with_reasons(events, |e| {
        e.reason == "Unhealthy" && e.message.starts_with("Readiness probe")
    });
    let mut evidence = vec![row.evidence.clone()];
    evidence.extend(event_evidence(snap, &probes));
    let why = match probes.last() {
        Some((_, e)) => format!(": the readiness probe fails: {}", e.message.trim()),
        None => "; the bundle holds no probe event saying why, and a kubectl table shows no probe or condition".to_string(),
    };
    Diagnosis {
        stage: Stage::Readiness,
        severity: Severity::Warning,
        cause: "table:not-ready".into(),
        summary: format!("is running but not Ready ({}){why}", row.shows),
        evidence,
        help: "check the readiness probe and the app's log; probe events expire after about an hour",
    }
}

fn terminating(row: &Row) -> Diagnosis {
    Diagnosis {
        stage: Stage::Node,
        severity: Severity::Info,
        cause: "table:terminating".into(),
        summary: format!(
            "is being deleted ({}); a kubectl table does not show since when, nor its finalizers",
            row.shows
        ),
        evidence: vec![row.evidence.clone()],
        help: "if it stays Terminating, check its node's kubelet and the pod's finalizers",
    }
}

/// Any other STATUS (`Pending`, `ContainerCreating`, `Init:0/1`, `Evicted`, `Unknown`…):
/// the stage its node says, with the pod's warnings.
fn other(
    snap: &Snapshot,
    row: &Row,
    events: &[(ObjectId, &Event)],
    node: Option<&str>,
    status: &str,
) -> Diagnosis {
    let warnings = with_reasons(events, Event::is_warning);
    let mut evidence = vec![row.evidence.clone()];
    evidence.extend(event_evidence(snap, &warnings));
    let (stage, place) = match node {
        Some(n) => {
            evidence.push(node_evidence(snap, n));
            (Stage::Node, format!("on node {n}"))
        }
        None => (Stage::Scheduling, "on no node".to_string()),
    };
    let said = warnings
        .last()
        .map(|(_, e)| format!("; last warning: {} {}", e.reason, e.message.trim()))
        .unwrap_or_else(|| "; no warning event in the bundle says why".to_string());
    Diagnosis {
        stage,
        severity: Severity::Warning,
        cause: format!("table:status:{status}"),
        summary: format!("shows STATUS {status} {place} ({}){said}", row.shows),
        evidence,
        help: "`kubectl describe pod` shows the container states and conditions a kubectl table leaves out",
    }
}

//! `runtime/init-container`: an init container that fails or never finishes.

use super::facts::{self, log_evidence, termination_sentence};
use crate::declare_rule;
use crate::kube::meta::ObjectRef;
use crate::kube::requests::is_sidecar;
use crate::kube::time::{format_duration, parse_timestamp};
use crate::rules::pod_findings::{self, Case};
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use std::collections::BTreeMap;

declare_rule! {
    /// Explains pods held in initialization by an init container that fails or keeps running.
    ///
    /// Init containers run one after another before the app containers; the first one
    /// that exits non-zero (and crash-loops under `restartPolicy: Always`) or that keeps
    /// running (a wait-for-dependency loop) holds the whole pod. The finding names that
    /// init container, its exit code and what it means, and quotes the last error lines
    /// of its log when the bundle has it. Sidecars (`restartPolicy: Always` init
    /// containers) are reported by `runtime/crash-loop`.
    pub static INIT_CONTAINER = {
        id: "runtime/init-container",
        stage: Stage::Runtime,
        severity: Severity::Error,
        fallback: false,
        // Local: each pod with its Events and logs, grouped by the pod's owner.
        reach: Reach::Local,
        run: run,
    };
}

/// An init container running this long is reported as stuck.
const STUCK_RUNNING_SECS: i64 = 600;

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let mut groups: BTreeMap<(ObjectRef, String), (Vec<Case>, String, Severity)> = BTreeMap::new();
    for (id, pod) in snap.pods() {
        if pod.phase() != "Pending"
            || pod.metadata.deletion_timestamp.is_some()
            || facts::job_failed(snap, pod)
            || pod
                .condition("Initialized")
                .is_some_and(|c| c.status == "True")
        {
            continue;
        }
        // The first init container (not a sidecar) that has not completed.
        let Some(cs) = pod.status.init_container_statuses.iter().find(|cs| {
            let sidecar = pod.container(&cs.name).is_some_and(is_sidecar);
            let done = cs
                .state
                .terminated
                .as_ref()
                .is_some_and(|t| t.exit_code == Some(0));
            !sidecar && !done
        }) else {
            continue;
        };
        let waiting = cs.state.waiting.as_ref().and_then(|w| w.reason.as_deref());
        let failed_exit = cs
            .state
            .terminated
            .as_ref()
            .is_some_and(|t| t.exit_code.unwrap_or(0) != 0);
        let running_for = cs
            .state
            .running
            .as_ref()
            .and_then(|r| r.started_at.as_deref())
            .and_then(parse_timestamp)
            .zip(snap.as_of)
            .map(|(t, a)| a - t)
            .filter(|d| *d >= STUCK_RUNNING_SECS);
        let (cause, what, help, severity) = if waiting == Some("CrashLoopBackOff") || failed_exit {
            (
                format!("init-failed:{}", cs.name),
                format!(
                    "init container {} fails{}",
                    cs.name,
                    if cs.restart_count > 0 {
                        format!(" ({} restarts)", cs.restart_count)
                    } else {
                        String::new()
                    }
                ),
                "read the init container's log; the app containers never start until it exits 0",
                Severity::Error,
            )
        } else if let Some(d) = running_for {
            (
                format!("init-running:{}", cs.name),
                format!(
                    "init container {} has been running for {} and the app containers wait for it",
                    cs.name,
                    format_duration(d)
                ),
                "an init container that waits for a dependency (a database, a Service, a file) loops until it appears: check what it waits for in its log",
                Severity::Warning,
            )
        } else {
            continue;
        };
        let mut ev = vec![facts::status_evidence(
            snap,
            *id,
            cs,
            true,
            format!(
                "init container {}: {}; restartCount {}",
                cs.name,
                waiting
                    .map(str::to_string)
                    .or_else(|| cs
                        .state
                        .terminated
                        .as_ref()
                        .and_then(|t| t.reason.as_deref().map(String::from)))
                    .unwrap_or_else(|| "running".into()),
                cs.restart_count
            ),
        )];
        let events = snap.events_for(*id);
        let field = format!("{{{}}}", cs.name);
        let related: Vec<_> = events
            .iter()
            .filter(|(_, e)| {
                e.is_warning()
                    && e.regarding
                        .field_path
                        .as_deref()
                        .is_some_and(|f| f.contains(&field))
            })
            .collect();
        ev.extend(pod_findings::last_events(snap, &related, 1));
        let logs = log_evidence(snap, *id, &cs.name, 3);
        let log_line = facts::last_log_line(&logs);
        ev.extend(logs);
        let mut summary = format!("is held in initialization: {what}");
        if let Some((t, _)) = termination_sentence(pod, cs) {
            summary.push_str(&format!("; {t}"));
        }
        if let Some(l) = log_line {
            summary.push_str(&format!("; its log ends with: {l}"));
        }
        let entry = groups
            .entry((pod_findings::owner_of(snap, *id), cause))
            .or_insert_with(|| (Vec::new(), help.to_string(), severity));
        entry.0.push(Case {
            id: *id,
            summary,
            evidence: ev,
        });
    }
    groups
        .into_iter()
        .map(|((owner, cause), (cases, help, sev))| {
            pod_findings::pods_finding(snap, &INIT_CONTAINER, sev, owner, &cause, cases, help)
        })
        .collect()
}

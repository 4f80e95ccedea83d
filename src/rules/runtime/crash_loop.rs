//! `runtime/crash-loop`: containers in CrashLoopBackOff, with how they last ended.

use super::facts::{self, last_termination, log_evidence, termination_sentence};
use crate::declare_rule;
use crate::kube::event::Event;
use crate::kube::meta::ObjectRef;
use crate::rules::pod_findings::{self, Case};
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use crate::snapshot::ObjectId;
use std::collections::BTreeMap;

declare_rule! {
    /// Explains containers in CrashLoopBackOff from their last termination and their logs.
    ///
    /// Reads the last termination (exit code and what it means, signal, OOMKilled against
    /// the container's memory limit and request), liveness-probe kills from the kubelet's
    /// events, and quotes the last error lines of the container's previous log when the
    /// bundle holds it. The container starts and then ends: the cause is in the
    /// application, its configuration or its limits, not in scheduling or the node.
    /// Init containers that are not sidecars are left to `runtime/init-container`.
    pub static CRASH_LOOP = {
        id: "runtime/crash-loop",
        stage: Stage::Runtime,
        severity: Severity::Error,
        fallback: false,
        // Local: each pod with its Events and logs, grouped by the pod's owner.
        reach: Reach::Local,
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let mut groups: BTreeMap<(ObjectRef, String), (Vec<Case>, String)> = BTreeMap::new();
    for (id, pod) in snap.pods() {
        if !pod.is_active()
            || pod.metadata.deletion_timestamp.is_some()
            || facts::job_failed(snap, pod)
        {
            continue;
        }
        let Some((cs, init)) = pod.all_statuses().find(|(cs, init)| {
            cs.state.waiting.as_ref().and_then(|w| w.reason.as_deref()) == Some("CrashLoopBackOff")
                && (!init
                    || pod
                        .container(&cs.name)
                        .is_some_and(crate::kube::requests::is_sidecar))
        }) else {
            continue;
        };
        let events = snap.events_for(*id);
        let kind = if init {
            "sidecar container"
        } else {
            "container"
        };
        let term = termination_sentence(pod, cs);
        let oom = term.as_ref().is_some_and(|(_, o)| *o);
        let last_reason = last_termination(cs)
            .and_then(|t| t.reason.clone())
            .unwrap_or_default();
        let cannot_run = matches!(last_reason.as_str(), "ContainerCannotRun" | "StartError");
        let liveness = liveness_kills(&events, &cs.name);
        let mut ev = vec![facts::status_evidence(
            snap,
            *id,
            cs,
            init,
            format!(
                "{kind} {} waiting: CrashLoopBackOff{}; restartCount {}",
                cs.name,
                cs.state
                    .waiting
                    .as_ref()
                    .and_then(|w| w.message.as_deref())
                    .map(|m| format!(" ({m})"))
                    .unwrap_or_default(),
                cs.restart_count
            ),
        )];
        if let Some((eid, e)) = liveness.last() {
            ev.push(crate::rules::evidence::event(snap, *eid, e));
        }
        let backoff = pod_findings::events_with(&events, &["BackOff"]);
        ev.extend(pod_findings::last_events(snap, &backoff, 1));
        let logs = log_evidence(snap, *id, &cs.name, 3);
        let log_line = facts::last_log_line(&logs);
        ev.extend(logs);
        let (cause, why, help) = if oom {
            (
                format!("oom:{}", cs.name),
                "it is OOMKilled".to_string(),
                "raise the container's memory limit or lower its memory use (heap size, caches); the kernel kills it when it reaches the limit",
            )
        } else if let Some((_, e)) = liveness
            .iter()
            .rev()
            .find(|(_, e)| e.reason == "Unhealthy")
            .or(liveness.last())
        {
            (
                format!("liveness:{}", cs.name),
                format!(
                    "the kubelet restarts it because its liveness probe fails ({})",
                    e.message.trim()
                ),
                "fix what the liveness probe checks, or give the app more time (initialDelaySeconds, a startupProbe, failureThreshold); a liveness probe that depends on other services restarts healthy pods",
            )
        } else if cannot_run {
            (
                format!("cannot-run:{}", cs.name),
                "it cannot even start".to_string(),
                "fix the container's command, entrypoint or mounts: the runtime fails before the application runs",
            )
        } else {
            (
                format!("crash:{}", cs.name),
                "it starts and exits".to_string(),
                "read the container's previous log: the application says why it exits; the exit code says how",
            )
        };
        let mut summary = format!(
            "has {kind} {} in CrashLoopBackOff ({} restarts): {why}",
            cs.name, cs.restart_count
        );
        if let Some((t, _)) = &term {
            summary.push_str(&format!("; {t}"));
        }
        if let Some(l) = &log_line {
            summary.push_str(&format!("; its log ends with: {l}"));
        }
        groups
            .entry((pod_findings::owner_of(snap, *id), cause))
            .or_insert_with(|| (Vec::new(), help.to_string()))
            .0
            .push(Case {
                id: *id,
                summary,
                evidence: ev,
            });
    }
    groups
        .into_iter()
        .map(|((owner, cause), (cases, help))| {
            pod_findings::pods_finding(
                snap,
                &CRASH_LOOP,
                Severity::Error,
                owner,
                &cause,
                cases,
                help,
            )
        })
        .collect()
}

/// The kubelet's liveness kills of a container: `Killing` "failed liveness probe" and
/// `Unhealthy` "Liveness probe failed" events, oldest first.
fn liveness_kills<'a>(
    events: &'a [(ObjectId, &'a Event)],
    container: &str,
) -> Vec<&'a (ObjectId, &'a Event)> {
    let field = format!("{{{container}}}");
    events
        .iter()
        .filter(|(_, e)| {
            let about = e
                .regarding
                .field_path
                .as_deref()
                .is_none_or(|f| f.contains(&field));
            about
                && ((e.reason == "Unhealthy" && e.message.starts_with("Liveness probe failed"))
                    || (e.reason == "Killing" && e.message.contains("failed liveness probe")))
        })
        .collect()
}

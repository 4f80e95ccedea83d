//! `runtime/start-error`: the runtime cannot create or start a container.

use super::facts;
use crate::declare_rule;
use crate::kube::meta::ObjectRef;
use crate::rules::pod_findings::{self, Case};
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use std::collections::BTreeMap;

declare_rule! {
    /// Explains containers the runtime cannot create or start (RunContainerError, CreateContainerError, hook errors).
    ///
    /// The image was pulled, but the process does not start: the command is not in the
    /// image, is not executable or is built for another architecture, a mount fails, or
    /// a lifecycle hook fails. The runtime's own words come from the waiting message or
    /// the kubelet's `Failed` event. Fix the container spec or the image; more nodes or
    /// a different scheduler will not help.
    pub static START_ERROR = {
        id: "runtime/start-error",
        stage: Stage::Runtime,
        severity: Severity::Error,
        fallback: false,
        // Local: each pod with its Events, grouped by the pod's owner.
        reach: Reach::Local,
        run: run,
    };
}

const REASONS: &[&str] = &[
    "RunContainerError",
    "CreateContainerError",
    "ContainerCannotRun",
    "StartError",
    "PreStartHookError",
    "PostStartHookError",
    "PreCreateHookError",
];

/// (cause key, what happened, what to do) from the runtime's message.
pub fn classify(reason: &str, message: &str) -> (&'static str, &'static str, &'static str) {
    let m = message.to_ascii_lowercase();
    if reason == "PostStartHookError" || m.contains("poststart") {
        (
            "post-start-hook",
            "its postStart hook fails",
            "fix the postStart hook command (it runs inside the container right after start)",
        )
    } else if m.contains("executable file not found")
        || (m.contains("exec:") && m.contains("no such file or directory"))
    {
        (
            "command-not-found",
            "its command is not in the image",
            "fix command/args in the pod spec or the image's entrypoint: the binary named there does not exist in the image",
        )
    } else if m.contains("exec format error") {
        (
            "exec-format",
            "its binary is built for another architecture",
            "use an image built for the node's architecture (a multi-arch image)",
        )
    } else if m.contains("permission denied") {
        (
            "permission-denied",
            "its command is not executable or not readable by the container's user",
            "make the entrypoint executable in the image, or run as a user that may execute it",
        )
    } else if m.contains("mount") || m.contains("not a directory") {
        (
            "mount",
            "a mount into the container fails",
            "check volumeMounts (mountPath, subPath) against the volumes and the image's file layout",
        )
    } else {
        (
            "start-failed",
            "the runtime cannot start it",
            "read the runtime's message: it names the failing step (command, mount, user, device)",
        )
    }
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
        let Some((cs, init, reason)) = pod.all_statuses().find_map(|(cs, init)| {
            let r = cs.state.waiting.as_ref()?.reason.clone()?;
            REASONS.contains(&r.as_str()).then_some((cs, init, r))
        }) else {
            continue;
        };
        let events = snap.events_for(*id);
        let field = format!("{{{}}}", cs.name);
        let failed: Vec<_> = events
            .iter()
            .filter(|(_, e)| {
                e.reason == "Failed"
                    && e.message.starts_with("Error: ")
                    && !e.message.starts_with("Error: ErrImage")
                    && !e.message.starts_with("Error: ImagePull")
                    && e.regarding
                        .field_path
                        .as_deref()
                        .is_none_or(|f| f.contains(&field))
            })
            .collect();
        let waiting_msg = cs
            .state
            .waiting
            .as_ref()
            .and_then(|w| w.message.as_deref().map(String::from));
        let text = waiting_msg
            .clone()
            .filter(|m| !m.trim().is_empty())
            .or_else(|| {
                failed
                    .last()
                    .map(|(_, e)| e.message.trim_start_matches("Error: ").to_string())
            })
            .unwrap_or_default();
        let (key, what, help) = classify(&reason, &text);
        let kind = if init { "init container" } else { "container" };
        let mut ev = vec![facts::status_evidence(
            snap,
            *id,
            cs,
            init,
            format!(
                "{kind} {} waiting: {reason}{}",
                cs.name,
                waiting_msg.map(|m| format!(": {m}")).unwrap_or_default()
            ),
        )];
        ev.extend(pod_findings::last_events(snap, &failed, 1));
        let summary = format!(
            "has {kind} {} failing with {reason}: {what}{}",
            cs.name,
            if text.is_empty() {
                "; the bundle holds no runtime message for it".to_string()
            } else {
                format!(" — {}", pod_findings::clip(&text, 400))
            }
        );
        groups
            .entry((
                pod_findings::owner_of(snap, *id),
                format!("{key}:{}", cs.name),
            ))
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
                &START_ERROR,
                Severity::Error,
                owner,
                &cause,
                cases,
                help,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_messages() {
        assert_eq!(classify("RunContainerError", "failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: \"wge\": executable file not found in $PATH: unknown").0, "command-not-found");
        assert_eq!(
            classify(
                "RunContainerError",
                "exec: \"/app/run.sh\": permission denied"
            )
            .0,
            "permission-denied"
        );
        assert_eq!(
            classify("CreateContainerError", "exec format error").0,
            "exec-format"
        );
        assert_eq!(
            classify(
                "RunContainerError",
                "error mounting \"/etc/x\" to rootfs: not a directory"
            )
            .0,
            "mount"
        );
        assert_eq!(
            classify(
                "PostStartHookError",
                "Exec lifecycle hook ([sh -c x]) for Container \"a\" in Pod \"b\" failed"
            )
            .0,
            "post-start-hook"
        );
        assert_eq!(
            classify("CreateContainerError", "something else").0,
            "start-failed"
        );
    }
}

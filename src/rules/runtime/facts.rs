//! What the runtime rules say about a container: its last termination (exit code,
//! signal, OOM kill against the memory limit), the last error lines of its log, and the
//! Job that owns a pod.

use crate::kube::meta::get_qty;
use crate::kube::pod::{ContainerStatus, Pod, StateDetail};
use crate::rules::Evidence;
use crate::rules::disruption;
use crate::rules::evidence;
use crate::rules::pod_findings::owning_job;
use crate::snapshot::logs::LogSource;
use crate::snapshot::{ObjectId, Snapshot};

/// The termination a crash-looping container last ended with: the current state when
/// terminated, else `lastState`.
pub fn last_termination(cs: &ContainerStatus) -> Option<&StateDetail> {
    cs.state
        .terminated
        .as_deref()
        .or(cs.last_state.terminated.as_deref())
}

/// Signal names for exit codes above 128.
fn signal_name(n: i64) -> Option<&'static str> {
    Some(match n {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        _ => return None,
    })
}

/// What an exit code usually means.
pub fn exit_meaning(code: i64, reason: Option<&str>) -> String {
    match (code, reason) {
        (_, Some("OOMKilled")) => "killed by the kernel's OOM killer (SIGKILL)".into(),
        (0, _) => "exited successfully, and a Running pod restarts it anyway (restartPolicy Always: a long-running container must not exit)".into(),
        (1, _) => "the application exited with an error".into(),
        (2, _) => "the application exited with a usage or configuration error".into(),
        (126, _) => "the command is not executable (permission or format)".into(),
        (127, _) => "the command was not found in the image".into(),
        (128, _) => "the runtime could not start the process".into(),
        (c, _) if c > 128 && c < 160 => match signal_name(c - 128) {
            Some("SIGKILL") => "killed with SIGKILL (by the kubelet, the OOM killer or a kill)".into(),
            Some("SIGTERM") => "stopped with SIGTERM (the kubelet stopping it, e.g. after a failed liveness probe)".into(),
            Some("SIGSEGV") => "crashed with a segmentation fault (SIGSEGV)".into(),
            Some("SIGABRT") => "aborted (SIGABRT), usually an assertion or a fatal runtime error".into(),
            Some(s) => format!("killed by signal {s}"),
            None => format!("killed by signal {}", c - 128),
        },
        (c, _) => format!("exited with code {c}"),
    }
}

/// The memory limit that applies to a container: its own, else the pod-level one.
pub fn memory_limit(pod: &Pod, container: &str) -> Option<String> {
    let own = pod
        .container(container)
        .and_then(|c| c.resources.limits.get("memory"))
        .map(|q| q.raw.to_string());
    own.or_else(|| {
        pod.spec
            .resources
            .as_ref()
            .and_then(|r| r.limits.get("memory"))
            .map(|q| format!("{} (pod-level)", q.raw))
    })
}

/// "last exit code 137 (OOMKilled): killed by the kernel's OOM killer at its memory
/// limit 512Mi" and whether it was an OOM kill.
pub fn termination_sentence(pod: &Pod, cs: &ContainerStatus) -> Option<(String, bool)> {
    let t = last_termination(cs)?;
    let code = t.exit_code.unwrap_or(0);
    let reason = t.reason.as_deref();
    let oom = reason == Some("OOMKilled");
    // A SIGTERM or SIGKILL the pod's own condition explains is no guess.
    let meaning = match disruption::of(pod) {
        Some(d) if matches!(code, 137 | 143) && !oom => {
            format!("stopped as the pod was {}", d.verb())
        }
        _ => exit_meaning(code, reason).to_string(),
    };
    let mut s = format!(
        "last exit code {code}{}: {meaning}",
        reason.map(|r| format!(" ({r})")).unwrap_or_default(),
    );
    if let Some(sig) = t.signal.filter(|s| *s > 0) {
        s.push_str(&format!(", signal {sig}"));
    }
    if oom {
        let request = pod
            .container(&cs.name)
            .map(|c| get_qty(&c.resources.requests, "memory"))
            .filter(|q| !q.is_zero())
            .map(|q| q.display_for("memory"));
        match memory_limit(pod, &cs.name) {
            Some(l) => s.push_str(&format!(
                " at its memory limit {l}{}",
                request
                    .map(|r| format!(" (request {r})"))
                    .unwrap_or_default()
            )),
            None => {
                s.push_str(" although it has no memory limit: the node itself ran out of memory")
            }
        }
    }
    if let Some(m) = t.message.as_deref().filter(|m| !m.trim().is_empty()) {
        s.push_str(&format!("; termination message: {}", m.trim()));
    }
    Some((s, oom))
}

/// Lines of a log that look like errors.
fn is_error_line(l: &str) -> bool {
    let l = l.to_ascii_lowercase();
    [
        "error",
        "fatal",
        "panic",
        "exception",
        "failed",
        "refused",
        "denied",
        "not found",
        "no such",
        "cannot",
        "can't",
        "unable",
        "traceback",
        "killed",
        "level=err",
        "err:",
    ]
    .iter()
    .any(|k| l.contains(k))
}

/// The last error lines (or the last lines) of the container's previous log, else its
/// current log, as evidence pointing at the log file and line.
pub fn log_evidence(
    snap: &Snapshot,
    pod_id: ObjectId,
    container: &str,
    max: usize,
) -> Vec<Evidence> {
    let o = snap.object(pod_id);
    let logs = snap.logs_of(o.namespace.as_deref().unwrap_or(""), &o.name);
    let mine: Vec<&LogSource> = logs
        .into_iter()
        .filter(|l| l.key.container == container)
        .collect();
    let pick = mine
        .iter()
        .find(|l| l.key.previous)
        .or_else(|| mine.first())
        .copied();
    let Some(log) = pick else {
        return Vec::new();
    };
    let Ok(crate::snapshot::logs::LogText {
        text, first_line, ..
    }) = snap.log_text(log)
    else {
        return Vec::new();
    };
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + first_line, l.trim_end()))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let errors: Vec<(usize, &str)> = lines
        .iter()
        .copied()
        .filter(|(_, l)| is_error_line(l))
        .collect();
    let chosen = if errors.is_empty() { &lines } else { &errors };
    let skip = chosen.len().saturating_sub(max);
    let which = if log.key.previous {
        "previous run"
    } else {
        "current run"
    };
    chosen[skip..]
        .iter()
        .map(|(n, l)| Evidence {
            object: None,
            input: Some(log.input),
            file: Some(log.path.clone()),
            line: Some(*n as u32),
            note: format!(
                "log of {container} ({which}): {}",
                crate::rules::pod_findings::clip(l, 300)
            ),
        })
        .collect()
}

/// The last of `log_evidence`'s lines, for a message.
pub fn last_log_line(ev: &[Evidence]) -> Option<String> {
    ev.last()
        .and_then(|e| e.note.split_once("): ").map(|(_, l)| l.to_string()))
}

/// A pod whose Job has failed: `runtime/job-backoff` reports it, not the pod rules.
pub fn job_failed(snap: &Snapshot, pod: &Pod) -> bool {
    owning_job(snap, pod).is_some_and(|(_, j)| j.is_failed())
}

/// Evidence on a container status.
pub fn status_evidence(
    snap: &Snapshot,
    id: ObjectId,
    cs: &ContainerStatus,
    init: bool,
    note: String,
) -> Evidence {
    let seg = format!("name={}", cs.name);
    evidence::field(
        snap,
        id,
        &[
            "status",
            if init {
                "initContainerStatuses"
            } else {
                "containerStatuses"
            },
            &seg,
        ],
        note,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes() {
        assert!(exit_meaning(137, Some("OOMKilled")).contains("OOM"));
        assert!(exit_meaning(137, Some("Error")).contains("SIGKILL"));
        assert!(exit_meaning(143, None).contains("SIGTERM"));
        assert!(exit_meaning(139, None).contains("SIGSEGV"));
        assert!(exit_meaning(127, None).contains("not found"));
        assert_eq!(exit_meaning(3, None), "exited with code 3");
        assert_eq!(exit_meaning(200, None), "exited with code 200");
        assert!(exit_meaning(-1, None).contains("-1"));
    }

    #[test]
    fn error_lines() {
        assert!(is_error_line("2026-11-20T09:01:02Z FATAL cannot connect"));
        assert!(is_error_line("panic: runtime error: index out of range"));
        assert!(!is_error_line("listening on :8080"));
    }
}

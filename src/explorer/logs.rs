//! `kdiag logs`: a container's log as the bundle holds it, as `kubectl logs` prints it
//! (current, or `-p` the previous container's), found in every layout ingest indexes:
//! must-gather `namespaces/NS/pods/POD/C/C/logs/{current,previous}.log`, troubleshoot
//! `cluster-resources/pods/logs/NS/POD/C[-previous].log` and its logs collector's
//! `NAME/POD/C[-previous].log`, support-bundle-kit `logs/NS/POD/C.log`, and a cluster-info
//! dump's `NS/POD/logs.txt` (every container in one file, between kubectl's START and
//! END lines). The command (`crate::cli::logs`) reads the bundle and prints.

use super::lookup::{resolve_kind, resolve_object};
use crate::ingest::{LogSource, LogText, read_log, source::log_tail_bytes};
use crate::snapshot::Snapshot;
use serde_json::Value;

/// Which log to read: the pod, its container, current or previous, how much of it.
pub struct LogRequest {
    /// The pod: NAME or pod/NAME.
    pub pod: String,
    /// The container (`None`: the pod's default container, else its first).
    pub container: Option<String>,
    /// The previous (terminated) container's log.
    pub previous: bool,
    /// Namespace (`None`: the pod's name is looked up in every namespace).
    pub namespace: Option<String>,
    /// Only the last N lines (a negative N: all of them, as kubectl).
    pub tail: Option<i64>,
}

/// Whether the bundle read holds the pod (its object, or logs of it) in `namespace`.
pub fn holds_pod(snap: &Snapshot, namespace: &str, name: &str) -> bool {
    let object = resolve_kind(snap, "pod")
        .is_some_and(|kind| resolve_object(snap, &kind, name, Some(namespace)).is_ok());
    object || !logs_of(snap, namespace, name).0.is_empty()
}

/// The pod's name in `pod/NAME` or `NAME` (what kind `pod/` names is checked later).
pub fn pod_name(typed: &str) -> &str {
    typed.split_once('/').map_or(typed, |(_, name)| name)
}

/// The log's text and what the user should know about it (said on stderr).
pub struct Held {
    pub text: String,
    pub notes: Vec<String>,
    /// The log is a copy whose place names no namespace (troubleshoot's logs collector):
    /// it is the pod's only while no pod of that name is in another namespace, which a
    /// read of one namespace cannot tell.
    pub unplaced: bool,
}

/// The pod kubectl would pick, its container, and that container's log.
pub fn container_log(snap: &Snapshot, request: &LogRequest) -> Result<Held, String> {
    let name = match request.pod.split_once('/') {
        Some(("pod" | "pods" | "po", name)) => name,
        Some((kind, _)) => return Err(format!("logs reads pods only, not {kind:?}")),
        None => request.pod.as_str(),
    };
    let ns = request.namespace.as_deref();
    let pod = resolve_kind(snap, "pod")
        .ok_or_else(|| "the bundle holds no pods".to_string())
        .and_then(|kind| resolve_object(snap, &kind, name, ns))
        .map(|id| snap.object(id));
    let (namespace, spec) = match &pod {
        Ok(o) => (
            o.namespace.clone().unwrap_or_default(),
            Some(o.value().clone()),
        ),
        // A pod of that name elsewhere: the error says where (a copy without a namespace
        // is not this pod's more than that one's).
        Err(e) if !pod_namespaces(snap, name).is_empty() => return Err(e.clone()),
        // A log whose pod object the bundle lacks is still a log.
        Err(e) => match namespace_of_logs(snap, name, ns) {
            Some(found) => (found, None),
            None => return Err(e.clone()),
        },
    };
    let (held, unsure) = logs_of(snap, &namespace, name);
    let mut notes = Vec::new();
    let containers = match &spec {
        Some(v) => Containers::of_pod(v),
        None => Containers::of_logs(&held),
    };
    let container = match &request.container {
        Some(c) if containers.all().any(|x| x == c) => c.clone(),
        Some(c) => {
            return Err(format!(
                "container {c} is not valid for pod {name} out of: {}",
                containers.listed()
            ));
        }
        None => {
            let default = spec
                .as_ref()
                .and_then(|v| {
                    v.pointer("/metadata/annotations/kubectl.kubernetes.io~1default-container")
                })
                .and_then(Value::as_str)
                .filter(|d| containers.all().any(|x| x == d));
            match default.or(containers.main.first().map(String::as_str)) {
                Some(d) => {
                    if containers.count() > 1 && default.is_none() {
                        notes.push(format!(
                            "Defaulted container {d:?} out of: {}",
                            containers.listed()
                        ));
                    }
                    d.to_string()
                }
                None => return Err(format!("pod {name} has no containers")),
            }
        }
    };
    // must-gather writes `previous.log` and `previous.insecure.log`, often one empty:
    // the first that holds text, else the first.
    let mut chosen: Option<(&LogSource, LogText)> = None;
    for log in held
        .iter()
        .filter(|l| l.key.previous == request.previous && names_container(l, &container))
    {
        let read = read_log(log).map_err(|e| format!("{}: {e}", log.path))?;
        let holds_text = !read.text.trim().is_empty();
        if chosen.is_none() || holds_text {
            chosen = Some((log, read));
        }
        if holds_text {
            break;
        }
    }
    let Some((
        log,
        LogText {
            mut text,
            first_line,
            first_line_cut,
        },
    )) = chosen
    else {
        if let Some(e) = unsure.refusal(request.previous, &container, name) {
            return Err(e);
        }
        let which = if request.previous {
            "previous"
        } else {
            "current"
        };
        let mut kept: Vec<String> = held
            .iter()
            .map(|l| {
                let c = if l.key.container.is_empty() {
                    "all containers"
                } else {
                    &l.key.container
                };
                let when = if l.key.previous {
                    "previous"
                } else {
                    "current"
                };
                format!("{c} ({when})")
            })
            .collect();
        kept.dedup();
        let kept = if kept.is_empty() {
            "it holds no log of this pod".to_string()
        } else {
            format!("it holds: {}", kept.join(", "))
        };
        return Err(format!(
            "the bundle holds no {which} log of container {container} of pod {namespace}/{name} ({kept})"
        ));
    };
    if text.trim().is_empty() {
        notes.push(format!(
            "kdiag: the bundle holds this log empty: {}",
            log.path
        ));
    }
    // A section of a cluster-info dump starts at its line of the file, whole.
    let cut = !matches!(log.data, crate::ingest::source::EntryData::Section { .. });
    let missing = match (first_line - 1, first_line_cut) {
        (lines, 0) => format!("its first {lines} lines are"),
        (0, bytes) => format!("the first {bytes} bytes of its first line are"),
        (lines, bytes) => {
            format!("its first {lines} lines and the first {bytes} bytes of line {first_line} are")
        }
    };
    let cut_note = ((first_line > 1 || first_line_cut > 0) && cut).then(|| {
        format!(
            "kdiag: {} is longer than the {} bytes kdiag keeps of a log (KDIAG_LOG_TAIL_BYTES): {missing} not shown",
            log.path,
            log_tail_bytes(),
        )
    });
    if log.key.container.is_empty() {
        text = dump_section(&text, &container);
    }
    // `--tail N` within what is kept shows all it asked for: nothing is missing from it.
    let tail = request.tail.filter(|n| *n >= 0).map(|n| n as usize);
    let whole_lines = text
        .lines()
        .count()
        .saturating_sub(usize::from(first_line_cut > 0));
    if tail.is_none_or(|n| n > whole_lines) {
        notes.extend(cut_note);
    }
    if let Some(n) = tail {
        text = last_lines(&text, n);
    }
    let unplaced = log.key.namespace.is_empty() && !namespace.is_empty();
    Ok(Held {
        text,
        notes,
        unplaced,
    })
}

/// Copies without a namespace left out because pods of the name are in several
/// namespaces, and those namespaces.
struct Unsure<'a> {
    copies: Vec<&'a LogSource>,
    namespaces: Vec<String>,
}

impl Unsure<'_> {
    /// Why the log asked for is not shown when only such a copy holds it.
    fn refusal(&self, previous: bool, container: &str, pod: &str) -> Option<String> {
        let paths: Vec<&str> = self
            .copies
            .iter()
            .filter(|l| l.key.previous == previous && names_container(l, container))
            .map(|l| l.path.as_str())
            .collect();
        (!paths.is_empty()).then(|| {
            let pods: Vec<String> = self.namespaces.iter().map(|ns| format!("{ns}/{pod}")).collect();
            format!(
                "the bundle holds this log only as {}, whose place names no namespace, and it could be the log of any of the pods {}: kdiag does not guess whose it is",
                paths.join(", "),
                pods.join(", ")
            )
        })
    }
}

/// The namespaces of the pods named `pod` the bundle read holds, sorted.
fn pod_namespaces(snap: &Snapshot, pod: &str) -> Vec<String> {
    let mut found: Vec<String> = snap
        .objects
        .iter()
        .filter(|o| o.kind == "Pod" && o.name == pod)
        .filter_map(|o| o.namespace.clone())
        .collect();
    found.sort();
    found.dedup();
    found
}

/// The logs held for a pod: under its namespace, and the troubleshoot logs collector's
/// (no namespace in their path) where the namespaced copy is missing, when no pod of the
/// name is in another namespace (else they are left out, said in the [`Unsure`]).
fn logs_of<'a>(snap: &'a Snapshot, namespace: &str, pod: &str) -> (Vec<&'a LogSource>, Unsure<'a>) {
    let mut held = snap.logs_of(namespace, pod);
    let namespaces = pod_namespaces(snap, pod);
    let mine = namespace.is_empty() || namespaces.iter().all(|ns| ns == namespace);
    let mut unsure = Unsure {
        copies: Vec::new(),
        namespaces,
    };
    for l in snap.logs_of("", pod) {
        if held
            .iter()
            .any(|h| h.key.container == l.key.container && h.key.previous == l.key.previous)
        {
            continue;
        }
        if mine {
            held.push(l);
        } else {
            unsure.copies.push(l);
        }
    }
    (held, unsure)
}

/// The namespace of a pod known only by its logs (`-n` when given): `None` when no log
/// names it, or when several namespaces do.
fn namespace_of_logs(snap: &Snapshot, pod: &str, ns: Option<&str>) -> Option<String> {
    let mut found: Vec<&str> = snap
        .logs
        .iter()
        .filter(|l| l.key.pod == pod)
        .map(|l| l.key.namespace.as_str())
        .filter(|n| ns.is_none_or(|want| *n == want || n.is_empty()))
        .collect();
    found.sort_unstable();
    found.dedup();
    // The logs collector's copy (no namespace) is the same pod as a namespaced one.
    if found.len() > 1 {
        found.retain(|n| !n.is_empty());
    }
    match found[..] {
        [one] => Some(one.to_string()),
        _ => None,
    }
}

/// Whether a log is the container's: by its key, or a cluster-info dump's `logs.txt`
/// (every container of the pod).
fn names_container(log: &LogSource, container: &str) -> bool {
    log.key.container == container || log.key.container.is_empty()
}

/// A pod's containers by kind, as kubectl lists them.
struct Containers {
    main: Vec<String>,
    ephemeral: Vec<String>,
    init: Vec<String>,
}

impl Containers {
    fn of_pod(v: &Value) -> Containers {
        let names = |key: &str| -> Vec<String> {
            v.pointer(&format!("/spec/{key}"))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|c| c.get("name").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        };
        Containers {
            main: names("containers"),
            ephemeral: names("ephemeralContainers"),
            init: names("initContainers"),
        }
    }

    /// Without the pod object: the containers its logs name.
    fn of_logs(held: &[&LogSource]) -> Containers {
        let mut main: Vec<String> = held
            .iter()
            .map(|l| l.key.container.clone())
            .filter(|c| !c.is_empty())
            .collect();
        main.dedup();
        Containers {
            main,
            ephemeral: Vec::new(),
            init: Vec::new(),
        }
    }

    fn all(&self) -> impl Iterator<Item = &String> {
        self.main.iter().chain(&self.ephemeral).chain(&self.init)
    }

    fn count(&self) -> usize {
        self.main.len() + self.ephemeral.len() + self.init.len()
    }

    /// kubectl's `AllContainerNames`: `a, b, dbg (ephem), setup (init)`.
    fn listed(&self) -> String {
        let tagged = |names: &[String], tag: &str| -> Vec<String> {
            names.iter().map(|n| format!("{n}{tag}")).collect()
        };
        [
            tagged(&self.main, ""),
            tagged(&self.ephemeral, " (ephem)"),
            tagged(&self.init, " (init)"),
        ]
        .concat()
        .join(", ")
    }
}

/// One container's part of a cluster-info dump's `logs.txt`: the lines between
/// `==== START logs for container C of pod …` and its END line. A kept tail may begin
/// inside a part: lines before the first START belong to the container of the END
/// that closes them.
fn dump_section(text: &str, container: &str) -> String {
    let start = format!("==== START logs for container {container} of pod ");
    let end = format!("==== END logs for container {container} of pod ");
    let mut out = String::new();
    let mut inside = false;
    let mut leading = String::new();
    let mut before_first_start = true;
    for line in text.split_inclusive('\n') {
        if line.starts_with("==== START logs for container ") {
            before_first_start = false;
            inside = line.starts_with(&start);
            continue;
        }
        if line.starts_with("==== END logs for container ") {
            if before_first_start && line.starts_with(&end) {
                out.push_str(&leading);
            }
            before_first_start = false;
            inside = false;
            continue;
        }
        if inside {
            out.push_str(line);
        } else if before_first_start {
            leading.push_str(line);
        }
    }
    out
}

/// kubectl's `--tail N`: the last N lines.
fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    lines[lines.len().saturating_sub(n)..].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_container_of_a_cluster_info_dump() {
        let text = "==== START logs for container init of pod ns/p ====\ni1\n==== END logs for container init of pod ns/p ====\n==== START logs for container app of pod ns/p ====\na1\na2\n==== END logs for container app of pod ns/p ====\n";
        assert_eq!(dump_section(text, "app"), "a1\na2\n");
        assert_eq!(dump_section(text, "init"), "i1\n");
        // A tail that starts inside the first container's part.
        let cut = "i0\n==== END logs for container init of pod ns/p ====\n==== START logs for container app of pod ns/p ====\na1\n";
        assert_eq!(dump_section(cut, "init"), "i0\n");
        assert_eq!(dump_section(cut, "app"), "a1\n");
    }

    #[test]
    fn tail_lines() {
        assert_eq!(last_lines("a\nb\nc\n", 2), "b\nc\n");
        assert_eq!(last_lines("a\nb\nc", 1), "c");
        assert_eq!(last_lines("a\n", 5), "a\n");
        assert_eq!(last_lines("a\nb\n", 0), "");
    }
}

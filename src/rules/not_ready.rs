//! Why a Running pod is not Ready (not a rule), read from its spec (probes, ports,
//! readiness gates), its status and its `Unhealthy` events: the readiness rules' analysis,
//! which the traffic rules share.
//!
//! Every readiness rule asks [`classify`] and reports only its own variant, so a pod gets
//! exactly one readiness finding; the traffic rules use [`pod_summary`] for the last hops
//! of their chain (Pod → probe event).

use crate::kube::event::Event;
use crate::kube::meta::ObjectRef;
use crate::kube::pod::{Container, ContainerStatus, Pod};
use crate::kube::time::{format_duration, parse_timestamp};
use crate::rules::evidence;
use crate::rules::{Evidence, Finding, RuleMeta, Severity};
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::collections::BTreeMap;

/// A probe's port as written: a number, or a name looked up in the container's ports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PortRef {
    Number(i64),
    Name(String),
}

impl std::fmt::Display for PortRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PortRef::Number(n) => write!(f, "{n}"),
            PortRef::Name(s) => write!(f, "{s}"),
        }
    }
}

fn port_ref(v: Option<&Value>) -> Option<PortRef> {
    match v? {
        Value::Number(n) => n.as_i64().map(PortRef::Number),
        // The kubelet's last resort: a name that parses as a number is that number.
        Value::String(s) => Some(match s.parse::<i64>() {
            Ok(n) => PortRef::Number(n),
            Err(_) => PortRef::Name(s.clone()),
        }),
        _ => None,
    }
}

/// What a probe runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Handler {
    Http {
        path: String,
        port: Option<PortRef>,
        scheme: String,
    },
    Tcp {
        port: Option<PortRef>,
    },
    Grpc {
        port: Option<PortRef>,
    },
    Exec {
        command: Vec<String>,
    },
    Unknown,
}

/// A container probe with the API defaults filled in.
#[derive(Clone, Debug)]
pub struct Probe {
    pub handler: Handler,
    pub initial_delay: i64,
    pub period: i64,
    pub timeout: i64,
    pub failure_threshold: i64,
}

impl Probe {
    pub fn parse(v: &Value) -> Probe {
        let int = |k: &str, d: i64| {
            v.get(k)
                .and_then(Value::as_i64)
                .filter(|n| *n > 0)
                .unwrap_or(d)
        };
        let handler = if let Some(h) = v.get("httpGet") {
            Handler::Http {
                path: h
                    .get("path")
                    .and_then(Value::as_str)
                    .unwrap_or("/")
                    .to_string(),
                port: port_ref(h.get("port")),
                scheme: h
                    .get("scheme")
                    .and_then(Value::as_str)
                    .unwrap_or("HTTP")
                    .to_string(),
            }
        } else if let Some(h) = v.get("tcpSocket") {
            Handler::Tcp {
                port: port_ref(h.get("port")),
            }
        } else if let Some(h) = v.get("grpc") {
            Handler::Grpc {
                port: port_ref(h.get("port")),
            }
        } else if let Some(h) = v.get("exec") {
            Handler::Exec {
                command: h
                    .get("command")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default(),
            }
        } else {
            Handler::Unknown
        };
        Probe {
            handler,
            initial_delay: v
                .get("initialDelaySeconds")
                .and_then(Value::as_i64)
                .unwrap_or(0)
                .max(0),
            period: int("periodSeconds", 10),
            timeout: int("timeoutSeconds", 1),
            failure_threshold: int("failureThreshold", 3),
        }
    }

    pub fn port(&self) -> Option<&PortRef> {
        match &self.handler {
            Handler::Http { port, .. } | Handler::Tcp { port } | Handler::Grpc { port } => {
                port.as_ref()
            }
            _ => None,
        }
    }

    /// `httpGet /healthz on port 8080`.
    pub fn describe(&self) -> String {
        let on = |p: &Option<PortRef>| match p {
            Some(p) => format!(" on port {p}"),
            None => String::new(),
        };
        match &self.handler {
            Handler::Http { path, port, scheme } => format!(
                "httpGet {}{path}{}",
                if scheme.eq_ignore_ascii_case("HTTPS") {
                    "https "
                } else {
                    ""
                },
                on(port)
            ),
            Handler::Tcp { port } => format!("tcpSocket{}", on(port)),
            Handler::Grpc { port } => format!("grpc{}", on(port)),
            Handler::Exec { command } => format!("exec `{}`", command.join(" ")),
            Handler::Unknown => "a probe of unknown type".to_string(),
        }
    }

    /// The longest a startup probe may keep failing before the kubelet restarts the
    /// container: initialDelaySeconds + failureThreshold × periodSeconds.
    pub fn startup_budget(&self) -> i64 {
        self.initial_delay + self.failure_threshold * self.period
    }
}

/// Which probe an event or a check is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeKind {
    Readiness,
    Startup,
    Liveness,
}

impl ProbeKind {
    pub fn word(self) -> &'static str {
        match self {
            ProbeKind::Readiness => "readiness",
            ProbeKind::Startup => "startup",
            ProbeKind::Liveness => "liveness",
        }
    }

    fn field(self) -> &'static str {
        match self {
            ProbeKind::Readiness => "readinessProbe",
            ProbeKind::Startup => "startupProbe",
            ProbeKind::Liveness => "livenessProbe",
        }
    }

    pub fn of(self, c: &Container) -> Option<Probe> {
        let v = match self {
            ProbeKind::Readiness => c.readiness_probe.get().as_ref(),
            ProbeKind::Startup => c.startup_probe.get().as_ref(),
            ProbeKind::Liveness => c.liveness_probe.get().as_ref(),
        };
        v.filter(|v| v.is_object()).map(Probe::parse)
    }
}

/// Why a Running pod is not Ready, when its own spec and status say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotReady {
    /// A readiness (or, before start, startup) probe targets a port name the container
    /// does not declare: the kubelet cannot resolve it and the probe errors forever.
    PortUndeclared {
        container: String,
        kind: ProbeKind,
        port: String,
    },
    /// Containers whose startup probe has not succeeded yet (`started: false`).
    Startup { containers: Vec<String> },
    /// Started containers whose readiness probe does not pass.
    ProbeFailing { containers: Vec<String> },
    /// Every container is ready; readiness gates hold the pod back.
    Gates { pending: Vec<String> },
}

/// A pod that holds a live status (not a manifest), Running, not terminating, not Ready.
fn running_not_ready(pod: &Pod) -> bool {
    pod.phase() == "Running"
        && !pod.is_ready()
        && pod.metadata.deletion_timestamp.is_none()
        && pod.condition("Ready").is_some()
}

/// The one readiness cause of a Running-but-not-Ready pod, or `None` when the pod is
/// healthy, terminating, or stuck at an earlier stage (a waiting or exited container).
pub fn classify(pod: &Pod) -> Option<NotReady> {
    if !running_not_ready(pod) {
        return None;
    }
    let unready: Vec<&ContainerStatus> = pod
        .status
        .container_statuses
        .iter()
        .filter(|c| !c.ready)
        .collect();
    if unready.is_empty() {
        if pod.status.container_statuses.is_empty() {
            return None;
        }
        let pending = pending_gates(pod);
        return (!pending.is_empty()).then_some(NotReady::Gates { pending });
    }
    // A container that is waiting or exited belongs to the node or runtime stage.
    if unready.iter().any(|c| c.state.running.is_none()) {
        return None;
    }
    for cs in &unready {
        let Some(c) = pod.spec.containers.iter().find(|c| c.name == cs.name) else {
            continue;
        };
        let kind = if cs.started == Some(false) && c.startup_probe.get().is_some() {
            ProbeKind::Startup
        } else {
            ProbeKind::Readiness
        };
        if let Some(PortRef::Name(name)) = kind.of(c).as_ref().and_then(Probe::port)
            && !c
                .ports
                .iter()
                .any(|p| p.name.as_deref() == Some(name.as_str()))
        {
            return Some(NotReady::PortUndeclared {
                container: c.name.to_string(),
                kind,
                port: name.clone(),
            });
        }
    }
    let starting: Vec<String> = unready
        .iter()
        .filter(|cs| {
            cs.started == Some(false)
                && pod
                    .spec
                    .containers
                    .iter()
                    .any(|c| c.name == cs.name && ProbeKind::Startup.of(c).is_some())
        })
        .map(|cs| cs.name.to_string())
        .collect();
    if !starting.is_empty() {
        return Some(NotReady::Startup {
            containers: starting,
        });
    }
    let probing: Vec<String> = unready
        .iter()
        .filter(|cs| {
            pod.spec
                .containers
                .iter()
                .any(|c| c.name == cs.name && ProbeKind::Readiness.of(c).is_some())
        })
        .map(|cs| cs.name.to_string())
        .collect();
    (!probing.is_empty()).then_some(NotReady::ProbeFailing {
        containers: probing,
    })
}

/// Readiness gates whose condition is not `True`.
pub fn pending_gates(pod: &Pod) -> Vec<String> {
    pod.spec
        .readiness_gates
        .iter()
        .map(|g| g.condition_type.to_string())
        .filter(|t| !t.is_empty() && pod.condition(t).is_none_or(|c| c.status != "True"))
        .collect()
}

/// `Unhealthy` events of one probe kind for one container, oldest first. Events without
/// a field path count for every container (old kubelets and hand-written bundles).
pub fn probe_events<'a>(
    events: &[(ObjectId, &'a Event)],
    container: &str,
    kind: ProbeKind,
) -> Vec<(ObjectId, &'a Event)> {
    let prefix = match kind {
        ProbeKind::Readiness => "readiness probe",
        ProbeKind::Startup => "startup probe",
        ProbeKind::Liveness => "liveness probe",
    };
    events
        .iter()
        .filter(|(_, e)| {
            e.reason == "Unhealthy"
                && e.message
                    .get(..prefix.len())
                    .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
                && e.regarding
                    .field_path
                    .as_deref()
                    .and_then(field_path_container)
                    .is_none_or(|c| c == container)
        })
        .map(|(id, e)| (*id, *e))
        .collect()
}

/// `spec.containers{web}` → `web`.
fn field_path_container(path: &str) -> Option<&str> {
    let start = path.find('{')? + 1;
    let end = path[start..].find('}')? + start;
    Some(&path[start..end])
}

/// The probe's own output from an `Unhealthy` message: the text after
/// `Readiness probe failed: ` or `… probe errored[ and resulted in … state]: `.
pub fn probe_output(message: &str) -> (&str, bool) {
    let m = message.trim();
    for marker in [" probe failed: ", " probe failed:"] {
        if let Some(i) = m.find(marker) {
            return (m[i + marker.len()..].trim(), false);
        }
    }
    if let Some(i) = m.find(" probe errored") {
        let rest = &m[i + " probe errored".len()..];
        let rest = match rest.find(": ") {
            Some(j) => &rest[j + 2..],
            None => rest.trim_start_matches(':'),
        };
        return (rest.trim(), true);
    }
    (m, false)
}

/// The probe output in words, when it is one of the well-known shapes.
pub fn explain_output(output: &str, probe: Option<&Probe>) -> Option<String> {
    let lower = output.to_ascii_lowercase();
    if let Some(i) = lower.find("statuscode: ") {
        let code: String = output[i + "statuscode: ".len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if !code.is_empty() {
            return Some(format!("the app answers HTTP {code}"));
        }
    }
    if lower.contains("strconv.atoi: parsing") {
        return Some("the probe's port name does not resolve to a container port".into());
    }
    if lower.contains("connection refused") {
        return Some("nothing accepts connections on the probed port (connection refused)".into());
    }
    if lower.contains("context deadline exceeded")
        || lower.contains("client.timeout")
        || lower.contains("i/o timeout")
        || lower.contains("timed out")
        || lower.contains("timeout")
    {
        let within = probe
            .map(|p| format!(" within timeoutSeconds={}s", p.timeout))
            .unwrap_or_default();
        return Some(format!("the app does not answer{within} (timeout)"));
    }
    if lower.contains("connection reset by peer") {
        return Some("the app closes the connection (connection reset)".into());
    }
    if lower.contains("no route to host") {
        return Some("the pod's address is unreachable from its node (no route to host)".into());
    }
    None
}

/// `failing for 20m (×120, last 2s before the snapshot)` from a run of events.
pub fn failing_for(snap: &Snapshot, events: &[(ObjectId, &Event)]) -> Option<String> {
    let first = events
        .iter()
        .filter_map(|(_, e)| e.first.or(e.last))
        .min()?;
    let last = events
        .iter()
        .filter_map(|(_, e)| e.last.or(e.first))
        .max()?;
    let count: i64 = events.iter().map(|(_, e)| e.count).sum();
    let asof = snap.as_of?;
    Some(format!(
        "failing for {} (×{count}, last {} before the snapshot)",
        format_duration(asof - first),
        format_duration(asof - last)
    ))
}

/// `Ready=False, reason ContainersNotReady: …` at the condition's line.
pub fn ready_condition_evidence(snap: &Snapshot, id: ObjectId, pod: &Pod) -> Option<Evidence> {
    let c = pod.condition("Ready")?;
    let since = c
        .last_transition_time
        .as_deref()
        .and_then(parse_timestamp)
        .zip(snap.as_of)
        .map(|(t, a)| format!(" for {}", format_duration(a - t)))
        .unwrap_or_default();
    Some(evidence::field(
        snap,
        id,
        &["status", "conditions", "type=Ready"],
        format!(
            "Ready={}{since}{}{}",
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
    ))
}

/// The probe definition's line in the pod spec.
pub fn probe_evidence(
    snap: &Snapshot,
    id: ObjectId,
    container: &str,
    kind: ProbeKind,
    note: String,
) -> Evidence {
    let name = format!("name={container}");
    evidence::field(snap, id, &["spec", "containers", &name, kind.field()], note)
}

/// Time since a condition's last transition, for "not Ready for 3h".
pub fn since_transition(snap: &Snapshot, pod: &Pod, type_: &str) -> Option<String> {
    let t = pod
        .condition(type_)?
        .last_transition_time
        .as_deref()
        .and_then(parse_timestamp)?;
    Some(format_duration(snap.as_of? - t))
}

/// One pod's readiness diagnosis, before grouping by controller.
pub struct PodDiagnosis {
    pub id: ObjectId,
    pub severity: Severity,
    /// Stable cause key (no counts, no times).
    pub cause: String,
    /// Completes "pod X …".
    pub summary: String,
    pub evidence: Vec<Evidence>,
    pub help: String,
}

/// Pods listed by name in a grouped finding's evidence before "and N more".
const EVIDENCE_PODS: usize = 3;

/// Groups diagnoses by top-level controller (else the pod) and cause: one finding each,
/// explaining every pod it lists.
pub fn group(snap: &Snapshot, rule: &RuleMeta, diags: Vec<PodDiagnosis>) -> Vec<Finding> {
    let mut groups: BTreeMap<(ObjectRef, String), Vec<PodDiagnosis>> = BTreeMap::new();
    for d in diags {
        let owner = snap
            .top_controller(d.id)
            .map(|(r, _)| r)
            .unwrap_or_else(|| snap.object(d.id).reference());
        groups.entry((owner, d.cause.clone())).or_default().push(d);
    }
    groups
        .into_iter()
        .map(|((owner, cause), diags)| {
            let first_name = snap.object(diags[0].id).name.clone();
            let is_pod = owner.kind == "Pod";
            let message = if is_pod {
                format!("pod {first_name} {}", diags[0].summary)
            } else if diags.len() == 1 {
                format!(
                    "pod {first_name} of this {} {}",
                    owner.kind, diags[0].summary
                )
            } else {
                format!(
                    "{} pods of this {} are not Ready the same way; {first_name} {}",
                    diags.len(),
                    owner.kind,
                    diags[0].summary
                )
            };
            let severity = diags
                .iter()
                .map(|d| d.severity)
                .min()
                .unwrap_or(Severity::Warning);
            let help = diags[0].help.clone();
            let names: Vec<String> = diags
                .iter()
                .map(|d| snap.object(d.id).name.clone())
                .collect();
            let explains: Vec<ObjectId> = diags.iter().map(|d| d.id).collect();
            let mut ev = Vec::new();
            for (i, d) in diags.into_iter().enumerate() {
                if i < EVIDENCE_PODS {
                    ev.extend(d.evidence);
                }
            }
            if !is_pod
                && let Some(cid) = snap.find_ref(
                    &owner.api_version,
                    &owner.kind,
                    owner.namespace.as_deref(),
                    &owner.name,
                )
            {
                ev.push(evidence::object(
                    snap,
                    cid,
                    format!("controller of the pods: {}", owner.display()),
                ));
            }
            if names.len() > EVIDENCE_PODS {
                ev.push(Evidence {
                    object: None,
                    input: None,
                    file: None,
                    line: None,
                    note: format!(
                        "and {} more pod(s): {}",
                        names.len() - EVIDENCE_PODS,
                        names[EVIDENCE_PODS..].join(", ")
                    ),
                });
            }
            let mut f = Finding::new(rule, severity, owner, &cause, message, ev, help, explains);
            f.details = Some(serde_json::json!({ "pods": names }));
            f
        })
        .collect()
}

/// Why a pod does not serve, in a few words plus its evidence (Ready condition, the
/// newest probe event): the last hops of a traffic chain. `None` for a Ready pod.
pub fn pod_summary(snap: &Snapshot, id: ObjectId, pod: &Pod) -> Option<(String, Vec<Evidence>)> {
    if pod.is_ready() && pod.metadata.deletion_timestamp.is_none() {
        return None;
    }
    if let Some(deleted) = pod.metadata.deletion_timestamp.as_deref() {
        let since = parse_timestamp(deleted)
            .zip(snap.as_of)
            .map(|(t, a)| format!(" for {}", format_duration(a - t)))
            .unwrap_or_default();
        let ev = vec![evidence::field(
            snap,
            id,
            &["metadata", "deletionTimestamp"],
            format!("terminating{since} (deletionTimestamp {deleted})"),
        )];
        return Some((format!("has been terminating{since}"), ev));
    }
    if pod.phase() == "Pending"
        && let Some(c) = pod
            .condition("PodScheduled")
            .filter(|c| c.status == "False")
    {
        let ev = vec![evidence::field(
            snap,
            id,
            &["status", "conditions", "type=PodScheduled"],
            format!(
                "PodScheduled=False{}{}",
                c.reason
                    .as_deref()
                    .map(|r| format!(", reason {r}"))
                    .unwrap_or_default(),
                c.message
                    .as_deref()
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default()
            ),
        )];
        return Some(("is Pending, not scheduled".into(), ev));
    }
    let mut ev: Vec<Evidence> = ready_condition_evidence(snap, id, pod)
        .into_iter()
        .collect();
    let events = snap.events_for(id);
    let text = match classify(pod) {
        Some(NotReady::ProbeFailing { containers }) => {
            let c = &containers[0];
            let evs = probe_events(&events, c, ProbeKind::Readiness);
            match evs.last() {
                Some((eid, e)) => {
                    ev.push(evidence::event(snap, *eid, e));
                    let (out, _) = probe_output(&e.message);
                    format!("fails its readiness probe: {out}")
                }
                None => format!(
                    "is Running but container {c} is not ready (no probe event in the bundle)"
                ),
            }
        }
        Some(NotReady::PortUndeclared {
            container,
            kind,
            port,
        }) => format!(
            "never becomes Ready: the {} probe of container {container} targets port name {port:?}, which the container does not declare",
            kind.word()
        ),
        Some(NotReady::Startup { containers }) => {
            format!(
                "has not passed its startup probe yet (container {})",
                containers.join(", ")
            )
        }
        Some(NotReady::Gates { pending }) => {
            format!("is held back by readiness gate(s) {}", pending.join(", "))
        }
        None => match waiting_reason(pod) {
            Some(w) => w,
            None if pod.phase() == "Pending" && pod.spec.node_name.is_none() => {
                "is Pending, not scheduled".to_string()
            }
            None => format!(
                "is {}, not Ready",
                if pod.phase().is_empty() {
                    "without a phase"
                } else {
                    pod.phase()
                }
            ),
        },
    };
    Some((text, ev))
}

/// `container worker waiting: CrashLoopBackOff` for the first waiting container.
fn waiting_reason(pod: &Pod) -> Option<String> {
    pod.all_statuses().find_map(|(cs, init)| {
        let w = cs.state.waiting.as_ref()?;
        Some(format!(
            "has {} {} waiting: {}",
            if init { "init container" } else { "container" },
            cs.name,
            w.reason.as_deref().unwrap_or("(no reason)")
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(v: Value) -> Pod {
        serde_json::from_value(v).unwrap()
    }

    fn running(ready: bool, started: Option<bool>) -> Value {
        let mut s = json!({"name": "app", "ready": ready, "state": {"running": {"startedAt": "2026-11-20T09:00:00Z"}}});
        if let Some(st) = started {
            s["started"] = json!(st);
        }
        s
    }

    #[test]
    fn probe_defaults_and_description() {
        let p = Probe::parse(&json!({"httpGet": {"path": "/healthz", "port": "http"}}));
        assert_eq!(p.describe(), "httpGet /healthz on port http");
        assert_eq!((p.period, p.timeout, p.failure_threshold), (10, 1, 3));
        assert_eq!(p.port(), Some(&PortRef::Name("http".into())));
        let p = Probe::parse(
            &json!({"tcpSocket": {"port": "5432"}, "periodSeconds": 5, "failureThreshold": 30}),
        );
        assert_eq!(p.port(), Some(&PortRef::Number(5432)));
        assert_eq!(p.startup_budget(), 150);
    }

    #[test]
    fn output_words() {
        let (out, errored) = probe_output(
            "Readiness probe errored and resulted in unknown state: strconv.Atoi: parsing \"http\": invalid syntax",
        );
        assert!(errored);
        assert!(out.starts_with("strconv.Atoi"));
        let (out, errored) =
            probe_output("Readiness probe failed: HTTP probe failed with statuscode: 503");
        assert!(!errored);
        assert_eq!(
            explain_output(out, None).as_deref(),
            Some("the app answers HTTP 503")
        );
        assert!(
            explain_output("Get \"http://10.0.0.1:8080/\": dial tcp 10.0.0.1:8080: connect: connection refused", None)
                .unwrap()
                .contains("connection refused")
        );
        assert!(
            explain_output("Get \"http://x/\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)", None)
                .unwrap()
                .contains("timeout")
        );
        assert_eq!(explain_output("exit status 1", None), None);
    }

    #[test]
    fn classification() {
        let base = |cs: Value, containers: Value, conditions: Value| {
            pod(json!({
                "spec": {"containers": containers},
                "status": {"phase": "Running", "conditions": conditions, "containerStatuses": [cs]}
            }))
        };
        let not_ready = json!([{"type": "Ready", "status": "False"}]);
        let probe =
            json!([{"name": "app", "readinessProbe": {"httpGet": {"path": "/", "port": 8080}}}]);
        assert_eq!(
            classify(&base(
                running(false, Some(true)),
                probe.clone(),
                not_ready.clone()
            )),
            Some(NotReady::ProbeFailing {
                containers: vec!["app".into()]
            })
        );
        // Ready pods and waiting containers are not readiness problems.
        assert_eq!(
            classify(&base(
                running(true, Some(true)),
                probe.clone(),
                json!([{"type": "Ready", "status": "True"}])
            )),
            None
        );
        let waiting = json!({"name": "app", "ready": false, "state": {"waiting": {"reason": "CrashLoopBackOff"}}});
        assert_eq!(
            classify(&base(waiting, probe.clone(), not_ready.clone())),
            None
        );
        let named = json!([{"name": "app", "ports": [{"containerPort": 8080}],
            "readinessProbe": {"httpGet": {"path": "/", "port": "http"}}}]);
        assert_eq!(
            classify(&base(running(false, Some(true)), named, not_ready.clone())),
            Some(NotReady::PortUndeclared {
                container: "app".into(),
                kind: ProbeKind::Readiness,
                port: "http".into()
            })
        );
        let startup = json!([{"name": "app", "startupProbe": {"tcpSocket": {"port": 8080}},
            "readinessProbe": {"tcpSocket": {"port": 8080}}}]);
        assert_eq!(
            classify(&base(
                running(false, Some(false)),
                startup,
                not_ready.clone()
            )),
            Some(NotReady::Startup {
                containers: vec!["app".into()]
            })
        );
        let gated = pod(json!({
            "spec": {"containers": [{"name": "app"}], "readinessGates": [{"conditionType": "example.com/lb"}]},
            "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "False"},
                {"type": "ContainersReady", "status": "True"}],
                "containerStatuses": [running(true, Some(true))]}
        }));
        assert_eq!(
            classify(&gated),
            Some(NotReady::Gates {
                pending: vec!["example.com/lb".into()]
            })
        );
    }

    #[test]
    fn field_path() {
        assert_eq!(field_path_container("spec.containers{web}"), Some("web"));
        assert_eq!(field_path_container("spec.containers"), None);
    }
}

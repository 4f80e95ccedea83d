//! `kdiag get` and `kdiag describe`: look around a bundle offline, like kubectl (or omc)
//! against a live cluster. Kinds are accepted as kubectl knows them: `Pod`, `pod`, `pods`,
//! `po`, `deployments.apps`, and Kueue's `kwl`, `cq`, `lq`, `rf`. Ages are measured from
//! the snapshot's time, not the clock. `get -o yaml` re-reads the object's text from the
//! bundle; Secrets are printed from their scrubbed form, never from the bundle's text.

use crate::{load, load_snapshot};
use kdiag::kube::time::{format_rfc3339, parse_timestamp};
use kdiag::report::redact::Redactor;
use kdiag::rules::Finding;
use kdiag::snapshot::{ObjectId, Snapshot};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::process::ExitCode;

pub const GET_EXAMPLES: &str = "\
Examples:
  kdiag get pods -n shop bundle/
  kdiag get po -A -o wide must-gather.tar.gz
  kdiag get deploy/web -n shop -o yaml bundle/
  kdiag get cq bundle/                        Kueue ClusterQueues (also kwl, lq, rf)
  kdiag get ev -n shop bundle/                events, oldest first";

pub const DESCRIBE_EXAMPLES: &str = "\
Examples:
  kdiag describe pod/web-7d4b9-x2kqp -n shop bundle/
  kdiag describe deploy/web bundle/           -n may be left out when the name is unique
  kdiag describe no/node-b bundle/
  kdiag describe kwl/job-train-1a2b3 -n ml bundle/";

#[derive(clap::Args)]
pub struct GetArgs {
    /// What to list: KIND (pods, po, deploy, svc, cq, …) or KIND/NAME.
    #[arg(value_name = "KIND[/NAME]")]
    pub target: String,
    /// Namespace (default: `default`, as kubectl).
    #[arg(long = "namespace", short = 'n', value_name = "NS")]
    pub namespace: Option<String>,
    /// All namespaces.
    #[arg(long = "all-namespaces", short = 'A', conflicts_with = "namespace")]
    pub all_namespaces: bool,
    /// Output format: a table (default), wide, yaml, json or name.
    #[arg(long = "output", short = 'o', value_enum)]
    pub output: Option<GetFormat>,
    /// Only objects whose labels match, e.g. `app=web,tier!=cache`.
    #[arg(long = "selector", short = 'l', value_name = "SELECTOR")]
    pub selector: Option<String>,
    /// Mask IP addresses, hostnames, registry hosts and label values.
    #[arg(long)]
    pub redact: bool,
    /// Bundles and dumps to merge: folders, archives, YAML/JSON files, `-` for stdin.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GetFormat {
    Wide,
    Yaml,
    Json,
    Name,
}

#[derive(clap::Args)]
pub struct DescribeArgs {
    /// The object: KIND/NAME (the same syntax as `kdiag why`), e.g. pod/web-1, deploy/web, cq/cq-ml.
    #[arg(value_name = "KIND/NAME")]
    pub target: String,
    /// Namespace of a namespaced object (optional when the name is unique).
    #[arg(long = "namespace", short = 'n', value_name = "NS")]
    pub namespace: Option<String>,
    /// Mask IP addresses, hostnames, registry hosts and label values.
    #[arg(long)]
    pub redact: bool,
    /// Bundles and dumps to merge: folders, archives, YAML/JSON files, `-` for stdin.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
}

/// Kinds kubectl knows: (Kind, plural, short names). Singular is the lowercased Kind.
const KINDS: &[(&str, &str, &[&str])] = &[
    ("Pod", "pods", &["po"]),
    ("Service", "services", &["svc"]),
    ("Deployment", "deployments", &["deploy"]),
    ("ReplicaSet", "replicasets", &["rs"]),
    ("StatefulSet", "statefulsets", &["sts"]),
    ("DaemonSet", "daemonsets", &["ds"]),
    ("Job", "jobs", &[]),
    ("CronJob", "cronjobs", &["cj"]),
    ("Namespace", "namespaces", &["ns"]),
    ("Node", "nodes", &["no"]),
    ("Event", "events", &["ev"]),
    ("Ingress", "ingresses", &["ing"]),
    ("IngressClass", "ingressclasses", &[]),
    ("Endpoints", "endpoints", &["ep"]),
    ("EndpointSlice", "endpointslices", &[]),
    ("PersistentVolumeClaim", "persistentvolumeclaims", &["pvc"]),
    ("PersistentVolume", "persistentvolumes", &["pv"]),
    ("StorageClass", "storageclasses", &["sc"]),
    ("ConfigMap", "configmaps", &["cm"]),
    ("Secret", "secrets", &[]),
    ("ServiceAccount", "serviceaccounts", &["sa"]),
    ("ResourceQuota", "resourcequotas", &["quota"]),
    ("LimitRange", "limitranges", &["limits"]),
    ("PriorityClass", "priorityclasses", &["pc"]),
    ("NetworkPolicy", "networkpolicies", &["netpol"]),
    ("PodDisruptionBudget", "poddisruptionbudgets", &["pdb"]),
    (
        "HorizontalPodAutoscaler",
        "horizontalpodautoscalers",
        &["hpa"],
    ),
    (
        "CustomResourceDefinition",
        "customresourcedefinitions",
        &["crd", "crds"],
    ),
    ("Workload", "workloads", &["kwl", "wl"]),
    ("ClusterQueue", "clusterqueues", &["cq"]),
    ("LocalQueue", "localqueues", &["lq", "queue", "queues"]),
    (
        "ResourceFlavor",
        "resourceflavors",
        &["rf", "flavor", "flavors"],
    ),
    ("Cohort", "cohorts", &[]),
    ("AdmissionCheck", "admissionchecks", &[]),
    ("WorkloadPriorityClass", "workloadpriorityclasses", &[]),
];

/// Cluster-scoped kinds (no namespace column, `-n` ignored).
const CLUSTER_SCOPED: &[&str] = &[
    "Node",
    "Namespace",
    "PersistentVolume",
    "StorageClass",
    "PriorityClass",
    "IngressClass",
    "CustomResourceDefinition",
    "ClusterQueue",
    "ResourceFlavor",
    "Cohort",
    "AdmissionCheck",
    "WorkloadPriorityClass",
    "ClusterRole",
    "ClusterRoleBinding",
    "ValidatingWebhookConfiguration",
    "MutatingWebhookConfiguration",
];

/// The Kind for what a user typed; kinds outside the table are matched against the
/// kinds the bundle holds (singular or plural, any case).
pub fn resolve_kind(snap: &Snapshot, typed: &str) -> Option<String> {
    let t = typed
        .split('.')
        .next()
        .unwrap_or(typed)
        .to_ascii_lowercase();
    if t.is_empty() {
        return None;
    }
    for (kind, plural, short) in KINDS {
        if kind.to_ascii_lowercase() == t || *plural == t || short.contains(&t.as_str()) {
            return Some(kind.to_string());
        }
    }
    let mut kinds: Vec<&str> = snap.objects.iter().map(|o| o.kind.as_str()).collect();
    kinds.dedup();
    kinds
        .into_iter()
        .find(|k| plural_forms(k).contains(&t))
        .map(str::to_string)
}

fn plural_forms(kind: &str) -> Vec<String> {
    let k = kind.to_ascii_lowercase();
    let mut v = vec![k.clone(), format!("{k}s"), format!("{k}es")];
    if let Some(stem) = k.strip_suffix('y') {
        v.push(format!("{stem}ies"));
    }
    v
}

fn cluster_scoped(snap: &Snapshot, kind: &str) -> bool {
    CLUSTER_SCOPED.contains(&kind)
        || snap
            .ids_of(kind)
            .first()
            .is_some_and(|&id| snap.object(id).namespace.is_none())
}

/// Finds one object: `-n` when given, else the only object of that name.
pub fn resolve_object(
    snap: &Snapshot,
    kind: &str,
    name: &str,
    ns: Option<&str>,
) -> Result<ObjectId, String> {
    snap.resolve(kind, name, ns, cluster_scoped(snap, kind))
}

fn emit(text: String, redactor: Option<&Redactor>) -> ExitCode {
    let text = match redactor {
        Some(r) => r.apply(&text),
        None => text,
    };
    crate::write_stdout(&text)
}

pub fn get(args: GetArgs) -> ExitCode {
    let Some(snap) = load_snapshot(&args.paths) else {
        return ExitCode::from(2);
    };
    let (typed, name) = match args.target.split_once('/') {
        Some((k, n)) => (k, Some(n)),
        None => (args.target.as_str(), None),
    };
    let Some(kind) = resolve_kind(&snap, typed) else {
        eprintln!(
            "kdiag: the bundle holds no objects of kind {typed:?} (kubectl names like pods, po, deploy, svc, cq are accepted)"
        );
        return ExitCode::from(2);
    };
    let selector = match args.selector.as_deref().map(parse_selector).transpose() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("kdiag: {e}");
            return ExitCode::from(2);
        }
    };
    let scoped = cluster_scoped(&snap, &kind);
    let ids: Vec<ObjectId> = match name {
        Some(n) => match resolve_object(
            &snap,
            &kind,
            n,
            if args.all_namespaces {
                None
            } else {
                args.namespace.as_deref()
            },
        ) {
            Ok(id) => vec![id],
            Err(e) => {
                eprintln!("kdiag: {e}");
                return ExitCode::from(2);
            }
        },
        None => {
            let ns = if scoped || args.all_namespaces {
                None
            } else {
                Some(args.namespace.as_deref().unwrap_or("default"))
            };
            let mut ids: Vec<ObjectId> = snap
                .ids_of(&kind)
                .iter()
                .copied()
                .filter(|&id| ns.is_none() || snap.object(id).namespace.as_deref() == ns)
                .filter(|&id| {
                    selector
                        .as_ref()
                        .is_none_or(|s| matches_selector(s, snap.object(id).value()))
                })
                .collect();
            if kind == "Event" {
                ids.sort_by_key(|&id| (event_last(&snap, id), id));
            }
            if ids.is_empty() {
                let elsewhere = snap.ids_of(&kind).len();
                match ns {
                    Some(ns) if elsewhere > 0 => eprintln!(
                        "No resources found in {ns} namespace ({elsewhere} {kind} object(s) in other namespaces: use -A or -n NS)."
                    ),
                    Some(ns) => eprintln!("No resources found in {ns} namespace."),
                    None => eprintln!("No resources found."),
                }
                return ExitCode::SUCCESS;
            }
            ids
        }
    };
    let redactor = args.redact.then(|| Redactor::from_snapshot(&snap));
    let single = name.is_some();
    let text = match args.output {
        Some(GetFormat::Json) => {
            let v = if single {
                snap.object(ids[0]).value().clone()
            } else {
                json!({"apiVersion": "v1", "items": ids.iter().map(|&id| snap.object(id).value().clone()).collect::<Vec<_>>(), "kind": "List", "metadata": {"resourceVersion": ""}})
            };
            let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
            s.push('\n');
            s
        }
        Some(GetFormat::Yaml) => {
            if single {
                object_yaml(&snap, ids[0])
            } else {
                let mut s = String::from("apiVersion: v1\nitems:\n");
                for &id in &ids {
                    for (i, l) in object_yaml(&snap, id).lines().enumerate() {
                        s.push_str(if i == 0 { "- " } else { "  " });
                        s.push_str(l);
                        s.push('\n');
                    }
                }
                s.push_str("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
                s
            }
        }
        Some(GetFormat::Name) => ids
            .iter()
            .map(|&id| format!("{}/{}\n", kind.to_ascii_lowercase(), snap.object(id).name))
            .collect(),
        Some(GetFormat::Wide) | None => {
            let wide = args.output == Some(GetFormat::Wide);
            let with_ns = args.all_namespaces && !scoped;
            table(&snap, &kind, &ids, wide, with_ns)
        }
    };
    emit(text, redactor.as_ref())
}

// ── tables ──────────────────────────────────────────────────────────────────────────

fn str_at<'a>(v: &'a Value, p: &str) -> &'a str {
    v.pointer(p).and_then(Value::as_str).unwrap_or("")
}

/// `status.loadBalancer.ingress` of a Service or an Ingress: each entry's IP, else its
/// hostname.
fn load_balancer_addresses(v: &Value) -> Vec<String> {
    v.pointer("/status/loadBalancer/ingress")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|i| {
                    i.get("ip")
                        .or_else(|| i.get("hostname"))
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string()
                })
                .collect()
        })
        .unwrap_or_default()
}

fn int_at(v: &Value, p: &str) -> i64 {
    v.pointer(p).and_then(Value::as_i64).unwrap_or(0)
}

/// kubectl's AGE: time from `t` to the snapshot.
fn age(snap: &Snapshot, t: &str) -> String {
    match (parse_timestamp(t), snap.as_of) {
        (Some(t), Some(now)) => human_duration(now - t),
        _ => "<unknown>".into(),
    }
}

/// kubectl's short durations (apimachinery `duration.HumanDuration`): `45s`, `3m20s`,
/// `12m`, `3h12m`, `20h`, `5d6h`, `14d`, `2y30d`.
pub fn human_duration(secs: i64) -> String {
    if secs < -1 {
        return "<invalid>".into();
    }
    if secs < 0 {
        return "0s".into();
    }
    if secs < 120 {
        return format!("{secs}s");
    }
    let minutes = secs / 60;
    if minutes < 10 {
        return match secs % 60 {
            0 => format!("{minutes}m"),
            s => format!("{minutes}m{s}s"),
        };
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = secs / 3600;
    if hours < 8 {
        return match minutes % 60 {
            0 => format!("{hours}h"),
            m => format!("{hours}h{m}m"),
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        return match hours % 24 {
            0 => format!("{}d", hours / 24),
            h => format!("{}d{h}h", hours / 24),
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        return match (hours / 24) % 365 {
            0 => format!("{}y", hours / 24 / 365),
            d => format!("{}y{d}d", hours / 24 / 365),
        };
    }
    format!("{}y", hours / 24 / 365)
}

fn created_age(snap: &Snapshot, v: &Value) -> String {
    age(snap, str_at(v, "/metadata/creationTimestamp"))
}

fn none_if_empty(s: String) -> String {
    if s.is_empty() { "<none>".into() } else { s }
}

fn table(snap: &Snapshot, kind: &str, ids: &[ObjectId], wide: bool, with_ns: bool) -> String {
    let mut header: Vec<&str> = Vec::new();
    let mut rows: Vec<Vec<String>> = Vec::new();
    for &id in ids {
        let o = snap.object(id);
        let (h, mut row) = columns(snap, kind, &o.name, o.value(), wide);
        header = h;
        if with_ns {
            row.insert(0, o.namespace.clone().unwrap_or_default());
        }
        rows.push(row);
    }
    if with_ns {
        header.insert(0, "NAMESPACE");
    }
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in &rows {
        for (i, c) in r.iter().enumerate() {
            if i < widths.len() {
                widths[i] = widths[i].max(c.chars().count());
            }
        }
    }
    let mut out = String::new();
    let line = |cells: Vec<&str>, out: &mut String| {
        let n = cells.len();
        for (i, c) in cells.into_iter().enumerate() {
            out.push_str(c);
            if i + 1 < n {
                out.push_str(&" ".repeat(widths[i] - c.chars().count() + 3));
            }
        }
        out.push('\n');
    };
    line(header.clone(), &mut out);
    for r in &rows {
        line(r.iter().map(String::as_str).collect(), &mut out);
    }
    out
}

fn images(v: &Value, template: bool) -> (String, String) {
    let p = if template {
        "/spec/template/spec/containers"
    } else {
        "/spec/containers"
    };
    let cs = v
        .pointer(p)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    (
        cs.iter()
            .map(|c| str_at(c, "/name").to_string())
            .collect::<Vec<_>>()
            .join(","),
        cs.iter()
            .map(|c| str_at(c, "/image").to_string())
            .collect::<Vec<_>>()
            .join(","),
    )
}

fn selector_text(v: Option<&Value>) -> String {
    let Some(v) = v else { return "<none>".into() };
    let map = v.get("matchLabels").unwrap_or(v);
    let mut parts: Vec<String> = map
        .as_object()
        .map(|m| {
            m.iter()
                .filter_map(|(k, x)| x.as_str().map(|x| format!("{k}={x}")))
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Array(exprs)) = v.get("matchExpressions") {
        for e in exprs {
            let vals: Vec<&str> = e
                .get("values")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            parts.push(format!(
                "{} {} ({})",
                str_at(e, "/key"),
                str_at(e, "/operator").to_ascii_lowercase(),
                vals.join(",")
            ));
        }
    }
    none_if_empty(parts.join(","))
}

fn columns(
    snap: &Snapshot,
    kind: &str,
    name: &str,
    v: &Value,
    wide: bool,
) -> (Vec<&'static str>, Vec<String>) {
    let age = created_age(snap, v);
    let n = name.to_string();
    let (mut h, mut r): (Vec<&'static str>, Vec<String>) = match kind {
        "Pod" => {
            let statuses = v
                .pointer("/status/containerStatuses")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let total = v
                .pointer("/spec/containers")
                .and_then(Value::as_array)
                .map(Vec::len)
                .unwrap_or(statuses.len());
            let ready = statuses
                .iter()
                .filter(|c| c.get("ready").and_then(Value::as_bool) == Some(true))
                .count();
            let restarts: i64 = statuses.iter().map(|c| int_at(c, "/restartCount")).sum();
            let last_restart = statuses
                .iter()
                .filter_map(|c| {
                    c.pointer("/lastState/terminated/finishedAt")
                        .and_then(Value::as_str)
                        .and_then(parse_timestamp)
                })
                .max();
            let restarts = match (last_restart, snap.as_of) {
                (Some(t), Some(now)) if restarts > 0 => {
                    format!("{restarts} ({} ago)", human_duration(now - t))
                }
                _ => restarts.to_string(),
            };
            let mut h = vec!["NAME", "READY", "STATUS", "RESTARTS", "AGE"];
            let mut r = vec![
                n,
                format!("{ready}/{total}"),
                pod_status(snap, v),
                restarts,
                age,
            ];
            if wide {
                h.extend(["IP", "NODE", "NOMINATED NODE", "READINESS GATES"]);
                let gates = v
                    .pointer("/spec/readinessGates")
                    .and_then(Value::as_array)
                    .map(|g| {
                        let conds = v
                            .pointer("/status/conditions")
                            .and_then(Value::as_array)
                            .cloned()
                            .unwrap_or_default();
                        let ok = g
                            .iter()
                            .filter(|gate| {
                                let t = str_at(gate, "/conditionType");
                                conds.iter().any(|c| {
                                    str_at(c, "/type") == t && str_at(c, "/status") == "True"
                                })
                            })
                            .count();
                        format!("{ok}/{}", g.len())
                    });
                r.extend([
                    none_if_empty(str_at(v, "/status/podIP").to_string()),
                    none_if_empty(str_at(v, "/spec/nodeName").to_string()),
                    none_if_empty(str_at(v, "/status/nominatedNodeName").to_string()),
                    gates.unwrap_or_else(|| "<none>".into()),
                ]);
            }
            return (h, r);
        }
        "Deployment" => (
            vec!["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"],
            vec![
                n,
                format!(
                    "{}/{}",
                    int_at(v, "/status/readyReplicas"),
                    v.pointer("/spec/replicas")
                        .and_then(Value::as_i64)
                        .unwrap_or(1)
                ),
                int_at(v, "/status/updatedReplicas").to_string(),
                int_at(v, "/status/availableReplicas").to_string(),
                age,
            ],
        ),
        "ReplicaSet" => (
            vec!["NAME", "DESIRED", "CURRENT", "READY", "AGE"],
            vec![
                n,
                v.pointer("/spec/replicas")
                    .and_then(Value::as_i64)
                    .unwrap_or(1)
                    .to_string(),
                int_at(v, "/status/replicas").to_string(),
                int_at(v, "/status/readyReplicas").to_string(),
                age,
            ],
        ),
        "StatefulSet" => (
            vec!["NAME", "READY", "AGE"],
            vec![
                n,
                format!(
                    "{}/{}",
                    int_at(v, "/status/readyReplicas"),
                    v.pointer("/spec/replicas")
                        .and_then(Value::as_i64)
                        .unwrap_or(1)
                ),
                age,
            ],
        ),
        "DaemonSet" => (
            vec![
                "NAME",
                "DESIRED",
                "CURRENT",
                "READY",
                "UP-TO-DATE",
                "AVAILABLE",
                "NODE SELECTOR",
                "AGE",
            ],
            vec![
                n,
                int_at(v, "/status/desiredNumberScheduled").to_string(),
                int_at(v, "/status/currentNumberScheduled").to_string(),
                int_at(v, "/status/numberReady").to_string(),
                int_at(v, "/status/updatedNumberScheduled").to_string(),
                int_at(v, "/status/numberAvailable").to_string(),
                v.pointer("/spec/template/spec/nodeSelector")
                    .and_then(Value::as_object)
                    .map(|m| {
                        m.iter()
                            .map(|(k, x)| format!("{k}={}", x.as_str().unwrap_or("")))
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "<none>".into()),
                age,
            ],
        ),
        "Job" => {
            let conds = v
                .pointer("/status/conditions")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let has = |t: &str| {
                conds
                    .iter()
                    .any(|c| str_at(c, "/type") == t && str_at(c, "/status") == "True")
            };
            let status = if has("Complete") {
                "Complete"
            } else if has("Failed") {
                "Failed"
            } else if has("FailureTarget") {
                "FailureTarget"
            } else if has("Suspended")
                || v.pointer("/spec/suspend").and_then(Value::as_bool) == Some(true)
            {
                "Suspended"
            } else {
                "Running"
            };
            let completions = v
                .pointer("/spec/completions")
                .and_then(Value::as_i64)
                .unwrap_or(1);
            let duration = match (
                parse_timestamp(str_at(v, "/status/startTime")),
                parse_timestamp(str_at(v, "/status/completionTime")),
                snap.as_of,
            ) {
                (Some(s), Some(e), _) => human_duration(e - s),
                (Some(s), None, Some(now)) => human_duration(now - s),
                _ => String::new(),
            };
            (
                vec!["NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"],
                vec![
                    n,
                    status.into(),
                    format!("{}/{completions}", int_at(v, "/status/succeeded")),
                    duration,
                    age,
                ],
            )
        }
        "CronJob" => (
            vec![
                "NAME",
                "SCHEDULE",
                "TIMEZONE",
                "SUSPEND",
                "ACTIVE",
                "LAST SCHEDULE",
                "AGE",
            ],
            vec![
                n,
                str_at(v, "/spec/schedule").into(),
                none_if_empty(str_at(v, "/spec/timeZone").into()),
                (v.pointer("/spec/suspend").and_then(Value::as_bool) == Some(true))
                    .to_string()
                    .replace("true", "True")
                    .replace("false", "False"),
                v.pointer("/status/active")
                    .and_then(Value::as_array)
                    .map(Vec::len)
                    .unwrap_or(0)
                    .to_string(),
                match str_at(v, "/status/lastScheduleTime") {
                    "" => "<none>".into(),
                    t => self::age(snap, t),
                },
                age,
            ],
        ),
        "Service" => {
            let ports = v
                .pointer("/spec/ports")
                .and_then(Value::as_array)
                .map(|ps| {
                    ps.iter()
                        .map(|p| {
                            let node = p
                                .get("nodePort")
                                .and_then(Value::as_i64)
                                .map(|np| format!(":{np}"))
                                .unwrap_or_default();
                            format!(
                                "{}{node}/{}",
                                int_at(p, "/port"),
                                p.get("protocol").and_then(Value::as_str).unwrap_or("TCP")
                            )
                        })
                        .collect::<Vec<_>>()
                        .join(",")
                })
                .unwrap_or_default();
            let typ = v
                .pointer("/spec/type")
                .and_then(Value::as_str)
                .unwrap_or("ClusterIP");
            let external = match typ {
                "ExternalName" => str_at(v, "/spec/externalName").to_string(),
                "LoadBalancer" => {
                    let ing = load_balancer_addresses(v);
                    if ing.is_empty() {
                        "<pending>".into()
                    } else {
                        ing.join(",")
                    }
                }
                _ => v
                    .pointer("/spec/externalIPs")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "<none>".into()),
            };
            let mut h = vec![
                "NAME",
                "TYPE",
                "CLUSTER-IP",
                "EXTERNAL-IP",
                "PORT(S)",
                "AGE",
            ];
            let mut r = vec![
                n,
                typ.into(),
                none_if_empty(str_at(v, "/spec/clusterIP").into()),
                external,
                none_if_empty(ports),
                age,
            ];
            if wide {
                h.push("SELECTOR");
                r.push(selector_text(v.pointer("/spec/selector")));
            }
            return (h, r);
        }
        "Endpoints" => {
            let mut addrs = Vec::new();
            for s in v
                .get("subsets")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
            {
                let ports: Vec<i64> = s
                    .get("ports")
                    .and_then(Value::as_array)
                    .map(|p| p.iter().map(|p| int_at(p, "/port")).collect())
                    .unwrap_or_default();
                for a in s
                    .get("addresses")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default()
                {
                    for p in &ports {
                        addrs.push(format!("{}:{p}", str_at(&a, "/ip")));
                    }
                }
            }
            (
                vec!["NAME", "ENDPOINTS", "AGE"],
                vec![n, none_if_empty(abbreviate(&addrs)), age],
            )
        }
        "EndpointSlice" => {
            let ports: Vec<String> = v
                .get("ports")
                .and_then(Value::as_array)
                .map(|p| p.iter().map(|p| int_at(p, "/port").to_string()).collect())
                .unwrap_or_default();
            let addrs: Vec<String> = v
                .get("endpoints")
                .and_then(Value::as_array)
                .map(|e| {
                    e.iter()
                        .flat_map(|e| {
                            e.get("addresses")
                                .and_then(Value::as_array)
                                .cloned()
                                .unwrap_or_default()
                        })
                        .filter_map(|a| a.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            (
                vec!["NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"],
                vec![
                    n,
                    str_at(v, "/addressType").into(),
                    none_if_empty(ports.join(",")),
                    none_if_empty(abbreviate(&addrs)),
                    age,
                ],
            )
        }
        "Ingress" => {
            let hosts: Vec<String> = v
                .pointer("/spec/rules")
                .and_then(Value::as_array)
                .map(|r| {
                    r.iter()
                        .map(|r| {
                            r.get("host")
                                .and_then(Value::as_str)
                                .unwrap_or("*")
                                .to_string()
                        })
                        .collect()
                })
                .unwrap_or_default();
            let address = load_balancer_addresses(v);
            let tls = v
                .pointer("/spec/tls")
                .and_then(Value::as_array)
                .is_some_and(|t| !t.is_empty());
            (
                vec!["NAME", "CLASS", "HOSTS", "ADDRESS", "PORTS", "AGE"],
                vec![
                    n,
                    none_if_empty(str_at(v, "/spec/ingressClassName").into()),
                    if hosts.is_empty() {
                        "*".into()
                    } else {
                        hosts.join(",")
                    },
                    address.join(","),
                    if tls { "80, 443".into() } else { "80".into() },
                    age,
                ],
            )
        }
        "Node" => {
            let conds = v
                .pointer("/status/conditions")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let ready = conds
                .iter()
                .find(|c| str_at(c, "/type") == "Ready")
                .map(|c| str_at(c, "/status"));
            let mut status = match ready {
                Some("True") => "Ready".to_string(),
                Some(_) => "NotReady".into(),
                None => "Unknown".into(),
            };
            if v.pointer("/spec/unschedulable").and_then(Value::as_bool) == Some(true) {
                status.push_str(",SchedulingDisabled");
            }
            let mut roles: Vec<String> = v
                .pointer("/metadata/labels")
                .and_then(Value::as_object)
                .map(|m| {
                    m.keys()
                        .filter_map(|k| k.strip_prefix("node-role.kubernetes.io/"))
                        .filter(|r| !r.is_empty())
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default();
            roles.sort();
            let mut h = vec!["NAME", "STATUS", "ROLES", "AGE", "VERSION"];
            let mut r = vec![
                n,
                status,
                none_if_empty(roles.join(",")),
                age,
                str_at(v, "/status/nodeInfo/kubeletVersion").into(),
            ];
            if wide {
                let addr = |t: &str| {
                    v.pointer("/status/addresses")
                        .and_then(Value::as_array)
                        .and_then(|a| a.iter().find(|x| str_at(x, "/type") == t))
                        .map(|x| str_at(x, "/address").to_string())
                        .unwrap_or_else(|| "<none>".into())
                };
                h.extend([
                    "INTERNAL-IP",
                    "EXTERNAL-IP",
                    "OS-IMAGE",
                    "KERNEL-VERSION",
                    "CONTAINER-RUNTIME",
                ]);
                r.extend([
                    addr("InternalIP"),
                    addr("ExternalIP"),
                    str_at(v, "/status/nodeInfo/osImage").into(),
                    str_at(v, "/status/nodeInfo/kernelVersion").into(),
                    str_at(v, "/status/nodeInfo/containerRuntimeVersion").into(),
                ]);
            }
            return (h, r);
        }
        "Namespace" => (
            vec!["NAME", "STATUS", "AGE"],
            vec![n, str_at(v, "/status/phase").into(), age],
        ),
        "Event" => {
            let e = kdiag::kube::event::Event::from_value(v).unwrap_or_default();
            let last = match (e.last, snap.as_of) {
                (Some(t), Some(now)) => human_duration(now - t),
                _ => "<unknown>".into(),
            };
            let object = format!(
                "{}/{}",
                e.regarding.kind.to_ascii_lowercase(),
                e.regarding.name
            );
            return (
                vec!["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"],
                vec![
                    last,
                    e.type_,
                    e.reason,
                    object,
                    e.message.replace('\n', " "),
                ],
            );
        }
        "PersistentVolumeClaim" => (
            vec![
                "NAME",
                "STATUS",
                "VOLUME",
                "CAPACITY",
                "ACCESS MODES",
                "STORAGECLASS",
                "AGE",
            ],
            vec![
                n,
                str_at(v, "/status/phase").into(),
                str_at(v, "/spec/volumeName").into(),
                str_at(v, "/status/capacity/storage").into(),
                access_modes(
                    v.pointer("/status/accessModes")
                        .or_else(|| v.pointer("/spec/accessModes")),
                ),
                none_if_empty(str_at(v, "/spec/storageClassName").into()),
                age,
            ],
        ),
        "PersistentVolume" => (
            vec![
                "NAME",
                "CAPACITY",
                "ACCESS MODES",
                "RECLAIM POLICY",
                "STATUS",
                "CLAIM",
                "STORAGECLASS",
                "AGE",
            ],
            vec![
                n,
                str_at(v, "/spec/capacity/storage").into(),
                access_modes(v.pointer("/spec/accessModes")),
                str_at(v, "/spec/persistentVolumeReclaimPolicy").into(),
                str_at(v, "/status/phase").into(),
                match (
                    str_at(v, "/spec/claimRef/namespace"),
                    str_at(v, "/spec/claimRef/name"),
                ) {
                    (_, "") => String::new(),
                    (ns, c) => format!("{ns}/{c}"),
                },
                str_at(v, "/spec/storageClassName").into(),
                age,
            ],
        ),
        "StorageClass" => (
            vec![
                "NAME",
                "PROVISIONER",
                "RECLAIMPOLICY",
                "VOLUMEBINDINGMODE",
                "ALLOWVOLUMEEXPANSION",
                "AGE",
            ],
            vec![
                if str_at(
                    v,
                    "/metadata/annotations/storageclass.kubernetes.io~1is-default-class",
                ) == "true"
                {
                    format!("{n} (default)")
                } else {
                    n
                },
                str_at(v, "/provisioner").into(),
                v.get("reclaimPolicy")
                    .and_then(Value::as_str)
                    .unwrap_or("Delete")
                    .into(),
                v.get("volumeBindingMode")
                    .and_then(Value::as_str)
                    .unwrap_or("Immediate")
                    .into(),
                v.get("allowVolumeExpansion")
                    .and_then(Value::as_bool)
                    .unwrap_or(false)
                    .to_string(),
                age,
            ],
        ),
        "ConfigMap" => (
            vec!["NAME", "DATA", "AGE"],
            vec![
                n,
                (v.get("data")
                    .and_then(Value::as_object)
                    .map(|m| m.len())
                    .unwrap_or(0)
                    + v.get("binaryData")
                        .and_then(Value::as_object)
                        .map(|m| m.len())
                        .unwrap_or(0))
                .to_string(),
                age,
            ],
        ),
        "Secret" => (
            vec!["NAME", "TYPE", "DATA", "AGE"],
            vec![n, str_at(v, "/type").into(), "<scrubbed>".into(), age],
        ),
        "ServiceAccount" => (
            vec!["NAME", "SECRETS", "AGE"],
            vec![
                n,
                v.get("secrets")
                    .and_then(Value::as_array)
                    .map(Vec::len)
                    .unwrap_or(0)
                    .to_string(),
                age,
            ],
        ),
        "Workload" => {
            let conds = v
                .pointer("/status/conditions")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let cond = |t: &str| {
                conds
                    .iter()
                    .find(|c| str_at(c, "/type") == t)
                    .map(|c| str_at(c, "/status").to_string())
                    .unwrap_or_default()
            };
            (
                vec![
                    "NAME",
                    "QUEUE",
                    "RESERVED IN",
                    "ADMITTED",
                    "FINISHED",
                    "AGE",
                ],
                vec![
                    n,
                    str_at(v, "/spec/queueName").into(),
                    str_at(v, "/status/admission/clusterQueue").into(),
                    cond("Admitted"),
                    cond("Finished"),
                    age,
                ],
            )
        }
        "ClusterQueue" => {
            let cohort = v
                .pointer("/spec/cohort")
                .or_else(|| v.pointer("/spec/cohortName"))
                .and_then(Value::as_str)
                .unwrap_or("");
            (
                vec![
                    "NAME",
                    "COHORT",
                    "STRATEGY",
                    "PENDING WORKLOADS",
                    "ADMITTED WORKLOADS",
                ],
                vec![
                    n,
                    cohort.into(),
                    v.pointer("/spec/queueingStrategy")
                        .and_then(Value::as_str)
                        .unwrap_or("BestEffortFIFO")
                        .into(),
                    int_at(v, "/status/pendingWorkloads").to_string(),
                    int_at(v, "/status/admittedWorkloads").to_string(),
                ],
            )
        }
        "LocalQueue" => (
            vec![
                "NAME",
                "CLUSTERQUEUE",
                "PENDING WORKLOADS",
                "ADMITTED WORKLOADS",
            ],
            vec![
                n,
                str_at(v, "/spec/clusterQueue").into(),
                int_at(v, "/status/pendingWorkloads").to_string(),
                int_at(v, "/status/admittedWorkloads").to_string(),
            ],
        ),
        _ => (vec!["NAME", "AGE"], vec![n, age]),
    };
    if wide
        && matches!(
            kind,
            "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Job"
        )
    {
        let (names, imgs) = images(v, true);
        h.extend(["CONTAINERS", "IMAGES", "SELECTOR"]);
        r.extend([names, imgs, selector_text(v.pointer("/spec/selector"))]);
    }
    (h, r)
}

fn access_modes(v: Option<&Value>) -> String {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(|m| match m {
                    "ReadWriteOnce" => "RWO",
                    "ReadOnlyMany" => "ROX",
                    "ReadWriteMany" => "RWX",
                    "ReadWriteOncePod" => "RWOP",
                    other => other,
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_default()
}

/// kubectl shows three endpoints and `+ N more...`.
fn abbreviate(addrs: &[String]) -> String {
    if addrs.len() <= 3 {
        addrs.join(",")
    } else {
        format!("{} + {} more...", addrs[..3].join(","), addrs.len() - 3)
    }
}

/// The STATUS column of `kubectl get pods` (printers.go `printPod`).
fn pod_status(snap: &Snapshot, v: &Value) -> String {
    let mut reason = v
        .pointer("/status/reason")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .or_else(|| v.pointer("/status/phase").and_then(Value::as_str))
        .unwrap_or("Unknown")
        .to_string();
    let inits = v
        .pointer("/status/initContainerStatuses")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let init_total = v
        .pointer("/spec/initContainers")
        .and_then(Value::as_array)
        .map(Vec::len)
        .unwrap_or(inits.len());
    let mut initializing = false;
    for (i, c) in inits.iter().enumerate() {
        let restartable = v
            .pointer("/spec/initContainers")
            .and_then(Value::as_array)
            .and_then(|a| a.get(i))
            .and_then(|s| s.get("restartPolicy"))
            .and_then(Value::as_str)
            == Some("Always");
        if let Some(t) = c.pointer("/state/terminated") {
            if int_at(t, "/exitCode") == 0 {
                continue;
            }
            reason = match t
                .get("reason")
                .and_then(Value::as_str)
                .filter(|r| !r.is_empty())
            {
                Some(r) => format!("Init:{r}"),
                None if int_at(t, "/signal") != 0 => {
                    format!("Init:Signal:{}", int_at(t, "/signal"))
                }
                None => format!("Init:ExitCode:{}", int_at(t, "/exitCode")),
            };
        } else if restartable && c.get("started").and_then(Value::as_bool) == Some(true) {
            continue;
        } else if let Some(r) = c
            .pointer("/state/waiting/reason")
            .and_then(Value::as_str)
            .filter(|r| !r.is_empty() && *r != "PodInitializing")
        {
            reason = format!("Init:{r}");
        } else {
            reason = format!("Init:{i}/{init_total}");
        }
        initializing = true;
        break;
    }
    if !initializing {
        let statuses = v
            .pointer("/status/containerStatuses")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut has_running = false;
        for c in statuses.iter().rev() {
            if let Some(r) = c
                .pointer("/state/waiting/reason")
                .and_then(Value::as_str)
                .filter(|r| !r.is_empty())
            {
                reason = r.to_string();
            } else if let Some(t) = c.pointer("/state/terminated") {
                reason = match t
                    .get("reason")
                    .and_then(Value::as_str)
                    .filter(|r| !r.is_empty())
                {
                    Some(r) => r.to_string(),
                    None if int_at(t, "/signal") != 0 => format!("Signal:{}", int_at(t, "/signal")),
                    None => format!("ExitCode:{}", int_at(t, "/exitCode")),
                };
            } else if c.pointer("/state/running").is_some()
                && c.get("ready").and_then(Value::as_bool) == Some(true)
            {
                has_running = true;
            }
        }
        if reason == "Completed" && has_running {
            let ready = v
                .pointer("/status/conditions")
                .and_then(Value::as_array)
                .is_some_and(|cs| {
                    cs.iter()
                        .any(|c| str_at(c, "/type") == "Ready" && str_at(c, "/status") == "True")
                });
            reason = if ready {
                "Running".into()
            } else {
                "NotReady".into()
            };
        }
    }
    if v.pointer("/metadata/deletionTimestamp").is_some() {
        let lost = snap
            .node_named(str_at(v, "/spec/nodeName"))
            .is_some_and(|(_, n)| {
                n.status
                    .conditions
                    .iter()
                    .any(|c| c.type_ == "Ready" && c.status == "Unknown")
            });
        reason = if lost && v.pointer("/status/reason").and_then(Value::as_str) == Some("NodeLost")
        {
            "Unknown".into()
        } else {
            "Terminating".into()
        };
    }
    reason
}

fn event_last(snap: &Snapshot, id: ObjectId) -> Option<i64> {
    kdiag::kube::event::Event::from_value(snap.object(id).value()).and_then(|e| e.last)
}

// ── label selectors (-l) ────────────────────────────────────────────────────────────

enum Req {
    Eq(String, String),
    Ne(String, String),
    Exists(String),
    NotExists(String),
}

fn parse_selector(s: &str) -> Result<Vec<Req>, String> {
    s.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            if let Some((k, v)) = p.split_once("!=") {
                Ok(Req::Ne(k.trim().into(), v.trim().into()))
            } else if let Some((k, v)) = p.split_once("==").or_else(|| p.split_once('=')) {
                Ok(Req::Eq(k.trim().into(), v.trim().into()))
            } else if let Some(k) = p.strip_prefix('!') {
                Ok(Req::NotExists(k.trim().into()))
            } else if p
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
            {
                Ok(Req::Exists(p.into()))
            } else {
                Err(format!(
                    "cannot read label selector {p:?} (use k=v, k!=v, k or !k, comma-separated)"
                ))
            }
        })
        .collect()
}

fn matches_selector(reqs: &[Req], v: &Value) -> bool {
    let labels = v.pointer("/metadata/labels").and_then(Value::as_object);
    let get = |k: &str| labels.and_then(|m| m.get(k)).and_then(Value::as_str);
    reqs.iter().all(|r| match r {
        Req::Eq(k, val) => get(k) == Some(val.as_str()),
        Req::Ne(k, val) => get(k) != Some(val.as_str()),
        Req::Exists(k) => get(k).is_some(),
        Req::NotExists(k) => get(k).is_none(),
    })
}

// ── YAML ────────────────────────────────────────────────────────────────────────────

/// The object as YAML: its own text from the bundle when the bundle has it as YAML
/// (without `managedFields`, as kubectl prints it), else emitted from the parsed
/// object. Secrets always come from the parsed object, whose values ingest removed.
pub fn object_yaml(snap: &Snapshot, id: ObjectId) -> String {
    let o = snap.object(id);
    if o.kind != "Secret" {
        let (file, span) = snap.source_of(id);
        let text = file.lines(span.start, span.end);
        if let Some(y) = dedent_yaml(text) {
            return y;
        }
    }
    let mut out = String::new();
    yaml_value(o.value(), 0, &mut out);
    out
}

/// A List item or document as a top-level document; `None` when the text is JSON.
fn dedent_yaml(text: &str) -> Option<String> {
    // The empty lines that follow the comment ingest left for a managedFields block go too.
    let mut in_gap = false;
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| {
            let t = l.trim();
            in_gap = t == kdiag::parse::fast_yaml::MANAGED_FIELDS_GAP || (in_gap && t.is_empty());
            t != "---" && t != "..." && !t.starts_with('#') && !in_gap
        })
        .collect();
    let first = lines.iter().find(|l| !l.trim().is_empty())?;
    let lead = first.len() - first.trim_start().len();
    let rest = &first[lead..];
    if rest.starts_with('{') || rest.starts_with('[') || rest.starts_with('"') {
        return None;
    }
    let item = rest.starts_with("- ");
    let width = lead + if item { 2 } else { 0 };
    let mut out = String::new();
    let mut skip_indent: Option<usize> = None;
    let mut first_done = false;
    for l in lines {
        let line = if !first_done && !l.trim().is_empty() {
            first_done = true;
            let t = &l[lead..];
            if item {
                t[2..].to_string()
            } else {
                t.to_string()
            }
        } else {
            let ws = l.len() - l.trim_start().len();
            l[ws.min(width)..].to_string()
        };
        // Drop metadata.managedFields (a key and everything deeper, or list items at its indent).
        let indent = line.len() - line.trim_start().len();
        if let Some(k) = skip_indent {
            if line.trim().is_empty()
                || indent > k
                || (indent == k && line.trim_start().starts_with("- "))
            {
                continue;
            }
            skip_indent = None;
        }
        if line.trim_start().starts_with("managedFields:") && indent == 2 {
            skip_indent = Some(indent);
            continue;
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    Some(out)
}

/// A small YAML emitter (block style; strings quoted JSON-style when plain would not
/// read back as the same string).
pub fn yaml_value(v: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let _ = write!(out, "{pad}{}:", yaml_scalar_str(k));
                yaml_child(x, indent, out);
            }
        }
        Value::Array(a) => {
            for x in a {
                let _ = write!(out, "{pad}-");
                match x {
                    Value::Object(m) if !m.is_empty() => {
                        let mut inner = String::new();
                        yaml_value(x, indent + 2, &mut inner);
                        out.push(' ');
                        out.push_str(&inner[indent + 2..]);
                    }
                    Value::Array(a) if !a.is_empty() => {
                        out.push('\n');
                        yaml_value(x, indent + 2, out);
                    }
                    _ => {
                        out.push(' ');
                        out.push_str(&yaml_scalar(x));
                        out.push('\n');
                    }
                }
            }
        }
        _ => {
            let _ = writeln!(out, "{pad}{}", yaml_scalar(v));
        }
    }
}

fn yaml_child(x: &Value, indent: usize, out: &mut String) {
    match x {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            yaml_value(x, indent + 2, out);
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            yaml_value(x, indent, out);
        }
        _ => {
            out.push(' ');
            out.push_str(&yaml_scalar(x));
            out.push('\n');
        }
    }
}

fn yaml_scalar(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => yaml_scalar_str(s),
        Value::Object(_) => "{}".into(),
        Value::Array(_) => "[]".into(),
    }
}

fn yaml_scalar_str(s: &str) -> String {
    let plain = !s.is_empty()
        && s.trim() == s
        && !s.starts_with([
            '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%',
            '@', '`',
        ])
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && !s.chars().any(|c| c.is_control())
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | "null" | "~"
        )
        && s.parse::<f64>().is_err()
        && !s.starts_with("0x")
        && !s.starts_with("0o");
    if plain {
        s.to_string()
    } else {
        serde_json::to_string(s).unwrap_or_default()
    }
}

// ── describe ────────────────────────────────────────────────────────────────────────

pub fn describe(args: DescribeArgs) -> ExitCode {
    let Some((snap, findings)) = load(&args.paths) else {
        return ExitCode::from(2);
    };
    let Some((typed, name)) = args.target.split_once('/') else {
        eprintln!("kdiag: expected KIND/NAME, got {:?}", args.target);
        return ExitCode::from(2);
    };
    let Some(kind) = resolve_kind(&snap, typed) else {
        eprintln!("kdiag: the bundle holds no objects of kind {typed:?}");
        return ExitCode::from(2);
    };
    let id = match resolve_object(&snap, &kind, name, args.namespace.as_deref()) {
        Ok(id) => id,
        Err(e) => {
            eprintln!("kdiag: {e}");
            return ExitCode::from(2);
        }
    };
    let text = describe_object(&snap, &findings, id);
    let redactor = args.redact.then(|| Redactor::from_snapshot(&snap));
    emit(text, redactor.as_ref())
}

fn field(out: &mut String, key: &str, value: &str) {
    let _ = writeln!(out, "{:<17}{}", format!("{key}:"), value);
}

fn map_field(out: &mut String, key: &str, v: Option<&Value>, skip: &[&str]) {
    let items: Vec<String> = v
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter(|(k, _)| !skip.contains(&k.as_str()))
                .map(|(k, x)| {
                    format!(
                        "{k}={}",
                        x.as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| x.to_string())
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    if items.is_empty() {
        field(out, key, "<none>");
        return;
    }
    for (i, it) in items.iter().enumerate() {
        let it = if it.chars().count() > 120 {
            it.chars().take(117).collect::<String>() + "..."
        } else {
            it.clone()
        };
        if i == 0 {
            field(out, key, &it);
        } else {
            let _ = writeln!(out, "{:<17}{it}", "");
        }
    }
}

pub fn describe_object(snap: &Snapshot, findings: &[Finding], id: ObjectId) -> String {
    let o = snap.object(id);
    let v = o.value();
    let mut out = String::new();
    field(&mut out, "Name", &o.name);
    if let Some(ns) = &o.namespace {
        field(&mut out, "Namespace", ns);
    }
    field(&mut out, "Kind", &format!("{} ({})", o.kind, o.api_version));
    map_field(&mut out, "Labels", v.pointer("/metadata/labels"), &[]);
    map_field(
        &mut out,
        "Annotations",
        v.pointer("/metadata/annotations"),
        &["kubectl.kubernetes.io/last-applied-configuration"],
    );
    let created = str_at(v, "/metadata/creationTimestamp");
    if !created.is_empty() {
        field(
            &mut out,
            "Created",
            &format!("{created} ({} before the snapshot)", age(snap, created)),
        );
    }
    if let Some(t) = v
        .pointer("/metadata/deletionTimestamp")
        .and_then(Value::as_str)
    {
        field(
            &mut out,
            "Deleting",
            &format!("since {t} ({})", age(snap, t)),
        );
    }
    if let Some(owners) = v
        .pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
    {
        for ow in owners {
            field(
                &mut out,
                "Controlled By",
                &format!("{}/{}", str_at(ow, "/kind"), str_at(ow, "/name")),
            );
        }
    }
    let sources: Vec<String> = o
        .sources
        .iter()
        .map(|s| {
            let f = &snap.files[s.file];
            let input = if snap.inputs.len() > 1 {
                format!("[{}] ", snap.inputs[f.input].path)
            } else {
                String::new()
            };
            format!("{input}{}:{}-{}", f.path, s.span.start, s.span.end)
        })
        .collect();
    for (i, s) in sources.iter().enumerate() {
        if i == 0 {
            field(&mut out, "Source", s);
        } else {
            let _ = writeln!(out, "{:<17}{s}", "");
        }
    }
    if let Some(t) = snap.as_of {
        field(&mut out, "Snapshot", &format_rfc3339(t));
    }
    match o.kind.as_str() {
        "Pod" => describe_pod(snap, v, &mut out),
        "Secret" => {
            field(&mut out, "Type", str_at(v, "/type"));
            out.push_str("\nData:  <not shown: kdiag never reads or prints Secret values>\n");
        }
        "Event" => {
            let mut rest = v.clone();
            if let Some(m) = rest.as_object_mut() {
                for k in ["apiVersion", "kind", "metadata"] {
                    m.remove(k);
                }
            }
            out.push('\n');
            yaml_value(&rest, 0, &mut out);
        }
        _ => {
            for (key, title) in [("spec", "Spec"), ("status", "Status")] {
                if let Some(x) = v
                    .get(key)
                    .filter(|x| x.as_object().is_some_and(|m| !m.is_empty()))
                {
                    let _ = writeln!(out, "{title}:");
                    yaml_value(x, 2, &mut out);
                }
            }
            // Kinds with top-level data (ConfigMap, StorageClass, EndpointSlice …).
            if let Some(m) = v.as_object() {
                let rest: serde_json::Map<String, Value> = m
                    .iter()
                    .filter(|(k, _)| {
                        !matches!(
                            k.as_str(),
                            "apiVersion" | "kind" | "metadata" | "spec" | "status"
                        )
                    })
                    .map(|(k, x)| (k.clone(), x.clone()))
                    .collect();
                if !rest.is_empty() {
                    yaml_value(&Value::Object(rest), 0, &mut out);
                }
            }
        }
    }
    events_section(snap, id, &mut out);
    findings_section(snap, findings, id, &mut out);
    out
}

fn describe_pod(snap: &Snapshot, v: &Value, out: &mut String) {
    let node = str_at(v, "/spec/nodeName");
    let host_ip = str_at(v, "/status/hostIP");
    field(
        out,
        "Node",
        &match (node, host_ip) {
            ("", _) => "<none>".into(),
            (n, "") => n.into(),
            (n, ip) => format!("{n}/{ip}"),
        },
    );
    if let Some(p) = v.pointer("/spec/priority").and_then(Value::as_i64) {
        field(out, "Priority", &p.to_string());
    }
    if let Some(sa) = v
        .pointer("/spec/serviceAccountName")
        .and_then(Value::as_str)
    {
        field(out, "Service Account", sa);
    }
    field(out, "Status", &pod_status(snap, v));
    if let Some(m) = v.pointer("/status/message").and_then(Value::as_str) {
        field(out, "Message", m);
    }
    field(out, "IP", str_at(v, "/status/podIP"));
    for (path, title) in [
        ("/spec/initContainers", "Init Containers"),
        ("/spec/containers", "Containers"),
    ] {
        let Some(cs) = v.pointer(path).and_then(Value::as_array) else {
            continue;
        };
        if cs.is_empty() {
            continue;
        }
        let statuses_path = if title == "Containers" {
            "/status/containerStatuses"
        } else {
            "/status/initContainerStatuses"
        };
        let statuses = v
            .pointer(statuses_path)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let _ = writeln!(out, "{title}:");
        for c in cs {
            let name = str_at(c, "/name");
            let st = statuses.iter().find(|s| str_at(s, "/name") == name);
            let _ = writeln!(out, "  {name}:");
            let f = |out: &mut String, k: &str, val: &str| {
                let _ = writeln!(out, "    {:<16}{val}", format!("{k}:"));
            };
            f(out, "Image", str_at(c, "/image"));
            if let Some(ports) = c.get("ports").and_then(Value::as_array) {
                let p: Vec<String> = ports
                    .iter()
                    .map(|p| {
                        let n = p
                            .get("name")
                            .and_then(Value::as_str)
                            .map(|n| format!(" ({n})"))
                            .unwrap_or_default();
                        format!(
                            "{}/{}{n}",
                            int_at(p, "/containerPort"),
                            p.get("protocol").and_then(Value::as_str).unwrap_or("TCP")
                        )
                    })
                    .collect();
                f(out, "Ports", &p.join(", "));
            }
            if let Some(st) = st {
                for (label, key) in [("State", "/state"), ("Last State", "/lastState")] {
                    let Some(state) = st
                        .pointer(key)
                        .and_then(Value::as_object)
                        .filter(|m| !m.is_empty())
                    else {
                        continue;
                    };
                    for (which, detail) in state {
                        let mut word = which.clone();
                        if let Some(c) = word.get_mut(0..1) {
                            c.make_ascii_uppercase();
                        }
                        f(out, label, &word);
                        if let Some(m) = detail.as_object() {
                            for (k, x) in m {
                                if matches!(k.as_str(), "containerID") {
                                    continue;
                                }
                                let val = x
                                    .as_str()
                                    .map(str::to_string)
                                    .unwrap_or_else(|| x.to_string());
                                let _ = writeln!(
                                    out,
                                    "      {:<14}{}",
                                    format!("{k}:"),
                                    val.replace('\n', " ")
                                );
                            }
                        }
                    }
                }
                f(
                    out,
                    "Ready",
                    if st.get("ready").and_then(Value::as_bool) == Some(true) {
                        "True"
                    } else {
                        "False"
                    },
                );
                f(
                    out,
                    "Restart Count",
                    &int_at(st, "/restartCount").to_string(),
                );
            }
            for (k, title) in [("limits", "Limits"), ("requests", "Requests")] {
                if let Some(m) = c
                    .pointer(&format!("/resources/{k}"))
                    .and_then(Value::as_object)
                    .filter(|m| !m.is_empty())
                {
                    let _ = writeln!(out, "    {title}:");
                    for (r, q) in m {
                        let _ = writeln!(
                            out,
                            "      {r}:  {}",
                            q.as_str()
                                .map(str::to_string)
                                .unwrap_or_else(|| q.to_string())
                        );
                    }
                }
            }
            for (k, title) in [
                ("livenessProbe", "Liveness"),
                ("readinessProbe", "Readiness"),
                ("startupProbe", "Startup"),
            ] {
                if let Some(p) = c.get(k) {
                    f(out, title, &probe_text(p));
                }
            }
        }
    }
    if let Some(conds) = v.pointer("/status/conditions").and_then(Value::as_array) {
        out.push_str("Conditions:\n");
        let w = conds
            .iter()
            .map(|c| str_at(c, "/type").len())
            .max()
            .unwrap_or(4)
            .max(4);
        let _ = writeln!(out, "  {:<w$}   Status", "Type");
        for c in conds {
            let reason = c
                .get("reason")
                .and_then(Value::as_str)
                .map(|r| format!("   ({r})"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  {:<w$}   {}{reason}",
                str_at(c, "/type"),
                str_at(c, "/status")
            );
        }
    }
    if let Some(sel) = v
        .pointer("/spec/nodeSelector")
        .and_then(Value::as_object)
        .filter(|m| !m.is_empty())
    {
        map_field(
            out,
            "Node-Selectors",
            Some(&Value::Object(sel.clone())),
            &[],
        );
    }
    if let Some(tols) = v
        .pointer("/spec/tolerations")
        .and_then(Value::as_array)
        .filter(|t| !t.is_empty())
    {
        let items: Vec<String> = tols
            .iter()
            .map(|t| {
                let key = str_at(t, "/key");
                let val = t
                    .get("value")
                    .and_then(Value::as_str)
                    .map(|x| format!("={x}"))
                    .unwrap_or_default();
                let eff = t
                    .get("effect")
                    .and_then(Value::as_str)
                    .map(|e| format!(":{e}"))
                    .unwrap_or_default();
                let op = if str_at(t, "/operator") == "Exists" && key.is_empty() {
                    "op=Exists".to_string()
                } else {
                    String::new()
                };
                let secs = t
                    .get("tolerationSeconds")
                    .and_then(Value::as_i64)
                    .map(|s| format!(" for {s}s"))
                    .unwrap_or_default();
                format!("{key}{val}{eff}{op}{secs}")
            })
            .collect();
        for (i, t) in items.iter().enumerate() {
            if i == 0 {
                field(out, "Tolerations", t);
            } else {
                let _ = writeln!(out, "{:<17}{t}", "");
            }
        }
    }
}

fn probe_text(p: &Value) -> String {
    let what = if let Some(h) = p.get("httpGet") {
        let port = h
            .get("port")
            .map(|x| {
                x.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| x.to_string())
            })
            .unwrap_or_default();
        format!(
            "http-get {}:{port}{}",
            h.get("scheme")
                .and_then(Value::as_str)
                .map(|s| s.to_ascii_lowercase() + "://")
                .unwrap_or_default(),
            str_at(h, "/path")
        )
    } else if let Some(t) = p.get("tcpSocket") {
        format!(
            "tcp-socket :{}",
            t.get("port")
                .map(|x| x
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| x.to_string()))
                .unwrap_or_default()
        )
    } else if let Some(e) = p.pointer("/exec/command").and_then(Value::as_array) {
        format!(
            "exec [{}]",
            e.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" ")
        )
    } else if let Some(g) = p.get("grpc") {
        format!("grpc :{}", int_at(g, "/port"))
    } else {
        "?".into()
    };
    format!(
        "{what} delay={}s timeout={}s period={}s #success={} #failure={}",
        int_at(p, "/initialDelaySeconds"),
        p.get("timeoutSeconds").and_then(Value::as_i64).unwrap_or(1),
        p.get("periodSeconds").and_then(Value::as_i64).unwrap_or(10),
        p.get("successThreshold")
            .and_then(Value::as_i64)
            .unwrap_or(1),
        p.get("failureThreshold")
            .and_then(Value::as_i64)
            .unwrap_or(3),
    )
}

fn events_section(snap: &Snapshot, id: ObjectId, out: &mut String) {
    let events = snap.events_for(id);
    if events.is_empty() {
        let why = if snap.has_kind("Event") {
            "<none> (events expire after about an hour: no event is not proof of health)"
        } else {
            "<none> (the bundle holds no events at all)"
        };
        let _ = writeln!(out, "Events:          {why}");
        return;
    }
    out.push_str("Events:\n");
    let rows: Vec<[String; 5]> = events
        .iter()
        .map(|(_, e)| {
            let ago = |t: Option<i64>| match (t, snap.as_of) {
                (Some(t), Some(now)) => human_duration(now - t),
                _ => "<unknown>".into(),
            };
            let age = if e.count > 1 {
                format!(
                    "{} (x{} over {})",
                    ago(e.last),
                    e.count,
                    match (e.first, e.last) {
                        (Some(f), Some(l)) => human_duration(l - f),
                        _ => "?".into(),
                    }
                )
            } else {
                ago(e.last)
            };
            [
                e.type_.clone(),
                e.reason.clone(),
                age,
                e.component.clone(),
                e.message.replace('\n', " "),
            ]
        })
        .collect();
    let head = ["Type", "Reason", "Age", "From", "Message"];
    let mut w = head.map(str::len);
    for r in &rows {
        for i in 0..4 {
            w[i] = w[i].max(r[i].chars().count());
        }
    }
    let line = |cells: [&str; 5], out: &mut String| {
        let _ = writeln!(
            out,
            "  {:<w0$}  {:<w1$}  {:<w2$}  {:<w3$}  {}",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            w0 = w[0],
            w1 = w[1],
            w2 = w[2],
            w3 = w[3]
        );
    };
    line(head, out);
    line(["----", "------", "----", "----", "-------"], out);
    for r in &rows {
        line([&r[0], &r[1], &r[2], &r[3], &r[4]], out);
    }
}

/// kdiag's findings about this object: on it, explaining it, or citing it.
fn findings_section(snap: &Snapshot, findings: &[Finding], id: ObjectId, out: &mut String) {
    let o = snap.object(id);
    let me = o.reference();
    let same = |r: &kdiag::kube::meta::ObjectRef| {
        r.kind == me.kind && r.namespace == me.namespace && r.name == me.name
    };
    let mine: Vec<&Finding> = findings
        .iter()
        .filter(|f| {
            same(&f.object)
                || f.explains.contains(&id)
                || f.evidence
                    .iter()
                    .any(|e| e.object.as_ref().is_some_and(same))
        })
        .collect();
    if mine.is_empty() {
        out.push_str("Findings:        <none>\n");
        return;
    }
    out.push_str("Findings:\n");
    for f in mine {
        let _ = writeln!(
            out,
            "  [{}] {} {}{}: {}",
            f.stage.as_str(),
            f.severity.as_str(),
            f.rule,
            if same(&f.object) {
                String::new()
            } else {
                format!(" (on {})", f.object.display())
            },
            f.message
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_emitter() {
        let v =
            json!({"a": {"b": [1, {"c": "x: y", "d": []}], "e": "true"}, "f": "plain", "g": {}});
        let mut out = String::new();
        yaml_value(&v, 0, &mut out);
        assert_eq!(
            out,
            "a:\n  b:\n  - 1\n  - c: \"x: y\"\n    d: []\n  e: \"true\"\nf: plain\ng: {}\n"
        );
    }

    #[test]
    fn dedents_list_items_and_drops_managed_fields() {
        let item = "  - apiVersion: v1\n    kind: Pod\n    metadata:\n      managedFields:\n      - manager: kubelet\n        operation: Update\n      name: p\n    spec: {}";
        assert_eq!(
            dedent_yaml(item).unwrap(),
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec: {}\n"
        );
        assert_eq!(dedent_yaml("{\"kind\": \"Pod\"}"), None);
        // The kept text (managedFields left as a comment and empty lines) reads the same;
        // an empty line inside a block scalar stays.
        let doc = "apiVersion: v1\nkind: Pod\nmetadata:\n  managedFields:\n  - manager: kubelet\n    operation: Update\n  name: p\n  annotations:\n    note: |\n      a\n\n      b\nspec: {}\n";
        let (_, managed) = kdiag::parse::fast_yaml::scan::<
            kdiag::ingest::header::Header<kdiag::ingest::header::ItemHeader>,
        >(doc)
        .unwrap();
        let (kept, _) = kdiag::parse::fast_yaml::compact(doc, &managed);
        assert_ne!(kept.as_str(), doc);
        assert_eq!(
            dedent_yaml(&kept).unwrap(),
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    note: |\n      a\n\n      b\nspec: {}\n"
        );
    }

    #[test]
    fn kubectl_durations() {
        let cases = [
            (45, "45s"),
            (200, "3m20s"),
            (720, "12m"),
            (3 * 3600 + 720, "3h12m"),
            (20 * 3600, "20h"),
            (5 * 86400 + 6 * 3600, "5d6h"),
            (14 * 86400 + 3600, "14d"),
            (800 * 86400, "2y70d"),
        ];
        for (secs, want) in cases {
            assert_eq!(human_duration(secs), want, "{secs}s");
        }
    }

    #[test]
    fn selectors() {
        let v = json!({"metadata": {"labels": {"app": "web", "tier": "fe"}}});
        assert!(matches_selector(
            &parse_selector("app=web,tier!=db").unwrap(),
            &v
        ));
        assert!(!matches_selector(
            &parse_selector("app=web,!tier").unwrap(),
            &v
        ));
        assert!(parse_selector("app in (a)").is_err());
    }
}

//! The kubectl-style table columns of each kind (`kdiag get` and `-o wide`): a table of
//! printers, each kind's columns in order, each column its header, whether only `-o wide`
//! shows it, and the function that computes its cell from one object. A caller asks for a
//! kind's columns ([`columns_of`]) and computes the cells it shows; [`columns`] is the
//! header and row `get` prints.

use super::age::{age, created_age, human_duration, now_of};
use super::fields::{int_at, str_at};
use super::pod_status::pod_status;
use crate::kube::time::parse_timestamp;
use crate::snapshot::Snapshot;
use serde_json::Value;

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

fn none_if_empty(s: String) -> String {
    if s.is_empty() { "<none>".into() } else { s }
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

/// One object of a table: what its cells are computed from.
pub(super) struct Item<'a> {
    pub snap: &'a Snapshot,
    pub name: &'a str,
    pub v: &'a Value,
}

/// One column of a kind's table.
pub(super) struct Column {
    /// The header kubectl prints.
    pub name: &'static str,
    /// Shown only by `-o wide`.
    pub wide: bool,
    pub cell: fn(&Item) -> String,
}

const fn col(name: &'static str, cell: fn(&Item) -> String) -> Column {
    Column {
        name,
        wide: false,
        cell,
    }
}

const fn wide(name: &'static str, cell: fn(&Item) -> String) -> Column {
    Column {
        name,
        wide: true,
        cell,
    }
}

/// A column whose cell is the integer at a JSON pointer (0 when there is none).
macro_rules! int_column {
    ($name:literal, $path:literal) => {
        col($name, |o| int_at(o.v, $path).to_string())
    };
}

/// A column whose cell is the string at a JSON pointer (empty when there is none); `wide`
/// for one only `-o wide` shows.
macro_rules! text_column {
    ($name:literal, $path:literal) => {
        col($name, |o| str_at(o.v, $path).to_string())
    };
    (wide $name:literal, $path:literal) => {
        wide($name, |o| str_at(o.v, $path).to_string())
    };
}

/// `text_column!`, `<none>` when empty.
macro_rules! text_or_none {
    ($name:literal, $path:literal) => {
        col($name, |o| none_if_empty(str_at(o.v, $path).to_string()))
    };
    (wide $name:literal, $path:literal) => {
        wide($name, |o| none_if_empty(str_at(o.v, $path).to_string()))
    };
}

/// A kind's columns.
struct Printer {
    kind: &'static str,
    columns: &'static [Column],
}

const NAME: Column = col("NAME", |o| o.name.to_string());
const AGE: Column = col("AGE", |o| created_age(o.snap, o.v));
/// `status.phase`, kubectl's STATUS of Namespaces and volumes.
const PHASE: Column = text_column!("STATUS", "/status/phase");
/// What `-o wide` adds to a controller of pods: its template's containers and images,
/// and its selector.
const TEMPLATE_CONTAINERS: Column = wide("CONTAINERS", |o| images(o.v, true).0);
const TEMPLATE_IMAGES: Column = wide("IMAGES", |o| images(o.v, true).1);
const SELECTOR: Column = wide("SELECTOR", |o| selector_text(o.v.pointer("/spec/selector")));
/// `READY` of a Deployment or StatefulSet: ready replicas of those wanted.
const READY_REPLICAS: Column = col("READY", |o| {
    format!(
        "{}/{}",
        int_at(o.v, "/status/readyReplicas"),
        spec_replicas(o.v)
    )
});
const PENDING_WORKLOADS: Column = int_column!("PENDING WORKLOADS", "/status/pendingWorkloads");
const ADMITTED_WORKLOADS: Column = int_column!("ADMITTED WORKLOADS", "/status/admittedWorkloads");
/// NAME and AGE: the columns of a kind without its own.
const DEFAULT: &[Column] = &[NAME, AGE];

/// The kinds with columns of their own, as kubectl prints them.
static PRINTERS: &[Printer] = &[
    Printer {
        kind: "Pod",
        columns: &[
            NAME,
            col("READY", |o| {
                table_cell(o.v, "READY").unwrap_or_else(|| pod_ready(o))
            }),
            col("STATUS", |o| {
                table_cell(o.v, "STATUS").unwrap_or_else(|| pod_status(o.snap, o.v))
            }),
            col("RESTARTS", |o| {
                table_cell(o.v, "RESTARTS").unwrap_or_else(|| pod_restarts(o))
            }),
            AGE,
            text_or_none!(wide "IP", "/status/podIP"),
            text_or_none!(wide "NODE", "/spec/nodeName"),
            text_or_none!(wide "NOMINATED NODE", "/status/nominatedNodeName"),
            wide("READINESS GATES", readiness_gates),
        ],
    },
    Printer {
        kind: "Deployment",
        columns: &[
            NAME,
            READY_REPLICAS,
            int_column!("UP-TO-DATE", "/status/updatedReplicas"),
            int_column!("AVAILABLE", "/status/availableReplicas"),
            AGE,
            TEMPLATE_CONTAINERS,
            TEMPLATE_IMAGES,
            SELECTOR,
        ],
    },
    Printer {
        kind: "ReplicaSet",
        columns: &[
            NAME,
            DESIRED_REPLICAS,
            CURRENT_REPLICAS,
            READY_OF_REPLICAS,
            AGE,
            TEMPLATE_CONTAINERS,
            TEMPLATE_IMAGES,
            SELECTOR,
        ],
    },
    Printer {
        kind: "ReplicationController",
        columns: &[
            NAME,
            DESIRED_REPLICAS,
            CURRENT_REPLICAS,
            READY_OF_REPLICAS,
            AGE,
        ],
    },
    Printer {
        kind: "StatefulSet",
        columns: &[
            NAME,
            READY_REPLICAS,
            AGE,
            TEMPLATE_CONTAINERS,
            TEMPLATE_IMAGES,
            SELECTOR,
        ],
    },
    Printer {
        kind: "DaemonSet",
        columns: &[
            NAME,
            int_column!("DESIRED", "/status/desiredNumberScheduled"),
            int_column!("CURRENT", "/status/currentNumberScheduled"),
            int_column!("READY", "/status/numberReady"),
            int_column!("UP-TO-DATE", "/status/updatedNumberScheduled"),
            int_column!("AVAILABLE", "/status/numberAvailable"),
            col("NODE SELECTOR", node_selector),
            AGE,
            TEMPLATE_CONTAINERS,
            TEMPLATE_IMAGES,
            SELECTOR,
        ],
    },
    Printer {
        kind: "Job",
        columns: &[
            NAME,
            col("STATUS", |o| job_status(o.v).into()),
            col("COMPLETIONS", |o| {
                let completions = o.v.pointer("/spec/completions").and_then(Value::as_i64);
                format!(
                    "{}/{}",
                    int_at(o.v, "/status/succeeded"),
                    completions.unwrap_or(1)
                )
            }),
            col("DURATION", job_duration),
            AGE,
            TEMPLATE_CONTAINERS,
            TEMPLATE_IMAGES,
            SELECTOR,
        ],
    },
    Printer {
        kind: "CronJob",
        columns: &[
            NAME,
            text_column!("SCHEDULE", "/spec/schedule"),
            text_or_none!("TIMEZONE", "/spec/timeZone"),
            col("SUSPEND", |o| {
                (o.v.pointer("/spec/suspend").and_then(Value::as_bool) == Some(true))
                    .to_string()
                    .replace("true", "True")
                    .replace("false", "False")
            }),
            col("ACTIVE", |o| {
                let active = o.v.pointer("/status/active").and_then(Value::as_array);
                active.map(Vec::len).unwrap_or(0).to_string()
            }),
            col("LAST SCHEDULE", |o| {
                match str_at(o.v, "/status/lastScheduleTime") {
                    "" => "<none>".into(),
                    t => age(o.snap, o.v, t),
                }
            }),
            AGE,
        ],
    },
    Printer {
        kind: "Service",
        columns: &[
            NAME,
            col("TYPE", |o| service_type(o.v).into()),
            text_or_none!("CLUSTER-IP", "/spec/clusterIP"),
            col("EXTERNAL-IP", service_external),
            col("PORT(S)", service_ports),
            AGE,
            SELECTOR,
        ],
    },
    Printer {
        kind: "Endpoints",
        columns: &[NAME, col("ENDPOINTS", endpoints_addresses), AGE],
    },
    Printer {
        kind: "EndpointSlice",
        columns: &[
            NAME,
            text_column!("ADDRESSTYPE", "/addressType"),
            col("PORTS", |o| {
                let ports = each(o.v, "/ports", |p| int_at(p, "/port").to_string());
                none_if_empty(ports.join(","))
            }),
            col("ENDPOINTS", slice_addresses),
            AGE,
        ],
    },
    Printer {
        kind: "Ingress",
        columns: &[
            NAME,
            text_or_none!("CLASS", "/spec/ingressClassName"),
            col("HOSTS", ingress_hosts),
            col("ADDRESS", |o| load_balancer_addresses(o.v).join(",")),
            col("PORTS", |o| {
                let tls = o.v.pointer("/spec/tls").and_then(Value::as_array);
                match tls.is_some_and(|t| !t.is_empty()) {
                    true => "80, 443".into(),
                    false => "80".into(),
                }
            }),
            AGE,
        ],
    },
    Printer {
        kind: "Node",
        columns: &[
            NAME,
            col("STATUS", node_status),
            col("ROLES", node_roles),
            AGE,
            text_column!("VERSION", "/status/nodeInfo/kubeletVersion"),
            wide("INTERNAL-IP", |o| node_address(o.v, "InternalIP")),
            wide("EXTERNAL-IP", |o| node_address(o.v, "ExternalIP")),
            text_column!(wide "OS-IMAGE", "/status/nodeInfo/osImage"),
            text_column!(wide "KERNEL-VERSION", "/status/nodeInfo/kernelVersion"),
            text_column!(wide "CONTAINER-RUNTIME", "/status/nodeInfo/containerRuntimeVersion"),
        ],
    },
    Printer {
        kind: "Namespace",
        columns: &[NAME, PHASE, AGE],
    },
    Printer {
        kind: "Event",
        columns: &[
            col("LAST SEEN", |o| {
                let e = event(o);
                match (e.last, now_of(o.snap, o.v)) {
                    (Some(t), Some(now)) => human_duration(now - t),
                    _ => "<unknown>".into(),
                }
            }),
            col("TYPE", |o| event(o).type_),
            col("REASON", |o| event(o).reason),
            col("OBJECT", |o| {
                let e = event(o);
                let kind = e.regarding.kind.to_ascii_lowercase();
                format!("{kind}/{}", e.regarding.name)
            }),
            col("MESSAGE", |o| event(o).message.replace('\n', " ")),
        ],
    },
    Printer {
        kind: "PersistentVolumeClaim",
        columns: &[
            NAME,
            PHASE,
            text_column!("VOLUME", "/spec/volumeName"),
            text_column!("CAPACITY", "/status/capacity/storage"),
            col("ACCESS MODES", |o| {
                let modes = o.v.pointer("/status/accessModes");
                access_modes(modes.or_else(|| o.v.pointer("/spec/accessModes")))
            }),
            text_or_none!("STORAGECLASS", "/spec/storageClassName"),
            AGE,
        ],
    },
    Printer {
        kind: "PersistentVolume",
        columns: &[
            NAME,
            text_column!("CAPACITY", "/spec/capacity/storage"),
            col("ACCESS MODES", |o| {
                access_modes(o.v.pointer("/spec/accessModes"))
            }),
            text_column!("RECLAIM POLICY", "/spec/persistentVolumeReclaimPolicy"),
            PHASE,
            col("CLAIM", |o| {
                let claim = |f: &str| str_at(o.v, f);
                match (
                    claim("/spec/claimRef/namespace"),
                    claim("/spec/claimRef/name"),
                ) {
                    (_, "") => String::new(),
                    (ns, c) => format!("{ns}/{c}"),
                }
            }),
            text_column!("STORAGECLASS", "/spec/storageClassName"),
            AGE,
        ],
    },
    Printer {
        kind: "StorageClass",
        columns: &[
            col("NAME", |o| {
                let default = "/metadata/annotations/storageclass.kubernetes.io~1is-default-class";
                match str_at(o.v, default) {
                    "true" => format!("{} (default)", o.name),
                    _ => o.name.to_string(),
                }
            }),
            text_column!("PROVISIONER", "/provisioner"),
            col("RECLAIMPOLICY", |o| str_or(o.v, "reclaimPolicy", "Delete")),
            col("VOLUMEBINDINGMODE", |o| {
                str_or(o.v, "volumeBindingMode", "Immediate")
            }),
            col("ALLOWVOLUMEEXPANSION", |o| {
                let allow = o.v.get("allowVolumeExpansion").and_then(Value::as_bool);
                allow.unwrap_or(false).to_string()
            }),
            AGE,
        ],
    },
    Printer {
        kind: "ConfigMap",
        columns: &[
            NAME,
            col("DATA", |o| {
                let keys = |f: &str| o.v.get(f).and_then(Value::as_object).map_or(0, |m| m.len());
                (keys("data") + keys("binaryData")).to_string()
            }),
            AGE,
        ],
    },
    Printer {
        kind: "Secret",
        columns: &[
            NAME,
            text_column!("TYPE", "/type"),
            col("DATA", |_| "<scrubbed>".into()),
            AGE,
        ],
    },
    Printer {
        kind: "ServiceAccount",
        columns: &[
            NAME,
            col("SECRETS", |o| {
                let secrets = o.v.get("secrets").and_then(Value::as_array);
                secrets.map(Vec::len).unwrap_or(0).to_string()
            }),
            AGE,
        ],
    },
    Printer {
        kind: "Workload",
        columns: &[
            NAME,
            text_column!("QUEUE", "/spec/queueName"),
            text_column!("RESERVED IN", "/status/admission/clusterQueue"),
            col("ADMITTED", |o| condition_status(o.v, "Admitted")),
            col("FINISHED", |o| condition_status(o.v, "Finished")),
            AGE,
        ],
    },
    Printer {
        kind: "ClusterQueue",
        columns: &[
            NAME,
            col("COHORT", |o| {
                let cohort = o.v.pointer("/spec/cohort");
                let cohort = cohort.or_else(|| o.v.pointer("/spec/cohortName"));
                cohort.and_then(Value::as_str).unwrap_or("").into()
            }),
            col("STRATEGY", |o| {
                let strategy = o.v.pointer("/spec/queueingStrategy");
                strategy
                    .and_then(Value::as_str)
                    .unwrap_or("BestEffortFIFO")
                    .into()
            }),
            PENDING_WORKLOADS,
            ADMITTED_WORKLOADS,
        ],
    },
    Printer {
        kind: "LocalQueue",
        columns: &[
            NAME,
            text_column!("CLUSTERQUEUE", "/spec/clusterQueue"),
            PENDING_WORKLOADS,
            ADMITTED_WORKLOADS,
        ],
    },
];

/// `DESIRED`, `CURRENT` and `READY` of a ReplicaSet or ReplicationController.
const DESIRED_REPLICAS: Column = col("DESIRED", |o| spec_replicas(o.v).to_string());
const CURRENT_REPLICAS: Column = int_column!("CURRENT", "/status/replicas");
const READY_OF_REPLICAS: Column = int_column!("READY", "/status/readyReplicas");

/// The columns of `kind` (one kdiag knows; `""` for any other): its own, else NAME and AGE.
pub(super) fn columns_of(kind: &str) -> &'static [Column] {
    PRINTERS
        .iter()
        .find(|p| p.kind == kind)
        .map_or(DEFAULT, |p| p.columns)
}

/// The header and row of one object of `kind` (see [`columns_of`]), `-o wide`'s columns
/// when `wide`.
pub(super) fn columns(
    snap: &Snapshot,
    kind: &str,
    name: &str,
    v: &Value,
    wide: bool,
) -> (Vec<&'static str>, Vec<String>) {
    let item = Item { snap, name, v };
    columns_of(kind)
        .iter()
        .filter(|c| wide || !c.wide)
        .map(|c| (c.name, (c.cell)(&item)))
        .unzip()
}

/// `spec.replicas`, 1 when unset.
fn spec_replicas(v: &Value) -> i64 {
    v.pointer("/spec/replicas")
        .and_then(Value::as_i64)
        .unwrap_or(1)
}

/// A string field, or kubectl's default for it.
fn str_or(v: &Value, field: &str, default: &str) -> String {
    v.get(field)
        .and_then(Value::as_str)
        .unwrap_or(default)
        .into()
}

fn conditions(v: &Value) -> Vec<Value> {
    each(v, "/status/conditions", Value::clone)
}

/// The status of the condition of type `t`, empty without one.
fn condition_status(v: &Value, t: &str) -> String {
    conditions(v)
        .iter()
        .find(|c| str_at(c, "/type") == t)
        .map(|c| str_at(c, "/status").to_string())
        .unwrap_or_default()
}

fn container_statuses(v: &Value) -> Vec<Value> {
    each(v, "/status/containerStatuses", Value::clone)
}

/// The cell of `column` of an object read from kubectl's table text (see
/// `kube::table`): what the table showed, where the object lacks the fields to recompute it.
fn table_cell(v: &Value, column: &str) -> Option<String> {
    let annotations = v.pointer("/metadata/annotations")?;
    let from_table = annotations.get(crate::kube::table::SOURCE_ANNOTATION)
        == Some(&Value::from(crate::kube::table::SOURCE_TABLE));
    from_table
        .then(|| {
            annotations
                .get(crate::kube::table::cell_key(column))?
                .as_str()
        })
        .flatten()
        .filter(|c| !c.is_empty())
        .map(str::to_string)
}

fn pod_ready(o: &Item) -> String {
    let statuses = container_statuses(o.v);
    let total =
        o.v.pointer("/spec/containers")
            .and_then(Value::as_array)
            .map(Vec::len)
            .unwrap_or(statuses.len());
    let ready = statuses
        .iter()
        .filter(|c| c.get("ready").and_then(Value::as_bool) == Some(true))
        .count();
    format!("{ready}/{total}")
}

/// Restarts of every container, with how long ago the last one ended.
fn pod_restarts(o: &Item) -> String {
    let statuses = container_statuses(o.v);
    let restarts: i64 = statuses.iter().map(|c| int_at(c, "/restartCount")).sum();
    let last_restart = statuses
        .iter()
        .filter_map(|c| {
            c.pointer("/lastState/terminated/finishedAt")
                .and_then(Value::as_str)
                .and_then(parse_timestamp)
        })
        .max();
    match (last_restart, now_of(o.snap, o.v)) {
        (Some(t), Some(now)) if restarts > 0 => {
            format!("{restarts} ({} ago)", human_duration(now - t))
        }
        _ => restarts.to_string(),
    }
}

/// Readiness gates whose condition is True, of all.
fn readiness_gates(o: &Item) -> String {
    let gates =
        o.v.pointer("/spec/readinessGates")
            .and_then(Value::as_array);
    let Some(gates) = gates else {
        return "<none>".into();
    };
    let conds = conditions(o.v);
    let ok = gates
        .iter()
        .filter(|gate| {
            let t = str_at(gate, "/conditionType");
            conds
                .iter()
                .any(|c| str_at(c, "/type") == t && str_at(c, "/status") == "True")
        })
        .count();
    format!("{ok}/{}", gates.len())
}

fn node_selector(o: &Item) -> String {
    o.v.pointer("/spec/template/spec/nodeSelector")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, x)| format!("{k}={}", x.as_str().unwrap_or("")))
                .collect::<Vec<_>>()
                .join(",")
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "<none>".into())
}

fn job_status(v: &Value) -> &'static str {
    let conds = conditions(v);
    let has = |t: &str| {
        conds
            .iter()
            .any(|c| str_at(c, "/type") == t && str_at(c, "/status") == "True")
    };
    if has("Complete") {
        "Complete"
    } else if has("Failed") {
        "Failed"
    } else if has("FailureTarget") {
        "FailureTarget"
    } else if has("Suspended") || v.pointer("/spec/suspend").and_then(Value::as_bool) == Some(true)
    {
        "Suspended"
    } else {
        "Running"
    }
}

/// From start to completion, or to the snapshot while running.
fn job_duration(o: &Item) -> String {
    match (
        parse_timestamp(str_at(o.v, "/status/startTime")),
        parse_timestamp(str_at(o.v, "/status/completionTime")),
        now_of(o.snap, o.v),
    ) {
        (Some(s), Some(e), _) => human_duration(e - s),
        (Some(s), None, Some(now)) => human_duration(now - s),
        _ => String::new(),
    }
}

fn service_type(v: &Value) -> &str {
    v.pointer("/spec/type")
        .and_then(Value::as_str)
        .unwrap_or("ClusterIP")
}

fn service_external(o: &Item) -> String {
    let v = o.v;
    match service_type(v) {
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
    }
}

fn service_ports(o: &Item) -> String {
    let ports =
        o.v.pointer("/spec/ports")
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
    none_if_empty(ports)
}

/// `f` of each element of the array at `pointer` (none when it is no array).
fn each<T>(v: &Value, pointer: &str, f: impl FnMut(&Value) -> T) -> Vec<T> {
    v.pointer(pointer)
        .and_then(Value::as_array)
        .map(|a| a.iter().map(f).collect())
        .unwrap_or_default()
}

/// Every ready address with every port of its subset.
fn endpoints_addresses(o: &Item) -> String {
    let mut addrs = Vec::new();
    for s in each(o.v, "/subsets", Value::clone) {
        let ports = each(&s, "/ports", |p| int_at(p, "/port"));
        for ip in each(&s, "/addresses", |a| str_at(a, "/ip").to_string()) {
            for p in &ports {
                addrs.push(format!("{ip}:{p}"));
            }
        }
    }
    none_if_empty(abbreviate(&addrs))
}

fn slice_addresses(o: &Item) -> String {
    let addrs: Vec<String> = each(o.v, "/endpoints", |e| {
        each(e, "/addresses", |a| a.as_str().map(str::to_string))
    })
    .into_iter()
    .flatten()
    .flatten()
    .collect();
    none_if_empty(abbreviate(&addrs))
}

fn ingress_hosts(o: &Item) -> String {
    let hosts = each(o.v, "/spec/rules", |r| {
        r.get("host")
            .and_then(Value::as_str)
            .unwrap_or("*")
            .to_string()
    });
    if hosts.is_empty() {
        "*".into()
    } else {
        hosts.join(",")
    }
}

fn node_status(o: &Item) -> String {
    let conds = conditions(o.v);
    let ready = conds
        .iter()
        .find(|c| str_at(c, "/type") == "Ready")
        .map(|c| str_at(c, "/status"));
    let mut status = match ready {
        Some("True") => "Ready".to_string(),
        Some(_) => "NotReady".into(),
        None => "Unknown".into(),
    };
    if o.v.pointer("/spec/unschedulable").and_then(Value::as_bool) == Some(true) {
        status.push_str(",SchedulingDisabled");
    }
    status
}

fn node_roles(o: &Item) -> String {
    let mut roles: Vec<String> =
        o.v.pointer("/metadata/labels")
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
    none_if_empty(roles.join(","))
}

/// The node's first address of type `t`.
fn node_address(v: &Value, t: &str) -> String {
    v.pointer("/status/addresses")
        .and_then(Value::as_array)
        .and_then(|a| a.iter().find(|x| str_at(x, "/type") == t))
        .map(|x| str_at(x, "/address").to_string())
        .unwrap_or_else(|| "<none>".into())
}

fn event(o: &Item) -> crate::kube::event::Event {
    crate::kube::event::Event::from_value(o.v).unwrap_or_default()
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

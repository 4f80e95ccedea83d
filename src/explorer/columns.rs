//! The kubectl-style table columns of each kind (`kdiag get` and `-o wide`): the header
//! and the row of one object, and the cell formats they share.

use super::age::{age, created_age, human_duration};
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

pub(super) fn columns(
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
        "ReplicaSet" | "ReplicationController" => (
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
            let e = crate::kube::event::Event::from_value(v).unwrap_or_default();
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

//! The Node part of `kdiag describe`, as kubectl's `describeNode` prints it: roles,
//! taints, lease, conditions, addresses, capacity, system info, and the sections kubectl
//! computes from the node's pods (here the bundle's pods bound to it): Non-terminated
//! Pods and Allocated resources.

use super::age::created_age;
use super::describe_writer::{Tabbed, annotations, labels, plain, rfc1123z};
use super::fields::str_at;
use crate::kube::quantity::Quantity;
use crate::kube::requests::{effective_limits, effective_requests};
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::collections::BTreeMap;

pub(super) fn describe_node(snap: &Snapshot, v: &Value, w: &mut Tabbed) {
    let name = str_at(v, "/metadata/name");
    w.line(0, &format!("Name:\t{name}"));
    let roles = roles(v);
    let roles = if roles.is_empty() {
        "<none>".to_string()
    } else {
        roles.join(",")
    };
    w.line(0, &format!("Roles:\t{roles}"));
    labels(w, "", "Labels", v.pointer("/metadata/labels"));
    annotations(w, "", "Annotations", v.pointer("/metadata/annotations"));
    let created = rfc1123z(str_at(v, "/metadata/creationTimestamp"));
    w.line(0, &format!("CreationTimestamp:\t{created}"));
    taints(v, w);
    let unschedulable = v.pointer("/spec/unschedulable").and_then(Value::as_bool) == Some(true);
    w.line(0, &format!("Unschedulable:\t{unschedulable}"));
    if let Some(id) = snap.find("Lease", Some("kube-node-lease"), name) {
        let lease = snap.object(id).value();
        w.line(0, "Lease:");
        for (key, title, time) in [
            ("holderIdentity", "HolderIdentity", false),
            ("acquireTime", "AcquireTime", true),
            ("renewTime", "RenewTime", true),
        ] {
            let value = match str_at(lease, &format!("/spec/{key}")) {
                "" => "<unset>".to_string(),
                t if time => rfc1123z(t),
                other => other.to_string(),
            };
            w.line(1, &format!("{title}:\t{value}"));
        }
    }
    if let Some(conds) = v
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .filter(|c| !c.is_empty())
    {
        w.line(0, "Conditions:");
        w.line(
            1,
            "Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage",
        );
        w.line(
            1,
            "----\t------\t-----------------\t------------------\t------\t-------",
        );
        for c in conds {
            let at = |k: &str| rfc1123z(str_at(c, k));
            w.line(
                1,
                &format!(
                    "{} \t{} \t{} \t{} \t{} \t{}",
                    str_at(c, "/type"),
                    str_at(c, "/status"),
                    at("/lastHeartbeatTime"),
                    at("/lastTransitionTime"),
                    str_at(c, "/reason"),
                    str_at(c, "/message")
                ),
            );
        }
    }
    w.line(0, "Addresses:");
    for a in v
        .pointer("/status/addresses")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        w.line(
            1,
            &format!("{}:\t{}", str_at(a, "/type"), str_at(a, "/address")),
        );
    }
    for (key, title) in [("capacity", "Capacity"), ("allocatable", "Allocatable")] {
        let Some(m) = v
            .pointer(&format!("/status/{key}"))
            .and_then(Value::as_object)
            .filter(|m| !m.is_empty())
        else {
            continue;
        };
        w.line(0, &format!("{title}:"));
        let mut names: Vec<&String> = m.keys().collect();
        names.sort();
        for n in names {
            w.line(1, &format!("{n}:\t{}", plain(&m[n])));
        }
    }
    w.line(0, "System Info:");
    for (key, title) in [
        ("machineID", "Machine ID"),
        ("systemUUID", "System UUID"),
        ("bootID", "Boot ID"),
        ("kernelVersion", "Kernel Version"),
        ("osImage", "OS Image"),
        ("operatingSystem", "Operating System"),
        ("architecture", "Architecture"),
        ("containerRuntimeVersion", "Container Runtime Version"),
        ("kubeletVersion", "Kubelet Version"),
    ] {
        let value = str_at(v, &format!("/status/nodeInfo/{key}"));
        w.line(1, &format!("{title}:\t{value}"));
    }
    let cidr = str_at(v, "/spec/podCIDR");
    if !cidr.is_empty() {
        w.line(0, &format!("PodCIDR:\t{cidr}"));
    }
    let cidrs: Vec<String> = v
        .pointer("/spec/podCIDRs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(plain)
        .collect();
    if !cidrs.is_empty() {
        w.line(0, &format!("PodCIDRs:\t{}", cidrs.join(",")));
    }
    let provider = str_at(v, "/spec/providerID");
    if !provider.is_empty() {
        w.line(0, &format!("ProviderID:\t{provider}"));
    }
    node_resources(snap, v, name, w);
}

/// `node-role.kubernetes.io/ROLE` labels and `kubernetes.io/role`, sorted.
fn roles(v: &Value) -> Vec<String> {
    let mut roles: Vec<String> = v
        .pointer("/metadata/labels")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, x)| match k.strip_prefix("node-role.kubernetes.io/") {
            Some(role) if !role.is_empty() => Some(role.to_string()),
            Some(_) => None,
            None if k == "kubernetes.io/role" => {
                x.as_str().filter(|s| !s.is_empty()).map(str::to_string)
            }
            None => None,
        })
        .collect();
    roles.sort();
    roles.dedup();
    roles
}

/// `Taints:` sorted by effect then key, `key=value:Effect`.
fn taints(v: &Value, w: &mut Tabbed) {
    w.write(0, "Taints:\t");
    let mut taints: Vec<&Value> = v
        .pointer("/spec/taints")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    if taints.is_empty() {
        w.line(0, "<none>");
        return;
    }
    taints.sort_by_key(|t| format!("{},{}", str_at(t, "/effect"), str_at(t, "/key")));
    for (i, t) in taints.iter().enumerate() {
        if i > 0 {
            w.write(0, "\t");
        }
        let (key, value, effect) = (str_at(t, "/key"), str_at(t, "/value"), str_at(t, "/effect"));
        match value {
            "" => w.line(0, &format!("{key}:{effect}")),
            _ => w.line(0, &format!("{key}={value}:{effect}")),
        }
    }
}

/// kubectl's `describeNodeResource`: the pods bound to the node that have not ended,
/// each with its requests and limits and their share of the allocatable amounts, then
/// the totals.
fn node_resources(snap: &Snapshot, v: &Value, name: &str, w: &mut Tabbed) {
    let mut pods: Vec<ObjectId> = snap
        .pods_on_node(name)
        .iter()
        .copied()
        .filter(|&id| {
            let phase = snap.pod(id).map_or("", |p| p.phase());
            phase != "Succeeded" && phase != "Failed"
        })
        .collect();
    pods.sort_by(|&a, &b| {
        let (a, b) = (snap.object(a), snap.object(b));
        (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name))
    });
    pods.dedup();
    let allocatable = ["/status/allocatable", "/status/capacity"]
        .iter()
        .filter_map(|p| v.pointer(p).and_then(Value::as_object))
        .find(|m| !m.is_empty());
    let alloc = |r: &str| {
        allocatable
            .and_then(|m| m.get(r))
            .and_then(|q| Quantity::parse(&plain(q)).ok())
            .unwrap_or(Quantity::ZERO)
    };
    w.line(
        0,
        &format!("Non-terminated Pods:\t({} in total)", pods.len()),
    );
    w.line(
        1,
        "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge",
    );
    w.line(
        1,
        "---------\t----\t\t------------\t----------\t---------------\t-------------\t---",
    );
    let mut total_requests: BTreeMap<String, Quantity> = BTreeMap::new();
    let mut total_limits: BTreeMap<String, Quantity> = BTreeMap::new();
    for &id in &pods {
        let Some(pod) = snap.pod(id) else { continue };
        let requests = effective_requests(&pod.spec);
        let limits = effective_limits(&pod.spec);
        let cell = |m: &BTreeMap<String, Quantity>, r: &str| share(m, r, alloc(r), true);
        let o = snap.object(id);
        w.line(
            1,
            &format!(
                "{}\t{}\t\t{}\t{}\t{}\t{}\t{}",
                o.namespace.as_deref().unwrap_or(""),
                o.name,
                cell(&requests, "cpu"),
                cell(&limits, "cpu"),
                cell(&requests, "memory"),
                cell(&limits, "memory"),
                created_age(snap, o.value())
            ),
        );
        for (into, from) in [(&mut total_requests, requests), (&mut total_limits, limits)] {
            for (r, q) in from {
                let e = into.entry(r).or_default();
                *e = e.saturating_add(q);
            }
        }
    }
    w.line(0, "Allocated resources:");
    w.line(
        1,
        "(Total limits may be over 100 percent, i.e., overcommitted.)",
    );
    w.line(1, "Resource\tRequests\tLimits");
    w.line(1, "--------\t--------\t------");
    let mut rows: Vec<String> = ["cpu", "memory", "ephemeral-storage"]
        .into_iter()
        .map(String::from)
        .collect();
    let mut names: Vec<&String> = allocatable.map(|m| m.keys().collect()).unwrap_or_default();
    names.sort();
    let huge: Vec<String> = names
        .iter()
        .filter(|n| n.starts_with("hugepages-"))
        .map(|n| n.to_string())
        .collect();
    rows.extend(huge);
    for r in &rows {
        w.line(
            1,
            &format!(
                "{r}\t{}\t{}",
                share(&total_requests, r, alloc(r), true),
                share(&total_limits, r, alloc(r), true)
            ),
        );
    }
    // Extended resources (GPUs, …): amounts without a share.
    for r in names.iter().filter(|n| is_extended(n)) {
        w.line(
            1,
            &format!(
                "{r}\t{}\t{}",
                share(&total_requests, r, alloc(r), false),
                share(&total_limits, r, alloc(r), false)
            ),
        );
    }
}

/// A resource outside the standard names kubectl lists itself (`nvidia.com/gpu`).
fn is_extended(name: &str) -> bool {
    !matches!(
        name,
        "cpu" | "memory" | "ephemeral-storage" | "storage" | "pods"
    ) && !name.starts_with("hugepages-")
        && !name.starts_with("requests.")
        && !name.starts_with("limits.")
}

/// `250m (3%)`: the amount as a Quantity prints, and its share of `of` truncated as
/// kubectl's `int64(float64(a) / float64(b) * 100)` (millicores for cpu, units else).
fn share(m: &BTreeMap<String, Quantity>, r: &str, of: Quantity, percent: bool) -> String {
    let q = m.get(r).copied().unwrap_or(Quantity::ZERO);
    let text = if r == "cpu" {
        q.canonical_decimal()
    } else {
        q.canonical_binary()
    };
    if !percent {
        return text;
    }
    let (a, b) = if r == "cpu" {
        (q.milli_ceil(), of.milli_ceil())
    } else {
        (q.value_ceil(), of.value_ceil())
    };
    let pct = if b == 0 {
        0
    } else {
        (a as f64 / b as f64 * 100.0) as i64
    };
    format!("{text} ({pct}%)")
}

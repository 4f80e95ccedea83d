//! The Pod part of `kdiag describe`, in the order and words of kubectl's `describePod`:
//! node and start time, phase, IPs, containers, conditions, volumes, QoS class, node
//! selectors and tolerations.

use super::age::age;
use super::describe::controlled_by;
use super::describe_containers::{describe_containers, describe_volumes, resources};
use super::describe_writer::{Tabbed, annotations, labels, plain, rfc1123z};
use super::fields::str_at;
use crate::kube::quantity::Quantity;
use crate::snapshot::Snapshot;
use serde_json::Value;

pub(super) fn describe_pod(snap: &Snapshot, v: &Value, w: &mut Tabbed) {
    w.line(0, &format!("Name:\t{}", str_at(v, "/metadata/name")));
    w.line(
        0,
        &format!("Namespace:\t{}", str_at(v, "/metadata/namespace")),
    );
    if let Some(p) = v.pointer("/spec/priority").filter(|p| !p.is_null()) {
        w.line(0, &format!("Priority:\t{}", plain(p)));
    }
    for (path, title) in [
        ("/spec/priorityClassName", "Priority Class Name"),
        ("/spec/runtimeClassName", "Runtime Class Name"),
        ("/spec/serviceAccountName", "Service Account"),
    ] {
        let value = str_at(v, path);
        if !value.is_empty() {
            w.line(0, &format!("{title}:\t{value}"));
        }
    }
    match str_at(v, "/spec/nodeName") {
        "" => w.line(0, "Node:\t<none>"),
        node => w.line(0, &format!("Node:\t{node}/{}", str_at(v, "/status/hostIP"))),
    }
    let started = str_at(v, "/status/startTime");
    if !started.is_empty() {
        w.line(0, &format!("Start Time:\t{}", rfc1123z(started)));
    }
    labels(w, "", "Labels", v.pointer("/metadata/labels"));
    annotations(w, "", "Annotations", v.pointer("/metadata/annotations"));
    let phase = str_at(v, "/status/phase");
    let deleting = str_at(v, "/metadata/deletionTimestamp");
    if !deleting.is_empty() && phase != "Failed" && phase != "Succeeded" {
        w.line(
            0,
            &format!("Status:\tTerminating (lasts {})", age(snap, v, deleting)),
        );
        let grace = v
            .pointer("/metadata/deletionGracePeriodSeconds")
            .map(plain)
            .unwrap_or_default();
        w.line(0, &format!("Termination Grace Period:\t{grace}s"));
    } else {
        w.line(0, &format!("Status:\t{phase}"));
    }
    for (path, title) in [("/status/reason", "Reason"), ("/status/message", "Message")] {
        let value = str_at(v, path);
        if !value.is_empty() {
            w.line(0, &format!("{title}:\t{value}"));
        }
    }
    if let Some(p) = v.pointer("/spec/securityContext/seccompProfile") {
        w.line(0, &format!("SeccompProfile:\t{}", str_at(p, "/type")));
        if str_at(p, "/type") == "Localhost" {
            let profile = str_at(p, "/localhostProfile");
            w.line(0, &format!("LocalhostProfile:\t{profile}"));
        }
    }
    w.line(0, &format!("IP:\t{}", str_at(v, "/status/podIP")));
    match v.pointer("/status/podIPs").and_then(Value::as_array) {
        Some(ips) if !ips.is_empty() => {
            w.line(0, "IPs:");
            for ip in ips {
                w.line(1, &format!("IP:\t{}", str_at(ip, "/ip")));
            }
        }
        _ => w.line(0, "IPs:\t<none>"),
    }
    controlled_by(v, w);
    let nominated = str_at(v, "/status/nominatedNodeName");
    if !nominated.is_empty() {
        w.line(0, &format!("NominatedNodeName:\t{nominated}"));
    }
    if let Some(r) = v.pointer("/spec/resources") {
        w.line(0, "Resources:");
        resources(r, w, 1);
    }
    let spec = v.get("spec").unwrap_or(&Value::Null);
    let status = v.get("status").unwrap_or(&Value::Null);
    for (key, statuses, title) in [
        ("initContainers", "initContainerStatuses", "Init Containers"),
        ("containers", "containerStatuses", "Containers"),
        (
            "ephemeralContainers",
            "ephemeralContainerStatuses",
            "Ephemeral Containers",
        ),
    ] {
        let cs = spec.get(key).and_then(Value::as_array);
        if cs.is_some_and(|c| !c.is_empty()) || key == "containers" {
            let statuses = status.get(statuses).and_then(Value::as_array);
            describe_containers(
                v,
                title,
                cs,
                Some(statuses.map_or(&[][..], Vec::as_slice)),
                w,
                "",
            );
        }
    }
    readiness_gates(v, w);
    if let Some(conds) = v
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .filter(|c| !c.is_empty())
    {
        w.line(0, "Conditions:");
        w.line(1, "Type\tStatus");
        for c in conds {
            w.line(
                1,
                &format!("{} \t{} ", str_at(c, "/type"), str_at(c, "/status")),
            );
        }
    }
    describe_volumes(spec.get("volumes"), w, "");
    let qos = match str_at(v, "/status/qosClass") {
        "" => qos_class(spec),
        given => given.to_string(),
    };
    w.line(0, &format!("QoS Class:\t{qos}"));
    labels(w, "", "Node-Selectors", spec.get("nodeSelector"));
    tolerations(w, "", spec.get("tolerations"));
    topology_spread(w, "", spec.get("topologySpreadConstraints"));
}

fn readiness_gates(v: &Value, w: &mut Tabbed) {
    let Some(gates) = v
        .pointer("/spec/readinessGates")
        .and_then(Value::as_array)
        .filter(|g| !g.is_empty())
    else {
        return;
    };
    w.line(0, "Readiness Gates:");
    w.line(1, "Type\tStatus");
    let conds = v.pointer("/status/conditions").and_then(Value::as_array);
    for g in gates {
        let t = str_at(g, "/conditionType");
        let status = conds
            .and_then(|c| c.iter().find(|c| str_at(c, "/type") == t))
            .map_or("<none>", |c| str_at(c, "/status"));
        w.line(1, &format!("{t} \t{status} "));
    }
}

/// kubectl's `printTolerationsMultilineWithIndent`: sorted by key,
/// `key=value:Effect op=Exists for 300s`.
pub(super) fn tolerations(w: &mut Tabbed, indent: &str, v: Option<&Value>) {
    w.write(0, &format!("{indent}Tolerations:\t"));
    let mut tols: Vec<&Value> = v.and_then(Value::as_array).into_iter().flatten().collect();
    if tols.is_empty() {
        w.line(0, "<none>");
        return;
    }
    tols.sort_by_key(|t| str_at(t, "/key"));
    for (i, t) in tols.iter().enumerate() {
        if i > 0 {
            w.write(0, &format!("{indent}\t"));
        }
        let (key, value, effect) = (str_at(t, "/key"), str_at(t, "/value"), str_at(t, "/effect"));
        let mut text = key.to_string();
        if !value.is_empty() {
            text += &format!("={value}");
        }
        if !effect.is_empty() {
            text += &format!(":{effect}");
        }
        if str_at(t, "/operator") == "Exists" && value.is_empty() {
            text += if key.is_empty() && effect.is_empty() {
                "op=Exists"
            } else {
                " op=Exists"
            };
        }
        if let Some(s) = t.get("tolerationSeconds").filter(|s| !s.is_null()) {
            text += &format!(" for {}s", plain(s));
        }
        w.line(0, &text);
    }
}

/// kubectl's `describeTopologySpreadConstraints`, sorted by topology key; the label
/// selector as `k=v,k2=v2` (its `matchLabels`).
pub(super) fn topology_spread(w: &mut Tabbed, indent: &str, v: Option<&Value>) {
    let mut tscs: Vec<&Value> = v.and_then(Value::as_array).into_iter().flatten().collect();
    if tscs.is_empty() {
        return;
    }
    tscs.sort_by_key(|t| str_at(t, "/topologyKey"));
    w.write(0, &format!("{indent}Topology Spread Constraints:\t"));
    for (i, t) in tscs.iter().enumerate() {
        if i > 0 {
            w.write(0, &format!("{indent}\t"));
        }
        let mut text = format!(
            "{}:{} when max skew {} is exceeded",
            str_at(t, "/topologyKey"),
            str_at(t, "/whenUnsatisfiable"),
            t.get("maxSkew").map(plain).unwrap_or_default()
        );
        if let Some(sel) = t.get("labelSelector") {
            let pairs = super::describe_writer::sorted_pairs(sel.get("matchLabels"));
            let sel: Vec<String> = pairs.iter().map(|(k, x)| format!("{k}={x}")).collect();
            text += &format!(" for selector {}", sel.join(","));
        }
        w.line(0, &text);
    }
}

/// The QoS class the API server would set (`qos.ComputePodQOS`) for a pod whose status
/// does not say: BestEffort without any cpu or memory request or limit, Guaranteed when
/// every container limits both and requests what it limits, else Burstable. A pod with
/// pod-level resources (`spec.resources`) is classed by them alone, as upstream does.
fn qos_class(spec: &Value) -> String {
    // Each holder of a `resources` block: the pod itself when it has one, else every
    // container.
    let containers: Vec<&Value> = if spec.get("resources").is_some_and(Value::is_object) {
        vec![spec]
    } else {
        ["containers", "initContainers"]
            .iter()
            .filter_map(|k| spec.get(*k).and_then(Value::as_array))
            .flatten()
            .collect()
    };
    let amount = |c: &Value, which: &str, r: &str| {
        c.pointer(&format!("/resources/{which}/{r}"))
            .and_then(|q| Quantity::parse(&plain(q)).ok())
            .filter(|q| !q.is_zero())
    };
    let mut any = false;
    let mut guaranteed = true;
    for c in &containers {
        for r in ["cpu", "memory"] {
            let (req, lim) = (amount(c, "requests", r), amount(c, "limits", r));
            any |= req.is_some() || lim.is_some();
            guaranteed &= lim.is_some() && req.is_none_or(|q| Some(q) == lim);
        }
    }
    match (any, guaranteed) {
        (false, _) => "BestEffort",
        (true, true) => "Guaranteed",
        (true, false) => "Burstable",
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::qos_class;
    use serde_json::json;

    /// As `qos.ComputePodQOS`: pod-level resources, when the pod has them, class it alone
    /// (the Kubernetes website's example pods with pod-level resource managers); else
    /// every container counts, init containers too.
    #[test]
    fn pod_level_resources_class_the_pod_alone() {
        let guaranteed = json!({"resources": {"requests": {"cpu": "4", "memory": "4Gi"},
                "limits": {"cpu": "4", "memory": "4Gi"}},
            "initContainers": [{"name": "log", "restartPolicy": "Always"}],
            "containers": [{"name": "app", "resources": {"requests": {"cpu": "3"}}}]});
        assert_eq!(qos_class(&guaranteed), "Guaranteed");
        let requests_only = json!({"resources": {"requests": {"cpu": "4", "memory": "4Gi"}},
            "containers": [{"name": "app", "resources": {"requests": {"cpu": "1", "memory": "1Gi"},
                "limits": {"cpu": "1", "memory": "1Gi"}}}]});
        assert_eq!(qos_class(&requests_only), "Burstable");
        let containers = json!({"containers": [
            {"name": "a", "resources": {"limits": {"cpu": "1", "memory": "1Gi"}}},
            {"name": "b"}]});
        assert_eq!(qos_class(&containers), "Burstable");
        let limits_only = json!({"containers": [
            {"name": "a", "resources": {"limits": {"cpu": "1", "memory": "1Gi"}}}]});
        assert_eq!(qos_class(&limits_only), "Guaranteed");
        assert_eq!(
            qos_class(&json!({"containers": [{"name": "a"}]})),
            "BestEffort"
        );
    }
}

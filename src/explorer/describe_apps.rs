//! The Deployment and Service parts of `kdiag describe`, as kubectl's
//! `describeDeployment` and `describeService` print them: a Deployment's replicas,
//! strategy, pod template, conditions and ReplicaSets; a Service's ports and the
//! endpoints the bundle's EndpointSlices (or Endpoints) give each port.

use super::describe_containers::{describe_containers, describe_volumes};
use super::describe_pod::{tolerations, topology_spread};
use super::describe_writer::{Tabbed, annotations, labels, plain, rfc1123z, sorted_pairs};
use super::fields::str_at;
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;

/// The annotation that numbers a Deployment's rollouts, on it and on its ReplicaSets.
const REVISION: &str = "deployment.kubernetes.io/revision";

pub(super) fn describe_deployment(snap: &Snapshot, id: ObjectId, v: &Value, w: &mut Tabbed) {
    w.line(0, &format!("Name:\t{}", str_at(v, "/metadata/name")));
    w.line(
        0,
        &format!("Namespace:\t{}", str_at(v, "/metadata/namespace")),
    );
    let created = rfc1123z(str_at(v, "/metadata/creationTimestamp"));
    w.line(0, &format!("CreationTimestamp:\t{created}"));
    labels(w, "", "Labels", v.pointer("/metadata/labels"));
    annotations(w, "", "Annotations", v.pointer("/metadata/annotations"));
    let selector = selector_string(v.pointer("/spec/selector"));
    w.line(0, &format!("Selector:\t{selector}"));
    let count = |p: &str| v.pointer(p).map(plain).unwrap_or("0".into());
    let desired = v.pointer("/spec/replicas").map(plain).unwrap_or("1".into());
    w.line(
        0,
        &format!(
            "Replicas:\t{desired} desired | {} updated | {} total | {} available | {} unavailable",
            count("/status/updatedReplicas"),
            count("/status/replicas"),
            count("/status/availableReplicas"),
            count("/status/unavailableReplicas"),
        ),
    );
    w.line(
        0,
        &format!("StrategyType:\t{}", str_at(v, "/spec/strategy/type")),
    );
    w.line(
        0,
        &format!("MinReadySeconds:\t{}", count("/spec/minReadySeconds")),
    );
    if let Some(ru) = v
        .pointer("/spec/strategy/rollingUpdate")
        .filter(|r| r.is_object())
    {
        let of = |k: &str| ru.get(k).map(plain).unwrap_or_default();
        w.line(
            0,
            &format!(
                "RollingUpdateStrategy:\t{} max unavailable, {} max surge",
                of("maxUnavailable"),
                of("maxSurge")
            ),
        );
    }
    pod_template(v.pointer("/spec/template"), w);
    if let Some(conds) = v
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .filter(|c| !c.is_empty())
    {
        w.line(0, "Conditions:");
        w.line(1, "Type\tStatus\tReason");
        w.line(1, "----\t------\t------");
        for c in conds {
            w.line(
                1,
                &format!(
                    "{} \t{}\t{}",
                    str_at(c, "/type"),
                    str_at(c, "/status"),
                    str_at(c, "/reason")
                ),
            );
        }
    }
    let (old, new) = replica_sets(snap, id, v);
    if !old.is_empty() || !new.is_empty() {
        w.line(
            0,
            &format!("OldReplicaSets:\t{}", replica_set_list(snap, &old)),
        );
        w.line(
            0,
            &format!("NewReplicaSet:\t{}", replica_set_list(snap, &new)),
        );
    }
}

/// kubectl's `DescribePodTemplate`, two spaces in.
fn pod_template(t: Option<&Value>, w: &mut Tabbed) {
    w.line(0, "Pod Template:");
    let Some(t) = t else {
        w.write(1, "<unset>");
        return;
    };
    labels(w, "  ", "Labels", t.pointer("/metadata/labels"));
    if t.pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .is_some_and(|m| !m.is_empty())
    {
        annotations(w, "  ", "Annotations", t.pointer("/metadata/annotations"));
    }
    let spec = t.get("spec").unwrap_or(&Value::Null);
    let sa = str_at(spec, "/serviceAccountName");
    if !sa.is_empty() {
        w.line(1, &format!("Service Account:\t{sa}"));
    }
    let inits = spec.get("initContainers").and_then(Value::as_array);
    if inits.is_some_and(|i| !i.is_empty()) {
        describe_containers(&Value::Null, "Init Containers", inits, None, w, "  ");
    }
    let containers = spec.get("containers").and_then(Value::as_array);
    describe_containers(&Value::Null, "Containers", containers, None, w, "  ");
    describe_volumes(spec.get("volumes"), w, "  ");
    topology_spread(w, "  ", spec.get("topologySpreadConstraints"));
    let pc = str_at(spec, "/priorityClassName");
    if !pc.is_empty() {
        w.line(1, &format!("Priority Class Name:\t{pc}"));
    }
    labels(w, "  ", "Node-Selectors", spec.get("nodeSelector"));
    tolerations(w, "  ", spec.get("tolerations"));
}

/// The Deployment's ReplicaSets (those it controls), split as kubectl splits them into
/// old and new: the new one runs the Deployment's current revision; each sorted by name.
fn replica_sets(snap: &Snapshot, id: ObjectId, v: &Value) -> (Vec<ObjectId>, Vec<ObjectId>) {
    let Some(uid) = snap.object(id).uid.as_deref() else {
        return (Vec::new(), Vec::new());
    };
    let revision = str_at(v, &revision_pointer());
    let mut owned: Vec<ObjectId> = snap
        .children_of(uid)
        .iter()
        .copied()
        .filter(|&c| snap.object(c).kind == "ReplicaSet")
        .collect();
    owned.sort_by(|&a, &b| snap.object(a).name.cmp(&snap.object(b).name));
    owned.dedup();
    let is_new = |c: ObjectId| {
        let rs = snap.object(c).value();
        if !revision.is_empty() {
            return str_at(rs, &revision_pointer()) == revision;
        }
        // No revision to compare: the one whose template is the Deployment's, as the
        // controller finds it (its own `pod-template-hash` label aside).
        let mut template = rs.pointer("/spec/template").cloned().unwrap_or_default();
        if let Some(Value::Object(l)) = template.pointer_mut("/metadata/labels") {
            l.remove("pod-template-hash");
        }
        Some(&template) == v.pointer("/spec/template")
    };
    let (new, old): (Vec<ObjectId>, Vec<ObjectId>) = owned.into_iter().partition(|&c| is_new(c));
    (old, new)
}

/// The JSON pointer of [`REVISION`] in an object.
fn revision_pointer() -> String {
    format!("/metadata/annotations/{}", REVISION.replace('/', "~1"))
}

/// `name (2/2 replicas created), …`, or `<none>`.
fn replica_set_list(snap: &Snapshot, ids: &[ObjectId]) -> String {
    if ids.is_empty() {
        return "<none>".into();
    }
    ids.iter()
        .map(|&c| {
            let o = snap.object(c);
            let rv = o.value();
            format!(
                "{} ({}/{} replicas created)",
                o.name,
                rv.pointer("/status/replicas")
                    .map(plain)
                    .unwrap_or("0".into()),
                rv.pointer("/spec/replicas")
                    .map(plain)
                    .unwrap_or("1".into()),
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A label selector as apimachinery's `Selector.String()` writes it: requirements
/// sorted by key, `k=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`.
fn selector_string(sel: Option<&Value>) -> String {
    let Some(sel) = sel else {
        return String::new();
    };
    let mut reqs: Vec<(String, String)> = sorted_pairs(sel.get("matchLabels"))
        .into_iter()
        .map(|(k, x)| (k.clone(), format!("{k}={x}")))
        .collect();
    for e in sel
        .get("matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let key = str_at(e, "/key");
        let mut values: Vec<String> = e
            .get("values")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(plain)
            .collect();
        values.sort();
        let text = match str_at(e, "/operator") {
            "In" => format!("{key} in ({})", values.join(",")),
            "NotIn" => format!("{key} notin ({})", values.join(",")),
            "Exists" => key.to_string(),
            "DoesNotExist" => format!("!{key}"),
            other => format!("{key} {other}"),
        };
        reqs.push((key.to_string(), text));
    }
    reqs.sort_by(|a, b| a.0.cmp(&b.0));
    reqs.into_iter()
        .map(|(_, t)| t)
        .collect::<Vec<_>>()
        .join(",")
}

pub(super) fn describe_service(snap: &Snapshot, v: &Value, w: &mut Tabbed) {
    let name = str_at(v, "/metadata/name");
    let namespace = str_at(v, "/metadata/namespace");
    w.line(0, &format!("Name:\t{name}"));
    w.line(0, &format!("Namespace:\t{namespace}"));
    labels(w, "", "Labels", v.pointer("/metadata/labels"));
    annotations(w, "", "Annotations", v.pointer("/metadata/annotations"));
    let selector: Vec<String> = sorted_pairs(v.pointer("/spec/selector"))
        .into_iter()
        .map(|(k, x)| format!("{k}={x}"))
        .collect();
    let selector = if selector.is_empty() {
        "<none>".to_string()
    } else {
        selector.join(",")
    };
    w.line(0, &format!("Selector:\t{selector}"));
    w.line(0, &format!("Type:\t{}", str_at(v, "/spec/type")));
    let policy = str_at(v, "/spec/ipFamilyPolicy");
    if !policy.is_empty() {
        w.line(0, &format!("IP Family Policy:\t{policy}"));
    }
    let joined = |p: &str| {
        let items: Vec<String> = v
            .pointer(p)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(plain)
            .collect();
        (!items.is_empty()).then(|| items.join(","))
    };
    let none = || "<none>".to_string();
    w.line(
        0,
        &format!(
            "IP Families:\t{}",
            joined("/spec/ipFamilies").unwrap_or_else(none)
        ),
    );
    w.line(0, &format!("IP:\t{}", str_at(v, "/spec/clusterIP")));
    w.line(
        0,
        &format!("IPs:\t{}", joined("/spec/clusterIPs").unwrap_or_else(none)),
    );
    if let Some(ips) = joined("/spec/externalIPs") {
        w.line(0, &format!("External IPs:\t{ips}"));
    }
    for (path, title) in [
        ("/spec/loadBalancerIP", "Desired LoadBalancer IP"),
        ("/spec/externalName", "External Name"),
    ] {
        let value = str_at(v, path);
        if !value.is_empty() {
            w.line(0, &format!("{title}:\t{value}"));
        }
    }
    let ingress: Vec<&str> = v
        .pointer("/status/loadBalancer/ingress")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|i| match str_at(i, "/ip") {
            "" => str_at(i, "/hostname"),
            ip => ip,
        })
        .collect();
    if !ingress.is_empty() {
        w.line(0, &format!("LoadBalancer Ingress:\t{}", ingress.join(", ")));
    }
    let endpoints = service_endpoints(snap, namespace, name);
    for sp in v
        .pointer("/spec/ports")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let port_name = str_at(sp, "/name");
        let shown = if port_name.is_empty() {
            "<unset>"
        } else {
            port_name
        };
        let protocol = sp.get("protocol").map(plain).unwrap_or("TCP".into());
        let port = sp.get("port").map(plain).unwrap_or_default();
        w.line(0, &format!("Port:\t{shown}\t{port}/{protocol}"));
        let target = sp.get("targetPort").map(plain).unwrap_or(port.clone());
        w.line(0, &format!("TargetPort:\t{target}/{protocol}"));
        let app = str_at(sp, "/appProtocol");
        if !app.is_empty() {
            w.line(0, &format!("AppProtocol:\t{app}"));
        }
        if let Some(np) = sp
            .get("nodePort")
            .filter(|n| n.as_i64() != Some(0) && !n.is_null())
        {
            w.line(0, &format!("NodePort:\t{shown}\t{}/{protocol}", plain(np)));
        }
        w.line(0, &format!("Endpoints:\t{}", endpoints.format(port_name)));
    }
    w.line(
        0,
        &format!("Session Affinity:\t{}", str_at(v, "/spec/sessionAffinity")),
    );
    for (path, title) in [
        ("/spec/externalTrafficPolicy", "External Traffic Policy"),
        ("/spec/internalTrafficPolicy", "Internal Traffic Policy"),
        ("/spec/healthCheckNodePort", "HealthCheck NodePort"),
        ("/spec/trafficDistribution", "Traffic Distribution"),
    ] {
        let value = v.pointer(path).map(plain).unwrap_or_default();
        if !value.is_empty() && value != "0" {
            w.line(0, &format!("{title}:\t{value}"));
        }
    }
    if let Some(ranges) = joined("/spec/loadBalancerSourceRanges") {
        w.line(0, &format!("LoadBalancer Source Ranges:\t{ranges}"));
    }
}

/// Where a Service's endpoints come from in the bundle.
enum Endpoints {
    /// The EndpointSlices labelled with the Service's name (what kubectl reads).
    Slices(Vec<Value>),
    /// No EndpointSlice in the bundle: the Service's Endpoints object, as older kubectl.
    Legacy(Option<Value>),
    /// The bundle holds neither kind: nothing can be said.
    Unknown,
}

fn service_endpoints(snap: &Snapshot, namespace: &str, name: &str) -> Endpoints {
    if snap.has_kind("EndpointSlice") {
        let slices = snap
            .ids_of("EndpointSlice")
            .iter()
            .map(|&id| snap.object(id))
            .filter(|o| o.namespace.as_deref() == Some(namespace))
            .map(|o| o.value())
            .filter(|s| str_at(s, "/metadata/labels/kubernetes.io~1service-name") == name)
            .cloned()
            .collect();
        return Endpoints::Slices(slices);
    }
    if snap.has_kind("Endpoints") {
        let ep = snap
            .find("Endpoints", Some(namespace), name)
            .map(|id| snap.object(id).value().clone());
        return Endpoints::Legacy(ep);
    }
    Endpoints::Unknown
}

impl Endpoints {
    /// kubectl's `formatEndpointSlices` for one port name: the first three ready
    /// `address:port`, then `+ N more...`.
    fn format(&self, port_name: &str) -> String {
        // (address, port) of each endpoint, ready or not, in kubectl's order.
        let mut all: Vec<(String, Option<String>, bool)> = Vec::new();
        match self {
            Endpoints::Unknown => {
                return "<unknown: the bundle holds no EndpointSlices or Endpoints>".into();
            }
            Endpoints::Slices(slices) if slices.is_empty() => return "<none>".into(),
            Endpoints::Legacy(None) => return "<none>".into(),
            Endpoints::Slices(slices) => {
                for s in slices {
                    let eps = s.get("endpoints").and_then(Value::as_array);
                    let eps: Vec<&Value> = eps.into_iter().flatten().collect();
                    let address =
                        |e: &Value| e.pointer("/addresses/0").map(plain).unwrap_or_default();
                    let ready = |e: &Value| {
                        e.pointer("/conditions/ready").and_then(Value::as_bool) != Some(false)
                    };
                    let ports = s
                        .get("ports")
                        .and_then(Value::as_array)
                        .filter(|p| !p.is_empty());
                    match ports {
                        None => all.extend(eps.iter().map(|e| (address(e), None, ready(e)))),
                        Some(ports) => {
                            for p in ports.iter().filter(|p| str_at(p, "/name") == port_name) {
                                let number = p.get("port").map(plain).unwrap_or_default();
                                all.extend(
                                    eps.iter()
                                        .map(|e| (address(e), Some(number.clone()), ready(e))),
                                );
                            }
                        }
                    }
                }
            }
            Endpoints::Legacy(Some(ep)) => {
                for subset in ep
                    .get("subsets")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let addrs = subset.get("addresses").and_then(Value::as_array);
                    let addrs: Vec<String> = addrs
                        .into_iter()
                        .flatten()
                        .map(|a| str_at(a, "/ip").to_string())
                        .collect();
                    let ports = subset.get("ports").and_then(Value::as_array);
                    for p in ports
                        .into_iter()
                        .flatten()
                        .filter(|p| str_at(p, "/name") == port_name)
                    {
                        let number = p.get("port").map(plain).unwrap_or_default();
                        all.extend(
                            addrs
                                .iter()
                                .map(|a| (a.clone(), Some(number.clone()), true)),
                        );
                    }
                }
            }
        }
        // As kubectl counts: "more" is decided before an endpoint is found not ready.
        const MAX: usize = 3;
        let (mut list, mut more, mut count) = (Vec::new(), false, 0usize);
        for (address, port, ready) in all {
            if list.len() == MAX {
                more = true;
            }
            if !ready {
                continue;
            }
            if !more {
                list.push(match port {
                    Some(p) if address.contains(':') => format!("[{address}]:{p}"),
                    Some(p) => format!("{address}:{p}"),
                    None => address,
                });
            }
            count += 1;
        }
        let text = list.join(",");
        if more {
            format!("{text} + {} more...", count.saturating_sub(MAX))
        } else {
            text
        }
    }
}

//! An object's references, each a link: owners and what it owns (both ways), a pod's
//! node and a node's pods, Service ↔ EndpointSlice ↔ Pod, Ingress → Service, PVC ↔ PV and
//! the pods that mount a claim.

use super::{Links, named};
use crate::report::html::esc;
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// One row of the references: what the link is, and the links.
struct Row {
    label: &'static str,
    items: Vec<String>,
}

pub fn section(snap: &Snapshot, links: &Links, id: ObjectId, h: &mut String) {
    let rows = rows(snap, links, id);
    if rows.iter().all(|r| r.items.is_empty()) {
        return;
    }
    h.push_str("<section id=\"references\"><h2>References</h2>\n<dl class=\"refs\">\n");
    for r in rows.iter().filter(|r| !r.items.is_empty()) {
        let _ = writeln!(
            h,
            "<dt>{}</dt><dd><ul class=\"links\">{}</ul></dd>",
            r.label,
            r.items
                .iter()
                .map(|i| format!("<li>{i}</li>"))
                .collect::<String>()
        );
    }
    h.push_str("</dl></section>\n");
}

fn ids(links: &Links, ids: impl IntoIterator<Item = ObjectId>) -> Vec<String> {
    let set: BTreeSet<ObjectId> = ids.into_iter().collect();
    set.into_iter().map(|id| links.a(id)).collect()
}

fn s<'a>(v: &'a Value, p: &str) -> Option<&'a str> {
    v.pointer(p).and_then(Value::as_str)
}

fn rows(snap: &Snapshot, links: &Links, id: ObjectId) -> Vec<Row> {
    let o = snap.object(id);
    let v = o.value();
    let ns = o.namespace.as_deref();
    let mut out = Vec::new();
    // Owners, found by uid (names are reused), else by name.
    let owners: Vec<String> = o
        .owners()
        .iter()
        .map(|w| {
            let found = snap
                .by_uid(&w.uid)
                .or_else(|| snap.find_ref(&w.api_version, &w.kind, ns, &w.name));
            match found {
                Some(oid) => links.a(oid),
                None => format!(
                    "{} {}/{} <span class=\"muted\">(not in the bundle)</span>",
                    esc(&w.kind),
                    esc(ns.unwrap_or("")),
                    esc(&w.name)
                ),
            }
        })
        .collect();
    out.push(Row {
        label: "Owned by",
        items: owners,
    });
    let owned = o
        .uid
        .as_deref()
        .map(|u| snap.children_of(u).to_vec())
        .unwrap_or_default();
    out.push(Row {
        label: "Owns",
        items: ids(links, owned),
    });
    match (o.group(), o.kind.as_str()) {
        ("", "Pod") => pod_rows(snap, links, id, v, &mut out),
        ("", "Node") => out.push(Row {
            label: "Pods on this node",
            items: ids(links, snap.pods_on_node(&o.name).iter().copied()),
        }),
        ("", "Service") => {
            out.push(Row {
                label: "EndpointSlices",
                items: ids(links, slices_of(snap, ns, &o.name)),
            });
            out.push(Row {
                label: "Pods selected",
                items: ids(links, selected_pods(snap, ns, v)),
            });
            out.push(Row {
                label: "Ingresses routing here",
                items: ids(
                    links,
                    of_kind(snap, "networking.k8s.io", "Ingress", ns).filter(|&i| {
                        ingress_services(&snap.object(i).value_unkept()).contains(&o.name)
                    }),
                ),
            });
        }
        ("discovery.k8s.io", "EndpointSlice") => {
            let svc = s(v, "/metadata/labels/kubernetes.io~1service-name");
            out.push(Row {
                label: "Service",
                items: svc
                    .map(|n| vec![links.a_ref(&named("Service", ns, n))])
                    .unwrap_or_default(),
            });
            out.push(Row {
                label: "Endpoint pods",
                items: target_pods(snap, links, v, "/endpoints"),
            });
        }
        ("", "Endpoints") => out.push(Row {
            label: "Endpoint pods",
            items: target_pods(snap, links, v, "/subsets"),
        }),
        ("networking.k8s.io", "Ingress") => out.push(Row {
            label: "Services",
            items: ingress_services(v)
                .iter()
                .map(|n| links.a_ref(&named("Service", ns, n)))
                .collect(),
        }),
        ("", "PersistentVolumeClaim") => {
            out.push(Row {
                label: "PersistentVolume",
                items: s(v, "/spec/volumeName")
                    .map(|n| vec![links.a_ref(&named("PersistentVolume", None, n))])
                    .unwrap_or_default(),
            });
            out.push(Row {
                label: "Pods mounting it",
                items: ids(
                    links,
                    of_kind(snap, "", "Pod", ns)
                        .filter(|&p| claims(&snap.object(p).value_unkept()).contains(&o.name)),
                ),
            });
        }
        ("", "PersistentVolume") => out.push(Row {
            label: "Claim",
            items: s(v, "/spec/claimRef/name")
                .map(|n| {
                    vec![links.a_ref(&named(
                        "PersistentVolumeClaim",
                        s(v, "/spec/claimRef/namespace"),
                        n,
                    ))]
                })
                .unwrap_or_default(),
        }),
        _ => {}
    }
    out
}

fn pod_rows(snap: &Snapshot, links: &Links, id: ObjectId, v: &Value, out: &mut Vec<Row>) {
    let o = snap.object(id);
    let ns = o.namespace.as_deref();
    out.push(Row {
        label: "Node",
        items: s(v, "/spec/nodeName")
            .map(|n| vec![links.a_ref(&named("Node", None, n))])
            .unwrap_or_default(),
    });
    out.push(Row {
        label: "Claims",
        items: claims(v)
            .iter()
            .map(|c| links.a_ref(&named("PersistentVolumeClaim", ns, c)))
            .collect(),
    });
    let labels = v.pointer("/metadata/labels").and_then(Value::as_object);
    let services = of_kind(snap, "", "Service", ns).filter(|&sid| {
        let sel = snap
            .object(sid)
            .value()
            .pointer("/spec/selector")
            .and_then(Value::as_object);
        match (sel, labels) {
            (Some(sel), Some(labels)) if !sel.is_empty() => {
                sel.iter().all(|(k, want)| labels.get(k) == Some(want))
            }
            _ => false,
        }
    });
    out.push(Row {
        label: "Services selecting it",
        items: ids(links, services),
    });
    let slices = of_kind(snap, "discovery.k8s.io", "EndpointSlice", ns).filter(|&e| {
        snap.object(e)
            .value()
            .get("endpoints")
            .and_then(Value::as_array)
            .is_some_and(|eps| {
                eps.iter().any(|ep| {
                    s(ep, "/targetRef/kind") == Some("Pod")
                        && s(ep, "/targetRef/name") == Some(&o.name)
                })
            })
    });
    out.push(Row {
        label: "EndpointSlices listing it",
        items: ids(links, slices),
    });
}

/// Objects of a kind, in a namespace. Callers read each one's tree without keeping it
/// (`value_unkept`): a page about one claim would otherwise keep every pod's tree of the
/// namespace for as long as the server runs.
fn of_kind<'s>(
    snap: &'s Snapshot,
    group: &str,
    kind: &str,
    ns: Option<&'s str>,
) -> impl Iterator<Item = ObjectId> + 's {
    snap.ids_of_group(group, kind)
        .iter()
        .copied()
        .filter(move |&i| snap.object(i).namespace.as_deref() == ns)
}

fn slices_of(snap: &Snapshot, ns: Option<&str>, service: &str) -> Vec<ObjectId> {
    of_kind(snap, "discovery.k8s.io", "EndpointSlice", ns)
        .filter(|&e| {
            s(
                &snap.object(e).value_unkept(),
                "/metadata/labels/kubernetes.io~1service-name",
            ) == Some(service)
        })
        .collect()
}

fn selected_pods(snap: &Snapshot, ns: Option<&str>, svc: &Value) -> Vec<ObjectId> {
    let Some(sel) = svc
        .pointer("/spec/selector")
        .and_then(Value::as_object)
        .filter(|s| !s.is_empty())
    else {
        return Vec::new();
    };
    snap.pods_in_namespace(ns)
        .iter()
        .filter(|(_, p)| {
            sel.iter()
                .all(|(k, want)| p.metadata.labels.get(k).map(|v| v.as_str()) == want.as_str())
        })
        .map(|(id, _)| *id)
        .collect()
}

/// Pods named by `targetRef`s under `at` (an EndpointSlice's endpoints, an Endpoints'
/// subsets' addresses).
fn target_pods(snap: &Snapshot, links: &Links, v: &Value, at: &str) -> Vec<String> {
    let mut refs: BTreeSet<(String, String)> = BTreeSet::new();
    let mut add = |t: &Value| {
        if s(t, "/kind") == Some("Pod")
            && let Some(n) = s(t, "/name")
        {
            let ns = s(t, "/namespace")
                .or_else(|| s(v, "/metadata/namespace"))
                .unwrap_or("");
            refs.insert((ns.to_string(), n.to_string()));
        }
    };
    for item in v
        .pointer(at)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(t) = item.get("targetRef") {
            add(t);
        }
        for key in ["addresses", "notReadyAddresses"] {
            for a in item
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(t) = a.get("targetRef") {
                    add(t);
                }
            }
        }
    }
    let _ = snap;
    refs.iter()
        .map(|(ns, n)| links.a_ref(&named("Pod", Some(ns), n)))
        .collect()
}

/// The Services an Ingress's rules and default backend name.
fn ingress_services(v: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if let Some(n) = s(v, "/spec/defaultBackend/service/name") {
        out.insert(n.to_string());
    }
    for rule in v
        .pointer("/spec/rules")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        for p in rule
            .pointer("/http/paths")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(n) = s(p, "/backend/service/name").or_else(|| s(p, "/backend/serviceName"))
            {
                out.insert(n.to_string());
            }
        }
    }
    out
}

/// The claims a pod's volumes name.
fn claims(pod: &Value) -> BTreeSet<String> {
    pod.pointer("/spec/volumes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|vol| s(vol, "/persistentVolumeClaim/claimName"))
        .map(str::to_string)
        .collect()
}

//! The chain of hops a traffic finding cites (Ingress → Service → EndpointSlice → Pod →
//! probe event): the [`Chain`] renderers draw, and [`service_hops`], the Service →
//! EndpointSlice → Pod hops the Ingress-chain and no-ready-endpoints findings both
//! append. Split from [`super::model`], whose answers it words.

use super::model::{
    Cause, EpEntry, EpSource, EpView, Model, PortHealth, count, pod_serves, selector_text,
};
use super::ports::{Resolve, declared_ports_text, resolve};
use crate::kube::meta::ObjectRef;
use crate::kube::network::{Service, ServicePort};
use crate::kube::pod::Pod;
use crate::rules::Evidence;
use crate::rules::evidence;
use crate::rules::not_ready;
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::{Value, json};

/// One hop of a traffic chain: the evidence plus what renderers draw.
pub struct Hop {
    pub kind: String,
    pub namespace: Option<String>,
    pub name: String,
    /// `ok`, `broken`, `missing` or `not-collected`.
    pub state: &'static str,
    pub evidence: Evidence,
}

/// The hops of one chain, Ingress → Service → EndpointSlice → Pod → probe event.
#[derive(Default)]
pub struct Chain {
    pub hops: Vec<Hop>,
}

impl Chain {
    /// A hop about an object in the bundle (kind and name from the evidence).
    pub fn push(&mut self, ev: Evidence, state: &'static str) {
        let (kind, namespace, name) = match &ev.object {
            Some(o) => (o.kind.clone(), o.namespace.clone(), o.name.clone()),
            None => (String::new(), None, String::new()),
        };
        self.hops.push(Hop {
            kind,
            namespace,
            name,
            state,
            evidence: ev,
        });
    }

    /// A hop with no object in the bundle (a missing or uncollected one).
    pub fn push_absent(&mut self, oref: ObjectRef, state: &'static str, note: String) {
        self.hops.push(Hop {
            kind: oref.kind.clone(),
            namespace: oref.namespace.clone(),
            name: oref.name.clone(),
            state,
            evidence: Evidence {
                object: (!oref.name.is_empty()).then_some(oref),
                input: None,
                file: None,
                line: None,
                note,
            },
        });
    }

    /// The evidence list and `details.chain`.
    pub fn finish(self) -> (Vec<Evidence>, Value) {
        let chain: Vec<Value> = self
            .hops
            .iter()
            .map(|h| {
                let mut v = json!({
                    "kind": h.kind,
                    "name": h.name,
                    "state": h.state,
                    "note": h.evidence.note,
                });
                if let Some(ns) = &h.namespace {
                    v["namespace"] = json!(ns);
                }
                if let (Some(i), Some(f), Some(l)) =
                    (h.evidence.input, &h.evidence.file, h.evidence.line)
                {
                    v["input"] = json!(i);
                    v["file"] = json!(f);
                    v["line"] = json!(l);
                }
                v
            })
            .collect();
        (
            self.hops.into_iter().map(|h| h.evidence).collect(),
            Value::Array(chain),
        )
    }
}

/// Pods cited one by one in a chain before "and N more".
const CHAIN_PODS: usize = 3;

fn not_collected_ref(ns: Option<&str>) -> ObjectRef {
    ObjectRef {
        api_version: "discovery.k8s.io/v1".into(),
        kind: "EndpointSlice".into(),
        namespace: ns.map(str::to_string),
        name: String::new(),
    }
}

/// The note said when neither EndpointSlices nor Endpoints are in the bundle (a
/// bundle-level fact that belongs in the input notes).
pub const NOT_COLLECTED: &str = "the bundle holds neither EndpointSlices nor Endpoints (not collected), so the endpoints are recomputed from the pods' Ready conditions";

/// Appends the Service → EndpointSlice → Pod → probe hops of a Service port and
/// returns a short clause for the message ("selector app=web matches 1 pod, none Ready:
/// web-x fails its readiness probe: …").
pub fn service_hops(
    model: &Model,
    chain: &mut Chain,
    svc_id: ObjectId,
    svc: &Service,
    port: Option<&ServicePort>,
    h: &PortHealth,
) -> String {
    let snap = model.snap;
    let ns = svc.metadata.namespace.as_deref().unwrap_or("");
    let cause = h.cause.as_ref();
    // Service: the port line, then the selector line.
    if let Some(p) = port {
        port_hop(snap, chain, svc_id, p, cause);
    }
    let clause = selector_hop(snap, chain, svc_id, svc, port, h);
    // EndpointSlices (or Endpoints), with the conditions of each selected pod's endpoint.
    let view = model.endpoints_of(ns, &svc.metadata.name);
    endpoint_hops(snap, chain, &view, ns, &svc.metadata.name, port);
    let reasons = pod_hops(snap, chain, &view, port, h);
    let mut clause = if reasons.is_empty() || cause == Some(&Cause::SelectorNoMatch) {
        clause
    } else {
        format!("{clause} — {}", reasons.join("; "))
    };
    let fallback = view
        .entries
        .iter()
        .filter(|e| e.serving && e.terminating && !e.ready)
        .count();
    if fallback > 0 {
        clause.push_str(&format!(
            "; {} still serving while terminating: kube-proxy may fall back to it until it is gone",
            count(fallback, "endpoint")
        ));
    }
    clause
}

/// The Service port hop: the port and the targetPort it sends to.
fn port_hop(
    snap: &Snapshot,
    chain: &mut Chain,
    svc_id: ObjectId,
    p: &ServicePort,
    cause: Option<&Cause>,
) {
    let path = match &p.name {
        Some(n) if !n.is_empty() => format!("name={n}"),
        _ => format!("port={}", p.port),
    };
    let state = if cause == Some(&Cause::TargetPortUnresolved) {
        "broken"
    } else {
        "ok"
    };
    chain.push(
        evidence::field(
            snap,
            svc_id,
            &["spec", "ports", &path],
            format!("Service port {} → targetPort {}", p.display(), p.target()),
        ),
        state,
    );
}

/// The Service selector hop; returns the message's clause about the selector (or its
/// absence).
fn selector_hop(
    snap: &Snapshot,
    chain: &mut Chain,
    svc_id: ObjectId,
    svc: &Service,
    port: Option<&ServicePort>,
    h: &PortHealth,
) -> String {
    let ns = svc.metadata.namespace.as_deref().unwrap_or("");
    let cause = h.cause.as_ref();
    match svc.spec.selector().map(selector_text) {
        Some(sel) => {
            let ready = h.selected.iter().filter(|(_, p)| pod_serves(p)).count();
            let note = format!(
                "selector {sel} matches {} in namespace {ns}, {ready} Ready",
                count(h.selected.len(), "live pod")
            );
            chain.push(
                evidence::field(snap, svc_id, &["spec", "selector"], note),
                if cause == Some(&Cause::SelectorNoMatch) || cause == Some(&Cause::NoReadyPod) {
                    "broken"
                } else {
                    "ok"
                },
            );
            match cause {
                Some(Cause::SelectorNoMatch) => {
                    format!("its selector {sel} matches no pod in namespace {ns}")
                }
                Some(Cause::TargetPortUnresolved) => format!(
                    "no selected pod declares its targetPort {} (protocol {})",
                    port.map(|p| p.target().to_string()).unwrap_or_default(),
                    port.map(ServicePort::protocol).unwrap_or("TCP")
                ),
                _ => format!(
                    "its selector {sel} matches {}, none Ready",
                    count(h.selected.len(), "pod")
                ),
            }
        }
        None => {
            chain.push(
                evidence::field(
                    snap,
                    svc_id,
                    &["spec"],
                    "no selector: endpoints are managed by hand (EndpointSlices labelled kubernetes.io/service-name)",
                ),
                "ok",
            );
            match cause {
                Some(Cause::SelectorlessNoEndpoints) => {
                    "it has no selector and no hand-made EndpointSlice or Endpoints".to_string()
                }
                _ => "it has no selector and its hand-made endpoints hold no ready address"
                    .to_string(),
            }
        }
    }
}

/// The EndpointSlice (or Endpoints) hops of Service `svc_name`: the first two objects
/// with their entries' conditions, or the missing or uncollected object.
fn endpoint_hops(
    snap: &Snapshot,
    chain: &mut Chain,
    view: &EpView,
    ns: &str,
    svc_name: &str,
    port: Option<&ServicePort>,
) {
    match view.source {
        EpSource::NotCollected => chain.push_absent(
            not_collected_ref(Some(ns)),
            "not-collected",
            NOT_COLLECTED.to_string(),
        ),
        source if view.objects.is_empty() => chain.push_absent(
            ObjectRef {
                api_version: if source == EpSource::Slices {
                    "discovery.k8s.io/v1".into()
                } else {
                    "v1".into()
                },
                kind: if source == EpSource::Slices {
                    "EndpointSlice".into()
                } else {
                    "Endpoints".into()
                },
                namespace: Some(ns.to_string()),
                name: String::new(),
            },
            "missing",
            if source == EpSource::Slices {
                format!(
                    "no EndpointSlice labelled kubernetes.io/service-name={svc_name} in the bundle"
                )
            } else {
                format!(
                    "no Endpoints object {svc_name} in the bundle (it has no EndpointSlices, so legacy Endpoints were read)"
                )
            },
        ),
        source => {
            for oid in view.objects.iter().take(2) {
                let mine: Vec<&EpEntry> = view.entries.iter().filter(|e| e.source == *oid).collect();
                let ready = mine.iter().filter(|e| e.ready).count();
                let described: Vec<String> = mine
                    .iter()
                    .take(CHAIN_PODS)
                    .map(|e| {
                        format!(
                            "{} {}",
                            e.pod_name.as_deref().unwrap_or(&e.address),
                            e.conditions(source)
                        )
                    })
                    .collect();
                let what = if source == EpSource::Legacy {
                    "Endpoints (legacy; the bundle has no EndpointSlices)"
                } else {
                    "EndpointSlice"
                };
                let note = format!(
                    "{what} {}: {ready} of {} endpoint(s) ready{}{}",
                    snap.object(*oid).name,
                    mine.len(),
                    if described.is_empty() { "" } else { ": " },
                    described.join("; ")
                );
                chain.push(
                    evidence::field(snap, *oid, &["endpoints"], note),
                    if view.ready_for(port) == 0 {
                        "broken"
                    } else {
                        "ok"
                    },
                );
            }
        }
    }
}

/// The hops of the pods that do not serve (every selected pod when the targetPort does
/// not resolve), each with why (its probe event); returns one reason per pod cited.
fn pod_hops(
    snap: &Snapshot,
    chain: &mut Chain,
    view: &EpView,
    port: Option<&ServicePort>,
    h: &PortHealth,
) -> Vec<String> {
    let unresolved = h.cause == Some(Cause::TargetPortUnresolved);
    let pods: Vec<&(ObjectId, &Pod)> = if unresolved {
        h.selected.iter().collect()
    } else {
        h.selected.iter().filter(|(_, p)| !pod_serves(p)).collect()
    };
    let mut reasons = Vec::new();
    for (pid, pod) in pods.iter().take(CHAIN_PODS) {
        let name = &snap.object(*pid).name;
        if unresolved {
            let p = port.expect("a targetPort cause has a port");
            reasons.push(target_port_hop(snap, chain, *pid, pod, p));
            continue;
        }
        let (text, evs) = not_ready::pod_summary(snap, *pid, pod)
            .unwrap_or_else(|| ("is not Ready".to_string(), Vec::new()));
        let epnote = view
            .entry_for(snap, *pid)
            .map(|e| format!(" (endpoint {})", e.conditions(view.source)))
            .unwrap_or_default();
        let mut evs = evs.into_iter();
        match evs.next() {
            Some(mut first) => {
                first.note = format!("pod {name}{epnote}: {}", first.note);
                chain.push(first, "broken");
            }
            None => chain.push(
                evidence::object(snap, *pid, format!("pod {name}{epnote} {text}")),
                "broken",
            ),
        }
        for e in evs {
            chain.push(e, "broken");
        }
        reasons.push(format!("{name} {text}"));
    }
    if pods.len() > CHAIN_PODS {
        reasons.push(format!("and {} more", pods.len() - CHAIN_PODS));
        chain.push_absent(
            ObjectRef::default(),
            "broken",
            format!(
                "and {} more pod(s): {}",
                pods.len() - CHAIN_PODS,
                pods[CHAIN_PODS..]
                    .iter()
                    .map(|(id, _)| snap.object(*id).name.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    reasons
}

/// The hop of a selected pod that declares no port the Service's targetPort names;
/// returns the reason ("web-x declares no port named http (ports: 8080/TCP)").
fn target_port_hop(
    snap: &Snapshot,
    chain: &mut Chain,
    pid: ObjectId,
    pod: &Pod,
    p: &ServicePort,
) -> String {
    let name = &snap.object(pid).name;
    let why = match resolve(pod, p) {
        Resolve::NameOtherProtocol(proto) => format!(
            "declares port {} as {proto}, the Service port is {}",
            p.target(),
            p.protocol()
        ),
        _ => format!(
            "declares no port named {} (ports: {})",
            p.target(),
            declared_ports_text(pod)
        ),
    };
    chain.push(
        evidence::field(
            snap,
            pid,
            &["spec", "containers"],
            format!("pod {name} {why}"),
        ),
        "broken",
    );
    format!("{name} {why}")
}

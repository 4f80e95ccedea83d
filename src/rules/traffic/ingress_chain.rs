//! An Ingress whose backend Service has no ready endpoint: the whole chain in one finding.

use super::hops::{self, Chain};
use super::ingress_backend::{backend_evidence, port_text};
use super::model::{Backend, Cause, EpSource};
use super::ports;
use super::selector_no_match;
use crate::declare_rule;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use crate::snapshot::ObjectId;
use std::collections::BTreeMap;

declare_rule! {
    /// An Ingress routes to a Service port with no ready endpoint: the whole chain, one finding.
    ///
    /// The chain is Ingress → Service → EndpointSlice → Pod → probe event.
    /// Follows each backend the way the traffic flows: the Service and the port the backend
    /// names, the Service's selector against the pods, the targetPort on those pods, the
    /// EndpointSlices' conditions (legacy Endpoints when the bundle has no EndpointSlices;
    /// "not collected" when it has neither), each pod's Ready condition and its probe event.
    /// Every hop is cited with its file and line, and `details.chain` lists the hops for
    /// renderers. The Ingress is the primary object: the Service gets no second finding for
    /// the same break, while each pod keeps its own readiness finding for the why.
    pub static INGRESS_NO_READY_BACKEND = {
        id: "traffic/ingress-no-ready-backend",
        stage: Stage::Traffic,
        severity: Severity::Error,
        fallback: false,
        // Local: each Ingress with the Services, endpoints and pods of its namespace.
        reach: Reach::Local,
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let model = ctx.model::<super::model::Traffic>();
    // (ingress, service, port index) → backends.
    let mut groups: BTreeMap<(ObjectId, ObjectId, usize), Vec<&Backend>> = BTreeMap::new();
    for b in model.backends() {
        let ns = b.ing.metadata.namespace.as_deref().unwrap_or("");
        let Some((sid, svc)) = model.service(ns, &b.service.name) else {
            continue;
        };
        if svc.spec.is_external_name() {
            continue;
        }
        let Ok(i) = ports::backend_port(svc, &b.service.port) else {
            continue;
        };
        groups.entry((b.ingress, sid, i)).or_default().push(b);
    }
    let mut out = Vec::new();
    for ((ing_id, sid, i), backends) in groups {
        let Some(svc) = crate::snapshot::Snapshot::view_of(snap.services(), sid) else {
            continue;
        };
        let port = svc.spec.ports.get(i);
        let h = model.port_health(svc, port);
        let Some(cause) = h.cause.clone() else {
            continue;
        };
        let ing = snap.object(ing_id);
        let ns = ing.namespace.clone().unwrap_or_default();
        let places: Vec<&str> = backends.iter().map(|b| b.place.as_str()).collect();
        let mut chain = Chain::default();
        for b in backends.iter().take(3) {
            chain.push(
                backend_evidence(
                    snap,
                    b,
                    format!(
                        "{} → Service {}{}",
                        b.place,
                        b.service.name,
                        port_text(&b.service.port)
                    ),
                ),
                "ok",
            );
        }
        let clause = hops::service_hops(model, &mut chain, sid, svc, port, &h);
        let (mut ev, chain) = chain.finish();
        let mut message = format!(
            "routes {} to Service {}{}, which has no ready endpoint: {clause}",
            places.join(", "),
            svc.metadata.name,
            port.map(|p| format!(" port {}", p.display()))
                .unwrap_or_default()
        );
        if cause == Cause::SelectorNoMatch
            && let Some(sel) = svc.spec.selector()
        {
            let why = selector_no_match::explain(model, sid, &ns, sel);
            // The first item repeats the selector hop already in the chain.
            ev.extend(why.evidence.into_iter().skip(1));
            message.push_str(&why.tail);
        }
        if model.endpoints_of(&ns, &svc.metadata.name).source == EpSource::NotCollected {
            message.push_str(&format!("; {}", hops::NOT_COLLECTED));
        }
        let help = match cause {
            Cause::SelectorNoMatch => {
                "fix the Service's selector or the pods' labels (a near miss is usually the typo)"
            }
            Cause::TargetPortUnresolved => {
                "make the Service's targetPort name a port the pods declare (name and protocol), or use the number"
            }
            Cause::NoReadyPod => {
                "make the pods Ready (each pod's own finding says why it is not); the Ingress has nowhere to send requests until then"
            }
            Cause::SelectorlessNoEndpoints | Cause::SelectorlessNoReady => {
                "give the Service a selector, or create an EndpointSlice labelled kubernetes.io/service-name with ready addresses"
            }
        };
        let mut f = Finding::new(
            &INGRESS_NO_READY_BACKEND,
            Severity::Error,
            ing.reference(),
            &format!(
                "no-ready-backend:{}:{}",
                svc.metadata.name,
                port.map(|p| p.name.clone().unwrap_or_else(|| p.port.to_string()))
                    .unwrap_or_default()
            ),
            message,
            ev,
            help.into(),
            Vec::new(),
        );
        f.details = Some(serde_json::json!({ "chain": chain, "cause": cause.key() }));
        out.push(f);
    }
    out
}

//! A Service whose selected pods are none Ready.

use super::hops::{self, Chain};
use super::model::{self, Cause, EpSource};
use crate::declare_rule;
use crate::rules::evidence;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// A Service selects pods, but none is Ready: it has no ready endpoint.
    ///
    /// Every connection to it fails.
    /// Recomputed from the pods (selector, Ready condition, deletion) and checked against
    /// the bundle's EndpointSlices (`ready`/`serving`/`terminating`; nil ready and serving
    /// mean true, nil terminating false), or legacy Endpoints when the bundle has no
    /// EndpointSlices; when neither is in the bundle the finding says so. The finding cites
    /// the chain Service → EndpointSlice → Pod → probe event; each pod keeps its own
    /// readiness (or runtime, node…) finding for the why. `publishNotReadyAddresses`
    /// Services route to unready pods on purpose and are not reported; headless Services are
    /// at most a warning. When the pods are Ready but the recorded endpoints are not, the
    /// two disagree and the finding says so (`warning`). An Ingress that routes to the
    /// Service reports the chain in its own finding instead.
    pub static NO_READY_ENDPOINTS = {
        id: "traffic/no-ready-endpoints",
        stage: Stage::Traffic,
        severity: Severity::Error,
        fallback: false,
        // Local: each Service with the endpoints and pods of its namespace.
        reach: Reach::Local,
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let model = ctx.model::<super::model::Traffic>();
    let mut out = Vec::new();
    for (id, svc) in model.live_services() {
        if svc.spec.selector().is_none() || svc.spec.is_external_name() {
            continue;
        }
        let ns = svc.metadata.namespace.as_deref().unwrap_or("");
        let h = model.port_health(svc, None);
        if h.selected.is_empty() {
            continue;
        }
        if h.cause == Some(Cause::NoReadyPod) {
            if model.routed_by_ingress(svc, None) {
                continue;
            }
            let mut chain = Chain::default();
            let clause = hops::service_hops(model, &mut chain, id, svc, None, &h);
            let view = model.endpoints_of(ns, &svc.metadata.name);
            let mut message = format!("no ready endpoint: {clause}");
            let recorded = view.ready_for(None);
            if recorded > 0 {
                message.push_str(&format!(
                    "; the bundle's {} still list {recorded} ready endpoint(s), which disagrees with the pods (caught mid-update, or stale)",
                    if view.source == EpSource::Legacy {
                        "Endpoints"
                    } else {
                        "EndpointSlices"
                    }
                ));
            }
            if view.source == EpSource::NotCollected {
                message.push_str(&format!("; {}", hops::NOT_COLLECTED));
            }
            let (ev, chain) = chain.finish();
            let mut f = Finding::new(
                &NO_READY_ENDPOINTS,
                model::cap_for(svc, Severity::Error),
                snap.object(id).reference(),
                "no-ready-endpoints",
                message,
                ev,
                "make the selected pods Ready (each pod's own finding says why it is not); the Service sends traffic only to Ready endpoints".into(),
                Vec::new(),
            );
            f.details = Some(serde_json::json!({ "chain": chain }));
            out.push(f);
            continue;
        }
        // Ready pods, but the recorded endpoints list none ready: the two disagree.
        let view = model.endpoints_of(ns, &svc.metadata.name);
        if h.cause.is_none()
            && view.source != EpSource::NotCollected
            && view.ready_for(None) == 0
            && !svc.spec.publish_not_ready_addresses
        {
            let ready: Vec<String> = h
                .serving
                .iter()
                .map(|p| snap.object(*p).name.clone())
                .collect();
            let mut ev = vec![evidence::field(
                snap,
                id,
                &["spec", "selector"],
                format!(
                    "selector {} matches {}, {} Ready: {}",
                    svc.spec
                        .selector()
                        .map(model::selector_text)
                        .unwrap_or_default(),
                    model::count(h.selected.len(), "pod"),
                    ready.len(),
                    ready.join(", ")
                ),
            )];
            let recorded = match view.objects.first() {
                Some(oid) => {
                    ev.push(evidence::field(
                        snap,
                        *oid,
                        &["endpoints"],
                        format!(
                            "{} {}: {} endpoint(s), none ready",
                            snap.object(*oid).kind,
                            snap.object(*oid).name,
                            view.entries.len()
                        ),
                    ));
                    format!(
                        "its {} list no ready endpoint",
                        if view.source == EpSource::Legacy {
                            "Endpoints"
                        } else {
                            "EndpointSlices"
                        }
                    )
                }
                None => format!(
                    "the bundle holds no {} for it",
                    if view.source == EpSource::Legacy {
                        "Endpoints object"
                    } else {
                        "EndpointSlice"
                    }
                ),
            };
            for p in h.serving.iter().take(3) {
                ev.push(evidence::field(
                    snap,
                    *p,
                    &["status", "conditions", "type=Ready"],
                    format!("pod {}: Ready=True", snap.object(*p).name),
                ));
            }
            out.push(Finding::new(
                &NO_READY_ENDPOINTS,
                Severity::Warning,
                snap.object(id).reference(),
                "endpoints-disagree",
                format!(
                    "selects {}, but {recorded}: the recorded endpoints disagree with the pods (the bundle caught an update, or the endpoint controller is not keeping up)",
                    model::count(ready.len(), "Ready pod")
                ),
                ev,
                "check the EndpointSlice controller (kube-controller-manager) and take the bundle again; kube-proxy routes by the EndpointSlices, not by the pods".into(),
                Vec::new(),
            ));
        }
    }
    out
}

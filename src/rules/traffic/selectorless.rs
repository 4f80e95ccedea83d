//! A Service without selector and without hand-made endpoints.

use super::model::{Cause, EpSource, Model};
use crate::declare_rule;
use crate::rules::evidence;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// A Service without selector has no hand-made endpoints (or none of them is ready).
    ///
    /// It has no EndpointSlice or Endpoints with a ready address, so it sends traffic
    /// nowhere.
    /// Without a selector Kubernetes leaves a Service's endpoints alone: someone must create
    /// EndpointSlices labelled `kubernetes.io/service-name=<service>` (or an Endpoints object
    /// of the same name, which is mirrored). Recomputed from the bundle's EndpointSlices, or
    /// its legacy Endpoints when it has no EndpointSlices. When the bundle holds neither
    /// kind nothing can be said, and nothing is reported. ExternalName Services need no
    /// endpoints and are skipped. An Ingress that routes to the Service reports the chain.
    pub static SELECTORLESS_NO_ENDPOINTS = {
        id: "traffic/selectorless-no-endpoints",
        stage: Stage::Traffic,
        severity: Severity::Warning,
        fallback: false,
        // Local: each Service with its own endpoints.
        reach: Reach::Local,
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let model = ctx.model::<super::model::Traffic>();
    let mut out = Vec::new();
    for (id, svc) in model.live_services() {
        if svc.spec.selector().is_some() || svc.spec.is_external_name() {
            continue;
        }
        let ns = svc.metadata.namespace.as_deref().unwrap_or("");
        let view = model.endpoints_of(ns, &svc.metadata.name);
        if view.source == EpSource::NotCollected {
            continue;
        }
        let broken: Vec<String> = Model::ports_of(svc)
            .into_iter()
            .filter(|p| model.port_health(svc, *p).cause.is_some())
            .map(|p| {
                p.map(|p| p.display())
                    .unwrap_or_else(|| "(no ports)".into())
            })
            .collect();
        if broken.is_empty() || model.routed_by_ingress(svc, None) {
            continue;
        }
        let cause = model.port_health(svc, svc.spec.ports.first()).cause;
        let kind = if view.source == EpSource::Legacy {
            "Endpoints object"
        } else {
            "EndpointSlice"
        };
        let mut ev = vec![evidence::field(
            snap,
            id,
            &["spec"],
            "no selector: the endpoints of this Service are managed by hand",
        )];
        let message = if view.objects.is_empty() {
            format!(
                "no endpoint: no selector, and the bundle holds no hand-made {kind} for it{}",
                if view.source == EpSource::Slices {
                    format!(
                        " (none labelled kubernetes.io/service-name={})",
                        svc.metadata.name
                    )
                } else {
                    String::new()
                }
            )
        } else {
            for oid in view.objects.iter().take(2) {
                ev.push(evidence::field(
                    snap,
                    *oid,
                    &["endpoints"],
                    format!(
                        "{} {}: {} of {} address(es) ready",
                        snap.object(*oid).kind,
                        snap.object(*oid).name,
                        view.entries
                            .iter()
                            .filter(|e| e.source == *oid && e.ready)
                            .count(),
                        view.entries.iter().filter(|e| e.source == *oid).count()
                    ),
                ));
            }
            format!(
                "no ready endpoint: no selector, and its hand-made endpoints hold no ready address for port(s) {}",
                broken.join(", ")
            )
        };
        let key = cause.as_ref().map(Cause::key).unwrap_or("selectorless");
        out.push(Finding::new(
            &SELECTORLESS_NO_ENDPOINTS,
            Severity::Warning,
            snap.object(id).reference(),
            key,
            message,
            ev,
            format!(
                "add a selector so Kubernetes manages the endpoints, or create an EndpointSlice labelled kubernetes.io/service-name={} with the backend addresses (or use type ExternalName for a DNS alias)",
                svc.metadata.name
            ),
            Vec::new(),
        ));
    }
    out
}

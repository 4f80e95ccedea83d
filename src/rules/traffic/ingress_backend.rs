//! An Ingress backend whose Service, or Service port, does not exist.

use super::model::{Backend, Model};
use super::ports::{self, Resolve};
use crate::declare_rule;
use crate::kube::meta::ObjectRef;
use crate::rules::evidence;
use crate::rules::reach::Reach;
use crate::rules::{Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::BTreeMap;

declare_rule! {
    /// An Ingress backend names a Service, or a Service port, that does not exist.
    ///
    /// A rule's path or the default backend routes to a Service that is not in the
    /// Ingress's namespace, or to a port the Service does not have.
    /// `backend.service.name` must name a Service of the Ingress's own namespace, and
    /// `port.number` must equal one of its `ports[].port` (not the targetPort, not the
    /// nodePort), `port.name` one of its `ports[].name` (not a container port name). The
    /// controller answers those requests with 503 or its default backend. Recomputed from
    /// the bundle's Services, naming the likely mix-up. A Service is reported "not in the
    /// bundle" rather than missing when the bundle holds no Service of that namespace.
    pub static INGRESS_BACKEND_MISSING = {
        id: "traffic/ingress-backend-missing",
        stage: Stage::Traffic,
        severity: Severity::Error,
        fallback: false,
        // Local: each Ingress with the Services of its namespace.
        reach: Reach::Local,
        run: run,
    };
}

/// The backend's line in the Ingress.
pub fn backend_evidence(snap: &Snapshot, b: &Backend, note: String) -> Evidence {
    let name = format!("name={}", b.service.name);
    let path: Vec<&str> = if b.default {
        vec!["spec", "defaultBackend", "service", &name]
    } else {
        vec!["spec", "rules", "service", &name]
    };
    evidence::field(snap, b.ingress, &path, note)
}

/// (ingress, service, cause) → severity, why, and the backends that hit it.
type Groups<'a, 'b> =
    BTreeMap<(ObjectId, String, String), (Severity, String, Vec<&'b Backend<'a>>)>;

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    if !snap.has_kind("Service") {
        return Vec::new();
    }
    let model = ctx.model::<super::model::Traffic>();
    // (ingress, service, cause) → the backends (places) that hit it.
    let mut groups: Groups = BTreeMap::new();
    for b in model.backends() {
        let ns = b.ing.metadata.namespace.as_deref().unwrap_or("");
        match model.service(ns, &b.service.name) {
            None => {
                let (sev, why) = if snap.listed_whole("Service", Some(ns)) {
                    (
                        Severity::Error,
                        format!(
                            "Service {ns}/{} does not exist (the bundle lists every Service of namespace {ns})",
                            b.service.name
                        ),
                    )
                } else if model.has_services_in(ns) {
                    (
                        Severity::Warning,
                        format!(
                            "Service {ns}/{} is not in the bundle (it holds other Services of namespace {ns} but no complete list of them, so whether it exists is unknown)",
                            b.service.name
                        ),
                    )
                } else {
                    (
                        Severity::Warning,
                        format!(
                            "Service {ns}/{} is not in the bundle (it holds no Service of namespace {ns}, so it may not have been collected)",
                            b.service.name
                        ),
                    )
                };
                groups
                    .entry((b.ingress, b.service.name.clone(), "service-missing".into()))
                    .or_insert((sev, why, Vec::new()))
                    .2
                    .push(b);
            }
            Some((_, svc)) => {
                if svc.spec.is_external_name() {
                    continue;
                }
                if let Err(mut why) = ports::backend_port(svc, &b.service.port) {
                    why.push_str(&container_port_hint(model, svc, &b.service.port));
                    groups
                        .entry((b.ingress, b.service.name.clone(), "port-missing".into()))
                        .or_insert((
                            Severity::Error,
                            format!("the backend asks Service {ns}/{} for {why}", b.service.name),
                            Vec::new(),
                        ))
                        .2
                        .push(b);
                }
            }
        }
    }
    groups
        .into_iter()
        .map(|((ing_id, svc_name, cause), (severity, why, backends))| {
            let places: Vec<&str> = backends.iter().map(|b| b.place.as_str()).collect();
            let ing = snap.object(ing_id);
            let ns = ing.namespace.clone();
            let mut ev: Vec<Evidence> = backends
                .iter()
                .take(3)
                .map(|b| {
                    backend_evidence(
                        snap,
                        b,
                        format!(
                            "{} → Service {svc_name}{}",
                            b.place,
                            port_text(&b.service.port)
                        ),
                    )
                })
                .collect();
            if cause == "port-missing"
                && let Some((sid, svc)) = model.service(ns.as_deref().unwrap_or(""), &svc_name)
            {
                ev.push(evidence::field(
                    snap,
                    sid,
                    &["spec", "ports"],
                    format!(
                        "Service {svc_name} ports: {}",
                        svc.spec
                            .ports
                            .iter()
                            .map(|p| format!("{} → targetPort {}", p.display(), p.target()))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            } else if cause == "service-missing" {
                ev.push(Evidence {
                    object: Some(ObjectRef {
                        api_version: "v1".into(),
                        kind: "Service".into(),
                        namespace: ns.clone(),
                        name: svc_name.clone(),
                    }),
                    input: None,
                    file: None,
                    line: None,
                    note: format!(
                        "no Service {svc_name} in namespace {} in the bundle",
                        ns.as_deref().unwrap_or("")
                    ),
                });
            }
            let message = format!(
                "routes {} to a backend that cannot serve: {why}",
                places.join(", ")
            );
            let help = if cause == "service-missing" {
                "create the Service in the Ingress's namespace, or point the backend at the right one (an Ingress cannot route to another namespace)"
            } else {
                "set the backend's port to the Service's `port` number or its port `name` (not the targetPort or the container port name)"
            };
            Finding::new(
                &INGRESS_BACKEND_MISSING,
                severity,
                ing.reference(),
                &format!("{cause}:{svc_name}"),
                message,
                ev,
                help.into(),
                Vec::new(),
            )
        })
        .collect()
}

/// `; 8080 is the container port behind Service port http (80/TCP) …` when the asked
/// number is what a named targetPort resolves to on the Service's pods.
fn container_port_hint(
    model: &Model,
    svc: &crate::kube::network::Service,
    want: &crate::kube::network::ServiceBackendPort,
) -> String {
    let (Some(n), Some(sel)) = (want.number, svc.spec.selector()) else {
        return String::new();
    };
    let ns = svc.metadata.namespace.as_deref().unwrap_or("");
    let pods = model.selected(ns, sel);
    svc.spec
        .ports
        .iter()
        .filter(|p| matches!(p.target(), crate::kube::network::TargetPort::Name(_)))
        .find(|p| {
            pods.iter()
                .any(|(_, pod)| ports::resolve(pod, p) == Resolve::Port(n))
        })
        .map(|p| {
            format!(
                "; {n} is the container port behind Service port {} (targetPort {}), the Ingress must name the Service port {}",
                p.display(),
                p.target(),
                p.port
            )
        })
        .unwrap_or_default()
}

/// `:http` or `:80` for a backend port.
pub fn port_text(p: &crate::kube::network::ServiceBackendPort) -> String {
    match (&p.name, p.number) {
        (Some(n), _) if !n.is_empty() => format!(":{n}"),
        (_, Some(n)) => format!(":{n}"),
        _ => String::new(),
    }
}

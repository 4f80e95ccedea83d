//! A Service targetPort that the selected pods do not declare.

use super::model::{self, Model};
use super::near_miss;
use super::ports::{self, Resolve};
use crate::declare_rule;
use crate::kube::network::{Service, ServicePort, TargetPort};
use crate::kube::pod::Pod;
use crate::rules::evidence;
use crate::rules::reach::Reach;
use crate::rules::{Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};

declare_rule! {
    /// A Service's named targetPort is not declared by (all) the pods it selects.
    ///
    /// That Service port then has no (or fewer) endpoints.
    /// A string targetPort is looked up by name **and** protocol in the selected pods'
    /// container ports (app containers and sidecar init containers); a pod without it gets
    /// no endpoint port, and traffic to that Service port finds no backend. Recomputed for
    /// every selected pod, with the ports each declares (so a typo is visible). A numeric
    /// targetPort needs no declared containerPort (it is informational), so an undeclared
    /// number is only `info`, and only when the pods declare other ports. A name declared
    /// with another protocol is `traffic/protocol-mismatch`. Headless Services ignore
    /// targetPort and are skipped; an Ingress routing to a dead port reports the chain.
    pub static TARGET_PORT_UNRESOLVED = {
        id: "traffic/target-port-unresolved",
        stage: Stage::Traffic,
        severity: Severity::Error,
        fallback: false,
        // Local: each Service with its namespace's pods.
        reach: Reach::Local,
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let model = ctx.model::<super::model::Traffic>();
    let mut out = Vec::new();
    for (id, svc) in model.live_services() {
        if svc.spec.selector().is_none() || svc.spec.is_external_name() || svc.spec.is_headless() {
            continue;
        }
        let ns = svc.metadata.namespace.as_deref().unwrap_or("");
        let selected = model.selected(ns, svc.spec.selector().expect("checked"));
        if selected.is_empty() {
            continue;
        }
        for (i, sp) in svc.spec.ports.iter().enumerate() {
            let f = match sp.target() {
                TargetPort::Name(name) => named(model, id, svc, i, sp, &name, &selected),
                TargetPort::Number(n) => numeric(snap, id, sp, n, &selected),
            };
            out.extend(f);
        }
    }
    out
}

fn port_path(sp: &ServicePort) -> String {
    match &sp.name {
        Some(n) if !n.is_empty() => format!("name={n}"),
        _ => format!("port={}", sp.port),
    }
}

fn named(
    model: &Model,
    svc_id: ObjectId,
    svc: &Service,
    index: usize,
    sp: &ServicePort,
    name: &str,
    selected: &[(ObjectId, &Pod)],
) -> Option<Finding> {
    let snap = model.snap;
    let results: Vec<(ObjectId, &Pod, Resolve)> = selected
        .iter()
        .map(|(id, p)| (*id, *p, ports::resolve(p, sp)))
        .collect();
    let missing: Vec<&(ObjectId, &Pod, Resolve)> = results
        .iter()
        .filter(|(_, _, r)| *r == Resolve::NameMissing)
        .collect();
    let resolving = results
        .iter()
        .filter(|(_, _, r)| matches!(r, Resolve::Port(_)))
        .count();
    if missing.is_empty() {
        return None;
    }
    let none_resolve = resolving == 0;
    if none_resolve && model.routed_by_ingress(svc, Some(index)) {
        return None;
    }
    let mut ev = vec![evidence::field(
        snap,
        svc_id,
        &["spec", "ports", &port_path(sp)],
        format!(
            "Service port {} → targetPort {name:?} (looked up by name and protocol {} in the pods)",
            sp.display(),
            sp.protocol()
        ),
    )];
    let mut seen_ports = Vec::new();
    for (pid, pod, _) in missing.iter().take(3) {
        let ports = ports::declared_ports_text(pod);
        ev.push(evidence::field(
            snap,
            *pid,
            &["spec", "containers"],
            format!(
                "pod {} declares no port named {name:?}; its ports: {ports}",
                snap.object(*pid).name
            ),
        ));
        if !seen_ports.contains(&ports) {
            seen_ports.push(ports);
        }
    }
    if missing.len() > 3 {
        ev.push(Evidence {
            object: None,
            input: None,
            file: None,
            line: None,
            note: format!("and {} more pod(s) without it", missing.len() - 3),
        });
    }
    let close: Vec<String> = missing
        .iter()
        .flat_map(|(_, p, _)| {
            p.spec
                .containers
                .iter()
                .flat_map(|c| c.ports.iter())
                .filter_map(|cp| cp.name.as_deref().map(String::from))
        })
        .filter(|n| near_miss::similar(n, name))
        .collect();
    let hint = close
        .first()
        .map(|c| format!(" ({c:?} looks like a typo of {name:?})"))
        .unwrap_or_default();
    let (severity, message) = if none_resolve {
        (
            Severity::Error,
            format!(
                "port {} has no endpoint: none of the {} declares a container port named {name:?}; they declare {}{hint}",
                sp.display(),
                model::count(selected.len(), "selected pod"),
                seen_ports.join(" / ")
            ),
        )
    } else {
        (
            Severity::Warning,
            format!(
                "port {}: {} of the {} selected pods declare no container port named {name:?}{hint}, so only {resolving} serve this port",
                sp.display(),
                missing.len(),
                selected.len()
            ),
        )
    };
    Some(Finding::new(
        &TARGET_PORT_UNRESOLVED,
        severity,
        snap.object(svc_id).reference(),
        &format!("target-port:{}:{name}", sp.name.as_deref().unwrap_or("")),
        message,
        ev,
        format!(
            "name the container port {name:?} in the pod template (ports[].name), or set the Service's targetPort to the number the app listens on"
        ),
        Vec::new(),
    ))
}

fn numeric(
    snap: &Snapshot,
    svc_id: ObjectId,
    sp: &ServicePort,
    n: i64,
    selected: &[(ObjectId, &Pod)],
) -> Option<Finding> {
    // Only when every pod declares ports, none of them this number (any protocol).
    if !selected
        .iter()
        .all(|(_, p)| ports::declares_ports(p) && ports::declared_protocols(p, n).is_empty())
    {
        return None;
    }
    let (pid, pod) = selected[0];
    let ports = ports::declared_ports_text(pod);
    Some(Finding::new(
        &TARGET_PORT_UNRESOLVED,
        Severity::Info,
        snap.object(svc_id).reference(),
        &format!("target-port-undeclared:{}:{n}", sp.name.as_deref().unwrap_or("")),
        format!(
            "port {} targets port {n}, which {} (they declare {ports}); a numeric targetPort works without a declared containerPort if the app listens there",
            sp.display(),
            if selected.len() == 1 {
                "its pod does not declare".to_string()
            } else {
                format!("none of its {} pods declares", selected.len())
            }
        ),
        vec![
            evidence::field(
                snap,
                svc_id,
                &["spec", "ports", &port_path(sp)],
                format!("Service port {} → targetPort {n}", sp.display()),
            ),
            evidence::field(
                snap,
                pid,
                &["spec", "containers"],
                format!("pod {} declares {ports}", snap.object(pid).name),
            ),
        ],
        "check that the app listens on that port; declaring it (containerPort) documents it and lets the Service name it".into(),
        Vec::new(),
    ))
}

//! A Service port whose protocol differs from the container port it targets.

use super::model::PodRef;
use super::ports::{self, Resolve};
use crate::declare_rule;
use crate::kube::network::{ServicePort, TargetPort};
use crate::kube::pod::Pod;
use crate::rules::evidence;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use crate::snapshot::ObjectId;

declare_rule! {
    /// A Service port's protocol differs from that of the container port it targets.
    ///
    /// A named targetPort resolves only to a container port with the same name **and**
    /// protocol (`FindPort`), so `dns` declared as TCP does not serve a UDP Service port: no
    /// endpoint for that port (`error` when no selected pod resolves it, else `warning`). A
    /// numeric targetPort that the containers declare only under another protocol is a
    /// `warning`: the packets go to a port the app may not serve in that protocol.
    /// Recomputed from the Service and the selected pods' container ports.
    pub static PROTOCOL_MISMATCH = {
        id: "traffic/protocol-mismatch",
        stage: Stage::Traffic,
        severity: Severity::Error,
        fallback: false,
        // Local: each Service with its endpoints and pods.
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
            let Some((severity, detail, pods)) = mismatch(sp, &selected) else {
                continue;
            };
            let resolving = selected
                .iter()
                .filter(|(_, p)| matches!(ports::resolve(p, sp), Resolve::Port(_)))
                .count();
            if resolving == 0
                && matches!(sp.target(), TargetPort::Name(_))
                && model.routed_by_ingress(svc, Some(i))
            {
                continue;
            }
            let path = match &sp.name {
                Some(n) if !n.is_empty() => format!("name={n}"),
                _ => format!("port={}", sp.port),
            };
            let mut ev = vec![evidence::field(
                snap,
                id,
                &["spec", "ports", &path],
                format!("Service port {} → targetPort {}", sp.display(), sp.target()),
            )];
            for (pid, pod) in pods.iter().take(3) {
                ev.push(evidence::field(
                    snap,
                    *pid,
                    &["spec", "containers"],
                    format!(
                        "pod {} declares {}",
                        snap.object(*pid).name,
                        ports::declared_ports_text(pod)
                    ),
                ));
            }
            out.push(Finding::new(
                &PROTOCOL_MISMATCH,
                severity,
                snap.object(id).reference(),
                &format!("protocol:{}:{}", sp.name.as_deref().unwrap_or(""), sp.protocol()),
                format!("port {}: {detail}", sp.display()),
                ev,
                format!(
                    "make the Service port's protocol ({}) and the container port's protocol agree; a Service needs one port entry per protocol",
                    sp.protocol()
                ),
                Vec::new(),
            ));
        }
    }
    out
}

/// Severity, the message detail and the pods concerned, when the protocols disagree.
fn mismatch<'a>(
    sp: &ServicePort,
    selected: &[PodRef<'a>],
) -> Option<(Severity, String, Vec<PodRef<'a>>)> {
    match sp.target() {
        TargetPort::Name(name) => {
            let mut other = Vec::new();
            let mut protos = Vec::new();
            let mut resolving = 0;
            for (id, p) in selected {
                match ports::resolve(p, sp) {
                    Resolve::NameOtherProtocol(proto) => {
                        if !protos.contains(&proto) {
                            protos.push(proto);
                        }
                        other.push((*id, *p));
                    }
                    Resolve::Port(_) => resolving += 1,
                    Resolve::NameMissing => {}
                }
            }
            if other.is_empty() {
                return None;
            }
            let severity = if resolving == 0 {
                Severity::Error
            } else {
                Severity::Warning
            };
            let who = if other.len() == selected.len() {
                if other.len() == 1 {
                    "its only selected pod declares".to_string()
                } else {
                    format!("all {} selected pods declare", other.len())
                }
            } else {
                format!(
                    "{} of the {} selected pods declare",
                    other.len(),
                    selected.len()
                )
            };
            Some((
                severity,
                format!(
                    "{who} port {name:?} as {}, not {}, so it does not resolve and {}",
                    protos.join("/"),
                    sp.protocol(),
                    if resolving == 0 {
                        "this Service port has no endpoint".to_string()
                    } else {
                        format!("only {resolving} pod(s) serve it")
                    }
                ),
                other,
            ))
        }
        TargetPort::Number(n) => {
            let pods: Vec<(ObjectId, &Pod)> = selected
                .iter()
                .filter(|(_, p)| {
                    let protos = ports::declared_protocols(p, n);
                    !protos.is_empty() && !protos.iter().any(|x| x == sp.protocol())
                })
                .copied()
                .collect();
            if pods.len() != selected.len() {
                return None;
            }
            let protos = ports::declared_protocols(pods[0].1, n);
            Some((
                Severity::Warning,
                format!(
                    "targets port {n}, which the pods declare only as {}, not {}",
                    protos.join("/"),
                    sp.protocol()
                ),
                pods,
            ))
        }
    }
}

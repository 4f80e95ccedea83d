//! Port resolution for the traffic rules: how a Service port's targetPort lands on a
//! pod (Kubernetes' `FindPort`), which ports a pod declares, and which Service port an
//! Ingress backend names. Split from [`super::model`], which uses it to recompute a
//! Service port's health; the target-port, protocol and Ingress-backend rules ask it too.

use crate::kube::network::{Service, ServiceBackendPort, ServicePort, TargetPort};
use crate::kube::pod::{Container, Pod};
use crate::kube::requests::is_sidecar;

/// How a Service port's targetPort lands on one pod (`FindPort`: a name must match a
/// container port's name **and** protocol, in app containers and sidecar init containers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolve {
    Port(i64),
    /// No container port has that name.
    NameMissing,
    /// A container port has the name, but another protocol.
    NameOtherProtocol(String),
}

/// Containers whose ports `FindPort` searches: app containers, then sidecars.
fn port_containers(pod: &Pod) -> impl Iterator<Item = &Container> {
    pod.spec
        .containers
        .iter()
        .chain(pod.spec.init_containers.iter().filter(|c| is_sidecar(c)))
}

fn proto(p: &Option<crate::kube::Str>) -> &str {
    p.as_deref().filter(|p| !p.is_empty()).unwrap_or("TCP")
}

pub fn resolve(pod: &Pod, sp: &ServicePort) -> Resolve {
    match sp.target() {
        TargetPort::Number(n) => Resolve::Port(n),
        TargetPort::Name(name) => {
            let mut other = None;
            for c in port_containers(pod) {
                for p in &c.ports {
                    if p.name.as_deref() == Some(name.as_str()) {
                        if proto(&p.protocol) == sp.protocol() {
                            return Resolve::Port(p.container_port);
                        }
                        other.get_or_insert_with(|| proto(&p.protocol).to_string());
                    }
                }
            }
            match other {
                Some(p) => Resolve::NameOtherProtocol(p),
                None => Resolve::NameMissing,
            }
        }
    }
}

/// Protocols under which a pod's containers declare a port number.
pub fn declared_protocols(pod: &Pod, number: i64) -> Vec<String> {
    let mut out: Vec<String> = port_containers(pod)
        .flat_map(|c| c.ports.iter())
        .filter(|p| p.container_port == number)
        .map(|p| proto(&p.protocol).to_string())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Whether a pod's containers declare any port at all.
pub fn declares_ports(pod: &Pod) -> bool {
    port_containers(pod).any(|c| !c.ports.is_empty())
}

/// `http=8080/TCP, metrics=9090/TCP` for a pod's declared ports.
pub fn declared_ports_text(pod: &Pod) -> String {
    let v: Vec<String> = port_containers(pod)
        .flat_map(|c| c.ports.iter())
        .map(|p| match p.name.as_deref().filter(|n| !n.is_empty()) {
            Some(n) => format!("{n}={}/{}", p.container_port, proto(&p.protocol)),
            None => format!("{}/{} (unnamed)", p.container_port, proto(&p.protocol)),
        })
        .collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// The Service port an Ingress backend names: `port.number` must equal a Service
/// `port`, `port.name` a Service port's `name` (not its targetPort). The error says what
/// was asked for and what the Service offers, with the likely mix-up.
pub fn backend_port(svc: &Service, want: &ServiceBackendPort) -> Result<usize, String> {
    let offered: Vec<String> = svc.spec.ports.iter().map(ServicePort::display).collect();
    let offered = if offered.is_empty() {
        "no ports".to_string()
    } else {
        offered.join(", ")
    };
    if let Some(n) = want.number {
        if let Some(i) = svc.spec.ports.iter().position(|p| p.port == n) {
            return Ok(i);
        }
        let hint = svc
            .spec
            .ports
            .iter()
            .find(|p| p.target() == TargetPort::Number(n) || p.node_port == Some(n))
            .map(|p| {
                if p.node_port == Some(n) {
                    format!("; {n} is the nodePort of Service port {}", p.display())
                } else {
                    format!(
                        "; {n} is the targetPort of Service port {}, the Ingress must name the Service port {}",
                        p.display(),
                        p.port
                    )
                }
            })
            .unwrap_or_default();
        return Err(format!(
            "port number {n}, but the Service offers {offered}{hint}"
        ));
    }
    if let Some(name) = want.name.as_deref().filter(|n| !n.is_empty()) {
        if let Some(i) = svc
            .spec
            .ports
            .iter()
            .position(|p| p.name.as_deref() == Some(name))
        {
            return Ok(i);
        }
        let hint = svc
            .spec
            .ports
            .iter()
            .find(|p| p.target() == TargetPort::Name(name.to_string()))
            .map(|p| {
                format!(
                    "; {name:?} is the targetPort (a container port name) of Service port {}, the Ingress must name the Service port",
                    p.display()
                )
            })
            .unwrap_or_default();
        return Err(format!(
            "port name {name:?}, but the Service offers {offered}{hint}"
        ));
    }
    // networking/v1 requires a port; a single-port Service is the only sane reading.
    if svc.spec.ports.len() == 1 {
        return Ok(0);
    }
    Err(format!("no port, and the Service offers {offered}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn named_target_port_needs_name_and_protocol() {
        let pod: Pod = serde_json::from_value(json!({"spec": {"containers": [
            {"name": "a", "ports": [{"name": "dns", "containerPort": 53, "protocol": "TCP"}]}],
            "initContainers": [{"name": "proxy", "restartPolicy": "Always",
                "ports": [{"name": "admin", "containerPort": 9901}]}]}}))
        .unwrap();
        let sp = |v: Value| -> ServicePort { serde_json::from_value(v).unwrap() };
        assert_eq!(
            resolve(&pod, &sp(json!({"port": 53, "targetPort": "dns"}))),
            Resolve::Port(53)
        );
        assert_eq!(
            resolve(
                &pod,
                &sp(json!({"port": 53, "targetPort": "dns", "protocol": "UDP"}))
            ),
            Resolve::NameOtherProtocol("TCP".into())
        );
        assert_eq!(
            resolve(&pod, &sp(json!({"port": 80, "targetPort": "http"}))),
            Resolve::NameMissing
        );
        // Sidecar (restartable init) containers' ports count.
        assert_eq!(
            resolve(&pod, &sp(json!({"port": 9901, "targetPort": "admin"}))),
            Resolve::Port(9901)
        );
        // A number needs no declared port.
        assert_eq!(
            resolve(&pod, &sp(json!({"port": 80, "targetPort": 8080}))),
            Resolve::Port(8080)
        );
        assert_eq!(resolve(&pod, &sp(json!({"port": 80}))), Resolve::Port(80));
    }

    #[test]
    fn ingress_port_mixups() {
        let svc: Service = serde_json::from_value(json!({"metadata": {"name": "web"},
            "spec": {"ports": [{"name": "http", "port": 80, "targetPort": 8080}]}}))
        .unwrap();
        let want = |v: Value| -> ServiceBackendPort { serde_json::from_value(v).unwrap() };
        assert_eq!(backend_port(&svc, &want(json!({"number": 80}))), Ok(0));
        assert_eq!(backend_port(&svc, &want(json!({"name": "http"}))), Ok(0));
        let err = backend_port(&svc, &want(json!({"number": 8080}))).unwrap_err();
        assert!(err.contains("targetPort"), "{err}");
        assert!(backend_port(&svc, &want(json!({"name": "web"}))).is_err());
    }
}

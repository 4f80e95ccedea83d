//! Shared traffic analysis (not a rule): which pods a Service selects, whether its target
//! ports resolve on them, what its EndpointSlices (else legacy Endpoints) say, which
//! Ingress backends route to it, and the chain of hops a finding cites.
//!
//! Every traffic rule builds one [`Model`] and asks it the same questions, so the
//! Service-level rules can leave a broken Service to the Ingress finding that already
//! carries its whole chain (one finding per broken chain, on the Ingress when there is one).

use crate::kube::meta::{LabelLookup, ObjectRef};
use crate::kube::network::{
    EndpointSlice, Endpoints, Ingress, IngressServiceBackend, Service, ServiceBackendPort,
    ServicePort, TargetPort,
};
use crate::kube::pod::{Container, Pod};
use crate::rules::evidence;
use crate::rules::readiness::analysis;
use crate::rules::{Evidence, Severity};
use crate::snapshot::{ObjectId, Snapshot};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A pod with its id, as the views hand them out.
pub type PodRef<'a> = (ObjectId, &'a Pod);

/// A live pod with its namespace, as the label index holds it.
type NsPod<'a> = (&'a str, ObjectId, &'a Pod);

/// Pods, endpoints, Services and Ingress backends indexed for the traffic rules.
pub struct Model<'a> {
    pub snap: &'a Snapshot,
    pods_by_ns: HashMap<&'a str, Vec<(ObjectId, &'a Pod)>>,
    /// Live pods by (label key, label value), only for the keys Service selectors use.
    pods_by_label: HashMap<&'a str, HashMap<&'a str, Vec<NsPod<'a>>>>,
    indexed_keys: HashSet<&'a str>,
    slices: HashMap<(&'a str, &'a str), Vec<(ObjectId, &'a EndpointSlice)>>,
    endpoints: HashMap<(&'a str, &'a str), (ObjectId, &'a Endpoints)>,
    services: HashMap<(&'a str, &'a str), (ObjectId, &'a Service)>,
    backends: Vec<Backend<'a>>,
    /// The bundle holds EndpointSlice objects (else legacy Endpoints are read).
    pub has_slices: bool,
    pub has_endpoints: bool,
    pub has_pods: bool,
}

/// A pod that holds a live status and is not finished.
fn is_live(pod: &Pod) -> bool {
    !(pod.phase().is_empty() && pod.status.conditions.is_empty() && pod.spec.node_name.is_none())
        && pod.is_active()
}

/// A Service object of the live cluster (not a manifest).
fn is_live_service(s: &Service) -> bool {
    s.metadata.namespace.is_some()
        && (s.metadata.uid.is_some()
            || s.spec.cluster_ip.as_deref().is_some_and(|c| !c.is_empty())
            || s.spec.is_external_name())
}

/// A pod that receives traffic: Ready and not terminating.
pub fn pod_serves(pod: &Pod) -> bool {
    pod.is_ready() && pod.metadata.deletion_timestamp.is_none()
}

/// The pod's IP from its status (the view does not carry it).
fn pod_ip(snap: &Snapshot, id: ObjectId) -> Option<&str> {
    snap.object(id)
        .value()
        .pointer("/status/podIP")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// `1 pod`, `3 pods`.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `app=web, tier=frontend`.
pub fn selector_text(sel: &BTreeMap<String, String>) -> String {
    sel.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn matches(sel: &BTreeMap<String, String>, labels: &impl LabelLookup) -> bool {
    sel.iter().all(|(k, v)| labels.label(k) == Some(v))
}

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
    pod.spec.containers.iter().chain(
        pod.spec
            .init_containers
            .iter()
            .filter(|c| c.restart_policy.as_deref() == Some("Always")),
    )
}

fn proto(p: &Option<String>) -> &str {
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

/// Where a Service's endpoint data came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpSource {
    /// Neither EndpointSlices nor Endpoints are in the bundle.
    NotCollected,
    Slices,
    /// Legacy Endpoints (the bundle has no EndpointSlices).
    Legacy,
}

/// One endpoint as the bundle records it.
#[derive(Clone, Debug)]
pub struct EpEntry {
    pub source: ObjectId,
    pub pod_name: Option<String>,
    pub pod_uid: Option<String>,
    pub address: String,
    pub ready: bool,
    pub serving: bool,
    pub terminating: bool,
    /// Port names of its slice or subset (`""` for an unnamed port).
    pub ports: Vec<String>,
}

impl EpEntry {
    pub fn conditions(&self, source: EpSource) -> String {
        match source {
            EpSource::Legacy => {
                if self.ready {
                    "in addresses (ready)".into()
                } else {
                    "in notReadyAddresses".into()
                }
            }
            _ => format!(
                "ready={} serving={} terminating={}",
                self.ready, self.serving, self.terminating
            ),
        }
    }

    fn is_for(&self, snap: &Snapshot, pod: ObjectId) -> bool {
        let o = snap.object(pod);
        match (&self.pod_uid, &o.uid) {
            (Some(a), Some(b)) => a == b,
            _ => self.pod_name.as_deref() == Some(o.name.as_str()),
        }
    }
}

/// A Service's endpoint objects and their entries.
pub struct EpView {
    pub source: EpSource,
    pub objects: Vec<ObjectId>,
    pub entries: Vec<EpEntry>,
}

impl EpView {
    /// Ready entries that carry the Service port (by name; every entry when `port` is None).
    pub fn ready_for(&self, port: Option<&ServicePort>) -> usize {
        self.entries
            .iter()
            .filter(|e| e.ready && port.is_none_or(|p| e.ports.contains(&port_name(p))))
            .count()
    }

    pub fn entry_for(&self, snap: &Snapshot, pod: ObjectId) -> Option<&EpEntry> {
        self.entries.iter().find(|e| e.is_for(snap, pod))
    }
}

fn port_name(p: &ServicePort) -> String {
    p.name.clone().unwrap_or_default()
}

/// Why a Service port has no endpoint to send traffic to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// No selector and no EndpointSlice/Endpoints made by hand.
    SelectorlessNoEndpoints,
    /// No selector; the hand-made endpoints hold no ready address for the port.
    SelectorlessNoReady,
    /// The selector matches no live pod of the namespace.
    SelectorNoMatch,
    /// Pods are selected, but no pod declares the named targetPort (with the protocol).
    TargetPortUnresolved,
    /// Pods are selected and resolve the port, but none is Ready.
    NoReadyPod,
}

impl Cause {
    pub fn key(&self) -> &'static str {
        match self {
            Cause::SelectorlessNoEndpoints => "selectorless-no-endpoints",
            Cause::SelectorlessNoReady => "selectorless-no-ready",
            Cause::SelectorNoMatch => "selector-no-match",
            Cause::TargetPortUnresolved => "target-port-unresolved",
            Cause::NoReadyPod => "no-ready-pod",
        }
    }
}

/// The state of one Service port, recomputed from the pods.
pub struct PortHealth<'a> {
    pub selected: Vec<(ObjectId, &'a Pod)>,
    pub resolving: Vec<(ObjectId, &'a Pod)>,
    pub serving: Vec<ObjectId>,
    pub cause: Option<Cause>,
}

/// An Ingress backend that names a Service.
pub struct Backend<'a> {
    pub ingress: ObjectId,
    pub ing: &'a Ingress,
    pub service: &'a IngressServiceBackend,
    /// `host shop.example.com path /cart` or `default backend`.
    pub place: String,
    pub default: bool,
}

impl<'a> Model<'a> {
    pub fn new(snap: &'a Snapshot) -> Model<'a> {
        let mut services = HashMap::new();
        let mut indexed_keys: HashSet<&str> = HashSet::new();
        for (id, s) in snap.services() {
            if let Some(ns) = s.metadata.namespace.as_deref()
                && is_live_service(s)
            {
                services.insert((ns, s.metadata.name.as_str()), (*id, s));
                if let Some(sel) = s.spec.selector() {
                    indexed_keys.extend(sel.keys().map(String::as_str));
                }
            }
        }
        let mut pods_by_ns: HashMap<&str, Vec<(ObjectId, &Pod)>> = HashMap::new();
        let mut pods_by_label: HashMap<&str, HashMap<&str, Vec<NsPod>>> = HashMap::new();
        for (id, p) in snap.pods() {
            if let Some(ns) = p.metadata.namespace.as_deref()
                && is_live(p)
            {
                pods_by_ns.entry(ns).or_default().push((*id, p));
                for (k, v) in &p.metadata.labels {
                    if indexed_keys.contains(k.as_str()) {
                        pods_by_label
                            .entry(k.as_str())
                            .or_default()
                            .entry(v.as_str())
                            .or_default()
                            .push((ns, *id, p));
                    }
                }
            }
        }
        let mut slices: HashMap<(&str, &str), Vec<(ObjectId, &EndpointSlice)>> = HashMap::new();
        for (id, s) in snap.endpoint_slices() {
            if let (Some(ns), Some(svc)) = (s.metadata.namespace.as_deref(), s.service_name()) {
                slices.entry((ns, svc)).or_default().push((*id, s));
            }
        }
        let mut endpoints = HashMap::new();
        for (id, e) in snap.endpoints() {
            if let Some(ns) = e.metadata.namespace.as_deref() {
                endpoints.insert((ns, e.metadata.name.as_str()), (*id, e));
            }
        }
        Model {
            snap,
            pods_by_ns,
            pods_by_label,
            indexed_keys,
            slices,
            endpoints,
            services,
            backends: collect_backends(snap),
            has_slices: snap.has_kind("EndpointSlice"),
            has_endpoints: snap.has_kind("Endpoints"),
            has_pods: snap.has_kind("Pod"),
        }
    }

    /// Services of the live cluster: namespaced and carrying a uid or a cluster IP
    /// (manifests and templates in a bundle are not Services that route anything).
    pub fn live_services(&self) -> impl Iterator<Item = (ObjectId, &'a Service)> + 'a {
        self.snap
            .services()
            .iter()
            .filter(|(_, s)| is_live_service(s))
            .map(|(id, s)| (*id, s))
    }

    /// Whether the bundle holds endpoint data (EndpointSlices, else Endpoints) for the
    /// namespace: without it, a missing slice may just not have been collected.
    pub fn has_endpoint_data_in(&self, ns: &str) -> bool {
        if self.has_slices {
            self.slices.keys().any(|(n, _)| *n == ns)
        } else {
            self.endpoints.keys().any(|(n, _)| *n == ns)
        }
    }

    pub fn service(&self, ns: &str, name: &str) -> Option<(ObjectId, &'a Service)> {
        self.services.get(&(ns, name)).copied()
    }

    /// Whether the bundle holds any Service of the namespace.
    pub fn has_services_in(&self, ns: &str) -> bool {
        self.services.keys().any(|(n, _)| *n == ns)
    }

    /// Live pods of a namespace.
    pub fn pods_in(&self, ns: &str) -> &[(ObjectId, &'a Pod)] {
        self.pods_by_ns.get(ns).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Live pods (any namespace) that carry the selector's rarest indexed label, or
    /// `None` when no key of the selector is indexed.
    fn candidates(&self, sel: &BTreeMap<String, String>) -> Option<&[NsPod<'a>]> {
        let mut smallest: Option<&[NsPod<'a>]> = None;
        for (k, v) in sel {
            if !self.indexed_keys.contains(k.as_str()) {
                continue;
            }
            let c = self
                .pods_by_label
                .get(k.as_str())
                .and_then(|values| values.get(v.as_str()))
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            if smallest.is_none_or(|s| c.len() < s.len()) {
                smallest = Some(c);
            }
        }
        smallest
    }

    pub fn selected(&self, ns: &str, sel: &BTreeMap<String, String>) -> Vec<(ObjectId, &'a Pod)> {
        match self.candidates(sel) {
            Some(c) => c
                .iter()
                .filter(|(n, _, p)| *n == ns && matches(sel, &p.metadata.labels))
                .map(|(_, id, p)| (*id, *p))
                .collect(),
            None => self
                .pods_in(ns)
                .iter()
                .filter(|(_, p)| matches(sel, &p.metadata.labels))
                .copied()
                .collect(),
        }
    }

    /// Namespaces (other than `ns`) holding live pods that the selector matches.
    pub fn other_namespaces(
        &self,
        ns: &str,
        sel: &BTreeMap<String, String>,
    ) -> Vec<(String, usize)> {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        let mut add = |n: &'a str, p: &Pod| {
            if n != ns && matches(sel, &p.metadata.labels) {
                *counts.entry(n).or_default() += 1;
            }
        };
        match self.candidates(sel) {
            Some(c) => c.iter().for_each(|(n, _, p)| add(n, p)),
            None => self
                .pods_by_ns
                .iter()
                .for_each(|(n, pods)| pods.iter().for_each(|(_, p)| add(n, p))),
        }
        counts
            .into_iter()
            .map(|(n, c)| (n.to_string(), c))
            .collect()
    }

    /// The Service's endpoint data: its EndpointSlices, else (when the bundle has no
    /// EndpointSlices at all) its legacy Endpoints.
    pub fn endpoints_of(&self, ns: &str, svc: &str) -> EpView {
        if self.has_slices {
            let slices = self.slices.get(&(ns, svc)).cloned().unwrap_or_default();
            let mut entries = Vec::new();
            for (id, s) in &slices {
                let ports: Vec<String> = s
                    .ports
                    .iter()
                    .map(|p| p.name.clone().unwrap_or_default())
                    .collect();
                for e in &s.endpoints {
                    entries.push(EpEntry {
                        source: *id,
                        pod_name: e.target_ref.as_ref().map(|t| t.name.clone()),
                        pod_uid: e.target_ref.as_ref().and_then(|t| t.uid.clone()),
                        address: e.addresses.first().cloned().unwrap_or_default(),
                        ready: e.conditions.is_ready(),
                        serving: e.conditions.is_serving(),
                        terminating: e.conditions.is_terminating(),
                        ports: ports.clone(),
                    });
                }
            }
            return EpView {
                source: EpSource::Slices,
                objects: slices.iter().map(|(id, _)| *id).collect(),
                entries,
            };
        }
        if self.has_endpoints {
            let mut entries = Vec::new();
            let mut objects = Vec::new();
            if let Some((id, e)) = self.endpoints.get(&(ns, svc)) {
                objects.push(*id);
                for sub in &e.subsets {
                    let ports: Vec<String> = sub
                        .ports
                        .iter()
                        .map(|p| p.name.clone().unwrap_or_default())
                        .collect();
                    for (list, ready) in [(&sub.addresses, true), (&sub.not_ready_addresses, false)]
                    {
                        for a in list {
                            entries.push(EpEntry {
                                source: *id,
                                pod_name: a.target_ref.as_ref().map(|t| t.name.clone()),
                                pod_uid: a.target_ref.as_ref().and_then(|t| t.uid.clone()),
                                address: a.ip.clone(),
                                ready,
                                serving: ready,
                                terminating: false,
                                ports: ports.clone(),
                            });
                        }
                    }
                }
            }
            return EpView {
                source: EpSource::Legacy,
                objects,
                entries,
            };
        }
        EpView {
            source: EpSource::NotCollected,
            objects: Vec::new(),
            entries: Vec::new(),
        }
    }

    /// Recomputes one Service port (`None`: the Service has no ports) from the pods.
    pub fn port_health(&self, svc: &'a Service, port: Option<&ServicePort>) -> PortHealth<'a> {
        let ns = svc.metadata.namespace.as_deref().unwrap_or("");
        let mut h = PortHealth {
            selected: Vec::new(),
            resolving: Vec::new(),
            serving: Vec::new(),
            cause: None,
        };
        if svc.spec.is_external_name() {
            return h;
        }
        let Some(sel) = svc.spec.selector() else {
            let view = self.endpoints_of(ns, &svc.metadata.name);
            h.cause = match view.source {
                EpSource::NotCollected => None,
                _ if view.objects.is_empty() => Some(Cause::SelectorlessNoEndpoints),
                _ if view.ready_for(port) == 0 => Some(Cause::SelectorlessNoReady),
                _ => None,
            };
            return h;
        };
        if !self.has_pods {
            return h;
        }
        h.selected = self.selected(ns, sel);
        if h.selected.is_empty() {
            h.cause = Some(Cause::SelectorNoMatch);
            return h;
        }
        h.resolving = match port {
            Some(p) if !svc.spec.is_headless() => h
                .selected
                .iter()
                .filter(|(_, pod)| matches!(resolve(pod, p), Resolve::Port(_)))
                .copied()
                .collect(),
            _ => h.selected.clone(),
        };
        if h.resolving.is_empty() {
            h.cause = Some(Cause::TargetPortUnresolved);
            return h;
        }
        h.serving = h
            .resolving
            .iter()
            .filter(|(id, pod)| {
                if svc.spec.publish_not_ready_addresses {
                    pod_ip(self.snap, *id).is_some()
                } else {
                    pod_serves(pod)
                }
            })
            .map(|(id, _)| *id)
            .collect();
        if h.serving.is_empty() {
            h.cause = Some(Cause::NoReadyPod);
        }
        h
    }

    /// The Service's ports, or one `None` when it has none (headless without ports).
    pub fn ports_of(svc: &Service) -> Vec<Option<&ServicePort>> {
        if svc.spec.ports.is_empty() {
            vec![None]
        } else {
            svc.spec.ports.iter().map(Some).collect()
        }
    }

    /// Every Ingress backend that names a Service (rules' paths, then the default backend).
    pub fn backends(&self) -> &[Backend<'a>] {
        &self.backends
    }

    /// Whether an Ingress routes to this Service port (any port when `port` is None)
    /// through a backend whose port resolves: then the Ingress finding carries the chain.
    pub fn routed_by_ingress(&self, svc: &Service, port: Option<usize>) -> bool {
        let ns = svc.metadata.namespace.as_deref();
        self.backends().iter().any(|b| {
            b.ing.metadata.namespace.as_deref() == ns
                && b.service.name == svc.metadata.name
                && backend_port(svc, &b.service.port).is_ok_and(|i| port.is_none_or(|p| p == i))
        })
    }
}

/// Every Ingress backend that names a Service (rules' paths, then the default backend).
fn collect_backends(snap: &Snapshot) -> Vec<Backend<'_>> {
    let mut out = Vec::new();
    for (id, ing) in snap.ingresses() {
        // Manifests (no namespace, never stored by an API server) route nothing.
        if ing.metadata.namespace.is_none()
            || (ing.metadata.uid.is_none() && ing.metadata.creation_timestamp.is_none())
        {
            continue;
        }
        for rule in &ing.spec.rules {
            let host = rule
                .host
                .as_deref()
                .filter(|h| !h.is_empty())
                .unwrap_or("*");
            for path in rule.http.iter().flat_map(|h| h.paths.iter()) {
                if let Some(s) = &path.backend.service {
                    out.push(Backend {
                        ingress: *id,
                        ing,
                        service: s,
                        place: format!("host {host} path {}", path.path.as_deref().unwrap_or("/")),
                        default: false,
                    });
                }
            }
        }
        if let Some(s) = ing
            .spec
            .default_backend
            .as_ref()
            .and_then(|b| b.service.as_ref())
        {
            out.push(Backend {
                ingress: *id,
                ing,
                service: s,
                place: "the default backend".into(),
                default: true,
            });
        }
    }
    out
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

/// Levenshtein distance (label values and keys are short).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Two label keys or values that look like a typo of each other.
pub fn similar(a: &str, b: &str) -> bool {
    if a == b {
        return false;
    }
    if a.eq_ignore_ascii_case(b) {
        return true;
    }
    let shortest = a.chars().count().min(b.chars().count());
    distance(a, b) <= (shortest / 3).max(1)
}

/// A pod that the selector misses by one label.
pub struct NearMiss {
    pub pod: ObjectId,
    /// `has app=payments, the selector wants app=payment`.
    pub diff: String,
}

/// Pods of the namespace that fail exactly one selector requirement in a way that looks
/// like a typo (a similar value or key), or (for selectors of two or more labels) that
/// match every other label and just lack one.
pub fn near_misses(model: &Model, ns: &str, sel: &BTreeMap<String, String>) -> Vec<NearMiss> {
    let mut out = Vec::new();
    for (id, pod) in model.pods_in(ns) {
        let labels = &pod.metadata.labels;
        let failing: Vec<(&String, &String)> = sel
            .iter()
            .filter(|(k, v)| labels.get(*k) != Some(*v))
            .collect();
        let [(k, v)] = failing.as_slice() else {
            continue;
        };
        let diff = match labels.get(*k) {
            Some(have) if similar(have, v) => {
                Some(format!("has {k}={have}, the selector wants {k}={v}"))
            }
            Some(_) => None,
            None => labels
                .iter()
                .find(|(k2, v2)| *v2 == *v && similar(k2, k))
                .map(|(k2, _)| format!("has {k2}={v}, the selector wants {k}={v}"))
                .or_else(|| {
                    (sel.len() >= 2).then(|| format!("lacks label {k}={v} (matches the rest)"))
                }),
        };
        if let Some(diff) = diff {
            out.push(NearMiss { pod: *id, diff });
        }
    }
    out
}

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
    let sel_text = svc.spec.selector().map(selector_text);
    // Service: the port line, then the selector line.
    if let Some(p) = port {
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
    let clause = match &sel_text {
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
    };
    // EndpointSlices (or Endpoints), with the conditions of each selected pod's endpoint.
    let view = model.endpoints_of(ns, &svc.metadata.name);
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
                    "no EndpointSlice labelled kubernetes.io/service-name={} in the bundle",
                    svc.metadata.name
                )
            } else {
                format!(
                    "no Endpoints object {} in the bundle (it has no EndpointSlices, so legacy Endpoints were read)",
                    svc.metadata.name
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
    // Pods and, for each, why it does not serve (its probe event).
    let pods: Vec<&(ObjectId, &Pod)> = match cause {
        Some(Cause::TargetPortUnresolved) => h.selected.iter().collect(),
        _ => h.selected.iter().filter(|(_, p)| !pod_serves(p)).collect(),
    };
    let mut reasons = Vec::new();
    for (i, (pid, pod)) in pods.iter().enumerate() {
        if i >= CHAIN_PODS {
            break;
        }
        let name = &snap.object(*pid).name;
        if cause == Some(&Cause::TargetPortUnresolved) {
            let p = port.expect("a targetPort cause has a port");
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
                    *pid,
                    &["spec", "containers"],
                    format!("pod {name} {why}"),
                ),
                "broken",
            );
            reasons.push(format!("{name} {why}"));
            continue;
        }
        let (text, evs) = analysis::pod_summary(snap, *pid, pod)
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

/// Headless Services never carry an `error`: they have no virtual IP to black-hole.
pub fn cap_for(svc: &Service, sev: Severity) -> Severity {
    if svc.spec.is_headless() && sev == Severity::Error {
        Severity::Warning
    } else {
        sev
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos() {
        assert!(similar("payment", "payments"));
        assert!(similar("v1", "v2"));
        assert!(similar("Web", "web"));
        assert!(!similar("web", "api"));
        assert!(!similar("frontend", "backend"));
        assert!(!similar("web", "web"));
        assert_eq!(distance("kitten", "sitting"), 3);
    }

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

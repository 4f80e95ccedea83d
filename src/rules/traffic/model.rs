//! Shared traffic analysis (not a rule): which pods a Service selects, what its
//! EndpointSlices (else legacy Endpoints) say, and which Ingress backends route to it.
//! How target ports resolve is in [`super::ports`], selector typos in
//! [`super::near_miss`], and the chain of hops a finding cites in [`super::hops`].
//!
//! Every traffic rule builds one [`Model`] and asks it the same questions, so the
//! Service-level rules can leave a broken Service to the Ingress finding that already
//! carries its whole chain (one finding per broken chain, on the Ingress when there is one).

use super::ports::{Resolve, backend_port, resolve};
use crate::kube::meta::LabelLookup;
use crate::kube::network::{
    EndpointSlice, Endpoints, Ingress, IngressServiceBackend, Service, ServicePort,
};
use crate::kube::pod::Pod;
use crate::rules::Severity;
use crate::snapshot::{ObjectId, Snapshot};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use serde_json::Value;
use std::collections::BTreeMap;

/// A pod with its id, as the views hand them out.
pub type PodRef<'a> = (ObjectId, &'a Pod);

/// A live pod with its namespace, as the label index holds it.
type NsPod<'a> = (&'a str, ObjectId, &'a Pod);

/// Pods, endpoints, Services and Ingress backends indexed for the traffic rules.
pub struct Model<'a> {
    pub snap: &'a Snapshot,
    pods_by_ns: HashMap<&'a str, Vec<(ObjectId, &'a Pod)>>,
    /// Live pods by (label key, label value), only for the keys Service selectors use;
    /// each list is grouped by namespace (in id order within one), so a Service's
    /// candidates are one binary search away, not a walk over every namespace's pods
    /// with a common label value (`app: web` in hundreds of namespaces).
    pods_by_label: HashMap<&'a str, HashMap<&'a str, Vec<NsPod<'a>>>>,
    indexed_keys: HashSet<&'a str>,
    slices: HashMap<(&'a str, &'a str), Vec<(ObjectId, &'a EndpointSlice)>>,
    endpoints: HashMap<(&'a str, &'a str), (ObjectId, &'a Endpoints)>,
    /// Namespaces holding endpoint data of the kind read (slices, else Endpoints).
    endpoint_namespaces: HashSet<&'a str>,
    services: HashMap<(&'a str, &'a str), (ObjectId, &'a Service)>,
    service_namespaces: HashSet<&'a str>,
    backends: Vec<Backend<'a>>,
    /// Indexes into `backends` by the (namespace, Service name) they route to.
    backends_by_service: HashMap<(&'a str, &'a str), Vec<usize>>,
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
    sel.iter().all(|(k, v)| labels.label(k) == Some(v.as_str()))
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

/// The traffic rules' shared [`Model`], built once per run ([`crate::rules::Context::model`]).
pub struct Traffic;

impl crate::rules::Model for Traffic {
    type Of<'a> = Model<'a>;
    fn build(snapshot: &Snapshot) -> Model<'_> {
        Model::new(snapshot)
    }
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
        for values in pods_by_label.values_mut() {
            for pods in values.values_mut() {
                // Stable: ids stay in order within a namespace.
                pods.sort_by_key(|(ns, _, _)| *ns);
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
        let has_slices = snap.has_kind("EndpointSlice");
        let endpoint_namespaces = if has_slices {
            slices.keys().map(|(ns, _)| *ns).collect()
        } else {
            endpoints.keys().map(|(ns, _)| *ns).collect()
        };
        let service_namespaces = services.keys().map(|(ns, _)| *ns).collect();
        let backends = collect_backends(snap);
        let mut backends_by_service: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
        for (i, b) in backends.iter().enumerate() {
            if let Some(ns) = b.ing.metadata.namespace.as_deref() {
                backends_by_service
                    .entry((ns, b.service.name.as_str()))
                    .or_default()
                    .push(i);
            }
        }
        Model {
            snap,
            pods_by_ns,
            pods_by_label,
            indexed_keys,
            slices,
            endpoints,
            endpoint_namespaces,
            services,
            service_namespaces,
            backends,
            backends_by_service,
            has_slices,
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
        self.endpoint_namespaces.contains(ns)
    }

    pub fn service(&self, ns: &str, name: &str) -> Option<(ObjectId, &'a Service)> {
        self.services.get(&(ns, name)).copied()
    }

    /// Whether the bundle holds any Service of the namespace.
    pub fn has_services_in(&self, ns: &str) -> bool {
        self.service_namespaces.contains(ns)
    }

    /// Live pods of a namespace.
    pub fn pods_in(&self, ns: &str) -> &[(ObjectId, &'a Pod)] {
        self.pods_by_ns.get(ns).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Live pods that carry the selector's rarest indexed label, of namespace `ns` only
    /// when it is given (else of every namespace, grouped by namespace), or `None` when
    /// no key of the selector is indexed.
    fn candidates(&self, sel: &BTreeMap<String, String>, ns: Option<&str>) -> Option<&[NsPod<'a>]> {
        let mut smallest: Option<&[NsPod<'a>]> = None;
        for (k, v) in sel {
            if !self.indexed_keys.contains(k.as_str()) {
                continue;
            }
            let all = self
                .pods_by_label
                .get(k.as_str())
                .and_then(|values| values.get(v.as_str()))
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            let c = match ns {
                Some(ns) => {
                    let start = all.partition_point(|(n, _, _)| *n < ns);
                    let len = all[start..].partition_point(|(n, _, _)| *n == ns);
                    &all[start..start + len]
                }
                None => all,
            };
            if smallest.is_none_or(|s| c.len() < s.len()) {
                smallest = Some(c);
            }
        }
        smallest
    }

    pub fn selected(&self, ns: &str, sel: &BTreeMap<String, String>) -> Vec<(ObjectId, &'a Pod)> {
        match self.candidates(sel, Some(ns)) {
            Some(c) => c
                .iter()
                .filter(|(_, _, p)| matches(sel, &p.metadata.labels))
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
        match self.candidates(sel, None) {
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
        let Some(ns) = svc.metadata.namespace.as_deref() else {
            return false;
        };
        let routes = self
            .backends_by_service
            .get(&(ns, svc.metadata.name.as_str()))
            .map_or(&[][..], Vec::as_slice);
        routes.iter().any(|&i| {
            backend_port(svc, &self.backends[i].service.port)
                .is_ok_and(|i| port.is_none_or(|p| p == i))
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

/// Headless Services never carry an `error`: they have no virtual IP to black-hole.
pub fn cap_for(svc: &Service, sev: Severity) -> Severity {
    if svc.spec.is_headless() && sev == Severity::Error {
        Severity::Warning
    } else {
        sev
    }
}

//! Traffic views: Service, EndpointSlice, Endpoints, Ingress.

use super::meta::{ObjectMeta, null_default, null_vec};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Service {
    pub metadata: ObjectMeta,
    pub spec: ServiceSpec,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ServiceSpec {
    /// `None`: no selector (endpoints managed by hand); `Some(empty)` as written.
    pub selector: Option<BTreeMap<String, String>>,
    #[serde(deserialize_with = "null_vec")]
    pub ports: Vec<ServicePort>,
    #[serde(rename = "type")]
    pub type_: Option<String>,
    #[serde(rename = "clusterIP")]
    pub cluster_ip: Option<String>,
    pub external_name: Option<String>,
    #[serde(deserialize_with = "null_default")]
    pub publish_not_ready_addresses: bool,
}

impl ServiceSpec {
    /// `type: ExternalName`: a DNS alias, no endpoints.
    pub fn is_external_name(&self) -> bool {
        self.type_.as_deref() == Some("ExternalName")
    }

    /// `clusterIP: None`.
    pub fn is_headless(&self) -> bool {
        self.cluster_ip.as_deref() == Some("None")
    }

    /// The selector when it selects (absent or empty: endpoints are managed by hand).
    pub fn selector(&self) -> Option<&BTreeMap<String, String>> {
        self.selector.as_ref().filter(|s| !s.is_empty())
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ServicePort {
    pub name: Option<String>,
    pub port: i64,
    /// Number or port name; absent means `port`.
    pub target_port: Option<Value>,
    pub protocol: Option<String>,
    pub node_port: Option<i64>,
}

/// A `targetPort` as written: a number, or a port name (looked up in the pods).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetPort {
    Number(i64),
    Name(String),
}

impl ServicePort {
    /// `TCP` unless written.
    pub fn protocol(&self) -> &str {
        self.protocol
            .as_deref()
            .filter(|p| !p.is_empty())
            .unwrap_or("TCP")
    }

    /// The target port; absent means the same number as `port`.
    pub fn target(&self) -> TargetPort {
        match &self.target_port {
            Some(Value::Number(n)) => TargetPort::Number(n.as_i64().unwrap_or(0)),
            Some(Value::String(s)) if !s.is_empty() => match s.parse::<i64>() {
                Ok(n) => TargetPort::Number(n),
                Err(_) => TargetPort::Name(s.clone()),
            },
            _ => TargetPort::Number(self.port),
        }
    }

    /// `http (80/TCP)` or `80/TCP`.
    pub fn display(&self) -> String {
        match self.name.as_deref().filter(|n| !n.is_empty()) {
            Some(n) => format!("{n} ({}/{})", self.port, self.protocol()),
            None => format!("{}/{}", self.port, self.protocol()),
        }
    }
}

impl std::fmt::Display for TargetPort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TargetPort::Number(n) => write!(f, "{n}"),
            TargetPort::Name(s) => write!(f, "{s}"),
        }
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EndpointSlice {
    pub metadata: ObjectMeta,
    pub address_type: Option<String>,
    #[serde(deserialize_with = "null_vec")]
    pub endpoints: Vec<Endpoint>,
    #[serde(deserialize_with = "null_vec")]
    pub ports: Vec<EndpointPort>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Endpoint {
    #[serde(deserialize_with = "null_vec")]
    pub addresses: Vec<String>,
    pub conditions: EndpointConditions,
    pub target_ref: Option<TargetRef>,
    pub node_name: Option<String>,
    pub hostname: Option<String>,
    pub zone: Option<String>,
}

/// `nil` ready/serving mean true, `nil` terminating means false (discovery/v1).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct EndpointConditions {
    pub ready: Option<bool>,
    pub serving: Option<bool>,
    pub terminating: Option<bool>,
}

impl EndpointConditions {
    pub fn is_ready(&self) -> bool {
        self.ready.unwrap_or(true)
    }

    /// `nil` serving means true.
    pub fn is_serving(&self) -> bool {
        self.serving.unwrap_or(true)
    }

    /// `nil` terminating means false.
    pub fn is_terminating(&self) -> bool {
        self.terminating.unwrap_or(false)
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct TargetRef {
    pub kind: Option<String>,
    pub namespace: Option<String>,
    pub name: String,
    pub uid: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct EndpointPort {
    pub name: Option<String>,
    pub port: Option<i64>,
    pub protocol: Option<String>,
}

impl EndpointSlice {
    /// The Service this slice belongs to (`kubernetes.io/service-name`).
    pub fn service_name(&self) -> Option<&str> {
        self.metadata
            .labels
            .get("kubernetes.io/service-name")
            .map(|s| s.as_str())
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Endpoints {
    pub metadata: ObjectMeta,
    #[serde(deserialize_with = "null_vec")]
    pub subsets: Vec<EndpointSubset>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EndpointSubset {
    #[serde(deserialize_with = "null_vec")]
    pub addresses: Vec<EndpointAddress>,
    #[serde(deserialize_with = "null_vec")]
    pub not_ready_addresses: Vec<EndpointAddress>,
    #[serde(deserialize_with = "null_vec")]
    pub ports: Vec<EndpointPort>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EndpointAddress {
    pub ip: String,
    pub target_ref: Option<TargetRef>,
    pub node_name: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Ingress {
    pub metadata: ObjectMeta,
    pub spec: IngressSpec,
    pub status: IngressStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct IngressStatus {
    pub load_balancer: LoadBalancerStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct LoadBalancerStatus {
    /// Addresses a controller published (`ip` / `hostname`).
    #[serde(deserialize_with = "null_vec")]
    pub ingress: Vec<Value>,
}

impl Ingress {
    /// The class: `spec.ingressClassName`, else the deprecated `kubernetes.io/ingress.class` annotation.
    pub fn class_name(&self) -> Option<&str> {
        self.spec
            .ingress_class_name
            .as_deref()
            .or_else(|| self.metadata.annotation("kubernetes.io/ingress.class"))
            .filter(|c| !c.is_empty())
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct IngressSpec {
    pub ingress_class_name: Option<String>,
    pub default_backend: Option<IngressBackend>,
    #[serde(deserialize_with = "null_vec")]
    pub rules: Vec<IngressRule>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct IngressRule {
    pub host: Option<String>,
    pub http: Option<HttpRule>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct HttpRule {
    #[serde(deserialize_with = "null_vec")]
    pub paths: Vec<IngressPath>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct IngressPath {
    pub path: Option<String>,
    pub path_type: Option<String>,
    pub backend: IngressBackend,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct IngressBackend {
    pub service: Option<IngressServiceBackend>,
    pub resource: Option<Value>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct IngressServiceBackend {
    pub name: String,
    pub port: ServiceBackendPort,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct ServiceBackendPort {
    pub name: Option<String>,
    pub number: Option<i64>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct IngressClass {
    pub metadata: ObjectMeta,
    pub spec: IngressClassSpec,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct IngressClassSpec {
    pub controller: Option<String>,
}

impl IngressClass {
    /// Marked as the cluster default (`ingressclass.kubernetes.io/is-default-class: "true"`).
    pub fn is_default(&self) -> bool {
        self.metadata
            .annotation("ingressclass.kubernetes.io/is-default-class")
            .is_some_and(|v| v == "true")
    }
}

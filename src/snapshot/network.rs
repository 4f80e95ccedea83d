//! Traffic views: Service, EndpointSlice, Endpoints, Ingress.

use super::meta::ObjectMeta;
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
    pub ports: Vec<ServicePort>,
    #[serde(rename = "type")]
    pub type_: Option<String>,
    #[serde(rename = "clusterIP")]
    pub cluster_ip: Option<String>,
    pub external_name: Option<String>,
    pub publish_not_ready_addresses: bool,
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

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EndpointSlice {
    pub metadata: ObjectMeta,
    pub address_type: Option<String>,
    pub endpoints: Vec<Endpoint>,
    pub ports: Vec<EndpointPort>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Endpoint {
    pub addresses: Vec<String>,
    pub conditions: EndpointConditions,
    pub target_ref: Option<TargetRef>,
    pub node_name: Option<String>,
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
            .map(String::as_str)
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Endpoints {
    pub metadata: ObjectMeta,
    pub subsets: Vec<EndpointSubset>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EndpointSubset {
    pub addresses: Vec<EndpointAddress>,
    pub not_ready_addresses: Vec<EndpointAddress>,
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
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct IngressSpec {
    pub ingress_class_name: Option<String>,
    pub default_backend: Option<IngressBackend>,
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

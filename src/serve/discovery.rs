//! Discovery, built from [`Resources`]: `/api`, `/apis`, `/api/v1`, `/apis/G`, `/apis/G/V`
//! and aggregated discovery (`as=APIGroupDiscoveryList`, v2 and v2beta1), which kubectl
//! asks first and Headlamp and client-go fall back from.

use super::answer::Answer;
use super::request::Request;
use super::resources::{Resource, Resources};
use serde_json::{Value, json};

const AGGREGATED_V2: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
const AGGREGATED_V2BETA1: &str =
    "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";

/// `/api`: the core group's versions, or its aggregated form.
pub fn core_versions(resources: &Resources, req: &Request, addr: &str) -> Answer {
    if let Some(v) = req.wants_aggregated() {
        return aggregated(resources, v, true);
    }
    Answer::json(&json!({
        "kind": "APIVersions",
        "versions": ["v1"],
        "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": addr}],
    }))
}

/// `/apis`: every named group, or their aggregated form.
pub fn groups(resources: &Resources, req: &Request) -> Answer {
    if let Some(v) = req.wants_aggregated() {
        return aggregated(resources, v, false);
    }
    let groups: Vec<Value> = resources
        .groups()
        .into_iter()
        .filter(|(g, _)| !g.is_empty())
        .map(|(g, versions)| group_json(&g, &versions))
        .collect();
    Answer::json(&json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}))
}

/// `/apis/G`: one group.
pub fn group(resources: &Resources, name: &str) -> Answer {
    match resources
        .groups()
        .into_iter()
        .find(|(g, _)| g == name && !g.is_empty())
    {
        Some((g, versions)) => {
            let mut v = group_json(&g, &versions);
            v["kind"] = json!("APIGroup");
            v["apiVersion"] = json!("v1");
            Answer::json(&v)
        }
        None => Answer::no_route(&format!("/apis/{name}")),
    }
}

/// `/api/v1` and `/apis/G/V`: the resources served at one version.
pub fn resource_list(resources: &Resources, group: &str, version: &str) -> Answer {
    let mut out = Vec::new();
    for r in resources.at(group, version) {
        let mut entry = json!({
            "name": r.plural,
            "singularName": r.singular,
            "namespaced": r.namespaced,
            "kind": r.kind,
            "verbs": r.verbs(),
        });
        if !r.short_names.is_empty() {
            entry["shortNames"] = json!(r.short_names);
        }
        if !r.categories.is_empty() {
            entry["categories"] = json!(r.categories);
        }
        out.push(entry);
        for sub in r.subresources() {
            out.push(json!({
                "name": format!("{}/{sub}", r.plural),
                "singularName": "",
                "namespaced": r.namespaced,
                "kind": r.kind,
                "verbs": ["get"],
            }));
        }
    }
    if out.is_empty() {
        let path = if group.is_empty() {
            format!("/api/{version}")
        } else {
            format!("/apis/{group}/{version}")
        };
        return Answer::no_route(&path);
    }
    Answer::json(&json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": group_version(group, version),
        "resources": out,
    }))
}

fn group_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    }
}

fn group_json(group: &str, versions: &[String]) -> Value {
    let entries: Vec<Value> = versions
        .iter()
        .map(|v| json!({"groupVersion": group_version(group, v), "version": v}))
        .collect();
    json!({"name": group, "versions": entries, "preferredVersion": entries[0].clone()})
}

/// The aggregated discovery document of the core group (`core`) or of every named group.
fn aggregated(resources: &Resources, version: &str, core: bool) -> Answer {
    let items: Vec<Value> = resources
        .groups()
        .into_iter()
        .filter(|(g, _)| g.is_empty() == core)
        .map(|(g, versions)| {
            let versions: Vec<Value> = versions
                .iter()
                .map(|v| {
                    let rs: Vec<Value> = resources
                        .at(&g, v)
                        .map(|r| aggregated_resource(r, v))
                        .collect();
                    json!({"version": v, "resources": rs, "freshness": "Current"})
                })
                .collect();
            json!({"metadata": {"name": g, "creationTimestamp": null}, "versions": versions})
        })
        .collect();
    let (content_type, api_version) = if version == "v2" {
        (AGGREGATED_V2, "apidiscovery.k8s.io/v2")
    } else {
        (AGGREGATED_V2BETA1, "apidiscovery.k8s.io/v2beta1")
    };
    Answer::json_as(
        200,
        content_type,
        &json!({
            "kind": "APIGroupDiscoveryList",
            "apiVersion": api_version,
            "metadata": {},
            "items": items,
        }),
    )
}

fn aggregated_resource(r: &Resource, version: &str) -> Value {
    let kind = json!({"group": r.group, "version": version, "kind": r.kind});
    let mut v = json!({
        "resource": r.plural,
        "responseKind": kind,
        "scope": if r.namespaced { "Namespaced" } else { "Cluster" },
        "singularResource": r.singular,
        "verbs": r.verbs(),
    });
    if !r.short_names.is_empty() {
        v["shortNames"] = json!(r.short_names);
    }
    if !r.categories.is_empty() {
        v["categories"] = json!(r.categories);
    }
    let subs: Vec<Value> = r
        .subresources()
        .iter()
        .map(|s| json!({"subresource": s, "responseKind": {"group": "", "version": "v1", "kind": "Pod"}, "verbs": ["get"]}))
        .collect();
    if !subs.is_empty() {
        v["subresources"] = json!(subs);
    }
    v
}

/// `/openapi/v2` and `/openapi/v3`: not served (kubectl explain says so cleanly).
pub fn openapi(path: &str) -> Answer {
    Answer::status(
        404,
        "NotFound",
        format!("{path}: kdiag serve does not serve OpenAPI schemas (a support bundle holds none)"),
    )
}

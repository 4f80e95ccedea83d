//! Who uses a Service besides Ingresses (not a rule): OpenShift Routes, admission webhook
//! configurations (`webhooks[].clientConfig.service`), APIServices (`spec.service`) and
//! CRD conversion webhooks. A Service none of them names, that no workload is meant to
//! back, is unused rather than broken. Also what the platform says about a namespace
//! (Infrastructure's platform, the ClusterOperator that owns the namespace), cited only as
//! corroboration.

use crate::kube::meta::condition;
use crate::kube::openshift::{
    ApiService, ClusterOperator, Infrastructure, Route, ServiceReference, WebhookConfiguration,
};
use crate::rules::Evidence;
use crate::rules::evidence;
use crate::snapshot::{ObjectId, Snapshot};
use serde::Deserialize;

/// One object that names the Service, and how.
pub struct User {
    pub id: ObjectId,
    /// "Route openshift-console/console", "ValidatingWebhookConfiguration x (webhook y)".
    pub what: String,
}

fn names(r: &ServiceReference, ns: &str, name: &str) -> bool {
    r.name == name && r.namespace.as_deref() == Some(ns)
}

/// A CRD's conversion webhook (`spec.conversion.webhook.clientConfig.service`).
#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Crd {
    spec: CrdSpec,
}

#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct CrdSpec {
    conversion: Option<CrdConversion>,
}

#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct CrdConversion {
    webhook: Option<crate::kube::openshift::Webhook>,
}

/// Objects of `group`/`kind` read as `T`.
fn all<'a, T: serde::de::DeserializeOwned>(
    snap: &'a Snapshot,
    group: &str,
    kind: &str,
) -> impl Iterator<Item = (ObjectId, T)> + 'a {
    snap.ids_of_group(group, kind)
        .to_vec()
        .into_iter()
        .filter_map(move |id| snap.object(id).deserialize::<T>().ok().map(|v| (id, v)))
}

/// Every object of the bundle (other than Ingresses) that sends requests to Service
/// `ns/name`, in a stable order.
pub fn users(snap: &Snapshot, ns: &str, name: &str) -> Vec<User> {
    let mut out = Vec::new();
    for (id, r) in all::<Route>(snap, "route.openshift.io", "Route") {
        if r.metadata.namespace.as_deref() == Some(ns) && r.services().any(|s| s == name) {
            out.push(User {
                id,
                what: format!("Route {ns}/{}", r.metadata.name),
            });
        }
    }
    for kind in [
        "MutatingWebhookConfiguration",
        "ValidatingWebhookConfiguration",
    ] {
        for (id, w) in all::<WebhookConfiguration>(snap, "admissionregistration.k8s.io", kind) {
            let hooks: Vec<&str> = w
                .webhooks
                .iter()
                .filter(|h| {
                    h.client_config
                        .service
                        .as_ref()
                        .is_some_and(|s| names(s, ns, name))
                })
                .map(|h| h.name.as_str())
                .collect();
            if !hooks.is_empty() {
                out.push(User {
                    id,
                    what: format!("{kind} {} (webhook {})", w.metadata.name, hooks.join(", ")),
                });
            }
        }
    }
    for (id, a) in all::<ApiService>(snap, "apiregistration.k8s.io", "APIService") {
        if a.spec.service.as_ref().is_some_and(|s| names(s, ns, name)) {
            out.push(User {
                id,
                what: format!("APIService {}", a.metadata.name),
            });
        }
    }
    for (id, c) in all::<Crd>(snap, "apiextensions.k8s.io", "CustomResourceDefinition") {
        let hit = c
            .spec
            .conversion
            .as_ref()
            .and_then(|c| c.webhook.as_ref())
            .and_then(|w| w.client_config.service.as_ref())
            .is_some_and(|s| names(s, ns, name));
        if hit {
            out.push(User {
                id,
                what: format!(
                    "CustomResourceDefinition {} (conversion webhook)",
                    snap.object(id).name
                ),
            });
        }
    }
    out
}

/// `status.relatedObjects` of a ClusterOperator: the namespaces it owns.
#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct RelatedObjects {
    status: RelatedStatus,
}

#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct RelatedStatus {
    related_objects: Vec<Related>,
}

#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Related {
    group: String,
    resource: String,
    name: String,
}

/// What the platform says about namespace `ns`, as clauses ("the cluster's platform is
/// None", "ClusterOperator machine-api is Available=True (…)") with their evidence: when a
/// ClusterOperator lists `ns` among its related objects, the Infrastructure's platform and
/// that operator's Available condition. Empty otherwise (a namespace no operator owns, or
/// not an OpenShift bundle).
pub fn platform_context(snap: &Snapshot, ns: &str) -> (Vec<String>, Vec<Evidence>) {
    let mut said = Vec::new();
    let mut ev = Vec::new();
    // The ClusterOperator that owns the namespace; without one the platform says nothing
    // about it.
    let owner =
        snap.ids_of_group("config.openshift.io", "ClusterOperator")
            .iter()
            .copied()
            .find(|&id| {
                snap.object(id)
                    .deserialize::<RelatedObjects>()
                    .is_ok_and(|rel| {
                        rel.status.related_objects.iter().any(|r| {
                            r.group.is_empty() && r.resource == "namespaces" && r.name == ns
                        })
                    })
            });
    let Some(owner) = owner else {
        return (said, ev);
    };
    let infra = all::<Infrastructure>(snap, "config.openshift.io", "Infrastructure")
        .find(|(_, i)| i.metadata.name == "cluster");
    if let Some((id, i)) = infra
        && let Some(p) = i.platform()
    {
        said.push(format!("the cluster's platform is {p}"));
        ev.push(evidence::field(
            snap,
            id,
            &["status", "platform"],
            format!("Infrastructure cluster: platform {p}"),
        ));
    }
    let o = snap.object(owner);
    if let Ok(co) = o.deserialize::<ClusterOperator>()
        && let Some(c) = condition(&co.status.conditions, "Available")
    {
        let msg = c.message.as_deref().unwrap_or("").trim();
        let text = format!(
            "ClusterOperator {} is Available={}{}",
            o.name,
            c.status,
            if msg.is_empty() {
                String::new()
            } else {
                format!(" (\"{msg}\")")
            }
        );
        ev.push(evidence::field(
            snap,
            owner,
            &["status", "conditions", "type=Available"],
            text.clone(),
        ));
        said.push(text);
    }
    (said, ev)
}

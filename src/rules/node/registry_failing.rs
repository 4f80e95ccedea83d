//! `node/registry-failing`: many controllers' images fail to pull from one registry the same way.

use super::image_pull::PullClass;
use crate::declare_rule;
use crate::kube::meta::ObjectRef;
use crate::rules::common_cause::{self, SharedCause};
use crate::rules::evidence;
use crate::rules::reach::{Involve, Reach};
use crate::rules::{Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};

declare_rule! {
    /// A registry fails every pull the same way (DNS, network, TLS, credentials, rate limit) for many controllers' images.
    ///
    /// When `node/image-pull` classifies the failures of ten or more controllers' images on
    /// the same registry host the same registry-wide way — its name does not resolve, the
    /// nodes cannot reach it, its certificate is not trusted or names another host, it
    /// rejects the credentials, it rate-limits — that is one cause: this finding names the
    /// registry and lists the controllers. Failures that belong to one image (a missing tag
    /// or repository, a platform, an invalid name) are not grouped. Each controller keeps
    /// its own finding, linked to this one by `details.cause`.
    pub static REGISTRY_FAILING = {
        id: "node/registry-failing",
        stage: Stage::Node,
        severity: Severity::Error,
        fallback: false,
        // Wide: it counts controllers of every namespace; it can touch a namespace only
        // where `node/image-pull` has a finding.
        reach: Reach::Wide(reaches),
        run: common_cause::gathered,
    };
}

fn reaches(inv: &Involve) -> bool {
    inv.findings
        .iter()
        .any(|f| f.rule == super::image_pull::IMAGE_PULL.id && inv.touches_namespace(f))
}

/// The cause a pull failure of class `class` on `registry` shares with other images of
/// that registry, when the class is about the registry rather than the image; `event` is
/// the runtime's words for one of them.
pub(super) fn shared_registry(
    snap: &Snapshot,
    class: PullClass,
    registry: &str,
    event: Option<ObjectId>,
) -> Option<SharedCause> {
    let (key, words, help) = match class {
        PullClass::Dns => (
            "dns",
            "its name does not resolve from the nodes (DNS: no such host)",
            "fix the registry's DNS name (or the nodes' resolvers), or point the images at a registry the nodes can resolve",
        ),
        PullClass::Network => (
            "network",
            "the nodes cannot reach it (timeout, refused or unreachable)",
            "check the route and firewall from the nodes to the registry, its proxy settings, and that the registry is up",
        ),
        PullClass::Tls => (
            "tls",
            "the nodes do not trust its TLS certificate",
            "add the registry's CA to the nodes' container runtime trust (or fix the registry's certificate chain)",
        ),
        PullClass::TlsName => (
            "tls-name",
            "its certificate names another host: the images name a host that does not serve this registry",
            "use the registry host its certificate names in the image references, or reissue the certificate",
        ),
        PullClass::Unauthorized => (
            "unauthorized",
            "it rejects the pulls' credentials (unauthorized)",
            "fix the pull secret the images use for this registry (or the nodes' registry credentials); one credential fix releases them all",
        ),
        PullClass::RateLimit => (
            "rate-limit",
            "it rate-limits the pulls (429 too many requests)",
            "authenticate the pulls, mirror the images, or wait for the limit to reset",
        ),
        _ => return None,
    };
    let evidence = event
        .and_then(|id| Snapshot::view_of(snap.events(), id).map(|e| evidence::event(snap, id, e)))
        .into_iter()
        .collect();
    Some(SharedCause {
        rule: &REGISTRY_FAILING,
        key: format!("{registry}:{key}"),
        object: ObjectRef {
            api_version: "kdiag.io/v1".into(),
            kind: "Registry".into(),
            namespace: None,
            name: registry.to_string(),
        },
        what: format!("Registry {registry} fails every pull the same way: {words}"),
        evidence,
        help: help.to_string(),
    })
}

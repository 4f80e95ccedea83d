//! `node/image-pull`: pods bound to a node whose image cannot be pulled, one finding per image.

use crate::declare_rule;
use crate::kube::event::Event;
use crate::kube::meta::ObjectRef;
use crate::kube::pod::Pod;
use crate::rules::evidence;
use crate::rules::pod_findings::{self, Case, Presence, note};
use crate::rules::reach::Reach;
use crate::rules::{Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::{BTreeMap, BTreeSet};

declare_rule! {
    /// Classifies image pull failures of pods already bound to a node, one finding per image.
    ///
    /// ErrImagePull, ImagePullBackOff, InvalidImageName, ErrImageNeverPull and the CRI
    /// errors are classified from the kubelet's `Failed to pull image` events and the
    /// container's waiting message: tag or manifest not found, image without a variant
    /// for the node's platform, repository missing or pull access denied, unauthorized,
    /// TLS/x509, DNS, network or timeout, registry rate limit, invalid reference, or
    /// `imagePullPolicy: Never`. For credential problems every `imagePullSecrets` entry of
    /// the pod and of its service account is checked: in the bundle, absent from a bundle
    /// that holds Secrets of that namespace, or unknowable because the bundle holds none
    /// (troubleshoot bundles collect no Secrets by default) — unless the kubelet's own
    /// `FailedToRetrieveImagePullSecret` event (`Unable to retrieve some image pull secrets
    /// (regcred); …`) names it: then it is missing from the pod's namespace, citing the
    /// event. The scheduler's work is
    /// done: adding nodes does not fix an image pull.
    pub static IMAGE_PULL = {
        id: "node/image-pull",
        stage: Stage::Node,
        severity: Severity::Error,
        fallback: false,
        // Wide: groups the pods of every namespace pulling one image; a pod is a case by its own status.
        reach: Reach::Wide(|inv| inv.grouped_cases()),
        run: run,
    };
}

pub use crate::kube::pod::IMAGE_REASONS;

/// The class of a pull failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PullClass {
    NotFound,
    Platform,
    AccessDenied,
    Unauthorized,
    Tls,
    /// The certificate is fine but names another host (Go's x509 HostnameError): the
    /// image reference names a host that does not serve that registry.
    TlsName,
    Dns,
    Network,
    RateLimit,
    InvalidName,
    NeverPull,
    Signature,
    Unknown,
}

impl PullClass {
    fn key(self) -> &'static str {
        match self {
            PullClass::NotFound => "not-found",
            PullClass::Platform => "platform",
            PullClass::AccessDenied => "access-denied",
            PullClass::Unauthorized => "unauthorized",
            PullClass::Tls => "tls",
            PullClass::TlsName => "tls-name",
            PullClass::Dns => "dns",
            PullClass::Network => "network",
            PullClass::RateLimit => "rate-limit",
            PullClass::InvalidName => "invalid-name",
            PullClass::NeverPull => "never-pull",
            PullClass::Signature => "signature",
            PullClass::Unknown => "unknown",
        }
    }

    /// Credentials are worth checking for this class.
    fn about_credentials(self) -> bool {
        matches!(
            self,
            PullClass::AccessDenied | PullClass::Unauthorized | PullClass::RateLimit
        )
    }
}

/// Classifies a runtime pull error (reference §3.3; wording varies by runtime).
pub fn classify(reason: &str, message: &str) -> PullClass {
    let m = message.to_ascii_lowercase();
    let has = |s: &str| m.contains(s);
    if reason == "InvalidImageName"
        || has("invalid reference format")
        || has("couldn't parse image")
        || has("failed to apply default image tag")
    {
        PullClass::InvalidName
    } else if reason == "ErrImageNeverPull" || has("with pull policy of never") {
        PullClass::NeverPull
    } else if reason == "SignatureValidationFailed" || has("signature validation failed") {
        PullClass::Signature
    } else if has("toomanyrequests") || has("429 too many requests") || has("rate limit") {
        PullClass::RateLimit
    } else if has("x509: certificate is valid for")
        || has("x509: certificate is not valid for any names")
    {
        PullClass::TlsName
    } else if has("x509") || has("certificate") || (has("tls:") && !has("handshake timeout")) {
        PullClass::Tls
    } else if has("no such host")
        || has("server misbehaving")
        || has("temporary failure in name resolution")
    {
        PullClass::Dns
    } else if has("i/o timeout")
        || has("timeout")
        || has("deadline exceeded")
        || has("connection refused")
        || has("connection reset")
        || has("network is unreachable")
        || has("no route to host")
        || reason == "RegistryUnavailable"
        || has("registry is unavailable")
    {
        PullClass::Network
    } else if has("no match for platform") {
        PullClass::Platform
    } else if has("pull access denied")
        || has("repository does not exist")
        || has("requested access to the resource is denied")
        || has("insufficient_scope")
        || has("403 forbidden")
        || has("denied:")
    {
        PullClass::AccessDenied
    } else if has("401")
        || has("unauthorized")
        || has("no basic auth credentials")
        || has("authentication required")
    {
        PullClass::Unauthorized
    } else if has("not found") || has("manifest unknown") || has("code = notfound") {
        PullClass::NotFound
    } else {
        PullClass::Unknown
    }
}

/// An image reference split into registry, repository, tag and digest.
#[derive(Debug, PartialEq, Eq)]
pub struct ImageRef {
    pub registry: String,
    pub repository: String,
    pub tag: Option<String>,
    pub digest: Option<String>,
}

/// Docker-style reference parsing: the first component is a registry when it has a `.`
/// or `:` or is `localhost`; otherwise docker.io (`library/` for single names).
pub fn parse_image(image: &str) -> ImageRef {
    let (name, digest) = match image.split_once('@') {
        Some((n, d)) => (n, Some(d.to_string())),
        None => (image, None),
    };
    let (name, tag) = match name.rfind(':') {
        Some(i) if !name[i..].contains('/') => (&name[..i], Some(name[i + 1..].to_string())),
        _ => (name, None),
    };
    let (registry, repository) = match name.split_once('/') {
        Some((first, rest))
            if first.contains('.') || first.contains(':') || first == "localhost" =>
        {
            (first.to_string(), rest.to_string())
        }
        Some(_) => ("docker.io".to_string(), name.to_string()),
        None => ("docker.io".to_string(), format!("library/{name}")),
    };
    let tag = if tag.is_none() && digest.is_none() {
        Some("latest".to_string())
    } else {
        tag
    };
    ImageRef {
        registry,
        repository,
        tag,
        digest,
    }
}

/// One failing container of one pod.
struct Failing {
    id: ObjectId,
    node: String,
    container: String,
    init: bool,
    reason: String,
    waiting_message: Option<String>,
    /// The runtime's words: the latest `Failed to pull image` / InspectFailed event.
    detail: Option<(ObjectId, String)>,
    backoff: Option<ObjectId>,
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let mut by_image: BTreeMap<String, Vec<Failing>> = BTreeMap::new();
    for (id, pod) in snap.pods() {
        let Some(node) = pod.spec.node_name.as_deref().filter(|n| !n.is_empty()) else {
            continue;
        };
        if !pod.is_active() || pod.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let events = snap.events_for(*id);
        // One entry per pod: its first container (init containers run first) that waits on an image.
        for (cs, init) in pod.all_statuses() {
            let Some(w) = &cs.state.waiting else { continue };
            let reason = w.reason.as_deref().unwrap_or("");
            if !IMAGE_REASONS.contains(&reason) {
                continue;
            }
            let image = pod
                .container(&cs.name)
                .and_then(|c| c.image.as_deref().map(String::from))
                .or_else(|| cs.image.as_deref().map(String::from))
                .unwrap_or_default();
            let quoted = format!("\"{image}\"");
            let about: Vec<&(ObjectId, &Event)> = events
                .iter()
                .filter(|(_, e)| e.message.contains(&quoted) || e.message.contains(&image))
                .collect();
            let detail = about
                .iter()
                .rev()
                .find(|(_, e)| {
                    e.message.starts_with("Failed to pull image")
                        || e.reason == "InspectFailed"
                        || e.reason == "ErrImageNeverPull"
                })
                .map(|(eid, e)| (*eid, e.message.clone()));
            let backoff = about
                .iter()
                .rev()
                .find(|(_, e)| e.reason == "BackOff")
                .map(|(eid, _)| *eid);
            by_image.entry(image).or_default().push(Failing {
                id: *id,
                node: node.to_string(),
                container: cs.name.to_string(),
                init,
                reason: reason.to_string(),
                waiting_message: w.message.as_deref().map(String::from),
                detail,
                backoff,
            });
            break;
        }
    }
    let mut out = Vec::new();
    for (image, failing) in by_image {
        // The runtime's words from any pod of this image (the newest event wins).
        let shared_detail = failing
            .iter()
            .filter_map(|f| f.detail.as_ref())
            .max_by_key(|(eid, _)| Snapshot::view_of(snap.events(), *eid).and_then(|e| e.last))
            .map(|(_, m)| m.clone());
        let text_of = |f: &Failing| -> String {
            f.detail
                .as_ref()
                .map(|(_, m)| m.clone())
                .or_else(|| shared_detail.clone())
                .or_else(|| f.waiting_message.clone())
                .unwrap_or_default()
        };
        // Classes can differ between pods (a flaky network); group by class within the image.
        let mut by_class: BTreeMap<PullClass, Vec<&Failing>> = BTreeMap::new();
        for f in &failing {
            by_class
                .entry(classify(&f.reason, &text_of(f)))
                .or_default()
                .push(f);
        }
        for (class, list) in by_class {
            out.push(finding(snap, &image, class, &list, &text_of(list[0])));
        }
    }
    out
}

fn finding(
    snap: &Snapshot,
    image: &str,
    class: PullClass,
    list: &[&Failing],
    detail: &str,
) -> Finding {
    let first = list[0];
    let pod = snap.pod(first.id).cloned().unwrap_or_default();
    let ns = pod_findings::namespace_of(snap, first.id).to_string();
    let r = parse_image(image);
    let nodes: BTreeSet<&str> = list.iter().map(|f| f.node.as_str()).collect();
    let node_text = if nodes.len() == 1 {
        format!("node {}", first.node)
    } else {
        format!(
            "nodes {}",
            nodes.iter().copied().collect::<Vec<_>>().join(", ")
        )
    };
    let what = what_failed(snap, class, &r, &first.node, &node_text);
    let kind = if first.init {
        "init container"
    } else {
        "container"
    };
    let quoted = if detail.is_empty() || class == PullClass::Unknown {
        String::new()
    } else {
        format!(" — {}", pod_findings::clip(detail, 400))
    };
    let summary_for = |f: &Failing| {
        format!(
            "is bound to node {} but cannot pull image {image} for {kind} {} ({}): {what}{quoted}{}",
            f.node,
            first.container,
            first.reason,
            if nodes.len() > 1 {
                format!(" (the pods are on {node_text})")
            } else {
                String::new()
            }
        )
    };
    let mut cases = Vec::new();
    for (i, f) in list.iter().enumerate() {
        let status_path = [
            "status",
            if f.init {
                "initContainerStatuses"
            } else {
                "containerStatuses"
            },
        ];
        let name_seg = format!("name={}", f.container);
        let mut ev = vec![evidence::field(
            snap,
            f.id,
            &[status_path[0], status_path[1], &name_seg],
            format!(
                "{} {} waiting: {}{}",
                if f.init {
                    "init container"
                } else {
                    "container"
                },
                f.container,
                f.reason,
                f.waiting_message
                    .as_deref()
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default()
            ),
        )];
        // The events of the first pod speak for the others.
        if i == 0 {
            for eid in f
                .detail
                .as_ref()
                .map(|(e, _)| *e)
                .into_iter()
                .chain(f.backoff)
            {
                if let Some(e) = Snapshot::view_of(snap.events(), eid) {
                    ev.push(evidence::event(snap, eid, e));
                }
            }
        }
        cases.push(Case {
            id: f.id,
            summary: summary_for(f),
            evidence: ev,
        });
    }
    let mut extra = vec![pod_findings::node_evidence(snap, &first.node)];
    let PullSecrets {
        evidence: secret_notes,
        sentence: secret_sentence,
        compact,
        missed,
    } = pull_secrets(snap, &ns, first.id, &pod);
    if class.about_credentials() {
        extra.extend(secret_notes);
    } else if !compact.is_empty() {
        extra.push(note(format!(
            "credentials do not cause a {} failure; pull secrets: {}",
            class.key(),
            compact.join(", ")
        )));
    }
    let help = help_for(class, &secret_sentence);
    // Owners: group the pods' owners; one finding for all of them.
    let mut owners: Vec<ObjectRef> = list
        .iter()
        .map(|f| pod_findings::owner_of(snap, f.id))
        .collect();
    owners.sort();
    owners.dedup();
    let owner = owners.remove(0);
    let mut f = pod_findings::pods_finding_also(
        snap,
        &IMAGE_PULL,
        Severity::Error,
        owner,
        &owners,
        &format!("{}:{image}", class.key()),
        cases,
        help,
    );
    f.evidence.extend(extra);
    let event = first.detail.as_ref().map(|(e, _)| *e);
    f.shared = super::registry_failing::shared_registry(snap, class, &r.registry, event)
        .map(std::sync::Arc::new);
    if class.about_credentials() && !missed.is_empty() {
        f.message.push_str(&format!(
            "; pull secret {} missing from namespace {ns}: the kubelet could not retrieve it ({SECRET_EVENT_REASON})",
            if missed.len() == 1 {
                format!("{} is", missed[0])
            } else {
                format!("s {} are", missed.join(", "))
            }
        ));
    }
    f
}

/// What the pull error of `class` means for image `r` on `node` (`node_text`: the nodes
/// the pods are on, in words).
fn what_failed(
    snap: &Snapshot,
    class: PullClass,
    r: &ImageRef,
    node: &str,
    node_text: &str,
) -> String {
    match class {
        PullClass::NotFound => format!(
            "the tag or manifest does not exist: registry {} has no {} for repository {}",
            r.registry,
            r.digest
                .as_deref()
                .map(|d| format!("digest {d}"))
                .or_else(|| r.tag.as_deref().map(|t| format!("tag {t}")))
                .unwrap_or_default(),
            r.repository
        ),
        PullClass::Platform => {
            let arch = snap
                .node_named(node)
                .and_then(|(_, n)| n.status.node_info.architecture.clone())
                .unwrap_or_else(|| "unknown".into());
            format!("the image has no variant for the node's platform (architecture {arch})")
        }
        PullClass::AccessDenied => format!(
            "registry {} denied the pull: repository {} does not exist or the credentials do not grant access to it",
            r.registry, r.repository
        ),
        PullClass::Unauthorized => format!(
            "registry {} rejected the pull as unauthorized: no credentials, or wrong ones",
            r.registry
        ),
        PullClass::Tls => format!(
            "the node does not trust the TLS certificate of registry {} (x509)",
            r.registry
        ),
        PullClass::TlsName => format!(
            "the TLS certificate served at {} is not issued for that host name (x509 name mismatch): the image reference may name the wrong registry host",
            r.registry
        ),
        PullClass::Dns => format!("the node cannot resolve registry host {}", r.registry),
        PullClass::Network => format!(
            "the node cannot reach registry {} (timeout, refused or unavailable)",
            r.registry
        ),
        PullClass::RateLimit => format!("registry {} is rate-limiting pulls", r.registry),
        PullClass::InvalidName => "the image reference cannot be parsed".to_string(),
        PullClass::NeverPull => format!(
            "imagePullPolicy is Never and the image is not present on {node_text}"
        ),
        PullClass::Signature => "the image's signature failed validation".to_string(),
        PullClass::Unknown => {
            "the bundle holds no pull error detail (only the back-off; events expire after about an hour)".to_string()
        }
    }
}

/// What to do about a pull error of `class` (`secret_sentence`: the pod's pull secrets).
fn help_for(class: PullClass, secret_sentence: &str) -> String {
    match class {
        PullClass::NotFound => "check that the tag (or digest) was pushed to that repository — a typo or a deleted tag is the usual cause (crane/skopeo inspect, the registry UI); adding nodes will not help".to_string(),
        PullClass::Platform => "push a multi-arch image (or one for this architecture) or pin the pod to nodes of a supported architecture".into(),
        PullClass::AccessDenied => format!("check the repository name, then the pull credentials: {secret_sentence}"),
        PullClass::Unauthorized => format!("give the pod working registry credentials: {secret_sentence}"),
        PullClass::Tls => "install the registry's CA on the nodes (containerd certs.d / hosts.toml) or fix the certificate's names; the pod spec cannot fix this".into(),
        PullClass::TlsName => "check the registry host in the image reference (a typo or a host that serves something else); if the host is right, the registry's certificate must list that name — installing a CA does not fix a name mismatch".into(),
        PullClass::Dns => "check the node's own DNS resolver (the container runtime does not use CoreDNS), the registry host name, and proxy settings of the runtime".into(),
        PullClass::Network => "check egress from the node to the registry (firewall, proxy settings of the container runtime, NAT) and the registry's health".into(),
        PullClass::RateLimit => format!("authenticate pulls to get a higher limit, or use a mirror or pull-through cache: {secret_sentence}"),
        PullClass::InvalidName => "fix the image reference in the pod template (registry/repository:tag or @sha256:digest)".into(),
        PullClass::NeverPull => "preload the image on the node or change imagePullPolicy to IfNotPresent".into(),
        PullClass::Signature => "check the image's signature and the cluster's signature policy".into(),
        PullClass::Unknown => "run kubectl describe pod for fresh Failed events; check the image reference and the pull credentials".into(),
    }
}

/// The kubelet's event when a pull secret named in the pod spec cannot be read
/// (`getPullSecretsForPod` in `pkg/kubelet/kubelet_pods.go`).
const SECRET_EVENT_REASON: &str = "FailedToRetrieveImagePullSecret";
const SECRET_EVENT_PREFIX: &str = "Unable to retrieve some image pull secrets (";

/// The secret names of a `FailedToRetrieveImagePullSecret` event: `Unable to retrieve some
/// image pull secrets (regcred, other); attempting to pull the image may not succeed.`
fn unretrievable_secrets(message: &str) -> Vec<&str> {
    message
        .strip_prefix(SECRET_EVENT_PREFIX)
        .and_then(|rest| rest.split_once(");"))
        .map(|(names, _)| {
            names
                .split(", ")
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// The pod's newest `FailedToRetrieveImagePullSecret` event naming `name`.
fn kubelet_missed<'a>(
    events: &'a [(ObjectId, &'a Event)],
    name: &str,
) -> Option<&'a (ObjectId, &'a Event)> {
    events
        .iter()
        .filter(|(_, e)| e.reason == SECRET_EVENT_REASON)
        .rfind(|(_, e)| unretrievable_secrets(&e.message).contains(&name))
}

/// How the bundle knows of a pull secret: its own objects, or the kubelet's word.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SecretState {
    Bundle(Presence),
    /// Not in the bundle, and the kubelet said it could not retrieve it.
    KubeletMissed,
}

/// What the bundle says of the pull secrets a pod would use.
struct PullSecrets {
    /// One item per secret (and the service account's).
    evidence: Vec<Evidence>,
    /// One sentence for the help.
    sentence: String,
    /// "name (state)" for each.
    compact: Vec<String>,
    /// The ones the kubelet said it could not retrieve, absent from the bundle.
    missed: Vec<String>,
}

/// Evidence about every pull secret the pod would use, one sentence for the help, a
/// compact "name (state)" list, and the names the kubelet could not retrieve.
fn pull_secrets(snap: &Snapshot, ns: &str, pod_id: ObjectId, pod: &Pod) -> PullSecrets {
    let events = snap.events_for(pod_id);
    let mut ev = Vec::new();
    let mut names: Vec<(String, &'static str)> = pod
        .spec
        .image_pull_secrets
        .iter()
        .map(|s| (s.name.to_string(), "the pod's imagePullSecrets"))
        .collect();
    let sa = pod
        .spec
        .service_account_name
        .clone()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "default".into());
    match pod_findings::presence(snap, "ServiceAccount", Some(ns), &sa) {
        Presence::Present(said) => {
            if let Some(acc) = Snapshot::view_of(snap.service_accounts(), said) {
                for s in &acc.image_pull_secrets {
                    names.push((s.name.to_string(), "its service account's imagePullSecrets"));
                }
                if acc.image_pull_secrets.is_empty() {
                    ev.push(evidence::object(
                        snap,
                        said,
                        format!("ServiceAccount {ns}/{sa} has no imagePullSecrets"),
                    ));
                }
            }
        }
        p => ev.push(note(format!(
            "{}, so its imagePullSecrets are {}",
            pod_findings::describe_presence("ServiceAccount", ns, &sa, p),
            if p == Presence::Absent {
                "none"
            } else {
                "unknown"
            }
        ))),
    }
    names.dedup();
    let mut states = Vec::new();
    for (name, from) in &names {
        let p = pod_findings::presence(snap, "Secret", Some(ns), name);
        let mut text = format!(
            "pull secret {name} (from {from}): {}",
            pod_findings::describe_presence("Secret", ns, name, p)
        );
        if p == Presence::NotCollected && !snap.has_kind("Secret") {
            text.push_str(" (support bundles collect no Secrets by default)");
        }
        if let Presence::Present(sid) = p
            && let Some(s) = Snapshot::view_of(snap.secrets(), sid)
            && let Some(t) = s.type_.as_deref()
            && !matches!(
                t,
                "kubernetes.io/dockerconfigjson" | "kubernetes.io/dockercfg"
            )
        {
            text.push_str(&format!(
                "; its type is {t}, not kubernetes.io/dockerconfigjson, so the kubelet ignores it"
            ));
        }
        let missed = kubelet_missed(&events, name);
        match (p, missed) {
            (Presence::Present(sid), Some((eid, e))) => {
                states.push((name.clone(), SecretState::Bundle(p)));
                ev.push(evidence::object(snap, sid, text));
                ev.push(evidence::object(
                    snap,
                    *eid,
                    format!(
                        "the kubelet could not retrieve pull secret {name} ({}): the bundle holds it, so it was created, or became readable, after that",
                        evidence::describe_event(snap, e)
                    ),
                ));
            }
            (Presence::Present(sid), None) => {
                states.push((name.clone(), SecretState::Bundle(p)));
                ev.push(evidence::object(snap, sid, text));
            }
            (_, Some((eid, e))) => {
                states.push((name.clone(), SecretState::KubeletMissed));
                ev.push(evidence::object(
                    snap,
                    *eid,
                    format!(
                        "pull secret {name} (from {from}) is missing from namespace {ns}: the kubelet could not retrieve it ({})",
                        evidence::describe_event(snap, e)
                    ),
                ));
            }
            (_, None) => {
                states.push((name.clone(), SecretState::Bundle(p)));
                ev.push(note(text));
            }
        }
    }
    let sentence = if names.is_empty() {
        format!(
            "neither the pod nor its service account {sa} names an imagePullSecret, so the node pulls with no credentials of the pod's own; add one for registry credentials"
        )
    } else {
        let absent: Vec<&str> = states
            .iter()
            .filter(|(_, p)| *p == SecretState::Bundle(Presence::Absent))
            .map(|(n, _)| n.as_str())
            .collect();
        let missed: Vec<&str> = states
            .iter()
            .filter(|(_, p)| *p == SecretState::KubeletMissed)
            .map(|(n, _)| n.as_str())
            .collect();
        let unknown: Vec<&str> = states
            .iter()
            .filter(|(_, p)| {
                matches!(
                    p,
                    SecretState::Bundle(Presence::NotCollected | Presence::Unlisted)
                )
            })
            .map(|(n, _)| n.as_str())
            .collect();
        if !missed.is_empty() {
            format!(
                "pull secret(s) {} are missing from namespace {ns} (the kubelet's {SECRET_EVENT_REASON} event says it could not retrieve them): create them there{}",
                missed.join(", "),
                if absent.is_empty() {
                    String::new()
                } else {
                    format!("; {} do not exist either", absent.join(", "))
                }
            )
        } else if !absent.is_empty() {
            format!(
                "pull secret(s) {} do not exist in namespace {ns}: create them",
                absent.join(", ")
            )
        } else if !unknown.is_empty() {
            let others = states
                .iter()
                .any(|(_, p)| *p == SecretState::Bundle(Presence::Unlisted));
            format!(
                "the bundle cannot show pull secret(s) {} (it holds {} Secrets of {ns}); check that they exist and hold credentials for this registry",
                unknown.join(", "),
                if others {
                    "no complete list of the"
                } else {
                    "no"
                }
            )
        } else {
            "the pull secrets exist; check that they hold valid credentials for this registry"
                .into()
        }
    };
    let compact = states
        .iter()
        .map(|(n, p)| {
            format!(
                "{n} ({})",
                match p {
                    SecretState::Bundle(Presence::Present(_)) => "in the bundle",
                    SecretState::Bundle(Presence::Absent) => "does not exist",
                    SecretState::Bundle(Presence::NotCollected) =>
                        "not in the bundle, which holds no Secrets of the namespace",
                    SecretState::Bundle(Presence::Unlisted) =>
                        "not in the bundle, which holds no complete list of the namespace's Secrets",
                    SecretState::KubeletMissed => "missing: the kubelet could not retrieve it",
                }
            )
        })
        .collect();
    let missed = states
        .iter()
        .filter(|(_, p)| *p == SecretState::KubeletMissed)
        .map(|(n, _)| n.clone())
        .collect();
    PullSecrets {
        evidence: ev,
        sentence,
        compact,
        missed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubelet_secret_event_names() {
        assert_eq!(
            unretrievable_secrets(
                "Unable to retrieve some image pull secrets (regcred); attempting to pull the image may not succeed."
            ),
            ["regcred"]
        );
        assert_eq!(
            unretrievable_secrets(
                "Unable to retrieve some image pull secrets (regcred, quay-pull); attempting to pull the image may not succeed."
            ),
            ["regcred", "quay-pull"]
        );
        assert!(unretrievable_secrets("Back-off pulling image").is_empty());
    }

    #[test]
    fn classes_from_real_texts() {
        let cases = [
            (
                "ErrImagePull",
                "Failed to pull image \"registry.example.com/demo/api-b:1.4.2\": rpc error: code = NotFound desc = failed to pull and unpack image \"registry.example.com/demo/api-b:1.4.2\": failed to resolve reference \"registry.example.com/demo/api-b:1.4.2\": registry.example.com/demo/api-b:1.4.2: not found",
                PullClass::NotFound,
            ),
            (
                "ErrImagePull",
                "Failed to pull image \"agentx\": failed to pull and unpack image \"docker.io/library/agentx:latest\": failed to resolve reference \"docker.io/library/agentx:latest\": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed",
                PullClass::AccessDenied,
            ),
            (
                "ErrImagePull",
                "Failed to pull image \"noimage.com/no-such-image\": rpc error: code = Unknown desc = Error response from daemon: Get \"https://noimage.com/v2/\": x509: certificate is not valid for any names, but wanted to match noimage.com",
                PullClass::TlsName,
            ),
            (
                "ErrImagePull",
                "Failed to pull image \"harbor.corp/app/web:2\": rpc error: code = Unknown desc = failed to pull and unpack image \"harbor.corp/app/web:2\": failed to resolve reference \"harbor.corp/app/web:2\": failed to do request: Head \"https://harbor.corp/v2/app/web/manifests/2\": tls: failed to verify certificate: x509: certificate signed by unknown authority",
                PullClass::Tls,
            ),
            (
                "ErrImagePull",
                "Failed to pull image \"noimage.com/no-such-image\": rpc error: code = Unknown desc = Error response from daemon: Get \"https://noimage.com/v2/\": net/http: TLS handshake timeout",
                PullClass::Network,
            ),
            (
                "ErrImagePull",
                "failed to do request: Head \"https://reg.corp/v2/a/manifests/1\": dial tcp: lookup reg.corp on 10.0.0.2:53: no such host",
                PullClass::Dns,
            ),
            (
                "ErrImagePull",
                "failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/nginx/manifests/sha256:abc: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.",
                PullClass::RateLimit,
            ),
            (
                "ErrImagePull",
                "failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized",
                PullClass::Unauthorized,
            ),
            (
                "ErrImagePull",
                "Error response from daemon: Get https://1234.dkr.ecr.eu-west-1.amazonaws.com/v2/app/manifests/1: no basic auth credentials",
                PullClass::Unauthorized,
            ),
            (
                "ErrImagePull",
                "Error response from daemon: manifest for nginx:1.99 not found: manifest unknown: manifest unknown",
                PullClass::NotFound,
            ),
            (
                "ErrImagePull",
                "no match for platform in manifest: not found",
                PullClass::Platform,
            ),
            (
                "InvalidImageName",
                "Failed to apply default image tag \"Nginx:Latest\": couldn't parse image reference \"Nginx:Latest\": invalid reference format",
                PullClass::InvalidName,
            ),
            (
                "ErrImageNeverPull",
                "Container image \"app:dev\" is not present with pull policy of Never",
                PullClass::NeverPull,
            ),
            (
                "ImagePullBackOff",
                "Back-off pulling image \"a/b:c\"",
                PullClass::Unknown,
            ),
            (
                "ErrImagePull",
                "dial tcp 10.1.2.3:443: i/o timeout",
                PullClass::Network,
            ),
        ];
        for (reason, msg, want) in cases {
            assert_eq!(classify(reason, msg), want, "{msg}");
        }
    }

    #[test]
    fn image_references() {
        let r = parse_image("registry.example.com/demo/api-b:1.4.2");
        assert_eq!(
            (r.registry.as_str(), r.repository.as_str(), r.tag.as_deref()),
            ("registry.example.com", "demo/api-b", Some("1.4.2"))
        );
        let r = parse_image("nginx");
        assert_eq!(
            (r.registry.as_str(), r.repository.as_str(), r.tag.as_deref()),
            ("docker.io", "library/nginx", Some("latest"))
        );
        let r = parse_image("localhost:5000/app@sha256:abc");
        assert_eq!(
            (
                r.registry.as_str(),
                r.repository.as_str(),
                r.tag,
                r.digest.as_deref()
            ),
            ("localhost:5000", "app", None, Some("sha256:abc"))
        );
        let r = parse_image("bitnami/redis:7.2");
        assert_eq!(
            (r.registry.as_str(), r.repository.as_str()),
            ("docker.io", "bitnami/redis")
        );
        let r = parse_image("");
        assert_eq!(r.repository, "library/");
    }
}

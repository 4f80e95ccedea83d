//! `creation/failed-create`: controllers that cannot create their pods.

use crate::declare_rule;
use crate::kube::meta::{Qty, ResourceList, condition};
use crate::kube::pod::PodSpec;
use crate::kube::quantity::Quantity;
use crate::kube::requests::{effective_requests, unread_requests};
use crate::rules::evidence;
use crate::rules::pod_findings::{self, Presence, note};
use crate::rules::reach::Reach;
use crate::rules::{Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::collections::BTreeMap;

declare_rule! {
    /// Explains controllers that cannot create their pods: ResourceQuota, admission webhooks, PodSecurity, a missing ServiceAccount.
    ///
    /// Reads `FailedCreate` events of ReplicaSets, StatefulSets, Jobs and DaemonSets (and
    /// the `ReplicaFailure` condition, which outlives events) while the controller still
    /// has fewer pods than it wants. Quota errors are recomputed from the ResourceQuota's
    /// `hard` and `used` and the pod template's effective request, with the LimitRange
    /// defaults the API server would add to containers that set none; when the quota has
    /// room now the finding says so. Webhook denials name the webhook (and its
    /// configuration when the bundle holds it); PodSecurity violations list the failing
    /// checks and the namespace's enforce level; a missing ServiceAccount is checked
    /// against the bundle. No pod exists, so nothing downstream (scheduler, kubelet) is involved.
    pub static FAILED_CREATE = {
        id: "creation/failed-create",
        stage: Stage::Creation,
        severity: Severity::Error,
        fallback: false,
        // Local: each controller with its Events, quotas and LimitRanges of its namespace, and cluster-scoped webhooks and Namespaces.
        reach: Reach::Local,
        run: run,
    };
}

const KINDS: &[&str] = &["ReplicaSet", "StatefulSet", "Job", "DaemonSet"];

/// The latest FailedCreate event of a controller, or its ReplicaFailure condition message.
pub fn failure_text(snap: &Snapshot, id: ObjectId) -> Option<(String, Option<ObjectId>)> {
    let events = snap.events_for(id);
    if let Some((eid, e)) = events
        .iter()
        .rev()
        .find(|(_, e)| e.reason == "FailedCreate" && e.is_warning())
    {
        return Some((e.message.clone(), Some(*eid)));
    }
    let o = snap.object(id);
    let conds = o
        .value()
        .pointer("/status/conditions")
        .and_then(Value::as_array)?;
    conds
        .iter()
        .find(|c| {
            c.get("type").and_then(Value::as_str) == Some("ReplicaFailure")
                && c.get("status").and_then(Value::as_str) == Some("True")
        })
        .and_then(|c| c.get("message").and_then(Value::as_str))
        .map(|m| (m.to_string(), None))
}

/// The controller still wants pods it does not have.
pub fn still_missing_pods(snap: &Snapshot, id: ObjectId) -> Option<(i64, i64)> {
    let kind = snap.object(id).kind.as_str();
    match kind {
        "ReplicaSet" => Snapshot::view_of(snap.replica_sets(), id)
            .map(|r| (r.spec.desired(), r.status.replicas)),
        "StatefulSet" => Snapshot::view_of(snap.stateful_sets(), id)
            .map(|r| (r.spec.desired(), r.status.replicas)),
        "DaemonSet" => Snapshot::view_of(snap.daemon_sets(), id).map(|d| {
            (
                d.status.desired_number_scheduled,
                d.status.current_number_scheduled,
            )
        }),
        "Job" => Snapshot::view_of(snap.jobs(), id).and_then(|j| {
            if j.is_complete() || j.is_failed() || j.spec.suspend == Some(true) {
                None
            } else {
                Some((j.spec.parallelism.unwrap_or(1), j.status.active))
            }
        }),
        _ => None,
    }
    .filter(|(want, have)| want > have)
}

/// A controller whose pod creation fails now (used by other rules to stay quiet).
pub fn has_failed_create(snap: &Snapshot, id: ObjectId) -> bool {
    still_missing_pods(snap, id).is_some() && failure_text(snap, id).is_some()
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let mut out = Vec::new();
    for kind in KINDS {
        for &id in snap.ids_of(kind) {
            let Some((want, have)) = still_missing_pods(snap, id) else {
                continue;
            };
            let Some((text, eid)) = failure_text(snap, id) else {
                continue;
            };
            out.push(finding(snap, id, want, have, &text, eid));
        }
    }
    // A Deployment that says ReplicaFailure while the bundle lacks the failing ReplicaSet.
    for (id, d) in snap.deployments() {
        let Some(text) = deployment_replica_failure(snap, *id) else {
            continue;
        };
        let uid = snap.object(*id).uid.clone().unwrap_or_default();
        let covered = snap
            .children_of(&uid)
            .iter()
            .any(|&c| snap.object(c).kind == "ReplicaSet" && has_failed_create(snap, c));
        if covered || d.status.replicas >= d.spec.desired() {
            continue;
        }
        out.push(finding(
            snap,
            *id,
            d.spec.desired(),
            d.status.replicas,
            &text,
            None,
        ));
    }
    out
}

/// The pod template of a controller.
fn template(snap: &Snapshot, id: ObjectId) -> Option<PodSpec> {
    let o = snap.object(id);
    match o.kind.as_str() {
        "ReplicaSet" => {
            Snapshot::view_of(snap.replica_sets(), id).map(|r| r.spec.template.spec.clone())
        }
        "StatefulSet" => {
            Snapshot::view_of(snap.stateful_sets(), id).map(|r| r.spec.template.spec.clone())
        }
        "DaemonSet" => {
            Snapshot::view_of(snap.daemon_sets(), id).map(|r| r.spec.template.spec.clone())
        }
        "Job" => Snapshot::view_of(snap.jobs(), id).map(|r| r.spec.template.spec.clone()),
        "Deployment" => {
            Snapshot::view_of(snap.deployments(), id).map(|r| r.spec.template.spec.clone())
        }
        _ => None,
    }
}

fn finding(
    snap: &Snapshot,
    id: ObjectId,
    want: i64,
    have: i64,
    text: &str,
    eid: Option<ObjectId>,
) -> Finding {
    let o = snap.object(id);
    let ns = o.namespace.clone().unwrap_or_default();
    let mut ev: Vec<Evidence> = Vec::new();
    match eid.and_then(|e| Snapshot::view_of(snap.events(), e).map(|ev| (e, ev))) {
        Some((e, event)) => ev.push(evidence::event(snap, e, event)),
        None => ev.push(evidence::field(
            snap,
            id,
            &["status", "conditions", "type=ReplicaFailure"],
            format!("ReplicaFailure=True: {text}"),
        )),
    }
    ev.push(evidence::field(
        snap,
        id,
        &["status"],
        format!("{} wants {want} pod(s), has {have}", o.kind),
    ));
    let spec = template(snap, id).unwrap_or_default();
    let lower = text.to_ascii_lowercase();
    let (cause, what, help) = if let Some(q) = parse_exceeded_quota(text) {
        quota(snap, &ns, &spec, &q, &mut ev)
    } else if lower.contains("failed quota") && lower.contains("must specify") {
        must_specify(snap, &ns, &spec, text, &mut ev)
    } else if let Some(name) = quoted_after(text, "admission webhook \"") {
        let reason = text
            .split("denied the request:")
            .nth(1)
            .map(str::trim)
            .unwrap_or("");
        webhook_evidence(snap, &name, &mut ev);
        (
            format!("webhook-denied:{name}"),
            format!(
                "admission webhook {name} denied the pod{}",
                if reason.is_empty() {
                    String::new()
                } else {
                    format!(": {reason}")
                }
            ),
            "change the pod template to satisfy the policy the webhook enforces (its message says what), or ask its owners for an exception".to_string(),
        )
    } else if let Some(name) = quoted_after(text, "failed calling webhook \"") {
        webhook_evidence(snap, &name, &mut ev);
        (
            format!("webhook-unavailable:{name}"),
            format!("the API server cannot call admission webhook {name} (its failurePolicy is Fail, so the pod is refused)"),
            "bring the webhook's Service and pods back (or fix its certificate); while it is down every pod it covers is refused".to_string(),
        )
    } else if let Some(rest) = text.split("violates PodSecurity \"").nth(1) {
        pod_security(snap, &ns, rest, &mut ev)
    } else if lower.contains("serviceaccount") && lower.contains("not found") {
        let sa = quoted_after(text, "serviceaccount \"")
            .or_else(|| spec.service_account_name.as_deref().map(String::from))
            .unwrap_or_else(|| "default".into());
        let p = pod_findings::presence(snap, "ServiceAccount", Some(&ns), &sa);
        let state = pod_findings::describe_presence("ServiceAccount", &ns, &sa, p);
        match p {
            Presence::Present(said) => ev.push(evidence::object(
                snap,
                said,
                format!(
                    "{state}: created after the error; the controller's next retry should succeed"
                ),
            )),
            _ => ev.push(note(state.clone())),
        }
        (
            format!("service-account:{sa}"),
            format!("its ServiceAccount {sa} does not exist ({state})"),
            "create the ServiceAccount in the namespace or fix serviceAccountName in the pod template".to_string(),
        )
    } else if let Some(claim) = text
        .strip_prefix("create Claim ")
        .and_then(|r| r.split_whitespace().next())
    {
        (
            format!("claim:{}", claim.trim_end_matches(char::is_numeric).trim_end_matches('-')),
            format!("the StatefulSet cannot create its PersistentVolumeClaim {claim}: {}", text.split(" failed error: ").nth(1).unwrap_or(text)),
            "fix what refuses the claim (storage quota, StorageClass, webhook); the StatefulSet creates the pod only after its claims".to_string(),
        )
    } else if lower.contains("limitrange")
        || (lower.contains("per container")
            && (lower.contains("maximum") || lower.contains("minimum")))
    {
        (
            "limit-range".to_string(),
            format!("a LimitRange refuses the pod's resources: {}", forbidden_part(text)),
            "bring the template's requests and limits inside the namespace LimitRange's min/max (or change the LimitRange)".to_string(),
        )
    } else {
        (
            "forbidden".to_string(),
            format!("the API server refuses the pod: {}", forbidden_part(text)),
            "read the API server's message: it names the admission plugin or policy that refused the pod".to_string(),
        )
    };
    let message = format!(
        "{} cannot create its pods ({have} of {want} exist): {what}",
        if pod_findings::owner_of(snap, id).kind == o.kind {
            o.kind.clone()
        } else {
            format!("its {} {}", o.kind, o.name)
        }
    );
    let explains: Vec<ObjectId> = Vec::new();
    Finding::new(
        &FAILED_CREATE,
        Severity::Error,
        pod_findings::owner_of(snap, id),
        &cause,
        message,
        ev,
        help,
        explains,
    )
}

/// `pods "x" is forbidden: <this>`.
fn forbidden_part(text: &str) -> &str {
    text.split("is forbidden: ").nth(1).unwrap_or(text).trim()
}

/// The text between `prefix` and the next `"`.
fn quoted_after(text: &str, prefix: &str) -> Option<String> {
    let rest = text.split(prefix).nth(1)?;
    rest.split_once('"').map(|(n, _)| n.to_string())
}

/// `exceeded quota: NAME, requested: k=v,k=v, used: k=v, limited: k=v`.
#[derive(Debug, PartialEq, Eq)]
pub struct QuotaMessage {
    pub name: String,
    pub requested: BTreeMap<String, String>,
    pub used: BTreeMap<String, String>,
    pub limited: BTreeMap<String, String>,
}

pub fn parse_exceeded_quota(text: &str) -> Option<QuotaMessage> {
    let rest = text
        .split("exceeded quota: ")
        .nth(1)
        .or_else(|| text.split("Exceeded quota: ").nth(1))?;
    let (name, rest) = rest.split_once(", requested: ")?;
    let (requested, rest) = rest.split_once(", used: ")?;
    let (used, limited) = rest.split_once(", limited: ")?;
    let kv = |s: &str| -> BTreeMap<String, String> {
        s.trim()
            .split(',')
            .filter_map(|p| p.split_once('='))
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect()
    };
    Some(QuotaMessage {
        name: name.trim().to_string(),
        requested: kv(requested),
        used: kv(used),
        limited: kv(limited),
    })
}

/// LimitRange defaults the API server would add to the template's containers, and which
/// LimitRange supplied them.
fn with_limit_range_defaults(snap: &Snapshot, ns: &str, spec: &PodSpec) -> (PodSpec, Vec<String>) {
    let mut out = spec.clone();
    let mut notes = Vec::new();
    for (_, lr) in snap
        .limit_ranges()
        .iter()
        .filter(|(id, _)| snap.object(*id).namespace.as_deref() == Some(ns))
    {
        for item in lr.spec.limits.iter().filter(|i| i.type_ == "Container") {
            for c in out
                .containers
                .iter_mut()
                .chain(out.init_containers.iter_mut())
            {
                for (r, q) in &item.default {
                    if !c.resources.limits.contains_key(r) {
                        c.resources.limits.insert(r.clone(), q.clone());
                        notes.push(format!(
                            "limits.{r} {} for container {} from LimitRange {}",
                            q.raw, c.name, lr.metadata.name
                        ));
                    }
                }
                let defaults: Vec<(String, Qty)> = item
                    .default_request
                    .iter()
                    .chain(item.default.iter())
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect();
                for (r, q) in defaults {
                    if !c.resources.requests.contains_key(&r) && !spec_has_limit(spec, &c.name, &r)
                    {
                        notes.push(format!(
                            "requests.{r} {} for container {} from LimitRange {}",
                            q.raw, c.name, lr.metadata.name
                        ));
                        c.resources.requests.insert(r, q);
                    }
                }
            }
        }
    }
    (out, notes)
}

/// The container set this limit itself (API defaulting then copies it to the request).
fn spec_has_limit(spec: &PodSpec, container: &str, r: &str) -> bool {
    spec.containers
        .iter()
        .chain(spec.init_containers.iter())
        .any(|c| c.name == container && c.resources.limits.contains_key(r))
}

/// What one pod adds to a quota key (`requests.cpu`, `cpu`, `limits.memory`, `pods`, …);
/// `None` when a value it rests on does not read.
fn pod_usage(spec: &PodSpec, key: &str) -> Option<Quantity> {
    if matches!(key, "pods" | "count/pods") {
        return Some(Quantity::from_units(1));
    }
    let (limits, res) = if let Some(r) = key.strip_prefix("limits.") {
        (true, r)
    } else if let Some(r) = key.strip_prefix("requests.") {
        (false, r)
    } else {
        (false, key)
    };
    let spec = if limits {
        let mut s = spec.clone();
        for c in s.containers.iter_mut().chain(s.init_containers.iter_mut()) {
            c.resources.requests = c.resources.limits.clone();
        }
        if let Some(pl) = s.resources.as_mut() {
            pl.requests = pl.limits.clone();
        }
        s
    } else {
        spec.clone()
    };
    if unread_requests(&spec).iter().any(|u| u.resource == res) {
        return None;
    }
    Some(
        effective_requests(&spec)
            .get(res)
            .copied()
            .unwrap_or_default(),
    )
}

fn qty(list: &ResourceList, k: &str) -> Option<Quantity> {
    list.get(k).and_then(|q| q.value)
}

fn quota(
    snap: &Snapshot,
    ns: &str,
    spec: &PodSpec,
    q: &QuotaMessage,
    ev: &mut Vec<Evidence>,
) -> (String, String, String) {
    let keys: Vec<&String> = q.requested.keys().collect();
    let cause = format!(
        "quota:{}:{}",
        q.name,
        keys.iter()
            .map(|k| k.as_str())
            .collect::<Vec<_>>()
            .join(",")
    );
    let (spec_d, defaults) = with_limit_range_defaults(snap, ns, spec);
    let mut parts = Vec::new();
    let mut room_now = true;
    let rq = snap
        .find("ResourceQuota", Some(ns), &q.name)
        .and_then(|id| Snapshot::view_of(snap.resource_quotas(), id).map(|r| (id, r)));
    for k in &keys {
        let need = pod_usage(&spec_d, k);
        let msg_req = q.requested.get(*k).cloned().unwrap_or_default();
        match &rq {
            Some((_, r)) => {
                let hard = r.hard(k).and_then(|x| x.value);
                let used = qty(&r.status.used, k);
                match (hard, used, need) {
                    (Some(h), Some(u), Some(n)) => {
                        let free = h.saturating_sub(u);
                        let fits = n <= free;
                        room_now &= fits;
                        let agrees = Quantity::parse(&msg_req).ok().map(|m| m == n);
                        let [u_text, h_text, n_text, free_text]: [String; 4] =
                            Quantity::display_apart(k, &[u, h, n, free])
                                .try_into()
                                .unwrap_or_default();
                        parts.push(format!(
                            "{k}: used {u_text} of {h_text} hard, each pod needs {n_text} ({free_text} free{}){}",
                            if fits { ", enough now" } else { "" },
                            match agrees {
                                Some(true) => String::new(),
                                Some(false) => format!(
                                    "; the API server counted {msg_req} per pod, so the template or the LimitRange changed since"
                                ),
                                None => String::new(),
                            }
                        ));
                    }
                    _ => {
                        room_now = false;
                        let why = if need.is_none() {
                            "a request or limit of the pod for it does not read"
                        } else if r.hard(k).is_some_and(|x| x.value.is_none())
                            || r.status.used.get(k).is_some_and(|x| x.value.is_none())
                        {
                            "the quota object's value for it does not read"
                        } else {
                            "the quota object's status does not say"
                        };
                        parts.push(format!(
                            "{k}: requested {msg_req}, used {}, limited {} ({why})",
                            q.used.get(*k).cloned().unwrap_or_default(),
                            q.limited.get(*k).cloned().unwrap_or_default()
                        ));
                    }
                }
            }
            None => {
                room_now = false;
                parts.push(format!(
                    "{k}: requested {msg_req}, used {}, limited {}",
                    q.used.get(*k).cloned().unwrap_or_default(),
                    q.limited.get(*k).cloned().unwrap_or_default()
                ));
            }
        }
    }
    match &rq {
        Some((id, _)) => ev.push(evidence::field(
            snap,
            *id,
            &["status", "used"],
            format!("ResourceQuota {}: {}", q.name, parts.join("; ")),
        )),
        None => ev.push(note(pod_findings::describe_presence(
            "ResourceQuota",
            ns,
            &q.name,
            pod_findings::presence(snap, "ResourceQuota", Some(ns), &q.name),
        ))),
    }
    let relevant: Vec<&String> = defaults
        .iter()
        .filter(|d| {
            keys.iter().any(|k| {
                let full = if k.contains('.')
                    && (k.starts_with("requests.") || k.starts_with("limits."))
                {
                    k.to_string()
                } else {
                    format!("requests.{k}")
                };
                d.starts_with(&format!("{full} "))
            })
        })
        .collect();
    if !relevant.is_empty() {
        ev.push(note(format!(
            "LimitRange defaults the API server adds: {}",
            relevant
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        )));
    }
    let mut what = format!(
        "ResourceQuota {} is exhausted — {}",
        q.name,
        parts.join("; ")
    );
    if !relevant.is_empty() {
        what.push_str(&format!(
            " (the request includes LimitRange defaults: {})",
            relevant
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    if rq.is_some() && room_now {
        what.push_str("; the quota as the bundle shows it has room now: the error predates the quota's current status, and the controller's next retry should succeed");
    }
    (
        cause,
        what,
        format!(
            "raise ResourceQuota {}'s hard limits, free quota (scale down or delete other workloads in {ns}), or lower the template's requests/limits",
            q.name
        ),
    )
}

fn must_specify(
    snap: &Snapshot,
    ns: &str,
    spec: &PodSpec,
    text: &str,
    ev: &mut Vec<Evidence>,
) -> (String, String, String) {
    let rest = text.split("failed quota: ").nth(1).unwrap_or(text);
    let (name, list) = rest.split_once(':').unwrap_or((rest, ""));
    let list = list.trim().trim_start_matches("must specify").trim();
    let (spec_d, _) = with_limit_range_defaults(snap, ns, spec);
    // Newer: "limits.cpu for: a, b; limits.memory for: a"; older: "limits.cpu,limits.memory".
    let keys: Vec<&str> = if list.contains(" for:") {
        list.split(';')
            .filter_map(|p| p.split(" for:").next())
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .collect()
    } else {
        list.split(',')
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .collect()
    };
    let mut lacking = Vec::new();
    for key in keys.iter().copied() {
        let (is_limit, res) = match key.strip_prefix("limits.") {
            Some(r) => (true, r),
            None => (false, key.strip_prefix("requests.").unwrap_or(key)),
        };
        let names: Vec<&str> = spec_d
            .containers
            .iter()
            .filter(|c| {
                let l = if is_limit {
                    &c.resources.limits
                } else {
                    &c.resources.requests
                };
                // A limit stands in for a missing request (API defaulting).
                !l.contains_key(res) && (is_limit || !c.resources.limits.contains_key(res))
            })
            .map(|c| c.name.as_str())
            .collect();
        if !names.is_empty() {
            lacking.push(format!("{key} (containers {})", names.join(", ")));
        }
    }
    let lr = snap
        .limit_ranges()
        .iter()
        .any(|(id, _)| snap.object(*id).namespace.as_deref() == Some(ns));
    ev.push(note(if lr {
        "the namespace's LimitRange defaults do not cover these resources".to_string()
    } else if snap.has_kind("LimitRange") {
        format!("no LimitRange in {ns} supplies defaults")
    } else {
        "the bundle holds no LimitRanges, so whether defaults exist is unknown".to_string()
    }));
    (
        format!("quota-must-specify:{}", name.trim()),
        format!(
            "ResourceQuota {} requires every container to set {}{}",
            name.trim(),
            keys.join(", "),
            if lacking.is_empty() {
                String::new()
            } else {
                format!("; the template lacks {}", lacking.join(", "))
            }
        ),
        "set the missing requests/limits on every container of the template (init containers too), or add a LimitRange with defaults to the namespace".to_string(),
    )
}

fn pod_security(
    snap: &Snapshot,
    ns: &str,
    rest: &str,
    ev: &mut Vec<Evidence>,
) -> (String, String, String) {
    let (level, checks) = rest.split_once("\":").unwrap_or((rest, ""));
    let checks = checks.trim();
    if let Some((nsid, n)) = snap
        .namespaces()
        .iter()
        .find(|(_, n)| n.metadata.name == ns)
    {
        let labels: Vec<String> = n
            .metadata
            .labels
            .iter()
            .filter(|(k, _)| k.starts_with("pod-security.kubernetes.io/"))
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        ev.push(evidence::field(
            snap,
            *nsid,
            &["metadata", "labels"],
            if labels.is_empty() {
                format!("namespace {ns}: no pod-security labels (the cluster default applies)")
            } else {
                format!("namespace {ns}: {}", labels.join(", "))
            },
        ));
    }
    let level_name = level.split(':').next().unwrap_or(level);
    (
        format!("pod-security:{level_name}"),
        format!("it violates PodSecurity \"{level}\" enforced on namespace {ns}: {checks}"),
        format!(
            "set what each failing check asks for in the template's securityContext (pod and containers), or lower the namespace's pod-security.kubernetes.io/enforce level if {level_name} is not intended"
        ),
    )
}

fn webhook_evidence(snap: &Snapshot, name: &str, ev: &mut Vec<Evidence>) {
    for kind in [
        "ValidatingWebhookConfiguration",
        "MutatingWebhookConfiguration",
    ] {
        for &id in snap.ids_of(kind) {
            let Some(hooks) = snap
                .object(id)
                .value()
                .get("webhooks")
                .and_then(Value::as_array)
            else {
                continue;
            };
            if let Some(h) = hooks
                .iter()
                .find(|h| h.get("name").and_then(Value::as_str) == Some(name))
            {
                let svc = h
                    .pointer("/clientConfig/service")
                    .map(|s| {
                        format!(
                            "service {}/{}",
                            s.get("namespace").and_then(Value::as_str).unwrap_or(""),
                            s.get("name").and_then(Value::as_str).unwrap_or("")
                        )
                    })
                    .or_else(|| {
                        h.pointer("/clientConfig/url")
                            .and_then(Value::as_str)
                            .map(|u| format!("url {u}"))
                    })
                    .unwrap_or_default();
                ev.push(evidence::object(
                    snap,
                    id,
                    format!(
                        "{kind} {}: webhook {name}, failurePolicy {}, {svc}",
                        snap.object(id).name,
                        h.get("failurePolicy")
                            .and_then(Value::as_str)
                            .unwrap_or("Fail")
                    ),
                ));
                return;
            }
        }
    }
    if !snap.has_kind("ValidatingWebhookConfiguration")
        && !snap.has_kind("MutatingWebhookConfiguration")
    {
        ev.push(note("the bundle holds no webhook configurations"));
    }
}

/// A Deployment's own ReplicaFailure condition (kept when its ReplicaSets are not in the bundle).
pub fn deployment_replica_failure(snap: &Snapshot, id: ObjectId) -> Option<String> {
    let d = Snapshot::view_of(snap.deployments(), id)?;
    condition(&d.status.conditions, "ReplicaFailure")
        .filter(|c| c.status == "True")
        .and_then(|c| c.message.as_deref().map(String::from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quota_messages() {
        let q = parse_exceeded_quota("Error creating: pods \"api-7d9-x\" is forbidden: exceeded quota: compute, requested: requests.cpu=2,requests.memory=1Gi, used: requests.cpu=9,requests.memory=3Gi, limited: requests.cpu=10,requests.memory=8Gi").unwrap();
        assert_eq!(q.name, "compute");
        assert_eq!(q.requested["requests.cpu"], "2");
        assert_eq!(q.used["requests.memory"], "3Gi");
        assert_eq!(q.limited["requests.cpu"], "10");
        assert!(
            parse_exceeded_quota("pods \"x\" is forbidden: failed quota: q: must specify cpu")
                .is_none()
        );
    }

    #[test]
    fn quoted_names() {
        assert_eq!(
            quoted_after(
                "admission webhook \"validation.gatekeeper.sh\" denied the request: [no-latest] image tag latest",
                "admission webhook \""
            ),
            Some("validation.gatekeeper.sh".into())
        );
        assert_eq!(
            forbidden_part("Error creating: pods \"a\" is forbidden: x y"),
            "x y"
        );
    }
}

//! Helpers shared by the pod-level rules of the creation, scheduling, node and runtime
//! areas and by the generic classifier (`pod/stuck`): the owner a pod is reported on (and
//! the Job that owns it), the grouped finding ("3 pods of this Deployment stopped the
//! same way; …"), node and event evidence, and what a bundle says about a referenced
//! object (present, absent from a bundle that holds that kind, or not collected at all).

use crate::kube::event::Event;
use crate::kube::meta::ObjectRef;
use crate::kube::pod::Pod;
use crate::kube::workload::Job;
use crate::rules::evidence;
use crate::rules::statefulset_ordinals;
use crate::rules::{Evidence, Finding, RuleMeta, Severity};
use crate::snapshot::{ObjectId, Snapshot};

/// One pod a rule explains, before grouping.
pub struct Case {
    pub id: ObjectId,
    /// Completes "pod X …".
    pub summary: String,
    pub evidence: Vec<Evidence>,
}

/// Pods listed by name in a grouped finding's evidence before "and N more".
pub const EVIDENCE_PODS: usize = 3;

/// The object a pod is reported on: its top-level controller, else the pod itself.
pub fn owner_of(snap: &Snapshot, id: ObjectId) -> ObjectRef {
    snap.top_controller(id)
        .map(|(r, _)| r)
        .unwrap_or_else(|| snap.object(id).reference())
}

/// The Job that directly owns a pod, when it is in the bundle.
pub fn owning_job<'a>(snap: &'a Snapshot, pod: &Pod) -> Option<(ObjectId, &'a Job)> {
    let owner = pod
        .metadata
        .owner_references
        .iter()
        .find(|o| o.kind == "Job")?;
    let id = snap
        .by_uid(&owner.uid)
        .or_else(|| snap.find("Job", pod.metadata.namespace.as_deref(), &owner.name))?;
    Snapshot::view_of(snap.jobs(), id).map(|j| (id, j))
}

/// One finding for pods that stopped the same way under one owner.
pub fn pods_finding(
    snap: &Snapshot,
    rule: &RuleMeta,
    severity: Severity,
    owner: ObjectRef,
    cause: &str,
    cases: Vec<Case>,
    help: String,
) -> Finding {
    pods_finding_also(snap, rule, severity, owner, &[], cause, cases, help)
}

/// Like [`pods_finding`], for pods of several owners failing the same way (one image
/// pulled by two Deployments): reported on `owner`, naming the others.
#[allow(clippy::too_many_arguments)]
pub fn pods_finding_also(
    snap: &Snapshot,
    rule: &RuleMeta,
    severity: Severity,
    owner: ObjectRef,
    also: &[ObjectRef],
    cause: &str,
    cases: Vec<Case>,
    help: String,
) -> Finding {
    let first_name = cases
        .first()
        .map(|c| snap.object(c.id).name.clone())
        .unwrap_or_default();
    let first_summary = cases.first().map(|c| c.summary.clone()).unwrap_or_default();
    let is_pod = owner.kind == "Pod";
    let mut message = if !also.is_empty() {
        let mut owners = vec![owner.display()];
        owners.extend(also.iter().map(ObjectRef::display));
        format!(
            "{} pods of {} stopped the same way; {first_name} {first_summary}",
            cases.len(),
            owners.join(", ")
        )
    } else if is_pod {
        format!("pod {first_name} {first_summary}")
    } else if cases.len() == 1 {
        format!("pod {first_name} of this {} {first_summary}", owner.kind)
    } else {
        format!(
            "{} pods of this {} stopped the same way; {first_name} {first_summary}",
            cases.len(),
            owner.kind
        )
    };
    let controller_id = if is_pod {
        None
    } else {
        snap.find(&owner.kind, owner.namespace.as_deref(), &owner.name)
    };
    if owner.kind == "StatefulSet"
        && let (Some(sid), Some(first)) = (controller_id, cases.first())
        && let Some(note) = statefulset_ordinals::blocked_note(snap, sid, first.id)
    {
        if message.ends_with('.') {
            let mut chars = note.chars();
            let capital: String = chars
                .next()
                .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
                .unwrap_or_default();
            message.push(' ');
            message.push_str(&capital);
            message.push('.');
        } else {
            message.push_str("; ");
            message.push_str(&note);
        }
    }
    let names: Vec<String> = cases
        .iter()
        .map(|c| snap.object(c.id).name.clone())
        .collect();
    let explains: Vec<ObjectId> = cases.iter().map(|c| c.id).collect();
    let mut ev = Vec::new();
    for (i, c) in cases.into_iter().enumerate() {
        if i == 0 || (rule.fallback && i < EVIDENCE_PODS) {
            ev.extend(c.evidence);
        } else if i < EVIDENCE_PODS {
            // Specific rules: the first pod's evidence speaks for the group; the others
            // show their own status line.
            ev.extend(c.evidence.into_iter().take(1));
        }
    }
    if let Some(cid) = controller_id {
        ev.push(evidence::object(
            snap,
            cid,
            format!("controller of the pods: {}", owner.display()),
        ));
    }
    if names.len() > EVIDENCE_PODS {
        ev.push(note(format!(
            "and {} more pod(s): {}",
            names.len() - EVIDENCE_PODS,
            names[EVIDENCE_PODS..].join(", ")
        )));
    }
    let mut f = Finding::new(rule, severity, owner, cause, message, ev, help, explains);
    f.details = Some(serde_json::json!({ "pods": names }));
    f
}

/// Evidence that points at nothing in the bundle: a derived fact.
pub fn note(text: impl Into<String>) -> Evidence {
    Evidence {
        object: None,
        input: None,
        file: None,
        line: None,
        note: text.into(),
    }
}

/// The node's Ready condition (and cordon), or a note that it is not in the bundle.
pub fn node_evidence(snap: &Snapshot, node: &str) -> Evidence {
    match snap.node_named(node) {
        Some((nid, n)) => evidence::field(
            snap,
            nid,
            &["status", "conditions", "type=Ready"],
            format!(
                "node {node}: Ready={}{}",
                n.ready_status().unwrap_or("unknown"),
                if n.spec.unschedulable {
                    ", cordoned"
                } else {
                    ""
                }
            ),
        ),
        None => Evidence {
            object: Some(ObjectRef {
                api_version: "v1".into(),
                kind: "Node".into(),
                namespace: None,
                name: node.into(),
            }),
            input: None,
            file: None,
            line: None,
            note: if snap.has_kind("Node") {
                format!("node {node} is not in the bundle (deleted?)")
            } else {
                "the bundle holds no Node objects".into()
            },
        },
    }
}

/// Events among `events` with one of `reasons`, oldest first.
pub fn events_with<'a>(
    events: &'a [(ObjectId, &'a Event)],
    reasons: &[&str],
) -> Vec<&'a (ObjectId, &'a Event)> {
    events
        .iter()
        .filter(|(_, e)| reasons.contains(&e.reason.as_str()))
        .collect()
}

/// Evidence for the last `n` of `evs`, oldest first.
pub fn last_events(snap: &Snapshot, evs: &[&(ObjectId, &Event)], n: usize) -> Vec<Evidence> {
    let skip = evs.len().saturating_sub(n);
    evs[skip..]
        .iter()
        .map(|(eid, e)| evidence::event(snap, *eid, e))
        .collect()
}

/// What the bundle says about a named object a pod refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    Present(ObjectId),
    /// The bundle lists every object of that kind in that namespace (see
    /// [`Snapshot::listed_whole`]), and not this one: it does not exist.
    Absent,
    /// The bundle holds other objects of that kind in that namespace, but no complete
    /// list of them (a partial paste): whether this one exists is unknown.
    Unlisted,
    /// The bundle holds no object of that kind in that namespace: it was not collected.
    NotCollected,
}

impl Presence {
    /// Absent, or not in the bundle (whether it exists being unknown).
    pub fn missing(self) -> bool {
        !matches!(self, Presence::Present(_))
    }
}

/// Looks up `kind namespace/name` and says whether its absence means anything: only a
/// whole listing of the kind there proves it does not exist.
pub fn presence(snap: &Snapshot, kind: &str, namespace: Option<&str>, name: &str) -> Presence {
    if let Some(id) = snap.find(kind, namespace, name) {
        return Presence::Present(id);
    }
    if snap.listed_whole(kind, namespace) {
        return Presence::Absent;
    }
    let others = snap
        .ids_of(kind)
        .iter()
        .any(|&id| snap.object(id).namespace.as_deref() == namespace);
    if others {
        Presence::Unlisted
    } else {
        Presence::NotCollected
    }
}

/// "Secret demo/regcred is in the bundle" / "… does not exist (the bundle lists every
/// Secret of demo)" / "… is not in the bundle, which holds other Secrets of demo but no
/// complete list of them" / "… is not in the bundle, which holds no Secrets of demo".
pub fn describe_presence(kind: &str, namespace: &str, name: &str, p: Presence) -> String {
    match p {
        Presence::Present(_) => format!("{kind} {namespace}/{name} is in the bundle"),
        Presence::Absent => format!(
            "{kind} {namespace}/{name} does not exist: the bundle lists every {kind} of {namespace}, and not this one"
        ),
        Presence::Unlisted => format!(
            "{kind} {namespace}/{name} is not in the bundle, which holds other {kind}s of {namespace} but no complete list of them; whether it exists is unknown"
        ),
        Presence::NotCollected => format!(
            "{kind} {namespace}/{name} is not in the bundle, which holds no {kind}s of {namespace}; whether it exists is unknown"
        ),
    }
}

/// The pod's namespace ("" when none).
pub fn namespace_of(snap: &Snapshot, id: ObjectId) -> &str {
    snap.object(id).namespace.as_deref().unwrap_or("")
}

/// "3 nodes" / "1 node".
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// First `max` characters of a message, on a char boundary, with "…" when cut.
pub fn clip(s: &str, max: usize) -> String {
    let s = s.trim();
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max).collect();
    out.push('…');
    out
}

/// The pod's top-level controller has as many ready replicas as it wants, so Failed pods
/// under it are leftovers.
pub fn controller_is_healthy(snap: &Snapshot, pod: ObjectId) -> bool {
    let Some((cref, Some(cid))) = snap.top_controller(pod) else {
        return false;
    };
    match cref.kind.as_str() {
        "Deployment" => Snapshot::view_of(snap.deployments(), cid)
            .is_some_and(|d| d.spec.desired() > 0 && d.status.ready_replicas >= d.spec.desired()),
        "ReplicaSet" => Snapshot::view_of(snap.replica_sets(), cid)
            .is_some_and(|d| d.spec.desired() > 0 && d.status.ready_replicas >= d.spec.desired()),
        "StatefulSet" => Snapshot::view_of(snap.stateful_sets(), cid)
            .is_some_and(|d| d.spec.desired() > 0 && d.status.ready_replicas >= d.spec.desired()),
        "DaemonSet" => Snapshot::view_of(snap.daemon_sets(), cid).is_some_and(|d| {
            d.status.desired_number_scheduled > 0
                && d.status.number_ready >= d.status.desired_number_scheduled
        }),
        "Job" => Snapshot::view_of(snap.jobs(), cid).is_some_and(|j| j.is_complete()),
        _ => false,
    }
}

/// Containers are still being created: every status waits in ContainerCreating or
/// PodInitializing, or there are no statuses yet.
pub fn creating(pod: &crate::kube::pod::Pod) -> bool {
    let mut statuses = pod.all_statuses().peekable();
    if statuses.peek().is_none() {
        return true;
    }
    pod.all_statuses().all(|(cs, _)| {
        cs.state.waiting.as_ref().is_some_and(|w| {
            matches!(
                w.reason.as_deref(),
                Some("ContainerCreating") | Some("PodInitializing") | None
            )
        }) || cs
            .state
            .terminated
            .as_ref()
            .is_some_and(|t| t.exit_code == Some(0))
    })
}

/// A pod created less than this many seconds before the snapshot has had no time for
/// anything to happen: the scheduler binds or reports within a second or two, the kubelet
/// starts containers (pulling images) and probes within tens of seconds, and each writes an
/// event when it fails. Diagnoses that rest on a missing event or condition are `info` at
/// most under it.
pub const JUST_CREATED_SECS: i64 = 60;

/// Seconds from the pod's creation to the snapshot, when under [`JUST_CREATED_SECS`].
pub fn just_created(snap: &Snapshot, pod: &crate::kube::pod::Pod) -> Option<i64> {
    let created = pod
        .metadata
        .creation_timestamp
        .as_deref()
        .and_then(crate::kube::time::parse_timestamp)?;
    let age = snap.as_of? - created;
    (0..JUST_CREATED_SECS).contains(&age).then_some(age)
}

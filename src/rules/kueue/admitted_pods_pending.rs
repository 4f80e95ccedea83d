//! Admitted Workloads whose pods stay Pending: a scheduler problem, not a queue one.

use super::chain::words::{flavor_words, join_and, node_label_words};
use super::chain::{self, Chain, Ctx, Verdict};
use super::model::{flavor_tolerations, kueue_gated};
use crate::declare_rule;
use crate::kube::kueue::ResourceFlavor;
use crate::kube::placement::untolerated;
use crate::rules::reach::Reach;
use crate::rules::{Context, Evidence, Finding, Severity, Stage, evidence};
use crate::snapshot::Snapshot;
use std::collections::BTreeMap;

declare_rule! {
    /// Kueue admitted the Workload but its pods are Pending: quota is not capacity, the scheduler decides now.
    ///
    /// Once admitted, Kueue unsuspends the Job and injects each assigned flavor's
    /// `nodeLabels` (as nodeSelector) and `tolerations` into the pods; from then on the
    /// kube-scheduler places them. Pods that stay unscheduled are a `scheduling` problem:
    /// the finding cites the flavor's labels and tolerations, counts the nodes in the
    /// bundle that carry those labels (and whose taints the pods tolerate), and quotes the
    /// scheduler's own message. A quota larger than the nodes behind a flavor is the
    /// classic cause.
    pub static ADMITTED_PODS_PENDING = {
        id: "kueue/admitted-pods-pending",
        stage: Stage::Scheduling,
        severity: Severity::Error,
        fallback: false,
        // Wide: see `kueue_reach`.
        reach: Reach::Wide(super::kueue_reach),
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    if !ctx.snapshot.has_kind("Workload") {
        return Vec::new();
    }
    let snap = ctx.snapshot;
    let ids = chain::workloads_with(ctx, &["admitted"]);
    if ids.is_empty() {
        return Vec::new();
    }
    let k = Ctx::new(snap);
    ids.into_iter()
        .filter_map(|id| {
            let w = Snapshot::view_of(snap.workloads(), id)?;
            let c = chain::analyze(&k, id, w);
            matches!(c.verdict, Verdict::Admitted)
                .then(|| finding(&k, &c))
                .flatten()
        })
        .collect()
}

fn finding(k: &Ctx, c: &Chain) -> Option<Finding> {
    let snap = c.snap;
    let pending: Vec<_> = c
        .pods
        .iter()
        .filter_map(|id| snap.pod(*id).map(|p| (*id, p)))
        .filter(|(_, p)| {
            p.phase() == "Pending"
                && p.spec.node_name.as_deref().unwrap_or("").is_empty()
                && p.metadata.deletion_timestamp.is_none()
        })
        .collect();
    if pending.is_empty() {
        return None;
    }
    let adm = c.wl.status.admission.as_ref()?;
    let cq = &adm.cluster_queue;
    // Flavors assigned at admission.
    let mut flavors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for psa in &adm.pod_set_assignments {
        for (res, f) in &psa.flavors {
            flavors.entry(f.clone()).or_default().push(res.clone());
        }
    }
    let mut ev: Vec<Evidence> = vec![k.field(
        c.id,
        &["status", "admission", "clusterQueue"],
        format!(
            "admitted in ClusterQueue {cq}: {}",
            flavors
                .iter()
                .map(|(f, rs)| format!("flavor {f} for {}", rs.join(", ")))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    )];
    let (first_id, first) = pending[0];
    let gated: Vec<_> = pending
        .iter()
        .filter(|(_, p)| kueue_gated(&p.spec))
        .collect();
    let (flavor_facts, no_nodes) =
        flavor_evidence(snap, flavors.keys(), &first.spec.tolerations, &mut ev);
    // The scheduler's words for the first pending pod.
    let cond = first
        .condition("PodScheduled")
        .filter(|p| p.status == "False");
    let events: Vec<_> = snap
        .events_for(first_id)
        .into_iter()
        .filter(|(_, e)| e.reason == "FailedScheduling")
        .collect();
    let sched_msg = cond
        .and_then(|p| p.message.as_deref().map(String::from))
        .filter(|m| !m.is_empty())
        .or_else(|| events.last().map(|(_, e)| e.message.clone()));
    if let Some(p) = cond {
        ev.push(k.field(
            first_id,
            &["status", "conditions", "type=PodScheduled"],
            format!(
                "pod {}: PodScheduled=False, reason {}: {}",
                first.metadata.name,
                p.reason.as_deref().unwrap_or("(none)"),
                p.message.as_deref().unwrap_or("")
            ),
        ));
    }
    if let Some((eid, e)) = events.last() {
        ev.push(evidence::event(snap, *eid, e));
    }
    if !first.spec.node_selector.is_empty() {
        let sel: Vec<String> = first
            .spec
            .node_selector
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        ev.push(k.field(
            first_id,
            &["spec", "nodeSelector"],
            format!(
                "pod {} nodeSelector {} (flavor labels are injected at admission)",
                first.metadata.name,
                sel.join(", ")
            ),
        ));
    }
    if let Some((_, _, Some(oid))) = &c.owner {
        ev.push(evidence::object(
            snap,
            *oid,
            format!(
                "{} {}/{}",
                snap.object(*oid).kind,
                c.namespace,
                snap.object(*oid).name
            ),
        ));
    }
    let names: Vec<String> = pending
        .iter()
        .map(|(id, _)| snap.object(*id).name.clone())
        .collect();
    let subject = c.subject_with_workload();
    let mut message = format!(
        "{subject} is admitted in ClusterQueue {cq}, but {} of its pods {} Pending without a node",
        pending.len(),
        if pending.len() == 1 { "is" } else { "are" }
    );
    if !flavor_facts.is_empty() {
        message.push_str(&format!("; {}", join_and(&flavor_facts)));
    }
    if !gated.is_empty() {
        message.push_str(&format!(
            "; {} still carry the kueue.x-k8s.io/admission gate",
            gated.len()
        ));
    }
    match &sched_msg {
        Some(m) => message.push_str(&format!("; the scheduler says: {}", m.trim())),
        None => message.push_str("; the bundle holds no scheduler decision for them (no PodScheduled=False, no FailedScheduling event)"),
    }
    let severity = if sched_msg.is_some() || !no_nodes.is_empty() {
        Severity::Error
    } else {
        Severity::Warning
    };
    let help = if !no_nodes.is_empty() {
        format!(
            "Kueue's quota for flavor(s) {} has no nodes behind it: add nodes with the flavor's labels, or fix the ResourceFlavor's nodeLabels; more quota will not help",
            no_nodes.join(", ")
        )
    } else {
        "quota is not capacity: compare the pods' requests, nodeSelector (with the flavor's injected labels) and tolerations with the nodes; the scheduler's message names the constraint".into()
    };
    let mut explains: Vec<_> = pending.iter().map(|(id, _)| *id).collect();
    explains.push(c.id);
    if let Some((_, _, Some(oid))) = &c.owner {
        explains.push(*oid);
    }
    let object = match &c.owner {
        Some((_, _, Some(oid))) => snap.object(*oid).reference(),
        _ => snap.object(c.id).reference(),
    };
    let mut f = Finding::new(
        &ADMITTED_PODS_PENDING,
        severity,
        object,
        "admitted-pods-pending",
        message,
        ev,
        help,
        explains,
    );
    let mut details = c.details(k);
    details["pending_pods"] = serde_json::json!(names);
    f.details = Some(details);
    Some(f)
}

/// Evidence for each flavor assigned at admission and the nodes behind it: (a fact per
/// flavor for the message, the flavors no node can serve).
fn flavor_evidence<'f>(
    snap: &Snapshot,
    flavors: impl Iterator<Item = &'f String>,
    tolerations: &[crate::kube::pod::Toleration],
    ev: &mut Vec<Evidence>,
) -> (Vec<String>, Vec<String>) {
    let mut flavor_facts = Vec::new();
    let mut no_nodes = Vec::new();
    for f in flavors {
        let rf: Option<(_, &ResourceFlavor)> = snap
            .find("ResourceFlavor", None, f)
            .and_then(|id| Snapshot::view_of(snap.resource_flavors(), id).map(|v| (id, v)));
        let Some((fid, rf)) = rf else {
            ev.push(chain::evidence::missing(
                "ResourceFlavor",
                None,
                f,
                "assigned at admission, not in the bundle",
            ));
            continue;
        };
        let nodes = matching_nodes(snap, rf, tolerations);
        let labels = node_label_words(rf);
        let node_words = match nodes {
            None => String::new(),
            Some((0, _)) if labels.is_empty() => String::new(),
            Some((0, 0)) => {
                no_nodes.push(f.clone());
                format!("no node in the bundle carries {}", labels.join(", "))
            }
            Some((0, labelled)) => {
                no_nodes.push(f.clone());
                format!(
                    "{labelled} node(s) carry {} but have taints the pods do not tolerate",
                    labels.join(", ")
                )
            }
            Some((n, _)) => format!(
                "{n} node(s) in the bundle carry {}",
                if labels.is_empty() {
                    "no required labels".into()
                } else {
                    labels.join(", ")
                }
            ),
        };
        ev.push(evidence::object(
            snap,
            fid,
            format!(
                "{}{}",
                flavor_words(rf, None),
                if node_words.is_empty() {
                    String::new()
                } else {
                    format!("; {node_words}")
                }
            ),
        ));
        let mut fact = format!("flavor {f}");
        if !labels.is_empty() {
            fact.push_str(&format!(" (nodeLabels {})", labels.join(", ")));
        }
        if !node_words.is_empty() {
            fact.push_str(&format!(": {node_words}"));
        }
        flavor_facts.push(fact);
    }
    (flavor_facts, no_nodes)
}

/// (nodes carrying the flavor's labels whose NoSchedule/NoExecute taints the pods or the
/// flavor tolerate, nodes carrying the labels at all); `None` when no Nodes were collected.
fn matching_nodes(
    snap: &Snapshot,
    rf: &ResourceFlavor,
    pod_tolerations: &[crate::kube::pod::Toleration],
) -> Option<(usize, usize)> {
    if !snap.has_kind("Node") {
        return None;
    }
    let tolerations = flavor_tolerations(rf, pod_tolerations);
    let mut labelled = 0;
    let mut usable = 0;
    for (_, n) in snap.nodes() {
        if !rf
            .spec
            .node_labels
            .iter()
            .all(|(k, v)| n.metadata.labels.get(k).map(|s| s.as_str()) == Some(v.as_str()))
        {
            continue;
        }
        labelled += 1;
        if untolerated(&tolerations, &n.spec.taints).is_none() {
            usable += 1;
        }
    }
    Some((usable, labelled))
}

//! `node/condition`: nodes that are NotReady or under pressure, and the pods stuck on them.

use super::image_pull::IMAGE_REASONS;
use crate::declare_rule;
use crate::kube::meta::{Condition, condition};
use crate::kube::pod::Pod;
use crate::kube::time::{format_duration, parse_timestamp};
use crate::rules::evidence;
use crate::rules::pod_findings::{self, note};
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};

declare_rule! {
    /// Reports nodes that are NotReady, or under MemoryPressure, DiskPressure, PIDPressure or NetworkUnavailable, with the pods stuck on them.
    ///
    /// A NotReady node's kubelet no longer reports: pods bound there stop being Ready and
    /// cannot start, and the node lifecycle controller taints the node so pods are evicted
    /// after their `tolerationSeconds` (StatefulSet pods are not replaced until the node
    /// is gone). Pods stuck there with no container-level reason of their own are
    /// explained by this finding. Pressure conditions make the kubelet evict pods and the
    /// scheduler avoid the node; they are warnings listing the evictions in the bundle.
    pub static NODE_CONDITION = {
        id: "node/condition",
        stage: Stage::Node,
        severity: Severity::Error,
        fallback: false,
        // Wide: counts and names the pods of every namespace on the node (see `touches_bound_pods`).
        reach: Reach::Wide(touches_bound_pods),
        run: run,
    };
}

const PRESSURES: &[&str] = &[
    "MemoryPressure",
    "DiskPressure",
    "PIDPressure",
    "NetworkUnavailable",
];

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let mut out = Vec::new();
    for (nid, node) in snap.nodes() {
        let name = node.metadata.name.as_str();
        let ready = condition(&node.status.conditions, "Ready");
        let not_ready = ready.is_some_and(|c| c.status != "True");
        let pressures: Vec<&Condition> = PRESSURES
            .iter()
            .filter_map(|t| condition(&node.status.conditions, t))
            .filter(|c| c.status == "True")
            .collect();
        if !not_ready && pressures.is_empty() {
            continue;
        }
        let bound: Vec<(ObjectId, &Pod)> = snap
            .pods_on_node(name)
            .iter()
            .filter_map(|&id| snap.pod(id).map(|p| (id, p)))
            .filter(|(_, p)| p.is_active() && p.metadata.deletion_timestamp.is_none())
            .collect();
        let stuck: Vec<(ObjectId, &Pod)> = bound
            .iter()
            .filter(|(id, p)| {
                !(p.phase() == "Running" && p.is_ready()) && no_reason_of_its_own(snap, *id, p)
            })
            .copied()
            .collect();
        let evicted: Vec<ObjectId> = snap
            .pods_on_node(name)
            .iter()
            .copied()
            .filter(|&id| {
                snap.pod(id).is_some_and(|p| {
                    p.phase() == "Failed" && p.status.reason.as_deref() == Some("Evicted")
                })
            })
            .collect();
        let mut ev = Vec::new();
        let mut parts = Vec::new();
        if let Some(c) = ready.filter(|_| not_ready) {
            ev.push(evidence::field(
                snap,
                *nid,
                &["status", "conditions", "type=Ready"],
                describe(snap, c),
            ));
            parts.push(format!("is NotReady ({})", describe(snap, c)));
        }
        for c in &pressures {
            ev.push(evidence::field(
                snap,
                *nid,
                &["status", "conditions", &format!("type={}", c.type_)],
                describe(snap, c),
            ));
            parts.push(format!("reports {}", describe(snap, c)));
        }
        let taints: Vec<String> = node
            .spec
            .taints
            .iter()
            .filter(|t| t.key.starts_with("node.kubernetes.io/"))
            .map(|t| format!("{}:{}", t.key, t.effect))
            .collect();
        if !taints.is_empty() {
            ev.push(evidence::field(
                snap,
                *nid,
                &["spec", "taints"],
                format!("taints {}", taints.join(", ")),
            ));
        }
        let mut message = format!("node {}", parts.join(" and "));
        let explains: Vec<ObjectId> = if not_ready {
            stuck.iter().map(|(id, _)| *id).collect()
        } else {
            Vec::new()
        };
        if !stuck.is_empty() {
            let names: Vec<String> = stuck
                .iter()
                .map(|(id, _)| {
                    format!(
                        "{} ({})",
                        snap.object(*id).name,
                        pod_findings::owner_of(snap, *id).display()
                    )
                })
                .collect();
            message.push_str(&format!(
                "; {} bound here {} stuck: {}",
                pod_findings::plural(stuck.len(), "pod"),
                if stuck.len() == 1 { "is" } else { "are" },
                names.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
                    + &if names.len() > 5 {
                        format!(" and {} more", names.len() - 5)
                    } else {
                        String::new()
                    }
            ));
            for (id, _) in stuck.iter().take(pod_findings::EVIDENCE_PODS) {
                ev.push(evidence::object(
                    snap,
                    *id,
                    format!("pod {} bound here, not Ready", snap.object(*id).name),
                ));
            }
        } else if not_ready && !snap.has_kind("Pod") {
            message.push_str("; the bundle holds no pods, so which pods are bound here is unknown");
        } else if not_ready {
            message.push_str(&format!(
                "; {} bound here",
                pod_findings::plural(bound.len(), "non-terminated pod")
            ));
        }
        if not_ready {
            message.push_str("; the node lifecycle controller taints a NotReady node, so pods are evicted after their tolerationSeconds (300s by default) and StatefulSet pods are not replaced until the node is deleted or they are force-deleted");
        }
        if !evicted.is_empty() {
            message.push_str(&format!(
                "; {} evicted from it {} in the bundle",
                pod_findings::plural(evicted.len(), "pod"),
                if evicted.len() == 1 { "is" } else { "are" }
            ));
            ev.push(note(format!(
                "evicted pods: {}",
                evicted
                    .iter()
                    .map(|id| snap.object(*id).name.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let (severity, help) = if not_ready {
            (
                Severity::Error,
                "look at the node itself: the kubelet and container runtime services, its network to the API server, disk and memory; if the machine is gone for good, delete the Node so its pods are replaced",
            )
        } else {
            (
                Severity::Warning,
                "free the resource under pressure on that node (disk: images, logs, emptyDir; memory: pods without limits); the kubelet evicts pods until the pressure clears",
            )
        };
        let mut cause: Vec<&str> = Vec::new();
        if not_ready {
            cause.push("NotReady");
        }
        cause.extend(pressures.iter().map(|c| c.type_.as_str()));
        let mut f = Finding::new(
            &NODE_CONDITION,
            severity,
            snap.object(*nid).reference(),
            &cause.join("+"),
            message,
            ev,
            help.into(),
            explains,
        );
        f.details = Some(serde_json::json!({
            "pods": stuck.iter().map(|(id, _)| snap.object(*id).name.clone()).collect::<Vec<_>>()
        }));
        out.push(f);
    }
    out
}

/// `Ready=Unknown for 2h (NodeStatusUnknown: Kubelet stopped posting node status.)`.
fn describe(snap: &Snapshot, c: &Condition) -> String {
    let since = c
        .last_transition_time
        .as_deref()
        .and_then(parse_timestamp)
        .zip(snap.as_of)
        .map(|(t, a)| format!(" for {}", format_duration(a - t)))
        .unwrap_or_default();
    format!(
        "{}={}{since}{}",
        c.type_,
        c.status,
        match (c.reason.as_deref(), c.message.as_deref()) {
            (Some(r), Some(m)) => format!(" ({r}: {m})"),
            (Some(r), None) => format!(" ({r})"),
            (None, Some(m)) => format!(" ({m})"),
            (None, None) => String::new(),
        }
    )
}

/// A pod whose containers say nothing specific (no image, runtime, config, mount or
/// sandbox problem of its own): on a NotReady node the node is the reason.
fn no_reason_of_its_own(snap: &Snapshot, id: ObjectId, p: &Pod) -> bool {
    let own = p.all_statuses().any(|(cs, _)| {
        cs.state
            .waiting
            .as_ref()
            .and_then(|w| w.reason.as_deref())
            .is_some_and(|r| !matches!(r, "ContainerCreating" | "PodInitializing"))
            || cs
                .state
                .terminated
                .as_ref()
                .is_some_and(|t| t.exit_code.unwrap_or(0) != 0)
    });
    if own {
        return false;
    }
    let events = snap.events_for(id);
    !events.iter().any(|(_, e)| {
        matches!(
            e.reason.as_str(),
            "FailedMount" | "FailedAttachVolume" | "FailedMapVolume" | "FailedCreatePodSandBox"
        ) || IMAGE_REASONS.contains(&e.reason.as_str())
    })
}

/// Whether a node finding could touch the object asked: the node's conditions are
/// cluster-scoped, so a full read flags the nodes a narrow one does; a flagged node's
/// finding counts, explains and cites the pods of every namespace bound there, and the
/// pods it explains change what other rules say of that namespace. So it could when a
/// pod of the namespace read is bound to a flagged node.
fn touches_bound_pods(inv: &crate::rules::reach::Involve) -> bool {
    inv.own()
        .any(|f| !inv.snapshot.pods_on_node(&f.object.name).is_empty())
}

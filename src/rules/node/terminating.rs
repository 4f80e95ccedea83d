//! `node/terminating`: pods deleted long ago that are still there.

use crate::declare_rule;
use crate::kube::meta::ObjectRef;
use crate::kube::time::{format_duration, parse_timestamp};
use crate::rules::deletion::OVERDUE_SECS;
use crate::rules::evidence;
use crate::rules::pod_findings::{self, Case};
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use serde_json::Value;
use std::collections::BTreeMap;

declare_rule! {
    /// Explains pods stuck Terminating: on a NotReady or vanished node, held by finalizers, or not confirmed by a Ready node's kubelet.
    ///
    /// `metadata.deletionTimestamp` is when the grace period ends; a pod still present
    /// well after it was not confirmed deleted. On a node that is NotReady or gone the
    /// kubelet cannot confirm, and a StatefulSet will not create the replacement until
    /// the pod object is gone. Finalizers keep the object until their controller removes
    /// them. On a Ready node the kubelet could not stop the containers or unmount volumes.
    pub static TERMINATING = {
        id: "node/terminating",
        stage: Stage::Node,
        severity: Severity::Error,
        fallback: false,
        // Local: each pod with its node and Events; grouped by the pod's owner.
        reach: Reach::Local,
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let Some(as_of) = snap.as_of else {
        return Vec::new();
    };
    let mut groups: BTreeMap<(ObjectRef, String), (Vec<Case>, Severity, String)> = BTreeMap::new();
    for (id, pod) in snap.pods() {
        let Some(deleted) = pod.metadata.deletion_timestamp.as_deref() else {
            continue;
        };
        let Some(t) = parse_timestamp(deleted) else {
            continue;
        };
        if as_of - t < OVERDUE_SECS {
            continue;
        }
        let node = pod.spec.node_name.clone().filter(|n| !n.is_empty());
        let finalizers: Vec<String> = snap
            .object(*id)
            .value()
            .pointer("/metadata/finalizers")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let node_state = node.as_deref().map(|n| {
            snap.node_named(n)
                .map(|(_, nd)| nd.ready_status().unwrap_or("Unknown").to_string())
        });
        let overdue = format_duration(as_of - t);
        let mut ev = vec![evidence::field(
            snap,
            *id,
            &["metadata", "deletionTimestamp"],
            format!(
                "deletionTimestamp {deleted} (grace period ended {overdue} before the snapshot)"
            ),
        )];
        let (cause, what, help, severity) = match (&node, &node_state) {
            (Some(n), Some(None)) if !snap.has_kind("Node") && finalizers.is_empty() => {
                ev.push(pod_findings::node_evidence(snap, n));
                (
                    "node-unknown".to_string(),
                    format!(
                        "has been Terminating for {overdue} past its grace period on node {n}; the bundle holds no Nodes, so whether that node is up is unknown"
                    ),
                    "check the node: a NotReady or vanished node cannot confirm the deletion",
                    Severity::Warning,
                )
            }
            (Some(n), Some(state))
                if state.as_deref() != Some("True")
                    && (state.is_some() || snap.has_kind("Node")) =>
            {
                ev.push(pod_findings::node_evidence(snap, n));
                (
                    "lost-node".to_string(),
                    format!(
                        "has been Terminating for {overdue} past its grace period on node {n}, which is {}: no kubelet can confirm the deletion",
                        match state {
                            Some(s) => format!("not Ready (Ready={s})"),
                            None => "no longer in the bundle".to_string(),
                        }
                    ),
                    "recover the node, or if it is gone for good delete the Node object (the pods are then removed); force-delete a StatefulSet pod only when its node is surely down",
                    Severity::Error,
                )
            }
            _ if !finalizers.is_empty() => {
                ev.push(evidence::field(
                    snap,
                    *id,
                    &["metadata", "finalizers"],
                    format!("finalizers: {}", finalizers.join(", ")),
                ));
                if let Some(n) = &node {
                    ev.push(pod_findings::node_evidence(snap, n));
                }
                (
                    format!("finalizers:{}", finalizers.join(",")),
                    format!(
                        "has been Terminating for {overdue} past its grace period, held by finalizer(s) {}",
                        finalizers.join(", ")
                    ),
                    "find the controller that owns the finalizer and why it has not removed it (is it running?); remove the finalizer by hand only when that controller is gone",
                    Severity::Error,
                )
            }
            (Some(n), _) => {
                ev.push(pod_findings::node_evidence(snap, n));
                let events = snap.events_for(*id);
                let kill: Vec<_> = events
                    .iter()
                    .filter(|(_, e)| {
                        matches!(
                            e.reason.as_str(),
                            "FailedKillPod" | "FailedPreStopHook" | "FailedUnmount" | "Killing"
                        )
                    })
                    .collect();
                ev.extend(pod_findings::last_events(snap, &kill, 2));
                (
                    "not-confirmed".to_string(),
                    format!(
                        "has been Terminating for {overdue} past its grace period on Ready node {n}: its kubelet has not finished stopping it (containers that ignore SIGTERM are killed, so look at volume unmounts and runtime errors)"
                    ),
                    "read the kubelet's log on that node for this pod (unmount or runtime errors); a hung NFS or CSI unmount is the usual cause",
                    Severity::Warning,
                )
            }
            (None, _) => continue,
        };
        let entry = groups
            .entry((pod_findings::owner_of(snap, *id), cause))
            .or_insert_with(|| (Vec::new(), severity, help.to_string()));
        entry.0.push(Case {
            id: *id,
            summary: what,
            evidence: ev,
        });
    }
    groups
        .into_iter()
        .map(|((owner, cause), (cases, sev, help))| {
            pod_findings::pods_finding(snap, &TERMINATING, sev, owner, &cause, cases, help)
        })
        .collect()
}

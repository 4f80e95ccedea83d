//! `node/admission-rejected`: the kubelet refused a pod the scheduler had placed.

use crate::declare_rule;
use crate::kube::meta::{ObjectRef, get_qty};
use crate::kube::node::Node;
use crate::kube::pod::Pod;
use crate::kube::requests::pod_units;
use crate::kube::requests::{UnreadRequest, display_units, unread_requests};
use crate::rules::evidence;
use crate::rules::node_usage::Usage;
use crate::rules::pod_findings::{self, Case, note};
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::BTreeMap;

declare_rule! {
    /// Explains pods the kubelet rejected at admission (OutOf<resource>, UnexpectedAdmissionError from device plugins, predicate failures) and deferred admissions.
    ///
    /// A rejected pod is `Failed` with `Pod was rejected: …` and is not retried on
    /// another node; its controller creates a new one. For `OutOf<resource>` the
    /// kubelet's numbers (`requested`, `used`, `capacity`) are quoted and compared with the
    /// node as the bundle shows it now (the scheduler and the kubelet counted different
    /// pods: static pods, a kubelet restart re-counting devices, or a race).
    /// `UnexpectedAdmissionError` usually means a device plugin had fewer devices than
    /// advertised; `DeviceNotReady` is a deferral the kubelet retries. Rejections by the
    /// kubelet's resource managers (`TopologyAffinityError`, `SMTAlignmentError`,
    /// `EmptyPodSharedPoolError`, CPU/Memory manager errors) are left to the NUMA rules,
    /// which recompute them. Leftovers under a controller that is healthy again are `info`.
    pub static ADMISSION_REJECTED = {
        id: "node/admission-rejected",
        stage: Stage::Node,
        severity: Severity::Error,
        fallback: false,
        // Local: each rejected pod with its node and Events, grouped by the pod's owner.
        reach: Reach::Local,
        run: run,
    };
}

const REJECTIONS: &[&str] = &[
    "TopologyAffinityError",
    "UnexpectedAdmissionError",
    "EmptyPodSharedPoolError",
    "SMTAlignmentError",
    "InvalidNodeInfo",
    "NodeAffinity",
    "NodePorts",
    "NodeName",
    "NodeSelectorMismatching",
    "PodLevelResourcesIncompatible",
];

/// `Node didn't have enough resource: cpu, requested: 6000, used: 3100, capacity: 7800`.
pub fn parse_out_of(message: &str) -> Option<(String, i128, i128, i128)> {
    let rest = message.split("enough resource: ").nth(1)?;
    let (res, rest) = rest.split_once(',')?;
    let num = |label: &str| -> Option<i128> {
        let s = rest.split(label).nth(1)?;
        let digits: String = s
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '-')
            .collect();
        digits.parse().ok()
    };
    Some((
        res.trim().to_string(),
        num("requested:")?,
        num("used:")?,
        num("capacity:")?,
    ))
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let mut groups: BTreeMap<(ObjectRef, String), (Vec<Case>, String, Severity)> = BTreeMap::new();
    let mut usage: Option<Usage> = None;
    for (id, pod) in snap.pods() {
        let reason = pod.status.reason.clone().unwrap_or_default();
        let message = pod.status.message.clone().unwrap_or_default();
        let node = pod.spec.node_name.clone().unwrap_or_default();
        // Resource-manager rejections (TopologyAffinityError, …) are the NUMA rules'.
        let rejected = pod.phase() == "Failed"
            && !crate::rules::resource_manager::is_resource_manager_rejection(pod)
            && (REJECTIONS.contains(&reason.as_str())
                || reason.starts_with("OutOf")
                || message.starts_with("Pod was rejected"));
        let deferred =
            pod.phase() == "Pending" && !node.is_empty() && deferred_reason(snap, *id, pod);
        if !rejected && !deferred {
            continue;
        }
        let mut ev = Vec::new();
        let (cause, what, help, mut severity) = if deferred {
            let events = snap.events_for(*id);
            let evs: Vec<_> = events
                .iter()
                .filter(|(_, e)| {
                    e.reason == "DeviceNotReady" || e.message.contains("DeviceNotReady")
                })
                .collect();
            ev.extend(pod_findings::last_events(snap, &evs, 1));
            (
                "deferred:DeviceNotReady".to_string(),
                format!(
                    "waits on node {node}: the kubelet deferred its admission because a device plugin is not ready yet (DeviceNotReady) and retries"
                ),
                "check the device plugin pod on that node (is it running and registered with the kubelet?)",
                Severity::Warning,
            )
        } else {
            ev.push(evidence::field(
                snap,
                *id,
                &["status", "reason"],
                format!("phase Failed, reason {reason}: {message}"),
            ));
            let events = snap.events_for(*id);
            let evs: Vec<_> = events.iter().filter(|(_, e)| e.reason == reason).collect();
            ev.extend(pod_findings::last_events(snap, &evs, 1));
            let inner = message.trim_start_matches("Pod was rejected: ").trim();
            let (what, help) = if let Some(res) = reason.strip_prefix("OutOf") {
                let u = usage.get_or_insert_with(|| Usage::build(snap));
                (
                    out_of(snap, u, pod, &node, res, inner, &mut ev),
                    "the scheduler and the kubelet counted different pods on the node (static or unmanaged pods, a kubelet restart re-counting devices, or a race); check the node's non-terminated pods and its allocatable; the controller has already made a replacement pod",
                )
            } else {
                match reason.as_str() {
                    "UnexpectedAdmissionError" => (
                        format!(
                            "was rejected by the kubelet on node {node} with UnexpectedAdmissionError: {inner}"
                        ),
                        "usually a device plugin had fewer healthy devices than the node advertised (or restarted); check the device plugin on that node and the node's allocatable for the resource",
                    ),
                    _ => (
                        format!("was rejected by the kubelet on node {node} ({reason}): {inner}"),
                        "the kubelet's own admission check disagreed with the scheduler (node labels, ports or name changed after scheduling); compare the pod with the node",
                    ),
                }
            };
            ev.push(pod_findings::node_evidence(snap, &node));
            (format!("rejected:{reason}"), what, help, Severity::Error)
        };
        if rejected && pod_findings::controller_is_healthy(snap, *id) {
            severity = Severity::Info;
        }
        let summary = if severity == Severity::Info {
            format!("{what} — a leftover: its controller has its desired ready replicas again")
        } else {
            what
        };
        let entry = groups
            .entry((pod_findings::owner_of(snap, *id), cause))
            .or_insert_with(|| (Vec::new(), help.to_string(), severity));
        entry.2 = entry.2.min(severity);
        entry.0.push(Case {
            id: *id,
            summary,
            evidence: ev,
        });
    }
    groups
        .into_iter()
        .map(|((owner, cause), (cases, help, sev))| {
            pod_findings::pods_finding(snap, &ADMISSION_REJECTED, sev, owner, &cause, cases, help)
        })
        .collect()
}

/// A Pending, bound pod whose status or events say DeviceNotReady.
fn deferred_reason(snap: &Snapshot, id: ObjectId, pod: &Pod) -> bool {
    pod.status.reason.as_deref() == Some("DeviceNotReady")
        || snap.events_for(id).iter().any(|(_, e)| {
            e.reason == "DeviceNotReady" || (e.is_warning() && e.message.contains("DeviceNotReady"))
        })
}

/// The OutOf<resource> sentence: the kubelet's numbers and the node as the bundle shows it.
fn out_of(
    snap: &Snapshot,
    usage: &Usage,
    pod: &Pod,
    node: &str,
    res: &str,
    inner: &str,
    ev: &mut Vec<crate::rules::Evidence>,
) -> String {
    let unit = |v: i128| display_units(res, v);
    let mut s = format!("was rejected by the kubelet on node {node}: out of {res}");
    if let Some((_, req, used, cap)) = parse_out_of(inner) {
        // The kubelet reports cpu in millicores and everything else in units.
        s.push_str(&format!(
            " (the kubelet counted {} requested + {} used > {} capacity)",
            unit(req),
            unit(used),
            unit(cap)
        ));
    } else if !inner.is_empty() {
        s.push_str(&format!(" ({inner})"));
    }
    let node_now = snap.node_named(node);
    let unread = node_now.map(|(_, n)| unread_for(snap, usage, pod, n, res));
    if let Some(unread) = unread.filter(|u| !u.is_empty()) {
        s.push_str(&format!(
            "; kdiag does not compare it with the node as the bundle shows it now: {}",
            unread.join("; ")
        ));
    } else if let Some((nid, n)) = node_now {
        let need = pod_units(&pod.spec)
            .get(res)
            .copied()
            .unwrap_or(if res == "pods" { 1 } else { 0 });
        let nu = usage.of(node);
        let (alloc, used) = if res == "pods" {
            (
                get_qty(&n.status.allocatable, "pods").value_ceil(),
                nu.pods.len() as i128,
            )
        } else {
            (
                crate::kube::requests::scheduler_units(res, get_qty(&n.status.allocatable, res)),
                nu.requested.get(res).copied().unwrap_or(0),
            )
        };
        let free = alloc - used;
        ev.push(evidence::field(
            snap,
            nid,
            &["status", "allocatable"],
            format!(
                "node {node} now: {} allocatable {res}, {} requested by {} non-terminated pods, {} free",
                unit(alloc),
                unit(used),
                nu.pods.len(),
                unit(free)
            ),
        ));
        if need <= free {
            s.push_str(&format!(
                "; the node as the bundle shows it now has {} {res} free for its {}, so it would fit now",
                unit(free),
                unit(need)
            ));
        } else {
            s.push_str(&format!(
                "; the node as the bundle shows it now has {} {res} free for its {}, so it still would not fit",
                unit(free),
                unit(need)
            ));
        }
    } else {
        ev.push(note(if snap.has_kind("Node") {
            format!("node {node} is not in the bundle")
        } else {
            "the bundle holds no Node objects".to_string()
        }));
    }
    s
}

/// What comparing the pod's `res` with the node now rests on and cannot read: the pod's
/// request, the node's allocatable, the requests of the pods bound there.
fn unread_for(snap: &Snapshot, usage: &Usage, pod: &Pod, n: &Node, res: &str) -> Vec<String> {
    let mut out: Vec<String> = unread_requests(&pod.spec)
        .iter()
        .filter(|u| u.resource == res)
        .map(UnreadRequest::describe)
        .collect();
    if let Some(q) = n.status.allocatable.get(res).filter(|q| q.value.is_none()) {
        out.push(format!("its allocatable {res} is {}", q.unreadable()));
    }
    const SHOWN: usize = 3;
    let bound = usage.of(&n.metadata.name).unread.get(res);
    let bound = bound.map_or(&[][..], Vec::as_slice);
    out.extend(bound.iter().take(SHOWN).map(|(pid, u)| {
        format!(
            "{} bound there: {}",
            snap.object(*pid).reference().display(),
            u.describe()
        )
    }));
    if bound.len() > SHOWN {
        out.push(format!("and {} more pods bound there", bound.len() - SHOWN));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubelet_numbers() {
        assert_eq!(
            parse_out_of(
                "Node didn't have enough resource: cpu, requested: 6000, used: 3100, capacity: 7800"
            ),
            Some(("cpu".into(), 6000, 3100, 7800))
        );
        assert_eq!(
            parse_out_of(
                "Pod was rejected: Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 1, capacity: 1"
            ),
            Some(("nvidia.com/gpu".into(), 1, 1, 1))
        );
        assert_eq!(parse_out_of("Pod was rejected: something"), None);
    }
}

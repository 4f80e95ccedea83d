//! Whether preemption could make room for a pod no node fits, for
//! `scheduling/unschedulable`: evicting lower-priority pods from the nodes excluded for
//! capacity alone, as the scheduler's PostFilter does, and what its nomination says.

use super::fit::{Exclusion, NodeFit};
use super::message::FitMessage;
use super::placer::Fits;
use crate::kube::pod::Pod;
use crate::rules::node_usage::priority_of;
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::BTreeMap;

/// Could evicting lower-priority pods make room? Only nodes excluded for capacity alone
/// are candidates, as for the scheduler's PostFilter.
pub(super) fn preemption(
    snap: &Snapshot,
    pod: &Pod,
    need: &BTreeMap<String, i128>,
    fits: &Fits,
    msg: Option<&FitMessage>,
) -> String {
    if !fits.any_capacity_only() {
        return String::new();
    }
    if pod.spec.preemption_policy.as_deref() == Some("Never") {
        return " Preemption is off for this pod (preemptionPolicy: Never).".into();
    }
    let prio = priority_of(snap, pod);
    // Only nodes with a pod below the pod's priority are read (a pass over every node
    // was a pending pod times the cluster's nodes).
    let candidates = fits.capacity_with_lower(prio);
    let any_lower = !candidates.is_empty();
    // Nodes where evicting would make room, with how many pods it evicts there: the
    // victims are named for the first only (listing them for every node cost a pending
    // pod the whole cluster's pods once nodes fill up).
    let mut helps: Vec<(NodeFit, usize)> = Vec::new();
    for f in candidates {
        let by_priority = f.usage.by_priority(snap);
        let n = by_priority.below(prio);
        let enough = need.iter().all(|(r, want)| {
            let (free, _) = f.verdict.free.get(r).copied().unwrap_or((0, 0));
            *want <= free + by_priority.freed(n, r)
        }) && f.verdict.exclusions.iter().all(|x| match x {
            Exclusion::TooManyPods { used, allocatable } => used - (n as i128) < *allocatable,
            _ => true,
        });
        if enough {
            helps.push((f, n));
        }
    }
    let hopeless = msg.and_then(FitMessage::preemption_hopeless);
    if let Some(nominated) = pod
        .status
        .nominated_node_name
        .as_deref()
        .filter(|n| !n.is_empty())
    {
        let terminating: Vec<String> = snap
            .pods_on_node(nominated)
            .iter()
            .filter(|id| {
                snap.pod(**id)
                    .is_some_and(|p| p.metadata.deletion_timestamp.is_some())
            })
            .map(|id| snap.object(*id).name.clone())
            .collect();
        let agree = if helps.iter().any(|(f, _)| f.name == nominated) {
            "; by the bundle's numbers evicting lower-priority pods there frees enough"
        } else {
            "; by the bundle's numbers evicting every lower-priority pod there would not free enough"
        };
        return format!(
            " The scheduler nominated {nominated} for it and is preempting lower-priority pods there{}{agree}; the pod waits for them to terminate.",
            if terminating.is_empty() {
                String::new()
            } else {
                format!(" ({} terminating)", terminating.join(", "))
            }
        );
    }
    if let Some(&(ref f, n)) = helps.first() {
        // Named in the node's pod order, as the bundle lists them.
        let mut victims: Vec<ObjectId> = f.usage.by_priority(snap).pods[..n]
            .iter()
            .map(|(_, id)| *id)
            .collect();
        victims.sort();
        let victims: Vec<&str> = victims
            .iter()
            .map(|id| snap.object(*id).name.as_str())
            .collect();
        let node = f.name;
        let mut s = format!(
            " Preemption could help: evicting lower-priority pods on {node} ({}) would make room",
            victims.join(", ")
        );
        if hopeless == Some(true) {
            s.push_str(", although the scheduler's preemption attempt found no victims (the bundle may be newer than its message)");
        }
        s.push('.');
        s
    } else if !any_lower {
        format!(" Preemption cannot help: no pod on those nodes has a priority below {prio}.")
    } else {
        format!(
            " Preemption cannot help: even evicting every pod with a priority below {prio} would not free enough."
        )
    }
}

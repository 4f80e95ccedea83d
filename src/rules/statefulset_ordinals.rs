//! A StatefulSet's pods by ordinal, and the note a grouped pod finding adds when a stuck
//! ordinal keeps the controller from creating the later ones (OrderedReady).
//!
//! Shared by `creation/statefulset-ordinal` and [`crate::rules::pod_findings`]: in
//! `rules/` itself so that the shared pod-finding helpers do not import a rule area.

use crate::kube::workload::StatefulSet;
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::BTreeMap;

/// Pods of a StatefulSet by ordinal.
pub(super) fn pods_by_ordinal(snap: &Snapshot, sts_id: ObjectId) -> BTreeMap<i64, ObjectId> {
    let o = snap.object(sts_id);
    let prefix = format!("{}-", o.name);
    let uid = o.uid.as_deref().unwrap_or("");
    snap.children_of(uid)
        .iter()
        .filter(|&&c| snap.object(c).kind == "Pod")
        .filter_map(|&c| {
            snap.object(c)
                .name
                .strip_prefix(&prefix)
                .and_then(|n| n.parse::<i64>().ok())
                .map(|n| (n, c))
        })
        .collect()
}

pub(super) fn ordered(s: &StatefulSet) -> bool {
    s.spec
        .pod_management_policy
        .as_deref()
        .unwrap_or("OrderedReady")
        == "OrderedReady"
}

pub(super) fn ordinal_list(name: &str, ords: &[i64]) -> String {
    let names: Vec<String> = ords.iter().take(3).map(|o| format!("{name}-{o}")).collect();
    if ords.len() > 3 {
        format!("{} … {name}-{}", names.join(", "), ords[ords.len() - 1])
    } else {
        names.join(", ")
    }
}

/// "with podManagementPolicy OrderedReady, db-2, db-3 are not created until db-1 is
/// Ready" — when `pod` is a stuck ordinal of the StatefulSet and later ordinals are missing.
pub fn blocked_note(snap: &Snapshot, sts_id: ObjectId, pod: ObjectId) -> Option<String> {
    let sts = Snapshot::view_of(snap.stateful_sets(), sts_id)?;
    if !ordered(sts) {
        return None;
    }
    let name = &snap.object(sts_id).name;
    let by_ord = pods_by_ordinal(snap, sts_id);
    let (&k, _) = by_ord.iter().find(|(_, id)| **id == pod)?;
    let desired = sts.spec.desired();
    let missing: Vec<i64> = (k + 1..desired)
        .filter(|o| !by_ord.contains_key(o))
        .collect();
    if missing.is_empty() {
        return None;
    }
    let p = snap.pod(pod)?;
    let what = if p.metadata.deletion_timestamp.is_some() {
        format!("{name}-{k} is deleted and replaced")
    } else {
        format!("{name}-{k} is Running and Ready")
    };
    Some(format!(
        "with podManagementPolicy OrderedReady the StatefulSet does not create {} until {what}",
        ordinal_list(name, &missing)
    ))
}

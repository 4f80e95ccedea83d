//! Ages and durations as kubectl prints them, measured from the snapshot's time.

use super::fields::str_at;
use crate::kube::time::parse_timestamp;
use crate::snapshot::Snapshot;
use serde_json::Value;

/// kubectl's short durations (`HumanDuration`): the one function findings use too.
pub(super) use crate::kube::time::format_duration as human_duration;

/// kubectl's AGE: time from `t` to the snapshot.
pub(super) fn age(snap: &Snapshot, t: &str) -> String {
    match (parse_timestamp(t), snap.as_of) {
        (Some(t), Some(now)) => human_duration(now - t),
        _ => "<unknown>".into(),
    }
}

pub(super) fn created_age(snap: &Snapshot, v: &Value) -> String {
    age(snap, str_at(v, "/metadata/creationTimestamp"))
}

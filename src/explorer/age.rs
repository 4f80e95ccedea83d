//! Ages and durations as kubectl prints them, measured from the snapshot's time.
//!
//! An object counts its ages back from [`now_of`]: the snapshot's time, or later when the
//! object itself records a later time. A bundle's files are collected one after another
//! (sbctl's events before its pods), so the clock the events give can lie seconds before
//! a container exit the pod records; the pod was captured after that exit, and kubectl,
//! run then, printed `3 (0s ago)`, not `<invalid>`. The rule looks at the object alone,
//! so a selective read and a full read print the same ages; `analyze` measures from the
//! snapshot's time, the same clock wherever the object records nothing later.

use super::fields::str_at;
use crate::ingest::clock::{SLACK, status_time_of};
use crate::kube::time::parse_timestamp;
use crate::snapshot::Snapshot;
use serde_json::Value;

/// kubectl's short durations (`HumanDuration`): the one function findings use too.
pub(super) use crate::kube::time::format_duration as human_duration;

/// The time `v`'s ages count back from: the snapshot's time, or the newest time `v`'s
/// status records (conditions, container states, heartbeats) when later, but by no more
/// than the clock's slack (further is a re-dated object, whose ages stay `<invalid>`).
pub(super) fn now_of(snap: &Snapshot, v: &Value) -> Option<i64> {
    let clock = snap.as_of?;
    Some(match status_time_of(v) {
        Some(t) if t > clock && t <= clock + SLACK => t,
        _ => clock,
    })
}

/// kubectl's duration from `t` to `v`'s [`now_of`].
pub(super) fn since(snap: &Snapshot, v: &Value, t: i64) -> Option<String> {
    now_of(snap, v).map(|now| human_duration(now - t))
}

/// kubectl's AGE of the time `t` of `v`.
pub(super) fn age(snap: &Snapshot, v: &Value, t: &str) -> String {
    parse_timestamp(t)
        .and_then(|t| since(snap, v, t))
        .unwrap_or_else(|| "<unknown>".into())
}

pub(super) fn created_age(snap: &Snapshot, v: &Value) -> String {
    age(snap, v, str_at(v, "/metadata/creationTimestamp"))
}

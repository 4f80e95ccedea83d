//! A pod being deleted (not a rule). `metadata.deletionTimestamp` is when its grace period
//! ends (the API server sets it to the time of the delete plus the grace period) and
//! `metadata.deletionGracePeriodSeconds` is the period's length. Until the kubelet confirms
//! that its containers stopped, the pod object stays, and the scheduler keeps counting it
//! on its node: its requests, host ports and inter-pod (anti-)affinity (upstream NodeInfo
//! holds every assigned pod until the delete event; only PodTopologySpread skips pods with
//! a deletionTimestamp). `node/terminating` reports deletions past their grace period by
//! [`OVERDUE_SECS`]; the scheduling area names the terminating pods a pending pod waits for.

use crate::kube::time::{format_duration, parse_timestamp};
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;

/// Past the grace period by this much, a deletion is stuck.
pub const OVERDUE_SECS: i64 = 300;

/// When a terminating pod's grace period ends.
#[derive(Clone, Debug)]
pub struct Deletion {
    /// `deletionTimestamp` as the bundle writes it.
    pub timestamp: String,
    /// The same, in Unix seconds.
    pub ends: i64,
    /// `deletionGracePeriodSeconds`, when the bundle holds it.
    pub grace: Option<i64>,
}

impl Deletion {
    /// The deletion of pod `id`, when it has a deletionTimestamp that reads.
    pub fn of(snap: &Snapshot, id: ObjectId) -> Option<Deletion> {
        let pod = snap.pod(id)?;
        let timestamp = pod.metadata.deletion_timestamp.as_deref()?.to_string();
        let ends = parse_timestamp(&timestamp)?;
        let grace = snap
            .object(id)
            .value()
            .pointer("/metadata/deletionGracePeriodSeconds")
            .and_then(Value::as_i64);
        Some(Deletion {
            timestamp,
            ends,
            grace,
        })
    }

    /// Past the grace period by more than [`OVERDUE_SECS`] at the snapshot time: the
    /// deletion is stuck. Unknown (no snapshot time) is not overdue.
    pub fn overdue(&self, as_of: Option<i64>) -> bool {
        as_of.is_some_and(|t| t - self.ends >= OVERDUE_SECS)
    }

    /// "its 30s grace period ends 2026-11-20T09:14:22Z, 20s after the snapshot", or
    /// "… ended …, 44m before the snapshot".
    pub fn words(&self, as_of: Option<i64>) -> String {
        let period = match self.grace {
            Some(g) => format!("its {g}s grace period"),
            None => "its grace period".to_string(),
        };
        match as_of {
            Some(t) if t < self.ends => format!(
                "{period} ends {}, {} after the snapshot",
                self.timestamp,
                format_duration(self.ends - t)
            ),
            Some(t) => format!(
                "{period} ended {}, {} before the snapshot",
                self.timestamp,
                format_duration(t - self.ends)
            ),
            None => format!("{period} ends {}", self.timestamp),
        }
    }
}

//! What the cluster autoscaler or Karpenter say about more nodes, for
//! `scheduling/unschedulable`: their last event about the pod and the cluster-wide
//! ScaleUp state in `cluster-autoscaler-status`.

use crate::kube::event::Event;
use crate::kube::policy::AUTOSCALER_STATUS;
use crate::kube::time::format_duration;
use crate::rules::Evidence;
use crate::rules::evidence;
use crate::snapshot::{ObjectId, Snapshot};

/// What the cluster autoscaler or Karpenter say about more nodes.
pub(super) fn autoscaler(
    snap: &Snapshot,
    events: &[(ObjectId, &Event)],
) -> (String, Vec<Evidence>) {
    let mut ev = Vec::new();
    let mut sentence = String::new();
    let ago = |e: &Event| {
        e.last
            .zip(snap.as_of)
            .map(|(l, a)| format!(", {} before the snapshot", format_duration(a - l)))
            .unwrap_or_default()
    };
    let scale = events.iter().rfind(|(_, e)| {
        matches!(e.reason.as_str(), "TriggeredScaleUp" | "NotTriggerScaleUp")
            || (e.component.contains("karpenter") || e.reason == "Nominated")
    });
    if let Some((eid, e)) = scale {
        ev.push(evidence::event(snap, *eid, e));
        sentence = match e.reason.as_str() {
            "TriggeredScaleUp" => format!(
                " The cluster autoscaler triggered a scale-up for it{}: more nodes should be coming ({}).",
                ago(e),
                e.message.trim().trim_end_matches('.')
            ),
            "NotTriggerScaleUp" => format!(
                " The cluster autoscaler will not add a node for it (its last word{}: {}).",
                ago(e),
                e.message.trim().trim_end_matches('.')
            ),
            "Nominated" => format!(
                " Karpenter is launching capacity for it (its last word{}: {}).",
                ago(e),
                e.message.trim().trim_end_matches('.')
            ),
            _ => format!(
                " Karpenter's last word{}: {}.",
                ago(e),
                e.message.trim().trim_end_matches('.')
            ),
        };
    }
    if let Some((cid, cm)) = snap
        .config_maps()
        .iter()
        .find(|(_, c)| c.metadata.name == AUTOSCALER_STATUS)
        && let Some(status) = &cm.autoscaler_status
        && let Some(state) = scale_up_state(status)
    {
        ev.push(evidence::object(
            snap,
            *cid,
            format!("{AUTOSCALER_STATUS}: cluster-wide ScaleUp {state}"),
        ));
        if sentence.is_empty() {
            sentence = match state {
                "InProgress" => " The cluster autoscaler reports a scale-up in progress: more nodes are coming.".into(),
                "Backoff" => " The cluster autoscaler is backing off after failed scale-ups: no node is coming soon.".into(),
                _ => format!(" The cluster autoscaler reports ScaleUp {state}: no node is being added."),
            };
        }
    }
    (sentence, ev)
}

/// The cluster-wide ScaleUp state in `cluster-autoscaler-status` (text or YAML form).
fn scale_up_state(status: &str) -> Option<&'static str> {
    let lower = status.to_ascii_lowercase();
    let i = lower.find("scaleup")?;
    let rest = &status[i..];
    let mut end = rest.len().min(200);
    while !rest.is_char_boundary(end) {
        end -= 1;
    }
    let window = &rest[..end];
    ["InProgress", "NoActivity", "Backoff", "NoCandidates"]
        .into_iter()
        .filter_map(|s| window.find(s).map(|p| (p, s)))
        .min()
        .map(|(_, s)| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autoscaler_status_forms() {
        let text = "Cluster-autoscaler status at 2026-11-20 09:10:00 +0000 UTC:\nCluster-wide:\n  Health:      Healthy (ready=3 unready=0)\n  ScaleUp:     InProgress (ready=3 registered=3)\n  ScaleDown:   NoCandidates (candidates=0)\n";
        assert_eq!(scale_up_state(text), Some("InProgress"));
        let yaml = "time: 2026-11-20 09:10:00\nautoscalerStatus: Running\nclusterWide:\n  health:\n    status: Healthy\n  scaleUp:\n    status: NoActivity\n  scaleDown:\n    status: NoCandidates\n";
        assert_eq!(scale_up_state(yaml), Some("NoActivity"));
        assert_eq!(scale_up_state("nothing"), None);
        let wide = format!("ScaleUp: {}InProgress", "é".repeat(150));
        assert_eq!(
            scale_up_state(&wide),
            None,
            "cut on a character boundary, past the window"
        );
    }
}

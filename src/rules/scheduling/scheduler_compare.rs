//! The recomputation against the scheduler's own FailedScheduling message, for
//! `scheduling/unschedulable`: whether the scheduler agrees, which of its reasons kdiag
//! does not recompute, and a cause key from its reasons when kdiag cannot recompute.
//! [`super::message`] parses the message; this compares and words it.

use super::fit::{Exclusion, NodeFit};
use super::message::{FitMessage, ReasonKind};
use std::collections::BTreeMap;

/// "The scheduler agrees: …" or "The scheduler's message differs …".
pub(super) fn compare(
    fits: &[NodeFit],
    msg: Option<&FitMessage>,
    text: Option<&str>,
    total: usize,
) -> String {
    let (Some(msg), Some(text)) = (msg, text) else {
        return match text {
            Some(t) => format!(" The scheduler says: {}", t.trim()),
            None => String::new(),
        };
    };
    let mut ours: BTreeMap<String, u32> = BTreeMap::new();
    for f in fits {
        match f.exclusions.first() {
            Some(Exclusion::Resources(s)) => {
                for s in s {
                    *ours
                        .entry(format!("Insufficient {}", s.resource))
                        .or_default() += 1;
                }
            }
            Some(x) => *ours.entry(vocabulary(x)).or_default() += 1,
            None => {}
        }
    }
    let mut theirs: BTreeMap<String, u32> = BTreeMap::new();
    let mut unknown = false;
    for r in &msg.reasons {
        let key = match &r.kind {
            ReasonKind::Insufficient(res) => format!("Insufficient {res}"),
            ReasonKind::TooManyPods => "Too many pods".into(),
            ReasonKind::NodeAffinity => "node affinity/selector".into(),
            ReasonKind::Taint { key, .. } => format!("taint {key}"),
            ReasonKind::Cordoned => "unschedulable".into(),
            ReasonKind::NodePorts => "ports".into(),
            ReasonKind::VolumeNodeAffinity => "volume node affinity".into(),
            ReasonKind::PodAntiAffinity => "pod anti-affinity".into(),
            ReasonKind::ExistingAntiAffinity => "existing anti-affinity".into(),
            ReasonKind::PodAffinity => "pod affinity".into(),
            _ => {
                unknown = true;
                continue;
            }
        };
        *theirs.entry(key).or_default() += r.count.unwrap_or(msg.nodes);
    }
    let same_nodes = msg.nodes as usize == total;
    if !unknown && same_nodes && ours == theirs {
        return format!(" The scheduler agrees: {}", text.trim());
    }
    let mut why = Vec::new();
    if !same_nodes {
        why.push(format!(
            "it counted {} {}, the bundle holds {total}",
            msg.nodes,
            if msg.nodes == 1 { "node" } else { "nodes" }
        ));
    }
    if unknown {
        why.push("it also names reasons kdiag does not recompute".into());
    }
    if ours != theirs {
        why.push("its per-reason node counts differ from the recomputation".into());
    }
    format!(
        " The scheduler's message differs ({}; the bundle may have been taken later, or nodes and pods changed): {}",
        why.join("; "),
        text.trim()
    )
}

/// The scheduler-message vocabulary of an exclusion (for comparison).
fn vocabulary(x: &Exclusion) -> String {
    match x {
        Exclusion::Cordoned => "unschedulable".into(),
        Exclusion::Taint(t) => format!("taint {}", t.key),
        Exclusion::NodeSelector { .. } | Exclusion::NodeAffinity => "node affinity/selector".into(),
        Exclusion::HostPort(_) => "ports".into(),
        Exclusion::Resources(_) => "resources".into(),
        Exclusion::TooManyPods { .. } => "Too many pods".into(),
        Exclusion::VolumeNodeAffinity { .. } => "volume node affinity".into(),
        Exclusion::AntiAffinity { .. } => "pod anti-affinity".into(),
        Exclusion::ExistingAntiAffinity { .. } => "existing anti-affinity".into(),
        Exclusion::PodAffinity => "pod affinity".into(),
    }
}

/// Reasons in the scheduler's message kdiag does not recompute.
pub(super) fn unrecomputed_reasons(msg: &FitMessage) -> Vec<String> {
    msg.reasons
        .iter()
        .filter(|r| {
            matches!(
                r.kind,
                ReasonKind::TopologySpread
                    | ReasonKind::VolumeBinding
                    | ReasonKind::VolumeLimits
                    | ReasonKind::Plugins(_)
                    | ReasonKind::UnknownConditions
                    | ReasonKind::NodeName
                    | ReasonKind::Other
            )
        })
        .map(|r| match r.count {
            Some(n) => format!("{n} {}", r.text),
            None => r.text.clone(),
        })
        .collect()
}

/// A cause key from the scheduler's own reasons (when kdiag cannot recompute).
pub(super) fn scheduler_cause(msg: &FitMessage) -> String {
    let mut keys: Vec<String> = msg
        .reasons
        .iter()
        .map(|r| match &r.kind {
            ReasonKind::Insufficient(res) => format!("insufficient-{res}"),
            ReasonKind::Taint { key, .. } => format!("taint:{key}"),
            ReasonKind::Plugins(_) => "plugins".into(),
            ReasonKind::ClaimNotFound(c) => format!("pvc-missing:{c}"),
            k => format!("{k:?}")
                .chars()
                .take_while(|c| c.is_alphanumeric())
                .collect::<String>()
                .to_lowercase(),
        })
        .collect();
    keys.sort();
    keys.dedup();
    if keys.is_empty() {
        "unschedulable".into()
    } else {
        format!("scheduler:{}", keys.join("+"))
    }
}

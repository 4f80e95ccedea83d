//! The recomputation against the scheduler's own FailedScheduling message, for
//! `scheduling/unschedulable`: whether the scheduler agrees, which of its reasons kdiag
//! does not recompute, and a cause key from its reasons when kdiag cannot recompute.
//! [`super::message`] parses the message; this compares and words it.

use super::fit::Exclusion;
use super::message::{FitMessage, ReasonKind};
use super::placer::Fits;
use std::collections::BTreeMap;

/// "The scheduler agrees: …" or "The scheduler's message differs …", naming each count
/// that disagrees: (reason, the message's count, the recomputed count).
///
/// Per node the scheduler reports the first filter plugin that rejects it, and
/// NodeResourcesFit reports every resource it lacks (and `Too many pods`) at once; the
/// recomputation is counted the same way. The current TaintToleration wording names no
/// taint (`node(s) had untolerated taint(s)`), so when the message uses it taints are
/// compared as one count. Reasons kdiag does not recompute are named, not counted as a
/// disagreement.
pub(super) fn compare(
    fits: &Fits,
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
    let keyless = msg
        .reasons
        .iter()
        .any(|r| r.kind == ReasonKind::UntoleratedTaints);
    let taint_key = |key: &str| {
        if keyless {
            "node(s) had untolerated taint(s)".to_string()
        } else {
            format!("node(s) had untolerated taint {{{key}}}")
        }
    };
    let mut ours: BTreeMap<String, u32> = BTreeMap::new();
    // Counted once per class of nodes (they share a verdict), times its nodes.
    for (n, f) in fits.classes() {
        let n = n as u32;
        match f.verdict.exclusions.first() {
            Some(x) if x.is_capacity() => {
                for x in f.verdict.exclusions.iter().filter(|x| x.is_capacity()) {
                    match x {
                        Exclusion::Resources(s) => {
                            for s in s {
                                *ours
                                    .entry(format!("Insufficient {}", s.resource))
                                    .or_default() += n;
                            }
                        }
                        _ => *ours.entry("Too many pods".into()).or_default() += n,
                    }
                }
            }
            Some(Exclusion::Taint(t)) => *ours.entry(taint_key(&t.key)).or_default() += n,
            Some(x) => *ours.entry(vocabulary(x)).or_default() += n,
            None => {}
        }
    }
    let mut theirs: BTreeMap<String, u32> = BTreeMap::new();
    let mut unknown = Vec::new();
    for r in &msg.reasons {
        let key = match &r.kind {
            ReasonKind::Insufficient(res) => format!("Insufficient {res}"),
            ReasonKind::TooManyPods => "Too many pods".into(),
            ReasonKind::NodeAffinity => vocabulary(&Exclusion::NodeAffinity),
            ReasonKind::Taint { key, .. } => taint_key(key),
            ReasonKind::UntoleratedTaints => taint_key(""),
            ReasonKind::Cordoned => vocabulary(&Exclusion::Cordoned),
            ReasonKind::NodePorts => vocabulary(&Exclusion::HostPort(0)),
            ReasonKind::VolumeNodeAffinity => "node(s) had volume node affinity conflict".into(),
            ReasonKind::PodAntiAffinity => "node(s) didn't match pod anti-affinity rules".into(),
            ReasonKind::ExistingAntiAffinity => {
                "node(s) didn't satisfy existing pods anti-affinity rules".into()
            }
            ReasonKind::PodAffinity => vocabulary(&Exclusion::PodAffinity),
            ReasonKind::TopologySpread if r.text.contains("missing required label") => {
                format!("{TOPOLOGY_SPREAD} (missing required label)")
            }
            ReasonKind::TopologySpread => TOPOLOGY_SPREAD.into(),
            _ => {
                unknown.push(match r.count {
                    Some(n) => format!("{n} {}", r.text),
                    None => r.text.clone(),
                });
                continue;
            }
        };
        let n = theirs.entry(key).or_default();
        *n = n.saturating_add(r.count.unwrap_or(msg.nodes));
    }
    let mut why = Vec::new();
    if msg.nodes as usize != total {
        why.push(format!(
            "node count: its message counts {}, the bundle holds {total}",
            msg.nodes
        ));
    }
    let keys: std::collections::BTreeSet<&String> = ours.keys().chain(theirs.keys()).collect();
    for k in keys {
        let (m, r) = (
            theirs.get(k).copied().unwrap_or(0),
            ours.get(k).copied().unwrap_or(0),
        );
        // With reasons kdiag does not recompute, the nodes they excluded may show up
        // here under a later filter; only a count the message exceeds disagrees then.
        if m != r && (unknown.is_empty() || m > r) {
            why.push(format!(
                "{k}: its message counts {m} {}, kdiag recomputes {r}",
                if m == 1 { "node" } else { "nodes" }
            ));
        }
    }
    let not_recomputed = if unknown.is_empty() {
        String::new()
    } else {
        format!(
            " It also names reasons kdiag does not recompute ({}).",
            unknown.join("; ")
        )
    };
    if why.is_empty() {
        return format!(" The scheduler agrees: {}{not_recomputed}", text.trim());
    }
    format!(
        " The scheduler's message differs ({}; the bundle may have been taken later, or nodes and pods changed): {}{not_recomputed}",
        why.join("; "),
        text.trim()
    )
}

/// The scheduler's reason text for an exclusion (for comparison and for naming a count).
fn vocabulary(x: &Exclusion) -> String {
    match x {
        Exclusion::Cordoned => "node(s) were unschedulable".into(),
        Exclusion::Taint(t) => format!("node(s) had untolerated taint {{{}}}", t.key),
        Exclusion::NodeSelector { .. } | Exclusion::NodeAffinity => {
            "node(s) didn't match Pod's node affinity/selector".into()
        }
        Exclusion::HostPort(_) => {
            "node(s) didn't have free ports for the requested pod ports".into()
        }
        Exclusion::Resources(_) => "Insufficient resources".into(),
        Exclusion::TooManyPods { .. } => "Too many pods".into(),
        Exclusion::VolumeNodeAffinity { .. } => "node(s) had volume node affinity conflict".into(),
        Exclusion::AntiAffinity { .. } => "node(s) didn't match pod anti-affinity rules".into(),
        Exclusion::ExistingAntiAffinity { .. } => {
            "node(s) didn't satisfy existing pods anti-affinity rules".into()
        }
        Exclusion::PodAffinity => "node(s) didn't match pod affinity rules".into(),
        Exclusion::TopologySpread {
            missing_label: true,
            ..
        } => format!("{TOPOLOGY_SPREAD} (missing required label)"),
        Exclusion::TopologySpread { .. } => TOPOLOGY_SPREAD.into(),
    }
}

/// PodTopologySpread's reason text.
const TOPOLOGY_SPREAD: &str = "node(s) didn't match pod topology spread constraints";

/// Reasons in the scheduler's message kdiag does not recompute.
pub(super) fn unrecomputed_reasons(msg: &FitMessage) -> Vec<String> {
    msg.reasons
        .iter()
        .filter(|r| {
            matches!(
                r.kind,
                ReasonKind::VolumeBinding
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
            ReasonKind::UntoleratedTaints => "taint".into(),
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

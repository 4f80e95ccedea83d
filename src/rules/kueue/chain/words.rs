//! Wording helpers shared by the messages, the evidence and `kdiag why`: a flavor's
//! labels and taints, a label selector, `a, b and c`, and back-off times.

use crate::kube::kueue::ResourceFlavor;
use crate::kube::time::format_duration;
use crate::snapshot::Snapshot;

/// A flavor's node labels as `key=value`, in order.
pub fn node_label_words(rf: &ResourceFlavor) -> Vec<String> {
    rf.spec
        .node_labels
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect()
}

/// A flavor's node taints as `key[=value]:effect`, in order.
pub fn node_taint_words(rf: &ResourceFlavor) -> Vec<String> {
    rf.spec
        .node_taints
        .iter()
        .map(|t| {
            format!(
                "{}{}:{}",
                t.key,
                t.value
                    .as_deref()
                    .map(|v| format!("={v}"))
                    .unwrap_or_default(),
                t.effect
            )
        })
        .collect()
}

pub fn flavor_words(rf: &ResourceFlavor, why: Option<&str>) -> String {
    let labels = node_label_words(rf);
    let taints = node_taint_words(rf);
    let tols: Vec<String> = rf
        .spec
        .tolerations
        .iter()
        .map(|t| {
            format!(
                "{}{}{}",
                t.key.as_deref().unwrap_or("*"),
                t.value
                    .as_deref()
                    .map(|v| format!("={v}"))
                    .unwrap_or_default(),
                t.effect
                    .as_deref()
                    .map(|e| format!(":{e}"))
                    .unwrap_or_default()
            )
        })
        .collect();
    let mut s = format!(
        "ResourceFlavor {}: nodeLabels {}",
        rf.metadata.name,
        if labels.is_empty() {
            "(none)".into()
        } else {
            labels.join(", ")
        }
    );
    if !taints.is_empty() {
        s.push_str(&format!(", nodeTaints {}", taints.join(", ")));
    }
    if !tols.is_empty() {
        s.push_str(&format!(", tolerations {}", tols.join(", ")));
    }
    if let Some(w) = why {
        s.push_str(&format!(" — {w}"));
    }
    s
}

/// `{}` (all), `team=ml`, `env In [a, b]`.
pub fn describe_selector(sel: &crate::kube::meta::LabelSelector) -> String {
    let mut parts: Vec<String> = sel
        .match_labels
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    for r in &sel.match_expressions {
        if r.values.is_empty() {
            parts.push(format!("{} {}", r.key, r.operator));
        } else {
            parts.push(format!(
                "{} {} [{}]",
                r.key,
                r.operator,
                r.values.join(", ")
            ));
        }
    }
    if parts.is_empty() {
        "{} (all namespaces)".into()
    } else {
        parts.join(", ")
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn join_and(parts: &[String]) -> String {
    match parts.len() {
        0 => String::new(),
        1 => parts[0].clone(),
        n => format!("{} and {}", parts[..n - 1].join(", "), parts[n - 1]),
    }
}

/// `3m` from now, for back-off times.
pub fn until_words(snap: &Snapshot, at: i64) -> String {
    match snap.as_of {
        Some(asof) if at > asof => format!("in {}", format_duration(at - asof)),
        Some(asof) => format!("{} ago", format_duration(asof - at)),
        None => String::new(),
    }
}

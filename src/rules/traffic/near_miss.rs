//! Selector typos: whether two label keys or values look like a typo of each other, and
//! the pods of a namespace that a Service selector misses by one label. Split from
//! [`super::model`]; used by the selector and target-port rules.

use super::model::Model;
use crate::snapshot::ObjectId;
use std::collections::BTreeMap;

/// Two label keys or values that look like a typo of each other.
pub fn similar(a: &str, b: &str) -> bool {
    if a == b {
        return false;
    }
    if a.eq_ignore_ascii_case(b) {
        return true;
    }
    crate::parse::typo::close(a, b)
}

/// A pod that the selector misses by one label.
pub struct NearMiss {
    pub pod: ObjectId,
    /// `has app=payments, the selector wants app=payment`.
    pub diff: String,
}

/// Pods of the namespace that fail exactly one selector requirement in a way that looks
/// like a typo (a similar value or key), or (for selectors of two or more labels) that
/// match every other label and just lack one.
pub fn near_misses(model: &Model, ns: &str, sel: &BTreeMap<String, String>) -> Vec<NearMiss> {
    let mut out = Vec::new();
    for (id, pod) in model.pods_in(ns) {
        let labels = &pod.metadata.labels;
        let failing: Vec<(&String, &String)> = sel
            .iter()
            .filter(|(k, v)| labels.get(k.as_str()).map(|s| s.as_str()) != Some(v.as_str()))
            .collect();
        let [(k, v)] = failing.as_slice() else {
            continue;
        };
        if let Some(why) = crate::rules::evidence::unreadable_label(model.snap, *id, k) {
            out.push(NearMiss {
                pod: *id,
                diff: format!("has label {k} {why}, the selector wants {k}={v}"),
            });
            continue;
        }
        let diff = match labels.get(k) {
            Some(have) if similar(have, v) => {
                Some(format!("has {k}={have}, the selector wants {k}={v}"))
            }
            Some(_) => None,
            None => labels
                .iter()
                .find(|(k2, v2)| *v2 == *v && similar(k2, k))
                .map(|(k2, _)| format!("has {k2}={v}, the selector wants {k}={v}"))
                .or_else(|| {
                    (sel.len() >= 2).then(|| format!("lacks label {k}={v} (matches the rest)"))
                }),
        };
        if let Some(diff) = diff {
            out.push(NearMiss { pod: *id, diff });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos() {
        assert!(similar("payment", "payments"));
        assert!(similar("v1", "v2"));
        assert!(similar("Web", "web"));
        assert!(!similar("web", "api"));
        assert!(!similar("frontend", "backend"));
        assert!(!similar("web", "web"));
    }
}

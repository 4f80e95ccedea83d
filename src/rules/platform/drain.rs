//! Which PodDisruptionBudget blocks a node's drain, recomputed from the bundle's pods:
//! an eviction is refused while the budget's healthy pods would fall below what it
//! demands, so a budget allowing 0 disruptions holds every pod it selects in place
//! (upstream `pkg/controller/disruption`: desiredHealthy from minAvailable, or
//! expectedPods − maxUnavailable, percentages rounded up).

use crate::kube::policy::PodDisruptionBudget;
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;

pub struct Blocker<'a> {
    pub id: ObjectId,
    pub pdb: &'a PodDisruptionBudget,
    /// Its pods on the node being drained.
    pub pods_here: Vec<ObjectId>,
    pub expected: i64,
    pub healthy: i64,
    pub desired: i64,
    /// What the budget demands, in its own words (`minAvailable 2`).
    pub demand: String,
}

impl Blocker<'_> {
    pub fn allowed(&self) -> i64 {
        (self.healthy - self.desired).max(0)
    }
    pub fn name(&self) -> String {
        format!(
            "{}/{}",
            self.pdb.metadata.namespace.as_deref().unwrap_or(""),
            self.pdb.metadata.name
        )
    }
}

/// Budgets that select pods bound to `node` and allow no disruption.
pub fn blockers<'a>(snap: &'a Snapshot, node: &str) -> Vec<Blocker<'a>> {
    let here = snap.pods_on_node(node);
    let mut out = Vec::new();
    for (id, pdb) in snap.pod_disruption_budgets() {
        let Some(selector) = &pdb.spec.selector else {
            continue;
        };
        let ns = pdb.metadata.namespace.as_deref();
        let selected: Vec<(ObjectId, &crate::kube::pod::Pod)> = snap
            .pods()
            .iter()
            .filter(|(_, p)| {
                p.metadata.namespace.as_deref() == ns
                    && p.is_active()
                    && selector.matches(&p.metadata.labels)
            })
            .map(|(i, p)| (*i, &**p))
            .collect();
        let pods_here: Vec<ObjectId> = selected
            .iter()
            .filter(|(i, _)| here.contains(i))
            .map(|(i, _)| *i)
            .collect();
        if pods_here.is_empty() {
            continue;
        }
        let expected = selected.len() as i64;
        let healthy = selected
            .iter()
            .filter(|(_, p)| p.is_ready() && p.metadata.deletion_timestamp.is_none())
            .count() as i64;
        let Some((desired, demand)) = desired_healthy(pdb, expected) else {
            continue;
        };
        let b = Blocker {
            id: *id,
            pdb,
            pods_here,
            expected,
            healthy,
            desired,
            demand,
        };
        if b.allowed() == 0 {
            out.push(b);
        }
    }
    out
}

/// Healthy pods the budget demands of `expected`, and how it says so.
fn desired_healthy(pdb: &PodDisruptionBudget, expected: i64) -> Option<(i64, String)> {
    if let Some(v) = &pdb.spec.min_available {
        return Some((scaled(v, expected)?, format!("minAvailable {}", show(v))));
    }
    if let Some(v) = &pdb.spec.max_unavailable {
        let n = scaled(v, expected)?;
        return Some(((expected - n).max(0), format!("maxUnavailable {}", show(v))));
    }
    None
}

/// An int-or-percent against `total`, percentages rounded up.
fn scaled(v: &Value, total: i64) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => match s.strip_suffix('%') {
            Some(p) => {
                let p: i64 = p.trim().parse().ok()?;
                Some((p * total + 99) / 100)
            }
            None => s.trim().parse().ok(),
        },
        _ => None,
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::scaled;
    use serde_json::json;

    #[test]
    fn percentages_round_up() {
        assert_eq!(scaled(&json!("50%"), 3), Some(2));
        assert_eq!(scaled(&json!("100%"), 3), Some(3));
        assert_eq!(scaled(&json!(2), 3), Some(2));
        assert_eq!(scaled(&json!("2"), 3), Some(2));
        assert_eq!(scaled(&json!("x%"), 3), None);
    }
}

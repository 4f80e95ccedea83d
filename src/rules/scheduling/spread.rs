//! The PodTopologySpread filter recomputed for one pending pod (upstream
//! `plugins/podtopologyspread/filtering.go`), for the constraints with
//! `whenUnsatisfiable: DoNotSchedule` (`ScheduleAnyway` only scores).
//!
//! Per constraint, as the plugin's PreFilter does:
//! - the selector is `labelSelector` (absent: matches no pod) plus, for each key of
//!   `matchLabelKeys` the pod carries, `key In [the pod's value]`;
//! - eligible nodes are those that carry every constraint's `topologyKey` and, by
//!   `nodeAffinityPolicy` (default `Honor`), match the pod's nodeSelector and required
//!   node affinity, and by `nodeTaintsPolicy` (default `Ignore`; `Honor` drops nodes with
//!   a NoSchedule/NoExecute taint the pod does not tolerate);
//! - every eligible node's `topologyKey` value is a domain; the pods counted in a
//!   domain are the non-terminal, non-deleting pods of the pod's namespace bound to
//!   eligible nodes there that match the selector (upstream skips pods with a
//!   deletionTimestamp, "Bypass terminating Pod"; the words name the ones skipped);
//! - the global minimum is the smallest domain count, or 0 when there are fewer
//!   domains than `minDomains` (default 1).
//!
//! Filter: a node without a constraint's `topologyKey` fails (`missing required
//! label`); otherwise it fails when `count(its domain) + (1 if the pod matches the
//! selector) − global minimum > maxSkew`.

use super::fit::Exclusion;
use crate::kube::meta::{LabelSelector, SelectorRequirement};
use crate::kube::node::Node;
use crate::kube::placement::{
    node_matches_terms, required_node_terms, unmatched_selector, untolerated,
};
use crate::kube::pod::Pod;
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::collections::BTreeMap;

/// One DoNotSchedule constraint with its domain counts.
struct Constraint {
    key: String,
    max_skew: i64,
    /// Domain value → matching pods.
    counts: BTreeMap<String, i64>,
    global_min: i64,
    self_match: bool,
    /// "topologyKey …, maxSkew 1, minDomains 3: matching pods per domain a 1, b 1; …".
    words: String,
}

/// The pod's DoNotSchedule topology spread constraints, counted once.
pub struct Spread {
    constraints: Vec<Constraint>,
}

impl Spread {
    pub fn build(snap: &Snapshot, pod_id: ObjectId, pod: &Pod) -> Spread {
        let raw: Vec<&Value> = pod
            .spec
            .topology_spread_constraints
            .get()
            .iter()
            .filter(|c| str_at(c, "whenUnsatisfiable") == "DoNotSchedule")
            .collect();
        if raw.is_empty() {
            return Spread {
                constraints: Vec::new(),
            };
        }
        let ns = snap.object(pod_id).namespace.clone().unwrap_or_default();
        let keys: Vec<&str> = raw.iter().map(|c| str_at(c, "topologyKey")).collect();
        let affinity = pod.spec.affinity.get();
        let terms = required_node_terms(affinity.as_ref());
        let mut constraints = Vec::new();
        for c in raw {
            let key = str_at(c, "topologyKey").to_string();
            let max_skew = c.get("maxSkew").and_then(Value::as_i64).unwrap_or(1);
            let min_domains = c.get("minDomains").and_then(Value::as_i64).unwrap_or(1);
            let honor_affinity = str_at(c, "nodeAffinityPolicy") != "Ignore";
            let honor_taints = str_at(c, "nodeTaintsPolicy") == "Honor";
            let selector = selector_of(c, pod);
            // Eligible nodes and their domains.
            let mut domain_of: BTreeMap<&str, &str> = BTreeMap::new();
            for (_, node) in snap.nodes() {
                let labels = &node.metadata.labels;
                if !keys.iter().all(|k| labels.contains_key(k)) {
                    continue;
                }
                if honor_affinity
                    && (unmatched_selector(&pod.spec.node_selector, labels).is_some()
                        || terms
                            .as_ref()
                            .is_some_and(|t| !node_matches_terms(&node.metadata, t)))
                {
                    continue;
                }
                if honor_taints && untolerated(&pod.spec.tolerations, &node.spec.taints).is_some() {
                    continue;
                }
                if let Some(v) = labels.get(&key) {
                    domain_of.insert(node.metadata.name.as_str(), v.as_str());
                }
            }
            let mut counts: BTreeMap<String, i64> =
                domain_of.values().map(|v| (v.to_string(), 0)).collect();
            // Matching pods being deleted: upstream skips them, and the words say so.
            let mut terminating: BTreeMap<String, i64> = BTreeMap::new();
            for (id, p) in snap.pods_in_namespace(snap.object(pod_id).namespace.as_deref()) {
                if *id == pod_id
                    || !p.is_active()
                    || p.metadata.namespace.as_deref().unwrap_or("") != ns
                {
                    continue;
                }
                let Some(domain) = p.spec.node_name.as_deref().and_then(|n| domain_of.get(n))
                else {
                    continue;
                };
                if selector
                    .as_ref()
                    .is_some_and(|s| s.matches(&p.metadata.labels))
                {
                    let into = if p.metadata.deletion_timestamp.is_some() {
                        &mut terminating
                    } else {
                        &mut counts
                    };
                    *into.entry(domain.to_string()).or_default() += 1;
                }
            }
            let few = (counts.len() as i64) < min_domains;
            let global_min = if few {
                0
            } else {
                counts.values().copied().min().unwrap_or(0)
            };
            let self_match = selector
                .as_ref()
                .is_some_and(|s| s.matches(&pod.metadata.labels));
            let per: Vec<String> = counts.iter().map(|(d, n)| format!("{d} {n}")).collect();
            let skipped = if terminating.is_empty() {
                String::new()
            } else {
                let per: Vec<String> = terminating
                    .iter()
                    .map(|(d, n)| format!("{d} {n}"))
                    .collect();
                format!(
                    " (not counting terminating pods, as the scheduler does not: {})",
                    per.join(", ")
                )
            };
            let words = format!(
                "topologyKey {key}, maxSkew {max_skew}{}: matching pods per domain {}{skipped}; {}",
                c.get("minDomains")
                    .and_then(Value::as_i64)
                    .map(|m| format!(", minDomains {m}"))
                    .unwrap_or_default(),
                if per.is_empty() {
                    "(no eligible node carries the key)".to_string()
                } else {
                    per.join(", ")
                },
                if few {
                    format!(
                        "{} {}, fewer than minDomains {min_domains}, so the global minimum is 0",
                        counts.len(),
                        if counts.len() == 1 {
                            "domain"
                        } else {
                            "domains"
                        }
                    )
                } else {
                    format!("the global minimum is {global_min}")
                }
            );
            constraints.push(Constraint {
                key,
                max_skew,
                counts,
                global_min,
                self_match,
                words,
            });
        }
        Spread { constraints }
    }

    /// The topology keys its check reads from a node's labels.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.constraints.iter().map(|c| c.key.as_str())
    }

    /// The filter's verdict for one node.
    pub fn check(&self, node: &Node) -> Option<Exclusion> {
        let labels = &node.metadata.labels;
        if let Some(c) = self
            .constraints
            .iter()
            .find(|c| !labels.contains_key(&c.key))
        {
            return Some(Exclusion::TopologySpread {
                key: c.key.clone(),
                missing_label: true,
                words: c.words.clone(),
            });
        }
        for c in &self.constraints {
            let value = labels.get(&c.key)?;
            let here = c.counts.get(value.as_str()).copied().unwrap_or(0);
            let skew = here + i64::from(c.self_match) - c.global_min;
            if skew > c.max_skew {
                return Some(Exclusion::TopologySpread {
                    key: c.key.clone(),
                    missing_label: false,
                    words: c.words.clone(),
                });
            }
        }
        None
    }
}

/// `labelSelector` plus the pod's values of `matchLabelKeys`; `None` (matches no pod)
/// when the constraint has no labelSelector.
fn selector_of(c: &Value, pod: &Pod) -> Option<LabelSelector> {
    let mut sel: LabelSelector = c
        .get("labelSelector")
        .filter(|v| !v.is_null())
        .and_then(|v| serde_json::from_value(v.clone()).ok())?;
    for k in c
        .get("matchLabelKeys")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if let Some(v) = pod.metadata.labels.get(k) {
            sel.match_expressions.push(SelectorRequirement {
                key: k.to_string(),
                operator: "In".into(),
                values: vec![v.to_string()],
            });
        }
    }
    Some(sel)
}

fn str_at<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

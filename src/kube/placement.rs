//! Where a pod may run, read from its spec and a node's: tolerations against taints
//! (`ToleratesTaint`), `nodeSelector`, required node affinity (`NodeSelectorTerms`, also
//! a PersistentVolume's), required inter-pod (anti-)affinity terms, host ports and the
//! claims of its volumes. Pure object semantics: what the scheduler's filters, the
//! DaemonSet controller and Kueue's flavor matching ask of one pod and one node; counting
//! the pods bound to nodes is the rules' business.

use crate::kube::meta::{LabelSelector, Labels, ObjectMeta};
use crate::kube::node::Taint;
use crate::kube::pod::{PodSpec, Toleration};
use serde_json::Value;

/// `ToleratesTaint` (k8s.io/api core/v1 helpers): whether one toleration tolerates `taint`.
fn toleration_matches(t: &Toleration, taint: &Taint) -> bool {
    let effect_ok = t
        .effect
        .as_deref()
        .is_none_or(|e| e.is_empty() || e == taint.effect);
    let key = t.key.as_deref().unwrap_or("");
    let key_ok = key.is_empty() || key == taint.key;
    let op = t.operator.as_deref().unwrap_or("Equal");
    let value_ok = match op {
        "Exists" => true,
        "Equal" | "" => t.value.as_deref().unwrap_or("") == taint.value.as_deref().unwrap_or(""),
        _ => false,
    };
    // An empty key only makes sense with Exists (it matches every taint).
    effect_ok && key_ok && value_ok && (!key.is_empty() || op == "Exists")
}

/// Whether any of `tolerations` tolerates `taint`.
pub fn tolerates(tolerations: &[Toleration], taint: &Taint) -> bool {
    tolerations.iter().any(|t| toleration_matches(t, taint))
}

/// Whether `tolerations` let a pod onto a cordoned node (`spec.unschedulable`), which the
/// scheduler treats as the taint `node.kubernetes.io/unschedulable:NoSchedule`.
pub fn tolerates_cordon(tolerations: &[Toleration]) -> bool {
    tolerates(
        tolerations,
        &Taint {
            key: "node.kubernetes.io/unschedulable".into(),
            value: None,
            effect: "NoSchedule".into(),
        },
    )
}

/// The first of `taints` that keeps a pod with `tolerations` off the node: a `NoSchedule`
/// or `NoExecute` taint none of them tolerates (`PreferNoSchedule` only scores).
pub fn untolerated<'a>(tolerations: &[Toleration], taints: &'a [Taint]) -> Option<&'a Taint> {
    taints.iter().find(|t| {
        matches!(t.effect.as_str(), "NoSchedule" | "NoExecute") && !tolerates(tolerations, t)
    })
}

/// Taints the node lifecycle controller puts on NotReady / unreachable nodes.
pub fn is_not_ready_taint(key: &str) -> bool {
    matches!(
        key,
        "node.kubernetes.io/not-ready" | "node.kubernetes.io/unreachable"
    )
}

/// The first `nodeSelector` entry the node's labels lack or hold another value for.
pub fn unmatched_selector<'a>(
    node_selector: &'a Labels,
    node_labels: &Labels,
) -> Option<(&'a str, &'a str)> {
    node_selector
        .iter()
        .find(|(k, v)| node_labels.get(k) != Some(*v))
        .map(|(k, v)| (k.as_str(), v.as_str()))
}

/// One requirement of a node selector term (`matchExpressions` or `matchFields`), read
/// leniently: a missing or odd field is empty, values that are not strings are left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeSelectorRequirement {
    pub key: String,
    pub operator: String,
    pub values: Vec<String>,
}

impl NodeSelectorRequirement {
    fn read(v: &Value) -> NodeSelectorRequirement {
        NodeSelectorRequirement {
            key: str_at(v, "key").to_string(),
            operator: str_at(v, "operator").to_string(),
            values: strings_at(v, "values"),
        }
    }

    /// Against a label's (or field's) value, `None` when the node has none. `Gt` and `Lt`
    /// compare integers as `strconv.ParseInt` reads them (no surrounding spaces); a value
    /// that is not one matches neither.
    pub fn matches(&self, value: Option<&str>) -> bool {
        let values = &self.values;
        let num = |s: &str| s.parse::<i64>().ok();
        let compared = || value.and_then(num).zip(values.first().and_then(|v| num(v)));
        match self.operator.as_str() {
            "In" => value.is_some_and(|v| values.iter().any(|w| w == v)),
            "NotIn" => value.is_none_or(|v| !values.iter().any(|w| w == v)),
            "Exists" => value.is_some(),
            "DoesNotExist" => value.is_none(),
            "Gt" => compared().is_some_and(|(have, want)| have > want),
            "Lt" => compared().is_some_and(|(have, want)| have < want),
            _ => false,
        }
    }

    /// `zone In [a, b]`, `gpu Exists`.
    pub fn describe(&self) -> String {
        if self.values.is_empty() {
            format!("{} {}", self.key, self.operator)
        } else {
            format!(
                "{} {} [{}]",
                self.key,
                self.operator,
                self.values.join(", ")
            )
        }
    }
}

/// One NodeSelectorTerm: its expressions (on labels) and fields (`metadata.name`) ANDed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeSelectorTerm {
    pub match_expressions: Vec<NodeSelectorRequirement>,
    pub match_fields: Vec<NodeSelectorRequirement>,
}

impl NodeSelectorTerm {
    fn read(term: &Value) -> NodeSelectorTerm {
        let list = |k: &str| -> Vec<NodeSelectorRequirement> {
            term.get(k)
                .and_then(Value::as_array)
                .map(|a| a.iter().map(NodeSelectorRequirement::read).collect())
                .unwrap_or_default()
        };
        NodeSelectorTerm {
            match_expressions: list("matchExpressions"),
            match_fields: list("matchFields"),
        }
    }

    /// Whether the node matches the term; a term with neither expressions nor fields
    /// matches nothing.
    pub fn matches(&self, node: &ObjectMeta) -> bool {
        if self.match_expressions.is_empty() && self.match_fields.is_empty() {
            return false;
        }
        self.match_expressions
            .iter()
            .all(|e| e.matches(node.labels.get(&e.key).map(|s| s.as_str())))
            && self.match_fields.iter().all(|f| {
                let value = (f.key == "metadata.name").then_some(node.name.as_str());
                f.matches(value)
            })
    }
}

/// A list of NodeSelectorTerms as written (a pod's required node affinity, a
/// PersistentVolume's `nodeAffinity.required`).
pub fn node_selector_terms(terms: &[Value]) -> Vec<NodeSelectorTerm> {
    terms.iter().map(NodeSelectorTerm::read).collect()
}

/// `spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`,
/// `None` when unset.
pub fn required_node_terms(affinity: Option<&Value>) -> Option<Vec<NodeSelectorTerm>> {
    let terms = affinity?
        .pointer("/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms")?
        .as_array()?;
    Some(node_selector_terms(terms))
}

/// NodeSelectorTerms are ORed (see [`NodeSelectorTerm::matches`] for one term).
pub fn node_matches_terms(node: &ObjectMeta, terms: &[NodeSelectorTerm]) -> bool {
    terms.iter().any(|t| t.matches(node))
}

fn str_at<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

/// The strings of the list at `k` (other items left out; no list: none).
fn strings_at(v: &Value, k: &str) -> Vec<String> {
    v.get(k)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// `(hostPort, protocol)` of every container port that asks for one.
pub fn host_ports(spec: &PodSpec) -> Vec<(i64, String)> {
    spec.containers
        .iter()
        .chain(spec.init_containers.iter())
        .flat_map(|c| c.ports.iter())
        .filter_map(|p| {
            p.host_port
                .filter(|h| *h > 0)
                .map(|h| (h, p.protocol.as_deref().unwrap_or("TCP").to_string()))
        })
        .collect()
}

/// A required pod (anti-)affinity term.
#[derive(Clone, Debug)]
pub struct AffinityTerm {
    pub selector: LabelSelector,
    pub topology_key: String,
    pub namespaces: Vec<String>,
    /// `Some(selector)` when `namespaceSelector` is set (empty = every namespace).
    pub namespace_selector: Option<LabelSelector>,
}

/// Required terms of `podAffinity` or `podAntiAffinity`.
pub fn affinity_terms(affinity: Option<&Value>, which: &str) -> Vec<AffinityTerm> {
    let Some(list) = affinity
        .and_then(|a| a.get(which))
        .and_then(|a| a.get("requiredDuringSchedulingIgnoredDuringExecution"))
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|t| {
            let selector = t
                .get("labelSelector")
                .filter(|v| !v.is_null())
                .map(|v| serde_json::from_value::<LabelSelector>(v.clone()).ok())?;
            Some(AffinityTerm {
                selector: selector?,
                topology_key: str_at(t, "topologyKey").to_string(),
                namespaces: strings_at(t, "namespaces"),
                namespace_selector: t
                    .get("namespaceSelector")
                    .filter(|v| !v.is_null())
                    .and_then(|v| serde_json::from_value(v.clone()).ok()),
            })
        })
        .collect()
}

impl AffinityTerm {
    /// A term with neither `namespaces` nor `namespaceSelector` covers its pod's own
    /// namespace only.
    pub fn own_namespace_only(&self) -> bool {
        self.namespaces.is_empty() && self.namespace_selector.is_none()
    }

    /// Whether a pod in namespace `other_ns` falls under the term of a pod in `own_ns`;
    /// `labels_of` gives a namespace's labels, `None` when it is not known.
    pub fn covers_namespace<'a>(
        &self,
        own_ns: &str,
        other_ns: &str,
        labels_of: impl FnOnce(&str) -> Option<&'a Labels>,
    ) -> bool {
        if self.namespaces.iter().any(|n| n == other_ns) {
            return true;
        }
        match &self.namespace_selector {
            Some(sel) => {
                if sel.match_labels.is_empty() && sel.match_expressions.is_empty() {
                    return true;
                }
                labels_of(other_ns).is_some_and(|l| sel.matches(l))
            }
            None => self.namespaces.is_empty() && own_ns == other_ns,
        }
    }
}

/// Names of the PVCs the pod's volumes use (ephemeral volumes: `<pod>-<volume>`).
pub fn claim_names(spec: &PodSpec) -> Vec<String> {
    spec.volumes
        .get()
        .iter()
        .filter_map(|v| {
            v.pointer("/persistentVolumeClaim/claimName")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tol(v: serde_json::Value) -> Vec<Toleration> {
        serde_json::from_value(v).unwrap()
    }

    fn taint(key: &str, value: Option<&str>, effect: &str) -> Taint {
        Taint {
            key: key.into(),
            value: value.map(str::to_string),
            effect: effect.into(),
        }
    }

    #[test]
    fn toleration_matching() {
        let t = taint("dedicated", Some("gpu"), "NoSchedule");
        assert!(tolerates(
            &tol(
                json!([{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}])
            ),
            &t
        ));
        assert!(tolerates(
            &tol(json!([{"key": "dedicated", "operator": "Exists"}])),
            &t
        ));
        assert!(
            tolerates(&tol(json!([{"operator": "Exists"}])), &t),
            "empty key + Exists tolerates all"
        );
        assert!(!tolerates(
            &tol(json!([{"key": "dedicated", "value": "cpu", "effect": "NoSchedule"}])),
            &t
        ));
        assert!(!tolerates(
            &tol(json!([{"key": "dedicated", "operator": "Exists", "effect": "NoExecute"}])),
            &t
        ));
        assert!(!tolerates(&[], &t));
        let cp = taint("node-role.kubernetes.io/control-plane", None, "NoSchedule");
        assert!(
            tolerates(
                &tol(
                    json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}])
                ),
                &cp
            ),
            "Equal with empty value matches an empty value"
        );
    }

    #[test]
    fn node_selector_terms_match() {
        let meta: ObjectMeta =
            serde_json::from_value(json!({"name": "n1", "labels": {"zone": "a", "gen": "5"}}))
                .unwrap();
        let terms = |v: serde_json::Value| -> Vec<NodeSelectorTerm> {
            node_selector_terms(&serde_json::from_value::<Vec<Value>>(v).unwrap())
        };
        assert!(node_matches_terms(
            &meta,
            &terms(
                json!([{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a", "b"]}]}])
            )
        ));
        assert!(!node_matches_terms(
            &meta,
            &terms(
                json!([{"matchExpressions": [{"key": "zone", "operator": "NotIn", "values": ["a"]}]}])
            )
        ));
        assert!(
            node_matches_terms(
                &meta,
                &terms(json!([
                    {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["z"]}]},
                    {"matchExpressions": [{"key": "gen", "operator": "Gt", "values": ["4"]}]}
                ]))
            ),
            "terms are ORed"
        );
        assert!(!node_matches_terms(
            &meta,
            &terms(
                json!([{"matchExpressions": [{"key": "gen", "operator": "Lt", "values": ["4"]}]}])
            )
        ));
        assert!(
            !node_matches_terms(
                &meta,
                &terms(
                    json!([{"matchExpressions": [{"key": "gen", "operator": "Gt", "values": [" 4"]}]}])
                )
            ),
            "Gt and Lt read integers as strconv.ParseInt does"
        );
        assert!(node_matches_terms(
            &meta,
            &terms(
                json!([{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]}])
            )
        ));
        assert!(
            !node_matches_terms(&meta, &terms(json!([{}]))),
            "an empty term matches nothing"
        );
        assert!(!node_matches_terms(&meta, &[]));
        assert!(node_matches_terms(
            &meta,
            &terms(json!([{"matchExpressions": [{"key": "gpu", "operator": "DoesNotExist"}]}]))
        ));
    }

    #[test]
    fn requirement_words() {
        let terms = node_selector_terms(
            &serde_json::from_value::<Vec<Value>>(json!([{"matchExpressions": [
                {"key": "zone", "operator": "In", "values": ["a", "b"]},
                {"key": "gpu", "operator": "Exists"}
            ]}]))
            .unwrap(),
        );
        let words: Vec<String> = terms[0]
            .match_expressions
            .iter()
            .map(NodeSelectorRequirement::describe)
            .collect();
        assert_eq!(words, ["zone In [a, b]", "gpu Exists"]);
    }
}

//! Where a pod (or a controller's pod template) can land: its bound node, else every node
//! of the bundle its nodeSelector, required node affinity and tolerations allow (the
//! scheduler's static filters; capacity changes over time and is not considered).

use crate::kube::node::Taint;
use crate::kube::pod::PodSpec;
use crate::rules::scheduling::fit::{node_matches_terms, required_node_terms, tolerates};
use crate::snapshot::Snapshot;

/// Names of the nodes `spec` can run on.
pub fn candidate_nodes(snap: &Snapshot, spec: &PodSpec) -> Vec<String> {
    if let Some(n) = spec.node_name.as_deref().filter(|n| !n.is_empty()) {
        return vec![n.to_string()];
    }
    let terms = required_node_terms(spec.affinity.get().as_ref());
    snap.nodes()
        .iter()
        .filter(|(_, node)| {
            let cordon = Taint {
                key: "node.kubernetes.io/unschedulable".into(),
                value: None,
                effect: "NoSchedule".into(),
            };
            if node.spec.unschedulable && !tolerates(&spec.tolerations, &cordon) {
                return false;
            }
            if node.spec.taints.iter().any(|t| {
                matches!(t.effect.as_str(), "NoSchedule" | "NoExecute")
                    && !tolerates(&spec.tolerations, t)
            }) {
                return false;
            }
            if spec
                .node_selector
                .iter()
                .any(|(k, v)| node.metadata.labels.get(k) != Some(v))
            {
                return false;
            }
            terms.is_none_or(|t| node_matches_terms(&node.metadata, t))
        })
        .map(|(_, node)| node.metadata.name.to_string())
        .collect()
}

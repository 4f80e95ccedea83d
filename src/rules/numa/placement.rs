//! Where a pod (or a controller's pod template) can land: its bound node, else every node
//! of the bundle its nodeSelector, required node affinity and tolerations allow (the
//! scheduler's static filters; capacity changes over time and is not considered).

use crate::kube::placement::{
    node_matches_terms, required_node_terms, tolerates_cordon, unmatched_selector, untolerated,
};
use crate::kube::pod::PodSpec;
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
            if node.spec.unschedulable && !tolerates_cordon(&spec.tolerations) {
                return false;
            }
            if untolerated(&spec.tolerations, &node.spec.taints).is_some() {
                return false;
            }
            if unmatched_selector(&spec.node_selector, &node.metadata.labels).is_some() {
                return false;
            }
            terms
                .as_ref()
                .is_none_or(|t| node_matches_terms(&node.metadata, t))
        })
        .map(|(_, node)| node.metadata.name.to_string())
        .collect()
}

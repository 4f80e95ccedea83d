//! `node/sandbox`: pods whose sandbox (network namespace, pause container) cannot be created.

use crate::declare_rule;
use crate::kube::meta::{ObjectRef, condition};
use crate::rules::evidence;
use crate::rules::pod_findings::{self, note};
use crate::rules::reach::Reach;
use crate::rules::{Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::BTreeMap;

declare_rule! {
    /// Explains pods stuck in ContainerCreating because the pod sandbox cannot be created (CNI, IP addresses, runtime).
    ///
    /// `FailedCreatePodSandBox` and `NetworkNotReady` come from the node: its CNI plugin
    /// cannot set up the pod's network (not initialised, crashed, out of IP addresses) or
    /// the container runtime cannot start the sandbox. Every pod on the node fails the
    /// same way, so the finding is on the Node and lists its pods; the pods are fine.
    pub static SANDBOX = {
        id: "node/sandbox",
        stage: Stage::Node,
        severity: Severity::Error,
        fallback: false,
        // Wide: groups one node's pods of every namespace and cites the node's CNI pod (see `sandbox_reach`).
        reach: Reach::Wide(sandbox_reach),
        run: run,
    };
}

/// Name prefixes of the pods of common CNI plugins' DaemonSets.
const CNI_NAMES: &[&str] = &[
    "calico-node",
    "cilium",
    "kube-flannel",
    "flannel",
    "aws-node",
    "weave-net",
    "kube-router",
    "antrea-agent",
    "canal",
    "ovnkube-node",
    "kube-ovn-cni",
];

/// (cause key, what it means, what to do).
pub fn classify(message: &str) -> (&'static str, &'static str, &'static str) {
    let m = message.to_ascii_lowercase();
    if m.contains("no ip addresses available")
        || m.contains("failed to allocate")
        || m.contains("ip address")
    {
        (
            "ip-exhausted",
            "the CNI plugin has no IP address left for the pod",
            "free or enlarge the node's pod IP range (IPAM pool, subnet, ENI/IP limits), or clean up leaked IP allocations on the node",
        )
    } else if m.contains("cni")
        || m.contains("network plugin")
        || m.contains("setup network")
        || m.contains("set up pod")
        || m.contains("networkready=false")
        || m.contains("network is not ready")
        || m.contains("plugin type=")
    {
        (
            "cni",
            "the node's CNI plugin cannot set up the pod network",
            "check the CNI plugin's pod on that node (its DaemonSet: calico-node, cilium, aws-node, …), its log, and /etc/cni/net.d on the node",
        )
    } else if m.contains("sandbox image") || m.contains("pause") {
        (
            "sandbox-image",
            "the runtime cannot get the sandbox (pause) image",
            "check that the node can pull the pause image configured in the container runtime",
        )
    } else if m.contains("runtimehandler")
        || m.contains("no runtime for")
        || m.contains("runtimeclass")
    {
        (
            "runtime-handler",
            "the pod's RuntimeClass handler is not configured in the node's runtime",
            "configure the runtime handler on the node or schedule the pod to nodes that have it (RuntimeClass scheduling)",
        )
    } else {
        (
            "runtime",
            "the container runtime cannot create the pod sandbox",
            "check the container runtime and the kubelet on that node (their logs)",
        )
    }
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    // (node, cause) → pods with their latest sandbox event.
    let mut groups: BTreeMap<(String, &'static str), Vec<(ObjectId, ObjectId)>> = BTreeMap::new();
    for (id, pod) in snap.pods() {
        let Some(node) = pod.spec.node_name.as_deref().filter(|n| !n.is_empty()) else {
            continue;
        };
        if !pod.is_active()
            || pod.metadata.deletion_timestamp.is_some()
            || !pod_findings::creating(pod)
        {
            continue;
        }
        let events = snap.events_for(*id);
        let Some((eid, e)) = events.iter().rev().find(|(_, e)| {
            matches!(
                e.reason.as_str(),
                "FailedCreatePodSandBox" | "NetworkNotReady"
            )
        }) else {
            continue;
        };
        let (key, _, _) = classify(&e.message);
        groups
            .entry((node.to_string(), key))
            .or_default()
            .push((*id, *eid));
    }
    groups
        .into_iter()
        .map(|((node, key), pods)| finding(snap, &node, key, &pods))
        .collect()
}

fn finding(snap: &Snapshot, node: &str, key: &str, pods: &[(ObjectId, ObjectId)]) -> Finding {
    let (_, first_event) = pods[0];
    let e = Snapshot::view_of(snap.events(), first_event);
    let msg = e.map(|e| e.message.trim().to_string()).unwrap_or_default();
    let (_, what, help) = classify(&msg);
    let names: Vec<String> = pods
        .iter()
        .map(|(p, _)| snap.object(*p).name.clone())
        .collect();
    let mut owners: Vec<String> = pods
        .iter()
        .map(|(p, _)| pod_findings::owner_of(snap, *p).display())
        .collect();
    owners.sort();
    owners.dedup();
    let mut ev: Vec<Evidence> = Vec::new();
    for (p, eid) in pods.iter().take(pod_findings::EVIDENCE_PODS) {
        if let Some(e) = Snapshot::view_of(snap.events(), *eid) {
            ev.push(evidence::event(snap, *eid, e));
        }
        ev.push(evidence::object(
            snap,
            *p,
            format!(
                "pod {} (of {})",
                snap.object(*p).name,
                pod_findings::owner_of(snap, *p).display()
            ),
        ));
    }
    if pods.len() > pod_findings::EVIDENCE_PODS {
        ev.push(note(format!(
            "and {} more pod(s): {}",
            pods.len() - pod_findings::EVIDENCE_PODS,
            names[pod_findings::EVIDENCE_PODS..].join(", ")
        )));
    }
    let object = match snap.node_named(node) {
        Some((nid, n)) => {
            ev.push(pod_findings::node_evidence(snap, node));
            if let Some(c) =
                condition(&n.status.conditions, "NetworkUnavailable").filter(|c| c.status == "True")
            {
                ev.push(evidence::field(
                    snap,
                    nid,
                    &["status", "conditions", "type=NetworkUnavailable"],
                    format!(
                        "NetworkUnavailable=True{}",
                        c.message
                            .as_deref()
                            .map(|m| format!(": {m}"))
                            .unwrap_or_default()
                    ),
                ));
            }
            snap.object(nid).reference()
        }
        None => {
            ev.push(pod_findings::node_evidence(snap, node));
            ObjectRef {
                api_version: "v1".into(),
                kind: "Node".into(),
                namespace: None,
                name: node.to_string(),
            }
        }
    };
    // The CNI plugin's own pod on this node, when it is not Ready, is the likely cause.
    let cni_pods: Vec<String> = snap
        .pods_on_node(node)
        .iter()
        .filter_map(|id| snap.pod(*id).map(|p| (*id, p)))
        .filter(|(id, p)| {
            let n = snap.object(*id).name.as_str();
            p.spec.host_network
                && CNI_NAMES.iter().any(|c| n.starts_with(c))
                && p.is_active()
                && !p.is_ready()
        })
        .map(|(id, p)| {
            let why = p
                .all_statuses()
                .find_map(|(cs, _)| cs.state.waiting.as_ref().and_then(|w| w.reason.clone()))
                .unwrap_or_else(|| "not Ready".into());
            ev.push(evidence::object(
                snap,
                id,
                format!("CNI pod {} on this node: {why}", snap.object(id).name),
            ));
            format!("{} ({why})", snap.object(id).name)
        })
        .collect();
    let cni_note = if cni_pods.is_empty() {
        String::new()
    } else {
        format!(
            "; the network plugin's pod on this node is not Ready: {}",
            cni_pods.join(", ")
        )
    };
    let message = format!(
        "{} on this node cannot get a pod sandbox: {what} — {} (pods: {}; of {}){cni_note}",
        pod_findings::plural(pods.len(), "pod"),
        pod_findings::clip(&msg, 400),
        names.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
            + &if names.len() > 5 {
                format!(" and {} more", names.len() - 5)
            } else {
                String::new()
            },
        owners.join(", ")
    );
    let mut f = Finding::new(
        &SANDBOX,
        Severity::Error,
        object,
        key,
        message,
        ev,
        help.to_string(),
        pods.iter().map(|(p, _)| *p).collect(),
    );
    f.details = Some(serde_json::json!({ "pods": names }));
    f
}

/// Whether a sandbox finding could touch the object asked: the cases are told by each
/// pod (see [`crate::rules::reach::Involve::grouped_cases`]), but a finding also cites a
/// not-Ready host-network pod of the node (the CNI plugin's), of any namespace.
fn sandbox_reach(inv: &crate::rules::reach::Involve) -> bool {
    let cni_like = inv
        .snapshot
        .pod(inv.target)
        .is_some_and(|p| p.spec.host_network && !p.is_ready());
    inv.grouped_cases() || cni_like
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_messages() {
        assert_eq!(classify("Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"abc\": plugin type=\"calico\" failed (add): stat /var/lib/calico/nodename: no such file or directory").0, "cni");
        assert_eq!(classify("Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"x\": plugin type=\"aws-cni\" name=\"aws-cni\" failed (add): add cmd: failed to assign an IP address to container").0, "ip-exhausted");
        assert_eq!(classify("network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized").0, "cni");
        assert_eq!(classify("Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox image \"registry.k8s.io/pause:3.9\": failed to pull image").0, "sandbox-image");
        assert_eq!(classify("Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for \"kata\" is configured").0, "runtime-handler");
        assert_eq!(
            classify("Failed to create pod sandbox: something odd").0,
            "runtime"
        );
    }
}

//! `node/evicted`: pods the kubelet evicted or stopped for a node shutdown.

use crate::declare_rule;
use crate::kube::meta::{ObjectRef, condition};
use crate::rules::disruption;
use crate::rules::evidence;
use crate::rules::pod_findings::{self, Case};
use crate::rules::reach::Reach;
use crate::rules::superseded::superseded;
use crate::rules::{Context, Finding, Severity, Stage};
use std::collections::BTreeMap;

declare_rule! {
    /// Explains pods the kubelet evicted (resource pressure, ephemeral-storage limits) or stopped for a node shutdown.
    ///
    /// The eviction message says which resource the node ran low on, the threshold, and
    /// which container used more than it requested; the finding quotes it and says
    /// whether the node still reports the pressure. Evicted pods are not restarted: a
    /// controller replaces them. Leftovers under a controller that has its desired ready
    /// replicas again are `info`.
    pub static EVICTED = {
        id: "node/evicted",
        stage: Stage::Node,
        severity: Severity::Error,
        fallback: false,
        // Local: each evicted pod with its node, grouped by the pod's owner.
        reach: Reach::Local,
        run: run,
    };
}

/// What an eviction message says: (resource or cause key, sentence).
pub fn parse_eviction(message: &str) -> (String, String) {
    let m = message.trim();
    if let Some(rest) = m.split("The node was low on resource: ").nth(1) {
        let res = rest.split('.').next().unwrap_or("").trim().to_string();
        let mut s = format!("the node ran low on {res}");
        if let Some(t) = rest.split("Threshold quantity: ").nth(1) {
            let t = t.split(". ").next().unwrap_or(t).trim_end_matches('.');
            s.push_str(&format!(" (threshold {t})"));
        }
        if let Some(c) = m.split("Container ").nth(1) {
            let c = c.split(". ").next().unwrap_or(c).trim_end_matches('.');
            s.push_str(&format!("; container {c}"));
        }
        return (res, s);
    }
    if let Some(rest) = m.split("The node had condition: ").nth(1) {
        let cond = rest
            .split('.')
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches(['[', ']'])
            .to_string();
        return (cond.clone(), format!("the node had condition {cond}"));
    }
    if m.contains("ephemeral local storage")
        || m.contains("local ephemeral storage limit")
        || m.contains("EmptyDir volume")
    {
        return (
            "ephemeral-storage".into(),
            "it wrote more local storage than its ephemeral-storage limit (or an emptyDir sizeLimit)".into(),
        );
    }
    if m.contains("node shutdown") || m.contains("Node shutdown") {
        return ("shutdown".into(), "its node shut down".into());
    }
    ("other".into(), "the kubelet evicted it".into())
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let mut groups: BTreeMap<(ObjectRef, String), (Vec<Case>, Severity, String)> = BTreeMap::new();
    for (id, pod) in snap.pods() {
        if pod.phase() != "Failed" {
            continue;
        }
        let reason = pod.status.reason.clone().unwrap_or_default();
        let message = pod.status.message.clone().unwrap_or_default();
        let shutdown = matches!(reason.as_str(), "NodeShutdown" | "Shutdown")
            || (reason == "Terminated" && message.to_ascii_lowercase().contains("shutdown"));
        if reason != "Evicted" && !shutdown {
            continue;
        }
        let node = pod.spec.node_name.clone().unwrap_or_default();
        let (key, what) = if shutdown {
            ("shutdown".to_string(), "its node shut down".to_string())
        } else {
            parse_eviction(&message)
        };
        let mut ev = vec![evidence::field(
            snap,
            *id,
            &["status", "reason"],
            format!("phase Failed, reason {reason}: {}", message.trim()),
        )];
        let mut now = String::new();
        if let Some((nid, n)) = snap.node_named(&node) {
            let cond_type = match key.as_str() {
                "memory" => Some("MemoryPressure"),
                "ephemeral-storage" | "nodefs" | "imagefs" => Some("DiskPressure"),
                "pids" => Some("PIDPressure"),
                k if k.ends_with("Pressure") => Some(k),
                _ => None,
            };
            if let Some(t) = cond_type
                && let Some(c) = condition(&n.status.conditions, t)
            {
                now = if c.status == "True" {
                    format!("; node {node} still reports {t}=True")
                } else {
                    format!("; node {node} reports {t}={} now", c.status)
                };
                ev.push(evidence::field(
                    snap,
                    nid,
                    &["status", "conditions", &format!("type={t}")],
                    format!("node {node}: {t}={}", c.status),
                ));
            }
        } else if !node.is_empty() {
            ev.push(pod_findings::node_evidence(snap, &node));
        }
        // The kubelet's DisruptionTarget condition, when it wrote one, dates the stop.
        if let Some(d) = disruption::of(pod) {
            ev.push(d.evidence(snap, *id));
        }
        let healthy = pod_findings::controller_is_healthy(snap, *id);
        // Else what superseded it (a Job that completed, by its events when the bundle
        // lacks it; a later installer).
        let later = (!healthy).then(|| superseded(snap, *id, pod)).flatten();
        let severity = if healthy || later.is_some() {
            Severity::Info
        } else {
            Severity::Error
        };
        let mut summary = format!(
            "was {} on node {node}: {what}{now}",
            if shutdown { "stopped" } else { "evicted" }
        );
        if healthy {
            summary.push_str(" — a leftover: its controller has its desired ready replicas again");
        }
        let help = if healthy {
            "delete the leftover Failed pods once the cause is understood".to_string()
        } else if let Some(s) = later {
            summary.push_str(&format!(" — {}", s.note));
            ev.push(s.evidence);
            s.help.to_string()
        } else if key == "memory" {
            "set memory requests close to real use (the kubelet evicts pods using more than they request first) and limits, or give the node more memory".into()
        } else if key == "ephemeral-storage" || key.contains("fs") || key == "DiskPressure" {
            "set ephemeral-storage requests/limits and emptyDir sizeLimit, rotate logs, and free node disk (unused images)".into()
        } else {
            "check the node's pressure conditions and whether the controller replaced the pod"
                .into()
        };
        let entry = groups
            .entry((
                pod_findings::owner_of(snap, *id),
                format!("{}:{key}", if shutdown { "shutdown" } else { "evicted" }),
            ))
            .or_insert_with(|| (Vec::new(), severity, help));
        entry.1 = entry.1.min(severity);
        entry.0.push(Case {
            id: *id,
            summary,
            evidence: ev,
        });
    }
    groups
        .into_iter()
        .map(|((owner, cause), (cases, sev, help))| {
            pod_findings::pods_finding(snap, &EVICTED, sev, owner, &cause, cases, help)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eviction_messages() {
        let (k, s) = parse_eviction(
            "The node was low on resource: memory. Threshold quantity: 100Mi, available: 92160Ki. Container app was using 1843200Ki, request is 512Mi, has larger consumption of memory. ",
        );
        assert_eq!(k, "memory");
        assert!(s.contains("threshold 100Mi, available: 92160Ki"), "{s}");
        assert!(
            s.contains("container app was using 1843200Ki, request is 512Mi"),
            "{s}"
        );
        let (k, _) = parse_eviction(
            "The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 9Gi. ",
        );
        assert_eq!(k, "ephemeral-storage");
        let (k, _) = parse_eviction("The node had condition: [DiskPressure]. ");
        assert_eq!(k, "DiskPressure");
        let (k, _) = parse_eviction(
            "Pod ephemeral local storage usage exceeds the total limit of containers 1Gi. ",
        );
        assert_eq!(k, "ephemeral-storage");
        assert_eq!(parse_eviction("").0, "other");
    }
}

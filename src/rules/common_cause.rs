//! One cause, many objects: when [`COMMON_CAUSE_MIN`] or more controllers are stuck for
//! the same computed cause, one finding names that cause and lists them.
//!
//! A rule that computes a cause shared beyond the object it reports on (the nodes that
//! reject a pod, the quota it waits for) puts a [`SharedCause`] on its finding: the
//! cause's identity (a key built from what was computed, never from message text or
//! numbers that drift), the sentence that states it, its evidence and what to do, and the
//! rule that reports it, declared in the same area. After every rule ran, the registry
//! calls [`gather`], which knows no area: it groups the findings by their shared cause
//! and, for a cause shared by enough controllers, adds the cause's finding.
//!
//! The links follow the contract of `details.cause` (`registry::link_causes`): a finding's
//! `details.cause` lists the findings of its cause, so each member names the cause's
//! finding there (and in one evidence line), and the cause's finding lists its members in
//! `details.members` (fingerprint, rule, object). The members keep their fingerprints,
//! messages and severities; reports that fold them under the cause read `details.members`.

use super::{Evidence, Finding, RuleMeta, Severity};
use crate::kube::meta::ObjectRef;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Controllers that must share one computed cause before the report opens with it. Below
/// it, each finding already reads well on its own and a cause finding would be one more
/// line to read; at ten, the same sentence repeated down a page hides the one thing to fix
/// (real captures show a full or cordoned cluster as 100+ identical findings).
pub const COMMON_CAUSE_MIN: usize = 10;

/// A cause computed by a rule that other findings may share.
pub struct SharedCause {
    /// The rule that reports the cause (same area as the rule that computed it).
    pub rule: &'static RuleMeta,
    /// The cause's identity: equal keys are the same cause. Part of the fingerprint.
    pub key: String,
    /// The object to look at first (a ClusterQueue; for the nodes of a whole cluster or a
    /// registry, a `kdiag.io/v1` stand-in named after it).
    pub object: ObjectRef,
    /// The cause in words, completed by how many controllers wait on it.
    pub what: String,
    pub evidence: Vec<Evidence>,
    pub help: String,
}

impl fmt::Debug for SharedCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SharedCause")
            .field("rule", &self.rule.id)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

/// Member findings the cause's finding names one by one in its evidence; the rest are in
/// `details.members` and counted.
pub const EVIDENCE_MEMBERS: usize = 20;

/// Adds a cause finding for each [`SharedCause`] at least [`COMMON_CAUSE_MIN`] controllers'
/// error or warning findings share, and links its members to it (see the module doc).
/// Returns whether any was added (the caller sorts again then).
pub fn gather(findings: &mut Vec<Finding>) -> bool {
    let mut groups: BTreeMap<(&'static str, String), Vec<usize>> = BTreeMap::new();
    for (i, f) in findings.iter().enumerate() {
        if let Some(s) = &f.shared
            && f.severity != Severity::Info
        {
            groups
                .entry((s.rule.id, s.key.clone()))
                .or_default()
                .push(i);
        }
    }
    let mut added = Vec::new();
    for members in groups.into_values() {
        let controllers: BTreeSet<&ObjectRef> =
            members.iter().map(|&i| &findings[i].object).collect();
        if controllers.len() < COMMON_CAUSE_MIN {
            continue;
        }
        let cause = cause_finding(findings, &members);
        let link = serde_json::json!({
            "fingerprint": cause.fingerprint,
            "rule": cause.rule,
            "object": cause.object,
        });
        let note = format!(
            "cause: the {} finding {} on {} ({} controllers wait on it)",
            cause.severity.as_str(),
            cause.rule,
            cause.object.display(),
            controllers.len()
        );
        for &i in &members {
            let f = &mut findings[i];
            f.evidence.push(Evidence {
                object: Some(cause.object.clone()),
                input: None,
                file: None,
                line: None,
                note: note.clone(),
            });
            let details = f.details.get_or_insert_with(|| serde_json::json!({}));
            if let Some(map) = details.as_object_mut() {
                let list = map
                    .entry("cause")
                    .or_insert_with(|| serde_json::Value::Array(Vec::new()));
                if let Some(list) = list.as_array_mut() {
                    list.push(link.clone());
                }
            }
        }
        added.push(cause);
    }
    let any = !added.is_empty();
    findings.extend(added);
    any
}

/// The cause's finding for its members (indexes into `findings`, in report order).
fn cause_finding(findings: &[Finding], members: &[usize]) -> Finding {
    let shared = findings[members[0]]
        .shared
        .clone()
        .expect("grouped by their shared cause");
    let of: Vec<&Finding> = members.iter().map(|&i| &findings[i]).collect();
    let severity = of
        .iter()
        .map(|f| f.severity)
        .min()
        .unwrap_or(Severity::Error);
    let message = format!("{}; {} wait on it", shared.what, count_by_kind(&of));
    let mut evidence = shared.evidence.clone();
    for f in of.iter().take(EVIDENCE_MEMBERS) {
        evidence.push(Evidence {
            object: Some(f.object.clone()),
            input: None,
            file: None,
            line: None,
            note: format!("waits on it: {} ({})", f.object.display(), f.rule),
        });
    }
    if of.len() > EVIDENCE_MEMBERS {
        evidence.push(Evidence {
            object: None,
            input: None,
            file: None,
            line: None,
            note: format!(
                "and {} more, listed in details.members",
                of.len() - EVIDENCE_MEMBERS
            ),
        });
    }
    let list: Vec<serde_json::Value> = of
        .iter()
        .map(|f| serde_json::json!({"fingerprint": f.fingerprint, "rule": f.rule, "object": f.object}))
        .collect();
    let mut f = Finding::new(
        shared.rule,
        severity,
        shared.object.clone(),
        &shared.key,
        message,
        evidence,
        shared.help.clone(),
        Vec::new(),
    );
    f.details = Some(serde_json::json!({"members": list}));
    f
}

/// "186 Deployments", "12 Deployments and 3 StatefulSets": the members counted by kind,
/// the most numerous kind first.
fn count_by_kind(of: &[&Finding]) -> String {
    let mut by_kind: BTreeMap<&str, BTreeSet<&ObjectRef>> = BTreeMap::new();
    for f in of {
        by_kind.entry(&f.object.kind).or_default().insert(&f.object);
    }
    let mut counted: Vec<(&str, usize)> = by_kind.iter().map(|(k, s)| (*k, s.len())).collect();
    counted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let parts: Vec<String> = counted
        .iter()
        .map(|(kind, n)| format!("{n} {}", plural(kind, *n)))
        .collect();
    match parts.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A kind's plural as the report writes it (`Deployments`, `Pods`, `DaemonSets`).
fn plural(kind: &str, n: usize) -> String {
    if n == 1 {
        kind.to_string()
    } else if kind.ends_with('s') {
        format!("{kind}es")
    } else {
        format!("{kind}s")
    }
}

/// The members a cause finding lists (`details.members`), by fingerprint: what reports
/// fold under it. Empty for any other finding.
pub fn members(f: &Finding) -> Vec<&str> {
    f.details
        .as_ref()
        .and_then(|d| d.get("members"))
        .and_then(|m| m.as_array())
        .map(|list| {
            list.iter()
                .filter_map(|m| m.get("fingerprint").and_then(|v| v.as_str()))
                .collect()
        })
        .unwrap_or_default()
}

/// A rule whose findings [`gather`] makes from other rules' findings after every rule ran:
/// it has nothing to compute from the snapshot alone (its `run`).
pub fn gathered(_: &super::Context) -> Vec<Finding> {
    Vec::new()
}

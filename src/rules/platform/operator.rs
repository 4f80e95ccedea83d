//! What the two ClusterOperator rules share: which operators count, how long a
//! condition has held and what level that earns (`oc`'s thresholds), and following the
//! condition's message to the nodes and namespaces it names.

use super::model::Platform;
use crate::kube::meta::{Condition, condition};
use crate::kube::openshift::ClusterOperator;
use crate::kube::time::format_duration;
use crate::rules::evidence;
use crate::rules::pod_findings::note;
use crate::rules::{CauseHint, Context, Evidence, Finding, RuleMeta, Severity};
use crate::snapshot::{ObjectId, Snapshot};

/// A bad condition and `oc`'s thresholds for it: below `warn` it is transient (operators
/// flip conditions briefly while they roll out), past `error` it needs an admin.
pub struct Bad {
    /// `Degraded` or `Available`.
    pub condition: &'static str,
    /// The condition status that is bad.
    pub status_bad: fn(&str) -> bool,
    /// "degraded" / "unavailable".
    pub word: &'static str,
    pub warn: i64,
    pub error: i64,
    pub help: &'static str,
}

/// Operators `oc` counts: those of the release payload. A bundle whose operators carry
/// no annotations at all (some collectors drop them) has every operator counted.
fn counted<'a>(p: &Platform<'a>) -> Vec<(ObjectId, &'a ClusterOperator)> {
    let any_annotated = p.operators.iter().any(|(_, o)| o.is_platform());
    p.operators
        .iter()
        .filter(|(_, o)| !any_annotated || o.is_platform())
        .copied()
        .collect()
}

pub fn findings(ctx: &Context, rule: &RuleMeta, bad: &Bad) -> Vec<Finding> {
    let p = ctx.model::<super::model::Update>();
    let snap = ctx.snapshot;
    let mut out = Vec::new();
    for (id, op) in counted(p) {
        let Some(c) = condition(&op.status.conditions, bad.condition) else {
            continue;
        };
        if !(bad.status_bad)(&c.status) {
            continue;
        }
        out.push(finding(snap, p, rule, bad, id, op, c));
    }
    out
}

fn finding(
    snap: &Snapshot,
    p: &Platform,
    rule: &RuleMeta,
    bad: &Bad,
    id: ObjectId,
    op: &ClusterOperator,
    c: &Condition,
) -> Finding {
    let name = op.metadata.name.as_str();
    let reason = c.reason.as_deref().unwrap_or("");
    let age = p.age(c.last_transition_time.as_deref());
    let (severity, since) = match age {
        Some(a) if a > bad.error => (Severity::Error, format!(" for {}", format_duration(a))),
        Some(a) if a > bad.warn => (Severity::Warning, format!(" for {}", format_duration(a))),
        Some(a) => (
            Severity::Info,
            format!(
                " for {} only (under the {} oc waits before calling it a problem: operators report this briefly while they roll out)",
                format_duration(a),
                format_duration(bad.warn)
            ),
        ),
        None => (
            Severity::Warning,
            " for a time the bundle cannot tell (no snapshot time or transition time)".into(),
        ),
    };
    let text = c.message.as_deref().unwrap_or("").trim();
    let mut message = format!("ClusterOperator {name} is {} ({reason}){since}", bad.word);
    if !text.is_empty() {
        message.push_str(": ");
        message.push_str(&first_line(text, 400));
    }
    let path = ["status", "conditions", &format!("type={}", bad.condition)];
    let mut ev = vec![evidence::field(snap, id, &path, condition_note(c))];
    let mut causes = Vec::new();
    follow_nodes(snap, text, &mut ev, &mut causes);
    for ns in op.namespaces() {
        causes.push(CauseHint::Namespace(ns.to_string()));
    }
    // The operator's version tells something only when it is not the release being
    // installed: the operator has not been updated yet.
    if let (Some(v), Some(target)) = (op.version("operator"), p.target)
        && v != target
    {
        ev.push(evidence::field(
            snap,
            id,
            &["status", "versions"],
            format!("operator version {v}, not yet {target}, the release being installed"),
        ));
    }
    let mut f = Finding::new(
        rule,
        severity,
        snap.object(id).reference(),
        bad.condition,
        message,
        ev,
        format!(
            "{} (`oc describe clusteroperator {name}`; its operator's pods and logs are in the namespaces it lists under relatedObjects)",
            bad.help
        ),
        Vec::new(),
    );
    f.causes = causes;
    f.details = Some(serde_json::json!({
        "condition": bad.condition,
        "reason": reason,
        "since": c.last_transition_time,
        "namespaces": op.namespaces(),
    }));
    f
}

/// Node names an operator's message gives as `node "NAME"` (the node controller's
/// "The master nodes not ready: node \"X\" not ready since …"), each checked against
/// the bundle's copy of that Node.
fn follow_nodes(snap: &Snapshot, text: &str, ev: &mut Vec<Evidence>, causes: &mut Vec<CauseHint>) {
    let mut names: Vec<&str> = text
        .split("node \"")
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(n, _)| n))
        .filter(|n| !n.is_empty())
        .collect();
    names.sort_unstable();
    names.dedup();
    for n in names {
        match snap.node_named(n) {
            None => ev.push(note(format!(
                "the message names node {n}, which is not in the bundle"
            ))),
            Some((nid, node)) => {
                let ready = condition(&node.status.conditions, "Ready");
                match ready {
                    Some(r) if r.status == "True" => ev.push(evidence::field(
                        snap,
                        nid,
                        &["status", "conditions", "type=Ready"],
                        format!(
                            "the message names node {n}, and the bundle's copy of it is Ready (since {}): it recovered, or the Node was collected later than the operator",
                            r.last_transition_time.as_deref().unwrap_or("an unknown time")
                        ),
                    )),
                    _ => {
                        causes.push(CauseHint::Object(snap.object(nid).reference()));
                        ev.push(evidence::field(
                            snap,
                            nid,
                            &["status", "conditions", "type=Ready"],
                            format!("the message names node {n}, which is not Ready in the bundle"),
                        ));
                    }
                }
            }
        }
    }
}

/// A condition as evidence quotes it: `Failing=True reason X since T: message`.
pub fn condition_note(c: &Condition) -> String {
    let text = c.message.as_deref().unwrap_or("").trim();
    format!(
        "{}={} reason {} since {}: {}",
        c.type_,
        c.status,
        c.reason.as_deref().unwrap_or(""),
        c.last_transition_time.as_deref().unwrap_or("(no time)"),
        if text.is_empty() {
            "<no message>"
        } else {
            text
        }
    )
}

/// The first line of a long message, cut at `max` characters.
pub fn first_line(text: &str, max: usize) -> String {
    let line = text.lines().next().unwrap_or("");
    if line.chars().count() <= max {
        if text.lines().nth(1).is_some() {
            return format!("{line} …");
        }
        return line.to_string();
    }
    let cut: String = line.chars().take(max).collect();
    format!("{cut}…")
}

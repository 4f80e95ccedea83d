//! `platform/update-failing`: the ClusterVersion says the update cannot proceed, or it
//! has stalled by `oc`'s estimate.

use super::model::{Assessment, Platform};
use super::operator::{condition_note, first_line};
use crate::declare_rule;
use crate::kube::meta::condition;
use crate::kube::time::format_duration;
use crate::rules::evidence;
use crate::rules::reach::Reach;
use crate::rules::{CauseHint, Context, Finding, Severity, Stage};
use crate::snapshot::Snapshot;

declare_rule! {
    /// Reports a ClusterVersion whose `Failing` condition is True or Unknown, with its reason word for word, and an update `oc` would call Stalled.
    ///
    /// `Failing=True` means the cluster-version operator cannot reach the release it
    /// wants: during an update, the update stops there (reason `ClusterOperatorsDegraded`,
    /// `ClusterOperatorDegraded`, `ClusterOperatorNotAvailable` …). The assessment is
    /// recomputed as `oc adm upgrade status` does it (operators updated, time since the
    /// last progress, the last completed update's duration): an estimate more than 10
    /// minutes overdue is `Stalled`. Warnings, as in `oc`; the operators its message
    /// names are linked in `details.cause`. A ClusterVersion with no `Failing` condition
    /// during an update is a warning too (its state is unclear).
    pub static UPDATE_FAILING = {
        id: "platform/update-failing",
        stage: Stage::Platform,
        severity: Severity::Warning,
        fallback: false,
        // Wide: see `platform_reach`.
        reach: Reach::Wide(super::platform_reach),
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let p = ctx.model::<super::model::Update>();
    let snap = ctx.snapshot;
    let Some((id, cv)) = p.cv else {
        return Vec::new();
    };
    let name = cv.metadata.name.as_str();
    let stalled = p.updating && p.assessment == Assessment::Stalled;
    let failing = condition(&cv.status.conditions, "Failing");
    let mut ev = Vec::new();
    let (cause, mut message) = match failing {
        None if p.updating => (
            "NoFailing".to_string(),
            format!(
                "ClusterVersion {name} has no Failing condition: the state of the update is unclear"
            ),
        ),
        Some(c) if c.status != "False" => {
            let reason = c.reason.as_deref().unwrap_or("");
            let verb = if c.status == "Unknown" {
                "may be"
            } else {
                "is"
            };
            let what = if p.updating {
                "failing to proceed with the update"
            } else {
                "failing to reconcile its release"
            };
            let text = c.message.as_deref().unwrap_or("").trim();
            ev.push(evidence::field(
                snap,
                id,
                &["status", "conditions", "type=Failing"],
                condition_note(c),
            ));
            let mut m = format!("ClusterVersion {name} {verb} {what} ({reason})");
            if !text.is_empty() {
                m.push_str(": ");
                m.push_str(&first_line(text, 300));
            }
            (reason.to_string(), m)
        }
        _ if stalled => (
            "Stalled".to_string(),
            format!("ClusterVersion {name} reports no failure, but the update has stalled"),
        ),
        _ => return Vec::new(),
    };
    if p.updating {
        message.push_str(&format!("; {}", progress(p)));
    }
    let mut f = Finding::new(
        &UPDATE_FAILING,
        Severity::Warning,
        snap.object(id).reference(),
        &cause,
        message,
        ev,
        "fix what the Failing message names first (the operators below link their own findings); `oc adm upgrade status --details=all` shows the same assessment on a live cluster".into(),
        Vec::new(),
    );
    f.causes = named_operators(
        snap,
        p,
        failing.and_then(|c| c.message.as_deref()).unwrap_or(""),
    );
    f.details = Some(serde_json::json!({
        "assessment": p.assessment.as_str(),
        "target": p.target,
        "operators": {"total": p.counts.total, "updated": p.counts.updated, "updating": p.counts.updating},
    }));
    vec![f]
}

/// "the update to 4.14.1 has stalled (oc's assessment): 32 of 33 operators updated,
/// machine-config updating, 1h59m since it started".
fn progress(p: &Platform) -> String {
    let target = p.target.unwrap_or("(unknown)");
    let state = match p.assessment {
        Assessment::Stalled => "has stalled",
        Assessment::ProgressingSlow => "is progressing slower than expected",
        Assessment::Progressing => "is progressing",
        Assessment::Completed => "has completed its operators",
    };
    let mut s = format!(
        "the update to {target} {state} ({} of {} operators updated",
        p.counts.updated, p.counts.total
    );
    if !p.counts.updating.is_empty() {
        s.push_str(&format!(", updating: {}", p.counts.updating.join(", ")));
    }
    let started =
        p.cv.and_then(|(_, cv)| cv.status.history.first())
            .and_then(|h| p.age(h.started_time.as_deref()));
    if let Some(a) = started {
        s.push_str(&format!(
            ", started {} before the snapshot",
            format_duration(a)
        ));
    }
    s.push(')');
    s
}

/// The operators a Failing message names ("Cluster operators etcd, kube-apiserver are
/// degraded", "Cluster operator X is not available"): their findings are the cause.
fn named_operators(snap: &Snapshot, p: &Platform, text: &str) -> Vec<CauseHint> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    p.operators
        .iter()
        .filter(|(_, op)| words.contains(&op.metadata.name.as_str()))
        .map(|(id, _)| CauseHint::Object(snap.object(*id).reference()))
        .collect()
}

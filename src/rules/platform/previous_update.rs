//! `platform/previous-update-incomplete`: an update started before the last one finished.

use super::model::Assessment;
use crate::declare_rule;
use crate::rules::evidence;
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// Reports an update that was started while the previous one was still in progress (history entry `Partial`).
    ///
    /// Until the current update completes, parts of the cluster may still run the release
    /// before the incomplete one: the last release the whole cluster reached is the last
    /// `Completed` entry of `status.history`. A warning while the control plane is still
    /// updating, as in `oc adm upgrade status`; once the update completes it no longer
    /// matters.
    pub static PREVIOUS_UPDATE = {
        id: "platform/previous-update-incomplete",
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
    let history = &cv.status.history;
    let (Some(current), Some(previous)) = (history.first(), history.get(1)) else {
        return Vec::new();
    };
    if previous.state != "Partial" || p.assessment == Assessment::Completed {
        return Vec::new();
    }
    let last_complete = history[2..]
        .iter()
        .find(|h| h.state == "Completed")
        .map(|h| h.version.as_str())
        .unwrap_or("unknown");
    let message = format!(
        "Previous update to {} never completed, last complete update was {last_complete}; the update to {} was started while it was still in progress",
        previous.version, current.version
    );
    let ev = vec![evidence::field(
        snap,
        id,
        &["status", "history"],
        format!(
            "history: {} {} (started {}), {} {} (started {}), last Completed {last_complete}",
            current.version,
            current.state,
            current.started_time.as_deref().unwrap_or("?"),
            previous.version,
            previous.state,
            previous.started_time.as_deref().unwrap_or("?"),
        ),
    )];
    vec![Finding::new(
        &PREVIOUS_UPDATE,
        Severity::Warning,
        snap.object(id).reference(),
        "PreviousPartial",
        message,
        ev,
        "let the current update complete; until then, expect nodes and operators from either earlier release".into(),
        Vec::new(),
    )]
}

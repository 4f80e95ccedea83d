//! `scheduling/awaiting-termination`: a pending pod that only terminating pods keep off a
//! node — a rollout or a preemption in progress, not a failure.

use super::fit_text::{node_room_evidence, phrase};
use super::placer::{Fits, Group, Placer};
use super::unschedulable::Said;
use super::waiting::{Wait, Waiting};
use crate::declare_rule;
use crate::kube::meta::ObjectRef;
use crate::kube::pod::Pod;
use crate::rules::node_usage::Usage;
use crate::rules::pod_findings::{self, Case};
use crate::rules::reach::Reach;
use crate::rules::{Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::BTreeMap;

declare_rule! {
    /// Names the terminating pods a pending pod waits for, when only they keep it off a node.
    ///
    /// The scheduler counts a pod being deleted on its node until the kubelet confirms it
    /// gone: its requests, host ports and required anti-affinity (topology spread skips
    /// it). A rolling update with `maxSurge: 0` and required anti-affinity, a replacement
    /// that needs the cpu of the pod it replaces, or a pod whose preemption victims are
    /// still stopping stays Pending until they leave. When the filters, recomputed without
    /// the terminating pods, let some node take the pod, and every terminating pod it waits
    /// for there is within its grace period (or less than 5 minutes past it) on a Ready
    /// node, and the Deployment is within its `progressDeadlineSeconds` (by its
    /// `Progressing` condition, else by the pod's pending time), this is `info`, naming the
    /// pods and when each grace period ends. Otherwise `scheduling/unschedulable` reports
    /// the pod, with the stuck deletion (`node/terminating`) or the deadline as the reason.
    pub static AWAITING_TERMINATION = {
        id: "scheduling/awaiting-termination",
        stage: Stage::Scheduling,
        severity: Severity::Info,
        fallback: false,
        // Wide: a node's room counts the pods of every namespace, and a blocker may be in another.
        reach: Reach::Wide(|inv| inv.grouped_cases()),
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let waiting = ctx.model::<Waiting>();
    let mut transient: Vec<(ObjectId, &Wait)> = waiting
        .iter()
        .filter(|(_, w)| w.transient())
        .map(|(id, w)| (*id, w))
        .collect();
    if transient.is_empty() {
        return Vec::new();
    }
    transient.sort_by_key(|(id, _)| *id);
    let usage = Usage::build(snap);
    let placer = Placer::new(snap, &usage);
    let mut groups: BTreeMap<ObjectRef, (Vec<Case>, Vec<Evidence>)> = BTreeMap::new();
    for (id, wait) in transient {
        let Some(pod) = snap.pod(id) else {
            continue;
        };
        let (case, extra) = case(snap, &placer, id, pod, wait);
        let entry = groups.entry(pod_findings::owner_of(snap, id)).or_default();
        if entry.0.is_empty() {
            entry.1 = extra;
        }
        entry.0.push(case);
    }
    groups
        .into_iter()
        .map(|(owner, (cases, extra))| {
            let mut f = pod_findings::pods_finding(
                snap,
                &AWAITING_TERMINATION,
                Severity::Info,
                owner,
                "terminating-pods",
                cases,
                "nothing to do while the grace periods run: the pod is scheduled once the terminating pods are gone. If they stay past their grace period, look at their node (node/terminating); if the rollout must not wait, allow a surge (maxSurge) or relax the required anti-affinity".into(),
            );
            f.evidence.extend(extra);
            f
        })
        .collect()
}

/// One pod's sentence and evidence, and the freed nodes' room (shown once per group).
fn case(
    snap: &Snapshot,
    placer: &Placer,
    id: ObjectId,
    pod: &Pod,
    wait: &Wait,
) -> (Case, Vec<Evidence>) {
    let events = snap.events_for(id);
    let said = Said::read(snap, id, pod, &events);
    let fits = placer.evaluate(id, pod);
    let excluded = excluded_words(snap, &fits);
    let nominated = pod
        .status
        .nominated_node_name
        .as_deref()
        .filter(|n| wait.freed.iter().any(|(f, _)| f == n))
        .map(|n| {
            format!(
                " The scheduler nominated {n} for it after preempting lower-priority pods there; it does not preempt again while a lower-priority victim on the nominated node is terminating."
            )
        })
        .unwrap_or_default();
    let summary = format!(
        "waits for terminating pods to leave{}: {}. Until then no node passes ({excluded}).{nominated} A rollout or preemption in progress, not a failure.{}",
        said.since,
        wait.sentence(snap),
        said.scheduler_says
    );
    let mut evidence = said.evidence;
    evidence.extend(wait.evidence(snap));
    let extra = fits
        .named(wait.freed.iter().map(|(n, _)| n.as_str()))
        .iter()
        .take(3)
        .map(|f| node_room_evidence(snap, f))
        .collect();
    (
        Case {
            id,
            summary,
            evidence,
        },
        extra,
    )
}

/// "3 of 3 nodes have a pod its required anti-affinity avoids …", one clause per first
/// exclusion, the one excluding most nodes first.
fn excluded_words(snap: &Snapshot, fits: &Fits) -> String {
    let by_cat = fits.by_category();
    let mut cats: Vec<(&&str, &Group)> = by_cat.iter().collect();
    cats.sort_by(|a, b| b.1.n.cmp(&a.1.n).then(a.0.cmp(b.0)));
    cats.iter()
        .filter_map(|(_, g)| {
            let x = g.first.verdict.exclusions.first()?;
            Some(phrase(snap, x, g, fits.len()))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

//! `runtime/job-failed`: Jobs that gave up (backoff limit, deadline, failure policy).

use super::facts::{self, log_evidence, termination_sentence};
use crate::declare_rule;
use crate::kube::meta::{ObjectRef, condition};
use crate::kube::pod::Pod;
use crate::rules::disruption;
use crate::rules::evidence;
use crate::rules::pod_findings::{self, note};
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::BTreeMap;

declare_rule! {
    /// Explains Jobs that failed for good: backoff limit reached, deadline exceeded, or a pod failure policy.
    ///
    /// Reads the Job's `Failed` condition, counts its failed pods against `backoffLimit`
    /// (or `activeDeadlineSeconds`), and describes how the last failed pod ended (exit
    /// code, OOM kill, the last error lines of its log when the bundle has them). The
    /// Job's failed pods are explained by this finding. A Job of a CronJob whose newer
    /// run succeeded is `info`. The Job controller will not retry: fix the cause and
    /// re-run the Job.
    pub static JOB_FAILED = {
        id: "runtime/job-failed",
        stage: Stage::Runtime,
        severity: Severity::Error,
        fallback: false,
        // Local: each Job with its pods and Events (owners share the namespace).
        reach: Reach::Local,
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let mut groups: BTreeMap<(ObjectRef, String), Vec<Failed>> = BTreeMap::new();
    for (jid, job) in snap.jobs() {
        if !job.is_failed() {
            continue;
        }
        let cond = condition(&job.status.conditions, "Failed");
        let reason = cond.and_then(|c| c.reason.clone()).unwrap_or_default();
        let cmsg = cond.and_then(|c| c.message.clone()).unwrap_or_default();
        let o = snap.object(*jid);
        let uid = o.uid.as_deref().unwrap_or("");
        let mut pods: Vec<(ObjectId, &Pod)> = snap
            .children_of(uid)
            .iter()
            .filter_map(|&c| snap.pod(c).map(|p| (c, p)))
            .collect();
        pods.sort_by_key(|(_, p)| {
            p.status
                .container_statuses
                .iter()
                .filter_map(|c| {
                    c.state
                        .terminated
                        .as_ref()
                        .and_then(|t| t.finished_at.clone())
                })
                .max()
        });
        let failed: Vec<&(ObjectId, &Pod)> =
            pods.iter().filter(|(_, p)| p.phase() == "Failed").collect();
        let mut ev = vec![evidence::field(
            snap,
            *jid,
            &["status", "conditions", "type=Failed"],
            format!(
                "Failed=True, reason {}{}; status.failed {}, succeeded {}",
                if reason.is_empty() { "(none)" } else { &reason },
                if cmsg.is_empty() {
                    String::new()
                } else {
                    format!(": {cmsg}")
                },
                job.status.failed,
                job.status.succeeded
            ),
        )];
        let limit = match reason.as_str() {
            "DeadlineExceeded" => job
                .spec
                .active_deadline_seconds
                .map(|s| format!("activeDeadlineSeconds {s} passed"))
                .unwrap_or_else(|| "its deadline passed".into()),
            "PodFailurePolicy" => "a pod failure policy rule failed it".into(),
            _ => {
                let limit = job.spec.backoff_limit.unwrap_or(6);
                if job.status.failed > limit {
                    format!(
                        "{} failed pods exceed backoffLimit {limit}",
                        job.status.failed
                    )
                } else {
                    format!(
                        "status.failed is {}, within backoffLimit {limit}, so the bundle's counts do not show the limit being reached (pods deleted, a failure policy, or a stale status)",
                        job.status.failed
                    )
                }
            }
        };
        let mut message = format!(
            "failed and will not retry ({}{}): {limit}",
            if reason.is_empty() { "Failed" } else { &reason },
            if cmsg.is_empty() {
                String::new()
            } else {
                format!(": {cmsg}")
            }
        );
        let mut cause_detail = String::new();
        if let Some((pid, pod)) = failed.last() {
            let name = &snap.object(*pid).name;
            let cs = pod.all_statuses().find(|(c, _)| {
                c.state
                    .terminated
                    .as_ref()
                    .is_some_and(|t| t.exit_code.unwrap_or(0) != 0)
            });
            match cs {
                Some((cs, init)) => {
                    if let Some((t, oom)) = termination_sentence(pod, cs) {
                        message.push_str(&format!(
                            "; the last failed pod {name} ended in {} {}: {t}",
                            if init { "init container" } else { "container" },
                            cs.name
                        ));
                        cause_detail = if oom { "oom".into() } else { String::new() };
                    }
                    ev.push(facts::status_evidence(
                        snap,
                        *pid,
                        cs,
                        init,
                        format!("pod {name}, container {}: terminated", cs.name),
                    ));
                    let logs = log_evidence(snap, *pid, &cs.name, 3);
                    if let Some(l) = facts::last_log_line(&logs) {
                        message.push_str(&format!("; its log ends with: {l}"));
                    }
                    ev.extend(logs);
                }
                None => {
                    let r = pod.status.reason.clone().unwrap_or_default();
                    message.push_str(&format!(
                        "; the last failed pod {name} failed{}",
                        if r.is_empty() {
                            String::new()
                        } else {
                            format!(" ({r}: {})", pod.status.message.clone().unwrap_or_default())
                        }
                    ));
                    ev.push(evidence::field(
                        snap,
                        *pid,
                        &["status", "phase"],
                        format!("pod {name}: phase Failed"),
                    ));
                }
            }
            disruption_note(snap, *pid, pod, &mut message, &mut ev);
        } else if job.status.failed > 0 {
            message.push_str(
                "; the bundle holds none of its failed pods (they may have been deleted)",
            );
            ev.push(note("no failed pod of this Job in the bundle"));
        }
        let events = snap.events_for(*jid);
        let warn: Vec<_> = events.iter().filter(|(_, e)| e.is_warning()).collect();
        ev.extend(pod_findings::last_events(snap, &warn, 1));
        let owner = pod_findings::owner_of(snap, *jid);
        let severity = if owner.kind == "CronJob" && newer_sibling_succeeded(snap, *jid) {
            message.push_str(" — a newer run of the CronJob succeeded since");
            Severity::Info
        } else {
            Severity::Error
        };
        message = if owner.kind == "Job" {
            format!("Job {message}")
        } else {
            format!("Job {} {message}", o.name)
        };
        let cause = format!(
            "failed:{}{}",
            if reason.is_empty() { "Failed" } else { &reason },
            if cause_detail.is_empty() {
                String::new()
            } else {
                format!(":{cause_detail}")
            }
        );
        let created = job
            .metadata
            .creation_timestamp
            .as_deref()
            .unwrap_or_default()
            .to_string();
        groups.entry((owner, cause)).or_default().push(Failed {
            created,
            job: o.name.clone(),
            severity,
            message,
            evidence: ev,
            pods: failed.iter().map(|(id, _)| *id).collect(),
        });
    }
    groups
        .into_iter()
        .map(|((owner, cause), jobs)| finding(snap, owner, &cause, jobs))
        .collect()
}

/// One finding for the failed Jobs of one owner that failed for one cause: the latest
/// speaks for them all.
fn finding(snap: &Snapshot, owner: ObjectRef, cause: &str, mut jobs: Vec<Failed>) -> Finding {
    // Newest Job last; several failed runs of one CronJob are one finding.
    jobs.sort_by(|a, b| a.created.cmp(&b.created).then(a.job.cmp(&b.job)));
    let n = jobs.len();
    let severity = jobs.last().map(|j| j.severity).unwrap_or(Severity::Error);
    let names: Vec<String> = jobs.iter().map(|j| j.job.clone()).collect();
    let explains: Vec<ObjectId> = jobs.iter().flat_map(|j| j.pods.iter().copied()).collect();
    let pods: Vec<String> = explains
        .iter()
        .map(|id| snap.object(*id).name.clone())
        .collect();
    let latest = jobs.pop().expect("groups are never empty");
    let message = if n > 1 {
        format!(
            "{n} Jobs of this {} failed the same way; the latest, {}",
            owner.kind, latest.message
        )
    } else {
        latest.message
    };
    let mut f = Finding::new(
        &JOB_FAILED,
        severity,
        owner,
        cause,
        message,
        latest.evidence,
        "fix what made the pods fail (the exit code and log above), then re-run the Job: a failed Job does not retry; raise backoffLimit only for flaky, retryable work".into(),
        explains,
    );
    f.details = Some(serde_json::json!({ "jobs": names, "pods": pods }));
    f
}

/// Stopped on purpose: who stopped the pod (its `DisruptionTarget` condition) is part of
/// how it ended, said once.
fn disruption_note(
    snap: &Snapshot,
    pid: ObjectId,
    pod: &Pod,
    message: &mut String,
    ev: &mut Vec<crate::rules::Evidence>,
) {
    let Some(d) = disruption::of(pod) else {
        return;
    };
    let why = format!(
        "{}{}",
        d.reason(),
        if d.message().is_empty() {
            String::new()
        } else {
            format!(": {}", d.message())
        }
    );
    if message.contains(d.verb()) {
        message.push_str(&format!(" ({} {why})", d.type_()));
    } else {
        message.push_str(&format!("; it was {} ({why})", d.verb()));
    }
    ev.push(d.evidence(snap, pid));
}

/// One failed Job before grouping by owner and cause.
struct Failed {
    created: String,
    job: String,
    severity: Severity,
    message: String,
    evidence: Vec<crate::rules::Evidence>,
    pods: Vec<ObjectId>,
}

/// A later Job of the same CronJob completed.
fn newer_sibling_succeeded(snap: &Snapshot, jid: ObjectId) -> bool {
    let Some(job) = Snapshot::view_of(snap.jobs(), jid) else {
        return false;
    };
    let Some(owner) = job
        .metadata
        .owner_references
        .iter()
        .find(|o| o.kind == "CronJob")
    else {
        return false;
    };
    let created = job.metadata.creation_timestamp.clone().unwrap_or_default();
    snap.children_of(&owner.uid).iter().any(|&c| {
        c != jid
            && Snapshot::view_of(snap.jobs(), c).is_some_and(|j| {
                j.is_complete()
                    && j.metadata.creation_timestamp.clone().unwrap_or_default() > created
            })
    })
}

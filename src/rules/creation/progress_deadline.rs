//! `creation/progress-deadline`: a Deployment rollout that stopped progressing with no
//! stuck pod to explain it.

use super::failed_create::{deployment_replica_failure, has_failed_create};
use crate::declare_rule;
use crate::kube::meta::condition;
use crate::rules::evidence;
use crate::rules::pod_findings::{self, note};
use crate::rules::reach::Reach;
use crate::rules::{Context, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;

declare_rule! {
    /// Reports Deployments with `ProgressDeadlineExceeded` that no stuck pod and no FailedCreate explains.
    ///
    /// A Deployment whose pods exist and are stuck is explained by those pods (their
    /// scheduling, node or runtime findings), and one whose ReplicaSet cannot create pods
    /// by `creation/failed-create`; this rule covers what is left: the rollout stopped,
    /// the new ReplicaSet has fewer pods than wanted and the bundle says nothing about
    /// why (events expire after about an hour), or the condition is stale while every
    /// pod is Ready.
    pub static PROGRESS_DEADLINE = {
        id: "creation/progress-deadline",
        stage: Stage::Creation,
        severity: Severity::Error,
        fallback: false,
        // Local: each Deployment with its ReplicaSets, pods and Events.
        reach: Reach::Local,
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let mut out = Vec::new();
    for (id, d) in snap.deployments() {
        let Some(c) = condition(&d.status.conditions, "Progressing").filter(|c| {
            c.status == "False" && c.reason.as_deref() == Some("ProgressDeadlineExceeded")
        }) else {
            continue;
        };
        if d.spec.paused || deployment_replica_failure(snap, *id).is_some() {
            continue;
        }
        let o = snap.object(*id);
        let uid = o.uid.clone().unwrap_or_default();
        let rss: Vec<ObjectId> = snap
            .children_of(&uid)
            .iter()
            .copied()
            .filter(|&c| snap.object(c).kind == "ReplicaSet")
            .collect();
        if rss.iter().any(|&rs| has_failed_create(snap, rs)) {
            continue;
        }
        let pods: Vec<ObjectId> = rss
            .iter()
            .flat_map(|rs| {
                snap.children_of(snap.object(*rs).uid.as_deref().unwrap_or(""))
                    .iter()
                    .copied()
            })
            .filter(|&p| snap.object(p).kind == "Pod")
            .collect();
        let stuck = pods.iter().any(|&p| {
            snap.pod(p).is_some_and(|p| {
                p.phase() != "Succeeded" && !(p.phase() == "Running" && p.is_ready())
            })
        });
        if stuck {
            continue; // the stuck pods' own findings explain the rollout
        }
        // Pods of this namespace are in the bundle at all? Otherwise nothing can be said.
        let ns = o.namespace.as_deref();
        let pods_collected = snap
            .ids_of("Pod")
            .iter()
            .any(|&p| snap.object(p).namespace.as_deref() == ns);
        let newest = rss.iter().max_by_key(|&&rs| {
            snap.object(rs)
                .value()
                .pointer("/metadata/annotations/deployment.kubernetes.io~1revision")
                .and_then(Value::as_str)
                .and_then(|r| r.parse::<i64>().ok())
                .unwrap_or(0)
        });
        let desired = d.spec.desired();
        let mut ev = vec![evidence::progress_deadline(snap, *id, c)];
        ev.push(evidence::field(
            snap,
            *id,
            &["status"],
            format!(
                "replicas {desired} wanted; status: {} total, {} updated, {} ready, {} available",
                d.status.replicas,
                d.status.updated_replicas,
                d.status.ready_replicas,
                d.status.available_replicas
            ),
        ));
        let all_ready =
            d.status.updated_replicas >= desired && d.status.available_replicas >= desired;
        let (severity, cause, what) = if all_ready {
            (
                Severity::Warning,
                "stale-condition",
                "its status shows every replica updated and available, so the condition is stale or the rollout finished just before the snapshot".to_string(),
            )
        } else if !pods_collected {
            ev.push(note(format!(
                "the bundle holds no pods of namespace {}",
                ns.unwrap_or("")
            )));
            (
                Severity::Error,
                "no-progress",
                "the bundle holds no pods of its namespace, so it cannot show which pods are missing or stuck".to_string(),
            )
        } else {
            let new_rs = newest.map(|rs| {
                let name = snap.object(*rs).name.clone();
                let have = snap
                    .children_of(snap.object(*rs).uid.as_deref().unwrap_or(""))
                    .iter()
                    .filter(|&&p| snap.object(p).kind == "Pod")
                    .count();
                let want = Snapshot::view_of(snap.replica_sets(), *rs)
                    .map(|r| r.spec.desired())
                    .unwrap_or(0);
                ev.push(evidence::object(
                    snap,
                    *rs,
                    format!("newest ReplicaSet {name}: {have} pod(s) of {want} in the bundle"),
                ));
                format!("its newest ReplicaSet {name} has {have} of {want} pods")
            });
            let warnings: Vec<_> = rss
                .iter()
                .flat_map(|rs| snap.events_for(*rs))
                .filter(|(_, e)| e.is_warning())
                .collect();
            let refs: Vec<_> = warnings.iter().collect();
            ev.extend(pod_findings::last_events(snap, &refs, 1));
            (
                Severity::Error,
                "no-progress",
                format!(
                    "{}, no pod of it is stuck, and the bundle holds no FailedCreate event saying why (events expire after about an hour)",
                    new_rs.unwrap_or_else(|| "the bundle holds none of its ReplicaSets".into())
                ),
            )
        };
        let deadline = d.spec.progress_deadline_seconds.unwrap_or(600);
        out.push(Finding::new(
            &PROGRESS_DEADLINE,
            severity,
            o.reference(),
            cause,
            format!("rollout exceeded its progress deadline ({deadline}s): {what}"),
            ev,
            "look at the Deployment's and its newest ReplicaSet's recent events (kubectl describe) and at the controller manager; then at the new pods' own state".into(),
            Vec::new(),
        ));
    }
    out
}

//! A Service whose selector matches no pod.

use super::model::{self, Cause, Model};
use super::near_miss;
use super::users;
use crate::declare_rule;
use crate::kube::pod::PodTemplate;
use crate::rules::evidence;
use crate::rules::reach::Reach;
use crate::rules::{Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::BTreeMap;

declare_rule! {
    /// A Service's selector matches no live pod in its namespace, so it has no endpoint.
    ///
    /// Recomputed: the selector against the labels of every pod of the namespace. The
    /// usual cause is a typo or a stale label, so the finding lists the near misses: pods
    /// that differ by one label (a similar value or key, or one missing label they otherwise
    /// match). It also says when pods in another namespace match (a Service selects only its
    /// own namespace) and when a controller whose template matches is scaled to zero (then
    /// the Service is idle on purpose: `info`). An Ingress that routes to the Service reports
    /// this in its own chain finding instead.
    ///
    /// An empty Service is an outage only when something depends on it: it is a `warning`
    /// when a Route, an admission webhook configuration (`clientConfig.service`), an
    /// APIService or a CRD conversion webhook names it, or when a workload is meant to back
    /// it (a controller whose template matches, pods that nearly match or match in another
    /// namespace). A Service with no pods, no workload meant to back it and no user is
    /// `info` "unused" (OpenShift's machine-api operator in NoOp mode on platform `None`
    /// leaves such Services behind); the Infrastructure's platform and the ClusterOperator
    /// that owns the namespace are quoted as corroboration, never as the decision.
    pub static SELECTOR_NO_MATCH = {
        id: "traffic/selector-no-match",
        stage: Stage::Traffic,
        severity: Severity::Warning,
        fallback: false,
        // Wide: its message counts matching pods of other namespaces; which Services it reports, and what it cites, is told by the Service's namespace and the cluster scope.
        reach: Reach::Wide(|inv| inv.own().any(|f| inv.touches_target(f))),
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let model = ctx.model::<super::model::Traffic>();
    let mut out = Vec::new();
    for (id, svc) in model.live_services() {
        let Some(sel) = svc.spec.selector() else {
            continue;
        };
        let port = svc.spec.ports.first();
        if model.port_health(svc, port).cause != Some(Cause::SelectorNoMatch)
            || model.routed_by_ingress(svc, None)
        {
            continue;
        }
        let ns = svc.metadata.namespace.as_deref().unwrap_or("");
        let Explained {
            evidence: mut ev,
            tail: mut summary,
            idle,
            backed,
        } = explain(model, id, ns, sel);
        let users = users::users(snap, ns, &svc.metadata.name);
        for u in &users {
            ev.push(evidence::object(
                snap,
                u.id,
                format!("{} sends requests to this Service", u.what),
            ));
        }
        // Without any controller in the bundle, whether a workload is meant to back the
        // Service is unknown: no "unused" verdict then.
        let controllers = ["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"]
            .iter()
            .any(|k| snap.has_kind(k));
        let unused = !idle && !backed && users.is_empty() && controllers;
        if !users.is_empty() {
            summary.push_str(&format!(
                "; used by {}",
                users
                    .iter()
                    .map(|u| u.what.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        } else if !controllers && !idle && !backed {
            summary.push_str(
                "; the bundle holds no Deployments, StatefulSets, DaemonSets or ReplicaSets, so whether a workload is meant to back it is unknown",
            );
        } else if unused {
            let (said, platform_ev) = users::platform_context(snap, ns);
            summary.push_str(
                "; unused: no workload is meant to back it and nothing in the bundle sends it requests (no Ingress, Route, webhook configuration or APIService names it)",
            );
            if !said.is_empty() {
                summary.push_str(&format!(" ({})", said.join("; ")));
            }
            ev.extend(platform_ev);
        }
        let severity = if idle || unused {
            Severity::Info
        } else {
            Severity::Warning
        };
        let message = format!(
            "no endpoint: selector {} matches no pod in namespace {ns}{summary}",
            model::selector_text(sel)
        );
        out.push(Finding::new(
            &SELECTOR_NO_MATCH,
            severity,
            snap.object(id).reference(),
            "selector-no-match",
            message,
            ev,
            if idle {
                "nothing to fix if the workload is meant to be scaled to zero; scale it up to serve"
                    .into()
            } else if unused {
                "nothing to fix while nothing uses it; delete the Service if it is left over, or deploy the workload it was made for".into()
            } else {
                "compare the Service's selector with the pods' labels (a near miss is usually the typo), and fix whichever is wrong".into()
            },
            Vec::new(),
        ));
    }
    out
}

/// Why a selector matches no pod: evidence, a message tail, whether a scaled-to-zero
/// controller explains it, and whether a workload is meant to back the Service.
pub struct Explained {
    pub evidence: Vec<Evidence>,
    pub tail: String,
    /// A controller whose template matches is scaled to zero.
    pub idle: bool,
    /// A controller whose template matches wants replicas, or pods nearly match (a typo),
    /// or match in another namespace.
    pub backed: bool,
}

/// Explains a selector that matches no pod. Also used by the Ingress chain finding.
pub fn explain(
    model: &Model,
    svc_id: ObjectId,
    ns: &str,
    sel: &BTreeMap<String, String>,
) -> Explained {
    let snap = model.snap;
    let mut ev = vec![evidence::field(
        snap,
        svc_id,
        &["spec", "selector"],
        format!(
            "selector {} matches none of the {} live pod(s) of namespace {ns}",
            model::selector_text(sel),
            model.pods_in(ns).len()
        ),
    )];
    let mut tail = String::new();
    // Near misses, grouped by controller.
    let near = near_miss::near_misses(model, ns, sel);
    let mut by_owner: BTreeMap<(String, String), Vec<(ObjectId, String)>> = BTreeMap::new();
    for m in &near {
        let owner = snap
            .top_controller(m.pod)
            .map(|(r, _)| format!("{} {}", r.kind, r.name))
            .unwrap_or_else(|| format!("pod {}", snap.object(m.pod).name));
        by_owner
            .entry((owner, m.diff.clone()))
            .or_default()
            .push((m.pod, snap.object(m.pod).name.clone()));
    }
    let mut near_text = Vec::new();
    for ((owner, diff), pods) in &by_owner {
        let (first, _) = &pods[0];
        ev.push(evidence::field(
            snap,
            *first,
            &["metadata", "labels"],
            format!(
                "near miss: {owner} ({} pod(s): {}) {diff}",
                pods.len(),
                pods.iter()
                    .map(|(_, n)| n.as_str())
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
        near_text.push(format!("{owner} {diff}"));
    }
    if !near_text.is_empty() {
        tail.push_str(&format!(
            "; near miss{}: {}",
            if near_text.len() > 1 { "es" } else { "" },
            near_text.join("; ")
        ));
    }
    // Pods in other namespaces.
    let others = model.other_namespaces(ns, sel);
    if !others.is_empty() {
        let text = others
            .iter()
            .map(|(n, c)| format!("{c} in {n}"))
            .collect::<Vec<_>>()
            .join(", ");
        ev.push(Evidence {
            object: None,
            input: None,
            file: None,
            line: None,
            note: format!(
                "pods matching the selector exist in other namespaces ({text}); a Service selects only pods of its own namespace"
            ),
        });
        tail.push_str(&format!(
            "; matching pods exist only in other namespaces ({text})"
        ));
    }
    // Controllers whose template would match.
    let mut idle = false;
    let mut backed = !near.is_empty() || !others.is_empty();
    for (cid, kind, name, desired) in template_matches(snap, ns, sel) {
        let note = if desired == 0 {
            idle = true;
            format!(
                "{kind} {name}'s pod template matches this selector, but it is scaled to 0 replicas"
            )
        } else {
            backed = true;
            format!(
                "{kind} {name} would create matching pods ({desired} desired) but none exists: see its creation finding"
            )
        };
        tail.push_str(&format!("; {note}"));
        ev.push(evidence::field(snap, cid, &["spec", "replicas"], note));
    }
    if !backed && !idle {
        tail.push_str("; no pod of the namespace comes close (no near miss)");
    }
    // The recorded endpoints disagree when they still list addresses.
    let view = model.endpoints_of(ns, &snap.object(svc_id).name);
    if !view.entries.is_empty() {
        ev.push(evidence::object(
            snap,
            view.objects[0],
            format!(
                "the bundle's endpoints still list {} address(es) for this Service: they disagree with the pods (taken at another moment, or pods outside the bundle)",
                view.entries.len()
            ),
        ));
    }
    Explained {
        evidence: ev,
        tail,
        idle,
        backed,
    }
}

/// Deployments, StatefulSets, DaemonSets and bare ReplicaSets of the namespace whose pod
/// template labels the selector matches, with their desired replicas.
fn template_matches(
    snap: &Snapshot,
    ns: &str,
    sel: &BTreeMap<String, String>,
) -> Vec<(ObjectId, &'static str, String, i64)> {
    let hits = |t: &PodTemplate| {
        sel.iter()
            .all(|(k, v)| t.metadata.labels.get(k).map(|s| s.as_str()) == Some(v.as_str()))
    };
    let in_ns = |m: &crate::kube::meta::ObjectMeta| m.namespace.as_deref() == Some(ns);
    let mut out = Vec::new();
    for (id, d) in snap.deployments() {
        if in_ns(&d.metadata) && hits(&d.spec.template) {
            out.push((
                *id,
                "Deployment",
                d.metadata.name.to_string(),
                d.spec.desired(),
            ));
        }
    }
    for (id, d) in snap.stateful_sets() {
        if in_ns(&d.metadata) && hits(&d.spec.template) {
            out.push((
                *id,
                "StatefulSet",
                d.metadata.name.to_string(),
                d.spec.desired(),
            ));
        }
    }
    for (id, d) in snap.replica_sets() {
        if in_ns(&d.metadata) && d.metadata.owner_references.is_empty() && hits(&d.spec.template) {
            out.push((
                *id,
                "ReplicaSet",
                d.metadata.name.to_string(),
                d.spec.desired(),
            ));
        }
    }
    for (id, d) in snap.daemon_sets() {
        if in_ns(&d.metadata) && hits(&d.spec.template) {
            out.push((
                *id,
                "DaemonSet",
                d.metadata.name.to_string(),
                d.status.desired_number_scheduled,
            ));
        }
    }
    out
}

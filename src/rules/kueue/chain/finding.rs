//! A chain as a rule's Finding: the message and evidence with the structured `details`
//! (the chain's hops, podsets, flavors tried, quota table and holders) that `kdiag why`
//! and the reports read.

use super::quota::quota_table;
use super::words::describe_selector;
use super::{Chain, Ctx, Try, resource_flavor, verdict_word};
use crate::kube::requests::display_units;
use crate::rules::{Finding, RuleMeta, Severity};
use serde_json::{Value, json};

impl Chain<'_> {
    /// The structured chain and quota table for `details` and `kdiag why`.
    pub fn details(&self, ctx: &Ctx) -> Value {
        let snap = self.snap;
        let mut chain = Vec::new();
        if let Some((kind, name, oid)) = &self.owner {
            chain.push(json!({
                "kind": kind, "namespace": self.namespace, "name": name,
                "in_bundle": oid.is_some(),
                "suspend": oid.and_then(|o| snap.object(o).value().pointer("/spec/suspend").and_then(Value::as_bool)),
            }));
        }
        chain.push(json!({
            "kind": "Workload", "namespace": self.namespace, "name": self.wl.metadata.name,
            "queueName": self.wl.queue_name(), "priority": self.wl.priority(), "active": self.wl.is_active(),
            "quotaReserved": self.wl.has_quota_reserved(), "admitted": self.wl.is_admitted(),
            "kueue": self.kueue.as_ref().map(|k| json!({"condition": k.condition, "reason": k.reason, "message": k.message})),
        }));
        if let Some(q) = self.wl.queue_name() {
            chain.push(match self.lq {
                Some((_, lq)) => json!({
                    "kind": "LocalQueue", "namespace": self.namespace, "name": q, "in_bundle": true,
                    "clusterQueue": lq.spec.cluster_queue, "stopPolicy": lq.spec.stop_policy,
                    "active": lq.active().map(|c| c.status.clone()),
                }),
                None => json!({"kind": "LocalQueue", "namespace": self.namespace, "name": q, "in_bundle": false}),
            });
        }
        if let Some((_, cq)) = self.cq {
            chain.push(json!({
                "kind": "ClusterQueue", "name": cq.metadata.name, "in_bundle": true,
                "cohort": cq.cohort(), "queueingStrategy": cq.spec.queueing_strategy.as_deref().unwrap_or("BestEffortFIFO"),
                "stopPolicy": cq.spec.stop_policy,
                "namespaceSelector": cq.spec.namespace_selector.as_ref().map(describe_selector),
                "active": cq.active().map(|c| c.status.clone()),
            }));
            for f in cq.flavor_names() {
                chain.push(match resource_flavor(snap, f) {
                    Some((_, rf)) => json!({
                        "kind": "ResourceFlavor", "name": f, "in_bundle": true,
                        "nodeLabels": rf.spec.node_labels,
                        "nodeTaints": rf.spec.node_taints.iter().map(|t| format!("{}{}:{}", t.key, t.value.as_deref().map(|v| format!("={v}")).unwrap_or_default(), t.effect)).collect::<Vec<_>>(),
                    }),
                    None => json!({"kind": "ResourceFlavor", "name": f, "in_bundle": false}),
                });
            }
            for c in ctx.tree.ancestors(&cq.metadata.name) {
                chain.push(json!({"kind": "Cohort", "name": c, "in_bundle": snap.find("Cohort", None, &c).is_some()}));
            }
        }
        let podsets: Vec<Value> = self
            .needs
            .iter()
            .map(|n| {
                json!({
                    "name": n.name, "count": n.count,
                    "per_pod": n.per_pod.iter().map(|(r, u)| (r.clone(), Value::from(display_units(r, *u)))).collect::<serde_json::Map<_, _>>(),
                    "total": n.total.iter().map(|(r, u)| (r.clone(), Value::from(display_units(r, *u)))).collect::<serde_json::Map<_, _>>(),
                })
            })
            .collect();
        let flavors: Vec<Value> = self
            .tries
            .iter()
            .flat_map(|t| {
                t.groups.iter().flat_map(move |g| {
                    g.tries.iter().map(move |ft| {
                        let (outcome, detail) = match &ft.outcome {
                            Try::Missing => ("missing", Value::Null),
                            Try::Mismatch(w) => ("mismatch", Value::from(w.clone())),
                            Try::Exceeds { resource, need, max } => ("exceeds-capacity", json!({"resource": resource, "need": display_units(resource, *need), "max_capacity": display_units(resource, *max)})),
                            Try::Short { resource, need, free } => ("insufficient-unused", json!({"resource": resource, "need": display_units(resource, *need), "free": display_units(resource, (*free).max(0))})),
                            Try::Fits => ("fits", Value::Null),
                        };
                        json!({"podset": t.podset, "flavor": ft.flavor, "resources": g.resources, "outcome": outcome, "detail": detail})
                    })
                })
            })
            .collect();
        let quota = self
            .cq
            .map(|(_, cq)| quota_table(ctx, cq, Some(self)))
            .unwrap_or_default();
        let holders: Vec<Value> = self
            .holders
            .iter()
            .map(|(id, f, r, a)| {
                let o = snap.object(*id);
                json!({"workload": format!("{}/{}", o.namespace.as_deref().unwrap_or(""), o.name), "flavor": f, "resource": r, "amount": display_units(r, *a)})
            })
            .collect();
        json!({
            "verdict": verdict_word(&self.verdict),
            "chain": chain,
            "podsets": podsets,
            "flavors": flavors,
            "quota": quota,
            "holders": holders,
            "holders_total": self.holders_total,
            "notes": self.notes,
        })
    }

    /// A finding for a queue-stage rule from this chain.
    pub fn finding(&self, ctx: &Ctx, rule: &RuleMeta, severity: Severity) -> Finding {
        let (message, help, cause) = self.explain(ctx);
        let mut explains = self.pods.clone();
        if let Some((_, _, Some(oid))) = &self.owner {
            explains.push(*oid);
        }
        explains.push(self.id);
        let mut f = Finding::new(
            rule,
            severity,
            self.snap.object(self.id).reference(),
            &cause,
            message,
            self.evidence(ctx),
            help,
            explains,
        );
        f.details = Some(self.details(ctx));
        f.shared =
            crate::rules::kueue::quota_backlog::shared_quota(self, ctx).map(std::sync::Arc::new);
        f
    }
}

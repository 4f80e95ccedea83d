//! The evidence of a chain: every hop's object and line, Kueue's own words, the quota
//! lines and flavors that decide, and what the bundle lacks. Apart from the walk: it
//! only cites what the walk found.

use super::words::{describe_selector, flavor_words, join_and};
use super::{Chain, Ctx, Try, Verdict, resource_flavor};
use crate::kube::kueue::ClusterQueue;
use crate::kube::meta::ObjectRef;
use crate::kube::requests::display_units;
use crate::rules::kueue::model::{FlavorResource, Node, show_with};
use crate::rules::{Evidence, evidence};
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;

impl Chain<'_> {
    /// Evidence for every hop, Kueue's own words, and what the recomputation rests on.
    pub fn evidence(&self, ctx: &Ctx) -> Vec<Evidence> {
        let snap = self.snap;
        let mut ev = Vec::new();
        self.workload_evidence(ctx, &mut ev);
        self.queue_evidence(ctx, &mut ev);
        self.holder_evidence(ctx, &mut ev);
        self.admission_check_evidence(ctx, &mut ev);
        if let Verdict::StrictFifo { head } = self.verdict {
            let o = snap.object(head);
            ev.push(ctx.field(
                head,
                &["metadata", "creationTimestamp"],
                format!(
                    "head of the StrictFIFO queue: Workload {}/{}",
                    o.namespace.as_deref().unwrap_or(""),
                    o.name
                ),
            ));
        }
        for n in &self.notes {
            ev.push(Evidence {
                object: None,
                input: None,
                file: None,
                line: None,
                note: n.clone(),
            });
        }
        ev
    }

    /// The Workload's pod sets (or its queue name), Kueue's condition, its last warning
    /// event and its owner.
    fn workload_evidence(&self, ctx: &Ctx, ev: &mut Vec<Evidence>) {
        let snap = self.snap;
        for n in &self.needs {
            let totals: Vec<String> = n.total.iter().map(|(r, u)| show_with(r, *u)).collect();
            ev.push(ctx.field(
                self.id,
                &["spec", "podSets", &format!("name={}", n.name)],
                format!("{}; total {}", self.podset_words(n), join_and(&totals)),
            ));
        }
        if self.needs.is_empty() {
            ev.push(ctx.field(
                self.id,
                &["spec", "queueName"],
                format!(
                    "Workload {}/{}: queueName {}",
                    self.namespace,
                    self.wl.metadata.name,
                    self.wl.queue_name().unwrap_or("(none)")
                ),
            ));
        }
        if let Some(k) = &self.kueue {
            ev.push(ctx.field(
                self.id,
                &["status", "conditions", &format!("type={}", k.condition)],
                format!(
                    "Kueue says {}=False, reason {}: {}",
                    k.condition, k.reason, k.message
                ),
            ));
        }
        let warnings: Vec<_> = snap
            .events_for(self.id)
            .into_iter()
            .filter(|(_, e)| e.is_warning())
            .collect();
        if let Some((eid, e)) = warnings.last() {
            ev.push(evidence::event(snap, *eid, e));
        }
        if let Some((kind, name, oid)) = &self.owner {
            match oid {
                Some(oid) => {
                    let suspended = snap
                        .object(*oid)
                        .value()
                        .pointer("/spec/suspend")
                        .and_then(Value::as_bool);
                    ev.push(ctx.field(
                        *oid,
                        if suspended.is_some() {
                            &["spec", "suspend"]
                        } else {
                            &[]
                        },
                        format!(
                            "{kind} {}/{name}{}",
                            self.namespace,
                            match suspended {
                                Some(true) =>
                                    ": suspend: true (Kueue keeps it suspended until admission)",
                                Some(false) => ": suspend: false",
                                None => "",
                            }
                        ),
                    ));
                }
                None => ev.push(missing(
                    kind,
                    Some(&self.namespace),
                    name,
                    "owner of the Workload, not in the bundle",
                )),
            }
        }
    }

    /// The LocalQueue and the ClusterQueue, or what the bundle lacks of them, and the
    /// Namespace when its labels decide.
    fn queue_evidence(&self, ctx: &Ctx, ev: &mut Vec<Evidence>) {
        let snap = self.snap;
        // LocalQueue.
        let qname = self.wl.queue_name().unwrap_or("");
        match self.lq {
            Some((lid, lq)) => {
                let active = lq.active().map(active_text).unwrap_or_default();
                let stop = lq
                    .spec
                    .stop_policy
                    .as_deref()
                    .filter(|p| *p != "None")
                    .map(|p| format!(", stopPolicy {p}"))
                    .unwrap_or_default();
                ev.push(ctx.field(
                    lid,
                    &[
                        "spec",
                        if lq.is_stopped() {
                            "stopPolicy"
                        } else {
                            "clusterQueue"
                        },
                    ],
                    format!(
                        "LocalQueue {}/{qname} → ClusterQueue {}{stop}{active}",
                        self.namespace, lq.spec.cluster_queue
                    ),
                ));
            }
            None if matches!(
                self.verdict,
                Verdict::LocalQueueMissing { .. }
                    | Verdict::NotCollected {
                        kind: "LocalQueue",
                        ..
                    }
                    | Verdict::KueueCause { .. }
            ) =>
            {
                let scope = format!("namespace {}", self.namespace);
                let why = self.absence("LocalQueue", Some(&self.namespace), &scope);
                ev.push(missing("LocalQueue", Some(&self.namespace), qname, &why))
            }
            None => {}
        }
        // ClusterQueue.
        match self.cq {
            Some((cid, cq)) => ev.extend(self.cq_evidence(ctx, cid, cq)),
            None => {
                let name = match &self.verdict {
                    Verdict::ClusterQueueMissing { name }
                    | Verdict::NotCollected {
                        kind: "ClusterQueue",
                        name,
                    } => Some(name.clone()),
                    Verdict::KueueCause { .. } => self
                        .lq
                        .map(|(_, lq)| lq.spec.cluster_queue.clone())
                        .filter(|n| !n.is_empty()),
                    _ => None,
                };
                if let Some(name) = name {
                    let why = self.absence("ClusterQueue", None, "the cluster");
                    ev.push(missing("ClusterQueue", None, &name, &why));
                }
            }
        }
        // Namespace for selector verdicts.
        if let Verdict::NamespaceNotSelected { .. } = self.verdict
            && let Some(nid) = snap.find("Namespace", None, &self.namespace)
        {
            ev.push(ctx.field(
                nid,
                &["metadata", "labels"],
                format!("Namespace {}: its labels", self.namespace),
            ));
        }
    }

    /// Why a queue of `kind` the chain needs is not in the bundle, and what that tells:
    /// the bundle lists every one of `scope` (it does not exist), Kueue's own condition
    /// shows Kueue found it, or whether it exists is unknown.
    fn absence(&self, kind: &str, namespace: Option<&str>, scope: &str) -> String {
        let snap = self.snap;
        if let Verdict::KueueCause { .. } = self.verdict {
            return "not in the bundle; Kueue found it: its condition comes from a step that runs only after the Workload's LocalQueue and ClusterQueue resolve (missing evidence, not the cause)".to_string();
        }
        if snap.listed_whole(kind, namespace) {
            format!("does not exist: the bundle lists every {kind} of {scope}, and not this one")
        } else if self.kueue.as_ref().is_some_and(|k| {
            k.message.starts_with(&format!("{kind} ")) && k.message.contains("doesn't exist")
        }) {
            "not in the bundle, and Kueue's condition says it doesn't exist".to_string()
        } else if snap.has_kind(kind) {
            format!(
                "not in the bundle, which holds other {kind}s but no complete list of those of {scope}: whether it exists is unknown"
            )
        } else {
            format!("the bundle holds no {kind}s")
        }
    }

    /// The first five Workloads holding the quota this one needs.
    fn holder_evidence(&self, ctx: &Ctx, ev: &mut Vec<Evidence>) {
        let snap = self.snap;
        // Holders.
        let mut seen = Vec::new();
        for (id, f, r, amount) in &self.holders {
            if seen.contains(id) || seen.len() >= 5 {
                continue;
            }
            seen.push(*id);
            let o = snap.object(*id);
            ev.push(ctx.field(
                *id,
                &["status", "admission"],
                format!(
                    "Workload {}/{} holds {} in flavor {f} (priority {})",
                    o.namespace.as_deref().unwrap_or(""),
                    o.name,
                    show_with(r, *amount),
                    ctx.workload(*id).map(|w| w.priority()).unwrap_or(0)
                ),
            ));
        }
    }

    /// Each admission check's state and its AdmissionCheck object.
    fn admission_check_evidence(&self, ctx: &Ctx, ev: &mut Vec<Evidence>) {
        let snap = self.snap;
        if let Verdict::AdmissionChecks { .. } = self.verdict {
            for a in &self.wl.status.admission_checks {
                ev.push(ctx.field(
                    self.id,
                    &["status", "admissionChecks", &format!("name={}", a.name)],
                    format!(
                        "admission check {}: state {}{}{}",
                        a.name,
                        a.state,
                        a.last_transition_time
                            .as_deref()
                            .map(|t| format!(" since {t}"))
                            .unwrap_or_default(),
                        a.message
                            .as_deref()
                            .filter(|m| !m.is_empty())
                            .map(|m| format!(": {m}"))
                            .unwrap_or_default()
                    ),
                ));
                match snap.find("AdmissionCheck", None, &a.name) {
                    Some(acid) => {
                        let ac = Snapshot::view_of(snap.admission_checks(), acid);
                        let active = ac
                            .and_then(|a| {
                                crate::kube::meta::condition(&a.status.conditions, "Active")
                            })
                            .map(active_text)
                            .unwrap_or_default();
                        ev.push(evidence::object(
                            snap,
                            acid,
                            format!(
                                "AdmissionCheck {}: controller {}{active}",
                                a.name,
                                ac.and_then(|a| a.spec.controller_name.clone())
                                    .unwrap_or_else(|| "(none)".into())
                            ),
                        ));
                    }
                    None if snap.has_kind("AdmissionCheck") => {
                        ev.push(missing(
                            "AdmissionCheck",
                            None,
                            &a.name,
                            "not in the bundle",
                        ));
                    }
                    None => {}
                }
            }
        }
    }

    fn cq_evidence(&self, ctx: &Ctx, cid: ObjectId, cq: &ClusterQueue) -> Vec<Evidence> {
        let snap = self.snap;
        let mut ev = Vec::new();
        let name = &cq.metadata.name;
        let active = cq
            .active()
            .map(|c| {
                format!(
                    ", Active={}{}{}",
                    c.status,
                    c.reason
                        .as_deref()
                        .map(|r| format!(" ({r})"))
                        .unwrap_or_default(),
                    c.message
                        .as_deref()
                        .filter(|_| c.status == "False")
                        .map(|m| format!(": {m}"))
                        .unwrap_or_default()
                )
            })
            .unwrap_or_default();
        let head = match &self.verdict {
            Verdict::ClusterQueueStopped { .. } => (
                vec!["spec", "stopPolicy"],
                format!(
                    "ClusterQueue {name}: stopPolicy {}{active}",
                    cq.spec.stop_policy.as_deref().unwrap_or("")
                ),
            ),
            Verdict::ClusterQueueInactive { .. } => (
                vec!["status", "conditions", "type=Active"],
                format!("ClusterQueue {name}{active}"),
            ),
            Verdict::NamespaceNotSelected { .. } => (
                if cq.spec.namespace_selector.is_some() {
                    vec!["spec", "namespaceSelector"]
                } else {
                    vec!["spec"]
                },
                format!(
                    "ClusterQueue {name}: namespaceSelector {}",
                    cq.spec
                        .namespace_selector
                        .as_ref()
                        .map(describe_selector)
                        .unwrap_or_else(|| "absent (admits no namespace)".into())
                ),
            ),
            Verdict::StrictFifo { .. } => (
                vec!["spec", "queueingStrategy"],
                format!("ClusterQueue {name}: queueingStrategy StrictFIFO"),
            ),
            _ => (
                vec![],
                format!("ClusterQueue {name}: {}{active}", self.cohort_words(cq)),
            ),
        };
        ev.push(ctx.field(cid, &head.0, head.1));
        // Quota lines for the resources that decide.
        let mut cited: Vec<FlavorResource> = Vec::new();
        for t in &self.tries {
            for g in &t.groups {
                for ft in &g.tries {
                    // The named resource first, then every other one of the group that is
                    // also over (the maximum capacity, or the unused quota).
                    let node = Node::Cq(name.to_string());
                    let need = |r: &str| {
                        self.needs
                            .iter()
                            .find(|n| n.name == t.podset)
                            .and_then(|n| n.total.get(r))
                            .copied()
                            .unwrap_or(0)
                    };
                    let mut res: Vec<String> = match &ft.outcome {
                        Try::Exceeds { resource, .. } | Try::Short { resource, .. } => {
                            vec![resource.clone()]
                        }
                        // When the Workload fits, the quota that shows it.
                        Try::Fits
                            if matches!(
                                self.verdict,
                                Verdict::FitsNow | Verdict::StrictFifo { .. }
                            ) =>
                        {
                            g.resources.clone()
                        }
                        _ => Vec::new(),
                    };
                    for r in &g.resources {
                        let fr = (ft.flavor.clone(), r.clone());
                        let over = match &ft.outcome {
                            Try::Exceeds { .. } => need(r) > ctx.tree.max_capacity(&node, &fr),
                            Try::Short { .. } => need(r) > ctx.tree.available(&node, &fr),
                            _ => false,
                        };
                        if over && !res.contains(r) {
                            res.push(r.clone());
                        }
                    }
                    for r in res {
                        let fr = (ft.flavor.clone(), r.clone());
                        // A quota that does not read: the chain's notes name it.
                        if cited.contains(&fr) || !ctx.tree.unread_quotas(name, &fr).is_empty() {
                            continue;
                        }
                        cited.push(fr.clone());
                        let l = ctx.tree.limits(&node, &fr).cloned().unwrap_or_default();
                        ev.push(ctx.field(cid,
                            &["spec", "resourceGroups", &format!("name={}", ft.flavor), &format!("name={r}"), "nominalQuota"],
                            format!(
                                "flavor {} {r}: nominalQuota {}{}{}; reserved {} (status.flavorsReservation); max capacity {}, free {}",
                                ft.flavor,
                                display_units(&r, l.nominal),
                                l.borrowing.map(|b| format!(", borrowingLimit {}", display_units(&r, b))).unwrap_or_default(),
                                l.lending.map(|b| format!(", lendingLimit {}", display_units(&r, b))).unwrap_or_default(),
                                display_units(&r, ctx.tree.usage(&node, &fr)),
                                display_units(&r, ctx.tree.max_capacity(&node, &fr)),
                                display_units(&r, ctx.tree.available(&node, &fr).max(0)),
                            ),
                        ));
                    }
                }
            }
        }
        // Flavors that matter: mismatches, missing ones, and the one the quota verdict names.
        let mut flavors: Vec<(String, Option<String>)> = Vec::new();
        for t in &self.tries {
            for g in &t.groups {
                for ft in &g.tries {
                    let why = match &ft.outcome {
                        Try::Mismatch(w) => Some(w.clone()),
                        Try::Missing => {
                            Some(format!("ResourceFlavor {} does not exist", ft.flavor))
                        }
                        _ => None,
                    };
                    if !flavors.iter().any(|(f, _)| f == &ft.flavor) {
                        flavors.push((ft.flavor.clone(), why));
                    }
                }
            }
        }
        if let Verdict::ClusterQueueInactive { .. } = self.verdict {
            for f in cq.flavor_names() {
                if resource_flavor(snap, f).is_none() && snap.has_kind("ResourceFlavor") {
                    flavors.push((
                        f.to_string(),
                        Some(format!("ResourceFlavor {f} does not exist")),
                    ));
                }
            }
        }
        for (f, why) in flavors {
            match resource_flavor(snap, &f) {
                Some((fid, rf)) => ev.push(evidence::object(
                    snap,
                    fid,
                    flavor_words(rf, why.as_deref()),
                )),
                None => ev.push(missing(
                    "ResourceFlavor",
                    None,
                    &f,
                    why.as_deref().unwrap_or("not in the bundle"),
                )),
            }
        }
        // Cohort hop.
        if let Some(cohort) = cq.cohort() {
            let ancestors = ctx.tree.ancestors(name);
            match snap.find("Cohort", None, cohort) {
                Some(coid) => ev.push(evidence::object(
                    snap,
                    coid,
                    format!(
                        "Cohort {cohort}{}",
                        if ancestors.len() > 1 {
                            format!(" (parents: {})", ancestors[1..].join(" → "))
                        } else {
                            String::new()
                        }
                    ),
                )),
                None => ev.push(missing(
                    "Cohort",
                    None,
                    cohort,
                    &format!(
                        "cohort {cohort} has no Cohort object (an implicit cohort: members {})",
                        ctx.tree.members(cohort).join(", ")
                    ),
                )),
            }
        }
        ev
    }
}

/// Evidence about an object the bundle does not hold.
pub fn missing(kind: &str, namespace: Option<&str>, name: &str, note: &str) -> Evidence {
    Evidence {
        object: Some(ObjectRef {
            api_version: if kind == "Job" {
                "batch/v1".into()
            } else {
                "kueue.x-k8s.io/v1beta2".into()
            },
            kind: kind.into(),
            namespace: namespace.map(str::to_string),
            name: name.into(),
        }),
        input: None,
        file: None,
        line: None,
        note: note.into(),
    }
}

/// `, Active=False (Reason)`: a queue's or an admission check's `Active` condition, as
/// evidence notes append it.
fn active_text(c: &crate::kube::meta::Condition) -> String {
    let reason = c.reason.as_deref().map(|r| format!(" ({r})"));
    format!(", Active={}{}", c.status, reason.unwrap_or_default())
}

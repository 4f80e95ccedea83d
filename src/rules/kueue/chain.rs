//! The admission chain of one Workload: Workload → LocalQueue → ClusterQueue →
//! ResourceFlavor → Cohort, the first broken link, and the quota arithmetic
//! (kubernetes-semantics.md §1). Rules and `kdiag why` both read it.

use super::model::{
    self, FlavorResource, Node, QuotaTree, Units, flavor_mismatch, group_for, holdings,
    limit_defaults, pod_requests, show, show_with,
};
use crate::kube::kueue::{ClusterQueue, LocalQueue, ResourceFlavor, Workload};
use crate::kube::meta::{Condition, ObjectRef};
use crate::kube::time::{format_duration, parse_timestamp};
use crate::rules::{Evidence, Finding, RuleMeta, Severity, evidence};
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

/// What is computed once per snapshot and shared by every chain.
pub struct Ctx<'a> {
    pub snap: &'a Snapshot,
    pub tree: QuotaTree,
    /// Pending (not reserved, active, unfinished) Workloads per ClusterQueue, in queue order.
    pending_by_cq: HashMap<String, Vec<ObjectId>>,
    /// Workloads holding a reservation, per (ClusterQueue, flavor, resource): largest first.
    holders_by_fr: HashMap<(String, FlavorResource), Vec<(ObjectId, Units)>>,
    /// LimitRange container defaults per namespace.
    defaults: HashMap<String, model::LimitDefaults>,
    /// Lines found by [`Ctx::field`].
    lines: RefCell<HashMap<(ObjectId, String), u32>>,
}

impl<'a> Ctx<'a> {
    pub fn new(snap: &'a Snapshot) -> Ctx<'a> {
        let mut pending_by_cq: HashMap<String, Vec<ObjectId>> = HashMap::new();
        for (id, w) in snap.workloads() {
            if w.has_quota_reserved() || w.is_finished() || !w.is_active() {
                continue;
            }
            let ns = snap.object(*id).namespace.as_deref();
            let Some(cq) = w
                .queue_name()
                .and_then(|q| local_queue(snap, ns, q))
                .map(|(_, lq)| lq.spec.cluster_queue.clone())
            else {
                continue;
            };
            pending_by_cq.entry(cq).or_default().push(*id);
        }
        for ids in pending_by_cq.values_mut() {
            ids.sort_by_key(|id| queue_order(snap, *id));
        }
        let mut holders_by_fr: HashMap<(String, FlavorResource), Vec<(ObjectId, Units)>> =
            HashMap::new();
        for (id, w) in snap.workloads() {
            let Some(adm) = &w.status.admission else {
                continue;
            };
            for (fr, amount) in holdings(w) {
                let list = holders_by_fr
                    .entry((adm.cluster_queue.clone(), fr))
                    .or_default();
                // Several podsets on one flavor: one entry per Workload.
                match list.last_mut() {
                    Some((last, a)) if last == id => *a += amount,
                    _ => list.push((*id, amount)),
                }
            }
        }
        for list in holders_by_fr.values_mut() {
            list.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        }
        Ctx {
            snap,
            tree: QuotaTree::build(snap),
            pending_by_cq,
            holders_by_fr,
            defaults: limit_defaults(snap),
            lines: RefCell::new(HashMap::new()),
        }
    }

    /// Evidence for a field of an object, like `evidence::field`, with the line lookup
    /// cached: the same queues and flavors are cited by many findings.
    pub fn field(&self, id: ObjectId, path: &[&str], note: impl Into<String>) -> Evidence {
        let key = (id, path.join("\u{1f}"));
        let cached = self.lines.borrow().get(&key).copied();
        let (_, span) = self.snap.source_of(id);
        let line = match cached {
            Some(l) => l,
            // A one-line object (minified JSON): every field is on that line.
            None if span.start >= span.end => span.start,
            None => {
                let l = self.snap.locate(id, path);
                self.lines.borrow_mut().insert(key, l);
                l
            }
        };
        let (file, _) = self.snap.source_of(id);
        Evidence {
            object: Some(self.snap.object(id).reference()),
            input: Some(file.input),
            file: Some(file.path.clone()),
            line: Some(line),
            note: note.into(),
        }
    }

    fn workload(&self, id: ObjectId) -> Option<&'a Workload> {
        Snapshot::view_of(self.snap.workloads(), id)
    }
}

/// Kueue's queue order: higher priority first, then older (creation, or the last
/// eviction, which re-queues at the back).
fn queue_order(snap: &Snapshot, id: ObjectId) -> (i64, i64, ObjectId) {
    let w = Snapshot::view_of(snap.workloads(), id);
    let prio = w.map(|w| w.priority()).unwrap_or(0);
    let created = w
        .and_then(|w| {
            let evicted = w
                .condition("Evicted")
                .filter(|c| c.status == "True")
                .and_then(|c| c.last_transition_time.as_deref())
                .and_then(parse_timestamp);
            let created = w
                .metadata
                .creation_timestamp
                .as_deref()
                .and_then(parse_timestamp);
            evicted.or(created)
        })
        .unwrap_or(i64::MAX);
    (-prio, created, id)
}

fn local_queue<'s>(
    snap: &'s Snapshot,
    ns: Option<&str>,
    name: &str,
) -> Option<(ObjectId, &'s LocalQueue)> {
    let id = snap.find("LocalQueue", ns, name)?;
    Snapshot::view_of(snap.local_queues(), id).map(|v| (id, v))
}

fn cluster_queue<'s>(snap: &'s Snapshot, name: &str) -> Option<(ObjectId, &'s ClusterQueue)> {
    let id = snap.find("ClusterQueue", None, name)?;
    Snapshot::view_of(snap.cluster_queues(), id).map(|v| (id, v))
}

fn resource_flavor<'s>(snap: &'s Snapshot, name: &str) -> Option<(ObjectId, &'s ResourceFlavor)> {
    let id = snap.find("ResourceFlavor", None, name)?;
    Snapshot::view_of(snap.resource_flavors(), id).map(|v| (id, v))
}

/// One podset's need.
#[derive(Clone, Debug)]
pub struct PodSetNeed {
    pub name: String,
    pub count: i64,
    pub per_pod: BTreeMap<String, Units>,
    /// count × per pod, plus `pods` when the ClusterQueue covers it.
    pub total: BTreeMap<String, Units>,
}

/// The result of trying one flavor for one resource group of a podset.
#[derive(Clone, Debug)]
pub enum Try {
    /// The ClusterQueue names a ResourceFlavor that does not exist.
    Missing,
    /// Taints or node labels exclude it.
    Mismatch(String),
    /// More than the maximum capacity, ever.
    Exceeds {
        resource: String,
        need: Units,
        max: Units,
    },
    /// Not enough unused quota now.
    Short {
        resource: String,
        need: Units,
        free: Units,
    },
    Fits,
}

#[derive(Clone, Debug)]
pub struct FlavorTry {
    pub flavor: String,
    pub outcome: Try,
}

/// One resource group of one podset: the resources it needs there and each flavor tried.
#[derive(Clone, Debug)]
pub struct GroupTry {
    pub resources: Vec<String>,
    pub tries: Vec<FlavorTry>,
}

impl GroupTry {
    pub fn fits(&self) -> Option<&str> {
        self.tries
            .iter()
            .find(|t| matches!(t.outcome, Try::Fits))
            .map(|t| t.flavor.as_str())
    }
    pub fn later(&self) -> bool {
        self.tries
            .iter()
            .any(|t| matches!(t.outcome, Try::Short { .. }))
    }
}

#[derive(Clone, Debug)]
pub struct PodSetTry {
    pub podset: String,
    /// Requested resources no resource group covers.
    pub uncovered: Vec<String>,
    pub groups: Vec<GroupTry>,
}

/// Where the chain stops.
#[derive(Clone, Debug)]
pub enum Verdict {
    Finished,
    /// Admitted (QuotaReserved and Admitted): past the queue.
    Admitted,
    /// `spec.active: false`.
    Inactive,
    /// Re-queue back-off after an eviction, until the given time.
    Backoff {
        until: i64,
    },
    NoQueueName,
    LocalQueueMissing {
        name: String,
    },
    LocalQueueStopped {
        policy: String,
    },
    LocalQueueInactive,
    ClusterQueueMissing {
        name: String,
    },
    ClusterQueueStopped {
        policy: String,
    },
    /// `Active=False` or a recomputed reason (missing flavors or admission checks).
    ClusterQueueInactive {
        reasons: Vec<String>,
    },
    /// `namespaceSelector` missing (admits nothing) or not matching.
    NamespaceNotSelected {
        why: String,
    },
    /// Quota reserved, admission checks not all Ready.
    AdmissionChecks {
        worst: String,
    },
    /// A requested resource is in no resource group.
    Uncovered {
        podset: String,
        resources: Vec<String>,
    },
    /// No flavor of a resource group can hold the podset (taints, labels, missing).
    NoMatchingFlavor {
        podset: String,
    },
    /// More than the maximum capacity, even with borrowing.
    Never {
        podset: String,
    },
    /// Fits the maximum capacity but not the unused quota now.
    Later {
        podset: String,
    },
    /// StrictFIFO: blocked behind the head of the queue.
    StrictFifo {
        head: ObjectId,
    },
    /// The recomputation finds no blocker.
    FitsNow,
    /// The bundle lacks a kind the chain needs.
    NotCollected {
        kind: &'static str,
        name: String,
    },
}

impl Verdict {
    /// Coarse class, to compare with what Kueue's own message says.
    fn class(&self) -> Class {
        match self {
            Verdict::LocalQueueMissing { .. }
            | Verdict::LocalQueueStopped { .. }
            | Verdict::LocalQueueInactive
            | Verdict::ClusterQueueMissing { .. }
            | Verdict::ClusterQueueStopped { .. }
            | Verdict::ClusterQueueInactive { .. }
            | Verdict::NoQueueName => Class::QueueLink,
            Verdict::NamespaceNotSelected { .. } => Class::Namespace,
            Verdict::Uncovered { .. } | Verdict::NoMatchingFlavor { .. } => Class::NoFlavor,
            Verdict::Never { .. } => Class::Never,
            Verdict::Later { .. } => Class::Later,
            Verdict::AdmissionChecks { .. } => Class::Checks,
            Verdict::StrictFifo { .. } | Verdict::FitsNow => Class::Fits,
            _ => Class::Other,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    QueueLink,
    Namespace,
    NoFlavor,
    Never,
    Later,
    Checks,
    Fits,
    Other,
}

impl Class {
    fn words(self) -> &'static str {
        match self {
            Class::QueueLink => "a missing, stopped or inactive queue",
            Class::Namespace => "a namespace the ClusterQueue does not select",
            Class::NoFlavor => "no matching flavor",
            Class::Never => "a request above the maximum capacity (it can never fit)",
            Class::Later => "not enough unused quota now (it fits later)",
            Class::Checks => "admission checks",
            Class::Fits => "nothing: the Workload fits",
            Class::Other => "something else",
        }
    }
}

/// What Kueue itself wrote about the Workload.
#[derive(Clone, Debug)]
pub struct KueueSays {
    pub condition: &'static str,
    pub reason: String,
    pub message: String,
    class: Class,
}

/// Classifies Kueue's words (both reason vocabularies, every message wording of §1.5).
pub fn classify(reason: &str, message: &str) -> Class {
    let m = message;
    let queue_words = [
        "doesn't exist",
        "is inactive",
        "is stopped",
        "terminating or missing",
        "not found",
    ];
    if (m.starts_with("LocalQueue ") || m.starts_with("ClusterQueue "))
        && queue_words.iter().any(|w| m.contains(w))
    {
        return Class::QueueLink;
    }
    if m.contains("doesn't match ClusterQueue selector") || m.contains("invalid namespace selector")
    {
        return Class::Namespace;
    }
    if m.contains("failed admission checks") {
        return Class::Checks;
    }
    if m.contains("insufficient unused quota") || m.contains("Pending the preemption") {
        return Class::Later;
    }
    if m.contains("insufficient quota for") || m.contains("maximum capacity") {
        return Class::Never;
    }
    if m.contains("untolerated taint")
        || m.contains("match node affinity")
        || m.contains("match with node affinity")
        || m.contains("unavailable in ClusterQueue")
        || (m.contains("flavor ") && m.contains(" not found"))
    {
        return Class::NoFlavor;
    }
    match reason {
        "ExceedsMaxQuota" => Class::Never,
        "WaitingForQuota" | "WaitingForPreemptedWorkloads" => Class::Later,
        "NoMatchingFlavor" => Class::NoFlavor,
        "UnsatisfiedAdmissionChecks" | "UnsatisfiedChecks" => Class::Checks,
        _ => Class::Other,
    }
}

/// The whole chain of one Workload.
pub struct Chain<'a> {
    pub snap: &'a Snapshot,
    pub id: ObjectId,
    pub wl: &'a Workload,
    pub namespace: String,
    /// (kind, name, id when in the bundle) of the Job or other owner.
    pub owner: Option<(String, String, Option<ObjectId>)>,
    pub pods: Vec<ObjectId>,
    pub lq: Option<(ObjectId, &'a LocalQueue)>,
    pub cq: Option<(ObjectId, &'a ClusterQueue)>,
    pub needs: Vec<PodSetNeed>,
    pub tries: Vec<PodSetTry>,
    pub verdict: Verdict,
    pub kueue: Option<KueueSays>,
    /// Facts the bundle lacks, or that the recomputation could not check.
    pub notes: Vec<String>,
    /// Admitted Workloads holding quota in the ClusterQueue: (id, flavor, resource, amount),
    /// largest first, at most [`MAX_HOLDERS`].
    pub holders: Vec<(ObjectId, String, String, Units)>,
    /// How many distinct Workloads hold the quota this one is short of.
    pub holders_total: usize,
}

/// Holders kept per chain (the message names five, `details` all of these, with the total).
const MAX_HOLDERS: usize = 10;

/// (Workload, verdict word) for every live Workload of a snapshot. Computed once per
/// run and shared by the Kueue rules ([`crate::rules::Context::kueue_verdicts`]); each
/// rule then re-analyzes only the Workloads whose verdict it reports.
pub fn verdicts(snap: &Snapshot) -> Vec<(ObjectId, &'static str)> {
    let ctx = Ctx::new(snap);
    snap.workloads()
        .iter()
        .filter(|(id, _)| is_live(snap, *id))
        .map(|(id, w)| (*id, verdict_word(&analyze(&ctx, *id, w).verdict)))
        .collect()
}

/// The live Workloads whose verdict is one of `words`.
pub fn workloads_with(ctx: &crate::rules::Context, words: &[&str]) -> Vec<ObjectId> {
    ctx.kueue_verdicts()
        .iter()
        .filter(|(_, w)| words.contains(w))
        .map(|(id, _)| *id)
        .collect()
}

/// A live object carries a status or a creation time (manifests and examples do not).
pub fn is_live(snap: &Snapshot, id: ObjectId) -> bool {
    let v = &snap.object(id).value();
    v.pointer("/metadata/creationTimestamp").is_some()
        || v.get("status").is_some_and(|s| !s.is_null())
}

pub fn analyze<'a>(ctx: &Ctx<'a>, id: ObjectId, wl: &'a Workload) -> Chain<'a> {
    let snap = ctx.snap;
    let namespace = snap.object(id).namespace.clone().unwrap_or_default();
    let mut c = Chain {
        snap,
        id,
        wl,
        namespace,
        owner: model::owner_of(snap, id, wl),
        pods: model::pods_of(snap, wl),
        lq: None,
        cq: None,
        needs: Vec::new(),
        tries: Vec::new(),
        verdict: Verdict::FitsNow,
        kueue: kueue_says(wl),
        notes: Vec::new(),
        holders: Vec::new(),
        holders_total: 0,
    };
    c.verdict = c.walk(ctx);
    if let Some(k) = &c.kueue
        && !matches!(c.verdict, Verdict::Admitted | Verdict::Finished)
        && k.class != Class::Other
        && k.class != c.verdict.class()
        && c.verdict.class() != Class::Other
    {
        c.notes.push(format!(
            "Kueue's condition points at {}, but the recomputation from the bundle finds {}; the queues changed between Kueue's last evaluation and the snapshot, or Kueue has not re-evaluated the Workload yet",
            k.class.words(),
            c.verdict.class().words()
        ));
    }
    c
}

fn kueue_says(wl: &Workload) -> Option<KueueSays> {
    let pick = |type_: &'static str| -> Option<KueueSays> {
        let cond: &Condition = wl.condition(type_).filter(|c| c.status == "False")?;
        let reason = cond.reason.clone().unwrap_or_default();
        let message = cond.message.clone().unwrap_or_default();
        if reason.is_empty() && message.is_empty() {
            return None;
        }
        Some(KueueSays {
            condition: type_,
            class: classify(&reason, &message),
            reason,
            message,
        })
    };
    if wl.has_quota_reserved() {
        pick("Admitted")
    } else {
        pick("QuotaReserved").or_else(|| pick("Admitted"))
    }
}

impl<'a> Chain<'a> {
    fn walk(&mut self, ctx: &Ctx<'a>) -> Verdict {
        let snap = self.snap;
        let wl = self.wl;
        if wl.is_finished() {
            return Verdict::Finished;
        }
        // Admitted; a status with an admission but no conditions (a partial capture) is
        // taken as admitted too: nothing in it says otherwise.
        let admitted =
            wl.is_admitted() || (wl.status.conditions.is_empty() && wl.status.admission.is_some());
        if admitted && wl.has_quota_reserved() {
            self.lq = wl
                .queue_name()
                .and_then(|q| local_queue(snap, Some(&self.namespace), q));
            self.cq = wl
                .status
                .admission
                .as_ref()
                .and_then(|a| cluster_queue(snap, &a.cluster_queue));
            return Verdict::Admitted;
        }
        if !wl.is_active() {
            return Verdict::Inactive;
        }
        if let (Some(at), Some(asof)) = (
            wl.status
                .requeue_state
                .as_ref()
                .and_then(|r| r.requeue_at.as_deref())
                .and_then(parse_timestamp),
            snap.as_of,
        ) && at > asof
            && !wl.has_quota_reserved()
        {
            return Verdict::Backoff { until: at };
        }
        if snap
            .object(self.id)
            .value()
            .get("spec")
            .is_none_or(Value::is_null)
        {
            return Verdict::NotCollected {
                kind: "Workload spec",
                name: format!("{}/{}", self.namespace, wl.metadata.name),
            };
        }
        // 1. Workload → LocalQueue.
        let Some(qname) = wl.queue_name() else {
            return Verdict::NoQueueName;
        };
        let ns = self.namespace.clone();
        match local_queue(snap, Some(&ns), qname) {
            Some(lq) => self.lq = Some(lq),
            None if !snap.has_kind("LocalQueue")
                && !self.kueue_confirms(Class::QueueLink, "LocalQueue ") =>
            {
                return Verdict::NotCollected {
                    kind: "LocalQueue",
                    name: format!("{ns}/{qname}"),
                };
            }
            None => {
                return Verdict::LocalQueueMissing {
                    name: qname.to_string(),
                };
            }
        }
        let (_, lq) = self.lq.expect("set above");
        if lq.is_stopped() {
            return Verdict::LocalQueueStopped {
                policy: lq.spec.stop_policy.clone().unwrap_or_default(),
            };
        }
        // 2. LocalQueue → ClusterQueue.
        let cq_name = lq.spec.cluster_queue.clone();
        if cq_name.is_empty() {
            return Verdict::NotCollected {
                kind: "LocalQueue spec",
                name: format!("{ns}/{qname}"),
            };
        }
        match cluster_queue(snap, &cq_name) {
            Some(cq) => self.cq = Some(cq),
            None if !snap.has_kind("ClusterQueue")
                && !self.kueue_confirms(Class::QueueLink, "ClusterQueue ") =>
            {
                return Verdict::NotCollected {
                    kind: "ClusterQueue",
                    name: cq_name,
                };
            }
            None => return Verdict::ClusterQueueMissing { name: cq_name },
        }
        let (cid, cq) = self.cq.expect("set above");
        if snap
            .object(cid)
            .value()
            .get("spec")
            .is_none_or(Value::is_null)
        {
            // A status-only capture: selector, flavors and quota are unknown.
            return Verdict::NotCollected {
                kind: "ClusterQueue spec",
                name: cq_name,
            };
        }
        if cq.is_stopped() {
            return Verdict::ClusterQueueStopped {
                policy: cq.spec.stop_policy.clone().unwrap_or_default(),
            };
        }
        let reasons = self.cq_inactive_reasons(ctx, cq);
        if !reasons.is_empty() {
            return Verdict::ClusterQueueInactive { reasons };
        }
        if lq.active().is_some_and(|c| c.status == "False") {
            return Verdict::LocalQueueInactive;
        }
        // 3. Namespace selector.
        if let Some(why) = self.namespace_mismatch(cq) {
            return Verdict::NamespaceNotSelected { why };
        }
        // 4. Reserved but not admitted: admission checks.
        if wl.has_quota_reserved() {
            return self.checks_verdict();
        }
        // 5. Flavors and quota.
        self.compute_tries(ctx, cq);
        for t in &self.tries {
            if !t.uncovered.is_empty() {
                return Verdict::Uncovered {
                    podset: t.podset.clone(),
                    resources: t.uncovered.clone(),
                };
            }
        }
        for t in &self.tries {
            for g in &t.groups {
                if g.fits().is_some() || g.later() {
                    continue;
                }
                let any_quota = g
                    .tries
                    .iter()
                    .any(|f| matches!(f.outcome, Try::Exceeds { .. }));
                return if any_quota {
                    Verdict::Never {
                        podset: t.podset.clone(),
                    }
                } else {
                    Verdict::NoMatchingFlavor {
                        podset: t.podset.clone(),
                    }
                };
            }
        }
        let later = self
            .tries
            .iter()
            .find(|t| t.groups.iter().any(|g| g.fits().is_none()))
            .map(|t| t.podset.clone());
        if let Some(podset) = later {
            self.find_holders(ctx, cq);
            return Verdict::Later { podset };
        }
        // 6. Failed admission checks keep a Workload out even when it fits.
        if wl
            .status
            .admission_checks
            .iter()
            .any(|a| a.state == "Retry" || a.state == "Rejected")
        {
            return self.checks_verdict();
        }
        // 7. StrictFIFO head of line.
        if cq.is_strict_fifo()
            && let Some(head) = ctx
                .pending_by_cq
                .get(&cq.metadata.name)
                .and_then(|ids| ids.first())
                .filter(|h| **h != self.id)
            && ctx.workload(*head).is_some()
        {
            return Verdict::StrictFifo { head: *head };
        }
        Verdict::FitsNow
    }

    /// Kueue's own message already names this link as the problem.
    fn kueue_confirms(&self, class: Class, prefix: &str) -> bool {
        self.kueue
            .as_ref()
            .is_some_and(|k| k.class == class && k.message.starts_with(prefix))
    }

    fn cq_inactive_reasons(&mut self, ctx: &Ctx, cq: &ClusterQueue) -> Vec<String> {
        let snap = self.snap;
        let mut reasons = Vec::new();
        let flavors_collected = snap.has_kind("ResourceFlavor");
        let missing: Vec<&str> = cq
            .flavor_names()
            .into_iter()
            .filter(|f| resource_flavor(snap, f).is_none())
            .collect();
        let cond = cq.active().filter(|c| c.status == "False");
        let cond_says_flavor = cond.is_some_and(|c| {
            c.reason.as_deref() == Some("FlavorNotFound")
                || c.message
                    .as_deref()
                    .is_some_and(|m| m.contains("ResourceFlavor") || m.contains("FlavorNotFound"))
        });
        if !missing.is_empty() && (flavors_collected || cond_says_flavor) {
            reasons.push(format!(
                "references missing ResourceFlavor(s) {}",
                missing.join(", ")
            ));
        } else if !missing.is_empty() {
            self.notes.push(format!(
                "the bundle holds no ResourceFlavors, so flavor(s) {} could not be checked",
                missing.join(", ")
            ));
        }
        let checks = cq.admission_check_rules();
        if snap.has_kind("AdmissionCheck") {
            let mut gone = Vec::new();
            let mut inactive = Vec::new();
            for (name, _) in &checks {
                match snap.find("AdmissionCheck", None, name) {
                    None => gone.push(name.clone()),
                    Some(acid) => {
                        let ac = Snapshot::view_of(snap.admission_checks(), acid);
                        if ac.is_some_and(|a| {
                            crate::kube::meta::condition(&a.status.conditions, "Active")
                                .is_some_and(|c| c.status == "False")
                        }) {
                            inactive.push(name.clone());
                        }
                    }
                }
            }
            if !gone.is_empty() {
                reasons.push(format!(
                    "references missing AdmissionCheck(s) {}",
                    gone.join(", ")
                ));
            }
            if !inactive.is_empty() {
                reasons.push(format!(
                    "references inactive AdmissionCheck(s) {}",
                    inactive.join(", ")
                ));
            }
        }
        if let Some(c) = cond
            && reasons.is_empty()
        {
            reasons.push(format!(
                "Active=False, reason {}{}",
                c.reason.as_deref().unwrap_or("(none)"),
                c.message
                    .as_deref()
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default()
            ));
        }
        if let Some(cohort) = cq.cohort()
            && let Some(cyc) = std::iter::once(cohort.to_string())
                .chain(ctx.tree.ancestors(&cq.metadata.name))
                .find(|c| ctx.tree.cycles.contains(c))
        {
            reasons.push(format!(
                "is in cohort {cohort}, whose parents form a cycle through Cohort {cyc}; Kueue disables every member of a cycle"
            ));
        }
        reasons
    }

    fn namespace_mismatch(&mut self, cq: &ClusterQueue) -> Option<String> {
        let Some(sel) = &cq.spec.namespace_selector else {
            return Some(format!(
                "ClusterQueue {} has no namespaceSelector, which admits no namespace (`namespaceSelector: {{}}` admits all)",
                cq.metadata.name
            ));
        };
        if sel.match_labels.is_empty() && sel.match_expressions.is_empty() {
            return None;
        }
        let ns_obj = self
            .snap
            .find("Namespace", None, &self.namespace)
            .and_then(|id| Snapshot::view_of(self.snap.namespaces(), id));
        match ns_obj {
            Some(ns) => (!sel.matches(&ns.metadata.labels)).then(|| {
                let labels: Vec<String> = ns
                    .metadata
                    .labels
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                format!(
                    "ClusterQueue {} selects namespaces by {}; namespace {} has labels {}",
                    cq.metadata.name,
                    describe_selector(sel),
                    self.namespace,
                    if labels.is_empty() {
                        "(none)".to_string()
                    } else {
                        labels.join(", ")
                    }
                )
            }),
            None => {
                if self
                    .kueue
                    .as_ref()
                    .is_some_and(|k| k.class == Class::Namespace)
                {
                    return Some(format!(
                        "ClusterQueue {} selects namespaces by {}; Kueue says namespace {} does not match (the Namespace is not in the bundle)",
                        cq.metadata.name,
                        describe_selector(sel),
                        self.namespace
                    ));
                }
                self.notes.push(format!(
                    "Namespace {} is not in the bundle, so ClusterQueue {}'s namespaceSelector ({}) could not be checked",
                    self.namespace,
                    cq.metadata.name,
                    describe_selector(sel)
                ));
                None
            }
        }
    }

    fn checks_verdict(&self) -> Verdict {
        let states: Vec<&str> = self
            .wl
            .status
            .admission_checks
            .iter()
            .map(|a| a.state.as_str())
            .collect();
        let worst = ["Rejected", "Retry", "Pending"]
            .into_iter()
            .find(|s| states.contains(s))
            .unwrap_or(if states.is_empty() { "" } else { "Ready" });
        Verdict::AdmissionChecks {
            worst: worst.to_string(),
        }
    }

    fn compute_tries(&mut self, ctx: &Ctx<'a>, cq: &ClusterQueue) {
        let snap = self.snap;
        let empty = model::LimitDefaults::default();
        let defaults = ctx.defaults.get(&self.namespace).unwrap_or(&empty);
        if !defaults.sources.is_empty() {
            self.notes.push(
                "container requests include the namespace's LimitRange defaults, as Kueue applies them".into(),
            );
        }
        let covers_pods = model::covers_pods(cq);
        let node = Node::Cq(cq.metadata.name.clone());
        // Usage by earlier podsets of this Workload, per (flavor, resource).
        let mut used: HashMap<FlavorResource, Units> = HashMap::new();
        for ps in &self.wl.spec.pod_sets {
            let count = ps.count() as i128;
            let per_pod = pod_requests(&ps.template.spec, defaults);
            let mut total: BTreeMap<String, Units> = per_pod
                .iter()
                .map(|(k, v)| (k.clone(), v.saturating_mul(count)))
                .filter(|(_, v)| *v > 0)
                .collect();
            if covers_pods && count > 0 {
                total.insert("pods".into(), count);
            }
            let need = PodSetNeed {
                name: ps.name.clone(),
                count: ps.count(),
                per_pod,
                total: total.clone(),
            };
            let mut ptry = PodSetTry {
                podset: ps.name.clone(),
                uncovered: Vec::new(),
                groups: Vec::new(),
            };
            // Resources per resource group, in the group's order.
            let mut by_group: BTreeMap<usize, Vec<String>> = BTreeMap::new();
            for res in total.keys() {
                match group_for(cq, res) {
                    Some((gi, _)) => by_group.entry(gi).or_default().push(res.clone()),
                    None => ptry.uncovered.push(res.clone()),
                }
            }
            for (gi, resources) in by_group {
                let group = &cq.spec.resource_groups[gi];
                let mut tries = Vec::new();
                let mut chosen: Option<String> = None;
                for fq in &group.flavors {
                    let outcome = match resource_flavor(snap, &fq.name) {
                        None if snap.has_kind("ResourceFlavor") => Try::Missing,
                        rf => match rf.and_then(|(_, rf)| flavor_mismatch(rf, &ps.template.spec)) {
                            Some(why) => Try::Mismatch(why),
                            None => {
                                let mut out = Try::Fits;
                                for res in &resources {
                                    let fr = (fq.name.clone(), res.clone());
                                    let need = total[res] + used.get(&fr).copied().unwrap_or(0);
                                    let max = ctx.tree.max_capacity(&node, &fr);
                                    let free = ctx.tree.available(&node, &fr);
                                    if need > max {
                                        out = Try::Exceeds {
                                            resource: res.clone(),
                                            need,
                                            max,
                                        };
                                        break;
                                    }
                                    if need > free && !matches!(out, Try::Short { .. }) {
                                        out = Try::Short {
                                            resource: res.clone(),
                                            need,
                                            free,
                                        };
                                    }
                                }
                                out
                            }
                        },
                    };
                    let fits = matches!(outcome, Try::Fits);
                    let short = matches!(outcome, Try::Short { .. });
                    if chosen.is_none() && (fits || short) {
                        chosen = Some(fq.name.clone());
                    }
                    tries.push(FlavorTry {
                        flavor: fq.name.clone(),
                        outcome,
                    });
                    if fits {
                        chosen = Some(fq.name.clone());
                        break;
                    }
                }
                if let Some(f) = chosen {
                    for res in &resources {
                        *used.entry((f.clone(), res.clone())).or_default() += total[res];
                    }
                }
                ptry.groups.push(GroupTry { resources, tries });
            }
            self.needs.push(need);
            self.tries.push(ptry);
        }
        // Cross-check with Kueue's own per-podset totals (status.resourceRequests).
        for rr in &self.wl.status.resource_requests {
            let Some(need) = self.needs.iter().find(|n| n.name == rr.name) else {
                continue;
            };
            for (res, q) in &rr.resources {
                let Some(q) = q.value else { continue };
                let theirs = model::units(res, q);
                let ours = need.total.get(res).copied().unwrap_or(0);
                if theirs != ours {
                    self.notes.push(format!(
                        "Kueue recorded {} for podSet {} (status.resourceRequests) where the recomputation from the pod template gives {}",
                        show_with(res, theirs),
                        rr.name,
                        show_with(res, ours)
                    ));
                }
            }
        }
        if ctx.tree.recomputed_usage.contains(&cq.metadata.name) {
            self.notes.push(format!(
                "ClusterQueue {} has no status.flavorsReservation; its usage is summed from the Workloads in the bundle",
                cq.metadata.name
            ));
        }
    }

    /// Admitted Workloads holding quota in the ClusterQueue (and its cohort when borrowing
    /// matters) for the resources this Workload is short of.
    fn find_holders(&mut self, ctx: &Ctx, cq: &ClusterQueue) {
        let short: Vec<FlavorResource> = self
            .tries
            .iter()
            .flat_map(|t| t.groups.iter())
            .flat_map(|g| g.tries.iter())
            .filter_map(|t| match &t.outcome {
                Try::Short { resource, .. } => Some((t.flavor.clone(), resource.clone())),
                _ => None,
            })
            .collect();
        let mut queues = vec![cq.metadata.name.clone()];
        if let Some(top) = ctx.tree.ancestors(&cq.metadata.name).last() {
            for m in ctx.tree.members(top) {
                if !queues.contains(&m) {
                    queues.push(m);
                }
            }
        }
        let lists: Vec<(&FlavorResource, &Vec<(ObjectId, Units)>)> = queues
            .iter()
            .flat_map(|q| {
                short.iter().filter_map(move |fr| {
                    ctx.holders_by_fr
                        .get(&(q.clone(), fr.clone()))
                        .map(|l| (fr, l))
                })
            })
            .collect();
        self.holders_total = if lists.len() == 1 {
            lists[0].1.iter().filter(|(id, _)| *id != self.id).count()
        } else {
            let ids: std::collections::HashSet<ObjectId> = lists
                .iter()
                .flat_map(|(_, l)| l.iter().map(|(id, _)| *id))
                .filter(|id| *id != self.id)
                .collect();
            ids.len()
        };
        for (fr, list) in lists {
            for (id, amount) in list
                .iter()
                .filter(|(id, _)| *id != self.id)
                .take(MAX_HOLDERS)
            {
                self.holders
                    .push((*id, fr.0.clone(), fr.1.clone(), *amount));
            }
        }
        // Largest first; the message, evidence and details keep the first few.
        self.holders
            .sort_by(|a, b| b.3.cmp(&a.3).then(a.0.cmp(&b.0)));
        self.holders.truncate(MAX_HOLDERS);
    }

    // ------------------------------------------------------------ presentation

    /// `Job ml/train` (the owner users know), else `Workload ml/x`.
    pub fn subject(&self) -> String {
        match &self.owner {
            Some((kind, name, _)) if kind != "Workload" => {
                format!("{kind} {}/{name}", self.namespace)
            }
            _ => format!("Workload {}/{}", self.namespace, self.wl.metadata.name),
        }
    }

    /// `Job ml/train (Workload ml/job-train-1a2b3)` or `Workload ml/x`.
    pub fn subject_with_workload(&self) -> String {
        let wl = format!("{}/{}", self.namespace, self.wl.metadata.name);
        match &self.owner {
            Some((kind, name, _)) if kind != "Workload" => {
                format!("{kind} {}/{name} (Workload {wl})", self.namespace)
            }
            _ => format!("Workload {wl}"),
        }
    }

    fn cq_name(&self) -> String {
        self.cq
            .map(|(_, c)| c.metadata.name.clone())
            .unwrap_or_default()
    }

    /// "needs 3 cpu and 3 pods" for the given resources of a podset.
    fn needs_words(&self, podset: &str, resources: &[String]) -> String {
        let Some(n) = self.needs.iter().find(|n| n.name == podset) else {
            return String::new();
        };
        let parts: Vec<String> = resources
            .iter()
            .map(|r| show_with(r, n.total.get(r).copied().unwrap_or(0)))
            .collect();
        join_and(&parts)
    }

    /// The podset's arithmetic: `podSet main: 3 × (1 cpu, 200Mi memory)`.
    fn podset_words(&self, n: &PodSetNeed) -> String {
        let per: Vec<String> = n.per_pod.iter().map(|(r, u)| show_with(r, *u)).collect();
        format!(
            "podSet {}: {} × ({})",
            n.name,
            n.count,
            if per.is_empty() {
                "no requests".to_string()
            } else {
                per.join(", ")
            }
        )
    }

    fn cohort_words(&self, cq: &ClusterQueue) -> String {
        match cq.cohort() {
            None => "no cohort".to_string(),
            Some(c) => format!("cohort {c}"),
        }
    }

    /// The (message, help, cause) of the verdict, for the queue-stage rules.
    pub fn explain(&self, ctx: &Ctx) -> (String, String, String) {
        let subj = self.subject();
        let cq = self.cq_name();
        let lqn = self.wl.queue_name().unwrap_or("").to_string();
        match &self.verdict {
            Verdict::NoQueueName => (
                format!("{subj} names no LocalQueue (spec.queueName is empty), so no ClusterQueue will ever consider it"),
                "set the kueue.x-k8s.io/queue-name label on the Job (the Workload is rebuilt from it)".into(),
                "no-queue-name".into(),
            ),
            Verdict::LocalQueueMissing { name } => (
                format!(
                    "{subj} is queued to LocalQueue {name}, which does not exist in namespace {}: it can never be admitted",
                    self.namespace
                ),
                format!(
                    "create LocalQueue {name} in namespace {} pointing at a ClusterQueue, or fix the kueue.x-k8s.io/queue-name label",
                    self.namespace
                ),
                format!("localqueue-missing:{name}"),
            ),
            Verdict::LocalQueueStopped { policy } => (
                format!("{subj} is queued to LocalQueue {lqn}, which is stopped (stopPolicy: {policy}): it admits nothing until resumed"),
                format!("set stopPolicy: None on LocalQueue {}/{lqn} when admission should resume", self.namespace),
                format!("localqueue-stopped:{lqn}"),
            ),
            Verdict::LocalQueueInactive => {
                let c = self.lq.and_then(|(_, l)| l.active().cloned()).unwrap_or_default();
                (
                    format!(
                        "{subj} is queued to LocalQueue {lqn}, which is inactive (Active=False, reason {}: {})",
                        c.reason.as_deref().unwrap_or("(none)"),
                        c.message.as_deref().unwrap_or("")
                    ),
                    "fix what the LocalQueue's Active condition names (usually its ClusterQueue)".into(),
                    format!("localqueue-inactive:{lqn}"),
                )
            }
            Verdict::ClusterQueueMissing { name } => (
                format!(
                    "{subj}: LocalQueue {lqn} points at ClusterQueue {name}, which does not exist: the Workload can never be admitted"
                ),
                format!("create ClusterQueue {name}, or point the LocalQueue at an existing ClusterQueue (clusterQueue is immutable: recreate the LocalQueue)"),
                format!("clusterqueue-missing:{name}"),
            ),
            Verdict::ClusterQueueStopped { policy } => (
                format!("{subj}: ClusterQueue {cq} is stopped (stopPolicy: {policy}); it admits nothing until resumed"),
                format!("set stopPolicy: None on ClusterQueue {cq} when admission should resume"),
                format!("clusterqueue-stopped:{cq}"),
            ),
            Verdict::ClusterQueueInactive { reasons } => (
                format!("{subj}: ClusterQueue {cq} is inactive and admits nothing: it {}", reasons.join("; ")),
                "create the missing ResourceFlavors or AdmissionChecks (or remove them from the ClusterQueue); Kueue reactivates it by itself".into(),
                format!("clusterqueue-inactive:{cq}"),
            ),
            Verdict::NamespaceNotSelected { why } => (
                format!("{subj}: {why}, so Kueue never admits Workloads from namespace {}", self.namespace),
                format!(
                    "add `namespaceSelector: {{}}` (all namespaces) or a selector matching namespace {}'s labels to ClusterQueue {cq}, or label the namespace",
                    self.namespace
                ),
                format!("namespace-not-selected:{cq}"),
            ),
            Verdict::AdmissionChecks { worst } => {
                let list: Vec<String> = self
                    .wl
                    .status
                    .admission_checks
                    .iter()
                    .filter(|a| a.state != "Ready")
                    .map(|a| {
                        format!(
                            "{} {}{}",
                            a.name,
                            a.state,
                            a.message
                                .as_deref()
                                .filter(|m| !m.is_empty())
                                .map(|m| format!(" ({m})"))
                                .unwrap_or_default()
                        )
                    })
                    .collect();
                let admitted_cond = self.wl.condition("Admitted").filter(|c| c.status == "False");
                let what = if worst == "Ready" {
                    "every admission check is Ready, and Kueue has not marked it Admitted yet (the bundle caught it in between)".to_string()
                } else if list.is_empty() {
                    match admitted_cond {
                        Some(c) => format!(
                            "Admitted=False, reason {}: {}",
                            c.reason.as_deref().unwrap_or("(none)"),
                            c.message.as_deref().unwrap_or("")
                        ),
                        None => "admission checks are not all Ready (no per-check state recorded)".to_string(),
                    }
                } else {
                    format!("admission check(s) not Ready: {}", list.join(", "))
                };
                let reserved = if self.wl.has_quota_reserved() {
                    format!("has quota reserved in ClusterQueue {cq} but ")
                } else {
                    String::new()
                };
                (
                    format!("{subj} {reserved}is not admitted: {what}"),
                    match worst.as_str() {
                        "Rejected" => "a rejected check does not recover: read the check controller's message (e.g. the ProvisioningRequest) and recreate the Job after fixing it".into(),
                        "Retry" => "the check will be retried; read its message and the check controller's state (e.g. the ProvisioningRequest)".into(),
                        _ => "wait for the check's controller (e.g. a ProvisioningRequest being provisioned), or look at that controller if it does not progress".into(),
                    },
                    format!("admission-checks:{worst}"),
                )
            }
            Verdict::Uncovered { podset, resources } => (
                format!(
                    "{subj}: podSet {podset} requests {}, which ClusterQueue {cq} does not cover in any resource group: it can never be admitted",
                    resources.join(", ")
                ),
                format!("add {} to a resource group (coveredResources and a quota per flavor) of ClusterQueue {cq}, or drop the request", resources.join(", ")),
                format!("uncovered:{}", resources.join(",")),
            ),
            Verdict::NoMatchingFlavor { podset } => {
                let reasons: Vec<String> = self
                    .tries
                    .iter()
                    .filter(|t| &t.podset == podset)
                    .flat_map(|t| t.groups.iter())
                    .flat_map(|g| g.tries.iter())
                    .map(|t| match &t.outcome {
                        Try::Missing => format!("flavor {} does not exist", t.flavor),
                        Try::Mismatch(why) => why.clone(),
                        _ => String::new(),
                    })
                    .filter(|s| !s.is_empty())
                    .collect();
                (
                    format!(
                        "{subj}: no flavor of ClusterQueue {cq} can hold podSet {podset}: {}; it can never be admitted",
                        reasons.join("; ")
                    ),
                    "make the podset's nodeSelector/affinity and tolerations fit one of the ClusterQueue's flavors (nodeLabels, nodeTaints), or add a flavor that fits".into(),
                    format!("no-matching-flavor:{podset}"),
                )
            }
            Verdict::Never { podset } => self.never_words(ctx, podset),
            Verdict::Later { podset } => self.later_words(ctx, podset),
            Verdict::StrictFifo { head } => {
                let hw = ctx.workload(*head);
                let hname = format!(
                    "{}/{}",
                    self.snap.object(*head).namespace.as_deref().unwrap_or(""),
                    self.snap.object(*head).name
                );
                (
                    format!(
                        "{subj} would fit, but ClusterQueue {cq} uses StrictFIFO and Workload {hname} (priority {}, {}) is ahead of it and not admitted: it blocks every Workload behind it",
                        hw.map(|w| w.priority()).unwrap_or(0),
                        hw.and_then(|w| w.metadata.creation_timestamp.clone())
                            .map(|t| format!("created {t}"))
                            .unwrap_or_else(|| "creation time unknown".into())
                    ),
                    format!("find out why {hname} is not admitted (kdiag why workload/{} -n {}), or switch ClusterQueue {cq} to BestEffortFIFO", self.snap.object(*head).name, self.snap.object(*head).namespace.as_deref().unwrap_or("")),
                    "strict-fifo-blocked".into(),
                )
            }
            Verdict::FitsNow => {
                let kueue = self
                    .kueue
                    .as_ref()
                    .map(|k| format!("; Kueue says ({}=False, reason {}): {}", k.condition, k.reason, k.message))
                    .unwrap_or_else(|| "; Kueue has written no condition yet (pending evaluation)".into());
                (
                    format!("{subj} is not admitted although the recomputation finds room for it in ClusterQueue {cq}{kueue}"),
                    "the bundle may predate Kueue's next scheduling cycle; if it stays pending, compare the quota table (kdiag why) with Kueue's message and the kueue-controller-manager log".into(),
                    "pending".into(),
                )
            }
            Verdict::NotCollected { kind, name } => (
                format!(
                    "{subj} is not admitted, and the bundle lacks the {kind} it needs ({name}), so the admission chain cannot be followed{}",
                    self.kueue
                        .as_ref()
                        .map(|k| format!("; Kueue says ({}=False, reason {}): {}", k.condition, k.reason, k.message))
                        .unwrap_or_default()
                ),
                "collect the Kueue objects with their spec and status (kubectl get workloads,localqueues -A -o yaml; kubectl get clusterqueues,resourceflavors,cohorts,admissionchecks -o yaml)".into(),
                format!("not-collected:{}", kind.replace(' ', "-")),
            ),
            Verdict::Admitted | Verdict::Finished | Verdict::Inactive | Verdict::Backoff { .. } => {
                (String::new(), String::new(), String::new())
            }
        }
    }

    /// (flavor, resource) pairs of a podset's resource groups whose first quota failure
    /// was the maximum capacity.
    fn exceeding(&self, podset: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for t in self.tries.iter().filter(|t| t.podset == podset) {
            for g in &t.groups {
                if let Some(first) = g
                    .tries
                    .iter()
                    .find(|f| matches!(f.outcome, Try::Exceeds { .. }))
                {
                    for res in &g.resources {
                        out.push((first.flavor.clone(), res.clone()));
                    }
                }
            }
        }
        out
    }

    fn never_words(&self, ctx: &Ctx, podset: &str) -> (String, String, String) {
        let subj = self.subject();
        let (_, cq) = self.cq.expect("quota verdicts have a ClusterQueue");
        let node = Node::Cq(cq.metadata.name.clone());
        // Resources over their maximum capacity in the first flavor that failed on quota.
        let mut flavor = String::new();
        let mut over: Vec<(String, Units, Units, Units)> = Vec::new();
        for (f, res) in self.exceeding(podset) {
            if flavor.is_empty() {
                flavor = f.clone();
            }
            if f != flavor {
                continue;
            }
            let fr = (f.clone(), res.clone());
            let max = ctx.tree.max_capacity(&node, &fr);
            let nominal = ctx.tree.limits(&node, &fr).map(|l| l.nominal).unwrap_or(0);
            let need = self
                .needs
                .iter()
                .find(|n| n.name == podset)
                .and_then(|n| n.total.get(&res))
                .copied()
                .unwrap_or(0);
            if need > max {
                over.push((res, need, max, nominal));
            }
        }
        let resources: Vec<String> = over.iter().map(|o| o.0.clone()).collect();
        let need = self.needs_words(podset, &resources);
        let nominal = join_and(
            &over
                .iter()
                .map(|(r, _, _, n)| show_with(r, *n))
                .collect::<Vec<_>>(),
        );
        let borrow = match cq.cohort() {
            None => "no cohort".to_string(),
            Some(c) => {
                let caps: Vec<String> = over
                    .iter()
                    .map(|(r, _, max, _)| {
                        let fr = (flavor.clone(), r.clone());
                        match ctx.tree.limits(&node, &fr).and_then(|l| l.borrowing) {
                            Some(b) => {
                                format!("{} (borrowingLimit {})", show_with(r, *max), show(r, b))
                            }
                            None => show_with(r, *max),
                        }
                    })
                    .collect();
                format!(
                    "at most {} with everything cohort {c} can lend",
                    join_and(&caps)
                )
            }
        };
        let other = self.other_flavor_words(podset, &flavor);
        let multi = self.needs.len() > 1
            || self
                .tries
                .iter()
                .any(|t| t.groups.iter().any(|g| g.tries.len() > 1));
        let flavor_words = if multi {
            format!(" in flavor {flavor}")
        } else {
            String::new()
        };
        (
            format!(
                "{subj} needs {need}{flavor_words}; ClusterQueue {} has {nominal} nominal, {borrow}{other}: this Workload can never be admitted",
                cq.metadata.name
            ),
            if cq.cohort().is_some() {
                format!(
                    "raise nominalQuota (or borrowingLimit) for {} in ClusterQueue {}, give the cohort more to lend, or request less (parallelism, per-pod requests)",
                    join_and(&resources),
                    cq.metadata.name
                )
            } else {
                format!(
                    "raise nominalQuota for {} in ClusterQueue {}, put it in a cohort it can borrow from, or request less (parallelism, per-pod requests)",
                    join_and(&resources),
                    cq.metadata.name
                )
            },
            format!("never:{}", resources.join(",")),
        )
    }

    /// "; flavor spot: untolerated taint …" for the other flavors of the same podset.
    fn other_flavor_words(&self, podset: &str, except: &str) -> String {
        let words: Vec<String> = self
            .tries
            .iter()
            .filter(|t| t.podset == podset)
            .flat_map(|t| t.groups.iter())
            .flat_map(|g| g.tries.iter())
            .filter(|t| t.flavor != except)
            .map(|t| match &t.outcome {
                Try::Missing => format!("flavor {} does not exist", t.flavor),
                Try::Mismatch(w) => w.clone(),
                Try::Exceeds {
                    resource,
                    need,
                    max,
                } => format!(
                    "flavor {} can give at most {} of the {} needed",
                    t.flavor,
                    show_with(resource, *max),
                    show(resource, *need)
                ),
                Try::Short { .. } | Try::Fits => String::new(),
            })
            .filter(|s| !s.is_empty())
            .collect();
        if words.is_empty() {
            String::new()
        } else {
            format!(" ({})", words.join("; "))
        }
    }

    fn later_words(&self, ctx: &Ctx, podset: &str) -> (String, String, String) {
        let subj = self.subject();
        let (_, cq) = self.cq.expect("quota verdicts have a ClusterQueue");
        let node = Node::Cq(cq.metadata.name.clone());
        let mut shorts: Vec<(String, String, Units, Units)> = Vec::new();
        for t in self.tries.iter().filter(|t| t.podset == podset) {
            for g in &t.groups {
                if g.fits().is_some() {
                    continue;
                }
                if let Some(ft) = g
                    .tries
                    .iter()
                    .find(|f| matches!(f.outcome, Try::Short { .. }))
                    && let Try::Short {
                        resource,
                        need,
                        free,
                    } = &ft.outcome
                {
                    shorts.push((ft.flavor.clone(), resource.clone(), *need, *free));
                }
            }
        }
        let parts: Vec<String> = shorts
            .iter()
            .map(|(f, r, need, free)| {
                let fr = (f.clone(), r.clone());
                let nominal = ctx.tree.limits(&node, &fr).map(|l| l.nominal).unwrap_or(0);
                let reserved = ctx.tree.usage(&node, &fr);
                let max = ctx.tree.max_capacity(&node, &fr);
                let free = (*free).max(0);
                let mut s = format!(
                    "needs {} in flavor {f}; ClusterQueue {} has {} nominal and {} reserved",
                    show_with(r, *need),
                    cq.metadata.name,
                    show_with(r, nominal),
                    show(r, reserved),
                );
                if cq.cohort().is_some() {
                    s.push_str(&format!(
                        "; with what {} can lend, {} free now ({} at most)",
                        self.cohort_words(cq),
                        show(r, free),
                        show(r, max)
                    ));
                } else {
                    s.push_str(&format!(", {} free", show(r, free)));
                }
                s.push_str(&format!(": {} more needed", show(r, need - free)));
                s
            })
            .collect();
        let mut holders: BTreeMap<ObjectId, Vec<String>> = BTreeMap::new();
        for (id, _f, r, amount) in &self.holders {
            holders.entry(*id).or_default().push(show_with(r, *amount));
        }
        let names: Vec<String> = holders
            .iter()
            .take(5)
            .map(|(id, amounts)| {
                let o = self.snap.object(*id);
                let cqn = ctx
                    .workload(*id)
                    .and_then(|w| w.status.admission.as_ref())
                    .map(|a| a.cluster_queue.clone())
                    .unwrap_or_default();
                let where_ = if cqn != cq.metadata.name {
                    format!(" in {cqn}")
                } else {
                    String::new()
                };
                format!(
                    "{}/{} ({}{where_})",
                    o.namespace.as_deref().unwrap_or(""),
                    o.name,
                    amounts.join(", ")
                )
            })
            .collect();
        let held = if names.is_empty() {
            String::new()
        } else {
            format!(
                "; held by {}: {}{}",
                if self.holders_total == 1 {
                    "an admitted Workload".to_string()
                } else {
                    format!("{} admitted Workloads", self.holders_total)
                },
                names.join(", "),
                if self.holders_total > names.len() {
                    ", …"
                } else {
                    ""
                }
            )
        };
        let fifo = if cq.is_strict_fifo() {
            " (StrictFIFO: Workloads behind it wait too)"
        } else {
            ""
        };
        let resources: Vec<String> = shorts.iter().map(|s| s.1.clone()).collect();
        (
            format!(
                "{subj} {}{held}: it fits once they finish or are preempted{fifo}",
                parts.join("; ")
            ),
            format!(
                "wait for the Workloads holding the quota to finish, enable preemption (spec.preemption) with a higher priority for this one, or raise nominalQuota for {} in ClusterQueue {}",
                join_and(&resources),
                cq.metadata.name
            ),
            format!("later:{}", resources.join(",")),
        )
    }

    /// Evidence for every hop, Kueue's own words, and what the recomputation rests on.
    pub fn evidence(&self, ctx: &Ctx) -> Vec<Evidence> {
        let snap = self.snap;
        let mut ev = Vec::new();
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
        // LocalQueue.
        let qname = self.wl.queue_name().unwrap_or("");
        match self.lq {
            Some((lid, lq)) => {
                let active = lq
                    .active()
                    .map(|c| format!(", Active={}{}", c.status, c.reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default()))
                    .unwrap_or_default();
                let stop = lq.spec.stop_policy.as_deref().filter(|p| *p != "None").map(|p| format!(", stopPolicy {p}")).unwrap_or_default();
                ev.push(ctx.field(lid,
                    &["spec", if lq.is_stopped() { "stopPolicy" } else { "clusterQueue" }],
                    format!("LocalQueue {}/{qname} → ClusterQueue {}{stop}{active}", self.namespace, lq.spec.cluster_queue),
                ));
            }
            None if matches!(
                self.verdict,
                Verdict::LocalQueueMissing { .. } | Verdict::NotCollected { kind: "LocalQueue", .. }
            ) =>
            {
                ev.push(missing(
                "LocalQueue",
                Some(&self.namespace),
                qname,
                &if snap.has_kind("LocalQueue") {
                    format!("LocalQueue {}/{qname} is not in the bundle (the bundle has other LocalQueues)", self.namespace)
                } else {
                    "the bundle holds no LocalQueues".to_string()
                },
                ))
            }
            None => {}
        }
        // ClusterQueue.
        match self.cq {
            Some((cid, cq)) => ev.extend(self.cq_evidence(ctx, cid, cq)),
            None => {
                if let Verdict::ClusterQueueMissing { name }
                | Verdict::NotCollected {
                    kind: "ClusterQueue",
                    name,
                } = &self.verdict
                {
                    ev.push(missing(
                        "ClusterQueue",
                        None,
                        name,
                        &if snap.has_kind("ClusterQueue") {
                            format!("ClusterQueue {name} is not in the bundle (the bundle has other ClusterQueues)")
                        } else {
                            "the bundle holds no ClusterQueues".into()
                        },
                    ));
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
                            .map(|c| {
                                format!(
                                    ", Active={}{}",
                                    c.status,
                                    c.reason
                                        .as_deref()
                                        .map(|r| format!(" ({r})"))
                                        .unwrap_or_default()
                                )
                            })
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
                    let node = Node::Cq(name.clone());
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
                        if cited.contains(&fr) {
                            continue;
                        }
                        cited.push(fr.clone());
                        let l = ctx.tree.limits(&node, &fr).cloned().unwrap_or_default();
                        ev.push(ctx.field(cid,
                            &["spec", "resourceGroups", &format!("name={}", ft.flavor), &format!("name={r}"), "nominalQuota"],
                            format!(
                                "flavor {} {r}: nominalQuota {}{}{}; reserved {} (status.flavorsReservation); max capacity {}, free {}",
                                ft.flavor,
                                show(&r, l.nominal),
                                l.borrowing.map(|b| format!(", borrowingLimit {}", show(&r, b))).unwrap_or_default(),
                                l.lending.map(|b| format!(", lendingLimit {}", show(&r, b))).unwrap_or_default(),
                                show(&r, ctx.tree.usage(&node, &fr)),
                                show(&r, ctx.tree.max_capacity(&node, &fr)),
                                show(&r, ctx.tree.available(&node, &fr).max(0)),
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
                    "per_pod": n.per_pod.iter().map(|(r, u)| (r.clone(), Value::from(show(r, *u)))).collect::<serde_json::Map<_, _>>(),
                    "total": n.total.iter().map(|(r, u)| (r.clone(), Value::from(show(r, *u)))).collect::<serde_json::Map<_, _>>(),
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
                            Try::Exceeds { resource, need, max } => ("exceeds-capacity", json!({"resource": resource, "need": show(resource, *need), "max_capacity": show(resource, *max)})),
                            Try::Short { resource, need, free } => ("insufficient-unused", json!({"resource": resource, "need": show(resource, *need), "free": show(resource, (*free).max(0))})),
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
                json!({"workload": format!("{}/{}", o.namespace.as_deref().unwrap_or(""), o.name), "flavor": f, "resource": r, "amount": show(r, *a)})
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
        f
    }
}

/// The quota table of a ClusterQueue: flavor × resource with nominal, limits, reserved,
/// free now, maximum capacity, and what the chain's Workload needs there.
pub fn quota_table(ctx: &Ctx, cq: &ClusterQueue, chain: Option<&Chain>) -> Vec<Value> {
    let node = Node::Cq(cq.metadata.name.clone());
    let mut rows = Vec::new();
    for g in &cq.spec.resource_groups {
        for f in &g.flavors {
            for r in &f.resources {
                let fr = (f.name.clone(), r.name.clone());
                let l = ctx.tree.limits(&node, &fr).cloned().unwrap_or_default();
                let needed = chain.and_then(|c| {
                    let mut sum = 0;
                    let mut any = false;
                    for t in &c.tries {
                        for gt in &t.groups {
                            if !gt.resources.contains(&r.name) {
                                continue;
                            }
                            let chosen = gt.fits().map(str::to_string).or_else(|| {
                                gt.tries
                                    .iter()
                                    .find(|x| !matches!(x.outcome, Try::Missing | Try::Mismatch(_)))
                                    .map(|x| x.flavor.clone())
                            });
                            if chosen.as_deref() == Some(f.name.as_str()) {
                                any = true;
                                sum += c
                                    .needs
                                    .iter()
                                    .find(|n| n.name == t.podset)
                                    .and_then(|n| n.total.get(&r.name))
                                    .copied()
                                    .unwrap_or(0);
                            }
                        }
                    }
                    any.then_some(sum)
                });
                rows.push(json!({
                    "cluster_queue": cq.metadata.name,
                    "flavor": f.name,
                    "resource": r.name,
                    "nominal": show(&r.name, l.nominal),
                    "borrowing_limit": l.borrowing.map(|b| show(&r.name, b)),
                    "lending_limit": l.lending.map(|b| show(&r.name, b)),
                    "reserved": show(&r.name, ctx.tree.usage(&node, &fr)),
                    "free": show(&r.name, ctx.tree.available(&node, &fr).max(0)),
                    "max_capacity": show(&r.name, ctx.tree.max_capacity(&node, &fr)),
                    "needed": needed.map(|n| show(&r.name, n)),
                }));
            }
        }
    }
    rows
}

/// The verdict's word in `details.verdict` (and the key rules select Workloads by).
pub fn verdict_word(v: &Verdict) -> &'static str {
    match v {
        Verdict::Finished => "finished",
        Verdict::Admitted => "admitted",
        Verdict::Inactive => "inactive",
        Verdict::Backoff { .. } => "requeue-backoff",
        Verdict::NoQueueName => "no-queue-name",
        Verdict::LocalQueueMissing { .. } => "localqueue-missing",
        Verdict::LocalQueueStopped { .. } => "localqueue-stopped",
        Verdict::LocalQueueInactive => "localqueue-inactive",
        Verdict::ClusterQueueMissing { .. } => "clusterqueue-missing",
        Verdict::ClusterQueueStopped { .. } => "clusterqueue-stopped",
        Verdict::ClusterQueueInactive { .. } => "clusterqueue-inactive",
        Verdict::NamespaceNotSelected { .. } => "namespace-not-selected",
        Verdict::AdmissionChecks { .. } => "admission-checks",
        Verdict::Uncovered { .. } => "resource-not-covered",
        Verdict::NoMatchingFlavor { .. } => "no-matching-flavor",
        Verdict::Never { .. } => "never-fits",
        Verdict::Later { .. } => "fits-later",
        Verdict::StrictFifo { .. } => "strict-fifo-blocked",
        Verdict::FitsNow => "fits-now",
        Verdict::NotCollected { .. } => "not-collected",
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

pub fn flavor_words(rf: &ResourceFlavor, why: Option<&str>) -> String {
    let labels: Vec<String> = rf
        .spec
        .node_labels
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let taints: Vec<String> = rf
        .spec
        .node_taints
        .iter()
        .map(|t| {
            format!(
                "{}{}:{}",
                t.key,
                t.value
                    .as_deref()
                    .map(|v| format!("={v}"))
                    .unwrap_or_default(),
                t.effect
            )
        })
        .collect();
    let tols: Vec<String> = rf
        .spec
        .tolerations
        .iter()
        .map(|t| {
            format!(
                "{}{}{}",
                t.key.as_deref().unwrap_or("*"),
                t.value
                    .as_deref()
                    .map(|v| format!("={v}"))
                    .unwrap_or_default(),
                t.effect
                    .as_deref()
                    .map(|e| format!(":{e}"))
                    .unwrap_or_default()
            )
        })
        .collect();
    let mut s = format!(
        "ResourceFlavor {}: nodeLabels {}",
        rf.metadata.name,
        if labels.is_empty() {
            "(none)".into()
        } else {
            labels.join(", ")
        }
    );
    if !taints.is_empty() {
        s.push_str(&format!(", nodeTaints {}", taints.join(", ")));
    }
    if !tols.is_empty() {
        s.push_str(&format!(", tolerations {}", tols.join(", ")));
    }
    if let Some(w) = why {
        s.push_str(&format!(" — {w}"));
    }
    s
}

/// `{}` (all), `team=ml`, `env In [a, b]`.
pub fn describe_selector(sel: &crate::kube::meta::LabelSelector) -> String {
    let mut parts: Vec<String> = sel
        .match_labels
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    for r in &sel.match_expressions {
        if r.values.is_empty() {
            parts.push(format!("{} {}", r.key, r.operator));
        } else {
            parts.push(format!(
                "{} {} [{}]",
                r.key,
                r.operator,
                r.values.join(", ")
            ));
        }
    }
    if parts.is_empty() {
        "{} (all namespaces)".into()
    } else {
        parts.join(", ")
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn join_and(parts: &[String]) -> String {
    match parts.len() {
        0 => String::new(),
        1 => parts[0].clone(),
        n => format!("{} and {}", parts[..n - 1].join(", "), parts[n - 1]),
    }
}

/// `3m` from now, for back-off times.
pub fn until_words(snap: &Snapshot, at: i64) -> String {
    match snap.as_of {
        Some(asof) if at > asof => format!("in {}", format_duration(at - asof)),
        Some(asof) => format!("{} ago", format_duration(asof - at)),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_every_wording() {
        let c = |r: &str, m: &str| classify(r, m);
        assert_eq!(
            c(
                "Pending",
                "couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default-flavor in ClusterQueue"
            ),
            Class::Never
        );
        assert_eq!(
            c(
                "Pending",
                "couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default, request > maximum capacity (3 > 2)"
            ),
            Class::Never
        );
        assert_eq!(
            c(
                "ExceedsMaxQuota",
                "insufficient quota for cpu in flavor one, previously considered podsets requests (0) + current podset request (5) > maximum capacity (4)"
            ),
            Class::Never
        );
        assert_eq!(
            c(
                "Pending",
                "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default-flavor, 9 more needed"
            ),
            Class::Later
        );
        assert_eq!(
            c(
                "Pending",
                "insufficient unused quota in cohort for cpu in flavor default, 1 more needed"
            ),
            Class::Later
        );
        assert_eq!(
            c("Inadmissible", "LocalQueue user-queue doesn't exist"),
            Class::QueueLink
        );
        assert_eq!(
            c("Suspended", "ClusterQueue cq is inactive"),
            Class::QueueLink
        );
        assert_eq!(
            c(
                "Misconfigured",
                "workload namespace doesn't match ClusterQueue selector"
            ),
            Class::Namespace
        );
        assert_eq!(
            c(
                "NoMatchingFlavor",
                "couldn't assign flavors to pod set main: untolerated taint {spot true NoSchedule <nil>} in flavor spot"
            ),
            Class::NoFlavor
        );
        assert_eq!(
            c(
                "Pending",
                "couldn't assign flavors to pod set main: flavor spot doesn't match with node affinity"
            ),
            Class::NoFlavor
        );
        assert_eq!(
            c(
                "WaitingForQuota",
                "Workload no longer fits after processing another workload"
            ),
            Class::Later
        );
        assert_eq!(
            c(
                "PendingEvaluation",
                "The workload has failed admission checks"
            ),
            Class::Checks
        );
        assert_eq!(
            c(
                "PendingEvaluation",
                "Workload is pending evaluation in the scheduling queue"
            ),
            Class::Other
        );
    }
}

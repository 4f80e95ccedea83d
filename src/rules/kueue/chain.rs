//! The admission chain of one Workload: Workload → LocalQueue → ClusterQueue →
//! ResourceFlavor → Cohort, the first broken link, and the quota arithmetic
//! (kubernetes-semantics.md §1). Rules and `kdiag why` both read it.
//!
//! This file holds the chain's types, the per-snapshot [`Ctx`] and the walk that finds
//! the verdict; the rest is in `chain/`: [`mod@kueue_says`] (Kueue's own condition and
//! its classification), [`quota`] (flavor tries, quota holders, the quota table),
//! `message` (each verdict's message, help and cause), [`evidence`], `finding` (the
//! structured details and the Finding) and [`words`] (wording helpers).

pub mod evidence;
mod finding;
pub mod kueue_says;
mod message;
pub mod quota;
pub mod words;

use super::model::{self, FlavorResource, QuotaTree, Units, holdings, limit_defaults};
use crate::kube::kueue::{ClusterQueue, LocalQueue, ResourceFlavor, Workload};
use crate::kube::time::parse_timestamp;
use crate::rules::Evidence;
use crate::snapshot::{ObjectId, Snapshot};
use kueue_says::{Class, KueueSays, kueue_says};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use words::describe_selector;

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
    /// The flavor the podset's usage is charged to while later podsets are tried: the
    /// first that fits, else the first short of unused quota (as the walk assigns it).
    pub fn chosen(&self) -> Option<&str> {
        self.fits().or_else(|| {
            self.tries
                .iter()
                .find(|t| matches!(t.outcome, Try::Short { .. }))
                .map(|t| t.flavor.as_str())
        })
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
    /// The LocalQueue or ClusterQueue is not in the bundle (which does not list them
    /// whole), but Kueue's own condition was written after it resolved both (flavor
    /// assignment, quota, topology, admission checks, the namespace selector): Kueue's
    /// cause is the headline, the queues the bundle lacks are missing evidence.
    KueueCause {
        class: Class,
        /// "LocalQueue ns/q", "ClusterQueue c": what the bundle lacks.
        unseen: Vec<String>,
    },
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

/// The verdict word of every live Workload, computed once per run and shared by the Kueue
/// rules ([`crate::rules::Context::model`]); each rule then re-analyzes only the Workloads
/// whose verdict it reports.
pub struct Verdicts;

impl crate::rules::Model for Verdicts {
    type Of<'a> = Vec<(ObjectId, &'static str)>;
    fn build(snapshot: &Snapshot) -> Self::Of<'_> {
        verdicts(snapshot)
    }
}

/// (Workload, verdict word) for every live Workload of a snapshot.
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
    ctx.model::<Verdicts>()
        .iter()
        .filter(|(_, w)| words.contains(w))
        .map(|(id, _)| *id)
        .collect()
}

/// A live object carries a status or a creation time (manifests and examples do not).
/// Read from the object's text: its whole tree, built and kept for every Workload, was
/// 15 MB at 1 GB.
pub fn is_live(snap: &Snapshot, id: ObjectId) -> bool {
    let o = snap.object(id);
    if let Ok(l) = o.deserialize::<Liveness>() {
        return l.metadata.is_some_and(|m| m.created) || l.status.is_some();
    }
    let v = o.value();
    v.pointer("/metadata/creationTimestamp").is_some()
        || v.get("status").is_some_and(|s| !s.is_null())
}

/// What [`is_live`] reads: whether `metadata.creationTimestamp` is there (of any value)
/// and `status` is there and not null.
#[derive(serde::Deserialize)]
struct Liveness {
    #[serde(default)]
    metadata: Option<Created>,
    #[serde(default)]
    status: Option<serde::de::IgnoredAny>,
}

#[derive(serde::Deserialize)]
struct Created {
    #[serde(default, rename = "creationTimestamp", deserialize_with = "present")]
    created: bool,
}

/// True for a value of any shape: the key is there.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    <serde::de::IgnoredAny as serde::Deserialize>::deserialize(d).map(|_| true)
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
            None if self.kueue_says_missing("LocalQueue ")
                || snap.listed_whole("LocalQueue", Some(&ns)) =>
            {
                return Verdict::LocalQueueMissing {
                    name: qname.to_string(),
                };
            }
            None => {
                let unseen = vec![format!("LocalQueue {ns}/{qname}")];
                return match self.kueue_resolved_queues() {
                    Some(class) => Verdict::KueueCause { class, unseen },
                    None => Verdict::NotCollected {
                        kind: "LocalQueue",
                        name: format!("{ns}/{qname}"),
                    },
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
            None if self.kueue_says_missing("ClusterQueue ")
                || snap.listed_whole("ClusterQueue", None) =>
            {
                return Verdict::ClusterQueueMissing { name: cq_name };
            }
            None => {
                let unseen = vec![format!("ClusterQueue {cq_name}")];
                return match self.kueue_resolved_queues() {
                    Some(class) => Verdict::KueueCause { class, unseen },
                    None => Verdict::NotCollected {
                        kind: "ClusterQueue",
                        name: cq_name,
                    },
                };
            }
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
                .get(cq.metadata.name.as_str())
                .and_then(|ids| ids.first())
                .filter(|h| **h != self.id)
            && ctx.workload(*head).is_some()
        {
            return Verdict::StrictFifo { head: *head };
        }
        Verdict::FitsNow
    }

    /// Kueue's own message says the queue (`"LocalQueue "`, `"ClusterQueue "`) does not
    /// exist ("LocalQueue %s doesn't exist", "ClusterQueue %s doesn't exist").
    fn kueue_says_missing(&self, prefix: &str) -> bool {
        self.kueue.as_ref().is_some_and(|k| {
            k.class == Class::QueueLink
                && k.message.starts_with(prefix)
                && (k.message.contains("doesn't exist") || k.message.contains("not found"))
        })
    }

    /// The class of Kueue's condition when Kueue wrote it only after it resolved the
    /// Workload's LocalQueue and ClusterQueue: a quota reservation, or a Pending message
    /// of the scheduler's nomination (the namespace selector, flavor assignment with its
    /// quota and topology reasons, admission checks). Kueue's queue manager writes the
    /// messages of a missing or stopped queue before that.
    fn kueue_resolved_queues(&self) -> Option<Class> {
        if self.wl.has_quota_reserved() {
            return Some(self.kueue.as_ref().map_or(Class::Checks, |k| k.class));
        }
        let k = self.kueue.as_ref()?;
        let nominated = matches!(
            k.class,
            Class::Namespace
                | Class::NoFlavor
                | Class::Never
                | Class::Later
                | Class::Checks
                | Class::Topology
        ) || k.message.starts_with("couldn't assign flavors to pod set ");
        nominated.then_some(k.class)
    }

    fn cq_inactive_reasons(&mut self, ctx: &Ctx, cq: &ClusterQueue) -> Vec<String> {
        let snap = self.snap;
        let mut reasons = Vec::new();
        let flavors_collected = snap.listed_whole("ResourceFlavor", None);
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
                "the bundle holds {} ResourceFlavors, so flavor(s) {} could not be checked",
                if snap.has_kind("ResourceFlavor") {
                    "no complete list of"
                } else {
                    "no"
                },
                missing.join(", ")
            ));
        }
        let checks = cq.admission_check_rules();
        if snap.has_kind("AdmissionCheck") {
            let mut gone = Vec::new();
            let mut inactive = Vec::new();
            for (name, _) in &checks {
                match snap.find("AdmissionCheck", None, name) {
                    None if snap.listed_whole("AdmissionCheck", None) => gone.push(name.clone()),
                    None => self.notes.push(format!(
                        "AdmissionCheck {name} is not in the bundle, which holds no complete list of AdmissionChecks: whether it exists is unknown"
                    )),
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
        Verdict::KueueCause { class, .. } => match class {
            Class::NoFlavor => "kueue-says-no-matching-flavor",
            Class::Never => "kueue-says-never-fits",
            Class::Later => "kueue-says-fits-later",
            Class::Checks => "kueue-says-admission-checks",
            Class::Namespace => "kueue-says-namespace-not-selected",
            Class::Topology => "kueue-says-topology",
            Class::QueueLink | Class::Fits | Class::Other => "kueue-says-pending",
        },
    }
}

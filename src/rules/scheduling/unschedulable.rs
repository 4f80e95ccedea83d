//! `scheduling/unschedulable`: recomputes why a pending pod has no node.

//!
//! The parts it is built from are split by what they hold: `claims` (the pod's
//! PersistentVolumeClaims), `fit_text` (the sentences and evidence about the nodes),
//! `preemption`, `autoscaler` and `scheduler_compare` (the recomputation against the
//! scheduler's own message), private modules of `rules::scheduling`.

use super::autoscaler::autoscaler;
use super::claims::{Claim, ClaimState, claims};
use super::fit::{self, Exclusion};
use super::fit_text::{
    closest, list_first_names, list_names, need_text, node_room_evidence, phrase,
    requests_evidence, short_resources,
};
use super::message::FitMessage;
use super::no_room::SharedCauses;
use super::placer::{Fits, Group, Placer};
use super::preemption::preemption;
use super::scheduler_compare::{compare, scheduler_cause, unrecomputed_reasons};
use super::waiting::{Wait, Waiting};
use crate::declare_rule;
use crate::kube::event::Event;
use crate::kube::meta::ObjectRef;
use crate::kube::placement::is_not_ready_taint;
use crate::kube::pod::Pod;
use crate::kube::requests::{Units, UnreadRequest, pod_units, unread_requests};
use crate::kube::time::{format_duration, parse_timestamp};
use crate::rules::common_cause::SharedCause;
use crate::rules::evidence;
use crate::rules::node_usage::Usage;
use crate::rules::pod_findings::{self, Case};
use crate::rules::reach::Reach;
use crate::rules::{CauseHint, Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use foldhash::HashMap;
use std::collections::BTreeMap;
use std::sync::Arc;

declare_rule! {
    /// Recomputes why a pending pod has no node, node by node, from the bundle.
    ///
    /// For each node: allocatable minus the requests of the non-terminated pods bound
    /// there against the pod's effective request (init containers, sidecars, pod-level
    /// resources, overhead), untolerated NoSchedule/NoExecute taints, nodeSelector and
    /// required node affinity, cordons, host ports, PV node affinity, DoNotSchedule
    /// topology spread (domains, minDomains, node policies, matchLabelKeys) and required
    /// pod (anti-)affinity; and the pod's claims (a missing or unbound Immediate claim blocks
    /// every node; WaitForFirstConsumer is not a storage fault). The finding says which
    /// constraint excludes how many nodes, names the closest node and its shortfall, says
    /// whether preemption could help and whether an autoscaler is adding nodes, and quotes
    /// the scheduler's own message (any wording since 1.19) — naming the count that
    /// disagrees with the bundle, or the node added after it.
    /// Scheduling-gated pods are left to the stage classifier.
    pub static UNSCHEDULABLE = {
        id: "scheduling/unschedulable",
        stage: Stage::Scheduling,
        severity: Severity::Error,
        fallback: false,
        // Wide: a node's free room counts the pods of every namespace; a pending pod is a case by its own status, and only it, nodes and its Events are cited.
        reach: Reach::Wide(|inv| inv.grouped_cases()),
        run: run,
    };
}

/// One pod's analysis, before grouping.
struct Analysis {
    cause: String,
    severity: Severity,
    case: Case,
    /// Evidence shown once per group (nodes, claims, autoscaler).
    extra: Vec<Evidence>,
    help: String,
    /// What the nodes' verdicts share with other pods' (see [`super::no_room`]).
    shared: Option<Arc<SharedCause>>,
    /// The request is larger than any node's allocatable.
    hopeless_size: bool,
    /// Findings that explain it (a stuck deletion it waits for).
    causes: Vec<CauseHint>,
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let pending: Vec<(ObjectId, &Pod)> = snap
        .pods()
        .iter()
        .filter(|(_, p)| is_candidate(p))
        .map(|(id, p)| (*id, &**p))
        .collect();
    if pending.is_empty() {
        return Vec::new();
    }
    let usage = Usage::build(snap);
    let placer = Placer::new(snap, &usage);
    placer.expect(pending.iter().copied());
    let mut shared_causes = SharedCauses::default();
    let waiting = ctx.model::<Waiting>();
    let mut groups: BTreeMap<(ObjectRef, String), Vec<Analysis>> = BTreeMap::new();
    for (id, pod) in pending {
        if let Some(a) = analyze(snap, &placer, &mut shared_causes, waiting, id, pod) {
            groups
                .entry((pod_findings::owner_of(snap, id), a.cause.clone()))
                .or_default()
                .push(a);
        }
    }
    groups
        .into_iter()
        .map(|((owner, cause), list)| {
            let severity = list
                .iter()
                .map(|a| a.severity)
                .min()
                .unwrap_or(Severity::Error);
            let help = list[0].help.clone();
            // Shared only when every pod of the group names the same nodes' verdicts.
            let same = list.iter().all(|a| {
                a.shared.as_ref().map(|s| &s.key) == list[0].shared.as_ref().map(|s| &s.key)
            });
            let mut extra = Vec::new();
            let mut shared = None;
            let mut cases = Vec::new();
            let mut causes: Vec<CauseHint> = Vec::new();
            for (i, a) in list.into_iter().enumerate() {
                if i == 0 {
                    extra = a.extra;
                    shared = a.shared.filter(|_| same);
                }
                for c in a.causes {
                    if !causes.contains(&c) {
                        causes.push(c);
                    }
                }
                cases.push(a.case);
            }
            let mut f = pod_findings::pods_finding(
                snap,
                &UNSCHEDULABLE,
                severity,
                owner,
                &cause,
                cases,
                help,
            );
            f.evidence.extend(extra);
            f.shared = shared;
            f.causes = causes;
            f
        })
        .collect()
}

/// Pending, no node, not being deleted, not gated.
pub(super) fn is_candidate(p: &Pod) -> bool {
    p.spec.node_name.as_deref().is_none_or(str::is_empty)
        && p.phase() == "Pending"
        && p.metadata.deletion_timestamp.is_none()
        && p.spec.scheduling_gates.is_empty()
}

/// What the scheduler and the bundle said about one pending pod, read once for every
/// verdict.
pub(super) struct Said {
    id: ObjectId,
    /// The scheduler's message: the condition's or the latest FailedScheduling event's,
    /// one that parses first.
    pub(super) text: Option<String>,
    pub(super) parsed: Option<FitMessage>,
    /// A PodScheduled=False condition or a FailedScheduling event exists.
    pub(super) has_evidence: bool,
    /// When the last FailedScheduling event whose message parses was seen.
    pub(super) last_fit_event: Option<i64>,
    /// ` (pending for …)`, or empty.
    pub(super) since: String,
    /// ` The scheduler says: …`, or empty.
    pub(super) scheduler_says: String,
    /// The pod's evidence so far: its condition, its last scheduling event, its requests.
    pub(super) evidence: Vec<Evidence>,
}

impl Said {
    /// Reads the pod's PodScheduled condition and its FailedScheduling events.
    pub(super) fn read(
        snap: &Snapshot,
        id: ObjectId,
        pod: &Pod,
        events: &[(ObjectId, &Event)],
    ) -> Said {
        let failed: Vec<&(ObjectId, &Event)> = events
            .iter()
            .filter(|(_, e)| e.reason == "FailedScheduling")
            .collect();
        let cond = pod
            .condition("PodScheduled")
            .filter(|c| c.status == "False");
        let text = cond
            .and_then(|c| c.message.as_deref().map(String::from))
            .filter(|m| FitMessage::parse(m).is_some())
            .or_else(|| {
                failed
                    .iter()
                    .rev()
                    .map(|(_, e)| e.message.clone())
                    .find(|m| FitMessage::parse(m).is_some())
            })
            .or_else(|| {
                cond.and_then(|c| c.message.as_deref().map(String::from))
                    .filter(|m| !m.is_empty())
            });
        let parsed = text.as_deref().and_then(FitMessage::parse);

        let mut evidence = Vec::new();
        if let Some(c) = cond {
            evidence.push(evidence::field(
                snap,
                id,
                &["status", "conditions", "type=PodScheduled"],
                format!(
                    "PodScheduled=False, reason {}{}",
                    c.reason.as_deref().unwrap_or("(none)"),
                    c.message
                        .as_deref()
                        .map(|m| format!(": {m}"))
                        .unwrap_or_default()
                ),
            ));
        }
        let fit_events: Vec<&(ObjectId, &Event)> = failed
            .iter()
            .filter(|(_, e)| FitMessage::parse(&e.message).is_some())
            .copied()
            .collect();
        evidence.extend(pod_findings::last_events(
            snap,
            if fit_events.is_empty() {
                &failed
            } else {
                &fit_events
            },
            1,
        ));
        let since = cond
            .and_then(|c| c.last_transition_time.as_deref())
            .and_then(parse_timestamp)
            .zip(snap.as_of)
            .map(|(t, asof)| format!(" (pending for {})", format_duration(asof - t)))
            .unwrap_or_default();
        let scheduler_says = text
            .as_deref()
            .map(|m| format!(" The scheduler says: {}", m.trim()))
            .unwrap_or_default();
        Said {
            id,
            has_evidence: cond.is_some() || !failed.is_empty(),
            last_fit_event: fit_events
                .iter()
                .filter_map(|(_, e)| e.last.or(e.first))
                .max(),
            text,
            parsed,
            since,
            scheduler_says,
            evidence,
        }
    }

    /// The cause key the scheduler's message names, or `unschedulable`.
    fn cause_from_message(&self) -> String {
        self.parsed
            .as_ref()
            .map(scheduler_cause)
            .unwrap_or_else(|| "unschedulable".into())
    }

    /// One verdict's analysis, with the pod's evidence read so far.
    fn verdict(
        self,
        cause: String,
        summary: String,
        extra: Vec<Evidence>,
        help: String,
    ) -> Analysis {
        Analysis {
            cause,
            severity: Severity::Error,
            case: Case {
                id: self.id,
                summary,
                evidence: self.evidence,
            },
            extra,
            help,
            shared: None,
            hopeless_size: false,
            causes: Vec::new(),
        }
    }
}

fn analyze(
    snap: &Snapshot,
    placer: &Placer,
    shared: &mut SharedCauses,
    waiting: &HashMap<ObjectId, Wait>,
    id: ObjectId,
    pod: &Pod,
) -> Option<Analysis> {
    let events = snap.events_for(id);
    let mut said = Said::read(snap, id, pod, &events);
    let need = pod_units(&pod.spec);
    if !need.is_empty() {
        said.evidence
            .push(requests_evidence(snap, id, pod, &need_text(&need)));
    }

    // Claims first: PreFilter rejections apply to every node.
    let claims = claims(snap, id, pod);
    let mut extra: Vec<Evidence> = claims.iter().flat_map(|c| c.evidence.clone()).collect();
    if let Some(c) = claims.iter().find(|c| c.blocking()) {
        return Some(blocked_by_claim(said, c, extra));
    }
    if !snap.has_kind("Node") {
        return message_alone(
            said,
            extra,
            "; the bundle holds no Node objects, so kdiag cannot recompute the scheduler's decision",
            "collect the Node objects (kubectl get nodes -o yaml) to see allocatable, taints and labels; the scheduler's reasons say which constraint excluded each node",
        );
    }
    let fits = placer.evaluate(id, pod);
    if let Some(unread) = unreadable(snap, pod, &fits, &need) {
        let mut a = message_alone(
            said,
            extra,
            &format!(": {unread}, so kdiag cannot recompute which nodes could take it"),
            "fix the unreadable quantity (written like 500m, 2 or 1.5Gi, below 2^63-1 units; the problems list names its file and line); until then the scheduler's reasons are the account of which constraint excluded each node",
        )?;
        // Pods of one owner whose own values fail differently did not stop the same way:
        // each is its own finding, naming its own value.
        for u in unread_requests(&pod.spec) {
            a.cause.push_str(&format!(":{} {}", u.resource, u.why));
        }
        return Some(a);
    }
    let (autoscaler, as_ev) = autoscaler(snap, &events);
    extra.extend(as_ev);
    let notes = format!("{}{autoscaler}", wffc_note(&claims));
    if let Some(fitting) = fits.fitting() {
        return fits_now(snap, said, &fits, &fitting, extra, &notes);
    }
    if !said.has_evidence && fits.is_empty() {
        return None;
    }
    let wait = waiting.get(&id);
    if wait.is_some_and(Wait::transient) {
        return None; // scheduling/awaiting-termination: a rollout in progress
    }
    let mut a = no_node_fits(snap, pod, said, &fits, &need, extra, &notes);
    // A request no node could ever hold is the pod's own cause, not the cluster's; a
    // stalled wait for terminating pods is that deletion's.
    if !a.hopeless_size && wait.is_none() {
        a.shared = shared.of(snap, &fits);
    }
    if let Some(w) = wait {
        stalled_wait(snap, &mut a, w);
    }
    Some(a)
}

/// A pod only terminating pods keep off a node, where the wait will not end on its own
/// (a stuck deletion, a node not Ready, past the progress deadline): says so, with the
/// wait's severity, and links the stuck deletion's own finding.
fn stalled_wait(snap: &Snapshot, a: &mut Analysis, w: &Wait) {
    let Some(e) = &w.escalation else {
        return;
    };
    a.case.summary.push_str(&format!(
        " Only terminating pods keep it off a node: {}; but {}.",
        w.sentence(snap),
        e.words
    ));
    a.case.evidence.extend(w.evidence(snap));
    a.case.evidence.extend(e.evidence.iter().cloned());
    a.severity = e.severity;
    a.help = format!("{}; otherwise {}", e.help, a.help);
    a.causes.extend(e.causes.iter().cloned());
}

/// A claim that keeps the pod off every node (missing, unbound with Immediate binding,
/// lost, being deleted).
fn blocked_by_claim(said: Said, claim: &Claim, extra: Vec<Evidence>) -> Analysis {
    let (cause, what, help) = claim_words(claim);
    let summary = format!(
        "cannot be scheduled{}: {what}.{}",
        said.since, said.scheduler_says
    );
    said.verdict(cause, summary, extra, help.into())
}

/// The cause key, the sentence and the help for a blocking claim, by its state.
fn claim_words(c: &Claim) -> (String, String, &'static str) {
    match c.state {
        ClaimState::Missing => (
            format!("pvc-missing:{}", c.name),
            format!("its PersistentVolumeClaim {} does not exist", c.name),
            "create the claim (or fix spec.volumes[].persistentVolumeClaim.claimName); for a StatefulSet check volumeClaimTemplates",
        ),
        ClaimState::Unbound => (
            format!("pvc-unbound:{}", c.name),
            format!(
                "its PersistentVolumeClaim {} is Pending with Immediate binding ({}), so no node can take it until a volume is provisioned or bound",
                c.name, c.detail
            ),
            "look at the claim's events and its StorageClass provisioner (is the CSI driver running? does a matching PV exist?); adding nodes will not help",
        ),
        ClaimState::Lost => (
            format!("pvc-lost:{}", c.name),
            format!(
                "its PersistentVolumeClaim {} is Lost: its PersistentVolume is gone",
                c.name
            ),
            "restore or re-create the PersistentVolume, or delete and re-create the claim",
        ),
        ClaimState::Deleting => (
            format!("pvc-deleting:{}", c.name),
            format!("its PersistentVolumeClaim {} is being deleted", c.name),
            "the claim is being deleted (a finalizer holds it while pods use it); re-create it or point the pod at another claim",
        ),
        ClaimState::WaitsForConsumer | ClaimState::Bound | ClaimState::Unknown => (
            format!("pvc:{}", c.name),
            format!("its PersistentVolumeClaim {} is not usable", c.name),
            "look at the claim's events",
        ),
    }
}

/// The values the verdict rests on that do not read (the pod's requests, then the
/// nodes'), the first few named: no verdict, rather than one computed with zero.
fn unreadable(snap: &Snapshot, pod: &Pod, fits: &Fits, need: &Units) -> Option<String> {
    const SHOWN: usize = 3;
    let mut unread: Vec<String> = unread_requests(&pod.spec)
        .iter()
        .map(UnreadRequest::describe)
        .collect();
    let (on_nodes, on_nodes_total) = fit::unread_capacity(snap, fits.unread_nodes(), need, SHOWN);
    let total = unread.len() + on_nodes_total;
    if total == 0 {
        return None;
    }
    unread.extend(on_nodes);
    unread.truncate(SHOWN);
    let more = match total.saturating_sub(SHOWN) {
        0 => String::new(),
        n => format!(" (and {n} more)"),
    };
    Some(format!("{}{more}", unread.join("; ")))
}

/// kdiag cannot recompute the decision (`why`, after the pod's "cannot be scheduled"): the
/// scheduler's message is all there is, and without one nothing says the pod is stuck.
fn message_alone(said: Said, extra: Vec<Evidence>, why: &str, help: &str) -> Option<Analysis> {
    if !said.has_evidence {
        return None;
    }
    let summary = format!(
        "cannot be scheduled{}{why}.{}",
        said.since, said.scheduler_says
    );
    let cause = said.cause_from_message();
    Some(said.verdict(cause, summary, extra, help.into()))
}

/// The sentence about claims that wait for their first consumer, or empty.
fn wffc_note(claims: &[Claim]) -> String {
    let waiting: Vec<&str> = claims
        .iter()
        .filter(|c| c.state == ClaimState::WaitsForConsumer)
        .map(|c| c.name.as_str())
        .collect();
    if waiting.is_empty() {
        String::new()
    } else {
        format!(
            " Claim(s) {} wait for the first consumer (WaitForFirstConsumer): they bind once a node is chosen; that is not a storage fault.",
            waiting.join(", ")
        )
    }
}

/// The bundle's nodes have room now. Either the scheduler excluded them for a reason
/// kdiag does not recompute, or the cluster changed after its message.
fn fits_now(
    snap: &Snapshot,
    said: Said,
    fits: &Fits,
    fitting: &Group,
    mut extra: Vec<Evidence>,
    notes: &str,
) -> Option<Analysis> {
    if !said.has_evidence {
        return None; // probably just created; nothing says it is stuck
    }
    let unrecomputed = said
        .parsed
        .as_ref()
        .map(unrecomputed_reasons)
        .unwrap_or_default();
    let (cause, mut what) = fits_now_words(&said, fitting, fits.len(), &unrecomputed);
    if cause == "fits-now"
        && let Some(stale) = stale_message(said.last_fit_event, fits)
    {
        what = format!("{what}; {stale}");
    }
    extra.push(node_room_evidence(snap, &fitting.first));
    let summary = format!(
        "cannot be scheduled{}: {what}.{}{notes}",
        said.since, said.scheduler_says
    );
    let help = if unrecomputed.is_empty() {
        "compare the scheduler's latest message with the nodes; if it is old, check that the scheduler is running and look at fresh FailedScheduling events"
    } else {
        "the reasons kdiag does not recompute decide here: check them against the nodes (for topology spread: the constraint's topologyKey labels on the nodes and where the matching pods run; for volumes: the claims, their PVs and the CSI driver)"
    };
    Some(said.verdict(cause, summary, extra, help.into()))
}

/// The cause key and the sentence when some node fits by the bundle: whose account
/// stands, the bundle's or the scheduler's.
fn fits_now_words(
    said: &Said,
    fitting: &Group,
    total: usize,
    unrecomputed: &[String],
) -> (String, String) {
    let names = list_first_names(&fitting.names, fitting.n);
    // Nodes with no pod at all in the bundle: the bundle does not hold every pod
    // (Insights and partial dumps keep only some), so it cannot contradict the scheduler.
    // (A class's nodes hold as many pods each.)
    let uncollected = fitting.classes.iter().all(|(_, f)| f.usage.pods.is_empty());
    if uncollected && said.parsed.is_some() && unrecomputed.is_empty() {
        (
            said.cause_from_message(),
            format!(
                "by the bundle's objects {} of {total} nodes could take it ({}), but the bundle holds no pod bound to {}, so it does not hold every pod and cannot check the scheduler's reasons, which stand",
                fitting.n,
                names,
                if fitting.n == 1 {
                    "that node"
                } else {
                    "those nodes"
                }
            ),
        )
    } else if !unrecomputed.is_empty() {
        (
            said.cause_from_message(),
            format!(
                "the scheduler excluded the nodes for reasons kdiag does not recompute ({}); by requests, taints, selectors and affinity {} of {total} nodes could take it ({})",
                unrecomputed.join("; "),
                fitting.n,
                names
            ),
        )
    } else if let Some(m) = said.parsed.as_ref().filter(|m| m.nodes as usize != total) {
        (
            "fits-now".into(),
            format!(
                "the scheduler counted {} {}, but the bundle holds {total}, and by the bundle's nodes {} of them could take it ({}): the bundle's nodes are not the ones the scheduler saw (nodes were added or replaced after its message)",
                m.nodes,
                if m.nodes == 1 { "node" } else { "nodes" },
                fitting.n,
                names
            ),
        )
    } else {
        (
            "fits-now".into(),
            format!(
                "the bundle's nodes have room now: {} of {total} nodes pass every filter kdiag recomputes ({}), which disagrees with the scheduler's message; the cluster changed after it (pods finished or nodes were added) or the scheduler counts pods the bundle does not hold",
                fitting.n, names
            ),
        )
    }
}

/// "the scheduler's message is stale: …" when fitting nodes were created after the
/// scheduler's last message (`last_msg`): it never saw them.
fn stale_message(last_msg: Option<i64>, fits: &Fits) -> Option<String> {
    let newer = fits.fitting_created_after(last_msg?);
    if newer.is_empty() {
        return None;
    }
    let last = last_msg.unwrap_or_default();
    Some(format!(
        "the scheduler's message is stale: {} created {} after its last FailedScheduling event, and {} the pod now",
        if newer.len() == 1 {
            format!("node {} was", newer[0].0)
        } else {
            format!(
                "nodes {} were",
                list_names(&newer.iter().map(|(n, _)| *n).collect::<Vec<_>>())
            )
        },
        format_duration(newer.iter().map(|(_, c)| *c).min().unwrap_or(last) - last),
        if newer.len() == 1 {
            "it fits"
        } else {
            "they fit"
        }
    ))
}

/// No node fits: the nodes grouped by their first exclusion, the closest node, whether
/// preemption could help, and how the scheduler's message compares.
fn no_node_fits(
    snap: &Snapshot,
    pod: &Pod,
    said: Said,
    fits: &Fits,
    need: &Units,
    mut extra: Vec<Evidence>,
    notes: &str,
) -> Analysis {
    let total = fits.len();
    let by_cat = fits.by_category();
    let mut cats: Vec<(&&str, &Group)> = by_cat.iter().collect();
    cats.sort_by(|a, b| b.1.n.cmp(&a.1.n).then(a.0.cmp(b.0)));
    let cause = if total == 0 {
        "no-nodes".to_string()
    } else {
        let mut keys: Vec<String> = by_cat
            .iter()
            .map(|(k, g)| {
                if *k == "insufficient" {
                    let classes = g.classes.iter().map(|(n, f)| (*n, &*f.verdict));
                    format!("insufficient-{}", short_resources(classes).join(","))
                } else {
                    k.to_string()
                }
            })
            .collect();
        keys.sort();
        keys.join("+")
    };
    let mut parts = Vec::new();
    for (_, g) in &cats {
        let x = g
            .first
            .verdict
            .exclusions
            .first()
            .expect("grouped by first exclusion");
        parts.push(phrase(snap, x, g, total));
    }
    let closest = closest(need, fits);
    if let Some((f, _)) = &closest {
        extra.push(node_room_evidence(snap, f));
    }
    for (_, g) in &cats {
        if let Some(Exclusion::Taint(_)) = g.first.verdict.exclusions.first() {
            extra.push(evidence::field(
                snap,
                g.first.id,
                &["spec", "taints"],
                format!("node {}: spec.taints", g.first.name),
            ));
        }
    }
    let hopeless_size = closest
        .as_ref()
        .is_some_and(|(_, t)| t.contains("no node has that much"));
    let preemption = if hopeless_size {
        String::new()
    } else {
        preemption(snap, pod, need, fits, said.parsed.as_ref())
    };
    let comparison = compare(fits, said.parsed.as_ref(), said.text.as_deref(), total);
    let what = if total == 0 {
        "the bundle holds no nodes".to_string()
    } else {
        format!("no node passes: {}", parts.join("; "))
    };
    let closest_text = closest.map(|(_, t)| format!(" ({t})")).unwrap_or_default();
    let no_msg = if said.has_evidence {
        ""
    } else {
        " The bundle holds no scheduler message for it (events expire after about an hour)."
    };
    let summary = format!(
        "cannot be scheduled{}: {what}{closest_text}.{preemption}{notes}{comparison}{no_msg}",
        said.since
    );
    let help = exclusion_help(&cats, hopeless_size);
    let mut a = said.verdict(cause, summary, extra, help);
    a.hopeless_size = hopeless_size;
    a
}

/// One clause per excluding constraint, the one excluding most nodes first (`cats` is in
/// that order).
fn exclusion_help(cats: &[(&&str, &Group)], hopeless_size: bool) -> String {
    let mut clauses: Vec<&str> = Vec::new();
    let mut capacity_seen = false;
    for x in cats
        .iter()
        .filter_map(|(_, g)| g.first.verdict.exclusions.first())
    {
        capacity_seen |= x.is_capacity();
        let clause = exclusion_clause(x, hopeless_size);
        if !clauses.contains(&clause) {
            clauses.push(clause);
        }
    }
    let mut help = clauses.join("; or ");
    if capacity_seen {
        help.push_str("; image, kubelet or registry changes will not help");
    }
    if help.is_empty() {
        help = "check that the cluster has nodes and that the scheduler sees them".into();
    }
    help
}

/// What to do about nodes excluded by `x`.
fn exclusion_clause(x: &Exclusion, hopeless_size: bool) -> &'static str {
    match x {
        _ if x.is_capacity() && hopeless_size => {
            "lower the pod's request below the largest node's allocatable, or add a node type large enough for it"
        }
        _ if x.is_capacity() => {
            "free capacity on a node (move or scale down other pods), add nodes large enough for the request, or lower the pod's requests"
        }
        Exclusion::Taint(t) if is_not_ready_taint(&t.key) => "bring the NotReady nodes back",
        Exclusion::Taint(_) => "add a toleration if the pod belongs on the tainted nodes",
        Exclusion::NodeSelector { .. } | Exclusion::NodeAffinity => {
            "fix the pod's nodeSelector / node affinity or label the nodes it should run on"
        }
        Exclusion::Cordoned => "uncordon nodes that may take work again (kubectl uncordon)",
        Exclusion::VolumeNodeAffinity { .. } => {
            "run the pod where its PersistentVolume is (or move the data)"
        }
        Exclusion::HostPort(_) => "drop the hostPort or free it on the nodes",
        Exclusion::TopologySpread { .. } => {
            "add nodes in the topology domains the constraint lacks (or that have room under maxSkew), lower minDomains or raise maxSkew, or make the constraint ScheduleAnyway"
        }
        _ => "relax the required pod (anti-)affinity or add nodes in other topology domains",
    }
}

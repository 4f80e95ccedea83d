//! `scheduling/unschedulable`: recomputes why a pending pod has no node.

use super::fit::{self, Exclusion, NodeFit, Short, Usage, claim_names, priority_of};
use super::message::{FitMessage, ReasonKind};
use super::requests::display_units;
use crate::declare_rule;
use crate::kube::event::Event;
use crate::kube::meta::ObjectRef;
use crate::kube::pod::Pod;
use crate::kube::policy::AUTOSCALER_STATUS;
use crate::kube::time::{format_duration, parse_timestamp};
use crate::rules::evidence;
use crate::rules::pod_findings::{self, Case, Presence, note};
use crate::rules::{Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::BTreeMap;

declare_rule! {
    /// Recomputes why a pending pod has no node, node by node, from the bundle.
    ///
    /// For each node: allocatable minus the requests of the non-terminated pods bound
    /// there against the pod's effective request (init containers, sidecars, pod-level
    /// resources, overhead), untolerated NoSchedule/NoExecute taints, nodeSelector and
    /// required node affinity, cordons, host ports, PV node affinity and required pod
    /// (anti-)affinity; and the pod's claims (a missing or unbound Immediate claim blocks
    /// every node; WaitForFirstConsumer is not a storage fault). The finding says which
    /// constraint excludes how many nodes, names the closest node and its shortfall, says
    /// whether preemption could help and whether an autoscaler is adding nodes, and quotes
    /// the scheduler's own message — saying so when it disagrees with the bundle.
    /// Scheduling-gated pods are left to the stage classifier.
    pub static UNSCHEDULABLE = {
        id: "scheduling/unschedulable",
        stage: Stage::Scheduling,
        severity: Severity::Error,
        fallback: false,
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
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let pending: Vec<(ObjectId, &Pod)> = snap
        .pods()
        .iter()
        .filter(|(_, p)| is_candidate(p))
        .map(|(id, p)| (*id, p))
        .collect();
    if pending.is_empty() {
        return Vec::new();
    }
    let usage = Usage::build(snap);
    let mut groups: BTreeMap<(ObjectRef, String), Vec<Analysis>> = BTreeMap::new();
    for (id, pod) in pending {
        if let Some(a) = analyze(snap, &usage, id, pod) {
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
            let mut extra = Vec::new();
            let mut cases = Vec::new();
            for (i, a) in list.into_iter().enumerate() {
                if i == 0 {
                    extra = a.extra;
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
            f
        })
        .collect()
}

/// Pending, no node, not being deleted, not gated.
fn is_candidate(p: &Pod) -> bool {
    p.spec.node_name.as_deref().is_none_or(str::is_empty)
        && p.phase() == "Pending"
        && p.metadata.deletion_timestamp.is_none()
        && p.spec.scheduling_gates.is_empty()
}

fn analyze(snap: &Snapshot, usage: &Usage, id: ObjectId, pod: &Pod) -> Option<Analysis> {
    let events = snap.events_for(id);
    let failed: Vec<&(ObjectId, &Event)> = events
        .iter()
        .filter(|(_, e)| e.reason == "FailedScheduling")
        .collect();
    let cond = pod
        .condition("PodScheduled")
        .filter(|c| c.status == "False");
    let scheduler_text = cond
        .and_then(|c| c.message.clone())
        .filter(|m| FitMessage::parse(m).is_some())
        .or_else(|| {
            failed
                .iter()
                .rev()
                .map(|(_, e)| e.message.clone())
                .find(|m| FitMessage::parse(m).is_some())
        })
        .or_else(|| {
            cond.and_then(|c| c.message.clone())
                .filter(|m| !m.is_empty())
        });
    let parsed = scheduler_text.as_deref().and_then(FitMessage::parse);
    let has_scheduler_evidence = cond.is_some() || !failed.is_empty();

    let mut ev = Vec::new();
    if let Some(c) = cond {
        ev.push(evidence::field(
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
    ev.extend(pod_findings::last_events(
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

    let need = fit::pod_units(&pod.spec);
    let need_text = need_text(&need);
    if !need.is_empty() {
        ev.push(requests_evidence(snap, id, pod, &need_text));
    }

    // Claims first: PreFilter rejections apply to every node.
    let claims = claims(snap, id, pod);
    let mut extra: Vec<Evidence> = claims.iter().flat_map(|c| c.evidence.clone()).collect();
    let wffc: Vec<&Claim> = claims
        .iter()
        .filter(|c| c.state == ClaimState::WaitsForConsumer)
        .collect();
    let scheduler_says = scheduler_text
        .as_deref()
        .map(|m| format!(" The scheduler says: {}", m.trim()))
        .unwrap_or_default();
    if let Some(c) = claims.iter().find(|c| c.blocking()) {
        let (cause, what, help) = match c.state {
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
        };
        return Some(Analysis {
            cause,
            severity: Severity::Error,
            case: Case {
                id,
                summary: format!("cannot be scheduled{since}: {what}.{scheduler_says}"),
                evidence: ev,
            },
            extra,
            help: help.into(),
        });
    }

    if !snap.has_kind("Node") {
        if !has_scheduler_evidence {
            return None;
        }
        let cause = parsed
            .as_ref()
            .map(scheduler_cause)
            .unwrap_or_else(|| "unschedulable".into());
        return Some(Analysis {
            cause,
            severity: Severity::Error,
            case: Case {
                id,
                summary: format!(
                    "cannot be scheduled{since}; the bundle holds no Node objects, so kdiag cannot recompute the scheduler's decision.{scheduler_says}"
                ),
                evidence: ev,
            },
            extra,
            help: "collect the Node objects (kubectl get nodes -o yaml) to see allocatable, taints and labels; the scheduler's reasons say which constraint excluded each node".into(),
        });
    }

    let fits = fit::evaluate(snap, usage, id, pod);
    let total = fits.len();
    let fitting: Vec<&NodeFit> = fits.iter().filter(|f| f.fits()).collect();
    let (autoscaler, as_ev) = autoscaler(snap, &events);
    extra.extend(as_ev);
    let wffc_note = if wffc.is_empty() {
        String::new()
    } else {
        format!(
            " Claim(s) {} wait for the first consumer (WaitForFirstConsumer): they bind once a node is chosen; that is not a storage fault.",
            wffc.iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };

    if !fitting.is_empty() {
        // The bundle's nodes have room now. Either the scheduler excluded them for a reason
        // kdiag does not recompute, or the cluster changed after its message.
        if !has_scheduler_evidence {
            return None; // probably just created; nothing says it is stuck
        }
        let names: Vec<&str> = fitting.iter().map(|f| f.name).collect();
        let unrecomputed = parsed
            .as_ref()
            .map(unrecomputed_reasons)
            .unwrap_or_default();
        // Nodes with no pod at all in the bundle: the bundle does not hold every pod
        // (Insights and partial dumps keep only some), so it cannot contradict the scheduler.
        let uncollected = fitting.iter().all(|f| f.usage.pods.is_empty());
        let (cause, what) = if uncollected && parsed.is_some() && unrecomputed.is_empty() {
            (
                parsed
                    .as_ref()
                    .map(scheduler_cause)
                    .unwrap_or_else(|| "unschedulable".into()),
                format!(
                    "by the bundle's objects {} of {total} nodes could take it ({}), but the bundle holds no pod bound to {}, so it does not hold every pod and cannot check the scheduler's reasons, which stand",
                    fitting.len(),
                    list_names(&names),
                    if fitting.len() == 1 {
                        "that node"
                    } else {
                        "those nodes"
                    }
                ),
            )
        } else if !unrecomputed.is_empty() {
            (
                parsed
                    .as_ref()
                    .map(scheduler_cause)
                    .unwrap_or_else(|| "unschedulable".into()),
                format!(
                    "the scheduler excluded the nodes for reasons kdiag does not recompute ({}); by requests, taints, selectors and affinity {} of {total} nodes could take it ({})",
                    unrecomputed.join("; "),
                    fitting.len(),
                    list_names(&names)
                ),
            )
        } else if let Some(m) = parsed.as_ref().filter(|m| m.nodes as usize != total) {
            (
                "fits-now".into(),
                format!(
                    "the scheduler counted {} {}, but the bundle holds {total}, and by the bundle's nodes {} of them could take it ({}): the bundle's nodes are not the ones the scheduler saw (nodes were added or replaced after its message)",
                    m.nodes,
                    if m.nodes == 1 { "node" } else { "nodes" },
                    fitting.len(),
                    list_names(&names)
                ),
            )
        } else {
            (
                "fits-now".into(),
                format!(
                    "the bundle's nodes have room now: {} of {total} nodes pass every filter kdiag recomputes ({}), which disagrees with the scheduler's message; the cluster changed after it (pods finished or nodes were added) or the scheduler counts pods the bundle does not hold",
                    fitting.len(),
                    list_names(&names)
                ),
            )
        };
        for f in fitting.iter().take(1) {
            extra.push(node_room_evidence(snap, f));
        }
        return Some(Analysis {
            cause,
            severity: Severity::Error,
            case: Case {
                id,
                summary: format!(
                    "cannot be scheduled{since}: {what}.{scheduler_says}{wffc_note}{autoscaler}"
                ),
                evidence: ev,
            },
            extra,
            help: if unrecomputed.is_empty() {
                "compare the scheduler's latest message with the nodes; if it is old, check that the scheduler is running and look at fresh FailedScheduling events".into()
            } else {
                "the reasons kdiag does not recompute decide here: check them against the nodes (for topology spread: the constraint's topologyKey labels on the nodes and where the matching pods run; for volumes: the claims, their PVs and the CSI driver)".into()
            },
        });
    }

    if !has_scheduler_evidence && total == 0 {
        return None;
    }

    // No node fits: group nodes by their first exclusion.
    let mut by_cat: BTreeMap<String, Vec<&NodeFit>> = BTreeMap::new();
    for f in &fits {
        if let Some(x) = f.exclusions.first() {
            by_cat.entry(x.category()).or_default().push(f);
        }
    }
    let mut cats: Vec<(&String, &Vec<&NodeFit>)> = by_cat.iter().collect();
    cats.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
    let cause = if total == 0 {
        "no-nodes".to_string()
    } else {
        let mut keys: Vec<String> = by_cat
            .iter()
            .map(|(k, nodes)| {
                if k == "insufficient" {
                    format!("insufficient-{}", short_resources(nodes).join(","))
                } else {
                    k.clone()
                }
            })
            .collect();
        keys.sort();
        keys.join("+")
    };
    let mut parts = Vec::new();
    for (_, nodes) in &cats {
        let x = nodes[0]
            .exclusions
            .first()
            .expect("grouped by first exclusion");
        parts.push(phrase(snap, x, nodes, total));
    }
    let capacity: Vec<&NodeFit> = fits.iter().filter(|f| f.capacity_only()).collect();
    let closest = closest(&need, &fits, &capacity);
    if let Some((f, _)) = &closest {
        extra.push(node_room_evidence(snap, f));
    }
    for (_, nodes) in &cats {
        if let Some(Exclusion::Taint(_)) = nodes[0].exclusions.first() {
            extra.push(evidence::field(
                snap,
                nodes[0].id,
                &["spec", "taints"],
                format!("node {}: spec.taints", nodes[0].name),
            ));
        }
    }
    let hopeless_size = closest
        .as_ref()
        .is_some_and(|(_, t)| t.contains("no node has that much"));
    let preemption = if hopeless_size {
        String::new()
    } else {
        preemption(snap, pod, &need, &capacity, parsed.as_ref())
    };
    let comparison = compare(&fits, parsed.as_ref(), scheduler_text.as_deref(), total);
    let what = if total == 0 {
        "the bundle holds no nodes".to_string()
    } else {
        format!("no node passes: {}", parts.join("; "))
    };
    let closest_text = closest.map(|(_, t)| format!(" ({t})")).unwrap_or_default();
    let no_msg = if has_scheduler_evidence {
        String::new()
    } else {
        " The bundle holds no scheduler message for it (events expire after about an hour).".into()
    };
    let summary = format!(
        "cannot be scheduled{since}: {what}{closest_text}.{preemption}{wffc_note}{autoscaler}{comparison}{no_msg}"
    );
    // One clause per excluding constraint, the one excluding most nodes first.
    let mut clauses: Vec<&str> = Vec::new();
    let mut capacity_seen = false;
    for (_, nodes) in &cats {
        let clause = match nodes[0].exclusions.first() {
            Some(x) if x.is_capacity() && hopeless_size => {
                capacity_seen = true;
                "lower the pod's request below the largest node's allocatable, or add a node type large enough for it"
            }
            Some(x) if x.is_capacity() => {
                capacity_seen = true;
                "free capacity on a node (move or scale down other pods), add nodes large enough for the request, or lower the pod's requests"
            }
            Some(Exclusion::Taint(t)) if fit::is_not_ready_taint(&t.key) => {
                "bring the NotReady nodes back"
            }
            Some(Exclusion::Taint(_)) => "add a toleration if the pod belongs on the tainted nodes",
            Some(Exclusion::NodeSelector { .. }) | Some(Exclusion::NodeAffinity) => {
                "fix the pod's nodeSelector / node affinity or label the nodes it should run on"
            }
            Some(Exclusion::Cordoned) => {
                "uncordon nodes that may take work again (kubectl uncordon)"
            }
            Some(Exclusion::VolumeNodeAffinity { .. }) => {
                "run the pod where its PersistentVolume is (or move the data)"
            }
            Some(Exclusion::HostPort(_)) => "drop the hostPort or free it on the nodes",
            Some(_) => {
                "relax the required pod (anti-)affinity or add nodes in other topology domains"
            }
            None => continue,
        };
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
    Some(Analysis {
        cause,
        severity: Severity::Error,
        case: Case {
            id,
            summary,
            evidence: ev,
        },
        extra,
        help,
    })
}

fn need_text(need: &BTreeMap<String, i128>) -> String {
    need.iter()
        .map(|(r, u)| format!("{} {r}", display_units(r, *u)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn requests_evidence(snap: &Snapshot, id: ObjectId, pod: &Pod, need_text: &str) -> Evidence {
    let c = pod
        .spec
        .containers
        .iter()
        .find(|c| !c.resources.requests.is_empty() || !c.resources.limits.is_empty());
    let path: Vec<String> = match c {
        Some(c) => vec![
            "spec".into(),
            "containers".into(),
            format!("name={}", c.name),
            "resources".into(),
        ],
        None => vec!["spec".into()],
    };
    let extras = [
        (!pod.spec.init_containers.is_empty()).then_some("init containers"),
        pod.spec
            .resources
            .is_some()
            .then_some("pod-level resources"),
        (!pod.spec.overhead.is_empty()).then_some("overhead"),
    ];
    let extras: Vec<&str> = extras.into_iter().flatten().collect();
    evidence::field(
        snap,
        id,
        &path.iter().map(String::as_str).collect::<Vec<_>>(),
        format!(
            "effective request: {need_text}{}",
            if extras.is_empty() {
                String::new()
            } else {
                format!(" (counting {})", extras.join(", "))
            }
        ),
    )
}

fn node_room_evidence(snap: &Snapshot, f: &NodeFit) -> Evidence {
    let room: Vec<String> = f
        .free
        .iter()
        .map(|(r, (free, alloc))| {
            format!(
                "{r} {} free of {} allocatable",
                display_units(r, *free),
                display_units(r, *alloc)
            )
        })
        .collect();
    evidence::field(
        snap,
        f.id,
        &["status", "allocatable"],
        format!(
            "node {}: {} ({} non-terminated pods bound there)",
            f.name,
            if room.is_empty() {
                "no requested resource".into()
            } else {
                room.join(", ")
            },
            f.usage.pods.len()
        ),
    )
}

fn list_names(names: &[&str]) -> String {
    if names.len() <= 4 {
        names.join(", ")
    } else {
        format!("{}, … and {} more", names[..3].join(", "), names.len() - 3)
    }
}

/// Resources the nodes lack, most-lacked first: [("cpu", 3), ("memory", 1)].
fn short_counts(nodes: &[&NodeFit]) -> Vec<(String, usize)> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for f in nodes {
        for x in &f.exclusions {
            if let Exclusion::Resources(s) = x {
                for s in s {
                    *counts.entry(s.resource.clone()).or_default() += 1;
                }
            }
        }
    }
    let mut v: Vec<(String, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

fn short_resources(nodes: &[&NodeFit]) -> Vec<String> {
    let mut v: Vec<String> = short_counts(nodes).into_iter().map(|(r, _)| r).collect();
    v.sort();
    v
}

/// "3 of 3 nodes lack cpu (node-a, node-b, node-c)" for one exclusion category.
fn phrase(snap: &Snapshot, x: &Exclusion, nodes: &[&NodeFit], total: usize) -> String {
    let names: Vec<&str> = nodes.iter().map(|f| f.name).collect();
    let n = nodes.len();
    let one = n == 1;
    let (is, has, lacks) = if one {
        ("is", "has", "lacks")
    } else {
        ("are", "have", "lack")
    };
    let head = format!(
        "{n} of {total} {}",
        if total == 1 { "node" } else { "nodes" }
    );
    let who = format!(" ({})", list_names(&names));
    match x {
        Exclusion::Cordoned => format!("{head} {is} cordoned{who}"),
        Exclusion::Taint(t) if fit::is_not_ready_taint(&t.key) => format!(
            "{head} {is} NotReady (taint {}:{} not tolerated){who}",
            t.key, t.effect
        ),
        Exclusion::Taint(t) => format!(
            "{head} {has} the untolerated taint {}{}:{}{who}",
            t.key,
            t.value
                .as_deref()
                .filter(|v| !v.is_empty())
                .map(|v| format!("={v}"))
                .unwrap_or_default(),
            t.effect
        ),
        Exclusion::NodeSelector { key, want } => {
            format!("{head} {lacks} the label {key}={want} its nodeSelector requires{who}")
        }
        Exclusion::NodeAffinity => format!("{head} {is} outside its required node affinity{who}"),
        Exclusion::HostPort(p) => format!(
            "{head} already use{} host port {p}{who}",
            if one { "s" } else { "" }
        ),
        Exclusion::Resources(_) => {
            let counts = short_counts(nodes);
            let what = if counts.len() == 1 || counts.iter().all(|(_, c)| *c == n) {
                counts
                    .iter()
                    .map(|(r, _)| r.as_str())
                    .collect::<Vec<_>>()
                    .join(" and ")
            } else {
                counts
                    .iter()
                    .map(|(r, c)| format!("{r} ({c})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!("{head} {lacks} {what}{who}")
        }
        Exclusion::TooManyPods { allocatable, .. } => {
            format!("{head} {is} full ({allocatable} of {allocatable} pods){who}")
        }
        Exclusion::VolumeNodeAffinity { pv } => {
            format!("{head} {is} outside the node affinity of its PersistentVolume {pv}{who}")
        }
        Exclusion::AntiAffinity { other } => format!(
            "{head} {has} a pod its required anti-affinity avoids in {} (such as {}){who}",
            if one { "its domain" } else { "their domains" },
            snap.object(*other).name
        ),
        Exclusion::ExistingAntiAffinity { other } => format!(
            "{head} {has} a pod whose required anti-affinity rejects it in {} (such as {}){who}",
            if one { "its domain" } else { "their domains" },
            snap.object(*other).name
        ),
        Exclusion::PodAffinity => {
            format!(
                "{head} {has} no pod its required pod affinity asks for in {}{who}",
                if one { "its domain" } else { "their domains" }
            )
        }
    }
}

/// The node closest to fitting and a sentence about it: "needs 6 cpu; the most free is
/// node-b with 5.5 of 7.8 allocatable cpu free".
fn closest<'a>(
    need: &BTreeMap<String, i128>,
    fits: &'a [NodeFit<'a>],
    capacity: &[&'a NodeFit<'a>],
) -> Option<(&'a NodeFit<'a>, String)> {
    // Resources some capacity-only node lacks; else resources any node lacks.
    let pool: Vec<&NodeFit> = if capacity.is_empty() {
        fits.iter().collect()
    } else {
        capacity.to_vec()
    };
    let mut short: Vec<&str> = pool
        .iter()
        .flat_map(|f| f.exclusions.iter())
        .filter_map(|x| match x {
            Exclusion::Resources(s) => Some(
                s.iter()
                    .map(|s: &Short| s.resource.as_str())
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        })
        .flatten()
        .collect();
    short.sort();
    short.dedup();
    if short.is_empty() {
        return None;
    }
    let mut sentences = Vec::new();
    let mut best_node: Option<&NodeFit> = None;
    for res in &short {
        let n = need.get(*res).copied().unwrap_or(0);
        let best = pool
            .iter()
            .max_by(|a, b| {
                let fa = a.free.get(*res).map(|x| x.0).unwrap_or(i128::MIN);
                let fb = b.free.get(*res).map(|x| x.0).unwrap_or(i128::MIN);
                fa.cmp(&fb).then(b.name.cmp(a.name))
            })
            .copied()?;
        let (free, alloc) = best.free.get(*res).copied().unwrap_or((0, 0));
        let largest = pool
            .iter()
            .map(|f| f.free.get(*res).map(|x| x.1).unwrap_or(0))
            .max()
            .unwrap_or(0);
        let mut s = format!(
            "needs {} {res}; the most free is {} with {} of {} allocatable {res} free",
            display_units(res, n),
            best.name,
            display_units(res, free.max(0)),
            display_units(res, alloc)
        );
        if n > largest {
            s.push_str(&format!(
                "; no node has that much {res} allocatable at all, so neither preemption nor more nodes of these sizes can help"
            ));
        }
        sentences.push(s);
        best_node.get_or_insert(best);
    }
    Some((best_node?, sentences.join("; ")))
}

/// Could evicting lower-priority pods make room? Only nodes excluded for capacity alone
/// are candidates, as for the scheduler's PostFilter.
fn preemption(
    snap: &Snapshot,
    pod: &Pod,
    need: &BTreeMap<String, i128>,
    capacity: &[&NodeFit],
    msg: Option<&FitMessage>,
) -> String {
    if capacity.is_empty() {
        return String::new();
    }
    if pod.spec.preemption_policy.as_deref() == Some("Never") {
        return " Preemption is off for this pod (preemptionPolicy: Never).".into();
    }
    let prio = priority_of(snap, pod);
    let mut any_lower = false;
    let mut helps: Vec<(String, Vec<String>)> = Vec::new();
    for f in capacity {
        let by_priority = f.usage.by_priority(snap);
        let n = by_priority.below(prio);
        if n == 0 {
            continue;
        }
        any_lower = true;
        let freed = &by_priority.freed[n];
        let enough = need.iter().all(|(r, want)| {
            let (free, _) = f.free.get(r).copied().unwrap_or((0, 0));
            *want <= free + freed.get(r).copied().unwrap_or(0)
        }) && f.exclusions.iter().all(|x| match x {
            Exclusion::TooManyPods { used, allocatable } => used - (n as i128) < *allocatable,
            _ => true,
        });
        if enough {
            // Named in the node's pod order, as the bundle lists them.
            let mut victims: Vec<ObjectId> =
                by_priority.pods[..n].iter().map(|(_, id)| *id).collect();
            victims.sort();
            helps.push((
                f.name.to_string(),
                victims
                    .iter()
                    .map(|id| snap.object(*id).name.clone())
                    .collect(),
            ));
        }
    }
    let hopeless = msg.and_then(FitMessage::preemption_hopeless);
    if let Some(nominated) = pod
        .status
        .nominated_node_name
        .as_deref()
        .filter(|n| !n.is_empty())
    {
        let terminating: Vec<String> = snap
            .pods_on_node(nominated)
            .iter()
            .filter(|id| {
                snap.pod(**id)
                    .is_some_and(|p| p.metadata.deletion_timestamp.is_some())
            })
            .map(|id| snap.object(*id).name.clone())
            .collect();
        let agree = if helps.iter().any(|(n, _)| n == nominated) {
            "; by the bundle's numbers evicting lower-priority pods there frees enough"
        } else {
            "; by the bundle's numbers evicting every lower-priority pod there would not free enough"
        };
        return format!(
            " The scheduler nominated {nominated} for it and is preempting lower-priority pods there{}{agree}; the pod waits for them to terminate.",
            if terminating.is_empty() {
                String::new()
            } else {
                format!(" ({} terminating)", terminating.join(", "))
            }
        );
    }
    if let Some((node, victims)) = helps.first() {
        let mut s = format!(
            " Preemption could help: evicting lower-priority pods on {node} ({}) would make room",
            victims.join(", ")
        );
        if hopeless == Some(true) {
            s.push_str(", although the scheduler's preemption attempt found no victims (the bundle may be newer than its message)");
        }
        s.push('.');
        s
    } else if !any_lower {
        format!(" Preemption cannot help: no pod on those nodes has a priority below {prio}.")
    } else {
        format!(
            " Preemption cannot help: even evicting every pod with a priority below {prio} would not free enough."
        )
    }
}

/// "The scheduler agrees: …" or "The scheduler's message differs …".
fn compare(fits: &[NodeFit], msg: Option<&FitMessage>, text: Option<&str>, total: usize) -> String {
    let (Some(msg), Some(text)) = (msg, text) else {
        return match text {
            Some(t) => format!(" The scheduler says: {}", t.trim()),
            None => String::new(),
        };
    };
    let mut ours: BTreeMap<String, u32> = BTreeMap::new();
    for f in fits {
        match f.exclusions.first() {
            Some(Exclusion::Resources(s)) => {
                for s in s {
                    *ours
                        .entry(format!("Insufficient {}", s.resource))
                        .or_default() += 1;
                }
            }
            Some(x) => *ours.entry(vocabulary(x)).or_default() += 1,
            None => {}
        }
    }
    let mut theirs: BTreeMap<String, u32> = BTreeMap::new();
    let mut unknown = false;
    for r in &msg.reasons {
        let key = match &r.kind {
            ReasonKind::Insufficient(res) => format!("Insufficient {res}"),
            ReasonKind::TooManyPods => "Too many pods".into(),
            ReasonKind::NodeAffinity => "node affinity/selector".into(),
            ReasonKind::Taint { key, .. } => format!("taint {key}"),
            ReasonKind::Cordoned => "unschedulable".into(),
            ReasonKind::NodePorts => "ports".into(),
            ReasonKind::VolumeNodeAffinity => "volume node affinity".into(),
            ReasonKind::PodAntiAffinity => "pod anti-affinity".into(),
            ReasonKind::ExistingAntiAffinity => "existing anti-affinity".into(),
            ReasonKind::PodAffinity => "pod affinity".into(),
            _ => {
                unknown = true;
                continue;
            }
        };
        *theirs.entry(key).or_default() += r.count.unwrap_or(msg.nodes);
    }
    let same_nodes = msg.nodes as usize == total;
    if !unknown && same_nodes && ours == theirs {
        return format!(" The scheduler agrees: {}", text.trim());
    }
    let mut why = Vec::new();
    if !same_nodes {
        why.push(format!(
            "it counted {} {}, the bundle holds {total}",
            msg.nodes,
            if msg.nodes == 1 { "node" } else { "nodes" }
        ));
    }
    if unknown {
        why.push("it also names reasons kdiag does not recompute".into());
    }
    if ours != theirs {
        why.push("its per-reason node counts differ from the recomputation".into());
    }
    format!(
        " The scheduler's message differs ({}; the bundle may have been taken later, or nodes and pods changed): {}",
        why.join("; "),
        text.trim()
    )
}

/// The scheduler-message vocabulary of an exclusion (for comparison).
fn vocabulary(x: &Exclusion) -> String {
    match x {
        Exclusion::Cordoned => "unschedulable".into(),
        Exclusion::Taint(t) => format!("taint {}", t.key),
        Exclusion::NodeSelector { .. } | Exclusion::NodeAffinity => "node affinity/selector".into(),
        Exclusion::HostPort(_) => "ports".into(),
        Exclusion::Resources(_) => "resources".into(),
        Exclusion::TooManyPods { .. } => "Too many pods".into(),
        Exclusion::VolumeNodeAffinity { .. } => "volume node affinity".into(),
        Exclusion::AntiAffinity { .. } => "pod anti-affinity".into(),
        Exclusion::ExistingAntiAffinity { .. } => "existing anti-affinity".into(),
        Exclusion::PodAffinity => "pod affinity".into(),
    }
}

/// Reasons in the scheduler's message kdiag does not recompute.
fn unrecomputed_reasons(msg: &FitMessage) -> Vec<String> {
    msg.reasons
        .iter()
        .filter(|r| {
            matches!(
                r.kind,
                ReasonKind::TopologySpread
                    | ReasonKind::VolumeBinding
                    | ReasonKind::VolumeLimits
                    | ReasonKind::Plugins(_)
                    | ReasonKind::UnknownConditions
                    | ReasonKind::NodeName
                    | ReasonKind::Other
            )
        })
        .map(|r| match r.count {
            Some(n) => format!("{n} {}", r.text),
            None => r.text.clone(),
        })
        .collect()
}

/// A cause key from the scheduler's own reasons (when kdiag cannot recompute).
fn scheduler_cause(msg: &FitMessage) -> String {
    let mut keys: Vec<String> = msg
        .reasons
        .iter()
        .map(|r| match &r.kind {
            ReasonKind::Insufficient(res) => format!("insufficient-{res}"),
            ReasonKind::Taint { key, .. } => format!("taint:{key}"),
            ReasonKind::Plugins(_) => "plugins".into(),
            ReasonKind::ClaimNotFound(c) => format!("pvc-missing:{c}"),
            k => format!("{k:?}")
                .chars()
                .take_while(|c| c.is_alphanumeric())
                .collect::<String>()
                .to_lowercase(),
        })
        .collect();
    keys.sort();
    keys.dedup();
    if keys.is_empty() {
        "unschedulable".into()
    } else {
        format!("scheduler:{}", keys.join("+"))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClaimState {
    Missing,
    Unbound,
    Lost,
    Deleting,
    WaitsForConsumer,
    Bound,
    Unknown,
}

struct Claim {
    name: String,
    state: ClaimState,
    detail: String,
    evidence: Vec<Evidence>,
}

impl Claim {
    fn blocking(&self) -> bool {
        matches!(
            self.state,
            ClaimState::Missing | ClaimState::Unbound | ClaimState::Lost | ClaimState::Deleting
        )
    }
}

/// The pod's PersistentVolumeClaims as the VolumeBinding PreFilter sees them.
fn claims(snap: &Snapshot, id: ObjectId, pod: &Pod) -> Vec<Claim> {
    let ns = pod_findings::namespace_of(snap, id);
    claim_names(&pod.spec)
        .into_iter()
        .map(|name| {
            let mut evidence = Vec::new();
            let (state, detail) = match pod_findings::presence(snap, "PersistentVolumeClaim", Some(ns), &name) {
                Presence::Present(cid) => match Snapshot::view_of(snap.pvcs(), cid) {
                    Some(pvc) => {
                        let phase = pvc.status.phase.as_deref().unwrap_or("");
                        let class = pvc.spec.storage_class_name.clone().or_else(|| default_class(snap));
                        let sc = class.as_deref().and_then(|c| {
                            snap.find("StorageClass", None, c)
                                .and_then(|sid| Snapshot::view_of(snap.storage_classes(), sid).map(|s| (sid, s)))
                        });
                        let mode = sc.and_then(|(_, s)| s.volume_binding_mode.clone());
                        let (state, detail) = if pvc.metadata.deletion_timestamp.is_some() {
                            (ClaimState::Deleting, String::new())
                        } else if phase == "Bound" {
                            (ClaimState::Bound, String::new())
                        } else if phase == "Lost" {
                            (ClaimState::Lost, String::new())
                        } else if mode.as_deref() == Some("WaitForFirstConsumer") {
                            (ClaimState::WaitsForConsumer, String::new())
                        } else if phase == "Pending" {
                            let what = match (&class, sc) {
                                (Some(c), Some((_, s))) => format!(
                                    "StorageClass {c}, provisioner {}",
                                    s.provisioner.as_deref().unwrap_or("unknown")
                                ),
                                (Some(c), None) if snap.has_kind("StorageClass") => {
                                    format!("StorageClass {c} does not exist")
                                }
                                (Some(c), None) => format!("StorageClass {c}, not in the bundle"),
                                (None, _) => "no StorageClass: it can only bind to a matching pre-created PV".into(),
                            };
                            (ClaimState::Unbound, what)
                        } else {
                            (ClaimState::Unknown, String::new())
                        };
                        if state != ClaimState::Bound {
                            evidence.push(evidence::field(
                                snap,
                                cid,
                                &["status"],
                                format!(
                                    "PersistentVolumeClaim {name}: phase {}{}",
                                    if phase.is_empty() { "unknown" } else { phase },
                                    class
                                        .as_deref()
                                        .map(|c| format!(
                                            ", StorageClass {c}{}",
                                            mode.as_deref().map(|m| format!(" ({m})")).unwrap_or_default()
                                        ))
                                        .unwrap_or_default()
                                ),
                            ));
                            let evs = snap.events_for(cid);
                            let warn: Vec<&(ObjectId, &Event)> = evs
                                .iter()
                                .filter(|(_, e)| {
                                    e.is_warning() || e.reason == "ExternalProvisioning" || e.reason == "WaitForFirstConsumer"
                                })
                                .collect();
                            evidence.extend(pod_findings::last_events(snap, &warn, 1));
                        }
                        (state, detail)
                    }
                    None => (ClaimState::Unknown, String::new()),
                },
                Presence::Absent => {
                    evidence.push(note(pod_findings::describe_presence("PersistentVolumeClaim", ns, &name, Presence::Absent)));
                    (ClaimState::Missing, String::new())
                }
                Presence::NotCollected => (ClaimState::Unknown, String::new()),
            };
            Claim {
                name,
                state,
                detail,
                evidence,
            }
        })
        .collect()
}

/// The StorageClass marked default.
fn default_class(snap: &Snapshot) -> Option<String> {
    snap.storage_classes()
        .iter()
        .find(|(_, s)| {
            s.metadata
                .annotation("storageclass.kubernetes.io/is-default-class")
                .is_some_and(|v| v == "true")
        })
        .map(|(_, s)| s.metadata.name.clone())
}

/// What the cluster autoscaler or Karpenter say about more nodes.
fn autoscaler(snap: &Snapshot, events: &[(ObjectId, &Event)]) -> (String, Vec<Evidence>) {
    let mut ev = Vec::new();
    let mut sentence = String::new();
    let ago = |e: &Event| {
        e.last
            .zip(snap.as_of)
            .map(|(l, a)| format!(", {} before the snapshot", format_duration(a - l)))
            .unwrap_or_default()
    };
    let scale = events.iter().rfind(|(_, e)| {
        matches!(e.reason.as_str(), "TriggeredScaleUp" | "NotTriggerScaleUp")
            || (e.component.contains("karpenter") || e.reason == "Nominated")
    });
    if let Some((eid, e)) = scale {
        ev.push(evidence::event(snap, *eid, e));
        sentence = match e.reason.as_str() {
            "TriggeredScaleUp" => format!(
                " The cluster autoscaler triggered a scale-up for it{}: more nodes should be coming ({}).",
                ago(e),
                e.message.trim().trim_end_matches('.')
            ),
            "NotTriggerScaleUp" => format!(
                " The cluster autoscaler will not add a node for it (its last word{}: {}).",
                ago(e),
                e.message.trim().trim_end_matches('.')
            ),
            "Nominated" => format!(
                " Karpenter is launching capacity for it (its last word{}: {}).",
                ago(e),
                e.message.trim().trim_end_matches('.')
            ),
            _ => format!(
                " Karpenter's last word{}: {}.",
                ago(e),
                e.message.trim().trim_end_matches('.')
            ),
        };
    }
    if let Some((cid, cm)) = snap
        .config_maps()
        .iter()
        .find(|(_, c)| c.metadata.name == AUTOSCALER_STATUS)
        && let Some(status) = &cm.autoscaler_status
        && let Some(state) = scale_up_state(status)
    {
        ev.push(evidence::object(
            snap,
            *cid,
            format!("{AUTOSCALER_STATUS}: cluster-wide ScaleUp {state}"),
        ));
        if sentence.is_empty() {
            sentence = match state {
                "InProgress" => " The cluster autoscaler reports a scale-up in progress: more nodes are coming.".into(),
                "Backoff" => " The cluster autoscaler is backing off after failed scale-ups: no node is coming soon.".into(),
                _ => format!(" The cluster autoscaler reports ScaleUp {state}: no node is being added."),
            };
        }
    }
    (sentence, ev)
}

/// The cluster-wide ScaleUp state in `cluster-autoscaler-status` (text or YAML form).
fn scale_up_state(status: &str) -> Option<&'static str> {
    let lower = status.to_ascii_lowercase();
    let i = lower.find("scaleup")?;
    let rest = &status[i..];
    let mut end = rest.len().min(200);
    while !rest.is_char_boundary(end) {
        end -= 1;
    }
    let window = &rest[..end];
    ["InProgress", "NoActivity", "Backoff", "NoCandidates"]
        .into_iter()
        .filter_map(|s| window.find(s).map(|p| (p, s)))
        .min()
        .map(|(_, s)| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autoscaler_status_forms() {
        let text = "Cluster-autoscaler status at 2026-11-20 09:10:00 +0000 UTC:\nCluster-wide:\n  Health:      Healthy (ready=3 unready=0)\n  ScaleUp:     InProgress (ready=3 registered=3)\n  ScaleDown:   NoCandidates (candidates=0)\n";
        assert_eq!(scale_up_state(text), Some("InProgress"));
        let yaml = "time: 2026-11-20 09:10:00\nautoscalerStatus: Running\nclusterWide:\n  health:\n    status: Healthy\n  scaleUp:\n    status: NoActivity\n  scaleDown:\n    status: NoCandidates\n";
        assert_eq!(scale_up_state(yaml), Some("NoActivity"));
        assert_eq!(scale_up_state("nothing"), None);
        let wide = format!("ScaleUp: {}InProgress", "é".repeat(150));
        assert_eq!(
            scale_up_state(&wide),
            None,
            "cut on a character boundary, past the window"
        );
    }
}

//! What `kdiag why KIND/NAME` prints: one object's admission chain as a tree,
//! the offline equivalent of following the links of the Headlamp Kueue plugin.
//!
//! Workloads, Jobs and Pods print Job → Workload → LocalQueue → ClusterQueue (with its
//! quota table: flavor × resource, nominal, borrowing and lending limits, reserved, free,
//! maximum capacity, what this Workload needs) → ResourceFlavors → Cohorts, then the
//! finding that says where the object stopped. ClusterQueues, LocalQueues and Cohorts
//! print their quota tables and the Workloads queued or admitted there. Pods that are not
//! Kueue's start from the finding that explains them.

use crate::kube::kueue::ClusterQueue;
use crate::kube::requests::{display_units as show, scheduler_units};
use crate::parse::terminal::one_line;
use crate::rules::Finding;
use crate::rules::kueue::chain::quota::quota_table;
use crate::rules::kueue::chain::words::{describe_selector, flavor_words};
use crate::rules::kueue::chain::{self, Chain, Ctx, Verdict};
use crate::rules::kueue::model::{self, Node};
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::fmt::Write as _;

mod fit;

/// The canonical kind for what users type (`job`, `jobs`, `wl`, `cq`, `Workload.kueue.x-k8s.io`).
fn canonical_kind(k: &str) -> Option<&'static str> {
    let k = k.split('.').next().unwrap_or(k).to_ascii_lowercase();
    Some(match k.as_str() {
        "workload" | "workloads" | "wl" | "kwl" | "kueueworkload" | "kueueworkloads" => "Workload",
        "job" | "jobs" => "Job",
        "pod" | "pods" | "po" => "Pod",
        "clusterqueue" | "clusterqueues" | "cq" => "ClusterQueue",
        "localqueue" | "localqueues" | "lq" | "queue" | "queues" => "LocalQueue",
        "cohort" | "cohorts" | "co" => "Cohort",
        "resourceflavor" | "resourceflavors" | "rf" | "flavor" | "flavors" => "ResourceFlavor",
        _ => return None,
    })
}

/// Explains one object, fitted to `width` columns; `Err` names what was not found.
pub fn why(
    snap: &Snapshot,
    findings: &[Finding],
    target: &str,
    ns: Option<&str>,
    width: usize,
) -> Result<String, String> {
    let (kind, name) = target
        .split_once('/')
        .ok_or_else(|| format!("expected KIND/NAME, got {target:?}"))?;
    let kind = canonical_kind(kind).ok_or_else(|| {
        format!("kdiag why explains workload, job, pod, clusterqueue, localqueue, cohort and resourceflavor objects, not {kind:?}")
    })?;
    let ctx = Ctx::new(snap);
    if kind == "Cohort" {
        // A cohort may be implicit: named by ClusterQueues, with no Cohort object.
        if snap.find("Cohort", None, name).is_none() && ctx.tree.members(name).is_empty() {
            return Err(format!(
                "Cohort {name} is not in the bundle and no ClusterQueue names it"
            ));
        }
        let mut out = format!("why Cohort {name}\n");
        cohort_tree(&ctx, name, &mut out);
        return Ok(fit::fit(&out, width));
    }
    let id = resolve(snap, kind, name, ns)?;
    let mut out = String::new();
    let o = snap.object(id);
    let _ = writeln!(out, "why {} {}", o.kind, display_name(snap, id));
    match kind {
        "Workload" => {
            let w =
                Snapshot::view_of(snap.workloads(), id).ok_or("the Workload could not be read")?;
            let c = chain::analyze(&ctx, id, w);
            workload_tree(&ctx, &c, &mut out, true);
            verdict(snap, findings, &[id], &mut out);
        }
        "Job" | "Pod" => owner_tree(&ctx, findings, id, &mut out),
        "ClusterQueue" => {
            let cq = Snapshot::view_of(snap.cluster_queues(), id)
                .ok_or("the ClusterQueue could not be read")?;
            cq_tree(&ctx, id, cq, None, "", &mut out);
            queued_here(&ctx, &cq.metadata.name, &mut out);
        }
        "LocalQueue" => {
            let lq = Snapshot::view_of(snap.local_queues(), id)
                .ok_or("the LocalQueue could not be read")?;
            let _ = writeln!(
                out,
                "{}",
                line_for(snap, id, &format!("LocalQueue {}", display_name(snap, id)))
            );
            let _ = writeln!(
                out,
                "  → ClusterQueue {}{}",
                lq.spec.cluster_queue,
                stop_words(lq.spec.stop_policy.as_deref())
            );
            match snap
                .find("ClusterQueue", None, &lq.spec.cluster_queue)
                .and_then(|cid| Snapshot::view_of(snap.cluster_queues(), cid).map(|c| (cid, c)))
            {
                Some((cid, cq)) => {
                    cq_tree(&ctx, cid, cq, None, "  ", &mut out);
                    queued_here(&ctx, &cq.metadata.name, &mut out);
                }
                None => {
                    let _ = writeln!(
                        out,
                        "  ✗ ClusterQueue {} is not in the bundle",
                        lq.spec.cluster_queue
                    );
                }
            }
        }
        "ResourceFlavor" => {
            let rf = Snapshot::view_of(snap.resource_flavors(), id)
                .ok_or("the ResourceFlavor could not be read")?;
            let _ = writeln!(out, "{}", line_for(snap, id, &flavor_words(rf, None)));
            let users: Vec<&str> = snap
                .cluster_queues()
                .iter()
                .filter(|(_, c)| c.flavor_names().contains(&rf.metadata.name.as_str()))
                .map(|(_, c)| c.metadata.name.as_str())
                .collect();
            let _ = writeln!(
                out,
                "  used by ClusterQueue(s): {}",
                if users.is_empty() {
                    "(none)".to_string()
                } else {
                    users.join(", ")
                }
            );
        }
        _ => {}
    }
    Ok(fit::fit(&out, width))
}

fn resolve(snap: &Snapshot, kind: &str, name: &str, ns: Option<&str>) -> Result<ObjectId, String> {
    let cluster_scoped = matches!(kind, "ClusterQueue" | "Cohort" | "ResourceFlavor");
    snap.resolve(kind, name, ns, cluster_scoped)
}

fn display_name(snap: &Snapshot, id: ObjectId) -> String {
    let o = snap.object(id);
    match &o.namespace {
        Some(ns) => format!("{ns}/{}", o.name),
        None => o.name.clone(),
    }
}

/// `text  (file:line)`.
fn line_for(snap: &Snapshot, id: ObjectId, text: &str) -> String {
    let (file, span) = snap.source_of(id);
    format!("{text}  ({}:{})", file.path, span.start)
}

fn stop_words(p: Option<&str>) -> String {
    match p {
        Some(p) if p != "None" => format!(" · stopPolicy {p} (stopped)"),
        _ => String::new(),
    }
}

/// A Job or Pod: its Workload(s) if Kueue manages it, then the finding that explains it.
fn owner_tree(ctx: &Ctx, findings: &[Finding], id: ObjectId, out: &mut String) {
    let snap = ctx.snap;
    let o = snap.object(id);
    let mut anchors = vec![id];
    // A pod starts from its Job (or other controller) when that has a Workload.
    let mut owner_uids: Vec<String> = o.uid.iter().cloned().collect();
    if o.kind == "Pod" {
        if let Some(p) = snap.pod(id) {
            let phase = p.phase();
            let node = p.spec.node_name.as_deref().unwrap_or("");
            let _ = writeln!(
                out,
                "{}",
                line_for(
                    snap,
                    id,
                    &format!(
                        "Pod {}: phase {}{}{}",
                        display_name(snap, id),
                        if phase.is_empty() { "(none)" } else { phase },
                        if node.is_empty() {
                            ", no node".to_string()
                        } else {
                            format!(", node {node}")
                        },
                        if model::kueue_gated(&p.spec) {
                            ", gated by kueue.x-k8s.io/admission"
                        } else {
                            ""
                        }
                    )
                )
            );
        }
        if let Some((_, Some(cid))) = snap.top_controller(id) {
            anchors.push(cid);
            owner_uids.extend(snap.object(cid).uid.clone());
        }
        for r in o
            .value()
            .pointer("/metadata/ownerReferences")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(u) = r.get("uid").and_then(Value::as_str) {
                owner_uids.push(u.to_string());
                if let Some(oid) = snap.by_uid(u) {
                    anchors.push(oid);
                }
            }
        }
    }
    let mut workloads: Vec<ObjectId> = Vec::new();
    for u in &owner_uids {
        for w in model::workloads_of(snap, u) {
            if !workloads.contains(&w) {
                workloads.push(w);
            }
        }
    }
    if workloads.is_empty() {
        let _ = writeln!(
            out,
            "{}",
            if snap.has_kind("Workload") {
                "no Kueue Workload belongs to it"
            } else {
                "the bundle holds no Kueue Workloads"
            }
        );
    }
    for wid in &workloads {
        if let Some(w) = Snapshot::view_of(snap.workloads(), *wid) {
            let c = chain::analyze(ctx, *wid, w);
            // A plain pod owns its Workload: it was printed already.
            let owner_is_target = matches!(&c.owner, Some((_, _, Some(oid))) if *oid == id);
            workload_tree(ctx, &c, out, !(owner_is_target && o.kind == "Pod"));
            anchors.push(*wid);
        }
    }
    verdict(snap, findings, &anchors, out);
}

/// The tree of one Workload's chain.
/// `with_owner`: print the Job (or other owner) first; otherwise the Workload hangs under
/// the line the caller printed (a plain pod that owns it), or starts the tree.
fn workload_tree(ctx: &Ctx, c: &Chain, out: &mut String, with_owner: bool) {
    let snap = ctx.snap;
    let mut indent = String::new();
    if !with_owner && c.owner.is_some() {
        indent.push_str("   ");
        let _ = write!(out, "└─ ");
    }
    if with_owner && let Some((kind, name, oid)) = &c.owner {
        match oid {
            Some(oid) => {
                let suspend = snap
                    .object(*oid)
                    .value()
                    .pointer("/spec/suspend")
                    .and_then(Value::as_bool);
                let _ = writeln!(
                    out,
                    "{}",
                    line_for(
                        snap,
                        *oid,
                        &format!(
                            "{kind} {}/{name}{}",
                            c.namespace,
                            match suspend {
                                Some(true) => " · suspend: true (held by Kueue until admission)",
                                Some(false) => " · suspend: false",
                                None => "",
                            }
                        )
                    )
                );
            }
            None => {
                let _ = writeln!(out, "{kind} {}/{name} (not in the bundle)", c.namespace);
            }
        }
        indent.push_str("   ");
        let _ = write!(out, "└─ ");
    }
    let w = c.wl;
    let _ = writeln!(
        out,
        "{}",
        line_for(
            snap,
            c.id,
            &format!(
                "Workload {}/{} · priority {}{}",
                c.namespace,
                w.metadata.name,
                w.priority(),
                if w.is_active() {
                    ""
                } else {
                    " · spec.active: false"
                }
            )
        )
    );
    workload_lines(snap, c, &indent, out);
    queue_lines(ctx, c, &format!("{indent}   "), out);
    for n in &c.notes {
        let _ = writeln!(out, "{indent}   note: {n}");
    }
}

/// The Workload's own lines under its head: pod sets and what they ask, its conditions,
/// admission checks, admission, and its pods' phases.
fn workload_lines(snap: &Snapshot, c: &Chain, indent: &str, out: &mut String) {
    let w = c.wl;
    for n in &c.needs {
        let per: Vec<String> = n
            .per_pod
            .iter()
            .map(|(r, u)| model::show_with(r, *u))
            .collect();
        let total: Vec<String> = n
            .total
            .iter()
            .map(|(r, u)| model::show_with(r, *u))
            .collect();
        let _ = writeln!(
            out,
            "{indent}   podSet {}: {} × ({}) = {}",
            n.name,
            n.count,
            if per.is_empty() {
                "no requests".into()
            } else {
                per.join(", ")
            },
            chain::words::join_and(&total)
        );
    }
    if c.needs.is_empty() {
        for ps in &w.spec.pod_sets {
            let _ = writeln!(out, "{indent}   podSet {}: count {}", ps.name, ps.count());
        }
    }
    for t in ["QuotaReserved", "Admitted", "Evicted", "Finished"] {
        if let Some(cond) = w.condition(t) {
            let _ = writeln!(
                out,
                "{indent}   {t}={}{}{}",
                cond.status,
                cond.reason
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default(),
                cond.message
                    .as_deref()
                    .filter(|m| !m.is_empty())
                    .map(|m| format!(": {}", one_line(m)))
                    .unwrap_or_default()
            );
        }
    }
    for a in &w.status.admission_checks {
        let _ = writeln!(
            out,
            "{indent}   admission check {}: {}{}",
            a.name,
            a.state,
            a.message
                .as_deref()
                .filter(|m| !m.is_empty())
                .map(|m| format!(": {}", one_line(m)))
                .unwrap_or_default()
        );
    }
    if let Some(adm) = &w.status.admission {
        for psa in &adm.pod_set_assignments {
            let flavors: Vec<String> = psa
                .flavors
                .iter()
                .map(|(r, f)| format!("{r}→{f}"))
                .collect();
            let usage: Vec<String> = psa
                .resource_usage
                .iter()
                .map(|(r, q)| format!("{} {r}", q.raw))
                .collect();
            let _ = writeln!(
                out,
                "{indent}   admission in {}: podSet {} count {} · {} · usage {}",
                adm.cluster_queue,
                psa.name,
                psa.count.unwrap_or(0),
                flavors.join(", "),
                usage.join(", ")
            );
        }
    }
    if !c.pods.is_empty() {
        let mut phases: std::collections::BTreeMap<String, usize> =
            std::collections::BTreeMap::new();
        for p in &c.pods {
            if let Some(pod) = snap.pod(*p) {
                let ph = if pod.phase().is_empty() {
                    "Unknown"
                } else {
                    pod.phase()
                };
                *phases.entry(ph.to_string()).or_default() += 1;
            }
        }
        let words: Vec<String> = phases.iter().map(|(p, n)| format!("{n} {p}")).collect();
        let _ = writeln!(out, "{indent}   pods: {}", words.join(", "));
    }
}

/// The Workload's LocalQueue and, under it, the ClusterQueue tree; or why the chain stops
/// before them. `sub`: the indent of the queue's line.
fn queue_lines(ctx: &Ctx, c: &Chain, sub: &str, out: &mut String) {
    let snap = ctx.snap;
    let w = c.wl;
    match (w.queue_name(), c.lq) {
        (None, _) => {
            let _ = writeln!(out, "{sub}└─ ✗ no LocalQueue (spec.queueName is empty)");
        }
        (Some(q), Some((lid, lq))) => {
            let active = lq
                .active()
                .map(|a| {
                    format!(
                        " · Active={}{}",
                        a.status,
                        a.reason
                            .as_deref()
                            .map(|r| format!(" ({r})"))
                            .unwrap_or_default()
                    )
                })
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{sub}└─ {}",
                line_for(
                    snap,
                    lid,
                    &format!(
                        "LocalQueue {}/{q}{active}{}",
                        c.namespace,
                        stop_words(lq.spec.stop_policy.as_deref())
                    )
                )
            );
            let sub2 = format!("{sub}   ");
            match c.cq {
                Some((cid, cq)) => cq_tree(ctx, cid, cq, Some(c), &sub2, out),
                None => {
                    let _ = writeln!(
                        out,
                        "{sub2}└─ ✗ ClusterQueue {} is not in the bundle",
                        lq.spec.cluster_queue
                    );
                }
            }
        }
        (Some(q), None) => {
            if let (Verdict::Admitted, Some((cid, cq))) = (&c.verdict, c.cq) {
                let _ = writeln!(
                    out,
                    "{sub}└─ LocalQueue {}/{q} (not in the bundle)",
                    c.namespace
                );
                cq_tree(ctx, cid, cq, Some(c), &format!("{sub}   "), out);
            } else if matches!(
                c.verdict,
                Verdict::Inactive | Verdict::Backoff { .. } | Verdict::Finished
            ) {
                let _ = writeln!(
                    out,
                    "{sub}└─ LocalQueue {}/{q} (not followed: the Workload stops before the queue)",
                    c.namespace
                );
            } else {
                let _ = writeln!(
                    out,
                    "{sub}└─ ✗ LocalQueue {}/{q} {}",
                    c.namespace,
                    match c.verdict {
                        Verdict::LocalQueueMissing { .. } => "does not exist",
                        Verdict::KueueCause { .. } =>
                            "is not in the bundle (Kueue's condition shows Kueue found it)",
                        _ if snap.has_kind("LocalQueue") =>
                            "is not in the bundle (it holds no complete list of LocalQueues)",
                        _ => "is not in the bundle (no LocalQueues collected)",
                    }
                );
            }
        }
    }
}

/// A ClusterQueue, its quota table, its flavors and its cohort chain.
fn cq_tree(
    ctx: &Ctx,
    cid: ObjectId,
    cq: &ClusterQueue,
    c: Option<&Chain>,
    indent: &str,
    out: &mut String,
) {
    cq_tree_with(ctx, cid, cq, c, indent, true, out);
}

fn cq_tree_with(
    ctx: &Ctx,
    cid: ObjectId,
    cq: &ClusterQueue,
    c: Option<&Chain>,
    indent: &str,
    show_cohort: bool,
    out: &mut String,
) {
    let snap = ctx.snap;
    let active = cq
        .active()
        .map(|a| {
            format!(
                " · Active={}{}{}",
                a.status,
                a.reason
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default(),
                a.message
                    .as_deref()
                    .filter(|_| a.status == "False")
                    .map(|m| format!(": {}", one_line(m)))
                    .unwrap_or_default()
            )
        })
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "{indent}└─ {}",
        line_for(
            snap,
            cid,
            &format!(
                "ClusterQueue {}{active} · {} · namespaceSelector {} · {}{}",
                cq.metadata.name,
                cq.spec
                    .queueing_strategy
                    .as_deref()
                    .unwrap_or("BestEffortFIFO"),
                match (
                    &cq.spec.namespace_selector,
                    snap.object(cid).value().get("spec").is_some()
                ) {
                    (Some(sel), _) => describe_selector(sel),
                    (None, true) => "absent (admits no namespace)".into(),
                    (None, false) => "unknown".into(),
                },
                cq.cohort()
                    .map(|c| format!("cohort {c}"))
                    .unwrap_or_else(|| "no cohort".into()),
                stop_words(cq.spec.stop_policy.as_deref())
            )
        )
    );
    let sub = format!("{indent}   ");
    if snap
        .object(cid)
        .value()
        .get("spec")
        .is_none_or(Value::is_null)
    {
        let _ = writeln!(
            out,
            "{sub}(the bundle holds only this ClusterQueue's status, not its spec: quota and selectors are unknown)"
        );
    }
    let rows = quota_table(ctx, cq, c);
    if !rows.is_empty() {
        let _ = writeln!(out, "{sub}quota:");
        table(&rows, &format!("{sub}  "), c.is_some(), out);
    }
    let checks = cq.admission_check_rules();
    if !checks.is_empty() {
        let names: Vec<String> = checks
            .iter()
            .map(|(n, on)| {
                if on.is_empty() {
                    n.clone()
                } else {
                    format!("{n} (on {})", on.join(", "))
                }
            })
            .collect();
        let _ = writeln!(out, "{sub}admission checks: {}", names.join(", "));
    }
    let flavors = cq.flavor_names();
    let cohorts = ctx.tree.ancestors(&cq.metadata.name);
    for (i, f) in flavors.iter().enumerate() {
        let last = i + 1 == flavors.len() && (!show_cohort || cq.cohort().is_none());
        let branch = if last { "└─" } else { "├─" };
        match snap
            .find("ResourceFlavor", None, f)
            .and_then(|fid| Snapshot::view_of(snap.resource_flavors(), fid).map(|v| (fid, v)))
        {
            Some((fid, rf)) => {
                let why = c.and_then(|c| {
                    c.tries
                        .iter()
                        .flat_map(|t| t.groups.iter())
                        .flat_map(|g| g.tries.iter())
                        .find_map(|t| match &t.outcome {
                            chain::Try::Mismatch(w) if t.flavor == *f => Some(w.clone()),
                            _ => None,
                        })
                });
                let _ = writeln!(
                    out,
                    "{sub}{branch} {}",
                    line_for(snap, fid, &flavor_words(rf, why.as_deref()))
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "{sub}{branch} ✗ ResourceFlavor {f} {}",
                    if snap.listed_whole("ResourceFlavor", None)
                        || cq.active().is_some_and(|c| {
                            c.status == "False"
                                && (c.reason.as_deref() == Some("FlavorNotFound")
                                    || c.message.as_deref().is_some_and(|m| m.contains(&**f)))
                        })
                    {
                        "does not exist"
                    } else {
                        "is not in the bundle"
                    }
                );
            }
        }
    }
    if let Some(cohort) = cq.cohort().filter(|_| show_cohort) {
        let mut pad = sub.clone();
        let mut chain_names = vec![cohort.to_string()];
        for a in cohorts.iter().skip(1) {
            chain_names.push(a.clone());
        }
        for (i, co) in chain_names.iter().enumerate() {
            let members = ctx.tree.members(co);
            let text = format!(
                "Cohort {co}{} · members {}",
                if snap.find("Cohort", None, co).is_none() {
                    " (implicit: no Cohort object)"
                } else {
                    ""
                },
                members.join(", ")
            );
            let line = match snap.find("Cohort", None, co) {
                Some(coid) => line_for(snap, coid, &text),
                None => text,
            };
            let _ = writeln!(
                out,
                "{pad}└─ {}{}",
                if i > 0 { "parent " } else { "" },
                line
            );
            pad.push_str("   ");
            // The cohort's pool per (flavor, resource) this ClusterQueue uses.
            for row in &rows {
                let (Some(f), Some(r)) = (row["flavor"].as_str(), row["resource"].as_str()) else {
                    continue;
                };
                let fr = (f.to_string(), r.to_string());
                let node = Node::Cohort(co.clone());
                let quota = ctx.tree.subtree(&node, &fr);
                if quota == 0 && ctx.tree.usage(&node, &fr) == 0 {
                    continue;
                }
                let _ = writeln!(
                    out,
                    "{pad}{f} {r}: pool {} (own nominal {} plus what members lend), in use {}",
                    show(r, quota),
                    show(
                        r,
                        ctx.tree.limits(&node, &fr).map(|l| l.nominal).unwrap_or(0)
                    ),
                    show(r, ctx.tree.usage(&node, &fr)),
                );
            }
        }
        if !ctx.tree.cycles.is_empty() {
            let _ = writeln!(
                out,
                "{pad}✗ cohort cycle through {}",
                ctx.tree
                    .cycles
                    .iter()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
}

/// Quota rows as a table: aligned, or a line per row when too wide (see [`fit`]).
fn table(rows: &[Value], indent: &str, with_needed: bool, out: &mut String) {
    let mut head = vec![
        "flavor",
        "resource",
        "nominal",
        "borrowing limit",
        "lending limit",
        "reserved",
        "free",
        "max capacity",
    ];
    if with_needed {
        head.push("needed");
    }
    let keys = [
        "flavor",
        "resource",
        "nominal",
        "borrowing_limit",
        "lending_limit",
        "reserved",
        "free",
        "max_capacity",
        "needed",
    ];
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            keys.iter()
                .take(head.len())
                .map(|k| {
                    r[*k]
                        .as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| "-".into())
                })
                .collect()
        })
        .collect();
    // Laid out by `fit`, which knows the width: a header, then a row per cell list, the
    // last column being whether the Workload fits (no header).
    let row = |cols: Vec<&str>| -> String {
        format!("{indent}{}{}", fit::ROW, cols.join(&fit::CELL.to_string()))
    };
    let mut header = head.clone();
    if with_needed {
        header.push("");
    }
    let _ = writeln!(out, "{}", row(header));
    for (row_value, c) in rows.iter().zip(&cells) {
        let mut cols: Vec<&str> = c.iter().map(String::as_str).collect();
        if with_needed {
            cols.push(fits(row_value));
        }
        let _ = writeln!(out, "{}", row(cols));
    }
}

/// `✗ never fits`, `✗ not now` or `✓`: what a quota row's `needed` leaves.
fn fits(row: &Value) -> &'static str {
    let (Some(n), Some(max), Some(free), Some(r)) = (
        row["needed"].as_str(),
        row["max_capacity"].as_str(),
        row["free"].as_str(),
        row["resource"].as_str(),
    ) else {
        return "";
    };
    let u = |s: &str| {
        crate::kube::quantity::Quantity::parse(s)
            .ok()
            .map(|q| scheduler_units(r, q))
    };
    match (u(n), u(max), u(free)) {
        (Some(n), Some(max), _) if n > max => "✗ never fits",
        (Some(n), _, Some(free)) if n > free => "✗ not now",
        (Some(_), Some(_), Some(_)) => "✓",
        _ => "",
    }
}

/// Pending and admitted Workloads of a ClusterQueue.
fn queued_here(ctx: &Ctx, cq: &str, out: &mut String) {
    let snap = ctx.snap;
    let mut admitted = Vec::new();
    let mut pending = Vec::new();
    for (id, w) in snap.workloads() {
        if w.is_finished() {
            continue;
        }
        if w.has_quota_reserved()
            && w.status
                .admission
                .as_ref()
                .is_some_and(|a| a.cluster_queue == cq)
        {
            let held: Vec<String> = model::holdings(w)
                .iter()
                .map(|((f, r), u)| format!("{} {r} in {f}", show(r, *u)))
                .collect();
            admitted.push(format!(
                "{}{} · {}",
                display_name(snap, *id),
                if w.is_admitted() {
                    ""
                } else {
                    " (reserved, not admitted)"
                },
                held.join(", ")
            ));
        } else if !w.has_quota_reserved() {
            let ns = snap.object(*id).namespace.as_deref();
            let lq_cq = w
                .queue_name()
                .and_then(|q| snap.find("LocalQueue", ns, q))
                .and_then(|l| Snapshot::view_of(snap.local_queues(), l))
                .map(|l| l.spec.cluster_queue.as_str());
            if lq_cq == Some(cq) {
                let c = chain::analyze(ctx, *id, w);
                let (mut msg, _, _) = c.explain(ctx);
                if msg.is_empty() {
                    msg = chain::verdict_word(&c.verdict).to_string();
                }
                pending.push(format!(
                    "{} · priority {} · {}",
                    display_name(snap, *id),
                    w.priority(),
                    msg
                ));
            }
        }
    }
    let _ = writeln!(out, "holding quota ({}):", admitted.len());
    for a in admitted {
        let _ = writeln!(out, "  - {a}");
    }
    let _ = writeln!(out, "pending ({}):", pending.len());
    for p in pending {
        let _ = writeln!(out, "  - {p}");
    }
}

fn cohort_tree(ctx: &Ctx, name: &str, out: &mut String) {
    let snap = ctx.snap;
    let members = ctx.tree.members(name);
    let _ = writeln!(
        out,
        "Cohort {name}{} · members {}",
        if snap.find("Cohort", None, name).is_none() {
            " (implicit: no Cohort object)"
        } else {
            ""
        },
        if members.is_empty() {
            "(none)".to_string()
        } else {
            members.join(", ")
        }
    );
    for m in members {
        if let Some((cid, cq)) = snap
            .find("ClusterQueue", None, &m)
            .and_then(|cid| Snapshot::view_of(snap.cluster_queues(), cid).map(|c| (cid, c)))
        {
            cq_tree_with(ctx, cid, cq, None, "  ", false, out);
        }
    }
    // The pool each level of the cohort holds.
    let mut frs: Vec<(String, String)> = Vec::new();
    for (_, cq) in snap.cluster_queues() {
        if ctx
            .tree
            .members(name)
            .iter()
            .any(|m| m.as_str() == cq.metadata.name.as_str())
        {
            for g in &cq.spec.resource_groups {
                for f in &g.flavors {
                    for r in &f.resources {
                        let fr = (f.name.clone(), r.name.clone());
                        if !frs.contains(&fr) {
                            frs.push(fr);
                        }
                    }
                }
            }
        }
    }
    let node = Node::Cohort(name.to_string());
    for fr in frs {
        let _ = writeln!(
            out,
            "  {} {}: pool {} (own nominal {} plus what members lend), in use {}",
            fr.0,
            fr.1,
            show(&fr.1, ctx.tree.subtree(&node, &fr)),
            show(
                &fr.1,
                ctx.tree.limits(&node, &fr).map(|l| l.nominal).unwrap_or(0)
            ),
            show(&fr.1, ctx.tree.usage(&node, &fr)),
        );
    }
    let parents: Vec<String> = match snap
        .find("Cohort", None, name)
        .and_then(|id| Snapshot::view_of(snap.cohorts(), id))
    {
        Some(c) => c.parent().map(|p| vec![p.to_string()]).unwrap_or_default(),
        None => Vec::new(),
    };
    if let Some(p) = parents.first() {
        let _ = writeln!(out, "  parent: Cohort {p}");
    }
}

/// The findings about these objects (where they stopped), or that there is none.
fn verdict(snap: &Snapshot, findings: &[Finding], anchors: &[ObjectId], out: &mut String) {
    let refs: Vec<_> = anchors
        .iter()
        .map(|id| snap.object(*id).reference())
        .collect();
    let about: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.explains.iter().any(|e| anchors.contains(e)) || refs.contains(&f.object))
        .collect();
    let _ = writeln!(out);
    if about.is_empty() {
        let _ = writeln!(out, "no finding: nothing in the bundle says it is stuck");
        return;
    }
    for f in about {
        let _ = writeln!(
            out,
            "stage {} · {} {} · {}",
            f.stage.as_str(),
            f.rule,
            f.severity.as_str(),
            f.object.display()
        );
        let _ = writeln!(out, "  {}", one_line(&f.message));
        let _ = writeln!(out, "  help: {}", f.help);
    }
}

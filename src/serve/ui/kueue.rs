//! The Kueue views of an object page, from the model `kdiag why` and the Kueue rules
//! read (`rules::kueue::chain`, `model`): a Workload's admission (its conditions, podsets
//! as count × per pod = total asked, the assigned ClusterQueue with flavors and usage,
//! admission checks, the chain as a graph of links with the failing hop marked, the
//! quota it needs against what is available), a LocalQueue's, a ClusterQueue's quota per
//! flavor and resource (nominal, borrowing and lending limits, reserved, used, free,
//! maximum capacity, and what a Workload needs there), a ResourceFlavor's nodes and a
//! Cohort's members and shared quota.

use super::object::{condition_table, findings_on};
use super::{Links, named};
use crate::kube::kueue::{ClusterQueue, Workload};
use crate::kube::quantity::Quantity;
use crate::kube::requests::display_units;
use crate::report::html::{esc, graph};
use crate::rules::kueue::chain::quota::quota_table;
use crate::rules::kueue::chain::words::{describe_selector, node_label_words, node_taint_words};
use crate::rules::kueue::chain::{self, Chain, Ctx, Verdict, verdict_word};
use crate::rules::kueue::model::Node;
use crate::serve::answer::Answer;
use crate::serve::request::Request;
use crate::serve::state::State;
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt::Write as _;

pub const GROUP: &str = "kueue.x-k8s.io";

/// Workloads listed on a queue's page.
const WORKLOADS_SHOWN: usize = 100;

/// The Kueue part of an object page (nothing for other kinds).
pub fn section(state: &State, links: &Links, req: &Request, id: ObjectId, h: &mut String) {
    let snap = &state.snap;
    let o = snap.object(id);
    if o.group() != GROUP {
        return;
    }
    let ctx = Ctx::new(snap);
    match o.kind.as_str() {
        "Workload" => {
            if let Some(w) = Snapshot::view_of(snap.workloads(), id) {
                workload(state, links, &ctx, id, w, h);
            }
        }
        "LocalQueue" => local_queue(state, links, &ctx, id, h),
        "ClusterQueue" => {
            if let Some(cq) = Snapshot::view_of(snap.cluster_queues(), id) {
                let asked = req.param("workload").and_then(|w| workload_named(snap, w));
                cluster_queue(state, links, &ctx, cq, asked, h);
            }
        }
        "ResourceFlavor" => flavor(snap, links, id, h),
        "Cohort" => cohort(links, &ctx, &o.name, h),
        _ => {}
    }
}

/// The page of a Cohort that ClusterQueues name with no Cohort object.
pub fn implicit_cohort(state: &State, links: &Links, name: &str) -> Option<Answer> {
    let ctx = Ctx::new(&state.snap);
    if ctx.tree.members(name).is_empty() {
        return None;
    }
    let mut h = format!(
        "<h1><span class=\"muted\">Cohort</span> {}</h1>\n<p class=\"muted\">No Cohort object: ClusterQueues name it (an implicit cohort).</p>\n",
        esc(name)
    );
    cohort(links, &ctx, name, &mut h);
    Some(super::page(
        state,
        &format!("Cohort {name}"),
        &format!(" › {}", esc(name)),
        &h,
    ))
}

fn workload_named(snap: &Snapshot, ns_name: &str) -> Option<ObjectId> {
    let (ns, name) = ns_name.split_once('/')?;
    snap.find("Workload", Some(ns), name)
}

/// A Workload's page link to its queues and cohort carries the Workload, so that the
/// ClusterQueue's page says what this Workload needs there.
pub fn chain_link<'l>(
    links: &'l Links,
    ns: &'l str,
    name: &'l str,
) -> impl Fn(&crate::kube::meta::ObjectRef) -> Option<String> + 'l {
    move |r| {
        let url = links.reference(r)?;
        Some(match r.kind.as_str() {
            "ClusterQueue" => format!("{url}?workload={}%2F{}", super::seg(ns), super::seg(name)),
            _ => url,
        })
    }
}

fn workload(state: &State, links: &Links, ctx: &Ctx, id: ObjectId, w: &Workload, h: &mut String) {
    let snap = &state.snap;
    let c = chain::analyze(ctx, id, w);
    let word = verdict_word(&c.verdict);
    h.push_str("<section id=\"admission\"><h2>Admission</h2>\n");
    let said = findings_on(snap, &state.found, id)
        .into_iter()
        .find(|f| f.rule.starts_with("kueue"))
        .map(|f| f.message.clone());
    let text = match (&c.verdict, said) {
        (Verdict::Admitted, _) => format!(
            "Admitted by Kueue{}",
            w.status
                .admission
                .as_ref()
                .map(|a| format!(" in ClusterQueue {}", a.cluster_queue))
                .unwrap_or_default()
        ),
        (Verdict::Finished, _) => "Finished".to_string(),
        (_, Some(m)) => m,
        (_, None) => format!("Not admitted ({word})"),
    };
    let _ = writeln!(
        h,
        "<p class=\"verdict\" data-verdict=\"{}\">{}</p>",
        esc(word),
        esc(&text)
    );
    if matches!(c.verdict, Verdict::Admitted) {
        pending_pods(state, links, &c, h);
    }
    let details = c.details(ctx);
    let ns = c.namespace.clone();
    let link = chain_link(links, &ns, &w.metadata.name);
    graph::graphs(&details, 0, Some(&link), h);
    kueue_conditions(snap.object(id).value(), h);
    podsets(&c, h);
    admission(links, w, h);
    checks(links, w, h);
    if let Some((cid, cq)) = c.cq {
        let _ = writeln!(h, "<h3>Quota in ClusterQueue {}</h3>", links.a_name(cid));
        let rows = quota_table(ctx, cq, Some(&c));
        needs(&rows, h);
        quota(snap, cq, &rows, h);
    }
    notes(&c.notes, h);
    h.push_str("</section>\n");
}

/// Admitted, but pods Pending: a scheduling problem, not Kueue's; the scheduler's
/// findings on those pods, linked.
fn pending_pods(state: &State, links: &Links, c: &Chain, h: &mut String) {
    let snap = &state.snap;
    let pending: Vec<ObjectId> = c
        .pods
        .iter()
        .copied()
        .filter(|&p| snap.pod(p).is_some_and(|p| p.phase() == "Pending"))
        .collect();
    if pending.is_empty() {
        return;
    }
    let _ = writeln!(
        h,
        "<div class=\"scheduling\"><p><b>Admitted by Kueue, but {} of its {} pods are Pending</b>: the wait is the scheduler's (placement on nodes), not Kueue's quota.</p><ul>",
        pending.len(),
        c.pods.len()
    );
    for p in pending {
        let found = findings_on(snap, &state.found, p);
        let _ = write!(h, "<li>{}", links.a(p));
        for f in found {
            let _ = write!(
                h,
                " — <span class=\"badge sev\">{}</span> <a href=\"{}#kdiag-findings\" data-rule=\"{}\">{}</a>",
                f.severity.as_str(),
                esc(&links.object(p).unwrap_or_default()),
                esc(f.rule),
                esc(&f.message)
            );
        }
        h.push_str("</li>\n");
    }
    h.push_str("</ul></div>\n");
}

/// QuotaReserved, Admitted, Evicted, PodsReady first (each said when not set), then the rest.
fn kueue_conditions(v: &Value, h: &mut String) {
    let list: Vec<&Value> = v
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .map(|l| l.iter().collect())
        .unwrap_or_default();
    const FIRST: [&str; 4] = ["QuotaReserved", "Admitted", "Evicted", "PodsReady"];
    let type_of = |c: &Value| {
        c.get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let mut rows: Vec<&Value> = Vec::new();
    let unset: Vec<Value> = FIRST
        .iter()
        .filter(|t| !list.iter().any(|c| type_of(c) == **t))
        .map(|t| serde_json::json!({"type": t, "status": "(not set)"}))
        .collect();
    for t in FIRST {
        if let Some(c) = list.iter().find(|c| type_of(c) == t) {
            rows.push(c);
        } else if let Some(u) = unset.iter().find(|u| type_of(u) == t) {
            rows.push(u);
        }
    }
    rows.extend(
        list.iter()
            .filter(|c| !FIRST.contains(&type_of(c).as_str())),
    );
    h.push_str("<h3>Conditions</h3>\n");
    condition_table(rows, h);
}

fn units_map(m: &std::collections::BTreeMap<String, i128>) -> String {
    m.iter()
        .map(|(r, u)| format!("{} {r}", display_units(r, *u)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Each podset: count × per pod = total asked.
fn podsets(c: &Chain, h: &mut String) {
    if c.needs.is_empty() {
        return;
    }
    h.push_str("<h3>PodSets</h3>\n<div class=\"scroll\"><table class=\"grid podsets\"><thead><tr><th>PodSet</th><th>Count</th><th>Per pod</th><th>Total asked</th></tr></thead><tbody>\n");
    for n in &c.needs {
        let _ = writeln!(
            h,
            "<tr data-podset=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td class=\"total\">{}</td></tr>",
            esc(&n.name),
            esc(&n.name),
            n.count,
            esc(&units_map(&n.per_pod)),
            esc(&units_map(&n.total)),
        );
    }
    h.push_str("</tbody></table></div>\n");
}

/// `status.admission`: the ClusterQueue, each podset's flavors and usage.
fn admission(links: &Links, w: &Workload, h: &mut String) {
    let Some(a) = &w.status.admission else {
        return;
    };
    let _ = writeln!(
        h,
        "<h3>Assigned</h3>\n<p>ClusterQueue {}</p>",
        links.a_ref(&named("ClusterQueue", None, &a.cluster_queue))
    );
    h.push_str("<div class=\"scroll\"><table class=\"grid assigned\"><thead><tr><th>PodSet</th><th>Count</th><th>Flavors</th><th>Usage</th></tr></thead><tbody>\n");
    for p in &a.pod_set_assignments {
        let flavors: Vec<String> = p
            .flavors
            .iter()
            .map(|(r, f)| {
                format!(
                    "{} → {}",
                    esc(r),
                    links.a_ref(&named("ResourceFlavor", None, f))
                )
            })
            .collect();
        let usage: Vec<String> = p
            .resource_usage
            .iter()
            .map(|(r, q)| format!("{} {r}", q.raw))
            .collect();
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&p.name),
            p.count.map(|c| c.to_string()).unwrap_or_default(),
            flavors.join("<br>"),
            esc(&usage.join(", ")),
        );
    }
    h.push_str("</tbody></table></div>\n");
}

fn checks(links: &Links, w: &Workload, h: &mut String) {
    if w.status.admission_checks.is_empty() {
        return;
    }
    h.push_str("<h3>Admission checks</h3>\n<div class=\"scroll\"><table class=\"grid checks\"><thead><tr><th>Check</th><th>State</th><th>Message</th><th>Last transition</th></tr></thead><tbody>\n");
    for c in &w.status.admission_checks {
        let _ = writeln!(
            h,
            "<tr class=\"state-{s}\"><td>{}</td><td>{s}</td><td class=\"message\">{}</td><td>{}</td></tr>",
            links.a_ref(&named("AdmissionCheck", None, &c.name)),
            esc(c.message.as_deref().unwrap_or("")),
            esc(c.last_transition_time.as_deref().unwrap_or("")),
            s = esc(&c.state),
        );
    }
    h.push_str("</tbody></table></div>\n");
}

fn notes(notes: &[String], h: &mut String) {
    if notes.is_empty() {
        return;
    }
    h.push_str("<ul class=\"notes\">");
    for n in notes {
        let _ = write!(h, "<li>{}</li>", esc(n));
    }
    h.push_str("</ul>\n");
}

fn q(row: &Value, k: &str) -> Option<i128> {
    row.get(k)
        .and_then(Value::as_str)
        .and_then(|v| Quantity::parse(v).ok())
        .map(|q| q.nanos())
}

fn sv<'a>(row: &'a Value, k: &str) -> &'a str {
    row.get(k).and_then(Value::as_str).unwrap_or("")
}

/// What the Workload needs against what is available, per flavor and resource: "needs
/// 3 cpu, 2 available", the short ones first and marked.
fn needs(rows: &[Value], h: &mut String) {
    let mut items: Vec<(bool, String)> = Vec::new();
    for r in rows {
        let (Some(need), Some(free)) = (q(r, "needed"), q(r, "free")) else {
            continue;
        };
        let short = need > free;
        let never = q(r, "max_capacity").is_some_and(|m| need > m);
        let text = format!(
            "{} · {}: needs {} {res}, {} available{}",
            sv(r, "cluster_queue"),
            sv(r, "flavor"),
            sv(r, "needed"),
            sv(r, "free"),
            if never {
                format!(
                    " — more than the maximum capacity ({}): it never fits",
                    sv(r, "max_capacity")
                )
            } else if short {
                " now: it waits for quota to be released".to_string()
            } else {
                " — fits".to_string()
            },
            res = sv(r, "resource"),
        );
        items.push((short, text));
    }
    if items.is_empty() {
        return;
    }
    items.sort_by_key(|(short, _)| !short);
    h.push_str("<ul class=\"needs\">\n");
    for (short, text) in items {
        let _ = writeln!(
            h,
            "<li class=\"{}\">{}</li>",
            if short { "short" } else { "fits" },
            esc(&text)
        );
    }
    h.push_str("</ul>\n");
}

/// The quota table: flavor × resource with nominal, limits, reserved, used (the
/// ClusterQueue's `flavorsUsage`), free now, maximum capacity and what is needed.
fn quota(snap: &Snapshot, cq: &ClusterQueue, rows: &[Value], h: &mut String) {
    if rows.is_empty() {
        return;
    }
    let used = |f: &str, r: &str| -> String {
        let cid = snap.find("ClusterQueue", None, &cq.metadata.name);
        cid.and_then(|id| {
            snap.object(id)
                .value()
                .pointer("/status/flavorsUsage")?
                .as_array()?
                .iter()
                .find(|x| x.get("name").and_then(Value::as_str) == Some(f))?
                .get("resources")?
                .as_array()?
                .iter()
                .find(|x| x.get("name").and_then(Value::as_str) == Some(r))?
                .get("total")
                .map(|t| {
                    t.as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| t.to_string())
                })
        })
        .unwrap_or_default()
    };
    let with_needed = rows
        .iter()
        .any(|r| r.get("needed").is_some_and(|n| !n.is_null()));
    let _ = writeln!(
        h,
        "<div class=\"scroll\"><table class=\"grid quota\"><thead><tr><th>Flavor</th><th>Resource</th><th>Nominal</th><th>Borrowing limit</th><th>Lending limit</th><th>Reserved</th><th>Used</th><th>Free</th><th>Max capacity</th>{}</tr></thead><tbody>",
        if with_needed { "<th>Needed</th>" } else { "" }
    );
    for r in rows {
        let short = matches!((q(r, "needed"), q(r, "free")), (Some(n), Some(f)) if n > f);
        let cell = |k: &str| esc(r.get(k).and_then(Value::as_str).unwrap_or("—"));
        let _ = writeln!(
            h,
            "<tr data-flavor=\"{f}\" data-resource=\"{res}\"{cls}><td>{f}</td><td>{res}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>{}</tr>",
            cell("nominal"),
            cell("borrowing_limit"),
            cell("lending_limit"),
            cell("reserved"),
            esc(&used(sv(r, "flavor"), sv(r, "resource"))),
            cell("free"),
            cell("max_capacity"),
            if with_needed {
                format!("<td class=\"needed\">{}</td>", cell("needed"))
            } else {
                String::new()
            },
            f = esc(sv(r, "flavor")),
            res = esc(sv(r, "resource")),
            cls = if short { " class=\"short\"" } else { "" },
        );
    }
    h.push_str("</tbody></table></div>\n");
}

/// The ClusterQueue a Workload's queue name leads to (or the one that admitted it).
fn cq_of(snap: &Snapshot, id: ObjectId, w: &Workload) -> Option<String> {
    if let Some(a) = &w.status.admission {
        return Some(a.cluster_queue.clone());
    }
    let ns = snap.object(id).namespace.as_deref();
    let lq = snap.find("LocalQueue", ns, w.queue_name()?)?;
    Snapshot::view_of(snap.local_queues(), lq).map(|l| l.spec.cluster_queue.clone())
}

fn cluster_queue(
    state: &State,
    links: &Links,
    ctx: &Ctx,
    cq: &ClusterQueue,
    asked: Option<ObjectId>,
    h: &mut String,
) {
    let snap = &state.snap;
    let name = cq.metadata.name.as_str();
    h.push_str("<section id=\"clusterqueue\"><h2>ClusterQueue</h2>\n");
    let chain = asked.and_then(|wid| {
        let w = Snapshot::view_of(snap.workloads(), wid)?;
        let c = chain::analyze(ctx, wid, w);
        c.cq.filter(|(_, x)| x.metadata.name == name)?;
        Some(c)
    });
    if let Some(c) = &chain {
        let word = verdict_word(&c.verdict);
        let stops_here = graph::broken_kind(word) == Some("ClusterQueue");
        let _ = writeln!(
            h,
            "<div class=\"for-workload{}\" data-verdict=\"{}\"><p>For Workload {}: {}</p>",
            if stops_here { " hop-broken" } else { "" },
            esc(word),
            links.a(c.id),
            if stops_here {
                "<b>this ClusterQueue is where it stops</b>"
            } else if word == "fits-later" {
                "it waits here for quota"
            } else {
                "its state here"
            }
        );
        let details = c.details(ctx);
        let link = chain_link(links, &c.namespace, &c.wl.metadata.name);
        graph::graphs(&details, 0, Some(&link), h);
        needs(&quota_table(ctx, cq, Some(c)), h);
        h.push_str("</div>\n");
    }
    let cohorts = ctx.tree.ancestors(name);
    h.push_str("<dl class=\"props\">\n");
    let mut prop = |k: &str, v: String| {
        let _ = writeln!(h, "<dt>{k}</dt><dd>{v}</dd>");
    };
    prop(
        "Cohort",
        match cq.cohort() {
            Some(_) if !cohorts.is_empty() => cohorts
                .iter()
                .map(|c| links.a_ref(&named("Cohort", None, c)))
                .collect::<Vec<_>>()
                .join(" › parent "),
            Some(c) => links.a_ref(&named("Cohort", None, c)),
            None => "none".into(),
        },
    );
    prop(
        "Flavors",
        cq.flavor_names()
            .iter()
            .map(|f| links.a_ref(&named("ResourceFlavor", None, f)))
            .collect::<Vec<_>>()
            .join(", "),
    );
    let local: Vec<String> = snap
        .local_queues()
        .iter()
        .filter(|(_, lq)| lq.spec.cluster_queue == name)
        .map(|(id, _)| links.a(*id))
        .collect();
    prop(
        "LocalQueues",
        if local.is_empty() {
            "none".into()
        } else {
            local.join(", ")
        },
    );
    prop(
        "Queueing strategy",
        esc(cq
            .spec
            .queueing_strategy
            .as_deref()
            .unwrap_or("BestEffortFIFO")),
    );
    prop(
        "Namespace selector",
        esc(&match &cq.spec.namespace_selector {
            Some(sel) => describe_selector(sel),
            None => "absent (admits no namespace)".into(),
        }),
    );
    prop(
        "Stop policy",
        esc(cq.spec.stop_policy.as_deref().unwrap_or("None")),
    );
    let rules = cq.admission_check_rules();
    if !rules.is_empty() {
        prop(
            "Admission checks",
            rules
                .iter()
                .map(|(n, _)| links.a_ref(&named("AdmissionCheck", None, n)))
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    prop(
        "Workloads",
        format!(
            "{} pending · {} reserving · {} admitted",
            cq.status.pending_workloads.unwrap_or(0),
            cq.status.reserving_workloads.unwrap_or(0),
            cq.status.admitted_workloads.unwrap_or(0)
        ),
    );
    h.push_str("</dl>\n<h3>Quota</h3>\n");
    let rows = quota_table(ctx, cq, chain.as_ref());
    quota(snap, cq, &rows, h);
    workloads_here(
        snap,
        links,
        ctx,
        |id, w| cq_of(snap, id, w).as_deref() == Some(name),
        h,
    );
    h.push_str("</section>\n");
}

/// The Workloads of a queue, each with its verdict.
fn workloads_here(
    snap: &Snapshot,
    links: &Links,
    ctx: &Ctx,
    here: impl Fn(ObjectId, &Workload) -> bool,
    h: &mut String,
) {
    let ws: Vec<(ObjectId, &Workload)> = snap
        .workloads()
        .iter()
        .filter(|(id, w)| here(*id, w))
        .map(|(id, w)| (*id, w))
        .collect();
    if ws.is_empty() {
        return;
    }
    let _ = writeln!(
        h,
        "<h3>Workloads here <span class=\"muted\">({})</span></h3>\n<div class=\"scroll\"><table class=\"grid workloads\"><thead><tr><th>Workload</th><th>Verdict</th><th>Asks</th></tr></thead><tbody>",
        ws.len()
    );
    for (id, w) in ws.iter().take(WORKLOADS_SHOWN) {
        let c = chain::analyze(ctx, *id, w);
        let asks: Vec<String> = c
            .needs
            .iter()
            .map(|n| format!("{} × ({})", n.count, units_map(&n.per_pod)))
            .collect();
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            links.a(*id),
            esc(verdict_word(&c.verdict)),
            esc(&asks.join(" + "))
        );
    }
    h.push_str("</tbody></table></div>\n");
    if ws.len() > WORKLOADS_SHOWN {
        let _ = writeln!(
            h,
            "<p class=\"muted\">{} more not shown</p>",
            ws.len() - WORKLOADS_SHOWN
        );
    }
}

fn local_queue(state: &State, links: &Links, ctx: &Ctx, id: ObjectId, h: &mut String) {
    let snap = &state.snap;
    let Some(lq) = Snapshot::view_of(snap.local_queues(), id) else {
        return;
    };
    let ns = snap.object(id).namespace.clone();
    let active = lq.active();
    let _ = writeln!(
        h,
        "<section id=\"localqueue\"><h2>LocalQueue</h2>\n<dl class=\"props\"><dt>ClusterQueue</dt><dd>{}</dd><dt>Stop policy</dt><dd>{}</dd><dt>Active</dt><dd>{}</dd><dt>Workloads</dt><dd>{} pending · {} reserving · {} admitted</dd></dl>",
        links.a_ref(&named("ClusterQueue", None, &lq.spec.cluster_queue)),
        esc(lq.spec.stop_policy.as_deref().unwrap_or("None")),
        esc(&active
            .map(|a| format!(
                "{}{}",
                a.status,
                a.reason
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default()
            ))
            .unwrap_or_else(|| "not reported".into())),
        lq.status.pending_workloads.unwrap_or(0),
        lq.status.reserving_workloads.unwrap_or(0),
        lq.status.admitted_workloads.unwrap_or(0),
    );
    let name = lq.metadata.name.as_str();
    workloads_here(
        snap,
        links,
        ctx,
        |wid, w| w.queue_name() == Some(name) && snap.object(wid).namespace == ns,
        h,
    );
    h.push_str("</section>\n");
}

fn flavor(snap: &Snapshot, links: &Links, id: ObjectId, h: &mut String) {
    let Some(rf) = Snapshot::view_of(snap.resource_flavors(), id) else {
        return;
    };
    let labels = node_label_words(rf);
    let taints = node_taint_words(rf);
    let tolerations: Vec<String> = snap
        .object(id)
        .value()
        .pointer("/spec/tolerations")
        .and_then(Value::as_array)
        .map(|l| l.iter().map(|t| t.to_string()).collect())
        .unwrap_or_default();
    let none = |v: &[String]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            esc(&v.join(", "))
        }
    };
    let _ = writeln!(
        h,
        "<section id=\"resourceflavor\"><h2>ResourceFlavor</h2>\n<dl class=\"props\"><dt>Node labels</dt><dd>{}</dd><dt>Node taints</dt><dd>{}</dd><dt>Tolerations</dt><dd>{}</dd><dt>Topology</dt><dd>{}</dd><dt>Used by</dt><dd>{}</dd></dl>",
        none(&labels),
        none(&taints),
        none(&tolerations),
        esc(rf.spec.topology_name.as_deref().unwrap_or("none")),
        {
            let users: Vec<String> = snap
                .cluster_queues()
                .iter()
                .filter(|(_, c)| c.flavor_names().contains(&rf.metadata.name.as_str()))
                .map(|(cid, _)| links.a(*cid))
                .collect();
            if users.is_empty() {
                "no ClusterQueue".into()
            } else {
                users.join(", ")
            }
        }
    );
    let matching: Vec<ObjectId> = snap
        .nodes()
        .iter()
        .filter(|(_, n)| {
            rf.spec.node_labels.iter().all(|(k, v)| {
                n.metadata
                    .labels
                    .get(k)
                    .is_some_and(|x| x.as_str() == v.as_str())
            })
        })
        .map(|(nid, _)| *nid)
        .collect();
    let _ = writeln!(
        h,
        "<h3>Nodes matching its labels <span class=\"muted\">({} of {})</span></h3>\n<ul class=\"links nodes\">{}</ul>",
        matching.len(),
        snap.nodes().len(),
        matching
            .iter()
            .map(|n| format!("<li>{}</li>", links.a(*n)))
            .collect::<String>()
    );
    h.push_str("</section>\n");
}

/// A cohort: its parent, members (every ClusterQueue below it), the pool of each flavor
/// and resource they share, and who borrows from it.
fn cohort(links: &Links, ctx: &Ctx, name: &str, h: &mut String) {
    let snap = ctx.snap;
    let members = ctx.tree.members(name);
    let parent = snap
        .find("Cohort", None, name)
        .and_then(|id| Snapshot::view_of(snap.cohorts(), id))
        .and_then(|c| c.parent().map(str::to_string));
    let children: Vec<String> = snap
        .cohorts()
        .iter()
        .filter(|(_, c)| c.parent() == Some(name))
        .map(|(id, _)| links.a(*id))
        .collect();
    let _ = writeln!(
        h,
        "<section id=\"cohort\"><h2>Cohort</h2>\n<dl class=\"props\"><dt>Parent</dt><dd>{}</dd><dt>Child cohorts</dt><dd>{}</dd><dt>Members</dt><dd><ul class=\"links members\">{}</ul></dd></dl>",
        parent
            .as_deref()
            .map(|p| links.a_ref(&named("Cohort", None, p)))
            .unwrap_or_else(|| "none".into()),
        if children.is_empty() {
            "none".into()
        } else {
            children.join(", ")
        },
        members
            .iter()
            .map(|m| format!("<li>{}</li>", links.a_ref(&named("ClusterQueue", None, m))))
            .collect::<String>()
    );
    // Every (flavor, resource) a member has quota for.
    let mut frs: BTreeSet<(String, String)> = BTreeSet::new();
    for m in &members {
        if let Some(cq) = snap
            .find("ClusterQueue", None, m)
            .and_then(|id| Snapshot::view_of(snap.cluster_queues(), id))
        {
            for g in &cq.spec.resource_groups {
                for f in &g.flavors {
                    for r in &f.resources {
                        frs.insert((f.name.clone(), r.name.clone()));
                    }
                }
            }
        }
    }
    if frs.is_empty() {
        h.push_str("</section>\n");
        return;
    }
    h.push_str("<h3>Shared quota</h3>\n<div class=\"scroll\"><table class=\"grid pool\"><thead><tr><th>Flavor</th><th>Resource</th><th>Pool</th><th>Cohort's own</th><th>In use</th><th>Borrowed by</th></tr></thead><tbody>\n");
    let node = Node::Cohort(name.to_string());
    for fr in &frs {
        let r = fr.1.as_str();
        let borrowers: Vec<String> = members
            .iter()
            .filter_map(|m| {
                let n = Node::Cq(m.clone());
                let nominal = ctx.tree.limits(&n, fr).map(|l| l.nominal).unwrap_or(0);
                let over = ctx.tree.usage(&n, fr) - nominal;
                (over > 0).then(|| {
                    format!(
                        "{} ({})",
                        links.a_ref(&named("ClusterQueue", None, m)),
                        esc(&display_units(r, over))
                    )
                })
            })
            .collect();
        let _ = writeln!(
            h,
            "<tr data-flavor=\"{}\" data-resource=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&fr.0),
            esc(r),
            links.a_ref(&named("ResourceFlavor", None, &fr.0)),
            esc(r),
            esc(&display_units(r, ctx.tree.subtree(&node, fr))),
            esc(&display_units(
                r,
                ctx.tree.limits(&node, fr).map(|l| l.nominal).unwrap_or(0)
            )),
            esc(&display_units(r, ctx.tree.usage(&node, fr))),
            if borrowers.is_empty() {
                "none".into()
            } else {
                borrowers.join(", ")
            },
        );
    }
    h.push_str("</tbody></table></div>\n</section>\n");
}

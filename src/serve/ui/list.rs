//! The kinds the bundle holds, and one kind's list with kubectl's columns (the
//! explorer's), each name a link to its page; Workloads add kdiag's verdict.

use super::{Links, kueue, page};
use crate::explorer::served::table;
use crate::report::html::esc;
use crate::rules::kueue::chain;
use crate::serve::answer::Answer;
use crate::serve::resources::{Origin, Resource};
use crate::serve::state::State;
use crate::snapshot::ObjectId;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// Rows of a list page; past them, the page says how many more and how to narrow it.
const ROWS_SHOWN: usize = 1000;

/// `/ui`: every kind the bundle holds, with its count, by group.
pub fn kinds(state: &State, links: &Links) -> Answer {
    let snap = &state.snap;
    let mut by_group: BTreeMap<&str, Vec<(&Resource, usize)>> = BTreeMap::new();
    for r in state
        .resources
        .list
        .iter()
        .filter(|r| r.origin == Origin::Stored)
    {
        let n = snap.ids_of_group(&r.group, &r.kind).len();
        if n > 0 {
            by_group.entry(r.group.as_str()).or_default().push((r, n));
        }
    }
    let mut h = String::from("<h1>Kinds in the bundle</h1>\n");
    for (group, list) in by_group {
        let _ = writeln!(
            h,
            "<section class=\"kinds\"><h2>{}</h2><ul class=\"links kinds\">",
            esc(if group.is_empty() { "core" } else { group })
        );
        for (r, n) in list {
            let _ = writeln!(
                h,
                "<li><a href=\"{}\">{}</a> <span class=\"muted\">{n}</span></li>",
                esc(&links.list(r, None)),
                esc(&r.kind)
            );
        }
        h.push_str("</ul></section>\n");
    }
    page(state, "kinds", " › kinds", &h)
}

/// `/ui/GROUP/VERSION/PLURAL[?namespace=NS]`.
pub fn list(state: &State, links: &Links, r: &Resource, namespace: Option<&str>) -> Answer {
    let snap = &state.snap;
    let ids: Vec<ObjectId> = snap
        .ids_of_group(&r.group, &r.kind)
        .iter()
        .copied()
        .filter(|&id| namespace.is_none() || snap.object(id).namespace.as_deref() == namespace)
        .collect();
    let shown = &ids[..ids.len().min(ROWS_SHOWN)];
    let t = table(snap, &r.group, &r.kind, shown);
    let verdicts: HashMap<ObjectId, &str> = if r.group == kueue::GROUP && r.kind == "Workload" {
        chain::verdicts(snap).into_iter().collect()
    } else {
        HashMap::new()
    };
    let mut h = format!(
        "<h1>{}{} <span class=\"muted\">({})</span></h1>\n",
        esc(&r.kind),
        namespace
            .map(|n| format!(" in {}", esc(n)))
            .unwrap_or_default(),
        ids.len()
    );
    if namespace.is_some() {
        let _ = writeln!(
            h,
            "<p><a href=\"{}\">every namespace</a></p>",
            esc(&links.list(r, None))
        );
    }
    let cols: Vec<usize> = (0..t.columns.len()).filter(|&i| !t.columns[i].1).collect();
    let name_col = t.columns.iter().position(|(c, _)| c == "NAME");
    h.push_str("<div class=\"scroll\"><table class=\"grid list\"><thead><tr>");
    if r.namespaced && namespace.is_none() {
        h.push_str("<th>NAMESPACE</th>");
    }
    for &i in &cols {
        let _ = write!(h, "<th>{}</th>", esc(&t.columns[i].0));
    }
    if !verdicts.is_empty() {
        h.push_str("<th>KDIAG</th>");
    }
    h.push_str("</tr></thead><tbody>\n");
    for (row, &id) in t.rows.iter().zip(shown) {
        let o = snap.object(id);
        h.push_str("<tr>");
        if r.namespaced && namespace.is_none() {
            let ns = o.namespace.as_deref().unwrap_or("");
            let _ = write!(
                h,
                "<td><a href=\"{}\">{}</a></td>",
                esc(&links.list(r, Some(ns))),
                esc(ns)
            );
        }
        for &i in &cols {
            let cell = row.get(i).map(String::as_str).unwrap_or("");
            if Some(i) == name_col || (name_col.is_none() && i == cols[0]) {
                let _ = write!(h, "<td>{}</td>", links.a_name(id));
            } else {
                let _ = write!(h, "<td>{}</td>", esc(cell));
            }
        }
        if !verdicts.is_empty() {
            let _ = write!(
                h,
                "<td>{}</td>",
                esc(verdicts.get(&id).copied().unwrap_or(""))
            );
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody></table></div>\n");
    if ids.len() > shown.len() {
        let _ = writeln!(
            h,
            "<p class=\"muted\">{} more not shown: pick a namespace.</p>",
            ids.len() - shown.len()
        );
    }
    let crumbs = format!(" › {}", esc(&r.plural));
    page(state, &r.plural, &crumbs, &h)
}

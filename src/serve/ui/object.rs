//! One object's page: kdiag's findings on it, the Kueue views of Kueue kinds, its
//! references as links, conditions, events, the kubectl-style summary, a pod's logs and
//! the YAML.

use super::{Links, kueue, refs};
use crate::explorer::describe::describe_object;
use crate::explorer::logs::{LogRequest, container_log};
use crate::explorer::served::object_yaml;
use crate::report::html::esc;
use crate::rules::Finding;
use crate::serve::answer::Answer;
use crate::serve::request::Request;
use crate::serve::state::State;
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::fmt::Write as _;

/// Lines of each log shown on the page (the whole log is at the API's `pods/log`).
const LOG_TAIL: i64 = 200;

pub fn page_html(state: &State, links: &Links, req: &Request, id: ObjectId, h: &mut String) {
    let snap = &state.snap;
    let o = snap.object(id);
    let _ = writeln!(
        h,
        "<h1><span class=\"muted\">{}</span> {}</h1>",
        esc(&o.kind),
        esc(&match &o.namespace {
            Some(ns) => format!("{ns}/{}", o.name),
            None => o.name.clone(),
        })
    );
    let found = findings_on(snap, &state.found, id);
    findings(links, &found, h);
    kueue::section(state, links, req, id, h);
    refs::section(snap, links, id, h);
    conditions(o.value(), h);
    events(snap, &found, id, h);
    let _ = writeln!(
        h,
        "<section id=\"summary-text\"><h2>Summary</h2>\n<pre class=\"describe\">{}</pre></section>",
        esc(&describe_object(snap, &state.found, id))
    );
    if o.kind == "Pod" && o.group().is_empty() {
        logs(snap, id, h);
    }
    let _ = writeln!(
        h,
        "<section id=\"yaml\"><details><summary><h2>YAML</h2></summary>\n<pre class=\"yaml\">{}</pre></details></section>",
        esc(&object_yaml(snap, id))
    );
}

pub fn page(state: &State, links: &Links, req: &Request, id: ObjectId) -> Answer {
    let snap = &state.snap;
    let o = snap.object(id);
    let mut h = String::with_capacity(16 * 1024);
    page_html(state, links, req, id, &mut h);
    let crumbs = match links.resource(o.group(), &o.kind) {
        Some(r) => {
            let mut c = format!(
                " › <a href=\"{}\">{}</a>",
                esc(&links.list(r, None)),
                esc(&r.plural)
            );
            if let Some(ns) = &o.namespace {
                let _ = write!(
                    c,
                    " › <a href=\"{}\">{}</a>",
                    esc(&links.list(r, Some(ns))),
                    esc(ns)
                );
            }
            let _ = write!(c, " › {}", esc(&o.name));
            c
        }
        None => String::new(),
    };
    super::page(state, &format!("{} {}", o.kind, o.name), &crumbs, &h)
}

/// kdiag's findings about an object: on it, or explaining it.
pub fn findings_on<'f>(snap: &Snapshot, all: &'f [Finding], id: ObjectId) -> Vec<&'f Finding> {
    let o = snap.object(id);
    all.iter()
        .filter(|f| {
            f.explains.contains(&id)
                || (f.object.kind == o.kind
                    && f.object.name == o.name
                    && f.object.namespace == o.namespace)
        })
        .collect()
}

fn findings(links: &Links, found: &[&Finding], h: &mut String) {
    if found.is_empty() {
        return;
    }
    h.push_str(
        "<section id=\"kdiag-findings\"><h2>kdiag's findings</h2>\n<ul class=\"findings\">\n",
    );
    for f in found {
        let _ = writeln!(
            h,
            "<li class=\"sev-{sev}\" data-rule=\"{rule}\"><span class=\"badge sev\">{sev}</span> <span class=\"badge stage\">{stage}</span> {obj}: {msg}{help} <span class=\"meta\">rule <code>{rule}</code></span></li>",
            sev = f.severity.as_str(),
            stage = f.stage.as_str(),
            rule = esc(f.rule),
            obj = links.a_ref(&f.object),
            msg = esc(&f.message),
            help = if f.help.is_empty() {
                String::new()
            } else {
                format!(
                    "<br><span class=\"help-line\"><b>What to do:</b> {}</span>",
                    esc(&f.help)
                )
            },
        );
    }
    h.push_str("</ul></section>\n");
}

/// `status.conditions` as a table, whatever the kind.
pub fn conditions(v: &Value, h: &mut String) {
    let Some(list) = v
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .filter(|l| !l.is_empty())
    else {
        return;
    };
    h.push_str("<section id=\"conditions\"><h2>Conditions</h2>\n");
    condition_table(list.iter().collect(), h);
    h.push_str("</section>\n");
}

/// Conditions as rows: type, status, reason, message, last transition.
pub fn condition_table(list: Vec<&Value>, h: &mut String) {
    h.push_str("<div class=\"scroll\"><table class=\"grid conditions\"><thead><tr><th>Type</th><th>Status</th><th>Reason</th><th>Message</th><th>Last transition</th></tr></thead><tbody>\n");
    for c in list {
        let f = |k: &str| match c.get(k) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        };
        let _ = writeln!(
            h,
            "<tr data-type=\"{t}\" class=\"status-{s}\"><td>{t}</td><td>{s}</td><td>{}</td><td class=\"message\">{}</td><td>{}</td></tr>",
            esc(&f("reason")),
            esc(&f("message")),
            esc(&f("lastTransitionTime")),
            t = esc(&f("type")),
            s = esc(&f("status")),
        );
    }
    h.push_str("</tbody></table></div>\n");
}

/// The object's events, oldest first, then kdiag's findings as the Warning events the
/// API serves them as.
fn events(snap: &Snapshot, found: &[&Finding], id: ObjectId, h: &mut String) {
    let list = snap.events_for(id);
    if list.is_empty() && found.is_empty() {
        return;
    }
    h.push_str("<section id=\"events\"><h2>Events</h2>\n<div class=\"scroll\"><table class=\"grid events\"><thead><tr><th>Type</th><th>Reason</th><th>Count</th><th>From</th><th>Message</th></tr></thead><tbody>\n");
    for (_, e) in &list {
        let _ = writeln!(
            h,
            "<tr class=\"ev-{t}\"><td>{t}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"message\">{}</td></tr>",
            esc(&e.reason),
            e.count,
            esc(&e.component),
            esc(&e.message),
            t = esc(&e.type_),
        );
    }
    for f in found {
        let _ = writeln!(
            h,
            "<tr class=\"ev-Warning kdiag\"><td>Warning</td><td>{}</td><td>1</td><td>kdiag</td><td class=\"message\">{}</td></tr>",
            esc(f.rule),
            esc(&f.message),
        );
    }
    h.push_str("</tbody></table></div></section>\n");
}

/// Each container's log, current and previous, the last lines of each.
fn logs(snap: &Snapshot, id: ObjectId, h: &mut String) {
    let o = snap.object(id);
    let v = o.value();
    let names: Vec<&str> = ["initContainers", "containers"]
        .iter()
        .filter_map(|k| v.pointer(&format!("/spec/{k}")).and_then(Value::as_array))
        .flatten()
        .filter_map(|c| c.get("name").and_then(Value::as_str))
        .collect();
    if names.is_empty() {
        return;
    }
    let ns = o.namespace.clone().unwrap_or_default();
    h.push_str("<section id=\"logs\"><h2>Logs</h2>\n");
    for c in names {
        for previous in [false, true] {
            let asked = LogRequest {
                pod: o.name.clone(),
                container: Some(c.to_string()),
                previous,
                namespace: Some(ns.clone()),
                tail: Some(LOG_TAIL),
            };
            let which = if previous { "previous" } else { "current" };
            let full = format!(
                "/api/v1/namespaces/{}/pods/{}/log?container={}{}",
                super::seg(&ns),
                super::seg(&o.name),
                super::seg(c),
                if previous { "&previous=true" } else { "" }
            );
            match container_log(snap, &asked) {
                Ok(held) => {
                    let _ = writeln!(
                        h,
                        "<details class=\"log\" data-container=\"{c}\" data-which=\"{which}\"{open}><summary>{c} · {which} <span class=\"muted\">(last {LOG_TAIL} lines; <a href=\"{}\">whole log</a>)</span></summary>{}<pre class=\"log\">{}</pre></details>",
                        esc(&full),
                        held.notes
                            .iter()
                            .map(|n| format!("<p class=\"muted\">{}</p>", esc(n)))
                            .collect::<String>(),
                        esc(&held.text),
                        c = esc(c),
                        open = if previous { "" } else { " open" },
                    );
                }
                Err(e) => {
                    let _ = writeln!(
                        h,
                        "<p class=\"log-missing\" data-container=\"{c}\" data-which=\"{which}\">{c} · {which}: <span class=\"muted\">{}</span></p>",
                        esc(&e),
                        c = esc(c),
                    );
                }
            }
        }
    }
    h.push_str("</section>\n");
}

//! `--format html`: one self-contained page for a support ticket. No network at view
//! time: the styles, the script and the graphs are all in the file.
//!
//! The page has the inputs, a summary by stage, filters (namespace, stage, severity,
//! text; also settable from the URL hash: `#ns=demo&stage=node,runtime&open=finding-2`),
//! and every finding as an expandable block with its message, help, evidence (with the
//! bundle's own lines around each cited line) and, where the rule gives `details`, a
//! graph (`graph.rs`). The first error is open when the page loads, and a link to one
//! finding (`#finding-3`, or `#f-3`) opens it.

pub mod graph;

use super::Analysis;
use super::baseline::{self, Comparison};
use super::fold::{Folded, MEMBERS_SHOWN};
use super::quote;
use crate::rules::{Evidence, Finding, Severity, Stage};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The page's styles and script, kept as files of their own languages.
const CSS: &str = include_str!("html/report.css");
const SCRIPT: &str = include_str!("html/report.js");

/// Evidence items per finding that get a source snippet (the rest are listed).
const SNIPPETS_PER_FINDING: usize = 12;
/// Lines of context around a cited line.
const CONTEXT: u32 = 2;
/// Inputs listed unfolded at the top of the page.
const INPUTS_SHOWN: usize = 4;

/// What `kdiag serve` adds to the page it serves: the URL of each object's page (objects
/// and the boxes of graphs become links), styles and a navigation bar.
pub struct Served<'a> {
    pub link: Link<'a>,
    /// More styles (the served pages' dark scheme).
    pub css: &'a str,
    /// HTML put first in the body.
    pub nav: &'a str,
    /// HTML put after the findings.
    pub after: &'a str,
}

/// The URL of an object's page; `api_version` may be empty (a graph's hop names only
/// its kind).
pub type Link<'a> = &'a dyn Fn(&crate::kube::meta::ObjectRef) -> Option<String>;

pub fn render(a: &Analysis, baseline: Option<&Comparison>) -> String {
    render_with(a, baseline, None)
}

/// The page, with links to object pages when served.
pub fn render_with(a: &Analysis, baseline: Option<&Comparison>, served: Option<&Served>) -> String {
    let link = served.map(|s| s.link);
    let mut h = String::with_capacity(64 * 1024);
    let title = match a.inputs.as_slice() {
        [one] => format!("kdiag report — {}", one.path),
        many => format!("kdiag report — {} inputs", many.len()),
    };
    let _ = write!(
        h,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"kdiag {}\">\n<title>{}</title>\n<style>{}{}</style>\n</head>\n<body>\n{}",
        env!("CARGO_PKG_VERSION"),
        mesc(a, &title),
        CSS,
        served.map_or("", |s| s.css),
        served.map_or("", |s| s.nav),
    );
    header(a, baseline, &mut h);
    summary(a, &mut h);
    filters(a, &mut h);
    findings(a, baseline, link, &mut h);
    h.push_str(served.map_or("", |s| s.after));
    if let Some(b) = baseline {
        resolved(a, b, &mut h);
    }
    problems(a, &mut h);
    let _ = write!(h, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    h
}

fn header(a: &Analysis, baseline: Option<&Comparison>, h: &mut String) {
    h.push_str("<header>\n<h1>kdiag report</h1>\n");
    for line in a.inputs.iter().filter_map(|i| i.platform_line()) {
        let _ = writeln!(h, "<p class=\"platform\">{}</p>", mesc(a, line));
    }
    // Many inputs would push the findings off the first screen: past a few, the list
    // folds under one line of totals; each input's notes fold under their count.
    if a.inputs.len() > INPUTS_SHOWN {
        let sum = |f: fn(&super::InputSummary) -> usize| a.inputs.iter().map(f).sum::<usize>();
        let _ = writeln!(
            h,
            "<details class=\"inputs\"><summary>{} inputs: {} objects from {} files, {} problems</summary>",
            a.inputs.len(),
            sum(|i| i.objects),
            sum(|i| i.files),
            sum(|i| i.problems),
        );
    }
    h.push_str("<ul class=\"inputs\">\n");
    for (i, input) in a.inputs.iter().enumerate() {
        let _ = write!(
            h,
            "<li data-input=\"{i}\"><b>{}</b> <span class=\"muted\">({})</span>: {} objects from {} files, {} skipped, {} logs, {} problems{}{}",
            mesc(a, &input.path),
            esc(input.layout),
            input.objects,
            input.files,
            input.skipped,
            input.logs,
            input.problems,
            input
                .as_of
                .as_deref()
                .map(|t| format!(", as of <time>{}</time>", mesc(a, t)))
                .unwrap_or_default(),
            input
                .cluster_version
                .as_deref()
                .map(|v| format!(", cluster {}", mesc(a, v)))
                .unwrap_or_default(),
        );
        if !input.notes.is_empty() {
            let _ = write!(
                h,
                "<details class=\"notes\"><summary>{} note{}</summary><ul>",
                input.notes.len(),
                if input.notes.len() == 1 { "" } else { "s" }
            );
            for n in &input.notes {
                let _ = write!(h, "<li>{}</li>", mesc(a, n));
            }
            h.push_str("</ul></details>");
        }
        h.push_str("</li>\n");
    }
    h.push_str("</ul>\n");
    if a.inputs.len() > INPUTS_SHOWN {
        h.push_str("</details>\n");
    }
    if let Some(b) = baseline {
        let _ = writeln!(
            h,
            "<p class=\"baseline\" id=\"baseline\">{}</p>",
            mesc(a, &b.summary())
        );
    }
    h.push_str("</header>\n");
}

fn summary(a: &Analysis, h: &mut String) {
    h.push_str(
        "<section id=\"summary\">\n<h2>Where things stopped</h2>\n<ol class=\"pipeline\">\n",
    );
    for s in Stage::ALL {
        let of: Vec<&Finding> = a.findings.iter().filter(|f| f.stage == s).collect();
        let worst = of.iter().map(|f| f.severity).min();
        let class = match worst {
            Some(Severity::Error) => "error",
            Some(Severity::Warning) => "warning",
            Some(Severity::Info) => "info",
            None => "none",
        };
        let count = |sev: Severity| of.iter().filter(|f| f.severity == sev).count();
        let _ = writeln!(
            h,
            "<li class=\"stage {class}\" data-stage=\"{s}\"><span class=\"name\">{s}</span><span class=\"count\">{}</span>\
             <span class=\"split\">{} error · {} warning · {} info</span></li>",
            of.len(),
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Info),
            s = s.as_str()
        );
    }
    h.push_str("</ol>\n");
    if a.findings.is_empty() {
        let text = if a.inputs.iter().all(|i| i.objects == 0) {
            "The bundle holds no Kubernetes objects."
        } else {
            "No stuck objects found."
        };
        let _ = writeln!(h, "<p class=\"empty\">{text}</p>");
    }
    h.push_str("</section>\n");
}

fn filters(a: &Analysis, h: &mut String) {
    let mut namespaces: BTreeMap<String, usize> = BTreeMap::new();
    for f in &a.findings {
        *namespaces.entry(ns_key(f)).or_default() += 1;
    }
    h.push_str(
        "<section id=\"filters\" aria-label=\"filters\">\n<label>Namespace <select id=\"f-ns\">",
    );
    let _ = write!(h, "<option value=\"\">all ({})</option>", a.findings.len());
    for (ns, n) in &namespaces {
        let shown = if ns.is_empty() {
            "(cluster-scoped)"
        } else {
            ns
        };
        let _ = write!(
            h,
            "<option value=\"{}\">{} ({n})</option>",
            mesc(a, ns),
            mesc(a, shown)
        );
    }
    h.push_str("</select></label>\n<fieldset id=\"f-stage\"><legend>Stage</legend>");
    for s in Stage::ALL {
        let n = a.findings.iter().filter(|f| f.stage == s).count();
        let _ = write!(
            h,
            "<label><input type=\"checkbox\" id=\"f-stage-{s}\" value=\"{s}\" checked{}> {s} ({n})</label>",
            if n == 0 { " disabled" } else { "" },
            s = s.as_str()
        );
    }
    h.push_str("</fieldset>\n<fieldset id=\"f-severity\"><legend>Severity</legend>");
    for sev in [Severity::Error, Severity::Warning, Severity::Info] {
        let n = a.findings.iter().filter(|f| f.severity == sev).count();
        let _ = write!(
            h,
            "<label><input type=\"checkbox\" id=\"f-severity-{s}\" value=\"{s}\" checked> {s} ({n})</label>",
            s = sev.as_str()
        );
    }
    h.push_str(
        "</fieldset>\n<label>Text <input type=\"search\" id=\"f-text\" placeholder=\"pod, rule, message…\"></label>\n\
         <button type=\"button\" id=\"expand-all\">expand all</button> <button type=\"button\" id=\"collapse-all\">collapse all</button>\n",
    );
    let _ = writeln!(
        h,
        "<output id=\"shown\">{n} of {n} findings shown</output>\n</section>",
        n = a.findings.len()
    );
}

fn ns_key(f: &Finding) -> String {
    f.object.namespace.clone().unwrap_or_default()
}

fn findings(a: &Analysis, baseline: Option<&Comparison>, link: Option<Link>, h: &mut String) {
    h.push_str("<section id=\"findings\">\n<h2>Findings</h2>\n");
    let mut n = 0;
    let mut error_seen = false;
    for s in Stage::ALL {
        let of: Vec<&Finding> = a.findings.iter().filter(|f| f.stage == s).collect();
        if of.is_empty() {
            continue;
        }
        let _ = writeln!(
            h,
            "<div class=\"stage-group\" data-stage=\"{s}\">\n<h3>{s} <span class=\"muted count\">({})</span></h3>",
            of.len(),
            s = s.as_str()
        );
        let folded = Folded::of(&of);
        let mut one = |f: &Finding, h: &mut String| {
            n += 1;
            // The first error is open, so the page starts with a map in view.
            let open = f.severity == Severity::Error && !error_seen;
            error_seen |= open;
            finding(a, f, n, open, baseline.map(|b| b.is_new(f)), link, h);
        };
        for f in &folded.top {
            one(f, h);
            let members = folded.members(f);
            if members.is_empty() {
                continue;
            }
            // A cause's members: the first few, then the rest folded under their count.
            let _ = writeln!(
                h,
                "<div class=\"members\" data-cause=\"{}\">\n<p class=\"muted\">{} findings wait on this cause:</p>",
                mesc(a, &f.fingerprint),
                members.len()
            );
            for m in members.iter().take(MEMBERS_SHOWN) {
                one(m, h);
            }
            if members.len() > MEMBERS_SHOWN {
                let _ = writeln!(
                    h,
                    "<details class=\"folded\"><summary>{} more waiting on the same cause</summary>",
                    members.len() - MEMBERS_SHOWN
                );
                for m in &members[MEMBERS_SHOWN..] {
                    one(m, h);
                }
                h.push_str("</details>\n");
            }
            h.push_str("</div>\n");
        }
        h.push_str("</div>\n");
    }
    h.push_str("</section>\n");
}

fn finding(
    a: &Analysis,
    f: &Finding,
    n: usize,
    open: bool,
    new: Option<bool>,
    link: Option<Link>,
    h: &mut String,
) {
    let _ = write!(
        h,
        "<details class=\"finding sev-{sev}\" id=\"finding-{n}\" data-stage=\"{stage}\" data-ns=\"{ns}\" data-severity=\"{sev}\" data-rule=\"{rule}\" data-fingerprint=\"{fp}\"{open}>\n\
         <summary><span class=\"badge sev\">{sev}</span> <span class=\"badge stage\">{stage}</span>{new} <span class=\"object\">{obj}</span> <span class=\"message\">{msg}</span> <a class=\"permalink\" href=\"#finding-{n}\" title=\"link to this finding\">#</a></summary>\n\
         <div class=\"body\">\n",
        open = if open { " open" } else { "" },
        sev = f.severity.as_str(),
        stage = f.stage.as_str(),
        ns = mesc(a, &ns_key(f)),
        rule = esc(f.rule),
        fp = mesc(a, &f.fingerprint),
        new = match new {
            Some(true) => " <span class=\"badge new\">new</span>",
            Some(false) => " <span class=\"badge unchanged\">unchanged</span>",
            None => "",
        },
        obj = linked(a, link, &f.object),
        msg = mesc(a, &a.shown_text(&f.message)),
    );
    let _ = writeln!(
        h,
        "<p class=\"full-message\">{}</p>",
        mesc(a, &a.shown_text(&f.message))
    );
    // The map right under the message: what stopped, then where, then what to do.
    if let Some(d) = &f.details {
        graph::graphs(&a.mask_value(d), n, link, h);
    }
    if !f.help.is_empty() {
        let _ = writeln!(
            h,
            "<p class=\"help\"><b>What to do:</b> {}</p>",
            mesc(a, &f.help)
        );
    }
    if !f.evidence.is_empty() {
        h.push_str("<h4>Evidence</h4>\n<ol class=\"evidence\">\n");
        for (i, e) in f.evidence.iter().enumerate() {
            evidence(a, e, i < SNIPPETS_PER_FINDING, link, h);
        }
        h.push_str("</ol>\n");
    }
    let _ = writeln!(
        h,
        "<p class=\"meta\">rule <code>{}</code> · fingerprint <code>{}</code></p>\n</div>\n</details>",
        esc(f.rule),
        mesc(a, &f.fingerprint)
    );
}

fn evidence(a: &Analysis, e: &Evidence, snippet: bool, link: Option<Link>, h: &mut String) {
    h.push_str("<li>");
    if let Some(file) = &e.file {
        let prefix = match e.input {
            Some(i) if a.inputs.len() > 1 => format!(
                "[{}] ",
                a.inputs.get(i).map(|x| x.path.as_str()).unwrap_or("?")
            ),
            _ => String::new(),
        };
        let line = e.line.map(|l| format!(":{l}")).unwrap_or_default();
        let file = e.input.map_or(file.as_str(), |i| a.shown_path(i, file));
        let _ = write!(
            h,
            "<code class=\"loc\">{}</code> ",
            mesc(a, &format!("{prefix}{file}{line}"))
        );
    }
    if let Some(o) = &e.object {
        let _ = write!(
            h,
            "<span class=\"ev-object\">{}</span> ",
            linked(a, link, o)
        );
    }
    let _ = write!(
        h,
        "<span class=\"note\">{}</span>",
        mesc(a, &a.shown_text(&e.note))
    );
    if snippet
        && let (Some(file), Some(input), Some(line)) = (&e.file, e.input, e.line)
        && let Some(src) = a
            .snapshot
            .files
            .iter()
            .find(|s| s.input == input && &s.path == file)
    {
        let start = line.saturating_sub(CONTEXT).max(1);
        let column = quote::cited_column(a, src, e);
        let lines = quote::lines(a, src, start, line + CONTEXT, |no| {
            if no == line { column } else { 0 }
        });
        if !lines.is_empty() {
            h.push_str("<pre class=\"snippet\">");
            for (k, l) in lines.iter().enumerate() {
                let no = start + k as u32;
                let _ = write!(
                    h,
                    "<span class=\"ln{}\"><i>{no}</i>{}</span>",
                    if no == line { " hit" } else { "" },
                    esc(l)
                );
            }
            h.push_str("</pre>");
        }
    }
    h.push_str("</li>\n");
}

fn resolved(a: &Analysis, b: &Comparison, h: &mut String) {
    let _ = writeln!(
        h,
        "<section id=\"resolved\">\n<h2>Resolved since the baseline <span class=\"muted\">({})</span></h2>\n<ul>",
        b.resolved.len()
    );
    for f in &b.resolved {
        let _ = writeln!(
            h,
            "<li class=\"resolved\">{}</li>",
            esc(&baseline::one_line(a, f))
        );
    }
    h.push_str("</ul>\n</section>\n");
}

fn problems(a: &Analysis, h: &mut String) {
    if a.problems.is_empty() {
        return;
    }
    let _ = writeln!(
        h,
        "<section id=\"problems\">\n<h2>Input problems <span class=\"muted\">({})</span></h2>\n<ul>",
        a.problems.len()
    );
    for p in &a.problems {
        let (input, file) = a.problem_place(p);
        let loc = format!("{input}: {file}");
        let _ = writeln!(
            h,
            "<li><code>{}</code> {}</li>",
            mesc(a, &loc),
            mesc(a, &p.message)
        );
    }
    h.push_str("</ul>\n</section>\n");
}

/// Text of the bundle's as the page shows it: masked with `--redact`, then escaped.
fn mesc(a: &Analysis, s: &str) -> String {
    esc(&a.mask(s))
}

/// An object's name (masked with `--redact`), a link to its page when served and the page exists.
fn linked(a: &Analysis, link: Option<Link>, o: &crate::kube::meta::ObjectRef) -> String {
    match link.and_then(|l| l(o)) {
        Some(url) => format!("<a href=\"{}\">{}</a>", esc(&url), mesc(a, &o.display())),
        None => mesc(a, &o.display()),
    }
}

/// HTML text and attribute escaping.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}

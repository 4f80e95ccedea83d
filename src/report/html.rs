//! `--format html`: one self-contained page for a support ticket. No network at view
//! time: the styles, the script and the graphs (inline SVG) are all in the file.
//!
//! The page has the inputs, a summary by stage, filters (namespace, stage, severity,
//! text; also settable from the URL hash: `#ns=demo&stage=node,runtime&open=finding-2`),
//! and every finding as an expandable block with its message, help, evidence (with the
//! bundle's own lines around each cited line) and, where the rule gives `details`, a
//! graph: the Kueue map (Job → Workload → LocalQueue → ClusterQueue → ResourceFlavors /
//! Cohorts, with quota bars per flavor and resource) or the traffic chain (Ingress →
//! Service → EndpointSlice → Pods).

use super::Analysis;
use super::baseline::{self, Comparison};
use super::quote;
use crate::kube::quantity::Quantity;
use crate::rules::{Evidence, Finding, Severity, Stage};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Evidence items per finding that get a source snippet (the rest are listed).
const SNIPPETS_PER_FINDING: usize = 12;
/// Lines of context around a cited line.
const CONTEXT: u32 = 2;

pub fn render(a: &Analysis, baseline: Option<&Comparison>) -> String {
    let mut h = String::with_capacity(64 * 1024);
    let title = match a.inputs.as_slice() {
        [one] => format!("kdiag report — {}", one.path),
        many => format!("kdiag report — {} inputs", many.len()),
    };
    let _ = write!(
        h,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"kdiag {}\">\n<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n",
        env!("CARGO_PKG_VERSION"),
        esc(&title),
        CSS
    );
    header(a, baseline, &mut h);
    summary(a, &mut h);
    filters(a, &mut h);
    findings(a, baseline, &mut h);
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
        let _ = writeln!(h, "<p class=\"platform\">{}</p>", esc(line));
    }
    h.push_str("<ul class=\"inputs\">\n");
    for (i, input) in a.inputs.iter().enumerate() {
        let _ = write!(
            h,
            "<li data-input=\"{i}\"><b>{}</b> <span class=\"muted\">({})</span>: {} objects from {} files, {} skipped, {} logs, {} problems{}{}",
            esc(&input.path),
            esc(input.layout),
            input.objects,
            input.files,
            input.skipped,
            input.logs,
            input.problems,
            input
                .as_of
                .as_deref()
                .map(|t| format!(", as of <time>{}</time>", esc(t)))
                .unwrap_or_default(),
            input
                .cluster_version
                .as_deref()
                .map(|v| format!(", cluster {}", esc(v)))
                .unwrap_or_default(),
        );
        if !input.notes.is_empty() {
            h.push_str("<ul class=\"notes\">");
            for n in &input.notes {
                let _ = write!(h, "<li>{}</li>", esc(n));
            }
            h.push_str("</ul>");
        }
        h.push_str("</li>\n");
    }
    h.push_str("</ul>\n");
    if let Some(b) = baseline {
        let _ = writeln!(
            h,
            "<p class=\"baseline\" id=\"baseline\">{}</p>",
            esc(&b.summary())
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
            esc(ns),
            esc(shown)
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

fn findings(a: &Analysis, baseline: Option<&Comparison>, h: &mut String) {
    h.push_str("<section id=\"findings\">\n<h2>Findings</h2>\n");
    let mut n = 0;
    for s in Stage::ALL {
        let of: Vec<&Finding> = a.findings.iter().filter(|f| f.stage == s).collect();
        if of.is_empty() {
            continue;
        }
        let _ = writeln!(
            h,
            "<div class=\"stage-group\" data-stage=\"{s}\">\n<h3>{s} <span class=\"muted\">({})</span></h3>",
            of.len(),
            s = s.as_str()
        );
        for f in of {
            n += 1;
            finding(a, f, n, baseline.map(|b| b.is_new(f)), h);
        }
        h.push_str("</div>\n");
    }
    h.push_str("</section>\n");
}

fn finding(a: &Analysis, f: &Finding, n: usize, new: Option<bool>, h: &mut String) {
    let _ = write!(
        h,
        "<details class=\"finding sev-{sev}\" id=\"finding-{n}\" data-stage=\"{stage}\" data-ns=\"{ns}\" data-severity=\"{sev}\" data-rule=\"{rule}\" data-fingerprint=\"{fp}\">\n\
         <summary><span class=\"badge sev\">{sev}</span> <span class=\"badge stage\">{stage}</span>{new} <span class=\"object\">{obj}</span> <span class=\"message\">{msg}</span></summary>\n\
         <div class=\"body\">\n",
        sev = f.severity.as_str(),
        stage = f.stage.as_str(),
        ns = esc(&ns_key(f)),
        rule = esc(f.rule),
        fp = esc(&f.fingerprint),
        new = match new {
            Some(true) => " <span class=\"badge new\">new</span>",
            Some(false) => " <span class=\"badge unchanged\">unchanged</span>",
            None => "",
        },
        obj = esc(&f.object.display()),
        msg = esc(&f.message),
    );
    let _ = writeln!(h, "<p class=\"full-message\">{}</p>", esc(&f.message));
    if !f.help.is_empty() {
        let _ = writeln!(
            h,
            "<p class=\"help\"><b>What to do:</b> {}</p>",
            esc(&f.help)
        );
    }
    if let Some(d) = &f.details {
        // Masked before the graphs clip names to fit their boxes.
        graphs(&a.mask_value(d), n, h);
    }
    if !f.evidence.is_empty() {
        h.push_str("<h4>Evidence</h4>\n<ol class=\"evidence\">\n");
        for (i, e) in f.evidence.iter().enumerate() {
            evidence(a, e, i < SNIPPETS_PER_FINDING, h);
        }
        h.push_str("</ol>\n");
    }
    let _ = writeln!(
        h,
        "<p class=\"meta\">rule <code>{}</code> · fingerprint <code>{}</code></p>\n</div>\n</details>",
        esc(f.rule),
        esc(&f.fingerprint)
    );
}

fn evidence(a: &Analysis, e: &Evidence, snippet: bool, h: &mut String) {
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
        let _ = write!(
            h,
            "<code class=\"loc\">{}</code> ",
            esc(&format!("{prefix}{file}{line}"))
        );
    }
    if let Some(o) = &e.object {
        let _ = write!(h, "<span class=\"ev-object\">{}</span> ", esc(&o.display()));
    }
    let _ = write!(h, "<span class=\"note\">{}</span>", esc(&e.note));
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
        let input = a
            .inputs
            .get(p.input)
            .map(|i| i.path.as_str())
            .unwrap_or("?");
        let loc = format!(
            "{input}: {}{}",
            p.file.as_deref().unwrap_or(""),
            p.line.map(|l| format!(":{l}")).unwrap_or_default()
        );
        let _ = writeln!(h, "<li><code>{}</code> {}</li>", esc(&loc), esc(&p.message));
    }
    h.push_str("</ul>\n</section>\n");
}

// ── graphs ──────────────────────────────────────────────────────────────────────────

const BOX_W: f64 = 172.0;
const BOX_H: f64 = 58.0;
const COL_GAP: f64 = 46.0;
const ROW_GAP: f64 = 14.0;

/// One box of a graph.
struct GNode {
    kind: String,
    name: String,
    line: String,
    title: String,
    state: &'static str,
    col: usize,
    row: usize,
}

fn graphs(d: &Value, n: usize, h: &mut String) {
    let Some(chain) = d.get("chain").and_then(Value::as_array) else {
        return;
    };
    let is_kueue = chain
        .iter()
        .any(|c| c.get("kind").and_then(Value::as_str) == Some("Workload"));
    if is_kueue {
        kueue_map(d, chain, n, h);
        if let Some(rows) = d
            .get("quota")
            .and_then(Value::as_array)
            .filter(|r| !r.is_empty())
        {
            quota_bars(rows, n, h);
        }
    } else if chain.iter().any(|c| c.get("state").is_some()) {
        traffic_chain(chain, n, h);
    }
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

fn kueue_map(d: &Value, chain: &[Value], n: usize, h: &mut String) {
    let verdict = d.get("verdict").and_then(Value::as_str).unwrap_or("");
    let broken_kind = match verdict {
        "no-queue-name" | "localqueue-missing" | "localqueue-stopped" | "localqueue-inactive" => {
            Some("LocalQueue")
        }
        "clusterqueue-missing"
        | "clusterqueue-stopped"
        | "clusterqueue-inactive"
        | "namespace-not-selected"
        | "admission-checks"
        | "resource-not-covered"
        | "never-fits"
        | "strict-fifo-blocked" => Some("ClusterQueue"),
        "no-matching-flavor" => Some("ResourceFlavor"),
        _ => None,
    };
    let waiting = verdict == "fits-later";
    // Flavors the Workload could not use.
    let bad_flavors: Vec<&str> = d
        .get("flavors")
        .and_then(Value::as_array)
        .map(|fs| {
            fs.iter()
                .filter(|f| matches!(s(f, "outcome"), "missing" | "mismatch"))
                .map(|f| s(f, "flavor"))
                .collect()
        })
        .unwrap_or_default();
    let mut nodes = Vec::new();
    let mut main_col = 0;
    let mut flavor_row = 0;
    let mut cohort_rows = Vec::new();
    for c in chain {
        let kind = s(c, "kind");
        let name = s(c, "name").to_string();
        let in_bundle = c.get("in_bundle").and_then(Value::as_bool).unwrap_or(true);
        let (line, col, row) = match kind {
            "ResourceFlavor" => {
                let labels = c
                    .get("nodeLabels")
                    .and_then(Value::as_object)
                    .map(|m| {
                        m.iter()
                            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "no nodeLabels".into());
                flavor_row += 1;
                (labels, main_col, flavor_row - 1)
            }
            "Cohort" => {
                cohort_rows.push(nodes.len());
                (String::from("cohort"), main_col, 0)
            }
            _ => {
                let line = match kind {
                    "Job" => {
                        if c.get("suspend").and_then(Value::as_bool) == Some(true) {
                            "suspend: true".into()
                        } else {
                            String::new()
                        }
                    }
                    "Workload" => {
                        let k = c.get("kueue");
                        match k.filter(|k| !k.is_null()) {
                            Some(k) => format!("{} {}", s(k, "condition"), s(k, "reason")),
                            None if c.get("admitted").and_then(Value::as_bool) == Some(true) => {
                                "Admitted".into()
                            }
                            None => String::new(),
                        }
                    }
                    "LocalQueue" => match c.get("clusterQueue").and_then(Value::as_str) {
                        Some(cq) => format!("→ {cq}"),
                        None => String::new(),
                    },
                    "ClusterQueue" => {
                        let cohort = c
                            .get("cohort")
                            .and_then(Value::as_str)
                            .map(|c| format!("cohort {c}"));
                        cohort.unwrap_or_else(|| "no cohort".into())
                    }
                    _ => String::new(),
                };
                let col = main_col;
                main_col += 1;
                (line, col, 0)
            }
        };
        let state = if !in_bundle {
            "missing"
        } else if broken_kind == Some(kind)
            && (kind != "ResourceFlavor" || bad_flavors.contains(&name.as_str()))
        {
            "broken"
        } else if waiting && kind == "ClusterQueue" {
            "warn"
        } else {
            "ok"
        };
        let ns = s(c, "namespace");
        let title = format!(
            "{kind} {}{name}{}{}",
            if ns.is_empty() {
                String::new()
            } else {
                format!("{ns}/")
            },
            if in_bundle {
                ""
            } else {
                " (not in the bundle)"
            },
            if line.is_empty() {
                String::new()
            } else {
                format!(": {line}")
            }
        );
        nodes.push(GNode {
            kind: kind.to_string(),
            name,
            line,
            title,
            state,
            col,
            row,
        });
    }
    // Flavors and cohorts share the column right of the ClusterQueue: flavors on top.
    let side_col = main_col;
    let flavors = nodes.iter().filter(|g| g.kind == "ResourceFlavor").count();
    for (k, &i) in cohort_rows.iter().enumerate() {
        nodes[i].row = flavors + k;
    }
    for g in nodes.iter_mut() {
        if g.kind == "ResourceFlavor" || g.kind == "Cohort" {
            g.col = side_col;
        }
    }
    let mut edges = Vec::new();
    let main: Vec<usize> = (0..nodes.len())
        .filter(|&i| !matches!(nodes[i].kind.as_str(), "ResourceFlavor" | "Cohort"))
        .collect();
    for w in main.windows(2) {
        edges.push((w[0], w[1], ""));
    }
    if let Some(&cq) = main.iter().find(|&&i| nodes[i].kind == "ClusterQueue") {
        for (i, g) in nodes.iter().enumerate() {
            if g.kind == "ResourceFlavor" {
                edges.push((cq, i, "flavor"));
            }
        }
        let mut prev = cq;
        for &i in &cohort_rows {
            edges.push((prev, i, if prev == cq { "cohort" } else { "parent" }));
            prev = i;
        }
    }
    svg_graph("kueue-map", "Kueue admission chain", &nodes, &edges, n, h);
}

fn traffic_chain(chain: &[Value], n: usize, h: &mut String) {
    let col_of = |kind: &str| match kind {
        "Ingress" => Some(0),
        "Service" => Some(1),
        "EndpointSlice" | "Endpoints" => Some(2),
        "Pod" => Some(3),
        _ => None,
    };
    let mut nodes: Vec<GNode> = Vec::new();
    let mut last_pod: Option<usize> = None;
    for c in chain {
        let kind = s(c, "kind");
        let name = s(c, "name");
        let note = s(c, "note");
        let broken = s(c, "state") == "broken";
        let Some(col) = col_of(kind) else {
            // Events and other hops annotate the pod before them.
            if let Some(p) = last_pod {
                let g = &mut nodes[p];
                let _ = write!(g.title, "\n{kind}: {note}");
                if kind == "Event" && !g.line.starts_with('⚠') {
                    g.line = format!("⚠ {}", g.line);
                }
            }
            continue;
        };
        if let Some(g) = nodes.iter_mut().find(|g| g.kind == kind && g.name == name) {
            let _ = write!(g.title, "\n{note}");
            if broken {
                g.state = "broken";
            }
            continue;
        }
        let line = short_note(kind, note);
        nodes.push(GNode {
            kind: kind.to_string(),
            name: name.to_string(),
            line,
            title: format!("{kind} {}/{name}: {note}", s(c, "namespace")),
            state: if broken { "broken" } else { "ok" },
            col,
            row: 0,
        });
        if kind == "Pod" {
            last_pod = Some(nodes.len() - 1);
        }
    }
    if nodes.is_empty() {
        return;
    }
    // Compact columns (a chain may start at the Service) and stack each column's nodes.
    let mut cols: Vec<usize> = nodes.iter().map(|g| g.col).collect();
    cols.sort();
    cols.dedup();
    let mut rows = vec![0usize; cols.len()];
    for g in nodes.iter_mut() {
        let c = cols.iter().position(|&c| c == g.col).unwrap_or(0);
        g.col = c;
        g.row = rows[c];
        rows[c] += 1;
    }
    let mut edges = Vec::new();
    for i in 0..nodes.len() {
        for j in 0..nodes.len() {
            if nodes[j].col == nodes[i].col + 1 {
                edges.push((i, j, ""));
            }
        }
    }
    svg_graph("traffic-chain", "Traffic chain", &nodes, &edges, n, h);
}

/// The part of a hop's note that fits in a box.
fn short_note(kind: &str, note: &str) -> String {
    let cut = match kind {
        "Pod" => note.split_once("): ").map(|(_, r)| r).unwrap_or(note),
        "EndpointSlice" | "Endpoints" => note.split_once(": ").map(|(_, r)| r).unwrap_or(note),
        _ => note,
    };
    cut.split([':', ';'])
        .next()
        .unwrap_or(cut)
        .trim()
        .to_string()
}

fn svg_graph(
    class: &str,
    label: &str,
    nodes: &[GNode],
    edges: &[(usize, usize, &str)],
    n: usize,
    h: &mut String,
) {
    let cols = nodes.iter().map(|g| g.col).max().unwrap_or(0) + 1;
    let rows = nodes.iter().map(|g| g.row).max().unwrap_or(0) + 1;
    let width = 8.0 + cols as f64 * (BOX_W + COL_GAP) - COL_GAP + 8.0;
    let height = 8.0 + rows as f64 * (BOX_H + ROW_GAP) - ROW_GAP + 8.0;
    let pos = |g: &GNode| {
        (
            8.0 + g.col as f64 * (BOX_W + COL_GAP),
            8.0 + g.row as f64 * (BOX_H + ROW_GAP),
        )
    };
    let _ = writeln!(
        h,
        "<figure class=\"graph\"><figcaption>{label}</figcaption>\n\
         <svg class=\"{class}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" role=\"img\" aria-label=\"{label}\">\n\
         <defs><marker id=\"arrow-{n}\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" class=\"arrowhead\"/></marker></defs>"
    );
    for (from, to, text) in edges {
        let (fx, fy) = pos(&nodes[*from]);
        let (tx, ty) = pos(&nodes[*to]);
        let (x1, y1, x2, y2) = if nodes[*to].col == nodes[*from].col {
            // Same column (a cohort's parent): vertical.
            (fx + BOX_W / 2.0, fy + BOX_H, tx + BOX_W / 2.0, ty)
        } else {
            (fx + BOX_W, fy + BOX_H / 2.0, tx, ty + BOX_H / 2.0)
        };
        let broken = nodes[*to].state != "ok";
        let _ = writeln!(
            h,
            "<line class=\"edge{}\" x1=\"{x1:.0}\" y1=\"{y1:.0}\" x2=\"{x2:.0}\" y2=\"{y2:.0}\" marker-end=\"url(#arrow-{n})\"><title>{}</title></line>",
            if broken { " broken" } else { "" },
            esc(text)
        );
    }
    for g in nodes {
        let (x, y) = pos(g);
        let _ = writeln!(
            h,
            "<g class=\"node {state}\" data-kind=\"{kind}\" data-name=\"{name}\" transform=\"translate({x:.0},{y:.0})\"><title>{title}</title>\
             <rect width=\"{BOX_W}\" height=\"{BOX_H}\" rx=\"6\"/>\
             <text x=\"8\" y=\"16\" class=\"kind\">{kind}{mark}</text>\
             <text x=\"8\" y=\"33\" class=\"name\">{short}</text>\
             <text x=\"8\" y=\"49\" class=\"line\">{line}</text></g>",
            state = g.state,
            kind = esc(&g.kind),
            name = esc(&g.name),
            title = esc(&g.title),
            mark = match g.state {
                "missing" => " (missing)",
                "broken" => " ✗",
                "warn" => " ⧗",
                _ => "",
            },
            short = esc(&clip(&g.name, 24)),
            line = esc(&clip(&g.line, 28)),
        );
    }
    h.push_str("</svg></figure>\n");
}

fn quota_bars(rows: &[Value], n: usize, h: &mut String) {
    const LABEL_W: f64 = 230.0;
    const BAR_W: f64 = 300.0;
    const ROW_H: f64 = 30.0;
    let height = 10.0 + rows.len() as f64 * ROW_H;
    let width = LABEL_W + BAR_W + 360.0;
    let _ = writeln!(
        h,
        "<figure class=\"graph\"><figcaption>Quota: reserved + this Workload's need against the maximum capacity (tick: nominal quota)</figcaption>\n\
         <svg class=\"quota-bars\" id=\"quota-{n}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" role=\"img\" aria-label=\"quota\">"
    );
    for (i, r) in rows.iter().enumerate() {
        let y = 6.0 + i as f64 * ROW_H;
        let q = |k: &str| {
            r.get(k)
                .and_then(Value::as_str)
                .and_then(|v| Quantity::parse(v).ok())
                .map(|q| q.nanos() as f64)
        };
        let (nominal, reserved, max, needed) = (
            q("nominal"),
            q("reserved").unwrap_or(0.0),
            q("max_capacity"),
            q("needed"),
        );
        let scale = [
            nominal.unwrap_or(0.0),
            max.unwrap_or(0.0),
            reserved + needed.unwrap_or(0.0),
        ]
        .into_iter()
        .fold(0.0, f64::max);
        let w = |v: f64| {
            if scale > 0.0 {
                (v / scale * BAR_W).clamp(0.0, BAR_W)
            } else {
                0.0
            }
        };
        let over = needed.is_some_and(|nd| max.is_some_and(|m| reserved + nd > m));
        let label = format!(
            "{} · {} · {}",
            s(r, "cluster_queue"),
            s(r, "flavor"),
            s(r, "resource")
        );
        let text = format!(
            "reserved {}{} / max {}{}{}",
            s(r, "reserved"),
            r.get("needed")
                .and_then(Value::as_str)
                .map(|nd| format!(" + needs {nd}"))
                .unwrap_or_default(),
            s(r, "max_capacity"),
            format_args!(" (nominal {})", s(r, "nominal")),
            r.get("borrowing_limit")
                .and_then(Value::as_str)
                .map(|b| format!(", borrow ≤ {b}"))
                .unwrap_or_default(),
        );
        let _ = write!(
            h,
            "<g class=\"quota-row{}\" data-resource=\"{}\" data-flavor=\"{}\"><title>{}</title>\
             <text x=\"0\" y=\"{ty:.0}\" class=\"label\">{}</text>\
             <rect class=\"track\" x=\"{LABEL_W}\" y=\"{y:.0}\" width=\"{}\" height=\"16\"/>",
            if over { " over" } else { "" },
            esc(s(r, "resource")),
            esc(s(r, "flavor")),
            esc(&text),
            esc(&clip(&label, 34)),
            w(max.unwrap_or(scale)).max(1.0),
            ty = y + 12.0,
        );
        let _ = write!(
            h,
            "<rect class=\"reserved\" x=\"{LABEL_W}\" y=\"{y:.0}\" width=\"{:.1}\" height=\"16\"/>",
            w(reserved)
        );
        if let Some(nd) = needed {
            let _ = write!(
                h,
                "<rect class=\"needed\" x=\"{:.1}\" y=\"{y:.0}\" width=\"{:.1}\" height=\"16\"/>",
                LABEL_W + w(reserved),
                (w(reserved + nd) - w(reserved)).max(0.0)
            );
        }
        if let Some(nom) = nominal {
            let x = LABEL_W + w(nom);
            let _ = write!(
                h,
                "<line class=\"nominal\" x1=\"{x:.1}\" y1=\"{:.0}\" x2=\"{x:.1}\" y2=\"{:.0}\"/>",
                y - 3.0,
                y + 19.0
            );
        }
        let _ = writeln!(
            h,
            "<text x=\"{:.0}\" y=\"{:.0}\" class=\"figures\">{}</text></g>",
            LABEL_W + BAR_W + 10.0,
            y + 12.0,
            esc(&text)
        );
    }
    h.push_str("</svg></figure>\n");
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 1).collect::<String>() + "…"
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

const CSS: &str = r#"
:root{--error:#c62828;--warning:#b26a00;--info:#1565c0;--ok:#2e7d32;--muted:#666;--bg:#fff;--line:#ddd;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:15px;color:#1d1d1d;background:var(--bg)}
body{margin:0 auto;max-width:1200px;padding:1rem 1.5rem 4rem}
h1{margin:.2rem 0 .5rem;font-size:1.6rem}h2{font-size:1.2rem;margin:1.6rem 0 .6rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}h3{font-size:1.05rem;margin:1.2rem 0 .4rem;text-transform:capitalize}h4{margin:.8rem 0 .3rem}
.muted{color:var(--muted);font-weight:normal}
ul.inputs{padding-left:1.2rem;margin:.2rem 0}ul.notes{color:var(--muted);font-size:.9em}
.baseline{font-weight:600}
ol.pipeline{display:flex;gap:.4rem;list-style:none;padding:0;margin:0;flex-wrap:wrap}
ol.pipeline li{flex:1 1 120px;border:1px solid var(--line);border-radius:6px;padding:.5rem .6rem;position:relative;background:#fafafa}
ol.pipeline li:not(:last-child)::after{content:"›";position:absolute;right:-.55rem;top:35%;color:var(--muted)}
ol.pipeline .name{display:block;font-weight:600;text-transform:capitalize}ol.pipeline .count{display:block;font-size:1.6rem;font-weight:700}ol.pipeline .split{font-size:.75rem;color:var(--muted)}
ol.pipeline li.error{border-color:var(--error);background:#fdecea}ol.pipeline li.error .count{color:var(--error)}
ol.pipeline li.warning{border-color:var(--warning);background:#fff4e0}ol.pipeline li.warning .count{color:var(--warning)}
ol.pipeline li.info{border-color:var(--info);background:#e8f1fb}ol.pipeline li.info .count{color:var(--info)}
ol.pipeline li.none .count{color:#bbb}
#filters{position:sticky;top:0;background:var(--bg);z-index:2;display:flex;flex-wrap:wrap;gap:.6rem 1rem;align-items:center;padding:.6rem 0;border-bottom:1px solid var(--line);margin-top:1rem}
#filters fieldset{border:1px solid var(--line);border-radius:6px;padding:.1rem .5rem .3rem;margin:0}#filters legend{font-size:.8em;color:var(--muted)}
#filters label{margin-right:.5rem;white-space:nowrap}#shown{color:var(--muted);margin-left:auto}
details.finding{border:1px solid var(--line);border-left:5px solid var(--info);border-radius:6px;margin:.5rem 0;background:#fff}
details.finding.sev-error{border-left-color:var(--error)}details.finding.sev-warning{border-left-color:var(--warning)}
details.finding>summary{cursor:pointer;padding:.55rem .7rem;list-style-position:outside;line-height:1.45}
details.finding>summary .message{color:#333}details.finding[open]>summary .message{display:none}
.badge{display:inline-block;font-size:.72rem;font-weight:700;text-transform:uppercase;letter-spacing:.03em;padding:.05rem .4rem;border-radius:4px;background:#eee;color:#333;vertical-align:1px}
.sev-error .badge.sev{background:var(--error);color:#fff}.sev-warning .badge.sev{background:var(--warning);color:#fff}.sev-info .badge.sev{background:var(--info);color:#fff}
.badge.new{background:#6a1b9a;color:#fff}.badge.unchanged{background:#ddd}
.object{font-weight:650}
.body{padding:0 1rem .8rem}.full-message{font-size:1.02rem}.help{background:#f3f8f3;border-left:3px solid var(--ok);padding:.4rem .6rem}
ol.evidence{padding-left:1.4rem}ol.evidence li{margin:.35rem 0}code.loc{color:#555;font-size:.85em}.ev-object{font-weight:600}
pre.snippet{background:#f7f7f7;border:1px solid #eee;border-radius:4px;padding:.3rem 0;margin:.3rem 0;overflow-x:auto;font-size:.82em;line-height:1.35}
pre.snippet span{display:block;padding:0 .6rem;white-space:pre}pre.snippet span.hit{background:#fff3c4}pre.snippet i{display:inline-block;width:3.5em;color:#999;font-style:normal;text-align:right;margin-right:1em;user-select:none}
.meta{font-size:.8em;color:var(--muted)}
figure.graph{margin:.6rem 0;overflow-x:auto}figure.graph figcaption{font-size:.85em;color:var(--muted);margin-bottom:.2rem}
svg .node rect{fill:#f1f8f1;stroke:var(--ok);stroke-width:1.5}svg .node.broken rect{fill:#fdecea;stroke:var(--error);stroke-width:2}
svg .node.warn rect{fill:#fff4e0;stroke:var(--warning);stroke-width:2}svg .node.missing rect{fill:#fff;stroke:var(--error);stroke-dasharray:5 3;stroke-width:2}
svg text{font-family:system-ui,sans-serif;font-size:12px;fill:#222}svg text.kind{font-size:10.5px;fill:#555;font-weight:600;text-transform:uppercase}svg text.name{font-weight:700}svg text.line{fill:#444;font-size:11px}
svg .edge{stroke:#888;stroke-width:1.5}svg .edge.broken{stroke:var(--error)}svg .arrowhead{fill:#888}
svg .quota-row .track{fill:#eceff1;stroke:#b0bec5}svg .quota-row .reserved{fill:#607d8b}svg .quota-row .needed{fill:#ffb300}svg .quota-row.over .needed{fill:var(--error)}
svg .quota-row .nominal{stroke:#111;stroke-width:2}svg .quota-row .figures{font-size:11.5px}svg .quota-row.over .figures{fill:var(--error);font-weight:600}
#problems li,#resolved li{margin:.2rem 0}
@media print{#filters{display:none}details.finding{break-inside:avoid}details.finding>summary .message{display:none}}
"#;

const SCRIPT: &str = r#"
(function () {
  var findings = Array.prototype.slice.call(document.querySelectorAll('details.finding'));
  var groups = Array.prototype.slice.call(document.querySelectorAll('.stage-group'));
  var ns = document.getElementById('f-ns');
  var text = document.getElementById('f-text');
  var boxes = function (id) { return Array.prototype.slice.call(document.querySelectorAll('#' + id + ' input')); };
  var stages = boxes('f-stage'), sevs = boxes('f-severity');
  function checked(list) { var s = {}; list.forEach(function (b) { if (b.checked) s[b.value] = true; }); return s; }
  function apply() {
    var st = checked(stages), sv = checked(sevs), q = text.value.trim().toLowerCase(), shown = 0;
    findings.forEach(function (f) {
      var ok = (!ns.value || f.dataset.ns === ns.value) && st[f.dataset.stage] && sv[f.dataset.severity] &&
        (!q || f.textContent.toLowerCase().indexOf(q) >= 0);
      f.hidden = !ok;
      if (ok) shown++;
    });
    groups.forEach(function (g) { g.hidden = !g.querySelector('details.finding:not([hidden])'); });
    document.getElementById('shown').textContent = shown + ' of ' + findings.length + ' findings shown';
  }
  ns.addEventListener('change', apply);
  text.addEventListener('input', apply);
  stages.concat(sevs).forEach(function (b) { b.addEventListener('change', apply); });
  document.getElementById('expand-all').addEventListener('click', function () { findings.forEach(function (f) { if (!f.hidden) f.open = true; }); });
  document.getElementById('collapse-all').addEventListener('click', function () { findings.forEach(function (f) { f.open = false; }); });
  // Links into the report: #ns=demo&stage=node,runtime&severity=error&q=text&open=finding-2&click=f-stage-traffic
  function fromHash() {
    var p = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0) p[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));
    });
    if ('ns' in p) ns.value = p.ns;
    if ('q' in p) text.value = p.q;
    function only(list, v) { if (v === undefined) return; var want = v.split(','); list.forEach(function (b) { b.checked = want.indexOf(b.value) >= 0; }); }
    only(stages, p.stage);
    only(sevs, p.severity);
    apply();
    (p.open || '').split(',').forEach(function (id) { var d = id && document.getElementById(id); if (d) d.open = true; });
    (p.click || '').split(',').forEach(function (id) { var el = id && document.getElementById(id); if (el) el.click(); });
  }
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(
            short_note(
                "Pod",
                "pod web-1 (endpoint ready=false): Ready=False for 38m, reason X: y"
            ),
            "Ready=False for 38m, reason X"
        );
    }
}

//! The graphs of the HTML report: the Kueue map (Job → Workload → LocalQueue →
//! ClusterQueue → ResourceFlavors / Cohorts) with its quota bars, and the traffic chain
//! (Ingress → Service → EndpointSlice → Pods).
//!
//! Boxes and bars are HTML, laid out in percent of the graph's width, so a box's text is
//! fitted by the browser (cut with an ellipsis at the box's edge, whole in the tooltip)
//! and a graph narrows with the page instead of scrolling out of it. Only the arrows are
//! SVG, drawn in the same percent coordinates.

use super::{Link, esc};
use crate::kube::meta::ObjectRef;
use crate::kube::quantity::Quantity;
use serde_json::Value;
use std::fmt::Write as _;

/// A box's height, the gap between rows and the room above the first row (for a box's
/// state tag), in px.
const BOX_H: f64 = 58.0;
const ROW_GAP: f64 = 16.0;
const TOP: f64 = 8.0;
/// The share of a column that its box takes; the rest is the gap the arrows cross.
const BOX_SHARE: f64 = 0.78;
/// The widest and narrowest a column is drawn, in px: wider pages leave the graph at its
/// widest; narrower ones scroll it rather than shrink boxes below a readable width.
const COL_MAX: f64 = 220.0;
const COL_MIN: f64 = 116.0;

/// One box of a graph.
struct GNode {
    kind: String,
    name: String,
    line: String,
    title: String,
    state: &'static str,
    col: usize,
    row: usize,
    /// The URL of the object's page, when served.
    href: Option<String>,
}

/// The URL of a hop's page: `link` of kind, namespace and name (the graph knows no
/// apiVersion).
fn href(link: Option<Link>, kind: &str, ns: &str, name: &str) -> Option<String> {
    link?(&ObjectRef {
        api_version: String::new(),
        kind: kind.to_string(),
        namespace: (!ns.is_empty()).then(|| ns.to_string()),
        name: name.to_string(),
    })
}

/// The graphs of one finding's `details` (a Kueue chain, a traffic chain); `n` keeps
/// their ids apart on one page; with `link`, each box is a link to its object's page.
pub fn graphs(d: &Value, n: usize, link: Option<Link>, h: &mut String) {
    let Some(chain) = d.get("chain").and_then(Value::as_array) else {
        return;
    };
    let is_kueue = chain
        .iter()
        .any(|c| c.get("kind").and_then(Value::as_str) == Some("Workload"));
    if is_kueue {
        kueue_map(d, chain, n, link, h);
        if let Some(rows) = d
            .get("quota")
            .and_then(Value::as_array)
            .filter(|r| !r.is_empty())
        {
            quota_bars(rows, h);
        }
    } else if chain.iter().any(|c| c.get("state").is_some()) {
        traffic_chain(chain, n, link, h);
    }
}

/// The hop of the admission chain a verdict word says is broken.
pub fn broken_kind(verdict: &str) -> Option<&'static str> {
    match verdict {
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
    }
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

fn kueue_map(d: &Value, chain: &[Value], n: usize, link: Option<Link>, h: &mut String) {
    let verdict = d.get("verdict").and_then(Value::as_str).unwrap_or("");
    let broken_kind = broken_kind(verdict);
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
            href: href(link, kind, ns, &name),
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
    html_graph("kueue-map", "Kueue admission chain", &nodes, &edges, n, h);
}

fn traffic_chain(chain: &[Value], n: usize, link: Option<Link>, h: &mut String) {
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
            href: href(link, kind, s(c, "namespace"), name),
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
    html_graph("traffic-chain", "Traffic chain", &nodes, &edges, n, h);
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

/// A graph's boxes (absolutely placed HTML) over its arrows (SVG), both in percent of the
/// graph's width horizontally and px vertically.
fn html_graph(
    class: &str,
    label: &str,
    nodes: &[GNode],
    edges: &[(usize, usize, &str)],
    n: usize,
    h: &mut String,
) {
    let cols = nodes.iter().map(|g| g.col).max().unwrap_or(0) + 1;
    let rows = nodes.iter().map(|g| g.row).max().unwrap_or(0) + 1;
    // The last column's box ends at 100%.
    let pitch = 100.0 / (cols as f64 - 1.0 + BOX_SHARE);
    let box_w = pitch * BOX_SHARE;
    let height = TOP + rows as f64 * (BOX_H + ROW_GAP) - ROW_GAP + 2.0;
    let left = |g: &GNode| g.col as f64 * pitch;
    let top = |g: &GNode| TOP + g.row as f64 * (BOX_H + ROW_GAP);
    let _ = writeln!(
        h,
        "<figure class=\"graph {class}\"><figcaption>{label}</figcaption>\n\
         <div class=\"canvas\" role=\"group\" aria-label=\"{label}\" style=\"height:{height:.0}px;max-width:{:.0}px;min-width:{:.0}px\">\n\
         <svg class=\"edges\" xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\" height=\"{height:.0}\" aria-hidden=\"true\">\
         <defs><marker id=\"arrow-{n}\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" class=\"arrowhead\"/></marker></defs>",
        cols as f64 * COL_MAX,
        cols as f64 * COL_MIN,
    );
    for (from, to, text) in edges {
        let (f, t) = (&nodes[*from], &nodes[*to]);
        let (x1, y1, x2, y2) = if t.col == f.col {
            // Same column (a cohort's parent): vertical.
            let x = left(f) + box_w / 2.0;
            (x, top(f) + BOX_H, x, top(t))
        } else {
            (
                left(f) + box_w,
                top(f) + BOX_H / 2.0,
                left(t),
                top(t) + BOX_H / 2.0,
            )
        };
        let _ = writeln!(
            h,
            "<line class=\"edge{}\" x1=\"{x1:.2}%\" y1=\"{y1:.0}\" x2=\"{x2:.2}%\" y2=\"{y2:.0}\" marker-end=\"url(#arrow-{n})\"><title>{}</title></line>",
            if t.state != "ok" { " broken" } else { "" },
            esc(text)
        );
    }
    h.push_str("</svg>\n");
    for g in nodes {
        // Said in words (a symbol may be missing from the reader's fonts), as a tag on the
        // box's top border, where it takes no room from the text.
        let state = match g.state {
            "missing" => "<b class=\"state\">missing</b>",
            "broken" => "<b class=\"state\">blocked</b>",
            "warn" => "<b class=\"state\">waiting</b>",
            _ => "",
        };
        // A box with a page is a link (an `a`), the same box otherwise.
        let (tag, href) = match &g.href {
            Some(url) => ("a", format!(" href=\"{}\"", esc(url))),
            None => ("div", String::new()),
        };
        let _ = writeln!(
            h,
            "<{tag} class=\"node {}\"{href} data-kind=\"{kind}\" data-name=\"{name}\" title=\"{}\" style=\"left:{:.2}%;top:{:.0}px;width:{box_w:.2}%;height:{BOX_H:.0}px\">\
             {state}<span class=\"kind\">{kind}</span><span class=\"name\">{name}</span><span class=\"line\">{}</span></{tag}>",
            g.state,
            esc(&g.title),
            left(g),
            top(g),
            esc(&g.line),
            kind = esc(&g.kind),
            name = esc(&g.name),
        );
    }
    h.push_str("</div></figure>\n");
}

/// One row per ClusterQueue, flavor and resource: reserved + this Workload's need against
/// the maximum capacity, the nominal quota as a tick; HTML, so the label is fitted to its
/// column and the figures wrap on a narrow page.
fn quota_bars(rows: &[Value], h: &mut String) {
    h.push_str(
        "<figure class=\"graph quota\"><figcaption>Quota: reserved + this Workload's need against the maximum capacity (tick: nominal quota)</figcaption>\n<div class=\"quota-bars\">\n",
    );
    for r in rows {
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
        // Percent of the bar.
        let w = |v: f64| {
            if scale > 0.0 {
                (v / scale * 100.0).clamp(0.0, 100.0)
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
            "<div class=\"quota-row{}\" data-resource=\"{}\" data-flavor=\"{}\" title=\"{}: {}\">\
             <span class=\"label\">{}</span><span class=\"bar\"><span class=\"track\" style=\"width:{:.1}%\"></span>\
             <span class=\"reserved\" style=\"width:{:.1}%\"></span>",
            if over { " over" } else { "" },
            esc(s(r, "resource")),
            esc(s(r, "flavor")),
            esc(&label),
            esc(&text),
            esc(&label),
            w(max.unwrap_or(scale)).max(0.3),
            w(reserved),
        );
        if let Some(nd) = needed {
            let _ = write!(
                h,
                "<span class=\"needed\" style=\"left:{:.1}%;width:{:.1}%\"></span>",
                w(reserved),
                (w(reserved + nd) - w(reserved)).max(0.0)
            );
        }
        if let Some(nom) = nominal {
            let _ = write!(
                h,
                "<span class=\"nominal\" style=\"left:{:.1}%\"></span>",
                w(nom)
            );
        }
        let _ = writeln!(
            h,
            "</span><span class=\"figures\">{}</span></div>",
            esc(&text)
        );
    }
    h.push_str("</div></figure>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_notes() {
        assert_eq!(
            short_note(
                "Pod",
                "pod web-1 (endpoint ready=false): Ready=False for 38m, reason X: y"
            ),
            "Ready=False for 38m, reason X"
        );
    }
}

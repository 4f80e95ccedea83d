//! The start page on `/`: the report (platform, findings by stage with errors first,
//! inputs and notes), each object a link to its page, each graph's boxes links; then the
//! Kueue admission path of every Workload not admitted, the failing hop marked.

use super::{Links, kueue, nav};
use crate::report::Analysis;
use crate::report::html::{Served, esc, graph, render_with};
use crate::rules::kueue::chain::{self, Ctx, Verdict};
use crate::serve::resources::Resources;
use crate::snapshot::Snapshot;
use std::fmt::Write as _;

/// Admission paths drawn on the start page; the rest are listed.
const PATHS_DRAWN: usize = 12;

/// The page, its Kueue admission paths (`paths`, from [`admission_paths`]) after the report.
pub fn start_page(a: &Analysis, resources: &Resources, paths: &str) -> String {
    let links = Links {
        snap: a.snapshot,
        resources,
    };
    let link = |r: &crate::kube::meta::ObjectRef| links.reference(r);
    let nav = nav(&links, "");
    render_with(
        a,
        None,
        Some(&Served {
            link: &link,
            css: super::CSS,
            nav: &nav,
            after: paths,
        }),
    )
}

/// Every Workload Kueue has not admitted, its chain drawn (the first few) or listed: read
/// from the Kueue views, so taken while the rules' views are there.
pub fn admission_paths(snap: &Snapshot, resources: &Resources) -> String {
    let links = &Links { snap, resources };
    let ws = snap.workloads();
    if ws.is_empty() {
        return String::new();
    }
    let ctx = Ctx::new(snap);
    let mut h = String::from(
        "<section id=\"admission-paths\"><h2>Kueue admission paths</h2>\n<p class=\"muted\">Workload → LocalQueue → ClusterQueue → ResourceFlavor → Cohort: each box opens its page; the hop where a Workload stops is marked.</p>\n",
    );
    let mut drawn = 0;
    let mut waiting = 0;
    for (id, w) in ws {
        if !chain::is_live(snap, *id) {
            continue;
        }
        let c = chain::analyze(&ctx, *id, w);
        if matches!(c.verdict, Verdict::Admitted | Verdict::Finished) {
            continue;
        }
        waiting += 1;
        let word = chain::verdict_word(&c.verdict);
        let _ = writeln!(
            h,
            "<div class=\"path\" data-verdict=\"{}\"><p>{} <span class=\"badge\">{}</span></p>",
            esc(word),
            links.a(*id),
            esc(word)
        );
        if drawn < PATHS_DRAWN {
            drawn += 1;
            let link = kueue::chain_link(links, &c.namespace, &w.metadata.name);
            graph::graphs(&c.details(&ctx), 1000 + drawn, Some(&link), &mut h);
        }
        h.push_str("</div>\n");
    }
    if waiting == 0 {
        h.push_str("<p>Every Workload is admitted or finished.</p>\n");
    }
    h.push_str("</section>\n");
    h
}

//! kdiag's own pages on `kdiag serve` (`src/serve/ui/`): over plain HTTP, every page's
//! status and content (the start page's links, object pages with their references both
//! ways, the Kueue views with what a Workload needs against what is available); and, in
//! headless Chromium (KDIAG_BROWSER_TESTS=1), the admission path followed by clicking,
//! Workload → LocalQueue → ClusterQueue → ResourceFlavor → Cohort, at 1400 and 800 px, in
//! light and dark, with no text spilling out of its box.

use crate::serve::{Server, get};
use std::collections::BTreeSet;

/// The seed in a cohort: ClusterQueue cq-ml with 2 cpu and 2 pods, a Job of parallelism
/// 3 × 1 cpu, a cohort whose other member lends nothing.
const SEED: &str = "sample-bundles/kueue/seed-cohort.yaml";

/// The page at `path`: its status and HTML.
fn page(s: &Server, path: &str) -> (u16, String) {
    let r = get(&s.addr, path, "text/html,application/xhtml+xml");
    (r.status, r.text())
}

/// A page that must answer 200.
fn ok(s: &Server, path: &str) -> String {
    let (status, html) = page(s, path);
    assert_eq!(status, 200, "{path}: {html}");
    assert!(
        html.starts_with("<!doctype html>"),
        "{path} is not a page: {html}"
    );
    html
}

/// Every `href` of a page, unescaped, in order.
fn hrefs(html: &str) -> Vec<String> {
    html.match_indices("href=\"")
        .map(|(i, m)| {
            let rest = &html[i + m.len()..];
            rest[..rest.find('"').unwrap()].replace("&amp;", "&")
        })
        .collect()
}

/// The first link of a page whose `href` starts with `prefix`.
fn link(html: &str, prefix: &str) -> String {
    hrefs(html)
        .into_iter()
        .find(|h| h.starts_with(prefix))
        .unwrap_or_else(|| panic!("no link to {prefix}…"))
}

/// The text of a page without its tags (entities left as they are).
fn text(html: &str) -> String {
    let mut out = String::new();
    let mut tag = false;
    for c in html.chars() {
        match c {
            '<' => tag = true,
            '>' => tag = false,
            c if !tag => out.push(c),
            _ => {}
        }
    }
    out
}

const KQ: &str = "/ui/kueue.x-k8s.io/v1beta2";

#[test]
fn serve_ui_walks_the_seed_admission_path() {
    let s = Server::start(&[SEED], &[]);
    let start = ok(&s, "/");
    // The finding's object and the graph's boxes are links to their pages.
    let wl = link(&start, &format!("{KQ}/workloads/ml/"));
    assert!(start.contains(
        "<a class=\"node broken\" href=\"/ui/kueue.x-k8s.io/v1beta2/clusterqueues/cq-ml"
    ));
    assert!(start.contains("id=\"admission-paths\""));
    let w = ok(&s, &wl);
    let t = text(&w);
    for needle in [
        "QuotaReserved",
        "ExceedsMaxQuota",
        "maximum capacity (2)",
        "Admitted",
        "NoReservation",
        "Evicted",
        "PodsReady",
        "1 cpu, 1Gi memory",
        "3 cpu, 3Gi memory, 3 pods",
        "needs 3 cpu, 2 available",
        "needs 3 pods, 2 available",
    ] {
        assert!(
            t.contains(needle),
            "the Workload page lacks {needle:?}: {t}"
        );
    }
    // Workload → LocalQueue.
    let lq = ok(&s, &link(&w, &format!("{KQ}/localqueues/ml/user-queue")));
    assert!(text(&lq).contains("1 pending · 0 reserving · 0 admitted"));
    assert!(lq.contains(&wl), "the LocalQueue lists its Workload");
    // LocalQueue → ClusterQueue; from the Workload's page, the link carries the Workload.
    let cq_url = link(&w, &format!("{KQ}/clusterqueues/cq-ml?workload=ml%2F"));
    let cq = ok(&s, &cq_url);
    let t = text(&cq);
    assert!(t.contains("needs 3 cpu, 2 available"), "{t}");
    assert!(t.contains("this ClusterQueue is where it stops"), "{t}");
    assert!(cq.contains("class=\"for-workload hop-broken\""));
    assert!(
        cq.contains("<a class=\"node broken\""),
        "the hop is marked on the map"
    );
    assert!(cq.contains("<tr data-flavor=\"cpu-pool\" data-resource=\"cpu\" class=\"short\">"));
    // The ClusterQueue alone (from the LocalQueue) shows its quota and its Workloads.
    let plain = ok(&s, &link(&lq, &format!("{KQ}/clusterqueues/cq-ml")));
    assert!(text(&plain).contains("never-fits"));
    // ClusterQueue → ResourceFlavor: the nodes its labels select.
    let rf = ok(&s, &link(&cq, &format!("{KQ}/resourceflavors/cpu-pool")));
    let t = text(&rf);
    assert!(t.contains("pool=cpu"), "{t}");
    assert!(rf.contains("href=\"/ui/core/v1/nodes/worker-1\""));
    assert!(!rf.contains("href=\"/ui/core/v1/nodes/worker-2\""));
    assert!(t.contains("(1 of 2)"), "{t}");
    // ClusterQueue → Cohort: members, the shared pool, who borrows.
    let co = ok(&s, &link(&cq, &format!("{KQ}/cohorts/ml-pool")));
    assert!(co.contains(&format!("href=\"{KQ}/clusterqueues/cq-ml\"")));
    assert!(co.contains(&format!("href=\"{KQ}/clusterqueues/cq-research\"")));
    assert!(co.contains("<tr data-flavor=\"cpu-pool\" data-resource=\"cpu\">"));
}

#[test]
fn serve_ui_owner_references_are_links_both_ways() {
    let s = Server::start(&[SEED], &[]);
    let job = ok(&s, "/ui/batch/v1/jobs/ml/train");
    let wl = link(&job, &format!("{KQ}/workloads/ml/job-train-"));
    let w = ok(&s, &wl);
    assert!(text(&w).contains("Owned by"));
    assert!(
        w.contains("href=\"/ui/batch/v1/jobs/ml/train\""),
        "Workload → Job"
    );
    assert!(text(&job).contains("Owns"));
    // A Deployment's pods, both ways, and a pod's node with the node's pods.
    let s = Server::start(&["sample-bundles/healthy.list.yaml"], &[]);
    let pods = ok(&s, "/ui/core/v1/pods");
    let pod_url = hrefs(&pods)
        .into_iter()
        .find(|h| h.starts_with("/ui/core/v1/pods/") && h.matches('/').count() == 6)
        .expect("a pod page");
    let pod = ok(&s, &pod_url);
    let rs_url = link(&pod, "/ui/apps/v1/replicasets/");
    let rs = ok(&s, &rs_url);
    assert!(
        rs.contains(&format!("href=\"{pod_url}\"")),
        "ReplicaSet → Pod"
    );
    let dep = ok(&s, &link(&rs, "/ui/apps/v1/deployments/"));
    assert!(
        dep.contains(&format!("href=\"{rs_url}\"")),
        "Deployment → ReplicaSet"
    );
    let node = ok(&s, &link(&pod, "/ui/core/v1/nodes/"));
    assert!(node.contains(&format!("href=\"{pod_url}\"")), "Node → Pod");
}

/// Every page a Kueue sample links from its start page and from each page it opens (two
/// levels) answers 200, and each object page links back somewhere.
#[test]
fn serve_ui_every_kueue_sample_page_answers() {
    let mut samples: Vec<String> = std::fs::read_dir(crate::root().join("sample-bundles/kueue"))
        .unwrap()
        .filter_map(|e| {
            let n = e.ok()?.file_name().into_string().ok()?;
            n.ends_with(".yaml")
                .then(|| format!("sample-bundles/kueue/{n}"))
        })
        .collect();
    samples.sort();
    assert!(samples.len() > 15);
    for sample in &samples {
        let s = Server::start(&[sample], &[]);
        let start = ok(&s, "/");
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut next: Vec<String> = hrefs(&start)
            .into_iter()
            .filter(|h| h.starts_with("/ui"))
            .collect();
        for _ in 0..2 {
            let mut found = Vec::new();
            for url in next {
                if !seen.insert(url.clone()) {
                    continue;
                }
                let html = ok(&s, &url);
                found.extend(hrefs(&html).into_iter().filter(|h| h.starts_with("/ui")));
            }
            next = found;
        }
        assert!(
            seen.iter().any(|u| u.contains("/workloads/")),
            "{sample}: no Workload page reached"
        );
    }
}

#[test]
fn serve_ui_admitted_workload_with_pending_pods_says_so() {
    let s = Server::start(&["sample-bundles/kueue/admitted-unschedulable.yaml"], &[]);
    let list = ok(&s, &format!("{KQ}/workloads"));
    assert!(text(&list).contains("admitted"));
    let pages: Vec<String> = hrefs(&list)
        .into_iter()
        .filter(|h| h.starts_with(&format!("{KQ}/workloads/")))
        .collect();
    let with_pending: Vec<String> = pages
        .iter()
        .map(|p| ok(&s, p))
        .filter(|h| h.contains("class=\"scheduling\""))
        .collect();
    assert_eq!(
        with_pending.len(),
        1,
        "one admitted Workload waits on the scheduler"
    );
    let w = &with_pending[0];
    assert!(text(w).contains("Admitted by Kueue, but"), "{w}");
    assert!(text(w).contains("the wait is the scheduler's"));
    // The pod's scheduling finding is linked.
    let finding = hrefs(w)
        .into_iter()
        .find(|h| h.starts_with("/ui/core/v1/pods/") && h.ends_with("#kdiag-findings"))
        .expect("a link to the pod's finding");
    let pod = ok(&s, finding.trim_end_matches("#kdiag-findings"));
    assert!(
        pod.contains("data-rule=\"kueue/admitted-pods-pending\""),
        "{pod}"
    );
    assert!(w.contains("data-rule=\"kueue/admitted-pods-pending\""));
}

#[test]
fn serve_ui_escapes_unknown_pages_and_lists() {
    let dir = crate::Scratch::with_files(
        "serve-ui-esc",
        &[(
            "b.yaml",
            "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm\n    namespace: default\n    creationTimestamp: \"2026-11-20T07:00:00Z\"\n    uid: 3f1c2a9e-1111-4c1e-9a7e-0d1f2a3b4c5d\n    annotations:\n      note: <script>alert(1)</script>\n  data:\n    k: \"<img src=x onerror=alert(2)>\"\n",
        )],
    );
    let path = format!("{}/b.yaml", dir.path());
    let s = Server::start(&[&path], &[]);
    let cm = ok(&s, "/ui/core/v1/configmaps/default/cm");
    assert!(!cm.contains("<script>alert"), "{cm}");
    assert!(!cm.contains("<img src=x"), "{cm}");
    assert!(cm.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let list = ok(&s, "/ui/core/v1/configmaps?namespace=default");
    assert!(list.contains("href=\"/ui/core/v1/configmaps/default/cm\""));
    let kinds = ok(&s, "/ui");
    assert!(kinds.contains("href=\"/ui/core/v1/configmaps\""));
    for missing in [
        "/ui/core/v1/configmaps/default/nope",
        "/ui/core/v1/nothings",
        "/ui/x",
    ] {
        let (status, html) = page(&s, missing);
        assert_eq!(status, 404, "{missing}");
        assert!(html.contains("Not found"));
    }
}

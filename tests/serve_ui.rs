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
    assert!(
        plain.contains(&format!("href=\"{KQ}/localqueues/ml/user-queue\"")),
        "ClusterQueue → LocalQueue"
    );
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
        &[
            (
                "b.yaml",
                "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm\n    namespace: default\n    creationTimestamp: \"2026-11-20T07:00:00Z\"\n    uid: 3f1c2a9e-1111-4c1e-9a7e-0d1f2a3b4c5d\n    annotations:\n      note: <script>alert(1)</script>\n  data:\n    k: \"<img src=x onerror=alert(2)>\"\n",
            ),
            (
                "loose.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: loose\ndata:\n  a: b\n",
            ),
        ],
    );
    let s = Server::start(&[dir.path()], &[]);
    let cm = ok(&s, "/ui/core/v1/configmaps/default/cm");
    assert!(!cm.contains("<script>alert"), "{cm}");
    assert!(!cm.contains("<img src=x"), "{cm}");
    assert!(cm.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let list = ok(&s, "/ui/core/v1/configmaps?namespace=default");
    assert!(list.contains("href=\"/ui/core/v1/configmaps/default/cm\""));
    // A namespaced object the bundle holds without a namespace (a manifest).
    let all = ok(&s, "/ui/core/v1/configmaps");
    assert!(
        all.contains("href=\"/ui/core/v1/configmaps/_/loose\""),
        "{all}"
    );
    assert!(text(&ok(&s, "/ui/core/v1/configmaps/_/loose")).contains("loose"));
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

// ── in headless Chromium, driven over the DevTools protocol ─────────────────────────

/// Chromium when KDIAG_BROWSER_TESTS=1 (said and skipped otherwise).
fn chromium(test: &str) -> Option<&'static str> {
    if std::env::var("KDIAG_BROWSER_TESTS").ok().as_deref() != Some("1") {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "skipped {test}: set KDIAG_BROWSER_TESTS=1 (and install Debian's chromium) to run it"
        );
        return None;
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            std::process::Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .or_else(|| panic!("KDIAG_BROWSER_TESTS=1 but no chromium on PATH"))
}

/// A headless Chromium and a DevTools WebSocket to its page.
struct Browser {
    child: std::process::Child,
    ws: std::net::TcpStream,
    next_id: u64,
    _dir: crate::serve::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    fn start(chromium: &str) -> Browser {
        use std::io::{BufRead, BufReader, Read, Write};
        let dir = crate::serve::TempDir::new("chromium");
        let mut child = std::process::Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", dir.0.display()))
            .arg("about:blank")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("chromium starts");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let port = lines
            .by_ref()
            .map_while(Result::ok)
            .find_map(|l| {
                let rest = l.split("DevTools listening on ws://127.0.0.1:").nth(1)?;
                rest.split('/').next().map(str::to_string)
            })
            .expect("chromium says where DevTools listens");
        std::thread::spawn(move || for _ in lines {});
        let addr = format!("127.0.0.1:{port}");
        let targets = get(&addr, "/json/list", "").json();
        let ws_url = targets
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["type"] == "page")
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .expect("a page target")
            .to_string();
        let path = &ws_url[ws_url.find(&port).unwrap() + port.len()..];
        let mut ws = std::net::TcpStream::connect(&addr).unwrap();
        write!(
            ws,
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        .unwrap();
        let mut head = Vec::new();
        let mut b = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            ws.read_exact(&mut b).unwrap();
            head.push(b[0]);
        }
        assert!(
            head.starts_with(b"HTTP/1.1 101"),
            "{}",
            String::from_utf8_lossy(&head)
        );
        ws.set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .unwrap();
        Browser {
            child,
            ws,
            next_id: 0,
            _dir: dir,
        }
    }

    fn send(&mut self, text: &str) {
        use std::io::Write;
        let data = text.as_bytes();
        let mut frame = vec![0x81u8];
        let mask = [0x12u8, 0x34, 0x56, 0x78];
        match data.len() {
            n if n < 126 => frame.push(0x80 | n as u8),
            n if n < 65536 => {
                frame.push(0x80 | 126);
                frame.extend((n as u16).to_be_bytes());
            }
            n => {
                frame.push(0x80 | 127);
                frame.extend((n as u64).to_be_bytes());
            }
        }
        frame.extend(mask);
        frame.extend(data.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.ws.write_all(&frame).unwrap();
    }

    /// The next whole message (continuation frames joined).
    fn receive(&mut self) -> String {
        use std::io::Read;
        let mut message = Vec::new();
        loop {
            let mut h = [0u8; 2];
            self.ws.read_exact(&mut h).unwrap();
            let len = match h[1] & 0x7f {
                126 => {
                    let mut l = [0u8; 2];
                    self.ws.read_exact(&mut l).unwrap();
                    u16::from_be_bytes(l) as usize
                }
                127 => {
                    let mut l = [0u8; 8];
                    self.ws.read_exact(&mut l).unwrap();
                    u64::from_be_bytes(l) as usize
                }
                n => n as usize,
            };
            let mut data = vec![0u8; len];
            self.ws.read_exact(&mut data).unwrap();
            message.extend(data);
            if h[0] & 0x80 != 0 {
                return String::from_utf8_lossy(&message).into_owned();
            }
        }
    }

    /// One DevTools command and its result (events in between are skipped).
    fn call(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        match self.try_call(method, params) {
            Ok(result) => result,
            Err(m) => panic!("{method}: {m}"),
        }
    }

    /// [`Self::call`], its error answer given back.
    fn try_call(
        &mut self,
        method: &str,
        params: serde_json::Value,
    ) -> Result<serde_json::Value, serde_json::Value> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&serde_json::json!({"id": id, "method": method, "params": params}).to_string());
        loop {
            let m: serde_json::Value = serde_json::from_str(&self.receive()).unwrap();
            if m["id"] == id {
                return match m.get("error") {
                    None => Ok(m["result"].clone()),
                    Some(_) => Err(m),
                };
            }
        }
    }

    /// The value of a JavaScript expression in the page.
    fn eval(&mut self, expr: &str) -> serde_json::Value {
        let r = self.call(
            "Runtime.evaluate",
            serde_json::json!({"expression": expr, "returnByValue": true}),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {r}");
        r["result"]["value"].clone()
    }

    /// Waits until the page at `url` has loaded.
    fn loaded(&mut self, url: &str) {
        for _ in 0..200 {
            // While the page navigates, DevTools answers "Inspected target navigated or
            // closed": not loaded yet.
            let v = self.try_call(
                "Runtime.evaluate",
                serde_json::json!({
                    "expression": "[location.href, document.readyState]",
                    "returnByValue": true,
                }),
            );
            if let Ok(r) = v
                && r["result"]["value"][0] == url
                && r["result"]["value"][1] == "complete"
            {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        panic!("{url} did not load: {}", self.eval("location.href"));
    }

    fn open(&mut self, url: &str) {
        self.call("Page.navigate", serde_json::json!({"url": url}));
        self.loaded(url);
    }

    /// Clicks the first link matching `selector` and waits for the page it opens.
    fn click(&mut self, selector: &str) -> String {
        let sel = serde_json::to_string(selector).unwrap();
        let href = self.eval(&format!(
            "(() => {{ const a = document.querySelector({sel}); return a ? a.href : null; }})()"
        ));
        let href = href
            .as_str()
            .unwrap_or_else(|| panic!("no {selector} on {}", self.eval("location.href")))
            .to_string();
        // The click navigates: its answer may be "Inspected target navigated or closed".
        let _ = self.try_call(
            "Runtime.evaluate",
            serde_json::json!({
                "expression": format!("(() => {{ const a = document.querySelector({sel}); a.scrollIntoView(); a.click(); }})()"),
                "returnByValue": true,
            }),
        );
        self.loaded(&href);
        href
    }

    fn size(&mut self, width: u32, dark: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({"width": width, "height": 1000, "deviceScaleFactor": 1, "mobile": false}),
        );
        self.call(
            "Emulation.setEmulatedMedia",
            serde_json::json!({"features": [{"name": "prefers-color-scheme", "value": if dark { "dark" } else { "light" }}]}),
        );
    }

    fn text(&mut self) -> String {
        self.eval("document.body.innerText")
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// What spills: the page wider than the window, or a box's text past its box
    /// without an ellipsis (a graph's boxes cut their text with one, whole in the title).
    fn spills(&mut self) -> serde_json::Value {
        self.eval(
            r#"(() => {
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth + 1) out.push('page ' + document.documentElement.scrollWidth + ' > ' + innerWidth);
  document.querySelectorAll('.canvas .node > span').forEach(s => {
    const cs = getComputedStyle(s);
    if (s.scrollWidth > s.clientWidth + 1 && cs.textOverflow !== 'ellipsis') out.push('node ' + s.textContent);
    if (s.scrollWidth > s.clientWidth + 1 && !s.parentElement.title) out.push('untitled ' + s.textContent);
  });
  document.querySelectorAll('main h1, main p, dl.props dd, dl.refs dd, ul.needs li, ul.findings li').forEach(e => {
    let box = e.getBoundingClientRect();
    const r = document.createRange(); r.selectNodeContents(e); const t = r.getBoundingClientRect();
    let clip = e.parentElement; while (clip && getComputedStyle(clip).overflowX === 'visible') clip = clip.parentElement;
    if (t.right > box.right + 2 && t.width > 0) out.push('text ' + e.tagName + ' ' + e.textContent.slice(0, 60));
  });
  return out;
})()"#,
        )
    }
}

/// Clicks through the seed's admission path, Workload → LocalQueue → ClusterQueue →
/// ResourceFlavor → Cohort, and back by owner references, at 1400 and 800 px, light and
/// dark: each page opens by clicking, the ClusterQueue says what is needed against what is
/// available with its hop marked, and no text spills out of its box.
#[test]
fn serve_ui_in_chromium_clicks_through_the_admission_path() {
    let Some(chromium) = chromium("serve_ui_in_chromium_clicks_through_the_admission_path") else {
        return;
    };
    let s = Server::start(&[SEED], &[]);
    let mut b = Browser::start(chromium);
    for (width, dark) in [(1400, false), (800, true)] {
        b.size(width, dark);
        b.open(&format!("{}/", s.url()));
        assert_eq!(b.spills(), serde_json::json!([]), "start page at {width}");
        // The start page's map: its Workload box is a link.
        b.click("#admission-paths a.node[data-kind=Workload]");
        assert!(b.text().contains("needs 3 cpu, 2 available"));
        assert_eq!(
            b.spills(),
            serde_json::json!([]),
            "Workload page at {width}"
        );
        let workload = b.eval("location.href");
        b.click("#admission a.node[data-kind=LocalQueue]");
        assert!(b.text().contains("LocalQueue"));
        b.eval("history.back()");
        b.loaded(workload.as_str().unwrap());
        let cq = b.click("#admission a.node[data-kind=ClusterQueue]");
        let t = b.text();
        assert!(t.contains("needs 3 cpu, 2 available"), "{t}");
        assert!(t.contains("this ClusterQueue is where it stops"), "{t}");
        let marked = b.eval(
            "getComputedStyle(document.querySelector('.for-workload.hop-broken')).borderTopColor",
        );
        assert_ne!(marked, "rgb(0, 0, 0)", "the hop is marked");
        assert_eq!(
            b.spills(),
            serde_json::json!([]),
            "ClusterQueue page at {width}"
        );
        b.click("dl.props a[href*='/resourceflavors/']");
        assert!(b.text().contains("pool=cpu"));
        assert_eq!(
            b.spills(),
            serde_json::json!([]),
            "ResourceFlavor page at {width}"
        );
        b.eval("history.back()");
        b.loaded(&cq);
        b.click("dl.props a[href*='/cohorts/']");
        let t = b.text();
        assert!(t.contains("cq-research") && t.contains("Pool"), "{t}");
        assert_eq!(b.spills(), serde_json::json!([]), "Cohort page at {width}");
        // Owner references, both ways: Workload → Job → Workload.
        b.open(workload.as_str().unwrap());
        b.click("#references a[href*='/jobs/']");
        b.click("#references a[href*='/workloads/']");
        assert_eq!(b.eval("location.href"), workload);
        let bg = b.eval("getComputedStyle(document.body).backgroundColor");
        let want = if dark {
            "rgb(22, 24, 28)"
        } else {
            "rgba(0, 0, 0, 0)"
        };
        assert_eq!(
            bg,
            want,
            "the {} scheme",
            if dark { "dark" } else { "light" }
        );
    }
}

/// The walk on a real must-gather (must-gather-aws, OpenShift 4.8 on AWS): pod →
/// ReplicaSet → Deployment and back, node → its pods; and the time each page takes (the
/// goal: the first page within 0.3 s, an object page within 0.1 s; printed, and checked
/// with room for a loaded test machine and a debug build).
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "reads ../shared/corpus (absent; `touch build.rs` once it is there)"
)]
fn serve_ui_walks_must_gather_aws() {
    let bundle = crate::corpus::corpus().join("must-gather-clean/must-gather-aws.tar.xz");
    let s = Server::start(&[bundle.to_str().unwrap()], &[]);
    let timed = |path: &str| {
        let t = std::time::Instant::now();
        let html = ok(&s, path);
        (html, t.elapsed().as_secs_f64())
    };
    let (start, first) = timed("/");
    eprintln!("must-gather-aws: first page {first:.3} s");
    assert!(first <= 0.3, "the first page took {first:.3} s");
    assert!(start.contains("href=\"/ui/"));
    let mut times = Vec::new();
    let mut walk = |path: &str| {
        let (html, secs) = timed(path);
        eprintln!("  {secs:.3} s {path}");
        times.push(secs);
        html
    };
    let pods = walk("/ui/core/v1/pods?namespace=openshift-apiserver");
    let pod_url = link(&pods, "/ui/core/v1/pods/openshift-apiserver/apiserver-");
    let pod = walk(&pod_url);
    let rs_url = link(
        &pod,
        "/ui/apps/v1/replicasets/openshift-apiserver/apiserver-",
    );
    let rs = walk(&rs_url);
    assert!(
        rs.contains(&format!("href=\"{pod_url}\"")),
        "ReplicaSet → Pod"
    );
    let dep_url = link(&rs, "/ui/apps/v1/deployments/openshift-apiserver/apiserver");
    let dep = walk(&dep_url);
    assert!(
        dep.contains(&format!("href=\"{rs_url}\"")),
        "Deployment → ReplicaSet"
    );
    let node_url = link(&pod, "/ui/core/v1/nodes/");
    let node = walk(&node_url);
    assert!(node.contains(&format!("href=\"{pod_url}\"")), "Node → Pod");
    let others: Vec<String> = hrefs(&node)
        .into_iter()
        .filter(|h| h.starts_with("/ui/core/v1/pods/"))
        .take(8)
        .collect();
    assert!(others.len() >= 8, "a node runs many pods");
    for p in &others {
        let html = walk(p);
        assert!(html.contains(&format!("href=\"{node_url}\"")), "Pod → Node");
    }
    walk(&link(&pod, "/ui/core/v1/services/"));
    walk(&link(&pod, "/ui/discovery.k8s.io/v1/endpointslices/"));
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    eprintln!(
        "must-gather-aws: object pages median {median:.3} s, slowest {:.3} s",
        sorted[sorted.len() - 1]
    );
    assert!(median <= 0.1, "object pages: median {median:.3} s");
}

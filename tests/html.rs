//! The HTML report: self-contained and complete, and, in headless Chromium
//! (KDIAG_BROWSER_TESTS=1), as a reader sees it at 1400 and 800 px: the first error open
//! with its map on the first screen, a link that opens its finding, every box's text
//! inside its box, no graph cut by the page, counts that follow the filters, and many
//! inputs that leave the findings in view.
//!
//! The browser checks load the report with `tests/data/html_geometry.js` appended: it
//! measures the laid-out page (getBoundingClientRect) and writes what it found into the
//! DOM, which Chromium's `--dump-dom` prints.

use crate::{kdiag, root};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The seed, two Kueue scenarios (one with a long Workload condition, one waiting for
/// quota) and the traffic chain.
const INPUTS: &[&str] = &[
    "sample-bundles/control-plane-seed.list.yaml",
    "sample-bundles/kueue/seed-quota.yaml",
    "sample-bundles/kueue/cohort-borrowing.yaml",
    "sample-bundles/kueue/lending-limit.yaml",
    "sample-bundles/traffic/traffic-ingress-chain.yaml",
];

fn analyze(inputs: &[&str], format: &str) -> String {
    let mut args = vec!["analyze"];
    args.extend(inputs);
    args.extend(["--format", format, "--fail-on", "never"]);
    let run = kdiag(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
}

/// The start tags of elements with `class="X ..."`.
fn tags<'a>(html: &'a str, tag: &str, class: &str) -> Vec<&'a str> {
    let open = format!("<{tag} class=\"{class}");
    html.match_indices(&open)
        .map(|(i, _)| &html[i..i + html[i..].find('>').unwrap()])
        .collect()
}

fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let i = tag.find(&key)? + key.len();
    Some(&tag[i..i + tag[i..].find('"')?])
}

#[test]
fn html_is_self_contained_and_complete() {
    let html = analyze(INPUTS, "html");
    let j: Value = serde_json::from_str(&analyze(INPUTS, "json")).unwrap();
    let findings = j["findings"].as_array().unwrap();
    // Nothing is fetched at view time.
    for needle in [
        "<script src",
        "<link",
        "@import",
        "url(http",
        "src=\"http",
        "href=\"http",
    ] {
        assert!(!html.contains(needle), "the page loads {needle}");
    }
    let blocks = tags(&html, "details", "finding");
    assert_eq!(blocks.len(), findings.len());
    for (b, f) in blocks.iter().zip(findings) {
        assert_eq!(attr(b, "data-stage"), f["stage"].as_str());
        assert_eq!(attr(b, "data-severity"), f["severity"].as_str());
        assert_eq!(
            attr(b, "data-ns").unwrap(),
            f["object"]["namespace"].as_str().unwrap_or("")
        );
    }
    // The first error, and only it, is open as the page loads.
    let open: Vec<usize> = blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| b.ends_with(" open"))
        .map(|(i, _)| i)
        .collect();
    let first_error = findings.iter().position(|f| f["severity"] == "error");
    assert_eq!(open, Vec::from_iter(first_error), "open on load");
    // The Kueue map and the traffic chain are drawn from the findings' details.
    let kinds: BTreeSet<&str> = tags(&html, "div", "node")
        .iter()
        .filter_map(|t| attr(t, "data-kind"))
        .collect();
    for k in [
        "Job",
        "Workload",
        "LocalQueue",
        "ClusterQueue",
        "ResourceFlavor",
        "Cohort",
        "Ingress",
        "Service",
        "EndpointSlice",
        "Pod",
    ] {
        assert!(kinds.contains(k), "no {k} node in the graphs: {kinds:?}");
    }
    let kueue_maps = html.matches("<figure class=\"graph kueue-map\"").count();
    let with_chain = findings
        .iter()
        .filter(|f| {
            f["details"]["chain"]
                .as_array()
                .is_some_and(|c| c.iter().any(|h| h["kind"] == "Workload"))
        })
        .count();
    assert_eq!(kueue_maps, with_chain);
    // Every box carries its whole text in its tooltip: the long condition is cut by the
    // browser, not by kdiag.
    assert!(
        tags(&html, "div", "node")
            .iter()
            .any(|t| attr(t, "title").is_some_and(|t| t.ends_with("QuotaReserved ExceedsMaxQuota")))
    );
    assert!(html.contains("<span class=\"line\">QuotaReserved ExceedsMaxQuota</span>"));
    // A state is a word, not a symbol the reader's fonts may lack (⧗ was an empty box).
    assert!(html.contains("<b class=\"state\">waiting</b>"));
    assert!(html.contains("<b class=\"state\">blocked</b>"));
    assert!(!html.contains('⧗'));
    // The seed's never-fitting cpu quota is an over-capacity bar, cq-ml broken on the map.
    assert!(
        tags(&html, "div", "quota-row over")
            .iter()
            .any(|t| attr(t, "data-resource") == Some("cpu"))
    );
    assert!(
        tags(&html, "div", "node broken")
            .iter()
            .any(|t| attr(t, "data-name") == Some("cq-ml"))
    );
    // Filters list every namespace with findings.
    let namespaces: BTreeSet<&str> = findings
        .iter()
        .filter_map(|f| f["object"]["namespace"].as_str())
        .collect();
    for ns in namespaces {
        assert!(
            html.contains(&format!("<option value=\"{ns}\">")),
            "no filter for {ns}"
        );
    }
    // Evidence lines are quoted from the bundle, the cited line highlighted.
    assert!(
        html.contains(
            "<span class=\"ln hit\"><i>58</i>          nominalQuota: &quot;2&quot;</span>"
        )
    );
}

/// Fifteen inputs' notes once filled the first screen: the inputs fold under one line of
/// totals, each input's notes under their count.
#[test]
fn html_folds_many_inputs_and_their_notes() {
    let inputs = many_inputs();
    let html = analyze(&inputs, "html");
    let header = &html[html.find("<header>").unwrap()..html.find("</header>").unwrap()];
    assert!(
        header.contains("<details class=\"inputs\"><summary>15 inputs: "),
        "{header}"
    );
    assert_eq!(header.matches("<li data-input=").count(), 15);
    assert_eq!(
        header.matches("<details class=\"notes\">").count(),
        15,
        "{header}"
    );
    // One input is listed as it is, its notes folded.
    let one = analyze(&inputs[..1], "html");
    assert!(!one.contains("<details class=\"inputs\">"));
    assert!(one.contains("<details class=\"notes\"><summary>"));
}

/// Fifteen Kueue scenarios, each its own input.
fn many_inputs() -> Vec<&'static str> {
    let inputs = vec![
        "sample-bundles/kueue/admission-checks.yaml",
        "sample-bundles/kueue/admitted-unschedulable.yaml",
        "sample-bundles/kueue/clusterqueue-missing-flavor.yaml",
        "sample-bundles/kueue/cohort-borrowing.yaml",
        "sample-bundles/kueue/evicted.yaml",
        "sample-bundles/kueue/job-without-workload.yaml",
        "sample-bundles/kueue/lending-limit.yaml",
        "sample-bundles/kueue/localqueue-missing.yaml",
        "sample-bundles/kueue/localqueue-stopped.yaml",
        "sample-bundles/kueue/multi-podset.yaml",
        "sample-bundles/kueue/namespace-selector.yaml",
        "sample-bundles/kueue/no-matching-flavor.yaml",
        "sample-bundles/kueue/queue-full.yaml",
        "sample-bundles/kueue/seed-quota.yaml",
        "sample-bundles/kueue/strict-fifo.yaml",
    ];
    assert_eq!(inputs.len(), 15);
    inputs
}

// ── in headless Chromium ────────────────────────────────────────────────────────────

/// Chromium's command when KDIAG_BROWSER_TESTS=1; otherwise says, past the test
/// harness's capture, that the test is skipped.
fn chromium(test: &str) -> Option<&'static str> {
    if std::env::var("KDIAG_BROWSER_TESTS").ok().as_deref() != Some("1") {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "skipped {test}: set KDIAG_BROWSER_TESTS=1 (and install Debian's chromium) to run it"
        );
        return None;
    }
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        });
    Some(found.expect("KDIAG_BROWSER_TESTS=1 but no chromium on PATH"))
}

/// A report in a folder of its own, with the geometry checker appended, and the Chromium
/// to load it.
struct Browser {
    chromium: &'static str,
    html: String,
    page: PathBuf,
    _dir: crate::Scratch,
}

/// The report of `inputs` ready to load, or None (said) without KDIAG_BROWSER_TESTS=1.
fn browser(test: &str, inputs: &[&str]) -> Option<Browser> {
    let chromium = chromium(test)?;
    let dir = crate::Scratch::new("html");
    let html = analyze(inputs, "html");
    let checker = std::fs::read_to_string(root().join("tests/data/html_geometry.js")).unwrap();
    let at = html.rfind("</body>").expect("the page ends its body");
    let page = dir.write(
        "report.html",
        format!("{}<script>{checker}</script>\n{}", &html[..at], &html[at..]),
    );
    Some(Browser {
        chromium,
        html,
        page: PathBuf::from(page),
        _dir: dir,
    })
}

/// Loads `page` + `hash` in a `width` × 1000 window; `extra` are more Chromium flags.
fn browse(b: &Browser, width: u32, hash: &str, extra: &[&str]) -> String {
    let profile = b
        .page
        .with_file_name(format!("profile-{width}-{}", hash.len()));
    let out = Command::new(b.chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--virtual-time-budget=3000",
        ])
        .arg(format!("--window-size={width},1000"))
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}{hash}", b.page.display()))
        .output()
        .expect("chromium runs");
    let _ = std::fs::remove_dir_all(profile);
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What the geometry checker measured, with the page at `width` px and `hash` followed.
fn geometry(b: &Browser, width: u32, hash: &str) -> Value {
    let dom = browse(b, width, hash, &["--dump-dom"]);
    let start = dom
        .find("<pre id=\"geometry\">")
        .unwrap_or_else(|| panic!("the checker ran: {dom}"))
        + "<pre id=\"geometry\">".len();
    let end = start + dom[start..].find("</pre>").unwrap();
    let text = dom[start..end]
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let g: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(g["width"], width, "the window is {width} px wide");
    g
}

fn finding<'a>(g: &'a Value, id: &str) -> &'a Value {
    g["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == id)
        .unwrap_or_else(|| panic!("no {id}"))
}

/// On load, at 1400 and 800 px: the first error is open and its map is on the first
/// screen; with every finding opened, no box's text reaches past its box (a cut text ends
/// in an ellipsis, whole in the tooltip) and no graph is cut or scrolls.
#[test]
fn html_in_chromium_maps_are_shown_and_fit() {
    let Some(b) = browser("html_in_chromium_maps_are_shown_and_fit", INPUTS) else {
        return;
    };
    for width in [1400, 800] {
        let g = geometry(&b, width, "");
        let findings = g["findings"].as_array().unwrap();
        let first = findings.iter().find(|f| f["severity"] == "error").unwrap();
        assert_eq!(first["open"], true, "{width}px: the first error is open");
        let map = &first["graph"];
        assert_eq!(map["shows"], true, "{width}px: its map shows: {first}");
        assert!(
            map["bottom"].as_i64().unwrap() <= g["height"].as_i64().unwrap(),
            "{width}px: the first error's map is on the first screen: {first}, window {}",
            g["height"]
        );
        let others_open = findings
            .iter()
            .filter(|f| f["open"] == true && f["id"] != first["id"])
            .count();
        assert_eq!(others_open, 0, "{width}px: only the first error is open");
        assert!(
            g["boxes"].as_array().unwrap().len() >= 40,
            "{width}px: boxes measured: {}",
            g["boxes"]
        );
        for problem in ["spills", "unmarked", "untitled", "cut"] {
            assert_eq!(g[problem], serde_json::json!([]), "{width}px: {problem}");
        }
        // A screenshot for a human to look at.
        let shot = root()
            .join("target")
            .join(format!("kdiag-report-{width}.png"));
        let _ = std::fs::create_dir_all(shot.parent().unwrap());
        let _ = std::fs::remove_file(&shot);
        browse(
            &b,
            width,
            "",
            &[&format!("--screenshot={}", shot.display())],
        );
        let png = std::fs::read(&shot).expect("the screenshot was written");
        assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000);
        eprintln!("screenshot of the HTML report: {}", shot.display());
    }
}

/// `#f-N` and `#finding-N` open that finding, scrolled to, its graph shown.
#[test]
fn html_in_chromium_a_link_opens_its_finding() {
    let Some(b) = browser("html_in_chromium_a_link_opens_its_finding", INPUTS) else {
        return;
    };
    // The traffic chain's finding: far down the page, closed on load.
    let target = tags(&b.html, "details", "finding")
        .into_iter()
        .find(|t| attr(t, "data-stage") == Some("traffic") && !t.ends_with(" open"))
        .and_then(|t| attr(t, "id"))
        .unwrap();
    let n = target.trim_start_matches("finding-");
    for hash in [format!("#f-{n}"), format!("#{target}")] {
        let g = geometry(&b, 1400, &hash);
        let f = finding(&g, target);
        assert_eq!(f["open"], true, "{hash}: {f}");
        assert_eq!(f["graph"]["shows"], true, "{hash}: its chain shows: {f}");
        // On screen, below the sticky filter bar rather than under it.
        let top = f["top"].as_i64().unwrap();
        let below = g["filters_bottom"].as_i64().unwrap();
        assert!(
            (below..g["height"].as_i64().unwrap()).contains(&top)
                && g["scrollY"].as_i64() > Some(0),
            "{hash}: scrolled to it: {f}, scrollY {}, filter bar down to {below}",
            g["scrollY"]
        );
    }
}

/// The stage cards and headings count what the filters show; a namespace no finding has
/// shows nothing; a click on a stage filter hides that stage only.
#[test]
fn html_in_chromium_counts_follow_the_filters() {
    let Some(b) = browser("html_in_chromium_counts_follow_the_filters", INPUTS) else {
        return;
    };
    let total = tags(&b.html, "details", "finding").len();
    // (stage → (shown, all)) from the findings' own state.
    let by_stage = |g: &Value| {
        let mut m = std::collections::BTreeMap::<String, (usize, usize)>::new();
        for f in g["findings"].as_array().unwrap() {
            let e = m
                .entry(f["stage"].as_str().unwrap().to_string())
                .or_default();
            e.1 += 1;
            if f["hidden"] == false {
                e.0 += 1;
            }
        }
        m
    };
    let check = |g: &Value, what: &str| {
        let counts = by_stage(g);
        for card in g["cards"].as_array().unwrap() {
            let (shown, all) = counts
                .get(card["stage"].as_str().unwrap())
                .copied()
                .unwrap_or_default();
            let want = if shown < all {
                format!("{shown} of {all}")
            } else {
                shown.to_string()
            };
            assert_eq!(card["count"], want, "{what}: {card}");
        }
        for group in g["groups"].as_array().unwrap() {
            let (shown, all) = counts[group["stage"].as_str().unwrap()];
            let want = if shown < all {
                format!("({shown} of {all})")
            } else {
                format!("({all})")
            };
            assert!(
                group["heading"].as_str().unwrap().ends_with(&want),
                "{what}: {group}"
            );
            assert_eq!(group["hidden"], shown == 0, "{what}: {group}");
        }
        counts.values().map(|c| c.0).sum::<usize>()
    };
    // As loaded: everything.
    let g = geometry(&b, 1400, "");
    assert_eq!(check(&g, "as loaded"), total);
    assert_eq!(g["shown"], format!("{total} of {total} findings shown"));
    // One namespace: only its findings, and the counts say so.
    let g = geometry(&b, 1400, "#ns=shop");
    let shown = check(&g, "#ns=shop");
    assert!(shown > 0 && shown < total, "{shown} of {total}");
    for f in g["findings"].as_array().unwrap() {
        assert_eq!(f["hidden"], f["ns"] != "shop", "{f}");
    }
    // A namespace no finding has: nothing (it showed everything).
    let g = geometry(&b, 1400, "#ns=nosuch");
    assert_eq!(check(&g, "#ns=nosuch"), 0);
    assert_eq!(g["shown"], format!("0 of {total} findings shown"));
    // A click on the queue stage's box hides the queue findings, and only them.
    let g = geometry(&b, 1400, "#click=f-stage-queue");
    let queue = by_stage(&g)["queue"];
    assert_eq!(queue.0, 0);
    assert_eq!(check(&g, "queue unticked"), total - queue.1);
}

/// With fifteen inputs the first error's map is still on the first screen.
#[test]
fn html_in_chromium_many_inputs_leave_the_findings_in_view() {
    let Some(b) = browser(
        "html_in_chromium_many_inputs_leave_the_findings_in_view",
        &many_inputs(),
    ) else {
        return;
    };
    for width in [1400, 800] {
        let g = geometry(&b, width, "");
        let first = g["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["severity"] == "error")
            .unwrap();
        assert_eq!(first["graph"]["shows"], true, "{width}px: {first}");
        assert!(
            first["graph"]["bottom"].as_i64() <= g["height"].as_i64(),
            "{width}px: the first error's map is on the first screen: {first}, window {}",
            g["height"]
        );
    }
}

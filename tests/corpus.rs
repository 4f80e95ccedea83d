//! Every input in `../shared/corpus` loads without a crash: objects where the input holds
//! objects, problems for the known-bad ones.
//!
//! The corpus sits beside the repository in the project's workspace (and its CI), not in
//! it. Tests that need it carry `#[cfg_attr(not(kdiag_corpus), ignore = "...")]`
//! (`build.rs` sets the cfg), so without it `cargo test` lists them as ignored with the
//! reason; tests that read the samples and, when present, the corpus run either way.

use crate::{json, kdiag, root};
use std::path::PathBuf;

/// The corpus, for a test that needs it (and is ignored without it): run anyway
/// (`--include-ignored`), it fails saying what is missing rather than pass empty.
pub fn corpus() -> PathBuf {
    corpus_if_present().expect("this test reads the real-bundle corpus: ../shared/corpus is absent")
}

/// The corpus when it is there, for tests that read it besides the samples.
pub fn corpus_if_present() -> Option<PathBuf> {
    Some(root().join("../shared/corpus")).filter(|dir| dir.is_dir())
}

/// (input under corpus/, expected: objects > 0, problems > 0)
const INPUTS: &[(&str, bool, bool)] = &[
    (
        "troubleshoot/testdata/supportbundle/support-bundle.tar.gz",
        true,
        false,
    ),
    (
        "troubleshoot/test/baselines/supportbundle/baseline.tar.gz",
        true,
        false,
    ),
    (
        "troubleshoot/testdata/supportbundle/missing-version.tar.gz",
        false,
        false,
    ),
    (
        "troubleshoot/testdata/supportbundle/extracted-sb",
        false,
        false,
    ),
    ("troubleshoot/pkg/analyze/files", true, false),
    ("insights-archive-sample", true, false),
    ("insights-operator-testdata", true, true),
    ("kueue", true, true),
    ("k8s-website-pod-level-resources", true, false),
    ("k8s-hack-testdata", true, false),
    ("omc-testdata", true, false),
    ("numaresources-pfpstatus", false, true),
    ("must-gather-clean/must-gather-aws.tar.xz", true, false),
    ("must-gather-clean/must-gather-metal.tar.xz", true, false),
    (
        "rancher-support-bundle-kit/sampleSupportBundle",
        true,
        false,
    ),
    ("sbctl/support-bundle", true, false),
    ("oc-upgrade-status/4.14.1-degraded", true, false),
    ("oc-upgrade-status/4.14.1-paused-worker-pool", true, false),
    (
        "oc-upgrade-status/4.14.1-workers-started-updating-multiple-pools",
        true,
        false,
    ),
    ("oc-upgrade-status/4.15.0-ec2-early", true, false),
    ("oc-upgrade-status/4.16.0-compact", true, false),
    ("oc-upgrade-status/4.16.0-single-node", true, false),
    ("oc-upgrade-status/no-version-upgrading", true, false),
    ("oc-upgrade-status/not-upgrading", true, false),
    ("rancher-logs-collector", true, false),
];

#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn every_corpus_input_loads() {
    let dir = corpus();
    let mut summary = String::new();
    for (rel, want_objects, want_problems) in INPUTS {
        let path = dir.join(rel);
        let run = kdiag(&[
            "analyze",
            path.to_str().unwrap(),
            "--format",
            "json",
            "--fail-on",
            "never",
        ]);
        assert!(
            matches!(run.code, 0 | 2),
            "{rel}: exit {} {}",
            run.code,
            run.stderr
        );
        let out = json(&run);
        let input = &out["inputs"][0];
        let objects = input["objects"].as_u64().unwrap();
        let problems = out["problems"].as_array().unwrap().len();
        assert_eq!(objects > 0, *want_objects, "{rel}: {objects} objects");
        assert_eq!(
            problems > 0,
            *want_problems,
            "{rel}: {:#?}",
            out["problems"]
        );
        let findings: Vec<String> = out["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                format!(
                    "{} {} {} {}",
                    f["stage"], f["severity"], f["rule"], f["object"]["name"]
                )
            })
            .collect();
        summary.push_str(&format!(
            "{rel}: layout={} objects={objects} skipped={} logs={} problems={problems}\n",
            input["layout"], input["skipped"], input["logs"]
        ));
        for f in findings {
            summary.push_str(&format!("  {f}\n"));
        }
    }
    crate::settings().bind(|| insta::assert_snapshot!("corpus-summary", summary));
}

/// What a real bundle must read as: its layout and the objects `kdiag get` lists of each
/// kind (exact, or at least `min` for Events, whose count a re-gather moves).
struct Expect {
    input: &'static str,
    layout: &'static str,
    exact: &'static [(&'static str, usize)],
    at_least: &'static [(&'static str, usize)],
    /// What the input's notes must say (where the snapshot time comes from …).
    notes: &'static [&'static str],
}

const REAL: &[Expect] = &[
    Expect {
        input: "must-gather-clean/must-gather-aws.tar.xz",
        layout: "must-gather",
        exact: &[("pods", 239), ("nodes", 6), ("clusteroperators", 31)],
        at_least: &[("events", 5000)],
        notes: &["snapshot time 2021-08-03T10:14:13Z from the bundle's timestamp file"],
    },
    Expect {
        input: "must-gather-clean/must-gather-metal.tar.xz",
        layout: "must-gather",
        exact: &[("pods", 235), ("nodes", 6)],
        at_least: &[("events", 5000)],
        notes: &["snapshot time 2021-09-14T14:44:22Z from the bundle's timestamp file"],
    },
    Expect {
        input: "rancher-support-bundle-kit/sampleSupportBundle",
        layout: "support-bundle-kit",
        exact: &[("pods", 66), ("nodes", 1)],
        at_least: &[],
        notes: &[
            "snapshot time 2022-03-22T23:49:32Z from the bundle's metadata.yaml bundlecreatedat",
        ],
    },
    Expect {
        input: "sbctl/support-bundle",
        layout: "troubleshoot",
        exact: &[("pods", 58), ("nodes", 3), ("nodes.longhorn.io", 3)],
        at_least: &[],
        notes: &[
            "snapshot time 2022-04-12T00:58:31Z from the newest event",
            "3 YAML file(s) hold troubleshoot's redaction placeholder ***HIDDEN***",
        ],
    },
];

/// `kdiag get KIND -A -o name` on `path`: how many objects it lists.
fn count(path: &str, kind: &str) -> usize {
    let run = kdiag(&["get", kind, "-A", "-o", "name", path]);
    assert_eq!(run.code, 0, "get {kind} {path}: {}", run.stderr);
    run.stdout.lines().filter(|l| !l.is_empty()).count()
}

/// Every real bundle of the corpus reads its layout and every object of the kinds above.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn real_bundles_read_every_object() {
    let dir = corpus();
    for e in REAL {
        let path = dir.join(e.input);
        let path = path.to_str().unwrap();
        let out = json(&kdiag(&[
            "analyze",
            path,
            "--format",
            "json",
            "--fail-on",
            "never",
        ]));
        assert_eq!(out["inputs"][0]["layout"], e.layout, "{}", e.input);
        let notes = out["inputs"][0]["notes"].to_string();
        for want in e.notes {
            assert!(notes.contains(want), "{}: {want} not in {notes}", e.input);
        }
        // Every object of these real bundles reads: no problem at all.
        assert_eq!(out["problems"], serde_json::json!([]), "{}", e.input);
        for (kind, n) in e.exact {
            assert_eq!(count(path, kind), *n, "{}: {kind}", e.input);
        }
        for (kind, n) in e.at_least {
            let got = count(path, kind);
            assert!(got >= *n, "{}: {got} {kind}, want at least {n}", e.input);
        }
    }
}

/// Each `oc adm upgrade status` case of openshift/oc: every ClusterVersion,
/// ClusterOperator, MachineConfigPool and Node `oc` read (counted from its YAML).
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn upgrade_status_cases_read_every_object() {
    let dir = corpus();
    // (case, ClusterOperators, MachineConfigPools, Nodes); each has one ClusterVersion.
    const CASES: &[(&str, usize, usize, usize)] = &[
        ("4.14.1-degraded", 33, 2, 6),
        ("4.14.1-paused-worker-pool", 33, 2, 6),
        ("4.14.1-workers-started-updating-multiple-pools", 33, 3, 7),
        ("4.15.0-ec2-early", 33, 2, 6),
        ("4.16.0-compact", 33, 2, 3),
        ("4.16.0-single-node", 33, 2, 1),
        ("no-version-upgrading", 33, 2, 6),
        ("not-upgrading", 33, 2, 6),
    ];
    for (case, operators, pools, nodes) in CASES {
        let path = dir.join("oc-upgrade-status").join(case);
        let path = path.to_str().unwrap();
        assert_eq!(count(path, "clusterversions"), 1, "{case}");
        assert_eq!(count(path, "clusteroperators"), *operators, "{case}");
        assert_eq!(count(path, "machineconfigpools"), *pools, "{case}");
        assert_eq!(count(path, "nodes"), *nodes, "{case}");
    }
}

/// The healthy k3s baseline bundle must produce no error findings.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn baseline_bundle_has_no_errors() {
    let dir = corpus();
    let path = dir.join("troubleshoot/test/baselines/supportbundle/baseline.tar.gz");
    let out = json(&kdiag(&[
        "analyze",
        path.to_str().unwrap(),
        "--format",
        "json",
    ]));
    let errors: Vec<_> = out["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "error")
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// No false alarms on real clusters (issue 24): the healthy real inputs have no error and
/// no warning; sbctl's bundle has exactly one error, velero's crash loop.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn healthy_real_clusters_raise_no_alarm() {
    let dir = corpus();
    for (rel, want) in [
        ("must-gather-clean/must-gather-aws.tar.xz", &[][..]),
        ("must-gather-clean/must-gather-metal.tar.xz", &[][..]),
        ("rancher-support-bundle-kit/sampleSupportBundle", &[][..]),
        (
            "troubleshoot/test/baselines/supportbundle/baseline.tar.gz",
            &[][..],
        ),
        (
            "sbctl/support-bundle",
            &[("error", "runtime/crash-loop", "velero")][..],
        ),
    ] {
        let out = crate::analyze_json(dir.join(rel).to_str().unwrap());
        let alarms: Vec<(String, String, String)> = crate::alarms(&out)
            .iter()
            .map(|f| {
                (
                    f["severity"].as_str().unwrap().to_string(),
                    f["rule"].as_str().unwrap().to_string(),
                    f["object"]["name"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let want: Vec<(String, String, String)> = want
            .iter()
            .map(|(s, r, n)| (s.to_string(), r.to_string(), n.to_string()))
            .collect();
        assert_eq!(alarms, want, "{rel}");
    }
}

/// Rancher's logs collector bundle (kubectl tables only): its five staged failures in
/// `default`, each at its stage, and no alarm on the healthy system pods.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn rancher_logs_collector_finds_the_staged_failures() {
    let dir = corpus();
    let out = crate::analyze_json(dir.join("rancher-logs-collector").to_str().unwrap());
    assert_eq!(out["inputs"][0]["layout"], "rancher-logs-collector");
    let mut alarms: Vec<String> = crate::alarms(&out)
        .iter()
        .map(|f| {
            format!(
                "{} {} {} {}/{}",
                crate::text(&f["stage"]),
                crate::text(&f["severity"]),
                crate::text(&f["rule"]),
                crate::text(&f["object"]["namespace"]),
                crate::text(&f["object"]["name"])
            )
        })
        .collect();
    alarms.sort();
    assert_eq!(
        alarms,
        [
            "node error pod/stuck default/test-imagepull",
            "runtime error pod/stuck default/test-crash",
            "runtime error pod/stuck default/test-notready",
            "runtime error pod/stuck default/test-oom",
            "runtime error pod/stuck default/test-restarts",
        ]
    );
    for f in crate::findings(&out) {
        let message = crate::text(&f["message"]);
        let evidence = f["evidence"].as_array().unwrap();
        assert!(
            evidence
                .iter()
                .any(|e| crate::text(&e["note"]).starts_with("kubectl get pods row")),
            "{message}"
        );
        if crate::text(&f["stage"]) == "runtime" {
            assert!(message.contains("not in a kubectl table"), "{message}");
        }
    }
}

/// Every file of the sample bundles and the corpus (inside archives too) whose name ends
/// in one of `exts`, as (where it is, its text); files that are not UTF-8 are left out.
fn text_files(exts: &[&str]) -> Vec<(String, String)> {
    use kdiag::ingest::source;
    let mut roots = vec![root().join("sample-bundles")];
    if let Some(dir) = corpus_if_present() {
        roots.push(dir);
    }
    let mut out = Vec::new();
    for r in roots {
        let mut paths = vec![r.clone()];
        paths.extend(walk(&r).into_iter().filter(|e| {
            e.extension()
                .is_some_and(|x| x == "zip" || x == "gz" || x == "tgz" || x == "tar")
        }));
        for p in paths {
            let Ok(collected) = source::collect_path(&p, None) else {
                continue;
            };
            for entry in collected.entries {
                let lower = entry.path.to_ascii_lowercase();
                if !exts.iter().any(|x| lower.ends_with(x)) {
                    continue;
                }
                let Ok(bytes) = entry.read() else { continue };
                if let Ok(text) = String::from_utf8(bytes.into_owned()) {
                    out.push((format!("{}: {}", p.display(), entry.path), text));
                }
            }
        }
    }
    out
}

/// Differential test of the YAML fast path: on every YAML file of the sample bundles and
/// the corpus (inside archives too), when the fast path accepts a file it must give the
/// same documents and object lines as the general parser, and it must never accept a
/// file the general parser rejects.
#[test]
fn fast_yaml_matches_general_parser() {
    use kdiag::parse::{fast_yaml, yaml};
    let files = text_files(&[".yaml", ".yml"]);
    let mut accepted = 0;
    for (what, text) in &files {
        let (general, err) = yaml::parse(text);
        let Ok(fast) = fast_yaml::parse(text) else {
            continue;
        };
        accepted += 1;
        assert!(
            err.is_none(),
            "{what}: fast path accepted YAML the general parser rejects: {err:?}"
        );
        assert_eq!(fast.len(), general.len(), "{what}: document count");
        for (f, g) in fast.iter().zip(&general) {
            if let Some(d) = first_diff(&f.value, &g.value, String::new()) {
                panic!("{what}: object at line {}: {d}", g.span.start);
            }
            assert_eq!(f.span.start, g.span.start, "{what}");
            let starts = |d: &kdiag::parse::spans::ParsedDoc| {
                d.item_spans.iter().map(|s| s.start).collect::<Vec<_>>()
            };
            assert_eq!(starts(f), starts(g), "{what}");
        }
    }
    let files = files.len();
    eprintln!("fast YAML path accepted {accepted} of {files} YAML files");
    assert!(
        files > 20 && accepted * 2 > files,
        "fast path should take most files: {accepted}/{files}"
    );
}

/// The JSON fast path (bracket matching, one serde_json pass per item) reads every JSON
/// file of the samples and the corpus exactly as the general path does.
#[test]
fn json_fast_path_matches_serde_path() {
    use kdiag::ingest::json;
    let files = text_files(&[".json"]);
    let mut fast = 0;
    for (what, text) in &files {
        let text = std::sync::Arc::new(text.clone());
        let Some(docs) = json::scan_fast(&text) else {
            continue;
        };
        fast += 1;
        let (general, err) = json::scan_general(&text);
        assert!(
            err.is_none(),
            "{what}: fast path took invalid JSON: {err:?}"
        );
        assert_eq!(format!("{docs:?}"), format!("{general:?}"), "{what}");
    }
    let files = files.len();
    eprintln!("JSON fast path took {fast} of {files} JSON files");
    assert!(
        files > 20 && fast * 10 > files * 9,
        "fast path should take nearly all: {fast}/{files}"
    );
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The first place two values differ, shortly.
fn first_diff(a: &serde_json::Value, b: &serde_json::Value, path: String) -> Option<String> {
    use serde_json::Value::{Array, Object};
    match (a, b) {
        (Object(x), Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) => {
                        if let Some(d) = first_diff(v, w, format!("{path}.{k}")) {
                            return Some(d);
                        }
                    }
                    None => return Some(format!("{path}.{k}: only in the fast path")),
                }
            }
            y.keys()
                .find(|k| !x.contains_key(*k))
                .map(|k| format!("{path}.{k}: only in the general parser"))
        }
        (Array(x), Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_diff(v, w, format!("{path}[{i}]"))),
        _ if a == b => None,
        _ => {
            let short = |v: &serde_json::Value| v.to_string().chars().take(200).collect::<String>();
            Some(format!("{path}: fast {} vs general {}", short(a), short(b)))
        }
    }
}

/// A few-MB must-gather (and its troubleshoot twin) from `examples/gen_bundle.rs`,
/// removed when dropped.
struct Generated(PathBuf);

impl Drop for Generated {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
        let _ = std::fs::remove_file(self.twin());
        let mut report = self.0.as_os_str().to_owned();
        report.push(".gen.json");
        let _ = std::fs::remove_file(PathBuf::from(report));
    }
}

impl Generated {
    fn twin(&self) -> PathBuf {
        let mut tgz = self.0.as_os_str().to_owned();
        tgz.push(".troubleshoot.tar.gz");
        PathBuf::from(tgz)
    }
}

fn generated_bundle() -> Generated {
    {
        let exe = std::env::current_exe().expect("test binary path");
        let profile_dir = exe.parent().and_then(|d| d.parent()).expect("target dir");
        let gen_bin = profile_dir.join("examples").join("gen_bundle");
        if !gen_bin.is_file() {
            // `cargo test` builds examples; a filtered run may not have.
            let status = std::process::Command::new(env!("CARGO"))
                .args(["build", "--example", "gen_bundle"])
                .current_dir(root())
                .status()
                .expect("cargo build --example gen_bundle");
            assert!(status.success());
        }
        // One per test that asks: each removes its own when done.
        static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let out = std::env::temp_dir().join(format!("kdiag-gen-{}-{n}", std::process::id()));
        let status = std::process::Command::new(&gen_bin)
            .arg(&out)
            .args([
                "--pods", "300", "--nodes", "12", "--events", "600", "--seed", "7",
            ])
            .arg("--troubleshoot-tgz")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .expect("run gen_bundle");
        assert!(status.success(), "gen_bundle failed");
        Generated(out)
    }
}

/// Views read straight from the text (YAML fields they ignore skipped by indentation,
/// JSON by serde_json) must equal views read from the full tree of the same object, for
/// every object of the generated bundle, its JSON twin and the sample bundles; and the fast path must give the general
/// parser's documents on every YAML file of the generated bundle.
#[test]
fn views_from_text_match_views_from_trees() {
    use kdiag::ingest::{InputArg, load};
    use kdiag::kube::{event, kueue, network, node, pod, workload};
    use kdiag::parse::{fast_yaml, yaml};
    use kdiag::snapshot::Snapshot;
    use serde::de::DeserializeOwned;

    fn same<T: DeserializeOwned + std::fmt::Debug>(snap: &Snapshot, kind: &str) -> usize {
        let mut n = 0;
        for &id in snap.ids_of(kind) {
            let o = snap.object(id);
            // From the text first: once the tree exists, views are read from it.
            let from_text = format!("{:?}", o.deserialize::<T>());
            let from_tree = format!("{:?}", kdiag::parse::tree::read::<T>(o.value()));
            assert_eq!(from_text, from_tree, "{kind} {}", o.name);
            n += 1;
        }
        n
    }

    let generated = generated_bundle();
    let mut checked = 0;
    // YAML (fast path), the same cluster as JSON (troubleshoot), and the hand-written
    // samples (some through the general parser).
    for input in [
        generated.0.clone(),
        generated.twin(),
        root().join("sample-bundles"),
    ] {
        let snap = Snapshot::build(load(&[InputArg::Path(input.clone())]).expect("loads"));
        checked += same::<pod::Pod>(&snap, "Pod");
        checked += same::<node::Node>(&snap, "Node");
        checked += same::<network::Service>(&snap, "Service");
        checked += same::<network::EndpointSlice>(&snap, "EndpointSlice");
        checked += same::<workload::Deployment>(&snap, "Deployment");
        checked += same::<workload::ReplicaSet>(&snap, "ReplicaSet");
        checked += same::<workload::Job>(&snap, "Job");
        checked += same::<kueue::Workload>(&snap, "Workload");
        checked += same::<kueue::ClusterQueue>(&snap, "ClusterQueue");
        for &id in snap.ids_of("Event") {
            let o = snap.object(id);
            let from_text = format!("{:?}", o.deserialize::<event::EventDoc>().map(|e| e.0));
            let from_tree = format!("{:?}", event::Event::from_value(o.value()));
            assert_eq!(from_text, format!("Ok({from_tree})"), "Event {}", o.name);
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} objects compared");

    let mut files = 0;
    for path in walk(&generated.0) {
        if path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let fast = fast_yaml::parse(&text).expect("generated YAML takes the fast path");
        let (general, err) = yaml::parse(&text);
        assert!(err.is_none(), "{}: {err:?}", path.display());
        assert_eq!(fast.len(), general.len());
        for (f, g) in fast.iter().zip(&general) {
            if let Some(d) = first_diff(&f.value, &g.value, String::new()) {
                panic!("{}: object at line {}: {d}", path.display(), g.span.start);
            }
        }
        // The text kept for the file (without managedFields) reads the same, line for line.
        let (_, managed) = fast_yaml::scan::<
            kdiag::ingest::header::Header<kdiag::ingest::header::ItemHeader>,
        >(&text)
        .expect("fast path");
        let (kept, _) = fast_yaml::compact(&text, &managed);
        assert_eq!(kept.lines().count(), text.lines().count());
        let (again, err) = yaml::parse(&kept);
        assert!(err.is_none(), "{} kept: {err:?}", path.display());
        for (a, g) in again.iter().zip(&general) {
            assert_eq!(a.span, g.span);
            if let Some(d) = first_diff(&a.value, &g.value, String::new()) {
                panic!(
                    "{} kept: object at line {}: {d}",
                    path.display(),
                    g.span.start
                );
            }
        }
        files += 1;
    }
    assert!(files > 20, "only {files} generated YAML files");
}

/// Views read with the headers at ingest (`ingest::early`) must be the views read later
/// from the object's text, on every object that has one: the generated bundle (YAML
/// must-gather, whose List items have no `kind`, and its JSON troubleshoot twin), the
/// sample bundles and the corpus. On the generated bundle every object of those kinds
/// must have one.
#[test]
fn early_views_match_views_read_later() {
    use kdiag::ingest::content::{self, FileRead};
    use kdiag::ingest::json;
    use kdiag::ingest::objects::{Doc, RawObject, extract};
    use kdiag::ingest::source;
    use kdiag::parse::yaml;
    const EARLY_KINDS: [&str; 7] = [
        "Pod",
        "ReplicaSet",
        "Deployment",
        "StatefulSet",
        "DaemonSet",
        "Job",
        "Event",
    ];

    /// What ingest reads of an object besides its view.
    fn identity(o: &RawObject) -> String {
        format!(
            "{} {} {:?} {:?} {:?} {:?} {} owners at line {}",
            o.kind,
            o.name,
            o.namespace,
            o.uid,
            o.resource_version,
            o.time,
            o.owners.len(),
            o.span.start
        )
    }

    /// (objects of the kinds read early, of which read early)
    fn check(path: &str, text: &str) -> (usize, usize) {
        let FileRead::Parsed { extracted, .. } =
            content::read(path, text.as_bytes().to_vec(), true)
        else {
            return (0, 0);
        };
        // Reading views with the headers leaves what the headers read as it was: the
        // same file read without early views (the general parser, or the JSON path).
        let without = if path.ends_with(".json") {
            json::scan(&std::sync::Arc::new(text.to_string())).0
        } else {
            yaml::parse(text)
                .0
                .into_iter()
                .map(Doc::from_parsed)
                .collect()
        };
        let without = extract(path, without).objects;
        assert_eq!(without.len(), extracted.objects.len(), "{path}");
        for (a, b) in extracted.objects.iter().zip(&without) {
            assert_eq!(identity(a), identity(b), "{path}");
        }
        let (mut kinds, mut early) = (0, 0);
        for o in &extracted.objects {
            if !EARLY_KINDS.contains(&o.kind.as_str()) {
                assert!(o.early.is_none(), "{} {} read early", o.kind, o.name);
                continue;
            }
            kinds += 1;
            if let Some(e) = &o.early {
                let (now, later) = e.and_later(&o.body);
                assert_eq!(now, later, "{} {}", o.kind, o.name);
                early += 1;
            }
        }
        (kinds, early)
    }

    let generated = generated_bundle();
    for input in [generated.0.clone(), generated.twin()] {
        let (mut kinds, mut early) = (0, 0);
        for entry in source::collect_path(&input, None)
            .expect("collects")
            .entries
        {
            let bytes = entry.read().expect("reads");
            let (k, e) = check(&entry.path, &String::from_utf8_lossy(&bytes));
            kinds += k;
            early += e;
        }
        assert!(kinds > 300, "{}: only {kinds} objects", input.display());
        assert_eq!(early, kinds, "{}: objects not read early", input.display());
    }

    let (mut kinds, mut early) = (0, 0);
    for (name, text) in text_files(&[".yaml", ".yml", ".json"]) {
        let path = name.rsplit(": ").next().unwrap_or(&name);
        let (k, e) = check(path, &text);
        kinds += k;
        early += e;
    }
    eprintln!("samples and corpus: {early} of {kinds} objects read early");
    assert!(early > 20, "only {early} of {kinds} objects read early");
}

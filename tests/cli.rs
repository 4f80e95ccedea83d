//! Command-line behaviour: exit codes, filters, merged inputs, stdin, `kdiag rules`.

use crate::{json, kdiag, kdiag_stdin};

const SEED: &str = "sample-bundles/control-plane-seed.list.yaml";

#[test]
fn exit_codes_follow_fail_on() {
    assert_eq!(kdiag(&["analyze", SEED]).code, 1, "errors fail by default");
    assert_eq!(kdiag(&["analyze", SEED, "--fail-on", "never"]).code, 0);
    assert_eq!(
        kdiag(&["analyze", SEED, "--stage", "readiness"]).code,
        0,
        "only a warning is left after the filter"
    );
    assert_eq!(
        kdiag(&[
            "analyze",
            SEED,
            "--stage",
            "readiness",
            "--fail-on",
            "warning"
        ])
        .code,
        3,
        "a warning at or above --fail-on, no error: 3"
    );
    assert_eq!(
        kdiag(&[
            "analyze",
            "sample-bundles/healthy.list.yaml",
            "--fail-on",
            "info"
        ])
        .code,
        0
    );
}

#[test]
fn usage_errors_exit_2() {
    let missing = kdiag(&["analyze", "no/such/bundle"]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("no/such/bundle"),
        "{}",
        missing.stderr
    );
    assert_eq!(kdiag(&["analyze"]).code, 2);
    assert_eq!(kdiag(&["analyze", SEED, "--format", "xml"]).code, 2);
    assert_eq!(kdiag(&["frobnicate"]).code, 2);
}

#[test]
fn empty_input_says_so() {
    let dir = std::env::temp_dir().join(format!("kdiag-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = kdiag(&["analyze", dir.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(
        run.stdout.contains("holds no Kubernetes objects"),
        "{}",
        run.stdout
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn filters_by_namespace_and_stage() {
    let out = json(&kdiag(&[
        "analyze", SEED, "--format", "json", "--stage", "node", "--stage", "runtime",
    ]));
    let stages: Vec<&str> = crate::alarms(&out)
        .iter()
        .map(|f| f["stage"].as_str().unwrap())
        .collect();
    assert_eq!(stages, ["node", "runtime"]);
    // The Job's retried pod is history, at runtime too.
    let history: Vec<&str> = out["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "info")
        .map(|f| f["object"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(history, ["migrate"]);
    let out = json(&kdiag(&[
        "analyze",
        SEED,
        "--format",
        "json",
        "-n",
        "kube-system",
    ]));
    assert!(out["findings"].as_array().unwrap().is_empty());
}

#[test]
fn several_paths_merge_into_one_snapshot() {
    let out = json(&kdiag(&[
        "analyze",
        "sample-bundles/control-plane-seed.must-gather.zip",
        SEED,
        "--format",
        "json",
    ]));
    assert_eq!(out["inputs"].as_array().unwrap().len(), 2);
    // The same objects in both inputs are stored once: still one finding per stuck thing.
    assert_eq!(crate::alarms(&out).len(), 5);
    let inputs: Vec<u64> = out["findings"][0]["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["input"].as_u64())
        .collect();
    assert!(inputs.iter().all(|&i| i < 2));
}

#[test]
fn stdin_is_an_input() {
    let bytes = std::fs::read(crate::root().join(SEED)).unwrap();
    let run = kdiag_stdin(&["analyze", "-", "--format", "json"], Some(&bytes));
    assert_eq!(run.code, 1);
    assert_eq!(crate::alarms(&json(&run)).len(), 5);
    let gz =
        std::fs::read(crate::root().join("sample-bundles/control-plane-seed.troubleshoot.tar.gz"))
            .unwrap();
    let run = kdiag_stdin(&["analyze", "-", "--format", "json"], Some(&gz));
    assert_eq!(json(&run)["inputs"][0]["layout"], "troubleshoot");
}

#[test]
fn output_is_deterministic() {
    let a = kdiag(&[
        "analyze",
        "sample-bundles/control-plane-seed.must-gather.zip",
        "--format",
        "json",
    ]);
    let b = kdiag(&[
        "analyze",
        "sample-bundles/control-plane-seed.must-gather.zip",
        "--format",
        "json",
    ]);
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn rules_lists_every_rule() {
    let run = kdiag(&["rules"]);
    assert_eq!(run.code, 0);
    insta::with_settings!({snapshot_path => crate::root().join("snapshots"), prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("rules", run.stdout);
    });
}

/// `kdiag --help` names every stage `--stage` takes: a new stage is not left out of the
/// overview.
#[test]
fn help_names_every_stage() {
    let help = kdiag(&["analyze", "--help"]).stdout;
    let stages = help
        .lines()
        .find(|l| l.contains("--stage"))
        .and_then(|l| l.split("[possible values: ").nth(1))
        .expect("--stage lists its values")
        .trim_end_matches(']');
    let stages: Vec<&str> = stages.split(", ").collect();
    assert_eq!(stages.len(), 8, "{stages:?}");
    let top = kdiag(&["--help"]).stdout;
    let listed = top
        .split("the stage where it stopped (")
        .nth(1)
        .and_then(|t| t.split(')').next())
        .expect("--help lists the stages");
    let listed: Vec<String> = listed.split(',').map(|s| s.trim().to_string()).collect();
    assert_eq!(listed, stages, "{top}");
}

/// The rules' docs are for users: no Rust paths or constant names from the source.
#[test]
fn rule_docs_name_no_internals() {
    let all = json(&kdiag(&["rules", "--format", "json"]));
    for r in all["rules"].as_array().unwrap() {
        let text = r.to_string();
        let internal = text.contains("::")
            || text.split('`').skip(1).step_by(2).any(|code| {
                code.len() > 3
                    && code.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                    && code.contains('_')
            });
        assert!(!internal, "{}: {text}", r["id"]);
    }
}

#[test]
fn fingerprints_are_stable_and_unique() {
    let out = json(&kdiag(&["analyze", SEED, "--format", "json"]));
    let fps: Vec<&str> = out["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["fingerprint"].as_str().unwrap())
        .collect();
    let mut unique = fps.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), fps.len());
    assert!(
        fps.contains(&"scheduling/unschedulable:Deployment:demo:api-a:insufficient-cpu"),
        "{fps:?}"
    );
}

/// A temporary folder removed when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("kdiag-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
    fn path(&self, rel: &str) -> String {
        self.0.join(rel).to_str().unwrap().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A case zip holding a troubleshoot tar.gz (as support portals attach them): the inner
/// archive is opened in memory and its files are named `outer!/inner`.
#[test]
fn nested_archives_are_opened() {
    use std::io::Write;
    let tmp = TempDir::new("nested");
    let inner =
        std::fs::read(crate::root().join("sample-bundles/control-plane-seed.troubleshoot.tar.gz"))
            .unwrap();
    let case = tmp.path("case.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&case).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    zip.start_file("case-1234/bundle.tar.gz", opts).unwrap();
    zip.write_all(&inner).unwrap();
    zip.start_file("case-1234/notes.txt", opts).unwrap();
    zip.write_all(b"customer says: pods pending").unwrap();
    zip.finish().unwrap();
    let out = json(&kdiag(&["analyze", &case, "--format", "json"]));
    assert_eq!(out["inputs"][0]["layout"], "troubleshoot");
    assert_eq!(crate::alarms(&out).len(), 5);
    let file = out["findings"][0]["evidence"][0]["file"].as_str().unwrap();
    assert!(
        file.starts_with("case-1234/bundle.tar.gz!/support-bundle-"),
        "{file}"
    );
    assert!(out["problems"].as_array().unwrap().is_empty());
}

/// Archives nested deeper than three levels are not opened, and say so.
#[test]
fn nesting_is_bounded() {
    use std::io::Write;
    let tmp = TempDir::new("deep");
    let mut bytes =
        std::fs::read(crate::root().join("sample-bundles/control-plane-seed.list.yaml")).unwrap();
    let mut name = "pods.yaml".to_string();
    for level in 0..5 {
        let mut buf = std::io::Cursor::new(Vec::new());
        let mut zip = zip::ZipWriter::new(&mut buf);
        zip.start_file(name.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(&bytes).unwrap();
        zip.finish().unwrap();
        bytes = buf.into_inner();
        name = format!("level{level}.zip");
    }
    let outer = tmp.path("outer.zip");
    std::fs::write(&outer, &bytes).unwrap();
    let run = kdiag(&["analyze", &outer, "--format", "json"]);
    assert_eq!(run.code, 2, "nothing readable within the nesting bound");
    let out = json(&run);
    let problems = out["problems"].as_array().unwrap();
    assert!(
        problems.iter().any(|p| p["message"]
            .as_str()
            .unwrap()
            .contains("nested more than 3 levels")),
        "{problems:#?}"
    );
}

/// `kubectl cluster-info dump --output-directory` trees: JSON Lists per namespace.
#[test]
fn cluster_info_dump_layout() {
    let tmp = TempDir::new("cid");
    std::fs::create_dir_all(tmp.path("demo")).unwrap();
    std::fs::write(
        tmp.path("nodes.json"),
        r#"{"kind":"NodeList","apiVersion":"v1","items":[{"metadata":{"name":"n1"},"status":{"conditions":[{"type":"Ready","status":"True"}]}}]}"#,
    )
    .unwrap();
    std::fs::write(
        tmp.path("demo/pods.json"),
        r#"{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"p","namespace":"demo","uid":"u1","creationTimestamp":"2026-11-20T09:00:00Z"},"spec":{"containers":[{"name":"c","image":"x"}]},"status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable","message":"0/1 nodes are available: 1 node(s) were unschedulable."}]}}]}"#,
    )
    .unwrap();
    std::fs::write(
        tmp.path("demo/events.json"),
        r#"{"kind":"EventList","apiVersion":"v1","items":[]}"#,
    )
    .unwrap();
    std::fs::create_dir_all(tmp.path("demo/p")).unwrap();
    std::fs::write(tmp.path("demo/p/logs.txt"), "starting\n").unwrap();
    let out = json(&kdiag(&[
        "analyze",
        &tmp.0.to_string_lossy(),
        "--format",
        "json",
    ]));
    assert_eq!(out["inputs"][0]["layout"], "cluster-info-dump");
    assert_eq!(out["inputs"][0]["objects"], 2);
    assert_eq!(out["inputs"][0]["logs"], 1);
    assert_eq!(out["findings"][0]["stage"], "scheduling");
}

/// `events.k8s.io/v1` events attach to their pod like `v1` events.
#[test]
fn new_style_events_attach() {
    let dump = r#"
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: demo, uid: u-1, creationTimestamp: "2026-11-20T09:00:00Z"}
spec:
  containers: [{name: c, image: "example.com/missing:1"}]
  nodeName: n1
status:
  phase: Pending
  containerStatuses:
  - name: c
    ready: false
    restartCount: 0
    state: {waiting: {reason: ImagePullBackOff, message: 'Back-off pulling image "example.com/missing:1"'}}
---
apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: p.1, namespace: demo}
regarding: {kind: Pod, name: p, namespace: demo, uid: u-1}
reason: Failed
note: 'Failed to pull image "example.com/missing:1": not found'
type: Warning
eventTime: "2026-11-20T09:05:00.000000Z"
series: {count: 4, lastObservedTime: "2026-11-20T09:10:00.000000Z"}
"#;
    let out = json(&kdiag_stdin(
        &["analyze", "-", "--format", "json"],
        Some(dump.as_bytes()),
    ));
    let f = &out["findings"][0];
    assert_eq!(f["stage"], "node");
    let notes: Vec<&str> = f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["note"].as_str().unwrap())
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("×4") && n.contains("not found")),
        "{notes:#?}"
    );
}

#[test]
fn merge_refuses_files_that_are_not_scan_results() {
    let dir = crate::Scratch::new("merge-not-scan");
    let findings = kdiag(&["analyze", SEED, "--format", "json"]).stdout;
    let compact = json(&kdiag(&["analyze", SEED, "--format", "json"])).to_string();
    let scan_line = "{\"schema\":\"kdiag.scan/v1\",\"path\":\"b1\",\"findings\":0,\"stages\":{},\"rules\":{}}\n";
    for (name, text) in [
        (
            "pods.yaml",
            std::fs::read_to_string(crate::root().join(SEED)).unwrap(),
        ),
        ("findings.json", findings),
        ("findings-compact.json", compact),
    ] {
        let bad = dir.write(name, &text);
        let good = dir.write("shard-0.jsonl", scan_line);
        let run = kdiag(&["merge", &good, &bad]);
        assert_eq!(run.code, 2, "{name}: {}", run.stdout);
        assert!(
            run.stderr.contains(&bad) && run.stderr.contains("not a scan result"),
            "{name}: {}",
            run.stderr
        );
        assert!(run.stdout.is_empty(), "{name}: no table of nothing");
    }
    // A shard that had no bundle to scan wrote nothing: that is a scan result too.
    let empty = dir.write("shard-1.jsonl", "");
    let good = dir.write("shard-0.jsonl", scan_line);
    let run = kdiag(&["merge", &good, &empty]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("fleet: 1 bundle(s)"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_failed_write_is_named() {
    use std::process::{Command, Stdio};
    if let Ok(full) = std::fs::File::create("/dev/full") {
        let out = Command::new(env!("CARGO_BIN_EXE_kdiag"))
            .args(["analyze", SEED, "--fail-on", "never"])
            .current_dir(crate::root())
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("cannot write to stdout") && stderr.contains("No space left"),
            "{stderr}"
        );
    }
    // A closed pipe: guard::a_closed_pipe_ends_quietly_with_141.
}

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
        1
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
    let stages: Vec<&str> = out["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["stage"].as_str().unwrap())
        .collect();
    assert_eq!(stages, ["node", "runtime"]);
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
    assert_eq!(out["findings"].as_array().unwrap().len(), 4);
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
    assert_eq!(json(&run)["findings"].as_array().unwrap().len(), 4);
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
        fps.contains(&"pod/stuck:Deployment:demo:api-a:unschedulable"),
        "{fps:?}"
    );
}

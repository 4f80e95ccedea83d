//! Every sample bundle → a JSON and a human snapshot, and the seed pods' stages checked
//! explicitly in all three forms (must-gather zip, troubleshoot tar.gz, List file).

use crate::{json, kdiag, settings};

/// (snapshot name, path under the crate root).
const SAMPLES: &[(&str, &str)] = &[
    (
        "control-plane-seed.must-gather",
        "sample-bundles/control-plane-seed.must-gather.zip",
    ),
    (
        "control-plane-seed.troubleshoot",
        "sample-bundles/control-plane-seed.troubleshoot.tar.gz",
    ),
    (
        "control-plane-seed.list",
        "sample-bundles/control-plane-seed.list.yaml",
    ),
    (
        "healthy.must-gather",
        "sample-bundles/healthy.must-gather.zip",
    ),
    (
        "healthy.troubleshoot",
        "sample-bundles/healthy.troubleshoot.tar.gz",
    ),
    ("healthy.list", "sample-bundles/healthy.list.yaml"),
    ("bad-input", "sample-bundles/bad-input"),
];

#[test]
fn sample_snapshots() {
    for (name, path) in SAMPLES {
        let j = kdiag(&["analyze", path, "--format", "json", "--fail-on", "never"]);
        assert_eq!(j.code, 0, "{name}: {}", j.stderr);
        let h = kdiag(&["analyze", path, "--fail-on", "never"]);
        assert_eq!(h.code, 0, "{name}: {}", h.stderr);
        settings().bind(|| {
            insta::assert_snapshot!(format!("{name}.json"), j.stdout);
            insta::assert_snapshot!(format!("{name}.human"), h.stdout);
        });
    }
}

/// The control-plane seed: api-a stops at scheduling, api-b at the node (image pull),
/// worker at runtime, web at readiness — the same in every form.
#[test]
fn seed_pods_get_their_stage_in_every_form() {
    for (_, path) in SAMPLES
        .iter()
        .filter(|(n, _)| n.starts_with("control-plane-seed"))
    {
        let out = json(&kdiag(&["analyze", path, "--format", "json"]));
        let stage_of = |deployment: &str| -> Vec<String> {
            out["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| {
                    f["object"]["name"] == deployment && f["object"]["kind"] == "Deployment"
                })
                .map(|f| f["stage"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(stage_of("api-a"), ["scheduling"], "{path}");
        assert_eq!(stage_of("api-b"), ["node"], "{path}");
        assert_eq!(stage_of("worker"), ["runtime"], "{path}");
        assert_eq!(stage_of("web"), ["readiness"], "{path}");
        // Healthy noise and the Job's earlier failed pod produce nothing.
        for quiet in ["frontend", "migrate", "coredns"] {
            assert!(
                stage_of(quiet).is_empty(),
                "{path}: {quiet} must not be reported"
            );
        }
        let findings = out["findings"].as_array().unwrap();
        // The Service in front of web has no ready endpoint: one traffic finding on it.
        let web_svc: Vec<_> = findings
            .iter()
            .filter(|f| f["object"]["kind"] == "Service" && f["object"]["name"] == "web")
            .collect();
        assert_eq!(web_svc.len(), 1, "{path}");
        assert_eq!(web_svc[0]["stage"], "traffic");
        assert_eq!(crate::alarms(&out).len(), 5, "{path}: {findings:#?}");
        // Job migrate's failed first pod is history: info, saying the retry completed.
        let history: Vec<_> = findings
            .iter()
            .filter(|f| f["severity"] == "info")
            .collect();
        assert_eq!(history.len(), 1, "{path}: {history:#?}");
        assert_eq!(history[0]["object"]["name"], "migrate");
        assert!(
            history[0]["message"]
                .as_str()
                .unwrap()
                .contains("retried: Job migrate completed at"),
            "{path}: {:#}",
            history[0]
        );
        let api_a = findings
            .iter()
            .find(|f| f["object"]["name"] == "api-a")
            .unwrap();
        assert!(
            api_a["message"]
                .as_str()
                .unwrap()
                .contains("Insufficient cpu")
        );
        let api_b = findings
            .iter()
            .find(|f| f["object"]["name"] == "api-b")
            .unwrap();
        assert!(api_b["message"].as_str().unwrap().contains("node-b"));
    }
}

#[test]
fn healthy_bundles_have_no_findings() {
    for (name, path) in SAMPLES.iter().filter(|(n, _)| n.starts_with("healthy")) {
        let run = kdiag(&["analyze", path, "--format", "json", "--fail-on", "info"]);
        assert_eq!(run.code, 0, "{name}: {}", run.stdout);
        let out = json(&run);
        assert!(out["findings"].as_array().unwrap().is_empty(), "{name}");
        assert!(out["problems"].as_array().unwrap().is_empty(), "{name}");
    }
}

/// Every form of one bundle holds the same objects.
#[test]
fn forms_agree_on_objects() {
    let counts: Vec<u64> = SAMPLES
        .iter()
        .filter(|(n, _)| n.starts_with("control-plane-seed"))
        .map(|(_, p)| {
            json(&kdiag(&["analyze", p, "--format", "json"]))["inputs"][0]["objects"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert!(counts.windows(2).all(|w| w[0] == w[1]), "{counts:?}");
}

/// Bad input: each bad file is a problem naming the file (and line), and the good pod
/// in the same folder is still analyzed.
#[test]
fn bad_input_becomes_problems() {
    let run = kdiag(&["analyze", "sample-bundles/bad-input", "--format", "json"]);
    assert_eq!(run.code, 1, "the CrashLoopBackOff pod is still reported");
    let out = json(&run);
    let problems = out["problems"].as_array().unwrap();
    let files: Vec<&str> = problems.iter().filter_map(|p| p["file"].as_str()).collect();
    for bad in [
        "truncated.yaml",
        "values.yaml",
        "binary.yaml",
        "nokind.json",
        "list-with-scalars.yaml",
        "alias-bomb.yaml",
        "deep.json",
    ] {
        assert!(
            files.contains(&bad),
            "{bad} must be a problem: {problems:#?}"
        );
    }
    assert!(
        problems
            .iter()
            .all(|p| p["message"].as_str().is_some_and(|m| !m.is_empty()))
    );
    assert!(
        problems
            .iter()
            .filter(|p| p["file"] == "truncated.yaml")
            .all(|p| p["line"].is_u64()),
        "YAML errors carry a line"
    );
    assert_eq!(out["findings"].as_array().unwrap().len(), 1);
    assert_eq!(out["findings"][0]["stage"], "runtime");
}

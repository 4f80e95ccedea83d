//! Every input in `../shared/corpus` loads without a crash: objects where the input holds
//! objects, problems for the known-bad ones. Skipped (with a message) without `../shared`.

use crate::{json, kdiag, root};
use std::path::PathBuf;

fn corpus() -> Option<PathBuf> {
    let dir = root().join("../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping corpus test: ../shared/corpus is absent");
        None
    }
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
];

#[test]
fn every_corpus_input_loads() {
    let Some(dir) = corpus() else { return };
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

/// The healthy k3s baseline bundle must produce no error findings.
#[test]
fn baseline_bundle_has_no_errors() {
    let Some(dir) = corpus() else { return };
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

//! Rules of the kueue area: sample bundles → snapshots and explicit checks, `kdiag why`,
//! and the Kueue corpus (valid examples quiet, real captures load).

use crate::{analyze_json, area_settings, find, findings, json, kdiag, root};
use serde_json::Value;
use std::path::PathBuf;

/// Every Kueue sample bundle (sample-bundles/kueue/<name>.yaml).
const BUNDLES: &[&str] = &[
    "seed-quota",
    "localqueue-stopped",
    "localqueue-missing",
    "clusterqueue-missing-flavor",
    "namespace-selector",
    "cohort-borrowing",
    "queue-full",
    "admitted-unschedulable",
    "no-matching-flavor",
    "admission-checks",
    "strict-fifo",
    "evicted",
    "job-without-workload",
    "stale-condition",
    "healthy",
    "multi-podset",
    "lending-limit",
];

fn bundle(name: &str) -> String {
    format!("sample-bundles/kueue/{name}.yaml")
}

fn analyze(name: &str) -> Value {
    analyze_json(&bundle(name))
}

/// The analysis restricted to this area's findings (other areas' rules evolve on their own).
fn kueue_only(mut out: Value) -> Value {
    let kept: Vec<Value> = out["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"].as_str().unwrap().starts_with("kueue/"))
        .cloned()
        .collect();
    out["findings"] = Value::Array(kept);
    out
}

/// (rule, object kind, object name, severity, stage) of the kueue findings.
fn summary(out: &Value) -> Vec<(String, String, String, String, String)> {
    findings(out)
        .iter()
        .filter(|f| f["rule"].as_str().unwrap().starts_with("kueue/"))
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["object"]["kind"].as_str().unwrap().to_string(),
                f["object"]["name"].as_str().unwrap().to_string(),
                f["severity"].as_str().unwrap().to_string(),
                f["stage"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// (rule, object kind, object name, severity, stage) as written in the expectations.
type Expected<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str);

fn s(v: &[Expected]) -> Vec<(String, String, String, String, String)> {
    v.iter()
        .map(|(a, b, c, d, e)| {
            (
                a.to_string(),
                b.to_string(),
                c.to_string(),
                d.to_string(),
                e.to_string(),
            )
        })
        .collect()
}

#[test]
fn kueue_sample_snapshots() {
    for name in BUNDLES {
        let out = kueue_only(analyze(name));
        area_settings("kueue").bind(|| insta::assert_json_snapshot!(format!("{name}.json"), out));
    }
    // Human output of the seed and of the cohort scenario (queue stage only).
    for name in ["seed-quota", "cohort-borrowing"] {
        let run = kdiag(&[
            "analyze",
            &bundle(name),
            "--stage",
            "queue",
            "--fail-on",
            "never",
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        area_settings("kueue")
            .bind(|| insta::assert_snapshot!(format!("{name}.human"), run.stdout));
    }
}

/// Which rule fires on what, in every bundle, and nothing else from this area.
#[test]
fn each_bundle_gets_its_findings() {
    let expected: &[(&str, &[Expected])] = &[
        (
            "seed-quota",
            &[(
                "kueue/quota-exceeds-capacity",
                "Workload",
                "job-train-d4a37",
                "error",
                "queue",
            )],
        ),
        (
            "localqueue-stopped",
            &[(
                "kueue/localqueue-unusable",
                "Workload",
                "job-sweep-b9352",
                "error",
                "queue",
            )],
        ),
        (
            "localqueue-missing",
            &[(
                "kueue/localqueue-unusable",
                "Workload",
                "job-etl-78d81",
                "error",
                "queue",
            )],
        ),
        (
            "clusterqueue-missing-flavor",
            &[(
                "kueue/clusterqueue-unusable",
                "Workload",
                "job-detector-c9368",
                "error",
                "queue",
            )],
        ),
        (
            "namespace-selector",
            &[
                (
                    "kueue/namespace-not-selected",
                    "Workload",
                    "job-report-30455",
                    "error",
                    "queue",
                ),
                (
                    "kueue/namespace-not-selected",
                    "Workload",
                    "job-bert-fb48f",
                    "error",
                    "queue",
                ),
            ],
        ),
        (
            "cohort-borrowing",
            &[
                (
                    "kueue/quota-exceeds-capacity",
                    "Workload",
                    "job-eval-423cb",
                    "error",
                    "queue",
                ),
                (
                    "kueue/quota-in-use",
                    "Workload",
                    "job-big-train-ca62f",
                    "warning",
                    "queue",
                ),
            ],
        ),
        (
            "queue-full",
            &[
                (
                    "kueue/quota-in-use",
                    "Workload",
                    "job-backfill-16664",
                    "warning",
                    "queue",
                ),
                (
                    "kueue/quota-in-use",
                    "Workload",
                    "pod-adhoc-query-6wq2d-86384",
                    "warning",
                    "queue",
                ),
            ],
        ),
        (
            "admitted-unschedulable",
            &[(
                "kueue/admitted-pods-pending",
                "Job",
                "segmenter",
                "error",
                "scheduling",
            )],
        ),
        (
            "no-matching-flavor",
            &[
                (
                    "kueue/no-matching-flavor",
                    "Workload",
                    "job-batch-embed-9aeba",
                    "error",
                    "queue",
                ),
                (
                    "kueue/no-matching-flavor",
                    "Workload",
                    "job-llm-serve-test-6ad70",
                    "error",
                    "queue",
                ),
            ],
        ),
        (
            "admission-checks",
            &[
                (
                    "kueue/admission-checks",
                    "Workload",
                    "job-pretrain-8fee5",
                    "error",
                    "queue",
                ),
                (
                    "kueue/admission-checks",
                    "Workload",
                    "job-finetune-2e631",
                    "warning",
                    "queue",
                ),
            ],
        ),
        (
            "strict-fifo",
            &[
                (
                    "kueue/strict-fifo-blocked",
                    "Workload",
                    "job-post-process-fb0db",
                    "warning",
                    "queue",
                ),
                (
                    "kueue/quota-in-use",
                    "Workload",
                    "job-urgent-mesh-3216f",
                    "warning",
                    "queue",
                ),
            ],
        ),
        (
            "evicted",
            &[
                (
                    "kueue/workload-evicted",
                    "Workload",
                    "job-flaky-020d3",
                    "error",
                    "queue",
                ),
                (
                    "kueue/quota-in-use",
                    "Workload",
                    "job-experiment-62991",
                    "warning",
                    "queue",
                ),
                (
                    "kueue/workload-evicted",
                    "Workload",
                    "job-experiment-62991",
                    "warning",
                    "queue",
                ),
                (
                    "kueue/workload-evicted",
                    "Workload",
                    "job-slow-start-f3eba",
                    "warning",
                    "queue",
                ),
            ],
        ),
        (
            "job-without-workload",
            &[
                (
                    "kueue/job-without-workload",
                    "Job",
                    "sample-job-x7k2p",
                    "error",
                    "queue",
                ),
                (
                    "kueue/job-without-workload",
                    "Pod",
                    "kueue-sleep-4jx9c",
                    "error",
                    "queue",
                ),
            ],
        ),
        (
            "stale-condition",
            &[(
                "kueue/workload-pending",
                "Workload",
                "job-hourly-0900-50892",
                "warning",
                "queue",
            )],
        ),
        ("healthy", &[]),
        (
            "multi-podset",
            &[(
                "kueue/quota-exceeds-capacity",
                "Workload",
                "jobset-orbit-46f8c",
                "error",
                "queue",
            )],
        ),
        (
            "lending-limit",
            &[
                (
                    "kueue/quota-exceeds-capacity",
                    "Workload",
                    "job-eval-a41f2",
                    "error",
                    "queue",
                ),
                (
                    "kueue/quota-in-use",
                    "Workload",
                    "job-tune-f06eb",
                    "warning",
                    "queue",
                ),
            ],
        ),
    ];
    assert_eq!(expected.len(), BUNDLES.len());
    for (name, want) in expected {
        assert_eq!(summary(&analyze(name)), s(want), "{name}");
    }
}

/// The seed: parallelism 3 at 1 cpu each against 2 cpu and 2 pods, no cohort.
#[test]
fn seed_says_never_with_the_numbers() {
    let out = analyze("seed-quota");
    let f = find(&out, "kueue/quota-exceeds-capacity", "job-train-d4a37");
    assert_eq!(
        f["message"],
        "Job ml/train needs 3 cpu and 3 pods; ClusterQueue cq-ml has 2 cpu and 2 pods nominal, no cohort: this Workload can never be admitted"
    );
    assert_eq!(
        f["fingerprint"],
        "kueue/quota-exceeds-capacity:Workload:ml:job-train-d4a37:never:cpu,pods"
    );
    assert_eq!(f["object"]["apiVersion"], "kueue.x-k8s.io/v1beta1");
    // details: the chain and the quota table.
    let d = &f["details"];
    assert_eq!(d["verdict"], "never-fits");
    let kinds: Vec<&str> = d["chain"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "Job",
            "Workload",
            "LocalQueue",
            "ClusterQueue",
            "ResourceFlavor"
        ]
    );
    let cpu = d["quota"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["resource"] == "cpu")
        .unwrap();
    assert_eq!(cpu["nominal"], "2");
    assert_eq!(cpu["max_capacity"], "2");
    assert_eq!(cpu["needed"], "3");
    assert_eq!(cpu["borrowing_limit"], Value::Null);
    assert_eq!(d["podsets"][0]["total"]["pods"], "3");
    assert_eq!(d["podsets"][0]["per_pod"]["cpu"], "1");
    // Evidence: every hop with file and line, and Kueue's own words.
    let ev = f["evidence"].as_array().unwrap();
    for kind in [
        "Workload",
        "Job",
        "LocalQueue",
        "ClusterQueue",
        "ResourceFlavor",
        "Event",
    ] {
        let e = ev
            .iter()
            .find(|e| e["object"]["kind"] == kind)
            .unwrap_or_else(|| panic!("no {kind} evidence: {ev:#?}"));
        assert_eq!(e["file"], "seed-quota.yaml", "{kind}");
        assert!(e["line"].as_u64().unwrap() > 1, "{kind}");
    }
    assert!(ev.iter().any(|e| {
        e["note"]
            .as_str()
            .unwrap()
            .starts_with("Kueue says QuotaReserved=False, reason Pending: couldn't assign flavors")
    }));
    // The quota lines cited are the nominalQuota lines of cpu and pods.
    let text = std::fs::read_to_string(root().join(bundle("seed-quota"))).unwrap();
    for res in ["cpu", "pods"] {
        let e = ev
            .iter()
            .find(|e| {
                e["note"]
                    .as_str()
                    .unwrap()
                    .starts_with(&format!("flavor default-flavor {res}:"))
            })
            .unwrap();
        let line = text
            .lines()
            .nth(e["line"].as_u64().unwrap() as usize - 1)
            .unwrap();
        assert_eq!(line.trim(), "nominalQuota: \"2\"", "{res}");
    }
}

#[test]
fn cohort_borrowing_with_and_without_limit() {
    let out = analyze("cohort-borrowing");
    let never = find(&out, "kueue/quota-exceeds-capacity", "job-eval-423cb");
    let msg = never["message"].as_str().unwrap();
    assert!(msg.contains("needs 8 cpu"), "{msg}");
    assert!(
        msg.contains("at most 6 cpu (capped by ClusterQueue cq-c's borrowingLimit of 2 cpu in flavor default-flavor: 4 nominal + 2 borrowed)"),
        "{msg}"
    );
    let later = find(&out, "kueue/quota-in-use", "job-big-train-ca62f");
    let msg = later["message"].as_str().unwrap();
    assert!(msg.contains("needs 12 cpu"), "{msg}");
    assert!(
        msg.contains("10 free now (16 at most): 2 more needed"),
        "{msg}"
    );
    assert!(
        msg.contains("team-b/job-sim-27dd6 (6 cpu in cq-b)"),
        "{msg}"
    );
    let ev = later["evidence"].as_array().unwrap();
    assert!(
        ev.iter()
            .any(|e| e["object"]["kind"] == "Cohort" && e["line"].is_u64())
    );
    let chain: Vec<&str> = later["details"]["chain"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["kind"].as_str().unwrap())
        .collect();
    assert_eq!(chain.last(), Some(&"Cohort"));
    assert_eq!(later["details"]["holders"][0]["amount"], "6");
}

#[test]
fn queue_full_names_the_holders() {
    let out = analyze("queue-full");
    let f = find(&out, "kueue/quota-in-use", "job-backfill-16664");
    assert_eq!(
        f["message"],
        "Job batch/backfill needs 4 cpu in flavor default-flavor; ClusterQueue cq-batch has 8 cpu nominal and 6 reserved, 2 free: 2 more needed; held by 2 admitted Workloads: batch/job-nightly-a-a4174 (3 cpu), batch/job-nightly-b-cc552 (3 cpu): it fits once they finish or are preempted"
    );
}

/// A need just over what is free never reads equal to it: 8.0000001Gi against 8Gi free
/// of a 20Gi nominal quota with 12Gi reserved.
#[test]
fn a_need_just_over_the_free_quota_does_not_read_equal() {
    let text = std::fs::read_to_string(bundle("queue-full")).unwrap();
    let text = text
        .replacen("nominalQuota: \"8\"", "nominalQuota: \"16\"", 1)
        .replacen("nominalQuota: 32Gi", "nominalQuota: 20Gi", 1)
        .replacen(
            "    - count: 4\n      name: main\n      template:\n        metadata:\n          labels:\n            kueue.x-k8s.io/queue-name: batch-queue\n        spec:\n          containers:\n          - image: registry.example.com/ml/trainer:2.4\n            imagePullPolicy: IfNotPresent\n            name: run\n            resources:\n              requests:\n                cpu: \"1\"\n                memory: 2Gi",
            "    - count: 1\n      name: main\n      template:\n        metadata:\n          labels:\n            kueue.x-k8s.io/queue-name: batch-queue\n        spec:\n          containers:\n          - image: registry.example.com/ml/trainer:2.4\n            imagePullPolicy: IfNotPresent\n            name: run\n            resources:\n              requests:\n                cpu: \"1\"\n                memory: 8.0000001Gi",
            1,
        )
        .replace(
            "insufficient unused quota for cpu in flavor default-flavor, 2 more needed",
            "insufficient unused quota for memory in flavor default-flavor, 108 more needed",
        );
    assert!(text.contains("memory: 8.0000001Gi"));
    let dir = crate::Scratch::new("kueue-just-over");
    let out = analyze_json(&dir.write("queue.yaml", text));
    let f = find(&out, "kueue/quota-in-use", "job-backfill-16664");
    let m = f["message"].as_str().unwrap();
    assert!(
        m.starts_with("Job batch/backfill needs 8.0000001Gi memory in flavor default-flavor; ClusterQueue cq-batch has 20Gi memory nominal and 12Gi reserved, 8Gi free: "),
        "{m}"
    );
}

/// Pods held by Kueue's admission gate get the Kueue finding, not the generic one.
#[test]
fn kueue_gated_pods_are_not_reported_twice() {
    for (name, pod) in [
        ("queue-full", "adhoc-query-6wq2d"),
        ("job-without-workload", "kueue-sleep-4jx9c"),
    ] {
        let out = analyze(name);
        let generic: Vec<_> = findings(&out)
            .iter()
            .filter(|f| f["rule"] == "pod/stuck")
            .collect();
        assert!(generic.is_empty(), "{name}: {generic:#?}");
        let mentions = findings(&out)
            .iter()
            .filter(|f| f["message"].as_str().unwrap().contains(pod))
            .count();
        assert_eq!(mentions, 1, "{name}");
    }
}

/// Admitted but Pending is a scheduler problem: never a queue finding.
#[test]
fn admitted_pods_pending_is_scheduling() {
    let out = analyze("admitted-unschedulable");
    assert!(
        findings(&out).iter().all(|f| f["stage"] != "queue"),
        "{:#?}",
        out["findings"]
    );
    let f = find(&out, "kueue/admitted-pods-pending", "segmenter");
    let msg = f["message"].as_str().unwrap();
    assert!(
        msg.contains("no node in the bundle carries cloud.example.com/accelerator=a100"),
        "{msg}"
    );
    assert!(
        msg.contains("the scheduler says: 0/3 nodes are available"),
        "{msg}"
    );
    let ev = f["evidence"].as_array().unwrap();
    assert!(ev.iter().any(|e| {
        e["object"]["kind"] == "ResourceFlavor"
            && e["note"]
                .as_str()
                .unwrap()
                .contains("tolerations nvidia.com/gpu=present:NoSchedule")
    }));
    assert!(!findings(&out).iter().any(|f| f["rule"] == "pod/stuck"));
}

#[test]
fn queue_links_and_selectors() {
    let out = analyze("namespace-selector");
    let none = find(&out, "kueue/namespace-not-selected", "job-report-30455");
    assert!(
        none["message"]
            .as_str()
            .unwrap()
            .contains("has no namespaceSelector, which admits no namespace")
    );
    let mismatch = find(&out, "kueue/namespace-not-selected", "job-bert-fb48f");
    assert!(
        mismatch["message"]
            .as_str()
            .unwrap()
            .contains("selects namespaces by team=research; namespace ml has labels")
    );
    let out = analyze("clusterqueue-missing-flavor");
    let f = find(&out, "kueue/clusterqueue-unusable", "job-detector-c9368");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .ends_with("references missing ResourceFlavor(s) spot")
    );
    let out = analyze("localqueue-stopped");
    let f = find(&out, "kueue/localqueue-unusable", "job-sweep-b9352");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("stopped (stopPolicy: Hold)")
    );
    let out = analyze("localqueue-missing");
    let f = find(&out, "kueue/localqueue-unusable", "job-etl-78d81");
    assert!(
        f["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["object"]["kind"] == "LocalQueue" && e["file"].is_null())
    );
}

/// Kueue's condition predates the snapshot: the finding says the two disagree.
#[test]
fn disagreement_with_kueue_is_said() {
    let out = analyze("stale-condition");
    let f = find(&out, "kueue/workload-pending", "job-hourly-0900-50892");
    assert!(f["evidence"].as_array().unwrap().iter().any(|e| e["note"]
        .as_str()
        .unwrap()
        .starts_with("Kueue's condition points at not enough unused quota now (it fits later), but the recomputation from the bundle finds nothing: the Workload fits")));
    // Where both agree, nothing of the sort is said.
    let out = analyze("seed-quota");
    assert!(!out.to_string().contains("Kueue's condition points at"));
}

#[test]
fn healthy_kueue_bundle_is_quiet() {
    let run = kdiag(&[
        "analyze",
        &bundle("healthy"),
        "--format",
        "json",
        "--fail-on",
        "info",
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let out = json(&run);
    assert!(findings(&out).is_empty(), "{:#?}", out["findings"]);
    assert!(out["problems"].as_array().unwrap().is_empty());
}

// ---------------------------------------------------------------- kdiag why

#[test]
fn why_snapshots() {
    let cases = [
        (
            "seed-job",
            vec!["why", "job/train", "-n", "ml"],
            "seed-quota",
        ),
        (
            "cohort-workload",
            vec!["why", "workload/job-big-train-ca62f"],
            "cohort-borrowing",
        ),
        (
            "admitted-pod",
            vec!["why", "pod/segmenter-m4k8v"],
            "admitted-unschedulable",
        ),
        (
            "gated-pod",
            vec!["why", "pod/adhoc-query-6wq2d"],
            "queue-full",
        ),
        (
            "clusterqueue",
            vec!["why", "clusterqueue/cq-c"],
            "cohort-borrowing",
        ),
        ("cohort", vec!["why", "cohort/research"], "cohort-borrowing"),
        (
            "missing-flavor",
            vec!["why", "lq/gpu-queue"],
            "clusterqueue-missing-flavor",
        ),
    ];
    for (name, args, b) in cases {
        let path = bundle(b);
        let mut a: Vec<&str> = args.clone();
        a.push(&path);
        let run = kdiag(&a);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        area_settings("kueue").bind(|| insta::assert_snapshot!(format!("why-{name}"), run.stdout));
    }
}

#[test]
fn why_shows_the_quota_table_and_verdict() {
    // Wide enough for the quota table to be a table.
    let run = kdiag(&["why", "job/train", &bundle("seed-quota"), "--width", "200"]);
    assert_eq!(run.code, 0);
    let out = &run.stdout;
    assert!(
        out.contains("podSet main: 3 × (1 cpu, 1Gi memory) = 3 cpu, 3Gi memory and 3 pods"),
        "{out}"
    );
    let cpu_row = out
        .lines()
        .find(|l| l.trim_start().starts_with("default-flavor  cpu"))
        .unwrap();
    let cols: Vec<&str> = cpu_row.split_whitespace().collect();
    // flavor resource nominal borrowing lending reserved free max needed ✗ never fits
    assert_eq!(
        &cols[..9],
        ["default-flavor", "cpu", "2", "-", "-", "0", "2", "2", "3"]
    );
    assert!(cpu_row.ends_with("✗ never fits"));
    assert!(out.contains("stage queue · kueue/quota-exceeds-capacity error"));
}

#[test]
fn why_usage_errors() {
    let path = bundle("cohort-borrowing");
    let ambiguous = kdiag(&["why", "localqueue/lq", &path]);
    assert_eq!(ambiguous.code, 2);
    assert!(
        ambiguous
            .stderr
            .contains("several namespaces (team-a, team-b, team-c)"),
        "{}",
        ambiguous.stderr
    );
    let missing = kdiag(&["why", "job/nope", &path]);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("Job nope is not in the bundle"));
    assert_eq!(kdiag(&["why", "deployment/x", &path]).code, 2);
    assert_eq!(kdiag(&["why", "job-without-slash", &path]).code, 2);
    assert_eq!(kdiag(&["why", "job/x"]).code, 2, "PATH is required");
    // A pod outside Kueue: the finding that explains it.
    let run = kdiag(&[
        "why",
        "pod/api-a-7c9d8-x2kqp",
        "sample-bundles/control-plane-seed.list.yaml",
    ]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("the bundle holds no Kueue Workloads"));
    assert!(run.stdout.contains("stage scheduling"), "{}", run.stdout);
}

// ---------------------------------------------------------------- corpus

fn corpus(rel: &str) -> PathBuf {
    crate::corpus::corpus().join("kueue").join(rel)
}

/// The official examples (spec-only manifests) give no error finding and no Kueue finding.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn kueue_examples_give_no_errors() {
    let dir = corpus("");
    let out = json(&kdiag(&[
        "analyze",
        dir.to_str().unwrap(),
        "--format",
        "json",
        "--fail-on",
        "never",
    ]));
    let bad: Vec<_> = findings(&out)
        .iter()
        .filter(|f| f["severity"] == "error" || f["rule"].as_str().unwrap().starts_with("kueue/"))
        .collect();
    assert!(bad.is_empty(), "{bad:#?}");
    assert!(out["inputs"][0]["objects"].as_u64().unwrap() > 50);
}

/// The ClusterQueue captures from GitHub issues are fragments without kind/metadata: given
/// the header they lack, they load and their quota tables come out as the users saw them.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn github_issue_captures_load() {
    let dir = corpus("github-issues");
    let tmp = std::env::temp_dir().join(format!("kdiag-kueue-captures-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let wrap = |file: &str, kind: &str, name: &str| -> PathBuf {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
            .collect();
        let indent = lines
            .iter()
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap();
        let ns = if kind == "Workload" {
            "  namespace: default\n"
        } else {
            ""
        };
        let mut doc = format!(
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: {kind}\nmetadata:\n  name: {name}\n{ns}"
        );
        for l in lines {
            doc.push_str(&l[indent..]);
            doc.push('\n');
        }
        let out = tmp.join(file);
        std::fs::write(&out, doc).unwrap();
        out
    };
    let cases = [
        (
            "issue-9048-comment-clusterqueue-1-before-new-workload.yaml",
            "40",
            "32",
            "8",
        ),
        (
            "issue-9048-comment-clusterqueue-2-after-8gpu-workload-secondpassfailed.yaml",
            "40",
            "40",
            "0",
        ),
        (
            "issue-9048-comment-clusterqueue-3-after-nominalQuota-raised-to-48.yaml",
            "48",
            "40",
            "8",
        ),
    ];
    for (file, nominal, reserved, free) in cases {
        let p = wrap(file, "ClusterQueue", "gpu-cluster-queue");
        let out = json(&kdiag(&[
            "analyze",
            p.to_str().unwrap(),
            "--format",
            "json",
        ]));
        assert_eq!(out["inputs"][0]["objects"], 1, "{file}");
        assert!(
            out["problems"].as_array().unwrap().is_empty(),
            "{file}: {:#?}",
            out["problems"]
        );
        assert!(findings(&out).is_empty(), "{file}");
        let path = p.to_str().unwrap();
        let why = kdiag(&["why", "cq/gpu-cluster-queue", path, "--width", "200"]);
        assert_eq!(why.code, 0, "{file}: {}", why.stderr);
        let row = why
            .stdout
            .lines()
            .find(|l| l.trim_start().starts_with("default-flavor  nvidia.com/gpu"))
            .unwrap_or_else(|| panic!("{file}: {}", why.stdout));
        let cols: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            (cols[2], cols[5], cols[6]),
            (nominal, reserved, free),
            "{file}: {row}"
        );
        assert!(
            why.stdout
                .contains("admission checks: provisioning (on default-flavor)")
        );
    }
    // The status-only capture with odd indentation: loads; the spec is said to be unknown.
    let p = wrap(
        "issue-9048-clusterqueue-status-indented.yaml",
        "ClusterQueue",
        "gpu-cluster-queue-v1",
    );
    let why = kdiag(&["why", "cq/gpu-cluster-queue-v1", p.to_str().unwrap()]);
    assert_eq!(why.code, 0, "{}", why.stderr);
    assert!(why.stdout.contains("not its spec"), "{}", why.stdout);
    // The TAS Workload status fragment loads as a Workload.
    let p = wrap(
        "issue-3494-workload-tas-status-fragment.yaml",
        "Workload",
        "mpijob-tas",
    );
    let out = json(&kdiag(&[
        "analyze",
        p.to_str().unwrap(),
        "--format",
        "json",
    ]));
    assert_eq!(out["inputs"][0]["objects"], 1);
    assert!(out["problems"].as_array().unwrap().is_empty());
    // The full admitted Workload (Kueue v0.10.1, v1beta1) loads as is: admitted, nothing stuck.
    let p = dir.join("issue-4224-workload-admitted-job-suspended.yaml");
    let out = json(&kdiag(&[
        "analyze",
        p.to_str().unwrap(),
        "--format",
        "json",
    ]));
    assert_eq!(out["inputs"][0]["objects"], 1);
    assert!(findings(&out).is_empty(), "{:#?}", out["findings"]);
    let path = p.to_str().unwrap();
    let why = kdiag(&["why", "workload/job-action", path, "--width", "200"]);
    assert_eq!(why.code, 0);
    assert!(why.stdout.contains("admission in queue: podSet main count 1 · cpu→on-demand, memory→on-demand · usage 150m cpu, 205785634 memory"), "{}", why.stdout);
    let _ = std::fs::remove_dir_all(&tmp);
}

/// A partial paste (two LocalQueues, not the third a Workload names) proves no absence:
/// the Workload's QuotaReserved message comes from flavor assignment, which Kueue runs
/// only after it found the LocalQueue and ClusterQueue, so Kueue's cause (topology) is
/// the headline and the LocalQueue is missing evidence, not "does not exist".
#[test]
fn partial_paste_heads_with_kueues_cause() {
    let out = analyze_json("tests/data/partial/kueue-paste.yaml");
    let got = summary(&out);
    assert_eq!(
        got.iter()
            .map(|(r, _, n, s, _)| (r.as_str(), n.as_str(), s.as_str()))
            .collect::<Vec<_>>(),
        vec![("kueue/workload-pending", "job-etl-78d81", "warning")],
        "{got:?}"
    );
    let f = find(&out, "kueue/workload-pending", "job-etl-78d81");
    let msg = f["message"].as_str().unwrap();
    assert!(
        msg.contains("no topology domains at level: cloud.provider.com/topology-rack"),
        "{msg}"
    );
    assert!(!msg.contains("does not exist"), "{msg}");
    assert!(
        msg.contains("LocalQueue team-a/rack-queue is not in the bundle"),
        "{msg}"
    );
    assert_eq!(f["details"]["verdict"], "kueue-says-topology");
    let lq = f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["object"]["kind"] == "LocalQueue")
        .expect("the LocalQueue is noted as missing evidence");
    assert!(
        lq["note"].as_str().unwrap().contains("missing evidence"),
        "{lq}"
    );
}

/// The same objects as a must-gather: its namespace folder holds the LocalQueue list
/// whole, so the LocalQueue the Workload names does not exist.
#[test]
fn complete_listing_proves_the_localqueue_absent() {
    let out = analyze_json("tests/data/partial/kueue-must-gather");
    let f = find(&out, "kueue/localqueue-unusable", "job-etl-78d81");
    assert_eq!(f["severity"], "error");
    let msg = f["message"].as_str().unwrap();
    assert!(
        msg.contains("which does not exist in namespace team-a"),
        "{msg}"
    );
    assert!(
        f["evidence"].as_array().unwrap().iter().any(|e| e["note"]
            .as_str()
            .unwrap()
            .contains("the bundle lists every LocalQueue of namespace team-a")),
        "{f}"
    );
}

/// Twelve Workloads short of the same unused quota (cq-batch, cpu in default-flavor), with
/// Kueue's messages naming different amounts: one `kueue/quota-backlog` finding lists
/// them; each keeps its own finding and fingerprint, linked by `details.cause`. Nine do not.
#[test]
fn many_workloads_waiting_for_one_quota_share_one_cause() {
    let out = analyze("backlog");
    let all = findings(&out);
    let cause = &all[0];
    assert_eq!(cause["rule"], "kueue/quota-backlog");
    assert_eq!(
        cause["message"],
        "ClusterQueue cq-batch has no unused quota left for cpu in flavor default-flavor (8 nominal, 6 reserved), held by 2 admitted Workloads; 12 Workloads wait on it"
    );
    assert_eq!(
        cause["fingerprint"],
        "kueue/quota-backlog:ClusterQueue::cq-batch:cq-batch:default-flavor/cpu"
    );
    assert_eq!(cause["severity"], "warning");
    let members = cause["details"]["members"].as_array().unwrap();
    let waiting: Vec<&Value> = all
        .iter()
        .filter(|f| f["rule"] == "kueue/quota-in-use")
        .collect();
    assert_eq!(members.len(), 12);
    assert_eq!(waiting.len(), 12);
    let mut amounts = std::collections::BTreeSet::new();
    for (m, f) in members.iter().zip(&waiting) {
        assert_eq!(m["fingerprint"], f["fingerprint"]);
        assert!(
            f["fingerprint"]
                .as_str()
                .unwrap()
                .starts_with("kueue/quota-in-use:Workload:"),
            "{f}"
        );
        assert_eq!(
            f["details"]["cause"][0]["fingerprint"],
            cause["fingerprint"]
        );
        let said = f["details"]["chain"][1]["kueue"]["message"]
            .as_str()
            .unwrap();
        amounts.insert(said.rsplit(", ").next().unwrap().to_string());
    }
    assert!(amounts.len() > 1, "Kueue's words differ: {amounts:?}");

    let quiet = analyze("backlog-quiet");
    assert_eq!(findings(&quiet).len(), 9);
    for f in findings(&quiet) {
        assert_eq!(f["rule"], "kueue/quota-in-use");
        assert!(f["details"].get("cause").is_none(), "{f}");
    }
}

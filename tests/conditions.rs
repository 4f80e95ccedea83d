//! A pod's own conditions and the events' record of a Job as evidence: every bundle of
//! `sample-bundles/conditions/` → a JSON snapshot of its findings and the exact set it must
//! produce. Pods that the scheduler, the taint manager, the Eviction API, the kubelet or
//! Kueue stopped are judged at that component's stage, in its words; a failed pod of a Job
//! the bundle lacks is history when the events record that the Job completed.

use crate::{
    analyze_json, area_settings, assert_exact_findings, find, findings, gen_check, kdiag, text,
};

/// (rule, `Kind/name`, severity).
type Expected = (&'static str, &'static str, &'static str);

const BUNDLES: &[(&str, &[Expected])] = &[
    (
        "disrupted",
        &[
            ("pod/stuck", "Pod/trainer-0", "warning"),
            ("pod/stuck", "Pod/bulk-export", "error"),
            ("pod/stuck", "Deployment/report-worker", "warning"),
            ("pod/stuck", "Deployment/indexer", "info"),
            ("pod/stuck", "Pod/debug-shell", "error"),
            ("pod/stuck", "Deployment/cart", "warning"),
            ("pod/stuck", "Deployment/search", "info"),
            ("runtime/job-failed", "Job/etl", "error"),
        ],
    ),
    (
        "disrupted-control",
        &[
            ("pod/stuck", "Deployment/report-worker", "error"),
            ("runtime/job-failed", "Job/etl", "error"),
            ("pod/stuck", "Pod/bulk-export", "error"),
            ("pod/stuck", "Pod/trainer-0", "error"),
            ("pod/stuck", "Deployment/cart", "error"),
            ("pod/stuck", "Pod/debug-shell", "error"),
            ("pod/stuck", "Deployment/search", "info"),
        ],
    ),
    (
        "job-history-completed",
        &[
            ("pod/stuck", "Job/db-migrate", "info"),
            ("pod/stuck", "Job/nightly-report-29394180", "info"),
        ],
    ),
    (
        "job-history-failed",
        &[
            ("pod/stuck", "Job/db-migrate", "error"),
            ("pod/stuck", "Job/nightly-report-29394180", "error"),
            ("pod/stuck", "Job/cache-warm", "warning"),
        ],
    ),
];

fn path(bundle: &str) -> String {
    format!("sample-bundles/conditions/{bundle}.yaml")
}

fn all(_: &&serde_json::Value) -> bool {
    true
}

#[test]
fn condition_sample_snapshots() {
    for (bundle, _) in BUNDLES {
        let out = analyze_json(&path(bundle));
        let pretty = serde_json::to_string_pretty(&out).unwrap();
        let name = bundle;
        area_settings("conditions")
            .bind(|| insta::assert_snapshot!(format!("{name}.json"), pretty));
    }
}

#[test]
fn each_condition_bundle_gets_exactly_its_findings() {
    for (bundle, expected) in BUNDLES {
        assert_exact_findings(bundle, &analyze_json(&path(bundle)), all, expected);
    }
}

#[test]
fn condition_bundles_are_up_to_date() {
    gen_check("sample-bundles/conditions/gen.py");
}

/// The finding's message and whether one evidence note contains `needle` (with a line).
fn cites(f: &serde_json::Value, needle: &str) -> bool {
    f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| text(&e["note"]).contains(needle) && e["line"].is_u64())
}

/// Each stopped pod is judged at the stage of whoever stopped it, in its words, and
/// followed to what the bundle shows of the cause.
#[test]
fn a_pods_own_condition_names_who_stopped_it() {
    let out = analyze_json(&path("disrupted"));
    for f in findings(&out) {
        let msg = text(&f["message"]);
        assert!(!msg.contains("without a reason"), "{f:#}");
        if f["rule"] == "pod/stuck" {
            assert_ne!(f["stage"], "runtime", "a stop is not a crash: {f:#}");
        }
    }
    let cases = [
        (
            "trainer-0",
            "queue",
            "was stopped by Kueue (WorkloadEvicted: Preempted to accommodate a workload (UID: 3c0e8a41-7b2f-4d8e-9a61-5f0d2c7e4b19",
            "its Workload pod-trainer-0-5b2c1 is Evicted (Preempted), Preempted (InClusterQueue)",
            "Workload pod-trainer-0-5b2c1: Evicted=True, reason Preempted at 2026-11-20T08:48:59Z",
        ),
        (
            "report-worker",
            "scheduling",
            "was preempted by the scheduler (PreemptionByScheduler: default-scheduler: preempting to accommodate a higher priority pod)",
            "it made room for pod batch/ingest-6w2fhlfwnr-896rr (priority 1000000) on node worker-a",
            "Normal Preempted",
        ),
        (
            "cart",
            "node",
            "was deleted by the taint manager (DeletionByTaintManager: Taint manager: deleting due to NoExecute taint)",
            "node worker-c is tainted dedicated=gpu:NoExecute",
            "node worker-c: taints dedicated=gpu:NoExecute",
        ),
        (
            "search",
            "node",
            "was evicted through the Eviction API (EvictionByEvictionAPI: Eviction API: evicting)",
            "node worker-b is cordoned (spec.unschedulable: true), as a drain leaves it",
            "node worker-b: spec.unschedulable: true",
        ),
        (
            "debug-shell",
            "node",
            "was terminated by the kubelet (TerminationByKubelet: Pod was preempted by Kubelet to accommodate a critical pod.)",
            "container debug exited with code 137 as it was stopped",
            "DisruptionTarget=True, reason TerminationByKubelet at 2026-11-20T07:14:00Z",
        ),
        (
            "bulk-export",
            "scheduling",
            "failed without ever being scheduled; the scheduler's last word at 2026-11-20T07:14:05Z (Unschedulable): 0/3 nodes are available: 3 Insufficient memory.",
            "",
            "PodScheduled=False, reason Unschedulable",
        ),
        (
            "indexer",
            "scheduling",
            "was preempted by the scheduler",
            "it is terminating, and its grace period ends in 20s",
            "DisruptionTarget=True, reason PreemptionByScheduler at 2026-11-20T09:13:50Z",
        ),
    ];
    for (name, stage, said, followed, cited) in cases {
        let f = find(&out, "pod/stuck", name);
        let msg = text(&f["message"]);
        assert_eq!(f["stage"], stage, "{f:#}");
        assert!(msg.contains(said), "{msg}");
        assert!(msg.contains(followed), "{msg}");
        assert!(cites(f, cited), "{name}: {cited} not cited: {f:#}");
    }
    // A Job that failed because its pod was preempted says so, not "a failed liveness probe".
    let f = find(&out, "runtime/job-failed", "etl");
    assert!(
        text(&f["message"]).ends_with(
            "last exit code 143 (Error): stopped as the pod was preempted by the scheduler (DisruptionTarget PreemptionByScheduler: default-scheduler: preempting to accommodate a higher priority pod)"
        ),
        "{f:#}"
    );
    assert!(
        cites(f, "DisruptionTarget=True, reason PreemptionByScheduler"),
        "{f:#}"
    );
    // The condition's own evidence carries its time.
    let f = find(&out, "pod/stuck", "report-worker");
    assert!(
        cites(
            f,
            "DisruptionTarget=True, reason PreemptionByScheduler at 2026-11-20T08:22:59Z"
        ),
        "{f:#}"
    );
    // The control: no such condition, nothing of the kind said; a DisruptionTarget reset
    // to False on a healthy pod is no disruption.
    let out = analyze_json(&path("disrupted-control"));
    for f in findings(&out) {
        let msg = text(&f["message"]);
        assert!(
            !msg.contains("stopped by") && !msg.contains("preempted by"),
            "{f:#}"
        );
        assert_ne!(f["object"]["name"], "indexer", "{f:#}");
    }
}

/// A Job missing from the bundle whose completion the events record is history; one whose
/// events say it failed stays an error with that evidence.
#[test]
fn job_completion_in_events_is_history() {
    let out = analyze_json(&path("job-history-completed"));
    let f = find(&out, "pod/stuck", "db-migrate");
    assert!(
        text(&f["message"]).ends_with(
            "— retried: its Job db-migrate is not in the bundle, but its event Completed records that it completed"
        ),
        "{f:#}"
    );
    assert!(cites(f, "Normal Completed"), "{f:#}");
    let f = find(&out, "pod/stuck", "nightly-report-29394180");
    assert!(
        text(&f["message"]).ends_with(
            "but CronJob nightly-report's event SawCompletedJob records that it completed"
        ),
        "{f:#}"
    );
    assert!(
        cites(
            f,
            "Saw completed job: nightly-report-29394180, status: Complete"
        ),
        "{f:#}"
    );
    let run = kdiag(&[
        "analyze",
        &path("job-history-completed"),
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "only info findings: {}", run.stdout);

    let out = analyze_json(&path("job-history-failed"));
    let f = find(&out, "pod/stuck", "nightly-report-29394180");
    assert!(
        text(&f["message"]).ends_with(
            "its Job nightly-report-29394180 is not in the bundle, but CronJob nightly-report's event SawCompletedJob says it failed: Saw completed job: nightly-report-29394180, status: Failed"
        ),
        "{f:#}"
    );
    assert!(cites(f, "status: Failed"), "{f:#}");
    let f = find(&out, "pod/stuck", "db-migrate");
    assert!(cites(f, "Warning BackoffLimitExceeded"), "{f:#}");
    let f = find(&out, "pod/stuck", "cache-warm");
    assert!(
        text(&f["message"]).ends_with("so whether a retry succeeded is unknown"),
        "{f:#}"
    );
}

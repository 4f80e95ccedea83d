//! Judging history as history (issue 24): every bundle of `sample-bundles/history/` → a
//! JSON snapshot of all its findings and the exact set of findings it must produce. Each
//! scenario has a bundle where the failure was superseded (or the object is unused, just
//! created, not collected) and a control where it is real.

use crate::{
    analyze_json, area_settings, assert_exact_findings, find, gen_check, json, kdiag, text,
};

/// (rule, `Kind/name`, severity).
type Expected = (&'static str, &'static str, &'static str);

const BUNDLES: &[(&str, &[Expected])] = &[
    (
        "history-superseded",
        &[
            ("node/evicted", "Deployment/api", "info"),
            ("pod/stuck", "Job/web-migrate", "info"),
            ("pod/stuck", "ConfigMap/revision-status-6", "info"),
            ("pod/stuck", "ConfigMap/revision-status-6", "info"),
            ("pod/stuck", "ConfigMap/revision-status-7", "info"),
        ],
    ),
    (
        "history-failing",
        &[
            ("node/evicted", "Deployment/api", "error"),
            ("runtime/job-failed", "Job/report-gen", "error"),
            ("pod/stuck", "ConfigMap/revision-status-8", "error"),
        ],
    ),
    (
        "traffic-unused",
        &[
            (
                "traffic/selector-no-match",
                "Service/machine-api-controllers",
                "info",
            ),
            (
                "traffic/selector-no-match",
                "Service/machine-api-operator-webhook",
                "info",
            ),
            ("traffic/selector-no-match", "Service/legacy-search", "info"),
        ],
    ),
    (
        "traffic-used",
        &[
            (
                "traffic/selector-no-match",
                "Service/metrics-adapter",
                "warning",
            ),
            (
                "traffic/selector-no-match",
                "Service/machine-api-operator-webhook",
                "warning",
            ),
            ("traffic/selector-no-match", "Service/catalog", "warning"),
            (
                "traffic/selector-no-match",
                "Service/machine-api-controllers",
                "info",
            ),
        ],
    ),
    (
        "pods-just-created",
        &[
            ("pod/stuck", "Pod/batch-import", "info"),
            ("pod/stuck", "Deployment/web", "info"),
            ("readiness/probe-failing", "Pod/api-canary", "info"),
        ],
    ),
    (
        "pods-settled",
        &[
            ("pod/stuck", "Pod/batch-import", "warning"),
            ("pod/stuck", "Deployment/web", "warning"),
            ("readiness/probe-failing", "Pod/api-canary", "warning"),
        ],
    ),
    (
        "nodes-without-pods",
        &[("node/condition", "Node/worker-b", "error")],
    ),
    (
        "nodes-with-pods",
        &[("node/condition", "Node/worker-b", "error")],
    ),
    (
        "pull-secret-missing",
        &[("node/image-pull", "Deployment/api", "error")],
    ),
    (
        "pull-secret-unknown",
        &[("node/image-pull", "Deployment/api", "error")],
    ),
];

fn path(bundle: &str) -> String {
    format!("sample-bundles/history/{bundle}.yaml")
}

fn all(_: &&serde_json::Value) -> bool {
    true
}

#[test]
fn history_sample_snapshots() {
    for (bundle, _) in BUNDLES {
        let out = analyze_json(&path(bundle));
        let pretty = serde_json::to_string_pretty(&out).unwrap();
        let name = bundle;
        area_settings("history").bind(|| insta::assert_snapshot!(format!("{name}.json"), pretty));
    }
}

#[test]
fn each_history_bundle_gets_exactly_its_findings() {
    for (bundle, expected) in BUNDLES {
        assert_exact_findings(bundle, &analyze_json(&path(bundle)), all, expected);
    }
}

#[test]
fn history_bundles_are_up_to_date() {
    gen_check("sample-bundles/history/gen.py");
}

/// The message says what superseded each failure, and cites it.
#[test]
fn superseded_failures_name_what_superseded_them() {
    let out = analyze_json(&path("history-superseded"));
    let job = find(&out, "pod/stuck", "web-migrate");
    let msg = text(&job["message"]);
    assert!(
        msg.contains("retried: Job web-migrate completed at 2026-11-20T07:15:35Z"),
        "{msg}"
    );
    let rev7 = find(&out, "pod/stuck", "revision-status-7");
    let msg = text(&rev7["message"]);
    assert!(
        msg.contains("the static pod kube-apiserver-ip-10-0-3-67.ec2.internal on the same node runs revision 7"),
        "{msg}"
    );
    let by_msg = |needle: &str| {
        crate::findings(&out)
            .iter()
            .filter(|f| text(&f["message"]).contains(needle))
            .count()
    };
    assert_eq!(
        by_msg("the later installer installer-6-retry-2-ip-10-0-1-23.ec2.internal succeeded"),
        1
    );
    assert_eq!(
        by_msg("the later pruner revision-pruner-7-ip-10-0-2-45.ec2.internal succeeded"),
        1
    );
    // The failing control: node a's revision 8 is no evidence for node c.
    let out = analyze_json(&path("history-failing"));
    let f = find(&out, "pod/stuck", "revision-status-8");
    assert!(!text(&f["message"]).contains("superseded"), "{f:#}");
    let run = kdiag(&["analyze", &path("history-superseded"), "--format", "json"]);
    assert_eq!(run.code, 0, "only info findings: {}", run.stdout);
    let _ = json(&run);
}

/// The user is named; an unused Service quotes the platform only as corroboration.
#[test]
fn empty_services_say_who_uses_them() {
    let out = analyze_json(&path("traffic-used"));
    for (svc, user) in [
        ("catalog", "used by Route shop/catalog"),
        (
            "metrics-adapter",
            "used by APIService v1beta1.metrics.k8s.io",
        ),
        (
            "machine-api-operator-webhook",
            "used by ValidatingWebhookConfiguration machine-api (webhook validation.machine.machine.openshift.io)",
        ),
    ] {
        let msg = text(&find(&out, "traffic/selector-no-match", svc)["message"]).to_string();
        assert!(msg.contains(user), "{msg}");
    }
    let out = analyze_json(&path("traffic-unused"));
    let msg = text(&find(&out, "traffic/selector-no-match", "machine-api-controllers")["message"])
        .to_string();
    assert!(
        msg.contains("unused: no workload is meant to back it"),
        "{msg}"
    );
    assert!(msg.contains("the cluster's platform is None"), "{msg}");
    assert!(
        msg.contains("Cluster Machine API Operator is in NoOp mode"),
        "{msg}"
    );
    let msg =
        text(&find(&out, "traffic/selector-no-match", "legacy-search")["message"]).to_string();
    assert!(!msg.contains("platform"), "{msg}");
}

/// A pod created seconds before the snapshot: nothing has had time to happen, and the
/// message says how old it was; ten minutes later the same silence is a warning.
#[test]
fn just_created_pods_are_info_under_the_threshold() {
    let out = analyze_json(&path("pods-just-created"));
    for (rule, name, age) in [
        ("pod/stuck", "batch-import", 2),
        ("pod/stuck", "web", 3),
        ("readiness/probe-failing", "api-canary", 3),
    ] {
        let msg = text(&find(&out, rule, name)["message"]).to_string();
        assert!(
            msg.ends_with(&format!(
                "created {age}s before the snapshot; nothing has had time to happen"
            )),
            "{msg}"
        );
    }
    let out = analyze_json(&path("pods-settled"));
    assert!(
        !crate::findings(&out)
            .iter()
            .any(|f| text(&f["message"]).contains("nothing has had time")),
        "{:#}",
        out["findings"]
    );
}

/// A count of a kind the bundle does not hold is no count: the node's finding says the
/// bundle holds no pods; with pods collected, zero bound there is a fact.
#[test]
fn a_kind_not_collected_is_said_not_counted() {
    let out = analyze_json(&path("nodes-without-pods"));
    let msg = text(&find(&out, "node/condition", "worker-b")["message"]).to_string();
    assert!(
        msg.contains("the bundle holds no pods, so which pods are bound here is unknown"),
        "{msg}"
    );
    assert!(!msg.contains("0 non-terminated"), "{msg}");
    let out = analyze_json(&path("nodes-with-pods"));
    let msg = text(&find(&out, "node/condition", "worker-b")["message"]).to_string();
    assert!(msg.contains("0 non-terminated pods bound here"), "{msg}");
}

/// The kubelet's own event proves the pull secret is missing even when the bundle holds
/// no Secrets; without it the bundle cannot tell.
#[test]
fn kubelet_event_proves_a_pull_secret_missing() {
    let out = analyze_json(&path("pull-secret-missing"));
    let f = find(&out, "node/image-pull", "api");
    let msg = text(&f["message"]);
    assert!(
        msg.ends_with("pull secret regcred is missing from namespace shop: the kubelet could not retrieve it (FailedToRetrieveImagePullSecret)"),
        "{msg}"
    );
    let help = text(&f["help"]);
    assert!(
        help.contains("regcred are missing from namespace shop"),
        "{help}"
    );
    let cited = f["evidence"].as_array().unwrap().iter().any(|e| {
        e["object"]["kind"] == "Event"
            && text(&e["note"]).contains("Unable to retrieve some image pull secrets (regcred)")
            && e["line"].is_u64()
    });
    assert!(cited, "{f:#}");
    let unknown = f["evidence"].as_array().unwrap().iter().any(|e| {
        let n = text(&e["note"]);
        n.contains("regcred") && n.contains("whether it exists is unknown")
    });
    assert!(!unknown, "{f:#}");
    let out = analyze_json(&path("pull-secret-unknown"));
    let f = find(&out, "node/image-pull", "api");
    assert!(
        !text(&f["message"]).contains("missing from namespace"),
        "{f:#}"
    );
    assert!(text(&f["help"]).contains("the bundle cannot show pull secret(s) regcred"));
}

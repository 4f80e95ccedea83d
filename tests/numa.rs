//! Rules of the numa area: every bundle of `sample-bundles/numa/` → a JSON snapshot of
//! the area's findings (human too for two), the exact set of findings each bundle must
//! produce, the recomputed budget sentences, the generic classifier staying quiet for
//! the pods these rules explain, and no false findings on the tutorial's valid examples
//! and the real corpus.

use crate::{
    analyze_json, area_settings, assert_exact_findings, find, findings, json, kdiag, own_json, text,
};
use serde_json::Value;

/// (rule, object kind/name, severity) of the findings a bundle must produce.
type Expected = &'static [(&'static str, &'static str, &'static str)];

/// Every bundle, with the numa findings it must produce, in output order. Anything else
/// (an extra finding, a missing one) fails.
const BUNDLES: &[(&str, Expected)] = &[
    (
        "pod-scope",
        &[
            (
                "numa/resource-manager-rejected",
                "Pod/empty-shared-pool",
                "error",
            ),
            ("numa/resource-manager-rejected", "Pod/numa-solver", "error"),
            (
                "numa/resource-manager-rejected",
                "Deployment/collector",
                "error",
            ),
        ],
    ),
    (
        "container-scope",
        &[
            ("numa/resource-manager-rejected", "Pod/lattice-qcd", "error"),
            ("numa/resource-manager-rejected", "Pod/mpi-rank-0", "error"),
        ],
    ),
    (
        "no-kubelet-config",
        &[
            (
                "numa/resource-manager-rejected",
                "Pod/empty-shared-pool",
                "error",
            ),
            ("numa/resource-manager-rejected", "Pod/smt-odd", "error"),
        ],
    ),
    (
        "best-effort",
        &[
            ("numa/resource-manager-rejected", "Pod/cu-up-0", "error"),
            ("numa/resource-manager-rejected", "Pod/du-app-0", "error"),
        ],
    ),
    (
        "predicted",
        &[
            (
                "numa/shared-pool-predicted",
                "Deployment/packet-proc",
                "error",
            ),
            ("numa/shared-pool-predicted", "Job/numa-bench", "warning"),
        ],
    ),
    (
        "kubelet-config",
        &[
            (
                "numa/kubelet-config-unsupported",
                "KubeletConfiguration/dep-1",
                "warning",
            ),
            (
                "numa/kubelet-config-unsupported",
                "KubeletConfiguration/gate-off-1",
                "warning",
            ),
            (
                "numa/kubelet-config-unsupported",
                "KubeletConfiguration/policy-none-1",
                "warning",
            ),
            (
                "numa/kubelet-config-unsupported",
                "KubeletConfiguration/win-1",
                "warning",
            ),
        ],
    ),
    ("healthy", &[]),
];

/// Bundles whose human output is snapshotted too (with a namespace filter where other
/// areas report on the same bundle).
const HUMAN: &[(&str, &[&str])] = &[("kubelet-config", &[]), ("predicted", &["-n", "cnf"])];

fn path(bundle: &str) -> String {
    format!("sample-bundles/numa/{bundle}")
}

fn analyze(bundle: &str) -> Value {
    analyze_json(&path(bundle))
}

fn ours(f: &&Value) -> bool {
    f["rule"].as_str().is_some_and(|r| r.starts_with("numa/"))
}

fn message<'a>(out: &'a Value, rule: &str, name: &str) -> &'a str {
    text(&find(out, rule, name)["message"])
}

#[test]
fn numa_sample_snapshots() {
    for (bundle, _) in BUNDLES {
        let out = own_json(&analyze(bundle), ours);
        area_settings("numa").bind(|| insta::assert_snapshot!(format!("{bundle}.json"), out));
    }
    for (bundle, filter) in HUMAN {
        let p = path(bundle);
        let mut args = vec!["analyze", p.as_str(), "--fail-on", "never"];
        args.extend_from_slice(filter);
        let h = kdiag(&args);
        assert_eq!(h.code, 0, "{bundle}: {}", h.stderr);
        area_settings("numa").bind(|| insta::assert_snapshot!(format!("{bundle}.human"), h.stdout));
    }
}

#[test]
fn each_numa_bundle_gets_exactly_its_findings() {
    for (bundle, expected) in BUNDLES {
        let out = analyze(bundle);
        assert_exact_findings(bundle, &out, ours, expected);
        for f in findings(&out).iter().filter(ours) {
            assert_eq!(f["stage"], "node", "{bundle}: {f:#?}");
            // Every finding cites the bundle: evidence with a file and a line.
            assert!(
                f["evidence"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e["file"].is_string() && e["line"].is_u64()),
                "{bundle}: {f:#?}"
            );
        }
        // The pods these rules explain get no generic classifier finding.
        if expected
            .iter()
            .any(|(r, _, _)| *r == "numa/resource-manager-rejected")
        {
            assert!(
                !findings(&out).iter().any(|f| f["rule"] == "pod/stuck"),
                "{bundle}: {:#?}",
                out["findings"]
            );
        }
    }
}

#[test]
fn healthy_numa_bundle_is_quiet() {
    let run = kdiag(&[
        "analyze",
        &path("healthy"),
        "--format",
        "json",
        "--fail-on",
        "info",
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(findings(&json(&run)).is_empty());
}

/// The tutorial's rejected pod: the recomputed split, the scope, and the kubelet's own
/// check, with the containers' lines as evidence.
#[test]
fn empty_shared_pool_names_the_budget_and_the_shared_containers() {
    let out = analyze("pod-scope");
    let f = find(&out, "numa/resource-manager-rejected", "empty-shared-pool");
    let msg = text(&f["message"]);
    assert!(
        msg.contains("pod budget 4 cpu: main-app 3 + metrics-sidecar 1 exclusive = 4, leaving 0 cpu for logging-sidecar in the pod shared pool (topologyManagerScope=pod, topologyManagerPolicy=single-numa-node)"),
        "{msg}"
    );
    assert!(
        msg.contains("pod budget 4Gi memory: main-app 3Gi + metrics-sidecar 1Gi exclusive = 4Gi, leaving 0 memory for logging-sidecar"),
        "{msg}"
    );
    assert!(
        msg.contains("leaving no cpus for shared containers"),
        "{msg}"
    );
    assert_eq!(
        f["fingerprint"],
        "numa/resource-manager-rejected:Pod:plrm-tutorial:empty-shared-pool:empty-shared-pool:cpu"
    );
    let notes: Vec<&str> = f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| text(&e["note"]))
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("pod budget 4 cpu, 4Gi memory")),
        "{notes:#?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains("logging-sidecar: no exclusive resources")),
        "{notes:#?}"
    );
    assert!(
        notes.iter().any(|n| n.contains("topologyManagerScope=pod")),
        "{notes:#?}"
    );
    let kubelet = f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| text(&e["note"]).contains("topologyManagerScope=pod"))
        .unwrap();
    assert_eq!(kubelet["file"], "nodes/numa-worker-1/configz.json");
    // The valid mixed pod on the same node is not reported.
    assert!(
        !findings(&out)
            .iter()
            .any(|f| f["object"]["name"] == "pod-scope-mixed")
    );
    // Three rejected pods of one Deployment are one finding.
    let c = find(&out, "numa/resource-manager-rejected", "collector");
    assert_eq!(c["details"]["pods"].as_array().unwrap().len(), 3);
    assert!(
        text(&c["message"]).contains(
            "collector 4 + otel-agent 2 exclusive = 6, leaving 0 cpu for config-reloader"
        )
    );
}

#[test]
fn unexplained_topology_errors_use_numa_zones_or_say_they_cannot_tell() {
    let out = analyze("pod-scope");
    let solver = message(&out, "numa/resource-manager-rejected", "numa-solver");
    assert!(
        solver.contains("leaves the pod shared pool non-empty"),
        "{solver}"
    );
    assert!(solver.contains("holds no NodeResourceTopology"), "{solver}");
    assert!(solver.contains("cannot tell"), "{solver}");
    let out = analyze("container-scope");
    let mpi = message(&out, "numa/resource-manager-rejected", "mpi-rank-0");
    assert!(
        mpi.contains("20 cpu + 32Gi memory on one NUMA node"),
        "{mpi}"
    );
    assert!(mpi.contains("can never be aligned there"), "{mpi}");
    assert!(mpi.contains("no pod shared pool"), "{mpi}");
    let qcd = message(&out, "numa/resource-manager-rejected", "lattice-qcd");
    assert!(qcd.contains("real NUMA exhaustion"), "{qcd}");
    assert!(
        qcd.contains("node-0 6 of 15 cpu, 40Gi of 60Gi memory available"),
        "{qcd}"
    );
    // The empty-pool spec runs under container scope: nothing to report.
    assert!(
        !findings(&out)
            .iter()
            .any(|f| f["object"]["name"] == "exclusive-and-shared"
                || f["object"]["name"] == "container-scope-mixed")
    );
}

#[test]
fn missing_kubelet_configuration_is_said() {
    let out = analyze("no-kubelet-config");
    let f = find(&out, "numa/resource-manager-rejected", "empty-shared-pool");
    let msg = text(&f["message"]);
    assert!(
        msg.contains("topologyManagerScope=pod per the kubelet's message"),
        "{msg}"
    );
    assert!(
        f["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| text(&e["note"]).contains("the bundle holds no kubelet configuration at all")),
        "{f:#?}"
    );
    let smt = message(&out, "numa/resource-manager-rejected", "smt-odd");
    assert!(
        smt.contains("packet-filter (3 cpu) is not a multiple of the 2 hardware threads per core"),
        "{smt}"
    );
}

#[test]
fn performance_profile_and_best_effort() {
    let out = analyze("best-effort");
    let du = message(&out, "numa/resource-manager-rejected", "du-app-0");
    assert!(du.contains("with EmptyPodSharedPoolError: pod budget 8 cpu: du-app 6 + ptp-sidecar 2 exclusive = 8, leaving 0 cpu for log-forwarder"), "{du}");
    assert!(du.contains("topologyManagerPolicy=best-effort"), "{du}");
    let cu = message(&out, "numa/resource-manager-rejected", "cu-up-0");
    assert!(
        cu.contains("full-pcpus-only (PerformanceProfile du-profile)"),
        "{cu}"
    );
    assert!(
        cu.contains("the pod bubble of 5 cpu is not a multiple of the 2"),
        "{cu}"
    );
}

#[test]
fn predictions_respect_preconditions_and_scope() {
    let out = analyze("predicted");
    let pp = find(&out, "numa/shared-pool-predicted", "packet-proc");
    let msg = text(&pp["message"]);
    assert!(msg.contains("2 nodes (cnf-1, cnf-2)"), "{msg}");
    assert!(
        msg.contains("dpdk 3 + stats 1 exclusive = 4, leaving 0 cpu for log-shipper"),
        "{msg}"
    );
    assert!(msg.contains("expect TopologyAffinityError"), "{msg}");
    assert!(
        pp["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| text(&e["note"])
                .contains("KubeletConfig cnf-pod-scope (MachineConfigPool worker-cnf)")),
        "{pp:#?}"
    );
    let job = message(&out, "numa/shared-pool-predicted", "numa-bench");
    assert!(job.contains("calibrate needs 3 exclusively"), "{job}");
    assert!(
        job.contains("worker-1: the bundle holds no kubelet configuration"),
        "{job}"
    );
    // Burstable at pod level, fractional pod-level cpu, the tutorial's valid spec: never.
    for name in ["burst-api", "frac-cpu", "tuned-app"] {
        assert!(
            !findings(&out)
                .iter()
                .any(|f| ours(&f) && f["object"]["name"] == name),
            "{name}: {:#?}",
            out["findings"]
        );
    }
}

#[test]
fn kubelet_settings_that_cannot_work() {
    let out = analyze("kubelet-config");
    let r = "numa/kubelet-config-unsupported";
    assert!(message(&out, r, "policy-none-1").contains("topologyManagerPolicy=none"));
    assert!(message(&out, r, "win-1").contains("Windows"));
    assert!(message(&out, r, "dep-1").contains("not PodLevelResources"));
    let gate = message(&out, r, "gate-off-1");
    assert!(gate.contains("PodLevelResourceManagers off"), "{gate}");
    assert!(gate.contains("Deployment apps/trainer"), "{gate}");
    let f = find(&out, r, "gate-off-1");
    assert!(
        f["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| text(&e["note"]).contains("alpha and off by default in kubelet v1.36.1")),
        "{f:#?}"
    );
    assert_eq!(
        f["evidence"][0]["file"], "nodes/gate-off-1/kubelet-config.yaml",
        "a KubeletConfiguration file is named after the node of its path"
    );
    // fine-1 (correct), legacy-1 (no pod-level users), new-1 (1.37: default disputed): nothing.
    for name in ["fine-1", "legacy-1", "new-1"] {
        assert!(
            !findings(&out).iter().any(|f| f["object"]["name"] == name),
            "{name}"
        );
    }
}

/// The tutorial manifests of the real corpus: no numa finding, no error at all, and the
/// Insights archive's KubeletConfig (maxPods only) is not flagged.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn corpus_gives_no_false_findings() {
    let dir = crate::corpus::corpus();
    for rel in [
        "k8s-website-pod-level-resources",
        "insights-archive-sample",
        "insights-operator-testdata",
        "numaresources-pfpstatus",
    ] {
        let p = dir.join(rel);
        let run = kdiag(&[
            "analyze",
            p.to_str().unwrap(),
            "--format",
            "json",
            "--fail-on",
            "never",
        ]);
        assert!(matches!(run.code, 0 | 2), "{rel}: {}", run.stderr);
        let out = json(&run);
        assert!(
            !findings(&out).iter().any(|f| ours(&f)),
            "{rel}: {:#?}",
            out["findings"]
        );
        if rel.starts_with("k8s-website") {
            assert!(findings(&out).is_empty(), "{rel}: {:#?}", out["findings"]);
        }
    }
}

/// The generator is deterministic and the bundles are up to date.
#[test]
fn numa_bundles_match_their_generator() {
    crate::gen_check("sample-bundles/numa/gen.py");
}

//! Rules of the creation, scheduling, node and runtime areas: every sample bundle under
//! `sample-bundles/scheduling/` → a JSON snapshot (human too for two), explicit checks of
//! the recomputed numbers, the quiet bundles and the real troubleshoot fixtures.

use crate::{analyze_json, area_settings, find, findings, json, kdiag, text};
use serde_json::Value;

const DIR: &str = "sample-bundles/scheduling";

/// (bundle, human snapshot too).
const BUNDLES: &[(&str, bool)] = &[
    ("scheduling-unschedulable", true),
    ("scheduling-quiet", false),
    ("scheduling-wording", false),
    ("scheduling-stale", false),
    ("scheduling-spread", false),
    ("scheduling-rollout-waiting", true),
    ("scheduling-rollout-stalled", false),
    ("node-image-pull.yaml", true),
    ("node-admission", false),
    ("node-volume-mount", false),
    ("node-sandbox", false),
    ("node-condition", false),
    ("node-evicted", false),
    ("node-terminating", false),
    ("node-quiet", false),
    ("runtime-crash-loop", false),
    ("runtime-start-error", false),
    ("runtime-config-error.yaml", false),
    ("runtime-init-container", false),
    ("runtime-job-failed", false),
    ("runtime-quiet", false),
    ("creation-failed-create", false),
    ("creation-progress-deadline", false),
    ("creation-statefulset-ordinal", false),
    ("creation-daemonset-coverage", false),
    ("creation-quiet", false),
];

fn path(bundle: &str) -> String {
    format!("{DIR}/{bundle}")
}

fn analyze(bundle: &str) -> Value {
    analyze_json(&path(bundle))
}

fn message(f: &Value) -> &str {
    f["message"].as_str().unwrap()
}

/// (rule, object name, severity) of every finding, sorted.
fn summary(out: &Value) -> Vec<(String, String, String)> {
    let mut v: Vec<(String, String, String)> = findings(out)
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["object"]["name"].as_str().unwrap().to_string(),
                f["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    v.sort();
    v
}

fn expect(out: &Value, want: &[(&str, &str, &str)]) {
    let mut want: Vec<(String, String, String)> = want
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    want.sort();
    assert_eq!(summary(out), want);
}

#[test]
fn scheduling_sample_snapshots() {
    for (bundle, human) in BUNDLES {
        let name = bundle.trim_end_matches(".yaml");
        let j = kdiag(&[
            "analyze",
            &path(bundle),
            "--format",
            "json",
            "--fail-on",
            "never",
        ]);
        assert_eq!(j.code, 0, "{bundle}: {}", j.stderr);
        area_settings("scheduling").bind(|| {
            insta::assert_snapshot!(format!("{name}.json"), j.stdout);
        });
        if *human {
            // Every finding in full: these snapshots show each rule's rendering.
            let h = kdiag(&[
                "analyze",
                &path(bundle),
                "--fail-on",
                "never",
                "--details",
                "all",
            ]);
            assert_eq!(h.code, 0, "{bundle}: {}", h.stderr);
            area_settings("scheduling")
                .bind(|| insta::assert_snapshot!(format!("{name}.human"), h.stdout));
        }
    }
}

#[test]
fn every_bundle_loads_cleanly_at_the_snapshot_time() {
    for (bundle, _) in BUNDLES {
        let out = analyze(bundle);
        assert!(
            out["problems"].as_array().unwrap().is_empty(),
            "{bundle}: {:#?}",
            out["problems"]
        );
        let as_of = out["inputs"][0]["as_of"].as_str().unwrap();
        assert!(as_of.starts_with("2026-11-20T09:1"), "{bundle}: {as_of}");
    }
}

#[test]
fn quiet_bundles_have_no_findings() {
    for bundle in [
        "scheduling-quiet",
        "node-quiet",
        "runtime-quiet",
        "creation-quiet",
    ] {
        let run = kdiag(&[
            "analyze",
            &path(bundle),
            "--format",
            "json",
            "--fail-on",
            "info",
        ]);
        let out = json(&run);
        // History is info: runtime-quiet's Job seed retried past a failed pod and completed.
        let history: Vec<&str> = findings(&out)
            .iter()
            .map(|f| f["message"].as_str().unwrap())
            .collect();
        if bundle == "runtime-quiet" {
            assert_eq!(
                run.code, 3,
                "{bundle}: info findings fail --fail-on info (3: no error)"
            );
            assert_eq!(history.len(), 1, "{bundle}: {history:#?}");
            assert!(
                history[0].contains("retried: Job seed completed at"),
                "{history:#?}"
            );
            assert!(crate::alarms(&out).is_empty(), "{bundle}");
        } else {
            assert_eq!(run.code, 0, "{bundle}: {}", run.stdout);
            assert!(history.is_empty(), "{bundle}: {history:#?}");
        }
    }
}

#[test]
fn unschedulable_recomputes_every_constraint() {
    let out = analyze("scheduling-unschedulable");
    expect(
        &out,
        &[
            ("scheduling/unschedulable", "analytics", "error"),
            ("scheduling/awaiting-termination", "backfill", "info"),
            ("scheduling/unschedulable", "cache", "error"),
            ("scheduling/unschedulable", "checkout", "error"),
            ("scheduling/unschedulable", "db", "error"),
            ("scheduling/unschedulable", "frontend", "error"),
            ("scheduling/unschedulable", "import", "error"),
            ("scheduling/unschedulable", "ledger", "error"),
            ("scheduling/unschedulable", "search", "error"),
        ],
    );
    // Resources: the closest node and its shortfall, the other constraints by node count,
    // no lower-priority victims, the autoscaler, and the scheduler agreeing.
    let checkout = find(&out, "scheduling/unschedulable", "checkout");
    let m = message(checkout);
    assert!(
        m.starts_with("2 pods of this Deployment stopped the same way"),
        "{m}"
    );
    assert!(
        m.contains("needs 6 cpu; the most free is node-3 with 5.5 of 7.8 allocatable cpu free"),
        "{m}"
    );
    assert!(m.contains("2 of 4 nodes lack cpu (node-3, node-4)"), "{m}");
    assert!(m.contains("1 of 4 nodes is cordoned (node-1)"), "{m}");
    assert!(
        m.contains("1 of 4 nodes has the untolerated taint dedicated=gpu:NoSchedule (node-2)"),
        "{m}"
    );
    assert!(
        m.contains("Preemption cannot help: no pod on those nodes has a priority below 0"),
        "{m}"
    );
    assert!(
        m.contains("The cluster autoscaler will not add a node"),
        "{m}"
    );
    assert!(
        m.contains("The scheduler agrees: 0/4 nodes are available"),
        "{m}"
    );
    assert_eq!(
        checkout["fingerprint"],
        "scheduling/unschedulable:Deployment:shop:checkout:cordoned+insufficient-cpu+taint:dedicated"
    );
    // nodeSelector.
    let m = message(find(&out, "scheduling/unschedulable", "search"));
    assert!(
        m.contains("2 of 4 nodes lack the label disktype=ssd its nodeSelector requires"),
        "{m}"
    );
    assert!(m.contains("The scheduler agrees"), "{m}");
    // Inter-pod rules: its own anti-affinity (checked before the existing pods', as
    // upstream's Filter does), and affinity to pods that run nowhere.
    let m = message(find(&out, "scheduling/unschedulable", "ledger"));
    assert!(
        m.contains("2 of 4 nodes have a pod its required anti-affinity avoids in their domains"),
        "{m}"
    );
    assert!(m.contains("The scheduler agrees"), "{m}");
    let m = message(find(&out, "scheduling/unschedulable", "analytics"));
    assert!(
        m.contains("2 of 4 nodes have no pod its required pod affinity asks for in their domains"),
        "{m}"
    );
    assert!(m.contains("The scheduler agrees"), "{m}");
    // An old message that the bundle's nodes contradict.
    let m = message(find(&out, "scheduling/unschedulable", "cache"));
    assert!(
        m.contains("the bundle's nodes have room now: 2 of 4 nodes"),
        "{m}"
    );
    assert!(m.contains("disagrees with the scheduler's message"), "{m}");
    // Topology spread, recomputed: the old revision's pods fill node-3's and node-4's zones.
    let m = message(find(&out, "scheduling/unschedulable", "frontend"));
    assert!(
        m.contains("2 of 4 nodes would break its topology spread constraint"),
        "{m}"
    );
    assert!(
        m.contains("matching pods per domain dc1-1 0, dc1-2 0, dc1-3 1, dc1-4 1"),
        "{m}"
    );
    assert!(m.contains("The scheduler agrees"), "{m}");
    // More than any node has, with a WaitForFirstConsumer claim that is not a fault.
    let m = message(find(&out, "scheduling/unschedulable", "import"));
    assert!(m.contains("needs 9 cpu"), "{m}");
    assert!(
        m.contains("no node has that much cpu allocatable at all"),
        "{m}"
    );
    assert!(m.contains("WaitForFirstConsumer"), "{m}");
    assert!(m.contains("not a storage fault"), "{m}");
    assert!(!m.contains("Preemption cannot help"), "{m}");
    // Preemption under way: its victim is terminating, within 5 minutes of its grace period.
    let m = message(find(&out, "scheduling/awaiting-termination", "backfill"));
    assert!(m.contains("The scheduler nominated node-4 for it"), "{m}");
    assert!(
        m.contains("node-4 takes it once Pod shop/catalog-v5drghpmxn-8qdpm (terminating on node node-4; its 30s grace period ended 2026-11-20T09:10:32Z, 3m30s before the snapshot) leaves"),
        "{m}"
    );
    // An unbound Immediate claim blocks every node; the StatefulSet's next ordinal waits.
    let db = find(&out, "scheduling/unschedulable", "db");
    let m = message(db);
    assert!(
        m.contains("PersistentVolumeClaim data-db-0 is Pending with Immediate binding"),
        "{m}"
    );
    assert!(
        m.contains("does not create db-1 until db-0 is Running and Ready"),
        "{m}"
    );
    assert_eq!(
        db["fingerprint"],
        "scheduling/unschedulable:StatefulSet:data:db:pvc-unbound:data-db-0"
    );
    let notes: Vec<&str> = db["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["note"].as_str())
        .collect();
    assert!(
        notes.iter().any(|n| n.contains("ProvisioningFailed")),
        "{notes:?}"
    );
    // Nothing stuck is left to the classifier.
    assert!(findings(&out).iter().all(|f| f["rule"] != "pod/stuck"));
}

/// The notes of a finding's evidence.
fn notes(f: &Value) -> Vec<&str> {
    f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["note"].as_str())
        .collect()
}

#[test]
fn pods_waiting_for_terminating_pods_are_a_rollout_in_progress() {
    // maxSurge 0 with required anti-affinity: the new pod waits for the old one to leave
    // node-2 (20 s of its grace period left); a replacement waits for the cpu its
    // predecessor still holds on node-3. Both info, naming the pods and their grace periods.
    let out = analyze("scheduling-rollout-waiting");
    expect(
        &out,
        &[
            ("scheduling/awaiting-termination", "report", "info"),
            ("scheduling/awaiting-termination", "web", "info"),
        ],
    );
    let web = find(&out, "scheduling/awaiting-termination", "web");
    let m = message(web);
    assert!(
        m.contains("node-2 takes it once Pod shop/web-hqxvtbq2dt-wpgf2 (terminating on node node-2; its 30s grace period ends 2026-11-20T09:14:22Z, 20s after the snapshot) leaves"),
        "{m}"
    );
    assert!(
        m.contains("3 of 3 nodes have a pod its required anti-affinity avoids"),
        "{m}"
    );
    assert!(
        m.contains("The scheduler says: 0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules."),
        "{m}"
    );
    assert_eq!(
        web["fingerprint"],
        "scheduling/awaiting-termination:Deployment:shop:web:terminating-pods"
    );
    // The recomputation shows what the terminating pod still holds, as terminating.
    let report = find(&out, "scheduling/awaiting-termination", "report");
    let n = notes(report);
    assert!(
        n.iter().any(|n| n.starts_with("node node-3: cpu 920m free of 3.92 allocatable")
            && n.contains("1 of them terminating, still counted by the scheduler: Pod shop/report-nrdb5zxjg5-blksd (holds 2.5 cpu, 512Mi memory; its 60s grace period ends 2026-11-20T09:14:52Z, 50s after the snapshot)")),
        "{n:#?}"
    );
    assert!(crate::alarms(&out).is_empty());

    // The same waits that will not end on their own stay errors of scheduling/unschedulable:
    // a blocker stuck on a lost node (linked to node/terminating), one stuck on a Ready node,
    // a long grace period past the Deployment's progress deadline, and a Job's replacement
    // pod pending longer than that deadline's default (a warning: a Job has none).
    let out = analyze("scheduling-rollout-stalled");
    expect(
        &out,
        &[
            ("node/condition", "node-3", "error"),
            ("node/terminating", "api", "warning"),
            ("node/terminating", "cart", "error"),
            ("scheduling/unschedulable", "cart", "error"),
            ("node/terminating", "search", "error"),
            ("scheduling/unschedulable", "api", "error"),
            ("scheduling/unschedulable", "reindex", "warning"),
            ("scheduling/unschedulable", "search", "error"),
            ("scheduling/unschedulable", "worker", "error"),
        ],
    );
    let search = find(&out, "scheduling/unschedulable", "search");
    let m = message(search);
    assert!(m.contains("node-4 takes it once Pod search/search-64r5vk679n-px2z2 (terminating on node node-3, which is not Ready (Ready=Unknown); its 30s grace period ended 2026-11-20T08:29:32Z, 44m before the snapshot) leaves; but that will not happen on its own: the deletion of Pod search/search-64r5vk679n-px2z2 is stuck"), "{m}");
    assert!(m.contains("The scheduler agrees"), "{m}");
    assert!(
        notes(search).iter().any(|n| n
            .starts_with("cause: the error finding node/terminating on Deployment search/search")),
        "{:#?}",
        notes(search)
    );
    let m = message(find(&out, "scheduling/unschedulable", "worker"));
    assert!(
        m.contains("its 3600s grace period ends 2026-11-20T09:59:02Z, 45m after the snapshot"),
        "{m}"
    );
    assert!(
        m.contains("but the rollout is past its progress deadline: Deployment worker says Progressing=False, ProgressDeadlineExceeded 5m before the snapshot"),
        "{m}"
    );
    // Topology spread does not count a terminating pod, and says so: not a wait for it.
    let m = message(find(&out, "scheduling/unschedulable", "cart"));
    assert!(
        m.contains("matching pods per domain dc1-1 1, dc1-2 1, dc1-3 1, dc1-5 0 (not counting terminating pods, as the scheduler does not: dc1-3 1)"),
        "{m}"
    );
    assert!(
        !m.contains("Only terminating pods keep it off a node"),
        "{m}"
    );
    let m = message(find(&out, "scheduling/unschedulable", "reindex"));
    assert!(
        m.contains("but it has been pending for 12m, longer than the 600s a Deployment's progress deadline allows by default (Job search/reindex has no progress deadline"),
        "{m}"
    );
}

#[test]
fn image_pulls_are_classified_and_credentials_checked() {
    let out = analyze("node-image-pull.yaml");
    expect(
        &out,
        &[
            ("node/image-pull", "agent", "error"),
            ("node/image-pull", "db-migrate", "error"),
            ("node/image-pull", "frontend", "error"),
            ("node/image-pull", "private", "error"),
            ("node/image-pull", "tls-probe", "error"),
            ("node/image-pull", "typo", "error"),
        ],
    );
    // One image, two Deployments, three pods: one finding.
    let f = find(&out, "node/image-pull", "frontend");
    assert!(
        message(f).starts_with("3 pods of Deployment web/frontend, Deployment web/frontend-canary")
    );
    assert!(message(f).contains("has no tag 2.0.1 for repository web/frontend"));
    assert_eq!(f["details"]["pods"].as_array().unwrap().len(), 3);
    // Unauthorized: both pull secrets are absent from a paste that holds some of web's
    // Secrets, not their whole list: whether they exist is unknown.
    let f = find(&out, "node/image-pull", "private");
    assert!(
        f["fingerprint"]
            .as_str()
            .unwrap()
            .contains(":unauthorized:")
    );
    assert!(
        f["help"]
            .as_str()
            .unwrap()
            .contains(
                "the bundle cannot show pull secret(s) ghcr-creds, legacy-creds (it holds no complete list of the Secrets of web)"
            )
    );
    // Access denied where the bundle holds no Secrets: unknowable, said so.
    let f = find(&out, "node/image-pull", "agent");
    assert!(
        f["fingerprint"]
            .as_str()
            .unwrap()
            .contains(":access-denied:")
    );
    assert!(
        f["help"]
            .as_str()
            .unwrap()
            .contains("the bundle cannot show pull secret(s) dockerhub")
    );
    for (name, class) in [
        ("tls-probe", ":tls:"),
        ("db-migrate", ":rate-limit:"),
        ("typo", ":invalid-name:"),
    ] {
        let f = find(&out, "node/image-pull", name);
        assert!(f["fingerprint"].as_str().unwrap().contains(class), "{name}");
    }
    assert!(message(find(&out, "node/image-pull", "db-migrate")).contains("init container flyway"));
}

#[test]
fn node_rules_explain_their_pods() {
    let out = analyze("node-admission");
    expect(
        &out,
        &[
            ("node/admission-rejected", "infer", "info"),
            ("node/admission-rejected", "pinned", "error"),
            ("node/admission-rejected", "train", "error"),
        ],
    );
    let m = message(find(&out, "node/admission-rejected", "pinned"));
    assert!(
        m.contains("the kubelet counted 4 requested + 6.2 used > 7.8 capacity"),
        "{m}"
    );
    assert!(
        m.contains("has 4.8 cpu free for its 4, so it would fit now"),
        "{m}"
    );
    assert!(message(find(&out, "node/admission-rejected", "train")).starts_with("3 pods"));

    let out = analyze("node-volume-mount");
    expect(
        &out,
        &[
            ("node/volume-mount", "api", "error"),
            ("node/volume-mount", "log-agent", "error"),
            ("node/volume-mount", "pg", "error"),
            ("node/volume-mount", "worker", "error"),
        ],
    );
    let m = message(find(&out, "node/volume-mount", "pg"));
    assert!(
        m.contains("(PersistentVolumeClaim data-pg-0) is ReadWriteOnce"),
        "{m}"
    );
    assert!(m.contains("still used by pg-backup-"), "{m}");
    assert!(message(find(&out, "node/volume-mount", "api")).contains(
        "ConfigMap app/api-config does not exist: the bundle lists every ConfigMap of app"
    ));
    assert!(
        message(find(&out, "node/volume-mount", "worker")).contains("whether it exists is unknown")
    );

    let out = analyze("node-sandbox");
    expect(
        &out,
        &[
            ("node/sandbox", "node-c", "error"),
            ("node/sandbox", "node-d", "error"),
            ("runtime/crash-loop", "calico-node", "error"),
        ],
    );
    let f = find(&out, "node/sandbox", "node-c");
    assert_eq!(f["object"]["kind"], "Node");
    assert!(message(f).contains("calico-node-x7k2p (CrashLoopBackOff)"));
    assert!(
        find(&out, "node/sandbox", "node-d")["fingerprint"]
            .as_str()
            .unwrap()
            .ends_with(":ip-exhausted")
    );

    let out = analyze("node-condition");
    expect(
        &out,
        &[
            ("node/condition", "node-1", "error"),
            ("node/condition", "node-2", "warning"),
        ],
    );
    let f = find(&out, "node/condition", "node-1");
    assert!(message(f).contains("Ready=Unknown for 25m"));
    assert_eq!(
        f["details"]["pods"].as_array().unwrap().len(),
        2,
        "both stuck pods are explained"
    );

    let out = analyze("node-evicted");
    expect(
        &out,
        &[
            ("node/condition", "node-2", "warning"),
            ("node/evicted", "cache", "info"),
            ("node/evicted", "edge", "info"),
            ("node/evicted", "scratch", "error"),
        ],
    );
    assert!(message(find(&out, "node/evicted", "cache")).contains("threshold 100Mi"));

    let out = analyze("node-terminating");
    expect(
        &out,
        &[
            ("node/condition", "node-x", "error"),
            ("node/terminating", "indexer", "error"),
            ("node/terminating", "nfs-client", "warning"),
            ("node/terminating", "zk", "error"),
        ],
    );
    let m = message(find(&out, "node/terminating", "zk"));
    assert!(m.contains("on node node-x, which is not Ready"), "{m}");
    assert!(
        m.contains("does not create zk-2 until zk-1 is deleted and replaced"),
        "{m}"
    );
}

#[test]
fn runtime_rules_read_terminations_and_logs() {
    let out = analyze("runtime-crash-loop");
    expect(
        &out,
        &[
            ("runtime/crash-loop", "api", "error"),
            ("runtime/crash-loop", "mesh", "error"),
            ("runtime/crash-loop", "web", "error"),
            ("runtime/crash-loop", "worker", "error"),
        ],
    );
    let api = find(&out, "runtime/crash-loop", "api");
    assert!(message(api).contains("at its memory limit 256Mi (request 128Mi)"));
    assert!(api["fingerprint"].as_str().unwrap().ends_with(":oom:api"));
    assert!(
        find(&out, "runtime/crash-loop", "web")["fingerprint"]
            .as_str()
            .unwrap()
            .ends_with(":liveness:web")
    );
    let worker = find(&out, "runtime/crash-loop", "worker");
    assert!(message(worker).contains("level=fatal msg=\"cannot start\""));
    let log = worker["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| {
            e["note"]
                .as_str()
                .unwrap()
                .contains("password authentication failed")
        })
        .expect("the log's error line is evidence");
    assert!(log["file"].as_str().unwrap().ends_with("-previous.log"));
    assert_eq!(log["line"], 2);
    assert!(message(find(&out, "runtime/crash-loop", "mesh")).contains("sidecar container proxy"));

    let out = analyze("runtime-start-error");
    expect(
        &out,
        &[
            ("runtime/start-error", "legacy", "error"),
            ("runtime/start-error", "tools", "error"),
        ],
    );

    let out = analyze("runtime-config-error.yaml");
    expect(
        &out,
        &[
            ("runtime/config-error", "api", "error"),
            ("runtime/config-error", "billing", "error"),
            ("runtime/config-error", "gateway", "error"),
            ("runtime/config-error", "notifier", "error"),
            ("runtime/config-error", "reports", "error"),
            ("runtime/config-error", "search", "warning"),
        ],
    );
    assert!(
        message(find(&out, "runtime/config-error", "api"))
            .contains("has no key DB_URL (env DB_URL); its keys: LOG_LEVEL, PORT")
    );
    assert!(
        message(find(&out, "runtime/config-error", "search")).contains("but the bundle holds it")
    );
    assert!(
        message(find(&out, "runtime/config-error", "notifier"))
            .contains("holds no Secrets of mail")
    );

    let out = analyze("runtime-init-container");
    expect(
        &out,
        &[
            ("runtime/init-container", "api", "error"),
            ("runtime/init-container", "orders", "warning"),
        ],
    );
    assert!(
        message(find(&out, "runtime/init-container", "orders"))
            .contains("has been running for 124m")
    );

    let out = analyze("runtime-job-failed");
    expect(
        &out,
        &[
            ("runtime/job-failed", "cleanup", "info"),
            ("runtime/job-failed", "long-report", "error"),
            ("runtime/job-failed", "nightly-export", "error"),
        ],
    );
    let f = find(&out, "runtime/job-failed", "nightly-export");
    assert!(message(f).contains("3 failed pods exceed backoffLimit 2"));
    assert!(message(f).contains("could not translate host name \"warehouse-db\""));
    assert_eq!(
        f["details"]["pods"].as_array().unwrap().len(),
        3,
        "its failed pods are explained"
    );
}

#[test]
fn creation_rules_recompute_quota_and_admission() {
    let out = analyze("creation-failed-create");
    expect(
        &out,
        &[
            ("creation/failed-create", "api", "error"),
            ("creation/failed-create", "etl", "error"),
            ("creation/failed-create", "node-exporter", "error"),
            ("creation/failed-create", "vault", "error"),
            ("creation/failed-create", "web", "error"),
        ],
    );
    let api = find(&out, "creation/failed-create", "api");
    assert_eq!(api["object"]["kind"], "Deployment");
    let m = message(api);
    assert!(
        m.contains("requests.cpu: used 3.5 of 4 hard, each pod needs 750m (500m free)"),
        "{m}"
    );
    assert!(
        m.contains("requests.cpu 250m for container log-shipper from LimitRange defaults"),
        "{m}"
    );
    assert!(
        message(find(&out, "creation/failed-create", "web"))
            .contains("admission webhook validation.gatekeeper.sh denied")
    );
    assert!(
        message(find(&out, "creation/failed-create", "vault"))
            .contains("PodSecurity \"restricted:latest\"")
    );
    assert!(
        message(find(&out, "creation/failed-create", "etl"))
            .contains("ServiceAccount etl-runner does not exist")
    );
    assert!(
        message(find(&out, "creation/failed-create", "node-exporter"))
            .contains("requires every container to set limits.cpu, limits.memory")
    );

    let out = analyze("creation-progress-deadline");
    expect(
        &out,
        &[
            ("creation/progress-deadline", "legacy", "warning"),
            ("creation/progress-deadline", "orders", "error"),
        ],
    );

    let out = analyze("creation-statefulset-ordinal");
    expect(
        &out,
        &[
            ("creation/statefulset-ordinal", "kafka", "warning"),
            ("runtime/crash-loop", "rabbit", "error"),
        ],
    );
    assert!(
        message(find(&out, "runtime/crash-loop", "rabbit"))
            .contains("does not create rabbit-1, rabbit-2 until rabbit-0 is Running and Ready")
    );

    let out = analyze("creation-daemonset-coverage");
    expect(
        &out,
        &[
            ("creation/daemonset-coverage", "gpu-plugin", "warning"),
            ("creation/daemonset-coverage", "node-exporter", "warning"),
        ],
    );
    assert!(
        message(find(&out, "creation/daemonset-coverage", "node-exporter"))
            .contains("no pod on 1 eligible node (n2)")
    );
}

/// The seed: api-a is recomputed (needs 6 cpu; the most free is node-b with 5.5 of 7.8),
/// api-b is an image tag that does not exist on the registry, with regcred unknowable.
#[test]
fn seed_recomputation() {
    for p in [
        "sample-bundles/control-plane-seed.list.yaml",
        "sample-bundles/control-plane-seed.must-gather.zip",
        "sample-bundles/control-plane-seed.troubleshoot.tar.gz",
    ] {
        let out = json(&kdiag(&["analyze", p, "--format", "json"]));
        let a = find(&out, "scheduling/unschedulable", "api-a");
        assert_eq!(
            a["fingerprint"],
            "scheduling/unschedulable:Deployment:demo:api-a:insufficient-cpu"
        );
        assert!(message(a).contains(
            "3 of 3 nodes lack cpu (node-a, node-b, node-c) (needs 6 cpu; the most free is node-b with 5.5 of 7.8 allocatable cpu free)"
        ));
        assert!(message(a).contains("Preemption cannot help"));
        let b = find(&out, "node/image-pull", "api-b");
        assert!(b["fingerprint"].as_str().unwrap().contains(":not-found:"));
        let notes: String = b["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["note"].as_str().unwrap().to_string())
            .collect();
        assert!(
            notes.contains("regcred (not in the bundle, which holds no Secrets of the namespace)"),
            "{p}"
        );
        assert!(
            find(&out, "runtime/crash-loop", "worker")["fingerprint"]
                .as_str()
                .unwrap()
                .ends_with(":crash:worker")
        );
    }
}

/// The real kubelet and scheduler messages of the troubleshoot analyzer fixtures: each
/// failing fixture gets its specific rule, and no healthy pod gets anything.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn troubleshoot_fixtures() {
    let dir = crate::corpus::corpus().join("troubleshoot/pkg/analyze/files");
    let out = json(&kdiag(&[
        "analyze",
        dir.to_str().unwrap(),
        "--format",
        "json",
        "--fail-on",
        "never",
    ]));
    let by_ns = |ns: &str| -> Vec<(String, String)> {
        findings(&out)
            .iter()
            .filter(|f| f["object"]["namespace"] == ns)
            .map(|f| {
                (
                    f["rule"].as_str().unwrap().to_string(),
                    f["severity"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let one = |ns: &str, rule: &str| {
        assert_eq!(by_ns(ns), [(rule.to_string(), "error".to_string())], "{ns}");
    };
    one("message-pending-pod-resources", "scheduling/unschedulable");
    one("message-pending-node-affinity", "scheduling/unschedulable");
    one("message-image-pull-fail", "node/image-pull");
    one(
        "message-container-creating-failed-mount",
        "node/volume-mount",
    );
    one("message-pod-crashloop-backoff", "runtime/crash-loop");
    one("message-pod-init-crashloop-backoff", "runtime/start-error");
    let gpu = findings(&out)
        .iter()
        .find(|f| f["object"]["namespace"] == "message-pending-pod-resources")
        .unwrap();
    assert!(message(gpu).contains("needs 5 nvidia.com/gpu"));
    let x509 = findings(&out)
        .iter()
        .find(|f| f["object"]["namespace"] == "message-image-pull-fail")
        .unwrap();
    // A certificate naming another host: the image reference, not a missing CA.
    assert!(x509["fingerprint"].as_str().unwrap().contains(":tls-name:"));
    assert!(message(x509).contains("x509 name mismatch"));
    // The healthy pods of the fixtures.
    for ns in ["default", "other", "kube-system", "monitoring", "rook-ceph"] {
        assert!(by_ns(ns).is_empty(), "{ns}: {:?}", by_ns(ns));
    }
}

#[test]
fn rules_are_listed_with_their_stage() {
    let run = kdiag(&["rules"]);
    assert_eq!(run.code, 0);
    for (id, stage) in [
        ("creation/failed-create", "creation"),
        ("creation/progress-deadline", "creation"),
        ("creation/statefulset-ordinal", "creation"),
        ("creation/daemonset-coverage", "creation"),
        ("scheduling/unschedulable", "scheduling"),
        ("node/image-pull", "node"),
        ("node/admission-rejected", "node"),
        ("node/volume-mount", "node"),
        ("node/sandbox", "node"),
        ("node/condition", "node"),
        ("node/evicted", "node"),
        ("node/terminating", "node"),
        ("runtime/crash-loop", "runtime"),
        ("runtime/start-error", "runtime"),
        ("runtime/config-error", "runtime"),
        ("runtime/init-container", "runtime"),
        ("runtime/job-failed", "runtime"),
    ] {
        let line = run
            .stdout
            .lines()
            .find(|l| l.contains(id))
            .unwrap_or_else(|| panic!("{id} is not listed:\n{}", run.stdout));
        assert!(line.contains(stage), "{line}");
    }
}

// ── one cause, many objects ─────────────────────────────────────────────────────────

const NO_ROOM: &str = "sample-bundles/scheduling/no-room";

#[test]
fn no_room_fixtures_are_up_to_date() {
    crate::gen_check("sample-bundles/scheduling/no-room/gen.py");
}

/// Twelve Deployments wait on a cluster with 3 of 5 nodes cordoned and 2 full: one cause
/// finding lists them; each keeps its own finding, fingerprint and message, linked to the
/// cause by `details.cause`; the scheduler's messages differ in time, the verdicts do not.
#[test]
fn many_controllers_waiting_on_full_nodes_share_one_cause() {
    let out = analyze_json(&format!("{NO_ROOM}/trigger.yaml.gz"));
    let all = findings(&out);
    let causes: Vec<&Value> = all
        .iter()
        .filter(|f| f["rule"] == "scheduling/no-room")
        .collect();
    let [cause] = causes.as_slice() else {
        panic!("one cause finding: {causes:?}")
    };
    assert_eq!(
        message(cause),
        "the cluster has no room for pods: 3 of 5 nodes cordoned, 2 at their 110-pod limit; 12 Deployments wait on it"
    );
    assert_eq!(cause["severity"], "error");
    assert_eq!(cause["stage"], "scheduling");
    assert_eq!(cause["object"]["kind"], "Cluster");
    let fp = cause["fingerprint"].as_str().unwrap();
    assert!(
        fp.starts_with("scheduling/no-room:Cluster::nodes:cordoned+too-many-pods:"),
        "{fp}"
    );
    // It opens the report: the first finding of the JSON contract's order.
    assert_eq!(&all[0], *cause);
    let members: Vec<&str> = cause["details"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["fingerprint"].as_str().unwrap())
        .collect();
    let per: Vec<&Value> = all
        .iter()
        .filter(|f| f["rule"] == "scheduling/unschedulable")
        .collect();
    assert_eq!(per.len(), 12);
    assert_eq!(
        members,
        per.iter()
            .map(|f| f["fingerprint"].as_str().unwrap())
            .collect::<Vec<_>>()
    );
    let mut said = std::collections::BTreeSet::new();
    for f in &per {
        // The fingerprint every run before this one gave.
        let o = &f["object"];
        assert_eq!(
            f["fingerprint"],
            format!(
                "scheduling/unschedulable:Deployment:{}:{}:cordoned+too-many-pods",
                text(&o["namespace"]),
                text(&o["name"])
            )
        );
        assert_eq!(f["details"]["cause"][0]["fingerprint"], fp, "{f}");
        assert_eq!(f["details"]["cause"].as_array().unwrap().len(), 1);
        let m = message(f);
        said.insert(m.contains("The scheduler agrees"));
        assert!(m.contains("3 of 5 nodes are cordoned"), "{m}");
    }
    // Messages written before and after the third node was cordoned group all the same.
    assert_eq!(said.len(), 2, "both wordings of the scheduler are members");
}

/// Nine controllers on the same full nodes (one short of the threshold) and three more
/// stuck on their own nodeSelector: no cause finding, no link.
#[test]
fn fewer_than_ten_or_their_own_causes_stay_separate() {
    let out = analyze_json(&format!("{NO_ROOM}/quiet.yaml.gz"));
    let all = findings(&out);
    assert_eq!(all.len(), 12);
    for f in all {
        assert_eq!(f["rule"], "scheduling/unschedulable", "{f}");
        assert!(f["details"].get("cause").is_none(), "{f}");
    }
}

/// The human report and the HTML page fold the members under their cause: the cause, its
/// first members, then the rest by name; every finding is still on the page.
#[test]
fn reports_fold_members_under_their_cause() {
    let input = format!("{NO_ROOM}/trigger.yaml.gz");
    let h = kdiag(&["analyze", &input, "--fail-on", "never", "--width", "100"]);
    assert_eq!(h.code, 0, "{}", h.stderr);
    let list: Vec<&str> = h
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("findings by stage"))
        .skip(2)
        .take_while(|l| !l.is_empty())
        .collect();
    assert!(list[0].starts_with("  × scheduling  Cluster nodes: the cluster has no room"));
    assert_eq!(
        list.iter().filter(|l| l.starts_with("      ↳ × ")).count(),
        3
    );
    assert_eq!(list[4], "      … and 9 more under it");
    assert_eq!(list.len(), 5, "{list:#?}");
    assert!(h.stdout.contains("── errors (13) ──"));
    assert!(
        h.stdout
            .contains("12 findings wait on this cause; the first 3 in full:")
    );
    assert!(h.stdout.contains(
        "9 more waiting on the same cause: Deployment billing/refunds, billing/statements,"
    ));
    // Three members in full, not twelve.
    assert_eq!(h.stdout.matches("\nscheduling/unschedulable\n").count(), 3);
    assert_eq!(
        h.stdout.matches("  × [scheduling] Deployment ").count(),
        3,
        "{}",
        h.stdout
    );
    area_settings("scheduling").bind(|| insta::assert_snapshot!("no-room-trigger.human", h.stdout));

    let page = kdiag(&["analyze", &input, "--format", "html", "--fail-on", "never"]);
    assert_eq!(page.code, 0, "{}", page.stderr);
    let html = page.stdout;
    assert_eq!(html.matches("<details class=\"finding ").count(), 13);
    let out = analyze_json(&input);
    let fp = text(&findings(&out)[0]["fingerprint"]).to_string();
    let members = html
        .split(&format!("<div class=\"members\" data-cause=\"{fp}\">"))
        .nth(1)
        .expect("the members' box follows the cause");
    let folded = members
        .split("<details class=\"folded\"><summary>9 more waiting on the same cause</summary>")
        .nth(1)
        .expect("the rest folded under their count");
    assert_eq!(
        members[..members.find("<details class=\"folded\">").unwrap()]
            .matches("<details class=\"finding ")
            .count(),
        3
    );
    assert_eq!(folded.matches("<details class=\"finding ").count(), 9);
}

/// Twelve Deployments whose images on one registry fail on its DNS name: one
/// `node/registry-failing` finding; each image keeps its own finding and fingerprint. Nine
/// such, and three tags the registry lacks (each image's own cause), stay separate.
#[test]
fn many_images_failing_on_one_registry_share_one_cause() {
    let out = analyze_json("sample-bundles/node/registry-failing/trigger.yaml");
    let all = findings(&out);
    let cause = &all[0];
    assert_eq!(cause["rule"], "node/registry-failing");
    assert_eq!(
        message(cause),
        "Registry harbor.corp.example fails every pull the same way: its name does not resolve from the nodes (DNS: no such host); 12 Deployments wait on it"
    );
    assert_eq!(
        cause["fingerprint"],
        "node/registry-failing:Registry::harbor.corp.example:harbor.corp.example:dns"
    );
    let pulls: Vec<&Value> = all
        .iter()
        .filter(|f| f["rule"] == "node/image-pull")
        .collect();
    assert_eq!(pulls.len(), 12);
    for f in &pulls {
        let o = &f["object"];
        assert_eq!(
            f["fingerprint"],
            format!(
                "node/image-pull:Deployment:{ns}:{n}:dns:harbor.corp.example/{ns}/{n}:3.2.1",
                ns = text(&o["namespace"]),
                n = text(&o["name"])
            )
        );
        assert_eq!(
            f["details"]["cause"][0]["fingerprint"],
            cause["fingerprint"]
        );
    }
    let quiet = analyze_json("sample-bundles/node/registry-failing/quiet.yaml");
    assert_eq!(findings(&quiet).len(), 12);
    for f in findings(&quiet) {
        assert_eq!(f["rule"], "node/image-pull", "{f}");
        assert!(f["details"].get("cause").is_none(), "{f}");
    }
    crate::gen_check("sample-bundles/node/registry-failing/gen.py");
}

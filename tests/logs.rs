//! `kdiag logs`: a container's log from each bundle layout that holds logs, kubectl's
//! choice of container and its errors, `--tail`, and the note when kdiag kept only a
//! tail of a log.

use crate::{Scratch, kdiag, kdiag_env};

const MG: &str = "sample-bundles/control-plane-seed.must-gather.zip";
const TS: &str = "sample-bundles/control-plane-seed.troubleshoot.tar.gz";
const WORKER: &str = "worker-66b9dc7f5c-tq4vn";

fn seed_log(name: &str) -> String {
    std::fs::read_to_string(format!(
        "sample-bundles/src/control-plane-seed/logs/demo/{WORKER}/{name}"
    ))
    .unwrap()
}

#[test]
fn current_and_previous_from_must_gather_and_troubleshoot() {
    for bundle in [MG, TS] {
        let current = kdiag(&["logs", WORKER, "-n", "demo", bundle]);
        assert_eq!(current.code, 0, "{bundle}: {}", current.stderr);
        assert_eq!(current.stdout, seed_log("worker.log"), "{bundle}");
        let previous = kdiag(&["logs", &format!("pod/{WORKER}"), "-p", "-n", "demo", bundle]);
        assert_eq!(previous.code, 0, "{bundle}: {}", previous.stderr);
        assert_eq!(previous.stdout, seed_log("worker-previous.log"), "{bundle}");
        let tail = kdiag(&[
            "logs", WORKER, "--tail", "1", "-c", "worker", "-n", "demo", bundle,
        ]);
        assert_eq!(
            tail.stdout,
            "time=\"2026-11-20T09:11:42Z\" level=fatal msg=\"cannot start without a queue connection\"\n",
            "{bundle}"
        );
    }
    // A pod without a previous log says what the bundle holds.
    let none = kdiag(&["logs", "web-5c8d7b9f46-hj7wd", "-p", "-n", "demo", MG]);
    assert_eq!(none.code, 2);
    assert!(
        none.stderr.contains(
            "the bundle holds no previous log of container web of pod demo/web-5c8d7b9f46-hj7wd (it holds: web (current))"
        ),
        "{}",
        none.stderr
    );
    // The wrong namespace says where the pod is.
    let wrong = kdiag(&["logs", WORKER, "-n", "default", MG]);
    assert!(
        wrong
            .stderr
            .contains("it is in namespace demo; use -n demo"),
        "{}",
        wrong.stderr
    );
}

const TWO_CONTAINERS: &str = r#"{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"p","namespace":"demo","uid":"0e13ce35-90d8-4ff1-bb66-c951a1d11c01","creationTimestamp":"2026-11-20T09:00:00Z"},"spec":{"initContainers":[{"name":"setup","image":"busybox"}],"containers":[{"name":"app","image":"app:1"},{"name":"proxy","image":"envoy:1"}],"nodeName":"n1"},"status":{"phase":"Running"}}]}"#;

/// `kubectl cluster-info dump --output-directory`: every container's log in one
/// `logs.txt`, between kubectl's START and END lines.
#[test]
fn cluster_info_dump_picks_the_containers_part() {
    let logs = "==== START logs for container setup of pod demo/p ====\nsetup done\n==== END logs for container setup of pod demo/p ====\n==== START logs for container app of pod demo/p ====\napp line 1\napp line 2\n==== END logs for container app of pod demo/p ====\n==== START logs for container proxy of pod demo/p ====\nproxy ready\n==== END logs for container proxy of pod demo/p ====\n";
    let b = Scratch::with_files(
        "logs-cid",
        &[
            (
                "nodes.json",
                r#"{"kind":"NodeList","apiVersion":"v1","items":[{"metadata":{"name":"n1"}}]}"#,
            ),
            ("demo/pods.json", TWO_CONTAINERS),
            (
                "demo/events.json",
                r#"{"kind":"EventList","apiVersion":"v1","items":[]}"#,
            ),
            ("demo/p/logs.txt", logs),
        ],
    );
    // Several containers and no -c: kubectl's first container, with its notice.
    let run = kdiag(&["logs", "p", "-n", "demo", b.path()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "app line 1\napp line 2\n");
    assert!(
        run.stderr
            .contains("Defaulted container \"app\" out of: app, proxy, setup (init)"),
        "{}",
        run.stderr
    );
    assert_eq!(
        kdiag(&["logs", "p", "-c", "setup", "-n", "demo", b.path()]).stdout,
        "setup done\n"
    );
    assert_eq!(
        kdiag(&["logs", "p", "-c", "proxy", "-n", "demo", b.path()]).stdout,
        "proxy ready\n"
    );
    let bad = kdiag(&["logs", "p", "-c", "sidecar", "-n", "demo", b.path()]);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr
            .contains("container sidecar is not valid for pod p out of: app, proxy, setup (init)"),
        "{}",
        bad.stderr
    );
}

/// Rancher's support-bundle-kit: `logs/NS/POD/CONTAINER.log`.
#[test]
fn support_bundle_kit_logs() {
    let pods = "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    creationTimestamp: \"2022-03-22T23:50:05Z\"\n    name: web-1\n    namespace: demo\n    uid: 7e5b1c1a-4d8b-4a0e-9a61-000000000002\n  spec:\n    containers:\n    - image: nginx\n      name: web\n    nodeName: node1\n  status:\n    phase: Running\nkind: List\nmetadata:\n  resourceVersion: \"14658971\"\n";
    let line = "2022/03/22 23:50:10 [notice] 1#1: start worker processes\n";
    let b = Scratch::with_files(
        "logs-sbk",
        &[
            (
                "metadata.yaml",
                "bundlename: \"\"\nbundleversion: 0.1.0\nkubernetesversion: v1.21.7+rke2r1\nbundlecreatedat: \"2022-03-22T23:49:32Z\"\n",
            ),
            ("yamls/namespaced/demo/v1/pods.yaml", pods),
            ("logs/demo/web-1/web.log", line),
        ],
    );
    let run = kdiag(&["logs", "web-1", "-n", "demo", b.path()]);
    assert_eq!((run.code, run.stdout.as_str()), (0, line), "{}", run.stderr);
}

/// troubleshoot's logs collector as it wrote before v0.40 (`NAME/POD/CONTAINER.log`,
/// no namespace in the path), beside `cluster-resources`.
#[test]
fn troubleshoot_logs_collector_paths() {
    let b = Scratch::with_files(
        "logs-ts-collector",
        &[
            (
                "version.yaml",
                "apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\nspec:\n  versionNumber: 0.39.0\n",
            ),
            ("cluster-resources/pods/demo.json", TWO_CONTAINERS),
            ("app-logs/p/proxy.log", "proxy from the collector\n"),
            ("app-logs/p/proxy-previous.log", "proxy before\n"),
        ],
    );
    let run = kdiag(&["logs", "p", "-c", "proxy", "-n", "demo", b.path()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "proxy from the collector\n");
    let prev = kdiag(&["logs", "p", "-c", "proxy", "-p", "-n", "demo", b.path()]);
    assert_eq!(prev.stdout, "proxy before\n", "{}", prev.stderr);
    let missing = kdiag(&["logs", "p", "-n", "demo", b.path()]);
    assert!(
        missing
            .stderr
            .contains("no current log of container app of pod demo/p (it holds: proxy (current), proxy (previous))"),
        "{}",
        missing.stderr
    );
}

/// kdiag keeps the last KDIAG_LOG_TAIL_BYTES of a log, and says so.
#[test]
fn a_kept_tail_is_announced() {
    let b = Scratch::new("logs-tail");
    let tree = format!("{}/namespaces/demo/pods/{WORKER}/worker/worker/logs", "mg");
    b.write(
        "mg/timestamp",
        "2026-11-20 09:14:02.016988581 +0000 UTC m=+0.380233555\n",
    );
    b.write(&format!("{tree}/current.log"), seed_log("worker.log"));
    let run = kdiag_env(
        &["logs", WORKER, "-n", "demo", b.path()],
        None,
        &[("KDIAG_LOG_TAIL_BYTES", "200".to_string())],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(seed_log("worker.log").ends_with(&run.stdout));
    assert!(
        run.stdout.len() <= 200 && !run.stdout.is_empty(),
        "{}",
        run.stdout
    );
    let dropped = seed_log("worker.log").lines().count() - run.stdout.lines().count();
    assert!(
        run.stderr.contains(&format!(
            "longer than the 200 bytes kdiag keeps of a log (KDIAG_LOG_TAIL_BYTES): its first {dropped} lines are not shown"
        )),
        "{}",
        run.stderr
    );
    // `--tail` within the kept lines misses nothing and says nothing; past them it does.
    let kept = run.stdout.lines().count();
    for (tail, said) in [(1, false), (kept, false), (kept + 1, true)] {
        let tail = tail.to_string();
        let run = kdiag_env(
            &["logs", WORKER, "-n", "demo", "--tail", &tail, b.path()],
            None,
            &[("KDIAG_LOG_TAIL_BYTES", "200".to_string())],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(
            run.stderr.contains("are not shown"),
            said,
            "--tail {tail}: {}",
            run.stderr
        );
    }
}

/// must-gather writes `previous.log` and `previous.insecure.log` (one of them often
/// empty) and empty logs for containers that wrote nothing: the copy that holds text is
/// shown, and an empty log is said to be empty.
#[test]
fn must_gather_empty_and_insecure_copies() {
    let b = Scratch::new("logs-mg-copies");
    let logs = format!("mg/namespaces/demo/pods/{WORKER}/worker/worker/logs");
    b.write(
        "mg/timestamp",
        "2026-11-20 09:14:02.016988581 +0000 UTC m=+0.380233555\n",
    );
    b.write(&format!("{logs}/current.log"), "");
    b.write(&format!("{logs}/previous.insecure.log"), "");
    b.write(
        &format!("{logs}/previous.log"),
        seed_log("worker-previous.log"),
    );
    let previous = kdiag(&["logs", WORKER, "-p", "-n", "demo", b.path()]);
    assert_eq!(previous.code, 0, "{}", previous.stderr);
    assert_eq!(previous.stdout, seed_log("worker-previous.log"));
    let current = kdiag(&["logs", WORKER, "-n", "demo", b.path()]);
    assert_eq!((current.code, current.stdout.as_str()), (0, ""));
    assert!(
        current
            .stderr
            .contains("kdiag: the bundle holds this log empty: mg/namespaces/demo/pods/"),
        "{}",
        current.stderr
    );
}

/// troubleshoot's logs collector writes `NAME/POD/C.log`, no namespace: with pods of that
/// name in two namespaces, the copy is neither's for sure, so `logs` names the pods and
/// shows nothing; with one pod of the name, it is that pod's.
#[test]
fn a_copy_without_a_namespace_is_not_guessed() {
    let pods = |ns: &str| {
        format!(
            r#"{{"kind":"PodList","apiVersion":"v1","items":[{{"metadata":{{"name":"db-0","namespace":"{ns}","uid":"0e13ce35-90d8-4ff1-bb66-c951a1d11c0{}","creationTimestamp":"2026-11-20T09:00:00Z"}},"spec":{{"containers":[{{"name":"postgres","image":"postgres:16"}}],"nodeName":"n1"}},"status":{{"phase":"Running"}}}}]}}"#,
            ns.len()
        )
    };
    let version = "apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\nspec:\n  versionNumber: 0.39.0\n";
    let (ns1, ns2) = (pods("ns1"), pods("ns22"));
    let two = Scratch::with_files(
        "logs-unplaced",
        &[
            ("version.yaml", version),
            ("cluster-resources/pods/ns1.json", &ns1),
            ("cluster-resources/pods/ns22.json", &ns2),
            ("db/db-0/postgres.log", "ns1's log\n"),
        ],
    );
    for ns in ["ns1", "ns22"] {
        let run = kdiag(&["logs", "db-0", "-n", ns, two.path()]);
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (2, ""),
            "{ns}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains(
                "only as db/db-0/postgres.log, whose place names no namespace, and it could be the log of any of the pods ns1/db-0, ns22/db-0"
            ),
            "{}",
            run.stderr
        );
    }
    let one = Scratch::with_files(
        "logs-unplaced-one",
        &[
            ("version.yaml", version),
            ("cluster-resources/pods/ns1.json", &ns1),
            ("db/db-0/postgres.log", "ns1's log\n"),
        ],
    );
    let run = kdiag(&["logs", "db-0", "-n", "ns1", one.path()]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "ns1's log\n"),
        "{}",
        run.stderr
    );
}

/// A container named `app-previous` beside `app`: troubleshoot's `app-previous.log` is
/// its log, not `app`'s previous run, and `app`'s crash-loop finding does not quote it.
#[test]
fn a_container_named_like_a_previous_log() {
    let pod = r#"{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"p","namespace":"demo","uid":"0e13ce35-90d8-4ff1-bb66-c951a1d11c01","creationTimestamp":"2026-11-20T09:00:00Z"},"spec":{"containers":[{"name":"app","image":"app:1"},{"name":"app-previous","image":"sidecar:1"}],"nodeName":"n1"},"status":{"phase":"Running","conditions":[{"type":"Ready","status":"False","lastTransitionTime":"2026-11-20T09:01:00Z"}],"containerStatuses":[{"name":"app","image":"app:1","imageID":"","ready":false,"restartCount":6,"started":false,"state":{"waiting":{"reason":"CrashLoopBackOff","message":"back-off 5m0s restarting failed container=app pod=p_demo(0e13ce35-90d8-4ff1-bb66-c951a1d11c01)"}},"lastState":{"terminated":{"exitCode":1,"reason":"Error","startedAt":"2026-11-20T09:10:00Z","finishedAt":"2026-11-20T09:10:05Z"}}},{"name":"app-previous","image":"sidecar:1","imageID":"","ready":true,"restartCount":0,"started":true,"state":{"running":{"startedAt":"2026-11-20T09:00:10Z"}}}]}}]}"#;
    let b = Scratch::with_files(
        "logs-previous-named",
        &[
            (
                "version.yaml",
                "apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\nspec:\n  versionNumber: 0.110.0\n",
            ),
            ("cluster-resources/pods/demo.json", pod),
            (
                "cluster-resources/pods/logs/demo/p/app.log",
                "error: app cannot reach its queue\n",
            ),
            (
                "cluster-resources/pods/logs/demo/p/app-previous.log",
                "error: sidecar line, not app's\n",
            ),
        ],
    );
    let sidecar = kdiag(&["logs", "p", "-c", "app-previous", "-n", "demo", b.path()]);
    assert_eq!(
        sidecar.stdout, "error: sidecar line, not app's\n",
        "{}",
        sidecar.stderr
    );
    let previous = kdiag(&["logs", "p", "-c", "app", "-p", "-n", "demo", b.path()]);
    assert_eq!(previous.code, 2, "{}", previous.stdout);
    let out = crate::analyze_json(b.path());
    let text = out.to_string();
    assert!(!text.contains("sidecar line"), "{text}");
    assert!(text.contains("app cannot reach its queue"), "{text}");
}

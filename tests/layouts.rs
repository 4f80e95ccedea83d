//! Bundles as real tools write them (paths, file names and timestamp formats copied from
//! the corpus), built in a temp dir: which layout they are, which files are objects,
//! metadata or logs, and what time the snapshot is taken as of.

use crate::{Scratch, kdiag};

fn notes(out: &serde_json::Value) -> Vec<String> {
    out["inputs"][0]["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect()
}

fn has_note(out: &serde_json::Value, part: &str) -> bool {
    notes(out).iter().any(|n| n.contains(part))
}

const MG: &str = "must-gather.local.5563216480153391536/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cbd33388f7e18954e5ce8ad9616e91df05ace604966c0a44111d85c897";

/// must-gather's `timestamp`: Go's `time.Time.String()`, one line per step.
const MG_TIMESTAMP: &str = "2021-08-03 10:12:00.016988581 +0000 UTC m=+0.380233555\n2021-08-03 10:13:47.364145495 +0000 UTC m=+1.355495176\n";
const OC_TIMESTAMP: &str = "2021-08-03 12:11:56.91501602 +0200 CEST m=+1.651641915\n2021-08-03 12:14:13.632016778 +0200 CEST m=+138.368642668\n";

const NODES: &str = "---\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    creationTimestamp: \"2021-08-03T08:40:12Z\"\n    name: ip-10-0-136-12.ec2.internal\n    uid: 6c2f6c1e-0b0d-4d55-9d8c-1d3c1d0a0001\n  status:\n    conditions:\n    - lastHeartbeatTime: \"2021-08-03T10:10:00Z\"\n      lastTransitionTime: \"2021-08-03T08:45:00Z\"\n      status: \"True\"\n      type: Ready\n    nodeInfo:\n      kubeletVersion: v1.21.1+38b3ecc\nkind: NodeList\nmetadata:\n  resourceVersion: \"73313\"\n";

fn mg_pods(ns: &str, name: &str) -> String {
    format!(
        "---\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    creationTimestamp: \"2021-08-03T08:50:00Z\"\n    name: {name}\n    namespace: {ns}\n    uid: 0b1c2d3e-0000-4000-8000-{:012}\n  spec:\n    containers:\n    - image: quay.io/openshift/insights-operator\n      name: insights-operator\n    nodeName: ip-10-0-136-12.ec2.internal\n  status:\n    phase: Running\nkind: PodList\nmetadata:\n  resourceVersion: \"73313\"\n",
        name.len()
    )
}

/// `n` events in `ns`, one a minute from `from` (RFC 3339, whole minutes of one hour).
fn mg_events(ns: &str, n: usize, hour: &str) -> String {
    let mut s = String::from("---\napiVersion: v1\nitems:\n");
    for i in 0..n {
        s.push_str(&format!("- apiVersion: v1\n  count: 1\n  involvedObject:\n    kind: Pod\n    name: p{i}\n    namespace: {ns}\n  kind: Event\n  lastTimestamp: \"{hour}:{i:02}:00Z\"\n  message: Started container\n  metadata:\n    creationTimestamp: \"{hour}:{i:02}:00Z\"\n    name: p{i}.169802a1c0{i:02}\n    namespace: {ns}\n  reason: Started\n  type: Normal\n"));
    }
    s.push_str("kind: EventList\nmetadata:\n  resourceVersion: \"73313\"\n");
    s
}

/// A must-gather holds the insights-operator pod's folder: it is still a must-gather,
/// found under its two wrapping folders; its events are read, not skipped.
#[test]
fn must_gather_with_an_insights_operator_pod_is_a_must_gather() {
    let pods = mg_pods("openshift-insights", "insights-operator-6f8c8c4f7d-9xk2p");
    let events = mg_events("openshift-insights", 12, "2021-08-03T10");
    let files = [
        (
            "must-gather.local.5563216480153391536/timestamp",
            OC_TIMESTAMP,
        ),
        (
            "must-gather.local.5563216480153391536/event-filter.html",
            "<html></html>\n",
        ),
        (&format!("{MG}/timestamp") as &str, MG_TIMESTAMP),
        (
            &format!("{MG}/version"),
            "openshift/must-gather\n4.0-art-dev\n",
        ),
        (&format!("{MG}/event-filter.html"), "<html></html>\n"),
        (
            &format!("{MG}/cluster-scoped-resources/core/nodes.yaml"),
            NODES,
        ),
        (
            &format!("{MG}/namespaces/openshift-insights/core/pods.yaml"),
            &pods,
        ),
        (
            &format!("{MG}/namespaces/openshift-insights/core/events.yaml"),
            &events,
        ),
        (
            &format!(
                "{MG}/namespaces/openshift-insights/pods/insights-operator-6f8c8c4f7d-9xk2p/insights-operator/insights-operator/logs/current.log"
            ),
            "2021-08-03T10:13:00.000000000Z I0803 10:13:00.000000       1 gather.go:90] Gathering\n",
        ),
        (
            &format!(
                "{MG}/namespaces/openshift-insights/pods/insights-operator-6f8c8c4f7d-9xk2p/insights-operator-6f8c8c4f7d-9xk2p.yaml"
            ),
            "apiVersion: v1\nkind: Pod\nmetadata:\n  creationTimestamp: \"2021-08-03T08:50:00Z\"\n  name: insights-operator-6f8c8c4f7d-9xk2p\n  namespace: openshift-insights\n  uid: 0b1c2d3e-0000-4000-8000-000000000034\nspec:\n  containers:\n  - name: insights-operator\n",
        ),
        // A file that should hold objects and does not parse is a problem, not skipped.
        (
            &format!("{MG}/namespaces/openshift-insights/core/configmaps.yaml"),
            "apiVersion: v1\nitems:\n- kind: ConfigMap\n  metadata: {name: [unclosed\n",
        ),
    ];
    let tree = Scratch::with_files("mg-insights", &files);
    let out = tree.analyze();
    let input = &out["inputs"][0];
    assert_eq!(input["layout"], "must-gather", "{:#?}", notes(&out));
    assert!(
        has_note(
            &out,
            "layout must-gather: cluster-scoped-resources/, namespaces/*/core/, timestamp, version, event-filter.html (at must-gather.local.5563216480153391536/quay-io-"
        ),
        "{:#?}",
        notes(&out)
    );
    assert_eq!(tree.get("events").len(), 12);
    assert_eq!(tree.get("pods"), ["pod/insights-operator-6f8c8c4f7d-9xk2p"]);
    assert_eq!(input["logs"], 1);
    // The outer `timestamp` (oc's, +0200) ends the gathering: 12:14:13 CEST.
    assert_eq!(input["as_of"], "2021-08-03T10:14:13Z");
    assert!(has_note(
        &out,
        "snapshot time 2021-08-03T10:14:13Z from the bundle's timestamp file"
    ));
    let problems = out["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0]["file"]
            .as_str()
            .unwrap()
            .ends_with("core/configmaps.yaml")
    );
}

const CLUSTER_VERSION: &str = "---\napiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  creationTimestamp: \"2021-08-03T08:30:11Z\"\n  name: version\n  uid: 1f8d4c7e-2a43-4a35-9b1f-6b0b4b4e0001\nspec:\n  channel: stable-4.8\n  clusterID: 5c0a5f0e-7d6a-4d1e-9d3f-1b1b1b1b1b1b\nstatus:\n  desired:\n    version: 4.8.0-0.ci-2021-08-02-180120\n";

/// A file named `version.yaml` is metadata only at troubleshoot's top folder: the
/// must-gather ClusterVersion `version.yaml` and the Insights `config/version.json` load.
#[test]
fn version_files_are_metadata_only_where_the_layout_puts_them() {
    let tree = Scratch::with_files(
        "mg-version",
        &[
            (&format!("{MG}/timestamp") as &str, MG_TIMESTAMP),
            (
                &format!("{MG}/version"),
                "openshift/must-gather\n4.0-art-dev\n",
            ),
            (
                &format!("{MG}/cluster-scoped-resources/core/nodes.yaml"),
                NODES,
            ),
            (
                &format!(
                    "{MG}/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml"
                ),
                CLUSTER_VERSION,
            ),
        ],
    );
    let out = tree.analyze();
    assert_eq!(out["inputs"][0]["layout"], "must-gather");
    assert_eq!(
        tree.get("clusterversions"),
        ["clusterversion.config.openshift.io/version"]
    );
    // The OpenShift version it wants is named beside the kubelets' Kubernetes version.
    let notes = out["inputs"][0]["notes"].to_string();
    assert!(
        notes.contains("OpenShift 4.8.0-0.ci-2021-08-02-180120, as its ClusterVersion says"),
        "{notes}"
    );
    assert!(
        out["problems"].as_array().unwrap().is_empty(),
        "{:#?}",
        out["problems"]
    );

    // Insights: `config/version.json` is the ClusterVersion (no kind, as the operator writes it).
    let insights = Scratch::with_files(
        "insights-version",
        &[
            (
                "insights-operator/gathers.json",
                "{\"status_reports\": []}\n",
            ),
            (
                "config/version.json",
                "{\"metadata\": {\"name\": \"version\", \"uid\": \"4f350610-d4a6-4048-b2bd-3e1583634351\", \"resourceVersion\": \"87835\", \"creationTimestamp\": \"2021-07-07T11:02:53Z\"}, \"spec\": {\"clusterID\": \"84ef291d-8f1b-4d28-ab34-cfddff941b84\", \"channel\": \"stable-4.7\"}, \"status\": {\"desired\": {\"version\": \"4.7.16\"}}}\n",
            ),
            (
                "config/clusteroperator/dns.json",
                "{\"apiVersion\": \"config.openshift.io/v1\", \"kind\": \"ClusterOperator\", \"metadata\": {\"name\": \"dns\", \"creationTimestamp\": \"2021-07-07T11:03:00Z\"}}\n",
            ),
        ],
    );
    let out = insights.analyze();
    assert_eq!(out["inputs"][0]["layout"], "insights");
    assert_eq!(
        insights.get("clusterversions"),
        ["clusterversion.config.openshift.io/version"]
    );

    // troubleshoot's own top-level `version.yaml` is metadata: skipped, never a problem.
    let ts = Scratch::with_files(
        "ts-version",
        &[
            (
                "support-bundle/version.yaml",
                "apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\nspec:\n  versionNumber: v0.50.0\n",
            ),
            (
                "support-bundle/cluster-resources/nodes.json",
                "{\"kind\": \"NodeList\", \"apiVersion\": \"v1\", \"items\": [{\"metadata\": {\"name\": \"n1\", \"creationTimestamp\": \"2022-04-11T23:00:00Z\"}}]}\n",
            ),
        ],
    );
    let out = ts.analyze();
    assert_eq!(out["inputs"][0]["layout"], "troubleshoot");
    assert_eq!(out["inputs"][0]["objects"], 1);
    assert_eq!(out["inputs"][0]["skipped"], 1);
    assert!(out["problems"].as_array().unwrap().is_empty());
}

/// A zip as support-bundle-kit writes `nodes/<node>.zip`: host files under `<node>/`.
fn node_zip(files: &[(&str, &str)]) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, text) in files {
        zip.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// Rancher/Harvester support-bundle-kit: its own layout; objects read (kind from the path
/// when an item lacks it), logs indexed, `metadata.yaml` dates it, host files skipped.
#[test]
fn support_bundle_kit_is_a_layout_of_its_own() {
    let nodes = "apiVersion: v1\nitems:\n- apiVersion: v1\n  metadata:\n    creationTimestamp: \"2022-03-01T10:00:00Z\"\n    name: node1\n    uid: 7e5b1c1a-4d8b-4a0e-9a61-000000000001\n  status:\n    conditions:\n    - status: \"True\"\n      type: Ready\nkind: List\nmetadata:\n  resourceVersion: \"14658971\"\n";
    let pods = "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    creationTimestamp: \"2022-03-22T23:50:05Z\"\n    name: web-1\n    namespace: demo\n    uid: 7e5b1c1a-4d8b-4a0e-9a61-000000000002\n  spec:\n    containers:\n    - image: nginx\n      name: web\n    nodeName: node1\n  status:\n    phase: Running\nkind: List\nmetadata:\n  resourceVersion: \"14658971\"\n";
    let longhorn = "apiVersion: v1\nitems:\n- apiVersion: longhorn.io/v1beta1\n  kind: Node\n  metadata:\n    creationTimestamp: \"2022-03-01T10:05:00Z\"\n    name: node1\n    namespace: longhorn-system\n    uid: 7e5b1c1a-4d8b-4a0e-9a61-000000000003\n  spec:\n    allowScheduling: true\nkind: List\nmetadata:\n  resourceVersion: \"14658971\"\n";
    let tree = Scratch::with_files(
        "sbk",
        &[
            (
                "metadata.yaml",
                "bundlename: \"\"\nbundleversion: 0.1.0\nkubernetesversion: v1.21.7+rke2r1\nprojectnamespaceuuid: 9b6b22de-6e5d-4905-aec8-1f226e413986\nbundlecreatedat: \"2022-03-22T23:49:32Z\"\nissueurl: \"\"\nissuedescription: \"\"\n",
            ),
            (
                "bundleGenerationError.log",
                "failed to get metrics.k8s.io/v1beta1\n",
            ),
            ("yamls/cluster/v1/nodes.yaml", nodes),
            ("yamls/namespaced/demo/v1/pods.yaml", pods),
            (
                "yamls/namespaced/demo/v1/events.yaml",
                "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"14658971\"\n",
            ),
            (
                "yamls/namespaced/longhorn-system/longhorn.io/v1beta1/nodes.yaml",
                longhorn,
            ),
            (
                "logs/demo/web-1/web.log",
                "2022/03/22 23:50:10 [notice] 1#1: start worker processes\n",
            ),
        ],
    );
    tree.write(
        "nodes/node1.zip",
        node_zip(&[
            ("node1/configs/etc/os-release", "NAME=\"Harvester\"\n"),
            (
                "node1/configs/etc/harvester-release.yaml",
                "harvester: v1.0.0\nharvesterChart: 1.0.0\nos: Harvester v1.0.0\n",
            ),
            (
                "node1/configs/etc/rancher/rke2/config.yaml.d/50-rancher.yaml",
                "{\"cni\":\"multus,canal\",\"disable\":[\"rke2-ingress-nginx\"]}\n",
            ),
            (
                "node1/configs/oem/99_custom.yaml",
                "name: Harvester Configuration\nstages:\n  initramfs:\n  - commands:\n    - modprobe kvm\n",
            ),
            (
                "node1/logs/rke2-server.log",
                "time=\"2022-03-22T23:40:00Z\" level=info msg=\"Starting rke2\"\n",
            ),
        ]),
    );
    let out = tree.analyze();
    let input = &out["inputs"][0];
    assert_eq!(input["layout"], "support-bundle-kit", "{:#?}", notes(&out));
    assert!(
        out["problems"].as_array().unwrap().is_empty(),
        "{:#?}",
        out["problems"]
    );
    // The kind-less item of yamls/cluster/v1/nodes.yaml is read (a core Node), beside the
    // longhorn.io Node.
    assert_eq!(input["objects"], 3, "{input:#?}");
    assert!(tree.get("nodes").contains(&"node/node1".to_string()));
    assert_eq!(tree.get("pods"), ["pod/web-1"]);
    assert_eq!(input["logs"], 1);
    // Indexed by namespace/pod/container, as rules look logs up.
    let snap = kdiag::snapshot::Snapshot::build(
        kdiag::ingest::load(&[kdiag::ingest::InputArg::Path(tree.path().into())]).unwrap(),
    );
    let logs = snap.logs_of("demo", "web-1");
    assert_eq!(logs.len(), 1);
    assert_eq!(
        (logs[0].key.container.as_str(), logs[0].path.as_str()),
        ("web", "logs/demo/web-1/web.log")
    );
    // metadata.yaml, bundleGenerationError.log and the zip's five host files.
    assert_eq!(input["skipped"], 8, "{input:#?}");
    assert_eq!(input["as_of"], "2022-03-22T23:49:32Z");
    assert!(has_note(
        &out,
        "from the bundle's metadata.yaml bundlecreatedat"
    ));
}

/// troubleshoot collector outputs that are not objects are skipped, not problems.
#[test]
fn troubleshoot_collector_outputs_are_skipped() {
    let tree = Scratch::with_files(
        "ts-collectors",
        &[
            (
                "cluster-info/cluster_version.json",
                "{\"info\": {\"major\": \"1\", \"minor\": \"23\", \"gitVersion\": \"v1.23.5\"}, \"string\": \"v1.23.5\"}\n",
            ),
            (
                "cluster-resources/image-pull-secrets/default/registry-creds.json",
                "{\"***HIDDEN***\":\"kurl\"}\n",
            ),
            (
                "cluster-resources/auth-cani-list/default.json",
                "[{\"verbs\": [\"create\"], \"apiGroups\": [\"authorization.k8s.io\"], \"resources\": [\"selfsubjectaccessreviews\"]}]\n",
            ),
            (
                "cluster-resources/nodes.json",
                "{\"kind\": \"NodeList\", \"apiVersion\": \"v1\", \"items\": [{\"metadata\": {\"name\": \"n1\", \"creationTimestamp\": \"2022-04-11T23:00:00Z\"}}]}\n",
            ),
        ],
    );
    let out = tree.analyze();
    assert_eq!(out["inputs"][0]["layout"], "troubleshoot");
    assert!(
        out["problems"].as_array().unwrap().is_empty(),
        "{:#?}",
        out["problems"]
    );
    assert_eq!(out["inputs"][0]["skipped"], 3);
}

fn ts_events(n: usize) -> String {
    let items: Vec<String> = (0..n)
        .map(|i| format!("{{\"kind\": \"Event\", \"apiVersion\": \"v1\", \"metadata\": {{\"name\": \"velero.16e4{i:02}\", \"namespace\": \"velero\", \"creationTimestamp\": \"2022-04-12T00:{i:02}:00Z\"}}, \"involvedObject\": {{\"kind\": \"Pod\", \"namespace\": \"velero\", \"name\": \"velero-7d8c9\"}}, \"reason\": \"BackOff\", \"type\": \"Warning\", \"firstTimestamp\": \"2022-04-12T00:{i:02}:00Z\", \"lastTimestamp\": \"2022-04-12T00:{i:02}:30Z\"}}"))
        .collect();
    format!(
        "{{\"kind\": \"EventList\", \"apiVersion\": \"v1\", \"items\": [{}]}}\n",
        items.join(", ")
    )
}

fn ts_configmaps(times: &[&str]) -> String {
    let items: Vec<String> = times
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{{\"kind\": \"ConfigMap\", \"apiVersion\": \"v1\", \"metadata\": {{\"name\": \"cm-{i}\", \"namespace\": \"default\", \"creationTimestamp\": \"{t}\"}}}}"))
        .collect();
    format!(
        "{{\"kind\": \"ConfigMapList\", \"apiVersion\": \"v1\", \"items\": [{}]}}\n",
        items.join(", ")
    )
}

/// The Insights operator writes `operator.openshift.io` objects with `kind`, `apiVersion`
/// and `name` at the top and no `metadata`: each is read, named as it says.
#[test]
fn insights_operator_objects_name_themselves_inline() {
    let etcd = "{\n  \"apiVersion\": \"operator.openshift.io/v1\",\n  \"kind\": \"Etcd\",\n  \"name\": \"cluster\",\n  \"spec\": {\n    \"logLevel\": \"Normal\",\n    \"managementState\": \"Managed\",\n    \"operatorLogLevel\": \"Normal\"\n  }\n}\n";
    let tree = Scratch::with_files(
        "insights-inline",
        &[
            (
                "config/clusteroperator/operator.openshift.io/etcd/cluster.json",
                etcd,
            ),
            (
                "config/clusteroperator/etcd.json",
                "{\"kind\": \"ClusterOperator\", \"apiVersion\": \"config.openshift.io/v1\", \"metadata\": {\"name\": \"etcd\", \"creationTimestamp\": \"2022-08-01T10:00:00Z\"}, \"status\": {\"conditions\": [{\"type\": \"Available\", \"status\": \"True\", \"lastTransitionTime\": \"2022-08-01T10:10:00Z\"}]}}\n",
            ),
        ],
    );
    let out = tree.analyze();
    assert_eq!(out["inputs"][0]["layout"], "insights", "{:#?}", notes(&out));
    assert_eq!(out["inputs"][0]["objects"], 2, "{:#?}", notes(&out));
    assert_eq!(
        out["problems"].as_array().map(Vec::len),
        Some(0),
        "{:#}",
        out["problems"]
    );
    // Troubleshoot's secret collector writes `name` at the top too, without `kind`: a
    // report that the Secret does not exist, never a Secret.
    let report = "{\n  \"namespace\": \"default\",\n  \"name\": \"example-secret\",\n  \"key\": \"\",\n  \"secretExists\": false,\n  \"keyExists\": false\n}";
    let collector = Scratch::with_files(
        "troubleshoot-secret-report",
        &[
            (
                "version.yaml",
                "apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\n",
            ),
            ("secrets/default/example-secret.json", report),
        ],
    );
    let none = kdiag(&["analyze", collector.path()]);
    assert_eq!(none.code, 2, "{}", none.stdout);
    assert!(none.stdout.contains("0 objects"), "{}", none.stdout);
    let get = kdiag(&["get", "etcd", "-o", "name", tree.path()]);
    assert_eq!(
        (get.code, get.stdout.as_str()),
        (0, "etcd.operator.openshift.io/cluster\n"),
        "{}",
        get.stderr
    );
}

/// `kubectl cluster-info dump > dump.txt`: a file named on the command line is read by
/// what it holds, whatever its name; its log sections are the containers' logs, and
/// evidence from them points at the dump's own line.
#[test]
fn a_cluster_info_dump_saved_as_text_gives_objects_and_logs() {
    let dump = "tests/data/cluster-info-dump.txt";
    let out = crate::analyze_json(dump);
    // Namespaces follow one another: kube-system's objects come after default's logs.
    assert_eq!(out["inputs"][0]["objects"], 4, "{:#?}", notes(&out));
    assert_eq!(out["inputs"][0]["logs"], 2, "{:#?}", notes(&out));
    assert!(
        has_note(&out, "cluster-info dump` sections"),
        "{:#?}",
        notes(&out)
    );
    let crash = out["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "runtime/crash-loop")
        .expect("the crash loop");
    let log_line = crash["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["note"] == "log of worker (current run): cannot reach db")
        .expect("the log's last line as evidence");
    assert_eq!(log_line["file"], "cluster-info-dump.txt");
    assert_eq!(log_line["line"], 162);
    let logs = kdiag(&["logs", "worker-1", dump]);
    assert_eq!(
        (logs.code, logs.stdout.as_str()),
        (0, "cannot reach db\n"),
        "{}",
        logs.stderr
    );
    assert_eq!(logs.stderr, "");
    let dns = kdiag(&[
        "logs",
        "-n",
        "kube-system",
        "coredns-7db6d8ff4d-b5pbp",
        dump,
    ]);
    assert_eq!(dns.stdout, ".:53\nCoreDNS-1.11.3\n", "{}", dns.stderr);
}

/// `kubectl get pod x -o yaml > pod.yaml`: no event and no metadata, and the pod was
/// created two days before the capture. The snapshot is dated by the newest time its
/// status holds, so no age is `<invalid>` and nothing was "created 0s before" it.
#[test]
fn one_object_is_dated_by_its_status() {
    let tree = Scratch::with_files("ts-one-pod", &[("pod.yaml", ONE_POD)]);
    let out = tree.analyze();
    assert_eq!(
        out["inputs"][0]["as_of"],
        "2026-11-03T12:10:00Z",
        "{:#?}",
        notes(&out)
    );
    let get = kdiag(&["get", "pods", "-n", "demo", &tree.file("pod.yaml")]);
    assert_eq!(get.code, 0, "{}", get.stderr);
    assert!(!get.stdout.contains("<invalid>"), "{}", get.stdout);
    assert!(get.stdout.contains(" 2d"), "{}", get.stdout);
}

/// One pod as `kubectl get pod web-1 -o yaml` writes it, crash-looping.
const ONE_POD: &str = r#"apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: "2026-11-01T10:00:00Z"
  name: web-1
  namespace: demo
  uid: 11111111-2222-3333-4444-555555555555
spec:
  containers:
  - image: nginx:1.27
    name: web
  nodeName: node-a
status:
  conditions:
  - lastProbeTime: null
    lastTransitionTime: "2026-11-03T12:00:00Z"
    status: "True"
    type: PodScheduled
  - lastProbeTime: null
    lastTransitionTime: "2026-11-03T12:05:00Z"
    status: "False"
    type: Ready
  containerStatuses:
  - image: nginx:1.27
    imageID: ""
    name: web
    ready: false
    restartCount: 40
    started: false
    lastState:
      terminated:
        exitCode: 1
        finishedAt: "2026-11-03T12:10:00Z"
        reason: Error
        startedAt: "2026-11-03T12:09:58Z"
    state:
      waiting:
        message: back-off 5m0s restarting failed container=web pod=web-1_demo(11111111-2222-3333-4444-555555555555)
        reason: CrashLoopBackOff
  phase: Running
  startTime: "2026-11-01T10:00:01Z"
"#;

/// The snapshot time: re-dated objects do not move it past the events; a far-future
/// must-gather `timestamp` is set aside; the Insights compact events date an archive
/// whose ControlPlaneMachineSet says 2026.
#[test]
fn snapshot_time_sets_outliers_aside() {
    // sbctl: ConfigMaps re-dated 2024 in a 2022-04 bundle with no metadata time.
    let mut cms: Vec<&str> = vec!["2022-04-11T23:10:00Z"; 30];
    cms.extend(["2024-02-17T05:55:36Z", "2024-02-17T06:16:47Z"]);
    let tree = Scratch::with_files(
        "ts-redated",
        &[
            (
                "cluster-info/cluster_version.json",
                "{\"string\": \"v1.23.5\"}\n",
            ),
            ("cluster-resources/events/velero.json", &ts_events(20)),
            (
                "cluster-resources/configmaps/default.json",
                &ts_configmaps(&cms),
            ),
        ],
    );
    let out = tree.analyze();
    assert_eq!(
        out["inputs"][0]["as_of"],
        "2022-04-12T00:19:30Z",
        "{:#?}",
        notes(&out)
    );
    assert!(has_note(&out, "from the newest event"));
    assert!(
        has_note(&out, "2 object timestamp(s)"),
        "{:#?}",
        notes(&out)
    );

    // Only objects: the re-dated ones are still set aside.
    let tree = Scratch::with_files(
        "ts-redated-objects",
        &[
            (
                "cluster-info/cluster_version.json",
                "{\"string\": \"v1.23.5\"}\n",
            ),
            (
                "cluster-resources/configmaps/default.json",
                &ts_configmaps(&cms),
            ),
        ],
    );
    let out = tree.analyze();
    assert_eq!(
        out["inputs"][0]["as_of"],
        "2022-04-11T23:10:00Z",
        "{:#?}",
        notes(&out)
    );

    // must-gather: a `timestamp` of year 9999 is noted, not the clock.
    let events = mg_events("openshift-etcd", 20, "2021-08-03T10");
    let tree = Scratch::with_files(
        "mg-9999",
        &[
            (
                &format!("{MG}/timestamp") as &str,
                "9999-12-31 23:59:59.000000001 +0000 UTC m=+0.000000001\n",
            ),
            (
                &format!("{MG}/cluster-scoped-resources/core/nodes.yaml"),
                NODES,
            ),
            (
                &format!("{MG}/namespaces/openshift-etcd/core/events.yaml"),
                &events,
            ),
        ],
    );
    let out = tree.analyze();
    assert_eq!(
        out["inputs"][0]["as_of"],
        "2021-08-03T10:19:00Z",
        "{:#?}",
        notes(&out)
    );
    assert!(
        has_note(
            &out,
            "set aside as an outlier: timestamp file says 9999-12-31T23:59:59Z"
        ),
        "{:#?}",
        notes(&out)
    );

    // Insights: compact events (no involvedObject) date the archive, not a 2026 object.
    let mut files: Vec<(String, String)> = vec![
        ("insights-operator/gathers.json".into(), "{\"status_reports\": []}\n".into()),
        ("events/openshift-machine-api.json".into(), "{\"items\":[{\"namespace\":\"openshift-machine-api\",\"lastTimestamp\":\"2022-08-24T11:40:44+02:00\",\"reason\":\"Update\",\"message\":\"m\",\"type\":\"Normal\"},{\"namespace\":\"openshift-machine-api\",\"lastTimestamp\":\"2022-08-24T11:41:05+02:00\",\"reason\":\"Update\",\"message\":\"m\",\"type\":\"Normal\"}]}\n".into()),
        ("config/controlplanemachinesets/openshift-machine-api/cluster.json".into(), "{\"apiVersion\": \"machine.openshift.io/v1\", \"kind\": \"ControlPlaneMachineSet\", \"metadata\": {\"name\": \"cluster\", \"namespace\": \"openshift-machine-api\", \"creationTimestamp\": \"2026-05-27T10:18:50Z\"}, \"spec\": {\"state\": \"Active\"}}\n".into()),
    ];
    for i in 0..12 {
        files.push((format!("config/clusteroperator/op-{i}.json"), format!("{{\"apiVersion\": \"config.openshift.io/v1\", \"kind\": \"ClusterOperator\", \"metadata\": {{\"name\": \"op-{i}\", \"creationTimestamp\": \"2022-08-2{}T08:00:00Z\"}}}}\n", i % 4)));
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let tree = Scratch::with_files("insights-2026", &refs);
    let out = tree.analyze();
    assert_eq!(out["inputs"][0]["layout"], "insights");
    assert_eq!(
        out["inputs"][0]["as_of"],
        "2022-08-24T09:41:05Z",
        "{:#?}",
        notes(&out)
    );
    assert!(
        has_note(&out, "newest 2026-05-27T10:18:50Z"),
        "{:#?}",
        notes(&out)
    );
}

/// A List of two pods cut in the middle of a third item (`name: "cut`): YAML, or JSON.
fn cut_pod_list(json: bool) -> String {
    let pod = |name: &str| {
        format!(
            "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: {name}\n    namespace: extra\n  spec:\n    containers:\n    - image: web:1\n      name: web\n    nodeName: n1\n  status:\n    phase: Running\n"
        )
    };
    if json {
        let pod = |name: &str| {
            format!(
                "{{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {{\"name\": \"{name}\", \"namespace\": \"extra\"}}, \"spec\": {{\"containers\": [{{\"image\": \"web:1\", \"name\": \"web\"}}], \"nodeName\": \"n1\"}}}}"
            )
        };
        return format!(
            "{{\n\"apiVersion\": \"v1\",\n\"items\": [\n{},\n{},\n{{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {{\"name\": \"cut",
            pod("a"),
            pod("b")
        );
    }
    format!(
        "apiVersion: v1\nitems:\n{}{}- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: \"cut",
        pod("a"),
        pod("b")
    )
}

/// A file outside the folders the layout reads objects from (`extra-pods.yaml` at the
/// top of a must-gather or a troubleshoot bundle) that starts as kubectl's objects do and
/// is cut in the middle of an item: a problem naming the file and line, and the items
/// read before the cut are kept, as in a plain folder of kubectl output. Collector output
/// that is not objects stays skipped.
/// A must-gather, a troubleshoot bundle (with collector output that does not parse and
/// stays skipped) and a kubectl dump, each holding a node: where a test adds one file.
fn three_layouts() -> [(&'static str, Vec<(&'static str, &'static str)>); 3] {
    [
        (
            "must-gather",
            vec![
                ("timestamp", MG_TIMESTAMP),
                ("namespaces/demo/core/nodes.yaml", NODES),
            ],
        ),
        (
            "troubleshoot",
            vec![
                (
                    "version.yaml",
                    "apiVersion: troubleshoot.sh/v1beta2\nkind: ClusterVersion\n",
                ),
                (
                    "cluster-resources/nodes.json",
                    "{\"kind\": \"NodeList\", \"apiVersion\": \"v1\", \"items\": [{\"metadata\": {\"name\": \"n1\"}}]}\n",
                ),
                ("dns/debug.json", "{\"broken"),
                ("notes.json", "{\"broken"),
            ],
        ),
        ("kubectl-dump", vec![("nodes.yaml", NODES)]),
    ]
}

#[test]
fn a_cut_object_file_outside_the_layout_is_a_problem() {
    for json in [false, true] {
        let name = if json {
            "extra-pods.json"
        } else {
            "extra-pods.yaml"
        };
        let cut = cut_pod_list(json);
        let last_line = cut.lines().count() as u64;
        let layouts = three_layouts();
        for (layout, files) in layouts {
            let mut files = files;
            files.push((name, &cut));
            let tree = Scratch::with_files(&format!("cut-{layout}"), &files);
            let out = tree.analyze();
            assert_eq!(out["inputs"][0]["layout"], layout);
            let problems: Vec<(String, u64, String)> = out["problems"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    (
                        p["file"].as_str().unwrap().to_string(),
                        p["line"].as_u64().unwrap_or(0),
                        p["message"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            assert_eq!(problems.len(), 1, "{layout} {name}: {problems:?}");
            let (file, line, message) = &problems[0];
            assert_eq!(
                (file.as_str(), *line),
                (name, last_line),
                "{layout}: {message}"
            );
            let format = if json { "invalid JSON" } else { "invalid YAML" };
            assert!(message.starts_with(format), "{layout}: {message}");
            assert_eq!(
                tree.get("pods"),
                ["pod/a", "pod/b"],
                "{layout} {name}: the pods before the cut"
            );
        }
    }
}

/// A manifest that opens with comments (`# generated by …`, a licence header) is still
/// objects: in the layouts that skip collector output outside their known paths it was
/// counted as "text without Kubernetes objects" and its objects vanished.
#[test]
fn a_commented_manifest_outside_the_layout_is_read() {
    let manifest = "# generated by hand; canonical source\n# second comment line\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: commented\n  namespace: demo\nspec:\n  containers:\n  - name: app\n    image: registry.example.com/app:1\n";
    let layouts = three_layouts();
    for (layout, mut files) in layouts {
        files.push(("extra/pod.yaml", manifest));
        let tree = Scratch::with_files(&format!("commented-{layout}"), &files);
        let out = tree.analyze();
        assert_eq!(out["inputs"][0]["layout"], layout);
        assert_eq!(out["problems"].as_array().unwrap().len(), 0, "{layout}");
        assert_eq!(
            tree.get("pods"),
            ["pod/commented"],
            "{layout}: the commented manifest's pod"
        );
    }
}

/// Rancher's logs collector (`rancher2_logs_collector.sh`): the cluster state is kubectl's
/// table text under `rke2/kubectl/`, trimmed here from the corpus bundle with its columns
/// padded as kubectl pads them.
const RANCHER: &str = "sample-bundles/layouts/rancher-logs-collector";

/// (stage, severity, pod) of each finding, sorted.
fn rancher_findings(out: &serde_json::Value) -> Vec<(String, String, String)> {
    let mut found: Vec<(String, String, String)> = crate::findings(out)
        .iter()
        .map(|f| {
            (
                crate::text(&f["stage"]).to_string(),
                crate::text(&f["severity"]).to_string(),
                crate::text(&f["object"]["name"]).to_string(),
            )
        })
        .collect();
    found.sort();
    found
}

/// The staged failures are found from the pods' rows and events, each at its stage: the
/// crash loops and the container that exited with Error at runtime (no probe event: it
/// ended by itself), the image pull at the node; each finding says what a table cannot
/// tell; the healthy rows (Running and ready, Completed, DNS warnings) give nothing.
#[test]
fn rancher_logs_collector_tables_give_each_stuck_pod_its_stage() {
    let out = crate::analyze_json(&format!("{RANCHER}-trigger"));
    let input = &out["inputs"][0];
    assert_eq!(input["layout"], "rancher-logs-collector");
    assert!(
        has_note(&out, "taken from systeminfo/date"),
        "{:#?}",
        notes(&out)
    );
    let want: Vec<(String, String, String)> = [
        ("node", "error", "test-imagepull"),
        ("runtime", "error", "test-crash"),
        ("runtime", "error", "test-notready"),
        ("runtime", "error", "test-oom"),
        ("runtime", "error", "test-restarts"),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect();
    assert_eq!(rancher_findings(&out), want);
    let oom = crate::find(&out, "pod/stuck", "test-oom");
    let message = crate::text(&oom["message"]);
    assert!(
        message.contains("container memory-hog") && message.contains("not in a kubectl table"),
        "{message}"
    );
    let pull = crate::find(&out, "pod/stuck", "test-imagepull");
    assert!(crate::text(&pull["message"]).contains("pull access denied"));
    // The row is cited at its own line of the table file.
    let row = &pull["evidence"][0];
    assert!(crate::text(&row["file"]).ends_with("rke2/kubectl/pods"));
    assert_eq!(row["line"], 6);
    crate::area_settings("layouts").bind(|| {
        insta::assert_snapshot!(
            "rancher-logs-collector-trigger",
            serde_json::to_string_pretty(&out["findings"]).unwrap()
        )
    });
}

/// The same layout, every pod Running and ready or Completed, warnings only about DNS:
/// no finding.
#[test]
fn rancher_logs_collector_healthy_tables_give_no_finding() {
    let out = crate::analyze_json(&format!("{RANCHER}-quiet"));
    assert_eq!(out["inputs"][0]["layout"], "rancher-logs-collector");
    assert_eq!(out["inputs"][0]["objects"], 15);
    assert!(rancher_findings(&out).is_empty(), "{:#?}", out["findings"]);
    crate::area_settings("layouts").bind(|| {
        insta::assert_snapshot!(
            "rancher-logs-collector-quiet",
            serde_json::to_string_pretty(&out["inputs"]).unwrap()
        )
    });
}

/// `kdiag get pods` on a table-read bundle prints the table's READY, STATUS and RESTARTS
/// (the objects hold no container statuses to recompute them from).
#[test]
fn rancher_logs_collector_pods_print_their_table_cells() {
    let run = crate::kdiag(&[
        "get",
        "pods",
        "-n",
        "default",
        &format!("{RANCHER}-trigger"),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows: Vec<Vec<&str>> = run
        .stdout
        .lines()
        .map(|l| {
            l.split("   ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect();
    assert!(
        rows.contains(&vec![
            "test-crash",
            "0/1",
            "CrashLoopBackOff",
            "8 (4m53s ago)",
            "21m"
        ]),
        "{}",
        run.stdout
    );
    assert!(
        rows.contains(&vec!["test-notready", "1/2", "Error", "0", "10m"]),
        "{}",
        run.stdout
    );
}

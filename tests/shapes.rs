//! Real bundles read right: a field of an odd shape is unknown, never fatal; troubleshoot's
//! `***HIDDEN***` placeholders read as text; old `kubectl cluster-info dump`s of internal
//! types read as the objects they were. Each bundle is written by the test.

use crate::{Scratch, findings, kdiag, problems, text};

fn rules_on(out: &serde_json::Value, rule: &str) -> Vec<String> {
    findings(out)
        .iter()
        .filter(|f| f["rule"] == rule)
        .map(|f| text(&f["object"]["name"]).to_string())
        .collect()
}

fn notes(out: &serde_json::Value) -> String {
    out["inputs"][0]["notes"].to_string()
}

/// A kubectl-style pod list: each pod's `priority` as given, one crash-looping pod.
fn pods_yaml(priorities: &[(&str, &str)], flow_labels: bool) -> String {
    let mut s = String::from("apiVersion: v1\nitems:\n");
    for (name, priority) in priorities {
        let labels = if flow_labels {
            "    labels: {app: web}\n".to_string()
        } else {
            "    labels:\n      app: web\n".to_string()
        };
        s.push_str(&format!(
            "- apiVersion: v1\n  kind: Pod\n  metadata:\n{labels}    name: {name}\n    namespace: shop\n    uid: uid-{name}\n  spec:\n    containers:\n    - image: web:1\n      name: web\n      ports:\n      - containerPort: 8080\n    nodeName: node-a\n    priority: {priority}\n  status:\n    conditions:\n    - status: \"True\"\n      type: Ready\n    containerStatuses:\n    - image: web:1\n      name: web\n      ready: true\n      restartCount: 0\n      state:\n        running:\n          startedAt: \"2026-11-20T08:00:00Z\"\n    phase: Running\n"
        ));
    }
    s.push_str("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
    s
}

const SERVICE: &str = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  ports:\n  - port: 80\n    targetPort: 8080\n  selector:\n    app: web\n";

fn pod_json(name: &str, priority: &str) -> String {
    format!(
        r#"{{"apiVersion": "v1", "kind": "Pod", "metadata": {{"name": "{name}", "namespace": "shop", "uid": "uid-{name}", "labels": {{"app": "web"}}}},
 "spec": {{"containers": [{{"name": "web", "image": "web:1", "ports": [{{"containerPort": 8080}}]}}], "nodeName": "node-a", "priority": {priority}}},
 "status": {{"phase": "Running", "conditions": [{{"type": "Ready", "status": "True"}}],
  "containerStatuses": [{{"name": "web", "image": "web:1", "ready": true, "restartCount": 0, "state": {{"running": {{"startedAt": "2026-11-20T08:00:00Z"}}}}}}]}}}}"#
    )
}

/// `priority: 2e+09` (Go's float for an unstructured number) reads as the integer the API
/// server reads, in the YAML fast path, the general YAML path and JSON: the pods are
/// analyzed, and the Service that selects them has its pods.
#[test]
fn integral_floats_read_as_integers() {
    let floats = [("a", "2e+09"), ("b", "2.0e9"), ("c", "1e3")];
    for (tag, pods, file) in [
        ("fast", pods_yaml(&floats, false), "pods.yaml"),
        ("general", pods_yaml(&floats, true), "pods.yaml"),
        (
            "json",
            format!(
                "{{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [{}]}}",
                floats
                    .iter()
                    .map(|(n, p)| pod_json(n, p))
                    .collect::<Vec<_>>()
                    .join(",\n")
            ),
            "pods.json",
        ),
    ] {
        let b = Scratch::new(&format!("float-{tag}"));
        b.write(file, &pods);
        b.write("services.yaml", SERVICE);
        let out = b.analyze();
        assert_eq!(problems(&out), Vec::new(), "{tag}");
        assert_eq!(out["inputs"][0]["objects"], 4, "{tag}");
        assert_eq!(
            rules_on(&out, "traffic/selector-no-match"),
            Vec::<String>::new(),
            "{tag}"
        );
        let run = kdiag(&["get", "po", "-n", "shop", b.path()]);
        for name in ["a", "b", "c"] {
            assert!(
                run.stdout.lines().any(|l| l.starts_with(name)),
                "{tag}: {}",
                run.stdout
            );
        }
    }
}

/// A field that still does not read (a fraction where an integer belongs) makes that
/// field unknown, as a problem naming the file, the line and the field; the rest of the
/// object is analyzed (the Service selecting it has its pod), in each path.
#[test]
fn odd_field_is_unknown_not_the_object() {
    for (tag, pods, file) in [
        ("fast", pods_yaml(&[("a", "2.5")], false), "pods.yaml"),
        ("general", pods_yaml(&[("a", "2.5")], true), "pods.yaml"),
        (
            "json",
            format!(
                "{{\"kind\": \"PodList\", \"items\": [{}]}}",
                pod_json("a", "2.5")
            ),
            "pods.json",
        ),
    ] {
        let line = 1 + pods.lines().position(|l| l.contains("priority")).unwrap() as u64;
        let b = Scratch::new(&format!("odd-{tag}"));
        b.write(file, &pods);
        b.write("services.yaml", SERVICE);
        let out = b.analyze();
        let p = problems(&out);
        assert_eq!(p.len(), 1, "{tag}: {p:?}");
        let (f, l, message) = &p[0];
        assert_eq!((f.as_str(), *l), (file, line), "{tag}: {message}");
        assert!(
            message.contains("Pod shop/a: field `spec.priority` does not read"),
            "{tag}: {message}"
        );
        assert!(!message.contains("not analyzed"), "{tag}: {message}");
        assert_eq!(
            rules_on(&out, "traffic/selector-no-match"),
            Vec::<String>::new(),
            "{tag}"
        );
    }
}

/// troubleshoot's redactor writes `***HIDDEN***` into values, which YAML reads as an
/// alias: such a custom resource reads with the placeholder as its text, whichever YAML
/// path reads the file, and the input's notes count the files.
#[test]
fn hidden_placeholders_read_as_text() {
    let b = Scratch::new("hidden");
    let cr = "- apiVersion: longhorn.io/v1beta1\n  kind: Replica\n  metadata:\n    name: r1\n    namespace: longhorn-system\n  spec:\n    dataPath: /var/lib/longhorn\n  status:\n    ip: ***HIDDEN***\n    port: 10000\n    endpoints:\n      r1: ***HIDDEN***:10000\n";
    // The same with a flow mapping: the general parser reads the file.
    let flow = cr.replace("name: r1", "name: r2").replace(
        "    dataPath: /var/lib/longhorn\n",
        "    dataPath: /var/lib/longhorn\n    tags: {a: b}\n",
    );
    b.write(
        "support-bundle/version.yaml",
        "apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\n",
    );
    b.write(
        "support-bundle/cluster-resources/custom-resources/replicas.longhorn.io/longhorn-system.yaml",
        cr,
    );
    b.write(
        "support-bundle/cluster-resources/custom-resources/replicas.longhorn.io/other.yaml",
        &flow,
    );
    b.write(
        "support-bundle/cluster-resources/custom-resources/engines.longhorn.io/quoted.yaml",
        "- apiVersion: longhorn.io/v1beta1\n  kind: Engine\n  metadata:\n    name: e1\n    namespace: longhorn-system\n    annotations:\n      a: '***HIDDEN***'\n  spec:\n    url: http://***HIDDEN***\n",
    );
    let out = b.analyze();
    assert_eq!(problems(&out), Vec::new());
    assert_eq!(out["inputs"][0]["objects"], 3);
    assert!(
        notes(&out).contains(
            "2 YAML file(s) hold troubleshoot's redaction placeholder ***HIDDEN*** as a plain value, which YAML reads as an alias: read as the redacted text"
        ),
        "{}",
        notes(&out)
    );
}

/// An old `kubectl cluster-info dump` (kubectl 1.13 or older printed Go's internal types:
/// `Items`, ObjectMeta's fields inline, Go field names, no `kind`) reads as the objects it
/// was, each of the kind its file's name says, and the input's notes say so.
#[test]
fn old_cluster_info_dump_reads() {
    let b = Scratch::new("old-dump");
    b.write(
        "nodes.json",
        r#"{
    "selfLink": "/api/v1/nodes",
    "resourceVersion": "1200",
    "Items": [
        {
            "name": "node-a",
            "selfLink": "/api/v1/nodes/node-a",
            "uid": "5e0d7a8e-0e5f-11e9-9f6a-42010a800002",
            "resourceVersion": "1190",
            "creationTimestamp": "2019-01-02T10:00:00Z",
            "labels": {"kubernetes.io/hostname": "node-a"},
            "Spec": {"PodCIDR": "10.244.0.0/24", "ProviderID": "", "Unschedulable": false, "Taints": null, "ConfigSource": null, "DoNotUse_ExternalID": ""},
            "Status": {
                "Capacity": {"cpu": "2", "memory": "4041864Ki", "pods": "110"},
                "Allocatable": {"cpu": "2", "memory": "3939464Ki", "pods": "110"},
                "Phase": "",
                "Conditions": [
                    {"Type": "Ready", "Status": "True", "LastHeartbeatTime": "2019-01-02T12:00:00Z", "LastTransitionTime": "2019-01-02T10:01:00Z", "Reason": "KubeletReady", "Message": "kubelet is posting ready status"}
                ],
                "Addresses": [{"Type": "InternalIP", "Address": "10.128.0.2"}],
                "NodeInfo": {"MachineID": "m", "SystemUUID": "s", "BootID": "b", "KernelVersion": "4.15.0", "OSImage": "Ubuntu 18.04", "ContainerRuntimeVersion": "docker://18.6.1", "KubeletVersion": "v1.13.1", "KubeProxyVersion": "v1.13.1", "OperatingSystem": "linux", "Architecture": "amd64"},
                "Images": null,
                "VolumesInUse": null,
                "VolumesAttached": null,
                "Config": null
            }
        }
    ]
}
"#,
    );
    b.write(
        "kube-system/pods.json",
        r#"{
    "selfLink": "/api/v1/namespaces/kube-system/pods",
    "resourceVersion": "1200",
    "Items": [
        {
            "name": "web-7d9f8-abcde",
            "generateName": "web-7d9f8-",
            "namespace": "kube-system",
            "selfLink": "/api/v1/namespaces/kube-system/pods/web-7d9f8-abcde",
            "uid": "7a1c0b2e-0e60-11e9-9f6a-42010a800002",
            "resourceVersion": "1180",
            "creationTimestamp": "2019-01-02T11:00:00Z",
            "labels": {"app": "web"},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d9f8", "uid": "6b0c9a1d-0e60-11e9-9f6a-42010a800002", "controller": true, "blockOwnerDeletion": true}],
            "Spec": {
                "Volumes": null,
                "InitContainers": null,
                "Containers": [
                    {"Name": "web", "Image": "example/web:1.0", "Command": null, "Args": null, "WorkingDir": "",
                     "Ports": [{"Name": "", "HostPort": 0, "ContainerPort": 8080, "Protocol": "TCP", "HostIP": ""}],
                     "Resources": {"Limits": {"memory": "128Mi"}, "Requests": {"cpu": "100m", "memory": "128Mi"}},
                     "ImagePullPolicy": "IfNotPresent", "TTY": false}
                ],
                "RestartPolicy": "Always",
                "TerminationGracePeriodSeconds": 30,
                "DNSPolicy": "ClusterFirst",
                "NodeSelector": null,
                "ServiceAccountName": "default",
                "NodeName": "node-a",
                "SecurityContext": {"HostNetwork": false, "HostPID": false, "HostIPC": false},
                "SchedulerName": "default-scheduler",
                "Priority": 0
            },
            "Status": {
                "Phase": "Running",
                "Conditions": [
                    {"Type": "Ready", "Status": "False", "LastProbeTime": null, "LastTransitionTime": "2019-01-02T11:05:00Z", "Reason": "ContainersNotReady", "Message": "containers with unready status: [web]"}
                ],
                "HostIP": "10.128.0.2",
                "PodIP": "10.244.0.5",
                "StartTime": "2019-01-02T11:00:00Z",
                "QOSClass": "Burstable",
                "ContainerStatuses": [
                    {"Name": "web",
                     "State": {"Waiting": {"Reason": "CrashLoopBackOff", "Message": "Back-off 5m0s restarting failed container=web pod=web-7d9f8-abcde_kube-system(7a1c0b2e-0e60-11e9-9f6a-42010a800002)"}, "Running": null, "Terminated": null},
                     "LastTerminationState": {"Waiting": null, "Running": null, "Terminated": {"ExitCode": 1, "Signal": 0, "Reason": "Error", "Message": "", "StartedAt": "2019-01-02T11:50:00Z", "FinishedAt": "2019-01-02T11:50:01Z", "ContainerID": "docker://abc"}},
                     "Ready": false, "RestartCount": 12, "Image": "example/web:1.0", "ImageID": "docker-pullable://example/web@sha256:00", "ContainerID": "docker://abc"}
                ]
            }
        }
    ]
}
"#,
    );
    b.write(
        "kube-system/events.json",
        r#"{
    "selfLink": "/api/v1/namespaces/kube-system/events",
    "resourceVersion": "1200",
    "Items": [
        {
            "name": "web-7d9f8-abcde.1576a0f1c3d2e4f5",
            "namespace": "kube-system",
            "uid": "9c2d1e3f-0e61-11e9-9f6a-42010a800002",
            "resourceVersion": "1170",
            "creationTimestamp": "2019-01-02T11:01:00Z",
            "InvolvedObject": {"Kind": "Pod", "Namespace": "kube-system", "Name": "web-7d9f8-abcde", "UID": "7a1c0b2e-0e60-11e9-9f6a-42010a800002", "APIVersion": "v1", "ResourceVersion": "1100", "FieldPath": "spec.containers{web}"},
            "Reason": "BackOff",
            "Message": "Back-off restarting failed container",
            "Source": {"Component": "kubelet", "Host": "node-a"},
            "FirstTimestamp": "2019-01-02T11:01:00Z",
            "LastTimestamp": "2019-01-02T11:55:00Z",
            "Count": 40,
            "Type": "Warning",
            "EventTime": null,
            "Series": null,
            "Action": "",
            "Related": null,
            "ReportingController": "",
            "ReportingInstance": ""
        }
    ]
}
"#,
    );
    b.write(
        "kube-system/services.json",
        r#"{"selfLink": "/api/v1/namespaces/kube-system/services", "resourceVersion": "1200", "Items": [
  {"name": "web", "namespace": "kube-system", "uid": "8d3e", "creationTimestamp": "2019-01-02T10:30:00Z",
   "Spec": {"Type": "ClusterIP", "Ports": [{"Name": "", "Protocol": "TCP", "Port": 80, "TargetPort": 8080, "NodePort": 0}],
            "Selector": {"app": "web"}, "ClusterIP": "10.96.0.20", "ExternalIPs": null, "SessionAffinity": "None"},
   "Status": {"LoadBalancer": {"Ingress": null}}}
]}
"#,
    );
    b.write(
        "kube-system/replicasets.json",
        r#"{"selfLink": "/apis/apps/v1/namespaces/kube-system/replicasets", "resourceVersion": "1200", "Items": [
  {"name": "web-7d9f8", "namespace": "kube-system", "uid": "6b0c9a1d-0e60-11e9-9f6a-42010a800002", "creationTimestamp": "2019-01-02T11:00:00Z", "labels": {"app": "web"},
   "Spec": {"Replicas": 1, "MinReadySeconds": 0, "Selector": {"matchLabels": {"app": "web"}},
            "Template": {"creationTimestamp": null, "labels": {"app": "web"},
                         "Spec": {"Containers": [{"Name": "web", "Image": "example/web:1.0"}], "RestartPolicy": "Always"}}},
   "Status": {"Replicas": 1, "FullyLabeledReplicas": 1, "ReadyReplicas": 0, "AvailableReplicas": 0, "ObservedGeneration": 1, "Conditions": null}}
]}
"#,
    );
    b.write(
        "kube-system/replication-controllers.json",
        r#"{"selfLink": "/api/v1/namespaces/kube-system/replicationcontrollers", "resourceVersion": "1200", "Items": []}"#,
    );
    b.write("kube-system/web-7d9f8-abcde/logs.txt", "==== START logs for container web of pod kube-system/web-7d9f8-abcde ====\npanic: no config\n==== END logs for container web of pod kube-system/web-7d9f8-abcde ====\n");
    let out = b.analyze();
    assert_eq!(out["inputs"][0]["layout"], "cluster-info-dump");
    assert_eq!(problems(&out), Vec::new());
    assert_eq!(out["inputs"][0]["objects"], 5);
    assert!(
        notes(&out).contains("5 file(s) read as an old kubectl cluster-info dump"),
        "{}",
        notes(&out)
    );
    let crash = findings(&out)
        .iter()
        .find(|f| f["rule"] == "runtime/crash-loop")
        .unwrap_or_else(|| panic!("{:#?}", findings(&out)));
    assert_eq!(crash["object"]["kind"], "ReplicaSet", "{crash:#}");
    assert!(crash.to_string().contains("12"), "{crash:#}");
    // The Service selects the pod: it has no ready endpoint, not "no pod".
    assert_eq!(
        rules_on(&out, "traffic/selector-no-match"),
        Vec::<String>::new()
    );
    let describe = kdiag(&[
        "describe",
        "pod/web-7d9f8-abcde",
        "-n",
        "kube-system",
        b.path(),
    ]);
    assert!(describe.stdout.contains("BackOff"), "{}", describe.stdout);
    let nodes = kdiag(&["get", "no", b.path()]);
    assert!(
        nodes.stdout.contains("node-a") && nodes.stdout.contains("Ready"),
        "{}",
        nodes.stdout
    );
}

/// A phase the API never writes (`CrashLoopBackOff` copied into `status.phase` by hand)
/// on a pod whose containers run and whose Ready condition is True is no stuck pod:
/// `info` naming the odd phase. The same phase on a pod that is not Ready stays a finding.
#[test]
fn an_edited_phase_on_a_ready_pod_is_not_a_stuck_pod() {
    let pod = |name: &str, ready: &str| {
        format!(
            r#"apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: default
  uid: 6c1e{n}0b4-2d1f-4a8e-9c3b-7e5d4f3a2b1c
  creationTimestamp: "2026-11-20T07:02:11Z"
spec:
  nodeName: node-a
  containers:
  - name: app
    image: registry.example.com/app:1.0
status:
  phase: CrashLoopBackOff
  conditions:
  - type: Ready
    status: "{ready}"
    lastTransitionTime: "2026-11-20T07:03:40Z"
  - type: PodScheduled
    status: "True"
    lastTransitionTime: "2026-11-20T07:02:11Z"
  containerStatuses:
  - name: app
    image: registry.example.com/app:1.0
    imageID: registry.example.com/app@sha256:5e2b
    ready: {ready_lower}
    restartCount: 0
    started: true
    state:
      running:
        startedAt: "2026-11-20T07:03:31Z"
"#,
            n = name.len(),
            ready_lower = ready.to_ascii_lowercase()
        )
    };
    let dir = Scratch::with_files(
        "edited-phase",
        &[
            ("ready.yaml", &pod("edited-ready", "True")),
            ("not-ready.yaml", &pod("edited-not-ready", "False")),
            // Something created two hours later sets the snapshot time.
            (
                "later.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: later\n  namespace: default\n  creationTimestamp: \"2026-11-20T09:14:02Z\"\ndata: {}\n",
            ),
        ],
    );
    let out = dir.analyze();
    let f = crate::find(&out, "pod/stuck", "edited-ready");
    assert_eq!(f["severity"], "info", "{f:#}");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("\"CrashLoopBackOff\", which is not a pod phase")
    );
    let other: Vec<_> = crate::findings(&out)
        .iter()
        .filter(|f| f["object"]["name"] == "edited-not-ready")
        .collect();
    assert!(other.iter().any(|f| f["severity"] != "info"), "{other:#?}");
}

/// A failed run of a Job the bundle does not hold (Insights archives keep pods, not
/// Jobs): a warning saying the outcome is unknown, unless the Job's own
/// `BackoffLimitExceeded` event (matched by the owner's uid) says it gave up.
#[test]
fn a_failed_pod_of_a_job_the_bundle_lacks() {
    let pod = r#"apiVersion: v1
kind: Pod
metadata:
  name: nightly-report-29112440-7qj2m
  namespace: reports
  uid: 3f6b1c2d-8e9a-4b7c-a1d0-5e4f3a2b1c0d
  creationTimestamp: "2026-11-20T08:00:00Z"
  ownerReferences:
  - apiVersion: batch/v1
    kind: Job
    name: nightly-report-29112440
    uid: 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d
    controller: true
    blockOwnerDeletion: true
spec:
  nodeName: node-a
  restartPolicy: Never
  containers:
  - name: report
    image: registry.example.com/report:3.2
status:
  phase: Failed
  conditions:
  - type: Ready
    status: "False"
    reason: PodFailed
    lastTransitionTime: "2026-11-20T08:00:41Z"
  containerStatuses:
  - name: report
    image: registry.example.com/report:3.2
    imageID: registry.example.com/report@sha256:77aa
    ready: false
    restartCount: 0
    started: false
    state:
      terminated:
        exitCode: 3
        reason: Error
        startedAt: "2026-11-20T08:00:05Z"
        finishedAt: "2026-11-20T08:00:40Z"
"#;
    let event = r#"apiVersion: v1
kind: Event
metadata:
  name: nightly-report-29112440.187a1b2c3d4e5f60
  namespace: reports
  uid: 0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e
  creationTimestamp: "2026-11-20T08:06:12Z"
involvedObject:
  apiVersion: batch/v1
  kind: Job
  name: nightly-report-29112440
  namespace: reports
  uid: 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d
reason: BackoffLimitExceeded
message: Job has reached the specified backoff limit
source:
  component: job-controller
firstTimestamp: "2026-11-20T08:06:12Z"
lastTimestamp: "2026-11-20T08:06:12Z"
count: 1
type: Warning
"#;
    let alone = Scratch::with_files("job-missing", &[("pods.yaml", pod)]);
    let out = alone.analyze();
    let f = crate::find(&out, "pod/stuck", "nightly-report-29112440");
    assert_eq!(f["severity"], "warning", "{f:#}");
    let m = f["message"].as_str().unwrap();
    assert!(
        m.contains("is not in the bundle, so whether a retry succeeded is unknown"),
        "{m}"
    );
    assert!(
        f["help"]
            .as_str()
            .unwrap()
            .contains("its log is the current one")
    );

    let with_event =
        Scratch::with_files("job-gave-up", &[("pods.yaml", pod), ("events.yaml", event)]);
    let out = with_event.analyze();
    let f = crate::find(&out, "pod/stuck", "nightly-report-29112440");
    assert_eq!(f["severity"], "error", "{f:#}");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("its event BackoffLimitExceeded says it gave up")
    );
}

/// A pod whose `spec.x` nests `levels` mappings, pretty JSON; and where (line) the
/// bracket that makes the pod nest 128 collections deep is.
fn deep_json_pod(name: &str, levels: usize) -> (String, u64) {
    let mut x = serde_json::json!("leaf");
    for _ in 0..levels {
        x = serde_json::json!({ "a": x });
    }
    let pod = serde_json::json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "shop"},
        "spec": {"containers": [{"name": "web", "image": "web:1"}], "nodeName": "node-a", "x": x}});
    let text = serde_json::to_string_pretty(&pod).unwrap();
    let mut depth = 0;
    let mut line = 1;
    for c in text.chars() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            '\n' => line += 1,
            _ => {}
        }
        if depth == 128 {
            break;
        }
    }
    (text, line)
}

/// A value nested deeper than a tree can be read (JSON: serde_json's 127 levels; YAML:
/// the general parser's 200) is a problem naming the file and line, and the object is
/// not loaded (`get` does not print `null` for it); the other objects are.
#[test]
fn too_deep_nesting_is_a_problem_where_it_is() {
    let (fits, _) = deep_json_pod("fits", 124);
    let (deep, line) = deep_json_pod("deep", 126);
    let b = Scratch::with_files("deep-json", &[("fits.json", &fits), ("deep.json", &deep)]);
    let out = b.analyze();
    assert_eq!(
        problems(&out),
        [(
            "deep.json".to_string(),
            line,
            "Pod nests deeper than 127 levels; object not loaded".to_string()
        )]
    );
    assert_eq!(b.get("pods"), ["pod/fits"]);
    // The explorer says the bundle's files had a problem, not only what it found.
    let described = kdiag(&["describe", "pod/deep", "-n", "shop", b.path()]);
    assert!(
        described
            .stderr
            .contains("1 problem(s) in the files that can hold this answer"),
        "{}",
        described.stderr
    );
    let run = kdiag(&["get", "pod", "deep", "-A", b.path()]);
    assert!(
        run.stderr
            .contains("1 problem(s) in the files that can hold this answer")
            && run.stderr.contains(&format!(
                "deep.json:{line}: Pod nests deeper than 127 levels; object not loaded"
            )),
        "{}",
        run.stderr
    );
    for format in ["json", "yaml"] {
        let run = kdiag(&["get", "pods", "-A", "-o", format, b.path()]);
        assert!(!run.stdout.contains("null"), "{}", run.stdout);
        assert!(run.stdout.contains("leaf"), "{}", run.stdout);
    }

    let mut yaml = String::from(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: deep\n  namespace: shop\nspec:\n  nodeName: node-a\n  x:\n",
    );
    for i in 0..250 {
        yaml.push_str(&format!("{}a:\n", " ".repeat(4 + i)));
    }
    yaml.push_str(&format!("{}b: leaf\n", " ".repeat(254)));
    let b = Scratch::with_files("deep-yaml", &[("deep.yaml", &yaml), ("pods.yaml", SERVICE)]);
    let out = b.analyze();
    let p = problems(&out);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].0, "deep.yaml");
    assert!(p[0].1 > 200, "{p:?}");
    assert!(p[0].2.contains("nesting deeper than 200 levels"), "{p:?}");
    let run = kdiag(&["get", "pods", "-A", "-o", "json", b.path()]);
    assert!(!run.stdout.contains("null"), "{}", run.stdout);
}

/// A key that names the object given twice (`kind: Pod` … `kind: ConfigMap`) is a
/// problem naming the file and the object's line, in each path (YAML fast and general,
/// JSON); the object is read with the last value, as kubectl's readers read it.
#[test]
fn repeated_identity_keys_are_problems() {
    let yaml = |labels: &str| {
        format!(
            "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n{labels}    name: web\n    namespace: shop\n  spec:\n    nodeName: node-a\n  kind: ConfigMap\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: first\n    namespace: shop\n    name: second\nkind: List\n"
        )
    };
    let json = "{\"apiVersion\": \"v1\", \"items\": [\n{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"web\", \"namespace\": \"shop\"}, \"kind\": \"ConfigMap\"},\n{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"first\", \"namespace\": \"shop\", \"name\": \"second\"}}\n], \"kind\": \"List\"}\n";
    for (tag, file, text) in [
        ("fast", "objects.yaml", yaml("")),
        ("general", "objects.yaml", yaml("    labels: {app: web}\n")),
        ("json", "objects.json", json.to_string()),
    ] {
        let b = Scratch::with_files(&format!("repeated-{tag}"), &[(file, &text)]);
        let out = b.analyze();
        let line = |name: &str| {
            let at = text
                .find(&format!("name: {name}"))
                .or_else(|| text.find(&format!("\"name\": \"{name}\"")))
                .unwrap();
            let item = text[..at]
                .rfind(if tag == "json" { "\n{" } else { "\n- " })
                .unwrap();
            1 + text[..item + 1].lines().count() as u64
        };
        assert_eq!(
            problems(&out),
            [
                (
                    file.to_string(),
                    line("web"),
                    "`kind` is given more than once; the last one is read: ConfigMap shop/web"
                        .to_string()
                ),
                (
                    file.to_string(),
                    line("first"),
                    "`metadata.name` is given more than once; the last one is read: Pod shop/second"
                        .to_string()
                ),
            ],
            "{tag}"
        );
        assert_eq!(b.get("configmaps"), ["configmap/web"], "{tag}");
    }
}

/// YAML merge keys (`<<`) are applied as kubectl's YAML reader applies them: a block or
/// flow mapping, an alias, a list of them (earlier ones win), and the mapping's own keys
/// win over merged ones.
#[test]
fn merge_keys_are_applied() {
    let text = "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: &meta\n    name: block\n    namespace: shop\n  spec: &first\n    <<:\n      nodeName: node-g\n    containers:\n    - image: web:1\n      name: web\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: inline\n    namespace: shop\n  spec:\n    <<: {nodeName: node-g}\n    containers:\n    - image: web:1\n      name: web\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    <<: *meta\n    name: aliased\n  spec:\n    <<: [*first, {nodeName: node-2, priority: 7}]\n    priority: 3\nkind: List\n";
    let b = Scratch::with_files("merge", &[("pods.yaml", text)]);
    let out = b.analyze();
    assert_eq!(problems(&out), []);
    assert_eq!(b.get("pods"), ["pod/aliased", "pod/block", "pod/inline"]);
    for (name, priority) in [("block", None), ("inline", None), ("aliased", Some(3))] {
        let pod = format!("pod/{name}");
        let run = kdiag(&["get", &pod, "-n", "shop", "-o", "json", b.path()]);
        let pod: serde_json::Value = serde_json::from_str(&run.stdout).expect(&run.stderr);
        assert_eq!(pod["spec"]["nodeName"], "node-g", "{name}");
        assert_eq!(pod["spec"]["priority"].as_i64(), priority, "{name}");
        assert_eq!(pod["spec"]["containers"][0]["name"], "web", "{name}");
        assert!(pod["spec"].get("<<").is_none(), "{name}");
    }
    let text = "kind: Pod\nmetadata:\n  name: quoted\nspec:\n  \"<<\": {nodeName: node-g}\n";
    let b = Scratch::with_files("merge-quoted", &[("pod.yaml", text)]);
    let run = kdiag(&["get", "pod/quoted", "-o", "json", b.path()]);
    let pod: serde_json::Value = serde_json::from_str(&run.stdout).expect(&run.stderr);
    assert_eq!(
        pod["spec"]["<<"]["nodeName"], "node-g",
        "a quoted `<<` is a key"
    );
}

/// `metadata.name` that is not a string says what it is; a List inside a List is read as
/// kubectl reads it (its items are the outer list's); a broken JSON stream on stdin is
/// invalid JSON, and the objects before the break are read.
#[test]
fn odd_names_nested_lists_and_json_on_stdin() {
    let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: 123\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: null\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: [a]\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: fine\n";
    let b = Scratch::with_files("odd-names", &[("pods.yaml", text)]);
    let got: Vec<(u64, String)> = problems(&b.analyze())
        .into_iter()
        .map(|(_, l, m)| (l, m))
        .collect();
    assert_eq!(
        got,
        [
            (1, "Pod metadata.name is a number, not a string".to_string()),
            (6, "Pod metadata.name is null, not a string".to_string()),
            (11, "Pod metadata.name is a list, not a string".to_string()),
        ]
    );

    let nested = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n  - apiVersion: v1\n    kind: Pod\n    metadata:\n      name: a\n      namespace: shop\n- apiVersion: v1\n  kind: PodList\n  items:\n  - metadata:\n      name: b\n      namespace: shop\n";
    let b = Scratch::with_files("nested-list", &[("objects.yaml", nested)]);
    assert_eq!(problems(&b.analyze()), []);
    assert_eq!(b.get("pods"), ["pod/a", "pod/b"]);

    let stream = b"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"namespace\":\"shop\"}}{\"broken";
    let run = crate::kdiag_stdin(
        &["analyze", "-", "--format", "json", "--fail-on", "never"],
        Some(stream),
    );
    let out = crate::json(&run);
    assert_eq!(out["inputs"][0]["objects"], 1, "{out:#}");
    let p = problems(&out);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].0, "<stdin>");
    assert!(p[0].2.starts_with("invalid JSON"), "{p:?}");
}

/// Flow items at column 0 inside `items: [ … ]` (PyYAML reads them; YAML 1.2 wants them
/// indented): both pods are read, at their own lines, and no problem is said.
#[test]
fn flow_items_at_column_0_are_read_as_pyyaml_reads_them() {
    let pod = |name: &str| {
        format!(
            "{{apiVersion: v1, kind: Pod, metadata: {{name: {name}, namespace: demo, uid: 0e13ce35-90d8-4ff1-bb66-c951a1d11c0{}}}, spec: {{containers: [{{name: c, image: 'i:1'}}]}}, status: {{phase: Pending}}}}",
            name.len()
        )
    };
    let b = Scratch::with_files(
        "flow-col0",
        &[(
            "pods.yaml",
            &format!(
                "apiVersion: v1\nkind: List\nitems: [\n{},\n# the second\n{}\n]\n",
                pod("a"),
                pod("bb")
            ),
        )],
    );
    let run = kdiag(&[
        "get",
        "pods",
        "-n",
        "demo",
        "-o",
        "name",
        &b.file("pods.yaml"),
    ]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "pod/a\npod/bb\n"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr, "");
    let run = kdiag(&["describe", "pod/bb", "-n", "demo", &b.file("pods.yaml")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = crate::analyze_json(&b.file("pods.yaml"));
    assert!(problems(&out).is_empty(), "{:?}", problems(&out));
}

//! `kdiag describe` as kubectl prints it (snapshots of a Pod, Deployment, Service and
//! Node of the seed sample, and of a pod holding every field kubectl shows), which
//! objects it picks (kubectl's prefix match, the namespace an object is in when `-n`
//! is wrong), and `get -o json` keeping what `-o yaml` keeps.

use crate::{Scratch, json, kdiag, settings};

const SEED: &str = "sample-bundles/control-plane-seed.list.yaml";

fn ok(args: &[&str]) -> String {
    let run = kdiag(args);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    run.stdout
}

#[test]
fn deployment_service_and_node_in_kubectls_sections() {
    let deploy = ok(&["describe", "deploy/web", "-n", "demo", SEED]);
    settings().bind(|| insta::assert_snapshot!("describe-deployment", deploy));
    for line in [
        "Replicas:               1 desired | 1 updated | 1 total | 0 available | 1 unavailable",
        "StrategyType:           RollingUpdate",
        "\nOldReplicaSets:  web-7b6c5d8f9c (0/0 replicas created)\nNewReplicaSet:   web-5c8d7b9f46 (1/1 replicas created)\n",
    ] {
        assert!(deploy.contains(line), "{line}\n{deploy}");
    }
    assert!(!deploy.contains("\nSpec:"), "{deploy}");
    let svc = ok(&["describe", "svc/frontend", "-n", "demo", SEED]);
    settings().bind(|| insta::assert_snapshot!("describe-service", svc));
    // The ready endpoints of the port's EndpointSlices; none when no pod is ready.
    assert!(
        svc.contains("\nEndpoints:                10.244.0.31:80,10.244.1.28:80\n"),
        "{svc}"
    );
    let unready = ok(&["describe", "svc/web", "-n", "demo", SEED]);
    assert!(
        unready.contains("\nEndpoints:                \n"),
        "{unready}"
    );
    let node = ok(&["describe", "node/node-a", SEED]);
    settings().bind(|| insta::assert_snapshot!("describe-node", node));
    for part in [
        "\nNon-terminated Pods:",
        "\nAllocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n  Resource           Requests",
        "\n  cpu                3100m (39%)",
    ] {
        assert!(node.contains(part), "{part}\n{node}");
    }
}

/// A pod as a real API server returns it, with every field kubectl's describe shows,
/// and its events in both shapes.
const POD: &str = r#"apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata:
    annotations:
      kubectl.kubernetes.io/last-applied-configuration: |
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"kube-apiserver-cp-1"}}
      kubernetes.io/config.hash: 5f0a3c
      kubernetes.io/config.seen: "2026-11-20T08:40:02.112Z"
      note: |-
        first line
        second line
    creationTimestamp: "2026-11-20T08:40:05Z"
    labels:
      component: kube-apiserver
      tier: control-plane
    name: kube-apiserver-cp-1
    namespace: kube-system
    ownerReferences:
    - apiVersion: v1
      controller: true
      kind: Node
      name: cp-1
      uid: 3f9d1c0e-8c51-4b40-9e5a-1d7f3a0c0001
    uid: 3f9d1c0e-8c51-4b40-9e5a-1d7f3a0c0002
  spec:
    containers:
    - command:
      - kube-apiserver
      - --advertise-address=10.0.0.11
      env:
      - name: LOG_LEVEL
        value: "2"
      - name: DB_PASSWORD
        valueFrom:
          secretKeyRef:
            key: password
            name: etcd-credentials
      - name: FEATURES
        valueFrom:
          configMapKeyRef:
            key: gates
            name: apiserver-config
            optional: true
      - name: POD_NAME
        valueFrom:
          fieldRef:
            apiVersion: v1
            fieldPath: metadata.name
      - name: CPU_LIMIT
        valueFrom:
          resourceFieldRef:
            divisor: "0"
            resource: limits.cpu
      envFrom:
      - configMapRef:
          name: apiserver-env
      - prefix: ETCD_
        secretRef:
          name: etcd-env
      image: registry.k8s.io/kube-apiserver:v1.31.2
      imagePullPolicy: IfNotPresent
      livenessProbe:
        failureThreshold: 8
        httpGet:
          host: 10.0.0.11
          path: livez
          port: 6443
          scheme: HTTPS
        initialDelaySeconds: 10
        periodSeconds: 10
        successThreshold: 1
        timeoutSeconds: 15
      name: kube-apiserver
      readinessProbe:
        failureThreshold: 3
        httpGet:
          path: /readyz
          port: 6443
          scheme: HTTPS
        periodSeconds: 1
        successThreshold: 1
        timeoutSeconds: 15
      resources:
        requests:
          cpu: 250m
      volumeMounts:
      - mountPath: /etc/kubernetes/pki
        name: k8s-certs
        readOnly: true
      - mountPath: /etc/ssl/certs
        name: ca-certs
        readOnly: true
    hostNetwork: true
    nodeName: cp-1
    priority: 2000001000
    priorityClassName: system-node-critical
    tolerations:
    - effect: NoExecute
      operator: Exists
    volumes:
    - hostPath:
        path: /etc/ssl/certs
        type: DirectoryOrCreate
      name: ca-certs
    - hostPath:
        path: /etc/kubernetes/pki
        type: DirectoryOrCreate
      name: k8s-certs
  status:
    conditions:
    - lastProbeTime: null
      lastTransitionTime: "2026-11-20T08:40:07Z"
      status: "True"
      type: Initialized
    - lastProbeTime: null
      lastTransitionTime: "2026-11-20T09:01:10Z"
      status: "False"
      type: Ready
    containerStatuses:
    - containerID: containerd://9a8b7c6d5e4f
      image: registry.k8s.io/kube-apiserver:v1.31.2
      imageID: registry.k8s.io/kube-apiserver@sha256:a1b2c3
      lastState:
        terminated:
          containerID: containerd://1a2b3c4d5e6f
          exitCode: 1
          finishedAt: "2026-11-20T09:00:58Z"
          reason: Error
          startedAt: "2026-11-20T08:40:06Z"
      name: kube-apiserver
      ready: false
      restartCount: 3
      started: true
      state:
        running:
          startedAt: "2026-11-20T09:01:00Z"
    hostIP: 10.0.0.11
    hostIPs:
    - ip: 10.0.0.11
    phase: Running
    podIP: 10.0.0.11
    podIPs:
    - ip: 10.0.0.11
    qosClass: Burstable
    startTime: "2026-11-20T08:40:05Z"
- apiVersion: v1
  count: 3
  firstTimestamp: "2026-11-20T08:52:00Z"
  involvedObject:
    apiVersion: v1
    fieldPath: spec.containers{kube-apiserver}
    kind: Pod
    name: kube-apiserver-cp-1
    namespace: kube-system
    uid: 3f9d1c0e-8c51-4b40-9e5a-1d7f3a0c0002
  kind: Event
  lastTimestamp: "2026-11-20T09:11:00Z"
  message: 'Liveness probe failed: HTTP probe failed with statuscode: 500'
  metadata:
    creationTimestamp: "2026-11-20T08:52:00Z"
    name: kube-apiserver-cp-1.1879a1b2c3d4e5f6
    namespace: kube-system
  reason: Unhealthy
  source:
    component: kubelet
    host: cp-1
  type: Warning
- apiVersion: events.k8s.io/v1
  deprecatedCount: 1
  deprecatedFirstTimestamp: "2026-11-20T09:14:00Z"
  deprecatedLastTimestamp: "2026-11-20T09:14:00Z"
  deprecatedSource:
    component: kubelet
    host: cp-1
  eventTime: null
  kind: Event
  metadata:
    creationTimestamp: "2026-11-20T09:14:00Z"
    name: kube-apiserver-cp-1.1879a1b2c3d4e5f7
    namespace: kube-system
  note: Container kube-apiserver definition changed, will be restarted
  reason: Killing
  regarding:
    apiVersion: v1
    kind: Pod
    name: kube-apiserver-cp-1
    namespace: kube-system
    uid: 3f9d1c0e-8c51-4b40-9e5a-1d7f3a0c0002
  type: Normal
"#;

#[test]
fn pod_fields_as_kubectl_prints_them() {
    let b = Scratch::with_files("describe-pod", &[("pods.yaml", POD)]);
    let out = ok(&[
        "describe",
        "pod/kube-apiserver-cp-1",
        "-n",
        "kube-system",
        b.path(),
    ]);
    settings().bind(|| insta::assert_snapshot!("describe-pod-fields", out));
    for line in [
        // The phase, not the STATUS column.
        "\nStatus:               Running\n",
        "\nStart Time:           Fri, 20 Nov 2026 08:40:05 +0000\n",
        // kubectl's tabwriter aligns `  IP:` with the line after it.
        "\nIPs:\n  IP:           10.0.0.11\nControlled By:  Node/cp-1\n",
        "\n    Container ID:  containerd://9a8b7c6d5e4f\n",
        "\n    Image ID:      registry.k8s.io/kube-apiserver@sha256:a1b2c3\n",
        "\n    Command:\n      kube-apiserver\n      --advertise-address=10.0.0.11\n",
        "\n    State:          Running\n      Started:      Fri, 20 Nov 2026 09:01:00 +0000\n",
        "\n    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    1\n      Started:      Fri, 20 Nov 2026 08:40:06 +0000\n      Finished:     Fri, 20 Nov 2026 09:00:58 +0000\n",
        // A path without its slash, as Go's url.URL writes it.
        "\n    Liveness:   http-get https://10.0.0.11:6443/livez delay=10s timeout=15s period=10s successThreshold=1 failureThreshold=8\n",
        "\n      apiserver-env  ConfigMap                   Optional: false\n      etcd-env       Secret with prefix 'ETCD_'  Optional: false\n",
        "\n      DB_PASSWORD:  <set to the key 'password' in secret 'etcd-credentials'>   Optional: false\n",
        "\n      FEATURES:     <set to the key 'gates' of config map 'apiserver-config'>  Optional: true\n",
        "\n      POD_NAME:     kube-apiserver-cp-1 (v1:metadata.name)\n",
        "\n      CPU_LIMIT:    node allocatable (limits.cpu)\n",
        "\n      /etc/kubernetes/pki from k8s-certs (ro)\n      /etc/ssl/certs from ca-certs (ro)\n",
        "\n  ca-certs:\n    Type:          HostPath (bare host directory volume)\n    Path:          /etc/ssl/certs\n    HostPathType:  DirectoryOrCreate\n",
        "\nQoS Class:         Burstable\n",
        // A multi-line annotation under its key, the last-applied configuration left out.
        "\n                      note:\n                        first line\n                        second line\n",
        // x3 over the age of the first time; From from events.k8s.io/v1's deprecatedSource;
        // the container's field path before the message, as kubectl 1.37 prints it.
        "\n  Warning  Unhealthy  3m (x3 over 22m)  kubelet  spec.containers{kube-apiserver}: Liveness probe failed: HTTP probe failed with statuscode: 500\n",
        "\n  Normal   Killing    0s                kubelet  Container kube-apiserver definition changed, will be restarted\n",
    ] {
        assert!(out.contains(line), "{line}\n----\n{out}");
    }
    assert!(!out.contains("last-applied"), "{out}");
}

#[test]
fn a_wrong_namespace_says_where_the_object_is() {
    for args in [
        [
            "describe",
            "pod/worker-66b9dc7f5c-tq4vn",
            "-n",
            "default",
            SEED,
        ],
        ["get", "pod/worker-66b9dc7f5c-tq4vn", "-n", "default", SEED],
    ] {
        let run = kdiag(&args);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(
            run.stderr
                .contains("pod worker-66b9dc7f5c-tq4vn is not in namespace default: it is in namespace demo; use -n demo"),
            "{args:?}: {}",
            run.stderr
        );
    }
    let nowhere = kdiag(&["describe", "pod/nope", "-n", "demo", SEED]);
    assert!(
        nowhere
            .stderr
            .contains("Pod demo/nope is not in the bundle"),
        "{}",
        nowhere.stderr
    );
}

#[test]
fn kind_name_matches_names_by_prefix_as_kubectl() {
    let out = ok(&["describe", "pod", "api", "-n", "demo", SEED]);
    let names: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("Name:"))
        .map(str::trim)
        .collect();
    assert_eq!(
        names,
        ["api-a-7c9d8-x2kqp", "api-b-84d6c9f7b5-m8zrt"],
        "{out}"
    );
    // Two empty lines between objects, as kubectl.
    assert!(out.contains("\n\n\nName:"), "{out}");
    // An exact name wins; the KIND/NAME form never matches a prefix.
    let exact = ok(&["describe", "deploy", "web", "-n", "demo", SEED]);
    assert!(
        exact.starts_with("Name:                   web\n"),
        "{exact}"
    );
    assert!(!exact.contains("\n\n\nName:"), "{exact}");
    assert_eq!(kdiag(&["describe", "pod/api", "-n", "demo", SEED]).code, 2);
    let none = kdiag(&["describe", "pod", "zzz", SEED]);
    assert_eq!(none.code, 2);
    assert!(
        none.stderr.contains("Pod default/zzz is not in the bundle"),
        "{}",
        none.stderr
    );
}

/// kubectl keeps the last-applied configuration in `-o json` as in `-o yaml`.
#[test]
fn get_json_keeps_what_yaml_keeps() {
    let last = "kubectl.kubernetes.io/last-applied-configuration";
    let yaml = ok(&["get", "svc/web", "-n", "demo", "-o", "yaml", SEED]);
    assert!(yaml.contains(last), "{yaml}");
    let one = json(&kdiag(&[
        "get", "svc/web", "-n", "demo", "-o", "json", SEED,
    ]));
    let applied = one["metadata"]["annotations"][last]
        .as_str()
        .unwrap_or_default();
    assert!(applied.contains("\"name\":\"web\""), "{one:#}");
    let list = json(&kdiag(&["get", "svc", "-n", "demo", "-o", "json", SEED]));
    assert!(
        list["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["metadata"]["annotations"][last].is_string()),
        "{list:#}"
    );
}

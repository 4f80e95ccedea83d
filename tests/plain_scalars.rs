//! Values written by YAML 1.1 writers (PyYAML's `safe_dump`: unquoted `00000008`, `1e3`,
//! `on`; `- ` lists at their key's indentation; long strings folded) and JSON numbers
//! where strings go read as strings, from their source text; a field that does not read
//! leaves its siblings read; and a file of many objects with the same odd field is one
//! problem, not one per object. Each bundle is written by the test.

use crate::{Scratch, findings, kdiag, problems, text};

/// A pod as PyYAML writes it (keys sorted, strings quoted only where YAML 1.1 reads
/// them as something else): Running, its container not Ready, its readiness probe
/// failing; `hash` is what follows its `pod-template-hash:` key as written,
/// `extra_labels` more label lines.
fn pyyaml_pod(name: &str, hash: &str, extra_labels: &str) -> String {
    format!(
        "- apiVersion: v1
  kind: Pod
  metadata:
    annotations:
      example.com/build: 0x1F
      example.com/enabled: on
      example.com/replicas: 1e3
    creationTimestamp: '2026-11-20T06:13:55Z'
    labels:
      app: web
      canary: on
{extra_labels}      pod-template-hash:{hash}
      release: 1e3
      window: 12:30
    name: {name}
    namespace: shop
    resourceVersion: 1002329
    uid: 0f3c2a5e-1b7d-4c8e-9a6f-{name:0>12}
  spec:
    containers:
    - args:
      - --replicas
      - 1e3
      - on
      - 0x1F
      env:
      - name: MODE
        value: on
      - name: HASH
        value: 00000008
      - name: LIMIT
        value: 1Gi
      image: registry.example.com/shop/web:1.0
      name: web
      ports:
      - containerPort: 8080
        name: http
        protocol: TCP
      readinessProbe:
        failureThreshold: 3
        httpGet:
          path: /ready
          port: 8080
          scheme: HTTP
        periodSeconds: 10
        successThreshold: 1
        timeoutSeconds: 1
      resources:
        requests:
          cpu: 100m
          memory: 128Mi
      volumeMounts:
      - mountPath: /data
        name: data
    nodeName: node-1
    restartPolicy: Always
    volumes:
    - emptyDir: {{}}
      name: data
  status:
    conditions:
    - lastProbeTime: null
      lastTransitionTime: '2026-11-20T06:14:00Z'
      status: 'True'
      type: PodScheduled
    - lastProbeTime: null
      lastTransitionTime: '2026-11-20T06:14:10Z'
      message: 'containers with unready status: [web]'
      reason: ContainersNotReady
      status: 'False'
      type: Ready
    - lastProbeTime: null
      lastTransitionTime: '2026-11-20T06:14:10Z'
      message: 'containers with unready status: [web]'
      reason: ContainersNotReady
      status: 'False'
      type: ContainersReady
    containerStatuses:
    - image: registry.example.com/shop/web:1.0
      name: web
      ready: false
      restartCount: 0
      started: true
      state:
        running:
          startedAt: '2026-11-20T06:14:05Z'
    hostIP: 192.168.10.11
    phase: Running
    podIP: 10.244.1.17
    qosClass: Burstable
    startTime: '2026-11-20T06:14:00Z'
"
    )
}

/// The kubelet's `Unhealthy` event on `name`'s container, its message folded as PyYAML
/// folds a long single-quoted string.
fn pyyaml_event(name: &str) -> String {
    format!(
        "- apiVersion: v1
  count: 1075
  firstTimestamp: '2026-11-20T06:14:10Z'
  involvedObject:
    apiVersion: v1
    fieldPath: spec.containers{{web}}
    kind: Pod
    name: {name}
    namespace: shop
  kind: Event
  lastTimestamp: '2026-11-20T09:14:00Z'
  message: 'Readiness probe failed: Get \"http://10.244.1.17:8080/ready\": dial tcp
    10.244.1.17:8080: connect: connection refused'
  metadata:
    creationTimestamp: '2026-11-20T06:14:10Z'
    name: {name}.18e9ac3051b12a36
    namespace: shop
  reason: Unhealthy
  source:
    component: kubelet
    host: node-1
  type: Warning
"
    )
}

fn list(items: &[String]) -> String {
    format!(
        "apiVersion: v1\nitems:\n{}kind: List\nmetadata:\n  resourceVersion: ''\n",
        items.concat()
    )
}

fn rules_of(out: &serde_json::Value, name: &str) -> Vec<String> {
    findings(out)
        .iter()
        .filter(|f| text(&f["object"]["name"]) == name)
        .map(|f| text(&f["rule"]).to_string())
        .collect()
}

/// A PyYAML-written pod whose `pod-template-hash: 00000008` (and `1e3`, `on`, `0x1F`,
/// `12:30` labels, annotations, env values and args) YAML 1.2 would read as numbers and
/// bools: they are strings, from their source text. No problem; the pod's probe and
/// volumes still read, so it is `readiness/probe-failing`, not `pod/stuck`. (The view's
/// values themselves are checked in `kube::lazy`'s tests.)
#[test]
fn plain_scalars_where_strings_go_are_their_text() {
    let b = Scratch::new("pyyaml-pod");
    b.write(
        "pods.yaml",
        list(&[pyyaml_pod("web-0", " 00000008", ""), pyyaml_event("web-0")]),
    );
    let out = b.analyze();
    assert_eq!(problems(&out), Vec::new());
    assert_eq!(rules_of(&out, "web-0"), ["readiness/probe-failing"]);
    let probe = findings(&out)
        .iter()
        .find(|f| f["rule"] == "readiness/probe-failing")
        .map(|f| text(&f["message"]).to_string())
        .unwrap_or_default();
    assert!(probe.contains("httpGet /ready on port 8080"), "{probe}");
    assert!(probe.contains("dial tcp 10.244.1.17:8080"), "{probe}");
    // Labels as `get -l` matches them on the object as written: `on` is the text `on`.
    // (`window=12:30` is no selector a user can give: Kubernetes label values hold only
    // `[A-Za-z0-9._-]`.)
    let run = kdiag(&[
        "get",
        "po",
        "-n",
        "shop",
        "-l",
        "canary=on,app=web",
        b.path(),
    ]);
    assert!(run.stdout.contains("web-0"), "{}{}", run.stdout, run.stderr);
}

/// The same pod as JSON with numbers and bools where strings go (`"pod-template-hash":
/// 8`, `"canary": true`): read as their text; nothing else of the pod is lost.
#[test]
fn json_numbers_where_strings_go_are_their_text() {
    let b = Scratch::new("json-numbers");
    let pod = r#"{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "web-0", "namespace": "shop", "uid": 7, "resourceVersion": 1002329,
  "labels": {"app": "web", "pod-template-hash": 8, "canary": true},
  "annotations": {"example.com/replicas": 1000, "example.com/enabled": true}},
 "spec": {"nodeName": "node-1", "containers": [{"name": "web", "image": "web:1", "args": ["--replicas", 3],
   "env": [{"name": "HASH", "value": 8}],
   "ports": [{"containerPort": 8080, "name": "http"}],
   "readinessProbe": {"httpGet": {"path": "/ready", "port": 8080}, "periodSeconds": 10, "failureThreshold": 3}}],
  "volumes": [{"name": "data", "emptyDir": {}}]},
 "status": {"phase": "Running", "conditions": [
   {"type": "Ready", "status": "False", "reason": "ContainersNotReady", "message": "containers with unready status: [web]", "lastTransitionTime": "2026-11-20T06:14:10Z"},
   {"type": "ContainersReady", "status": "False", "reason": "ContainersNotReady", "message": "containers with unready status: [web]", "lastTransitionTime": "2026-11-20T06:14:10Z"}],
  "containerStatuses": [{"name": "web", "image": "web:1", "ready": false, "started": true, "restartCount": 0,
   "state": {"running": {"startedAt": "2026-11-20T06:14:05Z"}}}]}}"#;
    b.write("pod.json", pod);
    b.write("events.yaml", list(&[pyyaml_event("web-0")]));
    let out = b.analyze();
    assert_eq!(problems(&out), Vec::new());
    assert_eq!(out["inputs"][0]["objects"], 2);
    assert_eq!(rules_of(&out, "web-0"), ["readiness/probe-failing"]);
}

/// A field that does not read at all (a map where a label's string goes) is unknown, and
/// its siblings read: the pod's probe and volumes are there, so the diagnosis stays
/// `readiness/probe-failing`. Forty pods of one file with that field are one problem
/// naming the field, the first pod and how many more, at the first pod's line.
#[test]
fn an_odd_field_in_many_objects_is_one_problem_and_loses_no_sibling() {
    let b = Scratch::new("odd-many");
    let mut items = Vec::new();
    for i in 0..40 {
        let name = format!("web-{i:02}");
        items.push(pyyaml_pod(&name, "\n        odd: 00000008", ""));
        items.push(pyyaml_event(&name));
    }
    let pods = list(&items);
    b.write("pods.yaml", &pods);
    let out = b.analyze();
    let p = problems(&out);
    assert_eq!(p.len(), 1, "{p:?}");
    let line = 1 + pods
        .lines()
        .position(|l| l.trim() == "pod-template-hash:")
        .unwrap() as u64;
    let (file, at, message) = &p[0];
    assert_eq!((file.as_str(), *at), ("pods.yaml", line), "{message}");
    assert!(
        message.starts_with(
            "Pod shop/web-00 (and 39 more Pod objects of this file): field \
             `metadata.labels.pod-template-hash` does not read and is left unknown"
        ),
        "{message}"
    );
    let stuck: Vec<_> = findings(&out)
        .iter()
        .map(|f| text(&f["rule"]).to_string())
        .filter(|r| r != "readiness/probe-failing")
        .collect();
    assert_eq!(stuck, Vec::<String>::new());
    assert_eq!(rules_of(&out, "web-00"), ["readiness/probe-failing"]);
}

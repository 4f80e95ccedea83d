//! `get` reads only the files that can hold what it shows (issue 25): every form of
//! `get` and `describe`, on the sample bundles of every layout and container (folder,
//! zip, tar.gz, List file, several PATHs holding the same objects), prints exactly what
//! a full read (`KDIAG_READ_ALL=1`) prints.

use crate::{Run, Scratch, kdiag_env, root};
use std::collections::BTreeSet;

/// Kinds asked for by kubectl's names: kinds kdiag knows (read selectively) and kinds it
/// resolves from the bundle (read whole).
const KINDS: &[&str] = &[
    "po",
    "nodes",
    "events",
    "deploy",
    "rs",
    "svc",
    "ns",
    "deployments.apps",
    "kwl",
    "cq",
    "co",
    "widgets",
];

pub fn run(paths: &[String], args: &[&str], full: bool) -> Run {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(paths.iter().map(String::as_str));
    let env = [("KDIAG_READ_ALL", if full { "1" } else { "0" }.to_string())];
    kdiag_env(&all, None, &env)
}

/// (kind, namespace, name) of some objects a full read lists: a few of each kind.
fn objects(paths: &[String]) -> Vec<(String, Option<String>, String)> {
    let mut out = Vec::new();
    for kind in ["pods", "deploy", "kwl", "cm"] {
        let r = run(paths, &["get", kind, "-A", "-o", "json"], true);
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&r.stdout) else {
            continue;
        };
        let items = v["items"].as_array().into_iter().flatten();
        for item in items.step_by(3).take(4) {
            let meta = &item["metadata"];
            out.push((
                kind.to_string(),
                meta["namespace"].as_str().map(str::to_string),
                meta["name"].as_str().unwrap_or_default().to_string(),
            ));
        }
    }
    out
}

/// Every form of `get`, `describe` and `logs` worth asking of the bundle at `paths`.
fn forms(paths: &[String]) -> Vec<Vec<String>> {
    let objects = objects(paths);
    let mut namespaces: BTreeSet<String> = objects.iter().filter_map(|o| o.1.clone()).collect();
    namespaces.insert("no-such-namespace".to_string());
    let mut forms: Vec<Vec<&str>> = vec![
        vec!["get", "pods", "-A", "--redact"],
        vec!["get", "pods", "-A", "-o", "yaml"],
        vec!["get", "events", "-A", "-o", "wide"],
        vec!["get", "po", "-o", "name", "-l", "app"],
        vec!["get", "no/worker-1", "-o", "yaml"],
        vec!["describe", "node/worker-1"],
    ];
    for kind in KINDS {
        forms.push(vec!["get", kind]);
        forms.push(vec!["get", kind, "-A"]);
        for ns in &namespaces {
            forms.push(vec!["get", kind, "-n", ns]);
        }
    }
    let mut named: Vec<Vec<String>> = Vec::new();
    for (kind, ns, name) in &objects {
        let target = format!("{kind}/{name}");
        named.push(vec![
            "get".into(),
            target.clone(),
            "-o".into(),
            "json".into(),
        ]);
        named.push(vec!["describe".into(), target.clone()]);
        if let Some(ns) = ns {
            named.push(vec![
                "get".into(),
                target.clone(),
                "-n".into(),
                ns.clone(),
                "-o".into(),
                "yaml".into(),
            ]);
            named.push(vec![
                "describe".into(),
                target.clone(),
                "-n".into(),
                ns.clone(),
            ]);
            named.push(vec![
                "describe".into(),
                target.clone(),
                "-n".into(),
                "elsewhere".into(),
            ]);
            // kubectl's `get KIND NAME` form, also with a namespace that does not hold it.
            for within in [ns.as_str(), "elsewhere"] {
                named.push(vec![
                    "get".into(),
                    kind.clone(),
                    name.clone(),
                    "-n".into(),
                    within.into(),
                ]);
            }
            if kind == "pods" {
                for extra in [&[][..], &["-p"][..], &["--tail", "2"][..]] {
                    let mut form: Vec<String> =
                        vec!["logs".into(), name.clone(), "-n".into(), ns.clone()];
                    form.extend(extra.iter().map(|s| s.to_string()));
                    named.push(form);
                }
                named.push(vec!["logs".into(), name.clone()]);
            }
        }
    }
    forms
        .into_iter()
        .map(|f| f.into_iter().map(String::from).collect())
        .chain(named)
        .collect()
}

/// Runs every form both ways, on two threads; returns the forms whose output differs.
fn differences(paths: &[String]) -> (usize, Vec<String>) {
    let forms = forms(paths);
    (forms.len(), compare(paths, &forms))
}

/// Runs each of `forms` on `paths` selectively and as a full read, on two threads; the
/// forms whose stdout, stderr or exit code differ, each with both answers.
pub fn compare(paths: &[String], forms: &[Vec<String>]) -> Vec<String> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let differ = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(form) = forms.get(i) else { break };
                    let args: Vec<&str> = form.iter().map(String::as_str).collect();
                    let (picked, full) = (run(paths, &args, false), run(paths, &args, true));
                    if (&picked.stdout, &picked.stderr, picked.code)
                        != (&full.stdout, &full.stderr, full.code)
                    {
                        differ.lock().unwrap().push(format!(
                            "{} {}\n--- selective ({}):\n{}{}\n--- full ({}):\n{}{}",
                            args.join(" "),
                            paths.join(" "),
                            picked.code,
                            picked.stdout,
                            picked.stderr,
                            full.code,
                            full.stdout,
                            full.stderr
                        ));
                    }
                }
            });
        }
    });
    differ.into_inner().unwrap()
}

fn sample(path: &str) -> String {
    root()
        .join("sample-bundles")
        .join(path)
        .to_string_lossy()
        .into_owned()
}

/// The must-gather sample unpacked into the scratch folder `name`.
fn must_gather_folder(scratch: &Scratch, name: &str) -> String {
    let file = std::fs::File::open(sample("healthy.must-gather.zip")).unwrap();
    let folder = scratch.file(name);
    zip::ZipArchive::new(file)
        .unwrap()
        .extract(&folder)
        .unwrap();
    folder
}

/// The must-gather sample unpacked into a folder, and packed again as a tar.gz.
fn must_gather_folder_and_tgz(scratch: &Scratch) -> (String, String) {
    let folder = must_gather_folder(scratch, "mg");
    let tgz = tar_gz(scratch, "mg.tar.gz", "must-gather.local.1", &folder);
    (folder, tgz)
}

/// `folder` packed as the tar.gz `name` of `scratch`, its files under `top`.
pub fn tar_gz(scratch: &Scratch, name: &str, top: &str, folder: &str) -> String {
    let tgz = scratch.file(name);
    let gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&tgz).unwrap(),
        flate2::Compression::fast(),
    );
    let mut tar = tar::Builder::new(gz);
    tar.append_dir_all(top, folder).unwrap();
    tar.into_inner().unwrap().finish().unwrap();
    tgz
}

/// The must-gather sample with a pod list cut in the middle of its second item in one
/// namespace and a ConfigMap list in another: each answer names the problems of the files
/// it comes from, and only those, whether the read was selective or full.
fn must_gather_with_broken_files(scratch: &Scratch) -> String {
    let folder = must_gather_folder(scratch, "mg-broken");
    let root = format!(
        "{folder}/must-gather.local.123/quay-io-openshift-must-gather-sha256-abc/namespaces"
    );
    let cut = format!(
        "apiVersion: v1\nkind: List\nitems:\n{}- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: cut\n    namespace: torn\n  spec: {{containers: [\n",
        pod_item("torn", "whole")
    );
    for (path, text) in [
        ("torn/core/pods.yaml", cut.as_str()),
        (
            "torn/core/configmaps.yaml",
            "apiVersion: v1\nkind: List\nitems:\n- {\n",
        ),
        (
            "shop/core/configmaps.yaml",
            "apiVersion: v1\nkind: ConfigMapList\nitems: [\n",
        ),
    ] {
        let path = format!("{root}/{path}");
        std::fs::create_dir_all(std::path::Path::new(&path).parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    folder
}

#[test]
fn every_get_and_describe_equals_a_full_read() {
    let scratch = Scratch::new("selective");
    let (folder, tgz) = must_gather_folder_and_tgz(&scratch);
    let broken = must_gather_with_broken_files(&scratch);
    let bundles: Vec<Vec<String>> = vec![
        vec![folder.clone()],
        vec![broken],
        vec![sample("healthy.must-gather.zip")],
        vec![tgz],
        vec![sample("healthy.troubleshoot.tar.gz")],
        vec![sample("healthy.list.yaml")],
        vec![sample("control-plane-seed.must-gather.zip")],
        vec![sample("scheduling/node-condition")],
        vec![sample("platform/drain-blocked")],
        vec![sample("kueue/admitted-unschedulable.yaml")],
        vec![sample("explorer/crd-columns.yaml")],
        // The same objects from several PATHs: each object once, with every source.
        vec![
            sample("healthy.list.yaml"),
            sample("healthy.must-gather.zip"),
        ],
        vec![folder, sample("healthy.must-gather.zip")],
    ];
    let mut failed = Vec::new();
    for paths in &bundles {
        let (asked, differ) = differences(paths);
        assert!(asked > 40, "{paths:?}: only {asked} forms");
        failed.extend(differ);
    }
    let forms: Vec<&str> = failed.iter().filter_map(|f| f.lines().next()).collect();
    assert!(
        failed.is_empty(),
        "{} form(s) differ from a full read:\n{}\n\n{}",
        failed.len(),
        forms.join("\n"),
        failed
            .iter()
            .take(4)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

/// One pod of a must-gather's `core/pods.yaml`, as `oc adm inspect` writes it.
fn pod_item(ns: &str, name: &str) -> String {
    format!(
        r#"- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2026-11-20T08:01:12Z"
    generateName: {name}-
    labels:
      app: {name}
      pod-template-hash: 7d4b9c5f8d
    name: {name}
    namespace: {ns}
    ownerReferences:
    - apiVersion: apps/v1
      blockOwnerDeletion: true
      controller: true
      kind: ReplicaSet
      name: {name}-7d4b9c5f8d
      uid: 3f1c2b7e-9a51-4c1e-8d7a-2f6b1e0c9d41
    resourceVersion: "4812093"
    uid: 8c2e6f0a-1b3d-4e5f-9a7b-6c8d0e2f4a61
  spec:
    containers:
    - image: quay.io/example/{name}:1.4.2
      imagePullPolicy: IfNotPresent
      name: app
      ports:
      - containerPort: 8080
        name: http
        protocol: TCP
      resources:
        limits:
          memory: 512Mi
        requests:
          cpu: 100m
          memory: 256Mi
    nodeName: worker-1
    restartPolicy: Always
    schedulerName: default-scheduler
  status:
    conditions:
    - lastProbeTime: null
      lastTransitionTime: "2026-11-20T08:01:20Z"
      status: "True"
      type: Ready
    containerStatuses:
    - containerID: cri-o://5b9e2d7c1a3f4e6b8d0c2a4e6f8b0d2c4e6a8f0b2d4c6e8a0f2b4d6c8e0a2f4b
      image: quay.io/example/{name}:1.4.2
      imageID: quay.io/example/{name}@sha256:0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9
      lastState: {{}}
      name: app
      ready: true
      restartCount: 0
      started: true
      state:
        running:
          startedAt: "2026-11-20T08:01:18Z"
    hostIP: 10.0.1.12
    phase: Running
    podIP: 10.128.2.17
    qosClass: Burstable
    startTime: "2026-11-20T08:01:12Z"
"#
    )
}

pub(crate) fn pod_list(ns: &str, n: usize) -> String {
    let items: String = (0..n).map(|i| pod_item(ns, &format!("web-{i}"))).collect();
    format!(
        "apiVersion: v1\nitems:\n{items}kind: PodList\nmetadata:\n  resourceVersion: \"4812100\"\n"
    )
}

/// A must-gather's `core/events.yaml`: the snapshot time is checked against its events.
pub(crate) const EVENTS: &str = r#"apiVersion: v1
items:
- apiVersion: v1
  count: 1
  eventTime: null
  firstTimestamp: "2026-11-20T08:01:12Z"
  involvedObject:
    apiVersion: v1
    kind: Pod
    name: web-0
    namespace: shop
    resourceVersion: "4812090"
    uid: 8c2e6f0a-1b3d-4e5f-9a7b-6c8d0e2f4a61
  kind: Event
  lastTimestamp: "2026-11-20T08:01:12Z"
  message: Successfully assigned shop/web-0 to worker-1
  metadata:
    creationTimestamp: "2026-11-20T08:01:12Z"
    name: web-0.187a1b2c3d4e5f60
    namespace: shop
    resourceVersion: "4812091"
    uid: 1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f
  reason: Scheduled
  reportingComponent: default-scheduler
  source:
    component: default-scheduler
  type: Normal
kind: EventList
metadata:
  resourceVersion: "4812100"
"#;

/// The peak RSS (MiB) `KDIAG_STATS` says a run reached once its inputs were loaded.
pub fn peak_rss(run: &Run) -> u64 {
    run.stderr
        .lines()
        .filter_map(|l| l.split("peak RSS ").nth(1))
        .filter_map(|rest| rest.split_whitespace().next()?.parse().ok())
        .max()
        .unwrap_or_else(|| panic!("no peak RSS in {}", run.stderr))
}

/// A must-gather whose namespace `big` holds 28 MB of pods: `get pods -n shop` and
/// `get pods web-1 -n shop` read none of them (its peak RSS stays far below a full read's) from a folder, a zip or a
/// tar.gz, and prints what the full read prints.
#[test]
fn get_leaves_other_namespaces_unread() {
    let scratch = Scratch::new("selective-rss");
    let files: Vec<(String, String)> = vec![
        (
            "timestamp".into(),
            "2026-11-20 09:14:02.123456789 +0000 UTC m=+0.1\n".into(),
        ),
        (
            "namespaces/big/core/pods.yaml".into(),
            pod_list("big", 12_000),
        ),
        ("namespaces/shop/core/pods.yaml".into(), pod_list("shop", 2)),
        ("namespaces/shop/core/events.yaml".into(), EVENTS.into()),
    ];
    let top = "must-gather.local.5/quay-io-openshift-must-gather-sha256-0a1b";
    for (name, text) in &files {
        scratch.write(&format!("mg/{top}/{name}"), text);
    }
    let members: Vec<(String, &[u8])> = files
        .iter()
        .map(|(n, t)| (format!("{top}/{n}"), t.as_bytes()))
        .collect();
    let refs: Vec<(&str, &[u8])> = members.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    let zip = scratch.write("mg.zip", crate::zip_of(&refs));
    let tgz = tar_gz(&scratch, "mg.tar.gz", ".", &scratch.file("mg"));
    // A name asked with `-n` is read in that namespace only when it is there.
    let forms: [&[&str]; 2] = [
        &["get", "pods", "-n", "shop"],
        &["get", "pods", "web-1", "-n", "shop"],
    ];
    for path in [scratch.file("mg"), zip, tgz] {
        for form in forms {
            let stats = |full: bool| {
                let env = [
                    ("KDIAG_READ_ALL", if full { "1" } else { "0" }.to_string()),
                    ("KDIAG_STATS", "1".to_string()),
                ];
                let mut args = form.to_vec();
                args.push(&path);
                kdiag_env(&args, None, &env)
            };
            let (picked, full) = (stats(false), stats(true));
            assert_eq!(picked.stdout, full.stdout, "{form:?} {path}");
            assert!(picked.stdout.contains("web-1 "), "{}", picked.stdout);
            let (picked_mib, full_mib) = (peak_rss(&picked), peak_rss(&full));
            assert!(
                full_mib >= 28 && picked_mib * 2 < full_mib,
                "{form:?} {path}: peak RSS {picked_mib} MiB selective, {full_mib} MiB full"
            );
        }
    }
}

/// One Event of a must-gather's `core/events.yaml`, last seen `minute` minutes after 08:00.
fn event_item(ns: &str, i: usize, minute: usize) -> String {
    format!(
        r#"- apiVersion: v1
  count: 3
  eventTime: null
  firstTimestamp: "2026-11-20T08:00:00Z"
  involvedObject:
    apiVersion: v1
    kind: Pod
    name: web-{i}
    namespace: {ns}
    resourceVersion: "4812090"
    uid: 8c2e6f0a-1b3d-4e5f-9a7b-{i:012}
  kind: Event
  lastTimestamp: "2026-11-20T{:02}:{:02}:00Z"
  message: 'Readiness probe failed: Get "http://10.128.2.17:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)'
  metadata:
    creationTimestamp: "2026-11-20T08:00:00Z"
    name: web-{i}.187a1b2c3d4e5f60
    namespace: {ns}
    resourceVersion: "4812091"
    uid: 1d2e3f40-5a6b-4c7d-8e9f-{i:012}
  reason: Unhealthy
  reportingComponent: kubelet
  source:
    component: kubelet
    host: worker-1
  type: Warning
"#,
        8 + minute / 60,
        minute % 60
    )
}

/// A must-gather whose 40 namespaces `noisy-N` hold 30 MB of Events, the newest of them
/// the newest of the bundle (it dates the snapshot): `get pods -n shop` reads them for
/// their times and keeps none (its peak RSS stays far below a full read's), and its ages
/// are the full read's.
#[test]
fn events_of_other_namespaces_are_read_for_their_times_only() {
    let scratch = Scratch::new("selective-events");
    let top = "must-gather.local.6/quay-io-openshift-must-gather-sha256-0a1b";
    for n in 0..40 {
        let ns = format!("noisy-{n}");
        let items: String = (0..1_000)
            .map(|i| event_item(&ns, i, (n * 1_000 + i) * 60 / 40_000))
            .collect();
        let events = format!(
            "apiVersion: v1\nitems:\n{items}kind: EventList\nmetadata:\n  resourceVersion: \"1\"\n"
        );
        scratch.write(
            &format!("mg/{top}/namespaces/{ns}/core/events.yaml"),
            events,
        );
    }
    scratch.write(
        &format!("mg/{top}/namespaces/shop/core/pods.yaml"),
        pod_list("shop", 2),
    );
    scratch.write(
        &format!("mg/{top}/namespaces/shop/core/events.yaml"),
        EVENTS,
    );
    let path = scratch.file("mg");
    let stats = |full: bool| {
        let env = [
            ("KDIAG_READ_ALL", if full { "1" } else { "0" }.to_string()),
            ("KDIAG_STATS", "1".to_string()),
        ];
        kdiag_env(
            &["get", "pods", "-n", "shop", "-o", "wide", &path],
            None,
            &env,
        )
    };
    let (picked, full) = (stats(false), stats(true));
    assert_eq!(picked.stdout, full.stdout);
    // Ages are measured from the newest event, in `noisy-39`: 08:59, 57 minutes after the pods.
    assert!(picked.stdout.contains("   57m   "), "{}", picked.stdout);
    let (picked_mib, full_mib) = (peak_rss(&picked), peak_rss(&full));
    assert!(
        full_mib >= 30 && picked_mib * 2 < full_mib,
        "peak RSS {picked_mib} MiB selective, {full_mib} MiB full"
    );
}

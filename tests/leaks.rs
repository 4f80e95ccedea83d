//! Nothing secret and no terminal control leaks from a bundle into what kdiag prints.

use crate::{Scratch, kdiag};

/// A Secret whose values sit in every shape a bundle may hold them: `data` as a string,
/// `stringData` as a list, `binaryData` as a map, and OpenShift's token annotation.
const ODD_SECRET: &str = "apiVersion: v1
kind: Secret
metadata:
  name: builder-token-x7k2p
  namespace: shop
  annotations:
    kubernetes.io/service-account.name: builder
    openshift.io/token-secret.name: builder-token-x7k2p
    openshift.io/token-secret.value: eyJhbGciOiJSUzI1NiIsImtpZCI6IlRPS0VOIn0
    kubectl.kubernetes.io/last-applied-configuration: '{\"data\":\"c2VjcmV0LWluLWxhc3QtYXBwbGllZA==\"}'
type: kubernetes.io/service-account-token
data: c2VjcmV0LWFzLWEtc3RyaW5n
stringData:
- secret-in-a-list
binaryData:
  keystore.jks: c2VjcmV0LWJpbmFyeQ==
";

/// A plain Secret: `data` is a map, so `describe` lists its keys with their sizes.
const MAP_SECRET: &str = "apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: shop
type: Opaque
data:
  password: aHVudGVyMg==
  user: YWRtaW4=
";

/// OpenShift also writes the token on the ServiceAccount it belongs to.
const TOKEN_SERVICE_ACCOUNT: &str = "apiVersion: v1
kind: ServiceAccount
metadata:
  name: builder
  namespace: shop
  annotations:
    openshift.io/token-secret.name: builder-token-x7k2p
    openshift.io/token-secret.value: eyJhbGciOiJSUzI1NiIsImtpZCI6IlRPS0VOIn0
secrets:
- name: builder-token-x7k2p
";

const VALUES: &[&str] = &[
    "eyJhbGciOiJSUzI1NiIsImtpZCI6IlRPS0VOIn0",
    "c2VjcmV0LWluLWxhc3QtYXBwbGllZA",
    "c2VjcmV0LWFzLWEtc3RyaW5n",
    "secret-in-a-list",
    "c2VjcmV0LWJpbmFyeQ",
    "aHVudGVyMg",
    "YWRtaW4",
];

#[test]
fn secret_values_never_print_whatever_their_shape() {
    for (tag, text) in [("yaml", ODD_SECRET.to_string()), ("json", to_json())] {
        let b = Scratch::with_files(
            "secret-shapes",
            &[
                (&format!("s.{tag}"), &text),
                ("db.yaml", MAP_SECRET),
                ("sa.yaml", TOKEN_SERVICE_ACCOUNT),
            ],
        );
        let runs = [
            kdiag(&["get", "secret", "-n", "shop", "-o", "yaml", b.path()]),
            kdiag(&["get", "secret", "-n", "shop", "-o", "json", b.path()]),
            kdiag(&[
                "describe",
                "secret/builder-token-x7k2p",
                "-n",
                "shop",
                b.path(),
            ]),
            kdiag(&["describe", "secret/db", "-n", "shop", b.path()]),
            kdiag(&["analyze", "--fail-on", "never", b.path()]),
            kdiag(&["get", "sa", "-n", "shop", "-o", "yaml", b.path()]),
            kdiag(&["get", "sa", "-n", "shop", "-o", "json", b.path()]),
            kdiag(&["describe", "sa/builder", "-n", "shop", b.path()]),
        ];
        for run in &runs {
            assert_eq!(run.code, 0, "{}", run.stderr);
            for v in VALUES {
                assert!(
                    !run.stdout.contains(v),
                    "{tag}: {v} printed:\n{}",
                    run.stdout
                );
                assert!(
                    !run.stderr.contains(v),
                    "{tag}: {v} printed:\n{}",
                    run.stderr
                );
            }
        }
        prints(
            &runs[0],
            "openshift.io/token-secret.name: builder-token-x7k2p",
        );
        prints(&runs[0], "keystore.jks: <redacted> 13 bytes");
        prints(&runs[2], "keystore.jks:  13 bytes");
        prints(
            &runs[5],
            "openshift.io/token-secret.name: builder-token-x7k2p",
        );
        let db = &runs[3].stdout;
        assert!(
            db.contains("Data\n====\npassword:  7 bytes\nuser:      5 bytes\n"),
            "{db}"
        );
    }
}

/// Fails unless `run` printed `text`.
fn prints(run: &crate::Run, text: &str) {
    assert!(
        run.stdout.contains(text),
        "{text:?} not in:\n{}",
        run.stdout
    );
}

/// The same Secret as indented JSON, so both readers are covered.
fn to_json() -> String {
    serde_json::to_string_pretty(&serde_json::json!({
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {
            "name": "builder-token-x7k2p",
            "namespace": "shop",
            "annotations": {
                "kubernetes.io/service-account.name": "builder",
                "openshift.io/token-secret.name": "builder-token-x7k2p",
                "openshift.io/token-secret.value": VALUES[0],
                "kubectl.kubernetes.io/last-applied-configuration": format!("{{\"data\":\"{}==\"}}", VALUES[1]),
            }
        },
        "type": "kubernetes.io/service-account-token",
        "data": VALUES[2],
        "stringData": [VALUES[3]],
        "binaryData": {"keystore.jks": format!("{}==", VALUES[4])}
    }))
    .unwrap()
}

/// Whether `c` would reach a terminal as a control: C0 but a newline, DEL, C1, bidi.
fn is_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{9}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[test]
fn terminal_controls_and_newlines_in_names_print_escaped() {
    let b = Scratch::new("terminal");
    // A file name that would forge a finding header, and one with a bidi override.
    b.write("bad\n× [node] Pod forged/x: \u{1b}[2J.yaml", "a: [\n");
    b.write("pod\u{202e}lmay.yaml", crate::bad_input_pod());
    // Object text with ESC, BEL and CR, as JSON writes them.
    b.write(
        "evil.json",
        r#"{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web\u001b]0;pwned\u0007", "namespace": "shop", "annotations": {"note": "a\u001b[2Jb\rforged"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}"#,
    );
    let runs = [
        kdiag(&["analyze", "--fail-on", "never", b.path()]),
        kdiag(&["get", "pods", "-A", b.path()]),
        kdiag(&["get", "pods", "-A", "-o", "yaml", b.path()]),
        kdiag(&[
            "describe",
            "pod/web\u{1b}]0;pwned\u{7}",
            "-n",
            "shop",
            b.path(),
        ]),
    ];
    for run in &runs {
        assert_eq!(run.code, 0, "{}", run.stderr);
        let raw: Vec<char> = run.stdout.chars().filter(|&c| is_control(c)).collect();
        assert!(raw.is_empty(), "raw {raw:?} in:\n{}", run.stdout);
    }
    let human = &runs[0].stdout;
    assert!(
        human.contains("bad\\n× [node] Pod forged/x: \\x1b[2J.yaml"),
        "{human}"
    );
    assert!(human.contains("pod\\u{202e}lmay.yaml"), "{human}");
    assert!(
        !human
            .lines()
            .any(|l| l.trim_start().starts_with("× [node] Pod forged")),
        "{human}"
    );
    prints(&runs[1], "web\\x1b]0;pwned\\x07");
    prints(&runs[3], "a\\x1b[2Jb\\rforged");
}

/// `why` prints Kueue's condition messages: their controls are escaped and a newline in
/// one cannot start a line of the tree.
#[test]
fn why_prints_condition_messages_escaped() {
    let seed = std::fs::read_to_string(crate::root().join("sample-bundles/kueue/seed-quota.yaml"))
        .unwrap();
    let evil =
        "message: \"couldnt assign\\n\\rWorkload ml/other FORGED \\u202eline\\x1b]0;PWN\\x07\"";
    let text: String = seed
        .lines()
        .map(|l| match l.find("message: 'couldn''t assign") {
            Some(at) => format!("{}{evil}", &l[..at]),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(text.contains("FORGED"), "the seed still has the message");
    let b = Scratch::new("why-terminal");
    b.write("kueue.yaml", text);
    let run = kdiag(&["why", "job/train", "-n", "ml", b.path()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let raw: Vec<char> = run.stdout.chars().filter(|&c| is_control(c)).collect();
    assert!(raw.is_empty(), "raw {raw:?} in:\n{}", run.stdout);
    assert!(
        !run.stdout
            .lines()
            .any(|l| l.trim_start().starts_with("Workload ml/other")),
        "{}",
        run.stdout
    );
    // Wide enough to keep the message on one line: escaped as a whole.
    let wide = kdiag(&["why", "job/train", "-n", "ml", b.path(), "--width", "200"]);
    prints(
        &wide,
        "couldnt assign\\n\\rWorkload ml/other FORGED \\u{202e}line\\x1b]0;PWN\\x07",
    );
    prints(&run, "\\u{202e}line\\x1b]0;PWN\\x07");
}

// ── --redact ────────────────────────────────────────────────────────────────────────

/// A node the bundle holds, named like an EC2 host.
const EC2_NODE: &str = "ip-10-0-1-23.ec2.internal";
/// A node only the pods name (`spec.nodeName`): the bundle holds no Node object for it.
const UNLISTED_NODE: &str = "ip-10-0-9-9.corp.example";
/// A registry long enough that a wrapped or cut line splits it (`harbor.acmecorp-`).
const LONG_REGISTRY: &str = "harbor.acmecorp-prod.internal";
/// A host named only in a message, first in a URL and then again on its own.
const MESSAGE_HOST: &str = "vault.payments-eu.example";

/// Text of a `--redact` report that would tell who the bundle belongs to.
const NEVER_SHOWN: &[&str] = &[
    "ip-10-0-1-23",
    "ec2.internal",
    "ip-10-0-9-9",
    "corp.example",
    "acmecorp",
    "prod.internal",
    "payments-eu",
    "acme-prod-bundle",
];

/// A bundle that names hosts in every place `--redact` must find them: inside object
/// names (a static pod, its event), as a node only `spec.nodeName` gives, in a message
/// that names a host twice, and in images long enough to be wrapped or cut.
fn hosts_everywhere() -> Scratch {
    let mut items = vec![
        serde_json::json!({
            "apiVersion": "v1", "kind": "Node",
            "metadata": {"name": EC2_NODE, "uid": "7d1e0a4c-0000-4000-8000-000000000001"},
            "status": {"addresses": [{"type": "InternalIP", "address": "10.0.1.23"}, {"type": "Hostname", "address": EC2_NODE}]},
        }),
        crate::image_pull_pod(
            1,
            &format!("kube-apiserver-{EC2_NODE}"),
            EC2_NODE,
            "registry.k8s.io/kube-apiserver:v1.31.2",
        ),
        serde_json::json!({
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": format!("kube-apiserver-{EC2_NODE}.17a3f5c2d1e0b9a8"), "namespace": "demo"},
            "involvedObject": {"apiVersion": "v1", "kind": "Pod", "namespace": "demo", "name": format!("kube-apiserver-{EC2_NODE}"), "uid": "ddc8e1db-dbc0-47c4-8b6d-000000000001"},
            "reason": "Failed", "type": "Warning", "count": 3,
            "message": "Failed to pull image \"registry.k8s.io/kube-apiserver:v1.31.2\": not found",
            "firstTimestamp": "2026-11-20T08:53:00Z", "lastTimestamp": "2026-11-20T09:13:00Z",
            "source": {"component": "kubelet", "host": EC2_NODE},
        }),
    ];
    let mut secret_msg =
        crate::image_pull_pod(2, "vault-agent", UNLISTED_NODE, "quay.io/team/agent:2");
    secret_msg["status"]["containerStatuses"][0]["state"]["waiting"] = serde_json::json!({
        "reason": "ErrImagePull",
        "message": format!("failed to pull: Get \"https://{MESSAGE_HOST}/v2/\": x509: certificate is valid for ingress.local, not {MESSAGE_HOST}"),
    });
    // Hosts in plain text, with no URL around them: a private DNS name, a node's short
    // name and a node in upper case.
    let mut plain = crate::image_pull_pod(3, "db-client", EC2_NODE, "quay.io/team/db:1");
    plain["status"]["containerStatuses"][0]["state"]["waiting"] = serde_json::json!({
        "reason": "ErrImagePull",
        "message": "dial tcp db.acmecorp-prod.internal: i/o timeout from ip-10-0-1-23 (IP-10-0-1-23.EC2.INTERNAL)",
    });
    items.push(plain);
    items.push(secret_msg);
    // Names of every length move the registry across the places a line is wrapped or cut.
    for k in 0..40 {
        let name = format!("web-{}", "x".repeat(k));
        let image = format!("{LONG_REGISTRY}/team/web-frontend:1.{k}");
        items.push(crate::image_pull_pod(10 + k, &name, EC2_NODE, &image));
    }
    let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items});
    let b = Scratch::new("redact");
    b.write(
        "acme-prod-bundle/pods.json",
        serde_json::to_string_pretty(&list).unwrap(),
    );
    b
}

#[test]
fn redact_masks_hosts_wherever_they_stand() {
    let b = hosts_everywhere();
    let bundle = b.file("acme-prod-bundle");
    let plain = kdiag(&["analyze", "--fail-on", "never", &bundle]);
    for shown in [
        &format!("kube-apiserver-{EC2_NODE}"),
        UNLISTED_NODE,
        LONG_REGISTRY,
        MESSAGE_HOST,
    ] {
        prints(&plain, shown);
    }
    for format in ["human", "json", "sarif", "html"] {
        let run = kdiag(&[
            "analyze",
            "--fail-on",
            "never",
            "--redact",
            "--format",
            format,
            &bundle,
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        for s in NEVER_SHOWN {
            let lines: Vec<&str> = run.stdout.lines().filter(|l| l.contains(s)).collect();
            assert!(
                lines.is_empty(),
                "{format}: {s} survives --redact in {lines:#?}"
            );
        }
        assert!(!run.stdout.contains(b.path()), "{format}: the input's path");
        prints(&run, "INPUT-1");
    }
    let human = kdiag(&["analyze", "--fail-on", "never", "--redact", &bundle]).stdout;
    assert!(human.contains("kube-apiserver-HOST-"), "{human}");
}

#[test]
fn redact_masks_describe_and_get_too() {
    let b = hosts_everywhere();
    let bundle = b.file("acme-prod-bundle");
    for args in [
        vec!["get", "pods", "-A", "-o", "wide", "--redact", &bundle],
        vec!["get", "events", "-A", "--redact", &bundle],
        vec![
            "describe",
            "pod/vault-agent",
            "-n",
            "demo",
            "--redact",
            &bundle,
        ],
    ] {
        let run = kdiag(&args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        for s in NEVER_SHOWN {
            assert!(!run.stdout.contains(s), "{args:?}: {s} in\n{}", run.stdout);
        }
    }
}

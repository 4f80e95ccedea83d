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
            &[(&format!("s.{tag}"), &text), ("db.yaml", MAP_SECRET)],
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

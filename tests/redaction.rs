//! `--redact` on every output: values are masked as strings before any serializer sees
//! them (a newline or tab in a message is no escape letter glued onto the next name),
//! the shapes masked wherever they stand (public-TLD hosts, EC2 names, MACs, e-mail
//! local parts, IPv6 after `key:` and prefixes), and a property test: random messages,
//! names, annotations and logs planted with such values, every output of every format
//! holds none of them and parses.

use crate::{Scratch, kdiag};
use serde_json::{Value, json};

/// A troubleshoot bundle: a node, a crash-looping pod on it (its termination message,
/// waiting message and annotation are `message`, its previous log `log`), and an Event.
fn bundle(tag: &str, pod: &str, node: &str, message: &str, log: &str) -> Scratch {
    let b = Scratch::new(tag);
    b.write(
        "version.yaml",
        "apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\nspec:\n  versionNumber: 0.110.0\n",
    );
    let node_obj = json!({"apiVersion": "v1", "kind": "NodeList", "items": [{
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": node, "uid": "7d1e0a4c-0000-4000-8000-000000000001",
                     "labels": {"kubernetes.io/hostname": node}},
        "status": {"conditions": [{"type": "Ready", "status": "True",
                   "lastTransitionTime": "2026-11-20T08:00:00Z"}]},
    }]});
    b.write(
        "cluster-resources/nodes.json",
        serde_json::to_string_pretty(&node_obj).unwrap(),
    );
    let pod_obj = json!({"apiVersion": "v1", "kind": "PodList", "items": [{
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": pod, "namespace": "demo", "uid": "0e13ce35-90d8-4ff1-bb66-c951a1d11c01",
                     "creationTimestamp": "2026-11-20T09:00:00Z", "labels": {"app": "web"},
                     "annotations": {"note": message}},
        "spec": {"nodeName": node, "containers": [{"name": "app", "image": "web:1"}]},
        "status": {"phase": "Running",
            "conditions": [{"type": "Ready", "status": "False", "lastTransitionTime": "2026-11-20T09:01:00Z"}],
            "containerStatuses": [{"name": "app", "image": "web:1", "imageID": "", "ready": false,
                "restartCount": 7, "started": false,
                "state": {"waiting": {"reason": "CrashLoopBackOff",
                    "message": format!("back-off 5m0s restarting failed container=app pod={pod}_demo(0e13ce35-90d8-4ff1-bb66-c951a1d11c01)")}},
                "lastState": {"terminated": {"exitCode": 1, "reason": "Error", "message": message,
                    "startedAt": "2026-11-20T09:10:00Z", "finishedAt": "2026-11-20T09:10:05Z"}}}]}
    }]});
    b.write(
        "cluster-resources/pods/demo.json",
        serde_json::to_string_pretty(&pod_obj).unwrap(),
    );
    let event = json!({"apiVersion": "v1", "kind": "EventList", "items": [{
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": format!("{pod}.17a3f5c2d1e0b9a8"), "namespace": "demo"},
        "involvedObject": {"apiVersion": "v1", "kind": "Pod", "namespace": "demo", "name": pod,
                           "uid": "0e13ce35-90d8-4ff1-bb66-c951a1d11c01"},
        "reason": "BackOff", "type": "Warning", "count": 7, "message": message,
        "firstTimestamp": "2026-11-20T09:01:00Z", "lastTimestamp": "2026-11-20T09:10:05Z",
        "source": {"component": "kubelet", "host": node},
    }]});
    b.write(
        "cluster-resources/events/demo.json",
        serde_json::to_string_pretty(&event).unwrap(),
    );
    b.write(
        &format!("cluster-resources/pods/logs/demo/{pod}/app-previous.log"),
        log,
    );
    b
}

/// Every output `--redact` applies to, as (what, stdout): analyze in its four formats,
/// `get -o json|yaml|wide`, events, `describe`, `logs`, `scan`.
fn outputs(b: &Scratch, pod: &str) -> Vec<(String, String)> {
    let path = b.path();
    let mut runs: Vec<(String, Vec<&str>)> = ["human", "json", "sarif", "html"]
        .iter()
        .map(|f| {
            (
                format!("analyze --format {f}"),
                vec![
                    "analyze",
                    "--fail-on",
                    "never",
                    "--redact",
                    "--format",
                    f,
                    path,
                ],
            )
        })
        .collect();
    let describe = format!("pod/{pod}");
    for (what, args) in [
        ("get -o json", vec!["get", "pods", "-A", "-o", "json"]),
        ("get -o yaml", vec!["get", "pods", "-A", "-o", "yaml"]),
        (
            "get one -o yaml",
            vec!["get", "pod", pod, "-n", "demo", "-o", "yaml"],
        ),
        ("get -o wide", vec!["get", "pods", "-A", "-o", "wide"]),
        ("get events", vec!["get", "events", "-A", "-o", "json"]),
        ("get events table", vec!["get", "events", "-A"]),
        ("get nodes -o yaml", vec!["get", "nodes", "-o", "yaml"]),
        ("describe", vec!["describe", &describe, "-n", "demo"]),
        ("logs -p", vec!["logs", pod, "-n", "demo", "-p"]),
        ("scan", vec!["scan", "--fail-on", "never"]),
    ] {
        let mut args = args;
        args.extend(["--redact", path]);
        runs.push((what.to_string(), args));
    }
    runs.into_iter()
        .map(|(what, args)| {
            let run = kdiag(&args);
            assert!(run.code == 0, "{what}: exit {}: {}", run.code, run.stderr);
            (what, run.stdout)
        })
        .collect()
}

/// What an output must be: JSON that parses (one document, or a line each for `scan`),
/// SARIF of the shape its schema asks, YAML that kdiag's YAML parser reads whole.
fn parses(what: &str, out: &str) -> Value {
    if what == "scan" {
        let lines: Vec<Value> = out
            .lines()
            .filter(|l| l.starts_with('{'))
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("scan: {e}: {l}")))
            .collect();
        assert_eq!(lines.len(), 1, "{out}");
        return lines.into_iter().next().unwrap();
    }
    if what.contains("json") || what.contains("sarif") || what == "get events" {
        let v: Value = serde_json::from_str(out).unwrap_or_else(|e| panic!("{what}: {e}\n{out}"));
        if what.contains("sarif") {
            sarif_shape(&v);
        }
        return v;
    }
    if what.contains("yaml") {
        let (docs, err) = kdiag::parse::yaml::parse(out);
        assert!(err.is_none(), "{what}: {err:?}\n{out}");
        assert_eq!(docs.len(), 1, "{what}");
        return docs.into_iter().next().unwrap().value;
    }
    if what.contains("html") {
        assert!(out.starts_with("<!doctype html>") && out.ends_with("</html>\n"));
    }
    Value::Null
}

/// The parts of SARIF 2.1.0's schema the report fills: required properties, their types,
/// and URIs that are URI references (percent-encoded).
fn sarif_shape(v: &Value) {
    assert_eq!(v["version"], "2.1.0");
    let run = &v["runs"][0];
    assert!(run["tool"]["driver"]["name"].is_string());
    for r in run["results"].as_array().expect("results") {
        assert!(
            r["ruleId"].is_string() && r["message"]["text"].is_string(),
            "{r}"
        );
        for loc in r["locations"].as_array().into_iter().flatten() {
            let uri = loc["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .expect("uri");
            assert!(
                uri.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=@:%".contains(&c)),
                "not a URI reference: {uri}"
            );
        }
    }
}

/// Every string of `v`, joined: what a parsed output says, escapes undone.
fn strings(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            out.push_str(k);
            out.push('\n');
            strings(x, out);
        }),
        _ => {}
    }
}

fn html_text(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Fails when `out` (its text, its parsed strings, its HTML text) names any of `planted`.
fn holds_none(what: &str, out: &str, parsed: &Value, planted: &[String]) {
    let mut said = String::new();
    strings(parsed, &mut said);
    let texts = [out.to_string(), said, html_text(out)];
    for p in planted {
        for t in &texts {
            let lower = t.to_ascii_lowercase();
            if let Some(at) = lower.find(&p.to_ascii_lowercase()) {
                let from = lower[..at]
                    .char_indices()
                    .rev()
                    .nth(60)
                    .map_or(0, |(i, _)| i);
                let to = (at + p.len() + 60).min(t.len());
                let to = (to..=t.len()).find(|&i| t.is_char_boundary(i)).unwrap();
                panic!("{what}: {p:?} survives --redact: …{}…", &t[from..to]);
            }
        }
    }
}

/// The red team's message: the IP, the node name and the IPv6 after a newline and a
/// tab stay unmasked when masking runs on serialized text, where `\t` glues a `t` onto
/// the host; `scan` then fell back to its unmasked line.
#[test]
fn escapes_in_a_message_hide_nothing() {
    let msg =
        "fatal:\n10.1.2.3 refused\nnode-worker-7 unreachable\tfd00:1::7 down\tvault.acme.internal";
    let b = bundle(
        "redact-escapes",
        "web-1",
        "node-worker-7",
        msg,
        "error: 10.1.2.3\n",
    );
    let planted: Vec<String> = [
        "10.1.2.3",
        "node-worker-7",
        "fd00:1::7",
        "vault.acme.internal",
    ]
    .map(String::from)
    .to_vec();
    let mut messages = Vec::new();
    for (what, out) in outputs(&b, "web-1") {
        let parsed = parses(&what, &out);
        holds_none(&what, &out, &parsed, &planted);
        assert!(
            !out.contains("\\HOST"),
            "{what}: an escape glued to a token\n{out}"
        );
        if what == "analyze --format json" {
            messages.push(
                parsed["findings"][0]["message"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            );
        }
        if what == "analyze --format sarif" {
            let text = parsed["runs"][0]["results"][0]["message"]["text"]
                .as_str()
                .unwrap();
            messages.push(text.lines().next().unwrap().to_string());
        }
    }
    // One value, one token, in every output of the run.
    assert!(messages[0].contains("fatal:\nIP-1 refused\nHOST-1 unreachable\tIP-2 down\tHOST-"));
    assert!(messages[1].starts_with(messages[0].lines().next().unwrap()));
}

/// What was left unmasked: public-TLD hosts outside URLs, an IPv6 right after `key:`,
/// prefixes, EC2 names, MACs, e-mail local parts.
#[test]
fn every_shape_is_masked() {
    let msg = "x509: certificate is valid for api.acmecorp.com, vault.acmecorp.com, not db; \
               dial postgres.acmecorp.com:5432; remote_addr:fd00:abcd::17; routes fd00::/8 and \
               64:ff9b::/96; from ip-10-20-30-40; eth0 02:42:ac:11:00:02; mail alice.smith@acmecorp.com";
    let b = bundle("redact-shapes", "web-1", "node-a", msg, "error: boot\n");
    let planted: Vec<String> = [
        "acmecorp",
        "fd00:abcd::17",
        "fd00::",
        "64:ff9b::",
        "ip-10-20-30-40",
        "02:42:ac:11:00:02",
        "alice.smith",
    ]
    .map(String::from)
    .to_vec();
    for (what, out) in outputs(&b, "web-1") {
        let parsed = parses(&what, &out);
        holds_none(&what, &out, &parsed, &planted);
    }
    let json = kdiag(&[
        "analyze",
        "--fail-on",
        "never",
        "--redact",
        "--format",
        "json",
        b.path(),
    ]);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    let message = v["findings"][0]["message"].as_str().unwrap();
    assert!(
        message.contains(
            "valid for HOST-3, HOST-6, not db; dial HOST-5:5432; remote_addr:IP-1; routes IP-2/8 and IP-3/96; from HOST-4; eth0 MAC-1; mail USER-1@HOST-2"
        ),
        "{message}"
    );
}

/// A deterministic pseudo-random generator (xorshift64*): the same cases every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }

    /// A word of `len` lower-case letters, starting `zq` (no English word does).
    fn word(&mut self, len: usize) -> String {
        let mut w = String::from("zq");
        for _ in 0..len {
            w.push((b'a' + self.below(26) as u8) as char);
        }
        w
    }

    fn octet(&mut self) -> u64 {
        1 + self.below(254)
    }

    /// A value to plant and how it stands in text (an e-mail is planted as its local
    /// part and its domain).
    fn value(&mut self) -> (String, Vec<String>) {
        let tld = self.pick(&["com", "net", "io", "org"]);
        let v = match self.below(9) {
            0 => format!("{}.{}.{tld}", self.word(3), self.word(5)),
            1 => format!("{}.{}.internal", self.word(3), self.word(4)),
            2 => format!("10.{}.{}.{}", self.octet(), self.octet(), self.octet()),
            3 => format!(
                "fd{:02x}:{:x}::{:x}",
                self.octet(),
                self.next() & 0xffff,
                self.octet()
            ),
            4 => format!(
                "2001:db8:{:x}:{:x}:{:x}:{:x}:{:x}:{:x}",
                self.next() & 0xfff,
                self.octet(),
                self.octet(),
                self.octet(),
                self.octet(),
                self.octet()
            ),
            5 => format!("fd{:02x}::", 16 + self.below(200)),
            6 => {
                let sep = if self.below(2) == 0 { ":" } else { "-" };
                let groups: Vec<String> =
                    (0..6).map(|_| format!("{:02x}", self.below(256))).collect();
                let mac = groups.join(sep);
                if self.below(2) == 0 {
                    mac.to_uppercase()
                } else {
                    mac
                }
            }
            7 => {
                let local = format!("{}.{}", self.word(3), self.word(2));
                let domain = format!("{}.{tld}", self.word(4));
                return (format!("{local}@{domain}"), vec![local, domain]);
            }
            _ => format!("ip-10-{}-{}-{}", self.octet(), self.octet(), self.octet()),
        };
        (v.clone(), vec![v])
    }

    /// Text with `n` planted values between separators of every kind: newlines, tabs,
    /// quotes, unicode, `key:` and `key=`, brackets.
    fn text(&mut self, n: usize, planted: &mut Vec<String>) -> String {
        const SEPS: &[&str] = &[
            " ",
            "\n",
            "\t",
            "\"",
            "'",
            ", ",
            "; ",
            " (",
            ") ",
            " é ",
            " 中文 ",
            " → ",
            " 🚀 ",
            "\r\n",
            " remote_addr:",
            " host=",
            " [",
            "] ",
            " `",
            "\\n",
            " error: ",
        ];
        let mut s = String::from("error:");
        for _ in 0..n {
            s.push_str(self.pick(SEPS));
            let (text, shown) = self.value();
            s.push_str(&text);
            planted.extend(shown);
            s.push_str(self.pick(SEPS));
            s.push_str(self.pick(&["failed", "dial tcp", "x509: certificate is valid for", "ok"]));
        }
        s
    }
}

/// For random messages, annotations, names and logs planted with hosts, addresses, MACs
/// and e-mails among newlines, tabs, quotes and unicode: every `--redact` output of every
/// format holds none of them, and every machine output parses.
#[test]
fn property_nothing_planted_survives_and_everything_parses() {
    for seed in [
        0x9e37_79b9_7f4a_7c15_u64,
        0x0123_4567_89ab_cdef,
        0x5bd1_e995_0000_0001,
    ] {
        let mut rng = Rng(seed);
        let mut planted = Vec::new();
        let ec2 = format!("ip-10-{}-{}-{}", rng.octet(), rng.octet(), rng.octet());
        planted.push(ec2.clone());
        let node = format!("{}.{}.internal", rng.word(4), rng.word(4));
        planted.push(node.clone());
        let pod = format!("api-{ec2}");
        let message = rng.text(12, &mut planted);
        let log: String = (0..6).map(|_| rng.text(3, &mut planted) + "\n").collect();
        let b = bundle("redact-property", &pod, &node, &message, &log);
        for (what, out) in outputs(&b, &pod) {
            let parsed = parses(&what, &out);
            holds_none(&format!("seed {seed:x}: {what}"), &out, &parsed, &planted);
        }
    }
}

/// `get -o json|yaml` go to pipes and files: DEL, C1 and bidi characters are written as
/// the serializer's escapes (`\u007f`), never the terminal's (`\x7f`, `\u{202e}`), so the
/// output parses and reads back the same value, and still holds no raw control.
#[test]
fn get_json_and_yaml_parse_whatever_a_value_holds() {
    let odd = "a\u{7f}b\u{85}c\u{202e}d\u{1}e\ttab \"q\" 'q' é";
    let pod = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "web-1", "namespace": "demo", "annotations": {"odd": odd}},
        "spec": {"containers": [{"name": "app", "image": "web:1"}]}});
    let b = Scratch::new("get-escapes");
    // The same object as JSON and as YAML (the bundle's own text is printed for YAML).
    b.write("json/pods.json", serde_json::to_string(&pod).unwrap());
    let yaml_text = format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-1\n  namespace: demo\n  annotations:\n    odd: {}\nspec:\n  containers:\n  - name: app\n    image: web:1\n",
        serde_json::to_string(odd).unwrap()
    );
    b.write("yaml/pods.yaml", yaml_text);
    for input in ["json", "yaml"] {
        let path = b.file(input);
        for redact in [false, true] {
            let mut args = vec!["get", "pod", "web-1", "-n", "demo", "-o", "json", &path];
            if redact {
                args.push("--redact");
            }
            let run = kdiag(&args);
            assert_eq!(run.code, 0, "{}", run.stderr);
            let v: Value = serde_json::from_str(&run.stdout)
                .unwrap_or_else(|e| panic!("{input}: -o json: {e}\n{}", run.stdout));
            assert_eq!(v["metadata"]["annotations"]["odd"], odd, "{input}");
            args[6] = "yaml";
            let run = kdiag(&args);
            assert_eq!(run.code, 0, "{}", run.stderr);
            let (docs, err) = kdiag::parse::yaml::parse(&run.stdout);
            assert!(err.is_none(), "{input}: -o yaml: {err:?}\n{}", run.stdout);
            assert_eq!(
                docs[0].value["metadata"]["annotations"]["odd"], odd,
                "{input}"
            );
            let out = &run.stdout;
            assert!(
                !out.chars()
                    .any(|c| matches!(c, '\u{7f}'..='\u{9f}' | '\u{202e}' | '\u{1}')),
                "{input}: a raw control reaches the output:\n{out}"
            );
        }
    }
}

/// A file named `back\slash.json` (a `\` is a name's character on Unix) is
/// `back%5Cslash.json` in SARIF, not `back/slash.json`, a file the bundle does not hold.
#[test]
fn sarif_uris_are_percent_encoded() {
    let b = bundle(
        "sarif-uri",
        "web-1",
        "node-a",
        "fatal: boom",
        "error: boom\n",
    );
    std::fs::rename(
        b.file("cluster-resources/pods/demo.json"),
        b.file("cluster-resources/pods/back\\slash.json"),
    )
    .unwrap();
    let run = kdiag(&[
        "analyze",
        "--fail-on",
        "never",
        "--format",
        "sarif",
        b.path(),
    ]);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    sarif_shape(&v);
    let uris: Vec<&str> = v["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["locations"].as_array().unwrap())
        .filter_map(|l| l["physicalLocation"]["artifactLocation"]["uri"].as_str())
        .collect();
    assert!(
        uris.contains(&"cluster-resources/pods/back%5Cslash.json"),
        "{uris:?}"
    );
}

/// `get -o wide --redact`: each cell is masked before the columns are measured, so the
/// shorter tokens (`IP-1`, `HOST-2`) leave every column where its header is.
#[test]
fn masked_tables_stay_aligned() {
    let run = kdiag(&[
        "get",
        "pods",
        "-A",
        "-o",
        "wide",
        "--redact",
        "sample-bundles/control-plane-seed.must-gather.zip",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut lines = run.stdout.lines();
    let header = lines.next().expect("header");
    // A column starts after the gap of at least two spaces ("NOMINATED NODE" is one).
    let starts: Vec<usize> = (2..header.len())
        .filter(|&i| &header[i - 2..i] == "  " && &header[i..=i] != " ")
        .collect();
    assert!(run.stdout.contains("HOST-"), "{}", run.stdout);
    for line in lines {
        for &at in &starts {
            let cell = line.get(at - 1..=at).unwrap_or("");
            assert!(
                cell.starts_with(' ') && !cell.ends_with(' '),
                "column at {at} out of line:\n{header}\n{line}"
            );
        }
    }
}

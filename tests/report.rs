//! Report formats and commands: SARIF, baseline, --redact, the explorer (get, describe),
//! batch scan and merge, and the CLI conventions (--version, --help, completions, man, -o).
//! The HTML report has its own module, `html.rs`.

use crate::{Run, json, kdiag, root, settings};
use serde_json::Value;
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const SEED: &str = "sample-bundles/control-plane-seed.list.yaml";
const KUEUE: &str = "sample-bundles/kueue/seed-quota.yaml";
const COHORT: &str = "sample-bundles/kueue/cohort-borrowing.yaml";
const TRAFFIC: &str = "sample-bundles/traffic/traffic-ingress-chain.yaml";

/// Runs kdiag with extra environment variables.
fn kdiag_env(args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kdiag"));
    cmd.args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("KDIAG_SHARD_COUNT")
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("kdiag runs");
    Run {
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().expect("kdiag exited"),
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kdiag-report-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

// ── SARIF ───────────────────────────────────────────────────────────────────────────

/// A JSON Schema (draft-07) checker for the keywords the SARIF 2.1.0 schema uses. It
/// refuses keywords and patterns it does not know, so it cannot pass by ignoring them.
mod schema {
    use serde_json::Value;

    pub fn validate(root: &Value, v: &Value) -> Vec<String> {
        let mut errs = Vec::new();
        check(root, root, v, "$", &mut errs);
        errs
    }

    fn resolve<'a>(root: &'a Value, r: &str) -> &'a Value {
        let ptr = r
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("only local $ref, got {r}"));
        root.pointer(ptr)
            .unwrap_or_else(|| panic!("dangling $ref {r}"))
    }

    fn type_ok(t: &str, v: &Value) -> bool {
        match t {
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "boolean" => v.is_boolean(),
            "null" => v.is_null(),
            "integer" => v.is_i64() || v.is_u64(),
            "number" => v.is_number(),
            other => panic!("unknown type {other}"),
        }
    }

    /// The patterns of the SARIF schema, as code.
    fn pattern_ok(p: &str, s: &str) -> bool {
        let hex = |t: &str, n: usize| t.len() == n && t.bytes().all(|c| c.is_ascii_hexdigit());
        match p {
            "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-5][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$" =>
            {
                let g: Vec<&str> = s.split('-').collect();
                g.len() == 5
                    && hex(g[0], 8)
                    && hex(g[1], 4)
                    && hex(g[2], 4)
                    && (b'1'..=b'5').contains(&g[2].as_bytes()[0])
                    && hex(g[3], 4)
                    && b"89abAB".contains(&g[3].as_bytes()[0])
                    && hex(g[4], 12)
            }
            "[0-9]+(\\.[0-9]+){3}" => s
                .split(|c: char| !c.is_ascii_digit() && c != '.')
                .any(|w| w.split('.').filter(|p| !p.is_empty()).count() >= 4),
            "[^/]+/.+" => s
                .split_once('/')
                .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty()),
            "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$" => {
                s.len() >= 2 && s.as_bytes()[..2].iter().all(u8::is_ascii_alphabetic)
            }
            other => panic!("pattern {other:?} is not known to this checker"),
        }
    }

    fn format_ok(f: &str, s: &str) -> bool {
        match f {
            // An absolute URI has a scheme.
            "uri" => s.split_once(':').is_some_and(|(scheme, _)| {
                !scheme.is_empty()
                    && scheme
                        .bytes()
                        .all(|c| c.is_ascii_alphanumeric() || b"+-.".contains(&c))
            }),
            // A reference: no spaces or other characters that must be escaped.
            "uri-reference" => {
                !s.is_empty() && !s.contains([' ', '"', '<', '>', '\\', '^', '`', '{', '|', '}'])
            }
            "date-time" => s.len() >= 20 && s.as_bytes()[4] == b'-' && s.as_bytes()[10] == b'T',
            other => panic!("format {other} is not known to this checker"),
        }
    }

    fn check(root: &Value, schema: &Value, v: &Value, at: &str, errs: &mut Vec<String>) {
        let Some(s) = schema.as_object() else {
            if schema == &Value::Bool(false) {
                errs.push(format!("{at}: not allowed"));
            }
            return;
        };
        for (k, kv) in s {
            match k.as_str() {
                "$ref" => check(root, resolve(root, kv.as_str().unwrap()), v, at, errs),
                "type" => {
                    let ok = match kv {
                        Value::String(t) => type_ok(t, v),
                        Value::Array(ts) => ts.iter().any(|t| type_ok(t.as_str().unwrap(), v)),
                        _ => panic!("odd type"),
                    };
                    if !ok {
                        errs.push(format!("{at}: expected type {kv}, got {v}"));
                    }
                }
                "enum" => {
                    if !kv.as_array().unwrap().contains(v) {
                        errs.push(format!("{at}: {v} not in {kv}"));
                    }
                }
                "required" => {
                    if let Some(o) = v.as_object() {
                        for r in kv.as_array().unwrap() {
                            if !o.contains_key(r.as_str().unwrap()) {
                                errs.push(format!("{at}: missing required {r}"));
                            }
                        }
                    }
                }
                "properties" => {
                    if let Some(o) = v.as_object() {
                        for (name, sub) in kv.as_object().unwrap() {
                            if let Some(x) = o.get(name) {
                                check(root, sub, x, &format!("{at}.{name}"), errs);
                            }
                        }
                    }
                }
                "additionalProperties" => {
                    if let Some(o) = v.as_object() {
                        let known = s.get("properties").and_then(Value::as_object);
                        for (name, x) in o {
                            if known.is_some_and(|k| k.contains_key(name)) {
                                continue;
                            }
                            match kv {
                                Value::Bool(false) => {
                                    errs.push(format!("{at}: property {name} is not allowed"))
                                }
                                Value::Bool(true) => {}
                                sub => check(root, sub, x, &format!("{at}.{name}"), errs),
                            }
                        }
                    }
                }
                "items" => {
                    if let Some(a) = v.as_array() {
                        for (i, x) in a.iter().enumerate() {
                            check(root, kv, x, &format!("{at}[{i}]"), errs);
                        }
                    }
                }
                "minItems" => {
                    if let Some(a) = v.as_array()
                        && (a.len() as u64) < kv.as_u64().unwrap()
                    {
                        errs.push(format!("{at}: fewer than {kv} items"));
                    }
                }
                "uniqueItems" => {
                    if let (Some(a), Some(true)) = (v.as_array(), kv.as_bool()) {
                        for i in 0..a.len() {
                            if a[i + 1..].contains(&a[i]) {
                                errs.push(format!("{at}: duplicate item {}", a[i]));
                            }
                        }
                    }
                }
                "minimum" => {
                    if let Some(n) = v.as_f64()
                        && n < kv.as_f64().unwrap()
                    {
                        errs.push(format!("{at}: {n} < minimum {kv}"));
                    }
                }
                "maximum" => {
                    if let Some(n) = v.as_f64()
                        && n > kv.as_f64().unwrap()
                    {
                        errs.push(format!("{at}: {n} > maximum {kv}"));
                    }
                }
                "pattern" => {
                    if let Some(x) = v.as_str()
                        && !pattern_ok(kv.as_str().unwrap(), x)
                    {
                        errs.push(format!("{at}: {x:?} does not match {kv}"));
                    }
                }
                "format" => {
                    if let Some(x) = v.as_str()
                        && !format_ok(kv.as_str().unwrap(), x)
                    {
                        errs.push(format!("{at}: {x:?} is not a {kv}"));
                    }
                }
                "anyOf" | "oneOf" => {
                    let passing = kv
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|sub| {
                            let mut e = Vec::new();
                            check(root, sub, v, at, &mut e);
                            e.is_empty()
                        })
                        .count();
                    let ok = if k == "anyOf" {
                        passing >= 1
                    } else {
                        passing == 1
                    };
                    if !ok {
                        errs.push(format!("{at}: {passing} of the {k} alternatives match"));
                    }
                }
                "description" | "default" | "title" | "$schema" | "$id" | "definitions" => {}
                other => panic!("keyword {other} is not known to this checker"),
            }
        }
    }

    #[test]
    fn the_checker_catches_what_the_schema_forbids() {
        let root: Value = serde_json::from_str(
            &std::fs::read_to_string(crate::root().join("tests/data/sarif-schema-2.1.0.json"))
                .unwrap(),
        )
        .unwrap();
        let ok = serde_json::json!({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": []}]});
        assert!(
            validate(&root, &ok).is_empty(),
            "{:?}",
            validate(&root, &ok)
        );
        for bad in [
            serde_json::json!({"version": "2.0.0", "runs": []}),
            serde_json::json!({"runs": []}),
            serde_json::json!({"version": "2.1.0", "runs": [{"tool": {}}]}),
            serde_json::json!({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]}),
            serde_json::json!({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "locations": [{"physicalLocation": {"region": {"startLine": 0}}}]}]}]}),
            serde_json::json!({"version": "2.1.0", "runs": [], "extra": 1}),
        ] {
            assert!(!validate(&root, &bad).is_empty(), "{bad} should fail");
        }
    }
}

fn sarif_schema() -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/data/sarif-schema-2.1.0.json")).unwrap(),
    )
    .unwrap()
}

#[test]
fn sarif_is_valid_and_points_where_the_json_points() {
    let schema = sarif_schema();
    for paths in [
        vec![SEED],
        vec![KUEUE, TRAFFIC],
        vec!["sample-bundles/bad-input"],
        vec!["sample-bundles/healthy.list.yaml"],
    ] {
        let mut args = vec!["analyze"];
        args.extend(&paths);
        args.extend(["--fail-on", "never"]);
        let j = json(&kdiag(&[args.as_slice(), &["--format", "json"]].concat()));
        let run = kdiag(&[args.as_slice(), &["--format", "sarif"]].concat());
        assert_eq!(run.code, 0, "{}", run.stderr);
        let s = json(&run);
        let errs = schema::validate(&schema, &s);
        assert!(
            errs.is_empty(),
            "{paths:?}: SARIF is not valid:\n{}",
            errs.join("\n")
        );

        let sarif_run = &s["runs"][0];
        let rules = sarif_run["tool"]["driver"]["rules"].as_array().unwrap();
        let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
        let listed = kdiag(&["rules"]).stdout;
        assert_eq!(
            ids.len(),
            listed.lines().count() - 1,
            "every rule of the registry (below the header) is described"
        );
        let results = sarif_run["results"].as_array().unwrap();
        let findings = j["findings"].as_array().unwrap();
        assert_eq!(results.len(), findings.len());
        for (r, f) in results.iter().zip(findings) {
            assert_eq!(r["ruleId"], f["rule"]);
            assert_eq!(
                ids[r["ruleIndex"].as_u64().unwrap() as usize],
                f["rule"].as_str().unwrap()
            );
            assert_eq!(r["partialFingerprints"]["kdiag/v1"], f["fingerprint"]);
            let level = match f["severity"].as_str().unwrap() {
                "info" => "note",
                other => other,
            };
            assert_eq!(r["level"], level);
            // The primary location is the first evidence with a file and a line.
            if let Some(e) = f["evidence"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e.get("file").is_some() && e.get("line").is_some())
            {
                let phys = &r["locations"][0]["physicalLocation"];
                assert_eq!(phys["region"]["startLine"], e["line"]);
                assert_eq!(
                    phys["artifactLocation"]["uriBaseId"],
                    format!("INPUT{}", e["input"])
                );
                let uri = phys["artifactLocation"]["uri"].as_str().unwrap();
                assert_eq!(uri.replace("%20", " "), e["file"].as_str().unwrap());
            }
        }
        let problems = j["problems"].as_array().unwrap().len();
        let notes = sarif_run["invocations"][0]["toolExecutionNotifications"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(notes, problems, "input problems are notifications");
    }
}

/// Real bundles nobody here wrote (when the workspace has them) give valid SARIF too.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn sarif_of_the_corpus_is_valid() {
    let entries = std::fs::read_dir(crate::corpus::corpus()).unwrap();
    let schema = sarif_schema();
    let mut checked = 0;
    for e in entries.filter_map(|e| e.ok()).filter(|e| e.path().is_dir()) {
        let path = e.path().display().to_string();
        let run = kdiag(&[
            "analyze",
            &path,
            "--format",
            "sarif",
            "--fail-on",
            "never",
            "--redact",
        ]);
        if run.code == 2 {
            continue; // nothing Kubernetes in it: nothing to report
        }
        let errs = schema::validate(&schema, &json(&run));
        assert!(errs.is_empty(), "{path}:\n{}", errs.join("\n"));
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn sarif_snapshot() {
    let s = json(&kdiag(&[
        "analyze",
        SEED,
        "--format",
        "sarif",
        "--fail-on",
        "never",
    ]));
    // The rule index moves whenever a rule is added; the test above checks it.
    settings().bind(|| insta::assert_json_snapshot!("report-sarif.results", s["runs"][0]["results"], {"[].ruleIndex" => "[index]"}));
}

// ── baseline ────────────────────────────────────────────────────────────────────────

#[test]
fn baseline_reports_new_and_resolved_and_fails_only_on_new() {
    let dir = temp_dir("baseline");
    let prev = dir.join("prev.json");
    let full = kdiag(&["analyze", SEED, "--format", "json", "--fail-on", "never"]);
    std::fs::write(&prev, &full.stdout).unwrap();
    let prev_s = prev.to_str().unwrap();

    // Against itself: nothing new, so errors that were already there do not fail.
    let same = kdiag(&["analyze", SEED, "--baseline", prev_s]);
    assert_eq!(same.code, 0, "{}{}", same.stdout, same.stderr);
    assert!(same.stdout.contains("0 new, 0 resolved"), "{}", same.stdout);
    assert!(same.stdout.contains("no new findings since the baseline"));

    // Against a healthy bundle's result: every finding is new.
    let healthy = dir.join("healthy.json");
    std::fs::write(
        &healthy,
        kdiag(&[
            "analyze",
            "sample-bundles/healthy.list.yaml",
            "--format",
            "json",
        ])
        .stdout,
    )
    .unwrap();
    let all_new = json(&kdiag(&[
        "analyze",
        SEED,
        "--format",
        "json",
        "--baseline",
        healthy.to_str().unwrap(),
    ]));
    assert_eq!(all_new["schema"], "kdiag.baseline/v1");
    let n = json(&full)["findings"].as_array().unwrap().len();
    assert_eq!(all_new["new"].as_array().unwrap().len(), n);
    assert_eq!(
        kdiag(&["analyze", SEED, "--baseline", healthy.to_str().unwrap()]).code,
        1
    );

    // One finding dropped from the baseline, one invented: 1 new, 1 resolved.
    let mut edited = json(&full);
    let findings = edited["findings"].as_array_mut().unwrap();
    let dropped = findings.remove(0);
    let mut invented = findings[0].clone();
    invented["fingerprint"] = Value::from("pod/stuck:Deployment:demo:gone:unschedulable");
    invented["message"] = Value::from("an old problem that is fixed now");
    invented["object"]["name"] = Value::from("gone");
    findings.push(invented);
    let edited_path = dir.join("edited.json");
    std::fs::write(&edited_path, serde_json::to_string(&edited).unwrap()).unwrap();
    let e = edited_path.to_str().unwrap();
    let b = json(&kdiag(&[
        "analyze",
        SEED,
        "--format",
        "json",
        "--baseline",
        e,
    ]));
    let new: Vec<&str> = b["new"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["fingerprint"].as_str().unwrap())
        .collect();
    assert_eq!(new, [dropped["fingerprint"].as_str().unwrap()]);
    assert_eq!(b["resolved"][0]["object"]["name"], "gone");
    assert_eq!(b["unchanged"].as_array().unwrap().len(), n - 1);
    let fail_on = |sev: &str| kdiag(&["analyze", SEED, "--baseline", e, "--fail-on", sev]).code;
    let dropped_sev = dropped["severity"].as_str().unwrap();
    assert_eq!(
        fail_on(dropped_sev),
        1,
        "the new finding is at {dropped_sev}"
    );
    assert_eq!(fail_on("never"), 0);

    // SARIF carries baselineState; the human report lists the resolved one.
    let s = json(&kdiag(&[
        "analyze",
        SEED,
        "--format",
        "sarif",
        "--baseline",
        e,
        "--fail-on",
        "never",
    ]));
    let states: Vec<&str> = s["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["baselineState"].as_str().unwrap())
        .collect();
    assert_eq!(states.iter().filter(|s| **s == "new").count(), 1);
    assert_eq!(states.iter().filter(|s| **s == "absent").count(), 1);
    assert!(schema::validate(&sarif_schema(), &s).is_empty());
    let h = kdiag(&["analyze", SEED, "--baseline", e, "--fail-on", "never"]);
    let shown = h.stdout.replace(e, "[BASELINE]");
    settings().bind(|| insta::assert_snapshot!("report-baseline.human", shown));
    let html = kdiag(&[
        "analyze",
        SEED,
        "--format",
        "html",
        "--baseline",
        e,
        "--fail-on",
        "never",
    ])
    .stdout;
    assert_eq!(
        html.matches("<span class=\"badge new\">new</span>").count(),
        1
    );
    assert!(html.contains("an old problem that is fixed now"));

    // A file that is not a kdiag result is a usage error.
    let bad = kdiag(&["analyze", SEED, "--baseline", "Cargo.toml"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("not JSON"), "{}", bad.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

// ── long lines ──────────────────────────────────────────────────────────────────────

/// One-line JSON (`kubectl get -o json | jq -c`) holds a whole List on one line. Each
/// finding quotes a window of that line around its pod, not the line, so what human and
/// HTML output write (and hold in memory) grows with the findings, not with findings ×
/// file size: 400 such pods in 2.2 MB once wrote 937 MB of HTML.
#[test]
fn one_line_json_quotes_a_window_per_finding() {
    let pods: Vec<Value> = (0..100)
        .map(|n| {
            crate::image_pull_pod(
                n,
                &format!("pull-{n}"),
                "node-b",
                &format!("registry.example.com/demo/api-b:1.4.{n}"),
            )
        })
        .collect();
    let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": pods});
    let dir = crate::Scratch::new("one-line");
    let file = dir.write("pods.json", list.to_string());
    let size = std::fs::metadata(&file).unwrap().len() as usize;
    assert!(size > 150_000, "{size}");
    for format in ["human", "html"] {
        let run = kdiag_env(
            &["analyze", &file, "--format", format, "--fail-on", "never"],
            &[("KDIAG_STATS", "1")],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(
            run.stdout.contains("pull-99"),
            "{format}: every pod is reported"
        );
        // Far below the file's size per finding (before: the whole line, each time).
        let per_finding = run.stdout.len() / 100;
        assert!(
            per_finding < 8_000,
            "{format}: {per_finding} bytes per finding, file {size} bytes"
        );
        assert!(run.stdout.contains("…"), "{format}: the cut is shown");
        let peak_mib: u64 = run
            .stderr
            .split("peak RSS ")
            .last()
            .and_then(|t| t.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no peak RSS in {}", run.stderr));
        eprintln!(
            "{format}: {} bytes, peak RSS {peak_mib} MiB",
            run.stdout.len()
        );
        assert!(peak_mib < 100, "{format}: peak RSS {peak_mib} MiB");
    }
}

// ── --redact ────────────────────────────────────────────────────────────────────────

#[test]
fn redact_masks_addresses_hosts_registries_and_labels_in_every_format() {
    // What the seed bundle holds that must not reach a public ticket.
    let secrets = [
        "10.244.",
        "10.96.",
        "node-a",
        "node-b",
        "node-c",
        "registry.example.com",
        "app=web",
        "app: web",
    ];
    for format in ["human", "json", "sarif", "html"] {
        let plain = kdiag(&["analyze", SEED, "--format", format, "--fail-on", "never"]).stdout;
        let masked = kdiag(&[
            "analyze",
            SEED,
            "--format",
            format,
            "--fail-on",
            "never",
            "--redact",
        ]);
        assert_eq!(masked.code, 0, "{}", masked.stderr);
        let seen: Vec<&&str> = secrets.iter().filter(|s| plain.contains(**s)).collect();
        assert!(
            seen.len() >= 3,
            "{format}: the plain report shows {seen:?}, the test needs more to check"
        );
        for s in &seen {
            assert!(
                !masked.stdout.contains(**s),
                "{format}: {s} survives --redact"
            );
        }
        assert!(
            masked.stdout.contains("REDACTED")
                || masked.stdout.contains("HOST-")
                || masked.stdout.contains("IP-"),
            "{format}"
        );
        if format != "human" {
            let _: Value = if format == "html" {
                Value::Null
            } else {
                serde_json::from_str(&masked.stdout).expect("still JSON")
            };
        }
    }
    let get = kdiag(&["get", "po", "-A", "-o", "wide", SEED, "--redact"]).stdout;
    assert!(!get.contains("10.244.") && !get.contains("node-a"), "{get}");
    assert!(get.contains("api-b-84d6c9f7b5-m8zrt"), "object names stay");
}

// ── explorer ────────────────────────────────────────────────────────────────────────

#[test]
fn get_lists_like_kubectl() {
    let pods = kdiag(&["get", "po", "-A", "-o", "wide", SEED]);
    assert_eq!(pods.code, 0, "{}", pods.stderr);
    settings().bind(|| insta::assert_snapshot!("report-get-pods-wide", pods.stdout));
    // Every spelling of a kind is the same kind.
    for k in ["pods", "pod", "Pod", "pods.v1"] {
        assert_eq!(
            kdiag(&["get", k, "-A", "-o", "wide", SEED]).stdout,
            pods.stdout,
            "{k}"
        );
    }
    for (short, long) in [
        ("deploy", "deployments"),
        ("svc", "services"),
        ("ns", "namespaces"),
        ("no", "nodes"),
        ("rs", "replicasets"),
        ("ev", "events"),
    ] {
        let a = kdiag(&["get", short, "-A", SEED]);
        assert_eq!(a.code, 0, "{short}: {}", a.stderr);
        assert_eq!(
            a.stdout,
            kdiag(&["get", long, "-A", SEED]).stdout,
            "{short}"
        );
        assert!(a.stdout.lines().count() > 1, "{short} lists something");
    }
    let queues = kdiag(&["get", "cq", COHORT]);
    assert_eq!(
        queues.stdout,
        kdiag(&["get", "clusterqueues.kueue.x-k8s.io", COHORT]).stdout
    );
    settings().bind(|| insta::assert_snapshot!("report-get-clusterqueues", queues.stdout));
    for k in ["kwl", "lq", "rf"] {
        let r = kdiag(&["get", k, "-A", COHORT]);
        assert!(
            r.code == 0 && r.stdout.lines().count() > 1,
            "{k}: {}{}",
            r.stdout,
            r.stderr
        );
    }
    // kubectl's default namespace, and a hint when that is empty.
    let default_ns = kdiag(&["get", "pods", SEED]);
    assert_eq!((default_ns.code, default_ns.stdout.as_str()), (0, ""));
    assert!(
        default_ns
            .stderr
            .contains("No resources found in default namespace")
            && default_ns.stderr.contains("-A"),
        "{}",
        default_ns.stderr
    );
    let demo = kdiag(&["get", "pods", "-n", "demo", SEED]).stdout;
    assert!(
        demo.starts_with("NAME ") && demo.contains("CrashLoopBackOff") && !demo.contains("coredns")
    );
    let labelled = kdiag(&["get", "pods", "-A", "-l", "app=web", SEED]).stdout;
    assert_eq!(labelled.lines().count(), 2, "{labelled}");
    assert_eq!(kdiag(&["get", "frobnicators", SEED]).code, 2);
    assert_eq!(
        kdiag(&["get", "pods", "-n", "demo", "-o", "name", SEED])
            .stdout
            .lines()
            .next(),
        Some("pod/api-a-7c9d8-x2kqp")
    );
}

#[test]
fn get_yaml_is_the_bundles_own_text_and_json_the_object() {
    let y = kdiag(&["get", "deploy/web", "-n", "demo", "-o", "yaml", SEED]);
    assert_eq!(y.code, 0, "{}", y.stderr);
    // The same lines as the bundle holds, de-indented out of the List.
    let bundle = std::fs::read_to_string(root().join(SEED)).unwrap();
    let described = kdiag(&["describe", "deploy/web", "-n", "demo", SEED]).stdout;
    let source = described
        .lines()
        .find(|l| l.starts_with("Source:"))
        .unwrap();
    let range = source.rsplit(':').next().unwrap();
    let (a, b) = range.split_once('-').unwrap();
    let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
    let original: Vec<&str> = bundle.lines().skip(a - 1).take(b - a + 1).collect();
    let indent = original[0].len() - original[0].trim_start_matches([' ', '-']).len();
    let dedented: Vec<String> = original
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end().to_string())
        .collect();
    let printed: Vec<&str> = y.stdout.lines().collect();
    assert_eq!(
        printed,
        dedented.iter().map(String::as_str).collect::<Vec<_>>()
    );
    assert!(y.stdout.starts_with("apiVersion: apps/v1\n"));
    let j = json(&kdiag(&[
        "get",
        "deploy/web",
        "-n",
        "demo",
        "-o",
        "json",
        SEED,
    ]));
    assert_eq!(
        (j["kind"].as_str(), j["metadata"]["name"].as_str()),
        (Some("Deployment"), Some("web"))
    );
    let list = json(&kdiag(&["get", "svc", "-A", "-o", "json", SEED]));
    assert_eq!(list["kind"], "List");
    assert_eq!(list["items"].as_array().unwrap().len(), 4);
    let ylist = kdiag(&["get", "svc", "-A", "-o", "yaml", SEED]).stdout;
    assert!(
        ylist.starts_with("apiVersion: v1\nitems:\n- apiVersion: v1\n")
            && ylist.ends_with("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
    );
}

#[test]
fn secrets_never_print_their_values() {
    let dir = temp_dir("secret");
    let file = dir.join("secret.yaml");
    std::fs::write(
        &file,
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: regcred\n  namespace: demo\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: '{\"data\":{\"token\":\"aHVudGVyMg==\"}}'\n\
         type: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: aHVudGVyMg==\nstringData:\n  password: hunter2\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    for args in [
        vec!["get", "secret/regcred", "-n", "demo", "-o", "yaml", f],
        vec!["get", "secrets", "-n", "demo", "-o", "yaml", f],
        vec!["get", "secret/regcred", "-n", "demo", "-o", "json", f],
        vec!["get", "secrets", "-n", "demo", "-o", "wide", f],
        vec!["describe", "secret/regcred", "-n", "demo", f],
    ] {
        let run = kdiag(&args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert!(run.stdout.contains("regcred"), "{args:?}: {}", run.stdout);
        for leak in ["aHVudGVyMg", "hunter2", "last-applied"] {
            assert!(
                !run.stdout.contains(leak),
                "{args:?} prints {leak}:\n{}",
                run.stdout
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn describe_shows_the_object_its_events_and_findings() {
    let pod = kdiag(&[
        "describe",
        "pod/worker-66b9dc7f5c-tq4vn",
        "-n",
        "demo",
        SEED,
    ]);
    assert_eq!(pod.code, 0, "{}", pod.stderr);
    settings().bind(|| insta::assert_snapshot!("report-describe-pod", pod.stdout));
    // -A finds it in whichever namespace holds it; the why syntax and short names work.
    assert_eq!(
        kdiag(&["describe", "po/worker-66b9dc7f5c-tq4vn", "-A", SEED]).stdout,
        pod.stdout
    );
    let cq = kdiag(&["describe", "cq/cq-ml", KUEUE]);
    assert_eq!(cq.code, 0, "{}", cq.stderr);
    assert!(
        cq.stdout.contains("nominalQuota") && cq.stdout.contains("Findings:"),
        "{}",
        cq.stdout
    );
    let wl = kdiag(&["describe", "kwl/job-train-d4a37", "-n", "ml", KUEUE]).stdout;
    assert!(
        wl.contains("Events:")
            && wl.contains("Pending")
            && wl.contains("kueue/quota-exceeds-capacity"),
        "{wl}"
    );
    let node = kdiag(&["describe", "no/node-b", SEED]);
    assert!(
        node.stdout
            .starts_with("Name:               node-b\nRoles:              <none>\n")
            && node.stdout.contains("\nNon-terminated Pods:"),
        "{}",
        node.stdout
    );
    assert_eq!(kdiag(&["describe", "pod/nope", SEED]).code, 2);
    assert_eq!(
        kdiag(&["describe", "pods", SEED]).code,
        2,
        "KIND/NAME or KIND NAME is required"
    );
}

// ── scan and merge ──────────────────────────────────────────────────────────────────

fn lines(run: &Run) -> Vec<Value> {
    run.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn scan_analyzes_each_bundle_and_prints_a_fleet_table() {
    // sample-bundles/ holds archives, so it is a folder of bundles: each archive, YAML
    // dump and sub-folder in it is one (the kueue/ folder of YAML dumps is one bundle).
    let run = kdiag(&["scan", "sample-bundles", "--fail-on", "never", "-j", "3"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = lines(&run);
    let paths: Vec<&str> = out.iter().map(|l| l["path"].as_str().unwrap()).collect();
    for p in [
        "sample-bundles/control-plane-seed.must-gather.zip",
        "sample-bundles/control-plane-seed.troubleshoot.tar.gz",
        "sample-bundles/healthy.list.yaml",
        "sample-bundles/kueue",
        "sample-bundles/bad-input",
    ] {
        assert!(paths.contains(&p), "{p} not scanned: {paths:?}");
    }
    assert!(
        !paths
            .iter()
            .any(|p| p.ends_with(".md") || p.ends_with(".py")),
        "{paths:?}"
    );
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted, "lines come in path order");
    let seed_layouts: BTreeSet<&str> = out
        .iter()
        .filter(|l| l["path"].as_str().unwrap().contains("control-plane-seed"))
        .map(|l| l["layout"].as_str().unwrap())
        .collect();
    assert!(
        seed_layouts.contains("must-gather") && seed_layouts.contains("troubleshoot"),
        "{seed_layouts:?}"
    );
    let run = kdiag(&[
        "scan",
        "sample-bundles/kueue/*.yaml",
        SEED,
        "--fail-on",
        "never",
    ]);
    let out = lines(&run);
    let kueue_files = std::fs::read_dir(root().join("sample-bundles/kueue"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".yaml")
        })
        .count();
    assert_eq!(
        out.len(),
        kueue_files + 1,
        "each YAML dump of the glob, plus the seed"
    );
    // Each line agrees with analyzing that bundle alone.
    for l in &out {
        let alone = json(&kdiag(&[
            "analyze",
            l["path"].as_str().unwrap(),
            "--format",
            "json",
            "--fail-on",
            "never",
        ]));
        let f = alone["findings"].as_array().unwrap();
        assert_eq!(
            l["findings"].as_u64().unwrap() as usize,
            f.len(),
            "{}",
            l["path"]
        );
        assert_eq!(l["layout"], alone["inputs"][0]["layout"]);
        for (k, top) in l["top"].as_array().unwrap().iter().enumerate() {
            assert_eq!(top["fingerprint"], f[k]["fingerprint"]);
        }
        let rule_total: u64 = l["rules"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(rule_total as usize, f.len());
    }
    // The fleet table (stderr) counts bundles per rule.
    assert!(
        run.stderr
            .starts_with(&format!("fleet: {} bundle(s)", out.len())),
        "{}",
        run.stderr
    );
    let fired: BTreeSet<&str> = out
        .iter()
        .flat_map(|l| l["rules"].as_object().unwrap().keys().map(String::as_str))
        .collect();
    assert!(fired.len() > 3, "{fired:?}");
    for rule in fired {
        let bundles = out
            .iter()
            .filter(|l| l["rules"].get(rule).is_some())
            .count();
        let findings: u64 = out.iter().filter_map(|l| l["rules"][rule].as_u64()).sum();
        let row = run
            .stderr
            .lines()
            .find(|l| l.starts_with(&format!("{rule} ")))
            .expect("a row per rule");
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            cells[cells.len() - 2..],
            [format!("{bundles}/{}", out.len()), findings.to_string()],
            "{row}"
        );
    }
    // Errors fail the scan by default.
    assert_eq!(kdiag(&["scan", SEED, "--no-table"]).code, 1);
    assert_eq!(kdiag(&["scan", "no/such/dir"]).code, 2);
}

#[test]
fn scan_globs_and_shards() {
    let all = lines(&kdiag(&[
        "scan",
        "sample-bundles/kueue/*.yaml",
        "--fail-on",
        "never",
        "--no-table",
    ]));
    let q = lines(&kdiag(&[
        "scan",
        "sample-bundles/kueue/?ueue-*.yaml",
        "sample-bundles/kueue/*-f*.yaml",
        "--fail-on",
        "never",
    ]));
    let q_paths: Vec<&str> = q.iter().map(|l| l["path"].as_str().unwrap()).collect();
    assert!(
        q_paths.iter().all(|p| Path::new(p)
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .contains("-f")),
        "{q_paths:?}"
    );
    assert!(!q_paths.is_empty());
    // Three shards by flag, and by the Indexed Job's environment: a partition of the list.
    let mut seen = Vec::new();
    let dir = temp_dir("shards");
    for i in 0..3 {
        let by_flag = kdiag_env(
            &[
                "scan",
                "sample-bundles/kueue/*.yaml",
                "--shard",
                &format!("{i}/3"),
                "--fail-on",
                "never",
                "--no-table",
            ],
            &[],
        );
        let by_env = kdiag_env(
            &[
                "scan",
                "sample-bundles/kueue/*.yaml",
                "--fail-on",
                "never",
                "--no-table",
            ],
            &[
                ("JOB_COMPLETION_INDEX", &i.to_string()),
                ("KDIAG_SHARD_COUNT", "3"),
            ],
        );
        assert_eq!(by_flag.stdout, by_env.stdout);
        std::fs::write(dir.join(format!("shard-{i}.jsonl")), &by_flag.stdout).unwrap();
        seen.extend(
            lines(&by_flag)
                .into_iter()
                .map(|l| l["path"].as_str().unwrap().to_string()),
        );
    }
    let all_paths: Vec<String> = all
        .iter()
        .map(|l| l["path"].as_str().unwrap().to_string())
        .collect();
    let mut sorted_seen = seen.clone();
    sorted_seen.sort();
    assert_eq!(sorted_seen, all_paths, "the shards cover every bundle once");
    assert_eq!(seen.iter().collect::<HashSet<_>>().len(), seen.len());
    let missing_count = kdiag_env(
        &["scan", "sample-bundles/kueue"],
        &[("JOB_COMPLETION_INDEX", "1")],
    );
    assert_eq!(missing_count.code, 2);
    assert!(missing_count.stderr.contains("KDIAG_SHARD_COUNT"));
    // merge: the shards' table equals the full scan's.
    let full = kdiag(&["scan", "sample-bundles/kueue/*.yaml", "--fail-on", "never"]);
    let shard_files: Vec<String> = (0..3)
        .map(|i| dir.join(format!("shard-{i}.jsonl")).display().to_string())
        .collect();
    let mut args = vec!["merge"];
    args.extend(shard_files.iter().map(String::as_str));
    let merged = kdiag(&args);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(
        merged.stdout, full.stderr,
        "merge prints the same fleet table"
    );
    let fleet = json(&kdiag(&[args.as_slice(), &["--format", "json"]].concat()));
    assert_eq!(fleet["schema"], "kdiag.fleet/v1");
    assert_eq!(fleet["bundles"].as_u64().unwrap() as usize, all.len());
    let jsonl = kdiag(&[args.as_slice(), &["--format", "jsonl"]].concat()).stdout;
    assert_eq!(jsonl.lines().count(), all.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_tolerates_noise_and_retried_shards() {
    let dir = temp_dir("merge");
    let a = dir.join("shard-0.jsonl");
    let b = dir.join("shard-1.jsonl");
    std::fs::write(
        &a,
        "{\"path\":\"b1\",\"findings\":3,\"stages\":{\"queue\":2,\"node\":1},\"rules\":{\"kueue/quota-in-use\":2,\"node/image-pull\":1}}\n\
         progress noise that is not JSON\n\
         {\"path\":\"b2\",\"findings\":0,\"stages\":{},\"rules\":{}}\n",
    )
    .unwrap();
    std::fs::write(
        &b,
        "{\"path\":\"b3\",\"error\":\"cannot read\"}\n\
         {\"path\":\"b2\",\"findings\":1,\"stages\":{\"node\":1},\"rules\":{\"node/image-pull\":1}}\n",
    )
    .unwrap();
    let run = kdiag(&["merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    settings().bind(|| insta::assert_snapshot!("report-fleet-table", run.stdout));
    let fleet = json(&kdiag(&[
        "merge",
        "--format",
        "json",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]));
    assert_eq!(fleet["bundles"], 3, "b2 counted once, its later line kept");
    assert_eq!(fleet["rules"]["node/image-pull"]["bundles"], 2);
    assert_eq!(fleet["unreadable"], serde_json::json!(["b3"]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_example_indexed_job_is_consistent() {
    let job = json(&kdiag(&[
        "get",
        "job/kdiag-scan",
        "-o",
        "json",
        "docs/scan-job.yaml",
    ]));
    assert_eq!(job["spec"]["completionMode"], "Indexed");
    let completions = job["spec"]["completions"].as_i64().unwrap();
    let c = &job["spec"]["template"]["spec"]["containers"][0];
    let env = c["env"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "KDIAG_SHARD_COUNT")
        .expect("KDIAG_SHARD_COUNT is set");
    assert_eq!(
        env["value"].as_str().unwrap().parse::<i64>().unwrap(),
        completions
    );
    let script = c["args"][0].as_str().unwrap();
    assert!(
        script.contains("kdiag scan") && script.contains("JOB_COMPLETION_INDEX"),
        "{script}"
    );
    assert!(
        std::fs::read_to_string(root().join("docs/scan.md"))
            .unwrap()
            .contains("kdiag merge")
    );
}

// ── CLI conventions ─────────────────────────────────────────────────────────────────

#[test]
fn version_help_completions_and_man() {
    let v = kdiag(&["--version"]);
    assert_eq!(
        (v.code, v.stdout.trim()),
        (0, format!("kdiag {}", env!("CARGO_PKG_VERSION")).as_str())
    );
    let help = kdiag(&["--help"]);
    assert_eq!(help.code, 0);
    for word in [
        "Examples:",
        "analyze",
        "get",
        "describe",
        "scan",
        "merge",
        "completions",
        "man",
        "why",
    ] {
        assert!(help.stdout.contains(word), "--help lacks {word}");
    }
    for sub in ["analyze", "get", "describe", "scan"] {
        assert!(
            kdiag(&[sub, "--help"]).stdout.contains("Examples:"),
            "{sub} --help has examples"
        );
    }
    let bash = kdiag(&["completions", "bash"]);
    assert!(bash.code == 0 && bash.stdout.contains("_kdiag()") && bash.stdout.contains("describe"));
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let r = kdiag(&["completions", shell]);
        assert!(r.code == 0 && r.stdout.contains("kdiag"), "{shell}");
    }
    assert_eq!(kdiag(&["completions", "tcsh"]).code, 2);
    let man = kdiag(&["man"]);
    assert!(
        man.stdout.starts_with(".ie") || man.stdout.contains(".TH kdiag"),
        "{}",
        &man.stdout[..200.min(man.stdout.len())]
    );
    assert!(man.stdout.contains("analyze"));
    let dir = temp_dir("man");
    assert_eq!(kdiag(&["man", "--dir", dir.to_str().unwrap()]).code, 0);
    let page = std::fs::read_to_string(dir.join("kdiag-scan.1")).unwrap();
    assert!(page.contains(".TH kdiag-scan") && page.contains("shard"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_file_and_progress_stay_out_of_stdout() {
    let dir = temp_dir("out");
    let file = dir.join("r.sarif");
    let run = kdiag(&[
        "analyze",
        SEED,
        "--format",
        "sarif",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "the exit status still follows --fail-on");
    assert_eq!(run.stdout, "", "the report goes to the file");
    // No progress when stderr is not a terminal; only what was written.
    assert_eq!(
        run.stderr,
        format!("wrote {}: 6 findings\n", file.display())
    );
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["version"], "2.1.0");
    std::fs::remove_dir_all(&dir).unwrap();
}

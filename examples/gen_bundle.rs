//! Generates a large, realistic support bundle for benchmarking `kdiag analyze`.
//!
//! Usage:
//!   cargo run --release --example gen_bundle -- OUT_DIR [--pods 20000] [--nodes 300]
//!       [--events 40000] [--namespaces N] [--workloads N] [--seed 1] [--zip] [--troubleshoot-tgz]
//!       [--pyyaml]
//!
//! Writes an OpenShift must-gather-shaped tree at OUT_DIR; `--zip` also writes
//! `<OUT_DIR>.zip` (top folder inside), `--troubleshoot-tgz` also writes
//! `<OUT_DIR>.troubleshoot.tar.gz` (the same cluster in Replicated troubleshoot layout).
//! A small manifest with sizes is written next to it as `<OUT_DIR>.gen.json`.
//! Output is deterministic for a given set of arguments.
//!
//! `--pyyaml` writes the YAML as PyYAML's `yaml.safe_dump` does (a YAML 1.1 writer):
//! strings quoted only where YAML 1.1 would read them as something else, so `00000008`,
//! `1e3` or `0o17` stay plain, and long plain strings folded over lines; and every
//! ReplicaSet's `pod-template-hash` is digits with leading zeros (`000000008`), as a
//! hash of digits only reads as a number in YAML 1.2.

use serde::Serialize;
use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{SyncSender, sync_channel};
use std::thread;
use std::time::Instant;

// ---------------------------------------------------------------------------
// PRNG (xorshift64*)

struct Rng(u64);

const K8S_ALNUM: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

impl Rng {
    fn new(seed: u64) -> Self {
        let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03);
        if r.0 == 0 {
            r.0 = 1;
        }
        for _ in 0..8 {
            r.next();
        }
        r
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
    /// Uniform in [lo, hi).
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            lo
        } else {
            lo + self.below((hi - lo) as u64) as i64
        }
    }
    fn f64(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn chance(&mut self, p: f64) -> bool {
        self.f64() < p
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
    fn hex(&mut self, n: usize) -> String {
        const H: &[u8] = b"0123456789abcdef";
        (0..n).map(|_| H[self.below(16) as usize] as char).collect()
    }
    fn suffix(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| K8S_ALNUM[self.below(K8S_ALNUM.len() as u64) as usize] as char)
            .collect()
    }
    fn uid(&mut self) -> String {
        format!(
            "{}-{}-{}-{}-{}",
            self.hex(8),
            self.hex(4),
            self.hex(4),
            self.hex(4),
            self.hex(12)
        )
    }
}

// ---------------------------------------------------------------------------
// Time

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// RFC 3339 UTC, second precision, as Kubernetes prints it.
fn ts(t: i64) -> String {
    let (y, m, d) = civil_from_days(t.div_euclid(86_400));
    let s = t.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

// ---------------------------------------------------------------------------
// YAML emitter (block style, as kubectl / sigs.k8s.io/yaml prints it)

/// Write YAML as PyYAML does (`--pyyaml`).
static PYYAML: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn pyyaml() -> bool {
    PYYAML.load(std::sync::atomic::Ordering::Relaxed)
}

/// Whether PyYAML quotes `s`: where YAML 1.1's resolvers read it as other than a string
/// (bools such as `on`, ints in 1.1's forms, floats with a dot, timestamps, null) or its
/// syntax needs it. `00000008`, `1e3` and `0o17` are strings in YAML 1.1: left plain.
fn needs_quote_11(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(&first) = b.first() else {
        return true;
    };
    if b"-?:,[]{}#&*!|>'\"%@` \t".contains(&first) {
        // `-5` is an int, `-x` plain: keep it simple and quote all but `-` + digit forms.
        return !(first == b'-' && b.len() > 1 && !needs_quote_11(&s[1..]) && b[1] != b' ');
    }
    let last = b[b.len() - 1];
    if last == b' ' || last == b'\t' || last == b':' {
        return true;
    }
    if s.contains(": ") || s.contains(" #") || b.iter().any(|c| *c < 0x20 || *c == 0x7f) {
        return true;
    }
    let lower = s.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "null" | "~" | "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | ".inf" | ".nan"
    ) {
        return true;
    }
    let t: String = s.chars().filter(|c| *c != '_').collect();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(&t);
    let all = |x: &str, f: fn(&u8) -> bool| !x.is_empty() && x.as_bytes().iter().all(f);
    // 1.1 ints: 0b…, 0… octal, decimal without a leading zero, 0x…, sexagesimal.
    if let Some(r) = digits.strip_prefix("0b") {
        return all(r, |c| matches!(c, b'0' | b'1'));
    }
    if let Some(r) = digits.strip_prefix("0x") {
        return all(r, u8::is_ascii_hexdigit);
    }
    if digits == "0" || (all(digits, u8::is_ascii_digit) && !digits.starts_with('0')) {
        return true;
    }
    if digits.starts_with('0') && all(&digits[1..], |c| (b'0'..=b'7').contains(c)) {
        return true;
    }
    if digits.contains(':') && all(digits, |c| c.is_ascii_digit() || *c == b':' || *c == b'.') {
        return true;
    }
    // 1.1 floats need a dot: `1.5`, `.5`, `1.5e+3`.
    if digits.contains('.')
        && all(digits, |c| {
            c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'-' | b'+')
        })
        && t.parse::<f64>().is_ok()
    {
        return true;
    }
    // Timestamps: `2026-11-20…`.
    b.len() >= 8 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-'
}

/// A plain string as PyYAML writes a long one: folded at spaces past column 80, each
/// further line indented under its key.
fn folded(out: &mut Vec<u8>, s: &str, indent: usize) {
    let mut col = indent;
    for (i, word) in s.split(' ').enumerate() {
        if i > 0 {
            if col > 80 && !word.is_empty() {
                out.push(b'\n');
                pad(out, indent + 2);
                col = indent + 2;
            } else {
                out.push(b' ');
                col += 1;
            }
        }
        out.extend_from_slice(word.as_bytes());
        col += word.len();
    }
}

/// A double-quoted string as PyYAML writes a long one: folded at a single space past
/// column 80 (a line break between two words reads as one space).
fn dq_folded(out: &mut Vec<u8>, s: &str, indent: usize) {
    let mut one = Vec::new();
    dq(&mut one, s);
    let mut col = indent;
    let bytes = &one;
    for (i, &c) in bytes.iter().enumerate() {
        let lone_space = c == b' '
            && i > 0
            && bytes[i - 1] != b' '
            && bytes.get(i + 1).is_some_and(|n| *n != b' ' && *n != b'"');
        if lone_space && col > 80 {
            out.push(b'\n');
            pad(out, indent + 2);
            col = indent + 2;
            continue;
        }
        out.push(c);
        col += 1;
    }
}

fn needs_quote(s: &str) -> bool {
    if pyyaml() {
        return needs_quote_11(s);
    }
    let b = s.as_bytes();
    let Some(&first) = b.first() else {
        return true;
    };
    if b"-?:,[]{}#&*!|>'\"%@` \t".contains(&first) {
        return true;
    }
    let last = b[b.len() - 1];
    if last == b' ' || last == b'\t' || last == b':' {
        return true;
    }
    if s.contains(": ") || s.contains(" #") || b.iter().any(|c| *c < 0x20 || *c == 0x7f) {
        return true;
    }
    let lower = if b.len() <= 5 {
        s.to_ascii_lowercase()
    } else {
        String::new()
    };
    if matches!(
        lower.as_str(),
        "null" | "~" | "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | ".inf" | ".nan"
    ) {
        return true;
    }
    if first.is_ascii_digit() || first == b'+' || first == b'.' {
        let t: String = s.chars().filter(|c| *c != '_').collect();
        if t.parse::<f64>().is_ok() || t.parse::<i64>().is_ok() {
            return true;
        }
        if b.len() > 2 && b[0] == b'0' && matches!(b[1], b'x' | b'X' | b'o' | b'O' | b'b' | b'B') {
            return true;
        }
        if s.contains(':')
            && b.iter()
                .all(|c| c.is_ascii_digit() || *c == b':' || *c == b'.')
        {
            return true;
        }
        if b.len() >= 5 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-' {
            return true;
        }
    }
    false
}

fn pad(out: &mut Vec<u8>, n: usize) {
    out.resize(out.len() + n, b' ');
}

fn dq(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    for ch in s.chars() {
        match ch {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\t' => out.extend_from_slice(b"\\t"),
            c if (c as u32) < 0x20 || c == '\x7f' => {
                out.extend_from_slice(format!("\\x{:02X}", c as u32).as_bytes())
            }
            c => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    out.push(b'"');
}

/// Multi-line strings go out as literal block scalars (`|-`), like go-yaml does.
fn block_ok(s: &str) -> bool {
    s.contains('\n')
        && !s.starts_with([' ', '\n'])
        && !s.ends_with("\n\n")
        && s.lines().all(|l| !l.ends_with([' ', '\t']))
        && !s.bytes().any(|c| (c < 0x20 && c != b'\n') || c == 0x7f)
}

fn y_str(out: &mut Vec<u8>, s: &str, indent: usize) {
    if block_ok(s) {
        let body = s.strip_suffix('\n');
        out.extend_from_slice(if body.is_some() { b"|" } else { b"|-" });
        for line in body.unwrap_or(s).split('\n') {
            out.push(b'\n');
            if !line.is_empty() {
                pad(out, indent + 2);
                out.extend_from_slice(line.as_bytes());
            }
        }
    } else if needs_quote(s) && pyyaml() && s.len() > 60 {
        dq_folded(out, s, indent);
    } else if needs_quote(s) {
        dq(out, s);
    } else if pyyaml() && s.len() > 60 && !s.contains("  ") {
        folded(out, s, indent);
    } else {
        out.extend_from_slice(s.as_bytes());
    }
}

fn y_scalar(out: &mut Vec<u8>, v: &Value, indent: usize) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Value::Number(n) => out.extend_from_slice(n.to_string().as_bytes()),
        Value::String(s) => y_str(out, s, indent),
        _ => unreachable!(),
    }
}

fn y_map(
    out: &mut Vec<u8>,
    m: &Map<String, Value>,
    indent: usize,
    mut inline: bool,
    skip_kind: bool,
) {
    for (k, v) in m {
        if skip_kind && (k == "kind" || k == "apiVersion") {
            continue;
        }
        if inline {
            inline = false;
        } else {
            pad(out, indent);
        }
        if needs_quote(k) {
            dq(out, k);
        } else {
            out.extend_from_slice(k.as_bytes());
        }
        out.push(b':');
        match v {
            Value::Object(o) if o.is_empty() => out.extend_from_slice(b" {}\n"),
            Value::Object(o) => {
                out.push(b'\n');
                y_map(out, o, indent + 2, false, false);
            }
            Value::Array(a) if a.is_empty() => out.extend_from_slice(b" []\n"),
            Value::Array(a) => {
                out.push(b'\n');
                y_seq(out, a, indent, false, false);
            }
            s => {
                out.push(b' ');
                y_scalar(out, s, indent);
                out.push(b'\n');
            }
        }
    }
}

fn y_seq(out: &mut Vec<u8>, a: &[Value], indent: usize, mut inline: bool, skip_kind: bool) {
    for v in a {
        if inline {
            inline = false;
        } else {
            pad(out, indent);
        }
        out.extend_from_slice(b"- ");
        match v {
            Value::Object(o) if o.is_empty() => out.extend_from_slice(b"{}\n"),
            Value::Object(o) => y_map(out, o, indent + 2, true, skip_kind),
            Value::Array(x) if x.is_empty() => out.extend_from_slice(b"[]\n"),
            Value::Array(x) => y_seq(out, x, indent + 2, true, false),
            s => {
                y_scalar(out, s, indent);
                out.push(b'\n');
            }
        }
    }
}

fn yaml_doc(v: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 * 1024);
    y_map(&mut out, v.as_object().unwrap(), 0, false, false);
    out
}

/// A must-gather list file: items carry no kind/apiVersion.
fn yaml_list(api: &str, kind: &str, items: &[Value], rv: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(items.len() * 6 * 1024 + 128);
    out.extend_from_slice(format!("apiVersion: {api}\n").as_bytes());
    if items.is_empty() {
        out.extend_from_slice(b"items: []\n");
    } else {
        out.extend_from_slice(b"items:\n");
        y_seq(&mut out, items, 0, false, true);
    }
    out.extend_from_slice(
        format!("kind: {kind}\nmetadata:\n  resourceVersion: \"{rv}\"\n").as_bytes(),
    );
    out
}

#[derive(Serialize)]
struct ListRef<'a> {
    kind: &'a str,
    #[serde(rename = "apiVersion")]
    api_version: &'a str,
    metadata: Value,
    items: &'a [Value],
}

fn json_list(api: &str, kind: &str, items: &[Value], rv: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(items.len() * 8 * 1024 + 128);
    let list = ListRef {
        kind,
        api_version: api,
        metadata: json!({ "resourceVersion": rv.to_string() }),
        items,
    };
    serde_json::to_writer_pretty(&mut out, &list).unwrap();
    out.push(b'\n');
    out
}

// ---------------------------------------------------------------------------
// managedFields: fieldsV1 trees derived from the object itself

fn item_key(v: &Value) -> Option<String> {
    let o = v.as_object()?;
    const KEYS: &[&[&str]] = &[
        &["containerPort", "protocol"],
        &["port", "protocol"],
        &["mountPath"],
        &["uid"],
        &["name"],
        &["type"],
        &["ip"],
    ];
    for keys in KEYS {
        if keys.iter().all(|k| o.contains_key(*k)) {
            let parts: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", serde_json::to_string(k).unwrap(), o[*k]))
                .collect();
            return Some(format!("k:{{{}}}", parts.join(",")));
        }
    }
    None
}

const ATOMIC: &[&str] = &[
    "containerStatuses",
    "tolerations",
    "command",
    "args",
    "finalizers",
    "drop",
];

fn ftree(m: &Map<String, Value>, depth: usize) -> Map<String, Value> {
    m.iter()
        .map(|(k, v)| (format!("f:{k}"), fnode(k, v, depth)))
        .collect()
}

/// The fieldsV1 node of one field; below `depth` levels everything is `{}`.
fn fnode(key: &str, v: &Value, depth: usize) -> Value {
    if depth == 0 {
        return json!({});
    }
    match v {
        Value::Object(o) if !o.is_empty() => {
            let mut t = ftree(o, depth - 1);
            t.insert(".".into(), json!({}));
            Value::Object(t)
        }
        Value::Array(a) if !ATOMIC.contains(&key) && a.first().and_then(item_key).is_some() => {
            let mut t = Map::new();
            t.insert(".".into(), json!({}));
            for it in a {
                if let Some(k) = item_key(it) {
                    t.insert(k, fnode("", it, depth - 1));
                }
            }
            Value::Object(t)
        }
        _ => json!({}),
    }
}

/// `{f:a: ..., f:b: ...}` over the chosen top-level fields of `obj`.
fn obj(kv: Vec<(&str, Value)>) -> Value {
    Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn fields_of(obj: &Value, keys: &[&str]) -> Value {
    fields_of_depth(obj, keys, usize::MAX)
}

fn fields_of_depth(obj: &Value, keys: &[&str], depth: usize) -> Value {
    let mut t = Map::new();
    for k in keys {
        if let Some(v) = obj.get(*k) {
            t.insert(format!("f:{k}"), fnode(k, v, depth));
        }
    }
    Value::Object(t)
}

fn mf(api: &str, manager: &str, op: &str, sub: Option<&str>, time: i64, fields: Value) -> Value {
    let mut e = json!({
        "apiVersion": api,
        "fieldsType": "FieldsV1",
                "fieldsV1": null,
        "manager": manager,
        "operation": op,
        "time": ts(time),
    });
    e["fieldsV1"] = fields;
    if let Some(s) = sub {
        e["subresource"] = json!(s);
    }
    e
}

// ---------------------------------------------------------------------------
// Cluster model

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Healthy,
    Unschedulable,
    ImagePull,
    CrashLoop,
    NotReady,
}

struct Node {
    name: String,
    ip: String,
}

struct PodRef {
    name: String,
    uid: String,
    node: Option<String>,
    ip: Option<String>,
    state: State,
    containers: Vec<(String, String)>, // (name, image)
    created: i64,
    restarts: i64,
}

#[derive(Default)]
struct NsData {
    ns: String,
    pods: Vec<Value>,
    pod_files: Vec<usize>,
    events: Vec<Value>,
    deployments: Vec<Value>,
    replicasets: Vec<Value>,
    services: Vec<Value>,
    endpointslices: Vec<Value>,
    jobs: Vec<Value>,
    workloads: Vec<Value>,
    localqueues: Vec<Value>,
}

struct Gen {
    rng: Rng,
    now: i64,
    rv: u64,
    pod_ip: u64,
    svc_ip: u64,
    nodes: Vec<Node>,
    schedulable: Vec<usize>,
    n_nodes: usize,
    counts: [u64; 5],
    wl_admitted: u64,
}

impl Gen {
    fn rv(&mut self) -> String {
        self.rv += 1 + self.rng.below(7);
        self.rv.to_string()
    }
    fn next_pod_ip(&mut self) -> String {
        let c = self.pod_ip;
        self.pod_ip += 1;
        format!("10.{}.{}.{}", 128 + (c >> 16), (c >> 8) & 255, c & 255)
    }
    fn pick_node(&mut self) -> (String, String) {
        let i = *self.rng.pick(&self.schedulable);
        (self.nodes[i].name.clone(), self.nodes[i].ip.clone())
    }
}

const TEAM_WORDS: &[&str] = &[
    "ml-training",
    "data-pipeline",
    "batch-jobs",
    "payments",
    "checkout",
    "catalog",
    "search",
    "identity",
    "billing",
    "inventory",
    "orders",
    "notify",
    "gateway",
    "profiles",
    "recs",
    "analytics",
    "media",
    "cart",
    "shipping",
    "pricing",
    "reviews",
    "ledger",
    "reporting",
    "fraud",
    "loyalty",
];
const KUEUE_WORDS: usize = 3;
const ENVS: &[&str] = &["prod", "staging", "dev", "qa"];
const SVC_WORDS: &[&str] = &[
    "api",
    "worker",
    "web",
    "consumer",
    "scheduler",
    "cache",
    "proxy",
    "sync",
    "exporter",
    "indexer",
    "frontend",
    "backend",
    "grpc",
    "events",
    "cron",
];
const SVC_PREFIX: &[&str] = &[
    "order", "user", "cart", "price", "stock", "mail", "auth", "report", "ledger", "quote",
    "image", "session", "audit", "feed", "geo", "rank",
];
const JOB_WORDS: &[&str] = &[
    "train-resnet",
    "train-bert",
    "eval-llm",
    "etl-daily",
    "feature-build",
    "hpo-sweep",
    "embed-index",
    "tokenize-corpus",
];

fn ns_name(i: usize) -> String {
    let w = TEAM_WORDS[i % TEAM_WORDS.len()];
    let e = ENVS[(i / TEAM_WORDS.len()) % ENVS.len()];
    let round = i / (TEAM_WORDS.len() * ENVS.len());
    if round == 0 {
        format!("{w}-{e}")
    } else {
        format!("{w}-{e}-{round}")
    }
}

fn pick_state(rng: &mut Rng) -> State {
    let r = rng.f64();
    if r < 0.95 {
        State::Healthy
    } else {
        let r = (r - 0.95) / 0.05;
        if r < 0.30 {
            State::Unschedulable
        } else if r < 0.55 {
            State::ImagePull
        } else if r < 0.80 {
            State::CrashLoop
        } else {
            State::NotReady
        }
    }
}

// ---------------------------------------------------------------------------
// Nodes & namespaces

fn build_node(g: &mut Gen, i: usize, n: usize) -> Value {
    let name = g.nodes[i].name.clone();
    let ip = g.nodes[i].ip.clone();
    let zone = ["us-east-2a", "us-east-2b", "us-east-2c"][i % 3];
    let master = n >= 6 && i < 3;
    let gpu = !master && n >= 40 && i % 40 == 20;
    let not_ready = n >= 10 && i == n - 1;
    let created = g.now - 86_400 * 120 - g.rng.range(0, 86_400);
    let itype = if master {
        "m6i.xlarge"
    } else if gpu {
        "g5.12xlarge"
    } else {
        "m6i.4xlarge"
    };
    let mut labels = json!({
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/instance-type": itype,
        "beta.kubernetes.io/os": "linux",
        "failure-domain.beta.kubernetes.io/region": "us-east-2",
        "failure-domain.beta.kubernetes.io/zone": zone,
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name.split('.').next().unwrap(),
        "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": itype,
        "node.openshift.io/os_id": "rhcos",
        "topology.ebs.csi.aws.com/zone": zone,
        "topology.kubernetes.io/region": "us-east-2",
        "topology.kubernetes.io/zone": zone,
    });
    let mut taints = vec![];
    if master {
        labels["node-role.kubernetes.io/control-plane"] = json!("");
        labels["node-role.kubernetes.io/master"] = json!("");
        taints.push(json!({"effect": "NoSchedule", "key": "node-role.kubernetes.io/master"}));
    } else {
        labels["node-role.kubernetes.io/worker"] = json!("");
    }
    if gpu {
        labels["nvidia.com/gpu.present"] = json!("true");
        labels["nvidia.com/gpu.product"] = json!("NVIDIA-A10G");
        taints.push(json!({"effect": "NoSchedule", "key": "nvidia.com/gpu", "value": "present"}));
    }
    if not_ready {
        taints.push(json!({"effect": "NoSchedule", "key": "node.kubernetes.io/unreachable", "timeAdded": ts(g.now - 1800)}));
        taints.push(json!({"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "timeAdded": ts(g.now - 1795)}));
    }
    let (cpu, alloc_cpu, mem, alloc_mem) = if master {
        ("4", "3500m", "16092196Ki", "14941220Ki")
    } else if gpu {
        ("48", "47500m", "195784328Ki", "194633352Ki")
    } else {
        ("16", "15500m", "64992340Ki", "63841364Ki")
    };
    let mut capacity = json!({
        "cpu": cpu, "ephemeral-storage": "125293548Ki", "hugepages-1Gi": "0",
        "hugepages-2Mi": "0", "memory": mem, "pods": "250",
    });
    let mut allocatable = json!({
        "cpu": alloc_cpu, "ephemeral-storage": "114396791822", "hugepages-1Gi": "0",
        "hugepages-2Mi": "0", "memory": alloc_mem, "pods": "250",
    });
    if gpu {
        capacity["nvidia.com/gpu"] = json!("4");
        allocatable["nvidia.com/gpu"] = json!("4");
    }
    let hb = g.now - g.rng.range(5, 60);
    let cond = |t: &str, st: &str, reason: &str, msg: &str, hb: i64| {
        json!({"lastHeartbeatTime": ts(hb), "lastTransitionTime": ts(created + 300),
               "message": msg, "reason": reason, "status": st, "type": t})
    };
    let mut conditions = vec![
        cond(
            "MemoryPressure",
            "False",
            "KubeletHasSufficientMemory",
            "kubelet has sufficient memory available",
            hb,
        ),
        cond(
            "DiskPressure",
            "False",
            "KubeletHasNoDiskPressure",
            "kubelet has no disk pressure",
            hb,
        ),
        cond(
            "PIDPressure",
            "False",
            "KubeletHasSufficientPID",
            "kubelet has sufficient PID available",
            hb,
        ),
        cond(
            "Ready",
            "True",
            "KubeletReady",
            "kubelet is posting ready status",
            hb,
        ),
    ];
    if not_ready {
        for c in conditions.iter_mut() {
            c["status"] = json!("Unknown");
            c["reason"] = json!("NodeStatusUnknown");
            c["message"] = json!("Kubelet stopped posting node status.");
            c["lastHeartbeatTime"] = json!(ts(g.now - 1900));
            c["lastTransitionTime"] = json!(ts(g.now - 1800));
        }
    }
    let images: Vec<Value> = (0..12)
        .map(|k| {
            let repo = ["quay.io/openshift-release-dev/ocp-v4.0-art-dev", "quay.io/acme/base", "registry.redhat.io/ubi9/ubi-minimal"][k % 3];
            let d = g.rng.hex(64);
            json!({"names": [format!("{repo}@sha256:{d}")], "sizeBytes": g.rng.range(50_000_000, 1_500_000_000)})
        })
        .collect();
    let mut node = json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "annotations": {
                "machine.openshift.io/machine": format!("openshift-machine-api/cluster-7xk2p-{}-{}", if master {"master"} else {"worker"}, g.rng.suffix(5)),
                "machineconfiguration.openshift.io/currentConfig": format!("rendered-worker-{}", g.rng.hex(32)),
                "machineconfiguration.openshift.io/desiredConfig": format!("rendered-worker-{}", g.rng.hex(32)),
                "machineconfiguration.openshift.io/state": "Done",
                "volumes.kubernetes.io/controller-managed-attach-detach": "true",
            },
            "creationTimestamp": ts(created),
            "labels": labels,
            "name": name,
            "resourceVersion": g.rv(),
            "uid": g.rng.uid(),
        },
        "spec": {
            "providerID": format!("aws:///{zone}/i-0{}", g.rng.hex(16)),
        },
        "status": {
            "addresses": [
                {"address": ip, "type": "InternalIP"},
                {"address": name, "type": "Hostname"},
                {"address": name, "type": "InternalDNS"},
            ],
            "allocatable": allocatable,
            "capacity": capacity,
            "conditions": conditions,
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "images": images,
            "nodeInfo": {
                "architecture": "amd64",
                "bootID": g.rng.uid(),
                "containerRuntimeVersion": "cri-o://1.29.6-3.rhaos4.16.gitfd433b7.el9",
                "kernelVersion": "5.14.0-427.26.1.el9_4.x86_64",
                "kubeProxyVersion": "v1.29.6+aba1e8d",
                "kubeletVersion": "v1.29.6+aba1e8d",
                "machineID": g.rng.hex(32),
                "operatingSystem": "linux",
                "osImage": "Red Hat Enterprise Linux CoreOS 416.94.202407081958-0 (Plow)",
                "systemUUID": g.rng.uid(),
            },
        },
    });
    if !taints.is_empty() {
        node["spec"]["taints"] = json!(taints);
    }
    let f1 = obj(vec![(
        "f:metadata",
        fields_of(&node["metadata"], &["labels"]),
    )]);
    let f2 = fields_of(&node, &["status"]);
    let f2 = json!({"f:status": {"f:conditions": f2["f:status"]["f:conditions"].clone(), "f:images": {}, "f:nodeInfo": f2["f:status"]["f:nodeInfo"].clone()}});
    node["metadata"]["managedFields"] = Value::Array(vec![
        mf("v1", "kubelet", "Update", None, created, f1),
        mf(
            "v1",
            "machine-config-daemon",
            "Update",
            None,
            created + 600,
            json!({"f:metadata": {"f:annotations": {"f:machineconfiguration.openshift.io/currentConfig": {}, "f:machineconfiguration.openshift.io/state": {}}}}),
        ),
        mf("v1", "kubelet", "Update", Some("status"), hb, f2),
    ]);
    node
}

fn build_namespace(g: &mut Gen, ns: &str, idx: usize) -> Value {
    let created = g.now - 86_400 * 90 - g.rng.range(0, 86_400 * 30);
    let mut labels = json!({
        "kubernetes.io/metadata.name": ns,
        "pod-security.kubernetes.io/audit": "restricted",
        "pod-security.kubernetes.io/warn": "restricted",
    });
    if idx % TEAM_WORDS.len() < KUEUE_WORDS {
        labels["kueue.x-k8s.io/managed"] = json!("true");
    }
    let uidn = 1_000_600_000 + idx as u64 * 10_000;
    json!({
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {
            "annotations": {
                "openshift.io/description": "",
                "openshift.io/display-name": "",
                "openshift.io/requester": "system:admin",
                "openshift.io/sa.scc.mcs": format!("s0:c{},c{}", 20 + idx, 5 + idx % 10),
                "openshift.io/sa.scc.supplemental-groups": format!("{uidn}/10000"),
                "openshift.io/sa.scc.uid-range": format!("{uidn}/10000"),
            },
            "creationTimestamp": ts(created),
            "labels": labels,
            "name": ns,
            "resourceVersion": g.rv(),
            "uid": g.rng.uid(),
        },
        "spec": {"finalizers": ["kubernetes"]},
        "status": {"phase": "Active"},
    })
}

// ---------------------------------------------------------------------------
// Pods

struct Owner<'a> {
    api: &'a str,
    kind: &'a str,
    name: &'a str,
    uid: &'a str,
}

#[allow(clippy::too_many_arguments)]
fn container(
    g: &mut Gen,
    dep: &str,
    cname: &str,
    main: bool,
    image: &str,
    cpu: &str,
    mem: &str,
    with_config: bool,
    simple: bool,
) -> Value {
    let (lcpu, lmem) = match cpu {
        "10m" => ("100m", "64Mi"),
        "50m" => ("200m", "128Mi"),
        "100m" => ("200m", "256Mi"),
        "250m" => ("500m", "512Mi"),
        "500m" => ("1", "1Gi"),
        "1" => ("2", "2Gi"),
        _ => ("4", "4Gi"),
    };
    let mut c = json!({
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "name": cname,
        "resources": {"limits": {"cpu": lcpu, "memory": lmem}, "requests": {"cpu": cpu, "memory": mem}},
                "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
    });
    if main && simple {
        let port = *g.rng.pick(&[8080, 8443, 9090, 3000]);
        c["ports"] = json!([{"containerPort": port, "name": "http", "protocol": "TCP"}]);
    } else if main {
        let port = *g.rng.pick(&[8080, 8443, 9090, 3000]);
        c["env"] = json!([
            {"name": "LOG_LEVEL", "value": *g.rng.pick(&["info", "debug", "warn"])},
            {"name": "PORT", "value": port.to_string()},

            {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},

        ]);
        c["ports"] = json!([
            {"containerPort": port, "name": "http", "protocol": "TCP"},

        ]);
        c["readinessProbe"] = json!({
            "failureThreshold": 3,
            "httpGet": {"path": "/healthz/ready", "port": port, "scheme": "HTTP"},
            "initialDelaySeconds": 5, "periodSeconds": 10, "successThreshold": 1, "timeoutSeconds": 1,
        });

        if with_config {
            c["volumeMounts"] =
                json!([{"mountPath": format!("/etc/{dep}"), "name": "config", "readOnly": true}]);
        }
    } else if cname == "oauth-proxy" {
        c["args"] = json!([
            "--https-address=:8443",
            "--provider=openshift",
            format!("--openshift-service-account={dep}"),
            "--upstream=http://localhost:8080",
        ]);
        c["ports"] = json!([{"containerPort": 8443, "name": "https", "protocol": "TCP"}]);
        c["volumeMounts"] = json!([{"mountPath": "/etc/tls/private", "name": "proxy-tls"}]);
    } else {
        c["volumeMounts"] = json!([{"mountPath": "/var/log/app", "name": "logs"}]);
    }
    c
}

/// Pod spec as it appears in a Deployment/ReplicaSet template.
/// `simple`: a bare main container (no env, probes or config), as many real workloads are.
fn template_spec(
    g: &mut Gen,
    dep: &str,
    main_name: &str,
    image: &str,
    ncont: usize,
    simple: bool,
) -> Value {
    let cpu = *g.rng.pick(&["100m", "250m", "250m", "500m", "1", "2"]);
    let mem = *g
        .rng
        .pick(&["128Mi", "256Mi", "256Mi", "512Mi", "1Gi", "2Gi"]);
    let with_config = !simple && g.rng.chance(0.3);
    let mut containers = vec![container(
        g,
        dep,
        main_name,
        true,
        image,
        cpu,
        mem,
        with_config,
        simple,
    )];
    let mut volumes = vec![];
    if with_config {
        volumes.push(json!({"configMap": {"defaultMode": 420, "name": format!("{dep}-config")}, "name": "config"}));
    }
    if ncont >= 2 {
        containers.push(container(g, dep, "oauth-proxy", false,
            "quay.io/openshift/origin-oauth-proxy@sha256:c4b3b9a8f8b3f1e7d2b5a1c0e9f8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a29180",
            "10m", "32Mi", false, false));
        volumes.push(json!({"name": "proxy-tls", "secret": {"defaultMode": 420, "secretName": format!("{dep}-tls")}}));
    }
    if ncont >= 3 {
        containers.push(container(
            g,
            dep,
            "log-shipper",
            false,
            "docker.io/fluent/fluent-bit:3.0.4",
            "50m",
            "64Mi",
            false,
            false,
        ));
        volumes.push(json!({"emptyDir": {}, "name": "logs"}));
    }
    containers.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    json!({
        "containers": containers,
        "dnsPolicy": "ClusterFirst",
        "restartPolicy": "Always",
        "schedulerName": "default-scheduler",
        "securityContext": {},
        "serviceAccount": dep,
        "serviceAccountName": dep,
        "terminationGracePeriodSeconds": 30,
        "volumes": volumes,
    })
}

#[allow(clippy::too_many_arguments)]
fn build_pod(
    g: &mut Gen,
    ns: &str,
    name: &str,
    owner: &Owner,
    labels: &Value,
    tmpl: &Value,
    state: State,
    created: i64,
    main_name: &str,
) -> (Value, PodRef) {
    let uid = g.rng.uid();
    let scheduled = state != State::Unschedulable;
    let (node, host_ip) = if scheduled {
        let (n, ip) = g.pick_node();
        (Some(n), Some(ip))
    } else {
        (None, None)
    };
    let ip = if scheduled {
        Some(g.next_pod_ip())
    } else {
        None
    };
    let api_sfx = g.rng.suffix(5);
    let mut spec = tmpl.clone();
    {
        let s = spec.as_object_mut().unwrap();
        for c in s["containers"].as_array_mut().unwrap() {
            let vm = c
                .as_object_mut()
                .unwrap()
                .entry("volumeMounts")
                .or_insert(json!([]));
            vm.as_array_mut().unwrap().push(json!({
                "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                "name": format!("kube-api-access-{api_sfx}"),
                "readOnly": true,
            }));
            c["securityContext"] = json!({
                "allowPrivilegeEscalation": false,
                "capabilities": {"drop": ["ALL"]},
                "runAsNonRoot": true,
                "runAsUser": 1_000_680_000,
            });
        }
        s.insert("enableServiceLinks".into(), json!(true));
        s.insert("imagePullSecrets".into(), json!([{"name": format!("{}-dockercfg-{}", s["serviceAccountName"].as_str().unwrap(), g.rng.suffix(5))}]));
        if let Some(n) = &node {
            s.insert("nodeName".into(), json!(n));
        }
        s.insert("preemptionPolicy".into(), json!("PreemptLowerPriority"));
        s.insert("priority".into(), json!(0));
        s.insert(
            "securityContext".into(),
            json!({
                "fsGroup": 1_000_680_000,
                "seLinuxOptions": {"level": "s0:c26,c15"},
                "seccompProfile": {"type": "RuntimeDefault"},
            }),
        );
        s.insert("tolerations".into(), json!([
            {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300},
            {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists", "tolerationSeconds": 300},

        ]));
        s["volumes"].as_array_mut().unwrap().push(json!({
            "name": format!("kube-api-access-{api_sfx}"),
            "projected": {"defaultMode": 420, "sources": [
                {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}},
                {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}, "path": "namespace"}]}},
                {"configMap": {"items": [{"key": "service-ca.crt", "path": "service-ca.crt"}], "name": "openshift-service-ca.crt"}},
            ]},
        }));
    }
    let containers: Vec<(String, String)> = spec["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["image"].as_str().unwrap().to_string(),
            )
        })
        .collect();

    // status
    let started = created + g.rng.range(2, 20);
    let ready_at = started + g.rng.range(5, 40);
    let cond = |t: &str, ok: bool, at: i64| json!({"lastProbeTime": null, "lastTransitionTime": ts(at), "status": if ok {"True"} else {"False"}, "type": t});
    let mut restarts = 0;
    let status = if !scheduled {
        json!({
            "conditions": [{
                "lastProbeTime": null,
                "lastTransitionTime": ts(created),
                "message": format!("0/{n} nodes are available: {n} Insufficient cpu. preemption: 0/{n} nodes are available: {n} No preemption victims found for incoming pod.", n = g.n_nodes),
                "reason": "Unschedulable",
                "status": "False",
                "type": "PodScheduled",
            }],
            "phase": "Pending",
            "qosClass": "Burstable",
        })
    } else {
        let unready_main = state != State::Healthy;
        let mut statuses = vec![];
        for (cn, img) in &containers {
            let is_main = cn == main_name;
            let cid = format!("cri-o://{}", g.rng.hex(64));
            let image_id = format!(
                "{}@sha256:{}",
                img.split([':', '@']).next().unwrap(),
                g.rng.hex(64)
            );
            let st = if is_main && state == State::ImagePull {
                json!({"image": img, "imageID": "", "lastState": {}, "name": cn, "ready": false,
                       "restartCount": 0, "started": false,
                       "state": {"waiting": {"message": format!("Back-off pulling image \"{img}\""), "reason": "ImagePullBackOff"}}})
            } else if is_main && state == State::CrashLoop {
                restarts = g.rng.range(5, 250);
                let fin = g.now - g.rng.range(10, 280);
                json!({"containerID": cid, "image": img, "imageID": image_id,
                       "lastState": {"terminated": {"containerID": format!("cri-o://{}", g.rng.hex(64)), "exitCode": 1,
                           "finishedAt": ts(fin), "reason": "Error", "startedAt": ts(fin - g.rng.range(1, 30))}},
                       "name": cn, "ready": false, "restartCount": restarts, "started": false,
                       "state": {"waiting": {"message": format!("back-off 5m0s restarting failed container={cn} pod={name}_{ns}({uid})"), "reason": "CrashLoopBackOff"}}})
            } else {
                let ready = !(is_main && state == State::NotReady);
                let rc = if state == State::Healthy && g.rng.chance(0.03) {
                    g.rng.range(1, 4)
                } else {
                    0
                };
                let mut s = json!({"containerID": cid, "image": img, "imageID": image_id, "lastState": {}, "name": cn,
                       "ready": ready, "restartCount": rc, "started": true,
                       "state": {"running": {"startedAt": ts(started)}}});
                if rc > 0 {
                    s["lastState"] = json!({"terminated": {"containerID": format!("cri-o://{}", g.rng.hex(64)), "exitCode": 137,
                        "finishedAt": ts(started - 5), "reason": "OOMKilled", "startedAt": ts(created + 3)}});
                }
                s
            };
            statuses.push(st);
        }
        let unready: Vec<&str> = if unready_main {
            vec![main_name]
        } else {
            vec![]
        };
        let mut ready_c = cond("Ready", !unready_main, ready_at);
        let mut cready_c = cond("ContainersReady", !unready_main, ready_at);
        if unready_main {
            for c in [&mut ready_c, &mut cready_c] {
                c["reason"] = json!("ContainersNotReady");
                c["message"] = json!(format!(
                    "containers with unready status: [{}]",
                    unready.join(" ")
                ));
            }
        }
        let ip = ip.clone().unwrap();
        let host_ip = host_ip.clone().unwrap();
        let mut st = json!({
            "conditions": [
                cond("PodReadyToStartContainers", true, started),
                cond("Initialized", true, created + 1),
                ready_c,
                cready_c,
                cond("PodScheduled", true, created),
            ],
                        "containerStatuses": null,
            "hostIP": host_ip,
            "hostIPs": [{"ip": host_ip}],
            "phase": if state == State::ImagePull { "Pending" } else { "Running" },
            "podIP": ip,
            "podIPs": [{"ip": ip}],
            "qosClass": "Burstable",
                        "startTime": ts(created + 1),
        });
        st["containerStatuses"] = Value::Array(statuses);
        st
    };

    let mut annotations = json!({
        "openshift.io/scc": "restricted-v2",
        "seccomp.security.alpha.kubernetes.io/pod": "runtime/default",
    });
    if let Some(ip) = &ip {
        let b: Vec<u8> = ip.split('.').map(|x| x.parse().unwrap()).collect();
        let mac = format!("0a:58:{:02x}:{:02x}:{:02x}:{:02x}", b[0], b[1], b[2], b[3]);

        annotations["k8s.v1.cni.cncf.io/network-status"] = json!(format!(
            "[{{\n    \"name\": \"ovn-kubernetes\",\n    \"interface\": \"eth0\",\n    \"ips\": [\n        \"{ip}\"\n    ],\n    \"mac\": \"{mac}\",\n    \"default\": true,\n    \"dns\": {{}}\n}}]"
        ));
    }
    let generate_name = match name.rfind('-') {
        Some(i) => &name[..=i],
        None => name,
    };
    let mut pod = json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
                        "annotations": null,
            "creationTimestamp": ts(created),
            "generateName": generate_name,
            "labels": null,
            "name": name,
            "namespace": ns,
            "ownerReferences": [{
                "apiVersion": owner.api, "blockOwnerDeletion": true, "controller": true,
                "kind": owner.kind, "name": owner.name, "uid": owner.uid,
            }],
            "resourceVersion": g.rv(),
            "uid": uid,
        },
                "spec": null,
        "status": null,
    });
    pod["metadata"]["annotations"] = annotations;
    pod["metadata"]["labels"] = labels.clone();
    pod["spec"] = spec;
    pod["status"] = status;
    let mut managed = vec![mf(
        "v1",
        "kube-controller-manager",
        "Update",
        None,
        created,
        obj(vec![
            (
                "f:metadata",
                fields_of(
                    &pod["metadata"],
                    &["generateName", "labels", "ownerReferences"],
                ),
            ),
            (
                "f:spec",
                fields_of(
                    tmpl,
                    &[
                        "containers",
                        "dnsPolicy",
                        "enableServiceLinks",
                        "restartPolicy",
                        "schedulerName",
                        "securityContext",
                        "serviceAccount",
                        "serviceAccountName",
                        "terminationGracePeriodSeconds",
                        "volumes",
                    ],
                ),
            ),
        ]),
    )];
    if scheduled {
        managed.push(mf(
            "v1",
            "multus-daemon",
            "Update",
            Some("status"),
            created + 1,
            json!({"f:metadata": {"f:annotations": {".": {}, "f:k8s.v1.cni.cncf.io/network-status": {}}}}),
        ));
        managed.push(mf(
            "v1",
            "kubelet",
            "Update",
            Some("status"),
            ready_at,
            obj(vec![(
                "f:status",
                fields_of(
                    &pod["status"],
                    &[
                        "conditions",
                        "containerStatuses",
                        "hostIP",
                        "hostIPs",
                        "phase",
                        "podIP",
                        "podIPs",
                        "startTime",
                    ],
                ),
            )]),
        ));
    } else {
        managed.push(mf(
            "v1",
            "kube-scheduler",
            "Update",
            Some("status"),
            created,
            obj(vec![(
                "f:status",
                fields_of(&pod["status"], &["conditions"]),
            )]),
        ));
    }
    pod["metadata"]["managedFields"] = Value::Array(managed);
    g.counts[state as usize] += 1;
    let r = PodRef {
        name: name.to_string(),
        uid: pod["metadata"]["uid"].as_str().unwrap().to_string(),
        node,
        ip,
        state,
        containers,
        created,
        restarts,
    };
    (pod, r)
}

// ---------------------------------------------------------------------------
// Events

#[allow(clippy::too_many_arguments)]
fn event(
    g: &mut Gen,
    ns: &str,
    p: &PodRef,
    container: Option<&str>,
    ty: &str,
    reason: &str,
    msg: String,
    count: i64,
    first: i64,
    last: i64,
) -> Value {
    let (component, host) = match reason {
        "FailedScheduling" | "Scheduled" => ("default-scheduler", None),
        "AddedInterface" => ("multus", p.node.clone()),
        _ => ("kubelet", p.node.clone()),
    };
    let mut io = json!({"apiVersion": "v1", "kind": "Pod", "name": p.name, "namespace": ns,
                        "resourceVersion": g.rv(), "uid": p.uid});
    if let Some(c) = container {
        io["fieldPath"] = json!(format!("spec.containers{{{c}}}"));
    }
    let mut source = json!({"component": component});
    if let Some(h) = &host {
        source["host"] = json!(h);
    }
    let name = format!("{}.{}", p.name, g.rng.hex(16));
    let mut e = json!({
        "apiVersion": "v1",
        "count": count,
        "eventTime": null,
        "firstTimestamp": ts(first),
        "involvedObject": io,
        "kind": "Event",
        "lastTimestamp": ts(last),
        "message": msg,
        "metadata": {
            "creationTimestamp": ts(first),
            "name": name,
            "namespace": ns,
            "resourceVersion": g.rv(),
            "uid": g.rng.uid(),
        },
        "reason": reason,
        "reportingComponent": component,
        "reportingInstance": host.clone().unwrap_or_default(),
        "source": source,
        "type": ty,
    });
    if count > 1 {
        e["metadata"]["annotations"] = json!({"events.k8s.io/series": "true"});
    }
    e
}

fn bad_events(g: &mut Gen, ns: &str, p: &PodRef, out: &mut Vec<Value>) {
    let main = p
        .containers
        .iter()
        .find(|(n, _)| !matches!(n.as_str(), "oauth-proxy" | "log-shipper"))
        .unwrap();
    let (cn, img) = (main.0.as_str(), main.1.as_str());
    let now = g.now;
    let first = p.created.max(now - 3600 * 3);
    let last = now - g.rng.range(5, 120);
    match p.state {
        State::Healthy => {}
        State::Unschedulable => {
            let n = g.n_nodes;
            let c = g.rng.range(1, 60);
            out.push(event(g, ns, p, None, "Warning", "FailedScheduling",
                format!("0/{n} nodes are available: {n} Insufficient cpu. preemption: 0/{n} nodes are available: {n} No preemption victims found for incoming pod."),
                c, first, last));
        }
        State::ImagePull => {
            let c = g.rng.range(3, 40);
            out.push(event(
                g,
                ns,
                p,
                None,
                "Normal",
                "Scheduled",
                format!(
                    "Successfully assigned {ns}/{} to {}",
                    p.name,
                    p.node.as_deref().unwrap()
                ),
                1,
                first,
                first,
            ));
            out.push(event(
                g,
                ns,
                p,
                Some(cn),
                "Normal",
                "Pulling",
                format!("Pulling image \"{img}\""),
                c,
                first + 2,
                last,
            ));
            let repo = img.split(':').next().unwrap();
            let tag = img.rsplit(':').next().unwrap();
            out.push(event(g, ns, p, Some(cn), "Warning", "Failed",
                format!("Failed to pull image \"{img}\": rpc error: code = Unknown desc = reading manifest {tag} in {repo}: manifest unknown"), c, first + 3, last));
            out.push(event(
                g,
                ns,
                p,
                Some(cn),
                "Warning",
                "Failed",
                "Error: ErrImagePull".into(),
                c,
                first + 3,
                last,
            ));
            out.push(event(
                g,
                ns,
                p,
                Some(cn),
                "Normal",
                "BackOff",
                format!("Back-off pulling image \"{img}\""),
                c * 4,
                first + 4,
                last,
            ));
            out.push(event(
                g,
                ns,
                p,
                Some(cn),
                "Warning",
                "Failed",
                "Error: ImagePullBackOff".into(),
                c * 4,
                first + 4,
                last,
            ));
        }
        State::CrashLoop => {
            let r = p.restarts.max(1);
            out.push(event(
                g,
                ns,
                p,
                Some(cn),
                "Normal",
                "Pulled",
                format!("Container image \"{img}\" already present on machine"),
                r,
                first + 2,
                last - 30,
            ));
            out.push(event(
                g,
                ns,
                p,
                Some(cn),
                "Normal",
                "Created",
                format!("Created container {cn}"),
                r,
                first + 2,
                last - 30,
            ));
            out.push(event(
                g,
                ns,
                p,
                Some(cn),
                "Normal",
                "Started",
                format!("Started container {cn}"),
                r,
                first + 3,
                last - 29,
            ));
            out.push(event(
                g,
                ns,
                p,
                Some(cn),
                "Warning",
                "BackOff",
                format!(
                    "Back-off restarting failed container {cn} in pod {}_{ns}({})",
                    p.name, p.uid
                ),
                r * 5,
                first + 30,
                last,
            ));
        }
        State::NotReady => {
            let c = g.rng.range(50, 1500);
            out.push(event(
                g,
                ns,
                p,
                Some(cn),
                "Warning",
                "Unhealthy",
                "Readiness probe failed: HTTP probe failed with statuscode: 503".into(),
                c,
                first + 20,
                last,
            ));
        }
    }
}

fn normal_events(g: &mut Gen, ns: &str, p: &PodRef, out: &mut Vec<Value>) {
    let t0 = g.now - g.rng.range(120, 3500);
    out.push(event(
        g,
        ns,
        p,
        None,
        "Normal",
        "Scheduled",
        format!(
            "Successfully assigned {ns}/{} to {}",
            p.name,
            p.node.as_deref().unwrap_or("")
        ),
        1,
        t0,
        t0,
    ));
    let ip = p.ip.clone().unwrap_or_default();
    out.push(event(
        g,
        ns,
        p,
        None,
        "Normal",
        "AddedInterface",
        format!("Add eth0 [{ip}/23] from ovn-kubernetes"),
        1,
        t0 + 1,
        t0 + 1,
    ));
    for (cn, img) in &p.containers {
        out.push(event(
            g,
            ns,
            p,
            Some(cn),
            "Normal",
            "Pulled",
            format!("Container image \"{img}\" already present on machine"),
            1,
            t0 + 2,
            t0 + 2,
        ));
        out.push(event(
            g,
            ns,
            p,
            Some(cn),
            "Normal",
            "Created",
            format!("Created container {cn}"),
            1,
            t0 + 2,
            t0 + 2,
        ));
        out.push(event(
            g,
            ns,
            p,
            Some(cn),
            "Normal",
            "Started",
            format!("Started container {cn}"),
            1,
            t0 + 3,
            t0 + 3,
        ));
    }
}

// ---------------------------------------------------------------------------
// Namespace contents

fn gen_namespace(
    g: &mut Gen,
    ns: &str,
    pod_budget: usize,
    n_workloads: usize,
    event_budget: usize,
    kueue: bool,
) -> NsData {
    let mut d = NsData {
        ns: ns.to_string(),
        ..Default::default()
    };
    let mut refs: Vec<PodRef> = vec![];
    let mut remaining = pod_budget;
    let now = g.now;

    // Kueue-managed Jobs and their Workloads.
    if kueue {
        let mut admitted_n = 0u64;
        let mut pending_n = 0u64;
        for _ in 0..n_workloads {
            let job = format!("{}-{}", g.rng.pick(JOB_WORDS), g.rng.suffix(5));
            let job_uid = g.rng.uid();
            let admitted = remaining > 0 && g.rng.chance(0.7);
            let created = now - g.rng.range(600, 86_400 * 2);
            let image = format!(
                "quay.io/acme/{}:v2.{}.0",
                job.rsplit_once('-').unwrap().0,
                g.rng.below(9)
            );
            let pod_tmpl = json!({
                "containers": [{
                    "command": ["python", "-m", "train", "--epochs", "10"],
                    "image": image, "imagePullPolicy": "IfNotPresent", "name": "main",
                    "resources": {"limits": {"cpu": "2", "memory": "4Gi"}, "requests": {"cpu": "2", "memory": "4Gi"}},
                    "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
                }],
                "dnsPolicy": "ClusterFirst", "restartPolicy": "Never", "schedulerName": "default-scheduler",
                "securityContext": {}, "serviceAccount": "default", "serviceAccountName": "default",
                "terminationGracePeriodSeconds": 30, "volumes": [],
            });
            let labels = json!({
                "batch.kubernetes.io/controller-uid": job_uid, "batch.kubernetes.io/job-name": job,
                "controller-uid": job_uid, "job-name": job,
            });
            let mut jobv = json!({
                "apiVersion": "batch/v1", "kind": "Job",
                "metadata": {
                    "annotations": {"batch.kubernetes.io/job-tracking": ""},
                    "creationTimestamp": ts(created), "generation": 2,
                    "labels": {"kueue.x-k8s.io/queue-name": "user-queue"},
                    "name": job, "namespace": ns, "resourceVersion": g.rv(), "uid": job_uid,
                },
                "spec": {
                    "backoffLimit": 6, "completionMode": "NonIndexed", "completions": 1, "manualSelector": false,
                    "parallelism": 1, "podReplacementPolicy": "TerminatingOrFailed",
                    "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": job_uid}},
                    "suspend": !admitted,
                    "template": {"metadata": {"creationTimestamp": null, "labels": labels}, "spec": pod_tmpl},
                },
                "status": {},
            });
            let wl_name = format!("job-{job}-{}", g.rng.hex(5));
            let mut wl = json!({
                "apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "Workload",
                "metadata": {
                    "creationTimestamp": ts(created), "finalizers": ["kueue.x-k8s.io/resource-in-use"],
                    "generation": if admitted {2} else {1},
                    "labels": {"kueue.x-k8s.io/job-uid": job_uid},
                    "name": wl_name, "namespace": ns,
                    "ownerReferences": [{"apiVersion": "batch/v1", "blockOwnerDeletion": true, "controller": true, "kind": "Job", "name": job, "uid": job_uid}],
                    "resourceVersion": g.rv(), "uid": g.rng.uid(),
                },
                "spec": {
                    "active": true,
                    "podSets": [{"count": 1, "name": "main", "template": jobv["spec"]["template"].clone()}],
                    "priority": 0, "priorityClassSource": "", "queueName": "user-queue",
                },
            });
            let adm_at = created + g.rng.range(1, 300);
            if admitted {
                admitted_n += 1;
                g.wl_admitted += 1;
                jobv["status"] = json!({"active": 1, "ready": 1, "startTime": ts(adm_at), "terminating": 0, "uncountedTerminatedPods": {}});
                wl["status"] = json!({
                    "admission": {"clusterQueue": "cluster-queue", "podSetAssignments": [{
                        "count": 1, "flavors": {"cpu": "default-flavor", "memory": "default-flavor"}, "name": "main",
                        "resourceUsage": {"cpu": "2", "memory": "4Gi"}}]},
                    "conditions": [
                        {"lastTransitionTime": ts(adm_at), "message": "Quota reserved in ClusterQueue cluster-queue", "observedGeneration": 1, "reason": "QuotaReserved", "status": "True", "type": "QuotaReserved"},
                        {"lastTransitionTime": ts(adm_at), "message": "The workload is admitted", "observedGeneration": 1, "reason": "Admitted", "status": "True", "type": "Admitted"},
                    ],
                });
                let pod_name = format!("{job}-{}", g.rng.suffix(5));
                let owner = Owner {
                    api: "batch/v1",
                    kind: "Job",
                    name: &job,
                    uid: &job_uid,
                };
                let (pod, r) = build_pod(
                    g,
                    ns,
                    &pod_name,
                    &owner,
                    &labels,
                    &pod_tmpl,
                    State::Healthy,
                    adm_at,
                    "main",
                );
                d.pods.push(pod);
                refs.push(r);
                remaining -= 1;
            } else {
                pending_n += 1;
                jobv["status"] = json!({"conditions": [{"lastProbeTime": ts(created), "lastTransitionTime": ts(created),
                    "message": "Job suspended", "reason": "JobSuspended", "status": "True", "type": "Suspended"}]});
                wl["status"] = json!({
                    "conditions": [{"lastTransitionTime": ts(created + 1),
                        "message": "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default-flavor, 2 more needed",
                        "observedGeneration": 1, "reason": "Pending", "status": "False", "type": "QuotaReserved"}],
                    "resourceRequests": [{"name": "main", "resources": {"cpu": "2", "memory": "4Gi"}}],
                });
            }
            let f = obj(vec![
                (
                    "f:metadata",
                    fields_of(
                        &wl["metadata"],
                        &["finalizers", "labels", "ownerReferences"],
                    ),
                ),
                (
                    "f:spec",
                    fields_of(
                        &wl["spec"],
                        &[
                            "active",
                            "podSets",
                            "priority",
                            "priorityClassSource",
                            "queueName",
                        ],
                    ),
                ),
            ]);
            let fs = obj(vec![(
                "f:status",
                fields_of(
                    &wl["status"],
                    &["admission", "conditions", "resourceRequests"],
                ),
            )]);
            wl["metadata"]["managedFields"] = Value::Array(vec![
                mf(
                    "kueue.x-k8s.io/v1beta1",
                    "kueue",
                    "Update",
                    None,
                    created,
                    f,
                ),
                mf(
                    "kueue.x-k8s.io/v1beta1",
                    "kueue-admission",
                    "Apply",
                    Some("status"),
                    adm_at,
                    fs,
                ),
            ]);
            d.jobs.push(jobv);
            d.workloads.push(wl);
        }
        d.localqueues.push(json!({
            "apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "LocalQueue",
            "metadata": {"creationTimestamp": ts(now - 86_400 * 30), "generation": 1, "name": "user-queue", "namespace": ns,
                         "resourceVersion": g.rv(), "uid": g.rng.uid()},
            "spec": {"clusterQueue": "cluster-queue", "stopPolicy": "None"},
            "status": {
                "admittedWorkloads": admitted_n, "pendingWorkloads": pending_n, "reservingWorkloads": admitted_n,
                "conditions": [{"lastTransitionTime": ts(now - 86_400 * 30), "message": "Can submit new workloads to localQueue", "observedGeneration": 1, "reason": "Ready", "status": "True", "type": "Active"}],
                "flavorUsage": [{"name": "default-flavor", "resources": [{"name": "cpu", "total": (admitted_n * 2).to_string()}, {"name": "memory", "total": format!("{}Gi", admitted_n * 4)}]}],
            },
        }));
    }

    // Deployments → ReplicaSets → Pods, Services, EndpointSlices.
    let mut used = HashSet::new();
    let team = ns.rsplit_once('-').map(|x| x.0).unwrap_or(ns).to_string();
    while remaining > 0 {
        let replicas = (*g.rng.pick(&[1usize, 2, 3, 3, 4, 5, 6, 8, 10, 12])).min(remaining);
        remaining -= replicas;
        let (a, b) = (*g.rng.pick(SVC_PREFIX), *g.rng.pick(SVC_WORDS));
        let mut dep = format!("{a}-{b}");
        let mut k = 2;
        while !used.insert(dep.clone()) {
            dep = format!("{a}-{b}-{k}");
            k += 1;
        }
        let state = pick_state(&mut g.rng);
        let ncont = match g.rng.below(20) {
            0..=14 => 1,
            15..=18 => 2,
            _ => 3,
        };
        let ver = format!("v1.{}.{}", g.rng.below(30), g.rng.below(12));
        let image = if state == State::ImagePull {
            format!("quay.io/acme/{a}-{b}:v9.9.{}-rc", g.rng.below(9))
        } else {
            format!("quay.io/acme/{a}-{b}:{ver}")
        };
        let simple = state != State::NotReady && g.rng.chance(0.4);
        let tmpl = template_spec(g, &dep, b, &image, ncont, simple);
        let dep_uid = g.rng.uid();
        let rs_hash = if pyyaml() {
            format!("{:09}", g.rng.below(100_000_000))
        } else {
            g.rng.suffix(10)
        };
        let rs_name = format!("{dep}-{rs_hash}");
        let rs_uid = g.rng.uid();
        let dep_created = now - g.rng.range(86_400, 86_400 * 60);
        let rollout = if state == State::Healthy {
            now - g.rng.range(3600, 86_400 * 20)
        } else {
            now - g.rng.range(600, 3 * 3600)
        };
        let sel = json!({"app": dep});
        let base_labels = json!({
            "app": dep, "app.kubernetes.io/name": dep, "app.kubernetes.io/part-of": team,
            "app.kubernetes.io/version": ver.trim_start_matches('v'),
        });
        let mut pod_labels = base_labels.clone();
        pod_labels["pod-template-hash"] = json!(rs_hash);

        let mut ready = 0;
        let owner = Owner {
            api: "apps/v1",
            kind: "ReplicaSet",
            name: &rs_name,
            uid: &rs_uid,
        };
        let mut dep_refs = vec![];
        for _ in 0..replicas {
            let pod_name = format!("{rs_name}-{}", g.rng.suffix(5));
            let created = if state == State::Healthy {
                rollout + g.rng.range(0, 120)
            } else {
                rollout + g.rng.range(0, 60)
            };
            let (pod, r) = build_pod(
                g,
                ns,
                &pod_name,
                &owner,
                &pod_labels,
                &tmpl,
                state,
                created,
                b,
            );
            if state == State::Healthy {
                ready += 1;
            }
            d.pods.push(pod);
            dep_refs.push(r);
        }
        let unavailable = replicas - ready;
        let avail_cond = if unavailable == 0 {
            json!({"lastTransitionTime": ts(rollout + 60), "lastUpdateTime": ts(rollout + 60), "message": "Deployment has minimum availability.", "reason": "MinimumReplicasAvailable", "status": "True", "type": "Available"})
        } else {
            json!({"lastTransitionTime": ts(rollout + 5), "lastUpdateTime": ts(rollout + 5), "message": "Deployment does not have minimum availability.", "reason": "MinimumReplicasUnavailable", "status": "False", "type": "Available"})
        };
        let mut dstatus = json!({
            "conditions": [avail_cond, {"lastTransitionTime": ts(dep_created), "lastUpdateTime": ts(rollout + 60),
                "message": format!("ReplicaSet \"{rs_name}\" has successfully progressed."), "reason": "NewReplicaSetAvailable", "status": "True", "type": "Progressing"}],
            "observedGeneration": 3, "replicas": replicas, "updatedReplicas": replicas,
        });
        if ready > 0 {
            dstatus["availableReplicas"] = json!(ready);
            dstatus["readyReplicas"] = json!(ready);
        }
        if unavailable > 0 {
            dstatus["unavailableReplicas"] = json!(unavailable);
        }
        let mut depv = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {
                "annotations": {"deployment.kubernetes.io/revision": "3"},
                "creationTimestamp": ts(dep_created), "generation": 3, "labels": base_labels,
                "name": dep, "namespace": ns, "resourceVersion": g.rv(), "uid": dep_uid,
            },
            "spec": {
                "progressDeadlineSeconds": 600, "replicas": replicas, "revisionHistoryLimit": 10,
                "selector": {"matchLabels": sel},
                "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}, "type": "RollingUpdate"},
                "template": {"metadata": {"creationTimestamp": null, "labels": base_labels}, "spec": null},
            },
                        "status": dstatus,
        });
        depv["spec"]["template"]["spec"] = tmpl.clone();
        let f1 = obj(vec![
            ("f:metadata", fields_of(&depv["metadata"], &["labels"])),
            (
                "f:spec",
                fields_of_depth(
                    &depv["spec"],
                    &[
                        "progressDeadlineSeconds",
                        "replicas",
                        "revisionHistoryLimit",
                        "selector",
                        "strategy",
                        "template",
                    ],
                    4,
                ),
            ),
        ]);
        let f2 = json!({"f:metadata": {"f:annotations": {".": {}, "f:deployment.kubernetes.io/revision": {}}}, "f:status": fields_of(&depv["status"], &["availableReplicas", "conditions", "observedGeneration", "readyReplicas", "replicas", "unavailableReplicas", "updatedReplicas"])});
        depv["metadata"]["managedFields"] = Value::Array(vec![
            mf("apps/v1", "argocd-controller", "Update", None, rollout, f1),
            mf(
                "apps/v1",
                "kube-controller-manager",
                "Update",
                Some("status"),
                rollout + 60,
                f2,
            ),
        ]);
        // Current and one previous ReplicaSet.
        let mut rs_list = vec![(3, rs_name.clone(), rs_uid.clone(), replicas)];
        if g.rng.chance(0.2) {
            rs_list.push((2, format!("{dep}-{}", g.rng.suffix(10)), g.rng.uid(), 0));
        }
        for (rev, name, uid, reps) in rs_list {
            let hash = name.rsplit('-').next().unwrap().to_string();
            let mut l = base_labels.clone();
            l["pod-template-hash"] = json!(hash);
            let mut st = json!({"observedGeneration": 2, "replicas": reps});
            if reps > 0 {
                st["fullyLabeledReplicas"] = json!(reps);
                if ready > 0 {
                    st["availableReplicas"] = json!(ready);
                    st["readyReplicas"] = json!(ready);
                }
            }
            let mut rs = json!({
                "apiVersion": "apps/v1", "kind": "ReplicaSet",
                "metadata": {
                    "annotations": {"deployment.kubernetes.io/desired-replicas": replicas.to_string(), "deployment.kubernetes.io/max-replicas": (replicas + replicas.div_ceil(4)).to_string(), "deployment.kubernetes.io/revision": rev.to_string()},
                    "creationTimestamp": ts(if rev == 3 { rollout } else { dep_created }), "generation": 2, "labels": l.clone(),
                    "name": name, "namespace": ns,
                    "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": true, "controller": true, "kind": "Deployment", "name": dep, "uid": dep_uid}],
                    "resourceVersion": g.rv(), "uid": uid,
                },
                "spec": {
                    "replicas": reps,
                    "selector": {"matchLabels": {"app": dep, "pod-template-hash": hash}},
                    "template": {"metadata": {"creationTimestamp": null, "labels": l}, "spec": null},
                },
                                "status": st,
            });
            rs["spec"]["template"]["spec"] = tmpl.clone();
            let f1 = obj(vec![
                (
                    "f:metadata",
                    fields_of(
                        &rs["metadata"],
                        &["annotations", "labels", "ownerReferences"],
                    ),
                ),
                ("f:spec", fields_of(&rs["spec"], &["replicas", "selector"])),
            ]);
            let f2 = obj(vec![(
                "f:status",
                fields_of(
                    &rs["status"],
                    &[
                        "availableReplicas",
                        "fullyLabeledReplicas",
                        "observedGeneration",
                        "readyReplicas",
                        "replicas",
                    ],
                ),
            )]);
            rs["metadata"]["managedFields"] = Value::Array(vec![
                mf(
                    "apps/v1",
                    "kube-controller-manager",
                    "Update",
                    None,
                    rollout,
                    f1,
                ),
                mf(
                    "apps/v1",
                    "kube-controller-manager",
                    "Update",
                    Some("status"),
                    rollout + 60,
                    f2,
                ),
            ]);
            d.replicasets.push(rs);
        }
        d.deployments.push(depv);

        // Service + EndpointSlice.
        let port = tmpl["containers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == b)
            .unwrap()["ports"][0]["containerPort"]
            .clone();
        let sip = g.svc_ip;
        g.svc_ip += 1;
        let cluster_ip = format!("172.30.{}.{}", (sip >> 8) & 255, sip & 255);
        let svc_uid = g.rng.uid();
        d.services.push(json!({
            "apiVersion": "v1", "kind": "Service",
            "metadata": {"creationTimestamp": ts(dep_created), "labels": {"app": dep}, "name": dep, "namespace": ns,
                         "resourceVersion": g.rv(), "uid": svc_uid},
            "spec": {
                "clusterIP": cluster_ip, "clusterIPs": [cluster_ip], "internalTrafficPolicy": "Cluster",
                "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack",
                "ports": [{"name": "http", "port": port, "protocol": "TCP", "targetPort": "http"}],
                "selector": sel, "sessionAffinity": "None", "type": "ClusterIP",
            },
            "status": {"loadBalancer": {}},
        }));
        let endpoints: Vec<Value> = dep_refs
            .iter()
            .filter(|r| r.ip.is_some() && r.state != State::ImagePull)
            .map(|r| {
                let ok = r.state == State::Healthy;
                json!({"addresses": [r.ip.as_ref().unwrap()], "conditions": {"ready": ok, "serving": ok, "terminating": false},
                       "nodeName": r.node.as_ref().unwrap(),
                       "targetRef": {"kind": "Pod", "name": r.name, "namespace": ns, "uid": r.uid}})
            })
            .collect();
        let sfx = g.rng.suffix(5);
        d.endpointslices.push(json!({
            "addressType": "IPv4", "apiVersion": "discovery.k8s.io/v1", "endpoints": endpoints, "kind": "EndpointSlice",
            "metadata": {
                "annotations": {"endpoints.kubernetes.io/last-change-trigger-time": ts(rollout + 60)},
                "creationTimestamp": ts(dep_created), "generateName": format!("{dep}-"), "generation": 7,
                "labels": {"app": dep, "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io", "kubernetes.io/service-name": dep},
                "name": format!("{dep}-{sfx}"), "namespace": ns,
                "ownerReferences": [{"apiVersion": "v1", "blockOwnerDeletion": true, "controller": true, "kind": "Service", "name": dep, "uid": svc_uid}],
                "resourceVersion": g.rv(), "uid": g.rng.uid(),
            },
            "ports": [{"name": "http", "port": port, "protocol": "TCP"}],
        }));
        refs.extend(dep_refs);
    }

    // A couple of completed CronJob-style Jobs per namespace.
    for k in 0..2 {
        let fin = now - 3600 * (k + 1) - g.rng.range(0, 600);
        let name = format!(
            "{}-{}",
            ["db-migrate", "report-nightly"][k as usize],
            29_000_000 + g.rng.below(900_000)
        );
        let uid = g.rng.uid();
        d.jobs.push(json!({
            "apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"creationTimestamp": ts(fin - 120), "generation": 1,
                "labels": {"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": name, "controller-uid": uid, "job-name": name},
                "name": name, "namespace": ns, "resourceVersion": g.rv(), "uid": uid},
            "spec": {"backoffLimit": 0, "completionMode": "NonIndexed", "completions": 1, "parallelism": 1, "suspend": false,
                "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": uid}},
                "template": {"metadata": {"creationTimestamp": null, "labels": {"batch.kubernetes.io/job-name": name}},
                    "spec": {"containers": [{"image": "quay.io/acme/toolbox:v3.1.0", "command": ["/bin/sh", "-c", "run-task"], "name": "task",
                        "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}}}], "restartPolicy": "Never"}}},
            "status": {"completionTime": ts(fin), "conditions": [{"lastProbeTime": ts(fin), "lastTransitionTime": ts(fin), "status": "True", "type": "Complete"}],
                "ready": 0, "startTime": ts(fin - 118), "succeeded": 1, "terminating": 0, "uncountedTerminatedPods": {}},
        }));
    }

    // Events: every troubled pod, then lifecycle events of healthy pods up to the budget.
    for r in refs.iter().filter(|r| r.state != State::Healthy) {
        bad_events(g, ns, r, &mut d.events);
    }
    let n_bad_events = d.events.len();
    let healthy: Vec<usize> = (0..refs.len())
        .filter(|i| refs[*i].state == State::Healthy)
        .collect();
    if !healthy.is_empty() {
        let mut i = g.rng.below(healthy.len() as u64) as usize;
        while d.events.len() < event_budget {
            normal_events(g, ns, &refs[healthy[i % healthy.len()]], &mut d.events);
            i += 1;
        }
        d.events.truncate(event_budget.max(n_bad_events));
    }

    // Per-pod files: every troubled pod plus a random few percent of the rest.
    for (i, r) in refs.iter().enumerate() {
        if r.state != State::Healthy || g.rng.chance(0.06) {
            d.pod_files.push(i);
        }
    }
    d
}

// ---------------------------------------------------------------------------
// Output sinks

struct Sink {
    root: PathBuf,
    top: String,
    dirs: HashSet<PathBuf>,
    bytes: u64,
    files: u64,
    zip: Option<SyncSender<(String, Vec<u8>)>>,
}

impl Sink {
    fn put(&mut self, rel: &str, data: Vec<u8>) {
        let p = self.root.join(rel);
        if let Some(dir) = p.parent()
            && self.dirs.insert(dir.to_path_buf())
        {
            fs::create_dir_all(dir)
                .unwrap_or_else(|e| die(&format!("mkdir {}: {e}", dir.display())));
        }
        fs::write(&p, &data).unwrap_or_else(|e| die(&format!("write {}: {e}", p.display())));
        self.bytes += data.len() as u64;
        self.files += 1;
        if let Some(tx) = &self.zip {
            tx.send((format!("{}/{rel}", self.top), data)).unwrap();
        }
    }
}

enum TgzMsg {
    File(String, Vec<u8>),
    Ns(Arc<NsData>),
}

fn tgz_thread(path: PathBuf, now: i64, rx: std::sync::mpsc::Receiver<TgzMsg>) -> (u64, u64) {
    let f = BufWriter::with_capacity(
        1 << 20,
        File::create(&path).unwrap_or_else(|e| die(&format!("create {}: {e}", path.display()))),
    );
    let gz = flate2::write::GzEncoder::new(f, flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    let top = "support-bundle-2026-11-20T09_14_02";
    let (mut bytes, mut files) = (0u64, 0u64);
    let mut add = |tar: &mut tar::Builder<_>, rel: &str, data: &[u8]| {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_mtime(now as u64);
        h.set_entry_type(tar::EntryType::Regular);
        h.set_cksum();
        tar.append_data(&mut h, format!("{top}/{rel}"), data)
            .unwrap();
        bytes += data.len() as u64;
        files += 1;
    };
    for msg in rx {
        match msg {
            TgzMsg::File(rel, data) => add(&mut tar, &rel, &data),
            TgzMsg::Ns(d) => {
                let ns = &d.ns;
                let rv = 100_000_000;
                for (dir, api, kind, items) in [
                    ("pods", "v1", "PodList", &d.pods),
                    ("events", "v1", "EventList", &d.events),
                    ("deployments", "apps/v1", "DeploymentList", &d.deployments),
                    ("replicasets", "apps/v1", "ReplicaSetList", &d.replicasets),
                    ("services", "v1", "ServiceList", &d.services),
                    (
                        "endpointslices",
                        "discovery.k8s.io/v1",
                        "EndpointSliceList",
                        &d.endpointslices,
                    ),
                    ("jobs", "batch/v1", "JobList", &d.jobs),
                ] {
                    add(
                        &mut tar,
                        &format!("cluster-resources/{dir}/{ns}.json"),
                        &json_list(api, kind, items, rv),
                    );
                }
                for (crd, items) in [("workloads", &d.workloads), ("localqueues", &d.localqueues)] {
                    if !items.is_empty() {
                        let mut out = Vec::new();
                        y_seq(&mut out, items, 0, false, false);
                        add(
                            &mut tar,
                            &format!(
                                "cluster-resources/custom-resources/{crd}.kueue.x-k8s.io/{ns}.yaml"
                            ),
                            &out,
                        );
                    }
                }
            }
        }
    }
    let gz = tar.into_inner().unwrap();
    let mut f = gz.finish().unwrap();
    f.flush().unwrap();
    (bytes, files)
}

fn zip_thread(path: PathBuf, rx: std::sync::mpsc::Receiver<(String, Vec<u8>)>) {
    let f = BufWriter::with_capacity(
        1 << 20,
        File::create(&path).unwrap_or_else(|e| die(&format!("create {}: {e}", path.display()))),
    );
    let mut zip = zip::ZipWriter::new(f);
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(false);
    for (name, data) in rx {
        zip.start_file(name, opts).unwrap();
        zip.write_all(&data).unwrap();
    }
    let mut f = zip.finish().unwrap();
    f.flush().unwrap();
}

fn die(msg: &str) -> ! {
    eprintln!("gen_bundle: {msg}");
    std::process::exit(2);
}

// ---------------------------------------------------------------------------

fn main() {
    let started = Instant::now();
    let mut out: Option<PathBuf> = None;
    let (mut pods, mut nodes, mut events, mut seed) = (20_000usize, 300usize, 40_000usize, 1u64);
    let (mut namespaces, mut workloads): (Option<usize>, Option<usize>) = (None, None);
    let (mut want_zip, mut want_tgz) = (false, false);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = |name: &str| -> usize {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| die(&format!("{name} needs a number")))
        };
        match a.as_str() {
            "--pods" => pods = num("--pods"),
            "--nodes" => nodes = num("--nodes").max(1),
            "--events" => events = num("--events"),
            "--seed" => seed = num("--seed") as u64,
            "--namespaces" => namespaces = Some(num("--namespaces").max(1)),
            "--workloads" => workloads = Some(num("--workloads")),
            "--zip" => want_zip = true,
            "--troubleshoot-tgz" => want_tgz = true,
            "--pyyaml" => PYYAML.store(true, std::sync::atomic::Ordering::Relaxed),
            "-h" | "--help" => {
                eprintln!(
                    "usage: gen_bundle OUT_DIR [--pods 20000] [--nodes 300] [--events 40000] [--namespaces N] [--workloads N] [--seed 1] [--zip] [--troubleshoot-tgz] [--pyyaml]"
                );
                return;
            }
            s if s.starts_with("--") => die(&format!("unknown option {s}")),
            s => out = Some(PathBuf::from(s)),
        }
    }
    let out = out.unwrap_or_else(|| die("missing OUT_DIR"));
    let n_ns = namespaces.unwrap_or((pods / 400).max(1));
    let n_wl = workloads.unwrap_or(pods * 3 / 200);

    if out.exists() {
        let empty = fs::read_dir(&out)
            .map(|mut d| d.next().is_none())
            .unwrap_or(false);
        if out.join("timestamp").is_file() {
            fs::remove_dir_all(&out)
                .unwrap_or_else(|e| die(&format!("remove {}: {e}", out.display())));
        } else if !empty {
            die(&format!(
                "{} exists and does not look like a generated bundle",
                out.display()
            ));
        }
    }
    fs::create_dir_all(&out).unwrap_or_else(|e| die(&format!("mkdir {}: {e}", out.display())));
    let top = out
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "must-gather".into());
    let sibling = |ext: &str| -> PathBuf {
        let mut s = out.as_os_str().to_owned();
        s.push(ext);
        PathBuf::from(s)
    };

    let now = days_from_civil(2026, 11, 20) * 86_400 + 9 * 3600 + 14 * 60 + 2;
    let mut g = Gen {
        rng: Rng::new(seed),
        now,
        rv: 100_000_000,
        pod_ip: 2 * 256 + 10,
        svc_ip: 300,
        nodes: (0..nodes)
            .map(|i| {
                let (a, b) = (128 + i / 200, 10 + i % 200);
                Node {
                    name: format!("ip-10-0-{a}-{b}.us-east-2.compute.internal"),
                    ip: format!("10.0.{a}.{b}"),
                }
            })
            .collect(),
        schedulable: vec![],
        n_nodes: nodes,
        counts: [0; 5],
        wl_admitted: 0,
    };
    g.schedulable = (0..nodes)
        .filter(|&i| {
            !(nodes >= 6 && i < 3 || nodes >= 40 && i % 40 == 20 || nodes >= 10 && i == nodes - 1)
        })
        .collect();
    if g.schedulable.is_empty() {
        g.schedulable = (0..nodes).collect();
    }

    // Writer threads.
    let (zip_tx, zip_handle) = if want_zip {
        let (tx, rx) = sync_channel::<(String, Vec<u8>)>(64);
        let p = sibling(".zip");
        (Some(tx), Some(thread::spawn(move || zip_thread(p, rx))))
    } else {
        (None, None)
    };
    let (tgz_tx, tgz_handle) = if want_tgz {
        let (tx, rx) = sync_channel::<TgzMsg>(2);
        let p = sibling(".troubleshoot.tar.gz");
        (
            Some(tx),
            Some(thread::spawn(move || tgz_thread(p, now, rx))),
        )
    } else {
        (None, None)
    };
    let mut sink = Sink {
        root: out.clone(),
        top,
        dirs: HashSet::new(),
        bytes: 0,
        files: 0,
        zip: zip_tx,
    };

    sink.put(
        "timestamp",
        b"2026-11-20 09:13:40.000000000 +0000 UTC m=+0.1\n2026-11-20 09:14:02.000000000 +0000 UTC m=+22.3\n".to_vec(),
    );

    // Nodes.
    let mut node_objs = Vec::with_capacity(nodes);
    for i in 0..nodes {
        let n = build_node(&mut g, i, nodes);
        sink.put(
            &format!(
                "cluster-scoped-resources/core/nodes/{}.yaml",
                g.nodes[i].name
            ),
            yaml_doc(&n),
        );
        node_objs.push(n);
    }
    // Namespaces.
    let ns_names: Vec<String> = (0..n_ns).map(ns_name).collect();
    let mut ns_objs = Vec::with_capacity(n_ns);
    for (i, ns) in ns_names.iter().enumerate() {
        let v = build_namespace(&mut g, ns, i);
        sink.put(
            &format!("cluster-scoped-resources/core/namespaces/{ns}.yaml"),
            yaml_doc(&v),
        );
        ns_objs.push(v);
    }
    if let Some(tx) = &tgz_tx {
        tx.send(TgzMsg::File(
            "cluster-resources/nodes.json".into(),
            json_list("v1", "NodeList", &node_objs, g.rv),
        ))
        .unwrap();
        tx.send(TgzMsg::File(
            "cluster-resources/namespaces.json".into(),
            json_list("v1", "NamespaceList", &ns_objs, g.rv),
        ))
        .unwrap();
        tx.send(TgzMsg::File("version.yaml".into(),
            b"apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\nspec:\n  versionNumber: v0.107.1\n".to_vec())).unwrap();
        tx.send(TgzMsg::File("cluster-info/cluster_version.json".into(),
            serde_json::to_vec_pretty(&json!({"info": {"major": "1", "minor": "29", "gitVersion": "v1.29.6+aba1e8d", "gitCommit": "aba1e8d", "gitTreeState": "clean", "buildDate": "2024-07-05T18:42:31Z", "goVersion": "go1.21.11 (Red Hat 1.21.11-1.el9_4) X:strictfipsruntime", "compiler": "gc", "platform": "linux/amd64"}, "string": "v1.29.6+aba1e8d"})).unwrap())).unwrap();
    }
    drop(node_objs);
    drop(ns_objs);

    // Namespace weights → pod, event and workload budgets.
    let weights: Vec<u64> = (0..n_ns).map(|_| 1 + g.rng.below(4)).collect();
    let wsum: u64 = weights.iter().sum();
    let kueue_ns: Vec<usize> = (0..n_ns)
        .filter(|i| i % TEAM_WORDS.len() < KUEUE_WORDS)
        .collect();
    let (mut pods_left, mut events_left) = (pods, events);
    let mut wl_left = n_wl;
    let (mut n_pods, mut n_events, mut n_wls, mut n_other) = (0usize, 0usize, 0usize, 0usize);
    for (i, ns) in ns_names.iter().enumerate() {
        let last = i + 1 == n_ns;
        let p = if last {
            pods_left
        } else {
            (pods as u64 * weights[i] / wsum) as usize
        }
        .min(pods_left);
        let e = if last {
            events_left
        } else {
            (events as u64 * weights[i] / wsum) as usize
        }
        .min(events_left);
        pods_left -= p;
        events_left -= e;
        let kq = kueue_ns.contains(&i);
        let w = if kq {
            let k = kueue_ns.iter().position(|x| *x == i).unwrap();
            let share = if k + 1 == kueue_ns.len() {
                wl_left
            } else {
                n_wl / kueue_ns.len()
            };
            wl_left -= share;
            share.min(p * 3 / 2)
        } else {
            0
        };
        let d = gen_namespace(&mut g, ns, p, w, e, kq);
        let base = format!("namespaces/{ns}");
        let rv = g.rv;
        sink.put(
            &format!("{base}/core/pods.yaml"),
            yaml_list("v1", "PodList", &d.pods, rv),
        );
        sink.put(
            &format!("{base}/core/events.yaml"),
            yaml_list("v1", "EventList", &d.events, rv),
        );
        sink.put(
            &format!("{base}/core/services.yaml"),
            yaml_list("v1", "ServiceList", &d.services, rv),
        );
        sink.put(
            &format!("{base}/apps/deployments.yaml"),
            yaml_list("apps/v1", "DeploymentList", &d.deployments, rv),
        );
        sink.put(
            &format!("{base}/apps/replicasets.yaml"),
            yaml_list("apps/v1", "ReplicaSetList", &d.replicasets, rv),
        );
        sink.put(
            &format!("{base}/discovery.k8s.io/endpointslices.yaml"),
            yaml_list(
                "discovery.k8s.io/v1",
                "EndpointSliceList",
                &d.endpointslices,
                rv,
            ),
        );
        sink.put(
            &format!("{base}/batch/jobs.yaml"),
            yaml_list("batch/v1", "JobList", &d.jobs, rv),
        );
        if kq {
            sink.put(
                &format!("{base}/kueue.x-k8s.io/localqueues.yaml"),
                yaml_list(
                    "kueue.x-k8s.io/v1beta1",
                    "LocalQueueList",
                    &d.localqueues,
                    rv,
                ),
            );
            sink.put(
                &format!("{base}/kueue.x-k8s.io/workloads.yaml"),
                yaml_list("kueue.x-k8s.io/v1beta1", "WorkloadList", &d.workloads, rv),
            );
        }
        for &pi in &d.pod_files {
            let pod = &d.pods[pi];
            let name = pod["metadata"]["name"].as_str().unwrap();
            sink.put(&format!("{base}/pods/{name}/{name}.yaml"), yaml_doc(pod));
        }
        n_pods += d.pods.len();
        n_events += d.events.len();
        n_wls += d.workloads.len();
        n_other += d.deployments.len()
            + d.replicasets.len()
            + d.services.len()
            + d.endpointslices.len()
            + d.jobs.len()
            + d.localqueues.len();
        if let Some(tx) = &tgz_tx {
            tx.send(TgzMsg::Ns(Arc::new(d))).unwrap();
        }
    }

    // Kueue cluster-scoped objects.
    // Admitted workloads each hold 2 cpu of the default flavor; the quota is exactly used up.
    let adm_total = g.wl_admitted;
    let quota = (adm_total * 2).max(2);
    let cq_created = now - 86_400 * 40;
    let mut kueue_objs: Vec<(String, Value)> = vec![];
    for (name, cpu, mem, flavor, cohort) in [
        (
            "cluster-queue",
            quota,
            quota * 2,
            "default-flavor",
            "research",
        ),
        ("gpu-queue", 16, 256, "gpu-flavor", "research"),
        ("batch-low", 32, 128, "default-flavor", "batch"),
    ] {
        let used = if name == "cluster-queue" {
            adm_total
        } else {
            0
        };
        let pending = if name == "cluster-queue" {
            n_wls as u64 - adm_total.min(n_wls as u64)
        } else {
            0
        };
        let cq = json!({
            "apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ClusterQueue",
            "metadata": {"creationTimestamp": ts(cq_created), "finalizers": ["kueue.x-k8s.io/resource-in-use"], "generation": 1,
                         "name": name, "resourceVersion": g.rv(), "uid": g.rng.uid()},
            "spec": {
                "cohort": cohort, "flavorFungibility": {"whenCanBorrow": "Borrow", "whenCanPreempt": "TryNextFlavor"},
                "namespaceSelector": {}, "preemption": {"borrowWithinCohort": {"policy": "Never"}, "reclaimWithinCohort": "Never", "withinClusterQueue": "Never"},
                "queueingStrategy": "BestEffortFIFO",
                "resourceGroups": [{"coveredResources": ["cpu", "memory"], "flavors": [{"name": flavor, "resources": [
                    {"name": "cpu", "nominalQuota": cpu.to_string()}, {"name": "memory", "nominalQuota": format!("{mem}Gi")}]}]}],
                "stopPolicy": "None",
            },
            "status": {
                "admittedWorkloads": used, "pendingWorkloads": pending, "reservingWorkloads": used,
                "conditions": [{"lastTransitionTime": ts(cq_created), "message": "Can admit new workloads", "observedGeneration": 1, "reason": "Ready", "status": "True", "type": "Active"}],
                "flavorsReservation": [{"name": flavor, "resources": [{"borrowed": "0", "name": "cpu", "total": (used * 2).to_string()}, {"borrowed": "0", "name": "memory", "total": format!("{}Gi", used * 4)}]}],
                "flavorsUsage": [{"name": flavor, "resources": [{"borrowed": "0", "name": "cpu", "total": (used * 2).to_string()}, {"borrowed": "0", "name": "memory", "total": format!("{}Gi", used * 4)}]}],
            },
        });
        sink.put(
            &format!("cluster-scoped-resources/kueue.x-k8s.io/clusterqueues/{name}.yaml"),
            yaml_doc(&cq),
        );
        kueue_objs.push(("clusterqueues".into(), cq));
    }
    for (name, spec) in [
        ("default-flavor", json!({})),
        (
            "gpu-flavor",
            json!({"nodeLabels": {"nvidia.com/gpu.present": "true"}, "tolerations": [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Equal", "value": "present"}]}),
        ),
    ] {
        let rf = json!({
            "apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ResourceFlavor",
            "metadata": {"creationTimestamp": ts(cq_created), "finalizers": ["kueue.x-k8s.io/resource-in-use"], "generation": 1,
                         "name": name, "resourceVersion": g.rv(), "uid": g.rng.uid()},
            "spec": spec,
        });
        sink.put(
            &format!("cluster-scoped-resources/kueue.x-k8s.io/resourceflavors/{name}.yaml"),
            yaml_doc(&rf),
        );
        kueue_objs.push(("resourceflavors".into(), rf));
    }
    if let Some(tx) = &tgz_tx {
        for crd in ["clusterqueues", "resourceflavors"] {
            let items: Vec<Value> = kueue_objs
                .iter()
                .filter(|(c, _)| c == crd)
                .map(|(_, v)| v.clone())
                .collect();
            let mut out = Vec::new();
            y_seq(&mut out, &items, 0, false, false);
            tx.send(TgzMsg::File(
                format!("cluster-resources/custom-resources/{crd}.kueue.x-k8s.io/default.yaml"),
                out,
            ))
            .unwrap();
        }
    }

    let gen_secs = started.elapsed().as_secs_f64();
    let (folder_bytes, folder_files) = (sink.bytes, sink.files);
    drop(sink);
    drop(tgz_tx);
    if let Some(h) = zip_handle {
        h.join().unwrap();
    }
    let (tgz_bytes, tgz_files) = tgz_handle.map(|h| h.join().unwrap()).unwrap_or((0, 0));
    let total_secs = started.elapsed().as_secs_f64();

    let mb = |b: u64| b as f64 / 1e6;
    let [healthy, unsched, imgpull, crash, notready] = g.counts;
    println!(
        "gen_bundle: {} pods ({healthy} healthy, {unsched} unschedulable, {imgpull} image-pull, {crash} crash-loop, {notready} not-ready), {} events, {} nodes, {} namespaces, {} workloads, {} other objects",
        n_pods, n_events, nodes, n_ns, n_wls, n_other
    );
    println!(
        "gen_bundle: folder {}: {} files, {} bytes ({:.1} MB) in {:.2}s",
        out.display(),
        folder_files,
        folder_bytes,
        mb(folder_bytes),
        gen_secs
    );
    let mut manifest = json!({
        "pods": n_pods, "events": n_events, "nodes": nodes, "namespaces": n_ns, "workloads": n_wls,
        "other_objects": n_other, "seed": seed,
        "folder": {"path": out.display().to_string(), "files": folder_files, "bytes": folder_bytes},
    });
    if want_zip {
        let p = sibling(".zip");
        let zb = fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
        println!(
            "gen_bundle: zip {}: {} bytes ({:.1} MB)",
            p.display(),
            zb,
            mb(zb)
        );
        manifest["zip"] = json!({"path": p.display().to_string(), "bytes": zb, "uncompressed_bytes": folder_bytes, "files": folder_files});
    }
    if want_tgz {
        let p = sibling(".troubleshoot.tar.gz");
        let tb = fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
        println!(
            "gen_bundle: troubleshoot tgz {}: {} bytes ({:.1} MB), {} files, {} bytes uncompressed ({:.1} MB)",
            p.display(),
            tb,
            mb(tb),
            tgz_files,
            tgz_bytes,
            mb(tgz_bytes)
        );
        manifest["tgz"] = json!({"path": p.display().to_string(), "bytes": tb, "uncompressed_bytes": tgz_bytes, "files": tgz_files});
    }
    println!("gen_bundle: done in {total_secs:.2}s");
    let mut m = serde_json::to_vec_pretty(&manifest).unwrap();
    m.push(b'\n');
    fs::write(sibling(".gen.json"), m).unwrap_or_else(|e| die(&format!("write manifest: {e}")));
}

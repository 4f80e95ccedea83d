//! `kdiag scan`: many bundles, a few at a time, one JSON line each, then a fleet table;
//! `kdiag merge`: the fleet table of several scans' JSON lines (the shards of an Indexed
//! Job). See docs/scan.md.
//!
//! Memory stays bounded because each worker holds one bundle's snapshot at a time and
//! keeps only its summary line; lines are printed in input order as they complete.

use crate::FailOn;
use crate::progress::Progress;
use kdiag::ingest::InputArg;
use kdiag::report::redact::Redactor;
use kdiag::rules::{self, Severity, Stage};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

pub const SCAN_EXAMPLES: &str = "\
Examples:
  kdiag scan cases/                       every bundle in cases/ (archives, dumps, bundle folders)
  kdiag scan 'cases/2026-*/*.tar.gz' -j 4 globs are expanded by kdiag (quote them)
  kdiag scan cases/ > fleet.jsonl          JSON lines to the file, the fleet table on the terminal
  kdiag scan cases/ --shard 2/8            the third of eight slices (also JOB_COMPLETION_INDEX
                                           and KDIAG_SHARD_COUNT, as an Indexed Job sets them)
  kdiag merge results/shard-*.jsonl        one fleet table from all shards";

/// The `schema` of each line `scan` prints.
const SCAN_SCHEMA: &str = "kdiag.scan/v1";

/// Environment variable with the number of shards (the example Job sets it to its
/// `completions`); Kubernetes itself injects `JOB_COMPLETION_INDEX`.
pub const SHARD_COUNT_ENV: &str = "KDIAG_SHARD_COUNT";

#[derive(clap::Args)]
pub struct ScanArgs {
    /// Bundles, folders of bundles, or globs (`*`, `?`) of either.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
    /// Analyze only slice I of N of the sorted bundle list (0-based). Defaults to
    /// JOB_COMPLETION_INDEX / KDIAG_SHARD_COUNT when both are set.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Bundles analyzed at the same time (each holds one snapshot in memory).
    #[arg(long, short = 'j', default_value_t = 2, value_name = "N")]
    pub jobs: usize,
    /// Findings listed per bundle in its JSON line.
    #[arg(long, default_value_t = 5, value_name = "N")]
    pub top: usize,
    /// Exit non-zero when any bundle has a finding at or above this severity: 1 when one
    /// of them is an error, else 3.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    /// Do not print the fleet table on stderr.
    #[arg(long)]
    pub no_table: bool,
    /// Mask IP addresses, hostnames, registry hosts and label values in the lines.
    #[arg(long)]
    pub redact: bool,
}

#[derive(clap::Args)]
pub struct MergeArgs {
    /// JSON-lines files written by `kdiag scan` (`-` for stdin). Lines that are not JSON
    /// objects are skipped; a bundle seen twice keeps its last line.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// `table` (default), `json` (one fleet summary) or `jsonl` (the merged lines, sorted by path).
    #[arg(long, value_enum, default_value_t = MergeFormat::Table)]
    pub format: MergeFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MergeFormat {
    Table,
    Json,
    Jsonl,
}

pub fn scan(args: ScanArgs) -> ExitCode {
    let shard = match shard_from(args.shard.as_deref(), |k| std::env::var(k).ok()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("kdiag: {e}");
            return ExitCode::from(2);
        }
    };
    let mut bundles = Vec::new();
    for p in &args.paths {
        match expand(p) {
            Ok(found) => bundles.extend(found),
            Err(e) => {
                eprintln!("kdiag: {e}");
                return ExitCode::from(2);
            }
        }
    }
    bundles.sort();
    bundles.dedup();
    if let Some((i, n)) = shard {
        bundles = bundles
            .into_iter()
            .enumerate()
            .filter(|(k, _)| k % n == i)
            .map(|(_, b)| b)
            .collect();
    }
    if bundles.is_empty() {
        eprintln!("kdiag: no bundles found in {}", args.paths.join(" "));
        return ExitCode::from(if shard.is_some() { 0 } else { 2 });
    }
    let threshold = args.fail_on.threshold();
    let progress = Progress::new("bundles", bundles.len());
    let next = AtomicUsize::new(0);
    let done: Mutex<(usize, BTreeMap<usize, Value>)> = Mutex::new((0, BTreeMap::new()));
    let mut all: Vec<Value> = Vec::with_capacity(bundles.len());
    let all_lock = Mutex::new(&mut all);
    // The first error writing stdout; the workers stop taking bundles after it.
    let write_error: Mutex<Option<std::io::Error>> = Mutex::new(None);
    let workers = args.jobs.clamp(1, 64).min(bundles.len());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = bundles.get(k) else { break };
                    progress.set_label(&path.display().to_string());
                    let line = analyze_one(path, args.top, threshold, args.redact);
                    progress.step();
                    // Print in input order: hold lines that finished early.
                    let mut d = done.lock().expect("scan lock");
                    d.1.insert(k, line);
                    while let Some(line) = {
                        let first = d.0;
                        d.1.remove(&first)
                    } {
                        d.0 += 1;
                        let text = serde_json::to_string(&line).unwrap_or_default();
                        let mut out = std::io::stdout().lock();
                        if let Err(e) = writeln!(out, "{text}").and_then(|_| out.flush()) {
                            next.store(bundles.len(), Ordering::Relaxed);
                            write_error.lock().expect("scan lock").get_or_insert(e);
                        }
                        all_lock.lock().expect("scan lock").push(slim(line));
                    }
                }
            });
        }
    });
    progress.finish();
    if let Some(e) = write_error.into_inner().expect("scan lock") {
        return kdiag::write_failed(&e);
    }
    if !args.no_table {
        eprint!("{}", fleet_table(&all));
    }
    let unreadable = all.iter().filter(|l| l.get("error").is_some()).count();
    if unreadable == all.len() {
        return ExitCode::from(2);
    }
    // As `analyze`: 1 when a failing bundle has an error, 3 when they have only lesser findings.
    let failing = all
        .iter()
        .filter(|l| l.get("failing").and_then(Value::as_bool) == Some(true))
        .map(|l| {
            let errors = l.pointer("/severity/error").and_then(Value::as_u64);
            if errors.unwrap_or(0) > 0 {
                Severity::Error
            } else {
                Severity::Warning
            }
        });
    ExitCode::from(crate::fail_code(failing))
}

/// What the fleet table needs of a line (drops the top findings).
fn slim(mut line: Value) -> Value {
    if let Some(m) = line.as_object_mut() {
        m.remove("top");
    }
    line
}

/// `--shard I/N`, else `JOB_COMPLETION_INDEX` and `KDIAG_SHARD_COUNT` together.
pub fn shard_from(
    flag: Option<&str>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Option<(usize, usize)>, String> {
    let parse = |i: &str, n: &str| -> Result<(usize, usize), String> {
        let i: usize = i
            .trim()
            .parse()
            .map_err(|_| format!("shard index {i:?} is not a number"))?;
        let n: usize = n
            .trim()
            .parse()
            .map_err(|_| format!("shard count {n:?} is not a number"))?;
        if n == 0 || i >= n {
            return Err(format!(
                "shard {i}/{n}: the index must be below the count (0-based)"
            ));
        }
        Ok((i, n))
    };
    if let Some(f) = flag {
        let (i, n) = f
            .split_once('/')
            .ok_or_else(|| format!("--shard takes I/N, got {f:?}"))?;
        return parse(i, n).map(Some);
    }
    match (env("JOB_COMPLETION_INDEX"), env(SHARD_COUNT_ENV)) {
        (Some(i), Some(n)) => parse(&i, &n).map(Some),
        (Some(_), None) => Err(format!(
            "JOB_COMPLETION_INDEX is set but {SHARD_COUNT_ENV} is not: set it to the Job's completions, or pass --shard I/N"
        )),
        _ => Ok(None),
    }
}

/// One bundle → its JSON line.
fn analyze_one(path: &Path, top: usize, threshold: Option<Severity>, redact: bool) -> Value {
    let shown = path.display().to_string();
    let (snap, findings) = match kdiag::analyze(&[InputArg::Path(path.to_path_buf())]) {
        Ok(r) => r,
        Err(e) => return json!({"schema": SCAN_SCHEMA, "path": shown, "error": e.0}),
    };
    let a = kdiag::report::Analysis::new(&snap, findings);
    let input = a.inputs.first();
    let mut stages: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_rule: BTreeMap<&str, usize> = BTreeMap::new();
    let mut severity: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &a.findings {
        *stages.entry(f.stage.as_str()).or_default() += 1;
        *by_rule.entry(f.rule).or_default() += 1;
        *severity.entry(f.severity.as_str()).or_default() += 1;
    }
    let top_findings: Vec<Value> = a
        .findings
        .iter()
        .take(top)
        .map(|f| {
            json!({"rule": f.rule, "severity": f.severity, "stage": f.stage, "object": f.object,
                   "message": f.message, "fingerprint": f.fingerprint})
        })
        .collect();
    let objects = input.map(|i| i.objects).unwrap_or(0);
    let mut line = json!({
        "schema": SCAN_SCHEMA,
        "path": shown,
        "layout": input.map(|i| i.layout).unwrap_or("unknown"),
        "as_of": input.and_then(|i| i.as_of.clone()),
        "cluster_version": input.and_then(|i| i.cluster_version.clone()),
        "objects": objects,
        "files": input.map(|i| i.files).unwrap_or(0),
        "problems": a.problems.len(),
        "findings": a.findings.len(),
        "severity": severity,
        "stages": stages,
        "rules": by_rule,
        "top": top_findings,
        "failing": threshold.is_some_and(|t| a.findings.iter().any(|f| f.severity <= t)),
    });
    if objects == 0 {
        line["error"] = json!("no Kubernetes objects could be read");
    }
    if redact {
        let r = Redactor::from_snapshot(&snap);
        let text = r.apply(&line.to_string());
        line = serde_json::from_str(&text).unwrap_or(line);
    }
    line
}

/// The fleet table: how many bundles each rule and stage fires in.
pub fn fleet_table(lines: &[Value]) -> String {
    let total = lines.len();
    let unreadable = lines.iter().filter(|l| l.get("error").is_some()).count();
    let with = lines
        .iter()
        .filter(|l| l.get("findings").and_then(Value::as_u64).unwrap_or(0) > 0)
        .count();
    let mut out =
        format!("fleet: {total} bundle(s), {with} with findings, {unreadable} unreadable\n");
    let counts = |key: &str| {
        let mut m: HashMap<String, (usize, u64)> = HashMap::new();
        for l in lines {
            if let Some(obj) = l.get(key).and_then(Value::as_object) {
                for (k, n) in obj {
                    let e = m.entry(k.clone()).or_default();
                    e.0 += 1;
                    e.1 += n.as_u64().unwrap_or(0);
                }
            }
        }
        m
    };
    let stages = counts("stages");
    out.push_str(&format!(
        "\n{:<12} {:>9} {:>9}\n",
        "STAGE", "BUNDLES", "FINDINGS"
    ));
    for s in Stage::ALL {
        let (b, f) = stages.get(s.as_str()).copied().unwrap_or_default();
        out.push_str(&format!(
            "{:<12} {:>9} {:>9}\n",
            s.as_str(),
            format!("{b}/{total}"),
            f
        ));
    }
    let rules_count = counts("rules");
    if rules_count.is_empty() {
        return out;
    }
    let mut rows: Vec<(&String, &(usize, u64))> = rules_count.iter().collect();
    rows.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(b.1.1.cmp(&a.1.1)).then(a.0.cmp(b.0)));
    let w = rows.iter().map(|(r, _)| r.len()).max().unwrap_or(4).max(4);
    out.push_str(&format!(
        "\n{:<w$}  {:<11} {:>9} {:>9}\n",
        "RULE", "STAGE", "BUNDLES", "FINDINGS"
    ));
    for (rule, (b, f)) in rows {
        let stage = match rules::registry::find(rule) {
            Some(r) if r.fallback => "(per pod)",
            Some(r) => r.stage.as_str(),
            None => "?",
        };
        out.push_str(&format!(
            "{rule:<w$}  {stage:<11} {:>9} {f:>9}\n",
            format!("{b}/{total}")
        ));
    }
    out
}

pub fn merge(args: MergeArgs) -> ExitCode {
    let mut by_path: BTreeMap<String, Value> = BTreeMap::new();
    for f in &args.files {
        let text = if f == "-" {
            let mut s = String::new();
            if std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).is_err() {
                eprintln!("kdiag: cannot read stdin");
                return ExitCode::from(2);
            }
            s
        } else {
            match std::fs::read_to_string(f) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("kdiag: cannot read {f}: {e}");
                    return ExitCode::from(2);
                }
            }
        };
        let mut scan_lines = 0;
        for line in text.lines().map(str::trim).filter(|l| l.starts_with('{')) {
            if let Ok(v) = serde_json::from_str::<Value>(line)
                && let Some(p) = scan_line_path(&v)
            {
                by_path.insert(p.to_string(), v);
                scan_lines += 1;
            }
        }
        // An empty file is a shard that had no bundles; text without one scan line is
        // some other file, and a fleet table of nothing would hide that.
        if scan_lines == 0 && !text.trim().is_empty() {
            let name = if f == "-" { "stdin" } else { f.as_str() };
            eprintln!(
                "kdiag: {name} is not a scan result: it is {}, and holds no `kdiag scan` JSON line ({SCAN_SCHEMA}); merge takes what `kdiag scan` prints",
                what_it_is(&text)
            );
            return ExitCode::from(2);
        }
    }
    let lines: Vec<Value> = by_path.into_values().collect();
    let text = match args.format {
        MergeFormat::Table => fleet_table(&lines),
        MergeFormat::Jsonl => lines.iter().map(|l| format!("{l}\n")).collect(),
        MergeFormat::Json => {
            let mut rules: BTreeMap<String, (usize, u64)> = BTreeMap::new();
            let mut stages: BTreeMap<String, (usize, u64)> = BTreeMap::new();
            for l in &lines {
                for (key, into) in [("rules", &mut rules), ("stages", &mut stages)] {
                    if let Some(m) = l.get(key).and_then(Value::as_object) {
                        for (k, n) in m {
                            let e = into.entry(k.clone()).or_default();
                            e.0 += 1;
                            e.1 += n.as_u64().unwrap_or(0);
                        }
                    }
                }
            }
            let as_json = |m: BTreeMap<String, (usize, u64)>| {
                m.into_iter()
                    .map(|(k, (b, f))| (k, json!({"bundles": b, "findings": f})))
                    .collect::<serde_json::Map<_, _>>()
            };
            let doc = json!({
                "schema": "kdiag.fleet/v1",
                "bundles": lines.len(),
                "with_findings": lines.iter().filter(|l| l.get("findings").and_then(Value::as_u64).unwrap_or(0) > 0).count(),
                "unreadable": lines.iter().filter(|l| l.get("error").is_some()).map(|l| l.get("path").cloned().unwrap_or(Value::Null)).collect::<Vec<_>>(),
                "stages": as_json(stages),
                "rules": as_json(rules),
            });
            format!(
                "{}\n",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            )
        }
    };
    crate::write_stdout(&text)
}

/// What a file given to `merge` holds, when it is not scan lines: kdiag's other
/// outputs by their schema or shape, else JSON or text.
fn what_it_is(text: &str) -> String {
    let trimmed = text.trim_start();
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        let schema = v.get("schema").and_then(Value::as_str).unwrap_or("");
        return match schema {
            "kdiag.findings/v1" => format!("a `kdiag analyze --format json` result ({schema})"),
            "kdiag.baseline/v1" => format!("a `kdiag analyze --baseline` result ({schema})"),
            "kdiag.fleet/v1" => format!("a `kdiag merge --format json` summary ({schema})"),
            "kdiag.rules/v1" => format!("the `kdiag rules --format json` list ({schema})"),
            _ if v.get("runs").is_some() && v.get("version").is_some() => {
                "a SARIF log (`kdiag analyze --format sarif`?)".to_string()
            }
            _ if v.get("kind").is_some() && v.get("apiVersion").is_some() => {
                "a Kubernetes object or list (a bundle: `kdiag analyze` it)".to_string()
            }
            "" => "a JSON document without a `schema`".to_string(),
            other => format!("a JSON document of schema {other:?}"),
        };
    }
    if trimmed.starts_with("<!DOCTYPE html") || trimmed.starts_with("<html") {
        return "an HTML page (`kdiag analyze --format html`?)".to_string();
    }
    if trimmed.starts_with("input ") || trimmed.starts_with("fleet: ") {
        return "kdiag's human output (a report or a fleet table)".to_string();
    }
    "text that is not JSON".to_string()
}

/// The bundle path of a `kdiag scan` line: a JSON object with a `path`, of the scan
/// schema (lines of unreadable bundles and older scans carry no schema).
fn scan_line_path(v: &Value) -> Option<&str> {
    match v.get("schema") {
        None => v.get("path").and_then(Value::as_str),
        Some(s) if s == SCAN_SCHEMA => v.get("path").and_then(Value::as_str),
        Some(_) => None,
    }
}

// ── finding bundles ─────────────────────────────────────────────────────────────────

const DUMP_EXTENSIONS: &[&str] = &[".yaml", ".yml", ".json"];

/// A name that says archive of files (a bundle packed): `.zip`, `.tar`, `.tar.gz`,
/// `.tgz`, `.tar.xz`, `.tar.zst`, also `.7z` and `.rar` (which kdiag names as unreadable).
/// `pods.yaml.gz` is one compressed file, not an archive.
fn has_archive_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    [
        ".zip", ".tar", ".tgz", ".tbz", ".tbz2", ".txz", ".tzst", ".7z", ".rar",
    ]
    .iter()
    .any(|x| name.ends_with(x))
        || name.contains(".tar.")
}

/// A PATH (possibly a glob) → bundles. A folder that looks like a bundle itself
/// (object files at its top, or a must-gather / troubleshoot / cluster-info layout) is
/// one bundle; any other folder is a folder of bundles: each archive, dump file and
/// sub-folder in it is one.
pub fn expand(pattern: &str) -> Result<Vec<PathBuf>, String> {
    let matched = glob(pattern);
    if matched.is_empty() {
        return Err(format!("{pattern}: no such file or directory"));
    }
    let mut out = Vec::new();
    for p in matched {
        if p.is_dir() && !looks_like_bundle(&p) {
            let mut children: Vec<PathBuf> = std::fs::read_dir(&p)
                .map_err(|e| format!("{}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|c| {
                    !c.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with('.'))
                })
                .filter(|c| c.is_dir() || has_bundle_extension(c))
                .collect();
            children.sort();
            out.extend(children);
        } else {
            out.push(p);
        }
    }
    Ok(out)
}

fn has_bundle_extension(p: &Path) -> bool {
    let name = p
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    has_archive_name(&name) || DUMP_EXTENSIONS.iter().any(|e| name.ends_with(e))
}

/// The bundles a folder holds when it is not one bundle itself: archives at its top
/// (`a.tar.gz`, `b.zip`) and sub-folders in which a bundle layout is recognised
/// (`must-gather.local.1/`, a troubleshoot tree), sorted; empty when the folder's own
/// top is a bundle's (a must-gather's `timestamp`, a troubleshoot `cluster-resources/`:
/// the image folders of one must-gather are one bundle), and when it holds fewer than two
/// entries.
pub fn bundles_inside(dir: &Path) -> Vec<String> {
    use kdiag::ingest::layout::{Layout, detect};
    // A signal of a layout rooted at the folder itself, from its top two levels: read
    // first, so that a bundle's own folder is not walked deep (8,000 folders in a large
    // must-gather).
    let top = relative_paths(dir, 2, 20_000);
    let own_top = top.iter().any(|p| {
        let d = detect(std::iter::once(p.as_str()));
        d.layout != Layout::KubectlDump && d.root.is_empty()
    });
    // One entry at the top is one bundle at most.
    if own_top || top.iter().filter(|p| !p.contains('/')).count() < 2 {
        return Vec::new();
    }
    let paths = relative_paths(dir, 5, 20_000);
    let mut found = Vec::new();
    for top in paths.iter().filter(|p| !p.contains('/')) {
        if dir.join(top).is_dir() {
            let prefix = format!("{top}/");
            let d = detect(
                paths
                    .iter()
                    .filter(|p| p.starts_with(&prefix))
                    .map(String::as_str),
            );
            if d.layout != Layout::KubectlDump && d.root.starts_with(&prefix) {
                found.push(prefix);
            }
        } else if has_archive_name(top) {
            found.push(top.clone());
        }
    }
    found
}

/// The paths of files and folders under `dir`, relative to it, `/`-separated, at most
/// `depth` deep and `limit` of them (hidden ones left out), sorted by name.
fn relative_paths(dir: &Path, depth: usize, limit: usize) -> Vec<String> {
    walkdir::WalkDir::new(dir)
        .min_depth(1)
        .max_depth(depth)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(Result::ok)
        .take(limit)
        .filter_map(|e| {
            let rel = e.path().strip_prefix(dir).ok()?;
            Some(rel.to_string_lossy().replace('\\', "/"))
        })
        .collect()
}

/// Whether a folder is one bundle rather than a folder of bundles: the folders and files
/// bundle layouts have make it a bundle; archives in it make it a folder of bundles;
/// else YAML/JSON files at its top make it one dump (a folder holding only folders is
/// a folder of bundles).
fn looks_like_bundle(dir: &Path) -> bool {
    const MARKERS: &[&str] = &[
        "namespaces",
        "cluster-scoped-resources",
        "cluster-resources",
        "cluster-info",
        "version.yaml",
        "timestamp",
        "analysis.json",
    ];
    if bundles_inside(dir).len() >= 2 {
        return false;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let mut dumps = false;
    for e in entries.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().to_ascii_lowercase();
        if MARKERS.contains(&name.as_str())
            || name.starts_with("must-gather.local")
            || name.starts_with("quay-io-")
        {
            return true;
        }
        let p = e.path();
        if p.is_file() {
            if has_archive_name(&name) {
                return false;
            }
            dumps |= DUMP_EXTENSIONS.iter().any(|x| name.ends_with(x));
        }
    }
    dumps
}

/// Expands `*` and `?` in any path component (no `**`); a path without them is
/// returned as is when it exists.
pub fn glob(pattern: &str) -> Vec<PathBuf> {
    if !pattern.contains(['*', '?']) {
        let p = PathBuf::from(pattern);
        return if p.exists() { vec![p] } else { Vec::new() };
    }
    let absolute = pattern.starts_with('/');
    let mut current: Vec<PathBuf> = vec![if absolute {
        PathBuf::from("/")
    } else {
        PathBuf::new()
    }];
    for comp in pattern.split('/').filter(|c| !c.is_empty() && *c != ".") {
        let mut next = Vec::new();
        for base in &current {
            if comp.contains(['*', '?']) {
                let dir = if base.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    base.as_path()
                };
                let Ok(entries) = std::fs::read_dir(dir) else {
                    continue;
                };
                let mut names: Vec<String> = entries
                    .filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| (!n.starts_with('.') || comp.starts_with('.')) && wildcard(comp, n))
                    .collect();
                names.sort();
                next.extend(names.into_iter().map(|n| base.join(n)));
            } else {
                let p = base.join(comp);
                if p.exists() {
                    next.push(p);
                }
            }
        }
        current = next;
    }
    current
}

/// `*` any run of characters, `?` one character.
pub fn wildcard(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let (mut pi, mut ni) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ni;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == '*' {
        pi += 1;
    }
    pi == p.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(wildcard("*.tar.gz", "case-1.tar.gz"));
        assert!(wildcard("case-?", "case-7"));
        assert!(!wildcard("case-?", "case-17"));
        assert!(wildcard("*", ""));
        assert!(wildcard("a*b*c", "axxbyyc"));
        assert!(!wildcard("a*b*c", "axxbyy"));
    }

    #[test]
    fn shards() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(shard_from(Some("1/4"), env(&[])), Ok(Some((1, 4))));
        assert!(shard_from(Some("4/4"), env(&[])).is_err());
        assert!(shard_from(Some("x"), env(&[])).is_err());
        assert_eq!(
            shard_from(
                None,
                env(&[("JOB_COMPLETION_INDEX", "2"), ("KDIAG_SHARD_COUNT", "3")])
            ),
            Ok(Some((2, 3)))
        );
        assert!(shard_from(None, env(&[("JOB_COMPLETION_INDEX", "2")])).is_err());
        assert_eq!(shard_from(None, env(&[])), Ok(None));
        assert_eq!(
            shard_from(
                Some("0/2"),
                env(&[("JOB_COMPLETION_INDEX", "1"), ("KDIAG_SHARD_COUNT", "2")])
            ),
            Ok(Some((0, 2))),
            "the flag wins"
        );
    }
}

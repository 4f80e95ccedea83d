//! What `kdiag scan` and `kdiag merge` make (the commands are `crate::cli::scan` and
//! `merge`): the bundles a PATH or glob names, one bundle's JSON line, the shard a run
//! takes, and the fleet table and summary of many lines (the shards of an Indexed Job).
//! See docs/scan.md.
//!
//! Memory stays bounded because each worker holds one bundle's snapshot at a time and
//! keeps only its summary line; lines are printed in input order as they complete.

use crate::ingest::InputArg;
use crate::report::redact::Redactor;
use crate::rules::{self, Severity, Stage};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The `schema` of each line `scan` prints.
pub const SCAN_SCHEMA: &str = "kdiag.scan/v1";

/// Environment variable with the number of shards (the example Job sets it to its
/// `completions`); Kubernetes itself injects `JOB_COMPLETION_INDEX`.
pub const SHARD_COUNT_ENV: &str = "KDIAG_SHARD_COUNT";

/// What the fleet table needs of a line (drops the top findings).
pub fn slim(mut line: Value) -> Value {
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
pub fn analyze_one(path: &Path, top: usize, threshold: Option<Severity>, redact: bool) -> Value {
    let shown = path.display().to_string();
    let (snap, findings) = match crate::pipeline::analyze(&[InputArg::Path(path.to_path_buf())]) {
        Ok(r) => r,
        Err(e) => return json!({"schema": SCAN_SCHEMA, "path": shown, "error": e.0}),
    };
    let a = crate::report::Analysis::new(&snap, findings);
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
        // Every string masked as a value: nothing is re-read from masked text.
        line = Redactor::from_snapshot(&snap).mask_value(&line);
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
    out.push_str(&bundle_rows(lines));
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

/// One row per bundle, in the lines' order: its path, layout, objects, findings by
/// severity and problems, or why it could not be read.
fn bundle_rows(lines: &[Value]) -> String {
    let text = |l: &Value, k: &str| l.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let num = |l: &Value, p: &str| l.pointer(p).and_then(Value::as_u64).unwrap_or(0);
    let paths: Vec<String> = lines
        .iter()
        .map(|l| crate::parse::terminal::one_line(&text(l, "path")).into_owned())
        .collect();
    let w = paths
        .iter()
        .map(|p| p.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let mut out = format!(
        "\n{:<w$}  {:<22} {:>8} {:>7} {:>8} {:>5} {:>8}\n",
        "BUNDLE", "LAYOUT", "OBJECTS", "ERRORS", "WARNINGS", "INFO", "PROBLEMS"
    );
    for (l, path) in lines.iter().zip(&paths) {
        let pad = w.saturating_sub(path.chars().count());
        if let Some(e) = l.get("error").and_then(Value::as_str)
            && num(l, "/objects") == 0
        {
            let e = crate::parse::terminal::one_line(e);
            out.push_str(&format!("{path}{:pad$}  unreadable: {e}\n", ""));
            continue;
        }
        out.push_str(&format!(
            "{path}{:pad$}  {:<22} {:>8} {:>7} {:>8} {:>5} {:>8}\n",
            "",
            text(l, "layout"),
            num(l, "/objects"),
            num(l, "/severity/error"),
            num(l, "/severity/warning"),
            num(l, "/severity/info"),
            num(l, "/problems"),
        ));
    }
    out
}

/// `merge --format json`: one fleet summary of scan lines, in how many bundles each rule
/// and stage fired and how often, and which bundles could not be read.
pub fn fleet_summary(lines: &[Value]) -> String {
    let mut rules: BTreeMap<String, (usize, u64)> = BTreeMap::new();
    let mut stages: BTreeMap<String, (usize, u64)> = BTreeMap::new();
    for l in lines {
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

/// What a file given to `merge` holds, when it is not scan lines: kdiag's other
/// outputs by their schema or shape, else JSON or text.
pub fn what_it_is(text: &str) -> String {
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
pub fn scan_line_path(v: &Value) -> Option<&str> {
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
/// one bundle; any other folder is a folder of bundles, read as [`bundles_in`] finds them.
pub fn expand(pattern: &str) -> Result<Vec<PathBuf>, String> {
    let matched = glob(pattern);
    if matched.is_empty() {
        return Err(format!("{pattern}: no such file or directory"));
    }
    let mut out = Vec::new();
    for p in matched {
        if p.is_dir() && !looks_like_bundle(&p) {
            out.extend(bundles_in(&p).map_err(|e| format!("{}: {e}", p.display()))?);
        } else {
            out.push(p);
        }
    }
    Ok(out)
}

/// How deep [`bundles_in`] looks into folders of folders of bundles.
const NESTING: usize = 4;

/// The bundles in a folder that is not one bundle itself, sorted: each archive and dump
/// file at its top, each sub-folder that is a bundle, and the bundles of each sub-folder
/// that is a folder of bundles in turn (a case folder holding a customer's folders); a
/// sub-folder in which none is found is kept as one (scan then says what it holds).
/// Hidden entries (`.git/`, `.vscode/`) and editor files are left out.
pub fn bundles_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    nested_bundles(dir, NESTING)
}

fn nested_bundles(dir: &Path, depth: usize) -> std::io::Result<Vec<PathBuf>> {
    let mut children: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|c| {
            !c.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(crate::ingest::layout::is_editor_or_hidden)
        })
        .collect();
    children.sort();
    let mut out = Vec::new();
    for c in children {
        if c.is_dir() {
            if depth == 0 || looks_like_bundle(&c) {
                out.push(c);
                continue;
            }
            match nested_bundles(&c, depth - 1) {
                Ok(inner) if !inner.is_empty() => out.extend(inner),
                _ => out.push(c),
            }
        } else if has_bundle_extension(&c) {
            out.push(c);
        }
    }
    Ok(out)
}

/// An archive by its name (what the ingest opens in a folder) and by its bytes (what it
/// can read): `case.zip` that is an HTML error page is a file, not a bundle.
fn is_archive(p: &Path) -> bool {
    p.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(has_archive_name)
        && crate::ingest::source::holds_readable_archive(p)
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
    use crate::ingest::layout::{Layout, detect};
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
        } else if is_archive(&dir.join(top)) {
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

/// Whether layout detection over the folder's top four levels finds a layout (other than
/// a plain kubectl dump) rooted at the folder itself: a logs collector's `rke2/kubectl/`,
/// a troubleshoot tree, a must-gather whose image folders share its `timestamp`.
/// The folder's own name leads each path, so that a layout's inner folder given alone
/// (a must-gather's `namespaces/`) is still recognised as part of one bundle.
fn own_layout(dir: &Path) -> bool {
    use crate::ingest::layout::{Layout, detect};
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let named = format!("{name}/");
    let paths: Vec<String> = relative_paths(dir, 4, 20_000)
        .into_iter()
        .map(|p| format!("{named}{p}"))
        .collect();
    let d = detect(paths.iter().map(String::as_str));
    d.layout != Layout::KubectlDump && (d.root.is_empty() || d.root == named)
}

/// The bundles a folder PATH holds when it is a folder of bundles (what `kdiag scan`
/// reads one at a time), else nothing: a PATH that is a bundle, or a file.
pub fn several_in(path: &Path) -> Vec<PathBuf> {
    if !path.is_dir() || looks_like_bundle(path) {
        return Vec::new();
    }
    // An archive named so that cannot be read (a 7z, an error page saved as `.zip`), or
    // a sub-folder in which no bundle was found, is scan's to report, not a bundle to
    // refuse the folder for.
    bundles_in(path)
        .unwrap_or_default()
        .into_iter()
        .filter(|b| {
            // Only archives and folders a layout is rooted at count: loose YAML/JSON
            // files beside archives, and sub-folders of YAML (a dump kept a folder per
            // namespace), are one dump's files, read together as before.
            if b.is_dir() {
                marked_bundle(b)
            } else {
                is_archive(b)
            }
        })
        .collect()
}

/// Files and folders only bundles hold at their top.
const MARKERS: &[&str] = &[
    "namespaces",
    "cluster-scoped-resources",
    "cluster-resources",
    "cluster-info",
    "version.yaml",
    "timestamp",
    "analysis.json",
];

/// Whether a folder is a bundle by its layout or by a file or folder only bundles hold
/// (`timestamp`, `cluster-resources`, `must-gather.local.*`…), not merely by YAML in it.
fn marked_bundle(dir: &Path) -> bool {
    own_layout(dir)
        || std::fs::read_dir(dir).is_ok_and(|entries| {
            entries.filter_map(|e| e.ok()).any(|e| {
                let name = e.file_name().to_string_lossy().to_ascii_lowercase();
                MARKERS.contains(&name.as_str())
                    || name.starts_with("must-gather.local")
                    || name.starts_with("quay-io-")
            })
        })
}

/// Whether a folder is one bundle rather than a folder of bundles: the folders and files
/// bundle layouts have make it a bundle; archives in it make it a folder of bundles;
/// else YAML/JSON files at its top make it one dump (a folder holding only folders is
/// a folder of bundles).
fn looks_like_bundle(dir: &Path) -> bool {
    if own_layout(dir) {
        return true;
    }
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
            if is_archive(&p) {
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

//! `kdiag analyze PATH...`: every rule over the merged inputs, reported as human text,
//! JSON, SARIF or HTML, filtered by namespace and stage, compared with a baseline; the
//! exit status says whether findings at or above `--fail-on` were found.

use super::inputs::{load, one_bundle_each};
use super::output::try_write_stdout;
use super::pager;
use crate::report::baseline::Comparison;
use crate::report::redact::Redactor;
use crate::report::{self, Analysis};
use crate::rules::{Severity, Stage};
use crate::snapshot::Snapshot;
use clap::ValueEnum;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

pub const EXAMPLES: &str = "\
Examples:
  kdiag analyze must-gather.local.123/
  kdiag analyze case.zip extra-dump.yaml               merged into one snapshot
  kubectl get pods,events -A -o yaml | kdiag analyze -
  kdiag analyze bundle/ --format json > today.json
  kdiag analyze bundle/ --baseline yesterday.json --fail-on warning
  kdiag analyze bundle/ --format html -o report.html --redact";

#[derive(clap::Args)]
pub struct AnalyzeArgs {
    /// Bundles and dumps to merge: folders, archives, YAML/JSON files, `-` for stdin.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,
    /// Read a folder of several bundles as one cluster (it is refused otherwise: analyze
    /// one bundle at a time, or each with `kdiag scan`).
    #[arg(long)]
    merge: bool,
    /// Output format [default: from the -o file's extension (.json, .sarif, .html), else human].
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Write the report to FILE instead of stdout (a file name, not a format: `-o json`
    /// is refused, use `--format json`).
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Exit non-zero when a finding at or above this severity is reported (with
    /// --baseline: a new finding): 1 when one of them is an error, else 3.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    fail_on: FailOn,
    /// Only report findings about objects in this namespace (repeatable).
    #[arg(long = "namespace", short = 'n', value_name = "NS")]
    namespaces: Vec<String>,
    /// Only report findings of this stage (repeatable).
    #[arg(long = "stage", value_enum, value_name = "STAGE")]
    stages: Vec<StageArg>,
    /// An earlier `--format json` result: report new and resolved findings (by
    /// fingerprint) and fail only on new ones.
    #[arg(long, value_name = "PREVIOUS.json")]
    baseline: Option<String>,
    /// Mask IP addresses, hostnames, registry hosts and label values in the output.
    #[arg(long)]
    redact: bool,
    /// Columns the human report fits in [default: $COLUMNS, else the terminal's width,
    /// else 80].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(report::human::MIN_WIDTH as i64..))]
    width: Option<u16>,
    /// Colour the human report: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    color: ColorWhen,
    /// Human report: only the first N findings (errors first), saying how many were left out.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    top: Option<u64>,
    /// Human report: only the one-line list of findings, without the details.
    #[arg(long)]
    summary: bool,
    /// Human report: the findings shown in full, down to this severity; the others are
    /// their entry of the list only (`all` is `info`).
    #[arg(long, value_enum, value_name = "LEVEL", default_value_t = Details::Warning)]
    details: Details,
    /// Human report: the notes on each input (layout, snapshot time, skipped files), not
    /// only their count.
    #[arg(long)]
    notes: bool,
    /// Human report: write to the terminal directly, not through $KDIAG_PAGER, $PAGER or
    /// `less -FRX` (never used when stdout is not a terminal).
    #[arg(long)]
    no_pager: bool,
}

/// `--details`: the least severe findings the human report shows in full.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Details {
    Error,
    Warning,
    Info,
    All,
}

impl Details {
    fn severity(self) -> Severity {
        match self {
            Details::Error => Severity::Error,
            Details::Warning => Severity::Warning,
            Details::Info | Details::All => Severity::Info,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

impl AnalyzeArgs {
    /// The human report's layout; `to_terminal` when stdout is a terminal; `verdict`, its
    /// last line.
    fn human_style(&self, to_terminal: bool, verdict: String) -> report::human::Style {
        let color = match self.color {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                to_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        };
        report::human::Style {
            color,
            width: report_width(self.width, to_terminal),
            top: self.top.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
            summary_only: self.summary,
            details: self.details.severity(),
            notes: self.notes,
            verdict: Some(verdict),
        }
    }
}

/// `--width`, else `COLUMNS` (as `ls` reads it: set on purpose, since shells do not
/// export it), else the terminal's width, else 80; never below the narrowest layout.
pub fn report_width(flag: Option<u16>, to_terminal: bool) -> usize {
    let columns = || {
        std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse::<usize>().ok())
            .filter(|&c| c > 0)
    };
    let terminal = || {
        to_terminal
            .then(|| terminal_size::terminal_size_of(std::io::stdout()))
            .flatten()
            .map(|(w, _)| usize::from(w.0))
    };
    flag.map(usize::from)
        .or_else(columns)
        .or_else(terminal)
        .unwrap_or(80)
        .max(report::human::MIN_WIDTH)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
enum Format {
    Human,
    Json,
    Sarif,
    Html,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

impl FailOn {
    pub fn threshold(self) -> Option<Severity> {
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Info => Some(Severity::Info),
            FailOn::Never => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FailOn::Error => "error",
            FailOn::Warning => "warning",
            FailOn::Info => "info",
            FailOn::Never => "never",
        }
    }
}

/// `--stage`'s words: a [`Stage`] as the reports name it (the rules know nothing of clap).
#[derive(Clone, Copy)]
struct StageArg(Stage);

/// Every stage `--stage` takes, in pipeline order.
static STAGE_ARGS: [StageArg; Stage::ALL.len()] = {
    let mut all = [StageArg(Stage::Platform); Stage::ALL.len()];
    let mut i = 0;
    while i < all.len() {
        all[i] = StageArg(Stage::ALL[i]);
        i += 1;
    }
    all
};

impl ValueEnum for StageArg {
    fn value_variants<'a>() -> &'a [Self] {
        &STAGE_ARGS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.as_str()))
    }
}

/// Runs `kdiag analyze`: the exit status is [`fail_code`]'s, or 2 for a usage error, no
/// input read, or a report that could not be written.
pub fn run(args: AnalyzeArgs) -> ExitCode {
    let started = std::time::Instant::now();
    let format = match output_format(args.format, args.output.as_deref()) {
        Ok(f) => f,
        Err(e) => {
            crate::err_line!("kdiag: {e}");
            return ExitCode::from(2);
        }
    };
    if format != Format::Human
        && (args.top.is_some() || args.summary || args.details != Details::Warning)
    {
        crate::err_line!(
            "kdiag: --top, --summary and --details shape the human report; the other formats list every finding in full"
        );
        return ExitCode::from(2);
    }
    let several = match one_bundle_each(&args.paths, args.merge) {
        Ok(notes) => notes,
        Err(code) => return code,
    };
    let Some((snapshot, mut findings)) = load(&args.paths) else {
        return ExitCode::from(2);
    };
    if let Err(e) = check_namespaces(&snapshot, &args.namespaces) {
        crate::err_line!("kdiag: {e}");
        return ExitCode::from(2);
    }
    let keep_ns = |ns: Option<&str>| {
        args.namespaces.is_empty() || ns.is_some_and(|n| args.namespaces.iter().any(|x| x == n))
    };
    let keep_stage =
        |s: &str| args.stages.is_empty() || args.stages.iter().any(|x| x.0.as_str() == s);
    let found = findings.len();
    findings.retain(|f| keep_ns(f.object.namespace.as_deref()) && keep_stage(f.stage.as_str()));
    if !args.namespaces.is_empty() || !args.stages.is_empty() {
        crate::err_line!(
            "kdiag: {}: {} of {found} finding(s) shown, {} hidden",
            filters_text(&args),
            findings.len(),
            found - findings.len()
        );
    }
    let comparison = match &args.baseline {
        Some(path) => {
            let keep = |f: &serde_json::Value| {
                keep_ns(f.pointer("/object/namespace").and_then(|v| v.as_str()))
                    && keep_stage(f.get("stage").and_then(|v| v.as_str()).unwrap_or(""))
            };
            match Comparison::load(path, &findings, &keep) {
                Ok(c) => Some(c),
                Err(e) => {
                    crate::err_line!("kdiag: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        None => None,
    };
    let redactor = args.redact.then(|| Redactor::from_snapshot(&snapshot));
    let mut analysis = Analysis::new(&snapshot, findings);
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    for (i, note) in &several {
        // A human report on this terminal shows the note already.
        if !(to_terminal && format == Format::Human && args.notes) {
            crate::err_line!("kdiag: warning: {note}");
        }
        if let Some(input) = analysis.inputs.get_mut(*i) {
            input.notes.push(note.clone());
        }
    }
    if let Some(r) = &redactor {
        analysis.redact(r);
    }
    let threshold = args.fail_on.threshold();
    let failing = analysis.findings.iter().filter(|f| {
        threshold.is_some_and(|t| f.severity <= t)
            && comparison.as_ref().is_none_or(|c| c.is_new(f))
    });
    let read_nothing = analysis.inputs.iter().all(|i| i.objects == 0);
    let code = if read_nothing {
        2
    } else {
        fail_code(failing.map(|f| f.severity))
    };
    let text = match format {
        Format::Json => match &comparison {
            Some(c) => c.render_json(&analysis),
            None => report::json::render(&analysis),
        },
        Format::Sarif => report::sarif::render(&analysis, comparison.as_ref()),
        Format::Html => report::html::render(&analysis, comparison.as_ref()),
        Format::Human => {
            let outcome = report::verdict::Outcome {
                exit: code,
                fail_on: args.fail_on.as_str(),
            };
            let verdict = report::verdict::line(&analysis, comparison.as_ref(), &outcome);
            let style = args.human_style(to_terminal, verdict);
            match &comparison {
                Some(c) => report::human::render_against(&analysis, &style, c),
                None => report::human::render(&analysis, &style),
            }
        }
    };
    let written = match &args.output {
        Some(path) => write_file(path, &text, analysis.findings.len()),
        None if format == Format::Human => write_human(&text, to_terminal, args.no_pager),
        None => try_write_stdout(&text),
    };
    if let Err(code) = written {
        return code;
    }
    if std::env::var_os("KDIAG_STATS").is_some() {
        crate::err_line!(
            "kdiag stats: {:.3}s, {} objects, peak RSS {} MiB",
            started.elapsed().as_secs_f64(),
            snapshot.objects.len(),
            crate::process_stats::peak_rss_mib()
                .map(|m| m.to_string())
                .unwrap_or_else(|| "?".into())
        );
    }
    if read_nothing {
        crate::err_line!("kdiag: no Kubernetes objects could be read from the input(s)");
        return ExitCode::from(2);
    }
    // Freeing a large snapshot object by object takes longer than the process exit does.
    std::mem::forget(analysis);
    std::mem::forget(snapshot);
    ExitCode::from(code)
}

/// Writes the report to `path` and says so on stderr ("wrote report.html: 6 findings"):
/// a file written quietly is easy to look for in the wrong place.
fn write_file(path: &std::path::Path, text: &str, findings: usize) -> Result<(), ExitCode> {
    if let Err(e) = std::fs::write(path, text.as_bytes()) {
        crate::err_line!("kdiag: cannot write {}: {e}", path.display());
        return Err(ExitCode::from(2));
    }
    let s = if findings == 1 { "" } else { "s" };
    crate::err_line!("wrote {}: {findings} finding{s}", path.display());
    Ok(())
}

/// Writes the human report to stdout: through the pager (see [`super::pager`]) when it
/// is longer than the terminal.
fn write_human(text: &str, to_terminal: bool, no_pager: bool) -> Result<(), ExitCode> {
    let rows = to_terminal
        .then(|| terminal_size::terminal_size_of(std::io::stdout()))
        .flatten()
        .map(|(_, h)| usize::from(h.0));
    let lines = text.lines().count();
    match pager::command(to_terminal, no_pager, lines, rows, pager::from_env()) {
        Some(cmd) => pager::write_paged(text, &cmd),
        None => try_write_stdout(text),
    }
}

/// The exit status of findings at or above `--fail-on`: 0 none, 1 when one is an error,
/// else 3 (warnings, or info with `--fail-on info`), so that CI can tell them apart as
/// troubleshoot's preflight does (3 fail, 4 warn), keeping 1 for errors as before.
pub fn fail_code(failing: impl Iterator<Item = Severity>) -> u8 {
    let mut code = 0;
    for severity in failing {
        if severity == Severity::Error {
            return 1;
        }
        code = 3;
    }
    code
}

/// The report's format: `--format`, else the `-o` file's extension (`.json`, `.sarif`,
/// `.html`), else human. `-o json` (a format word as a bare file name) is refused: in
/// kubectl and `kdiag get`, `-o` is the format, and a file named `json` holding a human
/// report helps no one.
fn output_format(
    format: Option<Format>,
    output: Option<&std::path::Path>,
) -> Result<Format, String> {
    let Some(path) = output else {
        return Ok(format.unwrap_or(Format::Human));
    };
    let shown = path.to_string_lossy();
    const WORDS: &[&str] = &[
        "json", "yaml", "yml", "sarif", "html", "human", "wide", "name",
    ];
    if let Some(word) = WORDS.iter().find(|w| shown.eq_ignore_ascii_case(w)) {
        let hint = match *word {
            "yaml" | "yml" | "wide" | "name" => {
                "analyze prints human, json, sarif or html: --format json".to_string()
            }
            w => format!("--format {w}"),
        };
        return Err(format!(
            "-o names the file to write, not the format: use {hint} (with -o FILE.{} to write a file; -o ./{shown} for a file really named {shown})",
            match *word {
                "sarif" => "sarif",
                "html" => "html",
                _ => "json",
            }
        ));
    }
    if let Some(f) = format {
        return Ok(f);
    }
    let name = shown.to_ascii_lowercase();
    if name.ends_with(".sarif") || name.ends_with(".sarif.json") {
        return Ok(Format::Sarif);
    }
    let extension = path
        .file_name()
        .and_then(|n| std::path::Path::new(n).extension())
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("json") => Ok(Format::Json),
        Some("html" | "htm") => Ok(Format::Html),
        None | Some("txt" | "text") => Ok(Format::Human),
        // A report in a format it does not name (`.yaml`) would mislead its reader.
        Some(other) => Err(format!(
            "-o {shown}: .{other} is not a report format; the formats are {FORMATS} (or --format FORMAT for any file name)"
        )),
    }
}

/// The formats and the extensions that choose them, for the message refusing another.
const FORMATS: &str = "human (.txt, or no extension), json (.json), sarif (.sarif), html (.html)";

/// `-n ml -n web --stage queue`, for the line that says how many findings a filter hid.
fn filters_text(args: &AnalyzeArgs) -> String {
    let ns = args.namespaces.iter().map(|n| format!("-n {n}"));
    let stages = args
        .stages
        .iter()
        .map(|s| format!("--stage {}", s.0.as_str()));
    ns.chain(stages).collect::<Vec<_>>().join(" ")
}

/// Refuses `-n` namespaces none of which is in the bundle (a typo would otherwise read as
/// "nothing stuck"), naming the closest and the bundle's biggest namespaces; a namespace
/// not in the bundle beside others that are is only warned about.
fn check_namespaces(snapshot: &Snapshot, asked: &[String]) -> Result<(), String> {
    if asked.is_empty() {
        return Ok(());
    }
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for o in &snapshot.objects {
        if let Some(ns) = o.namespace.as_deref() {
            *counts.entry(ns).or_default() += 1;
        } else if o.kind == "Namespace" && o.group().is_empty() {
            counts.entry(o.name.as_str()).or_default();
        }
    }
    let missing: Vec<&String> = asked
        .iter()
        .filter(|n| !counts.contains_key(n.as_str()))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let mut biggest: Vec<(&str, usize)> = counts.iter().map(|(n, c)| (*n, *c)).collect();
    biggest.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut shown: Vec<&str> = biggest.iter().take(8).map(|(n, _)| *n).collect();
    shown.sort();
    let listed = match counts.len() {
        0 => "it holds no namespaced objects".to_string(),
        n if n > shown.len() => format!(
            "its namespaces with the most objects: {} ({n} in all)",
            shown.join(", ")
        ),
        _ => format!("its namespaces: {}", shown.join(", ")),
    };
    let names = missing
        .iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    let hint = missing
        .iter()
        .find_map(|n| crate::parse::typo::did_you_mean(n, counts.keys().copied()))
        .map(|m| format!("did you mean {m}? "))
        .unwrap_or_default();
    let message = format!("namespace {names} is not in the bundle; {hint}{listed}");
    if missing.len() == asked.len() {
        return Err(message);
    }
    crate::err_line!("kdiag: warning: {message}");
    Ok(())
}

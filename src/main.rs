//! The `kdiag` command line: clap → commands.

mod explorer;
mod progress;
mod scan;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use kdiag::ingest::InputArg;
use kdiag::report::baseline::Comparison;
use kdiag::report::redact::Redactor;
use kdiag::report::{self, Analysis};
use kdiag::rules::{self, Finding, Severity, Stage};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  kdiag analyze must-gather.tar.gz                  where each stuck thing stopped, and why
  kdiag analyze bundle.zip -n ml --stage queue      only the queue stage of namespace ml
  kdiag analyze bundle/ --format html -o report.html --redact
                                                    a self-contained page for a public ticket
  kdiag analyze bundle/ --format sarif -o kdiag.sarif
  kdiag analyze new/ --baseline old.json            what is new since an earlier JSON result
  kdiag why job/train -n ml bundle/                 one object's Kueue admission chain
  kdiag get po -A -o wide bundle/                   like kubectl, offline
  kdiag describe deploy/web -n shop bundle/         with the object's events and findings
  kdiag logs web-7d4b9-x2kqp -p -n shop bundle/     the previous container's log
  kdiag scan 'cases/*/' > fleet.jsonl               many bundles, one JSON line each
  kdiag merge shard-*.jsonl                         the fleet table of sharded scans

Exit status: 0 nothing at or above --fail-on; 1 an error finding at or above it;
3 findings at or above --fail-on, none an error (warnings, or info with --fail-on info);
2 usage error, a PATH or -n namespace that does not exist, or no input could be read;
141 stdout was closed early (`| head`): nothing more is printed, as a SIGPIPE end.";

#[derive(Parser)]
#[command(
    name = "kdiag",
    version,
    about = "Explains, offline, why things are stuck in a saved Kubernetes snapshot (support bundle)",
    long_about = "Explains, offline, why things are stuck in a saved Kubernetes snapshot (support bundle).\n\n\
        kdiag reads kubectl dumps, must-gather trees, troubleshoot bundles, support-bundle-kit \
        bundles, cluster-info dumps and Insights archives (folders, .zip, .tar, .tar.gz, YAML/JSON files, stdin) and names, for every \
        stuck pod or job, the stage where it stopped (queue, creation, scheduling, node, runtime, \
        readiness, traffic), citing the bundle's own files and lines.",
    after_help = EXAMPLES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Analyze one or more bundles (folder, .zip, .tar, .tar.gz, .yaml/.json, or - for stdin), merged into one snapshot.
    #[command(after_help = ANALYZE_EXAMPLES)]
    Analyze(AnalyzeArgs),
    /// List every rule with its id, stage, default severity and summary, or one rule's full doc.
    #[command(after_help = RULES_EXAMPLES)]
    Rules(RulesArgs),
    /// Explain one object's Kueue admission chain (Workload, Job, Pod, ClusterQueue, LocalQueue, Cohort) as a tree with quota tables.
    Why(kdiag::explain::WhyArgs),
    /// List objects of a kind from a bundle, like `kubectl get` (short names and plurals accepted).
    #[command(after_help = explorer::GET_EXAMPLES)]
    Get(explorer::GetArgs),
    /// Show one object in detail with its events and kdiag's findings, like `kubectl describe`.
    #[command(after_help = explorer::DESCRIBE_EXAMPLES)]
    Describe(explorer::DescribeArgs),
    /// Print a container's log as the bundle holds it, like `kubectl logs` (-p: the previous container's).
    #[command(after_help = explorer::LOGS_EXAMPLES)]
    Logs(explorer::LogsArgs),
    /// Analyze many bundles (folders of bundles, globs) a few at a time: one JSON line per bundle, then a fleet table on stderr.
    #[command(after_help = scan::SCAN_EXAMPLES)]
    Scan(scan::ScanArgs),
    /// Merge the JSON lines of several scans (e.g. the shards of an Indexed Job) into one fleet table.
    Merge(scan::MergeArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), or write one page per command into a folder.
    Man {
        /// Write kdiag.1 and kdiag-COMMAND.1 pages into this folder instead of printing kdiag.1.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

const ANALYZE_EXAMPLES: &str = "\
Examples:
  kdiag analyze must-gather.local.123/
  kdiag analyze case.zip extra-dump.yaml               merged into one snapshot
  kubectl get pods,events -A -o yaml | kdiag analyze -
  kdiag analyze bundle/ --format json > today.json
  kdiag analyze bundle/ --baseline yesterday.json --fail-on warning
  kdiag analyze bundle/ --format html -o report.html --redact";

#[derive(clap::Args)]
struct AnalyzeArgs {
    /// Bundles and dumps to merge: folders, archives, YAML/JSON files, `-` for stdin.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,
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
    stages: Vec<Stage>,
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
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

impl AnalyzeArgs {
    /// The human report's layout; `to_terminal` when stdout is a terminal.
    fn human_style(&self, to_terminal: bool) -> report::human::Style {
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
        }
    }
}

/// `--width`, else `COLUMNS` (as `ls` reads it: set on purpose, since shells do not
/// export it), else the terminal's width, else 80; never below the narrowest layout.
fn report_width(flag: Option<u16>, to_terminal: bool) -> usize {
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

#[derive(Clone, Copy, ValueEnum)]
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
}

fn main() -> ExitCode {
    #[cfg(feature = "mimalloc")]
    tune_allocator();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Rules(args) => rules_command(args),
        Command::Analyze(args) => analyze(args),
        Command::Why(args) => kdiag::explain::main(args),
        Command::Get(args) => explorer::get(args),
        Command::Describe(args) => explorer::describe(args),
        Command::Logs(args) => explorer::logs(args),
        Command::Scan(args) => scan::scan(args),
        Command::Merge(args) => scan::merge(args),
        Command::Completions { shell } => {
            let mut cmd = Cli::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut cmd, "kdiag", &mut script);
            write_stdout(&String::from_utf8_lossy(&script))
        }
        Command::Man { dir } => man(dir),
    }
}

fn man(dir: Option<PathBuf>) -> ExitCode {
    let cmd = Cli::command();
    let Some(dir) = dir else {
        let mut out = Vec::new();
        if clap_mangen::Man::new(cmd).render(&mut out).is_err() {
            return ExitCode::from(2);
        }
        return write_stdout(&String::from_utf8_lossy(&out));
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("kdiag: cannot create {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    let mut pages = vec![("kdiag.1".to_string(), cmd.clone())];
    for sub in cmd.get_subcommands() {
        // clap names are &'static str; a handful of page names live until exit anyway.
        let name: &'static str = Box::leak(format!("kdiag-{}", sub.get_name()).into_boxed_str());
        pages.push((format!("{name}.1"), sub.clone().name(name)));
    }
    for (file, page) in pages {
        let mut out = Vec::new();
        let written = clap_mangen::Man::new(page)
            .render(&mut out)
            .map_err(|e| e.to_string())
            .and_then(|_| std::fs::write(dir.join(&file), &out).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("kdiag: cannot write {file}: {e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

const RULES_EXAMPLES: &str = "\
Examples:
  kdiag rules                                every rule, one line each
  kdiag rules kueue                          the rules of one area
  kdiag rules kueue/quota-exceeds-capacity   one rule's full doc
  kdiag rules --format json                  every rule with its doc, as JSON";

#[derive(clap::Args)]
struct RulesArgs {
    /// A rule id (`kueue/quota-exceeds-capacity`) for its full doc, or an area (`kueue`)
    /// for its rules.
    #[arg(value_name = "ID")]
    id: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RulesFormat::Human)]
    format: RulesFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RulesFormat {
    Human,
    Json,
}

/// `kdiag rules [ID]`: the registry as a table, one rule's doc, or either as JSON.
fn rules_command(args: RulesArgs) -> ExitCode {
    let all: Vec<&rules::RuleMeta> = rules::registry::all().collect();
    let picked: Vec<&rules::RuleMeta> = match args.id.as_deref() {
        None => all,
        Some(id) => {
            let area = id.trim_end_matches('/');
            let picked: Vec<&rules::RuleMeta> = all
                .iter()
                .copied()
                .filter(|r| r.id == id || r.id.split('/').next() == Some(area))
                .collect();
            if picked.is_empty() {
                let hint = kdiag::parse::typo::did_you_mean(id, all.iter().map(|r| r.id))
                    .map(|m| format!(" (did you mean {m}?)"))
                    .unwrap_or_default();
                eprintln!("kdiag: no rule or area {id:?}{hint}; `kdiag rules` lists them");
                return ExitCode::from(2);
            }
            picked
        }
    };
    let one =
        args.id.is_some() && picked.len() == 1 && picked[0].id == args.id.as_deref().unwrap_or("");
    let text = match (args.format, one) {
        (RulesFormat::Json, true) => json_line(&rule_json(picked[0])),
        (RulesFormat::Json, false) => json_line(&serde_json::json!({
            "schema": "kdiag.rules/v1",
            "rules": picked.iter().map(|r| rule_json(r)).collect::<Vec<_>>(),
        })),
        (RulesFormat::Human, true) => rule_doc(picked[0]),
        (RulesFormat::Human, false) => rules_table(&picked),
    };
    write_stdout(&text)
}

/// The stage column of a rule: the stage classifier reports each pod at the stage where
/// it stopped.
fn rule_stage(r: &rules::RuleMeta) -> &'static str {
    if r.fallback {
        "(per pod)"
    } else {
        r.stage.as_str()
    }
}

/// A rule's doc comment as written, without the space rustdoc keeps after `///`.
fn rule_doc_text(r: &rules::RuleMeta) -> String {
    r.doc
        .lines()
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

fn rule_json(r: &rules::RuleMeta) -> serde_json::Value {
    serde_json::json!({
        "id": r.id,
        "stage": rule_stage(r),
        "severity": r.severity.as_str(),
        "summary": r.summary(),
        "doc": rule_doc_text(r),
    })
}

fn json_line(v: &serde_json::Value) -> String {
    format!("{}\n", serde_json::to_string_pretty(v).unwrap_or_default())
}

/// One rule: its id, stage and default severity, then its whole doc comment.
fn rule_doc(r: &rules::RuleMeta) -> String {
    format!(
        "{}\nstage:    {}\nseverity: {} (default)\n\n{}\n",
        r.id,
        rule_stage(r),
        r.severity.as_str(),
        rule_doc_text(r)
    )
}

/// RULE, STAGE, SEVERITY and SUMMARY, each column as wide as its longest cell.
fn rules_table(picked: &[&rules::RuleMeta]) -> String {
    let rows: Vec<[&str; 4]> = picked
        .iter()
        .map(|r| [r.id, rule_stage(r), r.severity.as_str(), r.summary()])
        .collect();
    let header = ["RULE", "STAGE", "SEVERITY", "SUMMARY"];
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([header[i].len()])
            .max()
            .unwrap_or(0)
    };
    let (w0, w1, w2) = (width(0), width(1), width(2));
    let mut out = String::new();
    for row in std::iter::once(header).chain(rows) {
        out.push_str(&format!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {}\n",
            row[0], row[1], row[2], row[3]
        ));
    }
    out
}

/// PATH arguments as ingest takes them.
pub fn input_args(paths: &[String]) -> Vec<InputArg> {
    paths
        .iter()
        .map(|p| {
            if p == "-" {
                InputArg::Stdin
            } else {
                InputArg::Path(PathBuf::from(p))
            }
        })
        .collect()
}

/// Loads the inputs into a snapshot without running the rules (for `get`).
pub fn load_snapshot(
    paths: &[String],
    want: &kdiag::ingest::Want,
) -> Option<kdiag::snapshot::Snapshot> {
    for (_, note) in several_bundles(paths) {
        eprintln!("kdiag: warning: {note}");
    }
    let progress = progress::Progress::new(&format!("reading {} input(s)…", paths.len()), 0);
    let result = kdiag::ingest::load_wanted(&input_args(paths), want);
    progress.finish();
    if std::env::var_os("KDIAG_STATS").is_some() {
        let rss = kdiag::peak_rss_mib().unwrap_or(0);
        eprintln!("kdiag stats: loaded, peak RSS {rss} MiB");
    }
    match result {
        Ok(loaded) => Some(kdiag::snapshot::Snapshot::build(loaded)),
        Err(e) => {
            eprintln!("kdiag: {}", e.0);
            None
        }
    }
}

/// Says on stderr that files this answer comes from had problems (their objects may be
/// missing from it, so "No resources found" is not the last word), naming the first few.
/// Only problems in files that a read of `want` reads count, so a selective read and a
/// full one say the same.
pub fn warn_of_problems(snap: &kdiag::snapshot::Snapshot, want: &kdiag::ingest::Want) {
    use kdiag::parse::terminal::one_line;
    const SHOWN: usize = 3;
    let read = want.clone().with_all_events();
    let problems: Vec<_> = snap
        .problems()
        .into_iter()
        .filter(|p| {
            snap.inputs
                .get(p.input)
                .is_none_or(|i| read.bears_on(i, p.file.as_deref()))
        })
        .collect();
    if problems.is_empty() {
        return;
    }
    eprintln!(
        "kdiag: warning: {} problem(s) in the files that can hold this answer; what they hold may be missing from it:",
        problems.len()
    );
    for p in problems.iter().take(SHOWN) {
        let line = p.line.map(|l| format!(":{l}")).unwrap_or_default();
        let input = snap.inputs.get(p.input).map_or("?", |i| i.path.as_str());
        eprintln!(
            "  {}: {}{line}: {}",
            one_line(input),
            one_line(p.file.as_deref().unwrap_or("")),
            one_line(&p.message)
        );
    }
    if problems.len() > SHOWN {
        eprintln!("  … and {} more", problems.len() - SHOWN);
    }
    eprintln!("  (`kdiag analyze` lists every problem of the bundle)");
}

/// Loads and analyzes the inputs with a status line on a terminal; prints the error and
/// returns `None` when no input could be read.
pub fn load(paths: &[String]) -> Option<(kdiag::snapshot::Snapshot, Vec<Finding>)> {
    load_wanted(paths, &kdiag::ingest::Want::all())
}

/// [`load`] of what `want` names (see `kdiag::ingest::want`).
pub fn load_wanted(
    paths: &[String],
    want: &kdiag::ingest::Want,
) -> Option<(kdiag::snapshot::Snapshot, Vec<Finding>)> {
    let progress = progress::Progress::new(
        &format!("reading and analyzing {} input(s)…", paths.len()),
        0,
    );
    let result = kdiag::analyze_wanted(&input_args(paths), want);
    progress.finish();
    match result {
        Ok(r) => Some(r),
        Err(e) => {
            eprintln!("kdiag: {}", e.0);
            None
        }
    }
}

fn analyze(args: AnalyzeArgs) -> ExitCode {
    let started = std::time::Instant::now();
    let format = match output_format(args.format, args.output.as_deref()) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("kdiag: {e}");
            return ExitCode::from(2);
        }
    };
    if format != Format::Human && (args.top.is_some() || args.summary) {
        eprintln!(
            "kdiag: --top and --summary shape the human report; the other formats list every finding"
        );
        return ExitCode::from(2);
    }
    let several = several_bundles(&args.paths);
    let Some((snapshot, mut findings)) = load(&args.paths) else {
        return ExitCode::from(2);
    };
    if let Err(e) = check_namespaces(&snapshot, &args.namespaces) {
        eprintln!("kdiag: {e}");
        return ExitCode::from(2);
    }
    let keep_ns = |ns: Option<&str>| {
        args.namespaces.is_empty() || ns.is_some_and(|n| args.namespaces.iter().any(|x| x == n))
    };
    let keep_stage =
        |s: &str| args.stages.is_empty() || args.stages.iter().any(|x| x.as_str() == s);
    let found = findings.len();
    findings.retain(|f| keep_ns(f.object.namespace.as_deref()) && keep_stage(f.stage.as_str()));
    if !args.namespaces.is_empty() || !args.stages.is_empty() {
        eprintln!(
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
                    eprintln!("kdiag: {e}");
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
        if !(to_terminal && format == Format::Human) {
            eprintln!("kdiag: warning: {note}");
        }
        if let Some(input) = analysis.inputs.get_mut(*i) {
            input.notes.push(note.clone());
        }
    }
    if let Some(r) = &redactor {
        analysis.redact(r);
    }
    let mut text = match format {
        Format::Json => match &comparison {
            Some(c) => c.render_json(&analysis),
            None => report::json::render(&analysis),
        },
        Format::Sarif => report::sarif::render(&analysis, comparison.as_ref()),
        Format::Html => report::html::render(&analysis, comparison.as_ref()),
        Format::Human => {
            let style = args.human_style(to_terminal);
            match &comparison {
                Some(c) => report::human::render_against(&analysis, &style, c),
                None => report::human::render(&analysis, &style),
            }
        }
    };
    if let Some(r) = &redactor {
        text = r.apply(&text);
    }
    let written = match &args.output {
        Some(path) => std::fs::write(path, text.as_bytes()).map_err(|e| {
            eprintln!("kdiag: cannot write {}: {e}", path.display());
            ExitCode::from(2)
        }),
        None => kdiag::write_stdout(&text),
    };
    if let Err(code) = written {
        return code;
    }
    if std::env::var_os("KDIAG_STATS").is_some() {
        eprintln!(
            "kdiag stats: {:.3}s, {} objects, peak RSS {} MiB",
            started.elapsed().as_secs_f64(),
            snapshot.objects.len(),
            peak_rss_mib()
                .map(|m| m.to_string())
                .unwrap_or_else(|| "?".into())
        );
    }
    if analysis.inputs.iter().all(|i| i.objects == 0) {
        eprintln!("kdiag: no Kubernetes objects could be read from the input(s)");
        return ExitCode::from(2);
    }
    let threshold = args.fail_on.threshold();
    let failing = analysis.findings.iter().filter(|f| {
        threshold.is_some_and(|t| f.severity <= t)
            && comparison.as_ref().is_none_or(|c| c.is_new(f))
    });
    let code = fail_code(failing.map(|f| f.severity));
    // Freeing a large snapshot object by object takes longer than the process exit does.
    std::mem::forget(analysis);
    std::mem::forget(snapshot);
    ExitCode::from(code)
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
    Ok(
        if name.ends_with(".json") && !name.ends_with(".sarif.json") {
            Format::Json
        } else if name.ends_with(".sarif") || name.ends_with(".sarif.json") {
            Format::Sarif
        } else if name.ends_with(".html") || name.ends_with(".htm") {
            Format::Html
        } else {
            Format::Human
        },
    )
}

/// `-n ml -n web --stage queue`, for the line that says how many findings a filter hid.
fn filters_text(args: &AnalyzeArgs) -> String {
    let ns = args.namespaces.iter().map(|n| format!("-n {n}"));
    let stages = args
        .stages
        .iter()
        .map(|s| format!("--stage {}", s.as_str()));
    ns.chain(stages).collect::<Vec<_>>().join(" ")
}

/// Refuses `-n` namespaces none of which is in the bundle (a typo would otherwise read as
/// "nothing stuck"), naming the closest and the bundle's biggest namespaces; a namespace
/// not in the bundle beside others that are is only warned about.
fn check_namespaces(snapshot: &kdiag::snapshot::Snapshot, asked: &[String]) -> Result<(), String> {
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
        .find_map(|n| kdiag::parse::typo::did_you_mean(n, counts.keys().copied()))
        .map(|m| format!("did you mean {m}? "))
        .unwrap_or_default();
    let message = format!("namespace {names} is not in the bundle; {hint}{listed}");
    if missing.len() == asked.len() {
        return Err(message);
    }
    eprintln!("kdiag: warning: {message}");
    Ok(())
}

/// For each PATH that is a folder holding several bundles (which would be merged into
/// one cluster): its index and the note that names them and points to `kdiag scan`.
fn several_bundles(paths: &[String]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, p) in paths.iter().enumerate() {
        let path = std::path::Path::new(p);
        if p == "-" || !path.is_dir() {
            continue;
        }
        let found = scan::bundles_inside(path);
        if found.len() < 2 {
            continue;
        }
        const SHOWN: usize = 5;
        let mut names = found
            .iter()
            .take(SHOWN)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        if found.len() > SHOWN {
            names.push_str(&format!(", … ({} in all)", found.len()));
        }
        out.push((
            i,
            format!(
                "{p} holds {} bundles ({names}), read here as one cluster; analyze each alone, or all with `kdiag scan {p}`",
                found.len()
            ),
        ));
    }
    out
}

/// Writes a command's whole output to stdout: see [`kdiag::write_stdout`].
pub fn write_stdout(text: &str) -> ExitCode {
    match kdiag::write_stdout(text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// Peak resident set size from /proc (Linux), for the benchmark.
fn peak_rss_mib() -> Option<u64> {
    kdiag::peak_rss_mib()
}

/// Parsing a bundle allocates millions of small strings and maps; mimalloc is markedly
/// faster than the system allocator at that.
/// mimalloc v3 keeps freed memory for a second before giving it back to the OS
/// (`purge_delay`, longer for arenas), about the length of a whole run: nothing was given
/// back and peak RSS was 1.5× the live heap (290 against 200 MiB at 100 MB). 2 ms gives
/// memory back at no measured cost in time. Transparent huge pages are off for the same
/// reason (the `no_thp` feature): 2 MiB pages mostly unused inflated RSS.
/// `MIMALLOC_PURGE_DELAY` still overrides.
#[cfg(feature = "mimalloc")]
fn tune_allocator() {
    // `mi_option_purge_delay` in mimalloc v3's `mi_option_e` (libmimalloc-sys names no
    // constant for it); read back below so a renumbering cannot set another option.
    const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: plain option setters of the allocator, called before any thread starts.
        unsafe {
            if libmimalloc_sys::mi_option_get(PURGE_DELAY) == 1000 {
                libmimalloc_sys::mi_option_set(PURGE_DELAY, 2);
            }
        }
    }
}

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

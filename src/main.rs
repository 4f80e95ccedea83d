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
  kdiag scan 'cases/*/' > fleet.jsonl               many bundles, one JSON line each
  kdiag merge shard-*.jsonl                         the fleet table of sharded scans

Exit status: 0 nothing at or above --fail-on, 1 findings at or above it,
2 usage error, a PATH that does not exist, or no input could be read.";

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
    /// List every rule with its id, stage, default severity and summary.
    Rules,
    /// Explain one object's Kueue admission chain (Workload, Job, Pod, ClusterQueue, LocalQueue, Cohort) as a tree with quota tables.
    Why(kdiag::explain::WhyArgs),
    /// List objects of a kind from a bundle, like `kubectl get` (short names and plurals accepted).
    #[command(after_help = explorer::GET_EXAMPLES)]
    Get(explorer::GetArgs),
    /// Show one object in detail with its events and kdiag's findings, like `kubectl describe`.
    #[command(after_help = explorer::DESCRIBE_EXAMPLES)]
    Describe(explorer::DescribeArgs),
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
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Write the report to FILE instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Exit with status 1 when a finding at or above this severity is reported (with
    /// --baseline: a new finding).
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
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
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
        Command::Rules => write_stdout(&rules_table()),
        Command::Analyze(args) => analyze(args),
        Command::Why(args) => kdiag::explain::main(args),
        Command::Get(args) => explorer::get(args),
        Command::Describe(args) => explorer::describe(args),
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

fn rules_table() -> String {
    let mut out = String::new();
    for r in rules::registry() {
        // The stage classifier reports each pod at the stage where it stopped.
        let stage = if r.fallback {
            "(per pod)"
        } else {
            r.stage.as_str()
        };
        out.push_str(&format!(
            "{:<28} {:<11} {:<8} {}\n",
            r.id,
            stage,
            r.severity.as_str(),
            r.summary()
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
    let Some((snapshot, mut findings)) = load(&args.paths) else {
        return ExitCode::from(2);
    };
    let keep_ns = |ns: Option<&str>| {
        args.namespaces.is_empty() || ns.is_some_and(|n| args.namespaces.iter().any(|x| x == n))
    };
    let keep_stage =
        |s: &str| args.stages.is_empty() || args.stages.iter().any(|x| x.as_str() == s);
    findings.retain(|f| keep_ns(f.object.namespace.as_deref()) && keep_stage(f.stage.as_str()));
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
    if let Some(r) = &redactor {
        analysis.redact(r);
    }
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let mut text = match args.format {
        Format::Json => match &comparison {
            Some(c) => c.render_json(&analysis),
            None => report::json::render(&analysis),
        },
        Format::Sarif => report::sarif::render(&analysis, comparison.as_ref()),
        Format::Html => report::html::render(&analysis, comparison.as_ref()),
        Format::Human => {
            let color = to_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
            let width = if to_terminal { 120 } else { 100 };
            let style = report::human::Style { color, width };
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
    let failing = match &comparison {
        Some(c) => c.fails(&analysis.findings, threshold),
        None => threshold.is_some_and(|t| analysis.findings.iter().any(|f| f.severity <= t)),
    };
    // Freeing a large snapshot object by object takes longer than the process exit does.
    std::mem::forget(analysis);
    std::mem::forget(snapshot);
    ExitCode::from(if failing { 1 } else { 0 })
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

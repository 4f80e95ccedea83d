//! The `kdiag` command line: clap → commands.

use clap::{Parser, Subcommand, ValueEnum};
use kdiag::ingest::InputArg;
use kdiag::report::{self, Analysis};
use kdiag::rules::{self, Severity, Stage};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "kdiag",
    version,
    about = "Explains, offline, why things are stuck in a saved Kubernetes snapshot (support bundle)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Analyze one or more bundles (folder, .zip, .tar, .tar.gz, .yaml/.json, or - for stdin), merged into one snapshot.
    Analyze(AnalyzeArgs),
    /// List every rule with its id, stage, default severity and summary.
    Rules,
}

#[derive(clap::Args)]
struct AnalyzeArgs {
    /// Bundles and dumps to merge: folders, archives, YAML/JSON files, `-` for stdin.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Exit with status 1 when a finding at or above this severity is reported.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    fail_on: FailOn,
    /// Only report findings about objects in this namespace (repeatable).
    #[arg(long = "namespace", short = 'n', value_name = "NS")]
    namespaces: Vec<String>,
    /// Only report findings of this stage (repeatable).
    #[arg(long = "stage", value_enum, value_name = "STAGE")]
    stages: Vec<Stage>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

impl FailOn {
    fn threshold(self) -> Option<Severity> {
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Info => Some(Severity::Info),
            FailOn::Never => None,
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Rules => {
            print_rules();
            ExitCode::SUCCESS
        }
        Command::Analyze(args) => analyze(args),
    }
}

fn print_rules() {
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
    print!("{out}");
}

fn analyze(args: AnalyzeArgs) -> ExitCode {
    let started = std::time::Instant::now();
    let inputs: Vec<InputArg> = args
        .paths
        .iter()
        .map(|p| {
            if p == "-" {
                InputArg::Stdin
            } else {
                InputArg::Path(PathBuf::from(p))
            }
        })
        .collect();
    let (snapshot, mut findings) = match kdiag::analyze(&inputs) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("kdiag: {}", e.0);
            return ExitCode::from(2);
        }
    };
    if !args.namespaces.is_empty() {
        findings.retain(|f| {
            f.object
                .namespace
                .as_ref()
                .is_some_and(|ns| args.namespaces.contains(ns))
        });
    }
    if !args.stages.is_empty() {
        findings.retain(|f| args.stages.contains(&f.stage));
    }
    let analysis = Analysis::new(&snapshot, findings);
    let text = match args.format {
        Format::Json => report::json::render(&analysis),
        Format::Human => {
            let stdout_tty = std::io::stdout().is_terminal();
            let color = stdout_tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
            let width = if stdout_tty { 120 } else { 100 };
            report::human::render(&analysis, &report::human::Style { color, width })
        }
    };
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
        .is_err()
    {
        return ExitCode::from(2); // closed pipe: nothing more to say
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
    let failing = args
        .fail_on
        .threshold()
        .is_some_and(|t| analysis.findings.iter().any(|f| f.severity <= t));
    // Freeing a large snapshot object by object takes longer than the process exit does.
    std::mem::forget(analysis);
    std::mem::forget(snapshot);
    ExitCode::from(if failing { 1 } else { 0 })
}

/// Peak resident set size from /proc (Linux), for the benchmark.
fn peak_rss_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Parsing a bundle allocates millions of small strings and maps; mimalloc is markedly
/// faster than the system allocator at that.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

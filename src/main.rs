//! The `kdiag` command line: parses it and runs the command (each is a module of
//! `kdiag::cli`).

use clap::{CommandFactory, Parser, Subcommand};
use kdiag::cli;
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
  kdiag use bundle/ && kdiag get po -n shop         get, describe, logs read it from now on
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
        stuck pod or job, the stage where it stopped (platform, queue, creation, scheduling, node, \
        runtime, readiness, traffic), citing the bundle's own files and lines.",
    after_help = EXAMPLES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Analyze one or more bundles (folder, .zip, .tar, .tar.gz, .yaml/.json, or - for stdin), merged into one snapshot.
    #[command(after_help = cli::analyze::EXAMPLES)]
    Analyze(cli::analyze::AnalyzeArgs),
    /// List every rule with its id, stage, default severity and summary, or one rule's full doc.
    #[command(after_help = cli::rules::EXAMPLES)]
    Rules(cli::rules::RulesArgs),
    /// Explain one object's Kueue admission chain (Workload, Job, Pod, ClusterQueue, LocalQueue, Cohort) as a tree with quota tables.
    Why(cli::why::WhyArgs),
    /// List objects of a kind from a bundle, like `kubectl get` (short names and plurals accepted).
    #[command(after_help = cli::get::EXAMPLES)]
    Get(cli::get::GetArgs),
    /// Show one object in detail with its events and kdiag's findings, like `kubectl describe`.
    #[command(after_help = cli::describe::EXAMPLES)]
    Describe(cli::describe::DescribeArgs),
    /// Print a container's log as the bundle holds it, like `kubectl logs` (-p: the previous container's).
    #[command(after_help = cli::logs::EXAMPLES)]
    Logs(cli::logs::LogsArgs),
    /// Set the bundle get, describe and logs read when no PATH is given (as `omc use`).
    #[command(after_help = cli::bundle::EXAMPLES)]
    Use(cli::bundle::UseArgs),
    /// Analyze many bundles (folders of bundles, globs) a few at a time: one JSON line per bundle, then a fleet table on stderr.
    #[command(after_help = cli::scan::EXAMPLES)]
    Scan(cli::scan::ScanArgs),
    /// Serve bundles as a read-only Kubernetes API for kubectl, k9s, Headlamp and client libraries, with kdiag's findings as objects and events.
    #[command(after_help = cli::serve::EXAMPLES)]
    Serve(cli::serve::ServeArgs),
    /// Merge the JSON lines of several scans (e.g. the shards of an Indexed Job) into one fleet table.
    Merge(cli::merge::MergeArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// The candidates a shell completes for `get`, `describe` and `logs` (the completion scripts call it).
    #[command(name = "__complete", hide = true)]
    Complete {
        /// The words after `kdiag`, the last one being completed.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        words: Vec<String>,
    },
    /// Open the man page on a terminal (print it as roff when piped), or write one page per command into a folder.
    Man {
        /// Write kdiag.1 and kdiag-COMMAND.1 pages into this folder instead of printing kdiag.1.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    #[cfg(feature = "mimalloc")]
    tune_allocator();
    let parsed = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match parsed.command {
        Command::Rules(args) => cli::rules::run(args),
        Command::Analyze(args) => cli::analyze::run(args),
        Command::Why(args) => cli::why::run(args),
        Command::Get(args) => cli::get::run(args),
        Command::Describe(args) => cli::describe::run(args),
        Command::Logs(args) => cli::logs::run(args),
        Command::Use(args) => cli::bundle::run(args),
        Command::Scan(args) => cli::scan::run(args),
        Command::Merge(args) => cli::merge::run(args),
        Command::Serve(args) => cli::serve::run(args),
        Command::Completions { shell } => cli::completions::run(Cli::command(), shell),
        Command::Complete { words } => cli::completions::complete(&words),
        Command::Man { dir } => cli::man::run(Cli::command(), dir),
    }
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

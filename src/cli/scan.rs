//! `kdiag scan PATH...`: many bundles analyzed a few at a time, one JSON line each on
//! stdout in input order, then the fleet table on stderr (the lines and the table are
//! made by [`crate::scan`]).

use super::analyze::{FailOn, fail_code};
use super::output::write_failed;
use super::progress::Progress;
use crate::rules::Severity;
use crate::scan::{analyze_one, expand, fleet_table, shard_from, slim};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

pub const EXAMPLES: &str = "\
Examples:
  kdiag scan cases/                       every bundle in cases/ (archives, dumps, bundle folders)
  kdiag scan 'cases/2026-*/*.tar.gz' -j 4 globs are expanded by kdiag (quote them)
  kdiag scan cases/ > fleet.jsonl          JSON lines to the file, the fleet table on the terminal
  kdiag scan cases/ --shard 2/8            the third of eight slices (also JOB_COMPLETION_INDEX
                                           and KDIAG_SHARD_COUNT, as an Indexed Job sets them)
  kdiag merge results/shard-*.jsonl        one fleet table from all shards";

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

/// Runs `kdiag scan`: as `analyze`, 1 when a bundle has a failing error, 3 when failing
/// bundles have lesser findings only; 2 when no bundle could be read.
pub fn run(args: ScanArgs) -> ExitCode {
    let shard = match shard_from(args.shard.as_deref(), |k| std::env::var(k).ok()) {
        Ok(s) => s,
        Err(e) => {
            crate::err_line!("kdiag: {e}");
            return ExitCode::from(2);
        }
    };
    let mut bundles = Vec::new();
    for p in &args.paths {
        match expand(p) {
            Ok(found) => bundles.extend(found),
            Err(e) => {
                crate::err_line!("kdiag: {e}");
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
        crate::err_line!("kdiag: no bundles found in {}", args.paths.join(" "));
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
        return write_failed(&e);
    }
    if !args.no_table {
        crate::err_text!("{}", fleet_table(&all));
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
    ExitCode::from(fail_code(failing))
}

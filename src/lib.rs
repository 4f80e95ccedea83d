//! kdiag: reads a saved Kubernetes snapshot (a support bundle) offline and explains
//! where each stuck thing stopped and why, with the evidence from the bundle.
//!
//! Data flow, one floor per module, each using only the floors before it: [`parse`]
//! (text → serde, with line spans) → [`kube`] (the Kubernetes object model: typed views,
//! quantities, times) → [`ingest`] (PATHs → objects with their files and lines) →
//! [`snapshot`] (the indexed store) → [`rules`] (findings, run in parallel) → [`report`]
//! (human, JSON, SARIF, HTML) and [`explain`]. `tools/floors.py` fails on an import
//! that goes the other way.

pub mod explain;
pub mod ingest;
pub mod kube;
pub mod parse;
pub mod report;
pub mod rules;
pub mod snapshot;

/// Loads the inputs and runs every rule: the library entry point the CLI uses.
pub fn analyze(
    inputs: &[ingest::InputArg],
) -> Result<(snapshot::Snapshot, Vec<rules::Finding>), ingest::InputError> {
    analyze_wanted(inputs, &ingest::Want::all())
}

/// [`analyze`] of what `want` names: the rules run over the objects read.
pub fn analyze_wanted(
    inputs: &[ingest::InputArg],
    want: &ingest::Want,
) -> Result<(snapshot::Snapshot, Vec<rules::Finding>), ingest::InputError> {
    let stats = std::env::var_os("KDIAG_STATS").is_some();
    let t = std::time::Instant::now();
    let cpu = || if stats { cpu_seconds() } else { None }.unwrap_or(0.0);
    let c = cpu();
    let loaded = ingest::load_wanted(inputs, want)?;
    let (t_load, c_load) = (t.elapsed(), cpu());
    let rss_after_load = if stats { peak_rss_mib() } else { None };
    let snapshot = snapshot::Snapshot::build(loaded);
    let (t_build, c_build) = (t.elapsed(), cpu());
    let rss_after_build = if stats { peak_rss_mib() } else { None };
    let findings = rules::registry::run_all(&snapshot);
    if stats {
        // Where the time of one run goes, for the benchmark and docs/performance.md; CPU
        // time beside wall time tells how well a phase uses the cores.
        eprintln!(
            "kdiag stats: ingest {:.3}s (cpu {:.2}s, peak RSS {} MiB), store {:.3}s (cpu {:.2}s, peak RSS {} MiB), rules {:.3}s (cpu {:.2}s, peak RSS {} MiB)",
            t_load.as_secs_f64(),
            c_load - c,
            rss_after_load.unwrap_or(0),
            (t_build - t_load).as_secs_f64(),
            c_build - c_load,
            rss_after_build.unwrap_or(0),
            (t.elapsed() - t_build).as_secs_f64(),
            cpu() - c_build,
            peak_rss_mib().unwrap_or(0),
        );
    }
    Ok((snapshot, findings))
}

/// User and system CPU time of this process so far, all threads (Linux, in clock ticks
/// of 10 ms; `None` elsewhere).
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some((utime + stime) as f64 / 100.0)
}

/// CPU time of the calling thread so far, in seconds (Linux, from the scheduler's
/// nanosecond count; `None` elsewhere): what one rule cost, whatever else the machine ran.
pub fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// Peak resident memory of this process so far (Linux; `None` elsewhere).
pub fn peak_rss_mib() -> Option<u64> {
    status_mib("VmHWM:")
}

/// Resident memory of this process now (Linux; `None` elsewhere): what building one
/// view added, in `KDIAG_STATS`.
pub fn rss_mib() -> Option<u64> {
    status_mib("VmRSS:")
}

/// A `/proc/self/status` line's size in MiB.
fn status_mib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Writes a command's output to stdout. A reader that stopped reading (`kdiag … | head`)
/// ends the run quietly with status 0, as other Unix tools do; any other write error (a
/// full disk, `> /dev/full`) is named on stderr and ends the run with status 2.
pub fn write_stdout(text: &str) -> Result<(), std::process::ExitCode> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) => Err(write_failed(&e)),
    }
}

/// The exit status of a closed stdout (`kdiag … | head`): 141, what a shell reports for
/// a process ended by SIGPIPE (128 + 13), as `cat` or `git` end there. Not 0: the run
/// did not print what it found, and `set -o pipefail` scripts see the same status as
/// for any other tool cut short; not 2: nothing was wrong with the command.
pub const CLOSED_PIPE: u8 = 141;

/// The exit status of a run whose stdout failed with `e`, after saying why (nothing to
/// say for a closed pipe: the reader has what it wanted).
pub fn write_failed(e: &std::io::Error) -> std::process::ExitCode {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return std::process::ExitCode::from(CLOSED_PIPE);
    }
    eprintln!("kdiag: cannot write to stdout: {e}");
    std::process::ExitCode::from(2)
}

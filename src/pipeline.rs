//! The whole run as one call: inputs are read, stored and diagnosed. Above the rules and
//! beside the reports, so every command and the crate's own entry points share it.

use crate::ingest::{self, InputArg, InputError, Want};
use crate::process_stats;
use crate::rules::{self, Finding};
use crate::snapshot::Snapshot;

/// Loads the inputs and runs every rule: the library entry point the CLI uses.
pub fn analyze(inputs: &[InputArg]) -> Result<(Snapshot, Vec<Finding>), InputError> {
    analyze_wanted(inputs, &Want::all())
}

/// [`analyze`] of what `want` names: the rules run over the objects read.
pub fn analyze_wanted(
    inputs: &[InputArg],
    want: &Want,
) -> Result<(Snapshot, Vec<Finding>), InputError> {
    let stats = std::env::var_os("KDIAG_STATS").is_some();
    let t = std::time::Instant::now();
    let cpu = || {
        if stats {
            process_stats::cpu_seconds()
        } else {
            None
        }
        .unwrap_or(0.0)
    };
    let c = cpu();
    let loaded = ingest::load_wanted(inputs, want)?;
    let (t_load, c_load) = (t.elapsed(), cpu());
    let rss_after_load = if stats {
        process_stats::peak_rss_mib()
    } else {
        None
    };
    let snapshot = Snapshot::build(loaded);
    let (t_build, c_build) = (t.elapsed(), cpu());
    let rss_after_build = if stats {
        process_stats::peak_rss_mib()
    } else {
        None
    };
    let findings = rules::registry::run_all(&snapshot);
    if stats {
        // Where the time of one run goes, for the benchmark and docs/performance.md; CPU
        // time beside wall time tells how well a phase uses the cores.
        crate::err_line!(
            "kdiag stats: ingest {:.3}s (cpu {:.2}s, peak RSS {} MiB), store {:.3}s (cpu {:.2}s, peak RSS {} MiB), rules {:.3}s (cpu {:.2}s, peak RSS {} MiB)",
            t_load.as_secs_f64(),
            c_load - c,
            rss_after_load.unwrap_or(0),
            (t_build - t_load).as_secs_f64(),
            c_build - c_load,
            rss_after_build.unwrap_or(0),
            (t.elapsed() - t_build).as_secs_f64(),
            cpu() - c_build,
            process_stats::peak_rss_mib().unwrap_or(0),
        );
    }
    Ok((snapshot, findings))
}

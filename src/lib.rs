//! kdiag: reads a saved Kubernetes snapshot (a support bundle) offline and explains
//! where each stuck thing stopped and why, with the evidence from the bundle.
//!
//! Data flow, one floor per module, each using only the floors before it: [`parse`]
//! (text → serde, with line spans) → [`kube`] (the Kubernetes object model: typed views,
//! quantities, times) → [`ingest`] (PATHs → objects with their files and lines) →
//! [`snapshot`] (the indexed store) → [`rules`] (findings, run in parallel) → [`report`]
//! (human, JSON, SARIF, HTML), [`explain`], [`explorer`] and [`scan`] → [`cli`] (one
//! module per command; the binary only parses and dispatches). [`process_stats`] (what
//! the process used, from `/proc`) sits below them all. `tools/floors.py` fails on an
//! import that goes the other way.

pub mod cli;
pub mod explain;
pub mod explorer;
pub mod ingest;
pub mod kube;
pub mod parse;
pub mod process_stats;
pub mod report;
pub mod rules;
pub mod scan;
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
    let snapshot = snapshot::Snapshot::build(loaded);
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
            process_stats::peak_rss_mib().unwrap_or(0),
        );
    }
    Ok((snapshot, findings))
}

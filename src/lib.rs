//! kdiag: reads a saved Kubernetes snapshot (a support bundle) offline and explains
//! where each stuck thing stopped and why, with the evidence from the bundle.
//!
//! Data flow, one module per stage: [`ingest`] (PATHs → parsed objects with lines) →
//! [`snapshot`] (indexed store, typed views) → [`rules`] (findings, run in parallel) →
//! [`report`] (human, JSON).

pub mod explain;
pub mod ingest;
pub mod report;
pub mod rules;
pub mod snapshot;

/// Loads the inputs and runs every rule: the library entry point the CLI uses.
pub fn analyze(
    inputs: &[ingest::InputArg],
) -> Result<(snapshot::Snapshot, Vec<rules::Finding>), ingest::InputError> {
    let stats = std::env::var_os("KDIAG_STATS").is_some();
    let t = std::time::Instant::now();
    let loaded = ingest::load(inputs)?;
    let t_load = t.elapsed();
    let rss_after_load = if stats { peak_rss_mib() } else { None };
    let snapshot = snapshot::Snapshot::build(loaded);
    let t_build = t.elapsed();
    let findings = rules::run_all(&snapshot);
    if stats {
        // Where the time of one run goes, for the benchmark and the README's table.
        eprintln!(
            "kdiag stats: ingest {:.3}s (peak RSS {} MiB), store {:.3}s, rules {:.3}s",
            t_load.as_secs_f64(),
            rss_after_load.unwrap_or(0),
            (t_build - t_load).as_secs_f64(),
            (t.elapsed() - t_build).as_secs_f64()
        );
    }
    Ok((snapshot, findings))
}

/// Peak resident memory of this process so far (Linux; `None` elsewhere).
pub fn peak_rss_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

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
    let loaded = ingest::load(inputs)?;
    let snapshot = snapshot::Snapshot::build(loaded);
    let findings = rules::run_all(&snapshot);
    Ok((snapshot, findings))
}

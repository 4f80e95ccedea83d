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
pub mod pipeline;
pub mod process_stats;
pub mod report;
pub mod rules;
pub mod scan;
pub mod serve;
pub mod snapshot;

pub use pipeline::{analyze, analyze_wanted};

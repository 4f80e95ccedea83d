//! The Kubernetes object model: narrow typed views of the objects rules read (Pods,
//! controllers, Events, Nodes, networking, storage, policy, Kueue), read with serde from
//! a bundle's text or from a tree, and the values inside them (quantities, times); and
//! the one table of the kinds kdiag knows (`kinds.rs`).
//!
//! Views name only the fields rules read, with defaults for everything else, so a
//! partial object or a field of an odd shape reads as "no evidence", never as an error.
//! Nothing here knows bundles or files: ingest builds these views, the snapshot keeps them.
//!
//! The semantics several rule areas and the explorer share live here too, once:
//! [`requests`] (a pod's effective requests and limits, as the scheduler and Kueue count
//! them) and [`placement`] (tolerations against taints, node selectors and node affinity,
//! inter-pod affinity terms, host ports, claims).

pub mod core;
pub mod event;
pub mod kinds;
pub mod kueue;
pub mod lazy;
pub mod long;
pub mod meta;
pub mod network;
pub mod node;
pub mod openshift;
pub mod placement;
pub mod pod;
pub mod policy;
#[allow(dead_code)]
pub mod quantity;
pub mod requests;
pub mod storage;
pub mod table;
pub mod time;
pub mod vecmap;
pub mod workload;

/// A view's text field: up to 24 bytes held in place (no allocation), longer ones on the
/// heap. Most of a view's strings (names, times, condition types, reasons, label values)
/// are short, and an allocation each was most of the Pod view's memory.
pub type Str = compact_str::CompactString;

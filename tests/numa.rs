//! Rules of the numa area: sample bundles → snapshots and explicit checks.

//! Rules of the scheduling area: sample bundles → snapshots and explicit checks.

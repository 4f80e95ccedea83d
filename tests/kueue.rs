//! Rules of the kueue area: sample bundles → snapshots and explicit checks.

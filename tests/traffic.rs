//! Rules of the traffic area: sample bundles → snapshots and explicit checks.

//! The YAML/JSON loader: never panics, and whenever the YAML fast path accepts input
//! the general parser also accepts, both give the same documents.
#![no_main]

use kdiag::ingest::{fast_yaml, json, objects, yaml};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (general, err) = yaml::parse(text);
    if let Ok(fast) = fast_yaml::parse(text) {
        if err.is_none() {
            assert_eq!(fast.len(), general.len(), "document count differs");
            for (f, g) in fast.iter().zip(&general) {
                assert_eq!(f.value, g.value, "documents differ");
            }
        }
    }
    let _ = objects::extract("fuzz/namespaces/ns/core/pods.yaml", general);
    let (docs, _) = json::parse(text);
    let _ = objects::extract("fuzz.json", docs);
});

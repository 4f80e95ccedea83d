//! The archive reader: any bytes (read as zip, tar, gzip, bzip2, xz or zstd by their magic,
//! under any name) never panic and stay bounded.
#![no_main]

use kdiag::ingest::source;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Members kept as bytes, and parsed as they are read (as `kdiag analyze` does).
    let parse: &source::ParseMember = &kdiag::ingest::parse_member;
    for mode in [None, Some(parse)] {
        for name in ["fuzz.zip", "fuzz.tar.gz", "fuzz.yaml.xz", "fuzz.log.gz", "fuzz"] {
            let collected = source::collect_bytes(name, data.to_vec(), mode);
            for e in &collected.entries {
                let _ = e.read();
            }
        }
    }
});

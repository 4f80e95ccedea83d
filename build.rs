//! Tells the tests whether the real-bundle corpus is beside the repository
//! (`../shared/corpus`, in the project's workspace and in its CI): `cfg(kdiag_corpus)`.
//! The tests that read it are `#[cfg_attr(not(kdiag_corpus), ignore = "...")]`, so without
//! it `cargo test` lists them as ignored, with the reason, instead of passing them empty.

use std::path::Path;

const CORPUS_MARK: &str = "../shared/corpus/SOURCES.md";

fn main() {
    println!("cargo::rustc-check-cfg=cfg(kdiag_corpus)");
    println!("cargo::rerun-if-changed=build.rs");
    if Path::new(CORPUS_MARK).is_file() {
        println!("cargo::rustc-cfg=kdiag_corpus");
        // Checked again when it goes away. (A missing file would be checked on every
        // build, recompiling the crate each time, so a corpus that appears later needs
        // `touch build.rs`; the ignore reason says so.)
        println!("cargo::rerun-if-changed={CORPUS_MARK}");
    }
}

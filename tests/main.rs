//! One integration-test binary (ripgrep style): each module covers one surface, and
//! the tiny DSL below runs the real `kdiag` binary so exit codes and output are tested
//! exactly as users see them.

mod cli;
mod corpus;
mod hostile;
mod kueue;
mod numa;
mod report;
mod samples;
mod scheduling;
mod traffic;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The result of one `kdiag` run.
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Runs `kdiag` with `args` from the crate root.
pub fn kdiag(args: &[&str]) -> Run {
    kdiag_stdin(args, None)
}

/// Runs `kdiag` with `args`, feeding `stdin` when given.
pub fn kdiag_stdin(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kdiag"));
    cmd.args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env_remove("KDIAG_STATS")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("kdiag runs");
    if let Some(bytes) = stdin {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    let out = child.wait_with_output().expect("kdiag finishes");
    Run {
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().expect("kdiag exited (no signal)"),
    }
}

/// The crate root (tests run from there).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Parses JSON output.
pub fn json(run: &Run) -> serde_json::Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("invalid JSON ({e}):\n{}", run.stdout))
}

/// insta settings shared by every snapshot: files live in the top-level `snapshots/`.
pub fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(root().join("snapshots"));
    s.set_prepend_module_to_snapshot(false);
    s
}

pub fn exists(p: &str) -> bool {
    Path::new(&root()).join(p).exists()
}

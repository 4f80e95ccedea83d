//! `kdiag completions SHELL`: the shell's completion script of the whole command line.

use super::output::write_stdout;
use clap::Command;
use clap_complete::Shell;
use std::process::ExitCode;

/// Prints the completion script of `cmd` (the whole command line) for `shell`.
pub fn run(mut cmd: Command, shell: Shell) -> ExitCode {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "kdiag", &mut script);
    write_stdout(&String::from_utf8_lossy(&script))
}

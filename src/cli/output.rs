//! Writing a command's output to stdout, and the exit status when that fails.

use crate::report::redact::Redactor;
use std::process::ExitCode;

/// Writes a command's output to stdout. A reader that stopped reading (`kdiag … | head`)
/// ends the run quietly with [`CLOSED_PIPE`], as other Unix tools end; any other write error (a
/// full disk, `> /dev/full`) is named on stderr and ends the run with status 2.
pub fn try_write_stdout(text: &str) -> Result<(), ExitCode> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) => Err(write_failed(&e)),
    }
}

/// Writes a command's whole output to stdout: see [`try_write_stdout`].
pub fn write_stdout(text: &str) -> ExitCode {
    match try_write_stdout(text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// Writes bundle text to stdout (redacted when asked), escaped for a terminal: control
/// and bidi characters escaped, messages kept on their line.
pub fn write_bundle_text(text: String, redactor: Option<&Redactor>) -> ExitCode {
    let text = match redactor {
        Some(r) => r.apply(&text),
        None => text,
    };
    write_stdout(&crate::parse::terminal::lines(&text))
}

/// The exit status of a closed stdout (`kdiag … | head`): 141, what a shell reports for
/// a process ended by SIGPIPE (128 + 13), as `cat` or `git` end there. Not 0: the run
/// did not print what it found, and `set -o pipefail` scripts see the same status as
/// for any other tool cut short; not 2: nothing was wrong with the command.
pub const CLOSED_PIPE: u8 = 141;

/// The exit status of a run whose stdout failed with `e`, after saying why (nothing to
/// say for a closed pipe: the reader has what it wanted).
pub fn write_failed(e: &std::io::Error) -> ExitCode {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return ExitCode::from(CLOSED_PIPE);
    }
    crate::err_line!("kdiag: cannot write to stdout: {e}");
    ExitCode::from(2)
}

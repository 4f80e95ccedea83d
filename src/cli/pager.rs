//! Long output on a terminal goes through a pager, as git's does: `$KDIAG_PAGER`, else
//! `$PAGER`, else `less -FRX` (quit when it fits one screen, keep colours, leave the text
//! on the screen); never when stdout is not a terminal, and not with `--no-pager`.

use super::output::{try_write_stdout, write_failed};
use std::process::{Command, ExitCode, Stdio};

/// The pager used when neither `KDIAG_PAGER` nor `PAGER` is set.
pub const DEFAULT_PAGER: &str = "less -FRX";

/// The pager command for `lines` lines of output, or `None` to write it directly: not on
/// a terminal, with `--no-pager`, when it fits the screen's `rows`, or when the pager
/// asked for is empty or `cat` (git's way of saying "no pager").
pub fn command(
    to_terminal: bool,
    no_pager: bool,
    lines: usize,
    rows: Option<usize>,
    asked: Option<String>,
) -> Option<String> {
    if !to_terminal || no_pager || rows.is_some_and(|r| lines < r) {
        return None;
    }
    let pager = asked.unwrap_or_else(|| DEFAULT_PAGER.to_string());
    let pager = pager.trim();
    (!pager.is_empty() && pager != "cat").then(|| pager.to_string())
}

/// The pager the environment asks for: `KDIAG_PAGER`, else `PAGER`.
pub fn from_env() -> Option<String> {
    std::env::var("KDIAG_PAGER")
        .ok()
        .or_else(|| std::env::var("PAGER").ok())
}

/// Writes `text` through `pager` (run by `sh -c`, as git runs it), or to stdout directly
/// when the pager cannot be started. `LESS` is set to `FRX` when unset, as git sets it, so
/// a plain `PAGER=less` also quits on a short text and keeps the colours.
pub fn write_paged(text: &str, pager: &str) -> Result<(), ExitCode> {
    use std::io::Write;
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(pager).stdin(Stdio::piped());
    if std::env::var_os("LESS").is_none() {
        cmd.env("LESS", "FRX");
    }
    let Ok(mut child) = cmd.spawn() else {
        return try_write_stdout(text);
    };
    let written = child
        .stdin
        .take()
        .map(|mut stdin| stdin.write_all(text.as_bytes()));
    // The reader quitting early (`q` in less) is not an error.
    if let Some(Err(e)) = written
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        return Err(write_failed(&e));
    }
    let _ = child.wait();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pager_only_for_long_output_on_a_terminal() {
        let less = Some(DEFAULT_PAGER.to_string());
        assert_eq!(command(true, false, 100, Some(40), None), less);
        // Piped, --no-pager, or fitting the screen: written directly.
        assert_eq!(command(false, false, 100, Some(40), None), None);
        assert_eq!(command(true, true, 100, Some(40), None), None);
        assert_eq!(command(true, false, 39, Some(40), None), None);
        // No height known: the pager decides (less -F quits on a short text).
        assert_eq!(command(true, false, 3, None, None), less);
        // $PAGER as given; empty or cat means none, as in git.
        let most = Some("most".to_string());
        assert_eq!(command(true, false, 100, Some(40), most.clone()), most);
        assert_eq!(
            command(true, false, 100, Some(40), Some(String::new())),
            None
        );
        assert_eq!(
            command(true, false, 100, Some(40), Some("cat".into())),
            None
        );
    }
}

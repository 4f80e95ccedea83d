//! `kdiag man [--dir DIR]`: the man page of the whole command line, or one page per
//! command written into a folder. On a terminal the page is opened with `man -l -` (as
//! `man kdiag` would show an installed page); without `man`, it is written to a file
//! and the line to open it said. Piped, it is printed as roff, for packagers.

use super::output::write_stdout;
use clap::Command;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Prints the man page of `cmd` (the whole command line), or writes `kdiag.1` and a
/// `kdiag-COMMAND.1` per command into `dir`.
pub fn run(cmd: Command, dir: Option<PathBuf>) -> ExitCode {
    let Some(dir) = dir else {
        let mut out = Vec::new();
        if clap_mangen::Man::new(cmd).render(&mut out).is_err() {
            return ExitCode::from(2);
        }
        let page = String::from_utf8_lossy(&out);
        if std::io::stdout().is_terminal() {
            return open(&page);
        }
        return write_stdout(&page);
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        crate::err_line!("kdiag: cannot create {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    let mut pages = vec![("kdiag.1".to_string(), cmd.clone())];
    for sub in cmd.get_subcommands() {
        // clap names are &'static str; a handful of page names live until exit anyway.
        let name: &'static str = Box::leak(format!("kdiag-{}", sub.get_name()).into_boxed_str());
        pages.push((format!("{name}.1"), sub.clone().name(name)));
    }
    for (file, page) in pages {
        let mut out = Vec::new();
        let written = clap_mangen::Man::new(page)
            .render(&mut out)
            .map_err(|e| e.to_string())
            .and_then(|_| std::fs::write(dir.join(&file), &out).map_err(|e| e.to_string()));
        if let Err(e) = written {
            crate::err_line!("kdiag: cannot write {file}: {e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

/// Shows `page` with `man -l -` when `man` is on PATH; else writes it to `kdiag.1` in the
/// temporary folder and says how to open it where `man` is.
fn open(page: &str) -> ExitCode {
    if let Some(man) = on_path("man") {
        let child = std::process::Command::new(man)
            .args(["-l", "-"])
            .stdin(std::process::Stdio::piped())
            .spawn();
        if let Ok(mut child) = child {
            // The reader quitting early (`q`) closes the pipe: not an error.
            if let Some(mut stdin) = child.stdin.take() {
                let _ = stdin.write_all(page.as_bytes());
            }
            return match child.wait() {
                Ok(s) if s.success() => ExitCode::SUCCESS,
                _ => ExitCode::from(2),
            };
        }
    }
    let file = std::env::temp_dir().join("kdiag.1");
    match std::fs::write(&file, page) {
        Ok(()) => {
            crate::err_line!(
                "kdiag: no `man` here to open the page; wrote it to {0}: read it with `man -l {0}` (or `kdiag man > kdiag.1` to keep it)",
                file.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            crate::err_line!("kdiag: cannot write {}: {e}", file.display());
            ExitCode::from(2)
        }
    }
}

/// The first executable file `name` in `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    let Ok(m) = std::fs::metadata(p) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        m.is_file() && m.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        m.is_file()
    }
}

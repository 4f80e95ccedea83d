//! `kdiag man [--dir DIR]`: the man page of the whole command line (roff), or one page per
//! command written into a folder.

use super::output::write_stdout;
use clap::Command;
use std::path::PathBuf;
use std::process::ExitCode;

/// Prints the man page of `cmd` (the whole command line), or writes `kdiag.1` and a
/// `kdiag-COMMAND.1` per command into `dir`.
pub fn run(cmd: Command, dir: Option<PathBuf>) -> ExitCode {
    let Some(dir) = dir else {
        let mut out = Vec::new();
        if clap_mangen::Man::new(cmd).render(&mut out).is_err() {
            return ExitCode::from(2);
        }
        return write_stdout(&String::from_utf8_lossy(&out));
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

//! The one place the commands turn PATHs into inputs, load them (with a status line on a
//! terminal) and tell on stderr what the user should know of what was read: a folder
//! holding several bundles, the problems of the files an answer comes from, an input
//! that could not be read.

use super::progress::Progress;
use crate::ingest::{InputArg, InputError, Want};
use crate::rules::Finding;
use crate::snapshot::Snapshot;
use std::path::PathBuf;

/// PATH arguments as ingest takes them.
pub fn input_args(paths: &[String]) -> Vec<InputArg> {
    paths
        .iter()
        .map(|p| {
            if p == "-" {
                InputArg::Stdin
            } else {
                InputArg::Path(PathBuf::from(p))
            }
        })
        .collect()
}

/// Loads the inputs into a snapshot without running the rules (for `get`).
pub fn load_snapshot(paths: &[String], want: &Want) -> Option<Snapshot> {
    for (_, note) in several_bundles(paths) {
        crate::err_line!("kdiag: warning: {note}");
    }
    let progress = Progress::new(&format!("reading {} input(s)…", paths.len()), 0);
    let result = crate::ingest::load_wanted(&input_args(paths), want);
    progress.finish();
    if std::env::var_os("KDIAG_STATS").is_some() {
        let rss = crate::process_stats::peak_rss_mib().unwrap_or(0);
        crate::err_line!("kdiag stats: loaded, peak RSS {rss} MiB");
    }
    match result {
        Ok(loaded) => Some(Snapshot::build(loaded)),
        Err(e) => {
            crate::err_line!("kdiag: {}", e.0);
            None
        }
    }
}

/// Loads and analyzes the inputs with a status line on a terminal; prints the error and
/// returns `None` when no input could be read.
pub fn load(paths: &[String]) -> Option<(Snapshot, Vec<Finding>)> {
    load_wanted(paths, &Want::all())
}

/// [`load`] of what `want` names (see `crate::ingest::want`).
pub fn load_wanted(paths: &[String], want: &Want) -> Option<(Snapshot, Vec<Finding>)> {
    let progress = Progress::new(
        &format!("reading and analyzing {} input(s)…", paths.len()),
        0,
    );
    let result = analyze_quietly(paths, want);
    progress.finish();
    match result {
        Ok(r) => Some(r),
        Err(e) => {
            crate::err_line!("kdiag: {}", e.0);
            None
        }
    }
}

/// Loads and analyzes what `want` names of the inputs, without a status line, leaving
/// the error to the caller.
pub fn analyze_quietly(
    paths: &[String],
    want: &Want,
) -> Result<(Snapshot, Vec<Finding>), InputError> {
    crate::pipeline::analyze_wanted(&input_args(paths), want)
}

/// Says on stderr that files this answer comes from had problems (their objects may be
/// missing from it, so "No resources found" is not the last word), naming the first few.
/// Only problems in files that a read of `want` reads count, so a selective read and a
/// full one say the same.
pub fn warn_of_problems(snap: &Snapshot, want: &Want) {
    use crate::parse::terminal::one_line;
    const SHOWN: usize = 3;
    let read = want.clone().with_all_events();
    let problems: Vec<_> = snap
        .problems()
        .into_iter()
        .filter(|p| {
            snap.inputs
                .get(p.input)
                .is_none_or(|i| read.bears_on(i, p.file.as_deref()))
        })
        .collect();
    if problems.is_empty() {
        return;
    }
    crate::err_line!(
        "kdiag: warning: {} problem(s) in the files that can hold this answer; what they hold may be missing from it:",
        problems.len()
    );
    for p in problems.iter().take(SHOWN) {
        let line = p.line.map(|l| format!(":{l}")).unwrap_or_default();
        let input = snap.inputs.get(p.input).map_or("?", |i| i.path.as_str());
        crate::err_line!(
            "  {}: {}{line}: {}",
            one_line(input),
            one_line(p.file.as_deref().unwrap_or("")),
            one_line(&p.message)
        );
    }
    if problems.len() > SHOWN {
        crate::err_line!("  … and {} more", problems.len() - SHOWN);
    }
    crate::err_line!("  (`kdiag analyze` lists every problem of the bundle)");
}

/// For each PATH that is a folder holding several bundles (which would be merged into
/// one cluster): its index and the note that names them and points to `kdiag scan`.
pub fn several_bundles(paths: &[String]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, p) in paths.iter().enumerate() {
        let path = std::path::Path::new(p);
        if p == "-" || !path.is_dir() {
            continue;
        }
        let found = crate::scan::bundles_inside(path);
        if found.len() < 2 {
            continue;
        }
        const SHOWN: usize = 5;
        let mut names = found
            .iter()
            .take(SHOWN)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        if found.len() > SHOWN {
            names.push_str(&format!(", … ({} in all)", found.len()));
        }
        out.push((
            i,
            format!(
                "{p} holds {} bundles ({names}), read here as one cluster; analyze each alone, or all with `kdiag scan {p}`",
                found.len()
            ),
        ));
    }
    out
}

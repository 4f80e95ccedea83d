//! The one place the commands turn PATHs into inputs, load them (with a status line on a
//! terminal) and tell on stderr what the user should know of what was read: a folder
//! holding several bundles, the problems of the files an answer comes from, an input
//! that could not be read.

use super::progress::Progress;
use crate::ingest::{InputArg, InputError, Want};
use crate::rules::Finding;
use crate::snapshot::Snapshot;
use std::path::PathBuf;
use std::process::ExitCode;

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

/// One bundle at a time: a PATH that is a folder of several bundles (what `kdiag scan`
/// reads one by one: archives, bundle folders, folders of them) is refused, naming them,
/// unless `merge` asks to read them as one cluster on purpose. `Ok` holds, for each PATH
/// so merged, its index and the note that says so (for `inputs[].notes`).
pub fn one_bundle_each(paths: &[String], merge: bool) -> Result<Vec<(usize, String)>, ExitCode> {
    let mut notes = Vec::new();
    let mut refused = false;
    for (i, p) in paths.iter().enumerate() {
        if p == "-" {
            continue;
        }
        let found = crate::scan::several_in(std::path::Path::new(p));
        if found.len() < 2 {
            continue;
        }
        const SHOWN: usize = 5;
        let base = std::path::Path::new(p);
        let mut names = found
            .iter()
            .take(SHOWN)
            .map(|b| {
                let rel = b
                    .strip_prefix(base)
                    .unwrap_or(b)
                    .to_string_lossy()
                    .into_owned();
                if b.is_dir() { format!("{rel}/") } else { rel }
            })
            .collect::<Vec<_>>()
            .join(", ");
        if found.len() > SHOWN {
            names.push_str(&format!(", … ({} in all)", found.len()));
        }
        if merge {
            notes.push((
                i,
                format!(
                    "{p} holds {} bundles ({names}), read as one cluster (--merge)",
                    found.len()
                ),
            ));
        } else {
            refused = true;
            crate::err_line!(
                "kdiag: {p} holds {} bundles ({names}); kdiag reads one bundle at a time: give one of them, `kdiag scan {p}` to analyze each, or --merge to read them as one cluster",
                found.len()
            );
        }
    }
    if refused {
        Err(ExitCode::from(2))
    } else {
        Ok(notes)
    }
}

/// When `ns` is no namespace of the bundle: says so, with the likeliest namespace meant
/// (`-n openshift-etcdd`), else the namespaces it has. Reads the whole bundle (only on
/// this failing path), since objects name namespaces no Namespace object may be kept
/// for; `None` when `ns` is one of them, or when the bundle names no namespace at all.
pub fn namespace_hint(paths: &[String], ns: &str) -> Option<String> {
    let loaded = crate::ingest::load(&input_args(paths)).ok()?;
    let snap = Snapshot::build(loaded);
    let mut names: std::collections::BTreeSet<&str> = snap
        .objects
        .iter()
        .filter_map(|o| o.namespace.as_deref())
        .collect();
    names.extend(
        snap.objects
            .iter()
            .filter(|o| o.kind == "Namespace" && o.group().is_empty())
            .map(|o| o.name.as_str()),
    );
    if names.is_empty() || names.contains(ns) {
        return None;
    }
    let hint = match crate::parse::typo::did_you_mean(ns, names.iter().copied()) {
        Some(m) => format!("did you mean -n {m}?"),
        None => {
            const SHOWN: usize = 8;
            let shown: Vec<&str> = names.iter().copied().take(SHOWN).collect();
            let more = if names.len() > SHOWN {
                format!(", … ({} in all)", names.len())
            } else {
                String::new()
            };
            format!("its namespaces: {}{more}", shown.join(", "))
        }
    };
    Some(format!(
        "the bundle has no namespace {:?}; {hint}",
        crate::parse::terminal::one_line(ns)
    ))
}

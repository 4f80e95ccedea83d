//! Where the objects of one kind are, by name, without keeping them: `describe` of a name
//! its namespace does not hold says which namespaces hold it, as a full read would, from
//! the kind's files read for their objects' names alone (see [`Want::counting`]); of a
//! stream archive, from the members its first read kept (see [`Want::sparing`]), so that
//! the archive is not inflated twice.

use super::layout::{self, Detected};
use super::source::{self, Collected, Entry};
use super::{InputArg, InputError, Located, Outcome, Want, parse_member, process};
use rayon::prelude::*;

/// The members of one input's stream archive that its selective read left and kept, when
/// it kept every one its want spares (by the layout of the whole archive).
pub struct Spare {
    input: usize,
    detected: Detected,
    entries: Vec<Entry>,
}

impl Spare {
    /// What `collected` kept for `want` (see [`Want::sparing`]), when it is every member
    /// the want spares by the layout `detected` decided from all the paths.
    pub(super) fn of(
        input: usize,
        detected: &Detected,
        collected: &mut Collected,
        want: &Want,
    ) -> Option<Spare> {
        let spared = std::mem::take(&mut collected.spared);
        if !want.is_sparing() || !spared.whole {
            return None;
        }
        let whole = {
            let kept: std::collections::HashSet<&str> =
                spared.entries.iter().map(|e| e.path.as_str()).collect();
            collected
                .dropped
                .iter()
                .all(|p| !want.spares(detected, p) || kept.contains(p.as_str()))
        };
        whole.then(|| Spare {
            input,
            detected: detected.clone(),
            entries: spared.entries,
        })
    }
}

/// Who the objects of `kind` are in every namespace and the cluster scope, as a full read
/// holds them: each input's [`Spare`] when its first read kept one, else the files of its
/// layout that can hold the kind (a folder's and a zip's read in place, another archive
/// inflated again). Objects of files whose place names no kind are among them.
pub fn locate(
    args: &[InputArg],
    kind: &str,
    mut spared: Vec<Spare>,
) -> Result<Vec<Located>, InputError> {
    let want = Want::nothing().counting(kind).without_time();
    let mut located = Vec::new();
    for (input, arg) in args.iter().enumerate() {
        let (detected, mut entries) = match spared.iter().position(|s| s.input == input) {
            Some(i) => {
                let spare = spared.swap_remove(i);
                (spare.detected, spare.entries)
            }
            None => read_again(arg, &want)?,
        };
        entries.retain(|e| want.admits(&detected, &e.path));
        let found: Vec<Vec<Located>> = entries
            .par_iter_mut()
            .map(|entry| {
                let class = detected.classify(&entry.path);
                match process(
                    entry,
                    &class,
                    want.times_only(&detected, &entry.path),
                    &detected,
                    None,
                )
                .0
                {
                    Outcome::Counted(located) => located,
                    Outcome::Objects { extracted, .. } => {
                        extracted.objects.into_iter().map(Located::from).collect()
                    }
                    _ => Vec::new(),
                }
            })
            .collect();
        located.extend(found.into_iter().flatten().filter(|l| l.kind == kind));
    }
    Ok(located)
}

/// An input's files that `want` admits, and its layout: read again (all of them when the
/// layout, known once every path is, admits a member the pick left).
fn read_again(arg: &InputArg, want: &Want) -> Result<(Detected, Vec<Entry>), InputError> {
    let InputArg::Path(path) = arg else {
        return Err(InputError("standard input cannot be read twice".into()));
    };
    let collect = |pick| {
        source::collect_picked(path, Some(&parse_member), pick)
            .map_err(|e| InputError(format!("{}: {e}", arg.display())))
    };
    let mut collected = collect(Some(want))?;
    let paths = collected.entries.iter().map(|e| e.path.as_str());
    let detected = layout::detect(paths.chain(collected.dropped.iter().map(String::as_str)));
    if collected.dropped.iter().any(|p| want.admits(&detected, p)) {
        collected = collect(None)?;
    }
    Ok((detected, collected.entries))
}

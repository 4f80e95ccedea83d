//! Finds the line of a key directly under a mapping. `Snapshot::locate` walks keys in
//! order, so for a pod spec's own `resources:` it would stop at the first container's
//! `resources:` (kubectl sorts `containers` before `resources`); this looks only at the
//! lines indented exactly one level below the parent (block YAML and indented JSON).

use crate::rules::Evidence;
use crate::snapshot::{ObjectId, Snapshot};

/// Line of `key` as a direct child of the mapping at `parent`; the parent's line when
/// the key is not found that way.
pub fn child_line(snap: &Snapshot, id: ObjectId, parent: &[&str], key: &str) -> u32 {
    let parent_line = snap.locate(id, parent);
    let (file, span) = snap.source_of(id);
    if parent_line >= span.end {
        return parent_line;
    }
    let text = file.lines(parent_line + 1, span.end);
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut child: Option<usize> = None;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let i = indent(line);
        let want = *child.get_or_insert(i);
        if i < want {
            break;
        }
        if i == want {
            let t = t.trim_start_matches("- ");
            if t.starts_with(&format!("{key}:")) || t.starts_with(&format!("\"{key}\":")) {
                return parent_line + 1 + n as u32;
            }
        }
    }
    parent_line
}

/// Evidence at a direct child key of `parent`.
pub fn child_evidence(
    snap: &Snapshot,
    id: ObjectId,
    parent: &[&str],
    key: &str,
    note: impl Into<String>,
) -> Evidence {
    let (file, _) = snap.source_of(id);
    Evidence {
        object: Some(snap.object(id).reference()),
        input: Some(file.input),
        file: Some(file.path.clone()),
        line: Some(child_line(snap, id, parent, key)),
        note: note.into(),
    }
}

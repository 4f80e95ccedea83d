//! Problems of objects and fields that do not read, told once per file, kind, field and
//! kind of failure, with how many objects share it and the first of them: a writer's
//! habit (a value left plain, a list where a map goes) repeats in every object of a file,
//! and a line for each object buried the list (41,676 lines for one bundle).

use super::{ObjectId, Snapshot};
use crate::ingest::Problem;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// What problems of one line share.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    file: usize,
    kind: String,
    /// The field that does not read; empty for a whole object.
    path: String,
    /// The failure with the values it quotes left out (`invalid type: integer `…`,
    /// expected a string`).
    why: String,
}

/// The first object (in the file's order; views are read in parallel) and how many
/// share the key.
struct Group {
    /// Its line and id.
    first: (u32, ObjectId),
    /// The keys to the field's line in the first object (see `Snapshot::locate`).
    steps: Vec<String>,
    /// The first object's own failure.
    message: String,
    count: usize,
}

#[derive(Default)]
pub(super) struct OddFields(Mutex<BTreeMap<Key, Group>>);

impl OddFields {
    /// Object `id` (in `file` from `line`, of `kind`) has the field at `path` (empty:
    /// the whole object) that does not read, with `message`.
    pub(super) fn add(
        &self,
        (file, line, kind, id): (usize, u32, &str, ObjectId),
        path: &str,
        steps: Vec<String>,
        message: String,
    ) {
        let key = Key {
            file,
            kind: kind.to_owned(),
            path: path.to_owned(),
            why: without_quoted(&message),
        };
        let mut groups = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let first = (line, id);
        let group = groups.entry(key).or_insert_with(|| Group {
            first,
            steps: Vec::new(),
            message: String::new(),
            count: 0,
        });
        if group.count == 0 || first < group.first {
            group.first = first;
            group.steps = steps;
            group.message = message;
        }
        group.count += 1;
    }

    /// One problem per group, naming the first object and how many more share it.
    pub(super) fn problems(&self, snap: &Snapshot) -> Vec<Problem> {
        let groups = self.0.lock().unwrap_or_else(|e| e.into_inner());
        groups
            .iter()
            .map(|(key, g)| {
                let id = g.first.1;
                let o = snap.object(id);
                let file = &snap.files[key.file];
                let who = match &o.namespace {
                    Some(ns) => format!("{} {ns}/{}", o.kind, o.name),
                    None => format!("{} {}", o.kind, o.name),
                };
                let also = match g.count {
                    1 => String::new(),
                    n => format!(" (and {} more {} objects of this file)", n - 1, key.kind),
                };
                let (line, message) = if key.path.is_empty() {
                    (
                        o.sources[0].span.start,
                        format!(
                            "{} {}{also} has an unexpected shape and is not analyzed: {}",
                            o.kind, o.name, g.message
                        ),
                    )
                } else {
                    let steps: Vec<&str> = g.steps.iter().map(String::as_str).collect();
                    (
                        snap.locate(id, &steps),
                        format!(
                            "{who}{also}: field `{}` does not read and is left unknown (the rest is analyzed): {}",
                            key.path, g.message
                        ),
                    )
                };
                Problem {
                    input: file.input,
                    file: Some(file.path.clone()),
                    line: Some(line),
                    message,
                }
            })
            .collect()
    }
}

/// `message` with the text between backquotes left out: what one object's failure
/// shares with another's of the same kind.
fn without_quoted(message: &str) -> String {
    let parts: Vec<&str> = message
        .split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { "…" } else { part })
        .collect();
    parts.join("`")
}

#[cfg(test)]
mod tests {
    use super::without_quoted;

    #[test]
    fn failures_of_one_kind_share_their_words() {
        assert_eq!(
            without_quoted("invalid type: integer `8`, expected a string"),
            without_quoted("invalid type: integer `50124009`, expected a string")
        );
        assert_ne!(
            without_quoted("invalid type: integer `8`, expected a string"),
            without_quoted("invalid type: map, expected a string")
        );
    }
}

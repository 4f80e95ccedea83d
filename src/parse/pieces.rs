//! A YAML file read in pieces, so one bad piece does not cost the rest: after a document
//! that does not parse, reading goes on at the next `---`; and two outputs appended with
//! `>>` (no `---` between them: the second's `apiVersion:` repeats a top-level key of the
//! first) are read as two documents, where a YAML reader keeps only the second.

use super::spans::{ParseError, ParsedDoc, Span};
use super::yaml;
use std::collections::HashMap;

/// Where a document starts without a `---` before it: an appended output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// Byte offset of the line's start.
    pub offset: usize,
    /// Its 1-based line number.
    pub line: u32,
}

/// What [`appended`] found: where to split, and the top-level keys given twice that do
/// not start another object (the later value is the one read), each (line, message).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Appended {
    pub splits: Vec<Split>,
    pub notes: Vec<(u32, String)>,
}

/// One run of top-level keys between document starts.
struct Run {
    split: Split,
    /// The key that started the run (a repeat, for runs after a document's first) and
    /// its line.
    first: Option<(String, u32)>,
    /// Each key and the first line it is on (a map: a file of many distinct keys is one
    /// look-up per line, not a walk of every key before it).
    keys: HashMap<String, u32>,
}

impl Run {
    fn new(split: Split) -> Run {
        Run {
            split,
            first: None,
            keys: HashMap::new(),
        }
    }

    fn add(&mut self, key: &str, line: u32) {
        if self.first.is_none() {
            self.first = Some((key.to_string(), line));
        }
        self.keys.entry(key.to_string()).or_insert(line);
    }

    fn has(&self, key: &str) -> bool {
        self.keys.contains_key(key)
    }

    /// Keys that name an object on their own, as kubectl writes one (or a List) first.
    fn is_object(&self) -> bool {
        self.has("kind") && self.has("apiVersion")
    }
}

/// The keys at column 0 of each document of `text`: where one repeats a key of its
/// document and starts a run of keys that is an object on its own (`apiVersion` and
/// `kind`) after one that is too, it is a split; any other repeat is a note. One pass
/// over the lines; only lines at column 0 are looked at.
pub fn appended(text: &str) -> Appended {
    let mut out = Appended::default();
    let mut doc = Document::new(Split { offset: 0, line: 1 });
    let mut offset = 0;
    let mut line = 0u32;
    for raw in text.split_inclusive('\n') {
        let at = offset;
        offset += raw.len();
        line += 1;
        let l = raw.trim_end_matches(['\n', '\r']);
        if l == "---" || l.starts_with("--- ") || l == "..." || l.starts_with("... ") {
            let next = Document::new(Split {
                offset,
                line: line + 1,
            });
            std::mem::replace(&mut doc, next).finish(&mut out);
            continue;
        }
        let Some(key) = top_level_key(l) else {
            continue;
        };
        if doc.current.has(key) {
            let mut run = Run::new(Split { offset: at, line });
            run.add(key, line);
            doc.settle(run, &mut out);
        } else {
            doc.current.add(key, line);
        }
    }
    doc.finish(&mut out);
    out
}

/// One document's runs as they are read: each run is settled when the next one starts,
/// so a file of one key repeated 400,000 times holds two runs, not 400,000.
struct Document {
    /// The runs settled so far: the first, and each that split from the one before.
    kept: Vec<Run>,
    /// The run being read.
    current: Run,
    /// Per repeated key: its note's place in the output and how many more repeats.
    noted: HashMap<String, (usize, u32)>,
}

impl Document {
    fn new(split: Split) -> Document {
        Document {
            kept: Vec::new(),
            current: Run::new(split),
            noted: HashMap::new(),
        }
    }

    /// Settles the run being read and starts `next`: a run that is an object after one
    /// that is, is a split; any other is merged back into the run before, with one note
    /// per repeated key (its first repeat, and how many more there are).
    fn settle(&mut self, next: Run, out: &mut Appended) {
        let run = std::mem::replace(&mut self.current, next);
        let Some(last) = self.kept.last_mut() else {
            self.kept.push(run);
            return;
        };
        if last.is_object() && run.is_object() {
            out.splits.push(run.split);
            self.kept.push(run);
            return;
        }
        let Some((key, line)) = run.first.clone() else {
            return;
        };
        let first = last.keys.get(&key).copied().unwrap_or(0);
        // A repeated `kind`, `apiVersion` or `metadata` of one object is said with the
        // object (ingest names it); what else repeats is said here.
        let said_with_object = matches!(key.as_str(), "kind" | "apiVersion" | "metadata")
            && !(last.has("items") || run.has("items"));
        if !said_with_object {
            match self.noted.get_mut(&key) {
                Some((_, more)) => *more += 1,
                None => {
                    self.noted.insert(key.clone(), (out.notes.len(), 0));
                    out.notes.push((
                        line,
                        format!(
                            "top-level key `{key}` is given again at line {line} (first at line {first})"
                        ),
                    ));
                }
            }
        }
        for (k, l) in run.keys {
            last.keys.entry(k).or_insert(l);
        }
    }

    /// Settles the last run and completes the document's notes.
    fn finish(mut self, out: &mut Appended) {
        self.settle(Run::new(Split { offset: 0, line: 0 }), out);
        for (at, more) in self.noted.into_values() {
            let note = &mut out.notes[at].1;
            if more > 0 {
                note.push_str(&format!(
                    " and {more} more time{} after it",
                    if more == 1 { "" } else { "s" }
                ));
            }
            note.push_str(", with no `---` before it and not as the start of another object; the last value is read");
        }
    }
}

/// The key of a line at column 0 that is a plain `key:` (or `key: value`); `None` for
/// anything else (indented, a comment, a list entry, flow, quoted or other indicators).
fn top_level_key(line: &str) -> Option<&str> {
    let first = *line.as_bytes().first()?;
    if matches!(
        first,
        b' ' | b'\t'
            | b'#'
            | b'-'
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'"'
            | b'\''
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'%'
            | b'@'
            | b'`'
            | b'?'
            | b':'
    ) {
        return None;
    }
    let colon = line.find(':')?;
    let after = &line[colon + 1..];
    if !(after.is_empty() || after.starts_with(' ') || after.starts_with('\t')) {
        return None;
    }
    let key = &line[..colon];
    (!key.contains(" #")).then_some(key.trim_end())
}

/// How the general parser's reading of a file went on past bad documents.
#[derive(Debug, Default)]
struct Skipped {
    /// Documents that did not parse after the first one.
    more: usize,
    /// Lines of the errors after the first.
    lines: Vec<u32>,
    /// Documents read after the first error.
    read_after: usize,
    /// Where reading first went on.
    resumed_at: Option<u32>,
}

/// Every document of `text` by the general parser, read in pieces: at each split (see
/// [`appended`]) and, after a document that does not parse, from the next `---` on. The
/// first error is returned, saying how many documents were skipped and read after it.
pub fn yaml_in_pieces(text: &str, splits: &[Split]) -> (Vec<ParsedDoc>, Option<ParseError>) {
    let mut bounds: Vec<Split> = vec![Split { offset: 0, line: 1 }];
    bounds.extend(splits.iter().copied().filter(|s| s.offset > 0));
    let mut docs = Vec::new();
    let mut first: Option<ParseError> = None;
    let mut skipped = Skipped::default();
    let mut spent = yaml::Expanded::default();
    for (i, piece) in bounds.iter().enumerate() {
        let end = bounds.get(i + 1).map_or(text.len(), |b| b.offset);
        let mut from = *piece;
        loop {
            // After an error, one document at a time: a parse of all the rest would look
            // through all of it again after each bad document.
            let next = first
                .is_some()
                .then(|| next_marker(text, from, end, from.line + 1))
                .flatten();
            let until = next.map_or(end, |n| n.offset);
            let (got, error) = yaml::parse_spending(&text[from.offset..until], &mut spent);
            let shift = from.line - 1;
            if first.is_some() {
                skipped.read_after += got.len();
            }
            docs.extend(got.into_iter().map(|d| shifted(d, shift)));
            let resume = match error {
                None => next,
                Some(mut e) => {
                    e.line = e.line.map(|l| l + shift);
                    let resume = match next {
                        Some(next) => Some(next).filter(|_| !e.message.contains("alias bomb")),
                        None => e
                            .line
                            .filter(|_| !e.message.contains("alias bomb"))
                            .and_then(|l| next_marker(text, from, end, l)),
                    };
                    if first.is_none() {
                        first = Some(e);
                    } else {
                        skipped.more += 1;
                        skipped.lines.extend(e.line);
                    }
                    if let Some(next) = resume {
                        skipped.resumed_at.get_or_insert(next.line);
                    }
                    resume
                }
            };
            match resume {
                Some(next) => from = next,
                None => break,
            }
        }
    }
    let error = first.map(|mut e| {
        if skipped.resumed_at.is_some() {
            e.message.push_str(&resumed_words(&skipped));
        }
        e
    });
    (docs, error)
}

/// Lines of skipped documents named in the first error's message.
const LINES_NAMED: usize = 10;

/// What [`yaml_in_pieces`] adds to the first error's message.
fn resumed_words(s: &Skipped) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let others = match s.lines.as_slice() {
        [] => String::new(),
        lines => format!(
            " (the others at line{} {}{})",
            plural(lines.len()),
            lines
                .iter()
                .take(LINES_NAMED)
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            if lines.len() > LINES_NAMED {
                ", …"
            } else {
                ""
            }
        ),
    };
    let skipped = 1 + s.more;
    format!(
        "; {skipped} document{} skipped{others}, reading went on at the next `---` (line {}): {} document{} read after it",
        plural(skipped),
        s.resumed_at.unwrap_or(0),
        s.read_after,
        plural(s.read_after)
    )
}

/// The first `---` at column 0 of `text[from..end]` on line `line` or later, and after
/// `from`'s own line: where reading goes on after an error at `line`.
fn next_marker(text: &str, from: Split, end: usize, line: u32) -> Option<Split> {
    let mut offset = from.offset;
    for (no, raw) in (from.line..).zip(text[from.offset..end].split_inclusive('\n')) {
        let l = raw.trim_end_matches(['\n', '\r']);
        if no >= line && no > from.line && (l == "---" || l.starts_with("--- ")) {
            return Some(Split { offset, line: no });
        }
        offset += raw.len();
    }
    None
}

/// `doc` of a piece starting at line `shift + 1`, in the file's line numbers.
pub fn shifted(mut doc: ParsedDoc, shift: u32) -> ParsedDoc {
    let by = |s: Span| Span {
        start: s.start + shift,
        end: s.end + shift,
    };
    doc.span = by(doc.span);
    for s in &mut doc.item_spans {
        *s = by(*s);
    }
    for r in &mut doc.repeated {
        r.line += shift;
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(names: &[&str]) -> String {
        let mut s = "apiVersion: v1\nitems:\n".to_string();
        for n in names {
            s.push_str(&format!(
                "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: {n}\n"
            ));
        }
        s + "kind: List\nmetadata:\n  resourceVersion: \"\"\n"
    }

    fn names(docs: &[ParsedDoc]) -> Vec<String> {
        docs.iter()
            .flat_map(|d| d.value["items"].as_array().cloned().unwrap_or_default())
            .map(|i| i["metadata"]["name"].as_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn two_appended_lists_split_where_the_second_starts() {
        let text = format!("{}{}", list(&["a", "b"]), list(&["c"]));
        let found = appended(&text);
        assert_eq!(
            found.splits,
            [Split {
                offset: list(&["a", "b"]).len(),
                line: 14
            }]
        );
        assert!(found.notes.is_empty());
        let (docs, error) = yaml_in_pieces(&text, &found.splits);
        assert!(error.is_none());
        assert_eq!(names(&docs), ["a", "b", "c"]);
        assert_eq!(docs[1].span.start, 14);
        assert_eq!(docs[1].item_spans[0].start, 16);
    }

    #[test]
    fn a_repeated_key_that_starts_no_object_is_a_note() {
        let text = "apiVersion: v1\nitems: []\nkind: List\nitems:\n- {}\n";
        let found = appended(text);
        assert!(found.splits.is_empty());
        assert_eq!(
            found.notes,
            [(
                4,
                "top-level key `items` is given again at line 4 (first at line 2), with no `---` before it and not as the start of another object; the last value is read".to_string()
            )]
        );
        // One object's own repeated `kind` is said with the object, not here.
        assert!(
            appended("apiVersion: v1\nkind: Pod\nkind: Pod\n")
                .notes
                .is_empty()
        );
        // Keys of separate documents, indented keys and list entries never repeat.
        let fine = "apiVersion: v1\nkind: Pod\n---\napiVersion: v1\nkind: Pod\nspec:\n  kind: x\n";
        assert_eq!(appended(fine), Appended::default());
    }

    #[test]
    fn reading_goes_on_after_a_bad_document() {
        let text = "a: 1\n---\nb: \"open\n  c: [\n---\nd: 4\n---\ne: \t- x\n---\nf: 6\n";
        let (docs, error) = yaml_in_pieces(text, &[]);
        let keys: Vec<String> = docs
            .iter()
            .filter_map(|d| d.value.as_object()?.keys().next().cloned())
            .collect();
        assert!(
            keys.contains(&"d".to_string()) && keys.contains(&"f".to_string()),
            "{keys:?}"
        );
        let e = error.unwrap();
        assert!(
            e.message.contains("reading went on at the next `---`"),
            "{}",
            e.message
        );
        // From the `---` it went on at, as the general parser counts a document.
        assert_eq!(docs.last().unwrap().span, Span { start: 10, end: 11 });
    }
}

//! A fast path for the regular block-style YAML that kubectl and must-gather write,
//! as a serde [`Deserializer`](serde::Deserializer) over the text.
//!
//! It handles block mappings and sequences (including sequences at their key's
//! indentation), plain, single- and double-quoted scalars (also folded over several
//! lines, as go-yaml wraps long strings), literal and folded block scalars, `{}`, `[]`,
//! comments on their own line and `---` separators — and drops `managedFields` by
//! skipping its lines. Anything else (anchors, aliases, tags, flow collections with
//! content, complex keys, tabs, trailing comments) is [`Error::Unsupported`] and the
//! caller uses the general parser ([`super::yaml`]) for the document or List item (ingest
//! reads a file in pieces when it must: `ingest::yaml_split`). A differential
//! test checks that both give the same documents on every file they both accept.
//!
//! Being a deserializer is what makes ingest cheap: ingest reads only an object's
//! identity (`ingest::header`) and checks the rest line by line ([`super::line_check`],
//! parsing a value only when its lines do not pass), and typed views later deserialize
//! straight from the text, skipping the fields they do not name by indentation alone, so
//! no generic tree of every object is ever built. An object whose text the fast path
//! cannot read after all is read by the general parser from its own lines
//! (`ingest::body::Body`).
//!
//! This file holds the entry points (documents, scans, compaction, places in kept text);
//! `parser.rs` the cursor over lines and the shape of the node at each place;
//! `deserializer.rs` the serde `Deserializer` and its map and sequence accessors; `lex.rs`
//! what one line holds (markers, keys, escapes); `tests.rs` the fast path's own tests.
//! What ingest keeps of this text is tested in `ingest/yaml_reads.rs`.

use super::line_check::skip_spaces;
use super::spans::{ParsedDoc, Span};
use deserializer::De;
use lex::{BLANK, is_doc_marker, is_document_end};
use parser::{At, Parser};
use serde::Deserialize;
use serde::de;
use serde_json::Value;
use std::fmt;

/// Why the fast path stopped: YAML it does not handle (use the general parser), or a
/// document whose shape the requested type does not accept.
#[derive(Debug, PartialEq, Eq)]
pub enum Error {
    Unsupported(&'static str, u32),
    Shape(String),
}

/// The file uses YAML this fast path does not handle; use the general parser.
#[derive(Debug, PartialEq, Eq)]
pub struct Unsupported(pub &'static str, pub u32);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Unsupported(what, line) => write!(f, "line {line}: {what}"),
            Error::Shape(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::Shape(msg.to_string())
    }
}

type R<T> = Result<T, Error>;

fn unsupported<T>(what: &'static str, line: u32) -> R<T> {
    Err(Error::Unsupported(what, line))
}

/// Deepest nesting the fast path follows before handing the file to the general parser.
const MAX_DEPTH: usize = 120;

/// Where an object of a document starts: the document itself or an item of its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ItemPos {
    /// Byte offset of the item's first line (the `- ` line for a list item).
    pub offset: usize,
    pub span: Span,
}

/// One document deserialized as `T`, with the positions of its list items.
#[derive(Debug)]
pub struct Doc<T> {
    pub value: T,
    pub offset: usize,
    pub span: Span,
    pub items: Vec<ItemPos>,
}

/// Parses every document of `text` into a generic tree, or says it cannot.
pub fn parse(text: &str) -> Result<Vec<ParsedDoc>, Unsupported> {
    let docs = documents::<Value>(text).map_err(|e| match e {
        Error::Unsupported(what, line) => Unsupported(what, line),
        Error::Shape(_) => Unsupported("shape", 0),
    })?;
    Ok(docs
        .into_iter()
        .map(|d| ParsedDoc {
            value: d.value,
            span: d.span,
            item_spans: d.items.iter().map(|i| i.span).collect(),
            repeated: Vec::new(),
        })
        .collect())
}

/// Deserializes every document of `text` as `T`, reading every line (so that the whole
/// file is known to be fast-path YAML), and remembers where each list item starts.
pub fn documents<'a, T: Deserialize<'a>>(text: &'a str) -> R<Vec<Doc<T>>> {
    Ok(scan::<T>(text)?.0)
}

/// Byte range of a skipped `managedFields` block.
pub type Managed = std::ops::Range<usize>;

/// [`documents`], and the byte ranges of the `managedFields` blocks it skipped (each
/// from the start of a line to the start of the next content line, in order). Values `T`
/// ignores are checked line by line (see [`super::line_check`]), not parsed, so blocks
/// are found in the maps `T` reads (ingest's headers read every object's `metadata`).
pub fn scan<'a, T: Deserialize<'a>>(text: &'a str) -> R<(Vec<Doc<T>>, Vec<Managed>)> {
    scan_with(text, true)
}

/// [`scan`], checking the values `T` ignores line by line (`check_lines`) or parsing them.
pub fn scan_with<'a, T: Deserialize<'a>>(
    text: &'a str,
    check_lines: bool,
) -> R<(Vec<Doc<T>>, Vec<Managed>)> {
    scan_from(text, 0, 1, check_lines, false)
}

/// [`scan_with`] of the documents of `text` from byte `start`, the start of line `line`:
/// offsets, spans and `managedFields` ranges are `text`'s.
fn scan_from<'a, T: Deserialize<'a>>(
    text: &'a str,
    start: usize,
    line: u32,
    check_lines: bool,
    indented: bool,
) -> R<(Vec<Doc<T>>, Vec<Managed>)> {
    // A lone `\r` is a line break in YAML; lines here end at `\n` (or `\r\n`).
    let bytes = &text.as_bytes()[start..];
    if let Some(i) = memchr::memchr_iter(b'\r', bytes).find(|&i| bytes.get(i + 1) != Some(&b'\n')) {
        let line = line + memchr::memchr_iter(b'\n', &bytes[..i]).count() as u32;
        return unsupported("carriage return without a line feed", line);
    }
    let mut p = Parser::new(text, start, line);
    p.check_lines = check_lines;
    let mut docs = Vec::new();
    loop {
        p.skip_blank();
        let Some(line) = p.peek() else { break };
        let content = line.content;
        // Markers only at column 0: an indented `---` is a plain scalar.
        if line.indent == 0 && (content == "---" || content.starts_with("--- ")) {
            if content.len() > 3 && !content[3..].trim_matches(BLANK).is_empty() {
                return unsupported("content after ---", line.no);
            }
            p.advance();
            // `---` with no content before the next separator (or the end) is an empty
            // document, as the general parser says: a null at the line where it ends.
            p.skip_blank();
            if p.raw().is_none_or(|l| is_doc_marker(&l)) {
                let at = p.line_no;
                docs.push(Doc {
                    value: T::deserialize(serde::de::value::UnitDeserializer::new())?,
                    offset: p.pos,
                    span: Span { start: at, end: at },
                    items: Vec::new(),
                });
            }
            continue;
        }
        if line.indent == 0 && is_document_end(content) {
            if !content[3..].trim_matches(BLANK).is_empty() {
                return unsupported("content after ...", line.no);
            }
            p.advance();
            continue;
        }
        if content.starts_with('%') {
            return unsupported("directive", line.no);
        }
        if line.indent != 0 && !indented {
            return unsupported("indented document", line.no);
        }
        let start = line.no;
        let offset = p.pos;
        p.item_spans = None;
        p.depth = 0;
        let value = T::deserialize(De {
            p: &mut p,
            at: At::Node { top: true },
        })?;
        let end = p.last_content_line.max(start);
        docs.push(Doc {
            value,
            offset,
            span: Span { start, end },
            items: p.item_spans.take().unwrap_or_default(),
        });
        // After a document, only a separator may follow at column 0.
        p.skip_blank();
        if let Some(l) = p.peek()
            && !is_doc_marker(&l)
        {
            return unsupported("unexpected content after document", l.no);
        }
    }
    Ok((docs, p.managed))
}

/// The text without the `managedFields` blocks that [`scan`] found: each block becomes a
/// comment line saying so, followed by empty lines, so every other line keeps its number
/// and the fast path reads the same objects from it. `managedFields` is often 40% of
/// kubectl output and nothing reads it, but the text is kept for quoting and views.
pub fn compact(text: &str, managed: &[Managed]) -> (String, Shifts) {
    blank_out(text, managed, MANAGED_FIELDS_GAP)
}

/// `text` with each range (sorted, disjoint) replaced by its line breaks, the first line
/// starting with the range's indentation and `marker` when `marker` is not empty: every
/// other line keeps its number. Shared by the YAML and JSON forms of kept text.
pub fn blank_out(text: &str, ranges: &[Managed], marker: &str) -> (String, Shifts) {
    // What stands for each range: its indentation (with a marker) and its line breaks.
    let gaps: Vec<(usize, usize)> = ranges
        .iter()
        .map(|r| {
            let block = &text[r.clone()];
            let lines = memchr::memchr_iter(b'\n', block.as_bytes()).count();
            let indent = if marker.is_empty() {
                0
            } else {
                block.len() - skip_spaces(block).len()
            };
            (indent, lines)
        })
        .collect();
    let removed: usize = ranges.iter().map(|r| r.len()).sum();
    let added: usize = gaps
        .iter()
        .map(|&(indent, lines)| indent + lines)
        .sum::<usize>()
        + if marker.is_empty() {
            0
        } else {
            ranges.len() * marker.len()
        };
    // Exactly sized: the text is kept for the whole run.
    let size = text.len() - removed + added;
    let mut out = String::with_capacity(size);
    let mut shifts = Vec::with_capacity(ranges.len());
    let mut from = 0;
    for (r, &(indent, lines)) in ranges.iter().zip(&gaps) {
        out.push_str(&text[from..r.start]);
        if !marker.is_empty() {
            out.push_str(&text[r.start..r.start + indent]);
            out.push_str(marker);
        }
        out.extend(std::iter::repeat_n('\n', lines));
        from = r.end;
        shifts.push((r.end, out.len()));
    }
    out.push_str(&text[from..]);
    debug_assert_eq!(out.len(), size);
    (out, Shifts(shifts))
}

/// The comment line that stands for a `managedFields` block in kept text; the block's
/// other lines follow it, empty.
pub const MANAGED_FIELDS_GAP: &str = "# managedFields not kept by kdiag";

/// Where the offsets of a text outside its `managedFields` blocks moved to in its
/// [`compact`] form: (old offset, new offset) at the end of each block.
#[derive(Default)]
pub struct Shifts(Vec<(usize, usize)>);

impl Shifts {
    pub fn map(&self, offset: usize) -> usize {
        let i = self.0.partition_point(|&(old, _)| old <= offset);
        match i.checked_sub(1) {
            Some(i) => self.0[i].1 + (offset - self.0[i].0),
            None => offset,
        }
    }
}

/// The newtype name a field type uses to receive the text of its `key: value` entry
/// (see `kube::lazy`); other deserializers give it the value.
pub const LAZY: &str = "$kdiag::lazy";

/// The newtype name of a value read as one type or, failing that, as another (see
/// [`super::attempt`]); other deserializers read it as the first type.
pub const ATTEMPT: &str = "$kdiag::attempt";

/// The value of the single `key: value` entry in `entry` (as handed to a [`LAZY`] field:
/// its lines from the start of the key's line, which may be a list item's `- key:`).
pub fn entry_value(entry: &str) -> Option<Value> {
    entry_as::<Value>(entry).and_then(Result::ok)
}

/// The value of the single `key: value` entry in `entry` read as a `T` straight from its
/// text, as a view's fields are (a plain scalar where a string goes is its source text):
/// `None` when the entry is no YAML, else whether it reads as a `T`.
pub fn entry_as<T: serde::de::DeserializeOwned>(entry: &str) -> Option<Result<T, String>> {
    let spaces = entry.len() - entry.trim_start_matches(' ').len();
    let unlisted;
    let entry = match entry[spaces..].strip_prefix("- ") {
        Some(rest) => {
            unlisted = format!("{}  {rest}", &entry[..spaces]);
            unlisted.as_str()
        }
        None => entry,
    };
    let mut p = Parser::new(entry, 0, 1);
    match FirstValue::<T>::deserialize(De {
        p: &mut p,
        at: At::Node { top: false },
    }) {
        Ok(FirstValue(v)) => v.map(Ok),
        Err(Error::Shape(e)) => Some(Err(e)),
        // Ingest checked these lines one by one, not how they nest: what the fast path
        // does not read, the general parser may.
        Err(Error::Unsupported(..)) => {
            let (docs, error) = super::yaml::parse(entry);
            if error.is_some() {
                return None;
            }
            match docs.into_iter().next()?.value {
                Value::Object(map) => map
                    .into_iter()
                    .next()
                    .map(|(_, v)| super::tree::read::<T>(&v)),
                _ => None,
            }
        }
    }
}

/// The value of the first entry of a map as a `T` (`None` for an empty map or a scalar).
struct FirstValue<T>(Option<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for FirstValue<T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> de::Visitor<'de> for V<T> {
            type Value = FirstValue<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of one entry")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                if map.next_key::<de::IgnoredAny>()?.is_none() {
                    return Ok(FirstValue(None));
                }
                let v = map.next_value::<T>()?;
                while map
                    .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(FirstValue(Some(v)))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(FirstValue(None))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// A file's kept text once [`compact`] has made it, and where the offsets of the text
/// [`scan_keeping`] read moved to: what a [`LAZY`] field read during ingest's scan (an
/// early view, see `ingest::early`) points into.
pub type LaterText = std::sync::OnceLock<(super::KeptText, Shifts)>;

/// The text a [`LAZY`] field being read lies in.
enum Source {
    /// The kept text itself ([`object_in`]).
    Kept(super::KeptText),
    /// The text [`scan_keeping`] reads (its address and length); kept later.
    Scanned {
        at: usize,
        len: usize,
        later: std::sync::Arc<LaterText>,
    },
}

/// Where a slice handed to a [`LAZY`] field lies, so that the field can keep its place
/// instead of a copy: a byte range of the kept text, or of the scanned text (moved as
/// [`Shifts`] says once the text is kept).
pub enum Place {
    Kept(super::KeptText, std::ops::Range<usize>),
    Later(std::sync::Arc<LaterText>, std::ops::Range<usize>),
}

thread_local! {
    /// The file being read, so that a [`LAZY`] field can keep its place in it.
    static SOURCE: std::cell::RefCell<Option<Source>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with `source` as the file being read.
fn reading<R>(source: Source, f: impl FnOnce() -> R) -> R {
    let before = SOURCE.replace(Some(source));
    let out = f();
    SOURCE.set(before);
    out
}

/// [`object_at`] on a file kept in an `Arc`: a [`LAZY`] field handed a slice of it may
/// keep the file and the slice's place (see [`place_of`]) instead of copying it.
pub fn object_in<T: serde::de::DeserializeOwned>(
    text: &super::KeptText,
    pos: ItemPos,
    item: bool,
) -> R<T> {
    reading(Source::Kept(text.clone()), || object_at(text, pos, item))
}

/// Runs `f`, which reads from `text`, so that [`LAZY`] fields handed a slice of `text`
/// keep its place (see [`place_of`]) instead of a copy: for JSON, read by serde_json.
pub fn reading_kept<R>(text: &super::KeptText, f: impl FnOnce() -> R) -> R {
    reading(Source::Kept(text.clone()), f)
}

/// [`scan`], where [`LAZY`] fields read keep their place in `text` as it will be kept:
/// the caller sets `later` once it has the kept text.
pub fn scan_keeping<'a, T: Deserialize<'a>>(
    text: &'a str,
    later: &std::sync::Arc<LaterText>,
) -> R<(Vec<Doc<T>>, Vec<Managed>)> {
    reading(scanned(text, later), || scan(text))
}

/// [`scan_keeping`] of a piece of a file: the documents of `text[start..end]`, where
/// `start` is the start of line `line`. Offsets, spans, `managedFields` ranges and the
/// places [`LAZY`] fields keep are the whole file's (`text`'s). `indented`: the piece is
/// a List's items indented under `items:`, whose lines the caller found all indented at
/// least as far as its first.
pub fn scan_piece_keeping<'a, T: Deserialize<'a>>(
    text: &'a str,
    (start, end): (usize, usize),
    line: u32,
    indented: bool,
    later: &std::sync::Arc<LaterText>,
) -> R<(Vec<Doc<T>>, Vec<Managed>)> {
    reading(scanned(text, later), || {
        scan_from(&text[..end], start, line, true, indented)
    })
}

/// The whole of `text` as the source [`LAZY`] fields are placed in, kept as `later` says.
fn scanned(text: &str, later: &std::sync::Arc<LaterText>) -> Source {
    Source::Scanned {
        at: text.as_ptr() as usize,
        len: text.len(),
        later: later.clone(),
    }
}

/// Where `slice` lies in the file being read, when it does.
pub fn place_of(slice: &str) -> Option<Place> {
    SOURCE.with_borrow(|source| {
        let within = |at: usize, len: usize| {
            let start = (slice.as_ptr() as usize).checked_sub(at)?;
            (start + slice.len() <= len).then_some(start..start + slice.len())
        };
        match source.as_ref()? {
            Source::Kept(file) => {
                within(file.as_ptr() as usize, file.len()).map(|r| Place::Kept(file.clone(), r))
            }
            Source::Scanned { at, len, later } => {
                within(*at, *len).map(|r| Place::Later(later.clone(), r))
            }
        }
    })
}

/// Deserializes the one object at `pos` of a text that [`documents`] accepted: a whole
/// document (`item == false`) or a `- ` list item. Fields `T` does not name are skipped
/// by indentation without being parsed.
pub fn object_at<'a, T: Deserialize<'a>>(text: &'a str, pos: ItemPos, item: bool) -> R<T> {
    let mut p = Parser::new(text, pos.offset, pos.span.start);
    p.skip_ignored = true;
    let at = if item {
        At::SeqItem
    } else {
        At::Node { top: false }
    };
    T::deserialize(De { p: &mut p, at })
}

mod deserializer;
mod lex;
mod parser;

#[cfg(test)]
mod tests;

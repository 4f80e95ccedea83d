//! A fast path for the regular block-style YAML that kubectl and must-gather write,
//! as a serde [`Deserializer`] over the text.
//!
//! It handles block mappings and sequences (including sequences at their key's
//! indentation), plain, single- and double-quoted scalars (also folded over several
//! lines, as go-yaml wraps long strings), literal and folded block scalars, `{}`, `[]`,
//! comments on their own line and `---` separators — and drops `managedFields` by
//! skipping its lines. Anything else (anchors, aliases, tags, flow collections with
//! content, complex keys, tabs, trailing comments) is [`Error::Unsupported`] and the
//! caller uses the general parser ([`super::yaml`]) for the whole file. A differential
//! test checks that both give the same documents on every file they both accept.
//!
//! Being a deserializer is what makes ingest cheap: ingest reads only an object's
//! identity ([`super::header`]) and checks the rest line by line ([`super::line_check`],
//! parsing a value only when its lines do not pass), and typed views later deserialize
//! straight from the text, skipping the fields they do not name by indentation alone, so
//! no generic tree of every object is ever built. An object whose text the fast path
//! cannot read after all is read by the general parser from its own lines (`Body`).

use super::line_check::{comment_or_tab, key_colon, skip_spaces};
use super::spans::{ParsedDoc, Span};
use super::yaml::{Plain, resolve_plain};
use serde::Deserialize;
use serde::de::{
    self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use serde_json::Value;
use std::borrow::Cow;
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
fn scan_with<'a, T: Deserialize<'a>>(
    text: &'a str,
    check_lines: bool,
) -> R<(Vec<Doc<T>>, Vec<Managed>)> {
    // A lone `\r` is a line break in YAML; lines here end at `\n` (or `\r\n`).
    let bytes = text.as_bytes();
    if let Some(i) = memchr::memchr_iter(b'\r', bytes).find(|&i| bytes.get(i + 1) != Some(&b'\n')) {
        let line = memchr::memchr_iter(b'\n', &bytes[..i]).count() as u32 + 1;
        return unsupported("carriage return without a line feed", line);
    }
    let mut p = Parser::new(text, 0, 1);
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
        if line.indent != 0 {
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
    let v = match Value::deserialize(De {
        p: &mut p,
        at: At::Node { top: false },
    }) {
        Ok(v) => v,
        // Ingest checked these lines one by one, not how they nest: what the fast path
        // does not read, the general parser may.
        Err(_) => {
            let (docs, error) = super::yaml::parse(entry);
            if error.is_some() {
                return None;
            }
            docs.into_iter().next()?.value
        }
    };
    match v {
        Value::Object(map) => map.into_iter().next().map(|(_, v)| v),
        _ => None,
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

/// [`scan`], where [`LAZY`] fields read keep their place in `text` as it will be kept:
/// the caller sets `later` once it has the kept text.
pub fn scan_keeping<'a, T: Deserialize<'a>>(
    text: &'a str,
    later: &std::sync::Arc<LaterText>,
) -> R<(Vec<Doc<T>>, Vec<Managed>)> {
    let source = Source::Scanned {
        at: text.as_ptr() as usize,
        len: text.len(),
        later: later.clone(),
    };
    reading(source, || scan(text))
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

#[derive(Clone, Copy)]
struct Line<'a> {
    /// 1-based line number.
    no: u32,
    indent: usize,
    /// The line without indentation and without the trailing newline / `\r`.
    content: &'a str,
    /// Byte offset just after this line's newline.
    next: usize,
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    line_no: u32,
    last_content_line: u32,
    depth: usize,
    /// Spans of the current document's objects list, once known.
    item_spans: Option<Vec<ItemPos>>,
    /// Skip values the target type ignores by indentation instead of parsing them
    /// (only for text already checked by [`documents`]).
    skip_ignored: bool,
    /// Ingest's header scan: values the target ignores are checked line by line (see
    /// [`super::line_check`]) instead of parsed, falling back to parsing when a line fails.
    check_lines: bool,
    /// Open collections of the value [`Parser::skip_checked`] is checking (kept to reuse
    /// its allocation).
    levels: Vec<(usize, bool)>,
    /// The line starting at `.0`, so each line is scanned once however often it is peeked.
    cache: Option<(usize, Line<'a>)>,
    /// Byte ranges of the `managedFields:` blocks skipped, each from the start of its key
    /// line (see [`compact`]).
    managed: Vec<Managed>,
}

/// A cursor position to go back to ([`Parser::rewind`]).
#[derive(Clone, Copy)]
struct Mark {
    pos: usize,
    line_no: u32,
    last_content_line: u32,
    depth: usize,
    managed: usize,
}

/// What the cursor is at, before its shape is known.
#[derive(Clone)]
enum At<'a> {
    /// A block node whose first line is at the cursor.
    Node {
        top: bool,
    },
    /// The value of a `key:` whose line was consumed; `rest` is what followed the colon,
    /// `key_at` the byte offset of the key.
    AfterKey {
        indent: usize,
        rest: &'a str,
        line: u32,
        objects_list: bool,
        key_at: usize,
    },
    /// A `- …` entry whose line is at the cursor.
    SeqItem,
    Known(Shape<'a>),
}

/// A node once its first lines are read.
#[derive(Clone)]
enum Shape<'a> {
    Null,
    Map {
        indent: usize,
        first: Option<(Cow<'a, str>, &'a str, u32)>,
        top: bool,
    },
    Seq {
        indent: usize,
        tracked: bool,
    },
    EmptyMap,
    EmptySeq,
    /// A one-line plain scalar, typed by the YAML core schema when read.
    Plain(&'a str),
    /// A quoted, folded or block scalar: always a string.
    Text(Cow<'a, str>),
}

impl<'a> Parser<'a> {
    fn new(src: &'a str, pos: usize, line_no: u32) -> Self {
        Parser {
            src,
            pos,
            line_no,
            last_content_line: 0,
            depth: 0,
            item_spans: None,
            skip_ignored: false,
            check_lines: false,
            levels: Vec::new(),
            cache: None,
            managed: Vec::new(),
        }
    }

    /// The line at the cursor (may be blank or a comment); computed once per line. Inlined:
    /// it is asked several times per line, and is found in the cache most times.
    #[inline(always)]
    fn raw(&mut self) -> Option<Line<'a>> {
        if let Some((pos, line)) = self.cache
            && pos == self.pos
        {
            return Some(line);
        }
        self.scan_and_cache()
    }

    #[inline(never)]
    fn scan_and_cache(&mut self) -> Option<Line<'a>> {
        let line = self.scan_line()?;
        self.cache = Some((self.pos, line));
        Some(line)
    }

    fn scan_line(&self) -> Option<Line<'a>> {
        if self.pos >= self.src.len() {
            return None;
        }
        let rest = &self.src[self.pos..];
        let (body, next) = match memchr(b'\n', rest.as_bytes()) {
            Some(i) => (&rest[..i], self.pos + i + 1),
            None => (rest, self.src.len()),
        };
        let body = body.strip_suffix('\r').unwrap_or(body);
        let indent = body.bytes().take_while(|&b| b == b' ').count();
        Some(Line {
            no: self.line_no,
            indent,
            content: &body[indent..],
            next,
        })
    }

    /// Where the cursor is, for [`Self::rewind`].
    fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            line_no: self.line_no,
            last_content_line: self.last_content_line,
            depth: self.depth,
            managed: self.managed.len(),
        }
    }

    /// Back to `mark`, forgetting what was read since (the text does not change, so the
    /// line cache stays valid).
    fn rewind(&mut self, mark: Mark) {
        self.pos = mark.pos;
        self.line_no = mark.line_no;
        self.last_content_line = mark.last_content_line;
        self.depth = mark.depth;
        self.managed.truncate(mark.managed);
    }

    fn advance(&mut self) {
        if let Some(l) = self.raw() {
            if !l.content.is_empty() && !l.content.starts_with('#') {
                self.last_content_line = l.no;
            }
            self.pos = l.next;
            self.line_no += 1;
        }
    }

    /// Skips blank and comment lines.
    fn skip_blank(&mut self) {
        while let Some(l) = self.raw() {
            if l.content.is_empty() || l.content.starts_with('#') {
                self.pos = l.next;
                self.line_no += 1;
            } else {
                break;
            }
        }
    }

    /// The next content line, after blank and comment lines.
    fn peek(&mut self) -> Option<Line<'a>> {
        self.skip_blank();
        self.raw()
    }

    /// Reads the first lines of the node at `at`, leaving the cursor at its entries.
    fn shape(&mut self, at: At<'a>) -> R<Shape<'a>> {
        match at {
            At::Known(s) => Ok(s),
            At::Node { top } => {
                let Some(line) = self.peek() else {
                    return unsupported("unexpected end", self.line_no);
                };
                check_line(&line)?;
                if is_seq_entry(line.content) {
                    Ok(Shape::Seq {
                        indent: line.indent,
                        tracked: top,
                    })
                } else if split_key(line.content, line.no, self.skip_ignored)?.is_some() {
                    Ok(Shape::Map {
                        indent: line.indent,
                        first: None,
                        top,
                    })
                } else {
                    // A scalar document or a scalar on its own line (`[]`, `{}`, quoted,
                    // plain; a block scalar here is not kubectl's).
                    if line.content.starts_with(['|', '>']) {
                        return unsupported("block scalar on its own line", line.no);
                    }
                    self.advance();
                    self.inline_value(line.content, line.indent, line.no)
                }
            }
            At::AfterKey {
                indent,
                rest,
                line,
                objects_list,
                ..
            } => {
                if !rest.is_empty() {
                    return self.inline_value(rest, indent, line);
                }
                // Value on the following lines: more indented, or a sequence at the same column.
                let Some(next) = self.peek() else {
                    return Ok(Shape::Null);
                };
                let seq = is_seq_entry(next.content);
                if !(next.indent > indent || (next.indent == indent && seq)) {
                    return Ok(Shape::Null);
                }
                if objects_list && seq {
                    return Ok(Shape::Seq {
                        indent: next.indent,
                        tracked: true,
                    });
                }
                self.shape(At::Node { top: false })
            }
            At::SeqItem => {
                let Some(line) = self.peek() else {
                    return unsupported("unexpected end", self.line_no);
                };
                check_line(&line)?;
                let after = skip_spaces(&line.content[1..]);
                let col = line.indent + (line.content.len() - after.len());
                if after.is_empty() {
                    self.advance();
                    return match self.peek() {
                        Some(next) if next.indent > line.indent => {
                            self.shape(At::Node { top: false })
                        }
                        _ => Ok(Shape::Null),
                    };
                }
                if is_seq_entry(after) {
                    return unsupported("nested inline sequence", line.no);
                }
                if let Some((key, rest)) = split_key(after, line.no, self.skip_ignored)? {
                    // `- key: value` opens a mapping whose keys sit at `col`.
                    self.advance();
                    return Ok(Shape::Map {
                        indent: col,
                        first: Some((key, rest, line.no)),
                        top: false,
                    });
                }
                self.advance();
                self.inline_value(after, line.indent, line.no)
            }
        }
    }

    /// Skips the value of a `key:` without parsing it (text checked before).
    fn skip_after_key(&mut self, indent: usize, rest: &str) {
        if rest.is_empty() {
            self.skip_block(indent);
        } else {
            self.skip_continuation(indent);
        }
    }

    /// Skips the lines of a block value (`managedFields:`).
    fn skip_block(&mut self, indent: usize) {
        self.skip_lines(indent, true);
    }

    /// Skips continuation lines of an inline value.
    fn skip_continuation(&mut self, indent: usize) {
        self.skip_lines(indent, false);
    }

    /// Skips blank and comment lines and lines indented deeper than `indent` (and `- `
    /// entries at `indent` when `seq_at_indent`), stopping at the first other line: what
    /// `peek` and `advance` would do line by line, on the bytes, as skipping is most of
    /// the lines of a view.
    fn skip_lines(&mut self, indent: usize, seq_at_indent: bool) {
        let b = self.src.as_bytes();
        let (mut pos, mut no, mut last) = (self.pos, self.line_no, self.last_content_line);
        while pos < b.len() {
            let end = memchr(b'\n', &b[pos..]).map_or(b.len(), |i| pos + i);
            let spaces = b[pos..end].iter().take_while(|&&c| c == b' ').count();
            let content = &b[pos + spaces..end];
            let content = content.strip_suffix(b"\r").unwrap_or(content);
            if !(content.is_empty() || content[0] == b'#') {
                let entry = seq_at_indent
                    && spaces == indent
                    && (content == b"-" || content.starts_with(b"- "));
                if spaces <= indent && !entry {
                    break;
                }
                last = no;
            }
            pos = (end + 1).min(b.len());
            no += 1;
        }
        self.pos = pos;
        self.line_no = no;
        self.last_content_line = last;
    }

    /// Skips the value of a `key:` at `indent` (`rest`: what followed the colon) when each
    /// of its lines passes [`line_check::check_line`] and the lines nest as block
    /// collections do (each at the column of its map's keys or its list's `- `, deeper
    /// only below a `key:` or `-` with nothing after it), consuming what
    /// [`Self::skip_after_key`] would; `false` (the cursor unmoved) otherwise, for the
    /// caller to parse it.
    fn skip_checked(&mut self, indent: usize, rest: &str) -> bool {
        use super::line_check::{Value, check_line, comment_or_tab, value};
        // Lines deeper than this column are a block scalar's text.
        let mut text_above = None;
        // The last line's value is below it, deeper than this column (or a list at the
        // column, when it was a `key:`).
        let mut below = None;
        match value(rest) {
            Some(Value::Below) => below = Some((indent, true)),
            Some(Value::BlockScalar) => text_above = Some(indent),
            // The key's line was split, not checked: a comment or tab after a plain scalar
            // is refused here as on the lines below (a view reads checked text without
            // looking). `value` refuses anything after a quoted one.
            Some(Value::Scalar)
                if !rest.starts_with(['"', '\'']) && comment_or_tab(rest.as_bytes()) =>
            {
                return false;
            }
            Some(Value::Scalar) => {}
            None => return false,
        }
        // Open collections, innermost last: (column, is a list).
        let levels = &mut self.levels;
        levels.clear();
        let seq_at_indent = rest.is_empty();
        let b = self.src.as_bytes();
        let (mut pos, mut no, mut last) = (self.pos, self.line_no, self.last_content_line);
        while pos < b.len() {
            let end = memchr(b'\n', &b[pos..]).map_or(b.len(), |i| pos + i);
            let spaces = b[pos..end].iter().take_while(|&&c| c == b' ').count();
            let content = &self.src[pos + spaces..end];
            let content = content.strip_suffix('\r').unwrap_or(content);
            if !(content.is_empty() || content.starts_with('#')) {
                let entry = seq_at_indent && spaces == indent && is_seq_entry(content);
                if spaces <= indent && !entry {
                    break;
                }
                last = no;
                if text_above.is_some_and(|col| spaces > col) {
                    // Block scalar text: anything goes.
                } else {
                    text_above = None;
                    let Some(shape) = check_line(content) else {
                        return false;
                    };
                    let collection = shape.item || shape.key.is_some();
                    let mut placed = false;
                    if let Some((col, list_at_col)) = below.take()
                        && (spaces > col || (list_at_col && spaces == col && shape.item))
                    {
                        if collection {
                            levels.push((spaces, shape.item));
                        }
                        // A scalar alone on its line is the value; nothing nests under it.
                        placed = true;
                    }
                    if !placed {
                        while let Some(&(col, list)) = levels.last()
                            && (col > spaces || (col == spaces && list && !shape.item))
                        {
                            levels.pop();
                        }
                        let fits = levels.last().is_some_and(|&(col, list)| {
                            col == spaces && list == shape.item && collection
                        });
                        if !fits {
                            return false;
                        }
                    }
                    if shape.item
                        && let Some(key) = shape.key
                    {
                        // `- key: …` opens the map of the entry's other keys.
                        levels.push((spaces + key, false));
                    }
                    if let Some(col) = shape.opens {
                        if shape.block_scalar {
                            text_above = Some(spaces + col);
                        } else {
                            below = Some((spaces + col, shape.key.is_some()));
                        }
                    }
                }
            }
            pos = (end + 1).min(b.len());
            no += 1;
        }
        self.pos = pos;
        self.line_no = no;
        self.last_content_line = last;
        true
    }

    /// A value written after `key: ` or `- `: a scalar (maybe continued on more
    /// indented lines), `{}`, `[]`, or a block scalar header.
    fn inline_value(&mut self, text: &'a str, parent_indent: usize, line_no: u32) -> R<Shape<'a>> {
        match text.as_bytes()[0] {
            b'|' | b'>' => Ok(Shape::Text(Cow::Owned(self.block_scalar(
                text,
                parent_indent,
                line_no,
            )?))),
            b'{' | b'[' => match text {
                "{}" => Ok(Shape::EmptyMap),
                "[]" => Ok(Shape::EmptySeq),
                _ => unsupported("flow collection", line_no),
            },
            _ => self.scalar(text, parent_indent, line_no),
        }
    }

    /// A plain or quoted scalar starting with `first`, folding continuation lines
    /// indented deeper than `parent_indent`.
    fn scalar(&mut self, first: &'a str, parent_indent: usize, line_no: u32) -> R<Shape<'a>> {
        let quote = first.as_bytes()[0];
        if matches!(quote, b'&' | b'*' | b'!' | b'?' | b'%' | b'@' | b'`') {
            return unsupported("anchor, alias, tag or reserved indicator", line_no);
        }
        if matches!(quote, b'[' | b']' | b'{' | b'}' | b',') {
            // Flow indicators: never the start of a plain scalar.
            return unsupported("flow indicator", line_no);
        }
        if quote == b'#' {
            // `- # note`: a comment where a value would be (the value is null).
            return unsupported("comment in place of a value", line_no);
        }
        if quote == b'"' || quote == b'\'' {
            return self.quoted(first, parent_indent, line_no).map(Shape::Text);
        }
        // Text already checked (see `skip_ignored`) has neither: its lines were refused.
        if !self.skip_ignored && comment_or_tab(first.as_bytes()) {
            return unsupported("comment or tab in plain scalar", line_no);
        }
        let mut text: Option<String> = None;
        let mut pending_breaks = 0usize;
        while let Some(l) = self.raw() {
            if l.content.is_empty() {
                pending_breaks += 1;
                self.pos = l.next;
                self.line_no += 1;
                continue;
            }
            if l.indent <= parent_indent || l.content.starts_with('#') {
                break;
            }
            if key_colon(l.content.as_bytes()).is_some() || comment_or_tab(l.content.as_bytes()) {
                return unsupported("ambiguous plain continuation", l.no);
            }
            let s = text.get_or_insert_with(|| trim_end_blank(first).to_string());
            if pending_breaks == 0 {
                s.push(' ');
            } else {
                for _ in 0..pending_breaks {
                    s.push('\n');
                }
            }
            pending_breaks = 0;
            s.push_str(trim_end_blank(l.content));
            self.advance();
        }
        if pending_breaks > 0 {
            // Blank lines were consumed past the scalar; keep line numbers consistent.
            self.rewind_blank(pending_breaks);
        }
        Ok(match text {
            None => Shape::Plain(trim_end_blank(first)),
            Some(s) => Shape::Text(Cow::Owned(s)),
        })
    }

    /// Steps back over `n` blank lines consumed while looking for continuations.
    fn rewind_blank(&mut self, n: usize) {
        for _ in 0..n {
            let before = &self.src[..self.pos.saturating_sub(1)];
            let start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
            self.pos = start;
            self.line_no -= 1;
        }
    }

    fn quoted(&mut self, first: &'a str, parent_indent: usize, line_no: u32) -> R<Cow<'a, str>> {
        let q = first.as_bytes()[0];
        // Most quoted scalars close on their line with nothing to unescape: borrow them.
        let body = &first[1..];
        if let Some(i) = body.find(|c| c == q as char || (q == b'"' && c == '\\'))
            && body.as_bytes()[i] == q
            && !(q == b'\'' && body.as_bytes().get(i + 1) == Some(&b'\''))
            && body[i + 1..].trim_matches(BLANK).is_empty()
        {
            return Ok(Cow::Borrowed(&body[..i]));
        }
        let mut out = String::new();
        // Current chunk of text to scan, starting after the opening quote.
        let mut chunk: &str = &first[1..];
        loop {
            let mut closed_at = None;
            // The line ended in `\`: join the next one without a space.
            let mut escaped_break = false;
            let bytes = chunk.as_bytes();
            let mut i = 0;
            let mut segment_start = 0;
            while i < bytes.len() {
                let b = bytes[i];
                if q == b'\'' && b == b'\'' {
                    if bytes.get(i + 1) == Some(&b'\'') {
                        out.push_str(&chunk[segment_start..i + 1]);
                        i += 2;
                        segment_start = i;
                        continue;
                    }
                    closed_at = Some(i);
                    break;
                }
                if q == b'"' && b == b'"' {
                    closed_at = Some(i);
                    break;
                }
                if q == b'"' && b == b'\\' {
                    out.push_str(&chunk[segment_start..i]);
                    if i + 1 >= bytes.len() {
                        // Escaped line break: join without a space.
                        segment_start = bytes.len();
                        escaped_break = true;
                        break;
                    }
                    let (ch, used) =
                        unescape(&chunk[i + 1..]).ok_or(Error::Unsupported("escape", line_no))?;
                    out.push_str(&ch);
                    i += 1 + used;
                    segment_start = i;
                    continue;
                }
                i += 1;
            }
            if let Some(end) = closed_at {
                out.push_str(&chunk[segment_start..end]);
                let after = chunk[end + 1..].trim_matches(BLANK);
                if !after.is_empty() {
                    return unsupported("text after closing quote", line_no);
                }
                return Ok(Cow::Owned(out));
            }
            // Multi-line quoted scalar: fold line breaks.
            if !escaped_break {
                let seg = &chunk[segment_start..];
                // Line content starts after its indentation; only trailing blanks fold away.
                out.push_str(trim_end_blank(seg));
            }
            let mut breaks = 0;
            let next = loop {
                let Some(l) = self.raw() else {
                    return unsupported("unterminated quoted scalar", line_no);
                };
                if l.content.is_empty() {
                    breaks += 1;
                    self.pos = l.next;
                    self.line_no += 1;
                    continue;
                }
                if l.indent <= parent_indent {
                    return unsupported("quoted scalar continuation not indented", l.no);
                }
                break l;
            };
            if escaped_break {
                // Joined as is.
            } else if breaks == 0 {
                out.push(' ');
            } else {
                for _ in 0..breaks {
                    out.push('\n');
                }
            }
            chunk = next.content;
            self.advance();
        }
    }

    /// `|`, `|-`, `|+`, `>`, `>-`, `>+` with an optional indentation digit.
    fn block_scalar(&mut self, header: &'a str, parent_indent: usize, line_no: u32) -> R<String> {
        let literal = header.starts_with('|');
        let mut chomp = 'c';
        let mut explicit: Option<usize> = None;
        for ch in header[1..].chars() {
            match ch {
                '-' | '+' => chomp = ch,
                '1'..='9' => explicit = Some(ch as usize - '0' as usize),
                _ => return unsupported("block scalar header", line_no),
            }
        }
        let mut lines: Vec<&str> = Vec::new();
        let mut block_indent = explicit.map(|e| parent_indent + e);
        // Spaces of the widest all-space line before the indentation is known.
        let mut leading_spaces = 0;
        while let Some(l) = self.raw() {
            let body = &self.src[self.pos..l.next];
            let body = body.strip_suffix('\n').unwrap_or(body);
            let body = body.strip_suffix('\r').unwrap_or(body);
            if l.content.is_empty() {
                // An all-space line is empty up to the indentation; spaces past it are
                // content.
                match block_indent {
                    // The file's last line, with no line break: the general parser keeps a
                    // line break for it (the YAML spec does not); leave the file to it.
                    Some(bi) if l.indent == bi && !self.src[..l.next].ends_with('\n') => {
                        return unsupported(
                            "block scalar ends in spaces without a line break",
                            l.no,
                        );
                    }
                    Some(bi) if l.indent > bi => {
                        lines.push(&body[bi..]);
                        self.last_content_line = l.no;
                    }
                    _ => {
                        leading_spaces = leading_spaces.max(l.indent);
                        lines.push("");
                    }
                }
                self.pos = l.next;
                self.line_no += 1;
                continue;
            }
            if block_indent.is_none() && leading_spaces > l.indent {
                return unsupported("all-space line wider than the block's indentation", l.no);
            }
            let bi = *block_indent.get_or_insert(l.indent);
            if l.indent < bi || l.indent <= parent_indent {
                break;
            }
            if body.contains('\t') && l.indent < bi {
                return unsupported("tab in block scalar", l.no);
            }
            lines.push(&body[bi..]);
            self.last_content_line = l.no;
            self.pos = l.next;
            self.line_no += 1;
        }
        // Trailing blank lines belong to chomping, and the cursor must not skip
        // content lines: rewind over blank lines we consumed at the end.
        let trailing = lines.iter().rev().take_while(|l| l.is_empty()).count();
        self.rewind_blank(trailing);
        let content = &lines[..lines.len() - trailing];
        let mut s = String::new();
        if literal {
            for (i, l) in content.iter().enumerate() {
                if i > 0 {
                    s.push('\n');
                }
                s.push_str(l);
            }
        } else {
            // Folded: single breaks between non-indented lines become spaces; empty lines
            // before the first text line are one line break each.
            let mut prev_more_indented = false;
            let mut empties = 0;
            let mut started = false;
            for l in content {
                if l.is_empty() {
                    empties += 1;
                    continue;
                }
                // More indented: starting with white space, a space or a tab.
                let more = l.starts_with([' ', '\t']);
                if !started {
                    for _ in 0..empties {
                        s.push('\n');
                    }
                } else {
                    if empties == 0 && !more && !prev_more_indented {
                        s.push(' ');
                    } else {
                        let n = if more || prev_more_indented {
                            empties + 1
                        } else {
                            empties
                        };
                        for _ in 0..n {
                            s.push('\n');
                        }
                    }
                }
                empties = 0;
                started = true;
                s.push_str(l);
                prev_more_indented = more;
            }
        }
        match chomp {
            '-' => {}
            '+' => {
                if !content.is_empty() {
                    s.push('\n');
                }
                for _ in 0..trailing {
                    s.push('\n');
                }
            }
            _ => {
                if !content.is_empty() {
                    s.push('\n');
                }
            }
        }
        Ok(s)
    }
}

/// Deserializer for the node at the cursor.
struct De<'p, 'a> {
    p: &'p mut Parser<'a>,
    at: At<'a>,
}

impl<'a> De<'_, 'a> {
    fn enter(&mut self, line: u32) -> R<()> {
        self.p.depth += 1;
        if self.p.depth > MAX_DEPTH {
            return unsupported("deep nesting", line);
        }
        Ok(())
    }
}

impl<'de> Deserializer<'de> for De<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
        let at = std::mem::replace(&mut self.at, At::Known(Shape::Null));
        match self.p.shape(at)? {
            Shape::Null => visitor.visit_unit(),
            Shape::EmptyMap => visitor.visit_map(de::value::MapDeserializer::<
                std::iter::Empty<(&str, &str)>,
                Error,
            >::new(std::iter::empty())),
            Shape::EmptySeq => visitor.visit_seq(de::value::SeqDeserializer::<
                std::iter::Empty<&str>,
                Error,
            >::new(std::iter::empty())),
            Shape::Plain(s) => match resolve_plain(s) {
                Plain::Null => visitor.visit_unit(),
                Plain::Bool(b) => visitor.visit_bool(b),
                Plain::I64(n) => visitor.visit_i64(n),
                Plain::U64(n) => visitor.visit_u64(n),
                Plain::F64(f) => visitor.visit_f64(f),
                Plain::Str(s) => visitor.visit_borrowed_str(s),
            },
            Shape::Text(Cow::Borrowed(s)) => visitor.visit_borrowed_str(s),
            Shape::Text(Cow::Owned(s)) => visitor.visit_string(s),
            Shape::Map { indent, first, top } => {
                let line = self.p.line_no;
                self.enter(line)?;
                let v = visitor.visit_map(MapAcc {
                    p: &mut *self.p,
                    indent,
                    first,
                    top,
                    pending: None,
                    read_a_key: false,
                })?;
                self.p.depth -= 1;
                Ok(v)
            }
            Shape::Seq { indent, tracked } => {
                let line = self.p.line_no;
                self.enter(line)?;
                let v = if tracked {
                    let mut acc = SeqAcc {
                        p: &mut *self.p,
                        indent,
                        spans: Some(Vec::new()),
                    };
                    let v = visitor.visit_seq(&mut acc)?;
                    let spans = acc.spans.take();
                    self.p.item_spans = spans;
                    v
                } else {
                    visitor.visit_seq(&mut SeqAcc {
                        p: &mut *self.p,
                        indent,
                        spans: None,
                    })?
                };
                self.p.depth -= 1;
                Ok(v)
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
        let at = std::mem::replace(&mut self.at, At::Known(Shape::Null));
        match self.p.shape(at)? {
            Shape::Null => visitor.visit_none(),
            Shape::Plain(s) if matches!(resolve_plain(s), Plain::Null) => visitor.visit_none(),
            shape => visitor.visit_some(De {
                p: self.p,
                at: At::Known(shape),
            }),
        }
    }

    /// Values the target does not name: skipped by indentation when the text is known good.
    fn deserialize_ignored_any<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
        if let At::AfterKey { indent, rest, .. } = self.at {
            if self.p.skip_ignored {
                self.p.skip_after_key(indent, rest);
                return visitor.visit_unit();
            }
            if self.p.check_lines && self.p.skip_checked(indent, rest) {
                return visitor.visit_unit();
            }
        }
        // Checked, not read: a scalar's type does not matter.
        let at = std::mem::replace(&mut self.at, At::Known(Shape::Null));
        match self.p.shape(at)? {
            shape @ (Shape::Map { .. } | Shape::Seq { .. }) => {
                self.at = At::Known(shape);
                self.deserialize_any(visitor)
            }
            _ => visitor.visit_unit(),
        }
    }

    /// [`LAZY`] asks for the text of a `key: value` entry instead of its value, so a view
    /// can keep a field it rarely reads as text and parse it when asked. In ingest's scan
    /// the entry's lines are checked (or parsed) first, as an ignored value's are.
    ///
    /// [`ATTEMPT`] asks to read the value as one type and, when that fails, as another
    /// from the same place: see [`AttemptSeq`].
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> R<V::Value> {
        if name == ATTEMPT {
            let mark = self.p.mark();
            return visitor.visit_seq(AttemptSeq {
                p: self.p,
                at: Some(self.at),
                mark,
                failed: false,
            });
        }
        if name == LAZY
            && (self.p.skip_ignored || self.p.check_lines)
            && let At::AfterKey {
                indent,
                rest,
                key_at,
                ..
            } = self.at
            && key_at != usize::MAX
        {
            if self.p.skip_ignored {
                self.p.skip_after_key(indent, rest);
            } else if !self.p.skip_checked(indent, rest) {
                serde::de::IgnoredAny::deserialize(De {
                    p: &mut *self.p,
                    at: self.at,
                })?;
            }
            let end = self.p.pos.max(key_at);
            // From the start of the key's line (maybe `- key:`): see `entry_value`.
            return visitor.visit_borrowed_str(&self.p.src[key_at - indent..end]);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        mut self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        let at = std::mem::replace(&mut self.at, At::Known(Shape::Null));
        match self.p.shape(at)? {
            Shape::Plain(s) => visitor.visit_enum(s.into_deserializer()),
            Shape::Text(s) => visitor.visit_enum(s.into_owned().into_deserializer()),
            _ => Err(de::Error::custom("expected a string for an enum")),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

/// Entries of a block mapping whose keys sit at `indent`.
struct MapAcc<'p, 'a> {
    p: &'p mut Parser<'a>,
    indent: usize,
    /// The entry on a `- key: value` line, already read.
    first: Option<(Cow<'a, str>, &'a str, u32)>,
    top: bool,
    /// The current key's rest of line, line number, whether it is a List's `items`, and
    /// the key's byte offset.
    pending: Option<(&'a str, u32, bool, usize)>,
    /// Whether a key of this map was read (or skipped) already.
    read_a_key: bool,
}

impl<'de> MapAccess<'de> for MapAcc<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> R<Option<K::Value>> {
        loop {
            let mut line_start = None;
            let (key, rest, line_no) = match self.first.take() {
                Some(entry) => entry,
                None => {
                    let Some(line) = self.p.peek() else {
                        return Ok(None);
                    };
                    if line.indent != self.indent
                        || is_seq_entry(line.content)
                        || is_doc_marker(&line)
                    {
                        if line.indent > self.indent {
                            return unsupported("unexpected indentation", line.no);
                        }
                        return Ok(None);
                    }
                    check_line(&line)?;
                    let Some((key, rest)) = split_key(line.content, line.no, self.p.skip_ignored)?
                    else {
                        return unsupported("expected a key", line.no);
                    };
                    line_start = Some(self.p.pos);
                    self.p.advance();
                    (key, rest, line.no)
                }
            };
            let first_of_document = self.top && !self.read_a_key;
            self.read_a_key = true;
            if key == "managedFields" {
                // Bookkeeping of who wrote which field: large, and never evidence.
                self.p.skip_after_key(self.indent, rest);
                // Its text may go (see `compact`) when it has a line of its own and another
                // key of the same map follows: the map stays a map (not `null`) and the
                // object ends where it did; and when it is not a document's first key: the
                // document starts where it did.
                if let Some(start) = line_start
                    && !first_of_document
                    && self.p.peek().is_some_and(|l| {
                        l.indent == self.indent && !is_seq_entry(l.content) && !is_doc_marker(&l)
                    })
                {
                    self.p.managed.push(start..self.p.pos);
                }
                continue;
            }
            let key_at = match &key {
                Cow::Borrowed(k) => k.as_ptr() as usize - self.p.src.as_ptr() as usize,
                Cow::Owned(_) => usize::MAX,
            };
            self.pending = Some((rest, line_no, self.top && key == "items", key_at));
            return seed
                .deserialize(de::value::CowStrDeserializer::<Error>::new(key))
                .map(Some);
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> R<V::Value> {
        let (rest, line, objects_list, key_at) = self
            .pending
            .take()
            .ok_or_else(|| Error::Shape("value without a key".into()))?;
        seed.deserialize(De {
            p: &mut *self.p,
            at: At::AfterKey {
                indent: self.indent,
                rest,
                line,
                objects_list,
                key_at,
            },
        })
    }
}

/// Entries `- …` of a block sequence at `indent`; `spans` collects a List's item spans.
struct SeqAcc<'p, 'a> {
    p: &'p mut Parser<'a>,
    indent: usize,
    spans: Option<Vec<ItemPos>>,
}

impl<'de> SeqAccess<'de> for &mut SeqAcc<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> R<Option<T::Value>> {
        let Some(line) = self.p.peek() else {
            return Ok(None);
        };
        if line.indent != self.indent || !is_seq_entry(line.content) {
            if line.indent > self.indent {
                return unsupported("unexpected indentation", line.no);
            }
            return Ok(None);
        }
        let offset = self.p.pos;
        let v = seed.deserialize(De {
            p: &mut *self.p,
            at: At::SeqItem,
        })?;
        if let Some(spans) = &mut self.spans {
            spans.push(ItemPos {
                offset,
                span: Span {
                    start: line.no,
                    end: self.p.last_content_line.max(line.no),
                },
            });
        }
        Ok(Some(v))
    }
}

/// The two tries of an [`ATTEMPT`], as a sequence: the first element is the value read as
/// the first type, or none when that fails (the cursor then goes back to where the value
/// starts); the second is the value read as the fallback type. A failure to read the
/// value as the fallback type is the value's error.
struct AttemptSeq<'p, 'a> {
    p: &'p mut Parser<'a>,
    /// The value's place, until both tries are made.
    at: Option<At<'a>>,
    mark: Mark,
    /// The first try was made and failed.
    failed: bool,
}

impl<'de> SeqAccess<'de> for AttemptSeq<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> R<Option<T::Value>> {
        let Some(at) = self.at.clone() else {
            return Ok(None);
        };
        if self.failed {
            self.at = None;
            return seed
                .deserialize(De {
                    p: &mut *self.p,
                    at,
                })
                .map(Some);
        }
        match seed.deserialize(De {
            p: &mut *self.p,
            at,
        }) {
            Ok(v) => {
                self.at = None;
                Ok(Some(v))
            }
            Err(_) => {
                self.p.rewind(self.mark);
                self.failed = true;
                Ok(None)
            }
        }
    }
}

fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    memchr::memchr(needle, hay)
}

/// White space in YAML: only space and tab (`str::trim` would also take `\u{b}`, `\u{85}`,
/// no-break spaces… which YAML keeps in a scalar).
const BLANK: [char; 2] = [' ', '\t'];

/// `s` without trailing [`BLANK`]s, on bytes: every plain scalar a view reads is trimmed.
fn trim_end_blank(s: &str) -> &str {
    let kept = s
        .as_bytes()
        .iter()
        .rposition(|&c| c != b' ' && c != b'\t')
        .map_or(0, |i| i + 1);
    &s[..kept]
}

/// `---` or `...` at column 0 ends a document.
fn is_doc_marker(line: &Line) -> bool {
    line.indent == 0
        && (line.content == "---"
            || line.content.starts_with("--- ")
            || is_document_end(line.content))
}

/// `...`, alone or followed by blanks (or more, which the caller refuses).
fn is_document_end(content: &str) -> bool {
    content == "..." || content.starts_with("... ") || content.starts_with("...\t")
}

fn is_seq_entry(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

fn check_line(line: &Line) -> R<()> {
    if line.content.starts_with('\t') {
        return unsupported("tab indentation", line.no);
    }
    Ok(())
}

/// Splits `key: rest` / `key:`; `None` when the line is not a mapping entry. `checked`:
/// the text passed ingest (see `Parser::skip_ignored`), whose lines hold no tab or comment.
fn split_key(content: &str, line_no: u32, checked: bool) -> R<Option<(Cow<'_, str>, &str)>> {
    let b = content.as_bytes();
    match b[0] {
        b'"' | b'\'' => {
            // Quoted key: find the closing quote, then `:`.
            let q = b[0];
            let mut i = 1;
            while i < b.len() {
                if b[i] == b'\\' && q == b'"' {
                    i += 2;
                    continue;
                }
                if b[i] == q {
                    if q == b'\'' && b.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    break;
                }
                i += 1;
            }
            if i >= b.len() {
                return Ok(None);
            }
            let after = &content[i + 1..];
            if after == ":" || after.starts_with(": ") {
                let raw = &content[1..i];
                if q == b'"' && raw.contains('\\') {
                    return unsupported("escaped key", line_no);
                }
                let key = if q == b'\'' && raw.contains("''") {
                    Cow::Owned(raw.replace("''", "'"))
                } else {
                    Cow::Borrowed(raw)
                };
                return Ok(Some((key, skip_spaces(&after[1..]))));
            }
            Ok(None)
        }
        b'{' | b'[' | b'&' | b'*' | b'!' | b'?' | b'|' | b'>' | b'%' | b'@' | b'`' => {
            if b[0] == b'?' {
                return unsupported("complex key", line_no);
            }
            Ok(None)
        }
        _ => {
            let Some(i) = key_colon(b) else {
                return Ok(None);
            };
            if i == 0 {
                // `: value` is an empty (null) key: legal YAML, never kubectl's.
                return unsupported("empty key", line_no);
            }
            let key = &content[..i];
            // ` #` and `\t#` start a comment; kubectl writes no tab in a key.
            if (!checked && comment_or_tab(key.as_bytes()))
                || key.starts_with('#')
                || key.ends_with(' ')
            {
                return unsupported("odd key", line_no);
            }
            let rest = skip_spaces(&content[i + 1..]);
            if rest.starts_with('#') {
                return unsupported("trailing comment", line_no);
            }
            Ok(Some((super::yaml::plain_key(key), rest)))
        }
    }
}

/// Decodes a double-quoted escape (text after the backslash): (decoded, bytes used).
fn unescape(s: &str) -> Option<(String, usize)> {
    let c = s.chars().next()?;
    let simple = |ch: char| Some((ch.to_string(), 1));
    match c {
        'n' => simple('\n'),
        't' | '\t' => simple('\t'),
        'r' => simple('\r'),
        '0' => simple('\0'),
        'a' => simple('\u{7}'),
        'b' => simple('\u{8}'),
        'e' => simple('\u{1b}'),
        'f' => simple('\u{c}'),
        'v' => simple('\u{b}'),
        ' ' => simple(' '),
        '"' => simple('"'),
        '/' => simple('/'),
        '\\' => simple('\\'),
        'N' => simple('\u{85}'),
        '_' => simple('\u{a0}'),
        'L' => simple('\u{2028}'),
        'P' => simple('\u{2029}'),
        'x' | 'u' | 'U' => {
            let n = match c {
                'x' => 2,
                'u' => 4,
                _ => 8,
            };
            let hex = s.get(1..1 + n)?;
            let code = u32::from_str_radix(hex, 16).ok()?;
            Some((char::from_u32(code)?.to_string(), 1 + n))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn same_as_general(text: &str) {
        let fast = parse(text).expect("fast path accepts");
        let (general, err) = super::super::yaml::parse(text);
        assert!(err.is_none(), "{err:?}");
        assert_eq!(fast.len(), general.len());
        for (f, g) in fast.iter().zip(&general) {
            assert_eq!(f.value, g.value);
            assert_eq!(f.span.start, g.span.start);
            assert_eq!(
                f.item_spans.iter().map(|s| s.start).collect::<Vec<_>>(),
                g.item_spans.iter().map(|s| s.start).collect::<Vec<_>>()
            );
        }
    }

    /// A fuzz finding's input: when both parsers accept it, they read the same documents.
    fn agrees_when_both_accept(text: &str) {
        if let (Ok(fast), (general, None)) = (parse(text), super::super::yaml::parse(text)) {
            let fast: Vec<_> = fast.into_iter().map(|d| d.value).collect();
            let general: Vec<_> = general.into_iter().map(|d| d.value).collect();
            assert_eq!(fast, general);
        }
    }

    #[test]
    fn kubectl_list() {
        same_as_general(
            "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    labels:\n      app: web\n    name: a\n    managedFields:\n    - manager: kubectl\n      fieldsV1:\n        f:metadata:\n          f:labels:\n            .: {}\n  spec:\n    containers:\n    - image: nginx\n      name: c\n      ports:\n      - containerPort: 80\n        protocol: TCP\n      resources: {}\n  status:\n    phase: Running\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: b\nkind: List\nmetadata:\n  resourceVersion: \"\"\n",
        );
    }

    #[test]
    fn folded_and_quoted_scalars() {
        same_as_general(
            "message: '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are\n  available: 3 No preemption victims found for incoming pod.'\nplain: this is a long plain\n  scalar that wraps\nq: \"a \\\"b\\\" \\u00e9\n  c\"\nesc: \"line1\\nline2\"\nempty: ''\nit's: 'it''s'\nn: null\nb: true\nnum: 3\nver: \"1.10\"\n",
        );
    }

    #[test]
    fn block_scalars() {
        same_as_general(
            "a: |\n  line 1\n    indented\n\n  line 3\nb: |-\n  x\nc: >\n  folded\n  text\n\n  para\nd: |+\n  keep\n\ne: 1\n",
        );
    }

    #[test]
    fn documents_and_comments() {
        same_as_general("# head\n---\nkind: A\n# mid\nmetadata:\n  name: x\n---\nkind: B\n...\n");
    }

    #[test]
    fn unsupported_is_reported() {
        assert!(parse("a: &x 1\nb: *x\n").is_err());
        assert!(parse("a: [1, 2]\n").is_err());
        assert!(parse("a: 1 # c\n").is_err());
        assert!(parse("? complex\n: v\n").is_err());
    }

    /// Found by the yaml_loader fuzz target: a line starting with `: ` is an empty key.
    #[test]
    fn fuzz_regression_empty_key() {
        let text = "data:\n    LOG_LEVE'L:yinfo\n  : info+    QUEUE_HOST: x\n";
        assert!(parse(text).is_err());
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-empty-key.yaml");
        agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
    }

    /// Found by the yaml_loader fuzz target: a block scalar ending the file with a line of
    /// its indentation's spaces and no line break reads with an extra line break in the
    /// general parser (not in the YAML spec): such a file is left to the general parser.
    #[test]
    fn fuzz_regression_trailing_spaces() {
        for text in ["a: |\n  x\n  ", "a: >1\n x\n "] {
            assert!(parse(text).is_err(), "{text:?}");
        }
        for text in [
            "a: |\n  x\n",
            "a: |\n  x\n  \n",
            "a: |\n  x\n ",
            "a: |\n  ",
            "a: b\n   ",
        ] {
            same_as_general(text);
        }
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-trailing-spaces.yaml");
        assert!(parse(std::str::from_utf8(crash).unwrap()).is_err());
    }

    /// Found by the yaml_loader fuzz target: in a folded scalar a line whose text starts
    /// with a tab is more indented (white space is a space or a tab), so the line breaks
    /// around it are kept.
    #[test]
    fn fuzz_regression_folded_tab_line() {
        same_as_general("a: >\n  x\n  \ty\n  z\n");
        same_as_general("a: >1\n x\n \ty\n");
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-folded-tab-line.yaml");
        agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
    }

    /// What a view reads: a few fields, the rest skipped by indentation.
    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Probe {
        name: String,
        #[serde(default)]
        ports: Vec<u16>,
        tail: Option<String>,
    }

    #[test]
    fn skipping_by_indentation_reads_what_a_full_parse_reads() {
        let text = "items:\n- name: a\n  big: |\n    x: 1\n    - not: a list\n\n    tail: inside the block\n  q: 'multi\n    line: not a key'\n  nested:\n  - k: v\n    deeper:\n      tail: nope\n  plain: wraps\n    onto more lines\n  ports:\n  - 80\n  - 443\n  tail: end\n- name: b\n";
        let docs = documents::<serde::de::IgnoredAny>(text).expect("fast path");
        let items = &docs[0].items;
        assert_eq!(items.len(), 2);
        let skipped: Probe = object_at(text, items[0], true).unwrap();
        let full: Value = documents::<Value>(text).unwrap().remove(0).value["items"][0].clone();
        let from_tree = Probe::deserialize(&full).unwrap();
        assert_eq!(skipped, from_tree);
        assert_eq!(skipped.ports, [80, 443]);
        assert_eq!(skipped.tail.as_deref(), Some("end"));
        let b: Probe = object_at(text, items[1], true).unwrap();
        assert_eq!((b.name.as_str(), b.tail), ("b", None));
    }

    /// The header scan checks what it skips line by line; it finds the same headers at the
    /// same places as when it parses what it skips, on text that takes the line checks
    /// (block scalars, quoted and folded scalars, nested lists) and on text that falls
    /// back to parsing (a quoted scalar continued on the next line, a flow mapping).
    #[test]
    fn line_checked_scan_finds_what_a_parsed_scan_finds() {
        use crate::ingest::header::{Header, ItemHeader};
        let texts = [
            "apiVersion: v1\nitems:\n- metadata:\n    annotations:\n      net: |-\n        [{\n          \"ips\": [\"10.0.0.1\"]\n        }]\n    name: a\n    namespace: n\n  spec:\n    containers:\n    - args:\n      - --flag=x\n      image: \"quay.io/a:1\"\n      name: c\n    nodeSelector: {}\n  status:\n    message: 'it''s fine'\n    phase: Running\n- metadata:\n    name: b\n  status:\n    message: 'a long message folded\n      onto the next line'\nkind: PodList\n",
            "kind: Pod\nmetadata:\n  name: c\nspec:\n  nodeSelector: {disk: ssd}\n  tolerations:\n  - key: a\n    operator: Exists\nstatus:\n  phase: Pending\n",
        ];
        for text in texts {
            let checked = scan_with::<Header<ItemHeader>>(text, true);
            let parsed = scan_with::<Header<ItemHeader>>(text, false);
            let (Ok(checked), Ok(parsed)) = (checked, parsed) else {
                // The flow mapping: the line check refuses it, the parse too (the general
                // parser reads the file).
                assert!(text.contains("{disk"), "{text}");
                continue;
            };
            assert_eq!(
                format!(
                    "{:?}",
                    checked
                        .0
                        .iter()
                        .map(|d| (&d.value, d.span, &d.items))
                        .collect::<Vec<_>>()
                ),
                format!(
                    "{:?}",
                    parsed
                        .0
                        .iter()
                        .map(|d| (&d.value, d.span, &d.items))
                        .collect::<Vec<_>>()
                )
            );
            assert_eq!(checked.1, parsed.1);
        }
    }

    /// The bodies ingest keeps for the items of the first document of `text`.
    fn ingested_items(text: &str) -> Vec<crate::ingest::body::Body> {
        let (docs, _) =
            scan::<crate::ingest::header::Header<crate::ingest::header::ItemHeader>>(text)
                .expect("the header scan takes it");
        let text = std::sync::Arc::new(text.to_string());
        docs[0]
            .items
            .iter()
            .map(|&pos| crate::ingest::body::Body::Yaml {
                text: text.clone(),
                pos,
                item: true,
            })
            .collect()
    }

    /// What the line checks let through but the fast path does not read (an escaped quote
    /// in a key, a plain scalar continued with `: `) is read by the general parser, for a
    /// view (`Body`) and for a lazy field, as a full parse of the file reads it.
    #[test]
    fn objects_the_fast_path_cannot_read_are_read_by_the_general_parser() {
        use crate::kube::pod::Pod;
        let text = "apiVersion: v1\nitems:\n- metadata:\n    name: a\n  spec:\n    nodeSelector:\n      \"disk\\\"type\": ssd\n    volumes:\n    - name: v\n      \"odd\\\"key\": 1\n- metadata:\n    name: b\nkind: PodList\n";
        let bodies = ingested_items(text);
        assert!(parse(text).is_err(), "the fast path does not read it");
        let (general, err) = super::super::yaml::parse(text);
        assert!(err.is_none(), "{err:?}");
        let pod: Pod = bodies[0].deserialize().expect("read by the general parser");
        let from_tree = Pod::deserialize(&general[0].value["items"][0]).unwrap();
        assert_eq!(format!("{pod:?}"), format!("{from_tree:?}"));
        assert_eq!(
            pod.spec.node_selector.get("disk\"type").map(String::as_str),
            Some("ssd")
        );
        assert_eq!(pod.spec.volumes.get().len(), 1);
    }

    /// Lines that do not nest as block collections do (a key under a plain scalar, a
    /// scalar among keys): the line checks refuse the value, parsing it refuses the file,
    /// and the general parser reports the error at its line.
    #[test]
    fn values_that_do_not_nest_are_parsed() {
        use crate::ingest::header::{Header, ItemHeader};
        for text in [
            "items:\n- metadata:\n    name: a\n  spec:\n    nodeName: n1\n      zone: b\n- metadata:\n    name: b\nkind: PodList\n",
            "kind: Workload\nmetadata:\n  name: w\nstatus:\n  admission:\n    <...>\n  conditions: []\n  <...>\n",
            "kind: Workload\nmetadata:\n  name: w\nstatus:\n  ...\n  conditions: []\n",
        ] {
            assert!(
                scan_with::<Header<ItemHeader>>(text, true).is_err(),
                "{text}"
            );
            assert!(super::super::yaml::parse(text).1.is_some(), "{text}");
        }
    }

    /// A value that passes the line checks but does not parse (an unknown escape): ingest
    /// takes the file, and the view of that object reports the YAML error at its line.
    #[test]
    fn a_value_that_does_not_parse_is_reported_when_read() {
        use crate::kube::pod::Pod;
        let text = "items:\n- metadata:\n    name: a\n  spec:\n    nodeName: \"n\\q1\"\n- metadata:\n    name: b\nkind: PodList\n";
        let bodies = ingested_items(text);
        assert!(super::super::yaml::parse(text).1.is_some(), "not YAML");
        let err = bodies[0].deserialize::<Pod>().unwrap_err();
        assert!(err.contains("line 5"), "{err}");
        let b: Pod = bodies[1].deserialize().expect("the other object reads");
        assert_eq!(b.metadata.name, "b");
    }

    /// A lazy field keeps its place in the file (or a copy of its text) and reads, when
    /// asked, what a full parse reads, also as the first key of a list item (`- env:`).
    #[test]
    fn lazy_fields_read_what_a_full_parse_reads() {
        use crate::kube::pod::Pod;
        let text = "kind: Pod\nspec:\n  containers:\n  - env:\n    - name: A\n      value: x\n    name: c\n    readinessProbe:\n      httpGet:\n        port: 80\n  - name: d\n    env: []\n  volumes:\n  - name: v\n    emptyDir: {}\n";
        let doc = &documents::<serde::de::IgnoredAny>(text).unwrap()[0];
        let pos = ItemPos {
            offset: doc.offset,
            span: doc.span,
        };
        let copied: Pod = object_at(text, pos, false).unwrap();
        let shared: Pod = object_in(&std::sync::Arc::new(text.to_string()), pos, false).unwrap();
        let tree: Value = documents::<Value>(text).unwrap().remove(0).value;
        let full = Pod::deserialize(&tree).unwrap();
        assert_eq!(copied.spec.containers[0].env.get().len(), 1);
        assert_eq!(shared.spec.volumes.get().len(), 1);
        assert_eq!(format!("{copied:?}"), format!("{full:?}"));
        assert_eq!(format!("{shared:?}"), format!("{full:?}"));
    }

    /// Found by the yaml_loader fuzz target: a lone `\r` breaks a line in YAML (the general
    /// parser folds it to a space); the fast path kept it inside the scalar.
    #[test]
    fn fuzz_regression_bare_cr() {
        assert!(parse("a: one\rtwo\n").is_err());
        assert!(parse("a: one\r\nb: two\r\n").is_ok());
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-bare-cr.yaml");
        agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
    }

    /// Found by the yaml_loader fuzz target: a `---` with nothing after it is an empty
    /// (null) document to the general parser; the fast path counted no document.
    #[test]
    fn fuzz_regression_lone_separator() {
        for text in [
            "---\n",
            "---",
            "# c\n---\n",
            "---\n---\n",
            "a: 1\n---\n",
            "---\na: 1\n---\n",
            "...\n",
            "---\n...\n",
            "a: 1\n...\n---\n",
            "a: 1\n...\n",
            "---\n# c",
            "--- \n",
            "---\n  \n# x\n\n",
            "a: 1\n---\n...\n",
            "---\n...\n---\n",
            "# only\n",
            "",
        ] {
            same_as_general(text);
        }
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-lone-separator.yaml");
        same_as_general(std::str::from_utf8(crash).unwrap());
    }

    /// The kept text reads as the original does (managedFields are dropped either way),
    /// line for line, and offsets outside the blocks move with it.
    #[test]
    fn compacted_text_reads_the_same() {
        let text = "apiVersion: v1\nitems:\n- kind: Pod\n  metadata:\n    annotations:\n      keep: |+\n        x\n\n    managedFields:\n    - manager: a\n      fieldsV1:\n        f:x: {}\n\n    # c\n    name: a\n  spec:\n    managedFields:\n      x: 1\n  status:\n    phase: Running\n    managedFields: []\n- managedFields:\n  - m: 1\n  kind: Pod\n  metadata:\n    name: b\nkind: List\n";
        let (docs, managed) = scan::<Value>(text).unwrap();
        // Only `metadata`'s: `spec`'s is its only key (`spec` must stay a map), `status`'s
        // its last (the object must end where it did), and the last one follows `- `.
        assert_eq!(managed.len(), 1, "blocks followed by a key: {managed:?}");
        let (kept, shifts) = compact(text, &managed);
        assert!(kept.len() < text.len());
        assert_eq!(kept.lines().count(), text.lines().count());
        let (again, _) = scan::<Value>(&kept).unwrap();
        assert_eq!(docs.len(), again.len());
        for (a, b) in docs.iter().zip(&again) {
            assert_eq!(a.value, b.value);
            assert_eq!(a.span, b.span);
            assert_eq!(shifts.map(a.offset), b.offset);
            for (x, y) in a.items.iter().zip(&b.items) {
                assert_eq!(shifts.map(x.offset), y.offset);
                assert_eq!(x.span, y.span);
            }
        }
        let (general, err) = super::super::yaml::parse(&kept);
        assert!(err.is_none());
        assert_eq!(general[0].value, again[0].value);
        assert!(kept.contains("    # managedFields not kept by kdiag\n"));
        assert_eq!(again[0].value["items"][0]["spec"], serde_json::json!({}));
    }

    /// Found by the yaml_loader fuzz target: a document whose first key is `managedFields`
    /// started at its next key once the block was taken out of the kept text; such a block
    /// is kept.
    #[test]
    fn fuzz_regression_managed_fields_first_in_document() {
        let crash = include_bytes!(
            "../../../fuzz/regressions/yaml_loader-managed-fields-first-in-document.yaml"
        );
        let crash = std::str::from_utf8(crash).unwrap();
        for text in [
            "managedFields:\n- a: 1\nb: 2\n",
            "# c\nmanagedFields:\n- a: 1\nb: 2\n",
            "---\nmanagedFields:\n- a: 1\nb: 2\n",
            "a: 0\nmanagedFields:\n- a: 1\nb: 2\n",
            crash,
        ] {
            let (docs, managed) = scan::<Value>(text).unwrap();
            let (kept, shifts) = compact(text, &managed);
            let again = documents::<Value>(&kept).unwrap();
            assert_eq!(docs.len(), again.len(), "{text:?}");
            for (a, b) in docs.iter().zip(&again) {
                assert_eq!(a.value, b.value, "{text:?}");
                assert_eq!(
                    (a.span, shifts.map(a.offset)),
                    (b.span, b.offset),
                    "{text:?}"
                );
            }
        }
        // Not the first key: taken out as before.
        assert_eq!(
            scan::<Value>("a: 0\nmanagedFields:\n- a: 1\nb: 2\n")
                .unwrap()
                .1
                .len(),
            1
        );
    }

    /// Found by the yaml_loader fuzz target: a map whose only key is `managedFields` is
    /// `{}`; with the block taken out of the kept text it read as `null`.
    #[test]
    fn fuzz_regression_only_managed_fields() {
        let crash =
            include_bytes!("../../../fuzz/regressions/yaml_loader-only-managed-fields.yaml");
        let text = std::str::from_utf8(crash).unwrap();
        let (docs, managed) = scan::<Value>(text).unwrap();
        let (kept, _) = compact(text, &managed);
        let again = documents::<Value>(&kept).unwrap();
        assert_eq!(docs[0].value, again[0].value);
    }

    /// Found by the yaml_loader fuzz target: in a block scalar, an all-space line with more
    /// spaces than the indentation keeps the extra spaces as content; the fast path read
    /// it as an empty line.
    #[test]
    fn fuzz_regression_block_scalar_space_line() {
        for text in [
            "a: |-\n  x\n    \n",
            "a: |-\n  x\n    ",
            "a: |\n  x\n    \n  y\n",
            "a: >\n  x\n     \n  y\n",
            "a: |+\n  x\n   \n\nb: 1\n",
            "a: |\n  \n  x\n",
        ] {
            same_as_general(text);
        }
        assert!(
            parse("a: |\n      \n  x\n").is_err(),
            "leading all-space line too wide"
        );
        let crash =
            include_bytes!("../../../fuzz/regressions/yaml_loader-block-scalar-space-line.yaml");
        agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
    }

    /// Found by the yaml_loader fuzz target: in a folded block scalar, an empty line before
    /// a more indented first line is one line break; the fast path gave two.
    #[test]
    fn fuzz_regression_folded_leading_empty_line() {
        for text in [
            "a: >1\n\n    b: v1\n",
            "a: >2\n\n    more\n  text\n",
            "a: >\n\n\n  text\n   more\n",
            "a: >-\n\n  text\n",
            "a: |2\n\n    more\n",
        ] {
            same_as_general(text);
        }
        let crash =
            include_bytes!("../../../fuzz/regressions/yaml_loader-folded-leading-empty-line.yaml");
        agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
    }

    /// Found by the yaml_loader fuzz target: `\t#` starts a comment as ` #` does; the fast
    /// path read the rest of the line as part of a key.
    #[test]
    fn fuzz_regression_tab_comment() {
        assert!(parse("a\t#x: 1\n").is_err());
        assert!(parse("a: one\n  two\t#c\n").is_err());
        same_as_general("a: 'b'\nc: d\n");
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-tab-comment.yaml");
        agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
    }

    /// Found by the yaml_loader fuzz target: a comment after a value on the line of the
    /// key that ingest skipped (`message: Can #dmit`) passed the line check, and a view
    /// reading the checked text, which does not look for comments, kept it in the value.
    /// Now the line is refused as the lines below it are, and the file is the general
    /// parser's.
    #[test]
    fn fuzz_regression_comment_after_skipped_value() {
        use crate::ingest::content::{FileRead, read};
        use crate::ingest::header::{Header, ItemHeader};
        use crate::kube::pod::Pod;
        let crash = include_bytes!(
            "../../../fuzz/regressions/yaml_loader-comment-after-skipped-value.yaml"
        );
        let crash = std::str::from_utf8(crash).unwrap();
        for text in [
            "kind: X\nmetadata:\n  name: a\nstatus:\n  message: Can #dmit new\n",
            "kind: X\nmetadata:\n  name: a\nstatus:\n  conditions:\n  - message: Can #dmit new\n    type: Active\n",
            "kind: X\nmetadata:\n  name: a\nspec:\n  volumes: x\t#y\n",
            crash,
        ] {
            // The header scan refuses the file (the general parser reads it) …
            assert!(documents::<Header<ItemHeader>>(text).is_err(), "{text:?}");
            // … so what ingest keeps reads, as a view, as the general parser's tree does.
            let FileRead::Parsed { extracted, .. } = read("ns/x.yaml", text.into(), true) else {
                panic!("not parsed: {text:?}");
            };
            let (general, _) = super::super::yaml::parse(text);
            // (first line, tree) of every object the general parser read.
            let trees: Vec<(u32, &Value)> = general
                .iter()
                .flat_map(|d| match d.value.get("items").and_then(Value::as_array) {
                    Some(items) => d.item_spans.iter().map(|s| s.start).zip(items).collect(),
                    None => vec![(d.span.start, &d.value)],
                })
                .collect();
            assert!(!extracted.objects.is_empty(), "{text:?}");
            for o in &extracted.objects {
                let (_, tree) = trees
                    .iter()
                    .find(|(start, _)| *start == o.span.start)
                    .expect("the object's tree");
                let from_text = format!("{:?}", o.body.deserialize::<Pod>().map_err(|_| ()));
                let from_tree = format!("{:?}", Pod::deserialize(*tree).map_err(|_| ()));
                assert_eq!(from_text, from_tree, "{text:?}");
            }
        }
    }

    /// Found by the yaml_loader fuzz target (after the tab fix dropped the check): `key :`
    /// is the key `key`; the fast path kept the space.
    #[test]
    fn fuzz_regression_key_trailing_space() {
        assert!(parse("a : 1\n").is_err());
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-key-trailing-space.yaml");
        agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
    }

    /// Found by the yaml_loader fuzz target: a document (or a value on its own line) of
    /// `[]` is an empty list; the fast path read the string "[]".
    #[test]
    fn fuzz_regression_flow_document() {
        for text in ["[]", "[]\n", "{}\n", "a:\n  []\n", "a:\n  {}\nb: 1\n"] {
            same_as_general(text);
        }
        for text in [
            "]\n",
            "a:\n  [1]\n",
            "a:\n  }x\n",
            ", x\n",
            "|\n  x\n",
            "a:\n  >\n   x\n",
        ] {
            assert!(parse(text).is_err(), "{text:?}");
        }
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-flow-document.yaml");
        same_as_general(std::str::from_utf8(crash).unwrap());
    }

    /// Found by the yaml_loader fuzz target: in `- #a: b` the `#` starts a comment (the item
    /// is null); the fast path read a key `#a`.
    #[test]
    fn fuzz_regression_dash_comment_key() {
        assert!(parse("items:\n- #a: b\n").is_err());
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-dash-comment-key.yaml");
        agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
    }

    /// Found by the yaml_loader fuzz target: `...` followed by blanks ends a document too
    /// (the fast path read it as a scalar document).
    #[test]
    fn fuzz_regression_document_end_trailing_space() {
        let crash = include_bytes!(
            "../../../fuzz/regressions/yaml_loader-document-end-trailing-space.yaml"
        );
        let text = std::str::from_utf8(crash).unwrap();
        assert_eq!(parse(text).unwrap().len(), 0);
        agrees_when_both_accept(text);
        agrees_when_both_accept("a: 1\n...  \nb: 2\n");
        assert!(
            parse("a: 1\n... # end\n").is_err(),
            "comment after ...: general parser"
        );
    }

    /// Found by the yaml_loader fuzz target: the escape `\0` is a NUL character, kept;
    /// the fast path used NUL to mark an escaped line break and dropped every NUL.
    #[test]
    fn fuzz_regression_nul_escape() {
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-nul-escape.yaml");
        same_as_general(std::str::from_utf8(crash).unwrap());
        for text in [
            "a: \"x\\0y\"\n",
            "a: \"x\\0\n  y\"\n",
            "a: \"x\\\n  y\\0\"\n",
        ] {
            same_as_general(text);
        }
        assert_eq!(parse("a: \"x\\0y\"\n").unwrap()[0].value["a"], "x\0y");
    }

    /// Found by the yaml_loader fuzz target: `---` marks a document only at column 0; an
    /// indented one is a plain scalar (the fast path read a separator and a null document).
    #[test]
    fn fuzz_regression_indented_separator() {
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-indented-separator.yaml");
        let text = std::str::from_utf8(crash).unwrap();
        assert!(parse(text).is_err(), "the general parser reads it");
        agrees_when_both_accept(text);
        agrees_when_both_accept("  ...\n");
    }

    /// Found by the yaml_loader fuzz target: an item written as a bare `-` starts at the
    /// dash for the fast path and at its first key for the general parser; both see the
    /// same items.
    #[test]
    fn fuzz_regression_bare_dash_item() {
        use crate::ingest::header::{Header, ItemHeader};
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-bare-dash-item.yaml");
        let text = std::str::from_utf8(crash).unwrap();
        let (general, err) = super::super::yaml::parse(text);
        if let (Ok(headers), None) = (documents::<Header<ItemHeader>>(text), err) {
            for (h, g) in headers.iter().zip(&general) {
                assert_eq!(h.items.len(), g.item_spans.len());
                for (i, s) in h.items.iter().zip(&g.item_spans) {
                    assert!(i.span.start <= s.start);
                }
            }
        }
    }

    /// Found by the yaml_loader fuzz target when it began comparing the header scan with the
    /// general parser: a document that is a lone `-` and a repeated top-level key. Both read
    /// the same identity starting at the same line (the general parser's span may end a line
    /// later, and a tree counts a repeated key once); the target compares just those.
    #[test]
    fn fuzz_regression_header_scan_against_general() {
        use crate::ingest::header::{Header, ItemHeader};
        for crash in [
            &include_bytes!("../../../fuzz/regressions/yaml_loader-lone-dash-document.yaml")[..],
            &include_bytes!("../../../fuzz/regressions/yaml_loader-repeated-key.yaml")[..],
        ] {
            let text = std::str::from_utf8(crash).unwrap();
            let headers = documents::<Header<ItemHeader>>(text).expect("header scan");
            let (general, err) = super::super::yaml::parse(text);
            assert!(err.is_none(), "{err:?}");
            for (h, g) in headers.iter().zip(&general) {
                let tree = Header::<ItemHeader>::deserialize(&g.value).unwrap();
                assert_eq!(
                    (&h.value.kind, &h.value.api_version),
                    (&tree.kind, &tree.api_version)
                );
                assert_eq!(h.span.start, g.span.start);
            }
        }
    }

    /// Found by the yaml_loader fuzz target: a trailing vertical tab is part of a YAML
    /// scalar (only space and tab are white space); the fast path trimmed it.
    #[test]
    fn fuzz_regression_vertical_tab() {
        for text in [
            "a: b\u{b}\n",
            "a: b\u{b}",
            "a: 'b'\u{85}\n",
            "a: b \u{a0}\n",
            "a: b\n  c\u{b}\n",
        ] {
            if parse(text).is_ok() {
                same_as_general(text);
            }
        }
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-vertical-tab.yaml");
        same_as_general(std::str::from_utf8(crash).unwrap());
    }

    /// Found by the yaml_loader fuzz target: in `- #text` the `#` starts a comment (the
    /// item is null); the fast path read it as the string `#text`.
    #[test]
    fn fuzz_regression_dash_comment() {
        assert!(parse("finalizers:\n- #kueue.x-k8s.io/resource-in-use\n").is_err());
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-dash-comment.yaml");
        agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
    }

    /// Found by the yaml_loader fuzz target: a plain key is typed like any plain scalar
    /// (`NULL:` is the key `null`, as the general parser and JSON have it).
    #[test]
    fn fuzz_regression_null_key() {
        let docs = parse("NULL: a\n0x10: b\nTrue: c\nplain: d\n").unwrap();
        let keys: Vec<&String> = docs[0].value.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["16", "null", "plain", "true"]);
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-null-key.yaml");
        let text = std::str::from_utf8(crash).unwrap();
        let (general, err) = super::super::yaml::parse(text);
        assert!(err.is_none());
        assert_eq!(parse(text).unwrap()[0].value, general[0].value);
    }

    /// Found by the yaml_loader fuzz target: `key\t: v` is the key `key` (trailing white
    /// space is not part of a plain scalar); the fast path kept the tab.
    #[test]
    fn fuzz_regression_key_trailing_tab() {
        assert!(parse("status:\n  allocatable\t:\n    cpu: 1\n").is_err());
        let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-key-trailing-tab.yaml");
        agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
    }

    #[test]
    fn managed_fields_skipped() {
        let docs = parse("metadata:\n  managedFields:\n  - a: 1\n    b:\n      c: {}\n  name: x\n")
            .unwrap();
        assert_eq!(docs[0].value, json!({"metadata": {"name": "x"}}));
    }
}

//! What the format parsers hand to object extraction: documents with line spans.

use serde_json::Value;

/// 1-based, inclusive line range inside a file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

/// One top-level document (YAML document or JSON value of a stream).
#[derive(Debug, Clone)]
pub struct ParsedDoc {
    pub value: Value,
    pub span: Span,
    /// Spans of the items when the document is a sequence or has a top-level `items`
    /// list: the objects of a `List`, in order.
    pub item_spans: Vec<Span>,
    /// Keys given twice in one mapping (the tree keeps the last value): only the general
    /// YAML parser reports them; ingest says so for the keys that name an object.
    pub repeated: Vec<RepeatedKey>,
}

/// A key given again in a mapping of a document: where, and its path from the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepeatedKey {
    pub line: u32,
    pub path: Vec<Step>,
}

/// One step of a path into a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Why a file (or the rest of it) could not be parsed.
#[derive(Debug, Clone)]
pub struct ParseError {
    pub line: Option<u32>,
    pub message: String,
}

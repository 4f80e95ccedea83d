//! YAML documents → `serde_json::Value` trees with line spans.
//!
//! Built on `saphyr-parser` events (it reports positions, unlike the archived
//! `serde_yaml`). We build our own tree so we can (a) remember the line range of every
//! document and of every item of a top-level `items:` list, (b) skip `managedFields`
//! without materializing it, and (c) bound alias expansion and nesting so hostile input
//! (billion laughs, absurd nesting) becomes a problem instead of a hang. Merge keys
//! (`<<: *base`) are applied as kubectl's YAML reader (go-yaml) applies them, and keys
//! given twice are reported with the document.

use super::redaction::{self, PLACEHOLDER};
use super::spans::{ParseError, ParsedDoc, RepeatedKey, Span, Step};
use saphyr_parser::{Event, Parser, ScalarStyle};
use serde_json::{Map, Number, Value};
use std::collections::HashMap;

/// Deepest nesting we accept; real Kubernetes objects stay far below this.
const MAX_DEPTH: usize = 200;
/// Nodes that alias expansion may add per file before we call it an alias bomb.
const MAX_ALIAS_NODES: usize = 100_000;
/// Bytes of text (keys and scalars) that alias expansion may copy per file: a few
/// aliases of one long scalar copy as much as a billion laughs does with few nodes.
const MAX_ALIAS_BYTES: usize = 16 << 20;

/// What alias expansion has copied so far in a file: nodes and bytes of text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Expanded {
    pub nodes: usize,
    pub bytes: usize,
}

impl Expanded {
    /// What copying `value` once costs.
    fn of(value: &Value) -> Expanded {
        let mut cost = Expanded::default();
        cost.add(value);
        cost
    }

    fn add(&mut self, value: &Value) {
        self.nodes += 1;
        match value {
            Value::Array(a) => a.iter().for_each(|v| self.add(v)),
            Value::Object(m) => m.iter().for_each(|(k, v)| {
                self.bytes += k.len();
                self.add(v);
            }),
            Value::String(s) => self.bytes += s.len(),
            _ => self.bytes += 8,
        }
    }
}

/// One open collection while building the tree.
enum Frame {
    Seq {
        items: Vec<Value>,
        anchor: usize,
        start_line: u32,
        /// Line spans of the items, kept only for the list whose items are objects.
        item_spans: Option<Vec<Span>>,
    },
    Map {
        map: Map<String, Value>,
        anchor: usize,
        start_line: u32,
        pending_key: Option<String>,
        /// Line of the pending key.
        key_line: u32,
        /// The pending key is the merge key `<<`.
        merging: bool,
        /// Mappings merged in (`<<`), in order: applied when the mapping ends.
        merges: Vec<Map<String, Value>>,
    },
}

/// Parses every document of `text`. A syntax error ends the stream: the documents
/// completed before it are returned together with the error.
pub fn parse(text: &str) -> (Vec<ParsedDoc>, Option<ParseError>) {
    parse_spending(text, &mut Expanded::default())
}

/// [`parse`] of one piece of a file read in pieces: alias expansion counts on from
/// `spent` (what the file's earlier pieces expanded), so the cap holds per file.
pub fn parse_spending(text: &str, spent: &mut Expanded) -> (Vec<ParsedDoc>, Option<ParseError>) {
    let mut b = Builder {
        expanded: *spent,
        ..Builder::default()
    };
    let start = *spent;
    let out = parse_into(text, &mut b);
    *spent = b.expanded;
    // Flow content at column 0, as PyYAML reads it (see `flow_indent`).
    if let Some(err) = &out.1
        && err.message.starts_with("invalid YAML: invalid indentation")
        && let Some(indented) = super::flow_indent::indent_flow_lines(text)
    {
        let mut again = Builder {
            expanded: start,
            ..Builder::default()
        };
        let retry = parse_into(&indented, &mut again);
        if retry.1.is_none() {
            *spent = again.expanded;
            return retry;
        }
    }
    out
}

fn parse_into(text: &str, b: &mut Builder) -> (Vec<ParsedDoc>, Option<ParseError>) {
    // troubleshoot's redaction placeholder reads as an alias: parse it as text that starts
    // like no indicator, and put it back in each scalar (see `redaction`).
    let masked;
    let text = if memchr::memmem::find(text.as_bytes(), PLACEHOLDER.as_bytes()).is_some()
        && !text.contains(MASK)
    {
        masked = text.replace(PLACEHOLDER, MASKED);
        b.masked = true;
        masked.as_str()
    } else {
        text
    };
    let mut parser = Parser::new_from_str(text);
    loop {
        match parser.next_event() {
            None => break,
            Some(Ok((event, span))) => {
                let line = span.start.line() as u32;
                let end_line = span.end.line() as u32;
                if let Err(message) = b.event(event, line, end_line) {
                    b.salvage();
                    return (
                        std::mem::take(&mut b.docs),
                        Some(ParseError {
                            line: Some(line),
                            message,
                        }),
                    );
                }
            }
            Some(Err(e)) => {
                let line = e.marker().line() as u32;
                b.salvage();
                return (
                    std::mem::take(&mut b.docs),
                    Some(ParseError {
                        line: Some(line.max(1)),
                        message: format!("invalid YAML: {}", e.info()),
                    }),
                );
            }
        }
    }
    (std::mem::take(&mut b.docs), None)
}

#[derive(Default)]
struct Builder {
    docs: Vec<ParsedDoc>,
    stack: Vec<Frame>,
    anchors: HashMap<usize, (Value, Expanded)>,
    expanded: Expanded,
    doc_start: u32,
    last_line: u32,
    /// >0 while inside a subtree we drop (`managedFields`): counts open collections.
    skipping: usize,
    /// The next value belongs to a key we drop.
    skip_next: bool,
    /// Item spans of the current document's objects list, once it has closed.
    doc_item_spans: Vec<Span>,
    /// The text was parsed with [`PLACEHOLDER`]s as [`MASKED`].
    masked: bool,
    /// Keys given twice in the current document.
    repeated: Vec<RepeatedKey>,
}

/// A character no indicator is, and that the text did not hold: what a [`PLACEHOLDER`]
/// starts with while the general parser reads it.
const MASK: char = '\u{e000}';
/// [`PLACEHOLDER`] with its first `*` as [`MASK`].
const MASKED: &str = "\u{e000}**HIDDEN***";

impl Builder {
    fn event(&mut self, event: Event<'_>, line: u32, end_line: u32) -> Result<(), String> {
        if self.skipping > 0 {
            match event {
                Event::SequenceStart(..) | Event::MappingStart(..) => self.skipping += 1,
                Event::SequenceEnd | Event::MappingEnd => {
                    self.skipping -= 1;
                    if self.skipping == 0 {
                        self.last_line = end_line;
                    }
                }
                _ => {}
            }
            return Ok(());
        }
        match event {
            Event::StreamStart | Event::StreamEnd | Event::Nothing => {}
            Event::DocumentStart(_) => {
                self.doc_start = line;
                self.anchors.clear();
                self.repeated.clear();
            }
            Event::DocumentEnd => {}
            Event::Alias(_) if self.take_skip() => {}
            Event::Alias(id) => {
                // The cost is counted before the value is copied.
                let cost = self
                    .anchors
                    .get(&id)
                    .map(|(_, cost)| *cost)
                    .ok_or_else(|| format!("invalid YAML: unknown alias (anchor #{id})"))?;
                self.expanded.nodes += cost.nodes;
                self.expanded.bytes += cost.bytes;
                if self.expanded.nodes > MAX_ALIAS_NODES {
                    return Err(format!(
                        "YAML alias expansion exceeds {MAX_ALIAS_NODES} nodes (alias bomb?); file not loaded"
                    ));
                }
                if self.expanded.bytes > MAX_ALIAS_BYTES {
                    return Err(format!(
                        "YAML alias expansion copies more than {} MiB (alias bomb?); file not loaded",
                        MAX_ALIAS_BYTES >> 20
                    ));
                }
                let value = self.anchors[&id].0.clone();
                self.push_value(value, line, end_line, 0)?;
            }
            Event::Scalar(..) if self.take_skip() => {}
            Event::Scalar(text, style, anchor, tag) => {
                let text = if self.masked && text.contains(MASK) {
                    if style == ScalarStyle::Plain && text.starts_with(MASKED) {
                        redaction::note();
                    }
                    std::borrow::Cow::Owned(text.replace(MASKED, PLACEHOLDER))
                } else {
                    text
                };
                // The merge key is a plain `<<` (or one tagged `!!merge`), not a quoted one.
                let merge_key = text == "<<"
                    && match &tag {
                        Some(t) => t.suffix == "merge",
                        None => style == ScalarStyle::Plain,
                    };
                let is_str_tag = tag.as_ref().is_some_and(|t| t.suffix == "str");
                let value = if style == ScalarStyle::Plain && !is_str_tag {
                    plain_scalar(&text)
                } else {
                    Value::String(text.into_owned())
                };
                // A scalar in key position becomes the pending key.
                if let Some(Frame::Map {
                    pending_key,
                    key_line,
                    merging,
                    ..
                }) = self.stack.last_mut()
                    && pending_key.is_none()
                {
                    *merging = merge_key;
                    let key = key_text(value);
                    if key == "managedFields" {
                        // Never needed by a rule and often half of the bytes: drop it.
                        self.skip_next = true;
                        return Ok(());
                    }
                    *pending_key = Some(key);
                    *key_line = line;
                    return Ok(());
                }
                self.push_value(value, line, end_line, anchor)?;
            }
            Event::SequenceStart(anchor, _) => {
                if self.take_skip() {
                    self.skipping = 1;
                    return Ok(());
                }
                self.check_depth()?;
                let objects_list = self.is_items_position();
                self.stack.push(Frame::Seq {
                    items: Vec::new(),
                    anchor,
                    start_line: line,
                    item_spans: objects_list.then(Vec::new),
                });
            }
            Event::MappingStart(anchor, _) => {
                if self.take_skip() {
                    self.skipping = 1;
                    return Ok(());
                }
                self.check_depth()?;
                self.stack.push(Frame::Map {
                    map: Map::new(),
                    anchor,
                    start_line: line,
                    pending_key: None,
                    key_line: line,
                    merging: false,
                    merges: Vec::new(),
                });
            }
            Event::SequenceEnd => {
                if let Some(Frame::Seq {
                    items,
                    anchor,
                    start_line,
                    item_spans,
                }) = self.stack.pop()
                {
                    let is_top = self.stack.is_empty();
                    if let Some(spans) = item_spans {
                        self.doc_item_spans = spans;
                    }
                    self.finish(Value::Array(items), anchor, start_line, end_line, is_top)?;
                }
            }
            Event::MappingEnd => {
                if let Some(Frame::Map {
                    mut map,
                    anchor,
                    start_line,
                    merges,
                    ..
                }) = self.stack.pop()
                {
                    // Keys of the mapping itself win over merged ones, and earlier merged
                    // mappings over later ones.
                    for merged in merges {
                        for (k, v) in merged {
                            map.entry(k).or_insert(v);
                        }
                    }
                    let is_top = self.stack.is_empty();
                    self.finish(Value::Object(map), anchor, start_line, end_line, is_top)?;
                }
            }
        }
        self.last_line = self.last_line.max(end_line);
        Ok(())
    }

    fn check_depth(&self) -> Result<(), String> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(format!(
                "nesting deeper than {MAX_DEPTH} levels; document not loaded"
            ));
        }
        Ok(())
    }

    /// True when the collection about to open is the document's top-level sequence or
    /// the `items:` of a top-level mapping: the places where a list holds objects.
    fn is_items_position(&self) -> bool {
        match self.stack.as_slice() {
            [] => true,
            [Frame::Map { pending_key, .. }] => pending_key.as_deref() == Some("items"),
            _ => false,
        }
    }

    fn take_skip(&mut self) -> bool {
        std::mem::take(&mut self.skip_next)
    }

    fn finish(
        &mut self,
        value: Value,
        anchor: usize,
        start_line: u32,
        end_line: u32,
        is_top: bool,
    ) -> Result<(), String> {
        if anchor != 0 {
            self.anchors
                .insert(anchor, (value.clone(), Expanded::of(&value)));
        }
        if is_top {
            // The object's first line, not the `---` before it.
            let start = start_line.max(1);
            self.docs.push(ParsedDoc {
                value,
                span: Span {
                    start,
                    end: end_line.max(start),
                },
                item_spans: std::mem::take(&mut self.doc_item_spans),
                repeated: std::mem::take(&mut self.repeated),
            });
            return Ok(());
        }
        // Record where this child sat if the parent is the objects list.
        if let Some(Frame::Seq {
            item_spans: Some(spans),
            ..
        }) = self.stack.last_mut()
        {
            spans.push(Span {
                start: start_line,
                end: end_line.max(start_line),
            });
        }
        self.attach(value)
    }

    fn push_value(
        &mut self,
        value: Value,
        line: u32,
        end_line: u32,
        anchor: usize,
    ) -> Result<(), String> {
        if anchor != 0 {
            self.anchors
                .insert(anchor, (value.clone(), Expanded::of(&value)));
        }
        if self.stack.is_empty() {
            // A bare scalar document.
            self.docs.push(ParsedDoc {
                value,
                span: Span {
                    start: line.max(1),
                    end: end_line.max(line.max(1)),
                },
                item_spans: Vec::new(),
                repeated: std::mem::take(&mut self.repeated),
            });
            return Ok(());
        }
        if let Some(Frame::Seq {
            item_spans: Some(spans),
            ..
        }) = self.stack.last_mut()
        {
            spans.push(Span {
                start: line,
                end: end_line.max(line),
            });
        }
        self.attach(value)
    }

    fn attach(&mut self, value: Value) -> Result<(), String> {
        match self.stack.last_mut() {
            Some(Frame::Seq { items, .. }) => items.push(value),
            Some(Frame::Map {
                map,
                pending_key,
                key_line,
                merging,
                merges,
                ..
            }) => match (pending_key.take(), std::mem::take(merging)) {
                (Some(_), true) => merge_into(merges, value)?,
                (Some(key), false) => {
                    if map.contains_key(&key) {
                        let line = *key_line;
                        let mut path = self.path();
                        path.push(Step::Key(key.clone()));
                        self.repeated.push(RepeatedKey { line, path });
                        if let Some(Frame::Map { map, .. }) = self.stack.last_mut() {
                            map.insert(key, value);
                        }
                    } else {
                        map.insert(key, value);
                    }
                }
                (None, _) => {
                    // A collection used as a mapping key: legal YAML, never Kubernetes.
                    *pending_key = Some(complex_key(&value));
                }
            },
            None => {}
        }
        Ok(())
    }

    /// Where the innermost open collection sits in the document.
    fn path(&self) -> Vec<Step> {
        let parents = self.stack.len().saturating_sub(1);
        self.stack[..parents]
            .iter()
            .map(|frame| match frame {
                Frame::Seq { items, .. } => Step::Index(items.len()),
                Frame::Map { pending_key, .. } => {
                    Step::Key(pending_key.clone().unwrap_or_default())
                }
            })
            .collect()
    }

    /// After an error: a document that is a list of objects (or has an `items` list) keeps
    /// the objects completed before the error, so a file cut in the middle of an object
    /// loses only that object.
    fn salvage(&mut self) {
        let (value, start, spans) = match self.stack.as_mut_slice() {
            [
                Frame::Seq {
                    items,
                    item_spans: Some(spans),
                    start_line,
                    ..
                },
                ..,
            ] => (
                Value::Array(std::mem::take(items)),
                *start_line,
                std::mem::take(spans),
            ),
            [
                Frame::Map {
                    map,
                    pending_key,
                    start_line,
                    merges,
                    ..
                },
                rest @ ..,
            ] => {
                let mut map = std::mem::take(map);
                let spans = match rest {
                    [
                        Frame::Seq {
                            items,
                            item_spans: Some(spans),
                            ..
                        },
                        ..,
                    ] if pending_key.as_deref() == Some("items") => {
                        map.insert("items".into(), Value::Array(std::mem::take(items)));
                        std::mem::take(spans)
                    }
                    _ if map.contains_key("items") => std::mem::take(&mut self.doc_item_spans),
                    _ => return,
                };
                for merged in std::mem::take(merges) {
                    for (k, v) in merged {
                        map.entry(k).or_insert(v);
                    }
                }
                (Value::Object(map), *start_line, spans)
            }
            _ => return,
        };
        let Some(last) = spans.last() else {
            return;
        };
        let start = start.max(1);
        self.docs.push(ParsedDoc {
            value,
            span: Span {
                start,
                end: last.end.max(start),
            },
            item_spans: spans,
            repeated: std::mem::take(&mut self.repeated),
        });
    }
}

/// The value of a merge key `<<`: a mapping, or a list of mappings merged in order.
fn merge_into(merges: &mut Vec<Map<String, Value>>, value: Value) -> Result<(), String> {
    let bad = || "invalid YAML: a merge key `<<` needs a mapping or a list of mappings".to_string();
    match value {
        Value::Object(m) => merges.push(m),
        Value::Array(list) => {
            for v in list {
                match v {
                    Value::Object(m) => merges.push(m),
                    _ => return Err(bad()),
                }
            }
        }
        _ => return Err(bad()),
    }
    Ok(())
}

fn complex_key(value: &Value) -> String {
    let mut s = value.to_string();
    s.truncate(80);
    s
}

/// A plain scalar typed by the YAML 1.2 core schema (what kubectl's output relies on).
#[derive(Debug, PartialEq)]
pub enum Plain<'a> {
    Null,
    Bool(bool),
    I64(i64),
    U64(u64),
    F64(f64),
    Str(&'a str),
}

/// Types a plain scalar by the YAML 1.2 core schema.
pub fn resolve_plain(s: &str) -> Plain<'_> {
    // Most scalars and keys start with a letter that no null, bool or number starts with.
    if let Some(&c) = s.as_bytes().first()
        && c.is_ascii_alphabetic()
        && !matches!(c, b'n' | b'N' | b't' | b'T' | b'f' | b'F')
    {
        return Plain::Str(s);
    }
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Plain::Null,
        "true" | "True" | "TRUE" => return Plain::Bool(true),
        "false" | "False" | "FALSE" => return Plain::Bool(false),
        _ => {}
    }
    let first = s.as_bytes()[0];
    if !(first.is_ascii_digit() || matches!(first, b'-' | b'+' | b'.')) {
        return Plain::Str(s);
    }
    if let Some(hex) = s.strip_prefix("0x") {
        if let Ok(n) = u64::from_str_radix(hex, 16) {
            return Plain::U64(n);
        }
    } else if let Some(oct) = s.strip_prefix("0o")
        && let Ok(n) = u64::from_str_radix(oct, 8)
    {
        return Plain::U64(n);
    }
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(n) = s.parse::<i64>() {
            return Plain::I64(n);
        }
        if let Ok(n) = digits.parse::<u64>()
            && !s.starts_with('-')
        {
            return Plain::U64(n);
        }
        return Plain::Str(s);
    }
    if is_core_float(digits)
        && let Ok(f) = s.parse::<f64>()
        && f.is_finite()
    {
        // Integral floats are integers, as the API server reads them (`priority: 2e+09`).
        return match super::tree::integral(f) {
            Some(n) => match n.as_i64() {
                Some(i) => Plain::I64(i),
                None => n.as_u64().map_or(Plain::F64(f), Plain::U64),
            },
            None => Plain::F64(f),
        };
    }
    Plain::Str(s)
}

/// A scalar in key position as a JSON object key: `null`, `true`, numbers as JSON writes them.
pub fn key_text(value: Value) -> String {
    match value {
        Value::String(s) => s,
        Value::Null => "null".to_string(),
        other => other.to_string(),
    }
}

/// A plain key as the general parser keys it (`NULL` → `null`, `0x10` → `16`).
pub fn plain_key(s: &str) -> std::borrow::Cow<'_, str> {
    match resolve_plain(s) {
        Plain::Str(k) => std::borrow::Cow::Borrowed(k),
        _ => std::borrow::Cow::Owned(key_text(plain_scalar(s))),
    }
}

/// A plain scalar as a JSON value.
pub fn plain_scalar(s: &str) -> Value {
    match resolve_plain(s) {
        Plain::Null => Value::Null,
        Plain::Bool(b) => Value::Bool(b),
        Plain::I64(n) => Value::Number(n.into()),
        Plain::U64(n) => Value::Number(n.into()),
        Plain::F64(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
        Plain::Str(s) => Value::String(s.to_string()),
    }
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` without the sign.
fn is_core_float(s: &str) -> bool {
    let (mantissa, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((int, frac)) => {
            (int.bytes().all(|b| b.is_ascii_digit()) && frac.bytes().all(|b| b.is_ascii_digit()))
                && !(int.is_empty() && frac.is_empty())
        }
        None => !mantissa.is_empty() && mantissa.bytes().all(|b| b.is_ascii_digit()),
    };
    let exp_ok = exp.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    });
    mantissa_ok && exp_ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scalars_follow_core_schema() {
        assert_eq!(plain_scalar("1"), json!(1));
        assert_eq!(plain_scalar("-3"), json!(-3));
        assert_eq!(plain_scalar("1.5"), json!(1.5));
        assert_eq!(plain_scalar("1e3"), json!(1000));
        assert_eq!(plain_scalar("2e+09"), json!(2_000_000_000));
        assert_eq!(plain_scalar("2.0e9"), json!(2_000_000_000));
        assert_eq!(plain_scalar("-1.0"), json!(-1));
        assert_eq!(plain_scalar("2.5e-1"), json!(0.25));
        assert_eq!(plain_scalar("500m"), json!("500m"));
        assert_eq!(plain_scalar("1Gi"), json!("1Gi"));
        assert_eq!(plain_scalar("yes"), json!("yes"));
        assert_eq!(plain_scalar("~"), Value::Null);
        assert_eq!(plain_scalar("1.2.3"), json!("1.2.3"));
        assert_eq!(
            plain_scalar("99999999999999999999999"),
            json!("99999999999999999999999")
        );
    }

    #[test]
    fn documents_and_item_lines() {
        let text = "apiVersion: v1\nkind: List\nitems:\n- kind: Pod\n  metadata:\n    name: a\n- kind: Pod\n  metadata:\n    name: b\n---\nkind: Node\nmetadata:\n  name: n\n";
        let (docs, err) = parse(text);
        assert!(err.is_none());
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].item_spans.len(), 2);
        assert_eq!(docs[0].item_spans[0].start, 4);
        assert_eq!(docs[0].item_spans[1].start, 7);
        assert_eq!(docs[1].span.start, 11);
        assert_eq!(docs[1].value["metadata"]["name"], json!("n"));
    }

    #[test]
    fn managed_fields_are_dropped() {
        let text = "kind: Pod\nmetadata:\n  name: a\n  managedFields:\n  - manager: x\n    fieldsV1:\n      f:a: {}\n  uid: u1\n";
        let (docs, err) = parse(text);
        assert!(err.is_none(), "{err:?}");
        assert_eq!(docs[0].value["metadata"], json!({"name": "a", "uid": "u1"}));
    }

    /// troubleshoot's `***HIDDEN***` where a plain scalar starts is text in both YAML
    /// paths (and said so); elsewhere it was text already; a real alias stays an alias.
    #[test]
    fn redaction_placeholders_are_text_and_aliases_stay_aliases() {
        let text = "a: ***HIDDEN***\nb: ***HIDDEN***:10000\nc:\n- ***HIDDEN***\nd: '***HIDDEN***'\ne: http://***HIDDEN***\n";
        let ((docs, err), read) = redaction::watch(|| parse(text));
        assert!(err.is_none(), "{err:?}");
        let want = json!({"a": "***HIDDEN***", "b": "***HIDDEN***:10000", "c": ["***HIDDEN***"],
            "d": "***HIDDEN***", "e": "http://***HIDDEN***"});
        assert_eq!(docs[0].value, want);
        assert!(read);
        let (fast, read) = redaction::watch(|| crate::parse::fast_yaml::parse(text));
        assert_eq!(fast.expect("fast path reads it")[0].value, want);
        assert!(read);
        let ((docs, _), read) =
            redaction::watch(|| parse("d: '***HIDDEN***'\ne: x ***HIDDEN***\n"));
        assert_eq!(
            docs[0].value,
            json!({"d": "***HIDDEN***", "e": "x ***HIDDEN***"})
        );
        assert!(
            !read,
            "only a placeholder that starts a plain scalar is noted"
        );
        let (docs, err) = parse("f: &x v\ng: *x\nh: ***HIDDEN***\n");
        assert!(err.is_none(), "{err:?}");
        assert_eq!(
            docs[0].value,
            json!({"f": "v", "g": "v", "h": "***HIDDEN***"})
        );
        let (_, err) = parse("g: *nope\nh: ***HIDDEN***\n");
        assert!(err.unwrap().message.contains("anchor"));
        assert!(crate::parse::fast_yaml::parse("g: *HIDDEN\n").is_err());
        // Where the fast path reads a placeholder, the general parser reads the same.
        for text in [
            "a: ***HIDDEN***: x\n",
            "a:\n- ***HIDDEN*** #c\n",
            "a: ***HIDDEN***\n  more\n",
            "a: ***HIDDEN***x\n",
            "a: ****HIDDEN***\n",
            "***HIDDEN***: a\n",
            "- ***HIDDEN***: a\n",
        ] {
            if let Ok(fast) = crate::parse::fast_yaml::parse(text) {
                let (general, err) = parse(text);
                assert!(err.is_none(), "{text:?}: {err:?}");
                assert_eq!(fast[0].value, general[0].value, "{text:?}");
            }
        }
    }

    #[test]
    fn alias_bomb_is_refused() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let prev = format!("*a{}", i - 1);
            text.push_str(&format!("a{i}: &a{i} [{}]\n", vec![prev; 10].join(", ")));
        }
        let (_, err) = parse(&text);
        assert!(err.unwrap().message.contains("alias"));
    }

    /// Few aliases of one long scalar copy as much as a billion laughs: the bytes an
    /// expansion copies are bounded too, across the pieces of one file.
    #[test]
    fn aliases_of_a_long_scalar_are_refused_by_bytes() {
        let long = "x".repeat(1 << 20);
        let aliases: String = (0..20).map(|i| format!("b{i}: *a\n")).collect();
        let text = format!("a: &a {long}\n{aliases}");
        let err = parse(&text).1.expect("refused");
        assert!(
            err.message.contains("more than 16 MiB (alias bomb?)"),
            "{err:?}"
        );
        // Under the cap, the same shape is read.
        let few: String = (0..10).map(|i| format!("b{i}: *a\n")).collect();
        let (docs, err) = parse(&format!("a: &a {long}\n{few}"));
        assert!(err.is_none() && docs[0].value["b9"].as_str().unwrap().len() == 1 << 20);
        // Pieces of one file share the budget.
        let mut spent = Expanded::default();
        assert!(
            parse_spending(&format!("a: &a {long}\n{few}"), &mut spent)
                .1
                .is_none()
        );
        let second = parse_spending(&format!("a: &a {long}\n{few}"), &mut spent).1;
        assert!(second.is_some_and(|e| e.message.contains("alias bomb")));
    }

    #[test]
    fn deep_nesting_is_refused() {
        let text = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
        let (_, err) = parse(&text);
        assert!(err.is_some());
    }

    /// Merge keys as go-yaml applies them: the mapping's own keys win wherever they are,
    /// earlier mappings of a list win over later ones, aliases and flow mappings merge, a
    /// quoted `<<` is a key; a merge of a scalar is an error.
    #[test]
    fn merge_keys_are_applied() {
        let text = "base: &base {a: 1, b: 1}\nmore: &more\n  b: 2\n  c: 2\nx:\n  a: 0\n  <<: [*base, *more, {d: 3}]\ny:\n  <<: *more\n  c: own\nz:\n  \"<<\": {a: 1}\n";
        let (docs, err) = parse(text);
        assert!(err.is_none(), "{err:?}");
        let v = &docs[0].value;
        assert_eq!(v["x"], json!({"a": 0, "b": 1, "c": 2, "d": 3}));
        assert_eq!(v["y"], json!({"b": 2, "c": "own"}));
        assert_eq!(v["z"], json!({"<<": {"a": 1}}));
        assert!(
            docs[0].repeated.is_empty(),
            "merged keys are not repeated keys"
        );
        let (_, err) = parse("x:\n  <<: 5\n");
        assert!(err.unwrap().message.contains("merge key"));
        // The fast path leaves merge keys to this parser, in the lines ingest checks too.
        assert!(crate::parse::fast_yaml::parse("x:\n  <<:\n    a: 1\n").is_err());
        assert!(crate::parse::line_check::check_line("<<: *base").is_none());
        assert!(crate::parse::line_check::check_line("- <<:").is_none());
        assert!(crate::parse::line_check::check_line("'<<': a").is_some());
    }

    #[test]
    fn repeated_keys_are_reported_with_their_path() {
        let text =
            "items:\n- kind: Pod\n  metadata:\n    name: a\n    name: b\n  kind: ConfigMap\n";
        let (docs, err) = parse(text);
        assert!(err.is_none(), "{err:?}");
        let key = |s: &str| Step::Key(s.to_string());
        assert_eq!(
            docs[0].repeated,
            [
                RepeatedKey {
                    line: 5,
                    path: vec![key("items"), Step::Index(0), key("metadata"), key("name")]
                },
                RepeatedKey {
                    line: 6,
                    path: vec![key("items"), Step::Index(0), key("kind")]
                },
            ]
        );
        assert_eq!(
            docs[0].value["items"][0]["kind"], "ConfigMap",
            "the last one"
        );
    }

    /// A list cut in the middle of an item keeps the items before it, with their lines.
    #[test]
    fn a_cut_list_keeps_its_whole_items() {
        for (text, kept) in [
            ("kind: List\nitems:\n- name: a\n- name: b\n- name: \"c\n", 2),
            ("- name: a\n- name: \"b\n", 1),
            ("items:\n- name: a\nkind: \"List\n", 1),
            ("kind: Pod\nname: \"a\n", 0),
        ] {
            let (docs, err) = parse(text);
            assert!(err.is_some(), "{text}");
            let items = docs.first().map_or(0, |d| d.item_spans.len());
            assert_eq!(items, kept, "{text}");
        }
        let (docs, _) = parse("kind: List\nitems:\n- name: a\n- name: b\n- name: \"c\n");
        assert_eq!(
            docs[0].value["items"],
            json!([{"name": "a"}, {"name": "b"}])
        );
        assert_eq!(docs[0].span.start, 1);
    }

    #[test]
    fn truncated_document_reports_line() {
        let text = "kind: Pod\nmetadata:\n  name: a\n  labels: {app: \"x\n";
        let (_, err) = parse(text);
        assert!(err.unwrap().line.is_some());
    }
}

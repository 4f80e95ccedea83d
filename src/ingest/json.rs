//! JSON files and streams of concatenated JSON values (`kubectl cluster-info dump`).
//!
//! serde_json gives no positions for nested values, so each top-level value (and each
//! element of its `items` list) is first taken as a borrowed `RawValue`: its slice's
//! offset in the file gives its line range and its body's byte range. Only a header is
//! read of each piece; views deserialize from the range later. serde_json skips values
//! without recursing, and its recursion limit bounds the trees a rule asks for.

use super::body::Body;
use super::early;
use super::header::{Header, ItemHeader};
use super::objects::{Doc, Item, with_items};
use super::parsed::{ParseError, Span};
use serde_json::value::RawValue;
use std::ops::Range;

/// Reads the headers of every top-level JSON value of `text` (and of its `items`),
/// leaving their content as text. On a syntax error the values read before it are
/// returned with the error.
pub fn scan(text: &super::KeptText) -> (Vec<Doc>, Option<ParseError>) {
    let lines = LineIndex::new(text);
    match scan_split(text, &lines) {
        Some(docs) => (docs, None),
        None => scan_by_serde(text, &lines),
    }
}

/// [`scan`], reading the views of the kinds [`early`] names with the headers; `hint` is
/// the kind the file's path says, for items that do not say theirs.
pub fn scan_with_views(
    text: &super::KeptText,
    hint: Option<&'static str>,
) -> (Vec<Doc>, Option<ParseError>) {
    let lines = LineIndex::new(text);
    match early::with_early_views(hint, || scan_split(text, &lines)) {
        Some(docs) => (docs, None),
        None => scan_by_serde(text, &lines),
    }
}

/// [`scan`] by the general path alone, for the tests and the fuzz target that hold the
/// fast path to it.
#[doc(hidden)]
pub fn scan_general(text: &super::KeptText) -> (Vec<Doc>, Option<ParseError>) {
    scan_by_serde(text, &LineIndex::new(text))
}

/// The fast path alone (`None` where [`scan`] falls back), for the same.
#[doc(hidden)]
pub fn scan_fast(text: &super::KeptText) -> Option<Vec<Doc>> {
    scan_split(text, &LineIndex::new(text))
}

/// The fast path: values and their `items` are found by matching brackets
/// ([`value_end`]), then serde_json reads each item's header from its slice, which checks
/// every byte of the item once (and the top level's header from its text without the
/// items). `None` on anything it does not expect, errors included: the general path then
/// reads the file and says exactly what is wrong where.
fn scan_split(text: &super::KeptText, lines: &LineIndex) -> Option<Vec<Doc>> {
    let bytes = text.as_bytes();
    let mut docs = Vec::new();
    let mut at = skip_ws(bytes, 0);
    while at < bytes.len() {
        let (end, items) = match bytes[at] {
            b'{' => object_items(bytes, at)?,
            b'[' => {
                let (ranges, end) = array_items(bytes, at)?;
                (end, Some((at..end, ranges)))
            }
            _ => return None,
        };
        let piece = &text[at..end];
        let header: ItemHeader = match &items {
            // The top level without its items: `"items": []`.
            Some((list, _)) => {
                let outside = [&text[at..list.start], "[]", &text[list.end..end]].concat();
                object_header(&outside)?
            }
            None => object_header(piece)?,
        };
        if header.items.as_ref().map(Vec::len) != items.as_ref().map(|_| 0) {
            return None; // an `items` key spelled with escapes, or not a list
        }
        let mut header: Header<std::ops::Range<usize>> = with_items(header, |_, _| 0..0);
        header.items = items.map(|(_, ranges)| ranges);
        let mut failed = false;
        let header = with_items(header, |_, range| {
            let piece = &text[range];
            let header = object_header(piece).unwrap_or_else(|| {
                failed = true;
                ItemHeader::default()
            });
            Item {
                header,
                body: Some(body(text, piece)),
                span: lines.span_of(text, piece),
            }
        });
        if failed {
            return None;
        }
        docs.push(Doc {
            header,
            body: body(text, piece),
            span: lines.span_of(text, piece),
        });
        at = skip_ws(bytes, end);
    }
    Some(docs)
}

/// The header of the object `piece`, with its view when it reads as one (see
/// [`early`]); when it does not, it is read again without.
fn object_header(piece: &str) -> Option<ItemHeader> {
    serde_json::from_str(piece)
        .or_else(|_| early::without_early_views(|| serde_json::from_str(piece)))
        .ok()
}

/// The body of `piece`, a slice of `text`.
fn body(text: &super::KeptText, piece: &str) -> Body {
    let start = piece.as_ptr() as usize - text.as_ptr() as usize;
    Body::Json {
        text: text.clone(),
        start,
        end: start + piece.len(),
    }
}

/// The end of the object starting at `at`, and where its `items` list is: the list's
/// range and its elements' ranges.
type ObjectItems = (usize, Option<(Range<usize>, Vec<Range<usize>>)>);

fn object_items(bytes: &[u8], at: usize) -> Option<ObjectItems> {
    let mut items = None;
    let mut i = skip_ws(bytes, at + 1);
    if bytes.get(i) == Some(&b'}') {
        return Some((i + 1, None));
    }
    loop {
        if bytes.get(i) != Some(&b'"') {
            return None;
        }
        let key_end = string_end(bytes, i)?;
        let key = &bytes[i + 1..key_end - 1];
        i = skip_ws(bytes, key_end);
        if bytes.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(bytes, i + 1);
        if key == b"items" && bytes.get(i) == Some(&b'[') {
            if items.is_some() {
                return None;
            }
            let (ranges, end) = array_items(bytes, i)?;
            items = Some((i..end, ranges));
            i = end;
        } else {
            i = value_end(bytes, i)?;
        }
        i = skip_ws(bytes, i);
        match bytes.get(i) {
            Some(b',') => i = skip_ws(bytes, i + 1),
            Some(b'}') => return Some((i + 1, items)),
            _ => return None,
        }
    }
}

/// The ranges of the elements of the list starting at `at`, and the list's end.
fn array_items(bytes: &[u8], at: usize) -> Option<(Vec<Range<usize>>, usize)> {
    let mut out = Vec::new();
    let mut i = skip_ws(bytes, at + 1);
    if bytes.get(i) == Some(&b']') {
        return Some((out, i + 1));
    }
    loop {
        let end = value_end(bytes, i)?;
        out.push(i..end);
        i = skip_ws(bytes, end);
        match bytes.get(i) {
            Some(b',') => i = skip_ws(bytes, i + 1),
            Some(b']') => return Some((out, i + 1)),
            _ => return None,
        }
    }
}

/// Deeper nesting is left to serde_json, which refuses it (its recursion limit).
const MAX_DEPTH: usize = 128;

/// The end of the JSON value starting at `at`, by matching brackets without checking the
/// rest of the grammar: strings are skipped to their closing quote, and every closing
/// bracket must match its opening one. `None` when the text ends first or brackets do
/// not pair up. Exact on valid JSON.
fn value_end(bytes: &[u8], at: usize) -> Option<usize> {
    match *bytes.get(at)? {
        b'"' => string_end(bytes, at),
        b'{' | b'[' => container_end(bytes, at),
        _ => {
            let n = bytes[at..]
                .iter()
                .position(|b| matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\r' | b'\n'))
                .unwrap_or(bytes.len() - at);
            (n > 0).then_some(at + n)
        }
    }
}

/// Just past the closing quote of the string whose opening quote is at `at`.
fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    loop {
        i += memchr::memchr2(b'"', b'\\', bytes.get(i..)?)?;
        if bytes[i] == b'"' {
            return Some(i + 1);
        }
        i += 2; // an escaped character
    }
}

/// Bytes that matter between strings: quotes and brackets.
static STRUCTURAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'{' as usize] = true;
    t[b'[' as usize] = true;
    t[b'}' as usize] = true;
    t[b']' as usize] = true;
    t
};

fn container_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut closers: Vec<u8> = Vec::with_capacity(16);
    let mut i = at;
    loop {
        while i < bytes.len() && !STRUCTURAL[bytes[i] as usize] {
            i += 1;
        }
        match *bytes.get(i)? {
            b'"' => {
                i = string_end(bytes, i)?;
                continue;
            }
            b'{' => closers.push(b'}'),
            b'[' => closers.push(b']'),
            close => {
                if closers.pop()? != close {
                    return None;
                }
                if closers.is_empty() {
                    return Some(i + 1);
                }
            }
        }
        if closers.len() > MAX_DEPTH {
            return None;
        }
        i += 1;
    }
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while bytes
        .get(i)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    {
        i += 1;
    }
    i
}

/// The general path: serde_json splits the values (as `RawValue`s) and reads each header
/// from its slice, so every byte of an item is read three times; its errors are exact.
fn scan_by_serde(text: &super::KeptText, lines: &LineIndex) -> (Vec<Doc>, Option<ParseError>) {
    let mut docs = Vec::new();
    let stream = serde_json::Deserializer::from_str(text).into_iter::<&RawValue>();
    for raw in stream {
        let raw = match raw {
            Ok(raw) => raw,
            Err(e) => return (docs, Some(json_error(&e, text, lines))),
        };
        let piece = raw.get();
        let span = lines.span_of(text, piece);
        let err_at = |e: serde_json::Error, piece: &str| {
            let mut err = json_error(&e, piece, &LineIndex::new(piece));
            let start = lines.span_of(text, piece).start;
            err.line = err.line.map(|l| l + start - 1);
            err
        };
        let header = match serde_json::from_str::<Header<&RawValue>>(piece) {
            Ok(h) => h,
            Err(e) => return (docs, Some(err_at(e, piece))),
        };
        let body_of = |piece: &str| body(text, piece);
        let mut failed = None;
        let header = with_items(header, |_, item: &RawValue| {
            let piece = item.get();
            let header = serde_json::from_str::<ItemHeader>(piece).unwrap_or_else(|e| {
                failed.get_or_insert_with(|| err_at(e, piece));
                ItemHeader::default()
            });
            Item {
                header,
                body: Some(body_of(piece)),
                span: lines.span_of(text, piece),
            }
        });
        if let Some(err) = failed {
            return (docs, Some(err));
        }
        docs.push(Doc {
            header,
            body: body_of(piece),
            span,
        });
    }
    (docs, None)
}

/// The text without its `"managedFields": …,` members, each replaced by as many line
/// breaks as it spanned (JSON white space), so every line keeps its number; `None` when
/// there is none. A member is taken out only when another member follows it (its comma
/// goes with it), so objects keep their shape and their last line. Like the YAML fast
/// path, this drops the key wherever it appears; nothing reads it. Its value is found by
/// matching brackets ([`value_end`]): what is inside is not checked further.
pub fn without_managed_fields(text: &str) -> Option<String> {
    const KEY: &str = "\"managedFields\"";
    let bytes = text.as_bytes();
    let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();
    for at in memchr::memmem::find_iter(bytes, KEY) {
        if ranges.last().is_some_and(|r| at < r.end) {
            continue; // inside a member already taken out
        }
        // A quote inside a string is escaped: an odd run of backslashes before it.
        let backslashes = bytes[..at]
            .iter()
            .rev()
            .take_while(|&&b| b == b'\\')
            .count();
        if backslashes % 2 == 1 {
            continue;
        }
        let colon = skip_ws(bytes, at + KEY.len());
        if bytes.get(colon) != Some(&b':') {
            continue;
        }
        let Some(value_end) = value_end(bytes, skip_ws(bytes, colon + 1)) else {
            continue;
        };
        let comma = skip_ws(bytes, value_end);
        if bytes.get(comma) != Some(&b',') {
            continue;
        }
        ranges.push(at..comma + 1);
    }
    if ranges.is_empty() {
        return None;
    }
    Some(super::fast_yaml::blank_out(text, &ranges, "").0)
}

fn json_error(e: &serde_json::Error, _text: &str, _lines: &LineIndex) -> ParseError {
    let msg = e.to_string();
    // serde_json appends " at line L column C"; keep the message short and the line separate.
    let short = msg.split(" at line ").next().unwrap_or(&msg).to_string();
    ParseError {
        line: (e.line() > 0).then_some(e.line() as u32),
        message: format!("invalid JSON: {short}"),
    }
}

/// Byte offset → line number for one file.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr_newlines(text.as_bytes()));
        LineIndex { starts }
    }

    /// 1-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> u32 {
        match self.starts.binary_search(&offset) {
            Ok(i) => i as u32 + 1,
            Err(i) => i as u32,
        }
    }

    /// Line span of `piece`, which must be a sub-slice of `text`.
    pub fn span_of(&self, text: &str, piece: &str) -> Span {
        let start = (piece.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
        let end = start + piece.len().saturating_sub(1);
        Span {
            start: self.line_of(start),
            end: self.line_of(end),
        }
    }
}

fn memchr_newlines(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'\n', bytes).map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> (Vec<Doc>, Option<ParseError>) {
        scan(&std::sync::Arc::new(text.to_string()))
    }

    #[test]
    fn stream_of_objects() {
        let (docs, err) = run("{\"kind\":\"Pod\"}\n{\n  \"kind\": \"Node\"\n}\n");
        assert!(err.is_none());
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[1].span, Span { start: 2, end: 4 });
        assert_eq!(docs[1].header.kind.as_deref(), Some("Node"));
    }

    #[test]
    fn list_item_lines() {
        let text = "{\n  \"kind\": \"PodList\",\n  \"items\": [\n    {\n      \"metadata\": {\"name\": \"a\"}\n    },\n    {\n      \"metadata\": {\"name\": \"b\"}\n    }\n  ]\n}\n";
        let (docs, err) = run(text);
        assert!(err.is_none());
        let items = docs[0].header.items.as_ref().unwrap();
        let spans: Vec<Span> = items.iter().map(|i| i.span).collect();
        assert_eq!(
            spans,
            vec![Span { start: 4, end: 6 }, Span { start: 7, end: 9 }]
        );
        assert_eq!(items[1].header.name.as_deref(), Some("b"));
    }

    /// Every `managedFields` key removed, at any depth (what the kept text must equal).
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.remove("managedFields");
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }

    #[test]
    fn managed_fields_leave_the_kept_text_line_for_line() {
        let text = "{\n  \"kind\": \"PodList\",\n  \"items\": [\n    {\n      \"metadata\": {\n        \"annotations\": {\"a\": \"{\\\"managedFields\\\": [1],\\\"x\\\": 2}\"},\n        \"managedFields\": [\n          {\"manager\": \"kubectl\", \"fieldsV1\": {\"f:x\": {}}}\n        ],\n        \"name\": \"a\"\n      },\n      \"status\": {\"phase\": \"Running\", \"managedFields\": []}\n    }\n  ]\n}\n";
        let kept = without_managed_fields(text).expect("one member to take out");
        assert_eq!(kept.lines().count(), text.lines().count());
        assert!(kept.len() < text.len());
        let mut want: serde_json::Value = serde_json::from_str(text).unwrap();
        let got: serde_json::Value = serde_json::from_str(&kept).unwrap();
        // The last member of `status` stays (no comma follows it); the one inside the
        // annotation's string is text, not a key.
        assert_eq!(
            got["items"][0]["status"]["managedFields"],
            serde_json::json!([])
        );
        assert!(
            got["items"][0]["metadata"]["annotations"]["a"]
                .as_str()
                .unwrap()
                .contains("managedFields")
        );
        assert!(got["items"][0]["metadata"].get("managedFields").is_none());
        let mut got_stripped = got.clone();
        strip(&mut want);
        strip(&mut got_stripped);
        assert_eq!(want, got_stripped);
        let (a, _) = run(text);
        let (b, _) = run(&kept);
        let spans = |d: &Vec<Doc>| {
            d[0].header
                .items
                .as_ref()
                .unwrap()
                .iter()
                .map(|i| i.span)
                .collect::<Vec<_>>()
        };
        assert_eq!(spans(&a), spans(&b));
        assert_eq!(without_managed_fields("{\"managedFields\": 1}"), None);
    }

    /// Both paths, as `Debug` text (bodies included), and whether the fast one took it.
    fn both(text: &str) -> (String, String, bool) {
        let text = std::sync::Arc::new(text.to_string());
        let lines = LineIndex::new(&text);
        let split = scan_split(&text, &lines).is_some();
        let fast = format!("{:?}", scan(&text));
        (fast, format!("{:?}", scan_general(&text)), split)
    }

    #[test]
    fn bracket_matching_reads_as_serde() {
        for text in [
            "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\"}}\n{\n  \"kind\": \"Node\"\n}\n",
            "{\n  \"apiVersion\": \"v1\",\n  \"items\": [\n    {\"kind\": \"Pod\", \"metadata\": {\"name\": \"a]}\\\"\\\\\", \"namespace\": \"n\"}, \"spec\": {\"x\": [1, {\"y\": \"}\"}]}},\n    {\"kind\": \"Pod\", \"metadata\": {\"name\": \"\\u0062\"}}\n  ],\n  \"kind\": \"List\",\n  \"metadata\": {\"resourceVersion\": \"\"}\n}\n",
            "[{\"kind\":\"Pod\"},{\"kind\":\"Service\"}]",
            "{\"kind\":\"PodList\",\"items\":[]}",
            "{\"items\": [1, \"two\", [3], null, true, -4.5e3, {}], \"kind\": \"List\"}",
            "{\"kind\":\"Event\",\"metadata\":{\"name\":\"e\"},\"lastTimestamp\":\"2026-11-20T09:00:00Z\",\"series\":{\"lastObservedTime\":\"2026-11-20T09:05:00.000000Z\"}}",
            "{}\r\n[]\r\n{\"kind\": \"Pod\"}{\"kind\": \"Node\"}",
            "{\"kind\": \"PodList\", \"items\": null}",
            "{\"items\": {\"kind\": \"Pod\"}}",
            "",
        ] {
            let (fast, general, split) = both(text);
            assert!(split, "fast path refused {text:?}");
            assert_eq!(fast, general, "{text:?}");
        }
    }

    #[test]
    fn bracket_matching_leaves_errors_to_serde() {
        for text in [
            "{\"items\": [{\"kind\": \"Pod\"}",
            "{\"items\": [{\"a\": 1]}",
            "{\"items\": [{\"a\": tru}]}",
            "{\"items\": [{\"a\": 1},]}",
            "{\"items\": [,]}",
            "{\"a\": 1,}",
            "{\"a\" 1}",
            "{\"a\": 1} x",
            "{\"it\\u0065ms\": [{\"kind\": \"Pod\"}]}",
            "{\"items\": [], \"items\": [{}]}",
            "{\"a\": \"unterminated}",
            "{\"a\": \"escape at the end\\",
            "\"a string\"",
        ] {
            let (fast, general, split) = both(text);
            assert!(!split, "fast path took {text:?}");
            assert_eq!(fast, general, "{text:?}");
        }
        let deep = format!("{{\"items\": [{}{}]}}", "[".repeat(200), "]".repeat(200));
        assert!(
            !both(&deep).2,
            "nesting past serde_json's limit is left to it"
        );
    }

    #[test]
    fn truncated_json_keeps_earlier_docs() {
        let (docs, err) = run("{\"kind\":\"Pod\"}\n{\"kind\": \"No");
        assert_eq!(docs.len(), 1);
        assert_eq!(err.unwrap().line, Some(2));
    }

    #[test]
    fn deep_nesting_is_not_a_crash() {
        // serde_json skips values without recursing; a tree of it would hit its limit.
        let text = format!("{}{}", "[".repeat(10000), "]".repeat(10000));
        let (docs, _) = run(&text);
        assert!(docs.len() <= 1);
        let text = format!("{{\"a\": {}{}}}", "[".repeat(10000), "]".repeat(10000));
        let (docs, err) = run(&text);
        if let (Some(d), None) = (docs.first(), err) {
            assert!(
                d.body.deserialize::<serde_json::Value>().is_err(),
                "tree refused"
            );
        }
    }
}

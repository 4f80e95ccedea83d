//! JSON files and streams of concatenated JSON values (`kubectl cluster-info dump`).
//!
//! serde_json gives no positions for nested values, so the fast path ([`scan_split`])
//! finds where each top-level value and each element of its `items` list lies, and
//! serde_json reads each element once: its header (and, for the kinds `early` names, its
//! view), and where it ends. The byte range gives the element's lines and its body; other
//! views deserialize from the range later. The general path takes each value as a
//! borrowed `RawValue` first. serde_json skips values without recursing, and its
//! recursion limit bounds the trees a rule asks for.

use super::body::Body;
use super::early;
use super::header::{Header, ItemHeader};
use super::objects::{Doc, Item, with_items};
use crate::parse::json::{LineCounter, LineIndex, json_error, skip_ws, string_end, value_end};
use crate::parse::spans::{ParseError, Span};
use serde_json::value::RawValue;
use std::ops::Range;

/// Reads the headers of every top-level JSON value of `text` (and of its `items`),
/// leaving their content as text. On a syntax error the values read before it are
/// returned with the error.
pub fn scan(text: &super::KeptText) -> (Vec<Doc>, Option<ParseError>) {
    match scan_split(text) {
        Some(docs) => (docs, None),
        None => scan_by_serde(text, &LineIndex::new(text)),
    }
}

/// [`scan`], reading the views of the kinds [`early`] names with the headers; `hint` is
/// the kind the file's path says, for items that do not say theirs.
pub fn scan_with_views(
    text: &super::KeptText,
    hint: Option<&'static str>,
) -> (Vec<Doc>, Option<ParseError>) {
    let split = || crate::parse::fast_yaml::reading_kept(text, || scan_split(text));
    match early::with_early_views(hint, split) {
        Some(docs) => (docs, None),
        None => scan_by_serde(text, &LineIndex::new(text)),
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
    scan_split(text)
}

/// The fast path: the elements of a top-level list, or of a top-level object's `items`,
/// are read by serde_json one after the other, each for its header and where it ends
/// (which checks every byte of the element once); the object's other members are found
/// by matching brackets ([`value_end`]), and its header is read from its text without the
/// items. `None` on anything it does not expect, errors included: the general path then
/// reads the file and says exactly what is wrong where.
fn scan_split(text: &super::KeptText) -> Option<Vec<Doc>> {
    let bytes = text.as_bytes();
    let mut docs = Vec::new();
    let mut lines = LineCounter::new(bytes);
    let mut at = skip_ws(bytes, 0);
    while at < bytes.len() {
        let first_line = lines.line_of(at);
        let (end, items) = match bytes[at] {
            b'{' => object_items(text, at)?,
            b'[' => {
                let (elements, end) = array_items(text, at)?;
                (end, Some((at..end, elements)))
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
        let mut header: Header<Element> = with_items(header, |_, _| (0..0, ItemHeader::default()));
        header.items = items.map(|(_, elements)| elements);
        let header = with_items(header, |_, (range, header)| {
            let piece = &text[range.clone()];
            Item {
                header,
                body: Some(body(text, piece)),
                span: lines.span_of(range),
            }
        });
        docs.push(Doc {
            header,
            body: body(text, piece),
            span: Span {
                start: first_line,
                end: lines.line_of(end - 1),
            },
        });
        at = skip_ws(bytes, end);
    }
    Some(docs)
}

/// The header of the object `piece`, which must be all of it ([`element_header`]).
fn object_header(piece: &str) -> Option<ItemHeader> {
    element_header(piece)
        .filter(|&(_, len)| skip_ws(piece.as_bytes(), len) == piece.len())
        .map(|(header, _)| header)
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

/// An element of a list: where it is, and its header.
type Element = (Range<usize>, ItemHeader);

/// The end of the object starting at `at`, and where its `items` list is: the list's
/// range and its elements.
type ObjectItems = (usize, Option<(Range<usize>, Vec<Element>)>);

fn object_items(text: &str, at: usize) -> Option<ObjectItems> {
    let bytes = text.as_bytes();
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
            let (elements, end) = array_items(text, i)?;
            items = Some((i..end, elements));
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

/// The elements of the list starting at `at`, each read for its header by serde_json,
/// which also says where it ends (so the bytes of an element are read once), and the
/// list's end.
fn array_items(text: &str, at: usize) -> Option<(Vec<Element>, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = skip_ws(bytes, at + 1);
    if bytes.get(i) == Some(&b']') {
        return Some((out, i + 1));
    }
    loop {
        let (header, len) = element_header(&text[i..])?;
        out.push((i..i + len, header));
        i = skip_ws(bytes, i + len);
        match bytes.get(i) {
            Some(b',') => i = skip_ws(bytes, i + 1),
            Some(b']') => return Some((out, i + 1)),
            _ => return None,
        }
    }
}

/// The header of the value `rest` starts with, and the value's length. As
/// [`object_header`]: with its view when it reads as one, else read again without.
fn element_header(rest: &str) -> Option<(ItemHeader, usize)> {
    let read = || {
        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<ItemHeader>();
        let header = values.next()?.ok()?;
        Some((header, values.byte_offset()))
    };
    read()
        .or_else(|| early::without_early_views(read))
        .or_else(|| {
            let mut values = serde_json::Deserializer::from_str(rest).into_iter::<&RawValue>();
            let raw = values.next()?.ok()?;
            Some((tolerant_header(raw.get())?, values.byte_offset()))
        })
}

/// The header of the JSON value `piece` read from its tree, where a number or a bool
/// stands for a string (`"pod-template-hash": 8`): only after serde_json refused it.
fn tolerant_header<T: serde::de::DeserializeOwned>(piece: &str) -> Option<T> {
    crate::parse::tree::read(&crate::parse::tree::json_tree(piece).ok()?).ok()
}

/// The general path: serde_json splits the values (as `RawValue`s) and reads each header
/// from its slice, so every byte of an item is read three times; its errors are exact.
/// After a value that does not read, reading goes on at the next line that starts with
/// `{` (a concatenated stream's next value); the first error says how many were skipped.
fn scan_by_serde(text: &super::KeptText, lines: &LineIndex) -> (Vec<Doc>, Option<ParseError>) {
    let mut docs = Vec::new();
    let mut first: Option<ParseError> = None;
    let (mut skipped, mut read_after, mut resumed_at) = (0usize, 0usize, None);
    let mut base = 0;
    'stream: loop {
        let mut stream = serde_json::Deserializer::from_str(&text[base..]).into_iter::<&RawValue>();
        loop {
            let at = base + stream.byte_offset();
            let error = match scan_value(text, lines, stream.next()) {
                None => break 'stream,
                Some(Ok(doc)) => {
                    if first.is_some() {
                        read_after += 1;
                    }
                    docs.push(doc);
                    continue;
                }
                Some(Err((mut error, syntax))) => {
                    if syntax {
                        docs.extend(salvage(text, skip_ws(text.as_bytes(), at), lines));
                        // serde_json counts lines from where this stream started.
                        let shift = lines.line_of(base) - 1;
                        error.line = error.line.map(|l| l + shift);
                    }
                    error
                }
            };
            skipped += 1;
            first.get_or_insert(error);
            // The next value of a stream starts a line with `{`, past this one's start.
            match memchr::memmem::find(&text.as_bytes()[at + 1..], b"\n{") {
                Some(i) => {
                    base = at + 1 + i + 1;
                    resumed_at.get_or_insert(lines.line_of(base));
                    continue 'stream;
                }
                None => break 'stream,
            }
        }
    }
    let error = first.map(|mut e| {
        if let Some(line) = resumed_at {
            let plural = |n: usize| if n == 1 { "" } else { "s" };
            e.message.push_str(&format!(
                "; {skipped} value{} skipped, reading went on at the next line that starts with `{{` (line {line}): {read_after} value{} read after it",
                plural(skipped),
                plural(read_after)
            ));
        }
        e
    });
    (docs, error)
}

/// One value of the stream as a document, or its error and whether it is a syntax error
/// (the stream cannot go on from there) rather than a header that does not read.
fn scan_value(
    text: &super::KeptText,
    lines: &LineIndex,
    next: Option<Result<&RawValue, serde_json::Error>>,
) -> Option<Result<Doc, (ParseError, bool)>> {
    let raw = match next? {
        Ok(raw) => raw,
        Err(e) => return Some(Err((json_error(&e, text, lines), true))),
    };
    let piece = raw.get();
    let span = lines.span_of(text, piece);
    let err_at = |e: serde_json::Error, piece: &str| {
        let mut err = json_error(&e, piece, &LineIndex::new(piece));
        let start = lines.span_of(text, piece).start;
        err.line = err.line.map(|l| l + start - 1);
        err
    };
    let body_of = |piece: &str| body(text, piece);
    let mut failed = None;
    let header = match serde_json::from_str::<Header<&RawValue>>(piece) {
        Ok(header) => with_items(header, |_, item: &RawValue| {
            let piece = item.get();
            let header = serde_json::from_str::<ItemHeader>(piece)
                .or_else(|e| tolerant_header(piece).ok_or(e))
                .unwrap_or_else(|e| {
                    failed.get_or_insert_with(|| err_at(e, piece));
                    ItemHeader::default()
                });
            Item {
                header,
                body: Some(body_of(piece)),
                span: lines.span_of(text, piece),
            }
        }),
        // A single object with a number where a string goes: its tree reads it.
        Err(e) => match tolerant_header::<ItemHeader>(piece) {
            Some(h) if e.is_data() && h.items.is_none() => with_items(h, |_, _| Item {
                header: ItemHeader::default(),
                body: None,
                span,
            }),
            _ => return Some(Err((err_at(e, piece), false))),
        },
    };
    if let Some(err) = failed {
        return Some(Err((err, false)));
    }
    Some(Ok(Doc {
        header,
        body: body_of(piece),
        span,
    }))
}

/// A list cut short (a file cut in the middle of an item) that starts at `at`: a
/// top-level list, or an object whose `items` list comes before the cut; the items read
/// before the cut, as a document. `None` when there is none.
fn salvage(text: &super::KeptText, at: usize, lines: &LineIndex) -> Option<Doc> {
    let bytes = text.as_bytes();
    let (list_at, header) = match bytes.get(at)? {
        b'[' => (
            at,
            Header {
                node: super::header::NodeType::List,
                ..Header::default()
            },
        ),
        b'{' => {
            let mut i = skip_ws(bytes, at + 1);
            let list_at = loop {
                let (key, len) = one::<String>(&text[i..])?;
                i = skip_ws(bytes, i + len);
                if bytes.get(i) != Some(&b':') {
                    return None;
                }
                i = skip_ws(bytes, i + 1);
                if key == "items" && bytes.get(i) == Some(&b'[') {
                    break i;
                }
                let (_, len) = one::<serde::de::IgnoredAny>(&text[i..])?;
                i = skip_ws(bytes, i + len);
                if bytes.get(i) != Some(&b',') {
                    return None;
                }
                i = skip_ws(bytes, i + 1);
            };
            // The members before the list, with the list empty.
            let outside = [&text[at..list_at], "[]}"].concat();
            let mut header: ItemHeader = serde_json::from_str(&outside).ok()?;
            header.items = None;
            (list_at, with_items(header, |_, _| unreachable!("no items")))
        }
        _ => return None,
    };
    let mut items = Vec::new();
    let mut i = skip_ws(bytes, list_at + 1);
    while let Some((header, len)) = one::<ItemHeader>(&text[i..]) {
        let piece = &text[i..i + len];
        items.push(Item {
            header,
            body: Some(body(text, piece)),
            span: lines.span_of(text, piece),
        });
        i = skip_ws(bytes, i + len);
        if bytes.get(i) != Some(&b',') {
            break;
        }
        i = skip_ws(bytes, i + 1);
    }
    let end = items.last()?.span.end;
    let start = lines.line_of(at);
    Some(Doc {
        header: Header {
            items: Some(items),
            ..header
        },
        body: Body::Tree(serde_json::Value::Null),
        span: Span { start, end },
    })
}

/// The first JSON value of `rest` as a `T`, and its length.
fn one<'a, T: serde::Deserialize<'a>>(rest: &'a str) -> Option<(T, usize)> {
    let mut values = serde_json::Deserializer::from_str(rest).into_iter::<T>();
    let value = values.next()?.ok()?;
    Some((value, values.byte_offset()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::json::without_managed_fields;

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
        let split = scan_split(&text).is_some();
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
        // Nesting past serde_json's recursion limit: read as its own path reads it.
        let deep = format!("{{\"items\": [{}{}]}}", "[".repeat(200), "]".repeat(200));
        let (fast, general, _) = both(&deep);
        assert_eq!(fast, general, "deep nesting");
    }

    /// A list cut in the middle of an item keeps the items before it, as YAML does.
    #[test]
    fn a_cut_list_keeps_its_whole_items() {
        for (text, kept) in [
            (
                "{\"apiVersion\": \"v1\", \"items\": [{\"kind\": \"Pod\"},\n{\"kind\": \"Node\"},\n{\"kind\": \"No",
                2,
            ),
            ("[{\"kind\": \"Pod\"}, {\"kind\": \"Po", 1),
            ("{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a", 0),
            ("{\"items\": {\"kind\": \"Pod\"", 0),
        ] {
            let (docs, err) = run(text);
            assert!(err.is_some(), "{text}");
            let items = docs
                .first()
                .and_then(|d| d.header.items.as_ref())
                .map_or(0, Vec::len);
            assert_eq!(items, kept, "{text}");
        }
        let (docs, _) = run(
            "{\"apiVersion\": \"v1\", \"items\": [{\"kind\": \"Pod\"},\n{\"kind\": \"Node\"},\n{\"kind\": \"No",
        );
        let items = docs[0].header.items.as_ref().unwrap();
        assert_eq!(items[1].header.kind.as_deref(), Some("Node"));
        assert_eq!(items[1].span, Span { start: 2, end: 2 });
        assert_eq!(docs[0].header.api_version.as_deref(), Some("v1"));
    }

    #[test]
    fn too_deep_is_where_serde_json_stops() {
        use crate::parse::json::{MAX_TREE_DEPTH, too_deep};
        for depth in [MAX_TREE_DEPTH - 1, MAX_TREE_DEPTH, MAX_TREE_DEPTH + 1] {
            let text = format!("{}\"]\"{}", "[".repeat(depth), "]".repeat(depth));
            let reads = serde_json::from_str::<serde_json::Value>(&text).is_ok();
            assert_eq!(too_deep(text.as_bytes()).is_none(), reads, "{depth}");
            assert_eq!(reads, depth <= MAX_TREE_DEPTH);
        }
        assert_eq!(
            too_deep(format!("{{\"a\":{}", "[".repeat(200)).as_bytes()),
            Some(131)
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

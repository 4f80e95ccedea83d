//! JSON files and streams of concatenated JSON values (`kubectl cluster-info dump`).
//!
//! serde_json gives no positions for nested values, so each top-level value (and each
//! element of its `items` list) is first taken as a borrowed `RawValue`: its slice's
//! offset in the file gives its line range and its body's byte range. Only a header is
//! read of each piece; views deserialize from the range later. serde_json skips values
//! without recursing, and its recursion limit bounds the trees a rule asks for.

use super::body::Body;
use super::header::{Header, ItemHeader};
use super::objects::{Doc, Item, with_items};
use super::parsed::{ParseError, Span};
use serde_json::value::RawValue;

/// Reads the headers of every top-level JSON value of `text` (and of its `items`),
/// leaving their content as text. On a syntax error the values read before it are
/// returned with the error.
pub fn scan(text: &super::KeptText) -> (Vec<Doc>, Option<ParseError>) {
    let lines = LineIndex::new(text);
    let mut docs = Vec::new();
    let stream = serde_json::Deserializer::from_str(text).into_iter::<&RawValue>();
    for raw in stream {
        let raw = match raw {
            Ok(raw) => raw,
            Err(e) => return (docs, Some(json_error(&e, text, &lines))),
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
        let body_of = |piece: &str| {
            let start = piece.as_ptr() as usize - text.as_ptr() as usize;
            Body::Json {
                text: text.clone(),
                start,
                end: start + piece.len(),
            }
        };
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
/// path, this drops the key wherever it appears; nothing reads it.
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
        let skip_ws = |mut i: usize| {
            while bytes.get(i).is_some_and(|b| b" \t\r\n".contains(b)) {
                i += 1;
            }
            i
        };
        let colon = skip_ws(at + KEY.len());
        if bytes.get(colon) != Some(&b':') {
            continue;
        }
        let mut de = serde_json::Deserializer::from_str(&text[colon + 1..]);
        let Ok(value) = <&RawValue as serde::Deserialize>::deserialize(&mut de) else {
            continue;
        };
        let value_end = value.get().as_ptr() as usize - text.as_ptr() as usize + value.get().len();
        let comma = skip_ws(value_end);
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

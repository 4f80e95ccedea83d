//! A fast path for the regular block-style YAML that kubectl and must-gather write.
//!
//! It handles block mappings and sequences (including sequences at their key's
//! indentation), plain, single- and double-quoted scalars (also folded over several
//! lines, as go-yaml wraps long strings), literal and folded block scalars, `{}`, `[]`,
//! comments on their own line and `---` separators — and drops `managedFields` by
//! skipping its lines. Anything else (anchors, aliases, tags, flow collections with
//! content, complex keys, tabs, trailing comments) returns [`Unsupported`] and the caller
//! uses the general parser ([`super::yaml`]) for the whole file. A differential test
//! checks that both give the same documents on every file they both accept.

use super::parsed::{ParsedDoc, Span};
use super::yaml::plain_scalar;
use serde_json::{Map, Value};

/// The file uses YAML this fast path does not handle; use the general parser.
#[derive(Debug, PartialEq, Eq)]
pub struct Unsupported(pub &'static str, pub u32);

type R<T> = Result<T, Unsupported>;

/// Deepest nesting the fast path follows before handing the file to the general parser.
const MAX_DEPTH: usize = 120;

/// Parses every document of `text`, or says it cannot.
pub fn parse(text: &str) -> R<Vec<ParsedDoc>> {
    let mut p = Parser::new(text);
    let mut docs = Vec::new();
    loop {
        p.skip_blank();
        let Some(line) = p.peek() else { break };
        let content = line.content;
        if content == "---" || content.starts_with("--- ") {
            if content.len() > 3 && !content[3..].trim().is_empty() {
                return Err(Unsupported("content after ---", line.no));
            }
            p.advance();
            continue;
        }
        if content == "..." {
            p.advance();
            continue;
        }
        if content.starts_with('%') {
            return Err(Unsupported("directive", line.no));
        }
        if line.indent != 0 {
            return Err(Unsupported("indented document", line.no));
        }
        let start = line.no;
        p.item_spans = None;
        p.depth = 0;
        let value = p.node(0, true)?;
        let end = p.last_content_line.max(start);
        docs.push(ParsedDoc {
            value,
            span: Span { start, end },
            item_spans: p.item_spans.take().unwrap_or_default(),
        });
        // After a document, only a separator may follow at column 0.
        p.skip_blank();
        if let Some(l) = p.peek()
            && !(l.content == "---" || l.content.starts_with("--- ") || l.content == "...")
        {
            return Err(Unsupported("unexpected content after document", l.no));
        }
    }
    Ok(docs)
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
    item_spans: Option<Vec<Span>>,
    /// The line starting at `.0`, so each line is scanned once however often it is peeked.
    cache: Option<(usize, Line<'a>)>,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> Self {
        Parser {
            src,
            pos: 0,
            line_no: 1,
            last_content_line: 0,
            depth: 0,
            item_spans: None,
            cache: None,
        }
    }

    /// The line at the cursor (may be blank or a comment); computed once per line.
    fn raw(&mut self) -> Option<Line<'a>> {
        if let Some((pos, line)) = self.cache
            && pos == self.pos
        {
            return Some(line);
        }
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
        let l = self.raw()?;
        Some(l)
    }

    /// A block node whose first line is at the cursor with indentation `indent`.
    fn node(&mut self, indent: usize, top: bool) -> R<Value> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Unsupported("deep nesting", self.line_no));
        }
        let line = self
            .peek()
            .ok_or(Unsupported("unexpected end", self.line_no))?;
        check_line(&line)?;
        let v = if is_seq_entry(line.content) {
            self.sequence(line.indent, top)?
        } else if split_key(line.content, line.no)?.is_some() {
            self.mapping(line.indent, top)?
        } else {
            // A scalar document or a scalar on its own line.
            self.advance();
            self.scalar(line.content, indent, line.no)?
        };
        self.depth -= 1;
        Ok(v)
    }

    /// Entries of a block mapping whose keys sit at `indent`.
    fn mapping(&mut self, indent: usize, top: bool) -> R<Value> {
        let mut map = Map::new();
        while let Some(line) = self.peek() {
            if line.indent != indent || is_seq_entry(line.content) || is_doc_marker(&line) {
                if line.indent > indent {
                    return Err(Unsupported("unexpected indentation", line.no));
                }
                break;
            }
            check_line(&line)?;
            let Some((key, rest)) = split_key(line.content, line.no)? else {
                return Err(Unsupported("expected a key", line.no));
            };
            self.advance();
            let value = self.value_after_key(
                indent,
                rest,
                line.no,
                top && key == "items",
                key == "managedFields",
            )?;
            if let Some(v) = value {
                map.insert(key, v);
            }
        }
        Ok(Value::Object(map))
    }

    /// The value of `key:` whose key line was just consumed; `None` when dropped.
    fn value_after_key(
        &mut self,
        indent: usize,
        rest: &'a str,
        line_no: u32,
        objects_list: bool,
        drop: bool,
    ) -> R<Option<Value>> {
        if !rest.is_empty() {
            if drop {
                self.skip_continuation(indent);
                return Ok(None);
            }
            return self.inline_value(rest, indent, line_no).map(Some);
        }
        // Value on the following lines: more indented, or a sequence at the same column.
        let Some(next) = self.peek() else {
            return Ok(Some(Value::Null));
        };
        let nested = next.indent > indent || (next.indent == indent && is_seq_entry(next.content));
        if !nested {
            return Ok(Some(Value::Null));
        }
        if drop {
            self.skip_block(indent);
            return Ok(None);
        }
        if objects_list && is_seq_entry(next.content) {
            self.item_spans = Some(Vec::new());
            let v = self.sequence_tracked(next.indent)?;
            return Ok(Some(v));
        }
        self.node(next.indent, false).map(Some)
    }

    /// Skips the lines of a dropped block value (`managedFields:`).
    fn skip_block(&mut self, indent: usize) {
        while let Some(l) = self.peek() {
            if l.indent > indent || (l.indent == indent && is_seq_entry(l.content)) {
                self.advance();
            } else {
                break;
            }
        }
    }

    /// Skips continuation lines of a dropped inline value.
    fn skip_continuation(&mut self, indent: usize) {
        while let Some(l) = self.peek() {
            if l.indent > indent {
                self.advance();
            } else {
                break;
            }
        }
    }

    fn sequence(&mut self, indent: usize, top: bool) -> R<Value> {
        if top {
            self.item_spans = Some(Vec::new());
            return self.sequence_tracked(indent);
        }
        let mut items = Vec::new();
        while let Some(line) = self.peek() {
            if line.indent != indent || !is_seq_entry(line.content) {
                if line.indent > indent {
                    return Err(Unsupported("unexpected indentation", line.no));
                }
                break;
            }
            items.push(self.seq_item(line)?);
        }
        Ok(Value::Array(items))
    }

    /// A sequence whose items are the document's objects: remembers each item's lines.
    fn sequence_tracked(&mut self, indent: usize) -> R<Value> {
        let mut items = Vec::new();
        let mut spans = Vec::new();
        while let Some(line) = self.peek() {
            if line.indent != indent || !is_seq_entry(line.content) {
                if line.indent > indent {
                    return Err(Unsupported("unexpected indentation", line.no));
                }
                break;
            }
            let v = self.seq_item(line)?;
            spans.push(Span {
                start: line.no,
                end: self.last_content_line.max(line.no),
            });
            items.push(v);
        }
        self.item_spans = Some(spans);
        Ok(Value::Array(items))
    }

    /// One `- …` entry at the cursor.
    fn seq_item(&mut self, line: Line<'a>) -> R<Value> {
        check_line(&line)?;
        let after = line.content[1..].trim_start_matches(' ');
        let col = line.indent + (line.content.len() - after.len());
        if after.is_empty() {
            self.advance();
            let Some(next) = self.peek() else {
                return Ok(Value::Null);
            };
            if next.indent > line.indent {
                return self.node(next.indent, false);
            }
            return Ok(Value::Null);
        }
        if is_seq_entry(after) {
            return Err(Unsupported("nested inline sequence", line.no));
        }
        if let Some((key, rest)) = split_key(after, line.no)? {
            // `- key: value` opens a mapping whose keys sit at `col`.
            self.advance();
            let mut map = Map::new();
            if let Some(v) =
                self.value_after_key(col, rest, line.no, false, key == "managedFields")?
            {
                map.insert(key, v);
            }
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return Err(Unsupported("deep nesting", line.no));
            }
            let more = self.mapping(col, false)?;
            self.depth -= 1;
            if let Value::Object(m) = more {
                for (k, v) in m {
                    map.insert(k, v);
                }
            }
            return Ok(Value::Object(map));
        }
        self.advance();
        self.inline_value(after, line.indent, line.no)
    }

    /// A value written after `key: ` or `- `: a scalar (maybe continued on more
    /// indented lines), `{}`, `[]`, or a block scalar header.
    fn inline_value(&mut self, text: &'a str, parent_indent: usize, line_no: u32) -> R<Value> {
        match text.as_bytes()[0] {
            b'|' | b'>' => self.block_scalar(text, parent_indent, line_no),
            b'{' | b'[' => match text {
                "{}" => Ok(Value::Object(Map::new())),
                "[]" => Ok(Value::Array(Vec::new())),
                _ => Err(Unsupported("flow collection", line_no)),
            },
            _ => self.scalar(text, parent_indent, line_no),
        }
    }

    /// A plain or quoted scalar starting with `first`, folding continuation lines
    /// indented deeper than `parent_indent`.
    fn scalar(&mut self, first: &'a str, parent_indent: usize, line_no: u32) -> R<Value> {
        let quote = first.as_bytes()[0];
        if matches!(quote, b'&' | b'*' | b'!' | b'?' | b'%' | b'@' | b'`') {
            return Err(Unsupported(
                "anchor, alias, tag or reserved indicator",
                line_no,
            ));
        }
        if quote == b'"' || quote == b'\'' {
            return self.quoted(first, parent_indent, line_no);
        }
        if first.contains(" #") || first.contains('\t') {
            return Err(Unsupported("comment or tab in plain scalar", line_no));
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
            if l.content.contains(": ") || l.content.ends_with(':') || l.content.contains(" #") {
                return Err(Unsupported("ambiguous plain continuation", l.no));
            }
            let s = text.get_or_insert_with(|| first.trim_end().to_string());
            if pending_breaks == 0 {
                s.push(' ');
            } else {
                for _ in 0..pending_breaks {
                    s.push('\n');
                }
            }
            pending_breaks = 0;
            s.push_str(l.content.trim_end());
            self.advance();
        }
        if pending_breaks > 0 {
            // Blank lines were consumed past the scalar; keep line numbers consistent.
            self.rewind_blank(pending_breaks);
        }
        Ok(match text {
            None => plain_scalar(first.trim_end()),
            Some(s) => Value::String(s),
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

    fn quoted(&mut self, first: &'a str, parent_indent: usize, line_no: u32) -> R<Value> {
        let q = first.as_bytes()[0];
        let mut out = String::new();
        // Current chunk of text to scan, starting after the opening quote.
        let mut chunk: &str = &first[1..];
        loop {
            let mut closed_at = None;
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
                        out.push('\u{0}');
                        break;
                    }
                    let (ch, used) =
                        unescape(&chunk[i + 1..]).ok_or(Unsupported("escape", line_no))?;
                    out.push_str(&ch);
                    i += 1 + used;
                    segment_start = i;
                    continue;
                }
                i += 1;
            }
            if let Some(end) = closed_at {
                out.push_str(&chunk[segment_start..end]);
                let after = chunk[end + 1..].trim();
                if !after.is_empty() {
                    return Err(Unsupported("text after closing quote", line_no));
                }
                return Ok(Value::String(out.replace('\u{0}', "")));
            }
            // Multi-line quoted scalar: fold line breaks.
            let joined_without_space = out.ends_with('\u{0}');
            if !joined_without_space {
                let seg = &chunk[segment_start..];
                // Line content starts after its indentation; only trailing blanks fold away.
                out.push_str(seg.trim_end_matches([' ', '\t']));
            }
            let mut breaks = 0;
            let next = loop {
                let Some(l) = self.raw() else {
                    return Err(Unsupported("unterminated quoted scalar", line_no));
                };
                if l.content.is_empty() {
                    breaks += 1;
                    self.pos = l.next;
                    self.line_no += 1;
                    continue;
                }
                if l.indent <= parent_indent {
                    return Err(Unsupported("quoted scalar continuation not indented", l.no));
                }
                break l;
            };
            if out.ends_with('\u{0}') {
                out.pop();
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
    fn block_scalar(&mut self, header: &'a str, parent_indent: usize, line_no: u32) -> R<Value> {
        let literal = header.starts_with('|');
        let mut chomp = 'c';
        let mut explicit: Option<usize> = None;
        for ch in header[1..].chars() {
            match ch {
                '-' | '+' => chomp = ch,
                '1'..='9' => explicit = Some(ch as usize - '0' as usize),
                _ => return Err(Unsupported("block scalar header", line_no)),
            }
        }
        let mut lines: Vec<&str> = Vec::new();
        let mut block_indent = explicit.map(|e| parent_indent + e);
        while let Some(l) = self.raw() {
            let body = &self.src[self.pos..l.next];
            let body = body.strip_suffix('\n').unwrap_or(body);
            let body = body.strip_suffix('\r').unwrap_or(body);
            if l.content.is_empty() {
                lines.push("");
                self.pos = l.next;
                self.line_no += 1;
                continue;
            }
            let bi = *block_indent.get_or_insert(l.indent);
            if l.indent < bi || l.indent <= parent_indent {
                break;
            }
            if body.contains('\t') && l.indent < bi {
                return Err(Unsupported("tab in block scalar", l.no));
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
            // Folded: single breaks between non-indented lines become spaces.
            let mut prev_more_indented = false;
            let mut empties = 0;
            for (i, l) in content.iter().enumerate() {
                if l.is_empty() {
                    empties += 1;
                    continue;
                }
                let more = l.starts_with(' ');
                if i > 0 {
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
        Ok(Value::String(s))
    }
}

fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&b| b == needle)
}

/// `---` or `...` at column 0 ends a document.
fn is_doc_marker(line: &Line) -> bool {
    line.indent == 0
        && (line.content == "---" || line.content.starts_with("--- ") || line.content == "...")
}

fn is_seq_entry(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

fn check_line(line: &Line) -> R<()> {
    if line.content.starts_with('\t') {
        return Err(Unsupported("tab indentation", line.no));
    }
    Ok(())
}

/// Splits `key: rest` / `key:`; `None` when the line is not a mapping entry.
fn split_key(content: &str, line_no: u32) -> R<Option<(String, &str)>> {
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
                    return Err(Unsupported("escaped key", line_no));
                }
                let key = if q == b'\'' {
                    raw.replace("''", "'")
                } else {
                    raw.to_string()
                };
                return Ok(Some((key, after[1..].trim_start_matches(' '))));
            }
            Ok(None)
        }
        b'{' | b'[' | b'&' | b'*' | b'!' | b'?' | b'|' | b'>' | b'%' | b'@' | b'`' => {
            if b[0] == b'?' {
                return Err(Unsupported("complex key", line_no));
            }
            Ok(None)
        }
        _ => {
            let colon = content
                .find(": ")
                .or_else(|| content.ends_with(':').then(|| content.len() - 1));
            let Some(i) = colon else { return Ok(None) };
            if i == 0 {
                // `: value` is an empty (null) key: legal YAML, never kubectl's.
                return Err(Unsupported("empty key", line_no));
            }
            let key = &content[..i];
            if key.contains(" #") || key.ends_with(' ') {
                return Err(Unsupported("odd key", line_no));
            }
            let rest = content[i + 1..].trim_start_matches(' ');
            if rest.starts_with('#') {
                return Err(Unsupported("trailing comment", line_no));
            }
            Ok(Some((key.to_string(), rest)))
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
        let crash = include_bytes!("../../fuzz/regressions/yaml_loader-empty-key.yaml");
        let text = std::str::from_utf8(crash).unwrap();
        if let (Ok(fast), (general, None)) = (parse(text), super::super::yaml::parse(text)) {
            let fast: Vec<_> = fast.into_iter().map(|d| d.value).collect();
            let general: Vec<_> = general.into_iter().map(|d| d.value).collect();
            assert_eq!(fast, general);
        }
    }

    #[test]
    fn managed_fields_skipped() {
        let docs = parse("metadata:\n  managedFields:\n  - a: 1\n    b:\n      c: {}\n  name: x\n")
            .unwrap();
        assert_eq!(docs[0].value, json!({"metadata": {"name": "x"}}));
    }
}

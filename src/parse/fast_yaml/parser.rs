//! The cursor over the text: lines, indentation and the shape of the node at each place.

use super::lex::{BLANK, check_line, is_seq_entry, memchr, split_key, trim_end_blank, unescape};
use super::{Error, ItemPos, Managed, R, unsupported};
use crate::parse::line_check::{comment_or_tab, key_colon, skip_spaces};
use crate::parse::redaction;
use std::borrow::Cow;

#[derive(Clone, Copy)]
pub(super) struct Line<'a> {
    /// 1-based line number.
    pub(super) no: u32,
    pub(super) indent: usize,
    /// The line without indentation and without the trailing newline / `\r`.
    pub(super) content: &'a str,
    /// Byte offset just after this line's newline.
    pub(super) next: usize,
}

pub(super) struct Parser<'a> {
    pub(super) src: &'a str,
    pub(super) pos: usize,
    pub(super) line_no: u32,
    pub(super) last_content_line: u32,
    pub(super) depth: usize,
    /// Spans of the current document's objects list, once known.
    pub(super) item_spans: Option<Vec<ItemPos>>,
    /// Skip values the target type ignores by indentation instead of parsing them
    /// (only for text already checked by [`documents`]).
    pub(super) skip_ignored: bool,
    /// Ingest's header scan: values the target ignores are checked line by line (see
    /// [`crate::parse::line_check`]) instead of parsed, falling back to parsing when a line fails.
    pub(super) check_lines: bool,
    /// Open collections of the value [`Parser::skip_checked`] is checking (kept to reuse
    /// its allocation).
    pub(super) levels: Vec<(usize, bool)>,
    /// The line starting at `.0`, so each line is scanned once however often it is peeked.
    pub(super) cache: Option<(usize, Line<'a>)>,
    /// Byte ranges of the `managedFields:` blocks skipped, each from the start of its key
    /// line (see [`compact`]).
    pub(super) managed: Vec<Managed>,
}

/// A cursor position to go back to ([`Parser::rewind`]).
#[derive(Clone, Copy)]
pub(super) struct Mark {
    pub(super) pos: usize,
    pub(super) line_no: u32,
    pub(super) last_content_line: u32,
    pub(super) depth: usize,
    pub(super) managed: usize,
}

/// What the cursor is at, before its shape is known.
#[derive(Clone)]
pub(super) enum At<'a> {
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
pub(super) enum Shape<'a> {
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
    pub(super) fn new(src: &'a str, pos: usize, line_no: u32) -> Self {
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
    pub(super) fn raw(&mut self) -> Option<Line<'a>> {
        if let Some((pos, line)) = self.cache
            && pos == self.pos
        {
            return Some(line);
        }
        self.scan_and_cache()
    }

    #[inline(never)]
    pub(super) fn scan_and_cache(&mut self) -> Option<Line<'a>> {
        let line = self.scan_line()?;
        self.cache = Some((self.pos, line));
        Some(line)
    }

    pub(super) fn scan_line(&self) -> Option<Line<'a>> {
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
    pub(super) fn mark(&self) -> Mark {
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
    pub(super) fn rewind(&mut self, mark: Mark) {
        self.pos = mark.pos;
        self.line_no = mark.line_no;
        self.last_content_line = mark.last_content_line;
        self.depth = mark.depth;
        self.managed.truncate(mark.managed);
    }

    pub(super) fn advance(&mut self) {
        if let Some(l) = self.raw() {
            if !l.content.is_empty() && !l.content.starts_with('#') {
                self.last_content_line = l.no;
            }
            self.pos = l.next;
            self.line_no += 1;
        }
    }

    /// Skips blank and comment lines.
    pub(super) fn skip_blank(&mut self) {
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
    pub(super) fn peek(&mut self) -> Option<Line<'a>> {
        self.skip_blank();
        self.raw()
    }

    /// Reads the first lines of the node at `at`, leaving the cursor at its entries.
    pub(super) fn shape(&mut self, at: At<'a>) -> R<Shape<'a>> {
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
    pub(super) fn skip_after_key(&mut self, indent: usize, rest: &str) {
        if rest.is_empty() {
            self.skip_block(indent);
        } else {
            self.skip_continuation(indent);
        }
    }

    /// Skips the lines of a block value (`managedFields:`).
    pub(super) fn skip_block(&mut self, indent: usize) {
        self.skip_lines(indent, true);
    }

    /// Skips continuation lines of an inline value.
    pub(super) fn skip_continuation(&mut self, indent: usize) {
        self.skip_lines(indent, false);
    }

    /// Skips blank and comment lines and lines indented deeper than `indent` (and `- `
    /// entries at `indent` when `seq_at_indent`), stopping at the first other line: what
    /// `peek` and `advance` would do line by line, on the bytes, as skipping is most of
    /// the lines of a view.
    pub(super) fn skip_lines(&mut self, indent: usize, seq_at_indent: bool) {
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
    pub(super) fn skip_checked(&mut self, indent: usize, rest: &str) -> bool {
        use crate::parse::line_check::{Value, check_line, comment_or_tab, value};
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
                    if levels.len() > super::MAX_DEPTH {
                        // Nesting the fast path does not follow (the value's own levels
                        // alone are past it): parsed, so that the general parser reads the
                        // file and says at ingest what it cannot read, not later when the
                        // object is printed.
                        return false;
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
    pub(super) fn inline_value(
        &mut self,
        text: &'a str,
        parent_indent: usize,
        line_no: u32,
    ) -> R<Shape<'a>> {
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
    pub(super) fn scalar(
        &mut self,
        first: &'a str,
        parent_indent: usize,
        line_no: u32,
    ) -> R<Shape<'a>> {
        let quote = first.as_bytes()[0];
        if quote == b'*' && first.starts_with(redaction::PLACEHOLDER) {
            // troubleshoot's redaction, not an alias: the general parser reads it so too.
            // Followed by `: `, it is a key (refused by `split_key`): left to that parser.
            if key_colon(first.as_bytes()).is_some() {
                return unsupported("redaction placeholder as a key", line_no);
            }
            redaction::note();
        } else if matches!(quote, b'&' | b'*' | b'!' | b'?' | b'%' | b'@' | b'`') {
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
    pub(super) fn rewind_blank(&mut self, n: usize) {
        for _ in 0..n {
            let before = &self.src[..self.pos.saturating_sub(1)];
            let start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
            self.pos = start;
            self.line_no -= 1;
        }
    }

    pub(super) fn quoted(
        &mut self,
        first: &'a str,
        parent_indent: usize,
        line_no: u32,
    ) -> R<Cow<'a, str>> {
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
    pub(super) fn block_scalar(
        &mut self,
        header: &'a str,
        parent_indent: usize,
        line_no: u32,
    ) -> R<String> {
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

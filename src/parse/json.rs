//! JSON text without a tree: where a value ends (brackets matched eight bytes at a time),
//! `managedFields` members taken out line for line, and byte offsets as line numbers.
//! What the values mean is ingest's (`ingest::json`); serde_json reads them.

use super::spans::{ParseError, Span};
use std::ops::Range;

/// Deeper nesting is left to serde_json, which refuses it (its recursion limit).
const MAX_DEPTH: usize = 128;

/// The end of the JSON value starting at `at`, by matching brackets without checking the
/// rest of the grammar: strings are skipped to their closing quote, and every closing
/// bracket must match its opening one. `None` when the text ends first or brackets do
/// not pair up. Exact on valid JSON.
pub fn value_end(bytes: &[u8], at: usize) -> Option<usize> {
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
pub fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    loop {
        // Most strings (keys, short values) end within a few words: look at those eight
        // bytes at a time before calling memchr, which pays off only on long strings.
        i = match find_in_words(bytes, i, 3, |w| has_byte(w, b'"') | has_byte(w, b'\\')) {
            Ok(found) => found,
            Err(from) => from + memchr::memchr2(b'"', b'\\', bytes.get(from..)?)?,
        };
        if *bytes.get(i)? == b'"' {
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

/// The first quote or bracket at or after `i` (or the end): eight bytes at a time over
/// indentation and scalars, then byte by byte over the tail.
fn next_structural(bytes: &[u8], i: usize) -> usize {
    const CASE: u64 = u64::from_ne_bytes([0x20; 8]);
    // `[` and `]` differ from `{` and `}` only in bit 5, and no other byte becomes either.
    let structural =
        |w: u64| has_byte(w, b'"') | has_byte(w | CASE, b'{') | has_byte(w | CASE, b'}');
    match find_in_words(bytes, i, usize::MAX, structural) {
        Ok(found) => found,
        Err(mut i) => {
            while i < bytes.len() && !STRUCTURAL[bytes[i] as usize] {
                i += 1;
            }
            i
        }
    }
}

/// The first byte at or after `i` flagged by `mask` (see [`has_byte`]), looking at up to
/// `words` whole eight-byte words: `Ok(index)`, or `Err(where the words ended)`.
#[inline(always)]
fn find_in_words(
    bytes: &[u8],
    mut i: usize,
    words: usize,
    mask: impl Fn(u64) -> u64,
) -> Result<usize, usize> {
    for _ in 0..words {
        let Some(word) = bytes.get(i..i + 8) else {
            break;
        };
        let m = mask(u64::from_le_bytes(word.try_into().expect("eight bytes")));
        if m != 0 {
            return Ok(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    Err(i)
}

/// The high bit of each byte of `word` (little-endian) that may equal `b`: the lowest one
/// set is exact (a borrow only moves up from a byte that does equal `b`), which is all
/// [`find_in_words`] reads.
#[inline(always)]
fn has_byte(word: u64, b: u8) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let x = word ^ (ONES * u64::from(b));
    x.wrapping_sub(ONES) & !x & HIGH
}

fn container_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut closers: Vec<u8> = Vec::with_capacity(16);
    let mut i = at;
    loop {
        i = next_structural(bytes, i);
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

/// The deepest nesting serde_json reads a value with (its recursion limit): an object
/// with more collections inside one another than this does not read as a tree.
pub const MAX_TREE_DEPTH: usize = 127;

/// The offset of the bracket where the JSON value `bytes` starts with nests deeper than
/// [`MAX_TREE_DEPTH`], if it does (brackets matched as [`value_end`] matches them).
pub fn too_deep(bytes: &[u8]) -> Option<usize> {
    // Nesting deeper than the limit takes more opening brackets than the limit, strings
    // or not: counting them (a loop the compiler vectorizes) spares most objects the
    // walk below, which matched their brackets a second time (+7.7% of the CPU of a
    // List of small pods).
    if opening_brackets(bytes) <= MAX_TREE_DEPTH {
        return None;
    }
    let mut depth = 0usize;
    let mut i = 0;
    loop {
        i = next_structural(bytes, i);
        match *bytes.get(i)? {
            b'"' => {
                i = string_end(bytes, i)?;
                continue;
            }
            b'{' | b'[' => {
                depth += 1;
                if depth > MAX_TREE_DEPTH {
                    return Some(i);
                }
            }
            _ => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return None;
                }
            }
        }
        i += 1;
    }
}

/// How many `{` and `[` bytes `bytes` holds, anywhere.
fn opening_brackets(bytes: &[u8]) -> usize {
    // `[` and `{` differ only in bit 5, and no other byte becomes `{` with it set.
    bytes.iter().filter(|&&b| b | 0x20 == b'{').count()
}

pub fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while bytes
        .get(i)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    {
        i += 1;
    }
    i
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
    Some(crate::parse::fast_yaml::blank_out(text, &ranges, "").0)
}

pub fn json_error(e: &serde_json::Error, _text: &str, _lines: &LineIndex) -> ParseError {
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

/// Line numbers of offsets asked in increasing order, counting line breaks from the last
/// one asked: the fast path's items come in order, and a line index of the whole file
/// (every line start) cost more than reading its headers.
pub struct LineCounter<'a> {
    bytes: &'a [u8],
    at: usize,
    line: u32,
}

impl<'a> LineCounter<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        LineCounter {
            bytes,
            at: 0,
            line: 1,
        }
    }

    /// 1-based line of `offset`, which is not before the last one asked.
    pub fn line_of(&mut self, offset: usize) -> u32 {
        let to = offset.clamp(self.at, self.bytes.len());
        // memchr counts with vector instructions (`Memchr::count`).
        let breaks = memchr::memchr_iter(b'\n', &self.bytes[self.at..to]).count();
        self.line += breaks as u32;
        self.at = to;
        self.line
    }

    /// Lines of the bytes in `range` (not empty).
    pub fn span_of(&mut self, range: Range<usize>) -> Span {
        Span {
            start: self.line_of(range.start),
            end: self.line_of(range.end.saturating_sub(1).max(range.start)),
        }
    }
}

fn memchr_newlines(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'\n', bytes).map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time searches find what a byte-by-byte search finds, from every
    /// start, with every byte value before, at and after a match.
    #[test]
    fn word_searches_match_byte_searches() {
        let mut bytes: Vec<u8> = (0..=255u8).collect();
        bytes.extend(b"  \"ab\\\"c\" x {[ ]} \xc3\xa9 ,: 12 ".iter());
        bytes.extend((0..=255u8).rev());
        bytes.extend(b"\"tail");
        for i in 0..=bytes.len() {
            let naive = (i..bytes.len())
                .find(|&j| STRUCTURAL[bytes[j] as usize])
                .unwrap_or(bytes.len());
            assert_eq!(next_structural(&bytes, i), naive, "from {i}");
            if i < bytes.len() {
                let mut j = i + 1;
                let naive = loop {
                    match bytes.get(j) {
                        Some(b'"') => break Some(j + 1),
                        Some(b'\\') => j += 2,
                        Some(_) => j += 1,
                        None => break None,
                    }
                };
                assert_eq!(string_end(&bytes, i), naive, "string from {i}");
            }
        }
    }

    /// The count that lets `too_deep` skip its walk counts `{` and `[` and nothing else,
    /// and a value with brackets in its strings is still walked exactly.
    #[test]
    fn bracket_count_bounds_the_walk() {
        let bytes: Vec<u8> = (0..=255u8).collect();
        assert_eq!(opening_brackets(&bytes), 2);
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert_eq!(too_deep(deep(MAX_TREE_DEPTH).as_bytes()), None);
        assert_eq!(
            too_deep(deep(MAX_TREE_DEPTH + 1).as_bytes()),
            Some(MAX_TREE_DEPTH)
        );
        let in_strings = format!("{{\"a\": \"{}\"}}", "{[".repeat(100));
        assert_eq!(too_deep(in_strings.as_bytes()), None);
    }
}

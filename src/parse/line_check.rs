//! Line-by-line checks for the values ingest does not read.
//!
//! Ingest reads an object's identity and skips the rest (`spec`, `status`, most of
//! `metadata`). Parsing what it skips through the fast path's full grammar was half of
//! ingest; instead each skipped line is checked on its own: a line passes when it holds
//! only constructs that cannot reach past their own line (plain scalars, quoted scalars
//! closed on the line, `{}`, `[]`, `key:` and `- ` prefixes) or starts a block scalar,
//! whose content lines are not looked at. The value ends, as in the full grammar, at the
//! first line indented no deeper than its key, so a value that passes has the extent the
//! full grammar gives it. Anything else — anchors, aliases, tags, flow collections with
//! content, quoted scalars continued on the next line, comments, tabs — fails, and the
//! caller parses that value with the full grammar (which takes the general parser for the
//! document or List item when it must). What this does not check is the inner structure of a skipped value
//! (whether its keys line up): a view that reads such a value parses it then, and an
//! object the fast path cannot read is read by the general parser (see `Body`).

/// What a line that passes holds; columns count from the start of its content.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// A sequence entry (`- …`).
    pub item: bool,
    /// Where its key starts, when the line (after any `- `) is a `key:` entry.
    pub key: Option<usize>,
    /// The value goes on below, on lines deeper than this column: a nested collection
    /// (`key:`, `-`) or, when `block_scalar`, a block scalar's text.
    pub opens: Option<usize>,
    pub block_scalar: bool,
}

/// What a value after `key: ` or `- ` is.
#[derive(Debug, PartialEq, Eq)]
pub enum Value {
    /// Nothing: the value is on the following lines.
    Below,
    /// A scalar, `{}` or `[]` closed on this line.
    Scalar,
    /// A block scalar header (`|`, `>-`, …): its text is on the following lines.
    BlockScalar,
}

/// Checks one line's content (without its indentation or line break): `None` when it is
/// not checkable on its own, and the value must be parsed.
pub fn check_line(content: &str) -> Option<Shape> {
    let b = content.as_bytes();
    // Where the key's colon is, in the same pass that refuses tabs and comments.
    let colon = key_colon_unless_comment(b)?;
    if b == b"-" {
        return Some(Shape {
            item: true,
            opens: Some(0),
            ..Shape::default()
        });
    }
    // One `- ` per line (nested inline sequences are refused by the fast path).
    let mut col = 0;
    if b.starts_with(b"- ") {
        col = 2 + b[2..].iter().take_while(|&&c| c == b' ').count();
        if col == b.len() || content[col..].starts_with('-') {
            return None;
        }
    }
    let item = col > 0;
    let s = &content[col..];
    let keyed = |v: &str| {
        Some(match value(skip_spaces(v))? {
            Value::Below => Shape {
                item,
                key: Some(col),
                opens: Some(col),
                block_scalar: false,
            },
            Value::Scalar => Shape {
                item,
                key: Some(col),
                ..Shape::default()
            },
            Value::BlockScalar => Shape {
                item,
                key: Some(col),
                opens: Some(col),
                block_scalar: true,
            },
        })
    };
    match s.as_bytes()[0] {
        b'"' | b'\'' => {
            let end = closing_quote(s)?;
            let after = &s[end + 1..];
            if after.bytes().all(|c| c == b' ') {
                return Some(Shape {
                    item,
                    ..Shape::default()
                });
            }
            // A quoted key.
            match after.strip_prefix(':') {
                Some(v) if v.is_empty() || v.starts_with(' ') => keyed(v),
                _ => None,
            }
        }
        // `- ` and the spaces after it hold no colon.
        _ => match colon.map(|i| i - col) {
            // A merge key (`<<:`) is parsed: the general parser applies it.
            Some(i) if i > 0 && !starts_special(s) && !(i == 2 && s.starts_with("<<")) => {
                keyed(&s[i + 1..])
            }
            Some(_) => None,
            // A scalar item, or a scalar on a line of its own.
            None => match value(s)? {
                Value::Scalar => Some(Shape {
                    item,
                    ..Shape::default()
                }),
                Value::BlockScalar => Some(Shape {
                    item,
                    opens: Some(col),
                    block_scalar: true,
                    ..Shape::default()
                }),
                Value::Below => None,
            },
        },
    }
}

/// First characters that make a scalar or key something other than plain text.
const SPECIAL: &[u8] = b"[]{}&*!?|>%@`#,\"'";

/// [`SPECIAL`] as a table, as every checked line asks.
const IS_SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < SPECIAL.len() {
        table[SPECIAL[i] as usize] = true;
        i += 1;
    }
    table
};

/// Whether `s` starts with a [`SPECIAL`] character (all ASCII, so its first byte tells).
fn starts_special(s: &str) -> bool {
    s.as_bytes()
        .first()
        .is_some_and(|&c| IS_SPECIAL[c as usize])
}

/// Checks a value written after `key: ` or `- `: `None` when it may go on past its line
/// in a way only parsing tells (a quoted scalar not closed on it, a flow collection).
pub fn value(v: &str) -> Option<Value> {
    let Some(&first) = v.as_bytes().first() else {
        return Some(Value::Below);
    };
    match first {
        b'"' | b'\'' => match closing_quote(v) {
            Some(end) if v[end + 1..].bytes().all(|c| c == b' ') => Some(Value::Scalar),
            _ => None,
        },
        b'[' | b'{' if v == "[]" || v == "{}" => Some(Value::Scalar),
        b'|' | b'>' if matches!(&v[1..], "" | "-" | "+") => Some(Value::BlockScalar),
        b'-' if v == "-" || v.starts_with("- ") => None,
        _ if starts_special(v) => None,
        _ => Some(Value::Scalar),
    }
}

/// Offset of the quote closing the quoted scalar `s` starts with, on this line.
fn closing_quote(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let q = b[0];
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'\\' if q == b'"' => i += 2,
            c if c == q => {
                if q == b'\'' && b.get(i + 1) == Some(&b'\'') {
                    i += 2;
                } else {
                    return Some(i);
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// Offset of the first `:` followed by a space or the end of the line.
pub fn key_colon(b: &[u8]) -> Option<usize> {
    scan_words(b, |w| {
        first_key_colon(b, w.at, eq_mask(w.bits, b':') & w.fresh)
    })
}

/// [`comment_or_tab`] and [`key_colon`] in one pass, as every checked line asks both:
/// `None` when `b` holds a tab or a comment, else where its key's colon is.
pub fn key_colon_unless_comment(b: &[u8]) -> Option<Option<usize>> {
    let mut colon = None;
    let comment = scan_words(b, |w| {
        if word_comment_or_tab(w.bits, w.space_before) {
            return Some(());
        }
        if colon.is_none() {
            colon = first_key_colon(b, w.at, eq_mask(w.bits, b':') & w.fresh);
        }
        None
    });
    comment.is_none().then_some(colon)
}

/// The first of `colons` (0x80 bits of the word of `b` at `start`) followed by a space or
/// the end of `b`.
fn first_key_colon(b: &[u8], start: usize, mut colons: u64) -> Option<usize> {
    while colons != 0 {
        let i = start + colons.trailing_zeros() as usize / 8;
        if b.get(i + 1).is_none_or(|&n| n == b' ') {
            return Some(i);
        }
        colons &= colons - 1;
    }
    None
}

/// Eight bytes of a scanned text, as [`scan_words`] hands them out.
struct Word {
    /// Offset of the word's first byte.
    at: usize,
    bits: u64,
    /// 0x80 bits of the bytes no earlier word held.
    fresh: u64,
    /// 0x80 in the lowest byte when the byte before the word is a space.
    space_before: u64,
}

/// Hands `b` to `f` eight bytes at a time until `f` returns something: whole words, then
/// the last eight bytes for a tail (those before the tail were looked at already, and a
/// pair of bytes across the tail's start is inside the word); one word padded with NULs
/// (none of the bytes looked for) when `b` is shorter. The one loop of this module's
/// scans, inlined into each.
#[inline(always)]
fn scan_words<R>(b: &[u8], mut f: impl FnMut(Word) -> Option<R>) -> Option<R> {
    if b.len() < 8 {
        return f(Word {
            at: 0,
            bits: padded_word(b),
            fresh: u64::MAX,
            space_before: 0,
        });
    }
    let mut space_before = 0;
    let mut chunks = b.chunks_exact(8);
    for (n, chunk) in (&mut chunks).enumerate() {
        let bits = word(chunk);
        let found = f(Word {
            at: 8 * n,
            bits,
            fresh: u64::MAX,
            space_before,
        });
        if found.is_some() {
            return found;
        }
        space_before = if bits >> 56 == u64::from(b' ') {
            0x80
        } else {
            0
        };
    }
    let tail = chunks.remainder().len();
    if tail == 0 {
        return None;
    }
    let at = b.len() - 8;
    f(Word {
        at,
        bits: word(&b[at..]),
        fresh: u64::MAX << (8 * (8 - tail)),
        space_before: 0,
    })
}

/// `s` without its leading spaces.
pub fn skip_spaces(s: &str) -> &str {
    let n = s.bytes().take_while(|&c| c == b' ').count();
    &s[n..]
}

/// Whether `b` holds a tab or ` #` (a comment), eight bytes at a time: every skipped line
/// is looked at, so this is the hot loop of ingest.
pub fn comment_or_tab(b: &[u8]) -> bool {
    scan_words(b, |w| {
        word_comment_or_tab(w.bits, w.space_before).then_some(())
    })
    .is_some()
}

/// [`comment_or_tab`] on one word (`space_before`: 0x80 when the byte before it is a
/// space). Most words hold neither byte: a cheaper test than [`eq_mask`] says so first.
fn word_comment_or_tab(w: u64, space_before: u64) -> bool {
    if !has_byte(w, b'\t') && !has_byte(w, b'#') {
        return false;
    }
    eq_mask(w, b'\t') != 0 || eq_mask(w, b'#') & ((eq_mask(w, b' ') << 8) | space_before) != 0
}

/// Whether some byte of `w` equals `c` (exact as a yes/no, unlike its per-byte bits).
fn has_byte(w: u64, c: u8) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let x = w ^ (ONES * u64::from(c));
    x.wrapping_sub(ONES) & !x & (ONES << 7) != 0
}

/// Fewer than eight bytes as a word, the rest NUL.
fn padded_word(b: &[u8]) -> u64 {
    let mut buf = [0u8; 8];
    buf[..b.len()].copy_from_slice(b);
    u64::from_le_bytes(buf)
}

/// Eight bytes as a little-endian word (byte `i` in bits `8i..8i+8`).
fn word(chunk: &[u8]) -> u64 {
    u64::from_le_bytes(chunk.try_into().expect("eight bytes"))
}

/// 0x80 in each byte of `w` that equals `c`, 0 in the others (exact, no carries).
fn eq_mask(w: u64, c: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = w ^ (0x0101_0101_0101_0101 * c as u64);
    !(((x & LOW7) + LOW7) | x | LOW7)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padded_words_hold_the_bytes_then_nul() {
        let bytes = b"\x01\x82\x03\xf4\x05\x06\x77";
        for n in 0..8 {
            let mut want = [0u8; 8];
            want[..n].copy_from_slice(&bytes[..n]);
            assert_eq!(
                padded_word(&bytes[..n]),
                u64::from_le_bytes(want),
                "{n} bytes"
            );
        }
    }

    fn shape(
        item: bool,
        key: Option<usize>,
        opens: Option<usize>,
        block_scalar: bool,
    ) -> Option<Shape> {
        Some(Shape {
            item,
            key,
            opens,
            block_scalar,
        })
    }

    #[test]
    fn self_contained_lines_pass() {
        for (line, expected) in [
            ("name: web", shape(false, Some(0), None, false)),
            ("- name: web", shape(true, Some(2), None, false)),
            ("- 10.0.0.1", shape(true, None, None, false)),
            ("image: \"quay.io/a:1\"", shape(false, Some(0), None, false)),
            ("message: 'it''s done'", shape(false, Some(0), None, false)),
            ("\"quoted key\": v", shape(false, Some(0), None, false)),
            ("labels: {}", shape(false, Some(0), None, false)),
            ("args: []", shape(false, Some(0), None, false)),
            ("url: http://x:80/a", shape(false, Some(0), None, false)),
            ("a plain scalar line", shape(false, None, None, false)),
            (
                "message: \"escaped \\\" quote\"",
                shape(false, Some(0), None, false),
            ),
        ] {
            assert_eq!(check_line(line), expected, "{line}");
        }
    }

    #[test]
    fn openers_name_the_column_their_value_is_below() {
        assert_eq!(check_line("spec:"), shape(false, Some(0), Some(0), false));
        assert_eq!(check_line("- env:"), shape(true, Some(2), Some(2), false));
        assert_eq!(check_line("-"), shape(true, None, Some(0), false));
        assert_eq!(
            check_line("script: |"),
            shape(false, Some(0), Some(0), true)
        );
        assert_eq!(
            check_line("- script: >-"),
            shape(true, Some(2), Some(2), true)
        );
        assert_eq!(check_line("- |"), shape(true, None, Some(2), true));
    }

    #[test]
    fn what_may_continue_or_is_not_plain_is_refused() {
        for line in [
            "message: \"starts here",
            "message: 'starts here",
            "- \"starts here",
            "selector: {app: web}",
            "ports: [80, 443]",
            "base: &b",
            "spec: *b",
            "tag: !!str x",
            "? complex",
            "a: b # comment",
            "a:\tb",
            "\tindented",
            "- - nested",
            "- ",
            "value: - x",
            "script: |2",
            "q: \"a\" trailing",
            ": empty key",
            "[a]: b",
        ] {
            assert_eq!(check_line(line), None, "{line}");
        }
    }

    /// The word-at-a-time scans find what a byte loop finds, at every offset and length.
    #[test]
    fn word_scans_match_byte_loops() {
        for text in [
            "a: b\t #c:d e:\tf #:: x# y:z  #",
            "image: quay.io/a:v1 #tag:  x:y\t #:",
        ] {
            agree_with_byte_loops(text);
        }
        assert_eq!(
            eq_mask(u64::from_le_bytes(*b"#\x00\xff:a#  "), b'#'),
            0x0000_8000_0000_0080
        );
    }

    fn agree_with_byte_loops(text: &str) {
        let b = text.as_bytes();
        for start in 0..b.len() {
            for end in start..=b.len() {
                let s = &b[start..end];
                let naive_tab = s
                    .iter()
                    .enumerate()
                    .any(|(i, &c)| c == b'\t' || (c == b'#' && i > 0 && s[i - 1] == b' '));
                assert_eq!(comment_or_tab(s), naive_tab, "{:?}", &text[start..end]);
                let naive_colon =
                    (0..s.len()).find(|&i| s[i] == b':' && s.get(i + 1).is_none_or(|&n| n == b' '));
                assert_eq!(key_colon(s), naive_colon, "{:?}", &text[start..end]);
                assert_eq!(
                    key_colon_unless_comment(s),
                    (!naive_tab).then_some(naive_colon),
                    "{:?}",
                    &text[start..end]
                );
            }
        }
    }
}

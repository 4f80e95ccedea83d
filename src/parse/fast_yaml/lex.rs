//! What one line holds: document markers, sequence entries, keys and escapes.

use super::parser::Line;
use super::{R, unsupported};
use crate::parse::line_check::{comment_or_tab, key_colon, skip_spaces};
use std::borrow::Cow;

pub(super) fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    memchr::memchr(needle, hay)
}

/// White space in YAML: only space and tab (`str::trim` would also take `\u{b}`, `\u{85}`,
/// no-break spaces… which YAML keeps in a scalar).
pub(super) const BLANK: [char; 2] = [' ', '\t'];

/// `s` without trailing [`BLANK`]s, on bytes: every plain scalar a view reads is trimmed.
pub(super) fn trim_end_blank(s: &str) -> &str {
    let kept = s
        .as_bytes()
        .iter()
        .rposition(|&c| c != b' ' && c != b'\t')
        .map_or(0, |i| i + 1);
    &s[..kept]
}

/// `---` or `...` at column 0 ends a document.
pub(super) fn is_doc_marker(line: &Line) -> bool {
    line.indent == 0
        && (line.content == "---"
            || line.content.starts_with("--- ")
            || is_document_end(line.content))
}

/// `...`, alone or followed by blanks (or more, which the caller refuses).
pub(super) fn is_document_end(content: &str) -> bool {
    content == "..." || content.starts_with("... ") || content.starts_with("...\t")
}

pub(super) fn is_seq_entry(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

pub(super) fn check_line(line: &Line) -> R<()> {
    if line.content.starts_with('\t') {
        return unsupported("tab indentation", line.no);
    }
    Ok(())
}

/// Splits `key: rest` / `key:`; `None` when the line is not a mapping entry. `checked`:
/// the text passed ingest (see `Parser::skip_ignored`), whose lines hold no tab or comment.
pub(super) fn split_key(
    content: &str,
    line_no: u32,
    checked: bool,
) -> R<Option<(Cow<'_, str>, &str)>> {
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
            if key == "<<" {
                // A merge key: the general parser applies it.
                return unsupported("merge key", line_no);
            }
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
            Ok(Some((crate::parse::yaml::plain_key(key), rest)))
        }
    }
}

/// Decodes a double-quoted escape (text after the backslash): (decoded, bytes used).
pub(super) fn unescape(s: &str) -> Option<(String, usize)> {
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

//! Text from a bundle made safe to print to a terminal: control characters (C0 but a
//! newline where one is allowed, DEL, C1) and bidi overrides are written as visible
//! escapes (`\x1b`, `\r`, `\u{202e}`), so a bundle can neither send a terminal command
//! (set the title, clear the screen) nor reorder or forge the lines kdiag prints.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` must not reach a terminal raw (a newline counts only unless `newlines`).
fn unsafe_char(c: char, newlines: bool) -> bool {
    match c {
        '\n' => !newlines,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        _ => false,
    }
}

fn escape(s: &str, newlines: bool) -> Cow<'_, str> {
    if !s.chars().any(|c| unsafe_char(c, newlines)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if !unsafe_char(c, newlines) {
            out.push(c);
            continue;
        }
        let _ = match c {
            '\n' => write!(out, "\\n"),
            '\r' => write!(out, "\\r"),
            '\t' => write!(out, "\\t"),
            c if (c as u32) < 0x100 => write!(out, "\\x{:02x}", c as u32),
            c => write!(out, "\\u{{{:x}}}", c as u32),
        };
    }
    Cow::Owned(out)
}

/// Whether `c` must not reach a terminal raw in text printed as lines (newlines may).
pub fn unsafe_in_lines(c: char) -> bool {
    unsafe_char(c, true)
}

/// Serialized JSON (or a YAML double-quoted scalar) with the characters its serializer
/// leaves raw but a terminal must not get (DEL, C1, bidi controls) written as `\uXXXX`
/// escapes: the same value, valid JSON and YAML, safe on a terminal. Such characters only
/// stand inside strings of serialized JSON, where the escape means the character.
pub fn json_escapes(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| unsafe_char(c, true)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push('\n'),
            c if unsafe_char(c, true) => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// One line's worth of text (a name, a message, a cited line): newlines escaped too, so
/// a file or object name cannot start a line of its own.
pub fn one_line(s: &str) -> Cow<'_, str> {
    escape(s, false)
}

/// Text printed as several lines (a `describe`, a table): newlines kept, all else escaped.
pub fn lines(s: &str) -> Cow<'_, str> {
    escape(s, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_become_visible() {
        assert_eq!(
            one_line("a\u{1b}]0;x\u{7}b\r\u{202e}c\n"),
            "a\\x1b]0;x\\x07b\\r\\u{202e}c\\n"
        );
        assert_eq!(lines("a\tb\u{85}\nc\u{2066}"), "a\\tb\\x85\nc\\u{2066}");
        assert!(matches!(one_line("plain ünïcode → ok"), Cow::Borrowed(_)));
    }
}

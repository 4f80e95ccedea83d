//! The bundle's own lines as the human and HTML reports quote them: each cut to a window
//! around the cited place and masked with `--redact`.
//!
//! One-line JSON (`kubectl get -o json | jq -c`) holds a whole List on one line, so a
//! line quoted whole is the whole file, once per finding: output and memory grew with
//! files × findings. A long line shows a bounded number of characters either side of
//! where the cited object starts, so both stay linear in the input and the findings.

use super::Analysis;
use crate::ingest::SourceFile;
use crate::rules::Evidence;
use std::borrow::Cow;

/// Lines up to this many bytes are shown whole.
const WHOLE_LINE_BYTES: usize = 300;
/// Characters a long line shows before the cited place.
const BEFORE: usize = 60;
/// Characters a long line shows from the cited place on.
const AFTER: usize = 200;
/// Marks where a long line was cut.
pub const ELLIPSIS: &str = "…";

/// Lines `start..=end` of `src` as a report shows them: line `n` cut to its window
/// around byte `anchor(n)` of it, then masked.
pub fn lines(
    a: &Analysis,
    src: &SourceFile,
    start: u32,
    end: u32,
    anchor: impl Fn(u32) -> usize,
) -> Vec<String> {
    src.quote(start, end)
        .lines()
        .zip(start.max(1)..)
        .map(|(line, no)| a.mask(&excerpt(line, anchor(no))).into_owned())
        .collect()
}

/// Where evidence `e` points in its line: the byte offset at which its object starts,
/// when the object starts on that line (else the line's start).
pub fn cited_column(a: &Analysis, src: &SourceFile, e: &Evidence) -> usize {
    let (Some(o), Some(line)) = (&e.object, e.line) else {
        return 0;
    };
    let Some(id) = a
        .snapshot
        .find_ref(&o.api_version, &o.kind, o.namespace.as_deref(), &o.name)
    else {
        return 0;
    };
    let Some(offset) = a.snapshot.object(id).offset_in(src) else {
        return 0;
    };
    let line_start = src.line_start(line);
    let line_len = src.lines(line, line).len();
    offset
        .checked_sub(line_start)
        .filter(|&col| col <= line_len)
        .unwrap_or(0)
}

/// `line` whole when short, else about [`BEFORE`] characters before byte `anchor` and
/// [`AFTER`] from it, with [`ELLIPSIS`] where it was cut. A cut never splits a name (a
/// run of letters, digits, `.`, `-`, `_`) unless the name alone is longer than the
/// window: half a host name would escape `--redact`.
pub fn excerpt(line: &str, anchor: usize) -> Cow<'_, str> {
    if line.len() <= WHOLE_LINE_BYTES {
        return Cow::Borrowed(line);
    }
    let mut anchor = anchor.min(line.len());
    while !line.is_char_boundary(anchor) {
        anchor -= 1;
    }
    let from = line[..anchor]
        .char_indices()
        .rev()
        .nth(BEFORE - 1)
        .map_or(0, |(i, _)| i);
    let to = line[anchor..]
        .char_indices()
        .nth(AFTER)
        .map_or(line.len(), |(i, _)| anchor + i);
    // Back off to a name's edge; a name that reaches the cited place is cut where it is.
    let from = (from..(from + MAX_NAME).min(anchor))
        .find(|&i| cuts_no_name(line, i))
        .unwrap_or(from);
    let to = edge_before(line, to, anchor + 1);
    let mut out = String::with_capacity(to - from + 2 * ELLIPSIS.len());
    if from > 0 {
        out.push_str(ELLIPSIS);
    }
    out.push_str(&line[from..to]);
    if to < line.len() {
        out.push_str(ELLIPSIS);
    }
    Cow::Owned(out)
}

/// `text` cut to at most `max` characters, before a name rather than inside one (as
/// [`excerpt`] cuts); `None` when it is not longer than that.
pub fn cut(text: &str, max: usize) -> Option<&str> {
    let (end, _) = text.char_indices().nth(max)?;
    Some(&text[..edge_before(text, end, 1)])
}

/// The longest name a cut backs off from (a host name is at most 253 bytes); a longer
/// run is cut where it is.
const MAX_NAME: usize = 254;

/// The last place at or before byte `end`, and not before `floor`, that cuts no name;
/// `end` when there is none.
fn edge_before(text: &str, end: usize, floor: usize) -> usize {
    (end.saturating_sub(MAX_NAME).max(floor)..=end)
        .rev()
        .find(|&i| cuts_no_name(text, i))
        .unwrap_or(end)
}

/// Whether byte `at` of `text` is a char boundary with no name on both sides of it.
fn cuts_no_name(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    text.is_char_boundary(at)
        && !(at > 0 && at < b.len() && is_name_byte(b[at - 1]) && is_name_byte(b[at]))
}

/// A byte of a name a redaction may mask (host names, label values).
fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-' | b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_stay_whole() {
        assert_eq!(excerpt("  image: nginx", 5), "  image: nginx");
    }

    #[test]
    fn long_lines_show_a_window_around_the_anchor() {
        let line = format!(
            "{}{{\"kind\":\"Pod\",\"metadata\":{{\"name\":\"pull-7\"}}}}{}",
            "x,".repeat(500),
            ",y".repeat(500)
        );
        let anchor = line.find("{\"kind\"").unwrap();
        let shown = excerpt(&line, anchor);
        assert!(
            shown.starts_with(ELLIPSIS) && shown.ends_with(ELLIPSIS),
            "{shown}"
        );
        assert!(shown.contains("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"pull-7\"}}"));
        assert!(shown.chars().count() <= BEFORE + AFTER + 2, "{shown}");
        // The start of the line is shown from the start.
        let head = excerpt(&line, 0);
        assert!(head.starts_with("x,x,") && head.ends_with(ELLIPSIS));
    }

    #[test]
    fn cuts_fall_between_names_and_on_char_boundaries() {
        // A host name where the window would cut it is left out whole.
        let pad = "é ".repeat(BEFORE / 2 - 3);
        let line = format!(
            "{}harbor.acmecorp-prod.internal {pad}ANCHOR {}",
            "a ".repeat(200),
            "ü ".repeat(300)
        );
        let shown = excerpt(&line, line.find("ANCHOR").unwrap());
        assert!(!shown.contains("prod.internal"), "{shown}");
        assert!(shown.contains("ANCHOR"));
        let shown = excerpt(&line, line.find("harbor").unwrap() + 1);
        assert!(shown.contains("harbor.acmecorp-prod.internal"), "{shown}");
        assert_eq!(
            cut("pull from harbor.acmecorp-prod.internal", 30),
            Some("pull from ")
        );
        assert_eq!(cut("short", 30), None);
    }
}

//! How `kubectl describe` lays text out: lines written at a level (two spaces each)
//! whose cells are separated by tabs, aligned as Go's `text/tabwriter` aligns them
//! (minimum width 0, padding 2, spaces), and kubectl's shared printers (labels,
//! annotations, times).

use crate::kube::time::{format_rfc3339, parse_timestamp};
use serde_json::Value;

/// Spaces after the widest cell of a column (kubectl's `tabwriter.Init(…, 0, 8, 2, ' ', 0)`).
const PADDING: usize = 2;

/// kubectl's `maxAnnotationLen`: longer annotation values go on lines of their own.
const MAX_ANNOTATION_LEN: usize = 140;

/// Text as kubectl's `PrefixWriter` writes it, aligned when flushed.
#[derive(Default)]
pub(super) struct Tabbed {
    pending: String,
    out: String,
}

impl Tabbed {
    /// `text` after `level` indents (only its first line is indented, as kubectl's
    /// `PrefixWriter.Write`).
    pub fn write(&mut self, level: usize, text: &str) {
        for _ in 0..level {
            self.pending.push_str("  ");
        }
        self.pending.push_str(text);
    }

    /// One line at `level`.
    pub fn line(&mut self, level: usize, text: &str) {
        self.write(level, text);
        self.pending.push('\n');
    }

    /// Aligns what was written so far on its own (kubectl flushes before the events).
    pub fn flush(&mut self) {
        let text = std::mem::take(&mut self.pending);
        self.out.push_str(&align(&text));
    }

    pub fn finish(mut self) -> String {
        self.flush();
        self.out
    }
}

/// Go's `tabwriter`: a tab ends a cell; the cells of one column in consecutive lines
/// form a block padded to its widest cell; a line's last cell is not in a column.
pub(super) fn align(text: &str) -> String {
    let body = text.strip_suffix('\n').unwrap_or(text);
    if body.is_empty() {
        return text.to_string();
    }
    let lines: Vec<Vec<&str>> = body.split('\n').map(|l| l.split('\t').collect()).collect();
    let mut out = String::with_capacity(text.len() * 2);
    let mut widths = Vec::new();
    format_block(&lines, &mut widths, 0, lines.len(), &mut out);
    if text.ends_with('\n') {
        out.push('\n');
    }
    out
}

fn format_block(
    lines: &[Vec<&str>],
    widths: &mut Vec<usize>,
    mut line0: usize,
    line1: usize,
    out: &mut String,
) {
    let column = widths.len();
    let mut this = line0;
    while this < line1 {
        if column + 1 >= lines[this].len() {
            this += 1;
            continue;
        }
        write_lines(lines, widths, line0, this, out);
        line0 = this;
        let mut width = 0;
        while this < line1 && column + 1 < lines[this].len() {
            width = width.max(lines[this][column].chars().count() + PADDING);
            this += 1;
        }
        widths.push(width);
        format_block(lines, widths, line0, this, out);
        widths.pop();
        line0 = this;
    }
    write_lines(lines, widths, line0, line1, out);
}

fn write_lines(lines: &[Vec<&str>], widths: &[usize], from: usize, to: usize, out: &mut String) {
    for (i, line) in lines.iter().enumerate().take(to).skip(from) {
        for (j, cell) in line.iter().enumerate() {
            out.push_str(cell);
            if let Some(&w) = widths.get(j).filter(|_| j + 1 < line.len()) {
                let pad = w.saturating_sub(cell.chars().count());
                out.extend(std::iter::repeat_n(' ', pad));
            }
        }
        if i + 1 < lines.len() {
            out.push('\n');
        }
    }
}

/// A timestamp as kubectl prints one (`time.RFC1123Z`, in UTC): `Fri, 20 Nov 2026
/// 09:14:02 +0000`; text that is no timestamp stays as written.
pub(super) fn rfc1123z(t: &str) -> String {
    parse_timestamp(t).map_or_else(|| t.to_string(), rfc1123z_of)
}

pub(super) fn rfc1123z_of(t: i64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    // `2026-11-20T09:14:02Z`: the calendar date without a second copy of its arithmetic.
    let iso = format_rfc3339(t);
    let month = iso[5..7].parse::<usize>().unwrap_or(1).clamp(1, 12);
    let day = DAYS[t.div_euclid(86400).rem_euclid(7) as usize];
    format!(
        "{day}, {} {} {} {} +0000",
        &iso[8..10],
        MONTHS[month - 1],
        &iso[..4],
        &iso[11..19]
    )
}

/// A JSON scalar as Go's `%v` prints it (strings bare).
pub(super) fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The sorted `key=value` pairs of a string map (labels, selectors), as kubectl reads
/// them; values that are no strings print as JSON.
pub(super) fn sorted_pairs(v: Option<&Value>) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = v
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, x)| (k.clone(), plain(x))).collect())
        .unwrap_or_default();
    pairs.sort();
    pairs
}

/// kubectl's `printLabelsMultilineWithIndent`: `Title:\tk=v`, one pair a line.
pub(super) fn labels(w: &mut Tabbed, indent: &str, title: &str, v: Option<&Value>) {
    w.write(0, &format!("{indent}{title}:\t"));
    let pairs = sorted_pairs(v);
    if pairs.is_empty() {
        w.line(0, "<none>");
        return;
    }
    for (i, (k, x)) in pairs.iter().enumerate() {
        if i > 0 {
            w.write(0, &format!("{indent}\t"));
        }
        w.line(0, &format!("{k}={x}"));
    }
}

/// kubectl's `printAnnotationsMultiline`: sorted, without the last-applied
/// configuration; a value with a newline or longer than 140 characters goes on lines
/// of its own under its key, each cut at 138 characters.
pub(super) fn annotations(w: &mut Tabbed, indent: &str, title: &str, v: Option<&Value>) {
    w.write(0, &format!("{indent}{title}:\t"));
    let pairs: Vec<(String, String)> = sorted_pairs(v)
        .into_iter()
        .filter(|(k, _)| k != crate::kube::meta::LAST_APPLIED)
        .collect();
    if pairs.is_empty() {
        w.line(0, "<none>");
        return;
    }
    for (i, (k, x)) in pairs.iter().enumerate() {
        if i > 0 {
            w.write(0, "\t");
        }
        let value = x.strip_suffix('\n').unwrap_or(x);
        if value.len() + k.len() + 2 > MAX_ANNOTATION_LEN || value.contains('\n') {
            w.line(0, &format!("{k}:"));
            for part in value.split('\n') {
                w.line(0, &format!("\t  {}", shorten(part, MAX_ANNOTATION_LEN - 2)));
            }
        } else {
            w.line(0, &format!("{k}: {value}"));
        }
    }
}

/// kubectl's `shorten`: the first `max` bytes and `...` (here cut at a character).
fn shorten(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn aligns_as_go_tabwriter() {
        // A column block ends at a line without a tab; an empty cell still takes the padding.
        let text = "Name:\tweb\nService Account:\tdefault\nIPs:\n  IP:\t10.0.0.1\nA\tb\t\tc\nAbc\td\te\tf\n";
        let want = [
            format!("Name:{}web", " ".repeat(13)),
            "Service Account:  default".to_string(),
            "IPs:".to_string(),
            "  IP:  10.0.0.1".to_string(),
            // In the block of `  IP:` (the lines before had no tab).
            "A      b     c".to_string(),
            "Abc    d  e  f".to_string(),
        ];
        assert_eq!(align(text), want.join("\n") + "\n");
    }

    #[test]
    fn kubectl_times() {
        assert_eq!(
            rfc1123z("2026-11-20T09:14:02Z"),
            "Fri, 20 Nov 2026 09:14:02 +0000"
        );
        assert_eq!(
            rfc1123z("1970-01-01T00:00:00Z"),
            "Thu, 01 Jan 1970 00:00:00 +0000"
        );
        assert_eq!(rfc1123z("soon"), "soon");
    }

    #[test]
    fn multi_line_annotations_go_under_their_key() {
        let mut w = Tabbed::default();
        let ann = json!({"b": "x\ny\n", "a": "short", (crate::kube::meta::LAST_APPLIED): "{}"});
        annotations(&mut w, "", "Annotations", Some(&ann));
        assert_eq!(
            w.finish(),
            "Annotations:  a: short\n              b:\n                x\n                y\n"
        );
    }
}

//! Fitting `kdiag why`'s tree to a width, as the analyze report fits it: a long line is
//! wrapped under its own text (past the tree's `│`, `├─`, `└─`), and a table is laid out
//! at the end, when its widest row is known: aligned columns when they fit, else one
//! wrapped line per row, "column value, column value".

use textwrap::core::display_width;

/// Starts a table row in the text [`fit`] lays out: the row's indent, this mark, then its
/// cells separated by [`CELL`]. The first row of a run of rows is the header.
pub const ROW: char = '\u{1e}';
/// Separates the cells of a [`ROW`].
pub const CELL: char = '\u{1f}';

/// `text` fitted to `width` columns (a single word longer than a line overflows it).
pub fn fit(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.contains(ROW) {
            let mut rows = vec![line];
            while let Some(next) = lines.next_if(|l| l.contains(ROW)) {
                rows.push(next);
            }
            table(&rows, width, &mut out);
        } else {
            wrapped(line, width, &mut out);
        }
    }
    out
}

/// One line wrapped under its text: the continuation keeps the tree's bars and is
/// indented two more columns than the text.
fn wrapped(line: &str, width: usize, out: &mut String) {
    if display_width(line) <= width {
        out.push_str(line);
        out.push('\n');
        return;
    }
    let text_at = line
        .find(|c: char| !(c.is_whitespace() || "│├└─".contains(c)))
        .unwrap_or(line.len());
    let (prefix, text) = line.split_at(text_at);
    let rest: String = prefix
        .chars()
        .map(|c| match c {
            '│' | '├' => '│',
            _ => ' ',
        })
        .collect::<String>()
        + "  ";
    let opts = textwrap::Options::new(width.max(display_width(&rest) + 20))
        .initial_indent(prefix)
        .subsequent_indent(&rest)
        .break_words(false)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    for l in textwrap::wrap(text, opts) {
        out.push_str(l.trim_end());
        out.push('\n');
    }
}

/// A run of table rows: aligned when the widest fits, else each data row as one wrapped
/// line naming its columns.
fn table(rows: &[&str], width: usize, out: &mut String) {
    let split: Vec<(&str, Vec<&str>)> = rows
        .iter()
        .map(|r| {
            let (indent, cells) = r.split_once(ROW).unwrap_or(("", r));
            (indent, cells.split(CELL).collect())
        })
        .collect();
    let columns = split.iter().map(|(_, c)| c.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|i| {
            split
                .iter()
                .filter_map(|(_, c)| c.get(i))
                .map(|c| display_width(c))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let aligned: Vec<String> = split
        .iter()
        .map(|(indent, cells)| {
            let mut s = indent.to_string();
            for (i, c) in cells.iter().enumerate() {
                s.push_str(c);
                if i + 1 < cells.len() {
                    s.push_str(&" ".repeat(widths[i] - display_width(c) + 2));
                }
            }
            s.trim_end().to_string()
        })
        .collect();
    if aligned.iter().all(|l| display_width(l) <= width) {
        for l in aligned {
            out.push_str(&l);
            out.push('\n');
        }
        return;
    }
    let Some(((_, head), data)) = split.split_first() else {
        return;
    };
    for (indent, cells) in data {
        let mut said = cells.first().copied().unwrap_or("").to_string();
        let mut first = true;
        for (i, cell) in cells.iter().enumerate().skip(1) {
            let name = head.get(i).copied().unwrap_or("");
            said.push_str(if first {
                ": "
            } else if name.is_empty() {
                " "
            } else {
                ", "
            });
            first = false;
            if !name.is_empty() {
                said.push_str(name);
                said.push(' ');
            }
            said.push_str(cell);
        }
        wrapped(&format!("{indent}{said}"), width, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(indent: &str, cells: &[&str]) -> String {
        let cells: Vec<&str> = cells.to_vec();
        format!("{indent}{ROW}{}\n", cells.join(&CELL.to_string()))
    }

    #[test]
    fn a_long_line_wraps_under_its_text() {
        let text = "└─ ClusterQueue cq-ml · Active=True (Ready) · BestEffortFIFO\n";
        assert_eq!(
            fit(text, 40),
            "└─ ClusterQueue cq-ml · Active=True\n     (Ready) · BestEffortFIFO\n"
        );
        assert_eq!(fit(text, 80), text);
    }

    #[test]
    fn a_table_aligns_when_it_fits_else_names_its_columns() {
        let text = row("  ", &["flavor", "resource", "free", ""])
            + &row("  ", &["default", "cpu", "2", "✓"]);
        assert_eq!(
            fit(&text, 80),
            "  flavor   resource  free\n  default  cpu       2     ✓\n"
        );
        assert_eq!(fit(&text, 24), "  default: resource cpu,\n    free 2 ✓\n");
    }
}

//! Flow content at column 0 inside a flow collection opened in block context
//! (`items: [` then `{...},` lines at column 0, then `]`): YAML 1.2 and saphyr want those
//! lines indented past the key, PyYAML reads them. When the general parser stops on
//! such a line, the file is read again with those lines indented one space, which keeps
//! every line where it was (spans are lines).

/// `text` with one space before each line that starts at column 0 inside a flow
/// collection (document markers aside); `None` when there is no such line.
pub fn indent_flow_lines(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    // The last byte that is not a space or tab (a line break counts).
    let mut last = b'\n';
    let mut inserts = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            if depth > 0 && needs_indent(&b[i + 1..]) {
                inserts.push(i + 1);
            }
            if quote.is_none() {
                last = b'\n';
            }
            i += 1;
            continue;
        }
        if let Some(q) = quote {
            match c {
                b'\\' if q == b'"' => i += 1,
                b'\'' if q == b'\'' && b.get(i + 1) == Some(&b'\'') => i += 1,
                _ if c == q => {
                    quote = None;
                    last = c;
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        let after_space = i == 0 || matches!(b[i - 1], b' ' | b'\t' | b'\n');
        let value_start = if depth > 0 {
            matches!(last, b'[' | b'{' | b',' | b':' | b'?' | b'\n')
        } else {
            after_space && matches!(last, b':' | b'-' | b'?' | b'\n')
        };
        match c {
            b'#' if after_space => {
                // A comment: to the end of the line.
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |n| i + n);
                continue;
            }
            b'[' | b'{' if value_start || depth > 0 => depth += 1,
            b']' | b'}' if depth > 0 => depth -= 1,
            b'"' | b'\'' if value_start => quote = Some(c),
            _ => {}
        }
        if !matches!(c, b' ' | b'\t' | b'\r') {
            last = c;
        }
        i += 1;
    }
    if inserts.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len() + inserts.len());
    let mut from = 0;
    for at in inserts {
        out.push_str(&text[from..at]);
        out.push(' ');
        from = at;
    }
    out.push_str(&text[from..]);
    Some(out)
}

/// Whether a line inside a flow collection starts at column 0 with content (not a
/// blank line nor a document marker).
fn needs_indent(line: &[u8]) -> bool {
    match line.first() {
        None | Some(b' ' | b'\t' | b'\n' | b'\r') => false,
        Some(_) => !(line.starts_with(b"---") || line.starts_with(b"...")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_at_column_0_in_a_flow_collection_are_indented() {
        let text =
            "kind: List\nitems: [\n{a: 1, b: 'it''s [x'},\n{c: \"#]\\\"\"}, # ] no\n]\nnext: [1]\n";
        assert_eq!(
            indent_flow_lines(text).as_deref(),
            Some(
                "kind: List\nitems: [\n {a: 1, b: 'it''s [x'},\n {c: \"#]\\\"\"}, # ] no\n ]\nnext: [1]\n"
            )
        );
        // Brackets inside a block plain scalar open nothing; indented flow needs nothing.
        assert_eq!(indent_flow_lines("msg: a[b\nc: d\n"), None);
        assert_eq!(indent_flow_lines("items: [\n  {a: 1}\n  ]\n"), None);
    }
}

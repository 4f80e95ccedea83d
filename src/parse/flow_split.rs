//! The items of a List written wholly in flow style (`{apiVersion: v1, items: [{...},
//! {...}], kind: List}`, as PyYAML's `default_flow_style=True` writes it), found by a
//! small scanner of flow syntax so that each item can be read on its own: the general
//! parser's tree of a whole List costs several times its text.
//!
//! The scanner knows only what decides where an element ends: the nesting of `[]` and
//! `{}`, quoted scalars (`'...'` with `''`, `"..."` with `\` escapes) that start where a
//! value or key can start, comments (`#` after white space) and the `,` between
//! elements. Whatever it does not follow returns `None`, and whoever reads an item alone
//! still checks that it parses (an alias to another item's anchor does not).

use std::ops::Range;

/// Where the items of a flow List's `items` lie in its document.
#[derive(Debug, PartialEq, Eq)]
pub struct FlowItems {
    /// The `{` the document starts with.
    pub start: usize,
    /// The `[` of `items`.
    pub open: usize,
    /// Its `]`.
    pub close: usize,
    /// Each item from its first byte to just past its last (comments and white space
    /// around it left out).
    pub items: Vec<Range<usize>>,
}

/// The items of `doc` when it is one flow mapping (after blank lines, comments and a
/// `---`) whose top-level `items` is a flow sequence; `None` for any other shape.
pub fn list_items(doc: &str) -> Option<FlowItems> {
    let b = doc.as_bytes();
    let start = skip_blank(b, 0);
    let start = match b.get(start..start + 3) {
        Some(b"---") if b.get(start + 3).is_none_or(|c| c.is_ascii_whitespace()) => {
            skip_blank(b, start + 3)
        }
        _ => start,
    };
    if b.get(start) != Some(&b'{') {
        return None;
    }
    let mut open = None;
    let mut twice = false;
    let end = collection(b, start, |entry| {
        if let Some(at) = items_value(&b[entry.clone()]) {
            twice |= open.is_some();
            open = Some(entry.start + at);
        }
    })?;
    if twice || skip_blank(b, end) != b.len() {
        return None;
    }
    let open = open?;
    let mut items = Vec::new();
    let close = collection(b, open, |item| items.push(item))? - 1;
    (b[open] == b'[').then_some(FlowItems {
        start,
        open,
        close,
        items,
    })
}

/// The items of `doc` when it is a block mapping whose `items:` key at column 0 holds a
/// flow sequence (`items: [{...},` ... `]`, written by hand or by a tool's flow style for
/// one key), the sequence followed on its last line by nothing but a comment; `None` for
/// any other shape. `start` is then the document's first byte of content.
pub fn block_key_items(doc: &str) -> Option<FlowItems> {
    let b = doc.as_bytes();
    let mut open = None;
    let mut line = 0;
    while line < b.len() {
        let end = memchr::memchr(b'\n', &b[line..]).map_or(b.len(), |n| line + n);
        if let Some(at) = items_value(&b[line..end]).filter(|at| line + at < end) {
            if open.is_some() {
                return None;
            }
            open = Some(line + at);
        }
        line = end + 1;
    }
    let open = open.filter(|o| b[*o] == b'[')?;
    let mut items = Vec::new();
    let past = collection(b, open, |item| items.push(item))?;
    let rest_of_line = &b[past..memchr::memchr(b'\n', &b[past..]).map_or(b.len(), |n| past + n)];
    let rest = rest_of_line.trim_ascii_start();
    if !(rest.is_empty() || rest.starts_with(b"#") && rest.len() < rest_of_line.len()) {
        return None;
    }
    Some(FlowItems {
        start: skip_blank(b, 0),
        open,
        close: past - 1,
        items,
    })
}

/// Where the value of an entry `items: ...` starts in `entry` (the key plain or quoted).
fn items_value(entry: &[u8]) -> Option<usize> {
    let key = [&b"items"[..], b"\"items\"", b"'items'"]
        .into_iter()
        .find(|k| entry.starts_with(k))?;
    let colon = skip_blank(entry, key.len());
    (entry.get(colon) == Some(&b':')).then(|| skip_blank(entry, colon + 1))
}

/// Past white space and comments from `i`.
fn skip_blank(b: &[u8], mut i: usize) -> usize {
    while let Some(&c) = b.get(i) {
        match c {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'#' if i == 0 || b[i - 1].is_ascii_whitespace() => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |n| i + n);
            }
            _ => break,
        }
    }
    i
}

/// The flow collection opened at `b[open]` (`[` or `{`): calls `element` with each of its
/// elements (for a mapping, each `key: value` entry) and returns the offset past its
/// close; `None` when it does not close or nests wrongly, or an element is empty.
fn collection(b: &[u8], open: usize, mut element: impl FnMut(Range<usize>)) -> Option<usize> {
    let close_of = |c: u8| if c == b'[' { b']' } else { b'}' };
    let mut stack = vec![close_of(b[open])];
    // The last byte read that is not white space: a quote starts a scalar only after an
    // indicator.
    let mut last = b[open];
    let mut current: Option<Range<usize>> = None;
    let mut i = open + 1;
    while let Some(&c) = b.get(i) {
        if c.is_ascii_whitespace() || (c == b'#' && b[i - 1].is_ascii_whitespace()) {
            i = skip_blank(b, i);
            continue;
        }
        if stack.len() == 1 && (c == b',' || c == stack[0]) {
            match current.take() {
                Some(e) => element(e),
                // `[a, , b]`; a `,` before the close is allowed.
                None if c == b',' => return None,
                None => {}
            }
            if c != b',' {
                return Some(i + 1);
            }
            last = c;
            i += 1;
            continue;
        }
        let at = i;
        let after_indicator = matches!(last, b'[' | b'{' | b',' | b':' | b'?');
        match c {
            b'"' | b'\'' if after_indicator => i = quoted_end(b, i)?,
            b'[' | b'{' => {
                stack.push(close_of(c));
                i += 1;
            }
            b']' | b'}' => {
                if stack.pop()? != c {
                    return None;
                }
                i += 1;
            }
            _ => i += 1,
        }
        // `:` and `?` are indicators before white space or a flow indicator, or after a
        // quoted key (`"a":1`); else part of a plain scalar (`web:1.25`).
        let indicator = !matches!(c, b':' | b'?')
            || b.get(i).is_none_or(|n| {
                n.is_ascii_whitespace() || matches!(n, b',' | b'[' | b']' | b'{' | b'}')
            })
            || matches!(last, b'"' | b'\'' | b']' | b'}');
        last = if indicator { c } else { b'.' };
        current = Some(current.map_or(at, |e| e.start)..i);
    }
    None
}

/// Past the quoted scalar that starts at `b[i]`.
fn quoted_end(b: &[u8], i: usize) -> Option<usize> {
    let q = b[i];
    let mut j = i + 1;
    loop {
        j += memchr::memchr2(q, b'\\', &b[j..])?;
        match b[j] {
            b'\\' if q == b'"' => j += 2,
            b'\\' => j += 1,
            _ if q == b'\'' && b.get(j + 1) == Some(&b'\'') => j += 2,
            _ => return Some(j + 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(doc: &str) -> Option<Vec<&str>> {
        let f = list_items(doc)?;
        assert_eq!((&doc[f.open..=f.open], &doc[f.close..=f.close]), ("[", "]"));
        Some(f.items.into_iter().map(|r| &doc[r]).collect())
    }

    #[test]
    fn items_of_a_flow_list_are_found() {
        let doc = "# c\n--- {apiVersion: v1, items: [{a: '[x'', #', b: \"}\\\"\"},\n  # c, d\n  {c: [1, {d: 2}], e: web:1.25 # x]\n}, plain 'q' ], kind: List}\n";
        assert_eq!(
            items(doc).unwrap(),
            [
                "{a: '[x'', #', b: \"}\\\"\"}",
                "{c: [1, {d: 2}], e: web:1.25 # x]\n}",
                "plain 'q'"
            ]
        );
        assert_eq!(
            items("{\"items\": [1,2,], kind: List}").unwrap(),
            ["1", "2"]
        );
        assert_eq!(items("{items: []}").unwrap(), Vec::<&str>::new());
    }

    #[test]
    fn a_flow_sequence_under_a_block_items_key_is_found() {
        let doc = "apiVersion: v1\nitems: [{a: 1,\n  b: '],'}, {c: 2}\n  ] # end\nkind: List\n";
        let f = block_key_items(doc).unwrap();
        let items: Vec<&str> = f.items.iter().map(|r| &doc[r.clone()]).collect();
        assert_eq!(items, ["{a: 1,\n  b: '],'}", "{c: 2}"]);
        assert_eq!(
            (f.start, &doc[f.open..=f.close]),
            (0, &doc[22..f.close + 1])
        );
        for odd in [
            "items:\n- a\n",
            "items: [1]x\n",
            "items: [1]#x\n",
            "items: [1\n",
            "items: [1]\nitems: [2]\n",
            "  items: [1]\n",
        ] {
            assert_eq!(block_key_items(odd), None, "{odd}");
        }
    }

    #[test]
    fn other_shapes_are_not_split() {
        for doc in [
            "apiVersion: v1\nitems: [1]\n",
            "{items: [1, , 2]}",
            "{items: [{a: 1]]}",
            "{items: ['open]}",
            "{items: [1]} trailing",
            "{items: [1], items: [2]}",
            "{items: {a: 1}}",
            "{kind: List}",
            "{items: [1]",
        ] {
            assert_eq!(list_items(doc), None, "{doc}");
        }
    }
}

//! A YAML file the fast path refuses somewhere, read in pieces: each document on its own
//! and, in a List document, each item of its `items:` on its own, so that one anchor, tag
//! or flow mapping sends only its document or item to the general parser, whose trees
//! cost several times the text (a 94 MB List of pods with one `&a` in one pod cost
//! 1.12 GB read whole by the general parser, 381 MB by the fast path).
//!
//! Pieces are found by lines at column 0: a document starts at a `---` line, and a List's
//! items at the `- ` lines under an `items:` line, up to the first other line at column 0.
//! YAML can hold an alias to an anchor of another item; such an item does not parse on its
//! own, and then the file is read whole by the general parser, as before (the caller does
//! that when [`read`] returns `None`).

use super::body::Body;
use super::header::{Header, ItemHeader};
use super::{buffers, early, objects};
use crate::parse::fast_yaml::{self, ItemPos, Managed};
use crate::parse::spans::{ParsedDoc, Span};
use crate::parse::{KeptText, pieces, yaml};
use serde_json::Value;
use std::sync::Arc;

/// A range of the file's bytes that starts a line, and that line's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    start: usize,
    end: usize,
    line: u32,
}

/// One document as read: by the fast path, by the general parser, or a List whose items
/// were read one by one.
enum Part {
    Fast(fast_yaml::Doc<Header<ItemHeader>>),
    Tree(objects::Doc),
    List {
        header: Header<ItemHeader>,
        offset: usize,
        span: Span,
        items: Vec<ItemPart>,
    },
}

enum ItemPart {
    Fast(ItemHeader, ItemPos),
    Tree(ItemHeader, Value, Span),
}

/// The documents of `text` read piece by piece (see the module), with the text to keep;
/// the text back when no piece is fast-path YAML or a piece the general parser reads does
/// not parse on its own (the caller reads the file whole).
pub fn read(
    text: String,
    hint: Option<&'static str>,
    views: bool,
    later: Arc<fast_yaml::LaterText>,
) -> Result<(KeptText, Vec<objects::Doc>), String> {
    let Some((parts, managed)) = parts(&text, hint, views, &later) else {
        return Err(text);
    };
    let (text, shifts) = keep(text, &managed, &later);
    let moved = |p: ItemPos| ItemPos {
        offset: shifts.map(p.offset),
        span: p.span,
    };
    let yaml = |pos: ItemPos, item: bool| Body::Yaml {
        text: text.clone(),
        pos: moved(pos),
        item,
    };
    let docs = parts
        .into_iter()
        .map(|part| match part {
            Part::Tree(doc) => doc,
            Part::Fast(d) => fast_doc(d, &text, shifts),
            Part::List {
                mut header,
                offset,
                span,
                items,
            } => {
                let (headers, mut bodies): (Vec<_>, Vec<_>) = items
                    .into_iter()
                    .map(|item| match item {
                        ItemPart::Fast(h, pos) => (h, Some((yaml(pos, true), pos.span))),
                        ItemPart::Tree(h, value, span) => (h, Some((Body::Tree(value), span))),
                    })
                    .unzip();
                header.items = Some(headers);
                let header = objects::with_items(header, |i, h| {
                    let (body, span) = bodies[i].take().unzip();
                    objects::Item {
                        header: h,
                        body,
                        span: span.unwrap_or_default(),
                    }
                });
                objects::Doc {
                    header,
                    // Read whole only if asked: the fast path fails on it and the
                    // general parser reads its lines (see `Body`).
                    body: yaml(ItemPos { offset, span }, false),
                    span,
                }
            }
        })
        .collect();
    Ok((text, docs))
}

/// The file's text as kept (its `managedFields` blocks cut out when the fast path found
/// any), set as the text the views' lazy fields point into, and how offsets in the read
/// text move in the kept one.
pub fn keep<'l>(
    text: String,
    managed: &[Managed],
    later: &'l fast_yaml::LaterText,
) -> (KeptText, &'l fast_yaml::Shifts) {
    let (compacted, shifts) = if managed.is_empty() {
        (None, fast_yaml::Shifts::default())
    } else {
        let (kept, shifts) = fast_yaml::compact(&text, managed);
        (Some(kept), shifts)
    };
    let text: KeptText = Arc::new(buffers::kept(text, compacted));
    let shifts = &later.get_or_init(|| (text.clone(), shifts)).1;
    (text, shifts)
}

/// A document the fast path read, as an object (and its List items) placed in the kept
/// `text`.
pub fn fast_doc(
    d: fast_yaml::Doc<Header<ItemHeader>>,
    text: &KeptText,
    shifts: &fast_yaml::Shifts,
) -> objects::Doc {
    let yaml = |pos: ItemPos, item: bool| Body::Yaml {
        text: text.clone(),
        pos: ItemPos {
            offset: shifts.map(pos.offset),
            span: pos.span,
        },
        item,
    };
    let positions = d.items;
    objects::Doc {
        header: objects::with_items(d.value, |i, h| objects::Item {
            header: h,
            body: Some(yaml(positions[i], true)),
            span: positions[i].span,
        }),
        body: yaml(
            ItemPos {
                offset: d.offset,
                span: d.span,
            },
            false,
        ),
        span: d.span,
    }
}

/// Each document of `text` read as [`Part`]s, and the `managedFields` blocks the fast
/// path found in them.
fn parts(
    text: &str,
    hint: Option<&'static str>,
    views: bool,
    later: &Arc<fast_yaml::LaterText>,
) -> Option<(Vec<Part>, Vec<Managed>)> {
    let scan = |p: Piece| {
        let go = || {
            fast_yaml::scan_piece_keeping::<Header<ItemHeader>>(text, p.start, p.line, p.end, later)
        };
        let scanned = if views {
            early::with_early_views(hint, go)
        } else {
            go()
        };
        scanned.ok().filter(|(docs, _)| {
            docs.iter()
                .all(|d| d.value.items.as_ref().map_or(0, Vec::len) == d.items.len())
        })
    };
    let mut spent = yaml::Expanded::default();
    let mut general = |p: Piece| -> Option<Vec<ParsedDoc>> {
        let (docs, error) = yaml::parse_spending(&text[p.start..p.end], &mut spent);
        if error.is_some() {
            return None;
        }
        Some(
            docs.into_iter()
                .map(|d| pieces::shifted(d, p.line - 1))
                .collect(),
        )
    };
    let mut parts = Vec::new();
    let mut managed = Vec::new();
    let mut fast = false;
    for doc in documents(text) {
        if let Some((docs, m)) = scan(doc) {
            fast = true;
            managed.extend(m);
            parts.extend(docs.into_iter().map(Part::Fast));
            continue;
        }
        let Some(list) = list_items(text, doc) else {
            let docs = general(doc)?;
            parts.extend(
                docs.into_iter()
                    .map(|d| Part::Tree(objects::Doc::from_parsed(d))),
            );
            continue;
        };
        let mut items = Vec::with_capacity(list.items.len());
        for item in list.items {
            match scan(item)
                .as_mut()
                .map(|(docs, m)| (docs.pop(), docs.is_empty(), m))
            {
                Some((Some(d), true, m)) if d.items.len() == 1 => {
                    fast = true;
                    managed.append(m);
                    let h = d.value.items.and_then(|mut i| i.pop()).unwrap_or_default();
                    items.push(ItemPart::Fast(h, d.items[0]));
                }
                _ => {
                    let mut docs = general(item)?;
                    let (Some(d), true) = (docs.pop(), docs.is_empty()) else {
                        return None;
                    };
                    let span = d.item_spans.first().copied().unwrap_or(d.span);
                    let read = objects::Doc::from_parsed(d);
                    let (Some(mut headers), Body::Tree(Value::Array(mut values))) =
                        (read.header.items, read.body)
                    else {
                        return None;
                    };
                    if headers.len() != 1 || values.len() != 1 {
                        return None;
                    }
                    let h = headers.pop().map(|i| i.header).unwrap_or_default();
                    items.push(ItemPart::Tree(h, values.remove(0), span));
                }
            }
        }
        // The List's own keys, with an empty `items`.
        let own = format!(
            "{}items: []\n{}",
            &text[doc.start..list.items_line],
            &text[list.after..doc.end]
        );
        let (mut own, error) = yaml::parse(&own);
        if error.is_some() || own.len() != 1 {
            return None;
        }
        let header = objects::Doc::from_parsed(own.remove(0)).header;
        let header = objects::with_items(header, |_, i| i.header);
        parts.push(Part::List {
            header,
            offset: list.first.start,
            span: Span {
                start: list.first.line,
                end: list.last_line.max(list.first.line),
            },
            items,
        });
    }
    // Managed ranges in the order of the file (documents and items are in order).
    fast.then_some((parts, managed))
}

/// The lines of `piece`: (byte offset of the line, line number, the line without its
/// line break).
fn lines(text: &str, piece: Piece) -> impl Iterator<Item = (usize, u32, &str)> {
    let mut offset = piece.start;
    (piece.line..)
        .zip(text[piece.start..piece.end].split_inclusive('\n'))
        .map(move |(no, raw)| {
            let at = offset;
            offset += raw.len();
            (at, no, raw.trim_end_matches(['\n', '\r']))
        })
}

/// The documents of `text`: from each `---` line at column 0 to the next.
fn documents(text: &str) -> Vec<Piece> {
    let whole = Piece {
        start: 0,
        end: text.len(),
        line: 1,
    };
    let mut out = vec![whole];
    for (at, no, l) in lines(text, whole) {
        if at > 0 && (l == "---" || l.starts_with("--- ")) {
            let last = out.last_mut().expect("one piece");
            last.end = at;
            out.push(Piece {
                start: at,
                end: text.len(),
                line: no,
            });
        }
    }
    out
}

/// Where a List document's items are.
struct ListItems {
    /// The first line with content (the document's own first line).
    first: Piece,
    /// Offset of the `items:` line.
    items_line: usize,
    items: Vec<Piece>,
    /// Where the first line at column 0 after the items starts (or the document ends).
    after: usize,
    /// The document's last line with content.
    last_line: u32,
}

/// The items of a document with an `items:` line at column 0 whose items are `- ` lines at
/// column 0 (as kubectl writes a List), each up to the next; `None` for any other shape.
fn list_items(text: &str, doc: Piece) -> Option<ListItems> {
    let mut first = None;
    let mut items_line = None;
    let mut items: Vec<Piece> = Vec::new();
    let mut after = None;
    let mut last_line = doc.line;
    for (at, no, l) in lines(text, doc) {
        let blank = l.trim().is_empty() || l.starts_with('#');
        if !(blank || l == "---" || l.starts_with("--- ")) {
            first.get_or_insert(Piece {
                start: at,
                end: doc.end,
                line: no,
            });
            last_line = no;
        }
        if after.is_some() || blank || l.starts_with([' ', '\t']) {
            continue;
        }
        if items_line.is_none() {
            if l.trim_end() == "items:" {
                items_line = Some(at);
            }
            continue;
        }
        if l == "-" || l.starts_with("- ") {
            if let Some(prev) = items.last_mut() {
                prev.end = at;
            }
            items.push(Piece {
                start: at,
                end: doc.end,
                line: no,
            });
        } else {
            if let Some(prev) = items.last_mut() {
                prev.end = at;
            }
            after = Some(at);
        }
    }
    if items.is_empty() {
        return None;
    }
    Some(ListItems {
        first: first?,
        items_line: items_line?,
        items,
        after: after.unwrap_or(doc.end),
        last_line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_and_items_are_found_at_column_0() {
        let text = "a: 1\n---\napiVersion: v1\nitems:\n- kind: Pod\n  x: |\n    - no\n# c\n-  kind: Pod\nkind: List\n--- \nb: 2\n";
        let docs = documents(text);
        assert_eq!(
            docs.iter()
                .map(|d| (d.line, &text[d.start..d.end]))
                .collect::<Vec<_>>(),
            [
                (1, "a: 1\n"),
                (
                    2,
                    "---\napiVersion: v1\nitems:\n- kind: Pod\n  x: |\n    - no\n# c\n-  kind: Pod\nkind: List\n"
                ),
                (11, "--- \nb: 2\n"),
            ]
        );
        let list = list_items(text, docs[1]).expect("a List");
        assert_eq!(
            list.items
                .iter()
                .map(|i| (i.line, &text[i.start..i.end]))
                .collect::<Vec<_>>(),
            [
                (5, "- kind: Pod\n  x: |\n    - no\n# c\n"),
                (9, "-  kind: Pod\n")
            ]
        );
        assert_eq!(&text[list.after..docs[1].end], "kind: List\n");
        assert_eq!((list.first.line, list.last_line), (3, 10));
        // Items indented under `items:` are another shape: not split.
        assert!(list_items("items:\n  - a: 1\n", documents("items:\n  - a: 1\n")[0]).is_none());
    }
}

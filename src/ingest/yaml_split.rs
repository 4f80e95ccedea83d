//! A YAML file the fast path refuses somewhere, read in pieces: each document on its own
//! and, in a List document, each item of its `items:` on its own, so that one anchor, tag
//! or flow mapping sends only its document or item to the general parser, whose trees
//! cost several times the text (a 94 MB List of pods with one `&a` in one pod cost
//! 1.12 GB read whole by the general parser, 381 MB by the fast path). An item the
//! general parser reads is kept as its text ([`Body::General`]) and read again when asked.
//!
//! Pieces are found by lines at column 0: a document starts at a `---` line, and a List's
//! items at the `- ` lines under an `items:` line (at column 0 as kubectl writes them, or
//! at one indentation as yq does), up to the first other line at column 0. A document
//! that is one flow mapping is split at the items of its `items: [...]` by a scanner of
//! flow syntax ([`flow_split`]); the List's own keys are read from the document with its
//! items blanked out. YAML can hold an alias to an anchor of another item; such an item
//! does not parse on its own, and then the file is read whole by the general parser, as
//! before (the caller does that when [`read`] gives the text back).

use super::body::Body;
use super::header::{Header, ItemHeader};
use super::{buffers, early, objects};
use crate::parse::fast_yaml::{self, ItemPos, Managed};
use crate::parse::spans::{ParsedDoc, Span};
use crate::parse::{KeptText, flow_split, pieces, tree, yaml};
use serde::de::IgnoredAny;
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
    /// Read by the general parser to check it and take its header, kept as its text
    /// (see [`Body::General`]).
    General {
        header: ItemHeader,
        piece: Piece,
        block: bool,
        span: Span,
    },
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
                        ItemPart::General {
                            header,
                            piece,
                            block,
                            span,
                        } => {
                            let body = Body::General {
                                text: text.clone(),
                                start: shifts.map(piece.start),
                                end: shifts.map(piece.end),
                                line: piece.line,
                                item: block,
                            };
                            (header, Some((body, span)))
                        }
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
/// path found in them; `None` when nothing was split or read by the fast path, or a piece
/// does not parse alone.
fn parts(
    text: &str,
    hint: Option<&'static str>,
    views: bool,
    later: &Arc<fast_yaml::LaterText>,
) -> Option<(Vec<Part>, Vec<Managed>)> {
    let scan = |p: Piece, indented: bool| {
        let go = || {
            fast_yaml::scan_piece_keeping::<Header<ItemHeader>>(
                text,
                (p.start, p.end),
                p.line,
                indented,
                later,
            )
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
    let mut split = false;
    for doc in documents(text) {
        if let Some((docs, m)) = scan(doc, false) {
            split = true;
            managed.extend(m);
            parts.extend(docs.into_iter().map(Part::Fast));
            continue;
        }
        let Some(list) = block_items(text, doc).or_else(|| flow_items(text, doc)) else {
            let docs = general(doc)?;
            parts.extend(
                docs.into_iter()
                    .map(|d| Part::Tree(objects::Doc::from_parsed(d))),
            );
            continue;
        };
        split = true;
        let mut items = Vec::with_capacity(list.items.len());
        for item in list.items {
            let fast = list
                .block
                .then(|| scan(item, true))
                .flatten()
                .map(|(mut docs, m)| (docs.pop(), docs.is_empty(), m));
            match fast {
                Some((Some(d), true, m)) if d.items.len() == 1 => {
                    managed.extend(m);
                    let h = d.value.items.and_then(|mut i| i.pop()).unwrap_or_default();
                    items.push(ItemPart::Fast(h, d.items[0]));
                }
                _ => {
                    let views = views.then_some(hint);
                    items.push(general_item(general(item)?, item, list.block, views)?);
                }
            }
        }
        let (mut own, error) = yaml::parse(&list.own);
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
    split.then_some((parts, managed))
}

/// An item the general parser read alone (`docs`, of `piece`), checked to be one value
/// (`block`: one `- ` item), kept as its header and where its text is; with its early
/// view when `views` (the kind of objects that do not say theirs) says so.
fn general_item(
    mut docs: Vec<ParsedDoc>,
    piece: Piece,
    block: bool,
    views: Option<Option<&'static str>>,
) -> Option<ItemPart> {
    let (Some(d), true) = (docs.pop(), docs.is_empty()) else {
        return None;
    };
    // The view read from the tree now, as a JSON item's is: its text would otherwise be
    // parsed again for it.
    let early = |value: &Value| {
        let hint = views?;
        early::with_early_views(hint, || tree::read::<ItemHeader>(value))
            .ok()?
            .early
    };
    let (mut header, span, early) = if block {
        let span = d.item_spans.first().copied().unwrap_or(d.span);
        let read = objects::Doc::from_parsed(d);
        let (Some(mut headers), Body::Tree(Value::Array(values))) = (read.header.items, read.body)
        else {
            return None;
        };
        if headers.len() != 1 || values.len() != 1 {
            return None;
        }
        let early = early(&values[0]);
        (
            headers.pop().map(|i| i.header).unwrap_or_default(),
            span,
            early,
        )
    } else {
        let span = d.span;
        let read = objects::Doc::from_parsed(d);
        let Body::Tree(value) = &read.body else {
            return None;
        };
        let early = early(value);
        (
            objects::with_items(read.header, |_, _| IgnoredAny),
            span,
            early,
        )
    };
    header.early = early;
    Some(ItemPart::General {
        header,
        piece,
        block,
        span,
    })
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
    items: Vec<Piece>,
    /// The items are `- ` items of a block sequence; else values of a flow sequence.
    block: bool,
    /// The document with an empty `items`: the List's own keys.
    own: String,
    /// The document's last line with content.
    last_line: u32,
}

/// The items of a document with an `items:` line at column 0 whose items are `- ` lines
/// at one indentation (column 0 as kubectl writes a List, or indented as yq writes it),
/// each up to the next; `None` for any other shape.
fn block_items(text: &str, doc: Piece) -> Option<ListItems> {
    let mut first = None;
    let mut items_line = None;
    // The items' indentation, from the first line after `items:`.
    let mut indent = None;
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
        if after.is_some() || blank {
            continue;
        }
        if items_line.is_none() {
            if l.trim_end() == "items:" {
                items_line = Some(at);
            }
            continue;
        }
        let spaces = l.len() - l.trim_start_matches(' ').len();
        let rest = &l[spaces..];
        let dash = rest == "-" || rest.starts_with("- ");
        let n = *indent.get_or_insert(spaces);
        if spaces > n || (n == 0 && l.starts_with('\t')) || (n > 0 && rest.starts_with('#')) {
            // Inside the item (a comment line at any indentation under indented items).
            continue;
        }
        if let Some(prev) = items.last_mut() {
            prev.end = at;
        }
        if spaces == n && dash {
            items.push(Piece {
                start: at,
                end: doc.end,
                line: no,
            });
        } else if spaces == 0 && !items.is_empty() {
            after = Some(at);
        } else {
            return None;
        }
    }
    if items.is_empty() {
        return None;
    }
    let after = after.unwrap_or(doc.end);
    Some(ListItems {
        first: first?,
        own: format!(
            "{}items: []\n{}",
            &text[doc.start..items_line?],
            &text[after..doc.end]
        ),
        items,
        block: true,
        last_line,
    })
}

/// The items of a document that is one flow mapping with an `items: [...]`, or a block
/// mapping whose `items:` is a flow sequence (see [`flow_split`]), each from its first
/// byte to its last, on the line it starts on.
fn flow_items(text: &str, doc: Piece) -> Option<ListItems> {
    let d = &text[doc.start..doc.end];
    let found = flow_split::list_items(d).or_else(|| flow_split::block_key_items(d))?;
    // Lines counted on from one item to the next: one pass over the document.
    let mut at = (0, doc.line);
    let mut line_at = |to: usize| {
        at.1 += memchr::memchr_iter(b'\n', &d.as_bytes()[at.0..to]).count() as u32;
        at.0 = to;
        at.1
    };
    let first = Piece {
        start: doc.start + d[..found.start].rfind('\n').map_or(0, |n| n + 1),
        end: doc.end,
        line: line_at(found.start),
    };
    let items = found
        .items
        .iter()
        .map(|r| Piece {
            start: doc.start + r.start,
            end: doc.start + r.end,
            line: line_at(r.start),
        })
        .collect();
    let last_line = line_at(d.trim_end().len().max(found.close));
    // The items' lines stay, blank, so that the rest keeps its lines and columns.
    let inside = &d[found.open + 1..found.close];
    let breaks = memchr::memchr_iter(b'\n', inside.as_bytes()).count();
    let column = inside.rfind('\n').map_or(0, |n| inside.len() - n - 1);
    let own = format!(
        "{}{}{}{}",
        &d[..=found.open],
        "\n".repeat(breaks),
        " ".repeat(if breaks > 0 { column } else { 0 }),
        &d[found.close..]
    );
    Some(ListItems {
        first,
        items,
        block: false,
        own,
        last_line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each item of `list` as (line, text).
    fn item_texts<'t>(list: &ListItems, text: &'t str) -> Vec<(u32, &'t str)> {
        list.items
            .iter()
            .map(|i| (i.line, &text[i.start..i.end]))
            .collect()
    }

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
        let list = block_items(text, docs[1]).expect("a List");
        assert_eq!(
            item_texts(&list, text),
            [
                (5, "- kind: Pod\n  x: |\n    - no\n# c\n"),
                (9, "-  kind: Pod\n")
            ]
        );
        assert_eq!(list.own, "---\napiVersion: v1\nitems: []\nkind: List\n");
        assert_eq!((list.first.line, list.last_line), (3, 10));
    }

    #[test]
    fn indented_items_are_found_at_their_indentation() {
        let text = "items:\n  - a: 1\n    b:\n    - 2\n# c\n      # d\n  - |\n   x\nkind: List\n";
        let list = block_items(text, documents(text)[0]).expect("a List");
        assert_eq!(
            item_texts(&list, text),
            [
                (2, "  - a: 1\n    b:\n    - 2\n# c\n      # d\n"),
                (7, "  - |\n   x\n")
            ]
        );
        assert_eq!(list.own, "items: []\nkind: List\n");
        // Items at two indentations, or something else between them: not split.
        for odd in [
            "items:\n  - a\n - b\n",
            "items:\n  - a\n  b: 1\n",
            "items:\n  a: 1\n",
        ] {
            assert!(block_items(odd, documents(odd)[0]).is_none(), "{odd}");
        }
    }

    #[test]
    fn flow_items_keep_their_lines() {
        let text = "# c\n{apiVersion: v1, items: [{a: 1,\n  b: 2}, {c: 3}\n  ], kind: List}\n";
        let list = flow_items(text, documents(text)[0]).expect("a flow List");
        assert_eq!(
            item_texts(&list, text),
            [(2, "{a: 1,\n  b: 2}"), (3, "{c: 3}")]
        );
        assert_eq!((list.first.line, list.last_line), (2, 4));
        assert_eq!(
            list.own,
            "# c\n{apiVersion: v1, items: [\n\n  ], kind: List}\n"
        );
    }
}

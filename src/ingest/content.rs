//! One file's bytes → its objects, read without knowing the bundle's layout, so that an
//! archive's members can be parsed as they are inflated, before every path (and so the
//! layout) is known. What the content means for the bundle is decided by the caller.

use super::{KeptText, body, buffers, early, header, json, layout, objects};
use crate::parse::{fast_yaml, spans, yaml};
use std::sync::Arc;

/// What a file's bytes turned out to hold.
pub enum FileRead {
    /// Not UTF-8 text, or binary: why.
    NotText(String),
    /// Text that is neither JSON nor starts like Kubernetes YAML, left unread because the
    /// caller did not need it parsed.
    Unparsed,
    Parsed {
        /// JSON, or YAML that starts like Kubernetes objects: collector output that is
        /// neither is skipped where the layout says a file only may hold objects.
        looks_like_objects: bool,
        /// Its first key is `apiVersion` or `kind` (see [`starts_like_objects`]): a file
        /// that holds objects wherever the layout put it, so what does not read in it is
        /// a problem even where the layout only says it may hold objects.
        starts_like_objects: bool,
        text: KeptText,
        extracted: objects::Extracted,
        error: Option<spans::ParseError>,
    },
}

/// Reads the file at `path` (a bundle-relative name: its extension says JSON or YAML).
/// Text that does not look like objects is parsed only when `must_parse`.
pub fn read(path: &str, bytes: Vec<u8>, must_parse: bool) -> FileRead {
    let text = match decode(bytes) {
        Ok(t) => t,
        Err(msg) => return FileRead::NotText(msg),
    };
    let lower = path.to_ascii_lowercase();
    let trimmed = text.trim_start();
    let looks_json = trimmed.starts_with('{') || trimmed.starts_with('[');
    let is_json = lower.ends_with(".json")
        || (looks_json && !lower.ends_with(".yaml") && !lower.ends_with(".yml"));
    let looks_like_objects = is_json || looks_yaml(trimmed);
    let starts_like_objects = starts_like_objects(trimmed);
    if !(looks_like_objects || must_parse) {
        buffers::give_back(text.into_bytes());
        return FileRead::Unparsed;
    }
    // JSON is kept without managedFields (see `parse::json::without_managed_fields`).
    let json_text = |text: String| -> KeptText {
        let compacted = crate::parse::json::without_managed_fields(&text);
        Arc::new(buffers::kept(text, compacted))
    };
    // Objects that do not say their kind have the one their path says (see `early`).
    let hint = layout::kind_from_path(path).map(|(_, kind)| kind);
    let ((text, docs, error), placeholders) = crate::parse::redaction::watch(|| {
        if is_json {
            let text = json_text(text);
            let (docs, error) = json::scan_with_views(&text, hint);
            (text, docs, error)
        } else if looks_json {
            // Flow-style YAML may still be valid JSON, which parses much faster.
            let text = json_text(text);
            let (docs, error) = match json::scan_with_views(&text, hint) {
                (docs, None) => (docs, None),
                as_json => match general_yaml(&text) {
                    (docs, None) => (docs, None),
                    // Neither reads it: say what the reading that got further says (as
                    // JSON when both got as far: the text starts as JSON does).
                    as_yaml => {
                        let reach = |(docs, e): &(Vec<objects::Doc>, Option<spans::ParseError>)| {
                            (docs.len(), e.as_ref().and_then(|e| e.line))
                        };
                        if reach(&as_yaml) > reach(&as_json) {
                            as_yaml
                        } else {
                            as_json
                        }
                    }
                },
            };
            (text, docs, error)
        } else {
            scan_yaml(text, hint)
        }
    });
    let mut extracted = objects::extract(path, docs);
    extracted.placeholders = placeholders;
    FileRead::Parsed {
        looks_like_objects,
        starts_like_objects,
        extracted,
        text,
        error,
    }
}

/// Headers of kubectl-style YAML by the fast path, leaving content as text (kept without
/// its `managedFields` blocks: see [`fast_yaml::compact`]) but for the views [`early`]
/// reads with them (`hint`: the kind of objects that do not say theirs); anything else by
/// the general parser. Returns the text to keep for the file.
pub fn scan_yaml(
    text: String,
    hint: Option<&'static str>,
) -> (KeptText, Vec<objects::Doc>, Option<spans::ParseError>) {
    use body::Body;
    use header::{Header, ItemHeader};
    let general = |text: String| {
        let (docs, error) = general_yaml(&text);
        (Arc::new(buffers::kept(text, None)), docs, error)
    };
    // Lazy fields of the views read with the headers point into the kept text, set below.
    let later = Arc::new(fast_yaml::LaterText::new());
    let scanned = early::with_early_views(hint, || {
        fast_yaml::scan_keeping::<Header<ItemHeader>>(&text, &later)
    });
    let Ok((docs, managed)) = scanned else {
        return general(text);
    };
    if docs
        .iter()
        .any(|d| d.value.items.as_ref().map_or(0, Vec::len) != d.items.len())
    {
        // Items the fast path could not place: let the general parser read the file.
        return general(text);
    }
    let (compacted, shifts) = if managed.is_empty() {
        (None, fast_yaml::Shifts::default())
    } else {
        let (kept, shifts) = fast_yaml::compact(&text, &managed);
        (Some(kept), shifts)
    };
    let text: KeptText = Arc::new(buffers::kept(text, compacted));
    let shifts = &later.get_or_init(|| (text.clone(), shifts)).1;
    let moved = |p: fast_yaml::ItemPos| fast_yaml::ItemPos {
        offset: shifts.map(p.offset),
        span: p.span,
    };
    let mut out = Vec::with_capacity(docs.len());
    for d in docs {
        let positions: Vec<_> = d.items.into_iter().map(moved).collect();
        let header = objects::with_items(d.value, |i, h| objects::Item {
            header: h,
            body: Some(Body::Yaml {
                text: text.clone(),
                pos: positions[i],
                item: true,
            }),
            span: positions[i].span,
        });
        out.push(objects::Doc {
            header,
            body: Body::Yaml {
                text: text.clone(),
                pos: moved(fast_yaml::ItemPos {
                    offset: d.offset,
                    span: d.span,
                }),
                item: false,
            },
            span: d.span,
        });
    }
    (text, out, None)
}

/// The general YAML parser: trees with positions, for YAML the fast path refuses.
fn general_yaml(text: &str) -> (Vec<objects::Doc>, Option<spans::ParseError>) {
    let (docs, error) = yaml::parse(text);
    (
        docs.into_iter().map(objects::Doc::from_parsed).collect(),
        error,
    )
}

/// Whether `text` (without leading white space) starts as kubectl writes objects and
/// lists: its first key, after any `---` and comment lines or a JSON list's `[`, is
/// `apiVersion` or `kind`.
fn starts_like_objects(text: &str) -> bool {
    let json = text.trim_start_matches(['[', ' ', '\t', '\r', '\n']);
    if let Some(members) = json.strip_prefix('{') {
        let first = members.trim_start();
        return first.starts_with("\"apiVersion\"") || first.starts_with("\"kind\"");
    }
    let first = text
        .lines()
        .map(str::trim_end)
        .find(|l| !(l.is_empty() || l.starts_with('#') || *l == "---"));
    first.is_some_and(|l| l.starts_with("apiVersion:") || l.starts_with("kind:"))
}

fn looks_yaml(text: &str) -> bool {
    ["apiVersion:", "kind:", "---", "items:", "metadata:"]
        .iter()
        .any(|p| text.starts_with(p))
}

/// UTF-8 text of a file, or why it is not text: in the buffer it was read into (kept
/// text takes it over).
pub fn decode(bytes: Vec<u8>) -> Result<String, String> {
    let head = &bytes[..bytes.len().min(8192)];
    if let Some(pos) = head.iter().position(|&b| b == 0) {
        return Err(format!(
            "binary file (NUL byte at offset {pos}), not YAML or JSON"
        ));
    }
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        format!("not UTF-8 text (invalid byte at offset {at}, line {line}); binary file?")
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

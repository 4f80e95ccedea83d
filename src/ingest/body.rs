//! Where an object's content lives: a tree parsed at ingest, or text deserialized when
//! a view or a rule first needs it.

use super::objects;
use crate::parse::fast_yaml::{self, ItemPos};
use crate::parse::tree;
use serde::de::DeserializeOwned;
use serde_json::Value;

#[derive(Clone, Debug)]
pub enum Body {
    /// Parsed at ingest (general YAML parser, kubelet configz, renamed objects); already
    /// carries its kind and apiVersion, scrubbed.
    Tree(Value),
    /// Fast-path YAML that ingest has checked: a document, or a `- ` item of its list.
    Yaml {
        text: super::KeptText,
        pos: ItemPos,
        item: bool,
    },
    /// YAML the fast path does not read (flow style, an anchor, a tag), kept as its text
    /// and read by the general parser each time it is asked: its tree would cost several
    /// times the text. `start..end` of the text starts on line `line`; `item`: the text
    /// is one `- ` item of a sequence, else the value itself.
    General {
        text: super::KeptText,
        start: usize,
        end: usize,
        line: u32,
        item: bool,
    },
    /// A JSON value at `start..end` of the file.
    Json {
        text: super::KeptText,
        start: usize,
        end: usize,
    },
}

impl Body {
    /// Deserializes the object as `T`, reading only the fields `T` names.
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, String> {
        match self {
            Body::Tree(v) => tree::read(v),
            Body::Yaml { text, pos, item } => match fast_yaml::object_in::<T>(text, *pos, *item) {
                Ok(v) => Ok(v),
                // Ingest checked the lines it skipped one by one, not how they nest (see
                // `line_check`): YAML the fast path does not read there is read by the
                // general parser, from the object's own lines.
                Err(fast_yaml::Error::Unsupported(..)) => {
                    tree::read(&general_value(text, *pos, *item)?)
                }
                Err(e) => Err(e.to_string()),
            },
            Body::General {
                text,
                start,
                end,
                line,
                item,
            } => tree::read(&general_piece(text, *start..*end, *line, *item)?),
            Body::Json { text, start, end } => {
                let piece = &text[*start..*end];
                let mut de = serde_json::Deserializer::from_str(piece);
                fast_yaml::reading_kept(text, || T::deserialize(&mut de)).or_else(|e| {
                    // Only when it failed: integral floats (`2e+09`) read as integers.
                    match crate::parse::tree::json_tree(piece) {
                        Ok(tree) if e.is_data() => tree::read(&tree),
                        _ => Err(e.to_string()),
                    }
                })
            }
        }
    }

    /// The object's text from its first line on (for JSON, from its first byte to its
    /// last), when it is text of `file`: where its lines start without a line index of
    /// the whole file.
    pub fn text_from_start<'a>(&self, file: &'a super::KeptText) -> Option<&'a str> {
        match self {
            Body::Yaml { text, pos, .. } if std::sync::Arc::ptr_eq(text, file) => {
                file.get(pos.offset..)
            }
            // A flow item may start and end inside a line.
            Body::General {
                text, start, end, ..
            } if std::sync::Arc::ptr_eq(text, file) => file.get(*start..*end),
            // Up to its last byte: one-line JSON holds a whole List on its one line, and
            // the lines of the rest of the file are not this object's.
            Body::Json { text, start, end } if std::sync::Arc::ptr_eq(text, file) => {
                file.get(*start..*end)
            }
            _ => None,
        }
    }

    /// The whole object as a tree, as ingest would have stored it: with its kind and
    /// apiVersion, without managedFields, last-applied configuration or Secret values.
    pub fn to_value(&self, kind: &str, api_version: &str) -> Value {
        let mut value = match self {
            Body::Tree(v) => return v.clone(),
            // Integral floats as integers, as the YAML paths read them.
            Body::Json { text, start, end } => {
                crate::parse::tree::json_tree(&text[*start..*end]).unwrap_or(Value::Null)
            }
            Body::Yaml { .. } | Body::General { .. } => {
                self.deserialize::<Value>().unwrap_or(Value::Null)
            }
        };
        if let Value::Object(map) = &mut value {
            objects::fix_up(map, kind, api_version);
        }
        value
    }
}

/// The object at `pos` of `text` (a document, or a `- ` item of a list) as the general
/// parser reads its lines, or the YAML error it finds (with the file's line number).
fn general_value(text: &str, pos: ItemPos, item: bool) -> Result<Value, String> {
    let bytes = text.as_bytes();
    let mut end = pos.offset;
    for _ in pos.span.start..=pos.span.end {
        end = memchr::memchr(b'\n', &bytes[end..]).map_or(bytes.len(), |i| end + i + 1);
    }
    general_piece(text, pos.offset..end, pos.span.start, item)
}

/// The object in `text[range]`, which starts on line `line` (a value, or the one `- `
/// item of a sequence), as the general parser reads it, or the YAML error it finds (with
/// the file's line number).
fn general_piece(
    text: &str,
    range: std::ops::Range<usize>,
    line: u32,
    item: bool,
) -> Result<Value, String> {
    let lines = text.get(range).unwrap_or_default();
    let (docs, error) = crate::parse::yaml::parse(lines);
    if let Some(e) = error {
        let line = e.line.map(|l| l + line - 1);
        return Err(match line {
            Some(line) => format!("YAML error at line {line}: {}", e.message),
            None => format!("YAML error: {}", e.message),
        });
    }
    match (docs.into_iter().next().map(|d| d.value), item) {
        (Some(Value::Array(mut items)), true) if items.len() == 1 => Ok(items.remove(0)),
        (Some(value), false) => Ok(value),
        _ => Err("not one object".to_string()),
    }
}

//! The serde side: a `Deserializer` for the node at the parser's cursor, and the map and
//! sequence accessors that read, or skip by indentation, what a type names.

use super::lex::{check_line, is_doc_marker, is_seq_entry, split_key};
use super::parser::{At, Mark, Parser, Shape};
use super::{ATTEMPT, Error, ItemPos, LAZY, MAX_DEPTH, R, unsupported};
use crate::parse::spans::Span;
use crate::parse::yaml::{Plain, resolve_plain};
use serde::Deserialize;
use serde::de::{
    self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use std::borrow::Cow;

/// Deserializer for the node at the cursor.
pub(super) struct De<'p, 'a> {
    pub(super) p: &'p mut Parser<'a>,
    pub(super) at: At<'a>,
}

impl<'a> De<'_, 'a> {
    fn enter(&mut self, line: u32) -> R<()> {
        self.p.depth += 1;
        if self.p.depth > MAX_DEPTH {
            return unsupported("deep nesting", line);
        }
        Ok(())
    }
}

impl<'de> Deserializer<'de> for De<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
        let at = std::mem::replace(&mut self.at, At::Known(Shape::Null));
        match self.p.shape(at)? {
            Shape::Null => visitor.visit_unit(),
            Shape::EmptyMap => visitor.visit_map(de::value::MapDeserializer::<
                std::iter::Empty<(&str, &str)>,
                Error,
            >::new(std::iter::empty())),
            Shape::EmptySeq => visitor.visit_seq(de::value::SeqDeserializer::<
                std::iter::Empty<&str>,
                Error,
            >::new(std::iter::empty())),
            Shape::Plain(s) => match resolve_plain(s) {
                Plain::Null => visitor.visit_unit(),
                Plain::Bool(b) => visitor.visit_bool(b),
                Plain::I64(n) => visitor.visit_i64(n),
                Plain::U64(n) => visitor.visit_u64(n),
                Plain::F64(f) => visitor.visit_f64(f),
                Plain::Str(s) => visitor.visit_borrowed_str(s),
            },
            Shape::Text(Cow::Borrowed(s)) => visitor.visit_borrowed_str(s),
            Shape::Text(Cow::Owned(s)) => visitor.visit_string(s),
            Shape::Map { indent, first, top } => {
                let line = self.p.line_no;
                self.enter(line)?;
                let v = visitor.visit_map(MapAcc {
                    p: &mut *self.p,
                    indent,
                    first,
                    top,
                    pending: None,
                    read_a_key: false,
                })?;
                self.p.depth -= 1;
                Ok(v)
            }
            Shape::Seq { indent, tracked } => {
                let line = self.p.line_no;
                self.enter(line)?;
                let v = if tracked {
                    let mut acc = SeqAcc {
                        p: &mut *self.p,
                        indent,
                        spans: Some(Vec::new()),
                    };
                    let v = visitor.visit_seq(&mut acc)?;
                    let spans = acc.spans.take();
                    self.p.item_spans = spans;
                    v
                } else {
                    visitor.visit_seq(&mut SeqAcc {
                        p: &mut *self.p,
                        indent,
                        spans: None,
                    })?
                };
                self.p.depth -= 1;
                Ok(v)
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
        let at = std::mem::replace(&mut self.at, At::Known(Shape::Null));
        match self.p.shape(at)? {
            Shape::Null => visitor.visit_none(),
            Shape::Plain(s) if matches!(resolve_plain(s), Plain::Null) => visitor.visit_none(),
            shape => visitor.visit_some(De {
                p: self.p,
                at: At::Known(shape),
            }),
        }
    }

    /// Values the target does not name: skipped by indentation when the text is known good.
    fn deserialize_ignored_any<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
        if let At::AfterKey { indent, rest, .. } = self.at {
            if self.p.skip_ignored {
                self.p.skip_after_key(indent, rest);
                return visitor.visit_unit();
            }
            if self.p.check_lines && self.p.skip_checked(indent, rest) {
                return visitor.visit_unit();
            }
        }
        // Checked, not read: a scalar's type does not matter.
        let at = std::mem::replace(&mut self.at, At::Known(Shape::Null));
        match self.p.shape(at)? {
            shape @ (Shape::Map { .. } | Shape::Seq { .. }) => {
                self.at = At::Known(shape);
                self.deserialize_any(visitor)
            }
            _ => visitor.visit_unit(),
        }
    }

    /// [`LAZY`] asks for the text of a `key: value` entry instead of its value, so a view
    /// can keep a field it rarely reads as text and parse it when asked. In ingest's scan
    /// the entry's lines are checked (or parsed) first, as an ignored value's are.
    ///
    /// [`ATTEMPT`] asks to read the value as one type and, when that fails, as another
    /// from the same place: see [`AttemptSeq`].
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> R<V::Value> {
        if name == ATTEMPT {
            let mark = self.p.mark();
            return visitor.visit_seq(AttemptSeq {
                p: self.p,
                at: Some(self.at),
                mark,
                failed: false,
            });
        }
        if name == LAZY
            && (self.p.skip_ignored || self.p.check_lines)
            && let At::AfterKey {
                indent,
                rest,
                key_at,
                ..
            } = self.at
            && key_at != usize::MAX
        {
            if self.p.skip_ignored {
                self.p.skip_after_key(indent, rest);
            } else if !self.p.skip_checked(indent, rest) {
                serde::de::IgnoredAny::deserialize(De {
                    p: &mut *self.p,
                    at: self.at,
                })?;
            }
            let end = self.p.pos.max(key_at);
            // From the start of the key's line (maybe `- key:`): see `entry_value`.
            return visitor.visit_borrowed_str(&self.p.src[key_at - indent..end]);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        mut self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        let at = std::mem::replace(&mut self.at, At::Known(Shape::Null));
        match self.p.shape(at)? {
            Shape::Plain(s) => visitor.visit_enum(s.into_deserializer()),
            Shape::Text(s) => visitor.visit_enum(s.into_owned().into_deserializer()),
            _ => Err(de::Error::custom("expected a string for an enum")),
        }
    }

    /// A plain scalar where a string is asked for is that string as written: YAML 1.1
    /// writers (PyYAML) leave `00000008`, `on`, `1e3` or `0x1F` unquoted, and the value is
    /// its source text, not a number or a bool re-rendered. Only `null` (`~`, empty) stays
    /// a null. Borrowed, and no resolving: no cost on the common path.
    fn deserialize_str<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
        let at = std::mem::replace(&mut self.at, At::Known(Shape::Null));
        match self.p.shape(at)? {
            Shape::Plain(s) if !matches!(s, "" | "~" | "null" | "Null" | "NULL") => {
                visitor.visit_borrowed_str(s)
            }
            shape => De {
                p: self.p,
                at: At::Known(shape),
            }
            .deserialize_any(visitor),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        self.deserialize_str(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

/// Entries of a block mapping whose keys sit at `indent`.
pub(super) struct MapAcc<'p, 'a> {
    pub(super) p: &'p mut Parser<'a>,
    pub(super) indent: usize,
    /// The entry on a `- key: value` line, already read.
    pub(super) first: Option<(Cow<'a, str>, &'a str, u32)>,
    pub(super) top: bool,
    /// The current key's rest of line, line number, whether it is a List's `items`, and
    /// the key's byte offset.
    pub(super) pending: Option<(&'a str, u32, bool, usize)>,
    /// Whether a key of this map was read (or skipped) already.
    pub(super) read_a_key: bool,
}

impl<'de> MapAccess<'de> for MapAcc<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> R<Option<K::Value>> {
        loop {
            let mut line_start = None;
            let (key, rest, line_no) = match self.first.take() {
                Some(entry) => entry,
                None => {
                    let Some(line) = self.p.peek() else {
                        return Ok(None);
                    };
                    if line.indent != self.indent
                        || is_seq_entry(line.content)
                        || is_doc_marker(&line)
                    {
                        if line.indent > self.indent {
                            return unsupported("unexpected indentation", line.no);
                        }
                        return Ok(None);
                    }
                    check_line(&line)?;
                    let Some((key, rest)) = split_key(line.content, line.no, self.p.skip_ignored)?
                    else {
                        return unsupported("expected a key", line.no);
                    };
                    line_start = Some(self.p.pos);
                    self.p.advance();
                    (key, rest, line.no)
                }
            };
            let first_of_document = self.top && !self.read_a_key;
            self.read_a_key = true;
            if key == "managedFields" {
                // Bookkeeping of who wrote which field: large, and never evidence.
                self.p.skip_after_key(self.indent, rest);
                // Its text may go (see `compact`) when it has a line of its own and another
                // key of the same map follows: the map stays a map (not `null`) and the
                // object ends where it did; and when it is not a document's first key: the
                // document starts where it did.
                if let Some(start) = line_start
                    && !first_of_document
                    && self.p.peek().is_some_and(|l| {
                        l.indent == self.indent && !is_seq_entry(l.content) && !is_doc_marker(&l)
                    })
                {
                    self.p.managed.push(start..self.p.pos);
                }
                continue;
            }
            let key_at = match &key {
                Cow::Borrowed(k) => k.as_ptr() as usize - self.p.src.as_ptr() as usize,
                Cow::Owned(_) => usize::MAX,
            };
            self.pending = Some((rest, line_no, self.top && key == "items", key_at));
            return seed
                .deserialize(de::value::CowStrDeserializer::<Error>::new(key))
                .map(Some);
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> R<V::Value> {
        let (rest, line, objects_list, key_at) = self
            .pending
            .take()
            .ok_or_else(|| Error::Shape("value without a key".into()))?;
        seed.deserialize(De {
            p: &mut *self.p,
            at: At::AfterKey {
                indent: self.indent,
                rest,
                line,
                objects_list,
                key_at,
            },
        })
    }
}

/// Entries `- …` of a block sequence at `indent`; `spans` collects a List's item spans.
pub(super) struct SeqAcc<'p, 'a> {
    pub(super) p: &'p mut Parser<'a>,
    pub(super) indent: usize,
    pub(super) spans: Option<Vec<ItemPos>>,
}

impl<'de> SeqAccess<'de> for &mut SeqAcc<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> R<Option<T::Value>> {
        let Some(line) = self.p.peek() else {
            return Ok(None);
        };
        if line.indent != self.indent || !is_seq_entry(line.content) {
            if line.indent > self.indent {
                return unsupported("unexpected indentation", line.no);
            }
            return Ok(None);
        }
        let offset = self.p.pos;
        let v = seed.deserialize(De {
            p: &mut *self.p,
            at: At::SeqItem,
        })?;
        if let Some(spans) = &mut self.spans {
            spans.push(ItemPos {
                offset,
                span: Span {
                    start: line.no,
                    end: self.p.last_content_line.max(line.no),
                },
            });
        }
        Ok(Some(v))
    }
}

/// The two tries of an [`ATTEMPT`], as a sequence: the first element is the value read as
/// the first type, or none when that fails (the cursor then goes back to where the value
/// starts); the second is the value read as the fallback type. A failure to read the
/// value as the fallback type is the value's error.
pub(super) struct AttemptSeq<'p, 'a> {
    pub(super) p: &'p mut Parser<'a>,
    /// The value's place, until both tries are made.
    pub(super) at: Option<At<'a>>,
    pub(super) mark: Mark,
    /// The first try was made and failed.
    pub(super) failed: bool,
}

impl<'de> SeqAccess<'de> for AttemptSeq<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> R<Option<T::Value>> {
        let Some(at) = self.at.clone() else {
            return Ok(None);
        };
        if self.failed {
            self.at = None;
            return seed
                .deserialize(De {
                    p: &mut *self.p,
                    at,
                })
                .map(Some);
        }
        match seed.deserialize(De {
            p: &mut *self.p,
            at,
        }) {
            Ok(v) => {
                self.at = None;
                Ok(Some(v))
            }
            Err(_) => {
                self.p.rewind(self.mark);
                self.failed = true;
                Ok(None)
            }
        }
    }
}

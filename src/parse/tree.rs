//! Trees as the API server reads them, and reading a type from a tree while knowing where
//! it failed: what a reader falls back to when a value of an odd shape did not read.
//!
//! Go writes the numbers of unstructured objects as floats (`priority: 2e+09`), and the
//! API server reads an integral float as an integer: so do the YAML paths (see
//! [`integral`]) and [`json_tree`].

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};
use serde::{Deserialize, forward_to_deserialize_any};
use serde_json::{Map, Number, Value};
use std::cell::RefCell;
use std::fmt;

/// An integral float as the integer it is, when it fits one (`2e+09`, `1.0`, `-0.0`).
pub fn integral(f: f64) -> Option<Number> {
    if f.fract() != 0.0 || !f.is_finite() {
        return None;
    }
    // 2^63 and 2^64 are exact as floats; the casts below are exact inside the ranges.
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) {
        Some(Number::from(f as i64))
    } else if (0.0..18_446_744_073_709_551_616.0).contains(&f) {
        Some(Number::from(f as u64))
    } else {
        None
    }
}

/// The JSON value `text` holds, with integral floats as integers.
pub fn json_tree(text: &str) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let tree = Integral::deserialize(&mut de)?.0;
    de.end()?;
    Ok(tree)
}

/// A tree built as `Value` builds one, but for integral floats.
struct Integral(Value);

impl<'de> Deserialize<'de> for Integral {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Integral;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E>(self, b: bool) -> Result<Integral, E> {
                Ok(Integral(Value::Bool(b)))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Integral, E> {
                Ok(Integral(Value::Number(n.into())))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Integral, E> {
                Ok(Integral(Value::Number(n.into())))
            }
            fn visit_f64<E>(self, f: f64) -> Result<Integral, E> {
                let n = integral(f).or_else(|| Number::from_f64(f));
                Ok(Integral(n.map_or(Value::Null, Value::Number)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Integral, E> {
                Ok(Integral(Value::String(s.to_string())))
            }
            fn visit_string<E>(self, s: String) -> Result<Integral, E> {
                Ok(Integral(Value::String(s)))
            }
            fn visit_unit<E>(self) -> Result<Integral, E> {
                Ok(Integral(Value::Null))
            }
            fn visit_none<E>(self) -> Result<Integral, E> {
                Ok(Integral(Value::Null))
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Integral, D::Error> {
                Integral::deserialize(d)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Integral, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(Integral(v)) = seq.next_element()? {
                    items.push(v);
                }
                Ok(Integral(Value::Array(items)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Integral, A::Error> {
                let mut out = Map::new();
                while let Some((k, Integral(v))) = map.next_entry::<String, Integral>()? {
                    out.insert(k, v);
                }
                Ok(Integral(Value::Object(out)))
            }
        }
        d.deserialize_any(V)
    }
}

/// One step of a path into a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Where reading a type from a tree failed, and why.
#[derive(Debug)]
pub struct Failure {
    /// The value that did not read (a map entry or a list item); empty for the tree itself.
    pub path: Vec<Step>,
    pub message: String,
}

/// `spec.containers[0].ports` for messages.
pub fn path_text(path: &[Step]) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            Step::Key(k) if s.is_empty() => s.push_str(k),
            Step::Key(k) => {
                s.push('.');
                s.push_str(k);
            }
            Step::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// Reads `T` from `tree` as `T::deserialize(tree)` does, and on failure says where: the
/// deepest value being read when it failed.
pub fn read_tracked<T: DeserializeOwned>(tree: &Value) -> Result<T, Failure> {
    let path = RefCell::new(Vec::new());
    T::deserialize(Tracked {
        v: tree,
        path: &path,
    })
    .map_err(|e| Failure {
        path: path.into_inner(),
        message: e.0,
    })
}

/// Reads `T` from `tree` as [`read_tracked`] does (a scalar where a string goes is that
/// string; a field kept as text keeps the value's JSON text), saying only why it failed.
pub fn read<T: DeserializeOwned>(tree: &Value) -> Result<T, String> {
    read_tracked(tree).map_err(|f| f.message)
}

/// The newtype name serde_json's `RawValue` is read by: a type that keeps a value as its
/// JSON text asks for it by this name, and a tree answers with its text.
pub const RAW_VALUE: &str = "$serde_json::private::RawValue";

/// Removes the value at `path` from `tree` (a map entry, or a list item); whether it was there.
pub fn remove(tree: &mut Value, path: &[Step]) -> bool {
    let Some((last, parents)) = path.split_last() else {
        return false;
    };
    let mut at = tree;
    for step in parents {
        let next = match (step, at) {
            (Step::Key(k), Value::Object(m)) => m.get_mut(k),
            (Step::Index(i), Value::Array(a)) => a.get_mut(*i),
            _ => None,
        };
        match next {
            Some(v) => at = v,
            None => return false,
        }
    }
    match (last, at) {
        (Step::Key(k), Value::Object(m)) => m.remove(k).is_some(),
        (Step::Index(i), Value::Array(a)) if *i < a.len() => {
            a.remove(*i);
            true
        }
        _ => false,
    }
}

#[derive(Debug)]
struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

/// A tree as a `Deserializer` (as serde_json's `&Value` is) that keeps the path to the
/// value being read: each step is taken off again once its value has read.
struct Tracked<'a, 'p> {
    v: &'a Value,
    path: &'p RefCell<Vec<Step>>,
}

impl<'a, 'p> Tracked<'a, 'p> {
    /// Reads `v`, a step below, with `seed`.
    fn step<'de, S: DeserializeSeed<'de>>(
        path: &'p RefCell<Vec<Step>>,
        step: Step,
        v: &'a Value,
        seed: S,
    ) -> Result<S::Value, Error>
    where
        'a: 'de,
    {
        let depth = path.borrow().len();
        path.borrow_mut().push(step);
        let out = seed.deserialize(Tracked { v, path });
        if out.is_ok() {
            path.borrow_mut().truncate(depth);
        }
        out
    }
}

impl<'de, 'p> Deserializer<'de> for Tracked<'de, 'p> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.v {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => visitor.visit_u64(u),
                (None, Some(i), _) => visitor.visit_i64(i),
                (None, None, Some(f)) => visitor.visit_f64(f),
                _ => visitor.visit_unit(),
            },
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => visitor.visit_seq(Items {
                iter: items.iter().enumerate(),
                path: self.path,
            }),
            Value::Object(map) => visitor.visit_map(Entries {
                iter: map.iter(),
                value: None,
                path: self.path,
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.v {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    /// A value kept as its JSON text ([`RAW_VALUE`]) gets that text, as from serde_json's
    /// own `&Value`: the field keeps the value, its siblings read on.
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == RAW_VALUE {
            return self
                .v
                .deserialize_newtype_struct(name, visitor)
                .map_err(|e| Error(e.to_string()));
        }
        visitor.visit_newtype_struct(self)
    }

    /// A number or a bool where a string goes is that string (as a YAML 1.1 writer left
    /// `pod-template-hash: 00000008` or `enabled: true` unquoted, or a JSON writer
    /// wrote `"port": 8080`): a tree keeps no source text, so it is the value's text.
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.v {
            Value::Number(n) => visitor.visit_string(n.to_string()),
            Value::Bool(b) => visitor.visit_borrowed_str(if *b { "true" } else { "false" }),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.v {
            Value::String(s) => visitor.visit_enum(s.as_str().into_deserializer()),
            Value::Object(map) if map.len() == 1 => match map.iter().next() {
                Some((variant, value)) => visitor.visit_enum(Variant {
                    variant,
                    value,
                    path: self.path,
                }),
                None => Err(de::Error::custom("expected an enum")),
            },
            _ => Err(de::Error::custom("expected a string or a map of one entry")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

struct Items<'a, 'p> {
    iter: std::iter::Enumerate<std::slice::Iter<'a, Value>>,
    path: &'p RefCell<Vec<Step>>,
}

impl<'de, 'p> SeqAccess<'de> for Items<'de, 'p> {
    type Error = Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Error> {
        match self.iter.next() {
            Some((i, v)) => Tracked::step(self.path, Step::Index(i), v, seed).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

struct Entries<'a, 'p> {
    iter: serde_json::map::Iter<'a>,
    value: Option<(&'a String, &'a Value)>,
    path: &'p RefCell<Vec<Step>>,
}

impl<'de, 'p> MapAccess<'de> for Entries<'de, 'p> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self.iter.next() {
            Some((k, v)) => {
                self.value = Some((k, v));
                seed.deserialize(de::value::BorrowedStrDeserializer::new(k))
                    .map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        match self.value.take() {
            Some((k, v)) => Tracked::step(self.path, Step::Key(k.clone()), v, seed),
            None => Err(de::Error::custom("value without a key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// An enum written as a map of one entry: `{variant: value}`.
struct Variant<'a, 'p> {
    variant: &'a String,
    value: &'a Value,
    path: &'p RefCell<Vec<Step>>,
}

impl<'de, 'p> EnumAccess<'de> for Variant<'de, 'p> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), Error> {
        let v = seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(
            self.variant,
        ))?;
        Ok((v, self))
    }
}

impl<'de, 'p> VariantAccess<'de> for Variant<'de, 'p> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.value {
            Value::Null => Ok(()),
            _ => Err(de::Error::custom("expected a unit variant")),
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Error> {
        Tracked::step(self.path, Step::Key(self.variant.clone()), self.value, seed)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        let path = self.path;
        Tracked::step(
            path,
            Step::Key(self.variant.clone()),
            self.value,
            AnyWith(visitor),
        )
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let path = self.path;
        Tracked::step(
            path,
            Step::Key(self.variant.clone()),
            self.value,
            AnyWith(visitor),
        )
    }
}

/// A visitor handed the value as `deserialize_any` does, as a seed.
struct AnyWith<V>(V);

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for AnyWith<V> {
    type Value = V::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        d.deserialize_any(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Spec {
        #[serde(default)]
        priority: Option<i64>,
        #[serde(default)]
        containers: Vec<Container>,
        #[serde(default)]
        mode: Option<Mode>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Container {
        name: String,
        #[serde(default)]
        port: i64,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    enum Mode {
        On,
        Off,
    }

    #[test]
    fn integral_floats_are_integers() {
        assert_eq!(integral(2e9), Some(Number::from(2_000_000_000i64)));
        assert_eq!(integral(-0.0), Some(Number::from(0i64)));
        assert_eq!(integral(1.5), None);
        assert_eq!(integral(1e300), None);
        assert_eq!(integral(f64::NAN), None);
        assert_eq!(
            integral(1.8e19),
            Some(Number::from(18_000_000_000_000_000_000u64))
        );
        let t =
            json_tree(r#"{"a": 2e+09, "b": 2.0e9, "c": 1e3, "d": 2.5, "e": [1.0, "x"]}"#).unwrap();
        assert_eq!(
            t,
            json!({"a": 2_000_000_000, "b": 2_000_000_000, "c": 1000, "d": 2.5, "e": [1, "x"]})
        );
        assert!(json_tree("{} x").is_err());
    }

    #[test]
    fn tracked_reads_as_value_does_and_says_where_it_failed() {
        for v in [
            json!({"priority": 3, "containers": [{"name": "a", "port": 80}], "mode": "On"}),
            json!({"priority": null, "containers": [], "other": {"x": [1]}}),
            json!({}),
        ] {
            let a = format!("{:?}", read_tracked::<Spec>(&v).map_err(|f| f.message));
            let b = format!("{:?}", Spec::deserialize(&v).map_err(|e| e.to_string()));
            assert_eq!(a, b, "{v}");
        }
        let v = json!({"priority": 2.5, "containers": [{"name": "a"}, {"name": "b", "port": "x"}]});
        // Keys in order: `containers` first.
        let f = read_tracked::<Spec>(&v).unwrap_err();
        assert_eq!(path_text(&f.path), "containers[1].port");
        let mut v = v;
        assert!(remove(&mut v, &f.path));
        let f = read_tracked::<Spec>(&v).unwrap_err();
        assert_eq!(path_text(&f.path), "priority");
        assert!(f.message.contains("floating point"), "{}", f.message);
        assert!(remove(&mut v, &f.path));
        let s = read_tracked::<Spec>(&v).unwrap();
        assert_eq!(
            s.containers[1],
            Container {
                name: "b".into(),
                port: 0
            }
        );
        // A missing field is the failure of the value that lacks it.
        let v = json!({"containers": [{"port": 1}]});
        assert_eq!(
            path_text(&read_tracked::<Spec>(&v).unwrap_err().path),
            "containers[0]"
        );
        let v = json!({"mode": "Sideways"});
        assert_eq!(
            path_text(&read_tracked::<Spec>(&v).unwrap_err().path),
            "mode"
        );
        assert!(!remove(&mut json!({}), &[]));
    }
}

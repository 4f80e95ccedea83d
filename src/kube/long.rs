//! Text values read bounded: a value longer than any the API server stores is kept as its
//! start and how much more there was.
//!
//! etcd refuses an object over 1.5 MiB, so no real value is longer than
//! [`MAX_VALUE_BYTES`]. A hostile bundle's 100 MB image name or message was copied into
//! the view, then into each finding that quotes it (fingerprint, message, evidence) and
//! into the report: a 300 MB file peaked at 1.5 GiB. Read through [`string`] or
//! [`opt_string`], such a value costs at most [`MAX_VALUE_BYTES`], and it is never copied
//! whole even once (the text is borrowed while it is cut).

use serde::de::{self, Deserialize, Deserializer, Visitor};
use std::fmt;

/// The longest value kept whole: 1 MiB, under etcd's 1.5 MiB limit on a whole object.
pub const MAX_VALUE_BYTES: usize = 1 << 20;

/// `text`, or its first [`MAX_VALUE_BYTES`] (cut at a character) and how many bytes were
/// left out.
pub fn bounded(text: &str) -> String {
    if text.len() <= MAX_VALUE_BYTES {
        return text.to_string();
    }
    let mut cut = MAX_VALUE_BYTES;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!(
        "{}… ({} more bytes not kept)",
        &text[..cut],
        text.len() - cut
    )
}

/// A `String` field read bounded (`#[serde(deserialize_with = "long::string")]`): it
/// reads what `String` reads (a string, or bytes that are UTF-8).
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Bounded::deserialize(d).map(|b| b.0)
}

/// An `Option<String>` field read bounded: `null` reads as `None`, as for `Option`.
pub fn opt_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Option::<Bounded>::deserialize(d).map(|b| b.map(|b| b.0))
}

/// An `Option<Str>` field read bounded, as [`opt_string`].
pub fn opt_str<'de, D: Deserializer<'de>>(d: D) -> Result<Option<super::Str>, D::Error> {
    Option::<Bounded>::deserialize(d).map(|b| b.map(|b| b.0.into()))
}

/// A string read bounded.
pub struct Bounded(pub String);

impl<'de> Deserialize<'de> for Bounded {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_string(BoundedVisitor).map(Bounded)
    }
}

struct BoundedVisitor;

impl Visitor<'_> for BoundedVisitor {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E>(self, v: &str) -> Result<String, E> {
        Ok(bounded(v))
    }
    fn visit_string<E>(self, v: String) -> Result<String, E> {
        if v.len() <= MAX_VALUE_BYTES {
            return Ok(v);
        }
        Ok(bounded(&v))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<String, E> {
        match std::str::from_utf8(v) {
            Ok(s) => Ok(bounded(s)),
            Err(_) => Err(E::invalid_value(de::Unexpected::Bytes(v), &self)),
        }
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<String, E> {
        match String::from_utf8(v) {
            Ok(s) => self.visit_string(s),
            Err(e) => Err(E::invalid_value(
                de::Unexpected::Bytes(&e.into_bytes()),
                &self,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Default, Debug)]
    #[serde(default)]
    struct Both {
        #[serde(deserialize_with = "string")]
        a: String,
        #[serde(deserialize_with = "opt_string")]
        b: Option<String>,
    }

    #[test]
    fn long_values_keep_their_start_and_say_how_much_is_left() {
        let long = "é".repeat(MAX_VALUE_BYTES); // two bytes each: cut inside one
        let json = serde_json::json!({"a": long, "b": "short"}).to_string();
        let both: Both = serde_json::from_str(&json).unwrap();
        assert!(both.a.starts_with(&long[..MAX_VALUE_BYTES]));
        assert!(
            both.a
                .ends_with(&format!("… ({MAX_VALUE_BYTES} more bytes not kept)"))
        );
        assert_eq!(both.b.as_deref(), Some("short"));
        let both: Both = serde_json::from_str(r#"{"a": "x", "b": null}"#).unwrap();
        assert_eq!((both.a.as_str(), both.b), ("x", None));
        // What `String` refuses, this refuses.
        assert!(serde_json::from_str::<Both>(r#"{"a": 1}"#).is_err());
        assert!(serde_json::from_str::<Both>(r#"{"b": [1]}"#).is_err());
    }
}

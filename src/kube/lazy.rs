//! A view field kept as its bundle text and parsed on first use.
//!
//! Probes, env, volumes and affinity are free-form trees that most pods never have
//! read: building them for every pod was most of a pod view's allocations. From the YAML
//! fast path a [`Lazy`] keeps the entry's place in the file's text (or, when the text is
//! not kept, a copy of the entry); from JSON or a tree it keeps the value's JSON text.
//! Either way `get` gives the same value, and
//! `null` or a value of the wrong shape reads as the default, as `null_default` does.

use crate::parse::fast_yaml::{LAZY, LaterText, Place, entry_as, place_of};
use crate::parse::tree;
use serde::Deserialize;
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor,
};
use serde_json::value::RawValue;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::OnceLock;

pub struct Lazy<T> {
    /// The `key: value` entry as written, when the value is not parsed yet.
    text: Text,
    /// Boxed: most are never read, and in place each would cost its type's size (a
    /// pod's three in its spec, five in each container).
    value: OnceLock<Box<T>>,
}

#[derive(Clone)]
enum Text {
    None,
    /// A copy of the entry.
    Owned(Box<str>),
    /// The entry's bytes in the file's text, which the snapshot keeps anyway.
    Shared {
        file: crate::parse::KeptText,
        start: u32,
        end: u32,
    },
    /// The entry's bytes in the text ingest scanned, found in the file's text once it is
    /// kept (a view read at ingest: see `ingest::early`).
    Later {
        file: Arc<LaterText>,
        start: u32,
        end: u32,
    },
    /// The value as JSON text (from JSON, or written out from a tree): a tree of it is
    /// ten times its size.
    Json(Box<RawValue>),
    /// JSON text in the kept text of its file (what ingest and views read from JSON).
    JsonShared {
        file: crate::parse::KeptText,
        start: u32,
        end: u32,
    },
}

impl Text {
    fn get(&self) -> Option<&str> {
        match self {
            Text::None => None,
            Text::Owned(s) => Some(s),
            Text::Shared { file, start, end } => file.get(*start as usize..*end as usize),
            Text::Later { file, start, end } => {
                let (text, shifts) = file.get()?;
                text.get(shifts.map(*start as usize)..shifts.map(*end as usize))
            }
            Text::Json(_) | Text::JsonShared { .. } => None,
        }
    }

    /// The value read as a `T`: from YAML straight from the entry's text (a plain scalar
    /// where a string goes is its source text), from JSON as serde_json reads it or, when
    /// that fails, from its tree (a number where a string goes is that number's text).
    /// `None` when there is no value or it is not a `T`.
    fn read<T: DeserializeOwned>(&self) -> Option<T> {
        let json = match self {
            Text::Json(raw) => raw.get(),
            Text::JsonShared { file, start, end } => file.get(*start as usize..*end as usize)?,
            text => return entry_as::<Option<T>>(text.get()?)?.ok().flatten(),
        };
        match serde_json::from_str::<Option<T>>(json) {
            Ok(v) => v,
            Err(e) if e.is_data() => tree::read::<Option<T>>(&tree::json_tree(json).ok()?)
                .ok()
                .flatten(),
            Err(_) => None,
        }
    }

    /// A JSON value's text: its place when it lies in the kept text being read, else a
    /// copy (a copy of every free-form field made a List of small JSON pods cost about
    /// four times its size).
    fn of_json(raw: &str) -> Result<Text, serde_json::Error> {
        if let Some(Place::Kept(file, range)) = place_of(raw)
            && let (Ok(start), Ok(end)) = (u32::try_from(range.start), u32::try_from(range.end))
        {
            return Ok(Text::JsonShared { file, start, end });
        }
        RawValue::from_string(raw.to_string()).map(Text::Json)
    }

    fn of(entry: &str) -> Text {
        let place = place_of(entry).and_then(|place| {
            let range = match &place {
                Place::Kept(_, r) | Place::Later(_, r) => r.clone(),
            };
            let (start, end) = (
                u32::try_from(range.start).ok()?,
                u32::try_from(range.end).ok()?,
            );
            Some(match place {
                Place::Kept(file, _) => Text::Shared { file, start, end },
                Place::Later(file, _) => Text::Later { file, start, end },
            })
        });
        place.unwrap_or_else(|| Text::Owned(entry.into()))
    }
}

impl<T: DeserializeOwned + Default> Lazy<T> {
    pub fn get(&self) -> &T {
        self.value
            .get_or_init(|| Box::new(self.text.read().unwrap_or_default()))
    }
}

impl<T> Default for Lazy<T> {
    fn default() -> Self {
        Lazy {
            text: Text::None,
            value: OnceLock::new(),
        }
    }
}

impl<T: Clone> Clone for Lazy<T> {
    fn clone(&self) -> Self {
        Lazy {
            text: self.text.clone(),
            value: self.value.clone(),
        }
    }
}

impl<T: DeserializeOwned + Default + fmt::Debug> fmt::Debug for Lazy<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

impl<'de, T: DeserializeOwned + Default> Deserialize<'de> for Lazy<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: DeserializeOwned + Default> Visitor<'de> for V<T> {
            type Value = Lazy<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            /// The YAML fast path hands over the entry's text.
            fn visit_borrowed_str<E>(self, entry: &'de str) -> Result<Lazy<T>, E> {
                Ok(Lazy {
                    text: Text::of(entry),
                    value: OnceLock::new(),
                })
            }
            fn visit_str<E>(self, entry: &str) -> Result<Lazy<T>, E> {
                Ok(Lazy {
                    text: Text::Owned(entry.into()),
                    value: OnceLock::new(),
                })
            }
            /// serde_json, or a tree: keep the value's JSON text (its place in the kept
            /// text when serde_json reads from it).
            fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Lazy<T>, D::Error> {
                Ok(Lazy {
                    text: d.deserialize_newtype_struct(RAW_VALUE, RawText)?,
                    value: OnceLock::new(),
                })
            }
        }
        d.deserialize_newtype_struct(LAZY, V(PhantomData))
    }
}

/// The newtype name serde_json's `RawValue` is read by: serde_json (and its `Value`)
/// then hand over the value's text, as a map of one entry, borrowed when read from a
/// `&str`. `&RawValue` would refuse a tree and `Box<RawValue>` always copies.
const RAW_VALUE: &str = tree::RAW_VALUE;

/// Reads the one entry serde_json hands a [`RAW_VALUE`] as a [`Text`].
struct RawText;

impl<'de> Visitor<'de> for RawText {
    type Value = Text;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value's text")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Text, A::Error> {
        map.next_key::<IgnoredAny>()?;
        map.next_value_seed(RawText)
    }
    fn visit_borrowed_str<E: de::Error>(self, raw: &'de str) -> Result<Text, E> {
        Text::of_json(raw).map_err(E::custom)
    }
    fn visit_str<E: de::Error>(self, raw: &str) -> Result<Text, E> {
        RawValue::from_string(raw.to_string())
            .map(Text::Json)
            .map_err(E::custom)
    }
}

impl<'de> DeserializeSeed<'de> for RawText {
    type Value = Text;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Text, D::Error> {
        d.deserialize_str(self)
    }
}

#[cfg(test)]
mod tests {
    use crate::kube::meta::LabelLookup;
    use crate::kube::pod::Pod;
    use crate::parse::{fast_yaml, tree};

    /// As PyYAML writes it: what YAML 1.1 reads as a string is left plain.
    const PYYAML: &str = "metadata:
  annotations:
    example.com/build: 0x1F
    example.com/enabled: on
    example.com/replicas: 1e3
  labels:
    pod-template-hash: 00000008
    release: 1e3
  name: web-0
  resourceVersion: 1002329
spec:
  containers:
  - args:
    - 1e3
    env:
    - name: HASH
      value: 00000008
    name: web
    readinessProbe:
      httpGet:
        port: 8080
  volumes:
  - emptyDir: {}
    name: data
";

    /// A plain scalar where a string goes is its source text, in the view's own fields
    /// and in the fields it keeps as text (annotations); the other fields read.
    #[test]
    fn plain_scalars_read_as_written() {
        let pod = fast_yaml::documents::<Pod>(PYYAML)
            .expect("reads")
            .remove(0)
            .value;
        let m = &pod.metadata;
        assert_eq!(m.labels.label("pod-template-hash"), Some("00000008"));
        assert_eq!(m.labels.label("release"), Some("1e3"));
        assert_eq!(m.resource_version.as_deref(), Some("1002329"));
        assert_eq!(m.annotation("example.com/build"), Some("0x1F"));
        assert_eq!(m.annotation("example.com/enabled"), Some("on"));
        assert_eq!(m.annotation("example.com/replicas"), Some("1e3"));
        let c = &pod.spec.containers[0];
        assert!(c.readiness_probe.get().is_some());
        assert_eq!(c.env.get().len(), 1);
        assert_eq!(pod.spec.volumes.get().len(), 1);
    }

    /// From JSON (and any tree), a number or a bool where a string goes is its text, and
    /// a field kept as text keeps its value when a sibling is odd.
    #[test]
    fn numbers_where_strings_go_read_as_their_text() {
        let json = r#"{"metadata": {"name": "web-0", "resourceVersion": 1002329,
            "labels": {"pod-template-hash": 8, "canary": true},
            "annotations": {"example.com/replicas": 1000, "example.com/on": false}},
          "spec": {"containers": [{"name": "web", "readinessProbe": {"httpGet": {"port": 8080}}}],
            "volumes": [{"name": "data", "emptyDir": {}}]}}"#;
        assert!(serde_json::from_str::<Pod>(json).is_err());
        let pod: Pod = tree::read(&tree::json_tree(json).unwrap()).expect("reads");
        let m = &pod.metadata;
        assert_eq!(m.labels.label("pod-template-hash"), Some("8"));
        assert_eq!(m.labels.label("canary"), Some("true"));
        assert_eq!(m.resource_version.as_deref(), Some("1002329"));
        assert_eq!(m.annotation("example.com/replicas"), Some("1000"));
        assert_eq!(m.annotation("example.com/on"), Some("false"));
        assert!(pod.spec.containers[0].readiness_probe.get().is_some());
        assert_eq!(pod.spec.volumes.get().len(), 1);

        // A map where a string goes: that field fails, where it is; once it is left
        // out, the fields kept as text read (they failed with it before).
        let odd = json.replace(r#""canary": true"#, r#""canary": {"odd": 1}"#);
        let mut t = tree::json_tree(&odd).unwrap();
        let failure = tree::read_tracked::<Pod>(&t).expect_err("a map is no label");
        assert_eq!(tree::path_text(&failure.path), "metadata.labels.canary");
        assert!(tree::remove(&mut t, &failure.path));
        let pod: Pod = tree::read(&t).expect("reads without it");
        assert!(pod.spec.containers[0].readiness_probe.get().is_some());
        assert_eq!(pod.spec.volumes.get().len(), 1);
    }
}

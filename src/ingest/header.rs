//! What ingest reads of each object: its identity, owners and timestamps.
//!
//! A [`Header`] deserializes from any format (the YAML fast path, serde_json, or a
//! parsed tree) and accepts any shape without failing: fields it does not name are
//! skipped, so reading the headers of a file costs one pass and no tree. The rest of an
//! object is deserialized later, from its text, by whichever view needs it — except for
//! the kinds with the most text, whose views the fast paths read in the same pass
//! ([`super::early`]).

use super::early::{self, Early};
use crate::kube::meta::ObjectMeta;
use crate::kube::time::parse_timestamp;
use crate::parse::attempt::Attempt;
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// The YAML/JSON type of a node, for messages about documents that are not objects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NodeType {
    #[default]
    Null,
    Boolean,
    Number,
    String,
    List,
    Mapping,
}

impl NodeType {
    pub fn name(self) -> &'static str {
        match self {
            NodeType::Null => "null",
            NodeType::Boolean => "boolean",
            NodeType::Number => "number",
            NodeType::String => "string",
            NodeType::List => "list",
            NodeType::Mapping => "mapping",
        }
    }
}

/// Identity of one document or list item; `I` is what its list items are read as.
#[derive(Debug)]
pub struct Header<I> {
    pub node: NodeType,
    /// Top-level keys of a mapping.
    pub keys: usize,
    pub kind: Option<String>,
    pub api_version: Option<String>,
    pub has_metadata: bool,
    pub name: Option<String>,
    /// What `metadata.name` is when it is there but not a string.
    pub name_type: Option<NodeType>,
    /// A top-level `name` string: the Insights operator writes its operator objects as
    /// `kind`, `apiVersion`, `name`, `spec` with no `metadata`.
    pub inline_name: Option<String>,
    pub namespace: Option<String>,
    pub uid: Option<String>,
    pub resource_version: Option<String>,
    pub owners: Vec<Owner>,
    pub created: Option<i64>,
    /// The newest of an Event's own timestamps (meaningful only when kind is Event).
    pub event_time: Option<i64>,
    /// A `kubeletconfig` key (kubelet `configz` output).
    pub kubeletconfig: bool,
    /// An `Items` key: a list of Go's internal types, as old kubectls printed them.
    pub internal_items: bool,
    /// The elements of a sequence, or of the `items` list of a mapping.
    pub items: Option<Vec<I>>,
    /// The object's view, when read with the header (see [`super::early`]).
    pub early: Option<Early>,
    /// The first key that names the object (see [`IDENTITY_KEYS`]) given twice: the last
    /// value is the one read, as kubectl's readers read it.
    pub repeated: Option<&'static str>,
}

/// The keys that name an object, as [`Header::repeated`] calls them.
pub const IDENTITY_KEYS: [&str; 6] = [
    "kind",
    "apiVersion",
    "metadata",
    "items",
    "metadata.name",
    "metadata.namespace",
];

impl<I> Default for Header<I> {
    fn default() -> Self {
        Header {
            node: NodeType::Null,
            keys: 0,
            kind: None,
            api_version: None,
            has_metadata: false,
            name: None,
            name_type: None,
            inline_name: None,
            namespace: None,
            uid: None,
            resource_version: None,
            owners: Vec::new(),
            created: None,
            event_time: None,
            kubeletconfig: false,
            internal_items: false,
            items: None,
            early: None,
            repeated: None,
        }
    }
}

/// A header whose list items are not looked at (an object inside a List).
pub type ItemHeader = Header<IgnoredAny>;

impl<'de, I: Deserialize<'de>> Deserialize<'de> for Header<I> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(HeaderVisitor(PhantomData))
    }
}

struct HeaderVisitor<I>(PhantomData<I>);

impl<'de, I: Deserialize<'de>> Visitor<'de> for HeaderVisitor<I> {
    type Value = Header<I>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML or JSON node")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Header::default())
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Header::default())
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(typed(NodeType::Boolean))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(typed(NodeType::Number))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(typed(NodeType::Number))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(typed(NodeType::Number))
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(typed(NodeType::String))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<I>()? {
            items.push(item);
        }
        Ok(Header {
            node: NodeType::List,
            items: Some(items),
            ..Header::default()
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut h = typed(NodeType::Mapping);
        let mut event_times: [Option<i64>; 5] = [None; 5];
        let mut early = early::Reader::default();
        // The identity keys seen, one bit each (see `IDENTITY_KEYS`).
        let mut seen = 0u8;
        while let Some(key) = map.next_key::<Key>()? {
            h.keys += 1;
            if !key.text {
                early.odd_key();
            }
            if let Some(i) = IDENTITY_KEYS[..4].iter().position(|k| *k == key.name) {
                if seen & (1 << i) != 0 {
                    h.repeated.get_or_insert(IDENTITY_KEYS[i]);
                }
                seen |= 1 << i;
            }
            if let Some((event, field)) = early.event(&key.name) {
                let t = event.read(field, &mut map)?;
                note_event_time(&mut event_times, &key.name, t);
                continue;
            }
            match key.name.as_ref() {
                "kind" => {
                    h.kind = map.next_value::<Text>()?.0;
                    early.kind(h.kind.as_deref());
                }
                "apiVersion" => h.api_version = map.next_value::<Text>()?.0,
                "name" => h.inline_name = map.next_value::<Text>()?.0,
                "metadata" => {
                    h.has_metadata = true;
                    let m = if early.wants_metadata() {
                        match map.next_value::<Attempt<ObjectMeta, Meta>>()? {
                            Attempt::First(meta) => {
                                let m = Meta::of_view(&meta);
                                early.metadata(Some(meta));
                                m
                            }
                            Attempt::Second(m) => {
                                early.metadata(None);
                                m
                            }
                        }
                    } else {
                        map.next_value::<Meta>()?
                    };
                    h.name = m.name;
                    h.name_type = m.name_type;
                    if let Some(key) = m.repeated {
                        h.repeated.get_or_insert(key);
                    }
                    h.namespace = m.namespace;
                    h.uid = m.uid;
                    h.resource_version = m.resource_version;
                    h.owners = m.owners;
                    h.created = m.created;
                }
                "items" => h.items = map.next_value::<Items<I>>()?.0,
                "kubeletconfig" => {
                    h.kubeletconfig = true;
                    map.next_value::<IgnoredAny>()?;
                }
                "Items" => {
                    h.internal_items = true;
                    map.next_value::<IgnoredAny>()?;
                }
                key @ ("lastTimestamp"
                | "eventTime"
                | "deprecatedLastTimestamp"
                | "firstTimestamp") => {
                    note_event_time(&mut event_times, key, map.next_value::<Time>()?.0);
                }
                "series" => {
                    note_event_time(&mut event_times, "series", map.next_value::<Series>()?.0);
                }
                "spec" => early.spec(&mut map)?,
                "status" => early.status(&mut map)?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        h.event_time = event_times.into_iter().fold(None, Option::max);
        h.early = early.finish();
        Ok(h)
    }
}

/// Notes an Event's timestamp `t` under its key: the last of each key, and the newest
/// `series.lastObservedTime` (their newest is the Event's time).
fn note_event_time(times: &mut [Option<i64>; 5], key: &str, t: Option<i64>) {
    match key {
        "lastTimestamp" => times[0] = t,
        "eventTime" => times[1] = t,
        "deprecatedLastTimestamp" => times[2] = t,
        "firstTimestamp" => times[3] = t,
        "series" => times[4] = times[4].max(t),
        _ => {}
    }
}

fn typed<I>(node: NodeType) -> Header<I> {
    Header {
        node,
        ..Header::default()
    }
}

/// A mapping key, borrowed from the text when it can be; `text`: it was text, not a
/// number, boolean or null written as a key.
struct Key<'a> {
    name: Cow<'a, str>,
    text: bool,
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key {
                    name: Cow::Borrowed(s),
                    text: true,
                })
            }
            fn visit_str<E>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key {
                    name: Cow::Owned(s.to_string()),
                    text: true,
                })
            }
            fn visit_string<E>(self, s: String) -> Result<Key<'de>, E> {
                Ok(Key {
                    name: Cow::Owned(s),
                    text: true,
                })
            }
            fn visit_i64<E>(self, n: i64) -> Result<Key<'de>, E> {
                Ok(Key {
                    name: Cow::Owned(n.to_string()),
                    text: false,
                })
            }
            fn visit_u64<E>(self, n: u64) -> Result<Key<'de>, E> {
                Ok(Key {
                    name: Cow::Owned(n.to_string()),
                    text: false,
                })
            }
            fn visit_bool<E>(self, b: bool) -> Result<Key<'de>, E> {
                Ok(Key {
                    name: Cow::Owned(b.to_string()),
                    text: false,
                })
            }
            fn visit_unit<E>(self) -> Result<Key<'de>, E> {
                Ok(Key {
                    name: Cow::Borrowed(""),
                    text: false,
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// Implements the visitor methods that accept any node and keep nothing of it.
macro_rules! ignore_other_nodes {
    ($value:ty) => {
        fn visit_bool<E>(self, _: bool) -> Result<$value, E> {
            Ok(Default::default())
        }
        fn visit_i64<E>(self, _: i64) -> Result<$value, E> {
            Ok(Default::default())
        }
        fn visit_u64<E>(self, _: u64) -> Result<$value, E> {
            Ok(Default::default())
        }
        fn visit_f64<E>(self, _: f64) -> Result<$value, E> {
            Ok(Default::default())
        }
        fn visit_unit<E>(self) -> Result<$value, E> {
            Ok(Default::default())
        }
        fn visit_none<E>(self) -> Result<$value, E> {
            Ok(Default::default())
        }
    };
}

macro_rules! ignore_collections {
    ($value:ty) => {
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<$value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Default::default())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<$value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(Default::default())
        }
    };
}

macro_rules! ignore_strings {
    ($value:ty) => {
        fn visit_str<E>(self, _: &str) -> Result<$value, E> {
            Ok(Default::default())
        }
    };
}

/// A string value; any other node reads as `None`.
#[derive(Default)]
struct Text(Option<String>);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E>(self, s: &str) -> Result<Text, E> {
                Ok(Text(Some(s.to_string())))
            }
            fn visit_string<E>(self, s: String) -> Result<Text, E> {
                Ok(Text(Some(s)))
            }
            ignore_other_nodes!(Text);
            ignore_collections!(Text);
        }
        d.deserialize_any(V)
    }
}

/// A string value, or the type of the node that is not one.
struct Typed(Result<String, NodeType>);

impl<'de> Deserialize<'de> for Typed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Typed;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E>(self, s: &str) -> Result<Typed, E> {
                Ok(Typed(Ok(s.to_string())))
            }
            fn visit_string<E>(self, s: String) -> Result<Typed, E> {
                Ok(Typed(Ok(s)))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Typed, E> {
                Ok(Typed(Err(NodeType::Boolean)))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Typed, E> {
                Ok(Typed(Err(NodeType::Number)))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Typed, E> {
                Ok(Typed(Err(NodeType::Number)))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Typed, E> {
                Ok(Typed(Err(NodeType::Number)))
            }
            fn visit_unit<E>(self) -> Result<Typed, E> {
                Ok(Typed(Err(NodeType::Null)))
            }
            fn visit_none<E>(self) -> Result<Typed, E> {
                Ok(Typed(Err(NodeType::Null)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Typed, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Typed(Err(NodeType::List)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Typed, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Typed(Err(NodeType::Mapping)))
            }
        }
        d.deserialize_any(V)
    }
}

/// An RFC 3339 timestamp; anything else reads as `None`.
#[derive(Default)]
struct Time(Option<i64>);

impl<'de> Deserialize<'de> for Time {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Time(
            Text::deserialize(d)?.0.as_deref().and_then(parse_timestamp),
        ))
    }
}

/// `series.lastObservedTime` of an `events.k8s.io/v1` Event.
#[derive(Default)]
struct Series(Option<i64>);

impl<'de> Deserialize<'de> for Series {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Series;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an event series")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Series, A::Error> {
                let mut t = None;
                while let Some(key) = map.next_key::<Key>()? {
                    if key.name == "lastObservedTime" {
                        t = map.next_value::<Time>()?.0;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(Series(t))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Series, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Series(None))
            }
            ignore_other_nodes!(Series);
            ignore_strings!(Series);
        }
        d.deserialize_any(V)
    }
}

/// The part of `metadata` ingest reads.
#[derive(Default)]
struct Meta {
    name: Option<String>,
    name_type: Option<NodeType>,
    /// `name` or `namespace` given twice (as [`Header::repeated`] says it).
    repeated: Option<&'static str>,
    namespace: Option<String>,
    uid: Option<String>,
    resource_version: Option<String>,
    owners: Vec<Owner>,
    created: Option<i64>,
}

impl Meta {
    /// What [`Meta`] reads of metadata that read as a view's: the same wherever the view
    /// reads (a view's strings are strings here; a missing name is empty there, and an
    /// empty name is no name to ingest).
    fn of_view(meta: &ObjectMeta) -> Meta {
        Meta {
            name: Some(meta.name.to_string()).filter(|n| !n.is_empty()),
            name_type: None,
            repeated: None,
            namespace: meta.namespace.as_deref().map(String::from),
            uid: meta.uid.as_deref().map(String::from),
            resource_version: meta.resource_version.as_deref().map(String::from),
            owners: meta
                .owner_references
                .iter()
                .map(|o| Owner {
                    api_version: o.api_version.to_string(),
                    kind: o.kind.to_string(),
                    name: o.name.to_string(),
                    uid: o.uid.to_string(),
                    controller: o.controller == Some(true),
                })
                .collect(),
            created: meta.creation_timestamp.as_deref().and_then(parse_timestamp),
        }
    }
}

impl<'de> Deserialize<'de> for Meta {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Meta;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("object metadata")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Meta, A::Error> {
                let mut m = Meta::default();
                let (mut named, mut placed) = (false, false);
                while let Some(key) = map.next_key::<Key>()? {
                    match key.name.as_ref() {
                        "name" => {
                            if std::mem::replace(&mut named, true) {
                                m.repeated.get_or_insert(IDENTITY_KEYS[4]);
                            }
                            (m.name, m.name_type) = match map.next_value::<Typed>()? {
                                Typed(Ok(name)) => (Some(name), None),
                                Typed(Err(node)) => (None, Some(node)),
                            };
                        }
                        "namespace" => {
                            if std::mem::replace(&mut placed, true) {
                                m.repeated.get_or_insert(IDENTITY_KEYS[5]);
                            }
                            m.namespace = map.next_value::<Text>()?.0;
                        }
                        "uid" => m.uid = map.next_value::<Text>()?.0,
                        "resourceVersion" => m.resource_version = map.next_value::<Text>()?.0,
                        "creationTimestamp" => m.created = map.next_value::<Time>()?.0,
                        "ownerReferences" => m.owners = map.next_value::<Owners>()?.0,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(m)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Meta, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Meta::default())
            }
            ignore_other_nodes!(Meta);
            ignore_strings!(Meta);
        }
        d.deserialize_any(V)
    }
}

/// One of `metadata.ownerReferences`: what the controller chain follows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Owner {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    pub uid: String,
    pub controller: bool,
}

/// `metadata.ownerReferences`; entries that are not mappings are left out.
#[derive(Default)]
struct Owners(Vec<Owner>);

impl<'de> Deserialize<'de> for Owners {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Owners;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("owner references")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Owners, A::Error> {
                let mut owners = Vec::new();
                while let Some(o) = seq.next_element::<OwnerEntry>()? {
                    owners.extend(o.0);
                }
                Ok(Owners(owners))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Owners, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Owners::default())
            }
            ignore_other_nodes!(Owners);
            ignore_strings!(Owners);
        }
        d.deserialize_any(V)
    }
}

#[derive(Default)]
struct OwnerEntry(Option<Owner>);

impl<'de> Deserialize<'de> for OwnerEntry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OwnerEntry;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an owner reference")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OwnerEntry, A::Error> {
                let mut o = Owner::default();
                while let Some(key) = map.next_key::<Key>()? {
                    let text = |t: Text| t.0.unwrap_or_default();
                    match key.name.as_ref() {
                        "apiVersion" => o.api_version = text(map.next_value()?),
                        "kind" => o.kind = text(map.next_value()?),
                        "name" => o.name = text(map.next_value()?),
                        "uid" => o.uid = text(map.next_value()?),
                        "controller" => o.controller = map.next_value::<Flag>()?.0,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(OwnerEntry(Some(o)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<OwnerEntry, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(OwnerEntry(None))
            }
            ignore_other_nodes!(OwnerEntry);
            ignore_strings!(OwnerEntry);
        }
        d.deserialize_any(V)
    }
}

/// `true` only for a boolean true.
#[derive(Default)]
struct Flag(bool);

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Flag;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a boolean")
            }
            fn visit_bool<E>(self, b: bool) -> Result<Flag, E> {
                Ok(Flag(b))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_unit<E>(self) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_none<E>(self) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            ignore_strings!(Flag);
            ignore_collections!(Flag);
        }
        d.deserialize_any(V)
    }
}

/// `items:` when it is a sequence; any other node reads as `None`.
struct Items<I>(Option<Vec<I>>);

impl<'de, I: Deserialize<'de>> Deserialize<'de> for Items<I> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<I>(PhantomData<I>);
        impl<'de, I: Deserialize<'de>> Visitor<'de> for V<I> {
            type Value = Items<I>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of objects")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Items<I>, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<I>()? {
                    items.push(item);
                }
                Ok(Items(Some(items)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Items<I>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Items(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Items<I>, E> {
                Ok(Items(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Items<I>, E> {
                Ok(Items(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Items<I>, E> {
                Ok(Items(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Items<I>, E> {
                Ok(Items(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Items<I>, E> {
                Ok(Items(None))
            }
            fn visit_unit<E>(self) -> Result<Items<I>, E> {
                Ok(Items(None))
            }
            fn visit_none<E>(self) -> Result<Items<I>, E> {
                Ok(Items(None))
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::fast_yaml;

    const YAML: &str = "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Event\n  lastTimestamp: \"2026-11-20T09:00:00Z\"\n  metadata:\n    creationTimestamp: \"2026-11-20T08:00:00Z\"\n    name: e1\n    namespace: demo\n    ownerReferences:\n    - apiVersion: apps/v1\n      controller: true\n      kind: ReplicaSet\n      name: rs\n      uid: u-rs\n    resourceVersion: \"42\"\n    uid: u-e1\n  series:\n    lastObservedTime: \"2026-11-20T10:00:00Z\"\n- just a string\nkind: List\nmetadata:\n  resourceVersion: \"\"\n";

    fn check(h: &Header<ItemHeader>) {
        assert_eq!(h.node, NodeType::Mapping);
        assert_eq!(h.kind.as_deref(), Some("List"));
        let items = h.items.as_ref().expect("items");
        assert_eq!(items.len(), 2);
        let e = &items[0];
        assert_eq!(
            (e.kind.as_deref(), e.name.as_deref(), e.namespace.as_deref()),
            (Some("Event"), Some("e1"), Some("demo"))
        );
        assert_eq!(e.resource_version.as_deref(), Some("42"));
        assert_eq!(e.owners.len(), 1);
        assert!(e.owners[0].controller && e.owners[0].uid == "u-rs");
        assert_eq!(e.created, parse_timestamp("2026-11-20T08:00:00Z"));
        assert_eq!(e.event_time, parse_timestamp("2026-11-20T10:00:00Z"));
        assert_eq!(items[1].node, NodeType::String);
    }

    #[test]
    fn same_header_from_yaml_text_json_text_and_tree() {
        let docs = fast_yaml::documents::<Header<ItemHeader>>(YAML).expect("fast path");
        check(&docs[0].value);
        let tree = crate::parse::yaml::parse(YAML).0.remove(0).value;
        check(&Header::<ItemHeader>::deserialize(&tree).unwrap());
        let json = serde_json::to_string(&tree).unwrap();
        check(&serde_json::from_str::<Header<ItemHeader>>(&json).unwrap());
    }

    #[test]
    fn odd_shapes_read_as_absent_not_errors() {
        let text = "kind: 3\nmetadata: just text\nitems:\n  a: 1\n";
        let h = &fast_yaml::documents::<Header<ItemHeader>>(text).unwrap()[0].value;
        assert_eq!((h.kind.as_deref(), h.name.as_deref()), (None, None));
        assert!(h.has_metadata && h.items.is_none());
        let text = "metadata:\n  name: [oops]\n  ownerReferences: 7\n";
        let h = &fast_yaml::documents::<Header<ItemHeader>>(text).unwrap_err();
        assert!(
            matches!(h, fast_yaml::Error::Unsupported(..)),
            "flow sequence"
        );
        let v =
            serde_json::json!({"metadata": {"name": ["x"], "ownerReferences": [1, {"uid": 2}]}});
        let h = Header::<ItemHeader>::deserialize(&v).unwrap();
        assert_eq!(h.name, None);
        assert_eq!(h.owners.len(), 1);
        assert_eq!(h.owners[0].uid, "");
    }
}

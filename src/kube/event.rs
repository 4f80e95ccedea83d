//! Event view: one shape for `v1` Events and `events.k8s.io/v1` Events.

use super::time::parse_timestamp;
use serde::Deserialize;
use serde::de::{IgnoredAny, MapAccess};
use serde_json::Value;

/// The object an event is about.
#[derive(Clone, Debug, Default)]
pub struct Regarding {
    pub kind: String,
    pub namespace: Option<String>,
    pub name: String,
    pub uid: Option<String>,
    /// e.g. `spec.containers{api}`.
    pub field_path: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Event {
    pub regarding: Regarding,
    pub reason: String,
    pub message: String,
    /// `Normal` or `Warning`.
    pub type_: String,
    pub count: i64,
    /// Unix seconds of the first and last occurrence, when the event says.
    pub first: Option<i64>,
    pub last: Option<i64>,
    pub component: String,
}

/// The fields of either event shape, as written.
#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Wire {
    involved_object: Option<Subject>,
    regarding: Option<Subject>,
    reason: Option<Lenient>,
    message: Option<Lenient>,
    note: Option<Lenient>,
    #[serde(rename = "type")]
    type_: Option<Lenient>,
    count: Option<Lenient>,
    deprecated_count: Option<Lenient>,
    series: Option<Series>,
    event_time: Option<Lenient>,
    first_timestamp: Option<Lenient>,
    deprecated_first_timestamp: Option<Lenient>,
    last_timestamp: Option<Lenient>,
    deprecated_last_timestamp: Option<Lenient>,
    source: Option<Source>,
    /// `events.k8s.io/v1`'s copy of a core Event's `source`.
    deprecated_source: Option<Source>,
    reporting_component: Option<Lenient>,
    reporting_controller: Option<Lenient>,
}

#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Subject {
    kind: Option<Lenient>,
    namespace: Option<Lenient>,
    name: Option<Lenient>,
    uid: Option<Lenient>,
    field_path: Option<Lenient>,
}

/// `series` of an `events.k8s.io/v1` Event (also on `v1` Events written through it).
/// Anything but a mapping reads as no series, and a repeated key's last value counts, as
/// ingest's header reads `lastObservedTime` (see [`EventEntries`]).
#[derive(Default)]
struct Series {
    count: Option<Lenient>,
    last_observed_time: Option<Lenient>,
}

impl<'de> Deserialize<'de> for Series {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Series;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an event series")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Series, A::Error> {
                let mut series = Series::default();
                while let Some(key) = map.next_key::<Lenient>()? {
                    match key {
                        Lenient::Str(k) if k == "count" => series.count = map.next_value()?,
                        Lenient::Str(k) if k == "lastObservedTime" => {
                            series.last_observed_time = map.next_value()?
                        }
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(series)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Series, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Series::default())
            }
            fn visit_str<E>(self, _: &str) -> Result<Series, E> {
                Ok(Series::default())
            }
            fn visit_bool<E>(self, _: bool) -> Result<Series, E> {
                Ok(Series::default())
            }
            fn visit_i64<E>(self, _: i64) -> Result<Series, E> {
                Ok(Series::default())
            }
            fn visit_u64<E>(self, _: u64) -> Result<Series, E> {
                Ok(Series::default())
            }
            fn visit_f64<E>(self, _: f64) -> Result<Series, E> {
                Ok(Series::default())
            }
            fn visit_unit<E>(self) -> Result<Series, E> {
                Ok(Series::default())
            }
            fn visit_none<E>(self) -> Result<Series, E> {
                Ok(Series::default())
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct Source {
    component: Option<Lenient>,
}

/// Any scalar; events from odd emitters put numbers where strings belong and back.
/// (A hand-written visitor: `#[serde(untagged)]` would buffer every field first.)
enum Lenient {
    Str(String),
    Int(i64),
    Other,
}

impl<'de> Deserialize<'de> for Lenient {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{SeqAccess, Visitor};
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Lenient;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any value")
            }
            fn visit_str<E>(self, v: &str) -> Result<Lenient, E> {
                Ok(Lenient::Str(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Lenient, E> {
                Ok(Lenient::Str(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Lenient, E> {
                Ok(Lenient::Int(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Lenient, E> {
                Ok(i64::try_from(v).map_or(Lenient::Other, Lenient::Int))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Lenient, E> {
                Ok(Lenient::Other)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Lenient, E> {
                Ok(Lenient::Other)
            }
            fn visit_unit<E>(self) -> Result<Lenient, E> {
                Ok(Lenient::Other)
            }
            fn visit_none<E>(self) -> Result<Lenient, E> {
                Ok(Lenient::Other)
            }
            fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Lenient, D::Error> {
                Lenient::deserialize(d)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Lenient, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Lenient::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Lenient, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Lenient::Other)
            }
        }
        d.deserialize_any(V)
    }
}

impl Lenient {
    fn str(this: &Option<Lenient>) -> Option<String> {
        match this {
            Some(Lenient::Str(s)) => Some(s.clone()),
            _ => None,
        }
    }
    fn int(this: &Option<Lenient>) -> Option<i64> {
        match this {
            Some(Lenient::Int(n)) => Some(*n),
            _ => None,
        }
    }
    fn time(this: &Option<Lenient>) -> Option<i64> {
        Lenient::str(this).as_deref().and_then(parse_timestamp)
    }
}

/// An Event object read straight from the bundle: `None` when it has no subject.
#[derive(Debug)]
pub struct EventDoc(pub Option<Event>);

/// An Event read one top-level entry at a time, as ingest's header pass meets them (see
/// `ingest::early`): the [`EventDoc`] that reading the whole object gives, or nothing
/// when an entry is not what that read accepts (it is read again later, as before).
#[derive(Default)]
pub struct EventEntries {
    wire: Wire,
    /// The fields read so far, by their place in [`FIELDS`]: a repeated field fails the
    /// whole read.
    seen: u32,
    /// An entry did not read as the whole read would take it.
    failed: bool,
}

/// The top-level keys [`Wire`] reads, in its field order.
const FIELDS: [&str; 18] = [
    "involvedObject",
    "regarding",
    "reason",
    "message",
    "note",
    "type",
    "count",
    "deprecatedCount",
    "series",
    "eventTime",
    "firstTimestamp",
    "deprecatedFirstTimestamp",
    "lastTimestamp",
    "deprecatedLastTimestamp",
    "source",
    "reportingComponent",
    "reportingController",
    "deprecatedSource",
];

impl EventEntries {
    /// The place of `key` among an Event's fields ([`FIELDS`]), when it is one.
    pub fn field(key: &str) -> Option<usize> {
        FIELDS.iter().position(|f| *f == key)
    }

    /// Reads the value of the field at place `field` (see [`Self::field`]). Returns what
    /// ingest's header reads of the same value, whether or not the Event reads: the time
    /// of a timestamp, or of a series' `lastObservedTime`.
    pub fn read<'de, A: MapAccess<'de>>(
        &mut self,
        field: usize,
        map: &mut A,
    ) -> Result<Option<i64>, A::Error> {
        self.failed |= self.seen & (1 << field) != 0;
        self.seen |= 1 << field;
        let w = &mut self.wire;
        let text = |map: &mut A| map.next_value::<Option<Lenient>>();
        let time = |map: &mut A, slot: &mut Option<Lenient>| {
            *slot = text(map)?;
            Ok(Lenient::time(slot))
        };
        match FIELDS[field] {
            "involvedObject" => self.failed |= !read_or_skip(map, &mut w.involved_object)?,
            "regarding" => self.failed |= !read_or_skip(map, &mut w.regarding)?,
            "source" => self.failed |= !read_or_skip(map, &mut w.source)?,
            "deprecatedSource" => self.failed |= !read_or_skip(map, &mut w.deprecated_source)?,
            "series" => {
                w.series = map.next_value()?;
                let last = w.series.as_ref().map(|s| &s.last_observed_time);
                return Ok(last.and_then(Lenient::time));
            }
            "eventTime" => return time(map, &mut w.event_time),
            "firstTimestamp" => return time(map, &mut w.first_timestamp),
            "lastTimestamp" => return time(map, &mut w.last_timestamp),
            "deprecatedLastTimestamp" => return time(map, &mut w.deprecated_last_timestamp),
            "reason" => w.reason = text(map)?,
            "message" => w.message = text(map)?,
            "note" => w.note = text(map)?,
            "type" => w.type_ = text(map)?,
            "count" => w.count = text(map)?,
            "deprecatedCount" => w.deprecated_count = text(map)?,
            "deprecatedFirstTimestamp" => w.deprecated_first_timestamp = text(map)?,
            "reportingComponent" => w.reporting_component = text(map)?,
            _ => w.reporting_controller = text(map)?,
        }
        Ok(None)
    }

    /// The Event, unless an entry did not read.
    pub fn finish(self) -> Option<EventDoc> {
        (!self.failed).then(|| EventDoc(Event::from_wire(self.wire)))
    }
}

/// Reads a value as `T` into `slot`, or skips it when it is not one (`false`): the
/// YAML fast path reads it again; other readers fail as `T` fails (see
/// `parse::attempt::Attempt`).
fn read_or_skip<'de, T: Deserialize<'de>, A: MapAccess<'de>>(
    map: &mut A,
    slot: &mut Option<T>,
) -> Result<bool, A::Error> {
    use crate::parse::attempt::Attempt;
    Ok(match map.next_value::<Attempt<Option<T>, IgnoredAny>>()? {
        Attempt::First(t) => {
            *slot = t;
            true
        }
        Attempt::Second(_) => false,
    })
}

impl<'de> Deserialize<'de> for EventDoc {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(EventDoc(Event::from_wire(Wire::deserialize(d)?)))
    }
}

impl Event {
    /// Reads either event shape; `None` when the object has no subject.
    pub fn from_value(v: &Value) -> Option<Event> {
        Event::from_wire(Wire::deserialize(v).ok()?)
    }

    fn from_wire(w: Wire) -> Option<Event> {
        let subject = w.involved_object.or(w.regarding)?;
        let s = Lenient::str;
        let regarding = Regarding {
            kind: s(&subject.kind).unwrap_or_default(),
            namespace: s(&subject.namespace),
            name: s(&subject.name).unwrap_or_default(),
            uid: s(&subject.uid).filter(|u| !u.is_empty()),
            field_path: s(&subject.field_path),
        };
        let series_count = w.series.as_ref().and_then(|x| Lenient::int(&x.count));
        let series_last = w
            .series
            .as_ref()
            .and_then(|x| Lenient::time(&x.last_observed_time));
        let count = Lenient::int(&w.count)
            .or_else(|| Lenient::int(&w.deprecated_count))
            .or(series_count)
            .unwrap_or(1)
            .max(1);
        let event_time = Lenient::time(&w.event_time);
        let first = Lenient::time(&w.first_timestamp)
            .or_else(|| Lenient::time(&w.deprecated_first_timestamp))
            .or(event_time);
        let last = Lenient::time(&w.last_timestamp)
            .or_else(|| Lenient::time(&w.deprecated_last_timestamp))
            .or(series_last)
            .or(event_time)
            .or(first);
        // kubectl's `From`: the source's component (`deprecatedSource` in
        // `events.k8s.io/v1`), else the reporting controller.
        let component = [w.source.as_ref(), w.deprecated_source.as_ref()]
            .into_iter()
            .flatten()
            .map(|src| s(&src.component))
            .chain([s(&w.reporting_component), s(&w.reporting_controller)])
            .find_map(|c| c.filter(|c| !c.is_empty()))
            .unwrap_or_default();
        Some(Event {
            regarding,
            reason: s(&w.reason).unwrap_or_default(),
            message: s(&w.message).or_else(|| s(&w.note)).unwrap_or_default(),
            type_: s(&w.type_).unwrap_or_default(),
            count,
            first,
            last,
            component,
        })
    }

    pub fn is_warning(&self) -> bool {
        self.type_ == "Warning"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_shapes() {
        let v1 = json!({"involvedObject": {"kind": "Pod", "name": "p", "namespace": "d", "uid": "u"},
            "reason": "BackOff", "message": "m", "type": "Warning", "count": 3,
            "firstTimestamp": "2026-11-20T08:00:00Z", "lastTimestamp": "2026-11-20T09:00:00Z"});
        let e = Event::from_value(&v1).unwrap();
        assert_eq!((e.count, e.regarding.uid.as_deref()), (3, Some("u")));
        let v2 = json!({"regarding": {"kind": "Pod", "name": "p", "namespace": "d"},
            "reason": "BackOff", "note": "m2", "type": "Warning",
            "series": {"count": 7, "lastObservedTime": "2026-11-20T09:00:00.000000Z"},
            "eventTime": "2026-11-20T08:00:00.000000Z"});
        let e = Event::from_value(&v2).unwrap();
        assert_eq!((e.count, e.message.as_str()), (7, "m2"));
        // kubectl's From: the deprecated source's component, else the reporting controller.
        let mut v3 = v2.clone();
        v3["deprecatedSource"] = json!({"component": "kubelet", "host": "node-a"});
        v3["reportingController"] = json!("ctrl");
        assert_eq!(Event::from_value(&v3).unwrap().component, "kubelet");
        v3["deprecatedSource"] = json!({});
        assert_eq!(Event::from_value(&v3).unwrap().component, "ctrl");
        assert!(e.last > e.first);
    }

    /// A `series` that is not a mapping is no series (the event still reads), and a
    /// repeated key's last value counts: as ingest's header reads it.
    #[test]
    fn series_reads_leniently() {
        let odd = json!({"regarding": {"kind": "Pod", "name": "p"}, "count": 2, "series": "x"});
        let e = Event::from_value(&odd).expect("reads");
        assert_eq!((e.count, e.last), (2, None));
        let doc = "regarding:\n  kind: Pod\n  name: p\nseries:\n  count: 3\n  count: 4\n";
        // Read as written (a tree would keep only the last key).
        let docs = crate::parse::fast_yaml::documents::<EventDoc>(doc).expect("parses");
        let e = docs[0].value.0.as_ref().expect("reads");
        assert_eq!(e.count, 4);
    }
}

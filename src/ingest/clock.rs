//! The snapshot's "as of" time (DESIGN.md "Snapshot time"): the bundle's own metadata,
//! else the newest event, else the newest object, each without outliers. One re-dated
//! object or a year-9999 `timestamp` must not make every age years long.

use crate::kube::time::{format_duration, format_rfc3339, parse_timestamp};
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// How far past the rest a time may lie before it is an outlier, not the clock.
pub const SLACK: i64 = 3 * 86_400;
/// The same for a metadata time when only object creation times speak against it (a
/// quiet cluster creates nothing for weeks).
const METADATA_SLACK_OBJECTS: i64 = 30 * 86_400;
/// Outliers are told apart only among at least this many times; fewer events are
/// checked against the objects' times instead.
pub const MIN_BULK: usize = 10;

/// The times one input offers, each with where it comes from.
#[derive(Default)]
pub struct Candidates {
    /// (time, what said it: "timestamp", "metadata.yaml bundlecreatedat"…).
    pub metadata: Vec<(i64, String)>,
    /// Events' last times, with their file.
    pub events: Vec<(i64, String)>,
    /// Other objects' creation times, and without events their newest status time, with
    /// their file.
    pub objects: Vec<(i64, String)>,
    /// Other objects' newest status times when there are events but few (at most
    /// [`MIN_BULK`]): what those few are checked against.
    pub status: Vec<(i64, String)>,
}

/// The keys under `status` whose values are times the cluster wrote while the object
/// lived: condition transitions and updates, node heartbeats, container starts and ends,
/// a Job's or a CronJob's runs. A bundle of one pod has no event, and its creation time
/// can be days before the capture; these come near it.
const STATUS_TIME_KEYS: [&str; 10] = [
    "lastTransitionTime",
    "lastUpdateTime",
    "lastHeartbeatTime",
    "startedAt",
    "finishedAt",
    "startTime",
    "completionTime",
    "lastScheduleTime",
    "lastSuccessfulTime",
    "renewTime",
];

/// The newest time an object's `status` (and `spec`: a Lease's `renewTime`) holds under
/// [`STATUS_TIME_KEYS`], read without building the object's tree: values of any length
/// are passed over, not copied.
pub fn status_time(body: &super::body::Body) -> Option<i64> {
    body.deserialize::<StatusTimes>().ok().and_then(|t| t.0)
}

/// [`status_time`] of an object already read into a tree.
pub fn status_time_of(v: &serde_json::Value) -> Option<i64> {
    StatusTimes::deserialize(v).ok().and_then(|t| t.0)
}

/// See [`status_time`].
struct StatusTimes(Option<i64>);

impl<'de> Deserialize<'de> for StatusTimes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Top;
        impl<'de> Visitor<'de> for Top {
            type Value = StatusTimes;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StatusTimes, A::Error> {
                let mut newest = None;
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    if matches!(key.as_ref(), "status" | "spec") {
                        newest = newest.max(map.next_value_seed(Newest(false))?);
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(StatusTimes(newest))
            }
        }
        d.deserialize_map(Top)
    }
}

/// The newest time under a value; `.0`: the value is itself under a time key.
struct Newest(bool);

impl<'de> DeserializeSeed<'de> for Newest {
    type Value = Option<i64>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<i64>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Newest {
    type Value = Option<i64>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Option<i64>, E> {
        Ok(self.0.then(|| parse_timestamp(s)).flatten())
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Option<i64>, E> {
        Ok(None)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Option<i64>, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Option<i64>, E> {
        Ok(None)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Option<i64>, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Option<i64>, E> {
        Ok(None)
    }
    fn visit_none<E: de::Error>(self) -> Result<Option<i64>, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<i64>, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<i64>, A::Error> {
        let mut newest = None;
        while let Some(t) = seq.next_element_seed(Newest(self.0))? {
            newest = newest.max(t);
        }
        Ok(newest)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<i64>, A::Error> {
        let mut newest = None;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            let timed = STATUS_TIME_KEYS.contains(&key.as_ref());
            newest = newest.max(map.next_value_seed(Newest(timed))?);
        }
        Ok(newest)
    }
}

/// The "as of" time, whether it came from object creation times only, and the notes
/// saying what was used and what was set aside.
pub fn decide(mut c: Candidates) -> (Option<i64>, bool, Vec<String>) {
    let mut notes = Vec::new();
    for times in [
        &mut c.metadata,
        &mut c.events,
        &mut c.objects,
        &mut c.status,
    ] {
        times.sort();
    }
    notes.extend(few_events_checked(&mut c));
    let (events, events_aside) = bulk(&c.events);
    let (objects, objects_aside) = bulk(&c.objects);
    // What the bundle's metadata is checked against: events are dense near the capture.
    let reference = match (events, objects) {
        (Some(e), _) => Some((e, SLACK, "the newest event")),
        (None, Some(o)) => Some((o, METADATA_SLACK_OBJECTS, "the newest object")),
        (None, None) => None,
    };
    let mut metadata = None;
    for (t, what) in &c.metadata {
        match reference {
            Some((r, slack, against)) if *t > r + slack => notes.push(format!(
                "set aside as an outlier: {what} says {}, {} after {against} ({})",
                format_rfc3339(*t),
                format_duration(t - r),
                format_rfc3339(r)
            )),
            _ => metadata = metadata.max(Some((*t, what.as_str()))),
        }
    }
    let (as_of, used) = if let Some((t, what)) = metadata {
        (t, format!("the bundle's {what}"))
    } else if let Some(t) = events {
        notes.extend(aside(&c.events, events_aside, "event"));
        (
            t,
            "the newest event (no bundle metadata gives it)".to_string(),
        )
    } else if let Some(t) = objects {
        notes.extend(aside(&c.objects, objects_aside, "object"));
        (
            t,
            "the newest object timestamp (no bundle metadata or event gives it)".to_string(),
        )
    } else {
        return (None, false, notes);
    };
    let from_objects = metadata.is_none() && events.is_none();
    notes.insert(
        0,
        format!("snapshot time {} from {used}", format_rfc3339(as_of)),
    );
    // Objects dated well after the clock: re-dated, or from another cluster.
    if metadata.is_some() || events.is_some() {
        let later = c.objects.partition_point(|(t, _)| *t <= as_of + SLACK);
        notes.extend(aside(&c.objects, c.objects.len() - later, "object"));
    }
    (Some(as_of), from_objects, notes)
}

/// Whether the clock depends on every object's time: without events (the newest object
/// is the clock), or with few of them and no bundle metadata (they are checked against the
/// objects' times).
pub fn needs_every_object(c: &Candidates) -> bool {
    c.events.is_empty() || (c.events.len() <= MIN_BULK && c.metadata.is_empty())
}

/// Too few events to tell an outlier among them (at most [`MIN_BULK`]): those more than
/// [`METADATA_SLACK_OBJECTS`] after every object's time (creation or status) are set
/// aside, with a note; one event dated years ahead must not make every age years long.
/// Only without bundle metadata (which then gives the clock): a selective read sees every
/// event's time but not every object, so it reads every object exactly when this check
/// runs ([`needs_every_object`]), and chooses the clock a full read chooses.
fn few_events_checked(c: &mut Candidates) -> Option<String> {
    if !needs_every_object(c) || c.events.is_empty() {
        return None;
    }
    let mut others: Vec<(i64, String)> = c.objects.iter().chain(&c.status).cloned().collect();
    others.sort();
    let newest = bulk(&others).0?;
    let limit = newest + METADATA_SLACK_OBJECTS;
    let keep = c.events.partition_point(|(t, _)| *t <= limit);
    let k = c.events.len() - keep;
    let note = aside(&c.events, k, "event").map(|n| {
        format!(
            "{n}, more than {} after every object's time (newest {})",
            format_duration(METADATA_SLACK_OBJECTS),
            format_rfc3339(newest)
        )
    });
    c.events.truncate(keep);
    note
}

/// The newest time of `times` (sorted) that is not an outlier, and how many of the newest
/// are: at most 5% of them, more than [`SLACK`] (and ten times the others' span) after
/// all the others. A gap that wide is a re-dated object, not a quiet spell.
fn bulk(times: &[(i64, String)]) -> (Option<i64>, usize) {
    let n = times.len();
    let Some(newest) = times.last().map(|t| t.0) else {
        return (None, 0);
    };
    if n <= MIN_BULK {
        return (Some(newest), 0);
    }
    let most = n.div_ceil(20).min(n - MIN_BULK);
    let oldest = times[0].0;
    // The lowest wide gap among the newest `most`: everything above it is set aside.
    let cut = (1..=most).rev().find(|&k| {
        let kept = times[n - k - 1].0;
        times[n - k].0 - kept > SLACK.max(10 * (kept - oldest))
    });
    match cut {
        Some(k) => (Some(times[n - k - 1].0), k),
        None => (Some(newest), 0),
    }
}

/// The note for the `k` newest of `times` set aside, if any.
fn aside(times: &[(i64, String)], k: usize, what: &str) -> Option<String> {
    let (t, file) = times.last().filter(|_| k > 0)?;
    Some(format!(
        "set aside as outliers: {k} {what} timestamp(s) far after the other {} (newest {} in {file})",
        times.len() - k,
        format_rfc3339(*t),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::time::parse_timestamp;

    fn at(s: &str) -> i64 {
        parse_timestamp(s).unwrap()
    }

    fn many(base: &str, n: usize) -> Vec<(i64, String)> {
        (0..n)
            .map(|i| (at(base) + i as i64 * 60, "f.json".to_string()))
            .collect()
    }

    #[test]
    fn a_few_redated_objects_are_outliers() {
        let mut objects = many("2022-04-12T00:00:00Z", 50);
        objects.push((at("2024-02-17T06:16:47Z"), "configmaps/default.json".into()));
        objects.push((
            at("2024-02-17T05:55:36Z"),
            "configmaps/kube-public.json".into(),
        ));
        let (t, _, notes) = decide(Candidates {
            objects,
            ..Default::default()
        });
        assert_eq!(t, Some(at("2022-04-12T00:49:00Z")), "{notes:?}");
        assert!(notes[1].contains("2 object timestamp(s)"), "{notes:?}");
    }

    #[test]
    fn a_quiet_end_is_not_an_outlier() {
        // Times spread out over weeks, then a week's quiet: all kept.
        let mut objects: Vec<(i64, String)> = (0..30)
            .map(|i| (at("2022-01-01T00:00:00Z") + i * 2 * 86_400, "f".into()))
            .collect();
        objects.push((at("2022-03-10T00:00:00Z"), "f".into()));
        let newest = objects.last().unwrap().0;
        let (t, _, notes) = decide(Candidates {
            objects,
            ..Default::default()
        });
        assert_eq!(t, Some(newest));
        assert_eq!(notes.len(), 1, "{notes:?}");
    }

    #[test]
    fn one_of_few_events_years_ahead_is_set_aside() {
        let mut events = many("2026-11-20T09:00:00Z", 4);
        events.push((at("2028-12-21T00:00:00Z"), "events.yaml".into()));
        let (t, _, notes) = decide(Candidates {
            events: events.clone(),
            objects: many("2026-11-01T00:00:00Z", 3),
            status: many("2026-11-20T08:00:00Z", 3),
            ..Default::default()
        });
        assert_eq!(t, Some(at("2026-11-20T09:03:00Z")), "{notes:?}");
        // With bundle metadata, the metadata is the clock: the objects are not consulted
        // (a selective read, which does not see them all, decides the same).
        let metadata = vec![(at("2026-11-20T09:10:00Z"), "timestamp".to_string())];
        let (t, _, _) = decide(Candidates {
            metadata: metadata.clone(),
            events: events.clone(),
            ..Default::default()
        });
        assert_eq!(t, Some(at("2026-11-20T09:10:00Z")));
        assert!(!needs_every_object(&Candidates {
            metadata,
            events: events.clone(),
            ..Default::default()
        }));
        assert!(
            notes[1].starts_with("set aside as outliers: 1 event timestamp(s) far after the other 4 (newest 2028-12-21T00:00:00Z in events.yaml), more than 30d after every object's time"),
            "{notes:?}"
        );
        // A quiet month before a few events is no outlier.
        let (t, _, _) = decide(Candidates {
            events: many("2026-11-20T09:00:00Z", 3),
            objects: many("2026-10-25T00:00:00Z", 3),
            ..Default::default()
        });
        assert_eq!(t, Some(at("2026-11-20T09:02:00Z")));
    }

    #[test]
    fn far_future_metadata_is_set_aside() {
        let (t, _, notes) = decide(Candidates {
            metadata: vec![(at("9999-01-01T00:00:00Z"), "timestamp".into())],
            events: many("2021-08-03T09:00:00Z", 20),
            ..Default::default()
        });
        assert_eq!(t, Some(at("2021-08-03T09:19:00Z")));
        assert!(notes.iter().any(|n| n.contains("9999")), "{notes:?}");
    }
}

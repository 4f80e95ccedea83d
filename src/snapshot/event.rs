//! Event view: one shape for `v1` Events and `events.k8s.io/v1` Events.

use super::time::parse_timestamp;
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

impl Event {
    /// Reads either event shape; `None` when the object has no subject.
    pub fn from_value(v: &Value) -> Option<Event> {
        let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let subject = v.get("involvedObject").or_else(|| v.get("regarding"))?;
        let regarding = Regarding {
            kind: s(subject, "kind").unwrap_or_default(),
            namespace: s(subject, "namespace"),
            name: s(subject, "name").unwrap_or_default(),
            uid: s(subject, "uid").filter(|u| !u.is_empty()),
            field_path: s(subject, "fieldPath"),
        };
        let time = |k: &str| v.get(k).and_then(Value::as_str).and_then(parse_timestamp);
        let series = v.get("series");
        let series_count = series.and_then(|s| s.get("count")).and_then(Value::as_i64);
        let series_last = series
            .and_then(|s| s.get("lastObservedTime"))
            .and_then(Value::as_str)
            .and_then(parse_timestamp);
        let count = v
            .get("count")
            .or_else(|| v.get("deprecatedCount"))
            .and_then(Value::as_i64)
            .or(series_count)
            .unwrap_or(1)
            .max(1);
        let event_time = time("eventTime");
        let first = time("firstTimestamp")
            .or_else(|| time("deprecatedFirstTimestamp"))
            .or(event_time);
        let last = time("lastTimestamp")
            .or_else(|| time("deprecatedLastTimestamp"))
            .or(series_last)
            .or(event_time)
            .or(first);
        let component = v
            .get("source")
            .and_then(|src| s(src, "component"))
            .or_else(|| s(v, "reportingComponent"))
            .or_else(|| s(v, "reportingController"))
            .unwrap_or_default();
        Some(Event {
            regarding,
            reason: s(v, "reason").unwrap_or_default(),
            message: s(v, "message").or_else(|| s(v, "note")).unwrap_or_default(),
            type_: s(v, "type").unwrap_or_default(),
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
        assert!(e.last > e.first);
    }
}

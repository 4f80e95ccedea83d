//! An object as an API server would serve it at the version a path asks for, so typed
//! clients (kubectl's describers and `logs`, client-go, the Python client's models) can
//! decode it. A bundle holds objects as some writer left them; an API server answers in
//! the requested version and writes every field through its Go types:
//! - `apiVersion` is the requested group/version; an `events.k8s.io` Event served as a
//!   core `v1` Event takes the core names of its fields (`regarding` → `involvedObject`,
//!   `note` → `message`, `deprecatedCount` → `count` …), as the API server converts them;
//! - a time field (`metav1.Time`) whose text is no RFC 3339 time is `null`: support-bundle
//!   writers leave `lastProbeTime: "null"` (a null written as the string), which kubectl and
//!   the Python client refuse ("parsing time \"null\"");
//! - a Node's `nodeInfo` has each of its string fields (Go writes them even when empty, and
//!   typed clients require them).

use crate::kube::time::parse_timestamp;
use serde_json::{Map, Value};

/// `metav1.Time` / `MicroTime` fields of the API's types, by name.
const TIME_FIELDS: &[&str] = &[
    "acquireTime",
    "completionTime",
    "creationTimestamp",
    "deletionTimestamp",
    "eventTime",
    "finishedAt",
    "firstTimestamp",
    "lastHeartbeatTime",
    "lastObservedTime",
    "lastProbeTime",
    "lastScheduleTime",
    "lastSuccessfulTime",
    "lastTimestamp",
    "lastTransitionTime",
    "lastUpdateTime",
    "renewTime",
    "startTime",
    "startedAt",
];

/// The string fields of a Node's `status.nodeInfo` (`NodeSystemInfo`, none `omitempty`).
const NODE_INFO: &[&str] = &[
    "architecture",
    "bootID",
    "containerRuntimeVersion",
    "kernelVersion",
    "kubeProxyVersion",
    "kubeletVersion",
    "machineID",
    "operatingSystem",
    "osImage",
    "systemUUID",
];

/// `events.k8s.io/v1` field names and the core `v1` Event's names for them.
const EVENT_FIELDS: &[(&str, &str)] = &[
    ("regarding", "involvedObject"),
    ("note", "message"),
    ("deprecatedCount", "count"),
    ("deprecatedFirstTimestamp", "firstTimestamp"),
    ("deprecatedLastTimestamp", "lastTimestamp"),
    ("deprecatedSource", "source"),
    ("reportingController", "reportingComponent"),
];

/// The `apiVersion` a path of `group` and `version` serves.
fn api_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    }
}

/// Whether `v` is served at `group`/`version` other than as stored (field selectors then
/// read the served form).
pub fn differs(v: &Value, group: &str, version: &str) -> bool {
    v.get("apiVersion").and_then(Value::as_str) != Some(api_version(group, version).as_str())
}

/// `v` as served at `group`/`version`.
pub fn served(mut v: Value, group: &str, version: &str) -> Value {
    let want = api_version(group, version);
    let stored = v
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let kind = v
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if let Value::Object(m) = &mut v {
        if stored != want {
            if kind == "Event" && group.is_empty() && stored.starts_with("events.k8s.io/") {
                core_event(m);
            }
            m.insert("apiVersion".into(), Value::String(want));
        }
        if kind == "Node"
            && let Some(Value::Object(info)) =
                m.get_mut("status").and_then(|s| s.get_mut("nodeInfo"))
        {
            for field in NODE_INFO {
                info.entry(*field)
                    .or_insert_with(|| Value::String(String::new()));
            }
        }
    }
    times(&mut v);
    v
}

/// An `events.k8s.io` Event's fields under the core Event's names.
fn core_event(m: &mut Map<String, Value>) {
    for (from, to) in EVENT_FIELDS {
        if let Some(x) = m.remove(*from)
            && !m.contains_key(*to)
        {
            m.insert(to.to_string(), x);
        }
    }
}

/// Every time field whose text is no timestamp, `null`.
fn times(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match x {
                    Value::String(s)
                        if TIME_FIELDS.contains(&k.as_str()) && parse_timestamp(s).is_none() =>
                    {
                        *x = Value::Null;
                    }
                    Value::Object(_) | Value::Array(_) => times(x),
                    _ => {}
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(times),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_null_written_as_a_string_is_null() {
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p",
            "creationTimestamp": "2022-03-06T22:50:26Z"},
            "status": {"conditions": [{"type": "Ready", "status": "True",
                "lastProbeTime": "null", "lastTransitionTime": "2022-03-08T04:52:06Z"}]}});
        let out = served(pod, "", "v1");
        assert_eq!(out["status"]["conditions"][0]["lastProbeTime"], Value::Null);
        assert_eq!(
            out["status"]["conditions"][0]["lastTransitionTime"],
            "2022-03-08T04:52:06Z"
        );
        assert_eq!(out["metadata"]["creationTimestamp"], "2022-03-06T22:50:26Z");
    }

    #[test]
    fn an_events_k8s_io_event_is_served_as_a_core_event() {
        let e = json!({"apiVersion": "events.k8s.io/v1", "kind": "Event",
            "metadata": {"name": "node2.16da3f5b1533a2aa", "namespace": "default"},
            "regarding": {"kind": "Node", "name": "node2", "uid": "node2"},
            "note": "Node node2 status is now: NodeHasSufficientMemory",
            "reason": "NodeHasSufficientMemory", "type": "Normal", "eventTime": "null",
            "deprecatedCount": 3, "deprecatedSource": {"component": "kubelet", "host": "node2"},
            "deprecatedFirstTimestamp": "2022-03-08T00:11:14Z",
            "deprecatedLastTimestamp": "2022-03-22T23:46:53Z"});
        assert!(differs(&e, "", "v1"));
        let out = served(e, "", "v1");
        assert_eq!(out["apiVersion"], "v1");
        assert_eq!(out["involvedObject"]["name"], "node2");
        assert_eq!(
            out["message"],
            "Node node2 status is now: NodeHasSufficientMemory"
        );
        assert_eq!(out["count"], 3);
        assert_eq!(out["source"]["component"], "kubelet");
        assert_eq!(out["lastTimestamp"], "2022-03-22T23:46:53Z");
        assert_eq!(out["eventTime"], Value::Null);
        assert!(out.get("regarding").is_none() && out.get("note").is_none());
    }

    #[test]
    fn served_at_the_version_asked_with_node_info_whole() {
        let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"},
            "status": {"nodeInfo": {"kubeletVersion": "v1.31.2"}}});
        assert!(!differs(&node, "", "v1"));
        let out = served(node, "", "v1");
        assert_eq!(out["status"]["nodeInfo"]["kubeletVersion"], "v1.31.2");
        assert_eq!(out["status"]["nodeInfo"]["bootID"], "");
        let ing = json!({"apiVersion": "extensions/v1beta1", "kind": "Ingress",
            "metadata": {"name": "i"}});
        assert_eq!(
            served(ing, "networking.k8s.io", "v1")["apiVersion"],
            "networking.k8s.io/v1"
        );
    }
}

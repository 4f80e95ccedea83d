//! A Pod's STATUS as `kubectl get pods` prints it; `describe` shows the same.

use super::fields::{int_at, str_at};
use crate::snapshot::Snapshot;
use serde_json::Value;

/// The STATUS column of `kubectl get pods` (printers.go `printPod`).
pub(super) fn pod_status(snap: &Snapshot, v: &Value) -> String {
    let mut reason = v
        .pointer("/status/reason")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .or_else(|| v.pointer("/status/phase").and_then(Value::as_str))
        .unwrap_or("Unknown")
        .to_string();
    let inits = v
        .pointer("/status/initContainerStatuses")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let init_total = v
        .pointer("/spec/initContainers")
        .and_then(Value::as_array)
        .map(Vec::len)
        .unwrap_or(inits.len());
    let mut initializing = false;
    for (i, c) in inits.iter().enumerate() {
        let restartable = v
            .pointer("/spec/initContainers")
            .and_then(Value::as_array)
            .and_then(|a| a.get(i))
            .and_then(|s| s.get("restartPolicy"))
            .and_then(Value::as_str)
            == Some("Always");
        if let Some(t) = c.pointer("/state/terminated") {
            if int_at(t, "/exitCode") == 0 {
                continue;
            }
            reason = match t
                .get("reason")
                .and_then(Value::as_str)
                .filter(|r| !r.is_empty())
            {
                Some(r) => format!("Init:{r}"),
                None if int_at(t, "/signal") != 0 => {
                    format!("Init:Signal:{}", int_at(t, "/signal"))
                }
                None => format!("Init:ExitCode:{}", int_at(t, "/exitCode")),
            };
        } else if restartable && c.get("started").and_then(Value::as_bool) == Some(true) {
            continue;
        } else if let Some(r) = c
            .pointer("/state/waiting/reason")
            .and_then(Value::as_str)
            .filter(|r| !r.is_empty() && *r != "PodInitializing")
        {
            reason = format!("Init:{r}");
        } else {
            reason = format!("Init:{i}/{init_total}");
        }
        initializing = true;
        break;
    }
    if !initializing {
        let statuses = v
            .pointer("/status/containerStatuses")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut has_running = false;
        for c in statuses.iter().rev() {
            if let Some(r) = c
                .pointer("/state/waiting/reason")
                .and_then(Value::as_str)
                .filter(|r| !r.is_empty())
            {
                reason = r.to_string();
            } else if let Some(t) = c.pointer("/state/terminated") {
                reason = match t
                    .get("reason")
                    .and_then(Value::as_str)
                    .filter(|r| !r.is_empty())
                {
                    Some(r) => r.to_string(),
                    None if int_at(t, "/signal") != 0 => format!("Signal:{}", int_at(t, "/signal")),
                    None => format!("ExitCode:{}", int_at(t, "/exitCode")),
                };
            } else if c.pointer("/state/running").is_some()
                && c.get("ready").and_then(Value::as_bool) == Some(true)
            {
                has_running = true;
            }
        }
        if reason == "Completed" && has_running {
            let ready = v
                .pointer("/status/conditions")
                .and_then(Value::as_array)
                .is_some_and(|cs| {
                    cs.iter()
                        .any(|c| str_at(c, "/type") == "Ready" && str_at(c, "/status") == "True")
                });
            reason = if ready {
                "Running".into()
            } else {
                "NotReady".into()
            };
        }
    }
    if v.pointer("/metadata/deletionTimestamp").is_some() {
        let lost = snap
            .node_named(str_at(v, "/spec/nodeName"))
            .is_some_and(|(_, n)| {
                n.status
                    .conditions
                    .iter()
                    .any(|c| c.type_ == "Ready" && c.status == "Unknown")
            });
        reason = if lost && v.pointer("/status/reason").and_then(Value::as_str) == Some("NodeLost")
        {
            "Unknown".into()
        } else {
            "Terminating".into()
        };
    }
    reason
}

//! The Pod part of `kdiag describe`: node, status, containers (state, resources,
//! probes), conditions, node selectors and tolerations.

use super::describe::{field, map_field};
use super::fields::{int_at, str_at};
use super::pod_status::pod_status;
use kdiag::snapshot::Snapshot;
use serde_json::Value;
use std::fmt::Write as _;

pub(super) fn describe_pod(snap: &Snapshot, v: &Value, out: &mut String) {
    let node = str_at(v, "/spec/nodeName");
    let host_ip = str_at(v, "/status/hostIP");
    field(
        out,
        "Node",
        &match (node, host_ip) {
            ("", _) => "<none>".into(),
            (n, "") => n.into(),
            (n, ip) => format!("{n}/{ip}"),
        },
    );
    if let Some(p) = v.pointer("/spec/priority").and_then(Value::as_i64) {
        field(out, "Priority", &p.to_string());
    }
    if let Some(sa) = v
        .pointer("/spec/serviceAccountName")
        .and_then(Value::as_str)
    {
        field(out, "Service Account", sa);
    }
    field(out, "Status", &pod_status(snap, v));
    if let Some(m) = v.pointer("/status/message").and_then(Value::as_str) {
        field(out, "Message", m);
    }
    field(out, "IP", str_at(v, "/status/podIP"));
    for (path, title) in [
        ("/spec/initContainers", "Init Containers"),
        ("/spec/containers", "Containers"),
    ] {
        let Some(cs) = v.pointer(path).and_then(Value::as_array) else {
            continue;
        };
        if cs.is_empty() {
            continue;
        }
        let statuses_path = if title == "Containers" {
            "/status/containerStatuses"
        } else {
            "/status/initContainerStatuses"
        };
        let statuses = v
            .pointer(statuses_path)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let _ = writeln!(out, "{title}:");
        for c in cs {
            let name = str_at(c, "/name");
            let st = statuses.iter().find(|s| str_at(s, "/name") == name);
            let _ = writeln!(out, "  {name}:");
            let f = |out: &mut String, k: &str, val: &str| {
                let _ = writeln!(out, "    {:<16}{val}", format!("{k}:"));
            };
            f(out, "Image", str_at(c, "/image"));
            if let Some(ports) = c.get("ports").and_then(Value::as_array) {
                let p: Vec<String> = ports
                    .iter()
                    .map(|p| {
                        let n = p
                            .get("name")
                            .and_then(Value::as_str)
                            .map(|n| format!(" ({n})"))
                            .unwrap_or_default();
                        format!(
                            "{}/{}{n}",
                            int_at(p, "/containerPort"),
                            p.get("protocol").and_then(Value::as_str).unwrap_or("TCP")
                        )
                    })
                    .collect();
                f(out, "Ports", &p.join(", "));
            }
            if let Some(st) = st {
                for (label, key) in [("State", "/state"), ("Last State", "/lastState")] {
                    let Some(state) = st
                        .pointer(key)
                        .and_then(Value::as_object)
                        .filter(|m| !m.is_empty())
                    else {
                        continue;
                    };
                    for (which, detail) in state {
                        let mut word = which.clone();
                        if let Some(c) = word.get_mut(0..1) {
                            c.make_ascii_uppercase();
                        }
                        f(out, label, &word);
                        if let Some(m) = detail.as_object() {
                            for (k, x) in m {
                                if matches!(k.as_str(), "containerID") {
                                    continue;
                                }
                                let val = x
                                    .as_str()
                                    .map(str::to_string)
                                    .unwrap_or_else(|| x.to_string());
                                let _ = writeln!(
                                    out,
                                    "      {:<14}{}",
                                    format!("{k}:"),
                                    val.replace('\n', " ")
                                );
                            }
                        }
                    }
                }
                f(
                    out,
                    "Ready",
                    if st.get("ready").and_then(Value::as_bool) == Some(true) {
                        "True"
                    } else {
                        "False"
                    },
                );
                f(
                    out,
                    "Restart Count",
                    &int_at(st, "/restartCount").to_string(),
                );
            }
            for (k, title) in [("limits", "Limits"), ("requests", "Requests")] {
                if let Some(m) = c
                    .pointer(&format!("/resources/{k}"))
                    .and_then(Value::as_object)
                    .filter(|m| !m.is_empty())
                {
                    let _ = writeln!(out, "    {title}:");
                    for (r, q) in m {
                        let _ = writeln!(
                            out,
                            "      {r}:  {}",
                            q.as_str()
                                .map(str::to_string)
                                .unwrap_or_else(|| q.to_string())
                        );
                    }
                }
            }
            for (k, title) in [
                ("livenessProbe", "Liveness"),
                ("readinessProbe", "Readiness"),
                ("startupProbe", "Startup"),
            ] {
                if let Some(p) = c.get(k) {
                    f(out, title, &probe_text(p));
                }
            }
        }
    }
    if let Some(conds) = v.pointer("/status/conditions").and_then(Value::as_array) {
        out.push_str("Conditions:\n");
        let w = conds
            .iter()
            .map(|c| str_at(c, "/type").len())
            .max()
            .unwrap_or(4)
            .max(4);
        let _ = writeln!(out, "  {:<w$}   Status", "Type");
        for c in conds {
            let reason = c
                .get("reason")
                .and_then(Value::as_str)
                .map(|r| format!("   ({r})"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  {:<w$}   {}{reason}",
                str_at(c, "/type"),
                str_at(c, "/status")
            );
        }
    }
    if let Some(sel) = v
        .pointer("/spec/nodeSelector")
        .and_then(Value::as_object)
        .filter(|m| !m.is_empty())
    {
        map_field(
            out,
            "Node-Selectors",
            Some(&Value::Object(sel.clone())),
            &[],
        );
    }
    if let Some(tols) = v
        .pointer("/spec/tolerations")
        .and_then(Value::as_array)
        .filter(|t| !t.is_empty())
    {
        let items: Vec<String> = tols
            .iter()
            .map(|t| {
                let key = str_at(t, "/key");
                let val = t
                    .get("value")
                    .and_then(Value::as_str)
                    .map(|x| format!("={x}"))
                    .unwrap_or_default();
                let eff = t
                    .get("effect")
                    .and_then(Value::as_str)
                    .map(|e| format!(":{e}"))
                    .unwrap_or_default();
                let op = if str_at(t, "/operator") == "Exists" && key.is_empty() {
                    "op=Exists".to_string()
                } else {
                    String::new()
                };
                let secs = t
                    .get("tolerationSeconds")
                    .and_then(Value::as_i64)
                    .map(|s| format!(" for {s}s"))
                    .unwrap_or_default();
                format!("{key}{val}{eff}{op}{secs}")
            })
            .collect();
        for (i, t) in items.iter().enumerate() {
            if i == 0 {
                field(out, "Tolerations", t);
            } else {
                let _ = writeln!(out, "{:<17}{t}", "");
            }
        }
    }
}

fn probe_text(p: &Value) -> String {
    let what = if let Some(h) = p.get("httpGet") {
        let port = h
            .get("port")
            .map(|x| {
                x.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| x.to_string())
            })
            .unwrap_or_default();
        format!(
            "http-get {}:{port}{}",
            h.get("scheme")
                .and_then(Value::as_str)
                .map(|s| s.to_ascii_lowercase() + "://")
                .unwrap_or_default(),
            str_at(h, "/path")
        )
    } else if let Some(t) = p.get("tcpSocket") {
        format!(
            "tcp-socket :{}",
            t.get("port")
                .map(|x| x
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| x.to_string()))
                .unwrap_or_default()
        )
    } else if let Some(e) = p.pointer("/exec/command").and_then(Value::as_array) {
        format!(
            "exec [{}]",
            e.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" ")
        )
    } else if let Some(g) = p.get("grpc") {
        format!("grpc :{}", int_at(g, "/port"))
    } else {
        "?".into()
    };
    format!(
        "{what} delay={}s timeout={}s period={}s #success={} #failure={}",
        int_at(p, "/initialDelaySeconds"),
        p.get("timeoutSeconds").and_then(Value::as_i64).unwrap_or(1),
        p.get("periodSeconds").and_then(Value::as_i64).unwrap_or(10),
        p.get("successThreshold")
            .and_then(Value::as_i64)
            .unwrap_or(1),
        p.get("failureThreshold")
            .and_then(Value::as_i64)
            .unwrap_or(3),
    )
}

//! `kdiag describe`: one object's metadata, sources, spec and status, then its events
//! and kdiag's findings about it. A Pod's own section is in `describe_pod.rs`.

use super::age::{age, human_duration};
use super::describe_pod::describe_pod;
use super::fields::str_at;
use super::lookup::{resolve_kind, resolve_object};
use super::yaml::yaml_value;
use super::{DescribeArgs, emit};
use crate::load;
use kdiag::kube::time::format_rfc3339;
use kdiag::report::quote;
use kdiag::report::redact::Redactor;
use kdiag::rules::Finding;
use kdiag::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::fmt::Write as _;
use std::process::ExitCode;

pub fn describe(args: DescribeArgs) -> ExitCode {
    let Some((snap, findings)) = load(&args.paths) else {
        return ExitCode::from(2);
    };
    let Some((typed, name)) = args.target.split_once('/') else {
        eprintln!("kdiag: expected KIND/NAME, got {:?}", args.target);
        return ExitCode::from(2);
    };
    let Some(kind) = resolve_kind(&snap, typed) else {
        eprintln!("kdiag: the bundle holds no objects of kind {typed:?}");
        return ExitCode::from(2);
    };
    let id = match resolve_object(&snap, &kind, name, args.namespace.as_deref()) {
        Ok(id) => id,
        Err(e) => {
            eprintln!("kdiag: {e}");
            return ExitCode::from(2);
        }
    };
    let text = describe_object(&snap, &findings, id);
    let redactor = args.redact.then(|| Redactor::from_snapshot(&snap));
    emit(text, redactor.as_ref())
}

pub(super) fn field(out: &mut String, key: &str, value: &str) {
    let _ = writeln!(out, "{:<17}{}", format!("{key}:"), value);
}

pub(super) fn map_field(out: &mut String, key: &str, v: Option<&Value>, skip: &[&str]) {
    let items: Vec<String> = v
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter(|(k, _)| !skip.contains(&k.as_str()))
                .map(|(k, x)| {
                    format!(
                        "{k}={}",
                        x.as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| x.to_string())
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    if items.is_empty() {
        field(out, key, "<none>");
        return;
    }
    for (i, it) in items.iter().enumerate() {
        // Cut before a name, not inside it: `--redact` masks whole names only.
        let it = match quote::cut(it, 120) {
            Some(_) => quote::cut(it, 117).unwrap_or(it).to_string() + "...",
            None => it.clone(),
        };
        if i == 0 {
            field(out, key, &it);
        } else {
            let _ = writeln!(out, "{:<17}{it}", "");
        }
    }
}

pub(super) fn describe_object(snap: &Snapshot, findings: &[Finding], id: ObjectId) -> String {
    let o = snap.object(id);
    let v = o.value();
    let mut out = String::new();
    field(&mut out, "Name", &o.name);
    if let Some(ns) = &o.namespace {
        field(&mut out, "Namespace", ns);
    }
    field(&mut out, "Kind", &format!("{} ({})", o.kind, o.api_version));
    map_field(&mut out, "Labels", v.pointer("/metadata/labels"), &[]);
    map_field(
        &mut out,
        "Annotations",
        v.pointer("/metadata/annotations"),
        &["kubectl.kubernetes.io/last-applied-configuration"],
    );
    let created = str_at(v, "/metadata/creationTimestamp");
    if !created.is_empty() {
        field(
            &mut out,
            "Created",
            &format!("{created} ({} before the snapshot)", age(snap, created)),
        );
    }
    if let Some(t) = v
        .pointer("/metadata/deletionTimestamp")
        .and_then(Value::as_str)
    {
        field(
            &mut out,
            "Deleting",
            &format!("since {t} ({})", age(snap, t)),
        );
    }
    if let Some(owners) = v
        .pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
    {
        for ow in owners {
            field(
                &mut out,
                "Controlled By",
                &format!("{}/{}", str_at(ow, "/kind"), str_at(ow, "/name")),
            );
        }
    }
    let sources: Vec<String> = o
        .sources
        .iter()
        .map(|s| {
            let f = &snap.files[s.file];
            let input = if snap.inputs.len() > 1 {
                format!("[{}] ", snap.inputs[f.input].path)
            } else {
                String::new()
            };
            format!("{input}{}:{}-{}", f.path, s.span.start, s.span.end)
        })
        .collect();
    for (i, s) in sources.iter().enumerate() {
        if i == 0 {
            field(&mut out, "Source", s);
        } else {
            let _ = writeln!(out, "{:<17}{s}", "");
        }
    }
    if let Some(t) = snap.as_of {
        field(&mut out, "Snapshot", &format_rfc3339(t));
    }
    match o.kind.as_str() {
        "Pod" => describe_pod(snap, v, &mut out),
        "Secret" => {
            field(&mut out, "Type", str_at(v, "/type"));
            secret_data(v, &mut out);
        }
        "Event" => {
            let mut rest = v.clone();
            if let Some(m) = rest.as_object_mut() {
                for k in ["apiVersion", "kind", "metadata"] {
                    m.remove(k);
                }
            }
            out.push('\n');
            yaml_value(&rest, 0, &mut out);
        }
        _ => {
            for (key, title) in [("spec", "Spec"), ("status", "Status")] {
                if let Some(x) = v
                    .get(key)
                    .filter(|x| x.as_object().is_some_and(|m| !m.is_empty()))
                {
                    let _ = writeln!(out, "{title}:");
                    yaml_value(x, 2, &mut out);
                }
            }
            // Kinds with top-level data (ConfigMap, StorageClass, EndpointSlice …).
            if let Some(m) = v.as_object() {
                let rest: serde_json::Map<String, Value> = m
                    .iter()
                    .filter(|(k, _)| {
                        !matches!(
                            k.as_str(),
                            "apiVersion" | "kind" | "metadata" | "spec" | "status"
                        )
                    })
                    .map(|(k, x)| (k.clone(), x.clone()))
                    .collect();
                if !rest.is_empty() {
                    yaml_value(&Value::Object(rest), 0, &mut out);
                }
            }
        }
    }
    events_section(snap, id, &mut out);
    findings_section(snap, findings, id, &mut out);
    out
}

fn events_section(snap: &Snapshot, id: ObjectId, out: &mut String) {
    let events = snap.events_for(id);
    if events.is_empty() {
        let why = if snap.has_kind("Event") {
            "<none> (events expire after about an hour: no event is not proof of health)"
        } else {
            "<none> (the bundle holds no events at all)"
        };
        let _ = writeln!(out, "Events:          {why}");
        return;
    }
    out.push_str("Events:\n");
    let rows: Vec<[String; 5]> = events
        .iter()
        .map(|(_, e)| {
            let ago = |t: Option<i64>| match (t, snap.as_of) {
                (Some(t), Some(now)) => human_duration(now - t),
                _ => "<unknown>".into(),
            };
            let age = if e.count > 1 {
                format!(
                    "{} (x{} over {})",
                    ago(e.last),
                    e.count,
                    match (e.first, e.last) {
                        (Some(f), Some(l)) => human_duration(l - f),
                        _ => "?".into(),
                    }
                )
            } else {
                ago(e.last)
            };
            [
                e.type_.clone(),
                e.reason.clone(),
                age,
                e.component.clone(),
                e.message.replace('\n', " "),
            ]
        })
        .collect();
    let head = ["Type", "Reason", "Age", "From", "Message"];
    let mut w = head.map(str::len);
    for r in &rows {
        for i in 0..4 {
            w[i] = w[i].max(r[i].chars().count());
        }
    }
    let line = |cells: [&str; 5], out: &mut String| {
        let _ = writeln!(
            out,
            "  {:<w0$}  {:<w1$}  {:<w2$}  {:<w3$}  {}",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            w0 = w[0],
            w1 = w[1],
            w2 = w[2],
            w3 = w[3]
        );
    };
    line(head, out);
    line(["----", "------", "----", "----", "-------"], out);
    for r in &rows {
        line([&r[0], &r[1], &r[2], &r[3], &r[4]], out);
    }
}

/// A Secret's keys as kubectl's describe lists them, each with its size where ingest
/// kept it; values never reach the store (a `data` that is no map reads as not shown).
fn secret_data(v: &Value, out: &mut String) {
    out.push_str("\nData\n====\n");
    for field in ["data", "binaryData", "stringData"] {
        match v.get(field) {
            Some(Value::Object(m)) => {
                let width = m.keys().map(|k| k.len() + 1).max().unwrap_or(0);
                for (k, val) in m {
                    let size = val
                        .as_str()
                        .and_then(|s| s.strip_prefix(kdiag::ingest::objects::REDACTED))
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .unwrap_or("value not shown");
                    let _ = writeln!(out, "{:<width$}  {size}", format!("{k}:"));
                }
            }
            Some(Value::Null) | None => {}
            Some(_) => {
                let _ = writeln!(out, "{field}:  <not shown: not a map of keys>");
            }
        }
    }
}

/// kdiag's findings about this object: on it, explaining it, or citing it.
fn findings_section(snap: &Snapshot, findings: &[Finding], id: ObjectId, out: &mut String) {
    let o = snap.object(id);
    let me = o.reference();
    let same = |r: &kdiag::kube::meta::ObjectRef| {
        r.kind == me.kind && r.namespace == me.namespace && r.name == me.name
    };
    let mine: Vec<&Finding> = findings
        .iter()
        .filter(|f| {
            same(&f.object)
                || f.explains.contains(&id)
                || f.evidence
                    .iter()
                    .any(|e| e.object.as_ref().is_some_and(same))
        })
        .collect();
    if mine.is_empty() {
        out.push_str("Findings:        <none>\n");
        return;
    }
    out.push_str("Findings:\n");
    for f in mine {
        let _ = writeln!(
            out,
            "  [{}] {} {}{}: {}",
            f.stage.as_str(),
            f.severity.as_str(),
            f.rule,
            if same(&f.object) {
                String::new()
            } else {
                format!(" (on {})", f.object.display())
            },
            f.message
        );
    }
}

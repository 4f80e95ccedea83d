//! `kdiag describe`: one object as `kubectl describe` prints it (Pods, Deployments,
//! Services and Nodes in kubectl's own sections; other kinds as metadata, then spec and
//! status), then its events, and kdiag's additions: where the object is in the bundle,
//! the snapshot's time and kdiag's findings about it.
//!
//! The Pod section is in `describe_pod.rs` (its containers and volumes in
//! `describe_containers.rs`), the Deployment and Service sections in
//! `describe_apps.rs`, the Node section in `describe_node.rs`; `describe_writer.rs`
//! aligns the text as kubectl's tabwriter does.

use super::age::human_duration;
use super::describe_apps::{describe_deployment, describe_service};
use super::describe_node::describe_node;
use super::describe_pod::describe_pod;
use super::describe_writer::{Tabbed, annotations, labels, rfc1123z};
use super::fields::str_at;
use super::lookup::{resolve_kind, resolve_object, resolve_object_also, resolve_prefix};
use super::yaml::yaml_value;
use crate::ingest::Located;
use crate::ingest::Want;
use crate::kube::time::format_rfc3339;
use crate::rules::Finding;
use crate::snapshot::kinds::{canonical_group, default_group};
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::fmt::Write as _;

/// What was asked: a kind as typed, a name (or a prefix of names), a namespace.
pub struct Asked<'a> {
    pub typed: &'a str,
    pub name: &'a str,
    pub namespace: Option<&'a str>,
    /// `KIND/NAME`: the name is the whole name (kubectl matches prefixes only in `KIND NAME`).
    pub exact: bool,
}

/// The objects described and their text, with the want naming the files that can hold
/// them (their problems are told on stderr).
pub struct Answer {
    pub ids: Vec<ObjectId>,
    pub text: String,
    pub holds_it: Want,
}

/// Why there is no answer.
pub struct NoAnswer {
    pub message: String,
    /// `None` before the kind is known.
    pub holds_it: Option<Box<Want>>,
}

impl Asked<'_> {
    /// The kind asked as the bundle names it (`Pod`); `None` when the bundle has no such kind.
    pub fn kind_in(&self, snap: &Snapshot) -> Option<String> {
        resolve_kind(snap, self.typed).map(|k| k.kind)
    }

    /// Why the object is not in the namespace asked, naming where objects of its kind and
    /// name are (`located`: the kind's objects in every namespace, read for their names).
    pub fn elsewhere(&self, snap: &Snapshot, located: &[Located]) -> Option<String> {
        let kind = resolve_kind(snap, self.typed)?;
        let also: Vec<&str> = located
            .iter()
            .filter(|l| {
                l.name == self.name && canonical_group(&l.api_version, &l.kind) == kind.group
            })
            .filter_map(|l| l.namespace.as_deref())
            .collect();
        resolve_object_also(snap, &kind, self.name, self.namespace, &also).err()
    }
}

/// The objects asked and their text, from `snap`.
pub fn answer(snap: &Snapshot, findings: &[Finding], asked: &Asked) -> Result<Answer, NoAnswer> {
    let Some(kind) = resolve_kind(snap, asked.typed) else {
        return Err(NoAnswer {
            message: super::get::unknown_kind(snap, asked.typed),
            holds_it: None,
        });
    };
    let ns = asked.namespace;
    // Problems in the files that can hold the object (any of the kind, when the name is a
    // prefix; any file, for a kind kdiag does not know by its files).
    let holds_it = if kind.is_known() {
        Want::nothing().objects(&kind.kind, ns, asked.exact.then_some(asked.name))
    } else {
        Want::all()
    };
    // kubectl matches names by prefix only in its `KIND NAME` form.
    let found = if asked.exact {
        resolve_object(snap, &kind, asked.name, ns).map(|id| vec![id])
    } else {
        resolve_prefix(snap, &kind, asked.name, ns)
    };
    let ids = found.map_err(|message| NoAnswer {
        message,
        holds_it: Some(Box::new(holds_it.clone())),
    })?;
    // kubectl separates the objects it describes by two empty lines.
    let text = ids
        .iter()
        .map(|&id| describe_object(snap, findings, id))
        .collect::<Vec<_>>()
        .join("\n\n");
    Ok(Answer {
        ids,
        text,
        holds_it,
    })
}

pub fn describe_object(snap: &Snapshot, findings: &[Finding], id: ObjectId) -> String {
    let o = snap.object(id);
    let v = o.value();
    let mut w = Tabbed::default();
    let kubectl_kind = default_group(&o.kind) == Some(o.group());
    match o.kind.as_str() {
        "Pod" if kubectl_kind => describe_pod(snap, v, &mut w),
        "Deployment" if kubectl_kind => describe_deployment(snap, id, v, &mut w),
        "Service" if kubectl_kind => describe_service(snap, v, &mut w),
        "Node" if kubectl_kind => describe_node(snap, v, &mut w),
        _ => describe_generic(snap, id, &mut w),
    }
    w.flush();
    events_section(snap, id, &mut w);
    w.flush();
    kdiag_section(snap, findings, id, &mut w);
    w.finish()
}

/// Kinds without a section of their own: metadata as kubectl prints it, then the spec
/// and status (or a Secret's keys, an Event's fields, a ConfigMap's data) as YAML.
fn describe_generic(snap: &Snapshot, id: ObjectId, w: &mut Tabbed) {
    let o = snap.object(id);
    let v = o.value();
    w.line(0, &format!("Name:\t{}", o.name));
    if let Some(ns) = &o.namespace {
        w.line(0, &format!("Namespace:\t{ns}"));
    }
    w.line(0, &format!("Kind:\t{} ({})", o.kind, o.api_version));
    labels(w, "", "Labels", v.pointer("/metadata/labels"));
    annotations(w, "", "Annotations", v.pointer("/metadata/annotations"));
    let created = str_at(v, "/metadata/creationTimestamp");
    if !created.is_empty() {
        w.line(0, &format!("CreationTimestamp:\t{}", rfc1123z(created)));
    }
    if let Some(t) = v
        .pointer("/metadata/deletionTimestamp")
        .and_then(Value::as_str)
    {
        w.line(0, &format!("Deleting:\tsince {}", rfc1123z(t)));
    }
    controlled_by(v, w);
    let mut yaml = String::new();
    match o.kind.as_str() {
        "Secret" => {
            w.line(0, &format!("Type:\t{}", str_at(v, "/type")));
            secret_data(v, &mut yaml);
        }
        "Event" => {
            let mut rest = v.clone();
            if let Some(m) = rest.as_object_mut() {
                for k in ["apiVersion", "kind", "metadata"] {
                    m.remove(k);
                }
            }
            yaml.push('\n');
            yaml_value(&rest, 0, &mut yaml);
        }
        _ => {
            for (key, title) in [("spec", "Spec"), ("status", "Status")] {
                if let Some(x) = v
                    .get(key)
                    .filter(|x| x.as_object().is_some_and(|m| !m.is_empty()))
                {
                    let _ = writeln!(yaml, "{title}:");
                    yaml_value(x, 2, &mut yaml);
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
                    yaml_value(&Value::Object(rest), 0, &mut yaml);
                }
            }
        }
    }
    // YAML is no table: aligned apart from the lines above.
    w.flush();
    w.write(0, &yaml);
}

/// kubectl's `Controlled By:\tKind/name` (the controller owner, else the first owner).
pub(super) fn controlled_by(v: &Value, w: &mut Tabbed) {
    let owners = v
        .pointer("/metadata/ownerReferences")
        .and_then(Value::as_array);
    let owner = owners.and_then(|o| {
        o.iter()
            .find(|x| x.get("controller").and_then(Value::as_bool) == Some(true))
    });
    if let Some(ow) = owner {
        w.line(
            0,
            &format!(
                "Controlled By:\t{}/{}",
                str_at(ow, "/kind"),
                str_at(ow, "/name")
            ),
        );
    }
}

/// kubectl's `DescribeEvents`: oldest last-seen first; the age of an event seen more
/// than once is `LAST (xCOUNT over FIRST)`, both measured back from the snapshot.
fn events_section(snap: &Snapshot, id: ObjectId, w: &mut Tabbed) {
    let events = snap.events_for(id);
    if events.is_empty() {
        let why = if snap.has_kind("Event") {
            "<none> (events expire after about an hour: no event is not proof of health)"
        } else {
            "<none> (the bundle holds no events at all)"
        };
        w.line(0, &format!("Events:\t{why}"));
        return;
    }
    w.line(0, "Events:");
    w.line(1, "Type\tReason\tAge\tFrom\tMessage");
    w.line(1, "----\t------\t----\t----\t-------");
    let since = |t: Option<i64>| match (t, snap.as_of) {
        (Some(t), Some(now)) => human_duration(now - t),
        _ => "<unknown>".into(),
    };
    for (_, e) in events {
        let first = since(e.first.or(e.last));
        let age = if e.count > 1 {
            format!("{} (x{} over {first})", since(e.last), e.count)
        } else {
            first
        };
        // kubectl (1.37, the pinned client the serve tests run) puts the container's field
        // path before the message: `spec.containers{api}: Pulling image …`.
        let message = e.message.trim().replace('\n', " ");
        let message = match e.regarding.field_path.as_deref().filter(|p| !p.is_empty()) {
            Some(path) => format!("{path}: {message}"),
            None => message,
        };
        w.line(
            1,
            &format!(
                "{}\t{}\t{age}\t{}\t{message}",
                e.type_, e.reason, e.component
            ),
        );
    }
}

/// What kdiag adds after kubectl's text: where the object is in the bundle, the
/// snapshot's time (ages are measured back from it) and kdiag's findings.
fn kdiag_section(snap: &Snapshot, findings: &[Finding], id: ObjectId, w: &mut Tabbed) {
    let o = snap.object(id);
    for (i, s) in o.sources.iter().enumerate() {
        let f = &snap.files[s.file];
        let input = if snap.inputs.len() > 1 {
            format!("[{}] ", snap.inputs[f.input].path)
        } else {
            String::new()
        };
        let title = if i == 0 { "Source:" } else { "" };
        w.line(
            0,
            &format!("{title}\t{input}{}:{}-{}", f.path, s.span.start, s.span.end),
        );
    }
    if let Some(t) = snap.as_of {
        w.line(0, &format!("Snapshot:\t{}", format_rfc3339(t)));
    }
    findings_section(snap, findings, id, w);
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
                        .and_then(|s| s.strip_prefix(crate::ingest::objects::REDACTED))
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
fn findings_section(snap: &Snapshot, findings: &[Finding], id: ObjectId, w: &mut Tabbed) {
    let o = snap.object(id);
    let me = o.reference();
    let same = |r: &crate::kube::meta::ObjectRef| {
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
        w.line(0, "Findings:\t<none>");
        return;
    }
    w.line(0, "Findings:");
    for f in mine {
        w.line(
            1,
            &format!(
                "[{}] {} {}{}: {}",
                f.stage.as_str(),
                f.severity.as_str(),
                f.rule,
                if same(&f.object) {
                    String::new()
                } else {
                    format!(" (on {})", f.object.display())
                },
                f.message
            ),
        );
    }
}

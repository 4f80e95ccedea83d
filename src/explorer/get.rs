//! `kdiag get`: the objects picked by kind, name, namespace and label selector, printed
//! as a table (the columns of each kind are in `columns.rs`), YAML, JSON or names.

use super::columns::columns;
use super::lookup::{Kind, cluster_scoped, resolve_kind, resolve_object};
use super::printer_columns::{custom_table, printer_columns};
use super::selector::{matches_selector, parse_selector};
use super::yaml::object_yaml;
use super::{GetArgs, GetFormat, emit};
use crate::load_snapshot;
use kdiag::report::redact::Redactor;
use kdiag::snapshot::{ObjectId, Snapshot};
use serde_json::json;
use std::process::ExitCode;

pub fn get(args: GetArgs) -> ExitCode {
    let Some(snap) = load_snapshot(&args.paths, &super::needs::for_get(&args)) else {
        return ExitCode::from(2);
    };
    let (typed, name) = match args.target.split_once('/') {
        Some((k, n)) => (k, Some(n)),
        None => (args.target.as_str(), None),
    };
    let Some(kind) = resolve_kind(&snap, typed) else {
        eprintln!(
            "kdiag: the bundle holds no objects of kind {typed:?} (kubectl names like pods, po, deploy, svc, cq are accepted)"
        );
        return ExitCode::from(2);
    };
    let selector = match args.selector.as_deref().map(parse_selector).transpose() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("kdiag: {e}");
            return ExitCode::from(2);
        }
    };
    let scoped = cluster_scoped(&snap, &kind);
    let ids: Vec<ObjectId> = match name {
        Some(n) => match resolve_object(
            &snap,
            &kind,
            n,
            if args.all_namespaces {
                None
            } else {
                args.namespace.as_deref()
            },
        ) {
            Ok(id) => vec![id],
            Err(e) => {
                eprintln!("kdiag: {e}");
                return ExitCode::from(2);
            }
        },
        None => {
            let ns = if scoped || args.all_namespaces {
                None
            } else {
                Some(args.namespace.as_deref().unwrap_or("default"))
            };
            let mut ids: Vec<ObjectId> = kind
                .ids(&snap)
                .iter()
                .copied()
                .filter(|&id| ns.is_none() || snap.object(id).namespace.as_deref() == ns)
                .filter(|&id| {
                    selector
                        .as_ref()
                        .is_none_or(|s| matches_selector(s, snap.object(id).value()))
                })
                .collect();
            if kind.is_known() && kind.kind == "Event" {
                ids.sort_by_key(|&id| (event_last(&snap, id), id));
            }
            if ids.is_empty() {
                let elsewhere = match super::needs::for_get_elsewhere(&args) {
                    Some(want) => {
                        load_snapshot(&args.paths, &want).map_or(0, |all| kind.ids(&all).len())
                    }
                    None => kind.ids(&snap).len(),
                };
                match ns {
                    Some(ns) if elsewhere > 0 => eprintln!(
                        "No resources found in {ns} namespace ({elsewhere} {} object(s) in other namespaces: use -A or -n NS).",
                        kind.display()
                    ),
                    Some(ns) => eprintln!("No resources found in {ns} namespace."),
                    None => eprintln!("No resources found."),
                }
                return ExitCode::SUCCESS;
            }
            ids
        }
    };
    let redactor = args.redact.then(|| Redactor::from_snapshot(&snap));
    let single = name.is_some();
    let text = match args.output {
        Some(GetFormat::Json) => {
            let v = if single {
                snap.object(ids[0]).value().clone()
            } else {
                json!({"apiVersion": "v1", "items": ids.iter().map(|&id| snap.object(id).value().clone()).collect::<Vec<_>>(), "kind": "List", "metadata": {"resourceVersion": ""}})
            };
            let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
            s.push('\n');
            s
        }
        Some(GetFormat::Yaml) => {
            if single {
                object_yaml(&snap, ids[0])
            } else {
                let mut s = String::from("apiVersion: v1\nitems:\n");
                for &id in &ids {
                    for (i, l) in object_yaml(&snap, id).lines().enumerate() {
                        s.push_str(if i == 0 { "- " } else { "  " });
                        s.push_str(l);
                        s.push('\n');
                    }
                }
                s.push_str("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
                s
            }
        }
        Some(GetFormat::Name) => ids
            .iter()
            .map(|&id| format!("{}/{}\n", kind.resource(), snap.object(id).name))
            .collect(),
        Some(GetFormat::Wide) | None => {
            let wide = args.output == Some(GetFormat::Wide);
            let (mut header, mut rows) = kind_table(&snap, &kind, &ids, wide);
            if args.all_namespaces && !scoped {
                header.insert(0, "NAMESPACE".into());
                for (row, &id) in rows.iter_mut().zip(&ids) {
                    row.insert(0, snap.object(id).namespace.clone().unwrap_or_default());
                }
            }
            table(&header, &rows)
        }
    };
    emit(text, redactor.as_ref())
}

/// The header and rows of a kind's table: kdiag's own columns for the kinds it knows,
/// a custom resource's printer columns (its CRD's, or kdiag's copy of an OpenShift
/// platform kind's), else NAME and AGE.
fn kind_table(
    snap: &Snapshot,
    kind: &Kind,
    ids: &[ObjectId],
    wide: bool,
) -> (Vec<String>, Vec<Vec<String>>) {
    if !kind.is_known() {
        let api_version = &snap.object(ids[0]).api_version;
        if let Some(cols) = printer_columns(snap, &kind.group, &kind.kind, api_version) {
            return custom_table(snap, &cols, ids, wide);
        }
    }
    // Another group's kind of a known name (a `longhorn.io` Node) has no columns of its own.
    let columns_of = if kind.is_known() {
        kind.kind.as_str()
    } else {
        ""
    };
    let mut header = Vec::new();
    let mut rows = Vec::new();
    for &id in ids {
        let o = snap.object(id);
        let (h, row) = columns(snap, columns_of, &o.name, o.value(), wide);
        header = h.into_iter().map(String::from).collect();
        rows.push(row);
    }
    (header, rows)
}

/// Cells padded to their column's width plus three spaces, as kubectl's tabwriter.
fn table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            if i < widths.len() {
                widths[i] = widths[i].max(c.chars().count());
            }
        }
    }
    let mut out = String::new();
    let line = |cells: Vec<&str>, out: &mut String| {
        let n = cells.len();
        for (i, c) in cells.into_iter().enumerate() {
            out.push_str(c);
            if i + 1 < n {
                out.push_str(&" ".repeat(widths[i] - c.chars().count() + 3));
            }
        }
        out.push('\n');
    };
    line(header.iter().map(String::as_str).collect(), &mut out);
    for r in rows {
        line(r.iter().map(String::as_str).collect(), &mut out);
    }
    out
}

fn event_last(snap: &Snapshot, id: ObjectId) -> Option<i64> {
    kdiag::kube::event::Event::from_value(snap.object(id).value()).and_then(|e| e.last)
}

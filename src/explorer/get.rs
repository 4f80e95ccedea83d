//! `kdiag get`: the objects picked by kind, name, namespace, label and field selectors,
//! sorted by `--sort-by`, printed as a table per kind (the columns of each kind are in
//! `columns.rs`), YAML, JSON or names. The arguments are read in `get_request.rs`, what
//! to read of the bundle is said in `needs.rs`.

use super::columns::columns;
use super::custom_columns::CustomColumns;
use super::field_selector::{FieldReq, check_fields, matches_fields, parse_field_selector};
use super::get_request::Request;
use super::jsonpath_template::Template;
use super::lookup::{Kind, cluster_scoped, kind_names, resolve_kind, resolve_object};
use super::printer_columns::{custom_table, printer_columns};
use super::selector::{Req, matches_selector, parse_selector};
use super::sort_by::{compare, parse_sort_by, sort_key};
use super::yaml::{object_json, object_yaml, object_yaml_of};
use super::{GetFormat, GetQuery};
use crate::parse::terminal;
use crate::parse::typo::did_you_mean;
use crate::report::redact::Redactor;
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::json;
use std::collections::HashMap;

/// The objects of one kind to print: picked by name, or listed and filtered.
pub struct Table {
    kind: Kind,
    ids: Vec<ObjectId>,
}

impl Table {
    /// No object of the kind was picked.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// How many objects of this table's kind `snap` holds, in every namespace.
    pub fn kind_count(&self, snap: &Snapshot) -> usize {
        self.kind.ids(snap).len()
    }
}

/// The objects picked, as `-o` asks: JSON or YAML (a `List` unless one object was named),
/// names, a JSONPath template run on that JSON, custom columns, or a table per kind.
/// JSON, YAML, JSONPath and custom columns are masked value by value with `redactor`
/// and escaped by their serializer (JSONPath and custom columns: each value from the
/// bundle): they go out as they are, to a terminal too; a table or names are text the
/// caller masks and escapes for the terminal. `Err`: a template that fails on the data,
/// in kubectl's words.
pub fn render(
    snap: &Snapshot,
    tables: &[Table],
    request: &Request,
    query: &GetQuery,
    redactor: Option<&Redactor>,
) -> Result<String, String> {
    let all_ids: Vec<ObjectId> = tables.iter().flat_map(|t| t.ids.iter().copied()).collect();
    let single = request.named() == 1 && all_ids.len() == 1;
    let masked = |v: serde_json::Value| match redactor {
        Some(r) => r.mask_value(&v),
        None => v,
    };
    // With `--redact` the YAML is emitted from the masked object, not the bundle's text.
    let yaml = |id: ObjectId| match redactor {
        Some(r) => object_yaml_of(&r.mask_value(&object_json(snap, id))),
        None => object_yaml(snap, id),
    };
    // What kubectl's generic printers are given: the one object named, else a List.
    let as_json = || {
        if single {
            masked(object_json(snap, all_ids[0]))
        } else {
            json!({"apiVersion": "v1", "items": all_ids.iter().map(|&id| masked(object_json(snap, id))).collect::<Vec<_>>(), "kind": "List", "metadata": {"resourceVersion": ""}})
        }
    };
    Ok(match &query.output {
        Some(GetFormat::JsonPath(t)) => {
            Template::parse(t)?.execute(&as_json(), |s| terminal::lines(s).into_owned())?
        }
        Some(GetFormat::CustomColumns(spec)) => {
            let objects: Vec<serde_json::Value> = all_ids
                .iter()
                .map(|&id| masked(object_json(snap, id)))
                .collect();
            let (header, rows) = CustomColumns::parse(spec)?
                .rows(&objects, |s| terminal::one_line(s).into_owned())?;
            table(&header, &rows)
        }
        Some(GetFormat::Json) => {
            let v = as_json();
            let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
            s.push('\n');
            crate::parse::terminal::json_escapes(&s).into_owned()
        }
        Some(GetFormat::Yaml) => {
            if single {
                yaml(all_ids[0])
            } else {
                let mut s = String::from("apiVersion: v1\nitems:\n");
                for &id in &all_ids {
                    for (i, l) in yaml(id).lines().enumerate() {
                        s.push_str(if i == 0 { "- " } else { "  " });
                        s.push_str(l);
                        s.push('\n');
                    }
                }
                s.push_str("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
                s
            }
        }
        Some(GetFormat::Name) => tables
            .iter()
            .flat_map(|t| {
                t.ids
                    .iter()
                    .map(|&id| format!("{}/{}\n", t.kind.resource(), snap.object(id).name))
            })
            .collect(),
        Some(GetFormat::Wide) | None => {
            // As kubectl, several kinds asked for name each row's kind (`pod/web-1`) and
            // print one table per kind, a blank line between them.
            let show_kind = request.targets.len() > 1;
            let printed: Vec<String> = tables
                .iter()
                .filter(|t| !t.ids.is_empty())
                .map(|t| kind_text(snap, t, query, show_kind, redactor))
                .collect();
            printed.join("\n")
        }
    })
}

/// What `get` reads before the bundle, so a typo costs no load: the label and field
/// selectors and the sort key.
pub struct Selectors {
    labels: Option<Vec<Req>>,
    fields: Option<Vec<FieldReq>>,
    sort_by: Option<super::jsonpath::JsonPath>,
}

/// `-o jsonpath=` and `-o custom-columns=` are parsed before the bundle too (and again
/// when printing, where they cannot fail).
fn check_output(output: Option<&GetFormat>) -> Result<(), String> {
    match output {
        Some(GetFormat::JsonPath(t)) => Template::parse(t).map(drop),
        Some(GetFormat::CustomColumns(spec)) => CustomColumns::parse(spec).map(drop),
        _ => Ok(()),
    }
}

impl Selectors {
    /// The selectors and sort key of `query`; `Err` says what does not read.
    pub fn parse(query: &GetQuery) -> Result<Selectors, String> {
        check_output(query.output.as_ref())?;
        Ok(Selectors {
            labels: query.selector.as_deref().map(parse_selector).transpose()?,
            fields: query
                .field_selector
                .as_deref()
                .map(parse_field_selector)
                .transpose()?,
            sort_by: query.sort_by.as_deref().map(parse_sort_by).transpose()?,
        })
    }
}

/// The objects of each kind asked, and what was named and not found. A kind without
/// objects is kept only when it is the only kind asked (to say where its objects are).
pub fn pick(
    snap: &Snapshot,
    request: &Request,
    query: &GetQuery,
    selectors: &Selectors,
) -> Result<(Vec<Table>, Vec<String>), String> {
    let mut kinds: Vec<(Kind, &Vec<String>)> = Vec::new();
    for (typed, names) in &request.targets {
        let Some(kind) = resolve_kind(snap, typed) else {
            if request.from_all {
                continue;
            }
            return Err(unknown_kind(snap, typed));
        };
        if let Some(f) = &selectors.fields {
            check_fields(f, field_kind(&kind), &kind.display())?;
        }
        if !kinds
            .iter()
            .any(|(k, _)| k.group == kind.group && k.kind == kind.kind)
        {
            kinds.push((kind, names));
        }
    }
    let mut tables = Vec::new();
    let mut not_found = Vec::new();
    for (kind, names) in kinds {
        let ids = if names.is_empty() {
            let mut ids = list(
                snap,
                &kind,
                query,
                selectors.labels.as_deref(),
                selectors.fields.as_deref(),
            );
            if let Some(path) = &selectors.sort_by {
                let keys: HashMap<ObjectId, Option<serde_json::Value>> = ids
                    .iter()
                    .map(|&id| (id, sort_key(path, snap.object(id).value())))
                    .collect();
                ids.sort_by(|a, b| compare(&keys[a], &keys[b]));
            }
            ids
        } else {
            let ns = if query.all_namespaces {
                None
            } else {
                query.namespace.as_deref()
            };
            names
                .iter()
                .filter_map(|n| match resolve_object(snap, &kind, n, ns) {
                    Ok(id) => Some(id),
                    Err(e) => {
                        not_found.push(e);
                        None
                    }
                })
                .collect()
        };
        tables.push(Table { kind, ids });
    }
    tables.retain(|t| !t.ids.is_empty() || request.targets.len() == 1);
    Ok((tables, not_found))
}

/// One kind's table, with NAMESPACE first under `-A`, and `kind/` before each name
/// when several kinds are printed; with `redactor`, each cell is masked before the
/// columns are measured, so a masked value keeps its column aligned.
fn kind_text(
    snap: &Snapshot,
    t: &Table,
    query: &GetQuery,
    show_kind: bool,
    redactor: Option<&Redactor>,
) -> String {
    let wide = query.output == Some(GetFormat::Wide);
    let (mut header, mut rows) = kind_table(snap, &t.kind, &t.ids, wide);
    if show_kind {
        let prefix = format!("{}/", t.kind.resource());
        for row in rows.iter_mut() {
            if let Some(name) = row.first_mut() {
                name.insert_str(0, &prefix);
            }
        }
    }
    if query.all_namespaces && !cluster_scoped(snap, &t.kind) {
        header.insert(0, "NAMESPACE".into());
        for (row, &id) in rows.iter_mut().zip(&t.ids) {
            row.insert(0, snap.object(id).namespace.clone().unwrap_or_default());
        }
    }
    if let Some(r) = redactor {
        for cell in rows.iter_mut().flatten() {
            *cell = r.apply(cell);
        }
    }
    table(&header, &rows)
}

/// The objects of a kind in the namespace asked (`default` without `-n`/`-A`, as
/// kubectl), matching the selectors; events oldest first.
fn list(
    snap: &Snapshot,
    kind: &Kind,
    query: &GetQuery,
    selector: Option<&[Req]>,
    fields: Option<&[FieldReq]>,
) -> Vec<ObjectId> {
    let ns = list_namespace(snap, kind, query);
    let mut ids: Vec<ObjectId> = kind
        .ids(snap)
        .iter()
        .copied()
        .filter(|&id| ns.is_none() || snap.object(id).namespace.as_deref() == ns)
        .filter(|&id| selector.is_none_or(|s| matches_selector(s, snap.object(id).value())))
        .filter(|&id| {
            fields.is_none_or(|f| matches_fields(f, field_kind(kind), snap.object(id).value()))
        })
        .collect();
    if kind.is_known() && kind.kind == "Event" {
        ids.sort_by_key(|&id| (event_last(snap, id), id));
    }
    ids
}

/// The namespace a listing is limited to: none for cluster-scoped kinds and `-A`.
fn list_namespace<'a>(snap: &Snapshot, kind: &Kind, query: &'a GetQuery) -> Option<&'a str> {
    if cluster_scoped(snap, kind) || query.all_namespaces {
        None
    } else {
        Some(query.namespace.as_deref().unwrap_or("default"))
    }
}

/// kubectl's "No resources found", saying where a lone kind's objects are instead:
/// `elsewhere` of them are in other namespaces or do not match.
pub fn none_found(snap: &Snapshot, tables: &[Table], query: &GetQuery, elsewhere: usize) -> String {
    let ns = match tables {
        [t] => list_namespace(snap, &t.kind, query),
        _ => (!query.all_namespaces).then(|| query.namespace.as_deref().unwrap_or("default")),
    };
    match ns {
        Some(ns) if elsewhere > 0 => format!(
            "No resources found in {ns} namespace ({elsewhere} {} object(s) in other namespaces or not matching: use -A or -n NS).",
            tables[0].kind.display()
        ),
        Some(ns) => format!("No resources found in {ns} namespace."),
        None => "No resources found.".to_string(),
    }
}

/// kubectl's words for a kind it does not know, with the likeliest kind meant.
pub(super) fn unknown_kind(snap: &Snapshot, typed: &str) -> String {
    let names = kind_names(snap);
    let lookup = typed.split('.').next().unwrap_or(typed);
    let hint = did_you_mean(lookup, names.iter().map(|(n, _)| n.as_str()))
        .and_then(|m| names.iter().find(|(n, _)| n == m))
        .map(|(_, plural)| format!("; did you mean {plural}?"))
        .unwrap_or_default();
    format!(
        "the bundle doesn't have a resource type {typed:?}{hint} (kubectl names like pods, po, deploy, svc, cq are accepted)"
    )
}

/// The kind whose API fields `--field-selector` offers: a core kind kdiag knows, else
/// only the metadata fields every kind has.
fn field_kind(kind: &Kind) -> &str {
    if kind.is_known() { &kind.kind } else { "" }
}

/// The header and rows of a kind's table: kdiag's own columns for the kinds it knows,
/// a custom resource's printer columns (its CRD's, or kdiag's copy of an OpenShift
/// platform kind's), else NAME and AGE.
pub(super) fn kind_table(
    snap: &Snapshot,
    kind: &Kind,
    ids: &[ObjectId],
    wide: bool,
) -> (Vec<String>, Vec<Vec<String>>) {
    if !kind.is_known() {
        let api_version = &snap.object(ids[0]).api_version;
        if let Some(cols) = printer_columns(snap, &kind.group, &kind.kind, api_version) {
            return custom_table(snap, cols, ids, wide);
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

/// Cells padded to their column's width plus three spaces, and to six at least, as
/// kubectl's tabwriter (`minwidth` 6, `padding` 3).
fn table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count().max(3)).collect();
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
    crate::kube::event::Event::from_value(snap.object(id).value()).and_then(|e| e.last)
}

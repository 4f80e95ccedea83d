//! What an API server (`kdiag serve`) answers with the explorer's own readers: a kind's
//! table as kubectl's printers make it (every column, with the ones only `-o wide` shows
//! marked), label and field selectors as `get -l` and `--field-selector` read them, and an
//! object as `get -o json` prints it (Secrets masked). The server and `get` so print the
//! same rows.

use super::columns::{columns, columns_of};
use super::field_selector::{FieldReq, check_fields, matches_fields, parse_field_selector};
use super::jsonpath::JsonPath;
use super::lookup::Kind;
use super::printer_columns::{Column, custom_header, custom_row, parsed_columns, printer_columns};
use super::selector::{Req, matches_selector, parse_selector};
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;

/// A kind's table: each column's header and whether only `-o wide` shows it, and a row
/// of cells per object.
pub struct ServedTable {
    pub columns: Vec<(String, bool)>,
    pub rows: Vec<Vec<String>>,
}

/// The table of `ids`, objects of `kind` in `group`, with `get`'s columns (`get -o wide`'s
/// extra columns marked).
pub fn table(snap: &Snapshot, group: &str, kind: &str, ids: &[ObjectId]) -> ServedTable {
    let Some(&first) = ids.first() else {
        return ServedTable {
            columns: vec![("NAME".into(), false)],
            rows: Vec::new(),
        };
    };
    let printer = Printer::new(snap, group, kind, &snap.object(first).api_version);
    let rows = ids
        .iter()
        .map(|&id| {
            let o = snap.object(id);
            printer.row(&o.name, &o.value_unkept())
        })
        .collect();
    ServedTable {
        columns: printer.columns().to_vec(),
        rows,
    }
}

/// How the objects of one kind are printed, read once per answer: the columns (`-o
/// wide`'s marked) as [`table`] gives them, and each object's cells (the wide row) from a
/// tree the caller holds, so a server printing every object of a large bundle keeps
/// none of their trees.
pub struct Printer<'a> {
    snap: &'a Snapshot,
    columns: Vec<(String, bool)>,
    how: How,
}

enum How {
    /// A kind with kdiag's printer (`""`: NAME and AGE).
    Known(String),
    /// A CRD's (or an OpenShift kind's) printer columns, each path read.
    Custom(Vec<(Column, JsonPath)>),
}

impl<'a> Printer<'a> {
    /// The printer of `kind` in `group`, whose objects are read at `api_version` (a
    /// CRD's columns are the version's).
    pub fn new(snap: &'a Snapshot, group: &str, kind: &str, api_version: &str) -> Printer<'a> {
        let k = Kind {
            group: group.to_string(),
            kind: kind.to_string(),
        };
        let custom = if k.is_known() {
            None
        } else {
            printer_columns(snap, group, kind, api_version)
        };
        let (narrow, wide, how) = match custom {
            Some(cols) => {
                let narrow = custom_header(&parsed_columns(cols.clone(), false));
                let parsed = parsed_columns(cols, true);
                (narrow, custom_header(&parsed), How::Custom(parsed))
            }
            None => {
                // Another group's kind of a known name (a `longhorn.io` Node) has no
                // columns of its own.
                let of = if k.is_known() { kind } else { "" };
                let names = |wide: bool| -> Vec<String> {
                    columns_of(of)
                        .iter()
                        .filter(|c| wide || !c.wide)
                        .map(|c| c.name.to_string())
                        .collect()
                };
                (names(false), names(true), How::Known(of.to_string()))
            }
        };
        Printer {
            snap,
            columns: mark_wide(&narrow, wide),
            how,
        }
    }

    /// Each column's header and whether only `-o wide` shows it.
    pub fn columns(&self) -> &[(String, bool)] {
        &self.columns
    }

    /// The cells of the object named `name` whose tree is `v`: one per column.
    pub fn row(&self, name: &str, v: &Value) -> Vec<String> {
        match &self.how {
            How::Known(kind) => columns(self.snap, kind, name, v, true).1,
            How::Custom(parsed) => custom_row(self.snap, parsed, name, v),
        }
    }
}

/// The row of an object that is not in the snapshot (an event the server adds), with the
/// columns of a kind kdiag knows.
pub fn value_row(snap: &Snapshot, kind: &str, name: &str, v: &Value) -> ServedTable {
    let (narrow, _) = columns(snap, kind, name, v, false);
    let (wide, row) = columns(snap, kind, name, v, true);
    let narrow: Vec<String> = narrow.into_iter().map(String::from).collect();
    let wide: Vec<String> = wide.into_iter().map(String::from).collect();
    ServedTable {
        columns: mark_wide(&narrow, wide),
        rows: vec![row],
    }
}

/// `wide`'s headers, each marked when it is not one of `narrow` (a subsequence of it).
fn mark_wide(narrow: &[String], wide: Vec<String>) -> Vec<(String, bool)> {
    let mut at = 0;
    wide.into_iter()
        .map(|h| {
            let shown = narrow.get(at) == Some(&h);
            if shown {
                at += 1;
            }
            (h, !shown)
        })
        .collect()
}

/// A list's label and field selectors, read once per request.
pub struct Filter {
    labels: Option<Vec<Req>>,
    fields: Option<Vec<FieldReq>>,
    /// The kind whose fields the field selector reads (`""`: only metadata's).
    field_kind: String,
}

impl Filter {
    /// The selectors of a request for objects of `kind` in `group`; `Err` says what does
    /// not read, as the API server's 400 says it.
    pub fn parse(
        group: &str,
        kind: &str,
        labels: Option<&str>,
        fields: Option<&str>,
    ) -> Result<Filter, String> {
        let k = Kind {
            group: group.to_string(),
            kind: kind.to_string(),
        };
        let field_kind = if k.is_known() {
            kind.to_string()
        } else {
            String::new()
        };
        let labels = labels
            .filter(|s| !s.is_empty())
            .map(parse_selector)
            .transpose()?;
        let fields = fields
            .filter(|s| !s.is_empty())
            .map(parse_field_selector)
            .transpose()?;
        if let Some(f) = &fields {
            check_fields(f, &field_kind, &k.display())?;
        }
        Ok(Filter {
            labels,
            fields,
            field_kind,
        })
    }

    /// Whether the object matches both selectors.
    pub fn matches(&self, v: &Value) -> bool {
        self.labels
            .as_deref()
            .is_none_or(|s| matches_selector(s, v))
            && self
                .fields
                .as_deref()
                .is_none_or(|f| matches_fields(f, &self.field_kind, v))
    }

    /// Whether no selector was given.
    pub fn is_empty(&self) -> bool {
        self.labels.is_none() && self.fields.is_none()
    }
}

/// The object as `get -o json` prints it (Secrets as ingest masked them).
pub fn object_json(snap: &Snapshot, id: ObjectId) -> Value {
    super::yaml::object_json(snap, id)
}

/// [`object_json`] from the object's tree `v`, already built (and not kept).
pub fn object_json_of(snap: &Snapshot, id: ObjectId, v: Value) -> Value {
    super::yaml::object_json_of(snap, id, v)
}

/// The object as `get -o yaml` prints it: its own text from the bundle, or emitted
/// (Secrets from the scrubbed object: their values never enter the store).
pub fn object_yaml(snap: &Snapshot, id: ObjectId) -> String {
    super::yaml::object_yaml(snap, id)
}

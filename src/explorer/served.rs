//! What an API server (`kdiag serve`) answers with the explorer's own readers: a kind's
//! table as kubectl's printers make it (every column, with the ones only `-o wide` shows
//! marked), label and field selectors as `get -l` and `--field-selector` read them, and an
//! object as `get -o json` prints it (Secrets masked). The server and `get` so print the
//! same rows.

use super::columns::columns;
use super::field_selector::{FieldReq, check_fields, matches_fields, parse_field_selector};
use super::get::kind_table;
use super::lookup::Kind;
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
    let k = Kind {
        group: group.to_string(),
        kind: kind.to_string(),
    };
    if ids.is_empty() {
        return ServedTable {
            columns: vec![("NAME".into(), false)],
            rows: Vec::new(),
        };
    }
    let (narrow, _) = kind_table(snap, &k, &ids[..1], false);
    let (wide, rows) = kind_table(snap, &k, ids, true);
    ServedTable {
        columns: mark_wide(&narrow, wide),
        rows,
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

/// The object as `get -o yaml` prints it: its own text from the bundle, or emitted
/// (Secrets from the scrubbed object: their values never enter the store).
pub fn object_yaml(snap: &Snapshot, id: ObjectId) -> String {
    super::yaml::object_yaml(snap, id)
}

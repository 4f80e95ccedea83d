//! Custom resources as `kubectl get` prints them: the API server's table for a CRD
//! (apiextensions-apiserver `tableconvertor`) read by kubectl's table printer.
//!
//! - The columns are NAME, then the CRD version's `additionalPrinterColumns` in order
//!   (`priority` other than 0 only under `-o wide`), headers in upper case. A version
//!   without columns prints `Age` (`.metadata.creationTimestamp`); no AGE is added to
//!   columns a CRD declares (ClusterOperators have none, MachineConfigPools declare one).
//! - The version is the one the objects were read at (their apiVersion), else the
//!   storage version, else the first served one.
//! - A `jsonPath` that does not parse ends the columns there: the API server builds its
//!   table up to that column and serves it with the ones before.
//! - A cell is the first value the path selects, typed by the column: `string` prints it
//!   as kubectl's JSONPath does (lists and objects as JSON, `null` as `<no value>`);
//!   `integer` truncates, `number` prints as Go does after the JSON round trip,
//!   `boolean` is `true`/`false`, `date` is an age from the snapshot's time
//!   (`<invalid>` when not a timestamp, `<unknown>` when empty). No value, an
//!   evaluation error, or a value of another type is an empty cell. A cell stops at its
//!   first line break, followed by `...`.

use super::age::{human_duration, now_of};
use super::jsonpath::{JsonPath, Num, number};
use super::openshift_columns::OPENSHIFT_KINDS;
use crate::kube::time::parse_timestamp;
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;

/// One of a CRD version's `additionalPrinterColumns`.
#[derive(Clone)]
pub(super) struct Column {
    pub name: String,
    /// `type`: string, integer, number, boolean or date.
    pub kind: String,
    pub json_path: String,
    pub priority: i64,
}

/// What a CRD's `spec.names` and `spec.scope` say of its kind.
pub(super) struct CrdNames<'a> {
    pub group: &'a str,
    pub kind: &'a str,
    pub plural: &'a str,
    pub singular: &'a str,
    pub short: Vec<&'a str>,
    pub cluster_scoped: bool,
}

impl CrdNames<'_> {
    /// Whether `typed` (lower case, without group) names this kind, as kubectl resolves
    /// a resource: plural, singular, a short name, or the Kind.
    pub fn matches(&self, typed: &str) -> bool {
        self.plural == typed
            || self.singular == typed
            || self.short.contains(&typed)
            || self.kind.eq_ignore_ascii_case(typed)
    }
}

const CRD_GROUP: &str = "apiextensions.k8s.io";
const CRD_KIND: &str = "CustomResourceDefinition";

fn names_of(v: &Value) -> Option<CrdNames<'_>> {
    let spec = v.get("spec")?;
    let names = spec.get("names")?;
    let kind = names.get("kind")?.as_str()?;
    let s = |k: &str| names.get(k).and_then(Value::as_str).unwrap_or("");
    Some(CrdNames {
        group: spec.get("group").and_then(Value::as_str).unwrap_or(""),
        kind,
        plural: s("plural"),
        singular: s("singular"),
        short: names
            .get("shortNames")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default(),
        cluster_scoped: spec.get("scope").and_then(Value::as_str) == Some("Cluster"),
    })
}

/// The CRDs of the bundle, in the store's order.
fn bundle_crds(snap: &Snapshot) -> impl Iterator<Item = (ObjectId, CrdNames<'_>)> {
    snap.ids_of_group(CRD_GROUP, CRD_KIND)
        .iter()
        .filter_map(|&id| Some((id, names_of(snap.object(id).value())?)))
}

/// The kinds kdiag can name by a CRD's names: every CRD in the bundle, then the
/// OpenShift platform kinds the bundle holds objects of but no CRD for.
pub(super) fn custom_kinds(snap: &Snapshot) -> Vec<CrdNames<'_>> {
    let mut kinds: Vec<CrdNames> = bundle_crds(snap).map(|(_, n)| n).collect();
    for b in OPENSHIFT_KINDS {
        let n = b.names();
        let shadowed = kinds.iter().any(|k| k.group == n.group && k.kind == n.kind);
        if !shadowed && !snap.ids_of_group(n.group, n.kind).is_empty() {
            kinds.push(n);
        }
    }
    kinds
}

/// The printer columns of `group`/`kind` read at `api_version`: from the bundle's CRD,
/// else kdiag's copy of an OpenShift platform kind's, else none.
pub(super) fn printer_columns(
    snap: &Snapshot,
    group: &str,
    kind: &str,
    api_version: &str,
) -> Option<Vec<Column>> {
    let crd = bundle_crds(snap)
        .find(|(_, n)| n.group == group && n.kind == kind)
        .map(|(id, _)| snap.object(id).value());
    if let Some(crd) = crd {
        return Some(crd_columns(crd, api_version));
    }
    OPENSHIFT_KINDS
        .iter()
        .find(|b| {
            let n = b.names();
            n.group == group && n.kind == kind
        })
        .map(|b| b.columns())
}

/// The columns of the CRD version objects at `api_version` are served from (v1, or
/// v1beta1's `JSONPath` and spec-wide columns).
fn crd_columns(crd: &Value, api_version: &str) -> Vec<Column> {
    let spec = crd.get("spec");
    let versions: &[Value] = spec
        .and_then(|s| s.get("versions"))
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let want = api_version.rsplit('/').next().unwrap_or("");
    let flag = |v: &Value, k: &str| v.get(k).and_then(Value::as_bool);
    let version = versions
        .iter()
        .find(|v| {
            v.get("name").and_then(Value::as_str) == Some(want) && flag(v, "served") != Some(false)
        })
        .or_else(|| versions.iter().find(|v| flag(v, "storage") == Some(true)))
        .or_else(|| versions.iter().find(|v| flag(v, "served") == Some(true)))
        .or_else(|| versions.first());
    let listed = version
        .and_then(|v| v.get("additionalPrinterColumns"))
        .or_else(|| spec.and_then(|s| s.get("additionalPrinterColumns")))
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty());
    let Some(listed) = listed else {
        return vec![Column {
            name: "Age".into(),
            kind: "date".into(),
            json_path: ".metadata.creationTimestamp".into(),
            priority: 0,
        }];
    };
    let s = |c: &Value, k: &str| c.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    listed
        .iter()
        .map(|c| Column {
            name: s(c, "name"),
            kind: s(c, "type"),
            json_path: match s(c, "jsonPath") {
                p if p.is_empty() => s(c, "JSONPath"),
                p => p,
            },
            priority: c.get("priority").and_then(Value::as_i64).unwrap_or(0),
        })
        .collect()
}

/// The header and rows of `ids` under `columns` (NAME first).
pub(super) fn custom_table(
    snap: &Snapshot,
    columns: Vec<Column>,
    ids: &[ObjectId],
    wide: bool,
) -> (Vec<String>, Vec<Vec<String>>) {
    let parsed = parsed_columns(columns, wide);
    let rows = ids
        .iter()
        .map(|&id| {
            let o = snap.object(id);
            custom_row(snap, &parsed, &o.name, o.value())
        })
        .collect();
    (custom_header(&parsed), rows)
}

/// The columns whose path parses, up to the first that does not (the API server's table
/// stops there), `-o wide`'s too when `wide`.
pub(super) fn parsed_columns(columns: Vec<Column>, wide: bool) -> Vec<(Column, JsonPath)> {
    let mut parsed = Vec::new();
    for c in columns {
        match JsonPath::parse(&c.json_path) {
            Ok(p) => parsed.push((c, p)),
            Err(_) => break,
        }
    }
    parsed.retain(|(c, _)| wide || c.priority == 0);
    parsed
}

/// NAME, then the columns' names in upper case.
pub(super) fn custom_header(parsed: &[(Column, JsonPath)]) -> Vec<String> {
    let mut header = vec!["NAME".to_string()];
    header.extend(parsed.iter().map(|(c, _)| c.name.to_uppercase()));
    header
}

/// One object's row: its name, then a cell per column read from `v`.
pub(super) fn custom_row(
    snap: &Snapshot,
    parsed: &[(Column, JsonPath)],
    name: &str,
    v: &Value,
) -> Vec<String> {
    let mut row = vec![name.to_string()];
    row.extend(
        parsed
            .iter()
            .map(|(c, p)| first_line(cell(snap, &c.kind, p, v))),
    );
    row
}

fn cell(snap: &Snapshot, kind: &str, path: &JsonPath, v: &Value) -> String {
    let Some(first) = path.find(v).ok().and_then(|f| f.into_iter().next()) else {
        return String::new();
    };
    let first = first.as_ref();
    match (kind, first) {
        ("string", v) => as_text(v),
        ("integer", Value::Number(n)) => match number(n) {
            Num::Int(i) => i.to_string(),
            Num::Uint(u) => u.to_string(),
            Num::Float(f) => (f.trunc() as i64).to_string(),
        },
        ("number", Value::Number(n)) => match number(n) {
            Num::Int(i) => i.to_string(),
            Num::Uint(u) => u.to_string(),
            Num::Float(f) => go_float(f),
        },
        ("boolean", Value::Bool(b)) => b.to_string(),
        ("date", Value::String(s)) if s.is_empty() || s == "null" => "<unknown>".into(),
        ("date", Value::String(s)) => {
            match (
                rfc3339(s).then(|| parse_timestamp(s)).flatten(),
                now_of(snap, v),
            ) {
                (None, _) => "<invalid>".into(),
                (Some(t), Some(now)) => human_duration(now - t),
                (Some(_), None) => "<unknown>".into(),
            }
        }
        _ => String::new(),
    }
}

/// Whether `s` has the shape Go's `time.RFC3339` layout parses: a `T` between date and
/// time, and a `Z` or `±hh:mm` zone (`parse_timestamp` also reads other forms).
fn rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let zone = s.ends_with('Z')
        || (b.len() >= 6 && matches!(b[b.len() - 6], b'+' | b'-') && b[b.len() - 3] == b':');
    b.get(10) == Some(&b'T') && zone
}

/// A value as kubectl's JSONPath prints one result: lists and objects as compact JSON
/// (keys sorted, `<`, `>`, `&` escaped as Go's encoder does), `null` as `<no value>`.
pub(super) fn as_text(v: &Value) -> String {
    match v {
        Value::Null => "<no value>".into(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match number(n) {
            Num::Int(i) => i.to_string(),
            Num::Uint(u) => u.to_string(),
            Num::Float(f) => go_float(f),
        },
        Value::Array(_) | Value::Object(_) => serde_json::to_string(v)
            .unwrap_or_default()
            .replace('<', "\\u003c")
            .replace('>', "\\u003e")
            .replace('&', "\\u0026")
            .replace('\u{2028}', "\\u2028")
            .replace('\u{2029}', "\\u2029"),
    }
}

/// Go's `fmt.Sprint` of a float64 (`%g`, shortest): an exponent below 1e-4 or from 1e6.
pub(super) fn go_float(f: f64) -> String {
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let e = format!("{f:e}");
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..6).contains(&exp) {
        return f.to_string();
    }
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

/// kubectl's printer cuts a cell at its first line break and marks it with `...`.
fn first_line(s: String) -> String {
    match s.find(['\n', '\r', '\u{c}']) {
        Some(i) => format!("{}...", &s[..i]),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_go_does() {
        for (f, want) in [
            (1.5, "1.5"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (123456.5, "123456.5"),
            (1234567.5, "1.2345675e+06"),
            (-2.25, "-2.25"),
            (1.8446744073709552e19, "1.8446744073709552e+19"),
        ] {
            assert_eq!(go_float(f), want, "{f}");
        }
    }

    #[test]
    fn text_of_values() {
        let v: Value = serde_json::json!({"b": [1, "x<y"], "a": null});
        assert_eq!(as_text(&v), r#"{"a":null,"b":[1,"x\u003cy"]}"#);
        assert_eq!(as_text(&Value::Null), "<no value>");
        assert_eq!(as_text(&serde_json::json!(3.0)), "3");
        assert_eq!(first_line("one\ntwo".into()), "one...");
        assert!(rfc3339("2026-11-20T09:14:02Z") && rfc3339("2026-11-20T09:14:02.5+02:00"));
        assert!(!rfc3339("2026-11-20 09:14:02 +0000 UTC") && !rfc3339("2026-11-20T09:14:02"));
    }
}

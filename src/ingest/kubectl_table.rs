//! kubectl's table text (`kubectl get … -A -o wide`) → objects holding what the table
//! shows, and nothing it does not.
//!
//! kubectl pads every column to its widest cell (Go's tabwriter, counting characters),
//! so each column's values start where its header does: cells are cut at the header's
//! column starts, which keeps values with spaces (`SOURCE`, `MESSAGE`) whole wherever the
//! column is. The objects are written as one JSON List whose item for the table's row
//! `n` is on line `n`, so a finding cites the row's own line of the file.
//!
//! Every object carries the annotation [`SOURCE_ANNOTATION`]` = `[`SOURCE_TABLE`] and one
//! annotation per column (`kdiag.io/table-status`, `kdiag.io/table-ready`, …): rules see
//! that the object came from a table, whose absent fields are unknown, not empty.
//! Relative ages (`14d`, `4m53s`) become times against the capture time, when one is
//! known; a table without one gives objects without times.

use crate::kube::kinds;
use crate::kube::table::{CELL_PREFIX, ROW_ANNOTATION, SOURCE_ANNOTATION, SOURCE_TABLE, cell_key};
use crate::kube::time::format_rfc3339;
use serde_json::{Map, Value, json};

/// The kinds read from a table, by the resource word the collector names the file by.
pub const TABLE_KINDS: &[(&str, &str)] = &[
    ("events", "Event"),
    ("namespaces", "Namespace"),
    ("nodes", "Node"),
    ("pods", "Pod"),
];

/// One table: its columns (header, first character) and its rows (line number, cells).
#[derive(Debug, PartialEq)]
pub struct Table {
    pub columns: Vec<(String, usize)>,
    pub rows: Vec<(usize, Vec<String>)>,
}

/// One row's cells, by header.
struct Row<'a> {
    table: &'a Table,
    cells: &'a [String],
}

impl<'a> Row<'a> {
    fn get(&self, header: &str) -> Option<&'a str> {
        let i = self.table.columns.iter().position(|(h, _)| h == header)?;
        let cells: &'a [String] = self.cells;
        cells.get(i).map(String::as_str).filter(|v| !v.is_empty())
    }
}

/// Header words kubectl writes with a space inside (`LAST SEEN`, `NOMINATED NODE`).
const TWO_WORD_HEADERS: &[&str] = &[
    "LAST SEEN",
    "FIRST SEEN",
    "NOMINATED NODE",
    "READINESS GATES",
    "NODE SELECTOR",
];

/// Reads a table: `None` when the first line is no kubectl header (an error message,
/// `No resources found`). A row whose cells do not line up under the header is an error
/// naming its line.
pub fn parse(text: &str) -> Result<Option<Table>, String> {
    let mut lines = text.lines();
    let Some(header) = lines.next() else {
        return Ok(None);
    };
    let Some(columns) = header_columns(header) else {
        return Ok(None);
    };
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        let number = i + 2;
        if line.trim().is_empty() {
            continue;
        }
        let chars: Vec<char> = line.chars().collect();
        let mut cells = Vec::with_capacity(columns.len());
        for (c, (name, start)) in columns.iter().enumerate() {
            let end = columns.get(c + 1).map_or(chars.len(), |(_, s)| *s);
            // A cell starts after the padding of the one before it.
            if *start > 0 && chars.get(start - 1).is_some_and(|ch| *ch != ' ') {
                return Err(format!(
                    "line {number}: the cell of column {name} does not start where its header does; not kubectl's padded table text"
                ));
            }
            let cell: String = chars
                .get((*start).min(chars.len())..end.min(chars.len()))
                .map(|s| s.iter().collect())
                .unwrap_or_default();
            cells.push(cell.trim().to_string());
        }
        rows.push((number, cells));
    }
    Ok(Some(Table { columns, rows }))
}

/// The columns of a header line: upper-case words (and the two-word headers) separated by
/// at least two spaces, or one where a column is as wide as its header; `None` when the
/// line is no header.
fn header_columns(line: &str) -> Option<Vec<(String, usize)>> {
    let chars: Vec<char> = line.chars().collect();
    let mut words: Vec<(String, usize)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == ' ' {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i] != ' ' {
            i += 1;
        }
        words.push((chars[start..i].iter().collect(), start));
    }
    let valid = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || "-()_/".contains(c))
    };
    if words.is_empty() || !words.iter().all(|(w, _)| valid(w)) {
        return None;
    }
    if !matches!(words[0].0.as_str(), "NAME" | "NAMESPACE") {
        return None;
    }
    let mut columns: Vec<(String, usize)> = Vec::new();
    for (word, start) in words {
        if let Some((last, _)) = columns.last_mut() {
            let joined = format!("{last} {word}");
            if TWO_WORD_HEADERS.contains(&joined.as_str()) {
                *last = joined;
                continue;
            }
        }
        columns.push((word, start));
    }
    Some(columns)
}

/// kubectl's short duration (`45s`, `4m53s`, `3h12m`, `14d`, `4y324d`) in seconds;
/// `None` for `<unknown>`, `<invalid>` or anything else.
pub fn parse_age(s: &str) -> Option<i64> {
    let mut total = 0i64;
    let mut number = String::new();
    let mut any = false;
    for c in s.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86400,
            'y' => 365 * 86400,
            _ => return None,
        };
        let n: i64 = number.parse().ok()?;
        total = total.checked_add(n.checked_mul(unit)?)?;
        number.clear();
        any = true;
    }
    (any && number.is_empty()).then_some(total)
}

/// The kind a table file named by `word` holds, if kdiag reads it from a table.
pub fn kind_of(word: &str) -> Option<&'static str> {
    TABLE_KINDS
        .iter()
        .find(|(w, _)| *w == word)
        .map(|(_, k)| *k)
}

/// The table `text` of `kind` as line-aligned JSON (see the module's comment), or `None`
/// when it holds no table.
pub fn to_json(kind: &str, text: &str, now: Option<i64>) -> Result<Option<String>, String> {
    let Some(table) = parse(text)? else {
        return Ok(None);
    };
    let lines = text.lines().count().max(1);
    let mut out: Vec<String> = vec![String::new(); lines];
    out[0] = r#"{"apiVersion":"v1","kind":"List","items":["#.to_string();
    let last_row = table.rows.last().map(|(n, _)| *n);
    let text_lines: Vec<&str> = text.lines().collect();
    for (number, cells) in &table.rows {
        let line = text_lines.get(number - 1).copied().unwrap_or("");
        let object = object_line(object(kind, &table, line, cells, now));
        let comma = if Some(*number) == last_row { "" } else { "," };
        out[number - 1] = format!("{object}{comma}");
    }
    out.push("]}".to_string());
    Ok(Some(out.join("\n") + "\n"))
}

/// The time `age` before `now`.
fn ago(now: Option<i64>, age: Option<&str>) -> Option<String> {
    Some(format_rfc3339(now? - parse_age(age?)?))
}

/// A row as the annotation keeps it: runs of padding shortened to two spaces.
fn row_text(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut spaces = 0;
    for c in line.trim().chars() {
        if c == ' ' {
            spaces += 1;
            if spaces > 2 {
                continue;
            }
        } else {
            spaces = 0;
        }
        out.push(c);
    }
    out
}

/// One object as one line of JSON, `metadata` first (its annotations start with the
/// row's text), so that a finding quoting the line shows the row.
fn object_line(o: Value) -> String {
    let Value::Object(mut map) = o else {
        return o.to_string();
    };
    let metadata = map.remove("metadata").unwrap_or(Value::Null);
    let rest = Value::Object(map).to_string();
    match rest.strip_prefix('{').filter(|r| *r != "}") {
        Some(r) => format!("{{\"metadata\":{metadata},{r}"),
        None => format!("{{\"metadata\":{metadata}}}"),
    }
}

fn object(kind: &str, table: &Table, line: &str, cells: &[String], now: Option<i64>) -> Value {
    let cell = &Row { table, cells };
    let mut annotations = Map::new();
    annotations.insert(SOURCE_ANNOTATION.into(), SOURCE_TABLE.into());
    annotations.insert(ROW_ANNOTATION.into(), row_text(line).into());
    for ((header, _), value) in table.columns.iter().zip(cells) {
        annotations.insert(cell_key(header), value.clone().into());
    }
    let mut metadata = Map::new();
    if let Some(name) = cell.get("NAME") {
        metadata.insert("name".into(), name.into());
    }
    if let Some(ns) = cell.get("NAMESPACE") {
        metadata.insert("namespace".into(), ns.into());
    }
    let mut o = Map::new();
    o.insert("apiVersion".into(), "v1".into());
    o.insert("kind".into(), kind.into());
    match kind {
        "Pod" => pod(cell, now, &mut metadata, &mut annotations, &mut o),
        "Node" => node(cell, &mut metadata, &mut o),
        "Event" => event(cell, now, &mut metadata, &mut o),
        "Namespace" => {
            if let Some(phase) = cell.get("STATUS") {
                o.insert("status".into(), json!({ "phase": phase }));
            }
        }
        _ => {}
    }
    if kind != "Event"
        && let Some(t) = ago(now, cell.get("AGE"))
    {
        metadata.insert("creationTimestamp".into(), t.into());
    }
    metadata.insert("annotations".into(), Value::Object(annotations));
    o.insert("metadata".into(), Value::Object(metadata));
    Value::Object(o)
}

/// A pod: its node, IP, the phase where the STATUS column names one for certain (the
/// column shows a container's reason in preference to the phase), the Ready condition
/// the READY column implies; STATUS, READY and RESTARTS are kept as cell annotations,
/// with the time of the last restart (`8 (4m53s ago)`) when the capture time is known.
fn pod(
    cell: &Row,
    now: Option<i64>,
    metadata: &mut Map<String, Value>,
    annotations: &mut Map<String, Value>,
    o: &mut Map<String, Value>,
) {
    let _ = metadata;
    let mut spec = Map::new();
    if let Some(node) = cell.get("NODE").filter(|n| *n != "<none>") {
        spec.insert("nodeName".into(), node.into());
    }
    let mut status = Map::new();
    let table_status = cell.get("STATUS").unwrap_or("");
    let phase = match table_status {
        "Running" => Some("Running"),
        "Pending" => Some("Pending"),
        "Succeeded" | "Completed" => Some("Succeeded"),
        "Failed" => Some("Failed"),
        "Unknown" => Some("Unknown"),
        _ => None,
    };
    if let Some(p) = phase {
        status.insert("phase".into(), p.into());
    }
    if let Some(ip) = cell.get("IP").filter(|i| *i != "<none>") {
        status.insert("podIP".into(), ip.into());
    }
    // READY n/m: the pod is Ready when every container is (and its readiness gates,
    // when the table shows them, all pass); not Ready when one is not.
    let ready = cell.get("READY").and_then(|r| {
        let (n, m) = r.split_once('/')?;
        Some((n.parse::<u32>().ok()?, m.parse::<u32>().ok()?))
    });
    let gates_pass = match cell.get("READINESS GATES") {
        None | Some("<none>") => true,
        Some(g) => g.split_once('/').is_some_and(|(a, b)| a == b),
    };
    let condition = match ready {
        Some((n, m)) if m > 0 && n == m && gates_pass && phase == Some("Running") => Some("True"),
        Some((n, m)) if n < m => Some("False"),
        _ => None,
    };
    if let Some(s) = condition {
        status.insert(
            "conditions".into(),
            json!([{ "type": "Ready", "status": s }]),
        );
    }
    if let Some(restarts) = cell.get("RESTARTS")
        && let Some((_, ago_text)) = restarts.split_once(" (")
        && let Some(t) = ago(now, ago_text.strip_suffix(" ago)"))
    {
        annotations.insert(format!("{CELL_PREFIX}last-restart"), t.into());
    }
    o.insert("spec".into(), Value::Object(spec));
    o.insert("status".into(), Value::Object(status));
}

/// A node: roles as labels, addresses, versions, `SchedulingDisabled` as
/// `spec.unschedulable`, and the Ready condition when STATUS says `Ready` (`NotReady` is
/// a Ready condition False or Unknown: the table does not say which, so none is written).
fn node(cell: &Row, metadata: &mut Map<String, Value>, o: &mut Map<String, Value>) {
    let mut labels = Map::new();
    for role in cell
        .get("ROLES")
        .filter(|r| *r != "<none>")
        .into_iter()
        .flat_map(|r| r.split(','))
    {
        labels.insert(format!("node-role.kubernetes.io/{role}"), "".into());
    }
    if !labels.is_empty() {
        metadata.insert("labels".into(), Value::Object(labels));
    }
    let states: Vec<&str> = cell.get("STATUS").unwrap_or("").split(',').collect();
    let mut spec = Map::new();
    if states.contains(&"SchedulingDisabled") {
        spec.insert("unschedulable".into(), true.into());
    }
    let mut status = Map::new();
    if states.contains(&"Ready") {
        status.insert(
            "conditions".into(),
            json!([{ "type": "Ready", "status": "True" }]),
        );
    }
    let mut addresses = Vec::new();
    for (header, type_) in [("INTERNAL-IP", "InternalIP"), ("EXTERNAL-IP", "ExternalIP")] {
        if let Some(a) = cell.get(header).filter(|a| *a != "<none>") {
            addresses.push(json!({ "type": type_, "address": a }));
        }
    }
    if !addresses.is_empty() {
        status.insert("addresses".into(), addresses.into());
    }
    let mut info = Map::new();
    for (header, field) in [
        ("VERSION", "kubeletVersion"),
        ("OS-IMAGE", "osImage"),
        ("KERNEL-VERSION", "kernelVersion"),
        ("CONTAINER-RUNTIME", "containerRuntimeVersion"),
    ] {
        if let Some(v) = cell.get(header) {
            info.insert(field.into(), v.into());
        }
    }
    if !info.is_empty() {
        status.insert("nodeInfo".into(), Value::Object(info));
    }
    o.insert("spec".into(), Value::Object(spec));
    o.insert("status".into(), Value::Object(status));
}

/// An event: its object (`pod/x` → kind Pod; SUBOBJECT is the field path), source
/// (`kubelet, node-1`), count and times (LAST SEEN, FIRST SEEN before the capture).
fn event(
    cell: &Row,
    now: Option<i64>,
    metadata: &mut Map<String, Value>,
    o: &mut Map<String, Value>,
) {
    if let Some(name) = cell.get("NAME") {
        metadata.insert("name".into(), name.into());
    }
    let mut involved = Map::new();
    if let Some((kind, name)) = cell.get("OBJECT").and_then(|x| x.split_once('/')) {
        // kubectl writes the kind lower-cased (`pod/x`, `replicaset/x`).
        let lower = kind.split('.').next().unwrap_or(kind);
        let known = kinds::KINDS
            .iter()
            .find(|k| k.kind.eq_ignore_ascii_case(lower));
        involved.insert(
            "kind".into(),
            known
                .map_or(kind.to_string(), |k| k.kind.to_string())
                .into(),
        );
        if let Some(k) = known {
            involved.insert("apiVersion".into(), k.api_version.into());
        }
        involved.insert("name".into(), name.into());
        if let Some(ns) = cell.get("NAMESPACE")
            && known.is_none_or(|k| k.namespaced)
        {
            involved.insert("namespace".into(), ns.into());
        }
    }
    if let Some(path) = cell.get("SUBOBJECT") {
        involved.insert("fieldPath".into(), path.into());
    }
    o.insert("involvedObject".into(), Value::Object(involved));
    for (header, field) in [
        ("REASON", "reason"),
        ("MESSAGE", "message"),
        ("TYPE", "type"),
    ] {
        if let Some(v) = cell.get(header) {
            o.insert(field.into(), v.into());
        }
    }
    if let Some(count) = cell.get("COUNT").and_then(|c| c.parse::<i64>().ok()) {
        o.insert("count".into(), count.into());
    }
    if let Some(source) = cell.get("SOURCE") {
        let (component, host) = match source.split_once(", ") {
            Some((c, h)) => (c, Some(h)),
            None => (source, None),
        };
        let mut s = Map::new();
        s.insert("component".into(), component.into());
        if let Some(h) = host {
            s.insert("host".into(), h.into());
        }
        o.insert("source".into(), Value::Object(s));
    }
    let last = ago(now, cell.get("LAST SEEN"));
    let first = ago(now, cell.get("FIRST SEEN")).or_else(|| last.clone());
    if let Some(t) = first {
        o.insert("firstTimestamp".into(), t.into());
    }
    if let Some(t) = last {
        o.insert("lastTimestamp".into(), t.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_follow_the_header() {
        let text = "NAMESPACE   LAST SEEN   TYPE      REASON    OBJECT       SOURCE            MESSAGE                 COUNT\n\
                    default     49s         Warning   BackOff   pod/a        kubelet, n-1      Back-off restarting x   93\n\
                    default     2m          Normal    Pulled    pod/a                          Pulled image \"b\"        1\n";
        let t = parse(text).unwrap().unwrap();
        assert_eq!(t.columns[1], ("LAST SEEN".to_string(), 12));
        assert_eq!(t.rows[0].1[5], "kubelet, n-1");
        assert_eq!(t.rows[0].1[6], "Back-off restarting x");
        assert_eq!(t.rows[1].1[5], "");
        assert_eq!(t.rows[1].0, 3);
        assert!(parse("No resources found\n").unwrap().is_none());
        assert!(
            parse("Error from server (Forbidden): nodes is forbidden\n")
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn ages() {
        assert_eq!(parse_age("4m53s"), Some(293));
        assert_eq!(parse_age("14d"), Some(14 * 86400));
        assert_eq!(parse_age("4y324d"), Some(4 * 365 * 86400 + 324 * 86400));
        assert_eq!(parse_age("<unknown>"), None);
        assert_eq!(parse_age("5"), None);
    }

    #[test]
    fn rows_stay_on_their_lines() {
        let text = "NAMESPACE   NAME   READY   STATUS             RESTARTS       AGE\n\
                    default     a      0/1     CrashLoopBackOff   8 (4m53s ago)  21m\n\
                    \n\
                    default     b      1/1     Running            0              14d\n";
        let json = to_json("Pod", text, Some(1_000_000)).unwrap().unwrap();
        let lines: Vec<&str> = json.lines().collect();
        assert!(lines[1].contains("\"name\":\"a\"") && lines[1].ends_with(','));
        assert_eq!(lines[2], "");
        assert!(lines[3].contains("\"phase\":\"Running\"") && !lines[3].ends_with(','));
        let v: Value = serde_json::from_str(&json).unwrap();
        let a = &v["items"][0];
        assert_eq!(
            a["metadata"]["annotations"]["kdiag.io/table-status"],
            "CrashLoopBackOff"
        );
        assert_eq!(a["status"].get("phase"), None);
        assert_eq!(a["status"]["conditions"][0]["status"], "False");
    }
}

//! Reads of a resource: list (selectors, `limit`/`continue`), get, `pods/log`, and the
//! watch plan; each answered as JSON objects, `PartialObjectMetadata` or a `Table` with
//! the explorer's columns, as the client's `Accept` asks.

use super::answer::Answer;
use super::convert;
use super::findings;
use super::request::Request;
use super::resources::{Origin, Resource};
use super::state::{Item, State};
use crate::explorer::logs::{LogRequest, container_log};
use crate::explorer::served::{Filter, Printer, value_row};
use rayon::prelude::*;
use serde_json::{Map, Value, json};
use std::borrow::Cow;

/// Watches without `timeoutSeconds` end after this, as the API server's default.
const DEFAULT_WATCH_SECONDS: u64 = 1800;

/// What a resource path names.
pub struct Target<'a> {
    pub resource: &'a Resource,
    /// The version the path asked for.
    pub version: &'a str,
    pub namespace: Option<&'a str>,
    pub name: Option<&'a str>,
    pub subresource: Option<&'a str>,
}

pub fn answer(state: &State, req: &Request, t: &Target, watch: bool) -> Answer {
    let r = t.resource;
    if r.origin == Origin::Review {
        return Answer::status(
            405,
            "MethodNotAllowed",
            format!("{} are created (POST), not read", r.plural),
        );
    }
    if t.namespace.is_some() && !r.namespaced {
        return Answer::no_route(&format!(
            "namespaces/{}/{}",
            t.namespace.unwrap_or(""),
            r.plural
        ));
    }
    if let Err(a) = check_params(req) {
        return a;
    }
    if let Some(name) = t.name
        && !valid_name(name)
    {
        return Answer::bad_request(format!("{name:?} is not a valid object name"));
    }
    match (t.name, t.subresource, watch) {
        (Some(name), Some("log"), _) if r.plural == "pods" && r.group.is_empty() => {
            log(state, req, t.namespace.unwrap_or("default"), name)
        }
        (Some(_), Some(sub), _) if sub != "status" => {
            Answer::no_route(&format!("{}/{sub}", r.plural))
        }
        (Some(name), _, false) => get(state, req, t, name),
        (name, _, _) => {
            let filter = match filter(req, r, name) {
                Ok(f) => f,
                Err(a) => return a,
            };
            let mut items: Vec<Item> = state.items(r, t.namespace);
            if !filter.is_empty() {
                let keep = each(&items, |i| selected(&filter, &state.tree(i), t));
                let mut kept = keep.into_iter();
                items.retain(|_| kept.next().unwrap_or(false));
            }
            if watch {
                watch_plan(state, req, t, &items)
            } else {
                list(state, req, t, &items)
            }
        }
    }
}

/// The object as served at the path's version (`convert.rs`).
fn served(state: &State, t: &Target, item: Item) -> Value {
    convert::served(state.object_json(item), &t.resource.group, t.version)
}

/// Whether the selectors select `v`, read as served (an `events.k8s.io` Event by its core
/// fields, so `involvedObject.name=` finds it).
fn selected(filter: &Filter, v: &Value, t: &Target) -> bool {
    if convert::differs(v, &t.resource.group, t.version) {
        filter.matches(&convert::served(v.clone(), &t.resource.group, t.version))
    } else {
        filter.matches(v)
    }
}

/// The selectors of a list or watch (a watch of one name selects it by `metadata.name`).
fn filter(req: &Request, r: &Resource, name: Option<&str>) -> Result<Filter, Answer> {
    let mut fields = req.param("fieldSelector").unwrap_or("").to_string();
    if let Some(n) = name {
        if !fields.is_empty() {
            fields.push(',');
        }
        fields.push_str(&format!("metadata.name={n}"));
    }
    let kind = if r.origin == Origin::Findings {
        ""
    } else {
        &r.kind
    };
    Filter::parse(&r.group, kind, req.param("labelSelector"), Some(&fields))
        .map_err(|e| Answer::bad_request(format!("unable to parse requirement: {e}")))
}

fn get(state: &State, req: &Request, t: &Target, name: &str) -> Answer {
    let Some(item) = state.find(t.resource, t.namespace, name) else {
        return Answer::not_found(&t.resource.group, &t.resource.plural, name);
    };
    if req.wants_table() {
        return Answer::json(&table_json(state, req, t, &[item], None));
    }
    if req.wants_metadata() {
        return Answer::json(&partial(state, state.tree(item)));
    }
    Answer::json(&served(state, t, item))
}

fn list(state: &State, req: &Request, t: &Target, items: &[Item]) -> Answer {
    let offset = match req.param("continue").filter(|c| !c.is_empty()) {
        None => 0,
        Some(c) => match read_continue(c, &state.resource_version) {
            Err(()) => {
                return Answer::bad_request(format!(
                    "continue key is not valid: {c:?} is not a token this server writes"
                ));
            }
            Ok(Some(n)) if n <= items.len() => n,
            Ok(_) => {
                return Answer::status(
                    410,
                    "Expired",
                    "the continue token is not one this server gave (or it was for another list)",
                );
            }
        },
    };
    let limit = match req.param("limit").filter(|l| !l.is_empty()) {
        None => 0,
        Some(l) => match l.parse::<i64>() {
            Ok(n) if n >= 0 => usize::try_from(n).unwrap_or(usize::MAX),
            _ => return Answer::bad_request(format!("limit {l:?} is not a non-negative integer")),
        },
    };
    let end = if limit == 0 {
        items.len()
    } else {
        offset.saturating_add(limit).min(items.len())
    };
    let page = &items[offset..end];
    let more = (end < items.len()).then(|| {
        (
            format!("{}:{end}", state.resource_version),
            items.len() - end,
        )
    });
    if req.wants_table() {
        let table = Table::new(state, req, t, page);
        let rest = table.envelope(list_meta(state, more), Vec::new());
        return Answer::json_bytes(list_body(rest, "rows", page, |i| table.row(i)));
    }
    let (api_version, kind) = if req.wants_metadata() {
        (
            "meta.k8s.io/v1".to_string(),
            "PartialObjectMetadataList".to_string(),
        )
    } else {
        (group_version(t), format!("{}List", t.resource.kind))
    };
    let rest = json!({
        "kind": kind,
        "apiVersion": api_version,
        "metadata": list_meta(state, more),
    });
    let body = if req.wants_metadata() {
        list_body(rest, "items", page, |i| partial(state, state.tree(i)))
    } else {
        list_body(rest, "items", page, |i| served(state, t, i))
    };
    Answer::json_bytes(body)
}

/// Items are built side by side and written this many at a time.
const WRITTEN_AT_ONCE: usize = 1024;

/// `rest` (a JSON object) with `field` an array of `items`, each as `f` builds it: the
/// bytes `serde_json` writes for the whole object (keys sorted, no blanks), written a few
/// items at a time, so an answer of 65,000 pods never holds every item's tree at once
/// (about 10 KB a pod), only the answer's text.
fn list_body<I: Copy + Sync>(
    rest: Value,
    field: &str,
    items: &[I],
    f: impl Fn(I) -> Value + Sync + Send,
) -> Vec<u8> {
    let Value::Object(mut fields) = rest else {
        return serde_json::to_vec(&rest).unwrap_or_default();
    };
    fields.insert(field.to_string(), Value::Null);
    let mut body = Vec::new();
    body.push(b'{');
    for (n, (key, value)) in fields.iter().enumerate() {
        if n > 0 {
            body.push(b',');
        }
        let _ = serde_json::to_writer(&mut body, key);
        body.push(b':');
        if key != field {
            let _ = serde_json::to_writer(&mut body, value);
            continue;
        }
        body.push(b'[');
        for (c, chunk) in items.chunks(WRITTEN_AT_ONCE).enumerate() {
            let written = each(chunk, |i| serde_json::to_vec(&f(i)).unwrap_or_default());
            for (k, item) in written.iter().enumerate() {
                if c > 0 || k > 0 {
                    body.push(b',');
                }
                body.extend_from_slice(item);
            }
        }
        body.push(b']');
    }
    body.push(b'}');
    body
}

fn list_meta(state: &State, more: Option<(String, usize)>) -> Value {
    let mut m = Map::new();
    m.insert("resourceVersion".into(), json!(state.resource_version));
    if let Some((token, remaining)) = more {
        m.insert("continue".into(), json!(token));
        m.insert("remainingItemCount".into(), json!(remaining));
    }
    Value::Object(m)
}

/// The offset a continue token of this snapshot names: `Err` when the token is not of
/// the form this server writes (`RV:offset`), `None` when it is for another snapshot or
/// names no offset there can be.
fn read_continue(token: &str, rv: &str) -> Result<Option<usize>, ()> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match token.split_once(':') {
        Some((of, n)) if digits(of) && digits(n) => {
            Ok((of == rv).then(|| n.parse().ok()).flatten())
        }
        _ => Err(()),
    }
}

/// The parameters every read shares, checked as the API server checks them: 400 for a
/// `timeoutSeconds` that is not a count of seconds or an unknown `resourceVersionMatch`.
fn check_params(req: &Request) -> Result<(), Answer> {
    if let Some(t) = req.param("timeoutSeconds").filter(|t| !t.is_empty())
        && t.parse::<u64>().is_err()
    {
        return Err(Answer::bad_request(format!(
            "timeoutSeconds {t:?} is not a non-negative integer"
        )));
    }
    match req.param("resourceVersionMatch").unwrap_or("") {
        "" | "NotOlderThan" | "Exact" => Ok(()),
        other => Err(Answer::bad_request(format!(
            "resourceVersionMatch: Unsupported value: {other:?}: supported values: \"Exact\", \"NotOlderThan\""
        ))),
    }
}

fn group_version(t: &Target) -> String {
    if t.resource.group.is_empty() {
        t.version.to_string()
    } else {
        format!("{}/{}", t.resource.group, t.version)
    }
}

/// The object's metadata as `PartialObjectMetadata` (without `managedFields`), from its
/// tree: taken from a tree built for this answer, copied from a kept one.
fn partial(state: &State, tree: Cow<Value>) -> Value {
    let meta = match tree {
        Cow::Owned(Value::Object(mut m)) => m.remove("metadata"),
        Cow::Owned(_) => None,
        Cow::Borrowed(v) => v.get("metadata").cloned(),
    };
    let mut meta = meta.unwrap_or_else(|| json!({}));
    if let Some(m) = meta.as_object_mut() {
        m.remove("managedFields");
    }
    state.mask_value(json!({
        "kind": "PartialObjectMetadata",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": meta,
    }))
}

/// A `meta.k8s.io` Table of `items`: the explorer's columns (`-o wide`'s at priority 1),
/// each row with its object as `includeObject` asks (metadata by default).
fn table_json(
    state: &State,
    req: &Request,
    t: &Target,
    items: &[Item],
    more: Option<(String, usize)>,
) -> Value {
    let table = Table::new(state, req, t, items);
    table.envelope(list_meta(state, more), each(items, |i| table.row(i)))
}

/// A Table's column definitions, and how an item becomes its row: the explorer's cells
/// for stored objects (and events kdiag adds), the findings' own columns for findings.
/// Each object's tree is built once for its cells and its object, and not kept.
struct Table<'s> {
    state: &'s State,
    t: &'s Target<'s>,
    printer: Option<Printer<'s>>,
    /// `includeObject`: `None`, `Object`, else metadata.
    include: &'s str,
    api_version: &'static str,
    columns: Vec<Value>,
}

impl<'s> Table<'s> {
    /// The columns of `r` read from its printer, or from `items`' own when it has none.
    fn new(state: &'s State, req: &'s Request, t: &'s Target<'s>, items: &[Item]) -> Table<'s> {
        let r = t.resource;
        let first_stored = items.iter().find_map(|i| match i {
            Item::Stored(id) => Some(state.snap.object(*id)),
            Item::Added(_) => None,
        });
        let printer =
            first_stored.map(|o| Printer::new(&state.snap, &r.group, &r.kind, &o.api_version));
        let mut columns: Vec<(String, bool)> = match (&printer, r.origin) {
            (_, Origin::Findings) => {
                let mut c = vec![("NAME".to_string(), false)];
                c.extend(findings::COLUMNS.iter().map(|c| (c.to_string(), false)));
                c
            }
            (Some(p), _) => p.columns().to_vec(),
            (None, _) => vec![("NAME".into(), false)],
        };
        if printer.is_none()
            && r.origin != Origin::Findings
            && let Some(v) = items.iter().rev().find_map(|i| match i {
                Item::Added(h) => Some(*h),
                Item::Stored(_) => None,
            })
        {
            columns = value_row(&state.snap, &r.kind, v.name(), &v.tree()).columns;
        }
        let columns = columns
            .iter()
            .enumerate()
            .map(|(i, (name, wide))| {
                json!({
                    "name": name,
                    "type": "string",
                    "format": if i == 0 { "name" } else { "" },
                    "description": "",
                    "priority": if *wide { 1 } else { 0 },
                })
            })
            .collect();
        let api_version =
            if req.accept.contains("as=Table;v=v1;") || !req.accept.contains("v1beta1") {
                "meta.k8s.io/v1"
            } else {
                "meta.k8s.io/v1beta1"
            };
        Table {
            state,
            t,
            printer,
            include: req.param("includeObject").unwrap_or("Metadata"),
            api_version,
            columns,
        }
    }

    /// The Table with `metadata` and `rows`.
    fn envelope(&self, metadata: Value, rows: Vec<Value>) -> Value {
        json!({
            "kind": "Table",
            "apiVersion": self.api_version,
            "metadata": metadata,
            "columnDefinitions": self.columns,
            "rows": rows,
        })
    }

    /// `item`'s row: its cells, and its object as `includeObject` asks.
    fn row(&self, item: Item) -> Value {
        let (state, r) = (self.state, self.t.resource);
        let tree = state.tree(item);
        let cells = match (item, &self.printer) {
            _ if r.origin == Origin::Findings => findings::row(&tree),
            (Item::Stored(id), Some(p)) => p.row(&state.snap.object(id).name, &tree),
            (Item::Stored(_), None) => Vec::new(),
            (Item::Added(h), _) => value_row(&state.snap, &r.kind, h.name(), &tree)
                .rows
                .into_iter()
                .next()
                .unwrap_or_default(),
        };
        let cells: Vec<Value> = cells.into_iter().map(|c| json!(state.mask(c))).collect();
        let mut row = json!({"cells": cells});
        match self.include {
            "None" => {}
            "Object" => {
                row["object"] =
                    convert::served(state.object_json_of(item, tree), &r.group, self.t.version)
            }
            _ => row["object"] = partial(state, tree),
        }
        row
    }
}

/// Answers of this many objects or more are built side by side on every core (each
/// object's tree is most of the work); shorter ones on the request's own thread, so a
/// small answer never waits in the pool's queue behind the rows of a large one.
const PARALLEL_FROM: usize = 128;

/// `f` of each item, in order.
fn each<I: Copy + Sync, T: Send>(items: &[I], f: impl Fn(I) -> T + Sync + Send) -> Vec<T> {
    if items.len() < PARALLEL_FROM {
        items.iter().map(|&i| f(i)).collect()
    } else {
        items.par_iter().map(|&i| f(i)).collect()
    }
}

/// `pods/NAME/log`: the container's log as the bundle holds it.
fn log(state: &State, req: &Request, namespace: &str, pod: &str) -> Answer {
    let tail = match req.param("tailLines").map(str::parse::<i64>) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(_)) => return Answer::bad_request("tailLines is not an integer"),
    };
    let request = LogRequest {
        pod: pod.to_string(),
        container: req
            .param("container")
            .filter(|c| !c.is_empty())
            .map(str::to_string),
        previous: req.flag("previous"),
        namespace: Some(namespace.to_string()),
        tail,
    };
    match container_log(&state.snap, &request) {
        Ok(held) => {
            let mut text = state.mask(held.text);
            if let Some(limit) = req
                .param("limitBytes")
                .and_then(|l| l.parse::<usize>().ok())
                && limit < text.len()
            {
                let mut cut = limit;
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text.truncate(cut);
            }
            Answer::text(text)
        }
        Err(e) => Answer::status(404, "NotFound", e),
    }
}

/// A watch: nothing new ever happens in a snapshot, so a watch from the list's
/// `resourceVersion` holds until its timeout; one from none (or `0`), or with
/// `sendInitialEvents=true`, first streams `ADDED` per object, and an informer asking for
/// initial events gets the `BOOKMARK` that ends them.
fn watch_plan(state: &State, req: &Request, t: &Target, items: &[Item]) -> Answer {
    let rv = req.param("resourceVersion").unwrap_or("");
    let initial = req.flag("sendInitialEvents") || rv.is_empty() || rv == "0";
    let mut events = Vec::new();
    if initial && req.wants_table() {
        // Each event a Table of its one object, the columns read once.
        let table = Table::new(state, req, t, items);
        events = each(items, |i| {
            let object = table.envelope(list_meta(state, None), vec![table.row(i)]);
            line(&json!({"type": "ADDED", "object": object}))
        });
    } else if initial {
        events = each(items, |i| {
            line(&json!({"type": "ADDED", "object": served(state, t, i)}))
        });
    }
    if req.flag("sendInitialEvents") {
        let bookmark = json!({
            "kind": t.resource.kind,
            "apiVersion": group_version(t),
            "metadata": {
                "resourceVersion": state.resource_version,
                "annotations": {"k8s.io/initial-events-end": "true"},
            },
        });
        events.push(line(&json!({"type": "BOOKMARK", "object": bookmark})));
    }
    let timeout_seconds = req
        .param("timeoutSeconds")
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(DEFAULT_WATCH_SECONDS);
    Answer::Watch {
        events,
        timeout_seconds,
    }
}

fn line(v: &Value) -> Vec<u8> {
    let mut b = serde_json::to_vec(v).unwrap_or_default();
    b.push(b'\n');
    b
}

/// A name an object can have: no path separators, not `.` or `..`, not empty, at most
/// 253 bytes (a DNS subdomain's limit; longer names are no object's).
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0'])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An item as an answer holds it: nested, with text to escape.
    fn item(i: usize) -> Value {
        json!({"metadata": {"name": format!("p-{i}"), "annotations": {"note": "a \"q\" \\ é\n"}},
            "spec": {"n": i, "f": 1.5, "list": [i, null, true]}})
    }

    #[test]
    fn a_list_written_by_parts_is_the_whole_lists_bytes() {
        // The array's key first, in the middle and last among the keys; lists shorter and
        // longer than what is written at once.
        for field in ["a", "items", "zz"] {
            for n in [
                0,
                1,
                2,
                WRITTEN_AT_ONCE,
                WRITTEN_AT_ONCE + 1,
                2 * WRITTEN_AT_ONCE + 7,
            ] {
                let ids: Vec<usize> = (0..n).collect();
                let rest = json!({"kind": "PodList", "apiVersion": "v1",
                    "metadata": {"resourceVersion": "7", "continue": "7:5"}});
                let mut whole = rest.clone();
                whole[field] = Value::Array(ids.iter().map(|&i| item(i)).collect());
                assert_eq!(
                    list_body(rest, field, &ids, item),
                    serde_json::to_vec(&whole).unwrap(),
                    "{field}, {n} items"
                );
            }
        }
    }
}

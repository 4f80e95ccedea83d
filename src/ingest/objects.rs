//! Documents → Kubernetes objects: List flattening, kind inference, kubelet configz,
//! and a problem for everything that is not an object.
//!
//! Only headers are looked at here; an object's content stays where its [`Body`] says
//! until a view needs it. [`fix_up`] is what every materialized tree gets: its kind and
//! apiVersion, no managedFields, no last-applied configuration, no Secret values.

use super::body::Body;
use super::header::{Header, ItemHeader, NodeType};
use super::layout;
use crate::kube::meta::LAST_APPLIED;
use crate::parse::spans::{ParsedDoc, Span};
use serde::Deserialize;
use serde_json::{Map, Value};

/// One document of a file: its header and where its content is.
#[derive(Debug)]
pub struct Doc {
    pub header: Header<Item>,
    pub body: Body,
    pub span: Span,
}

/// One element of a document's list: its header and, for text, where it is.
#[derive(Debug)]
pub struct Item {
    pub header: ItemHeader,
    /// `None` when the document is a tree: the item is taken out of it if needed.
    pub body: Option<Body>,
    pub span: Span,
}

impl Doc {
    /// A document the general parser (or the JSON fallback) already made a tree of.
    pub fn from_parsed(doc: ParsedDoc) -> Doc {
        let ParsedDoc {
            value,
            span,
            item_spans,
        } = doc;
        let header = Header::<ItemHeader>::deserialize(&value).unwrap_or_default();
        Doc {
            header: with_items(header, |i, h| Item {
                header: h,
                body: None,
                span: item_spans.get(i).copied().unwrap_or(span),
            }),
            body: Body::Tree(value),
            span,
        }
    }
}

/// Replaces a header's item type, item by item.
pub fn with_items<I, J>(h: Header<I>, mut f: impl FnMut(usize, I) -> J) -> Header<J> {
    Header {
        node: h.node,
        keys: h.keys,
        kind: h.kind,
        api_version: h.api_version,
        has_metadata: h.has_metadata,
        name: h.name,
        namespace: h.namespace,
        uid: h.uid,
        resource_version: h.resource_version,
        owners: h.owners,
        created: h.created,
        event_time: h.event_time,
        kubeletconfig: h.kubeletconfig,
        early: h.early,
        items: h.items.map(|items| {
            items
                .into_iter()
                .enumerate()
                .map(|(i, x)| f(i, x))
                .collect()
        }),
    }
}

/// An object as found in a file, before de-duplication.
#[derive(Debug)]
pub struct RawObject {
    pub body: Body,
    pub span: Span,
    pub api_version: String,
    pub kind: String,
    pub name: String,
    pub namespace: Option<String>,
    pub uid: Option<String>,
    pub resource_version: Option<String>,
    pub owners: Vec<super::header::Owner>,
    /// Newest timestamp the object carries (events: last seen; others: creation).
    pub time: Option<i64>,
    /// Its view, when ingest read it (see [`super::early`]).
    pub early: Option<super::early::Early>,
}

impl RawObject {
    /// The object as a tree (tests and tools; the snapshot materializes lazily).
    pub fn value(&self) -> Value {
        self.body.to_value(&self.kind, &self.api_version)
    }
}

/// Something in a file that should have been an object and is not.
#[derive(Debug)]
pub struct Defect {
    pub line: Option<u32>,
    pub message: String,
}

#[derive(Default, Debug)]
pub struct Extracted {
    pub objects: Vec<RawObject>,
    pub defects: Vec<Defect>,
}

/// Turns the documents of the file at `path` into objects.
pub fn extract(path: &str, docs: Vec<Doc>) -> Extracted {
    let mut out = Extracted::default();
    for doc in docs {
        let Doc { header, body, span } = doc;
        match header.node {
            NodeType::Null => {} // empty document (`---` at the end of a file)
            NodeType::List => {
                let items = header.items.unwrap_or_default();
                flatten(path, None, items, body, &mut out);
            }
            NodeType::Mapping => {
                if header.kubeletconfig && header.keys <= 2 {
                    out.objects.push(kubelet_configz(path, &body, span));
                    continue;
                }
                let kind = header.kind.as_deref().unwrap_or("");
                let is_list = (kind == "List" || kind.ends_with("List"))
                    || (kind.is_empty() && header.items.is_some() && header.name.is_none());
                if is_list {
                    let list_type = list_item_type(&header);
                    let items = header.items.unwrap_or_default();
                    flatten(path, list_type, items, body, &mut out);
                } else {
                    let header = with_items(header, |_, _| ());
                    single(path, None, header, body, span, &mut out);
                }
            }
            other => out.defects.push(Defect {
                line: Some(span.start),
                message: format!("document is a {}, not a Kubernetes object", other.name()),
            }),
        }
    }
    // A file with no object at all is one problem, not one per record.
    if out.objects.is_empty() && out.defects.len() > 1 {
        let first = out.defects[0].line;
        let n = out.defects.len();
        out.defects = vec![Defect {
            line: first,
            message: format!(
                "holds no Kubernetes objects ({n} documents or items, none an object with a kind); first: {}",
                out.defects[0].message
            ),
        }];
    }
    out
}

/// `PodList` in `v1` → items are `v1` `Pod`s.
fn list_item_type<I>(h: &Header<I>) -> Option<(String, String)> {
    let kind = h.kind.as_deref()?;
    let item_kind = kind.strip_suffix("List").filter(|k| !k.is_empty())?;
    let api_version = h.api_version.as_deref().unwrap_or("v1");
    Some((api_version.to_string(), item_kind.to_string()))
}

/// The elements of a tree document that is a list (or has an `items` list).
fn tree_items(body: Body) -> Vec<Value> {
    match body {
        Body::Tree(Value::Array(items)) => items,
        Body::Tree(Value::Object(mut map)) => match map.remove("items") {
            Some(Value::Array(items)) => items,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

fn flatten(
    path: &str,
    list_type: Option<(String, String)>,
    items: Vec<Item>,
    doc_body: Body,
    out: &mut Extracted,
) {
    let mut trees = tree_items(doc_body).into_iter();
    for (i, item) in items.into_iter().enumerate() {
        let tree = trees.next();
        let span = item.span;
        if item.header.node != NodeType::Mapping {
            out.defects.push(Defect {
                line: Some(span.start),
                message: format!(
                    "list item {} is a {}, not an object",
                    i + 1,
                    item.header.node.name()
                ),
            });
            continue;
        }
        let Some(body) = item.body.or_else(|| tree.map(Body::Tree)) else {
            continue;
        };
        let header = with_items(item.header, |_, _| ());
        single(path, list_type.as_ref(), header, body, span, out);
    }
}

fn single(
    path: &str,
    list_type: Option<&(String, String)>,
    header: Header<()>,
    body: Body,
    span: Span,
    out: &mut Extracted,
) {
    let own_kind = header.kind.as_deref().filter(|k| !k.is_empty());
    let own_api = header.api_version.as_deref().filter(|k| !k.is_empty());
    let (api_version, kind) = match (own_api, own_kind) {
        (Some(a), Some(k)) => (a.to_string(), k.to_string()),
        (api, Some(k)) => (
            api.map(str::to_string)
                .or_else(|| {
                    layout::kind_from_path(path)
                        .filter(|(_, pk)| *pk == k)
                        .map(|(a, _)| a.to_string())
                })
                .unwrap_or_default(),
            k.to_string(),
        ),
        (api, None) => {
            let inferred = list_type.map(|(a, k)| (a.clone(), k.clone())).or_else(|| {
                layout::kind_from_path(path).map(|(a, k)| (a.to_string(), k.to_string()))
            });
            match inferred {
                Some((a, k)) => (api.map(str::to_string).unwrap_or(a), k),
                None => {
                    let what = if header.has_metadata {
                        "object has no `kind` and none can be inferred from its list or path"
                    } else {
                        "not a Kubernetes object (no `kind`, `apiVersion` or `metadata`)"
                    };
                    out.defects.push(Defect {
                        line: Some(span.start),
                        message: what.to_string(),
                    });
                    return;
                }
            }
        }
    };
    let name = header.name.clone().filter(|n| !n.is_empty());
    if name.is_none() && kind != "KubeletConfiguration" {
        out.defects.push(Defect {
            line: Some(span.start),
            message: format!("{kind} has no metadata.name"),
        });
        return;
    }
    // Read as the kind its path says, which may not be the kind its list says.
    let mut early = header.early.filter(|e| e.kind == kind);
    let (name, body) = match name {
        Some(n) => (n, fix_tree(body, &kind, &api_version)),
        None => {
            // A KubeletConfiguration is named after the node whose folder holds it.
            let node = layout::node_from_path(path).unwrap_or_else(|| path.to_string());
            let mut value = body.to_value(&kind, &api_version);
            if let Value::Object(map) = &mut value {
                set_name(map, &node);
            }
            early = None;
            (node, Body::Tree(value))
        }
    };
    let time = if kind == "Event" {
        header.event_time
    } else {
        header.created
    };
    out.objects.push(RawObject {
        body,
        span,
        api_version,
        kind,
        name,
        namespace: header.namespace.filter(|n| !n.is_empty()),
        uid: header.uid.filter(|u| !u.is_empty()),
        resource_version: header.resource_version,
        owners: header.owners,
        time,
        early,
    });
}

/// Trees are fixed up once, at ingest; text is fixed up whenever it is materialized.
fn fix_tree(body: Body, kind: &str, api_version: &str) -> Body {
    match body {
        Body::Tree(Value::Object(mut map)) => {
            fix_up(&mut map, kind, api_version);
            Body::Tree(Value::Object(map))
        }
        other => other,
    }
}

/// What every materialized object gets: its kind and apiVersion (maybe inferred), and
/// none of managedFields, the last-applied annotation or a Secret's values.
pub fn fix_up(map: &mut Map<String, Value>, kind: &str, api_version: &str) {
    if let Some(Value::Object(meta)) = map.get_mut("metadata") {
        meta.remove("managedFields");
    }
    if kind == "Secret" {
        scrub_secret(map);
    }
    drop_last_applied(map);
    map.insert("kind".into(), Value::String(kind.to_string()));
    map.insert("apiVersion".into(), Value::String(api_version.to_string()));
}

/// Secret values never enter the store: only names, type and keys remain.
fn scrub_secret(map: &mut Map<String, Value>) {
    for field in ["data", "stringData"] {
        if let Some(Value::Object(data)) = map.get_mut(field) {
            for v in data.values_mut() {
                *v = Value::String("<redacted>".into());
            }
        }
    }
}

/// The last-applied annotation repeats the whole object (and a Secret's values); no rule
/// reads it, so it is not kept in memory.
fn drop_last_applied(map: &mut Map<String, Value>) {
    if let Some(Value::Object(ann)) = map
        .get_mut("metadata")
        .and_then(|m| m.get_mut("annotations"))
    {
        ann.remove(LAST_APPLIED);
    }
}

fn set_name(map: &mut Map<String, Value>, name: &str) {
    let meta = map
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(m) = meta {
        m.insert("name".into(), Value::String(name.to_string()));
    }
}

/// `{"kubeletconfig": {...}}` from `/api/v1/nodes/<node>/proxy/configz`, named after its node.
fn kubelet_configz(path: &str, body: &Body, span: Span) -> RawObject {
    let cfg = body
        .deserialize::<Value>()
        .ok()
        .and_then(|mut v| v.get_mut("kubeletconfig").map(Value::take));
    let mut map = match cfg {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let node = layout::node_from_path(path).unwrap_or_else(|| path.to_string());
    set_name(&mut map, &node);
    let api_version = "kubelet.config.k8s.io/v1beta1";
    fix_up(&mut map, "KubeletConfiguration", api_version);
    RawObject {
        body: Body::Tree(Value::Object(map)),
        span,
        api_version: api_version.into(),
        kind: "KubeletConfiguration".into(),
        name: node,
        namespace: None,
        uid: None,
        resource_version: None,
        owners: Vec::new(),
        time: None,
        early: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::yaml;

    fn run(path: &str, text: &str) -> Extracted {
        let (docs, err) = yaml::parse(text);
        assert!(err.is_none(), "{err:?}");
        extract(path, docs.into_iter().map(Doc::from_parsed).collect())
    }

    #[test]
    fn typed_list_gives_kind_to_items() {
        let out = run(
            "x.yaml",
            "apiVersion: v1\nkind: PodList\nitems:\n- metadata:\n    name: a\n- metadata:\n    name: b\n",
        );
        assert_eq!(out.objects.len(), 2);
        assert_eq!(out.objects[0].kind, "Pod");
        assert_eq!(out.objects[1].span.start, 6);
    }

    #[test]
    fn generic_list_mixes_kinds() {
        let out = run(
            "x.yaml",
            "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Service\n  metadata:\n    name: s\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: d\n- 42\n",
        );
        assert_eq!(out.objects.len(), 2);
        assert_eq!(out.defects.len(), 1);
        assert_eq!(out.defects[0].line, Some(12));
    }

    #[test]
    fn path_gives_kind_in_must_gather() {
        let out = run(
            "mg/namespaces/demo/core/pods.yaml",
            "kind: List\nitems:\n- metadata:\n    name: a\n",
        );
        assert_eq!(out.objects[0].kind, "Pod");
        assert_eq!(out.objects[0].api_version, "v1");
    }

    #[test]
    fn helm_values_are_a_defect() {
        let out = run("values.yaml", "replicaCount: 3\nimage:\n  tag: latest\n");
        assert!(out.objects.is_empty());
        assert!(out.defects[0].message.contains("not a Kubernetes object"));
    }

    #[test]
    fn bare_sequence_of_objects() {
        let out = run(
            "cluster-resources/custom-resources/x.yaml",
            "- apiVersion: a/v1\n  kind: X\n  metadata:\n    name: one\n",
        );
        assert_eq!(out.objects.len(), 1);
    }

    #[test]
    fn secrets_are_scrubbed() {
        let out = run(
            "s.yaml",
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  password: aHVudGVyMg==\n",
        );
        assert_eq!(out.objects[0].value()["data"]["password"], "<redacted>");
    }

    #[test]
    fn configz_attaches_to_node() {
        let text = std::sync::Arc::new(
            "{\"kubeletconfig\": {\"cpuManagerPolicy\": \"static\"}}".to_string(),
        );
        let (docs, _) = crate::ingest::json::scan(&text);
        let out = extract("mg/nodes/node-a/configz.json", docs);
        assert_eq!(out.objects[0].kind, "KubeletConfiguration");
        assert_eq!(out.objects[0].value()["metadata"]["name"], "node-a");
    }
}

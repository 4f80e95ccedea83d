//! Documents → Kubernetes objects: List flattening, kind inference, kubelet configz,
//! and a problem for everything that is not an object.
//!
//! Only headers are looked at here; an object's content stays where its [`Body`] says
//! until a view needs it. [`fix_up`] is what every materialized tree gets: its kind and
//! apiVersion, no managedFields, no last-applied configuration, no Secret values.

use super::body::Body;
use super::header::{Header, IDENTITY_KEYS, ItemHeader, NodeType};
use super::layout;
use crate::kube::meta::LAST_APPLIED;
use crate::parse::spans::{ParsedDoc, Span, Step};
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
            repeated,
        } = doc;
        let mut header = crate::parse::tree::read::<Header<ItemHeader>>(&value).unwrap_or_default();
        // A tree keeps a key given twice once: the parser said where it was.
        for key in &repeated {
            let (item, rest) = match key.path.as_slice() {
                [Step::Key(items), Step::Index(i), rest @ ..] if items == "items" => {
                    (Some(*i), rest)
                }
                [Step::Index(i), rest @ ..] => (Some(*i), rest),
                rest => (None, rest),
            };
            let Some(name) = identity_key(rest) else {
                continue;
            };
            match item {
                Some(i) => {
                    if let Some(h) = header.items.as_mut().and_then(|items| items.get_mut(i)) {
                        h.repeated.get_or_insert(name);
                    }
                }
                None => {
                    header.repeated.get_or_insert(name);
                }
            }
        }
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

/// The identity key (as [`Header::repeated`] names it) at `path` inside an object.
fn identity_key(path: &[Step]) -> Option<&'static str> {
    let dotted = match path {
        [Step::Key(k)] => k.clone(),
        [Step::Key(m), Step::Key(k)] if m == "metadata" => format!("metadata.{k}"),
        _ => return None,
    };
    IDENTITY_KEYS.iter().find(|k| **k == dotted).copied()
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
        name_type: h.name_type,
        inline_name: h.inline_name,
        namespace: h.namespace,
        uid: h.uid,
        resource_version: h.resource_version,
        owners: h.owners,
        created: h.created,
        event_time: h.event_time,
        kubeletconfig: h.kubeletconfig,
        internal_items: h.internal_items,
        early: h.early,
        repeated: h.repeated,
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
    /// troubleshoot's `***HIDDEN***` stood where a value starts, and was read as text.
    pub placeholders: bool,
    /// Read as an old `kubectl cluster-info dump`'s internal types (see [`internal_dump`]).
    pub internal_dump: bool,
    /// The List documents of the file, each with the objects its items became (see
    /// `listing`: which of them hold a whole listing of a kind).
    pub lists: Vec<ListDoc>,
}

/// One List document: `kind: PodList` (typed, as the API serves a list) or `kind: List`
/// (what `kubectl get -o yaml` prints), and its items, `objects[start..end]` of the file.
#[derive(Debug)]
pub struct ListDoc {
    /// `PodList` in `v1` → (`v1`, `Pod`); `None` for a `List`.
    pub typed: Option<(String, String)>,
    pub start: usize,
    pub end: usize,
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
                if header.internal_items
                    && header.kind.is_none()
                    && header.items.is_none()
                    && !header.has_metadata
                    && internal_dump(path, &body, span, &mut out)
                {
                    continue;
                }
                if header.kubeletconfig && header.keys <= 2 {
                    out.objects.push(kubelet_configz(path, &body, span));
                    continue;
                }
                let kind = header.kind.as_deref().unwrap_or("");
                let is_list = is_list_kind(kind)
                    || (kind.is_empty() && header.items.is_some() && header.name.is_none());
                if is_list {
                    let list_type = list_item_type(&header);
                    let items = header.items.unwrap_or_default();
                    let start = out.objects.len();
                    flatten(path, list_type.clone(), items, body, &mut out);
                    out.lists.push(ListDoc {
                        typed: list_type,
                        start,
                        end: out.objects.len(),
                    });
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
                "holds no Kubernetes objects ({n} documents or items, none read as an object); first: {}",
                out.defects[0].message
            ),
        }];
    }
    out
}

/// A list printed by `kubectl cluster-info dump` of kubectl 1.13 or older, which printed
/// Go's internal types with Go's own JSON encoding: `{"selfLink": …, "Items": [{"name": …,
/// "Spec": …}]}`, without `kind` or `apiVersion`; read as the kind the file's name says,
/// each item made the object the API would have written. `false` when the name says no
/// kind (the document is then read as any other).
fn internal_dump(path: &str, body: &Body, span: Span, out: &mut Extracted) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    let Some((api_version, kind)) = layout::kind_from_path(path).or_else(|| {
        file.starts_with("replication-controllers.")
            .then_some(("v1", "ReplicationController"))
    }) else {
        return false;
    };
    let items: Vec<(Value, Span)> = match body {
        Body::Json { text, start, end } => {
            #[derive(Deserialize)]
            struct List<'a> {
                #[serde(rename = "Items", borrow, default)]
                items: Vec<&'a serde_json::value::RawValue>,
            }
            let Ok(list) = serde_json::from_str::<List>(&text[*start..*end]) else {
                return false;
            };
            let lines = crate::parse::json::LineIndex::new(text);
            list.items
                .into_iter()
                .filter_map(|raw| {
                    let tree = crate::parse::tree::json_tree(raw.get()).ok()?;
                    Some((tree, lines.span_of(text, raw.get())))
                })
                .collect()
        }
        other => match other.deserialize::<Value>() {
            Ok(Value::Object(mut map)) => match map.remove("Items") {
                Some(Value::Array(items)) => items.into_iter().map(|v| (v, span)).collect(),
                _ => return false,
            },
            _ => return false,
        },
    };
    let list_type = (api_version.to_string(), kind.to_string());
    for (i, (item, span)) in items.into_iter().enumerate() {
        let Value::Object(map) = item else {
            out.defects.push(Defect {
                line: Some(span.start),
                message: format!("list item {} is not an object", i + 1),
            });
            continue;
        };
        let tree = Value::Object(internal::object(map));
        let header = crate::parse::tree::read::<Header<ItemHeader>>(&tree).unwrap_or_default();
        let header = with_items(header, |_, _| ());
        single(path, Some(&list_type), header, Body::Tree(tree), span, out);
    }
    out.internal_dump = true;
    true
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
        if item.header.kind.as_deref().is_some_and(is_list_kind) && item.header.items.is_some() {
            // A List inside a List: kubectl (cli-runtime's FlattenListVisitor) reads its
            // items as the outer list's, at any depth.
            let inner = match body.deserialize::<Value>() {
                Ok(Value::Object(mut map)) => match map.remove("items") {
                    Some(Value::Array(inner)) => inner,
                    _ => Vec::new(),
                },
                Ok(_) => Vec::new(),
                Err(e) => {
                    out.defects.push(Defect {
                        line: Some(span.start),
                        message: format!("list item {} (a List) does not read: {e}", i + 1),
                    });
                    continue;
                }
            };
            let inner_type = list_item_type(&item.header);
            let inner = inner
                .into_iter()
                .map(|tree| Item {
                    header: crate::parse::tree::read::<ItemHeader>(&tree).unwrap_or_default(),
                    body: Some(Body::Tree(tree)),
                    span,
                })
                .collect();
            flatten(path, inner_type, inner, Body::Tree(Value::Null), out);
            continue;
        }
        let header = with_items(item.header, |_, _| ());
        single(path, list_type.as_ref(), header, body, span, out);
    }
}

/// `List`, or a typed list such as `PodList`.
fn is_list_kind(kind: &str) -> bool {
    kind.ends_with("List")
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
    if let Body::Json { text, start, end } = &body
        && let Some(at) = crate::parse::json::too_deep(&text.as_bytes()[*start..*end])
    {
        // Its tree would not read: said here, not found missing when it is printed.
        let breaks = memchr::memchr_iter(b'\n', &text.as_bytes()[*start..*start + at]).count();
        out.defects.push(Defect {
            line: Some(span.start + breaks as u32),
            message: format!(
                "{kind} nests deeper than {} levels; object not loaded",
                crate::parse::json::MAX_TREE_DEPTH
            ),
        });
        return;
    }
    // Insights' operator objects name themselves at the top, with no `metadata`, and say
    // their own kind and apiVersion (troubleshoot's secret and configmap collectors write
    // `name` and `namespace` too, with neither: a report, not an object).
    let says_type = header.kind.is_some() && header.api_version.is_some();
    let inline = match header.has_metadata || !says_type {
        false => header.inline_name.clone().filter(|n| !n.is_empty()),
        true => None,
    };
    let name = header.name.clone().filter(|n| !n.is_empty());
    let name = name.or_else(|| inline.clone());
    if name.is_none() && kind != "KubeletConfiguration" {
        let message = match header.name_type {
            Some(NodeType::Null) => format!("{kind} metadata.name is null, not a string"),
            Some(t) => format!("{kind} metadata.name is a {}, not a string", t.name()),
            None => format!("{kind} has no metadata.name"),
        };
        out.defects.push(Defect {
            line: Some(span.start),
            message,
        });
        return;
    }
    if let Some(key) = header.repeated {
        // kubectl's readers keep the last value too; a second `kind` can turn a Pod into
        // a ConfigMap, so it is said.
        let at = match &header.namespace {
            Some(ns) if !ns.is_empty() => format!("{ns}/"),
            _ => String::new(),
        };
        out.defects.push(Defect {
            line: Some(span.start),
            message: format!(
                "`{key}` is given more than once; the last one is read: {kind} {at}{}",
                name.as_deref().unwrap_or_default()
            ),
        });
    }
    // Read as the kind its path says, which may not be the kind its list says.
    let mut early = header.early.filter(|e| e.kind == kind);
    let (name, body) = match name {
        Some(n) if inline.is_some() => {
            let mut value = body.to_value(&kind, &api_version);
            if let Value::Object(map) = &mut value {
                set_name(map, &n);
            }
            early = None;
            (n, Body::Tree(value))
        }
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
    drop_token_annotations(map);
    map.insert("kind".into(), Value::String(kind.to_string()));
    map.insert("apiVersion".into(), Value::String(api_version.to_string()));
}

/// Secret values never enter the store: only names, type, keys and each value's size
/// remain, whatever shape `data`, `stringData` or `binaryData` has (a map keeps its keys,
/// any other value goes whole), and no annotation that holds a token.
fn scrub_secret(map: &mut Map<String, Value>) {
    for field in ["data", "stringData", "binaryData"] {
        match map.get_mut(field) {
            Some(Value::Object(data)) => {
                for v in data.values_mut() {
                    let size = match v {
                        Value::String(s) if field == "stringData" => Some(s.len()),
                        Value::String(s) => Some(base64_size(s)),
                        _ => None,
                    };
                    *v = Value::String(match size {
                        Some(n) => format!("{REDACTED} {n} bytes"),
                        None => REDACTED.into(),
                    });
                }
            }
            Some(Value::Null) | None => {}
            Some(other) => *other = Value::String(REDACTED.into()),
        }
    }
    if let Some(Value::Object(ann)) = map
        .get_mut("metadata")
        .and_then(|m| m.get_mut("annotations"))
    {
        ann.retain(|k, _| !TOKEN_ANNOTATIONS.contains(&k.as_str()));
    }
}

/// What a Secret's value reads once scrubbed.
pub const REDACTED: &str = "<redacted>";

/// Annotations that hold a Secret's token in clear: OpenShift keeps a service account's
/// token there, and the last-applied annotation repeats the whole Secret.
pub const TOKEN_ANNOTATIONS: &[&str] = &[TOKEN_VALUE_ANNOTATION, LAST_APPLIED];

/// The annotation OpenShift keeps a service-account token in, on the token's Secret and
/// on its ServiceAccount.
pub const TOKEN_VALUE_ANNOTATION: &str = "openshift.io/token-secret.value";

/// The bytes a base64 value decodes to (kubectl's describe prints them).
fn base64_size(s: &str) -> usize {
    let chars = s.bytes().filter(|b| !b.is_ascii_whitespace()).count();
    let pad = s
        .trim_end()
        .bytes()
        .rev()
        .take_while(|&b| b == b'=')
        .count()
        .min(2);
    (chars * 3 / 4).saturating_sub(pad)
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

/// A token annotation goes from every kind, not only Secrets: OpenShift also writes
/// `openshift.io/token-secret.value` on the ServiceAccount the token belongs to.
fn drop_token_annotations(map: &mut Map<String, Value>) {
    if let Some(Value::Object(ann)) = map
        .get_mut("metadata")
        .and_then(|m| m.get_mut("annotations"))
    {
        ann.remove(TOKEN_VALUE_ANNOTATION);
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

/// Go's internal types as the API writes them: what [`internal_dump`] reads.
mod internal {
    use serde_json::{Map, Value};

    /// ObjectMeta's JSON names, which internal types embed (and so write inline).
    const OBJECT_META: &[&str] = &[
        "name",
        "generateName",
        "namespace",
        "selfLink",
        "uid",
        "resourceVersion",
        "generation",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "labels",
        "annotations",
        "ownerReferences",
        "initializers",
        "finalizers",
        "clusterName",
    ];

    /// Fields of internal types that are Go maps: their keys are data, not Go names.
    const GO_MAPS: &[&str] = &[
        "Selector",
        "NodeSelector",
        "Limits",
        "Requests",
        "Capacity",
        "Allocatable",
        "Hard",
        "Used",
        "Data",
        "BinaryData",
        "StringData",
        "Parameters",
        "Options",
        "VolumeAttributes",
        "Max",
        "Min",
        "Default",
        "DefaultRequest",
        "MaxLimitRequestRatio",
        "Overhead",
    ];

    /// Fields whose values embed ObjectMeta as objects do (pod and claim templates).
    const TEMPLATES: &[&str] = &["Template", "JobTemplate", "VolumeClaimTemplates"];

    /// Go names whose JSON name is not their Go name in lowerCamel case.
    const RENAMED: &[(&str, &str)] = &[
        ("ReportingController", "reportingComponent"),
        ("DeprecatedServiceAccount", "serviceAccount"),
    ];

    /// An object (or a template): its inline ObjectMeta fields as `metadata`, the rest by
    /// [`field`].
    pub fn object(map: Map<String, Value>) -> Map<String, Value> {
        let mut meta = Map::new();
        let mut out = Map::new();
        for (k, v) in map {
            if OBJECT_META.contains(&k.as_str()) {
                meta.insert(k, v);
            } else if let Some((k, v)) = field(k, v) {
                out.insert(k, v);
            }
        }
        if !meta.is_empty() {
            match out.get_mut("metadata") {
                Some(Value::Object(m)) => m.extend(meta),
                _ => {
                    out.insert("metadata".into(), Value::Object(meta));
                }
            }
        }
        if let Some(Value::Object(spec)) = out.get_mut("spec") {
            hoist_host_namespaces(spec);
        }
        out
    }

    /// A Go field as its JSON entry; `None` for a nil one. Fields of types with JSON
    /// names (ObjectMeta's, a label selector's) start in lower case and are kept as they are.
    fn field(k: String, v: Value) -> Option<(String, Value)> {
        if v.is_null() {
            return None;
        }
        if !k.starts_with(|c: char| c.is_ascii_uppercase()) {
            return Some((k, v));
        }
        let v = match (TEMPLATES.contains(&k.as_str()), v) {
            (_, v) if GO_MAPS.contains(&k.as_str()) => v,
            (true, Value::Object(m)) => Value::Object(object(m)),
            (true, Value::Array(items)) => Value::Array(
                items
                    .into_iter()
                    .map(|i| match i {
                        Value::Object(m) => Value::Object(object(m)),
                        other => other,
                    })
                    .collect(),
            ),
            (_, v) => value(v),
        };
        Some((json_name(&k), v))
    }

    fn value(v: Value) -> Value {
        match v {
            Value::Object(m) => {
                Value::Object(m.into_iter().filter_map(|(k, v)| field(k, v)).collect())
            }
            Value::Array(items) => Value::Array(items.into_iter().map(value).collect()),
            other => other,
        }
    }

    /// `NodeName` → `nodeName`, `HostIP` → `hostIP`, `UID` → `uid`, `QOSClass` → `qosClass`.
    pub fn json_name(go: &str) -> String {
        if let Some((_, json)) = RENAMED.iter().find(|(g, _)| *g == go) {
            return json.to_string();
        }
        let b = go.as_bytes();
        let upper = b.iter().take_while(|c| c.is_ascii_uppercase()).count();
        // The last capital of a leading acronym starts the next word.
        let lower = match b.get(upper) {
            Some(c) if upper > 1 && c.is_ascii_lowercase() => upper - 1,
            _ => upper,
        };
        let mut s = go[..lower].to_ascii_lowercase();
        s.push_str(&go[lower..]);
        s
    }

    /// Internal pods keep `hostNetwork`, `hostPID` and `hostIPC` in their security
    /// context; the API's in the pod's spec.
    fn hoist_host_namespaces(spec: &mut Map<String, Value>) {
        if let Some(Value::Object(template)) = spec.get_mut("template")
            && let Some(Value::Object(inner)) = template.get_mut("spec")
        {
            hoist_host_namespaces(inner);
        }
        let Some(Value::Object(ctx)) = spec.get_mut("securityContext") else {
            return;
        };
        let moved: Vec<(String, Value)> = ["hostNetwork", "hostPID", "hostIPC"]
            .iter()
            .filter_map(|k| ctx.remove(*k).map(|v| (k.to_string(), v)))
            .collect();
        spec.extend(moved);
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
        assert_eq!(
            out.objects[0].value()["data"]["password"],
            "<redacted> 7 bytes"
        );
    }

    #[test]
    fn secret_values_go_whatever_their_shape() {
        let out = run(
            "s.yaml",
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations:\n    openshift.io/token-secret.value: eyJhbGciOi\n    keep: me\ndata: aHVudGVyMg==\nstringData:\n- hunter2\nbinaryData:\n  blob: AAEC\n",
        );
        let v = out.objects[0].value();
        assert_eq!(v["data"], "<redacted>");
        assert_eq!(v["stringData"], "<redacted>");
        assert_eq!(v["binaryData"]["blob"], "<redacted> 3 bytes");
        let ann = v["metadata"]["annotations"].as_object().unwrap();
        assert_eq!(ann.keys().collect::<Vec<_>>(), ["keep"]);
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

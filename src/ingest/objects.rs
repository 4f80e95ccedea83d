//! Parsed documents → Kubernetes objects: List flattening, kind inference, kubelet
//! configz, secret scrubbing, and a problem for everything that is not an object.

use super::layout;
use super::parsed::{ParsedDoc, Span};
use serde_json::{Map, Value};

/// An object as found in a file, before de-duplication.
#[derive(Debug)]
pub struct RawObject {
    pub value: Value,
    pub span: Span,
    pub api_version: String,
    pub kind: String,
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
pub fn extract(path: &str, docs: Vec<ParsedDoc>) -> Extracted {
    let mut out = Extracted::default();
    for doc in docs {
        let ParsedDoc {
            value,
            span,
            item_spans,
        } = doc;
        match value {
            Value::Null => {} // empty document (`---` at the end of a file)
            Value::Array(items) => flatten(path, None, items, &item_spans, span, &mut out),
            Value::Object(map) => {
                if let Some(cfg) = map.get("kubeletconfig").filter(|_| map.len() <= 2) {
                    out.objects.push(kubelet_configz(path, cfg, span));
                    continue;
                }
                let kind = map.get("kind").and_then(Value::as_str).unwrap_or("");
                let is_list = (kind == "List" || kind.ends_with("List"))
                    || (kind.is_empty()
                        && map.get("items").is_some_and(Value::is_array)
                        && !has_name(&map));
                if is_list {
                    let list_type = list_item_type(&map);
                    let items = match map.into_iter().find(|(k, _)| k == "items") {
                        Some((_, Value::Array(items))) => items,
                        _ => Vec::new(),
                    };
                    flatten(path, list_type, items, &item_spans, span, &mut out);
                } else {
                    single(path, None, map, span, &mut out);
                }
            }
            other => out.defects.push(Defect {
                line: Some(span.start),
                message: format!(
                    "document is a {}, not a Kubernetes object",
                    type_name(&other)
                ),
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

fn has_name(map: &Map<String, Value>) -> bool {
    map.get("metadata")
        .and_then(|m| m.get("name"))
        .is_some_and(Value::is_string)
}

/// `PodList` in `v1` → items are `v1` `Pod`s.
fn list_item_type(map: &Map<String, Value>) -> Option<(String, String)> {
    let kind = map.get("kind")?.as_str()?;
    let item_kind = kind.strip_suffix("List").filter(|k| !k.is_empty())?;
    let api_version = map
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("v1");
    Some((api_version.to_string(), item_kind.to_string()))
}

fn flatten(
    path: &str,
    list_type: Option<(String, String)>,
    items: Vec<Value>,
    item_spans: &[Span],
    doc_span: Span,
    out: &mut Extracted,
) {
    for (i, item) in items.into_iter().enumerate() {
        let span = item_spans.get(i).copied().unwrap_or(doc_span);
        match item {
            Value::Object(map) => single(path, list_type.as_ref(), map, span, out),
            other => out.defects.push(Defect {
                line: Some(span.start),
                message: format!(
                    "list item {} is a {}, not an object",
                    i + 1,
                    type_name(&other)
                ),
            }),
        }
    }
}

fn single(
    path: &str,
    list_type: Option<&(String, String)>,
    mut map: Map<String, Value>,
    span: Span,
    out: &mut Extracted,
) {
    let own_kind = map
        .get("kind")
        .and_then(Value::as_str)
        .filter(|k| !k.is_empty());
    let own_api = map
        .get("apiVersion")
        .and_then(Value::as_str)
        .filter(|k| !k.is_empty());
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
                    let what = if map.contains_key("metadata") {
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
    let name_ok = map
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Value::as_str)
        .is_some_and(|n| !n.is_empty());
    if !name_ok && kind != "KubeletConfiguration" {
        out.defects.push(Defect {
            line: Some(span.start),
            message: format!("{kind} has no metadata.name"),
        });
        return;
    }
    if kind == "Secret" {
        scrub_secret(&mut map);
    }
    drop_last_applied(&mut map);
    if kind == "KubeletConfiguration" && !name_ok {
        let node = layout::node_from_path(path).unwrap_or_else(|| path.to_string());
        set_name(&mut map, &node);
    }
    map.insert("kind".into(), Value::String(kind.clone()));
    map.insert("apiVersion".into(), Value::String(api_version.clone()));
    out.objects.push(RawObject {
        value: Value::Object(map),
        span,
        api_version,
        kind,
    });
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
        ann.remove("kubectl.kubernetes.io/last-applied-configuration");
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
fn kubelet_configz(path: &str, cfg: &Value, span: Span) -> RawObject {
    let mut map = match cfg {
        Value::Object(m) => m.clone(),
        _ => Map::new(),
    };
    let node = layout::node_from_path(path).unwrap_or_else(|| path.to_string());
    set_name(&mut map, &node);
    map.insert("kind".into(), Value::String("KubeletConfiguration".into()));
    map.insert(
        "apiVersion".into(),
        Value::String("kubelet.config.k8s.io/v1beta1".into()),
    );
    RawObject {
        value: Value::Object(map),
        span,
        api_version: "kubelet.config.k8s.io/v1beta1".into(),
        kind: "KubeletConfiguration".into(),
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "mapping",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::yaml;

    fn run(path: &str, text: &str) -> Extracted {
        let (docs, err) = yaml::parse(text);
        assert!(err.is_none(), "{err:?}");
        extract(path, docs)
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
        assert_eq!(out.objects[0].value["data"]["password"], "<redacted>");
    }

    #[test]
    fn configz_attaches_to_node() {
        let (docs, _) =
            crate::ingest::json::parse("{\"kubeletconfig\": {\"cpuManagerPolicy\": \"static\"}}");
        let out = extract("mg/nodes/node-a/configz.json", docs);
        assert_eq!(out.objects[0].kind, "KubeletConfiguration");
        assert_eq!(out.objects[0].value["metadata"]["name"], "node-a");
    }
}

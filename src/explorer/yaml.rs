//! YAML output (`get -o yaml`, and the spec and status `describe` prints): an object's
//! own text from the bundle, dedented and without `managedFields`, or a small emitter.

use crate::kube::meta::LAST_APPLIED;
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::fmt::Write as _;

/// The object as YAML: its own text from the bundle when the bundle has it as YAML
/// (without `managedFields`, as kubectl prints it), else emitted from the parsed
/// object. Secrets, and any object whose text holds a token annotation (OpenShift writes
/// one on ServiceAccounts too), come from the parsed object, whose tokens ingest removed.
pub(super) fn object_yaml(snap: &Snapshot, id: ObjectId) -> String {
    let o = snap.object(id);
    if o.kind != "Secret" {
        let (file, span) = snap.source_of(id);
        let text = file.lines(span.start, span.end);
        let holds_token = text.contains(crate::ingest::objects::TOKEN_VALUE_ANNOTATION);
        // Characters a terminal must not get raw are written as escapes: by the emitter.
        let raw = text
            .chars()
            .any(|c| c != '\t' && c != '\r' && crate::parse::terminal::unsafe_in_lines(c));
        if !holds_token
            && !raw
            && let Some(y) = dedent_yaml(text)
        {
            return with_type_meta(y, o.value());
        }
    }
    object_yaml_of(o.value())
}

/// `v` as YAML from the emitter: every string that is not plain is double-quoted, with
/// control, DEL, C1 and bidi characters escaped (`\u202e`), valid YAML to a pipe or file
/// and safe on a terminal.
pub(super) fn object_yaml_of(v: &Value) -> String {
    let mut out = String::new();
    yaml_value(v, 0, &mut out);
    out
}

/// The object as `get -o json` prints it: the stored object with the last-applied
/// configuration the bundle wrote put back, as `-o yaml` (the bundle's text) keeps it
/// and kubectl prints it in both; ingest does not keep it in memory. Secrets stay as
/// ingest scrubbed them.
pub(super) fn object_json(snap: &Snapshot, id: ObjectId) -> Value {
    object_json_of(snap, id, snap.object(id).value().clone())
}

/// [`object_json`] from the object's tree `v`, already built.
pub(super) fn object_json_of(snap: &Snapshot, id: ObjectId, mut v: Value) -> Value {
    let o = snap.object(id);
    if o.kind == "Secret" {
        return v;
    }
    let written = written_last_applied(snap, id);
    if let (Some(last), Some(meta)) = (written, v.get_mut("metadata")) {
        let annotations = meta.as_object_mut().map(|m| {
            m.entry("annotations")
                .or_insert_with(|| Value::Object(Default::default()))
        });
        if let Some(Value::Object(a)) = annotations {
            a.insert(LAST_APPLIED.to_string(), last);
        }
    }
    v
}

/// The last-applied annotation in the object's own text: a JSON object read from where
/// it starts, YAML from its lines.
fn written_last_applied(snap: &Snapshot, id: ObjectId) -> Option<Value> {
    let o = snap.object(id);
    let (file, span) = snap.source_of(id);
    let at = |v: &Value| {
        v.pointer("/metadata/annotations")?
            .get(LAST_APPLIED)
            .cloned()
    };
    if let Some(start) = o.offset_in(file)
        && file.text[start..].starts_with('{')
    {
        // Only the annotations are read: the rest of the object is skipped, not built.
        #[derive(serde::Deserialize)]
        struct Annotated {
            metadata: Option<Annotations>,
        }
        #[derive(serde::Deserialize)]
        struct Annotations {
            annotations: Option<serde_json::Map<String, Value>>,
        }
        let mut values =
            serde_json::Deserializer::from_str(&file.text[start..]).into_iter::<Annotated>();
        let read = values.next()?.ok()?;
        return read.metadata?.annotations?.remove(LAST_APPLIED);
    }
    let lines = file.lines(span.start, span.end);
    if !lines.contains(LAST_APPLIED) {
        return None;
    }
    let text = dedent_yaml(lines)?;
    let (docs, _) = crate::parse::yaml::parse(&text);
    docs.first().and_then(|d| at(&d.value))
}

/// The object's text with the `apiVersion` and `kind` it lacks: the items of a `List`
/// (oc's `PodList`, a kubectl dump) are written without them, and kubectl prints every
/// object with both. Each goes before the first top-level key that sorts after it, where
/// kubectl's sorted keys put it.
fn with_type_meta(text: String, v: &Value) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for key in ["apiVersion", "kind"] {
        let Some(value) = v.get(key).and_then(Value::as_str) else {
            continue;
        };
        let top_key = |l: &str| {
            (!l.starts_with([' ', '-', '#']))
                .then(|| l.split_once(':').map(|(k, _)| k.to_string()))
                .flatten()
        };
        if lines.iter().any(|l| top_key(l).as_deref() == Some(key)) {
            continue;
        }
        let at = lines
            .iter()
            .position(|l| top_key(l).is_some_and(|k| k.as_str() > key))
            .unwrap_or(lines.len());
        lines.insert(at, format!("{key}: {}", yaml_scalar_str(value)));
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// A List item or document as a top-level document; `None` when the text is JSON.
fn dedent_yaml(text: &str) -> Option<String> {
    // The empty lines that follow the comment ingest left for a managedFields block go too.
    let mut in_gap = false;
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| {
            let t = l.trim();
            in_gap = t == crate::parse::fast_yaml::MANAGED_FIELDS_GAP || (in_gap && t.is_empty());
            t != "---" && t != "..." && !t.starts_with('#') && !in_gap
        })
        .collect();
    let first = lines.iter().find(|l| !l.trim().is_empty())?;
    let lead = first.len() - first.trim_start().len();
    let rest = &first[lead..];
    if rest.starts_with('{') || rest.starts_with('[') || rest.starts_with('"') {
        return None;
    }
    let item = rest.starts_with("- ");
    let width = lead + if item { 2 } else { 0 };
    let mut out = String::new();
    let mut skip_indent: Option<usize> = None;
    let mut first_done = false;
    for l in lines {
        let line = if !first_done && !l.trim().is_empty() {
            first_done = true;
            let t = &l[lead..];
            if item {
                t[2..].to_string()
            } else {
                t.to_string()
            }
        } else {
            let ws = l.len() - l.trim_start().len();
            l[ws.min(width)..].to_string()
        };
        // Drop metadata.managedFields (a key and everything deeper, or list items at its indent).
        let indent = line.len() - line.trim_start().len();
        if let Some(k) = skip_indent {
            if line.trim().is_empty()
                || indent > k
                || (indent == k && line.trim_start().starts_with("- "))
            {
                continue;
            }
            skip_indent = None;
        }
        if line.trim_start().starts_with("managedFields:") && indent == 2 {
            skip_indent = Some(indent);
            continue;
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    Some(out)
}

/// A small YAML emitter (block style; strings quoted JSON-style when plain would not
/// read back as the same string).
pub(super) fn yaml_value(v: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let _ = write!(out, "{pad}{}:", yaml_scalar_str(k));
                yaml_child(x, indent, out);
            }
        }
        Value::Array(a) => {
            for x in a {
                let _ = write!(out, "{pad}-");
                match x {
                    Value::Object(m) if !m.is_empty() => {
                        let mut inner = String::new();
                        yaml_value(x, indent + 2, &mut inner);
                        out.push(' ');
                        out.push_str(&inner[indent + 2..]);
                    }
                    Value::Array(a) if !a.is_empty() => {
                        out.push('\n');
                        yaml_value(x, indent + 2, out);
                    }
                    _ => {
                        out.push(' ');
                        out.push_str(&yaml_scalar(x));
                        out.push('\n');
                    }
                }
            }
        }
        _ => {
            let _ = writeln!(out, "{pad}{}", yaml_scalar(v));
        }
    }
}

fn yaml_child(x: &Value, indent: usize, out: &mut String) {
    match x {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            yaml_value(x, indent + 2, out);
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            yaml_value(x, indent, out);
        }
        _ => {
            out.push(' ');
            out.push_str(&yaml_scalar(x));
            out.push('\n');
        }
    }
}

fn yaml_scalar(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => yaml_scalar_str(s),
        Value::Object(_) => "{}".into(),
        Value::Array(_) => "[]".into(),
    }
}

fn yaml_scalar_str(s: &str) -> String {
    let plain = !s.is_empty()
        && s.trim() == s
        && !s.starts_with([
            '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%',
            '@', '`',
        ])
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && !s
            .chars()
            .any(|c| c.is_control() || crate::parse::terminal::unsafe_in_lines(c))
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | "null" | "~"
        )
        && s.parse::<f64>().is_err()
        && !s.starts_with("0x")
        && !s.starts_with("0o");
    if plain {
        s.to_string()
    } else {
        let quoted = serde_json::to_string(s).unwrap_or_default();
        crate::parse::terminal::json_escapes(&quoted).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn yaml_emitter() {
        let v =
            json!({"a": {"b": [1, {"c": "x: y", "d": []}], "e": "true"}, "f": "plain", "g": {}});
        let mut out = String::new();
        yaml_value(&v, 0, &mut out);
        assert_eq!(
            out,
            "a:\n  b:\n  - 1\n  - c: \"x: y\"\n    d: []\n  e: \"true\"\nf: plain\ng: {}\n"
        );
    }

    #[test]
    fn dedents_list_items_and_drops_managed_fields() {
        let item = "  - apiVersion: v1\n    kind: Pod\n    metadata:\n      managedFields:\n      - manager: kubelet\n        operation: Update\n      name: p\n    spec: {}";
        assert_eq!(
            dedent_yaml(item).unwrap(),
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec: {}\n"
        );
        assert_eq!(dedent_yaml("{\"kind\": \"Pod\"}"), None);
        // A List's item without its type gets it where kubectl's sorted keys have it.
        let item = "  - metadata:\n      name: p\n    spec: {}";
        let typed = json!({"apiVersion": "v1", "kind": "Pod"});
        assert_eq!(
            with_type_meta(dedent_yaml(item).unwrap(), &typed),
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec: {}\n"
        );
        let cm = "apiVersion: v1\ndata:\n  kind: x\nmetadata:\n  name: c\n";
        let typed = json!({"apiVersion": "v1", "kind": "ConfigMap"});
        assert_eq!(
            with_type_meta(cm.to_string(), &typed),
            "apiVersion: v1\ndata:\n  kind: x\nkind: ConfigMap\nmetadata:\n  name: c\n"
        );
        // The kept text (managedFields left as a comment and empty lines) reads the same;
        // an empty line inside a block scalar stays.
        let doc = "apiVersion: v1\nkind: Pod\nmetadata:\n  managedFields:\n  - manager: kubelet\n    operation: Update\n  name: p\n  annotations:\n    note: |\n      a\n\n      b\nspec: {}\n";
        let (_, managed) = crate::parse::fast_yaml::scan::<
            crate::ingest::header::Header<crate::ingest::header::ItemHeader>,
        >(doc)
        .unwrap();
        let (kept, _) = crate::parse::fast_yaml::compact(doc, &managed);
        assert_ne!(kept.as_str(), doc);
        assert_eq!(
            dedent_yaml(&kept).unwrap(),
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    note: |\n      a\n\n      b\nspec: {}\n"
        );
    }
}

//! `--format sarif`: SARIF 2.1.0 for code-scanning dashboards.
//!
//! One run; `tool.driver.rules` is the whole registry (id, summary, the rule's doc as
//! help, default level, stage); each finding is a result whose primary location is its
//! first evidence with a file and line (bundle-relative path under the `INPUTn` base of
//! the input it came from), whose other evidence are `relatedLocations`, and whose
//! `partialFingerprints` carry kdiag's fingerprint. With `--baseline`, results carry
//! `baselineState` (`new`, `unchanged`) and resolved findings appear as `absent`.
//! Ingest problems are tool notifications, not results: they never fail a run.

use super::Analysis;
use super::baseline::Comparison;
use crate::rules::{self, Evidence, Finding, Severity};
use serde_json::{Value, json};
use std::collections::HashMap;

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

pub fn render(a: &Analysis, baseline: Option<&Comparison>) -> String {
    let registry: Vec<&rules::RuleMeta> = rules::registry::all().collect();
    let index: HashMap<&str, usize> = registry
        .iter()
        .enumerate()
        .map(|(i, r)| (r.id, i))
        .collect();
    let rules_json: Vec<Value> = registry.iter().map(|r| rule(r)).collect();

    let mut results: Vec<Value> = a
        .findings
        .iter()
        .map(|f| {
            let mut r = result(f, index.get(f.rule).copied());
            if let Some(b) = baseline {
                r["baselineState"] = json!(if b.is_new(f) { "new" } else { "unchanged" });
            }
            r
        })
        .collect();
    if let Some(b) = baseline {
        for old in &b.resolved {
            results.push(resolved_result(old, &index));
        }
    }

    let base_ids: serde_json::Map<String, Value> = a
        .inputs
        .iter()
        .enumerate()
        .map(|(i, input)| {
            let mut loc = json!({
                "description": {"text": format!("input {i}: {} ({})", input.path, input.layout)}
            });
            // The folder's absolute path would name the machine's user: not when redacted.
            if let Some(uri) = dir_uri(&input.path).filter(|_| a.redactor.is_none()) {
                loc["uri"] = json!(uri);
            }
            (format!("INPUT{i}"), loc)
        })
        .collect();

    let notifications: Vec<Value> = a
        .problems
        .iter()
        .map(|p| {
            let mut n = json!({
                "level": "warning",
                "message": {"text": p.message},
                "descriptor": {"id": "kdiag/input-problem"},
            });
            if let Some(file) = &p.file {
                let mut region = json!({});
                if let Some(l) = p.line {
                    region = json!({"startLine": l});
                }
                let mut phys = json!({"artifactLocation": artifact(p.input, file)});
                if p.line.is_some() {
                    phys["region"] = region;
                }
                n["locations"] = json!([{"physicalLocation": phys}]);
            }
            n
        })
        .collect();

    let doc = json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "kdiag",
                "semanticVersion": env!("CARGO_PKG_VERSION"),
            }},
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications,
            }],
            "originalUriBaseIds": base_ids,
            "results": results,
            "columnKind": "unicodeCodePoints",
            "properties": {
                "inputs": a.inputs.iter().map(|i| json!({
                    "path": i.path, "layout": i.layout, "as_of": i.as_of,
                    "cluster_version": i.cluster_version, "objects": i.objects,
                    "platform": i.platform_line(),
                })).collect::<Vec<_>>(),
            },
        }],
    });
    // Every string of the bundle's is masked with `--redact`; the rules' text is kdiag's.
    let mut doc = a.mask_value(&doc).into_owned();
    doc["runs"][0]["tool"]["driver"]["rules"] = json!(rules_json);
    doc["$schema"] = json!(SCHEMA_URI);
    let mut s = serde_json::to_string_pretty(&doc).expect("sarif serializes");
    s.push('\n');
    s
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn rule(r: &rules::RuleMeta) -> Value {
    let doc = r.doc.lines().map(str::trim).collect::<Vec<_>>().join("\n");
    json!({
        "id": r.id,
        "name": rule_name(r.id),
        "shortDescription": {"text": r.summary()},
        "fullDescription": {"text": doc.trim()},
        "help": {"text": doc.trim()},
        "defaultConfiguration": {"level": level(r.severity)},
        "properties": {
            "stage": if r.fallback { "per-pod" } else { r.stage.as_str() },
            "tags": ["kubernetes", if r.fallback { "per-pod" } else { r.stage.as_str() }],
        },
    })
}

/// `kueue/quota-exceeds-capacity` → `KueueQuotaExceedsCapacity` (SARIF's rule `name`).
fn rule_name(id: &str) -> String {
    id.split(['/', '-'])
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn result(f: &Finding, rule_index: Option<usize>) -> Value {
    let located: Vec<&Evidence> = f
        .evidence
        .iter()
        .filter(|e| e.file.is_some() && e.input.is_some())
        .collect();
    let mut message = f.message.clone();
    if !f.help.is_empty() {
        message.push_str("\nhelp: ");
        message.push_str(&f.help);
    }
    let logical = json!([{
        "name": f.object.name,
        "fullyQualifiedName": qualified(&f.object),
        "kind": f.object.kind,
    }]);
    let mut locations = Vec::new();
    if let Some(first) = located.first() {
        let mut loc = physical(first);
        loc["logicalLocations"] = logical.clone();
        loc["message"] = json!({"text": first.note});
        locations.push(loc);
    } else {
        locations.push(json!({"logicalLocations": logical}));
    }
    let related: Vec<Value> = located
        .iter()
        .skip(1)
        .enumerate()
        .map(|(i, e)| {
            let mut loc = physical(e);
            loc["id"] = json!(i + 1);
            loc["message"] = json!({"text": e.note});
            loc
        })
        .collect();
    let unlocated: Vec<&str> = f
        .evidence
        .iter()
        .filter(|e| e.file.is_none() || e.input.is_none())
        .map(|e| e.note.as_str())
        .collect();
    let mut r = json!({
        "ruleId": f.rule,
        "level": level(f.severity),
        "message": {"text": message},
        "locations": locations,
        "partialFingerprints": {"kdiag/v1": f.fingerprint},
        "properties": {
            "stage": f.stage.as_str(),
            "object": f.object,
            "help": f.help,
        },
    });
    if let Some(i) = rule_index {
        r["ruleIndex"] = json!(i);
    }
    if !related.is_empty() {
        r["relatedLocations"] = json!(related);
    }
    if !unlocated.is_empty() {
        r["properties"]["evidence_without_location"] = json!(unlocated);
    }
    r
}

/// A finding of the baseline that this run no longer reports.
fn resolved_result(old: &Value, index: &HashMap<&str, usize>) -> Value {
    let rule = old
        .get("rule")
        .and_then(Value::as_str)
        .unwrap_or("kdiag/unknown");
    let sev = match old.get("severity").and_then(Value::as_str) {
        Some("error") => "error",
        Some("warning") => "warning",
        _ => "note",
    };
    let obj = old.get("object").cloned().unwrap_or(Value::Null);
    let s = |k: &str| obj.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let fqn = match obj.get("namespace").and_then(Value::as_str) {
        Some(ns) => format!("{}/{}/{}", s("kind"), ns, s("name")),
        None => format!("{}/{}", s("kind"), s("name")),
    };
    let mut r = json!({
        "ruleId": rule,
        "level": sev,
        "baselineState": "absent",
        "message": {"text": format!("resolved: {}", old.get("message").and_then(Value::as_str).unwrap_or(""))},
        "locations": [{"logicalLocations": [{"name": s("name"), "fullyQualifiedName": fqn, "kind": s("kind")}]}],
        "partialFingerprints": {"kdiag/v1": old.get("fingerprint").and_then(Value::as_str).unwrap_or("")},
    });
    if let Some(i) = index.get(rule) {
        r["ruleIndex"] = json!(i);
    }
    r
}

fn qualified(o: &crate::kube::meta::ObjectRef) -> String {
    match &o.namespace {
        Some(ns) => format!("{}/{}/{}", o.kind, ns, o.name),
        None => format!("{}/{}", o.kind, o.name),
    }
}

fn physical(e: &Evidence) -> Value {
    let file = e.file.as_deref().unwrap_or("");
    let mut phys = json!({"artifactLocation": artifact(e.input.unwrap_or(0), file)});
    if let Some(l) = e.line.filter(|l| *l >= 1) {
        phys["region"] = json!({"startLine": l});
    }
    json!({"physicalLocation": phys})
}

fn artifact(input: usize, file: &str) -> Value {
    json!({"uri": encode_uri_path(file), "uriBaseId": format!("INPUT{input}")})
}

/// Percent-encodes what a relative URI reference cannot hold as is; keeps `/` and `!`.
pub fn encode_uri_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=@".contains(&b) {
            out.push(b as char);
        } else if b == b':' && !out.is_empty() && out.contains('/') {
            out.push(':');
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `file:///abs/dir/` for an input that is a folder on disk (archives and stdin have none).
fn dir_uri(path: &str) -> Option<String> {
    let p = std::path::Path::new(path);
    if !p.is_dir() {
        return None;
    }
    let abs = std::fs::canonicalize(p).ok()?;
    let s = abs.to_str()?;
    let mut uri = format!("file://{}", encode_uri_path(s));
    if !uri.ends_with('/') {
        uri.push('/');
    }
    Some(uri)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_uris() {
        assert_eq!(
            rule_name("kueue/quota-exceeds-capacity"),
            "KueueQuotaExceedsCapacity"
        );
        assert_eq!(
            encode_uri_path("case.zip!/must gather/ns:x/pods.yaml"),
            "case.zip!/must%20gather/ns:x/pods.yaml"
        );
        assert_eq!(encode_uri_path("a:b"), "a%3Ab");
    }
}

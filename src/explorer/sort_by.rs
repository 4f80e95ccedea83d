//! `kdiag get --sort-by`: kubectl's JSONPath sort key (`.metadata.name`,
//! `{.metadata.creationTimestamp}`, `.status.containerStatuses[0].restartCount`).
//! Numbers compare as numbers, strings as strings (RFC 3339 times sort in time order),
//! objects without the field come first, and ties keep the listing order.

use super::jsonpath::{JsonPath, Num, number};
use serde_json::Value;
use std::cmp::Ordering;

/// Parses a sort key as kubectl takes it: with or without `{}` and the leading dot.
pub(super) fn parse_sort_by(text: &str) -> Result<JsonPath, String> {
    let inner = text
        .trim()
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .unwrap_or(text.trim());
    let relaxed = if inner.starts_with('.') || inner.starts_with('$') {
        inner.to_string()
    } else {
        format!(".{inner}")
    };
    JsonPath::parse(&relaxed).map_err(|e| format!("--sort-by {text:?}: {e}"))
}

/// The first value the key selects in `v`, if any.
pub(super) fn sort_key(path: &JsonPath, v: &Value) -> Option<Value> {
    path.find(v)
        .ok()
        .and_then(|found| found.into_iter().next())
        .map(|c| c.into_owned())
        .filter(|v| !v.is_null())
}

/// kubectl's order of two sort keys.
pub(super) fn compare(a: &Option<Value>, b: &Option<Value>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(a), Some(b)) => compare_values(a, b),
    }
}

fn compare_values(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => as_f64(x).total_cmp(&as_f64(y)),
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        _ => a.to_string().cmp(&b.to_string()),
    }
}

fn as_f64(n: &serde_json::Number) -> f64 {
    match number(n) {
        Num::Int(i) => i as f64,
        Num::Uint(u) => u as f64,
        Num::Float(f) => f,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_and_order() {
        let p = parse_sort_by("{.status.containerStatuses[0].restartCount}").unwrap();
        let a = json!({"status": {"containerStatuses": [{"restartCount": 10}]}});
        let b = json!({"status": {"containerStatuses": [{"restartCount": 9}]}});
        let none = json!({"status": {}});
        let (ka, kb, kn) = (sort_key(&p, &a), sort_key(&p, &b), sort_key(&p, &none));
        assert_eq!(compare(&kb, &ka), Ordering::Less, "9 before 10: numbers");
        assert_eq!(compare(&kn, &kb), Ordering::Less, "missing first");
        let p = parse_sort_by("metadata.name").unwrap();
        assert_eq!(
            sort_key(&p, &json!({"metadata": {"name": "x"}})),
            Some(json!("x"))
        );
        assert!(parse_sort_by(".a[").is_err());
    }
}

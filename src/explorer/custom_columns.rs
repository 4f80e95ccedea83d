//! `get -o custom-columns=HEADER:PATH,…`: kubectl's custom-columns printer
//! (kubectl/pkg/cmd/get/customcolumn.go). Each PATH is relaxed as kubectl relaxes it
//! (`.a.b`, `a.b`, `{.a.b}` are the same) and run as a JSONPath template on each
//! object; a cell is every value found, printed as Go's `fmt.Sprint` prints it and
//! joined by `,`, or `<none>` when nothing is found. A path that does not parse is
//! refused with the parser's words alone, as kubectl's printer returns them.

use super::jsonpath_template::Template;
use super::printer_columns::go_float;
use serde_json::Value;

/// A parsed column list.
pub(super) struct CustomColumns {
    columns: Vec<(String, Template)>,
}

impl CustomColumns {
    /// kubectl's `NewCustomColumnsPrinterFromSpec`; errors worded as kubectl's.
    pub fn parse(spec: &str) -> Result<CustomColumns, String> {
        if spec.is_empty() {
            return Err("custom-columns format specified but no custom columns given".into());
        }
        let mut columns = Vec::new();
        for part in spec.split(',') {
            let Some((header, path)) = part.split_once(':') else {
                return Err(format!(
                    "unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
                ));
            };
            columns.push((header.to_string(), Template::parse_bare(&relaxed(path)?)?));
        }
        Ok(CustomColumns { columns })
    }

    /// The header and one row per object; `escape` makes each value safe to print.
    pub fn rows(
        &self,
        objects: &[Value],
        escape: impl Fn(&str) -> String,
    ) -> Result<(Vec<String>, Vec<Vec<String>>), String> {
        let header = self.columns.iter().map(|(h, _)| h.clone()).collect();
        let mut rows = Vec::new();
        for o in objects {
            let mut row = Vec::new();
            for (_, t) in &self.columns {
                let found = t.find(o)?;
                let values: Vec<String> =
                    found.iter().flatten().map(|v| escape(&sprint(v))).collect();
                row.push(if found.first().is_none_or(Vec::is_empty) {
                    "<none>".to_string()
                } else {
                    values.join(",")
                });
            }
            rows.push(row);
        }
        Ok((header, rows))
    }
}

/// kubectl's `RelaxedJSONPathExpression`: `^\{\.?([^{}]+)\}$|^\.?([^{}]+)$` to `{.…}`.
fn relaxed(path: &str) -> Result<String, String> {
    if path.is_empty() {
        return Ok(String::new());
    }
    let bad = || {
        "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'".to_string()
    };
    let braced = path.strip_prefix('{').and_then(|p| p.strip_suffix('}'));
    let text = braced.unwrap_or(path);
    // The regexp's `\.?` gives the dot back when nothing else would match.
    let inner = match text.strip_prefix('.') {
        Some(rest) if !rest.is_empty() => rest,
        _ => text,
    };
    if inner.is_empty() || inner.contains(['{', '}']) {
        return Err(bad());
    }
    Ok(format!("{{.{inner}}}"))
}

/// Go's `fmt.Sprint` of a decoded JSON value: `map[k:v …]` (keys sorted), `[a b]`,
/// `<nil>`.
fn sprint(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::String(s) => s.clone(),
        Value::Number(n) => match super::jsonpath::number(n) {
            super::jsonpath::Num::Int(i) => i.to_string(),
            super::jsonpath::Num::Uint(u) => u.to_string(),
            super::jsonpath::Num::Float(f) => go_float(f),
        },
        Value::Array(a) => format!("[{}]", a.iter().map(sprint).collect::<Vec<_>>().join(" ")),
        Value::Object(m) => {
            let mut kv: Vec<(&String, &Value)> = m.iter().collect();
            kv.sort_by(|a, b| a.0.cmp(b.0));
            let inner: Vec<String> = kv
                .iter()
                .map(|(k, v)| format!("{k}:{}", sprint(v)))
                .collect();
            format!("map[{}]", inner.join(" "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cells_as_kubectl_prints_them() {
        let objects = [
            json!({"metadata": {"name": "a", "labels": {"z": "1", "app": "web"}}, "spec": {"nodeName": "n1", "containers": [{"name": "c1"}, {"name": "c2"}]}}),
            json!({"metadata": {"name": "b"}, "spec": {"containers": [{"name": "c"}], "n": 2.5}}),
        ];
        let cc = CustomColumns::parse(
            "NAME:.metadata.name,NODE:spec.nodeName,C:{.spec.containers[*].name},L:.metadata.labels,N:.spec.n",
        )
        .unwrap();
        let (header, rows) = cc.rows(&objects, |s| s.to_string()).unwrap();
        assert_eq!(header, ["NAME", "NODE", "C", "L", "N"]);
        assert_eq!(rows[0], ["a", "n1", "c1,c2", "map[app:web z:1]", "<none>"]);
        assert_eq!(rows[1], ["b", "<none>", "c", "<none>", "2.5"]);
    }

    #[test]
    fn bad_specs_are_worded_as_kubectl() {
        assert_eq!(
            CustomColumns::parse("NAME").err().unwrap(),
            "unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>"
        );
        assert!(
            CustomColumns::parse("A:{.a}}")
                .err()
                .unwrap()
                .starts_with("unexpected path string")
        );
        assert_eq!(
            CustomColumns::parse("").err().unwrap(),
            "custom-columns format specified but no custom columns given"
        );
        assert!(
            CustomColumns::parse("A:.b[")
                .err()
                .unwrap()
                .starts_with("unterminated array")
        );
    }
}

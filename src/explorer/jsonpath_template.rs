//! `get -o jsonpath=TEMPLATE`: kubectl's JSONPath template (k8s.io/client-go/util/jsonpath
//! `Parse`, `FindResults`, `PrintResults`). Text outside `{…}` is printed as it is; each
//! action is a [`JsonPath`] whose results are printed space-separated (strings as they
//! are, lists and objects as compact JSON); `{range EXPR}…{end}` repeats what is between
//! for each result, as upstream runs it (an unclosed `range` runs to the end of the
//! template). `..` and `*` visit an object's keys in order, where kubectl walks them in
//! Go's random map order. Missing keys select nothing, as kubectl's `--allow-missing-template-keys`
//! defaults to. The same template reads a custom column (`custom_columns.rs`).

use super::jsonpath::JsonPath;
use super::printer_columns::as_text;
use serde_json::Value;
use std::borrow::Cow;

/// A parsed template: text and actions in order.
pub(super) struct Template {
    raw: String,
    items: Vec<Item>,
}

enum Item {
    Text(String),
    Action(JsonPath),
}

/// The results of each text or action run, in order (upstream's `[][]reflect.Value`).
pub(super) type Results<'a> = Vec<Vec<Cow<'a, Value>>>;

impl Template {
    /// Upstream's `Parse`; an error is worded as kubectl words it.
    pub fn parse(raw: &str) -> Result<Template, String> {
        Template::parse_bare(raw).map_err(|e| format!("error parsing jsonpath {raw}, {e}"))
    }

    /// Upstream's `Parse` with its own words alone.
    pub fn parse_bare(raw: &str) -> Result<Template, String> {
        parse_items(raw).map(|items| Template {
            raw: raw.to_string(),
            items,
        })
    }

    /// Upstream's `FindResults` on `data`.
    pub fn find<'a>(&self, data: &'a Value) -> Result<Results<'a>, String> {
        Run::default().find(&self.items, 0, Cow::Borrowed(data))
    }

    /// Upstream's `Execute`: each result printed, a space between the results of one
    /// action. Values from the bundle pass through `escape` (the template's own text
    /// does not). An error is worded as kubectl's printer words it.
    pub fn execute(&self, data: &Value, escape: impl Fn(&str) -> String) -> Result<String, String> {
        let results = self.find(data).map_err(|e| {
            format!(
                "error executing jsonpath {:?}: Error executing template: {e}",
                self.raw
            )
        })?;
        let mut out = String::new();
        for group in &results {
            // The template's own text and quoted literals are the only owned strings.
            let literal = matches!(group.as_slice(), [Cow::Owned(Value::String(_))]);
            for (i, v) in group.iter().enumerate() {
                let text = as_text(v);
                out.push_str(&if literal { text } else { escape(&text) });
                if i + 1 < group.len() {
                    out.push(' ');
                }
            }
        }
        Ok(out)
    }
}

/// The template's text and actions (upstream's `parseText` and `parseLeftDelim`).
fn parse_items(raw: &str) -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    let mut pos = 0;
    while let Some(open) = raw[pos..].find('{') {
        if open > 0 {
            items.push(Item::Text(raw[pos..pos + open].to_string()));
        }
        let (action, next) = JsonPath::parse_action(raw, pos + open + 1)?;
        items.push(Item::Action(action));
        pos = next;
    }
    if pos < raw.len() {
        items.push(Item::Text(raw[pos..].to_string()));
    }
    Ok(items)
}

/// Upstream's range bookkeeping (`beginRange`, `inRange`, `endRange`, `lastEndNode`).
#[derive(Default)]
struct Run {
    begin: usize,
    in_range: usize,
    end: usize,
    last_end: Option<usize>,
}

impl Run {
    /// The results of `items[from..]` on `data`, stopping at the `end` of the range
    /// being run.
    fn find<'a>(
        &mut self,
        items: &[Item],
        from: usize,
        data: Cow<'a, Value>,
    ) -> Result<Results<'a>, String> {
        let mut full = Vec::new();
        let mut i = from;
        while i < items.len() {
            let results = match &items[i] {
                Item::Text(t) => vec![Cow::Owned(Value::String(t.clone()))],
                Item::Action(a) => {
                    if a.has_ident("range") {
                        self.begin += 1;
                    }
                    if a.has_ident("end") {
                        if self.in_range == 0 {
                            return Err("not in range, nothing to end".into());
                        }
                        self.end += 1;
                    }
                    a.find_in(vec![data.clone()])?
                }
            };
            if self.end > 0 && self.end <= self.in_range {
                self.end -= 1;
                self.last_end = Some(i);
                break;
            }
            if self.begin > 0 {
                self.begin -= 1;
                self.in_range += 1;
                if results.is_empty() {
                    // Run the body on nothing, to find its `end`.
                    self.find(items, i + 1, Cow::Owned(Value::Null))?;
                } else {
                    for v in results {
                        full.extend(self.find(items, i + 1, v)?);
                    }
                }
                self.in_range -= 1;
                if let Some(k) = self.last_end.filter(|&k| k > i) {
                    i = k;
                }
                i += 1;
                continue;
            }
            full.push(results);
            i += 1;
        }
        Ok(full)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(t: &str, v: &Value) -> Result<String, String> {
        Template::parse(t)?.execute(v, |s| s.to_string())
    }

    fn list() -> Value {
        json!({"kind": "List", "items": [
            {"metadata": {"name": "a"}, "spec": {"nodeName": "n1"}, "status": {"conditions": [
                {"type": "Ready", "status": "True"}, {"type": "PodScheduled", "status": "True"}]}},
            {"metadata": {"name": "b"}, "status": {"conditions": [{"type": "Ready", "status": "False"}]}},
        ]})
    }

    #[test]
    fn text_actions_and_ranges() {
        let v = list();
        assert_eq!(run("{.items[*].metadata.name}", &v).unwrap(), "a b");
        assert_eq!(run("kind is {.kind}", &v).unwrap(), "kind is List");
        assert_eq!(
            run(
                r#"{range .items[*]}{.metadata.name}{"\t"}{.spec.nodeName}{"\n"}{end}"#,
                &v
            )
            .unwrap(),
            "a\tn1\nb\t\n"
        );
        assert_eq!(
            run(
                r#"{range .items[*]}{.metadata.name}:{.status.conditions[?(@.type=="Ready")].status} {end}"#,
                &v
            )
            .unwrap(),
            "a:True b:False "
        );
        // Nested ranges, and the text after the outer `end`.
        assert_eq!(
            run(
                "{range .items[*]}[{range .status.conditions[*]}{.type},{end}]{end}.",
                &v
            )
            .unwrap(),
            "[Ready,PodScheduled,][Ready,]."
        );
        assert_eq!(run("{.items[-1:].metadata.name}", &v).unwrap(), "b");
        assert_eq!(run("{.items[0].spec}", &v).unwrap(), r#"{"nodeName":"n1"}"#);
        assert_eq!(run("{..nodeName}", &v).unwrap(), "n1");
        assert_eq!(run("{.nothing}", &v).unwrap(), "");
        // An empty range still finds its end.
        assert_eq!(run("{range .none[*]}x{end}y", &v).unwrap(), "y");
    }

    #[test]
    fn errors_are_worded_as_kubectl() {
        let v = list();
        assert_eq!(
            run("{.items[", &v).unwrap_err(),
            "error parsing jsonpath {.items[, unterminated array"
        );
        assert_eq!(
            run("{.kind", &v).unwrap_err(),
            "error parsing jsonpath {.kind, unclosed action"
        );
        assert_eq!(
            run("{end}", &v).unwrap_err(),
            "error executing jsonpath \"{end}\": Error executing template: not in range, nothing to end"
        );
        assert_eq!(
            run("{.items[5]}", &v).unwrap_err(),
            "error executing jsonpath \"{.items[5]}\": Error executing template: array index out of bounds: index 5, length 2"
        );
        assert!(
            run("{.a bogus}", &v)
                .unwrap_err()
                .contains("unrecognized identifier bogus")
        );
    }
}

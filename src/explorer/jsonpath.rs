//! kubectl's JSONPath (k8s.io/client-go/util/jsonpath), the subset a CRD's
//! `additionalPrinterColumns` use: `.a.b` (with `\.` for a dot inside a key), `.*`,
//! `..a`, `[0]`, `[-1]`, `[1:3]`, `[*]`, `['key']`, unions `[0,2]`, and filters
//! `[?(@.type=="Available")]` with `==` `!=` `<` `>` `<=` `>=` or existence
//! (`[?(@.reason)]`). Missing keys are no result, never an error, as the API server's
//! table printer asks (`AllowMissingKeys(true)`); what upstream reports as an error
//! (an index out of range, a filter over a non-list, comparing a string with a number)
//! is an error here too, and the caller shows an empty cell for it.
//!
//! Inside a template's `{…}` (`jsonpath_template.rs`, for `get -o jsonpath`) the action
//! ends at its `}`, and the identifiers `range` and `end` are read. Left out: walking
//! into a string's bytes (`..` and `.*` visit objects and lists only). Objects are
//! visited in key order.

use serde_json::{Number, Value};
use std::borrow::Cow;

/// A parsed expression: the steps applied in turn to the object.
#[derive(Debug)]
pub(super) struct JsonPath(Vec<Node>);

#[derive(Debug)]
enum Node {
    Field(String),
    Wildcard,
    Recursive,
    Slice([Param; 3]),
    Union(Vec<Vec<Node>>),
    Filter(Box<Filter>),
    Text(String),
    /// `range` or `end` of a template, or an identifier upstream only refuses when run.
    Ident(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

/// One of `start:end:step`; `derived` marks the end of a plain index (`[3]` is `3:4`).
#[derive(Debug, Clone, Copy, Default)]
struct Param {
    known: bool,
    value: i64,
    derived: bool,
}

#[derive(Debug)]
struct Filter {
    left: Vec<Node>,
    op: String,
    right: Vec<Node>,
}

impl JsonPath {
    /// Parses a column's `jsonPath` (the text the API server wraps in `{…}`).
    pub fn parse(text: &str) -> Result<JsonPath, String> {
        Parser::new(text).list().map(JsonPath)
    }

    /// Parses the action of a template that starts at byte `pos` of `text` (after its
    /// `{`), up to its `}`; returns the action and the byte after the `}`.
    pub fn parse_action(text: &str, pos: usize) -> Result<(JsonPath, usize), String> {
        let mut p = Parser {
            s: text,
            pos,
            action: true,
        };
        let nodes = p.list()?;
        Ok((JsonPath(nodes), p.pos))
    }

    /// Every value the expression selects from each of `input`, in order.
    pub fn find_in<'a>(&self, input: Vec<Cow<'a, Value>>) -> Result<Vec<Cow<'a, Value>>, String> {
        eval_list(input, &self.0)
    }

    /// Whether the action holds the identifier `name` (`range`, `end`).
    pub fn has_ident(&self, name: &str) -> bool {
        self.0
            .iter()
            .any(|n| matches!(n, Node::Ident(i) if i == name))
    }

    /// Every value the expression selects, in order.
    pub fn find<'a>(&self, v: &'a Value) -> Result<Vec<Cow<'a, Value>>, String> {
        eval_list(vec![Cow::Borrowed(v)], &self.0)
    }
}

struct Parser<'s> {
    s: &'s str,
    pos: usize,
    /// In a template's `{…}`: ends at `}`, reads identifiers.
    action: bool,
}

fn is_terminator(c: Option<char>) -> bool {
    matches!(
        c,
        None | Some(' ' | '\t' | '\r' | '\n' | '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}')
    )
}

impl<'s> Parser<'s> {
    fn new(s: &'s str) -> Parser<'s> {
        Parser {
            s,
            pos: 0,
            action: false,
        }
    }

    fn rest(&self) -> &str {
        &self.s[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// The nodes up to the end of the text (upstream's `parseInsideAction` loop).
    fn list(&mut self) -> Result<Vec<Node>, String> {
        let mut nodes = Vec::new();
        loop {
            if self.rest().starts_with("[?(") {
                self.pos += 3;
                nodes.push(self.filter()?);
                continue;
            }
            if self.rest().starts_with("..") {
                if matches!(nodes.last(), Some(Node::Recursive)) {
                    return Err("invalid multiple recursive descent".into());
                }
                self.pos += 2;
                nodes.push(Node::Recursive);
                if self.peek().is_some_and(is_alphanumeric) {
                    nodes.push(self.field());
                }
                continue;
            }
            match self.bump() {
                None if self.action => return Err("unclosed action".into()),
                None => return Ok(nodes),
                Some('}') if self.action => return Ok(nodes),
                Some('\r' | '\n') => return Err("unclosed action".into()),
                Some(' ' | '@' | '$') => {}
                Some('[') => self.array(&mut nodes)?,
                Some(q @ ('"' | '\'')) => nodes.push(Node::Text(self.quoted(q)?)),
                Some('.') => nodes.push(self.field()),
                Some(c) if c == '+' || c == '-' || c.is_ascii_digit() => {
                    self.pos -= 1;
                    nodes.push(self.number()?);
                }
                Some(c) if is_alphanumeric(c) => {
                    self.pos -= c.len_utf8();
                    let start = self.pos;
                    while !is_terminator(self.peek()) {
                        self.bump();
                    }
                    match &self.s[start..self.pos] {
                        "true" => nodes.push(Node::Bool(true)),
                        "false" => nodes.push(Node::Bool(false)),
                        other if self.action => nodes.push(Node::Ident(other.into())),
                        other => return Err(format!("unsupported identifier {other:?}")),
                    }
                }
                Some(c) => return Err(format!("unrecognized character in action: {c:?}")),
            }
        }
    }

    /// A key up to the next unescaped terminator; every backslash is dropped.
    fn field(&mut self) -> Node {
        let mut name = String::new();
        loop {
            match self.peek() {
                Some('\\') => {
                    self.bump();
                    if let Some(c) = self.bump() {
                        name.push(c);
                    }
                }
                c if is_terminator(c) => break,
                Some(c) => {
                    self.bump();
                    name.push(c);
                }
                None => break,
            }
        }
        if name == "*" {
            Node::Wildcard
        } else {
            Node::Field(name)
        }
    }

    fn number(&mut self) -> Result<Node, String> {
        let start = self.pos;
        if matches!(self.peek(), Some('+' | '-')) {
            self.bump();
        }
        while self.peek().is_some_and(|c| c == '.' || c.is_ascii_digit()) {
            self.bump();
        }
        let t = &self.s[start..self.pos];
        if let Ok(i) = t.parse::<i64>() {
            return Ok(Node::Int(i));
        }
        t.parse::<f64>()
            .map(Node::Float)
            .map_err(|_| format!("cannot parse number {t}"))
    }

    /// A quoted string; the opening quote is consumed.
    fn quoted(&mut self, q: char) -> Result<String, String> {
        let start = self.pos;
        loop {
            match self.bump() {
                None | Some('\n') => return Err("unterminated quoted string".into()),
                Some(c) if c == q && !self.s[..self.pos - 1].ends_with('\\') => break,
                Some(_) => {}
            }
        }
        unquote(&self.s[start..self.pos - 1], q)
    }

    /// `[…]` after its `[`: an index or slice, `*`, `'key'`, or a union of those.
    fn array(&mut self, nodes: &mut Vec<Node>) -> Result<(), String> {
        let start = self.pos;
        loop {
            match self.bump() {
                None | Some('\n') => return Err("unterminated array".into()),
                Some(']') => break,
                Some(_) => {}
            }
        }
        let mut text = &self.s[start..self.pos - 1];
        if text == "*" {
            text = ":";
        }
        if text.contains(',') {
            let mut members = Vec::new();
            for part in text.split(',') {
                let inner = format!("[{}]", part.trim_matches(' '));
                members.push(Parser::new(&inner).list()?);
            }
            nodes.push(Node::Union(members));
            return Ok(());
        }
        if let Some(key) = text
            .strip_prefix('\'')
            .and_then(|t| t.strip_suffix('\''))
            .filter(|k| !k.contains('\''))
        {
            let inner = format!(".{key}");
            nodes.extend(Parser::new(&inner).list()?);
            return Ok(());
        }
        nodes.push(Node::Slice(slice_params(text)?));
        Ok(())
    }

    /// `[?(…)]` after its `[?(`: `left OP right`, or `left` alone (exists).
    fn filter(&mut self) -> Result<Node, String> {
        let start = self.pos;
        let (mut begin, mut end, mut pair) = (false, false, '"');
        loop {
            match self.bump() {
                None | Some('\n') => return Err("unterminated filter".into()),
                Some(c @ ('"' | '\'')) => {
                    if !begin {
                        begin = true;
                        pair = c;
                    } else if c == pair && !self.s[..self.pos - 1].ends_with('\\') {
                        end = true;
                    }
                }
                Some(')') if begin == end => break,
                Some(_) => {}
            }
        }
        let text = &self.s[start..self.pos - 1];
        if self.bump() != Some(']') {
            return Err("unclosed array expect ]".into());
        }
        let parse = |t: &str| Parser::new(t).list();
        // Upstream's `^([^!<>=]+)([!<>=]+)(.+?)$`.
        let op_chars = |c: char| matches!(c, '!' | '<' | '>' | '=');
        let split = text.find(op_chars).filter(|&i| i > 0).and_then(|i| {
            let len = text[i..].find(|c| !op_chars(c))?;
            Some((i, i + len))
        });
        Ok(Node::Filter(Box::new(match split {
            Some((a, b)) => Filter {
                left: parse(&text[..a])?,
                op: text[a..b].to_string(),
                right: parse(&text[b..])?,
            },
            None => Filter {
                left: parse(text)?,
                op: "exists".into(),
                right: Vec::new(),
            },
        })))
    }
}

fn is_alphanumeric(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// `start:end:step` as upstream's `^(-?\d*)(:-?\d*)?(:-?\d*)?$` reads it.
fn slice_params(text: &str) -> Result<[Param; 3], String> {
    let parts: Vec<&str> = text.split(':').collect();
    let num_ok = |s: &str| {
        let d = s.strip_prefix('-').unwrap_or(s);
        d.bytes().all(|b| b.is_ascii_digit())
    };
    if parts.len() > 3 || !parts.iter().all(|p| num_ok(p)) {
        return Err(format!("invalid array index {text}"));
    }
    let int = |s: &str| {
        s.parse::<i64>()
            .map_err(|_| format!("array index {s} is not a number"))
    };
    let mut params = [Param::default(); 3];
    if !parts[0].is_empty() {
        params[0] = Param {
            known: true,
            value: int(parts[0])?,
            derived: false,
        };
    }
    match parts.get(1) {
        None => {
            params[1] = Param {
                known: true,
                value: params[0].value + 1,
                derived: true,
            }
        }
        Some(&"") => {}
        Some(s) => params[1] = Param::known(int(s)?),
    }
    if let Some(s) = parts.get(2).filter(|s| !s.is_empty()) {
        params[2] = Param::known(int(s)?);
    }
    Ok(params)
}

impl Param {
    fn known(value: i64) -> Param {
        Param {
            known: true,
            value,
            derived: false,
        }
    }
}

/// Go's `strconv.UnquoteChar` escapes, for either quote.
fn unquote(s: &str, q: char) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = chars.next().ok_or("unquote: trailing backslash")?;
        let hex = |n: usize, chars: &mut std::str::Chars| -> Result<char, String> {
            let h: String = chars.by_ref().take(n).collect();
            u32::from_str_radix(&h, 16)
                .ok()
                .filter(|_| h.len() == n)
                .and_then(char::from_u32)
                .ok_or_else(|| format!("unquote: bad escape \\{e}{h}"))
        };
        out.push(match e {
            'a' => '\u{7}',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\u{b}',
            '\\' => '\\',
            c if c == q => c,
            'x' => hex(2, &mut chars)?,
            'u' => hex(4, &mut chars)?,
            'U' => hex(8, &mut chars)?,
            other => return Err(format!("unquote: unknown escape \\{other}")),
        });
    }
    Ok(out)
}

type Vals<'a> = Vec<Cow<'a, Value>>;

/// A borrowed value's borrowed view (literals have no children).
fn borrowed<'a>(v: &Cow<'a, Value>) -> Option<&'a Value> {
    match v {
        Cow::Borrowed(b) => Some(b),
        Cow::Owned(_) => None,
    }
}

fn eval_list<'a>(mut cur: Vals<'a>, nodes: &[Node]) -> Result<Vals<'a>, String> {
    for n in nodes {
        cur = eval(cur, n)?;
    }
    Ok(cur)
}

fn eval<'a>(input: Vals<'a>, node: &Node) -> Result<Vals<'a>, String> {
    let each_literal = |v: Value| input.iter().map(|_| Cow::Owned(v.clone())).collect();
    Ok(match node {
        Node::Text(t) => vec![Cow::Owned(Value::String(t.clone()))],
        Node::Int(i) => each_literal(Value::from(*i)),
        Node::Float(f) => each_literal(Number::from_f64(*f).map_or(Value::Null, Value::Number)),
        Node::Bool(b) => each_literal(Value::Bool(*b)),
        // Upstream's `evalIdentifier`: `range` passes its input on; the template runs
        // `end` (which selects nothing).
        Node::Ident(i) if i == "range" => input,
        Node::Ident(i) if i == "end" => Vec::new(),
        Node::Ident(i) => return Err(format!("unrecognized identifier {i}")),
        Node::Field(key) => input
            .iter()
            .filter_map(|v| borrowed(v)?.as_object()?.get(key))
            .map(Cow::Borrowed)
            .collect(),
        Node::Wildcard => input
            .iter()
            .filter_map(borrowed)
            .flat_map(children)
            .map(Cow::Borrowed)
            .collect(),
        Node::Recursive => {
            let mut out = Vec::new();
            for v in input.iter().filter_map(borrowed) {
                descend(v, &mut out);
            }
            out.into_iter().map(Cow::Borrowed).collect()
        }
        Node::Union(members) => {
            let mut out = Vec::new();
            for m in members {
                out.extend(eval_list(input.clone(), m)?);
            }
            out
        }
        Node::Slice(params) => slice(input, params)?,
        Node::Filter(f) => filter(input, f)?,
    })
}

fn children(v: &Value) -> Vec<&Value> {
    match v {
        Value::Object(m) => m.values().collect(),
        Value::Array(a) => a.iter().collect(),
        _ => Vec::new(),
    }
}

/// Upstream's `..`: each object or list that has children, then theirs, depth first.
fn descend<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
    let kids = children(v);
    if kids.is_empty() {
        return;
    }
    out.push(v);
    for k in kids {
        descend(k, out);
    }
}

fn slice<'a>(input: Vals<'a>, params: &[Param; 3]) -> Result<Vals<'a>, String> {
    let mut out = Vec::new();
    for v in &input {
        let a = match v.as_ref() {
            Value::Null => continue,
            Value::Array(_) => match borrowed(v).and_then(Value::as_array) {
                Some(a) => a,
                None => continue,
            },
            other => return Err(format!("{} is not array or slice", type_name(other))),
        };
        let len = a.len() as i64;
        let [p0, p1, p2] = *params;
        let mut start = if p0.known { p0.value } else { 0 };
        if start < 0 {
            start += len;
        }
        let mut end = if p1.known { p1.value } else { len };
        if p1.known && (p1.value < 0 || (p1.value == 0 && p1.derived)) {
            end += len;
        }
        if start == end {
            return Ok(out);
        }
        if start >= len || start < 0 {
            return Err(format!(
                "array index out of bounds: index {start}, length {len}"
            ));
        }
        if end > len || end < 0 {
            return Err(format!(
                "array index out of bounds: index {}, length {len}",
                end - 1
            ));
        }
        if start > end {
            return Err(format!(
                "starting index {start} is greater than ending index {end}"
            ));
        }
        let step = if p2.known {
            if p2.value <= 0 {
                return Err("step must be > 0".into());
            }
            p2.value as usize
        } else {
            1
        };
        out.extend(
            a[start as usize..end as usize]
                .iter()
                .step_by(step)
                .map(Cow::Borrowed),
        );
    }
    Ok(out)
}

fn filter<'a>(input: Vals<'a>, f: &Filter) -> Result<Vals<'a>, String> {
    let mut out = Vec::new();
    for v in &input {
        let Some(items) = borrowed(v).and_then(Value::as_array) else {
            return Err(format!(
                "{} is not array or slice and cannot be filtered",
                type_name(v)
            ));
        };
        for item in items {
            let here = || vec![Cow::Borrowed(item)];
            let lefts = eval_list(here(), &f.left);
            if f.op == "exists" {
                if lefts.is_ok_and(|l| !l.is_empty()) {
                    out.push(Cow::Borrowed(item));
                }
                continue;
            }
            let left = match lefts?.as_slice() {
                [] => continue,
                [one] => one.clone(),
                _ => return Err("can only compare one element at a time".into()),
            };
            let right = match eval_list(here(), &f.right)?.as_slice() {
                [] => continue,
                [one] => one.clone(),
                _ => return Err("can only compare one element at a time".into()),
            };
            if compare(basic(&left)?, &f.op, basic(&right)?)? {
                out.push(Cow::Borrowed(item));
            }
        }
    }
    Ok(out)
}

/// A JSON number as the API server holds it: integers (and integral floats, which its
/// JSON round trip writes without a fraction) are integers, the rest floats.
pub(super) enum Num {
    Int(i64),
    Uint(u64),
    Float(f64),
}

pub(super) fn number(n: &Number) -> Num {
    if let Some(i) = n.as_i64() {
        return Num::Int(i);
    }
    if let Some(u) = n.as_u64() {
        return Num::Uint(u);
    }
    let f = n.as_f64().unwrap_or(0.0);
    if f.fract() == 0.0 && f.abs() < 9.2e18 {
        Num::Int(f as i64)
    } else {
        Num::Float(f)
    }
}

/// The kinds Go's template comparison functions accept.
enum Basic<'v> {
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str(&'v str),
}

/// A literal of the expression (`2.0`) keeps its own kind; a number of the object is
/// read as the API server holds it.
#[allow(clippy::ptr_arg)] // whether it is owned says it is a literal
fn basic<'v>(v: &'v Cow<'_, Value>) -> Result<Basic<'v>, String> {
    let literal = matches!(v, Cow::Owned(_));
    Ok(match v.as_ref() {
        Value::Bool(b) => Basic::Bool(*b),
        Value::String(s) => Basic::Str(s),
        Value::Number(n) if literal && n.is_f64() => Basic::Float(n.as_f64().unwrap_or(0.0)),
        Value::Number(n) => match number(n) {
            Num::Int(i) => Basic::Int(i),
            Num::Uint(u) => Basic::Uint(u),
            Num::Float(f) => Basic::Float(f),
        },
        other => return Err(format!("invalid type for comparison: {}", type_name(other))),
    })
}

/// Go's text/template `eq`, `ne`, `lt`, `gt`, `le`, `ge` (forked by client-go): the
/// same basic kind on both sides (signed and unsigned integers mix), else an error.
fn compare(a: Basic<'_>, op: &str, b: Basic<'_>) -> Result<bool, String> {
    use std::cmp::Ordering;
    let bad = || Err::<Ordering, String>("incompatible types for comparison".into());
    let ord = match (&a, &b) {
        (Basic::Int(x), Basic::Int(y)) => x.cmp(y),
        (Basic::Uint(x), Basic::Uint(y)) => x.cmp(y),
        (Basic::Int(x), Basic::Uint(y)) => u64::try_from(*x).map_or(Ordering::Less, |x| x.cmp(y)),
        (Basic::Uint(x), Basic::Int(y)) => {
            u64::try_from(*y).map_or(Ordering::Greater, |y| x.cmp(&y))
        }
        (Basic::Float(x), Basic::Float(y)) => match x.partial_cmp(y) {
            Some(o) => o,
            None => return Ok(op == "!="),
        },
        (Basic::Str(x), Basic::Str(y)) => x.cmp(y),
        (Basic::Bool(x), Basic::Bool(y)) => match op {
            "==" => return Ok(x == y),
            "!=" => return Ok(x != y),
            _ => return Err("invalid type for comparison".into()),
        },
        _ => bad()?,
    };
    Ok(match op {
        "==" => ord.is_eq(),
        "!=" => ord.is_ne(),
        "<" => ord.is_lt(),
        ">" => ord.is_gt(),
        "<=" => ord.is_le(),
        ">=" => ord.is_ge(),
        other => return Err(format!("unrecognized filter operator {other}")),
    })
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn find(path: &str, v: &Value) -> Result<Vec<Value>, String> {
        let p = JsonPath::parse(path)?;
        Ok(p.find(v)?.into_iter().map(Cow::into_owned).collect())
    }

    fn co() -> Value {
        json!({
            "metadata": {"name": "etcd", "annotations": {"machineconfiguration.openshift.io/generated-by-controller-version": "abc"}},
            "status": {
                "conditions": [
                    {"type": "Degraded", "status": "False"},
                    {"type": "Available", "status": "True", "lastTransitionTime": "2026-11-20T09:00:00Z"},
                    {"type": "Progressing", "status": "False", "message": "done"},
                ],
                "versions": [{"name": "raw-internal", "version": "4.14.0"}, {"name": "operator", "version": "4.14.1"}],
                "count": 3,
                "ratio": 1.5,
            }
        })
    }

    #[test]
    fn fields_indexes_and_escaped_dots() {
        let v = co();
        assert_eq!(find(".metadata.name", &v).unwrap(), [json!("etcd")]);
        assert_eq!(
            find(
                r".metadata.annotations.machineconfiguration\.openshift\.io/generated-by-controller-version",
                &v
            )
            .unwrap(),
            [json!("abc")]
        );
        assert_eq!(
            find(".status.versions[1].version", &v).unwrap(),
            [json!("4.14.1")]
        );
        assert_eq!(
            find(".status.versions[-1].name", &v).unwrap(),
            [json!("operator")]
        );
        assert_eq!(
            find(".status.versions[*].version", &v).unwrap(),
            [json!("4.14.0"), json!("4.14.1")]
        );
        assert_eq!(
            find(".status.versions[0,1].name", &v).unwrap(),
            [json!("raw-internal"), json!("operator")]
        );
        assert_eq!(find(".metadata['name']", &v).unwrap(), [json!("etcd")]);
        assert_eq!(
            find("..version", &v).unwrap(),
            [json!("4.14.0"), json!("4.14.1")]
        );
    }

    #[test]
    fn missing_keys_are_no_result_and_bad_indexes_are_errors() {
        let v = co();
        assert!(find(".spec.nothing.here", &v).unwrap().is_empty());
        assert!(
            find(".status.nothing[?(@.a==\"b\")]", &v)
                .unwrap()
                .is_empty()
        );
        assert!(find(".status.versions[5]", &v).is_err());
        assert!(find(".status.count[0]", &v).is_err());
        assert!(find(".status.count[?(@.a)]", &v).is_err());
        assert!(find(".status.versions[1:1]", &v).unwrap().is_empty());
    }

    #[test]
    fn filters() {
        let v = co();
        assert_eq!(
            find(r#".status.conditions[?(@.type=="Available")].status"#, &v).unwrap(),
            [json!("True")]
        );
        assert_eq!(
            find(r#".status.versions[?(@.name=="operator")].version"#, &v).unwrap(),
            [json!("4.14.1")]
        );
        assert_eq!(
            find(".status.conditions[?(@.message)].type", &v).unwrap(),
            [json!("Progressing")]
        );
        assert_eq!(
            find(r#".status.conditions[?(@.type != 'Degraded')].type"#, &v).unwrap(),
            [json!("Available"), json!("Progressing")]
        );
        assert!(
            find(r#".status.conditions[?(@.type=="Failing")].status"#, &v)
                .unwrap()
                .is_empty()
        );
        let n = json!({"items": [{"n": 1}, {"n": 5}, {"n": 2.5}]});
        let floats = json!({"items": [{"n": 2.5}, {"n": 0.5}]});
        assert_eq!(
            find(".items[?(@.n>=2.0)].n", &floats).unwrap(),
            [json!(2.5)]
        );
        // An integral float is an integer, as after the API server's JSON round trip.
        let whole = json!({"items": [{"n": 1}, {"n": 5.0}]});
        assert_eq!(find(".items[?(@.n>2)].n", &whole).unwrap(), [json!(5.0)]);
        // An integer compared with a float is an error in Go's templates, as upstream.
        assert!(find(".items[?(@.n>2)].n", &n).is_err());
    }

    #[test]
    fn invalid_expressions_do_not_parse() {
        for bad in [
            ".status[",
            ".a[?(@.b==\"c\"",
            ".a[x]",
            ".a range",
            ".a....b",
        ] {
            assert!(JsonPath::parse(bad).is_err(), "{bad}");
        }
    }
}

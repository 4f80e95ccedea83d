//! Label selectors (`kdiag get -l`), as kubectl reads them: `k=v`, `k==v`, `k!=v`,
//! `k in (a,b)`, `k notin (a,b)`, `k` and `!k`, comma-separated (commas inside the
//! parentheses of a set belong to it), and whether an object's labels match them.
//! As in Kubernetes, `!=` and `notin` also match objects without the label.

use serde_json::Value;

pub(super) enum Req {
    Eq(String, String),
    Ne(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    NotExists(String),
}

pub(super) fn parse_selector(s: &str) -> Result<Vec<Req>, String> {
    split_requirements(s)?
        .into_iter()
        .map(|p| parse_requirement(&p))
        .collect()
}

/// The requirements of a selector: split at commas outside parentheses.
fn split_requirements(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| format!("label selector {s:?}: `)` without `(`"))?
            }
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if depth > 0 {
        return Err(format!("label selector {s:?}: `(` without `)`"));
    }
    out.push(current);
    Ok(out
        .into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect())
}

fn parse_requirement(p: &str) -> Result<Req, String> {
    let unreadable = || {
        format!(
            "cannot read label selector requirement {p:?} (use k=v, k!=v, k in (a,b), k notin (a,b), k or !k, comma-separated)"
        )
    };
    if let Some((k, v)) = p.split_once("!=") {
        let v = value(v).ok_or_else(unreadable)?;
        return Ok(Req::Ne(key(k).ok_or_else(unreadable)?, v));
    }
    if let Some((k, v)) = p.split_once("==").or_else(|| p.split_once('=')) {
        let v = value(v).ok_or_else(unreadable)?;
        return Ok(Req::Eq(key(k).ok_or_else(unreadable)?, v));
    }
    if let Some(k) = p.strip_prefix('!') {
        return Ok(Req::NotExists(key(k).ok_or_else(unreadable)?));
    }
    if let Some(open) = p.find('(') {
        let (head, set) = (&p[..open], &p[open..]);
        let mut words = head.split_whitespace();
        let (Some(k), Some(op), None) = (words.next(), words.next(), words.next()) else {
            return Err(unreadable());
        };
        let k = key(k).ok_or_else(unreadable)?;
        let inner = set
            .strip_prefix('(')
            .and_then(|s| s.strip_suffix(')'))
            .ok_or_else(unreadable)?;
        let values: Vec<String> = inner
            .split(',')
            .map(value)
            .collect::<Option<_>>()
            .ok_or_else(unreadable)?;
        return match op {
            "in" => Ok(Req::In(k, values)),
            "notin" => Ok(Req::NotIn(k, values)),
            _ => Err(unreadable()),
        };
    }
    key(p).map(Req::Exists).ok_or_else(unreadable)
}

/// A label value as Kubernetes allows one: empty, or at most 63 letters, digits, `-_.`
/// beginning and ending with a letter or digit (`app===web` asks for none).
fn value(v: &str) -> Option<String> {
    let v = v.trim();
    let edge = |c: Option<char>| c.is_none_or(|c| c.is_ascii_alphanumeric());
    (v.len() <= 63
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        && edge(v.chars().next())
        && edge(v.chars().last()))
    .then(|| v.to_string())
}

/// A label key: `app`, `app.kubernetes.io/name` (letters, digits, `-_./`).
fn key(k: &str) -> Option<String> {
    let k = k.trim();
    (!k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c)))
    .then(|| k.to_string())
}

pub(super) fn matches_selector(reqs: &[Req], v: &Value) -> bool {
    let labels = v.pointer("/metadata/labels").and_then(Value::as_object);
    let get = |k: &str| labels.and_then(|m| m.get(k)).and_then(Value::as_str);
    reqs.iter().all(|r| match r {
        Req::Eq(k, val) => get(k) == Some(val.as_str()),
        Req::Ne(k, val) => get(k) != Some(val.as_str()),
        Req::In(k, set) => get(k).is_some_and(|v| set.iter().any(|s| s == v)),
        Req::NotIn(k, set) => get(k).is_none_or(|v| !set.iter().any(|s| s == v)),
        Req::Exists(k) => get(k).is_some(),
        Req::NotExists(k) => get(k).is_none(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn matches(selector: &str, v: &Value) -> bool {
        matches_selector(&parse_selector(selector).unwrap(), v)
    }

    #[test]
    fn equality_and_existence() {
        let v = json!({"metadata": {"labels": {"app": "web", "tier": "fe"}}});
        assert!(matches("app=web,tier!=db", &v));
        assert!(matches("app==web", &v));
        assert!(!matches("app=web,!tier", &v));
        assert!(matches("app,!missing", &v));
        assert!(matches("missing!=x", &v), "!= matches a missing label");
    }

    #[test]
    fn sets() {
        let v = json!({"metadata": {"labels": {"app": "web", "tier": "fe"}}});
        assert!(matches("app in (api, web)", &v));
        assert!(matches("app in (web),tier notin (db,cache)", &v));
        assert!(!matches("app notin (web,api)", &v));
        assert!(!matches("app in (api)", &v));
        assert!(
            matches("zone notin (a)", &v),
            "notin matches a missing label"
        );
        assert!(!matches("zone in (a)", &v));
    }

    #[test]
    fn unreadable_selectors() {
        for bad in [
            "app in (a",
            "app) in",
            "app between (a)",
            "a b c",
            "=x",
            "app in a",
            "app===web",
            "app=web!",
            "app in (a b)",
            "app!=-x",
        ] {
            assert!(parse_selector(bad).is_err(), "{bad}");
        }
    }
}

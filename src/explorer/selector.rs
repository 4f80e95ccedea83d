//! Label selectors (`kdiag get -l`): `k=v`, `k!=v`, `k` and `!k`, comma-separated, and
//! whether an object's labels match them.

use serde_json::Value;

pub(super) enum Req {
    Eq(String, String),
    Ne(String, String),
    Exists(String),
    NotExists(String),
}

pub(super) fn parse_selector(s: &str) -> Result<Vec<Req>, String> {
    s.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            if let Some((k, v)) = p.split_once("!=") {
                Ok(Req::Ne(k.trim().into(), v.trim().into()))
            } else if let Some((k, v)) = p.split_once("==").or_else(|| p.split_once('=')) {
                Ok(Req::Eq(k.trim().into(), v.trim().into()))
            } else if let Some(k) = p.strip_prefix('!') {
                Ok(Req::NotExists(k.trim().into()))
            } else if p
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
            {
                Ok(Req::Exists(p.into()))
            } else {
                Err(format!(
                    "cannot read label selector {p:?} (use k=v, k!=v, k or !k, comma-separated)"
                ))
            }
        })
        .collect()
}

pub(super) fn matches_selector(reqs: &[Req], v: &Value) -> bool {
    let labels = v.pointer("/metadata/labels").and_then(Value::as_object);
    let get = |k: &str| labels.and_then(|m| m.get(k)).and_then(Value::as_str);
    reqs.iter().all(|r| match r {
        Req::Eq(k, val) => get(k) == Some(val.as_str()),
        Req::Ne(k, val) => get(k) != Some(val.as_str()),
        Req::Exists(k) => get(k).is_some(),
        Req::NotExists(k) => get(k).is_none(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn selectors() {
        let v = json!({"metadata": {"labels": {"app": "web", "tier": "fe"}}});
        assert!(matches_selector(
            &parse_selector("app=web,tier!=db").unwrap(),
            &v
        ));
        assert!(!matches_selector(
            &parse_selector("app=web,!tier").unwrap(),
            &v
        ));
        assert!(parse_selector("app in (a)").is_err());
    }
}

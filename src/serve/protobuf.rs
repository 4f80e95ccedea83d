//! The access reviews kubectl posts as protobuf, read as the JSON the reviews take.
//! kubectl (1.3x) creates built-in objects as `application/vnd.kubernetes.protobuf`, so
//! `kubectl auth can-i` posts its `SelfSubjectAccessReview` (and `--list` its
//! `SelfSubjectRulesReview`) in Kubernetes' protobuf envelope: the magic `k8s\0`, then a
//! `runtime.Unknown` (1: typeMeta {1: apiVersion, 2: kind}, 2: raw, 3: contentEncoding,
//! 4: contentType) whose `raw` is the object. Only the review fields are read (the
//! authorization/v1 `generated.proto` numbers); the answer goes back as JSON, which the
//! client also accepts.

use serde_json::{Map, Value, json};

/// The envelope's first bytes.
const MAGIC: &[u8] = b"k8s\0";

/// `ResourceAttributes` string fields by number (8 and 9 are selector messages, left out:
/// the answer does not depend on them).
const RESOURCE_ATTRIBUTES: &[(u64, &str)] = &[
    (1, "namespace"),
    (2, "verb"),
    (3, "group"),
    (4, "version"),
    (5, "resource"),
    (6, "subresource"),
    (7, "name"),
];

/// `NonResourceAttributes` fields by number.
const NON_RESOURCE_ATTRIBUTES: &[(u64, &str)] = &[(1, "path"), (2, "verb")];

/// Whether `body` is in Kubernetes' protobuf envelope.
pub fn is_protobuf(body: &[u8]) -> bool {
    body.starts_with(MAGIC)
}

/// A review posted as protobuf, as its JSON object: `apiVersion`, `kind` and `spec`.
/// `kind` is the review the path names (`SelfSubjectAccessReview`,
/// `SelfSubjectRulesReview` or `SelfSubjectReview`, which has no spec).
pub fn review(kind: &str, body: &[u8]) -> Result<Value, String> {
    let unknown = body
        .strip_prefix(MAGIC)
        .ok_or("not in the protobuf envelope (k8s\\0)")?;
    let mut type_meta = Map::new();
    let mut raw: &[u8] = &[];
    for (number, field) in fields(unknown)? {
        match (number, field) {
            (1, Field::Bytes(b)) => type_meta = strings(b, &[(1, "apiVersion"), (2, "kind")])?,
            (2, Field::Bytes(b)) => raw = b,
            _ => {}
        }
    }
    if let Some(Value::String(k)) = type_meta.get("kind")
        && k != kind
    {
        return Err(format!("the envelope holds a {k}, not a {kind}"));
    }
    let mut spec = Map::new();
    for (number, field) in fields(raw)? {
        if let (2, Field::Bytes(b)) = (number, field) {
            spec = review_spec(kind, b)?;
        }
    }
    let mut v = Value::Object(type_meta);
    v["kind"] = json!(kind);
    v["metadata"] = json!({});
    if kind != "SelfSubjectReview" {
        v["spec"] = Value::Object(spec);
    }
    Ok(v)
}

/// A review's `spec`: an access review's attributes, or a rules review's namespace.
fn review_spec(kind: &str, b: &[u8]) -> Result<Map<String, Value>, String> {
    if kind == "SelfSubjectRulesReview" {
        return strings(b, &[(1, "namespace")]);
    }
    let mut spec = Map::new();
    for (number, field) in fields(b)? {
        match (number, field) {
            (1, Field::Bytes(a)) => {
                spec.insert(
                    "resourceAttributes".into(),
                    Value::Object(strings(a, RESOURCE_ATTRIBUTES)?),
                );
            }
            (2, Field::Bytes(a)) => {
                spec.insert(
                    "nonResourceAttributes".into(),
                    Value::Object(strings(a, NON_RESOURCE_ATTRIBUTES)?),
                );
            }
            _ => {}
        }
    }
    Ok(spec)
}

/// The string fields of a message, by number, under their JSON names; empty strings left
/// out (as `omitempty` leaves them out of JSON).
fn strings(b: &[u8], names: &[(u64, &str)]) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    for (number, field) in fields(b)? {
        if let Field::Bytes(text) = field
            && let Some((_, name)) = names.iter().find(|(n, _)| *n == number)
        {
            let s =
                std::str::from_utf8(text).map_err(|_| format!("field {name} is not UTF-8 text"))?;
            if !s.is_empty() {
                out.insert(name.to_string(), json!(s));
            }
        }
    }
    Ok(out)
}

/// One field's value: varints and fixed-width numbers are skipped over, length-delimited
/// ones (strings, bytes, messages) kept.
enum Field<'a> {
    Number,
    Bytes(&'a [u8]),
}

/// The fields of one message, in order; an error where it is cut short or uses a wire
/// type protobuf no longer has (groups).
fn fields(mut b: &[u8]) -> Result<Vec<(u64, Field<'_>)>, String> {
    let mut out = Vec::new();
    while !b.is_empty() {
        let key = varint(&mut b)?;
        let (number, wire) = (key >> 3, key & 7);
        let field = match wire {
            0 => {
                varint(&mut b)?;
                Field::Number
            }
            1 | 5 => {
                let n = if wire == 1 { 8 } else { 4 };
                b = b.get(n..).ok_or("a fixed-width field is cut short")?;
                Field::Number
            }
            2 => {
                let len = usize::try_from(varint(&mut b)?).map_err(|_| "a length is too large")?;
                let (value, rest) = (b.get(..len), b.get(len..));
                b = rest.ok_or("a length-delimited field is cut short")?;
                Field::Bytes(value.ok_or("a length-delimited field is cut short")?)
            }
            w => return Err(format!("wire type {w} of field {number} is not read")),
        };
        out.push((number, field));
    }
    Ok(out)
}

/// A base-128 varint (at most 10 bytes).
fn varint(b: &mut &[u8]) -> Result<u64, String> {
    let mut value = 0u64;
    for i in 0..10 {
        let (&byte, rest) = b.split_first().ok_or("a number is cut short")?;
        *b = rest;
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err("a number is longer than 10 bytes".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What kubectl 1.37.1 posts for `kubectl auth can-i list pods -A` (its `-v=9` dump).
    const CAN_I_LIST_PODS: &[u8] = b"k8s\x00\x0a\x32\x0a\x17authorization.k8s.io/v1\x12\x17SelfSubjectAccessReview\x12\x36\x0a\x10\x0a\x00\x12\x00\x1a\x00\x22\x00\x2a\x00\x32\x00\x38\x00\x42\x00\x12\x18\x0a\x16\x0a\x00\x12\x04list\x1a\x00\x22\x00\x2a\x04pods\x32\x00\x3a\x00\x1a\x08\x08\x00\x12\x00\x1a\x00\x20\x00\x1a\x00\x22\x00";

    #[test]
    fn reads_kubectls_access_review() {
        assert!(is_protobuf(CAN_I_LIST_PODS));
        let v = review("SelfSubjectAccessReview", CAN_I_LIST_PODS).unwrap();
        assert_eq!(
            v,
            json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
                "metadata": {}, "spec": {"resourceAttributes": {"verb": "list", "resource": "pods"}}})
        );
    }

    #[test]
    fn reads_a_rules_review_and_non_resource_attributes() {
        // Unknown{typeMeta, raw: {spec: {namespace: "shop"}}}.
        let spec = [b"\x0a\x04shop".as_slice()].concat();
        let raw = [b"\x12".as_slice(), &[spec.len() as u8], &spec].concat();
        let body = [
            b"k8s\x00\x12".as_slice(),
            &[raw.len() as u8],
            &raw,
            b"\x1a\x00",
        ]
        .concat();
        let v = review("SelfSubjectRulesReview", &body).unwrap();
        assert_eq!(v["spec"], json!({"namespace": "shop"}));
        // spec {nonResourceAttributes {path: "/healthz", verb: "get"}}.
        let attrs = b"\x0a\x08/healthz\x12\x03get";
        let spec = [b"\x12".as_slice(), &[attrs.len() as u8], attrs].concat();
        let raw = [b"\x12".as_slice(), &[spec.len() as u8], &spec].concat();
        let body = [b"k8s\x00\x12".as_slice(), &[raw.len() as u8], &raw].concat();
        let v = review("SelfSubjectAccessReview", &body).unwrap();
        assert_eq!(
            v["spec"]["nonResourceAttributes"],
            json!({"path": "/healthz", "verb": "get"})
        );
    }

    #[test]
    fn a_body_cut_short_or_of_another_kind_is_an_error() {
        let cut = &CAN_I_LIST_PODS[..40];
        assert!(review("SelfSubjectAccessReview", cut).is_err());
        let other = review("SelfSubjectRulesReview", CAN_I_LIST_PODS).unwrap_err();
        assert!(other.contains("SelfSubjectAccessReview"), "{other}");
        assert!(review("SelfSubjectAccessReview", b"{}").is_err());
        assert!(review("SelfSubjectAccessReview", b"k8s\x00\x0b").is_err());
        assert!(varint(&mut &[0xffu8; 11][..]).is_err());
    }
}

//! `SelfSubjectAccessReview` and `SelfSubjectRulesReview`: what a client may do, asked
//! before every view by k9s, Headlamp and `kubectl auth can-i`. Reading is allowed,
//! every write denied: the server is a saved snapshot. kubectl posts them as protobuf
//! (`protobuf.rs`), Headlamp and k9s as JSON.

use super::answer::Answer;
use super::protobuf;
use serde_json::{Value, json};

const READ_VERBS: &[&str] = &["get", "list", "watch"];
const DENIED: &str = "read-only snapshot: kdiag serve answers get, list and watch only";

/// The review posted to `authorization.k8s.io/VERSION/KIND`, answered (201, as the API
/// server creates it) with its `status`.
pub fn answer(kind: &str, version: &str, body: &[u8]) -> Answer {
    let mut review: Value = if protobuf::is_protobuf(body) {
        match protobuf::review(kind, body) {
            Ok(v) => v,
            Err(e) => {
                return Answer::bad_request(format!("the body is not a {kind} object: {e}"));
            }
        }
    } else {
        match serde_json::from_slice(body) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) | Err(_) => {
                return Answer::bad_request(format!("the body is not a {kind} object"));
            }
        }
    };
    review["apiVersion"] = json!(format!("authorization.k8s.io/{version}"));
    review["kind"] = json!(kind);
    let status = if kind == "SelfSubjectRulesReview" {
        json!({
            "resourceRules": [{"verbs": READ_VERBS, "apiGroups": ["*"], "resources": ["*"]}],
            "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["*"]}],
            "incomplete": false,
        })
    } else {
        let verb = review
            .pointer("/spec/resourceAttributes/verb")
            .or_else(|| review.pointer("/spec/nonResourceAttributes/verb"))
            .and_then(Value::as_str)
            .unwrap_or("");
        if verb == "*" || !READ_VERBS.contains(&verb) {
            json!({"allowed": false, "denied": true, "reason": DENIED})
        } else {
            json!({"allowed": true, "reason": "kdiag serve: reading the snapshot is allowed"})
        }
    };
    review["status"] = status;
    Answer::json_as(201, super::answer::JSON, &review)
}

/// `SelfSubjectReview` (`authentication.k8s.io`): who the client is, asked by Headlamp for
/// its user menu and by `kubectl auth whoami`. Everyone reading a snapshot is the same
/// user: the one kdiag's kubeconfig names.
pub fn whoami(version: &str, body: &[u8]) -> Answer {
    if !matches!(version, "v1" | "v1beta1" | "v1alpha1") {
        return Answer::no_route(&format!(
            "/apis/authentication.k8s.io/{version}/selfsubjectreviews"
        ));
    }
    let parsed = if protobuf::is_protobuf(body) {
        protobuf::review("SelfSubjectReview", body).map_err(|_| ())
    } else {
        serde_json::from_slice::<Value>(body).map_err(|_| ())
    };
    let mut review = match parsed {
        Ok(v @ Value::Object(_)) => v,
        Ok(_) | Err(_) if body.iter().all(u8::is_ascii_whitespace) => json!({}),
        Ok(_) | Err(_) => return Answer::bad_request("the body is not a SelfSubjectReview object"),
    };
    review["apiVersion"] = json!(format!("authentication.k8s.io/{version}"));
    review["kind"] = json!("SelfSubjectReview");
    if review.get("metadata").is_none_or(|m| !m.is_object()) {
        review["metadata"] = json!({});
    }
    review["status"] = json!({
        "userInfo": {"username": "kdiag", "groups": ["system:authenticated"]},
    });
    Answer::json_as(201, super::answer::JSON, &review)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(a: &Answer) -> Value {
        match a {
            Answer::Body { body, .. } => serde_json::from_slice(body).unwrap(),
            Answer::Watch { .. } => panic!("not a body"),
        }
    }

    #[test]
    fn reads_allowed_writes_denied() {
        let ask = |verb: &str| {
            let b = json!({"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1",
                "spec": {"resourceAttributes": {"verb": verb, "resource": "pods", "namespace": "shop"}}});
            body(&answer(
                "SelfSubjectAccessReview",
                "v1",
                b.to_string().as_bytes(),
            ))
        };
        assert_eq!(ask("list")["status"]["allowed"], true);
        assert_eq!(ask("watch")["status"]["allowed"], true);
        assert_eq!(ask("delete")["status"]["allowed"], false);
        assert_eq!(ask("*")["status"]["allowed"], false);
        assert_eq!(ask("delete")["status"]["reason"], DENIED);
        assert!(matches!(
            answer("SelfSubjectAccessReview", "v1", b"[]"),
            Answer::Body { code: 400, .. }
        ));
    }

    #[test]
    fn whoami_names_the_kubeconfig_user() {
        let b = body(&whoami(
            "v1",
            br#"{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}"#,
        ));
        assert_eq!(b["status"]["userInfo"]["username"], "kdiag");
        assert_eq!(b["kind"], "SelfSubjectReview");
        assert!(matches!(whoami("v1", b""), Answer::Body { code: 201, .. }));
        assert!(matches!(
            whoami("v2", b"{}"),
            Answer::Body { code: 404, .. }
        ));
    }
}

//! What the API answers: a whole body (JSON, text or the page), a watch to stream, or a
//! `metav1.Status` error — every error a client sees is a `Status`, as a real API server's.

use serde_json::{Value, json};

/// One answer to one request.
pub enum Answer {
    Body {
        code: u16,
        content_type: &'static str,
        body: Vec<u8>,
    },
    /// A watch: the events to send first (each one line of JSON), then held open until
    /// `timeout_seconds` or the client leaves.
    Watch {
        events: Vec<Vec<u8>>,
        timeout_seconds: u64,
    },
}

pub const JSON: &str = "application/json";

impl Answer {
    pub fn json(v: &Value) -> Answer {
        Answer::json_as(200, JSON, v)
    }

    pub fn json_as(code: u16, content_type: &'static str, v: &Value) -> Answer {
        Answer::Body {
            code,
            content_type,
            body: serde_json::to_vec(v).unwrap_or_default(),
        }
    }

    /// A JSON answer already written.
    pub fn json_bytes(body: Vec<u8>) -> Answer {
        Answer::Body {
            code: 200,
            content_type: JSON,
            body,
        }
    }

    pub fn text(text: String) -> Answer {
        Answer::Body {
            code: 200,
            content_type: "text/plain; charset=utf-8",
            body: text.into_bytes(),
        }
    }

    /// A `Status` failure with its HTTP code, reason and message.
    pub fn status(code: u16, reason: &str, message: impl Into<String>) -> Answer {
        Answer::status_with(code, reason, message, Value::Null)
    }

    pub fn status_with(
        code: u16,
        reason: &str,
        message: impl Into<String>,
        details: Value,
    ) -> Answer {
        let mut v = json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": message.into(),
            "reason": reason,
            "code": code,
        });
        if !details.is_null() {
            v["details"] = details;
        }
        Answer::json_as(code, JSON, &v)
    }

    /// 404 for an object: `pods "web" not found`, with the kind and group named.
    pub fn not_found(group: &str, plural: &str, name: &str) -> Answer {
        let shown = if group.is_empty() {
            plural.to_string()
        } else {
            format!("{plural}.{group}")
        };
        Answer::status_with(
            404,
            "NotFound",
            format!("{shown} {name:?} not found"),
            json!({"name": name, "group": group, "kind": plural}),
        )
    }

    /// 404 for a path the server does not serve.
    pub fn no_route(path: &str) -> Answer {
        Answer::status(
            404,
            "NotFound",
            format!("the server could not find the requested resource ({path})"),
        )
    }

    /// 400 for a request that does not read.
    pub fn bad_request(message: impl Into<String>) -> Answer {
        Answer::status(400, "BadRequest", message)
    }

    /// 405 for every write: the server is a saved snapshot.
    pub fn read_only(method: &str) -> Answer {
        Answer::status(
            405,
            "MethodNotAllowed",
            format!(
                "{method} is not allowed: kdiag serve answers from a saved snapshot of the cluster, read-only (get, list and watch)"
            ),
        )
    }
}

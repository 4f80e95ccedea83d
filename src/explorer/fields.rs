//! Reading an object's JSON: the string or the integer at a JSON pointer (empty or 0
//! when absent).

use serde_json::Value;

pub(super) fn str_at<'a>(v: &'a Value, p: &str) -> &'a str {
    v.pointer(p).and_then(Value::as_str).unwrap_or("")
}

pub(super) fn int_at(v: &Value, p: &str) -> i64 {
    v.pointer(p).and_then(Value::as_i64).unwrap_or(0)
}

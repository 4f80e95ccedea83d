//! A request as the API reads it: method, path segments (percent-decoded), query
//! parameters, what the client accepts, and the body of a POST.

use std::collections::HashMap;

pub struct Request {
    pub method: String,
    /// The path's segments, each percent-decoded; empty segments dropped.
    pub segments: Vec<String>,
    /// Whether a segment decoded to bytes that are not UTF-8 (`%ff`): no name has them.
    pub invalid_utf8: bool,
    pub query: HashMap<String, String>,
    /// The `Accept` header (`""` when absent).
    pub accept: String,
    pub body: Vec<u8>,
}

impl Request {
    pub fn new(
        method: &str,
        path: &str,
        query: Option<&str>,
        accept: &str,
        body: Vec<u8>,
    ) -> Request {
        let mut invalid_utf8 = false;
        let segments = path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(|s| {
                let bytes = percent_decode_bytes(s, false);
                String::from_utf8(bytes).unwrap_or_else(|e| {
                    invalid_utf8 = true;
                    String::from_utf8_lossy(e.as_bytes()).into_owned()
                })
            })
            .collect();
        let mut params = HashMap::new();
        for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            params.insert(percent_decode(k, true), percent_decode(v, true));
        }
        Request {
            method: method.to_string(),
            segments,
            invalid_utf8,
            query: params,
            accept: accept.to_string(),
            body,
        }
    }

    pub fn param(&self, key: &str) -> Option<&str> {
        self.query.get(key).map(String::as_str)
    }

    /// A boolean parameter: `true` or `1`.
    pub fn flag(&self, key: &str) -> bool {
        matches!(self.param(key), Some("true" | "1"))
    }

    /// Whether the client asked for a `meta.k8s.io` Table (kubectl's `get`).
    pub fn wants_table(&self) -> bool {
        self.accept_parts().any(|p| p.contains("as=Table"))
    }

    /// Whether the client asked for `PartialObjectMetadata` (metadata-only informers).
    pub fn wants_metadata(&self) -> bool {
        self.accept_parts()
            .any(|p| p.contains("as=PartialObjectMetadata"))
    }

    /// The aggregated discovery version the client asked for (`v2` or `v2beta1`).
    pub fn wants_aggregated(&self) -> Option<&'static str> {
        let asked = |v: &str| {
            self.accept_parts().any(|p| {
                p.contains("as=APIGroupDiscoveryList") && p.split(';').any(|x| x.trim() == v)
            })
        };
        if asked("v=v2") {
            Some("v2")
        } else if asked("v=v2beta1") {
            Some("v2beta1")
        } else {
            None
        }
    }

    /// Whether the client takes JSON at all (a protobuf-only client is answered 406).
    pub fn takes_json(&self) -> bool {
        self.accept.is_empty()
            || self.accept_parts().any(|p| {
                let media = p.split(';').next().unwrap_or("").trim();
                matches!(
                    media,
                    "application/json"
                        | "*/*"
                        | "application/*"
                        | "text/*"
                        | "text/plain"
                        | "text/html"
                        | "application/yaml"
                )
            })
    }

    fn accept_parts(&self) -> impl Iterator<Item = &str> {
        self.accept.split(',').map(str::trim)
    }
}

/// `%XX` decoded (and `+` as a space in a query); an invalid escape is kept as written.
pub fn percent_decode(s: &str, plus_is_space: bool) -> String {
    String::from_utf8_lossy(&percent_decode_bytes(s, plus_is_space)).into_owned()
}

/// The bytes `s` decodes to.
fn percent_decode_bytes(s: &str, plus_is_space: bool) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let escaped = (b[i] == b'%')
            .then(|| b.get(i + 1..i + 3))
            .flatten()
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        if let Some(v) = escaped {
            out.push(v);
            i += 3;
            continue;
        }
        match b[i] {
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_escapes_and_keeps_bad_ones() {
        assert_eq!(percent_decode("..%2Fetc", false), "../etc");
        assert_eq!(percent_decode("a%2", false), "a%2");
        assert_eq!(percent_decode("a%zz", false), "a%zz");
        assert_eq!(percent_decode("app%3Dweb+x", true), "app=web x");
        assert_eq!(percent_decode("%", false), "%");
        assert!(Request::new("GET", "/api/v1/pods/%ff", None, "", vec![]).invalid_utf8);
        assert!(!Request::new("GET", "/api/v1/pods/caf%C3%A9", None, "", vec![]).invalid_utf8);
    }

    #[test]
    fn reads_kubectl_accept_headers() {
        let r = Request::new(
            "GET",
            "/api/v1/pods",
            Some("limit=500"),
            "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json",
            vec![],
        );
        assert!(r.wants_table());
        assert_eq!(r.param("limit"), Some("500"));
        let d = Request::new(
            "GET",
            "/api",
            None,
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json",
            vec![],
        );
        assert_eq!(d.wants_aggregated(), Some("v2"));
        let p = Request::new(
            "GET",
            "/api",
            None,
            "application/vnd.kubernetes.protobuf",
            vec![],
        );
        assert!(!p.takes_json());
    }
}

//! `--redact`: masks IP addresses, hostnames, registry hosts and label values in any
//! rendered text (human, JSON, SARIF, HTML, explorer, scan lines), so a report can go on
//! a public ticket.
//!
//! What counts as a hostname, a registry host or a label value is learned from the
//! snapshot (node names and addresses, Ingress hosts, `externalName`s, the registry part
//! of every `image`, every label map and selector); IP addresses and the hosts of URLs
//! and DNS lookups are recognised in the text itself. Label values are masked only where
//! they follow their key (`app=web`, `app: web`, `"app": "web"`), so a label value that is
//! also an ordinary word elsewhere stays readable. Each distinct value gets a stable token
//! (`HOST-1`, `IP-2`, `REGISTRY-1`, `LABEL-3`), numbered in sorted order of what the
//! snapshot holds, then in order of appearance; tokens hold no character that HTML, JSON
//! or YAML would need to escape.

use crate::snapshot::Snapshot;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Mutex;

/// Words that name a role, not a machine, even when a node is called that.
const NOT_HOSTNAMES: &[&str] = &[
    "node",
    "nodes",
    "master",
    "worker",
    "control-plane",
    "default",
    "localhost",
    "none",
];

pub struct Redactor {
    /// Known hostnames and registry hosts → token.
    hosts: HashMap<String, String>,
    /// Label key → values seen for it.
    labels: HashMap<String, BTreeSet<String>>,
    /// Label value → token (one token per distinct value, whatever the key).
    label_tokens: HashMap<String, String>,
    /// Tokens handed out while redacting (IPs, URL hosts), consistent across calls.
    dynamic: Mutex<Dynamic>,
}

#[derive(Default)]
struct Dynamic {
    ips: HashMap<String, String>,
    hosts: HashMap<String, String>,
    next_host: usize,
}

impl Redactor {
    /// Learns hostnames, registry hosts and labels from every object of the snapshot.
    pub fn from_snapshot(snap: &Snapshot) -> Redactor {
        let mut hostnames = BTreeSet::new();
        let mut registries = BTreeSet::new();
        let mut labels: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for o in &snap.objects {
            if o.kind == "Node" {
                hostnames.insert(o.name.clone());
                if let Some(Value::Array(addrs)) = o.value().pointer("/status/addresses") {
                    for a in addrs {
                        let t = a.get("type").and_then(Value::as_str).unwrap_or("");
                        if matches!(t, "Hostname" | "InternalDNS" | "ExternalDNS")
                            && let Some(h) = a.get("address").and_then(Value::as_str)
                        {
                            hostnames.insert(h.to_string());
                        }
                    }
                }
            }
            if o.kind == "Ingress" {
                if let Some(Value::Array(rules)) = o.value().pointer("/spec/rules") {
                    for r in rules {
                        if let Some(h) = r.get("host").and_then(Value::as_str) {
                            hostnames.insert(h.trim_start_matches("*.").to_string());
                        }
                    }
                }
                if let Some(Value::Array(tls)) = o.value().pointer("/spec/tls") {
                    for t in tls {
                        if let Some(Value::Array(hosts)) = t.get("hosts") {
                            for h in hosts.iter().filter_map(Value::as_str) {
                                hostnames.insert(h.trim_start_matches("*.").to_string());
                            }
                        }
                    }
                }
            }
            if o.kind == "Service"
                && let Some(h) = o
                    .value()
                    .pointer("/spec/externalName")
                    .and_then(Value::as_str)
            {
                hostnames.insert(h.to_string());
            }
            walk(o.value(), &mut registries, &mut labels);
        }
        let mut hosts = HashMap::new();
        let mut n = 0;
        for h in hostnames {
            let h = h.trim_end_matches('.').to_string();
            if h.is_empty() || NOT_HOSTNAMES.contains(&h.as_str()) || parse_ipv4(&h) {
                continue;
            }
            if let std::collections::hash_map::Entry::Vacant(e) = hosts.entry(h) {
                n += 1;
                e.insert(format!("HOST-{n}"));
            }
        }
        let mut r = 0;
        for reg in registries {
            if hosts.contains_key(&reg) || parse_ipv4(&reg) || reg == "localhost" {
                continue;
            }
            r += 1;
            hosts.insert(reg, format!("REGISTRY-{r}"));
        }
        let mut label_tokens = HashMap::new();
        let values: BTreeSet<&String> = labels.values().flatten().collect();
        for (i, v) in values.into_iter().enumerate() {
            label_tokens.insert(v.clone(), format!("LABEL-{}", i + 1));
        }
        Redactor {
            hosts,
            labels: labels.into_iter().collect(),
            label_tokens,
            dynamic: Mutex::new(Dynamic {
                next_host: n,
                ..Dynamic::default()
            }),
        }
    }

    /// Masks everything sensitive in `text`.
    pub fn apply(&self, text: &str) -> String {
        let mut d = self.dynamic.lock().expect("redactor lock");
        let text = self.hosts_and_ipv4(text, &mut d);
        let text = self.label_values(&text);
        ipv6(&text, &mut d)
    }

    /// Hostnames, registry hosts, URL and lookup hosts, IPv4 addresses.
    fn hosts_and_ipv4(&self, text: &str, d: &mut Dynamic) -> String {
        let b = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        let mut copied = 0;
        while i < b.len() {
            if !is_host_byte(b[i]) || (i > 0 && is_host_byte(b[i - 1])) {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < b.len() && is_host_byte(b[j]) {
                j += 1;
            }
            let token = text[i..j].trim_end_matches('.');
            let end = i + token.len();
            let replacement =
                if parse_ipv4(token) && !(end < b.len() && b[end] == b':' && next_is_v6(b, end)) {
                    Some((end, ip_token(d, token)))
                } else if let Some((len, tok)) = self.known_host(token) {
                    Some((i + len, tok))
                } else if url_host_context(&text[..i]) && token.contains('.') {
                    let tok = d
                        .hosts
                        .entry(token.to_string())
                        .or_insert_with(|| {
                            d.next_host += 1;
                            format!("HOST-{}", d.next_host)
                        })
                        .clone();
                    Some((end, tok))
                } else {
                    None
                };
            if let Some((to, tok)) = replacement {
                out.push_str(&text[copied..i]);
                out.push_str(&tok);
                copied = to;
            }
            i = j;
        }
        out.push_str(&text[copied..]);
        out
    }

    /// The longest known host that the token is, or starts with before a dot
    /// (`node-b.yaml` → `node-b`).
    fn known_host(&self, token: &str) -> Option<(usize, String)> {
        if let Some(t) = self.hosts.get(token) {
            return Some((token.len(), t.clone()));
        }
        let mut cut = token.len();
        while let Some(p) = token[..cut].rfind('.') {
            if let Some(t) = self.hosts.get(&token[..p]) {
                return Some((p, t.clone()));
            }
            cut = p;
        }
        None
    }

    /// `key=value`, `key: value`, `"key": "value"` (also HTML-escaped) for known labels.
    fn label_values(&self, text: &str) -> String {
        if self.labels.is_empty() {
            return text.to_string();
        }
        const SEPARATORS: &[&str] = &[
            "&quot;: &quot;",
            "&quot;:&quot;",
            ": &quot;",
            "\\\": \\\"",
            "\": \"",
            "\":\"",
            ": \"",
            ": '",
            "=\"",
            ": ",
            "=",
        ];
        let b = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        let mut copied = 0;
        while i < b.len() {
            if !is_key_byte(b[i]) || (i > 0 && is_key_byte(b[i - 1])) {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < b.len() && is_key_byte(b[j]) {
                j += 1;
            }
            let Some(values) = self.labels.get(&text[i..j]) else {
                i = j;
                continue;
            };
            let rest = &text[j..];
            let Some(sep) = SEPARATORS.iter().find(|s| rest.starts_with(**s)) else {
                i = j;
                continue;
            };
            let vstart = j + sep.len();
            let mut vend = vstart;
            while vend < b.len() && is_value_byte(b[vend]) {
                vend += 1;
            }
            let value = &text[vstart..vend];
            if let (true, Some(tok)) = (values.contains(value), self.label_tokens.get(value)) {
                out.push_str(&text[copied..vstart]);
                out.push_str(tok);
                copied = vend;
            }
            i = vend.max(j);
        }
        out.push_str(&text[copied..]);
        out
    }
}

/// Registry hosts of every `image` and label maps of every object.
fn walk(
    v: &Value,
    registries: &mut BTreeSet<String>,
    labels: &mut BTreeMap<String, BTreeSet<String>>,
) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                match (k.as_str(), child) {
                    ("image", Value::String(image)) => {
                        if let Some(host) = registry_host(image) {
                            registries.insert(host);
                        }
                    }
                    (
                        "labels" | "matchLabels" | "nodeSelector" | "nodeLabels" | "selector",
                        Value::Object(m),
                    ) if m.values().all(Value::is_string) => {
                        for (lk, lv) in m {
                            if let Some(s) = lv.as_str().filter(|s| !s.is_empty()) {
                                labels.entry(lk.clone()).or_default().insert(s.to_string());
                            }
                        }
                    }
                    ("matchExpressions", Value::Array(exprs)) => {
                        for e in exprs {
                            let key = e.get("key").and_then(Value::as_str);
                            if let (Some(key), Some(Value::Array(vals))) = (key, e.get("values")) {
                                for s in vals
                                    .iter()
                                    .filter_map(Value::as_str)
                                    .filter(|s| !s.is_empty())
                                {
                                    labels
                                        .entry(key.to_string())
                                        .or_default()
                                        .insert(s.to_string());
                                }
                            }
                        }
                    }
                    _ => walk(child, registries, labels),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|c| walk(c, registries, labels)),
        _ => {}
    }
}

/// The registry of an image reference: its first path component when that has a dot,
/// a port or is `localhost` (Docker's rule); without the port.
pub fn registry_host(image: &str) -> Option<String> {
    let (first, _) = image.split_once('/')?;
    if !(first.contains('.') || first.contains(':') || first == "localhost") {
        return None;
    }
    let host = first.split(':').next().unwrap_or(first);
    (!host.is_empty()).then(|| host.to_string())
}

fn is_host_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-' | b'_')
}

fn is_key_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-' | b'_' | b'/')
}

fn is_value_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-' | b'_')
}

/// The text before a token puts it in a host position: `scheme://`, `user@`, `lookup `.
fn url_host_context(before: &str) -> bool {
    before.ends_with("://") || before.ends_with("lookup ") || before.ends_with("@")
}

fn next_is_v6(b: &[u8], colon: usize) -> bool {
    // `1.2.3.4:80` is an address and a port; an IPv4 inside IPv6 text is left to ipv6().
    colon + 1 < b.len() && b[colon + 1] == b':'
}

pub fn parse_ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|c| c.is_ascii_digit())
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

fn ip_token(d: &mut Dynamic, ip: &str) -> String {
    let n = d.ips.len() + 1;
    d.ips
        .entry(ip.to_string())
        .or_insert_with(|| format!("IP-{n}"))
        .clone()
}

/// IPv6 addresses: hex groups with `::` or eight groups.
fn ipv6(text: &str, d: &mut Dynamic) -> String {
    let b = text.as_bytes();
    let is_v6 = |c: u8| c.is_ascii_hexdigit() || c == b':';
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        if !is_v6(b[i])
            || (i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b':' || b[i - 1] == b'_'))
        {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && is_v6(b[j]) {
            j += 1;
        }
        let followed_ok =
            j >= b.len() || !(b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'.');
        let token = &text[i..j];
        if followed_ok && looks_ipv6(token) {
            out.push_str(&text[copied..i]);
            out.push_str(&ip_token(d, token));
            copied = j;
        }
        i = j.max(i + 1);
    }
    out.push_str(&text[copied..]);
    out
}

fn looks_ipv6(t: &str) -> bool {
    let colons = t.bytes().filter(|&c| c == b':').count();
    let groups: Vec<&str> = t.split(':').collect();
    let has_hex = t.bytes().any(|c| c.is_ascii_hexdigit());
    let compressed = t.matches("::").count() == 1 && !t.contains(":::");
    has_hex
        && groups.iter().all(|g| g.len() <= 4)
        && ((compressed && colons >= 2) || (colons == 7 && groups.iter().all(|g| !g.is_empty())))
        // `::` alone at either end of a word is YAML/Go punctuation more often than an address.
        && groups.iter().filter(|g| !g.is_empty()).count() >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redactor(hosts: &[(&str, &str)], labels: &[(&str, &str)]) -> Redactor {
        let mut l: HashMap<String, BTreeSet<String>> = HashMap::new();
        let mut label_tokens = HashMap::new();
        for (i, (k, v)) in labels.iter().enumerate() {
            l.entry(k.to_string()).or_default().insert(v.to_string());
            label_tokens.insert(v.to_string(), format!("LABEL-{}", i + 1));
        }
        Redactor {
            hosts: hosts
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            labels: l,
            label_tokens,
            dynamic: Mutex::new(Dynamic {
                next_host: hosts.iter().filter(|(_, t)| t.starts_with("HOST-")).count(),
                ..Dynamic::default()
            }),
        }
    }

    #[test]
    fn masks_addresses_hosts_and_labels() {
        let r = redactor(
            &[("node-b", "HOST-1"), ("registry.example.com", "REGISTRY-1")],
            &[("app", "web"), ("app.kubernetes.io/name", "quotes")],
        );
        let out = r.apply(
            "pod on node-b (nodes/node-b.yaml) pulls registry.example.com:5000/demo/api:1 from 10.244.2.111:8080 \
             and fd00:10:244::1b; selector app=web, \"app.kubernetes.io/name\": \"quotes\", app: web; \
             Get \"https://db.internal.corp/v2/\"; lookup cache.svc.local on 10.96.0.10:53; at 09:14:02Z v1.31.2",
        );
        assert_eq!(
            out,
            "pod on HOST-1 (nodes/HOST-1.yaml) pulls REGISTRY-1:5000/demo/api:1 from IP-1:8080 \
             and IP-3; selector app=LABEL-1, \"app.kubernetes.io/name\": \"LABEL-2\", app: LABEL-1; \
             Get \"https://HOST-2/v2/\"; lookup HOST-3 on IP-2:53; at 09:14:02Z v1.31.2",
            "{out}"
        );
    }

    #[test]
    fn leaves_ordinary_text_alone() {
        let r = redactor(&[("node-b", "HOST-1")], &[("app", "web")]);
        let text =
            "the web app serves nodes; name: web; kueue.x-k8s.io/v1beta1; 1.2.3; 0/3 nodes; ::";
        assert_eq!(r.apply(text), text);
    }

    #[test]
    fn registries() {
        assert_eq!(
            registry_host("registry.example.com/demo/api-b:1.4.2").as_deref(),
            Some("registry.example.com")
        );
        assert_eq!(
            registry_host("localhost:5000/x").as_deref(),
            Some("localhost")
        );
        assert_eq!(registry_host("nginx:1.27"), None);
        assert_eq!(registry_host("library/nginx"), None);
    }
}

//! `--redact`: masks IP addresses, hostnames, registry hosts and label values in any
//! rendered text (human, JSON, SARIF, HTML, explorer, scan lines), so a report can go on
//! a public ticket.
//!
//! What counts as a hostname, a registry host or a label value is learned from every
//! place the snapshot holds one (node names and addresses, pods' `spec.nodeName`, events'
//! source hosts, node leases, `kubernetes.io/hostname` labels, Ingress hosts,
//! `externalName`s, the hosts of URLs and DNS lookups in any string, the registry part of
//! every `image`, every label map and selector); IP addresses and the hosts of URLs and
//! DNS lookups are also recognised in the text itself, as are names under a private DNS
//! suffix (`.internal`, `.local`, `.corp` …), and such a host
//! is then masked wherever else the text names it. Hosts match whatever their case, and a
//! machine's short name (`ip-10-0-1-23` of `ip-10-0-1-23.ec2.internal`) gets its token. A known host is masked inside longer names too
//! (`kube-apiserver-ip-10-0-1-23.ec2.internal`, an event `node-b.17a3…`), wherever it
//! stands between separators (`-`, `.`, `_`). Label values are masked only where they
//! follow their key (`app=web`, `app: web`, `"app": "web"`), so a label value that is
//! also an ordinary word elsewhere stays readable. Each distinct value gets a stable token
//! (`HOST-1`, `IP-2`, `REGISTRY-1`, `LABEL-3`), numbered in sorted order of what the
//! snapshot holds, then in order of appearance; tokens hold no character that HTML, JSON
//! or YAML would need to escape.
//!
//! Also recognised in the text itself ([`patterns`]): host names under a public
//! top-level domain outside any URL (`api.acmecorp.com`, not an API group nor a label
//! key's prefix, which a `/` follows), EC2-style names (`ip-10-20-30-40`), MAC addresses
//! (`MAC-1`), e-mail local parts (`USER-1@HOST-2`), IPv6 addresses and prefixes, also
//! right after a `key:` (`remote_addr:IP-3`). A token is never masked again, so masking
//! masked text changes nothing.
//!
//! Masking works on string values, never on serialized text (where a newline is the
//! escape `\n` and its letter would glue onto the next name): [`Redactor::mask_value`]
//! masks every string and key of a JSON value, the one function every machine output
//! (JSON, SARIF, `get -o json|yaml`, `scan`, `serve`) masks with before it serializes.
//! Renderers of text mask each piece before they wrap, cut or escape it (see
//! [`super::Analysis::mask`]): a host split over two lines is no longer recognised.

mod patterns;

use crate::snapshot::Snapshot;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
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

/// Domains of public projects that bundles link to (CRD descriptions, docs links in
/// messages): naming them tells nothing about a cluster, and masking them everywhere would
/// also mask label keys and API groups (`app.kubernetes.io/name`).
const PUBLIC_DOMAINS: &[&str] = &[
    "kubernetes.io",
    "k8s.io",
    "openshift.io",
    "github.com",
    "githubusercontent.com",
    "docker.com",
    "golang.org",
    "go.dev",
];

pub struct Redactor {
    /// Known hostnames and registry hosts → token.
    hosts: HashMap<String, String>,
    /// The first part (up to a `-`, `.` or `_`) of every known host: where a host may
    /// start inside a longer name, so most parts of a name cost one lookup.
    heads: HashSet<String>,
    /// The longest known host, in bytes.
    longest: usize,
    /// Label key → values seen for it.
    labels: HashMap<String, BTreeSet<String>>,
    /// Label value → token (one token per distinct value, whatever the key).
    label_tokens: HashMap<String, String>,
    /// API groups and CRD names of the snapshot (`cert-manager.io`,
    /// `certificates.cert-manager.io`): names under a public domain that are no host.
    groups: HashSet<String>,
    /// Tokens handed out while redacting (IPs, URL hosts), consistent across calls.
    dynamic: Mutex<Dynamic>,
}

#[derive(Default)]
struct Dynamic {
    ips: HashMap<String, String>,
    /// MAC addresses (lower case) → `MAC-n`.
    macs: HashMap<String, String>,
    /// E-mail local parts → `USER-n`.
    users: HashMap<String, String>,
    hosts: HashMap<String, String>,
    /// [`Redactor::heads`] of `hosts`.
    heads: HashSet<String>,
    longest: usize,
    next_host: usize,
}

impl Redactor {
    /// Learns hostnames, registry hosts and labels from every object of the snapshot.
    pub fn from_snapshot(snap: &Snapshot) -> Redactor {
        let mut hostnames = BTreeSet::new();
        let mut registries = BTreeSet::new();
        let mut url_hosts = BTreeSet::new();
        let mut labels: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut groups = HashSet::new();
        for o in &snap.objects {
            let v = o.value();
            if let Some((group, _)) = o.api_version.rsplit_once('/') {
                groups.insert(group.to_ascii_lowercase());
            }
            if o.kind == "CustomResourceDefinition" {
                groups.insert(o.name.to_ascii_lowercase());
                if let Some(g) = v.pointer("/spec/group").and_then(Value::as_str) {
                    groups.insert(g.to_ascii_lowercase());
                }
            }
            let mut at = |pointer: &str| {
                if let Some(h) = v.pointer(pointer).and_then(Value::as_str) {
                    hostnames.insert(h.to_string());
                }
            };
            match o.kind.as_str() {
                "Node" | "CSINode" => {
                    hostnames.insert(o.name.clone());
                    if let Some(Value::Array(addrs)) = v.pointer("/status/addresses") {
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
                // Each node renews a Lease of its own name.
                "Lease" if o.namespace.as_deref() == Some("kube-node-lease") => {
                    hostnames.insert(o.name.clone());
                }
                // A node the bundle does not hold is still named by its pods and events.
                "Pod" => {
                    at("/spec/nodeName");
                    at("/status/nominatedNodeName");
                }
                "Event" => {
                    at("/source/host");
                    at("/deprecatedSource/host");
                    for about in ["/involvedObject", "/regarding"] {
                        if v.pointer(&format!("{about}/kind")).and_then(Value::as_str)
                            == Some("Node")
                        {
                            at(&format!("{about}/name"));
                        }
                    }
                    if v.get("reportingController").and_then(Value::as_str) == Some("kubelet") {
                        at("/reportingInstance");
                    }
                }
                "Ingress" => {
                    if let Some(Value::Array(rules)) = v.pointer("/spec/rules") {
                        for r in rules {
                            if let Some(h) = r.get("host").and_then(Value::as_str) {
                                hostnames.insert(h.trim_start_matches("*.").to_string());
                            }
                        }
                    }
                    if let Some(Value::Array(tls)) = v.pointer("/spec/tls") {
                        for t in tls {
                            if let Some(Value::Array(hosts)) = t.get("hosts") {
                                for h in hosts.iter().filter_map(Value::as_str) {
                                    hostnames.insert(h.trim_start_matches("*.").to_string());
                                }
                            }
                        }
                    }
                }
                "Service" => at("/spec/externalName"),
                _ => {}
            }
            walk(v, &mut registries, &mut url_hosts, &mut labels);
        }
        if let Some(names) = labels.get("kubernetes.io/hostname") {
            hostnames.extend(names.iter().cloned());
        }
        let mut hosts = HashMap::new();
        let mut n = 0;
        let mut add = |hosts: &mut HashMap<String, String>, h: &str| {
            // DNS names are case-insensitive: keys are lower case, lookups lower the text.
            let h = h.trim_end_matches('.').to_ascii_lowercase();
            if h.is_empty() || NOT_HOSTNAMES.contains(&h.as_str()) || parse_ipv4(&h) {
                return None;
            }
            if !hosts.contains_key(&h) {
                n += 1;
                hosts.insert(h.clone(), format!("HOST-{n}"));
            }
            hosts.get(&h).cloned()
        };
        for h in &hostnames {
            add(&mut hosts, h);
        }
        // A machine is also called by its short name (`ip-10-0-1-23` for
        // `ip-10-0-1-23.ec2.internal`, in hostname labels, prompts and logs): the same token.
        for h in &hostnames {
            let full = h.trim_end_matches('.').to_ascii_lowercase();
            if let Some((short, _)) = full.split_once('.')
                && is_machine_name(short)
                && !hosts.contains_key(short)
                && let Some(token) = hosts.get(&full).cloned()
            {
                hosts.insert(short.to_string(), token);
            }
        }
        let mut r = 0;
        for reg in registries {
            let reg = reg.to_ascii_lowercase();
            if hosts.contains_key(&reg) || parse_ipv4(&reg) || reg == "localhost" {
                continue;
            }
            r += 1;
            hosts.insert(reg, format!("REGISTRY-{r}"));
        }
        // Hosts of URLs and lookups come last: a registry named in a URL stays a registry.
        for h in &url_hosts {
            let lower = h.to_ascii_lowercase();
            if !groups.contains(&lower) && !ends_in(&lower, |k| hosts.contains_key(k)) {
                add(&mut hosts, h);
            }
        }
        let mut label_tokens = HashMap::new();
        let values: BTreeSet<&String> = labels.values().flatten().collect();
        for (i, v) in values.into_iter().enumerate() {
            label_tokens.insert(v.clone(), format!("LABEL-{}", i + 1));
        }
        Redactor {
            heads: hosts.keys().map(|h| head(h).to_string()).collect(),
            longest: hosts.keys().map(String::len).max().unwrap_or(0),
            hosts,
            labels: labels.into_iter().collect(),
            label_tokens,
            groups,
            dynamic: Mutex::new(Dynamic {
                next_host: n,
                ..Dynamic::default()
            }),
        }
    }

    /// Hands out the tokens of every string of `v` in order, without masking anything:
    /// what is learned first keeps its number in every output of the run.
    pub fn learn(&self, v: &Value) {
        let _ = self.mask_value(v);
    }

    /// Every string and key of `v` masked as [`Redactor::apply`] masks text: the one
    /// place machine outputs are masked, before they are serialized.
    /// A label value under its key (`"app": "web"` of a label map or a selector) is the
    /// label's token, as `app=web` in text is.
    pub fn mask_value(&self, v: &Value) -> Value {
        match v {
            Value::String(s) => Value::String(self.apply(s)),
            Value::Array(items) => items.iter().map(|x| self.mask_value(x)).collect(),
            Value::Object(m) => m
                .iter()
                .map(|(k, x)| {
                    let label = x.as_str().and_then(|s| self.label_token(k, s));
                    let x = match label {
                        Some(token) => Value::String(token.to_string()),
                        None => self.mask_value(x),
                    };
                    (self.apply(k), x)
                })
                .collect(),
            other => other.clone(),
        }
    }

    /// The token of `value` when it is a value of label `key`.
    fn label_token(&self, key: &str, value: &str) -> Option<&str> {
        if !self.labels.get(key)?.contains(value) {
            return None;
        }
        self.label_tokens.get(value).map(String::as_str)
    }

    /// Masks everything sensitive in `text`.
    pub fn apply(&self, text: &str) -> String {
        let mut d = self.dynamic.lock().expect("redactor lock");
        // A host this text names in a URL is masked where it names it before, too.
        self.learn_url_hosts(text, &mut d);
        // Label values first: their keys (`acme.example/team: …`) may hold a host.
        let text = self.label_values(text);
        let text = replace(&text, patterns::email_locals(&text), |local| {
            numbered(&mut d.users, "USER", local.to_string())
        });
        let text = replace(&text, patterns::macs(&text), |mac| {
            numbered(
                &mut d.macs,
                "MAC",
                mac.to_ascii_lowercase().replace('-', ":"),
            )
        });
        let text = self.hosts_and_ipv4(&text, &mut d);
        replace(&text, patterns::ipv6s(&text), |ip| ip_token(&mut d, ip))
    }

    /// Gives each URL or lookup host of `text` that is not known yet a token.
    fn learn_url_hosts(&self, text: &str, d: &mut Dynamic) {
        for host in named_hosts(text) {
            let host = host.to_ascii_lowercase();
            if self.groups.contains(&host)
                || ends_in(&host, |h| {
                    self.hosts.contains_key(h) || d.hosts.contains_key(h)
                })
            {
                continue;
            }
            d.next_host += 1;
            d.heads.insert(head(&host).to_string());
            d.hosts
                .insert(host.clone(), format!("HOST-{}", d.next_host));
            d.longest = d.longest.max(host.len());
        }
    }

    /// Hostnames, registry hosts, URL and lookup hosts, IPv4 addresses.
    fn hosts_and_ipv4(&self, text: &str, d: &mut Dynamic) -> String {
        let b = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let mut copied = 0;
        for (i, j) in runs(b, is_host_byte) {
            let token = text[i..j].trim_end_matches('.');
            let end = i + token.len();
            if parse_ipv4(token) && !(end < b.len() && b[end] == b':' && next_is_v6(b, end)) {
                out.push_str(&text[copied..i]);
                out.push_str(&ip_token(d, token));
                copied = end;
                continue;
            }
            // Every known host inside the run, from its start or after a separator.
            let run = &text[i..j];
            let mut k = 0; // the start of a part of the run
            while k < run.len() {
                if let Some(len) = token_at(run, k) {
                    k += len + 1; // a token stays as it is
                    continue;
                }
                match self.host_at(run, k, d) {
                    Some((len, tok)) => {
                        out.push_str(&text[copied..i + k]);
                        out.push_str(tok);
                        k += len;
                        copied = i + k;
                    }
                    None => {
                        k += run[k..]
                            .bytes()
                            .position(is_separator)
                            .unwrap_or(run.len() - k)
                    }
                }
                k += 1; // past the separator that ends the part
            }
        }
        out.push_str(&text[copied..]);
        out
    }

    /// The longest known host that starts at byte `k` of `run` (a part's start) and ends
    /// at a separator or the run's end: its length and token.
    fn host_at<'s>(&'s self, run: &str, k: usize, d: &'s Dynamic) -> Option<(usize, &'s str)> {
        let rest = &run[k..];
        let lowered;
        let rest = if rest.bytes().any(|c| c.is_ascii_uppercase()) {
            lowered = rest.to_ascii_lowercase();
            lowered.as_str()
        } else {
            rest
        };
        let first = head(rest);
        if first.is_empty() || !(self.heads.contains(first) || d.heads.contains(first)) {
            return None;
        }
        let longest = self.longest.max(d.longest);
        // A host ends at a separator (which may follow the longest host) or the run's end.
        let ends: Vec<usize> = rest[..(longest + 1).min(rest.len())]
            .bytes()
            .enumerate()
            .filter(|&(_, c)| is_separator(c))
            .map(|(p, _)| p)
            .chain((rest.len() <= longest).then_some(rest.len()))
            .collect();
        ends.into_iter().rev().find_map(|e| {
            let name = &rest[..e];
            self.hosts
                .get(name)
                .or_else(|| d.hosts.get(name))
                .map(|t| (e, t.as_str()))
        })
    }

    /// `key=value`, `key: value`, `"key": "value"` (also HTML-escaped) for known labels.
    fn label_values<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if self.labels.is_empty() {
            return Cow::Borrowed(text);
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
        Cow::Owned(out)
    }
}

/// Registry hosts of every `image`, hosts of URLs and lookups in every string, and label
/// maps of every object.
fn walk(
    v: &Value,
    registries: &mut BTreeSet<String>,
    url_hosts_seen: &mut BTreeSet<String>,
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
                    _ => walk(child, registries, url_hosts_seen, labels),
                }
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|c| walk(c, registries, url_hosts_seen, labels)),
        Value::String(text) => url_hosts_seen.extend(named_hosts(text)),
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

/// The hosts `text` names by their shape: [`url_hosts`] and EC2-style machine names
/// (`ip-10-20-30-40`, also inside a longer name), lower case.
fn named_hosts(text: &str) -> Vec<String> {
    let mut found: Vec<String> = url_hosts(text).map(str::to_ascii_lowercase).collect();
    for (i, j) in runs(text.as_bytes(), is_host_byte) {
        let run = &text[i..j];
        let starts = std::iter::once(0).chain(
            run.bytes()
                .enumerate()
                .filter(|&(_, c)| is_separator(c))
                .map(|(p, _)| p + 1),
        );
        for k in starts {
            if let Some(len) = patterns::ec2_name_at(run, k) {
                found.push(run[k..k + len].to_ascii_lowercase());
            }
        }
    }
    found
}

/// The hosts `text` names: names with a dot, not IPv4 addresses, that stand in a host
/// position (see [`url_host_context`]), end in a private DNS suffix
/// (`db.acmecorp-prod.internal`, `nas.local`) or in a public top-level domain
/// (`api.acmecorp.com`, not followed by the `/` of an API group or a label key)
/// wherever they are.
fn url_hosts(text: &str) -> impl Iterator<Item = &str> {
    runs(text.as_bytes(), is_host_byte).filter_map(move |(i, j)| {
        let token = text[i..j].trim_end_matches('.');
        let after = &text[i + token.len()..];
        // Not `name.ext:port` in general: `pods.json:103` and `main.go:82` are files.
        let named = url_host_context(&text[..i])
            || private_suffix(token)
            || (patterns::public_tld_host(token) && !after.starts_with('/'));
        let standard = ["cluster.local", "svc.cluster.local"]
            .iter()
            .any(|d| token.eq_ignore_ascii_case(d));
        (named && !standard && token.contains('.') && !parse_ipv4(token) && !is_public(token))
            .then_some(token)
    })
}

/// Whether `host`, or its tail after a `-` or `_`, is `known`: a name that ends in a known
/// host (`kube-apiserver-ip-10-0-1-23.ec2.internal`) is that host inside a longer name,
/// not a host of its own. A name under a known domain (`api.acmecorp.com` of
/// `acmecorp.com`) is a host of its own: masked whole, not as `api.HOST-1`.
fn ends_in(host: &str, known: impl Fn(&str) -> bool) -> bool {
    let mut tails = std::iter::once(0).chain(
        host.bytes()
            .enumerate()
            .filter(|&(_, c)| c == b'-' || c == b'_')
            .map(|(p, _)| p + 1),
    );
    tails.any(|p| known(&host[p..]))
}

/// DNS suffixes that only resolve inside a site: a name under one names a private machine.
const PRIVATE_SUFFIXES: &[&str] = &[
    "internal",
    "local",
    "localdomain",
    "lan",
    "corp",
    "intranet",
    "private",
    "home.arpa",
];

fn private_suffix(host: &str) -> bool {
    PRIVATE_SUFFIXES.iter().any(|s| {
        host.len() > s.len() + 1
            && host.as_bytes()[host.len() - s.len() - 1] == b'.'
            && host[host.len() - s.len()..].eq_ignore_ascii_case(s)
    })
}

/// A short name distinctive enough to stand for its machine wherever it appears: not a
/// role word, and not an ordinary word (it holds a digit or a dash).
fn is_machine_name(short: &str) -> bool {
    short.len() >= 4
        && !NOT_HOSTNAMES.contains(&short)
        && short.bytes().any(|c| c.is_ascii_digit() || c == b'-')
}

/// Whether `host` is one of [`PUBLIC_DOMAINS`] or under one.
fn is_public(host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    PUBLIC_DOMAINS.iter().any(|d| {
        host.strip_suffix(d)
            .is_some_and(|rest| rest.is_empty() || rest.ends_with('.'))
    })
}

/// The maximal runs of bytes of `b` that `is_in` takes, as `(start, end)`; a run does
/// not start with the letter of a written escape (`\nnode-b` is `node-b`).
fn runs(b: &[u8], is_in: fn(u8) -> bool) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() && (!is_in(b[i]) || patterns::after_escape(b, i + 1)) {
            i += 1;
        }
        if i >= b.len() {
            return None;
        }
        let start = i;
        while i < b.len() && is_in(b[i]) {
            i += 1;
        }
        Some((start, i))
    })
}

/// What separates the parts of a name (`kube-apiserver-node-b`, `node-b.17a3f`,
/// `pod_namespace`): a known host may start after one and end before one.
fn is_separator(c: u8) -> bool {
    matches!(c, b'-' | b'.' | b'_')
}

/// A name's first part, up to its first separator.
fn head(name: &str) -> &str {
    name.split(['-', '.', '_']).next().unwrap_or("")
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

/// `text` with each range of `found` (sorted, apart) replaced by its token.
fn replace(
    text: &str,
    found: Vec<(usize, usize)>,
    mut token: impl FnMut(&str) -> String,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (i, j) in found {
        out.push_str(&text[copied..i]);
        out.push_str(&token(&text[i..j]));
        copied = j;
    }
    out.push_str(&text[copied..]);
    out
}

/// The token of `value` in `tokens`, `KIND-n` for a new one.
fn numbered(tokens: &mut HashMap<String, String>, kind: &str, value: String) -> String {
    let n = tokens.len() + 1;
    tokens
        .entry(value)
        .or_insert_with(|| format!("{kind}-{n}"))
        .clone()
}

/// What tokens are called: `HOST-1`, `IP-2` …
const TOKEN_KINDS: &[&str] = &["HOST", "IP", "REGISTRY", "LABEL", "MAC", "USER", "INPUT"];

/// Whether `s` is a token this redactor hands out.
fn is_token(s: &str) -> bool {
    token_at(s, 0) == Some(s.len())
}

/// The length of a token starting at byte `k` of `run` and ending at its end or a
/// separator.
fn token_at(run: &str, k: usize) -> Option<usize> {
    let rest = &run[k..];
    let kind = TOKEN_KINDS
        .iter()
        .find(|t| rest.starts_with(**t) && rest[t.len()..].starts_with('-'))?;
    let digits = rest[kind.len() + 1..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    let len = kind.len() + 1 + digits;
    // Not `IP-10-0-1-23`: a token is not followed by another number.
    let ends = match rest.as_bytes().get(len) {
        None => true,
        Some(b'-') => !rest.as_bytes().get(len + 1).is_some_and(u8::is_ascii_digit),
        Some(&c) => is_separator(c),
    };
    (digits > 0 && ends).then_some(len)
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
        let hosts: HashMap<String, String> = hosts
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let next_host = hosts.values().filter(|t| t.starts_with("HOST-")).count();
        Redactor {
            heads: hosts.keys().map(|h| head(h).to_string()).collect(),
            longest: hosts.keys().map(String::len).max().unwrap_or(0),
            hosts,
            labels: l,
            label_tokens,
            groups: HashSet::new(),
            dynamic: Mutex::new(Dynamic {
                next_host,
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
    fn masks_hosts_inside_names() {
        let r = redactor(
            &[
                ("ip-10-0-1-23.ec2.internal", "HOST-1"),
                ("node-b", "HOST-2"),
            ],
            &[],
        );
        assert_eq!(
            r.apply(
                "kube-apiserver-ip-10-0-1-23.ec2.internal, event ip-10-0-1-23.ec2.internal.17a3f5c2, \
                 etcd-node-b_kube-system, node-bb, xnode-b, node-b-7f"
            ),
            "kube-apiserver-HOST-1, event HOST-1.17a3f5c2, etcd-HOST-2_kube-system, node-bb, \
             xnode-b, HOST-2-7f"
        );
    }

    #[test]
    fn a_url_host_is_masked_wherever_the_text_names_it() {
        let r = redactor(&[], &[]);
        assert_eq!(
            r.apply("vault.corp.example said no; Get \"https://vault.corp.example/v1\": not vault.corp.example"),
            "HOST-1 said no; Get \"https://HOST-1/v1\": not HOST-1"
        );
        // And in later text, through the same redactor.
        assert_eq!(r.apply("retry vault.corp.example"), "retry HOST-1");
    }

    #[test]
    fn plain_text_hosts_short_names_and_any_case() {
        let r = redactor(&[("ip-10-0-1-23.ec2.internal", "HOST-1")], &[]);
        // The short name is learned by from_snapshot; here the pair is given as it would be.
        let mut r = r;
        r.hosts.insert("ip-10-0-1-23".into(), "HOST-1".into());
        r.heads.insert("ip".into());
        assert_eq!(
            r.apply(
                "dial tcp db.acmecorp-prod.internal: refused; pods.json:103, main.go:82; \
                 IP-10-0-1-23.EC2.Internal and ip-10-0-1-23 said DB.AcmeCorp-Prod.Internal; \
                 kubernetes.default.svc.cluster.local, cluster.local, kueue.x-k8s.io/v1beta1"
            ),
            "dial tcp HOST-2: refused; pods.json:103, main.go:82; HOST-1 and HOST-1 said HOST-2; \
             HOST-3, cluster.local, kueue.x-k8s.io/v1beta1"
        );
    }

    #[test]
    fn public_project_domains_stay() {
        let r = redactor(&[], &[]);
        let text =
            "see https://kubernetes.io/docs and https://git.k8s.io/x; app.kubernetes.io/name";
        assert_eq!(r.apply(text), text);
    }

    #[test]
    fn leaves_ordinary_text_alone() {
        let r = redactor(&[("node-b", "HOST-1")], &[("app", "web")]);
        let text =
            "the web app serves nodes; name: web; kueue.x-k8s.io/v1beta1; 1.2.3; 0/3 nodes; ::";
        assert_eq!(r.apply(text), text);
    }

    #[test]
    fn values_are_masked_before_they_are_serialized() {
        let r = redactor(&[("node-worker-7", "HOST-1")], &[("app", "web")]);
        let v = serde_json::json!({
            "message": "fatal:\n10.1.2.3 refused\nnode-worker-7 unreachable\tfd00:1::7 down",
            "labels": {"app": "web", "other": "web"},
            "node-worker-7": ["remote_addr:fd00:abcd::17"],
        });
        let masked = r.mask_value(&v);
        assert_eq!(
            masked,
            serde_json::json!({
                "message": "fatal:\nIP-1 refused\nHOST-1 unreachable\tIP-2 down",
                "labels": {"app": "LABEL-1", "other": "web"},
                "HOST-1": ["remote_addr:IP-3"],
            })
        );
        // Masking masked values changes nothing.
        assert_eq!(r.mask_value(&masked), masked);
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

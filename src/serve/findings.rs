//! kdiag's findings as API objects: each a `kdiag.io/v1` `Finding` in the namespace of the
//! object it is about (`kdiag` for a cluster-scoped object's), and each also a `Warning`
//! event (`reason` = the rule, `reportingComponent: kdiag`) on that object and on each
//! object it explains or cites (the pod of a Deployment's finding, the node it names), as
//! `kdiag describe` lists it under each, so `kubectl describe` and every UI's event list
//! show it where the user already looks.

use super::resources::{FINDINGS_GROUP, FINDINGS_NAMESPACE};
use crate::kube::meta::ObjectRef;
use crate::kube::time::format_rfc3339;
use crate::rules::Finding;
use crate::snapshot::Snapshot;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// The findings as `Finding` objects and as events, each list sorted by namespace and
/// name (as the store sorts its own objects).
#[derive(Default)]
pub struct Added {
    pub findings: Vec<Held>,
    pub events: Vec<Held>,
}

/// One object the server adds, held for as long as it runs: as its JSON text, which a
/// tree costs several times over (a map node of eleven slots per object, a `Value` per
/// field; about 100 MB of trees for the 1 GB bundle's findings and their events). An
/// answer builds its tree. A tree that text might not give back is kept as it is: one
/// holding a float (read back, it may differ in the last digit) or nesting past what
/// serde_json reads.
pub struct Held {
    namespace: Option<String>,
    name: String,
    form: Form,
}

enum Form {
    Text(Box<str>),
    Tree(Value),
}

impl Held {
    /// `v`, held as text when that reads back as `v`.
    pub fn new(v: Value) -> Held {
        let at = |p: &str| v.pointer(p).and_then(Value::as_str).map(str::to_string);
        let (namespace, name) = (at("/metadata/namespace"), at("/metadata/name"));
        let form = match kept_as_tree(&v, 0) {
            false => Form::Text(v.to_string().into_boxed_str()),
            true => Form::Tree(v),
        };
        Held {
            namespace,
            name: name.unwrap_or_default(),
            form,
        }
    }

    /// `metadata.namespace`.
    pub fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref()
    }

    /// `metadata.name` (empty when it has none).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The object's tree: read from its text for this answer, or the one kept.
    pub fn tree(&self) -> Cow<'_, Value> {
        match &self.form {
            // Text this process wrote from a tree: it reads back.
            Form::Text(t) => Cow::Owned(serde_json::from_str(t).unwrap_or(Value::Null)),
            Form::Tree(v) => Cow::Borrowed(v),
        }
    }
}

/// Whether `v` holds a number that is neither an `i64` nor a `u64`, or nests deeper than
/// serde_json reads text (128 levels; `depth` is `v`'s own).
fn kept_as_tree(v: &Value, depth: usize) -> bool {
    match v {
        Value::Number(n) => n.is_f64(),
        _ if depth >= 100 => true,
        Value::Array(a) => a.iter().any(|x| kept_as_tree(x, depth + 1)),
        Value::Object(m) => m.values().any(|x| kept_as_tree(x, depth + 1)),
        _ => false,
    }
}

pub fn build(snap: &Snapshot, findings: &[Finding]) -> Added {
    let stamp = snap.as_of.map(format_rfc3339);
    let mut taken: HashMap<(String, String), usize> = HashMap::new();
    let mut objects = Vec::with_capacity(findings.len());
    let mut events = Vec::with_capacity(findings.len());
    for f in findings {
        let base = dns_name(&format!(
            "{}.{}.{}",
            f.rule.replace('/', "."),
            f.object.kind.to_ascii_lowercase(),
            f.object.name
        ));
        let namespace = f
            .object
            .namespace
            .clone()
            .unwrap_or_else(|| FINDINGS_NAMESPACE.to_string());
        let n = taken.entry((namespace.clone(), base.clone())).or_insert(0);
        *n += 1;
        let name = if *n == 1 { base } else { format!("{base}-{n}") };
        let uid = format!("kdiag-{:016x}", fnv(&format!("{namespace}/{name}")));
        let spec = serde_json::to_value(f).unwrap_or(Value::Null);
        objects.push(Held::new(json!({
            "apiVersion": format!("{FINDINGS_GROUP}/v1"),
            "kind": "Finding",
            "metadata": {
                "name": name,
                "namespace": namespace,
                "uid": uid,
                "creationTimestamp": stamp,
                "labels": {
                    "kdiag.io/severity": f.severity.as_str(),
                    "kdiag.io/stage": f.stage.as_str(),
                },
            },
            "spec": spec,
        })));
        for (target, on) in targets(snap, f) {
            let id = snap.find_ref(
                &target.api_version,
                &target.kind,
                target.namespace.as_deref(),
                &target.name,
            );
            let target_uid = id.and_then(|id| snap.object(id).uid.clone());
            // One event per finding and object: the finding's own name for its object,
            // a hash of the object's for each other object it is about.
            let suffix = match on {
                None => uid[6..].to_string(),
                Some(_) => format!("{:016x}", fnv(&format!("{uid}/{}", target.display()))),
            };
            let message = match &on {
                None => f.message.clone(),
                Some(about) => format!("on {about}: {}", f.message),
            };
            events.push(Held::new(json!({
                "apiVersion": "v1",
                "kind": "Event",
                "metadata": {
                    "name": format!("{}.kdiag.{suffix}", target.name),
                    "namespace": target.namespace.as_deref().unwrap_or("default"),
                    "uid": format!("kdiag-{suffix}-event"),
                    "creationTimestamp": stamp,
                },
                "involvedObject": {
                    "apiVersion": target.api_version,
                    "kind": target.kind,
                    "namespace": target.namespace,
                    "name": target.name,
                    "uid": target_uid,
                },
                "reason": f.rule,
                "message": message,
                "type": "Warning",
                "count": 1,
                "firstTimestamp": stamp,
                "lastTimestamp": stamp,
                "source": {"component": "kdiag"},
                "reportingComponent": "kdiag",
                "reportingInstance": "kdiag",
            })));
        }
    }
    let key = |h: &Held| (h.namespace().unwrap_or("").to_string(), h.name.clone());
    objects.sort_by_cached_key(key);
    events.sort_by_cached_key(key);
    Added {
        findings: objects,
        events,
    }
}

/// The objects a finding is an event on, as `kdiag describe` lists it under each one's
/// `Findings:`: its own object (`None`), then each object it explains or cites as evidence
/// (`Some`: the finding's object, which the event's message names), each once.
fn targets(snap: &Snapshot, f: &Finding) -> Vec<(ObjectRef, Option<String>)> {
    let key = |r: &ObjectRef| (r.kind.clone(), r.namespace.clone(), r.name.clone());
    let mut seen = HashSet::from([key(&f.object)]);
    let mut out = vec![(f.object.clone(), None)];
    let others = f
        .explains
        .iter()
        .map(|&id| snap.object(id).reference())
        .chain(f.evidence.iter().filter_map(|e| e.object.clone()));
    for r in others {
        if seen.insert(key(&r)) {
            out.push((r, Some(f.object.display())));
        }
    }
    out
}

/// The columns of a `Finding` (after NAME): what `kubectl get findings` prints.
pub const COLUMNS: [&str; 5] = ["SEVERITY", "STAGE", "RULE", "OBJECT", "MESSAGE"];

/// A `Finding` object's cells, NAME first.
pub fn row(v: &Value) -> Vec<String> {
    let s = |p: &str| {
        v.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let message = s("/spec/message");
    vec![
        s("/metadata/name"),
        s("/spec/severity"),
        s("/spec/stage"),
        s("/spec/rule"),
        format!(
            "{}/{}",
            s("/spec/object/kind").to_ascii_lowercase(),
            s("/spec/object/name")
        ),
        message.lines().next().unwrap_or("").to_string(),
    ]
}

/// A DNS subdomain name (lower case, `[a-z0-9.-]`, at most 253 characters) made of `s`.
fn dns_name(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9' | '.' | '-') => c,
            _ => '-',
        })
        .collect();
    if out.len() > 240 {
        let hash = fnv(s);
        out.truncate(223);
        out.push_str(&format!("-{hash:016x}"));
    }
    out.trim_matches(|c| c == '-' || c == '.').to_string()
}

/// FNV-1a: a stable short hash for names and uids (the same bundle gives the same uids).
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_dns_subdomains() {
        assert_eq!(dns_name("pod.stuck.pod.Web_1"), "pod.stuck.pod.web-1");
        assert_eq!(dns_name("-x-"), "x");
        let long = dns_name(&"a".repeat(400));
        assert!(long.len() <= 253, "{}", long.len());
        assert_ne!(
            dns_name(&"a".repeat(400)),
            dns_name(&format!("{}b", "a".repeat(399)))
        );
    }

    #[test]
    fn an_added_object_is_held_as_text_that_reads_back() {
        let v = json!({"metadata": {"name": "a", "namespace": "ns"},
            "spec": {"count": 3, "big": u64::MAX, "neg": -4, "s": "ü\"\n", "none": null}});
        let h = Held::new(v.clone());
        assert!(matches!(h.form, Form::Text(_)));
        assert_eq!(*h.tree(), v);
        assert_eq!((h.namespace(), h.name()), (Some("ns"), "a"));
        // No namespace, no name: as the tree's pointers read them.
        let h = Held::new(json!({"kind": "Finding"}));
        assert_eq!((h.namespace(), h.name()), (None, ""));
    }

    #[test]
    fn an_added_object_text_might_not_give_back_keeps_its_tree() {
        let float = json!({"metadata": {"name": "f"}, "ratio": 0.1});
        assert!(matches!(Held::new(float.clone()).form, Form::Tree(_)));
        assert_eq!(*Held::new(float.clone()).tree(), float);
        let mut deep = json!(1);
        for _ in 0..150 {
            deep = json!([deep]);
        }
        let h = Held::new(deep.clone());
        assert!(matches!(h.form, Form::Tree(_)));
        assert_eq!(*h.tree(), deep);
    }
}

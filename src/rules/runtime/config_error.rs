//! `runtime/config-error`: CreateContainerConfigError, checked against the bundle's
//! ConfigMaps and Secrets.

use super::facts;
use crate::declare_rule;
use crate::kube::meta::ObjectRef;
use crate::kube::pod::Container;
use crate::rules::evidence;
use crate::rules::pod_findings::{self, Case, Presence, note};
use crate::rules::reach::Reach;
use crate::rules::{Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::collections::BTreeMap;

declare_rule! {
    /// Explains CreateContainerConfigError by checking what the container references.
    ///
    /// The kubelet cannot build the container's configuration: a ConfigMap or Secret
    /// named in `env[].valueFrom` or `envFrom` is missing, a key is missing from it, or
    /// `runAsNonRoot` conflicts with the image's user. Every non-optional reference of the
    /// container is checked against the bundle: ConfigMaps by name and key, Secrets by
    /// name only (bundles never keep Secret data, and troubleshoot bundles keep no
    /// Secrets at all, which is said rather than guessed). A key found only in the
    /// ConfigMap's `binaryData` is missing for an env var: the kubelet reads `data` only.
    /// When the bundle holds what the kubelet said was missing, the finding says so: it
    /// was created after the error.
    pub static CONFIG_ERROR = {
        id: "runtime/config-error",
        stage: Stage::Runtime,
        severity: Severity::Error,
        fallback: false,
        // Local: each pod with the ConfigMaps, Secrets and Events of its namespace.
        reach: Reach::Local,
        run: run,
    };
}

/// One ConfigMap/Secret reference of a container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ref {
    pub kind: &'static str,
    pub name: String,
    pub key: Option<String>,
    pub optional: bool,
    /// "env DB_URL" / "envFrom".
    pub via: String,
}

/// The container's ConfigMap and Secret references from `env` and `envFrom`.
pub fn container_refs(c: &Container) -> Vec<Ref> {
    let mut out = Vec::new();
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let opt = |v: &Value| v.get("optional").and_then(Value::as_bool).unwrap_or(false);
    for e in c.env.get() {
        let var = s(e, "name").unwrap_or_default();
        for (field, kind) in [("configMapKeyRef", "ConfigMap"), ("secretKeyRef", "Secret")] {
            if let Some(r) = e.get("valueFrom").and_then(|v| v.get(field)) {
                out.push(Ref {
                    kind,
                    name: s(r, "name").unwrap_or_default(),
                    key: s(r, "key"),
                    optional: opt(r),
                    via: format!("env {var}"),
                });
            }
        }
    }
    for e in c.env_from.get() {
        for (field, kind) in [("configMapRef", "ConfigMap"), ("secretRef", "Secret")] {
            if let Some(r) = e.get(field) {
                out.push(Ref {
                    kind,
                    name: s(r, "name").unwrap_or_default(),
                    key: None,
                    optional: opt(r),
                    via: "envFrom".into(),
                });
            }
        }
    }
    out
}

/// What the kubelet's message names: (kind, name, key).
pub fn parse_message(m: &str) -> Option<(&'static str, String, Option<String>)> {
    for (prefix, kind) in [("configmap \"", "ConfigMap"), ("secret \"", "Secret")] {
        if let Some(i) = m.find(prefix) {
            let rest = &m[i + prefix.len()..];
            if let Some((name, tail)) = rest.split_once('"')
                && tail.trim_start().starts_with("not found")
            {
                return Some((kind, name.to_string(), None));
            }
        }
    }
    if let Some(rest) = m.split("couldn't find key ").nth(1) {
        let (key, rest) = rest.split_once(" in ")?;
        let (kind, obj) = rest.split_once(' ')?;
        let kind = match kind {
            "ConfigMap" => "ConfigMap",
            "Secret" => "Secret",
            _ => return None,
        };
        let obj = obj.split_whitespace().next().unwrap_or("");
        let name = obj.rsplit('/').next().unwrap_or(obj).to_string();
        return Some((kind, name, Some(key.trim().to_string())));
    }
    None
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let mut groups: BTreeMap<(ObjectRef, String), (Vec<Case>, String, Severity)> = BTreeMap::new();
    for (id, pod) in snap.pods() {
        if !pod.is_active()
            || pod.metadata.deletion_timestamp.is_some()
            || facts::job_failed(snap, pod)
        {
            continue;
        }
        let Some((cs, init)) = pod.all_statuses().find(|(cs, _)| {
            cs.state.waiting.as_ref().and_then(|w| w.reason.as_deref())
                == Some("CreateContainerConfigError")
        }) else {
            continue;
        };
        let ns = pod_findings::namespace_of(snap, *id).to_string();
        let msg = cs
            .state
            .waiting
            .as_ref()
            .and_then(|w| w.message.clone())
            .unwrap_or_default();
        let kind = if init { "init container" } else { "container" };
        let mut ev = vec![facts::status_evidence(
            snap,
            *id,
            cs,
            init,
            format!(
                "{kind} {} waiting: CreateContainerConfigError: {msg}",
                cs.name
            ),
        )];
        let refs = pod
            .container(&cs.name)
            .map(container_refs)
            .unwrap_or_default();
        let mut problems: Vec<(String, String)> = Vec::new(); // (cause, sentence)
        for r in refs.iter().filter(|r| !r.optional) {
            match check(snap, &ns, r) {
                Check::Fine(_) => {}
                Check::Problem {
                    cause,
                    sentence,
                    evidence,
                } => {
                    problems.push((cause, sentence));
                    ev.extend(evidence);
                }
            }
        }
        let named = parse_message(&msg);
        let lower = msg.to_ascii_lowercase();
        let mut severity = Severity::Error;
        let (cause, what, help) = if lower.contains("runasnonroot") {
            (
                "run-as-non-root".to_string(),
                "securityContext.runAsNonRoot is set but the image runs as root (or names its user by name, which the kubelet cannot verify)".to_string(),
                "set securityContext.runAsUser to a non-zero UID, or use an image whose USER is a numeric non-root UID",
            )
        } else if !problems.is_empty() {
            let (cause, _) = problems[0].clone();
            (
                cause,
                problems
                    .iter()
                    .map(|(_, s)| s.clone())
                    .collect::<Vec<_>>()
                    .join("; "),
                "create the missing ConfigMap/Secret or key in the pod's namespace (or mark the reference optional); the kubelet retries on its own",
            )
        } else if let Some((k, name, key)) = &named {
            // The kubelet named something the bundle now holds.
            let found = check(
                snap,
                &ns,
                &Ref {
                    kind: k,
                    name: name.clone(),
                    key: key.clone(),
                    optional: false,
                    via: String::new(),
                },
            );
            let sentence = match found {
                Check::Fine(Some(oid)) => {
                    // It exists now: the kubelet's next retry should start the container.
                    severity = Severity::Warning;
                    ev.push(evidence::object(
                        snap,
                        oid,
                        format!("{k} {ns}/{name} as the bundle holds it"),
                    ));
                    format!(
                        "the kubelet could not find {k} {name}{}, but the bundle holds it{}: it was created or fixed after the kubelet's attempt, and the kubelet retries",
                        key.as_deref()
                            .map(|k| format!(" key {k}"))
                            .unwrap_or_default(),
                        key.as_deref()
                            .map(|k| format!(" with key {k}"))
                            .unwrap_or_default()
                    )
                }
                Check::Fine(None) => format!("the kubelet could not find {k} {name}"),
                Check::Problem {
                    sentence, evidence, ..
                } => {
                    ev.extend(evidence);
                    sentence
                }
            };
            (
                format!(
                    "missing-{}:{name}{}",
                    k.to_ascii_lowercase(),
                    key.as_deref().map(|k| format!(":{k}")).unwrap_or_default()
                ),
                sentence,
                "create the missing ConfigMap/Secret or key in the pod's namespace (or mark the reference optional); the kubelet retries on its own",
            )
        } else {
            (
                format!("config:{}", cs.name),
                "the kubelet cannot build its configuration".to_string(),
                "read the kubelet's message: it names the missing object, key or security setting",
            )
        };
        let summary = format!(
            "has {kind} {} failing with CreateContainerConfigError: {what}{}",
            cs.name,
            if msg.is_empty() {
                String::new()
            } else {
                format!(" (the kubelet says: {msg})")
            }
        );
        let entry = groups
            .entry((pod_findings::owner_of(snap, *id), cause))
            .or_insert_with(|| (Vec::new(), help.to_string(), severity));
        entry.2 = entry.2.min(severity);
        entry.0.push(Case {
            id: *id,
            summary,
            evidence: ev,
        });
    }
    groups
        .into_iter()
        .map(|((owner, cause), (cases, help, sev))| {
            pod_findings::pods_finding(snap, &CONFIG_ERROR, sev, owner, &cause, cases, help)
        })
        .collect()
}

enum Check {
    Fine(Option<ObjectId>),
    Problem {
        cause: String,
        sentence: String,
        evidence: Vec<Evidence>,
    },
}

/// Checks one reference against the bundle.
fn check(snap: &Snapshot, ns: &str, r: &Ref) -> Check {
    let lower = r.kind.to_ascii_lowercase();
    let via = if r.via.is_empty() {
        String::new()
    } else {
        format!(" ({})", r.via)
    };
    match pod_findings::presence(snap, r.kind, Some(ns), &r.name) {
        Presence::Absent => Check::Problem {
            cause: format!("missing-{lower}:{}", r.name),
            sentence: format!(
                "{}{via}",
                pod_findings::describe_presence(r.kind, ns, &r.name, Presence::Absent)
            ),
            evidence: vec![note(pod_findings::describe_presence(
                r.kind,
                ns,
                &r.name,
                Presence::Absent,
            ))],
        },
        p @ (Presence::NotCollected | Presence::Unlisted) => Check::Problem {
            cause: format!("missing-{lower}:{}", r.name),
            sentence: format!(
                "{}{via}{}",
                pod_findings::describe_presence(r.kind, ns, &r.name, p),
                if r.kind == "Secret" && p == Presence::NotCollected {
                    " (support bundles collect no Secrets by default)"
                } else {
                    ""
                }
            ),
            evidence: vec![note(pod_findings::describe_presence(
                r.kind, ns, &r.name, p,
            ))],
        },
        Presence::Present(oid) => {
            let Some(key) = &r.key else {
                return Check::Fine(Some(oid));
            };
            if r.kind != "ConfigMap" {
                // Secret keys are never kept in a bundle.
                return Check::Fine(Some(oid));
            }
            let Some(cm) = Snapshot::view_of(snap.config_maps(), oid) else {
                return Check::Fine(Some(oid));
            };
            if cm.only_binary(key) {
                // An env var reads `data` only (kubelet makeEnvironmentVariables):
                // the key is there, where env vars never look.
                let what = format!(
                    "ConfigMap {ns}/{} holds key {key}{via} only in binaryData, which env vars never read: the kubelet takes their values from data",
                    r.name
                );
                return Check::Problem {
                    cause: format!("binary-data-key:{}:{key}", r.name),
                    sentence: what.clone(),
                    evidence: vec![evidence::field(snap, oid, &["binaryData", key], what)],
                };
            }
            if cm.has_key(key) {
                return Check::Fine(Some(oid));
            }
            let keys = if cm.keys.is_empty() {
                "it has no keys".to_string()
            } else {
                format!("its keys: {}", cm.keys.join(", "))
            };
            Check::Problem {
                cause: format!("missing-key:{}:{key}", r.name),
                sentence: format!("ConfigMap {ns}/{} has no key {key}{via}; {keys}", r.name),
                evidence: vec![evidence::field(
                    snap,
                    oid,
                    &["data"],
                    format!("ConfigMap {ns}/{}: no key {key} ({keys})", r.name),
                )],
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kubelet_messages() {
        assert_eq!(
            parse_message("configmap \"app-config\" not found"),
            Some(("ConfigMap", "app-config".into(), None))
        );
        assert_eq!(
            parse_message("secret \"db\" not found"),
            Some(("Secret", "db".into(), None))
        );
        assert_eq!(
            parse_message("couldn't find key DB_URL in ConfigMap demo/app-config"),
            Some(("ConfigMap", "app-config".into(), Some("DB_URL".into())))
        );
        assert_eq!(
            parse_message("couldn't find key password in Secret demo/db-creds"),
            Some(("Secret", "db-creds".into(), Some("password".into())))
        );
        assert_eq!(
            parse_message("container has runAsNonRoot and image will run as root"),
            None
        );
    }

    #[test]
    fn references() {
        let c: Container = serde_json::from_value(json!({
            "name": "api",
            "env": [
                {"name": "A", "value": "x"},
                {"name": "DB_URL", "valueFrom": {"configMapKeyRef": {"name": "cfg", "key": "db"}}},
                {"name": "PW", "valueFrom": {"secretKeyRef": {"name": "creds", "key": "pw", "optional": true}}}
            ],
            "envFrom": [{"configMapRef": {"name": "common"}}, {"secretRef": {"name": "tokens"}}]
        }))
        .unwrap();
        let r = container_refs(&c);
        assert_eq!(r.len(), 4);
        assert_eq!(
            (
                r[0].kind,
                r[0].name.as_str(),
                r[0].key.as_deref(),
                r[0].via.as_str()
            ),
            ("ConfigMap", "cfg", Some("db"), "env DB_URL")
        );
        assert!(r[1].optional);
        assert_eq!((r[3].kind, r[3].via.as_str()), ("Secret", "envFrom"));
    }
}

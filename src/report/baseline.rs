//! `--baseline PREVIOUS.json`: which findings are new and which are resolved against an
//! earlier `kdiag analyze --format json` result, matched by fingerprint (rule, object,
//! cause; never drifting numbers). Exit status then follows the *new* findings only.

use super::Analysis;
use crate::rules::{Finding, Severity};
use serde_json::{Value, json};
use std::collections::HashSet;

pub struct Comparison {
    /// The file the baseline was read from, as given.
    pub path: String,
    /// Fingerprints of the baseline's findings (after the run's filters).
    previous: HashSet<String>,
    /// Findings of the baseline that this run no longer reports, as the baseline wrote them.
    pub resolved: Vec<Value>,
    /// How many of this run's findings the baseline already had.
    pub unchanged: usize,
    /// How many of this run's findings are new.
    pub new: usize,
}

/// The largest baseline read: a findings document is a few MB even for thousands of
/// findings; anything bigger (or endless, like `/dev/zero`) is refused unread.
pub const MAX_BASELINE_BYTES: u64 = 64 << 20;

/// A baseline's text: a regular file of at most [`MAX_BASELINE_BYTES`].
fn read_baseline(path: &str) -> std::io::Result<String> {
    use std::io::Read;
    let meta = std::fs::metadata(path)?;
    if let Some(kind) = crate::ingest::source::special_kind(&meta.file_type()) {
        return Err(crate::ingest::source::not_regular(kind));
    }
    let too_big = || {
        std::io::Error::other(format!(
            "larger than the {} MiB a baseline may be; not read",
            MAX_BASELINE_BYTES >> 20
        ))
    };
    if meta.len() > MAX_BASELINE_BYTES {
        return Err(too_big());
    }
    let mut text = String::new();
    std::fs::File::open(path)?
        .take(MAX_BASELINE_BYTES + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > MAX_BASELINE_BYTES {
        return Err(too_big());
    }
    Ok(text)
}

impl Comparison {
    /// Reads a `kdiag.findings/v1` document and compares it with `current`. `keep`
    /// applies the run's own filters (namespace, stage) to the baseline's findings, so a
    /// filtered run does not call everything outside its filter "resolved".
    pub fn load(
        path: &str,
        current: &[Finding],
        keep: &dyn Fn(&Value) -> bool,
    ) -> Result<Comparison, String> {
        let text = read_baseline(path).map_err(|e| format!("cannot read baseline {path}: {e}"))?;
        Self::from_json(path, &text, current, keep)
    }

    pub fn from_json(
        path: &str,
        text: &str,
        current: &[Finding],
        keep: &dyn Fn(&Value) -> bool,
    ) -> Result<Comparison, String> {
        let doc: Value =
            serde_json::from_str(text).map_err(|e| format!("baseline {path} is not JSON: {e}"))?;
        let schema = doc.get("schema").and_then(Value::as_str).unwrap_or("");
        if schema != "kdiag.findings/v1" {
            return Err(format!(
                "baseline {path} is not a `kdiag analyze --format json` result (schema {schema:?}, expected \"kdiag.findings/v1\")"
            ));
        }
        let old: Vec<&Value> = doc
            .get("findings")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter(|f| keep(f)).collect())
            .unwrap_or_default();
        let previous: HashSet<String> = old
            .iter()
            .filter_map(|f| {
                f.get("fingerprint")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .collect();
        let now: HashSet<&str> = current.iter().map(|f| f.fingerprint.as_str()).collect();
        let mut seen = HashSet::new();
        let resolved: Vec<Value> = old
            .iter()
            .filter(|f| {
                let fp = f.get("fingerprint").and_then(Value::as_str).unwrap_or("");
                !now.contains(fp) && seen.insert(fp.to_string())
            })
            .map(|f| (*f).clone())
            .collect();
        let new = current
            .iter()
            .filter(|f| !previous.contains(&f.fingerprint))
            .count();
        Ok(Comparison {
            path: path.to_string(),
            unchanged: current.len() - new,
            new,
            previous,
            resolved,
        })
    }

    pub fn is_new(&self, f: &Finding) -> bool {
        !self.previous.contains(&f.fingerprint)
    }

    /// Whether a new finding is at or above the threshold (the run's exit status).
    pub fn fails(&self, findings: &[Finding], threshold: Option<Severity>) -> bool {
        threshold.is_some_and(|t| findings.iter().any(|f| f.severity <= t && self.is_new(f)))
    }

    /// One line: `baseline old.json: 2 new, 1 resolved, 5 unchanged`.
    pub fn summary(&self) -> String {
        format!(
            "baseline {}: {} new, {} resolved, {} unchanged",
            self.path,
            self.new,
            self.resolved.len(),
            self.unchanged
        )
    }

    /// `--format json --baseline`: the `kdiag.baseline/v1` document (the findings
    /// contract itself is unchanged; this is a separate schema).
    pub fn render_json(&self, a: &Analysis) -> String {
        let new: Vec<&Finding> = a.findings.iter().filter(|f| self.is_new(f)).collect();
        let unchanged: Vec<&str> = a
            .findings
            .iter()
            .filter(|f| !self.is_new(f))
            .map(|f| f.fingerprint.as_str())
            .collect();
        let doc = json!({
            "schema": "kdiag.baseline/v1",
            "baseline": self.path,
            "inputs": a.inputs,
            "new": new,
            "resolved": self.resolved,
            "unchanged": unchanged,
        });
        a.to_json(&doc)
    }
}

/// `[stage] severity Kind ns/name: message` of a finding as the baseline wrote it (the
/// message masked before it is cut, with `--redact`).
pub fn one_line(a: &Analysis, f: &Value) -> String {
    let s = |k: &str| f.get(k).and_then(Value::as_str).unwrap_or("");
    let o = f.get("object").cloned().unwrap_or(Value::Null);
    let os = |k: &str| o.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let object = match o.get("namespace").and_then(Value::as_str) {
        Some(ns) => format!("{} {}/{}", os("kind"), ns, os("name")),
        None => format!("{} {}", os("kind"), os("name")),
    };
    let line = format!(
        "[{}] {} {}: {}",
        s("stage"),
        s("severity"),
        object,
        first_sentence(&a.mask(s("message")))
    );
    a.mask(&line).into_owned()
}

fn first_sentence(m: &str) -> String {
    let cut: String = m.chars().take(140).collect();
    if cut.len() < m.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::meta::ObjectRef;
    use crate::rules::Stage;

    fn finding(fp: &str) -> Finding {
        Finding {
            fingerprint: fp.into(),
            rule: "pod/stuck",
            severity: Severity::Error,
            stage: Stage::Runtime,
            object: ObjectRef::default(),
            message: "m".into(),
            evidence: vec![],
            help: String::new(),
            details: None,
            explains: vec![],
            causes: vec![],
            shared: None,
        }
    }

    #[test]
    fn new_resolved_unchanged() {
        let prev = r#"{"schema":"kdiag.findings/v1","findings":[
            {"fingerprint":"a","stage":"runtime","severity":"error","message":"old a","object":{"kind":"Pod","name":"x"}},
            {"fingerprint":"b","stage":"node","severity":"error","message":"old b","object":{"kind":"Pod","name":"y"}}]}"#;
        let now = vec![finding("a"), finding("c")];
        let c = Comparison::from_json("p.json", prev, &now, &|_| true).unwrap();
        assert_eq!((c.new, c.unchanged, c.resolved.len()), (1, 1, 1));
        assert!(c.is_new(&now[1]) && !c.is_new(&now[0]));
        assert!(c.fails(&now, Some(Severity::Error)));
        assert!(!c.fails(&now[..1], Some(Severity::Error)));
        let only_runtime =
            Comparison::from_json("p.json", prev, &now, &|f| f["stage"] == "runtime").unwrap();
        assert_eq!(
            only_runtime.resolved.len(),
            0,
            "a filtered-out finding is not resolved"
        );
        assert!(Comparison::from_json("p.json", "{}", &now, &|_| true).is_err());
    }
}

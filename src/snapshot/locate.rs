//! Where a field of an object sits in the bundle's text: the line a finding cites, found
//! by walking the object's own lines, never a line index of the whole file.

use super::{ObjectId, Snapshot};
use crate::parse::tree;
use serde_json::Value;

/// The steps [`Snapshot::locate`] takes to the value at `path` of `tree`: its keys, and
/// for a list item `name=…` when the item has a name (else the item is not looked for).
pub(super) fn line_steps(tree: &Value, path: &[tree::Step]) -> Vec<String> {
    let mut steps = Vec::new();
    let mut at = Some(tree);
    for step in path {
        at = match step {
            tree::Step::Key(k) => {
                steps.push(k.clone());
                at.and_then(|v| v.get(k))
            }
            tree::Step::Index(i) => {
                let item = at.and_then(|v| v.get(*i));
                if let Some(name) = item.and_then(|v| v.get("name")).and_then(Value::as_str) {
                    steps.push(format!("name={name}"));
                }
                item
            }
        };
    }
    steps
}

impl Snapshot {
    /// Line of a field inside an object's text, found lazily by walking the keys in
    /// order (`["status", "containerStatuses", "name=api", "state"]`; `k=v` matches a
    /// `k: v` line). Falls back to the object's first line.
    pub fn locate(&self, id: ObjectId, path: &[&str]) -> u32 {
        let (file, span) = self.source_of(id);
        let mut line_no = span.start;
        // The body's own offset when it has one: a line index of a large file is a pass
        // over all of it, for one object.
        let text = match self.object(id).body.text_from_start(&file.text) {
            Some(text) => text,
            None => file.lines(span.start, span.end),
        };
        let mut lines = text.lines().zip(span.start..=span.end);
        for seg in path {
            let entry = Entry::of(seg);
            match lines.by_ref().find(|(l, _)| entry.is_on(l)) {
                Some((_, n)) => line_no = n,
                None => break,
            }
        }
        line_no
    }
}

/// A segment of a [`Snapshot::locate`] path: `key`, or `key=value` for the entry
/// `key: value`. Split once per segment: every line of a cited object is asked.
struct Entry<'a> {
    key: &'a str,
    value: Option<&'a str>,
}

impl<'a> Entry<'a> {
    fn of(seg: &'a str) -> Self {
        match seg.split_once('=') {
            Some((key, value)) => Entry {
                key,
                value: Some(value),
            },
            None => Entry {
                key: seg,
                value: None,
            },
        }
    }

    /// Whether `line` is this entry, in YAML or JSON (after indentation and `- `).
    fn is_on(&self, line: &str) -> bool {
        let mut l = trim_start(line);
        while let Some(rest) = l.strip_prefix("- ") {
            l = rest;
        }
        let k = self.key;
        match self.value {
            Some(v) => {
                starts_with_all(l, &[k, ": ", v])
                    || starts_with_all(l, &[k, ": \"", v, "\""])
                    || starts_with_all(l, &["\"", k, "\": \"", v, "\""])
                    || starts_with_all(l, &["\"", k, "\":\"", v, "\""])
            }
            None => starts_with_all(l, &[k, ":"]) || starts_with_all(l, &["\"", k, "\":"]),
        }
    }
}

/// `str::trim_start`, taking ASCII white space a byte at a time (indentation is most of
/// what it skips; decoding it as chars cost more than the rest of the match).
fn trim_start(s: &str) -> &str {
    let ascii = s
        .bytes()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
        .count();
    let rest = &s[ascii..];
    if rest.as_bytes().first().is_some_and(|&b| b >= 0x80) {
        rest.trim_start()
    } else {
        rest
    }
}

/// Whether `s` starts with `parts` written one after another (without joining them:
/// every line of a cited object is asked).
fn starts_with_all(mut s: &str, parts: &[&str]) -> bool {
    for part in parts {
        match s.strip_prefix(part) {
            Some(rest) => s = rest,
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::body::Body;
    use crate::ingest::{InputArg, load};

    #[test]
    fn line_has_key_forms() {
        let line_has_key = |line: &str, seg: &str| Entry::of(seg).is_on(line);
        assert!(line_has_key("  status:", "status"));
        assert!(line_has_key("    - type: Ready", "type=Ready"));
        assert!(line_has_key("  status: \"False\"", "status=False"));
        assert!(line_has_key(
            "  \"reason\": \"Unschedulable\",",
            "reason=Unschedulable"
        ));
        assert!(line_has_key(
            "\"reason\":\"Unschedulable\"",
            "reason=Unschedulable"
        ));
        assert!(line_has_key("  \"spec\": {", "spec"));
        assert!(!line_has_key("  statusX: 1", "status"));
        assert!(!line_has_key("  name: status:", "status"));
        assert!(line_has_key("\t- - type: Ready", "type=Ready"));
        assert!(!line_has_key("-  type: Ready", "type=Ready"));
        assert!(line_has_key("\u{a0} \u{2003}status:", "status"));
        for s in [
            "",
            " ",
            "\t\r\n x",
            " \u{85}\u{a0}x ",
            "\u{2003}",
            "\u{e9}",
            " \u{e9} ",
            "\x0b\x0cx",
        ] {
            assert_eq!(trim_start(s), s.trim_start(), "{s:?}");
        }
    }

    /// In a one-line JSON List an object's text is its own bytes, not the rest of the
    /// line: finding a cited field reads the object, not what follows it (the whole List,
    /// once per citation, for every object that carries a finding).
    #[test]
    fn a_one_line_json_object_ends_at_its_last_byte() {
        let dir = std::env::temp_dir().join(format!("kdiag-locate1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = r#"{"apiVersion":"v1","kind":"PodList","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"ns"},"status":{"phase":"Running"}},{"apiVersion":"v1","kind":"Pod","metadata":{"name":"b","namespace":"ns"},"status":{"phase":"Pending"}}]}"#;
        std::fs::write(dir.join("pods.json"), text).unwrap();
        let snap = Snapshot::build(load(&[InputArg::Path(dir.clone())]).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
        let a = snap.find("Pod", Some("ns"), "a").unwrap();
        let b = snap.find("Pod", Some("ns"), "b").unwrap();
        let (file, _) = snap.source_of(a);
        let own = snap.object(a).body.text_from_start(&file.text).unwrap();
        assert!(
            own.starts_with(r#"{"apiVersion":"v1","kind":"Pod""#),
            "{own}"
        );
        assert!(own.ends_with(r#""phase":"Running"}}"#), "{own}");
        assert_eq!(snap.object(a).offset_in(file), text.find(own));
        assert_eq!(
            snap.object(b).offset_in(file),
            text.rfind(r#"{"apiVersion":"v1","kind":"Pod""#)
        );
        assert_eq!(snap.locate(b, &["status", "phase"]), 1);
    }

    /// A field is looked for in its object's lines only, whether the object's lines are
    /// found from its body or from the file's line index.
    #[test]
    fn locate_stays_in_the_object() {
        let dir = std::env::temp_dir().join(format!("kdiag-locate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: a\n    namespace: ns\n  status:\n    conditions:\n    - type: Ready\n      status: \"True\"\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: b\n    namespace: ns\n  status:\n    conditions:\n    - message: not ready\n      type: Ready\n      status: \"False\"\nkind: List\n";
        std::fs::write(dir.join("pods.yaml"), text).unwrap();
        let snap = Snapshot::build(load(&[InputArg::Path(dir.clone())]).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
        let a = snap.find("Pod", Some("ns"), "a").unwrap();
        let b = snap.find("Pod", Some("ns"), "b").unwrap();
        assert!(matches!(snap.object(b).body, Body::Yaml { .. }));
        assert_eq!(
            snap.locate(b, &["status", "conditions", "type=Ready", "status"]),
            21
        );
        assert_eq!(snap.locate(b, &["nothing"]), 12);
        // `a` has no message: the walk stops at its last line, not at b's message.
        assert_eq!(snap.locate(a, &["status", "conditions", "message"]), 9);
        assert_eq!(snap.locate(a, &["status", "conditions", "type=Ready"]), 10);
    }
}

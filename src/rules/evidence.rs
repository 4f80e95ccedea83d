//! Builders for [`Evidence`]: an object (or a field of it) or an event, with its file
//! and line, and a note in words.

use super::Evidence;
use crate::kube::event::Event;
use crate::kube::time::format_duration;
use crate::snapshot::{ObjectId, Snapshot};

/// The object's kept copy, at its first line.
pub fn object(snap: &Snapshot, id: ObjectId, note: impl Into<String>) -> Evidence {
    field(snap, id, &[], note)
}

/// A field of the object, its line found lazily (see [`Snapshot::locate`]).
pub fn field(snap: &Snapshot, id: ObjectId, path: &[&str], note: impl Into<String>) -> Evidence {
    let (file, _) = snap.source_of(id);
    Evidence {
        object: Some(snap.object(id).reference()),
        input: Some(file.input),
        file: Some(file.path.clone()),
        line: Some(snap.locate(id, path)),
        note: note.into(),
    }
}

/// An event, with its count and how long before the snapshot it was last seen, cited at
/// the line carrying its message (`message`, or `note` in `events.k8s.io/v1`): the
/// event's first line is the list item's `- apiVersion: v1`, which says nothing.
pub fn event(snap: &Snapshot, id: ObjectId, e: &Event) -> Evidence {
    let mut ev = field(snap, id, &["message"], describe_event(snap, e));
    if ev.line == Some(snap.locate(id, &[])) {
        ev.line = Some(snap.locate(id, &["note"]));
    }
    ev
}

/// `Warning FailedScheduling ×3 over 2h, last 5m before the snapshot: <message>`.
pub fn describe_event(snap: &Snapshot, e: &Event) -> String {
    let mut s = format!("{} {}", e.type_, e.reason);
    if e.count > 1 {
        s.push_str(&format!(" ×{}", e.count));
        if let (Some(f), Some(l)) = (e.first, e.last)
            && l > f
        {
            s.push_str(&format!(" over {}", format_duration(l - f)));
        }
    }
    if let (Some(l), Some(asof)) = (e.last, snap.as_of) {
        s.push_str(&format!(
            ", last {} before the snapshot",
            format_duration(asof - l)
        ));
    }
    s.push_str(": ");
    s.push_str(e.message.trim());
    s
}

/// A Deployment's `Progressing=False, ProgressDeadlineExceeded` condition, with its
/// message, at its place in the object.
pub fn progress_deadline(
    snap: &Snapshot,
    id: ObjectId,
    c: &crate::kube::meta::Condition,
) -> Evidence {
    field(
        snap,
        id,
        &["status", "conditions", "type=Progressing"],
        format!(
            "Progressing=False, reason ProgressDeadlineExceeded{}",
            c.message
                .as_deref()
                .map(|m| format!(": {m}"))
                .unwrap_or_default()
        ),
    )
}

/// Why object `id` has no readable label `key` when the bundle holds one that does not
/// read as a string (a list, a map, a number): `` unreadable (`["backend"]`) ``.
/// The typed views leave such a label out (it is a problem of the input); a rule that
/// would say the object lacks the label says this instead.
pub fn unreadable_label(snap: &Snapshot, id: ObjectId, key: &str) -> Option<String> {
    const MAX_CHARS: usize = 40;
    let v = snap
        .object(id)
        .value()
        .get("metadata")?
        .get("labels")?
        .get(key)?;
    if v.is_string() {
        return None;
    }
    let raw = v.to_string();
    let shown = match raw.char_indices().nth(MAX_CHARS) {
        Some((cut, _)) => format!("{}…", &raw[..cut]),
        None => raw,
    };
    Some(format!("unreadable (`{shown}`)"))
}

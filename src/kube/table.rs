//! Objects read from kubectl's table text (`kubectl get pods -A -o wide`, as Rancher's
//! logs collector saves it): how they are marked, and their cells.
//!
//! Such an object holds only what its table row shows; every other field is unknown, not
//! empty (a pod without `containerStatuses` may have any). Its cells are annotations
//! [`CELL_PREFIX`]`<column>` (lower case, spaces as `-`: `kdiag.io/table-status`), its
//! row as the table wrote it [`ROW_ANNOTATION`].

use super::meta::ObjectMeta;

/// The annotation naming where an object came from.
pub const SOURCE_ANNOTATION: &str = "kdiag.io/source";
/// Its value for an object read from kubectl's table text.
pub const SOURCE_TABLE: &str = "kubectl-table";
/// The prefix of the annotations holding a row's cells, by column.
pub const CELL_PREFIX: &str = "kdiag.io/table-";
/// The row's text (runs of padding shortened to two spaces).
pub const ROW_ANNOTATION: &str = "kdiag.io/row";

/// Whether the object was read from a kubectl table.
pub fn is_from_table(meta: &ObjectMeta) -> bool {
    meta.annotation(SOURCE_ANNOTATION) == Some(SOURCE_TABLE)
}

/// The annotation key of a column's cell (`LAST SEEN` → `kdiag.io/table-last-seen`).
pub fn cell_key(column: &str) -> String {
    let lower = column.to_ascii_lowercase().replace([' ', '(', ')'], "-");
    format!("{CELL_PREFIX}{}", lower.trim_end_matches('-'))
}

/// The cell of `column` (as the header writes it: `STATUS`, `READY`) of a table object.
pub fn cell<'a>(meta: &'a ObjectMeta, column: &str) -> Option<&'a str> {
    if !is_from_table(meta) {
        return None;
    }
    meta.annotation(&cell_key(column)).filter(|v| !v.is_empty())
}

/// A pod's READY cell: (ready containers, containers).
pub fn ready_counts(meta: &ObjectMeta) -> Option<(u32, u32)> {
    let (n, m) = cell(meta, "READY")?.split_once('/')?;
    Some((n.parse().ok()?, m.parse().ok()?))
}

/// A pod's RESTARTS cell: the count, and how long before the capture the last restart
/// was when kubectl says (`8 (4m53s ago)` → 8, `4m53s`).
pub fn restarts(meta: &ObjectMeta) -> Option<(u64, Option<&str>)> {
    let text = cell(meta, "RESTARTS")?;
    let (count, ago) = match text.split_once(" (") {
        Some((c, rest)) => (c, rest.strip_suffix(" ago)")),
        None => (text, None),
    };
    Some((count.trim().parse().ok()?, ago))
}

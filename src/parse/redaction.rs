//! troubleshoot's redaction placeholder, `***HIDDEN***`: written where a value was, it
//! reads as a YAML alias and leaves the file invalid. Both YAML paths read it as the text
//! it stands for where it starts a plain scalar (`ip: ***HIDDEN***`,
//! `***HIDDEN***:10000`); a real alias (`*name`) stays an alias.

use std::cell::Cell;

/// What troubleshoot writes in place of a redacted value.
pub const PLACEHOLDER: &str = "***HIDDEN***";

thread_local! {
    /// A placeholder was read as text since [`watch`] began.
    static READ: Cell<bool> = const { Cell::new(false) };
}

/// Notes that a placeholder started a plain scalar and was read as text.
pub fn note() {
    READ.set(true);
}

/// Runs `f`, and says whether it read a placeholder as text.
pub fn watch<R>(f: impl FnOnce() -> R) -> (R, bool) {
    let before = READ.replace(false);
    let out = f();
    let read = READ.get();
    READ.set(before || read);
    (out, read)
}

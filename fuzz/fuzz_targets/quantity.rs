//! The quantity parser: never panics, its short path agrees with the grammar, and what
//! it accepts round-trips through the canonical form.
#![no_main]

use kdiag::kube::quantity::Quantity;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // The short path for common forms says what the grammar says.
    assert_eq!(Quantity::parse(text), Quantity::parse_by_the_grammar(text), "{text:?}");
    if let Ok(q) = Quantity::parse(text) {
        let canonical = q.canonical_decimal();
        assert_eq!(Quantity::parse(&canonical), Ok(q), "{text:?} -> {canonical:?}");
        let _ = q.display_for("cpu");
        let _ = q.display_for("memory");
        let _ = q.milli_ceil();
        let _ = q.value_ceil();
    }
});

//! Kueue's condition reason + message classifier: never panics, the message decides
//! whenever it holds a known wording (the reason only when it does not), and Kueue's
//! `couldn't assign flavors to pod set <name>: ` wrapper does not change the class.
//!
//! Input: the first line is the condition reason, the rest the message.
#![no_main]

use kdiag::rules::kueue::chain::kueue_says::{Class, classify};
use libfuzzer_sys::fuzz_target;

/// Kueue's reason vocabulary (both generations), as `classify` maps it.
fn by_reason(reason: &str) -> Class {
    match reason {
        "ExceedsMaxQuota" => Class::Never,
        "WaitingForQuota" | "WaitingForPreemptedWorkloads" => Class::Later,
        "NoMatchingFlavor" => Class::NoFlavor,
        "UnsatisfiedAdmissionChecks" | "UnsatisfiedChecks" => Class::Checks,
        _ => Class::Other,
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (reason, message) = text.split_once('\n').unwrap_or(("", text));
    let class = classify(reason, message);
    assert_eq!(class, classify(reason, message), "not deterministic");

    // An empty message leaves the reason to decide.
    assert_eq!(classify(reason, ""), by_reason(reason), "{reason:?}");

    // The message alone (no reason) is Other only when it names no known wording; then
    // the reason decides, otherwise the message does whatever the reason says.
    let by_message = classify("", message);
    if by_message == Class::Other {
        assert_eq!(class, by_reason(reason), "{reason:?} {message:?}");
    } else {
        assert_eq!(class, by_message, "{reason:?} {message:?}");
        for r in [
            "ExceedsMaxQuota",
            "WaitingForQuota",
            "NoMatchingFlavor",
            "Pending",
        ] {
            assert_eq!(classify(r, message), by_message, "{r:?} {message:?}");
        }
    }

    // Wording precedence: unused quota (fits later) wins over the capacity wording.
    if message.contains("insufficient unused quota") {
        assert!(
            matches!(
                class,
                Class::QueueLink | Class::Namespace | Class::Checks | Class::Later
            ),
            "{message:?} -> {class:?}"
        );
    }

    // Kueue prefixes flavor-assignment failures with the pod set; the prefix adds no
    // wording, except that it puts a space before a leading "not found" and the queue
    // wordings must start the message.
    if !message.starts_with("LocalQueue ")
        && !message.starts_with("ClusterQueue ")
        && !message.starts_with("not found")
    {
        let wrapped = format!("couldn't assign flavors to pod set main: {message}");
        assert_eq!(classify(reason, &wrapped), class, "{reason:?} {message:?}");
    }
});

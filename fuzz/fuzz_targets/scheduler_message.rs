//! The FailedScheduling message parser: never panics, every reason is classified from
//! its own text, and the accessors agree with the parsed reasons (`count_of` is the
//! exact sum of the counts it selects, so it is never smaller than any one of them).
#![no_main]

use kdiag::rules::scheduling::message::{FitMessage, ReasonKind, classify};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = classify(text);
    let Some(m) = FitMessage::parse(text) else {
        return;
    };
    // Surrounding whitespace is trimmed before anything else.
    assert_eq!(
        FitMessage::parse(&format!(" \n{text}\t ")).as_ref(),
        Some(&m)
    );
    assert!(text.contains("nodes are available"));
    if m.truncated {
        assert!(text.trim_end().ends_with("..."));
    }

    let preemption = m.preemption.iter().flat_map(|p| &p.reasons);
    for r in m.reasons.iter().chain(preemption) {
        assert!(!r.text.is_empty(), "empty reason text in {text:?}");
        assert!(
            text.contains(r.text.as_str()),
            "{:?} not in {text:?}",
            r.text
        );
        assert_eq!(r.kind, classify(&r.text), "{:?}", r.text);
    }
    if let Some(p) = &m.preemption {
        assert!(p.nodes.is_some() || p.reasons.is_empty());
    }

    // PreFilter: one reason and no count.
    assert_eq!(
        m.is_prefilter(),
        m.reasons.len() == 1 && m.reasons[0].count.is_none()
    );
    if m.reasons.iter().any(|r| r.count.is_some()) {
        assert!(!m.is_prefilter());
    }

    // Insufficient resources: one per `Insufficient …` entry, trimmed.
    let insufficient = m.insufficient();
    let wanted = m
        .reasons
        .iter()
        .filter(|r| matches!(r.kind, ReasonKind::Insufficient(_)))
        .count();
    assert_eq!(insufficient.len(), wanted);
    for res in &insufficient {
        assert_eq!(*res, res.trim());
    }

    // count_of: the sum of the selected counts (PreFilter: every node).
    let sum = |pred: &dyn Fn(&ReasonKind) -> bool| -> u64 {
        m.reasons
            .iter()
            .filter(|r| pred(&r.kind))
            .map(|r| u64::from(r.count.unwrap_or(m.nodes)))
            .sum()
    };
    assert_eq!(m.count_of(|_| false), 0);
    let preds: [&dyn Fn(&ReasonKind) -> bool; 4] = [
        &|_| true,
        &|k| matches!(k, ReasonKind::Insufficient(_)),
        &|k| matches!(k, ReasonKind::Taint { .. }),
        &|k| *k == ReasonKind::Other,
    ];
    for pred in preds {
        let got = m.count_of(pred);
        let exact = sum(pred);
        if let Ok(exact) = u32::try_from(exact) {
            assert_eq!(got, exact, "count_of in {text:?}");
        }
        for r in m.reasons.iter().filter(|r| pred(&r.kind)) {
            let one = r.count.unwrap_or(m.nodes);
            assert!(got >= one, "count_of {got} < one entry's {one} in {text:?}");
        }
    }
    for r in &m.reasons {
        let got = m.count_of(|k| *k == r.kind);
        assert!(got >= r.count.unwrap_or(m.nodes), "{text:?}");
    }

    // preemption_hopeless: only with per-node preemption reasons; true iff none of them
    // is fixable by eviction.
    match (&m.preemption, m.preemption_hopeless()) {
        (None, h) => assert_eq!(h, None),
        (Some(p), None) => assert!(p.reasons.is_empty()),
        (Some(p), Some(h)) => {
            assert!(!p.reasons.is_empty());
            let all = p.reasons.iter().all(|r| {
                matches!(
                    r.kind,
                    ReasonKind::PreemptionNotHelpful | ReasonKind::NoPreemptionVictims
                )
            });
            assert_eq!(h, all);
        }
    }
});

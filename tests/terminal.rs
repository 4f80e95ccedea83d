//! The human report as a terminal shows it: fitted to a width, a one-line list before the
//! details (errors first), `--summary`, `--top`, `--color`, each cited line once.

use crate::{json, kdiag, kdiag_env};
use textwrap::core::display_width;

const SEED: &str = "sample-bundles/control-plane-seed.list.yaml";
const SEED_ZIP: &str = "sample-bundles/control-plane-seed.must-gather.zip";

fn human(args: &[&str]) -> String {
    let run = kdiag(&[&["analyze", "--fail-on", "never"], args].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
}

/// Lines wider than `width`, but for one holding a single token (a path, a URL, an
/// image name: breaking it would make it uncopyable) after its gutter and marks.
fn too_wide(out: &str, width: usize) -> Vec<&str> {
    let mark = |w: &str| {
        w.chars()
            .all(|c| "│·×⚠☞↳╭╰─┬┤├:".contains(c) || c.is_ascii_digit() || c.is_ascii_whitespace())
            || w == "help:"
            || w == "-"
    };
    out.lines()
        .filter(|l| display_width(l) > width)
        .filter(|l| l.split_whitespace().filter(|w| !mark(w)).count() > 1)
        .collect()
}

#[test]
fn the_report_fits_the_width_it_is_given() {
    for path in [SEED, SEED_ZIP] {
        for width in [80, 100] {
            let w = width.to_string();
            let out = human(&[path, "--width", &w]);
            let wide = too_wide(&out, width);
            assert!(wide.is_empty(), "{path} at {width}:\n{}", wide.join("\n"));
            // The labels use the width instead of a fixed cut.
            assert!(!out.contains("..."), "{path} at {width}:\n{out}");
        }
    }
    // Not a terminal and no width given: 80 columns; COLUMNS as a terminal sets it.
    assert_eq!(human(&[SEED]), human(&[SEED, "--width", "80"]));
    let columns = kdiag_env(
        &["analyze", SEED, "--fail-on", "never"],
        None,
        &[("COLUMNS", "100".into())],
    );
    assert_eq!(columns.stdout, human(&[SEED, "--width", "100"]));
    assert_ne!(columns.stdout, human(&[SEED]));
    let narrow = kdiag(&["analyze", SEED, "--width", "20"]);
    assert_eq!(narrow.code, 2, "{}", narrow.stderr);
}

/// The one-line list of a report: its lines that start with a severity mark.
fn list(out: &str) -> Vec<&str> {
    out.lines()
        .take_while(|l| !l.starts_with("──"))
        .filter(|l| ["  × ", "  ⚠ ", "  ☞ "].iter().any(|m| l.starts_with(m)))
        .collect()
}

#[test]
fn a_one_line_list_opens_the_report_errors_first() {
    let findings = json(&kdiag(&["analyze", SEED, "--format", "json"]));
    let findings = findings["findings"].as_array().unwrap();
    let out = human(&[SEED]);
    let lines = list(&out);
    assert_eq!(lines.len(), findings.len(), "{out}");
    let rank = |l: &str| {
        ["  × ", "  ⚠ ", "  ☞ "]
            .iter()
            .position(|m| l.starts_with(m))
    };
    let ranks: Vec<_> = lines.iter().map(|l| rank(l)).collect();
    assert!(
        ranks.is_sorted(),
        "errors, then warnings, then info:\n{out}"
    );
    assert!(lines[0].starts_with("  × scheduling  Deployment demo/api-a: "));
    // A message naming its object first is not prefixed with the name again.
    let platform = human(&["sample-bundles/platform/drain-blocked"]);
    assert!(
        platform.contains("  × platform    Node worker-1 is degraded (machine-config"),
        "{platform}"
    );
    // The details follow in the same order, under a heading per severity.
    let errors = out.find("── errors (4) ──").expect("errors heading");
    let warnings = out.find("── warnings (1) ──").expect("warnings heading");
    assert!(errors < warnings && out.find(lines[0]).unwrap() < errors);
    let titles: Vec<usize> = ["[scheduling] Deployment demo/api-a", "[readiness]"]
        .iter()
        .map(|t| out.find(t).unwrap())
        .collect();
    assert!(titles[0] < titles[1] && titles[0] > errors);
}

#[test]
fn summary_is_the_list_alone_and_top_keeps_the_first() {
    let full = human(&[SEED]);
    let summary = human(&[SEED, "--summary"]);
    assert_eq!(list(&summary), list(&full));
    assert!(
        !summary.contains("help:") && !summary.contains("╭─["),
        "{summary}"
    );
    let top = human(&[SEED, "--top", "2"]);
    assert_eq!(list(&top), list(&full)[..2]);
    assert!(
        top.contains("… and 4 more finding(s) not shown (--top 2 of 6)"),
        "{top}"
    );
    assert_eq!(top.matches("\n  help: ").count(), 2, "{top}");
    let both = human(&[SEED, "--top", "1", "--summary"]);
    assert_eq!(list(&both), list(&full)[..1]);
    assert!(!both.contains("help:"));
    // They shape the human report only.
    let json = kdiag(&["analyze", SEED, "--format", "json", "--top", "1"]);
    assert_eq!(json.code, 2, "{}", json.stdout);
}

#[test]
fn color_always_never_and_auto() {
    let run = |color: &str, no_color: &str| {
        kdiag_env(
            &["analyze", SEED, "--color", color, "--fail-on", "never"],
            None,
            &[("NO_COLOR", no_color.into())],
        )
        .stdout
    };
    // Asked for, colour is given even with NO_COLOR set (`| less -R`).
    let always = run("always", "1");
    assert!(always.contains("\x1b[31;1m×\x1b[0m"), "{always}");
    assert_eq!(run("always", ""), always);
    // Not on a terminal, auto is plain, as is never.
    for (color, no_color) in [("auto", ""), ("auto", "1"), ("never", "")] {
        assert!(!run(color, no_color).contains('\x1b'), "{color} {no_color}");
    }
    // Colour changes nothing but the escapes.
    let plain: String = strip_sgr(&always);
    assert_eq!(plain, run("never", ""));
}

/// `text` without its ANSI SGR sequences (`ESC [ … m`).
fn strip_sgr(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn each_cited_line_is_shown_once_and_hops_are_evidence() {
    let out = human(&[SEED]);
    assert!(!out.contains("Advice"), "{out}");
    assert!(
        out.contains("  ↳ evidence: Event api-a-7c9d8-x2kqp.18e9b4cf8dbc152d"),
        "{out}"
    );
    // A cited line's note is its label, not repeated in a list below.
    assert_eq!(
        out.matches("effective request: 6 cpu, 1Gi memory").count(),
        1,
        "{out}"
    );
    // Evidence no snippet shows is still listed.
    assert!(out.contains("    - credentials do not cause a not-found failure"));
}

/// An event is cited at the line carrying its message, not at the list item's first line.
#[test]
fn event_evidence_points_at_the_message() {
    let text = std::fs::read_to_string(crate::root().join(SEED)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let out = json(&kdiag(&["analyze", SEED, "--format", "json"]));
    let mut events = 0;
    for e in out["findings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["evidence"].as_array().unwrap())
        .filter(|e| e["object"]["kind"] == "Event")
    {
        let line = lines[e["line"].as_u64().unwrap() as usize - 1];
        assert!(line.trim_start().starts_with("message:"), "{line} for {e}");
        events += 1;
    }
    assert!(events >= 5, "{events}");
    let human = human(&[SEED]);
    assert!(!human.contains("│ - apiVersion: v1\n   ·"), "{human}");
}

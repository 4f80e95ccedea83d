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
    // The same entries, whole: each begins as the cut one does.
    assert_eq!(list(&summary).len(), list(&full).len());
    for (whole, cut) in list(&summary).iter().zip(list(&full)) {
        let cut = cut.trim_end_matches('…');
        assert!(
            cut.starts_with(whole) || whole.starts_with(cut),
            "{whole}\n{cut}"
        );
    }
    assert!(
        !summary.contains("\n  help: ") && !summary.contains("╭─["),
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
    assert_eq!(list(&both), list(&summary)[..1]);
    assert!(!both.contains("\n  help: "));
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

// ------------------------------------------------ a user's first screen (100 × 40)

const HEALTHY: [&str; 3] = [
    "sample-bundles/healthy.list.yaml",
    "sample-bundles/healthy.must-gather.zip",
    "sample-bundles/healthy.troubleshoot.tar.gz",
];

/// The 1-based line of the first entry of the findings list.
fn first_finding_row(out: &str) -> Option<usize> {
    out.lines()
        .position(|l| ["  × ", "  ⚠ ", "  ☞ "].iter().any(|m| l.starts_with(m)))
        .map(|i| i + 1)
}

/// The last line is the verdict: the counts and the exit status, or what was looked at.
fn assert_verdict_last(out: &str, code: i32) {
    let last = out.lines().last().unwrap_or("");
    let verdict = last.ends_with(&format!("— exit {code} (--fail-on error)"))
        || (code == 0 && last.starts_with("no errors or warnings in "));
    assert!(verdict, "last line {last:?} (exit {code}):\n{out}");
}

#[test]
fn the_report_opens_with_the_findings_and_ends_with_the_verdict() {
    let run = kdiag(&["analyze", SEED, "--width", "100"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let out = &run.stdout;
    assert!(first_finding_row(out).is_some_and(|n| n <= 8), "{out}");
    assert_verdict_last(out, 1);
    let last = out.lines().last().unwrap();
    assert_eq!(
        last,
        "4 errors, 1 warning, 1 info — exit 1 (--fail-on error)"
    );
    // The exit status it names is the one the run ends with.
    let never = kdiag(&["analyze", SEED, "--fail-on", "never"]);
    assert!(
        never.stdout.ends_with("— exit 0 (--fail-on never)\n"),
        "{}",
        never.stdout
    );
    let warning = kdiag(&["analyze", "sample-bundles/platform/pool-paused"]);
    assert_verdict_last(&warning.stdout, warning.code);
}

#[test]
fn a_healthy_bundle_fits_one_screen() {
    for path in HEALTHY {
        let run = kdiag(&["analyze", path, "--width", "100"]);
        assert_eq!(run.code, 0, "{path}: {}", run.stderr);
        assert!(run.stdout.lines().count() <= 40, "{path}:\n{}", run.stdout);
        assert_verdict_last(&run.stdout, 0);
        assert!(
            run.stdout.lines().last().unwrap().contains(" pods"),
            "{}",
            run.stdout
        );
    }
}

/// On the real must-gather of a healthy OpenShift cluster (3,500 files), at 100 × 40: the
/// first finding within the first 8 lines, the whole report on one screen.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn a_real_must_gather_fits_one_screen() {
    crate::corpus::corpus();
    let aws = "../shared/corpus/must-gather-clean/must-gather-aws.tar.xz";
    let run = kdiag(&["analyze", aws, "--width", "100"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(first_finding_row(out).is_some_and(|n| n <= 8), "{out}");
    assert!(out.lines().count() <= 40, "{out}");
    assert_verdict_last(out, 0);
    assert!(
        out.ends_with("no errors or warnings in 239 pods, 6 nodes, 31 operators; 4 info\n"),
        "{out}"
    );
}

#[test]
fn notes_are_counted_unless_asked_for() {
    let out = human(&[SEED_ZIP]);
    let full = human(&[SEED_ZIP, "--notes"]);
    let notes = full.lines().filter(|l| l.starts_with("  note: ")).count();
    assert!(notes >= 2, "{full}");
    assert!(
        out.contains(&format!("\n{notes} notes: --notes to show\n")),
        "{out}"
    );
    assert!(!out.contains("note: "), "{out}");
}

#[test]
fn info_findings_are_listed_unless_details_asks() {
    let out = human(&[SEED, "--width", "100"]);
    assert!(!out.contains("── info ("), "{out}");
    assert!(
        out.contains("(listed only; --details info shows them in full)"),
        "{out}"
    );
    for level in ["info", "all"] {
        let full = human(&[SEED, "--width", "100", "--details", level]);
        assert!(full.contains("── info (1) ──"), "{full}");
        assert!(!full.contains("listed only"), "{full}");
    }
    let errors = human(&[SEED, "--details", "error"]);
    assert!(
        !errors.contains("── warnings (") && errors.contains("── errors ("),
        "{errors}"
    );
    assert!(errors.contains("--details warning shows them"), "{errors}");
    // An entry that is all the report says of its finding is whole, never cut.
    let info = list(&out)
        .into_iter()
        .find(|l| l.starts_with("  ☞ "))
        .unwrap();
    assert!(!info.ends_with('…'), "{out}");
}

#[test]
fn summary_entries_are_whole() {
    let full = json(&kdiag(&["analyze", SEED, "--format", "json"]));
    let out = human(&[SEED, "--summary", "--width", "80"]);
    assert!(!out.contains('…'), "{out}");
    assert!(too_wide(&out, 80).is_empty(), "{out}");
    // Each message is there in full, wrapped: the words in order.
    let words: Vec<&str> = out.split_whitespace().collect();
    let said = words.join(" ");
    for f in full["findings"].as_array().unwrap() {
        let message = f["message"].as_str().unwrap();
        let message: Vec<&str> = message.split_whitespace().collect();
        assert!(said.contains(&message.join(" ")), "{message:?} in\n{out}");
    }
}

/// A must-gather's files are cited from its layout root; JSON keeps the whole path.
#[test]
fn cited_paths_start_at_the_layout_root() {
    let root = "must-gather.local.123/quay-io-openshift-must-gather-sha256-abc/";
    let out = human(&[SEED_ZIP, "--details", "all"]);
    assert!(!out.contains(root), "{out}");
    assert!(out.contains("╭─[namespaces/demo/core/pods.yaml:"), "{out}");
    let html = kdiag(&[
        "analyze",
        SEED_ZIP,
        "--format",
        "html",
        "--fail-on",
        "never",
    ]);
    let cited: Vec<&str> = html.stdout.split("class=\"loc\">").skip(1).collect();
    assert!(!cited.is_empty() && cited.iter().all(|c| !c.starts_with(root)));
    assert!(html.stdout.contains(">namespaces/demo/core/pods.yaml:"));
    for format in ["json", "sarif"] {
        let run = kdiag(&["analyze", SEED_ZIP, "--format", format]);
        assert!(run.stdout.contains(root), "{format}");
    }
}

#[test]
fn o_says_what_it_wrote_and_refuses_a_format_it_does_not_write() {
    let dir = crate::Scratch::new("report-o");
    let html = std::path::Path::new(dir.path()).join("report.html");
    let run = kdiag(&["analyze", SEED, "-o", html.to_str().unwrap()]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        format!("wrote {}: 6 findings\n", html.display())
    );
    assert!(
        std::fs::read_to_string(&html)
            .unwrap()
            .starts_with("<!doctype html>")
    );
    let yaml = std::path::Path::new(dir.path()).join("report.yaml");
    let run = kdiag(&["analyze", SEED, "-o", yaml.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(!yaml.exists());
    assert!(
        run.stderr.contains(".yaml is not a report format; the formats are human (.txt, or no extension), json (.json), sarif (.sarif), html (.html)"),
        "{}",
        run.stderr
    );
    // Asked for by name, any file name is fine.
    let run = kdiag(&[
        "analyze",
        SEED,
        "--format",
        "json",
        "-o",
        yaml.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
}

/// Runs `kdiag args` on a 100 × 40 terminal (util-linux `script` makes one) with `PAGER`
/// marking each line it shows; what the terminal got, without its carriage returns.
fn on_a_terminal(args: &str) -> String {
    let cmd = format!(
        "stty rows 40 cols 100; {} {args}",
        env!("CARGO_BIN_EXE_kdiag")
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .current_dir(crate::root())
        .env("PAGER", "sed s/^/PAGED:/")
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .env_remove("KDIAG_PAGER")
        .output()
        .expect("util-linux script runs");
    // The status line (on stderr, the same terminal) clears its line with `ESC [2K`.
    String::from_utf8_lossy(&out.stdout)
        .replace('\r', "")
        .replace("\x1b[2K", "")
}

#[test]
fn long_output_on_a_terminal_goes_through_the_pager() {
    let paged = on_a_terminal(&format!("analyze {SEED}"));
    let lines: Vec<&str> = paged.lines().filter(|l| !l.is_empty()).collect();
    assert!(lines.len() > 40, "{paged}");
    assert!(lines.iter().all(|l| l.starts_with("PAGED:")), "{paged}");
    // The terminal's width is the report's.
    assert!(lines.iter().any(|l| l.chars().count() > 90), "{paged}");
    let direct = on_a_terminal(&format!("analyze --no-pager {SEED}"));
    assert!(
        !direct.contains("PAGED:") && direct.contains("── errors (4) ──"),
        "{direct}"
    );
    // A report that fits the screen is written directly.
    let short = on_a_terminal(&format!("analyze {}", HEALTHY[0]));
    assert!(
        !short.contains("PAGED:") && short.contains("no errors or warnings"),
        "{short}"
    );
    // Never when piped.
    let piped = crate::kdiag_env(
        &["analyze", SEED, "--fail-on", "never"],
        None,
        &[("PAGER", "sed s/^/PAGED:/".into())],
    );
    assert!(!piped.stdout.contains("PAGED:"));
}

#[test]
fn why_fits_the_width() {
    let bundle = "sample-bundles/kueue/seed-quota.yaml";
    for width in [60, 80, 100] {
        let w = width.to_string();
        let run = kdiag(&["why", "job/train", "-n", "ml", bundle, "--width", &w]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let wide = too_wide(&run.stdout, width);
        assert!(wide.is_empty(), "at {width}:\n{}", run.stdout);
        assert!(run.stdout.contains("needed 3 ✗"), "{}", run.stdout);
    }
    // Wide enough, the quota table is a table.
    let wide = kdiag(&["why", "job/train", "-n", "ml", bundle, "--width", "160"]);
    let cpu = wide
        .stdout
        .lines()
        .find(|l| l.contains("default-flavor  cpu"))
        .unwrap();
    assert!(cpu.ends_with("✗ never fits"), "{}", wide.stdout);
    let columns = kdiag_env(
        &["why", "job/train", "-n", "ml", bundle],
        None,
        &[("COLUMNS", "60".into())],
    );
    let sixty = kdiag(&["why", "job/train", "-n", "ml", bundle, "--width", "60"]);
    assert_eq!(columns.stdout, sixty.stdout);
}

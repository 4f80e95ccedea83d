//! Guard rails for common mistakes (issue 23): `-o` with a format word, a folder of
//! several bundles, a namespace not in the bundle, exit codes of warnings and of a
//! closed pipe, unreadable formats, `merge` of the wrong file, and `kdiag rules`.

use crate::{Scratch, json, kdiag, root};

const SEED: &str = "sample-bundles/control-plane-seed.list.yaml";

/// `kdiag analyze PATH --format json --fail-on never`, whatever it exits with.
fn analyze(path: &str) -> crate::Run {
    kdiag(&["analyze", path, "--format", "json", "--fail-on", "never"])
}

#[test]
fn output_file_extension_sets_the_format_and_format_words_are_refused() {
    let dir = Scratch::new("guard-output");
    for (file, starts) in [
        ("report.json", "{"),
        ("report.sarif", "{"),
        ("report.html", "<!doctype html>"),
        ("report.txt", "input "),
    ] {
        let path = dir.file(file);
        let run = kdiag(&["analyze", SEED, "-o", &path, "--fail-on", "never"]);
        assert_eq!(run.code, 0, "{file}: {}", run.stderr);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(starts), "{file}: {}", &text[..80]);
        if file == "report.sarif" {
            assert!(text.contains("\"runs\""), "{file}");
        } else if file == "report.json" {
            assert!(text.contains("kdiag.findings/v1"), "{file}");
        }
    }
    // --format still wins over the extension.
    let path = dir.file("forced.json");
    kdiag(&["analyze", SEED, "-o", &path, "--format", "human"]);
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .starts_with("input ")
    );
    for word in ["json", "yaml", "sarif", "html", "human"] {
        let run = kdiag(&["analyze", SEED, "-o", word]);
        assert_eq!(run.code, 2, "-o {word}");
        assert!(
            run.stderr.contains("not the format") && run.stderr.contains("--format"),
            "-o {word}: {}",
            run.stderr
        );
        assert!(!root().join(word).exists(), "-o {word} wrote a file");
    }
}

/// A minimal must-gather image folder holding one crash-looping pod.
fn must_gather_image(dir: &Scratch, at: &str) {
    dir.write(
        &format!("{at}/namespaces/demo/core/pods.yaml"),
        crate::bad_input_pod(),
    );
    dir.write(
        &format!("{at}/cluster-scoped-resources/core/nodes/node-a.yaml"),
        "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\n",
    );
}

#[test]
fn a_folder_of_several_bundles_is_refused_unless_merged_on_purpose() {
    let dir = Scratch::new("guard-several");
    for (name, from) in [
        ("a.zip", "control-plane-seed.must-gather.zip"),
        ("b.tar.gz", "control-plane-seed.troubleshoot.tar.gz"),
        ("c.zip", "healthy.must-gather.zip"),
    ] {
        dir.write(
            name,
            std::fs::read(root().join("sample-bundles").join(from)).unwrap(),
        );
    }
    // Every command that reads one bundle refuses, naming them and the ways on.
    let named = "holds 3 bundles (a.zip, b.tar.gz, c.zip)";
    for args in [
        vec!["analyze", dir.path()],
        vec!["get", "nodes", dir.path()],
        vec!["describe", "node/node-a", dir.path()],
        vec!["logs", "web", dir.path()],
    ] {
        let run = kdiag(&args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains(named)
                && run.stderr.contains("kdiag scan")
                && run.stderr.contains("--merge"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
    }
    // --merge reads them as one cluster, and says so in the input's notes.
    let run = kdiag(&["analyze", dir.path(), "--merge", "--format", "json"]);
    assert!(run.code < 2, "{}", run.stderr);
    let notes = json(&run)["inputs"][0]["notes"].to_string();
    assert!(
        notes.contains("holds 3 bundles") && notes.contains("read as one cluster (--merge)"),
        "{notes}"
    );
    let get = kdiag(&["get", "nodes", "--merge", dir.path()]);
    assert_eq!(get.code, 0, "{}", get.stderr);

    // Two must-gather trees side by side.
    let two = Scratch::new("guard-two-mg");
    for mg in ["must-gather.local.1", "must-gather.local.2"] {
        two.write(
            &format!("{mg}/timestamp"),
            "2026-11-20 09:00:00 +0000 UTC\n",
        );
        must_gather_image(&two, &format!("{mg}/quay-io-image"));
    }
    let run = analyze(two.path());
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("holds 2 bundles (must-gather.local.1/, must-gather.local.2/)"),
        "{}",
        run.stderr
    );
    // A folder of case folders, each holding one must-gather: each case is one bundle.
    let cases = Scratch::new("guard-cases");
    for case in ["case-1/must-gather.local.1", "case-2/must-gather.local.2"] {
        cases.write(
            &format!("{case}/timestamp"),
            "2026-11-20 09:00:00 +0000 UTC\n",
        );
        must_gather_image(&cases, &format!("{case}/quay-io-image"));
    }
    let run = analyze(cases.path());
    assert!(
        run.stderr.contains("holds 2 bundles (case-1/, case-2/)"),
        "{}",
        run.stderr
    );

    // One must-gather of two images, its timestamp at the top, and archived logs beside
    // them: one bundle. Its `namespaces/` folder given alone is still one.
    let one = Scratch::new("guard-one-mg");
    one.write("timestamp", "2026-11-20 09:00:00 +0000 UTC\n");
    must_gather_image(&one, "quay-io-one");
    must_gather_image(&one, "quay-io-two");
    one.write(
        "quay-io-one/host_service_logs/kubelet.tar.gz",
        std::fs::read(root().join("sample-bundles/control-plane-seed.troubleshoot.tar.gz"))
            .unwrap(),
    );
    one.write(
        "quay-io-one/logs.zip",
        crate::zip_of(&[("kubelet.log", b"I1120 started\n")]),
    );
    let run = analyze(one.path());
    assert!(!run.stderr.contains("bundles"), "{}", run.stderr);
    assert_ne!(run.code, 2, "{}", run.stderr);
    let run = analyze(&one.file("quay-io-one/namespaces"));
    assert!(!run.stderr.contains("bundles"), "{}", run.stderr);
    // A troubleshoot bundle's folder and an archive with several members: one bundle.
    for path in ["sample-bundles/scheduling/runtime-crash-loop", SEED] {
        let run = analyze(path);
        assert!(!run.stderr.contains("bundles"), "{path}: {}", run.stderr);
    }
}

#[test]
fn a_namespace_not_in_the_bundle_is_named_and_filters_say_what_they_hid() {
    let run = kdiag(&["analyze", SEED, "-n", "doesnotexist"]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr
            .contains("namespace \"doesnotexist\" is not in the bundle")
            && run.stderr.contains("its namespaces: demo, kube-system"),
        "{}",
        run.stderr
    );
    let typo = kdiag(&["analyze", SEED, "-n", "dmeo"]);
    assert!(
        typo.stderr.contains("did you mean demo?"),
        "{}",
        typo.stderr
    );
    // One namespace of two missing: a warning, and the run goes on.
    let run = kdiag(&[
        "analyze",
        SEED,
        "-n",
        "demo",
        "-n",
        "nope",
        "--fail-on",
        "never",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("\"nope\" is not in the bundle"),
        "{}",
        run.stderr
    );
    let all = json(&kdiag(&["analyze", SEED, "--format", "json"]));
    let total = all["findings"].as_array().unwrap().len();
    let run = kdiag(&["analyze", SEED, "--stage", "readiness", "--format", "json"]);
    let shown = json(&run)["findings"].as_array().unwrap().len();
    assert!(
        run.stderr.contains(&format!(
            "--stage readiness: {shown} of {total} finding(s) shown, {} hidden",
            total - shown
        )),
        "{}",
        run.stderr
    );
}

#[test]
fn warnings_have_their_own_exit_code() {
    // Only a warning is left after the filter.
    let warn = kdiag(&[
        "analyze",
        SEED,
        "--stage",
        "readiness",
        "--fail-on",
        "warning",
    ]);
    assert_eq!(warn.code, 3, "{}", warn.stderr);
    assert_eq!(kdiag(&["analyze", SEED, "--fail-on", "warning"]).code, 1);
    assert_eq!(kdiag(&["analyze", SEED, "--stage", "readiness"]).code, 0);
    let help = kdiag(&["analyze", "--help"]);
    assert!(help.stdout.contains("else 3"), "{}", help.stdout);
    let top = kdiag(&["--help"]);
    assert!(top.stdout.contains("141"), "{}", top.stdout);
}

#[test]
fn a_closed_pipe_ends_quietly_with_141() {
    use std::process::{Command, Stdio};
    for args in [
        vec!["analyze", SEED],
        vec!["analyze", SEED, "--format", "json"],
        vec!["get", "pods", "-A", SEED],
        vec!["rules"],
    ] {
        // The read end is closed before the child starts: dropped after the spawn, a short
        // output (`rules`) could fit in the pipe while another test's fork still held it.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_kdiag"))
            .args(&args)
            .current_dir(root())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(141), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

#[test]
fn unreadable_formats_are_problems_naming_file_and_format() {
    let dir = Scratch::new("guard-formats");
    let cases: &[(&str, &[u8], &str)] = &[
        ("case.7z", b"7z\xbc\xaf\x27\x1c\x00\x04rest", "7z"),
        ("case.rar", b"Rar!\x1a\x07\x01\x00rest", "RAR"),
        ("case.tar.lz4", b"\x04\x22\x4d\x18rest", "LZ4"),
        ("notzip.zip", b"<html>error 404</html>\n", "zip"),
        ("empty.tar.gz", b"", "gzip"),
        ("bad.tar.xz", b"\x00\x01\x02\x03 not xz", "xz"),
    ];
    for (name, bytes, format) in cases {
        let path = dir.write(name, bytes);
        let run = kdiag(&["analyze", &path, "--format", "json"]);
        assert_eq!(run.code, 2, "{name}");
        let problems = crate::problem_lines(&json(&run));
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with(&format!("{name}: ")) && p.contains(format)),
            "{name}: {problems:?}"
        );
    }
    // In a folder, beside a readable dump.
    dir.write("pods.yaml", crate::bad_input_pod());
    let run = analyze(dir.path());
    let problems = crate::problem_lines(&json(&run));
    for (name, ..) in cases {
        assert!(
            problems.iter().any(|p| p.starts_with(&format!("{name}: "))),
            "{name}: {problems:?}"
        );
    }
    assert!(
        problems.iter().any(|p| p.contains("notzip.zip")
            && p.contains("named like a zip file")
            && p.contains("<html>error 404</html>")),
        "{problems:?}"
    );
}

#[test]
fn merge_says_what_a_file_is_when_it_is_no_scan() {
    let dir = Scratch::new("guard-merge");
    let analyzed = dir.write(
        "analyze.json",
        kdiag(&["analyze", SEED, "--format", "json"]).stdout,
    );
    let sarif = dir.write(
        "analyze.sarif",
        kdiag(&["analyze", SEED, "--format", "sarif"]).stdout,
    );
    for (file, what) in [
        (&analyzed, "a `kdiag analyze --format json` result"),
        (&sarif, "a SARIF log"),
    ] {
        let run = kdiag(&["merge", file]);
        assert_eq!(run.code, 2, "{file}");
        assert!(
            run.stderr.contains("is not a scan result") && run.stderr.contains(what),
            "{file}: {}",
            run.stderr
        );
        assert!(run.stdout.is_empty());
    }
}

#[test]
fn rules_have_a_header_fitted_columns_one_rule_docs_and_json() {
    let run = kdiag(&["rules"]);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[0].starts_with("RULE "), "{}", lines[0]);
    // Every STAGE cell starts in the same column, after at least two spaces.
    let at = lines[0].find("STAGE").unwrap();
    for l in &lines {
        assert!(l[..at].ends_with("  "), "{l}");
        assert_ne!(&l[at..at + 1], " ", "{l}");
    }
    let one = kdiag(&["rules", "kueue/admission-checks"]);
    assert_eq!(one.code, 0);
    assert!(
        one.stdout
            .starts_with("kueue/admission-checks\nstage:    queue\n")
            && one.stdout.contains("ProvisioningRequest"),
        "{}",
        one.stdout
    );
    let area = kdiag(&["rules", "kueue"]);
    assert!(area.stdout.lines().skip(1).all(|l| l.starts_with("kueue/")));
    let typo = kdiag(&["rules", "kueue/admision-checks"]);
    assert_eq!(typo.code, 2);
    assert!(
        typo.stderr.contains("did you mean kueue/admission-checks?"),
        "{}",
        typo.stderr
    );
    let all = json(&kdiag(&["rules", "--format", "json"]));
    let rules = all["rules"].as_array().unwrap();
    assert_eq!(all["schema"], "kdiag.rules/v1");
    assert_eq!(rules.len(), lines.len() - 1);
    assert!(rules.iter().all(|r| r["id"].is_string()
        && r["stage"].is_string()
        && r["severity"].is_string()
        && r["doc"].as_str().unwrap().len() >= r["summary"].as_str().unwrap().len()));
    let single = json(&kdiag(&[
        "rules",
        "kueue/admission-checks",
        "--format",
        "json",
    ]));
    assert_eq!(single["id"], "kueue/admission-checks");
}

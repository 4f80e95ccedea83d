//! Hostile and odd input, second round: budgets that count across a whole input, nothing
//! lost after a bad piece.

use crate::hostile::{analyze_with, gzip, tar_of};
use crate::{Scratch, bad_input_pod, problem_lines};

/// A tar member refused from its header's size is streamed past (its bytes never kept,
/// so they count like a log's, not against the archive's ratio), and the members after
/// it are read: the good pod behind a member of zeros far past the entry limit is
/// analyzed. (Entry limit 32 MiB and bomb floor 16 MiB here; 1 GiB and 256 MiB by
/// default, where the same happens with a 1.1 GiB member.)
#[test]
fn a_refused_tar_member_is_skipped_and_the_archive_read_on() {
    let dir = Scratch::new("skipmember");
    let zeros = vec![0u8; 96 << 20];
    let pod = bad_input_pod();
    let path = dir.write(
        "big.tar.gz",
        gzip(&tar_of(&[("huge.yaml", &zeros), ("pods.yaml", &pod)])),
    );
    drop(zeros);
    let env = [
        ("KDIAG_MAX_ENTRY_BYTES", 32 << 20),
        ("KDIAG_BOMB_MIN_BYTES", 16 << 20),
    ];
    let (out, rss) = analyze_with(&path, None, &env);
    let p = problem_lines(&out);
    assert_eq!(
        p,
        [format!(
            "huge.yaml: member is {} bytes, more than 32 MiB; not read",
            96 << 20
        )]
    );
    assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{out:#}");
    assert!(rss < 64, "peak RSS {rss} MiB: the member was buffered");
}

/// The inflate budget holds across a whole input, not per archive: a folder of archives
/// each under the bomb floor, that together inflate past it at more than 200:1, stops at
/// the member where the folder's archives pass it; every later archive is a problem, not
/// read, and the plain files of the folder are still analyzed. The walk reads archives in
/// parallel and, once the budget runs out, again in name order, so the problems are the
/// same on every run. (Floor 4 MiB here; 256 MiB by default.)
#[test]
fn the_inflate_budget_holds_across_a_folder_of_archives() {
    let dir = Scratch::new("walkbudget");
    let zeros = vec![0u8; 3 << 20];
    for i in 0..6 {
        dir.write(
            &format!("a{i:02}.tar.gz"),
            gzip(&tar_of(&[(&format!("notes/{i:02}.txt"), &zeros)])),
        );
    }
    dir.write("pods.yaml", bad_input_pod());
    let env = [("KDIAG_BOMB_MIN_BYTES", 4 << 20)];
    let (out, _) = analyze_with(dir.path(), None, &env);
    let p = problem_lines(&out);
    assert_eq!(p.len(), 5, "{p:#?}");
    assert!(
        p[0].starts_with("a01.tar.gz!/notes/01.txt: the input's archives inflate")
            && p[0].contains("KDIAG_MAX_INFLATED_RATIO; zip bomb?"),
        "{p:#?}"
    );
    for (i, line) in p.iter().enumerate().skip(1) {
        assert_eq!(
            line,
            &format!(
                "a{:02}.tar.gz: the input's archives before this one spent its inflate budget \
                 (see the problem that says where); not read",
                i + 1
            ),
        );
    }
    assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{out:#}");
    let (again, _) = analyze_with(dir.path(), None, &env);
    assert_eq!(problem_lines(&again), p, "the same problems on every run");
}

/// When stderr cannot be written (`2>/dev/full`), no command panics (exit 101): the
/// lines for stderr are dropped and the exit status is the command's own.
#[test]
fn a_full_stderr_is_no_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux
    };
    let bundle = crate::root().join("sample-bundles/bad-input");
    let bundle = bundle.to_str().unwrap();
    for (args, code) in [
        (vec!["analyze", "/nonexistent/bundle"], 2),
        (vec!["analyze", bundle], 1),
        (vec!["scan", bundle], 1),
        (vec!["logs", bundle], 2),
    ] {
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_kdiag"))
            .args(&args)
            .env("KDIAG_STATS", "1")
            .stdout(std::process::Stdio::null())
            .stderr(full.try_clone().unwrap())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(code), "{args:?}");
    }
}

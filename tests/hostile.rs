//! Hostile and odd archives: each stays bounded, becomes a `problem`, the rest of the
//! bundle is still analyzed, and nothing is ever written to disk.

use crate::{Scratch, bad_input_pod, json, kdiag, problem_lines, zip_of};
use std::io::Write;
use std::process::{Command, Stdio};

/// A tar entry whose name is written raw (the tar crate refuses `..` and absolute names).
fn raw_tar_entry(
    out: &mut Vec<u8>,
    name: &str,
    data: &[u8],
    kind: tar::EntryType,
    link: Option<&str>,
) {
    let mut header = tar::Header::new_old();
    header.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
    header.set_size(data.len() as u64);
    header.set_mode(0o644);
    header.set_entry_type(kind);
    if let Some(l) = link {
        header.as_old_mut().linkname[..l.len()].copy_from_slice(l.as_bytes());
    }
    header.set_cksum();
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out.resize(out.len().div_ceil(512) * 512, 0);
}

/// The ratio limit applies above a floor (256 MiB by default; 16 MiB here so the test
/// stays small): a 64 MiB member at 1000:1 is refused before it is inflated.
#[test]
fn zip_bomb_is_refused_without_inflating() {
    let dir = Scratch::new("bomb");
    let zeros = vec![0u8; 64 << 20];
    let bytes = zip_of(&[("bomb.yaml", &zeros), ("pods.yaml", &bad_input_pod())]);
    assert!(bytes.len() < 1 << 20, "the bomb is small on disk");
    std::fs::write(dir.file("case.zip"), bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kdiag"))
        .args(["analyze", &dir.file("case.zip"), "--format", "json"])
        .env("KDIAG_BOMB_MIN_BYTES", (16u64 << 20).to_string())
        .stdout(Stdio::piped())
        .output()
        .unwrap();
    let out: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = problem_lines(&out);
    assert!(
        p.iter()
            .any(|m| m.starts_with("bomb.yaml") && m.contains("zip bomb")),
        "{p:#?}"
    );
    assert_eq!(
        out["findings"].as_array().unwrap().len(),
        1,
        "the good pod is still analyzed"
    );
}

#[test]
fn unsafe_names_and_links_in_tar() {
    let dir = Scratch::new("names");
    let mut tar = Vec::new();
    let evil = b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: evil}\n";
    raw_tar_entry(
        &mut tar,
        "../escape.yaml",
        evil,
        tar::EntryType::Regular,
        None,
    );
    raw_tar_entry(
        &mut tar,
        "/etc/abs.yaml",
        evil,
        tar::EntryType::Regular,
        None,
    );
    raw_tar_entry(
        &mut tar,
        "b/link.yaml",
        b"",
        tar::EntryType::Symlink,
        Some("/etc/passwd"),
    );
    raw_tar_entry(
        &mut tar,
        "b/pods.yaml",
        &bad_input_pod(),
        tar::EntryType::Regular,
        None,
    );
    tar.extend_from_slice(&[0u8; 1024]);
    std::fs::write(dir.file("b.tar"), &tar).unwrap();
    let out = json(&kdiag(&["analyze", &dir.file("b.tar"), "--format", "json"]));
    let p = problem_lines(&out);
    assert!(
        p.iter()
            .any(|m| m.contains("../escape.yaml") && m.contains("`..`")),
        "{p:#?}"
    );
    assert!(
        p.iter()
            .any(|m| m.contains("/etc/abs.yaml") && m.contains("absolute")),
        "{p:#?}"
    );
    let notes = out["inputs"][0]["notes"].to_string();
    assert!(notes.contains("symbolic link"), "{notes}");
    assert_eq!(out["findings"].as_array().unwrap().len(), 1);
    assert!(
        !std::path::Path::new(dir.path())
            .parent()
            .unwrap()
            .join("escape.yaml")
            .exists(),
        "nothing is extracted"
    );
}

#[test]
fn nul_in_zip_member_name() {
    let dir = Scratch::new("nul");
    let bytes = zip_of(&[
        ("a\0b.yaml", b"kind: Pod\n"),
        ("pods.yaml", &bad_input_pod()),
    ]);
    std::fs::write(dir.file("n.zip"), bytes).unwrap();
    let out = json(&kdiag(&["analyze", &dir.file("n.zip"), "--format", "json"]));
    let p = problem_lines(&out);
    assert!(p.iter().any(|m| m.contains("NUL")), "{p:#?}");
    assert_eq!(out["findings"].as_array().unwrap().len(), 1);
}

#[test]
fn duplicate_entries_are_one_object() {
    let dir = Scratch::new("dup");
    // zip writers refuse duplicate names; tar archives carry them.
    let pod = bad_input_pod();
    let mut tar = Vec::new();
    raw_tar_entry(&mut tar, "x/pods.yaml", &pod, tar::EntryType::Regular, None);
    raw_tar_entry(&mut tar, "x/pods.yaml", &pod, tar::EntryType::Regular, None);
    tar.extend_from_slice(&[0u8; 1024]);
    std::fs::write(dir.file("d.tar"), tar).unwrap();
    let run = kdiag(&["analyze", &dir.file("d.tar"), "--format", "json"]);
    let out = json(&run);
    assert_eq!(
        out["findings"].as_array().unwrap().len(),
        1,
        "{}",
        run.stdout
    );
}

#[test]
fn many_tiny_files() {
    let dir = Scratch::new("tiny");
    let mut entries: Vec<(String, Vec<u8>)> = (0..100_000)
        .map(|i| (format!("logs/{i}.txt"), b"x\n".to_vec()))
        .collect();
    entries.push(("pods.yaml".into(), bad_input_pod()));
    let refs: Vec<(&str, &[u8])> = entries
        .iter()
        .map(|(n, d)| (n.as_str(), d.as_slice()))
        .collect();
    std::fs::write(dir.file("t.zip"), zip_of(&refs)).unwrap();
    let started = std::time::Instant::now();
    let out = json(&kdiag(&["analyze", &dir.file("t.zip"), "--format", "json"]));
    assert_eq!(out["inputs"][0]["files"], 100_001);
    assert_eq!(out["inputs"][0]["skipped"], 100_000);
    assert_eq!(out["findings"].as_array().unwrap().len(), 1);
    eprintln!("100k tiny files analyzed in {:?}", started.elapsed());
}

/// One enormous line (here 24 MiB against an 8 MiB limit; the real limit is 1 GiB):
/// the member is refused, bounded, and the rest is analyzed.
#[test]
fn oversized_member_is_refused() {
    let dir = Scratch::new("line");
    let line = vec![b'a'; 24 << 20];
    let bytes = zip_of(&[("huge.yaml", &line), ("pods.yaml", &bad_input_pod())]);
    std::fs::write(dir.file("h.zip"), bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kdiag"))
        .args(["analyze", &dir.file("h.zip"), "--format", "json"])
        .env("KDIAG_MAX_ENTRY_BYTES", (8u64 << 20).to_string())
        .stdout(Stdio::piped())
        .output()
        .unwrap();
    let out: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = problem_lines(&out);
    assert!(
        p.iter()
            .any(|m| m.starts_with("huge.yaml") && m.contains("more than 8 MiB")),
        "{p:#?}"
    );
    assert_eq!(out["findings"].as_array().unwrap().len(), 1);
}

/// Logs are never refused for size (real ones pass 1 GB): a log far over the entry limit
/// is read through and only its tail kept, with no problem.
#[test]
fn big_log_is_kept_as_a_tail_not_refused() {
    let dir = Scratch::new("biglog");
    let log: Vec<u8> = (0..400_000)
        .flat_map(|i| format!("2026-11-20T09:00:00Z info request {i} served\n").into_bytes())
        .collect();
    assert!(log.len() > 16 << 20);
    let bytes = zip_of(&[
        ("namespaces/demo/pods/api-0/api/api/logs/current.log", &log),
        ("pods.yaml", &bad_input_pod()),
    ]);
    std::fs::write(dir.file("l.zip"), bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kdiag"))
        .args(["analyze", &dir.file("l.zip"), "--format", "json"])
        .env("KDIAG_MAX_ENTRY_BYTES", (8u64 << 20).to_string())
        .env("KDIAG_LOG_TAIL_BYTES", (64u64 << 10).to_string())
        .stdout(Stdio::piped())
        .output()
        .unwrap();
    let out: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(problem_lines(&out).is_empty(), "{:#?}", problem_lines(&out));
    assert_eq!(out["findings"].as_array().unwrap().len(), 1);
}

#[test]
fn truncated_archives_are_problems() {
    let dir = Scratch::new("trunc");
    let full =
        std::fs::read(crate::root().join("sample-bundles/control-plane-seed.troubleshoot.tar.gz"))
            .unwrap();
    std::fs::write(dir.file("cut.tar.gz"), &full[..full.len() / 2]).unwrap();
    let run = kdiag(&["analyze", &dir.file("cut.tar.gz"), "--format", "json"]);
    assert!(matches!(run.code, 0..=2), "{}", run.stderr);
    let out = json(&run);
    let p = problem_lines(&out);
    assert!(
        p.iter().any(|m| m.contains("truncated or corrupt")),
        "{p:#?}"
    );
    let zip =
        std::fs::read(crate::root().join("sample-bundles/control-plane-seed.must-gather.zip"))
            .unwrap();
    std::fs::write(dir.file("cut.zip"), &zip[..zip.len() / 2]).unwrap();
    let run = kdiag(&["analyze", &dir.file("cut.zip"), "--format", "json"]);
    assert_eq!(run.code, 2, "nothing readable");
    assert!(problem_lines(&json(&run)).iter().any(|m| m.contains("zip")));
}

/// Archive members are parsed as they are inflated, before the layout is known; a folder's
/// files after. Both must read the same: members the layout skips, files that only may hold
/// objects, binary and broken files where objects are expected, the timestamp and logs.
#[test]
fn archive_members_read_as_the_same_folder() {
    let dir = Scratch::new("early");
    let root = |p: &str| crate::root().join(p);
    let read = |p: &str| std::fs::read(root(p)).unwrap();
    let nested = zip_of(&[(
        "namespaces/other/core/configmaps.yaml",
        b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: inner\n  namespace: other\n",
    )]);
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("mg/extra/nested.zip", nested),
        (
            "mg/timestamp",
            b"2026-11-20 09:14:02.5 +0000 UTC\n".to_vec(),
        ),
        ("mg/namespaces/demo/core/pods.yaml", bad_input_pod()),
        (
            "mg/namespaces/demo/apps/deployments.yaml",
            read("sample-bundles/bad-input/truncated.yaml"),
        ),
        (
            "mg/namespaces/demo/core/configmaps.yaml",
            b"\x00\x01binary".to_vec(),
        ),
        ("mg/extra/notes.yaml", b"hello: world\n".to_vec()),
        ("mg/extra/blob.json", b"\x00\x01binary".to_vec()),
        ("mg/extra/settings.json", b"{\"a\": 1}\n".to_vec()),
        ("mg/cluster-resources/pods/demo.json", b"[]\n".to_vec()),
        ("mg/host_service_logs/kubelet.yaml", b"kind: [\n".to_vec()),
        (
            "mg/namespaces/demo/pods/api-0/api/api/logs/current.log",
            b"2026-11-20T09:00:00Z started\n".to_vec(),
        ),
    ];
    let folder = dir.file("folder");
    for (name, data) in &files {
        dir.write(&format!("folder/{name}"), data);
    }
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, d)| (*n, d.as_slice())).collect();
    std::fs::write(dir.file("b.zip"), zip_of(&refs)).unwrap();
    let mut tar = tar::Builder::new(Vec::new());
    for (name, data) in &files {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, name, data.as_slice()).unwrap();
    }
    let tar = tar.into_inner().unwrap();
    std::fs::write(dir.file("b.tar"), &tar).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&tar).unwrap();
    std::fs::write(dir.file("b.tar.gz"), gz.finish().unwrap()).unwrap();
    // What a reader sees of one run, without the input's own path.
    let seen = |input: &str| {
        let mut out = json(&kdiag(&["analyze", input, "--format", "json"]));
        out["inputs"][0]["path"] = serde_json::Value::Null;
        out
    };
    let want = seen(&folder);
    assert_eq!(want["inputs"][0]["layout"], "must-gather", "{want:#}");
    let p = problem_lines(&want);
    assert!(
        p.iter()
            .any(|m| m.contains("deployments.yaml") && m.contains("invalid YAML"))
            && p.iter()
                .any(|m| m.contains("configmaps.yaml") && m.contains("binary"))
            && p.len() == 2,
        "only the broken object files are problems: {p:#?}"
    );
    assert_eq!(want["findings"].as_array().unwrap().len(), 1, "{want:#}");
    assert_eq!(
        want["inputs"][0]["objects"], 2,
        "the pod and the nested zip's ConfigMap"
    );
    for archive in ["b.zip", "b.tar", "b.tar.gz"] {
        assert_eq!(seen(&dir.file(archive)), want, "{archive}");
    }
}

/// Runs `kdiag` with `args`; fails (killing it) if it has not exited within 60 s, so a
/// read that blocks fails the test instead of hanging it.
fn kdiag_within_deadline(args: &[&str]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kdiag"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kdiag runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("kdiag {args:?} did not finish within 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text(out.stdout),
        text(out.stderr),
    )
}

/// A FIFO, made with `mkfifo` (no writer ever opens it, so reading it blocks forever).
fn mkfifo(path: &str) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(ok.success());
}

#[test]
fn fifos_and_devices_are_refused_unread() {
    let b = Scratch::new("fifo");
    b.write("pod.yaml", bad_input_pod());
    let fifo = b.write("pipe.yaml", "");
    std::fs::remove_file(&fifo).unwrap();
    mkfifo(&fifo);

    // As the PATH itself: refused up front, naming it.
    let (code, _, err) = kdiag_within_deadline(&["analyze", &fifo]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!(
            "{fifo}: is a FIFO (named pipe), not a regular file; not read"
        )),
        "{err}"
    );
    let (code, _, err) = kdiag_within_deadline(&["analyze", "/dev/zero"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("/dev/zero: is a character device, not a regular file"),
        "{err}"
    );

    // Met in a folder: a problem naming it; the rest of the bundle is still read.
    let (code, out, err) = kdiag_within_deadline(&[
        "analyze",
        "--format",
        "json",
        "--fail-on",
        "never",
        b.path(),
    ]);
    assert_eq!(code, 0, "{err}");
    let out: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        problem_lines(&out)
            .iter()
            .any(|p| p.contains("pipe.yaml") && p.contains("is a FIFO (named pipe)")),
        "{:?}",
        problem_lines(&out)
    );
    assert!(!out["findings"].as_array().unwrap().is_empty());
    let (code, _, err) = kdiag_within_deadline(&["scan", b.path()]);
    assert!(code == 0 || code == 1, "{code}: {err}");

    // As a baseline: refused, and a baseline that never ends is not read at all.
    for (baseline, says) in [
        (fifo.as_str(), "is a FIFO (named pipe), not a regular file"),
        ("/dev/zero", "is a character device, not a regular file"),
    ] {
        let (code, _, err) = kdiag_within_deadline(&["analyze", "--baseline", baseline, b.path()]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(&format!("cannot read baseline {baseline}: {says}")),
            "{err}"
        );
    }
    let big = b.write("big.json", "");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(65 << 20)
        .unwrap();
    let (code, _, err) = kdiag_within_deadline(&["analyze", "--baseline", &big, b.path()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("larger than the 64 MiB a baseline may be; not read"),
        "{err}"
    );
}

/// Runs `kdiag analyze PATH --format json --fail-on never --merge` with `env` set, feeding `stdin`
/// when given (PATH is then `-`); its output and its peak RSS in MiB (`KDIAG_STATS`).
pub fn analyze_with(
    path: &str,
    stdin: Option<&[u8]>,
    env: &[(&str, u64)],
) -> (serde_json::Value, u64) {
    let env: Vec<(&str, String)> = env
        .iter()
        .map(|(var, value)| (*var, value.to_string()))
        .chain([("KDIAG_STATS", "1".to_string())])
        .collect();
    // Budgets hold over whatever PATH holds, read as one (a folder of archives too).
    let args = [
        "analyze",
        path,
        "--format",
        "json",
        "--fail-on",
        "never",
        "--merge",
    ];
    let run = crate::kdiag_env(&args, stdin, &env);
    assert_eq!(run.code, 0, "{path}: {}", run.stderr);
    let rss = run
        .stderr
        .lines()
        .filter_map(|l| l.split("peak RSS ").nth(1))
        .filter_map(|l| l.split(' ').next()?.parse().ok())
        .max()
        .unwrap_or_else(|| panic!("no peak RSS in {}", run.stderr));
    (serde_json::from_str(&run.stdout).unwrap(), rss)
}

/// A tar of `files` (name, bytes), in this order.
pub fn tar_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut tar = Vec::new();
    for (name, data) in files {
        raw_tar_entry(&mut tar, name, data, tar::EntryType::Regular, None);
    }
    tar.extend_from_slice(&[0u8; 1024]);
    tar
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// Members each under the bomb floor add up: past the floor, a whole archive inflating
/// more than 200:1 is refused at the member where it does, and so is one passing the
/// whole-archive budget; the members before it are read. (Floor 4 MiB here, 256 MiB by
/// default; budget 5 MiB here, 16 GiB by default.)
#[test]
fn whole_archive_inflating_past_its_budget_stops_at_a_member() {
    let dir = Scratch::new("budget");
    let zeros = vec![0u8; 3 << 20];
    let pod = bad_input_pod();
    let mut files: Vec<(String, &[u8])> = vec![("pods.yaml".into(), &pod)];
    files.extend((0..8).map(|i| (format!("junk/{i:02}.txt"), &zeros[..])));
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, d)| (n.as_str(), *d)).collect();
    let zip = dir.write("case.zip", zip_of(&files));
    let tgz = dir.write("case.tar.gz", gzip(&tar_of(&files)));
    let floor = ("KDIAG_BOMB_MIN_BYTES", 4 << 20);
    for (path, env, says) in [
        (&zip, vec![floor], "KDIAG_MAX_INFLATED_RATIO; zip bomb?"),
        (&tgz, vec![floor], "KDIAG_MAX_INFLATED_RATIO; zip bomb?"),
        (
            &zip,
            vec![("KDIAG_MAX_INFLATED_BYTES", 5 << 20)],
            "more than 5 MiB in all here (KDIAG_MAX_INFLATED_BYTES)",
        ),
        (
            &tgz,
            vec![("KDIAG_MAX_INFLATED_BYTES", 5 << 20)],
            "more than 5 MiB in all here (KDIAG_MAX_INFLATED_BYTES)",
        ),
    ] {
        let (out, _) = analyze_with(path, None, &env);
        let p = problem_lines(&out);
        assert_eq!(p.len(), 1, "{path} {env:?}: {p:#?}");
        assert!(
            p[0].starts_with("junk/01.txt: the archive inflates")
                && p[0].contains(says)
                && p[0].ends_with("this member and the rest of the archive are not read"),
            "{path} {env:?}: {p:#?}"
        );
        assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{path}");
    }
}

/// A log of `lines` numbered error lines, 2 KiB each.
fn numbered_log(lines: usize) -> Vec<u8> {
    (1..=lines)
        .flat_map(|i| {
            format!(
                "2026-11-20T09:00:00Z error: request {i} failed {}\n",
                "x".repeat(2048)
            )
            .into_bytes()
        })
        .collect()
}

/// A plain archive over the entry limit (1 GiB by default; 1 MiB here) is read member by
/// member, from a file or stdin, never refused or cut whole: the pod before the big log
/// and the nodes after it are read, and the log keeps its tail, numbered as in the file.
#[test]
fn big_plain_archives_stream_their_members() {
    let dir = Scratch::new("bigplain");
    let log = numbered_log(1100);
    assert!(log.len() > 2 << 20);
    let nodes = br#"{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"kind-worker"}}]}"#;
    let log_path = "namespaces/default/pods/crasher/crasher/crasher/logs/current.log";
    let pod = bad_input_pod();
    let files: [(&str, &[u8]); 3] = [
        ("namespaces/default/core/pods.yaml", &pod),
        (log_path, &log),
        ("cluster-scoped-resources/core/nodes.json", nodes),
    ];
    let tar = tar_of(&files);
    let stored = {
        let mut buf = std::io::Cursor::new(Vec::new());
        let mut zip = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        for (name, data) in &files {
            zip.start_file(*name, opts).unwrap();
            zip.write_all(data).unwrap();
        }
        zip.finish().unwrap();
        buf.into_inner()
    };
    let tar_path = dir.write("mg.tar", &tar);
    let zip_path = dir.write("mg.zip", &stored);
    let env = [
        ("KDIAG_MAX_ENTRY_BYTES", 1 << 20),
        ("KDIAG_LOG_TAIL_BYTES", 64 << 10),
    ];
    for (what, path, stdin) in [
        ("tar", tar_path.as_str(), None),
        ("stored zip", zip_path.as_str(), None),
        ("tar on stdin", "-", Some(&tar[..])),
    ] {
        let (out, _) = analyze_with(path, stdin, &env);
        assert!(
            problem_lines(&out).is_empty(),
            "{what}: {:#?}",
            problem_lines(&out)
        );
        assert_eq!(
            out["inputs"][0]["objects"], 2,
            "{what}: the pod and the node"
        );
        let findings = out["findings"].as_array().unwrap();
        assert_eq!(findings.len(), 1, "{what}: {findings:#?}");
        let cited: Vec<(String, u64)> = findings[0]["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["file"] == log_path)
            .map(|e| (e["note"].to_string(), e["line"].as_u64().unwrap()))
            .collect();
        assert!(
            cited
                .iter()
                .any(|(note, line)| note.contains("request 1100 failed") && *line == 1100),
            "{what}: the log's last line, numbered as in the file: {cited:#?}"
        );
    }
}

/// A tar.gz member over the entry limit (1 GiB by default; 64 MiB here) is refused by its
/// exact size before any of it is buffered: before, it was read to the limit (and the
/// buffer doubled past it). The pod beside it is analyzed.
#[test]
fn oversized_tar_member_is_refused_before_it_is_buffered() {
    let dir = Scratch::new("bigmember");
    let zeros = vec![0u8; 160 << 20];
    let pod = bad_input_pod();
    let path = dir.write(
        "big.tar.gz",
        gzip(&tar_of(&[("pods.yaml", &pod), ("huge.yaml", &zeros)])),
    );
    drop(zeros);
    let (out, rss) = analyze_with(&path, None, &[("KDIAG_MAX_ENTRY_BYTES", 64 << 20)]);
    let p = problem_lines(&out);
    assert_eq!(
        p,
        [format!(
            "huge.yaml: member is {} bytes, more than 64 MiB; not read",
            160 << 20
        )]
    );
    assert_eq!(out["findings"].as_array().unwrap().len(), 1);
    assert!(rss < 48, "peak RSS {rss} MiB: the member was buffered");
}

/// GNU tar's contiguous files ('7') are regular files; a zip's members that share a name
/// are all read, as a tar's are; an encrypted zip member is named by its path; hard links
/// are said as such.
#[test]
fn odd_members_are_read_or_named() {
    let dir = Scratch::new("odd");
    let pod = bad_input_pod();
    let config =
        b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: default\n";
    let mut tar = Vec::new();
    raw_tar_entry(
        &mut tar,
        "c/pods.yaml",
        &pod,
        tar::EntryType::Continuous,
        None,
    );
    raw_tar_entry(
        &mut tar,
        "c/hard.yaml",
        b"",
        tar::EntryType::Link,
        Some("c/pods.yaml"),
    );
    tar.extend_from_slice(&[0u8; 1024]);
    let tar = dir.write("c.tar", tar);
    let out = json(&kdiag(&[
        "analyze",
        &tar,
        "--format",
        "json",
        "--fail-on",
        "never",
    ]));
    assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{out:#}");
    let notes = out["inputs"][0]["notes"].to_string();
    assert!(
        notes.contains("1 hard link(s)") && !notes.contains("symbolic"),
        "{notes}"
    );

    // Two members named alike: the zip writer refuses them, so the second is renamed after.
    let mut zip = zip_of(&[("d/objects.yaml", &pod), ("d/objects.yamX", config)]);
    for at in (0..zip.len() - 14).rev() {
        if &zip[at..at + 14] == b"d/objects.yamX" {
            zip[at + 13] = b'l';
        }
    }
    let zip = dir.write("d.zip", zip);
    for (kind, name) in [
        ("pods", "pod/crasher"),
        ("configmaps", "configmap/settings"),
    ] {
        let run = kdiag(&["get", kind, "-A", "-o", "name", &zip]);
        assert_eq!((run.code, run.stdout.trim()), (0, name), "{}", run.stderr);
    }

    // The encryption flag set on the second member, in its local and its central header.
    let mut encrypted = zip_of(&[("e/pods.yaml", &pod), ("e/secret.yaml", config)]);
    let names: Vec<usize> = (0..encrypted.len() - 13)
        .filter(|&at| &encrypted[at..at + 13] == b"e/secret.yaml")
        .collect();
    encrypted[names[0] - 30 + 6] |= 1;
    encrypted[names[1] - 46 + 8] |= 1;
    let enc = dir.write("e.zip", encrypted);
    let out = json(&kdiag(&[
        "analyze",
        &enc,
        "--format",
        "json",
        "--fail-on",
        "never",
    ]));
    assert_eq!(
        problem_lines(&out),
        ["e/secret.yaml: encrypted zip member; kdiag reads no passwords; not read"]
    );
}

/// A KDIAG_* limit that is not a number is said on stderr, once, and the default used.
#[test]
fn limit_that_is_not_a_number_is_warned_about() {
    let dir = Scratch::new("envlimit");
    let path = dir.write("pods.yaml.gz", gzip(&bad_input_pod()));
    let run = Command::new(env!("CARGO_BIN_EXE_kdiag"))
        .args(["analyze", &path, "--format", "json", "--fail-on", "never"])
        .env("KDIAG_MAX_ENTRY_BYTES", "abc")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr
            .matches("kdiag: warning: KDIAG_MAX_ENTRY_BYTES=\"abc\" is not a whole number; using the default, 1073741824")
            .count(),
        1,
        "{stderr}"
    );
}

/// A folder walk stops after `KDIAG_MAX_FILES` files in name order, naming the first
/// file left out; the files before it are analyzed.
#[test]
fn folder_walk_stops_at_its_file_count() {
    let dir = Scratch::new("walk-count");
    dir.write("a-pods.yaml", bad_input_pod());
    for name in ["b.yaml", "c.yaml", "d.yaml", "e.yaml"] {
        dir.write(
            name,
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: y}\n",
        );
    }
    let (out, _) = analyze_with(dir.path(), None, &[("KDIAG_MAX_FILES", 3)]);
    let p = problem_lines(&out);
    assert!(
        p.iter()
            .any(|m| m.starts_with("d.yaml") && m.contains("more than 3 files")),
        "{p:#?}"
    );
    assert_eq!(
        p.len(),
        1,
        "one problem, at the first file left out: {p:#?}"
    );
    assert_eq!(out["inputs"][0]["files"], 3);
    assert_eq!(
        out["findings"].as_array().unwrap().len(),
        1,
        "the pod is analyzed"
    );
}

/// A walk stays on the file system where it starts: under `/dev`, the mounts (`/dev/shm`,
/// `/dev/pts`, `/dev/mqueue` where they are mounts) are named and not entered, and the
/// devices are problems, unread; it ends promptly. Skipped where `/dev` has no mount.
#[test]
fn folder_walk_does_not_cross_into_other_file_systems() {
    use std::os::unix::fs::MetadataExt;
    let dev = |p: &str| std::fs::metadata(p).map(|m| m.dev()).ok();
    let mounts: Vec<&str> = ["shm", "pts", "mqueue"]
        .into_iter()
        .filter(|m| dev(&format!("/dev/{m}")).is_some_and(|d| Some(d) != dev("/dev")))
        .collect();
    if mounts.is_empty() {
        eprintln!("skipped: no mount point under /dev here");
        return;
    }
    let dir = Scratch::new("walk-mounts");
    dir.write("pods.yaml", bad_input_pod());
    let (code, stdout, stderr) = kdiag_within_deadline(&[
        "analyze",
        "/dev",
        dir.path(),
        "--format",
        "json",
        "--fail-on",
        "never",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let out: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let p = problem_lines(&out);
    assert_eq!(
        out["findings"].as_array().unwrap().len(),
        1,
        "the pod is analyzed"
    );
    for m in mounts {
        assert!(
            p.iter()
                .any(|l| l.starts_with(&format!("{m}:")) && l.contains("another file system")),
            "{m}: {p:#?}"
        );
    }
}

/// A log of one line repeated (or of NULs after a crash) compresses as well as a bomb, but
/// is read through to its tail: it neither trips the whole-archive ratio nor stops the
/// members after it, in a tar.gz or a zip.
#[test]
fn a_repetitive_log_is_no_bomb() {
    let dir = Scratch::new("repetitive-log");
    let line = b"2026-11-20T09:00:00Z ERROR dial tcp 10.96.0.1:443: connect: connection refused\n";
    let log: Vec<u8> = line.repeat((4 << 20) / line.len());
    let pod = bad_input_pod();
    let files: [(&str, &[u8]); 2] = [("logs/web/web.log", &log), ("pods.yaml", &pod)];
    dir.write("b.tar.gz", gzip(&tar_of(&files)));
    dir.write("b.zip", zip_of(&files));
    for archive in ["b.tar.gz", "b.zip"] {
        let (out, _) = analyze_with(
            &dir.file(archive),
            None,
            &[("KDIAG_BOMB_MIN_BYTES", 1 << 20)],
        );
        assert_eq!(problem_lines(&out), Vec::<String>::new(), "{archive}");
        assert_eq!(
            out["findings"].as_array().unwrap().len(),
            1,
            "{archive}: the pod after the log is analyzed"
        );
    }
}

/// Every limit is read up front: a bad `KDIAG_LOG_TAIL_BYTES` is warned about on a bundle
/// that holds no log (it was silent until a log was read), and so is every other knob.
#[test]
fn every_limit_is_checked_on_every_run() {
    let dir = Scratch::new("envlimits");
    let path = dir.write("pods.yaml", bad_input_pod());
    let knobs = [
        "KDIAG_LOG_TAIL_BYTES",
        "KDIAG_BOMB_MIN_BYTES",
        "KDIAG_MAX_INFLATED_BYTES",
        "KDIAG_MAX_INFLATED_RATIO",
        "KDIAG_MAX_HELD_BYTES",
        "KDIAG_MAX_FILES",
    ];
    for knob in knobs {
        let run = Command::new(env!("CARGO_BIN_EXE_kdiag"))
            .args(["analyze", &path, "--format", "json", "--fail-on", "never"])
            .env(knob, "abc")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(0), "{stderr}");
        assert_eq!(
            stderr
                .matches(&format!(
                    "kdiag: warning: {knob}=\"abc\" is not a whole number"
                ))
                .count(),
            1,
            "{knob}: {stderr}"
        );
    }
}

/// A one-line JSON List (`kubectl get pods -o json | jq -c`) of many pods: each pod's
/// free-form fields (env, probes, volumes) are kept as their place in the file's text,
/// not as a copy each. Before, the copies made such a List cost about four times its
/// size (106 MB of 150,000 small pods peaked at 720 MiB); this one (34 MiB, pods with
/// 40 environment variables) peaked at 121 MiB in a release build, and now at about 88
/// (about 105 in the test profile, whose dependencies are not optimised: hence 3.5×).
#[test]
fn a_json_list_of_pods_keeps_no_copy_of_their_fields() {
    let env: Vec<serde_json::Value> = (0..40)
        .map(|k| serde_json::json!({"name": format!("SETTING_{k}"), "value": format!("value-of-setting-{k}-for-the-web-tier")}))
        .collect();
    let pod = |i: usize| {
        serde_json::json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": format!("web-{i}"), "namespace": "default",
                "uid": format!("6f1c2a4e-0000-4000-8000-{i:012}"), "labels": {"app": "web"}},
            "spec": {"nodeName": "node-1", "containers": [{"name": "web", "image": "nginx:1.25",
                "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
                "env": env,
                "readinessProbe": {"httpGet": {"path": "/healthz", "port": 8080}, "periodSeconds": 10},
                "livenessProbe": {"tcpSocket": {"port": 8080}},
                "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}}}],
                "volumes": [{"name": "kube-api-access", "projected": {"sources": [
                    {"serviceAccountToken": {"path": "token", "expirationSeconds": 3607}}]}}]},
            "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}],
                "containerStatuses": [{"name": "web", "ready": true, "restartCount": 0,
                    "image": "nginx:1.25", "state": {"running": {"startedAt": "2024-01-01T00:00:00Z"}}}]}
        })
    };
    let items: Vec<serde_json::Value> = (0..10_000).map(pod).collect();
    let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items});
    let dir = Scratch::new("jsonpods");
    let text = serde_json::to_string(&list).unwrap();
    let mib = text.len() as u64 >> 20;
    let path = dir.write("pods.json", text);
    let (out, rss) = analyze_with(&path, None, &[]);
    assert!(problem_lines(&out).is_empty(), "{out}");
    assert!(
        2 * rss <= 7 * mib,
        "peak RSS {rss} MiB for a {mib} MiB List: its pods' fields were copied"
    );
}

/// A one-line JSON List of 40,000 healthy pods: the Pod view each pod got at ingest is
/// handed to the store in its box, not moved into one vector. Moving them held every view
/// twice while the view was built (a pod's is about 1 KB): the 501 MiB List of 122,000
/// pods peaked at 1,089 MiB, 109 MiB above the end of ingest, and now at 943 MiB, at
/// ingest. This List (15 MiB) peaked at 184 MiB, 31 above the end of ingest, and now at
/// 141, at ingest (test profile).
#[test]
fn pod_views_are_not_held_twice_while_the_store_takes_them() {
    let pod = |i: usize| {
        serde_json::json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": format!("web-{i}"), "namespace": format!("ns-{}", i % 10),
                "uid": format!("6f1c2a4e-0000-4000-8000-{i:012}")},
            "spec": {"nodeName": format!("node-{}", i % 20),
                "containers": [{"name": "web", "image": "nginx:1.25"}]},
            "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}],
                "containerStatuses": [{"name": "web", "ready": true, "restartCount": 0,
                    "state": {"running": {"startedAt": "2024-01-01T00:00:00Z"}}}]}
        })
    };
    let items: Vec<serde_json::Value> = (0..40_000).map(pod).collect();
    let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items});
    let dir = Scratch::new("pod-views");
    let path = dir.write("pods.json", serde_json::to_string(&list).unwrap());
    let args = ["analyze", &path, "--format", "json", "--fail-on", "never"];
    let run = crate::kdiag_env(&args, None, &[("KDIAG_STATS", "1".to_string())]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(out["findings"], serde_json::json!([]), "{out}");
    let peaks = |line: &str| -> Vec<u64> {
        let values = line.split("peak RSS ").skip(1);
        values
            .filter_map(|v| v.split(' ').next()?.parse().ok())
            .collect()
    };
    let ingest_line = run
        .stderr
        .lines()
        .find(|l| l.starts_with("kdiag stats: ingest "));
    let ingest = ingest_line.and_then(|l| peaks(l).first().copied());
    let ingest = ingest.unwrap_or_else(|| panic!("no ingest peak in {}", run.stderr));
    let whole = run.stderr.lines().flat_map(peaks).max().unwrap();
    assert!(
        whole * 10 <= ingest * 11,
        "peak RSS {whole} MiB against {ingest} MiB at the end of ingest: the pods' views were held twice"
    );
}

/// Many small objects: each is held once from ingest to the store. The objects of every
/// file were gathered into one vector (and that vector copied once more), then turned
/// into the store's objects in a second one, and merged into a third: about 600 bytes an
/// object beyond its own. 150,000 ConfigMaps of one line of data in ten namespaces' lists
/// (21.7 MiB): peak RSS was 150 MiB (6.9× the input) and is 107 MiB (4.9×) in a
/// release build (119 MiB in the test profile, whose dependencies are not optimised:
/// hence 6.5×).
#[test]
fn many_small_objects_are_held_once() {
    let dir = Scratch::new("small-objects");
    dir.write(
        "timestamp",
        "2026-11-20 09:14:02.123456789 +0000 UTC m=+0.1\n",
    );
    let mut bytes = 0;
    for ns in 0..10 {
        let mut list = String::from("apiVersion: v1\nitems:\n");
        for i in 0..15_000 {
            list.push_str(&format!(
                "- apiVersion: v1\n  data:\n    k: v\n  kind: ConfigMap\n  metadata:\n    name: cm-{i:06}\n    namespace: shop-{ns}\n    uid: 6f1c2a4e-{ns:04}-4000-8000-{i:012}\n"
            ));
        }
        list.push_str("kind: ConfigMapList\nmetadata:\n  resourceVersion: \"1\"\n");
        bytes += list.len() as u64;
        dir.write(&format!("namespaces/shop-{ns}/core/configmaps.yaml"), list);
    }
    let (out, rss) = analyze_with(dir.path(), None, &[]);
    assert_eq!(out["inputs"][0]["objects"], 150_000, "{}", out["inputs"]);
    let mib = bytes >> 20;
    assert!(
        2 * rss <= 13 * mib,
        "peak RSS {rss} MiB for {mib} MiB of small objects: they were copied"
    );
}

/// A must-gather of pods as kubelets write them (labels, owners, five conditions, a
/// running container): the Pod view holds short text (names, times, condition types,
/// label keys and values, quantities) in place, not as an allocation each. 20,000 pods
/// (38 MiB), on one thread (with more, peak RSS moves run to run at this size): 169 MiB
/// before and 153 after in a release build, about 183 and 167 in the test profile.
#[test]
fn a_pods_short_text_is_held_in_place() {
    let dir = Scratch::new("pod-text");
    dir.write(
        "timestamp",
        "2026-11-20 09:14:02.123456789 +0000 UTC m=+0.1\n",
    );
    let conditions = [
        "PodReadyToStartContainers",
        "Initialized",
        "Ready",
        "ContainersReady",
        "PodScheduled",
    ];
    let mut bytes = 0;
    for ns in 0..10 {
        let mut list = String::from("apiVersion: v1\nitems:\n");
        for i in 0..2_000 {
            let app = format!("web-{}", i % 50);
            list.push_str(&format!(
                "- apiVersion: v1\n  kind: Pod\n  metadata:\n    creationTimestamp: \"2026-11-20T06:02:14Z\"\n    generateName: {app}-7d9f8c6b5-\n    labels:\n      app: {app}\n      app.kubernetes.io/name: {app}\n      app.kubernetes.io/part-of: shop\n      app.kubernetes.io/version: 1.11.3\n      pod-template-hash: 7d9f8c6b5\n    name: {app}-7d9f8c6b5-{i:05}\n    namespace: shop-{ns}\n    ownerReferences:\n    - apiVersion: apps/v1\n      controller: true\n      kind: ReplicaSet\n      name: {app}-7d9f8c6b5\n      uid: fea09bd0-42e9-22d8-2c59-{ns:04}{:08}\n    resourceVersion: \"1000{i}\"\n    uid: e65f98f0-8f71-1183-1d8a-{ns:04}{i:08}\n  spec:\n    containers:\n    - image: quay.io/acme/web:v1.11.3\n      name: web\n      ports:\n      - containerPort: 8080\n        name: http\n        protocol: TCP\n      resources:\n        limits:\n          cpu: \"1\"\n          memory: 1Gi\n        requests:\n          cpu: 500m\n          memory: 256Mi\n    nodeName: node-{}.example.internal\n    preemptionPolicy: PreemptLowerPriority\n    priority: 0\n    restartPolicy: Always\n    schedulerName: default-scheduler\n    serviceAccountName: web\n  status:\n    conditions:\n",
                i % 50,
                i % 20
            ));
            for t in conditions {
                list.push_str(&format!(
                    "    - lastProbeTime: null\n      lastTransitionTime: \"2026-11-20T06:02:{:02}Z\"\n      status: \"True\"\n      type: {t}\n",
                    i % 60
                ));
            }
            list.push_str("    containerStatuses:\n    - image: quay.io/acme/web:v1.11.3\n      name: web\n      ready: true\n      restartCount: 0\n      started: true\n      state:\n        running:\n          startedAt: \"2026-11-20T06:02:30Z\"\n    phase: Running\n    qosClass: Burstable\n    startTime: \"2026-11-20T06:02:14Z\"\n");
        }
        list.push_str("kind: PodList\nmetadata:\n  resourceVersion: \"1\"\n");
        bytes += list.len() as u64;
        dir.write(&format!("namespaces/shop-{ns}/core/pods.yaml"), list);
    }
    let (out, rss) = analyze_with(dir.path(), None, &[("RAYON_NUM_THREADS", 1)]);
    assert_eq!(out["inputs"][0]["objects"], 20_000, "{}", out["inputs"]);
    assert!(problem_lines(&out).is_empty(), "{out}");
    let mib = bytes >> 20;
    assert!(
        rss * 10 <= mib * 46,
        "peak RSS {rss} MiB for {mib} MiB of pods: their short text was allocated"
    );
}

/// A pod whose image name, annotation and waiting message are 24 MiB each: the view keeps
/// the first MiB of each (no real value is longer: etcd refuses an object over 1.5 MiB),
/// so the finding that quotes the image and the message stays small, and so does the
/// report. Before, each was copied into the view, then three times into the finding and
/// again into the report: a 300 MB file of three 100 MB values peaked at 1.5 GiB.
#[test]
fn long_values_are_kept_bounded() {
    let long = |c: &str| c.repeat(24 << 20);
    let yaml = format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\n  namespace: default\n  annotations:\n    note: {}\nspec:\n  nodeName: node-1\n  containers:\n  - name: web\n    image: registry.example.com/{}\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: web\n    ready: false\n    restartCount: 0\n    state:\n      waiting:\n        reason: ImagePullBackOff\n        message: {}\n",
        long("a"),
        long("i"),
        long("m")
    );
    let mib = yaml.len() as u64 >> 20;
    let dir = Scratch::new("longvalues");
    let path = dir.write("pod.yaml", yaml);
    let (out, rss) = analyze_with(&path, None, &[]);
    let findings = out["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    let text = out.to_string();
    assert!(text.len() < 8 << 20, "report of {} bytes", text.len());
    assert!(text.contains("more bytes not kept"), "the cut is said");
    // 97 MiB for this 72 MiB file in a release build (5.4 times the file before).
    assert!(
        rss <= mib * 2,
        "peak RSS {rss} MiB for a {mib} MiB file: its long values were copied"
    );
}

/// Members that are neither objects nor logs are held in memory until the layout is
/// known: past `KDIAG_MAX_HELD_BYTES` (512 MiB by default; 20 MiB here) each further one
/// is a problem, not inflated, and the objects are still read. Before, an archive of 20
/// such members of 200 MB each (27 MB zipped) held 4 GB.
#[test]
fn members_held_unparsed_are_bounded() {
    let line = b"level=info msg=\"reconciled object of the queue\" controller=web worker=3\n";
    let note: Vec<u8> = line.iter().copied().cycle().take(8 << 20).collect();
    let pod = bad_input_pod();
    let mut files: Vec<(String, &[u8])> = vec![("pods.yaml".into(), &pod)];
    files.extend((0..12).map(|i| (format!("notes/part-{i:02}.txt"), &note[..])));
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, d)| (n.as_str(), *d)).collect();
    let dir = Scratch::new("held");
    let zip = dir.write("case.zip", zip_of(&files));
    let tgz = dir.write("case.tar.gz", gzip(&tar_of(&files)));
    for path in [&zip, &tgz] {
        let (out, rss) = analyze_with(path, None, &[("KDIAG_MAX_HELD_BYTES", 20 << 20)]);
        let p = problem_lines(&out);
        assert_eq!(p.len(), 10, "{path}: {p:#?}");
        assert!(
            p[0].starts_with("notes/part-02.txt: the archive's members that are neither")
                && p[0].contains("more than 20 MiB in memory")
                && p[0].ends_with("(KDIAG_MAX_HELD_BYTES); not read"),
            "{path}: {p:#?}"
        );
        assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{path}");
        assert!(
            rss < 64,
            "{path}: peak RSS {rss} MiB holding 96 MiB of members"
        );
    }
}

/// A folder's compressed files that hold one file each are inflated when they are read,
/// one at a time, as its other files are: a folder of many (`/usr` holds 25,000 `.gz`
/// files, 360 MB inflated; `analyze /usr` peaked at 1,023 MiB) never holds them all.
/// A compressed file of objects is still read, and one cut short is a problem naming it.
#[test]
fn compressed_files_of_a_folder_are_inflated_one_at_a_time() {
    let line = b"level=info msg=\"reconciled object of the queue\" controller=web worker=3\n";
    let note: Vec<u8> = line.iter().copied().cycle().take(8 << 20).collect();
    let dir = Scratch::new("gz-folder");
    dir.write("case/pods.yaml.gz", gzip(&bad_input_pod()));
    for i in 0..12 {
        dir.write(&format!("case/notes/part-{i:02}.txt.gz"), gzip(&note));
    }
    let cut = gzip(&note);
    dir.write("case/more-pods.yaml.gz", &cut[..cut.len() / 2]);
    let (out, rss) = analyze_with(&format!("{}/case", dir.path()), None, &[]);
    let p = problem_lines(&out);
    assert_eq!(p.len(), 1, "{p:#?}");
    assert!(
        p[0].starts_with("more-pods.yaml: cannot read: more-pods.yaml.gz: gzip data:"),
        "{p:#?}"
    );
    assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{out}");
    assert!(
        rss < 64,
        "peak RSS {rss} MiB for 96 MiB of compressed notes"
    );
}

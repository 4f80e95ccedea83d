//! Hostile input, bounds in the parser and the readers: what an expansion copies, what
//! one odd construct sends to the general parser, how far an archive or stdin grows
//! before its limit, what `merge` reads.

use crate::hostile::analyze_with;
use crate::{Scratch, bad_input_pod, problem_lines};

/// One 1 MiB scalar anchored and aliased 200 times (a 1 MB file that would expand to
/// 200 MiB): the expansion is refused by the bytes it copies, the file is named as an
/// alias bomb, and the pod beside it is analyzed.
#[test]
fn aliases_of_one_long_scalar_are_an_alias_bomb() {
    let dir = Scratch::new("aliasbytes");
    let mut bomb = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n  namespace: default\ndata:\n  a: &a {}\n",
        "x".repeat(1 << 20)
    );
    for i in 0..200 {
        bomb.push_str(&format!("  b{i}: *a\n"));
    }
    dir.write("bomb.yaml", bomb);
    dir.write("pods.yaml", bad_input_pod());
    let (out, rss) = analyze_with(dir.path(), None, &[]);
    let p = problem_lines(&out);
    assert_eq!(p.len(), 1, "{p:#?}");
    assert!(
        p[0].starts_with("bomb.yaml: ") && p[0].contains("more than 16 MiB (alias bomb?)"),
        "{p:#?}"
    );
    assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{out:#}");
    assert!(rss < 120, "peak RSS {rss} MiB: the expansion was copied");
}

/// A pod as `kubectl get pods -o yaml` writes a List's item (at column 0, keys sorted),
/// with `extra` lines (indented for the pod's top level) before `kind`, and `pad`
/// annotation lines to give it a real pod's size.
fn list_item(name: &str, extra: &str, pad: usize) -> String {
    let mut s = format!("- apiVersion: v1\n{extra}  kind: Pod\n  metadata:\n    annotations:\n");
    for i in 0..pad {
        s.push_str(&format!(
            "      note{i}: value {i} of {name}, long enough to be a real annotation\n"
        ));
    }
    s.push_str(&format!(
        "    name: {name}\n    namespace: d\n  spec:\n    containers:\n    - image: app:1\n      name: app\n    nodeName: n1\n  status:\n    phase: Running\n"
    ));
    s
}

fn list_of(items: &str) -> String {
    format!("apiVersion: v1\nitems:\n{items}kind: List\nmetadata:\n  resourceVersion: \"\"\n")
}

/// Odd YAML in one item of a List (an anchor and its alias, a flow mapping, a tag) sends
/// only that item to the general parser: every pod is read, the odd ones with their
/// values (the alias expanded), and an alias to another item's anchor still reads (the
/// file is then read whole, as before).
#[test]
fn odd_yaml_in_one_list_item_is_read_with_the_rest() {
    let items = [
        list_item("p1", "", 1),
        list_item("p2", "  labels: &l {app: web}\n  selector: *l\n", 1),
        list_item("p3", "  x: !!str 12\n", 1),
        list_item("p4", "", 1),
    ]
    .concat();
    let across = [
        list_item("q1", "  labels: &m {app: db}\n", 0),
        list_item("q2", "  selector: *m\n", 0),
    ]
    .concat();
    let dir = Scratch::with_files(
        "splitlist",
        &[
            (
                "pods.yaml",
                &format!(
                    "{}---\n{}",
                    list_of(&items),
                    list_of(&list_item("p5", "", 0))
                ),
            ),
            ("across.yaml", &list_of(&across)),
        ],
    );
    assert_eq!(
        dir.get("pods"),
        [
            "pod/p1", "pod/p2", "pod/p3", "pod/p4", "pod/p5", "pod/q1", "pod/q2"
        ]
    );
    let json = |name: &str| {
        let run = crate::kdiag(&["get", "pod", name, "-n", "d", "-o", "json", dir.path()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        serde_json::from_str::<serde_json::Value>(&run.stdout).unwrap()
    };
    assert_eq!(json("p2")["selector"]["app"], "web");
    assert_eq!(json("p3")["x"], "12");
    assert_eq!(json("q2")["selector"]["app"], "db");
    assert_eq!(
        json("p4")["metadata"]["annotations"]["note0"],
        "value 0 of p4, long enough to be a real annotation"
    );
    assert!(problem_lines(&dir.analyze()).is_empty());
}

/// One anchor in one pod of a large List costs what the List costs without it: the rest
/// of the List stays on the fast path (the general parser's trees cost several times
/// the text: 8 MB of pods read whole by it peaked far above the same List without `&a`).
#[test]
fn one_anchor_does_not_send_a_large_list_to_the_general_parser() {
    let dir = Scratch::new("oneanchor");
    let items = |odd: usize| -> String {
        (0..6000)
            .map(|i| {
                let extra = if i == odd {
                    "  labels: &a {app: x}\n"
                } else {
                    ""
                };
                list_item(&format!("p{i}"), extra, 12)
            })
            .collect()
    };
    let plain = dir.write("plain/pods.yaml", list_of(&items(usize::MAX)));
    let odd = dir.write("odd/pods.yaml", list_of(&items(3000)));
    let (a, plain_rss) = analyze_with(&plain, None, &[]);
    let (b, odd_rss) = analyze_with(&odd, None, &[]);
    assert_eq!(a["findings"], b["findings"]);
    assert!(
        odd_rss < plain_rss + 16,
        "peak RSS {odd_rss} MiB with one anchor, {plain_rss} MiB without"
    );
}

/// An archive holds at most as many files as a folder walk collects (`KDIAG_MAX_FILES`,
/// 500,000 by default; 100 here): the members past it are counted, not read, and a
/// problem names the archive and how many; the pod before them is analyzed. The same for
/// a tar.gz (streamed) and a zip (planned from its central directory).
#[test]
fn an_archive_stops_at_the_folder_file_cap() {
    let dir = Scratch::new("membercap");
    let pod = bad_input_pod();
    let names: Vec<String> = (0..300).map(|i| format!("notes/{i:03}.txt")).collect();
    let mut members: Vec<(&str, &[u8])> = vec![("pods.yaml", &pod)];
    members.extend(names.iter().map(|n| (n.as_str(), &b"x\n"[..])));
    let tgz = dir.write(
        "many.tar.gz",
        crate::hostile::gzip(&crate::hostile::tar_of(&members)),
    );
    let zip = dir.write("many.zip", crate::zip_of(&members));
    for (path, name) in [(tgz, "many.tar.gz"), (zip, "many.zip")] {
        let (out, _) = analyze_with(&path, None, &[("KDIAG_MAX_FILES", 100)]);
        assert_eq!(
            problem_lines(&out),
            [format!(
                "{name}: the archive holds more than 100 files (KDIAG_MAX_FILES); the 201 after them were not read"
            )],
        );
        assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{out:#}");
    }
}

/// Endless stdin stops at the entry limit (64 MiB here, 1 GiB by default) without the
/// buffer doubling on the way past it: peak RSS stays near the limit, not twice it.
#[test]
fn endless_stdin_stops_at_the_limit_without_doubling() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_kdiag"))
        .args(["analyze", "-", "--format", "json", "--fail-on", "never"])
        .env("KDIAG_MAX_ENTRY_BYTES", (64u64 << 20).to_string())
        .env("KDIAG_STATS", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Fed until kdiag stops reading (the pipe then breaks): 160 MiB at most.
    let feeder = std::thread::spawn(move || {
        let line = "key: value of a line that goes on and on\n".repeat(1 << 10);
        for _ in 0..(160 << 20) / line.len() {
            if stdin.write_all(line.as_bytes()).is_err() {
                break;
            }
        }
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(
        problem_lines(&json),
        ["<stdin>: more than 64 MiB; not read"]
    );
    let rss: u64 = stderr
        .lines()
        .filter_map(|l| l.split("peak RSS ").nth(1)?.split(' ').next()?.parse().ok())
        .max()
        .unwrap_or_else(|| panic!("no peak RSS in {stderr}"));
    assert!(rss < 64 + 40, "peak RSS {rss} MiB for a 64 MiB limit");
}

/// `kdiag merge` refuses a FIFO and a device as `analyze` does (a FIFO blocked it
/// forever, `/dev/zero` grew it without end), and reads a file line by line, holding at
/// most one line of 16 MiB: a sparse file of 64 MiB of NULs before a scan line is passed
/// over with its line named, and the scan line after it is merged.
#[test]
fn merge_refuses_fifos_and_devices_and_holds_one_line() {
    use std::io::{Seek, Write};
    let dir = Scratch::new("mergebounds");
    let line = |path: &str| {
        format!(
            "{{\"schema\":\"kdiag.scan/v1\",\"path\":\"{path}\",\"findings\":0,\"stages\":{{}},\"rules\":{{}}}}\n"
        )
    };
    let good = dir.write("shard-0.jsonl", line("b1"));
    let fifo = dir.file("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // Were the FIFO opened, this writer would let it end (empty) after 5 s.
    let writer = fifo.clone();
    std::thread::spawn(move || {
        use std::os::unix::fs::OpenOptionsExt;
        std::thread::sleep(std::time::Duration::from_secs(5));
        let nonblocking = 0o4000;
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(nonblocking)
            .open(writer);
    });
    for (bad, kind) in [
        (fifo.as_str(), "a FIFO (named pipe)"),
        ("/dev/null", "a character device"),
    ] {
        let run = crate::kdiag(&["merge", &good, bad]);
        assert_eq!(run.code, 2, "{bad}: {}", run.stdout);
        assert!(
            run.stderr.contains(&format!(
                "kdiag: cannot read {bad}: is {kind}, not a regular file; not read"
            )),
            "{}",
            run.stderr
        );
    }
    let sparse = dir.file("sparse.jsonl");
    let mut file = std::fs::File::create(&sparse).unwrap();
    file.set_len(64 << 20).unwrap();
    file.seek(std::io::SeekFrom::End(0)).unwrap();
    file.write_all(format!("\n{}", line("b2")).as_bytes())
        .unwrap();
    drop(file);
    let run = crate::kdiag(&["merge", &good, &sparse]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr.trim(),
        format!("kdiag: {sparse}: line 1 is longer than 16 MiB, not a scan line; skipped")
    );
    assert!(
        run.stdout.starts_with("fleet: 2 bundle(s)"),
        "{}",
        run.stdout
    );
    // Stdin that never ends (`merge - < /dev/zero`) stops at the entry limit.
    let zero = std::process::Command::new(env!("CARGO_BIN_EXE_kdiag"))
        .args(["merge", "-"])
        .env("KDIAG_MAX_ENTRY_BYTES", (32u64 << 20).to_string())
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    assert_eq!(zero.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&zero.stderr).trim(),
        "kdiag: cannot read stdin: more than 33554432 bytes (KDIAG_MAX_ENTRY_BYTES) and no end; a scan result is a line of a few KB per bundle"
    );
}

/// The file cap holds across a folder's archives together, not per archive: three
/// archives of 60 files each beside nothing else pass a cap of 100 between them. The
/// archives are read in name order up to the cap, each one cut short is named with the
/// files it lost, and the run is the same every time (the archives are opened in
/// parallel, then again in order when the cap is met).
#[test]
fn a_folder_of_archives_stops_at_the_file_cap_in_all() {
    let dir = Scratch::new("walkcap");
    let names: Vec<String> = (0..59).map(|i| format!("notes/{i:02}.txt")).collect();
    for (archive, pod) in ["a", "b", "c"].into_iter().enumerate() {
        let pod = String::from_utf8(bad_input_pod())
            .unwrap()
            .replace("name: crasher", &format!("name: crasher-{pod}"))
            .replace("34cc65a7", &format!("34cc65a{archive}"));
        let mut members: Vec<(&str, &[u8])> = vec![("pods.yaml", pod.as_bytes())];
        members.extend(names.iter().map(|n| (n.as_str(), &b"x\n"[..])));
        let packed = match archive {
            1 => crate::zip_of(&members),
            _ => crate::hostile::gzip(&crate::hostile::tar_of(&members)),
        };
        dir.write(["a.tar.gz", "b.zip", "c.tar.gz"][archive], packed);
    }
    for _ in 0..2 {
        let (out, _) = analyze_with(dir.path(), None, &[("KDIAG_MAX_FILES", 100)]);
        assert_eq!(
            problem_lines(&out),
            [
                "b.zip: with this archive's files the input holds more than 100 files (KDIAG_MAX_FILES); its last 23 were not read",
                "c.tar.gz: with this archive's files the input holds more than 100 files (KDIAG_MAX_FILES); its last 60 were not read",
            ],
        );
        // The pods of a.tar.gz and b.zip (each archive's first member) are read.
        assert_eq!(out["findings"].as_array().unwrap().len(), 2, "{out:#}");
    }
}

/// An archive past its own cap and the input's, the input's first: its first files were
/// refused too, so it is worded by the input's cap ("its last N"), not as the files after
/// its own first 100.
#[test]
fn an_archive_past_both_caps_is_worded_by_the_inputs() {
    let dir = Scratch::new("bothcaps");
    for (archive, files) in [("a.tar.gz", 60), ("b.zip", 120), ("c.tar.gz", 120)] {
        let pod = bad_input_pod();
        let names: Vec<String> = (1..files).map(|i| format!("notes/{i:03}.txt")).collect();
        let mut members: Vec<(&str, &[u8])> = vec![("pods.yaml", &pod[..])];
        members.extend(names.iter().map(|n| (n.as_str(), &b"x\n"[..])));
        let packed = match archive {
            "b.zip" => crate::zip_of(&members),
            _ => crate::hostile::gzip(&crate::hostile::tar_of(&members)),
        };
        dir.write(archive, packed);
    }
    let (out, _) = analyze_with(dir.path(), None, &[("KDIAG_MAX_FILES", 100)]);
    assert_eq!(
        problem_lines(&out),
        [
            "b.zip: with this archive's files the input holds more than 100 files (KDIAG_MAX_FILES); its last 83 were not read",
            "c.tar.gz: with this archive's files the input holds more than 100 files (KDIAG_MAX_FILES); its last 120 were not read",
        ],
    );
}

/// Many bad pieces of one file are a few problems naming their lines, not one problem
/// each (100,000 of them cost 400 MB and buried the one that mattered): documents that
/// are no objects after a pod, one top-level key given again and again, documents that
/// do not parse after a pod. The pods beside them are analyzed.
#[test]
fn many_bad_pieces_of_one_file_are_a_few_problems() {
    let dir = Scratch::new("floods");
    let pod = String::from_utf8(bad_input_pod()).unwrap();
    let n = 20_000;
    dir.write(
        "docs.yaml",
        format!("{pod}{}", "---\nkey: value\n".repeat(n)),
    );
    dir.write("keys.yaml", "key: value\n".repeat(n));
    let broken = "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: b\nspec: [\n";
    dir.write(
        "broken.yaml",
        format!(
            "{}{}",
            pod.replace("name: crasher", "name: other"),
            broken.repeat(n)
        ),
    );
    let (out, _) = analyze_with(dir.path(), None, &[]);
    let p = problem_lines(&out);
    let pod_lines = pod.lines().count();
    let docs_first = pod_lines + 2;
    let expected_docs = format!(
        "docs.yaml: not a Kubernetes object (no `kind`, `apiVersion` or `metadata`) (and at {} more places in this file: lines {}, …)",
        n - 1,
        (1..=10)
            .map(|i| (docs_first + 2 * i).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert!(p.contains(&expected_docs), "{p:#?}");
    assert!(
        p.contains(&format!(
            "keys.yaml: top-level key `key` is given again at line 2 (first at line 1) and {} more times after it, with no `---` before it and not as the start of another object; the last value is read",
            n - 2
        )),
        "{p:#?}"
    );
    let broken_problem = p.iter().find(|l| l.starts_with("broken.yaml: ")).unwrap();
    assert!(
        broken_problem.contains(&format!("; {n} documents skipped (the others at lines "))
            && broken_problem.contains(", …), reading went on at the next `---`")
            && broken_problem.len() < 400,
        "{broken_problem}"
    );
    assert_eq!(p.len(), 4, "{p:#?}");
    assert_eq!(out["findings"].as_array().unwrap().len(), 2, "{out:#}");
}

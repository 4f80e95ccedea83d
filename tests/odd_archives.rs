//! Odd archives and logs: one log read the same from every container, sparse tar members,
//! padding after a compressed stream, zips behind a prefix, streams that need more memory
//! than kdiag allows.

use crate::hostile::{gzip, tar_of};
use crate::{Scratch, kdiag_env, zip_of};

const POD: &str = "worker-66b9dc7f5c-tq4vn";
const LOG: &str = "namespaces/demo/pods/worker-66b9dc7f5c-tq4vn/worker/worker/logs/current.log";
const STAMP: &str = "2026-11-20 09:14:02.016988581 +0000 UTC m=+0.380233555\n";

/// The must-gather `tree` holding `log` as one container's current log, as a folder, a
/// tar.gz and a zip: (format, path).
fn in_every_container(dir: &Scratch, tree: &str, log: &[u8]) -> Vec<(&'static str, String)> {
    let files: [(String, &[u8]); 2] = [
        (format!("{tree}/timestamp"), STAMP.as_bytes()),
        (format!("{tree}/{LOG}"), log),
    ];
    for (name, bytes) in &files {
        dir.write(&format!("folder/{name}"), bytes);
    }
    let members: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    vec![
        ("folder", dir.file("folder")),
        ("tar.gz", dir.write("mg.tar.gz", gzip(&tar_of(&members)))),
        ("zip", dir.write("mg.zip", zip_of(&members))),
    ]
}

/// A log's kept tail is its last bytes as `tail -c` keeps them, whatever holds the log:
/// a last line longer than the tail (a `\r` progress bar after a copytruncate NUL hole)
/// shows its end, not nothing, and is said to be cut; a tail that holds a line start
/// starts there. The same bytes and note from a folder, a tar.gz and a zip.
#[test]
fn a_log_keeps_the_same_tail_in_every_container() {
    let dir = Scratch::new("logtails");
    let mut log = Vec::new();
    for i in 1..=3000 {
        log.extend(format!("I1120 09:1{}:00 worker.go:{i}] step {i}\n", i % 10).bytes());
    }
    log.extend(std::iter::repeat_n(0u8, 70_000));
    log.extend(b"I1120 09:13:59 restarted after copytruncate\n");
    let lines = log.iter().filter(|&&b| b == b'\n').count();
    let mut bar = Vec::new();
    for pct in 0..=100u32 {
        bar.extend(format!("downloading layer {pct:3}% {}\r", "#".repeat(pct as usize)).bytes());
    }
    while bar.len() <= 9 << 20 {
        bar.extend_from_slice(&bar.clone()[..bar.len().min((9 << 20) + 10 - bar.len())]);
    }
    log.extend_from_slice(&bar);
    log.extend(std::iter::repeat_n(0u8, 333));
    let inputs = in_every_container(&dir, "mg", &log);
    for limit in [None, Some(1000u64), Some(100_000)] {
        let env: Vec<(&str, String)> = limit
            .map(|l| ("KDIAG_LOG_TAIL_BYTES", l.to_string()))
            .into_iter()
            .collect();
        let keep = limit.unwrap_or(8 << 20) as usize;
        let runs: Vec<_> = inputs
            .iter()
            .map(|(format, path)| {
                let run = kdiag_env(&["logs", POD, "-n", "demo", path], None, &env);
                assert_eq!(run.code, 0, "{format}: {}", run.stderr);
                (format, run)
            })
            .collect();
        let (_, folder) = &runs[0];
        assert!(
            folder.stdout.as_bytes() == &log[log.len() - keep..],
            "limit {limit:?}: not the last {keep} bytes ({} kept)",
            folder.stdout.len()
        );
        let cut = log.len() - keep - (log.len() - bar.len() - 333);
        assert!(
            folder.stderr.contains(&format!(
                "its first {lines} lines and the first {cut} bytes of line {} are not shown",
                lines + 1
            )),
            "limit {limit:?}: {}",
            folder.stderr
        );
        assert!(!folder.stderr.contains("empty"), "{}", folder.stderr);
        for (format, run) in &runs[1..] {
            assert!(run.stdout == folder.stdout, "{format}, limit {limit:?}");
            let note = |s: &str| s.replace(&dir.file("folder"), "").replace(dir.path(), "");
            assert_eq!(
                note(&run.stderr)
                    .replace("mg.tar.gz!/", "")
                    .replace("mg.zip!/", ""),
                note(&folder.stderr).replace("/mg/", "mg/"),
                "{format}, limit {limit:?}"
            );
        }
    }
}

/// A file with a hole: a first line, 3 MiB of nothing, two lines.
fn write_sparse_log(path: &std::path::Path) -> Vec<u8> {
    use std::io::{Seek, SeekFrom, Write};
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut f = std::fs::File::create(path).unwrap();
    f.write_all(b"first line\n").unwrap();
    f.seek(SeekFrom::Start(3 << 20)).unwrap();
    f.write_all(b"after the hole\nlast line\n").unwrap();
    drop(f);
    std::fs::read(path).unwrap()
}

/// Sparse members as GNU tar writes them with `-S` (its own type `S`, and the pax sparse
/// versions 0.0, 0.1 and 1.0, where the header names `GNUSparseFile.NNN/`) are read
/// under their real names, holes as NULs; a member whose map does not match its data is a
/// problem naming its real name, and the rest of the archive is read.
#[test]
fn sparse_tar_members_are_expanded() {
    let dir = Scratch::new("sparse");
    let src = std::path::Path::new(dir.path()).join("src");
    let log = write_sparse_log(&src.join("mg").join(LOG));
    dir.write("src/mg/timestamp", STAMP);
    let formats: [(&str, &[&str]); 4] = [
        ("gnu", &["--format=gnu"]),
        ("0.0", &["--format=posix", "--sparse-version=0.0"]),
        ("0.1", &["--format=posix", "--sparse-version=0.1"]),
        ("1.0", &["--format=posix", "--sparse-version=1.0"]),
    ];
    for (version, args) in formats {
        let tar = dir.file(&format!("{version}.tar"));
        let ok = std::process::Command::new("tar")
            .args(args)
            .args(["-S", "-cf", &tar, "-C", &src.to_string_lossy(), "mg"])
            .status()
            .expect("GNU tar runs");
        assert!(ok.success());
        let bytes = std::fs::read(&tar).unwrap();
        // The archive holds a sparse member (the file system kept the hole).
        let sparse_mark: &[u8] = if version == "gnu" {
            b"current.log"
        } else {
            b"GNU.sparse."
        };
        assert!(
            bytes.windows(sparse_mark.len()).any(|w| w == sparse_mark) && bytes.len() < 1 << 20,
            "{version}: no sparse member ({} bytes)",
            bytes.len()
        );
        let run = kdiag_env(&["logs", POD, "-n", "demo", &tar], None, &[]);
        assert_eq!(run.code, 0, "{version}: {}", run.stderr);
        assert!(
            run.stdout.as_bytes() == log,
            "{version}: {} bytes",
            run.stdout.len()
        );
        // Expanding past the entry limit is refused, a log too: its holes cost reading.
        let limit = [("KDIAG_MAX_ENTRY_BYTES", (1u64 << 20).to_string())];
        let run = kdiag_env(&["logs", POD, "-n", "demo", &tar], None, &limit);
        assert!(
            run.stderr.contains(&format!(
                "mg/{LOG}: sparse member that expands to 3145753 bytes, more than 1 MiB; not read"
            )),
            "{version}: {}",
            run.stderr
        );
        if version == "0.1" {
            // The map's first part one byte shorter than the data holds.
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let at = text.find("map=0,4096,").expect("the map of the log");
            let mut bad = bytes.clone();
            bad[at + 6..at + 10].copy_from_slice(b"4095");
            let bad_tar = dir.write("bad.tar", bad);
            let run = kdiag_env(&["logs", POD, "-n", "demo", &bad_tar], None, &[]);
            assert!(
                run.stderr.contains(&format!(
                    "mg/{LOG}: sparse tar member: its map lists 4120 bytes, its data holds 4121; not read"
                )),
                "{}",
                run.stderr
            );
            assert!(!run.stderr.contains("GNUSparseFile"), "{}", run.stderr);
        }
    }
}

/// A compression of bytes.
type Compress = fn(&[u8]) -> Vec<u8>;

/// The good pod, and the problems, of `analyze` of `path`.
fn pod_and_problems(path: &str) -> (usize, Vec<String>) {
    let out = crate::json(&crate::kdiag(&["analyze", path, "--format", "json"]));
    (crate::findings(&out).len(), crate::problem_lines(&out))
}

/// NUL bytes after a finished gzip, bzip2 or zstd stream (a file padded to a block) are
/// padding, as `gzip -d` and `bzip2 -d` take them, not a corrupt stream: for a compressed
/// file and a compressed tar. Data after the padding is still corrupt.
#[test]
fn nul_padding_after_a_compressed_stream_is_accepted() {
    use crate::archives::{bzip2, zstd};
    let dir = Scratch::new("padding");
    let pod = crate::bad_input_pod();
    let tar = tar_of(&[("pods.yaml", &pod)]);
    let formats: [(&str, Compress); 3] = [("gz", gzip), ("bz2", bzip2), ("zst", zstd)];
    for (ext, compress) in formats {
        for (name, content) in [("pods.yaml", &pod), ("bundle.tar", &tar)] {
            let mut padded = compress(content);
            padded.extend([0u8; 1000]);
            let path = dir.write(&format!("{name}.{ext}"), &padded);
            assert_eq!(pod_and_problems(&path), (1, vec![]), "{name}.{ext}");
            padded.extend(b"junk");
            let path = dir.write(&format!("junk-{name}.{ext}"), &padded);
            let (_, problems) = pod_and_problems(&path);
            assert!(
                problems.len() == 1
                    && problems[0]
                        .contains("data after the NUL padding that follows the compressed stream"),
                "{name}.{ext}: {problems:?}"
            );
        }
    }
}

/// A zip behind a prefix (a self-extractor's stub before the first local header, its
/// central directory's offsets counted from the zip's start), as `unzip` reads it.
#[test]
fn a_zip_behind_a_prefix_is_read() {
    let dir = Scratch::new("sfxzip");
    let mut sfx = b"#!/bin/sh\necho self-extracting archive\nexit 0\n".to_vec();
    sfx.extend(zip_of(&[("pods.yaml", &crate::bad_input_pod())]));
    for name in ["bundle.zip", "bundle.sh"] {
        let path = dir.write(name, &sfx);
        assert_eq!(pod_and_problems(&path), (1, vec![]), "{name}");
    }
}

/// An xz stream whose dictionary needs more memory than kdiag allows is said to need it,
/// naming the limit, not called invalid. (Its block header claims a 1 GiB dictionary:
/// the LZMA2 dictionary byte set to 36, the header's CRC-32 made again.)
#[test]
fn an_xz_stream_over_the_memory_limit_says_so() {
    let dir = Scratch::new("xzmem");
    let mut xz = crate::archives::xz(&tar_of(&[("pods.yaml", &crate::bad_input_pod())]));
    let header = 12;
    let size = (usize::from(xz[header]) + 1) * 4;
    let block = &mut xz[header..header + size];
    let at = block
        .windows(2)
        .position(|w| w == [0x21, 0x01])
        .expect("the LZMA2 filter");
    block[at + 2] = 36;
    let mut crc = flate2::Crc::new();
    crc.update(&block[..size - 4]);
    block[size - 4..].copy_from_slice(&crc.sum().to_le_bytes());
    let path = dir.write("bundle.tar.xz", &xz);
    let (_, problems) = pod_and_problems(&path);
    assert_eq!(
        problems,
        [
            "bundle.tar.xz: the xz stream needs more memory to decode than the 256 MiB kdiag allows (its dictionary is larger; `xz -9` needs 65 MiB); not read"
        ]
    );
}

//! Archives and compressed files are known by what they hold, not by their names: every
//! format kdiag reads, at the top, inside archives and on stdin; formats it cannot read
//! and corrupt streams are problems naming them, and the rest is still analyzed.

use crate::{Scratch, bad_input_pod, json, kdiag, kdiag_stdin, problem_lines, zip_of};
use std::io::Write;

const CONFIG_MAP: &[u8] =
    b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: default\n";

/// A must-gather-shaped folder of YAML: one crash-looping pod and a ConfigMap.
fn must_gather_tar() -> Vec<u8> {
    let files: [(&str, Vec<u8>); 2] = [
        ("mg/namespaces/default/core/pods.yaml", bad_input_pod()),
        (
            "mg/namespaces/default/core/configmaps.yaml",
            CONFIG_MAP.to_vec(),
        ),
    ];
    let mut tar = tar::Builder::new(Vec::new());
    for (name, data) in &files {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, name, data.as_slice()).unwrap();
    }
    tar.into_inner().unwrap()
}

fn gzip(bytes: &[u8], level: flate2::Compression) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), level);
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

pub fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 6);
    xz.write_all(bytes).unwrap();
    xz.finish().unwrap()
}

pub fn bzip2(bytes: &[u8]) -> Vec<u8> {
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    bz.write_all(bytes).unwrap();
    bz.finish().unwrap()
}

pub fn zstd(bytes: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
}

fn analyze(paths: &[&str]) -> serde_json::Value {
    let mut args = vec!["analyze"];
    args.extend_from_slice(paths);
    args.extend_from_slice(&["--format", "json", "--fail-on", "never"]);
    let run = kdiag(&args);
    assert_eq!(run.code, 0, "{paths:?}: {}\n{}", run.stderr, run.stdout);
    json(&run)
}

/// The must-gather tar was read whole: both objects, the pod's one finding, no problem.
fn assert_must_gather_read(what: &str, out: &serde_json::Value) {
    assert!(
        problem_lines(out).is_empty(),
        "{what}: {:#?}",
        problem_lines(out)
    );
    assert_eq!(out["inputs"][0]["layout"], "must-gather", "{what}: {out:#}");
    assert_eq!(out["inputs"][0]["objects"], 2, "{what}: {out:#}");
    assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{what}");
}

/// How openshift/must-gather-clean ships must-gathers.
#[test]
fn tar_xz_folder_of_yaml_is_read() {
    let dir = Scratch::new("xz");
    let path = dir.write("must-gather.tar.xz", xz(&must_gather_tar()));
    assert_must_gather_read("tar.xz", &analyze(&[&path]));
}

#[test]
fn tar_bz2_is_read() {
    let dir = Scratch::new("bz2");
    let path = dir.write("must-gather.tar.bz2", bzip2(&must_gather_tar()));
    assert_must_gather_read("tar.bz2", &analyze(&[&path]));
}

#[test]
fn tar_zst_is_read() {
    let dir = Scratch::new("zst");
    let path = dir.write("must-gather.tar.zst", zstd(&must_gather_tar()));
    assert_must_gather_read("tar.zst", &analyze(&[&path]));
}

/// Browsers un-gzip a download and keep its `.tar.gz` name.
#[test]
fn plain_tar_named_tar_gz_is_read() {
    let dir = Scratch::new("plain");
    let path = dir.write("must-gather.tar.gz", must_gather_tar());
    assert_must_gather_read("plain tar named .tar.gz", &analyze(&[&path]));
}

#[test]
fn gzip_named_tar_is_read() {
    let dir = Scratch::new("gztar");
    let path = dir.write(
        "must-gather.tar",
        gzip(&must_gather_tar(), flate2::Compression::fast()),
    );
    assert_must_gather_read("gzip named .tar", &analyze(&[&path]));
}

/// A support case zip holding a `.tar.xz`: its members are named `outer!/inner`.
#[test]
fn tar_xz_inside_a_zip_is_read() {
    let dir = Scratch::new("nested");
    let inner = xz(&must_gather_tar());
    let path = dir.write(
        "case.zip",
        zip_of(&[
            ("case-1234/must-gather.tar.xz", &inner),
            ("case-1234/notes.txt", b"customer says: pods crash"),
        ]),
    );
    let out = analyze(&[&path]);
    assert_must_gather_read("tar.xz in zip", &out);
    let file = out["findings"][0]["evidence"][0]["file"].as_str().unwrap();
    assert_eq!(
        file, "case-1234/must-gather.tar.xz!/mg/namespaces/default/core/pods.yaml",
        "{out:#}"
    );
}

/// A compressed single file is its content, named without the compression's ending; on
/// stdin too.
#[test]
fn compressed_single_files_are_their_content() {
    let dir = Scratch::new("single");
    let gz = dir.write(
        "pods.yaml.gz",
        gzip(&bad_input_pod(), flate2::Compression::default()),
    );
    let json_pod =
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"}}"#;
    let xz = dir.write("configmaps.json.xz", xz(json_pod.as_bytes()));
    let out = analyze(&[&gz, &xz]);
    assert!(problem_lines(&out).is_empty(), "{:#?}", problem_lines(&out));
    assert_eq!(out["inputs"][0]["objects"], 1, "{out:#}");
    assert_eq!(out["inputs"][1]["objects"], 1, "{out:#}");
    assert_eq!(out["findings"].as_array().unwrap().len(), 1);
    assert_eq!(out["findings"][0]["evidence"][0]["file"], "pods.yaml");
    let run = kdiag_stdin(
        &["analyze", "-", "--format", "json", "--fail-on", "never"],
        Some(&gzip(&bad_input_pod(), flate2::Compression::default())),
    );
    let out = json(&run);
    assert!(
        problem_lines(&out).is_empty(),
        "stdin: {:#?}",
        problem_lines(&out)
    );
    assert_eq!(out["findings"].as_array().unwrap().len(), 1, "stdin");
}

/// 7z (and RAR, LZ4, …) are known by their magic: a problem naming the format and the
/// file, whatever its name, and the rest of the bundle is analyzed.
#[test]
fn unreadable_format_is_a_problem_naming_it() {
    let dir = Scratch::new("7z");
    let seven = b"7z\xbc\xaf\x27\x1c\x00\x04 the rest of a 7z archive".to_vec();
    let path = dir.write(
        "case.zip",
        zip_of(&[
            ("case/logs.bin", &seven),
            ("case/pods.yaml", &bad_input_pod()),
        ]),
    );
    let top = dir.write("extra.7z", &seven);
    let out = analyze(&[&path, &top]);
    let p = problem_lines(&out);
    assert!(
        p.iter()
            .any(|m| m.starts_with("case/logs.bin: 7z") && m.contains("not read")),
        "{p:#?}"
    );
    assert!(p.iter().any(|m| m.starts_with("extra.7z: 7z")), "{p:#?}");
    assert_eq!(p.len(), 2, "{p:#?}");
    assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{out:#}");
}

/// gzip's CRC-32 and length cover the whole stream, after the tar's last member: a byte
/// changed in the deflate data, the CRC or the length is a problem naming the archive,
/// never wrong content analyzed as if it were right.
#[test]
fn corrupt_tar_gz_is_a_problem() {
    let dir = Scratch::new("crc");
    // Stored (uncompressed) deflate blocks: a changed byte there decodes, to wrong text.
    let good = gzip(&must_gather_tar(), flate2::Compression::none());
    let at = good
        .windows(7)
        .position(|w| w == b"crasher")
        .expect("the pod's name is in the stored data");
    let n = good.len();
    for (what, index) in [("data", at), ("CRC-32", n - 8), ("length", n - 1)] {
        let mut bad = good.clone();
        bad[index] ^= 0x20;
        let path = dir.write(&format!("{what}.tar.gz"), &bad);
        let run = kdiag(&["analyze", &path, "--format", "json", "--fail-on", "never"]);
        let out = json(&run);
        let p = problem_lines(&out);
        assert!(
            p.iter()
                .any(|m| m.starts_with(&format!("{what}.tar.gz: gzip")) && m.contains("corrupt")),
            "{what}: {p:#?}"
        );
    }
}

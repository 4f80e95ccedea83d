//! The whole pipeline on a bundle of several files: the fuzz input is a list of files
//! (`[name length][name][3-byte little-endian length][bytes]` …, see `bundle_seeds.py`),
//! packed as its first byte says (plain tar, zip, tar.gz, or a zip holding a tar.gz of
//! half the files), written to one temporary file, then loaded, analyzed and rendered in
//! every format, redacted too. Nothing may panic, and every report must render.
#![no_main]

use kdiag::ingest::InputArg;
use kdiag::report::{self, Analysis, redact::Redactor};
use kdiag::rules::Severity;
use libfuzzer_sys::fuzz_target;
use std::io::Write;

/// The files a fuzz input describes; a name or length cut short ends the list.
fn files(mut data: &[u8]) -> Vec<(String, &[u8])> {
    let mut out = Vec::new();
    while let Some((&n, rest)) = data.split_first() {
        let n = usize::from(n);
        if rest.len() < n + 3 {
            break;
        }
        let name = String::from_utf8_lossy(&rest[..n]).into_owned();
        let len = usize::from(rest[n]) | usize::from(rest[n + 1]) << 8 | usize::from(rest[n + 2]) << 16;
        let body = &rest[n + 3..];
        let len = len.min(body.len());
        out.push((name, &body[..len]));
        data = &body[len..];
    }
    out
}

fn tar_of(files: &[(String, &[u8])]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, bytes) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        // Names the tar crate refuses (`..`, absolute) are the reader's business, not ours.
        if b.append_data(&mut h, name, *bytes).is_err() {
            continue;
        }
    }
    b.into_inner().unwrap_or_default()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let _ = e.write_all(bytes);
    e.finish().unwrap_or_default()
}

fn zip_of(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in files {
        if w.start_file(name.as_str(), opts).is_ok() {
            let _ = w.write_all(bytes);
        }
    }
    w.finish().map(|c| c.into_inner()).unwrap_or_default()
}

fn owned(files: &[(String, &[u8])]) -> Vec<(String, Vec<u8>)> {
    files.iter().map(|(n, b)| (n.clone(), b.to_vec())).collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&packing, rest)) = data.split_first() else {
        return;
    };
    let files = files(rest);
    let (name, bytes) = match packing % 4 {
        0 => ("bundle.tar", tar_of(&files)),
        1 => ("bundle.zip", zip_of(&owned(&files))),
        2 => ("bundle.tar.gz", gzip(&tar_of(&files))),
        _ => {
            let (inner, outer) = files.split_at(files.len() / 2);
            let mut members = owned(outer);
            members.push(("inner/must-gather.tar.gz".into(), gzip(&tar_of(inner))));
            ("bundle.zip", zip_of(&members))
        }
    };
    let dir = std::env::temp_dir().join(format!("kdiag-fuzz-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(name);
    if std::fs::write(&path, &bytes).is_err() {
        return;
    }
    let Ok((snapshot, findings)) = kdiag::analyze(&[InputArg::Path(path)]) else {
        return;
    };
    let analysis = Analysis::new(&snapshot, findings);
    let outcome = report::verdict::Outcome {
        exit: u8::from(packing & 1 != 0),
        fail_on: "error",
    };
    let style = |top: Option<usize>, summary_only: bool| report::human::Style {
        color: packing & 4 != 0,
        width: 40 + usize::from(packing >> 3) * 4,
        top,
        summary_only,
        details: if packing & 2 != 0 {
            Severity::Info
        } else {
            Severity::Warning
        },
        notes: packing & 1 != 0,
        verdict: Some(report::verdict::line(&analysis, None, &outcome)),
    };
    let (style, summary) = (style(None, false), style(Some(1), true));
    let texts = [
        report::human::render(&analysis, &style),
        report::human::render(&analysis, &summary),
        report::json::render(&analysis),
        report::sarif::render(&analysis, None),
        report::html::render(&analysis, None),
    ];
    let json: serde_json::Value =
        serde_json::from_str(&texts[2]).expect("the JSON report is valid JSON");
    assert!(json["findings"].is_array());
    let redactor = Redactor::from_snapshot(&snapshot);
    for text in &texts {
        let _ = redactor.apply(text);
    }
});

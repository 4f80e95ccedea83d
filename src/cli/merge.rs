//! `kdiag merge FILE...`: the JSON lines of several scans (the shards of an Indexed Job)
//! as one fleet table, summary or list of lines (made by [`crate::scan`]).

use super::output::write_stdout;
use crate::scan::{SCAN_SCHEMA, fleet_summary, fleet_table, scan_line_path, what_it_is};
use serde_json::Value;
use std::collections::BTreeMap;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct MergeArgs {
    /// JSON-lines files written by `kdiag scan` (`-` for stdin). Lines that are not JSON
    /// objects are skipped; a bundle seen twice keeps its last line.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// `table` (default), `json` (one fleet summary) or `jsonl` (the merged lines, sorted by path).
    #[arg(long, value_enum, default_value_t = MergeFormat::Table)]
    pub format: MergeFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MergeFormat {
    Table,
    Json,
    Jsonl,
}

/// The longest line kept: a scan line is one bundle's summary (a few KB); a longer line
/// (a file of NULs, `/dev/zero` through a pipe) is passed over, not held.
const MAX_LINE: usize = 16 << 20;

/// Runs `kdiag merge`: 2 when a file cannot be read or holds no scan line. Files are
/// read line by line, each line at most [`MAX_LINE`]; FIFOs and devices are refused
/// before they are opened, as `analyze` refuses them (a FIFO would block, a device
/// never end).
pub fn run(args: MergeArgs) -> ExitCode {
    let mut by_path: BTreeMap<String, Value> = BTreeMap::new();
    for f in &args.files {
        let name = if f == "-" { "stdin" } else { f.as_str() };
        let read = if f == "-" {
            // Stdin may never end (`< /dev/zero`): it is read up to the entry limit.
            let limit = crate::ingest::source::max_entry_bytes();
            read_lines(std::io::stdin().lock(), &mut by_path, Some(limit))
        } else {
            open_regular(f).and_then(|file| read_lines(file, &mut by_path, None))
        };
        let read = match read {
            Ok(read) => read,
            Err(e) => {
                crate::err_line!("kdiag: cannot read {name}: {e}");
                return ExitCode::from(2);
            }
        };
        for line in &read.long {
            crate::err_line!(
                "kdiag: {name}: line {line} is longer than {} MiB, not a scan line; skipped",
                MAX_LINE >> 20
            );
        }
        // An empty file is a shard that had no bundles; text without one scan line is
        // some other file, and a fleet table of nothing would hide that.
        if read.scan_lines == 0 && !read.blank {
            crate::err_line!(
                "kdiag: {name} is not a scan result: it is {}, and holds no `kdiag scan` JSON line ({SCAN_SCHEMA}); merge takes what `kdiag scan` prints",
                what_it_is(&String::from_utf8_lossy(&read.head))
            );
            return ExitCode::from(2);
        }
    }
    let lines: Vec<Value> = by_path.into_values().collect();
    let text = match args.format {
        MergeFormat::Table => fleet_table(&lines),
        MergeFormat::Jsonl => lines.iter().map(|l| format!("{l}\n")).collect(),
        MergeFormat::Json => fleet_summary(&lines),
    };
    write_stdout(&text)
}

/// A file opened for reading when it is a regular file (see
/// [`special_kind`](crate::ingest::source::special_kind)).
fn open_regular(path: &str) -> std::io::Result<std::fs::File> {
    let meta = std::fs::metadata(path)?;
    if let Some(kind) = crate::ingest::source::special_kind(&meta.file_type()) {
        return Err(crate::ingest::source::not_regular(kind));
    }
    std::fs::File::open(path)
}

/// What reading one file found.
#[derive(Default)]
struct Read {
    scan_lines: usize,
    /// Numbers of the lines longer than [`MAX_LINE`].
    long: Vec<u64>,
    /// Only white space (or nothing).
    blank: bool,
    /// The first [`MAX_LINE`] bytes, to say what the file is when it holds no scan line.
    head: Vec<u8>,
}

/// Reads `reader` line by line into `by_path` (a bundle's last line wins), holding at most
/// one line of [`MAX_LINE`] bytes at a time, and failing past `limit` bytes when given.
fn read_lines(
    reader: impl std::io::Read,
    by_path: &mut BTreeMap<String, Value>,
    limit: Option<u64>,
) -> std::io::Result<Read> {
    use std::io::BufRead;
    let mut reader = std::io::BufReader::with_capacity(64 << 10, reader);
    let mut out = Read {
        blank: true,
        ..Read::default()
    };
    let mut line = Vec::new();
    let mut too_long = false;
    let mut number = 1u64;
    let mut total = 0u64;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            break;
        }

        let (piece, ends) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let used = piece.len();
        total += used as u64;
        if let Some(limit) = limit.filter(|l| total > *l) {
            return Err(std::io::Error::other(format!(
                "more than {limit} bytes (KDIAG_MAX_ENTRY_BYTES) and no end; a scan result is a line of a few KB per bundle"
            )));
        }
        if out.head.len() < MAX_LINE {
            let room = MAX_LINE - out.head.len();
            out.head.extend_from_slice(&piece[..used.min(room)]);
        }
        if out.blank {
            out.blank = piece.iter().all(u8::is_ascii_whitespace);
        }
        if !too_long && line.len() + used > MAX_LINE + 1 {
            too_long = true;
            line = Vec::new();
        }
        if !too_long {
            line.extend_from_slice(piece);
        }
        reader.consume(used);
        if ends {
            finish_line(&line, too_long, number, by_path, &mut out);
            line.clear();
            too_long = false;
            number += 1;
        }
    }
    if !line.is_empty() || too_long {
        finish_line(&line, too_long, number, by_path, &mut out);
    }
    Ok(out)
}

/// One line read: a scan line is kept; any other line is skipped (a long one named).
fn finish_line(
    line: &[u8],
    too_long: bool,
    number: u64,
    by_path: &mut BTreeMap<String, Value>,
    out: &mut Read,
) {
    if too_long {
        out.long.push(number);
        return;
    }
    let Ok(text) = std::str::from_utf8(line) else {
        return;
    };
    let text = text.trim();
    if text.starts_with('{')
        && let Ok(v) = serde_json::from_str::<Value>(text)
        && let Some(p) = scan_line_path(&v)
    {
        by_path.insert(p.to_string(), v);
        out.scan_lines += 1;
    }
}

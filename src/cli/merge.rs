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

/// Runs `kdiag merge`: 2 when a file cannot be read or holds no scan line.
pub fn run(args: MergeArgs) -> ExitCode {
    let mut by_path: BTreeMap<String, Value> = BTreeMap::new();
    for f in &args.files {
        let text = if f == "-" {
            let mut s = String::new();
            if std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).is_err() {
                crate::err_line!("kdiag: cannot read stdin");
                return ExitCode::from(2);
            }
            s
        } else {
            match std::fs::read_to_string(f) {
                Ok(s) => s,
                Err(e) => {
                    crate::err_line!("kdiag: cannot read {f}: {e}");
                    return ExitCode::from(2);
                }
            }
        };
        let mut scan_lines = 0;
        for line in text.lines().map(str::trim).filter(|l| l.starts_with('{')) {
            if let Ok(v) = serde_json::from_str::<Value>(line)
                && let Some(p) = scan_line_path(&v)
            {
                by_path.insert(p.to_string(), v);
                scan_lines += 1;
            }
        }
        // An empty file is a shard that had no bundles; text without one scan line is
        // some other file, and a fleet table of nothing would hide that.
        if scan_lines == 0 && !text.trim().is_empty() {
            let name = if f == "-" { "stdin" } else { f.as_str() };
            crate::err_line!(
                "kdiag: {name} is not a scan result: it is {}, and holds no `kdiag scan` JSON line ({SCAN_SCHEMA}); merge takes what `kdiag scan` prints",
                what_it_is(&text)
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

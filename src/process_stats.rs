//! What this process has used so far, read from `/proc` (Linux; `None` elsewhere): CPU
//! time and resident memory for `KDIAG_STATS` and the benchmark. The lowest floor: it
//! uses nothing of the crate, so ingest, the store, the rules and the commands can all
//! measure themselves.

/// User and system CPU time of this process so far, all threads (Linux, in clock ticks
/// of 10 ms; `None` elsewhere).
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some((utime + stime) as f64 / 100.0)
}

/// CPU time of the calling thread so far, in seconds (Linux, from the scheduler's
/// nanosecond count; `None` elsewhere): what one rule cost, whatever else the machine ran.
pub fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// Peak resident memory of this process so far (Linux; `None` elsewhere).
pub fn peak_rss_mib() -> Option<u64> {
    status_mib("VmHWM:")
}

/// Resident memory of this process now (Linux; `None` elsewhere): what building one
/// view added, in `KDIAG_STATS`.
pub fn rss_mib() -> Option<u64> {
    status_mib("VmRSS:")
}

/// A `/proc/self/status` line's size in MiB.
fn status_mib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// `eprintln!` that never panics: a line on stderr, dropped when stderr cannot be written
/// (closed, a full disk, `2>/dev/full`). `eprintln!` panics then, and a diagnosis whose
/// report went to stdout would end as a crash (exit 101).
#[macro_export]
macro_rules! err_line {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` that never panics (see [`err_line!`]).
#[macro_export]
macro_rules! err_text {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

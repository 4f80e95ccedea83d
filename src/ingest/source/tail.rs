//! The kept end of a log: its last bytes as `tail -c` keeps them, the same whatever
//! container the log came in (folder, tar, zip, compressed) and however its reader cuts
//! the stream into reads, so that one log gives one answer.

use std::io::Read;

/// The end of a log: at most `limit` bytes, starting at a line start when a line start
/// falls inside them (a cut first line is dropped); else (the last line alone is longer
/// than the limit: a `\r` progress bar, a NUL hole left by copytruncate) the last `limit`
/// bytes of that line, and how many of its bytes were dropped.
#[derive(Debug, PartialEq, Eq)]
pub struct Tail {
    pub bytes: Vec<u8>,
    /// Whole lines dropped before the kept bytes.
    pub skipped_lines: usize,
    /// Bytes of the first kept line dropped before the kept bytes (0: it starts whole).
    pub cut_bytes: u64,
}

/// Reads `reader` to its end keeping only its last `limit` bytes (see [`Tail`]). Memory
/// stays about 2×limit; what is kept depends on the bytes only, not on the reads.
pub fn read_tail<R: Read>(reader: &mut R, limit: u64) -> std::io::Result<Tail> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX).max(1);
    let mut window = Window {
        buf: Vec::with_capacity(limit.min(1 << 20) * 2),
        dropped: 0,
        line_start: 0,
        skipped_lines: 0,
    };
    let mut chunk = vec![0u8; 256 << 10];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        window.buf.extend_from_slice(&chunk[..n]);
        if window.buf.len() > limit.saturating_mul(2).max(chunk.len()) {
            window.keep_last(limit);
        }
    }
    window.keep_last(limit);
    Ok(window.at_a_line_start())
}

/// The last bytes read so far and what was dropped before them.
struct Window {
    buf: Vec<u8>,
    /// Bytes dropped before `buf`.
    dropped: u64,
    /// Where the line that `buf` starts in starts (a stream offset ≤ `dropped`).
    line_start: u64,
    skipped_lines: usize,
}

impl Window {
    /// Drops all but the last `keep` bytes.
    fn keep_last(&mut self, keep: usize) {
        let Some(cut) = self.buf.len().checked_sub(keep).filter(|&c| c > 0) else {
            return;
        };
        let head = &self.buf[..cut];
        if let Some(i) = memchr::memrchr(b'\n', head) {
            self.line_start = self.dropped + i as u64 + 1;
        }
        self.skipped_lines += memchr::memchr_iter(b'\n', head).count();
        self.dropped += cut as u64;
        self.buf.drain(..cut);
    }

    /// The kept bytes from the first line start in them, unless that drops them all.
    fn at_a_line_start(mut self) -> Tail {
        let mut cut_bytes = self.dropped - self.line_start;
        if cut_bytes > 0
            && let Some(i) = memchr::memchr(b'\n', &self.buf)
            && i + 1 < self.buf.len()
        {
            self.buf.drain(..=i);
            self.skipped_lines += 1;
            cut_bytes = 0;
        }
        Tail {
            bytes: self.buf,
            skipped_lines: self.skipped_lines,
            cut_bytes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that gives at most `step` bytes a read.
    struct Steps<'a>(&'a [u8], usize);

    impl Read for Steps<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.len().min(self.1).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn whole_last_lines_are_kept_and_the_rest_counted() {
        let log: String = (1..=50_000).map(|i| format!("line {i}\n")).collect();
        let tail = read_tail(&mut log.as_bytes(), 1000).unwrap();
        let text = String::from_utf8(tail.bytes).unwrap();
        assert!(text.len() <= 1000 && text.ends_with("line 50000\n"));
        let first: usize = text.lines().next().unwrap()[5..].parse().unwrap();
        assert_eq!(first, tail.skipped_lines + 1);
        assert_eq!(tail.cut_bytes, 0);
        let all = read_tail(&mut "a\nb\n".as_bytes(), 1000).unwrap();
        assert_eq!(
            (all.bytes.as_slice(), all.skipped_lines),
            (&b"a\nb\n"[..], 0)
        );
    }

    /// A last line longer than the limit keeps its last bytes, as `tail -c` does, with
    /// or without its newline.
    #[test]
    fn a_last_line_longer_than_the_limit_keeps_its_end() {
        for end in ["", "\n"] {
            let log = format!("one\ntwo\n{}{end}", "x".repeat(5000) + "END");
            let tail = read_tail(&mut log.as_bytes(), 1000).unwrap();
            assert_eq!(tail.bytes, &log.as_bytes()[log.len() - 1000..]);
            assert_eq!(tail.skipped_lines, 2);
            assert_eq!(tail.cut_bytes, 5003 + end.len() as u64 - 1000);
        }
    }

    /// Whatever the sizes of the reads, the same bytes are kept.
    #[test]
    fn the_kept_tail_does_not_depend_on_the_reads() {
        let mut log = Vec::new();
        for i in 0..400 {
            log.extend(format!("line {i} ").repeat(i % 37).bytes());
            log.push(if i % 5 == 0 { b'\r' } else { b'\n' });
            log.extend(std::iter::repeat_n(0u8, i % 11));
        }
        for limit in [1u64, 7, 100, 999, 4096, 1 << 20] {
            let whole = read_tail(&mut log.as_slice(), limit).unwrap();
            for step in [1usize, 3, 512, 4099, 300_000] {
                let stepped = read_tail(&mut Steps(&log, step), limit).unwrap();
                assert_eq!(stepped, whole, "limit {limit}, reads of {step}");
            }
            assert!(log.ends_with(&whole.bytes));
        }
    }
}

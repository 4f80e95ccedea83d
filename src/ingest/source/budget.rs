//! The whole-archive budget: each member is bounded on its own (see
//! [`super::max_entry_bytes`], the zip bomb check), but many members each under those
//! bounds can still inflate to gigabytes. An archive read from a file or stdin may
//! inflate at most [`max_inflated_bytes`] in all, and, past the bomb floor, at most
//! [`max_inflated_ratio`] times the compressed bytes read so far (zeros compress about
//! 1000:1, real bundles' text 10-50:1). The member being read when either is passed is a
//! problem, and the rest of the archive is not read. Logs are read through, keeping only
//! a tail, so they cost no memory: they count towards the bytes but not the ratio (a log
//! of one line repeated, or of NULs after a crash, compresses as well as a bomb).
//!
//! Members that are neither parsed as they are inflated nor logs (the files a layout
//! reads only once every path is known: notes, metadata, text of unknown use) are held
//! in memory as bytes until then: at most [`max_held_bytes`] of them per archive. A
//! member that would pass that is a problem and is not inflated; the others are read.
//! (An archive of 20 such members of 200 MB each, at 150:1, held 4 GB before.)
//!
//! The same bounds hold across one input's whole walk: each archive of a folder (and the
//! archives inside it) counts into the input's budget too ([`Budget::within`]), so 40
//! archives each under the bomb floor do not inflate 40 times it between them. Once the
//! input's budget is spent, each archive after it is a problem at its first member.

use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// Inflated bytes an archive may hold in all: a must-gather of a large cluster is a few
/// GB; 16 GiB is far above that and still minutes, not hours, of reading.
pub const MAX_INFLATED_BYTES: u64 = 16 << 30;

pub fn max_inflated_bytes() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    super::env_limit(&LIMIT, "KDIAG_MAX_INFLATED_BYTES", MAX_INFLATED_BYTES)
}

/// How many times its compressed size an archive may inflate to, past the bomb floor.
pub const MAX_INFLATED_RATIO: u64 = 200;

pub fn max_inflated_ratio() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    super::env_limit(&LIMIT, "KDIAG_MAX_INFLATED_RATIO", MAX_INFLATED_RATIO).max(1)
}

/// Bytes of an archive's members held in memory unparsed (see the module's doc): a real
/// must-gather holds a few MB of them; its objects are parsed and its logs cut to a tail.
pub const MAX_HELD_BYTES: u64 = 512 << 20;

pub fn max_held_bytes() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    super::env_limit(&LIMIT, "KDIAG_MAX_HELD_BYTES", MAX_HELD_BYTES)
}

/// What one archive (with the archives inside it) has inflated, and what it was read from.
#[derive(Default)]
pub struct Budget {
    /// Bytes read out of archives and compressed streams (counted again at each nesting
    /// level: a tar.gz inside a zip counts its compressed bytes, then its content).
    inflated: AtomicU64,
    /// Of `inflated`, the bytes read through a log and dropped but for its tail.
    streamed: AtomicU64,
    /// Whether the bytes inflated now are a log's (see [`Budget::streaming`]).
    in_log: AtomicBool,
    /// Bytes of the archive itself read so far (from the file or stdin).
    packed: AtomicU64,
    /// Bytes of members held unparsed (see [`Budget::hold`]).
    held: AtomicU64,
    /// Why reading stopped, once it has: the problem of the member where it did.
    tripped: OnceLock<String>,
    /// The budget of the whole input this archive is part of (a folder's), which its
    /// bytes count into as well.
    walk: Option<Arc<Budget>>,
    /// Whether this is an input's budget (its messages say "the input's archives").
    is_walk: bool,
    /// Of an input's budget: the files of the walk so far, its folders' and its
    /// archives' members together (see [`Budget::take_file`]).
    files: AtomicU64,
}

impl Budget {
    /// A budget for an archive of which `packed` bytes are already read (held in memory).
    pub fn new(packed: u64) -> Budget {
        let budget = Budget::default();
        budget.add_packed(packed);
        budget
    }

    /// The budget of a whole input's walk: its archives' [`Budget::within`] it.
    pub fn for_walk() -> Arc<Budget> {
        Arc::new(Budget {
            is_walk: true,
            ..Budget::default()
        })
    }

    /// An archive's budget that counts into `walk` too, when given.
    pub fn within(walk: Option<&Arc<Budget>>) -> Budget {
        Budget {
            walk: walk.cloned(),
            ..Budget::default()
        }
    }

    /// Counts `n` files of the input's folders into its walk's files.
    pub fn add_files(&self, n: u64) {
        self.files.fetch_add(n, Ordering::Relaxed);
    }

    /// Counts one more archive member into the input's walk; `false` once the walk
    /// holds more than [`max_folder_files`](super::folder::max_folder_files) files in
    /// all: each archive's cap alone would let a folder of many archives each just
    /// under it hold millions of files between them.
    pub fn take_file(&self) -> bool {
        match &self.walk {
            Some(walk) => walk.take_file(),
            None if self.is_walk => {
                self.files.fetch_add(1, Ordering::Relaxed) < super::folder::max_folder_files()
            }
            None => true,
        }
    }

    /// Whether the input's walk has more files than it reads (see [`Budget::take_file`]).
    pub fn past_file_cap(&self) -> bool {
        match &self.walk {
            Some(walk) => walk.past_file_cap(),
            None => {
                self.is_walk
                    && self.files.load(Ordering::Relaxed) > super::folder::max_folder_files()
            }
        }
    }

    pub fn add_packed(&self, n: u64) {
        self.packed.fetch_add(n, Ordering::Relaxed);
        if let Some(walk) = &self.walk {
            walk.add_packed(n);
        }
    }

    /// Counts `n` more inflated bytes; the problem's message when that passes the budget.
    pub fn take(&self, n: u64) -> Result<(), String> {
        self.count(n, self.in_log.load(Ordering::Relaxed))
    }

    /// Counts `n` more inflated bytes of a log (see [`Budget::streaming`]).
    pub fn take_streamed(&self, n: u64) -> Result<(), String> {
        self.count(n, true)
    }

    /// Runs `read`, a log's read through to its tail, counting what it inflates as a log's.
    pub fn streaming<T>(&self, read: impl FnOnce() -> T) -> T {
        self.in_log.store(true, Ordering::Relaxed);
        let out = read();
        self.in_log.store(false, Ordering::Relaxed);
        out
    }

    fn count(&self, n: u64, log: bool) -> Result<(), String> {
        if let Some(why) = self.tripped() {
            return Err(why.to_string());
        }
        self.count_here(n, log)?;
        match &self.walk {
            Some(walk) => walk
                .count(n, log)
                .map_err(|why| self.tripped.get_or_init(|| why).clone()),
            None => Ok(()),
        }
    }

    fn count_here(&self, n: u64, log: bool) -> Result<(), String> {
        let whose = match self.is_walk {
            true => "the input's archives inflate",
            false => "the archive inflates",
        };
        let inflated = self.inflated.fetch_add(n, Ordering::Relaxed) + n;
        let streamed = if log {
            self.streamed.fetch_add(n, Ordering::Relaxed) + n
        } else {
            self.streamed.load(Ordering::Relaxed)
        };
        let kept = inflated.saturating_sub(streamed);
        let packed = self.packed.load(Ordering::Relaxed).max(1);
        let why = if inflated > max_inflated_bytes() {
            format!(
                "{whose} to more than {} in all here (KDIAG_MAX_INFLATED_BYTES)",
                super::size_text(max_inflated_bytes())
            )
        } else if !log && kept > super::bomb_min_bytes() && kept / packed > max_inflated_ratio() {
            format!(
                "{whose} {kept} bytes besides logs from {packed} ({}:1) by here, past \
                 {}:1 (KDIAG_MAX_INFLATED_RATIO; zip bomb?)",
                kept / packed,
                max_inflated_ratio()
            )
        } else {
            return Ok(());
        };
        let why = format!("{why}; this member and the rest of the archive are not read");
        Err(self.tripped.get_or_init(|| why).clone())
    }

    /// Counts a member of `n` bytes that will be held in memory unparsed; the problem's
    /// message, and nothing counted, when that would pass [`max_held_bytes`] (the member
    /// is then not read; smaller members after it still may be).
    pub fn hold(&self, n: u64) -> Result<(), String> {
        self.hold_here(n)?;
        if let Some(walk) = &self.walk
            && let Err(why) = walk.hold_here(n)
        {
            self.held.fetch_sub(n, Ordering::Relaxed);
            return Err(why);
        }
        Ok(())
    }

    fn hold_here(&self, n: u64) -> Result<(), String> {
        let limit = max_held_bytes();
        let whose = match self.is_walk {
            true => "the input's archives' members",
            false => "the archive's members",
        };
        let mut held = self.held.load(Ordering::Relaxed);
        loop {
            if held.saturating_add(n) > limit {
                return Err(format!(
                    "{whose} that are neither objects nor logs would hold \
                     more than {} in memory with this one of {n} bytes \
                     (KDIAG_MAX_HELD_BYTES); not read",
                    super::size_text(limit)
                ));
            }
            match self.held.compare_exchange_weak(
                held,
                held + n,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Ok(()),
                Err(now) => held = now,
            }
        }
    }

    /// Streams past a refused member's bytes to the next member. They are never kept, so
    /// they count as a log's do (towards the bytes, not the ratio): a member of zeros
    /// refused from its header is no reason to stop reading the members after it.
    pub fn skip<R: Read>(&self, member: &mut R) -> Result<(), String> {
        self.streaming(|| io::copy(member, &mut io::sink()))
            .map(drop)
            .map_err(|e| format!("cannot read archive member: {e}"))
    }

    /// The problem of the member where the budget ran out, once it has.
    pub fn tripped(&self) -> Option<&str> {
        self.tripped.get().map(String::as_str)
    }
}

/// A reader of inflated bytes that counts them against a [`Budget`] and fails once it
/// runs out.
pub struct Metered<'b, R> {
    pub inner: R,
    pub budget: &'b Budget,
}

impl<R: Read> Read for Metered<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.budget.take(n as u64).map_err(io::Error::other)?;
        Ok(n)
    }
}

/// A reader of an archive's own bytes (a file or stdin) that counts them as packed.
pub struct Packed<'b, R> {
    pub inner: R,
    pub budget: &'b Budget,
}

impl<R: Read> Read for Packed<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.budget.add_packed(n as u64);
        Ok(n)
    }
}

/// An archive's file members counted against its own cap (as many files as a folder walk
/// collects, [`max_folder_files`](super::folder::max_folder_files)) and the input's
/// ([`Budget::take_file`]): which are read, and the problem naming those that were not.
pub struct MemberCap<'b> {
    budget: &'b Budget,
    cap: u64,
    files: u64,
    not_read: u64,
    /// Whether the input's cap, not the archive's own, refused some member.
    refused_by_input: bool,
}

impl<'b> MemberCap<'b> {
    pub fn new(budget: &'b Budget) -> MemberCap<'b> {
        MemberCap {
            budget,
            cap: super::folder::max_folder_files(),
            files: 0,
            not_read: 0,
            refused_by_input: false,
        }
    }

    /// Whether the archive's next file member is read.
    pub fn take(&mut self) -> bool {
        self.files += 1;
        let own = self.files <= self.cap;
        let kept = own && self.budget.take_file();
        self.refused_by_input |= own && !kept;
        self.not_read += u64::from(!kept);
        kept
    }

    /// The problem when members were not read: past the archive's own cap, its first
    /// files all read; or past the input's, with the rest of the input's files (then its
    /// last ones were not read, whatever its own count).
    pub fn problem(&self) -> Option<String> {
        let (cap, n) = (self.cap, self.not_read);
        match (n, self.files > cap && !self.refused_by_input) {
            (0, _) => None,
            (_, true) => Some(format!(
                "the archive holds more than {cap} files (KDIAG_MAX_FILES); the {n} after them were not read"
            )),
            (_, false) => Some(format!(
                "with this archive's files the input holds more than {cap} files (KDIAG_MAX_FILES); its last {n} were not read"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_applies_past_the_floor_and_trips_once() {
        let floor = crate::ingest::source::bomb_min_bytes();
        let budget = Budget::new(floor / (max_inflated_ratio() * 4));
        // Under the floor any ratio is fine.
        assert!(budget.take(floor).is_ok());
        // Past it, more than the ratio to the packed bytes trips, and stays tripped.
        let why = budget.take(1).unwrap_err();
        assert!(why.contains("zip bomb?"), "{why}");
        assert_eq!(budget.take(0).unwrap_err(), why);
        assert_eq!(budget.tripped(), Some(why.as_str()));
        // Text at 20:1 past the floor reads.
        let text = Budget::new(floor);
        assert!(text.take(floor * 20).is_ok());
        // A log read through at any ratio reads, and does not count against the ratio of
        // what follows; it counts towards the bytes.
        let logs = Budget::new(floor / (max_inflated_ratio() * 4));
        assert!(logs.streaming(|| logs.take(floor * 2)).is_ok());
        assert!(logs.take_streamed(floor).is_ok());
        assert!(logs.take(floor / 2).is_ok());
        assert!(
            logs.take(floor).is_err(),
            "what is kept still trips the ratio"
        );
    }

    #[test]
    fn members_held_unparsed_stop_at_their_limit() {
        let budget = Budget::new(1);
        let limit = max_held_bytes();
        assert!(budget.hold(limit - 10).is_ok());
        let why = budget.hold(11).unwrap_err();
        assert!(why.contains("KDIAG_MAX_HELD_BYTES"), "{why}");
        assert!(budget.hold(10).is_ok(), "a member that still fits is read");
        assert!(
            budget.tripped().is_none(),
            "the rest of the archive is read"
        );
    }
}

//! Read buffers handed from one file to the next.
//!
//! A file is read into a buffer, scanned, and usually kept in a smaller copy without its
//! `managedFields` (see [`crate::parse::fast_yaml::compact`]); the buffer it was read into is then
//! free. Given back to the allocator, that memory goes back to the kernel within
//! milliseconds (see `tune_allocator` in `main.rs`), and the next file's buffer is fresh
//! memory again, faulted in a page at a time: page faults were about an eighth of the CPU
//! time at 100 MB. Buffers given back here go to the next large file instead, already
//! mapped (7–9 thousand fewer page faults of ~76 thousand at 100 MB).

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Files smaller than this are read into a buffer of their own: the allocator reuses
/// small blocks well, and a large spare should not go to a small file.
const MIN_POOLED: usize = 64 << 10;

/// Spare buffers, the largest kept.
struct Spare(Mutex<Vec<Vec<u8>>>);

/// The buffers of this process's reads.
static SPARE: Spare = Spare(Mutex::new(Vec::new()));

/// An empty buffer for `len` bytes (see [`Spare::for_len`]).
pub fn for_len(len: usize) -> Vec<u8> {
    SPARE.for_len(len)
}

/// Gives a buffer no longer needed to the next file.
pub fn give_back(buf: Vec<u8>) {
    SPARE.give_back(buf);
}

/// The text to keep of a file read as `text`: `compacted` (a copy without what is not
/// kept) when there is one, the buffer then given back; else `text` (see [`Spare::keep`]).
pub fn kept(text: String, compacted: Option<String>) -> String {
    match compacted {
        Some(kept) => {
            SPARE.give_back(text.into_bytes());
            kept
        }
        None => SPARE.keep(text),
    }
}

/// Frees the spare buffers once every file is read.
pub fn release() {
    *SPARE.lock() = Vec::new();
}

/// Spare buffers kept at most: one per thread parsing and one for the thread reading a
/// tar. More held more memory (a tar.gz of 144 MB: peak RSS 229 → 267 MiB with eight)
/// and saved no more page faults.
fn max_spare() -> usize {
    rayon::current_num_threads() + 1
}

impl Spare {
    fn lock(&self) -> MutexGuard<'_, Vec<Vec<u8>>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A spare buffer that holds `len` bytes without being more than twice as large
    /// (emptied), else a new one of exactly `len`.
    fn for_len(&self, len: usize) -> Vec<u8> {
        if len >= MIN_POOLED {
            let mut spare = self.lock();
            let best = (0..spare.len())
                .filter(|&i| (len..=len.saturating_mul(2)).contains(&spare[i].capacity()))
                .min_by_key(|&i| spare[i].capacity());
            if let Some(i) = best {
                let mut buf = spare.swap_remove(i);
                buf.clear();
                return buf;
            }
        }
        Vec::with_capacity(len)
    }

    /// Keeps `buf` for a later file, dropping the smallest spare beyond [`max_spare`].
    fn give_back(&self, buf: Vec<u8>) {
        if buf.capacity() < MIN_POOLED {
            return;
        }
        let mut spare = self.lock();
        spare.push(buf);
        if spare.len() > max_spare()
            && let Some(smallest) = (0..spare.len()).min_by_key(|&i| spare[i].capacity())
        {
            spare.swap_remove(smallest);
        }
    }

    /// `text` in its own buffer when that is not much larger than the text (a spare
    /// buffer may be up to twice as large), else copied into one of its size and the
    /// buffer given back.
    fn keep(&self, text: String) -> String {
        if text.capacity() - text.len() <= text.len() / 8 {
            return text;
        }
        let kept = text.as_str().to_owned();
        self.give_back(text.into_bytes());
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_reused_within_bounds() {
        // A pool of its own: tests that load bundles use (and release) the process's.
        let pool = Spare(Mutex::new(Vec::new()));
        let big = 1 << 20;
        let mut a = pool.for_len(big);
        a.extend_from_slice(b"old");
        let a_ptr = a.as_ptr();
        pool.give_back(a);
        // A file of similar size gets the spare buffer, emptied.
        let b = pool.for_len(big - 100);
        assert_eq!(b.as_ptr(), a_ptr);
        assert!(b.is_empty());
        pool.give_back(b);
        // A much smaller file does not: it would hold the large buffer for the run.
        let c = pool.for_len(big / 4);
        assert_ne!(c.as_ptr(), a_ptr);
        assert_eq!(c.capacity(), big / 4);
        // Small buffers are never kept.
        pool.give_back(Vec::with_capacity(100));
        assert!(pool.lock().iter().all(|b| b.capacity() >= MIN_POOLED));
        // Kept text is copied out of a buffer much larger than it, and the buffer reused.
        let mut text = String::from_utf8(pool.for_len(big - 100)).unwrap();
        text.push_str("kind: Pod\n");
        let kept = pool.keep(text);
        assert_eq!(kept, "kind: Pod\n");
        assert!(kept.capacity() < 64);
        let again = pool.for_len(big);
        assert_eq!(again.as_ptr(), a_ptr);
        // A buffer the text nearly fills is kept as it is.
        let mut full = String::with_capacity(big);
        full.push_str(&"x".repeat(big - 10));
        let ptr = full.as_ptr();
        let kept = pool.keep(full);
        assert_eq!(kept.as_ptr(), ptr);
        // At most max_spare() buffers, the largest.
        *pool.lock() = Vec::new();
        for i in 0..max_spare() + 3 {
            pool.give_back(Vec::with_capacity(MIN_POOLED + i));
        }
        let caps: Vec<usize> = pool.lock().iter().map(Vec::capacity).collect();
        assert_eq!(caps.len(), max_spare());
        assert!(caps.iter().all(|&c| c >= MIN_POOLED + 3));
    }
}

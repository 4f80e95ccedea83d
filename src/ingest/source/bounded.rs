//! Reads bounded by the entry limit: a member or stdin read whole into a buffer that
//! never grows past the limit, a file refused by its size.

use super::{max_entry_bytes, read_head};
use std::io::Read;
use std::path::Path;

/// Reads a member whole, at most the entry limit. Its buffer never grows past the limit
/// (plus one byte, to know it is passed), and `size_hint` (what the archive says; a
/// tar's is exact, a zip's bounds what the zip crate inflates) is reserved up front.
pub(super) fn read_limited<R: Read + ?Sized>(
    reader: &mut R,
    size_hint: u64,
) -> Result<Vec<u8>, String> {
    match read_capped(reader, size_hint) {
        Ok(Some(data)) => Ok(data),
        Ok(None) => Err(format!(
            "member inflates to more than {}; not read (zip bomb?)",
            limit_text()
        )),
        Err(e) => Err(format!("cannot read archive member: {e}")),
    }
}

/// [`read_limited`]'s read: `None` when there is more than the entry limit. The buffer
/// grows by doubling up to the limit and no further: the byte that passes the limit is
/// found by a small probe, not by a reallocation (which copies, holding the limit twice).
pub(super) fn read_capped<R: Read + ?Sized>(
    reader: &mut R,
    size_hint: u64,
) -> std::io::Result<Option<Vec<u8>>> {
    let max = max_entry_bytes();
    let mut data = crate::ingest::buffers::for_len(size_hint.min(max) as usize);
    let mut reader = reader.take(max + 1);
    loop {
        if data.len() == data.capacity() {
            // Full (often exactly, at the size the archive said): grow only if there is more.
            let mut probe = [0u8; 64];
            let n = read_head(&mut reader, &mut probe)?;
            if n == 0 {
                break;
            }
            if (data.len() + n) as u64 > max {
                return Ok(None);
            }
            let grow = data.capacity().max(64 << 10).min(max as usize - data.len());
            data.reserve_exact(grow.max(n));
            data.extend_from_slice(&probe[..n]);
        }
        let room = (data.capacity() - data.len()) as u64;
        let n = (&mut reader).take(room).read_to_end(&mut data)?;
        if n == 0 {
            break;
        }
    }
    Ok((data.len() as u64 <= max).then_some(data))
}

/// The entry size limit, said for people.
pub(super) fn limit_text() -> String {
    size_text(max_entry_bytes())
}

/// A size in MiB or GiB when it is a whole number of them, else in bytes.
pub(super) fn size_text(bytes: u64) -> String {
    if bytes > 1 << 30 && bytes.is_multiple_of(1 << 30) {
        format!("{} GiB", bytes >> 30)
    } else if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

pub(super) fn read_bounded(path: &Path) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len > max_entry_bytes() {
        return Err(std::io::Error::other(format!(
            "file is larger than {}; not read",
            limit_text()
        )));
    }
    let mut data = crate::ingest::buffers::for_len(len as usize);
    file.take(max_entry_bytes()).read_to_end(&mut data)?;
    Ok(data)
}

//! Sparse tar members in the pax formats GNU tar writes (`tar -S --format=posix`,
//! sparse versions 0.0, 0.1 and 1.0): the header names a placeholder
//! (`GNUSparseFile.NNN/name`) and the data holds only the written parts of the file.
//! They are read under their real name and expanded, holes as NULs. (GNU's own sparse
//! type `S`, `tar -S`'s default, the tar crate expands.)

use std::io::{self, Read};

/// The pax keys of a sparse member (GNU tar's "Storing Sparse Files").
const NAME: &str = "GNU.sparse.name";
const MAJOR: &str = "GNU.sparse.major";
const MINOR: &str = "GNU.sparse.minor";
const REAL_SIZE: &str = "GNU.sparse.realsize";
const SIZE: &str = "GNU.sparse.size";
const MAP: &str = "GNU.sparse.map";
const OFFSET: &str = "GNU.sparse.offset";
const NUM_BYTES: &str = "GNU.sparse.numbytes";

/// Most parts a sparse map may list: a 4 GiB file (the entry limit) of 4 KiB parts.
const MAX_PARTS: usize = 1 << 20;

/// A pax sparse member: its real name (when the pax header gives one), its expanded size
/// and where its map is.
pub struct Sparse {
    pub name: Option<String>,
    pub size: u64,
    /// The parts (offset, length) when the pax header lists them (0.0 and 0.1); `None`
    /// when they open the member's data (1.0).
    parts: Option<Vec<(u64, u64)>>,
}

/// The sparse description in a member's pax header, if any; an error when one is there
/// but unreadable (the member is then a problem under `name`, if the header gave one).
pub fn of_pax<R: Read>(
    entry: &mut tar::Entry<'_, R>,
) -> Result<Option<Sparse>, (Option<String>, String)> {
    let Ok(Some(pax)) = entry.pax_extensions() else {
        return Ok(None);
    };
    let mut fields: Vec<(String, String)> = Vec::new();
    for field in pax.flatten() {
        let (Ok(key), Ok(value)) = (field.key(), field.value()) else {
            continue;
        };
        if key.starts_with("GNU.sparse.") {
            fields.push((key.to_string(), value.to_string()));
        }
    }
    if fields.is_empty() {
        return Ok(None);
    }
    let get = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let name = get(NAME).map(str::to_string);
    let bad = |why: String| Err((name.clone(), format!("sparse tar member: {why}; not read")));
    let number = |key: &str| -> Result<u64, String> {
        let value = get(key).ok_or_else(|| format!("no {key}"))?;
        value
            .trim()
            .parse()
            .map_err(|_| format!("{key}={value:?} is not a number"))
    };
    let version = (get(MAJOR), get(MINOR));
    let (size, parts) = match version {
        (Some("1"), Some("0")) => match number(REAL_SIZE) {
            Ok(size) => (size, None),
            Err(e) => return bad(e),
        },
        (Some(major), minor) => {
            return bad(format!(
                "GNU sparse format {major}.{} is not one kdiag reads (0.0, 0.1, 1.0)",
                minor.unwrap_or("?")
            ));
        }
        (None, _) => {
            let size = match number(SIZE) {
                Ok(size) => size,
                Err(e) => return bad(e),
            };
            let numbers: Vec<&str> = match get(MAP) {
                Some(map) => map.split(',').collect(),
                None => fields
                    .iter()
                    .filter(|(k, _)| k == OFFSET || k == NUM_BYTES)
                    .map(|(_, v)| v.as_str())
                    .collect(),
            };
            match pairs(&numbers) {
                Ok(parts) => (size, Some(parts)),
                Err(e) => return bad(e),
            }
        }
    };
    Ok(Some(Sparse { name, size, parts }))
}

/// A member name as text (a name not UTF-8 is read lossily).
pub fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// (offset, length) pairs from decimal numbers.
fn pairs(numbers: &[&str]) -> Result<Vec<(u64, u64)>, String> {
    if !numbers.len().is_multiple_of(2) || numbers.len() / 2 > MAX_PARTS {
        return Err(format!("a map of {} numbers", numbers.len()));
    }
    numbers
        .chunks(2)
        .map(|pair| {
            let n = |s: &str| {
                s.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("map entry {s:?} is not a number"))
            };
            Ok((n(pair[0])?, n(pair[1])?))
        })
        .collect()
}

impl Sparse {
    /// The expanded content of a member whose stored data is `data` (`stored` bytes): the
    /// map read from its start first (1.0), then checked against the sizes.
    pub fn expand<R: Read>(self, mut data: R, stored: u64) -> Result<Expanded<R>, String> {
        let (parts, map_bytes) = match self.parts {
            Some(parts) => (parts, 0),
            None => read_map(&mut data).map_err(|e| format!("sparse tar member: {e}; not read"))?,
        };
        let mut end = 0u64;
        let mut total = 0u64;
        for &(offset, len) in &parts {
            let next = offset.checked_add(len);
            if offset < end || next.is_none_or(|n| n > self.size) {
                return Err(format!(
                    "sparse tar member: its map's parts overlap or pass its size ({}); not read",
                    self.size
                ));
            }
            end = next.unwrap_or(end);
            total += len;
        }
        if total + map_bytes != stored {
            return Err(format!(
                "sparse tar member: its map lists {total} bytes, its data holds {}; not read",
                stored.saturating_sub(map_bytes)
            ));
        }
        Ok(Expanded {
            data,
            parts,
            next: 0,
            pos: 0,
            size: self.size,
        })
    }
}

/// A 1.0 map at the start of the data: the number of parts, then each part's offset and
/// length, one decimal number a line, padded with NULs to a 512-byte block. Returns the
/// parts and the bytes the map took.
fn read_map<R: Read>(data: &mut R) -> Result<(Vec<(u64, u64)>, u64), String> {
    let mut read = 0u64;
    let mut line = |data: &mut R| -> Result<u64, String> {
        let mut digits = Vec::new();
        let mut byte = [0u8; 1];
        loop {
            data.read_exact(&mut byte)
                .map_err(|_| "its map is cut short".to_string())?;
            read += 1;
            match byte[0] {
                b'\n' => break,
                b @ b'0'..=b'9' if digits.len() < 20 => digits.push(b),
                _ => return Err("its map is not decimal numbers, one a line".into()),
            }
        }
        std::str::from_utf8(&digits)
            .ok()
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| "its map holds an empty or too large number".to_string())
    };
    let count = line(data)?;
    if count > MAX_PARTS as u64 {
        return Err(format!("its map lists {count} parts"));
    }
    let mut parts = Vec::with_capacity(count as usize);
    for _ in 0..count {
        parts.push((line(data)?, line(data)?));
    }
    let padded = read.div_ceil(512) * 512;
    io::copy(&mut data.take(padded - read), &mut io::sink())
        .map_err(|e| format!("its map is cut short: {e}"))?;
    Ok((parts, padded))
}

/// A sparse member's content: its parts at their offsets, NULs between and after them.
pub struct Expanded<R> {
    data: R,
    parts: Vec<(u64, u64)>,
    /// The part being read or the next one.
    next: usize,
    pos: u64,
    size: u64,
}

impl<R: Read> Read for Expanded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while let Some(&(offset, len)) = self.parts.get(self.next)
            && self.pos >= offset + len
        {
            self.next += 1;
        }
        let (pos, cap) = (self.pos, buf.len() as u64);
        let room = |until: u64| (until - pos).min(cap) as usize;
        let n = match self.parts.get(self.next) {
            Some(&(offset, _)) if self.pos < offset => {
                let n = room(offset);
                buf[..n].fill(0);
                n
            }
            Some(&(offset, len)) => {
                let n = self.data.read(&mut buf[..room(offset + len)])?;
                if n == 0 {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "sparse member cut short",
                    ));
                }
                n
            }
            None if self.pos < self.size => {
                let n = room(self.size);
                buf[..n].fill(0);
                n
            }
            None => 0,
        };
        self.pos += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_placed_at_their_offsets() {
        let sparse = Sparse {
            name: None,
            size: 12,
            parts: Some(vec![(2, 3), (8, 2)]),
        };
        let mut out = Vec::new();
        sparse
            .expand(&b"abcde"[..], 5)
            .unwrap()
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, b"\0\0abc\0\0\0de\0\0");
    }

    #[test]
    fn a_map_in_the_data_is_read_and_checked() {
        let mut data = b"2\n0\n3\n10\n1\n".to_vec();
        data.resize(512, 0);
        data.extend(b"xyzw");
        let sparse = || Sparse {
            name: None,
            size: 11,
            parts: None,
        };
        let mut out = Vec::new();
        sparse()
            .expand(data.as_slice(), 516)
            .unwrap()
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, b"xyz\0\0\0\0\0\0\0w");
        assert!(sparse().expand(data.as_slice(), 600).is_err());
        assert!(sparse().expand(&b"2\n0\nx"[..], 5).is_err());
    }
}

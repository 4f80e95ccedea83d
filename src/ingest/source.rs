//! Inputs → entries: (virtual path, bytes) for every file in a folder, archive or
//! stream. Archives are read in memory and never extracted; archives inside archives are
//! opened up to [`MAX_NESTING`] levels, their entries named `outer!/inner/path`.

mod formats;

use super::content::FileRead;
use rayon::prelude::*;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

/// How deep archives inside archives are opened.
pub const MAX_NESTING: usize = 3;
/// Largest single entry we read or inflate by default; beyond it the entry is a problem.
pub const MAX_ENTRY_BYTES: u64 = 1 << 30;

/// The entry size limit: [`MAX_ENTRY_BYTES`], or `KDIAG_MAX_ENTRY_BYTES` when set (tests
/// use it to exercise the limit without gigabytes of data), at most 4 GiB − 1 so that
/// line offsets fit in 32 bits.
pub fn max_entry_bytes() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    env_limit(&LIMIT, "KDIAG_MAX_ENTRY_BYTES", MAX_ENTRY_BYTES).min(u64::from(u32::MAX))
}

/// A size limit from the environment variable `var`, else `default`; read once.
fn env_limit(cell: &OnceLock<u64>, var: &str, default: u64) -> u64 {
    *cell.get_or_init(|| {
        std::env::var(var)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    })
}

/// Where an entry's bytes are: read already, or a file read when parsed (folders).
pub enum EntryData {
    Bytes(Vec<u8>),
    File(PathBuf),
    /// The end of an archived log: its last [`log_tail_bytes`] bytes, from the start of a
    /// line, after `skipped_lines` lines that were read through and dropped.
    LogTail {
        bytes: Vec<u8>,
        skipped_lines: usize,
    },
    /// Read already: an archive member parsed as it was inflated (see [`ParseMember`]).
    Read(Box<FileRead>),
}

/// Parses an archive member's bytes as soon as they are inflated, while the next member
/// inflates (a tar.gz is one deflate stream, read on one thread) or beside the other
/// members (a zip's). Given the member's path, it returns the entry's data: parsed, or the
/// bytes as they were when the member is not one to parse before the layout is known.
pub type ParseMember = dyn Fn(&str, Vec<u8>) -> EntryData + Sync;

/// How much of a log is kept: its last 8 MiB by default, or `KDIAG_LOG_TAIL_BYTES`.
/// Logs are read through, never refused for size: must-gathers hold 1 GB+ logs.
pub const LOG_TAIL_BYTES: u64 = 8 << 20;

pub fn log_tail_bytes() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    env_limit(&LIMIT, "KDIAG_LOG_TAIL_BYTES", LOG_TAIL_BYTES).max(1)
}

/// Container logs in every bundle layout end in `.log`; they are kept as a tail.
pub fn is_log_name(path: &str) -> bool {
    path.ends_with(".log")
}

/// Reads `reader` to its end keeping only the last `limit` bytes (cut at a line start);
/// returns them and how many lines were dropped before them. Memory stays about 2×limit.
pub fn read_tail<R: Read>(reader: &mut R, limit: u64) -> std::io::Result<(Vec<u8>, usize)> {
    let limit = limit as usize;
    let mut buf: Vec<u8> = Vec::with_capacity(limit.min(1 << 20) * 2);
    let mut skipped = 0usize;
    let mut chunk = vec![0u8; 256 << 10];
    loop {
        let n = reader.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        if buf.len() > limit.saturating_mul(2).max(chunk.len()) {
            drop_head(&mut buf, limit, &mut skipped);
        }
    }
    if buf.len() > limit {
        drop_head(&mut buf, limit, &mut skipped);
    }
    Ok((buf, skipped))
}

/// Drops all but about the last `keep` bytes of `buf`, at a line boundary.
fn drop_head(buf: &mut Vec<u8>, keep: usize, skipped: &mut usize) {
    let cut = buf.len() - keep;
    let cut = memchr::memchr(b'\n', &buf[cut..]).map_or(buf.len(), |i| cut + i + 1);
    *skipped += memchr::memchr_iter(b'\n', &buf[..cut]).count();
    buf.drain(..cut);
}

pub struct Entry {
    /// Path relative to the input (`a/b.yaml`, `case.zip!/must-gather/…`).
    pub path: String,
    pub data: EntryData,
}

impl Entry {
    /// The content, when it was parsed as its archive was read (moved out of the entry).
    pub fn take_read(&mut self) -> Option<FileRead> {
        let EntryData::Read(read) = &mut self.data else {
            return None;
        };
        Some(std::mem::replace(read.as_mut(), FileRead::Unparsed))
    }

    /// The entry's bytes, reading the file now for folder inputs.
    /// The content, moved out of the entry when it is held in memory (an archive member):
    /// its bytes are freed as soon as the file is read, not when the whole bundle is.
    pub fn take(&mut self) -> std::io::Result<Vec<u8>> {
        match &mut self.data {
            EntryData::Bytes(b) | EntryData::LogTail { bytes: b, .. } => Ok(std::mem::take(b)),
            EntryData::File(p) => read_bounded(p),
            EntryData::Read(_) => Err(parsed_already()),
        }
    }

    pub fn read(&self) -> std::io::Result<std::borrow::Cow<'_, [u8]>> {
        match &self.data {
            EntryData::Bytes(b) | EntryData::LogTail { bytes: b, .. } => {
                Ok(std::borrow::Cow::Borrowed(b))
            }
            EntryData::File(p) => read_bounded(p).map(std::borrow::Cow::Owned),
            EntryData::Read(_) => Err(parsed_already()),
        }
    }
}

/// Why an entry parsed as its archive was read has no bytes to give (nothing asks: a
/// parsed entry is taken with [`Entry::take_read`], and logs are never parsed early).
pub fn parsed_already() -> std::io::Error {
    std::io::Error::other("the member was parsed as its archive was read; its bytes are gone")
}

/// A file or archive member that could not be read.
pub struct SourceProblem {
    pub path: String,
    pub message: String,
}

#[derive(Default)]
pub struct Collected {
    pub entries: Vec<Entry>,
    pub problems: Vec<SourceProblem>,
    /// Symlinks are never followed (bundles link logs twice; links can escape the bundle).
    pub symlinks: usize,
}

pub use formats::Format;

/// Collects the entries of one input path (folder, archive or plain file). Archive
/// members are handed to `parse` as they are read, when given; else kept as bytes.
pub fn collect_path(path: &Path, parse: Option<&ParseMember>) -> std::io::Result<Collected> {
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return Ok(collect_dir(path, parse));
    }
    if let Some(kind) = special_kind(&meta.file_type()) {
        return Err(not_regular(kind));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut head = [0u8; 512];
    let n = read_head(&mut std::fs::File::open(path)?, &mut head)?;
    let mut out = Collected::default();
    if formats::sniff(&head[..n]).is_some() {
        open(&name, read_bounded(path)?, true, 1, parse, &mut out);
    } else {
        push_entry(
            name,
            EntryData::File(path.to_path_buf()),
            0,
            parse,
            &mut out,
        );
    }
    Ok(out)
}

/// What a path is when it is neither a folder nor a regular file (a FIFO, a device, a
/// socket): reading one blocks or never ends, so kdiag refuses it before opening it.
pub fn special_kind(ft: &std::fs::FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if ft.is_char_device() {
            return Some("a character device");
        }
        if ft.is_block_device() {
            return Some("a block device");
        }
        if ft.is_socket() {
            return Some("a socket");
        }
    }
    (!ft.is_file() && !ft.is_dir() && !ft.is_symlink()).then_some("not a regular file")
}

/// The error for a path [`special_kind`] names.
pub fn not_regular(kind: &str) -> std::io::Error {
    std::io::Error::other(format!("is {kind}, not a regular file; not read"))
}

/// Reads up to `head.len()` bytes (fewer only at the end of the stream).
fn read_head<R: Read>(reader: &mut R, head: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < head.len() {
        match reader.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Collects stdin as one entry (or an archive's entries, when it is one).
pub fn collect_stdin(parse: Option<&ParseMember>) -> std::io::Result<Collected> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(max_entry_bytes() + 1)
        .read_to_end(&mut bytes)?;
    // Named like a YAML file so it is parsed whatever its first line (JSON is detected too).
    Ok(collect_bytes("stdin.yaml", bytes, parse))
}

/// Collects the entries of an archive (or a plain file) held in memory, as if it were
/// an input named `name` (used by the archive fuzz target and by stdin).
pub fn collect_bytes(name: &str, bytes: Vec<u8>, parse: Option<&ParseMember>) -> Collected {
    let mut out = Collected::default();
    if formats::sniff(&bytes).is_some() {
        open(name, bytes, true, 1, parse, &mut out);
    } else {
        push_entry(
            name.to_string(),
            EntryData::Bytes(bytes),
            0,
            parse,
            &mut out,
        );
    }
    out
}

fn collect_dir(root: &Path, parse: Option<&ParseMember>) -> Collected {
    let mut out = Collected::default();
    let walker = walkdir::WalkDir::new(root)
        .follow_links(false)
        .sort_by_file_name();
    for item in walker {
        let item = match item {
            Ok(i) => i,
            Err(e) => {
                let path = e
                    .path()
                    .and_then(|p| p.strip_prefix(root).ok())
                    .map(|p| p.to_string_lossy().into_owned())
                    .unwrap_or_default();
                out.problems.push(SourceProblem {
                    path,
                    message: format!("cannot read: {e}"),
                });
                continue;
            }
        };
        let ft = item.file_type();
        if ft.is_symlink() {
            out.symlinks += 1;
            continue;
        }
        let rel = item
            .path()
            .strip_prefix(root)
            .unwrap_or(item.path())
            .to_string_lossy()
            .replace('\\', "/");
        if let Some(kind) = special_kind(&ft) {
            out.problems.push(SourceProblem {
                path: rel,
                message: not_regular(kind).to_string(),
            });
            continue;
        }
        if !ft.is_file() {
            continue;
        }
        push_entry(
            rel,
            EntryData::File(item.path().to_path_buf()),
            0,
            parse,
            &mut out,
        );
    }
    // Files named like archives are opened here, in parallel, by what they hold.
    let (archives, plain): (Vec<Entry>, Vec<Entry>) = std::mem::take(&mut out.entries)
        .into_iter()
        .partition(|e| formats::has_archive_name(&e.path) && !formats::is_compressed_log(&e.path));
    out.entries = plain;
    let opened: Vec<Collected> = archives
        .into_par_iter()
        .map(|e| {
            let mut sub = Collected::default();
            match e.read() {
                Ok(bytes) if formats::sniff(&bytes).is_some() => {
                    open(&e.path, bytes.into_owned(), false, 1, parse, &mut sub)
                }
                Ok(_) => sub.entries.push(e),
                Err(err) => sub.problems.push(SourceProblem {
                    path: e.path.clone(),
                    message: format!("cannot read: {err}"),
                }),
            }
            sub
        })
        .collect();
    for sub in opened {
        merge(&mut out, sub);
    }
    out
}

fn merge(into: &mut Collected, from: Collected) {
    into.entries.extend(from.entries);
    into.problems.extend(from.problems);
    into.symlinks += from.symlinks;
}

/// Whether a member's bytes are an archive or compressed file to open rather than a file.
fn opens(path: &str, bytes: &[u8]) -> bool {
    formats::sniff(bytes).is_some() && !formats::is_compressed_log(path)
}

/// Adds an entry, opening it first when it is itself an archive.
fn push_entry(
    path: String,
    data: EntryData,
    depth: usize,
    parse: Option<&ParseMember>,
    out: &mut Collected,
) {
    if let EntryData::Bytes(bytes) = &data
        && opens(&path, bytes)
    {
        let EntryData::Bytes(bytes) = data else {
            return;
        };
        open(&path, bytes, false, depth + 1, parse, out);
        return;
    }
    out.entries.push(Entry { path, data });
}

/// Opens `bytes`, found at `path`, by what they hold: an archive's members are read
/// (named `path!/member`, or `member` for a `top`-level input), a compressed file is
/// its content. `depth` is how many archives deep it is.
fn open(
    path: &str,
    bytes: Vec<u8>,
    top: bool,
    depth: usize,
    parse: Option<&ParseMember>,
    out: &mut Collected,
) {
    if depth > MAX_NESTING {
        out.problems.push(SourceProblem {
            path: path.to_string(),
            message: format!("archive nested more than {MAX_NESTING} levels deep; not opened"),
        });
        return;
    }
    let prefix = if top {
        String::new()
    } else {
        format!("{path}!/")
    };
    let result = match formats::sniff(&bytes) {
        None => {
            out.entries.push(Entry {
                path: path.to_string(),
                data: EntryData::Bytes(bytes),
            });
            Ok(())
        }
        Some(Format::Zip) => expand_zip(&bytes, &prefix, depth, parse, out),
        Some(Format::Tar) => expand_tar(Cursor::new(&bytes[..]), &prefix, depth, parse, out),
        Some(Format::Unsupported(name)) => Err(format!(
            "{name} archive or compressed file; kdiag reads zip, tar, gzip, bzip2, xz and zstd; not read"
        )),
        Some(format) => decompress(format, path, &bytes, &prefix, top, depth, parse, out),
    };
    if let Err(message) = result {
        out.problems.push(SourceProblem {
            path: path.to_string(),
            message,
        });
    }
}

/// A compressed stream: a tar in it is read as it decompresses (one archive, like
/// `.tar.gz`); anything else is one file named without the compression's ending, which
/// is opened in turn when it is an archive or compressed again.
#[allow(clippy::too_many_arguments)]
fn decompress(
    format: Format,
    path: &str,
    bytes: &[u8],
    prefix: &str,
    top: bool,
    depth: usize,
    parse: Option<&ParseMember>,
    out: &mut Collected,
) -> Result<(), String> {
    let invalid = |e: std::io::Error| format!("invalid {} data: {e}", format.name());
    let mut decoder = formats::decoder(format, bytes).map_err(invalid)?;
    let mut head = vec![0u8; 512];
    let n = read_head(&mut decoder, &mut head).map_err(invalid)?;
    head.truncate(n);
    let inner = formats::sniff(&head);
    let mut content = Cursor::new(head).chain(decoder);
    if inner == Some(Format::Tar) {
        return expand_tar(content, prefix, depth, parse, out)
            .map_err(|e| format!("{} data: {e}", format.name()));
    }
    let name = formats::inner_name(path);
    if is_log_name(&name) {
        let data = log_tail(&mut content).map_err(|e| format!("{} data: {e}", format.name()))?;
        out.entries.push(Entry { path: name, data });
        return Ok(());
    }
    let data = read_limited(&mut content, bytes.len() as u64 * 4)
        .map_err(|e| format!("{} data: {e}", format.name()))?;
    match inner {
        // Compressed again, or a zip: one level deeper, so that a stream that decompresses
        // to itself stops at the nesting bound.
        Some(_) => open(&name, data, top, depth + 1, parse, out),
        None => out.entries.push(Entry {
            path: name.clone(),
            data: member_data(&name, data, parse),
        }),
    }
    Ok(())
}

/// One zip member after reading.
enum Member {
    File(Entry),
    Symlink,
    Skipped,
}

/// Members that declare more than this and compress better than [`BOMB_RATIO`]:1 are
/// refused before inflating (text bundles compress about 10-50:1; bombs 1000:1). The
/// floor is `KDIAG_BOMB_MIN_BYTES` when set, so tests trip it with small inputs.
const BOMB_MIN_BYTES: u64 = 256 << 20;

fn bomb_min_bytes() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    env_limit(&LIMIT, "KDIAG_BOMB_MIN_BYTES", BOMB_MIN_BYTES)
}
const BOMB_RATIO: u64 = 200;

fn expand_zip(
    bytes: &[u8],
    prefix: &str,
    depth: usize,
    parse: Option<&ParseMember>,
    out: &mut Collected,
) -> Result<(), String> {
    let archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| format!("unreadable zip archive: {e}"))?;
    // Members are inflated (and parsed) in parallel; each thread works on its own clone of
    // the archive.
    let members: Vec<Result<Member, SourceProblem>> = (0..archive.len())
        .into_par_iter()
        .map_with(archive, |archive, i| {
            let mut file = archive.by_index(i).map_err(|e| SourceProblem {
                path: format!("{prefix}#{i}"),
                message: format!("unreadable zip member: {e}"),
            })?;
            let raw_name = String::from_utf8_lossy(file.name_raw()).into_owned();
            let name = match safe_name(&raw_name) {
                Ok(n) => n,
                Err(message) => {
                    return Err(SourceProblem {
                        path: format!("{prefix}{}", raw_name.replace('\0', "\\0")),
                        message,
                    });
                }
            };
            if file.is_dir() {
                return Ok(Member::Skipped);
            }
            if file.is_symlink() {
                return Ok(Member::Symlink);
            }
            let path = format!("{prefix}{name}");
            let size = file.size();
            let packed = file.compressed_size().max(1);
            if size > bomb_min_bytes() && size / packed > BOMB_RATIO {
                return Err(SourceProblem {
                    path,
                    message: format!(
                        "member would inflate {size} bytes from {packed} ({}:1); not read (zip bomb?)",
                        size / packed
                    ),
                });
            }
            let data = if is_log_name(&path) {
                log_tail(&mut file)
            } else {
                read_limited(&mut file, size).map(|bytes| member_data(&path, bytes, parse))
            }
            .map_err(|message| SourceProblem {
                path: path.clone(),
                message,
            })?;
            Ok(Member::File(Entry { path, data }))
        })
        .collect();
    for m in members {
        match m {
            Ok(Member::File(e)) => push_entry(e.path, e.data, depth, parse, out),
            Ok(Member::Symlink) => out.symlinks += 1,
            Ok(Member::Skipped) => {}
            Err(p) => out.problems.push(p),
        }
    }
    Ok(())
}

fn expand_tar<R: Read>(
    reader: R,
    prefix: &str,
    depth: usize,
    parse: Option<&ParseMember>,
    out: &mut Collected,
) -> Result<(), String> {
    // Members to parse go to the thread pool as they are read, while this thread inflates
    // the next; each parsed member lands in the entry slot kept for it.
    let parsed: Mutex<Vec<(usize, EntryData)>> = Mutex::new(Vec::new());
    let result = rayon::in_place_scope(|scope| {
        let mut archive = tar::Archive::new(reader);
        let entries = archive
            .entries()
            .map_err(|e| format!("unreadable tar archive: {e}"))?;
        for entry in entries {
            let mut entry = match entry {
                Ok(e) => e,
                Err(e) => return Err(format!("tar archive is truncated or corrupt: {e}")),
            };
            let kind = entry.header().entry_type();
            let raw_name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
            if kind.is_symlink() || kind.is_hard_link() {
                out.symlinks += 1;
                continue;
            }
            if !kind.is_file() {
                continue;
            }
            let name = match safe_name(&raw_name) {
                Ok(n) => n,
                Err(message) => {
                    out.problems.push(SourceProblem {
                        path: format!("{prefix}{raw_name}"),
                        message,
                    });
                    continue;
                }
            };
            let path = format!("{prefix}{name}");
            let size = entry.header().size().unwrap_or(0);
            let data = if is_log_name(&path) {
                log_tail(&mut entry)
            } else {
                read_limited(&mut entry, size).map(EntryData::Bytes)
            };
            let parser = match &data {
                Ok(EntryData::Bytes(bytes)) => member_parser(&path, bytes, parse),
                _ => None,
            };
            match (data, parser) {
                (Ok(EntryData::Bytes(bytes)), Some(parse)) => {
                    let slot = out.entries.len();
                    out.entries.push(Entry {
                        path: path.clone(),
                        data: EntryData::Bytes(Vec::new()),
                    });
                    let parsed = &parsed;
                    scope.spawn(move |_| {
                        let data = parse(&path, bytes);
                        parsed
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .push((slot, data));
                    });
                }
                (Ok(data), _) => push_entry(path, data, depth, parse, out),
                (Err(message), _) => out.problems.push(SourceProblem { path, message }),
            }
        }
        drain(archive.into_inner())
    });
    for (slot, data) in parsed.into_inner().unwrap_or_else(PoisonError::into_inner) {
        out.entries[slot].data = data;
    }
    result
}

/// Reads a tar's stream past its end, so that a compression's checks (gzip's CRC-32 and
/// length, xz's and zstd's checksums) are read and a corrupt byte is a problem, not
/// silently wrong content. What follows the tar is bounded like a member.
fn drain<R: Read>(mut rest: R) -> Result<(), String> {
    let read = std::io::copy(
        &mut (&mut rest).take(max_entry_bytes() + 1),
        &mut std::io::sink(),
    )
    .map_err(|e| format!("corrupt after the last member (its members may be wrong): {e}"))?;
    if read > max_entry_bytes() {
        return Err(format!(
            "more than {} after the end of the tar archive; not read",
            limit_text()
        ));
    }
    Ok(())
}

/// An archived log's data: its tail (see [`read_tail`]).
fn log_tail<R: Read>(member: &mut R) -> Result<EntryData, String> {
    read_tail(member, log_tail_bytes())
        .map(|(bytes, skipped_lines)| EntryData::LogTail {
            bytes,
            skipped_lines,
        })
        .map_err(|e| format!("cannot read archive member: {e}"))
}

/// An archive member's data: handed to `parse` when given, else its bytes.
fn member_data(path: &str, bytes: Vec<u8>, parse: Option<&ParseMember>) -> EntryData {
    match member_parser(path, &bytes, parse) {
        Some(parse) => parse(path, bytes),
        None => EntryData::Bytes(bytes),
    }
}

/// `parse` for a member to parse as it is read: not for an archive, which is opened
/// instead (see [`push_entry`]).
fn member_parser<'p>(
    path: &str,
    bytes: &[u8],
    parse: Option<&'p ParseMember>,
) -> Option<&'p ParseMember> {
    parse.filter(|_| !opens(path, bytes))
}

/// Normalizes a member name; refuses names that would escape or cannot be a path.
fn safe_name(raw: &str) -> Result<String, String> {
    if raw.contains('\0') {
        return Err("archive member name contains NUL; skipped".into());
    }
    let trimmed = raw.trim_start_matches("./");
    if trimmed.starts_with('/') {
        return Err("archive member has an absolute path; skipped".into());
    }
    if trimmed.split('/').any(|c| c == "..") {
        return Err("archive member name contains `..`; skipped".into());
    }
    Ok(trimmed.to_string())
}

fn read_limited<R: Read>(reader: &mut R, size_hint: u64) -> Result<Vec<u8>, String> {
    // Headers can lie: never reserve more than 64 MiB up front.
    let mut data = super::buffers::for_len(size_hint.min(64 << 20) as usize);
    reader
        .take(max_entry_bytes() + 1)
        .read_to_end(&mut data)
        .map_err(|e| format!("cannot read archive member: {e}"))?;
    if data.len() as u64 > max_entry_bytes() {
        return Err(format!(
            "member inflates to more than {}; not read (zip bomb?)",
            limit_text()
        ));
    }
    Ok(data)
}

fn limit_text() -> String {
    let limit = max_entry_bytes();
    if limit >= 1 << 20 {
        format!("{} MiB", limit >> 20)
    } else {
        format!("{limit} bytes")
    }
}

fn read_bounded(path: &Path) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len > max_entry_bytes() {
        return Err(std::io::Error::other(format!(
            "file is larger than {}; not read",
            limit_text()
        )));
    }
    let mut data = super::buffers::for_len(len as usize);
    file.take(max_entry_bytes()).read_to_end(&mut data)?;
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_tail_keeps_whole_last_lines_and_counts_the_rest() {
        let log: String = (1..=50_000).map(|i| format!("line {i}\n")).collect();
        let (tail, skipped) = read_tail(&mut log.as_bytes(), 1000).unwrap();
        let tail = String::from_utf8(tail).unwrap();
        assert!(tail.len() <= 1000 && tail.ends_with("line 50000\n"));
        let first: usize = tail.lines().next().unwrap()[5..].parse().unwrap();
        assert_eq!(
            first,
            skipped + 1,
            "first kept line is numbered after the skipped ones"
        );
        let (all, none) = read_tail(&mut "a\nb\n".as_bytes(), 1000).unwrap();
        assert_eq!((all.as_slice(), none), (&b"a\nb\n"[..], 0));
    }

    #[test]
    fn member_names_are_checked() {
        assert!(safe_name("../etc/passwd").is_err());
        assert!(safe_name("/abs").is_err());
        assert!(safe_name("a\0b").is_err());
        assert_eq!(safe_name("./a/b.yaml").unwrap(), "a/b.yaml");
    }
}

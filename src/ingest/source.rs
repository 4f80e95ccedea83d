//! Inputs → entries: (virtual path, bytes) for every file in a folder, archive or
//! stream. Archives are never extracted: a zip is read in place from its file, a tar or
//! compressed file as a stream, and only members are held in memory (each bounded);
//! archives inside archives are opened up to [`MAX_NESTING`] levels, their entries named
//! `outer!/inner/path`.

mod bounded;
mod budget;
mod folder;
mod formats;
mod sparse;
mod tail;
mod zipped;

use super::content::FileRead;
use super::layout::Detector;
use super::want::Want;
use bounded::{limit_text, read_bounded, read_capped, read_limited, size_text};
use budget::{Budget, MemberCap, Metered, Packed};
use rayon::prelude::*;
use std::io::{Cursor, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};
pub use tail::{Tail, read_tail};
use zipped::expand_zip;

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

/// A limit from the environment variable `var`, else `default`; read once. A value that
/// is not a whole number is said on stderr (once) and the default used.
fn env_limit(cell: &OnceLock<u64>, var: &str, default: u64) -> u64 {
    *cell.get_or_init(|| {
        let Some(value) = std::env::var_os(var) else {
            return default;
        };
        match value.to_str().and_then(|v| v.trim().parse().ok()) {
            Some(limit) => limit,
            None => {
                crate::err_line!(
                    "kdiag: warning: {var}={value:?} is not a whole number; using the default, {default}"
                );
                default
            }
        }
    })
}

/// Reads every size limit from the environment once, up front, so that a malformed
/// `KDIAG_*` value is warned about on every run, not only on the run that first needs it
/// (a bad `KDIAG_LOG_TAIL_BYTES` was silent until a bundle held a log).
pub fn read_limits() {
    max_entry_bytes();
    log_tail_bytes();
    bomb_min_bytes();
    budget::max_inflated_bytes();
    budget::max_inflated_ratio();
    budget::max_held_bytes();
    folder::max_folder_files();
}

/// Where an entry's bytes are: read already, or a file read when parsed (folders).
pub enum EntryData {
    Bytes(Vec<u8>),
    File(PathBuf),
    /// The end of an archived log: its last [`log_tail_bytes`] bytes (see [`Tail`]).
    LogTail(Tail),
    /// One container's log cut out of a larger file (see [`super::dump_logs`]), after
    /// `skipped_lines` lines of that file: complete, unlike a [`EntryData::LogTail`].
    Section {
        bytes: Vec<u8>,
        skipped_lines: usize,
    },
    /// Read already: an archive member parsed as it was inflated (see [`ParseMember`]).
    Read(Box<FileRead>),
    /// A compressed file of a folder that holds one file (no archive): inflated when it is
    /// read, as a folder's other files are, so that a folder of many never holds them all.
    Compressed(Box<folder::Compressed>),
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
            EntryData::Bytes(b)
            | EntryData::LogTail(Tail { bytes: b, .. })
            | EntryData::Section { bytes: b, .. } => Ok(std::mem::take(b)),
            EntryData::File(p) => read_bounded(p),
            EntryData::Compressed(c) => c.inflate(),
            EntryData::Read(_) => Err(parsed_already()),
        }
    }

    pub fn read(&self) -> std::io::Result<std::borrow::Cow<'_, [u8]>> {
        match &self.data {
            EntryData::Bytes(b)
            | EntryData::LogTail(Tail { bytes: b, .. })
            | EntryData::Section { bytes: b, .. } => Ok(std::borrow::Cow::Borrowed(b)),
            EntryData::File(p) => read_bounded(p).map(std::borrow::Cow::Owned),
            EntryData::Compressed(c) => c.inflate().map(std::borrow::Cow::Owned),
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
    /// A tar's hard links name a member read already (or not in the archive): not read.
    pub hardlinks: usize,
    /// Members of the input archive left unread by a selective read (see [`Want`]): their
    /// paths, which decide the layout as the others' do.
    pub dropped: Vec<String>,
    /// Members left unread and kept (see [`Want::sparing`]).
    pub spared: Spared,
    /// The input is one plain file named on the command line: read by what it holds,
    /// whatever its name (`kubectl cluster-info dump > dump.txt`).
    pub named_file: bool,
}

/// How many bytes of members a selective read leaves are kept for a read that may follow
/// (see [`Want::sparing`]): the pod files of a real must-gather are 8–13 MB; past this,
/// none are kept and the second read inflates the archive again.
const SPARE_BYTES: u64 = 32 << 20;

/// The members of a stream archive a selective read left and kept, unparsed, for a read
/// that may follow (see [`Want::sparing`]).
#[derive(Default)]
pub struct Spared {
    pub entries: Vec<Entry>,
    bytes: u64,
    /// Every member the want spares was kept: only a tar read with a pick keeps any.
    pub whole: bool,
}

impl Spared {
    /// Keeps the member being read, if the bound allows; else keeps none.
    fn keep<R: Read>(&mut self, member: &mut R, path: &str, size: u64) {
        if !self.whole {
            return;
        }
        self.bytes += size;
        let bytes = match self.bytes <= SPARE_BYTES {
            true => read_limited(member, size).ok(),
            false => None,
        };
        match bytes {
            Some(bytes) => self.entries.push(Entry {
                path: path.to_string(),
                data: EntryData::Bytes(bytes),
            }),
            None => *self = Spared::default(),
        }
    }
}

pub use formats::{Format, holds_readable_archive};

/// Collects the entries of one input path (folder, archive or plain file). Archive
/// members are handed to `parse` as they are read, when given; else kept as bytes.
pub fn collect_path(path: &Path, parse: Option<&ParseMember>) -> std::io::Result<Collected> {
    collect_picked(path, parse, None)
}

/// [`collect_path`], reading of an archive given as `path` only the members `pick`
/// admits (a folder's files are read later, and only when wanted, anyway).
pub fn collect_picked(
    path: &Path,
    parse: Option<&ParseMember>,
    pick: Option<&Want>,
) -> std::io::Result<Collected> {
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return Ok(folder::collect_dir(path, parse));
    }
    if let Some(kind) = special_kind(&meta.file_type()) {
        return Err(not_regular(kind));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out = Collected::default();
    if !open_file(path, &name, true, parse, pick, None, &mut out)? {
        out.named_file = true;
        out.entries.push(Entry {
            path: name,
            data: EntryData::File(path.to_path_buf()),
        });
    }
    Ok(out)
}

/// Opens the file at `path`, found as `name`, when it is an archive or compressed file
/// (else returns false): a zip is read in place, with random access, anything else as a
/// stream read once; neither is ever held whole in memory, so only members are bounded.
/// Its budget counts into `walk`'s, the input's, when given.
fn open_file(
    path: &Path,
    name: &str,
    top: bool,
    parse: Option<&ParseMember>,
    pick: Option<&Want>,
    walk: Option<&std::sync::Arc<Budget>>,
    out: &mut Collected,
) -> std::io::Result<bool> {
    let mut file = std::fs::File::open(path)?;
    let mut head = [0u8; 512];
    let n = read_head(&mut file, &mut head)?;
    let format = match formats::sniff(&head[..n]) {
        Some(format) => format,
        None if formats::ends_as_zip(&mut file)? => Format::Zip,
        None => return Ok(misnamed(name, &head[..n], out)),
    };
    let reading = Reading {
        parse,
        budget: Budget::within(walk),
        pick: pick.filter(|_| top),
    };
    if format == Format::Zip {
        let zip = formats::SharedFile::new(file)?;
        if let Err(message) = expand_zip(zip, &prefix(name, top), 1, &reading, true, out) {
            out.problems.push(SourceProblem {
                path: name.to_string(),
                message,
            });
        }
    } else {
        file.seek(SeekFrom::Start(0))?;
        let packed = Packed {
            inner: file,
            budget: &reading.budget,
        };
        let stream = std::io::BufReader::with_capacity(256 << 10, packed);
        open_stream(name, stream, top, 1, &reading, out);
    }
    Ok(true)
}

/// What reading one archive needs: the parser of its members, its [`Budget`], and for a
/// selective read the members wanted (of the input archive only: the members of archives
/// inside it are all read).
struct Reading<'p> {
    parse: Option<&'p ParseMember>,
    budget: Budget,
    pick: Option<&'p Want>,
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

/// The name stdin's content is given in problems and citations. It holds objects
/// whatever its first line (see `layout::classify`), read as JSON when it looks like JSON
/// and else as YAML, as a `.yaml` file is (see `content::read`).
pub const STDIN_NAME: &str = "<stdin>";

/// Collects stdin as one entry (or an archive's entries, when it is one). An archive is
/// read as a stream, like a file (a zip, which needs random access, is read into memory,
/// bounded like one member).
pub fn collect_stdin(parse: Option<&ParseMember>) -> std::io::Result<Collected> {
    let mut stdin = std::io::stdin();
    let mut head = vec![0u8; 512];
    let n = read_head(&mut stdin, &mut head)?;
    head.truncate(n);
    if formats::sniff(&head).is_some() {
        let reading = Reading {
            parse,
            budget: Budget::default(),
            pick: None,
        };
        let packed = Packed {
            inner: Cursor::new(head).chain(stdin),
            budget: &reading.budget,
        };
        let stream = std::io::BufReader::with_capacity(256 << 10, packed);
        let mut out = Collected::default();
        open_stream(STDIN_NAME, stream, true, 1, &reading, &mut out);
        return Ok(out);
    }
    // One buffer of the limit's size, reserved once: its pages are resident only as they
    // are written, where growing by doubling copies and leaves the smaller buffers behind
    // (`read_to_end` peaked at twice the limit).
    let limit = max_entry_bytes();
    let Some(bytes) = read_capped(&mut Cursor::new(head).chain(stdin), limit)? else {
        return Ok(Collected {
            problems: vec![SourceProblem {
                path: STDIN_NAME.to_string(),
                message: format!("more than {}; not read", limit_text()),
            }],
            ..Collected::default()
        });
    };
    Ok(collect_bytes(STDIN_NAME, bytes, parse))
}

/// Collects the entries of an archive (or a plain file) held in memory, as if it were
/// an input named `name` (used by the archive fuzz target and for plain stdin).
pub fn collect_bytes(name: &str, bytes: Vec<u8>, parse: Option<&ParseMember>) -> Collected {
    let mut out = Collected::default();
    let reading = Reading {
        parse,
        budget: Budget::new(bytes.len() as u64),
        pick: None,
    };
    if formats::sniff(&bytes).is_some() {
        open(name, bytes, true, 1, &reading, &mut out);
    } else {
        push_entry(
            name.to_string(),
            EntryData::Bytes(bytes),
            0,
            &reading,
            &mut out,
        );
    }
    out
}

fn merge(into: &mut Collected, from: Collected) {
    into.entries.extend(from.entries);
    into.problems.extend(from.problems);
    into.symlinks += from.symlinks;
    into.hardlinks += from.hardlinks;
    into.dropped.extend(from.dropped);
}

/// Whether a file named like an archive or compressed file (`case.zip`) holds no format
/// kdiag knows; then a problem names it (else it would be skipped silently, as a file
/// that holds no objects). Rotated logs (`kubelet.log.gz`) are left to the logs.
fn misnamed(path: &str, head: &[u8], out: &mut Collected) -> bool {
    let Some(claimed) = formats::claimed_format(path) else {
        return false;
    };
    if formats::is_compressed_log(path) {
        return false;
    }
    out.problems.push(SourceProblem {
        path: path.to_string(),
        message: formats::not_what_its_name_says(claimed, head),
    });
    true
}

/// Whether a member's bytes are an archive or compressed file to open rather than a file.
fn opens(path: &str, bytes: &[u8]) -> bool {
    formats::sniff(bytes).is_some() && !formats::is_compressed_log(path)
}

/// Adds an entry, opening it first when it is itself an archive.
fn push_entry(path: String, data: EntryData, depth: usize, reading: &Reading, out: &mut Collected) {
    if let EntryData::Bytes(bytes) = &data
        && formats::sniff(bytes).is_none()
        && misnamed(&path, &bytes[..bytes.len().min(512)], out)
    {
        return;
    }
    if let EntryData::Bytes(bytes) = &data
        && opens(&path, bytes)
    {
        let EntryData::Bytes(bytes) = data else {
            return;
        };
        open(&path, bytes, false, depth + 1, reading, out);
        return;
    }
    out.entries.push(Entry { path, data });
}

/// How an archive's members are named: `path!/member`, or `member` for a `top`-level input.
fn prefix(path: &str, top: bool) -> String {
    if top {
        String::new()
    } else {
        format!("{path}!/")
    }
}

/// Whether an archive at `path`, `depth` archives deep, is one level too deep to open (then
/// a problem says so), or its archive's budget ran out (the problem is said already).
fn not_opened(path: &str, depth: usize, reading: &Reading, out: &mut Collected) -> bool {
    if depth > MAX_NESTING {
        out.problems.push(SourceProblem {
            path: path.to_string(),
            message: format!("archive nested more than {MAX_NESTING} levels deep; not opened"),
        });
        return true;
    }
    reading.budget.tripped().is_some()
}

/// Opens `bytes`, found at `path`, by what they hold: an archive's members are read
/// (named `path!/member`, or `member` for a `top`-level input), a compressed file is
/// its content. `depth` is how many archives deep it is.
fn open(
    path: &str,
    bytes: Vec<u8>,
    top: bool,
    depth: usize,
    reading: &Reading,
    out: &mut Collected,
) {
    match formats::sniff(&bytes) {
        None => out.entries.push(Entry {
            path: path.to_string(),
            data: EntryData::Bytes(bytes),
        }),
        Some(Format::Zip) => {
            if not_opened(path, depth, reading, out) {
                return;
            }
            let zip = Cursor::new(&bytes[..]);
            if let Err(message) = expand_zip(zip, &prefix(path, top), depth, reading, false, out) {
                out.problems.push(SourceProblem {
                    path: path.to_string(),
                    message,
                });
            }
        }
        Some(_) => open_stream(path, &bytes[..], top, depth, reading, out),
    }
}

/// Opens an archive or compressed file read as a stream, by its first bytes: a tar is
/// read member by member as it streams, a compressed file as it decompresses; a zip
/// (which needs random access) is read into memory first, bounded like one member.
fn open_stream<R: Read + Send>(
    path: &str,
    mut reader: R,
    top: bool,
    depth: usize,
    reading: &Reading,
    out: &mut Collected,
) {
    if not_opened(path, depth, reading, out) {
        return;
    }
    let mut head = vec![0u8; 512];
    let result = read_head(&mut reader, &mut head)
        .map_err(|e| format!("cannot read: {e}"))
        .and_then(|n| {
            head.truncate(n);
            let format = formats::sniff(&head);
            let content = Cursor::new(head).chain(reader);
            match format {
                Some(Format::Tar) => expand_tar(content, path, top, depth, reading, out),
                Some(Format::Unsupported(name)) => Err(format!(
                    "{name} archive or compressed file; kdiag reads zip, tar, gzip, bzip2, xz and zstd; not read"
                )),
                Some(Format::Zip) | None => {
                    let mut content = content;
                    let bytes = read_limited(&mut content, 0).map_err(|_| {
                        format!(
                            "a zip over {} is read from a file only (it needs random access); not read",
                            limit_text()
                        )
                    })?;
                    open(path, bytes, top, depth, reading, out);
                    Ok(())
                }
                Some(format) => decompress(format, path, content, top, depth, reading, out),
            }
        });
    if let Err(message) = result {
        out.problems.push(SourceProblem {
            path: path.to_string(),
            message,
        });
    }
}

/// A compressed stream: a tar in it is read as it decompresses (one archive, like
/// `.tar.gz`); anything else is one file named without the compression's ending, which
/// is opened in turn when it is an archive or compressed again. Its output counts
/// against the archive's budget.
fn decompress<R: Read + Send>(
    format: Format,
    path: &str,
    reader: R,
    top: bool,
    depth: usize,
    reading: &Reading,
    out: &mut Collected,
) -> Result<(), String> {
    let invalid = |e: std::io::Error| match reading.budget.tripped() {
        Some(why) => why.to_string(),
        None => formats::needs_more_memory(format, &e)
            .unwrap_or_else(|| format!("invalid {} data: {e}", format.name())),
    };
    let decoder = formats::decoder(format, reader).map_err(invalid)?;
    let mut content = Metered {
        inner: decoder,
        budget: &reading.budget,
    };
    let mut head = vec![0u8; 512];
    let n = read_head(&mut content, &mut head).map_err(invalid)?;
    head.truncate(n);
    let inner = formats::sniff(&head);
    let mut content = Cursor::new(head).chain(content);
    if inner == Some(Format::Tar) {
        return expand_tar(content, path, top, depth, reading, out)
            .map_err(|e| format!("{} data: {e}", format.name()));
    }
    let name = formats::inner_name(path);
    let failed = |e: String| match reading.budget.tripped() {
        Some(why) => SourceProblem {
            path: name.clone(),
            message: why.to_string(),
        },
        None => SourceProblem {
            path: path.to_string(),
            message: format!("{} data: {e}", format.name()),
        },
    };
    if inner.is_some() {
        // Compressed again, or a zip: one level deeper, so that a stream that decompresses
        // to itself stops at the nesting bound.
        open_stream(&name, content, top, depth + 1, reading, out);
        return Ok(());
    }
    let data = if is_log_name(&name) {
        reading.budget.streaming(|| log_tail(&mut content))
    } else {
        read_limited(&mut content, 0).map(|bytes| member_data(&name, bytes, reading.parse))
    };
    match data {
        Ok(data) => out.entries.push(Entry { path: name, data }),
        Err(e) => out.problems.push(failed(e)),
    }
    Ok(())
}

/// One zip member after reading.
enum Member {
    File(Entry),
    Symlink,
    Skipped,
    /// Not wanted by a selective read: not read.
    Dropped(String),
}

/// Members that declare more than this and compress better than [`BOMB_RATIO`]:1 are
/// refused before inflating (text bundles compress about 10-50:1; bombs 1000:1). The
/// floor is `KDIAG_BOMB_MIN_BYTES` when set, so tests trip it with small inputs; past it,
/// a whole archive may not inflate more than its own ratio (see [`budget`]).
const BOMB_MIN_BYTES: u64 = 256 << 20;

fn bomb_min_bytes() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    env_limit(&LIMIT, "KDIAG_BOMB_MIN_BYTES", BOMB_MIN_BYTES)
}
const BOMB_RATIO: u64 = 200;

/// Whether a member that is not a log is held in memory as bytes until the layout is
/// known (counted by [`Budget::hold`]): it is not parsed as it is inflated, nor an
/// archive (whose members are counted as they are read).
fn held(path: &str, reading: &Reading) -> bool {
    !formats::has_archive_name(path)
        && (reading.parse.is_none() || !super::layout::parse_early(path))
}

/// A member's data: a log's tail, else its bytes (at most the entry limit), parsed when
/// it is a file to parse as it is read.
fn read_member<R: Read>(
    member: &mut R,
    path: &str,
    size: u64,
    parse: Option<&ParseMember>,
) -> Result<EntryData, String> {
    if is_log_name(path) {
        log_tail(member)
    } else {
        read_limited(member, size).map(|bytes| member_data(path, bytes, parse))
    }
}

/// Why a member the archive says is `size` bytes is not read.
fn too_large(size: u64) -> String {
    format!(
        "member is {size} bytes, more than {}; not read",
        limit_text()
    )
}

/// Reads a tar's members, the archive found at `path` (see [`open`] for `top`).
fn expand_tar<R: Read>(
    reader: R,
    path: &str,
    top: bool,
    depth: usize,
    reading: &Reading,
    out: &mut Collected,
) -> Result<(), String> {
    let archive_path = path;
    let prefix = &prefix(path, top);
    // Members to parse go to the thread pool as they are read, while this thread inflates
    // the next; each parsed member lands in the entry slot kept for it.
    let parsed: Mutex<Vec<(usize, EntryData)>> = Mutex::new(Vec::new());
    let result = rayon::in_place_scope(|scope| {
        let mut archive = tar::Archive::new(reader);
        let entries = archive
            .entries()
            .map_err(|e| format!("unreadable tar archive: {e}"))?;
        // The member being read, so that a budget spent while skipping one names it.
        let mut current = String::new();
        // A selective read picks members by the layout the paths so far decide.
        let mut detector = reading
            .pick
            .filter(|_| prefix.is_empty())
            .map(|want| (want, Detector::default()));
        out.spared.whole = detector.is_some();
        // Files read so far, and those past the cap (counted, their bytes streamed past).
        let mut cap = MemberCap::new(&reading.budget);
        for entry in entries {
            let mut entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    if let Some(why) = reading.budget.tripped() {
                        out.problems.push(SourceProblem {
                            path: current,
                            message: why.to_string(),
                        });
                        return Ok(());
                    }
                    return Err(format!("tar archive is truncated or corrupt: {e}"));
                }
            };
            let kind = entry.header().entry_type();
            let sparse = match sparse::of_pax(&mut entry) {
                Ok(sparse) => sparse,
                Err((name, message)) => {
                    let name = name.unwrap_or_else(|| sparse::lossy(&entry.path_bytes()));
                    out.problems.push(SourceProblem {
                        path: format!("{prefix}{name}"),
                        message,
                    });
                    continue;
                }
            };
            let raw_name = match sparse.as_ref().and_then(|s| s.name.clone()) {
                Some(name) => name,
                None => sparse::lossy(&entry.path_bytes()),
            };
            current = format!("{prefix}{raw_name}");
            if kind.is_symlink() {
                out.symlinks += 1;
                continue;
            }
            if kind.is_hard_link() {
                out.hardlinks += 1;
                continue;
            }
            // GNU tar's contiguous files ('7') are regular files; its sparse files ('S')
            // the tar crate expands.
            if !kind.is_file() && kind != tar::EntryType::Continuous && !kind.is_gnu_sparse() {
                continue;
            }
            if !cap.take() {
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
            // What the member stores: for GNU's sparse type, the size the tar crate
            // expands it to.
            let stored = entry.size();
            // A file read only for its Events' times is parsed without views.
            let mut parse = reading.parse;
            if let Some((want, detector)) = &mut detector {
                detector.add(&path);
                if !want.admits(detector.decided(), &path) {
                    // Its bytes are inflated on the way to the next member, never parsed.
                    if want.spares(detector.decided(), &path) {
                        match sparse.map(|s| (s.size, s.expand(&mut entry, stored))) {
                            None => out.spared.keep(&mut entry, &path, stored),
                            Some((size, Ok(mut expanded))) => {
                                out.spared.keep(&mut expanded, &path, size);
                            }
                            // Read again whole, where it is a problem.
                            Some((_, Err(_))) => out.spared = Spared::default(),
                        }
                    }
                    out.dropped.push(path);
                    continue;
                }
                if want.times_only(detector.decided(), &path) {
                    parse = parse.map(|_| &super::parse_for_times as &ParseMember);
                }
            }
            // A tar member's size is exact: one over the limit is refused before it is read
            // (a sparse one's stored bytes skipped, not its holes).
            let size = sparse.as_ref().map_or(stored, |s| s.size);
            // Holes cost reading as data does: a sparse member (a log too: its header may
            // claim exabytes) that expands past the limit is refused.
            if (sparse.is_some() || kind.is_gnu_sparse()) && size > max_entry_bytes() {
                let message = format!(
                    "sparse member that expands to {size} bytes, more than {}; not read",
                    limit_text()
                );
                out.problems.push(SourceProblem { path, message });
                continue;
            }
            let too_large_here = size > max_entry_bytes() && !is_log_name(&path);
            let mut body: Box<dyn Read + '_> = match sparse.filter(|_| !too_large_here) {
                Some(sparse) => match sparse.expand(&mut entry, stored) {
                    Ok(expanded) => Box::new(expanded),
                    Err(message) => {
                        out.problems.push(SourceProblem { path, message });
                        continue;
                    }
                },
                None => Box::new(&mut entry),
            };
            let data = if is_log_name(&path) {
                reading.budget.streaming(|| log_tail(&mut body))
            } else if too_large_here {
                reading.budget.skip(&mut body).and(Err(too_large(size)))
            } else if held(&path, reading)
                && let Err(why) = reading.budget.hold(size)
            {
                reading.budget.skip(&mut body).and(Err(why))
            } else {
                read_limited(&mut body, size).map(EntryData::Bytes)
            };
            drop(body);
            if let Some(why) = reading.budget.tripped() {
                out.problems.push(SourceProblem {
                    path,
                    message: why.to_string(),
                });
                return Ok(());
            }
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
                (Ok(data), _) => push_entry(path, data, depth, reading, out),
                (Err(message), _) => out.problems.push(SourceProblem { path, message }),
            }
        }
        if let Some(message) = cap.problem() {
            out.problems.push(SourceProblem {
                path: archive_path.to_string(),
                message,
            });
        }
        drain(archive.into_inner()).map_err(|e| reading.budget.tripped().map_or(e, str::to_string))
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
        .map(EntryData::LogTail)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_names_are_checked() {
        assert!(safe_name("../etc/passwd").is_err());
        assert!(safe_name("/abs").is_err());
        assert!(safe_name("a\0b").is_err());
        assert_eq!(safe_name("./a/b.yaml").unwrap(), "a/b.yaml");
    }
}

//! What a byte stream is, by its magic bytes (never by its name: browsers un-gzip
//! downloads and keep `.tar.gz`), readers that decompress it as it streams, and what
//! the zip crate does not give of a zip: its members shadowed by a later one of the same
//! name, and reads of one file from several threads.

use std::collections::HashSet;
use std::io::{self, BufRead, Read, Seek, SeekFrom};
use std::sync::Arc;

/// The container or compression format of a byte stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Zip,
    Tar,
    Gzip,
    Bzip2,
    Xz,
    Zstd,
    /// Recognised but not read (7z, RAR, LZ4, …): a problem naming it, not a binary file.
    Unsupported(&'static str),
}

impl Format {
    /// A compression of one stream (which may hold a tar), as opposed to an archive.
    pub fn is_compression(self) -> bool {
        matches!(
            self,
            Format::Gzip | Format::Bzip2 | Format::Xz | Format::Zstd
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Zip => "zip",
            Format::Tar => "tar",
            Format::Gzip => "gzip",
            Format::Bzip2 => "bzip2",
            Format::Xz => "xz",
            Format::Zstd => "zstd",
            Format::Unsupported(name) => name,
        }
    }
}

/// Formats kdiag knows by their magic but cannot read.
const UNSUPPORTED: &[(&[u8], &str)] = &[
    (b"7z\xbc\xaf\x27\x1c", "7z"),
    (b"Rar!\x1a\x07", "RAR"),
    (b"\x04\x22\x4d\x18", "LZ4"),
    (b"\x02\x21\x4c\x18", "LZ4 (legacy)"),
    (b"LZIP\x01", "lzip"),
    (b"\x89LZO\x00\x0d\x0a\x1a\x0a", "lzop"),
    (b"\x1f\x9d", "Unix compress (.Z)"),
];

/// Whether a file's first bytes are an archive or a compression kdiag reads (zip, tar,
/// gzip, bzip2, xz, zstd), whatever its name: an archive that is no bundle (an HTML error
/// page saved as `.zip`, a 7z) is not counted among a folder's bundles.
pub fn holds_readable_archive(path: &std::path::Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::with_capacity(512);
    if file.take(512).read_to_end(&mut head).is_err() {
        return false;
    }
    match sniff(&head) {
        Some(format) => !matches!(format, Format::Unsupported(_)),
        None => std::fs::File::open(path).is_ok_and(|mut f| ends_as_zip(&mut f).unwrap_or(false)),
    }
}

/// Whether a file ends with a zip's end-of-central-directory record (its comment, if
/// any, running to the end): a zip behind a prefix, such as a self-extractor's stub
/// (`cat stub a.zip`, or `zip -A` after it), which `unzip` reads and so does the zip crate.
pub fn ends_as_zip<R: Read + Seek>(file: &mut R) -> io::Result<bool> {
    let len = file.seek(SeekFrom::End(0))?;
    let tail_len = len.min(22 + 0xffff);
    file.seek(SeekFrom::Start(len - tail_len))?;
    let mut tail = vec![0u8; tail_len as usize];
    file.read_exact(&mut tail)?;
    Ok((0..tail.len().saturating_sub(21)).rev().any(|i| {
        let comment = usize::from(u16::from_le_bytes([tail[i + 20], tail[i + 21]]));
        tail[i..].starts_with(b"PK\x05\x06") && i + 22 + comment == tail.len()
    }))
}

/// The format of a stream starting with `head` (its first 512 bytes suffice), or `None`
/// for a plain file.
pub fn sniff(head: &[u8]) -> Option<Format> {
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return Some(Format::Zip);
    }
    if head.starts_with(&[0x1f, 0x8b]) {
        return Some(Format::Gzip);
    }
    if head.len() >= 4 && head.starts_with(b"BZh") && (b'1'..=b'9').contains(&head[3]) {
        return Some(Format::Bzip2);
    }
    if head.starts_with(b"\xfd7zXZ\x00") {
        return Some(Format::Xz);
    }
    // A zstd frame, or a skippable frame (pzstd starts with one).
    if head.starts_with(b"\x28\xb5\x2f\xfd")
        || (head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18])
    {
        return Some(Format::Zstd);
    }
    if is_tar_header(head) {
        return Some(Format::Tar);
    }
    UNSUPPORTED
        .iter()
        .find(|(magic, _)| head.starts_with(magic))
        .map(|(_, name)| Format::Unsupported(name))
}

/// A tar header: `ustar` magic, or (old v7 tars have none) a name and a checksum that
/// matches the header's bytes.
fn is_tar_header(head: &[u8]) -> bool {
    let Some(header) = head.get(..512) else {
        return false;
    };
    if &header[257..262] == b"ustar" {
        return true;
    }
    if header[0] == 0 {
        return false;
    }
    let field = &header[148..156];
    let digits: Vec<u8> = field
        .iter()
        .copied()
        .skip_while(|&b| b == b' ')
        .take_while(u8::is_ascii_digit)
        .collect();
    let Some(stored) = std::str::from_utf8(&digits)
        .ok()
        .and_then(|s| u32::from_str_radix(s, 8).ok())
    else {
        return false;
    };
    let sum: u32 = header
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if (148..156).contains(&i) {
                32
            } else {
                u32::from(b)
            }
        })
        .sum();
    !digits.is_empty() && stored == sum
}

/// Most memory an xz stream may ask for (`xz -9` needs 65 MiB); beyond it the stream is
/// a problem rather than an allocation the size its header names.
const XZ_MEMLIMIT: u64 = 256 << 20;

/// Why a stream could not be decoded, when it is that it needs more memory than kdiag
/// allows (an xz dictionary over [`XZ_MEMLIMIT`]), not that its data is invalid.
pub fn needs_more_memory(format: Format, e: &io::Error) -> Option<String> {
    let lzma = e.get_ref()?.downcast_ref::<liblzma::stream::Error>()?;
    matches!(lzma, liblzma::stream::Error::MemLimit).then(|| {
        format!(
            "the {} stream needs more memory to decode than the {} MiB kdiag allows (its \
             dictionary is larger; `xz -9` needs 65 MiB); not read",
            format.name(),
            XZ_MEMLIMIT >> 20
        )
    })
}

/// A reader of the decompressed content of `source`, when `format` is a compression.
/// Concatenated streams (pigz, pbzip2, pzstd, `cat a.xz b.xz`) read as one.
pub fn decoder<'a, R: Read + Send + 'a>(
    format: Format,
    source: R,
) -> io::Result<Box<dyn Read + Send + 'a>> {
    Ok(match format {
        Format::Gzip => Box::new(Streams {
            source: None,
            decoder: Some(flate2::bufread::GzDecoder::new(io::BufReader::new(source))),
            start: flate2::bufread::GzDecoder::new,
            finish: flate2::bufread::GzDecoder::into_inner,
        }),
        Format::Bzip2 => Box::new(Streams {
            source: None,
            decoder: Some(bzip2::bufread::BzDecoder::new(io::BufReader::new(source))),
            start: bzip2::bufread::BzDecoder::new,
            finish: bzip2::bufread::BzDecoder::into_inner,
        }),
        Format::Xz => {
            let flags = liblzma::stream::CONCATENATED | liblzma::stream::TELL_UNSUPPORTED_CHECK;
            let stream = liblzma::stream::Stream::new_stream_decoder(XZ_MEMLIMIT, flags)
                .map_err(io::Error::other)?;
            Box::new(liblzma::read::XzDecoder::new_stream(source, stream))
        }
        Format::Zstd => Box::new(ZstdFrames {
            source: io::BufReader::new(source),
            decoder: ruzstd::decoding::FrameDecoder::new(),
            in_frame: false,
        }),
        Format::Zip | Format::Tar | Format::Unsupported(_) => {
            return Err(io::Error::other(format!(
                "{} is not a compression",
                format.name()
            )));
        }
    })
}

/// The streams of a gzip or bzip2 file one after another (pigz, pbzip2, `cat a.gz b.gz`),
/// and the NUL padding after the last, which `gzip -d` and `bzip2 -d` accept (a file
/// padded to a block by tape or a disk image). Each stream's decoder reads from `source`
/// no further than its end.
struct Streams<R, D> {
    source: Option<R>,
    decoder: Option<D>,
    start: fn(R) -> D,
    finish: fn(D) -> R,
}

impl<R: BufRead, D: Read> Read for Streams<R, D> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(decoder) = &mut self.decoder {
                let n = decoder.read(buf)?;
                if n > 0 || buf.is_empty() {
                    return Ok(n);
                }
                self.source = self.decoder.take().map(self.finish);
            }
            let Some(source) = &mut self.source else {
                return Ok(0);
            };
            if only_padding_left(source)? {
                return Ok(0);
            }
            self.decoder = self.source.take().map(self.start);
        }
    }
}

/// At the end of a compressed stream: whether only NUL bytes, or nothing, follow it
/// (read through); an error when NULs are followed by more data.
fn only_padding_left<R: BufRead>(source: &mut R) -> io::Result<bool> {
    let mut padded = false;
    loop {
        let head = source.fill_buf()?;
        if head.is_empty() {
            return Ok(true);
        }
        let zeros = head.iter().take_while(|&&b| b == 0).count();
        if zeros == 0 {
            if padded {
                return Err(io::Error::other(
                    "data after the NUL padding that follows the compressed stream",
                ));
            }
            return Ok(false);
        }
        padded = true;
        source.consume(zeros);
    }
}

/// Every frame of a zstd stream, skippable frames skipped, each frame's checksum checked
/// (ruzstd's own streaming reader reads one frame and checks nothing), NUL padding after
/// the last accepted as for gzip.
struct ZstdFrames<R> {
    source: io::BufReader<R>,
    decoder: ruzstd::decoding::FrameDecoder,
    in_frame: bool,
}

impl<R: Read> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use ruzstd::decoding::BlockDecodingStrategy;
        use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if !self.in_frame {
                if only_padding_left(&mut self.source)? {
                    return Ok(0);
                }
                match self.decoder.reset(&mut self.source) {
                    Ok(()) => self.in_frame = true,
                    Err(FrameDecoderError::ReadFrameHeaderError(
                        ReadFrameHeaderError::SkipFrame { length, .. },
                    )) => {
                        let skip = (&mut self.source).take(u64::from(length));
                        io::copy(&mut { skip }, &mut io::sink())?;
                    }
                    Err(e) => return Err(io::Error::other(e)),
                }
                continue;
            }
            if self.decoder.can_collect() > 0 {
                return self.decoder.read(buf);
            }
            if !self.decoder.is_finished() {
                self.decoder
                    .decode_blocks(&mut self.source, BlockDecodingStrategy::UptoBlocks(1))
                    .map_err(io::Error::other)?;
                continue;
            }
            // The frame is decoded and drained.
            if let Some(stored) = self.decoder.get_checksum_from_data()
                && self.decoder.get_calculated_checksum() != Some(stored)
            {
                return Err(io::Error::other("zstd frame checksum does not match"));
            }
            self.in_frame = false;
        }
    }
}

/// A file read by several threads at once, each at its own position (a zip's members are
/// inflated in parallel, each thread on its own clone of the archive): reads are
/// positioned (`pread`), so clones share one open file and no seek.
#[derive(Clone)]
pub struct SharedFile {
    file: Arc<std::fs::File>,
    len: u64,
    pos: u64,
}

impl SharedFile {
    pub fn new(file: std::fs::File) -> io::Result<SharedFile> {
        let len = file.metadata()?.len();
        Ok(SharedFile {
            file: Arc::new(file),
            len,
            pos: 0,
        })
    }
}

impl Read for SharedFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        #[cfg(unix)]
        let n = std::os::unix::fs::FileExt::read_at(&*self.file, buf, self.pos)?;
        #[cfg(windows)]
        let n = std::os::windows::fs::FileExt::seek_read(&*self.file, buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for SharedFile {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let pos = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = pos.ok_or_else(|| io::Error::other("seek before the start of the file"))?;
        Ok(self.pos)
    }
}

/// A zip member as its central directory entry describes it.
pub struct ZipMember {
    pub name: Vec<u8>,
    /// What it inflates to (the zip crate inflates no more than this).
    pub size: u64,
    pub packed: u64,
    pub dir: bool,
    pub symlink: bool,
    pub encrypted: bool,
    pub at: ZipAt,
}

/// Where a member is read from.
pub enum ZipAt {
    /// The zip crate's member of this index.
    Index(usize),
    /// A member the zip crate does not keep (a later one has its name): read from its
    /// local header, at this offset in the file, with what its central entry says.
    Local { offset: u64, crc: u32 },
}

impl ZipMember {
    pub fn of(entry: &zip::read::ZipFileEntry<'_>, index: usize) -> ZipMember {
        ZipMember {
            name: entry.name_raw().to_vec(),
            size: entry.size(),
            packed: entry.compressed_size(),
            dir: entry.is_dir(),
            symlink: entry.is_symlink(),
            encrypted: entry.encrypted(),
            at: ZipAt::Index(index),
        }
    }

    /// The reader of a member found by [`shadowed_zip_members`], from `raw` (the zip's
    /// bytes); an error for one the zip crate keeps.
    pub fn open_local<'r, R: Read + Seek>(
        &self,
        raw: &'r mut R,
    ) -> Result<zip::read::ZipFile<'r, R>, String> {
        let unreadable = |e: &dyn std::fmt::Display| format!("unreadable zip member: {e}");
        let ZipAt::Local { offset, crc } = self.at else {
            return Err(unreadable(&"not a shadowed member"));
        };
        raw.seek(SeekFrom::Start(offset))
            .map_err(|e| unreadable(&e))?;
        let options = zip::ZipReadOptions::new()
            .override_compressed_size(self.packed)
            .override_uncompressed_size(self.size)
            .override_crc(crc);
        zip::read::read_zipfile_from_stream_with_options(raw, options)
            .map_err(|e| unreadable(&e))?
            .ok_or_else(|| unreadable(&"no local header where its central entry says"))
    }
}

/// Central directory entries of a zip that the zip crate dropped because a later entry has
/// the same name: those that do not start at one of `kept` (the kept entries' offsets).
/// `start` is where the central directory starts, `offset` where the zip does in `raw`.
pub fn shadowed_zip_members<R: Read + Seek>(
    raw: R,
    start: u64,
    offset: u64,
    kept: &HashSet<u64>,
) -> io::Result<Vec<ZipMember>> {
    let mut raw = io::BufReader::new(raw);
    raw.seek(SeekFrom::Start(start))?;
    let mut at = start;
    let mut shadowed = Vec::new();
    let mut fixed = [0u8; 46];
    loop {
        if super::read_head(&mut raw, &mut fixed)? < fixed.len() || fixed[..4] != *b"PK\x01\x02" {
            return Ok(shadowed);
        }
        let u16_at = |i: usize| u16::from_le_bytes([fixed[i], fixed[i + 1]]);
        let u32_at =
            |i: usize| u32::from_le_bytes([fixed[i], fixed[i + 1], fixed[i + 2], fixed[i + 3]]);
        let (name_len, extra_len, comment_len) =
            (usize::from(u16_at(28)), usize::from(u16_at(30)), u16_at(32));
        let mut name = vec![0u8; name_len];
        raw.read_exact(&mut name)?;
        let mut extra = vec![0u8; extra_len];
        raw.read_exact(&mut extra)?;
        raw.seek_relative(i64::from(comment_len))?;
        let entry_start = at;
        at += 46 + name_len as u64 + extra_len as u64 + u64::from(comment_len);
        if kept.contains(&entry_start) {
            continue;
        }
        // Sizes and the offset that do not fit 32 bits are in the zip64 extra field, in
        // this order, each only when its 32-bit field is all ones.
        let mut zip64 = zip64_fields(&extra).into_iter();
        let mut wide = |narrow: u32| match narrow {
            u32::MAX => zip64.next().unwrap_or(u64::MAX),
            n => u64::from(n),
        };
        let size = wide(u32_at(24));
        let packed = wide(u32_at(20));
        let local = wide(u32_at(42));
        let unix = u16_at(4) >> 8 == 3;
        let mode = u32_at(38) >> 16;
        shadowed.push(ZipMember {
            dir: name.ends_with(b"/"),
            symlink: unix && mode & 0o170000 == 0o120000,
            encrypted: u16_at(8) & 1 == 1,
            name,
            size,
            packed,
            at: ZipAt::Local {
                offset: local.saturating_add(offset),
                crc: u32_at(16),
            },
        });
    }
}

/// The 64-bit values of a zip64 extended information extra field (id 1), in order.
fn zip64_fields(extra: &[u8]) -> Vec<u64> {
    let mut rest = extra;
    while rest.len() >= 4 {
        let id = u16::from_le_bytes([rest[0], rest[1]]);
        let len = usize::from(u16::from_le_bytes([rest[2], rest[3]])).min(rest.len() - 4);
        let data = &rest[4..4 + len];
        if id == 1 {
            return data
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
                .collect();
        }
        rest = &rest[4 + len..];
    }
    Vec::new()
}

/// The name of what a compressed file holds: `pods.yaml.gz` → `pods.yaml`,
/// `bundle.tgz` → `bundle.tar`; a name without such an ending is kept.
pub fn inner_name(path: &str) -> String {
    let lower = path.to_ascii_lowercase();
    for (ext, tar) in [
        (".tgz", true),
        (".tbz2", true),
        (".tbz", true),
        (".txz", true),
        (".tzst", true),
        (".gz", false),
        (".bz2", false),
        (".xz", false),
        (".zst", false),
        (".zstd", false),
    ] {
        if lower.ends_with(ext) && lower.len() > ext.len() {
            let stem = &path[..path.len() - ext.len()];
            return if tar {
                format!("{stem}.tar")
            } else {
                stem.to_string()
            };
        }
    }
    path.to_string()
}

/// A name that says archive or compressed file; in folders only these are looked into
/// (sniffing every file would open each twice).
pub fn has_archive_name(path: &str) -> bool {
    claimed_format(path).is_some()
}

/// The format a file's name claims (`.zip` zip, `.tar.gz` gzip, `.7z` 7z …), for the
/// problem that names a file whose bytes are not what its name says.
pub fn claimed_format(path: &str) -> Option<&'static str> {
    let lower = path.to_ascii_lowercase();
    const ENDINGS: &[(&str, &str)] = &[
        (".zip", "zip"),
        (".tar", "tar"),
        (".tgz", "gzip"),
        (".gz", "gzip"),
        (".tbz2", "bzip2"),
        (".tbz", "bzip2"),
        (".bz2", "bzip2"),
        (".txz", "xz"),
        (".xz", "xz"),
        (".tzst", "zstd"),
        (".zst", "zstd"),
        (".zstd", "zstd"),
        (".7z", "7z"),
        (".rar", "RAR"),
        (".lz4", "LZ4"),
        (".lz", "lzip"),
        (".lzo", "lzop"),
        (".z", "Unix compress (.Z)"),
    ];
    ENDINGS
        .iter()
        .find(|(ending, _)| lower.ends_with(ending) && lower.len() > ending.len())
        .map(|(_, format)| *format)
}

/// The problem for a file named like an archive or compressed file (`claimed`, see
/// [`claimed_format`]) whose first bytes (`head`) are no format kdiag knows.
pub fn not_what_its_name_says(claimed: &str, head: &[u8]) -> String {
    let start = if head.is_empty() {
        "it is empty".to_string()
    } else {
        match std::str::from_utf8(&head[..head.len().min(24)]) {
            Ok(text) if !text.chars().any(|c| c.is_control() && !c.is_whitespace()) => {
                format!("it starts with text: {:?}", text.trim_end())
            }
            _ => {
                let hex: Vec<String> = head.iter().take(8).map(|b| format!("{b:02x}")).collect();
                format!("its first bytes are {}", hex.join(" "))
            }
        }
    };
    format!(
        "named like a {claimed} file, but its content is no {claimed} (nor any format kdiag reads: zip, tar, gzip, bzip2, xz, zstd); {start}; not read"
    )
}

/// A rotated log (`kubelet.log.gz`): left as it is, like the other logs kdiag does not
/// read; inflating it would cost time for nothing.
pub fn is_compressed_log(path: &str) -> bool {
    let inner = inner_name(path);
    inner.len() != path.len() && inner.ends_with(".log")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_magic() {
        assert_eq!(sniff(b"PK\x03\x04rest"), Some(Format::Zip));
        assert_eq!(sniff(b"\x1f\x8b\x08"), Some(Format::Gzip));
        assert_eq!(sniff(b"BZh91AY&SY"), Some(Format::Bzip2));
        assert_eq!(sniff(b"BZhx"), None);
        assert_eq!(sniff(b"\xfd7zXZ\x00\x00"), Some(Format::Xz));
        assert_eq!(sniff(b"\x28\xb5\x2f\xfd\x00"), Some(Format::Zstd));
        assert_eq!(sniff(b"\x50\x2a\x4d\x18\x00"), Some(Format::Zstd));
        assert_eq!(
            sniff(b"7z\xbc\xaf\x27\x1c\x00\x04"),
            Some(Format::Unsupported("7z"))
        );
        assert_eq!(sniff(b"kind: Pod\n"), None);
        assert_eq!(sniff(b""), None);
        let mut v7 = tar::Header::new_old();
        v7.set_path("a.yaml").unwrap();
        v7.set_size(3);
        v7.set_cksum();
        assert_eq!(sniff(v7.as_bytes()), Some(Format::Tar));
        let mut broken = *v7.as_bytes();
        broken[0] ^= 1;
        assert_eq!(sniff(&broken), None);
    }

    #[test]
    fn inner_names() {
        assert_eq!(inner_name("a/pods.yaml.gz"), "a/pods.yaml");
        assert_eq!(inner_name("b.TGZ"), "b.tar");
        assert_eq!(inner_name("b.tar.xz"), "b.tar");
        assert_eq!(inner_name("b.tar"), "b.tar");
        assert_eq!(inner_name(".gz"), ".gz");
        assert!(is_compressed_log("x/kubelet.log.gz"));
        assert!(!is_compressed_log("x/kubelet.log"));
        assert!(has_archive_name("m.tar.zst") && !has_archive_name("pods.yaml"));
        assert_eq!(claimed_format("case.TAR.XZ"), Some("xz"));
        assert_eq!(claimed_format("b.tar.lz4"), Some("LZ4"));
        assert_eq!(claimed_format(".zip"), None);
        assert!(not_what_its_name_says("zip", b"hello\n").contains("\"hello\""));
        assert!(not_what_its_name_says("zip", b"\x00\x01").contains("00 01"));
        assert!(not_what_its_name_says("zip", b"").contains("empty"));
    }

    #[test]
    fn zstd_frames_are_read_and_checked() {
        let one = ruzstd::encoding::compress_to_vec(
            &b"hello "[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        let two = ruzstd::encoding::compress_to_vec(
            &b"world"[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        let mut stream = vec![0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3];
        stream.extend_from_slice(&one);
        stream.extend_from_slice(&two);
        let mut out = String::new();
        decoder(Format::Zstd, &stream[..])
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, "hello world");
        let mut cut = Vec::new();
        let truncated = &stream[..stream.len() - 3];
        assert!(
            decoder(Format::Zstd, truncated)
                .unwrap()
                .read_to_end(&mut cut)
                .is_err()
        );
    }
}

//! Folders → entries: a walk in name order that never follows links, stays on the file
//! system where it starts and stops at a file count; files named like archives are
//! opened, in parallel, by what they hold. A compressed file that holds one file (not an
//! archive) is left closed until it is read, as the folder's other files are.

use super::budget::{Budget, Metered, Packed};
use super::{
    Collected, Entry, EntryData, ParseMember, SourceProblem, env_limit, formats, is_log_name,
    merge, not_regular, open_file, read_head, read_limited, special_kind,
};
use rayon::prelude::*;
use std::io::Seek;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// How many files a folder walk collects by default: a must-gather of a large cluster holds
/// tens of thousands; `kdiag analyze /` would hold millions.
pub const MAX_FOLDER_FILES: u64 = 500_000;

pub fn max_folder_files() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    env_limit(&LIMIT, "KDIAG_MAX_FILES", MAX_FOLDER_FILES)
}

/// The device a folder is on, to keep a walk on the file system where it started.
#[cfg(unix)]
fn device_of(meta: &std::fs::Metadata) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    Some(meta.dev())
}

#[cfg(not(unix))]
fn device_of(_: &std::fs::Metadata) -> Option<u64> {
    None
}

/// A folder walk is bounded two ways, each said as a problem: it stays on the root's file
/// system (a mount point inside, `/proc` or `/sys` under `/`, is named and not entered),
/// and it stops after [`max_folder_files`] files, in name order, naming the first file
/// left out.
pub(super) fn collect_dir(root: &Path, parse: Option<&ParseMember>) -> Collected {
    let mut out = Collected::default();
    let root_device = std::fs::metadata(root).ok().and_then(|m| device_of(&m));
    let max_files = max_folder_files();
    let mut mounts = Vec::new();
    let walker = walkdir::WalkDir::new(root)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let other = e.depth() > 0
                && e.file_type().is_dir()
                && root_device.is_some()
                && e.metadata().ok().and_then(|m| device_of(&m)) != root_device;
            if other {
                mounts.push(e.path().to_path_buf());
            }
            !other
        });
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
        if out.entries.len() as u64 >= max_files {
            out.problems.push(SourceProblem {
                path: rel,
                message: format!(
                    "the folder holds more than {max_files} files (KDIAG_MAX_FILES); this file and the ones after it in name order are not read"
                ),
            });
            break;
        }
        out.entries.push(Entry {
            path: rel,
            data: EntryData::File(item.path().to_path_buf()),
        });
    }
    for mount in mounts {
        let path = mount.strip_prefix(root).unwrap_or(&mount);
        out.problems.push(SourceProblem {
            path: path.to_string_lossy().replace('\\', "/"),
            message: "is another file system (a mount point); not read".into(),
        });
    }
    // Files named like archives are opened here, in parallel, by what they hold; each is
    // one archive with its own budget.
    let (archives, plain): (Vec<Entry>, Vec<Entry>) = std::mem::take(&mut out.entries)
        .into_iter()
        .partition(|e| formats::has_archive_name(&e.path) && !formats::is_compressed_log(&e.path));
    out.entries = plain;
    let opened: Vec<Collected> = archives
        .into_par_iter()
        .map(|e| {
            let mut sub = Collected::default();
            let EntryData::File(file) = &e.data else {
                return sub;
            };
            match Compressed::of_one_file(file, &e.path) {
                Ok(Some(entry)) => {
                    sub.entries.push(entry);
                    return sub;
                }
                Ok(None) => {}
                Err(err) => {
                    sub.problems.push(SourceProblem {
                        path: e.path.clone(),
                        message: format!("cannot read: {err}"),
                    });
                    return sub;
                }
            }
            match open_file(file, &e.path, false, parse, None, &mut sub) {
                Ok(true) => {}
                Ok(false) => sub.entries.push(e),
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

/// A compressed file of a folder holding one file that is no archive (`pods.yaml.gz`):
/// its entry is named as the file inside is (`pods.yaml`) and inflated only when read,
/// so that a folder of thousands (`/usr/share/doc`) is not held inflated all at once
/// and a selective read never inflates the ones it does not want.
pub struct Compressed {
    file: PathBuf,
    /// The folder's path of the compressed file, which problems name.
    name: String,
    format: formats::Format,
}

impl Compressed {
    /// The entry of `file` (found as `name`) when it is a compression of one file that
    /// is neither an archive, another compression nor a log (those are opened at once,
    /// as today: their members' paths decide the layout; logs keep their tail).
    fn of_one_file(file: &Path, name: &str) -> std::io::Result<Option<Entry>> {
        let mut head = [0u8; 512];
        let mut opened = std::fs::File::open(file)?;
        let n = read_head(&mut opened, &mut head)?;
        let Some(format) = formats::sniff(&head[..n]).filter(|f| f.is_compression()) else {
            return Ok(None);
        };
        let inner = formats::inner_name(name);
        if is_log_name(&inner) || formats::has_archive_name(&inner) {
            return Ok(None);
        }
        opened.seek(std::io::SeekFrom::Start(0))?;
        let Ok(mut decoder) = formats::decoder(format, std::io::BufReader::new(opened)) else {
            return Ok(None);
        };
        let Ok(n) = read_head(&mut decoder, &mut head) else {
            // Corrupt from its first bytes: opened as today, which names the problem.
            return Ok(None);
        };
        if formats::sniff(&head[..n]).is_some() {
            return Ok(None);
        }
        Ok(Some(Entry {
            path: inner,
            data: EntryData::Compressed(Box::new(Compressed {
                file: file.to_path_buf(),
                name: name.to_string(),
                format,
            })),
        }))
    }

    /// The file inside, bounded as an archive's member is: at most the entry limit, and
    /// the whole-archive budget (bytes and ratio) of this one file.
    pub fn inflate(&self) -> std::io::Result<Vec<u8>> {
        let budget = Budget::default();
        let packed = Packed {
            inner: std::fs::File::open(&self.file)?,
            budget: &budget,
        };
        let decoder = formats::decoder(self.format, std::io::BufReader::new(packed))?;
        let mut content = Metered {
            inner: decoder,
            budget: &budget,
        };
        read_limited(&mut content, 0).map_err(|e| {
            let why = match budget.tripped() {
                Some(why) => why.to_string(),
                None => format!("{} data: {e}", self.format.name()),
            };
            std::io::Error::other(format!("{}: {why}", self.name))
        })
    }
}

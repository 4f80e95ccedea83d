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
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

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
    let walk = Walk {
        root_device,
        files: AtomicU64::new(0),
        max_files,
    };
    let found = walk.dir(root);
    let mut mounts = Vec::new();
    if walk.files.load(Ordering::Relaxed) <= max_files {
        walk.read_out(found, root, &mut out, &mut mounts);
    } else {
        // Past the limit, the serial walk says exactly where it stopped.
        drop(found);
        walk_in_order(root, root_device, max_files, &mut out, &mut mounts);
    }
    for mount in mounts {
        let path = mount.strip_prefix(root).unwrap_or(&mount);
        out.problems.push(SourceProblem {
            path: slashed(path),
            message: "is another file system (a mount point); not read".into(),
        });
    }
    // Files named like archives are opened here, in parallel, by what they hold; each is
    // one archive with its own budget, counted into the walk's.
    // The folder's files count towards the walk's cap with its archives' members.
    let files = out.entries.len() as u64;
    let (archives, plain): (Vec<Entry>, Vec<Entry>) = std::mem::take(&mut out.entries)
        .into_iter()
        .partition(|e| formats::has_archive_name(&e.path) && !formats::is_compressed_log(&e.path));
    out.entries = plain;
    let walk = Budget::for_walk();
    walk.add_files(files);
    let mut opened: Vec<Collected> = archives
        .par_iter()
        .map(|e| open_archive(e, parse, &walk))
        .collect();
    if walk.tripped().is_some() || walk.past_file_cap() {
        // Where the walk's budget or file cap ran out depends on which archive's thread
        // got there first: read them again one at a time in name order, so that it runs
        // out at the same member on every run.
        drop(opened);
        let walk = Budget::for_walk();
        walk.add_files(files);
        opened = archives
            .iter()
            .map(|e| open_archive(e, parse, &walk))
            .collect();
    }
    for sub in opened {
        merge(&mut out, sub);
    }
    out
}

/// A folder's file named like an archive, opened by what it holds (a compression of one
/// plain file is read later, when wanted), its budget counted into `walk`'s.
fn open_archive(e: &Entry, parse: Option<&ParseMember>, walk: &Arc<Budget>) -> Collected {
    let mut sub = Collected::default();
    let EntryData::File(file) = &e.data else {
        return sub;
    };
    if walk.tripped().is_some() {
        sub.problems.push(SourceProblem {
            path: e.path.clone(),
            message: "the input's archives before this one spent its inflate budget (see the \
                      problem that says where); not read"
                .into(),
        });
        return sub;
    }
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
    match open_file(file, &e.path, false, parse, None, Some(walk), &mut sub) {
        Ok(true) => {}
        Ok(false) => sub.entries.push(Entry {
            path: e.path.clone(),
            data: EntryData::File(file.clone()),
        }),
        Err(err) => sub.problems.push(SourceProblem {
            path: e.path.clone(),
            message: format!("cannot read: {err}"),
        }),
    }
    sub
}

/// What the walk found in one folder, in the order a serial walk in name order meets
/// it (a folder's contents right after it): folders are read in parallel, on 2 cores a
/// must-gather's 8,000 folders in about half the time, and read out in that order.
enum Found {
    File(PathBuf),
    /// A path (none when the folder's listing itself failed part way) and what is wrong.
    Problem(Option<PathBuf>, String),
    /// A FIFO, device or socket, and which.
    NotRegular(PathBuf, &'static str),
    Symlink,
    Mount(PathBuf),
    Folder(Vec<Found>),
}

/// One walk's bounds: the root's device, and the files counted so far against the limit
/// (a walk past it stops descending; the serial walk then names where it stopped).
struct Walk {
    root_device: Option<u64>,
    files: AtomicU64,
    max_files: u64,
}

impl Walk {
    /// The folder's entries, sorted by name as `walkdir`'s `sort_by_file_name` does (a
    /// listing error first), each folder among them walked in parallel.
    fn dir(&self, dir: &Path) -> Vec<Found> {
        if self.files.load(Ordering::Relaxed) > self.max_files {
            return Vec::new();
        }
        let listing = match std::fs::read_dir(dir) {
            Ok(listing) => listing,
            Err(e) => return vec![io_problem(dir, &e)],
        };
        let mut entries: Vec<Result<(PathBuf, std::fs::FileType), Found>> = listing
            .map(|item| match item {
                Ok(item) => item
                    .file_type()
                    .map(|t| (item.path(), t))
                    .map_err(|e| io_problem(&item.path(), &e)),
                Err(e) => Err(Found::Problem(None, e.to_string())),
            })
            .collect();
        entries.sort_by(|a, b| match (a, b) {
            (Ok((a, _)), Ok((b, _))) => a.file_name().cmp(&b.file_name()),
            (Err(_), Err(_)) => std::cmp::Ordering::Equal,
            (Ok(_), Err(_)) => std::cmp::Ordering::Greater,
            (Err(_), Ok(_)) => std::cmp::Ordering::Less,
        });
        let one = |entry| self.entry(entry);
        if entries
            .iter()
            .any(|e| matches!(e, Ok((_, t)) if t.is_dir()))
        {
            entries.into_par_iter().filter_map(one).collect()
        } else {
            entries.into_iter().filter_map(one).collect()
        }
    }

    fn entry(&self, entry: Result<(PathBuf, std::fs::FileType), Found>) -> Option<Found> {
        let (path, ft) = match entry {
            Ok(entry) => entry,
            Err(problem) => return Some(problem),
        };
        if ft.is_symlink() {
            return Some(Found::Symlink);
        }
        if ft.is_dir() {
            // `.git/`, `.vscode/`: not walked (see `layout::is_editor_or_hidden`).
            if path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(crate::ingest::layout::is_editor_or_hidden)
            {
                return None;
            }
            let device = std::fs::symlink_metadata(&path)
                .ok()
                .and_then(|m| device_of(&m));
            if self.root_device.is_some() && device != self.root_device {
                return Some(Found::Mount(path));
            }
            return Some(Found::Folder(self.dir(&path)));
        }
        if let Some(kind) = special_kind(&ft) {
            return Some(Found::NotRegular(path, kind));
        }
        if !ft.is_file() {
            return None;
        }
        self.files.fetch_add(1, Ordering::Relaxed);
        Some(Found::File(path))
    }

    /// Puts what the walk found into `out` in the serial walk's order.
    fn read_out(
        &self,
        found: Vec<Found>,
        root: &Path,
        out: &mut Collected,
        mounts: &mut Vec<PathBuf>,
    ) {
        for f in found {
            match f {
                Found::File(path) => out.entries.push(Entry {
                    path: relative(root, &path),
                    data: EntryData::File(path),
                }),
                Found::Problem(path, message) => out.problems.push(SourceProblem {
                    path: problem_path(root, path.as_deref()),
                    message: format!("cannot read: {message}"),
                }),
                Found::NotRegular(path, kind) => out.problems.push(SourceProblem {
                    path: relative(root, &path),
                    message: not_regular(kind).to_string(),
                }),
                Found::Symlink => out.symlinks += 1,
                Found::Mount(path) => mounts.push(path),
                Found::Folder(inside) => self.read_out(inside, root, out, mounts),
            }
        }
    }
}

/// An I/O error on `path`, worded as `walkdir` words it.
fn io_problem(path: &Path, e: &std::io::Error) -> Found {
    Found::Problem(
        Some(path.to_path_buf()),
        format!("IO error for operation on {}: {e}", path.display()),
    )
}

/// A file's path in the folder, with `/` between its parts. A `\\` in a name (allowed on
/// Unix) stays: only the platform's separators are separators.
fn relative(root: &Path, path: &Path) -> String {
    slashed(path.strip_prefix(root).unwrap_or(path))
}

/// `path`'s parts joined by `/`.
fn slashed(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// The path a walk error names, relative to the root (empty when it names none).
fn problem_path(root: &Path, path: Option<&Path>) -> String {
    path.and_then(|p| p.strip_prefix(root).ok())
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The walk one file at a time in name order, which stops at the file past the limit
/// and names it (its mounts and problems are those met before it).
fn walk_in_order(
    root: &Path,
    root_device: Option<u64>,
    max_files: u64,
    out: &mut Collected,
    mounts: &mut Vec<PathBuf>,
) {
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
            // `.git/`, `.vscode/`: not walked (see `layout::is_editor_or_hidden`).
            let hidden = e.depth() > 0
                && e.file_type().is_dir()
                && e.file_name()
                    .to_str()
                    .is_some_and(crate::ingest::layout::is_editor_or_hidden);
            !other && !hidden
        });
    for item in walker {
        let item = match item {
            Ok(i) => i,
            Err(e) => {
                out.problems.push(SourceProblem {
                    path: problem_path(root, e.path()),
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
        let rel = relative(root, item.path());
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What a walk gave, comparable: entries' paths, problems, link count.
    fn seen(c: &Collected) -> (Vec<String>, Vec<(String, String)>, usize) {
        let entries = c.entries.iter().map(|e| e.path.clone()).collect();
        let problems = c
            .problems
            .iter()
            .map(|p| (p.path.clone(), p.message.clone()))
            .collect();
        (entries, problems, c.symlinks)
    }

    /// The parallel walk meets files, links, special files and folders in the order the
    /// serial walk in name order does, so the file limit and the problems read the same.
    #[test]
    fn the_parallel_walk_reads_out_as_the_serial_walk() {
        let root = std::env::temp_dir().join(format!("kdiag-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (i, dir) in ["b/z", "b/a/deep/er", "a", "c.d", "c"].iter().enumerate() {
            let dir = root.join(dir);
            std::fs::create_dir_all(&dir).unwrap();
            for f in 0..(7 * i + 3) {
                std::fs::write(dir.join(format!("f{}.yaml", 13 * f % 31)), "x: 1\n").unwrap();
            }
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", root.join("b/link")).unwrap();
            std::os::unix::fs::symlink("../a", root.join("c/up")).unwrap();
            let fifo = root.join("b/a/pipe");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        }
        let parallel = collect_dir(&root, None);
        let mut serial = Collected::default();
        let mut mounts = Vec::new();
        let device = std::fs::metadata(&root).ok().and_then(|m| device_of(&m));
        walk_in_order(&root, device, u64::MAX, &mut serial, &mut mounts);
        std::fs::remove_dir_all(&root).unwrap();
        assert!(mounts.is_empty());
        let (files, problems, links) = seen(&parallel);
        assert_eq!((files.len(), links), (85, 2));
        assert_eq!(problems.len(), usize::from(cfg!(unix)));
        assert_eq!(seen(&parallel), seen(&serial));
    }
}

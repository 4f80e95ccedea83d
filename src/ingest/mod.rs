//! Ingest: PATHs → files → parsed objects with their source lines, in parallel.
//!
//! Nothing here decides what is wrong with the cluster; it only says what the bundle
//! holds, and reports every file it could not use as a [`Problem`]. It reads text
//! through [`crate::parse`] and builds the views of [`crate::kube`]; the store
//! ([`crate::snapshot`]) is built from what it returns.

pub mod body;
pub mod buffers;
pub mod clock;
pub mod content;
pub mod dump_logs;
pub mod early;
pub mod header;
pub mod json;
pub mod kubectl_table;
pub mod layout;
pub mod listing;
pub mod locate;
pub mod objects;
pub mod rancher;
pub mod source;
pub mod want;
#[cfg(test)]
mod yaml_reads;

use crate::kube::time::parse_timestamp;
use crate::parse::spans;
use content::FileRead;
pub use content::scan_yaml;
use layout::{Detected, FileClass, Layout, LogKey};
use objects::RawObject;
use rayon::prelude::*;
use serde::Serialize;
use source::{Collected, Entry, EntryData};
use std::path::PathBuf;
pub use want::{UnreadPlaces, Want};

/// One PATH argument.
#[derive(Clone, Debug)]
pub enum InputArg {
    Path(PathBuf),
    Stdin,
}

impl InputArg {
    pub fn display(&self) -> String {
        match self {
            InputArg::Path(p) => p.display().to_string(),
            InputArg::Stdin => "-".to_string(),
        }
    }
}

/// What ingest learned about one input, before analysis adds counts and notes.
#[derive(Debug)]
pub struct InputInfo {
    pub path: String,
    pub layout: Layout,
    /// Where the layout starts inside the input (`""` or a folder ending in `/`).
    pub root: String,
    /// The snapshot time (see [`clock`]).
    pub as_of: Option<i64>,
    /// The snapshot time is only the newest object creation time: no bundle metadata
    /// or event gives it, so it is a lower bound (files may have been taken apart).
    pub as_of_from_objects: bool,
    pub cluster_version: Option<String>,
    pub files: usize,
    pub skipped: usize,
    pub notes: Vec<String>,
}

pub use crate::parse::KeptText;

/// A file that held objects; its text is kept so findings can quote and cite it.
#[derive(Debug)]
pub struct SourceFile {
    pub input: usize,
    pub path: String,
    /// Empty once the store has kept no copy from this file and no problem names it
    /// (nothing quotes it then).
    pub text: KeptText,
    /// Byte offset of every [`LINE_STRIDE`]th line start, built on first use (only files
    /// cited by findings).
    line_starts: std::sync::OnceLock<Vec<u32>>,
    /// Lines of Secret objects in this file (set by the snapshot): [`SourceFile::quote`]
    /// masks their values.
    pub secret_spans: Vec<spans::Span>,
}

impl SourceFile {
    pub fn new(input: usize, path: String, text: KeptText) -> Self {
        SourceFile {
            input,
            path,
            text,
            line_starts: std::sync::OnceLock::new(),
            secret_spans: Vec::new(),
        }
    }

    /// Lines `start..=end` for showing to a person: like [`SourceFile::lines`], but the
    /// values under a Secret's `data` / `stringData` read `<redacted>`.
    pub fn quote(&self, start: u32, end: u32) -> std::borrow::Cow<'_, str> {
        let text = self.lines(start, end);
        let overlapping: Vec<spans::Span> = self
            .secret_spans
            .iter()
            .filter(|s| s.start <= end.max(start) && s.end >= start)
            .copied()
            .collect();
        if overlapping.is_empty() {
            return std::borrow::Cow::Borrowed(text);
        }
        let mut masked = std::collections::HashSet::new();
        for span in overlapping {
            masked.extend(secret_value_lines(
                self.lines(span.start, span.end),
                span.start,
            ));
        }
        let out: Vec<String> = text
            .split('\n')
            .zip(start.max(1)..)
            .map(|(line, no)| {
                if !masked.contains(&no) {
                    return line.to_string();
                }
                match line.find(": ").or_else(|| line.find(":")) {
                    Some(i) => format!("{} <redacted>", &line[..=i]),
                    None => "<redacted>".to_string(),
                }
            })
            .collect();
        std::borrow::Cow::Owned(out.join("\n"))
    }

    /// The text of lines `start..=end` (1-based), without a final newline.
    pub fn lines(&self, start: u32, end: u32) -> &str {
        let from = self.line_start(start.max(1));
        let to = self.line_start(end.max(start).saturating_add(1)).max(from);
        self.text[from..to]
            .strip_suffix('\n')
            .unwrap_or(&self.text[from..to])
    }

    /// Byte offset where 1-based `line` starts (the text's length past the last line).
    /// The index keeps every [`LINE_STRIDE`]th line start; the rest is a short memchr
    /// walk. A full index was 4 bytes per line of every cited file (15 MB at 100 MB).
    pub fn line_start(&self, line: u32) -> usize {
        let bytes = self.text.as_bytes();
        let index = self.line_starts.get_or_init(|| {
            // Offsets fit in u32: entries parsed as objects are far below 4 GiB.
            std::iter::once(0)
                .chain(memchr::memchr_iter(b'\n', bytes).map(|i| i as u32 + 1))
                .step_by(LINE_STRIDE)
                .collect()
        });
        let n = line - 1;
        let Some(&base) = index.get((n / LINE_STRIDE as u32) as usize) else {
            return bytes.len();
        };
        let mut at = base as usize;
        for _ in 0..n % LINE_STRIDE as u32 {
            match memchr::memchr(b'\n', &bytes[at..]) {
                Some(i) => at += i + 1,
                None => return bytes.len(),
            }
        }
        at
    }
}

/// Lines per entry of a [`SourceFile`]'s line index.
const LINE_STRIDE: usize = 32;

/// Line numbers, within one Secret's text starting at line `first`, that hold values of
/// its `data`, `stringData` or `binaryData`, or a token annotation (YAML or indented JSON;
/// a one-line JSON object is all masked).
fn secret_value_lines(text: &str, first: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut block: Option<usize> = None;
    for (line, no) in text.split('\n').zip(first..) {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some(b) = block {
            if indent > b && !trimmed.is_empty() {
                out.push(no);
                continue;
            }
            block = None;
        }
        let key = trimmed.trim_start_matches("- ").trim_start_matches('"');
        if crate::ingest::objects::TOKEN_ANNOTATIONS
            .iter()
            .any(|a| trimmed.contains(a))
        {
            out.push(no);
        } else if ["data", "stringData", "binaryData"]
            .iter()
            .any(|f| key.starts_with(f))
        {
            let after = key
                .split_once(':')
                .map(|(k, v)| (k.trim_end_matches('"'), v.trim()));
            if let Some((k, v)) = after
                && (k == "data" || k == "stringData" || k == "binaryData")
            {
                if v.is_empty() || v == "{" {
                    block = Some(indent);
                } else if v != "{}" && v != "{}," {
                    out.push(no);
                }
            }
        } else if ["\"data\"", "\"stringData\"", "\"binaryData\""]
            .iter()
            .any(|f| trimmed.contains(f))
        {
            out.push(no);
        }
    }
    out
}

/// A file or object the bundle should have given us and did not.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    pub input: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    pub message: String,
}

/// A container log, read only when someone asks for it.
pub struct LogSource {
    pub key: LogKey,
    pub input: usize,
    pub path: String,
    pub data: EntryData,
}

pub struct Loaded {
    pub inputs: Vec<InputInfo>,
    pub files: Vec<SourceFile>,
    /// The objects of each file (indexed as [`Loaded::files`]), in the file's order: one
    /// vector per file, so no copy of all the objects is made to gather them.
    pub objects: Vec<Vec<RawObject>>,
    pub problems: Vec<Problem>,
    pub logs: Vec<LogSource>,
    /// A selective read: objects a full read holds may be missing (see [`Want`]).
    pub partial: bool,
    /// Events read only for their times (see [`Want::times_only`]), not kept.
    pub events_elsewhere: usize,
    /// Kinds of the objects of files read only to tell they are there (see
    /// [`Want::counting`]); those objects are not kept.
    pub present_elsewhere: std::collections::BTreeSet<String>,
    /// What the files a selective read left can hold, by their places.
    pub unread: UnreadPlaces,
    /// Per input, the members a selective read of a stream archive left and kept (see
    /// [`Want::sparing`]), when it kept every one.
    pub spared: Vec<locate::Spare>,
    /// The whole listings of a kind the files read hold (see [`listing`]).
    pub listings: Vec<listing::Listing>,
}

/// Who an object is, without the object: of the files read only to tell which objects
/// they hold (see [`Want::counting`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    pub api_version: String,
    pub kind: String,
    pub namespace: Option<String>,
    pub name: String,
}

impl From<RawObject> for Located {
    fn from(o: RawObject) -> Located {
        Located {
            api_version: o.api_version,
            kind: o.kind,
            namespace: o.namespace,
            name: o.name,
        }
    }
}

/// A PATH that does not exist or cannot be opened: a usage error (exit 2).
#[derive(Debug)]
pub struct InputError(pub String);

/// Loads every input. Unreadable content becomes problems; only a missing or
/// unopenable PATH is an error.
pub fn load(args: &[InputArg]) -> Result<Loaded, InputError> {
    load_wanted(args, &Want::all())
}

impl Loaded {
    fn empty() -> Loaded {
        Loaded {
            inputs: Vec::new(),
            files: Vec::new(),
            objects: Vec::new(),
            problems: Vec::new(),
            logs: Vec::new(),
            partial: false,
            events_elsewhere: 0,
            present_elsewhere: Default::default(),
            unread: UnreadPlaces::default(),
            spared: Vec::new(),
            listings: Vec::new(),
        }
    }

    /// Appends what another load read (its objects' file indexes follow ours).
    fn append(&mut self, other: Loaded) {
        self.inputs.extend(other.inputs);
        self.files.extend(other.files);
        self.objects.extend(other.objects);
        self.problems.extend(other.problems);
        self.logs.extend(other.logs);
        self.partial |= other.partial;
        self.events_elsewhere += other.events_elsewhere;
        self.unread.extend(other.unread);
        self.present_elsewhere.extend(other.present_elsewhere);
        self.spared.extend(other.spared);
        self.listings.extend(other.listings);
    }
}

/// Loads of every input what `want` names (see [`want`]): the objects a full read gives
/// of those kinds, namespaces and names, and the snapshot time a full read gives.
/// `KDIAG_READ_ALL=1` makes it a full read; stdin, which cannot be read twice, always is.
pub fn load_wanted(args: &[InputArg], want: &Want) -> Result<Loaded, InputError> {
    source::read_limits();
    let read_all = std::env::var_os("KDIAG_READ_ALL").is_some_and(|v| v == "1");
    let mut loaded = Loaded::empty();
    let stats = std::env::var_os("KDIAG_STATS").is_some();
    for (input, arg) in args.iter().enumerate() {
        // The snapshot time is checked against the newest event of every namespace (or
        // the newest object, without events): a selective read reads every event.
        let mut want = match want.needs_time() {
            true => want.clone().with_all_events(),
            false => want.clone(),
        };
        if read_all || matches!(arg, InputArg::Stdin) {
            want = Want::all();
        }
        loop {
            let t = std::time::Instant::now();
            let pick = (!want.is_all()).then_some(&want);
            let collected = match arg {
                InputArg::Stdin => source::collect_stdin(Some(&parse_member)),
                InputArg::Path(p) => source::collect_picked(p, Some(&parse_member), pick),
            }
            .map_err(|e| InputError(format!("{}: {e}", arg.display())))?;
            let t_collect = t.elapsed();
            let mut part = Loaded::empty();
            let wider = load_input(input, arg, collected, &mut part, &want);
            part.partial = !want.is_all();
            if stats {
                eprintln!(
                    "kdiag stats: input {input}: collect {:.3}s, parse {:.3}s, {}",
                    t_collect.as_secs_f64(),
                    (t.elapsed() - t_collect).as_secs_f64(),
                    if want.is_all() {
                        "full read"
                    } else {
                        "selective read"
                    },
                );
            }
            match wider {
                None => {
                    loaded.append(part);
                    break;
                }
                Some(wider) => want = wider,
            }
        }
    }
    buffers::release();
    Ok(loaded)
}

/// Parses an archive member as it is read, when the layout (known only once every path
/// is) cannot change how: see [`layout::parse_early`].
pub fn parse_member(path: &str, bytes: Vec<u8>) -> EntryData {
    if layout::parse_early(path) {
        EntryData::Read(Box::new(content::read(path, bytes, true)))
    } else {
        EntryData::Bytes(bytes)
    }
}

/// [`parse_member`] for a member read only for its Events' times (see
/// [`Want::times_only`]): without the views of its Events.
pub fn parse_for_times(path: &str, bytes: Vec<u8>) -> EntryData {
    if layout::parse_early(path) {
        EntryData::Read(Box::new(content::read_with(path, bytes, true, false)))
    } else {
        EntryData::Bytes(bytes)
    }
}

/// What one file turned out to be.
enum Outcome {
    Objects {
        text: KeptText,
        extracted: objects::Extracted,
        error: Option<spans::ParseError>,
        listings: Vec<listing::Listing>,
    },
    /// An empty file or a `List` with no items, and the listings that proves.
    Empty(Vec<listing::Listing>),
    /// Not objects, and why (the input's notes count the reasons).
    Skipped(Skip),
    Log,
    /// Times that date the snapshot: (from metadata, event times).
    Times(Vec<i64>, Vec<i64>),
    /// A file of Events read only for their times (see [`Want::times_only`]): how many
    /// Events it holds, and their times.
    EventTimes(usize, Vec<i64>),
    /// A file read only to tell which objects it holds (see [`Want::counting`]).
    Counted(Vec<Located>),
    ClusterVersion(Option<String>),
    Problem(Option<u32>, String),
}

/// Reads one input's entries into `loaded`, those `want` admits. Returns a wider want
/// instead when this read cannot give the full read's answer: members left unread
/// belong to the layout the whole input decides, or the snapshot time needs more.
fn load_input(
    input: usize,
    arg: &InputArg,
    mut collected: Collected,
    loaded: &mut Loaded,
    want: &Want,
) -> Option<Want> {
    collected.entries.sort_by(|a, b| a.path.cmp(&b.path));
    let paths = collected.entries.iter().map(|e| e.path.as_str());
    let detected = layout::detect(paths.chain(collected.dropped.iter().map(String::as_str)));
    if collected.dropped.iter().any(|p| want.admits(&detected, p)) {
        return Some(Want::all());
    }
    if let Some(spare) = locate::Spare::of(input, &detected, &mut collected, want) {
        loaded.spared.push(spare);
    }
    // Files a selective read leaves: they are neither read nor counted.
    for path in std::mem::take(&mut collected.dropped) {
        loaded.unread.add(&detected, &path);
    }
    collected.entries.retain(|e| {
        let admitted = want.admits(&detected, &e.path);
        if !admitted {
            loaded.unread.add(&detected, &e.path);
        }
        admitted
    });
    let layout = detected.layout;
    let mut info = InputInfo {
        path: arg.display(),
        layout,
        root: detected.root.clone(),
        as_of: None,
        as_of_from_objects: false,
        cluster_version: None,
        files: collected.entries.len(),
        skipped: 0,
        notes: vec![detected.note()],
    };
    link_notes(&collected, &mut info.notes);
    for p in collected.problems {
        loaded.problems.push(Problem {
            input,
            file: Some(p.path),
            line: None,
            message: p.message,
        });
    }
    let classes: Vec<FileClass> = collected
        .entries
        .iter()
        .map(|e| match detected.classify(&e.path) {
            FileClass::Skip if collected.named_file => FileClass::MaybeObjects,
            class => class,
        })
        .collect();
    let times_only: Vec<bool> = collected
        .entries
        .iter()
        .map(|e| want.times_only(&detected, &e.path))
        .collect();
    let table_time = (layout == Layout::RancherLogsCollector)
        .then(|| {
            rancher::table_time(
                &detected.root,
                &arg.display(),
                &mut collected.entries,
                &mut info.notes,
            )
        })
        .flatten();
    let now = table_time.as_ref().map(|(t, _)| *t);
    let outcomes: Vec<(Outcome, Vec<dump_logs::Section>)> = collected
        .entries
        .par_iter_mut()
        .zip(classes.par_iter())
        .zip(times_only.par_iter())
        .map(|((entry, class), &times_only)| process(entry, class, times_only, &detected, now))
        .collect();
    // Files read in a way the input's notes say.
    let (mut placeholders, mut internal_dumps) = (0, Vec::new());
    let first_file = loaded.files.len();
    let mut times = clock::Candidates::default();
    let mut skipped = Skipped::default();
    let mut dump_sections = Vec::new();
    for ((entry, class), outcome) in collected.entries.into_iter().zip(classes).zip(outcomes) {
        let (outcome, sections) = outcome;
        let held_logs = !sections.is_empty();
        if held_logs {
            dump_sections.push(format!("{} ({})", entry.path, sections.len()));
        }
        for s in sections {
            loaded.logs.push(LogSource {
                key: s.key,
                input,
                path: entry.path.clone(),
                data: EntryData::Section {
                    bytes: s.bytes,
                    skipped_lines: s.skipped_lines,
                },
            });
        }
        match outcome {
            // A file of logs and no objects was read, not skipped.
            Outcome::Skipped(_) if held_logs => {}
            Outcome::Skipped(why) => {
                info.skipped += 1;
                skipped.add(why, &entry.path);
            }
            Outcome::Empty(listings) => {
                info.skipped += 1;
                skipped.add(Skip::Empty, &entry.path);
                loaded.listings.extend(listings);
            }
            Outcome::Log => {
                if let FileClass::Log(key) = class {
                    loaded.logs.push(LogSource {
                        key,
                        input,
                        path: entry.path,
                        data: entry.data,
                    });
                }
            }
            Outcome::Times(metadata, events) => {
                info.skipped += 1;
                skipped.add(Skip::Metadata, &entry.path);
                let what = match class {
                    FileClass::BundleMetadata => "metadata.yaml bundlecreatedat",
                    FileClass::CaptureDate => "systeminfo/date",
                    _ => "timestamp file",
                };
                times
                    .metadata
                    .extend(metadata.into_iter().map(|t| (t, what.to_string())));
                times
                    .events
                    .extend(events.into_iter().map(|t| (t, entry.path.clone())));
            }
            Outcome::Counted(located) => {
                info.skipped += 1;
                let kinds = located.into_iter().map(|l| l.kind);
                loaded.present_elsewhere.extend(kinds);
            }
            Outcome::EventTimes(count, events) => {
                loaded.events_elsewhere += count;
                times
                    .events
                    .extend(events.into_iter().map(|t| (t, entry.path.clone())));
            }
            Outcome::ClusterVersion(v) => {
                info.skipped += 1;
                skipped.add(Skip::Metadata, &entry.path);
                info.cluster_version = info.cluster_version.take().or(v);
            }
            Outcome::Problem(line, message) => loaded.problems.push(Problem {
                input,
                file: Some(entry.path),
                line,
                message,
            }),
            Outcome::Objects {
                text,
                extracted,
                error,
                listings,
            } => {
                loaded.listings.extend(listings);
                placeholders += usize::from(extracted.placeholders);
                if extracted.internal_dump {
                    internal_dumps.push(entry.path.clone());
                }
                for d in extracted.defects {
                    loaded.problems.push(Problem {
                        input,
                        file: Some(entry.path.clone()),
                        line: d.line,
                        message: d.message,
                    });
                }
                if let Some(e) = error {
                    loaded.problems.push(Problem {
                        input,
                        file: Some(entry.path.clone()),
                        line: e.line,
                        message: e.message,
                    });
                }
                loaded.objects.push(extracted.objects);
                loaded.files.push(SourceFile::new(input, entry.path, text));
            }
        }
    }
    if !dump_sections.is_empty() {
        info.notes.push(format!(
            "container logs read from `kubectl cluster-info dump` sections (==== START logs for container … ====) in: {}",
            dump_sections.join(", ")
        ));
    }
    if placeholders > 0 {
        info.notes.push(format!(
            "{placeholders} YAML file(s) hold troubleshoot's redaction placeholder {} as a plain value, which YAML reads as an alias: read as the redacted text",
            crate::parse::redaction::PLACEHOLDER
        ));
    }
    if let Some(first) = internal_dumps.first() {
        info.notes.push(format!(
            "{} file(s) read as an old kubectl cluster-info dump (internal types, kubectl 1.13 or older; kind from the file name), e.g. {first}",
            internal_dumps.len()
        ));
    }
    object_times(loaded, input, first_file, layout, &mut times);
    if let Some((t, what)) = table_time {
        times.metadata.push((t, what));
    }
    // Without events, the snapshot time is the newest object's, or the metadata's checked
    // against it: every object counts.
    if !want.is_all() && want.needs_time() && times.events.is_empty() {
        return Some(Want::all());
    }
    let (as_of, from_objects, notes) = clock::decide(times);
    info.as_of = as_of;
    info.as_of_from_objects = from_objects;
    info.notes.extend(notes);
    info.notes.extend(skipped.note());
    loaded.inputs.push(info);
    None
}

/// The links of a bundle that were not followed, in its notes.
fn link_notes(collected: &Collected, notes: &mut Vec<String>) {
    for (count, what) in [
        (collected.symlinks, "symbolic"),
        (collected.hardlinks, "hard"),
    ] {
        if count > 0 {
            notes.push(format!(
                "{count} {what} link(s) in the bundle were not followed"
            ));
        }
    }
}

/// The snapshot time's candidates from what this input's files hold (from `first_file`
/// on): troubleshoot's folder name, each object's and each Event's newest time.
fn object_times(
    loaded: &Loaded,
    input: usize,
    first_file: usize,
    layout: Layout,
    times: &mut clock::Candidates,
) {
    if layout == Layout::Troubleshoot
        && let Some(t) = loaded
            .files
            .iter()
            .filter(|f| f.input == input)
            .find_map(|f| troubleshoot_folder_time(&f.path))
    {
        times
            .metadata
            .push((t, "support-bundle-<time> folder name".to_string()));
    }
    for (file, objects) in loaded.files[first_file..]
        .iter()
        .zip(&loaded.objects[first_file..])
    {
        for o in objects {
            if let Some(t) = o.time {
                let file = file.path.clone();
                match o.kind.as_str() {
                    "Event" => times.events.push((t, file)),
                    _ => times.objects.push((t, file)),
                }
            }
        }
    }
    // Without events, the newest object is the clock: a status time is nearer the capture
    // than any creation time (one `kubectl get pod -o yaml` is dated by its conditions).
    if times.events.is_empty() {
        for (file, objects) in loaded.files[first_file..]
            .iter()
            .zip(&loaded.objects[first_file..])
        {
            for o in objects.iter().filter(|o| o.kind != "Event") {
                if let Some(t) = clock::status_time(&o.value()) {
                    times.objects.push((t, file.path.clone()));
                }
            }
        }
    }
}

/// Why a file holds no objects kdiag reads.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Skip {
    /// The layout puts no objects there (logs of other kinds, collector output, HTML …).
    NotInLayout,
    /// Bundle metadata: a timestamp, a version, Insights' compact events.
    Metadata,
    /// Text without Kubernetes objects (not YAML or JSON, or other YAML or JSON), where
    /// the layout allows other files. One reason: an archive member is read before the
    /// layout is known, and may be found to be no YAML by another path than a file.
    NoObjects,
    /// An empty file, or a `List` with no items.
    Empty,
    /// Not text.
    Binary,
}

impl Skip {
    fn words(self) -> &'static str {
        match self {
            Skip::NotInLayout => "not object files in this layout",
            Skip::Metadata => "bundle metadata",
            Skip::NoObjects => "text without Kubernetes objects",
            Skip::Empty => "empty, or a List with no items",
            Skip::Binary => "not text",
        }
    }
}

/// Skipped files by reason, each with the first path (entries come sorted), so a user
/// can see that no file holding objects was left out.
#[derive(Default)]
struct Skipped(Vec<(Skip, usize, String)>);

impl Skipped {
    fn add(&mut self, why: Skip, path: &str) {
        match self.0.iter_mut().find(|(w, _, _)| *w == why) {
            Some((_, n, _)) => *n += 1,
            None => self.0.push((why, 1, path.to_string())),
        }
    }

    fn note(mut self) -> Option<String> {
        if self.0.is_empty() {
            return None;
        }
        self.0.sort();
        let total: usize = self.0.iter().map(|(_, n, _)| n).sum();
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(why, n, first)| format!("{n} {} (e.g. {first})", why.words()))
            .collect();
        Some(format!("skipped {total} file(s): {}", parts.join("; ")))
    }
}

/// `support-bundle-2026-11-20T09_14_02/…` → the time in the folder name.
fn troubleshoot_folder_time(path: &str) -> Option<i64> {
    let first = path.split('/').next()?;
    let stamp = first.strip_prefix("support-bundle-")?;
    parse_timestamp(&stamp.replace('_', ":"))
}

/// Reads one file (a log is only classified: its entry keeps its content for later);
/// a file of Events read only for their times (`times_only`) keeps neither its text nor
/// its Events when it holds nothing else. The logs a cluster-info dump holds after its
/// objects come apart (see [`dump_logs`]). `now` is the capture time a kubectl table's
/// ages count back from.
fn process(
    entry: &mut Entry,
    class: &FileClass,
    times_only: bool,
    detected: &Detected,
    now: Option<i64>,
) -> (Outcome, Vec<dump_logs::Section>) {
    let none = Vec::new;
    let expects_objects = match class {
        FileClass::Skip => return (Outcome::Skipped(Skip::NotInLayout), none()),
        FileClass::Log(_) => return (Outcome::Log, none()),
        FileClass::KubectlTable(kind) => match rancher::table_read(entry, kind, now) {
            Ok(Some(read)) => {
                entry.data = EntryData::Read(Box::new(read));
                true
            }
            Ok(None) => return (Outcome::Skipped(Skip::NoObjects), none()),
            Err(e) => return (Outcome::Problem(None, e), none()),
        },
        FileClass::Timestamp
        | FileClass::CaptureDate
        | FileClass::BundleMetadata
        | FileClass::EventTimes
        | FileClass::ClusterVersion => return (bundle_metadata(entry, class), none()),
        FileClass::Objects => true,
        FileClass::MaybeObjects => false,
    };
    let mut logs = Vec::new();
    let read = match entry.take_read() {
        Some(read) => read,
        None => match entry.take() {
            Ok(mut bytes) => {
                logs = dump_logs::split_off(&mut bytes);
                content::read_with(&entry.path, bytes, expects_objects, !times_only)
            }
            Err(e) => {
                let problem = Outcome::Problem(None, format!("cannot read: {e}"));
                return (problem, none());
            }
        },
    };
    let outcome = read_outcome(read, expects_objects, times_only, detected, &entry.path);
    (outcome, logs)
}

/// What a file's content gave (see [`process`]).
fn read_outcome(
    read: FileRead,
    expects_objects: bool,
    times_only: bool,
    detected: &Detected,
    path: &str,
) -> Outcome {
    if times_only && let Some((count, times)) = times_of_events(&read) {
        return Outcome::EventTimes(count, times);
    }
    let read = match times_only {
        true => match located_of(read) {
            Ok(located) => return Outcome::Counted(located),
            Err(read) => read,
        },
        false => read,
    };
    match read {
        FileRead::NotText(msg) if expects_objects => Outcome::Problem(None, msg),
        FileRead::NotText(_) => Outcome::Skipped(Skip::Binary),
        FileRead::Unparsed => Outcome::Skipped(Skip::NoObjects),
        FileRead::Parsed {
            looks_like_objects,
            starts_like_objects,
            text,
            extracted,
            error,
        } => {
            // A file that starts as objects do and does not parse is a problem wherever it
            // is (a List cut in the middle of an item), and keeps the objects read before.
            let expects_objects = expects_objects || (starts_like_objects && error.is_some());
            if !expects_objects && (!looks_like_objects || extracted.objects.is_empty()) {
                // Collector output that is not Kubernetes objects: nothing to report.
                return Outcome::Skipped(Skip::NoObjects);
            }
            let listings = match error {
                None => listing::of_file(detected, path, &extracted),
                Some(_) => Vec::new(),
            };
            if expects_objects
                && extracted.objects.is_empty()
                && extracted.defects.is_empty()
                && error.is_none()
            {
                // An empty file or a `List` with no items: a valid, empty answer.
                return Outcome::Empty(listings);
            }
            // Held until the store takes them: no spare room.
            let mut extracted = extracted;
            extracted.objects.shrink_to_fit();
            Outcome::Objects {
                text,
                extracted,
                error,
                listings,
            }
        }
    }
}

/// What a file parsed into when it parsed whole, with nothing its input's notes or
/// problems must say (a defect, troubleshoot's placeholder, an internal dump).
fn read_cleanly(read: &FileRead) -> Option<&objects::Extracted> {
    let FileRead::Parsed {
        extracted,
        error: None,
        ..
    } = read
    else {
        return None;
    };
    (extracted.defects.is_empty() && !extracted.placeholders && !extracted.internal_dump)
        .then_some(extracted)
}

/// The times of a file's Events as a full read counts them (see `clock`), when it holds
/// Events only and read without a problem; else `None` (its objects are kept).
fn times_of_events(read: &FileRead) -> Option<(usize, Vec<i64>)> {
    let extracted = read_cleanly(read)?;
    let only_events =
        !extracted.objects.is_empty() && extracted.objects.iter().all(|o| o.kind == "Event");
    only_events.then(|| {
        let times = extracted.objects.iter().filter_map(|o| o.time).collect();
        (extracted.objects.len(), times)
    })
}

/// Who the objects of a file read only to tell which it holds are, taken from it: the
/// read back (it is read as any other file) unless it parsed whole into objects, none of
/// them an Event.
fn located_of(read: FileRead) -> Result<Vec<Located>, FileRead> {
    let clean = read_cleanly(&read).is_some_and(|e| e.objects.iter().all(|o| o.kind != "Event"));
    match read {
        FileRead::Parsed { extracted, .. } if clean => {
            Ok(extracted.objects.into_iter().map(Located::from).collect())
        }
        read => Err(read),
    }
}

/// must-gather's `timestamp`, support-bundle-kit's `metadata.yaml`, Insights' compact
/// events and troubleshoot's `cluster_version.json`: what they say, never a problem.
fn bundle_metadata(entry: &mut Entry, class: &FileClass) -> Outcome {
    let text = match entry.take() {
        Ok(bytes) => match content::decode(bytes) {
            Ok(t) => t,
            Err(_) => return Outcome::Skipped(Skip::Binary),
        },
        Err(e) => return Outcome::Problem(None, format!("cannot read: {e}")),
    };
    match class {
        // Go's `time.Now().String()`, one line per gathering step:
        // `2021-08-03 12:11:56.91501602 +0200 CEST m=+1.651641915`.
        FileClass::Timestamp => {
            return Outcome::Times(text.lines().filter_map(parse_timestamp).collect(), vec![]);
        }
        FileClass::BundleMetadata => {
            let t = text.lines().find_map(|l| {
                let v = l.strip_prefix("bundlecreatedat:")?.trim();
                parse_timestamp(v.trim_matches(|c| c == '"' || c == '\''))
            });
            return Outcome::Times(t.into_iter().collect(), vec![]);
        }
        FileClass::EventTimes => return Outcome::Times(vec![], event_times(&text)),
        FileClass::CaptureDate => {
            let t = rancher::date_file_time(&text);
            return Outcome::Times(t.into_iter().collect(), vec![]);
        }
        _ => {}
    }
    let v: Option<String> = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| {
            v.get("string")
                .or_else(|| v.get("info").and_then(|i| i.get("gitVersion")))
                .and_then(|s| s.as_str())
                .map(str::to_string)
        })
        .or_else(|| rancher::server_version(&text));
    Outcome::ClusterVersion(v)
}

/// The last times of Insights' compact events (`{"items":[{"lastTimestamp":…}]}`).
fn event_times(text: &str) -> Vec<i64> {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
        return Vec::new();
    };
    let items = v.get("items").and_then(|i| i.as_array());
    items
        .into_iter()
        .flatten()
        .filter_map(|e| {
            ["lastTimestamp", "eventTime", "firstTimestamp"]
                .iter()
                .filter_map(|k| e.get(*k)?.as_str().and_then(parse_timestamp))
                .max()
        })
        .collect()
}

/// Reads a log's text on demand: the last [`source::log_tail_bytes`] of it, and the
/// line number of its first line (lines before the tail are counted, not kept).
pub fn read_log(log: &LogSource) -> std::io::Result<(String, usize)> {
    let (bytes, skipped) = match &log.data {
        EntryData::Bytes(b) => (std::borrow::Cow::Borrowed(b.as_slice()), 0),
        EntryData::LogTail {
            bytes,
            skipped_lines,
        }
        | EntryData::Section {
            bytes,
            skipped_lines,
        } => (std::borrow::Cow::Borrowed(bytes.as_slice()), *skipped_lines),
        EntryData::File(p) => {
            let mut file = std::fs::File::open(p)?;
            let (bytes, skipped) = source::read_tail(&mut file, source::log_tail_bytes())?;
            (std::borrow::Cow::Owned(bytes), skipped)
        }
        // Logs are opened as they are found (see `source::folder`): this reads whole.
        EntryData::Compressed(c) => (std::borrow::Cow::Owned(c.inflate()?), 0),
        EntryData::Read(_) => return Err(source::parsed_already()),
    };
    Ok((String::from_utf8_lossy(&bytes).into_owned(), skipped + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn lines_from_the_sparse_index_match_the_text() {
        for text in [
            (1..=100).map(|i| format!("line {i}\n")).collect::<String>(),
            (1..=65).map(|i| format!("l{i}\n")).collect::<String>() + "last",
            "\n\n\n".to_string(),
            String::new(),
        ] {
            let f = SourceFile::new(0, "x.yaml".into(), Arc::new(text.clone()));
            // The full index, as it was: every line start.
            let starts: Vec<usize> = std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect();
            let at = |l: u32| starts.get(l as usize - 1).copied().unwrap_or(text.len());
            for a in 1..=starts.len() as u32 + 2 {
                for b in a..(a + 40) {
                    let (from, to) = (at(a), at(b + 1).max(at(a)));
                    let want = text[from..to].strip_suffix('\n').unwrap_or(&text[from..to]);
                    assert_eq!(f.lines(a, b), want, "lines {a}..={b}");
                }
            }
        }
    }

    #[test]
    fn quoted_secret_values_are_masked() {
        let text = "- apiVersion: v1\n  data:\n    password: aHVudGVy\n    user: YWRtaW4=\n  kind: Secret\n  metadata:\n    name: db\n  stringData: {\"token\": \"t0p\"}\n- apiVersion: v1\n  data:\n    color: blue\n  kind: ConfigMap\n";
        let mut f = SourceFile::new(0, "x.yaml".into(), Arc::new(text.to_string()));
        f.secret_spans.push(spans::Span { start: 1, end: 8 });
        let q = f.quote(1, 11);
        assert!(
            !q.contains("aHVudGVy") && !q.contains("YWRtaW4=") && !q.contains("t0p"),
            "{q}"
        );
        assert!(
            q.contains("    password: <redacted>") && q.contains("    name: db"),
            "{q}"
        );
        assert!(q.contains("color: blue"), "ConfigMaps are not masked: {q}");
        let json = "{\n  \"kind\": \"Secret\",\n  \"data\": {\n    \"k\": \"c2VjcmV0\"\n  },\n  \"metadata\": {\"name\": \"s\"}\n}\n";
        let mut f = SourceFile::new(0, "x.json".into(), Arc::new(json.to_string()));
        f.secret_spans.push(spans::Span { start: 1, end: 7 });
        let q = f.quote(1, 7);
        assert!(
            !q.contains("c2VjcmV0") && q.contains("\"name\": \"s\""),
            "{q}"
        );
    }
}

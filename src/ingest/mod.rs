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
mod defects;
pub mod dump_logs;
pub mod early;
pub mod header;
pub mod json;
pub mod kubectl_table;
pub mod layout;
pub mod listing;
pub mod locate;
pub mod objects;
mod outcome;
pub mod rancher;
pub mod source;
pub mod want;
#[cfg(test)]
mod yaml_reads;
mod yaml_split;

use crate::kube::time::parse_timestamp;
use crate::parse::spans;
use content::FileRead;
pub use content::scan_yaml;
use layout::{Detected, FileClass, Layout, LogKey};
use objects::RawObject;
use outcome::{Outcome, Skip, Skipped, process, troubleshoot_folder_time};
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
                crate::err_line!(
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
    let mut read_as = ReadAs::default();
    let first_file = loaded.files.len();
    let mut times = clock::Candidates::default();
    let mut skipped = Skipped::default();
    for ((entry, class), outcome) in collected.entries.into_iter().zip(classes).zip(outcomes) {
        let (outcome, sections) = outcome;
        let held_logs = read_as.keep_sections(loaded, input, &entry.path, sections);
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
                read_as.placeholders += usize::from(extracted.placeholders);
                if extracted.internal_dump {
                    read_as.internal_dumps.push(entry.path.clone());
                }
                for d in defects::grouped(extracted.defects) {
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
    info.notes.extend(read_as.notes());
    object_times(loaded, input, first_file, layout, &mut times);
    if let Some((t, what)) = table_time {
        times.metadata.push((t, what));
    }
    // Without events, the snapshot time is the newest object's, or the metadata's checked
    // against it; with few events and no metadata, those are checked against the
    // objects' times: either way every object counts, so a selective read reads all and
    // chooses the clock a full read chooses.
    if !want.is_all() && want.needs_time() && clock::needs_every_object(&times) {
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
/// Files read in a way the input's notes say.
#[derive(Default)]
struct ReadAs {
    /// Files that held `kubectl cluster-info dump` log sections, with how many.
    dump_sections: Vec<String>,
    /// YAML files holding troubleshoot's redaction placeholder as a plain value.
    placeholders: usize,
    /// Files of Go's internal types (old kubectl cluster-info dumps).
    internal_dumps: Vec<String>,
}

impl ReadAs {
    /// Keeps a file's log sections as its containers' logs; whether it held any.
    fn keep_sections(
        &mut self,
        loaded: &mut Loaded,
        input: usize,
        path: &str,
        sections: Vec<dump_logs::Section>,
    ) -> bool {
        if sections.is_empty() {
            return false;
        }
        self.dump_sections
            .push(format!("{path} ({})", sections.len()));
        loaded.logs.extend(sections.into_iter().map(|s| LogSource {
            key: s.key,
            input,
            path: path.to_string(),
            data: EntryData::Section {
                bytes: s.bytes,
                skipped_lines: s.skipped_lines,
            },
        }));
        true
    }

    fn notes(self) -> Vec<String> {
        let mut notes = Vec::new();
        if !self.dump_sections.is_empty() {
            notes.push(format!(
                "container logs read from `kubectl cluster-info dump` sections (==== START logs for container … ====) in: {}",
                self.dump_sections.join(", ")
            ));
        }
        if self.placeholders > 0 {
            notes.push(format!(
                "{} YAML file(s) hold troubleshoot's redaction placeholder {} as a plain value, which YAML reads as an alias: read as the redacted text",
                self.placeholders,
                crate::parse::redaction::PLACEHOLDER
            ));
        }
        if let Some(first) = self.internal_dumps.first() {
            notes.push(format!(
                "{} file(s) read as an old kubectl cluster-info dump (internal types, kubectl 1.13 or older; kind from the file name), e.g. {first}",
                self.internal_dumps.len()
            ));
        }
        notes
    }
}

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
    // With a few events, status times are what those few are checked against.
    if times.events.len() <= clock::MIN_BULK {
        let no_events = times.events.is_empty();
        for (file, objects) in loaded.files[first_file..]
            .iter()
            .zip(&loaded.objects[first_file..])
        {
            for o in objects.iter().filter(|o| o.kind != "Event") {
                if let Some(t) = clock::status_time(&o.body) {
                    let to = if no_events {
                        &mut times.objects
                    } else {
                        &mut times.status
                    };
                    to.push((t, file.path.clone()));
                }
            }
        }
    }
}

/// A log's text as kdiag keeps it: the tail of a long one.
pub struct LogText {
    pub text: String,
    /// The line number of its first line (lines before the tail are counted, not kept).
    pub first_line: usize,
    /// Bytes of the first line not kept: the log's last line alone was longer than the
    /// tail kept (0 when the first line is whole).
    pub first_line_cut: u64,
}

/// Reads a log's text on demand: the last [`source::log_tail_bytes`] of it.
pub fn read_log(log: &LogSource) -> std::io::Result<LogText> {
    let (bytes, skipped, cut) = match &log.data {
        EntryData::Bytes(b) => (std::borrow::Cow::Borrowed(b.as_slice()), 0, 0),
        EntryData::LogTail(tail) => (
            std::borrow::Cow::Borrowed(tail.bytes.as_slice()),
            tail.skipped_lines,
            tail.cut_bytes,
        ),
        EntryData::Section {
            bytes,
            skipped_lines,
        } => (
            std::borrow::Cow::Borrowed(bytes.as_slice()),
            *skipped_lines,
            0,
        ),
        EntryData::File(p) => {
            let mut file = std::fs::File::open(p)?;
            let tail = source::read_tail(&mut file, source::log_tail_bytes())?;
            (
                std::borrow::Cow::Owned(tail.bytes),
                tail.skipped_lines,
                tail.cut_bytes,
            )
        }
        // Logs are opened as they are found (see `source::folder`): this reads whole.
        EntryData::Compressed(c) => (std::borrow::Cow::Owned(c.inflate()?), 0, 0),
        EntryData::Read(_) => return Err(source::parsed_already()),
    };
    Ok(LogText {
        text: String::from_utf8_lossy(&bytes).into_owned(),
        first_line: skipped + 1,
        first_line_cut: cut,
    })
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

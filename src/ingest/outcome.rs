//! One file's read: what it gave ([`Outcome`]), and why a file gave no objects ([`Skip`]).

use super::*;

/// What one file turned out to be.
pub(super) enum Outcome {
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

/// Why a file holds no objects kdiag reads.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Skip {
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
pub(super) struct Skipped(Vec<(Skip, usize, String)>);

impl Skipped {
    pub(super) fn add(&mut self, why: Skip, path: &str) {
        match self.0.iter_mut().find(|(w, _, _)| *w == why) {
            Some((_, n, _)) => *n += 1,
            None => self.0.push((why, 1, path.to_string())),
        }
    }

    pub(super) fn note(mut self) -> Option<String> {
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
pub(super) fn troubleshoot_folder_time(path: &str) -> Option<i64> {
    let first = path.split('/').next()?;
    let stamp = first.strip_prefix("support-bundle-")?;
    parse_timestamp(&stamp.replace('_', ":"))
}

/// Reads one file (a log is only classified: its entry keeps its content for later);
/// a file of Events read only for their times (`times_only`) keeps neither its text nor
/// its Events when it holds nothing else. The logs a cluster-info dump holds after its
/// objects come apart (see [`dump_logs`]). `now` is the capture time a kubectl table's
/// ages count back from.
pub(super) fn process(
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

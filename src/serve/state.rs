//! What the server answers from: the snapshot, the findings as objects and events, the
//! resources it serves, the page, and what a client must show to be let in. What needs the
//! rules' views is taken at start; the findings' objects and the page are built on another
//! thread once the server answers ([`Later`]), and an answer that needs them waits.

use super::findings::{self, Added, Held};
use super::resources::{Origin, Resource, Resources};
use crate::ingest::Problem;
use crate::report::redact::Redactor;
use crate::report::{Analysis, InputSummary, Looked};
use crate::rules::Finding;
use crate::snapshot::{Forgotten, ObjectId, Snapshot};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

/// Up to this much text in the bundle, each object's tree is kept once an answer built it
/// (as the explorer keeps it): answers then parse nothing twice, and 200 clients asking at
/// once are answered from trees. Past it, trees are built for one answer and dropped, so a
/// large bundle's server stays near the bundle's size (a tree is about ten times its text).
const KEEP_TREES_UP_TO: usize = 64 << 20;

pub struct State {
    pub snap: Snapshot,
    /// Whether objects' trees are kept once built ([`KEEP_TREES_UP_TO`]).
    keep_trees: bool,
    pub findings: usize,
    /// The findings themselves, for kdiag's pages (`ui/`).
    pub found: Vec<Finding>,
    /// The findings as objects and events: built by [`Later`], see [`State::added`].
    added: OnceLock<Added>,
    pub resources: Resources,
    /// Every list's and watch's `resourceVersion`: the snapshot's newest.
    pub resource_version: String,
    /// `/version`'s body.
    pub version: Value,
    /// kdiag's page for a browser on `/`: built by [`Later`], see [`State::page`].
    page: OnceLock<String>,
    /// With `--redact`: every value served is masked.
    pub redactor: Option<Redactor>,
    /// Off loopback: the bearer token a client must send.
    pub token: Option<String>,
    /// The address clients reach the server at (`host:port`).
    pub address: String,
}

/// What the server builds once it answers, on another thread: first it lets go of what
/// the rules built (on a large bundle), then builds the findings' objects and events and
/// kdiag's page side by side, from what [`State::new`] took while the views were there.
/// So the server is ready when the analysis is, and its peak is not the rules' memory
/// plus the page's.
pub struct Later {
    forgotten: Option<Forgotten>,
    /// The report's parts for the page, taken (and with `--redact` learnt) at start.
    inputs: Vec<InputSummary>,
    findings: Vec<Finding>,
    problems: Vec<Problem>,
    looked: Looked,
    /// The page's Kueue admission paths, drawn from the Kueue views at start.
    paths: String,
    stats: bool,
}

/// One object of a list: the snapshot's, or one the server adds (a finding, an event).
#[derive(Clone, Copy)]
pub enum Item<'a> {
    Stored(ObjectId),
    Added(&'a Held),
}

impl State {
    /// Builds what the server answers from, and what [`Later`] builds once it answers.
    /// What needs the rules' views is taken first; then, on a large bundle, what the rules
    /// built is taken out of the snapshot for [`Later`] to let go.
    pub fn new(snap: Snapshot, found: Vec<Finding>, redactor: Option<Redactor>) -> (State, Later) {
        let stats = std::env::var_os("KDIAG_STATS").is_some();
        let start = std::time::Instant::now();
        let resources = Resources::build(&snap);
        let paths = super::ui::admission_paths(&snap, &resources);
        let mut analysis = Analysis::new(&snap, found.to_vec());
        if let Some(r) = &redactor {
            // Learnt now, in the order every output learns it, before any answer masks.
            analysis.redact(r);
        }
        let Analysis {
            inputs,
            findings,
            problems,
            looked,
            ..
        } = analysis;
        let mut snap = snap;
        let keep_trees = snap.files.iter().map(|f| f.text.len()).sum::<usize>() <= KEEP_TREES_UP_TO;
        // Answers read objects one at a time from their text: on a large bundle what the
        // rules built to read every object at once is not kept.
        let forgotten = (!keep_trees).then(|| snap.forget_built());
        let resource_version = snap
            .objects
            .iter()
            .filter_map(|o| o.resource_version()?.parse::<u64>().ok())
            .max()
            .unwrap_or(1)
            .to_string();
        let version = version_of(&snap);
        if stats {
            crate::err_line!(
                "kdiag stats: serve: resources and what the page reads from the views {:.3}s, ready",
                start.elapsed().as_secs_f64()
            );
        }
        let state = State {
            findings: found.len(),
            found,
            snap,
            keep_trees,
            added: OnceLock::new(),
            resources,
            resource_version,
            version,
            page: OnceLock::new(),
            redactor,
            token: None,
            address: String::new(),
        };
        let later = Later {
            forgotten,
            inputs,
            findings,
            problems,
            looked,
            paths,
            stats,
        };
        (state, later)
    }

    /// The findings as objects and events; until [`Later`] has built them, waits.
    pub fn added(&self) -> &Added {
        self.added.wait()
    }

    /// kdiag's page for a browser on `/`; until [`Later`] has built it, waits.
    pub fn page(&self) -> &str {
        self.page.wait()
    }

    /// The objects of `r` in `namespace` (every namespace when `None`), stored first,
    /// each part sorted by namespace and name.
    pub fn items<'a>(&'a self, r: &Resource, namespace: Option<&str>) -> Vec<Item<'a>> {
        let in_ns = |ns: Option<&str>| namespace.is_none() || ns == namespace;
        let added_in = |list: &'a [Held]| -> Vec<Item<'a>> {
            list.iter()
                .filter(|h| in_ns(h.namespace()))
                .map(Item::Added)
                .collect()
        };
        match r.origin {
            Origin::Findings => added_in(&self.added().findings),
            Origin::Review => Vec::new(),
            Origin::Stored => {
                let mut out: Vec<Item> = self
                    .stored(r, namespace)
                    .iter()
                    .map(|&id| Item::Stored(id))
                    .collect();
                if r.group.is_empty() && r.kind == "Event" {
                    out.extend(added_in(&self.added().events));
                }
                out
            }
        }
    }

    /// The stored objects of `r` in `namespace` (every namespace when `None`): a range of
    /// the kind's ids, which are sorted by namespace and name, found by binary search.
    fn stored(&self, r: &Resource, namespace: Option<&str>) -> &[ObjectId] {
        let ids = self.snap.ids_of_group(&r.group, &r.kind);
        let Some(ns) = namespace else {
            return ids;
        };
        let ns_of = |id: &ObjectId| self.snap.object(*id).namespace.as_deref();
        let start = ids.partition_point(|id| ns_of(id) < Some(ns));
        let len = ids[start..].partition_point(|id| ns_of(id) == Some(ns));
        &ids[start..start + len]
    }

    /// The object of `r` named `name` in `namespace` (the first of any namespace when
    /// `None`), as [`State::items`] orders them.
    pub fn find<'a>(
        &'a self,
        r: &Resource,
        namespace: Option<&str>,
        name: &str,
    ) -> Option<Item<'a>> {
        let added = |list: &'a [Held]| {
            list.iter()
                .find(|h| h.name() == name && (namespace.is_none() || h.namespace() == namespace))
                .map(Item::Added)
        };
        match r.origin {
            Origin::Findings => added(&self.added().findings),
            Origin::Review => None,
            Origin::Stored => {
                let ids = self.stored(r, namespace);
                let name_of = |id: &ObjectId| self.snap.object(*id).name.as_str();
                let stored = if namespace.is_some() {
                    // One namespace: sorted by name.
                    ids.binary_search_by(|id| name_of(id).cmp(name))
                        .ok()
                        .map(|i| ids[i])
                } else {
                    ids.iter().copied().find(|id| name_of(id) == name)
                };
                let unnamespaced = || {
                    namespace?;
                    self.snap.only_without_namespace(self.stored(r, None), name)
                };
                match stored.or_else(unnamespaced) {
                    Some(id) => Some(Item::Stored(id)),
                    None if r.group.is_empty() && r.kind == "Event" => added(&self.added().events),
                    None => None,
                }
            }
        }
    }

    /// The object's whole tree: a stored object's kept, or in a large bundle built for this
    /// answer (not kept).
    pub fn tree<'a>(&'a self, item: Item<'a>) -> Cow<'a, Value> {
        match item {
            Item::Stored(id) if self.keep_trees => Cow::Borrowed(self.snap.object(id).value()),
            Item::Stored(id) => self.snap.object(id).value_unkept(),
            Item::Added(h) => h.tree(),
        }
    }

    /// The object as served: `get -o json`'s form, masked with `--redact`.
    pub fn object_json(&self, item: Item) -> Value {
        self.object_json_of(item, self.tree(item))
    }

    /// [`State::object_json`] from the object's tree, already built.
    pub fn object_json_of(&self, item: Item, tree: Cow<Value>) -> Value {
        let v = match item {
            Item::Stored(id) => {
                crate::explorer::served::object_json_of(&self.snap, id, tree.into_owned())
            }
            Item::Added(_) => tree.into_owned(),
        };
        self.mask_value(v)
    }

    /// Every string of `v` masked with `--redact` ([`Redactor::mask_value`], as every
    /// output masks); `v` itself without.
    pub fn mask_value(&self, v: Value) -> Value {
        match &self.redactor {
            Some(r) => r.mask_value(&v),
            None => v,
        }
    }

    /// `text` masked with `--redact`.
    pub fn mask(&self, text: String) -> String {
        match &self.redactor {
            Some(r) => r.apply(&text),
            None => text,
        }
    }
}

/// `/version`: the bundle's Kubernetes version (the cluster's, else the newest kubelet's),
/// split as the API server splits it.
fn version_of(snap: &Snapshot) -> Value {
    let is_kube = |v: &str| v.starts_with('v') && v[1..].split('.').count() >= 3;
    let from_inputs = snap
        .inputs
        .iter()
        .filter_map(|i| i.cluster_version.clone())
        .find(|v| is_kube(v));
    let from_nodes = || {
        snap.ids_of_group("", "Node")
            .iter()
            .filter_map(|&id| {
                snap.object(id)
                    .value_unkept()
                    .pointer("/status/nodeInfo/kubeletVersion")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .max()
    };
    let git = from_inputs
        .or_else(from_nodes)
        .unwrap_or_else(|| "v0.0.0-unknown".into());
    let mut parts = git.trim_start_matches('v').split('.');
    let major = parts.next().unwrap_or("0").to_string();
    let minor: String = parts
        .next()
        .unwrap_or("0")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    json!({
        "major": major,
        "minor": minor,
        "gitVersion": git,
        "gitCommit": "",
        "gitTreeState": "",
        "buildDate": "",
        "goVersion": "",
        "compiler": "kdiag",
        "platform": "linux/amd64",
    })
}

impl Later {
    /// Builds, on a thread of its own, what `state` waits for. A panic while building
    /// (a fault of kdiag's) leaves no answer waiting forever: findings that could not be
    /// built are said on stderr and served as none; a page that could not be built says
    /// so, and where the findings are listed.
    pub fn spawn(self, state: Arc<State>) {
        std::thread::spawn(move || {
            let start = std::time::Instant::now();
            drop(self.forgotten);
            let let_go = start.elapsed().as_secs_f64();
            let ((added, t_added), (page, t_page)) = rayon::join(
                || {
                    clocked(|| {
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            findings::build(&state.snap, &state.found)
                        }))
                    })
                },
                || {
                    clocked(|| {
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            let analysis = Analysis {
                                snapshot: &state.snap,
                                inputs: self.inputs,
                                findings: self.findings,
                                problems: self.problems,
                                redactor: state.redactor.as_ref(),
                                looked: self.looked,
                            };
                            let page =
                                super::ui::start_page(&analysis, &state.resources, &self.paths);
                            match &state.redactor {
                                Some(r) => r.apply(&page),
                                None => page,
                            }
                        }))
                    })
                },
            );
            let added = added.unwrap_or_else(|_| {
                crate::err_line!(
                    "kdiag serve: building the findings as objects failed; they are served as none"
                );
                Added::default()
            });
            let _ = state.added.set(added);
            let _ = state.page.set(page.unwrap_or_else(|_| {
                "<!doctype html><title>kdiag</title><p>kdiag could not build this page: the findings are served at <code>/apis/kdiag.io/v1/findings</code> and by <code>kubectl get findings -A</code>.</p>\n".to_string()
            }));
            if self.stats {
                crate::err_line!(
                    "kdiag stats: serve after ready: what the rules built let go {let_go:.3}s, then findings as objects {t_added:.3}s, page {t_page:.3}s (side by side), all {:.3}s",
                    start.elapsed().as_secs_f64()
                );
            }
        });
    }
}

/// `f`'s result and its wall seconds (for `KDIAG_STATS`).
fn clocked<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = std::time::Instant::now();
    let value = f();
    (value, start.elapsed().as_secs_f64())
}

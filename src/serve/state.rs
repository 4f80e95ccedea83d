//! What the server answers from, built once at start: the snapshot, the findings as
//! objects and events, the resources it serves, the page, and what a client must show to
//! be let in.

use super::findings::{self, Added, Held};
use super::resources::{Origin, Resource, Resources};
use crate::report::Analysis;
use crate::report::redact::Redactor;
use crate::rules::Finding;
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::{Value, json};
use std::borrow::Cow;

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
    pub added: Added,
    pub resources: Resources,
    /// Every list's and watch's `resourceVersion`: the snapshot's newest.
    pub resource_version: String,
    /// `/version`'s body.
    pub version: Value,
    /// kdiag's page for a browser on `/`.
    pub page: String,
    /// With `--redact`: every value served is masked.
    pub redactor: Option<Redactor>,
    /// Off loopback: the bearer token a client must send.
    pub token: Option<String>,
    /// The address clients reach the server at (`host:port`).
    pub address: String,
}

/// One object of a list: the snapshot's, or one the server adds (a finding, an event).
#[derive(Clone, Copy)]
pub enum Item<'a> {
    Stored(ObjectId),
    Added(&'a Held),
}

impl State {
    /// Builds what the server answers from. The findings' objects, the served resources
    /// and kdiag's page are built side by side while the rules' views are still there;
    /// then, on a large bundle, what the rules built is let go on another thread, so the
    /// first answer does not wait for millions of frees.
    pub fn new(snap: Snapshot, found: Vec<Finding>, redactor: Option<Redactor>) -> State {
        let stats = std::env::var_os("KDIAG_STATS").is_some();
        let start = std::time::Instant::now();
        let (((added, t_added), (resources, t_resources)), (page, t_page)) = rayon::join(
            || {
                rayon::join(
                    || clocked(|| findings::build(&snap, &found)),
                    || clocked(|| Resources::build(&snap)),
                )
            },
            || clocked(|| start_page(&snap, &found, redactor.as_ref())),
        );
        let built = start.elapsed();
        let mut snap = snap;
        let keep_trees = snap.files.iter().map(|f| f.text.len()).sum::<usize>() <= KEEP_TREES_UP_TO;
        if !keep_trees {
            // Answers read objects one at a time from their text: what the rules built to
            // read every object at once is not kept.
            let forgotten = snap.forget_built();
            std::thread::spawn(move || drop(forgotten));
        }
        if stats {
            crate::err_line!(
                "kdiag stats: serve: findings as objects {t_added:.3}s, resources {t_resources:.3}s, page {t_page:.3}s (side by side {:.3}s), ready {:.3}s",
                built.as_secs_f64(),
                start.elapsed().as_secs_f64()
            );
        }
        let resource_version = snap
            .objects
            .iter()
            .filter_map(|o| o.resource_version()?.parse::<u64>().ok())
            .max()
            .unwrap_or(1)
            .to_string();
        let version = version_of(&snap);
        State {
            findings: found.len(),
            found,
            snap,
            keep_trees,
            added,
            resources,
            resource_version,
            version,
            page,
            redactor,
            token: None,
            address: String::new(),
        }
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
            Origin::Findings => added_in(&self.added.findings),
            Origin::Review => Vec::new(),
            Origin::Stored => {
                let mut out: Vec<Item> = self
                    .stored(r, namespace)
                    .iter()
                    .map(|&id| Item::Stored(id))
                    .collect();
                if r.group.is_empty() && r.kind == "Event" {
                    out.extend(added_in(&self.added.events));
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
            Origin::Findings => added(&self.added.findings),
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
                match stored {
                    Some(id) => Some(Item::Stored(id)),
                    None if r.group.is_empty() && r.kind == "Event" => added(&self.added.events),
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

/// kdiag's page for a browser on `/`, masked with `--redact`.
fn start_page(snap: &Snapshot, found: &[Finding], redactor: Option<&Redactor>) -> String {
    let mut analysis = Analysis::new(snap, found.to_vec());
    if let Some(r) = redactor {
        analysis.redact(r);
    }
    let page = super::ui::start_page(&analysis);
    match redactor {
        Some(r) => r.apply(&page),
        None => page,
    }
}

/// `f`'s result and its wall seconds (for `KDIAG_STATS`).
fn clocked<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = std::time::Instant::now();
    let value = f();
    (value, start.elapsed().as_secs_f64())
}

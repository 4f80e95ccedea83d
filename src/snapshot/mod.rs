//! The snapshot: every object once, indexed, with typed views built on first use (or
//! handed over from ingest, which reads the views of the kinds with the most text: see
//! `ingest::early`).
//!
//! Rules see the bundle only through this module and the views of [`crate::kube`].
//! Objects are addressed by [`ObjectId`] and remember the file and line range of every
//! copy the bundle held, so findings can cite them.

mod identity;
pub mod kinds;
mod locate;
mod odd;
mod views;
use locate::line_steps;
use views::Views;
pub mod logs;

use crate::ingest::body::Body;
use crate::ingest::early::Early;
use crate::ingest::header::Owner;
use crate::ingest::{InputInfo, Loaded, LogSource, Problem, SourceFile};
use crate::kube::event;
use crate::kube::meta::{ObjectRef, UnreadField};
use crate::parse::spans::Span;
use crate::parse::tree;
use foldhash::{HashMap, HashMapExt};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::sync::{Mutex, OnceLock};

/// Index of an object in [`Snapshot::objects`]; objects are sorted by kind, namespace, name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectId(pub u32);

/// Where one copy of an object sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Source {
    pub file: usize,
    pub span: Span,
}

#[derive(Debug)]
pub struct Object {
    pub api_version: String,
    pub kind: String,
    pub namespace: Option<String>,
    pub name: String,
    pub uid: Option<String>,
    resource_version: Option<String>,
    owners: Vec<Owner>,
    /// Newest timestamp the object carries (events: last seen; others: creation).
    time: Option<i64>,
    /// Where the content is; read by views, and as a tree by [`Object::value`].
    body: Body,
    /// The view ingest read with the header, until the view of its type takes it.
    early: Mutex<Option<Early>>,
    tree: OnceLock<Value>,
    /// The copy kept first; the others (must-gather writes pods twice) follow.
    pub sources: Vec<Source>,
}

impl Object {
    /// The whole object as a tree, built on first use from the bundle's text and kept.
    /// Views read objects without it: prefer them for kinds with many objects.
    pub fn value(&self) -> &Value {
        match &self.body {
            Body::Tree(v) => v,
            body => self
                .tree
                .get_or_init(|| body.to_value(&self.kind, &self.api_version)),
        }
    }

    /// The whole object as a tree without keeping it: the kept one when a rule built it
    /// already, else built now and dropped by the caller. A server answering for every
    /// object of a 1 GB bundle would otherwise keep a tree (ten times the text) of each.
    pub fn value_unkept(&self) -> std::borrow::Cow<'_, Value> {
        match (&self.body, self.tree.get()) {
            (Body::Tree(v), _) | (_, Some(v)) => std::borrow::Cow::Borrowed(v),
            (body, None) => std::borrow::Cow::Owned(body.to_value(&self.kind, &self.api_version)),
        }
    }

    /// Byte offset of the object's own text in `file`, when it is read from there: a
    /// report shows the part of a long line (one-line JSON holds a whole List) where
    /// the object starts.
    pub fn offset_in(&self, file: &SourceFile) -> Option<usize> {
        let own = self.body.text_from_start(&file.text)?;
        Some(own.as_ptr() as usize - file.text.as_ptr() as usize)
    }

    /// Its API group as stored ("" for core; see [`kinds::canonical_group`]).
    pub fn group(&self) -> &str {
        kinds::canonical_group(&self.api_version, &self.kind)
    }

    pub fn resource_version(&self) -> Option<&str> {
        self.resource_version.as_deref()
    }

    /// `metadata.ownerReferences`, read at ingest.
    pub fn owners(&self) -> &[Owner] {
        &self.owners
    }

    /// The view ingest read as a `T` (see [`crate::ingest::early`]), taken: each view is
    /// built once.
    fn take_early<T: 'static>(&self) -> Option<T> {
        self.take_early_boxed::<T>().map(|v| *v)
    }

    /// The view ingest read as a `T`, in the box it was read into.
    fn take_early_boxed<T: 'static>(&self) -> Option<Box<T>> {
        let mut early = self.early.lock().unwrap_or_else(|e| e.into_inner());
        if !early.as_ref().is_some_and(|e| e.view.is::<T>()) {
            return None;
        }
        early.take()?.view.downcast::<T>().ok()
    }

    /// The object as a view's `T`: the one ingest read, else read now from its text.
    fn view<T: DeserializeOwned + 'static>(&self) -> Result<T, String> {
        self.take_early::<T>()
            .map_or_else(|| self.deserialize::<T>(), Ok)
    }

    /// [`Self::view`] in a box: the one ingest read stays in its own.
    fn view_boxed<T: DeserializeOwned + 'static>(&self) -> Result<Box<T>, String> {
        self.take_early_boxed::<T>()
            .map_or_else(|| self.deserialize::<T>().map(Box::new), Ok)
    }

    /// Deserializes the fields `T` names, straight from the bundle's text.
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, String> {
        match self.tree.get() {
            Some(v) => tree::read(v),
            None => self.body.deserialize(),
        }
    }

    /// The view of an object one of whose fields did not read as `T`: read again from its
    /// tree without each such field (a few at most), and the fields left out, each with
    /// the steps [`Snapshot::locate`] takes to its line. Only after the view failed: it
    /// builds the object's tree.
    fn view_without_odd_fields<T: DeserializeOwned>(
        &self,
    ) -> Result<(T, Vec<UnreadField>), String> {
        const MAX_FIELDS: usize = 8;
        // Not kept: a tree is ten times its text, and this object's view is read once.
        let mut tree = match (self.tree.get(), &self.body) {
            (Some(v), _) | (None, Body::Tree(v)) => v.clone(),
            (None, body) => body.to_value(&self.kind, &self.api_version),
        };
        let mut odd = Vec::new();
        loop {
            let failure = match tree::read_tracked::<T>(&tree) {
                Ok(view) => return Ok((view, odd)),
                Err(f) => f,
            };
            if odd.len() == MAX_FIELDS {
                return Err(failure.message);
            }
            let steps = line_steps(&tree, &failure.path);
            if !tree::remove(&mut tree, &failure.path) {
                return Err(failure.message);
            }
            odd.push(UnreadField {
                path: tree::path_text(&failure.path),
                steps,
                message: failure.message,
            });
        }
    }

    pub fn reference(&self) -> ObjectRef {
        ObjectRef {
            api_version: self.api_version.clone(),
            kind: self.kind.clone(),
            namespace: self.namespace.clone(),
            name: self.name.clone(),
        }
    }
}

/// Empties the text of each file that no kept copy is read from and no problem names:
/// nothing quotes or reads it any more (findings cite the kept copy, `describe` names the
/// others by their lines). must-gather writes each pod twice, in its namespace's list and
/// in a file of its own, and the list's copy is the one kept: 88 of 919 MB.
fn drop_unread_text(files: &mut [SourceFile], objects: &[Object], bad: &[Vec<u32>]) {
    let mut read_from = vec![false; files.len()];
    for o in objects {
        read_from[o.sources[0].file] = true;
    }
    for (i, f) in files.iter_mut().enumerate() {
        if !read_from[i] && bad.get(i).is_none_or(Vec::is_empty) {
            f.text = std::sync::Arc::default();
        }
    }
}

/// What [`Snapshot::forget_built`] took out of a snapshot; dropping it frees the memory.
pub struct Forgotten {
    _views: Views,
    _pods_by_node: OnceLock<HashMap<String, Vec<ObjectId>>>,
    _trees: Vec<Value>,
    _early: Vec<Early>,
}

pub struct Snapshot {
    pub inputs: Vec<InputInfo>,
    pub files: Vec<SourceFile>,
    pub objects: Vec<Object>,
    pub logs: logs::LogIndex,
    /// Ingest problems.
    problems: Mutex<Vec<Problem>>,
    /// Objects and fields no view could read, grouped (see [`odd::OddFields`]).
    odd: odd::OddFields,
    /// The time durations are measured from (see DESIGN.md "Snapshot time").
    pub as_of: Option<i64>,
    /// Every id in order: [`Snapshot::ids_of`] hands out ranges of it (objects are sorted
    /// by kind and group, so each kind is one range).
    all_ids: Vec<ObjectId>,
    /// One (start, end) range of [`Snapshot::objects`] per kind and group, in order.
    kinds: Vec<(u32, u32)>,
    /// Hash of a uid → the first object with it, checked against the object on lookup
    /// (no uid is copied); a different uid with the same hash goes to `uid_spill`.
    by_uid: HashMap<u64, ObjectId>,
    uid_spill: Vec<ObjectId>,
    children: HashMap<String, Vec<ObjectId>>,
    pods_by_node: OnceLock<HashMap<String, Vec<ObjectId>>>,
    per_input_objects: Vec<usize>,
    views: Views,
    /// A selective read (see `ingest::want`): objects of other namespaces may be missing.
    pub partial: bool,
    /// Events of other namespaces read only for their times (a selective read).
    events_elsewhere: usize,
    /// Kinds [`Snapshot::has_kind`] said this selective read holds none of, while a full
    /// read may hold some in namespaces it left unread.
    doubts: Mutex<std::collections::BTreeSet<String>>,
    /// Kinds of objects a selective read saw in other namespaces without keeping them.
    present_elsewhere: std::collections::BTreeSet<String>,
    /// What the files a selective read left can hold (see [`Loaded::unread`]).
    unread: crate::ingest::UnreadPlaces,
    /// Members of stream archives a selective read left and kept (see [`Loaded::spared`]).
    spared: Mutex<Vec<crate::ingest::locate::Spare>>,
    /// The whole listings the bundle holds: (group, kind, namespace; `None`: every
    /// namespace, or cluster-wide). See [`Snapshot::listed_whole`].
    listed: std::collections::BTreeSet<(String, String, Option<String>)>,
}

impl Snapshot {
    /// Builds the store: merges duplicate copies, sorts, indexes, fixes the "as of" time.
    pub fn build(loaded: Loaded) -> Snapshot {
        let Loaded {
            mut inputs,
            files,
            objects: loaded_objects,
            problems,
            logs,
            partial,
            events_elsewhere,
            present_elsewhere,
            unread,
            spared,
            listings,
        } = loaded;
        let listed = listings
            .into_iter()
            .map(|l| {
                let group = kinds::canonical_group(&l.api_version, &l.kind).to_string();
                (group, l.kind, l.namespace)
            })
            .collect();
        let mut files = files;
        let bad = identity::problem_lines(&files, &problems);
        let count = loaded_objects.iter().map(Vec::len).sum();
        let (mut copies, mut clean) = (Vec::with_capacity(count), Vec::with_capacity(count));
        // File by file, each file's objects freed as they are taken: the objects are most
        // of what the store holds besides the text, and two copies of them were the peak.
        for (file, raws) in loaded_objects.into_iter().enumerate() {
            // Where the next object of the same file starts: a parse problem before it is
            // the end of this copy's text.
            let next_starts: Vec<u32> = raws
                .iter()
                .skip(1)
                .map(|r| r.span.start)
                .chain([u32::MAX])
                .collect();
            for (raw, next_start) in raws.into_iter().zip(next_starts) {
                let source = Source {
                    file,
                    span: raw.span,
                };
                // Every copy of a Secret is masked where the file is quoted, kept or not.
                if raw.kind == "Secret" {
                    files[file].secret_spans.push(raw.span);
                }
                clean.push(identity::clean(&bad, file, raw.span.start, next_start));
                copies.push(Object {
                    api_version: raw.api_version,
                    kind: raw.kind,
                    namespace: raw.namespace,
                    name: raw.name,
                    uid: raw.uid.filter(|u| kinds::is_real_uid(u)),
                    resource_version: raw.resource_version,
                    owners: raw.owners,
                    time: raw.time,
                    body: raw.body,
                    early: Mutex::new(raw.early),
                    tree: OnceLock::new(),
                    sources: vec![source],
                });
            }
        }
        let (objects, mut notes) = identity::merge(copies, clean, &files, &inputs);
        drop_unread_text(&mut files, &objects, &bad);

        // The indexes are independent: one on each side.
        let ((all_ids, kinds), (by_uid, uid_spill, shared, children)) = rayon::join(
            || {
                let all_ids: Vec<ObjectId> = (0..objects.len() as u32).map(ObjectId).collect();
                let mut kinds: Vec<(u32, u32)> = Vec::new();
                for (i, o) in objects.iter().enumerate() {
                    match kinds.last_mut() {
                        Some(last) if same_kind(&objects[last.0 as usize], o) => {
                            last.1 = i as u32 + 1
                        }
                        _ => kinds.push((i as u32, i as u32 + 1)),
                    }
                }
                (all_ids, kinds)
            },
            || {
                let mut by_uid: HashMap<u64, ObjectId> = HashMap::with_capacity(objects.len());
                let mut uid_spill = Vec::new();
                let mut shared = Vec::new();
                let mut children: HashMap<String, Vec<ObjectId>> = HashMap::new();
                for (i, o) in objects.iter().enumerate() {
                    let id = ObjectId(i as u32);
                    if let Some(u) = &o.uid {
                        match by_uid.entry(uid_hash(u)) {
                            std::collections::hash_map::Entry::Vacant(e) => {
                                e.insert(id);
                            }
                            std::collections::hash_map::Entry::Occupied(e) => {
                                let first = *e.get();
                                if objects[first.0 as usize].uid.as_deref() == Some(u.as_str()) {
                                    shared.push((first.0 as usize, i));
                                } else {
                                    uid_spill.push(id);
                                }
                            }
                        }
                    }
                    for owner in &o.owners {
                        children.entry(owner.uid.clone()).or_default().push(id);
                    }
                }
                (by_uid, uid_spill, shared, children)
            },
        );
        identity::shared_uid_notes(&objects, &files, shared, &mut notes);
        identity::add_notes(&mut inputs, notes, "notes on duplicate objects");

        // Per-input object counts (each input's "as of" time is fixed at ingest).
        let mut per_input_objects = vec![0usize; inputs.len()];
        for o in &objects {
            let mut counted = vec![false; inputs.len()];
            for s in &o.sources {
                let input = files[s.file].input;
                if !counted[input] {
                    counted[input] = true;
                    per_input_objects[input] += 1;
                }
            }
        }
        let as_of = inputs.iter().filter_map(|i| i.as_of).max();
        let logs = logs::LogIndex::new(logs, |ns, pod| pod_containers(&objects, ns, pod));
        let mut snapshot = Snapshot {
            inputs,
            files,
            objects,
            logs,
            problems: Mutex::new(problems),
            odd: odd::OddFields::default(),
            as_of,
            all_ids,
            kinds,
            by_uid,
            uid_spill,
            children,
            pods_by_node: OnceLock::new(),
            per_input_objects: Vec::new(),
            views: Views::default(),
            partial,
            events_elsewhere,
            doubts: Mutex::default(),
            present_elsewhere,
            unread,
            spared: Mutex::new(spared),
            listed,
        };
        snapshot.finish_inputs(per_input_objects);
        snapshot
    }

    fn finish_inputs(&mut self, per_input_objects: Vec<usize>) {
        let version_from_nodes = self.kubelet_version_hint();
        let openshift = self.openshift_version();
        // Without EndpointSlices or Endpoints, traffic rules recompute endpoints from pods.
        let no_endpoints = self.has_kind("Service")
            && !self.has_kind("EndpointSlice")
            && !self.has_kind("Endpoints");
        for info in self.inputs.iter_mut() {
            if no_endpoints {
                info.notes.push(
                    "no EndpointSlices or Endpoints in this bundle: Service endpoints are recomputed from pods"
                        .to_string(),
                );
            }
            if info.cluster_version.is_none()
                && let Some(v) = &version_from_nodes
            {
                info.cluster_version = Some(v.clone());
                info.notes.push(match &openshift {
                    Some(ocp) => format!(
                        "Kubernetes version not recorded by the bundle; {v} is the newest kubelet version of its nodes (OpenShift {ocp}, as its ClusterVersion says)"
                    ),
                    None => format!(
                        "cluster version not recorded by the bundle; {v} is the newest kubelet version of its nodes"
                    ),
                });
            }
        }
        self.per_input_objects = per_input_objects;
    }

    /// The OpenShift version an OpenShift ClusterVersion wants (`status.desired.version`):
    /// the Kubernetes version is the kubelets', but a support engineer reads this one.
    fn openshift_version(&self) -> Option<String> {
        self.ids_of("ClusterVersion").iter().find_map(|&id| {
            let o = self.object(id);
            (o.group() == "config.openshift.io").then_some(())?;
            let v = o.value().pointer("/status/desired/version")?.as_str()?;
            (!v.is_empty()).then(|| v.to_string())
        })
    }

    /// From the Node view the rules build anyway, so no Node needs a tree of its own.
    fn kubelet_version_hint(&self) -> Option<String> {
        self.nodes()
            .iter()
            .filter_map(|(_, n)| n.status.node_info.kubelet_version.as_deref())
            .max_by(|a, b| version_key(a).cmp(&version_key(b)))
            .map(str::to_string)
    }

    pub fn object(&self, id: ObjectId) -> &Object {
        &self.objects[id.0 as usize]
    }

    /// Objects of a kind as rules name it: a kind kdiag knows means its group (`Node` is
    /// core, `Job` is `batch`: see [`kinds::default_group`]); another kind, every group's.
    /// Sorted by group, namespace and name.
    pub fn ids_of(&self, kind: &str) -> &[ObjectId] {
        let (start, end) = match kinds::default_group(kind) {
            Some(group) => self.kind_range(kind, Some(group)),
            None => self.kind_range(kind, None),
        };
        &self.all_ids[start..end]
    }

    /// Objects of exactly this group and kind ("" is core; see [`kinds::canonical_group`]).
    pub fn ids_of_group(&self, group: &str, kind: &str) -> &[ObjectId] {
        let (start, end) = self.kind_range(kind, Some(group));
        &self.all_ids[start..end]
    }

    /// The (group, kind) pairs the bundle holds, in order.
    pub fn group_kinds(&self) -> impl Iterator<Item = (&str, &str)> {
        self.kinds.iter().map(|&(start, _)| {
            let o = &self.objects[start as usize];
            (o.group(), o.kind.as_str())
        })
    }

    /// The objects of `kind` in `group` (every group when `None`), as a range of ids.
    fn kind_range(&self, kind: &str, group: Option<&str>) -> (usize, usize) {
        let at = |r: &(u32, u32)| &self.objects[r.0 as usize];
        let lo = self.kinds.partition_point(|r| {
            let o = at(r);
            (o.kind.as_str(), o.group()) < (kind, group.unwrap_or(""))
        });
        let hi = lo
            + self.kinds[lo..].partition_point(|r| {
                let o = at(r);
                o.kind == kind && group.is_none_or(|g| o.group() == g)
            });
        match (
            self.kinds.get(lo),
            hi.checked_sub(1).and_then(|h| self.kinds.get(h)),
        ) {
            (Some(first), Some(last)) if hi > lo => (first.0 as usize, last.1 as usize),
            _ => (0, 0),
        }
    }

    /// Whether some input holds objects read from kubectl's table text (see
    /// [`crate::kube::table`]): only then must a rule ask an object whether it is one,
    /// which reads its annotations.
    pub fn holds_tables(&self) -> bool {
        self.inputs
            .iter()
            .any(|i| i.layout == crate::ingest::layout::Layout::RancherLogsCollector)
    }

    /// Drops what rules built on first use and a reader of single objects does not need
    /// (the typed views, the trees built from objects' text, the views ingest read and no
    /// rule took, the index of pods by node): each is built again if asked for. A server
    /// keeps the snapshot for as long as it runs; analysis is done by then.
    ///
    /// Returns what it took: freeing it is a walk over millions of allocations, which a
    /// caller in a hurry (a server about to answer) hands to another thread.
    pub fn forget_built(&mut self) -> Forgotten {
        let mut trees = Vec::new();
        let mut early = Vec::new();
        for o in &mut self.objects {
            trees.extend(o.tree.take());
            early.extend(o.early.get_mut().unwrap_or_else(|e| e.into_inner()).take());
        }
        Forgotten {
            _views: std::mem::take(&mut self.views),
            _pods_by_node: std::mem::take(&mut self.pods_by_node),
            _trees: trees,
            _early: early,
        }
    }

    /// One object by kind (as [`Snapshot::ids_of`] reads it), namespace and name.
    pub fn find(&self, kind: &str, namespace: Option<&str>, name: &str) -> Option<ObjectId> {
        let ids = self.ids_of(kind);
        match kinds::default_group(kind) {
            Some(_) => self.find_in(ids, namespace, name),
            // Several groups: each is sorted on its own.
            None => self
                .group_kinds_of(ids)
                .find_map(|ids| self.find_in(ids, namespace, name)),
        }
    }

    /// One object of the group an apiVersion names (an ownerReference's, an event's).
    pub fn find_ref(
        &self,
        api_version: &str,
        kind: &str,
        namespace: Option<&str>,
        name: &str,
    ) -> Option<ObjectId> {
        let ids = self.ids_of_group(kinds::canonical_group(api_version, kind), kind);
        self.find_in(ids, namespace, name)
    }

    /// `ids` (one kind) split where the group changes.
    fn group_kinds_of<'a>(&'a self, ids: &'a [ObjectId]) -> impl Iterator<Item = &'a [ObjectId]> {
        ids.chunk_by(|a, b| self.object(*a).group() == self.object(*b).group())
    }

    /// Binary search of `ids` (one group and kind, so sorted by namespace and name).
    fn find_in(&self, ids: &[ObjectId], namespace: Option<&str>, name: &str) -> Option<ObjectId> {
        ids.binary_search_by(|id| {
            let o = self.object(*id);
            (o.namespace.as_deref(), o.name.as_str()).cmp(&(namespace, name))
        })
        .ok()
        .map(|i| ids[i])
    }

    /// The object with this uid (the first by kind and name, when different objects share
    /// it: see [`Snapshot::build`]'s notes).
    pub fn by_uid(&self, uid: &str) -> Option<ObjectId> {
        let has = |id: &ObjectId| self.object(*id).uid.as_deref() == Some(uid);
        self.by_uid
            .get(&uid_hash(uid))
            .filter(|id| has(id))
            .or_else(|| self.uid_spill.iter().find(|id| has(id)))
            .copied()
    }

    /// Objects whose ownerReferences name `uid`.
    pub fn children_of(&self, uid: &str) -> &[ObjectId] {
        self.children.get(uid).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Unique objects loaded from each input.
    pub fn objects_per_input(&self) -> &[usize] {
        &self.per_input_objects
    }

    /// Records an object (or a field of one) a view could not read.
    pub fn add_problem(&self, problem: Problem) {
        self.problems.lock().expect("problems lock").push(problem);
    }

    /// Every problem, sorted.
    pub fn problems(&self) -> Vec<Problem> {
        let mut p = self.problems.lock().expect("problems lock").clone();
        p.extend(self.odd.problems(self));
        p.sort();
        p.dedup();
        p
    }

    /// Whether the bundle holds any object of `kind` (to tell "absent" from "not collected").
    /// A selective read answers as a full read for Events (it counts the Events it read
    /// for their times) and for cluster-scoped kinds (it reads every one); for other kinds
    /// a "no" may be a full read's "yes", and is noted (see [`Snapshot::doubts`]).
    pub fn has_kind(&self, kind: &str) -> bool {
        if !self.ids_of(kind).is_empty() {
            return true;
        }
        if (kind == "Event" && self.events_elsewhere > 0) || self.present_elsewhere.contains(kind) {
            return true;
        }
        if self.partial && !kinds::read_whole(kind) && self.unread.could_hold(kind) {
            self.doubts
                .lock()
                .expect("doubts lock")
                .insert(kind.to_string());
        }
        false
    }

    /// Whether the bundle holds every object of `kind` (as [`Snapshot::ids_of`] names it)
    /// in `namespace` (`None`: cluster-wide), so that one it lacks does not exist: a
    /// collector's file of that kind there, or a list call's output (see
    /// [`crate::ingest::listing`]). Objects pasted one by one, or a bundle that never
    /// collected the kind, prove no absence.
    pub fn listed_whole(&self, kind: &str, namespace: Option<&str>) -> bool {
        let Some(group) = kinds::default_group(kind) else {
            return false;
        };
        let key = |ns: Option<&str>| (group.to_string(), kind.to_string(), ns.map(str::to_string));
        self.listed.contains(&key(None))
            || (namespace.is_some() && self.listed.contains(&key(namespace)))
    }

    /// Whether this is a selective read (see [`crate::ingest::Want`]).
    pub fn is_partial(&self) -> bool {
        self.partial
    }

    /// Takes the members the selective read left and kept (see [`Loaded::spared`]).
    pub fn take_spared(&self) -> Vec<crate::ingest::locate::Spare> {
        std::mem::take(&mut *self.spared.lock().expect("spared lock"))
    }

    /// The kinds a selective read said it holds none of, where a full read may hold some
    /// (see [`Snapshot::has_kind`]): an answer that asked is the full read's only once
    /// those kinds are read in every namespace.
    pub fn doubts(&self) -> Vec<String> {
        self.doubts
            .lock()
            .expect("doubts lock")
            .iter()
            .cloned()
            .collect()
    }

    /// Events about an object, by `involvedObject.uid` first (names are reused), else by
    /// kind/namespace/name; oldest first.
    pub fn events_for(&self, id: ObjectId) -> Vec<(ObjectId, &event::Event)> {
        let index = self.views.events_by_object.get_or_init(|| {
            let mut map: HashMap<ObjectId, Vec<ObjectId>> = HashMap::new();
            for (eid, e) in self.events() {
                let r = &e.regarding;
                // A uid two objects share names the first: kind, namespace and name tell
                // which (two pods of one name in two namespaces can share a uid too).
                let uid = r.uid.as_deref().filter(|u| kinds::is_real_uid(u));
                let by_uid = uid.and_then(|u| self.by_uid(u));
                let target = by_uid.filter(|&t| is_named_by(self.object(t), r));
                let target = target.or_else(|| {
                    // A uid that is not in the bundle: a previous object of that name;
                    // but the kubelet's events about a Node carry the node's name as uid.
                    if uid.is_some() && by_uid.is_none() && uid != Some(r.name.as_str()) {
                        return None;
                    }
                    self.find(&r.kind, r.namespace.as_deref(), &r.name)
                        .or_else(|| self.find(&r.kind, None, &r.name))
                });
                if let Some(t) = target {
                    map.entry(t).or_default().push(*eid);
                }
            }
            map
        });
        let all = self.events();
        let mut out: Vec<(ObjectId, &event::Event)> = index
            .get(&id)
            .map(|ids| {
                ids.iter()
                    .filter_map(|eid| Self::view_of(all, *eid).map(|e| (*eid, e)))
                    .collect()
            })
            .unwrap_or_default();
        out.sort_by_key(|(eid, e)| (e.last, e.first, *eid));
        out
    }

    /// Pods bound to a node (`spec.nodeName`).
    pub fn pods_on_node(&self, node: &str) -> &[ObjectId] {
        let index = self.pods_by_node.get_or_init(|| {
            let mut map: HashMap<String, Vec<ObjectId>> = HashMap::new();
            for (id, p) in self.pods() {
                if let Some(n) = &p.spec.node_name {
                    map.entry(n.to_string()).or_default().push(*id);
                }
            }
            map
        });
        index.get(node).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The top-level controller of an object: follows controller ownerReferences
    /// (Pod → ReplicaSet → Deployment, Pod → Job → CronJob). Returns the owner's
    /// reference even when the owner itself is not in the bundle.
    pub fn top_controller(&self, id: ObjectId) -> Option<(ObjectRef, Option<ObjectId>)> {
        let mut current = self.object(id);
        let mut result = None;
        for _ in 0..8 {
            let owners = current.owners();
            let Some(owner) = owners
                .iter()
                .find(|o| o.controller)
                .or_else(|| owners.first())
            else {
                break;
            };
            let oref = ObjectRef {
                api_version: owner.api_version.clone(),
                kind: owner.kind.clone(),
                namespace: current.namespace.clone(),
                name: owner.name.clone(),
            };
            let found = self.by_uid(&owner.uid).or_else(|| {
                self.find_ref(
                    &oref.api_version,
                    &oref.kind,
                    oref.namespace.as_deref(),
                    &oref.name,
                )
            });
            result = Some((oref, found));
            match found {
                Some(f) => current = self.object(f),
                None => break,
            }
        }
        result
    }

    /// The file and first line of an object's kept copy.
    pub fn source_of(&self, id: ObjectId) -> (&SourceFile, Span) {
        let s = self.object(id).sources[0];
        (&self.files[s.file], s.span)
    }

    /// Finds one object for a user's `KIND/NAME [-n NS]` (the kind as
    /// [`Snapshot::ids_of`] reads it): cluster-scoped kinds by name, `-n` when given, else
    /// the only object of that name in any namespace.
    pub fn resolve(
        &self,
        kind: &str,
        name: &str,
        ns: Option<&str>,
        cluster_scoped: bool,
    ) -> Result<ObjectId, String> {
        self.resolve_ids(self.ids_of(kind), kind, name, ns, cluster_scoped)
    }

    /// [`Snapshot::resolve`] in one group.
    pub fn resolve_in(
        &self,
        group: &str,
        kind: &str,
        name: &str,
        ns: Option<&str>,
        cluster_scoped: bool,
    ) -> Result<ObjectId, String> {
        let ids = self.ids_of_group(group, kind);
        let shown = match kinds::default_group(kind) {
            Some(g) if g == group => kind.to_string(),
            _ if group.is_empty() => kind.to_string(),
            _ => format!("{kind}.{group}"),
        };
        self.resolve_ids(ids, &shown, name, ns, cluster_scoped)
    }

    /// Of `ids` (one namespaced kind's), the object named `name` that has no namespace,
    /// when it is the only one of that name: a manifest may leave its namespace out, to be
    /// applied in any, so it is in whatever namespace was asked. Beside one in a
    /// namespace, it is not guessed.
    pub fn only_without_namespace(&self, ids: &[ObjectId], name: &str) -> Option<ObjectId> {
        let mut named = ids
            .iter()
            .copied()
            .filter(|&id| self.object(id).name == name);
        match (named.next(), named.next()) {
            (Some(id), None) if self.object(id).namespace.is_none() => Some(id),
            _ => None,
        }
    }

    fn resolve_ids(
        &self,
        ids: &[ObjectId],
        kind: &str,
        name: &str,
        ns: Option<&str>,
        cluster_scoped: bool,
    ) -> Result<ObjectId, String> {
        let by_name = |ns: Option<&str>| {
            ids.iter().copied().find(|&id| {
                let o = self.object(id);
                o.name == name && o.namespace.as_deref() == ns
            })
        };
        if cluster_scoped {
            return by_name(None).ok_or_else(|| format!("{kind} {name} is not in the bundle"));
        }
        if let Some(ns) = ns {
            return by_name(Some(ns))
                .ok_or_else(|| format!("{kind} {ns}/{name} is not in the bundle"));
        }
        let matches: Vec<ObjectId> = ids
            .iter()
            .copied()
            .filter(|id| self.object(*id).name == name)
            .collect();
        match matches.len() {
            0 => Err(format!("{kind} {name} is not in the bundle")),
            1 => Ok(matches[0]),
            _ => Err(format!(
                "{kind} {name} exists in several namespaces ({}); pass -n NAMESPACE",
                matches
                    .iter()
                    .filter_map(|id| self.object(*id).namespace.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// Container logs of a pod.
    pub fn logs_of(&self, namespace: &str, pod: &str) -> Vec<&LogSource> {
        self.logs.of(namespace, pod)
    }

    /// A log's text, read on demand (the kept tail of a long one), and the line number of
    /// its first line: how rules read logs, without knowing where ingest keeps them.
    pub fn log_text(&self, log: &LogSource) -> std::io::Result<logs::LogText> {
        crate::ingest::read_log(log)
    }
}

/// The container names of the pods named `pod` in `namespace` (in every namespace when
/// it is empty): init, app and ephemeral containers.
fn pod_containers(objects: &[Object], namespace: &str, pod: &str) -> Vec<String> {
    objects
        .iter()
        .filter(|o| o.kind == "Pod" && o.name == pod)
        .filter(|o| namespace.is_empty() || o.namespace.as_deref() == Some(namespace))
        .flat_map(|o| {
            let v = o.value();
            ["containers", "initContainers", "ephemeralContainers"]
                .iter()
                .filter_map(|k| v.pointer(&format!("/spec/{k}"))?.as_array())
                .flatten()
                .filter_map(|c| c.get("name")?.as_str().map(str::to_string))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Whether two objects are of one kind and group.
fn same_kind(a: &Object, b: &Object) -> bool {
    a.kind == b.kind && a.group() == b.group()
}

/// Whether an event's subject names this object: each of kind, namespace and name agrees
/// where the subject gives it.
fn is_named_by(o: &Object, r: &event::Regarding) -> bool {
    let agrees = |given: &str, own: &str| given.is_empty() || given == own;
    agrees(&r.kind, &o.kind)
        && agrees(&r.name, &o.name)
        && agrees(
            r.namespace.as_deref().unwrap_or(""),
            o.namespace.as_deref().unwrap_or(""),
        )
}

/// The key of the uid index: a fixed hash, so lookups need no copy of the uid.
fn uid_hash(uid: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0x006b_6469_6167).hash_one(uid)
}

/// `v1.31.2+k3s1` → (1, 31, 2) for ordering.
fn version_key(v: &str) -> (u32, u32, u32) {
    let mut parts = v
        .trim_start_matches('v')
        .split(|c: char| !c.is_ascii_digit())
        .map(|p| p.parse::<u32>().unwrap_or(0));
    (
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
    )
}

//! A selective read: what a command needs from a bundle, and which files can hold it.
//!
//! `analyze` reads everything. `get`, `describe` (and `logs`) say which objects they show
//! and what their columns and sections need; ingest then reads only the files whose place
//! in the bundle's layout can hold one of them (must-gather `namespaces/NS/core/pods.yaml`,
//! troubleshoot `cluster-resources/pods/NS.json` …), and every file whose place cannot
//! tell (a single List file, a folder of unknown manifests, files a layout does not map).
//! The answer is the one a full read gives: `KDIAG_READ_ALL=1` forces a full read, and
//! the explorer's tests compare both.

use super::layout::{Detected, FileClass, Layout, kind_of_word, word_names_kind};

/// Objects a command needs: of `kind` (`None`: any), `within` a scope, named `name`
/// (`None`: any).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Wanted {
    kind: Option<String>,
    /// The resource's plural when it is no kind kdiag knows (a CRD says it).
    plural: Option<String>,
    within: Within,
    name: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Within {
    /// Every namespace and the cluster scope.
    Everywhere,
    Namespace(String),
    /// Objects without a namespace (nodes, CRDs, ClusterQueues …).
    Cluster,
}

/// What to read of a bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Want {
    /// `None`: every object (a full read).
    objects: Option<Vec<Wanted>>,
    /// `None`: every container log; else the logs of these pods, (namespace, pod), the
    /// namespace `None` for a pod of that name in any (or no) namespace.
    logs: Option<Vec<(Option<String>, String)>>,
    /// Also the container logs of every pod of these namespaces (and of logs whose place
    /// names no namespace).
    log_namespaces: Vec<String>,
    /// Kinds whose files in every namespace are read only to tell whether the bundle
    /// holds any (see [`Want::counting`]).
    counted: Vec<String>,
    /// Also every file of Events, for their times (see [`Want::with_all_events`]).
    event_times: bool,
    /// No snapshot time is needed (see [`Want::without_time`]).
    timeless: bool,
    /// Kinds whose files this read leaves are kept unparsed from a stream archive, for a
    /// read that may follow (see [`Want::sparing`]).
    spared: Vec<String>,
}

impl Want {
    /// Everything: what `analyze` reads.
    pub fn all() -> Want {
        Want {
            objects: None,
            logs: None,
            log_namespaces: Vec::new(),
            counted: Vec::new(),
            event_times: false,
            timeless: false,
            spared: Vec::new(),
        }
    }

    /// Nothing yet (bundle metadata is always read); add what is needed.
    pub fn nothing() -> Want {
        Want {
            objects: Some(Vec::new()),
            logs: Some(Vec::new()),
            log_namespaces: Vec::new(),
            counted: Vec::new(),
            event_times: false,
            timeless: false,
            spared: Vec::new(),
        }
    }

    /// Also the objects of `kind` in `namespace` (`None`: all), named `name` (`None`: any).
    pub fn objects(self, kind: &str, namespace: Option<&str>, name: Option<&str>) -> Want {
        self.custom(kind, None, namespace, name)
    }

    /// [`Want::objects`] of a custom resource, whose files are named by `plural`.
    pub fn custom(
        self,
        kind: &str,
        plural: Option<&str>,
        namespace: Option<&str>,
        name: Option<&str>,
    ) -> Want {
        let within = match namespace {
            Some(ns) => Within::Namespace(ns.to_string()),
            None => Within::Everywhere,
        };
        self.with(Wanted {
            kind: Some(kind.to_string()),
            plural: plural.map(str::to_ascii_lowercase),
            within,
            name: name.map(str::to_string),
        })
    }

    /// Also every object of one namespace.
    pub fn namespace(self, namespace: &str) -> Want {
        self.with(Wanted {
            kind: None,
            plural: None,
            within: Within::Namespace(namespace.to_string()),
            name: None,
        })
    }

    /// Also every object without a namespace.
    pub fn cluster_scope(self) -> Want {
        self.with(Wanted {
            kind: None,
            plural: None,
            within: Within::Cluster,
            name: None,
        })
    }

    fn with(mut self, wanted: Wanted) -> Want {
        if let Some(list) = &mut self.objects {
            list.push(wanted);
        }
        self
    }

    /// Also the container logs of one pod.
    pub fn logs_of(mut self, namespace: &str, pod: &str) -> Want {
        if let Some(list) = &mut self.logs {
            list.push((Some(namespace.to_string()), pod.to_string()));
        }
        self
    }

    /// Also the container logs of every pod named `pod`, whatever its namespace (a
    /// troubleshoot logs collector's files name none).
    pub fn logs_of_pod(mut self, pod: &str) -> Want {
        if let Some(list) = &mut self.logs {
            list.push((None, pod.to_string()));
        }
        self
    }

    /// Also the container logs of every pod of `namespace`, and every log whose place
    /// names no namespace (it may be of one of them).
    pub fn logs_in(mut self, namespace: &str) -> Want {
        if self.logs.is_some() {
            self.log_namespaces.push(namespace.to_string());
        }
        self
    }

    /// Also whether the bundle holds any object of `kind` in any namespace: a file whose
    /// place holds only that kind, and no object wanted otherwise, is read for that alone
    /// (see [`Want::times_only`]); its objects are not kept.
    pub fn counting(mut self, kind: &str) -> Want {
        if self.objects.is_some() {
            self.counted.push(kind.to_string());
        }
        self
    }

    /// A read that dates nothing: the snapshot time is not asked for, so the Events of
    /// every namespace are not read for it (see [`crate::ingest::load_wanted`]).
    pub fn without_time(mut self) -> Want {
        self.timeless = true;
        self
    }

    /// Whether the read must give the snapshot time a full read gives.
    pub fn needs_time(&self) -> bool {
        !self.timeless
    }

    /// Also keeps, from a stream archive (a tar, compressed or not), the bytes of the
    /// members this read leaves whose place can hold `kind`, up to a bound: a second read
    /// of that kind everywhere (`describe` of a name not in its namespace) then parses
    /// them instead of inflating the archive again (see [`crate::ingest::locate`]).
    pub fn sparing(mut self, kind: &str) -> Want {
        if self.objects.is_some() {
            self.spared.push(kind.to_string());
        }
        self
    }

    /// Whether this read keeps members it leaves (see [`Want::sparing`]).
    pub fn is_sparing(&self) -> bool {
        !self.spared.is_empty()
    }

    /// Whether the member at `path`, which this read leaves, is kept (see [`Want::sparing`]).
    pub fn spares(&self, detected: &Detected, path: &str) -> bool {
        if self.spared.is_empty()
            || !matches!(
                detected.classify(path),
                FileClass::Objects | FileClass::MaybeObjects
            )
        {
            return false;
        }
        let place = place_of(detected, path);
        self.spared.iter().any(|k| everywhere(k).fits(&place))
    }

    /// Whether this is a full read.
    pub fn is_all(&self) -> bool {
        self.objects.is_none() && self.logs.is_none()
    }

    /// This want with the events of every namespace: the snapshot time is the bundle
    /// metadata's checked against the newest of them, or the newest of them. A file that
    /// can hold only Events, and no object wanted otherwise, is read for their times
    /// alone (see [`Want::times_only`]).
    pub fn with_all_events(mut self) -> Want {
        self.event_times = self.objects.is_some();
        self
    }

    /// Whether the file at `path` is read only for the times of its Events: its place
    /// says it holds Events (`namespaces/NS/core/events.yaml`, `cluster-resources/events/
    /// NS.json` …) and no object wanted otherwise.
    /// A file of a kind [`Want::counting`] names is read so too, for that kind's presence.
    pub fn times_only(&self, detected: &Detected, path: &str) -> bool {
        let Some(list) = self.objects.as_ref() else {
            return false;
        };
        if !matches!(detected.classify(path), FileClass::Objects) {
            return false;
        }
        let place = place_of(detected, path);
        let kind = place
            .word
            .and_then(|w| kind_of_word(&w.to_ascii_lowercase()));
        let events = self.event_times && kind == Some("Event");
        let counted = kind.is_some_and(|k| self.counted.iter().any(|c| c == k));
        (events || counted) && !list.iter().any(|w| w.fits(&place))
    }

    /// Whether a problem in the file at `path` of `input` bears on what this want names:
    /// the file is one a selective read of this want (with every Event, as
    /// [`crate::ingest::load_wanted`] reads) reads; problems without a file always bear.
    /// A full read and a selective read of the same want so report the same problems.
    pub fn bears_on(&self, input: &super::InputInfo, path: Option<&str>) -> bool {
        let Some(path) = path else { return true };
        let detected = Detected {
            layout: input.layout,
            root: input.root.clone(),
            signals: Vec::new(),
        };
        self.admits(&detected, path)
    }

    /// Whether the file at `path` of an input laid out as `detected` is read: bundle
    /// metadata and files the layout skips always are (they cost nothing), a log when its
    /// pod's logs are wanted, a file of objects when its place can hold a wanted one.
    pub fn admits(&self, detected: &Detected, path: &str) -> bool {
        if self.is_all() {
            return true;
        }
        match detected.classify(path) {
            FileClass::Log(key) => {
                self.logs.as_ref().is_none_or(|pods| {
                    pods.iter().any(|(ns, pod)| {
                        ns.as_ref().is_none_or(|ns| *ns == key.namespace) && *pod == key.pod
                    })
                }) || (!self.log_namespaces.is_empty() && key.namespace.is_empty())
                    || self.log_namespaces.contains(&key.namespace)
            }
            FileClass::Objects | FileClass::MaybeObjects => match &self.objects {
                None => true,
                Some(list) => {
                    let place = place_of(detected, path);
                    list.iter().any(|w| w.fits(&place))
                        || (self.event_times && ANY_EVENT.fits(&place))
                        || self.counted.iter().any(|k| everywhere(k).fits(&place))
                }
            },
            _ => true,
        }
    }
}

/// Every object of `kind`, wherever it is.
fn everywhere(kind: &str) -> Wanted {
    Wanted {
        kind: Some(kind.to_string()),
        plural: None,
        within: Within::Everywhere,
        name: None,
    }
}

/// Every Event, wherever it is.
static ANY_EVENT: std::sync::LazyLock<Wanted> = std::sync::LazyLock::new(|| Wanted {
    kind: Some("Event".to_string()),
    plural: None,
    within: Within::Everywhere,
    name: None,
});

/// What the files a selective read left can hold, by their places: gathered once, as
/// the files are left, so that asking of a kind (see `Snapshot::has_kind`) costs a look
/// at a few resource words instead of a walk over every unread path.
#[derive(Debug, Default)]
pub struct UnreadPlaces {
    /// A file of objects was left whose place names no kind: it can hold any.
    any: bool,
    /// The resource words (lowercase) naming the files of objects left, where the layout
    /// names files by resource …
    by_resource: std::collections::BTreeSet<String>,
    /// … and where it does not.
    otherwise: std::collections::BTreeSet<String>,
}

impl UnreadPlaces {
    /// Notes the file at `path` of an input laid out as `detected` as left unread.
    pub fn add(&mut self, detected: &Detected, path: &str) {
        if !matches!(
            detected.classify(path),
            FileClass::Objects | FileClass::MaybeObjects
        ) {
            return;
        }
        let place = place_of(detected, path);
        let Some(word) = place.word else {
            self.any = true;
            return;
        };
        let words = match place.by_resource {
            true => &mut self.by_resource,
            false => &mut self.otherwise,
        };
        if !words.contains(word) {
            words.insert(word.to_ascii_lowercase());
        }
    }

    pub fn extend(&mut self, other: UnreadPlaces) {
        self.any |= other.any;
        self.by_resource.extend(other.by_resource);
        self.otherwise.extend(other.otherwise);
    }

    /// Whether a file left unread can hold an object of `kind`, by its place (a file of
    /// objects whose place does not rule the kind out).
    pub fn could_hold(&self, kind: &str) -> bool {
        let wanted = everywhere(kind);
        let named = |words: &std::collections::BTreeSet<String>, by_resource| {
            words.iter().any(|w| wanted.named_by(kind, w, by_resource))
        };
        self.any || named(&self.by_resource, true) || named(&self.otherwise, false)
    }
}

impl Wanted {
    fn fits(&self, place: &Place) -> bool {
        let scope_fits = match (&self.within, &place.scope) {
            (Within::Everywhere, _) | (_, Scope::Unknown) => true,
            (Within::Namespace(want), Scope::Namespace(ns)) => want == ns,
            (Within::Cluster, Scope::Cluster) => true,
            (Within::Namespace(_), Scope::Cluster) | (Within::Cluster, Scope::Namespace(_)) => {
                false
            }
        };
        let name_fits = match (&self.name, place.name) {
            (Some(want), Some(name)) => want == name,
            _ => true,
        };
        let kind_fits = match (&self.kind, place.word) {
            (None, _) | (_, None) => true,
            (Some(kind), Some(word)) => self.named_by(kind, word, place.by_resource),
        };
        scope_fits && name_fits && kind_fits
    }

    /// Whether a file named by the resource word `word` can hold this kind. A word kdiag
    /// knows names one kind; another word names a kind kdiag does not know (where the
    /// layout names files by resource, `by_resource`), or anything.
    fn named_by(&self, kind: &str, word: &str, by_resource: bool) -> bool {
        let word = word.to_ascii_lowercase();
        if let Some(named) = kind_of_word(&word) {
            return named == kind;
        }
        if !by_resource {
            return true;
        }
        if word_names_kind(kind) {
            return false;
        }
        let k = kind.to_ascii_lowercase();
        self.plural.as_deref() == Some(word.as_str())
            || [format!("{k}s"), format!("{k}es"), k.clone()].contains(&word)
            || k.strip_suffix('y')
                .is_some_and(|s| word == format!("{s}ies"))
    }
}

/// What a file's place in its layout says of the objects it holds.
#[derive(Debug, PartialEq, Eq)]
struct Place<'a> {
    /// The resource word that names its kind (`pods`), if the place has one.
    word: Option<&'a str>,
    scope: Scope<'a>,
    /// The one object's name, for a file of one object (`pods/NAME/NAME.yaml`).
    name: Option<&'a str>,
    /// The layout names files by resource: a word kdiag does not know names no kind it does.
    by_resource: bool,
}

#[derive(Debug, PartialEq, Eq)]
enum Scope<'a> {
    Namespace(&'a str),
    Cluster,
    Unknown,
}

/// A file name without its `.yaml`, `.yml` or `.json` (names hold dots: nodes do).
fn stem(file: &str) -> &str {
    [".yaml", ".yml", ".json"]
        .iter()
        .find_map(|ext| file.strip_suffix(ext))
        .unwrap_or(file)
}

/// Where `path` sits in the layout `detected`: the files each layout writes by resource
/// and namespace. Anything else (another top folder, a nested archive, a layout without
/// such places) is [`Scope::Unknown`] and holds any kind.
fn place_of<'a>(detected: &Detected, path: &'a str) -> Place<'a> {
    let unknown = Place {
        word: None,
        scope: Scope::Unknown,
        name: None,
        by_resource: false,
    };
    if path.contains("!/") {
        return unknown;
    }
    let Some(rel) = path.strip_prefix(detected.root.as_str()) else {
        return unknown;
    };
    let comps: Vec<&str> = rel.split('/').collect();
    let place = |word: Option<&'a str>, scope, name, by_resource| Place {
        word,
        scope,
        name,
        by_resource,
    };
    match detected.layout {
        Layout::MustGather => match comps[..] {
            ["namespaces", ns, "pods", pod, file] if stem(file) == pod => {
                place(Some("pods"), Scope::Namespace(ns), Some(pod), true)
            }
            ["namespaces", ns, file] if stem(file) == ns => {
                place(Some("namespaces"), Scope::Cluster, Some(ns), true)
            }
            ["namespaces", ns, _group, file] => {
                place(Some(stem(file)), Scope::Namespace(ns), None, true)
            }
            ["namespaces", ns, ..] => place(None, Scope::Namespace(ns), None, false),
            ["cluster-scoped-resources", _group, file] => {
                place(Some(stem(file)), Scope::Cluster, None, true)
            }
            ["cluster-scoped-resources", _group, plural, file] => {
                place(Some(plural), Scope::Cluster, Some(stem(file)), true)
            }
            ["cluster-scoped-resources", ..] => place(None, Scope::Cluster, None, false),
            _ => unknown,
        },
        Layout::Troubleshoot => match comps[..] {
            ["cluster-resources", "custom-resources", dir, file] => {
                let word = dir.split('.').next();
                place(word, Scope::Namespace(stem(file)), None, false)
            }
            ["cluster-resources", "custom-resources", file] => {
                let word = stem(file).split('.').next();
                place(word, Scope::Cluster, None, false)
            }
            ["cluster-resources", dir, file] => {
                place(Some(dir), Scope::Namespace(stem(file)), None, false)
            }
            ["cluster-resources", file] => place(Some(stem(file)), Scope::Cluster, None, false),
            _ => unknown,
        },
        Layout::SupportBundleKit => match comps[..] {
            ["yamls", "namespaced", ns, _, .., file] => {
                place(Some(stem(file)), Scope::Namespace(ns), None, true)
            }
            ["yamls", "cluster", _, .., file] => {
                place(Some(stem(file)), Scope::Cluster, None, true)
            }
            _ => unknown,
        },
        Layout::ClusterInfoDump => match comps[..] {
            [ns, file] if file.ends_with(".json") => {
                place(Some(stem(file)), Scope::Namespace(ns), None, false)
            }
            [file] if file.ends_with(".json") => {
                place(Some(stem(file)), Scope::Cluster, None, false)
            }
            _ => unknown,
        },
        Layout::Insights | Layout::RancherLogsCollector | Layout::KubectlDump => unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::layout::detect;

    fn detected(paths: &[&str]) -> Detected {
        detect(paths.iter().copied())
    }

    #[test]
    fn must_gather_files_by_namespace_kind_and_name() {
        let mg = "mg/img/";
        let paths = [
            "mg/img/timestamp",
            "mg/img/namespaces/shop/core/pods.yaml",
            "mg/img/namespaces/shop/core/events.yaml",
            "mg/img/namespaces/shop/apps/replicasets.yaml",
            "mg/img/namespaces/shop/pods/web-1/web-1.yaml",
            "mg/img/namespaces/shop/pods/web-2/web-2.yaml",
            "mg/img/namespaces/shop/pods/web-1/web/web/logs/current.log",
            "mg/img/namespaces/shop/shop.yaml",
            "mg/img/namespaces/other/core/pods.yaml",
            "mg/img/namespaces/shop/monitoring.coreos.com/servicemonitors.yaml",
            "mg/img/cluster-scoped-resources/core/nodes/ip-10-0-1-2.ec2.internal.yaml",
            "mg/img/cluster-scoped-resources/core/namespaces/shop.yaml",
            "mg/img/notes/extra.yaml",
        ];
        let d = detected(&paths);
        assert_eq!(d.root, mg);
        let read = |want: &Want| -> Vec<&str> {
            paths
                .iter()
                .copied()
                .filter(|p| want.admits(&d, p))
                .map(|p| &p[mg.len()..])
                .collect()
        };
        let pods = Want::nothing().objects("Pod", Some("shop"), None);
        assert_eq!(
            read(&pods),
            [
                "timestamp",
                "namespaces/shop/core/pods.yaml",
                "namespaces/shop/pods/web-1/web-1.yaml",
                "namespaces/shop/pods/web-2/web-2.yaml",
                "notes/extra.yaml",
            ]
        );
        let one = Want::nothing()
            .objects("Pod", Some("shop"), Some("web-1"))
            .logs_of("shop", "web-1");
        assert_eq!(
            read(&one),
            [
                "timestamp",
                "namespaces/shop/core/pods.yaml",
                "namespaces/shop/pods/web-1/web-1.yaml",
                "namespaces/shop/pods/web-1/web/web/logs/current.log",
                "notes/extra.yaml",
            ]
        );
        let nodes = Want::nothing().objects("Node", None, None);
        assert_eq!(
            read(&nodes),
            [
                "timestamp",
                "cluster-scoped-resources/core/nodes/ip-10-0-1-2.ec2.internal.yaml",
                "notes/extra.yaml",
            ]
        );
        let monitors = Want::nothing().custom("ServiceMonitor", None, Some("shop"), None);
        assert_eq!(
            read(&monitors),
            [
                "timestamp",
                "namespaces/shop/monitoring.coreos.com/servicemonitors.yaml",
                "notes/extra.yaml",
            ]
        );
        let namespace = Want::nothing().objects("Namespace", None, Some("shop"));
        assert_eq!(
            read(&namespace),
            [
                "timestamp",
                "namespaces/shop/shop.yaml",
                "cluster-scoped-resources/core/namespaces/shop.yaml",
                "notes/extra.yaml",
            ]
        );
        assert!(paths.iter().all(|p| Want::all().admits(&d, p)));
        let around = Want::nothing().namespace("shop").cluster_scope();
        let left: Vec<&str> = paths
            .iter()
            .copied()
            .filter(|p| !around.admits(&d, p))
            .map(|p| &p[mg.len()..])
            .collect();
        assert_eq!(
            left,
            [
                "namespaces/shop/pods/web-1/web/web/logs/current.log",
                "namespaces/other/core/pods.yaml"
            ]
        );
    }

    #[test]
    fn events_not_shown_are_read_for_their_times_only() {
        let paths = [
            "mg/timestamp",
            "mg/namespaces/shop/core/events.yaml",
            "mg/namespaces/shop/core/pods.yaml",
            "mg/namespaces/other/core/events.yaml",
            "mg/notes/extra.yaml",
        ];
        let d = detected(&paths);
        let pods = Want::nothing()
            .objects("Pod", Some("shop"), None)
            .with_all_events();
        let read: Vec<&str> = paths
            .iter()
            .copied()
            .filter(|p| pods.admits(&d, p))
            .collect();
        assert_eq!(read, paths);
        let times_only: Vec<&str> = paths
            .iter()
            .copied()
            .filter(|p| pods.times_only(&d, p))
            .collect();
        assert_eq!(
            times_only,
            [
                "mg/namespaces/shop/core/events.yaml",
                "mg/namespaces/other/core/events.yaml"
            ]
        );
        // The Events shown, and files whose place does not say, are read whole.
        let events = Want::nothing()
            .objects("Event", Some("shop"), None)
            .with_all_events();
        assert!(!events.times_only(&d, "mg/namespaces/shop/core/events.yaml"));
        assert!(events.times_only(&d, "mg/namespaces/other/core/events.yaml"));
        assert!(!events.times_only(&d, "mg/notes/extra.yaml"));
        assert!(
            !Want::all()
                .with_all_events()
                .times_only(&d, "mg/namespaces/other/core/events.yaml")
        );
        let ts = [
            "sb/cluster-resources/events/shop.json",
            "sb/cluster-resources/pods/shop.json",
            "sb/version.yaml",
        ];
        let d = detected(&ts);
        let nodes = Want::nothing()
            .objects("Node", None, None)
            .with_all_events();
        assert!(nodes.times_only(&d, "sb/cluster-resources/events/shop.json"));
        assert!(!nodes.admits(&d, "sb/cluster-resources/pods/shop.json"));
    }

    #[test]
    fn other_layouts_by_namespace_and_kind() {
        let ts = [
            "sb/cluster-resources/pods/shop.json",
            "sb/cluster-resources/pods/other.json",
            "sb/cluster-resources/nodes.json",
            "sb/cluster-resources/custom-resources/workloads.kueue.x-k8s.io/shop.yaml",
            "sb/cluster-resources/pods/logs/shop/web-1/web.log",
            "sb/version.yaml",
        ];
        let d = detected(&ts);
        let pods = Want::nothing().objects("Pod", Some("shop"), None);
        let read: Vec<&str> = ts.iter().copied().filter(|p| pods.admits(&d, p)).collect();
        assert_eq!(
            read,
            ["sb/cluster-resources/pods/shop.json", "sb/version.yaml"]
        );
        let sbk = [
            "b/yamls/namespaced/shop/v1/pods.yaml",
            "b/yamls/namespaced/other/v1/pods.yaml",
            "b/yamls/cluster/v1/nodes.yaml",
            "b/metadata.yaml",
        ];
        let d = detected(&sbk);
        let nodes = Want::nothing().objects("Node", None, None);
        assert!(nodes.admits(&d, "b/yamls/cluster/v1/nodes.yaml"));
        assert!(nodes.admits(&d, "b/metadata.yaml"));
        assert!(!nodes.admits(&d, "b/yamls/namespaced/shop/v1/pods.yaml"));
        // A folder of manifests says nothing by its paths: every file is read.
        let d = detected(&["a.yaml", "b/pods.yaml"]);
        assert!(nodes.admits(&d, "b/pods.yaml"));
    }
}

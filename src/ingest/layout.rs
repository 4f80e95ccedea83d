//! Bundle layouts: which tool wrote the bundle, which files hold objects, which are
//! logs or metadata, and what kind a kind-less object has given where it sits.

use crate::kube::kinds::{self, KindInfo};
use serde::Serialize;

/// The tool that produced an input, reported as `inputs[].layout`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    MustGather,
    SupportBundleKit,
    Troubleshoot,
    Insights,
    ClusterInfoDump,
    RancherLogsCollector,
    KubectlDump,
}

impl Layout {
    pub const ALL: [Layout; 7] = [
        Layout::MustGather,
        Layout::SupportBundleKit,
        Layout::Troubleshoot,
        Layout::Insights,
        Layout::ClusterInfoDump,
        Layout::RancherLogsCollector,
        Layout::KubectlDump,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Layout::MustGather => "must-gather",
            Layout::SupportBundleKit => "support-bundle-kit",
            Layout::Troubleshoot => "troubleshoot",
            Layout::ClusterInfoDump => "cluster-info-dump",
            Layout::Insights => "insights",
            Layout::RancherLogsCollector => "rancher-logs-collector",
            Layout::KubectlDump => "kubectl-dump",
        }
    }
}

/// What detection decided: the layout, the folder it starts at (bundles are often
/// wrapped in one or two folders), and the signals that decided it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detected {
    pub layout: Layout,
    /// Path prefix of the layout's top folder, `""` or ending in `/`.
    pub root: String,
    pub signals: Vec<&'static str>,
}

impl Detected {
    /// The note `inputs[].notes` carries: which signals decided.
    pub fn note(&self) -> String {
        let mut note = format!("layout {}: ", self.layout.as_str());
        if self.signals.is_empty() {
            note.push_str("no layout's signals found; every YAML or JSON file is read");
        } else {
            note.push_str(&self.signals.join(", "));
        }
        if !self.root.is_empty() {
            note.push_str(&format!(" (at {})", self.root));
        }
        note
    }

    /// Classifies one file of this input (see [`classify`]).
    pub fn classify(&self, path: &str) -> FileClass {
        classify(self.layout, &self.root, path)
    }
}

/// The structural signals one path gives: (layout, root prefix, signal).
fn signals(path: &str) -> Vec<(Layout, &str, &'static str)> {
    let comps: Vec<&str> = path.split('/').collect();
    let n = comps.len();
    let mut offsets = Vec::with_capacity(n);
    let mut at = 0;
    for c in &comps {
        offsets.push(at);
        at += c.len() + 1;
    }
    let root = |i: usize| &path[..offsets[i]];
    let file = comps[n - 1];
    let mut out = Vec::new();
    let in_cluster_resources = comps.contains(&"cluster-resources");
    for i in 0..n.saturating_sub(1) {
        let rest = n - i;
        match comps[i] {
            "cluster-scoped-resources" => {
                out.push((Layout::MustGather, root(i), "cluster-scoped-resources/"))
            }
            "namespaces" if rest >= 4 && comps[i + 2] == "core" => {
                out.push((Layout::MustGather, root(i), "namespaces/*/core/"))
            }
            "cluster-resources" => out.push((Layout::Troubleshoot, root(i), "cluster-resources/")),
            "cluster-info" if rest == 2 && file == "cluster_version.json" => out.push((
                Layout::Troubleshoot,
                root(i),
                "cluster-info/cluster_version.json",
            )),
            "execution-data" if rest == 2 => {
                out.push((Layout::Troubleshoot, root(i), "execution-data/"))
            }
            "config" if rest == 2 && file == "version.json" => {
                out.push((Layout::Insights, root(i), "config/version.json"))
            }
            "config" if rest == 3 && comps[i + 1] == "clusteroperator" => {
                out.push((Layout::Insights, root(i), "config/clusteroperator/"))
            }
            "config" if rest == 2 && file == "infrastructure.json" => {
                out.push((Layout::Insights, root(i), "config/infrastructure.json"))
            }
            "insights-operator" if rest == 2 && file == "gathers.json" => {
                out.push((Layout::Insights, root(i), "insights-operator/gathers.json"))
            }
            "yamls" if rest >= 4 && matches!(comps[i + 1], "cluster" | "namespaced") => out.push((
                Layout::SupportBundleKit,
                root(i),
                "yamls/{cluster,namespaced}/",
            )),
            "logs" if rest == 4 && file.ends_with(".log") && !in_cluster_resources => out.push((
                Layout::SupportBundleKit,
                root(i),
                "logs/<ns>/<pod>/<container>.log",
            )),
            "nodes" if rest == 2 && file.ends_with(".zip") => {
                out.push((Layout::SupportBundleKit, root(i), "nodes/*.zip"))
            }
            _ => {}
        }
    }
    let dir = root(n - 1);
    match file {
        "timestamp" => out.push((Layout::MustGather, dir, "timestamp")),
        "version" => out.push((Layout::MustGather, dir, "version")),
        "event-filter.html" => out.push((Layout::MustGather, dir, "event-filter.html")),
        "version.yaml" => out.push((Layout::Troubleshoot, dir, "version.yaml")),
        "analysis.json" => out.push((Layout::Troubleshoot, dir, "analysis.json")),
        "metadata.yaml" => out.push((Layout::SupportBundleKit, dir, "metadata.yaml")),
        "bundleGenerationError.log" => {
            out.push((Layout::SupportBundleKit, dir, "bundleGenerationError.log"))
        }
        // `kubectl cluster-info dump --output-directory`: NS/pods.json, NS/events.json…
        "pods.json" | "events.json" | "replicasets.json" if n >= 2 && !in_cluster_resources => {
            let signal = match file {
                "pods.json" => "<ns>/pods.json",
                "events.json" => "<ns>/events.json",
                _ => "<ns>/replicasets.json",
            };
            out.push((Layout::ClusterInfoDump, root(n - 2), signal));
        }
        _ => {}
    }
    if let Some((i, signal)) = super::rancher::signal(&comps) {
        out.push((Layout::RancherLogsCollector, root(i), signal));
    }
    out
}

/// Decides the layout from the paths of an input's files (archive-relative): the
/// (layout, top folder) with the most distinct structural signals wins. Signals in a
/// folder above the top one count for it (must-gather's outer `timestamp`). Ties go to
/// the order of [`Layout::ALL`], then to the shallower folder.
pub fn detect<'a>(paths: impl Iterator<Item = &'a str>) -> Detected {
    let mut detector = Detector::default();
    for p in paths {
        detector.add(p);
    }
    detector.decided().clone()
}

/// [`detect`] one path at a time: what the paths seen so far decide, for a tar read as
/// it streams (its members are picked before its last path is known).
#[derive(Default)]
pub struct Detector {
    found: std::collections::BTreeMap<(Layout, String), std::collections::BTreeSet<&'static str>>,
    /// The decision for the paths so far; `None` when a new signal came since.
    decided: Option<Detected>,
}

impl Detector {
    pub fn add(&mut self, path: &str) {
        for (layout, root, signal) in signals(path) {
            let new = self
                .found
                .entry((layout, root.to_string()))
                .or_default()
                .insert(signal);
            if new {
                self.decided = None;
            }
        }
    }

    /// The layout the paths added so far decide.
    pub fn decided(&mut self) -> &Detected {
        let found = &self.found;
        self.decided.get_or_insert_with(|| decide(found))
    }
}

fn decide(
    found: &std::collections::BTreeMap<(Layout, String), std::collections::BTreeSet<&'static str>>,
) -> Detected {
    let mut best: Option<(
        usize,
        Layout,
        &String,
        std::collections::BTreeSet<&'static str>,
    )> = None;
    for ((layout, root), own) in found {
        let mut all = own.clone();
        for ((l, above), theirs) in found {
            if l == layout && above.len() < root.len() && root.starts_with(above.as_str()) {
                all.extend(theirs.iter().copied());
            }
        }
        // Top-level metadata alone does not make a layout's root: its structure does.
        let structural = own.iter().any(|s| !METADATA_SIGNALS.contains(s));
        let score = all.len() + usize::from(structural);
        let better = match &best {
            None => true,
            Some((s, l, r, _)) => {
                (
                    score,
                    std::cmp::Reverse(*layout),
                    std::cmp::Reverse(root.len()),
                ) > (*s, std::cmp::Reverse(*l), std::cmp::Reverse(r.len()))
            }
        };
        if better {
            best = Some((score, *layout, root, all));
        }
    }
    match best {
        Some((_, layout, root, signals)) => Detected {
            layout,
            root: root.clone(),
            signals: order_signals(layout, signals),
        },
        None => Detected {
            layout: Layout::KubectlDump,
            root: String::new(),
            signals: Vec::new(),
        },
    }
}

/// Signals that are files a layout puts at its top, not its folder structure.
const METADATA_SIGNALS: &[&str] = &[
    "timestamp",
    "version",
    "event-filter.html",
    "version.yaml",
    "analysis.json",
    "metadata.yaml",
    "bundleGenerationError.log",
];

/// Structure first, then top-level files, each in a fixed order.
fn order_signals(
    _layout: Layout,
    signals: std::collections::BTreeSet<&'static str>,
) -> Vec<&'static str> {
    let (mut structure, mut meta): (Vec<_>, Vec<_>) = signals
        .into_iter()
        .partition(|s| !METADATA_SIGNALS.contains(s));
    structure.sort();
    meta.sort_by_key(|s| METADATA_SIGNALS.iter().position(|m| m == s));
    structure.extend(meta);
    structure
}

/// What a file is, before reading it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileClass {
    /// Should hold Kubernetes objects: failing to parse is a problem.
    Objects,
    /// May hold objects (collector output, extension-less files): loaded when it does,
    /// otherwise counted as skipped.
    MaybeObjects,
    /// A container log.
    Log(LogKey),
    /// must-gather `timestamp`: gives the snapshot time.
    Timestamp,
    /// support-bundle-kit `metadata.yaml`: gives the snapshot time (`bundlecreatedat`).
    BundleMetadata,
    /// Insights' compact events: not objects (no involvedObject), but their times date
    /// the snapshot.
    EventTimes,
    /// troubleshoot `cluster-info/cluster_version.json`.
    ClusterVersion,
    /// kubectl's table text of one kind (Rancher's logs collector: `rke2/kubectl/pods`),
    /// read into objects by `ingest::kubectl_table`.
    KubectlTable(&'static str),
    /// Rancher's logs collector's `systeminfo/date`: gives the snapshot time.
    CaptureDate,
    /// A known non-object file (logs without a pod, analysis.json, version.yaml, DNS…).
    Skip,
}

/// A container log's identity.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct LogKey {
    pub namespace: String,
    pub pod: String,
    pub container: String,
    pub previous: bool,
}

const SKIP_DIRS: &[&str] = &[
    "auth-cani-list",
    "dns",
    "goldpinger",
    "execution-data",
    "collectd",
    "secrets-errors",
    "collector-errors",
    "host_service_logs",
    "network_logs",
    "sysinfo",
    "metrics",
    "aggregated",
];

/// A file or folder name that is no cluster state whatever the layout: hidden ones
/// (`.git/`, `.vscode/`, `.DS_Store`, macOS `._` twins, vim's `.x.yaml.swp`) and editors'
/// backups (`pods.yaml~`, `#pods.yaml#`, `.bak`, `.orig`). They are skipped, never read as
/// objects, so an editor left open on a bundle adds no problem.
pub fn is_editor_or_hidden(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    (name.starts_with('.') && name != "." && name != "..")
        || name.ends_with('~')
        || (name.len() > 1 && name.starts_with('#') && name.ends_with('#'))
        || [".swp", ".swo", ".swx", ".bak", ".orig"]
            .iter()
            .any(|e| lower.ends_with(e))
}

/// Classifies one file by its layout, the layout's top folder `root` (see [`Detected`])
/// and its path (archive-relative, `!/` for nested). Names a layout reserves for metadata
/// are metadata only at the top folder.
pub fn classify(layout: Layout, root: &str, path: &str) -> FileClass {
    classify_parts(layout, root, path, &PathParts::of(path))
}

/// What classifying a path needs whatever the layout and the root: computed once where
/// one path is classified under every layout and root (see [`parse_early`], run for
/// each archive member on the thread that inflates the archive).
struct PathParts<'a> {
    /// The folder the file is in.
    dir: &'a str,
    /// The parts of the path inside its innermost archive (`a.zip!/x/y` → `x`, `y`).
    comps: Vec<&'a str>,
    /// The file name, lowercase.
    lower: String,
}

impl<'a> PathParts<'a> {
    fn of(path: &'a str) -> PathParts<'a> {
        let inner = path.rsplit("!/").next().unwrap_or(path);
        let comps: Vec<&str> = inner.split('/').filter(|c| !c.is_empty()).collect();
        PathParts {
            dir: path.rsplit_once('/').map_or("", |(d, _)| d),
            lower: comps
                .last()
                .map(|f| f.to_ascii_lowercase())
                .unwrap_or_default(),
            comps,
        }
    }
}

fn classify_parts(layout: Layout, root: &str, path: &str, parts: &PathParts) -> FileClass {
    if path == super::source::STDIN_NAME {
        return FileClass::Objects;
    }
    let rel = path.strip_prefix(root);
    let dir = parts.dir;
    // A file in the top folder, or (must-gather's outer `timestamp`) in one above it.
    let top = match rel {
        Some(r) => !r.contains('/'),
        None => root.starts_with(dir) && (dir.is_empty() || root[dir.len()..].starts_with('/')),
    };
    let comps = &parts.comps;
    let Some(file) = comps.last().copied() else {
        return FileClass::Skip;
    };
    if path
        .split(['/', '!'])
        .any(|c| !c.is_empty() && is_editor_or_hidden(c))
    {
        return FileClass::Skip;
    }
    if let Some(key) = log_key(layout, rel.unwrap_or(path), comps) {
        return FileClass::Log(key);
    }
    match (layout, file) {
        (Layout::MustGather, "timestamp") if top => return FileClass::Timestamp,
        // `openshift/must-gather` and its version: the gathering image, not the cluster.
        (Layout::MustGather, "version") if top => return FileClass::Skip,
        (Layout::Troubleshoot, "version.yaml") if top => return FileClass::Skip,
        (Layout::SupportBundleKit, "metadata.yaml") if top => return FileClass::BundleMetadata,
        _ => {}
    }
    if file == "cluster_version.json" && comps.contains(&"cluster-info") {
        return FileClass::ClusterVersion;
    }
    let lower = parts.lower.as_str();
    if layout == Layout::RancherLogsCollector
        && let Some(class) = super::rancher::classify(comps, file, !lower.contains('.'))
    {
        return class;
    }
    let ext = lower.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    let object_ext = matches!(ext, "yaml" | "yml" | "json");
    if !object_ext && !lower.contains('.') {
        // Extension-less files: insights and pfpstatus keep JSON this way.
        return FileClass::MaybeObjects;
    }
    if !object_ext {
        return FileClass::Skip;
    }
    if comps.iter().any(|c| SKIP_DIRS.contains(c))
        || matches!(file, "analysis.json" | "errors.json" | "events-errors.json")
        || (layout == Layout::Troubleshoot
            && matches!(
                file,
                "groups.json" | "resources.json" | "cluster_version.json"
            ))
        || lower.ends_with("-errors.json")
    {
        return FileClass::Skip;
    }
    match layout {
        Layout::Troubleshoot => {
            // Collector outputs under cluster-resources that are not objects.
            if comps.contains(&"cluster-resources") && !comps.contains(&"image-pull-secrets") {
                FileClass::Objects
            } else {
                FileClass::MaybeObjects
            }
        }
        Layout::MustGather => {
            let structural = rel.is_some_and(|r| {
                r.starts_with("namespaces/") || r.starts_with("cluster-scoped-resources/")
            });
            if structural {
                FileClass::Objects
            } else {
                FileClass::MaybeObjects
            }
        }
        Layout::SupportBundleKit => {
            // Host files of `nodes/*.zip` (`/etc/...`) and anything else: read if objects.
            if rel.is_some_and(|r| r.starts_with("yamls/")) {
                FileClass::Objects
            } else {
                FileClass::MaybeObjects
            }
        }
        Layout::Insights => {
            if file.starts_with("events") || comps.contains(&"events") {
                // Insights' compact events carry no involvedObject: nothing to attach them to.
                FileClass::EventTimes
            } else {
                FileClass::MaybeObjects
            }
        }
        Layout::ClusterInfoDump | Layout::KubectlDump => FileClass::Objects,
        // Other YAML beside the tables (`rke2/50-rancher.yaml`, CNI configuration).
        Layout::RancherLogsCollector => FileClass::MaybeObjects,
    }
}

/// Whether a file can be parsed before the layout is known (an archive member, as it is
/// inflated): some layout reads objects from it, and none reads it otherwise, whatever
/// folder that layout starts at. A layout that skips it only makes the parse wasted,
/// never wrong.
pub fn parse_early(path: &str) -> bool {
    let roots = std::iter::once("").chain(path.match_indices('/').map(|(i, _)| &path[..=i]));
    let parts = PathParts::of(path);
    let mut any_objects = false;
    for root in roots {
        for layout in Layout::ALL {
            match classify_parts(layout, root, path, &parts) {
                FileClass::Objects | FileClass::MaybeObjects => any_objects = true,
                FileClass::Skip => {}
                _ => return false,
            }
        }
    }
    any_objects
}

fn log_key(layout: Layout, rel: &str, comps: &[&str]) -> Option<LogKey> {
    let n = comps.len();
    let file = comps[n - 1];
    // support-bundle-kit: logs/NS/POD/CONTAINER.log (the current log only)
    if layout == Layout::SupportBundleKit
        && let ["logs", ns, pod, log] = rel.split('/').collect::<Vec<_>>()[..]
        && let Some(container) = log.strip_suffix(".log")
    {
        return Some(LogKey {
            namespace: ns.to_string(),
            pod: pod.to_string(),
            container: container.to_string(),
            previous: false,
        });
    }
    // must-gather: namespaces/NS/pods/POD/CONTAINER/CONTAINER/logs/{current,previous}[.insecure].log
    if n >= 7 && comps[n - 2] == "logs" && comps[n - 6] == "pods" && file.ends_with(".log") {
        let previous = file.starts_with("previous");
        if file.starts_with("current") || previous {
            return Some(LogKey {
                namespace: comps[n - 7].to_string(),
                pod: comps[n - 5].to_string(),
                container: comps[n - 4].to_string(),
                previous,
            });
        }
    }
    // troubleshoot: cluster-resources/pods/logs/NS/POD/CONTAINER[-previous].log
    if layout == Layout::Troubleshoot
        && n >= 6
        && comps[n - 4] == "logs"
        && comps[n - 5] == "pods"
        && let Some(stem) = file.strip_suffix(".log")
    {
        let (container, previous) = match stem.strip_suffix("-previous") {
            Some(c) => (c, true),
            None => (stem, false),
        };
        return Some(LogKey {
            namespace: comps[n - 3].to_string(),
            pod: comps[n - 2].to_string(),
            container: container.to_string(),
            previous,
        });
    }
    // troubleshoot's `logs` collector, as it wrote before it kept logs under
    // cluster-resources and linked them from there (links are not followed):
    // NAME/POD/CONTAINER[-previous].log, NAME may hold slashes. The namespace is not in
    // the path: the key's namespace is empty.
    if layout == Layout::Troubleshoot
        && rel.split('/').filter(|c| !c.is_empty()).count() >= 3
        && !comps.contains(&"cluster-resources")
        && !comps.iter().any(|c| SKIP_DIRS.contains(c))
        && let Some(stem) = file.strip_suffix(".log")
    {
        let (container, previous) = match stem.strip_suffix("-previous") {
            Some(c) => (c, true),
            None => (stem, false),
        };
        return Some(LogKey {
            namespace: String::new(),
            pod: comps[n - 2].to_string(),
            container: container.to_string(),
            previous,
        });
    }
    // cluster-info dump: NS/POD/logs.txt (every container, between kubectl's
    // `==== START logs for container C of pod NS/POD ====` and END lines)
    if layout == Layout::ClusterInfoDump && n >= 3 && file == "logs.txt" {
        return Some(LogKey {
            namespace: comps[n - 3].to_string(),
            pod: comps[n - 2].to_string(),
            container: String::new(),
            previous: false,
        });
    }
    None
}

/// The kind a resource word of a path names (`pods`, `pvcs`, `resource-quota`), if
/// kdiag knows it.
pub fn kind_of_word(word: &str) -> Option<&'static str> {
    named_by_word(word).map(|k| k.kind)
}

/// Whether some resource word names `kind`.
pub fn word_names_kind(kind: &str) -> bool {
    kinds::by_kind(kind).is_some_and(|k| !k.path_words.is_empty())
}

/// The kind whose files bundles name by `word` (see [`KindInfo::path_words`]).
fn named_by_word(word: &str) -> Option<&'static KindInfo> {
    kinds::KINDS.iter().find(|k| k.path_words.contains(&word))
}

/// The kind (and default apiVersion) a path implies for objects that do not say.
/// Looks at the file's stem first, then at its parent folders, nearest first
/// (`namespaces/ns/core/pods.yaml`, `cluster-resources/pods/ns.json`,
/// `config/pod/ns/name.json`, `namespaces/ns/pods/p/p.yaml`).
pub fn kind_from_path(path: &str) -> Option<(&'static str, &'static str)> {
    let inner = path.rsplit("!/").next().unwrap_or(path);
    let mut comps: Vec<&str> = inner.split('/').filter(|c| !c.is_empty()).collect();
    let file = comps.pop()?;
    let stem = file.split('.').next().unwrap_or(file);
    let lookup = |word: &str| named_by_word(word).map(|k| (k.api_version, k.kind));
    // Insights: `config/version.json` is the ClusterVersion; its other kind-less objects
    // are `config/<singleton>.json` and `config/<resource>/<name>.json`.
    if stem == "version" && file.ends_with(".json") && comps.last() == Some(&"config") {
        return Some(("config.openshift.io/v1", "ClusterVersion"));
    }
    if file.ends_with(".json") {
        let word = match comps.as_slice() {
            [.., "config"] => Some(stem),
            [.., "config", folder] => Some(*folder),
            _ => None,
        };
        if let Some(found) = word.and_then(|w| INSIGHTS_CONFIG.iter().find(|(k, _, _)| *k == w)) {
            return Some((found.1, found.2));
        }
    }
    // support-bundle-kit: yamls/{cluster,namespaced/NS}/GROUP/VERSION/PLURAL.yaml, where
    // the group must be the one the plural names (`longhorn.io/v1beta1/nodes` is no Node).
    if let Some(i) = comps.iter().position(|c| *c == "yamls") {
        let after = &comps[i + 1..];
        let gv = match after {
            ["cluster", gv @ ..] => gv,
            ["namespaced", _, gv @ ..] => gv,
            _ => &[][..],
        };
        let group_version = match gv {
            [v] => Some(v.to_string()),
            [g, v] => Some(format!("{g}/{v}")),
            _ => None,
        };
        if let Some(gv) = group_version {
            let group = |api: &str| api.rsplit_once('/').map_or("", |(g, _)| g).to_string();
            return lookup(stem).filter(|(api, _)| group(api) == group(&gv));
        }
    }
    if let Some(found) = lookup(stem) {
        return Some(found);
    }
    // Insights: `config/clusteroperator/GROUP/RESOURCE/NAME.json` holds an operator's own
    // resource, not a ClusterOperator: its kind is the group's resource or unknown.
    if let [.., "clusteroperator", group, resource] = comps.as_slice()
        && group.contains('.')
    {
        return GROUP_RESOURCES
            .iter()
            .find(|(g, r, _, _)| g == group && r == resource)
            .map(|(_, _, v, k)| (*v, *k));
    }
    // Only the two nearest folders: deeper ones describe the bundle, not the object.
    comps.iter().rev().take(3).find_map(|c| lookup(c))
}

/// What the Insights operator writes without a `kind` under `config/`: the cluster's
/// configuration singletons (`config/proxy.json`) and folders of one resource
/// (`config/securitycontextconstraint/anyuid.json`): (file or folder, apiVersion, kind).
const INSIGHTS_CONFIG: &[(&str, &str, &str)] = &[
    ("apiserver", "config.openshift.io/v1", "APIServer"),
    ("authentication", "config.openshift.io/v1", "Authentication"),
    ("featuregate", "config.openshift.io/v1", "FeatureGate"),
    ("image", "config.openshift.io/v1", "Image"),
    ("infrastructure", "config.openshift.io/v1", "Infrastructure"),
    ("network", "config.openshift.io/v1", "Network"),
    ("oauth", "config.openshift.io/v1", "OAuth"),
    ("proxy", "config.openshift.io/v1", "Proxy"),
    (
        "clusterrolebinding",
        "rbac.authorization.k8s.io/v1",
        "ClusterRoleBinding",
    ),
    (
        "securitycontextconstraint",
        "security.openshift.io/v1",
        "SecurityContextConstraints",
    ),
    (
        "validatingwebhookconfigurations",
        "admissionregistration.k8s.io/v1",
        "ValidatingWebhookConfiguration",
    ),
    (
        "mutatingwebhookconfigurations",
        "admissionregistration.k8s.io/v1",
        "MutatingWebhookConfiguration",
    ),
    ("crd", "apiextensions.k8s.io/v1", "CustomResourceDefinition"),
];

/// Resources the Insights operator gathers under a folder named for their API group
/// (`config/clusteroperator/imageregistry.operator.openshift.io/config/cluster.json`)
/// without a `kind`: (group, resource folder, apiVersion, kind).
const GROUP_RESOURCES: &[(&str, &str, &str, &str)] = &[
    (
        "imageregistry.operator.openshift.io",
        "config",
        "imageregistry.operator.openshift.io/v1",
        "Config",
    ),
    (
        "imageregistry.operator.openshift.io",
        "imagepruner",
        "imageregistry.operator.openshift.io/v1",
        "ImagePruner",
    ),
];

/// Node name a kubelet `configz` file belongs to, from its path
/// (`nodes/<node>/…`, or `<node>.json`, `<node>_configz.json`, `configz-<node>.json`).
pub fn node_from_path(path: &str) -> Option<String> {
    let inner = path.rsplit("!/").next().unwrap_or(path);
    let comps: Vec<&str> = inner.split('/').filter(|c| !c.is_empty()).collect();
    if let Some(i) = comps.iter().position(|c| *c == "nodes")
        && i + 2 < comps.len()
    {
        return Some(comps[i + 1].to_string());
    }
    let file = comps.last()?;
    let stem = file
        .strip_suffix(".json")
        .or_else(|| file.strip_suffix(".yaml"))
        .unwrap_or(file);
    let stem = stem
        .trim_end_matches("_configz")
        .trim_end_matches("-configz")
        .trim_end_matches(".configz")
        .trim_start_matches("configz-")
        .trim_start_matches("configz_");
    (!stem.is_empty() && stem != "configz" && stem != "kubelet").then(|| stem.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_layouts() {
        let mg = [
            "must-gather.local.1/img/timestamp",
            "must-gather.local.1/img/namespaces/demo/core/pods.yaml",
        ];
        assert_eq!(detect(mg.iter().copied()).layout, Layout::MustGather);
        let ts = [
            "support-bundle/cluster-resources/pods/demo.json",
            "support-bundle/version.yaml",
        ];
        assert_eq!(detect(ts.iter().copied()).layout, Layout::Troubleshoot);
        let ins = ["config/clusteroperator/dns.json", "config/pod/ns/p.json"];
        assert_eq!(detect(ins.iter().copied()).layout, Layout::Insights);
        let cid = [
            "nodes.json",
            "kube-system/pods.json",
            "kube-system/events.json",
        ];
        assert_eq!(
            detect(["nodes.json"].iter().copied()).layout,
            Layout::KubectlDump
        );
        assert_eq!(detect(cid.iter().copied()).layout, Layout::ClusterInfoDump);
        assert_eq!(
            detect(["pods.yaml"].iter().copied()).layout,
            Layout::KubectlDump
        );
    }

    #[test]
    fn parses_early_only_what_no_layout_reads_otherwise() {
        for path in [
            "namespaces/a/core/pods.yaml",
            "cluster-resources/pods/a.json",
            "case.zip!/mg/cluster-scoped-resources/core/nodes.yaml",
            "extra/notes.yaml",
        ] {
            assert!(parse_early(path), "{path}");
        }
        for path in [
            "mg/timestamp",
            "cluster-info/cluster_version.json",
            "mg/namespaces/a/pods/p/c/c/logs/current.log",
            "cluster-resources/pods/logs/a/p/c-previous.log",
            "a/p/logs.txt",
            "analysis.json",
            "mg/host_service_logs/kubelet.yaml",
        ] {
            assert!(!parse_early(path), "{path}");
        }
    }

    #[test]
    fn classifies_logs() {
        assert_eq!(
            classify(
                Layout::MustGather,
                "mg/",
                "mg/namespaces/demo/pods/p/c/c/logs/previous.log"
            ),
            FileClass::Log(LogKey {
                namespace: "demo".into(),
                pod: "p".into(),
                container: "c".into(),
                previous: true
            })
        );
        assert_eq!(
            classify(
                Layout::Troubleshoot,
                "sb/",
                "sb/cluster-resources/pods/logs/demo/p/web-previous.log"
            ),
            FileClass::Log(LogKey {
                namespace: "demo".into(),
                pod: "p".into(),
                container: "web".into(),
                previous: true
            })
        );
        assert_eq!(
            classify(Layout::Troubleshoot, "sb/", "sb/analysis.json"),
            FileClass::Skip
        );
        // The logs collector's own folder: no namespace in the path.
        assert_eq!(
            classify(
                Layout::Troubleshoot,
                "sb/",
                "sb/app/logs/web-1/api-previous.log"
            ),
            FileClass::Log(LogKey {
                namespace: String::new(),
                pod: "web-1".into(),
                container: "api".into(),
                previous: true
            })
        );
        assert_eq!(
            classify(
                Layout::Troubleshoot,
                "sb/",
                "sb/run-example/run-example.log"
            ),
            FileClass::Skip
        );
        assert_eq!(
            classify(Layout::Troubleshoot, "sb/", "sb/dns/debug.json"),
            FileClass::Skip
        );
        assert_eq!(
            classify(
                Layout::Troubleshoot,
                "sb/",
                "sb/cluster-resources/pods/demo.json"
            ),
            FileClass::Objects
        );
        assert_eq!(
            classify(Layout::Troubleshoot, "sb/", "sb/mysql/mysql-example.json"),
            FileClass::MaybeObjects
        );
    }

    #[test]
    fn infers_kind_from_path() {
        assert_eq!(
            kind_from_path("mg/namespaces/demo/core/pods.yaml"),
            Some(("v1", "Pod"))
        );
        assert_eq!(
            kind_from_path("sb/cluster-resources/pods/demo.json"),
            Some(("v1", "Pod"))
        );
        assert_eq!(
            kind_from_path("x/config/pod/openshift-etcd/etcd-0.json"),
            Some(("v1", "Pod"))
        );
        assert_eq!(
            kind_from_path("mg/namespaces/ml/kueue.x-k8s.io/workloads.yaml"),
            Some(("kueue.x-k8s.io/v1beta1", "Workload"))
        );
        assert_eq!(kind_from_path("values.yaml"), None);
        // An operator's own resource under Insights' clusteroperator folder is no
        // ClusterOperator; a must-gather's GROUP/PLURAL folders still name the kind.
        let co = "ia/config/clusteroperator/imageregistry.operator.openshift.io";
        assert_eq!(
            kind_from_path(&format!("{co}/imagepruner/cluster.json")),
            Some(("imageregistry.operator.openshift.io/v1", "ImagePruner"))
        );
        assert_eq!(kind_from_path(&format!("{co}/other/cluster.json")), None);
        // Insights' kind-less configuration objects.
        assert_eq!(
            kind_from_path("ia/config/proxy.json"),
            Some(("config.openshift.io/v1", "Proxy"))
        );
        assert_eq!(
            kind_from_path("ia/config/securitycontextconstraint/anyuid.json"),
            Some(("security.openshift.io/v1", "SecurityContextConstraints"))
        );
        assert_eq!(kind_from_path("ia/config/alerts.json"), None);
        assert_eq!(
            kind_from_path("ia/config/clusteroperator/dns.json"),
            Some(("config.openshift.io/v1", "ClusterOperator"))
        );
        assert_eq!(
            kind_from_path(
                "mg/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml"
            ),
            Some(("config.openshift.io/v1", "ClusterVersion"))
        );
    }

    #[test]
    fn configz_node_names() {
        assert_eq!(
            node_from_path("mg/nodes/node-a/configz.json").as_deref(),
            Some("node-a")
        );
        assert_eq!(
            node_from_path("node-b_configz.json").as_deref(),
            Some("node-b")
        );
    }
}

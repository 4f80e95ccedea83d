//! Which listings a file holds whole: every object of a kind in a namespace (or in every
//! namespace, or cluster-wide for a cluster-scoped kind), so that an object of that kind
//! and namespace the bundle lacks does not exist — rather than was not collected.
//!
//! Two things prove a listing, each only for a file read whole (no parse error, no item
//! that did not read):
//! - the file's place in its layout: a must-gather's `namespaces/NS/GROUP/PLURAL.yaml`
//!   and `cluster-scoped-resources/GROUP/PLURAL.yaml`, a cluster-info dump's
//!   `NS/PLURAL.json` and top `PLURAL.json`, troubleshoot's `cluster-resources/WORD/NS.json`,
//!   `cluster-resources/WORD.json` and `custom-resources/PLURAL.GROUP/NS.yaml`,
//!   support-bundle-kit's `yamls/namespaced/NS/…/PLURAL.yaml` and `yamls/cluster/…`:
//!   each is what the collector listed of that kind there, empty or not; and a
//!   must-gather's folder of one file per object (`cluster-scoped-resources/GROUP/PLURAL/
//!   NAME.yaml`, `namespaces/NS/GROUP/PLURAL/NAME.yaml`: `oc adm inspect` writes every
//!   object it listed), when PLURAL names a kind of GROUP (a pod's own folder does not);
//! - a List document: a typed list (`PodList`, what the API serves for a list call) proves
//!   the namespace its items are in (every namespace when they span several; cluster-wide
//!   for a cluster-scoped kind). A `List` is what `kubectl get -o yaml` prints for a list
//!   call and for named objects alike (`kubectl get lq a b -o yaml`), so it proves a
//!   listing only when its items of one kind span several namespaces, which only
//!   `--all-namespaces` gives.
//!
//! A label or field selector narrows any list call; nothing in the file tells. A single
//! object, or objects pasted one after another, prove nothing.

use super::layout::{Detected, Layout};
use super::objects::{Extracted, RawObject};
use crate::kube::kinds::{self, KindInfo};
use std::collections::BTreeSet;

/// One whole listing: every object of `kind` (of the group of `api_version`) in
/// `namespace`; `None`: in every namespace, or cluster-wide for a cluster-scoped kind.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Listing {
    pub api_version: String,
    pub kind: String,
    pub namespace: Option<String>,
    /// The file that proves it, as `inputs[]` names it.
    pub file: String,
}

/// Where a layout's file says its objects come from.
#[derive(Debug, PartialEq, Eq)]
enum Scope {
    Namespace(String),
    Cluster,
}

/// A file of a folder that holds one file per object of the kind the folder names.
struct PerObject(bool);

/// The listings a file read whole holds (see the module doc); nothing for a file read
/// with a problem.
pub fn of_file(detected: &Detected, path: &str, extracted: &Extracted) -> Vec<Listing> {
    if !extracted.defects.is_empty() || extracted.internal_dump {
        return Vec::new();
    }
    let mut out: Vec<Listing> = by_place(detected, path, &extracted.objects)
        .into_iter()
        .collect();
    for list in &extracted.lists {
        let items = extracted.objects.get(list.start..list.end).unwrap_or(&[]);
        if let Some((api_version, kind, namespace)) = by_list(list.typed.as_ref(), items) {
            out.push(Listing {
                api_version,
                kind,
                namespace,
                file: path.to_string(),
            });
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The place of a file in its layout: (group when the place names one, resource word,
/// scope).
fn place<'a>(
    detected: &Detected,
    path: &'a str,
) -> Option<(Option<&'a str>, &'a str, Scope, PerObject)> {
    let rel = path.strip_prefix(detected.root.as_str())?;
    if rel.contains("!/") {
        return None;
    }
    let comps: Vec<&str> = rel.split('/').filter(|c| !c.is_empty()).collect();
    let stem = |file: &'a str| -> Option<&'a str> {
        let (stem, ext) = file.rsplit_once('.')?;
        matches!(ext, "yaml" | "yml" | "json").then_some(stem)
    };
    let ns = |s: &str| Scope::Namespace(s.to_string());
    let core = |g: &'a str| if g == "core" { "" } else { g };
    let one = PerObject(true);
    let per_object = match (detected.layout, comps.as_slice()) {
        (Layout::MustGather, ["namespaces", n, group, plural, file]) => {
            stem(file).map(|_| (Some(core(group)), *plural, ns(n)))
        }
        (Layout::MustGather, ["cluster-scoped-resources", group, plural, file]) => {
            stem(file).map(|_| (Some(core(group)), *plural, Scope::Cluster))
        }
        _ => None,
    };
    if let Some((group, plural, scope)) = per_object {
        return Some((group, plural, scope, one));
    }
    let whole = |(g, w, s): (Option<&'a str>, &'a str, Scope)| (g, w, s, PerObject(false));
    let found = match (detected.layout, comps.as_slice()) {
        (Layout::MustGather, ["namespaces", n, group, file]) => {
            Some((Some(core(group)), stem(file)?, ns(n)))
        }
        (Layout::MustGather, ["cluster-scoped-resources", group, file]) => {
            Some((Some(core(group)), stem(file)?, Scope::Cluster))
        }
        (Layout::ClusterInfoDump, [n, file]) => Some((None, stem(file)?, ns(n))),
        (Layout::ClusterInfoDump, [file]) => Some((None, stem(file)?, Scope::Cluster)),
        (Layout::Troubleshoot, ["cluster-resources", "custom-resources", pg, file]) => {
            let (plural, group) = pg.split_once('.')?;
            Some((Some(group), plural, ns(stem(file)?)))
        }
        (Layout::Troubleshoot, ["cluster-resources", word, file]) => {
            Some((None, *word, ns(stem(file)?)))
        }
        (Layout::Troubleshoot, ["cluster-resources", file]) => {
            Some((None, stem(file)?, Scope::Cluster))
        }
        (Layout::SupportBundleKit, ["yamls", "namespaced", n, gv @ .., file])
            if (1..=2).contains(&gv.len()) =>
        {
            let group = if gv.len() == 2 { gv[0] } else { "" };
            Some((Some(group), stem(file)?, ns(n)))
        }
        (Layout::SupportBundleKit, ["yamls", "cluster", gv @ .., file])
            if (1..=2).contains(&gv.len()) =>
        {
            let group = if gv.len() == 2 { gv[0] } else { "" };
            Some((Some(group), stem(file)?, Scope::Cluster))
        }
        _ => None,
    };
    found.map(whole)
}

fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(g, _)| g)
}

/// The listing a file's place proves: the kind its word names (in the group the place
/// names), else the one kind its objects are; every object of that kind and scope.
fn by_place(detected: &Detected, path: &str, objects: &[RawObject]) -> Option<Listing> {
    let (group, word, scope, PerObject(per_object)) = place(detected, path)?;
    let named: Option<&KindInfo> = kinds::KINDS.iter().find(|k| {
        (k.plural == word || k.path_words.contains(&word)) && group.is_none_or(|g| k.group() == g)
    });
    if per_object && (named.is_none() || objects.len() != 1) {
        return None;
    }
    let (api_version, kind) = match (named, objects.first()) {
        (Some(k), _) => (k.api_version.to_string(), k.kind.to_string()),
        (None, Some(o)) => (o.api_version.clone(), o.kind.clone()),
        (None, None) => return None,
    };
    let same_kind =
        |o: &RawObject| o.kind == kind && group_of(&o.api_version) == group_of(&api_version);
    // A kind served by two groups (events.k8s.io Events in a core events file) is one;
    // any other kind in the file makes its place no proof.
    let same_kind = |o: &RawObject| same_kind(o) || (o.kind == kind && kind == "Event");
    if !objects.iter().all(same_kind) {
        return None;
    }
    let namespaced = kinds::by_kind(&kind)
        .filter(|k| k.group() == group_of(&api_version))
        .map(|k| k.namespaced);
    let namespace = match scope {
        Scope::Namespace(ns) => {
            let fits = namespaced != Some(false)
                && objects
                    .iter()
                    .all(|o| o.namespace.as_deref() == Some(ns.as_str()));
            fits.then_some(Some(ns))?
        }
        Scope::Cluster => {
            let fits = namespaced == Some(false)
                || (namespaced.is_none()
                    && !objects.is_empty()
                    && objects.iter().all(|o| o.namespace.is_none()));
            fits.then_some(None)?
        }
    };
    Some(Listing {
        api_version,
        kind,
        namespace,
        file: path.to_string(),
    })
}

/// The listing a List document proves (see the module doc): (apiVersion, kind, scope).
fn by_list(
    typed: Option<&(String, String)>,
    items: &[RawObject],
) -> Option<(String, String, Option<String>)> {
    let (api_version, kind) = match (typed, items.first()) {
        (Some(t), _) => t.clone(),
        (None, Some(o)) => (o.api_version.clone(), o.kind.clone()),
        (None, None) => return None,
    };
    let group = group_of(&api_version).to_string();
    if !items
        .iter()
        .all(|o| o.kind == kind && group_of(&o.api_version) == group)
    {
        return None;
    }
    let namespaced = kinds::by_kind(&kind)
        .filter(|k| k.group() == group)
        .map(|k| k.namespaced);
    let namespaces: BTreeSet<Option<&str>> = items.iter().map(|o| o.namespace.as_deref()).collect();
    let cluster_scoped = namespaced == Some(false)
        || (namespaced.is_none() && !items.is_empty() && namespaces == BTreeSet::from([None]));
    if cluster_scoped {
        return (typed.is_some() && namespaces.iter().all(Option::is_none)).then_some((
            api_version,
            kind,
            None,
        ));
    }
    if namespaces.contains(&None) {
        return None;
    }
    match namespaces.len() {
        0 => None,
        1 if typed.is_some() => {
            let ns = namespaces.into_iter().next().flatten()?.to_string();
            Some((api_version, kind, Some(ns)))
        }
        1 => None,
        _ => Some((api_version, kind, None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::content::{FileRead, read};

    fn detected(layout: Layout) -> Detected {
        Detected {
            layout,
            root: String::new(),
            signals: Vec::new(),
        }
    }

    fn listings(layout: Layout, path: &str, text: &str) -> Vec<(String, Option<String>)> {
        let FileRead::Parsed { extracted, .. } = read(path, text.as_bytes().to_vec(), true) else {
            panic!("{path} does not parse");
        };
        of_file(&detected(layout), path, &extracted)
            .into_iter()
            .map(|l| (l.kind, l.namespace))
            .collect()
    }

    const LQ: &str = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata:\n  name: NAME\n  namespace: NS\nspec:\n  clusterQueue: cq\n";

    fn lq(name: &str, ns: &str) -> String {
        LQ.replace("NAME", name).replace("NS", ns)
    }

    fn list(kind: &str, items: &[String]) -> String {
        let items: Vec<String> = items
            .iter()
            .map(|i| {
                let mut lines = i.lines();
                let first = format!("- {}", lines.next().unwrap_or(""));
                std::iter::once(first)
                    .chain(lines.map(|l| format!("  {l}")))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .collect();
        format!(
            "apiVersion: v1\nkind: {kind}\nmetadata:\n  resourceVersion: \"\"\nitems:\n{}\n",
            items.join("\n")
        )
    }

    fn must_gather() -> Detected {
        detected(Layout::MustGather)
    }

    #[test]
    fn a_must_gather_folder_of_one_file_per_object_proves_its_kind() {
        let cq = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: cq\nspec: {}\n";
        let FileRead::Parsed { extracted, .. } = read("cq.yaml", cq.as_bytes().to_vec(), true)
        else {
            panic!("cq.yaml does not parse");
        };
        let at = |path: &str| -> Vec<(String, Option<String>)> {
            of_file(&must_gather(), path, &extracted)
                .into_iter()
                .map(|l| (l.kind, l.namespace))
                .collect()
        };
        assert_eq!(
            at("cluster-scoped-resources/kueue.x-k8s.io/clusterqueues/cq.yaml"),
            vec![("ClusterQueue".to_string(), None)]
        );
        // A folder whose name is no kind of that group proves nothing.
        assert!(at("cluster-scoped-resources/kueue.x-k8s.io/cq/cq.yaml").is_empty());
        let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-1\n  namespace: shop\n";
        let FileRead::Parsed { extracted, .. } = read("web-1.yaml", pod.as_bytes().to_vec(), true)
        else {
            panic!("web-1.yaml does not parse");
        };
        // A pod's own folder (namespaces/NS/pods/POD/POD.yaml) is one pod, not the list.
        assert!(
            of_file(
                &must_gather(),
                "namespaces/shop/pods/web-1/web-1.yaml",
                &extracted
            )
            .is_empty()
        );
    }

    #[test]
    fn pasted_objects_prove_nothing() {
        let text = format!("{}---\n{}", lq("a", "team"), lq("b", "team"));
        assert!(listings(Layout::KubectlDump, "queues.yaml", &text).is_empty());
    }

    #[test]
    fn a_kubectl_list_proves_only_all_namespaces() {
        let one = list("List", &[lq("a", "team"), lq("b", "team")]);
        assert!(listings(Layout::KubectlDump, "lq.yaml", &one).is_empty());
        let all = list("List", &[lq("a", "team"), lq("b", "other")]);
        assert_eq!(
            listings(Layout::KubectlDump, "lq.yaml", &all),
            vec![("LocalQueue".to_string(), None)]
        );
        let mixed = format!(
            "{}\n- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: s\n    namespace: team\n",
            all.trim_end()
        );
        assert!(listings(Layout::KubectlDump, "lq.yaml", &mixed).is_empty());
    }

    #[test]
    fn a_typed_list_proves_its_namespace() {
        let text = list("LocalQueueList", &[lq("a", "team")]).replace(
            "apiVersion: v1\nkind: LocalQueueList",
            "apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueueList",
        );
        assert_eq!(
            listings(Layout::KubectlDump, "lq.yaml", &text),
            vec![("LocalQueue".to_string(), Some("team".to_string()))]
        );
    }

    #[test]
    fn layout_places_prove_their_kind_and_namespace() {
        let text = list("LocalQueueList", &[lq("a", "team")]).replace(
            "apiVersion: v1\nkind: LocalQueueList",
            "apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueueList",
        );
        assert_eq!(
            listings(
                Layout::MustGather,
                "namespaces/team/kueue.x-k8s.io/localqueues.yaml",
                &text
            ),
            vec![("LocalQueue".to_string(), Some("team".to_string()))]
        );
        // The wrong namespace's folder proves nothing of it.
        assert!(
            !listings(
                Layout::MustGather,
                "namespaces/other/kueue.x-k8s.io/localqueues.yaml",
                &text
            )
            .contains(&("LocalQueue".to_string(), Some("other".to_string())))
        );
        let empty =
            "apiVersion: v1\nitems: []\nkind: SecretList\nmetadata:\n  resourceVersion: \"1\"\n";
        let FileRead::Parsed { extracted, .. } = read(
            "namespaces/team/core/secrets.yaml",
            empty.as_bytes().to_vec(),
            true,
        ) else {
            panic!("does not parse");
        };
        let got = of_file(
            &detected(Layout::MustGather),
            "namespaces/team/core/secrets.yaml",
            &extracted,
        );
        assert_eq!(got.len(), 1);
        assert_eq!(
            (got[0].kind.as_str(), got[0].namespace.as_deref()),
            ("Secret", Some("team"))
        );
        let pods = "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[]}";
        let FileRead::Parsed { extracted, .. } = read(
            "cluster-resources/pods/team.json",
            pods.as_bytes().to_vec(),
            true,
        ) else {
            panic!("does not parse");
        };
        let got = of_file(
            &detected(Layout::Troubleshoot),
            "cluster-resources/pods/team.json",
            &extracted,
        );
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].namespace.as_deref(), Some("team"));
    }
}

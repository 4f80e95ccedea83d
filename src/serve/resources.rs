//! The resources the server serves, for discovery and for routing a path to a kind: the
//! table of kinds (`kube::kinds`), the bundle's CRDs, every other kind the bundle holds,
//! kdiag's own `Finding`, and the access reviews clients ask before they list.

use crate::kube::kinds::KINDS;
use crate::snapshot::Snapshot;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Where a resource's objects come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The snapshot's objects of the kind (and, for events, kdiag's findings as events).
    Stored,
    /// kdiag's findings (`kdiag.io/v1` `Finding`).
    Findings,
    /// `SelfSubjectAccessReview` / `SelfSubjectRulesReview`: answered, never stored.
    Review,
}

/// One resource as discovery serves it.
#[derive(Clone, Debug)]
pub struct Resource {
    pub group: String,
    /// Every version it is served at; the first is the preferred one.
    pub versions: Vec<String>,
    pub kind: String,
    pub plural: String,
    pub singular: String,
    pub short_names: Vec<String>,
    pub namespaced: bool,
    pub categories: Vec<String>,
    pub origin: Origin,
}

impl Resource {
    /// The verbs discovery lists.
    pub fn verbs(&self) -> &'static [&'static str] {
        match self.origin {
            Origin::Review => &["create"],
            _ => &["get", "list", "watch"],
        }
    }

    /// The subresources served (`pods/log`).
    pub fn subresources(&self) -> &'static [&'static str] {
        if self.group.is_empty() && self.plural == "pods" {
            &["log"]
        } else {
            &[]
        }
    }
}

/// The group kdiag's findings are served in, and the namespace of the findings about
/// cluster-scoped objects.
pub const FINDINGS_GROUP: &str = "kdiag.io";
pub const FINDINGS_NAMESPACE: &str = "kdiag";

/// Every resource served, sorted by group then plural.
pub struct Resources {
    pub list: Vec<Resource>,
    /// Per group, how many of the bundle's objects are stored at each version: the
    /// versions held most come first (preferred), so clients ask for the version the
    /// objects are served at.
    held: BTreeMap<String, BTreeMap<String, usize>>,
}

impl Resources {
    pub fn build(snap: &Snapshot) -> Resources {
        // A kind the table knows from its CRD (Kueue, OpenShift, NodeResourceTopology) is
        // served only when the bundle shows its API: a CRD or an object of it. Otherwise
        // `kubectl get co` on a plain cluster would answer "No resources found" instead of
        // saying the cluster has no such resource type.
        let shown: Vec<(String, String)> = snap
            .ids_of_group("apiextensions.k8s.io", "CustomResourceDefinition")
            .iter()
            .filter_map(|&id| {
                let v = snap.object(id).value();
                let group = v.pointer("/spec/group")?.as_str()?;
                let kind = v.pointer("/spec/names/kind")?.as_str()?;
                Some((group.to_string(), kind.to_string()))
            })
            .chain(
                snap.group_kinds()
                    .map(|(g, k)| (g.to_string(), k.to_string())),
            )
            .collect();
        let mut list: Vec<Resource> = KINDS
            .iter()
            .filter(|k| !k.plural.is_empty())
            .filter(|k| {
                !crd_backed(k.group())
                    || shown
                        .iter()
                        .any(|(g, kind)| g == k.group() && kind == k.kind)
            })
            .map(|k| Resource {
                group: k.group().to_string(),
                versions: vec![k.version().to_string()],
                kind: k.kind.to_string(),
                plural: k.plural.to_string(),
                singular: k.singular.to_string(),
                short_names: k.short_names.iter().map(|s| s.to_string()).collect(),
                namespaced: k.namespaced,
                categories: k.categories.iter().map(|s| s.to_string()).collect(),
                origin: Origin::Stored,
            })
            .collect();
        for crd in snap.ids_of_group("apiextensions.k8s.io", "CustomResourceDefinition") {
            if let Some(r) = from_crd(snap.object(*crd).value()) {
                merge(&mut list, r);
            }
        }
        let mut held: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
        for (group, kind) in snap.group_kinds() {
            let ids = snap.ids_of_group(group, kind);
            let mut versions: BTreeSet<&str> = BTreeSet::new();
            let mut namespaced = false;
            for &id in ids {
                let o = snap.object(id);
                let version = o
                    .api_version
                    .rsplit_once('/')
                    .map_or(o.api_version.as_str(), |(_, v)| v);
                versions.insert(version);
                if !version.is_empty() {
                    *held
                        .entry(group.to_string())
                        .or_default()
                        .entry(version.to_string())
                        .or_default() += 1;
                }
                namespaced |= o.namespace.is_some();
            }
            let versions: Vec<String> = versions
                .into_iter()
                .filter(|v| !v.is_empty())
                .map(String::from)
                .collect();
            if let Some(r) = list.iter_mut().find(|r| r.group == group && r.kind == kind) {
                for v in versions {
                    if !r.versions.contains(&v) {
                        r.versions.push(v);
                    }
                }
            } else if !versions.is_empty() {
                list.push(Resource {
                    group: group.to_string(),
                    versions,
                    kind: kind.to_string(),
                    plural: plural_of(kind),
                    singular: kind.to_ascii_lowercase(),
                    short_names: Vec::new(),
                    namespaced,
                    categories: Vec::new(),
                    origin: Origin::Stored,
                });
            }
        }
        list.push(Resource {
            group: FINDINGS_GROUP.into(),
            versions: vec!["v1".into()],
            kind: "Finding".into(),
            plural: "findings".into(),
            singular: "finding".into(),
            short_names: vec!["kdf".into()],
            namespaced: true,
            categories: vec!["kdiag".into()],
            origin: Origin::Findings,
        });
        for (kind, plural) in [
            ("SelfSubjectAccessReview", "selfsubjectaccessreviews"),
            ("SelfSubjectRulesReview", "selfsubjectrulesreviews"),
        ] {
            list.push(Resource {
                group: "authorization.k8s.io".into(),
                versions: vec!["v1".into(), "v1beta1".into()],
                kind: kind.into(),
                plural: plural.into(),
                singular: kind.to_ascii_lowercase(),
                short_names: Vec::new(),
                namespaced: false,
                categories: Vec::new(),
                origin: Origin::Review,
            });
        }
        list.sort_by(|a, b| (&a.group, &a.plural).cmp(&(&b.group, &b.plural)));
        list.dedup_by(|a, b| a.group == b.group && a.plural == b.plural);
        let mut out = Resources { list, held };
        let mut list = std::mem::take(&mut out.list);
        for r in &mut list {
            out.prefer_held(&r.group, &mut r.versions);
        }
        out.list = list;
        out
    }

    /// `versions` of `group` reordered: the versions the bundle's objects are stored at
    /// first, the most held first; the others after, in their order.
    fn prefer_held(&self, group: &str, versions: &mut [String]) {
        if let Some(counts) = self.held.get(group) {
            versions.sort_by_key(|v| std::cmp::Reverse(counts.get(v).copied().unwrap_or(0)));
        }
    }

    /// The resource a path names: its group, one of its versions, its plural.
    pub fn find(&self, group: &str, version: &str, plural: &str) -> Option<&Resource> {
        self.list.iter().find(|r| {
            r.group == group && r.plural == plural && r.versions.iter().any(|v| v == version)
        })
    }

    /// The groups served, each with its versions (preferred first): core first, then
    /// the named groups sorted.
    pub fn groups(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for r in &self.list {
            let at = match out.iter().position(|(g, _)| *g == r.group) {
                Some(i) => i,
                None => {
                    out.push((r.group.clone(), Vec::new()));
                    out.len() - 1
                }
            };
            for v in &r.versions {
                if !out[at].1.contains(v) {
                    out[at].1.push(v.clone());
                }
            }
        }
        for (group, versions) in &mut out {
            self.prefer_held(group, versions);
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// The resources served at `group`/`version`.
    pub fn at<'a>(
        &'a self,
        group: &'a str,
        version: &'a str,
    ) -> impl Iterator<Item = &'a Resource> {
        self.list
            .iter()
            .filter(move |r| r.group == group && r.versions.iter().any(|v| v == version))
    }
}

/// A CRD's resource: its group, served versions (storage first), names and scope.
fn from_crd(crd: &Value) -> Option<Resource> {
    let spec = crd.get("spec")?;
    let names = spec.get("names")?;
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let list = |v: &Value, k: &str| -> Vec<String> {
        v.get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let kind = text(names, "kind")?;
    let plural = text(names, "plural")?;
    let mut versions: Vec<(bool, String)> = spec
        .get("versions")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter(|v| v.get("served").and_then(Value::as_bool) != Some(false))
                .filter_map(|v| {
                    let storage = v.get("storage").and_then(Value::as_bool) == Some(true);
                    Some((!storage, text(v, "name")?))
                })
                .collect()
        })
        .unwrap_or_default();
    if let Some(v) = text(spec, "version") {
        versions.push((true, v));
    }
    versions.sort();
    versions.dedup_by(|a, b| a.1 == b.1);
    if versions.is_empty() {
        return None;
    }
    Some(Resource {
        group: text(spec, "group")?,
        versions: versions.into_iter().map(|(_, v)| v).collect(),
        singular: text(names, "singular").unwrap_or_else(|| kind.to_ascii_lowercase()),
        kind,
        plural,
        short_names: list(names, "shortNames"),
        namespaced: text(spec, "scope").as_deref() != Some("Cluster"),
        categories: list(names, "categories"),
        origin: Origin::Stored,
    })
}

/// A CRD's resource added to the table, or its versions and names added to the row of
/// the same kind (a table row's version stays preferred).
fn merge(list: &mut Vec<Resource>, r: Resource) {
    match list
        .iter_mut()
        .find(|x| x.group == r.group && x.kind == r.kind)
    {
        Some(x) => {
            for v in r.versions {
                if !x.versions.contains(&v) {
                    x.versions.push(v);
                }
            }
            for c in r.categories {
                if !x.categories.contains(&c) {
                    x.categories.push(c);
                }
            }
        }
        None => list.push(r),
    }
}

/// Whether the table's kinds of `group` come from CRDs rather than from Kubernetes itself
/// (see `kube::kinds`: Kueue, OpenShift, NodeResourceTopology).
fn crd_backed(group: &str) -> bool {
    group == "kueue.x-k8s.io" || group == "topology.node.k8s.io" || group.ends_with(".openshift.io")
}

/// The plural the API server would most likely give a kind no table or CRD names.
fn plural_of(kind: &str) -> String {
    let k = kind.to_ascii_lowercase();
    if k.ends_with('s') || k.ends_with('x') || k.ends_with("ch") || k.ends_with("sh") {
        format!("{k}es")
    } else if let Some(stem) = k
        .strip_suffix('y')
        .filter(|s| !s.ends_with(['a', 'e', 'i', 'o', 'u']))
    {
        format!("{stem}ies")
    } else {
        format!("{k}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plurals_as_the_api_server_would_give_them() {
        assert_eq!(plural_of("Widget"), "widgets");
        assert_eq!(plural_of("Policy"), "policies");
        assert_eq!(plural_of("Gateway"), "gateways");
        assert_eq!(plural_of("Ingress"), "ingresses");
        assert_eq!(plural_of("Box"), "boxes");
    }

    #[test]
    fn a_crd_serves_its_versions_storage_first() {
        let crd = json!({"spec": {"group": "example.com", "scope": "Cluster",
            "names": {"kind": "Widget", "plural": "widgets", "singular": "widget", "shortNames": ["wd"], "categories": ["all"]},
            "versions": [
                {"name": "v1alpha1", "served": true, "storage": false},
                {"name": "v1", "served": true, "storage": true},
                {"name": "v0", "served": false, "storage": false}]}});
        let r = from_crd(&crd).expect("a resource");
        assert_eq!(r.versions, ["v1", "v1alpha1"]);
        assert!(!r.namespaced);
        assert_eq!(r.short_names, ["wd"]);
        assert_eq!(r.categories, ["all"]);
        assert!(
            from_crd(&json!({"spec": {"group": "x", "names": {"kind": "X", "plural": "xs"}}}))
                .is_none()
        );
    }
}

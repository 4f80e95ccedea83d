//! Which kind and which object the user means: kubectl's kind names (plural, short,
//! `kind.group`), the kinds without a namespace, and one object found by name.

use super::printer_columns::custom_kinds;
use crate::kube::kinds::{self, KindInfo};
use crate::snapshot::kinds::canonical_group;
use crate::snapshot::{ObjectId, Snapshot};

/// The explorer's own kinds (see [`kinds::Known::Kubectl`]), commonest first, with the short
/// names it accepts for each.
fn kubectl_kinds() -> impl Iterator<Item = (&'static KindInfo, &'static [&'static str])> {
    kinds::KINDS
        .iter()
        .filter_map(|k| Some((k, k.kubectl_short_names()?)))
}

/// The plural names of the explorer's own kinds (what `kubectl get <TAB>` offers).
pub(super) fn kubectl_plurals() -> impl Iterator<Item = &'static str> {
    kubectl_kinds()
        .map(|(k, _)| k.plural)
        .filter(|p| !p.is_empty())
}

/// The explorer's kind that `t` (lower case, without a group) names: its singular (the
/// lowercased Kind), plural or a short name.
fn kubectl_kind(t: &str) -> Option<&'static KindInfo> {
    kubectl_kinds()
        .find(|(k, short)| k.singular == t || k.plural == t || short.contains(&t))
        .map(|(k, _)| k)
}

/// A kind as the user means it: its group ("" for core) and Kind.
pub(super) struct Kind {
    pub group: String,
    pub kind: String,
}

impl Kind {
    /// Whether it is the kind kdiag knows by that name (core `Node`, not `longhorn.io`'s):
    /// only those get the kind's own columns and sections.
    pub fn is_known(&self) -> bool {
        kinds::by_kind(&self.kind)
            .is_some_and(|k| k.kubectl_short_names().is_some() && k.group() == self.group)
    }

    /// kubectl's `-o name` form: `pod` for a core kind, `deployment.apps`,
    /// `node.longhorn.io` for every other group's.
    pub fn resource(&self) -> String {
        let k = self.kind.to_ascii_lowercase();
        if self.group.is_empty() {
            k
        } else {
            format!("{k}.{}", self.group)
        }
    }

    /// `Node`, or `Node.longhorn.io` for another group's: for messages.
    pub fn display(&self) -> String {
        if self.is_known() || self.group.is_empty() {
            self.kind.clone()
        } else {
            format!("{}.{}", self.kind, self.group)
        }
    }

    pub fn ids<'a>(&self, snap: &'a Snapshot) -> &'a [ObjectId] {
        snap.ids_of_group(&self.group, &self.kind)
    }
}

/// The kind for what a user typed, as kubectl resolves it: `nodes`, `no`, `Node` are the
/// kinds of the table (core Node); `nodes.longhorn.io`, `node.longhorn.io` and
/// `nodes.v1beta1.longhorn.io` name the group. Kinds outside the table are matched
/// against the names of the bundle's CRDs and of the OpenShift platform kinds it holds
/// (plural, singular, short names: `co`, `mcp`), then against the kinds the bundle
/// holds (singular or plural, any case).
pub(super) fn resolve_kind(snap: &Snapshot, typed: &str) -> Option<Kind> {
    let (t, group) = match typed.split_once('.') {
        Some((t, rest)) => (t, Some(strip_version(rest))),
        None => (typed, None),
    };
    let t = t.to_ascii_lowercase();
    if t.is_empty() {
        return None;
    }
    if let Some(known) = kubectl_kind(&t) {
        let (kind, default) = (known.kind, known.group());
        match group {
            None => return Some(kind_of(default, kind)),
            Some(g) => {
                let api_version = format!("{}/v", g.to_ascii_lowercase());
                let g = canonical_group(&api_version, kind);
                if g == default || snap.group_kinds().any(|gk| gk == (g, kind)) {
                    return Some(kind_of(g, kind));
                }
            }
        }
    }
    let custom = custom_kinds(snap);
    let named = custom
        .iter()
        .find(|n| n.matches(&t) && group.is_none_or(|want| want.eq_ignore_ascii_case(n.group)));
    if let Some(n) = named {
        return Some(kind_of(n.group, n.kind));
    }
    let mut found = snap
        .group_kinds()
        .filter(|(g, _)| group.is_none_or(|want| want.eq_ignore_ascii_case(g)))
        .filter(|(_, k)| plural_forms(k).contains(&t));
    found.next().map(|(g, k)| kind_of(g, k))
}

/// Every name kubectl knows a kind by, with the kind's plural: the kinds of the table
/// (commonest first), the bundle's CRDs and the kinds it holds. For "did you mean".
pub(super) fn kind_names(snap: &Snapshot) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (kind, short) in kubectl_kinds() {
        let plural = kind.plural;
        let names = [kind.singular.to_string(), plural.to_string()];
        let shorts = short.iter().map(|s| s.to_string());
        out.extend(
            names
                .into_iter()
                .chain(shorts)
                .map(|n| (n, plural.to_string())),
        );
    }
    for n in custom_kinds(snap) {
        let names = [n.plural, n.singular]
            .into_iter()
            .chain(n.short.iter().copied());
        out.extend(names.map(|s| (s.to_string(), n.plural.to_string())));
    }
    for (_, k) in snap.group_kinds() {
        let forms = plural_forms(k);
        let plural = forms[1].clone();
        out.extend(forms.into_iter().map(|f| (f, plural.clone())));
    }
    out
}

/// The kind `typed` names when it is one kdiag knows by name alone (`pods`, `po`,
/// `deployments.apps`), as [`resolve_kind`] finds it without the bundle, and whether it
/// has no namespace: what a selective read needs to know before reading.
pub(super) fn known_kind(typed: &str) -> Option<(&'static str, bool)> {
    let (t, group) = match typed.split_once('.') {
        Some((t, rest)) => (t, Some(strip_version(rest))),
        None => (typed, None),
    };
    let t = t.to_ascii_lowercase();
    let known = kubectl_kind(&t)?;
    let (kind, default) = (known.kind, known.group());
    let same_group = group
        .is_none_or(|g| canonical_group(&format!("{}/v", g.to_ascii_lowercase()), kind) == default);
    same_group.then_some((kind, !known.namespaced))
}

fn kind_of(group: &str, kind: &str) -> Kind {
    Kind {
        group: group.to_string(),
        kind: kind.to_string(),
    }
}

/// `v1beta1.longhorn.io` → `longhorn.io` (kubectl's `resource.version.group`); `v1`
/// alone (`pods.v1`) is the core group.
fn strip_version(rest: &str) -> &str {
    match rest.split_once('.') {
        Some((first, group)) if is_version(first) => group,
        None if is_version(rest) => "",
        _ => rest,
    }
}

/// `v1`, `v1beta1`, `v2alpha3`.
fn is_version(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('v') else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    let tail = &rest[digits..];
    tail.is_empty()
        || ["alpha", "beta"].iter().any(|p| {
            tail.strip_prefix(p)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
}

fn plural_forms(kind: &str) -> Vec<String> {
    let k = kind.to_ascii_lowercase();
    let mut v = vec![k.clone(), format!("{k}s"), format!("{k}es")];
    if let Some(stem) = k.strip_suffix('y') {
        v.push(format!("{stem}ies"));
    }
    v
}

pub(super) fn cluster_scoped(snap: &Snapshot, kind: &Kind) -> bool {
    if kind.is_known() {
        return kinds::by_kind(&kind.kind).is_some_and(|k| !k.namespaced);
    }
    if let Some(crd) = custom_kinds(snap)
        .iter()
        .find(|n| n.group == kind.group && n.kind == kind.kind)
    {
        return crd.cluster_scoped;
    }
    // Neither kdiag's table of kinds nor a CRD says: cluster-scoped when none of its
    // objects has a namespace (a manifest of a namespaced kind may leave it out; one
    // such object does not make its kind cluster-scoped).
    kind.ids(snap)
        .iter()
        .all(|&id| snap.object(id).namespace.is_none())
}

/// Finds one object: `-n` when given, else the only object of that name. When `-n`
/// names another namespace than the object's, says where it is.
pub(super) fn resolve_object(
    snap: &Snapshot,
    kind: &Kind,
    name: &str,
    ns: Option<&str>,
) -> Result<ObjectId, String> {
    resolve_object_also(snap, kind, name, ns, &[])
}

/// [`resolve_object`], with the namespaces of objects of that kind and name that `snap`
/// does not hold (`also`: a selective read located them; see `crate::ingest::locate`).
pub(super) fn resolve_object_also(
    snap: &Snapshot,
    kind: &Kind,
    name: &str,
    ns: Option<&str>,
    also: &[&str],
) -> Result<ObjectId, String> {
    let scoped = cluster_scoped(snap, kind);
    snap.resolve_in(&kind.group, &kind.kind, name, ns, scoped)
        .or_else(|e| {
            // Not when a selective read located the name in a namespace.
            also.is_empty()
                .then(|| snap.only_without_namespace(kind.ids(snap), name))
                .flatten()
                .ok_or(e)
        })
        .map_err(|e| elsewhere(snap, kind, name, ns, scoped, also).unwrap_or(e))
}

/// The objects `kubectl describe KIND NAME` shows: the one named so, else every one
/// whose name starts with NAME (in `-n`'s namespace, or in any without `-n`), sorted.
pub(super) fn resolve_prefix(
    snap: &Snapshot,
    kind: &Kind,
    name: &str,
    ns: Option<&str>,
) -> Result<Vec<ObjectId>, String> {
    let not_found = match resolve_object(snap, kind, name, ns) {
        Ok(id) => return Ok(vec![id]),
        Err(e) => e,
    };
    let scoped = cluster_scoped(snap, kind);
    let in_scope =
        |id: ObjectId| scoped || ns.is_none() || snap.object(id).namespace.as_deref() == ns;
    let ids = kind.ids(snap).iter().copied().filter(|&id| in_scope(id));
    let mut ids: Vec<ObjectId> = ids
        .filter(|&id| snap.object(id).name.starts_with(name))
        .collect();
    // The exact name in several namespaces: say so rather than describe every prefix.
    if ids.is_empty() || ids.iter().any(|&id| snap.object(id).name == name) {
        return Err(not_found);
    }
    ids.sort_by(|&a, &b| {
        let (a, b) = (snap.object(a), snap.object(b));
        (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name))
    });
    ids.dedup();
    Ok(ids)
}

/// `pod web is in namespace shop; use -n shop` when `-n` names a namespace that does
/// not hold the object but others do.
fn elsewhere(
    snap: &Snapshot,
    kind: &Kind,
    name: &str,
    ns: Option<&str>,
    scoped: bool,
    also: &[&str],
) -> Option<String> {
    let asked = ns.filter(|_| !scoped)?;
    let mut found: Vec<&str> = kind
        .ids(snap)
        .iter()
        .map(|&id| snap.object(id))
        .filter(|o| o.name == name)
        .filter_map(|o| o.namespace.as_deref())
        .chain(also.iter().copied())
        .filter(|n| *n != asked)
        .collect();
    found.sort_unstable();
    found.dedup();
    let what = format!("{} {name}", kind.display().to_ascii_lowercase());
    match found[..] {
        [] => None,
        [one] => Some(format!(
            "{what} is not in namespace {asked}: it is in namespace {one}; use -n {one}"
        )),
        _ => Some(format!(
            "{what} is not in namespace {asked}: it is in namespaces {}; use -n NAMESPACE",
            found.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_groups() {
        assert_eq!(strip_version("v1beta1.longhorn.io"), "longhorn.io");
        assert_eq!(strip_version("longhorn.io"), "longhorn.io");
        assert_eq!(strip_version("apps"), "apps");
        assert_eq!(strip_version("v1.apps"), "apps");
        assert_eq!(strip_version("v1"), "");
        assert!(is_version("v2alpha3") && !is_version("vx") && !is_version("v1gamma"));
    }
}

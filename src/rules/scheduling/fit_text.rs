//! The sentences and evidence `scheduling/unschedulable` builds from the per-node fit
//! ([`super::fit`]): the pod's effective request, a node's free room, one exclusion
//! category ("3 of 3 nodes lack cpu (…)"), and the node closest to fitting. Split from
//! the rule so that it keeps only the decision of which cause applies.

use super::fit::{Exclusion, NodeFit, Short, Verdict};
use super::placer::{Fits, Group};
use crate::kube::placement::is_not_ready_taint;
use crate::kube::pod::Pod;
use crate::kube::requests::{display_units, display_units_apart, pod_units};
use crate::rules::Evidence;
use crate::rules::deletion::Deletion;
use crate::rules::evidence;
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::BTreeMap;

pub(super) fn need_text(need: &BTreeMap<String, i128>) -> String {
    need.iter()
        .map(|(r, u)| format!("{} {r}", display_units(r, *u)))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn requests_evidence(
    snap: &Snapshot,
    id: ObjectId,
    pod: &Pod,
    need_text: &str,
) -> Evidence {
    let c = pod
        .spec
        .containers
        .iter()
        .find(|c| !c.resources.requests.is_empty() || !c.resources.limits.is_empty());
    let path: Vec<String> = match c {
        Some(c) => vec![
            "spec".into(),
            "containers".into(),
            format!("name={}", c.name),
            "resources".into(),
        ],
        None => vec!["spec".into()],
    };
    let extras = [
        (!pod.spec.init_containers.is_empty()).then_some("init containers"),
        pod.spec
            .resources
            .is_some()
            .then_some("pod-level resources"),
        (!pod.spec.overhead.is_empty()).then_some("overhead"),
    ];
    let extras: Vec<&str> = extras.into_iter().flatten().collect();
    evidence::field(
        snap,
        id,
        &path.iter().map(String::as_str).collect::<Vec<_>>(),
        format!(
            "effective request: {need_text}{}",
            if extras.is_empty() {
                String::new()
            } else {
                format!(" (counting {})", extras.join(", "))
            }
        ),
    )
}

pub(super) fn node_room_evidence(snap: &Snapshot, f: &NodeFit) -> Evidence {
    let room: Vec<String> = f
        .verdict
        .free
        .iter()
        .map(|(r, (free, alloc))| {
            format!(
                "{r} {} free of {} allocatable",
                display_units(r, *free),
                display_units(r, *alloc)
            )
        })
        .collect();
    evidence::field(
        snap,
        f.id,
        &["status", "allocatable"],
        format!(
            "node {}: {} ({} non-terminated pods bound there{})",
            f.name,
            if room.is_empty() {
                "no requested resource".into()
            } else {
                room.join(", ")
            },
            f.usage.pods.len(),
            terminating_note(snap, f)
        ),
    )
}

/// ", 1 of them terminating, still counted by the scheduler: ns/web-old (holds cpu 1.2;
/// grace period ends …)", or empty when no pod on the node is being deleted.
fn terminating_note(snap: &Snapshot, f: &NodeFit) -> String {
    const SHOWN: usize = 3;
    let ids = &f.usage.terminating;
    if ids.is_empty() {
        return String::new();
    }
    let named: Vec<String> = ids
        .iter()
        .take(SHOWN)
        .map(|id| {
            let held: Vec<String> = snap
                .pod(*id)
                .map(|p| pod_units(&p.spec))
                .unwrap_or_default()
                .into_iter()
                .filter(|(r, v)| *v > 0 && f.verdict.free.contains_key(r))
                .map(|(r, v)| format!("{} {r}", display_units(&r, v)))
                .collect();
            let when = Deletion::of(snap, *id)
                .map(|d| d.words(snap.as_of))
                .unwrap_or_default();
            let inner: Vec<String> = [
                (!held.is_empty()).then(|| format!("holds {}", held.join(", "))),
                (!when.is_empty()).then_some(when),
            ]
            .into_iter()
            .flatten()
            .collect();
            format!(
                "{}{}",
                snap.object(*id).reference().display(),
                if inner.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", inner.join("; "))
                }
            )
        })
        .collect();
    let more = match ids.len().saturating_sub(SHOWN) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    format!(
        ", {} of them terminating, still counted by the scheduler: {}{more}",
        ids.len(),
        named.join(", ")
    )
}

/// "web-old, terminating: grace period ends …" for a pod being deleted, else its name.
fn peer_name(snap: &Snapshot, id: ObjectId) -> String {
    let name = snap.object(id).name.clone();
    match Deletion::of(snap, id) {
        Some(d) => format!("{name}, terminating: {}", d.words(snap.as_of)),
        None => name,
    }
}

pub(super) fn list_names(names: &[&str]) -> String {
    list_first_names(names, names.len())
}

/// [`list_names`] of `n` names of which `first` holds the first (at least 4, or all).
pub(super) fn list_first_names(first: &[&str], n: usize) -> String {
    if n <= 4 {
        first[..n].join(", ")
    } else {
        format!("{}, … and {} more", first[..3].join(", "), n - 3)
    }
}

/// Resources the nodes lack, most-lacked first: [("cpu", 3), ("memory", 1)]. Counted
/// per class of nodes (they share a verdict), then per resource.
fn short_counts<'v>(
    classes: impl IntoIterator<Item = (usize, &'v Verdict)>,
) -> Vec<(String, usize)> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (n, v) in classes {
        for x in &v.exclusions {
            if let Exclusion::Resources(s) = x {
                for s in s {
                    *counts.entry(s.resource.as_str()).or_default() += n;
                }
            }
        }
    }
    let mut v: Vec<(String, usize)> = counts
        .into_iter()
        .map(|(r, c)| (r.to_string(), c))
        .collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

pub(super) fn short_resources<'v>(
    classes: impl IntoIterator<Item = (usize, &'v Verdict)>,
) -> Vec<String> {
    let mut v: Vec<String> = short_counts(classes).into_iter().map(|(r, _)| r).collect();
    v.sort();
    v
}

/// "3 of 3 nodes lack cpu (node-a, node-b, node-c)" for one exclusion category.
pub(super) fn phrase(snap: &Snapshot, x: &Exclusion, group: &Group, total: usize) -> String {
    let n = group.n;
    let one = n == 1;
    let (is, has, lacks) = if one {
        ("is", "has", "lacks")
    } else {
        ("are", "have", "lack")
    };
    let head = format!(
        "{n} of {total} {}",
        if total == 1 { "node" } else { "nodes" }
    );
    let who = format!(" ({})", list_first_names(&group.names, n));
    match x {
        Exclusion::Cordoned => format!("{head} {is} cordoned{who}"),
        Exclusion::Taint(t) if is_not_ready_taint(&t.key) => format!(
            "{head} {is} NotReady (taint {}:{} not tolerated){who}",
            t.key, t.effect
        ),
        Exclusion::Taint(t) => format!(
            "{head} {has} the untolerated taint {}{}:{}{who}",
            t.key,
            t.value
                .as_deref()
                .filter(|v| !v.is_empty())
                .map(|v| format!("={v}"))
                .unwrap_or_default(),
            t.effect
        ),
        Exclusion::NodeSelector { key, want } => {
            format!("{head} {lacks} the label {key}={want} its nodeSelector requires{who}")
        }
        Exclusion::NodeAffinity => format!("{head} {is} outside its required node affinity{who}"),
        Exclusion::HostPort(p) => format!(
            "{head} already use{} host port {p}{who}",
            if one { "s" } else { "" }
        ),
        Exclusion::Resources(_) => {
            let counts = short_counts(group.classes.iter().map(|(n, f)| (*n, &*f.verdict)));
            let what = if counts.len() == 1 || counts.iter().all(|(_, c)| *c == n) {
                counts
                    .iter()
                    .map(|(r, _)| r.as_str())
                    .collect::<Vec<_>>()
                    .join(" and ")
            } else {
                counts
                    .iter()
                    .map(|(r, c)| format!("{r} ({c})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!("{head} {lacks} {what}{who}")
        }
        Exclusion::TooManyPods { allocatable, .. } => {
            format!("{head} {is} full ({allocatable} of {allocatable} pods){who}")
        }
        Exclusion::VolumeNodeAffinity { pv } => {
            format!("{head} {is} outside the node affinity of its PersistentVolume {pv}{who}")
        }
        Exclusion::AntiAffinity { other } => format!(
            "{head} {has} a pod its required anti-affinity avoids in {} (such as {}){who}",
            if one { "its domain" } else { "their domains" },
            peer_name(snap, *other)
        ),
        Exclusion::ExistingAntiAffinity { other } => format!(
            "{head} {has} a pod whose required anti-affinity rejects it in {} (such as {}){who}",
            if one { "its domain" } else { "their domains" },
            peer_name(snap, *other)
        ),
        Exclusion::TopologySpread {
            key,
            missing_label: true,
            ..
        } => format!("{head} {lacks} the label {key} its topology spread constraint needs{who}"),
        Exclusion::TopologySpread { words, .. } => format!(
            "{head} would break its topology spread constraint, one more matching pod there exceeding maxSkew ({words}){who}",
        ),
        Exclusion::PodAffinity => {
            format!(
                "{head} {has} no pod its required pod affinity asks for in {}{who}",
                if one { "its domain" } else { "their domains" }
            )
        }
    }
}

/// The node closest to fitting and a sentence about it: "needs 6 cpu; the most free is
/// node-b with 5.5 of 7.8 allocatable cpu free". Read per class of nodes: within a class
/// the room is the same, so its node with the smallest name stands for it.
pub(super) fn closest<'a>(
    need: &BTreeMap<String, i128>,
    fits: &Fits<'a>,
) -> Option<(NodeFit<'a>, String)> {
    // Resources some capacity-only node lacks; else resources any node lacks.
    let capacity = fits.any_capacity_only();
    let mut classes = fits.least_named(|v| !capacity || v.capacity_only);
    let slots = classes
        .iter()
        .map(|f| f.class as usize + 1)
        .max()
        .unwrap_or(0);
    let mut short: Vec<&str> = classes
        .iter()
        .flat_map(|f| f.verdict.exclusions.iter())
        .filter_map(|x| match x {
            Exclusion::Resources(s) => Some(
                s.iter()
                    .map(|s: &Short| s.resource.as_str())
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        })
        .flatten()
        .collect();
    short.sort();
    short.dedup();
    if short.is_empty() {
        return None;
    }
    let pool = &classes;
    let mut sentences = Vec::new();
    let mut best_node: Option<usize> = None;
    for res in &short {
        let n = need.get(*res).copied().unwrap_or(0);
        // (free, allocatable) by class.
        let mut class_free = vec![(i128::MIN, 0); slots];
        for f in &classes {
            let (free, alloc) = f.verdict.free.get(res).copied().unzip();
            class_free[f.class as usize] = (free.unwrap_or(i128::MIN), alloc.unwrap_or(0));
        }
        // The most free, then the first by name (as `max_by` with the name reversed).
        let mut best: Option<(usize, &NodeFit, i128)> = None;
        for (k, f) in pool.iter().enumerate() {
            let free = class_free[f.class as usize].0;
            if best.is_none_or(|(_, b, bf)| free.cmp(&bf).then(b.name.cmp(f.name)).is_ge()) {
                best = Some((k, f, free));
            }
        }
        let (k, best, _) = best?;
        let (free, alloc) = best.verdict.free.get(res).copied().unwrap_or((0, 0));
        let largest = classes
            .iter()
            .map(|f| class_free[f.class as usize].1)
            .max()
            .unwrap_or(0);
        let [need_text, free_text, alloc_text] = display_units_apart(res, [n, free.max(0), alloc]);
        let mut s = format!(
            "needs {need_text} {res}; the most free is {} with {free_text} of {alloc_text} allocatable {res} free",
            best.name,
        );
        if n > largest {
            s.push_str(&format!(
                "; no node has that much {res} allocatable at all, so neither preemption nor more nodes of these sizes can help"
            ));
        }
        sentences.push(s);
        best_node.get_or_insert(k);
    }
    let best = classes.swap_remove(best_node?);
    Some((best, sentences.join("; ")))
}

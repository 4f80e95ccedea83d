//! Which copies are one object, and which copy is kept (DESIGN.md "Identity and
//! duplicates").
//!
//! Copies are one object when group, kind, namespace and name agree; their uids, when
//! both are real (an all-zero uid is none), must agree too. Copies are sorted by that
//! identity, then by where they are (path inside the input, then the input's path), so
//! neither the result nor the order of sources depends on the order of the PATHs. Of the
//! copies of one object the kept one is the best by, in order:
//! 1. it reads: its file has no parse problem from its first line to the next object
//!    read from that file (or the file's end); it does not break off where the other
//!    copy goes on (a scalar or null where the other has a map or list that is not empty,
//!    at a field both have: a copy cut short that still parses, `containerStatuses:\n  -
//!    image`); and it has every top-level field the other copy has (a truncated copy
//!    lacks `status`); fields are compared only between copies of different versions;
//! 2. the higher `resourceVersion`, compared as integers of any length (one that is not
//!    a number does not order);
//! 3. the newer timestamp (events: last seen; others: creation);
//! 4. the first by the sort above (the lexicographically smaller path).
//!
//! Same identity, two real uids: the object was deleted and re-created between copies.
//! The best by the same order is kept, the other dropped, and a note names both files.

use super::Object;
use crate::ingest::{InputInfo, Problem, SourceFile};
use rayon::prelude::*;
use serde::de::IgnoredAny;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// Notes beyond this many a kind per input are counted, not listed.
const MAX_NOTES: usize = 10;

/// Merges copies into objects sorted by kind, group, namespace, name; returns the notes
/// (input, text) of what was dropped or is ambiguous. `clean[i]`: copy `i` has no parse
/// problem of its file on or just after its lines. The copies are sorted and merged in
/// their own vector: a second vector of every object was the peak of a run's memory.
pub(super) fn merge(
    mut copies: Vec<Object>,
    clean: Vec<bool>,
    files: &[SourceFile],
    inputs: &[InputInfo],
) -> (Vec<Object>, Vec<(usize, String)>) {
    let place = |o: &Object| {
        let f = &files[o.sources[0].file];
        (
            f.path.as_str(),
            inputs[f.input].path.as_str(),
            o.sources[0].span,
        )
    };
    // Keys are sorted, then the copies moved once into that order. A key holds what
    // most comparisons need without reading the objects' scattered strings: the rank of
    // the kind and group, and the first bytes of namespace and name.
    let mut kinds: Vec<(&str, &str)> = Vec::new();
    for o in &copies {
        // A file's copies are mostly of one kind: keep a pair once per run.
        let pair = (o.kind.as_str(), o.group());
        if kinds.last() != Some(&pair) {
            kinds.push(pair);
        }
    }
    kinds.sort_unstable();
    kinds.dedup();
    let rank = |o: &Object| {
        kinds
            .binary_search(&(o.kind.as_str(), o.group()))
            .unwrap_or(0) as u32
    };
    let mut keys: Vec<Key<'_>> = copies
        .par_iter()
        .enumerate()
        .map(|(i, o)| key(rank(o), o, i as u32))
        .collect();
    keys.par_sort_unstable_by(|a, b| {
        a.cmp_identity(b)
            .then_with(|| place(&copies[a.at as usize]).cmp(&place(&copies[b.at as usize])))
    });
    // The length of each run of copies of one object, in order.
    let mut runs: Vec<usize> = Vec::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        match runs.last_mut() {
            Some(len) if keys[i - 1].cmp_identity(k).is_eq() => *len += 1,
            _ => runs.push(1),
        }
    }
    let order: Vec<u32> = keys.into_iter().map(|k| k.at).collect();
    let clean: Vec<bool> = order.iter().map(|&i| clean[i as usize]).collect();
    permute(&mut copies, order);
    let mut keep = vec![true; copies.len()];
    let mut notes = Vec::new();
    let mut start = 0;
    for len in runs {
        // Most objects have one copy: no run to merge.
        if len > 1 {
            let range = start..start + len;
            merge_run(&mut copies[range.clone()], &clean[range], files, &mut notes);
            keep[start + 1..start + len].fill(false);
        }
        start += len;
    }
    let mut at = 0;
    copies.retain(|_| {
        at += 1;
        keep[at - 1]
    });
    (copies, notes)
}

/// Puts `items[order[i]]` at `i` for every `i`, moving each item once along the cycles of
/// the permutation (`order` holds every index once).
fn permute<T>(items: &mut [T], mut order: Vec<u32>) {
    const DONE: u32 = u32::MAX;
    for start in 0..items.len() {
        let mut at = start;
        while order[at] != DONE {
            let from = order[at] as usize;
            order[at] = DONE;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

/// Merges the copies of one object, sorted by place: the kept copy goes first, with
/// every copy of it as a source; the others are left for the caller to drop.
fn merge_run(
    run: &mut [Object],
    clean: &[bool],
    files: &[SourceFile],
    notes: &mut Vec<(usize, String)>,
) {
    let mut keys: Vec<Option<Option<BTreeMap<String, IgnoredAny>>>> =
        (0..run.len()).map(|_| None).collect();
    let mut best = 0;
    for i in 1..run.len() {
        if better(run, clean, &mut keys, i, best) {
            best = i;
        }
    }
    let uid = run[best]
        .uid
        .clone()
        .or_else(|| run.iter().find_map(|o| o.uid.clone()));
    let mut sources = vec![run[best].sources[0]];
    let mut dropped = Vec::new();
    for (i, o) in run.iter().enumerate() {
        if i == best {
            continue;
        }
        match (&o.uid, &uid) {
            (Some(a), Some(b)) if a != b => dropped.push(i),
            _ => sources.push(o.sources[0]),
        }
    }
    let file_of = |i: usize| &files[run[i].sources[0].file];
    for i in dropped {
        let kept = file_of(best);
        let o = &run[i];
        notes.push((
            kept.input,
            format!(
                "{} {}: two objects of that name with different uids (deleted and re-created?): kept uid {} ({}), dropped uid {} ({})",
                o.kind,
                display_name(o),
                uid.as_deref().unwrap_or(""),
                kept.path,
                o.uid.as_deref().unwrap_or(""),
                file_of(i).path,
            ),
        ));
    }
    run.swap(0, best);
    run[0].uid = uid;
    run[0].sources = sources;
}

/// Whether copy `a` is a better copy to keep than copy `b` (the order of the module doc).
fn better(
    run: &[Object],
    clean: &[bool],
    keys: &mut [Option<Option<BTreeMap<String, IgnoredAny>>>],
    a: usize,
    b: usize,
) -> bool {
    let (oa, ob) = (&run[a], &run[b]);
    if clean[a] != clean[b] {
        return clean[a];
    }
    let rv = rv_cmp(oa.resource_version(), ob.resource_version());
    if clean[a] && rv != Some(Ordering::Equal) {
        let (broken_a, broken_b) = (breaks_off(run, a, b), breaks_off(run, b, a));
        if broken_a != broken_b {
            return broken_b;
        }
        let lacks_a = lacks(keys, run, a, b);
        let lacks_b = lacks(keys, run, b, a);
        if lacks_a != lacks_b {
            return lacks_b;
        }
    }
    match rv {
        Some(Ordering::Greater) => return true,
        Some(Ordering::Less) => return false,
        _ => {}
    }
    match oa.time.cmp(&ob.time) {
        Ordering::Greater => true,
        Ordering::Less => false,
        // Sorted by place: the earlier copy wins the tie.
        Ordering::Equal => a < b,
    }
}

/// Whether copy `a` breaks off where copy `b` goes on: at a field both have, `a` holds a
/// scalar or null where `b` holds a map or list that is not empty (fields are compared by
/// name, list items by position). Kubernetes never changes a field's type between
/// versions of an object, and kubectl leaves empty fields out: such a copy was cut short.
fn breaks_off(run: &[Object], a: usize, b: usize) -> bool {
    use serde_json::Value;
    fn broken(a: &Value, b: &Value, depth: usize) -> bool {
        let filled = match b {
            Value::Object(m) => !m.is_empty(),
            Value::Array(l) => !l.is_empty(),
            _ => false,
        };
        match (a, b) {
            _ if depth > 64 => false,
            (Value::Object(ma), Value::Object(mb)) => ma
                .iter()
                .any(|(k, va)| mb.get(k).is_some_and(|vb| broken(va, vb, depth + 1))),
            (Value::Array(la), Value::Array(lb)) => {
                la.iter().zip(lb).any(|(va, vb)| broken(va, vb, depth + 1))
            }
            (Value::Object(_) | Value::Array(_), _) => false,
            _ => filled,
        }
    }
    match (run[a].deserialize::<Value>(), run[b].deserialize::<Value>()) {
        (Ok(va), Ok(vb)) => broken(&va, &vb, 0),
        _ => false,
    }
}

/// Whether copy `a` lacks a top-level field copy `b` has (or does not read at all).
fn lacks(
    keys: &mut [Option<Option<BTreeMap<String, IgnoredAny>>>],
    run: &[Object],
    a: usize,
    b: usize,
) -> bool {
    for i in [a, b] {
        if keys[i].is_none() {
            keys[i] = Some(run[i].deserialize().ok());
        }
    }
    match (&keys[a], &keys[b]) {
        (Some(Some(ka)), Some(Some(kb))) => kb.keys().any(|k| !ka.contains_key(k)),
        (Some(None), Some(Some(_))) => true,
        _ => false,
    }
}

/// Two resourceVersions as integers of any length; `None` when either is not a number.
pub(super) fn rv_cmp(a: Option<&str>, b: Option<&str>) -> Option<Ordering> {
    let (a, b) = (digits(a?)?, digits(b?)?);
    Some(a.len().cmp(&b.len()).then_with(|| a.cmp(b)))
}

/// A resourceVersion's digits without leading zeros, when it is a number.
fn digits(s: &str) -> Option<&str> {
    (!s.is_empty() && s.bytes().all(|c| c.is_ascii_digit())).then(|| s.trim_start_matches('0'))
}

/// A copy's identity, in the order objects are stored: kind and group (as their rank
/// among the bundle's kinds), namespace, name; `at` is the copy's index.
struct Key<'a> {
    kind: u32,
    namespace: Option<(u64, &'a str)>,
    name: (u64, &'a str),
    at: u32,
}

fn key(kind: u32, o: &Object, at: u32) -> Key<'_> {
    Key {
        kind,
        namespace: o.namespace.as_deref().map(|n| (prefix(n), n)),
        name: (prefix(&o.name), &o.name),
        at,
    }
}

/// The first eight bytes, big-endian, zero-padded: ordered as the strings are (names hold
/// no NUL byte), so only strings with the same start need be read.
fn prefix(s: &str) -> u64 {
    let mut b = [0u8; 8];
    let n = s.len().min(8);
    b[..n].copy_from_slice(&s.as_bytes()[..n]);
    u64::from_be_bytes(b)
}

impl Key<'_> {
    fn cmp_identity(&self, other: &Self) -> Ordering {
        self.kind
            .cmp(&other.kind)
            .then_with(|| self.namespace.cmp(&other.namespace))
            .then_with(|| self.name.cmp(&other.name))
    }
}

pub(super) fn display_name(o: &Object) -> String {
    match &o.namespace {
        Some(ns) => format!("{ns}/{}", o.name),
        None => o.name.clone(),
    }
}

/// Whether a copy's file has no parse problem from the copy's first line up to where the
/// next object read from that file starts (`next`; the end of the file for the last one):
/// a file cut short inside the next object reports the problem there, or at its end.
/// `bad` holds, per file, its problem lines.
pub(super) fn clean(bad: &[Vec<u32>], file: usize, start: u32, next: u32) -> bool {
    bad.get(file)
        .is_none_or(|lines| !lines.iter().any(|&l| l >= start && l < next))
}

/// Per file, the lines of the problems ingest found in it.
pub(super) fn problem_lines(files: &[SourceFile], problems: &[Problem]) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = Vec::new();
    if problems.is_empty() {
        return out;
    }
    let mut by_path: std::collections::HashMap<(usize, &str), Vec<u32>> = Default::default();
    for p in problems {
        if let (Some(f), Some(l)) = (&p.file, p.line) {
            by_path.entry((p.input, f.as_str())).or_default().push(l);
        }
    }
    out.resize_with(files.len(), Vec::new);
    for (i, f) in files.iter().enumerate() {
        if let Some(lines) = by_path.remove(&(f.input, f.path.as_str())) {
            out[i] = lines;
        }
    }
    out
}

/// Notes for different objects that share a uid (all kept): one per uid, naming each
/// object and its file. `shared` holds (first object with the uid, another one).
pub(super) fn shared_uid_notes(
    objects: &[Object],
    files: &[SourceFile],
    mut shared: Vec<(usize, usize)>,
    notes: &mut Vec<(usize, String)>,
) {
    shared.sort_unstable();
    let describe = |i: usize| {
        let o = &objects[i];
        let f = &files[o.sources[0].file];
        format!("{} {} ({})", o.kind, display_name(o), f.path)
    };
    let mut i = 0;
    while i < shared.len() {
        let first = shared[i].0;
        let mut names = vec![describe(first)];
        while i < shared.len() && shared[i].0 == first {
            names.push(describe(shared[i].1));
            i += 1;
        }
        let o = &objects[first];
        notes.push((
            files[o.sources[0].file].input,
            format!(
                "uid {} is shared by {} different objects, all kept: {}",
                o.uid.as_deref().unwrap_or(""),
                names.len(),
                names.join(", ")
            ),
        ));
    }
}

/// Adds notes to their inputs, at most [`MAX_NOTES`] of each kind per input listed.
pub(super) fn add_notes(inputs: &mut [InputInfo], notes: Vec<(usize, String)>, what: &str) {
    let mut count = vec![0usize; inputs.len()];
    for (input, note) in notes {
        count[input] += 1;
        if count[input] <= MAX_NOTES {
            inputs[input].notes.push(note);
        }
    }
    for (input, n) in count.into_iter().enumerate() {
        if n > MAX_NOTES {
            inputs[input]
                .notes
                .push(format!("{} more {what} not listed", n - MAX_NOTES));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_versions_order_as_integers() {
        let c = |a, b| rv_cmp(Some(a), Some(b));
        assert_eq!(c("10", "9"), Some(Ordering::Greater));
        assert_eq!(
            c("123456789012345678901234567890", "99999999999999999999"),
            Some(Ordering::Greater)
        );
        assert_eq!(c("007", "7"), Some(Ordering::Equal));
        assert_eq!(c("abc", "1"), None);
        assert_eq!(c("", "1"), None);
        assert_eq!(rv_cmp(None, Some("1")), None);
    }

    #[test]
    fn permute_puts_each_item_where_the_order_says() {
        // Fixed points, two-cycles, one long cycle and their mix.
        for order in [
            vec![],
            vec![0],
            vec![1, 0],
            vec![2, 0, 1],
            vec![0, 3, 2, 1, 5, 6, 4],
            (0..50u32).rev().collect(),
            (0..50u32).map(|i| (i * 7 + 3) % 50).collect(),
        ] {
            let items: Vec<String> = (0..order.len()).map(|i| format!("item {i}")).collect();
            let want: Vec<String> = order.iter().map(|&i| items[i as usize].clone()).collect();
            let mut got = items;
            permute(&mut got, order.clone());
            assert_eq!(got, want, "{order:?}");
        }
    }
}

//! Folding a cause's members under it, for the reports a person reads (human, HTML): a
//! finding that names one cause of many controllers (`details.members`, see
//! `rules::common_cause`) is shown with its count and its first few members; the other
//! members are listed compactly. JSON and SARIF keep every finding as it is.

use crate::rules::Finding;
use crate::rules::common_cause;
use std::collections::{BTreeMap, HashMap};

/// Members shown in full under their cause; the rest are listed by name.
pub const MEMBERS_SHOWN: usize = 3;

/// A list of findings with the members of the causes in it set aside.
pub struct Folded<'f> {
    /// The findings shown at the top level, in the list's order (causes included).
    pub top: Vec<&'f Finding>,
    /// Per cause's fingerprint, its members in the list's order.
    under: HashMap<&'f str, Vec<&'f Finding>>,
}

impl<'f> Folded<'f> {
    /// Folds `list`: a finding is set under a cause when the cause is in `list` too.
    pub fn of(list: &[&'f Finding]) -> Folded<'f> {
        let mut root_of: HashMap<&str, &str> = HashMap::new();
        for f in list {
            for m in common_cause::members(f) {
                root_of.entry(m).or_insert(f.fingerprint.as_str());
            }
        }
        let mut top = Vec::with_capacity(list.len());
        let mut under: HashMap<&str, Vec<&Finding>> = HashMap::new();
        for &f in list {
            match root_of.get(f.fingerprint.as_str()) {
                Some(&root) if root != f.fingerprint => under.entry(root).or_default().push(f),
                _ => top.push(f),
            }
        }
        Folded { top, under }
    }

    /// The members folded under `f` (empty unless it is a cause).
    pub fn members(&self, f: &Finding) -> &[&'f Finding] {
        self.under
            .get(f.fingerprint.as_str())
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }
}

/// "9 more: Deployments billing/refunds, billing/tax, …; StatefulSet shop/db": the members
/// past the first [`MEMBERS_SHOWN`], by kind.
pub fn rest_in_words(members: &[&Finding]) -> Option<String> {
    let rest = members.get(MEMBERS_SHOWN..).filter(|r| !r.is_empty())?;
    let mut by_kind: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for f in rest {
        let o = &f.object;
        by_kind
            .entry(&o.kind)
            .or_default()
            .push(match &o.namespace {
                Some(ns) => format!("{ns}/{}", o.name),
                None => o.name.clone(),
            });
    }
    let parts: Vec<String> = by_kind
        .iter()
        .map(|(kind, names)| format!("{kind} {}", names.join(", ")))
        .collect();
    Some(format!(
        "{} more waiting on the same cause: {}",
        rest.len(),
        parts.join("; ")
    ))
}

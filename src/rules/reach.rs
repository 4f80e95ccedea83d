//! How far each rule reaches: whether one object's findings can be told from a read of its
//! namespace alone (`kdiag describe` reads so, see `explorer/describe.rs`).
//!
//! A narrow read holds every object of one namespace NS, every cluster-scoped object, the
//! Events of NS and of `default` (where Events about cluster-scoped objects are: the API
//! server keeps an Event in its involved object's namespace, or in `default` for an object
//! without one), and the times of every other Event (the snapshot time is a full read's).
//! [`crate::snapshot::Snapshot::has_kind`] answers as a full read would, or says it could
//! not (its doubts); the caller then reads those kinds everywhere.
//!
//! A rule is [`Reach::Local`] when each of its findings is on an object of one namespace
//! (or a cluster-scoped one) and everything it weighs, explains and cites is of that
//! namespace or cluster-scoped: its findings that touch NS are then the same from a
//! narrow read as from a full one, and a finding of another namespace's object never
//! touches NS. Otherwise it is [`Reach::Wide`], with a conservative test over the narrow
//! read saying whether it could touch the object described; when one could, the caller
//! reads everything.
//!
//! The steps after the rules (`rules/registry.rs`, which also holds [`super::registry::reaching`]) keep the argument: a later finding is
//! dropped when the Kueue or NUMA rules already explained every object it explains, and
//! fallback rules skip explained objects; a local rule's explained objects are of its
//! finding's namespace, and the Kueue and NUMA areas are wide (tested here). Cause links
//! with a namespace hint come only from platform rules, which are wide.

use crate::rules::Finding;
use crate::snapshot::{ObjectId, Snapshot};

/// How far a rule reaches (see the module's doc).
#[derive(Clone, Copy)]
pub enum Reach {
    /// Findings touching a namespace come from that namespace and the cluster scope.
    Local,
    /// Whether the rule could touch [`Involve::target`] in a full read, told from a
    /// narrow read; `true` when unsure.
    Wide(fn(&Involve) -> bool),
}

/// What a wide rule's test sees: the narrow read, its findings, and the object asked.
pub struct Involve<'a> {
    pub snapshot: &'a Snapshot,
    pub findings: &'a [Finding],
    pub target: ObjectId,
    /// The rule being asked (its findings in [`Involve::findings`]).
    pub rule: &'static str,
}

impl Involve<'_> {
    /// The namespace read whole.
    pub fn namespace(&self) -> Option<&str> {
        self.snapshot.object(self.target).namespace.as_deref()
    }

    /// Whether the object asked is a core Pod.
    pub fn target_is_pod(&self) -> bool {
        let o = self.snapshot.object(self.target);
        o.kind == "Pod" && o.group().is_empty()
    }

    /// This rule's findings in the narrow read.
    pub fn own(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.rule == self.rule)
    }

    /// Whether `f` is on, explains or cites an object of the namespace read.
    pub fn touches_namespace(&self, f: &Finding) -> bool {
        let ns = self.namespace();
        let of_ns = |id: &ObjectId| self.snapshot.object(*id).namespace.as_deref() == ns;
        f.object.namespace.as_deref() == ns
            || f.explains.iter().any(of_ns)
            || f.evidence.iter().any(|e| {
                e.object
                    .as_ref()
                    .is_some_and(|o| o.namespace.is_some() && o.namespace.as_deref() == ns)
            })
    }

    /// Whether `f` is on, explains or cites the object asked.
    pub fn touches_target(&self, f: &Finding) -> bool {
        let me = self.snapshot.object(self.target).reference();
        let same = |r: &crate::kube::meta::ObjectRef| {
            r.kind == me.kind && r.namespace == me.namespace && r.name == me.name
        };
        same(&f.object)
            || f.explains.contains(&self.target)
            || f.evidence
                .iter()
                .any(|e| e.object.as_ref().is_some_and(same))
    }

    /// The usual test of a rule whose findings group the cases of several namespaces (one
    /// image, one node) while which pod is a case is told by the pod, its Events and
    /// cluster-scoped objects alone: in a full read it can touch only a pod that is a case
    /// (then it is one in the narrow read too) or, when the namespace has a case, any
    /// other object of it (an owner, a Secret, an Event). So it could touch the object
    /// when a narrow finding of the rule touches the namespace, unless the object is a
    /// pod no narrow finding of the rule touches.
    pub fn grouped_cases(&self) -> bool {
        let touched = self.own().any(|f| self.touches_namespace(f));
        touched && (!self.target_is_pod() || self.own().any(|f| self.touches_target(f)))
    }
}

/// Whether the narrow read holds an object of `kind` in the namespace asked.
pub fn namespace_holds(inv: &Involve, kind: &str) -> bool {
    let ns = inv.namespace();
    inv.snapshot
        .ids_of(kind)
        .iter()
        .any(|&id| inv.snapshot.object(id).namespace.as_deref() == ns)
}

/// Whether the narrow read holds any object of one of `kinds`.
pub fn bundle_holds(inv: &Involve, kinds: &[&str]) -> bool {
    kinds.iter().any(|k| !inv.snapshot.ids_of(k).is_empty())
}

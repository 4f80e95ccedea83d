//! What a rule is and what it sees: its registry entry ([`RuleMeta`], declared with
//! [`declare_rule!`]) and its [`Context`], which holds the snapshot and the models several
//! rules of an area share, built once per run by the first rule that asks.

use super::reach;
use super::{Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use std::any::TypeId;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

/// What a rule sees.
pub struct Context<'a, 'e> {
    pub snapshot: &'a Snapshot,
    /// Objects already explained by a specific rule (filled for fallback rules only).
    pub explained: &'e HashSet<ObjectId>,
    pub(super) models: &'e Models<'a>,
}

impl<'a> Context<'a, '_> {
    /// The model `M` of this run's snapshot: built by the first rule that asks, while the
    /// others that ask wait for it rather than build their own.
    pub fn model<M: Model>(&self) -> &M::Of<'a> {
        self.models.get::<M>(self.snapshot)
    }
}

/// A model several rules read (the Service / endpoint graph, where an update stands …),
/// named by a type of its own so that the cache of [`Context::model`] names no area.
/// `Of<'a>` is the model itself, which may borrow from the snapshot.
pub trait Model: 'static {
    type Of<'a>: Send + Sync + 'a;
    fn build(snapshot: &Snapshot) -> Self::Of<'_>;
}

/// A built model, its type erased (it may borrow from the snapshot, so it cannot be `Any`).
type Erased<'a> = Box<dyn Send + Sync + 'a>;

/// The models of one run, one cell per [`Model`] type, created on first ask.
#[derive(Default)]
pub(super) struct Models<'a> {
    cells: Mutex<HashMap<TypeId, Arc<OnceLock<Erased<'a>>>>>,
}

impl<'a> Models<'a> {
    fn get<M: Model>(&self, snapshot: &'a Snapshot) -> &M::Of<'a> {
        let cell = Arc::clone(
            self.cells
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .entry(TypeId::of::<M>())
                .or_default(),
        );
        let built: *const (dyn Send + Sync + 'a) =
            &**cell.get_or_init(|| Box::new(M::build(snapshot)));
        // SAFETY: the cell keyed by `TypeId::of::<M>()` is only ever filled just above, with
        // an `M::Of<'a>` (`'a` is the lifetime of these `Models`), so the pointer is to a
        // value of that type. The value lives as long as `self`: the map keeps its `Arc`
        // until `self` drops (cells are never removed or replaced), a set `OnceLock` is
        // never emptied, and the box does not move when the map grows.
        unsafe { &*(built as *const M::Of<'a>) }
    }
}

/// A rule's registry entry.
pub struct RuleMeta {
    pub id: &'static str,
    pub stage: Stage,
    pub severity: Severity,
    /// The rule's doc comment; its first line is the one-line summary.
    pub doc: &'static str,
    /// Fallback rules run after the others and skip explained objects.
    pub fallback: bool,
    /// Whether its findings about one object can be told from a read of that object's
    /// namespace (see [`reach`](super::reach)).
    pub reach: reach::Reach,
    pub run: fn(&Context) -> Vec<Finding>,
}

impl RuleMeta {
    pub fn summary(&self) -> &'static str {
        self.doc
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("")
    }
}

/// Declares a rule; its doc comment becomes `RuleMeta::doc`.
///
/// ```ignore
/// declare_rule! {
///     /// One-line summary.
///     pub static MY_RULE = { id: "area/name", stage: Stage::Node, severity: Severity::Error, fallback: false, reach: Reach::Local, run: run };
/// }
/// ```
#[macro_export]
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        pub static $name:ident = {
            id: $id:literal,
            stage: $stage:expr,
            severity: $sev:expr,
            fallback: $fallback:literal,
            reach: $reach:expr,
            run: $run:path $(,)?
        };
    ) => {
        $(#[doc = $doc])*
        pub static $name: $crate::rules::RuleMeta = $crate::rules::RuleMeta {
            id: $id,
            stage: $stage,
            severity: $sev,
            doc: concat!($($doc, "\n"),*),
            fallback: $fallback,
            reach: $reach,
            run: $run,
        };
    };
}

//! Rules: the registry, the finding model, and the parallel run.
//!
//! Each rule lives in its own file under `src/rules/<area>/`, declared with
//! [`declare_rule!`] so its doc comment is also what `kdiag rules` prints. Specific rules
//! run first, in parallel; fallback rules (the generic stage classifier) run after them
//! and skip every object a specific rule already explained (one primary finding per
//! stuck thing).

pub mod creation;
pub mod evidence;
pub mod kueue;
pub mod node;
pub mod numa;
pub mod platform;
pub mod pod;
pub mod pod_findings;
pub mod reach;
pub mod readiness;
pub mod runtime;
pub mod scheduling;
pub mod statefulset_ordinals;
pub mod superseded;
pub mod traffic;

use crate::kube::meta::ObjectRef;
use crate::snapshot::{ObjectId, Snapshot};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashSet;
use std::sync::OnceLock;

/// The pipeline stage where a stuck thing stopped (DESIGN.md), in pipeline order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    Platform,
    Queue,
    Creation,
    Scheduling,
    Node,
    Runtime,
    Readiness,
    Traffic,
}

impl Stage {
    pub const ALL: [Stage; 8] = [
        Stage::Platform,
        Stage::Queue,
        Stage::Creation,
        Stage::Scheduling,
        Stage::Node,
        Stage::Runtime,
        Stage::Readiness,
        Stage::Traffic,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Platform => "platform",
            Stage::Queue => "queue",
            Stage::Creation => "creation",
            Stage::Scheduling => "scheduling",
            Stage::Node => "node",
            Stage::Runtime => "runtime",
            Stage::Readiness => "readiness",
            Stage::Traffic => "traffic",
        }
    }
}

/// Errors sort first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One fact a finding rests on, pointing into the bundle.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Evidence {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<ObjectRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    pub note: String,
}

/// What a rule reports: the JSON contract's `findings[]` entry.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    pub fingerprint: String,
    pub rule: &'static str,
    pub severity: Severity,
    pub stage: Stage,
    pub object: ObjectRef,
    pub message: String,
    pub evidence: Vec<Evidence>,
    pub help: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
    /// Objects this finding explains; fallback rules leave them alone.
    #[serde(skip)]
    pub explains: Vec<ObjectId>,
    /// Where the cause may have a finding of its own (see [`link_causes`]).
    #[serde(skip)]
    pub causes: Vec<CauseHint>,
}

/// Where a finding's cause may be found: another finding on that object, or on an
/// object in that namespace (an operator's operands).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CauseHint {
    Object(ObjectRef),
    Namespace(String),
}

impl Finding {
    /// Builds a finding; the fingerprint is rule, object and a cause key that must not
    /// contain numbers that drift between runs or bundles.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        rule: &RuleMeta,
        severity: Severity,
        object: ObjectRef,
        cause: &str,
        message: String,
        evidence: Vec<Evidence>,
        help: String,
        explains: Vec<ObjectId>,
    ) -> Finding {
        let fingerprint = format!(
            "{}:{}:{}:{}:{}",
            rule.id,
            object.kind,
            object.namespace.as_deref().unwrap_or(""),
            object.name,
            cause
        );
        Finding {
            fingerprint,
            rule: rule.id,
            severity,
            stage: rule.stage,
            object,
            message,
            evidence,
            help,
            details: None,
            explains,
            causes: Vec::new(),
        }
    }

    /// The ordering key of DESIGN.md: stage, severity, namespace, kind, name, rule, message.
    fn sort_key(&self) -> impl Ord + '_ {
        (
            self.stage,
            self.severity,
            &self.object.namespace,
            &self.object.kind,
            &self.object.name,
            self.rule,
            &self.message,
        )
    }
}

/// What a rule sees.
pub struct Context<'a, 'e> {
    pub snapshot: &'a Snapshot,
    /// Objects already explained by a specific rule (filled for fallback rules only).
    pub explained: &'e HashSet<ObjectId>,
    shared: &'a Shared<'a>,
}

/// Models several rules of an area read, built once per run by the first rule that asks
/// (the others wait for it rather than build their own).
#[derive(Default)]
pub struct Shared<'a> {
    traffic: OnceLock<traffic::model::Model<'a>>,
    kueue_verdicts: OnceLock<Vec<(ObjectId, &'static str)>>,
    platform: OnceLock<platform::model::Platform<'a>>,
}

impl<'a> Context<'a, '_> {
    /// The Service / endpoint / Ingress model the traffic rules share.
    pub fn traffic(&self) -> &traffic::model::Model<'a> {
        self.shared
            .traffic
            .get_or_init(|| traffic::model::Model::new(self.snapshot))
    }

    /// Where an OpenShift update stands, for the platform rules.
    pub fn platform(&self) -> &platform::model::Platform<'a> {
        self.shared
            .platform
            .get_or_init(|| platform::model::Platform::new(self.snapshot))
    }

    /// The verdict word of every live Workload, for the Kueue rules.
    pub fn kueue_verdicts(&self) -> &[(ObjectId, &'static str)] {
        self.shared
            .kueue_verdicts
            .get_or_init(|| kueue::chain::verdicts(self.snapshot))
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
    /// namespace (see [`reach`]).
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

/// Every area's rules, in pipeline order; each area's `mod.rs` lists its own rules.
static AREAS: &[&[&RuleMeta]] = &[
    platform::RULES,
    kueue::RULES,
    creation::RULES,
    scheduling::RULES,
    node::RULES,
    numa::RULES,
    runtime::RULES,
    readiness::RULES,
    traffic::RULES,
    pod::RULES,
];

/// Areas whose rules know more about a pod than any other: they run first, and a later
/// finding that explains only pods they already explained is dropped (a Kueue-admitted
/// Workload's Pending pods are the Kueue rule's, a NUMA rejection is the NUMA rule's).
static FIRST: &[&[&RuleMeta]] = &[kueue::RULES, numa::RULES];

/// Every rule, in the order `kdiag rules` lists them.
pub fn registry() -> impl Iterator<Item = &'static RuleMeta> {
    AREAS.iter().flat_map(|area| area.iter().copied())
}

/// Runs every rule over the snapshot and returns the findings in the contract's order:
/// first the areas in [`FIRST`], then the other specific rules (dropping findings that
/// explain nothing new), then the fallback classifier, which skips explained objects.
pub fn run_all(snapshot: &Snapshot) -> Vec<Finding> {
    snapshot.prepare_views();
    let rules: Vec<&RuleMeta> = registry().collect();
    let is_first = |r: &RuleMeta| {
        FIRST
            .iter()
            .any(|area| area.iter().any(|f| std::ptr::eq(*f, r)))
    };
    let shared = Shared::default();
    let run = |selected: Vec<&RuleMeta>, explained: &HashSet<ObjectId>| -> Vec<Finding> {
        let ctx = Context {
            snapshot,
            explained,
            shared: &shared,
        };
        let stats = std::env::var_os("KDIAG_STATS").is_some();
        selected
            .par_iter()
            .flat_map_iter(|r| {
                let t = std::time::Instant::now();
                let cpu = || crate::process_stats::thread_cpu_seconds().unwrap_or(0.0);
                let c = if stats { cpu() } else { 0.0 };
                let found = (r.run)(&ctx);
                if stats {
                    // Thread CPU: the rule's own work when it does not fan out (and
                    // whatever work of other rules the thread picked up while it waited).
                    eprintln!(
                        "kdiag stats: rule {} {:.3}s (thread cpu {:.3}s, RSS then {} MiB)",
                        r.id,
                        t.elapsed().as_secs_f64(),
                        cpu() - c,
                        crate::process_stats::rss_mib().unwrap_or(0)
                    );
                }
                found
            })
            .collect()
    };
    let empty = HashSet::new();
    let mut findings = run(
        rules.iter().copied().filter(|r| is_first(r)).collect(),
        &empty,
    );
    let mut explained = explained_by(&findings);
    let mut later = run(
        rules
            .iter()
            .copied()
            .filter(|r| !r.fallback && !is_first(r))
            .collect(),
        &explained,
    );
    later.retain(|f| f.explains.is_empty() || f.explains.iter().any(|id| !explained.contains(id)));
    findings.extend(later);
    explained = explained_by(&findings);
    findings.extend(run(
        rules.iter().copied().filter(|r| r.fallback).collect(),
        &explained,
    ));
    sort(&mut findings);
    link_causes(&mut findings);
    findings
}

/// Links each finding's cause hints to the error and warning findings that match them:
/// `details.cause` lists their fingerprints, and one evidence line names each, so the
/// cause is shown once, in its own finding, and the platform finding points at it.
fn link_causes(findings: &mut [Finding]) {
    let links: Vec<(usize, Vec<usize>)> = findings
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.causes.is_empty())
        .map(|(i, f)| {
            let hits = findings
                .iter()
                .enumerate()
                .filter(|(j, g)| {
                    *j != i
                        && g.severity != Severity::Info
                        && f.causes.iter().any(|h| match h {
                            CauseHint::Object(o) => g.object == *o,
                            CauseHint::Namespace(ns) => g.object.namespace.as_deref() == Some(ns),
                        })
                })
                .map(|(j, _)| j)
                .collect();
            (i, hits)
        })
        .collect();
    for (i, hits) in links {
        if hits.is_empty() {
            continue;
        }
        let causes: Vec<serde_json::Value> = hits
            .iter()
            .map(|&j| {
                let g = &findings[j];
                serde_json::json!({"fingerprint": g.fingerprint, "rule": g.rule, "object": g.object})
            })
            .collect();
        let notes: Vec<Evidence> = hits
            .iter()
            .map(|&j| {
                let g = &findings[j];
                Evidence {
                    object: Some(g.object.clone()),
                    input: None,
                    file: None,
                    line: None,
                    note: format!(
                        "cause: the {} finding {} on {} (stage {})",
                        g.severity.as_str(),
                        g.rule,
                        g.object.display(),
                        g.stage.as_str()
                    ),
                }
            })
            .collect();
        let f = &mut findings[i];
        f.evidence.extend(notes);
        let details = f.details.get_or_insert_with(|| serde_json::json!({}));
        if let Some(map) = details.as_object_mut() {
            map.insert("cause".into(), serde_json::Value::Array(causes));
        }
    }
}

fn explained_by(findings: &[Finding]) -> HashSet<ObjectId> {
    findings
        .iter()
        .flat_map(|f| f.explains.iter().copied())
        .collect()
}

/// Sorts findings (and their evidence stays in the order the rule gave).
pub fn sort(findings: &mut [Finding]) {
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
}

pub fn find_rule(id: &str) -> Option<&'static RuleMeta> {
    registry().find(|r| r.id == id)
}

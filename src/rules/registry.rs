//! The roof of the rules: every area's rules in one table, and the run that applies them
//! to a snapshot — first the areas that know most, then the other specific rules, then
//! the fallback classifier — and links each finding to the findings of its cause.

use super::reach;
use super::rule::Models;
use super::{
    CauseHint, Context, Evidence, Finding, RuleMeta, Severity, common_cause, creation, kueue, node,
    numa, platform, pod, readiness, runtime, scheduling, traffic,
};
use crate::snapshot::{ObjectId, Snapshot};
use rayon::prelude::*;
use std::collections::HashSet;

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
pub fn all() -> impl Iterator<Item = &'static RuleMeta> {
    AREAS.iter().flat_map(|area| area.iter().copied())
}

/// Runs every rule over the snapshot and returns the findings in the contract's order:
/// first the areas in [`FIRST`], then the other specific rules (dropping findings that
/// explain nothing new), then the fallback classifier, which skips explained objects.
pub fn run_all(snapshot: &Snapshot) -> Vec<Finding> {
    snapshot.prepare_views();
    let rules: Vec<&RuleMeta> = all().collect();
    let is_first = |r: &RuleMeta| {
        FIRST
            .iter()
            .any(|area| area.iter().any(|f| std::ptr::eq(*f, r)))
    };
    let models = Models::default();
    let run = |selected: Vec<&RuleMeta>, explained: &HashSet<ObjectId>| -> Vec<Finding> {
        let ctx = Context {
            snapshot,
            explained,
            models: &models,
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
                    crate::err_line!(
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
    // After the links: a cause finding is made from its members as they are reported.
    if common_cause::gather(&mut findings) {
        sort(&mut findings);
    }
    findings
}

/// Links each finding's cause hints to the error and warning findings that match them:
/// `details.cause` lists their fingerprints, and one evidence line names each, so the
/// cause is shown once, in its own finding, and the platform finding points at it.
pub fn link_causes(findings: &mut [Finding]) {
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

/// The first rule whose findings about `target` a narrow read cannot tell, if any: the
/// caller reads everything then.
pub fn reaching(
    snapshot: &Snapshot,
    findings: &[Finding],
    target: ObjectId,
) -> Option<&'static str> {
    all().find_map(|r| match r.reach {
        reach::Reach::Local => None,
        reach::Reach::Wide(test) => {
            let inv = reach::Involve {
                snapshot,
                findings,
                target,
                rule: r.id,
            };
            test(&inv).then_some(r.id)
        }
    })
}

pub fn find(id: &str) -> Option<&'static RuleMeta> {
    all().find(|r| r.id == id)
}

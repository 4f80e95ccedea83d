//! The platform model the `platform` rules share: where an OpenShift update stands,
//! recomputed from ClusterVersion, ClusterOperators, MachineConfigPools, MachineConfigs
//! and Nodes the way `oc adm upgrade status` computes it (openshift/oc
//! `pkg/cli/admin/upgrade/status/`), so kdiag's words match what the support engineer's
//! own tool says, and then go further (drains, PDBs, nodes in the bundle).
//!
//! Durations are measured from the snapshot time, never the wall clock.

use super::estimate;
use crate::kube::meta::condition;
use crate::kube::node::Node;
use crate::kube::openshift::{
    ClusterOperator, ClusterVersion, MachineConfigPool, UpdateHistory, mcd,
};
use crate::kube::time::parse_timestamp;
use crate::snapshot::{ObjectId, Snapshot};
use std::collections::HashMap;

/// `oc`'s control-plane assessment words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assessment {
    Progressing,
    ProgressingSlow,
    Stalled,
    Completed,
}

impl Assessment {
    pub fn as_str(self) -> &'static str {
        match self {
            Assessment::Progressing => "Progressing",
            Assessment::ProgressingSlow => "Progressing - Slow",
            Assessment::Stalled => "Stalled",
            Assessment::Completed => "Completed",
        }
    }
}

/// Where a node stands in its pool's update (`oc`'s PHASE column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Draining,
    Updating,
    Rebooting,
    Paused,
    Pending,
    Updated,
}

pub struct NodeState<'a> {
    pub id: ObjectId,
    pub node: &'a Node,
    /// The release of the rendered config the node runs (from the MachineConfig).
    pub version: Option<&'a str>,
    pub phase: Phase,
    pub updated: bool,
    /// The daemon's state is `Degraded` or `Unreconcilable`.
    pub degraded: bool,
}

impl NodeState<'_> {
    pub fn name(&self) -> &str {
        &self.node.metadata.name
    }
    pub fn annotation(&self, key: &str) -> Option<&str> {
        self.node.metadata.annotation(key).filter(|v| !v.is_empty())
    }
}

pub struct Pool<'a> {
    pub id: ObjectId,
    pub pool: &'a MachineConfigPool,
    pub nodes: Vec<NodeState<'a>>,
    pub assessment: &'static str,
}

impl Pool<'_> {
    pub fn name(&self) -> &str {
        &self.pool.metadata.name
    }
    pub fn updated(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| n.phase == Phase::Updated)
            .count()
    }
    /// Whether every node reached the release: from the nodes' rendered configs when the
    /// bundle holds their MachineConfigs, else from the pool's own `Updated` condition.
    /// A pool rolling out a configuration of the same release (a MachineConfig change,
    /// not an update) says so in its own `Updated=False`, which wins.
    pub fn up_to_date(&self) -> Option<bool> {
        let own = condition(&self.pool.status.conditions, "Updated").map(|c| c.status == "True");
        if own == Some(false) {
            return own;
        }
        if self.nodes.iter().any(|n| n.version.is_some()) {
            return Some(self.updated() == self.nodes.len());
        }
        own
    }

    /// "pool worker is rolling out rendered-worker-79d8… (0 of 3 machines updated)", while
    /// the pool's own `Updating=True`.
    pub fn rolling_out(&self) -> Option<String> {
        condition(&self.pool.status.conditions, "Updating").filter(|c| c.status == "True")?;
        let s = &self.pool.status;
        let counts = match (s.updated_machine_count, s.machine_count) {
            (Some(u), Some(m)) => format!(" ({u} of {m} machines updated)"),
            _ => String::new(),
        };
        Some(format!(
            "pool {} is rolling out {}{counts}",
            self.name(),
            self.pool.spec.configuration.name
        ))
    }
    /// Nodes known to run another release than `target` (unknown releases do not count).
    pub fn outdated(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| n.version.is_some() && !n.updated)
            .count()
    }
    pub fn excluded(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| n.phase == Phase::Paused)
            .count()
    }
}

/// The control plane's side of an update: the operators.
#[derive(Default)]
pub struct Operators {
    pub total: usize,
    pub updated: usize,
    pub unavailable: usize,
    /// Available but degraded.
    pub degraded: usize,
    pub updating: Vec<String>,
}

pub struct Platform<'a> {
    pub cv: Option<(ObjectId, &'a ClusterVersion)>,
    pub operators: Vec<(ObjectId, &'a ClusterOperator)>,
    pub pools: Vec<Pool<'a>>,
    pub now: Option<i64>,
    /// Set when `now` is not the snapshot time (see [`platform_clock`]): says which it is.
    pub clock_note: Option<String>,
    /// `Progressing=True` on the ClusterVersion, or a worker pool not yet updated.
    pub updating: bool,
    pub counts: Operators,
    pub assessment: Assessment,
    /// The version being installed (`history[0]`), and the one before it.
    pub target: Option<&'a str>,
    pub previous: Option<&'a UpdateHistory>,
}

/// Where the update stands, shared by the platform rules ([`crate::rules::Context::model`]).
pub struct Update;

impl crate::rules::Model for Update {
    type Of<'a> = Platform<'a>;
    fn build(snapshot: &Snapshot) -> Platform<'_> {
        Platform::new(snapshot)
    }
}

impl<'a> Platform<'a> {
    pub fn new(snap: &'a Snapshot) -> Platform<'a> {
        let cv = snap
            .cluster_versions()
            .iter()
            .find(|(id, v)| {
                snap.object(*id).group() == "config.openshift.io" && v.metadata.name == "version"
            })
            .or_else(|| snap.cluster_versions().first())
            .map(|(id, v)| (*id, v));
        let operators: Vec<(ObjectId, &ClusterOperator)> = snap
            .cluster_operators()
            .iter()
            .filter(|(id, _)| snap.object(*id).group() == "config.openshift.io")
            .map(|(id, o)| (*id, o))
            .collect();
        let (now, clock_note) = platform_clock(snap, cv.map(|(_, v)| v), &operators);
        let history: &[UpdateHistory] = cv.map(|(_, v)| &v.status.history[..]).unwrap_or(&[]);
        let target = history.first().map(|h| h.version.as_str());
        let pools = pools(snap, target);
        let worker_outdated = pools
            .iter()
            .any(|p| p.name() != "master" && p.outdated() > 0);
        let progressing = cv
            .and_then(|(_, v)| condition(&v.status.conditions, "Progressing"))
            .is_some_and(|c| c.status == "True");
        let mco_image = mco_image(snap);
        let (counts, last_progress) = count_operators(&operators, target, mco_image);
        let assessment = assess(history, &counts, last_progress, now);
        Platform {
            cv,
            operators,
            pools,
            now,
            clock_note,
            updating: cv.is_some() && (progressing || worker_outdated),
            counts,
            assessment,
            target,
            previous: history.get(1),
        }
    }

    /// Whether the bundle is an OpenShift cluster's (it holds its ClusterVersion).
    pub fn is_openshift(&self) -> bool {
        self.cv.is_some()
    }

    /// Seconds from `time` to the snapshot; `None` without a snapshot time. A time after
    /// the snapshot (objects captured a little later) counts as zero.
    pub fn age(&self, time: Option<&str>) -> Option<i64> {
        let t = parse_timestamp(time?)?;
        Some((self.now? - t).max(0))
    }

    /// The version the cluster runs, or came from while it updates.
    pub fn current_version(&self) -> Option<&'a str> {
        if self.updating {
            self.previous.map(|h| h.version.as_str())
        } else {
            self.target
        }
    }

    /// The pool a node belongs to, and the node's state in it.
    pub fn node(&self, name: &str) -> Option<(&Pool<'a>, &NodeState<'a>)> {
        self.pools
            .iter()
            .find_map(|p| p.nodes.iter().find(|n| n.name() == name).map(|n| (p, n)))
    }

    /// One line for the report's head: "OpenShift 4.14.0-rc.3 → 4.14.1: Stalled, 97% of
    /// operators updated (32 of 33), 0 of 2 pools updated".
    pub fn summary(&self) -> Option<String> {
        let cv = self.cv?;
        let pools = self.pools.iter().filter(|p| !p.nodes.is_empty());
        let (n_pools, pools_done) = pools.fold((0, 0), |(n, d), p| {
            (n + 1, d + usize::from(p.up_to_date() == Some(true)))
        });
        let c = &self.counts;
        let health = if c.unavailable + c.degraded == 0 {
            format!("{} operators healthy", c.total)
        } else {
            let mut parts = vec![format!(
                "{} operators healthy",
                c.total - c.unavailable - c.degraded
            )];
            if c.unavailable > 0 {
                parts.push(format!("{} unavailable", c.unavailable));
            }
            if c.degraded > 0 {
                parts.push(format!("{} available but degraded", c.degraded));
            }
            parts.join(", ")
        };
        let version = self
            .target
            .or(cv.1.status.desired.version.as_deref())
            .unwrap_or("(version unknown)");
        if !self.updating {
            let mut line = format!(
                "OpenShift {version}: not updating; {health}; {pools_done} of {n_pools} pools up to date"
            );
            for r in self.pools.iter().filter_map(Pool::rolling_out) {
                line.push_str("; ");
                line.push_str(&r);
            }
            return Some(line);
        }
        let from = match self.previous {
            Some(p) if p.state == "Partial" => format!("incomplete {}", p.version),
            Some(p) => p.version.clone(),
            None => "a new install".to_string(),
        };
        let pct = if c.total > 0 {
            (c.updated as f64 * 100.0 / c.total as f64).round() as u64
        } else {
            0
        };
        Some(format!(
            "OpenShift {from} → {version}: {}, {pct}% of operators updated ({} of {}), {pools_done} of {n_pools} pools updated; {health}",
            self.assessment.as_str(),
            c.updated,
            c.total
        ))
    }
}

/// The time platform durations are measured from: the snapshot time, unless that is
/// only the newest object creation time (no bundle metadata, no event). Then the files
/// may have been taken apart (`oc get` one kind after another, or days apart), and the
/// newest condition transition of the ClusterVersion and ClusterOperators is the best
/// lower bound for when they were taken; it is what `oc adm upgrade status` itself
/// uses offline.
fn platform_clock(
    snap: &Snapshot,
    cv: Option<&ClusterVersion>,
    operators: &[(ObjectId, &ClusterOperator)],
) -> (Option<i64>, Option<String>) {
    let weak = snap
        .inputs
        .iter()
        .all(|i| i.as_of.is_none() || i.as_of_from_objects);
    let conditions = cv
        .map(|v| &v.status.conditions[..])
        .into_iter()
        .chain(operators.iter().map(|(_, o)| &o.status.conditions[..]));
    let own = conditions
        .flatten()
        .filter_map(|c| c.last_transition_time.as_deref().and_then(parse_timestamp))
        .max();
    match own {
        Some(t) if weak && cv.is_some() => (
            Some(t),
            Some(format!(
                "platform durations are measured from {}, the newest ClusterVersion or ClusterOperator condition change: the bundle records no capture time",
                crate::kube::time::format_rfc3339(t)
            )),
        ),
        _ => (snap.as_of, None),
    }
}

/// The machine-config operator's own image, from its Deployment when the bundle has it:
/// while it differs from the image the operator reports, the operator is still updating.
fn mco_image(snap: &Snapshot) -> Option<&str> {
    snap.deployments().iter().find_map(|(_, d)| {
        let (namespace, name) = super::MCO_DEPLOYMENT;
        (d.metadata.namespace.as_deref() == Some(namespace) && d.metadata.name == name)
            .then_some(())?;
        d.spec
            .template
            .spec
            .containers
            .iter()
            .find(|c| c.name == "machine-config-operator")
            .and_then(|c| c.image.as_deref())
    })
}

/// Counts the release payload's operators as `oc` does; also returns the newest
/// `Progressing` transition (the last sign of progress).
fn count_operators(
    operators: &[(ObjectId, &ClusterOperator)],
    target: Option<&str>,
    mco_image: Option<&str>,
) -> (Operators, Option<i64>) {
    let mut c = Operators::default();
    let mut last_progress: Option<i64> = None;
    let mut mco_started: Option<i64> = None;
    for (_, op) in operators.iter().filter(|(_, o)| o.is_platform()) {
        let name = op.metadata.name.as_str();
        let image_behind = name == "machine-config"
            && mco_image.is_some_and(|img| op.version("operator-image").is_some_and(|v| v != img));
        let updated = !image_behind && target.is_some() && op.version("operator") == target;
        c.total += 1;
        c.updated += usize::from(updated);
        let conds = &op.status.conditions;
        if let Some(p) = condition(conds, "Progressing") {
            let t = p.last_transition_time.as_deref().and_then(parse_timestamp);
            if t > last_progress {
                last_progress = t;
            }
            if !updated && p.status == "True" {
                c.updating.push(name.to_string());
                if name == "machine-config" {
                    mco_started = t;
                }
            }
        }
        let available = condition(conds, "Available").is_some_and(|a| a.status == "True");
        if !available {
            c.unavailable += 1;
        } else if condition(conds, "Degraded").is_some_and(|d| d.status == "True") {
            c.degraded += 1;
        }
    }
    // The machine-config operator updating last: its start is the last progress (daemon
    // set operators flip Progressing while nodes reboot).
    if mco_started.is_some() && c.total - c.updated == 1 {
        last_progress = mco_started;
    }
    (c, last_progress)
}

fn assess(
    history: &[UpdateHistory],
    c: &Operators,
    last_progress: Option<i64>,
    now: Option<i64>,
) -> Assessment {
    if c.total > 0 && c.updated == c.total {
        return Assessment::Completed;
    }
    let (Some(first), Some(now)) = (history.first(), now) else {
        return Assessment::Progressing;
    };
    let Some(started) = first.started_time.as_deref().and_then(parse_timestamp) else {
        return Assessment::Progressing;
    };
    let progress = match last_progress {
        Some(t) if t > started => t,
        _ => now,
    };
    let completion = c.updated as f64 / c.total.max(1) as f64;
    let remaining = estimate::time_to_complete(
        estimate::baseline(history),
        progress - started,
        now - started,
        completion,
    );
    if remaining < -600 {
        Assessment::Stalled
    } else if remaining < 0 {
        Assessment::ProgressingSlow
    } else {
        Assessment::Progressing
    }
}

/// Pools with their nodes: a node belongs to `master` if its selector matches, else to
/// the first custom pool that matches, else to `worker` (as the machine-config operator
/// and `oc` assign them).
fn pools<'a>(snap: &'a Snapshot, target: Option<&str>) -> Vec<Pool<'a>> {
    let configs: HashMap<&str, Option<&str>> = snap
        .machine_configs()
        .iter()
        .map(|(_, mc)| (mc.metadata.name.as_str(), mc.release_version()))
        .collect();
    let mcps: Vec<(ObjectId, &MachineConfigPool)> = snap
        .machine_config_pools()
        .iter()
        .filter(|(id, _)| snap.object(*id).group() == "machineconfiguration.openshift.io")
        .map(|(id, p)| (*id, p))
        .collect();
    let matches = |p: &MachineConfigPool, n: &Node| {
        p.spec
            .node_selector
            .as_ref()
            .is_some_and(|s| s.matches(&n.metadata.labels))
    };
    let mut members: HashMap<&str, Vec<(ObjectId, &Node)>> = HashMap::new();
    for (nid, node) in snap.nodes() {
        let by_name = |name: &str| mcps.iter().find(|(_, p)| p.metadata.name == name);
        let pool = by_name("master")
            .filter(|(_, p)| matches(p, node))
            .or_else(|| {
                mcps.iter().find(|(_, p)| {
                    !matches!(p.metadata.name.as_str(), "master" | "worker") && matches(p, node)
                })
            })
            .or_else(|| by_name("worker").filter(|(_, p)| matches(p, node)));
        if let Some((_, p)) = pool {
            members
                .entry(p.metadata.name.as_str())
                .or_default()
                .push((*nid, node));
        }
    }
    mcps.iter()
        .map(|&(id, pool)| {
            let nodes: Vec<NodeState> = members
                .remove(pool.metadata.name.as_str())
                .unwrap_or_default()
                .into_iter()
                .map(|(nid, node)| node_state(nid, node, pool, &configs, target))
                .collect();
            Pool {
                id,
                pool,
                assessment: pool_assessment(&nodes),
                nodes,
            }
        })
        .collect()
}

fn node_state<'a>(
    id: ObjectId,
    node: &'a Node,
    pool: &MachineConfigPool,
    configs: &HashMap<&str, Option<&'a str>>,
    target: Option<&str>,
) -> NodeState<'a> {
    let ann = |k: &str| node.metadata.annotation(k).filter(|v| !v.is_empty());
    let version_of = |cfg: Option<&str>| cfg.and_then(|c| configs.get(c).copied().flatten());
    let current = ann(mcd::CURRENT_CONFIG);
    let desired = ann(mcd::DESIRED_CONFIG);
    let version = version_of(current);
    let desired_version = version_of(desired);
    let state = ann(mcd::STATE);
    let updated = version.is_some() && version == target;
    let updating = !updated
        && version.is_some()
        && desired_version.is_some()
        && desired_version == target
        && current != desired
        && desired == Some(pool.spec.configuration.name.as_str());
    let degraded = desired.is_some() && matches!(state, Some(mcd::DEGRADED | mcd::UNRECONCILABLE));
    let phase = if updating && draining(node, state) {
        Phase::Draining
    } else if updating {
        match state {
            Some(mcd::REBOOTING) => Phase::Rebooting,
            Some(mcd::DONE) => Phase::Updated,
            _ => Phase::Updating,
        }
    } else if updated {
        Phase::Updated
    } else if pool.spec.paused {
        Phase::Paused
    } else {
        Phase::Pending
    };
    NodeState {
        id,
        node,
        version,
        phase,
        updated,
        degraded,
    }
}

/// The drain the daemon asked for (`desiredDrain: drain-…`) is not the one the
/// controller last applied; or the node should be updating and the daemon is still Done.
fn draining(node: &Node, state: Option<&str>) -> bool {
    let ann = |k: &str| node.metadata.annotation(k).filter(|v| !v.is_empty());
    let (Some(desired), Some(applied)) = (ann(mcd::DESIRED_DRAIN), ann(mcd::LAST_APPLIED_DRAIN))
    else {
        return false;
    };
    if desired != applied && desired.split('-').next() == Some("drain") {
        return true;
    }
    state == Some(mcd::DONE)
}

fn pool_assessment(nodes: &[NodeState]) -> &'static str {
    let count = |p: Phase| nodes.iter().filter(|n| n.phase == p).count();
    if count(Phase::Updated) == nodes.len() {
        "Completed"
    } else if count(Phase::Pending) == nodes.len() {
        "Pending"
    } else if nodes.iter().any(|n| n.degraded) {
        "Degraded"
    } else if count(Phase::Paused) > 0 {
        "Excluded"
    } else {
        "Progressing"
    }
}

/// The platform line of the report's inputs (`inputs[].platform` in JSON): which input
/// holds the ClusterVersion, and what the line says, with its numbers.
pub fn summary(snap: &Snapshot) -> Option<(usize, serde_json::Value)> {
    let p = Platform::new(snap);
    let (cv_id, cv) = p.cv?;
    let line = p.summary()?;
    let input = snap.files[snap.object(cv_id).sources[0].file].input;
    let pools: Vec<serde_json::Value> = p
        .pools
        .iter()
        .map(|pool| {
            serde_json::json!({
                "name": pool.name(),
                "assessment": pool.assessment,
                "nodes": pool.nodes.len(),
                "updated": pool.updated(),
                "paused": pool.pool.spec.paused,
            })
        })
        .collect();
    let value = serde_json::json!({
        "summary": line,
        "product": "OpenShift",
        "version": p.current_version().or(cv.status.desired.version.as_deref()),
        "target": if p.updating { p.target } else { None },
        "updating": p.updating,
        "assessment": if p.updating { Some(p.assessment.as_str()) } else { None },
        "operators": {
            "total": p.counts.total,
            "updated": p.counts.updated,
            "unavailable": p.counts.unavailable,
            "degraded": p.counts.degraded,
            "updating": p.counts.updating,
        },
        "pools": pools,
        "clock": p.clock_note,
    });
    Some((input, value))
}

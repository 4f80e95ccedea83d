//! What the server answers from, built once at start: the snapshot, the findings as
//! objects and events, the resources it serves, the page, and what a client must show to
//! be let in.

use super::findings::{self, Added};
use super::resources::{Origin, Resource, Resources};
use crate::report::redact::Redactor;
use crate::rules::Finding;
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::{Value, json};

pub struct State {
    pub snap: Snapshot,
    pub findings: usize,
    /// The findings themselves, for kdiag's pages (`ui/`).
    pub found: Vec<Finding>,
    pub added: Added,
    pub resources: Resources,
    /// Every list's and watch's `resourceVersion`: the snapshot's newest.
    pub resource_version: String,
    /// `/version`'s body.
    pub version: Value,
    /// kdiag's page for a browser on `/`.
    pub page: String,
    /// With `--redact`: every value served is masked.
    pub redactor: Option<Redactor>,
    /// Off loopback: the bearer token a client must send.
    pub token: Option<String>,
    /// The address clients reach the server at (`host:port`).
    pub address: String,
}

/// One object of a list: the snapshot's, or one the server adds (a finding, an event).
#[derive(Clone, Copy)]
pub enum Item<'a> {
    Stored(ObjectId),
    Added(&'a Value),
}

impl State {
    pub fn new(
        snap: Snapshot,
        found: Vec<Finding>,
        redactor: Option<Redactor>,
        page: String,
    ) -> State {
        let added = findings::build(&snap, &found);
        let resources = Resources::build(&snap);
        let resource_version = snap
            .objects
            .iter()
            .filter_map(|o| o.resource_version()?.parse::<u64>().ok())
            .max()
            .unwrap_or(1)
            .to_string();
        let version = version_of(&snap);
        State {
            findings: found.len(),
            found,
            snap,
            added,
            resources,
            resource_version,
            version,
            page,
            redactor,
            token: None,
            address: String::new(),
        }
    }

    /// The objects of `r` in `namespace` (every namespace when `None`), stored first,
    /// each part sorted by namespace and name.
    pub fn items<'a>(&'a self, r: &Resource, namespace: Option<&str>) -> Vec<Item<'a>> {
        let in_ns = |ns: Option<&str>| namespace.is_none() || ns == namespace;
        let added_in = |list: &'a [Value]| -> Vec<Item<'a>> {
            list.iter()
                .filter(|v| in_ns(v.pointer("/metadata/namespace").and_then(Value::as_str)))
                .map(Item::Added)
                .collect()
        };
        match r.origin {
            Origin::Findings => added_in(&self.added.findings),
            Origin::Review => Vec::new(),
            Origin::Stored => {
                let mut out: Vec<Item> = self
                    .snap
                    .ids_of_group(&r.group, &r.kind)
                    .iter()
                    .filter(|&&id| in_ns(self.snap.object(id).namespace.as_deref()))
                    .map(|&id| Item::Stored(id))
                    .collect();
                if r.group.is_empty() && r.kind == "Event" {
                    out.extend(added_in(&self.added.events));
                }
                out
            }
        }
    }

    pub fn value<'a>(&'a self, item: Item<'a>) -> &'a Value {
        match item {
            Item::Stored(id) => self.snap.object(id).value(),
            Item::Added(v) => v,
        }
    }

    /// The object as served: `get -o json`'s form, masked with `--redact`.
    pub fn object_json(&self, item: Item) -> Value {
        let v = match item {
            Item::Stored(id) => crate::explorer::served::object_json(&self.snap, id),
            Item::Added(v) => v.clone(),
        };
        self.mask_value(v)
    }

    /// Every string of `v` masked with `--redact` ([`Redactor::mask_value`], as every
    /// output masks); `v` itself without.
    pub fn mask_value(&self, v: Value) -> Value {
        match &self.redactor {
            Some(r) => r.mask_value(&v),
            None => v,
        }
    }

    /// `text` masked with `--redact`.
    pub fn mask(&self, text: String) -> String {
        match &self.redactor {
            Some(r) => r.apply(&text),
            None => text,
        }
    }
}

/// `/version`: the bundle's Kubernetes version (the cluster's, else the newest kubelet's),
/// split as the API server splits it.
fn version_of(snap: &Snapshot) -> Value {
    let is_kube = |v: &str| v.starts_with('v') && v[1..].split('.').count() >= 3;
    let from_inputs = snap
        .inputs
        .iter()
        .filter_map(|i| i.cluster_version.clone())
        .find(|v| is_kube(v));
    let from_nodes = || {
        snap.ids_of_group("", "Node")
            .iter()
            .filter_map(|&id| {
                snap.object(id)
                    .value()
                    .pointer("/status/nodeInfo/kubeletVersion")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .max()
    };
    let git = from_inputs
        .or_else(from_nodes)
        .unwrap_or_else(|| "v0.0.0-unknown".into());
    let mut parts = git.trim_start_matches('v').split('.');
    let major = parts.next().unwrap_or("0").to_string();
    let minor: String = parts
        .next()
        .unwrap_or("0")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    json!({
        "major": major,
        "minor": minor,
        "gitVersion": git,
        "gitCommit": "",
        "gitTreeState": "",
        "buildDate": "",
        "goVersion": "",
        "compiler": "kdiag",
        "platform": "linux/amd64",
    })
}

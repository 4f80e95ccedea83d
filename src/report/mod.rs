//! Renderers: they see findings, problems, input summaries and source text, nothing else.
//! human (miette), json (the v1 contract), sarif, html; baseline comparison and redaction
//! apply to every format.

pub mod baseline;
pub mod fold;
pub mod html;
pub mod human;
pub mod json;
pub mod quote;
pub mod redact;
pub mod sarif;
pub mod verdict;

use crate::ingest::Problem;
use crate::kube::time::format_rfc3339;
use crate::rules::Finding;
use crate::snapshot::Snapshot;
use redact::Redactor;
use serde::Serialize;
use std::borrow::Cow;

/// `inputs[]` of the JSON contract.
#[derive(Debug, Serialize)]
pub struct InputSummary {
    pub path: String,
    pub layout: &'static str,
    /// Where the layout starts inside the input (`must-gather.local.1/quay-io-…/`): the
    /// reports a person reads cite files from there (see [`Analysis::shown_path`]).
    #[serde(skip)]
    pub root: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub as_of: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_version: Option<String>,
    pub files: usize,
    pub skipped: usize,
    pub objects: usize,
    pub problems: usize,
    pub logs: usize,
    /// The OpenShift platform line and its numbers (the input holding the
    /// ClusterVersion); see `rules::platform::model::summary`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub platform: Option<serde_json::Value>,
    pub notes: Vec<String>,
}

impl InputSummary {
    /// "OpenShift 4.14.0-rc.3 → 4.14.1: Stalled, …", when the input is OpenShift's.
    pub fn platform_line(&self) -> Option<&str> {
        self.platform.as_ref()?.get("summary")?.as_str()
    }
}

/// Everything a renderer needs for one run.
pub struct Analysis<'a> {
    pub snapshot: &'a Snapshot,
    pub inputs: Vec<InputSummary>,
    pub findings: Vec<Finding>,
    pub problems: Vec<Problem>,
    /// With `--redact`: what [`Analysis::mask`] masks with.
    pub redactor: Option<&'a Redactor>,
    /// How many pods, nodes and operators the rules looked at, counted while their views
    /// exist (a server lets the views go before it renders its page).
    pub looked: Looked,
}

/// The kinds a report says it looked at ("239 pods, 6 nodes, 31 operators").
#[derive(Clone, Copy, Debug, Default)]
pub struct Looked {
    pub pods: usize,
    pub nodes: usize,
    pub operators: usize,
}

impl Looked {
    /// Counted from the snapshot's views (which it builds if they are not there).
    pub fn of(snap: &Snapshot) -> Looked {
        Looked {
            pods: snap.pods().len(),
            nodes: snap.nodes().len(),
            operators: snap.cluster_operators().len(),
        }
    }
}

impl<'a> Analysis<'a> {
    /// Where a problem is, as the reports a person reads say it: its input's path, and
    /// its file from the layout's root with the line (`pods.yaml:12`).
    pub fn problem_place(&self, p: &Problem) -> (&str, String) {
        let input = self
            .inputs
            .get(p.input)
            .map(|i| i.path.as_str())
            .unwrap_or("?");
        let line = p.line.map(|l| format!(":{l}")).unwrap_or_default();
        let file = self.shown_path(p.input, p.file.as_deref().unwrap_or(""));
        (input, format!("{file}{line}"))
    }

    /// `file` of input `input` as the human report and HTML cite it: from the layout's
    /// root, without the folders a collector wraps it in (`must-gather.local.*/` and the
    /// image digest's folder). JSON and SARIF keep the whole path.
    pub fn shown_path<'f>(&self, input: usize, file: &'f str) -> &'f str {
        match self.inputs.get(input) {
            Some(i) if !i.root.is_empty() => file
                .strip_prefix(i.root.as_str())
                .filter(|rest| !rest.is_empty())
                .unwrap_or(file),
            _ => file,
        }
    }

    /// `text` (a message or a note naming bundle files) with the inputs' layout roots
    /// left out where a path starts with one, as [`Analysis::shown_path`] cites files.
    pub fn shown_text<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let mut out = Cow::Borrowed(text);
        for root in self.inputs.iter().map(|i| i.root.as_str()) {
            if root.is_empty() || !out.contains(root) {
                continue;
            }
            let mut kept = String::with_capacity(out.len());
            let mut rest: &str = &out;
            while let Some(at) = rest.find(root) {
                // Only where a path starts: at the start, or after a blank, quote or bracket.
                let starts = rest[..at]
                    .chars()
                    .next_back()
                    .is_none_or(|c| c.is_whitespace() || "\"'([{=,:".contains(c));
                kept.push_str(&rest[..at]);
                if !starts {
                    kept.push_str(root);
                }
                rest = &rest[at + root.len()..];
            }
            kept.push_str(rest);
            out = Cow::Owned(kept);
        }
        out
    }

    pub fn new(snapshot: &'a Snapshot, findings: Vec<Finding>) -> Self {
        let problems = snapshot.problems();
        let objects = snapshot.objects_per_input();
        let platform = crate::rules::platform::model::summary(snapshot);
        let inputs = snapshot
            .inputs
            .iter()
            .enumerate()
            .map(|(i, info)| InputSummary {
                path: info.path.clone(),
                layout: info.layout.as_str(),
                root: info.root.clone(),
                as_of: info.as_of.map(format_rfc3339),
                cluster_version: info.cluster_version.clone(),
                files: info.files,
                skipped: info.skipped,
                objects: objects.get(i).copied().unwrap_or(0),
                problems: problems.iter().filter(|p| p.input == i).count(),
                logs: snapshot.logs.count_for_input(i),
                platform: platform
                    .as_ref()
                    .filter(|(input, _)| *input == i)
                    .map(|(_, v)| v.clone()),
                notes: info.notes.clone(),
            })
            .collect();
        Analysis {
            snapshot,
            inputs,
            findings,
            problems,
            redactor: None,
            looked: Looked::of(snapshot),
        }
    }

    /// For `--redact`: inputs are named `INPUT-1`, `INPUT-2`… (a local path names people
    /// and customers), and the tokens of every string the findings, problems and inputs
    /// hold are handed out in their order, so that every output of the run (each masks
    /// its own pieces) gives a value the same token.
    pub fn redact(&mut self, redactor: &'a Redactor) {
        for (i, input) in self.inputs.iter_mut().enumerate() {
            input.path = format!("INPUT-{}", i + 1);
        }
        for f in &self.findings {
            redactor.learn(&serde_json::to_value(f).unwrap_or_default());
        }
        for p in &self.problems {
            redactor.learn(&serde_json::to_value(p).unwrap_or_default());
        }
        for i in &self.inputs {
            redactor.learn(&serde_json::to_value(i).unwrap_or_default());
        }
        self.redactor = Some(redactor);
    }

    /// Every string of `v` masked as [`Analysis::mask`] masks text (see
    /// [`Redactor::mask_value`]): what a machine output masks before it serializes.
    pub fn mask_value<'v>(&self, v: &'v serde_json::Value) -> Cow<'v, serde_json::Value> {
        match self.redactor {
            Some(r) => Cow::Owned(r.mask_value(v)),
            None => Cow::Borrowed(v),
        }
    }

    /// `doc` serialized as pretty JSON with a final newline, every string masked first
    /// with `--redact`: how the JSON, baseline and SARIF outputs write their document.
    pub fn to_json<T: Serialize>(&self, doc: &T) -> String {
        // Unmasked, the document keeps its fields' order; masked, it goes through a `Value`
        // (whose maps sort their keys) so each string is masked before it is written.
        let mut s = match self.redactor {
            None => serde_json::to_string_pretty(doc),
            Some(_) => {
                let v = serde_json::to_value(doc).expect("report serializes");
                serde_json::to_string_pretty(&self.mask_value(&v))
            }
        }
        .expect("report serializes");
        s.push('\n');
        s
    }

    /// `text` as the report may show it: masked with `--redact`. Renderers mask before
    /// they wrap, cut or window text, since a host cut in two is no longer recognised.
    pub fn mask<'t>(&self, text: &'t str) -> Cow<'t, str> {
        match self.redactor {
            Some(r) => Cow::Owned(r.apply(text)),
            None => Cow::Borrowed(text),
        }
    }
}

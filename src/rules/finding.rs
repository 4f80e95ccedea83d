//! What a rule reports: a finding, the facts it rests on, its stage and severity — the
//! JSON contract's `findings[]` entry. Knows nothing of the rules that make findings, nor
//! of the command line.

use super::RuleMeta;
use super::common_cause::SharedCause;
use crate::kube::meta::ObjectRef;
use crate::snapshot::ObjectId;
use serde::Serialize;
use std::sync::Arc;

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
    /// Where the cause may have a finding of its own (see [`super::registry`]).
    #[serde(skip)]
    pub causes: Vec<CauseHint>,
    /// A cause other findings may share (see [`super::common_cause`]).
    #[serde(skip)]
    pub shared: Option<Arc<SharedCause>>,
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
            shared: None,
        }
    }

    /// The ordering key of DESIGN.md: stage, severity, namespace, kind, name, rule, message.
    pub(super) fn sort_key(&self) -> impl Ord + '_ {
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

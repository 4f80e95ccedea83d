//! What Kueue itself wrote about a Workload (its QuotaReserved or Admitted condition)
//! and the coarse class of those words, to compare with the chain's own verdict. Kept
//! apart from the walk: it reads only Kueue's message wordings (and is fuzzed alone).

use super::Verdict;
use crate::kube::kueue::Workload;
use crate::kube::meta::Condition;

impl Verdict {
    /// Coarse class, to compare with what Kueue's own message says.
    pub(super) fn class(&self) -> Class {
        match self {
            Verdict::LocalQueueMissing { .. }
            | Verdict::LocalQueueStopped { .. }
            | Verdict::LocalQueueInactive
            | Verdict::ClusterQueueMissing { .. }
            | Verdict::ClusterQueueStopped { .. }
            | Verdict::ClusterQueueInactive { .. }
            | Verdict::NoQueueName => Class::QueueLink,
            Verdict::NamespaceNotSelected { .. } => Class::Namespace,
            Verdict::Uncovered { .. } | Verdict::NoMatchingFlavor { .. } => Class::NoFlavor,
            Verdict::Never { .. } => Class::Never,
            Verdict::Later { .. } => Class::Later,
            Verdict::AdmissionChecks { .. } => Class::Checks,
            Verdict::StrictFifo { .. } | Verdict::FitsNow => Class::Fits,
            Verdict::KueueCause { class, .. } => *class,
            _ => Class::Other,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    QueueLink,
    Namespace,
    NoFlavor,
    Never,
    Later,
    Checks,
    /// Topology-aware scheduling found no domain for the podset.
    Topology,
    Fits,
    Other,
}

impl Class {
    pub(super) fn words(self) -> &'static str {
        match self {
            Class::QueueLink => "a missing, stopped or inactive queue",
            Class::Namespace => "a namespace the ClusterQueue does not select",
            Class::NoFlavor => "no matching flavor",
            Class::Never => "a request above the maximum capacity (it can never fit)",
            Class::Later => "not enough unused quota now (it fits later)",
            Class::Checks => "admission checks",
            Class::Topology => "no topology domain that can hold the podset",
            Class::Fits => "nothing: the Workload fits",
            Class::Other => "something else",
        }
    }
}

/// What Kueue itself wrote about the Workload.
#[derive(Clone, Debug)]
pub struct KueueSays {
    pub condition: &'static str,
    pub reason: String,
    pub message: String,
    pub(super) class: Class,
}

/// Classifies Kueue's words (both reason vocabularies, every message wording of §1.5).
pub fn classify(reason: &str, message: &str) -> Class {
    let m = message;
    let queue_words = [
        "doesn't exist",
        "is inactive",
        "is stopped",
        "terminating or missing",
        "not found",
    ];
    if (m.starts_with("LocalQueue ") || m.starts_with("ClusterQueue "))
        && queue_words.iter().any(|w| m.contains(w))
    {
        return Class::QueueLink;
    }
    if m.contains("doesn't match ClusterQueue selector") || m.contains("invalid namespace selector")
    {
        return Class::Namespace;
    }
    if m.contains("failed admission checks") {
        return Class::Checks;
    }
    if m.contains("insufficient unused quota") || m.contains("Pending the preemption") {
        return Class::Later;
    }
    if m.contains("insufficient quota for") || m.contains("maximum capacity") {
        return Class::Never;
    }
    if m.contains("untolerated taint")
        || m.contains("match node affinity")
        || m.contains("match with node affinity")
        || m.contains("unavailable in ClusterQueue")
        || (m.contains("flavor ") && m.contains(" not found"))
    {
        return Class::NoFlavor;
    }
    // TAS (pkg/cache/tas_flavor_snapshot.go): "no topology domains at level: %s",
    // "topology %q allows to fit only %d out of %d pod(s)", in a flavor assignment.
    if m.contains("no topology domains at level")
        || (m.contains("couldn't assign flavors") && m.contains("topology \""))
        || reason == "TopologyPlacementFailed"
    {
        return Class::Topology;
    }
    match reason {
        "ExceedsMaxQuota" => Class::Never,
        "WaitingForQuota" | "WaitingForPreemptedWorkloads" => Class::Later,
        "NoMatchingFlavor" => Class::NoFlavor,
        "UnsatisfiedAdmissionChecks" | "UnsatisfiedChecks" => Class::Checks,
        _ => Class::Other,
    }
}

pub(super) fn kueue_says(wl: &Workload) -> Option<KueueSays> {
    let pick = |type_: &'static str| -> Option<KueueSays> {
        let cond: &Condition = wl.condition(type_).filter(|c| c.status == "False")?;
        let reason = cond.reason.as_deref().unwrap_or_default().to_string();
        let message = cond.message.as_deref().unwrap_or_default().to_string();
        if reason.is_empty() && message.is_empty() {
            return None;
        }
        Some(KueueSays {
            condition: type_,
            class: classify(&reason, &message),
            reason,
            message,
        })
    };
    if wl.has_quota_reserved() {
        pick("Admitted")
    } else {
        pick("QuotaReserved").or_else(|| pick("Admitted"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_every_wording() {
        let c = |r: &str, m: &str| classify(r, m);
        assert_eq!(
            c(
                "Pending",
                "couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default-flavor in ClusterQueue"
            ),
            Class::Never
        );
        assert_eq!(
            c(
                "Pending",
                "couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default, request > maximum capacity (3 > 2)"
            ),
            Class::Never
        );
        assert_eq!(
            c(
                "ExceedsMaxQuota",
                "insufficient quota for cpu in flavor one, previously considered podsets requests (0) + current podset request (5) > maximum capacity (4)"
            ),
            Class::Never
        );
        assert_eq!(
            c(
                "Pending",
                "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default-flavor, 9 more needed"
            ),
            Class::Later
        );
        assert_eq!(
            c(
                "Pending",
                "insufficient unused quota in cohort for cpu in flavor default, 1 more needed"
            ),
            Class::Later
        );
        assert_eq!(
            c("Inadmissible", "LocalQueue user-queue doesn't exist"),
            Class::QueueLink
        );
        assert_eq!(
            c("Suspended", "ClusterQueue cq is inactive"),
            Class::QueueLink
        );
        assert_eq!(
            c(
                "Misconfigured",
                "workload namespace doesn't match ClusterQueue selector"
            ),
            Class::Namespace
        );
        assert_eq!(
            c(
                "NoMatchingFlavor",
                "couldn't assign flavors to pod set main: untolerated taint {spot true NoSchedule <nil>} in flavor spot"
            ),
            Class::NoFlavor
        );
        assert_eq!(
            c(
                "Pending",
                "couldn't assign flavors to pod set main: flavor spot doesn't match with node affinity"
            ),
            Class::NoFlavor
        );
        assert_eq!(
            c(
                "WaitingForQuota",
                "Workload no longer fits after processing another workload"
            ),
            Class::Later
        );
        assert_eq!(
            c(
                "PendingEvaluation",
                "The workload has failed admission checks"
            ),
            Class::Checks
        );
        assert_eq!(
            c(
                "PendingEvaluation",
                "Workload is pending evaluation in the scheduling queue"
            ),
            Class::Other
        );
        assert_eq!(
            c(
                "Pending",
                "couldn't assign flavors to pod set main: no topology domains at level: cloud.provider.com/topology-rack"
            ),
            Class::Topology
        );
    }
}

//! A kind is its API group plus its kind (DESIGN.md "Identity and duplicates"): a
//! `longhorn.io` `Node` is not a core Node. Rules and users name the kinds kdiag knows
//! without a group; this is the group such a name means.

use crate::kube::kinds::{self, KindInfo};

/// The group a kind named without one means, for the kinds kdiag knows by name ("" is
/// core; see [`crate::kube::kinds`]).
pub fn default_group(kind: &str) -> Option<&'static str> {
    kinds::by_kind(kind)
        .filter(|k| k.by_name())
        .map(KindInfo::group)
}

/// The group an object of `kind` at `api_version` is stored under: the group of its
/// apiVersion, where one kind served by two groups is one (`events.k8s.io` Events are
/// Events; `extensions` Deployments of old dumps are `apps` ones). Without an
/// apiVersion (a hand-written dump), the group the kind means.
pub fn canonical_group<'a>(api_version: &'a str, kind: &str) -> &'a str {
    let group = match api_version.rsplit_once('/') {
        Some((g, _)) => g,
        None if api_version.is_empty() => return default_group(kind).unwrap_or(""),
        None => "",
    };
    match (group, kind) {
        ("events.k8s.io", "Event") => "",
        ("extensions", "Deployment" | "ReplicaSet" | "DaemonSet") => "apps",
        ("extensions", "Ingress" | "NetworkPolicy") => "networking.k8s.io",
        ("extensions", "PodSecurityPolicy") => "policy",
        _ => group,
    }
}

/// An all-zero uid (hand-made must-gathers write one on every object) is no uid.
pub fn is_real_uid(uid: &str) -> bool {
    uid.bytes().any(|b| b != b'0' && b != b'-')
}

/// Whether a selective read reads every object of `kind` (a cluster-scoped kind kdiag
/// knows: no namespace column, `-n` ignored; see `ingest::want`), so its "none" stands.
pub fn read_whole(kind: &str) -> bool {
    kinds::by_kind(kind).is_some_and(|k| k.read_whole)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups() {
        assert_eq!(canonical_group("v1", "Node"), "");
        assert_eq!(
            canonical_group("longhorn.io/v1beta1", "Node"),
            "longhorn.io"
        );
        assert_eq!(canonical_group("events.k8s.io/v1", "Event"), "");
        assert_eq!(canonical_group("extensions/v1beta1", "Deployment"), "apps");
        assert_eq!(canonical_group("", "Job"), "batch");
        assert_eq!(canonical_group("", "Frobnicator"), "");
        assert!(!is_real_uid("00000000-0000-0000-0000-000000000000"));
        assert!(!is_real_uid(""));
        assert!(is_real_uid("0a000000-0000-0000-0000-000000000000"));
    }
}

//! Field selectors (`kdiag get --field-selector`), as the API server reads them:
//! `field=value`, `field==value`, `field!=value`, comma-separated, over the fields
//! kubectl's server offers for each kind (`metadata.name` and `metadata.namespace` for
//! every kind; `spec.nodeName`, `status.phase` … for pods; `involvedObject.name`,
//! `reason`, `type` … for events). A missing field is the empty string, so
//! `spec.nodeName=` selects the pods not yet scheduled.

use serde_json::Value;

/// One requirement: the field, the value, and whether it must differ.
pub(super) struct FieldReq {
    field: String,
    value: String,
    negated: bool,
}

/// The fields every kind offers.
const COMMON: &[(&str, &str)] = &[
    ("metadata.name", "/metadata/name"),
    ("metadata.namespace", "/metadata/namespace"),
];

/// The fields the API server offers beyond [`COMMON`], by kind, with where they are.
const BY_KIND: &[(&str, &[(&str, &str)])] = &[
    (
        "Pod",
        &[
            ("spec.nodeName", "/spec/nodeName"),
            ("spec.restartPolicy", "/spec/restartPolicy"),
            ("spec.schedulerName", "/spec/schedulerName"),
            ("spec.serviceAccountName", "/spec/serviceAccountName"),
            ("spec.hostNetwork", "/spec/hostNetwork"),
            ("status.phase", "/status/phase"),
            ("status.podIP", "/status/podIP"),
            ("status.nominatedNodeName", "/status/nominatedNodeName"),
        ],
    ),
    (
        "Event",
        &[
            ("involvedObject.kind", "/involvedObject/kind"),
            ("involvedObject.namespace", "/involvedObject/namespace"),
            ("involvedObject.name", "/involvedObject/name"),
            ("involvedObject.uid", "/involvedObject/uid"),
            ("involvedObject.apiVersion", "/involvedObject/apiVersion"),
            ("involvedObject.fieldPath", "/involvedObject/fieldPath"),
            ("reason", "/reason"),
            ("reportingComponent", "/reportingComponent"),
            ("source", "/source/component"),
            ("type", "/type"),
        ],
    ),
    ("Namespace", &[("status.phase", "/status/phase")]),
    ("Node", &[("spec.unschedulable", "/spec/unschedulable")]),
    ("Secret", &[("type", "/type")]),
];

pub(super) fn parse_field_selector(s: &str) -> Result<Vec<FieldReq>, String> {
    s.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (field, value, negated) = if let Some((f, v)) = p.split_once("!=") {
                (f, v, true)
            } else if let Some((f, v)) = p.split_once("==").or_else(|| p.split_once('=')) {
                (f, v, false)
            } else {
                return Err(format!(
                    "cannot read field selector {p:?} (use field=value or field!=value, comma-separated)"
                ));
            };
            Ok(FieldReq {
                field: field.trim().to_string(),
                value: value.trim().to_string(),
                negated,
            })
        })
        .collect()
}

/// Where each field of `reqs` is in objects of `kind` (a core kind kdiag knows, else
/// `""`), or the error kubectl's server gives for a field the kind does not offer.
pub(super) fn check_fields(reqs: &[FieldReq], kind: &str, shown: &str) -> Result<(), String> {
    for r in reqs {
        if pointer(&r.field, kind).is_none() {
            let offered: Vec<&str> = fields_of(kind).map(|(f, _)| f).collect();
            return Err(format!(
                "field label not supported: {} (the fields of {shown}: {})",
                r.field,
                offered.join(", ")
            ));
        }
    }
    Ok(())
}

fn fields_of(kind: &str) -> impl Iterator<Item = (&'static str, &'static str)> {
    let own = BY_KIND
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, f)| *f)
        .unwrap_or(&[]);
    COMMON.iter().chain(own).copied()
}

fn pointer(field: &str, kind: &str) -> Option<&'static str> {
    fields_of(kind).find(|(f, _)| *f == field).map(|(_, p)| p)
}

/// Whether an object of `kind` matches every requirement (checked by [`check_fields`]).
pub(super) fn matches_fields(reqs: &[FieldReq], kind: &str, v: &Value) -> bool {
    reqs.iter().all(|r| {
        let found = pointer(&r.field, kind).and_then(|p| v.pointer(p));
        let text = match found {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        };
        (text == r.value) != r.negated
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pods_by_phase_node_and_name() {
        let pod = json!({"metadata": {"name": "web-1", "namespace": "shop"},
                         "spec": {"nodeName": "node-a"}, "status": {"phase": "Running"}});
        let m = |s: &str| matches_fields(&parse_field_selector(s).unwrap(), "Pod", &pod);
        assert!(m("status.phase=Running,spec.nodeName==node-a"));
        assert!(m("status.phase!=Pending"));
        assert!(!m("metadata.name=web-2"));
        assert!(m("metadata.namespace=shop"));
        let pending = json!({"metadata": {"name": "p"}, "spec": {}});
        let reqs = parse_field_selector("spec.nodeName=").unwrap();
        assert!(matches_fields(&reqs, "Pod", &pending));
    }

    #[test]
    fn unsupported_fields_are_named() {
        let reqs = parse_field_selector("spec.nodeName=a").unwrap();
        let err = check_fields(&reqs, "Service", "Service").unwrap_err();
        assert!(
            err.contains("field label not supported: spec.nodeName"),
            "{err}"
        );
        assert!(check_fields(&reqs, "Pod", "Pod").is_ok());
        assert!(parse_field_selector("status.phase").is_err());
    }
}

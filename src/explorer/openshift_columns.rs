//! The printer columns of OpenShift's platform kinds, for bundles that do not carry their
//! CustomResourceDefinitions (must-gathers often do not; `oc get -o yaml` dumps never
//! do). Each entry is the CRD's `additionalPrinterColumns` as upstream ships them (its
//! `spec.names` and scope are the kind's row in [`kinds::KINDS`]), evaluated by the same
//! code as a CRD found in the bundle (which wins over these). Taken from openshift/api at
//! 2a3d73913b5a (2026-08-22).

use super::printer_columns::{Column, CrdNames};
use crate::kube::kinds;

/// A platform kind and its printer columns (`name`, `type`, `jsonPath`, `priority`).
pub(super) struct BuiltinCrd {
    /// A kind of [`kinds::KINDS`].
    kind: &'static str,
    columns: &'static [(&'static str, &'static str, &'static str, i64)],
}

impl BuiltinCrd {
    pub fn names(&self) -> CrdNames<'static> {
        let k = kinds::by_kind(self.kind).expect("the OpenShift kinds are in the table");
        CrdNames {
            group: k.group(),
            kind: k.kind,
            plural: k.plural,
            singular: k.singular,
            short: k.short_names.to_vec(),
            cluster_scoped: !k.namespaced,
        }
    }

    pub fn columns(&self) -> Vec<Column> {
        self.columns
            .iter()
            .map(|&(name, kind, path, priority)| Column {
                name: name.into(),
                kind: kind.into(),
                json_path: path.into(),
                priority,
            })
            .collect()
    }
}

pub(super) const OPENSHIFT_KINDS: &[BuiltinCrd] = &[
    // config/v1/zz_generated.crd-manifests/0000_00_cluster-version-operator_01_clusteroperators.crd.yaml
    BuiltinCrd {
        kind: "ClusterOperator",
        columns: &[
            (
                "Version",
                "string",
                r#".status.versions[?(@.name=="operator")].version"#,
                0,
            ),
            (
                "Available",
                "string",
                r#".status.conditions[?(@.type=="Available")].status"#,
                0,
            ),
            (
                "Progressing",
                "string",
                r#".status.conditions[?(@.type=="Progressing")].status"#,
                0,
            ),
            (
                "Degraded",
                "string",
                r#".status.conditions[?(@.type=="Degraded")].status"#,
                0,
            ),
            (
                "Since",
                "date",
                r#".status.conditions[?(@.type=="Available")].lastTransitionTime"#,
                0,
            ),
        ],
    },
    // config/v1/zz_generated.crd-manifests/0000_00_cluster-version-operator_01_clusterversions-Default.crd.yaml
    BuiltinCrd {
        kind: "ClusterVersion",
        columns: &[
            (
                "Version",
                "string",
                r#".status.history[?(@.state=="Completed")].version"#,
                0,
            ),
            (
                "Available",
                "string",
                r#".status.conditions[?(@.type=="Available")].status"#,
                0,
            ),
            (
                "Progressing",
                "string",
                r#".status.conditions[?(@.type=="Progressing")].status"#,
                0,
            ),
            (
                "Since",
                "date",
                r#".status.conditions[?(@.type=="Progressing")].lastTransitionTime"#,
                0,
            ),
            (
                "Status",
                "string",
                r#".status.conditions[?(@.type=="Progressing")].message"#,
                0,
            ),
        ],
    },
    // machineconfiguration/v1/zz_generated.crd-manifests/0000_80_machine-config_01_machineconfigpools.crd.yaml
    BuiltinCrd {
        kind: "MachineConfigPool",
        columns: &[
            ("Config", "string", ".status.configuration.name", 0),
            (
                "Updated",
                "string",
                r#".status.conditions[?(@.type=="Updated")].status"#,
                0,
            ),
            (
                "Updating",
                "string",
                r#".status.conditions[?(@.type=="Updating")].status"#,
                0,
            ),
            (
                "Degraded",
                "string",
                r#".status.conditions[?(@.type=="Degraded")].status"#,
                0,
            ),
            ("MachineCount", "number", ".status.machineCount", 0),
            (
                "ReadyMachineCount",
                "number",
                ".status.readyMachineCount",
                0,
            ),
            (
                "UpdatedMachineCount",
                "number",
                ".status.updatedMachineCount",
                0,
            ),
            (
                "DegradedMachineCount",
                "number",
                ".status.degradedMachineCount",
                0,
            ),
            ("Age", "date", ".metadata.creationTimestamp", 0),
        ],
    },
    // machineconfiguration/v1/zz_generated.crd-manifests/0000_80_machine-config_01_machineconfigs.crd.yaml
    BuiltinCrd {
        kind: "MachineConfig",
        columns: &[
            (
                "GeneratedByController",
                "string",
                r".metadata.annotations.machineconfiguration\.openshift\.io/generated-by-controller-version",
                0,
            ),
            (
                "IgnitionVersion",
                "string",
                ".spec.config.ignition.version",
                0,
            ),
            ("Age", "date", ".metadata.creationTimestamp", 0),
        ],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_of_the_table() {
        let groups: Vec<&str> = OPENSHIFT_KINDS.iter().map(|b| b.names().group).collect();
        assert_eq!(
            groups,
            [
                "config.openshift.io",
                "config.openshift.io",
                "machineconfiguration.openshift.io",
                "machineconfiguration.openshift.io"
            ]
        );
    }
}

//! Admission-side views: ResourceQuota, LimitRange, ServiceAccount, ConfigMap (names and
//! data keys), PriorityClass.

use super::meta::{FieldAt, ObjectMeta, ResourceList, UnreadField, unread_quantities};
use super::pod::NamedItem;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceQuota {
    pub metadata: ObjectMeta,
    pub spec: ResourceQuotaSpec,
    pub status: ResourceQuotaStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceQuotaSpec {
    /// `requests.cpu`, `limits.memory`, `cpu` (= requests.cpu), `pods`, `count/…` → quantity.
    pub hard: ResourceList,
    /// `Terminating`, `NotTerminating`, `BestEffort`, `NotBestEffort`, `PriorityClass`, …
    pub scopes: Vec<String>,
    pub scope_selector: Option<Value>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceQuotaStatus {
    /// What the quota controller enforces (a copy of `spec.hard` once observed).
    pub hard: ResourceList,
    /// What the quota controller last counted.
    pub used: ResourceList,
}

impl ResourceQuota {
    /// Its hard and used quantities that do not read (see [`UnreadField`]).
    pub fn unread_quantities(&self, out: &mut Vec<UnreadField>) {
        let root = FieldAt::default;
        unread_quantities(&self.spec.hard, || root().keys("spec.hard"), out);
        unread_quantities(&self.status.hard, || root().keys("status.hard"), out);
        unread_quantities(&self.status.used, || root().keys("status.used"), out);
    }

    /// The enforced limit of a resource: `status.hard`, else `spec.hard`.
    pub fn hard(&self, resource: &str) -> Option<&super::meta::Qty> {
        self.status
            .hard
            .get(resource)
            .or_else(|| self.spec.hard.get(resource))
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LimitRange {
    pub metadata: ObjectMeta,
    pub spec: LimitRangeSpec,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LimitRangeSpec {
    pub limits: Vec<LimitRangeItem>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LimitRangeItem {
    /// `Container`, `Pod` or `PersistentVolumeClaim`.
    #[serde(rename = "type")]
    pub type_: String,
    /// Default limits for containers that set none.
    pub default: ResourceList,
    /// Default requests for containers that set none.
    pub default_request: ResourceList,
    pub max: ResourceList,
    pub min: ResourceList,
}

impl LimitRange {
    /// Its defaults and bounds that do not read (see [`UnreadField`]).
    pub fn unread_quantities(&self, out: &mut Vec<UnreadField>) {
        for (i, item) in self.spec.limits.iter().enumerate() {
            let at = || FieldAt::default().keys("spec.limits").item(i, "");
            unread_quantities(&item.default, || at().key("default"), out);
            unread_quantities(&item.default_request, || at().key("defaultRequest"), out);
            unread_quantities(&item.max, || at().key("max"), out);
            unread_quantities(&item.min, || at().key("min"), out);
        }
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ServiceAccount {
    pub metadata: ObjectMeta,
    pub image_pull_secrets: Vec<NamedItem>,
    pub secrets: Vec<NamedItem>,
}

/// A ConfigMap's name and data keys; values are dropped except the content of the
/// cluster autoscaler's `cluster-autoscaler-status` ConfigMap.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(from = "RawConfigMap")]
pub struct ConfigMap {
    pub metadata: ObjectMeta,
    /// Keys of `data` and `binaryData`, sorted.
    pub keys: Vec<String>,
    /// Keys of `binaryData` alone, sorted: env vars never read them (the kubelet's
    /// `makeEnvironmentVariables` reads `data`); volumes do.
    pub binary_keys: Vec<String>,
    /// `data.status` of `kube-system/cluster-autoscaler-status` (the autoscaler's report).
    pub autoscaler_status: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct RawConfigMap {
    metadata: ObjectMeta,
    #[serde(deserialize_with = "super::meta::null_default")]
    data: BTreeMap<String, Value>,
    #[serde(deserialize_with = "super::meta::null_default")]
    binary_data: BTreeMap<String, Value>,
}

/// The ConfigMap the cluster autoscaler writes its status to.
pub const AUTOSCALER_STATUS: &str = "cluster-autoscaler-status";

impl From<RawConfigMap> for ConfigMap {
    fn from(raw: RawConfigMap) -> Self {
        let autoscaler_status = if raw.metadata.name == AUTOSCALER_STATUS {
            raw.data
                .get("status")
                .and_then(Value::as_str)
                .map(str::to_string)
        } else {
            None
        };
        let binary_keys: Vec<String> = raw.binary_data.into_keys().collect();
        let mut keys: Vec<String> = raw
            .data
            .into_keys()
            .chain(binary_keys.iter().cloned())
            .collect();
        keys.sort();
        keys.dedup();
        ConfigMap {
            metadata: raw.metadata,
            keys,
            binary_keys,
            autoscaler_status,
        }
    }
}

impl ConfigMap {
    pub fn has_key(&self, key: &str) -> bool {
        self.keys.binary_search_by(|k| k.as_str().cmp(key)).is_ok()
    }

    /// The key is in `binaryData` and not in `data` (the API forbids a key in both).
    pub fn only_binary(&self, key: &str) -> bool {
        self.binary_keys
            .binary_search_by(|k| k.as_str().cmp(key))
            .is_ok()
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PriorityClass {
    pub metadata: ObjectMeta,
    pub value: i64,
    pub global_default: bool,
    /// `PreemptLowerPriority` (default) or `Never`.
    pub preemption_policy: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn config_map_keeps_keys_not_values() {
        let cm: ConfigMap = serde_json::from_value(json!({
            "metadata": {"name": "app", "namespace": "demo"},
            "data": {"b": "secret-ish", "a": "x"},
            "binaryData": {"c": "AAAA"}
        }))
        .unwrap();
        assert_eq!(cm.keys, ["a", "b", "c"]);
        assert!(cm.has_key("b") && !cm.has_key("z"));
        assert!(cm.autoscaler_status.is_none());
        let cas: ConfigMap = serde_json::from_value(json!({
            "metadata": {"name": "cluster-autoscaler-status", "namespace": "kube-system"},
            "data": {"status": "Cluster-autoscaler status at 2026-11-20"}
        }))
        .unwrap();
        assert!(
            cas.autoscaler_status
                .unwrap()
                .starts_with("Cluster-autoscaler")
        );
        let empty: ConfigMap =
            serde_json::from_value(json!({"metadata": {"name": "e"}, "data": null})).unwrap();
        assert!(empty.keys.is_empty());
    }

    #[test]
    fn quota_hard_prefers_status() {
        let q: ResourceQuota = serde_json::from_value(json!({
            "metadata": {"name": "q"},
            "spec": {"hard": {"requests.cpu": "10"}},
            "status": {"hard": {"requests.cpu": "8"}, "used": {"requests.cpu": "7500m"}}
        }))
        .unwrap();
        assert_eq!(q.hard("requests.cpu").unwrap().raw, "8");
        assert_eq!(q.status.used["requests.cpu"].raw, "7500m");
    }
}

/// A PodDisruptionBudget: what it selects, what it demands and what the disruption
/// controller last computed (`disruptionsAllowed` 0 blocks every eviction).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodDisruptionBudget {
    pub metadata: ObjectMeta,
    pub spec: PodDisruptionBudgetSpec,
    pub status: PodDisruptionBudgetStatus,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodDisruptionBudgetSpec {
    /// `null` selects no pod; `{}` selects every pod of the namespace (policy/v1).
    pub selector: Option<super::meta::LabelSelector>,
    /// An integer or a percentage string.
    pub min_available: Option<Value>,
    pub max_unavailable: Option<Value>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodDisruptionBudgetStatus {
    pub disruptions_allowed: Option<i64>,
    pub current_healthy: Option<i64>,
    pub desired_healthy: Option<i64>,
    pub expected_pods: Option<i64>,
}

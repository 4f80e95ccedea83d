//! Admission-side views: ResourceQuota, LimitRange, ServiceAccount, ConfigMap (names and
//! data keys), PriorityClass.

use super::meta::ObjectMeta;
use serde::Deserialize;

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceQuota {
    pub metadata: ObjectMeta,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LimitRange {
    pub metadata: ObjectMeta,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ServiceAccount {
    pub metadata: ObjectMeta,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ConfigMap {
    pub metadata: ObjectMeta,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PriorityClass {
    pub metadata: ObjectMeta,
}

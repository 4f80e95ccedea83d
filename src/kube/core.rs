//! Small core views: Namespace and Secret (names only: data never reaches a view).

use super::meta::ObjectMeta;
use serde::Deserialize;

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Namespace {
    pub metadata: ObjectMeta,
}

/// A Secret's identity and type; its values are scrubbed at ingest.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Secret {
    pub metadata: ObjectMeta,
    #[serde(rename = "type")]
    pub type_: Option<String>,
}

//! Where an object's content lives: a tree parsed at ingest, or text deserialized when
//! a view or a rule first needs it.

use super::fast_yaml::{self, ItemPos};
use super::objects;
use serde::de::DeserializeOwned;
use serde_json::Value;

#[derive(Clone, Debug)]
pub enum Body {
    /// Parsed at ingest (general YAML parser, kubelet configz, renamed objects); already
    /// carries its kind and apiVersion, scrubbed.
    Tree(Value),
    /// Fast-path YAML that ingest has checked: a document, or a `- ` item of its list.
    Yaml {
        text: super::KeptText,
        pos: ItemPos,
        item: bool,
    },
    /// A JSON value at `start..end` of the file.
    Json {
        text: super::KeptText,
        start: usize,
        end: usize,
    },
}

impl Body {
    /// Deserializes the object as `T`, reading only the fields `T` names.
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, String> {
        match self {
            Body::Tree(v) => T::deserialize(v).map_err(|e| e.to_string()),
            Body::Yaml { text, pos, item } => {
                fast_yaml::object_in::<T>(text, *pos, *item).map_err(|e| e.to_string())
            }
            Body::Json { text, start, end } => {
                let mut de = serde_json::Deserializer::from_str(&text[*start..*end]);
                T::deserialize(&mut de).map_err(|e| e.to_string())
            }
        }
    }

    /// The whole object as a tree, as ingest would have stored it: with its kind and
    /// apiVersion, without managedFields, last-applied configuration or Secret values.
    pub fn to_value(&self, kind: &str, api_version: &str) -> Value {
        let mut value = match self {
            Body::Tree(v) => return v.clone(),
            _ => self.deserialize::<Value>().unwrap_or(Value::Null),
        };
        if let Value::Object(map) = &mut value {
            objects::fix_up(map, kind, api_version);
        }
        value
    }
}

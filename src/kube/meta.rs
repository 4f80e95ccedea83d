//! Shared pieces of every typed view: metadata, conditions, quantities, references.

pub use super::Str;
use super::lazy::Lazy;
use super::quantity::{Quantity, QuantityError};
pub use super::vecmap::VecMap;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// The annotation `kubectl apply` leaves: a copy of the whole object, which no view reads.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The part of `metadata` rules read.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ObjectMeta {
    #[serde(deserialize_with = "string_only")]
    pub name: Str,
    pub namespace: Option<Str>,
    pub uid: Option<Str>,
    pub generate_name: Option<Str>,
    pub labels: Labels,
    /// Read on first use (see [`ObjectMeta::annotation`]): a few rules read a few kinds'
    /// annotations, and a pod's are often its longest metadata.
    pub annotations: Lazy<Annotations>,
    pub owner_references: Vec<OwnerReference>,
    pub creation_timestamp: Option<Str>,
    pub deletion_timestamp: Option<Str>,
    pub resource_version: Option<Str>,
}

/// `metadata.name` as the API server takes it: a string only. A plain `123` or `true`
/// refuses the view, so the identity check reads the name again and names what it is,
/// as it does for a file the general parser reads.
fn string_only<'de, D: Deserializer<'de>>(d: D) -> Result<Str, D::Error> {
    struct Text;
    impl serde::de::Visitor<'_> for Text {
        type Value = Str;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E>(self, s: &str) -> Result<Str, E> {
            Ok(Str::from(s))
        }
    }
    d.deserialize_any(Text)
}

impl ObjectMeta {
    /// The value of annotation `key`.
    pub fn annotation(&self, key: &str) -> Option<&str> {
        self.annotations.get().0.get(key).map(Str::as_str)
    }
}

/// Annotations without `kubectl.kubernetes.io/last-applied-configuration`: a copy of the
/// whole object that no rule reads and that would double the memory of a view. `null`
/// reads as none.
#[derive(Clone, Debug, Default)]
pub struct Annotations(pub Labels);

impl<'de> Deserialize<'de> for Annotations {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{IgnoredAny, MapAccess, Visitor};
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Labels;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of annotations")
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Labels::new())
            }
            fn visit_none<E>(self) -> Result<Self::Value, E> {
                Ok(Labels::new())
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if key == LAST_APPLIED {
                        map.next_value::<IgnoredAny>()?;
                    } else {
                        out.push((key, Str::from(map.next_value::<super::long::Bounded>()?.0)));
                    }
                }
                Ok(out.into_iter().collect())
            }
        }
        d.deserialize_any(V).map(Annotations)
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct OwnerReference {
    pub api_version: Str,
    pub kind: Str,
    pub name: Str,
    pub uid: Str,
    pub controller: Option<bool>,
}

/// A status condition (`type`, `status`, `reason`, `message`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Condition {
    #[serde(rename = "type")]
    pub type_: Str,
    pub status: Str,
    #[serde(deserialize_with = "super::long::opt_str")]
    pub reason: Option<Str>,
    #[serde(deserialize_with = "super::long::opt_str")]
    pub message: Option<Str>,
    pub last_transition_time: Option<Str>,
}

/// Finds a condition by type.
pub fn condition<'a>(conditions: &'a [Condition], type_: &str) -> Option<&'a Condition> {
    conditions.iter().find(|c| c.type_ == type_)
}

/// How a finding names an object (`object` and `evidence[].object` in the JSON).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ObjectRef {
    #[serde(rename = "apiVersion")]
    pub api_version: String,
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub name: String,
}

impl ObjectRef {
    /// `Kind ns/name` or `Kind name`.
    pub fn display(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{} {}/{}", self.kind, ns, self.name),
            None => format!("{} {}", self.kind, self.name),
        }
    }
}

/// A quantity as written in the bundle: string or number; `value` is `None` when it
/// does not read or is too large to count (see [`Quantity::parse_countable`]). The raw
/// text is kept so a rule can say so; the snapshot names the field in a problem (see
/// [`UnreadField`]).
#[derive(Clone, Debug, Default)]
pub struct Qty {
    pub value: Option<Quantity>,
    pub raw: Str,
}

impl Qty {
    /// Why the value does not read, `None` when it does (read again: only for the rare
    /// value that does not).
    pub fn error(&self) -> Option<QuantityError> {
        match self.value {
            Some(_) => None,
            None => amount(&self.raw).err(),
        }
    }

    /// How a message names a value that does not read: `` unreadable (`1.5.5Gi`) ``,
    /// `empty`, or `` too large to count (`100Ei`) ``, the value cut to a length a message
    /// can hold.
    pub fn unreadable(&self) -> String {
        const MAX_CHARS: usize = 40;
        let shown = match self.raw.char_indices().nth(MAX_CHARS) {
            Some((cut, _)) => format!("{}…", &self.raw[..cut]),
            None => self.raw.to_string(),
        };
        match self.error() {
            Some(QuantityError::Empty) => "empty".to_owned(),
            Some(QuantityError::TooLarge(_)) => format!("too large to count (`{shown}`)"),
            Some(QuantityError::Negative(_)) => format!("negative (`{shown}`)"),
            _ => format!("unreadable (`{shown}`)"),
        }
    }
}

/// A resource amount (a request, limit, capacity or quota): what
/// [`Quantity::parse_countable`] reads, and never below 0, which the API server refuses.
fn amount(raw: &str) -> Result<Quantity, QuantityError> {
    let q = Quantity::parse_countable(raw)?;
    if q.nanos() < 0 {
        return Err(QuantityError::Negative(raw.trim().to_owned()));
    }
    Ok(q)
}

impl<'de> Deserialize<'de> for Qty {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        let raw = match v {
            serde_json::Value::String(s) => s,
            serde_json::Value::Number(n) => n.to_string(),
            other => other.to_string(),
        };
        Ok(Qty {
            value: amount(&raw).ok(),
            raw: raw.into(),
        })
    }
}

/// A field of a view that does not read, and where it is: the snapshot makes it a
/// problem naming the file, line and field (DESIGN.md "A field of an odd shape is
/// unknown, never fatal").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnreadField {
    /// `spec.containers[0].resources.requests.cpu`.
    pub path: String,
    /// The keys to its line, for `Snapshot::locate`: `name=…` for a named list item.
    pub steps: Vec<String>,
    pub message: String,
}

/// A place in a view, as a field path and the keys to its line; built only for a field
/// that does not read.
#[derive(Clone, Debug, Default)]
pub struct FieldAt {
    path: String,
    steps: Vec<String>,
}

impl FieldAt {
    /// The field `key` under this one.
    pub fn key(&self, key: &str) -> FieldAt {
        let mut at = self.clone();
        if !at.path.is_empty() {
            at.path.push('.');
        }
        at.path.push_str(key);
        at.steps.push(key.to_owned());
        at
    }

    /// Item `index` of the list this field holds; `name` (when not empty) finds its line.
    pub fn item(&self, index: usize, name: &str) -> FieldAt {
        let mut at = self.clone();
        at.path.push_str(&format!("[{index}]"));
        if !name.is_empty() {
            at.steps.push(format!("name={name}"));
        }
        at
    }

    /// `spec.podSets[0].template.spec.containers[1]` and so on: `path` split at its dots,
    /// for the fields under a view of its own.
    pub fn keys(&self, path: &str) -> FieldAt {
        path.split('.').fold(self.clone(), |at, key| at.key(key))
    }

    fn unread(self, error: QuantityError) -> UnreadField {
        UnreadField {
            path: self.path,
            steps: self.steps,
            message: error.to_string(),
        }
    }
}

/// Pushes the quantities of `list` that do not read, as fields under the one `at` builds
/// (built only then: nearly every quantity of a bundle reads).
pub fn unread_quantities(
    list: &ResourceList,
    at: impl FnOnce() -> FieldAt,
    out: &mut Vec<UnreadField>,
) {
    if list.values().all(|q| q.value.is_some()) {
        return;
    }
    let at = at();
    for (name, q) in list.iter() {
        if let Some(e) = q.error() {
            out.push(at.key(name).unread(e));
        }
    }
}

/// [`unread_quantities`] for a single quantity field.
pub fn unread_quantity(q: Option<&Qty>, at: impl FnOnce() -> FieldAt, out: &mut Vec<UnreadField>) {
    if let Some(e) = q.and_then(Qty::error) {
        out.push(at().unread(e));
    }
}

/// `requests` / `limits` / `allocatable`: resource name → quantity.
pub type ResourceList = VecMap<Qty>;

/// Labels, annotations, node selectors: string → string.
pub type Labels = VecMap<Str>;

/// A map of label values by key, as selectors read it (views hold [`Labels`]; some
/// rules build a `BTreeMap`).
pub trait LabelLookup {
    fn label(&self, key: &str) -> Option<&str>;
}

impl LabelLookup for Labels {
    fn label(&self, key: &str) -> Option<&str> {
        self.get(key).map(Str::as_str)
    }
}

impl LabelLookup for BTreeMap<String, String> {
    fn label(&self, key: &str) -> Option<&str> {
        self.get(key).map(String::as_str)
    }
}

/// Reads a quantity from a resource list; absent or unreadable is zero. For a value a
/// verdict rests on, check [`Qty::value`] first: an unreadable one is not zero.
pub fn get_qty(list: &ResourceList, name: &str) -> Quantity {
    list.get(name).and_then(|q| q.value).unwrap_or_default()
}

/// A label selector (`matchLabels` and `matchExpressions`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LabelSelector {
    pub match_labels: BTreeMap<String, String>,
    pub match_expressions: Vec<SelectorRequirement>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SelectorRequirement {
    pub key: String,
    pub operator: String,
    pub values: Vec<String>,
}

impl LabelSelector {
    /// Kubernetes semantics: every requirement must hold; an empty selector matches all.
    pub fn matches(&self, labels: &impl LabelLookup) -> bool {
        self.match_labels
            .iter()
            .all(|(k, v)| labels.label(k) == Some(v.as_str()))
            && self.match_expressions.iter().all(|r| {
                let val = labels.label(&r.key);
                match r.operator.as_str() {
                    "In" => val.is_some_and(|v| r.values.iter().any(|x| x == v)),
                    "NotIn" => val.is_none_or(|v| !r.values.iter().any(|x| x == v)),
                    "Exists" => val.is_some(),
                    "DoesNotExist" => val.is_none(),
                    _ => false,
                }
            })
    }
}

/// Accepts `null` as the default value (bundles write `field: null`).
pub fn null_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// A list that may be `null`, sized to its items: view lists are read without a length
/// up front, so a growing `Vec` would keep up to twice the room it needs in every view.
pub fn null_vec<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let mut v = Option::<Vec<T>>::deserialize(d)?.unwrap_or_default();
    v.shrink_to_fit();
    Ok(v)
}

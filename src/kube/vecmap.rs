//! A small sorted map for the string maps of views (labels, annotations, resource lists).
//!
//! Views hold thousands of these maps with a handful of entries each. A `BTreeMap`
//! allocates a node for eleven entries whatever the count (about 0.5 KB for labels, 1 KB
//! for a resource list); a sorted, exactly sized `Vec` holds just the entries, and a
//! binary search over a few keys is as fast as a tree walk. The API is the subset of
//! `BTreeMap` the rules use, with the same iteration order (sorted by key).

use super::Str;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::fmt;
use std::marker::PhantomData;

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct VecMap<V> {
    /// Sorted by key, keys unique.
    entries: Vec<(Str, V)>,
}

impl<V> Default for VecMap<V> {
    fn default() -> Self {
        VecMap {
            entries: Vec::new(),
        }
    }
}

impl<V> VecMap<V> {
    pub fn new() -> Self {
        Self::default()
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    pub fn get(&self, key: &str) -> Option<&V> {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// Inserts or replaces; returns the value replaced.
    pub fn insert(&mut self, key: impl Into<Str>, value: V) -> Option<V> {
        let key = key.into();
        match self.find(key.as_str()) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<V> {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&Str, &V)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Str> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    /// From entries in any order; a later duplicate key wins, as in a `BTreeMap`.
    fn from_entries(mut entries: Vec<(Str, V)>) -> Self {
        // Stable sort keeps duplicates in input order; keep the last of each run.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(Str, V)> = Vec::with_capacity(entries.len());
        for e in entries {
            match out.last_mut() {
                Some(last) if last.0 == e.0 => *last = e,
                _ => out.push(e),
            }
        }
        out.shrink_to_fit();
        VecMap { entries: out }
    }
}

/// Panics when the key is absent, as indexing a `BTreeMap` does.
impl<V> std::ops::Index<&str> for VecMap<V> {
    type Output = V;
    fn index(&self, key: &str) -> &V {
        self.get(key).expect("key in VecMap")
    }
}

impl<V: fmt::Debug> fmt::Debug for VecMap<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Into<Str>, V> FromIterator<(K, V)> for VecMap<V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Self::from_entries(iter.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

impl<'a, V> IntoIterator for &'a VecMap<V> {
    type Item = (&'a Str, &'a V);
    type IntoIter =
        std::iter::Map<std::slice::Iter<'a, (Str, V)>, fn(&'a (Str, V)) -> (&'a Str, &'a V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<V> IntoIterator for VecMap<V> {
    type Item = (Str, V);
    type IntoIter = std::vec::IntoIter<(Str, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<V: Serialize> Serialize for VecMap<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len()))?;
        for (k, v) in self {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for VecMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct MapVisitor<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for MapVisitor<V> {
            type Value = VecMap<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
                while let Some(entry) = map.next_entry::<Str, V>()? {
                    entries.push(entry);
                }
                Ok(VecMap::from_entries(entries))
            }
        }
        d.deserialize_map(MapVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::VecMap;
    use std::collections::BTreeMap;

    #[test]
    fn behaves_like_a_btreemap() {
        let pairs = [("b", 1), ("a", 2), ("c", 3), ("a", 4)];
        let v: VecMap<i32> = pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        let b: BTreeMap<String, i32> = pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        assert_eq!(
            v.iter().map(|(k, v)| (k.as_str(), *v)).collect::<Vec<_>>(),
            b.iter().map(|(k, v)| (k.as_str(), *v)).collect::<Vec<_>>()
        );
        assert_eq!(v.get("a"), Some(&4));
        assert!(v.contains_key("c") && !v.contains_key("d"));
        let mut v = v;
        assert_eq!(v.insert("d", 5), None);
        assert_eq!(v.insert("b", 6), Some(1));
        assert_eq!(v.remove("c"), Some(3));
        assert_eq!(
            v.keys().map(|k| k.as_str()).collect::<Vec<_>>(),
            ["a", "b", "d"]
        );
        let json: VecMap<i32> = serde_json::from_str(r#"{"z": 1, "y": 2, "z": 3}"#).unwrap();
        assert_eq!(serde_json::to_string(&json).unwrap(), r#"{"y":2,"z":3}"#);
    }
}

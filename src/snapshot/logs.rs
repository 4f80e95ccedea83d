//! Container logs by namespace, pod, container and current/previous; read on demand.

pub use crate::ingest::LogSource;
use std::collections::BTreeMap;

pub struct LogIndex {
    by_pod: BTreeMap<(String, String), Vec<LogSource>>,
}

impl LogIndex {
    pub fn new(logs: Vec<LogSource>) -> Self {
        let mut by_pod: BTreeMap<(String, String), Vec<LogSource>> = BTreeMap::new();
        for l in logs {
            by_pod
                .entry((l.key.namespace.clone(), l.key.pod.clone()))
                .or_default()
                .push(l);
        }
        for v in by_pod.values_mut() {
            v.sort_by(|a, b| a.key.cmp(&b.key).then_with(|| a.path.cmp(&b.path)));
        }
        LogIndex { by_pod }
    }

    /// Logs of one pod, sorted by container then current before previous.
    pub fn of(&self, namespace: &str, pod: &str) -> Vec<&LogSource> {
        self.by_pod
            .get(&(namespace.to_string(), pod.to_string()))
            .map(|v| v.iter().collect())
            .unwrap_or_default()
    }

    /// Every log, by namespace, pod, container, current before previous.
    pub fn iter(&self) -> impl Iterator<Item = &LogSource> {
        self.by_pod.values().flatten()
    }

    pub fn len(&self) -> usize {
        self.by_pod.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.by_pod.is_empty()
    }
}

impl LogIndex {
    /// Logs that came from one input.
    pub fn count_for_input(&self, input: usize) -> usize {
        self.by_pod
            .values()
            .flatten()
            .filter(|l| l.input == input)
            .count()
    }
}

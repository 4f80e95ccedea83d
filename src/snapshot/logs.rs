//! Container logs by namespace, pod, container and current/previous; read on demand.

pub use crate::ingest::{LogSource, LogText};
use std::collections::BTreeMap;

pub struct LogIndex {
    by_pod: BTreeMap<(String, String), Vec<LogSource>>,
}

impl LogIndex {
    /// The logs by pod; `containers(namespace, pod)` names a pod's containers (every
    /// pod of that name for an empty namespace), to settle [`settle_previous`].
    pub fn new(mut logs: Vec<LogSource>, containers: impl Fn(&str, &str) -> Vec<String>) -> Self {
        settle_previous(&mut logs, containers);
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

/// troubleshoot writes a container's previous log as `C-previous.log`, which is also the
/// current log of a container named `C-previous` (a sidecar `app-previous` beside
/// `app`). Ingest reads the name without the pod; here, where the pod's containers are
/// known, a `C-previous.log` of a pod that has a container `C-previous` is that
/// container's current log, not `C`'s previous run.
fn settle_previous(logs: &mut [LogSource], containers: impl Fn(&str, &str) -> Vec<String>) {
    for l in logs.iter_mut().filter(|l| l.key.previous) {
        let own = format!("{}-previous", l.key.container);
        let file = l.path.rsplit(['/', '!']).next().unwrap_or(&l.path);
        if file != format!("{own}.log") {
            continue; // must-gather's `…/C/C/logs/previous.log` names no container
        }
        if containers(&l.key.namespace, &l.key.pod).contains(&own) {
            l.key.container = own;
            l.key.previous = false;
        }
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

//! Rancher's logs collector (`rancher2_logs_collector.sh`, rancherlabs/support-tools):
//! one node's bundle, `<hostname>-<YYYY-MM-DD_HH_MM_SS>/`, whose cluster state is
//! kubectl's table text. Per distribution, `rke2/kubectl/`, `k3s/kubectl/`,
//! `k8s/kubectl/` (RKE1) or `kubeadm/kubectl/` holds extension-less files named for the
//! resource (`pods`, `nodes`, `events`, `deployments`…: `kubectl get … -o wide`, with
//! `--all-namespaces` for namespaced ones), `nodesdescribe` (`kubectl describe nodes`),
//! `version` and `api-resources`; beside them `systeminfo/`, `networking/`, `journald/`,
//! `etcd/`, `<distro>/crictl/`, and on RKE2 the static pods' manifests
//! (`rke2/pod-manifests/*.yaml`).

use super::content::{self, FileRead};
use super::kubectl_table;
use super::layout::FileClass;
use super::source::{Entry, EntryData};
use crate::kube::time::parse_timestamp;

/// The folders each distribution's kubectl output is in.
const DISTROS: &[&str] = &["rke2", "k3s", "k8s", "kubeadm"];

/// Every file the collector writes under `<distro>/kubectl/`.
const KUBECTL_FILES: &[&str] = &[
    "api-resources",
    "apiservices",
    "clusterrolebindings",
    "clusterroles",
    "configmaps",
    "cronjobs",
    "crds",
    "daemonsets",
    "deployments",
    "endpoints",
    "events",
    "helmcharts",
    "hpa",
    "ingress",
    "jobs",
    "leases",
    "mutatingwebhookconfigurations",
    "namespaces",
    "networkpolicies",
    "nodes",
    "nodesdescribe",
    "pods",
    "pv",
    "pvc",
    "replicasets",
    "rolebindings",
    "roles",
    "services",
    "statefulsets",
    "validatingwebhookconfigurations",
    "version",
];

/// The structural signal a path gives: (index of the layout's top folder among the
/// path's parts, signal).
pub fn signal(comps: &[&str]) -> Option<(usize, &'static str)> {
    let n = comps.len();
    if n >= 3 && comps[n - 2] == "kubectl" && KUBECTL_FILES.contains(&comps[n - 1]) {
        let distro = comps[n - 3];
        if DISTROS.contains(&distro) {
            return Some((n - 3, "<distro>/kubectl/<resource> (kubectl table text)"));
        }
    }
    if n >= 2 && comps[n - 2] == "systeminfo" && matches!(comps[n - 1], "date" | "hostname") {
        return Some((n - 2, "systeminfo/"));
    }
    None
}

/// What a file of this layout is: the tables kdiag reads as objects, the static pods'
/// manifests; every other extension-less file is host output, not objects.
pub fn classify(rel: &[&str], file: &str, extension_less: bool) -> Option<FileClass> {
    if let [.., distro, "kubectl", "version"] = rel
        && DISTROS.contains(distro)
    {
        return Some(FileClass::ClusterVersion);
    }
    if let [.., distro, "kubectl", word] = rel
        && DISTROS.contains(distro)
    {
        if let Some(kind) = kubectl_table::kind_of(word) {
            return Some(FileClass::KubectlTable(kind));
        }
        // Tables of other kinds, `nodesdescribe`, `api-resources`; anything else there
        // (kubeadm's `cluster-info_dump`) is read by what it holds.
        if KUBECTL_FILES.contains(word) {
            return Some(FileClass::Skip);
        }
    }
    if let [.., "systeminfo", "date"] = rel {
        return Some(FileClass::CaptureDate);
    }
    if let [.., "pod-manifests", _] = rel
        && (file.ends_with(".yaml") || file.ends_with(".yml"))
    {
        return Some(FileClass::Objects);
    }
    (extension_less && !rel.contains(&"kubectl")).then_some(FileClass::Skip)
}

/// The capture time from the bundle's folder name (`…-2025-12-04_09_15_57`, the
/// collector's `date +%Y-%m-%d_%H_%M_%S`, in the node's local time: read as UTC).
pub fn folder_time(name: &str) -> Option<i64> {
    let name = name.trim_end_matches('/');
    let name = name.rsplit('/').next().unwrap_or(name);
    let name = name.strip_suffix(".tar.gz").unwrap_or(name);
    let stamp = name.get(name.len().checked_sub(19)?..)?;
    let b = stamp.as_bytes();
    if b[10] != b'_' || b[13] != b'_' || b[16] != b'_' {
        return None;
    }
    let iso = format!(
        "{}T{}:{}:{}Z",
        &stamp[..10],
        &stamp[11..13],
        &stamp[14..16],
        &stamp[17..]
    );
    parse_timestamp(&iso)
}

/// The server's version `kubectl version` printed (`Server Version: v1.32.7+rke2r1`, or
/// before kubectl 1.28 `Server Version: version.Info{…, GitVersion:"v1.21.7+rke2r2", …}`).
pub fn server_version(text: &str) -> Option<String> {
    let line = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Server Version:"))?
        .trim();
    let version = match line.split_once("GitVersion:\"") {
        Some((_, rest)) => rest.split('"').next()?,
        None => line,
    };
    (version.starts_with('v') && !version.contains(' ')).then(|| version.to_string())
}

/// Why `systeminfo/date` gives no time.
#[derive(Debug, PartialEq)]
pub enum DateFile {
    /// Not `date`'s default output.
    Unreadable,
    /// A zone other than UTC: its offset is not written.
    OtherZone,
}

/// The capture time `systeminfo/date` gives (`date`'s `Thu Dec  4 09:15:58 UTC 2025`),
/// when its zone is UTC.
pub fn date_file_time(text: &str) -> Option<i64> {
    date_file(text).ok()
}

fn date_file(text: &str) -> Result<i64, DateFile> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let [_, month, day, time, zone, year] = words[..] else {
        return Err(DateFile::Unreadable);
    };
    if !matches!(zone, "UTC" | "GMT") {
        return Err(DateFile::OtherZone);
    }
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let m = MONTHS
        .iter()
        .position(|x| *x == month)
        .ok_or(DateFile::Unreadable)?
        + 1;
    let day: u32 = day.parse().map_err(|_| DateFile::Unreadable)?;
    parse_timestamp(&format!("{year}-{m:02}-{day:02}T{time}Z")).ok_or(DateFile::Unreadable)
}

/// The capture time tables' ages are relative to, and where it came from:
/// `systeminfo/date` (read here, before the files are read in parallel; the nearest to
/// the kubectl calls), else the bundle's folder name (its top folder inside the input, or
/// the input itself). A `date` in another zone than UTC leaves the time unknown: the
/// folder name is in that zone too.
pub fn capture_time(root: &str, input: &str, entries: &mut [Entry]) -> Option<(i64, String)> {
    let date = format!("{root}systeminfo/date");
    if let Some(entry) = entries.iter_mut().find(|e| e.path == date)
        && let Ok(bytes) = entry.take()
    {
        let read = std::str::from_utf8(&bytes).ok().map(date_file);
        entry.data = EntryData::Bytes(bytes);
        match read {
            Some(Ok(t)) => return Some((t, "systeminfo/date".to_string())),
            Some(Err(DateFile::OtherZone)) => return None,
            _ => {}
        }
    }
    for name in [root, input] {
        if let Some(t) = folder_time(name) {
            let name = name.trim_end_matches('/');
            let name = name.rsplit('/').next().unwrap_or(name);
            return Some((t, format!("the logs-collector folder name {name}")));
        }
    }
    None
}

/// [`capture_time`], said in the input's notes.
pub fn table_time(
    root: &str,
    input: &str,
    entries: &mut [Entry],
    notes: &mut Vec<String>,
) -> Option<(i64, String)> {
    let found = capture_time(root, input, entries);
    notes.push(match &found {
        Some((_, what)) => format!(
            "kubectl tables read as objects holding only what the tables show (no container states, exit codes or conditions but the Ready their READY column implies); their ages are relative to the capture time, taken from {what}"
        ),
        None => "kubectl tables read as objects holding only what the tables show; no capture time (systeminfo/date in UTC or a dated folder name): their ages are left unread".to_string(),
    });
    found
}

/// A kubectl table file read as the objects it shows (see [`kubectl_table`]): `None` when
/// it holds no table (`No resources found`, an error kubectl printed).
pub fn table_read(
    entry: &mut Entry,
    kind: &str,
    now: Option<i64>,
) -> Result<Option<FileRead>, String> {
    let bytes = entry.take().map_err(|e| format!("cannot read: {e}"))?;
    let text = content::decode(bytes)?;
    let Some(json) = kubectl_table::to_json(kind, &text, now)? else {
        return Ok(None);
    };
    Ok(Some(content::read(&entry.path, json.into_bytes(), true)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_times() {
        assert_eq!(
            folder_time("w-guard-wg-cp-svtk6-lqtxw-2025-12-04_09_15_57/"),
            parse_timestamp("2025-12-04T09:15:57Z")
        );
        assert_eq!(folder_time("bundle"), None);
        assert_eq!(
            date_file_time("Thu Dec  4 09:15:58 UTC 2025\n"),
            parse_timestamp("2025-12-04T09:15:58Z")
        );
        assert_eq!(date_file_time("Thu Dec  4 09:15:58 CET 2025\n"), None);
    }

    #[test]
    fn server_versions() {
        let text = "Client Version: v1.32.7+rke2r1\nKustomize Version: v5.5.0\nServer Version: v1.32.7+rke2r1\n";
        assert_eq!(server_version(text).as_deref(), Some("v1.32.7+rke2r1"));
        let old = "Server Version: version.Info{Major:\"1\", Minor:\"21\", GitVersion:\"v1.21.7+rke2r2\", GitCommit:\"abc\"}\n";
        assert_eq!(server_version(old).as_deref(), Some("v1.21.7+rke2r2"));
        assert_eq!(
            server_version("error: You must be logged in to the server\n"),
            None
        );
    }

    #[test]
    fn signals_and_classes() {
        let comps = ["host-2025-12-04_09_15_57", "rke2", "kubectl", "pods"];
        assert_eq!(signal(&comps).map(|s| s.0), Some(1));
        assert_eq!(signal(&["x", "kubectl", "pods"]), None);
        assert_eq!(
            classify(&["rke2", "kubectl", "events"], "events", true),
            Some(FileClass::KubectlTable("Event"))
        );
        assert_eq!(
            classify(&["rke2", "kubectl", "nodesdescribe"], "nodesdescribe", true),
            Some(FileClass::Skip)
        );
        assert_eq!(
            classify(&["systeminfo", "ps"], "ps", true),
            Some(FileClass::Skip)
        );
        assert_eq!(
            classify(
                &["kubeadm", "kubectl", "cluster-info_dump"],
                "cluster-info_dump",
                true
            ),
            None
        );
    }
}

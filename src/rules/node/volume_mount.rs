//! `node/volume-mount`: containers not created because a volume cannot be attached or mounted.

use crate::declare_rule;
use crate::kube::event::Event;
use crate::kube::meta::ObjectRef;
use crate::kube::pod::Pod;
use crate::rules::evidence;
use crate::rules::pod_findings::{self, Case, Presence, note};
use crate::rules::reach::Reach;
use crate::rules::{Context, Evidence, Finding, Severity, Stage};
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::collections::BTreeMap;

declare_rule! {
    /// Explains pods stuck in ContainerCreating on FailedMount / FailedAttachVolume, naming the volume and its claim.
    ///
    /// The kubelet's message names a volume; the rule maps it to the pod's volume (a
    /// PersistentVolumeClaim and its PersistentVolume, a ConfigMap, a Secret, a hostPath,
    /// a CSI or NFS volume) and checks what the bundle can: a ConfigMap or Secret that is
    /// missing (or not collected), a ReadWriteOnce claim already attached to another
    /// node's pod (Multi-Attach), a claim that is not Bound. The scheduler has done its
    /// part; the storage driver on the node or the referenced object is the problem.
    pub static VOLUME_MOUNT = {
        id: "node/volume-mount",
        stage: Stage::Node,
        severity: Severity::Error,
        fallback: false,
        // Local: each pod with its PVCs, volumes and Events, grouped by the pod's owner.
        reach: Reach::Local,
        run: run,
    };
}

const REASONS: &[&str] = &["FailedMount", "FailedAttachVolume", "FailedMapVolume"];

/// Pods of one owner and cause, the help, and the evidence shown once for the group.
type Group = (Vec<Case>, String, Vec<Evidence>);

/// Volume names a mount/attach message is about.
pub fn volumes_in(message: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(rest) = message.split("for volume \"").nth(1)
        && let Some((v, _)) = rest.split_once('"')
    {
        out.push(v.to_string());
    }
    if let Some(rest) = message.split("unmounted volumes=[").nth(1)
        && let Some((list, _)) = rest.split_once(']')
    {
        out.extend(list.split_whitespace().map(str::to_string));
    }
    out.dedup();
    out
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let mut groups: BTreeMap<(ObjectRef, String), Group> = BTreeMap::new();
    for (id, pod) in snap.pods() {
        let Some(node) = pod.spec.node_name.as_deref().filter(|n| !n.is_empty()) else {
            continue;
        };
        if !pod.is_active()
            || pod.metadata.deletion_timestamp.is_some()
            || !pod_findings::creating(pod)
        {
            continue;
        }
        let events = snap.events_for(*id);
        let failures: Vec<&(ObjectId, &Event)> = events
            .iter()
            .filter(|(_, e)| REASONS.contains(&e.reason.as_str()))
            .collect();
        if failures.is_empty() {
            continue;
        }
        // The most specific message: one that names a failing step, not the generic timeout.
        let Some(specific) = failures
            .iter()
            .rev()
            .find(|(_, e)| !e.message.starts_with("Unable to attach or mount volumes"))
            .or(failures.last())
            .copied()
        else {
            continue;
        };
        let msg = specific.1.message.trim().to_string();
        let mut vols: Vec<String> = Vec::new();
        for (_, e) in &failures {
            for v in volumes_in(&e.message) {
                if !vols.contains(&v) {
                    vols.push(v);
                }
            }
        }
        let ns = pod_findings::namespace_of(snap, *id).to_string();
        let mut ev = pod_findings::last_events(snap, &failures, 2);
        if !failures
            .iter()
            .rev()
            .take(2)
            .any(|x| std::ptr::eq(*x, specific))
        {
            ev.insert(0, evidence::event(snap, specific.0, specific.1));
        }
        let (cause, what, help, extra) = explain(snap, *id, pod, &ns, node, &vols, &msg);
        ev.push(pod_findings::node_evidence(snap, node));
        let summary = format!(
            "is bound to node {node} but its containers cannot be created: {what} — {}",
            pod_findings::clip(&msg, 400)
        );
        let entry = groups
            .entry((pod_findings::owner_of(snap, *id), cause))
            .or_insert_with(|| (Vec::new(), help.to_string(), extra));
        entry.0.push(Case {
            id: *id,
            summary,
            evidence: ev,
        });
    }
    groups
        .into_iter()
        .map(|((owner, cause), (cases, help, extra))| {
            let mut f = pod_findings::pods_finding(
                snap,
                &VOLUME_MOUNT,
                Severity::Error,
                owner,
                &cause,
                cases,
                help,
            );
            f.evidence.extend(extra);
            f
        })
        .collect()
}

/// A pod volume by name, or the pod volume whose claim is bound to PV `name`.
fn pod_volume<'a>(snap: &Snapshot, ns: &str, pod: &'a Pod, name: &str) -> Option<&'a Value> {
    pod.spec
        .volumes
        .get()
        .iter()
        .find(|v| v.get("name").and_then(Value::as_str) == Some(name))
        .or_else(|| {
            pod.spec.volumes.get().iter().find(|v| {
                v.pointer("/persistentVolumeClaim/claimName")
                    .and_then(Value::as_str)
                    .and_then(|c| snap.find("PersistentVolumeClaim", Some(ns), c))
                    .and_then(|cid| Snapshot::view_of(snap.pvcs(), cid))
                    .and_then(|pvc| pvc.spec.volume_name.as_deref())
                    == Some(name)
            })
        })
}

fn explain(
    snap: &Snapshot,
    pod_id: ObjectId,
    pod: &Pod,
    ns: &str,
    node: &str,
    vols: &[String],
    msg: &str,
) -> (String, String, &'static str, Vec<Evidence>) {
    let lower = msg.to_ascii_lowercase();
    let vol_name = vols.first().cloned().unwrap_or_default();
    let vol = pod_volume(snap, ns, pod, &vol_name);
    let claim = vol.and_then(|v| text_at(v, "/persistentVolumeClaim/claimName"));
    let vol_desc = volume_words(&vol_name, vol, claim.as_deref());
    if let Some(missing) = missing_config(snap, ns, msg, &lower, &vol_desc) {
        return missing;
    }
    if lower.contains("multi-attach") {
        let others = claim
            .as_deref()
            .map(|c| claim_users_elsewhere(snap, pod_id, ns, node, c))
            .unwrap_or_default();
        let who = if others.is_empty() {
            "the bundle shows no other pod using it, so the old attachment is stale (a VolumeAttachment left by a lost node)".to_string()
        } else {
            format!("it is still used by {}", others.join(", "))
        };
        return (
            format!("multi-attach:{}", claim.clone().unwrap_or(vol_name.clone())),
            format!("{vol_desc} is ReadWriteOnce and attached to another node; {who}"),
            "a ReadWriteOnce volume attaches to one node at a time: stop the other pod (or wait for it to move), or delete a stale VolumeAttachment after its node is gone",
            Vec::new(),
        );
    }
    let extra = claim
        .as_deref()
        .map(|c| claim_evidence(snap, ns, c))
        .unwrap_or_default();
    let (key, what, help) = mount_failure_words(&lower, &vol_desc, node);
    (
        format!("{key}:{}", claim.unwrap_or(vol_name)),
        what,
        help,
        extra,
    )
}

/// The string at JSON pointer `p` of a pod volume.
fn text_at(v: &Value, p: &str) -> Option<String> {
    v.pointer(p).and_then(Value::as_str).map(str::to_string)
}

/// "volume data (PersistentVolumeClaim data-0)": the volume the kubelet names and what
/// it holds.
fn volume_words(vol_name: &str, vol: Option<&Value>, claim: Option<&str>) -> String {
    match vol {
        Some(_) if claim.is_some() => format!(
            "volume {vol_name} (PersistentVolumeClaim {})",
            claim.unwrap_or("")
        ),
        Some(v) if v.get("configMap").is_some() => format!(
            "volume {vol_name} (ConfigMap {})",
            text_at(v, "/configMap/name").unwrap_or_default()
        ),
        Some(v) if v.get("secret").is_some() => format!(
            "volume {vol_name} (Secret {})",
            text_at(v, "/secret/secretName").unwrap_or_default()
        ),
        Some(v) if v.get("hostPath").is_some() => format!(
            "volume {vol_name} (hostPath {})",
            text_at(v, "/hostPath/path").unwrap_or_default()
        ),
        Some(v) if v.get("csi").is_some() => format!(
            "volume {vol_name} (CSI driver {})",
            text_at(v, "/csi/driver").unwrap_or_default()
        ),
        Some(v) if v.get("nfs").is_some() => format!(
            "volume {vol_name} (NFS {}:{})",
            text_at(v, "/nfs/server").unwrap_or_default(),
            text_at(v, "/nfs/path").unwrap_or_default()
        ),
        Some(_) => format!("volume {vol_name}"),
        None if vol_name.is_empty() => "a volume".to_string(),
        None => format!("volume {vol_name}"),
    }
}

/// A ConfigMap or Secret the kubelet could not find: the verdict, with whether the
/// bundle holds it now.
fn missing_config(
    snap: &Snapshot,
    ns: &str,
    msg: &str,
    lower: &str,
    vol_desc: &str,
) -> Option<(String, String, &'static str, Vec<Evidence>)> {
    for (needle, kind) in [("configmap \"", "ConfigMap"), ("secret \"", "Secret")] {
        if let Some(rest) = lower.split(needle).nth(1)
            && let Some((_, tail)) = rest.split_once('"')
            && tail.trim_start().starts_with("not found")
        {
            let start = lower.find(needle).unwrap_or(0) + needle.len();
            let name = msg[start..].split('"').next().unwrap_or("").to_string();
            let p = pod_findings::presence(snap, kind, Some(ns), &name);
            let state = pod_findings::describe_presence(kind, ns, &name, p);
            let evidence = match p {
                Presence::Present(oid) => evidence::object(
                    snap,
                    oid,
                    format!("{state}: created after the kubelet's attempt; the kubelet retries"),
                ),
                _ => note(state.clone()),
            };
            return Some((
                format!("missing-{}:{name}", kind.to_ascii_lowercase()),
                format!("{vol_desc} cannot be mounted: {state}"),
                "create the ConfigMap/Secret in the pod's namespace (or mark the volume optional); the kubelet retries the mount on its own",
                vec![evidence],
            ));
        }
    }
    None
}

/// Active pods in namespace `ns` on another node than `node` that use claim `claim`
/// ("web-1 on node b"): who holds a ReadWriteOnce volume.
fn claim_users_elsewhere(
    snap: &Snapshot,
    pod_id: ObjectId,
    ns: &str,
    node: &str,
    claim: &str,
) -> Vec<String> {
    snap.pods()
        .iter()
        .filter(|(oid, p)| {
            *oid != pod_id
                && p.is_active()
                && p.spec
                    .node_name
                    .as_deref()
                    .is_some_and(|n| n != node && !n.is_empty())
                && crate::kube::placement::claim_names(&p.spec)
                    .iter()
                    .any(|x| x == claim)
                && p.metadata.namespace.as_deref() == Some(ns)
        })
        .map(|(_, p)| {
            format!(
                "{} on node {}",
                p.metadata.name,
                p.spec.node_name.as_deref().unwrap_or("")
            )
        })
        .collect()
}

/// The claim's phase and its PersistentVolume, or why the bundle does not hold it.
fn claim_evidence(snap: &Snapshot, ns: &str, c: &str) -> Vec<Evidence> {
    let mut extra = Vec::new();
    match pod_findings::presence(snap, "PersistentVolumeClaim", Some(ns), c) {
        Presence::Present(cid) => {
            if let Some(pvc) = Snapshot::view_of(snap.pvcs(), cid) {
                let phase = pvc.status.phase.as_deref().unwrap_or("unknown");
                extra.push(evidence::field(
                    snap,
                    cid,
                    &["status"],
                    format!(
                        "PersistentVolumeClaim {c}: phase {phase}{}",
                        pvc.spec
                            .volume_name
                            .as_deref()
                            .map(|v| format!(", volume {v}"))
                            .unwrap_or_default()
                    ),
                ));
                if let Some(pv) = pvc
                    .spec
                    .volume_name
                    .as_deref()
                    .and_then(|v| snap.find("PersistentVolume", None, v))
                {
                    extra.push(evidence::object(
                        snap,
                        pv,
                        format!("PersistentVolume {}", snap.object(pv).name),
                    ));
                }
            }
        }
        p => extra.push(note(pod_findings::describe_presence(
            "PersistentVolumeClaim",
            ns,
            c,
            p,
        ))),
    }
    extra
}

/// The cause key, the sentence and the help for a mount failure, by the kubelet's
/// (lower-cased) message.
fn mount_failure_words(
    lower: &str,
    vol_desc: &str,
    node: &str,
) -> (&'static str, String, &'static str) {
    if lower.contains("hostpath type check failed") {
        (
            "hostpath",
            format!("{vol_desc} does not have the type the pod asks for on this node"),
            "create the path on the node with the right type, or fix hostPath.type / path; hostPath volumes depend on every node's file system",
        )
    } else if lower.contains("attachvolume")
        || lower.contains("attach failed")
        || lower.contains("failedattach")
    {
        (
            "attach",
            format!("{vol_desc} cannot be attached to node {node}"),
            "check the CSI driver's controller (its logs and the VolumeAttachment objects) and the cloud disk's state and zone",
        )
    } else if lower.contains("driver name")
        && lower.contains("not found in the list of registered csi drivers")
    {
        (
            "csi-driver-missing",
            format!("{vol_desc} uses a CSI driver that is not registered on node {node}"),
            "install or fix the CSI node plugin (its DaemonSet pod) on that node",
        )
    } else if lower.contains("timed out waiting for the condition") || lower.contains("timed out") {
        (
            "timeout",
            format!("{vol_desc} was not mounted in time"),
            "look for the specific mount or attach error in earlier events and the CSI node plugin's log on that node",
        )
    } else if lower.contains("permission denied") || lower.contains("access denied") {
        (
            "permission",
            format!("{vol_desc} is refused by the storage server"),
            "check the export/share permissions and the credentials the volume uses",
        )
    } else {
        (
            "mount",
            format!("{vol_desc} cannot be mounted"),
            "read the kubelet's message; check the claim, the storage driver on the node and the referenced objects",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volume_names() {
        assert_eq!(
            volumes_in(
                "MountVolume.SetUp failed for volume \"host\" : hostPath type check failed: /var/lib/collectd is not a directory"
            ),
            ["host"]
        );
        assert_eq!(
            volumes_in(
                "Unable to attach or mount volumes: unmounted volumes=[host data], unattached volumes=[host kube-api-access-xddvj]: timed out waiting for the condition"
            ),
            ["host", "data"]
        );
        assert_eq!(
            volumes_in(
                "Multi-Attach error for volume \"pvc-0a1b\" Volume is already exclusively attached to one node and can't be attached to another"
            ),
            ["pvc-0a1b"]
        );
        assert!(volumes_in("nothing").is_empty());
    }
}

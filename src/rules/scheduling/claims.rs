//! The pod's PersistentVolumeClaims as the scheduler's VolumeBinding PreFilter sees
//! them, for `scheduling/unschedulable`: a missing, unbound (Immediate), lost or deleting
//! claim blocks every node; WaitForFirstConsumer is not a storage fault.

use crate::kube::event::Event;
use crate::kube::placement::claim_names;
use crate::kube::pod::Pod;
use crate::rules::Evidence;
use crate::rules::evidence;
use crate::rules::pod_findings::{self, Presence, note};
use crate::snapshot::{ObjectId, Snapshot};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ClaimState {
    Missing,
    Unbound,
    Lost,
    Deleting,
    WaitsForConsumer,
    Bound,
    Unknown,
}

pub(super) struct Claim {
    pub(super) name: String,
    pub(super) state: ClaimState,
    pub(super) detail: String,
    pub(super) evidence: Vec<Evidence>,
}

impl Claim {
    pub(super) fn blocking(&self) -> bool {
        matches!(
            self.state,
            ClaimState::Missing | ClaimState::Unbound | ClaimState::Lost | ClaimState::Deleting
        )
    }
}

/// The pod's PersistentVolumeClaims as the VolumeBinding PreFilter sees them.
pub(super) fn claims(snap: &Snapshot, id: ObjectId, pod: &Pod) -> Vec<Claim> {
    let ns = pod_findings::namespace_of(snap, id);
    claim_names(&pod.spec)
        .into_iter()
        .map(|name| {
            let mut evidence = Vec::new();
            let (state, detail) = match pod_findings::presence(snap, "PersistentVolumeClaim", Some(ns), &name) {
                Presence::Present(cid) => match Snapshot::view_of(snap.pvcs(), cid) {
                    Some(pvc) => {
                        let phase = pvc.status.phase.as_deref().unwrap_or("");
                        let class = pvc.spec.storage_class_name.clone().or_else(|| default_class(snap));
                        let sc = class.as_deref().and_then(|c| {
                            snap.find("StorageClass", None, c)
                                .and_then(|sid| Snapshot::view_of(snap.storage_classes(), sid).map(|s| (sid, s)))
                        });
                        let mode = sc.and_then(|(_, s)| s.volume_binding_mode.clone());
                        let (state, detail) = if pvc.metadata.deletion_timestamp.is_some() {
                            (ClaimState::Deleting, String::new())
                        } else if phase == "Bound" {
                            (ClaimState::Bound, String::new())
                        } else if phase == "Lost" {
                            (ClaimState::Lost, String::new())
                        } else if mode.as_deref() == Some("WaitForFirstConsumer") {
                            (ClaimState::WaitsForConsumer, String::new())
                        } else if phase == "Pending" {
                            let what = match (&class, sc) {
                                (Some(c), Some((_, s))) => format!(
                                    "StorageClass {c}, provisioner {}",
                                    s.provisioner.as_deref().unwrap_or("unknown")
                                ),
                                (Some(c), None) if snap.listed_whole("StorageClass", None) => {
                                    format!("StorageClass {c} does not exist")
                                }
                                (Some(c), None) => format!("StorageClass {c}, not in the bundle"),
                                (None, _) => "no StorageClass: it can only bind to a matching pre-created PV".into(),
                            };
                            (ClaimState::Unbound, what)
                        } else {
                            (ClaimState::Unknown, String::new())
                        };
                        if state != ClaimState::Bound {
                            evidence.push(evidence::field(
                                snap,
                                cid,
                                &["status"],
                                format!(
                                    "PersistentVolumeClaim {name}: phase {}{}",
                                    if phase.is_empty() { "unknown" } else { phase },
                                    class
                                        .as_deref()
                                        .map(|c| format!(
                                            ", StorageClass {c}{}",
                                            mode.as_deref().map(|m| format!(" ({m})")).unwrap_or_default()
                                        ))
                                        .unwrap_or_default()
                                ),
                            ));
                            let evs = snap.events_for(cid);
                            let warn: Vec<&(ObjectId, &Event)> = evs
                                .iter()
                                .filter(|(_, e)| {
                                    e.is_warning() || e.reason == "ExternalProvisioning" || e.reason == "WaitForFirstConsumer"
                                })
                                .collect();
                            evidence.extend(pod_findings::last_events(snap, &warn, 1));
                        }
                        (state, detail)
                    }
                    None => (ClaimState::Unknown, String::new()),
                },
                Presence::Absent => {
                    evidence.push(note(pod_findings::describe_presence("PersistentVolumeClaim", ns, &name, Presence::Absent)));
                    (ClaimState::Missing, String::new())
                }
                p @ Presence::Unlisted => {
                    evidence.push(note(pod_findings::describe_presence("PersistentVolumeClaim", ns, &name, p)));
                    (ClaimState::Unknown, String::new())
                }
                Presence::NotCollected => (ClaimState::Unknown, String::new()),
            };
            Claim {
                name,
                state,
                detail,
                evidence,
            }
        })
        .collect()
}

/// The StorageClass marked default.
fn default_class(snap: &Snapshot) -> Option<String> {
    snap.storage_classes()
        .iter()
        .find(|(_, s)| {
            s.metadata
                .annotation("storageclass.kubernetes.io/is-default-class")
                .is_some_and(|v| v == "true")
        })
        .map(|(_, s)| s.metadata.name.to_string())
}

//! `creation/statefulset-ordinal`: a StatefulSet that stopped creating pods at one
//! ordinal. The note other rules add when a stuck pod blocks later ordinals is
//! [`crate::rules::statefulset_ordinals::blocked_note`].

use crate::declare_rule;
use crate::rules::evidence;
use crate::rules::pod_findings::{self, note};
use crate::rules::reach::Reach;
use crate::rules::statefulset_ordinals::{ordered, ordinal_list, pods_by_ordinal};
use crate::rules::{Context, Finding, Severity, Stage};

declare_rule! {
    /// Finds a StatefulSet whose next ordinal was never created while the lower ones are Ready.
    ///
    /// With `podManagementPolicy: OrderedReady` (the default) the controller creates
    /// ordinal N only after N-1 is Running and Ready, and replaces a pod only after the
    /// old one is gone. When a lower ordinal is stuck, the rule that explains that pod says
    /// which ordinals wait behind it; this rule reports the remaining case: the lower
    /// ordinals are Ready (or the policy is Parallel), the controller counts fewer pods
    /// than wanted, and the bundle holds no FailedCreate event saying why (events expire
    /// after about an hour). Look at the StatefulSet's events and the controller manager.
    pub static STATEFULSET_ORDINAL = {
        id: "creation/statefulset-ordinal",
        stage: Stage::Creation,
        severity: Severity::Warning,
        fallback: false,
        // Local: each StatefulSet with its pods and Events.
        reach: Reach::Local,
        run: run,
    };
}

fn run(ctx: &Context) -> Vec<Finding> {
    let snap = ctx.snapshot;
    let mut out = Vec::new();
    for (sid, sts) in snap.stateful_sets() {
        let desired = sts.spec.desired();
        if desired <= 0 || sts.status.replicas >= desired {
            continue;
        }
        let o = snap.object(*sid);
        let ns = o.namespace.as_deref();
        // Without pods of this namespace the bundle cannot tell which ordinal is missing.
        if !snap
            .ids_of("Pod")
            .iter()
            .any(|&p| snap.object(p).namespace.as_deref() == ns)
        {
            continue;
        }
        let by_ord = pods_by_ordinal(snap, *sid);
        let Some(k) = (0..desired).find(|o| !by_ord.contains_key(o)) else {
            continue;
        };
        let lower_ok = by_ord.range(..k).all(|(_, id)| {
            snap.pod(*id)
                .is_some_and(|p| p.is_ready() && p.metadata.deletion_timestamp.is_none())
        });
        if ordered(sts) && !lower_ok {
            continue; // the stuck lower ordinal explains it (see blocked_note)
        }
        let events = snap.events_for(*sid);
        if events.iter().any(|(_, e)| e.reason == "FailedCreate") {
            continue; // creation/failed-create reports it
        }
        let missing: Vec<i64> = (0..desired).filter(|o| !by_ord.contains_key(o)).collect();
        let ready: Vec<String> = by_ord
            .iter()
            .filter(|(_, id)| snap.pod(**id).is_some_and(|p| p.is_ready()))
            .map(|(_, id)| snap.object(*id).name.clone())
            .collect();
        let mut ev = vec![evidence::field(
            snap,
            *sid,
            &["status"],
            format!(
                "spec.replicas {desired}, status.replicas {}, readyReplicas {}",
                sts.status.replicas, sts.status.ready_replicas
            ),
        )];
        let warnings: Vec<_> = events.iter().filter(|(_, e)| e.is_warning()).collect();
        ev.extend(pod_findings::last_events(snap, &warnings, 2));
        if warnings.is_empty() {
            ev.push(note("no Warning event about the StatefulSet in the bundle"));
        }
        let message = format!(
            "StatefulSet wants {desired} pods but {} {} not exist{}; the bundle holds no FailedCreate event saying why (events expire after about an hour)",
            ordinal_list(&o.name, &missing),
            if missing.len() == 1 { "does" } else { "do" },
            if ready.is_empty() {
                String::new()
            } else {
                format!(
                    " while {} {} Ready",
                    ready.join(", "),
                    if ready.len() == 1 { "is" } else { "are" }
                )
            }
        );
        out.push(Finding::new(
            &STATEFULSET_ORDINAL,
            Severity::Warning,
            o.reference(),
            "missing-ordinal",
            message,
            ev,
            "look at the StatefulSet's recent events (kubectl describe statefulset) and the kube-controller-manager log; a missing PVC, quota or webhook usually stops creation".into(),
            Vec::new(),
        ));
    }
    out
}

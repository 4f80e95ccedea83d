//! What `get` needs read of a bundle (see `crate::ingest::want`): the objects it shows
//! (a table's columns need nothing else), so that ingest reads only the files that can
//! hold them. What it cannot tell before reading (a kind named only by a CRD, `--redact`,
//! which masks names found in the whole bundle) is a full read.
//!
//! `describe KIND/NAME -n NS` reads NS and the cluster scope when no rule could weigh
//! other namespaces for the object (a node's free cpu counts the pods of every namespace
//! on it; a ClusterQueue's usage, the workloads of every namespace), else everything:
//! see `crate::cli::describe` and `crate::rules::reach`.

use super::GetQuery;
use super::get_request::Request;
use super::lookup::known_kind;
use crate::ingest::Want;
use crate::rules::platform::MCO_DEPLOYMENT as MCO;

/// `get KIND[,KIND] [NAME...]`: the objects of each kind in the namespace asked (every
/// namespace with `-A`). Named objects are read in the namespace `-n` names (in every
/// namespace without it); [`for_get_names_everywhere`] reads them in every namespace when
/// one is not there, to say where it is. A table's columns need nothing else.
pub fn for_get(request: &Request, query: &GetQuery) -> Want {
    for_get_names(request, query, false)
}

/// [`for_get`] with named objects read in every namespace; `None` when no object is named.
pub fn for_get_names_everywhere(request: &Request, query: &GetQuery) -> Option<Want> {
    (request.named() > 0).then(|| for_get_names(request, query, true))
}

fn for_get_names(request: &Request, query: &GetQuery, names_everywhere: bool) -> Want {
    if query.redact {
        return Want::all();
    }
    let mut want = Want::nothing();
    for (typed, names) in &request.targets {
        let Some((kind, cluster_scoped)) = known_kind(typed) else {
            return Want::all();
        };
        if !names.is_empty() {
            let namespace = match query.namespace.as_deref() {
                Some(ns) if !cluster_scoped && !query.all_namespaces && !names_everywhere => {
                    Some(ns)
                }
                _ => None,
            };
            for name in names {
                want = want.objects(kind, namespace, Some(name));
            }
            continue;
        }
        let namespace = if cluster_scoped || query.all_namespaces {
            None
        } else {
            Some(query.namespace.as_deref().unwrap_or("default"))
        };
        want = want.objects(kind, namespace, None);
    }
    want
}

/// What `get` reads of a lone kind's objects in other namespaces too, to count them when
/// none is in the namespace asked; `None` when it read them already.
pub fn for_get_elsewhere(request: &Request, query: &GetQuery) -> Option<Want> {
    let [(typed, _)] = request.targets.as_slice() else {
        return None;
    };
    let narrowed = for_get(request, query);
    let (kind, _) = known_kind(typed)?;
    let everywhere = Want::nothing().objects(kind, None, None);
    (!narrowed.is_all() && narrowed != everywhere).then_some(everywhere)
}

/// `logs POD [-n NS]`: the pod and its logs, in `namespace`, or in every namespace (`-n`
/// left out, or to say where the pod is when `-n` named another namespace).
pub fn for_logs(pod: &str, namespace: Option<&str>) -> Want {
    let want = Want::nothing().objects("Pod", namespace, Some(pod));
    match namespace {
        Some(ns) => want.logs_of(ns, pod),
        None => want.logs_of_pod(pod),
    }
}

/// `describe KIND/NAME -n NS` read from the namespace alone: that namespace (its objects
/// and logs), every cluster-scoped object and the Events of `default` (those of
/// cluster-scoped objects), the machine-config operator's Deployment, and the kind's
/// files kept to say where else the name is. `None` when a full read must answer: a
/// cluster-scoped or unknown kind, no `-n`, `--redact` (it masks names of the whole bundle).
pub fn for_describe(typed: &str, namespace: Option<&str>, redact: bool) -> Option<Want> {
    const COUNTED: [&str; 2] = ["Workload", "LocalQueue"];
    let (kind, cluster_scoped) = known_kind(typed)?;
    let ns = namespace?;
    if cluster_scoped || redact {
        return None;
    }
    let mut want = Want::nothing()
        .namespace(ns)
        .logs_in(ns)
        .cluster_scope()
        .objects("Event", Some("default"), None)
        .objects("Deployment", Some(MCO.0), Some(MCO.1))
        .sparing(kind);
    // The Kueue rules ask whether the bundle holds Workloads and LocalQueues whenever they
    // run: their files everywhere are read for that at once, sparing a second read.
    for kind in COUNTED {
        want = want.counting(kind);
    }
    Some(want)
}

//! What `get` needs read of a bundle (see `kdiag::ingest::want`): the objects it shows
//! (a table's columns need nothing else), so that ingest reads only the files that can
//! hold them. What it cannot tell before reading (a kind named only by a CRD, `--redact`,
//! which masks names found in the whole bundle) is a full read.
//!
//! `describe KIND/NAME -n NS` reads NS and the cluster scope when no rule could weigh
//! other namespaces for the object (a node's free cpu counts the pods of every namespace
//! on it; a ClusterQueue's usage, the workloads of every namespace), else everything:
//! see `describe.rs` and `kdiag::rules::reach`.

use super::GetArgs;
use super::get_request::Request;
use super::lookup::known_kind;
use kdiag::ingest::Want;

/// `get KIND[,KIND] [NAME...]`: the objects of each kind in the namespace asked (every
/// namespace with `-A`). Named objects are read in the namespace `-n` names (in every
/// namespace without it); [`for_get_names_everywhere`] reads them in every namespace when
/// one is not there, to say where it is. A table's columns need nothing else.
pub(super) fn for_get(request: &Request, args: &GetArgs) -> Want {
    for_get_names(request, args, false)
}

/// [`for_get`] with named objects read in every namespace; `None` when no object is named.
pub(super) fn for_get_names_everywhere(request: &Request, args: &GetArgs) -> Option<Want> {
    (request.named() > 0).then(|| for_get_names(request, args, true))
}

fn for_get_names(request: &Request, args: &GetArgs, names_everywhere: bool) -> Want {
    if args.redact {
        return Want::all();
    }
    let mut want = Want::nothing();
    for (typed, names) in &request.targets {
        let Some((kind, cluster_scoped)) = known_kind(typed) else {
            return Want::all();
        };
        if !names.is_empty() {
            let namespace = match args.namespace.as_deref() {
                Some(ns) if !cluster_scoped && !args.all_namespaces && !names_everywhere => {
                    Some(ns)
                }
                _ => None,
            };
            for name in names {
                want = want.objects(kind, namespace, Some(name));
            }
            continue;
        }
        let namespace = if cluster_scoped || args.all_namespaces {
            None
        } else {
            Some(args.namespace.as_deref().unwrap_or("default"))
        };
        want = want.objects(kind, namespace, None);
    }
    want
}

/// What `get` reads of a lone kind's objects in other namespaces too, to count them when
/// none is in the namespace asked; `None` when it read them already.
pub(super) fn for_get_elsewhere(request: &Request, args: &GetArgs) -> Option<Want> {
    let [(typed, _)] = request.targets.as_slice() else {
        return None;
    };
    let narrowed = for_get(request, args);
    let (kind, _) = known_kind(typed)?;
    let everywhere = Want::nothing().objects(kind, None, None);
    (!narrowed.is_all() && narrowed != everywhere).then_some(everywhere)
}

/// `logs POD [-n NS]`: the pod and its logs, in `namespace`, or in every namespace (`-n`
/// left out, or to say where the pod is when `-n` named another namespace).
pub(super) fn for_logs(pod: &str, namespace: Option<&str>) -> Want {
    let want = Want::nothing().objects("Pod", namespace, Some(pod));
    match namespace {
        Some(ns) => want.logs_of(ns, pod),
        None => want.logs_of_pod(pod),
    }
}

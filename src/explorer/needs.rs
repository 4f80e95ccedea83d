//! What `get` needs read of a bundle (see `kdiag::ingest::want`): the objects it shows
//! (a table's columns need nothing else), so that ingest reads only the files that can
//! hold them. What it cannot tell before reading (a kind named only by a CRD, `--redact`,
//! which masks names found in the whole bundle) is a full read.
//!
//! `describe` reads the whole bundle: its findings section is the rules' findings, and
//! they weigh objects of every namespace (a node's free cpu counts the pods of every
//! namespace on it; a ClusterQueue's usage, the workloads of every namespace).

use super::GetArgs;
use super::lookup::known_kind;
use kdiag::ingest::Want;

/// `get KIND[/NAME]`: the objects of the kind in the namespace asked (every namespace
/// with `-A`, or for a name without `-n`). A table's columns need nothing else.
pub(super) fn for_get(args: &GetArgs) -> Want {
    let (typed, name) = match args.target.split_once('/') {
        Some((k, n)) => (k, Some(n)),
        None => (args.target.as_str(), None),
    };
    let Some((kind, cluster_scoped)) = known_kind(typed).filter(|_| !args.redact) else {
        return Want::all();
    };
    let namespace = if cluster_scoped || args.all_namespaces {
        None
    } else if name.is_some() {
        args.namespace.as_deref()
    } else {
        Some(args.namespace.as_deref().unwrap_or("default"))
    };
    Want::nothing().objects(kind, namespace, name)
}

/// What `get` read of the kind's objects in other namespaces too, to count them when
/// none is in the namespace asked; `None` when it read them already.
pub(super) fn for_get_elsewhere(args: &GetArgs) -> Option<Want> {
    let narrowed = for_get(args);
    let (typed, _) = args.target.split_once('/').unwrap_or((&args.target, ""));
    let (kind, _) = known_kind(typed)?;
    let everywhere = Want::nothing().objects(kind, None, None);
    (!narrowed.is_all() && narrowed != everywhere).then_some(everywhere)
}

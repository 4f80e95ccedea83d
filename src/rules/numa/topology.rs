//! `NodeResourceTopology` (topology.node.k8s.io v1alpha1/v1alpha2, exported by the
//! resource-topology-exporter or NFD): per NUMA zone, the capacity, allocatable and
//! available amount of each resource. Read by hand: zones without numbers are skipped.

use crate::kube::quantity::Quantity;
use crate::kube::requests::scheduler_units;
use crate::snapshot::{ObjectId, Snapshot};
use serde_json::Value;
use std::collections::BTreeMap;

/// One NUMA zone's resources, in scheduler units (millicores for cpu, bytes, units).
#[derive(Clone, Debug, Default)]
pub struct Zone {
    pub name: String,
    /// resource → (allocatable, available)
    pub resources: BTreeMap<String, (i128, i128)>,
}

/// The zones of one node and the object they come from.
#[derive(Clone, Debug)]
pub struct NodeTopology {
    pub id: ObjectId,
    pub zones: Vec<Zone>,
    /// `attributes` such as `topologyManagerPolicy` / `topologyManagerScope` (v1alpha2).
    pub attributes: BTreeMap<String, String>,
}

impl NodeTopology {
    /// The NodeResourceTopology named after `node`, when the bundle has one with zones.
    pub fn of(snap: &Snapshot, node: &str) -> Option<NodeTopology> {
        let id = snap.find("NodeResourceTopology", None, node).or_else(|| {
            snap.ids_of("NodeResourceTopology")
                .iter()
                .copied()
                .find(|&i| snap.object(i).name == node)
        })?;
        let v = &snap.object(id).value();
        let qty = |r: &Value, k: &str, res: &str| -> Option<i128> {
            let q = match r.get(k)? {
                Value::String(s) => Quantity::parse(s).ok()?,
                Value::Number(n) => Quantity::parse(&n.to_string()).ok()?,
                _ => return None,
            };
            Some(scheduler_units(res, q))
        };
        let zones: Vec<Zone> = v
            .get("zones")
            .and_then(Value::as_array)
            .map(|zs| {
                zs.iter()
                    .filter(|z| {
                        z.get("type")
                            .and_then(Value::as_str)
                            .is_none_or(|t| t == "Node")
                    })
                    .map(|z| Zone {
                        name: z
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("?")
                            .to_string(),
                        resources: z
                            .get("resources")
                            .and_then(Value::as_array)
                            .map(|rs| {
                                rs.iter()
                                    .filter_map(|r| {
                                        let name = r.get("name")?.as_str()?.to_string();
                                        let alloc = qty(r, "allocatable", &name)
                                            .or_else(|| qty(r, "capacity", &name))?;
                                        let avail = qty(r, "available", &name)?;
                                        Some((name, (alloc, avail)))
                                    })
                                    .collect()
                            })
                            .unwrap_or_default(),
                    })
                    .filter(|z| !z.resources.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        if zones.is_empty() {
            return None;
        }
        let attributes = v
            .get("attributes")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|e| {
                        Some((
                            e.get("name")?.as_str()?.to_string(),
                            e.get("value")?.as_str()?.to_string(),
                        ))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(NodeTopology {
            id,
            zones,
            attributes,
        })
    }

    /// Zones whose `available` covers every need; `allocatable` instead when `ever`.
    pub fn zones_fitting(&self, need: &BTreeMap<String, i128>, ever: bool) -> Vec<&Zone> {
        self.zones
            .iter()
            .filter(|z| {
                need.iter().all(|(res, n)| {
                    z.resources
                        .get(res)
                        .is_some_and(|(alloc, avail)| if ever { alloc >= n } else { avail >= n })
                })
            })
            .collect()
    }

    /// "node-0 2 cpu, 3Gi memory free; node-1 …" for the resources in `need`.
    pub fn describe(&self, need: &BTreeMap<String, i128>) -> String {
        self.zones
            .iter()
            .map(|z| {
                let parts: Vec<String> = need
                    .keys()
                    .map(|res| match z.resources.get(res) {
                        Some((alloc, avail)) => format!(
                            "{} of {} {res}",
                            crate::kube::requests::display_units(res, *avail),
                            crate::kube::requests::display_units(res, *alloc)
                        ),
                        None => format!("no {res}"),
                    })
                    .collect();
                format!("{} {} available", z.name, parts.join(", "))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

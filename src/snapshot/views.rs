//! Typed views: each kind's objects read once as the type its rules read, sorted by id.

use super::{Object, ObjectId, Snapshot};
use crate::kube::meta::UnreadField;
use crate::kube::{core, event, kueue, network, node, openshift, pod, policy, storage, workload};
use foldhash::HashMap;
use rayon::prelude::*;
use serde::de::DeserializeOwned;
use std::sync::OnceLock;

/// The items that are `Some`, in order, in the vector they were collected into. A
/// filtered parallel iterator has no length, so rayon collects it into pieces and then
/// copies them into one vector: two copies of a view (the Pod view is 72 MB at 1 GB).
/// Here each item is written in its place, the `None`s (views that did not read, rare)
/// are removed in place, and unwrapping reuses the vector.
fn in_order<T: Send>(items: impl IndexedParallelIterator<Item = Option<T>>) -> Vec<T> {
    let mut items: Vec<Option<T>> = items.collect();
    items.retain(Option::is_some);
    items.into_iter().map(Option::unwrap).collect()
}

/// How a view holds each object's value: in place, or in a box of its own. A view read
/// at ingest is already in a box (see [`crate::ingest::early`]); moving 122,000 pods out
/// of theirs into one vector had both copies alive at once, 136 MB each.
struct Holding<T, H> {
    read: fn(&Object) -> Result<H, String>,
    hold: fn(T) -> H,
    get: fn(&H) -> &T,
}

impl<T: DeserializeOwned + 'static> Holding<T, T> {
    const IN_PLACE: Self = Holding {
        read: Object::view::<T>,
        hold: |v| v,
        get: |v| v,
    };
}

impl<T: DeserializeOwned + 'static> Holding<T, Box<T>> {
    const BOXED: Self = Holding {
        read: Object::view_boxed::<T>,
        hold: Box::new,
        get: |v| v,
    };
}

/// Typed views, each materialized once from the objects of one kind.
#[derive(Default)]
pub(super) struct Views {
    /// Boxed: a pod's view is over 1 KB, and ingest reads most of them (see [`Holding`]).
    pods: OnceLock<Vec<(ObjectId, Box<pod::Pod>)>>,
    nodes: OnceLock<Vec<(ObjectId, node::Node)>>,
    events: OnceLock<Vec<(ObjectId, event::Event)>>,
    namespaces: OnceLock<Vec<(ObjectId, core::Namespace)>>,
    secrets: OnceLock<Vec<(ObjectId, core::Secret)>>,
    services: OnceLock<Vec<(ObjectId, network::Service)>>,
    endpoint_slices: OnceLock<Vec<(ObjectId, network::EndpointSlice)>>,
    endpoints: OnceLock<Vec<(ObjectId, network::Endpoints)>>,
    ingresses: OnceLock<Vec<(ObjectId, network::Ingress)>>,
    pvcs: OnceLock<Vec<(ObjectId, storage::PersistentVolumeClaim)>>,
    pvs: OnceLock<Vec<(ObjectId, storage::PersistentVolume)>>,
    storage_classes: OnceLock<Vec<(ObjectId, storage::StorageClass)>>,
    jobs: OnceLock<Vec<(ObjectId, workload::Job)>>,
    deployments: OnceLock<Vec<(ObjectId, workload::Deployment)>>,
    replica_sets: OnceLock<Vec<(ObjectId, workload::ReplicaSet)>>,
    stateful_sets: OnceLock<Vec<(ObjectId, workload::StatefulSet)>>,
    daemon_sets: OnceLock<Vec<(ObjectId, workload::DaemonSet)>>,
    workloads: OnceLock<Vec<(ObjectId, kueue::Workload)>>,
    local_queues: OnceLock<Vec<(ObjectId, kueue::LocalQueue)>>,
    cluster_queues: OnceLock<Vec<(ObjectId, kueue::ClusterQueue)>>,
    resource_flavors: OnceLock<Vec<(ObjectId, kueue::ResourceFlavor)>>,
    cohorts: OnceLock<Vec<(ObjectId, kueue::Cohort)>>,
    admission_checks: OnceLock<Vec<(ObjectId, kueue::AdmissionCheck)>>,
    workload_priority_classes: OnceLock<Vec<(ObjectId, kueue::WorkloadPriorityClass)>>,
    resource_quotas: OnceLock<Vec<(ObjectId, policy::ResourceQuota)>>,
    limit_ranges: OnceLock<Vec<(ObjectId, policy::LimitRange)>>,
    service_accounts: OnceLock<Vec<(ObjectId, policy::ServiceAccount)>>,
    config_maps: OnceLock<Vec<(ObjectId, policy::ConfigMap)>>,
    priority_classes: OnceLock<Vec<(ObjectId, policy::PriorityClass)>>,
    ingress_classes: OnceLock<Vec<(ObjectId, network::IngressClass)>>,
    pod_disruption_budgets: OnceLock<Vec<(ObjectId, policy::PodDisruptionBudget)>>,
    cluster_versions: OnceLock<Vec<(ObjectId, openshift::ClusterVersion)>>,
    cluster_operators: OnceLock<Vec<(ObjectId, openshift::ClusterOperator)>>,
    machine_config_pools: OnceLock<Vec<(ObjectId, openshift::MachineConfigPool)>>,
    machine_configs: OnceLock<Vec<(ObjectId, openshift::MachineConfig)>>,
    pub(super) events_by_object: OnceLock<HashMap<ObjectId, Vec<ObjectId>>>,
}

impl Snapshot {
    /// Materializes objects of `kind` as `T` without caching, for a view that only one
    /// rule reads (prefer a cached accessor for views several rules share).
    pub fn deserialize_all<T: DeserializeOwned>(&self, kind: &str) -> Vec<(ObjectId, T)> {
        self.ids_of(kind)
            .iter()
            .filter_map(|&id| self.object(id).deserialize::<T>().ok().map(|v| (id, v)))
            .collect()
    }

    fn typed<'a, T: DeserializeOwned + Send + Sync + 'static>(
        &'a self,
        cell: &'a OnceLock<Vec<(ObjectId, T)>>,
        kind: &str,
    ) -> &'a [(ObjectId, T)] {
        self.typed_checked(cell, kind, |_, _| {})
    }

    /// [`Self::typed`] for a view whose values can read and still not be usable (a
    /// quantity `1.5.5Gi`): `unread` lists them, each becoming a problem as a field that
    /// does not read. Asked of every view as it is built, not in a pass of its own.
    fn typed_checked<'a, T: DeserializeOwned + Send + Sync + 'static>(
        &'a self,
        cell: &'a OnceLock<Vec<(ObjectId, T)>>,
        kind: &str,
        unread: fn(&T, &mut Vec<UnreadField>),
    ) -> &'a [(ObjectId, T)] {
        self.typed_held(cell, kind, unread, Holding::IN_PLACE)
    }

    /// [`Self::typed_checked`] with each value held as `holding` says.
    fn typed_held<'a, T: DeserializeOwned + Send + Sync + 'static, H: Send + Sync>(
        &'a self,
        cell: &'a OnceLock<Vec<(ObjectId, H)>>,
        kind: &str,
        unread: fn(&T, &mut Vec<UnreadField>),
        holding: Holding<T, H>,
    ) -> &'a [(ObjectId, H)] {
        cell.get_or_init(|| {
            let started = std::time::Instant::now();
            let view = in_order(self.ids_of(kind).par_iter().map(|&id| {
                let o = self.object(id);
                let e = match (holding.read)(o) {
                    Ok(v) => {
                        let mut fields = Vec::new();
                        unread((holding.get)(&v), &mut fields);
                        self.report_unread(id, fields);
                        return Some((id, v));
                    }
                    Err(e) => e,
                };
                let Ok((v, mut odd)) = o.view_without_odd_fields::<T>() else {
                    let at = (
                        o.sources[0].file,
                        o.sources[0].span.start,
                        o.kind.as_str(),
                        id,
                    );
                    self.odd.add(at, "", Vec::new(), e);
                    return None;
                };
                unread(&v, &mut odd);
                self.report_unread(id, odd);
                Some((id, (holding.hold)(v)))
            }));
            if std::env::var_os("KDIAG_STATS").is_some() {
                let took = started.elapsed().as_secs_f64();
                let rss = crate::process_stats::rss_mib().unwrap_or(0);
                crate::err_line!("kdiag stats: view {kind} {took:.3}s (RSS then {rss} MiB)");
            }
            view
        })
    }

    /// A problem for each field of object `id` that does not read, naming its line:
    /// grouped with the same field's of the other objects of its file.
    fn report_unread(&self, id: ObjectId, fields: Vec<UnreadField>) {
        if fields.is_empty() {
            return;
        }
        let o = self.object(id);
        let at = (
            o.sources[0].file,
            o.sources[0].span.start,
            o.kind.as_str(),
            id,
        );
        for f in fields {
            self.odd.add(at, &f.path, f.steps, f.message);
        }
    }

    /// Looks up one typed object by id in a view (views are sorted by id).
    pub fn view_of<T>(items: &[(ObjectId, T)], id: ObjectId) -> Option<&T> {
        items
            .binary_search_by_key(&id, |(i, _)| *i)
            .ok()
            .map(|i| &items[i].1)
    }

    pub fn pods(&self) -> &[(ObjectId, Box<pod::Pod>)] {
        self.typed_held(
            &self.views.pods,
            "Pod",
            pod::Pod::unread_quantities,
            Holding::BOXED,
        )
    }
    pub fn nodes(&self) -> &[(ObjectId, node::Node)] {
        self.typed_checked(&self.views.nodes, "Node", node::Node::unread_quantities)
    }
    pub fn namespaces(&self) -> &[(ObjectId, core::Namespace)] {
        self.typed(&self.views.namespaces, "Namespace")
    }
    pub fn secrets(&self) -> &[(ObjectId, core::Secret)] {
        self.typed(&self.views.secrets, "Secret")
    }
    pub fn services(&self) -> &[(ObjectId, network::Service)] {
        self.typed(&self.views.services, "Service")
    }
    pub fn endpoint_slices(&self) -> &[(ObjectId, network::EndpointSlice)] {
        self.typed(&self.views.endpoint_slices, "EndpointSlice")
    }
    pub fn endpoints(&self) -> &[(ObjectId, network::Endpoints)] {
        self.typed(&self.views.endpoints, "Endpoints")
    }
    pub fn ingresses(&self) -> &[(ObjectId, network::Ingress)] {
        self.typed(&self.views.ingresses, "Ingress")
    }
    pub fn pvcs(&self) -> &[(ObjectId, storage::PersistentVolumeClaim)] {
        self.typed(&self.views.pvcs, "PersistentVolumeClaim")
    }
    pub fn pvs(&self) -> &[(ObjectId, storage::PersistentVolume)] {
        self.typed(&self.views.pvs, "PersistentVolume")
    }
    pub fn storage_classes(&self) -> &[(ObjectId, storage::StorageClass)] {
        self.typed(&self.views.storage_classes, "StorageClass")
    }
    pub fn jobs(&self) -> &[(ObjectId, workload::Job)] {
        self.typed(&self.views.jobs, "Job")
    }
    pub fn deployments(&self) -> &[(ObjectId, workload::Deployment)] {
        self.typed(&self.views.deployments, "Deployment")
    }
    pub fn replica_sets(&self) -> &[(ObjectId, workload::ReplicaSet)] {
        self.typed(&self.views.replica_sets, "ReplicaSet")
    }
    pub fn stateful_sets(&self) -> &[(ObjectId, workload::StatefulSet)] {
        self.typed(&self.views.stateful_sets, "StatefulSet")
    }
    pub fn daemon_sets(&self) -> &[(ObjectId, workload::DaemonSet)] {
        self.typed(&self.views.daemon_sets, "DaemonSet")
    }

    pub fn workloads(&self) -> &[(ObjectId, kueue::Workload)] {
        self.typed_checked(
            &self.views.workloads,
            "Workload",
            kueue::Workload::unread_quantities,
        )
    }
    pub fn local_queues(&self) -> &[(ObjectId, kueue::LocalQueue)] {
        self.typed(&self.views.local_queues, "LocalQueue")
    }
    pub fn cluster_queues(&self) -> &[(ObjectId, kueue::ClusterQueue)] {
        self.typed_checked(
            &self.views.cluster_queues,
            "ClusterQueue",
            kueue::ClusterQueue::unread_quantities,
        )
    }
    pub fn resource_flavors(&self) -> &[(ObjectId, kueue::ResourceFlavor)] {
        self.typed(&self.views.resource_flavors, "ResourceFlavor")
    }
    pub fn cohorts(&self) -> &[(ObjectId, kueue::Cohort)] {
        self.typed(&self.views.cohorts, "Cohort")
    }
    pub fn admission_checks(&self) -> &[(ObjectId, kueue::AdmissionCheck)] {
        self.typed(&self.views.admission_checks, "AdmissionCheck")
    }
    pub fn workload_priority_classes(&self) -> &[(ObjectId, kueue::WorkloadPriorityClass)] {
        self.typed(
            &self.views.workload_priority_classes,
            "WorkloadPriorityClass",
        )
    }
    pub fn resource_quotas(&self) -> &[(ObjectId, policy::ResourceQuota)] {
        self.typed_checked(
            &self.views.resource_quotas,
            "ResourceQuota",
            policy::ResourceQuota::unread_quantities,
        )
    }
    pub fn limit_ranges(&self) -> &[(ObjectId, policy::LimitRange)] {
        self.typed_checked(
            &self.views.limit_ranges,
            "LimitRange",
            policy::LimitRange::unread_quantities,
        )
    }
    pub fn service_accounts(&self) -> &[(ObjectId, policy::ServiceAccount)] {
        self.typed(&self.views.service_accounts, "ServiceAccount")
    }
    pub fn config_maps(&self) -> &[(ObjectId, policy::ConfigMap)] {
        self.typed(&self.views.config_maps, "ConfigMap")
    }
    pub fn priority_classes(&self) -> &[(ObjectId, policy::PriorityClass)] {
        self.typed(&self.views.priority_classes, "PriorityClass")
    }
    pub fn ingress_classes(&self) -> &[(ObjectId, network::IngressClass)] {
        self.typed(&self.views.ingress_classes, "IngressClass")
    }
    pub fn pod_disruption_budgets(&self) -> &[(ObjectId, policy::PodDisruptionBudget)] {
        self.typed(&self.views.pod_disruption_budgets, "PodDisruptionBudget")
    }
    pub fn cluster_versions(&self) -> &[(ObjectId, openshift::ClusterVersion)] {
        self.typed(&self.views.cluster_versions, "ClusterVersion")
    }
    pub fn cluster_operators(&self) -> &[(ObjectId, openshift::ClusterOperator)] {
        self.typed(&self.views.cluster_operators, "ClusterOperator")
    }
    pub fn machine_config_pools(&self) -> &[(ObjectId, openshift::MachineConfigPool)] {
        self.typed(&self.views.machine_config_pools, "MachineConfigPool")
    }
    pub fn machine_configs(&self) -> &[(ObjectId, openshift::MachineConfig)] {
        self.typed(&self.views.machine_configs, "MachineConfig")
    }

    pub fn pod(&self, id: ObjectId) -> Option<&pod::Pod> {
        Self::view_of(self.pods(), id).map(|p| &**p)
    }
    /// The pods of one namespace (`None`: those without one): a range of [`Self::pods`],
    /// which is sorted by namespace, so a rule asking per pod does not walk every pod.
    pub fn pods_in_namespace(&self, namespace: Option<&str>) -> &[(ObjectId, Box<pod::Pod>)] {
        let pods = self.pods();
        let ns_of = |(id, _): &(ObjectId, Box<pod::Pod>)| self.object(*id).namespace.as_deref();
        let start = pods.partition_point(|p| ns_of(p) < namespace);
        let len = pods[start..].partition_point(|p| ns_of(p) == namespace);
        &pods[start..start + len]
    }
    pub fn node_named(&self, name: &str) -> Option<(ObjectId, &node::Node)> {
        let id = self.find("Node", None, name)?;
        Self::view_of(self.nodes(), id).map(|n| (id, n))
    }

    /// Builds the views that most rules read, side by side, before the rules run. A rule
    /// that needs a view another rule is building waits for it, blocked instead of helping
    /// build it: with the views built inside the rules, one core sat idle.
    pub fn prepare_views(&self) {
        rayon::scope(|s| {
            s.spawn(|_| {
                self.pods();
            });
            s.spawn(|_| {
                self.events();
            });
            s.spawn(|_| {
                self.replica_sets();
                self.deployments();
                self.jobs();
            });
            s.spawn(|_| {
                self.nodes();
                self.services();
                self.endpoint_slices();
                self.workloads();
            });
        });
    }

    /// Events of both API groups, normalized.
    pub fn events(&self) -> &[(ObjectId, event::Event)] {
        self.views.events.get_or_init(|| {
            in_order(self.ids_of("Event").par_iter().map(|&id| {
                let doc = self.object(id).view::<event::EventDoc>().ok()?;
                Some((id, doc.0?))
            }))
        })
    }
}

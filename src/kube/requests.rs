//! The effective resource request of a pod, as the scheduler and the kubelet count it
//! (`PodRequests` in k8s.io/component-helpers `resource/helpers.go`; reference §2.6):
//!
//! 1. the sum of the regular containers' requests;
//! 2. init containers in order: a restartable init container (sidecar,
//!    `restartPolicy: Always`) is added to that sum and to a running sidecar total; a
//!    normal init container needs its own requests plus the sidecars started before it;
//!    the pod needs, per resource, the larger of (1)+sidecars and the largest init need;
//! 3. pod-level `spec.resources.requests` replaces the result for `cpu`, `memory` and
//!    `hugepages-*` only (other resources still come from the containers);
//! 4. `spec.overhead` is added.
//!
//! A container that sets a limit but no request for a resource requests its limit (API
//! defaulting does this for pods; controller templates in a bundle are not defaulted).
//! Kueue counts a podset's template the same way, with the differences [`Counter`] names.

use crate::kube::meta::ResourceList;
use crate::kube::pod::{Container, PodSpec};
use crate::kube::quantity::Quantity;
use std::collections::BTreeMap;

/// Requests in scheduler units (millicores for cpu, whole units otherwise).
pub type Units = BTreeMap<String, i128>;

/// Who counts a pod's requests. The aggregation (containers, init containers, sidecars,
/// pod-level resources, overhead) is the same; what stands in for a value the pod does
/// not set differs.
#[derive(Clone, Copy, Debug)]
pub enum Counter<'a> {
    /// The scheduler and the kubelet, reading a pod API defaulting has filled in: a
    /// container's readable request, else its readable limit; a pod-level limit stands
    /// in for an absent pod-level request.
    Scheduler,
    /// Kueue, reading a podset's template, which nothing has defaulted: a container's
    /// request, else its limit, else the namespace's LimitRange default request, else
    /// its default limit; the first of these that is set counts (when it does not read,
    /// the request is unknown and left out, never taken from the next); pod-level
    /// limits do not stand in for requests.
    Kueue {
        default_requests: &'a ResourceList,
        default_limits: &'a ResourceList,
    },
}

/// Resource name → effective request of the pod, as the scheduler counts it (zero
/// requests are left out).
pub fn effective_requests(spec: &PodSpec) -> BTreeMap<String, Quantity> {
    requests_counted(spec, Counter::Scheduler)
}

/// Resource name → effective request of the pod as `counter` counts it (zero requests
/// are left out).
pub fn requests_counted(spec: &PodSpec, counter: Counter) -> BTreeMap<String, Quantity> {
    let mut reqs = aggregate(spec, |c| container_requests(c, counter));
    if let Some(pod_level) = &spec.resources {
        for (name, q) in &pod_level.requests {
            if is_pod_level_resource(name)
                && let Some(v) = q.value
            {
                reqs.insert(name.to_string(), v);
            }
        }
        // Pod-level limits without requests: API defaulting makes the request equal the limit.
        if let Counter::Scheduler = counter {
            for (name, q) in &pod_level.limits {
                if is_pod_level_resource(name)
                    && !pod_level.requests.contains_key(name)
                    && let Some(v) = q.value
                {
                    reqs.insert(name.to_string(), v);
                }
            }
        }
    }
    add(&mut reqs, &quantities(&spec.overhead));
    reqs.retain(|_, q| !q.is_zero());
    reqs
}

/// A pod's effective request as the scheduler counts it, in scheduler units.
pub fn pod_units(spec: &PodSpec) -> Units {
    in_units(effective_requests(spec))
}

/// Requests in scheduler units, zeros left out.
pub fn in_units(requests: BTreeMap<String, Quantity>) -> Units {
    requests
        .into_iter()
        .map(|(k, q)| {
            let u = scheduler_units(&k, q);
            (k, u)
        })
        .filter(|(_, u)| *u != 0)
        .collect()
}

/// Resource name → effective limit of the pod (`PodLimits`): containers aggregated as
/// for requests (without requests standing in), pod-level limits replacing `cpu`,
/// `memory` and `hugepages-*`, overhead added to the limits that are set.
pub fn effective_limits(spec: &PodSpec) -> BTreeMap<String, Quantity> {
    let mut limits = aggregate(spec, |c| quantities(&c.resources.limits));
    if let Some(pod_level) = &spec.resources {
        for (name, q) in &pod_level.limits {
            if is_pod_level_resource(name)
                && let Some(v) = q.value
            {
                limits.insert(name.to_string(), v);
            }
        }
    }
    for (name, q) in quantities(&spec.overhead) {
        if let Some(v) = limits.get_mut(&name) {
            *v = v.saturating_add(q);
        }
    }
    limits.retain(|_, q| !q.is_zero());
    limits
}

/// Steps 1 and 2 of the module's rule for one amount of each container.
fn aggregate(
    spec: &PodSpec,
    of: impl Fn(&Container) -> BTreeMap<String, Quantity>,
) -> BTreeMap<String, Quantity> {
    let mut total: BTreeMap<String, Quantity> = BTreeMap::new();
    for c in &spec.containers {
        add(&mut total, &of(c));
    }
    let mut sidecars: BTreeMap<String, Quantity> = BTreeMap::new();
    let mut init_max: BTreeMap<String, Quantity> = BTreeMap::new();
    for c in &spec.init_containers {
        let own = of(c);
        let need = if is_sidecar(c) {
            add(&mut total, &own);
            add(&mut sidecars, &own);
            sidecars.clone()
        } else {
            let mut tmp = own;
            add(&mut tmp, &sidecars);
            tmp
        };
        max_into(&mut init_max, &need);
    }
    max_into(&mut total, &init_max);
    total
}

/// A quantity a pod's effective request rests on that does not read: the request is then
/// unknown, never zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnreadRequest {
    pub resource: String,
    /// `the request for cpu of container app`.
    pub what: String,
    /// `` unreadable (`1.5.5Gi`) `` (see [`crate::kube::meta::Qty::unreadable`]).
    pub why: String,
}

impl UnreadRequest {
    /// `` the request for cpu of container app is unreadable (`1.5.5Gi`) ``.
    pub fn describe(&self) -> String {
        format!("{} is {}", self.what, self.why)
    }
}

/// The values of `spec` that [`effective_requests`] would need and cannot read, in spec
/// order: requests, limits standing in for absent requests, pod-level resources and
/// overhead. A container's value that a readable pod-level value replaces is left out.
pub fn unread_requests(spec: &PodSpec) -> Vec<UnreadRequest> {
    let mut out = Vec::new();
    let pod_level = spec.resources.as_ref();
    let reads = |list: &ResourceList, name: &str| list.get(name).is_some_and(|q| q.value.is_some());
    let replaced = |name: &str| {
        is_pod_level_resource(name)
            && pod_level.is_some_and(|r| {
                reads(&r.requests, name)
                    || (!r.requests.contains_key(name) && reads(&r.limits, name))
            })
    };
    for (kind, containers) in [
        ("container", &spec.containers),
        ("init container", &spec.init_containers),
    ] {
        for c in containers {
            let whose = format!("{kind} {}", c.name);
            let requests = &c.resources.requests;
            unread_in(requests, &mut out, |res| {
                (!replaced(res)).then(|| format!("the request for {res} of {whose}"))
            });
            unread_in(&c.resources.limits, &mut out, |res| {
                (!requests.contains_key(res) && !replaced(res)).then(|| {
                    format!("the limit for {res} of {whose}, which stands in for its request,")
                })
            });
        }
    }
    if let Some(r) = pod_level {
        unread_in(&r.requests, &mut out, |res| {
            is_pod_level_resource(res).then(|| format!("the pod-level request for {res}"))
        });
        unread_in(&r.limits, &mut out, |res| {
            (is_pod_level_resource(res) && !r.requests.contains_key(res))
                .then(|| format!("the pod-level limit for {res}, which stands in for its request,"))
        });
    }
    unread_in(&spec.overhead, &mut out, |res| {
        Some(format!("the overhead for {res}"))
    });
    out
}

/// Pushes the values of `list` that do not read and that `what` names (`None`: the value
/// does not count).
fn unread_in(
    list: &ResourceList,
    out: &mut Vec<UnreadRequest>,
    what: impl Fn(&str) -> Option<String>,
) {
    for (res, q) in list.iter().filter(|(_, q)| q.value.is_none()) {
        if let Some(what) = what(res) {
            out.push(UnreadRequest {
                resource: res.to_string(),
                what,
                why: q.unreadable(),
            });
        }
    }
}

/// A restartable init container (`restartPolicy: Always`): a sidecar that keeps running.
pub fn is_sidecar(c: &Container) -> bool {
    c.restart_policy.as_deref() == Some("Always")
}

/// Resources pod-level `spec.resources` may set (`supportedPodLevelResources`).
pub fn is_pod_level_resource(name: &str) -> bool {
    name == "cpu" || name == "memory" || name.starts_with("hugepages-")
}

/// A quantity in the integer unit the scheduler and kubelet compare: millicores for
/// `cpu` (`MilliValue`), whole units for everything else (`Value`).
pub fn scheduler_units(resource: &str, q: Quantity) -> i128 {
    if resource == "cpu" {
        q.milli_ceil()
    } else {
        q.value_ceil()
    }
}

/// Renders an amount in scheduler units (see [`scheduler_units`]) for people.
pub fn display_units(resource: &str, units: i128) -> String {
    units_quantity(resource, units).display_for(resource)
}

/// [`display_units`] of values compared in one sentence, which never read equal when
/// they differ (see [`Quantity::display_apart`]).
pub fn display_units_apart<const N: usize>(resource: &str, units: [i128; N]) -> [String; N] {
    let values = units.map(|u| units_quantity(resource, u));
    let mut texts = Quantity::display_apart(resource, &values).into_iter();
    std::array::from_fn(|_| texts.next().unwrap_or_default())
}

fn units_quantity(resource: &str, units: i128) -> Quantity {
    if resource == "cpu" {
        Quantity::from_milli(units)
    } else {
        Quantity::from_units(units)
    }
}

/// A container's request for each resource it or `counter`'s defaults name: the first
/// value in [`Counter`]'s order that is set (for the scheduler: that reads).
fn container_requests(c: &Container, counter: Counter) -> BTreeMap<String, Quantity> {
    let (defaults, unread_falls_through) = match counter {
        Counter::Scheduler => ([None, None], true),
        Counter::Kueue {
            default_requests,
            default_limits,
        } => ([Some(default_requests), Some(default_limits)], false),
    };
    let sources: Vec<&ResourceList> = [Some(&c.resources.requests), Some(&c.resources.limits)]
        .into_iter()
        .chain(defaults)
        .flatten()
        .collect();
    let names: std::collections::BTreeSet<&str> = sources
        .iter()
        .flat_map(|list| list.keys().map(|k| k.as_str()))
        .collect();
    let mut out = BTreeMap::new();
    for name in names {
        let q = sources
            .iter()
            .filter_map(|list| list.get(name))
            .find(|q| !unread_falls_through || q.value.is_some())
            .and_then(|q| q.value);
        if let Some(q) = q {
            out.insert(name.to_string(), q);
        }
    }
    out
}

fn quantities(list: &ResourceList) -> BTreeMap<String, Quantity> {
    list.iter()
        .filter_map(|(k, q)| q.value.map(|v| (k.to_string(), v)))
        .collect()
}

fn add(into: &mut BTreeMap<String, Quantity>, other: &BTreeMap<String, Quantity>) {
    for (k, v) in other {
        let e = into.entry(k.clone()).or_default();
        *e = e.saturating_add(*v);
    }
}

fn max_into(into: &mut BTreeMap<String, Quantity>, other: &BTreeMap<String, Quantity>) {
    for (k, v) in other {
        let e = into.entry(k.clone()).or_default();
        if *v > *e {
            *e = *v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::meta::Qty;
    use serde_json::json;

    fn spec(v: serde_json::Value) -> PodSpec {
        serde_json::from_value(v).unwrap()
    }

    fn get(m: &BTreeMap<String, Quantity>, r: &str) -> String {
        m.get(r)
            .map(|q| q.canonical_decimal())
            .unwrap_or_else(|| "-".into())
    }

    #[test]
    fn sums_app_containers() {
        let s = spec(json!({"containers": [
            {"name": "a", "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}},
            {"name": "b", "resources": {"requests": {"cpu": "1.5", "nvidia.com/gpu": "1"}}},
            {"name": "c"}
        ]}));
        let r = effective_requests(&s);
        assert_eq!(get(&r, "cpu"), "2");
        assert_eq!(r["memory"], Quantity::parse("1Gi").unwrap());
        assert_eq!(get(&r, "nvidia.com/gpu"), "1");
    }

    #[test]
    fn init_containers_take_the_max() {
        let s = spec(json!({
            "initContainers": [
                {"name": "big-init", "resources": {"requests": {"cpu": "4", "memory": "64Mi"}}},
                {"name": "small-init", "resources": {"requests": {"cpu": "100m"}}}
            ],
            "containers": [{"name": "app", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]
        }));
        let r = effective_requests(&s);
        assert_eq!(
            get(&r, "cpu"),
            "4",
            "the init container needs more cpu than the app"
        );
        assert_eq!(
            r["memory"],
            Quantity::parse("1Gi").unwrap(),
            "the app needs more memory"
        );
    }

    #[test]
    fn sidecars_add_to_the_app_and_to_later_inits() {
        // sidecar 1 cpu starts first; init needs 2 cpu + the sidecar's 1 = 3;
        // app 1 cpu + sidecar 1 = 2; so the pod needs 3.
        let s = spec(json!({
            "initContainers": [
                {"name": "proxy", "restartPolicy": "Always", "resources": {"requests": {"cpu": "1"}}},
                {"name": "migrate", "resources": {"requests": {"cpu": "2"}}}
            ],
            "containers": [{"name": "app", "resources": {"requests": {"cpu": "1"}}}]
        }));
        assert_eq!(get(&effective_requests(&s), "cpu"), "3");
        // An init container that runs before the sidecar does not add the sidecar.
        let s = spec(json!({
            "initContainers": [
                {"name": "migrate", "resources": {"requests": {"cpu": "2"}}},
                {"name": "proxy", "restartPolicy": "Always", "resources": {"requests": {"cpu": "1"}}}
            ],
            "containers": [{"name": "app", "resources": {"requests": {"cpu": "500m"}}}]
        }));
        assert_eq!(get(&effective_requests(&s), "cpu"), "2");
        // Many sidecars: app + every sidecar.
        let s = spec(json!({
            "initContainers": [
                {"name": "s1", "restartPolicy": "Always", "resources": {"requests": {"cpu": "1"}}},
                {"name": "s2", "restartPolicy": "Always", "resources": {"requests": {"cpu": "1"}}}
            ],
            "containers": [{"name": "app", "resources": {"requests": {"cpu": "2"}}}]
        }));
        assert_eq!(get(&effective_requests(&s), "cpu"), "4");
    }

    #[test]
    fn pod_level_resources_replace_cpu_memory_hugepages_only() {
        let s = spec(json!({
            "resources": {"requests": {"cpu": "2", "memory": "2Gi"}},
            "containers": [
                {"name": "a", "resources": {"requests": {"cpu": "500m", "memory": "512Mi", "nvidia.com/gpu": "1", "ephemeral-storage": "1Gi"}}}
            ]
        }));
        let r = effective_requests(&s);
        assert_eq!(get(&r, "cpu"), "2");
        assert_eq!(r["memory"], Quantity::parse("2Gi").unwrap());
        assert_eq!(
            get(&r, "nvidia.com/gpu"),
            "1",
            "extended resources come from containers"
        );
        assert_eq!(r["ephemeral-storage"], Quantity::parse("1Gi").unwrap());
        // Limits only at pod level: the request defaults to the limit.
        let s = spec(json!({
            "resources": {"limits": {"cpu": "3"}},
            "containers": [{"name": "a"}]
        }));
        assert_eq!(get(&effective_requests(&s), "cpu"), "3");
    }

    #[test]
    fn overhead_and_limit_defaulting() {
        let s = spec(json!({
            "overhead": {"cpu": "250m", "memory": "120Mi"},
            "containers": [{"name": "a", "resources": {"limits": {"cpu": "1", "memory": "1Gi"}}}]
        }));
        let r = effective_requests(&s);
        assert_eq!(get(&r, "cpu"), "1250m");
        assert_eq!(
            r["memory"],
            Quantity::parse("1Gi").unwrap() + Quantity::parse("120Mi").unwrap()
        );
        // Explicit requests win over limits.
        let s = spec(json!({"containers": [{"name": "a", "resources": {
            "requests": {"cpu": "100m"}, "limits": {"cpu": "2"}}}]}));
        assert_eq!(get(&effective_requests(&s), "cpu"), "100m");
    }

    #[test]
    fn empty_and_odd_specs() {
        assert!(effective_requests(&PodSpec::default()).is_empty());
        let s = spec(
            json!({"containers": [{"name": "a", "resources": {"requests": {"cpu": "lots", "memory": "0"}}}]}),
        );
        assert!(
            effective_requests(&s).is_empty(),
            "unparsable and zero requests are dropped"
        );
    }

    /// Each value the effective request rests on and cannot read is named, never zero;
    /// values that do not count (a limit under a request, a container value a pod-level
    /// one replaces) are not.
    #[test]
    fn unread_requests_name_the_value() {
        let s = spec(json!({
            "initContainers": [{"name": "init", "resources": {"limits": {"memory": "1KiB"}}}],
            "containers": [
                {"name": "app", "resources": {"requests": {"cpu": "1.5.5Gi", "memory": "64Mi"}, "limits": {"cpu": "NaN"}}},
                {"name": "big", "resources": {"requests": {"nvidia.com/gpu": "100Ei"}}}
            ],
            "overhead": {"cpu": "0x10"}
        }));
        let words: Vec<String> = unread_requests(&s)
            .iter()
            .map(UnreadRequest::describe)
            .collect();
        assert_eq!(
            words,
            [
                "the request for cpu of container app is unreadable (`1.5.5Gi`)",
                "the request for nvidia.com/gpu of container big is too large to count (`100Ei`)",
                "the limit for memory of init container init, which stands in for its request, is unreadable (`1KiB`)",
                "the overhead for cpu is unreadable (`0x10`)",
            ]
        );
        let r = effective_requests(&s);
        assert_eq!(get(&r, "memory"), "67108864", "what reads still counts");
        // A readable pod-level cpu replaces the containers' cpu.
        let s = spec(json!({
            "resources": {"requests": {"cpu": "2", "memory": "x"}},
            "containers": [{"name": "a", "resources": {"requests": {"cpu": "y", "memory": "z"}}}]
        }));
        let words: Vec<String> = unread_requests(&s)
            .iter()
            .map(UnreadRequest::describe)
            .collect();
        assert_eq!(
            words,
            [
                "the request for memory of container a is unreadable (`z`)",
                "the pod-level request for memory is unreadable (`x`)",
            ]
        );
        let long: Qty = serde_json::from_value(json!("9".repeat(50) + "x")).unwrap();
        assert_eq!(
            long.unreadable(),
            format!("unreadable (`{}…`)", "9".repeat(40))
        );
        let empty: Qty = serde_json::from_value(json!("")).unwrap();
        assert_eq!(empty.unreadable(), "empty");
    }

    /// Kueue's count differs from the scheduler's only in what stands in for a value the
    /// template does not set or cannot read.
    #[test]
    fn kueue_counts_limit_range_defaults_and_no_fall_through() {
        let defaults: ResourceList =
            serde_json::from_value(json!({"cpu": "200m", "memory": "64Mi"})).unwrap();
        let none = ResourceList::default();
        let kueue = |default_requests| Counter::Kueue {
            default_requests,
            default_limits: &none,
        };
        let s = spec(
            json!({"containers": [{"name": "a", "resources": {"requests": {"memory": "1Gi"}}}]}),
        );
        let r = requests_counted(&s, kueue(&defaults));
        assert_eq!(
            get(&r, "cpu"),
            "200m",
            "the LimitRange default request stands in"
        );
        assert_eq!(r["memory"], Quantity::parse("1Gi").unwrap());
        assert_eq!(get(&effective_requests(&s), "cpu"), "-");
        // An unreadable request: the scheduler takes the limit, Kueue leaves it out.
        let s = spec(json!({"containers": [{"name": "a", "resources": {
            "requests": {"cpu": "lots"}, "limits": {"cpu": "2"}}}]}));
        assert_eq!(get(&effective_requests(&s), "cpu"), "2");
        assert_eq!(get(&requests_counted(&s, kueue(&none)), "cpu"), "-");
        // A pod-level limit stands in for the pod-level request for the scheduler only.
        let s = spec(json!({"resources": {"limits": {"cpu": "3"}}, "containers": [{"name": "a"}]}));
        assert_eq!(get(&effective_requests(&s), "cpu"), "3");
        assert_eq!(get(&requests_counted(&s, kueue(&none)), "cpu"), "-");
    }

    #[test]
    fn units() {
        assert_eq!(scheduler_units("cpu", Quantity::parse("100u").unwrap()), 1);
        assert_eq!(
            scheduler_units("memory", Quantity::parse("1.5").unwrap()),
            2
        );
        assert_eq!(display_units("cpu", 5500), "5.5");
        assert_eq!(display_units("cpu", 250), "250m");
        assert_eq!(display_units("memory", 1 << 30), "1Gi");
    }
}

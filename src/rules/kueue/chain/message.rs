//! The message, help and cause of each verdict (what a queue-stage rule reports), with
//! the subject and the wording they share; the two quota verdicts (never fits, fits
//! later) spell out the arithmetic of the flavors tried. Apart from the walk, which
//! only decides the verdict.

use super::kueue_says::Class;
use super::words::join_and;
use super::{Chain, Ctx, PodSetNeed, Try, Verdict, verdict_word};
use crate::kube::kueue::ClusterQueue;
use crate::kube::requests::{display_units, display_units_apart};
use crate::rules::kueue::model::{FlavorResource, Node, Units, show_with};
use crate::snapshot::ObjectId;
use std::collections::BTreeMap;

impl Chain<'_> {
    /// `Job ml/train` (the owner users know), else `Workload ml/x`.
    pub fn subject(&self) -> String {
        match &self.owner {
            Some((kind, name, _)) if kind != "Workload" => {
                format!("{kind} {}/{name}", self.namespace)
            }
            _ => format!("Workload {}/{}", self.namespace, self.wl.metadata.name),
        }
    }

    /// `Job ml/train (Workload ml/job-train-1a2b3)` or `Workload ml/x`.
    pub fn subject_with_workload(&self) -> String {
        let wl = format!("{}/{}", self.namespace, self.wl.metadata.name);
        match &self.owner {
            Some((kind, name, _)) if kind != "Workload" => {
                format!("{kind} {}/{name} (Workload {wl})", self.namespace)
            }
            _ => format!("Workload {wl}"),
        }
    }

    pub(super) fn cq_name(&self) -> String {
        self.cq
            .map(|(_, c)| c.metadata.name.to_string())
            .unwrap_or_default()
    }

    /// The podset's arithmetic: `podSet main: 3 × (1 cpu, 200Mi memory)`.
    pub(super) fn podset_words(&self, n: &PodSetNeed) -> String {
        let per: Vec<String> = n.per_pod.iter().map(|(r, u)| show_with(r, *u)).collect();
        format!(
            "podSet {}: {} × ({})",
            n.name,
            n.count,
            if per.is_empty() {
                "no requests".to_string()
            } else {
                per.join(", ")
            }
        )
    }

    pub(super) fn cohort_words(&self, cq: &ClusterQueue) -> String {
        match cq.cohort() {
            None => "no cohort".to_string(),
            Some(c) => format!("cohort {c}"),
        }
    }

    /// The (message, help, cause) of the verdict, for the queue-stage rules.
    pub fn explain(&self, ctx: &Ctx) -> (String, String, String) {
        let subj = self.subject();
        let cq = self.cq_name();
        let lqn = self.wl.queue_name().unwrap_or("").to_string();
        match &self.verdict {
            Verdict::NoQueueName => (
                format!("{subj} names no LocalQueue (spec.queueName is empty), so no ClusterQueue will ever consider it"),
                "set the kueue.x-k8s.io/queue-name label on the Job (the Workload is rebuilt from it)".into(),
                "no-queue-name".into(),
            ),
            Verdict::LocalQueueMissing { name } => (
                format!(
                    "{subj} is queued to LocalQueue {name}, which does not exist in namespace {}: it can never be admitted",
                    self.namespace
                ),
                format!(
                    "create LocalQueue {name} in namespace {} pointing at a ClusterQueue, or fix the kueue.x-k8s.io/queue-name label",
                    self.namespace
                ),
                format!("localqueue-missing:{name}"),
            ),
            Verdict::LocalQueueStopped { policy } => (
                format!("{subj} is queued to LocalQueue {lqn}, which is stopped (stopPolicy: {policy}): it admits nothing until resumed"),
                format!("set stopPolicy: None on LocalQueue {}/{lqn} when admission should resume", self.namespace),
                format!("localqueue-stopped:{lqn}"),
            ),
            Verdict::LocalQueueInactive => {
                let c = self.lq.and_then(|(_, l)| l.active().cloned()).unwrap_or_default();
                (
                    format!(
                        "{subj} is queued to LocalQueue {lqn}, which is inactive (Active=False, reason {}: {})",
                        c.reason.as_deref().unwrap_or("(none)"),
                        c.message.as_deref().unwrap_or("")
                    ),
                    "fix what the LocalQueue's Active condition names (usually its ClusterQueue)".into(),
                    format!("localqueue-inactive:{lqn}"),
                )
            }
            Verdict::ClusterQueueMissing { name } => (
                format!(
                    "{subj}: LocalQueue {lqn} points at ClusterQueue {name}, which does not exist: the Workload can never be admitted"
                ),
                format!("create ClusterQueue {name}, or point the LocalQueue at an existing ClusterQueue (clusterQueue is immutable: recreate the LocalQueue)"),
                format!("clusterqueue-missing:{name}"),
            ),
            Verdict::ClusterQueueStopped { policy } => (
                format!("{subj}: ClusterQueue {cq} is stopped (stopPolicy: {policy}); it admits nothing until resumed"),
                format!("set stopPolicy: None on ClusterQueue {cq} when admission should resume"),
                format!("clusterqueue-stopped:{cq}"),
            ),
            Verdict::ClusterQueueInactive { reasons } => (
                format!("{subj}: ClusterQueue {cq} is inactive and admits nothing: it {}", reasons.join("; ")),
                "create the missing ResourceFlavors or AdmissionChecks (or remove them from the ClusterQueue); Kueue reactivates it by itself".into(),
                format!("clusterqueue-inactive:{cq}"),
            ),
            Verdict::NamespaceNotSelected { why } => (
                format!("{subj}: {why}, so Kueue never admits Workloads from namespace {}", self.namespace),
                format!(
                    "add `namespaceSelector: {{}}` (all namespaces) or a selector matching namespace {}'s labels to ClusterQueue {cq}, or label the namespace",
                    self.namespace
                ),
                format!("namespace-not-selected:{cq}"),
            ),
            Verdict::AdmissionChecks { worst } => {
                let list: Vec<String> = self
                    .wl
                    .status
                    .admission_checks
                    .iter()
                    .filter(|a| a.state != "Ready")
                    .map(|a| {
                        format!(
                            "{} {}{}",
                            a.name,
                            a.state,
                            a.message
                                .as_deref()
                                .filter(|m| !m.is_empty())
                                .map(|m| format!(" ({m})"))
                                .unwrap_or_default()
                        )
                    })
                    .collect();
                let admitted_cond = self.wl.condition("Admitted").filter(|c| c.status == "False");
                let what = if worst == "Ready" {
                    "every admission check is Ready, and Kueue has not marked it Admitted yet (the bundle caught it in between)".to_string()
                } else if list.is_empty() {
                    match admitted_cond {
                        Some(c) => format!(
                            "Admitted=False, reason {}: {}",
                            c.reason.as_deref().unwrap_or("(none)"),
                            c.message.as_deref().unwrap_or("")
                        ),
                        None => "admission checks are not all Ready (no per-check state recorded)".to_string(),
                    }
                } else {
                    format!("admission check(s) not Ready: {}", list.join(", "))
                };
                let reserved = if self.wl.has_quota_reserved() {
                    format!("has quota reserved in ClusterQueue {cq} but ")
                } else {
                    String::new()
                };
                (
                    format!("{subj} {reserved}is not admitted: {what}"),
                    match worst.as_str() {
                        "Rejected" => "a rejected check does not recover: read the check controller's message (e.g. the ProvisioningRequest) and recreate the Job after fixing it".into(),
                        "Retry" => "the check will be retried; read its message and the check controller's state (e.g. the ProvisioningRequest)".into(),
                        _ => "wait for the check's controller (e.g. a ProvisioningRequest being provisioned), or look at that controller if it does not progress".into(),
                    },
                    format!("admission-checks:{worst}"),
                )
            }
            Verdict::Uncovered { podset, resources } => (
                format!(
                    "{subj}: podSet {podset} requests {}, which ClusterQueue {cq} does not cover in any resource group: it can never be admitted",
                    resources.join(", ")
                ),
                format!("add {} to a resource group (coveredResources and a quota per flavor) of ClusterQueue {cq}, or drop the request", resources.join(", ")),
                format!("uncovered:{}", resources.join(",")),
            ),
            Verdict::NoMatchingFlavor { podset } => {
                let reasons: Vec<String> = self
                    .tries
                    .iter()
                    .filter(|t| &t.podset == podset)
                    .flat_map(|t| t.groups.iter())
                    .flat_map(|g| g.tries.iter())
                    .map(|t| match &t.outcome {
                        Try::Missing => format!("flavor {} does not exist", t.flavor),
                        Try::Mismatch(why) => why.clone(),
                        _ => String::new(),
                    })
                    .filter(|s| !s.is_empty())
                    .collect();
                (
                    format!(
                        "{subj}: no flavor of ClusterQueue {cq} can hold podSet {podset}: {}; it can never be admitted",
                        reasons.join("; ")
                    ),
                    "make the podset's nodeSelector/affinity and tolerations fit one of the ClusterQueue's flavors (nodeLabels, nodeTaints), or add a flavor that fits".into(),
                    format!("no-matching-flavor:{podset}"),
                )
            }
            Verdict::Never { podset } => self.never_words(ctx, podset),
            Verdict::Later { podset } => self.later_words(ctx, podset),
            Verdict::StrictFifo { head } => {
                let hw = ctx.workload(*head);
                let hname = format!(
                    "{}/{}",
                    self.snap.object(*head).namespace.as_deref().unwrap_or(""),
                    self.snap.object(*head).name
                );
                (
                    format!(
                        "{subj} would fit, but ClusterQueue {cq} uses StrictFIFO and Workload {hname} (priority {}, {}) is ahead of it and not admitted: it blocks every Workload behind it",
                        hw.map(|w| w.priority()).unwrap_or(0),
                        hw.and_then(|w| w.metadata.creation_timestamp.clone())
                            .map(|t| format!("created {t}"))
                            .unwrap_or_else(|| "creation time unknown".into())
                    ),
                    format!("find out why {hname} is not admitted (kdiag why workload/{} -n {}), or switch ClusterQueue {cq} to BestEffortFIFO", self.snap.object(*head).name, self.snap.object(*head).namespace.as_deref().unwrap_or("")),
                    "strict-fifo-blocked".into(),
                )
            }
            Verdict::FitsNow => {
                let kueue = self
                    .kueue
                    .as_ref()
                    .map(|k| format!("; Kueue says ({}=False, reason {}): {}", k.condition, k.reason, k.message))
                    .unwrap_or_else(|| "; Kueue has written no condition yet (pending evaluation)".into());
                (
                    format!("{subj} is not admitted although the recomputation finds room for it in ClusterQueue {cq}{kueue}"),
                    "the bundle may predate Kueue's next scheduling cycle; if it stays pending, compare the quota table (kdiag why) with Kueue's message and the kueue-controller-manager log".into(),
                    "pending".into(),
                )
            }
            Verdict::NotCollected { kind, name } => (
                format!(
                    "{subj} is not admitted, and the bundle lacks the {kind} it needs ({name}), so the admission chain cannot be followed{}",
                    self.kueue
                        .as_ref()
                        .map(|k| format!("; Kueue says ({}=False, reason {}): {}", k.condition, k.reason, k.message))
                        .unwrap_or_default()
                ),
                "collect the Kueue objects with their spec and status (kubectl get workloads,localqueues -A -o yaml; kubectl get clusterqueues,resourceflavors,cohorts,admissionchecks -o yaml)".into(),
                format!("not-collected:{}", kind.replace(' ', "-")),
            ),
            Verdict::KueueCause { class, unseen } => self.kueue_cause_words(*class, unseen),
            Verdict::Admitted | Verdict::Finished | Verdict::Inactive | Verdict::Backoff { .. } => {
                (String::new(), String::new(), String::new())
            }
        }
    }

    /// A queue the bundle lacks, whose absence Kueue's condition shows is not the cause:
    /// Kueue's words are the headline, and what the recomputation could not check is said.
    fn kueue_cause_words(&self, class: Class, unseen: &[String]) -> (String, String, String) {
        let subj = self.subject();
        let (cond, reason, message) = self
            .kueue
            .as_ref()
            .map(|k| (k.condition, k.reason.as_str(), k.message.as_str()))
            .unwrap_or(("QuotaReserved", "", ""));
        let said = if self.wl.has_quota_reserved() && message.is_empty() {
            "Kueue reserved quota for it but has not admitted it".to_string()
        } else {
            format!(
                "Kueue says ({cond}=False, reason {}): {message}",
                if reason.is_empty() { "(none)" } else { reason }
            )
        };
        let lacking = format!(
            "{} {} not in the bundle, so the recomputation cannot check it (Kueue's condition shows Kueue found the queues: they are missing evidence, not the cause)",
            join_and(unseen),
            if unseen.len() == 1 { "is" } else { "are" }
        );
        let fix = match class {
            Class::Topology => {
                "give the nodes the topology level labels the flavor's Topology names (or relax the podset's required topology to preferred); Kueue re-evaluates when nodes change"
            }
            Class::NoFlavor => {
                "make the podset's nodeSelector/affinity and tolerations fit one of the ClusterQueue's flavors (nodeLabels, nodeTaints), or add a flavor that fits"
            }
            Class::Never => {
                "raise the ClusterQueue's nominalQuota (or its borrowing) for that resource and flavor, or lower the request"
            }
            Class::Later => "wait for admitted Workloads to finish, or raise the quota",
            Class::Checks => {
                "look at the admission checks' controller (e.g. the ProvisioningRequest) and its message"
            }
            Class::Namespace => {
                "fix the ClusterQueue's namespaceSelector or the namespace's labels"
            }
            Class::QueueLink | Class::Fits | Class::Other => {
                "read Kueue's message and the kueue-controller-manager log"
            }
        };
        let words = match class {
            Class::QueueLink | Class::Fits | Class::Other => String::new(),
            c => format!(" ({})", c.words()),
        };
        let cause = verdict_word(&self.verdict).trim_start_matches("kueue-says-");
        (
            format!("{subj} is not admitted: {said}{words}; {lacking}"),
            format!(
                "{fix}; to check it here, collect the queues with spec and status (kubectl get localqueues -A -o yaml; kubectl get clusterqueues,resourceflavors,topologies -o yaml)"
            ),
            format!("kueue-says:{cause}"),
        )
    }

    /// (flavor, resource) pairs of a podset's resource groups whose first quota failure
    /// was the maximum capacity.
    fn exceeding(&self, podset: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for t in self.tries.iter().filter(|t| t.podset == podset) {
            for g in &t.groups {
                if let Some(first) = g
                    .tries
                    .iter()
                    .find(|f| matches!(f.outcome, Try::Exceeds { .. }))
                {
                    for res in &g.resources {
                        out.push((first.flavor.clone(), res.clone()));
                    }
                }
            }
        }
        out
    }

    /// The setting that caps what the ClusterQueue can borrow of a (flavor, resource),
    /// named with its ClusterQueue and value (reference §1.13): its own `borrowingLimit`
    /// when that binds, else each cohort member whose `lendingLimit` keeps part of its
    /// nominal quota back. `None` outside a cohort or when nothing is capped.
    pub(super) fn cap_words(&self, ctx: &Ctx, fr: &FlavorResource) -> Option<String> {
        let (_, cq) = self.cq?;
        let name = &cq.metadata.name;
        let cohort = cq.cohort()?;
        let node = Node::Cq(name.to_string());
        let res = fr.1.as_str();
        let nominal = ctx.tree.subtree(&node, fr);
        let max = ctx.tree.max_capacity(&node, fr);
        if let Some(b) = ctx.tree.limits(&node, fr).and_then(|l| l.borrowing)
            && max == nominal + b
        {
            return Some(format!(
                "capped by ClusterQueue {name}'s borrowingLimit of {} in flavor {}: {} nominal + {} borrowed",
                show_with(res, b),
                fr.0,
                display_units(res, nominal),
                display_units(res, b)
            ));
        }
        let mut lenders = Vec::new();
        for c in ctx.tree.ancestors(name).iter().take(1) {
            for m in ctx.tree.members(c).iter().filter(|m| *m != name) {
                let mn = Node::Cq(m.clone());
                let Some(l) = ctx.tree.limits(&mn, fr).and_then(|l| l.lending) else {
                    continue;
                };
                let theirs = ctx.tree.subtree(&mn, fr);
                if l < theirs {
                    lenders.push(format!(
                        "ClusterQueue {m}'s lendingLimit of {} in flavor {}, which lends at most that of its {} nominal",
                        show_with(res, l),
                        fr.0,
                        show_with(res, theirs)
                    ));
                }
            }
        }
        if lenders.is_empty() {
            return None;
        }
        Some(format!(
            "capped in cohort {cohort} by {}",
            join_and(&lenders)
        ))
    }

    /// What `podset` and the podsets before it that took `flavor` for `res` request of
    /// it, podset by podset, as Kueue sums them against the maximum capacity.
    fn summed_need(&self, podset: &str, flavor: &str, res: &str) -> Vec<(String, Units)> {
        let mut out = Vec::new();
        for (t, n) in self.tries.iter().zip(&self.needs) {
            let own = n.total.get(res).copied().unwrap_or(0);
            if t.podset == podset {
                out.push((n.name.clone(), own));
                break;
            }
            let took = t
                .groups
                .iter()
                .filter(|g| g.resources.iter().any(|r| r == res))
                .any(|g| g.chosen() == Some(flavor));
            if took && own > 0 {
                out.push((n.name.clone(), own));
            }
        }
        out
    }

    fn never_words(&self, ctx: &Ctx, podset: &str) -> (String, String, String) {
        let subj = self.subject();
        let (_, cq) = self.cq.expect("quota verdicts have a ClusterQueue");
        let node = Node::Cq(cq.metadata.name.to_string());
        // Resources over their maximum capacity in the first flavor that failed on quota.
        // Kueue counts the podsets before this one that took the same flavor too
        // ("previously considered podsets requests (4) + current podset request (12)").
        let mut flavor = String::new();
        let mut over: Vec<(String, Units, Units, Units)> = Vec::new();
        let mut sources: Vec<String> = Vec::new();
        for (f, res) in self.exceeding(podset) {
            if flavor.is_empty() {
                flavor = f.clone();
            }
            if f != flavor {
                continue;
            }
            let fr = (f.clone(), res.clone());
            // A quota that does not read is left out (the chain's notes say so).
            if !ctx.tree.unread_quotas(&cq.metadata.name, &fr).is_empty() {
                continue;
            }
            let max = ctx.tree.max_capacity(&node, &fr);
            let nominal = ctx.tree.limits(&node, &fr).map(|l| l.nominal).unwrap_or(0);
            let parts = self.summed_need(podset, &f, &res);
            let need: Units = parts.iter().map(|(_, u)| *u).sum();
            if need > max {
                if parts.len() > 1 {
                    sources.push(format!(
                        "{res}: {}",
                        parts
                            .iter()
                            .map(|(ps, u)| format!("{} for podSet {ps}", display_units(&res, *u)))
                            .collect::<Vec<_>>()
                            .join(" + ")
                    ));
                }
                over.push((res, need, max, nominal));
            }
        }
        let resources: Vec<String> = over.iter().map(|o| o.0.clone()).collect();
        // "16 cpu and 20 pods": one amount of each resource over its capacity.
        let amounts = |pick: fn(&(String, Units, Units, Units)) -> Units| {
            join_and(
                &over
                    .iter()
                    .map(|o| show_with(&o.0, pick(o)))
                    .collect::<Vec<_>>(),
            )
        };
        let need = amounts(|o| o.1);
        let need = match sources.len() {
            0 => need,
            // One summed resource: "16 cpu (4 for podSet launcher + 12 for podSet workers)".
            1 if over.len() == 1 => format!(
                "{need} ({})",
                sources[0].split_once(": ").map(|(_, t)| t).unwrap_or("")
            ),
            _ => format!("{need} ({})", sources.join("; ")),
        };
        let nominal = amounts(|o| o.3);
        let borrow = match cq.cohort() {
            None => "no cohort".to_string(),
            Some(c) => {
                let caps: Vec<String> = over
                    .iter()
                    .map(|(r, _, max, _)| {
                        let fr = (flavor.clone(), r.clone());
                        match self.cap_words(ctx, &fr) {
                            Some(w) => format!("{} ({w})", show_with(r, *max)),
                            None => show_with(r, *max),
                        }
                    })
                    .collect();
                format!(
                    "at most {} with everything cohort {c} can lend",
                    join_and(&caps)
                )
            }
        };
        let other = self.other_flavor_words(podset, &flavor);
        let multi = self.needs.len() > 1
            || self
                .tries
                .iter()
                .any(|t| t.groups.iter().any(|g| g.tries.len() > 1));
        let flavor_words = if multi {
            format!(" in flavor {flavor}")
        } else {
            String::new()
        };
        (
            format!(
                "{subj} needs {need}{flavor_words}; ClusterQueue {} has {nominal} nominal, {borrow}{other}: this Workload can never be admitted",
                cq.metadata.name
            ),
            if cq.cohort().is_some() {
                format!(
                    "raise nominalQuota (or borrowingLimit) for {} in ClusterQueue {}, give the cohort more to lend, or request less (parallelism, per-pod requests)",
                    join_and(&resources),
                    cq.metadata.name
                )
            } else {
                format!(
                    "raise nominalQuota for {} in ClusterQueue {}, put it in a cohort it can borrow from, or request less (parallelism, per-pod requests)",
                    join_and(&resources),
                    cq.metadata.name
                )
            },
            format!("never:{}", resources.join(",")),
        )
    }

    /// "; flavor spot: untolerated taint …" for the other flavors of the same podset.
    fn other_flavor_words(&self, podset: &str, except: &str) -> String {
        let words: Vec<String> = self
            .tries
            .iter()
            .filter(|t| t.podset == podset)
            .flat_map(|t| t.groups.iter())
            .flat_map(|g| g.tries.iter())
            .filter(|t| t.flavor != except)
            .map(|t| match &t.outcome {
                Try::Missing => format!("flavor {} does not exist", t.flavor),
                Try::Mismatch(w) => w.clone(),
                Try::Exceeds {
                    resource,
                    need,
                    max,
                } => format!(
                    "flavor {} can give at most {} of the {} needed",
                    t.flavor,
                    show_with(resource, *max),
                    display_units(resource, *need)
                ),
                Try::Short { .. } | Try::Fits => String::new(),
            })
            .filter(|s| !s.is_empty())
            .collect();
        if words.is_empty() {
            String::new()
        } else {
            format!(" ({})", words.join("; "))
        }
    }

    fn later_words(&self, ctx: &Ctx, podset: &str) -> (String, String, String) {
        let subj = self.subject();
        let (_, cq) = self.cq.expect("quota verdicts have a ClusterQueue");
        let node = Node::Cq(cq.metadata.name.to_string());
        let mut shorts: Vec<(String, String, Units, Units)> = Vec::new();
        for t in self.tries.iter().filter(|t| t.podset == podset) {
            for g in &t.groups {
                if g.fits().is_some() {
                    continue;
                }
                if let Some(ft) = g
                    .tries
                    .iter()
                    .find(|f| matches!(f.outcome, Try::Short { .. }))
                    && let Try::Short {
                        resource,
                        need,
                        free,
                    } = &ft.outcome
                {
                    shorts.push((ft.flavor.clone(), resource.clone(), *need, *free));
                }
            }
        }
        let parts: Vec<String> = shorts
            .iter()
            .map(|(f, r, need, free)| {
                let fr = (f.clone(), r.clone());
                let nominal = ctx.tree.limits(&node, &fr).map(|l| l.nominal).unwrap_or(0);
                let reserved = ctx.tree.usage(&node, &fr);
                let max = ctx.tree.max_capacity(&node, &fr);
                let free = (*free).max(0);
                // Amounts of one sentence never read equal when they differ (a need of
                // 8.0000001Gi beside 8Gi free).
                let [need_t, nominal_t, reserved_t, free_t, max_t, more_t] =
                    display_units_apart(r, [*need, nominal, reserved, free, max, need - free]);
                let mut s = format!(
                    "needs {need_t} {r} in flavor {f}; ClusterQueue {} has {nominal_t} {r} nominal and {reserved_t} reserved",
                    cq.metadata.name,
                );
                if cq.cohort().is_some() {
                    s.push_str(&format!(
                        "; with what {} can lend, {free_t} free now ({max_t} at most{})",
                        self.cohort_words(cq),
                        self.cap_words(ctx, &fr)
                            .map(|w| format!(": {w}"))
                            .unwrap_or_default()
                    ));
                } else {
                    s.push_str(&format!(", {free_t} free"));
                }
                s.push_str(&format!(": {more_t} more needed"));
                s
            })
            .collect();
        let mut holders: BTreeMap<ObjectId, Vec<String>> = BTreeMap::new();
        for (id, _f, r, amount) in &self.holders {
            holders.entry(*id).or_default().push(show_with(r, *amount));
        }
        let names: Vec<String> = holders
            .iter()
            .take(5)
            .map(|(id, amounts)| {
                let o = self.snap.object(*id);
                let cqn = ctx
                    .workload(*id)
                    .and_then(|w| w.status.admission.as_ref())
                    .map(|a| a.cluster_queue.clone())
                    .unwrap_or_default();
                let where_ = if cqn != cq.metadata.name {
                    format!(" in {cqn}")
                } else {
                    String::new()
                };
                format!(
                    "{}/{} ({}{where_})",
                    o.namespace.as_deref().unwrap_or(""),
                    o.name,
                    amounts.join(", ")
                )
            })
            .collect();
        let held = if names.is_empty() {
            String::new()
        } else {
            format!(
                "; held by {}: {}{}",
                if self.holders_total == 1 {
                    "an admitted Workload".to_string()
                } else {
                    format!("{} admitted Workloads", self.holders_total)
                },
                names.join(", "),
                if self.holders_total > names.len() {
                    ", …"
                } else {
                    ""
                }
            )
        };
        let fifo = if cq.is_strict_fifo() {
            " (StrictFIFO: Workloads behind it wait too)"
        } else {
            ""
        };
        let resources: Vec<String> = shorts.iter().map(|s| s.1.clone()).collect();
        (
            format!(
                "{subj} {}{held}: it fits once they finish or are preempted{fifo}",
                parts.join("; ")
            ),
            format!(
                "wait for the Workloads holding the quota to finish, enable preemption (spec.preemption) with a higher priority for this one, or raise nominalQuota for {} in ClusterQueue {}",
                join_and(&resources),
                cq.metadata.name
            ),
            format!("later:{}", resources.join(",")),
        )
    }
}

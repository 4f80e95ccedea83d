#!/usr/bin/env python3
"""Build the Kueue sample bundles (one `kind: List` YAML file per scenario).

    python3 sample-bundles/kueue/build.py            # (re)write every <scenario>.yaml
    python3 sample-bundles/kueue/build.py --check    # fail if a file would change

Python 3 standard library only; the output is byte-for-byte deterministic. Every
scenario is a snapshot of a cluster at 2026-11-20T09:14:02Z (the newest timestamp in
each file is an event at 09:14:00Z, which kdiag uses as the snapshot time of a List).
UIDs are derived from SHA-256 of scenario/kind/namespace/name; Workload names follow
Kueue's `<kind>-<owner>-<5 hex of sha1(kind, group, name, uid)>` scheme; the status of
every ClusterQueue (flavorsReservation / flavorsUsage, workload counts) is summed from the
Workloads of the scenario, as Kueue's cache does. See README.md for what each shows.
"""

import hashlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SNAPSHOT = "2026-11-20T09:14:02Z"
KUEUE = "kueue.x-k8s.io"


# ---------------------------------------------------------------- helpers

def uid(scenario, kind, ns, name):
    h = hashlib.sha256(f"{scenario}/{kind}/{ns}/{name}".encode()).hexdigest()
    return f"{h[0:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[int(h[16], 16) % 4]}{h[17:20]}-{h[20:32]}"


def t(hhmmss):
    """A time on the snapshot day."""
    return f"2026-11-20T{hhmmss}Z"


def workload_name(kind, group, owner, owner_uid):
    h = hashlib.sha1(f"{kind}\n{group}\n{owner}\n{owner_uid}".encode()).hexdigest()[:5]
    return f"{kind.lower()}-{owner}-{h}"


def rv(counter=[1000]):
    counter[0] += 7
    return str(counter[0])


# ---------------------------------------------------------------- YAML (kubectl style)

PLAIN_BAD_START = set("-?:,[]{}#&*!|>'\"%@`")


def scalar(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    s = str(v)
    if s == "":
        return '""'
    if (
        re.fullmatch(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?", s)
        or s.lower() in ("true", "false", "yes", "no", "null", "on", "off", "y", "n", "~")
        or re.match(r"\d{4}-\d\d-\d\d", s)
    ):
        return '"' + s + '"'
    if ": " in s or " #" in s or s[0] in PLAIN_BAD_START or s.endswith(":") or s != s.strip():
        return "'" + s.replace("'", "''") + "'"
    return s


def emit(v, indent, out):
    pad = " " * indent
    if isinstance(v, dict):
        for k in sorted(v):
            val = v[k]
            key = scalar(k)
            if isinstance(val, dict) and val:
                out.append(f"{pad}{key}:")
                emit(val, indent + 2, out)
            elif isinstance(val, list) and val:
                out.append(f"{pad}{key}:")
                emit(val, indent, out)
            elif isinstance(val, dict):
                out.append(f"{pad}{key}: {{}}")
            elif isinstance(val, list):
                out.append(f"{pad}{key}: []")
            else:
                out.append(f"{pad}{key}: {scalar(val)}")
    elif isinstance(v, list):
        for item in v:
            if isinstance(item, dict) and item:
                sub = []
                emit(item, indent + 2, sub)
                sub[0] = pad + "- " + sub[0][indent + 2:]
                out.extend(sub)
            elif isinstance(item, list) and item:
                raise ValueError("nested lists are not used")
            else:
                out.append(f"{pad}- {scalar(item) if not isinstance(item, (dict, list)) else ('{}' if isinstance(item, dict) else '[]')}")
    else:
        raise ValueError(v)


def to_list_yaml(objects):
    out = ["apiVersion: v1", "items:"]
    emit(objects, 0, out)
    out += ["kind: List", "metadata:", '  resourceVersion: ""']
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- object builders

class Scenario:
    def __init__(self, name):
        self.name = name
        self.objects = []
        self.workloads = []  # (obj, cq name)

    def add(self, o):
        self.objects.append(o)
        return o

    def meta(self, kind, name, ns=None, created="08:00:00", labels=None, owner=None, extra=None):
        m = {
            "creationTimestamp": t(created),
            "name": name,
            "resourceVersion": rv(),
            "uid": uid(self.name, kind, ns or "", name),
        }
        if ns:
            m["namespace"] = ns
        if labels:
            m["labels"] = dict(labels)
        if owner:
            m["ownerReferences"] = [owner]
        if extra:
            m.update(extra)
        return m

    def namespace(self, name, labels=None):
        lab = {"kubernetes.io/metadata.name": name}
        lab.update(labels or {})
        return self.add({
            "apiVersion": "v1", "kind": "Namespace",
            "metadata": self.meta("Namespace", name, created="07:00:00", labels=lab),
            "spec": {"finalizers": ["kubernetes"]},
            "status": {"phase": "Active"},
        })

    def node(self, name, labels=None, cpu="8", memory="32Gi", taints=None):
        lab = {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64"}
        lab.update(labels or {})
        spec = {"podCIDR": "10.244.0.0/24"}
        if taints:
            spec["taints"] = taints
        return self.add({
            "apiVersion": "v1", "kind": "Node",
            "metadata": self.meta("Node", name, created="07:00:00", labels=lab),
            "spec": spec,
            "status": {
                "allocatable": {"cpu": cpu, "memory": memory, "pods": "110"},
                "capacity": {"cpu": cpu, "memory": memory, "pods": "110"},
                "conditions": [{
                    "lastHeartbeatTime": t("09:12:30"), "lastTransitionTime": t("07:01:00"),
                    "message": "kubelet is posting ready status", "reason": "KubeletReady",
                    "status": "True", "type": "Ready"}],
                "nodeInfo": {"kubeletVersion": "v1.31.2", "containerRuntimeVersion": "containerd://1.7.22",
                             "operatingSystem": "linux", "architecture": "amd64"},
            },
        })

    def flavor(self, name, labels=None, taints=None, tolerations=None, version="v1beta2"):
        spec = {}
        if labels:
            spec["nodeLabels"] = labels
        if taints:
            spec["nodeTaints"] = taints
        if tolerations:
            spec["tolerations"] = tolerations
        return self.add({
            "apiVersion": f"{KUEUE}/{version}", "kind": "ResourceFlavor",
            "metadata": self.meta("ResourceFlavor", name, created="07:30:00",
                                  extra={"finalizers": ["kueue.x-k8s.io/resource-in-use"], "generation": 1}),
            "spec": spec,
        })

    def cohort(self, name, parent=None, groups=None, version="v1beta2"):
        spec = {}
        if parent:
            spec["parentName" if version != "v1alpha1" else "parent"] = parent
        if groups:
            spec["resourceGroups"] = groups
        return self.add({
            "apiVersion": f"{KUEUE}/{version}", "kind": "Cohort",
            "metadata": self.meta("Cohort", name, created="07:30:00", extra={"generation": 1}),
            "spec": spec,
        })

    def cluster_queue(self, name, groups, cohort=None, ns_selector="all", strategy="BestEffortFIFO",
                      stop=None, active=("True", "Ready", "Can admit new workloads"), checks=None,
                      version="v1beta2", preemption=None, pending=0):
        spec = {
            "flavorFungibility": {"whenCanBorrow": "MayStopSearch", "whenCanPreempt": "TryNextFlavor"},
            "preemption": preemption or {"borrowWithinCohort": {"policy": "Never"},
                                          "reclaimWithinCohort": "Never", "withinClusterQueue": "Never"},
            "queueingStrategy": strategy,
            "resourceGroups": groups,
            "stopPolicy": stop or "None",
        }
        if ns_selector == "all":
            spec["namespaceSelector"] = {}
        elif ns_selector is not None:
            spec["namespaceSelector"] = ns_selector
        if cohort:
            spec["cohortName" if version == "v1beta2" else "cohort"] = cohort
        if checks:
            spec["admissionChecksStrategy"] = {"admissionChecks": [{"name": c} for c in checks]}
        o = self.add({
            "apiVersion": f"{KUEUE}/{version}", "kind": "ClusterQueue",
            "metadata": self.meta("ClusterQueue", name, created="07:30:00",
                                  extra={"finalizers": ["kueue.x-k8s.io/resource-in-use"], "generation": 1}),
            "spec": spec,
            "status": {
                "conditions": [{"lastTransitionTime": t("07:30:05"), "message": active[2], "observedGeneration": 1,
                                "reason": active[1], "status": active[0], "type": "Active"}],
                "pendingWorkloads": pending,
            },
        })
        return o

    def local_queue(self, ns, name, cq, stop=None, active=("True", "Ready", "Can submit new workloads to localQueue"),
                    version="v1beta2", pending=0):
        spec = {"clusterQueue": cq}
        if stop:
            spec["stopPolicy"] = stop
        return self.add({
            "apiVersion": f"{KUEUE}/{version}", "kind": "LocalQueue",
            "metadata": self.meta("LocalQueue", name, ns, created="07:35:00", extra={"generation": 1}),
            "spec": spec,
            "status": {
                "admittedWorkloads": 0, "pendingWorkloads": pending, "reservingWorkloads": 0,
                "conditions": [{"lastTransitionTime": t("07:35:02"), "message": active[2], "observedGeneration": 1,
                                "reason": active[1], "status": active[0], "type": "Active"}],
            },
        })

    def admission_check(self, name, active=True):
        return self.add({
            "apiVersion": f"{KUEUE}/v1beta2", "kind": "AdmissionCheck",
            "metadata": self.meta("AdmissionCheck", name, created="07:30:00", extra={"generation": 1}),
            "spec": {"controllerName": "kueue.x-k8s.io/provisioning-request",
                     "parameters": {"apiGroup": KUEUE, "kind": "ProvisioningRequestConfig", "name": "dws-config"}},
            "status": {"conditions": [{"lastTransitionTime": t("07:30:02"),
                                       "message": "The admission check is active" if active else "Can't find ProvisioningRequestConfig",
                                       "reason": "Active" if active else "BadParametersRef",
                                       "status": "True" if active else "False", "type": "Active"}]},
        })

    def priority_class(self, name, value):
        return self.add({
            "apiVersion": f"{KUEUE}/v1beta2", "kind": "WorkloadPriorityClass",
            "metadata": self.meta("WorkloadPriorityClass", name, created="07:30:00"),
            "value": value, "description": f"{name} jobs",
        })

    def container(self, name, cpu=None, memory=None, gpu=None, image="registry.example.com/ml/trainer:2.4"):
        req = {}
        if cpu:
            req["cpu"] = cpu
        if memory:
            req["memory"] = memory
        lim = {}
        if gpu:
            req["nvidia.com/gpu"] = gpu
            lim["nvidia.com/gpu"] = gpu
        res = {"requests": req}
        if lim:
            res["limits"] = lim
        return {"image": image, "imagePullPolicy": "IfNotPresent", "name": name, "resources": res,
                "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}

    def job(self, ns, name, parallelism, containers, queue=None, suspend=True, created="08:00:00",
            node_selector=None, tolerations=None, status=None, priority_class=None, init_containers=None):
        labels = {}
        if queue:
            labels["kueue.x-k8s.io/queue-name"] = queue
        if priority_class:
            labels["kueue.x-k8s.io/priority-class"] = priority_class
        u = uid(self.name, "Job", ns, name)
        pod_spec = {"containers": containers, "dnsPolicy": "ClusterFirst", "restartPolicy": "Never",
                    "schedulerName": "default-scheduler", "terminationGracePeriodSeconds": 30}
        if init_containers:
            pod_spec["initContainers"] = init_containers
        if node_selector:
            pod_spec["nodeSelector"] = node_selector
        if tolerations:
            pod_spec["tolerations"] = tolerations
        job = self.add({
            "apiVersion": "batch/v1", "kind": "Job",
            "metadata": self.meta("Job", name, ns, created=created, labels=labels, extra={"generation": 1}),
            "spec": {
                "backoffLimit": 6, "completionMode": "NonIndexed", "completions": parallelism,
                "manualSelector": False, "parallelism": parallelism, "podReplacementPolicy": "TerminatingOrFailed",
                "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": u}},
                "suspend": suspend,
                "template": {
                    "metadata": {"labels": {"batch.kubernetes.io/controller-uid": u, "batch.kubernetes.io/job-name": name,
                                            "controller-uid": u, "job-name": name, **labels}},
                    "spec": pod_spec,
                },
            },
            "status": status or ({"conditions": [{"lastProbeTime": t(created), "lastTransitionTime": t(created),
                                                  "message": "Job suspended", "reason": "JobSuspended",
                                                  "status": "True", "type": "Suspended"}]} if suspend else {"active": 0}),
        })
        return job

    def workload(self, job, cq=None, conditions=(), admission=None, priority=0, priority_class=None,
                 version="v1beta2", active=True, created=None, extra_status=None, podsets=None, queue=None):
        jm = job["metadata"]
        group = job["apiVersion"].split("/")[0] if "/" in job["apiVersion"] else ""
        name = workload_name(job["kind"], group, jm["name"], jm["uid"])
        ns = jm["namespace"]
        ps = podsets
        if ps is None:
            tmpl = job["spec"]["template"]
            ps = [{"count": job["spec"]["parallelism"], "name": "main",
                   "template": {"metadata": {"labels": {k: v for k, v in tmpl["metadata"]["labels"].items()
                                                         if k.startswith("kueue")}},
                                "spec": tmpl["spec"]}}]
        spec = {"active": active, "podSets": ps, "priority": priority,
                "queueName": queue if queue is not None else jm["labels"].get("kueue.x-k8s.io/queue-name", "")}
        if priority_class:
            if version == "v1beta2":
                spec["priorityClassRef"] = {"group": KUEUE, "kind": "WorkloadPriorityClass", "name": priority_class}
            else:
                spec["priorityClassName"] = priority_class
                spec["priorityClassSource"] = "kueue.x-k8s.io/workloadpriorityclass"
        status = {"conditions": [dict(c) for c in conditions]}
        if admission:
            status["admission"] = admission
        if extra_status:
            status.update(extra_status)
        w = self.add({
            "apiVersion": f"{KUEUE}/{version}", "kind": "Workload",
            "metadata": self.meta("Workload", name, ns, created=created or jm["creationTimestamp"][11:19],
                                  labels={"kueue.x-k8s.io/job-uid": jm["uid"]},
                                  owner={"apiVersion": job["apiVersion"], "blockOwnerDeletion": True, "controller": True,
                                         "kind": job["kind"], "name": jm["name"], "uid": jm["uid"]},
                                  extra={"finalizers": ["kueue.x-k8s.io/resource-in-use"], "generation": 1}),
            "spec": spec,
            "status": status,
        })
        self.workloads.append((w, cq))
        return w

    def pod(self, job, suffix, phase="Running", node=None, ready=True, created="08:10:00", node_selector=None,
            tolerations=None, scheduled_msg=None, gates=None, owner=True, name=None, labels=None):
        jm = job["metadata"] if job else None
        ns = jm["namespace"] if jm else labels.pop("__ns")
        pname = name or f"{jm['name']}-{suffix}"
        spec = dict(job["spec"]["template"]["spec"]) if job else {}
        if node_selector:
            spec["nodeSelector"] = node_selector
        if tolerations:
            spec["tolerations"] = tolerations
        if node:
            spec["nodeName"] = node
        if gates:
            spec["schedulingGates"] = [{"name": g} for g in gates]
        spec["tolerations"] = list(spec.get("tolerations", [])) + [
            {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300},
            {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists", "tolerationSeconds": 300},
        ]
        lab = dict(job["spec"]["template"]["metadata"]["labels"]) if job else {}
        lab.update(labels or {})
        owner_ref = {"apiVersion": "batch/v1", "blockOwnerDeletion": True, "controller": True, "kind": "Job",
                     "name": jm["name"], "uid": jm["uid"]} if job and owner else None
        conds = []
        status = {"phase": phase, "qosClass": "Burstable"}
        if phase == "Running":
            conds = [
                {"lastProbeTime": None, "lastTransitionTime": t(created), "status": "True", "type": "Initialized"},
                {"lastProbeTime": None, "lastTransitionTime": t(created), "status": "True" if ready else "False", "type": "Ready"},
                {"lastProbeTime": None, "lastTransitionTime": t(created), "status": "True" if ready else "False", "type": "ContainersReady"},
                {"lastProbeTime": None, "lastTransitionTime": t(created), "status": "True", "type": "PodScheduled"},
            ]
            status["containerStatuses"] = [{
                "containerID": "containerd://" + hashlib.sha256(pname.encode()).hexdigest(),
                "image": c["image"], "imageID": c["image"].split(":")[0] + "@sha256:" + hashlib.sha256(c["image"].encode()).hexdigest(),
                "lastState": {}, "name": c["name"], "ready": ready, "restartCount": 0, "started": True,
                "state": {"running": {"startedAt": t(created)}}} for c in spec.get("containers", [])]
            status["hostIP"] = "10.0.0.11"
            status["podIP"] = "10.244.1.23"
            status["startTime"] = t(created)
        elif gates:
            conds = [{"lastProbeTime": None, "lastTransitionTime": t(created),
                      "message": "Scheduling is blocked due to non-empty scheduling gates",
                      "reason": "SchedulingGated", "status": "False", "type": "PodScheduled"}]
        elif scheduled_msg:
            conds = [{"lastProbeTime": None, "lastTransitionTime": t(created), "message": scheduled_msg,
                      "reason": "Unschedulable", "status": "False", "type": "PodScheduled"}]
        status["conditions"] = conds
        return self.add({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": self.meta("Pod", pname, ns, created=created, labels=lab, owner=owner_ref,
                                  extra={"generateName": f"{jm['name']}-"} if jm else None),
            "spec": spec,
            "status": status,
        })

    def event(self, obj, reason, message, type_="Normal", count=1, first="08:00:01", last=None, component="kueue-admission"):
        m = obj["metadata"]
        last = last or first
        name = f"{m['name']}.{hashlib.sha256((reason + first + message).encode()).hexdigest()[:16]}"
        ev = {
            "apiVersion": "v1", "kind": "Event",
            "count": count, "firstTimestamp": t(first), "lastTimestamp": t(last),
            "involvedObject": {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "name": m["name"],
                               "resourceVersion": m["resourceVersion"], "uid": m["uid"]},
            "message": message, "reason": reason, "reportingComponent": component, "reportingInstance": "",
            "source": {"component": component}, "type": type_,
            "metadata": {"creationTimestamp": t(first), "name": name, "resourceVersion": rv(),
                         "uid": uid(self.name, "Event", m.get("namespace", ""), name)},
        }
        if "namespace" in m:
            ev["metadata"]["namespace"] = m["namespace"]
            ev["involvedObject"]["namespace"] = m["namespace"]
        else:
            ev["metadata"]["namespace"] = "default"
        return self.add(ev)

    def finish(self):
        """Fills every ClusterQueue's status and every LocalQueue's counts from the Workloads."""
        for cq in [o for o in self.objects if o["kind"] == "ClusterQueue"]:
            name = cq["metadata"]["name"]
            totals = {}
            reserving = admitted = 0
            for w, _ in self.workloads:
                adm = w["status"].get("admission")
                conds = {c["type"]: c["status"] for c in w["status"]["conditions"]}
                if not adm or adm["clusterQueue"] != name or conds.get("QuotaReserved") != "True" or conds.get("Finished") == "True":
                    continue
                reserving += 1
                admitted += conds.get("Admitted") == "True"
                for psa in adm["podSetAssignments"]:
                    for res, fl in psa["flavors"].items():
                        totals.setdefault((fl, res), []).append(psa["resourceUsage"][res])
            res_rows = []
            for g in cq["spec"]["resourceGroups"]:
                for f in g["flavors"]:
                    rows = []
                    for r in f["resources"]:
                        vals = totals.get((f["name"], r["name"]), [])
                        rows.append({"borrowed": "0", "name": r["name"], "total": sum_quantities(r["name"], vals)})
                    res_rows.append({"name": f["name"], "resources": rows})
            for f in res_rows:
                for r in f["resources"]:
                    nominal = next(x["nominalQuota"] for g in cq["spec"]["resourceGroups"] for fl in g["flavors"]
                                   if fl["name"] == f["name"] for x in fl["resources"] if x["name"] == r["name"])
                    over = parse_q(r["total"], r["name"]) - parse_q(str(nominal), r["name"])
                    if over > 0:
                        r["borrowed"] = fmt_q(over, r["name"])
            cq["status"]["flavorsReservation"] = res_rows
            cq["status"]["flavorsUsage"] = res_rows
            cq["status"]["reservingWorkloads"] = reserving
            cq["status"]["admittedWorkloads"] = admitted


def parse_q(s, res):
    """Kueue units (milli for cpu) of the few quantity forms the scenarios use."""
    s = str(s)
    mult = {"Ki": 1024, "Mi": 1024 ** 2, "Gi": 1024 ** 3}
    for suf, m in mult.items():
        if s.endswith(suf):
            return int(s[: -len(suf)]) * m
    if s.endswith("m"):
        return int(s[:-1]) if res == "cpu" else -(-int(s[:-1]) // 1000)
    return int(s) * (1000 if res == "cpu" else 1)


def fmt_q(u, res):
    if res == "cpu":
        return str(u // 1000) if u % 1000 == 0 else f"{u}m"
    if res == "memory" and u and u % (1024 ** 3) == 0:
        return f"{u // 1024 ** 3}Gi"
    if res == "memory" and u and u % (1024 ** 2) == 0:
        return f"{u // 1024 ** 2}Mi"
    return str(u)


def sum_quantities(res, vals):
    return fmt_q(sum(parse_q(v, res) for v in vals), res)


def group(resources, *flavors):
    """A resource group: covered resources and (flavor, {resource: nominal or (nominal, borrowing, lending)})."""
    out = {"coveredResources": list(resources), "flavors": []}
    for fname, quotas in flavors:
        rows = []
        for r in resources:
            q = quotas[r]
            row = {"name": r}
            if isinstance(q, tuple):
                row["nominalQuota"] = q[0]
                if q[1] is not None:
                    row["borrowingLimit"] = q[1]
                if len(q) > 2 and q[2] is not None:
                    row["lendingLimit"] = q[2]
            else:
                row["nominalQuota"] = q
            rows.append(row)
        out["flavors"].append({"name": fname, "resources": rows})
    return out


def cond(type_, status, reason, message, at="08:00:02"):
    return {"lastTransitionTime": t(at), "message": message, "observedGeneration": 1,
            "reason": reason, "status": status, "type": type_}


def admitted(cq, at="08:00:02"):
    return [cond("QuotaReserved", "True", "QuotaReserved", f"Quota reserved in ClusterQueue {cq}", at),
            cond("Admitted", "True", "Admitted", "The workload is admitted", at)]


def assignment(flavors, usage, count, name="main"):
    return {"count": count, "flavors": flavors, "name": name, "resourceUsage": usage}


def running_job_status(n, at):
    return {"active": n, "ready": n, "startTime": t(at), "terminating": 0,
            "uncountedTerminatedPods": {}}


# ---------------------------------------------------------------- scenarios

def seed_quota():
    """The seed: parallelism 3 at 1 cpu each against a ClusterQueue of 2 cpu and 2 pods."""
    s = Scenario("seed-quota")
    s.namespace("ml")
    s.flavor("default-flavor", version="v1beta1")
    s.cluster_queue("cq-ml", [group(["cpu", "memory", "pods"], ("default-flavor", {"cpu": "2", "memory": "8Gi", "pods": "2"}))],
                    version="v1beta1", pending=1)
    s.local_queue("ml", "user-queue", "cq-ml", version="v1beta1", pending=1)
    job = s.job("ml", "train", 3, [s.container("trainer", cpu="1", memory="1Gi")], queue="user-queue", created="08:41:10")
    msg = ("couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default-flavor, "
           "previously considered podsets requests (0) + current podset request (3) > maximum capacity (2)")
    w = s.workload(job, version="v1beta1", conditions=[
        cond("QuotaReserved", "False", "Pending", msg, "08:41:11"),
        cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:41:11"),
    ], extra_status={"resourceRequests": [{"name": "main", "resources": {"cpu": "3", "memory": "3Gi", "pods": "3"}}]})
    s.event(job, "CreatedWorkload", f"Created Workload: ml/{w['metadata']['name']}", first="08:41:10", component="batch/job-kueue-controller")
    s.event(w, "Pending", msg, "Warning", count=34, first="08:41:11", last="09:14:00")
    return s


def localqueue_stopped():
    s = Scenario("localqueue-stopped")
    s.namespace("research")
    s.flavor("default-flavor")
    s.cluster_queue("cq-research", [group(["cpu", "memory"], ("default-flavor", {"cpu": "16", "memory": "64Gi"}))], pending=0)
    s.local_queue("research", "lq-research", "cq-research", stop="Hold",
                  active=("False", "Stopped", "LocalQueue is stopped"), pending=1)
    job = s.job("research", "sweep", 2, [s.container("sweep", cpu="2", memory="4Gi")], queue="lq-research", created="08:20:00")
    msg = "LocalQueue lq-research is stopped"
    w = s.workload(job, conditions=[
        cond("QuotaReserved", "False", "Inadmissible", msg, "08:20:01"),
        cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:20:01"),
    ])
    s.event(w, "Inadmissible", msg, "Warning", count=12, first="08:20:01", last="09:14:00")
    return s


def localqueue_missing():
    s = Scenario("localqueue-missing")
    s.namespace("team-a")
    s.flavor("default-flavor")
    s.cluster_queue("cluster-queue", [group(["cpu", "memory"], ("default-flavor", {"cpu": "9", "memory": "36Gi"}))])
    s.local_queue("team-a", "team-queue", "cluster-queue")
    job = s.job("team-a", "etl", 1, [s.container("etl", cpu="1", memory="1Gi")], queue="user-queue", created="08:55:21")
    msg = "LocalQueue user-queue doesn't exist"
    w = s.workload(job, conditions=[
        cond("QuotaReserved", "False", "Inadmissible", msg, "08:55:21"),
        cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:55:21"),
    ])
    s.event(w, "Inadmissible", msg, "Warning", count=5, first="08:55:21", last="09:14:00")
    return s


def clusterqueue_missing_flavor():
    s = Scenario("clusterqueue-missing-flavor")
    s.namespace("vision")
    s.flavor("on-demand", labels={"cloud.example.com/capacity": "on-demand"})
    s.cluster_queue("cq-gpu", [group(["cpu", "nvidia.com/gpu"],
                                     ("on-demand", {"cpu": "32", "nvidia.com/gpu": "4"}),
                                     ("spot", {"cpu": "32", "nvidia.com/gpu": "8"}))],
                    active=("False", "FlavorNotFound", "Can't admit new workloads: references missing ResourceFlavor(s): spot."),
                    pending=1)
    s.local_queue("vision", "gpu-queue", "cq-gpu",
                  active=("False", "ClusterQueueIsInactive", "Can't submit new workloads to clusterQueue"), pending=1)
    job = s.job("vision", "detector", 2, [s.container("train", cpu="4", gpu="1")], queue="gpu-queue", created="08:30:00")
    msg = "ClusterQueue cq-gpu is inactive"
    w = s.workload(job, conditions=[
        cond("QuotaReserved", "False", "Suspended", msg, "08:30:01"),
        cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:30:01"),
    ])
    s.event(w, "Suspended", msg, "Warning", count=9, first="08:30:01", last="09:14:00")
    return s


def namespace_selector():
    s = Scenario("namespace-selector")
    s.namespace("ml", {"team": "ml"})
    s.namespace("analytics", {"team": "analytics"})
    s.flavor("default-flavor")
    s.cluster_queue("cq-research", [group(["cpu", "memory"], ("default-flavor", {"cpu": "16", "memory": "64Gi"}))],
                    ns_selector={"matchLabels": {"team": "research"}}, pending=1)
    # No namespaceSelector at all: Kueue selects no namespace.
    s.cluster_queue("cq-shared", [group(["cpu", "memory"], ("default-flavor", {"cpu": "16", "memory": "64Gi"}))],
                    ns_selector=None, pending=1)
    s.local_queue("ml", "research", "cq-research", pending=1)
    s.local_queue("analytics", "shared", "cq-shared", pending=1)
    msg = "workload namespace doesn't match ClusterQueue selector"
    j1 = s.job("ml", "bert", 1, [s.container("bert", cpu="2", memory="4Gi")], queue="research", created="08:12:00")
    w1 = s.workload(j1, conditions=[cond("QuotaReserved", "False", "Misconfigured", msg, "08:12:01"),
                                    cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:12:01")])
    s.event(w1, "Misconfigured", msg, "Warning", count=20, first="08:12:01", last="09:14:00")
    j2 = s.job("analytics", "report", 1, [s.container("report", cpu="1", memory="2Gi")], queue="shared", created="08:50:00")
    w2 = s.workload(j2, conditions=[cond("QuotaReserved", "False", "Inadmissible", msg, "08:50:01"),
                                    cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:50:01")])
    s.event(w2, "Inadmissible", msg, "Warning", count=8, first="08:50:01", last="09:13:30")
    return s


def cohort_borrowing():
    """Cohort research: cq-a (4 cpu, no borrowingLimit), cq-c (4 cpu, borrowingLimit 2), cq-b (8 cpu, lends)."""
    s = Scenario("cohort-borrowing")
    s.namespace("team-a")
    s.namespace("team-b")
    s.namespace("team-c")
    s.flavor("default-flavor")
    s.cohort("research")
    s.cluster_queue("cq-a", [group(["cpu"], ("default-flavor", {"cpu": "4"}))], cohort="research", pending=1)
    s.cluster_queue("cq-b", [group(["cpu"], ("default-flavor", {"cpu": "8"}))], cohort="research")
    s.cluster_queue("cq-c", [group(["cpu"], ("default-flavor", {"cpu": ("4", "2")}))], cohort="research", pending=1)
    s.local_queue("team-a", "lq", "cq-a", pending=1)
    s.local_queue("team-b", "lq", "cq-b")
    s.local_queue("team-c", "lq", "cq-c", pending=1)
    # team-b runs 6 cpu of its own 8.
    jb = s.job("team-b", "sim", 3, [s.container("sim", cpu="2")], queue="lq", suspend=False, created="07:50:00",
               status=running_job_status(3, "07:50:02"))
    s.workload(jb, cq="cq-b", conditions=admitted("cq-b", "07:50:01"),
               admission={"clusterQueue": "cq-b", "podSetAssignments": [assignment({"cpu": "default-flavor"}, {"cpu": "6"}, 3)]})
    for i, sfx in enumerate(["4xk2p", "9qz7m", "w2n8c"]):
        s.pod(jb, sfx, node=f"node-{i + 1}", created="07:50:03", node_selector=None)
    for i in range(3):
        s.node(f"node-{i + 1}", cpu="8")
    # team-a needs 12: cohort holds 16 (4 + 8 + 4), 6 used: 10 free -> fits later.
    ja = s.job("team-a", "big-train", 3, [s.container("train", cpu="4")], queue="lq", created="08:30:00")
    msg_a = "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default-flavor, 2 more needed"
    wa = s.workload(ja, conditions=[cond("QuotaReserved", "False", "WaitingForQuota", msg_a, "08:30:01"),
                                    cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:30:01")])
    s.event(wa, "WaitingForQuota", msg_a, "Warning", count=40, first="08:30:01", last="09:14:00")
    # team-c needs 8: borrowingLimit 2 caps it at 6 -> never.
    jc = s.job("team-c", "eval", 2, [s.container("eval", cpu="4")], queue="lq", created="08:40:00")
    msg_c = ("couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default-flavor, "
             "previously considered podsets requests (0) + current podset request (8) > maximum capacity (6)")
    wc = s.workload(jc, conditions=[cond("QuotaReserved", "False", "ExceedsMaxQuota", msg_c, "08:40:01"),
                                    cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:40:01")])
    s.event(wc, "ExceedsMaxQuota", msg_c, "Warning", count=30, first="08:40:01", last="09:13:50")
    return s


def seed_cohort():
    """The seed in a cohort, for the served pages: Job ml/train (parallelism 3 at 1 cpu) against
    ClusterQueue cq-ml (2 cpu, 2 pods) in cohort ml-pool, whose other member cq-research keeps
    all of its 4 cpu (lendingLimit 0): nothing to borrow, so the Workload can never be admitted.
    ResourceFlavor cpu-pool selects the nodes labelled pool=cpu."""
    s = Scenario("seed-cohort")
    s.namespace("ml")
    s.namespace("research")
    s.node("worker-1", labels={"pool": "cpu"}, cpu="4")
    s.node("worker-2", labels={"pool": "gpu"}, cpu="4")
    s.flavor("cpu-pool", labels={"pool": "cpu"})
    s.cohort("ml-pool")
    s.cluster_queue("cq-ml", [group(["cpu", "memory", "pods"], ("cpu-pool", {"cpu": "2", "memory": "8Gi", "pods": "2"}))],
                    cohort="ml-pool", pending=1)
    s.cluster_queue("cq-research", [group(["cpu", "memory", "pods"],
                                          ("cpu-pool", {"cpu": ("4", None, "0"), "memory": ("8Gi", None, "0"),
                                                        "pods": ("4", None, "0")}))], cohort="ml-pool")
    s.local_queue("ml", "user-queue", "cq-ml", pending=1)
    s.local_queue("research", "lq", "cq-research")
    job = s.job("ml", "train", 3, [s.container("trainer", cpu="1", memory="1Gi")], queue="user-queue", created="08:41:10")
    msg = ("couldn't assign flavors to pod set main: insufficient quota for cpu in flavor cpu-pool, "
           "previously considered podsets requests (0) + current podset request (3) > maximum capacity (2)")
    w = s.workload(job, conditions=[
        cond("QuotaReserved", "False", "ExceedsMaxQuota", msg, "08:41:11"),
        cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:41:11"),
    ], extra_status={"resourceRequests": [{"name": "main", "resources": {"cpu": "3", "memory": "3Gi", "pods": "3"}}]})
    s.event(job, "CreatedWorkload", f"Created Workload: ml/{w['metadata']['name']}", first="08:41:10", component="batch/job-kueue-controller")
    s.event(w, "ExceedsMaxQuota", msg, "Warning", count=34, first="08:41:11", last="09:14:00")
    return s


def queue_full():
    s = Scenario("queue-full")
    s.namespace("batch")
    s.flavor("default-flavor")
    for i in range(2):
        s.node(f"worker-{i + 1}", cpu="16")
    s.cluster_queue("cq-batch", [group(["cpu", "memory"], ("default-flavor", {"cpu": "8", "memory": "32Gi"}))], pending=1)
    s.local_queue("batch", "batch-queue", "cq-batch", pending=1)
    for jname, at, sfx in [("nightly-a", "07:40:00", ["b7x2k", "f9m4q", "p3t6w"]), ("nightly-b", "07:45:00", ["c8r5n", "h2v7z", "k6d9s"])]:
        j = s.job("batch", jname, 3, [s.container("run", cpu="1", memory="2Gi")], queue="batch-queue", suspend=False,
                  created=at, status=running_job_status(3, at))
        s.workload(j, cq="cq-batch", conditions=admitted("cq-batch", at),
                   admission={"clusterQueue": "cq-batch", "podSetAssignments": [
                       assignment({"cpu": "default-flavor", "memory": "default-flavor"}, {"cpu": "3", "memory": "6Gi"}, 3)]})
        for i, sx in enumerate(sfx):
            s.pod(j, sx, node=f"worker-{i % 2 + 1}", created=at)
    # A plain pod (pod integration): gated by Kueue, its Workload owned by the pod.
    pod = s.pod(None, "", phase="Pending", created="08:50:00", gates=["kueue.x-k8s.io/admission"], name="adhoc-query-6wq2d",
                labels={"__ns": "batch", "kueue.x-k8s.io/queue-name": "batch-queue", "kueue.x-k8s.io/managed": "true"})
    pod["spec"] = {"containers": [s.container("query", cpu="3", memory="1Gi", image="registry.example.com/batch/query:1.2")],
                   "restartPolicy": "Never", "schedulingGates": [{"name": "kueue.x-k8s.io/admission"}],
                   "schedulerName": "default-scheduler"}
    pod["metadata"]["generateName"] = "adhoc-query-"
    pm = pod["metadata"]
    wname = workload_name("Pod", "", pm["name"], pm["uid"])
    pmsg = "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default-flavor, 1 more needed"
    pw = s.add({
        "apiVersion": f"{KUEUE}/v1beta2", "kind": "Workload",
        "metadata": s.meta("Workload", wname, "batch", created="08:50:00", labels={"kueue.x-k8s.io/job-uid": pm["uid"]},
                           owner={"apiVersion": "v1", "blockOwnerDeletion": True, "controller": True, "kind": "Pod",
                                  "name": pm["name"], "uid": pm["uid"]},
                           extra={"finalizers": ["kueue.x-k8s.io/resource-in-use"], "generation": 1}),
        "spec": {"active": True, "priority": 0, "queueName": "batch-queue",
                 "podSets": [{"count": 1, "name": "main", "template": {"metadata": {"labels": {"kueue.x-k8s.io/queue-name": "batch-queue"}},
                                                                     "spec": {k: v for k, v in pod["spec"].items() if k != "schedulingGates"}}}]},
        "status": {"conditions": [cond("QuotaReserved", "False", "Pending", pmsg, "08:50:01"),
                                  cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:50:01")]},
    })
    s.workloads.append((pw, None))
    s.event(pw, "Pending", pmsg, "Warning", count=22, first="08:50:01", last="09:13:55")
    jp = s.job("batch", "backfill", 4, [s.container("run", cpu="1", memory="2Gi")], queue="batch-queue", created="08:05:00")
    msg = "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default-flavor, 2 more needed"
    w = s.workload(jp, conditions=[cond("QuotaReserved", "False", "Pending", msg, "08:05:01"),
                                   cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:05:01")])
    s.event(w, "Pending", msg, "Warning", count=52, first="08:05:01", last="09:14:00")
    return s


def admitted_unschedulable():
    s = Scenario("admitted-unschedulable")
    s.namespace("vision")
    for i in range(3):
        s.node(f"cpu-node-{i + 1}", labels={"cloud.example.com/accelerator": "none"}, cpu="16")
    s.flavor("a100", labels={"cloud.example.com/accelerator": "a100"},
             taints=[{"effect": "NoSchedule", "key": "nvidia.com/gpu", "value": "present"}],
             tolerations=[{"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Equal", "value": "present"}])
    s.cluster_queue("cq-gpu", [group(["cpu", "nvidia.com/gpu"], ("a100", {"cpu": "64", "nvidia.com/gpu": "8"}))])
    s.local_queue("vision", "gpu-queue", "cq-gpu")
    sel = {"cloud.example.com/accelerator": "a100"}
    tol = [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Equal", "value": "present"}]
    job = s.job("vision", "segmenter", 2, [s.container("train", cpu="8", gpu="2")], queue="gpu-queue", suspend=False,
                created="08:30:00", node_selector=sel, tolerations=tol,
                status={"active": 2, "ready": 0, "startTime": t("08:30:03"), "terminating": 0, "uncountedTerminatedPods": {}})
    w = s.workload(job, cq="cq-gpu", conditions=admitted("cq-gpu", "08:30:02"),
                   admission={"clusterQueue": "cq-gpu", "podSetAssignments": [
                       assignment({"cpu": "a100", "nvidia.com/gpu": "a100"}, {"cpu": "16", "nvidia.com/gpu": "4"}, 2)]},
                   podsets=None)
    # The Workload's podset template is the Job's before admission (no injected selector).
    w["spec"]["podSets"][0]["template"]["spec"] = {k: v for k, v in job["spec"]["template"]["spec"].items()
                                                   if k not in ("nodeSelector", "tolerations")}
    msg = ("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are "
           "available: 3 Preemption is not helpful for scheduling.")
    for sfx in ["m4k8v", "t7q2x"]:
        p = s.pod(job, sfx, phase="Pending", created="08:30:03", scheduled_msg=msg)
        s.event(p, "FailedScheduling", msg, "Warning", count=45, first="08:30:03", last="09:14:00", component="default-scheduler")
    s.event(w, "Admitted", "Admitted by ClusterQueue cq-gpu, wait time since reservation was 0s", first="08:30:02")
    s.event(job, "Started", "Admitted by clusterQueue cq-gpu", first="08:30:02", component="batch/job-kueue-controller")
    return s


def no_matching_flavor():
    s = Scenario("no-matching-flavor")
    s.namespace("infer")
    s.flavor("spot", labels={"instance-type": "spot"}, taints=[{"effect": "NoSchedule", "key": "spot", "value": "true"}])
    s.flavor("on-demand", labels={"instance-type": "on-demand"})
    s.cluster_queue("cq-infer", [group(["cpu", "memory"],
                                       ("spot", {"cpu": "32", "memory": "128Gi"}),
                                       ("on-demand", {"cpu": "16", "memory": "64Gi"}))], pending=2)
    s.local_queue("infer", "infer-queue", "cq-infer", pending=2)
    # Selects spot nodes but does not tolerate the spot taint; on-demand has other labels.
    j1 = s.job("infer", "batch-embed", 2, [s.container("embed", cpu="2", memory="4Gi")], queue="infer-queue",
               created="08:10:00", node_selector={"instance-type": "spot"})
    msg1 = ("couldn't assign flavors to pod set main: flavor on-demand doesn't match node affinity, "
            "untolerated taint {spot true NoSchedule <nil>} in flavor spot")
    w1 = s.workload(j1, conditions=[cond("QuotaReserved", "False", "NoMatchingFlavor", msg1, "08:10:01"),
                                    cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:10:01")])
    s.event(w1, "NoMatchingFlavor", msg1, "Warning", count=25, first="08:10:01", last="09:14:00")
    # Requests GPUs the ClusterQueue does not cover.
    j2 = s.job("infer", "llm-serve-test", 1, [s.container("llm", cpu="4", memory="16Gi", gpu="1")], queue="infer-queue",
               created="08:20:00")
    msg2 = "couldn't assign flavors to pod set main: resource nvidia.com/gpu unavailable in ClusterQueue"
    w2 = s.workload(j2, conditions=[cond("QuotaReserved", "False", "Pending", msg2, "08:20:01"),
                                    cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:20:01")])
    s.event(w2, "Pending", msg2, "Warning", count=18, first="08:20:01", last="09:13:40")
    return s


def admission_checks():
    s = Scenario("admission-checks")
    s.namespace("gpu")
    s.flavor("a3-highgpu", labels={"cloud.google.com/gke-accelerator": "nvidia-h100-80gb"})
    s.admission_check("dws-prov")
    s.cluster_queue("dws-cluster-queue", [group(["cpu", "nvidia.com/gpu"], ("a3-highgpu", {"cpu": "208", "nvidia.com/gpu": "16"}))],
                    checks=["dws-prov"])
    s.local_queue("gpu", "dws-queue", "dws-cluster-queue")
    j1 = s.job("gpu", "finetune", 1, [s.container("ft", cpu="24", gpu="8")], queue="dws-queue", created="08:50:00")
    s.workload(j1, cq="dws-cluster-queue", conditions=[
        cond("QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue dws-cluster-queue", "08:50:01"),
        cond("Admitted", "False", "UnsatisfiedChecks", "The workload has not all checks ready", "08:50:01"),
    ], admission={"clusterQueue": "dws-cluster-queue", "podSetAssignments": [
        assignment({"cpu": "a3-highgpu", "nvidia.com/gpu": "a3-highgpu"}, {"cpu": "24", "nvidia.com/gpu": "8"}, 1)]},
        extra_status={"admissionChecks": [{"lastTransitionTime": t("08:50:01"), "message": "", "name": "dws-prov", "state": "Pending"}]})
    j2 = s.job("gpu", "pretrain", 1, [s.container("pt", cpu="24", gpu="8")], queue="dws-queue", created="08:10:00")
    w2 = s.workload(j2, cq="dws-cluster-queue", conditions=[
        cond("QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue dws-cluster-queue", "08:10:01"),
        cond("Admitted", "False", "UnsatisfiedAdmissionChecks", "The workload has not all checks ready", "08:10:01"),
    ], admission={"clusterQueue": "dws-cluster-queue", "podSetAssignments": [
        assignment({"cpu": "a3-highgpu", "nvidia.com/gpu": "a3-highgpu"}, {"cpu": "24", "nvidia.com/gpu": "8"}, 1)]},
        extra_status={"admissionChecks": [{"lastTransitionTime": t("08:40:00"),
                                           "message": "ProvisioningRequest failed: no capacity in zone us-central1-a for nvidia-h100-80gb",
                                           "name": "dws-prov", "state": "Rejected"}]})
    s.event(w2, "AdmissionCheckUpdated",
            "Admission check dws-prov updated state from Pending to Rejected with message: ProvisioningRequest failed: no capacity in zone us-central1-a for nvidia-h100-80gb",
            "Warning", first="08:40:00", last="09:14:00")
    return s


def strict_fifo():
    s = Scenario("strict-fifo")
    s.namespace("hpc")
    s.flavor("default-flavor")
    s.priority_class("urgent", 1000)
    s.cluster_queue("cq-hpc", [group(["cpu"], ("default-flavor", {"cpu": "8"}))], strategy="StrictFIFO", pending=2)
    s.local_queue("hpc", "hpc-queue", "cq-hpc", pending=2)
    jr = s.job("hpc", "solver", 1, [s.container("solver", cpu="4")], queue="hpc-queue", suspend=False, created="07:40:00",
               status=running_job_status(1, "07:40:02"))
    s.workload(jr, cq="cq-hpc", conditions=admitted("cq-hpc", "07:40:01"),
               admission={"clusterQueue": "cq-hpc", "podSetAssignments": [assignment({"cpu": "default-flavor"}, {"cpu": "4"}, 1)]})
    s.node("hpc-1", cpu="16")
    s.pod(jr, "r8m2k", node="hpc-1", created="07:40:02")
    # Head: newer but higher priority, needs 6 of the 4 free.
    jh = s.job("hpc", "urgent-mesh", 1, [s.container("mesh", cpu="6")], queue="hpc-queue", created="08:30:00",
               priority_class="urgent")
    msg = "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default-flavor, 2 more needed"
    wh = s.workload(jh, conditions=[cond("QuotaReserved", "False", "Pending", msg, "08:30:01"),
                                    cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:30:01")],
                    priority=1000, priority_class="urgent")
    s.event(wh, "Pending", msg, "Warning", count=30, first="08:30:01", last="09:14:00")
    # Behind it: older, priority 0, needs 1 cpu and would fit.
    jb = s.job("hpc", "post-process", 1, [s.container("post", cpu="1")], queue="hpc-queue", created="08:00:00")
    s.workload(jb, conditions=[cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:00:01")])
    return s


def evicted():
    s = Scenario("evicted")
    s.namespace("train")
    s.flavor("default-flavor")
    s.priority_class("production", 1000)
    s.cluster_queue("cq-train", [group(["cpu"], ("default-flavor", {"cpu": "8"}))],
                    preemption={"borrowWithinCohort": {"policy": "Never"}, "reclaimWithinCohort": "Never",
                                "withinClusterQueue": "LowerPriority"}, pending=1)
    s.local_queue("train", "train-queue", "cq-train", pending=1)
    s.node("trainer-1", cpu="16")
    # The preemptor holds 8 cpu.
    jp = s.job("train", "prod-train", 2, [s.container("train", cpu="4")], queue="train-queue", suspend=False,
               created="08:20:00", status=running_job_status(2, "08:20:05"), priority_class="production")
    wp = s.workload(jp, cq="cq-train", conditions=admitted("cq-train", "08:20:04"), priority=1000, priority_class="production",
                    admission={"clusterQueue": "cq-train", "podSetAssignments": [assignment({"cpu": "default-flavor"}, {"cpu": "8"}, 2)]})
    for sfx in ["g5t1z", "n8w3c"]:
        s.pod(jp, sfx, node="trainer-1", created="08:20:05")
    # The victim: preempted, pending again.
    jv = s.job("train", "experiment", 1, [s.container("exp", cpu="4")], queue="train-queue", created="08:00:00")
    pre = (f"Preempted to accommodate a workload (UID: {wp['metadata']['uid']}, JobUID: {jp['metadata']['uid']}) "
           f"due to prioritization in the ClusterQueue; preemptor path: /cq-train; preemptee path: /cq-train")
    wait = "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default-flavor, 4 more needed"
    wv = s.workload(jv, conditions=[
        cond("Evicted", "True", "Preempted", pre, "08:20:03"),
        cond("Preempted", "True", "InClusterQueue", pre, "08:20:03"),
        cond("QuotaReserved", "False", "WaitingForQuota", wait, "08:20:04"),
        cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:20:03"),
        cond("Requeued", "True", "Preempted", pre, "08:20:03"),
    ])
    s.event(wv, "Preempted", pre, first="08:20:03")
    s.event(wv, "WaitingForQuota", wait, "Warning", count=41, first="08:20:04", last="09:14:00")
    # Deactivated after too many PodsReady timeouts.
    jd = s.job("train", "flaky", 2, [s.container("flaky", cpu="1")], queue="train-queue", created="06:30:00")
    s.workload(jd, active=False, conditions=[
        cond("Evicted", "True", "DeactivatedDueToRequeuingLimitExceeded",
             "The workload is deactivated due to exceeding the maximum number of re-queuing retries", "08:02:10"),
        cond("QuotaReserved", "False", "Deactivated", "The workload is deactivated", "08:02:10"),
        cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:02:10"),
    ], extra_status={"requeueState": {"count": 5}})
    # In back-off after a PodsReady timeout.
    jt = s.job("train", "slow-start", 1, [s.container("slow", cpu="1")], queue="train-queue", created="08:40:00")
    timeout = f"Exceeded the PodsReady timeout train/{workload_name('Job', 'batch', 'slow-start', jt['metadata']['uid'])}"
    s.workload(jt, conditions=[
        cond("Evicted", "True", "PodsReadyTimeout", timeout, "09:10:00"),
        cond("QuotaReserved", "False", "Pending", timeout, "09:10:00"),
        cond("Admitted", "False", "NoReservation", "The workload has no reservation", "09:10:00"),
    ], extra_status={"requeueState": {"count": 2, "requeueAt": t("09:20:00")}})
    return s


def job_without_workload():
    s = Scenario("job-without-workload")
    s.namespace("dev")
    s.flavor("default-flavor")
    s.cluster_queue("cluster-queue", [group(["cpu", "memory"], ("default-flavor", {"cpu": "9", "memory": "36Gi"}))])
    s.local_queue("dev", "user-queue", "cluster-queue")
    # Suspended for Kueue, no Workload: Kueue never picked it up.
    s.job("dev", "sample-job-x7k2p", 3, [s.container("dummy-job", cpu="1", memory="200Mi",
                                                     image="registry.k8s.io/e2e-test-images/agnhost:2.53")],
          queue="user-queue", created="08:45:00")
    # A plain pod held by Kueue's gate, no Workload.
    p = s.pod(None, "", phase="Pending", created="08:46:00", gates=["kueue.x-k8s.io/admission"], name="kueue-sleep-4jx9c",
              labels={"__ns": "dev", "kueue.x-k8s.io/queue-name": "user-queue"})
    p["spec"] = {"containers": [s.container("sleep", cpu="3", image="busybox")], "restartPolicy": "OnFailure",
                 "schedulingGates": [{"name": "kueue.x-k8s.io/admission"}]}
    p["metadata"]["generateName"] = "kueue-sleep-"
    # One Workload exists in the bundle (so Workloads were collected): an admitted one.
    ok = s.job("dev", "nightly", 1, [s.container("n", cpu="1", memory="200Mi")], queue="user-queue", suspend=False,
               created="08:00:00", status=running_job_status(1, "08:00:03"))
    s.workload(ok, cq="cluster-queue", conditions=admitted("cluster-queue", "08:00:02"),
               admission={"clusterQueue": "cluster-queue", "podSetAssignments": [
                   assignment({"cpu": "default-flavor", "memory": "default-flavor"}, {"cpu": "1", "memory": "200Mi"}, 1)]})
    s.node("dev-node-1", cpu="8")
    s.pod(ok, "q2w8e", node="dev-node-1", created="08:00:03")
    s.event(ok, "Started", "Admitted by clusterQueue cluster-queue", first="08:00:02", last="09:14:00",
            component="batch/job-kueue-controller")
    return s


def stale_condition():
    """Kueue's last word predates the snapshot: the Workload holding the quota has finished."""
    s = Scenario("stale-condition")
    s.namespace("etl")
    s.flavor("default-flavor")
    s.cluster_queue("cq-etl", [group(["cpu"], ("default-flavor", {"cpu": "4"}))], pending=1)
    s.local_queue("etl", "etl-queue", "cq-etl", pending=1)
    done = s.job("etl", "hourly-0800", 3, [s.container("load", cpu="1")], queue="etl-queue", suspend=False,
                 created="08:00:00", status={"completionTime": t("09:13:40"), "startTime": t("08:00:03"), "succeeded": 3,
                                             "conditions": [
                                                 {"lastProbeTime": t("09:13:40"), "lastTransitionTime": t("09:13:40"),
                                                  "message": "Reached expected number of succeeded pods",
                                                  "reason": "CompletionsReached", "status": "True", "type": "Complete"}]})
    s.workload(done, cq="cq-etl", conditions=admitted("cq-etl", "08:00:02") + [
        cond("Finished", "True", "Succeeded", "Job finished successfully", "09:13:41")],
        admission={"clusterQueue": "cq-etl", "podSetAssignments": [assignment({"cpu": "default-flavor"}, {"cpu": "3"}, 3)]})
    j = s.job("etl", "hourly-0900", 3, [s.container("load", cpu="1")], queue="etl-queue", created="09:00:00")
    msg = "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default-flavor, 2 more needed"
    w = s.workload(j, conditions=[cond("QuotaReserved", "False", "Pending", msg, "09:00:01"),
                                  cond("Admitted", "False", "NoReservation", "The workload has no reservation", "09:00:01")])
    s.event(w, "Pending", msg, "Warning", count=14, first="09:00:01", last="09:13:30")
    s.event(done, "Completed", "Job completed", first="09:13:40", last="09:14:00", component="job-controller")
    return s


def healthy():
    s = Scenario("healthy")
    s.namespace("ml", {"team": "ml"})
    s.flavor("default-flavor")
    s.cohort("org")
    s.cluster_queue("cq-ml", [group(["cpu", "memory", "pods"], ("default-flavor", {"cpu": "8", "memory": "32Gi", "pods": "10"}))],
                    cohort="org", ns_selector={"matchLabels": {"team": "ml"}})
    s.cluster_queue("cq-other", [group(["cpu", "memory", "pods"], ("default-flavor", {"cpu": "8", "memory": "32Gi", "pods": "10"}))],
                    cohort="org")
    s.local_queue("ml", "user-queue", "cq-ml")
    for i in range(2):
        s.node(f"node-{i + 1}", cpu="16")
    j = s.job("ml", "train", 3, [s.container("trainer", cpu="1", memory="1Gi")], queue="user-queue", suspend=False,
              created="08:41:10", status=running_job_status(3, "08:41:13"))
    w = s.workload(j, cq="cq-ml", conditions=admitted("cq-ml", "08:41:11"),
                   admission={"clusterQueue": "cq-ml", "podSetAssignments": [
                       assignment({"cpu": "default-flavor", "memory": "default-flavor", "pods": "default-flavor"},
                                  {"cpu": "3", "memory": "3Gi", "pods": "3"}, 3)]})
    for i, sfx in enumerate(["5n7kq", "8r2xw", "d4m9t"]):
        s.pod(j, sfx, node=f"node-{i % 2 + 1}", created="08:41:13")
    s.event(w, "QuotaReserved", "Quota reserved in ClusterQueue cq-ml, wait time since queued was 1s", first="08:41:11")
    s.event(w, "Admitted", "Admitted by ClusterQueue cq-ml, wait time since reservation was 0s", first="08:41:11")
    # A finished Workload of a completed Job.
    done = s.job("ml", "prep", 1, [s.container("prep", cpu="1", memory="1Gi")], queue="user-queue", suspend=False,
                 created="07:40:00", status={"completionTime": t("07:45:00"), "startTime": t("07:40:03"), "succeeded": 1,
                                             "conditions": [
                                                 {"lastProbeTime": t("07:45:00"), "lastTransitionTime": t("07:45:00"),
                                                  "message": "Reached expected number of succeeded pods",
                                                  "reason": "CompletionsReached", "status": "True", "type": "SuccessCriteriaMet"},
                                                 {"lastProbeTime": t("07:45:00"), "lastTransitionTime": t("07:45:00"),
                                                  "message": "Reached expected number of succeeded pods",
                                                  "reason": "CompletionsReached", "status": "True", "type": "Complete"}]})
    s.workload(done, cq="cq-ml", conditions=admitted("cq-ml", "07:40:02") + [
        cond("Finished", "True", "Succeeded", "Job finished successfully", "07:45:00")],
        admission={"clusterQueue": "cq-ml", "podSetAssignments": [
            assignment({"cpu": "default-flavor", "memory": "default-flavor", "pods": "default-flavor"},
                       {"cpu": "1", "memory": "1Gi", "pods": "1"}, 1)]})
    s.event(j, "Started", "Admitted by clusterQueue cq-ml", first="08:41:11", last="09:14:00", component="batch/job-kueue-controller")
    return s


def jobset(s, ns, name, queue, replicated, created):
    """A suspended JobSet (jobset.x-k8s.io/v1alpha2) and its podsets as Kueue builds them:
    one podset per replicatedJob, count = replicas × parallelism."""
    js = s.add({
        "apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
        "metadata": s.meta("JobSet", name, ns, created=created, labels={"kueue.x-k8s.io/queue-name": queue}, extra={"generation": 1}),
        "spec": {
            "network": {"enableDNSHostnames": True, "publishNotReadyAddresses": True},
            "replicatedJobs": [{"name": rj, "replicas": 1, "template": {"spec": {
                "backoffLimit": 0, "completionMode": "Indexed", "completions": n, "parallelism": n,
                "template": {"spec": {"containers": [s.container(rj, cpu=cpu, memory=mem, image=f"registry.example.com/sim/{rj}:1.3")],
                                      "restartPolicy": "Never"}}}}} for rj, n, cpu, mem in replicated],
            "startupPolicy": {"startupPolicyOrder": "AnyOrder"},
            "successPolicy": {"operator": "All"},
            "suspend": True,
        },
        "status": {"restarts": 0, "terminalState": ""},
    })
    podsets = [{"count": n, "name": rj,
                "template": {"metadata": {"labels": {"jobset.sigs.k8s.io/jobset-name": name, "jobset.sigs.k8s.io/replicatedjob-name": rj}},
                             "spec": {"containers": [s.container(rj, cpu=cpu, memory=mem, image=f"registry.example.com/sim/{rj}:1.3")],
                                      "restartPolicy": "Never"}}}
               for rj, n, cpu, mem in replicated]
    return js, podsets


def multi_podset():
    """JobSet sim/orbit: podsets launcher (1 x 4 cpu) and workers (3 x 4 cpu); each fits the
    14 cpu of cq-sim alone, the two together (16) never do. JobSet sim/probe (2 + 8 cpu) was admitted."""
    s = Scenario("multi-podset")
    s.namespace("sim")
    s.flavor("default-flavor")
    s.cluster_queue("cq-sim", [group(["cpu", "memory"], ("default-flavor", {"cpu": "14", "memory": "64Gi"}))], pending=1)
    s.local_queue("sim", "lq-sim", "cq-sim", pending=1)
    for i in range(2):
        s.node(f"node-{i + 1}", cpu="16")
    js, ps = jobset(s, "sim", "orbit", "lq-sim", [("launcher", 1, "4", "8Gi"), ("workers", 3, "4", "8Gi")], "08:50:00")
    msg = ("couldn't assign flavors to pod set workers: insufficient quota for cpu in flavor default-flavor, "
           "previously considered podsets requests (4) + current podset request (12) > maximum capacity (14)")
    w = s.workload(js, podsets=ps, conditions=[cond("QuotaReserved", "False", "ExceedsMaxQuota", msg, "08:50:01"),
                                               cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:50:01")],
                   extra_status={"resourceRequests": [{"name": "launcher", "resources": {"cpu": "4", "memory": "8Gi"}},
                                                      {"name": "workers", "resources": {"cpu": "12", "memory": "24Gi"}}]})
    s.event(w, "ExceedsMaxQuota", msg, "Warning", count=26, first="08:50:01", last="09:13:58")
    return s


def lending_limit():
    """Cohort labs: cq-x (4 cpu, lends all of it) borrows from cq-y (10 cpu, lendingLimit 2), which
    runs 9 cpu of its own. cq-x can reach at most 4 + 2 = 6 cpu: eval (8) never fits, tune (6)
    waits for the 1 cpu cq-y uses beyond the 8 it keeps."""
    s = Scenario("lending-limit")
    s.namespace("labs-x")
    s.namespace("labs-y")
    s.flavor("default-flavor")
    s.cohort("labs")
    s.cluster_queue("cq-x", [group(["cpu"], ("default-flavor", {"cpu": "4"}))], cohort="labs", pending=2)
    s.cluster_queue("cq-y", [group(["cpu"], ("default-flavor", {"cpu": ("10", None, "2")}))], cohort="labs")
    s.local_queue("labs-x", "lq", "cq-x", pending=2)
    s.local_queue("labs-y", "lq", "cq-y")
    for i in range(3):
        s.node(f"node-{i + 1}", cpu="8")
    jy = s.job("labs-y", "render", 3, [s.container("render", cpu="3")], queue="lq", suspend=False, created="07:40:00",
               status=running_job_status(3, "07:40:02"))
    s.workload(jy, cq="cq-y", conditions=admitted("cq-y", "07:40:01"),
               admission={"clusterQueue": "cq-y", "podSetAssignments": [assignment({"cpu": "default-flavor"}, {"cpu": "9"}, 3)]})
    for i, sfx in enumerate(["2kq7d", "8vx4m", "t6p9w"]):
        s.pod(jy, sfx, node=f"node-{i + 1}", created="07:40:03")
    je = s.job("labs-x", "eval", 2, [s.container("eval", cpu="4")], queue="lq", created="08:20:00")
    msg_e = ("couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default-flavor, "
             "previously considered podsets requests (0) + current podset request (8) > maximum capacity (6)")
    we = s.workload(je, conditions=[cond("QuotaReserved", "False", "ExceedsMaxQuota", msg_e, "08:20:01"),
                                    cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:20:01")])
    s.event(we, "ExceedsMaxQuota", msg_e, "Warning", count=31, first="08:20:01", last="09:13:40")
    jt = s.job("labs-x", "tune", 2, [s.container("tune", cpu="3")], queue="lq", created="08:35:00")
    msg_t = "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default-flavor, 1 more needed"
    wt = s.workload(jt, conditions=[cond("QuotaReserved", "False", "WaitingForQuota", msg_t, "08:35:01"),
                                    cond("Admitted", "False", "NoReservation", "The workload has no reservation", "08:35:01")])
    s.event(wt, "WaitingForQuota", msg_t, "Warning", count=33, first="08:35:01", last="09:14:00")
    return s


def backlog(name, waiting):
    """A ClusterQueue of 8 cpu held by two running Jobs (6 cpu), and `waiting` Jobs of two
    teams queued behind them, each needing more cpu than is left. Kueue wrote its messages
    at different times, with different amounts; the recomputed shortfall is the same:
    cq-batch, cpu in default-flavor. With 12 waiting (`backlog`) kdiag opens with one
    `kueue/quota-backlog` finding; with 9 (`backlog-quiet`, below the threshold of 10) it
    does not."""
    s = Scenario(name)
    s.namespace("batch")
    s.namespace("research")
    s.flavor("default-flavor")
    for i in range(2):
        s.node(f"worker-{i + 1}", cpu="16")
    s.cluster_queue("cq-batch", [group(["cpu", "memory"], ("default-flavor", {"cpu": "8", "memory": "32Gi"}))],
                    pending=waiting)
    for ns in ["batch", "research"]:
        s.local_queue(ns, f"{ns}-queue", "cq-batch", pending=sum(1 for i in range(waiting) if (i % 2 == 0) == (ns == "batch")))
    for jname, at, sfx in [("nightly-a", "07:40:00", ["b7x2k", "f9m4q", "p3t6w"]), ("nightly-b", "07:45:00", ["c8r5n", "h2v7z", "k6d9s"])]:
        j = s.job("batch", jname, 3, [s.container("run", cpu="1", memory="2Gi")], queue="batch-queue", suspend=False,
                  created=at, status=running_job_status(3, at))
        s.workload(j, cq="cq-batch", conditions=admitted("cq-batch", at),
                   admission={"clusterQueue": "cq-batch", "podSetAssignments": [
                       assignment({"cpu": "default-flavor", "memory": "default-flavor"}, {"cpu": "3", "memory": "6Gi"}, 3)]})
        for i, sx in enumerate(sfx):
            s.pod(j, sx, node=f"worker-{i % 2 + 1}", created=at)
    names = ["etl", "rollup", "export", "train", "eval", "embed", "index", "dedupe", "score", "report", "sweep", "tune"]
    for i in range(waiting):
        ns = "batch" if i % 2 == 0 else "research"
        par = 3 + i % 3
        at = f"08:{10 + 4 * i:02d}:00"
        jp = s.job(ns, names[i], par, [s.container("run", cpu="1", memory="2Gi")], queue=f"{ns}-queue", created=at)
        # The free cpu Kueue saw then: 2 before the last running Job started, 0 now.
        more = par - 2 if i < 3 else par
        msg = f"couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default-flavor, {more} more needed"
        w = s.workload(jp, conditions=[cond("QuotaReserved", "False", "Pending", msg, f"08:{10 + 4 * i:02d}:01"),
                                       cond("Admitted", "False", "NoReservation", "The workload has no reservation",
                                            f"08:{10 + 4 * i:02d}:01")])
        s.event(w, "Pending", msg, "Warning", count=10 + i, first=f"08:{10 + 4 * i:02d}:01", last="09:14:00")
    return s


def quota_backlog():
    return backlog("backlog", 12)


def quota_backlog_quiet():
    return backlog("backlog-quiet", 9)


SCENARIOS = [seed_quota, localqueue_stopped, localqueue_missing, clusterqueue_missing_flavor, namespace_selector,
             cohort_borrowing, queue_full, admitted_unschedulable, no_matching_flavor, admission_checks, strict_fifo,
             evicted, job_without_workload, stale_condition, healthy, multi_podset, lending_limit,
             quota_backlog, quota_backlog_quiet, seed_cohort]

KIND_ORDER = ["Namespace", "Node", "ResourceFlavor", "Cohort", "AdmissionCheck", "WorkloadPriorityClass", "ClusterQueue",
              "LocalQueue", "JobSet", "Job", "Workload", "Pod", "Event"]


def build():
    out = {}
    for f in SCENARIOS:
        s = f()
        s.finish()
        objs = sorted(s.objects, key=lambda o: (KIND_ORDER.index(o["kind"]), o["metadata"].get("namespace", ""),
                                                o["metadata"]["name"]))
        out[f"{s.name}.yaml"] = to_list_yaml(objs)
    return out


def main():
    files = build()
    if "--check" in sys.argv:
        bad = [n for n, text in files.items()
               if not os.path.exists(os.path.join(HERE, n)) or open(os.path.join(HERE, n)).read() != text]
        if bad:
            print("out of date:", ", ".join(bad))
            sys.exit(1)
        print("up to date")
        return
    for n, text in files.items():
        with open(os.path.join(HERE, n), "w") as fh:
            fh.write(text)
    print(f"wrote {len(files)} bundles")


if __name__ == "__main__":
    main()

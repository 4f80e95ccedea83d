#!/usr/bin/env python3
"""Build the creation / scheduling / node / runtime sample bundles.

    python3 sample-bundles/scheduling/gen.py            # (re)write every bundle
    python3 sample-bundles/scheduling/gen.py --check    # build in a temp dir, compare bytes

Python 3 standard library only; the output is deterministic. Each scenario is written
either as a kubectl-style `kind: List` YAML file (`<name>.yaml`) or, when it needs
container logs, as a Replicated troubleshoot folder (`<name>/support-bundle-…/`).
Every snapshot is taken at 2026-11-20T09:14:02Z on Kubernetes v1.31.2. See README.md
for what each bundle must (and must not) produce.
"""

import datetime
import filecmp
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SNAP = datetime.datetime(2026, 11, 20, 9, 14, 2, tzinfo=datetime.timezone.utc)
TS_ROOT = "support-bundle-2026-11-20T09_14_02"


def t(minutes=0.0, seconds=0):
    """A timestamp `minutes` (and `seconds`) before the snapshot."""
    d = SNAP - datetime.timedelta(minutes=minutes, seconds=seconds)
    return d.strftime("%Y-%m-%dT%H:%M:%SZ")


def h(*parts):
    return hashlib.sha256("/".join(parts).encode()).hexdigest()


# ---------------------------------------------------------------- YAML emitter

PLAIN = re.compile(r"^[A-Za-z0-9_/][A-Za-z0-9_./:@()=,+ -]*$")
AMBIGUOUS = re.compile(
    r"^(true|false|yes|no|on|off|null|~|y|n|[-+]?[0-9][0-9_.:eE+-]*|\.inf|\.nan|[0-9]{4}-[0-9]{2}-[0-9]{2}.*)$", re.I
)


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
    if (
        s == ""
        or not PLAIN.match(s)
        or AMBIGUOUS.match(s)
        or ": " in s
        or " #" in s
        or s.endswith(" ")
        or s.endswith(":")
    ):
        return json.dumps(s, ensure_ascii=False)
    return s


def emit(v, indent=0):
    pad = " " * indent
    out = []
    if isinstance(v, dict):
        for k, x in v.items():
            if isinstance(x, dict) and x:
                out.append(f"{pad}{k}:")
                out.extend(emit(x, indent + 2))
            elif isinstance(x, list) and x:
                out.append(f"{pad}{k}:")
                out.extend(emit(x, indent))
            elif isinstance(x, dict):
                out.append(f"{pad}{k}: {{}}")
            elif isinstance(x, list):
                out.append(f"{pad}{k}: []")
            else:
                out.append(f"{pad}{k}: {scalar(x)}")
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, dict) and x:
                sub = emit(x, indent + 2)
                sub[0] = f"{pad}- " + sub[0][indent + 2 :]
                out.extend(sub)
            elif isinstance(x, list) and x:
                out.append(f"{pad}-")
                out.extend(emit(x, indent + 2))
            else:
                out.append(f"{pad}- {scalar(x) if not isinstance(x, (dict, list)) else ('{}' if isinstance(x, dict) else '[]')}")
    return out


# ---------------------------------------------------------------- object builders


class Bundle:
    def __init__(self, name):
        self.name = name
        self.items = []
        self.logs = {}  # (ns, pod, container, previous) -> text
        self.rv = 4_100_000

    def uid(self, kind, ns, name):
        x = h(self.name, kind, ns or "", name)
        return f"{x[0:8]}-{x[8:12]}-4{x[13:16]}-{'89ab'[int(x[16], 16) % 4]}{x[17:20]}-{x[20:32]}"

    def meta(self, kind, ns, name, created, labels=None, annotations=None, owner=None, extra=None):
        self.rv += 17
        m = {"name": name}
        if ns:
            m["namespace"] = ns
        m["uid"] = self.uid(kind, ns, name)
        m["resourceVersion"] = str(self.rv)
        m["creationTimestamp"] = created
        if labels:
            m["labels"] = dict(labels)
        if annotations:
            m["annotations"] = dict(annotations)
        if owner is not None:
            m["ownerReferences"] = [
                {
                    "apiVersion": owner["apiVersion"],
                    "kind": owner["kind"],
                    "name": owner["metadata"]["name"],
                    "uid": owner["metadata"]["uid"],
                    "controller": True,
                    "blockOwnerDeletion": True,
                }
            ]
        if extra:
            m.update(extra)
        return m

    def add(self, obj):
        self.items.append(obj)
        return obj

    # -- cluster-scoped
    def namespace(self, name, labels=None):
        lab = {"kubernetes.io/metadata.name": name}
        lab.update(labels or {})
        return self.add({
            "kind": "Namespace", "apiVersion": "v1",
            "metadata": self.meta("Namespace", None, name, t(60 * 24 * 60), labels=lab),
            "spec": {"finalizers": ["kubernetes"]},
            "status": {"phase": "Active"},
        })

    def node(self, name, cpu="8", alloc_cpu="7800m", mem="32Gi", alloc_mem="30Gi", pods="110",
             labels=None, taints=None, unschedulable=False, ready="True", ready_since=60 * 24 * 40,
             pressure=None, extra_alloc=None, heartbeat=1.5, arch="amd64", kubelet="v1.31.2", created=60 * 24 * 60):
        lab = {
            "kubernetes.io/arch": arch, "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
            "node.kubernetes.io/instance-type": "m6i.2xlarge",
            "topology.kubernetes.io/zone": "dc1-" + name[-1],
        }
        lab.update(labels or {})
        cap = {"cpu": cpu, "ephemeral-storage": "101430960Ki", "memory": mem, "pods": pods}
        alloc = {"cpu": alloc_cpu, "ephemeral-storage": "93478772582", "memory": alloc_mem, "pods": pods}
        for k, v in (extra_alloc or {}).items():
            cap[k] = v
            alloc[k] = v
        pressure = pressure or {}
        conds = []
        for typ, ok_reason, ok_msg, bad_reason, bad_msg in [
            ("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available", "KubeletHasInsufficientMemory", "kubelet has insufficient memory available"),
            ("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", "KubeletHasDiskPressure", "kubelet has disk pressure"),
            ("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available", "KubeletHasInsufficientPID", "kubelet has insufficient PID available"),
        ]:
            if ready != "True" and ready != "False":
                conds.append({"type": typ, "status": "Unknown", "lastHeartbeatTime": t(ready_since + 1), "lastTransitionTime": t(ready_since),
                              "reason": "NodeStatusUnknown", "message": "Kubelet stopped posting node status."})
            elif typ in pressure:
                conds.append({"type": typ, "status": "True", "lastHeartbeatTime": t(heartbeat), "lastTransitionTime": t(pressure[typ]),
                              "reason": bad_reason, "message": bad_msg})
            else:
                conds.append({"type": typ, "status": "False", "lastHeartbeatTime": t(heartbeat), "lastTransitionTime": t(60 * 24 * 40),
                              "reason": ok_reason, "message": ok_msg})
        if ready == "True":
            conds.append({"type": "Ready", "status": "True", "lastHeartbeatTime": t(heartbeat), "lastTransitionTime": t(ready_since),
                          "reason": "KubeletReady", "message": "kubelet is posting ready status"})
        else:
            conds.append({"type": "Ready", "status": ready, "lastHeartbeatTime": t(ready_since + 1), "lastTransitionTime": t(ready_since),
                          "reason": "NodeStatusUnknown", "message": "Kubelet stopped posting node status."})
        spec = {"podCIDR": "10.244.%d.0/24" % (int(h(name)[:2], 16) % 200)}
        if unschedulable:
            spec["unschedulable"] = True
        all_taints = list(taints or [])
        if unschedulable:
            all_taints.append({"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule", "timeAdded": t(300)})
        if ready != "True":
            all_taints.append({"key": "node.kubernetes.io/unreachable", "effect": "NoSchedule", "timeAdded": t(ready_since - 0.5)})
            all_taints.append({"key": "node.kubernetes.io/unreachable", "effect": "NoExecute", "timeAdded": t(ready_since - 0.6)})
        for p in pressure:
            key = {"DiskPressure": "node.kubernetes.io/disk-pressure", "MemoryPressure": "node.kubernetes.io/memory-pressure",
                   "PIDPressure": "node.kubernetes.io/pid-pressure"}[p]
            all_taints.append({"key": key, "effect": "NoSchedule", "timeAdded": t(pressure[p] - 0.2)})
        if all_taints:
            spec["taints"] = all_taints
        return self.add({
            "kind": "Node", "apiVersion": "v1",
            "metadata": self.meta("Node", None, name, t(created), labels=lab),
            "spec": spec,
            "status": {
                "capacity": cap, "allocatable": alloc, "conditions": conds,
                "nodeInfo": {"kernelVersion": "6.8.0-1018-aws", "osImage": "Ubuntu 24.04.1 LTS",
                             "containerRuntimeVersion": "containerd://1.7.22", "kubeletVersion": kubelet,
                             "kubeProxyVersion": kubelet, "operatingSystem": "linux", "architecture": arch},
            },
        })

    def priority_class(self, name, value, preemption="PreemptLowerPriority"):
        return self.add({
            "kind": "PriorityClass", "apiVersion": "scheduling.k8s.io/v1",
            "metadata": self.meta("PriorityClass", None, name, t(60 * 24 * 30)),
            "value": value, "preemptionPolicy": preemption,
            "description": f"priority {value}",
        })

    def storage_class(self, name, mode, provisioner="ebs.csi.aws.com", default=False):
        ann = {"storageclass.kubernetes.io/is-default-class": "true"} if default else None
        return self.add({
            "kind": "StorageClass", "apiVersion": "storage.k8s.io/v1",
            "metadata": self.meta("StorageClass", None, name, t(60 * 24 * 30), annotations=ann),
            "provisioner": provisioner, "reclaimPolicy": "Delete", "volumeBindingMode": mode,
            "allowVolumeExpansion": True,
        })

    # -- namespaced config
    def config_map(self, ns, name, data, created=60 * 24 * 3, binary=None):
        cm = {
            "kind": "ConfigMap", "apiVersion": "v1",
            "metadata": self.meta("ConfigMap", ns, name, t(created)),
        }
        if binary:
            cm["binaryData"] = binary
        cm["data"] = data
        return self.add(cm)

    def secret(self, ns, name, typ="Opaque"):
        return self.add({
            "kind": "Secret", "apiVersion": "v1",
            "metadata": self.meta("Secret", ns, name, t(60 * 24 * 3)),
            "type": typ,
        })

    def service_account(self, ns, name, pull_secrets=None):
        o = {
            "kind": "ServiceAccount", "apiVersion": "v1",
            "metadata": self.meta("ServiceAccount", ns, name, t(60 * 24 * 10)),
        }
        if pull_secrets:
            o["imagePullSecrets"] = [{"name": s} for s in pull_secrets]
        return self.add(o)

    def pvc(self, ns, name, cls, phase="Pending", volume=None, size="10Gi", modes=("ReadWriteOnce",), created=30, owner=None):
        spec = {"accessModes": list(modes), "resources": {"requests": {"storage": size}}, "storageClassName": cls,
                "volumeMode": "Filesystem"}
        if volume:
            spec["volumeName"] = volume
        st = {"phase": phase}
        if phase == "Bound":
            st.update({"accessModes": list(modes), "capacity": {"storage": size}})
        return self.add({
            "kind": "PersistentVolumeClaim", "apiVersion": "v1",
            "metadata": self.meta("PersistentVolumeClaim", ns, name, t(created), labels=None, owner=owner,
                                  annotations={"volume.kubernetes.io/storage-provisioner": "ebs.csi.aws.com"}),
            "spec": spec, "status": st,
        })

    def pv(self, name, claim, size="10Gi", cls="gp3", node_affinity=None):
        spec = {"capacity": {"storage": size}, "accessModes": ["ReadWriteOnce"], "persistentVolumeReclaimPolicy": "Delete",
                "storageClassName": cls, "volumeMode": "Filesystem",
                "claimRef": {"kind": "PersistentVolumeClaim", "namespace": claim["metadata"]["namespace"],
                             "name": claim["metadata"]["name"], "uid": claim["metadata"]["uid"], "apiVersion": "v1"},
                "csi": {"driver": "ebs.csi.aws.com", "volumeHandle": "vol-" + h(name)[:17], "fsType": "ext4"}}
        if node_affinity:
            spec["nodeAffinity"] = node_affinity
        return self.add({
            "kind": "PersistentVolume", "apiVersion": "v1",
            "metadata": self.meta("PersistentVolume", None, name, t(60 * 24 * 2)),
            "spec": spec, "status": {"phase": "Bound"},
        })

    # -- workloads
    def template(self, labels, containers, init=None, **spec):
        s = {"containers": containers}
        if init:
            s["initContainers"] = init
        s.update({"restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
                  "securityContext": {}, "schedulerName": "default-scheduler"})
        s.update(spec)
        return {"metadata": {"labels": dict(labels)}, "spec": s}

    def deployment(self, ns, name, replicas, tmpl, ready=0, available=None, updated=None, conds=None, created=60 * 24 * 5, extra_spec=None):
        available = ready if available is None else available
        updated = replicas if updated is None else updated
        spec = {"replicas": replicas, "selector": {"matchLabels": dict(tmpl["metadata"]["labels"])}, "template": tmpl,
                "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
                "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600}
        spec.update(extra_spec or {})
        if conds is None:
            if available >= replicas:
                conds = [self.cond("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability.", 60 * 24),
                         self.cond("Progressing", "True", "NewReplicaSetAvailable", f"ReplicaSet \"{name}\" has successfully progressed.", 60 * 24)]
            else:
                conds = [self.cond("Available", "False", "MinimumReplicasUnavailable", "Deployment does not have minimum availability.", 30),
                         self.cond("Progressing", "True", "ReplicaSetUpdated", f"ReplicaSet \"{name}\" is progressing.", 30)]
        st = {"observedGeneration": 1, "replicas": replicas, "updatedReplicas": updated, "readyReplicas": ready,
              "availableReplicas": available, "conditions": conds}
        if replicas - available > 0:
            st["unavailableReplicas"] = replicas - available
        return self.add({
            "kind": "Deployment", "apiVersion": "apps/v1",
            "metadata": self.meta("Deployment", ns, name, t(created), labels=tmpl["metadata"]["labels"],
                                  annotations={"deployment.kubernetes.io/revision": "1"}),
            "spec": spec, "status": st,
        })

    def cond(self, typ, status, reason, message, minutes):
        c = {"type": typ, "status": status, "lastUpdateTime": t(minutes), "lastTransitionTime": t(minutes)}
        if reason:
            c["reason"] = reason
        if message:
            c["message"] = message
        return c

    def replica_set(self, dep, hash_, replicas, have=None, ready=0, revision="1", conds=None, tmpl=None, created=60 * 24 * 5):
        ns = dep["metadata"]["namespace"]
        name = f"{dep['metadata']['name']}-{hash_}"
        tmpl = json.loads(json.dumps(tmpl or dep["spec"]["template"]))
        tmpl["metadata"]["labels"]["pod-template-hash"] = hash_
        labels = dict(tmpl["metadata"]["labels"])
        have = replicas if have is None else have
        st = {"replicas": have, "fullyLabeledReplicas": have, "readyReplicas": ready, "availableReplicas": ready,
              "observedGeneration": 1}
        if conds:
            st["conditions"] = conds
        return self.add({
            "kind": "ReplicaSet", "apiVersion": "apps/v1",
            "metadata": self.meta("ReplicaSet", ns, name, t(created), labels=labels, owner=dep,
                                  annotations={"deployment.kubernetes.io/desired-replicas": str(dep["spec"]["replicas"]),
                                               "deployment.kubernetes.io/max-replicas": str(dep["spec"]["replicas"] + 1),
                                               "deployment.kubernetes.io/revision": revision}),
            "spec": {"replicas": replicas, "selector": {"matchLabels": labels}, "template": tmpl},
            "status": st,
        })

    def stateful_set(self, ns, name, replicas, tmpl, have, ready, policy="OrderedReady", claims=None, created=60 * 24 * 5):
        spec = {"replicas": replicas, "selector": {"matchLabels": dict(tmpl["metadata"]["labels"])}, "template": tmpl,
                "serviceName": name, "podManagementPolicy": policy,
                "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}}}
        if claims:
            spec["volumeClaimTemplates"] = claims
        rev = f"{name}-{h(name)[:10]}"
        return self.add({
            "kind": "StatefulSet", "apiVersion": "apps/v1",
            "metadata": self.meta("StatefulSet", ns, name, t(created), labels=tmpl["metadata"]["labels"]),
            "spec": spec,
            "status": {"observedGeneration": 1, "replicas": have, "readyReplicas": ready, "currentReplicas": have,
                       "updatedReplicas": have, "currentRevision": rev, "updateRevision": rev, "collisionCount": 0,
                       "availableReplicas": ready},
        })

    def daemon_set(self, ns, name, tmpl, desired, current, ready, misscheduled=0, created=60 * 24 * 5):
        return self.add({
            "kind": "DaemonSet", "apiVersion": "apps/v1",
            "metadata": self.meta("DaemonSet", ns, name, t(created), labels=tmpl["metadata"]["labels"]),
            "spec": {"selector": {"matchLabels": dict(tmpl["metadata"]["labels"])}, "template": tmpl,
                     "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}}},
            "status": {"currentNumberScheduled": current, "numberMisscheduled": misscheduled,
                       "desiredNumberScheduled": desired, "numberReady": ready, "observedGeneration": 1,
                       "updatedNumberScheduled": current, "numberAvailable": ready,
                       **({"numberUnavailable": desired - ready} if desired > ready else {})},
        })

    def job(self, ns, name, tmpl, owner=None, backoff=6, conds=None, active=0, succeeded=0, failed=0, created=60,
            completion=None, extra_spec=None, labels=None):
        spec = {"parallelism": 1, "completions": 1, "backoffLimit": backoff, "completionMode": "NonIndexed",
                "suspend": False, "template": tmpl}
        spec.update(extra_spec or {})
        st = {"startTime": t(created)}
        if active:
            st["active"] = active
        if succeeded:
            st["succeeded"] = succeeded
        if failed:
            st["failed"] = failed
        if completion:
            st["completionTime"] = completion
        st["ready"] = 0
        if conds:
            st["conditions"] = conds
        return self.add({
            "kind": "Job", "apiVersion": "batch/v1",
            "metadata": self.meta("Job", ns, name, t(created), owner=owner, labels=labels),
            "spec": spec, "status": st,
        })

    def cron_job(self, ns, name, schedule, tmpl):
        return self.add({
            "kind": "CronJob", "apiVersion": "batch/v1",
            "metadata": self.meta("CronJob", ns, name, t(60 * 24 * 20)),
            "spec": {"schedule": schedule, "concurrencyPolicy": "Forbid", "suspend": False,
                     "jobTemplate": {"spec": {"backoffLimit": 1, "template": tmpl}},
                     "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1},
            "status": {"lastScheduleTime": t(14), "lastSuccessfulTime": t(13)},
        })

    def pod(self, ns, name, owner, spec, status, created=30, labels=None, extra_meta=None):
        lab = dict(labels or {})
        if owner is not None and not lab:
            lab = dict(owner["spec"]["template"]["metadata"]["labels"]) if "template" in owner.get("spec", {}) else {}
        s = json.loads(json.dumps(spec))
        s.setdefault("restartPolicy", "Always")
        s.setdefault("terminationGracePeriodSeconds", 30)
        s.setdefault("dnsPolicy", "ClusterFirst")
        s.setdefault("serviceAccountName", "default")
        s["serviceAccount"] = s["serviceAccountName"]
        s.setdefault("securityContext", {})
        s.setdefault("schedulerName", "default-scheduler")
        tol = s.setdefault("tolerations", [])
        for key in ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"]:
            if not any(x.get("key") == key and x.get("effect") == "NoExecute" for x in tol):
                tol.append({"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300})
        s.setdefault("priority", 0)
        s.setdefault("enableServiceLinks", True)
        s.setdefault("preemptionPolicy", "PreemptLowerPriority")
        gen = None
        if owner is not None and owner["kind"] in ("ReplicaSet", "Job", "DaemonSet"):
            gen = owner["metadata"]["name"] + "-"
        if owner is not None and owner["kind"] == "StatefulSet":
            lab["statefulset.kubernetes.io/pod-name"] = name
        m = self.meta("Pod", ns, name, t(created), labels=lab, owner=owner)
        if gen:
            m = {"name": m["name"], "generateName": gen, **{k: v for k, v in m.items() if k != "name"}}
        for k, v in (extra_meta or {}).items():
            m[k] = v
        return self.add({"kind": "Pod", "apiVersion": "v1", "metadata": m, "spec": s, "status": status})

    def event(self, obj, reason, message, typ="Warning", count=1, first=30.0, last=1.0, component="kubelet",
              host=None, field=None, action=None):
        md = obj["metadata"]
        inv = {"kind": obj["kind"], "namespace": md.get("namespace"), "name": md["name"], "uid": md["uid"],
               "apiVersion": obj["apiVersion"], "resourceVersion": md["resourceVersion"]}
        if not md.get("namespace"):
            del inv["namespace"]
        if field:
            inv["fieldPath"] = field
        first_ts = t(first)
        nanos = int((SNAP - datetime.timedelta(minutes=first)).timestamp()) * 10**9 + int(h(md["name"], reason, message)[:6], 16)
        ns = md.get("namespace") or "default"
        e = {
            "kind": "Event", "apiVersion": "v1",
            "metadata": self.meta("Event", ns, f"{md['name']}.{nanos:x}", first_ts),
            "involvedObject": inv, "reason": reason, "message": message,
            "source": {"component": component, **({"host": host} if host else {})},
            "firstTimestamp": first_ts, "lastTimestamp": t(last), "count": count, "type": typ,
            "eventTime": None,
            "reportingComponent": component, "reportingInstance": host or "",
        }
        if action:
            e["action"] = action
        return self.add(e)

    def log(self, ns, pod, container, text, previous=False):
        self.logs[(ns, pod, container, previous)] = text


# ---------------------------------------------------------------- pod parts


def container(name, image, req=None, lim=None, **extra):
    c = {"name": name, "image": image}
    res = {}
    if lim:
        res["limits"] = lim
    if req:
        res["requests"] = req
    c["resources"] = res
    c.update(extra)
    c.setdefault("terminationMessagePath", "/dev/termination-log")
    c.setdefault("terminationMessagePolicy", "File")
    c.setdefault("imagePullPolicy", "IfNotPresent")
    return c


def cstatus(name, image, state, ready=False, restarts=0, last=None, started=None, cid=True):
    s = {"name": name, "state": state, "lastState": last or {}, "ready": ready, "restartCount": restarts,
         "image": image, "imageID": ("sha256:" + h(image)[:64]) if "running" in state or last else ""}
    if cid and ("running" in state or "terminated" in state or last):
        s["containerID"] = "containerd://" + h(name, image, str(restarts))[:64]
    s["started"] = bool(started) if started is not None else ("running" in state)
    return s


def pcond(typ, status, minutes, reason=None, message=None):
    c = {"type": typ, "status": status, "lastProbeTime": None, "lastTransitionTime": t(minutes)}
    if reason:
        c["reason"] = reason
    if message:
        c["message"] = message
    return c


def running(containers, node_ip, pod_ip, start=60 * 24, init=None, qos="Burstable"):
    """Running and Ready."""
    st = {"phase": "Running", "conditions": [
        pcond("PodReadyToStartContainers", "True", start - 0.1),
        pcond("Initialized", "True", start - 0.1),
        pcond("Ready", "True", start - 0.3),
        pcond("ContainersReady", "True", start - 0.3),
        pcond("PodScheduled", "True", start),
    ], "hostIP": node_ip, "hostIPs": [{"ip": node_ip}], "podIP": pod_ip, "podIPs": [{"ip": pod_ip}],
        "startTime": t(start)}
    if init:
        st["initContainerStatuses"] = init
    st["containerStatuses"] = containers
    st["qosClass"] = qos
    return st


def bound_not_ready(containers, node_ip, pod_ip, start, names, phase="Pending", init=None, initialized=True, qos="Burstable", init_names=None):
    conds = [pcond("PodReadyToStartContainers", "True", start - 0.1)]
    if initialized:
        conds.append(pcond("Initialized", "True", start - 0.1))
    else:
        conds.append(pcond("Initialized", "False", start - 0.1, "ContainersNotInitialized",
                           f"containers with incomplete status: [{' '.join(init_names or [])}]"))
    conds += [
        pcond("Ready", "False", start - 0.1, "ContainersNotReady", f"containers with unready status: [{' '.join(names)}]"),
        pcond("ContainersReady", "False", start - 0.1, "ContainersNotReady", f"containers with unready status: [{' '.join(names)}]"),
        pcond("PodScheduled", "True", start),
    ]
    st = {"phase": phase, "conditions": conds, "hostIP": node_ip, "hostIPs": [{"ip": node_ip}]}
    if pod_ip:
        st.update({"podIP": pod_ip, "podIPs": [{"ip": pod_ip}]})
    st["startTime"] = t(start)
    if init:
        st["initContainerStatuses"] = init
    st["containerStatuses"] = containers
    st["qosClass"] = qos
    return st


def unscheduled(message, since, qos="Burstable", nominated=None):
    st = {"phase": "Pending", "conditions": [pcond("PodScheduled", "False", since, "Unschedulable", message)], "qosClass": qos}
    if nominated:
        st["nominatedNodeName"] = nominated
    return st


def waiting(reason, message=None):
    w = {"reason": reason}
    if message:
        w["message"] = message
    return {"waiting": w}


def run_state(minutes):
    return {"running": {"startedAt": t(minutes)}}


def terminated(code, reason, started, finished, message=None, signal=None):
    x = {"exitCode": code}
    if signal:
        x["signal"] = signal
    x["reason"] = reason
    if message:
        x["message"] = message
    x.update({"startedAt": t(started), "finishedAt": t(finished)})
    return {"terminated": x}


def ip(n, i):
    return f"10.0.{n}.{i}"


def pod_ip(n, i):
    return f"10.244.{n}.{i}"


def suffix(*parts, n=5):
    alphabet = "bcdfghjklmnpqrstvwxz2456789"
    x = int(h(*parts), 16)
    out = ""
    for _ in range(n):
        out += alphabet[x % len(alphabet)]
        x //= len(alphabet)
    return out


def rs_hash(*parts):
    alphabet = "bcdfghjklmnpqrstvwxz2456789"
    x = int(h("rs", *parts), 16)
    out = ""
    for _ in range(10):
        out += alphabet[x % len(alphabet)]
        x //= len(alphabet)
    return out


# ---------------------------------------------------------------- helpers for common shapes


def healthy_deployment(b, ns, name, node, n_ip, idx, cpu="500m", mem="512Mi", image=None, labels=None, replicas=1, nodes=None, priority_class=None, priority=0, extra_spec=None, start=60 * 24 * 2):
    """A Deployment with Running+Ready pods (one per entry of `nodes`)."""
    image = image or f"registry.example.com/{ns}/{name}:1.0.0"
    tmpl = b.template(labels or {"app": name}, [container(name, image, {"cpu": cpu, "memory": mem}, {"memory": mem})],
                      **({"priorityClassName": priority_class} if priority_class else {}), **(extra_spec or {}))
    nodes = nodes or [(node, n_ip)] * replicas
    d = b.deployment(ns, name, len(nodes), tmpl, ready=len(nodes))
    hsh = rs_hash(ns, name)
    rs = b.replica_set(d, hsh, len(nodes), ready=len(nodes))
    pods = []
    for k, (nd, nip) in enumerate(nodes):
        pname = f"{rs['metadata']['name']}-{suffix(ns, name, str(k))}"
        spec = json.loads(json.dumps(tmpl["spec"]))
        spec["nodeName"] = nd
        spec["priority"] = priority
        p = b.pod(ns, pname, rs, spec,
                  running([cstatus(name, image, run_state(start - 0.2), ready=True)], nip, pod_ip(idx, 10 + k), start=start),
                  created=start)
        pods.append(p)
    return d, rs, pods


def write_list(path, items):
    doc = {"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(emit(doc)) + "\n")


PLURALS = {
    "Namespace": "namespaces", "Node": "nodes", "PriorityClass": "priorityclasses", "StorageClass": "storage-classes",
    "PersistentVolume": "pvs", "Pod": "pods", "Event": "events", "Deployment": "deployments",
    "ReplicaSet": "replicasets", "StatefulSet": "statefulsets", "DaemonSet": "daemonsets", "Job": "jobs",
    "CronJob": "cronjobs", "ConfigMap": "configmaps", "Secret": "secrets", "ServiceAccount": "serviceaccounts",
    "PersistentVolumeClaim": "pvcs", "ResourceQuota": "resource-quotas", "LimitRange": "limitranges",
    "ValidatingWebhookConfiguration": "validatingwebhookconfigurations",
}


def write_troubleshoot(root, b):
    base = os.path.join(root, TS_ROOT)
    os.makedirs(os.path.join(base, "cluster-resources"), exist_ok=True)
    with open(os.path.join(base, "version.yaml"), "w") as f:
        f.write("apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\nspec:\n  versionNumber: 0.107.0\n")
    groups = {}
    for o in b.items:
        plural = PLURALS[o["kind"]]
        ns = o["metadata"].get("namespace")
        groups.setdefault((plural, ns), []).append(o)
    for (plural, ns), items in sorted(groups.items(), key=lambda x: (x[0][0], x[0][1] or "")):
        lst = {"kind": o_list_kind(items[0]["kind"]), "apiVersion": "v1", "metadata": {"resourceVersion": str(b.rv)}, "items": items}
        if ns:
            d = os.path.join(base, "cluster-resources", plural)
            os.makedirs(d, exist_ok=True)
            p = os.path.join(d, f"{ns}.json")
        else:
            p = os.path.join(base, "cluster-resources", f"{plural}.json")
        with open(p, "w", encoding="utf-8") as f:
            f.write(json.dumps(lst, indent=2, ensure_ascii=False))
    for (ns, pod, c, prev), text in sorted(b.logs.items()):
        d = os.path.join(base, "cluster-resources", "pods", "logs", ns, pod)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"{c}{'-previous' if prev else ''}.log"), "w", encoding="utf-8") as f:
            f.write(text)


def o_list_kind(kind):
    return kind + "List"


# ---------------------------------------------------------------- scenarios

SCENARIOS = {}


def scenario(name, form="list"):
    def deco(fn):
        SCENARIOS[name] = (fn, form)
        return fn
    return deco


STD_NODE_IPS = {"node-1": ip(1, 11), "node-2": ip(1, 12), "node-3": ip(1, 13), "node-4": ip(1, 14)}


@scenario("scheduling-unschedulable", form="troubleshoot")
def s_unschedulable(b):
    for ns in ["shop", "data", "kube-system"]:
        b.namespace(ns)
    b.node("node-1", cpu="4", alloc_cpu="3920m", mem="16Gi", alloc_mem="15Gi", unschedulable=True)
    b.node("node-2", labels={"gpu": "true"}, taints=[{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}])
    b.node("node-3")
    b.node("node-4")
    b.priority_class("etl-low", 100)
    b.priority_class("backfill-high", 1000)
    b.storage_class("fast", "Immediate")
    b.storage_class("local-wffc", "WaitForFirstConsumer", provisioner="rancher.io/local-path")
    # What holds the nodes: node-3 has 2300m of 7800m requested, node-4 4800m.
    healthy_deployment(b, "shop", "cart", "node-3", STD_NODE_IPS["node-3"], 3, cpu="2", mem="4Gi")
    healthy_deployment(b, "shop", "redis", "node-3", STD_NODE_IPS["node-3"], 3, cpu="300m", mem="1Gi")
    _, _, catalog = healthy_deployment(b, "shop", "catalog", "node-4", STD_NODE_IPS["node-4"], 4, cpu="3", mem="6Gi")
    healthy_deployment(b, "data", "etl-worker", "node-4", STD_NODE_IPS["node-4"], 4, cpu="1800m", mem="2Gi",
                                   priority_class="etl-low", priority=100)
    healthy_deployment(b, "shop", "gpu-scorer", "node-2", STD_NODE_IPS["node-2"], 2, cpu="1", mem="2Gi",
                       extra_spec={"tolerations": [{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}],
                                   "nodeSelector": {"gpu": "true"}})
    cas = b.config_map("kube-system", "cluster-autoscaler-status", {
        "status": "Cluster-autoscaler status at 2026-11-20 09:13:40.116216402 +0000 UTC:\n"
                  "Cluster-wide:\n  Health:      Healthy (ready=4 unready=0 (resourceUnready=0) notStarted=0 longNotStarted=0 registered=4 longUnregistered=0)\n"
                  "               LastProbeTime:      2026-11-20 09:13:40.116216402 +0000 UTC\n"
                  "  ScaleUp:     NoActivity (ready=4 registered=4)\n"
                  "               LastProbeTime:      2026-11-20 09:13:40.116216402 +0000 UTC\n"
                  "  ScaleDown:   NoCandidates (candidates=0)\n"
                  "               LastProbeTime:      2026-11-20 09:13:40.116216402 +0000 UTC\n"
    }, created=60 * 24 * 20)
    cas["metadata"]["annotations"] = {"cluster-autoscaler.kubernetes.io/last-updated": "2026-11-20 09:13:40.116216402 +0000 UTC"}

    def pending_deployment(ns, name, replicas, c, msg, since, extra_spec=None, events=True, msg_age=1.0, count=9):
        tmpl = b.template({"app": name}, [c], **(extra_spec or {}))
        d = b.deployment(ns, name, replicas, tmpl, ready=0, created=since + 1,
                         conds=[b.cond("Available", "False", "MinimumReplicasUnavailable", "Deployment does not have minimum availability.", since),
                                b.cond("Progressing", "True", "ReplicaSetUpdated", f"ReplicaSet \"{name}\" is progressing.", since)])
        rs = b.replica_set(d, rs_hash(ns, name), replicas, created=since)
        pods = []
        for k in range(replicas):
            p = b.pod(ns, f"{rs['metadata']['name']}-{suffix(ns, name, str(k))}", rs, tmpl["spec"],
                      unscheduled(msg, since), created=since)
            if events:
                b.event(p, "FailedScheduling", msg, count=count, first=since, last=msg_age + 0.1 * k,
                        component="default-scheduler")
            pods.append(p)
        return pods

    msg_cpu = ("0/4 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, "
               "2 Insufficient cpu. preemption: 0/4 nodes are available: 2 No preemption victims found for incoming pod, "
               "2 Preemption is not helpful for scheduling.")
    checkout = pending_deployment("shop", "checkout", 2,
                                  container("checkout", "registry.example.com/shop/checkout:4.2.0", {"cpu": "6", "memory": "2Gi"}, {"memory": "2Gi"}),
                                  msg_cpu, 38)
    for k, p in enumerate(checkout):
        b.event(p, "NotTriggerScaleUp",
                "pod didn't trigger scale-up: 1 node(s) had untolerated taint {dedicated: gpu}, 2 max node group size reached",
                typ="Normal", count=22, first=37, last=2 + k, component="cluster-autoscaler")
    pending_deployment("shop", "search", 1,
                       container("search", "registry.example.com/shop/search:1.9.3", {"cpu": "500m", "memory": "1Gi"}, {"memory": "1Gi"}),
                       "0/4 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, "
                       "2 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
                       25, extra_spec={"nodeSelector": {"disktype": "ssd"}})
    # The scheduler's message is 35 minutes old: memory was short then; the nodes have room now.
    pending_deployment("shop", "cache", 1,
                       container("cache", "registry.example.com/shop/cache:2.0.0", {"cpu": "1", "memory": "4Gi"}, {"memory": "4Gi"}),
                       "0/4 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, "
                       "2 Insufficient memory. preemption: 0/4 nodes are available: 2 No preemption victims found for incoming pod, "
                       "2 Preemption is not helpful for scheduling.", 50, msg_age=35, count=4)
    # Topology spread: a rolling update's surge pod. The old revision (no requests) runs one
    # pod on node-3 and one on node-4; one more in either zone makes the skew 2 > maxSkew 1.
    spread = {"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                                             "whenUnsatisfiable": "DoNotSchedule",
                                             "labelSelector": {"matchLabels": {"app": "frontend"}}}]}
    fe_new = b.template({"app": "frontend"}, [container("frontend", "registry.example.com/shop/frontend:3.1.0", {"cpu": "250m", "memory": "256Mi"},
                                                        {"memory": "256Mi"})], **spread)
    fe_old = b.template({"app": "frontend"}, [container("frontend", "registry.example.com/shop/frontend:3.0.4")], **spread)
    d = b.deployment("shop", "frontend", 2, fe_new, ready=2, available=2, updated=1, created=60 * 24 * 9,
                     conds=[b.cond("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability.", 60 * 24 * 9),
                            b.cond("Progressing", "True", "ReplicaSetUpdated", "ReplicaSet \"frontend-" + rs_hash("shop", "frontend") + "\" is progressing.", 12)])
    d["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "2"
    old_rs = b.replica_set(d, rs_hash("shop", "frontend", "3.0.4"), 2, ready=2, revision="1", tmpl=fe_old, created=60 * 24 * 9)
    for k, node in enumerate(["node-3", "node-4"]):
        b.pod("shop", f"{old_rs['metadata']['name']}-{suffix('frontend-old', node)}", old_rs, dict(old_rs["spec"]["template"]["spec"], nodeName=node),
              running([cstatus("frontend", "registry.example.com/shop/frontend:3.0.4", run_state(60 * 24 * 9), ready=True)],
                      STD_NODE_IPS[node], pod_ip(3 + k, 70), start=60 * 24 * 9, qos="BestEffort"), created=60 * 24 * 9)
    new_rs = b.replica_set(d, rs_hash("shop", "frontend"), 1, revision="2", tmpl=fe_new, created=12)
    msg = ("0/4 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, "
           "2 node(s) didn't match pod topology spread constraints. preemption: 0/4 nodes are available: "
           "2 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.")
    p = b.pod("shop", f"{new_rs['metadata']['name']}-{suffix('shop', 'frontend', '0')}", new_rs, new_rs["spec"]["template"]["spec"],
              unscheduled(msg, 12), created=12)
    b.event(p, "FailedScheduling", msg, count=9, first=12, last=1.0, component="default-scheduler")
    # Required anti-affinity: one ledger pod per node; node-3 and node-4 have one each.
    anti = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "ledger"}}, "topologyKey": "kubernetes.io/hostname"}]}}
    tmpl = b.template({"app": "ledger"}, [container("ledger", "registry.example.com/shop/ledger:1.4.0", {"memory": "64Mi"}, {"memory": "64Mi"})],
                      affinity=anti)
    d = b.deployment("shop", "ledger", 3, tmpl, ready=2, created=60 * 24 * 3)
    rs = b.replica_set(d, rs_hash("shop", "ledger"), 3, ready=2, created=60 * 24 * 3)
    for k, node in enumerate(["node-3", "node-4"]):
        b.pod("shop", f"{rs['metadata']['name']}-{suffix('ledger', node)}", rs, dict(tmpl["spec"], nodeName=node),
              running([cstatus("ledger", "registry.example.com/shop/ledger:1.4.0", run_state(60 * 24 * 3), ready=True)],
                      STD_NODE_IPS[node], pod_ip(3 + k, 60), start=60 * 24 * 3), created=60 * 24 * 3)
    msg = ("0/4 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, "
           "2 node(s) didn't match pod anti-affinity rules. preemption: 0/4 nodes are available: "
           "2 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.")
    p = b.pod("shop", f"{rs['metadata']['name']}-{suffix('ledger', 'pending')}", rs, tmpl["spec"], unscheduled(msg, 27), created=27)
    b.event(p, "FailedScheduling", msg, count=8, first=27, last=1.4, component="default-scheduler")
    # Required pod affinity to pods that run nowhere.
    aff = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "warehouse"}}, "topologyKey": "topology.kubernetes.io/zone"}]}}
    pending_deployment("data", "analytics", 1,
                       container("analytics", "registry.example.com/data/analytics:0.9.0", {"cpu": "500m", "memory": "1Gi"}, {"memory": "1Gi"}),
                       "0/4 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, "
                       "2 node(s) didn't match pod affinity rules. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
                       9, extra_spec={"affinity": aff})
    # More cpu than any node has allocatable, with a WaitForFirstConsumer claim.
    imp = b.pvc("data", "import-scratch", "local-wffc", phase="Pending", size="200Gi", created=20)
    b.event(imp, "WaitForFirstConsumer", "waiting for first consumer to be created before binding", typ="Normal",
            count=80, first=20, last=0.5, component="persistentvolume-controller")
    tmpl = b.template({"app": "import"}, [container("import", "registry.example.com/data/import:0.7.1", {"cpu": "9", "memory": "8Gi"}, {"memory": "8Gi"},
                                                    volumeMounts=[{"name": "scratch", "mountPath": "/scratch"}])],
                      volumes=[{"name": "scratch", "persistentVolumeClaim": {"claimName": "import-scratch"}}])
    job = b.job("data", "import", tmpl, active=1, created=20)
    p = b.pod("data", f"import-{suffix('import')}", job, tmpl["spec"], unscheduled(
        "0/4 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, 2 Insufficient cpu. "
        "preemption: 0/4 nodes are available: 2 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.", 20),
        created=20, labels={"app": "import", "job-name": "import"})
    b.event(p, "FailedScheduling", p["status"]["conditions"][0]["message"], count=6, first=20, last=3, component="default-scheduler")
    # Higher priority: the scheduler nominated node-4 and is preempting the catalog pod there.
    tmpl = b.template({"app": "backfill"}, [container("backfill", "registry.example.com/data/backfill:2.2.0", {"cpu": "6", "memory": "4Gi"}, {"memory": "4Gi"})],
                      priorityClassName="backfill-high")
    job = b.job("data", "backfill", tmpl, active=1, created=4)
    spec = dict(tmpl["spec"], priority=1000)
    p = b.pod("data", f"backfill-{suffix('backfill')}", job, spec, unscheduled(
        "0/4 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, 2 Insufficient cpu.", 4,
        nominated="node-4"), created=4, labels={"app": "backfill", "job-name": "backfill"})
    b.event(p, "FailedScheduling", p["status"]["conditions"][0]["message"], count=1, first=4, last=4, component="default-scheduler")
    b.event(catalog[0], "Preempted", f"Preempted by pod {p['metadata']['uid']} on node node-4", typ="Normal", count=1, first=4, last=4,
            component="default-scheduler")
    catalog[0]["metadata"]["deletionTimestamp"] = t(3, 30)
    catalog[0]["metadata"]["deletionGracePeriodSeconds"] = 30
    # An unbound Immediate claim: the StatefulSet's first pod cannot be placed, the second is not created.
    tmpl = b.template({"app": "db"}, [container("postgres", "registry.example.com/data/postgres:16.4", {"cpu": "1", "memory": "2Gi"}, {"memory": "2Gi"},
                                                volumeMounts=[{"name": "data", "mountPath": "/var/lib/postgresql/data"}])])
    sts = b.stateful_set("data", "db", 2, tmpl, have=1, ready=0,
                         claims=[{"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "fast",
                                                                         "resources": {"requests": {"storage": "50Gi"}}}}])
    claim = b.pvc("data", "data-db-0", "fast", phase="Pending", size="50Gi", created=16)
    b.event(claim, "ProvisioningFailed",
            "failed to provision volume with StorageClass \"fast\": rpc error: code = Internal desc = Could not create volume \"pvc-"
            + claim["metadata"]["uid"] + "\": could not create volume in EC2: UnauthorizedOperation: You are not authorized to perform this operation.",
            count=9, first=16, last=1.2, component="ebs.csi.aws.com_ebs-csi-controller-7d9c8b6f5-lm2kq_0b6e")
    spec = dict(tmpl["spec"], hostname="db-0", subdomain="db",
                volumes=[{"name": "data", "persistentVolumeClaim": {"claimName": "data-db-0"}}])
    p = b.pod("data", "db-0", sts, spec, unscheduled(
        "0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/4 nodes are available: "
        "4 Preemption is not helpful for scheduling.", 16), created=16,
        labels={"app": "db", "apps.kubernetes.io/pod-index": "0", "controller-revision-hash": sts["status"]["currentRevision"]})
    b.event(p, "FailedScheduling", p["status"]["conditions"][0]["message"], count=5, first=16, last=2, component="default-scheduler")


@scenario("scheduling-quiet", form="troubleshoot")
def s_sched_quiet(b):
    for ns in ["shop", "data"]:
        b.namespace(ns)
    b.node("node-1", cpu="4", alloc_cpu="3920m", mem="16Gi", alloc_mem="15Gi", unschedulable=True)
    b.node("node-2", labels={"gpu": "true"}, taints=[{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}])
    b.node("node-3")
    b.storage_class("local-wffc", "WaitForFirstConsumer", provisioner="rancher.io/local-path")
    # node-3 is filled exactly: 7800m requested of 7800m allocatable, and still Running.
    healthy_deployment(b, "shop", "cart", "node-3", STD_NODE_IPS["node-3"], 3, cpu="2", mem="4Gi")
    healthy_deployment(b, "shop", "checkout", "node-3", STD_NODE_IPS["node-3"], 3, cpu="5800m", mem="2Gi")
    healthy_deployment(b, "shop", "gpu-scorer", "node-2", STD_NODE_IPS["node-2"], 2, cpu="1", mem="2Gi",
                       extra_spec={"tolerations": [{"key": "dedicated", "operator": "Exists", "effect": "NoSchedule"}]})
    # A WaitForFirstConsumer claim that bound once its pod was placed.
    claim = b.pvc("data", "scratch", "local-wffc", phase="Bound", volume="pvc-" + h("scratch")[:8], size="20Gi", created=60)
    b.pv("pvc-" + h("scratch")[:8], claim, size="20Gi", cls="local-wffc",
         node_affinity={"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In", "values": ["node-2"]}]}]}})
    tmpl = b.template({"app": "scratch"}, [container("scratch", "registry.example.com/data/scratch:1.0", {"cpu": "100m", "memory": "128Mi"},
                                                     volumeMounts=[{"name": "s", "mountPath": "/s"}])],
                      volumes=[{"name": "s", "persistentVolumeClaim": {"claimName": "scratch"}}],
                      tolerations=[{"key": "dedicated", "operator": "Exists", "effect": "NoSchedule"}])
    d = b.deployment("data", "scratch", 1, tmpl, ready=1)
    rs = b.replica_set(d, rs_hash("scratch"), 1, ready=1)
    spec = dict(tmpl["spec"], nodeName="node-2")
    p = b.pod("data", f"{rs['metadata']['name']}-{suffix('scratch')}", rs, spec,
              running([cstatus("scratch", "registry.example.com/data/scratch:1.0", run_state(55), ready=True)], STD_NODE_IPS["node-2"], pod_ip(2, 40), start=56), created=56)
    # It waited a little for the volume before; the scheduler's old complaint is history.
    b.event(p, "FailedScheduling", "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu. preemption: 0/3 nodes are available: "
            "1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.", count=2, first=58, last=57,
            component="default-scheduler")
    b.event(p, "Scheduled", f"Successfully assigned data/{p['metadata']['name']} to node-2", typ="Normal", first=56, last=56,
            component="default-scheduler")
    # Topology spread with minDomains 2 met: a pod in each of two zones (on node-1 since
    # before its cordon, and on the tainted node-2, tolerated).
    sp = {"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule",
                                         "minDomains": 2, "labelSelector": {"matchLabels": {"app": "docs"}}}],
          "tolerations": [{"key": "dedicated", "operator": "Exists", "effect": "NoSchedule"}]}
    healthy_deployment(b, "shop", "docs", None, None, 5, cpu="100m", mem="128Mi", extra_spec=sp,
                       nodes=[("node-1", ip(1, 11)), ("node-2", STD_NODE_IPS["node-2"])])


# A DER certificate's first bytes, base64 (binaryData holds base64 of arbitrary bytes).
CA_DER_B64 = "MIIBszCCAVmgAwIBAgIUQ2E4ZDFkYzY0ZTA3YjM5NjAKBggqhkjOPQQDAjAbMRkwFwYDVQQDDBBnYXRld2F5LWNhLWxvY2Fs"
CP_TAINT = [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]
CP_LABELS = {"node-role.kubernetes.io/control-plane": "", "node.kubernetes.io/exclude-from-external-load-balancers": ""}
V134 = "v1.34.1"
# kube-scheduler 1.34: TaintToleration names no taint, DRA's PostFilter note precedes preemption.
NO_CLAIMS = "no new claims to deallocate, "


def wording_cluster(b, ready_workers, worker_created=None):
    """3 control-plane nodes (tainted), `ready_workers` workers; kubelet 1.34, kube-proxy everywhere."""
    for k in (1, 2, 3):
        b.node(f"cp-{k}", cpu="4", alloc_cpu="3920m", mem="16Gi", alloc_mem="15Gi", labels=CP_LABELS, taints=CP_TAINT, kubelet=V134)
    for name in ready_workers:
        b.node(name, kubelet=V134, created=(worker_created or {}).get(name, 60 * 24 * 60))
    # kube-proxy on every node (it tolerates everything), as a real cluster has.
    tmpl = b.template({"k8s-app": "kube-proxy"}, [container("kube-proxy", "registry.k8s.io/kube-proxy:v1.34.1", {})],
                      tolerations=[{"operator": "Exists"}], priorityClassName="system-node-critical")
    nodes = [f"cp-{k}" for k in (1, 2, 3)] + list(ready_workers)
    ds = b.daemon_set("kube-system", "kube-proxy", tmpl, len(nodes), len(nodes), len(nodes))
    for k, node in enumerate(nodes):
        start = min(60 * 24 * 2, (worker_created or {}).get(node, 60 * 24 * 2) - 0.5)
        b.pod("kube-system", f"kube-proxy-{suffix('kube-proxy', node)}", ds,
              dict(tmpl["spec"], nodeName=node, priority=2000001000),
              running([cstatus("kube-proxy", "registry.k8s.io/kube-proxy:v1.34.1", run_state(start - 0.2), ready=True)],
                      ip(7, 10 + k), ip(7, 10 + k), start=start, qos="BestEffort"), created=start)


def pending_pods(b, ns, name, replicas, c, msg, since, kind="Deployment", extra_spec=None, msg_age=1.0, count=9):
    """A controller whose pods all wait for a node, each with its FailedScheduling event."""
    tmpl = b.template({"app": name}, [c], **(extra_spec or {}))
    if kind == "Deployment":
        d = b.deployment(ns, name, replicas, tmpl, ready=0, created=since + 1,
                         conds=[b.cond("Available", "False", "MinimumReplicasUnavailable", "Deployment does not have minimum availability.", since),
                                b.cond("Progressing", "True", "ReplicaSetUpdated", f"ReplicaSet \"{name}\" is progressing.", since)])
        owner = b.replica_set(d, rs_hash(ns, name), replicas, created=since)
        prefix = owner["metadata"]["name"]
    else:
        owner = b.job(ns, name, tmpl, active=replicas, created=since, extra_spec={"parallelism": replicas, "completions": replicas})
        prefix = name
    pods = []
    for k in range(replicas):
        p = b.pod(ns, f"{prefix}-{suffix(ns, name, str(k))}", owner, tmpl["spec"], unscheduled(msg, since), created=since,
                  labels=None if kind == "Deployment" else {"app": name, "job-name": name})
        b.event(p, "FailedScheduling", msg, count=count, first=since, last=msg_age + 0.1 * k, component="default-scheduler")
        pods.append(p)
    return pods


@scenario("scheduling-wording", form="troubleshoot")
def s_wording(b):
    """14 unschedulable pods, today's scheduler wording, and every count as kdiag recomputes it."""
    for ns in ["render", "web", "ml", "ops", "kube-system"]:
        b.namespace(ns)
    wording_cluster(b, ["worker-1", "worker-2"])
    b.node("worker-3", unschedulable=True, kubelet=V134)
    # What holds the workers: 6 and 5.5 of 7.8 cpu requested.
    healthy_deployment(b, "web", "shop", "worker-1", ip(7, 20), 8, cpu="4", mem="8Gi")
    healthy_deployment(b, "web", "search", "worker-1", ip(7, 20), 8, cpu="2", mem="8Gi")
    healthy_deployment(b, "web", "orders", "worker-2", ip(7, 21), 8, cpu="5500m", mem="12Gi")
    # node-exporter holds host port 9100 on both workers.
    tmpl = b.template({"app": "node-exporter"}, [container("node-exporter", "quay.io/prometheus/node-exporter:v1.9.1", {"cpu": "100m", "memory": "64Mi"},
                                                            ports=[{"containerPort": 9100, "hostPort": 9100, "name": "metrics", "protocol": "TCP"}])])
    ds = b.daemon_set("ops", "node-exporter", tmpl, 2, 2, 2)
    for k, node in enumerate(["worker-1", "worker-2"]):
        b.pod("ops", f"node-exporter-{suffix('node-exporter', node)}", ds, dict(tmpl["spec"], nodeName=node),
              running([cstatus("node-exporter", "quay.io/prometheus/node-exporter:v1.9.1", run_state(60 * 24), ready=True)],
                      ip(7, 20 + k), ip(7, 20 + k)), created=60 * 24)
    pre_res = "preemption: 0/6 nodes are available: 2 No preemption victims found for incoming pod, 4 Preemption is not helpful for scheduling."
    pre_none = "preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling."
    # 6 pods: 3 cpu each, more than either worker has free.
    pending_pods(b, "render", "renderer", 6, container("renderer", "registry.example.com/render/renderer:5.0.2", {"cpu": "3", "memory": "2Gi"}, {"memory": "2Gi"}),
                 "0/6 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu, 3 node(s) had untolerated taint(s). "
                 + NO_CLAIMS + pre_res, 22)
    # 4 pods: a nodeSelector no node matches.
    pending_pods(b, "web", "api", 4, container("api", "registry.example.com/web/api:2.8.0", {"cpu": "200m", "memory": "256Mi"}, {"memory": "256Mi"}),
                 "0/6 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't match Pod's node affinity/selector, "
                 "3 node(s) had untolerated taint(s). " + NO_CLAIMS + pre_none, 31, extra_spec={"nodeSelector": {"pool": "api"}})
    # 2 pods: short of cpu and memory on both workers.
    pending_pods(b, "ml", "train", 2, container("train", "registry.example.com/ml/train:0.4.0", {"cpu": "4", "memory": "28Gi"}, {"memory": "28Gi"}),
                 "0/6 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu, 2 Insufficient memory, "
                 "3 node(s) had untolerated taint(s). " + NO_CLAIMS + pre_res, 14, kind="Job")
    # 2 pods: host port 9100, taken on both workers.
    pending_pods(b, "ops", "agent", 2, container("agent", "registry.example.com/ops/agent:1.2.0", {"cpu": "50m", "memory": "64Mi"},
                                                 ports=[{"containerPort": 9100, "hostPort": 9100, "protocol": "TCP"}]),
                 "0/6 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't have free ports for the requested pod ports, "
                 "3 node(s) had untolerated taint(s). " + NO_CLAIMS + pre_none, 9)


@scenario("scheduling-stale", form="troubleshoot")
def s_stale(b):
    """Today's wording where the bundle does contradict the message: a node added after it,
    and a message whose per-reason counts no longer hold."""
    for ns in ["render", "web", "kube-system"]:
        b.namespace(ns)
    # worker-3 joined 6 minutes ago (after the last FailedScheduling of renderer, 12 minutes ago).
    wording_cluster(b, ["worker-1", "worker-2", "worker-3"], worker_created={"worker-3": 6})
    healthy_deployment(b, "web", "shop", "worker-1", ip(7, 20), 8, cpu="6", mem="8Gi")
    healthy_deployment(b, "web", "orders", "worker-2", ip(7, 21), 8, cpu="5500m", mem="12Gi")
    healthy_deployment(b, "web", "cart", "worker-3", ip(7, 22), 8, cpu="2", mem="2Gi", start=5)
    pending_pods(b, "render", "renderer", 1, container("renderer", "registry.example.com/render/renderer:5.0.2", {"cpu": "3", "memory": "2Gi"}, {"memory": "2Gi"}),
                 "0/5 nodes are available: 2 Insufficient cpu, 3 node(s) had untolerated taint(s). " + NO_CLAIMS
                 + "preemption: 0/5 nodes are available: 2 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.",
                 30, msg_age=12, count=7)
    # 40 minutes ago memory was short on the two old workers; now no worker has 7 cpu free, memory is plenty.
    pending_pods(b, "render", "report", 1, container("report", "registry.example.com/render/report:1.1.0", {"cpu": "7", "memory": "1Gi"}, {"memory": "1Gi"}),
                 "0/5 nodes are available: 2 Insufficient memory, 3 node(s) had untolerated taint(s). " + NO_CLAIMS
                 + "preemption: 0/5 nodes are available: 2 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.",
                 45, msg_age=40, count=3)


@scenario("scheduling-spread", form="troubleshoot")
def s_spread(b):
    """PodTopologySpread recomputed: minDomains above the zones that have nodes, and matchLabelKeys."""
    for ns in ["stream", "web", "kube-system"]:
        b.namespace(ns)
    zones = {"w-1": "zone-a", "w-2": "zone-a", "w-3": "zone-b", "w-4": "zone-c"}
    for name, zone in zones.items():
        b.node(name, kubelet=V134, labels={"topology.kubernetes.io/zone": zone, **({"pool": "kafka"} if name != "w-4" else {})})
    wip = {name: ip(8, 10 + k) for k, name in enumerate(zones)}
    # kafka: 3 brokers spread over zones with minDomains 3, but only two zones have kafka nodes.
    kspread = [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule", "minDomains": 3,
                "labelSelector": {"matchLabels": {"app": "kafka"}}}]
    kimg = "registry.example.com/stream/kafka:3.9.0"
    tmpl = b.template({"app": "kafka"}, [container("kafka", kimg, {"cpu": "1", "memory": "4Gi"}, {"memory": "4Gi"})],
                      nodeSelector={"pool": "kafka"}, topologySpreadConstraints=kspread)
    sts = b.stateful_set("stream", "kafka", 3, tmpl, have=3, ready=2, policy="Parallel")
    rev = sts["status"]["currentRevision"]
    for k, node in enumerate(["w-1", "w-3"]):
        b.pod("stream", f"kafka-{k}", sts, dict(tmpl["spec"], nodeName=node, hostname=f"kafka-{k}", subdomain="kafka"),
              running([cstatus("kafka", kimg, run_state(60 * 24), ready=True)], wip[node], pod_ip(9, 10 + k)), created=60 * 24,
              labels={"app": "kafka", "apps.kubernetes.io/pod-index": str(k), "controller-revision-hash": rev})
    msg = ("0/4 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 3 node(s) didn't match pod topology spread constraints. "
           + NO_CLAIMS + "preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, "
           "3 No preemption victims found for incoming pod.")
    p = b.pod("stream", "kafka-2", sts, dict(tmpl["spec"], hostname="kafka-2", subdomain="kafka"), unscheduled(msg, 18), created=18,
              labels={"app": "kafka", "apps.kubernetes.io/pod-index": "2", "controller-revision-hash": rev})
    b.event(p, "FailedScheduling", msg, count=11, first=18, last=0.8, component="default-scheduler")
    # web: a rollout. matchLabelKeys [pod-template-hash] counts the new revision's pods only:
    # zone-a 2, zone-b 0, zone-c 0, so zone-a is full; the old revision holds w-3 and w-4.
    wspread = [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule",
                "labelSelector": {"matchLabels": {"app": "web"}}, "matchLabelKeys": ["pod-template-hash"]}]
    new_t = b.template({"app": "web"}, [container("web", "registry.example.com/web/web:2.1.0", {"cpu": "2", "memory": "2Gi"}, {"memory": "2Gi"})],
                       topologySpreadConstraints=wspread)
    old_t = b.template({"app": "web"}, [container("web", "registry.example.com/web/web:2.0.3", {"cpu": "2500m", "memory": "2Gi"}, {"memory": "2Gi"})],
                       topologySpreadConstraints=wspread)
    d = b.deployment("web", "web", 4, new_t, ready=6, available=6, updated=3, created=60 * 24 * 30,
                     extra_spec={"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 3}}},
                     conds=[b.cond("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability.", 60 * 24 * 30),
                            b.cond("Progressing", "True", "ReplicaSetUpdated", "ReplicaSet \"web-" + rs_hash("web", "web") + "\" is progressing.", 25)])
    d["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "2"
    old_rs = b.replica_set(d, rs_hash("web", "web", "2.0.3"), 4, ready=4, revision="1", tmpl=old_t, created=60 * 24 * 30)
    for k, node in enumerate(["w-3", "w-3", "w-4", "w-4"]):
        b.pod("web", f"{old_rs['metadata']['name']}-{suffix('web-old', str(k))}", old_rs, dict(old_rs["spec"]["template"]["spec"], nodeName=node),
              running([cstatus("web", "registry.example.com/web/web:2.0.3", run_state(60 * 24 * 30), ready=True)], wip[node], pod_ip(10, 10 + k),
                      start=60 * 24 * 30), created=60 * 24 * 30)
    new_rs = b.replica_set(d, rs_hash("web", "web"), 3, have=3, ready=2, revision="2", tmpl=new_t, created=25)
    for k, node in enumerate(["w-1", "w-2"]):
        b.pod("web", f"{new_rs['metadata']['name']}-{suffix('web-new', str(k))}", new_rs, dict(new_rs["spec"]["template"]["spec"], nodeName=node),
              running([cstatus("web", "registry.example.com/web/web:2.1.0", run_state(24), ready=True)], wip[node], pod_ip(10, 20 + k), start=24.5),
              created=25)
    msg = ("0/4 nodes are available: 2 Insufficient cpu, 2 node(s) didn't match pod topology spread constraints. " + NO_CLAIMS
           + "preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.")
    p = b.pod("web", f"{new_rs['metadata']['name']}-{suffix('web-new', '2')}", new_rs, new_rs["spec"]["template"]["spec"], unscheduled(msg, 25),
              created=25)
    b.event(p, "FailedScheduling", msg, count=14, first=25, last=0.6, component="default-scheduler")
    # One more cpu on w-4 (1.8 of 7.8 free there, like w-3).
    healthy_deployment(b, "web", "cache", "w-4", wip["w-4"], 11, cpu="1", mem="1Gi")


# ------------------------------------------------------------ rollouts that wait for terminating pods


def rolling_deployment(b, ns, name, replicas, cpu, key, placed, pending, msg, conds, idx, grace=30, selector=None, anti=True, spec_extra=None):
    """A Deployment mid-rollout with `maxSurge: 0` (and, with `anti`, required anti-affinity on `key`):
    `placed` lists (revision, node, node_ip, deletion) for each bound pod, `deletion` None or
    (deletionTimestamp, deletionGracePeriodSeconds, minutes since it was deleted, node Ready);
    `pending` is how many minutes ago the new revision's Pending pod was created."""
    labels = {"app": name}
    img_old, img_new = f"registry.example.com/{ns}/{name}:1.7.0", f"registry.example.com/{ns}/{name}:1.8.0"
    extra = {"terminationGracePeriodSeconds": grace}
    if anti:
        extra["affinity"] = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchLabels": {"app": name}}, "topologyKey": key}]}}
    if selector:
        extra["nodeSelector"] = selector
    extra.update(spec_extra or {})
    req = {"cpu": cpu, "memory": "512Mi"}
    tmpl_new = b.template(labels, [container(name, img_new, req, {"memory": "512Mi"})], **extra)
    tmpl_old = b.template(labels, [container(name, img_old, req, {"memory": "512Mi"})], **extra)
    tmpl_new["spec"]["terminationGracePeriodSeconds"] = grace
    tmpl_old["spec"]["terminationGracePeriodSeconds"] = grace
    new_n = sum(1 for r, *_ in placed if r == "new") + 1
    old_n = sum(1 for r, _, _, d in placed if r == "old" and d is None)
    ready = sum(1 for _, _, _, d in placed if d is None)
    d = b.deployment(ns, name, replicas, tmpl_new, ready=ready, updated=new_n, conds=conds, created=60 * 24 * 20,
                     extra_spec={"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}},
                                 "progressDeadlineSeconds": 600})
    d["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "2"
    old = b.replica_set(d, rs_hash(ns, name, "1"), old_n, have=old_n + sum(1 for r, _, _, dl in placed if r == "old" and dl),
                        ready=old_n, revision="1", tmpl=tmpl_old, created=60 * 24 * 20)
    new = b.replica_set(d, rs_hash(ns, name, "2"), new_n, have=new_n, ready=new_n - 1, revision="2", tmpl=tmpl_new,
                        created=pending + 4)
    for k, (rev, node, nip, deletion) in enumerate(placed):
        rs = new if rev == "new" else old
        img = img_new if rev == "new" else img_old
        start = pending + 3 if rev == "new" else 60 * 24 * 6
        st = running([cstatus(name, img, run_state(start - 0.2), ready=True)], nip, pod_ip(idx, 10 + k), start=start)
        meta = None
        if deletion:
            ts, gp, ago, node_ready = deletion
            meta = {"deletionTimestamp": ts, "deletionGracePeriodSeconds": gp}
            if not node_ready:
                st["conditions"][2] = pcond("Ready", "False", ago + 5)
                st["conditions"].append(pcond("DisruptionTarget", "True", ago, "DeletionByTaintManager",
                                              "Taint manager: deleting due to NoExecute taint"))
        p = b.pod(ns, f"{rs['metadata']['name']}-{suffix(ns, name, rev, str(k))}", rs,
                  dict(rs["spec"]["template"]["spec"], nodeName=node), st, created=start, labels=rs["spec"]["template"]["metadata"]["labels"],
                  extra_meta=meta)
        if deletion and deletion[3]:
            b.event(p, "Killing", f"Stopping container {name}", typ="Normal", first=deletion[2], last=deletion[2], host=node,
                    field=f"spec.containers{{{name}}}")
        elif deletion:
            b.event(p, "TaintManagerEviction", f"Marking for deletion Pod {ns}/{p['metadata']['name']}", typ="Normal",
                    first=deletion[2], last=deletion[2], component="taint-eviction-controller")
    p = b.pod(ns, f"{new['metadata']['name']}-{suffix(ns, name, 'pending')}", new, new["spec"]["template"]["spec"],
              unscheduled(msg, pending - 0.01), created=pending, labels=new["spec"]["template"]["metadata"]["labels"])
    # The scheduler retries on every pod and node event, then backs off up to 5 minutes.
    count = max(1, min(12, int(pending * 2)))
    b.event(p, "FailedScheduling", msg, count=count, first=pending - 0.01, last=min(pending - 0.01, 0.1),
            component="default-scheduler")
    return d


ANTI_MSG = ("0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: "
            "3 No preemption victims found for incoming pod.")


@scenario("scheduling-rollout-waiting", form="troubleshoot")
def s_rollout_waiting(b):
    b.namespace("shop")
    b.node("node-1")
    b.node("node-2")
    b.node("node-3", cpu="4", alloc_cpu="3920m", mem="16Gi", alloc_mem="15Gi", labels={"pool": "batch"})
    ips = STD_NODE_IPS
    progressing = lambda name, minutes: [  # noqa: E731
        b.cond("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability.", 60 * 24 * 6),
        b.cond("Progressing", "True", "ReplicaSetUpdated", f"ReplicaSet \"{name}-{rs_hash('shop', name, '2')}\" is progressing.", minutes)]
    # web: maxSurge 0 and one pod per node; the old pod on node-2 was deleted 10 s ago (30 s grace),
    # and the new one waits for it to leave.
    rolling_deployment(b, "shop", "web", 3, "500m", "kubernetes.io/hostname",
                       [("new", "node-1", ips["node-1"], None),
                        ("old", "node-2", ips["node-2"], (t(0, -20), 30, 10 / 60, True)),
                        ("old", "node-3", ips["node-3"], None)],
                       9 / 60, ANTI_MSG, progressing("web", 9 / 60), 31)
    # report: pinned to node-3 (pool=batch), whose cpu the old pod still holds for its 60 s grace period.
    rolling_deployment(b, "shop", "report", 1, "2500m", "kubernetes.io/hostname",
                       [("old", "node-3", ips["node-3"], (t(0, -50), 60, 10 / 60, True))],
                       8 / 60,
                       "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector. "
                       "preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, "
                       "2 Preemption is not helpful for scheduling.",
                       [b.cond("Available", "False", "MinimumReplicasUnavailable", "Deployment does not have minimum availability.", 10 / 60),
                        b.cond("Progressing", "True", "ReplicaSetUpdated", f"ReplicaSet \"report-{rs_hash('shop', 'report', '2')}\" is progressing.", 8 / 60)],
                       32, grace=60, selector={"pool": "batch"}, anti=False)


STALLED_MSG = ("0/5 nodes are available: 1 node(s) had untolerated taint {dedicated: index}, "
               "1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, "
               "3 node(s) didn't match pod anti-affinity rules. preemption: 0/5 nodes are available: "
               "2 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.")


@scenario("scheduling-rollout-stalled", form="troubleshoot")
def s_rollout_stalled(b):
    for ns in ["search", "shop"]:
        b.namespace(ns)
    b.node("node-1")
    b.node("node-2")
    b.node("node-3", ready="Unknown", ready_since=50)  # its pods evicted at 45 minutes, never confirmed
    b.node("node-4", labels={"topology.kubernetes.io/zone": "dc1-3"})
    b.node("node-5", cpu="4", alloc_cpu="3920m", mem="16Gi", alloc_mem="15Gi", labels={"pool": "index"},
           taints=[{"key": "dedicated", "value": "index", "effect": "NoSchedule"}])
    ips = STD_NODE_IPS
    deadline = lambda name, minutes: [  # noqa: E731
        b.cond("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability.", 60 * 24 * 6),
        b.cond("Progressing", "False", "ProgressDeadlineExceeded",
               f"ReplicaSet \"{name}-{rs_hash(name if name in ('search', 'cart') else 'shop', name, '2')}\" has timed out progressing.", minutes)]
    # search: one pod per zone; the pod on node-3 (lost 50 minutes ago) was evicted by the taint manager and never
    # confirmed, so node-4, the other node of zone dc1-3, stays closed to its replacement.
    rolling_deployment(b, "search", "search", 3, "500m", "topology.kubernetes.io/zone",
                       [("new", "node-1", ips["node-1"], None),
                        ("old", "node-2", ips["node-2"], None),
                        ("old", "node-3", ips["node-3"], (t(44.5), 30, 45, False))],
                       44.5, STALLED_MSG, deadline("search", 34.5), 33)
    # api: one pod per node; the old pod on Ready node-4 was deleted 25 minutes ago and its kubelet has not
    # finished stopping it.
    rolling_deployment(b, "shop", "api", 3, "250m", "kubernetes.io/hostname",
                       [("new", "node-1", ips["node-1"], None),
                        ("old", "node-2", ips["node-2"], None),
                        ("old", "node-4", ips["node-4"], (t(24.5), 30, 25, True))],
                       25, STALLED_MSG, deadline("api", 15), 34)
    # worker: a 1-hour grace period; deleted 15 minutes ago, so its replacement waits past the 600 s deadline.
    rolling_deployment(b, "shop", "worker", 3, "250m", "kubernetes.io/hostname",
                       [("new", "node-1", ips["node-1"], None),
                        ("old", "node-2", ips["node-2"], None),
                        ("old", "node-4", ips["node-4"], (t(0, -2700), 3600, 15, True))],
                       15, STALLED_MSG, deadline("worker", 5), 35, grace=3600)
    # cart: zone spread over every zone, tainted dc1-5 included (nodeTaintsPolicy Ignore), so the global minimum is 0
    # and no zone may take a second pod. Its old pod, stuck on lost node-3, is not what blocks it: topology spread
    # does not count terminating pods.
    spread = {"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                                             "whenUnsatisfiable": "DoNotSchedule",
                                             "labelSelector": {"matchLabels": {"app": "cart"}}}]}
    b.namespace("cart")
    rolling_deployment(b, "cart", "cart", 4, "250m", "topology.kubernetes.io/zone",
                       [("new", "node-1", ips["node-1"], None),
                        ("new", "node-2", ips["node-2"], None),
                        ("old", "node-3", ips["node-3"], (t(44.5), 30, 45, False)),
                        ("old", "node-4", ips["node-4"], None)],
                       40,
                       "0/5 nodes are available: 1 node(s) had untolerated taint {dedicated: index}, "
                       "1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, "
                       "3 node(s) didn't match pod topology spread constraints. preemption: 0/5 nodes are available: "
                       "2 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.",
                       deadline("cart", 30), 37, anti=False, spec_extra=spread)
    # reindex: a Job, so no progress deadline; its pod was deleted 12 minutes ago with a 30-minute grace period,
    # and the replacement the Job created at once waits for the cpu of node-5, the only index node.
    img = "registry.example.com/search/reindex:4.2"
    tol = [{"key": "dedicated", "operator": "Equal", "value": "index", "effect": "NoSchedule"}]
    tmpl = b.template({"app": "reindex"}, [container("reindex", img, {"cpu": "3", "memory": "6Gi"}, {"memory": "6Gi"})],
                      restartPolicy="Never", terminationGracePeriodSeconds=1800, nodeSelector={"pool": "index"}, tolerations=tol)
    tmpl["metadata"]["labels"]["job-name"] = "reindex"
    job = b.job("search", "reindex", tmpl, active=1, created=60 * 3, extra_spec={"podReplacementPolicy": "TerminatingOrFailed"})
    b.pod("search", f"reindex-{suffix('reindex', 'old')}", job, dict(tmpl["spec"], nodeName="node-5"),
          running([cstatus("reindex", img, run_state(60 * 3 - 0.5), ready=True)], ip(1, 15), pod_ip(36, 10), start=60 * 3),
          created=60 * 3, labels=tmpl["metadata"]["labels"], extra_meta={"deletionTimestamp": t(0, -18 * 60), "deletionGracePeriodSeconds": 1800})
    msg = ("0/5 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, "
           "3 node(s) didn't match Pod's node affinity/selector. preemption: 0/5 nodes are available: "
           "1 No preemption victims found for incoming pod, 4 Preemption is not helpful for scheduling.")
    p = b.pod("search", f"reindex-{suffix('reindex', 'new')}", job, tmpl["spec"], unscheduled(msg, 11.99), created=12,
              labels=tmpl["metadata"]["labels"])
    b.event(p, "FailedScheduling", msg, count=10, first=11.99, last=0.3, component="default-scheduler")


NODE_IPS = {"node-a": ip(2, 11), "node-b": ip(2, 12), "node-c": ip(2, 13), "node-d": ip(2, 14), "gpu-1": ip(2, 21)}


def failing_pull_pod(b, ns, owner, name, node, image, reason, failed_msg, idx, tmpl_spec, init=False, count=8, since=25):
    spec = json.loads(json.dumps(tmpl_spec))
    spec["nodeName"] = node
    cname = (spec["initContainers"] if init else spec["containers"])[0]["name"]
    w = waiting(reason, f"Back-off pulling image \"{image}\"" if reason == "ImagePullBackOff" else failed_msg.split(": ", 1)[-1])
    if init:
        st = bound_not_ready([cstatus(c["name"], c["image"], waiting("PodInitializing")) for c in spec["containers"]],
                             NODE_IPS[node], pod_ip(idx, 30), since, [c["name"] for c in spec["containers"]],
                             init=[cstatus(cname, image, w)], initialized=False, init_names=[cname])
    else:
        st = bound_not_ready([cstatus(cname, image, w)], NODE_IPS[node], pod_ip(idx, 30), since, [cname])
    p = b.pod(ns, name, owner, spec, st, created=since, labels=(owner["spec"]["template"]["metadata"]["labels"] if owner else {"run": name}))
    field = f"spec.{'initContainers' if init else 'containers'}{{{cname}}}"
    b.event(p, "Scheduled", f"Successfully assigned {ns}/{name} to {node}", typ="Normal", first=since, last=since, component="default-scheduler")
    b.event(p, "Pulling", f"Pulling image \"{image}\"", typ="Normal", count=count, first=since - 0.1, last=2.5, host=node, field=field)
    b.event(p, "Failed", failed_msg, count=count, first=since - 0.1, last=2.4, host=node, field=field)
    b.event(p, "Failed", "Error: ErrImagePull", count=count, first=since - 0.1, last=2.4, host=node, field=field)
    b.event(p, "BackOff", f"Back-off pulling image \"{image}\"", typ="Normal", count=count * 9, first=since - 0.2, last=0.2, host=node, field=field)
    b.event(p, "Failed", "Error: ImagePullBackOff", count=count * 9, first=since - 0.2, last=0.2, host=node, field=field)
    return p


@scenario("node-image-pull")
def s_image_pull(b):
    for ns in ["web", "ops"]:
        b.namespace(ns)
    b.node("node-a")
    b.node("node-b")
    b.secret("web", "tls-cert", "kubernetes.io/tls")
    b.service_account("web", "default")
    b.service_account("web", "builder", ["legacy-creds"])
    # One image, two Deployments, three pods on two nodes: one finding.
    img = "registry.example.com/web/frontend:2.0.1"
    nf = (f"Failed to pull image \"{img}\": rpc error: code = NotFound desc = failed to pull and unpack image \"{img}\": "
          f"failed to resolve reference \"{img}\": {img}: not found")
    for name, pods in [("frontend", [("node-a", 1), ("node-b", 2)]), ("frontend-canary", [("node-b", 3)])]:
        tmpl = b.template({"app": name}, [container("frontend", img, {"cpu": "250m", "memory": "256Mi"}, {"memory": "256Mi"})])
        d = b.deployment("web", name, len(pods), tmpl, ready=0, created=26)
        rs = b.replica_set(d, rs_hash("web", name), len(pods), created=26)
        for k, (node, idx) in enumerate(pods):
            failing_pull_pod(b, "web", rs, f"{rs['metadata']['name']}-{suffix(name, str(k))}", node, img, "ImagePullBackOff", nf, idx, tmpl["spec"])
    # Unauthorized: the pod's and the service account's pull secrets are both missing from a bundle that holds web's Secrets.
    img = "ghcr.io/acme/private:1.0"
    tmpl = b.template({"app": "private"}, [container("private", img, {"cpu": "100m", "memory": "128Mi"})],
                      imagePullSecrets=[{"name": "ghcr-creds"}], serviceAccountName="builder")
    d = b.deployment("web", "private", 1, tmpl, ready=0, created=18)
    rs = b.replica_set(d, rs_hash("web", "private"), 1, created=18)
    failing_pull_pod(b, "web", rs, f"{rs['metadata']['name']}-{suffix('private')}", "node-a", img, "ErrImagePull",
                     f"Failed to pull image \"{img}\": failed to pull and unpack image \"{img}\": failed to resolve reference \"{img}\": "
                     "failed to authorize: failed to fetch anonymous token: unexpected status from GET request to "
                     "https://ghcr.io/token?scope=repository%3Aacme%2Fprivate%3Apull&service=ghcr.io: 401 Unauthorized", 4, tmpl["spec"], since=18)
    # Pull access denied in a namespace whose Secrets the bundle does not hold.
    img = "acme/agent:3.1"
    tmpl = b.template({"app": "agent"}, [container("agent", img, {"cpu": "100m", "memory": "64Mi"})], imagePullSecrets=[{"name": "dockerhub"}])
    d = b.deployment("ops", "agent", 1, tmpl, ready=0, created=15)
    rs = b.replica_set(d, rs_hash("ops", "agent"), 1, created=15)
    failing_pull_pod(b, "ops", rs, f"{rs['metadata']['name']}-{suffix('agent')}", "node-b", img, "ImagePullBackOff",
                     f"Failed to pull image \"{img}\": failed to pull and unpack image \"docker.io/{img}\": failed to resolve reference "
                     f"\"docker.io/{img}\": pull access denied, repository does not exist or may require authorization: server message: "
                     "insufficient_scope: authorization failed", 5, tmpl["spec"], since=15)
    # x509 from a private registry.
    img = "registry.internal:5000/tools/probe:1"
    spec = {"containers": [container("probe", img, {"cpu": "50m", "memory": "32Mi"})]}
    failing_pull_pod(b, "web", None, "tls-probe", "node-a", img, "ErrImagePull",
                     f"Failed to pull image \"{img}\": failed to pull and unpack image \"{img}\": failed to resolve reference \"{img}\": "
                     "failed to do request: Head \"https://registry.internal:5000/v2/tools/probe/manifests/1\": tls: failed to verify "
                     "certificate: x509: certificate signed by unknown authority", 6, spec, since=12)
    # An init container image hit Docker Hub's rate limit.
    img = "flyway/flyway:10.17"
    tmpl = b.template({"app": "db-migrate", "job-name": "db-migrate"},
                      [container("wait", "registry.example.com/web/noop:1", {"cpu": "10m", "memory": "16Mi"})],
                      init=[container("flyway", img, {"cpu": "200m", "memory": "256Mi"})], restartPolicy="Never")
    job = b.job("web", "db-migrate", tmpl, active=1, created=10)
    failing_pull_pod(b, "web", job, f"db-migrate-{suffix('db-migrate')}", "node-b", img, "ErrImagePull",
                     f"Failed to pull image \"{img}\": failed to pull and unpack image \"docker.io/{img}\": failed to copy: "
                     "httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/flyway/flyway/manifests/"
                     "sha256:5b1e0c7f0d3b: 429 Too Many Requests - Server message: toomanyrequests: You have reached your unauthenticated "
                     "pull rate limit. https://www.docker.com/increase-rate-limit", 7, tmpl["spec"], init=True, since=10, count=4)
    # An image reference that cannot be parsed.
    img = "registry.example.com/web/Typo:latest"
    spec = {"containers": [container("typo", img)]}
    p = b.pod("web", "typo", None, dict(spec, nodeName="node-a"),
              bound_not_ready([cstatus("typo", img, waiting("InvalidImageName", f"Failed to apply default image tag \"{img}\": couldn't parse "
                                                            f"image reference \"{img}\": invalid reference format: repository name "
                                                            "(web/Typo) must be lowercase"))],
                              NODE_IPS["node-a"], pod_ip(8, 30), 6, ["typo"]), created=6, labels={"run": "typo"})
    b.event(p, "InspectFailed", p["status"]["containerStatuses"][0]["state"]["waiting"]["message"], count=30, first=6, last=0.4,
            host="node-a", field="spec.containers{typo}")


@scenario("node-quiet", form="troubleshoot")
def s_node_quiet(b):
    for ns in ["web", "ops"]:
        b.namespace(ns)
    b.node("node-a")
    b.node("node-b", unschedulable=True)
    b.node("gpu-1", extra_alloc={"nvidia.com/gpu": "1"})
    # Pulls failed 40 minutes ago, then the tag was pushed: Running and Ready now.
    img = "registry.example.com/web/frontend:2.0.2"
    _, _, pods = healthy_deployment(b, "web", "frontend", "node-a", NODE_IPS["node-a"], 1, image=img, start=30)
    p = pods[0]
    b.event(p, "Failed", f"Failed to pull image \"{img}\": rpc error: code = NotFound desc = failed to pull and unpack image \"{img}\": "
            f"failed to resolve reference \"{img}\": {img}: not found", count=3, first=40, last=33, host="node-a", field="spec.containers{frontend}")
    b.event(p, "Pulled", f"Successfully pulled image \"{img}\" in 2.104s (2.104s including waiting). Image size: 48213377 bytes.",
            typ="Normal", first=31, last=31, host="node-a", field="spec.containers{frontend}")
    # A volume that failed to mount once, then mounted; a sandbox that failed once.
    b.config_map("web", "api-config", {"PORT": "8080"})
    _, _, pods = healthy_deployment(b, "web", "api", "node-a", NODE_IPS["node-a"], 1, start=20,
                                    extra_spec={"volumes": [{"name": "config", "configMap": {"name": "api-config"}}]})
    b.event(pods[0], "FailedMount", "MountVolume.SetUp failed for volume \"config\" : configmap \"api-config\" not found", count=2,
            first=22, last=21, host="node-a")
    b.event(pods[0], "FailedCreatePodSandBox", "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for "
            "sandbox \"4f1c\": plugin type=\"calico\" failed (add): error getting ClusterInformation: connection is unauthorized: Unauthorized",
            count=1, first=21, last=21, host="node-a")
    # A GPU pod admitted and running; a Job that succeeded.
    _, _, pods = healthy_deployment(b, "ops", "infer", "gpu-1", NODE_IPS["gpu-1"], 2)
    pods[0]["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/gpu"] = "1"
    pods[0]["spec"]["containers"][0]["resources"]["requests"]["nvidia.com/gpu"] = "1"
    tmpl = b.template({"job-name": "report"}, [container("report", "registry.example.com/ops/report:1.2", {"cpu": "100m", "memory": "64Mi"})],
                      restartPolicy="Never")
    job = b.job("ops", "report", tmpl, succeeded=1, created=50, completion=t(48),
                conds=[{"type": "SuccessCriteriaMet", "status": "True", "lastProbeTime": t(48), "lastTransitionTime": t(48),
                        "reason": "CompletionsReached", "message": "Reached expected number of succeeded pods"},
                       {"type": "Complete", "status": "True", "lastProbeTime": t(48), "lastTransitionTime": t(48),
                        "reason": "CompletionsReached", "message": "Reached expected number of succeeded pods"}])
    spec = dict(tmpl["spec"], nodeName="node-a")
    st = {"phase": "Succeeded", "conditions": [pcond("Initialized", "True", 50), pcond("Ready", "False", 48, "PodCompleted"),
                                               pcond("ContainersReady", "False", 48, "PodCompleted"), pcond("PodScheduled", "True", 50)],
          "hostIP": NODE_IPS["node-a"], "startTime": t(50),
          "containerStatuses": [cstatus("report", "registry.example.com/ops/report:1.2", terminated(0, "Completed", 49.5, 48))],
          "qosClass": "Burstable"}
    b.pod("ops", f"report-{suffix('report')}", job, spec, st, created=50)
    # Deleted 30 seconds ago, still within its grace period: not stuck.
    _, _, pods = healthy_deployment(b, "ops", "batch-api", "node-a", NODE_IPS["node-a"], 5)
    pods[0]["metadata"]["deletionTimestamp"] = t(0, 30)
    pods[0]["metadata"]["deletionGracePeriodSeconds"] = 30


@scenario("node-admission", form="troubleshoot")
def s_admission(b):
    b.namespace("ml")
    b.node("gpu-1", extra_alloc={"nvidia.com/gpu": "1"}, labels={"nvidia.com/gpu.present": "true"})
    b.node("node-a")
    gpu = {"cpu": "2", "memory": "8Gi", "nvidia.com/gpu": "1"}
    # infer: one rejected pod, then a replacement that runs — a leftover (info).
    tmpl = b.template({"app": "infer"}, [container("infer", "registry.example.com/ml/infer:5.0", gpu, {"memory": "8Gi", "nvidia.com/gpu": "1"})])
    d = b.deployment("ml", "infer", 1, tmpl, ready=1)
    rs = b.replica_set(d, rs_hash("ml", "infer"), 1, ready=1)
    spec = dict(tmpl["spec"], nodeName="gpu-1")
    b.pod("ml", f"{rs['metadata']['name']}-{suffix('infer', 'ok')}", rs, spec,
          running([cstatus("infer", "registry.example.com/ml/infer:5.0", run_state(40), ready=True)], NODE_IPS["gpu-1"], pod_ip(21, 5), start=41), created=41)
    rej = b.pod("ml", f"{rs['metadata']['name']}-{suffix('infer', 'old')}", rs, spec,
                {"phase": "Failed", "message": "Pod was rejected: Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 1, capacity: 1",
                 "reason": "OutOfnvidia.com/gpu", "startTime": t(44), "qosClass": "Burstable"}, created=44)
    b.event(rej, "OutOfnvidia.com/gpu", "Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 1, capacity: 1",
            first=44, last=44, host="gpu-1")
    # train: a device plugin with fewer healthy devices than advertised; every new pod is rejected.
    tmpl = b.template({"app": "train"}, [container("train", "registry.example.com/ml/train:2.3", gpu, {"memory": "8Gi", "nvidia.com/gpu": "1"})])
    d = b.deployment("ml", "train", 1, tmpl, ready=0, created=30)
    rs = b.replica_set(d, rs_hash("ml", "train"), 1, have=1, created=30)
    msg = "Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected"
    for k, age in enumerate([9, 6, 3]):
        p = b.pod("ml", f"{rs['metadata']['name']}-{suffix('train', str(k))}", rs, dict(tmpl["spec"], nodeName="gpu-1"),
                  {"phase": "Failed", "message": "Pod was rejected: " + msg, "reason": "UnexpectedAdmissionError", "startTime": t(age),
                   "qosClass": "Burstable"}, created=age)
        b.event(p, "UnexpectedAdmissionError", msg, first=age, last=age, host="gpu-1")
    # OutOfcpu on node-a: the kubelet counted a static pod the scheduler did not.
    healthy_deployment(b, "ml", "feature-store", "node-a", NODE_IPS["node-a"], 11, cpu="3", mem="4Gi")
    tmpl = b.template({"app": "pinned"}, [container("pinned", "registry.example.com/ml/pinned:1.1", {"cpu": "4", "memory": "4Gi"}, {"cpu": "4", "memory": "4Gi"})])
    d = b.deployment("ml", "pinned", 1, tmpl, ready=0, created=8)
    rs = b.replica_set(d, rs_hash("ml", "pinned"), 1, created=8)
    p = b.pod("ml", f"{rs['metadata']['name']}-{suffix('pinned')}", rs, dict(tmpl["spec"], nodeName="node-a"),
              {"phase": "Failed", "message": "Pod was rejected: Node didn't have enough resource: cpu, requested: 4000, used: 6200, capacity: 7800",
               "reason": "OutOfcpu", "startTime": t(8), "qosClass": "Guaranteed"}, created=8)
    b.event(p, "OutOfcpu", "Node didn't have enough resource: cpu, requested: 4000, used: 6200, capacity: 7800", first=8, last=8, host="node-a")


@scenario("node-volume-mount", form="troubleshoot")
def s_volume(b):
    for ns in ["app"]:
        b.namespace(ns)
    b.node("node-a")
    b.node("node-b")
    b.config_map("app", "kube-root-ca.crt", {"ca.crt": "-----BEGIN CERTIFICATE-----"})
    b.config_map("app", "worker-settings", {"QUEUE": "jobs"})
    b.storage_class("gp3", "WaitForFirstConsumer", default=True)

    def creating_pod(ns, owner, name, node, spec, since, idx):
        spec = dict(spec, nodeName=node)
        st = bound_not_ready([cstatus(c["name"], c["image"], waiting("ContainerCreating")) for c in spec["containers"]],
                             NODE_IPS[node], None, since, [c["name"] for c in spec["containers"]])
        st["conditions"][0] = pcond("PodReadyToStartContainers", "False", since)
        return b.pod(ns, name, owner, spec, st, created=since)

    # A ConfigMap volume whose ConfigMap does not exist.
    tmpl = b.template({"app": "api"}, [container("api", "registry.example.com/app/api:3.0", {"cpu": "200m", "memory": "256Mi"},
                                                 volumeMounts=[{"name": "config", "mountPath": "/etc/api"}])],
                      volumes=[{"name": "config", "configMap": {"name": "api-config", "defaultMode": 420}}])
    d = b.deployment("app", "api", 1, tmpl, ready=0, created=14)
    rs = b.replica_set(d, rs_hash("app", "api"), 1, created=14)
    p = creating_pod("app", rs, f"{rs['metadata']['name']}-{suffix('api')}", "node-a", tmpl["spec"], 14, 1)
    b.event(p, "FailedMount", "MountVolume.SetUp failed for volume \"config\" : configmap \"api-config\" not found", count=15, first=14, last=0.6,
            host="node-a")
    # A ReadWriteOnce claim still attached to node-a, where a backup Job's pod uses it.
    claim = b.pvc("app", "data-pg-0", "gp3", phase="Bound", volume="pvc-" + h("pg")[:8] + "-" + h("pg")[8:12], size="100Gi", created=60 * 24 * 7)
    b.pv(claim["spec"]["volumeName"], claim, size="100Gi")
    vol = [{"name": "data", "persistentVolumeClaim": {"claimName": "data-pg-0"}}]
    tmpl = b.template({"app": "backup", "job-name": "pg-backup"}, [container("backup", "registry.example.com/app/pg-backup:1.4", {"cpu": "500m", "memory": "512Mi"},
                                                                           volumeMounts=[{"name": "data", "mountPath": "/data", "readOnly": True}])],
                      volumes=vol, restartPolicy="Never")
    job = b.job("app", "pg-backup", tmpl, active=1, created=25)
    b.pod("app", f"pg-backup-{suffix('backup')}", job, dict(tmpl["spec"], nodeName="node-a"),
          running([cstatus("backup", "registry.example.com/app/pg-backup:1.4", run_state(24), ready=True)], NODE_IPS["node-a"], pod_ip(1, 44), start=25),
          created=25)
    tmpl = b.template({"app": "pg"}, [container("postgres", "registry.example.com/app/postgres:16.4", {"cpu": "1", "memory": "2Gi"},
                                                volumeMounts=[{"name": "data", "mountPath": "/var/lib/postgresql/data"}])])
    sts = b.stateful_set("app", "pg", 1, tmpl, have=1, ready=0)
    p = creating_pod("app", sts, "pg-0", "node-b", dict(tmpl["spec"], volumes=vol, hostname="pg-0", subdomain="pg"), 9, 2)
    b.event(p, "FailedAttachVolume", f"Multi-Attach error for volume \"{claim['spec']['volumeName']}\" Volume is already used by pod(s) "
            f"pg-backup-{suffix('backup')}", count=1, first=9, last=9, component="attachdetach-controller")
    b.event(p, "FailedMount", "Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data kube-api-access-8x7kq]: "
            "timed out waiting for the condition", count=4, first=7, last=0.9, host="node-b")
    # A Secret volume, in a bundle that holds no Secrets.
    tmpl = b.template({"app": "worker"}, [container("worker", "registry.example.com/app/worker:2.2", {"cpu": "200m", "memory": "256Mi"},
                                                    volumeMounts=[{"name": "tls", "mountPath": "/tls"}])],
                      volumes=[{"name": "tls", "secret": {"secretName": "worker-tls", "defaultMode": 420}}])
    d = b.deployment("app", "worker", 1, tmpl, ready=0, created=11)
    rs = b.replica_set(d, rs_hash("app", "worker"), 1, created=11)
    p = creating_pod("app", rs, f"{rs['metadata']['name']}-{suffix('worker')}", "node-b", tmpl["spec"], 11, 3)
    b.event(p, "FailedMount", "MountVolume.SetUp failed for volume \"tls\" : secret \"worker-tls\" not found", count=12, first=11, last=0.7,
            host="node-b")
    # A hostPath volume of the wrong type (the shape of the real troubleshoot fixture).
    tmpl = b.template({"app": "log-agent"}, [container("agent", "registry.example.com/app/log-agent:0.9", {"cpu": "50m", "memory": "64Mi"},
                                                       volumeMounts=[{"name": "host", "mountPath": "/host/collectd"}])],
                      volumes=[{"name": "host", "hostPath": {"path": "/var/lib/collectd", "type": "Directory"}}])
    ds = b.daemon_set("app", "log-agent", tmpl, desired=2, current=2, ready=1)
    spec = dict(tmpl["spec"], nodeName="node-a")
    b.pod("app", f"log-agent-{suffix('la', 'a')}", ds, spec,
          running([cstatus("agent", "registry.example.com/app/log-agent:0.9", run_state(300), ready=True)], NODE_IPS["node-a"], pod_ip(1, 50), start=301),
          created=301)
    p = creating_pod("app", ds, f"log-agent-{suffix('la', 'b')}", "node-b", tmpl["spec"], 20, 4)
    b.event(p, "FailedMount", "MountVolume.SetUp failed for volume \"host\" : hostPath type check failed: /var/lib/collectd is not a directory",
            count=18, first=20, last=0.8, host="node-b")
    b.event(p, "FailedMount", "Unable to attach or mount volumes: unmounted volumes=[host], unattached volumes=[host kube-api-access-2wq8d]: "
            "timed out waiting for the condition", count=9, first=18, last=0.85, host="node-b")


@scenario("node-sandbox", form="troubleshoot")
def s_sandbox(b):
    for ns in ["app", "kube-system"]:
        b.namespace(ns)
    b.node("node-c")
    b.node("node-d")
    # calico-node on node-c crash-loops; every new pod there fails to get a network.
    tmpl = b.template({"k8s-app": "calico-node"}, [container("calico-node", "docker.io/calico/node:v3.28.2", {"cpu": "250m"})],
                      hostNetwork=True, priorityClassName="system-node-critical")
    ds = b.daemon_set("kube-system", "calico-node", tmpl, desired=2, current=2, ready=1)
    spec = dict(tmpl["spec"], nodeName="node-c", priority=2000001000)
    st = bound_not_ready([cstatus("calico-node", "docker.io/calico/node:v3.28.2", waiting("CrashLoopBackOff",
                         "back-off 5m0s restarting failed container=calico-node pod=calico-node-x7k2p_kube-system(" + b.uid("Pod", "kube-system", "calico-node-x7k2p") + ")"),
                         restarts=11, last=terminated(1, "Error", 6, 5.5))], NODE_IPS["node-c"], NODE_IPS["node-c"], 60, ["calico-node"], phase="Running")
    b.pod("kube-system", "calico-node-x7k2p", ds, spec, st, created=60)

    def sandbox_pod(name, node, idx, msg, since):
        tmpl = b.template({"app": name}, [container(name, f"registry.example.com/app/{name}:1.0", {"cpu": "100m", "memory": "128Mi"})])
        d = b.deployment("app", name, 1, tmpl, ready=0, created=since)
        rs = b.replica_set(d, rs_hash("app", name), 1, created=since)
        spec = dict(tmpl["spec"], nodeName=node)
        st = bound_not_ready([cstatus(name, tmpl["spec"]["containers"][0]["image"], waiting("ContainerCreating"))], NODE_IPS[node], None, since, [name])
        st["conditions"][0] = pcond("PodReadyToStartContainers", "False", since)
        p = b.pod("app", f"{rs['metadata']['name']}-{suffix(name)}", rs, spec, st, created=since)
        b.event(p, "FailedCreatePodSandBox", msg.replace("SANDBOX", h(name)[:64]), count=14, first=since, last=0.3 + idx * 0.1, host=node)
        return p

    calico = ("Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"SANDBOX\": "
              "plugin type=\"calico\" failed (add): stat /var/lib/calico/nodename: no such file or directory: check that the calico/node "
              "container is running and has mounted /var/lib/calico/")
    sandbox_pod("web", "node-c", 1, calico, 15)
    sandbox_pod("api", "node-c", 2, calico, 13)
    sandbox_pod("jobs", "node-d", 3, "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "
                "\"SANDBOX\": plugin type=\"aws-cni\" name=\"aws-cni\" failed (add): add cmd: failed to assign an IP address to container", 7)


@scenario("node-condition", form="troubleshoot")
def s_condition(b):
    b.namespace("app")
    b.node("node-1", ready="Unknown", ready_since=25)
    b.node("node-2", pressure={"DiskPressure": 18})
    b.node("node-3")
    # On the lost node: a pod that was Running (now not Ready) and one that never started.
    tmpl = b.template({"app": "web"}, [container("web", "registry.example.com/app/web:1.8", {"cpu": "200m", "memory": "256Mi"})])
    d = b.deployment("app", "web", 2, tmpl, ready=1, created=60 * 24)
    rs = b.replica_set(d, rs_hash("app", "web"), 2, ready=1, created=60 * 24)
    spec = dict(tmpl["spec"], nodeName="node-1")
    st = running([cstatus("web", "registry.example.com/app/web:1.8", run_state(60 * 20), ready=True)], ip(3, 11), pod_ip(3, 7), start=60 * 20)
    st["conditions"][2] = pcond("Ready", "False", 24.5)
    b.pod("app", f"{rs['metadata']['name']}-{suffix('web', '1')}", rs, spec, st, created=60 * 20)
    b.pod("app", f"{rs['metadata']['name']}-{suffix('web', '3')}", rs, dict(tmpl["spec"], nodeName="node-3"),
          running([cstatus("web", "registry.example.com/app/web:1.8", run_state(60 * 20), ready=True)], ip(3, 13), pod_ip(3, 9), start=60 * 20),
          created=60 * 20)
    tmpl = b.template({"app": "api"}, [container("api", "registry.example.com/app/api:4.0", {"cpu": "200m", "memory": "256Mi"})])
    d = b.deployment("app", "api", 1, tmpl, ready=0, created=26)
    rs = b.replica_set(d, rs_hash("app", "api"), 1, created=26)
    b.pod("app", f"{rs['metadata']['name']}-{suffix('api')}", rs, dict(tmpl["spec"], nodeName="node-1"),
          {"phase": "Pending", "conditions": [pcond("PodScheduled", "True", 26)], "qosClass": "Burstable"}, created=26)
    # DiskPressure on node-2: one pod evicted already; a healthy one still runs.
    healthy_deployment(b, "app", "cache", "node-2", ip(3, 12), 2, start=60 * 24)


@scenario("node-evicted", form="troubleshoot")
def s_evicted(b):
    b.namespace("app")
    b.node("node-1")
    b.node("node-2", pressure={"MemoryPressure": 6})
    # cache: evicted for memory, replaced, and healthy again: leftovers (info).
    _, rs, pods = healthy_deployment(b, "app", "cache", "node-1", ip(3, 11), 1, cpu="500m", mem="1Gi", start=30)
    spec = json.loads(json.dumps(pods[0]["spec"]))
    spec["nodeName"] = "node-2"
    msg = ("The node was low on resource: memory. Threshold quantity: 100Mi, available: 92160Ki. Container cache was using 1843200Ki, "
           "request is 1Gi, has larger consumption of memory. ")
    for k in range(2):
        p = b.pod("app", f"{rs['metadata']['name']}-{suffix('cache', 'ev', str(k))}", rs, spec,
                  {"phase": "Failed", "message": msg, "reason": "Evicted",
                   "conditions": [pcond("DisruptionTarget", "True", 33 + k, "TerminationByKubelet", "The node was low on resource: memory. ")],
                   "startTime": t(90), "qosClass": "Burstable",
                   "containerStatuses": [cstatus("cache", spec["containers"][0]["image"], terminated(137, "Error", 89, 33 + k))]},
                  created=90)
        b.event(p, "Evicted", msg, first=33 + k, last=33 + k, host="node-2")
    # A bare pod evicted for its ephemeral storage: nothing replaces it.
    spec = {"containers": [container("scratch", "registry.example.com/app/scratch:1.0", {"cpu": "100m", "memory": "128Mi", "ephemeral-storage": "1Gi"},
                                     {"ephemeral-storage": "1Gi"})], "nodeName": "node-1", "restartPolicy": "Never"}
    msg = "Pod ephemeral local storage usage exceeds the total limit of containers 1Gi. "
    p = b.pod("app", "scratch", None, spec, {"phase": "Failed", "message": msg, "reason": "Evicted", "startTime": t(40), "qosClass": "Burstable"},
              created=40, labels={"run": "scratch"})
    b.event(p, "Evicted", msg, first=10, last=10, host="node-1")
    # edge: stopped by a graceful node shutdown; its replacement runs.
    _, rs, pods = healthy_deployment(b, "app", "edge", "node-1", ip(3, 11), 2, start=60)
    spec = json.loads(json.dumps(pods[0]["spec"]))
    spec["nodeName"] = "node-2"
    b.pod("app", f"{rs['metadata']['name']}-{suffix('edge', 'old')}", rs, spec,
          {"phase": "Failed", "message": "Pod was terminated in response to imminent node shutdown.", "reason": "Terminated",
           "startTime": t(60 * 5), "qosClass": "Burstable"}, created=60 * 5)


@scenario("node-terminating", form="troubleshoot")
def s_terminating(b):
    b.namespace("app")
    b.node("node-x", ready="Unknown", ready_since=50)
    b.node("node-y")
    # zk-1 sits on the lost node: deleted 40 minutes ago, never confirmed; zk-2 waits behind it.
    tmpl = b.template({"app": "zk"}, [container("zk", "registry.example.com/app/zookeeper:3.9", {"cpu": "500m", "memory": "1Gi"})])
    sts = b.stateful_set("app", "zk", 3, tmpl, have=2, ready=1)
    b.pod("app", "zk-0", sts, dict(tmpl["spec"], nodeName="node-y", hostname="zk-0", subdomain="zk"),
          running([cstatus("zk", "registry.example.com/app/zookeeper:3.9", run_state(60 * 30), ready=True)], ip(4, 2), pod_ip(4, 2), start=60 * 30),
          created=60 * 30)
    st = running([cstatus("zk", "registry.example.com/app/zookeeper:3.9", run_state(60 * 30), ready=True)], ip(4, 1), pod_ip(4, 3), start=60 * 30)
    st["conditions"][2] = pcond("Ready", "False", 49)
    st["conditions"].append(pcond("DisruptionTarget", "True", 45, "DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint"))
    b.pod("app", "zk-1", sts, dict(tmpl["spec"], nodeName="node-x", hostname="zk-1", subdomain="zk"), st, created=60 * 30,
          extra_meta={"deletionTimestamp": t(44.5), "deletionGracePeriodSeconds": 30})
    # indexer: its finalizer's controller never removed it.
    spec = {"containers": [container("indexer", "registry.example.com/app/indexer:2.0", {"cpu": "100m", "memory": "128Mi"})], "nodeName": "node-y"}
    st = {"phase": "Running", "conditions": [pcond("Ready", "False", 118), pcond("PodScheduled", "True", 60 * 5)], "hostIP": ip(4, 2),
          "startTime": t(60 * 5), "qosClass": "Burstable",
          "containerStatuses": [cstatus("indexer", "registry.example.com/app/indexer:2.0", terminated(0, "Completed", 60 * 5, 119))]}
    b.pod("app", "indexer", None, spec, st, created=60 * 5, labels={"run": "indexer"},
          extra_meta={"deletionTimestamp": t(119.5), "deletionGracePeriodSeconds": 30, "finalizers": ["example.com/flush-index"]})
    # nfs-client: on a Ready node, no finalizer, not gone after 20 minutes.
    spec = {"containers": [container("client", "registry.example.com/app/nfs-client:1.0", {"cpu": "100m", "memory": "128Mi"},
                                     volumeMounts=[{"name": "share", "mountPath": "/share"}])], "nodeName": "node-y",
            "volumes": [{"name": "share", "nfs": {"server": "10.0.9.5", "path": "/exports/share"}}]}
    st = running([cstatus("client", "registry.example.com/app/nfs-client:1.0", run_state(60 * 3), ready=True)], ip(4, 2), pod_ip(4, 9), start=60 * 3)
    p = b.pod("app", "nfs-client", None, spec, st, created=60 * 3, labels={"run": "nfs-client"},
              extra_meta={"deletionTimestamp": t(20), "deletionGracePeriodSeconds": 30})
    b.event(p, "Killing", "Stopping container client", typ="Normal", first=20.5, last=20.5, host="node-y", field="spec.containers{client}")


# ------------------------------------------------------------ runtime


def crash_pod(b, ns, owner, name, node, spec, cname, image, last, restarts, since, idx, msg_extra=""):
    spec = dict(spec, nodeName=node)
    uid = b.uid("Pod", ns, name)
    st = bound_not_ready([cstatus(cname, image, waiting("CrashLoopBackOff", f"back-off 5m0s restarting failed container={cname} pod={name}_{ns}({uid})"),
                                  restarts=restarts, last=last)], ip(5, 10 + idx), pod_ip(5, 10 + idx), since, [cname], phase="Running")
    p = b.pod(ns, name, owner, spec, st, created=since)
    b.event(p, "BackOff", f"Back-off restarting failed container {cname} in pod {name}_{ns}({uid})", count=restarts * 10, first=since - 2,
            last=0.1 + idx * 0.05, host=node, field=f"spec.containers{{{cname}}}")
    return p


@scenario("runtime-crash-loop", form="troubleshoot")
def s_crash(b):
    b.namespace("app")
    b.node("node-1")
    # api: OOMKilled at its 256Mi limit.
    img = "registry.example.com/app/api:7.1"
    tmpl = b.template({"app": "api"}, [container("api", img, {"cpu": "250m", "memory": "128Mi"}, {"memory": "256Mi"})])
    d = b.deployment("app", "api", 1, tmpl, ready=0, created=60)
    rs = b.replica_set(d, rs_hash("app", "api"), 1, created=60)
    name = f"{rs['metadata']['name']}-{suffix('api')}"
    crash_pod(b, "app", rs, name, "node-1", tmpl["spec"], "api", img, terminated(137, "OOMKilled", 3.5, 3.2), 9, 60, 1)
    b.log("app", name, "api", "2026-11-20T09:10:41Z INFO  starting api 7.1 (heap max 512m)\n2026-11-20T09:10:47Z INFO  loading catalog cache\n"
                              "2026-11-20T09:10:49Z INFO  cache warm: 180000 entries\n", previous=True)
    # web: killed by a failing liveness probe.
    img = "registry.example.com/app/web:2.4"
    tmpl = b.template({"app": "web"}, [container("web", img, {"cpu": "100m", "memory": "128Mi"}, {"memory": "256Mi"},
                                                 livenessProbe={"httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"},
                                                                "timeoutSeconds": 1, "periodSeconds": 10, "failureThreshold": 3,
                                                                "successThreshold": 1})])
    d = b.deployment("app", "web", 1, tmpl, ready=0, created=45)
    rs = b.replica_set(d, rs_hash("app", "web"), 1, created=45)
    name = f"{rs['metadata']['name']}-{suffix('web')}"
    p = crash_pod(b, "app", rs, name, "node-1", tmpl["spec"], "web", img, terminated(137, "Error", 4.6, 4.1), 6, 45, 2)
    b.event(p, "Unhealthy", "Liveness probe failed: Get \"http://10.244.5.12:8080/healthz\": context deadline exceeded (Client.Timeout exceeded "
            "while awaiting headers)", count=18, first=43, last=4.2, host="node-1", field="spec.containers{web}")
    b.event(p, "Killing", "Container web failed liveness probe, will be restarted", typ="Normal", count=6, first=42, last=4.15, host="node-1",
            field="spec.containers{web}")
    b.log("app", name, "web", "2026-11-20T09:09:31Z listening on :8080\n2026-11-20T09:09:45Z GET /healthz 200 9.8s\n", previous=True)
    # worker: exits 1; its previous log says why.
    img = "registry.example.com/app/worker:1.12"
    tmpl = b.template({"app": "worker"}, [container("worker", img, {"cpu": "100m", "memory": "128Mi"}, {"memory": "128Mi"})])
    d = b.deployment("app", "worker", 2, tmpl, ready=0, created=30)
    rs = b.replica_set(d, rs_hash("app", "worker"), 2, created=30)
    for k in range(2):
        name = f"{rs['metadata']['name']}-{suffix('worker', str(k))}"
        crash_pod(b, "app", rs, name, "node-1", tmpl["spec"], "worker", img, terminated(1, "Error", 2.1, 2.0), 7, 30, 3 + k)
        b.log("app", name, "worker", "time=\"2026-11-20T09:12:01Z\" level=info msg=\"connecting to postgres://orders-db:5432/orders\"\n"
                                     "time=\"2026-11-20T09:12:01Z\" level=error msg=\"migration check failed\" error=\"pq: password authentication failed for user \\\"orders\\\"\"\n"
                                     "time=\"2026-11-20T09:12:01Z\" level=fatal msg=\"cannot start\"\n", previous=True)
        b.log("app", name, "worker", "time=\"2026-11-20T09:13:40Z\" level=info msg=\"connecting to postgres://orders-db:5432/orders\"\n")
    # mesh: the sidecar (a restartable init container) crash-loops; the app container waits.
    img = "registry.example.com/app/proxy:1.30"
    proxy = container("proxy", img, {"cpu": "50m", "memory": "64Mi"}, {"memory": "64Mi"}, restartPolicy="Always")
    tmpl = b.template({"app": "mesh"}, [container("app", "registry.example.com/app/mesh-app:1.0", {"cpu": "100m", "memory": "128Mi"})], init=[proxy])
    d = b.deployment("app", "mesh", 1, tmpl, ready=0, created=20)
    rs = b.replica_set(d, rs_hash("app", "mesh"), 1, created=20)
    name = f"{rs['metadata']['name']}-{suffix('mesh')}"
    uid = b.uid("Pod", "app", name)
    st = bound_not_ready([cstatus("app", "registry.example.com/app/mesh-app:1.0", waiting("PodInitializing"))], ip(5, 20), pod_ip(5, 20), 20, ["app"],
                         init=[cstatus("proxy", img, waiting("CrashLoopBackOff", f"back-off 2m40s restarting failed container=proxy pod={name}_app({uid})"),
                                       restarts=5, last=terminated(2, "Error", 1.4, 1.3))],
                         initialized=False, init_names=["proxy"])
    p = b.pod("app", name, rs, dict(tmpl["spec"], nodeName="node-1"), st, created=20)
    b.event(p, "BackOff", f"Back-off restarting failed container proxy in pod {name}_app({uid})", count=40, first=18, last=0.2, host="node-1",
            field="spec.initContainers{proxy}")
    b.log("app", name, "proxy", "[2026-11-20 09:12:39.101][1][critical][main] error initializing config '/etc/proxy/proxy.yaml': "
                                "Unable to parse JSON as proto (INVALID_ARGUMENT:listeners[0].address: invalid value)\n", previous=True)


@scenario("runtime-start-error", form="troubleshoot")
def s_start(b):
    b.namespace("app")
    b.node("node-1")
    img = "registry.example.com/app/tools:0.4"
    tmpl = b.template({"app": "tools"}, [container("tools", img, {"cpu": "50m", "memory": "64Mi"}, command=["/app/start.sh"])])
    d = b.deployment("app", "tools", 1, tmpl, ready=0, created=12)
    rs = b.replica_set(d, rs_hash("app", "tools"), 1, created=12)
    name = f"{rs['metadata']['name']}-{suffix('tools')}"
    msg = ("failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start "
           "container process: exec: \"/app/start.sh\": permission denied: unknown")
    st = bound_not_ready([cstatus("tools", img, waiting("RunContainerError", msg), restarts=4,
                                  last=terminated(128, "StartError", 3, 3, message=msg))], ip(5, 11), pod_ip(5, 31), 12, ["tools"], phase="Running")
    p = b.pod("app", name, rs, dict(tmpl["spec"], nodeName="node-1"), st, created=12)
    b.event(p, "Failed", "Error: " + msg, count=5, first=11.5, last=3, host="node-1", field="spec.containers{tools}")
    img = "registry.example.com/app/legacy:9.0"
    spec = {"containers": [container("legacy", img, {"cpu": "50m", "memory": "64Mi"})], "nodeName": "node-1"}
    msg = ("failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start "
           "container process: exec: \"/usr/local/bin/legacy\": exec format error: unknown")
    st = bound_not_ready([cstatus("legacy", img, waiting("RunContainerError", msg), restarts=2)], ip(5, 11), pod_ip(5, 32), 7, ["legacy"], phase="Running")
    p = b.pod("app", "legacy", None, spec, st, created=7, labels={"run": "legacy"})
    b.event(p, "Failed", "Error: " + msg, count=3, first=6.5, last=1, host="node-1", field="spec.containers{legacy}")


@scenario("runtime-config-error")
def s_config(b):
    for ns in ["app", "mail"]:
        b.namespace(ns)
    b.node("node-1")
    b.config_map("app", "api-config", {"LOG_LEVEL": "info", "PORT": "8080"})
    b.config_map("app", "search-config", {"INDEX": "products"}, created=2)
    b.config_map("app", "gateway-tls", {"TLS_MODE": "strict"}, binary={"CA_BUNDLE": CA_DER_B64})
    b.secret("app", "db-creds")

    def config_pod(ns, name, c, msg, since, idx, extra_spec=None):
        tmpl = b.template({"app": name}, [c], **(extra_spec or {}))
        d = b.deployment(ns, name, 1, tmpl, ready=0, created=since)
        rs = b.replica_set(d, rs_hash(ns, name), 1, created=since)
        pname = f"{rs['metadata']['name']}-{suffix(name)}"
        msg = msg.replace("PODNAME", pname).replace("PODUID", b.uid("Pod", ns, pname))
        st = bound_not_ready([cstatus(c["name"], c["image"], waiting("CreateContainerConfigError", msg))],
                             ip(5, 11), pod_ip(6, idx), since, [c["name"]])
        p = b.pod(ns, pname, rs, dict(tmpl["spec"], nodeName="node-1"), st, created=since)
        b.event(p, "Failed", "Error: " + msg, count=20, first=since - 0.5, last=0.3 + idx * 0.02, host="node-1",
                field=f"spec.containers{{{c['name']}}}")
        return p

    # A key missing from a ConfigMap that exists.
    config_pod("app", "api", container("api", "registry.example.com/app/api:7.2", {"cpu": "100m", "memory": "128Mi"},
                                       env=[{"name": "DB_URL", "valueFrom": {"configMapKeyRef": {"name": "api-config", "key": "DB_URL"}}},
                                            {"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db-creds", "key": "password"}}}]),
               "couldn't find key DB_URL in ConfigMap app/api-config", 16, 1)
    # A Secret that does not exist, in a bundle holding other Secrets of the namespace.
    config_pod("app", "billing", container("billing", "registry.example.com/app/billing:3.3", {"cpu": "100m", "memory": "128Mi"},
                                           envFrom=[{"secretRef": {"name": "billing-secrets"}}]),
               "secret \"billing-secrets\" not found", 9, 2)
    # runAsNonRoot against an image that runs as root.
    config_pod("app", "reports", container("reports", "registry.example.com/app/reports:1.0", {"cpu": "100m", "memory": "128Mi"},
                                           securityContext={"runAsNonRoot": True, "allowPrivilegeEscalation": False}),
               "container has runAsNonRoot and image will run as root (pod: \"PODNAME_app(PODUID)\", container: reports)", 6, 3)
    # The kubelet said "not found", but the bundle holds it now: created 2 minutes ago.
    config_pod("app", "search", container("search", "registry.example.com/app/search:2.0", {"cpu": "100m", "memory": "128Mi"},
                                          envFrom=[{"configMapRef": {"name": "search-config"}}]),
               "configmap \"search-config\" not found", 8, 4)
    # A key that exists only in binaryData: env vars read data alone, so the kubelet misses it.
    config_pod("app", "gateway", container("gateway", "registry.example.com/app/gateway:4.1", {"cpu": "100m", "memory": "128Mi"},
                                           env=[{"name": "CA_BUNDLE", "valueFrom": {"configMapKeyRef": {"name": "gateway-tls", "key": "CA_BUNDLE"}}},
                                                {"name": "TLS_MODE", "valueFrom": {"configMapKeyRef": {"name": "gateway-tls", "key": "TLS_MODE"}}}]),
               "couldn't find key CA_BUNDLE in ConfigMap app/gateway-tls", 7, 6)
    # A Secret in a namespace whose Secrets the bundle does not hold.
    config_pod("mail", "notifier", container("notifier", "registry.example.com/mail/notifier:1.5", {"cpu": "50m", "memory": "64Mi"},
                                             env=[{"name": "SMTP_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "smtp", "key": "password"}}}]),
               "secret \"smtp\" not found", 5, 5)


@scenario("runtime-init-container", form="troubleshoot")
def s_init(b):
    b.namespace("app")
    b.node("node-1")
    mig = container("migrate", "registry.example.com/app/migrate:5.0", {"cpu": "100m", "memory": "128Mi"})
    tmpl = b.template({"app": "api"}, [container("api", "registry.example.com/app/api:8.0", {"cpu": "200m", "memory": "256Mi"})], init=[mig])
    d = b.deployment("app", "api", 1, tmpl, ready=0, created=35)
    rs = b.replica_set(d, rs_hash("app", "api"), 1, created=35)
    name = f"{rs['metadata']['name']}-{suffix('api')}"
    uid = b.uid("Pod", "app", name)
    st = bound_not_ready([cstatus("api", "registry.example.com/app/api:8.0", waiting("PodInitializing"))], ip(5, 11), pod_ip(7, 2), 35, ["api"],
                         init=[cstatus("migrate", "registry.example.com/app/migrate:5.0",
                                       waiting("CrashLoopBackOff", f"back-off 5m0s restarting failed container=migrate pod={name}_app({uid})"),
                                       restarts=8, last=terminated(1, "Error", 2.3, 2.2))], initialized=False, init_names=["migrate"])
    p = b.pod("app", name, rs, dict(tmpl["spec"], nodeName="node-1"), st, created=35)
    b.event(p, "BackOff", f"Back-off restarting failed container migrate in pod {name}_app({uid})", count=80, first=33, last=0.15, host="node-1",
            field="spec.initContainers{migrate}")
    b.log("app", name, "migrate", "2026-11-20T09:11:49Z applying migration 0042_add_users_email\n"
                                  "2026-11-20T09:11:49Z ERROR: relation \"users_email_idx\" already exists (SQLSTATE 42P07)\n"
                                  "2026-11-20T09:11:49Z migration 0042 failed; rolling back\n", previous=True)
    wait = container("wait-for-db", "registry.example.com/app/busybox:1.36", {"cpu": "10m", "memory": "16Mi"},
                     command=["sh", "-c", "until nc -z orders-db 5432; do echo waiting for orders-db:5432; sleep 5; done"])
    tmpl = b.template({"app": "orders"}, [container("orders", "registry.example.com/app/orders:2.1", {"cpu": "200m", "memory": "256Mi"})], init=[wait])
    d = b.deployment("app", "orders", 1, tmpl, ready=0, created=125)
    rs = b.replica_set(d, rs_hash("app", "orders"), 1, created=125)
    name = f"{rs['metadata']['name']}-{suffix('orders')}"
    st = bound_not_ready([cstatus("orders", "registry.example.com/app/orders:2.1", waiting("PodInitializing"))], ip(5, 11), pod_ip(7, 3), 125,
                         ["orders"], init=[cstatus("wait-for-db", "registry.example.com/app/busybox:1.36", run_state(124.5))],
                         initialized=False, init_names=["wait-for-db"])
    b.pod("app", name, rs, dict(tmpl["spec"], nodeName="node-1"), st, created=125)
    b.log("app", name, "wait-for-db", "".join("waiting for orders-db:5432\n" for _ in range(6)) +
          "nc: bad address 'orders-db'\nwaiting for orders-db:5432\n")


@scenario("runtime-job-failed", form="troubleshoot")
def s_job(b):
    b.namespace("batch")
    b.node("node-1")
    img = "registry.example.com/batch/export:3.0"
    tmpl = b.template({"job-name": "nightly-export"}, [container("export", img, {"cpu": "500m", "memory": "512Mi"})], restartPolicy="Never")
    job = b.job("batch", "nightly-export", tmpl, backoff=2, failed=3, created=50,
                conds=[{"type": "FailureTarget", "status": "True", "lastProbeTime": t(20), "lastTransitionTime": t(20),
                        "reason": "BackoffLimitExceeded", "message": "Job has reached the specified backoff limit"},
                       {"type": "Failed", "status": "True", "lastProbeTime": t(20), "lastTransitionTime": t(20),
                        "reason": "BackoffLimitExceeded", "message": "Job has reached the specified backoff limit"}])
    for k, (start, end) in enumerate([(50, 47), (46, 40), (34, 20.5)]):
        name = f"nightly-export-{suffix('export', str(k))}"
        st = {"phase": "Failed", "conditions": [pcond("Initialized", "True", start), pcond("Ready", "False", end, "PodFailed"),
                                                pcond("ContainersReady", "False", end, "PodFailed"), pcond("PodScheduled", "True", start)],
              "hostIP": ip(5, 11), "startTime": t(start), "qosClass": "Burstable",
              "containerStatuses": [cstatus("export", img, terminated(1, "Error", start - 0.1, end))]}
        b.pod("batch", name, job, dict(tmpl["spec"], nodeName="node-1"), st, created=start)
        b.log("batch", name, "export", "Traceback (most recent call last):\n  File \"/app/export.py\", line 88, in <module>\n"
                                       "    conn = psycopg2.connect(DSN)\npsycopg2.OperationalError: could not translate host name "
                                       "\"warehouse-db\" to address: Name or service not known\n")
    b.event(job, "BackoffLimitExceeded", "Job has reached the specified backoff limit", first=20, last=20, component="job-controller")
    # A CronJob whose older run failed and whose newer run succeeded: info.
    ctmpl = b.template({"app": "cleanup"}, [container("cleanup", "registry.example.com/batch/cleanup:1.1", {"cpu": "100m", "memory": "64Mi"})],
                       restartPolicy="Never")
    cj = b.cron_job("batch", "cleanup", "0 * * * *", ctmpl)
    old = b.job("batch", "cleanup-29410080", ctmpl, owner=cj, backoff=1, failed=2, created=74,
                conds=[{"type": "Failed", "status": "True", "lastProbeTime": t(70), "lastTransitionTime": t(70),
                        "reason": "BackoffLimitExceeded", "message": "Job has reached the specified backoff limit"}])
    b.job("batch", "cleanup-29410140", ctmpl, owner=cj, succeeded=1, created=14, completion=t(13),
          conds=[{"type": "Complete", "status": "True", "lastProbeTime": t(13), "lastTransitionTime": t(13),
                  "reason": "CompletionsReached", "message": "Reached expected number of succeeded pods"}])
    name = f"cleanup-29410080-{suffix('cleanup')}"
    st = {"phase": "Failed", "conditions": [pcond("Ready", "False", 70, "PodFailed"), pcond("PodScheduled", "True", 73)],
          "hostIP": ip(5, 11), "startTime": t(73), "qosClass": "Burstable",
          "containerStatuses": [cstatus("cleanup", "registry.example.com/batch/cleanup:1.1", terminated(2, "Error", 72.9, 70))]}
    b.pod("batch", name, old, dict(ctmpl["spec"], nodeName="node-1"), st, created=73)
    # A Job that ran past its activeDeadlineSeconds.
    rtmpl = b.template({"job-name": "long-report"}, [container("report", "registry.example.com/batch/report:4.4", {"cpu": "1", "memory": "1Gi"})],
                       restartPolicy="Never")
    rj = b.job("batch", "long-report", rtmpl, backoff=6, failed=1, created=25, extra_spec={"activeDeadlineSeconds": 600},
               conds=[{"type": "Failed", "status": "True", "lastProbeTime": t(15), "lastTransitionTime": t(15),
                       "reason": "DeadlineExceeded", "message": "Job was active longer than specified deadline"}])
    name = f"long-report-{suffix('long-report')}"
    st = {"phase": "Failed", "reason": "DeadlineExceeded", "message": "Pod was active on the node longer than the specified deadline",
          "conditions": [pcond("Ready", "False", 15, "PodFailed"), pcond("PodScheduled", "True", 25)], "hostIP": ip(5, 11), "startTime": t(25),
          "qosClass": "Burstable",
          "containerStatuses": [cstatus("report", "registry.example.com/batch/report:4.4", terminated(137, "Error", 24.9, 15))]}
    b.pod("batch", name, rj, dict(rtmpl["spec"], nodeName="node-1"), st, created=25)
    b.event(rj, "DeadlineExceeded", "Job was active longer than specified deadline", first=15, last=15, component="job-controller")


@scenario("runtime-quiet", form="troubleshoot")
def s_runtime_quiet(b):
    b.namespace("app")
    b.node("node-1")
    # Crashed an hour ago, running and Ready since.
    _, _, pods = healthy_deployment(b, "app", "api", "node-1", ip(5, 11), 1, start=120)
    pods[0]["status"]["containerStatuses"][0]["restartCount"] = 3
    pods[0]["status"]["containerStatuses"][0]["lastState"] = terminated(1, "Error", 75, 70)
    # An init container that finished, and a sidecar that runs.
    img = "registry.example.com/app/web:3.0"
    tmpl = b.template({"app": "web"}, [container("web", img, {"cpu": "100m", "memory": "128Mi"},
                                                 envFrom=[{"configMapRef": {"name": "optional-flags", "optional": True}}])],
                      init=[container("migrate", "registry.example.com/app/migrate:5.1", {"cpu": "100m", "memory": "64Mi"}),
                            container("proxy", "registry.example.com/app/proxy:1.30", {"cpu": "50m", "memory": "64Mi"}, restartPolicy="Always")])
    d = b.deployment("app", "web", 1, tmpl, ready=1)
    rs = b.replica_set(d, rs_hash("app", "web"), 1, ready=1)
    st = running([cstatus("web", img, run_state(58), ready=True)], ip(5, 11), pod_ip(8, 2), start=60,
                 init=[cstatus("migrate", "registry.example.com/app/migrate:5.1", terminated(0, "Completed", 59.8, 59.5)),
                       cstatus("proxy", "registry.example.com/app/proxy:1.30", run_state(59.4), ready=True)])
    b.pod("app", f"{rs['metadata']['name']}-{suffix('web')}", rs, dict(tmpl["spec"], nodeName="node-1"), st, created=60)
    # binaryData read through a volume, data through an env var: both as the kubelet reads them.
    b.config_map("app", "gateway-tls", {"TLS_MODE": "strict"}, binary={"CA_BUNDLE": CA_DER_B64})
    gimg = "registry.example.com/app/gateway:4.1"
    tmpl = b.template({"app": "gateway"}, [container("gateway", gimg, {"cpu": "100m", "memory": "128Mi"},
                                                     env=[{"name": "TLS_MODE", "valueFrom": {"configMapKeyRef": {"name": "gateway-tls", "key": "TLS_MODE"}}}],
                                                     volumeMounts=[{"name": "ca", "mountPath": "/etc/gateway/ca", "readOnly": True}])],
                      volumes=[{"name": "ca", "configMap": {"name": "gateway-tls", "defaultMode": 420,
                                                            "items": [{"key": "CA_BUNDLE", "path": "ca.der"}]}}])
    d = b.deployment("app", "gateway", 1, tmpl, ready=1)
    rs = b.replica_set(d, rs_hash("app", "gateway"), 1, ready=1)
    b.pod("app", f"{rs['metadata']['name']}-{suffix('gateway')}", rs, dict(tmpl["spec"], nodeName="node-1"),
          running([cstatus("gateway", gimg, run_state(60 * 5), ready=True)], ip(5, 11), pod_ip(8, 3), start=60 * 5 + 1), created=60 * 5 + 1)
    # A Job that failed once and then succeeded.
    jt = b.template({"job-name": "seed"}, [container("seed", "registry.example.com/app/seed:1.0", {"cpu": "100m", "memory": "64Mi"})],
                    restartPolicy="Never")
    job = b.job("app", "seed", jt, failed=1, succeeded=1, created=40, completion=t(36),
                conds=[{"type": "Complete", "status": "True", "lastProbeTime": t(36), "lastTransitionTime": t(36),
                        "reason": "CompletionsReached", "message": "Reached expected number of succeeded pods"}])
    for k, (code, reason, phase) in enumerate([(1, "Error", "Failed"), (0, "Completed", "Succeeded")]):
        st = {"phase": phase, "conditions": [pcond("Ready", "False", 37 - k, "PodFailed" if code else "PodCompleted"), pcond("PodScheduled", "True", 40 - k)],
              "hostIP": ip(5, 11), "startTime": t(40 - k * 2), "qosClass": "Burstable",
              "containerStatuses": [cstatus("seed", "registry.example.com/app/seed:1.0", terminated(code, reason, 39.9 - k * 2, 38 - k * 2))]}
        b.pod("app", f"seed-{suffix('seed', str(k))}", job, dict(jt["spec"], nodeName="node-1"), st, created=40 - k * 2)


# ------------------------------------------------------------ creation


@scenario("creation-failed-create", form="troubleshoot")
def s_failed_create(b):
    b.namespace("quota-demo")
    b.namespace("secure", {"pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/enforce-version": "latest"})
    b.namespace("policy")
    b.namespace("batch")
    b.namespace("metrics")
    b.node("node-1")
    # quota-demo: 3500m of 4 cpu used; each new api pod needs 750m once the LimitRange fills in the sidecar.
    b.add({"kind": "ResourceQuota", "apiVersion": "v1", "metadata": b.meta("ResourceQuota", "quota-demo", "compute", t(60 * 24 * 9)),
           "spec": {"hard": {"requests.cpu": "4", "requests.memory": "8Gi", "pods": "20"}},
           "status": {"hard": {"pods": "20", "requests.cpu": "4", "requests.memory": "8Gi"},
                      "used": {"pods": "7", "requests.cpu": "3500m", "requests.memory": "6Gi"}}})
    b.add({"kind": "LimitRange", "apiVersion": "v1", "metadata": b.meta("LimitRange", "quota-demo", "defaults", t(60 * 24 * 9)),
           "spec": {"limits": [{"type": "Container", "default": {"cpu": "500m", "memory": "512Mi"},
                                "defaultRequest": {"cpu": "250m", "memory": "256Mi"}}]}})
    tmpl = b.template({"app": "api"}, [container("api", "registry.example.com/quota-demo/api:2.0", {"cpu": "500m", "memory": "256Mi"}, {"memory": "512Mi"}),
                                       container("log-shipper", "registry.example.com/quota-demo/shipper:1.3")])
    fail = ("pods \"api-PODSUFFIX\" is forbidden: exceeded quota: compute, requested: requests.cpu=750m, used: requests.cpu=3500m, "
            "limited: requests.cpu=4")
    d = b.deployment("quota-demo", "api", 2, tmpl, ready=0, created=22,
                     conds=[b.cond("Available", "False", "MinimumReplicasUnavailable", "Deployment does not have minimum availability.", 22),
                            b.cond("ReplicaFailure", "True", "FailedCreate", fail.replace("PODSUFFIX", "6c9f7d8b5-q2xq4"), 22),
                            b.cond("Progressing", "False", "ProgressDeadlineExceeded", "ReplicaSet \"api-6c9f7d8b5\" has timed out progressing.", 12)])
    rs = b.replica_set(d, "6c9f7d8b5", 2, have=0, created=22,
                       conds=[{"type": "ReplicaFailure", "status": "True", "lastTransitionTime": t(22), "reason": "FailedCreate",
                               "message": fail.replace("PODSUFFIX", "6c9f7d8b5-q2xq4")}])
    b.event(rs, "FailedCreate", "Error creating: " + fail.replace("PODSUFFIX", "6c9f7d8b5-8lz2w"), count=16, first=22, last=1.5,
            component="replicaset-controller")
    # secure: the StatefulSet's pod violates the restricted PodSecurity level.
    tmpl = b.template({"app": "vault"}, [container("vault", "registry.example.com/secure/vault:1.17", {"cpu": "250m", "memory": "256Mi"},
                                                   securityContext={"capabilities": {"add": ["IPC_LOCK"]}})])
    sts = b.stateful_set("secure", "vault", 1, tmpl, have=0, ready=0, created=17)
    b.event(sts, "FailedCreate",
            "create Pod vault-0 in StatefulSet vault failed error: pods \"vault-0\" is forbidden: violates PodSecurity \"restricted:latest\": "
            "allowPrivilegeEscalation != false (container \"vault\" must set securityContext.allowPrivilegeEscalation=false), unrestricted "
            "capabilities (container \"vault\" must set securityContext.capabilities.drop=[\"ALL\"]; container \"vault\" must not include "
            "\"IPC_LOCK\" in securityContext.capabilities.add), runAsNonRoot != true (pod or container \"vault\" must set "
            "securityContext.runAsNonRoot=true), seccompProfile (pod or container \"vault\" must set securityContext.seccompProfile.type to "
            "\"RuntimeDefault\" or \"Localhost\")", count=12, first=17, last=0.9, component="statefulset-controller")
    # policy: a Gatekeeper webhook refuses the pods.
    b.add({"kind": "ValidatingWebhookConfiguration", "apiVersion": "admissionregistration.k8s.io/v1",
           "metadata": b.meta("ValidatingWebhookConfiguration", None, "gatekeeper-validating-webhook-configuration", t(60 * 24 * 30)),
           "webhooks": [{"name": "validation.gatekeeper.sh", "failurePolicy": "Ignore", "sideEffects": "None", "timeoutSeconds": 3,
                         "admissionReviewVersions": ["v1", "v1beta1"], "matchPolicy": "Exact",
                         "clientConfig": {"service": {"namespace": "gatekeeper-system", "name": "gatekeeper-webhook-service",
                                                      "path": "/v1/admit", "port": 443}},
                         "rules": [{"apiGroups": ["*"], "apiVersions": ["*"], "operations": ["CREATE", "UPDATE"], "resources": ["*"], "scope": "*"}]}]})
    tmpl = b.template({"app": "web"}, [container("web", "registry.example.com/policy/web:1.0", {"cpu": "100m", "memory": "128Mi"})])
    d = b.deployment("policy", "web", 3, tmpl, ready=0, created=9)
    rs = b.replica_set(d, "7f8b9c6d4", 3, have=0, created=9)
    b.event(rs, "FailedCreate", "Error creating: admission webhook \"validation.gatekeeper.sh\" denied the request: [require-team-label] "
            "you must provide labels: {\"team\"}", count=14, first=9, last=0.6, component="replicaset-controller")
    # batch: the Job's ServiceAccount does not exist.
    b.service_account("batch", "default")
    tmpl = b.template({"job-name": "etl"}, [container("etl", "registry.example.com/batch/etl:6.1", {"cpu": "1", "memory": "1Gi"})],
                      restartPolicy="Never", serviceAccountName="etl-runner")
    job = b.job("batch", "etl", tmpl, created=6)
    b.event(job, "FailedCreate", "Error creating: pods \"etl-\" is forbidden: error looking up service account batch/etl-runner: "
            "serviceaccount \"etl-runner\" not found", count=7, first=6, last=0.4, component="job-controller")
    # metrics: a quota that requires limits, and no LimitRange to default them.
    b.add({"kind": "ResourceQuota", "apiVersion": "v1", "metadata": b.meta("ResourceQuota", "metrics", "metrics-quota", t(60 * 24 * 9)),
           "spec": {"hard": {"limits.cpu": "2", "limits.memory": "2Gi"}},
           "status": {"hard": {"limits.cpu": "2", "limits.memory": "2Gi"}, "used": {"limits.cpu": "0", "limits.memory": "0"}}})
    tmpl = b.template({"app": "node-exporter"}, [container("node-exporter", "quay.io/prometheus/node-exporter:v1.8.2", {"cpu": "50m", "memory": "64Mi"})],
                      hostNetwork=True)
    ds = b.daemon_set("metrics", "node-exporter", tmpl, desired=1, current=0, ready=0, created=5)
    b.event(ds, "FailedCreate", "Error creating: pods \"node-exporter-\" is forbidden: failed quota: metrics-quota: must specify "
            "limits.cpu for: node-exporter; limits.memory for: node-exporter", count=9, first=5, last=0.3, component="daemonset-controller")


@scenario("creation-progress-deadline", form="troubleshoot")
def s_progress(b):
    b.namespace("app")
    b.node("node-1")
    # orders: the new ReplicaSet has no pods and nothing in the bundle says why.
    img_old, img_new = "registry.example.com/app/orders:1.9", "registry.example.com/app/orders:2.0"
    tmpl_new = b.template({"app": "orders"}, [container("orders", img_new, {"cpu": "200m", "memory": "256Mi"})])
    d = b.deployment("app", "orders", 2, tmpl_new, ready=2, available=2, updated=0, created=60 * 24 * 3,
                     conds=[b.cond("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability.", 60 * 24),
                            b.cond("Progressing", "False", "ProgressDeadlineExceeded", "ReplicaSet \"orders-5b8c7d9f6\" has timed out progressing.", 65)])
    d["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "2"
    tmpl_old = b.template({"app": "orders"}, [container("orders", img_old, {"cpu": "200m", "memory": "256Mi"})])
    old = b.replica_set(d, "6d7f8c9b4", 2, ready=2, revision="1", tmpl=tmpl_old, created=60 * 24 * 3)
    b.replica_set(d, "5b8c7d9f6", 1, have=0, revision="2", created=76)
    for k in range(2):
        b.pod("app", f"orders-6d7f8c9b4-{suffix('orders', str(k))}", old, dict(old["spec"]["template"]["spec"], nodeName="node-1"),
              running([cstatus("orders", img_old, run_state(60 * 24 * 2), ready=True)], ip(6, 11), pod_ip(9, 2 + k), start=60 * 24 * 2),
              created=60 * 24 * 2, labels=old["spec"]["template"]["metadata"]["labels"])
    # legacy: the condition says ProgressDeadlineExceeded, but every replica is updated and available.
    tmpl = b.template({"app": "legacy"}, [container("legacy", "registry.example.com/app/legacy:3.3", {"cpu": "100m", "memory": "128Mi"})])
    d = b.deployment("app", "legacy", 1, tmpl, ready=1, created=60 * 24,
                     conds=[b.cond("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability.", 60),
                            b.cond("Progressing", "False", "ProgressDeadlineExceeded", "ReplicaSet \"legacy-8c9d7b6f5\" has timed out progressing.", 3)])
    rs = b.replica_set(d, "8c9d7b6f5", 1, ready=1, created=60 * 24)
    b.pod("app", f"legacy-8c9d7b6f5-{suffix('legacy')}", rs, dict(tmpl["spec"], nodeName="node-1"),
          running([cstatus("legacy", "registry.example.com/app/legacy:3.3", run_state(59), ready=True)], ip(6, 11), pod_ip(9, 9), start=60),
          created=60)


@scenario("creation-statefulset-ordinal", form="troubleshoot")
def s_sts(b):
    b.namespace("data")
    b.node("node-1")
    b.node("node-2")
    img = "registry.example.com/data/kafka:3.8"
    tmpl = b.template({"app": "kafka"}, [container("kafka", img, {"cpu": "1", "memory": "2Gi"})])
    sts = b.stateful_set("data", "kafka", 3, tmpl, have=2, ready=2)
    for k, node in enumerate(["node-1", "node-2"]):
        b.pod("data", f"kafka-{k}", sts, dict(tmpl["spec"], nodeName=node, hostname=f"kafka-{k}", subdomain="kafka"),
              running([cstatus("kafka", img, run_state(60 * 6), ready=True)], ip(7, 11 + k), pod_ip(10, 2 + k), start=60 * 6), created=60 * 6)
    # rabbit-0 crash-loops, so rabbit-1 and rabbit-2 are never created.
    img = "registry.example.com/data/rabbitmq:3.13"
    tmpl = b.template({"app": "rabbit"}, [container("rabbitmq", img, {"cpu": "500m", "memory": "1Gi"}, {"memory": "1Gi"})])
    sts = b.stateful_set("data", "rabbit", 3, tmpl, have=1, ready=0, created=40)
    uid = b.uid("Pod", "data", "rabbit-0")
    st = bound_not_ready([cstatus("rabbitmq", img, waiting("CrashLoopBackOff", f"back-off 5m0s restarting failed container=rabbitmq pod=rabbit-0_data({uid})"),
                                  restarts=9, last=terminated(1, "Error", 3, 2.5))], ip(7, 11), pod_ip(10, 9), 40, ["rabbitmq"], phase="Running")
    p = b.pod("data", "rabbit-0", sts, dict(tmpl["spec"], nodeName="node-1", hostname="rabbit-0", subdomain="rabbit"), st, created=40)
    b.event(p, "BackOff", f"Back-off restarting failed container rabbitmq in pod rabbit-0_data({uid})", count=120, first=38, last=0.2, host="node-1",
            field="spec.containers{rabbitmq}")


@scenario("creation-daemonset-coverage", form="troubleshoot")
def s_ds(b):
    b.namespace("monitoring")
    b.node("n1", labels={"gpu": "true"})
    b.node("n2")
    b.node("n3", taints=[{"key": "dedicated", "value": "db", "effect": "NoSchedule"}])
    img = "quay.io/prometheus/node-exporter:v1.8.2"
    tmpl = b.template({"app": "node-exporter"}, [container("node-exporter", img, {"cpu": "50m", "memory": "64Mi"})], hostNetwork=True)
    ds = b.daemon_set("monitoring", "node-exporter", tmpl, desired=2, current=1, ready=1)
    b.pod("monitoring", f"node-exporter-{suffix('ne', 'n1')}", ds, dict(tmpl["spec"], nodeName="n1"),
          running([cstatus("node-exporter", img, run_state(60 * 30), ready=True)], ip(8, 1), ip(8, 1), start=60 * 30), created=60 * 30)
    img = "registry.example.com/monitoring/gpu-plugin:0.16"
    tmpl = b.template({"app": "gpu-plugin"}, [container("plugin", img, {"cpu": "50m", "memory": "64Mi"})], nodeSelector={"gpu": "true"})
    ds = b.daemon_set("monitoring", "gpu-plugin", tmpl, desired=1, current=2, ready=2, misscheduled=1)
    for node in ["n1", "n2"]:
        b.pod("monitoring", f"gpu-plugin-{suffix('gp', node)}", ds, dict(tmpl["spec"], nodeName=node),
              running([cstatus("plugin", img, run_state(60 * 30), ready=True)], ip(8, 1), pod_ip(11, int(node[1])), start=60 * 30), created=60 * 30)


@scenario("creation-quiet", form="troubleshoot")
def s_creation_quiet(b):
    b.namespace("app")
    b.node("n1")
    b.node("n2", taints=[{"key": "dedicated", "value": "db", "effect": "NoSchedule"}])
    # A quota error that is over: the ReplicaSet has all its pods now.
    d, rs, pods = healthy_deployment(b, "app", "api", "n1", ip(9, 1), 1, replicas=2, nodes=[("n1", ip(9, 1)), ("n1", ip(9, 1))])
    b.event(rs, "FailedCreate", f"Error creating: pods \"{rs['metadata']['name']}-x\" is forbidden: exceeded quota: compute, requested: "
            "requests.cpu=500m, used: requests.cpu=3800m, limited: requests.cpu=4", count=3, first=55, last=50, component="replicaset-controller")
    # A StatefulSet with all its ordinals, a DaemonSet that skips the tainted node.
    img = "registry.example.com/app/zk:3.9"
    tmpl = b.template({"app": "zk"}, [container("zk", img, {"cpu": "200m", "memory": "256Mi"})])
    sts = b.stateful_set("app", "zk", 2, tmpl, have=2, ready=2)
    for k in range(2):
        b.pod("app", f"zk-{k}", sts, dict(tmpl["spec"], nodeName="n1", hostname=f"zk-{k}", subdomain="zk"),
              running([cstatus("zk", img, run_state(300), ready=True)], ip(9, 1), pod_ip(12, k), start=300), created=300)
    img = "quay.io/prometheus/node-exporter:v1.8.2"
    tmpl = b.template({"app": "node-exporter"}, [container("node-exporter", img, {"cpu": "50m", "memory": "64Mi"})], hostNetwork=True)
    ds = b.daemon_set("app", "node-exporter", tmpl, desired=1, current=1, ready=1)
    b.pod("app", f"node-exporter-{suffix('ne')}", ds, dict(tmpl["spec"], nodeName="n1"),
          running([cstatus("node-exporter", img, run_state(300), ready=True)], ip(9, 1), ip(9, 1), start=300), created=300)


# ---------------------------------------------------------------- main


def build(out):
    for name, (fn, form) in SCENARIOS.items():
        b = Bundle(name)
        fn(b)
        b.items.sort(key=lambda o: (ORDER.index(o["kind"]) if o["kind"] in ORDER else 99, o["metadata"].get("namespace") or "", o["metadata"]["name"]))
        if form == "list":
            write_list(os.path.join(out, f"{name}.yaml"), b.items)
        else:
            write_troubleshoot(os.path.join(out, name), b)


ORDER = ["Namespace", "Node", "PriorityClass", "StorageClass", "PersistentVolume", "ValidatingWebhookConfiguration", "ResourceQuota",
         "LimitRange", "ServiceAccount", "Secret", "ConfigMap", "PersistentVolumeClaim", "Pod", "Event", "Deployment", "ReplicaSet",
         "StatefulSet", "DaemonSet", "CronJob", "Job"]


def main():
    if "--check" in sys.argv:
        with tempfile.TemporaryDirectory() as tmp:
            build(tmp)
            bad = []
            for root, _, files in os.walk(tmp):
                for f in files:
                    p = os.path.join(root, f)
                    rel = os.path.relpath(p, tmp)
                    mine = os.path.join(HERE, rel)
                    if not os.path.exists(mine) or not filecmp.cmp(p, mine, shallow=False):
                        bad.append(rel)
            if bad:
                print("out of date:", *bad, sep="\n  ")
                sys.exit(1)
            print("sample bundles are up to date")
        return
    for name, (_, form) in SCENARIOS.items():
        target = os.path.join(HERE, name if form != "list" else f"{name}.yaml")
        if os.path.isdir(target):
            shutil.rmtree(target)
    build(HERE)


if __name__ == "__main__":
    main()

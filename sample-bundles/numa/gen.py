#!/usr/bin/env python3
"""Build the NUMA / pod-level resource manager sample bundles (folders).

    python3 sample-bundles/numa/gen.py           # (re)write every bundle here
    python3 sample-bundles/numa/gen.py --check   # fail if a file differs from a fresh build

Each bundle is a folder: `cluster.yaml` (a kubectl `kind: List`) plus the kubelet
configuration where bundles keep it: `nodes/<node>/configz.json` (the
`/api/v1/nodes/<node>/proxy/configz` answer), `nodes/<node>/kubelet-config.yaml` (a
`KubeletConfiguration` file), or OpenShift `KubeletConfig` / `MachineConfigPool` /
`PerformanceProfile` objects inside `cluster.yaml`.

Python 3 standard library only; the YAML is written by the kubectl-style emitter of
../build.py. Deterministic: UIDs come from SHA-256 of scenario/kind/namespace/name, every
timestamp is fixed and earlier than the snapshot time below. The pod specs of the
tutorial (seed 003, kubernetes/website pod-level-resource-managers-*.yaml) are used
verbatim where a bundle says so. See README.md for what kdiag must say about each.
"""

import calendar
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from build import to_yaml  # noqa: E402

AS_OF = "2026-11-20T09:14:00Z"
AS_OF_EPOCH = calendar.timegm(time.strptime(AS_OF, "%Y-%m-%dT%H:%M:%SZ"))
MIN, HOUR, DAY = 60, 3600, 86400
PAUSE = "registry.k8s.io/pause:3.9"
POD_SCOPE_MSG = "Pod Scope pod with pod-level resources failed admission under pod-scope topology manager"


def ts(seconds_before):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(AS_OF_EPOCH - seconds_before))


def res(cpu=None, mem=None, **extra):
    """requests = limits (Guaranteed) for the given amounts."""
    r = {}
    if cpu is not None:
        r["cpu"] = cpu
    if mem is not None:
        r["memory"] = mem
    for k, v in extra.items():
        r[k.replace("_", "-")] = v
    return {"requests": dict(r), "limits": dict(r)}


def ctr(name, resources=None, sidecar=False, image=PAUSE):
    c = {"name": name, "image": image, "imagePullPolicy": "IfNotPresent",
         "resources": resources or {},
         "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    if sidecar:
        c["restartPolicy"] = "Always"
    return c


class Scenario:
    def __init__(self, name):
        self.name = name
        self.items = []
        self.files = {}
        self.rv = 2_000_000

    def uid(self, kind, ns, name):
        h = hashlib.sha256(("%s/%s/%s/%s" % (self.name, kind, ns or "", name)).encode()).hexdigest()
        return "%s-%s-4%s-%s%s-%s" % (h[:8], h[8:12], h[13:16], "89ab"[int(h[16], 16) % 4], h[17:20], h[20:32])

    def hexid(self, *parts):
        return hashlib.sha256(("%s/%s" % (self.name, "/".join(parts))).encode()).hexdigest()

    def suffix(self, n, *parts):
        h = self.hexid(*parts)
        return "".join("bcdfghjklmnpqrstvwxz2456789"[int(h[i:i + 2], 16) % 27] for i in range(0, 2 * n, 2))

    def add(self, obj):
        self.rv += 137
        obj["metadata"]["resourceVersion"] = str(self.rv)
        self.items.append(obj)
        return obj

    def meta(self, kind, ns, name, created, labels=None, owner=None, annotations=None, **extra):
        m = {"name": name, "uid": self.uid(kind, ns, name), "creationTimestamp": ts(created)}
        if ns is not None:
            m["namespace"] = ns
        if labels:
            m["labels"] = dict(labels)
        if annotations:
            m["annotations"] = dict(annotations)
        if owner is not None:
            m["ownerReferences"] = [{
                "apiVersion": owner["apiVersion"], "kind": owner["kind"],
                "name": owner["metadata"]["name"], "uid": owner["metadata"]["uid"],
                "controller": True, "blockOwnerDeletion": True}]
        m.update(extra)
        return m

    def namespace(self, name):
        return self.add({"apiVersion": "v1", "kind": "Namespace",
                         "metadata": self.meta("Namespace", None, name, 60 * DAY,
                                               labels={"kubernetes.io/metadata.name": name}),
                         "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}})

    def node(self, name, version="v1.36.1", cpu=32, mem_gi=128, roles=(), labels=None, os_="linux"):
        lab = {"kubernetes.io/hostname": name, "kubernetes.io/os": os_, "kubernetes.io/arch": "amd64",
               "beta.kubernetes.io/os": os_, "beta.kubernetes.io/arch": "amd64"}
        for r in roles:
            lab["node-role.kubernetes.io/" + r] = ""
        lab.update(labels or {})
        image = "Windows Server 2022 Datacenter" if os_ == "windows" else "Ubuntu 24.04.1 LTS"
        return self.add({"apiVersion": "v1", "kind": "Node",
                         "metadata": self.meta("Node", None, name, 90 * DAY, labels=lab),
                         "spec": {"podCIDR": "10.244.%d.0/24" % (int(self.hexid("cidr", name)[:2], 16) % 200)},
                         "status": {
                             "allocatable": {"cpu": "%dm" % (cpu * 1000 - 2000), "memory": "%dGi" % (mem_gi - 4),
                                             "hugepages-1Gi": "0", "hugepages-2Mi": "0", "pods": "110"},
                             "capacity": {"cpu": str(cpu), "memory": "%dGi" % mem_gi,
                                          "hugepages-1Gi": "0", "hugepages-2Mi": "0", "pods": "110"},
                             "conditions": [
                                 {"type": "MemoryPressure", "status": "False", "reason": "KubeletHasSufficientMemory",
                                  "message": "kubelet has sufficient memory available",
                                  "lastHeartbeatTime": ts(2 * MIN), "lastTransitionTime": ts(90 * DAY)},
                                 {"type": "Ready", "status": "True", "reason": "KubeletReady",
                                  "message": "kubelet is posting ready status",
                                  "lastHeartbeatTime": ts(2 * MIN), "lastTransitionTime": ts(90 * DAY)}],
                             "nodeInfo": {"kubeletVersion": version, "containerRuntimeVersion": "containerd://2.1.4",
                                          "osImage": image, "operatingSystem": os_, "architecture": "amd64"}}})

    # -- kubelet configuration --------------------------------------------------------

    def configz(self, node, settings):
        cfg = {"enableServer": True, "staticPodPath": "/etc/kubernetes/manifests",
               "syncFrequency": "1m0s", "cgroupDriver": "systemd", "clusterDomain": "cluster.local",
               "clusterDNS": ["10.96.0.10"], "cpuManagerReconcilePeriod": "10s",
               "memoryManagerPolicy": "None", "topologyManagerPolicy": "none",
               "topologyManagerScope": "container", "cpuManagerPolicy": "none",
               "kubeReserved": {"cpu": "1", "memory": "2Gi"}, "systemReserved": {"cpu": "1", "memory": "2Gi"},
               "maxPods": 110}
        cfg.update(settings)
        self.files["nodes/%s/configz.json" % node] = json.dumps({"kubeletconfig": cfg}, indent=2,
                                                                 sort_keys=True) + "\n"

    def kubelet_file(self, node, settings):
        cfg = {"apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration",
               "cgroupDriver": "systemd", "clusterDomain": "cluster.local", "clusterDNS": ["10.96.0.10"],
               "kubeReserved": {"cpu": "1", "memory": "2Gi"}, "systemReserved": {"cpu": "1", "memory": "2Gi"}}
        cfg.update(settings)
        self.files["nodes/%s/kubelet-config.yaml" % node] = to_yaml(cfg, sort_keys=True, width=80)

    # -- workloads ---------------------------------------------------------------------

    def pod(self, ns, name, spec, node=None, phase="Running", qos="Guaranteed", owner=None, created=2 * HOUR,
            reason=None, message=None, labels=None, scheduled=True):
        full = {"restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
                "serviceAccountName": "default", "schedulerName": "default-scheduler",
                "enableServiceLinks": True, "preemptionPolicy": "PreemptLowerPriority", "priority": 0}
        full.update(spec)
        if node:
            full["nodeName"] = node
        md = self.meta("Pod", ns, name, created, labels=labels, owner=owner)
        if owner is not None:
            md["generateName"] = owner["metadata"]["name"] + "-"
        status = {"phase": phase, "qosClass": qos}
        if phase == "Running":
            names = [c["name"] for c in spec.get("initContainers", []) if c.get("restartPolicy") == "Always"] + \
                    [c["name"] for c in spec["containers"]]
            status["conditions"] = [
                {"type": t, "status": "True", "lastProbeTime": None, "lastTransitionTime": ts(created - 20)}
                for t in ("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled")]
            status["containerStatuses"] = [
                {"name": n, "image": PAUSE, "imageID": "registry.k8s.io/pause@sha256:" + self.hexid("img"),
                 "containerID": "containerd://" + self.hexid("ctr", ns, name, n), "ready": True,
                 "restartCount": 0, "started": True, "state": {"running": {"startedAt": ts(created - 15)}},
                 "lastState": {}} for n in names if n in [c["name"] for c in spec["containers"]]]
            sidecars = [c for c in spec.get("initContainers", []) if c.get("restartPolicy") == "Always"]
            if sidecars:
                status["initContainerStatuses"] = [
                    {"name": c["name"], "image": PAUSE, "imageID": "registry.k8s.io/pause@sha256:" + self.hexid("img"),
                     "containerID": "containerd://" + self.hexid("ctr", ns, name, c["name"]), "ready": True,
                     "restartCount": 0, "started": True, "state": {"running": {"startedAt": ts(created - 18)}},
                     "lastState": {}} for c in sidecars]
            status["hostIP"] = "192.168.20.%d" % (int(self.hexid("ip", node)[:2], 16) % 200 + 10)
            status["podIP"] = "10.244.%d.%d" % (int(self.hexid("pip", node)[:2], 16) % 200,
                                                int(self.hexid("pip", name)[:2], 16) % 250 + 2)
            status["startTime"] = ts(created - 20)
        elif phase == "Failed":
            status["reason"] = reason
            status["message"] = "Pod was rejected: " + message
            status["startTime"] = ts(created - 3)
        elif phase == "Pending":
            if scheduled:
                status["conditions"] = [{"type": "PodScheduled", "status": "True", "lastProbeTime": None,
                                         "lastTransitionTime": ts(created - 2)}]
        return self.add({"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": full, "status": status})

    def event(self, obj, reason, message, type_="Warning", count=1, first=None, last=0, component="kubelet"):
        md = obj["metadata"]
        first = last if first is None else first
        key = self.hexid("ev", md["name"], reason, message)
        nanos = (AS_OF_EPOCH - first) * 1_000_000_000 + int(key[:6], 16)
        io_ = {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "name": md["name"], "uid": md["uid"],
               "namespace": md["namespace"], "resourceVersion": md["resourceVersion"]}
        host = obj.get("spec", {}).get("nodeName") if obj["kind"] == "Pod" else None
        src = {"component": component}
        if host:
            src["host"] = host
        name = "%s.%x" % (md["name"], nanos)
        return self.add({"apiVersion": "v1", "kind": "Event",
                         "metadata": {"name": name, "namespace": md["namespace"],
                                      "uid": self.uid("Event", md["namespace"], name),
                                      "creationTimestamp": ts(first)},
                         "involvedObject": io_, "reason": reason, "message": message, "type": type_,
                         "count": count, "firstTimestamp": ts(first), "lastTimestamp": ts(last), "source": src,
                         "reportingComponent": component, "reportingInstance": host or "",
                         "eventTime": None, "action": ""})

    def rejected(self, ns, name, spec, node, reason, message, owner=None, created=40 * MIN, labels=None):
        p = self.pod(ns, name, spec, node=node, phase="Failed", owner=owner, created=created, reason=reason,
                     message=message, labels=labels)
        self.event(p, reason, message, last=created - 3)
        self.event(p, "Scheduled", "Successfully assigned %s/%s to %s" % (ns, name, node), type_="Normal",
                   last=created - 1, component="default-scheduler")
        return p

    def deployment(self, ns, name, spec, replicas=1, ready=None, created=5 * DAY, paused=False, node_selector=None):
        labels = {"app": name}
        ready = replicas if ready is None else ready
        tspec = dict(spec)
        if node_selector:
            tspec["nodeSelector"] = dict(node_selector)
        d = {"apiVersion": "apps/v1", "kind": "Deployment",
             "metadata": self.meta("Deployment", ns, name, created, labels=labels),
             "spec": {"replicas": replicas, "selector": {"matchLabels": dict(labels)},
                      "strategy": {"type": "RollingUpdate",
                                   "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                      "template": {"metadata": {"labels": dict(labels)}, "spec": tspec}},
             "status": {"replicas": replicas, "readyReplicas": ready, "availableReplicas": ready,
                        "updatedReplicas": 0 if paused else replicas, "observedGeneration": 2 if paused else 1}}
        if paused:
            d["spec"]["paused"] = True
            d["status"]["conditions"] = [{
                "type": "Progressing", "status": "Unknown", "reason": "DeploymentPaused",
                "message": "Deployment is paused", "lastUpdateTime": ts(20 * MIN),
                "lastTransitionTime": ts(20 * MIN)}]
        if ready == 0:
            d["status"].pop("readyReplicas")
            d["status"].pop("availableReplicas")
        return self.add(d)

    def replicaset(self, d, spec, replicas, ready=None, created=None):
        ns, name = d["metadata"]["namespace"], d["metadata"]["name"]
        pth = self.suffix(10, "rs", ns, name, json.dumps(spec, sort_keys=True))
        labels = dict(d["spec"]["selector"]["matchLabels"], **{"pod-template-hash": pth})
        ready = replicas if ready is None else ready
        tspec = dict(spec)
        ns_sel = d["spec"]["template"]["spec"].get("nodeSelector")
        if ns_sel:
            tspec["nodeSelector"] = dict(ns_sel)
        rs = {"apiVersion": "apps/v1", "kind": "ReplicaSet",
              "metadata": self.meta("ReplicaSet", ns, "%s-%s" % (name, pth),
                                    created if created is not None else 5 * DAY, labels=labels, owner=d),
              "spec": {"replicas": replicas, "selector": {"matchLabels": dict(labels)},
                       "template": {"metadata": {"labels": dict(labels)}, "spec": tspec}},
              "status": {"replicas": replicas, "readyReplicas": ready, "availableReplicas": ready,
                         "fullyLabeledReplicas": replicas, "observedGeneration": 1}}
        if replicas == 0 or ready == 0:
            rs["status"] = {"replicas": replicas, "observedGeneration": 1}
        return self.add(rs), labels

    def pod_name(self, rs, i):
        return "%s-%s" % (rs["metadata"]["name"], self.suffix(5, "pod", rs["metadata"]["name"], str(i)))

    # -- OpenShift ---------------------------------------------------------------------

    def mcp(self, name, node_role):
        return self.add({"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfigPool",
                         "metadata": self.meta("MachineConfigPool", None, name, 80 * DAY, labels={
                             "machineconfiguration.openshift.io/role": name,
                             "pools.operator.machineconfiguration.openshift.io/" + name: ""}),
                         "spec": {"machineConfigSelector": {"matchExpressions": [{
                             "key": "machineconfiguration.openshift.io/role", "operator": "In",
                             "values": ["worker", name]}]},
                             "nodeSelector": {"matchLabels": {"node-role.kubernetes.io/" + node_role: ""}},
                             "paused": False},
                         "status": {"conditions": [{"type": "Updated", "status": "True", "reason": "",
                                                    "message": "All nodes are updated with rendered-%s-%s"
                                                               % (name, self.hexid("mc", name)[:32]),
                                                    "lastTransitionTime": ts(3 * DAY)}],
                                    "machineCount": 2, "readyMachineCount": 2, "updatedMachineCount": 2}})

    def kubeletconfig(self, name, pool, settings, created=4 * DAY):
        return self.add({"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "KubeletConfig",
                         "metadata": self.meta("KubeletConfig", None, name, created,
                                               annotations={"machineconfiguration.openshift.io/mc-name-suffix": ""},
                                               finalizers=["99-%s-generated-kubelet" % pool]),
                         "spec": {"kubeletConfig": dict(settings), "machineConfigPoolSelector": {
                             "matchLabels": {"pools.operator.machineconfiguration.openshift.io/" + pool: ""}}},
                         "status": {"conditions": [{"type": "Success", "status": "True", "message": "Success",
                                                    "lastTransitionTime": ts(created - 60)}],
                                    "observedGeneration": 1}})

    def text(self):
        order = ["Namespace", "Node", "MachineConfigPool", "KubeletConfig", "PerformanceProfile",
                 "NodeResourceTopology", "Pod", "Event", "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet",
                 "Job"]
        items = sorted(self.items, key=lambda o: (order.index(o["kind"]), o["metadata"].get("namespace", ""),
                                                  o["metadata"]["name"]))
        for o in items:
            assert o["metadata"]["creationTimestamp"] <= AS_OF, (self.name, o["metadata"]["name"])
        return to_yaml({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}},
                       sort_keys=True, width=80)


# The tutorial's three pods (seed 003, kubernetes/website examples), verbatim specs.
def tutorial_pod_scope_mixed():
    return {"resources": res("4", "4Gi"),
            "initContainers": [ctr("metrics-sidecar", sidecar=True), ctr("logging-sidecar", sidecar=True)],
            "containers": [ctr("main-app", res("2", "2Gi"))]}


def tutorial_empty_shared_pool():
    return {"resources": res("4", "4Gi"),
            "initContainers": [ctr("metrics-sidecar", res("1", "1Gi"), sidecar=True),
                               ctr("logging-sidecar", sidecar=True)],
            "containers": [ctr("main-app", res("3", "3Gi"))]}


def tutorial_container_scope_mixed():
    return {"resources": res("4", "4Gi"),
            "initContainers": [ctr("infrastructure-sidecar", res("2", "2Gi"), sidecar=True)],
            "containers": [ctr("worker-1"), ctr("worker-2")]}


POD_SCOPE = {"cpuManagerPolicy": "static", "memoryManagerPolicy": "Static", "topologyManagerScope": "pod",
             "topologyManagerPolicy": "single-numa-node", "reservedSystemCPUs": "0-1",
             "reservedMemory": [{"numaNode": 0, "limits": {"memory": "4196Mi"}}],
             "featureGates": {"PodLevelResources": True, "PodLevelResourceManagers": True}}
CONTAINER_SCOPE = dict(POD_SCOPE, topologyManagerScope="container")
TUTORIAL_NS = "plrm-tutorial"


# ---------------------------------------------------------------------------------
# scenarios
# ---------------------------------------------------------------------------------

def pod_scope():
    """The tutorial on a pod-scope node: the valid mixed pod runs, the empty-pool pod is
    rejected, a Deployment's pods were rejected the same way (3 of them), a pod whose spec
    leaves the pool non-empty was still rejected (NUMA exhaustion, no NRT in the bundle)."""
    sc = Scenario("numa-pod-scope")
    sc.namespace(TUTORIAL_NS)
    sc.namespace("telemetry")
    for n in ("numa-worker-1", "numa-worker-2"):
        sc.node(n, labels={"feature.node.kubernetes.io/cpu-hardware_multithreading": "true"})
        sc.configz(n, POD_SCOPE)
    sc.pod(TUTORIAL_NS, "pod-scope-mixed", tutorial_pod_scope_mixed(), node="numa-worker-1", created=50 * MIN)
    sc.rejected(TUTORIAL_NS, "empty-shared-pool", tutorial_empty_shared_pool(), "numa-worker-1",
                "TopologyAffinityError", POD_SCOPE_MSG)
    # A Deployment whose pods keep being rejected and replaced.
    spec = {"resources": res("6", "8Gi"),
            "initContainers": [ctr("otel-agent", res("2", "2Gi"), sidecar=True)],
            "containers": [ctr("collector", res("4", "6Gi")), ctr("config-reloader")]}
    d = sc.deployment("telemetry", "collector", spec, replicas=1, ready=0, created=30 * MIN)
    rs, labels = sc.replicaset(d, spec, 1, ready=0, created=30 * MIN)
    for i, age in enumerate((29 * MIN, 18 * MIN, 6 * MIN)):
        sc.rejected("telemetry", sc.pod_name(rs, i), spec, "numa-worker-2", "TopologyAffinityError",
                    POD_SCOPE_MSG, owner=rs, created=age, labels=labels)
    # The spec leaves 2 cpu for the shared sidecar: the rejection is alignment, not the pool.
    big = {"resources": res("24", "64Gi"),
           "initContainers": [ctr("log-tailer", sidecar=True)],
           "containers": [ctr("solver", res("22", "60Gi"))]}
    sc.rejected(TUTORIAL_NS, "numa-solver", big, "numa-worker-2", "TopologyAffinityError", POD_SCOPE_MSG,
                created=25 * MIN)
    return sc


def container_scope():
    """Container scope: the tutorial's container-scope pod runs, and so does the empty-pool
    spec (no pod shared pool there). Two classic TopologyAffinityErrors, explained with
    NodeResourceTopology zones: one container larger than any NUMA node, one NUMA exhaustion."""
    sc = Scenario("numa-container-scope")
    sc.namespace(TUTORIAL_NS)
    sc.namespace("hpc")
    for n in ("cs-worker-1", "cs-worker-2"):
        sc.node(n)
        sc.configz(n, CONTAINER_SCOPE)
    sc.pod(TUTORIAL_NS, "container-scope-mixed", tutorial_container_scope_mixed(), node="cs-worker-1",
           created=50 * MIN)
    sc.pod(TUTORIAL_NS, "exclusive-and-shared", tutorial_empty_shared_pool(), node="cs-worker-1",
           created=45 * MIN)
    whole = {"containers": [ctr("mpi-rank", res("20", "32Gi"))]}
    sc.rejected("hpc", "mpi-rank-0", whole, "cs-worker-1", "TopologyAffinityError",
                "Resources cannot be allocated with Topology locality", created=30 * MIN)
    fit = {"containers": [ctr("lattice", res("8", "16Gi")), ctr("monitor", res("1", "1Gi"))]}
    sc.rejected("hpc", "lattice-qcd", fit, "cs-worker-2", "TopologyAffinityError",
                "Resources cannot be allocated with Topology locality", created=20 * MIN)
    for n, zones in (("cs-worker-1", (("node-0", 15, 2, 60, 20), ("node-1", 15, 3, 60, 22))),
                     ("cs-worker-2", (("node-0", 15, 6, 60, 40), ("node-1", 15, 7, 60, 41)))):
        sc.add({"apiVersion": "topology.node.k8s.io/v1alpha2", "kind": "NodeResourceTopology",
                "metadata": sc.meta("NodeResourceTopology", None, n, 80 * DAY),
                "attributes": [{"name": "topologyManagerPolicy", "value": "single-numa-node"},
                               {"name": "topologyManagerScope", "value": "container"},
                               {"name": "nodeTopologyPodsFingerprint", "value": "pfp0v001" + sc.hexid("pfp", n)[:16]}],
                "topologyPolicies": ["SingleNUMANodeContainerLevel"],
                "zones": [{"name": z, "type": "Node",
                           "costs": [{"name": "node-0", "value": 10 if z == "node-0" else 20},
                                     {"name": "node-1", "value": 20 if z == "node-0" else 10}],
                           "resources": [
                               {"name": "cpu", "capacity": "16", "allocatable": str(alloc), "available": str(avail)},
                               {"name": "memory", "capacity": "%dGi" % (mem + 4), "allocatable": "%dGi" % mem,
                                "available": "%dGi" % mfree}]}
                          for z, alloc, avail, mem, mfree in zones]})
    return sc


def no_kubelet_config():
    """The same rejections, but the bundle holds no kubelet configuration and no NRT."""
    sc = Scenario("numa-no-kubelet-config")
    sc.namespace(TUTORIAL_NS)
    sc.node("worker-7")
    sc.pod(TUTORIAL_NS, "pod-scope-mixed", tutorial_pod_scope_mixed(), node="worker-7", created=50 * MIN)
    sc.rejected(TUTORIAL_NS, "empty-shared-pool", tutorial_empty_shared_pool(), "worker-7",
                "TopologyAffinityError", POD_SCOPE_MSG)
    smt = {"resources": res("3", "3Gi"), "containers": [ctr("packet-filter", res("3", "3Gi"))]}
    sc.rejected(TUTORIAL_NS, "smt-odd", smt, "worker-7", "SMTAlignmentError",
                "SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2", created=30 * MIN)
    return sc


def best_effort():
    """OpenShift PerformanceProfile (best-effort policy, pod scope and full-pcpus-only through
    the experimental annotation): EmptyPodSharedPoolError and SMTAlignmentError."""
    sc = Scenario("numa-best-effort")
    sc.namespace("ran")
    for n in ("ran-du-1",):
        sc.node(n, version="v1.36.3", roles=("worker", "worker-du"))
    sc.add({"apiVersion": "performance.openshift.io/v2", "kind": "PerformanceProfile",
            "metadata": sc.meta("PerformanceProfile", None, "du-profile", 70 * DAY, annotations={
                "kubeletconfig.experimental": json.dumps({
                    "topologyManagerScope": "pod",
                    "cpuManagerPolicyOptions": {"full-pcpus-only": "true"},
                    "featureGates": {"PodLevelResourceManagers": True}}, sort_keys=True)}),
            "spec": {"cpu": {"isolated": "4-31", "reserved": "0-3"},
                     "hugepages": {"defaultHugepagesSize": "1G", "pages": [{"count": 16, "size": "1G"}]},
                     "machineConfigPoolSelector": {"pools.operator.machineconfiguration.openshift.io/worker-du": ""},
                     "nodeSelector": {"node-role.kubernetes.io/worker-du": ""},
                     "numa": {"topologyPolicy": "best-effort"},
                     "realTimeKernel": {"enabled": True}},
            "status": {"conditions": [{"type": "Available", "status": "True", "lastHeartbeatTime": ts(1 * DAY),
                                       "lastTransitionTime": ts(60 * DAY)}],
                       "runtimeClass": "performance-du-profile", "tuned": "openshift-cluster-node-tuning-operator/openshift-node-performance-du-profile"}})
    spec = {"resources": res("8", "8Gi"),
            "initContainers": [ctr("ptp-sidecar", res("2", "1Gi"), sidecar=True), ctr("log-forwarder", sidecar=True)],
            "containers": [ctr("du-app", res("6", "6Gi"))]}
    sc.rejected("ran", "du-app-0", spec, "ran-du-1", "EmptyPodSharedPoolError",
                "pod rejected, sum of exclusive container cpu requests equals pod budget, leaving no cpus for shared containers",
                created=15 * MIN)
    odd = {"resources": res("5", "4Gi"),
           "containers": [ctr("cu-up", res("4", "3Gi")), ctr("exporter")]}
    sc.rejected("ran", "cu-up-0", odd, "ran-du-1", "SMTAlignmentError",
                "SMT Alignment Error: requested 5 cpus not multiple cpus per core = 2", created=10 * MIN)
    return sc


def predicted():
    """OpenShift KubeletConfig → MachineConfigPool worker-cnf (pod scope). A paused
    Deployment whose next template empties the pool, a suspended Job whose init container
    does not fit; negatives: Burstable at pod level, fractional pod-level cpu, the tutorial's
    valid pod-scope-mixed spec."""
    sc = Scenario("numa-predicted")
    sc.namespace("cnf")
    sc.namespace("bench")
    sc.mcp("worker-cnf", "worker-cnf")
    sc.mcp("worker", "worker")
    for n in ("cnf-1", "cnf-2"):
        sc.node(n, version="v1.36.1", roles=("worker", "worker-cnf"))
    sc.node("worker-1", version="v1.36.1", roles=("worker",))
    sc.kubeletconfig("cnf-pod-scope", "worker-cnf", {
        "cpuManagerPolicy": "static", "cpuManagerReconcilePeriod": "5s", "reservedSystemCPUs": "0,1",
        "memoryManagerPolicy": "Static", "topologyManagerPolicy": "single-numa-node",
        "topologyManagerScope": "pod", "featureGates": {"PodLevelResourceManagers": True},
        "kubeReserved": {"memory": "512Mi"}, "systemReserved": {"memory": "512Mi"},
        "reservedMemory": [{"numaNode": 0, "limits": {"memory": "1124Mi"}}]})
    sel = {"node-role.kubernetes.io/worker-cnf": ""}
    old = {"resources": res("5", "6Gi"),
           "initContainers": [ctr("stats", res("1", "1Gi"), sidecar=True)],
           "containers": [ctr("dpdk", res("3", "4Gi")), ctr("log-shipper")]}
    new = {"resources": res("4", "6Gi"),
           "initContainers": [ctr("stats", res("1", "1Gi"), sidecar=True)],
           "containers": [ctr("dpdk", res("3", "4Gi")), ctr("log-shipper")]}
    d = sc.deployment("cnf", "packet-proc", new, replicas=2, paused=True, node_selector=sel)
    rs, labels = sc.replicaset(d, old, 2)
    for i, node in enumerate(("cnf-1", "cnf-2")):
        sc.pod("cnf", sc.pod_name(rs, i), dict(old, nodeSelector=sel), node=node, owner=rs, created=5 * DAY,
               labels=labels)
    # Negatives on the same nodes.
    burst = {"resources": {"requests": {"cpu": "4", "memory": "4Gi"}, "limits": {"cpu": "8", "memory": "4Gi"}},
             "containers": [ctr("api", res("4", "2Gi")), ctr("sidecar")]}
    frac = {"resources": res("3500m", "4Gi"),
            "containers": [ctr("worker", res("3", "4Gi")), ctr("helper")]}
    for name, spec, qos, node in (("burst-api", burst, "Burstable", "cnf-1"), ("frac-cpu", frac, "Guaranteed", "cnf-2"),
                                  ("tuned-app", tutorial_pod_scope_mixed(), "Guaranteed", "cnf-1")):
        d = sc.deployment("cnf", name, spec, replicas=1, node_selector=sel, created=3 * DAY)
        rs, labels = sc.replicaset(d, spec, 1, created=3 * DAY)
        sc.pod("cnf", sc.pod_name(rs, 0), dict(spec, nodeSelector=sel), node=node, owner=rs, created=3 * DAY,
               labels=labels, qos=qos)
    # A suspended Job (queued by Kueue): its init container cannot fit once admitted.
    job_spec = {"restartPolicy": "Never", "resources": res("4", "8Gi"),
                "initContainers": [ctr("metrics", res("2", "2Gi"), sidecar=True),
                                   ctr("calibrate", res("3", "2Gi"))],
                "containers": [ctr("bench", res("2", "4Gi"))]}
    sc.add({"apiVersion": "batch/v1", "kind": "Job",
            "metadata": sc.meta("Job", "bench", "numa-bench", 15 * MIN,
                                labels={"kueue.x-k8s.io/queue-name": "bench"}),
            "spec": {"suspend": True, "parallelism": 1, "completions": 1, "backoffLimit": 6,
                     "completionMode": "NonIndexed",
                     "template": {"metadata": {"labels": {"job-name": "numa-bench"}}, "spec": job_spec}},
            "status": {"conditions": [{"type": "Suspended", "status": "True", "reason": "JobSuspended",
                                       "message": "Job suspended", "lastProbeTime": ts(15 * MIN),
                                       "lastTransitionTime": ts(15 * MIN)}]}})
    return sc


def kubelet_config():
    """Kubelet settings that cannot work, one node each, from configz and KubeletConfiguration files."""
    sc = Scenario("numa-kubelet-config")
    sc.namespace("apps")
    # Gate off (1.36 default) while a Guaranteed pod-level Deployment targets the node.
    sc.node("gate-off-1", labels={"numa": "gate-off"})
    sc.kubelet_file("gate-off-1", {"cpuManagerPolicy": "static", "memoryManagerPolicy": "Static",
                                   "topologyManagerPolicy": "single-numa-node", "topologyManagerScope": "pod",
                                   "reservedSystemCPUs": "0-1",
                                   "reservedMemory": [{"numaNode": 0, "limits": {"memory": "4196Mi"}}]})
    spec = {"resources": res("4", "8Gi"), "containers": [ctr("trainer", res("3", "6Gi")), ctr("uploader")]}
    d = sc.deployment("apps", "trainer", spec, replicas=1, node_selector={"numa": "gate-off"}, created=2 * DAY)
    rs, labels = sc.replicaset(d, spec, 1, created=2 * DAY)
    sc.pod("apps", sc.pod_name(rs, 0), dict(spec, nodeSelector={"numa": "gate-off"}), node="gate-off-1",
           owner=rs, created=2 * DAY, labels=labels)
    # PodLevelResourceManagers on, topology manager policy left at none.
    sc.node("policy-none-1")
    sc.configz("policy-none-1", {"cpuManagerPolicy": "static", "reservedSystemCPUs": "0-1",
                                 "topologyManagerScope": "pod", "topologyManagerPolicy": "none",
                                 "featureGates": {"PodLevelResourceManagers": True}})
    # Windows node with the gate on.
    sc.node("win-1", version="v1.36.1", os_="windows")
    sc.configz("win-1", {"cpuManagerPolicy": "static", "topologyManagerPolicy": "best-effort",
                         "topologyManagerScope": "pod", "featureGates": {"PodLevelResourceManagers": True,
                                                                         "WindowsCPUAndMemoryAffinity": True}})
    # PodLevelResourceManagers on, PodLevelResources explicitly off.
    sc.node("dep-1")
    sc.configz("dep-1", dict(POD_SCOPE, featureGates={"PodLevelResources": False,
                                                      "PodLevelResourceManagers": True}))
    # Negatives: a correct node; a static node with the gate off but nobody using pod-level
    # resources; a 1.37 node without the gate set (its default is disputed).
    sc.node("fine-1")
    sc.configz("fine-1", POD_SCOPE)
    sc.node("legacy-1", version="v1.35.4", labels={"numa": "legacy"})
    sc.configz("legacy-1", {"cpuManagerPolicy": "static", "topologyManagerPolicy": "single-numa-node",
                            "reservedSystemCPUs": "0-1"})
    sc.node("new-1", version="v1.37.0", labels={"numa": "new"})
    sc.configz("new-1", {"cpuManagerPolicy": "static", "memoryManagerPolicy": "Static",
                         "topologyManagerPolicy": "restricted", "topologyManagerScope": "pod",
                         "reservedSystemCPUs": "0-1"})
    spec2 = {"resources": res("2", "2Gi"), "containers": [ctr("api", res("1", "1Gi")), ctr("sidecar")]}
    sc.pod("apps", "new-api", dict(spec2, nodeSelector={"numa": "new"}), node="new-1", created=3 * HOUR)
    return sc


def healthy():
    """Must produce no finding: the tutorial's valid examples on matching nodes, a Burstable
    pod-level pod and a fully exclusive pod."""
    sc = Scenario("numa-healthy")
    sc.namespace(TUTORIAL_NS)
    sc.node("pod-scope-1")
    sc.configz("pod-scope-1", POD_SCOPE)
    sc.node("container-scope-1")
    sc.kubelet_file("container-scope-1", CONTAINER_SCOPE)
    sc.pod(TUTORIAL_NS, "pod-scope-mixed", tutorial_pod_scope_mixed(), node="pod-scope-1")
    sc.pod(TUTORIAL_NS, "container-scope-mixed", tutorial_container_scope_mixed(), node="container-scope-1")
    sc.pod(TUTORIAL_NS, "exclusive-and-shared", tutorial_empty_shared_pool(), node="container-scope-1")
    burst = {"resources": {"requests": {"cpu": "2", "memory": "2Gi"}, "limits": {"cpu": "4", "memory": "4Gi"}},
             "containers": [ctr("api", res("2", "2Gi")), ctr("log")]}
    sc.pod(TUTORIAL_NS, "burstable-budget", burst, node="pod-scope-1", qos="Burstable")
    full = {"resources": res("4", "4Gi"),
            "containers": [ctr("a", res("3", "3Gi")), ctr("b", res("1", "1Gi"))]}
    sc.pod(TUTORIAL_NS, "all-exclusive", full, node="pod-scope-1")
    return sc


SCENARIOS = [pod_scope, container_scope, no_kubelet_config, best_effort, predicted, kubelet_config, healthy]


def build(outdir):
    for fn in SCENARIOS:
        sc = fn()
        folder = os.path.join(outdir, sc.name[len("numa-"):])
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "cluster.yaml"), "w", newline="\n") as f:
            f.write(sc.text())
        for rel, data in sorted(sc.files.items()):
            p = os.path.join(folder, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", newline="\n") as f:
                f.write(data)


def tree(root):
    out = {}
    for d, _, files in os.walk(root):
        for name in files:
            p = os.path.join(d, name)
            rel = os.path.relpath(p, root)
            # Rule fixtures' pointer files are written by hand (sample-bundles/README.md).
            if rel.endswith((".py", ".fixture")) or rel == "README.md":
                continue
            with open(p, "rb") as f:
                out[rel] = hashlib.sha256(f.read()).hexdigest()
    return out


def main(argv):
    if argv == ["--check"]:
        tmp = tempfile.mkdtemp()
        try:
            build(tmp)
            fresh, here = tree(tmp), tree(HERE)
            if fresh != here:
                diff = sorted(set(fresh.items()) ^ set(here.items()))
                print("differs from a fresh build: %s" % sorted({k for k, _ in diff}))
                return 1
            print("up to date (%d files)" % len(fresh))
            return 0
        finally:
            shutil.rmtree(tmp)
    for fn in SCENARIOS:
        folder = os.path.join(HERE, fn.__name__.replace("_", "-"))
        if os.path.isdir(folder):
            shutil.rmtree(folder)
    build(HERE)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

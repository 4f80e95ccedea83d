#!/usr/bin/env python3
"""Build the fixtures of `scheduling/no-room` (kubectl `kind: List` YAML files).

    python3 sample-bundles/scheduling/no-room/gen.py           # (re)write trigger.yaml.gz, quiet.yaml.gz
    python3 sample-bundles/scheduling/no-room/gen.py --check   # fail if a file's YAML differs from a fresh build

The files are gzip-compressed (kdiag reads a compressed stream by its magic bytes): the 220
running pods that fill two nodes are ~780 kB of YAML each time and 40 kB compressed. `--check`
compares the YAML inside, since zlib builds may compress the same text to different bytes.

A cluster with no room for pods: 5 workers, 3 of them cordoned and drained (spec.unschedulable
with the node.kubernetes.io/unschedulable:NoSchedule taint the node controller adds), the other
2 running 110 pods each, their `allocatable.pods` of 110. New Deployments' pods stay Pending
with PodScheduled=False/Unschedulable. Their scheduler messages were written at different
times (the third node was cordoned after the first pods failed), so they read differently,
while the nodes' recomputed verdicts are the same for all of them.

- trigger.yaml.gz: 12 Deployments (two namespaces) wait on it: one `scheduling/no-room` finding
  lists them, each Deployment keeps its `scheduling/unschedulable` finding.
- quiet.yaml.gz: the near miss: 9 Deployments wait on the full nodes (one short of the
  threshold of 10) and 3 more are Pending for their own nodeSelector (a label no node has):
  12 stuck controllers, but no cause shared by 10. No `scheduling/no-room` finding.

Python 3 standard library only; deterministic (UIDs and name suffixes from SHA-256 of
bundle/kind/namespace/name, fixed timestamps, the newest an event at AS_OF, which kdiag takes
as the snapshot time of a List). The YAML is written by the kubectl-style emitter of
../../build.py.
"""

import calendar
import gzip
import hashlib
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from build import to_yaml  # noqa: E402  (kubectl-style YAML emitter, stdlib only)

AS_OF = "2026-11-20T09:14:00Z"
AS_OF_EPOCH = calendar.timegm(time.strptime(AS_OF, "%Y-%m-%dT%H:%M:%SZ"))
MIN, HOUR, DAY = 60, 3600, 86400
ALNUM = "bcdfghjklmnpqrstvwxz2456789"
MAX_PODS = 110
CORDONED = ["worker-1", "worker-2", "worker-3"]
FULL = ["worker-4", "worker-5"]
# What the scheduler wrote before worker-3 was cordoned (it was full then), and after.
EARLY = ("0/5 nodes are available: 2 node(s) were unschedulable, 3 Too many pods. preemption: 0/5 nodes "
         "are available: 2 Preemption is not helpful for scheduling, 3 No preemption victims found for "
         "incoming pod.")
LATE = ("0/5 nodes are available: 2 Too many pods, 3 node(s) were unschedulable. preemption: 0/5 nodes "
        "are available: 2 No preemption victims found for incoming pod, 3 Preemption is not helpful for "
        "scheduling.")
SELECTOR = ("0/5 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, 3 node(s) were "
            "unschedulable. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.")


def ts(seconds_before):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(AS_OF_EPOCH - seconds_before))


class Bundle:
    def __init__(self, name):
        self.name = name
        self.items = []
        self.rv = 5_000_000

    def hexid(self, *parts):
        return hashlib.sha256(("%s/%s" % (self.name, "/".join(parts))).encode()).hexdigest()

    def uid(self, kind, ns, name):
        h = self.hexid(kind, ns or "", name)
        return "%s-%s-4%s-%s%s-%s" % (h[:8], h[8:12], h[13:16], "89ab"[int(h[16], 16) % 4], h[17:20], h[20:32])

    def suffix(self, n, *parts):
        h = self.hexid(*parts)
        return "".join(ALNUM[int(h[i:i + 2], 16) % 27] for i in range(0, 2 * n, 2))

    def add(self, obj):
        self.rv += 113
        obj["metadata"]["resourceVersion"] = str(self.rv)
        self.items.append(obj)
        return obj

    def meta(self, kind, ns, name, created, labels=None, owner=None, **extra):
        m = {"name": name, "uid": self.uid(kind, ns, name), "creationTimestamp": ts(created)}
        if ns is not None:
            m["namespace"] = ns
        if labels:
            m["labels"] = dict(labels)
        if owner is not None:
            m["ownerReferences"] = [{"apiVersion": owner["apiVersion"], "kind": owner["kind"],
                                     "name": owner["metadata"]["name"], "uid": owner["metadata"]["uid"],
                                     "controller": True, "blockOwnerDeletion": True}]
        m.update(extra)
        return m

    def namespace(self, name):
        self.add({"apiVersion": "v1", "kind": "Namespace",
                  "metadata": self.meta("Namespace", None, name, 90 * DAY,
                                        labels={"kubernetes.io/metadata.name": name}),
                  "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}})

    def node(self, name, i, cordoned_for=None):
        labels = {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
                  "topology.kubernetes.io/zone": "eu-west-1%s" % "abc"[i % 3], "node-role.kubernetes.io/worker": ""}
        spec = {"podCIDR": "10.244.%d.0/24" % i, "podCIDRs": ["10.244.%d.0/24" % i],
                "providerID": "aws:///eu-west-1%s/i-0%s" % ("abc"[i % 3], self.hexid("node", name)[:16])}
        if cordoned_for is not None:
            spec["unschedulable"] = True
            spec["taints"] = [{"effect": "NoSchedule", "key": "node.kubernetes.io/unschedulable",
                               "timeAdded": ts(cordoned_for)}]
        hb = ts(30)
        cond = lambda t, s, r, m: {"type": t, "status": s, "reason": r, "message": m,  # noqa: E731
                                   "lastHeartbeatTime": hb, "lastTransitionTime": ts(120 * DAY)}
        ip = "10.0.%d.%d" % (i, 10 + i)
        self.add({"apiVersion": "v1", "kind": "Node",
                  "metadata": self.meta("Node", None, name, 120 * DAY, labels=labels,
                                        annotations={"node.alpha.kubernetes.io/ttl": "0",
                                                     "volumes.kubernetes.io/controller-managed-attach-detach": "true"}),
                  "spec": spec,
                  "status": {
                      "addresses": [{"address": ip, "type": "InternalIP"}, {"address": name, "type": "Hostname"}],
                      "allocatable": {"cpu": "15890m", "ephemeral-storage": "95551679124", "hugepages-1Gi": "0",
                                      "hugepages-2Mi": "0", "memory": "63310052Ki", "pods": str(MAX_PODS)},
                      "capacity": {"cpu": "16", "ephemeral-storage": "103678Mi", "hugepages-1Gi": "0",
                                   "hugepages-2Mi": "0", "memory": "65408228Ki", "pods": str(MAX_PODS)},
                      "conditions": [
                          cond("MemoryPressure", "False", "KubeletHasSufficientMemory",
                               "kubelet has sufficient memory available"),
                          cond("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
                          cond("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
                          cond("Ready", "True", "KubeletReady", "kubelet is posting ready status")],
                      "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
                      "nodeInfo": {"architecture": "amd64", "bootID": self.uid("boot", None, name),
                                   "containerRuntimeVersion": "containerd://1.7.22",
                                   "kernelVersion": "6.1.112-124.190.amzn2023.x86_64",
                                   "kubeProxyVersion": "v1.31.2", "kubeletVersion": "v1.31.2",
                                   "machineID": self.hexid("machine", name)[:32], "operatingSystem": "linux",
                                   "osImage": "Amazon Linux 2023.6.20241031",
                                   "systemUUID": self.uid("system", None, name)}}})

    def deployment(self, ns, name, replicas, ready, created, selector=None):
        labels = {"app": name}
        image = "registry.example.com/%s/%s:3.2.1" % (ns, name)
        pod_spec = {"containers": [{"name": name, "image": image, "imagePullPolicy": "IfNotPresent",
                                    "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
                                    "resources": {"requests": {"cpu": "50m", "memory": "128Mi"}},
                                    "terminationMessagePath": "/dev/termination-log",
                                    "terminationMessagePolicy": "File"}],
                    "dnsPolicy": "ClusterFirst", "restartPolicy": "Always", "schedulerName": "default-scheduler",
                    "securityContext": {}, "terminationGracePeriodSeconds": 30}
        if selector:
            pod_spec["nodeSelector"] = dict(selector)
        if ready == replicas:
            conds = [
                {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable",
                 "message": "Deployment has minimum availability.", "lastUpdateTime": ts(created - 60),
                 "lastTransitionTime": ts(created - 60)},
                {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable",
                 "message": 'ReplicaSet "%s" has successfully progressed.' % name,
                 "lastUpdateTime": ts(created - 60), "lastTransitionTime": ts(created)}]
            status = {"availableReplicas": ready, "readyReplicas": ready, "replicas": replicas,
                      "updatedReplicas": replicas, "observedGeneration": 1, "conditions": conds}
        else:
            conds = [
                {"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable",
                 "message": "Deployment does not have minimum availability.", "lastUpdateTime": ts(created),
                 "lastTransitionTime": ts(created)},
                {"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated",
                 "message": 'ReplicaSet "%s" is progressing.' % name,
                 "lastUpdateTime": ts(created), "lastTransitionTime": ts(created)}]
            status = {"replicas": replicas, "unavailableReplicas": replicas - ready, "updatedReplicas": replicas,
                      "observedGeneration": 1, "conditions": conds}
        d = self.add({"apiVersion": "apps/v1", "kind": "Deployment",
                      "metadata": self.meta("Deployment", ns, name, created, labels=labels,
                                            annotations={"deployment.kubernetes.io/revision": "1"}, generation=1),
                      "spec": {"progressDeadlineSeconds": 600, "replicas": replicas, "revisionHistoryLimit": 10,
                               "selector": {"matchLabels": dict(labels)},
                               "strategy": {"type": "RollingUpdate",
                                            "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                               "template": {"metadata": {"labels": dict(labels)}, "spec": pod_spec}},
                      "status": status})
        pth = self.suffix(10, "rs", ns, name)
        rs_labels = dict(labels, **{"pod-template-hash": pth})
        rs_status = {"replicas": replicas, "fullyLabeledReplicas": replicas, "observedGeneration": 1}
        if ready:
            rs_status.update({"readyReplicas": ready, "availableReplicas": ready})
        rs = self.add({"apiVersion": "apps/v1", "kind": "ReplicaSet",
                       "metadata": self.meta("ReplicaSet", ns, "%s-%s" % (name, pth), created, labels=rs_labels,
                                             owner=d, annotations={"deployment.kubernetes.io/desired-replicas":
                                                                   str(replicas), "deployment.kubernetes.io/revision": "1"}),
                       "spec": {"replicas": replicas, "selector": {"matchLabels": dict(rs_labels)},
                                "template": {"metadata": {"labels": dict(rs_labels)}, "spec": pod_spec}},
                       "status": rs_status})
        return rs, rs_labels, image, pod_spec

    def pod(self, rs, labels, image, pod_spec, i, created, node=None, message=None):
        ns = rs["metadata"]["namespace"]
        name = "%s-%s" % (rs["metadata"]["name"], self.suffix(5, "pod", rs["metadata"]["name"], str(i)))
        spec = dict(pod_spec, enableServiceLinks=True, preemptionPolicy="PreemptLowerPriority", priority=0,
                    serviceAccount="default", serviceAccountName="default",
                    tolerations=[{"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists",
                                  "tolerationSeconds": 300},
                                 {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable",
                                  "operator": "Exists", "tolerationSeconds": 300}])
        cname = pod_spec["containers"][0]["name"]
        md = self.meta("Pod", ns, name, created, labels=labels, owner=rs,
                       generateName=rs["metadata"]["name"] + "-")
        if node is None:
            status = {"phase": "Pending", "qosClass": "Burstable",
                      "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                                      "message": message, "lastProbeTime": None,
                                      "lastTransitionTime": ts(created - 1)}]}
        else:
            spec["nodeName"] = node
            start = ts(created - 2)
            ip = "10.244.%d.%d" % (int(node[-1]), 2 + i % 250)
            status = {"phase": "Running", "qosClass": "Burstable", "hostIP": "10.0.%s.1%s" % (node[-1], node[-1]),
                      "hostIPs": [{"ip": "10.0.%s.1%s" % (node[-1], node[-1])}], "podIP": ip, "podIPs": [{"ip": ip}],
                      "startTime": start,
                      "conditions": [
                          {"type": "PodReadyToStartContainers", "status": "True", "lastProbeTime": None,
                           "lastTransitionTime": ts(created - 5)},
                          {"type": "Initialized", "status": "True", "lastProbeTime": None, "lastTransitionTime": start},
                          {"type": "Ready", "status": "True", "lastProbeTime": None, "lastTransitionTime": ts(created - 6)},
                          {"type": "ContainersReady", "status": "True", "lastProbeTime": None,
                           "lastTransitionTime": ts(created - 6)},
                          {"type": "PodScheduled", "status": "True", "lastProbeTime": None, "lastTransitionTime": start}],
                      "containerStatuses": [{
                          "containerID": "containerd://" + self.hexid("ctr", ns, name),
                          "image": image, "imageID": "%s@sha256:%s" % (image.split(":")[0], self.hexid("img", image)),
                          "lastState": {}, "name": cname, "ready": True, "restartCount": 0, "started": True,
                          "state": {"running": {"startedAt": ts(created - 5)}}}]}
        return self.add({"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": spec, "status": status})

    def failed_scheduling(self, pod, message, first, last, count):
        md = pod["metadata"]
        name = "%s.%s" % (md["name"], self.hexid("ev", md["name"])[:16])
        self.add({"apiVersion": "v1", "kind": "Event",
                  "metadata": {"name": name, "namespace": md["namespace"], "uid": self.uid("Event", md["namespace"], name),
                               "creationTimestamp": ts(first)},
                  "involvedObject": {"apiVersion": "v1", "kind": "Pod", "name": md["name"],
                                     "namespace": md["namespace"], "uid": md["uid"],
                                     "resourceVersion": md["resourceVersion"]},
                  "reason": "FailedScheduling", "message": message, "type": "Warning", "count": count,
                  "firstTimestamp": ts(first), "lastTimestamp": ts(last), "source": {"component": "default-scheduler"},
                  "reportingComponent": "default-scheduler", "reportingInstance": "", "eventTime": None, "action": ""})

    def stuck(self, ns, name, replicas, created, message, selector=None):
        rs, labels, image, pod_spec = self.deployment(ns, name, replicas, 0, created, selector=selector)
        for i in range(replicas):
            p = self.pod(rs, labels, image, pod_spec, i, created, message=message)
            self.failed_scheduling(p, message, created - 1, 0 if i == 0 else 40 * (i + 1), 3 + created // 300)

    def text(self):
        order = ["Namespace", "Node", "Pod", "Event", "Deployment", "ReplicaSet"]
        items = sorted(self.items, key=lambda o: (order.index(o["kind"]), o["metadata"].get("namespace", ""),
                                                  o["metadata"]["name"]))
        return to_yaml({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}},
                       sort_keys=True, width=80)


def cluster(b):
    """The 5 workers, 3 cordoned, and the 22 Deployments whose 220 pods fill the other 2."""
    for ns in ["fleet", "shop", "billing"]:
        b.namespace(ns)
    for i, n in enumerate(CORDONED + FULL, start=1):
        b.node(n, i, cordoned_for=(3 * HOUR - 20 * MIN * i) if n in CORDONED else None)
    fleet = MAX_PODS // 10 * len(FULL)  # 22 Deployments of 10 replicas, 5 on each full node
    for d in range(fleet):
        rs, labels, image, pod_spec = b.deployment("fleet", "svc-%02d" % d, 10, 10, 20 * DAY)
        for i in range(10):
            b.pod(rs, labels, image, pod_spec, i, 20 * DAY - i, node=FULL[i % 2])


def stuck_names(n):
    names = ["cart", "catalog", "checkout", "search", "reviews", "wishlist", "ledger", "invoices",
             "payouts", "refunds", "tax", "statements"]
    return [("shop" if i < 6 else "billing", names[i]) for i in range(n)]


def trigger():
    b = Bundle("no-room-trigger")
    cluster(b)
    for i, (ns, name) in enumerate(stuck_names(12)):
        # The first four failed before worker-3 was cordoned (it was full then).
        early = i % 3 == 0
        b.stuck(ns, name, 1 + i % 2, (50 if early else 25) * MIN - i * 30, EARLY if early else LATE)
    return b.text()


def quiet():
    b = Bundle("no-room-quiet")
    cluster(b)
    for i, (ns, name) in enumerate(stuck_names(9)):
        early = i % 3 == 0
        b.stuck(ns, name, 1 + i % 2, (50 if early else 25) * MIN - i * 30, EARLY if early else LATE)
    for i, name in enumerate(["gpu-train", "gpu-infer", "gpu-batch"]):
        b.stuck("billing", name, 1, 20 * MIN - i * 30, SELECTOR, selector={"accelerator": "nvidia-a100"})
    return b.text()


def build():
    return {"trigger.yaml.gz": trigger(), "quiet.yaml.gz": quiet()}


def main(argv):
    files = build()
    if "--check" in argv:
        bad = []
        for name, text in sorted(files.items()):
            path = os.path.join(HERE, name)
            if not os.path.exists(path) or gzip.decompress(open(path, "rb").read()).decode() != text:
                bad.append(name)
        if bad:
            print("out of date:", ", ".join(bad))
            return 1
        print("up to date: %d files" % len(files))
        return 0
    for name, text in sorted(files.items()):
        data = gzip.compress(text.encode(), compresslevel=9, mtime=0)
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)
        print("%8d  %s (%d bytes of YAML)" % (len(data), name, len(text)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

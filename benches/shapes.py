#!/usr/bin/env python3
"""Bundles whose one dimension grows, to show a rule's time grows at most linearly with it
(docs/performance.md, "Hostile input, round 2"). Each is a folder of kubectl-style JSON
Lists written into OUTDIR/<shape>-<scale>:

  service SCALE   one Service selecting 10,000 × SCALE pods, none Ready (endpoints
                  recomputed from the pods' labels), over 50 nodes
  pending SCALE   5,000 × SCALE pending pods, each asking a different cpu, over
                  2,000 × SCALE nodes of 4 classes (labels, taints, allocatable)
  fitting SCALE   5,000 × SCALE pending pods, each asking a different cpu that the nodes
                  have room for, each with an older FailedScheduling event, over 2,000 ×
                  SCALE nodes of 4 classes (the bundle's nodes have room now)
  pernode SCALE   2,000 × SCALE Running pods, not Ready, on 10 nodes (pods per node)
  events SCALE    100 crash-looping pods with 50 × SCALE Warning events each
  kueue SCALE     one ClusterQueue whose 1,000 × SCALE Workloads wait for quota
  pool SCALE      1,000 × SCALE nodes of one pool, a tenth of them NotReady
  oneline SCALE   7,500 × SCALE not-Ready pods in a minified one-line PodList (what
                  `curl $APISERVER/api/v1/pods` returns)
  indented SCALE  the same pods, indented (one field a line)

usage: benches/shapes.py OUTDIR SHAPE SCALE [SCALE ...]

Time each with both binaries, e.g.
    for s in 1 2 4; do /usr/bin/time -f "%e s %M KB" kdiag analyze OUTDIR/service-$s \\
        --format json --fail-on never >/dev/null; done
"""
import json
import os
import sys

T0 = "2026-11-20T08:00:00Z"
NOW = "2026-11-20T09:00:00Z"


def write_list(path, items):
    with open(path, "w") as f:
        f.write('{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[\n')
        for i, item in enumerate(items):
            if i:
                f.write(",\n")
            f.write(json.dumps(item, separators=(",", ":")))
        f.write("\n]}\n")


def node(i, cls=0):
    labels = {"kubernetes.io/hostname": f"node-{i}", "kubernetes.io/os": "linux",
              "node.kubernetes.io/instance-type": ["m6i.2xlarge", "m6i.4xlarge", "c6i.2xlarge",
                                                   "r6i.2xlarge"][cls],
              "topology.kubernetes.io/zone": f"dc1-{'abc'[cls % 3]}"}
    taints = [{"key": "dedicated", "value": "batch", "effect": "NoSchedule"}] if cls == 3 else []
    cpu = ["8", "16", "8", "8"][cls]
    spec = {"podCIDR": f"10.{i // 250}.{i % 250}.0/24"}
    if taints:
        spec["taints"] = taints
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": f"node-{i}", "uid": f"0000aaaa-0000-4000-8000-{i:012}",
                         "resourceVersion": str(1000 + i), "creationTimestamp": T0,
                         "labels": labels},
            "spec": spec,
            "status": {"capacity": {"cpu": cpu, "memory": "32Gi", "pods": "110"},
                       "allocatable": {"cpu": cpu, "memory": "30Gi", "pods": "110"},
                       "conditions": [{"type": "Ready", "status": "True",
                                       "lastHeartbeatTime": NOW, "lastTransitionTime": T0,
                                       "reason": "KubeletReady",
                                       "message": "kubelet is posting ready status"}]}}


def pod(i, ns, labels, cpu, node_name=None, ready=False):
    meta = {"name": f"web-{i}", "namespace": ns, "uid": f"0000bbbb-0000-4000-8000-{i:012}",
            "resourceVersion": str(5000 + i), "creationTimestamp": T0, "labels": labels}
    spec = {"containers": [{"name": "web", "image": "registry.example.com/shop/web:1.4.2",
                            "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
                            "resources": {"requests": {"cpu": cpu, "memory": "256Mi"}}}],
            "restartPolicy": "Always", "schedulerName": "default-scheduler"}
    if node_name:
        spec["nodeName"] = node_name
        status = {"phase": "Running", "startTime": T0, "podIP": f"10.1.{i // 250}.{i % 250}",
                  "conditions": [{"type": "Ready", "status": "True" if ready else "False",
                                  "lastTransitionTime": T0,
                                  **({} if ready else {"reason": "ContainersNotReady",
                                      "message": "containers with unready status: [web]"})}],
                  "containerStatuses": [{"name": "web", "ready": ready, "restartCount": 0,
                                         "image": "registry.example.com/shop/web:1.4.2",
                                         "started": True,
                                         "state": {"running": {"startedAt": T0}}}]}
    else:
        status = {"phase": "Pending",
                  "conditions": [{"type": "PodScheduled", "status": "False",
                                  "lastTransitionTime": T0, "reason": "Unschedulable",
                                  "message": "0/4 nodes are available: 4 Insufficient cpu. "
                                             "preemption: 0/4 nodes are available: 4 No "
                                             "preemption victims found for incoming pod."}]}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status}


def service_shape(out, scale):
    n = 10_000 * scale
    write_list(f"{out}/nodes.json", [node(i) for i in range(50)])
    write_list(f"{out}/pods.json",
               [pod(i, "shop", {"app": "web", "pod-template-hash": "5d9f8c7b6", "shard": str(i % 7)},
                    "100m", node_name=f"node-{i % 50}") for i in range(n)])
    svc = {"apiVersion": "v1", "kind": "Service",
           "metadata": {"name": "web", "namespace": "shop", "uid": "0000cccc-0000-4000-8000-000000000001",
                        "resourceVersion": "900", "creationTimestamp": T0},
           "spec": {"selector": {"app": "web"}, "type": "ClusterIP", "clusterIP": "10.96.0.10",
                    "ports": [{"name": "http", "port": 80, "protocol": "TCP", "targetPort": "http"}]},
           "status": {"loadBalancer": {}}}
    write_list(f"{out}/services.json", [svc])
    # The EndpointSlice controller's slices: at most 100 endpoints each, none ready.
    slices = []
    for k in range(0, n, 100):
        slices.append({
            "apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "addressType": "IPv4",
            "metadata": {"name": f"web-{k // 100:05x}", "namespace": "shop",
                         "uid": f"0000dddd-0000-4000-8000-{k:012}", "resourceVersion": str(950 + k),
                         "creationTimestamp": T0,
                         "labels": {"kubernetes.io/service-name": "web",
                                    "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"},
                         "ownerReferences": [{"apiVersion": "v1", "kind": "Service", "name": "web",
                                              "uid": svc["metadata"]["uid"], "controller": True,
                                              "blockOwnerDeletion": True}]},
            "ports": [{"name": "http", "port": 8080, "protocol": "TCP"}],
            "endpoints": [{"addresses": [f"10.1.{i // 250}.{i % 250}"],
                           "conditions": {"ready": False, "serving": False, "terminating": False},
                           "nodeName": f"node-{i % 50}",
                           "targetRef": {"kind": "Pod", "name": f"web-{i}", "namespace": "shop",
                                         "uid": f"0000bbbb-0000-4000-8000-{i:012}"}}
                          for i in range(k, min(n, k + 100))]})
    write_list(f"{out}/endpointslices.json", slices)


def pending_shape(out, scale):
    pods, nodes = 5_000 * scale, 2_000 * scale
    write_list(f"{out}/nodes.json", [node(i, i % 4) for i in range(nodes)])
    # Each pod asks a different cpu, all more than any node has.
    write_list(f"{out}/pods.json",
               [pod(i, f"team-{i % 20}", {"app": f"job-{i}"}, f"{17000 + i}m") for i in range(pods)])


def fitting_shape(out, scale):
    pods, nodes = 5_000 * scale, 2_000 * scale
    write_list(f"{out}/nodes.json", [node(i, i % 4) for i in range(nodes)])
    # Each pod asks a different cpu, all less than any node has free.
    items = [pod(i, f"team-{i % 20}", {"app": f"job-{i}"}, f"{100 + i % 5000}m")
             for i in range(pods)]
    write_list(f"{out}/pods.json", items)
    events = []
    for i, p in enumerate(items):
        meta = p["metadata"]
        events.append({
            "apiVersion": "v1", "kind": "Event", "type": "Warning", "reason": "FailedScheduling",
            "message": f"0/{nodes} nodes are available: {nodes} Insufficient cpu. preemption: "
                       f"0/{nodes} nodes are available: {nodes} No preemption victims found "
                       "for incoming pod.",
            "count": 1, "firstTimestamp": T0, "lastTimestamp": "2026-11-20T08:30:00Z",
            "metadata": {"name": f"{meta['name']}.{i:016x}", "namespace": meta["namespace"],
                         "uid": f"0000eeee-0000-4000-8000-{i:012}",
                         "resourceVersion": str(90000 + i), "creationTimestamp": T0},
            "involvedObject": {"apiVersion": "v1", "kind": "Pod", "name": meta["name"],
                               "namespace": meta["namespace"], "uid": meta["uid"]},
            "source": {"component": "default-scheduler"}})
    write_list(f"{out}/events.json", events)


def crashing(i, ns, node_name, restarts=40):
    """A Running pod whose container crash-loops (never Ready)."""
    p = pod(i, ns, {"app": f"app-{i % 10}"}, "100m", node_name=node_name)
    p["status"]["containerStatuses"][0].update({
        "restartCount": restarts, "started": False,
        "state": {"waiting": {"reason": "CrashLoopBackOff",
                              "message": f"back-off 5m0s restarting failed container=web pod=web-{i}_{ns}"}},
        "lastState": {"terminated": {"exitCode": 1, "reason": "Error", "startedAt": T0,
                                     "finishedAt": T0}}})
    return p


def pernode_shape(out, scale):
    write_list(f"{out}/nodes.json", [node(i) for i in range(10)])
    write_list(f"{out}/pods.json",
               [pod(i, "shop", {"app": f"web-{i % 20}"}, "10m", node_name=f"node-{i % 10}")
                for i in range(2_000 * scale)])


def events_shape(out, scale):
    write_list(f"{out}/nodes.json", [node(i) for i in range(10)])
    pods = [crashing(i, "shop", f"node-{i % 10}") for i in range(100)]
    write_list(f"{out}/pods.json", pods)
    events = []
    for p in pods:
        meta = p["metadata"]
        for k in range(50 * scale):
            reason, msg = (("BackOff", "Back-off restarting failed container web in pod "
                            f"{meta['name']}_shop({meta['uid']})") if k % 2 else
                           ("Unhealthy", f"Readiness probe failed: HTTP probe failed with statuscode: 50{k % 4}"))
            events.append({
                "apiVersion": "v1", "kind": "Event", "type": "Warning", "reason": reason,
                "message": msg, "count": 1 + k, "firstTimestamp": T0,
                "lastTimestamp": f"2026-11-20T08:{k % 60:02}:{(k // 60) % 60:02}Z",
                "metadata": {"name": f"{meta['name']}.{k:016x}", "namespace": "shop",
                             "uid": f"0000eeee-{k:04x}-4000-8000-{int(meta['name'][4:]):012}",
                             "resourceVersion": str(90000 + k), "creationTimestamp": T0},
                "involvedObject": {"apiVersion": "v1", "kind": "Pod", "name": meta["name"],
                                   "namespace": "shop", "uid": meta["uid"],
                                   "fieldPath": "spec.containers{web}"},
                "source": {"component": "kubelet", "host": p["spec"]["nodeName"]}})
    write_list(f"{out}/events.json", events)


def kueue_shape(out, scale):
    meta = lambda name, ns=None, n=0: {  # noqa: E731
        "name": name, **({"namespace": ns} if ns else {}), "creationTimestamp": T0,
        "uid": f"0000ffff-0000-4000-8000-{n:012}", "resourceVersion": str(3000 + n)}
    flavor = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor",
              "metadata": meta("default-flavor"), "spec": {}}
    cq = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
          "metadata": meta("cq-research", n=1),
          "spec": {"namespaceSelector": {}, "queueingStrategy": "BestEffortFIFO",
                   "resourceGroups": [{"coveredResources": ["cpu", "memory"], "flavors": [
                       {"name": "default-flavor", "resources": [
                           {"name": "cpu", "nominalQuota": "16"},
                           {"name": "memory", "nominalQuota": "64Gi"}]}]}]},
          "status": {"conditions": [{"type": "Active", "status": "True", "reason": "Ready",
                                     "message": "Can admit new workloads",
                                     "lastTransitionTime": T0}],
                     "pendingWorkloads": 1_000 * scale, "admittedWorkloads": 0}}
    lq = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
          "metadata": meta("research-queue", "research", 2),
          "spec": {"clusterQueue": "cq-research"},
          "status": {"conditions": [{"type": "Active", "status": "True", "reason": "Ready",
                                     "message": "Can submit new workloads to localQueue",
                                     "lastTransitionTime": T0}],
                     "pendingWorkloads": 1_000 * scale}}
    workloads = []
    for i in range(1_000 * scale):
        workloads.append({
            "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
            "metadata": meta(f"job-tune-{i:05}", "research", 10 + i),
            "spec": {"active": True, "queueName": "research-queue", "priority": 0, "podSets": [{
                "count": 1 + i % 8, "name": "main", "template": {"spec": {
                    "restartPolicy": "Never", "containers": [{
                        "name": "run", "image": "registry.example.com/ml/trainer:2.4",
                        "resources": {"requests": {"cpu": "20", "memory": "2Gi"}}}]}}}]},
            "status": {"conditions": [
                {"type": "QuotaReserved", "status": "False", "reason": "Pending",
                 "lastTransitionTime": T0,
                 "message": "couldn't assign flavors to pod set main: insufficient quota for "
                            "cpu in flavor default-flavor, request > maximum capacity (20 > 16)"},
                {"type": "Admitted", "status": "False", "reason": "NoReservation",
                 "lastTransitionTime": T0, "message": "The workload has no reservation"}]}})
    write_list(f"{out}/kueue.json", [flavor, cq, lq] + workloads)


def pool_shape(out, scale):
    nodes = []
    for i in range(1_000 * scale):
        n = node(i)
        n["metadata"]["labels"]["cloud.google.com/gke-nodepool"] = "pool-a"
        if i % 10 == 0:
            n["status"]["conditions"][0].update({
                "status": "Unknown", "reason": "NodeStatusUnknown",
                "message": "Kubelet stopped posting node status."})
            n["spec"]["taints"] = [{"key": "node.kubernetes.io/unreachable", "effect": "NoSchedule",
                                    "timeAdded": T0},
                                   {"key": "node.kubernetes.io/unreachable", "effect": "NoExecute",
                                    "timeAdded": T0}]
        nodes.append(n)
    write_list(f"{out}/nodes.json", nodes)


def podlist(out, scale, indent):
    items = [pod(i, f"ns-{i % 50}", {"app": f"web-{i % 100}"}, "100m",
                 node_name=f"node-{i % 50}") for i in range(7_500 * scale)]
    doc = {"apiVersion": "v1", "kind": "PodList", "metadata": {"resourceVersion": "123"},
           "items": items}
    with open(f"{out}/pods.json", "w") as f:
        if indent:
            json.dump(doc, f, indent=2)
        else:
            json.dump(doc, f, separators=(",", ":"))


SHAPES = {
    "service": service_shape,
    "pending": pending_shape,
    "fitting": fitting_shape,
    "pernode": pernode_shape,
    "events": events_shape,
    "kueue": kueue_shape,
    "pool": pool_shape,
    "oneline": lambda out, scale: podlist(out, scale, False),
    "indented": lambda out, scale: podlist(out, scale, True),
}


def main():
    out, shape, scales = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3:]]
    for scale in scales:
        path = f"{out}/{shape}-{scale}"
        os.makedirs(path, exist_ok=True)
        SHAPES[shape](path, scale)
        size = sum(os.path.getsize(f"{path}/{f}") for f in os.listdir(path))
        print(f"{path}: {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Build the readiness / traffic sample bundles (kubectl `kind: List` YAML files).

    python3 sample-bundles/traffic/gen.py           # (re)write every bundle here
    python3 sample-bundles/traffic/gen.py --check   # fail if a file differs from a fresh build

Python 3 standard library only; the YAML is written by the kubectl-style emitter of
../build.py (go-yaml key order, quoting and folding). Deterministic: UIDs come from
SHA-256 of scenario/kind/namespace/name, every timestamp is fixed and earlier than the
snapshot time below, resourceVersions grow with the object's last change.
See README.md for what each bundle shows and what kdiag must say about it.
"""

import calendar
import hashlib
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from build import to_yaml, write_or_check  # noqa: E402  (kubectl-style YAML emitter, stdlib only)

AS_OF = "2026-11-20T09:14:00Z"
AS_OF_EPOCH = calendar.timegm(time.strptime(AS_OF, "%Y-%m-%dT%H:%M:%SZ"))
KUBELET = "v1.31.2"


def ts(seconds_before):
    """RFC 3339 time `seconds_before` the snapshot."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(AS_OF_EPOCH - seconds_before))


MIN, HOUR, DAY = 60, 3600, 86400


class Scenario:
    def __init__(self, name):
        self.name = name
        self.items = []
        self.rv = 1_000_000

    def uid(self, kind, ns, name):
        h = hashlib.sha256(("%s/%s/%s/%s" % (self.name, kind, ns or "", name)).encode()).hexdigest()
        return "%s-%s-4%s-%s%s-%s" % (h[:8], h[8:12], h[13:16], "89ab"[int(h[16], 16) % 4], h[17:20], h[20:32])

    def hexid(self, *parts):
        return hashlib.sha256(("%s/%s" % (self.name, "/".join(parts))).encode()).hexdigest()

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

    # -- cluster -------------------------------------------------------------------

    def namespace(self, name):
        return self.add({"apiVersion": "v1", "kind": "Namespace",
                         "metadata": self.meta("Namespace", None, name, 90 * DAY,
                                               labels={"kubernetes.io/metadata.name": name}),
                         "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}})

    def node(self, name, zone):
        return self.add({"apiVersion": "v1", "kind": "Node",
                         "metadata": self.meta("Node", None, name, 120 * DAY, labels={
                             "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
                             "topology.kubernetes.io/zone": zone}),
                         "spec": {"podCIDR": "10.244.%d.0/24" % (ord(name[-1]) % 8)},
                         "status": {
                             "allocatable": {"cpu": "7800m", "memory": "31Gi", "pods": "110"},
                             "capacity": {"cpu": "8", "memory": "32Gi", "pods": "110"},
                             "conditions": [
                                 {"type": "MemoryPressure", "status": "False", "reason": "KubeletHasSufficientMemory",
                                  "lastHeartbeatTime": ts(3 * MIN), "lastTransitionTime": ts(120 * DAY)},
                                 {"type": "Ready", "status": "True", "reason": "KubeletReady",
                                  "message": "kubelet is posting ready status",
                                  "lastHeartbeatTime": ts(3 * MIN), "lastTransitionTime": ts(120 * DAY)}],
                             "nodeInfo": {"kubeletVersion": KUBELET, "containerRuntimeVersion": "containerd://1.7.22",
                                          "osImage": "Ubuntu 24.04.1 LTS", "architecture": "amd64"}}})

    # -- workloads -----------------------------------------------------------------

    def deployment(self, ns, name, labels, containers, replicas=1, ready=None, created=30 * DAY, **spec_extra):
        ready = replicas if ready is None else ready
        d = self.add({"apiVersion": "apps/v1", "kind": "Deployment",
                      "metadata": self.meta("Deployment", ns, name, created, labels=labels),
                      "spec": {"replicas": replicas, "selector": {"matchLabels": dict(labels)},
                               "template": {"metadata": {"labels": dict(labels)},
                                            "spec": dict({"containers": containers}, **spec_extra)}},
                      "status": {"replicas": replicas, "readyReplicas": ready, "availableReplicas": ready,
                                 "updatedReplicas": replicas, "observedGeneration": 1}})
        if ready == 0:
            d["status"].pop("readyReplicas")
            d["status"].pop("availableReplicas")
        if replicas == 0:
            d["status"] = {"observedGeneration": 2}
        h = self.hexid("rs", ns, name)
        pth = "".join("bcdfghjklmnpqrstvwxz2456789"[int(h[i:i + 2], 16) % 27] for i in range(0, 20, 2))
        rs_labels = dict(labels, **{"pod-template-hash": pth})
        rs = self.add({"apiVersion": "apps/v1", "kind": "ReplicaSet",
                       "metadata": self.meta("ReplicaSet", ns, "%s-%s" % (name, pth), created, labels=rs_labels,
                                             owner=d),
                       "spec": {"replicas": replicas, "selector": {"matchLabels": dict(rs_labels)},
                                "template": {"metadata": {"labels": dict(rs_labels)},
                                             "spec": dict({"containers": containers}, **spec_extra)}},
                       "status": {"replicas": replicas, "readyReplicas": ready, "availableReplicas": ready,
                                  "fullyLabeledReplicas": replicas, "observedGeneration": 1}})
        if ready == 0:
            rs["status"].pop("readyReplicas")
            rs["status"].pop("availableReplicas")
        if replicas == 0:
            rs["status"] = {"replicas": 0, "observedGeneration": 2}
        return d, rs, rs_labels

    def pod_name(self, rs, i):
        h = self.hexid("pod", rs["metadata"]["name"], str(i))
        return "%s-%s" % (rs["metadata"]["name"], "".join(
            "bcdfghjklmnpqrstvwxz2456789"[int(h[j:j + 2], 16) % 27] for j in range(0, 10, 2)))

    def statefulset(self, ns, name, labels, containers, replicas, ready, service_name, created=30 * DAY):
        return self.add({"apiVersion": "apps/v1", "kind": "StatefulSet",
                         "metadata": self.meta("StatefulSet", ns, name, created, labels=labels),
                         "spec": {"replicas": replicas, "serviceName": service_name,
                                  "selector": {"matchLabels": dict(labels)},
                                  "template": {"metadata": {"labels": dict(labels)},
                                               "spec": {"containers": containers}}},
                         "status": {"replicas": replicas, "readyReplicas": ready, "currentReplicas": replicas,
                                    "updatedReplicas": replicas, "availableReplicas": ready}})

    def pod(self, ns, name, labels, containers, owner=None, node="node-1", ip=None, started=2 * DAY,
            statuses=None, phase="Running", gates=None, gate_conditions=None, deleting=None,
            init_containers=None):
        """A pod; `statuses` maps container name -> dict(ready, started, restarts, waiting,
        running_for); missing entries are running and ready."""
        statuses = statuses or {}
        cs = []
        all_ready = True
        for c in containers:
            st = statuses.get(c["name"], {})
            ready = st.get("ready", True)
            all_ready = all_ready and ready
            running_for = st.get("running_for", started)
            s = {"name": c["name"], "image": c["image"],
                 "imageID": "%s@sha256:%s" % (c["image"].split(":")[0], self.hexid("img", c["image"])),
                 "containerID": "containerd://" + self.hexid("ctr", ns, name, c["name"]),
                 "ready": ready, "restartCount": st.get("restarts", 0), "started": st.get("started", True)}
            if "waiting" in st:
                s["state"] = {"waiting": {"reason": st["waiting"][0], "message": st["waiting"][1]}}
                s["started"] = False
                s["lastState"] = {"terminated": {"exitCode": st.get("exit", 1), "reason": "Error",
                                                 "startedAt": ts(6 * MIN), "finishedAt": ts(5 * MIN),
                                                 "containerID": "containerd://" + self.hexid("old", name)}}
            else:
                s["state"] = {"running": {"startedAt": ts(running_for)}}
                s["lastState"] = {}
                if st.get("restarts"):
                    s["lastState"] = {"terminated": {"exitCode": 143, "reason": "Error",
                                                     "startedAt": ts(running_for + 40),
                                                     "finishedAt": ts(running_for + 1),
                                                     "containerID": "containerd://" + self.hexid("old", name)}}
            cs.append(s)
        gate_conditions = gate_conditions or {}
        gates_ok = all(gate_conditions.get(g, {}).get("status") == "True" for g in (gates or []))
        pod_ready = all_ready and gates_ok and phase == "Running"
        unready = [c["name"] for c in containers if not statuses.get(c["name"], {}).get("ready", True)]
        ready_since = min([statuses.get(n, {}).get("unready_for", started) for n in unready] or [started])
        conds = []
        if phase == "Pending" and node is None:
            conds.append({"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                          "message": "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.",
                          "lastProbeTime": None, "lastTransitionTime": ts(started)})
        else:
            cr = {"type": "ContainersReady", "status": "True" if all_ready else "False",
                  "lastProbeTime": None, "lastTransitionTime": ts(ready_since)}
            rd = {"type": "Ready", "status": "True" if pod_ready else "False",
                  "lastProbeTime": None, "lastTransitionTime": ts(ready_since)}
            if not all_ready:
                for x in (cr, rd):
                    x["reason"] = "ContainersNotReady"
                    x["message"] = "containers with unready status: [%s]" % " ".join(unready)
            elif not gates_ok:
                rd["reason"] = "ReadinessGatesNotReady"
                rd["message"] = "corresponding condition of pod readiness gate \"%s\" does not exist." % gates[0] \
                    if gates[0] not in gate_conditions else "the status of pod readiness gate \"%s\" is not \"True\", but False" % gates[0]
            conds += [
                {"type": "PodReadyToStartContainers", "status": "True", "lastProbeTime": None,
                 "lastTransitionTime": ts(started)},
                {"type": "Initialized", "status": "True", "lastProbeTime": None, "lastTransitionTime": ts(started)},
                rd, cr,
                {"type": "PodScheduled", "status": "True", "lastProbeTime": None, "lastTransitionTime": ts(started)}]
            for g, c in gate_conditions.items():
                conds.append(dict({"type": g, "lastProbeTime": None}, **c))
        spec = {"containers": containers, "restartPolicy": "Always", "terminationGracePeriodSeconds": 30,
                "dnsPolicy": "ClusterFirst", "serviceAccountName": "default", "schedulerName": "default-scheduler",
                "enableServiceLinks": True, "preemptionPolicy": "PreemptLowerPriority", "priority": 0}
        if init_containers:
            spec["initContainers"] = init_containers
        if node:
            spec["nodeName"] = node
        if gates:
            spec["readinessGates"] = [{"conditionType": g} for g in gates]
        status = {"phase": phase, "conditions": conds, "qosClass": "Burstable"}
        if node:
            status.update({"hostIP": "192.168.10.%d" % (10 + ord(node[-1]) % 8), "podIP": ip,
                           "podIPs": [{"ip": ip}], "startTime": ts(started), "containerStatuses": cs})
        extra = {}
        if deleting is not None:
            extra["deletionTimestamp"] = ts(deleting)
            extra["deletionGracePeriodSeconds"] = 30
        md = self.meta("Pod", ns, name, started + 5, labels=labels, owner=owner, **extra)
        if owner is not None:
            md["generateName"] = owner["metadata"]["name"] + "-"
        return self.add({"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": spec, "status": status})

    # -- network -------------------------------------------------------------------

    def service(self, ns, name, selector, ports, cluster_ip="10.96.0.1", type_="ClusterIP", publish=False,
                external_name=None, created=30 * DAY):
        spec = {"ports": ports, "type": type_, "sessionAffinity": "None"}
        if selector is not None:
            spec["selector"] = dict(selector)
        if type_ == "ExternalName":
            spec = {"type": type_, "externalName": external_name, "sessionAffinity": "None"}
        else:
            spec.update({"clusterIP": cluster_ip, "clusterIPs": [cluster_ip], "ipFamilies": ["IPv4"],
                         "ipFamilyPolicy": "SingleStack", "internalTrafficPolicy": "Cluster"})
        if publish:
            spec["publishNotReadyAddresses"] = True
        return self.add({"apiVersion": "v1", "kind": "Service",
                         "metadata": self.meta("Service", ns, name, created, labels={"app": name}),
                         "spec": spec, "status": {"loadBalancer": {}}})

    def endpoint_slice(self, svc, endpoints, ports, managed_by="endpointslice-controller.k8s.io", suffix=None,
                       owned=True):
        """endpoints: list of (pod, ready, serving, terminating)."""
        ns, name = svc["metadata"]["namespace"], svc["metadata"]["name"]
        if suffix is None:
            h = self.hexid("slice", ns, name)
            suffix = "".join("bcdfghjklmnpqrstvwxz2456789"[int(h[i:i + 2], 16) % 27] for i in range(0, 10, 2))
        eps = []
        for p, ready, serving, terminating in endpoints:
            eps.append({"addresses": [p["status"]["podIP"]],
                        "conditions": {"ready": ready, "serving": serving, "terminating": terminating},
                        "nodeName": p["spec"]["nodeName"],
                        "targetRef": {"kind": "Pod", "namespace": ns, "name": p["metadata"]["name"],
                                      "uid": p["metadata"]["uid"]}})
        obj = {"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
               "metadata": self.meta("EndpointSlice", ns, "%s-%s" % (name, suffix), 29 * DAY,
                                     labels={"endpointslice.kubernetes.io/managed-by": managed_by,
                                             "kubernetes.io/service-name": name},
                                     owner=svc if owned else None,
                                     generateName=name + "-"),
               "addressType": "IPv4",
               "endpoints": eps or None,
               "ports": ports or None}
        return self.add(obj)

    def endpoints(self, svc, ready_pods, not_ready_pods, ports):
        ns, name = svc["metadata"]["namespace"], svc["metadata"]["name"]

        def addr(p):
            return {"ip": p["status"]["podIP"], "nodeName": p["spec"]["nodeName"],
                    "targetRef": {"kind": "Pod", "namespace": ns, "name": p["metadata"]["name"],
                                  "uid": p["metadata"]["uid"]}}
        sub = {"ports": ports}
        if ready_pods:
            sub["addresses"] = [addr(p) for p in ready_pods]
        if not_ready_pods:
            sub["notReadyAddresses"] = [addr(p) for p in not_ready_pods]
        return self.add({"apiVersion": "v1", "kind": "Endpoints",
                         "metadata": self.meta("Endpoints", ns, name, 29 * DAY, labels={"app": name}),
                         "subsets": [sub]})

    def ingress_class(self, name, controller, default=False):
        ann = {"ingressclass.kubernetes.io/is-default-class": "true"} if default else None
        return self.add({"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass",
                         "metadata": self.meta("IngressClass", None, name, 60 * DAY,
                                               labels={"app.kubernetes.io/name": name}, annotations=ann),
                         "spec": {"controller": controller}})

    def ingress(self, ns, name, class_name, rules, default=None, address=None, annotations=None):
        """rules: list of (host, path, service, port) with port an int (number) or str (name)."""
        def backend(svc, port):
            return {"service": {"name": svc, "port": {"number": port} if isinstance(port, int) else {"name": port}}}
        by_host = {}
        for host, path, svc, port in rules:
            by_host.setdefault(host, []).append({"path": path, "pathType": "Prefix", "backend": backend(svc, port)})
        spec = {"rules": [{"host": h, "http": {"paths": paths}} for h, paths in by_host.items()]}
        if class_name:
            spec["ingressClassName"] = class_name
        if default:
            spec["defaultBackend"] = backend(*default)
        lb = {"ingress": [{"ip": address}]} if address else {}
        return self.add({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
                         "metadata": self.meta("Ingress", ns, name, 20 * DAY, annotations=annotations),
                         "spec": spec, "status": {"loadBalancer": lb}})

    def event(self, obj, reason, message, type_="Warning", count=1, first=None, last=0, component="kubelet",
              field_path=None):
        md = obj["metadata"]
        first = last if first is None else first
        key = self.hexid("ev", md["name"], reason, message)
        nanos = (AS_OF_EPOCH - first) * 1_000_000_000 + int(key[:6], 16)
        io_ = {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "name": md["name"], "uid": md["uid"],
               "resourceVersion": md["resourceVersion"]}
        if md.get("namespace"):
            io_["namespace"] = md["namespace"]
        if field_path:
            io_["fieldPath"] = field_path
        host = obj.get("spec", {}).get("nodeName") if obj["kind"] == "Pod" else None
        src = {"component": component}
        if host:
            src["host"] = host
        ev = {"apiVersion": "v1", "kind": "Event",
              "metadata": {"name": "%s.%x" % (md["name"], nanos), "namespace": md.get("namespace", "default"),
                           "uid": self.uid("Event", md.get("namespace"), "%s.%x" % (md["name"], nanos)),
                           "creationTimestamp": ts(first)},
              "involvedObject": io_, "reason": reason, "message": message, "type": type_, "count": count,
              "firstTimestamp": ts(first), "lastTimestamp": ts(last), "source": src,
              "reportingComponent": component, "reportingInstance": host or "",
              "eventTime": None, "action": ""}
        return self.add(ev)

    def text(self):
        order = ["Namespace", "Node", "IngressClass", "Pod", "Event", "Service", "Endpoints", "EndpointSlice",
                 "Ingress", "Deployment", "ReplicaSet", "StatefulSet"]
        items = sorted(self.items, key=lambda o: (order.index(o["kind"]), o["metadata"].get("namespace", ""),
                                                  o["metadata"]["name"]))
        for o in items:
            for k in ("creationTimestamp",):
                assert o["metadata"][k] <= AS_OF, (self.name, o["metadata"]["name"])
        return to_yaml({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}},
                       sort_keys=True, width=80)


# ---------------------------------------------------------------------------------
# helpers for containers
# ---------------------------------------------------------------------------------

def container(name, image, ports=(), readiness=None, liveness=None, startup=None, restart_policy=None):
    c = {"name": name, "image": image, "imagePullPolicy": "IfNotPresent",
         "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}},
         "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    if ports:
        c["ports"] = []
        for p in ports:
            pname, num, proto = p if len(p) == 3 else (p[0], p[1], "TCP")
            entry = {"containerPort": num, "protocol": proto}
            if pname:
                entry["name"] = pname
            c["ports"].append(entry)
    for key, probe in (("readinessProbe", readiness), ("livenessProbe", liveness), ("startupProbe", startup)):
        if probe:
            c[key] = probe
    if restart_policy:
        c["restartPolicy"] = restart_policy
    return c


def http_probe(path, port, period=10, timeout=1, failure=3, initial=0):
    p = {"httpGet": {"path": path, "port": port, "scheme": "HTTP"}, "periodSeconds": period,
         "timeoutSeconds": timeout, "failureThreshold": failure, "successThreshold": 1}
    if initial:
        p["initialDelaySeconds"] = initial
    return p


def tcp_probe(port, period=10, timeout=1, failure=3):
    return {"tcpSocket": {"port": port}, "periodSeconds": period, "timeoutSeconds": timeout,
            "failureThreshold": failure, "successThreshold": 1}


def exec_probe(command, period=10, timeout=1, failure=3):
    return {"exec": {"command": command}, "periodSeconds": period, "timeoutSeconds": timeout,
            "failureThreshold": failure, "successThreshold": 1}


def not_ready(unready_for, **kw):
    return dict({"ready": False, "unready_for": unready_for}, **kw)


def probe_count(span, period):
    return span // period


# ---------------------------------------------------------------------------------
# scenarios
# ---------------------------------------------------------------------------------

def base(name, *namespaces):
    sc = Scenario(name)
    for ns in namespaces:
        sc.namespace(ns)
    sc.node("node-1", "zone-a")
    sc.node("node-2", "zone-b")
    return sc


def readiness_probe_failing():
    sc = base("readiness-probe-failing", "shop")
    ns = "shop"
    # Deployment checkout: 2 pods, the app answers 500.
    co = container("checkout", "registry.example.com/shop/checkout:2.8.1", [("http", 8080)],
                   readiness=http_probe("/ready", "http", period=10))
    d, rs, labels = sc.deployment(ns, "checkout", {"app": "checkout"}, [co], replicas=2, ready=0)
    for i, (node, ip, span) in enumerate([("node-1", "10.244.1.21", 25 * MIN), ("node-2", "10.244.2.34", 24 * MIN)]):
        p = sc.pod(ns, sc.pod_name(rs, i), labels, [co], owner=rs, node=node, ip=ip, started=26 * MIN,
                   statuses={"checkout": not_ready(span)})
        sc.event(p, "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 500",
                 count=probe_count(span, 10), first=span, last=4 + i, field_path="spec.containers{checkout}")
    # Bare pod legacy-api: the probe knocks on 8081, the app listens on 8080.
    la = container("legacy-api", "registry.example.com/shop/legacy-api:1.0.3", [(None, 8080)],
                   readiness=http_probe("/health", 8081, period=5))
    p = sc.pod(ns, "legacy-api", {"app": "legacy-api"}, [la], node="node-1", ip="10.244.1.17", started=3 * HOUR,
               statuses={"legacy-api": not_ready(3 * HOUR - 10)})
    sc.event(p, "Unhealthy",
             "Readiness probe failed: Get \"http://10.244.1.17:8081/health\": dial tcp 10.244.1.17:8081: connect: connection refused",
             count=2158, first=3 * HOUR - 10, last=0, field_path="spec.containers{legacy-api}")
    # StatefulSet search: the probe times out.
    se = container("search", "registry.example.com/shop/search:8.15.3", [("http", 9200), ("transport", 9300)],
                   readiness=http_probe("/_cluster/health?local=true", 9200, period=10, timeout=2))
    sts = sc.statefulset(ns, "search", {"app": "search"}, [se], replicas=1, ready=0, service_name="search")
    p = sc.pod(ns, "search-0", {"app": "search", "apps.kubernetes.io/pod-index": "0",
                                "statefulset.kubernetes.io/pod-name": "search-0"}, [se], owner=sts,
               node="node-2", ip="10.244.2.9", started=50 * MIN, statuses={"search": not_ready(48 * MIN)})
    sc.event(p, "Unhealthy",
             "Readiness probe failed: Get \"http://10.244.2.9:9200/_cluster/health?local=true\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
             count=287, first=48 * MIN, last=9, field_path="spec.containers{search}")
    # Deployment reports: not ready for 5h, its probe events expired long ago.
    re_ = container("reports", "registry.example.com/shop/reports:4.2.0", [("http", 8000)],
                    readiness=exec_probe(["/bin/sh", "-c", "test -f /tmp/ready"]))
    d, rs, labels = sc.deployment(ns, "reports", {"app": "reports"}, [re_], replicas=1, ready=0)
    sc.pod(ns, sc.pod_name(rs, 0), labels, [re_], owner=rs, node="node-2", ip="10.244.2.40", started=6 * HOUR,
           statuses={"reports": not_ready(5 * HOUR)})
    # Healthy negative: Deployment cart, Ready, with a readiness probe.
    ca = container("cart", "registry.example.com/shop/cart:3.1.0", [("http", 8080)],
                   readiness=http_probe("/ready", "http"))
    d, rs, labels = sc.deployment(ns, "cart", {"app": "cart"}, [ca], replicas=1)
    sc.pod(ns, sc.pod_name(rs, 0), labels, [ca], owner=rs, node="node-1", ip="10.244.1.30")
    return sc


def readiness_probe_port():
    sc = base("readiness-probe-port", "go-api")
    ns = "go-api"
    # The probes name port "http"; the container declares 8080 without a name.
    ga = container("go-api", "registry.example.com/go-api:0.9.2", [(None, 8080)],
                   readiness=http_probe("/healthz", "http"), liveness=http_probe("/healthz", "http", period=20))
    d, rs, labels = sc.deployment(ns, "go-api", {"app": "go-api"}, [ga], replicas=1, ready=0)
    p = sc.pod(ns, sc.pod_name(rs, 0), labels, [ga], owner=rs, node="node-1", ip="10.244.1.50",
               started=25 * MIN, statuses={"go-api": not_ready(25 * MIN)})
    sc.event(p, "Unhealthy",
             "Readiness probe errored and resulted in unknown state: strconv.Atoi: parsing \"http\": invalid syntax",
             count=149, first=25 * MIN - 2, last=1, field_path="spec.containers{go-api}")
    sc.event(p, "Unhealthy",
             "Liveness probe errored and resulted in unknown state: strconv.Atoi: parsing \"http\": invalid syntax",
             count=74, first=25 * MIN - 2, last=11, field_path="spec.containers{go-api}")
    # Healthy negative: the same probe with the port named.
    gw = container("go-web", "registry.example.com/go-web:0.9.2", [("http", 8080)],
                   readiness=http_probe("/healthz", "http"))
    d, rs, labels = sc.deployment(ns, "go-web", {"app": "go-web"}, [gw], replicas=1)
    sc.pod(ns, sc.pod_name(rs, 0), labels, [gw], owner=rs, node="node-2", ip="10.244.2.51")
    return sc


def readiness_startup():
    sc = base("readiness-startup", "jvm")
    ns = "jvm"
    # ledger: started 40s ago, startup budget 300s: still starting (info).
    le = container("ledger", "registry.example.com/jvm/ledger:5.0.1", [("http", 8080)],
                   readiness=http_probe("/ready", "http"), startup=http_probe("/started", "http", period=10, failure=30))
    d, rs, labels = sc.deployment(ns, "ledger", {"app": "ledger"}, [le], replicas=1, ready=0)
    sc.pod(ns, sc.pod_name(rs, 0), labels, [le], owner=rs, node="node-1", ip="10.244.1.60", started=45,
           statuses={"ledger": not_ready(40, started=False, running_for=40)})
    # billing: startup budget 30s, the app needs longer: restarted 7 times.
    bi = container("billing", "registry.example.com/jvm/billing:2.3.0", [("http", 8080)],
                   readiness=http_probe("/ready", "http"), startup=http_probe("/started", "http", period=5, failure=6))
    d, rs, labels = sc.deployment(ns, "billing", {"app": "billing"}, [bi], replicas=1, ready=0)
    p = sc.pod(ns, sc.pod_name(rs, 0), labels, [bi], owner=rs, node="node-2", ip="10.244.2.61", started=38 * MIN,
               statuses={"billing": not_ready(38 * MIN, started=False, running_for=12, restarts=7)})
    sc.event(p, "Unhealthy", "Startup probe failed: HTTP probe failed with statuscode: 503",
             count=48, first=38 * MIN - 5, last=2, field_path="spec.containers{billing}")
    sc.event(p, "Killing", "Container billing failed startup probe, will be restarted", type_="Normal",
             count=7, first=38 * MIN - 35, last=15, field_path="spec.containers{billing}")
    # Healthy negative: a startup probe that passed.
    ac = container("accounts", "registry.example.com/jvm/accounts:1.4.0", [("http", 8080)],
                   readiness=http_probe("/ready", "http"), startup=http_probe("/started", "http", failure=30))
    d, rs, labels = sc.deployment(ns, "accounts", {"app": "accounts"}, [ac], replicas=1)
    sc.pod(ns, sc.pod_name(rs, 0), labels, [ac], owner=rs, node="node-1", ip="10.244.1.62")
    return sc


def readiness_gates():
    sc = base("readiness-gates", "web")
    ns = "web"
    gate = "target-health.elbv2.k8s.aws/k8s-web-storefro-3f1c2a9b7e"
    sf = container("storefront", "registry.example.com/web/storefront:7.2.0", [("http", 8080)],
                   readiness=http_probe("/ready", "http"))
    d, rs, labels = sc.deployment(ns, "storefront", {"app": "storefront"}, [sf], replicas=2, ready=0,
                                  readinessGates=[{"conditionType": gate}])
    for i, (node, ip) in enumerate([("node-1", "10.244.1.70"), ("node-2", "10.244.2.71")]):
        sc.pod(ns, sc.pod_name(rs, i), labels, [sf], owner=rs, node=node, ip=ip, started=35 * MIN, gates=[gate])
    gate2 = "target-health.elbv2.k8s.aws/k8s-web-admin-9d8e7f6a5b"
    ad = container("admin", "registry.example.com/web/admin:1.9.0", [("http", 8080)],
                   readiness=http_probe("/ready", "http"))
    d, rs, labels = sc.deployment(ns, "admin", {"app": "admin"}, [ad], replicas=1, ready=0,
                                  readinessGates=[{"conditionType": gate2}])
    sc.pod(ns, sc.pod_name(rs, 0), labels, [ad], owner=rs, node="node-1", ip="10.244.1.72", started=2 * HOUR,
           gates=[gate2], gate_conditions={gate2: {
               "status": "False", "reason": "Target.FailedHealthChecks", "message": "Health checks failed",
               "lastTransitionTime": ts(2 * HOUR - 90)}})
    # Healthy negative: the gate is True.
    gate3 = "target-health.elbv2.k8s.aws/k8s-web-blog-1a2b3c4d5e"
    bl = container("blog", "registry.example.com/web/blog:3.0.0", [("http", 8080)],
                   readiness=http_probe("/ready", "http"))
    d, rs, labels = sc.deployment(ns, "blog", {"app": "blog"}, [bl], replicas=1,
                                  readinessGates=[{"conditionType": gate3}])
    p = sc.pod(ns, sc.pod_name(rs, 0), labels, [bl], owner=rs, node="node-2", ip="10.244.2.73", gates=[gate3],
               gate_conditions={gate3: {"status": "True", "lastTransitionTime": ts(2 * DAY - 60)}})
    sc.event(p, "Sync", "Successfully registered the pod as a target", type_="Normal", count=1,
             first=0, last=0, component="targetGroupBinding")
    return sc


def traffic_selector():
    sc = base("traffic-selector", "pay", "finance")
    ns = "pay"
    pm = container("payments", "registry.example.com/pay/payments:6.1.0", [("http", 8080)],
                   readiness=http_probe("/ready", "http"))
    d, rs, labels = sc.deployment(ns, "payments", {"app": "payments"}, [pm], replicas=2)
    pods = [sc.pod(ns, sc.pod_name(rs, i), labels, [pm], owner=rs, node=n, ip=ip)
            for i, (n, ip) in enumerate([("node-1", "10.244.1.80"), ("node-2", "10.244.2.81")])]
    # Typo: app=payment.
    s = sc.service(ns, "payments", {"app": "payment"}, [{"name": "http", "port": 80, "targetPort": "http",
                                                         "protocol": "TCP"}], cluster_ip="10.96.40.10")
    sc.endpoint_slice(s, [], [])
    # Healthy negative: the right selector.
    s = sc.service(ns, "payments-internal", {"app": "payments"},
                   [{"name": "http", "port": 80, "targetPort": "http", "protocol": "TCP"}], cluster_ip="10.96.40.11")
    sc.endpoint_slice(s, [(p, True, True, False) for p in pods],
                      [{"name": "http", "port": 8080, "protocol": "TCP"}])
    # version v2 wanted, only v1 pods run.
    od = container("orders", "registry.example.com/pay/orders:1.7.4", [("http", 8080)])
    d, rs, labels = sc.deployment(ns, "orders-v1", {"app": "orders", "version": "v1"}, [od], replicas=1)
    sc.pod(ns, sc.pod_name(rs, 0), labels, [od], owner=rs, node="node-1", ip="10.244.1.82")
    s = sc.service(ns, "orders", {"app": "orders", "version": "v2"},
                   [{"name": "http", "port": 80, "targetPort": 8080, "protocol": "TCP"}], cluster_ip="10.96.40.12")
    sc.endpoint_slice(s, [], [])
    # Scaled to zero on purpose.
    bu = container("batch-ui", "registry.example.com/pay/batch-ui:0.4.0", [("http", 3000)])
    d, rs, labels = sc.deployment(ns, "batch-ui", {"app": "batch-ui"}, [bu], replicas=0)
    sc.event(d, "ScalingReplicaSet", "Scaled down replica set %s to 0 from 1" % rs["metadata"]["name"],
             type_="Normal", count=1, first=0, last=0, component="deployment-controller")
    s = sc.service(ns, "batch-ui", {"app": "batch-ui"}, [{"name": "http", "port": 80, "targetPort": 3000,
                                                           "protocol": "TCP"}], cluster_ip="10.96.40.13")
    # Pods of app=ledger live in namespace finance only.
    lg = container("ledger", "registry.example.com/finance/ledger:2.0.0", [("http", 8080)])
    d, rs, labels = sc.deployment("finance", "ledger", {"app": "ledger"}, [lg], replicas=1)
    sc.pod("finance", sc.pod_name(rs, 0), labels, [lg], owner=rs, node="node-2", ip="10.244.2.83")
    s = sc.service(ns, "ledger", {"app": "ledger"}, [{"name": "http", "port": 80, "targetPort": 8080,
                                                      "protocol": "TCP"}], cluster_ip="10.96.40.14")
    return sc


def traffic_no_ready():
    sc = base("traffic-no-ready", "api")
    ns = "api"
    # quotes: both pods crash-loop; its Service has no ready endpoint.
    qu = container("quotes", "registry.example.com/api/quotes:3.3.0", [("http", 8080)],
                   readiness=http_probe("/ready", "http"))
    d, rs, labels = sc.deployment(ns, "quotes", {"app": "quotes"}, [qu], replicas=2, ready=0)
    pods = []
    for i, (node, ip) in enumerate([("node-1", "10.244.1.90"), ("node-2", "10.244.2.91")]):
        p = sc.pod(ns, sc.pod_name(rs, i), labels, [qu], owner=rs, node=node, ip=ip, started=2 * HOUR,
                   statuses={"quotes": not_ready(2 * HOUR - 60, restarts=24, waiting=(
                       "CrashLoopBackOff", "back-off 5m0s restarting failed container=quotes pod=x"))})
        sc.event(p, "BackOff", "Back-off restarting failed container quotes in pod %s_%s(%s)" % (
            p["metadata"]["name"], ns, p["metadata"]["uid"]), count=480 + i, first=2 * HOUR - 90, last=3 + i,
            field_path="spec.containers{quotes}")
        pods.append(p)
    s = sc.service(ns, "quotes", {"app": "quotes"}, [{"name": "http", "port": 80, "targetPort": "http",
                                                      "protocol": "TCP"}], cluster_ip="10.96.50.10")
    sc.endpoint_slice(s, [(p, False, False, False) for p in pods], [{"name": "http", "port": 8080, "protocol": "TCP"}])
    # rates: the old pod is terminating, its replacement cannot be scheduled.
    ra = container("rates", "registry.example.com/api/rates:1.2.0", [("http", 8080)],
                   readiness=http_probe("/ready", "http"))
    d, rs, labels = sc.deployment(ns, "rates", {"app": "rates"}, [ra], replicas=1, ready=0)
    old = sc.pod(ns, sc.pod_name(rs, 0), labels, [ra], owner=rs, node="node-1", ip="10.244.1.92",
                 started=3 * DAY, deleting=20)
    new = sc.pod(ns, sc.pod_name(rs, 1), labels, [ra], owner=rs, node=None, phase="Pending", started=8 * MIN)
    sc.event(new, "FailedScheduling",
             "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.",
             count=9, first=8 * MIN, last=40, component="default-scheduler")
    s = sc.service(ns, "rates", {"app": "rates"}, [{"name": "http", "port": 80, "targetPort": "http",
                                                    "protocol": "TCP"}], cluster_ip="10.96.50.11")
    sc.endpoint_slice(s, [(old, False, True, True)], [{"name": "http", "port": 8080, "protocol": "TCP"}])
    # ticker: the pod is Ready, the EndpointSlice still says not ready (disagreement).
    ti = container("ticker", "registry.example.com/api/ticker:0.8.0", [("http", 8080)],
                   readiness=http_probe("/ready", "http"))
    d, rs, labels = sc.deployment(ns, "ticker", {"app": "ticker"}, [ti], replicas=1)
    tp = sc.pod(ns, sc.pod_name(rs, 0), labels, [ti], owner=rs, node="node-2", ip="10.244.2.93")
    s = sc.service(ns, "ticker", {"app": "ticker"}, [{"name": "http", "port": 80, "targetPort": "http",
                                                      "protocol": "TCP"}], cluster_ip="10.96.50.12")
    sc.endpoint_slice(s, [(tp, False, False, False)], [{"name": "http", "port": 8080, "protocol": "TCP"}])
    # Healthy negative: fx, both pods Ready, ready endpoints.
    fx = container("fx", "registry.example.com/api/fx:2.0.0", [("http", 8080)], readiness=http_probe("/ready", "http"))
    d, rs, labels = sc.deployment(ns, "fx", {"app": "fx"}, [fx], replicas=2)
    fpods = [sc.pod(ns, sc.pod_name(rs, i), labels, [fx], owner=rs, node=n, ip=ip)
             for i, (n, ip) in enumerate([("node-1", "10.244.1.94"), ("node-2", "10.244.2.95")])]
    s = sc.service(ns, "fx", {"app": "fx"}, [{"name": "http", "port": 80, "targetPort": "http", "protocol": "TCP"}],
                   cluster_ip="10.96.50.13")
    sc.endpoint_slice(s, [(p, True, True, False) for p in fpods], [{"name": "http", "port": 8080, "protocol": "TCP"}])
    return sc


def traffic_ports():
    sc = base("traffic-ports", "media")
    ns = "media"
    # images: targetPort "http", the pods name their port "htpp".
    im = container("images", "registry.example.com/media/images:4.0.0", [("htpp", 8080)])
    d, rs, labels = sc.deployment(ns, "images", {"app": "images"}, [im], replicas=2)
    pods = [sc.pod(ns, sc.pod_name(rs, i), labels, [im], owner=rs, node=n, ip=ip)
            for i, (n, ip) in enumerate([("node-1", "10.244.1.100"), ("node-2", "10.244.2.101")])]
    s = sc.service(ns, "images", {"app": "images"}, [{"name": "http", "port": 80, "targetPort": "http",
                                                      "protocol": "TCP"}], cluster_ip="10.96.60.10")
    sc.endpoint_slice(s, [(p, True, True, False) for p in pods], [])
    # thumbs: numeric targetPort 8443, the pods declare 8080 only (info).
    th = container("thumbs", "registry.example.com/media/thumbs:1.1.0", [("http", 8080)])
    d, rs, labels = sc.deployment(ns, "thumbs", {"app": "thumbs"}, [th], replicas=1)
    tp = sc.pod(ns, sc.pod_name(rs, 0), labels, [th], owner=rs, node="node-1", ip="10.244.1.102")
    s = sc.service(ns, "thumbs", {"app": "thumbs"}, [{"name": "https", "port": 443, "targetPort": 8443,
                                                      "protocol": "TCP"}], cluster_ip="10.96.60.11")
    sc.endpoint_slice(s, [(tp, True, True, False)], [{"name": "https", "port": 8443, "protocol": "TCP"}])
    # dns-cache: the UDP Service port names "dns", declared only as TCP.
    dc = container("dns-cache", "registry.example.com/media/dns-cache:1.22.0", [("dns", 53, "TCP"),
                                                                                ("dns-tcp", 5353, "TCP")])
    d, rs, labels = sc.deployment(ns, "dns-cache", {"app": "dns-cache"}, [dc], replicas=1)
    dp = sc.pod(ns, sc.pod_name(rs, 0), labels, [dc], owner=rs, node="node-2", ip="10.244.2.103")
    s = sc.service(ns, "dns-cache", {"app": "dns-cache"}, [
        {"name": "dns", "port": 53, "targetPort": "dns", "protocol": "UDP"},
        {"name": "dns-tcp", "port": 53, "targetPort": "dns-tcp", "protocol": "TCP"}], cluster_ip="10.96.60.12")
    sc.endpoint_slice(s, [(dp, True, True, False)], [{"name": "dns-tcp", "port": 5353, "protocol": "TCP"}])
    # video: v1 pods name the port "http", v2 pods "web": only half resolve it.
    vpods = []
    for ver, pname, ip in (("v1", "http", "10.244.1.104"), ("v2", "web", "10.244.2.105")):
        vc = container("video", "registry.example.com/media/video:%s" % ver, [(pname, 8080)])
        d, rs, labels = sc.deployment(ns, "video-" + ver, {"app": "video", "version": ver}, [vc], replicas=1)
        vpods.append(sc.pod(ns, sc.pod_name(rs, 0), labels, [vc], owner=rs,
                            node="node-1" if ver == "v1" else "node-2", ip=ip))
    s = sc.service(ns, "video", {"app": "video"}, [{"name": "http", "port": 80, "targetPort": "http",
                                                    "protocol": "TCP"}], cluster_ip="10.96.60.13")
    # The EndpointSlice controller groups endpoints by resolved port set: v2 gets none.
    sc.endpoint_slice(s, [(vpods[0], True, True, False)], [{"name": "http", "port": 8080, "protocol": "TCP"}])
    sc.endpoint_slice(s, [(vpods[1], True, True, False)], [], suffix="q7x2k")
    # Healthy negative: audio's named port lives on a sidecar (restartable init container).
    au = container("audio", "registry.example.com/media/audio:2.2.0")
    px = container("proxy", "registry.example.com/media/envoy:1.31.2", [("http", 8080)], restart_policy="Always")
    d, rs, labels = sc.deployment(ns, "audio", {"app": "audio"}, [au], replicas=1, initContainers=[px])
    ap = sc.pod(ns, sc.pod_name(rs, 0), labels, [au], owner=rs, node="node-1", ip="10.244.1.106",
                init_containers=[px])
    s = sc.service(ns, "audio", {"app": "audio"}, [{"name": "http", "port": 80, "targetPort": "http",
                                                    "protocol": "TCP"}], cluster_ip="10.96.60.14")
    sc.endpoint_slice(s, [(ap, True, True, False)], [{"name": "http", "port": 8080, "protocol": "TCP"}])
    sc.event(ap, "Started", "Started container audio", type_="Normal", count=1, first=0, last=0,
             field_path="spec.containers{audio}")
    return sc


def traffic_selectorless():
    sc = base("traffic-selectorless", "ext")
    ns = "ext"
    # legacy-db: no selector, no EndpointSlice.
    sc.service(ns, "legacy-db", None, [{"name": "postgres", "port": 5432, "targetPort": 5432, "protocol": "TCP"}],
               cluster_ip="10.96.70.10")
    # partner-api: no selector, a hand-made EndpointSlice with a ready address (negative).
    s = sc.service(ns, "partner-api", None, [{"name": "https", "port": 443, "targetPort": 443, "protocol": "TCP"}],
                   cluster_ip="10.96.70.11")
    sl = sc.endpoint_slice(s, [], [{"name": "https", "port": 443, "protocol": "TCP"}], managed_by="staff",
                           suffix="manual", owned=False)
    sl["endpoints"] = [{"addresses": ["203.0.113.20"], "conditions": {"ready": True}}]
    # search-proxy: a hand-made EndpointSlice whose only address is not ready.
    s = sc.service(ns, "search-proxy", None, [{"name": "http", "port": 80, "targetPort": 9200, "protocol": "TCP"}],
                   cluster_ip="10.96.70.12")
    sl = sc.endpoint_slice(s, [], [{"name": "http", "port": 9200, "protocol": "TCP"}], managed_by="staff",
                           suffix="manual", owned=False)
    sl["endpoints"] = [{"addresses": ["192.168.50.7"], "conditions": {"ready": False}}]
    # mail: ExternalName needs no endpoints (negative).
    s = sc.service(ns, "mail", None, [], type_="ExternalName", external_name="smtp.example.net")
    sc.event(s, "Type", "ClusterIP -> ExternalName", type_="Normal", count=1, first=0, last=0,
             component="service-controller")
    return sc


def traffic_ingress_chain():
    sc = base("traffic-ingress-chain", "shop")
    ns = "shop"
    sc.ingress_class("nginx", "k8s.io/ingress-nginx", default=True)
    # web: both pods fail the readiness probe (503 and connection refused).
    we = container("web", "registry.example.com/shop/web:5.4.0", [("http", 8080)],
                   readiness=http_probe("/healthz", "http"))
    d, rs, labels = sc.deployment(ns, "web", {"app": "web"}, [we], replicas=2, ready=0)
    pods = []
    for i, (node, ip, msg) in enumerate([
            ("node-1", "10.244.1.110", "Readiness probe failed: HTTP probe failed with statuscode: 503"),
            ("node-2", "10.244.2.111",
             "Readiness probe failed: Get \"http://10.244.2.111:8080/healthz\": dial tcp 10.244.2.111:8080: connect: connection refused")]):
        p = sc.pod(ns, sc.pod_name(rs, i), labels, [we], owner=rs, node=node, ip=ip, started=40 * MIN,
                   statuses={"web": not_ready(38 * MIN)})
        sc.event(p, "Unhealthy", msg, count=228 - i, first=38 * MIN, last=i * 3,
                 field_path="spec.containers{web}")
        pods.append(p)
    s = sc.service(ns, "web", {"app": "web"}, [{"name": "http", "port": 80, "targetPort": "http",
                                                "protocol": "TCP"}], cluster_ip="10.96.80.10")
    sc.endpoint_slice(s, [(p, False, False, False) for p in pods], [{"name": "http", "port": 8080, "protocol": "TCP"}])
    # api: healthy (negative on the same Ingress).
    ap = container("api", "registry.example.com/shop/api:9.0.1", [("http", 8080)], readiness=http_probe("/ready", "http"))
    d, rs, labels = sc.deployment(ns, "api", {"app": "api"}, [ap], replicas=1)
    apod = sc.pod(ns, sc.pod_name(rs, 0), labels, [ap], owner=rs, node="node-1", ip="10.244.1.112")
    s = sc.service(ns, "api", {"app": "api"}, [{"name": "http", "port": 80, "targetPort": "http",
                                                "protocol": "TCP"}], cluster_ip="10.96.80.11")
    sc.endpoint_slice(s, [(apod, True, True, False)], [{"name": "http", "port": 8080, "protocol": "TCP"}])
    ing = sc.ingress(ns, "storefront", "nginx", [("shop.example.com", "/", "web", "http"),
                                                 ("shop.example.com", "/api", "api", 80)], address="203.0.113.10")
    sc.event(ing, "Sync", "Scheduled for sync", type_="Normal", count=12, first=20 * DAY, last=30,
             component="nginx-ingress-controller")
    return sc


def traffic_ingress_backends():
    sc = base("traffic-ingress-backends", "blog")
    ns = "blog"
    sc.ingress_class("nginx", "k8s.io/ingress-nginx")
    bl = container("blog", "registry.example.com/blog/blog:6.4.0", [("web", 8080)], readiness=http_probe("/", "web"))
    d, rs, labels = sc.deployment(ns, "blog", {"app": "blog"}, [bl], replicas=1)
    bp = sc.pod(ns, sc.pod_name(rs, 0), labels, [bl], owner=rs, node="node-1", ip="10.244.1.120")
    s = sc.service(ns, "blog", {"app": "blog"}, [{"name": "http", "port": 80, "targetPort": "web",
                                                  "protocol": "TCP"}], cluster_ip="10.96.90.10")
    sc.endpoint_slice(s, [(bp, True, True, False)], [{"name": "http", "port": 8080, "protocol": "TCP"}])
    # blog: /  → port 8080 (the targetPort, not the Service port); /static → a Service that does not exist.
    sc.ingress(ns, "blog", "nginx", [("blog.example.com", "/", "blog", 8080),
                                     ("blog.example.com", "/static", "static", 80)], address="203.0.113.20")
    # admin: class traefik is not installed; the port name is the targetPort's name.
    sc.ingress(ns, "admin", "traefik", [("admin.blog.example.com", "/", "blog", "web")])
    # docs: no class, no default class; its default backend's Service does not exist.
    sc.ingress(ns, "docs", None, [("docs.blog.example.com", "/", "blog", "http")], default=("docs-archive", 80))
    # wiki: default backend → Service wiki, whose selector has a typo (app=wikki).
    wk = container("wiki", "registry.example.com/blog/wiki:1.41.0", [("http", 8080)])
    d, rs, labels = sc.deployment(ns, "wiki", {"app": "wiki"}, [wk], replicas=1)
    sc.pod(ns, sc.pod_name(rs, 0), labels, [wk], owner=rs, node="node-2", ip="10.244.2.121")
    s = sc.service(ns, "wiki", {"app": "wikki"}, [{"name": "http", "port": 80, "targetPort": "http",
                                                   "protocol": "TCP"}], cluster_ip="10.96.90.11")
    sc.endpoint_slice(s, [], [])
    ing = sc.ingress(ns, "wiki", "nginx", [], default=("wiki", "http"), address="203.0.113.21")
    ing["spec"].pop("rules")
    # home: healthy (negative).
    ho = container("home", "registry.example.com/blog/home:1.0.0", [("http", 8080)])
    d, rs, labels = sc.deployment(ns, "home", {"app": "home"}, [ho], replicas=1)
    hp = sc.pod(ns, sc.pod_name(rs, 0), labels, [ho], owner=rs, node="node-1", ip="10.244.1.122")
    s = sc.service(ns, "home", {"app": "home"}, [{"name": "http", "port": 80, "targetPort": "http",
                                                  "protocol": "TCP"}], cluster_ip="10.96.90.12")
    sc.endpoint_slice(s, [(hp, True, True, False)], [{"name": "http", "port": 8080, "protocol": "TCP"}])
    # legacy: class by the deprecated annotation only, no such IngressClass (info).
    sc.ingress(ns, "legacy", None, [("old.blog.example.com", "/", "home", "http")],
               annotations={"kubernetes.io/ingress.class": "nginx-internal"})
    ing = sc.ingress(ns, "home", "nginx", [("blog.example.com", "/home", "home", "http")], address="203.0.113.20")
    sc.event(ing, "Sync", "Scheduled for sync", type_="Normal", count=3, first=20 * DAY, last=0,
             component="nginx-ingress-controller")
    return sc


def traffic_legacy_endpoints():
    sc = base("traffic-legacy-endpoints", "legacy")
    ns = "legacy"
    iv = container("inventory", "registry.example.com/legacy/inventory:3.0.0", [("http", 8080)],
                   readiness=http_probe("/ready", "http"))
    d, rs, labels = sc.deployment(ns, "inventory", {"app": "inventory"}, [iv], replicas=1, ready=0)
    p = sc.pod(ns, sc.pod_name(rs, 0), labels, [iv], owner=rs, node="node-1", ip="10.244.1.130", started=30 * MIN,
               statuses={"inventory": not_ready(29 * MIN)})
    sc.event(p, "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 502", count=174,
             first=29 * MIN, last=0, field_path="spec.containers{inventory}")
    s = sc.service(ns, "inventory", {"app": "inventory"}, [{"name": "http", "port": 80, "targetPort": "http",
                                                            "protocol": "TCP"}], cluster_ip="10.96.100.10")
    sc.endpoints(s, [], [p], [{"name": "http", "port": 8080, "protocol": "TCP"}])
    # catalog: healthy (negative).
    ct = container("catalog", "registry.example.com/legacy/catalog:2.1.0", [("http", 8080)],
                   readiness=http_probe("/ready", "http"))
    d, rs, labels = sc.deployment(ns, "catalog", {"app": "catalog"}, [ct], replicas=1)
    cp = sc.pod(ns, sc.pod_name(rs, 0), labels, [ct], owner=rs, node="node-2", ip="10.244.2.131")
    s = sc.service(ns, "catalog", {"app": "catalog"}, [{"name": "http", "port": 80, "targetPort": "http",
                                                        "protocol": "TCP"}], cluster_ip="10.96.100.11")
    sc.endpoints(s, [cp], [], [{"name": "http", "port": 8080, "protocol": "TCP"}])
    return sc


def traffic_no_endpoint_data():
    sc = base("traffic-no-endpoint-data", "quiet")
    ns = "quiet"
    wa = container("worker-api", "registry.example.com/quiet/worker-api:1.5.0", [("http", 8080)],
                   readiness=tcp_probe("http"))
    d, rs, labels = sc.deployment(ns, "worker-api", {"app": "worker-api"}, [wa], replicas=1, ready=0)
    p = sc.pod(ns, sc.pod_name(rs, 0), labels, [wa], owner=rs, node="node-1", ip="10.244.1.140", started=15 * MIN,
               statuses={"worker-api": not_ready(15 * MIN)})
    sc.event(p, "Unhealthy", "Readiness probe failed: dial tcp 10.244.1.140:8080: connect: connection refused",
             count=88, first=15 * MIN, last=0, field_path="spec.containers{worker-api}")
    sc.service(ns, "worker-api", {"app": "worker-api"}, [{"name": "http", "port": 80, "targetPort": "http",
                                                          "protocol": "TCP"}], cluster_ip="10.96.110.10")
    # ops: no selector; without EndpointSlices or Endpoints nothing can be said (negative).
    sc.service(ns, "ops", None, [{"name": "http", "port": 80, "targetPort": 8080, "protocol": "TCP"}],
               cluster_ip="10.96.110.11")
    return sc


def traffic_publish_not_ready():
    sc = base("traffic-publish-not-ready", "db")
    ns = "db"
    pg = container("postgres", "registry.example.com/db/postgres:16.4", [("postgres", 5432)],
                   readiness=exec_probe(["pg_isready", "-U", "postgres"], period=10, timeout=5))
    sts = sc.statefulset(ns, "pg", {"app": "pg"}, [pg], replicas=2, ready=0, service_name="pg-headless")
    pods = []
    for i, (node, ip) in enumerate([("node-1", "10.244.1.150"), ("node-2", "10.244.2.151")]):
        p = sc.pod(ns, "pg-%d" % i, {"app": "pg", "apps.kubernetes.io/pod-index": str(i),
                                     "statefulset.kubernetes.io/pod-name": "pg-%d" % i}, [pg], owner=sts,
                   node=node, ip=ip, started=12 * MIN, statuses={"postgres": not_ready(12 * MIN)})
        sc.event(p, "Unhealthy", "Readiness probe failed: /var/run/postgresql:5432 - rejecting connections",
                 count=70 + i, first=12 * MIN, last=i * 4, field_path="spec.containers{postgres}")
        pods.append(p)
    # Headless, publishNotReadyAddresses: peers find each other while not Ready (negative).
    s = sc.service(ns, "pg-headless", {"app": "pg"}, [{"name": "postgres", "port": 5432, "targetPort": "postgres",
                                                       "protocol": "TCP"}], cluster_ip="None", publish=True)
    sc.endpoint_slice(s, [(p, True, False, False) for p in pods],
                      [{"name": "postgres", "port": 5432, "protocol": "TCP"}])
    # ClusterIP with publishNotReadyAddresses (negative).
    s = sc.service(ns, "pg-peers", {"app": "pg"}, [{"name": "postgres", "port": 5432, "targetPort": "postgres",
                                                    "protocol": "TCP"}], cluster_ip="10.96.120.11", publish=True)
    sc.endpoint_slice(s, [(p, True, False, False) for p in pods],
                      [{"name": "postgres", "port": 5432, "protocol": "TCP"}])
    # The clients' Service does not publish unready pods: it has no ready endpoint.
    s = sc.service(ns, "pg", {"app": "pg"}, [{"name": "postgres", "port": 5432, "targetPort": "postgres",
                                              "protocol": "TCP"}], cluster_ip="10.96.120.10")
    sc.endpoint_slice(s, [(p, False, False, False) for p in pods],
                      [{"name": "postgres", "port": 5432, "protocol": "TCP"}])
    return sc


def traffic_healthy():
    sc = base("traffic-healthy", "prod")
    ns = "prod"
    sc.ingress_class("nginx", "k8s.io/ingress-nginx", default=True)
    fe = container("frontend", "registry.example.com/prod/frontend:12.0.0", [("http", 8080), ("metrics", 9090)],
                   readiness=http_probe("/ready", "http"), liveness=http_probe("/live", "http", period=20),
                   startup=http_probe("/started", "http", failure=30))
    d, rs, labels = sc.deployment(ns, "frontend", {"app": "frontend"}, [fe], replicas=2)
    pods = [sc.pod(ns, sc.pod_name(rs, i), labels, [fe], owner=rs, node=n, ip=ip)
            for i, (n, ip) in enumerate([("node-1", "10.244.1.160"), ("node-2", "10.244.2.161")])]
    s = sc.service(ns, "frontend", {"app": "frontend"}, [
        {"name": "http", "port": 80, "targetPort": "http", "protocol": "TCP"},
        {"name": "metrics", "port": 9090, "targetPort": 9090, "protocol": "TCP"}], cluster_ip="10.96.130.10")
    sc.endpoint_slice(s, [(p, True, True, False) for p in pods], [
        {"name": "http", "port": 8080, "protocol": "TCP"}, {"name": "metrics", "port": 9090, "protocol": "TCP"}])
    ing = sc.ingress(ns, "frontend", None, [("www.example.com", "/", "frontend", "http")],
                     default=("frontend", 80), address="203.0.113.30")
    sc.event(ing, "Sync", "Scheduled for sync", type_="Normal", count=5, first=20 * DAY, last=0,
             component="nginx-ingress-controller")
    # cache: StatefulSet behind a headless Service without ports.
    ch = container("cache", "registry.example.com/prod/redis:7.4.1", [("redis", 6379)],
                   readiness=exec_probe(["redis-cli", "ping"]))
    sts = sc.statefulset(ns, "cache", {"app": "cache"}, [ch], replicas=1, ready=1, service_name="cache")
    cp = sc.pod(ns, "cache-0", {"app": "cache", "apps.kubernetes.io/pod-index": "0",
                                "statefulset.kubernetes.io/pod-name": "cache-0"}, [ch], owner=sts,
                node="node-2", ip="10.244.2.162")
    s = sc.service(ns, "cache", {"app": "cache"}, [], cluster_ip="None")
    sc.endpoint_slice(s, [(cp, True, True, False)], [])
    # dns: UDP and TCP ports, both named, both declared.
    dn = container("dns", "registry.example.com/prod/coredns:1.11.3", [("dns", 53, "UDP"), ("dns-tcp", 53, "TCP")])
    d, rs, labels = sc.deployment(ns, "dns", {"app": "dns"}, [dn], replicas=1)
    dp = sc.pod(ns, sc.pod_name(rs, 0), labels, [dn], owner=rs, node="node-1", ip="10.244.1.163")
    s = sc.service(ns, "dns", {"app": "dns"}, [
        {"name": "dns", "port": 53, "targetPort": "dns", "protocol": "UDP"},
        {"name": "dns-tcp", "port": 53, "targetPort": "dns-tcp", "protocol": "TCP"}], cluster_ip="10.96.130.11")
    sc.endpoint_slice(s, [(dp, True, True, False)], [
        {"name": "dns", "port": 53, "protocol": "UDP"}, {"name": "dns-tcp", "port": 53, "protocol": "TCP"}])
    # ExternalName and a selectorless Service with a hand-made EndpointSlice.
    sc.service(ns, "payments-gw", None, [], type_="ExternalName", external_name="api.payments.example.net")
    s = sc.service(ns, "billing-db", None, [{"name": "postgres", "port": 5432, "targetPort": 5432,
                                             "protocol": "TCP"}], cluster_ip="10.96.130.12")
    sl = sc.endpoint_slice(s, [], [{"name": "postgres", "port": 5432, "protocol": "TCP"}], managed_by="staff",
                           suffix="manual", owned=False)
    sl["endpoints"] = [{"addresses": ["192.168.60.5"]}]
    return sc


SCENARIOS = [
    readiness_probe_failing, readiness_probe_port, readiness_startup, readiness_gates,
    traffic_selector, traffic_no_ready, traffic_ports, traffic_selectorless, traffic_ingress_chain,
    traffic_ingress_backends, traffic_legacy_endpoints, traffic_no_endpoint_data, traffic_publish_not_ready,
    traffic_healthy,
]


def build():
    out = {}
    for f in SCENARIOS:
        sc = f()
        out[sc.name + ".yaml"] = sc.text()
    return out


def main(argv):
    return write_or_check(build(), HERE, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

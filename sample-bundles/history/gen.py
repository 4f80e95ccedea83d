#!/usr/bin/env python3
"""Build the history sample bundles (kubectl `kind: List` YAML files).

    python3 sample-bundles/history/gen.py           # (re)write every bundle here
    python3 sample-bundles/history/gen.py --check   # fail if a file differs from a fresh build

They show failures that a later success superseded, Services nobody uses, objects created
seconds before the snapshot, kinds a bundle does not hold, and the kubelet's own word that
a pull secret is missing; each scenario comes with a control bundle where the problem is
real. Python 3 standard library only; the YAML is written by the kubectl-style emitter of
../build.py. Deterministic: UIDs come from SHA-256 of scenario/kind/namespace/name, every
timestamp is fixed and no later than the snapshot time below (the newest timestamp of each
file is an event at AS_OF, which kdiag takes as the snapshot time of a List).
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
MIN, HOUR, DAY = 60, 3600, 86400
ALNUM = "bcdfghjklmnpqrstvwxz2456789"


def sc_hash(name):
    return hashlib.sha256(name.encode()).hexdigest()[:4]


def ts(seconds_before):
    """RFC 3339 time `seconds_before` the snapshot."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(AS_OF_EPOCH - seconds_before))


class Scenario:
    def __init__(self, name):
        self.name = name
        self.items = []
        self.rv = 2_000_000

    def uid(self, kind, ns, name):
        h = hashlib.sha256(("%s/%s/%s/%s" % (self.name, kind, ns or "", name)).encode()).hexdigest()
        return "%s-%s-4%s-%s%s-%s" % (h[:8], h[8:12], h[13:16], "89ab"[int(h[16], 16) % 4], h[17:20], h[20:32])

    def hexid(self, *parts):
        return hashlib.sha256(("%s/%s" % (self.name, "/".join(parts))).encode()).hexdigest()

    def suffix(self, n, *parts):
        h = self.hexid(*parts)
        return "".join(ALNUM[int(h[i:i + 2], 16) % 27] for i in range(0, 2 * n, 2))

    def add(self, obj):
        self.rv += 137
        obj["metadata"]["resourceVersion"] = str(self.rv)
        self.items.append(obj)
        return obj

    def meta(self, kind, ns, name, created, labels=None, owner=None, annotations=None, controller=True, **extra):
        m = {"name": name, "uid": self.uid(kind, ns, name), "creationTimestamp": ts(created)}
        if ns is not None:
            m["namespace"] = ns
        if labels:
            m["labels"] = dict(labels)
        if annotations:
            m["annotations"] = dict(annotations)
        if owner is not None:
            ref = {"apiVersion": owner["apiVersion"], "kind": owner["kind"],
                   "name": owner["metadata"]["name"], "uid": owner["metadata"]["uid"]}
            if controller:
                ref.update({"controller": True, "blockOwnerDeletion": True})
            m["ownerReferences"] = [ref]
        m.update(extra)
        return m

    # -- cluster -------------------------------------------------------------------

    def namespace(self, name):
        return self.add({"apiVersion": "v1", "kind": "Namespace",
                         "metadata": self.meta("Namespace", None, name, 90 * DAY,
                                               labels={"kubernetes.io/metadata.name": name}),
                         "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}})

    def node(self, name, zone, role="worker", ip="10.0.1.23"):
        labels = {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
                  "topology.kubernetes.io/zone": zone, "node-role.kubernetes.io/%s" % role: ""}
        return self.add({"apiVersion": "v1", "kind": "Node",
                         "metadata": self.meta("Node", None, name, 120 * DAY, labels=labels),
                         "spec": {"podCIDR": "10.128.%d.0/23" % (2 * (int(sc_hash(name), 16) % 64))},
                         "status": {
                             "addresses": [{"address": ip, "type": "InternalIP"},
                                           {"address": name, "type": "Hostname"}],
                             "allocatable": {"cpu": "7500m", "memory": "30Gi", "pods": "250"},
                             "capacity": {"cpu": "8", "memory": "32Gi", "pods": "250"},
                             "conditions": [
                                 {"type": "MemoryPressure", "status": "False", "reason": "KubeletHasSufficientMemory",
                                  "message": "kubelet has sufficient memory available",
                                  "lastHeartbeatTime": ts(2 * MIN), "lastTransitionTime": ts(120 * DAY)},
                                 {"type": "DiskPressure", "status": "False", "reason": "KubeletHasNoDiskPressure",
                                  "message": "kubelet has no disk pressure",
                                  "lastHeartbeatTime": ts(2 * MIN), "lastTransitionTime": ts(120 * DAY)},
                                 {"type": "PIDPressure", "status": "False", "reason": "KubeletHasSufficientPID",
                                  "message": "kubelet has sufficient PID available",
                                  "lastHeartbeatTime": ts(2 * MIN), "lastTransitionTime": ts(120 * DAY)},
                                 {"type": "Ready", "status": "True", "reason": "KubeletReady",
                                  "message": "kubelet is posting ready status",
                                  "lastHeartbeatTime": ts(2 * MIN), "lastTransitionTime": ts(120 * DAY)}],
                             "nodeInfo": {"kubeletVersion": KUBELET, "containerRuntimeVersion": "cri-o://1.31.2",
                                          "osImage": "Red Hat Enterprise Linux CoreOS 418.94", "architecture": "amd64",
                                          "operatingSystem": "linux"}}})

    def config_map(self, ns, name, data, created, owner=None):
        return self.add({"apiVersion": "v1", "kind": "ConfigMap", "data": data,
                         "metadata": self.meta("ConfigMap", ns, name, created, owner=owner, controller=False)})

    # -- pods ----------------------------------------------------------------------

    def pod(self, ns, name, labels, image, owner=None, node=None, created=DAY, phase="Running",
            exit_code=None, ran=8, restart_policy="Always", waiting=None, controller=True, args=None,
            message=None, annotations=None, pull_secrets=None, ip="10.128.2.17"):
        """A pod with one container. phase Running (ready), Succeeded or Failed (the container
        terminated `ran` seconds after creation with `exit_code`), or Pending (`waiting` is
        (reason, message), or None before the kubelet reported anything)."""
        cname = name.split("-")[0] if owner is None or owner["kind"] == "ConfigMap" else labels.get("app", "main")
        if owner is not None and owner["kind"] == "ConfigMap":
            cname = labels["app"]
        c = {"name": cname, "image": image, "imagePullPolicy": "IfNotPresent",
             "resources": {"requests": {"cpu": "100m", "memory": "200Mi"}},
             "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "FallbackToLogsOnError"}
        if args:
            c["args"] = list(args)
        spec = {"containers": [c], "restartPolicy": restart_policy, "terminationGracePeriodSeconds": 30,
                "dnsPolicy": "ClusterFirst", "serviceAccountName": "default", "schedulerName": "default-scheduler",
                "enableServiceLinks": True, "preemptionPolicy": "PreemptLowerPriority", "priority": 0,
                "tolerations": [{"effect": "NoExecute", "key": "node.kubernetes.io/not-ready",
                                 "operator": "Exists", "tolerationSeconds": 300},
                                {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable",
                                 "operator": "Exists", "tolerationSeconds": 300}]}
        if pull_secrets:
            spec["imagePullSecrets"] = [{"name": s} for s in pull_secrets]
        start = ts(created - 1)
        cs = {"name": cname, "image": image, "ready": False, "restartCount": 0, "started": False,
              "imageID": "" if waiting or phase == "Pending" else
              "%s@sha256:%s" % (image.split(":")[0].split("@")[0], self.hexid("img", image))}
        conds = []
        status = {"phase": phase, "qosClass": "Burstable"}
        if node:
            spec["nodeName"] = node
        if phase in ("Succeeded", "Failed"):
            done = ts(created - 1 - ran)
            term = {"containerID": "cri-o://" + self.hexid("ctr", ns, name), "exitCode": exit_code,
                    "reason": "Completed" if exit_code == 0 else "Error",
                    "startedAt": ts(created - 2), "finishedAt": done}
            if message:
                term["message"] = message
            cs.update({"state": {"terminated": term}, "lastState": {},
                       "containerID": term["containerID"]})
            reason = "PodCompleted" if phase == "Succeeded" else "PodFailed"
            conds = [
                {"type": "PodReadyToStartContainers", "status": "False", "lastProbeTime": None,
                 "lastTransitionTime": done},
                {"type": "Initialized", "status": "True", "lastProbeTime": None, "lastTransitionTime": start},
                {"type": "Ready", "status": "False", "reason": reason, "lastProbeTime": None,
                 "lastTransitionTime": done},
                {"type": "ContainersReady", "status": "False", "reason": reason, "lastProbeTime": None,
                 "lastTransitionTime": done},
                {"type": "PodScheduled", "status": "True", "lastProbeTime": None, "lastTransitionTime": start}]
        elif phase == "Running":
            cs.update({"ready": True, "started": True, "lastState": {},
                       "containerID": "cri-o://" + self.hexid("ctr", ns, name),
                       "state": {"running": {"startedAt": ts(created - 2)}}})
            conds = [
                {"type": "PodReadyToStartContainers", "status": "True", "lastProbeTime": None,
                 "lastTransitionTime": start},
                {"type": "Initialized", "status": "True", "lastProbeTime": None, "lastTransitionTime": start},
                {"type": "Ready", "status": "True", "lastProbeTime": None, "lastTransitionTime": ts(created - 3)},
                {"type": "ContainersReady", "status": "True", "lastProbeTime": None,
                 "lastTransitionTime": ts(created - 3)},
                {"type": "PodScheduled", "status": "True", "lastProbeTime": None, "lastTransitionTime": start}]
        else:  # Pending on a node
            cs.update({"lastState": {}, "state": {"waiting": {"reason": waiting[0]} if waiting
                                                  else {"reason": "ContainerCreating"}}})
            if waiting and waiting[1]:
                cs["state"]["waiting"]["message"] = waiting[1]
            conds = [
                {"type": "PodReadyToStartContainers", "status": "False" if not waiting else "True",
                 "lastProbeTime": None, "lastTransitionTime": start},
                {"type": "Initialized", "status": "True", "lastProbeTime": None, "lastTransitionTime": start},
                {"type": "Ready", "status": "False", "reason": "ContainersNotReady",
                 "message": "containers with unready status: [%s]" % cname, "lastProbeTime": None,
                 "lastTransitionTime": start},
                {"type": "ContainersReady", "status": "False", "reason": "ContainersNotReady",
                 "message": "containers with unready status: [%s]" % cname, "lastProbeTime": None,
                 "lastTransitionTime": start},
                {"type": "PodScheduled", "status": "True", "lastProbeTime": None, "lastTransitionTime": start}]
        status["conditions"] = conds
        if node:
            status.update({"hostIP": "10.0.1.23", "hostIPs": [{"ip": "10.0.1.23"}], "startTime": start,
                           "containerStatuses": [cs]})
            if phase != "Pending":
                status.update({"podIP": ip, "podIPs": [{"ip": ip}]})
        md = self.meta("Pod", ns, name, created, labels=labels, owner=owner, annotations=annotations,
                       controller=controller)
        if owner is not None and owner["kind"] not in ("ConfigMap", "Node"):
            md["generateName"] = owner["metadata"]["name"] + "-"
        return self.add({"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": spec, "status": status})

    def event(self, obj, reason, message, type_="Warning", count=1, first=None, last=0, component="kubelet",
              field_path=None, host=None):
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
        host = host or (obj.get("spec", {}).get("nodeName") if obj["kind"] == "Pod" else None)
        src = {"component": component}
        if host:
            src["host"] = host
        name = "%s.%x" % (md["name"], nanos)
        return self.add({"apiVersion": "v1", "kind": "Event",
                         "metadata": {"name": name, "namespace": md.get("namespace", "default"),
                                      "uid": self.uid("Event", md.get("namespace"), name),
                                      "creationTimestamp": ts(first)},
                         "involvedObject": io_, "reason": reason, "message": message, "type": type_,
                         "count": count, "firstTimestamp": ts(first), "lastTimestamp": ts(last), "source": src,
                         "reportingComponent": component, "reportingInstance": host or "",
                         "eventTime": None, "action": ""})

    # -- workloads -----------------------------------------------------------------

    def job(self, ns, name, created, succeeded, failed, complete_after=None, backoff_limit=6, owner=None,
            failed_condition=None, active=0):
        spec = {"backoffLimit": backoff_limit, "completionMode": "NonIndexed", "completions": 1,
                "manualSelector": False, "parallelism": 1, "podReplacementPolicy": "TerminatingOrFailed",
                "suspend": False,
                "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": self.uid("Job", ns, name)}},
                "template": {"metadata": {"labels": {"batch.kubernetes.io/job-name": name, "job-name": name}},
                             "spec": {"containers": [{"name": name, "image": "quay.io/acme/%s:1.4.0" % name}],
                                      "restartPolicy": "Never"}}}
        status = {"startTime": ts(created), "failed": failed, "ready": 0, "terminating": 0,
                  "uncountedTerminatedPods": {}}
        if active:
            status["active"] = active
        if succeeded:
            status["succeeded"] = succeeded
        if complete_after is not None:
            done = ts(created - complete_after)
            status["completionTime"] = done
            status["conditions"] = [
                {"type": "SuccessCriteriaMet", "status": "True", "reason": "CompletionsReached",
                 "message": "Reached expected number of succeeded pods", "lastProbeTime": done,
                 "lastTransitionTime": done},
                {"type": "Complete", "status": "True", "reason": "CompletionsReached",
                 "message": "Reached expected number of succeeded pods", "lastProbeTime": done,
                 "lastTransitionTime": done}]
        if failed_condition is not None:
            at = ts(failed_condition)
            status["conditions"] = [
                {"type": "FailureTarget", "status": "True", "reason": "BackoffLimitExceeded",
                 "message": "Job has reached the specified backoff limit", "lastProbeTime": at,
                 "lastTransitionTime": at},
                {"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded",
                 "message": "Job has reached the specified backoff limit", "lastProbeTime": at,
                 "lastTransitionTime": at}]
        return self.add({"apiVersion": "batch/v1", "kind": "Job",
                         "metadata": self.meta("Job", ns, name, created, owner=owner,
                                               labels={"app": name}),
                         "spec": spec, "status": status})

    def job_pod(self, job, created, phase, exit_code, node, ran=20, message=None):
        ns, name = job["metadata"]["namespace"], job["metadata"]["name"]
        juid = job["metadata"]["uid"]
        labels = {"batch.kubernetes.io/controller-uid": juid, "batch.kubernetes.io/job-name": name,
                  "controller-uid": juid, "job-name": name, "app": name}
        pname = "%s-%s" % (name, self.suffix(5, "pod", name, str(created)))
        return self.pod(ns, pname, labels, "quay.io/acme/%s:1.4.0" % name, owner=job, node=node,
                        created=created, phase=phase, exit_code=exit_code, ran=ran, restart_policy="Never",
                        message=message)

    def deployment(self, ns, name, replicas, ready, created=30 * DAY, labels=None, image=None):
        labels = labels or {"app": name}
        image = image or "quay.io/acme/%s:2.1.0" % name
        tmpl = {"metadata": {"labels": dict(labels)},
                "spec": {"containers": [{"name": name, "image": image}], "restartPolicy": "Always"}}
        status = {"replicas": replicas, "updatedReplicas": replicas, "observedGeneration": 1}
        if ready:
            status.update({"readyReplicas": ready, "availableReplicas": ready})
        else:
            status["unavailableReplicas"] = replicas
        d = self.add({"apiVersion": "apps/v1", "kind": "Deployment",
                      "metadata": self.meta("Deployment", ns, name, created, labels=labels),
                      "spec": {"replicas": replicas, "selector": {"matchLabels": dict(labels)},
                               "template": tmpl, "revisionHistoryLimit": 10,
                               "strategy": {"type": "RollingUpdate",
                                            "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}},
                      "status": status})
        pth = self.suffix(10, "rs", ns, name)
        rs_labels = dict(labels, **{"pod-template-hash": pth})
        rs_status = {"replicas": replicas, "fullyLabeledReplicas": replicas, "observedGeneration": 1}
        if ready:
            rs_status.update({"readyReplicas": ready, "availableReplicas": ready})
        rs = self.add({"apiVersion": "apps/v1", "kind": "ReplicaSet",
                       "metadata": self.meta("ReplicaSet", ns, "%s-%s" % (name, pth), created,
                                             labels=rs_labels, owner=d),
                       "spec": {"replicas": replicas, "selector": {"matchLabels": dict(rs_labels)},
                                "template": dict(tmpl, metadata={"labels": dict(rs_labels)})},
                       "status": rs_status})
        return d, rs, rs_labels, image

    def rs_pod(self, rs, labels, image, i, **kw):
        name = "%s-%s" % (rs["metadata"]["name"], self.suffix(5, "pod", rs["metadata"]["name"], str(i)))
        return self.pod(rs["metadata"]["namespace"], name, labels, image, owner=rs, **kw)

    def service(self, ns, name, selector, port, target, cluster_ip, annotations=None, labels=None):
        return self.add({"apiVersion": "v1", "kind": "Service",
                         "metadata": self.meta("Service", ns, name, 60 * DAY, labels=labels or {"app": name},
                                               annotations=annotations),
                         "spec": {"clusterIP": cluster_ip, "clusterIPs": [cluster_ip],
                                  "internalTrafficPolicy": "Cluster", "ipFamilies": ["IPv4"],
                                  "ipFamilyPolicy": "SingleStack",
                                  "ports": [{"name": "https", "port": port, "protocol": "TCP",
                                             "targetPort": target}],
                                  "selector": dict(selector), "sessionAffinity": "None", "type": "ClusterIP"},
                         "status": {"loadBalancer": {}}})

    def empty_slice(self, svc):
        ns, name = svc["metadata"]["namespace"], svc["metadata"]["name"]
        return self.add({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
                         "metadata": self.meta("EndpointSlice", ns, "%s-%s" % (name, self.suffix(5, "sl", name)),
                                               60 * DAY, owner=svc, generateName=name + "-",
                                               labels={"endpointslice.kubernetes.io/managed-by":
                                                       "endpointslice-controller.k8s.io",
                                                       "kubernetes.io/service-name": name}),
                         "addressType": "IPv4", "endpoints": None,
                         "ports": [{"name": "https", "port": svc["spec"]["ports"][0]["targetPort"]
                                    if isinstance(svc["spec"]["ports"][0]["targetPort"], int) else None,
                                    "protocol": "TCP"}]})

    def text(self):
        order = ["Namespace", "Node", "Infrastructure", "ClusterOperator", "KubeAPIServer", "APIService",
                 "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration", "ConfigMap", "Secret", "Pod",
                 "Event", "Service", "EndpointSlice", "Route", "Deployment", "ReplicaSet", "Job"]
        items = sorted(self.items, key=lambda o: (order.index(o["kind"]), o["metadata"].get("namespace", ""),
                                                  o["metadata"]["name"]))
        for o in items:
            assert o["metadata"]["creationTimestamp"] <= AS_OF, (self.name, o["metadata"]["name"])
        return to_yaml({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}},
                       sort_keys=True, width=80)


# ---------------------------------------------------------------------------------
# OpenShift static-pod operators (library-go's installer controller)
# ---------------------------------------------------------------------------------

MASTERS = [("ip-10-0-1-23.ec2.internal", "us-east-1a", "10.0.1.23"),
           ("ip-10-0-2-45.ec2.internal", "us-east-1b", "10.0.2.45"),
           ("ip-10-0-3-67.ec2.internal", "us-east-1c", "10.0.3.67")]
OCP_IMAGE = "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:7581e70b16f8265b920f9e36d7994fc9634361a00abc588335ef4b25a649f555"
INSTALLER_FAILURE = (
    "I1120 07:02:11.482113       1 cmd.go:93] &{<nil> true {false} installer true map[cert-configmaps:0xc000a1e3c0 "
    "configmaps:0xc000a1e280 namespace:0xc000a1e0a0 pod:0xc000a1e140 revision:0xc000a1e000]}\n"
    "F1120 07:02:41.533290       1 cmd.go:106] failed to copy: timed out waiting for the condition")


def masters(sc):
    for name, zone, ip in MASTERS:
        sc.node(name, zone, role="master", ip=ip)


def revision_status(sc, ns, revision, created, status="Succeeded"):
    return sc.config_map(ns, "revision-status-%d" % revision,
                         {"reason": "configmap/config has changed", "revision": str(revision), "status": status},
                         created)


def installer(sc, ns, owner, revision, node, created, phase, retry=0, pruner=False):
    """`installer-N[-retry-M]-NODE` (or `revision-pruner-N-NODE`), owned by revision-status-N."""
    if pruner:
        name, app = "revision-pruner-%d-%s" % (revision, node), "pruner"
        args = ["-v=4", "--max-eligible-revision=%d" % revision, "--protected-revisions=%s" %
                ",".join(str(r) for r in range(max(1, revision - 4), revision + 1)),
                "--resource-dir=/etc/kubernetes/static-pod-resources", "--cert-dir=kube-apiserver-certs",
                "--static-pod-name=kube-apiserver-pod"]
    else:
        name = "installer-%d-%s%s" % (revision, "retry-%d-" % retry if retry else "", node)
        app = "installer"
        args = ["-v=2", "--revision=%d" % revision, "--namespace=%s" % ns, "--pod=kube-apiserver-pod",
                "--resource-dir=/etc/kubernetes/static-pod-resources", "--pod-manifest-dir=/etc/kubernetes/manifests"]
    failed = phase == "Failed"
    return sc.pod(ns, name, {"app": app}, OCP_IMAGE, owner=owner, node=node, created=created, phase=phase,
                  exit_code=1 if failed else 0, ran=30 if failed else 10, restart_policy="Never",
                  controller=False, args=args, message=INSTALLER_FAILURE if failed else None,
                  annotations={"k8s.v1.cni.cncf.io/network-status": "[]"})


def static_pod(sc, ns, node, revision, created):
    """The mirror pod of kube-apiserver on `node`, labelled with the revision it runs."""
    n = sc.items and next(o for o in sc.items if o["kind"] == "Node" and o["metadata"]["name"] == node)
    p = sc.pod(ns, "kube-apiserver-%s" % node, {"apiserver": "true", "app": "openshift-kube-apiserver",
                                                 "revision": str(revision)},
               OCP_IMAGE, owner=n, node=node, created=created,
               annotations={"kubernetes.io/config.source": "file",
                            "kubernetes.io/config.hash": sc.hexid("hash", node)[:32],
                            "kubernetes.io/config.mirror": sc.hexid("hash", node)[:32],
                            "kubernetes.io/config.seen": ts(created + 9)})
    p["spec"]["priorityClassName"] = "system-node-critical"
    p["spec"]["priority"] = 2000001000
    return p


def kube_apiserver_operator(sc, node_statuses, latest):
    statuses = []
    for node, current, extra in node_statuses:
        s = {"nodeName": node, "currentRevision": current}
        s.update(extra)
        statuses.append(s)
    return sc.add({"apiVersion": "operator.openshift.io/v1", "kind": "KubeAPIServer",
                   "metadata": sc.meta("KubeAPIServer", None, "cluster", 120 * DAY,
                                       annotations={"include.release.openshift.io/self-managed-high-availability":
                                                    "true"}),
                   "spec": {"logLevel": "Normal", "managementState": "Managed", "operatorLogLevel": "Normal"},
                   "status": {"latestAvailableRevision": latest, "latestAvailableRevisionReason": "",
                              "nodeStatuses": statuses, "readyReplicas": 0,
                              "conditions": [{"type": "NodeInstallerDegraded", "status": "False",
                                              "reason": "AsExpected", "lastTransitionTime": ts(3 * HOUR)}]}})


def history_superseded():
    """Failures that later successes superseded: every one is `info`, saying what superseded it."""
    sc = Scenario("history-superseded")
    ns = "openshift-kube-apiserver"
    for n in (ns, "apps"):
        sc.namespace(n)
    masters(sc)
    (a, _, _), (b, _, _), (c, _, _) = MASTERS
    rs = {r: revision_status(sc, ns, r, created) for r, created in ((5, 6 * HOUR), (6, 5 * HOUR), (7, 4 * HOUR))}
    # Node a: installer-6 failed twice, its second retry succeeded, then revision 7 installed.
    installer(sc, ns, rs[6], 6, a, 5 * HOUR - 60, "Failed")
    installer(sc, ns, rs[6], 6, a, 5 * HOUR - 180, "Failed", retry=1)
    installer(sc, ns, rs[6], 6, a, 5 * HOUR - 360, "Succeeded", retry=2)
    installer(sc, ns, rs[7], 7, a, 4 * HOUR - 60, "Succeeded")
    # Node b: installer-6 failed, installer-7 on the same node succeeded; a pruner likewise.
    installer(sc, ns, rs[6], 6, b, 5 * HOUR - 90, "Failed")
    installer(sc, ns, rs[7], 7, b, 4 * HOUR - 120, "Succeeded")
    installer(sc, ns, rs[6], 6, b, 5 * HOUR - 120, "Failed", pruner=True)
    installer(sc, ns, rs[7], 7, b, 4 * HOUR - 150, "Succeeded", pruner=True)
    # Node c: installer-7 failed and no later installer pod is left, but the static pod runs revision 7.
    installer(sc, ns, rs[7], 7, c, 4 * HOUR - 180, "Failed")
    installer(sc, ns, rs[5], 5, c, 6 * HOUR - 60, "Succeeded")
    for node in (a, b, c):
        static_pod(sc, ns, node, 7, 4 * HOUR - 600)
    kube_apiserver_operator(sc, [(a, 7, {}), (b, 7, {}), (c, 7, {})], 7)
    # A Job whose first pod failed and whose retry succeeded.
    job = sc.job("apps", "web-migrate", 2 * HOUR, succeeded=1, failed=1, complete_after=95)
    first = sc.job_pod(job, 2 * HOUR - 1, "Failed", 1, a, ran=20,
                       message="psql: error: connection to server at \"db.apps.svc\" (172.30.41.7), port 5432 "
                               "failed: Connection refused")
    sc.job_pod(job, 2 * HOUR - 40, "Succeeded", 0, b, ran=50)
    sc.event(job, "Completed", "Job completed", type_="Normal", last=2 * HOUR - 95, component="job-controller")
    # A Deployment at its desired ready replicas, with a pod the node shutdown terminated.
    d, r, labels, image = sc.deployment("apps", "api", 2, 2)
    sc.rs_pod(r, labels, image, 0, node=a, created=3 * HOUR)
    sc.rs_pod(r, labels, image, 1, node=b, created=3 * HOUR)
    gone = sc.rs_pod(r, labels, image, 2, node=c, created=5 * HOUR, phase="Failed", exit_code=137, ran=3600)
    gone["status"].update({"reason": "Terminated",
                           "message": "Pod was terminated in response to imminent node shutdown."})
    sc.event(d, "ScalingReplicaSet", "Scaled up replica set %s to 2" % r["metadata"]["name"], type_="Normal",
             last=0, component="deployment-controller")
    return sc


def history_failing():
    """The control: the same objects where nothing superseded the failure."""
    sc = Scenario("history-failing")
    ns = "openshift-kube-apiserver"
    for n in (ns, "apps"):
        sc.namespace(n)
    masters(sc)
    (a, _, _), (b, _, _), (c, _, _) = MASTERS
    rs = {r: revision_status(sc, ns, r, created, status="InProgress" if r == 8 else "Succeeded")
          for r, created in ((7, 4 * HOUR), (8, 40 * MIN))}
    # Revision 8 installed on nodes a and b; on node c installer-8 failed twice and the static
    # pod still runs revision 7. Node a's success is no evidence for node c.
    installer(sc, ns, rs[8], 8, a, 40 * MIN - 30, "Succeeded")
    installer(sc, ns, rs[8], 8, b, 40 * MIN - 200, "Succeeded")
    installer(sc, ns, rs[8], 8, c, 40 * MIN - 400, "Failed")
    installer(sc, ns, rs[8], 8, c, 40 * MIN - 600, "Failed", retry=1)
    installer(sc, ns, rs[7], 7, c, 4 * HOUR - 60, "Succeeded")
    static_pod(sc, ns, a, 8, 40 * MIN - 100)
    static_pod(sc, ns, b, 8, 40 * MIN - 300)
    static_pod(sc, ns, c, 7, 4 * HOUR - 600)
    kube_apiserver_operator(sc, [(a, 8, {}), (b, 8, {}),
                                 (c, 7, {"targetRevision": 8, "lastFailedRevision": 8, "lastFailedCount": 2,
                                         "lastFailedReason": "InstallerFailed",
                                         "lastFailedTime": ts(40 * MIN - 660)})], 8)
    # A Job that gave up, and a Deployment short of its replicas with a terminated pod.
    job = sc.job("apps", "report-gen", 2 * HOUR, succeeded=0, failed=2, backoff_limit=1,
                 failed_condition=2 * HOUR - 200)
    sc.job_pod(job, 2 * HOUR - 1, "Failed", 1, a, ran=20)
    sc.job_pod(job, 2 * HOUR - 60, "Failed", 1, b, ran=20)
    d, r, labels, image = sc.deployment("apps", "api", 2, 1)
    sc.rs_pod(r, labels, image, 0, node=a, created=3 * HOUR)
    gone = sc.rs_pod(r, labels, image, 2, node=c, created=5 * HOUR, phase="Failed", exit_code=137, ran=3600)
    gone["status"].update({"reason": "Terminated",
                           "message": "Pod was terminated in response to imminent node shutdown."})
    sc.event(d, "ScalingReplicaSet", "Scaled up replica set %s to 2" % r["metadata"]["name"], type_="Normal",
             last=0, component="deployment-controller")
    return sc


# ---------------------------------------------------------------------------------
# Services nobody uses (OpenShift's machine-api operator in NoOp mode on platform None)
# ---------------------------------------------------------------------------------

def infrastructure(sc, platform):
    return sc.add({"apiVersion": "config.openshift.io/v1", "kind": "Infrastructure",
                   "metadata": sc.meta("Infrastructure", None, "cluster", 120 * DAY),
                   "spec": {"cloudConfig": {"name": ""}, "platformSpec": {"type": platform}},
                   "status": {"apiServerInternalURI": "https://api-int.ocp4.example.com:6443",
                              "apiServerURL": "https://api.ocp4.example.com:6443",
                              "controlPlaneTopology": "HighlyAvailable", "etcdDiscoveryDomain": "",
                              "infrastructureName": "ocp4-x7k2p", "infrastructureTopology": "HighlyAvailable",
                              "platform": platform, "platformStatus": {"type": platform}}})


def machine_api_operator(sc, message):
    related = [{"group": "", "name": "openshift-machine-api", "resource": "namespaces"}] + [
        {"group": "machine.openshift.io", "name": "", "namespace": "openshift-machine-api", "resource": r}
        for r in ("machines", "machinesets", "machinehealthchecks")]
    conds = [
        {"type": "Progressing", "status": "False", "reason": "AsExpected", "lastTransitionTime": ts(100 * DAY)},
        {"type": "Degraded", "status": "False", "reason": "AsExpected", "lastTransitionTime": ts(100 * DAY)},
        {"type": "Available", "status": "True", "reason": "AsExpected", "message": message,
         "lastTransitionTime": ts(100 * DAY)},
        {"type": "Upgradeable", "status": "True", "lastTransitionTime": ts(100 * DAY)}]
    return sc.add({"apiVersion": "config.openshift.io/v1", "kind": "ClusterOperator",
                   "metadata": sc.meta("ClusterOperator", None, "machine-api", 120 * DAY,
                                       annotations={"include.release.openshift.io/self-managed-high-availability":
                                                    "true"}),
                   "spec": {},
                   "status": {"conditions": conds, "extension": None, "relatedObjects": related,
                              "versions": [{"name": "operator", "version": "4.18.3"}]}})


def machine_api_services(sc):
    """Services the machine-api operator creates for the controllers it deploys on a cloud
    platform; only the operator's own Deployment runs."""
    ns = "openshift-machine-api"
    sc.namespace(ns)
    d, r, labels, image = sc.deployment(ns, "machine-api-operator", 1, 1, labels={"k8s-app": "machine-api-operator"},
                                        image=OCP_IMAGE)
    sc.rs_pod(r, labels, image, 0, node=MASTERS[0][0], created=30 * DAY)
    out = {}
    for name, sel, port, target, ip in (
            ("machine-api-controllers", {"k8s-app": "controller"}, 8441, "machine-mtrc", "172.30.10.124"),
            ("machine-api-operator-webhook", {"api": "clusterapi", "k8s-app": "controller"}, 443, 9443,
             "172.30.182.24")):
        svc = sc.service(ns, name, sel, port, target, ip, labels={"k8s-app": name},
                         annotations={"service.beta.openshift.io/serving-cert-secret-name": name + "-tls"})
        sc.empty_slice(svc)
        out[name] = svc
    return out


def storefront(sc):
    """A healthy Deployment in shop, whose scaling event is the newest timestamp."""
    d, r, labels, image = sc.deployment("shop", "storefront", 1, 1)
    sc.rs_pod(r, labels, image, 0, node=MASTERS[1][0], created=3 * DAY)
    sc.event(d, "ScalingReplicaSet", "Scaled up replica set %s to 1" % r["metadata"]["name"], type_="Normal",
             last=0, component="deployment-controller")


def traffic_unused():
    """Services with no pods, no workload meant to back them and no user: `info` "unused"."""
    sc = Scenario("traffic-unused")
    masters(sc)
    infrastructure(sc, "None")
    machine_api_operator(sc, "Cluster Machine API Operator is in NoOp mode")
    machine_api_services(sc)
    # A plain Kubernetes namespace: a Service left over from a removed app.
    sc.namespace("shop")
    svc = sc.service("shop", "legacy-search", {"app": "legacy-search"}, 9200, 9200, "172.30.77.12")
    sc.empty_slice(svc)
    storefront(sc)
    return sc


def traffic_used():
    """The control: empty Services that something uses warn, naming the user."""
    sc = Scenario("traffic-used")
    masters(sc)
    infrastructure(sc, "AWS")
    machine_api_operator(sc, "Cluster Machine API Operator is available at operator: 4.18.3")
    svcs = machine_api_services(sc)
    hook = svcs["machine-api-operator-webhook"]
    sc.add({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
            "metadata": sc.meta("ValidatingWebhookConfiguration", None, "machine-api", 100 * DAY,
                                annotations={"service.beta.openshift.io/inject-cabundle": "true"}),
            "webhooks": [{"admissionReviewVersions": ["v1"], "name": "validation.machine.machine.openshift.io",
                          "clientConfig": {"caBundle": "", "service": {
                              "name": hook["metadata"]["name"], "namespace": "openshift-machine-api",
                              "path": "/validate-machine-openshift-io-v1beta1-machine", "port": 443}},
                          "failurePolicy": "Ignore", "matchPolicy": "Equivalent", "namespaceSelector": {},
                          "objectSelector": {}, "sideEffects": "None", "timeoutSeconds": 10,
                          "rules": [{"apiGroups": ["machine.openshift.io"], "apiVersions": ["v1beta1"],
                                     "operations": ["CREATE", "UPDATE"], "resources": ["machines"],
                                     "scope": "*"}]}]})
    # A Route to a Service whose pods are gone.
    sc.namespace("shop")
    svc = sc.service("shop", "catalog", {"app": "catalog"}, 8080, 8080, "172.30.77.40")
    sc.empty_slice(svc)
    sc.add({"apiVersion": "route.openshift.io/v1", "kind": "Route",
            "metadata": sc.meta("Route", "shop", "catalog", 20 * DAY),
            "spec": {"host": "catalog-shop.apps.ocp4.example.com", "port": {"targetPort": "https"},
                     "tls": {"termination": "edge"}, "to": {"kind": "Service", "name": "catalog", "weight": 100},
                     "wildcardPolicy": "None"},
            "status": {"ingress": [{"host": "catalog-shop.apps.ocp4.example.com", "routerName": "default",
                                    "conditions": [{"type": "Admitted", "status": "True",
                                                    "lastTransitionTime": ts(20 * DAY)}],
                                    "wildcardPolicy": "None"}]}})
    # An APIService served by a Service with no pods.
    sc.namespace("monitoring")
    svc = sc.service("monitoring", "metrics-adapter", {"app.kubernetes.io/name": "metrics-adapter"}, 443, 6443,
                     "172.30.9.3")
    sc.empty_slice(svc)
    sc.add({"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
            "metadata": sc.meta("APIService", None, "v1beta1.metrics.k8s.io", 100 * DAY),
            "spec": {"group": "metrics.k8s.io", "groupPriorityMinimum": 100, "insecureSkipTLSVerify": True,
                     "service": {"name": "metrics-adapter", "namespace": "monitoring", "port": 443},
                     "version": "v1beta1", "versionPriority": 100},
            "status": {"conditions": [{"type": "Available", "status": "False", "reason": "MissingEndpoints",
                                       "message": "endpoints for service/metrics-adapter in \"monitoring\" have "
                                                  "no addresses with port name \"https\"",
                                       "lastTransitionTime": ts(2 * HOUR)}]}})
    storefront(sc)
    return sc


# ---------------------------------------------------------------------------------
# Just-created pods, and kinds a bundle does not hold
# ---------------------------------------------------------------------------------

def workers(sc):
    for name, zone, ip in (("worker-a", "zone-a", "10.0.4.11"), ("worker-b", "zone-b", "10.0.4.12")):
        sc.node(name, zone, ip=ip)


def young_pods(sc, age):
    """Three pods `age` seconds old: one bound and creating its container, one not scheduled
    yet, one Running whose container is not Ready yet; no Warning event for any."""
    ns = "shop"
    sc.namespace(ns)
    d, r, labels, image = sc.deployment(ns, "web", 1, 0, created=30 * DAY)
    web = sc.rs_pod(r, labels, image, 0, node="worker-a", created=age, phase="Pending")
    sc.event(web, "Scheduled", "Successfully assigned shop/%s to worker-a" % web["metadata"]["name"],
             type_="Normal", last=age - 1, component="default-scheduler")
    batch = sc.pod(ns, "batch-import", {"app": "batch-import"}, "quay.io/acme/batch-import:3.0.1",
                   created=age - 1, phase="Pending")
    batch["status"] = {"phase": "Pending", "qosClass": "Burstable"}
    api = sc.pod(ns, "api-canary", {"app": "api-canary"}, "quay.io/acme/api:2.2.0", node="worker-b",
                 created=age, ip="10.128.4.33")
    c = api["status"]["containerStatuses"][0]
    c["ready"] = False
    for cond in api["status"]["conditions"]:
        if cond["type"] in ("Ready", "ContainersReady"):
            cond.update({"status": "False", "reason": "ContainersNotReady",
                         "message": "containers with unready status: [api]", "lastTransitionTime": ts(age - 1)})
    api["spec"]["containers"][0]["readinessProbe"] = {
        "httpGet": {"path": "/ready", "port": 8080, "scheme": "HTTP"}, "initialDelaySeconds": 5,
        "periodSeconds": 10, "timeoutSeconds": 1, "failureThreshold": 3, "successThreshold": 1}
    sc.event(d, "ScalingReplicaSet", "Scaled up replica set %s to 1" % r["metadata"]["name"], type_="Normal",
             last=0, component="deployment-controller")


def pods_just_created():
    """Pods created 2-3 seconds before the snapshot: `info`, nothing has had time to happen."""
    sc = Scenario("pods-just-created")
    workers(sc)
    young_pods(sc, 3)
    return sc


def pods_settled():
    """The control: the same pods ten minutes old, still with no event saying why."""
    sc = Scenario("pods-settled")
    workers(sc)
    young_pods(sc, 600)
    return sc


def lost_node(sc):
    node = next(o for o in sc.items if o["kind"] == "Node" and o["metadata"]["name"] == "worker-b")
    for cond in node["status"]["conditions"]:
        cond.update({"status": "Unknown", "reason": "NodeStatusUnknown",
                     "message": "Kubelet stopped posting node status.", "lastHeartbeatTime": ts(47 * MIN),
                     "lastTransitionTime": ts(46 * MIN)})
    node["spec"]["taints"] = [
        {"effect": "NoSchedule", "key": "node.kubernetes.io/unreachable", "timeAdded": ts(46 * MIN)},
        {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "timeAdded": ts(46 * MIN)}]
    sc.event(node, "NodeNotReady", "Node worker-b status is now: NodeNotReady", type_="Normal", last=0,
             component="node-controller")


def nodes_without_pods():
    """A bundle of Nodes and Events only (no Pod collected): the NotReady node's finding says
    the bundle holds no pods instead of counting zero."""
    sc = Scenario("nodes-without-pods")
    workers(sc)
    lost_node(sc)
    return sc


def nodes_with_pods():
    """The control: the same nodes with pods collected, none bound to the lost node."""
    sc = Scenario("nodes-with-pods")
    workers(sc)
    lost_node(sc)
    sc.namespace("shop")
    d, r, labels, image = sc.deployment("shop", "web", 1, 1)
    sc.rs_pod(r, labels, image, 0, node="worker-a", created=3 * DAY)
    return sc


# ---------------------------------------------------------------------------------
# The kubelet's word that a pull secret is missing
# ---------------------------------------------------------------------------------

PRIVATE_IMAGE = "registry.example.com/shop/api:2.0.3"
PULL_401 = ('Failed to pull image "%s": failed to pull and unpack image "%s": failed to resolve reference "%s": '
            'failed to authorize: failed to fetch anonymous token: unexpected status from GET request to '
            'https://registry.example.com/service/token?scope=repository%%3Ashop%%2Fapi%%3Apull&service=registry.example.com: '
            '401 Unauthorized' % (PRIVATE_IMAGE, PRIVATE_IMAGE, PRIVATE_IMAGE))


def unauthorized_pull(sc, kubelet_event):
    """A Deployment whose image needs credentials; the pod names pull secret regcred. The
    bundle holds no Secrets (as troubleshoot collects none by default)."""
    sc.namespace("shop")
    d, r, labels, image = sc.deployment("shop", "api", 1, 0, image=PRIVATE_IMAGE)
    r["spec"]["template"]["spec"]["imagePullSecrets"] = [{"name": "regcred"}]
    d["spec"]["template"]["spec"]["imagePullSecrets"] = [{"name": "regcred"}]
    p = sc.rs_pod(r, labels, image, 0, node="worker-a", created=25 * MIN, phase="Pending",
                  waiting=("ImagePullBackOff", 'Back-off pulling image "%s"' % PRIVATE_IMAGE),
                  pull_secrets=["regcred"])
    sc.event(p, "Pulling", 'Pulling image "%s"' % PRIVATE_IMAGE, type_="Normal", count=7, first=25 * MIN,
             last=4 * MIN, field_path="spec.containers{api}")
    sc.event(p, "Failed", PULL_401, count=7, first=25 * MIN, last=4 * MIN, field_path="spec.containers{api}")
    sc.event(p, "Failed", "Error: ErrImagePull", count=7, first=25 * MIN, last=4 * MIN,
             field_path="spec.containers{api}")
    sc.event(p, "BackOff", 'Back-off pulling image "%s"' % PRIVATE_IMAGE, type_="Normal", count=98,
             first=25 * MIN, last=30, field_path="spec.containers{api}")
    sc.event(p, "Failed", "Error: ImagePullBackOff", count=98, first=25 * MIN, last=30,
             field_path="spec.containers{api}")
    if kubelet_event:
        sc.event(p, "FailedToRetrieveImagePullSecret",
                 "Unable to retrieve some image pull secrets (regcred); attempting to pull the image may not succeed.",
                 count=105, first=25 * MIN, last=30)
    sc.event(d, "ScalingReplicaSet", "Scaled up replica set %s to 1" % r["metadata"]["name"], type_="Normal",
             last=0, component="deployment-controller")


def pull_secret_missing():
    """The kubelet's FailedToRetrieveImagePullSecret event proves regcred is missing."""
    sc = Scenario("pull-secret-missing")
    workers(sc)
    unauthorized_pull(sc, True)
    return sc


def pull_secret_unknown():
    """The control: without the kubelet's event, the bundle cannot say whether regcred exists."""
    sc = Scenario("pull-secret-unknown")
    workers(sc)
    unauthorized_pull(sc, False)
    return sc


SCENARIOS = [history_superseded, history_failing, traffic_unused, traffic_used, pods_just_created, pods_settled,
             nodes_without_pods, nodes_with_pods, pull_secret_missing, pull_secret_unknown]


def build():
    return {"%s.yaml" % f.__name__.replace("_", "-"): f().text() for f in SCENARIOS}


def main(argv):
    return write_or_check(build(), HERE, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

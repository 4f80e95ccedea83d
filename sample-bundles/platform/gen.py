#!/usr/bin/env python3
"""Build the OpenShift platform sample bundles (must-gather folders).

    python3 sample-bundles/platform/gen.py            # (re)write every bundle
    python3 sample-bundles/platform/gen.py --check    # build in a temp dir, compare bytes

Python 3 standard library only; deterministic. The cluster is updating from 4.16.20 to
4.16.24: the control plane has completed, the worker pool is rolling. Objects follow what
OpenShift 4.16 writes (ClusterVersion history and conditions, ClusterOperator release
annotations and versions, MachineConfigPool conditions, the machine-config daemon's node
annotations, rendered MachineConfigs' release-image-version). Snapshot 2026-11-20T09:14:02Z.

- drain-blocked: worker-1's drain fails for over an hour because PodDisruptionBudget
  payments/postgres (minAvailable 1, one replica) allows no disruption; the daemon reports
  Degraded with "failed to drain node: … after 1 hour" and the pool is NodeDegraded.
- update-proceeding: the same update, worker-1 draining normally (its budget allows one
  disruption). Must produce no error or warning.
- <rule>/trigger (platform/<rule>/trigger/): update-proceeding changed in the one place
  that rule reads (a degraded or unavailable ClusterOperator, a failing ClusterVersion, an
  update started over a partial one, a paused or render-degraded worker pool); its quiet
  fixture is update-proceeding itself (sample-bundles/README.md, "Fixtures by rule").
"""

import datetime
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scheduling"))
sys.path.insert(0, os.path.join(HERE, ".."))
from build import write_or_check  # noqa: E402  (every generator's write / --check)
from gen import emit  # noqa: E402  (the shared deterministic YAML emitter)

SNAP = datetime.datetime(2026, 11, 20, 9, 14, 2, tzinfo=datetime.timezone.utc)
ROOT = "must-gather.local.5216380914237719843"
IMAGE_DIR = "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-3c5b4e5f0e1b2a0d9c8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c"
OLD, NEW = "4.16.20", "4.16.24"
OLD_IMAGE = "quay.io/openshift-release-dev/ocp-release@sha256:52f8d8a1b6a4e2f3c8d9e0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1"
NEW_IMAGE = "quay.io/openshift-release-dev/ocp-release@sha256:1b3f2e5d6c7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c"
OLD_WORKER = "rendered-worker-6d1c1bde9e2a6f4d0c0b7e9d2a8f3c51"
NEW_WORKER = "rendered-worker-b8a77e1f2c3d4e5f60718293a4b5c6d7"
MASTER = "rendered-master-0c9e4d2b7a1f3e5d6c8b9a0f1e2d3c4b"


def t(minutes=0.0):
    d = SNAP - datetime.timedelta(minutes=minutes)
    return d.strftime("%Y-%m-%dT%H:%M:%SZ")


def cond(typ, status, minutes, reason=None, message=None):
    c = {"lastTransitionTime": t(minutes), "status": status, "type": typ}
    if message is not None:
        c["message"] = message
    if reason is not None:
        c["reason"] = reason
    return c


RELEASE_ANNOTATIONS = {
    "capability.openshift.io/name": "",
    "include.release.openshift.io/ibm-cloud-managed": "true",
    "include.release.openshift.io/self-managed-high-availability": "true",
    "include.release.openshift.io/single-node-developer": "true",
}


def cluster_version():
    return {
        "apiVersion": "config.openshift.io/v1",
        "kind": "ClusterVersion",
        "metadata": {"creationTimestamp": "2026-03-02T10:41:17Z", "generation": 4, "name": "version",
                     "resourceVersion": "418811902", "uid": "6a1e0b6e-92b4-4b51-8a44-3e2f5f2b0c7d"},
        "spec": {"channel": "stable-4.16", "clusterID": "0c6f8d42-9e8e-4b3c-a7e1-5b2d6c9f0e13",
                 "desiredUpdate": {"image": NEW_IMAGE, "version": NEW}},
        "status": {
            "availableUpdates": None,
            "conditions": [
                cond("RetrievedUpdates", "True", 60 * 24 * 40),
                cond("ReleaseAccepted", "True", 131, "PayloadLoaded", f'Payload loaded version="{NEW}" image="{NEW_IMAGE}" architecture="amd64"'),
                cond("Available", "True", 60 * 24 * 262, None, f"Done applying {NEW}"),
                cond("Failing", "False", 60 * 24 * 40),
                cond("Progressing", "False", 72, None, f"Cluster version is {NEW}"),
                cond("Upgradeable", "True", 60 * 24 * 40),
            ],
            "desired": {"image": NEW_IMAGE, "url": "https://access.redhat.com/errata/RHBA-2026:8812", "version": NEW},
            "history": [
                {"completionTime": t(72), "image": NEW_IMAGE, "startedTime": t(131), "state": "Completed", "verified": True, "version": NEW},
                {"completionTime": "2026-10-02T14:07:51Z", "image": OLD_IMAGE, "startedTime": "2026-10-02T12:58:09Z", "state": "Completed", "verified": True, "version": OLD},
                {"completionTime": "2026-03-02T11:22:40Z", "image": "quay.io/openshift-release-dev/ocp-release@sha256:9e0d", "startedTime": "2026-03-02T10:41:17Z", "state": "Completed", "verified": False, "version": "4.16.3"},
            ],
            "observedGeneration": 4,
            "versionHash": "Xq3oKnE9rMc=",
        },
    }


def operator(name, namespaces, minutes=80, progressing_msg=None):
    return {
        "apiVersion": "config.openshift.io/v1",
        "kind": "ClusterOperator",
        "metadata": {"annotations": RELEASE_ANNOTATIONS, "creationTimestamp": "2026-03-02T10:41:58Z",
                     "generation": 1, "name": name, "resourceVersion": str(418800000 + len(name)),
                     "uid": f"5f0e{len(name):04d}-1c2d-4e3f-8a9b-{name.encode().hex()[:12].ljust(12, '0')}"},
        "spec": {},
        "status": {
            "conditions": [
                cond("Available", "True", 60 * 24 * 30, "AsExpected"),
                cond("Degraded", "False", 60 * 24 * 30, "AsExpected"),
                cond("Progressing", "False", minutes, "AsExpected", progressing_msg),
                cond("Upgradeable", "True", 60 * 24 * 30, "AsExpected"),
            ],
            "relatedObjects": [{"group": "", "name": ns, "resource": "namespaces"} for ns in namespaces],
            "versions": [{"name": "operator", "version": NEW}],
        },
    }


def operators():
    return [
        operator("etcd", ["openshift-etcd-operator", "openshift-etcd"], 118),
        operator("kube-apiserver", ["openshift-kube-apiserver-operator", "openshift-kube-apiserver"], 104),
        operator("machine-config", ["openshift-machine-config-operator"], 74, f"Cluster version is {NEW}"),
        operator("network", ["openshift-network-operator", "openshift-ovn-kubernetes"], 96),
        operator("ingress", ["openshift-ingress-operator", "openshift-ingress"], 88),
    ]


def machine_config(name, version):
    return {
        "apiVersion": "machineconfiguration.openshift.io/v1",
        "kind": "MachineConfig",
        "metadata": {
            "annotations": {"machineconfiguration.openshift.io/generated-by-controller-version": "a8e1c2b7d6f5e4c3b2a1908f7e6d5c4b3a291807",
                            "machineconfiguration.openshift.io/release-image-version": version},
            "creationTimestamp": "2026-10-02T13:31:02Z" if version == OLD else t(75),
            "generation": 1, "name": name,
            "ownerReferences": [{"apiVersion": "machineconfiguration.openshift.io/v1", "blockOwnerDeletion": True,
                                 "controller": True, "kind": "MachineConfigPool", "name": name.split("-")[1],
                                 "uid": "7b1e1b0a-3f1d-4c7e-9a51-2d8f0c6e4b13" if "worker" in name else "0d2c9e14-6a7b-4f0e-8c21-93b5e7d1a604"}],
            "resourceVersion": "418700001", "uid": f"c0ffee00-0000-4000-8000-{abs(hash_name(name)):012d}"[:48],
        },
        "spec": {"config": {"ignition": {"version": "3.4.0"}}, "extensions": [], "fips": False,
                 "kernelArguments": [], "kernelType": "default", "osImageURL": "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:4e6f"},
    }


def hash_name(name):
    h = 0
    for ch in name:
        h = (h * 131 + ord(ch)) % 10**12
    return h


def pool(name, config, selector, conds, counts):
    machine, ready, updated, degraded = counts
    return {
        "apiVersion": "machineconfiguration.openshift.io/v1",
        "kind": "MachineConfigPool",
        "metadata": {"creationTimestamp": "2026-03-02T10:42:31Z", "generation": 5, "name": name,
                     "labels": {"machineconfiguration.openshift.io/mco-built-in": "", f"pools.operator.machineconfiguration.openshift.io/{name}": ""},
                     "resourceVersion": "418812277",
                     "uid": "7b1e1b0a-3f1d-4c7e-9a51-2d8f0c6e4b13" if name == "worker" else "0d2c9e14-6a7b-4f0e-8c21-93b5e7d1a604"},
        "spec": {"configuration": {"name": config, "source": []},
                 "machineConfigSelector": {"matchLabels": {"machineconfiguration.openshift.io/role": name}},
                 "nodeSelector": {"matchLabels": {selector: ""}}, "paused": False},
        "status": {"conditions": conds, "configuration": {"name": config},
                   "degradedMachineCount": degraded, "machineCount": machine, "observedGeneration": 5,
                   "readyMachineCount": ready, "unavailableMachineCount": machine - ready,
                   "updatedMachineCount": updated},
    }


def node_uid(ip):
    return f"e5a1{int(ip.split('.')[-1]):04d}-7d3c-4b2a-9f8e-1c0d2b3a4f5e"


NODE_UIDS = {"worker-1": node_uid("10.0.4.21")}


def node(name, role, ip, current, desired, state, reason="", drain=None, unschedulable=False, ready_since=60 * 24 * 40):
    ann = {
        "machineconfiguration.openshift.io/controlPlaneTopology": "HighlyAvailable",
        "machineconfiguration.openshift.io/currentConfig": current,
        "machineconfiguration.openshift.io/desiredConfig": desired,
        "machineconfiguration.openshift.io/desiredDrain": (drain or ("uncordon-" + current))[0] if isinstance(drain, tuple) else "uncordon-" + current,
        "machineconfiguration.openshift.io/lastAppliedDrain": drain[1] if isinstance(drain, tuple) else "uncordon-" + current,
        "machineconfiguration.openshift.io/lastSyncedControllerConfigResourceVersion": "418790114",
        "machineconfiguration.openshift.io/reason": reason,
        "machineconfiguration.openshift.io/state": state,
        "volumes.kubernetes.io/controller-managed-attach-detach": "true",
    }
    n = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "annotations": ann,
            "creationTimestamp": "2026-03-02T10:58:44Z",
            "labels": {"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
                       "kubernetes.io/hostname": name, "kubernetes.io/os": "linux", f"node-role.kubernetes.io/{role}": "",
                       "node.openshift.io/os_id": "rhcos"},
            "name": name, "resourceVersion": str(418812000 + int(ip.split(".")[-1])),
            "uid": node_uid(ip),
        },
        "spec": {"providerID": f"vsphere://4231{int(ip.split('.')[-1]):04d}-aa1b-2c3d-4e5f-60718293a4b5"},
        "status": {
            "addresses": [{"address": ip, "type": "InternalIP"}, {"address": name, "type": "Hostname"}],
            "allocatable": {"cpu": "7500m", "ephemeral-storage": "114396791822", "hugepages-1Gi": "0", "hugepages-2Mi": "0", "memory": "31655772Ki", "pods": "250"},
            "capacity": {"cpu": "8", "ephemeral-storage": "125293548Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0", "memory": "32806748Ki", "pods": "250"},
            "conditions": [
                {"lastHeartbeatTime": t(1), "lastTransitionTime": t(60 * 24 * 40), "message": "kubelet has sufficient memory available", "reason": "KubeletHasSufficientMemory", "status": "False", "type": "MemoryPressure"},
                {"lastHeartbeatTime": t(1), "lastTransitionTime": t(60 * 24 * 40), "message": "kubelet has no disk pressure", "reason": "KubeletHasNoDiskPressure", "status": "False", "type": "DiskPressure"},
                {"lastHeartbeatTime": t(1), "lastTransitionTime": t(60 * 24 * 40), "message": "kubelet has sufficient PID available", "reason": "KubeletHasSufficientPID", "status": "False", "type": "PIDPressure"},
                {"lastHeartbeatTime": t(1), "lastTransitionTime": t(ready_since), "message": "kubelet is posting ready status", "reason": "KubeletReady", "status": "True", "type": "Ready"},
            ],
            "nodeInfo": {"architecture": "amd64", "containerRuntimeVersion": "cri-o://1.29.10-3.rhaos4.16.git3fa2c9b.el9",
                         "kernelVersion": "5.14.0-427.44.1.el9_4.x86_64", "kubeProxyVersion": "v1.29.10+67d3387",
                         "kubeletVersion": "v1.29.10+67d3387", "operatingSystem": "linux",
                         "osImage": "Red Hat Enterprise Linux CoreOS 416.94.202411201433-0"},
        },
    }
    if unschedulable:
        n["spec"]["taints"] = [{"effect": "NoSchedule", "key": "node.kubernetes.io/unschedulable", "timeAdded": t(70)}]
        n["spec"]["unschedulable"] = True
    return n


def postgres_pod(name, node_name, ip, uid):
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "creationTimestamp": t(60 * 24 * 9), "generateName": "postgres-",
            "labels": {"app.kubernetes.io/name": "postgres", "apps.kubernetes.io/pod-index": name[-1],
                       "controller-revision-hash": "postgres-5d8c7b6f9", "statefulset.kubernetes.io/pod-name": name},
            "name": name, "namespace": "payments",
            "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": True, "controller": True, "kind": "StatefulSet", "name": "postgres", "uid": "3c9e7a52-1b0d-4f6e-8a2c-5d4b3e2f1a09"}],
            "resourceVersion": "418655120", "uid": uid,
        },
        "spec": {
            "containers": [{"image": "registry.redhat.io/rhel9/postgresql-15@sha256:8f2c", "imagePullPolicy": "IfNotPresent", "name": "postgres",
                            "ports": [{"containerPort": 5432, "name": "postgres", "protocol": "TCP"}],
                            "readinessProbe": {"exec": {"command": ["/usr/libexec/check-container"]}, "failureThreshold": 3, "periodSeconds": 10, "successThreshold": 1, "timeoutSeconds": 1},
                            "resources": {"limits": {"memory": "2Gi"}, "requests": {"cpu": "500m", "memory": "1Gi"}}}],
            "nodeName": node_name, "restartPolicy": "Always", "schedulerName": "default-scheduler",
            "serviceAccountName": "postgres", "terminationGracePeriodSeconds": 30,
        },
        "status": {
            "conditions": [cond("PodReadyToStartContainers", "True", 60 * 24 * 9), cond("Initialized", "True", 60 * 24 * 9),
                           cond("Ready", "True", 60 * 24 * 9 - 1), cond("ContainersReady", "True", 60 * 24 * 9 - 1), cond("PodScheduled", "True", 60 * 24 * 9)],
            "containerStatuses": [{"containerID": "cri-o://6c1f0e9d8b7a", "image": "registry.redhat.io/rhel9/postgresql-15@sha256:8f2c",
                                   "imageID": "registry.redhat.io/rhel9/postgresql-15@sha256:8f2c", "lastState": {}, "name": "postgres",
                                   "ready": True, "restartCount": 0, "started": True, "state": {"running": {"startedAt": t(60 * 24 * 9 - 1)}}}],
            "hostIP": "10.0.4.2" + node_name[-1], "phase": "Running", "podIP": ip, "podIPs": [{"ip": ip}], "qosClass": "Burstable", "startTime": t(60 * 24 * 9),
        },
    }


def pdb(min_available, expected, healthy):
    return {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"creationTimestamp": t(60 * 24 * 9), "generation": 1, "name": "postgres", "namespace": "payments",
                     "resourceVersion": "418655133", "uid": "9d2b7c41-0e8f-4a3d-b6c5-1f2e3d4c5b6a"},
        "spec": {"minAvailable": min_available, "selector": {"matchLabels": {"app.kubernetes.io/name": "postgres"}}},
        "status": {"conditions": [cond("DisruptionAllowed", "True" if healthy > min_available else "False", 60 * 24 * 9,
                                       "SufficientPods" if healthy > min_available else "InsufficientPods")],
                   "currentHealthy": healthy, "desiredHealthy": min_available,
                   "disruptionsAllowed": max(0, healthy - min_available), "expectedPods": expected, "observedGeneration": 1},
    }


def node_event(name, node_name, reason, message, component, first, last, count, etype="Warning"):
    return {
        "apiVersion": "v1", "kind": "Event", "count": count, "firstTimestamp": t(first), "lastTimestamp": t(last),
        "involvedObject": {"kind": "Node", "name": node_name, "uid": NODE_UIDS[node_name]},
        "message": message,
        "metadata": {"creationTimestamp": t(first), "name": f"{node_name}.{name}", "namespace": "default",
                     "resourceVersion": str(418812500 + count), "uid": f"0e1d2c3b-4a59-4687-9a01-{name[-12:]}"},
        "reason": reason, "reportingComponent": component, "reportingInstance": "", "source": {"component": component},
        "type": etype,
    }


def scenario(blocked):
    items = {}
    cs = "cluster-scoped-resources"
    items[f"{cs}/config.openshift.io/clusterversions/version.yaml"] = cluster_version()
    for op in operators():
        items[f"{cs}/config.openshift.io/clusteroperators/{op['metadata']['name']}.yaml"] = op
    for mc in (machine_config(OLD_WORKER, OLD), machine_config(NEW_WORKER, NEW), machine_config(MASTER, NEW)):
        items[f"{cs}/machineconfiguration.openshift.io/machineconfigs/{mc['metadata']['name']}.yaml"] = mc
    worker_conds = [
        cond("RenderDegraded", "False", 60 * 24 * 40),
        cond("Updated", "False", 74),
        cond("Updating", "True", 74, None, f"All nodes are updating to MachineConfig {NEW_WORKER}"),
    ]
    drain_msg = "failed to drain node: worker-1 after 1 hour. Please see machine-config-controller logs for more information"
    if blocked:
        worker_conds += [
            cond("NodeDegraded", "True", 9, "1 nodes are reporting degraded status on sync", f'Node worker-1 is reporting: "{drain_msg}"'),
            cond("Degraded", "True", 9),
        ]
    else:
        worker_conds += [cond("NodeDegraded", "False", 60 * 24 * 40), cond("Degraded", "False", 60 * 24 * 40)]
    master_conds = [cond("RenderDegraded", "False", 60 * 24 * 40), cond("NodeDegraded", "False", 60 * 24 * 40),
                    cond("Degraded", "False", 60 * 24 * 40), cond("Updated", "True", 76, None, f"All nodes are updated with MachineConfig {MASTER}"),
                    cond("Updating", "False", 76)]
    items[f"{cs}/machineconfiguration.openshift.io/machineconfigpools/master.yaml"] = pool("master", MASTER, "node-role.kubernetes.io/master", master_conds, (3, 3, 3, 0))
    items[f"{cs}/machineconfiguration.openshift.io/machineconfigpools/worker.yaml"] = pool(
        "worker", NEW_WORKER, "node-role.kubernetes.io/worker", worker_conds, (3, 2, 1, 1 if blocked else 0))
    nodes = [
        node("master-0", "master", "10.0.4.10", MASTER, MASTER, "Done"),
        node("master-1", "master", "10.0.4.11", MASTER, MASTER, "Done"),
        node("master-2", "master", "10.0.4.12", MASTER, MASTER, "Done"),
        node("worker-0", "worker", "10.0.4.20", NEW_WORKER, NEW_WORKER, "Done", ready_since=52),
        node("worker-1", "worker", "10.0.4.21", OLD_WORKER, NEW_WORKER, "Degraded" if blocked else "Working",
             drain_msg if blocked else "", drain=("drain-" + NEW_WORKER, "uncordon-" + OLD_WORKER), unschedulable=True),
        node("worker-2", "worker", "10.0.4.22", OLD_WORKER, OLD_WORKER, "Done"),
    ]
    for n in nodes:
        items[f"{cs}/core/nodes/{n['metadata']['name']}.yaml"] = n
    pods = [postgres_pod("postgres-0", "worker-1", "10.129.2.41", "4e2a9c1b-7d3f-4b8e-a065-1c2d3e4f5a6b")]
    if not blocked:
        pods.append(postgres_pod("postgres-1", "worker-2", "10.130.0.17", "8b1d2e3f-4a5b-4c6d-9e7f-0a1b2c3d4e5f"))
    items["namespaces/payments/core/pods.yaml"] = {"apiVersion": "v1", "kind": "PodList", "items": pods,
                                                   "metadata": {"resourceVersion": "418812990"}}
    items["namespaces/payments/policy/poddisruptionbudgets.yaml"] = {
        "apiVersion": "policy/v1", "kind": "PodDisruptionBudgetList",
        "items": [pdb(1, len(pods), len(pods))], "metadata": {"resourceVersion": "418812990"}}
    events = [
        node_event("1871a2b3c4d5e6f7", "worker-1", "Cordon", "Cordoned node to apply update", "machineconfigdaemon", 70, 70, 1, "Normal"),
        node_event("1871a2b3c4d5e6f8", "worker-1", "Drain", "Draining node to update config.", "machineconfigdaemon", 70, 70, 1, "Normal"),
    ]
    if blocked:
        events += [
            node_event("1871a2b3c4d5e6f9", "worker-1", "DrainThresholdExceeded",
                       'Drain failed. Drain has been failing for more than 60 minutes. Waiting 5 minutes then retrying. Error message from drain: error when evicting pods/"postgres-0" -n "payments": Cannot evict pod as it would violate the pod\'s disruption budget.',
                       "machine-config-controller", 10, 5, 3),
            node_event("1871a2b3c4d5e6fa", "worker-1", "FailedToDrain", drain_msg, "machineconfigdaemon", 10, 10, 1),
        ]
    items["namespaces/default/core/events.yaml"] = {"apiVersion": "v1", "kind": "EventList", "items": events,
                                                    "metadata": {"resourceVersion": "418812990"}}
    return items


CS = "cluster-scoped-resources"
MCO_DEGRADED = (
    f"Failed to resync {NEW} because: error during syncRequiredMachineConfigPools: [context deadline exceeded, "
    "error MachineConfigPool worker is not ready, retrying. Status: (pool degraded: false total: 3, ready 2, updated: 1, unavailable: 1)]"
)


def set_cond(obj, new):
    """Replaces the condition of `new`'s type in `obj`'s status."""
    conds = obj["status"]["conditions"]
    conds[[c["type"] for c in conds].index(new["type"])] = new


def operator_degraded(items):
    set_cond(items[f"{CS}/config.openshift.io/clusteroperators/ingress.yaml"], cond(
        "Degraded", "True", 23, "IngressDegraded",
        'The "default" ingress controller reports Degraded=True: DegradedConditions: One or more other status conditions '
        "indicate a degraded state: DeploymentReplicasAllAvailable=False (DeploymentReplicasNotAvailable: 1/2 of replicas are available)"))


def operator_unavailable(items):
    set_cond(items[f"{CS}/config.openshift.io/clusteroperators/ingress.yaml"], cond(
        "Available", "False", 17, "IngressUnavailable",
        'The "default" ingress controller reports Available=False: IngressControllerUnavailable: One or more status conditions '
        "indicate unavailable: DeploymentAvailable=False (DeploymentUnavailable: The deployment has Available status condition set "
        "to False (reason: MinimumReplicasUnavailable) with message: Deployment does not have minimum availability.)"))


def update_failing(items):
    set_cond(items[f"{CS}/config.openshift.io/clusterversions/version.yaml"], cond(
        "Failing", "True", 8, "ClusterOperatorDegraded", "Cluster operator machine-config is degraded"))
    set_cond(items[f"{CS}/config.openshift.io/clusteroperators/machine-config.yaml"], cond(
        "Degraded", "True", 9, "RequiredPoolsFailed", MCO_DEGRADED))


def previous_update_incomplete(items):
    cv = items[f"{CS}/config.openshift.io/clusterversions/version.yaml"]
    cv["status"]["history"][:2] = [
        {"completionTime": None, "image": NEW_IMAGE, "startedTime": t(131), "state": "Partial", "verified": True, "version": NEW},
        {"completionTime": None, "image": OLD_IMAGE, "startedTime": "2026-10-02T12:58:09Z", "state": "Partial", "verified": True, "version": OLD},
    ]
    set_cond(cv, cond("Progressing", "True", 131, None, f"Working towards {NEW}: 812 of 903 done (89% complete), waiting on machine-config"))
    mco = items[f"{CS}/config.openshift.io/clusteroperators/machine-config.yaml"]
    set_cond(mco, cond("Progressing", "True", 74, None, f"Working towards {NEW}"))
    mco["status"]["versions"] = [{"name": "operator", "version": OLD}]


def pool_paused(items):
    worker = items[f"{CS}/machineconfiguration.openshift.io/machineconfigpools/worker.yaml"]
    worker["spec"]["paused"] = True
    set_cond(worker, cond("Updating", "False", 70))
    items[f"{CS}/core/nodes/worker-1.yaml"] = node("worker-1", "worker", "10.0.4.21", OLD_WORKER, OLD_WORKER, "Done")


def pool_degraded(items):
    worker = items[f"{CS}/machineconfiguration.openshift.io/machineconfigpools/worker.yaml"]
    message = ("Failed to render configuration for pool worker: parsing Ignition config failed: unknown version. "
               "Supported spec versions: 2.2, 3.0, 3.1, 3.2, 3.3, 3.4")
    set_cond(worker, cond("RenderDegraded", "True", 6, "", message))
    set_cond(worker, cond("Degraded", "True", 6, "", message))


# Each rule's triggering fixture: update-proceeding with that one change.
TRIGGERS = {
    "operator-degraded": operator_degraded,
    "operator-unavailable": operator_unavailable,
    "update-failing": update_failing,
    "previous-update-incomplete": previous_update_incomplete,
    "pool-paused": pool_paused,
    "pool-degraded": pool_degraded,
}


def scenarios():
    """(folder, relative path -> object) of every bundle."""
    yield "drain-blocked", scenario(True)
    yield "update-proceeding", scenario(False)
    for rule, change in TRIGGERS.items():
        items = scenario(False)
        change(items)
        yield os.path.join(rule, "trigger"), items


def build():
    """Every file of every bundle, relative path -> text."""
    files = {}
    for name, items in scenarios():
        base = os.path.join(name, ROOT, IMAGE_DIR)
        for rel, obj in items.items():
            files[os.path.join(base, rel)] = "---\n" + "\n".join(emit(obj)) + "\n"
        files[os.path.join(name, ROOT, "timestamp")] = (
            "2026-11-20 09:09:40.118903762 +0000 UTC m=+0.051166531\n"
            "2026-11-20 09:14:02.930477519 +0000 UTC m=+262.862740288\n"
        )
        files[os.path.join(name, ROOT, "version")] = "oc 4.16.0-202411081707.p0.g3dc2df7.assembly.stream.el9-3dc2df7\n"
    return files


if __name__ == "__main__":
    sys.exit(write_or_check(build(), HERE, sys.argv))

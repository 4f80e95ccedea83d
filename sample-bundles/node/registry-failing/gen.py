#!/usr/bin/env python3
"""Build the fixtures of `node/registry-failing` (kubectl `kind: List` YAML files).

    python3 sample-bundles/node/registry-failing/gen.py           # (re)write trigger.yaml, quiet.yaml
    python3 sample-bundles/node/registry-failing/gen.py --check   # fail if a file differs from a fresh build

Three Ready workers. New Deployments pull their images from `harbor.corp.example`, whose name
no longer resolves: each pod is bound to a node and waits in ImagePullBackOff, the kubelet's
`Failed to pull image` event ends in `dial tcp: lookup harbor.corp.example on 10.96.0.10:53:
no such host`.

- trigger.yaml: 12 Deployments (two namespaces), each its own image on that registry: one
  `node/registry-failing` finding lists them; each keeps its `node/image-pull` finding.
- quiet.yaml: the near miss: 9 Deployments fail on the registry's DNS (one short of the
  threshold of 10) and 3 more pull tags the same registry does not have (`not found`, a
  cause of each image, not of the registry): 12 stuck, no cause shared by 10.

Python 3 standard library only; deterministic. The cluster objects come from the builder of
../../scheduling/no-room/gen.py (UIDs from SHA-256, fixed timestamps, the newest an event at
AS_OF, which kdiag takes as the snapshot time of a List).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, SAMPLES)
sys.path.insert(0, os.path.join(SAMPLES, "scheduling", "no-room"))
from build import write_or_check  # noqa: E402
from gen import MIN, Bundle, ts  # noqa: E402  (the no-room fixtures' builder)

REGISTRY = "harbor.corp.example"
WORKERS = ["worker-1", "worker-2", "worker-3"]
NAMES = ["cart", "catalog", "checkout", "search", "reviews", "wishlist", "ledger", "invoices",
         "payouts", "refunds", "tax", "statements"]


def dns_error(image):
    repo, tag = image[len(REGISTRY) + 1:].rsplit(":", 1)
    return ('failed to pull and unpack image "%s": failed to resolve reference "%s": failed to do request: '
            'Head "https://%s/v2/%s/manifests/%s": dial tcp: lookup %s on 10.96.0.10:53: no such host'
            % (image, image, REGISTRY, repo, tag, REGISTRY))


def not_found(image):
    return ('failed to pull and unpack image "%s": failed to resolve reference "%s": %s: not found'
            % (image, image, image))


def pulling(b, ns, name, created, error, tag="3.2.1"):
    """A Deployment of one replica whose pod is bound to a worker and cannot pull its image."""
    rs, labels, _, pod_spec = b.deployment(ns, name, 1, 0, created)
    image = "%s/%s/%s:%s" % (REGISTRY, ns, name, tag)
    pod_spec = dict(pod_spec, containers=[dict(pod_spec["containers"][0], image=image)])
    node = WORKERS[len(b.items) % 3]
    p = b.pod(rs, labels, image, pod_spec, 0, created, node=node)
    cname = pod_spec["containers"][0]["name"]
    start = ts(created - 2)
    p["status"].update({
        "phase": "Pending",
        "conditions": [
            {"type": "PodReadyToStartContainers", "status": "True", "lastProbeTime": None, "lastTransitionTime": ts(created - 4)},
            {"type": "Initialized", "status": "True", "lastProbeTime": None, "lastTransitionTime": start},
            {"type": "Ready", "status": "False", "reason": "ContainersNotReady",
             "message": "containers with unready status: [%s]" % cname, "lastProbeTime": None, "lastTransitionTime": start},
            {"type": "ContainersReady", "status": "False", "reason": "ContainersNotReady",
             "message": "containers with unready status: [%s]" % cname, "lastProbeTime": None, "lastTransitionTime": start},
            {"type": "PodScheduled", "status": "True", "lastProbeTime": None, "lastTransitionTime": start}],
        "containerStatuses": [{
            "image": image, "imageID": "", "lastState": {}, "name": cname, "ready": False, "restartCount": 0,
            "started": False,
            "state": {"waiting": {"reason": "ImagePullBackOff",
                                  "message": 'Back-off pulling image "%s"' % image}}}]})
    del p["status"]["podIP"], p["status"]["podIPs"]
    for reason, message, type_, count, last in [
            ("Pulling", 'Pulling image "%s"' % image, "Normal", 6, 5 * MIN),
            ("Failed", 'Failed to pull image "%s": %s' % (image, error(image)), "Warning", 6, 5 * MIN),
            ("Failed", "Error: ErrImagePull", "Warning", 6, 5 * MIN),
            ("BackOff", 'Back-off pulling image "%s"' % image, "Normal", 40, 0),
            ("Failed", "Error: ImagePullBackOff", "Warning", 40, 0)]:
        event(b, p, reason, message, type_, count, created - 3, last)


def event(b, pod, reason, message, type_, count, first, last):
    md = pod["metadata"]
    name = "%s.%s" % (md["name"], b.hexid("ev", md["name"], reason, message)[:16])
    b.add({"apiVersion": "v1", "kind": "Event",
           "metadata": {"name": name, "namespace": md["namespace"], "uid": b.uid("Event", md["namespace"], name),
                        "creationTimestamp": ts(first)},
           "involvedObject": {"apiVersion": "v1", "kind": "Pod", "name": md["name"], "namespace": md["namespace"],
                              "uid": md["uid"], "resourceVersion": md["resourceVersion"],
                              "fieldPath": "spec.containers{%s}" % pod["spec"]["containers"][0]["name"]},
           "reason": reason, "message": message, "type": type_, "count": count,
           "firstTimestamp": ts(first), "lastTimestamp": ts(last),
           "source": {"component": "kubelet", "host": pod["spec"]["nodeName"]},
           "reportingComponent": "kubelet", "reportingInstance": pod["spec"]["nodeName"],
           "eventTime": None, "action": ""})


def cluster(name):
    b = Bundle(name)
    for ns in ["shop", "billing"]:
        b.namespace(ns)
    for i, n in enumerate(WORKERS, start=1):
        b.node(n, i)
    return b


def stuck(n):
    return [("shop" if i < 6 else "billing", NAMES[i]) for i in range(n)]


def trigger():
    b = cluster("registry-failing-trigger")
    for i, (ns, name) in enumerate(stuck(12)):
        pulling(b, ns, name, 40 * MIN - 60 * i, dns_error)
    return b.text()


def quiet():
    b = cluster("registry-failing-quiet")
    for i, (ns, name) in enumerate(stuck(9)):
        pulling(b, ns, name, 40 * MIN - 60 * i, dns_error)
    for i, name in enumerate(["mailer", "notifier", "pdf"]):
        pulling(b, "billing", name, 30 * MIN - 60 * i, not_found, tag="9.9.9")
    return b.text()


def build():
    return {"trigger.yaml": trigger(), "quiet.yaml": quiet()}


def main(argv):
    return write_or_check(build(), HERE, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

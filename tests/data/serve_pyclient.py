"""The Python `kubernetes` client (pinned in tools/test-tools.txt) against `kdiag serve`.

Run by tests/serve_clients.rs with PYTHONPATH set to the client's folder:
    serve_pyclient.py KUBECONFIG NAMESPACE POD NODE
Prints one JSON object of what the client read (typed: every object goes through the
client's models, as an application's code sees them), or exits non-zero with the error.
"""

import json
import sys
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException


def ref(o):
    return f"{o.metadata.namespace}/{o.metadata.name}" if o.metadata.namespace else o.metadata.name


def main():
    kubeconfig, ns, pod, node = sys.argv[1:5]
    config.load_kube_config(config_file=kubeconfig)
    core = client.CoreV1Api()
    apps = client.AppsV1Api()
    out = {
        "pods": sorted(ref(p) for p in core.list_pod_for_all_namespaces().items),
        "nodes": sorted(ref(n) for n in core.list_node().items),
        "deployments": sorted(ref(d) for d in apps.list_deployment_for_all_namespaces().items),
        "events": len(core.list_event_for_all_namespaces().items),
    }
    p = core.read_namespaced_pod(pod, ns)
    out["pod"] = {
        "name": p.metadata.name,
        "uid": p.metadata.uid,
        "node": p.spec.node_name,
        "phase": p.status.phase,
        "containers": [c.name for c in p.spec.containers],
    }
    for key, previous in (("log", False), ("previous", True)):
        try:
            out[key] = core.read_namespaced_pod_log(pod, ns, previous=previous)
        except ApiException as e:
            out[key + "_status"] = e.status
    out["events_of_pod"] = sorted(
        [e.type or "", e.reason or "", e.message or "", e.reporting_component or ""]
        for e in core.list_namespaced_event(
            ns, field_selector=f"involvedObject.name={pod}"
        ).items
    )
    out["pods_on_node"] = sorted(
        ref(x)
        for x in core.list_pod_for_all_namespaces(field_selector=f"spec.nodeName={node}").items
    )
    started = time.monotonic()
    events = []
    for e in watch.Watch().stream(core.list_namespaced_pod, ns, timeout_seconds=2):
        events.append([e["type"], ref(e["object"])])
    out["watch"] = events
    out["watch_seconds"] = time.monotonic() - started
    print(json.dumps(out))


if __name__ == "__main__":
    main()

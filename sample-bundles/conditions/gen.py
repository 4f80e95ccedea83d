#!/usr/bin/env python3
"""Build the condition and event-history sample bundles (kubectl `kind: List` YAML files).

    python3 sample-bundles/conditions/gen.py           # (re)write every bundle here
    python3 sample-bundles/conditions/gen.py --check   # fail if a file differs from a fresh build

They show pods whose own conditions say who stopped them (`DisruptionTarget` as the
scheduler, the taint manager, the Eviction API and the kubelet write it; Kueue's
`TerminationTarget`; `PodScheduled=False` on a pod that failed before it was scheduled),
and failed pods of Jobs the bundle does not hold whose end the events record (the Job
controller's `Completed` / `BackoffLimitExceeded`, the CronJob controller's
`SawCompletedJob`). Each comes with a control where the same pods carry no such word.
Python 3 standard library only; objects are built with the history generator's
`Scenario` (../history/gen.py), which writes them as real clusters do. See README.md.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "history"))
sys.path.insert(0, os.path.dirname(HERE))
import gen as history  # noqa: E402  (../history/gen.py)
from build import to_yaml, write_or_check  # noqa: E402

ts, MIN, HOUR, DAY, AS_OF = history.ts, history.MIN, history.HOUR, history.DAY, history.AS_OF

ORDER = ["Namespace", "Node", "Pod", "Event", "Deployment", "ReplicaSet", "CronJob", "Job", "Workload"]


class Scenario(history.Scenario):
    def text(self):
        items = sorted(self.items, key=lambda o: (ORDER.index(o["kind"]), o["metadata"].get("namespace", ""),
                                                  o["metadata"]["name"]))
        for o in items:
            assert o["metadata"]["creationTimestamp"] <= AS_OF, (self.name, o["metadata"]["name"])
        return to_yaml({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}},
                       sort_keys=True, width=80)


def workers(sc, cordoned=False, taint=None):
    for name, zone, ip in [("worker-a", "us-east-1a", "10.0.1.10"), ("worker-b", "us-east-1b", "10.0.2.10"),
                           ("worker-c", "us-east-1c", "10.0.3.10")]:
        n = sc.node(name, zone, ip=ip)
        if name == "worker-b" and cordoned:
            n["spec"]["unschedulable"] = True
            n["spec"]["taints"] = [{"effect": "NoSchedule", "key": "node.kubernetes.io/unschedulable",
                                    "timeAdded": ts(40 * MIN)}]
        if name == "worker-c" and taint:
            n["spec"]["taints"] = [dict(taint, timeAdded=ts(35 * MIN))]


def stopped(pod, type_, reason, message, at, exit_code=None):
    """The condition `type_` (status True) that says who stopped `pod`, written `at` seconds
    before the snapshot; the container ended with `exit_code` (SIGTERM: 143) when given."""
    conds = pod["status"]["conditions"]
    cond = {"type": type_, "status": "True", "reason": reason, "message": message,
            "lastProbeTime": None, "lastTransitionTime": ts(at)}
    if type_ == "DisruptionTarget":
        cond["observedGeneration"] = 1
    conds.insert(0, cond)
    if exit_code is not None:
        for cs in pod["status"].get("containerStatuses", []):
            t = cs["state"].get("terminated")
            if t:
                t["exitCode"] = exit_code
                t["reason"] = "Error"
                t.pop("message", None)
    return pod


def clock(sc, ns):
    """A healthy Deployment whose rollout event, at the snapshot time, dates the List (a
    List records no snapshot time; kdiag takes the newest event)."""
    d, rs, labels, image = sc.deployment(ns, "api", 1, 1)
    sc.rs_pod(rs, labels, image, 0, node="worker-b", created=2 * DAY)
    sc.event(d, "ScalingReplicaSet", "Scaled up replica set %s to 1" % rs["metadata"]["name"], type_="Normal",
             last=0, component="deployment-controller")


def disrupted(control):
    """Pods stopped by the scheduler, the taint manager, the Eviction API, the kubelet and
    Kueue, and one that failed before it was scheduled; in the control the same pods carry
    no condition that names who stopped them (a DisruptionTarget the disruption controller
    reset to False, on a healthy pod, is no disruption)."""
    sc = Scenario("disrupted-control" if control else "disrupted")
    for ns in ("batch", "shop", "ml"):
        sc.namespace(ns)
    workers(sc, cordoned=not control,
            taint=None if control else {"effect": "NoExecute", "key": "dedicated", "value": "gpu"})

    # The scheduler preempted a pod of Deployment batch/report-worker (1 of 2 ready) for a
    # higher-priority pod of batch/ingest.
    _, ingest_rs, ingest_labels, ingest_image = sc.deployment("batch", "ingest", 1, 1)
    preemptor = sc.rs_pod(ingest_rs, ingest_labels, ingest_image, 0, node="worker-a", created=50 * MIN)
    preemptor["spec"]["priority"] = 1000000
    preemptor["spec"]["priorityClassName"] = "batch-critical"
    _, rs, labels, image = sc.deployment("batch", "report-worker", 2, 1)
    sc.rs_pod(rs, labels, image, 1, node="worker-a", created=50 * MIN)
    victim = sc.rs_pod(rs, labels, image, 0, node="worker-a", created=3 * HOUR, phase="Failed", exit_code=143,
                       ran=3 * HOUR - 51 * MIN)
    if not control:
        stopped(victim, "DisruptionTarget", "PreemptionByScheduler",
                "default-scheduler: preempting to accommodate a higher priority pod", 51 * MIN + 1)
        sc.event(victim, "Preempted", "Preempted by pod %s on node worker-a" % preemptor["metadata"]["uid"],
                 type_="Normal", last=51 * MIN, component="default-scheduler")

    # Job batch/etl (backoffLimit 0) failed because the scheduler preempted its only pod.
    etl = sc.job("batch", "etl", 4 * HOUR, 0, 1, backoff_limit=0, failed_condition=61 * MIN)
    pod = sc.job_pod(etl, 4 * HOUR - 5, "Failed", 143, "worker-a", ran=4 * HOUR - 5 - 62 * MIN)
    if not control:
        stopped(pod, "DisruptionTarget", "PreemptionByScheduler",
                "default-scheduler: preempting to accommodate a higher priority pod", 62 * MIN)

    # The taint manager deleted a pod of shop/cart (1 of 2 ready) from worker-c, tainted
    # dedicated=gpu:NoExecute.
    _, rs, labels, image = sc.deployment("shop", "cart", 2, 1)
    sc.rs_pod(rs, labels, image, 1, node="worker-a", created=34 * MIN)
    victim = sc.rs_pod(rs, labels, image, 0, node="worker-c", created=5 * HOUR, phase="Failed", exit_code=137,
                       ran=5 * HOUR - 35 * MIN)
    if not control:
        stopped(victim, "DisruptionTarget", "DeletionByTaintManager",
                "Taint manager: deleting due to NoExecute taint", 35 * MIN)
        sc.event(victim, "TaintManagerEviction", "Marking for deletion Pod shop/%s" % victim["metadata"]["name"],
                 type_="Normal", last=35 * MIN, component="taint-eviction-controller")

    # Someone evicted a pod of shop/search (2 of 2 ready again) through the Eviction API while
    # draining worker-b, which is still cordoned.
    _, rs, labels, image = sc.deployment("shop", "search", 2, 2)
    sc.rs_pod(rs, labels, image, 1, node="worker-a", created=39 * MIN)
    sc.rs_pod(rs, labels, image, 2, node="worker-c", created=39 * MIN)
    victim = sc.rs_pod(rs, labels, image, 0, node="worker-b", created=2 * DAY, phase="Failed", exit_code=143,
                       ran=2 * DAY - 40 * MIN)
    if not control:
        stopped(victim, "DisruptionTarget", "EvictionByEvictionAPI", "Eviction API: evicting", 40 * MIN)

    # The kubelet on worker-b preempted a bare pod to admit a critical pod.
    debug = sc.pod("shop", "debug-shell", {"run": "debug-shell"}, "registry.access.redhat.com/ubi9/ubi:9.4",
                   node="worker-b", created=6 * HOUR, phase="Failed", exit_code=137, ran=6 * HOUR - 2 * HOUR)
    if not control:
        debug["status"]["reason"] = "Preempting"
        debug["status"]["message"] = "Preempted in order to admit critical pod"
        stopped(debug, "DisruptionTarget", "TerminationByKubelet",
                "Pod was preempted by Kubelet to accommodate a critical pod.", 2 * HOUR)

    # A bare pod that failed before it was ever scheduled.
    lost = sc.pod("batch", "bulk-export", {"run": "bulk-export"}, "quay.io/acme/bulk-export:3.2.0",
                  created=2 * HOUR, phase="Failed", exit_code=1, ran=10)
    lost["spec"]["containers"][0]["resources"]["requests"]["memory"] = "48Gi"
    del lost["status"]["conditions"]
    if not control:
        lost["status"]["conditions"] = [
            {"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "lastProbeTime": None,
             "lastTransitionTime": ts(2 * HOUR - 5),
             "message": "0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: "
                        "3 No preemption victims found for incoming pod."}]

    # Kueue stopped a plain pod it manages: its Workload was preempted, and finished as Failed
    # when the pod did.
    trainer = sc.pod("ml", "trainer-0", {"kueue.x-k8s.io/managed": "true", "kueue.x-k8s.io/queue-name": "team-a"},
                     "registry.example.com/ml/trainer:2.4", node="worker-a", created=4 * HOUR, phase="Failed",
                     exit_code=143, ran=4 * HOUR - 25 * MIN)
    trainer["metadata"]["finalizers"] = ["kueue.x-k8s.io/managed"]
    trainer["spec"]["schedulingGates"] = None
    if not control:
        stopped(trainer, "TerminationTarget", "WorkloadEvicted",
                "Preempted to accommodate a workload (UID: 3c0e8a41-7b2f-4d8e-9a61-5f0d2c7e4b19, JobUID: "
                "9d2f6b7a-1e4c-4a3b-8f5d-0c6e2a9b7d31) due to prioritization in the ClusterQueue; preemptor path: "
                "/cq-team-a; preemptee path: /cq-team-a", 25 * MIN + 1)
        del trainer["status"]["conditions"][0]["lastProbeTime"]
    wl = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
          "metadata": sc.meta("Workload", "ml", "pod-trainer-0-5b2c1", 4 * HOUR, owner=trainer,
                              labels={"kueue.x-k8s.io/job-uid": trainer["metadata"]["uid"]},
                              finalizers=["kueue.x-k8s.io/resource-in-use"], generation=1),
          "spec": {"active": True, "priority": 0, "queueName": "team-a",
                   "podSets": [{"count": 1, "name": "main",
                                "template": {"spec": {"containers": [
                                    {"name": "trainer", "image": "registry.example.com/ml/trainer:2.4",
                                     "resources": {"requests": {"cpu": "100m", "memory": "200Mi"}}}],
                                    "restartPolicy": "Never"}}}]},
          "status": {"conditions": []}}
    msg = trainer["status"]["conditions"][0]["message"] if not control else ""
    conds = wl["status"]["conditions"]
    if not control:
        conds += [{"type": "Evicted", "status": "True", "reason": "Preempted", "message": msg,
                   "observedGeneration": 1, "lastTransitionTime": ts(25 * MIN + 1)},
                  {"type": "Preempted", "status": "True", "reason": "InClusterQueue", "message": msg,
                   "observedGeneration": 1, "lastTransitionTime": ts(25 * MIN + 1)},
                  {"type": "QuotaReserved", "status": "False", "reason": "Pending",
                   "message": "Preempted to accommodate a higher priority Workload", "observedGeneration": 1,
                   "lastTransitionTime": ts(25 * MIN)}]
    conds.append({"type": "Finished", "status": "True", "reason": "Failed", "message": "", "observedGeneration": 1,
                  "lastTransitionTime": ts(24 * MIN)})
    sc.add(wl)

    # Being preempted now: a pod of batch/indexer, inside its grace period.
    _, rs, labels, image = sc.deployment("batch", "indexer", 1, 1)
    going = sc.rs_pod(rs, labels, image, 0, node="worker-c", created=20 * HOUR)
    if not control:
        going["metadata"]["deletionTimestamp"] = ts(-20)
        going["metadata"]["deletionGracePeriodSeconds"] = 30
        for c in going["status"]["conditions"]:
            if c["type"] in ("Ready", "ContainersReady"):
                c.update(status="False", reason="ContainersNotReady",
                         message="containers with unready status: [indexer]", lastTransitionTime=ts(8))
        going["status"]["containerStatuses"][0]["ready"] = False
        stopped(going, "DisruptionTarget", "PreemptionByScheduler",
                "default-scheduler: preempting to accommodate a higher priority pod", 10)
    else:
        going["status"]["conditions"].insert(0, {"type": "DisruptionTarget", "status": "False",
                                                 "lastProbeTime": None, "lastTransitionTime": ts(3 * HOUR)})
    clock(sc, "shop")
    return sc


def job_history(failed):
    """Failed pods of Jobs the bundle does not hold. Completed: the Job controller's
    `Completed` event on Job db-migrate, the CronJob controller's `SawCompletedJob … status:
    Complete` for nightly-report's run. Failed: `BackoffLimitExceeded` on db-migrate,
    `SawCompletedJob … status: Failed`, and a third Job with no event at all."""
    sc = Scenario("job-history-failed" if failed else "job-history-completed")
    sc.namespace("batch")
    workers(sc)
    cron = sc.add({"apiVersion": "batch/v1", "kind": "CronJob",
                   "metadata": sc.meta("CronJob", "batch", "nightly-report", 60 * DAY),
                   "spec": {"concurrencyPolicy": "Forbid", "failedJobsHistoryLimit": 1, "schedule": "0 7 * * *",
                            "startingDeadlineSeconds": 300, "successfulJobsHistoryLimit": 3, "suspend": False,
                            "jobTemplate": {"spec": {"backoffLimit": 2, "template": {"spec": {
                                "containers": [{"name": "nightly-report",
                                                "image": "quay.io/acme/nightly-report:1.4.0"}],
                                "restartPolicy": "Never"}}}}},
                   "status": {"lastScheduleTime": ts(2 * HOUR + 14 * MIN)}})
    if not failed:
        cron["status"]["lastSuccessfulTime"] = ts(2 * HOUR)
    # The Jobs exist only to give the pods their owner references; they are not in the bundle.
    run = sc.job("batch", "nightly-report-29394180", 2 * HOUR + 14 * MIN, 1, 1, owner=cron)
    migrate = sc.job("batch", "db-migrate", 3 * HOUR, 1, 1)
    jobs = [run, migrate]
    if failed:
        jobs.append(sc.job("batch", "cache-warm", 5 * HOUR, 0, 1))
    for job, age in zip(jobs, [2 * HOUR + 14 * MIN - 5, 3 * HOUR - 5, 5 * HOUR - 5]):
        sc.items.remove(job)
        sc.job_pod(job, age, "Failed", 1, "worker-a", ran=40,
                   message="Error: connection refused: postgres.batch.svc:5432")
    if failed:
        sc.event(cron, "SawCompletedJob", "Saw completed job: nightly-report-29394180, status: Failed",
                 type_="Normal", last=2 * HOUR, component="cronjob-controller")
        sc.event(migrate, "BackoffLimitExceeded", "Job has reached the specified backoff limit",
                 last=2 * HOUR + 50 * MIN, component="job-controller")
    else:
        sc.event(cron, "SawCompletedJob", "Saw completed job: nightly-report-29394180, status: Complete",
                 type_="Normal", last=2 * HOUR, component="cronjob-controller")
        sc.event(migrate, "Completed", "Job completed", type_="Normal", last=2 * HOUR + 50 * MIN,
                 component="job-controller")
    sc.event(cron, "SuccessfulCreate", "Created job nightly-report-29394180", type_="Normal",
             last=2 * HOUR + 14 * MIN, component="cronjob-controller")
    clock(sc, "batch")
    return sc


SCENARIOS = {
    "disrupted.yaml": lambda: disrupted(False),
    "disrupted-control.yaml": lambda: disrupted(True),
    "job-history-completed.yaml": lambda: job_history(False),
    "job-history-failed.yaml": lambda: job_history(True),
}


def build():
    return {name: f().text() for name, f in SCENARIOS.items()}


def main(argv):
    return write_or_check(build(), HERE, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

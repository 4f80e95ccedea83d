#!/usr/bin/env python3
"""Hostile inputs of docs/performance.md ("Long values, one-line Lists of pods and
archives that inflate"), written into OUTDIR:

  a1.json    one-line JSON List of 150,000 pods of about 1 KB
  a2.json    one-line JSON List of 122,000 pods with 30 environment variables each
  b.yaml     one pod with a 100 MB image name, annotation and waiting message
  c-txt.zip  20 members of 200 MiB of text that is neither objects nor logs (about 150:1)

and those of "Hostile input, round 2":

  d/         40 tar.gz of 3 text members of 32 MiB each (3.75 GiB in all, about 270:1)
             beside a crash-looping pod
  e.tar.gz   a member of 1.1 GiB of zeros, then a crash-looping pod

usage: hostile_inputs.py OUTDIR [a1|a2|b|c|d|e ...]
"""
import gzip
import io
import json
import os
import tarfile
import random
import sys
import zipfile


def pod(i, env=0):
    p = {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": f"web-{i}", "namespace": f"ns-{i % 50}",
                      "uid": f"6f1c2a4e-0000-4000-8000-{i:012}",
                      "labels": {"app": "web", "pod-template-hash": "5d9f8c7b6"},
                      "creationTimestamp": "2024-01-01T00:00:00Z",
                      "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                           "name": "web-5d9f8c7b6", "uid": "aaaa-bbbb",
                                           "controller": True}]},
         "spec": {"nodeName": f"node-{i % 100}",
                  "containers": [{"name": "web", "image": "registry.example.com/team/web:1.25",
                                  "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
                                  "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}}}],
                  "restartPolicy": "Always", "schedulerName": "default-scheduler",
                  "serviceAccountName": "default"},
         "status": {"phase": "Running", "qosClass": "Burstable", "startTime": "2024-01-01T00:00:00Z",
                    "conditions": [{"type": "Ready", "status": "True",
                                    "lastTransitionTime": "2024-01-01T00:00:00Z"}],
                    "containerStatuses": [{"name": "web", "ready": True, "restartCount": 0,
                                           "image": "registry.example.com/team/web:1.25",
                                           "state": {"running": {"startedAt": "2024-01-01T00:00:00Z"}}}]}}
    if env:
        p["spec"]["containers"][0]["env"] = [
            {"name": f"SETTING_{k}", "value": f"value-of-setting-{k}-for-the-web-tier-{'x' * 40}"}
            for k in range(env)]
    return p


def pod_list(path, n, env=0):
    with open(path, "w") as f:
        f.write('{"apiVersion":"v1","kind":"List","items":[')
        for i in range(n):
            if i:
                f.write(",")
            f.write(json.dumps(pod(i, env), separators=(",", ":")))
        f.write("]}")


def long_values(path, size=100_000_000):
    with open(path, "w") as f:
        f.write("apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\n  namespace: default\n"
                "  annotations:\n    note: " + "a" * size)
        f.write("\nspec:\n  nodeName: node-1\n  containers:\n  - name: web\n    image: "
                "registry.example.com/" + "i" * size)
        f.write("\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: web\n"
                "    ready: false\n    restartCount: 0\n    state:\n      waiting:\n"
                "        reason: ImagePullBackOff\n        message: " + "m" * size + "\n")


def text_zip(path, members=20, mib=200):
    random.seed(1)
    block = "".join('level=info msg="reconciled object %d of the queue" controller=web worker=%d\n'
                    % (i, i % 7) for i in range(64)).encode()
    out = bytearray()
    while len(out) < mib << 20:
        out += block * 8 + b"id=%08x\n" % random.getrandbits(32)
    data = bytes(out[:mib << 20])
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for i in range(members):
            z.writestr(f"must-gather/notes/part-{i:02}.txt", data)


def text_block(mib):
    random.seed(1)
    line = b'level=info msg="reconciled object of the queue" controller=web worker=1 ' * 4
    out = bytearray()
    while len(out) < mib << 20:
        out += line * 20 + b"id=%08x\n" % random.getrandbits(32)
    return bytes(out[:mib << 20])


def tar_gz(path, members):
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6) as gz:
        with tarfile.open(fileobj=gz, mode="w|") as tar:
            for name, data in members:
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))


GOOD_POD = os.path.join(os.path.dirname(__file__), "..", "sample-bundles", "bad-input", "pods.yaml")


def many_archives(out, archives=40, members=3, mib=32):
    os.makedirs(out, exist_ok=True)
    data = text_block(mib)
    for a in range(archives):
        tar_gz(f"{out}/part-{a:02}.tar.gz",
               [(f"notes/{a:02}-{m}.txt", data) for m in range(members)])
    with open(GOOD_POD, "rb") as f, open(f"{out}/pods.yaml", "wb") as g:
        g.write(f.read())


def refused_first(path, size=1_100 << 20):
    class Zeros(io.RawIOBase):
        def __init__(self):
            self.left = size

        def readable(self):
            return True

        def readinto(self, b):
            n = min(len(b), self.left)
            b[:n] = bytes(n)
            self.left -= n
            return n
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6) as gz:
        with tarfile.open(fileobj=gz, mode="w|") as tar:
            info = tarfile.TarInfo("huge.yaml")
            info.size = size
            tar.addfile(info, io.BufferedReader(Zeros(), 1 << 20))
            with open(GOOD_POD, "rb") as f:
                pod = f.read()
            info = tarfile.TarInfo("pods.yaml")
            info.size = len(pod)
            tar.addfile(info, io.BytesIO(pod))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for what in sys.argv[2:] or ["a1", "a2", "b", "c"]:
        {"a1": lambda: pod_list(f"{out}/a1.json", 150_000),
         "a2": lambda: pod_list(f"{out}/a2.json", 122_000, env=30),
         "b": lambda: long_values(f"{out}/b.yaml"),
         "c": lambda: text_zip(f"{out}/c-txt.zip"),
         "d": lambda: many_archives(f"{out}/d"),
         "e": lambda: refused_first(f"{out}/e.tar.gz")}[what]()


if __name__ == "__main__":
    main()

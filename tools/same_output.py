#!/usr/bin/env python3
"""Runs two kdiag binaries over the same inputs and says whether every output is the same.

For a change that must not change behaviour (a refactor): build the old and the new
binary, then

    python3 tools/same_output.py OLD_KDIAG NEW_KDIAG [--corpus DIR] [-j N]

Inputs: every real bundle in the corpus (each top-level folder, every case one level
down, every archive) and every sample bundle (each file and folder of `sample-bundles/`
and their scenario files). Commands per input: `analyze --format json`, the human report
at 100 columns, `get all -A -o wide`, `get nodes -o wide`, `get events -A`; then, for the
objects the old binary's findings name (their objects and evidence, up to 12 an input):
`describe KIND/NAME`, `why KIND/NAME`, and for pods `logs` and `logs -p`. A command's
stdout, stderr and exit status must be byte-identical. Prints each difference, then how
many outputs were compared; exit status 1 on any difference.
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PER_INPUT_OBJECTS = 12


def inputs(corpus):
    found = []
    if corpus and os.path.isdir(corpus):
        for top in sorted(os.listdir(corpus)):
            p = os.path.join(corpus, top)
            if not os.path.isdir(p):
                continue
            found.append(p)
            for sub in sorted(os.listdir(p)):
                found.append(os.path.join(p, sub))
        for extra in [
            "troubleshoot/testdata/supportbundle/support-bundle.tar.gz",
            "troubleshoot/test/baselines/supportbundle/baseline.tar.gz",
            "troubleshoot/testdata/supportbundle/missing-version.tar.gz",
            "troubleshoot/testdata/supportbundle/extracted-sb",
            "troubleshoot/pkg/analyze/files",
            "sbctl/support-bundle",
            "rancher-support-bundle-kit/sampleSupportBundle",
        ]:
            p = os.path.join(corpus, extra)
            if os.path.exists(p) and p not in found:
                found.append(p)
    samples = os.path.join(ROOT, "sample-bundles")
    for dirpath, dirnames, filenames in os.walk(samples):
        dirnames.sort()
        rel = os.path.relpath(dirpath, samples)
        if rel.startswith("src"):
            # The canonical sources: each scenario folder is an input of its own.
            if rel.count(os.sep) == 1:
                found.append(dirpath)
            continue
        if rel != ".":
            found.append(dirpath)
        for f in sorted(filenames):
            if f.endswith((".py", ".md")):
                continue
            found.append(os.path.join(dirpath, f))
    return found


def run(binary, args):
    try:
        p = subprocess.run(
            [binary] + args,
            capture_output=True,
            timeout=300,
            env=dict(os.environ, COLUMNS="100", NO_COLOR="1"),
        )
        return (p.returncode, p.stdout, p.stderr)
    except subprocess.TimeoutExpired:
        return ("timeout", b"", b"")


def objects_of(old, path):
    rc, out, _ = run(old, ["analyze", "--format", "json", "--fail-on", "never", path])
    try:
        doc = json.loads(out)
    except ValueError:
        return []
    seen, objs = set(), []
    for f in doc.get("findings", []):
        refs = [f.get("object")] + [e.get("object") for e in f.get("evidence", [])]
        for o in refs:
            if not o:
                continue
            key = (o.get("kind"), o.get("namespace"), o.get("name"))
            if key in seen or not key[0] or not key[2]:
                continue
            seen.add(key)
            objs.append(key)
    return objs[:PER_INPUT_OBJECTS]


def commands(old, path):
    cmds = [
        ["analyze", "--format", "json", path],
        ["analyze", "--width", "100", path],
        ["get", "all", "-A", "-o", "wide", path],
        ["get", "nodes", "-o", "wide", path],
        ["get", "events", "-A", path],
    ]
    for kind, ns, name in objects_of(old, path):
        nsargs = ["-n", ns] if ns else []
        cmds.append(["describe", f"{kind.lower()}/{name}"] + nsargs + [path])
        cmds.append(["why", f"{kind.lower()}/{name}"] + nsargs + [path])
        if kind == "Pod":
            cmds.append(["logs", name] + nsargs + [path])
            cmds.append(["logs", name, "-p"] + nsargs + [path])
    return cmds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    old, new = os.path.abspath(a.old), os.path.abspath(a.new)
    paths = inputs(os.path.abspath(a.corpus))
    with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        all_cmds = [c for cs in pool.map(lambda p: commands(old, p), paths) for c in cs]

        def compare(cmd):
            return cmd, run(old, cmd), run(new, cmd)

        differ = 0
        for cmd, ro, rn in pool.map(compare, all_cmds):
            if ro != rn:
                differ += 1
                print("differs: kdiag " + " ".join(cmd))
                for label, i in (("status", 0), ("stdout", 1), ("stderr", 2)):
                    if ro[i] != rn[i]:
                        print(f"  {label}: {str(ro[i])[:300]!r} -> {str(rn[i])[:300]!r}")
    print(f"{len(all_cmds)} outputs compared over {len(paths)} inputs: {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

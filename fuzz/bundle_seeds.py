#!/usr/bin/env python3
"""Seeds for the `bundle` fuzz target: each sample bundle (folder, zip or tar.gz) as one
fuzz input, `[packing][name length][name][3-byte length][bytes]...` (see
fuzz_targets/bundle.rs). Files over 48 KiB are cut there, so a seed stays small enough to
mutate; logs are left out. Usage: python3 fuzz/bundle_seeds.py [OUT_DIR]"""
import io, os, sys, tarfile, zipfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sample-bundles")
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "bundle")
CUT = 48 << 10


def encode(files, packing):
    out = bytearray([packing])
    for name, data in files:
        name = name.encode()[:255]
        data = data[:CUT]
        out += bytes([len(name)]) + name + len(data).to_bytes(3, "little") + data
    return bytes(out)


def members(path):
    if os.path.isdir(path):
        for d, _, names in sorted(os.walk(path)):
            for n in sorted(names):
                p = os.path.join(d, n)
                yield os.path.relpath(p, path), open(p, "rb").read()
    elif zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            for i in z.infolist():
                if not i.is_dir():
                    yield i.filename, z.read(i)
    elif path.endswith((".tar.gz", ".tgz")):
        with tarfile.open(path) as t:
            for m in t.getmembers():
                if m.isfile():
                    yield m.name, t.extractfile(m).read()
    else:
        yield os.path.basename(path), open(path, "rb").read()


def bundles():
    """Each file at the top of sample-bundles/, and each entry of its scenario folders."""
    for n in sorted(os.listdir(ROOT)):
        p = os.path.join(ROOT, n)
        if os.path.isfile(p) and n.endswith((".zip", ".tar.gz", ".yaml", ".json")):
            yield p
        elif os.path.isdir(p) and n != "src":
            for m in sorted(os.listdir(p)):
                if not m.endswith((".md", ".py")):
                    yield os.path.join(p, m)


def pod(name, ns="d", uid="11111111-2222-3333-4444-555555555555", cpu="1", pad=""):
    lines = ["apiVersion: v1", "kind: Pod", "metadata:", f"  name: {name}", f"  namespace: {ns}",
             f"  uid: {uid}", '  creationTimestamp: "2026-11-20T08:00:00Z"', "spec:", "  containers:",
             "  - image: app:1", "    name: app", "    resources:", "      requests:", f"        cpu: {cpu}",
             "status:", "  phase: Pending"]
    if not pad:
        return "".join(l + "\n" for l in lines)
    return "".join(("- " if i == 0 else pad) + l + "\n" for i, l in enumerate(lines))


def event(name, ns, at, uid="11111111-2222-3333-4444-555555555555"):
    return (f"apiVersion: v1\nkind: Event\nmetadata:\n  name: {name}.1\n  namespace: {ns}\n"
            f"involvedObject:\n  kind: Pod\n  name: {name}\n  namespace: {ns}\n  uid: {uid}\n"
            f"reason: FailedScheduling\nmessage: '0/1 nodes are available: 1 Insufficient cpu.'\n"
            f"type: Warning\nlastTimestamp: \"{at}\"\n")


def hostile():
    """Odd shapes of the second hostile round: two pods of one uid, unreadable requests,
    appended Lists, a bad document among good ones, UTF-16 text, odd YAML in one List
    item, aliases of a long scalar, a skewed clock; Lists in flow style and indented, and
    files of many bad pieces."""
    lst = lambda names: ("apiVersion: v1\nitems:\n" + "".join(pod(n, pad="  ") for n in names)
                         + 'kind: List\nmetadata:\n  resourceVersion: ""\n')
    yield "shared-uid", [("pods.yaml", pod("web", "a") + "---\n" + pod("web", "b")),
                         ("events.yaml", event("web", "a", "2026-11-20T08:05:00Z") + "---\n"
                          + event("web", "b", "2026-11-20T08:06:00Z"))]
    yield "unreadable-cpu", [("pods.yaml", "---\n".join(
        pod(f"p{i}", uid=f"00000000-0000-0000-0000-0000000000{i:02}", cpu=v)
        for i, v in enumerate(["''", "abc", "1.2.3", "null", "'-1'", "1e400", "'[]'", "true"])))]
    yield "appended-lists", [("pods.yaml", lst(["a1", "a2"]) + lst(["b1"]))]
    yield "bad-document", [("pods.yaml", pod("q1") + "---\n" + pod("q2").replace("spec:", "  x: \"open\nspec:")
                            + "---\n" + pod("q3")),
                           ("stream.json", '{"apiVersion": "v1", "kind": "Pod",\n'
                            + 'Error from server (NotFound): pods "x" not found\n'
                            + '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "j", "namespace": "d"}}\n')]
    yield "utf16", [("pods.yaml", b"\xff\xfe" + pod("w").replace("\n", "\r\n").encode("utf-16-le"))]
    anchored = pod("a2", pad="  ").replace("  kind: Pod\n", "  kind: Pod\n  labels: &l {app: web}\n  selector: *l\n")
    yield "odd-list-item", [("pods.yaml", "apiVersion: v1\nitems:\n" + pod("a1", pad="  ") + anchored
                             + pod("a3", pad="  ").replace("  kind: Pod\n", "  kind: Pod\n  x: !!str 12\n")
                             + 'kind: List\nmetadata:\n  resourceVersion: ""\n---\n' + pod("a4"))]
    yield "alias-bytes", [("bomb.yaml", "kind: ConfigMap\napiVersion: v1\nmetadata: {name: b, namespace: d}\n"
                           + "data:\n  a: &a " + "x" * 4096 + "\n" + "".join(f"  b{i}: *a\n" for i in range(64))),
                          ("pods.yaml", pod("web"))]
    flow_pod = lambda n: ("{apiVersion: v1, kind: Pod, metadata: {name: %s, namespace: d,\n    uid: 11111111-2222-3333-4444-5555555555%s},"
                          " spec: {containers: [{image: 'reg.example.com/a:1', name: a,\n      resources: {requests: {cpu: 100m}}}]},"
                          " status: {phase: Pending, conditions: [{type: PodScheduled, status: 'False', reason: Unschedulable}]}}") % (n, n[-2:].rjust(2, "0"))
    yield "flow-list", [("pods.yaml", "{apiVersion: v1, items: [" + ", ".join(flow_pod(f"f{i}") for i in range(3))
                         + "], kind: List, metadata: {resourceVersion: ''}}\n")]
    yield "flow-items", [("pods.yaml", "apiVersion: v1\nitems:\n" + "".join("- " + flow_pod(f"g{i}").replace("\n", "\n  ") + "\n" for i in range(3))
                          + "kind: List\n")]
    yield "indented-items", [("pods.yaml", "apiVersion: v1\nitems:\n" + "".join(
        "\n".join("  " + l for l in pod(f"i{i}", pad="  ").splitlines()) + "\n" for i in range(2))
        + "  " + "\n  ".join(anchored.splitlines()) + "\nkind: List\n")]
    yield "floods", [("keys.yaml", "key: value\n" * 300 + "".join(f"k{i}: v\n" for i in range(300))),
                     ("docs.yaml", pod("h1") + "---\nkey: value\n" * 200
                      + ("---\n" + pod("h2") + "spec: [\n") * 50)]
    yield "skewed-clock", [("pods.yaml", pod("web")),
                           ("events.yaml", "---\n".join(event("web", "d", t) for t in [
                               "2026-11-20T08:05:00Z", "2028-12-21T00:00:00Z", "2027-02-31T00:00:00+99:99"]))]


os.makedirs(OUT, exist_ok=True)
for i, (name, files) in enumerate(hostile()):
    files = [(n, d if isinstance(d, bytes) else d.encode()) for n, d in files]
    with open(os.path.join(OUT, "hostile2_" + name), "wb") as f:
        f.write(encode(files, i % 4))
count = 0
for i, b in enumerate(bundles()):
    files = [(n, d) for n, d in members(b) if not n.endswith(".log")]
    if not files:
        continue
    seed = encode(files, i % 4)
    name = os.path.relpath(b, ROOT).replace("/", "_")
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(seed)
    count += 1
print(f"{count} seeds in {OUT}")

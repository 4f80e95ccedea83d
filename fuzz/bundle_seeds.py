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


os.makedirs(OUT, exist_ok=True)
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

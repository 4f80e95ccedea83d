#!/usr/bin/env python3
"""Measures `kdiag serve` on one bundle, as a user of kubectl sees it.

    python3 tools/serve_bench.py KDIAG BUNDLE [--runs 3] [--concurrent 200] [--kubectl kubectl]

First times `KDIAG analyze BUNDLE --format json` (`--analyze-runs`, default 1), then starts
`KDIAG serve BUNDLE` on a free loopback port and prints, one figure a line:
- the time from the start to the server's `kdiag serve: http://` line, and to the first
  answered `/healthz`;
- `kubectl get pods -A` (kubectl pages with `limit=500` and asks for Tables), the rows it
  printed, and its wall time per run (the first run reads discovery, the next ones read
  kubectl's cache);
- `kubectl get pods -n NS` and `kubectl describe pod NAME -n NS` (NAME and NS: the middle
  row of `get pods -A`), wall time per run;
- `kubectl get pods -A --chunk-size=0`: the same rows in one answer, not pages;
- N list requests sent at once (each its own connection and thread): half
  `GET /api/v1/namespaces/NS/pods` as a Table, half `GET /api/v1/pods?limit=500` as a
  Table; how many answered 200 with a whole JSON body, and the slowest;
- the server's resident memory and its peak so far after each step, and its peak
  (`VmRSS`, `VmHWM` of /proc/PID/status) against the bundle's size on disk (bytes of its files).

With `--kubectl-alone`, it then runs `kubectl get pods -A` through a recording proxy once,
and `--runs` more times against the recorded answers only (the server idle): kubectl's own
wall and cpu for the same pages, the least any server can make `get pods -A` cost.

With `--pairs N` it runs, N times in turn, `analyze --format json -o FILE` (start to exit)
then the server until its first `/healthz` answer, and prints each pair's ratio and the medians.

With `--until-ready` it only starts the server, prints the two start-up times and the
memory at that moment, and stops it (a whole-process timer then times the start-up).

Only loopback addresses are used; every request loop is bounded.
"""

import argparse
import http.client
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"


def bundle_bytes(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            p = os.path.join(root, f)
            if not os.path.islink(p):
                total += os.path.getsize(p)
    return total


def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def cpu_s(pid):
    """User + system seconds the process has used (load moves wall time, not this)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def get(addr, path, accept="application/json", timeout=120):
    host, port = addr.rsplit(":", 1)
    c = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        c.request("GET", path, headers={"Accept": accept})
        r = c.getresponse()
        return r.status, r.read()
    finally:
        c.close()


def timed(cmd, env):
    t = time.monotonic()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    took = time.monotonic() - t
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {p.stderr.strip()[:500]}")
    return took, p.stdout


def recording_proxy(upstream):
    """A loopback server that answers each GET from `upstream` once, then from memory."""
    answers, lock = {}, threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def answer(self, status, kind, body):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            key = (self.path, self.headers.get("Accept", ""))
            with lock:
                kept = answers.get(key)
            if kept is None:
                host, port = upstream.rsplit(":", 1)
                c = http.client.HTTPConnection(host, int(port), timeout=600)
                c.request("GET", self.path, headers={"Accept": key[1]})
                r = c.getresponse()
                kept = (r.status, r.getheader("Content-Type", "application/json"), r.read())
                c.close()
                with lock:
                    answers[key] = kept
            self.answer(*kept)

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            host, port = upstream.rsplit(":", 1)
            c = http.client.HTTPConnection(host, int(port), timeout=600)
            c.request("POST", self.path, body=body, headers={
                "Content-Type": self.headers.get("Content-Type", ""),
                "Accept": self.headers.get("Accept", ""),
            })
            r = c.getresponse()
            self.answer(r.status, r.getheader("Content-Type", "application/json"), r.read())
            c.close()

    proxy = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    return proxy


def start_until_ready(kdiag, bundle):
    """Starts `kdiag serve`, waits for the first answered `/healthz`, stops it; returns the
    seconds from the start to that answer."""
    tmp = tempfile.mkdtemp(prefix="kdiag-serve-bench-")
    start = time.monotonic()
    server = subprocess.Popen(
        [kdiag, "serve", "--addr", "127.0.0.1:0", "--kubeconfig", os.path.join(tmp, "kc"), bundle],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )
    try:
        for line in server.stderr:
            m = re.match(r"kdiag serve: http://(\S+) ", line)
            if m:
                addr = m.group(1)
                break
        else:
            sys.exit("the server printed no address")
        threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
        for _ in range(100000):
            try:
                if get(addr, "/healthz", timeout=5)[0] == 200:
                    return time.monotonic() - start
            except OSError:
                pass
            time.sleep(0.002)
        sys.exit("the server never answered /healthz")
    finally:
        server.terminate()
        server.wait(timeout=60)


def ready_pairs(a):
    """`--pairs N`: N times in turn, `analyze --format json -o FILE` (its wall, from start to
    exit) then `serve` until its first `/healthz` answer; each pair's ratio, and the medians."""
    out = os.path.join(tempfile.mkdtemp(prefix="kdiag-serve-bench-"), "a.json")
    rows = []
    for i in range(a.pairs):
        t = time.monotonic()
        subprocess.run([a.kdiag, "analyze", a.bundle, "--format", "json", "--fail-on", "never", "-o", out],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        analyze = time.monotonic() - t
        ready = start_until_ready(a.kdiag, a.bundle)
        rows.append((analyze, ready))
        print(f"pair {i + 1}: analyze {analyze:.3f} s, serve ready {ready:.3f} s, ratio {ready / analyze:.3f}")
    med = lambda xs: sorted(xs)[len(xs) // 2]
    print(f"medians: analyze {med([r[0] for r in rows]):.3f} s, ready {med([r[1] for r in rows]):.3f} s, "
          f"ratio {med([r[1] / r[0] for r in rows]):.3f} (min {min(r[1] / r[0] for r in rows):.3f}, "
          f"max {max(r[1] / r[0] for r in rows):.3f})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kdiag")
    ap.add_argument("bundle")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--concurrent", type=int, default=200)
    ap.add_argument("--kubectl", default="kubectl")
    ap.add_argument("--analyze-runs", type=int, default=1)
    ap.add_argument("--until-ready", action="store_true")
    ap.add_argument("--kubectl-alone", action="store_true")
    ap.add_argument("--pairs", type=int, default=0)
    a = ap.parse_args()

    if a.pairs:
        return ready_pairs(a)

    for _ in range(0 if a.until_ready else a.analyze_runs):
        t = time.monotonic()
        p = subprocess.run(
            [a.kdiag, "analyze", a.bundle, "--format", "json", "--fail-on", "never"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        took = time.monotonic() - t
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(f"analyze: {took:.2f} s (exit {p.returncode}), peak rss of a child so far {peak / 1024:.0f} MiB")

    tmp = tempfile.mkdtemp(prefix="kdiag-serve-bench-")
    kubeconfig = os.path.join(tmp, "kubeconfig")
    start = time.monotonic()
    server = subprocess.Popen(
        [a.kdiag, "serve", "--addr", "127.0.0.1:0", "--kubeconfig", kubeconfig, a.bundle],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        addr = None
        for line in server.stderr:
            m = re.match(r"kdiag serve: http://(\S+) ", line)
            if m:
                addr = m.group(1)
                break
        if addr is None:
            sys.exit("the server printed no address")
        line_at = time.monotonic() - start
        threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
        health_at = None
        for _ in range(10000):
            try:
                if get(addr, "/healthz", timeout=5)[0] == 200:
                    health_at = time.monotonic() - start
                    break
            except OSError:
                pass
            time.sleep(0.005)
        rss_ready = status_kb(server.pid, "VmRSS")
        size = bundle_bytes(a.bundle)
        print(f"bundle: {size} bytes ({size / 1e6:.1f} MB)")
        print(f"ready: address line {line_at:.2f} s, first /healthz {health_at:.2f} s")
        print(f"rss at ready: {rss_ready / 1024:.0f} MiB, peak so far {status_kb(server.pid, 'VmHWM') / 1024:.0f} MiB")
        if a.until_ready:
            return

        def memory(after):
            print(f"  after {after}: rss {status_kb(server.pid, 'VmRSS') / 1024:.0f} MiB, "
                  f"peak {status_kb(server.pid, 'VmHWM') / 1024:.0f} MiB")

        # What the server builds once it answers (the findings as objects, the page):
        # the page's answer waits for it.
        t = time.monotonic()
        get(addr, "/", "text/html", timeout=120)
        print(f"page answered {time.monotonic() - t:.2f} s after ready")
        memory("the page")

        env = dict(os.environ, KUBECONFIG=kubeconfig)
        cache = ["--cache-dir", os.path.join(tmp, "cache")]
        k = a.kubectl
        walls, rows = [], 0
        server_cpu, client_cpu = cpu_s(server.pid), children_cpu()
        for _ in range(a.runs):
            took, out = timed([k, *cache, "get", "pods", "-A"], env)
            walls.append(took)
            rows = len(out.splitlines()) - 1
        server_cpu = (cpu_s(server.pid) - server_cpu) / a.runs
        client_cpu = (children_cpu() - client_cpu) / a.runs
        print(f"kubectl get pods -A: {rows} rows; " + ", ".join(f"{w:.2f}" for w in walls) + " s"
              f"; a run's cpu: server {server_cpu:.2f} s, kubectl {client_cpu:.2f} s")
        memory("get pods -A")
        server_cpu, client_cpu = cpu_s(server.pid), children_cpu()
        took, out0 = timed([k, *cache, "get", "pods", "-A", "--chunk-size=0"], env)
        print(f"kubectl get pods -A --chunk-size=0 (one answer): {len(out0.splitlines()) - 1} rows; {took:.2f} s"
              f"; cpu: server {cpu_s(server.pid) - server_cpu:.2f} s, kubectl {children_cpu() - client_cpu:.2f} s")
        memory("get pods -A --chunk-size=0")

        listed = out.splitlines()[1:]
        ns, pod = listed[len(listed) // 2].split()[:2]
        walls = [timed([k, *cache, "get", "pods", "-n", ns], env)[0] for _ in range(a.runs)]
        in_ns = len(timed([k, *cache, "get", "pods", "-n", ns], env)[1].splitlines()) - 1
        print(f"kubectl get pods -n {ns}: {in_ns} rows; " + ", ".join(f"{w:.3f}" for w in walls) + " s")
        walls = [
            timed([k, *cache, "describe", "pod", pod, "-n", ns], env)[0] for _ in range(a.runs)
        ]
        print(f"kubectl describe pod {pod} -n {ns}: " + ", ".join(f"{w:.3f}" for w in walls) + " s")

        results = [None] * a.concurrent
        go = threading.Event()

        def one(i):
            path = f"/api/v1/namespaces/{ns}/pods" if i % 2 == 0 else "/api/v1/pods?limit=500"
            go.wait()
            t = time.monotonic()
            try:
                status, body = get(addr, path, TABLE, timeout=300)
                ok = status == 200 and json.loads(body).get("kind") == "Table"
            except (OSError, ValueError, http.client.HTTPException) as e:
                ok = f"{type(e).__name__}: {e}"
            results[i] = (ok, time.monotonic() - t)

        threads = [threading.Thread(target=one, args=(i,)) for i in range(a.concurrent)]
        for t in threads:
            t.start()
        t0 = time.monotonic()
        server_cpu = cpu_s(server.pid)
        go.set()
        for t in threads:
            t.join()
        total = time.monotonic() - t0
        good = sum(1 for r in results if r and r[0] is True)
        slowest = max(r[1] for r in results if r)
        errors = sorted({str(r[0]) for r in results if r and r[0] is not True})
        print(
            f"{a.concurrent} concurrent lists: {good} answered, all in {total:.2f} s, slowest {slowest:.2f} s"
            f", server cpu {cpu_s(server.pid) - server_cpu:.2f} s"
            + (f"; errors: {errors[:3]}" if errors else "")
        )
        memory("the concurrent lists")
        print(f"peak rss: {status_kb(server.pid, 'VmHWM') / 1024:.0f} MiB "
              f"({status_kb(server.pid, 'VmHWM') * 1024 / size:.2f}x the bundle)")

        if a.kubectl_alone:
            proxy = recording_proxy(addr)
            proxied = os.path.join(tmp, "kubeconfig-proxy")
            with open(kubeconfig) as f:
                text = f.read().replace(addr, f"127.0.0.1:{proxy.server_address[1]}")
            with open(proxied, "w") as f:
                f.write(text)
            penv = dict(os.environ, KUBECONFIG=proxied)
            pcache = ["--cache-dir", os.path.join(tmp, "cache-proxy")]
            timed([k, *pcache, "get", "pods", "-A"], penv)
            server_cpu, client_cpu = cpu_s(server.pid), children_cpu()
            walls = [timed([k, *pcache, "get", "pods", "-A"], penv)[0] for _ in range(a.runs)]
            print("kubectl get pods -A from recorded answers: " + ", ".join(f"{w:.2f}" for w in walls)
                  + f" s; a run's cpu: kubectl {(children_cpu() - client_cpu) / a.runs:.2f} s"
                  + f", server {(cpu_s(server.pid) - server_cpu) / a.runs:.2f} s")
            proxy.shutdown()
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()

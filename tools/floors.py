#!/usr/bin/env python3
"""Prints which part of `src/` imports which, and fails on an import that goes up a floor.

kdiag's data flows one way (README, "How it is built"):

    process_stats -> parse -> kube -> ingest -> snapshot -> rules -> report
        -> explain, explorer, scan -> cli -> main

Each folder may use only the floors below it (and itself). Inside `rules/`, the areas
(`rules/kueue`, `rules/scheduling`, ...) are one floor: an area may use another, but two
areas never use each other (a helper both need lives in `rules/` itself). No file under
`src/` is longer than MAX_LINES.

Paths are read from `crate::...`, `kdiag::...` (the binary's modules use the library by
name) and `super::...` (resolved against the file and the inline modules it is in, found
by rustfmt's indentation). Comment lines are skipped. Exit status 1 on any violation.

Usage: python3 tools/floors.py [SRC_DIR]
"""

import os
import re
import sys
from collections import defaultdict

FLOORS = {
    # What the process used, from /proc: below everything, it imports nothing of the crate.
    "process_stats": 0,
    "parse": 0,
    "kube": 1,
    "ingest": 2,
    "snapshot": 3,
    "rules": 4,
    "report": 5,
    # What the commands print, as library code: the library's entry points, `why`'s
    # tree, the explorer's printers, scan's lines and fleet table.
    "explain": 6,
    "explorer": 6,
    "scan": 6,
    "lib": 6,
    # The commands, one module each, and the binary that parses and dispatches.
    "cli": 7,
    "main": 8,
}
MAX_LINES = 1100
# The binary's own modules (declared in main.rs): `crate::` there is the binary.
BIN_MODULES = {"main"}

PATH_RE = re.compile(r"\b(crate|kdiag|super)::")
INLINE_MOD_RE = re.compile(r"^(\s*)(?:pub(?:\([^)]*\))? )?mod (\w+) \{\s*$")


def module_of(rel):
    """The module path of a file, as a list: src/parse/fast_yaml/mod.rs -> [parse, fast_yaml]."""
    parts = rel[:-3].split(os.sep)
    if parts[-1] == "mod":
        parts = parts[:-1]
    if parts in (["lib"], ["main"]):
        return []
    return parts


def unit_of(path, is_bin, areas):
    """The floor unit a module path belongs to (rules areas, its folders, are their own units)."""
    if not path:
        return "main" if is_bin else "lib"
    if path[0] == "rules" and len(path) > 1 and path[1] in areas:
        return "rules/" + path[1]
    return path[0]


def floor_of(unit):
    return FLOORS.get(unit.split("/")[0])


def split_top(group):
    """Top-level comma-separated elements of a `{...}` use group (without the braces)."""
    out, depth, cur = [], 0, ""
    for ch in group:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def group_at(text, i):
    """The `{...}` group starting at text[i] == '{', without braces, or None when unclosed."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1 : j]
    return None


def targets(statement, here, is_bin):
    """Absolute module paths a line (or a use statement) names, with the crate they are in."""
    found = []
    for m in PATH_RE.finditer(statement):
        root = m.group(1)
        # A path continuing a longer one (`super::super::x`) is read from its start.
        before = statement[: m.start()]
        if before.endswith("::"):
            continue
        rest = statement[m.end() :]
        if root == "super":
            base = list(here)
            base.pop() if base else None
            while rest.startswith("super::"):
                rest = rest[len("super::") :]
                base.pop() if base else None
            crate_is_bin = is_bin
        else:
            base = []
            crate_is_bin = is_bin and root == "crate"
        if rest.startswith("{"):
            group = group_at(rest, 0)
            names = split_top(group) if group is not None else []
        else:
            names = [re.match(r"[\w:]*", rest).group(0)]
        for name in names:
            segs = [s for s in re.split(r"::", name.lstrip("{")) if s]
            first = re.match(r"\w*", segs[0]).group(0) if segs else ""
            if first in ("", "self", "*"):
                path = base
            else:
                path = base + [first]
                if first == "rules" and len(segs) > 1:
                    second = re.match(r"\w*", segs[1]).group(0)
                    if second and second not in ("self",):
                        path = base + [first, second]
            found.append((path, crate_is_bin))
    return found


def resolve_unit(path, crate_is_bin, areas):
    """The unit an absolute path names, or None for things outside the floors (std items)."""
    if not path:
        return "main" if crate_is_bin else "lib"
    top = path[0]
    if crate_is_bin:
        if top in BIN_MODULES:
            return top
        return None  # the binary's own items in main.rs
    if top == "rules" and len(path) > 1:
        return "rules/" + path[1] if path[1] in areas else "rules"
    if top in FLOORS:
        return top
    return None  # an item of lib.rs (kdiag::analyze)


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "src")
    src = os.path.normpath(src)
    files = []
    for dirpath, _, names in os.walk(src):
        for n in names:
            if n.endswith(".rs"):
                files.append(os.path.relpath(os.path.join(dirpath, n), src))
    files.sort()
    rules_dir = os.path.join(src, "rules")
    areas = {d for d in os.listdir(rules_dir) if os.path.isdir(os.path.join(rules_dir, d))}
    edges = defaultdict(int)
    violations = []
    long_files = []
    for rel in files:
        mod = module_of(rel)
        top = mod[0] if mod else rel[:-3]
        is_bin = rel == "main.rs" or top in BIN_MODULES
        unit = unit_of(mod, is_bin, areas)
        with open(os.path.join(src, rel), encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        if len(lines) - 1 > MAX_LINES:
            long_files.append((rel, len(lines) - 1))
        inline = []  # (indent, name) of the inline modules the line is in
        statement, start = "", 0
        for no, line in enumerate(lines, 1):
            while inline and re.match(r"^%s\}\s*$" % re.escape(inline[-1][0]), line):
                inline.pop()
                break
            m = INLINE_MOD_RE.match(line)
            if m:
                inline.append((m.group(1), m.group(2)))
                continue
            stripped = line.strip()
            if stripped.startswith("//"):
                continue
            # A `use` that spans lines is read whole.
            if statement:
                statement += " " + stripped
                if not stripped.endswith(";"):
                    continue
            elif stripped.startswith(("use ", "pub use ")) and not stripped.endswith(";"):
                statement, start = stripped, no
                continue
            else:
                statement, start = stripped, no
            here = mod + [n for _, n in inline]
            for path, crate_is_bin in targets(statement, here, is_bin):
                to = resolve_unit(path, crate_is_bin, areas)
                if to is None or to == unit:
                    continue
                edges[(unit, to)] += 1
                f_from, f_to = floor_of(unit), floor_of(to)
                if f_from is None or f_to is None:
                    violations.append(f"{rel}:{start}: {unit} -> {to}: not in any floor")
                elif f_to > f_from:
                    violations.append(f"{rel}:{start}: {unit} (floor {f_from}) imports {to} (floor {f_to})")
            statement = ""
    # Rule areas: an area may use another, never both ways.
    for (a, b), _ in sorted(edges.items()):
        if a.startswith("rules/") and b.startswith("rules/") and (b, a) in edges and a < b:
            violations.append(f"{a} and {b} import each other")
    print("imports between parts of src/ (from -> to: lines), lowest floor first:")
    for (a, b), n in sorted(edges.items(), key=lambda e: (floor_of(e[0][0]), e[0][0], floor_of(e[0][1]), e[0][1])):
        print(f"  {a:<22} -> {b:<22} {n:>4}")
    for rel, n in long_files:
        violations.append(f"{rel}: {n} lines (more than {MAX_LINES}): split it by what it holds")
    if violations:
        print(f"\n{len(violations)} violation(s):")
        for v in violations:
            print("  " + v)
        return 1
    print("\nno upward import, no two rule areas importing each other, no file over %d lines" % MAX_LINES)
    return 0


if __name__ == "__main__":
    # Piped into `head`, stop quietly.
    import signal

    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())

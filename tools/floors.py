#!/usr/bin/env python3
"""Prints which part of `src/` imports which, and fails on an import that goes up a floor.

kdiag's data flows one way (docs/architecture.md), floors from the bottom up:

    parse -> kube -> ingest -> snapshot -> rules core -> rule areas -> rules registry
          -> report -> explorer, explain, scan -> serve -> cli -> the crate root and main.rs

(`process_stats`, the /proc counters, sits on the ground floor beside `parse`.)

Each part may use only the floors below it (and itself):
- the rules core is the files directly in `rules/` (finding.rs, rule.rs, the helpers the
  areas share); each folder of `rules/` is an area (`rules/kueue`, ...), one floor above
  the core, and an area never imports another area; `rules/registry.rs` lists the areas
  and runs them, above them all;
- items of `lib.rs` (the crate root) are the top floor: nothing inside the crate calls up
  into them; a `#[macro_export]` macro is counted as the file that defines it, not the root;
- modules declared in `main.rs` are the binary's, at the top floor.
No file under `src/` is longer than MAX_LINES lines and no function longer than MAX_FN_LINES;
the longest functions are printed.

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
    "process_stats": 0,
    "parse": 0,
    "kube": 1,
    "ingest": 2,
    "snapshot": 3,
    "rules": 4,  # the core: files directly in rules/
    "rules/*": 5,  # every area
    "rules/registry": 6,
    "report": 7,
    "pipeline": 7,  # inputs → findings: ingest, store and rules in one call
    # The explorer's printers and the other commands' library code.
    "explain": 8,
    "explorer": 8,
    "scan": 8,
    # The API server: the explorer's printers behind HTTP.
    "serve": 9,
    "cli": 10,
    "lib": 11,
    "main": 11,
}
MAX_LINES = 1000
MAX_FN_LINES = 200
LONGEST_SHOWN = 5

PATH_RE = re.compile(r"(?<!\$)\b(crate|kdiag|super)::")
FN_RE = re.compile(r"^(\s*)(?:pub(?:\([^)]*\))? )?(?:const )?(?:async )?(?:unsafe )?fn (\w+)")
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
    """The floor unit a module path belongs to (each rules area, and the registry, is its own)."""
    if not path:
        return "main" if is_bin else "lib"
    if path[0] == "rules" and len(path) > 1 and (path[1] in areas or path[1] == "registry"):
        return "rules/" + path[1]
    return path[0]


def floor_of(unit):
    if unit in FLOORS:
        return FLOORS[unit]
    if unit.startswith("rules/"):
        return FLOORS["rules/*"]
    return None


def floor_key(unit):
    """A unit's floor for sorting, a unit in no floor first."""
    floor = floor_of(unit)
    return -1 if floor is None else floor


def is_area(unit):
    return unit.startswith("rules/") and unit != "rules/registry"


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


def resolve_unit(path, crate_is_bin, areas, modules, macros, bin_modules):
    """The unit an absolute path names, or None for things outside the floors (std items)."""
    if not path:
        return "main" if crate_is_bin else "lib"
    top = path[0]
    if crate_is_bin:
        if top in bin_modules:
            return top
        return None  # the binary's own items in main.rs
    if top in macros:
        return macros[top]
    if top == "rules" and len(path) > 1:
        return unit_of(path, False, areas)
    if top in modules:
        return top
    return "lib"  # an item of lib.rs (kdiag::analyze): the top floor


def function_lengths(rel, lines):
    """(lines, file:line name) of every `fn` with a body, from rustfmt's layout: the body
    ends at the first line that is the `fn` line's indentation and a `}`."""
    out = []
    for no, line in enumerate(lines):
        m = FN_RE.match(line)
        if not m:
            continue
        indent = m.group(1)
        end = None
        for k in range(no, len(lines)):
            text = lines[k].rstrip()
            if k == no and text.endswith("}") and text.count("{") == text.count("}"):
                end = k
                break
            if text.endswith(";") and "{" not in "".join(lines[no : k + 1]):
                break  # a declaration without a body
            if k > no and text == indent + "}":
                end = k
                break
        if end is not None:
            out.append((end - no + 1, f"{rel}:{no + 1} {m.group(2)}"))
    return out


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
    modules = {module_of(rel)[0] for rel in files if module_of(rel)}
    with open(os.path.join(src, "main.rs"), encoding="utf-8") as fh:
        bin_modules = set(re.findall(r"^(?:pub )?mod (\w+);", fh.read(), re.M))
    macros = {}
    for rel in files:
        with open(os.path.join(src, rel), encoding="utf-8") as fh:
            for name in re.findall(r"#\[macro_export\]\s*macro_rules!\s*(\w+)", fh.read()):
                macros[name] = unit_of(module_of(rel), False, areas)
    functions = []
    edges = defaultdict(int)
    violations = []
    long_files = []
    for rel in files:
        mod = module_of(rel)
        top = mod[0] if mod else rel[:-3]
        is_bin = rel == "main.rs" or top in bin_modules
        unit = unit_of(mod, is_bin, areas)
        with open(os.path.join(src, rel), encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        if len(lines) - 1 > MAX_LINES:
            long_files.append((rel, len(lines) - 1))
        functions.extend(function_lengths(rel, lines))
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
                to = resolve_unit(path, crate_is_bin, areas, modules, macros, bin_modules)
                if to is None or to == unit:
                    continue
                edges[(unit, to)] += 1
                f_from, f_to = floor_of(unit), floor_of(to)
                if f_from is None or f_to is None:
                    violations.append(f"{rel}:{start}: {unit} -> {to}: not in any floor")
                elif f_to > f_from:
                    violations.append(f"{rel}:{start}: {unit} (floor {f_from}) imports {to} (floor {f_to})")
                elif is_area(unit) and is_area(to):
                    violations.append(f"{rel}:{start}: area {unit} imports area {to}")
            statement = ""
    print("imports between parts of src/ (from -> to: lines), lowest floor first:")
    for (a, b), n in sorted(edges.items(), key=lambda e: (floor_key(e[0][0]), e[0][0], floor_key(e[0][1]), e[0][1])):
        print(f"  {a:<22} -> {b:<22} {n:>4}")
    functions.sort(key=lambda f: (-f[0], f[1]))
    print(f"\nlongest functions (at most {MAX_FN_LINES} lines):")
    for n, where in functions[:LONGEST_SHOWN]:
        print(f"  {n:>4}  {where}")
    for n, where in functions:
        if n > MAX_FN_LINES:
            violations.append(f"{where}: a function of {n} lines (more than {MAX_FN_LINES}): split it")
    for rel, n in long_files:
        violations.append(f"{rel}: {n} lines (more than {MAX_LINES}): split it by what it holds")
    if violations:
        print(f"\n{len(violations)} violation(s):")
        for v in violations:
            print("  " + v)
        return 1
    print(
        "\nno upward import, no rule area importing another, no file over %d lines, no function over %d"
        % (MAX_LINES, MAX_FN_LINES)
    )
    return 0


if __name__ == "__main__":
    # Piped into `head`, stop quietly.
    import signal

    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())

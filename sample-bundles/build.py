#!/usr/bin/env python3
"""Build the kdiag sample bundles from sample-bundles/src/.

    python3 sample-bundles/build.py            # (re)write every bundle
    python3 sample-bundles/build.py --check    # build twice in temp dirs, compare bytes

Python 3 standard library only. The output is deterministic: sorted entry order,
fixed mtimes / modes / owners, fixed gzip header, fixed zip timestamps, so two runs
produce byte-identical files (on the same zlib build).

Inputs (canonical, hand-editable):
    src/<scenario>/<kind>s.yaml    one file per kind, multi-document YAML ("---"),
                                   written in Go struct field order (kind, apiVersion,
                                   metadata, spec, status)
    src/<scenario>/logs/<ns>/<pod>/<container>.log            current container log
    src/<scenario>/logs/<ns>/<pod>/<container>-previous.log   previous instance log
    src/bad-input/*                copied verbatim into bad-input/ (plus generated files)

The src YAML is read with the small block-YAML reader below. It accepts only the
subset this script writes: block mappings and sequences, plain / single-quoted /
double-quoted one-line scalars, literal block scalars (|, |-, |+), empty {} and [],
full-line comments and "---". Anything else (anchors, tags, flow collections,
multi-line quoted scalars, ambiguous plain scalars such as 1.5 or yes) is an error
that names the file and line, so the source can never silently mean something else
to PyYAML or to a Go YAML parser.

Outputs (written next to this script):
    <scenario>.must-gather.zip      OpenShift must-gather layout (YAML, kubectl style)
    <scenario>.troubleshoot.tar.gz  Replicated troubleshoot layout (JSON, kubectl style)
    <scenario>.list.yaml            one `kind: List` with every object
    bad-input/                      kubectl-dump style folder of broken / hostile files
"""

import calendar
import copy
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import sys
import tarfile
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")

# Snapshot time of every scenario: 2026-11-20T09:14:02Z.
FIXED_DATE_TIME = (2026, 11, 20, 9, 14, 2)
FIXED_EPOCH = calendar.timegm(FIXED_DATE_TIME + (0, 0, 0))

SCENARIOS = {
    "control-plane-seed": {
        "git_version": "v1.31.2",
        "git_commit": "5864a4677267e6adeae276ad85882a8714d69d9d",
        "build_date": "2024-10-22T20:28:14Z",
        "go_version": "go1.22.8",
    },
    "healthy": {
        "git_version": "v1.31.2",
        "git_commit": "5864a4677267e6adeae276ad85882a8714d69d9d",
        "build_date": "2024-10-22T20:28:14Z",
        "go_version": "go1.22.8",
    },
}

MUST_GATHER_ROOT = "must-gather.local.123/quay-io-openshift-must-gather-sha256-abc"
TROUBLESHOOT_ROOT = "support-bundle-2026-11-20T09_14_02"
MUST_GATHER_TIMESTAMP = (
    "2026-11-20 09:13:40.000000000 +0000 UTC m=+0.1\n"
    "2026-11-20 09:14:02.000000000 +0000 UTC m=+22.3\n"
)
MUST_GATHER_VERSION = "openshift/must-gather\n4.18.0-202611121530.p0.g5d1c2a9.assembly.stream.el9\n"
TROUBLESHOOT_VERSION = "0.107.0"

# kind -> (src file, list apiVersion, must-gather group dir, plural)
NAMESPACED_KINDS = [
    ("Pod", "pods.yaml", "v1", "core", "pods"),
    ("Event", "events.yaml", "v1", "core", "events"),
    ("Service", "services.yaml", "v1", "core", "services"),
    ("Deployment", "deployments.yaml", "apps/v1", "apps", "deployments"),
    ("ReplicaSet", "replicasets.yaml", "apps/v1", "apps", "replicasets"),
    ("Job", "jobs.yaml", "batch/v1", "batch", "jobs"),
    ("EndpointSlice", "endpointslices.yaml", "discovery.k8s.io/v1", "discovery.k8s.io", "endpointslices"),
]
CLUSTER_KINDS = [
    ("Namespace", "namespaces.yaml", "v1", "core", "namespaces"),
    ("Node", "nodes.yaml", "v1", "core", "nodes"),
]
ALL_KINDS = CLUSTER_KINDS + NAMESPACED_KINDS


# ---------------------------------------------------------------------------
# YAML scalars: which strings may be written plain (go-yaml v2 / kubectl rules)
# ---------------------------------------------------------------------------

_NULLS = {"", "~", "null", "Null", "NULL"}
_BOOLS_TRUE = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}
_BOOLS_FALSE = {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}
_INT_RE = re.compile(
    r"^[-+]?(?:0b[0-1_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|(?:0|[1-9][0-9_]*)|[1-9][0-9_]*(?::[0-5]?[0-9])+)$"
)
_FLOAT_RE = re.compile(
    r"^(?:[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?[0-9][0-9_]*(?:[eE][-+]?[0-9]+)"
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)
_TIMESTAMP_RE = re.compile(
    r"^(?:[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}"
    r"(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?)$"
)
_DECIMAL_INT_RE = re.compile(r"^-?(?:0|[1-9][0-9]*)$")


def resolves_to_non_string(s):
    """True when a plain scalar `s` would NOT be read back as a string by a
    YAML 1.1 parser (PyYAML, go-yaml v2) -- such strings must be quoted."""
    if s in _NULLS or s in _BOOLS_TRUE or s in _BOOLS_FALSE or s in ("<<", "="):
        return True
    if _INT_RE.match(s) or _FLOAT_RE.match(s) or _TIMESTAMP_RE.match(s):
        return True
    if s[:1] in "0123456789+-.":
        try:
            float(s)
            return True
        except ValueError:
            pass
    return False


def _is_printable(ch):
    o = ord(ch)
    return (
        o == 0x0A
        or 0x20 <= o <= 0x7E
        or o == 0x85
        or (0xA0 <= o <= 0xD7FF)
        or (0xE000 <= o <= 0xFFFD and o != 0xFEFF)
        or (0x10000 <= o <= 0x10FFFF)
    )


def analyze_scalar(s):
    """Port of go-yaml v2 yaml_emitter_analyze_scalar for block context.
    Returns (block_plain_allowed, single_quoted_allowed, block_allowed)."""
    if s == "":
        return (False, True, False)
    block_indicators = False
    if s.startswith("---") or s.startswith("..."):
        block_indicators = True
    leading_space = leading_break = trailing_space = trailing_break = False
    break_space = space_break = previous_space = previous_break = False
    line_breaks = special = False
    preceded_by_ws = True
    n = len(s)
    for i, ch in enumerate(s):
        followed_by_ws = i + 1 >= n or s[i + 1] in " \t\n"
        if i == 0:
            if ch in "#,[]{}&*!|>'\"%@`":
                block_indicators = True
            elif ch in "?:":
                if followed_by_ws:
                    block_indicators = True
            elif ch == "-":
                if followed_by_ws:
                    block_indicators = True
        else:
            if ch == ":":
                if followed_by_ws:
                    block_indicators = True
            elif ch == "#":
                if preceded_by_ws:
                    block_indicators = True
        if not _is_printable(ch):
            special = True
        if ch == " ":
            if i == 0:
                leading_space = True
            if i == n - 1:
                trailing_space = True
            if previous_break:
                break_space = True
            previous_space, previous_break = True, False
        elif ch == "\n":
            line_breaks = True
            if i == 0:
                leading_break = True
            if i == n - 1:
                trailing_break = True
            if previous_space:
                space_break = True
            previous_space, previous_break = False, True
        else:
            previous_space = previous_break = False
        preceded_by_ws = ch in " \t\n\0"
    block_plain = True
    single = True
    block = True
    if leading_space or leading_break or trailing_space or trailing_break:
        block_plain = False
    if trailing_space:
        block = False
    if break_space:
        block_plain = False
        single = False
    if space_break or special:
        block_plain = single = block = False
    if line_breaks:
        block_plain = False
    if block_indicators:
        block_plain = False
    if "\t" in s:  # keep tabs out of plain/single (go-yaml treats them as non-printable)
        block_plain = single = block = False
    return (block_plain, single, block)


def scalar_style(s):
    """Pick the style kubectl (sigs.k8s.io/yaml -> go-yaml v2) would use."""
    block_plain, single, block = analyze_scalar(s)
    if "\n" in s:
        if block and not s.startswith(" ") and all(not line.endswith(" ") for line in s.split("\n")):
            return "literal"
        return "double"
    if resolves_to_non_string(s):
        return "double"
    if block_plain:
        return "plain"
    if single:
        return "single"
    return "double"


def double_quote(s):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\0":
            out.append("\\0")
        elif not _is_printable(ch):
            if o <= 0xFF:
                out.append("\\x%02X" % o)
            elif o <= 0xFFFF:
                out.append("\\u%04X" % o)
            else:
                out.append("\\U%08X" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


# ---------------------------------------------------------------------------
# YAML emitter (block style, like `kubectl get -o yaml`)
# ---------------------------------------------------------------------------


def go_yaml_key_less(a, b):
    """go-yaml v2 keyList.Less: 'natural' order (digit runs compared as numbers,
    non-letters before letters)."""
    ar, br = a, b
    for i in range(min(len(ar), len(br))):
        if ar[i] == br[i]:
            continue
        al, bl = ar[i].isalpha(), br[i].isalpha()
        if al and bl:
            return ar[i] < br[i]
        if al or bl:
            return bl
        an = bn = 0
        if ar[i] == "0" or br[i] == "0":
            j = i - 1
            while j >= 0 and ar[j].isdigit():
                if ar[j] != "0":
                    an = bn = 1
                    break
                j -= 1
        ai = i
        while ai < len(ar) and ar[ai].isdigit():
            an = an * 10 + int(ar[ai])
            ai += 1
        bi = i
        while bi < len(br) and br[bi].isdigit():
            bn = bn * 10 + int(br[bi])
            bi += 1
        if an != bn:
            return an < bn
        if ai != bi:
            return ai < bi
        return ar[i] < br[i]
    return len(ar) < len(br)


def sorted_keys(d):
    import functools

    return sorted(d.keys(), key=functools.cmp_to_key(
        lambda x, y: -1 if go_yaml_key_less(x, y) else (1 if go_yaml_key_less(y, x) else 0)))


class Emitter:
    def __init__(self, sort_keys=True, width=80):
        self.sort_keys = sort_keys
        self.width = width  # None = never fold long scalars
        self.parts = []
        self.col = 0

    def w(self, s):
        self.parts.append(s)
        nl = s.rfind("\n")
        if nl == -1:
            self.col += len(s)
        else:
            self.col = len(s) - nl - 1

    def nl(self, indent):
        self.w("\n" + " " * indent)

    def keys(self, d):
        return sorted_keys(d) if self.sort_keys else list(d.keys())

    def key(self, k):
        if not isinstance(k, str):
            raise TypeError("mapping keys must be strings: %r" % (k,))
        style = scalar_style(k)
        if style == "plain":
            self.w(k)
        elif style == "single":
            self.w("'" + k.replace("'", "''") + "'")
        else:
            self.w(double_quote(k))

    def scalar(self, v, cont_indent):
        """Write ' ' + scalar; the cursor is right after 'key:' or '-'."""
        if v is None:
            self.w(" null")
        elif v is True:
            self.w(" true")
        elif v is False:
            self.w(" false")
        elif isinstance(v, int):
            self.w(" %d" % v)
        elif isinstance(v, float):
            raise TypeError("floats are not used in Kubernetes objects here: %r" % v)
        elif isinstance(v, str):
            style = scalar_style(v)
            if style == "plain":
                self.w(" ")
                self.folded(v, cont_indent, single=False)
            elif style == "single":
                self.w(" '")
                self.folded(v.replace("'", "''"), cont_indent, single=True)
                self.w("'")
            elif style == "literal":
                if v.endswith("\n\n"):
                    chomp, body = "+", v[:-1]
                elif v.endswith("\n"):
                    chomp, body = "", v[:-1]
                else:
                    chomp, body = "-", v
                self.w(" |" + chomp)
                for line in body.split("\n"):
                    if line:
                        self.nl(cont_indent)
                        self.w(line)
                    else:
                        self.w("\n")
            else:
                self.w(" " + double_quote(v))
        else:
            raise TypeError("unsupported scalar %r" % (v,))

    def folded(self, s, cont_indent, single):
        if self.width is None:
            self.w(s)
            return
        buf = []
        spaces = False
        n = len(s)
        for i, ch in enumerate(s):
            if ch == " ":
                can_break = (not spaces and self.col + len(buf) > self.width
                             and i + 1 < n and s[i + 1] != " ")
                if single:
                    can_break = can_break and 0 < i < n - 1
                if can_break:
                    self.w("".join(buf))
                    buf = []
                    self.nl(cont_indent)
                else:
                    buf.append(ch)
                spaces = True
            else:
                buf.append(ch)
                spaces = False
        self.w("".join(buf))

    def value_after_key(self, v, indent):
        if isinstance(v, dict):
            if not v:
                self.w(" {}")
            else:
                self.mapping(v, indent + 2, inline_first=False)
        elif isinstance(v, list):
            if not v:
                self.w(" []")
            else:
                self.sequence(v, indent, inline_first=False)  # indentless, like kubectl
        else:
            self.scalar(v, indent + 2)

    def mapping(self, d, indent, inline_first):
        for i, k in enumerate(self.keys(d)):
            if not (i == 0 and inline_first):
                self.nl(indent)
            self.key(k)
            self.w(":")
            self.value_after_key(d[k], indent)

    def sequence(self, lst, indent, inline_first):
        for i, item in enumerate(lst):
            if not (i == 0 and inline_first):
                self.nl(indent)
            self.w("-")
            if isinstance(item, dict) and item:
                self.w(" ")
                self.mapping(item, indent + 2, inline_first=True)
            elif isinstance(item, list) and item:
                self.w(" ")
                self.sequence(item, indent + 2, inline_first=True)
            elif isinstance(item, dict):
                self.w(" {}")
            elif isinstance(item, list):
                self.w(" []")
            else:
                self.scalar(item, indent + 2)

    def document(self, obj):
        if isinstance(obj, dict) and obj:
            self.mapping(obj, 0, inline_first=True)
        elif isinstance(obj, list) and obj:
            self.sequence(obj, 0, inline_first=True)
        else:
            raise TypeError("top-level YAML document must be a non-empty mapping or sequence")
        self.w("\n")

    def text(self):
        return "".join(self.parts)


def to_yaml(obj, sort_keys=True, width=80):
    e = Emitter(sort_keys=sort_keys, width=width)
    e.document(obj)
    return e.text()


def to_yaml_stream(docs, sort_keys=False, width=None):
    out = []
    for d in docs:
        out.append("---\n")
        out.append(to_yaml(d, sort_keys=sort_keys, width=width))
    return "".join(out)


# ---------------------------------------------------------------------------
# YAML reader for the src subset
# ---------------------------------------------------------------------------


class SrcYAMLError(ValueError):
    pass


class _Line:
    __slots__ = ("no", "indent", "text")

    def __init__(self, no, indent, text):
        self.no, self.indent, self.text = no, indent, text


def _unquote_double(s, where):
    out = []
    i = 0
    esc = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", '"': '"', "\\": "\\", "/": "/",
           " ": " ", "a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "v": "\v", "N": "\x85",
           "_": "\xa0", "L": "\u2028", "P": "\u2029"}
    while i < len(s):
        ch = s[i]
        if ch == "\\":
            i += 1
            if i >= len(s):
                raise SrcYAMLError("%s: dangling backslash" % where)
            c = s[i]
            if c in esc:
                out.append(esc[c])
                i += 1
            elif c in "xuU":
                width = {"x": 2, "u": 4, "U": 8}[c]
                hexs = s[i + 1:i + 1 + width]
                if len(hexs) != width:
                    raise SrcYAMLError("%s: bad escape" % where)
                out.append(chr(int(hexs, 16)))
                i += 1 + width
            else:
                raise SrcYAMLError("%s: unknown escape \\%s" % (where, c))
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _scan_quoted(text, start, where):
    """Return (value, end_index) of a quoted scalar starting at text[start]."""
    q = text[start]
    i = start + 1
    if q == "'":
        buf = []
        while i < len(text):
            if text[i] == "'":
                if i + 1 < len(text) and text[i + 1] == "'":
                    buf.append("'")
                    i += 2
                    continue
                return "".join(buf), i + 1
            buf.append(text[i])
            i += 1
    else:
        while i < len(text):
            if text[i] == "\\":
                i += 2
                continue
            if text[i] == '"':
                return _unquote_double(text[start + 1:i], where), i + 1
            i += 1
    raise SrcYAMLError("%s: unterminated quoted scalar (multi-line quoted scalars are not supported in src)" % where)


def _plain(s, where):
    if s in _NULLS:
        return None
    if s in ("true", "True", "TRUE"):
        return True
    if s in ("false", "False", "FALSE"):
        return False
    if _DECIMAL_INT_RE.match(s):
        return int(s)
    if resolves_to_non_string(s):
        raise SrcYAMLError("%s: ambiguous plain scalar %r: quote it" % (where, s))
    if s[:1] in "&*!|>%@`{[" or s.startswith("- ") or ": " in s or " #" in s:
        raise SrcYAMLError("%s: unsupported construct in plain scalar %r" % (where, s))
    return s


def _scalar(text, where):
    text = text.strip()
    if text == "{}":
        return {}
    if text == "[]":
        return []
    if text[:1] in ("'", '"'):
        v, end = _scan_quoted(text, 0, where)
        rest = text[end:].strip()
        if rest and not rest.startswith("#"):
            raise SrcYAMLError("%s: text after quoted scalar: %r" % (where, rest))
        return v
    # strip a trailing comment
    m = re.search(r"\s#", text)
    if m:
        text = text[:m.start()].rstrip()
    return _plain(text, where)


def _split_key(text, where):
    """Split 'key: value' / 'key:' -> (key, rest) or None when text is not a mapping entry."""
    if text[:1] in ("'", '"'):
        k, end = _scan_quoted(text, 0, where)
        rest = text[end:]
        if rest == ":" or rest.startswith(": "):
            return k, rest[1:].strip()
        return None
    m = re.search(r":( |$)", text)
    if not m:
        return None
    key = text[:m.start()]
    if not key or key.startswith("- ") or key == "-":
        return None
    if key[:1] in "&*!|>%@`{[#?":
        raise SrcYAMLError("%s: unsupported key %r" % (where, key))
    return key, text[m.end():].strip()


class SrcReader:
    def __init__(self, text, path):
        self.path = path
        self.raw = text.split("\n")
        if self.raw and self.raw[-1] == "":
            self.raw.pop()
        self.docs = []

    def where(self, no):
        return "%s:%d" % (self.path, no)

    def read(self):
        # split into documents on '---'
        docs, cur = [], []
        for no, line in enumerate(self.raw, 1):
            if line.rstrip() == "---":
                if cur:
                    docs.append(cur)
                cur = []
                continue
            if line.rstrip() == "...":
                continue
            if "\t" in line[:len(line) - len(line.lstrip(" \t"))]:
                raise SrcYAMLError("%s: tab in indentation" % self.where(no))
            cur.append((no, line))
        if cur:
            docs.append(cur)
        result = []
        for doc in docs:
            self.lines = doc
            self.i = 0
            self._skip_blank()
            if self.i >= len(self.lines):
                continue
            node = self.block(self._indent(self.lines[self.i][1]))
            self._skip_blank()
            if self.i < len(self.lines):
                raise SrcYAMLError("%s: unexpected content" % self.where(self.lines[self.i][0]))
            result.append(node)
        return result

    @staticmethod
    def _indent(line):
        return len(line) - len(line.lstrip(" "))

    def _skip_blank(self):
        while self.i < len(self.lines):
            s = self.lines[self.i][1].strip()
            if s == "" or s.startswith("#"):
                self.i += 1
            else:
                break

    def _peek(self):
        self._skip_blank()
        if self.i >= len(self.lines):
            return None
        no, line = self.lines[self.i]
        return no, self._indent(line), line.strip()

    def block(self, indent):
        p = self._peek()
        no, ind, text = p
        if text == "-" or text.startswith("- "):
            return self.sequence(ind)
        return self.mapping(ind)

    def mapping(self, indent, first=None):
        d = {}
        while True:
            if first is not None:
                no, text = first
                first = None
            else:
                p = self._peek()
                if p is None:
                    break
                no, ind, text = p
                if ind < indent:
                    break
                if ind > indent:
                    raise SrcYAMLError("%s: bad indentation" % self.where(no))
                if text == "-" or text.startswith("- "):
                    break
                self.i += 1
            kv = _split_key(text, self.where(no))
            if kv is None:
                raise SrcYAMLError("%s: expected 'key: value'" % self.where(no))
            k, rest = kv
            if k in d:
                raise SrcYAMLError("%s: duplicate key %r" % (self.where(no), k))
            d[k] = self.value(rest, indent, no)
        return d

    def value(self, rest, indent, no):
        if rest == "":
            p = self._peek()
            if p is None:
                return None
            _, ind, text = p
            if ind > indent:
                return self.block(ind)
            if ind == indent and (text == "-" or text.startswith("- ")):
                return self.sequence(ind)
            return None
        if rest[:1] == "|":
            return self.literal(rest, indent, no)
        return _scalar(rest, self.where(no))

    def literal(self, header, indent, no):
        m = re.match(r"^\|([-+]?)$", header)
        if not m:
            raise SrcYAMLError("%s: unsupported block scalar header %r" % (self.where(no), header))
        chomp = m.group(1)
        lines = []
        content_indent = None
        while self.i < len(self.lines):
            lno, line = self.lines[self.i]
            if line.strip() == "":
                lines.append("")
                self.i += 1
                continue
            ind = self._indent(line)
            if content_indent is None:
                if ind <= indent:
                    break
                content_indent = ind
            if ind < content_indent:
                break
            lines.append(line[content_indent:])
            self.i += 1
        # trailing blank lines belong to the scalar only for '+' chomping
        trailing = 0
        while lines and lines[-1] == "":
            lines.pop()
            trailing += 1
        text = "\n".join(lines)
        if chomp == "-":
            return text
        if chomp == "+":
            return text + "\n" + "\n" * trailing
        return text + "\n"

    def sequence(self, indent, first=None):
        out = []
        while True:
            if first is not None:
                no, text = first
                first = None
            else:
                p = self._peek()
                if p is None:
                    break
                no, ind, text = p
                if ind != indent or not (text == "-" or text.startswith("- ")):
                    if ind > indent:
                        raise SrcYAMLError("%s: bad indentation" % self.where(no))
                    break
                self.i += 1
            rest = text[1:].strip()
            item_indent = indent + 2
            if rest == "":
                p2 = self._peek()
                if p2 is not None and p2[1] > indent:
                    out.append(self.block(p2[1]))
                else:
                    out.append(None)
            elif rest == "-" or rest.startswith("- "):
                out.append(self.sequence(item_indent, first=(no, rest)))
            elif rest[:1] == "|":
                out.append(self.literal(rest, indent, no))
            else:
                kv = _split_key(rest, self.where(no)) if rest not in ("{}", "[]") else None
                if kv is not None:
                    out.append(self.mapping(item_indent, first=(no, rest)))
                else:
                    out.append(_scalar(rest, self.where(no)))
        return out


def read_src_yaml(path):
    with open(path, "r", encoding="utf-8") as f:
        text = f.read()
    return SrcReader(text, os.path.relpath(path, HERE)).read()


# ---------------------------------------------------------------------------
# JSON like kubectl / Go encoding/json (2-space indent, HTML-safe escapes)
# ---------------------------------------------------------------------------


def to_json(obj):
    s = json.dumps(obj, indent=2, ensure_ascii=False)
    return (s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


# ---------------------------------------------------------------------------
# Scenario loading
# ---------------------------------------------------------------------------


class Scenario:
    def __init__(self, name):
        self.name = name
        self.dir = os.path.join(SRC, name)
        self.objects = {}  # kind -> list
        for kind, fname, _api, _grp, _plural in ALL_KINDS:
            path = os.path.join(self.dir, fname)
            objs = read_src_yaml(path) if os.path.exists(path) else []
            for o in objs:
                if o.get("kind") != kind:
                    raise SystemExit("%s: expected kind %s, got %r" % (path, kind, o.get("kind")))
            self.objects[kind] = objs
        self.logs = {}  # (ns, pod, container, 'current'|'previous') -> bytes
        logroot = os.path.join(self.dir, "logs")
        if os.path.isdir(logroot):
            for ns in sorted(os.listdir(logroot)):
                for pod in sorted(os.listdir(os.path.join(logroot, ns))):
                    for fn in sorted(os.listdir(os.path.join(logroot, ns, pod))):
                        with open(os.path.join(logroot, ns, pod, fn), "rb") as f:
                            data = f.read()
                        if fn.endswith("-previous.log"):
                            self.logs[(ns, pod, fn[:-len("-previous.log")], "previous")] = data
                        elif fn.endswith(".log"):
                            self.logs[(ns, pod, fn[:-len(".log")], "current")] = data
        rvs = [int(o["metadata"]["resourceVersion"]) for objs in self.objects.values() for o in objs]
        self.list_rv = str(max(rvs) + 17)
        self.validate()

    def validate(self):
        """Cheap consistency checks so hand edits can't silently break a scenario."""
        uids = {}
        for kind, objs in self.objects.items():
            for o in objs:
                md = o["metadata"]
                uid = md["uid"]
                if uid in uids:
                    raise SystemExit("%s: duplicate uid %s (%s and %s/%s)" % (self.name, uid, uids[uid], kind, md["name"]))
                uids[uid] = "%s/%s" % (kind, md["name"])
        by_uid = {}
        for kind, objs in self.objects.items():
            for o in objs:
                by_uid[o["metadata"]["uid"]] = o
        for kind, objs in self.objects.items():
            for o in objs:
                for ref in o["metadata"].get("ownerReferences", []):
                    owner = by_uid.get(ref["uid"])
                    if owner is None or owner["metadata"]["name"] != ref["name"] or owner["kind"] != ref["kind"]:
                        raise SystemExit("%s: %s/%s owner %s/%s not found" % (self.name, kind, o["metadata"]["name"], ref["kind"], ref["name"]))
        for ev in self.objects.get("Event", []):
            io_ = ev["involvedObject"]
            tgt = by_uid.get(io_.get("uid"))
            if tgt is None or tgt["metadata"]["name"] != io_["name"]:
                raise SystemExit("%s: event %s involvedObject %s not found" % (self.name, ev["metadata"]["name"], io_["name"]))
        pods = {(p["metadata"]["namespace"], p["metadata"]["name"]): p for p in self.objects.get("Pod", [])}
        for (ns, pod, c, _which) in self.logs:
            p = pods.get((ns, pod))
            if p is None or c not in [x["name"] for x in p["spec"]["containers"]]:
                raise SystemExit("%s: log for unknown container %s/%s/%s" % (self.name, ns, pod, c))

    def namespaces(self):
        return sorted(o["metadata"]["name"] for o in self.objects["Namespace"])

    def of(self, kind, ns=None):
        objs = self.objects.get(kind, [])
        if ns is not None:
            objs = [o for o in objs if o["metadata"].get("namespace") == ns]
        return sorted(objs, key=lambda o: (o["metadata"].get("namespace", ""), o["metadata"]["name"],
                                           o["metadata"]["uid"]))

    def list_obj(self, kind, api, items, strip_type=False):
        its = []
        for o in items:
            o = copy.deepcopy(o)
            if strip_type:
                o.pop("kind", None)
                o.pop("apiVersion", None)
            its.append(o)
        return {"kind": kind + "List", "apiVersion": api, "metadata": {"resourceVersion": self.list_rv},
                "items": its}


# ---------------------------------------------------------------------------
# Archive writers (deterministic)
# ---------------------------------------------------------------------------


def write_zip(path, files):
    """files: dict arcname -> bytes. Directory entries are added like `zip -r`."""
    dirs = set()
    for name in files:
        parts = name.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]) + "/")
    entries = sorted(list(files.keys()) + list(dirs))
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w") as zf:
        for name in entries:
            zi = zipfile.ZipInfo(name, date_time=FIXED_DATE_TIME)
            zi.create_system = 3
            if name.endswith("/"):
                zi.external_attr = (0o40755 << 16) | 0x10
                zi.compress_type = zipfile.ZIP_STORED
                zf.writestr(zi, b"")
            else:
                zi.external_attr = 0o100644 << 16
                zi.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(zi, files[name], compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    os.replace(tmp, path)


def write_tar_gz(path, files):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tf:
        for name in sorted(files):
            data = files[name]
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            ti.mtime = FIXED_EPOCH
            ti.mode = 0o644
            ti.uid = ti.gid = 1000
            ti.uname = ti.gname = "kdiag"
            ti.type = tarfile.REGTYPE
            tf.addfile(ti, io.BytesIO(data))
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, compresslevel=9, mtime=FIXED_EPOCH) as gz:
            gz.write(raw.getvalue())
    os.replace(tmp, path)


def write_text(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    os.utime(path, (FIXED_EPOCH, FIXED_EPOCH))


# ---------------------------------------------------------------------------
# Bundle forms
# ---------------------------------------------------------------------------


def y(obj):
    return to_yaml(obj, sort_keys=True, width=80).encode("utf-8")


def must_gather_files(sc):
    root = MUST_GATHER_ROOT
    files = {
        root + "/timestamp": MUST_GATHER_TIMESTAMP.encode(),
        root + "/version": MUST_GATHER_VERSION.encode(),
    }
    for node in sc.of("Node"):
        files["%s/cluster-scoped-resources/core/nodes/%s.yaml" % (root, node["metadata"]["name"])] = y(node)
    for ns_obj in sc.of("Namespace"):
        files["%s/cluster-scoped-resources/core/namespaces/%s.yaml" % (root, ns_obj["metadata"]["name"])] = y(ns_obj)
    for ns in sc.namespaces():
        base = "%s/namespaces/%s" % (root, ns)
        for kind, fname, api, grp, _plural in NAMESPACED_KINDS:
            items = sc.of(kind, ns)
            # must-gather writes the lists it found; pods and events always.
            if not items and kind not in ("Pod", "Event"):
                continue
            lst = sc.list_obj(kind, api, items, strip_type=(kind == "Pod"))
            files["%s/%s/%s" % (base, grp, fname)] = y(lst)
        for pod in sc.of("Pod", ns):
            pname = pod["metadata"]["name"]
            files["%s/pods/%s/%s.yaml" % (base, pname, pname)] = y(pod)
            for c in pod["spec"]["containers"]:
                for which in ("current", "previous"):
                    data = sc.logs.get((ns, pname, c["name"], which))
                    if data is not None:
                        files["%s/pods/%s/%s/%s/logs/%s.log" % (base, pname, c["name"], c["name"], which)] = data
    return files


def troubleshoot_files(sc):
    meta = SCENARIOS[sc.name]
    root = TROUBLESHOOT_ROOT
    gv = meta["git_version"]
    major, minor = gv.lstrip("v").split(".")[:2]
    cluster_version = {
        "info": {
            "major": major,
            "minor": minor,
            "gitVersion": gv,
            "gitCommit": meta["git_commit"],
            "gitTreeState": "clean",
            "buildDate": meta["build_date"],
            "goVersion": meta["go_version"],
            "compiler": "gc",
            "platform": "linux/amd64",
        },
        "string": gv,
    }
    files = {
        # Real troubleshoot bundles write `kind: SupportBundle` here (the Go type is
        # SupportBundleVersion); see README "Decisions".
        root + "/version.yaml": ("apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\nspec:\n"
                                 "  versionNumber: %s\n" % TROUBLESHOOT_VERSION).encode(),
        root + "/analysis.json": b"[]",
        root + "/cluster-info/cluster_version.json": to_json(cluster_version).encode(),
    }

    def lst(kind, api, items):
        o = sc.list_obj(kind, api, items)
        if not items:
            o["items"] = None  # Go nil slice, exactly what real bundles contain
        return o

    files[root + "/cluster-resources/namespaces.json"] = to_json(lst("Namespace", "v1", sc.of("Namespace"))).encode()
    files[root + "/cluster-resources/nodes.json"] = to_json(lst("Node", "v1", sc.of("Node"))).encode()
    for ns in sc.namespaces():
        for kind, _fname, api, _grp, plural in NAMESPACED_KINDS:
            files["%s/cluster-resources/%s/%s.json" % (root, plural, ns)] = to_json(lst(kind, api, sc.of(kind, ns))).encode()
        for pod in sc.of("Pod", ns):
            pname = pod["metadata"]["name"]
            for c in pod["spec"]["containers"]:
                cur = sc.logs.get((ns, pname, c["name"], "current"))
                prev = sc.logs.get((ns, pname, c["name"], "previous"))
                if cur is not None:
                    files["%s/cluster-resources/pods/logs/%s/%s/%s.log" % (root, ns, pname, c["name"])] = cur
                if prev is not None:
                    files["%s/cluster-resources/pods/logs/%s/%s/%s-previous.log" % (root, ns, pname, c["name"])] = prev
    return files


def list_file(sc):
    items = []
    for kind, *_rest in ALL_KINDS:
        items.extend(sc.of(kind))
    # `kubectl get a,b,c -A -o yaml` shape
    return to_yaml({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}},
                   sort_keys=True, width=80).encode("utf-8")


# ---------------------------------------------------------------------------
# bad-input (folder form)
# ---------------------------------------------------------------------------


def _prng_bytes(seed, n):
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(seed + counter.to_bytes(4, "big")).digest()
        counter += 1
    return out[:n]


def binary_yaml():
    # 320 bytes: a plausible start, then NULs, invalid UTF-8 and pseudo-random bytes
    head = b"apiVersion: v1\nkind: Pod\nmetadata:\n  name: \x00\x00\xff\xfe\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc\n"
    body = _prng_bytes(b"kdiag/bad-input/binary.yaml", 320 - len(head))
    return head + body


def deep_json():
    depth = 10000
    return b"[" * depth + b"]" * depth + b"\n"


def alias_bomb_yaml():
    lines = [
        "# billion laughs: 9 levels x 9 references -> 9^9 (387,420,489) leaves if expanded",
        "apiVersion: v1",
        "kind: ConfigMap",
        "metadata:",
        "  name: lol",
        "  namespace: default",
        "data:",
        '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    ]
    names = "abcdefghi"
    for prev, cur in zip(names, names[1:]):
        lines.append("  %s: &%s [%s]" % (cur, cur, ",".join(["*" + prev] * 9)))
    return ("\n".join(lines) + "\n").encode()


def build_bad_input(outdir):
    src = os.path.join(SRC, "bad-input")
    files = {}
    for fn in sorted(os.listdir(src)):
        with open(os.path.join(src, fn), "rb") as f:
            files[fn] = f.read()
    files["binary.yaml"] = binary_yaml()
    files["deep.json"] = deep_json()
    files["alias-bomb.yaml"] = alias_bomb_yaml()
    if os.path.isdir(outdir):
        for fn in os.listdir(outdir):  # only ever our own flat folder
            os.remove(os.path.join(outdir, fn))
    else:
        os.makedirs(outdir)
    for fn in sorted(files):
        write_text(os.path.join(outdir, fn), files[fn])
    os.utime(outdir, (FIXED_EPOCH, FIXED_EPOCH))
    return sorted(files)


# ---------------------------------------------------------------------------


def build(outdir):
    produced = []
    for name in SCENARIOS:
        sc = Scenario(name)
        p = os.path.join(outdir, name + ".must-gather.zip")
        write_zip(p, must_gather_files(sc))
        os.utime(p, (FIXED_EPOCH, FIXED_EPOCH))
        produced.append(p)
        p = os.path.join(outdir, name + ".troubleshoot.tar.gz")
        write_tar_gz(p, troubleshoot_files(sc))
        os.utime(p, (FIXED_EPOCH, FIXED_EPOCH))
        produced.append(p)
        p = os.path.join(outdir, name + ".list.yaml")
        write_text(p, list_file(sc))
        produced.append(p)
    build_bad_input(os.path.join(outdir, "bad-input"))
    produced.append(os.path.join(outdir, "bad-input"))
    return produced


def _digest_tree(root):
    out = {}
    for dp, _dn, fns in os.walk(root):
        for fn in fns:
            p = os.path.join(dp, fn)
            with open(p, "rb") as f:
                out[os.path.relpath(p, root)] = hashlib.sha256(f.read()).hexdigest()
    return out


def write_or_check(files, here, argv):
    """The main of an area's generator: write `files` (relative path -> text) into `here`, or with
    `--check` fail when a file there differs from a fresh build."""
    if "--check" in argv:
        bad = [n for n, t in files.items()
               if not os.path.exists(os.path.join(here, n)) or open(os.path.join(here, n)).read() != t]
        if bad:
            print("out of date:", ", ".join(sorted(bad)))
            return 1
        print("up to date: %d files" % len(files))
        return 0
    for name, text in sorted(files.items()):
        os.makedirs(os.path.dirname(os.path.join(here, name)), exist_ok=True)
        with open(os.path.join(here, name), "w") as f:
            f.write(text)
        print("%8d  %s" % (len(text), name))
    return 0


def main(argv):
    if "--check" in argv:
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            build(a)
            build(b)
            da, db = _digest_tree(a), _digest_tree(b)
            if da != db:
                print("NOT deterministic:", sorted(k for k in set(da) | set(db) if da.get(k) != db.get(k)))
                return 1
            print("deterministic: %d files identical across two builds" % len(da))
        return 0
    for p in build(HERE):
        if os.path.isdir(p):
            for fn in sorted(os.listdir(p)):
                fp = os.path.join(p, fn)
                print("%10d  %s" % (os.path.getsize(fp), os.path.relpath(fp, HERE)))
        else:
            print("%10d  %s" % (os.path.getsize(p), os.path.relpath(p, HERE)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

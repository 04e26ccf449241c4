#!/usr/bin/env python3
"""Builds rules/hip_provided.tsv: function signatures that CUDA code commonly defines itself and
that HIP's own headers already provide, so that the user's definition breaks the HIP build
(redefinition, or an ambiguous call).

Each candidate is a user definition as CUDA code writes it (cuda-samples' helper_math.h
operators, float atomicMax/atomicMin built on atomicCAS, pre-CUDA-9 warp shuffles, lane masks),
followed by a use. All candidates go into one HIP file compiled with the installed hipcc
(-fsyntax-only, no error limit); a candidate is listed when the compiler reports an error on its
definition or on its use. Candidates that compile beside HIP's (a non-template user operator+
wins over HIP's template) are not listed: the user's definition stays as written.

The host API (every non-template `hip*` function that <hip/hip_runtime.h> declares) is added
from clang's AST of the header, without probes: a user definition with the same parameter
list is always a redefinition or differs from HIP's only in its return type. Parameters with
a default argument give one row per prefix that a call can use.

Usage: scripts/gen_hip_provided.py [--hipcc hipcc] [--out rules/hip_provided.tsv]
The table records the HIP version it was built from; rerun for another HIP.
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SCALARS = {  # vector element prefix -> canonical scalar spelling (as in hip_provided.tsv)
    "char": "signed char", "uchar": "unsigned char", "short": "short", "ushort": "unsigned short",
    "int": "int", "uint": "unsigned", "long": "long", "ulong": "unsigned long",
    "longlong": "long long", "ulonglong": "unsigned long long", "float": "float", "double": "double",
}
INTEGER = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong"}
WARP_TYPES = ["int", "unsigned", "float", "double", "long", "unsigned long", "long long",
              "unsigned long long"]
ATOMIC_TYPES = ["int", "unsigned", "unsigned long", "unsigned long long", "long long", "float", "double"]


class Candidate:
    def __init__(self, name, params, category, body, uses, attrs="__device__"):
        self.name = name            # function name or operatorOP
        self.params = params        # canonical parameter types; a trailing "=" marks a default
        self.category = category
        self.body = body            # definition text (one line)
        self.uses = uses            # statements using it (one function)
        self.attrs = attrs

    def key(self):
        return self.name + "(" + ",".join(self.params) + ")"


def declarator(t, name):
    """`float*`, `p` -> `float* p`; `float4&`, `a` -> `float4& a`."""
    return f"{t} {name}"


def candidates():
    out = []
    # Operators on CUDA vector types, as helper_math.h writes them.
    for elem, scalar in SCALARS.items():
        for n in (1, 2, 3, 4):
            v = f"{elem}{n}"
            ops = ["+", "-", "*", "/"] + (["%", "&", "|", "^", "<<", ">>"] if elem in INTEGER else [])
            for op in ops:
                for rhs in (v, scalar):
                    out.append(Candidate(f"operator{op}=", [v + "&", rhs], "vector",
                                         f"inline void operator{op}=({v}& a, {rhs} b) {{ }}",
                                         [f"{v} a{{}}; {rhs} b{{}}; a {op}= b;"], "__host__ __device__"))
                for lhs, rhs in ((v, v), (v, scalar), (scalar, v)):
                    out.append(Candidate(f"operator{op}", [lhs, rhs], "vector",
                                         f"inline {v} operator{op}({lhs} a, {rhs} b) {{ return {v}{{}}; }}",
                                         [f"{lhs} a{{}}; {rhs} b{{}}; (void)(a {op} b);"], "__host__ __device__"))
            out.append(Candidate("operator-", [v], "vector", f"inline {v} operator-({v} a) {{ return a; }}",
                                 [f"{v} a{{}}; (void)(-a);"], "__host__ __device__"))
            if elem in INTEGER:
                out.append(Candidate("operator~", [v], "vector", f"inline {v} operator~({v} a) {{ return a; }}",
                                     [f"{v} a{{}}; (void)(~a);"], "__host__ __device__"))
            for op in ("==", "!="):
                out.append(Candidate(f"operator{op}", [v, v], "vector",
                                     f"inline bool operator{op}({v} a, {v} b) {{ return true; }}",
                                     [f"{v} a{{}}, b{{}}; (void)(a {op} b);"], "__host__ __device__"))
    # Atomics CUDA lacks for some types (float atomicMax/atomicMin via atomicCAS, ...).
    for f in ("atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicExch", "atomicAnd", "atomicOr",
              "atomicXor", "atomicInc", "atomicDec"):
        for t in ATOMIC_TYPES:
            out.append(Candidate(f, [t + "*", t], "atomic",
                                 f"{t} {f}({t}* p, {t} v) {{ return v; }}",
                                 [f"{t}* p = nullptr; {t} v{{}}; (void){f}(p, v);"]))
    for t in ATOMIC_TYPES:
        out.append(Candidate("atomicCAS", [t + "*", t, t], "atomic",
                             f"{t} atomicCAS({t}* p, {t} c, {t} v) {{ return v; }}",
                             [f"{t}* p = nullptr; {t} c{{}}, v{{}}; (void)atomicCAS(p, c, v);"]))
    # Pre-CUDA-9 warp functions, written by code that targets sm_70+.
    for f in ("__shfl", "__shfl_up", "__shfl_down", "__shfl_xor"):
        for t in WARP_TYPES:
            for lane in ("int", "unsigned"):
                use2 = f"{t} v{{}}; {lane} l{{}}; (void){f}(v, l);"
                use3 = f"{t} v{{}}; {lane} l{{}}; (void){f}(v, l, 32);"
                out.append(Candidate(f, [t, lane], "warp", f"{t} {f}({t} v, {lane} l) {{ return v; }}", [use2]))
                out.append(Candidate(f, [t, lane, "int="], "warp",
                                     f"{t} {f}({t} v, {lane} l, int w = 32) {{ return v; }}", [use2, use3]))
                out.append(Candidate(f, [t, lane, "int"], "warp",
                                     f"{t} {f}({t} v, {lane} l, int w) {{ return v; }}", [use3]))
    for f in ("__ballot", "__any", "__all"):
        for t in ("int", "bool"):
            out.append(Candidate(f, [t], "warp", f"unsigned {f}({t} p) {{ return 0; }}",
                                 [f"{t} p{{}}; (void){f}(p);"]))
    for f in ("__lane_id", "__lanemask_lt", "__lanemask_le", "__lanemask_gt", "__lanemask_ge",
              "__lanemask_eq", "__activemask", "__syncwarp"):
        out.append(Candidate(f, [], "warp", f"unsigned {f}() {{ return 0; }}", [f"(void){f}();"]))
    return out


WORDS = {"unsigned", "signed", "int", "long", "short", "char"}
TYPEDEFS = {"uint32_t": "unsigned", "int32_t": "int", "uint64_t": "unsigned long", "int64_t": "long",
            "size_t": "unsigned long", "uint16_t": "unsigned short", "int16_t": "short",
            "uint8_t": "unsigned char", "int8_t": "signed char", "uint": "unsigned",
            "ushort": "unsigned short", "half": "__half", "__uint32_t": "unsigned", "__int32_t": "int",
            "__uint64_t": "unsigned long", "__int64_t": "long"}


def canonical(type_text):
    """The same canonical spelling as canonical_param_type() in src/targets/hip/hip_provided_pass.cpp."""
    w = [t for t in re.findall(r"[A-Za-z_]\w*|::|&&|[*&]", type_text) if t not in ("struct", "enum", "union")]
    w = [t for i, t in enumerate(w) if not (t == "std" and i + 1 < len(w) and w[i + 1] == "::")
         and not (t == "::" and i > 0 and w[i - 1] == "std")]
    stars = [i for i, t in enumerate(w) if t == "*"]
    last_star = stars[-1] if stars else None
    had_const = False
    kept = []
    for i, t in enumerate(w):
        if t == "const" and (last_star is None or i > last_star):
            had_const = True
            continue
        kept.append(t)
    if had_const and last_star is None and kept and kept[-1] == "&":
        kept.pop()
    out = ""

    def append(s):
        nonlocal out
        if s[0].isalnum() or s[0] == "_":
            if out and (out[-1].isalnum() or out[-1] == "_"):
                out += " "
        out += s

    i = 0
    while i < len(kept):
        if kept[i] in WORDS:
            uns = sig = ch = sh = False
            longs = 0
            while i < len(kept) and kept[i] in WORDS:
                k = kept[i]
                uns |= k == "unsigned"
                sig |= k == "signed"
                longs += k == "long"
                sh |= k == "short"
                ch |= k == "char"
                i += 1
            t = ("unsigned char" if uns else "signed char" if sig else "char") if ch else \
                "short" if sh else "long long" if longs == 2 else "long" if longs == 1 else "int"
            if uns and not ch:
                t = "unsigned" if t == "int" else "unsigned " + t
            append(t)
            continue
        append(TYPEDEFS.get(kept[i], kept[i]))
        i += 1
    return out


def host_api(hipcc):
    """(name, canonical params) of every non-template hip* function the runtime header declares."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "api.hip"
        src.write_text("#include <hip/hip_runtime.h>\n")
        p = subprocess.run([hipcc, "-x", "hip", "--offload-arch=gfx906", "--cuda-host-only", "-fsyntax-only",
                            "-Xclang", "-ast-dump=json", str(src)], capture_output=True, text=True)
    tu = json.loads(p.stdout)
    rows = set()

    def walk(node):
        for x in node.get("inner", []):
            k = x.get("kind")
            if k in ("LinkageSpecDecl", "NamespaceDecl"):
                walk(x)
            elif k == "FunctionDecl" and x.get("name", "").startswith("hip"):
                parms = [c for c in x.get("inner", []) if c.get("kind") == "ParmVarDecl"]
                types = [canonical(c["type"]["qualType"]) for c in parms]
                defaults = ["init" in c for c in parms]
                rows.add((x["name"], ",".join(t + ("=" if d else "") for t, d in zip(types, defaults))))
                for n in range(len(types) - 1, -1, -1):  # prefixes a call may use
                    if not defaults[n]:
                        break
                    rows.add((x["name"], ",".join(types[:n])))
                rows.add((x["name"], ",".join(types)))

    walk(tu)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hipcc", default="hipcc")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "rules" / "hip_provided.tsv"))
    a = ap.parse_args()
    version = subprocess.run([a.hipcc, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"HIP version: (\S+)", version)
    hip_version = m.group(1) if m else "unknown"

    cands = candidates()
    lines = ["#include <hip/hip_runtime.h>"]
    owner = {}  # source line -> candidate index
    for i, c in enumerate(cands):
        owner[len(lines) + 1] = i
        lines.append(f"{c.attrs} {c.body}")
        for u in c.uses:
            owner[len(lines) + 1] = i
            lines.append(f"{c.attrs} void use_{i}_{len(lines)}() {{ {u} }}")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "probe.hip"
        src.write_text("\n".join(lines) + "\n")
        p = subprocess.run([a.hipcc, "-x", "hip", "--offload-arch=gfx906", "-fsyntax-only", "-ferror-limit=0",
                            "-w", str(src)], capture_output=True, text=True)
    hit = set()
    for m in re.finditer(r"probe\.hip:(\d+):\d+: error:", p.stderr):
        line = int(m.group(1))
        if line in owner:
            hit.add(owner[line])
        elif line > 1:
            sys.exit(f"error outside a candidate at probe line {line}:\n{p.stderr[:4000]}")
    rows = {(cands[i].name, ",".join(cands[i].params), cands[i].category) for i in hit}
    rows |= {(name, params, "runtime") for name, params in host_api(a.hipcc)}
    rows = sorted(rows)
    with open(a.out, "w") as f:
        f.write(f"""# User definitions that HIP {hip_version}'s <hip/hip_runtime.h> already provides, by signature.
# A CUDA definition with one of these signatures breaks the HIP build (redefinition, or an
# ambiguous call between it and HIP's own); the hip target guards it with
# `#if !defined(__HIP_PLATFORM_AMD__)` so that HIP's definition serves the uses (FRY4103,
# docs/diagnostics.md). Generated by scripts/gen_hip_provided.py, which compiles each candidate
# and a use of it with hipcc and keeps the ones that fail; do not edit by hand.
#
# Categories: vector, atomic, warp (probed: the definition or a use failed to compile beside
# HIP's), runtime (the host API, from clang's AST of the header: same parameter list).
#
# Format: name<TAB>parameter types<TAB>category. Types are canonical: `unsigned` for
# `unsigned int`, `long` for `long int`, `T` for `const T&` and `const T`, no parameter names;
# a trailing `=` marks a parameter with a default argument.
""")
        for name, params, cat in rows:
            f.write(f"{name}\t{params}\t{cat}\n")
    print(f"{len(hit)} of {len(cands)} probed candidates conflict with HIP {hip_version}; "
          f"{len(rows)} rows with the host API; wrote {a.out}")


if __name__ == "__main__":
    main()

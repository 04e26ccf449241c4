#!/usr/bin/env python3
"""Ferry's compat headers: the SIMD intrinsics (simd.h) against a lane-by-lane reference written here
from the CUDA Math API's definitions, and __dp4a/__dp2a_lo/__dp2a_hi (signed and unsigned) against a
reference from the same, on the host (no GPU here), compiled by the real hipcc.
Shared set-up: compat_headers_common.py. Skips (77) without hipcc."""

import random
import re
import sys

from compat_headers_common import hip_compile, run, lanes, signed, pack, main


SIMD_UNARY = {"__vabs2", "__vabs4", "__vabsss2", "__vabsss4", "__vneg2", "__vneg4", "__vnegss2", "__vnegss4"}


def simd_ref(name, a, b):
    bits = 16 if name.endswith("2") else 8
    base = name[:-1]
    hi_s, lo_s, hi_u = (1 << (bits - 1)) - 1, -(1 << (bits - 1)), (1 << bits) - 1
    cs = lambda v: max(lo_s, min(hi_s, v))
    cu = lambda v: max(0, min(hi_u, v))
    A, B = lanes(a, bits), lanes(b, bits)
    SA, SB = [signed(x, bits) for x in A], [signed(x, bits) for x in B]
    if base in ("__vsads", "__vsadu"):
        xs, ys = (SA, SB) if base == "__vsads" else (A, B)
        return sum(abs(x - y) for x, y in zip(xs, ys)) & 0xFFFFFFFF
    cmp = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "ge": lambda x, y: x >= y,
           "gt": lambda x, y: x > y, "le": lambda x, y: x <= y, "lt": lambda x, y: x < y}
    m = re.match(r"__v(cmp|set)(eq|ne|ge|gt|le|lt)(s|u)?$", base)
    if m:
        xs, ys = (SA, SB) if m.group(3) == "s" else (A, B)
        t = -1 if m.group(1) == "cmp" else 1
        return pack([t if cmp[m.group(2)](x, y) else 0 for x, y in zip(xs, ys)], bits)
    ops = {
        "__vabs": lambda: [abs(x) for x in SA],
        "__vabsss": lambda: [cs(abs(x)) for x in SA],
        "__vneg": lambda: [-x for x in SA],
        "__vnegss": lambda: [cs(-x) for x in SA],
        "__vadd": lambda: [x + y for x, y in zip(A, B)],
        "__vsub": lambda: [x - y for x, y in zip(A, B)],
        "__vaddss": lambda: [cs(x + y) for x, y in zip(SA, SB)],
        "__vaddus": lambda: [cu(x + y) for x, y in zip(A, B)],
        "__vsubss": lambda: [cs(x - y) for x, y in zip(SA, SB)],
        "__vsubus": lambda: [cu(x - y) for x, y in zip(A, B)],
        "__vabsdiffs": lambda: [abs(x - y) for x, y in zip(SA, SB)],
        "__vabsdiffu": lambda: [abs(x - y) for x, y in zip(A, B)],
        "__vavgs": lambda: [(x + y + 1) >> 1 for x, y in zip(SA, SB)],
        "__vavgu": lambda: [(x + y + 1) >> 1 for x, y in zip(A, B)],
        "__vhaddu": lambda: [(x + y) >> 1 for x, y in zip(A, B)],
        "__vmaxs": lambda: [max(x, y) for x, y in zip(SA, SB)],
        "__vmaxu": lambda: [max(x, y) for x, y in zip(A, B)],
        "__vmins": lambda: [min(x, y) for x, y in zip(SA, SB)],
        "__vminu": lambda: [min(x, y) for x, y in zip(A, B)],
    }
    return pack(ops[base](), bits)


def simd_inputs():
    edge = [0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7F7F7F7F, 0x80808080, 0xFFFFFFFF, 0x01FF80FE]
    rng = random.Random(13)
    vals = edge + [rng.getrandbits(32) for _ in range(40)]
    return [(a, b) for a in vals[:12] for b in vals[:12]] + [(rng.choice(vals), rng.choice(vals)) for _ in range(200)]


def dot_ref(name, a, b, c):
    """__dp4a / __dp2a_lo / __dp2a_hi, from the CUDA Math API: products summed into c, modulo 2^32."""
    signed_args = name.endswith("_s")
    base = name[:-2]
    if base == "__dp4a":
        A, B = lanes(a, 8), lanes(b, 8)
        if signed_args:
            A, B = [signed(x, 8) for x in A], [signed(x, 8) for x in B]
        prods = [x * y for x, y in zip(A, B)]
    else:
        A, B = lanes(a, 16), lanes(b, 8)[(0 if base == "__dp2a_lo" else 2):][:2]
        if signed_args:
            A, B = [signed(x, 16) for x in A], [signed(x, 8) for x in B]
        prods = [x * y for x, y in zip(A, B)]
    return (c + sum(prods)) & 0xFFFFFFFF


def test_dot(hipcc, inc, tmp):
    """simd.h's packed dot products, signed and unsigned, against dot_ref on the host paths."""
    rng = random.Random(29)
    edge = [0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7F7F7F7F, 0x80808080, 0xFFFFFFFF, 0x01FF80FE]
    triples = [(a, b, c) for a in edge for b in edge for c in (0, 0x7FFFFFFF, 0xFFFFFFFF)]
    triples += [(rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32)) for _ in range(300)]
    names = ["__dp4a", "__dp2a_lo", "__dp2a_hi"]
    src = ['#include "ferry/compat/simd.h"', "#include <cstdio>",
           "__global__ void device_uses(int* o, const char4* a, const uchar4* b, const short2* s, const ushort2* u) {",
           "  const int i = threadIdx.x;",
           "  o[i] = __dp4a(a[i], a[i], 1) + (int)__dp4a(b[i], b[i], 2u) + __dp2a_lo(s[i], a[i], 3) +",
           "         (int)__dp2a_hi(u[i], b[i], 4u);",
           "}", "static const unsigned kTriples[][3] = {"]
    src += [f"  {{0x{a:08x}u, 0x{b:08x}u, 0x{c:08x}u}}," for a, b, c in triples]
    src += ["};", "int main() {", "  for (const auto& t : kTriples) {"]
    for n in names:
        src.append(f'    std::printf("%08x %08x\\n", (unsigned){n}((int)t[0], (int)t[1], (int)t[2]), {n}(t[0], t[1], t[2]));')
    src += ["  }", "}"]
    f = tmp / "dot_check.hip"
    f.write_text("\n".join(src) + "\n")
    hip_compile(hipcc, f, inc, tmp / "dot_check", link=True)
    out = run([str(tmp / "dot_check")]).stdout.split("\n")
    bad, k = [], 0
    for a, b, c in triples:
        for n in names:
            got_s, got_u = (int(x, 16) for x in out[k].split())
            k += 1
            for got, want, kind in ((got_s, dot_ref(n + "_s", a, b, c), "int"), (got_u, dot_ref(n + "_u", a, b, c), "unsigned")):
                if got != want:
                    bad.append(f"{n}({kind}: 0x{a:08x}, 0x{b:08x}, 0x{c:08x}) = 0x{got:08x}, want 0x{want:08x}")
    if bad:
        raise SystemExit("FAIL: dot products differ from the reference:\n  " + "\n  ".join(bad[:20]))
    print(f"dot: __dp4a, __dp2a_lo, __dp2a_hi (vector overloads compiled for gfx906); "
          f"{len(triples) * len(names) * 2} signed and unsigned results match the reference")


def test_simd(hipcc, inc, tmp, names):
    names = [n for n in names if not n.startswith("__dp")]  # three arguments: test_dot
    pairs = simd_inputs()
    src = ['#include "ferry/compat/simd.h"', "#include <cstdio>",
           "__global__ void device_uses(unsigned* o, const unsigned* a, const unsigned* b) {",
           "  unsigned i = threadIdx.x, r = 0;"]
    src += [f"  r ^= {n}(a[i]);" if n in SIMD_UNARY else f"  r ^= {n}(a[i], b[i]);" for n in names]
    src += ["  o[i] = r;", "}", "static const unsigned kPairs[][2] = {"]
    src += [f"  {{0x{a:08x}u, 0x{b:08x}u}}," for a, b in pairs]
    src += ["};", "int main() {", "  for (const auto& p : kPairs) {"]
    src += [f'    std::printf("{n} %08x\\n", {n}(p[0]));' if n in SIMD_UNARY
            else f'    std::printf("{n} %08x\\n", {n}(p[0], p[1]));' for n in names]
    src += ["  }", "}"]
    f = tmp / "simd_check.hip"
    f.write_text("\n".join(src) + "\n")
    hip_compile(hipcc, f, inc, tmp / "simd_check", link=True)
    out = run([str(tmp / "simd_check")]).stdout.split("\n")
    bad, k = [], 0
    for a, b in pairs:
        for n in names:
            got = int(out[k].split()[1], 16)
            want = simd_ref(n, a, b if n not in SIMD_UNARY else 0)
            k += 1
            if got != want:
                bad.append(f"{n}(0x{a:08x}, 0x{b:08x}) = 0x{got:08x}, want 0x{want:08x}")
    if bad:
        raise SystemExit("FAIL: SIMD results differ from the reference:\n  " + "\n  ".join(bad[:20]))
    print(f"simd: {len(names)} intrinsics compiled for gfx906; {len(pairs) * len(names)} results match the reference")


def tests(hipcc, nvcc, inc, tmp, table):
    test_simd(hipcc, inc, tmp, table["simd"])
    test_dot(hipcc, inc, tmp)


if __name__ == "__main__":
    sys.exit(main(tests))

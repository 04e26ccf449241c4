#!/usr/bin/env python3
"""Ferry's compat headers: the directed-rounding intrinsics (__fadd_rd ... __dsqrt_rz) against an exact
rational oracle (Python fractions), bit for bit, on the host (no GPU here).
Shared set-up: compat_headers_common.py. Skips (77) without hipcc."""

import math
import random
import struct
import sys
from fractions import Fraction

from compat_headers_common import hip_compile, run, main


# ---- directed rounding: an exact oracle (Python fractions) ----------------------------------------
FORMATS = {"f": (24, -126, 127), "d": (53, -1022, 1023)}  # precision, emin, emax


def floor_log2(x):
    """e with 2**e <= x < 2**(e+1), for a positive Fraction."""
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x:
        e -= 1
    elif Fraction(2) ** (e + 1) <= x:
        e += 1
    return e


def bits_value(bits, fmt):
    """The float (as a Fraction, or 'nan', or +-inf as floats) of a bit pattern."""
    if fmt == "f":
        v = struct.unpack("<f", struct.pack("<I", bits))[0]
    else:
        v = struct.unpack("<d", struct.pack("<Q", bits))[0]
    return v


def to_bits(v, fmt):
    return struct.unpack("<I", struct.pack("<f", v))[0] if fmt == "f" else struct.unpack("<Q", struct.pack("<d", v))[0]


def round_dir(x, fmt, mode, zero_sign=1):
    """x (a Fraction) rounded to the format in mode rd/ru/rz, as a Python float (exact)."""
    p, emin, emax = FORMATS[fmt]
    if x == 0:
        return math.copysign(0.0, zero_sign)
    sign = 1 if x > 0 else -1
    a = abs(x)
    k = max(floor_log2(a), emin) - (p - 1)
    q = a / Fraction(2) ** k
    fl = q.numerator // q.denominator
    inexact = Fraction(fl) != q
    away = (mode == "ru" and sign > 0) or (mode == "rd" and sign < 0)
    m = fl + (1 if (away and inexact) else 0)
    mag = Fraction(m) * Fraction(2) ** k
    largest = (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
    if mag > largest:
        return sign * math.inf if away else sign * float(largest)
    if mag == 0:
        return math.copysign(0.0, sign)
    return sign * float(mag)


def sqrt_dir(a, fmt, mode):
    """sqrt(a) (a > 0, a Fraction) rounded in mode."""
    p, emin, _ = FORMATS[fmt]
    k = max(floor_log2(a) // 2, emin) - (p - 1)
    y = a / Fraction(4) ** k
    fl = math.isqrt(y.numerator // y.denominator)
    exact = Fraction(fl * fl) * Fraction(4) ** k == a
    m = fl + (0 if exact or mode != "ru" else 1)
    return float(Fraction(m) * Fraction(2) ** k)


def rounding_expected(op, fmt, mode, args):
    """CUDA's result for __<op>_<mode> (IEEE 754 directed rounding) or None for NaN."""
    vals = [bits_value(b, fmt) for b in args]
    if any(math.isnan(v) for v in vals):
        return None
    if op in ("add", "sub"):
        a, b = vals[0], (-vals[1] if op == "sub" else vals[1])
        if math.isinf(a) or math.isinf(b):
            return None if (math.isinf(a) and math.isinf(b) and a != b) else (a if math.isinf(a) else b)
        x = Fraction(a) + Fraction(b)
        if x == 0:
            both_neg = math.copysign(1, a) < 0 and math.copysign(1, b) < 0
            both_pos = math.copysign(1, a) > 0 and math.copysign(1, b) > 0
            return -0.0 if both_neg or (mode == "rd" and not both_pos) else 0.0
        return round_dir(x, fmt, mode)
    if op == "mul":
        a, b = vals
        sgn = -1 if (math.copysign(1, a) < 0) != (math.copysign(1, b) < 0) else 1
        if math.isinf(a) or math.isinf(b):
            return None if (a == 0 or b == 0) else sgn * math.inf
        return round_dir(Fraction(a) * Fraction(b), fmt, mode, sgn)
    if op in ("div", "rcp"):
        a, b = (vals[0], vals[1]) if op == "div" else (1.0, vals[0])
        sgn = -1 if (math.copysign(1, a) < 0) != (math.copysign(1, b) < 0) else 1
        if (a == 0 and b == 0) or (math.isinf(a) and math.isinf(b)):
            return None
        if math.isinf(a) or b == 0:
            return sgn * math.inf
        if math.isinf(b) or a == 0:
            return math.copysign(0.0, sgn)
        return round_dir(Fraction(a) / Fraction(b), fmt, mode, sgn)
    if op == "sqrt":
        a = vals[0]
        if a == 0 or a == math.inf:
            return a
        if a < 0:
            return None
        return sqrt_dir(Fraction(a), fmt, mode)
    if op == "fma":
        a, b, c = vals
        if any(math.isinf(v) for v in vals):
            return None  # the test's inputs keep fma finite
        x = Fraction(a) * Fraction(b) + Fraction(c)
        if x == 0:
            p_neg = (math.copysign(1, a) < 0) != (math.copysign(1, b) < 0)
            p_zero_sign = -1 if p_neg else 1
            prod_zero = a == 0 or b == 0
            c_neg = math.copysign(1, c) < 0
            both_neg = prod_zero and p_zero_sign < 0 and c == 0 and c_neg
            both_pos = prod_zero and p_zero_sign > 0 and c == 0 and not c_neg
            return -0.0 if both_neg or (mode == "rd" and not both_pos) else 0.0
        return round_dir(x, fmt, mode)
    raise ValueError(op)


ROUNDING_OPS = {  # CUDA name stem: (our op, format, arity)
    "__fadd": ("add", "f", 2), "__fsub": ("sub", "f", 2), "__fmul": ("mul", "f", 2), "__fdiv": ("div", "f", 2),
    "__frcp": ("rcp", "f", 1), "__fsqrt": ("sqrt", "f", 1), "__fmaf": ("fma", "f", 3),
    "__dadd": ("add", "d", 2), "__dsub": ("sub", "d", 2), "__dmul": ("mul", "d", 2), "__ddiv": ("div", "d", 2),
    "__drcp": ("rcp", "d", 1), "__dsqrt": ("sqrt", "d", 1),
}


def rounding_inputs(fmt, arity, count, rng):
    """Bit patterns: specials, random patterns over the whole range (subnormals, overflow), near
    cancellations, and operands a few ulps apart."""
    width = 32 if fmt == "f" else 64
    specials = [0.0, -0.0, 1.0, -1.0, 3.0, 0.1, math.inf, -math.inf, math.nan,
                (3.4028234663852886e38 if fmt == "f" else 1.7976931348623157e308),
                (1.1754943508222875e-38 if fmt == "f" else 2.2250738585072014e-308),
                (1.401298464324817e-45 if fmt == "f" else 5e-324)]
    specials = [to_bits(v, fmt) for v in specials] + [to_bits(-v, fmt) for v in specials]
    out = []
    for i in range(count):
        if i < len(specials) ** min(arity, 2) and arity <= 2:
            t = [specials[i % len(specials)], specials[(i // len(specials)) % len(specials)]][:arity]
        else:
            kind = rng.randrange(4)
            t = []
            for _ in range(arity):
                if kind == 0:
                    t.append(rng.getrandbits(width))  # anywhere, NaNs included
                else:  # moderate exponents, so that results are mostly finite and inexact
                    v = rng.uniform(1, 2) * 2.0 ** rng.randint(-60 if kind == 1 else -6, 60 if kind == 1 else 6)
                    t.append(to_bits(v if rng.random() < 0.5 else -v, fmt))
            if kind == 3 and arity >= 2:  # b close to -a: cancellation, exact zeros
                t[1] = to_bits(-bits_value(t[0], fmt) * (1 + rng.choice([0, 2.0 ** -rng.randint(1, 30)])), fmt)
        if fmt == "f" and arity == 3 and any(math.isinf(bits_value(x, fmt)) or math.isnan(bits_value(x, fmt)) for x in t):
            t = [to_bits(1.5, fmt), to_bits(-0.75, fmt), t[2] if math.isfinite(bits_value(t[2], fmt)) else to_bits(2.0, fmt)]
        out.append(t)
    return out


def test_rounding(hipcc, inc, tmp, names):
    """Every directed-rounding intrinsic of rounding.h, on the host (hipcc's host code, the same
    __host__ __device__ functions the device runs), against an exact rational oracle."""
    stems = sorted({n.rsplit("_", 1)[0] for n in names})
    assert stems == sorted(ROUNDING_OPS), stems
    rng = random.Random(1234)
    cases = []  # (name, fmt, args)
    for stem, (op, fmt, arity) in sorted(ROUNDING_OPS.items()):
        for args in rounding_inputs(fmt, arity, 1500, rng):
            for mode in ("rd", "ru", "rz"):
                cases.append((f"{stem}_{mode}", op, fmt, mode, args))
    # One table of inputs per function and one loop: the program stays small to compile.
    lines = ['#include "ferry/compat/rounding.h"', "#include <cstdio>", "#include <cstring>", "#include <cstdint>",
             "static float F(uint64_t b) { float f; uint32_t w = (uint32_t)b; std::memcpy(&f, &w, 4); return f; }",
             "static double D(uint64_t b) { double d; std::memcpy(&d, &b, 8); return d; }",
             "static unsigned long long B(float f) { uint32_t b; std::memcpy(&b, &f, 4); return b; }",
             "static unsigned long long B(double d) { uint64_t b; std::memcpy(&b, &d, 8); return b; }"]
    groups = {}
    for name, op, fmt, mode, args in cases:
        groups.setdefault(name, (fmt, len(args), []))[2].append(args)
    body = []
    for gi, (name, (fmt, arity, rows)) in enumerate(groups.items()):
        flat = ", ".join(f"0x{a:x}ull" for row in rows for a in row)
        lines.append(f"static const uint64_t in{gi}[] = {{{flat}}};")
        conv = "F" if fmt == "f" else "D"
        call = ", ".join(f"{conv}(in{gi}[i * {arity} + {k}])" for k in range(arity))
        body.append(f"  for (int i = 0; i < {len(rows)}; ++i) std::printf(\"%llx\\n\", B({name}({call})));")
    lines.append("int main() {")
    lines += body
    lines.append("  return 0;\n}")
    src = tmp / "rounding_check.hip"
    src.write_text("\n".join(lines) + "\n")
    hip_compile(hipcc, src, inc, tmp / "rounding_check", link=True)
    dev = tmp / "rounding_device.hip"
    dev.write_text('#include "ferry/compat/rounding.h"\n__global__ void k(float* f, double* d) {\n'
                   + "".join(f"  f[0] += {n}(f[1], f[2]);\n" for n in names if n.startswith(("__fadd", "__fsub", "__fmul", "__fdiv")))
                   + "".join(f"  f[0] += {n}(f[1]);\n" for n in names if n.startswith(("__frcp", "__fsqrt")))
                   + "".join(f"  f[0] += {n}(f[1], f[2], f[3]);\n" for n in names if n.startswith("__fmaf"))
                   + "".join(f"  d[0] += {n}(d[1], d[2]);\n" for n in names if n.startswith(("__dadd", "__dsub", "__dmul", "__ddiv")))
                   + "".join(f"  d[0] += {n}(d[1]);\n" for n in names if n.startswith(("__drcp", "__dsqrt")))
                   + "}\n")
    hip_compile(hipcc, dev, inc, tmp / "rounding_device.o", link=False)
    out = run([str(tmp / "rounding_check")]).stdout.split()
    cases = [c for name in groups for c in cases if c[0] == name]
    if len(out) != len(cases):
        raise SystemExit(f"FAIL: rounding_check printed {len(out)} results for {len(cases)} cases")
    bad = []
    for (name, op, fmt, mode, args), got_hex in zip(cases, out):
        want = rounding_expected(op, fmt, mode, args)
        got = bits_value(int(got_hex, 16), fmt)
        if want is None:
            ok = math.isnan(got)
        else:
            ok = int(got_hex, 16) == to_bits(want, fmt)
        if not ok:
            bad.append(f"{name}({', '.join(hex(a) for a in args)}) = {got!r}, want {want!r}")
    if bad:
        raise SystemExit(f"FAIL: {len(bad)} of {len(cases)} directed roundings differ, e.g.\n" + "\n".join(bad[:12]))
    print(f"rounding: {len(cases)} directed roundings (13 operations x rd/ru/rz; specials, subnormals, "
          "overflow, cancellations) equal the exact rational oracle bit for bit; compiled for gfx906")


def tests(hipcc, nvcc, inc, tmp, table):
    test_rounding(hipcc, inc, tmp, table["rounding"])


if __name__ == "__main__":
    sys.exit(main(tests))

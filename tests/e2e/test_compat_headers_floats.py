#!/usr/bin/env python3
"""Ferry's compat headers: the bfloat16, fp16 and fp8 functions, on the host (no GPU here). bf16 against
CUDA's own cuda_bf16.h compiled by nvcc (its host paths), bit for bit, when nvcc is installed;
__hmax/__hmin/__hmax_nan/__hmin_nan on __half and their __half2 forms against a reference written here
from the CUDA Math API's rules (NaN, signed zero) and against CUDA's cuda_fp16.h (nvcc) bit for bit
when nvcc is installed; the fp8 conversions (OCP E4M3 / E5M2, cuda_fp8.h's C API) against a reference
written here and against nvcc when installed.
Shared set-up: compat_headers_common.py. Skips (77) without hipcc."""

import bisect
import functools
import math
import random
import re
import struct
import sys

from compat_headers_common import hip_compile, run, main


# ---- bfloat16 ------------------------------------------------------------------------------------------
BF16_DEVICE = r"""
#include "ferry/compat/bf16.h"
__global__ void device_uses(__hip_bfloat16* h, __hip_bfloat162* h2, float* f, long long* ll) {
  const unsigned i = threadIdx.x;
  __hip_bfloat16 a = h[i], b = h[i + 1];
  __hip_bfloat162 p = h2[i];
  __hip_bfloat16_raw raw = a;
  __hip_bfloat162_raw raw2 = p;
  a = raw; p = raw2;
  f[i] = __bfloat162float(a) + __low2float(p) + __high2float(p);
  float2 f2 = __bfloat1622float2(p);
  f[i] += f2.x + f2.y;
  h[i] = __hadd(a, b) + __hsub(a, b) * __hmul(a, b) / __hdiv(a, b);
  h[i] = __hfma(a, b, __hmax(a, __hmin(a, b))) + __hneg(a) + __habs(b) - (-a);
  p = __hadd2(p, __hsub2(p, __hmul2(p, __hdiv2(p, __hfma2(p, p, __hmax2(p, __hmin2(p, p)))))));
  p = __hneg2(__habs2(p)) + p - p * p / p;
  p += p; p -= p; p *= p; p /= p;
  a += b; a -= b; a *= b; a /= b;
  ll[i] = __heq(a, b) + __hne(a, b) + __hlt(a, b) + __hle(a, b) + __hgt(a, b) + __hge(a, b) + __hisnan(a) + __hisinf(b) +
          (a == b) + (a != b) + (a < b) + (a <= b) + (a > b) + (a >= b);
  p = make_bfloat162(a, b); p = __halves2bfloat162(a, b); p = __bfloat162bfloat162(a);
  p = __float2bfloat162_rn(1.f); p = __floats2bfloat162_rn(1.f, 2.f); p = __float22bfloat162_rn(make_float2(1.f, 2.f));
  a = __low2bfloat16(p); b = __high2bfloat16(p);
  p = __low2bfloat162(p); p = __high2bfloat162(p); p = __lows2bfloat162(p, p); p = __highs2bfloat162(p, p);
  a = __shfl(a, 1); a = __shfl_xor(a, 1); a = __shfl_up(a, 1u); a = __shfl_down(a, 1u);
  p = __shfl(p, 1); p = __shfl_xor(p, 1, 32); p = __shfl_up(p, 1u); p = __shfl_down(p, 1u);
  a = __float2bfloat16(f[i]); a = __float2bfloat16_rn(f[i]); a = __float2bfloat16_rz(f[i]);
  a = __float2bfloat16_rd(f[i]); a = __float2bfloat16_ru(f[i]); a = __double2bfloat16(1.0);
  a = __short_as_bfloat16(__bfloat16_as_short(a)); a = __ushort_as_bfloat16(__bfloat16_as_ushort(a));
  hip_bfloat16 lib = a; a = lib;
#define FROM(T, n) a = __##n##2bfloat16_rn((T)ll[i]); a = __##n##2bfloat16_rz((T)ll[i]); \
  a = __##n##2bfloat16_rd((T)ll[i]); a = __##n##2bfloat16_ru((T)ll[i]);
  FROM(int, int) FROM(unsigned, uint) FROM(short, short) FROM(unsigned short, ushort) FROM(long long, ll)
  FROM(unsigned long long, ull)
#define TO(n) ll[i] += __bfloat162##n##_rn(a) + __bfloat162##n##_rz(a) + __bfloat162##n##_rd(a) + __bfloat162##n##_ru(a);
  TO(int) TO(uint) TO(short) TO(ushort) TO(ll) TO(ull)
  h[i] = a;
}
"""


# The same host program for both compilers: HIP with Ferry's header, CUDA with cuda_bf16.h. Only
# functions cuda_bf16.h declares __host__ __device__ (CUDA 13).
BF16_HOST = r"""
#include <cstdio>
#include <cstring>
#ifdef __HIPCC__
#include "ferry/compat/bf16.h"
typedef __hip_bfloat16 bf16;
#else
#include <cuda_bf16.h>
typedef __nv_bfloat16 bf16;
#endif
#define B(x) ((unsigned)__bfloat16_as_ushort(x))
static float f_of(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
static unsigned as_uint(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }
int main() {
  static const unsigned kFloats[] = {FLOATS};
  static const long long kInts[] = {INTS};
  for (unsigned u : kFloats) {
    const float f = f_of(u);
    std::printf("f %08x %04x %04x %04x %04x %04x %04x\n", u, B(__float2bfloat16(f)), B(__float2bfloat16_rn(f)),
                B(__float2bfloat16_rz(f)), B(__float2bfloat16_rd(f)), B(__float2bfloat16_ru(f)),
                B(__double2bfloat16((double)f * 1.0000001)));
    const bf16 h = __float2bfloat16(f);
    if (__hisnan(h)) continue;  // NaN to integer: both 0, checked in the rz line only
    std::printf("i %04x %d %lld %d %u %llu %u %08x\n", B(h), __bfloat162int_rz(h), __bfloat162ll_rz(h),
                (int)__bfloat162short_rz(h), __bfloat162uint_rz(h), __bfloat162ull_rz(h),
                (unsigned)__bfloat162ushort_rz(h), as_uint(__bfloat162float(h)));
  }
  for (long long v : kInts)
    std::printf("n %lld %04x %04x %04x %04x %04x %04x\n", v, B(__int2bfloat16_rn((int)v)), B(__ll2bfloat16_rn(v)),
                B(__uint2bfloat16_rn((unsigned)v)), B(__ull2bfloat16_rn((unsigned long long)v)),
                B(__short2bfloat16_rn((short)v)), B(__ushort2bfloat16_rn((unsigned short)v)));
  for (unsigned x : kFloats)
    for (unsigned y : kFloats) {
      const bf16 a = __float2bfloat16(f_of(x)), b = __float2bfloat16(f_of(y));
      if (__hisnan(a) || __hisnan(b)) continue;  // NaN payloads are not specified
      std::printf("a %04x %04x %04x %04x %04x %04x %04x %04x %04x %04x %d%d%d%d%d%d %d\n", B(a), B(b), B(__hadd(a, b)),
                  B(__hsub(a, b)), B(__hmul(a, b)), B(__hdiv(a, b)), B(__hmax(a, b)), B(__hmin(a, b)), B(__hneg(a)),
                  B(__habs(a)), __heq(a, b), __hne(a, b), __hlt(a, b), __hle(a, b), __hgt(a, b), __hge(a, b),
                  __hisinf(a));
    }
}
"""


def float_inputs():
    edge = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x3F808000, 0x3F818000, 0x3F80FFFF, 0x3F807FFF,
            0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x807FFFFF, 0x00400000,
            0x4B000000, 0x4F000000, 0x4F800000, 0x5F000000, 0x5F800000, 0xCF000000, 0xDF000000, 0x46FFFE00,
            0x47800000, 0x477FFF00, 0x40200000, 0x40600000, 0xC0200000, 0x3EFFFFFF]
    rng = random.Random(7)
    return edge + [rng.getrandbits(32) for _ in range(50)]


def int_inputs():
    rng = random.Random(11)
    return [0, 1, -1, 255, 256, 257, 32767, -32768, 65535, 16777217, 2147483647, -2147483648,
            9007199254740993, -9007199254740993] + [rng.randrange(-2**40, 2**40) for _ in range(30)]


def test_bf16(hipcc, nvcc, inc, tmp, names):
    dev = tmp / "bf16_device.hip"
    dev.write_text(BF16_DEVICE)
    hip_compile(hipcc, dev, inc, tmp / "bf16_device.o", link=False)
    used = set(re.findall(r"\b(__\w+|make_bfloat162)\b", BF16_DEVICE))
    for m in re.finditer(r"FROM\(([^,]+), (\w+)\)", BF16_DEVICE):
        used |= {f"__{m.group(2)}2bfloat16{s}" for s in ("_rn", "_rz", "_rd", "_ru")}
    for m in re.finditer(r"TO\((\w+)\)", BF16_DEVICE):
        used |= {f"__bfloat162{m.group(1)}{s}" for s in ("_rn", "_rz", "_rd", "_ru")}
    unused = sorted(n for n in names if n not in used)
    if unused:
        raise SystemExit(f"FAIL: compat.tsv bf16 names the device test does not use: {unused}")
    print(f"bf16: {len(names)} names compiled for gfx906")
    if not nvcc:
        print("bf16: nvcc not installed: the host comparison with CUDA's cuda_bf16.h is skipped")
        return
    host = BF16_HOST.replace("FLOATS", ", ".join(f"0x{u:08x}u" for u in float_inputs()))
    host = host.replace("INTS", ", ".join(f"{v}LL" for v in int_inputs()))
    hsrc, csrc = tmp / "bf16_host.hip", tmp / "bf16_host.cu"
    hsrc.write_text(host)
    csrc.write_text(host)
    hip_compile(hipcc, hsrc, inc, tmp / "bf16_hip", link=True)
    p = run([nvcc, "-arch=sm_90", str(csrc), "-o", str(tmp / "bf16_cuda")])
    if p.returncode != 0:
        raise SystemExit(f"FAIL: nvcc bf16_host.cu:\n{p.stderr[-4000:]}")
    ours = run([str(tmp / "bf16_hip")]).stdout.splitlines()
    cuda = run([str(tmp / "bf16_cuda")]).stdout.splitlines()
    diff = [f"  ferry: {a}\n  cuda:  {b}" for a, b in zip(ours, cuda) if a != b]
    if len(ours) != len(cuda) or diff:
        raise SystemExit(f"FAIL: {len(diff)} of {len(cuda)} bf16 host results differ from CUDA's:\n" + "\n".join(diff[:10]))
    print(f"bf16: {len(cuda)} lines of host results equal CUDA {nvcc}'s cuda_bf16.h bit for bit")


def half_bits_to_float(b):
    import struct
    return struct.unpack("<e", struct.pack("<H", b))[0]


# One program for both compilers: HIP with Ferry's header, CUDA with cuda_fp16.h (its host code).
# A kernel uses every name, so their device code is compiled for gfx906 too.
FP16_HOST = r"""
#include <cstdio>
#include <cstring>
#ifdef __HIPCC__
#include "ferry/compat/fp16.h"
#else
#include <cuda_fp16.h>
#endif
static unsigned short b(__half h) { unsigned short u; std::memcpy(&u, &h, 2); return u; }
static __half h(unsigned short u) { __half x; std::memcpy(&x, &u, 2); return x; }
static unsigned b2(__half2 v) { return b(__low2half(v)) | (unsigned)b(__high2half(v)) << 16; }
__global__ void device_uses(__half* x, __half2* y) {
  const unsigned i = threadIdx.x;
  x[i] = __hmax(__hmin(x[i], x[i + 1]), __hmax_nan(x[i], __hmin_nan(x[i], x[i + 1])));
  y[i] = __hmax2(__hmin2(y[i], y[i + 1]), __hmax2_nan(y[i], __hmin2_nan(y[i], y[i + 1])));
}
int main() {
  static const unsigned short v[] = {VALUES};
  const unsigned n = sizeof v / sizeof v[0];
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < n; ++j) {
      const __half a = h(v[i]), c = h(v[j]);
      std::printf("h %u %u %u %u %u %u\n", v[i], v[j], b(__hmax(a, c)), b(__hmin(a, c)), b(__hmax_nan(a, c)),
                  b(__hmin_nan(a, c)));
      // Each lane pairs other operands: low (v[i], v[j]), high (v[j], v[(i + j) % n]).
      const __half2 p = __halves2half2(a, c), q = __halves2half2(c, h(v[(i + j) % n]));
      std::printf("p %u %u %u %u %u %u\n", b2(p), b2(q), b2(__hmax2(p, q)), b2(__hmin2(p, q)), b2(__hmax2_nan(p, q)),
                  b2(__hmin2_nan(p, q)));
    }
}
"""


def fp16_values():
    specials = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7d01, 0xfe00, 0x7fff, 0x0001, 0x8001,
                0x7bff, 0xfbff, 0x4248, 0x4200, 0x03ff, 0x8400]
    rng = random.Random(5)
    return specials + [rng.getrandbits(16) for _ in range(22)]


def fp16_ref(a, c, want_max, nan_wins):
    """CUDA Math API: NaN handling, then +0 above -0, then the numeric order."""
    import math
    fa, fc = half_bits_to_float(a), half_bits_to_float(c)
    na, nc = math.isnan(fa), math.isnan(fc)
    if na or nc:
        return 0x7FFF if (nan_wins or (na and nc)) else (c if na else a)
    if fa == fc:
        neg_a, neg_c = a >> 15, c >> 15
        if neg_a != neg_c:
            return (c if neg_a else a) if want_max else (a if neg_a else c)
        return a
    return a if (fa > fc) == want_max else c


def test_fp16(hipcc, nvcc, inc, tmp, names):
    """The compat __hmax family on __half and __half2: device code compiled for gfx906; host results
    against a reference written here from CUDA's rules, and against CUDA's cuda_fp16.h (nvcc) when
    installed, bit for bit."""
    values = fp16_values()
    prog = FP16_HOST.replace("VALUES", ", ".join(hex(x) for x in values))
    src = tmp / "fp16_check.hip"
    src.write_text(prog)
    hip_compile(hipcc, src, inc, tmp / "fp16_check", link=True)
    lines = run([str(tmp / "fp16_check")]).stdout.splitlines()
    if len(lines) != 2 * len(values) ** 2:
        raise SystemExit(f"FAIL: fp16 check printed {len(lines)} lines")
    bad = []
    for line in lines:
        kind, x, y, mx, mn, mxn, mnn = line.split()
        x, y, got = int(x), int(y), tuple(map(int, (mx, mn, mxn, mnn)))
        ops = ((True, False), (False, False), (True, True), (False, True))
        if kind == "h":
            want = tuple(fp16_ref(x, y, m, nw) for m, nw in ops)
        else:
            lane = lambda v, k: (v >> (16 * k)) & 0xFFFF
            want = tuple(fp16_ref(lane(x, 0), lane(y, 0), m, nw) | fp16_ref(lane(x, 1), lane(y, 1), m, nw) << 16
                         for m, nw in ops)
        if got != want:
            bad.append(f"{kind} {x:#x},{y:#x}: got " + " ".join(f"{g:#x}" for g in got) + ", want " +
                       " ".join(f"{w:#x}" for w in want))
    if bad:
        raise SystemExit(f"FAIL: fp16 compat, {len(bad)} results differ from CUDA's rules:\n" + "\n".join(bad[:10]))
    assert set(names) == {"__hmax", "__hmin", "__hmax_nan", "__hmin_nan", "__hmax2", "__hmin2", "__hmax2_nan",
                          "__hmin2_nan"}, names
    print(f"fp16: {len(names)} names compiled for gfx906; {len(lines)} operand pairs ({len(values)} values incl. "
          "NaNs, signed zeros, subnormals) match CUDA's NaN/zero rules")
    if not nvcc:
        print("fp16: nvcc not installed: the host comparison with CUDA's cuda_fp16.h is skipped")
        return
    csrc = tmp / "fp16_check.cu"
    csrc.write_text(prog)
    p = run([nvcc, "-arch=sm_90", str(csrc), "-o", str(tmp / "fp16_cuda")])
    if p.returncode != 0:
        raise SystemExit(f"FAIL: nvcc fp16_check.cu:\n{p.stderr[-4000:]}")
    cuda = run([str(tmp / "fp16_cuda")]).stdout.splitlines()
    diff = [f"  ferry: {a}\n  cuda:  {c}" for a, c in zip(lines, cuda) if a != c]
    if len(cuda) != len(lines) or diff:
        raise SystemExit(f"FAIL: {len(diff)} of {len(cuda)} fp16 results differ from CUDA's cuda_fp16.h:\n" +
                         "\n".join(diff[:10]))
    print(f"fp16: {len(cuda)} lines of host results equal CUDA {nvcc}'s cuda_fp16.h bit for bit")


# ---- fp8 (OCP E4M3 / E5M2, CUDA's cuda_fp8.h C API) --------------------------------------------------
# One program for both compilers: HIP with Ferry's header, CUDA with cuda_fp8.h (its host code). The
# inputs come on stdin (one "kind hexbits" per line); each line out has the four codes
# (e4m3 nosat, e4m3 satfinite, e5m2 nosat, e5m2 satfinite), or the two half results of a code.
FP8_PROG = r"""
#include <cstdio>
#include <cstring>
#ifdef __HIPCC__
#include "ferry/compat/fp8.h"
struct bf16raw { unsigned short x; };
struct bf162raw { unsigned short x, y; };
#else
#include <cuda_fp8.h>
typedef __nv_bfloat16_raw bf16raw;
typedef __nv_bfloat162_raw bf162raw;
#endif
__global__ void device_uses(__nv_fp8_storage_t* o, __nv_fp8x2_storage_t* o2, __half_raw* h, __half2_raw* h2,
                            const float* f, const double* d) {
  const unsigned i = threadIdx.x;
  const __nv_saturation_t s = i & 1 ? __NV_SATFINITE : __NV_NOSAT;
  const __nv_fp8_interpretation_t k = i & 2 ? __NV_E5M2 : __NV_E4M3;
  __nv_fp8x4_storage_t four = 0;
  o[i] = __nv_cvt_float_to_fp8(f[i], s, k) ^ __nv_cvt_double_to_fp8(d[i], s, k) ^ __nv_cvt_halfraw_to_fp8(h[i], s, k);
  bf16raw b; b.x = h[i].x;
  bf162raw b2; b2.x = h[i].x; b2.y = h[i + 1].x;
  o[i] ^= __nv_cvt_bfloat16raw_to_fp8(b, s, k);
  o2[i] = __nv_cvt_float2_to_fp8x2(make_float2(f[i], f[i + 1]), s, k) ^
          __nv_cvt_double2_to_fp8x2(make_double2(d[i], d[i + 1]), s, k) ^ __nv_cvt_halfraw2_to_fp8x2(h2[i], s, k) ^
          __nv_cvt_bfloat16raw2_to_fp8x2(b2, s, k);
  h[i] = __nv_cvt_fp8_to_halfraw(o[i], k);
  h2[i] = __nv_cvt_fp8x2_to_halfraw2(o2[i] + four, k);
}
static void put(unsigned char a, unsigned char b, unsigned char c, unsigned char d) {
  std::printf("%02x%02x%02x%02x\n", a, b, c, d);
}
int main() {
  char kind;
  unsigned long long v;
  while (std::scanf(" %c %llx", &kind, &v) == 2) {
    if (kind == 'f') {
      unsigned u = (unsigned)v; float f; std::memcpy(&f, &u, 4);
      put(__nv_cvt_float_to_fp8(f, __NV_NOSAT, __NV_E4M3), __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3),
          __nv_cvt_float_to_fp8(f, __NV_NOSAT, __NV_E5M2), __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E5M2));
    } else if (kind == 'd') {
      double d; std::memcpy(&d, &v, 8);
      put(__nv_cvt_double_to_fp8(d, __NV_NOSAT, __NV_E4M3), __nv_cvt_double_to_fp8(d, __NV_SATFINITE, __NV_E4M3),
          __nv_cvt_double_to_fp8(d, __NV_NOSAT, __NV_E5M2), __nv_cvt_double_to_fp8(d, __NV_SATFINITE, __NV_E5M2));
    } else if (kind == 'h') {
      __half_raw h; h.x = (unsigned short)v;
      put(__nv_cvt_halfraw_to_fp8(h, __NV_NOSAT, __NV_E4M3), __nv_cvt_halfraw_to_fp8(h, __NV_SATFINITE, __NV_E4M3),
          __nv_cvt_halfraw_to_fp8(h, __NV_NOSAT, __NV_E5M2), __nv_cvt_halfraw_to_fp8(h, __NV_SATFINITE, __NV_E5M2));
    } else if (kind == 'b') {
      bf16raw b; b.x = (unsigned short)v;
      put(__nv_cvt_bfloat16raw_to_fp8(b, __NV_NOSAT, __NV_E4M3), __nv_cvt_bfloat16raw_to_fp8(b, __NV_SATFINITE, __NV_E4M3),
          __nv_cvt_bfloat16raw_to_fp8(b, __NV_NOSAT, __NV_E5M2), __nv_cvt_bfloat16raw_to_fp8(b, __NV_SATFINITE, __NV_E5M2));
    } else if (kind == 'c') {  // a code: to half in both interpretations
      std::printf("%04x%04x\n", __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)v, __NV_E4M3).x,
                  __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)v, __NV_E5M2).x);
    } else if (kind == 'p') {  // pairs: two floats (low 32 bits: x) and the code pair
      unsigned ux = (unsigned)v, uy = (unsigned)(v >> 32); float x, y;
      std::memcpy(&x, &ux, 4); std::memcpy(&y, &uy, 4);
      __half_raw hx, hy; hx.x = (unsigned short)(ux >> 16); hy.x = (unsigned short)(uy >> 16);
      __half2_raw h2; h2.x = hx.x; h2.y = hy.x;
      bf162raw b2; b2.x = hx.x; b2.y = hy.x;
      const __nv_fp8x2_storage_t c = __nv_cvt_float2_to_fp8x2(make_float2(x, y), __NV_SATFINITE, __NV_E4M3);
      const __half2_raw back = __nv_cvt_fp8x2_to_halfraw2(c, __NV_E5M2);
      std::printf("%04x%04x%04x%04x%04x%04x\n", c, __nv_cvt_double2_to_fp8x2(make_double2(x, y), __NV_NOSAT, __NV_E5M2),
                  __nv_cvt_halfraw2_to_fp8x2(h2, __NV_NOSAT, __NV_E4M3),
                  __nv_cvt_bfloat16raw2_to_fp8x2(b2, __NV_SATFINITE, __NV_E5M2), back.x, back.y);
    }
  }
}
"""


FP8 = {"e4m3": (4, 3, 7), "e5m2": (5, 2, 15)}  # exponent bits, mantissa bits, bias


def fp8_value(code, fmt):
    """The exact value of a code (a Python float holds every one), or None for NaN."""
    eb, mb, bias = FP8[fmt]
    sign = -1.0 if code & 0x80 else 1.0
    ef, f = (code >> mb) & ((1 << eb) - 1), code & ((1 << mb) - 1)
    if fmt == "e4m3" and code & 0x7F == 0x7F:
        return None
    if fmt == "e5m2" and ef == 31:
        return None if f else sign * math.inf
    if ef == 0:
        return sign * f * 2.0 ** (1 - bias - mb)
    return sign * (1 + f / 2 ** mb) * 2.0 ** (ef - bias)


@functools.lru_cache(maxsize=None)
def fp8_magnitudes(fmt):
    """Finite magnitudes in code order (0..largest), then the first value past the largest, where
    overflow starts (480 for E4M3, 65536 for E5M2)."""
    eb, mb, bias = FP8[fmt]
    top = 0x7E if fmt == "e4m3" else 0x7B
    beyond = (1 + ((top & ((1 << mb) - 1)) + 1) / 2 ** mb) * 2.0 ** ((top >> mb) - bias)
    return tuple(fp8_value(c, fmt) for c in range(top + 1)) + (beyond,)


def fp8_ref_encode(x, sat, fmt):
    """Round to nearest, ties to even (the code's low bit), once; CUDA's overflow and NaN rules."""
    if math.isnan(x):
        return 0x7F
    s = 0x80 if math.copysign(1, x) < 0 else 0
    top, over = (0x7E, 0x7F) if fmt == "e4m3" else (0x7B, 0x7C)
    a = abs(x)
    if math.isinf(a):
        return s | (top if sat else over)
    vals = fp8_magnitudes(fmt)
    i = bisect.bisect_left(vals, a)
    if i < len(vals) and vals[i] == a:
        c = i
    elif i >= len(vals):
        c = top + 1
    else:
        lo, hi = vals[i - 1], vals[i]
        c = i - 1 if (a - lo < hi - a or (a - lo == hi - a and (i - 1) % 2 == 0)) else i
    if c > top:
        return s | (top if sat else over)
    return s | c


def half_bits_value(b):
    return struct.unpack("<e", struct.pack("<H", b))[0]


def bf16_bits_value(b):
    return struct.unpack("<f", struct.pack("<I", b << 16))[0]


def float_bits_value(u):
    return struct.unpack("<f", struct.pack("<I", u))[0]


def fp8_inputs():
    """Every half and bfloat16 value; floats at every rounding boundary of both formats (each fp8
    value, each midpoint between neighbours, one float ulp either side) and a grid over all
    exponents; doubles at the midpoints +-1e-12 relative (single rounding, not via float)."""
    ins = [("h", b) for b in range(1 << 16)] + [("b", b) for b in range(1 << 16)]
    floats, doubles = set(), set()
    for fmt in FP8:
        vals = sorted({v for c in range(256) if (v := fp8_value(c, fmt)) is not None and not math.isinf(v)})
        vals.append(2 * vals[-1] - vals[-2] if fmt == "e5m2" else 480.0)  # where overflow begins
        pts = vals + [(a + b) / 2 for a, b in zip(vals, vals[1:])] + [vals[0] + (vals[1] - vals[0]) / 2]
        for p in pts:
            u = struct.unpack("<I", struct.pack("<f", p))[0]
            floats |= {u, u + 1, u - 1, u | 0x80000000, (u + 1) | 0x80000000, (u - 1) | 0x80000000}
            for d in (p * (1 + 1e-12), p * (1 - 1e-12), p, -p):
                doubles.add(struct.unpack("<Q", struct.pack("<d", d))[0])
    rng = random.Random(8)
    for e in range(256):
        for m in (0, 1, 0x7FFFFF, 0x400000, 0x3FFFFF, 0x400001, 0x100000, 0x0FFFFF, 0x080000, 0x07FFFF):
            floats |= {(e << 23) | m, 0x80000000 | (e << 23) | m}
        floats |= {(e << 23) | rng.getrandbits(23) for _ in range(8)}
    floats |= {0x7FC00000, 0xFFC00000, 0x7F800001, 0x7F800000, 0xFF800000}
    floats = {u & 0xFFFFFFFF for u in floats}
    for u in sorted(floats):
        doubles.add(struct.unpack("<Q", struct.pack("<d", float_bits_value(u)))[0]
                    if not math.isnan(float_bits_value(u)) else 0x7FF8000000000000)
    doubles |= {0x7FF0000000000000, 0xFFF0000000000000, 0x0000000000000001, 0x8000000000000001, 0x7FEFFFFFFFFFFFFF}
    ins += [("f", u & 0xFFFFFFFF) for u in sorted(floats)] + [("d", u) for u in sorted(doubles)]
    ins += [("c", c) for c in range(256)]
    pairs = [rng.choice(sorted(floats)) | rng.choice(sorted(floats)) << 32 for _ in range(300)]
    ins += [("p", v) for v in pairs]
    return ins


def test_fp8(hipcc, nvcc, inc, tmp, names):
    src = tmp / "fp8_check.hip"
    src.write_text(FP8_PROG)
    hip_compile(hipcc, src, inc, tmp / "fp8_check", link=True)
    ins = fp8_inputs()
    stdin = "".join(f"{k} {v:x}\n" for k, v in ins)
    out = run([str(tmp / "fp8_check")], input=stdin).stdout.splitlines()
    if len(out) != len(ins):
        raise SystemExit(f"FAIL: fp8 check printed {len(out)} lines for {len(ins)} inputs")
    bad = []
    value = {"f": float_bits_value, "h": half_bits_value, "b": bf16_bits_value,
             "d": lambda u: struct.unpack("<d", struct.pack("<Q", u))[0]}
    for (k, v), line in zip(ins, out):
        if k == "c":
            want = ""
            for fmt in ("e4m3", "e5m2"):
                x = fp8_value(v, fmt)
                want += "7fff" if x is None else f"{struct.unpack('<H', struct.pack('<e', x))[0]:04x}"
            # both ways: the half a code gives converts back to the same code (NaN to 0x7F)
            for fmt, i in (("e4m3", 0), ("e5m2", 4)):
                hb = int(line[i:i + 4], 16)
                back = fp8_ref_encode(half_bits_value(hb), False, fmt)
                if fp8_value(v, fmt) is not None and back != v:
                    bad.append(f"code {v:#04x} {fmt}: half {hb:#06x} does not convert back")
        elif k == "p":
            continue  # pairs are compared with CUDA below (element order, x in the low byte)
        else:
            x = value[k](v)
            want = "".join(f"{fp8_ref_encode(x, sat, fmt):02x}" for fmt in ("e4m3", "e5m2") for sat in (False, True))
        if line != want:
            bad.append(f"{k} {v:#x} ({value.get(k, lambda u: u)(v)!r}): ferry {line}, reference {want}")
    if bad:
        raise SystemExit(f"FAIL: fp8, {len(bad)} results differ from the reference:\n  " + "\n  ".join(bad[:12]))
    counts = {k: sum(1 for kk, _ in ins if kk == k) for k in "fdhbcp"}
    assert set(names) == FP8_NAMES, sorted(set(names) ^ FP8_NAMES)
    print(f"fp8: {len(names)} names compiled for gfx906; all 256 codes of E4M3 and E5M2 to half and back, every "
          f"half ({counts['h']}) and bfloat16 ({counts['b']}) value, {counts['f']} floats and {counts['d']} doubles at "
          "every rounding boundary and tie, both saturation modes, match the reference")
    if not nvcc:
        print("fp8: nvcc not installed: the comparison with CUDA's cuda_fp8.h is skipped")
        return
    csrc = tmp / "fp8_check.cu"
    csrc.write_text(FP8_PROG)
    p = run([nvcc, "-arch=sm_90", str(csrc), "-o", str(tmp / "fp8_cuda")])
    if p.returncode != 0:
        raise SystemExit(f"FAIL: nvcc fp8_check.cu:\n{p.stderr[-4000:]}")
    cuda = run([str(tmp / "fp8_cuda")], input=stdin).stdout.splitlines()
    # NaN codes: CUDA documents "NaN in, NaN out"; its host code gives 0x7F for a float NaN but
    # keeps a double NaN's sign and payload bits (0x7E, 0xFE in E5M2). Ferry always gives 0x7F, so a
    # byte where both sides hold a NaN of that format counts as equal (and is counted).
    fmts = {"f": "4455", "d": "4455", "h": "4455", "b": "4455", "p": "44554455"}
    is_nan = lambda b, f: (b & 0x7F) == 0x7F if f == "4" else (b & 0x7F) > 0x7C
    diff, nan_payload = [], 0
    for (k, v), a, c in zip(ins, out, cuda):
        if a == c:
            continue
        if k in fmts:
            ab, cb = bytes.fromhex(a), bytes.fromhex(c)
            pos = range(len(fmts[k])) if k != "p" else range(8)  # the four code pairs; the halves after
            if ab[8:] == cb[8:] and all(x == y or is_nan(x, fmts[k][i]) and is_nan(y, fmts[k][i])
                                        for i, x, y in zip(pos, ab, cb)):
                nan_payload += 1
                continue
        diff.append(f"  {k} {v:#x}: ferry {a}, cuda {c}")
    if len(cuda) != len(out) or diff:
        raise SystemExit(f"FAIL: {len(diff)} of {len(cuda)} fp8 results differ from CUDA's cuda_fp8.h:\n" +
                         "\n".join(diff[:12]))
    print(f"fp8: {len(cuda)} results (pairs included) equal CUDA {nvcc}'s cuda_fp8.h bit for bit, but for "
          f"{nan_payload} where both give NaN with another NaN code (CUDA's double NaN payloads)")


FP8_NAMES = {"__nv_fp8_storage_t", "__nv_fp8x2_storage_t", "__nv_fp8x4_storage_t", "__nv_saturation_t",
             "__nv_fp8_interpretation_t", "__NV_NOSAT", "__NV_SATFINITE", "__NV_E4M3", "__NV_E5M2",
             "__nv_cvt_double_to_fp8", "__nv_cvt_double2_to_fp8x2", "__nv_cvt_float_to_fp8",
             "__nv_cvt_float2_to_fp8x2", "__nv_cvt_halfraw_to_fp8", "__nv_cvt_halfraw2_to_fp8x2",
             "__nv_cvt_bfloat16raw_to_fp8", "__nv_cvt_bfloat16raw2_to_fp8x2", "__nv_cvt_fp8_to_halfraw",
             "__nv_cvt_fp8x2_to_halfraw2"}


def tests(hipcc, nvcc, inc, tmp, table):
    test_bf16(hipcc, nvcc, inc, tmp, table["bf16"])
    test_fp16(hipcc, nvcc, inc, tmp, table["fp16"])
    test_fp8(hipcc, nvcc, inc, tmp, table["fp8"])


if __name__ == "__main__":
    sys.exit(main(tests))

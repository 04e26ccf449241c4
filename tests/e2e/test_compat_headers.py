#!/usr/bin/env python3
"""Ferry's compat headers (ferry/compat/*.h), as `ferry migrate --to hip --hip-version 5.2` writes them.

1. A CUDA file that needs every compat header is migrated; the headers Ferry writes into the output
   tree are the ones tested.
2. Every entry of rules/compat/hip/compat.tsv is used by a kernel of these tests (this file and
   test_compat_headers_*.py), and each kernel is compiled for gfx906 with the real hipcc.
3. Numbers, on the host (no GPU here): the SIMD intrinsics against a lane-by-lane reference written
   here from the CUDA Math API's definitions, and __dp4a/__dp2a_lo/__dp2a_hi (signed and unsigned)
   against a reference from the same; the bfloat16 functions against CUDA's own cuda_bf16.h
   compiled by nvcc (its host paths), bit for bit, when nvcc is installed; hipsparseGetErrorName for
   every status; __hmax/__hmin/__hmax_nan/__hmin_nan on __half and their __half2 forms (host paths)
   against a reference written here from the CUDA Math API's rules (NaN, signed zero) and against
   CUDA's cuda_fp16.h (nvcc) bit for bit when nvcc is installed; every HIP_* math constant
   against CUDA's math_constants.h value (read from the CUDA toolkit when installed); the memory
   location types against CUDA's values; min/max on unsigned, 64-bit and mixed arguments and
   umin/umax/llmin/llmax/ullmin/ullmax against CUDA's results; atomicAdd on __half and __half2,
   run on Ferry's CPU wave64 runtime (`ferry wave64 run`, 64-lane wavefronts, blocks on parallel OS
   threads): every thread of every block adds into the same halves, compared with a host reference,
   and every old value a counter returns is seen exactly once; the directed-rounding intrinsics
   (__fadd_rd ... __dsqrt_rz) against an exact rational oracle (Python fractions), bit for bit;
   ptx.h's bfe/bfi against a PTX-ISA reference and atomic64.h's long long atomicMin/atomicMax
   from 2048 threads on the wave64 runtime; the tile shuffles of vector and struct values
   (tile_shfl.h) on the wave64 runtime, every lane
   against the source lane CUDA's thread_block_tile::shfl* reads; device_prop.h's attribute reads
   linked against the real HIP runtime (no device here: 0, reported once).

This file: every compat header written as rules/compat/hip/ holds it, and every entry of
compat.tsv compiled for gfx906; hipsparseGetErrorName for every status; every HIP_* math constant
against CUDA's math_constants.h value; the memory location types against CUDA's values; min/max
and umin/umax/llmin/llmax/ullmin/ullmax against CUDA's results; the cooperative-groups reduce, the
driver error names, the context parameters, GL interop and device_prop.h (no device here: 0,
reported once). The others are test_compat_headers_{simd,floats,rounding,wave64}.py, with the
set-up they share in compat_headers_common.py.
Skips (77) without hipcc."""

import math
import re
import struct
import sys
from pathlib import Path

from compat_headers_common import hip_compile, run, main


def test_hipsparse(hipcc, inc, tmp, names):
    src = tmp / "hipsparse_check.hip"
    src.write_text('#include "ferry/compat/hipsparse.h"\n#include <cstdio>\nint main() {\n'
                   '  for (int s = 0; s <= 11; ++s) std::printf("%s|%s\\n", hipsparseGetErrorName((hipsparseStatus_t)s),\n'
                   '                                          hipsparseGetErrorString((hipsparseStatus_t)s));\n}\n')
    hip_compile(hipcc, src, inc, tmp / "hipsparse_check", link=True)
    lines = run([str(tmp / "hipsparse_check")]).stdout.splitlines()
    header = Path("/usr/include/hipsparse/hipsparse.h").read_text()
    for s, line in enumerate(lines):
        name = line.split("|")[0]
        if not re.search(rf"\b{name}\s*=\s*{s}\b", header):
            raise SystemExit(f"FAIL: hipsparseGetErrorName({s}) = {name}, not the enumerator hipsparse.h gives {s}")
    assert set(names) == {"hipsparseGetErrorName", "hipsparseGetErrorString"}, names
    print(f"hipsparse: {len(names)} names compiled; the names of statuses 0..11 match hipsparse.h")


def test_coop_reduce(hipcc, inc, tmp):
    src = tmp / "coop_check.hip"
    body = ['#include "ferry/compat/coop_reduce.h"', "namespace cg = cooperative_groups;",
            "__global__ void k(const float* in, float* out, unsigned* bits) {",
            "  cg::thread_block block = cg::this_thread_block();"]
    for n in (4, 16, 32, 64):
        body += [f"  cg::thread_block_tile<{n}> t{n} = cg::tiled_partition<{n}>(block);",
                 f"  out[{n}] = cg::reduce(t{n}, in[threadIdx.x], cg::plus<float>())"
                 f" + cg::reduce(t{n}, in[threadIdx.x], cg::less<float>()) + cg::reduce(t{n}, in[threadIdx.x], cg::greater<float>());",
                 f"  bits[{n}] = cg::reduce(t{n}, bits[threadIdx.x], cg::bit_and<unsigned>())"
                 f" ^ cg::reduce(t{n}, bits[threadIdx.x], cg::bit_or<unsigned>()) ^ cg::reduce(t{n}, bits[threadIdx.x], cg::bit_xor<unsigned>());"]
    src.write_text("\n".join(body + ["}"]) + "\n")
    hip_compile(hipcc, src, inc, tmp / "coop_check.o", link=False)
    print("coop_reduce: reduce with plus/less/greater/bit_and/bit_or/bit_xor over tiles of 4..64 compiled for gfx906")


def test_math_constants(hipcc, inc, tmp, names):
    """Every HIP_* constant of the compat header, printed by hipcc's host code, against CUDA's value."""
    src = tmp / "math_check.hip"
    src.write_text('#include "ferry/compat/math_constants.h"\n#include <cstdio>\nint main() {\n' +
                   "".join(f'  std::printf("{n} %.17g\\n", (double)({n}));\n' for n in names) + "}\n")
    hip_compile(hipcc, src, inc, tmp / "math_check", link=True)
    got = dict(line.split() for line in run([str(tmp / "math_check")]).stdout.splitlines())
    if set(got) != set(names):
        raise SystemExit(f"FAIL: math constants printed {len(got)} of {len(names)}")
    cuda_h = Path("/usr/local/cuda/include/math_constants.h")
    if not cuda_h.exists():
        print(f"math_constants: {len(names)} constants compiled (no CUDA toolkit: values not compared)")
        return
    # CUDA's definitions, with the bit-pattern spellings evaluated here.
    special = {"__int_as_float(0x7f800000U)": float("inf"), "__int_as_float(0x7fffffffU)": float("nan"),
               "__int_as_float(0x00000001U)": 1.401298464324817e-45, "__int_as_float(0x7f7fffffU)": 3.4028234663852886e+38,
               "__int_as_float(0x80000000U)": -0.0, "__longlong_as_double(0x7ff0000000000000ULL)": float("inf"),
               "__longlong_as_double(0xfff8000000000000ULL)": float("nan"),
               "__longlong_as_double(0x8000000000000000ULL)": -0.0,
               "__longlong_as_double(0x0000000000000001ULL)": 5e-324}
    cuda = {}
    for m in re.finditer(r"^#define CUDART_(\w+)\s+(.+?)\s*$", cuda_h.read_text(), re.M):
        cuda[m.group(1)] = m.group(2)
    import math
    import struct
    bad = []
    for n in names:
        text = cuda.get(n[len("HIP_"):])
        if text is None:
            bad.append(f"{n}: no CUDART_{n[4:]} in {cuda_h}")
            continue
        if text in special:
            want = special[text]
        elif n == "HIP_REMQUO_MASK_F":
            want = float(~((~0 & 0xffffffff) << 3) & 0xffffffff)
        else:
            lit = text.strip("()").rstrip("FfUu")
            want = float(lit)
            if text.rstrip(")").endswith(("F", "f")):  # a float constant: rounded to float
                want = struct.unpack("<f", struct.pack("<f", want))[0]
        have = float(got[n])
        if not ((math.isnan(want) and math.isnan(have)) or (have == want and math.copysign(1, have) == math.copysign(1, want))):
            bad.append(f"{n}: {have!r}, CUDA's CUDART_{n[4:]} is {want!r}")
    if bad:
        raise SystemExit("FAIL: math constants:\n" + "\n".join(bad))
    print(f"math_constants: {len(names)} constants equal CUDA's math_constants.h values")


def test_memloc(hipcc, inc, tmp, names):
    src = tmp / "memloc_check.hip"
    src.write_text('#include "ferry/compat/memloc.h"\n#include <cstdio>\nint main() {\n'
                   '  std::printf("%d %d %d\\n", (int)hipMemLocationTypeHost, (int)hipMemLocationTypeHostNuma,\n'
                   "              (int)hipMemLocationTypeHostNumaCurrent);\n"
                   "  hipMemLocation l = {};\n  l.type = hipMemLocationTypeHost;\n  return l.type == hipMemLocationTypeDevice;\n}\n")
    hip_compile(hipcc, src, inc, tmp / "memloc_check", link=True)
    out = run([str(tmp / "memloc_check")]).stdout.split()
    if out != ["2", "3", "4"]:
        raise SystemExit(f"FAIL: memory location types {out}, CUDA's are 2 3 4")
    assert set(names) == {"hipMemLocationTypeHost", "hipMemLocationTypeHostNuma", "hipMemLocationTypeHostNumaCurrent"}
    print("memloc: the three host location types compile and have CUDA's values")


def test_drv_error(hipcc, inc, tmp, names):
    src = tmp / "drv_check.hip"
    src.write_text('#include "ferry/compat/drv_error.h"\n#include <cstdio>\n#include <cstring>\nint main() {\n'
                   "  for (hipError_t e : {hipSuccess, hipErrorInvalidValue, hipErrorOutOfMemory, hipErrorNotReady}) {\n"
                   "    const char *n = nullptr, *s = nullptr;\n"
                   "    if (hipDrvGetErrorName(e, &n) != hipSuccess || hipDrvGetErrorString(e, &s) != hipSuccess) return 1;\n"
                   "    if (std::strcmp(n, hipGetErrorName(e)) || std::strcmp(s, hipGetErrorString(e))) return 2;\n  }\n"
                   "  return hipDrvGetErrorString(hipSuccess, nullptr) == hipErrorInvalidValue ? 0 : 3;\n}\n")
    hip_compile(hipcc, src, inc, tmp / "drv_check", link=True)
    rc = run([str(tmp / "drv_check")]).returncode
    if rc != 0:
        raise SystemExit(f"FAIL: drv_error check exited {rc}")
    assert set(names) == {"hipDrvGetErrorName", "hipDrvGetErrorString"}, names
    print("drv_error: hipDrvGetErrorName/String answer what hipGetErrorName/String do")


def test_minmax(hipcc, inc, tmp, names):
    """CUDA's results: a mixed call is computed in the usual arithmetic conversions' type."""
    src = tmp / "minmax_check.hip"
    src.write_text('#include "ferry/compat/minmax.h"\n#include <cstdio>\n#include <cmath>\n'
                   "__global__ void k(unsigned* o, unsigned r, long l, unsigned long long u) {\n"
                   "  o[0] = min(r, blockDim.x) + max(r, threadIdx.x) + (unsigned)min(l, 2L) + (unsigned)max(u, 3ull)\n"
                   "         + umin(r, 1u) + umax(r, 1u) + (unsigned)llmin(l, 1LL) + (unsigned)llmax(l, 1LL)\n"
                   "         + (unsigned)ullmin(u, 1ull) + (unsigned)ullmax(u, 1ull);\n}\n"
                   "int main() {\n"
                   "  unsigned big = 4000000000u; long neg = -5; unsigned long long h = 1ull << 40;\n"
                   "  std::printf(\"%u %u %ld %llu %lld %lld %llu %llu %u %u %g %g %g\\n\",\n"
                   "    min(big, 3u), max(-1, 1u), min(neg, 7L), max(h, 2ull), llmin(-3LL, 2LL), llmax(-3LL, 2LL),\n"
                   "    ullmin(h, 5ull), ullmax(h, 5ull), umin(big, 9u), umax(big, 9u), min(1.5f, 0.25),\n"
                   "    max(NAN, 2.0f), min(2.0, (float)NAN));\n  return 0;\n}\n")
    hip_compile(hipcc, src, inc, tmp / "minmax_check", link=True)
    out = run([str(tmp / "minmax_check")]).stdout.split()
    # max(-1, 1u) is an unsigned max (-1 -> 4294967295), as in CUDA; NaN gives the other operand.
    want = ["3", "4294967295", "-5", str(1 << 40), "-3", "2", "5", str(1 << 40), "9", "4000000000", "0.25", "2", "2"]
    if out != want:
        raise SystemExit(f"FAIL: minmax {out}, CUDA's results are {want}")
    assert set(names) == {"umin", "umax", "llmin", "llmax", "ullmin", "ullmax"}, names
    print("minmax: unsigned, 64-bit and mixed min/max, umin and friends give CUDA's results")


def test_ctx_params(hipcc, inc, tmp, names):
    """The migrated call (parameters dropped) and the type compile together."""
    migrated = (inc / "needs_all.cu").read_text()
    # the spelling record of a many-to-one name (rewrite/roundtrip_record.h) may follow the name
    # the dropped parameter is kept as an argument record for the way back: `/* ferry-cuda: &prm, */`
    if not re.search(r"hipCtxCreate(?: /\* ferry-cuda: \w+ \*/)?\(&c, (?:/\* ferry-cuda: &prm, \*/ )?0, d\)",
                     migrated):
        raise SystemExit("FAIL: cuCtxCreate(&c, &prm, 0, d) did not become hipCtxCreate(&c, 0, d)")
    src = tmp / "ctx_check.hip"
    src.write_text('#include <hip/hip_runtime.h>\n#include "ferry/compat/ctx_params.h"\n'
                   "hipCtx_t make(hipDevice_t d) { CUctxCreateParams p = {}; (void)p; hipCtx_t c;\n"
                   "  return hipCtxCreate(&c, 0, d) == hipSuccess ? c : nullptr; }\n")
    hip_compile(hipcc, src, inc, tmp / "ctx_check.o", link=False)
    assert set(names) == {"CUctxCreateParams"}, names
    print("ctx_params: CUctxCreateParams compiles beside hipCtxCreate(ctx, flags, dev)")


def test_gl_interop(hipcc, inc, tmp):
    """cuda_gl_interop.h becomes ferry/compat/gl_interop.h, whose HIP 5.2 branch declares the GL API."""
    migrated = (inc / "needs_all.cu").read_text()
    if '#include "ferry/compat/gl_interop.h"' not in migrated or "hip_gl_interop.h" in migrated:
        raise SystemExit("FAIL: cuda_gl_interop.h did not become ferry/compat/gl_interop.h for HIP 5.2")
    src = tmp / "gl_check.hip"
    src.write_text('#include "ferry/compat/gl_interop.h"\n'
                   "hipError_t reg(hipGraphicsResource** r, GLuint b) {\n"
                   "  unsigned n = 0; int d = 0; (void)hipGLGetDevices(&n, &d, 1, hipGLDeviceListAll);\n"
                   "  return hipGraphicsGLRegisterBuffer(r, b, hipGraphicsRegisterFlagsNone); }\n")
    hip_compile(hipcc, src, inc, tmp / "gl_check.o", link=False)
    print("gl_interop: hipGraphicsGLRegisterBuffer and hipGLGetDevices compile through the compat header")


DEVICE_PROP_RUN = r"""#include <hip/hip_runtime.h>
#include <cstdio>
#include "ferry/compat/device_prop.h"
int main() {
  hipDeviceProp_t prop = {};
  int count = 0;
  const bool gpu = hipGetDeviceCount(&count) == hipSuccess && count > 0;
  if (gpu) (void)hipGetDeviceProperties(&prop, 0);
  printf("%d %d %d %d\n", gpu ? 1 : 0, ferry_device_attribute(prop, hipDeviceAttributeAsyncEngineCount),
         ferry_device_attribute(prop, hipDeviceAttributeUnifiedAddressing),
         ferry_device_attribute(prop, hipDeviceAttributeSharedMemPerBlockOptin));
  return 0;
}
"""


def test_device_prop(hipcc, inc, tmp):
    """ferry_device_attribute (cudaDeviceProp members HIP 5.2's hipDeviceProp_t lacks, read through
    the device attribute): the migrated read compiles for gfx906; linked against the real HIP
    runtime and run here, where HIP finds no device, every read is 0 and the refusal is reported
    on stderr once. With a GPU, the values are whatever HIP answers."""
    migrated = (inc / "needs_all.cu").read_text()
    if "ferry_device_attribute(p, hipDeviceAttributeAsyncEngineCount)" not in migrated:
        raise SystemExit("FAIL: p.asyncEngineCount for HIP 5.2 did not become ferry_device_attribute(...)")
    src = tmp / "device_prop_run.hip"
    src.write_text(DEVICE_PROP_RUN)
    exe = tmp / "device_prop_run"
    hip_compile(hipcc, src, inc, exe, link=True)
    p = run([str(exe)], timeout=120)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: device_prop_run exited {p.returncode}:\n{p.stdout}\n{p.stderr[-2000:]}")
    gpu, *values = (int(x) for x in p.stdout.split())
    if gpu:
        print(f"device_prop: a GPU answered {values}")
        return
    reports = [l for l in p.stderr.splitlines() if l.startswith("ferry/compat/device_prop.h:")]
    if values != [0, 0, 0] or len(reports) != 1:
        raise SystemExit(f"FAIL: device_prop without a device: values {values}, stderr reports {reports}")
    print("device_prop: compiles for gfx906; without a device every read is 0, reported once on stderr")


def tests(hipcc, nvcc, inc, tmp, table):
    test_hipsparse(hipcc, inc, tmp, table["hipsparse"])
    test_coop_reduce(hipcc, inc, tmp)
    test_math_constants(hipcc, inc, tmp, table["math_constants"])
    test_memloc(hipcc, inc, tmp, table["memloc"])
    test_drv_error(hipcc, inc, tmp, table["drv_error"])
    test_minmax(hipcc, inc, tmp, table["minmax"])
    test_ctx_params(hipcc, inc, tmp, table["ctx_params"])
    test_gl_interop(hipcc, inc, tmp)
    test_device_prop(hipcc, inc, tmp)


if __name__ == "__main__":
    sys.exit(main(tests))

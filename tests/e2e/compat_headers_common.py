"""What the compat-header tests (tests/e2e/test_compat_headers*.py) share: the CUDA file that needs
every compat header, its migration with `ferry migrate --to hip --hip-version 5.2`, hipcc, and the
packed-lane helpers. Not a test itself (CTest runs tests/e2e/test_*.py)."""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

SKIP = 77
ROOT = Path(os.environ.get("FERRY_ROOT", Path(__file__).resolve().parents[2]))
FERRY = os.environ.get("FERRY", str(ROOT / "build" / "ferry"))

NEEDS_ALL = """#include <cuda_runtime.h>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cusparse.h>
#include <cuda_fp16.h>
#include <math_constants.h>
#include <cuda_fp8.h>
#include <cuda_gl_interop.h>
__global__ void q(__nv_fp8_storage_t* o, float f) { o[0] = __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3); }
__global__ void k(unsigned* p, __nv_bfloat16* h) { p[0] = __vadd2(p[0], p[1]); h[0] = __float2bfloat16(1.f); }
__global__ void m(__half* x, __half2* y, float* f) { x[0] = __hmax(x[0], x[1]); y[0] = __hmax2(y[0], y[1]); f[0] = CUDART_PI_F; }
const char* name(cusparseStatus_t s) { return cusparseGetErrorString(s); }
bool host(cudaMemLocation l) { return l.type == cudaMemLocationTypeHost; }
const char* drv(CUresult r) { const char* s = nullptr; cuGetErrorString(r, &s); cuGetErrorName(r, &s); return s; }
__global__ void mm(unsigned* p, unsigned rem) { p[0] = umin(rem, p[1]) + min(rem, blockDim.x); }
__global__ void acc(__half* x, __half2* y) { atomicAdd(x, x[1]); atomicAdd(y, y[1]); }
CUcontext ctx(CUdevice d) { CUctxCreateParams prm = {}; CUcontext c; cuCtxCreate(&c, &prm, 0, d); return c; }
__global__ void iv(float* lo, double* hi) { lo[0] = __fadd_rd(lo[1], lo[2]); hi[0] = __dmul_ru(hi[1], hi[2]); }
int engines(cudaDeviceProp p) { return p.asyncEngineCount; }
__global__ void ts(float2* v) { auto t = cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block()); float2 x = v[0]; v[1] = t.shfl_xor(x, 1); }
__global__ void a64(long long* p) { atomicMin(p, p[1]); atomicMax(p + 2, p[3]); }
__global__ void hs(__half* h) { h[threadIdx.x] = __shfl_down_sync(0xffffffff, h[threadIdx.x], 1); }
__global__ void px(unsigned* r) { unsigned d; asm("bfe.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(r[0]), "r"(r[1]), "r"(r[2])); r[3] = d; }
__global__ void dp(int* r, unsigned* u) { r[0] = __dp4a(r[1], r[2], r[3]); u[0] = __dp2a_hi(u[1], u[2], u[3]); }
int cm(int a, int b) { return CUB_MAX(a, b) + CUB_QUOTIENT_CEILING(a, b); }
cusparseStatus_t sm(cusparseHandle_t h, cusparseSpMatDescr_t A, cusparseDnMatDescr_t B, cusparseSpSMDescr_t d, const float* a) {
  return cusparseSpSM_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, a, A, B, B, CUDA_R_32F,
                            CUSPARSE_SPSM_ALG_DEFAULT, d);
}
cusparseStatus_t sv(cusparseHandle_t h, cusparseSpMatDescr_t A, cusparseDnVecDescr_t x, cusparseSpSVDescr_t d, const float* a) {
  return cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, a, A, x, x, CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, d);
}
int rt() { return CUDART_VERSION; }
"""


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def hip_compile(hipcc, src: Path, inc: Path, out: Path, link: bool):
    cmd = [hipcc, "-x", "hip", "--offload-arch=gfx906", "-I", str(inc), str(src), "-o", str(out)]
    if not link:
        cmd.insert(1, "-c")
    p = run(cmd)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: hipcc {src.name}:\n{p.stderr[-4000:]}")


# ---- lanes of packed integers (the SIMD, dot and PTX references) --------------------------------------
def lanes(x, bits):
    return [(x >> (i * bits)) & ((1 << bits) - 1) for i in range(32 // bits)]


def signed(v, bits):
    return v - (1 << bits) if v & (1 << (bits - 1)) else v


def pack(vals, bits):
    r = 0
    for i, v in enumerate(vals):
        r |= (v & ((1 << bits) - 1)) << (i * bits)
    return r


def main(tests) -> int:
    """Skips (77) without hipcc; migrates NEEDS_ALL, checks that Ferry wrote every compat header as
    rules/compat/hip/ holds it, then calls tests(hipcc, nvcc, inc, tmp, table): `inc` the output
    tree (the include folder), `table` the names of rules/compat/hip/compat.tsv by header."""
    hipcc = shutil.which("hipcc")
    if not hipcc:
        print("SKIP: hipcc not installed")
        return SKIP
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    table = {}
    for line in (ROOT / "rules/compat/hip/compat.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            kind, name, header = line.split("\t")
            if kind == "name":
                table.setdefault(header, []).append(name)
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        (tmp / "in").mkdir()
        (tmp / "in" / "needs_all.cu").write_text(NEEDS_ALL)
        p = run([FERRY, "migrate", str(tmp / "in"), "-o", str(tmp / "out"), "--to", "hip", "--hip-version", "5.2", "-q"])
        if p.returncode not in (0, 1):
            raise SystemExit(f"FAIL: ferry migrate exited {p.returncode}:\n{p.stderr}")
        inc = tmp / "out"
        written = sorted(x.name for x in (inc / "ferry" / "compat").iterdir())
        want = sorted(f.name for f in (ROOT / "rules/compat/hip").glob("*.h"))
        if written != want:
            raise SystemExit(f"FAIL: ferry wrote {written}, expected every compat header {want}")
        for f in want:
            if (inc / "ferry/compat" / f).read_text() != (ROOT / "rules/compat/hip" / f).read_text():
                raise SystemExit(f"FAIL: ferry/compat/{f} differs from rules/compat/hip/{f}")
        tests(hipcc, nvcc, inc, tmp, table)
    print("PASS")
    return 0

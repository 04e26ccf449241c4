#!/usr/bin/env python3
"""Re-migration is a fixed point on whole trees, mixed ones included (issue 13, class 1).

The tree: our CUDA examples (llama_ops, make_saxpy, cmake_vector_add), the HIP example
(hip_native) beside them, and two compat headers of the kinds real projects ship (written here):
one that #defines CUDA names to HIP names (as ggml's vendors/hip.h does), one that maps HIP names
back to CUDA for nvcc builds, plus a unit that includes the first, and a unit using names HIP 5.2
lacks (Ferry writes its own compat headers, ferry/compat/*.h, for them). Checks, with M = `ferry migrate
--to hip`:
  1. M(M(x)) == M(x), file by file, over the whole tree (build files included);
  2. the second round renames nothing (no FRY4101) and reports no clash with an API name;
  3. the compat header's API names are never renamed to NAME_user in either round.
Environment: FERRY (the binary), FERRY_ROOT (the repository).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(os.environ.get("FERRY_ROOT", Path(__file__).resolve().parents[2]))
FERRY = os.environ.get("FERRY") or str(ROOT / "build" / "ferry")
EXAMPLES = ["llama_ops", "make_saxpy", "cmake_vector_add", "hip_native"]

CUDA_TO_HIP = """\
// Lets this CUDA code build with hipcc: CUDA names defined as HIP names.
#pragma once
#if defined(USE_HIP_COMPAT)
#include <hip/hip_runtime.h>
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaStream_t hipStream_t
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaGetErrorString hipGetErrorString
#define cudaMallocHost(ptr, size) hipHostMalloc(ptr, size, hipHostMallocDefault)
#define cublasHandle_t hipblasHandle_t
#define __shfl_xor_sync(mask, var, lane, width) __shfl_xor(var, lane, width)
#define __any_sync(mask, p) __any(p)
#else
#include <cuda_runtime.h>
#endif
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) return e_; } while (0)
"""

HIP_TO_CUDA = """\
// Lets HIP code build with nvcc: HIP names defined as CUDA names, and a shim.
#pragma once
#if defined(__NVCC__)
#include <cuda_runtime.h>
#define hipError_t cudaError_t
#define hipSuccess cudaSuccess
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipLaunchKernelGGL(k, g, b, s, st, ...) k<<<g, b, s, st>>>(__VA_ARGS__)
static inline hipError_t hipDeviceSynchronize() { return cudaDeviceSynchronize(); }
#else
#include <hip/hip_runtime.h>
#endif
"""

USER = """\
#include "compat/cuda_to_hip.h"

__global__ void warp_sum(float* x) {
  float v = x[threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o, 32);
  if (__any_sync(0xffffffff, v > 0.f)) x[threadIdx.x] = v;
}

cudaError_t run(float* host, int n, cudaStream_t s) {
  float* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMemcpyAsync(d, host, n * sizeof(float), cudaMemcpyHostToDevice, s));
  warp_sum<<<1, 32, 0, s>>>(d);
  return cudaFree(d);
}
"""


# Names HIP 5.2 lacks: Ferry writes its compat headers (ferry/compat/*.h, `// ferry: off`) into
# the output; migrating the output again must leave them as they are.
COMPAT_USER = """\
#include <cusparse.h>
#include <cstdio>

__global__ void vmax(const unsigned* a, const unsigned* b, unsigned* c) {
  c[threadIdx.x] = __vmaxs4(a[threadIdx.x], b[threadIdx.x]);
}

void report(cusparseStatus_t st) { std::printf("%s\\n", cusparseGetErrorString(st)); }
"""


def copy_example(name: str, dest: Path) -> None:
    src = ROOT / "examples" / name
    try:
        files = subprocess.run(["git", "-C", str(src), "ls-files", "."], capture_output=True, text=True,
                               check=True).stdout.split()
    except (subprocess.CalledProcessError, FileNotFoundError):
        files = []
    if not files:
        files = [str(p.relative_to(src)) for p in src.rglob("*") if p.is_file() and "build" not in p.parts]
    for f in files:
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src / f, dest / f)


def migrate(inp: Path, out: Path) -> str:
    p = subprocess.run([FERRY, "migrate", str(inp), "-o", str(out), "--jobs", "2", "--hip-version", "5.2"],
                       capture_output=True,
                       text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"FAIL: ferry migrate {inp} exited {p.returncode}:\n{p.stderr[-3000:]}")
    return p.stderr


def tree_files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".ferry" not in p.relative_to(root).parts}


def main() -> int:
    if not os.path.exists(FERRY):
        print(f"ferry binary not found: {FERRY}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        src = t / "in"
        for e in EXAMPLES:
            copy_example(e, src / e)
        (src / "compat").mkdir(parents=True)
        (src / "compat" / "cuda_to_hip.h").write_text(CUDA_TO_HIP)
        (src / "compat" / "hip_to_cuda.h").write_text(HIP_TO_CUDA)
        (src / "user.cu").write_text(USER)
        (src / "compat_user.cu").write_text(COMPAT_USER)
        first = t / "m1"
        second = t / "m2"
        migrate(src, first)
        log2 = migrate(first, second)
        a, b = tree_files(first), tree_files(second)
        failures = []
        if sorted(a) != sorted(b):
            failures.append(f"file sets differ: {sorted(set(a) ^ set(b))}")
        for rel in sorted(set(a) & set(b)):
            if a[rel] != b[rel]:
                la = a[rel].decode(errors="replace").splitlines()
                lb = b[rel].decode(errors="replace").splitlines()
                i = next((k for k in range(min(len(la), len(lb))) if la[k] != lb[k]), min(len(la), len(lb)))
                failures.append(f"{rel}: second round changed line {i + 1}:\n"
                                f"  first:  {la[i] if i < len(la) else '<eof>'}\n"
                                f"  second: {lb[i] if i < len(lb) else '<eof>'}")
        if "[FRY4101]" in log2:
            failures.append("second round renamed names (FRY4101):\n" +
                            "\n".join(l for l in log2.splitlines() if "FRY4101" in l)[:2000])
        for rel, data in a.items():
            for m in re.finditer(rb"\b((?:hip|cuda|cublas|hipblas|__shfl|__any)\w*_user\d*)\b", data):
                failures.append(f"{rel}: API name renamed in the first round: {m.group(1).decode()}")
                break
        compat = a.get("compat/cuda_to_hip.h", b"").decode()
        # the project's own mapping keeps its names (FRY1313): `#define hipMalloc hipMalloc` no more
        if "#define cudaMalloc hipMalloc" not in compat or "#include <hip/hip_runtime.h>" not in compat:
            failures.append("compat/cuda_to_hip.h lost its mapping lines:\n" + compat)
        for f in failures:
            print("FAIL:", f, file=sys.stderr)
        if failures:
            return 1
        print(f"PASS: {len(a)} files; migrating the migrated tree again changed nothing")
        return 0


if __name__ == "__main__":
    sys.exit(main())

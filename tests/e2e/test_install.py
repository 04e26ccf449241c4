#!/usr/bin/env python3
"""An installed ferry works without its build tree (docs/architecture.md, "Installable"):

`cmake --install BUILD --prefix P`, then P is moved elsewhere (the binary must find everything
relative to itself, not through a path compiled into it) and run with FERRY_IGNORE_BUILD_TREE=1
(the build tree's copies of the runtime are then refused): migrate, verify, wave64 run (the CUDA
original at warp 32 and the HIP port at wave 64, with the runtime from P) and serve.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request

FERRY = os.environ["FERRY"]
BUILD = os.path.dirname(os.path.abspath(FERRY))
T = tempfile.mkdtemp(prefix="ferry-install-")
failures = 0


def check(ok, what, detail=""):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures += 1
        if detail:
            print("    " + detail[-3000:].replace("\n", "\n    "))
    return ok


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)


try:
    staged = os.path.join(T, "staged")
    r = run(["cmake", "--install", BUILD, "--prefix", staged])
    if not check(r.returncode == 0, "cmake --install into a temporary prefix", r.stdout + r.stderr):
        sys.exit(1)
    prefix = os.path.join(T, "moved", "prefix")
    os.makedirs(os.path.dirname(prefix))
    shutil.move(staged, prefix)
    ferry = os.path.join(prefix, "bin", "ferry")
    for rel in ["bin/ferry", "lib/ferry/wave64/include/wave64/core.h", "lib/ferry/wave64/cuda/cuda_runtime.h",
                "lib/ferry/wave64/hip/hip/hip_runtime.h", "lib/ferry/wave64/lib/libferry_wave64.a",
                "share/ferry/rules/cuda2hip", "share/ferry/rules/compat", "share/doc/ferry/diagnostics.md"]:
        check(os.path.exists(os.path.join(prefix, rel)), f"installed {rel}")
    env = dict(os.environ, FERRY_IGNORE_BUILD_TREE="1", W64_QUIET="1")
    env.pop("FERRY_WAVE64_ROOT", None)

    src = os.path.join(T, "cuda")
    os.makedirs(src)
    with open(os.path.join(src, "sum.cu"), "w") as f:
        f.write("""#include <cstdio>
#include <cuda_runtime.h>
__global__ void warp_sum(const int* in, int* out) {
  int v = in[threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % warpSize == 0) atomicAdd(out, v);
}
int main() {
  int h[256], *in, *out, total = 0;
  for (int i = 0; i < 256; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(out, 0, sizeof(int));
  warp_sum<<<1, 256>>>(in, out);
  cudaMemcpy(&total, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("total %d\\n", total);
  return total == 32640 ? 0 : 1;
}
""")
    out = os.path.join(T, "hip")
    r = run([ferry, "migrate", src, "--to", "hip", "-o", out, "-q"], env=env)
    check(r.returncode in (0, 1) and os.path.exists(os.path.join(out, "sum.cu")), "migrate from the installed copy",
          r.stdout + r.stderr)

    if shutil.which("hipcc"):
        r = run([ferry, "verify", out, "-j", "1"], env=env)
        check(r.returncode in (0, 1) and "Traceback" not in r.stderr, "verify from the installed copy",
              r.stdout + r.stderr)
    else:
        print("skip verify: no hipcc")

    for name, path, want in [("CUDA original, warp 32", os.path.join(src, "sum.cu"), "total 32640"),
                             ("HIP port, wave 64", os.path.join(out, "sum.cu"), "total 32640")]:
        r = run([ferry, "wave64", "run", path, "-v", "--work", os.path.join(T, "w64-" + str(len(want) + len(name)))],
                env=env)
        ok = r.returncode == 0 and want in r.stdout
        check(ok, f"wave64 run ({name}) from the installed copy", r.stdout + r.stderr)
        check(os.path.join(prefix, "lib", "ferry", "wave64") in r.stdout + r.stderr,
              f"wave64 ({name}) used the installed runtime", r.stderr)

    # Without the installed runtime and without the build tree, wave64 says where it looked.
    hidden = os.path.join(prefix, "lib", "ferry", "wave64.hidden")
    os.rename(os.path.join(prefix, "lib", "ferry", "wave64"), hidden)
    r = run([ferry, "wave64", "build", os.path.join(src, "sum.cu"), "-o", os.path.join(T, "x")], env=env)
    check(r.returncode != 0 and "FERRY_IGNORE_BUILD_TREE" in r.stderr, "no runtime: a clear error", r.stderr)
    os.rename(hidden, os.path.join(prefix, "lib", "ferry", "wave64"))

    p = subprocess.Popen([ferry, "serve", out, "--port", "0", "--no-original-check", "-j", "1"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        m = re.fullmatch(r"http://([0-9.]+):(\d+)/\?token=([A-Za-z0-9_-]+)\n", line)
        if check(m is not None, "serve starts from the installed copy", line):
            with urllib.request.urlopen(f"http://127.0.0.1:{m.group(2)}/api/project?token={m.group(3)}",
                                        timeout=60) as resp:
                body = resp.read().decode()
                check(resp.status == 200 and "sum.cu" in body, "serve answers /api/project", body[:500])
    finally:
        p.kill()
        p.wait()
finally:
    shutil.rmtree(T, ignore_errors=True)

print(f"{failures} failure(s)")
sys.exit(1 if failures else 0)

#!/usr/bin/env bash
# The CUDA side of the wave64 runtime builds and runs what CUDA programs write
# (tests/wave64/constructs: static __shared__ in templates, storage classes and attributes with
# __shared__/__device__/__constant__, __forceinline__/__noinline__ beside <memory>, the legacy
# warp intrinsics without _sync, printf/assert in kernels, stream capture into a graph with a
# fork and join through events, host functions in streams, a .cpp helper linked), and __trap()
# stops the program naming the block and thread.
set -u
FERRY=${FERRY:?set FERRY to the ferry binary}
here=$(cd "$(dirname "$0")" && pwd)
src="$here/../wave64/constructs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
out=$(W64_QUIET=1 W64_THREADS=2 timeout 600 "$FERRY" wave64 run "$src/constructs.cu" "$src/helper.cpp" -I "$src" \
  -o "$work/prog" --work "$work/w" 2>&1)
rc=$?
if [[ $rc -ne 0 ]] || ! grep -qE '^constructs: [0-9]+ checks, 0 failures' <<<"$out" ||
  ! grep -q 'kernel printf: block 0 thread 1 value 1.50' <<<"$out"; then
  echo "FAIL constructs (exit $rc):"
  sed 's/^/    /' <<<"$out" | tail -30
  fails=$((fails + 1))
else
  echo "ok   constructs: $(grep -E '^constructs:' <<<"$out")"
fi
cat > "$work/trap.cu" <<'X'
#include <cstdio>
__global__ void k() { if (threadIdx.x == 3) __trap(); }
int main() { k<<<2, 8>>>(); cudaDeviceSynchronize(); printf("not reached\n"); }
X
out=$(W64_THREADS=1 timeout 300 "$FERRY" wave64 run "$work/trap.cu" -o "$work/trap" --work "$work/tw" 2>&1)
rc=$?
if [[ $rc -eq 0 ]] || ! grep -q 'wave64: error: __trap() in block (0,0,0) thread (3,0,0)' <<<"$out"; then
  echo "FAIL trap (exit $rc):"
  sed 's/^/    /' <<<"$out" | tail -10
  fails=$((fails + 1))
else
  echo "ok   __trap names the block and thread"
fi
# HIP: a template kernel whose arguments hold a comma, launched with hipLaunchKernelGGL (also
# inside a generic lambda, as rocm-examples do): the driver parenthesises the kernel expression.
cat > "$work/tk.hip" <<'X'
#include <hip/hip_runtime.h>
#include <cstdio>
template <int A, int B>
__global__ void k(int* p, int add) { p[threadIdx.x] = A * B + add + (int)threadIdx.x; }
// rocm-examples' reduction tutorials: the block and warp sizes given, T and F deduced.
template <int A, int B, class T, class F>
__global__ void kd(T* p, F f) { p[threadIdx.x] = f(p[threadIdx.x]) + A * B; }
int main() {
  int* p;
  hipMalloc(&p, 64 * sizeof(int));
  hipLaunchKernelGGL(k<2, 3>, dim3(1), dim3(64), 0, hipStreamDefault, p, 1);
  auto launch = [&]<int W>() { hipLaunchKernelGGL(k<W, 2>, dim3(1), dim3(64), 0, 0, p, 0); };
  launch.template operator()<5>();
  auto deduced = [&]<int W>() { hipLaunchKernelGGL(kd<W, 1>, dim3(1), dim3(64), 0, 0, p, [](int v) { return v + 1; }); };
  deduced.template operator()<3>();
  int h[64];
  hipMemcpy(h, p, sizeof h, hipMemcpyDeviceToHost);
  printf("template launch %d %d\n", h[0], h[63]);
  return !(h[0] == 14 && h[63] == 77);
}
X
out=$(timeout 300 "$FERRY" wave64 run "$work/tk.hip" --std gnu++20 -o "$work/tk" --work "$work/tkw" 2>&1)
rc=$?
if [[ $rc -ne 0 ]] || ! grep -q 'template launch 14 77' <<<"$out"; then
  echo "FAIL template kernel in hipLaunchKernelGGL (exit $rc):"
  sed 's/^/    /' <<<"$out" | tail -10
  fails=$((fails + 1))
else
  echo "ok   hipLaunchKernelGGL(k<A, B>, ...), and with deduced template arguments"
fi
[[ $fails -eq 0 ]] && echo "all construct cases passed" || echo "$fails failed"
exit $((fails > 0))

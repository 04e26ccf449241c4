// ferry/compat/coop_reduce.h (rules/compat/hip/coop_reduce.h), which `ferry migrate --to hip`
// writes for ports that call cg::reduce: over a coalesced group of a third of the lanes, with an
// int and with a struct (word by word). Built as HIP at wave 64 and 32 (wave64 runtime CTest);
// the header also compiles with hipcc for gfx906.
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime.h>
#include <cstdio>
#include "../../../rules/compat/hip/coop_reduce.h"
namespace cg = cooperative_groups;
struct P {
  int v;
  int i;
};
__global__ void k(int* out) {
  const int t = threadIdx.x;
  if (t % 3 == 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    out[t] = cg::reduce(g, t, cg::plus<int>());
    P p = cg::reduce(g, P{t, t}, [](P a, P b) { return a.v < b.v ? b : a; });
    out[256 + t] = p.i;
  } else {
    out[t] = -1;
    out[256 + t] = -1;
  }
}
int main() {
  int* d;
  hipMalloc(&d, 512 * sizeof(int));
  hipLaunchKernelGGL(k, dim3(1), dim3(256), 0, 0, d);
  int h[512];
  hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < 256; t += 3) {
    int w = t / warpSize * warpSize, sum = 0, mx = 0;
    for (int l = w; l < w + warpSize; ++l)
      if (l % 3 == 0) sum += l, mx = l;
    if (h[t] != sum || h[256 + t] != mx) ++bad;
  }
  printf("%s (%d bad)\n", bad ? "FAILED" : "PASSED", bad);
  return bad != 0;
}

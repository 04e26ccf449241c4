// Programs with OpenGL interop include <X11/Xlib.h> (through GL/glx.h) before the runtime's
// headers: its macros None, Bool, Status, True, False, Success, Always must not break them
// (cuda-samples' FunctionPointers did: `enum class RegionOp { None, ... }`).
#define None 0L
#define Bool int
#define Status int
#define True 1
#define False 0
#define Success 0
#define Always 2
#include <hip/hip_runtime.h>

#include <cstdio>

// A shuffle reduction and a barrier: the region form (regions.h) and the fiber path both.
__global__ void lane_sum(int* out) {
  int v = threadIdx.x;
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

int main() {
  int* out;
  if (hipMallocManaged(&out, 2 * sizeof(int)) != hipSuccess) return 2;
  hipLaunchKernelGGL(lane_sum, dim3(2), dim3(64), 0, 0, out);
  if (hipDeviceSynchronize() != hipSuccess) return 2;
  const Bool ok = out[0] == 63 * 64 / 2 && out[1] == 63 * 64 / 2;
  std::printf("x11 macros: %s (%d %d)\n", ok == True ? "ok" : "FAILED", out[0], out[1]);
  hipFree(out);
  return ok == True ? 0 : 1;
}

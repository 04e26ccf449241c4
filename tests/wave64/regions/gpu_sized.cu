// What the wave64 runtime says about work and memory a CPU cannot give (docs/wave64.md, "Work a
// CPU cannot do in time"): a managed allocation of the whole modelled device fails (FRY9403 on
// stderr); under a CPU budget (CTest sets W64_CPU_BUDGET=2) a launch whose blocks would need far
// more than is left stops the program (FRY9402, exit 3). "not reached" means neither happened.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void spin(unsigned long long* out, int iters) {
  unsigned long long x = threadIdx.x + 1;
  for (int i = 0; i < iters; ++i) x = x * 6364136223846793005ull + 1442695040888963407ull;
  if (x == 42) out[0] = x;
}

int main() {
  size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  void* p = nullptr;
  const cudaError_t e = cudaMallocManaged(&p, total);
  if (e == cudaSuccess) {
    std::printf("not reached: a managed allocation of the whole device succeeded\n");
    return 1;
  }
  std::printf("managed allocation of %zu bytes refused: %s\n", total, cudaGetErrorString(e));
  unsigned long long* out = nullptr;
  cudaMalloc(&out, sizeof *out);
  spin<<<100000, 256>>>(out, 20000);  // about 5 * 10^11 steps: minutes of CPU
  cudaDeviceSynchronize();
  std::printf("not reached: the launch ran to the end\n");
  return 1;
}

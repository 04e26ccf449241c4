// Golden case of the wave64 lane-math fix for FRY2207 (the same kernel runs in
// tests/e2e/test_wave64_fixes.sh, wrong at wave 64 without the fix and right with it).
#include <hip/hip_runtime.h>

#define THREADS 256

// FRY2207 / FRY2208: a ballot kept in 32 bits and counted with __popc.
__global__ void k2207(const int* in, int* out) {
  const bool hit = in[blockIdx.x * blockDim.x + threadIdx.x] > 0;
  const unsigned long long /* ferry-cuda: unsigned */ ballot = __ballot(hit);
  if (threadIdx.x % warpSize == 0) atomicAdd(out, __popcll /* ferry-cuda: __popc */(ballot));
}

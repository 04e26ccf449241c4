// AMD's bit-field extract in a kernel, and roctx ranges around the launch (written for this test).
#include "ferry/compat_cuda.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

__global__ void nibble(const unsigned* in, unsigned* out, unsigned long long* wide, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = ferry::cuda_compat::bitextract_u32(in[i], 8, 4);
    wide[i] = ferry::cuda_compat::bitextract_u64(static_cast<unsigned long long>(in[i]) << 32, 36, 8);
  }
}

void run(const unsigned* in, unsigned* out, unsigned long long* wide, int n) {
  nvtxRangePushA("nibble");
  nvtxRangeId_t id = nvtxRangeStartA("whole");
  nibble<<<dim3((n + 255) / 256), dim3(256), 0, 0>>>(in, out, wide, n);
  nvtxMarkA("launched");
  nvtxRangeEnd(id);
  nvtxRangePop();
}

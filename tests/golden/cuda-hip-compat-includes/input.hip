// HIP written by Ferry for HIP 5.2 includes Ferry's own compat headers. The way back to CUDA
// gives the CUDA header a compat header stood for (fp8.h: cuda_fp8.h) and drops the ones added
// for names alone (minmax.h: CUDA's own min/max/umin), so nvcc needs nothing from the HIP tree.
// The calls of tile_shfl.h (a tile shuffle of a vector value) go back to the tile's member.
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include "ferry/compat/fp8.h"
#include "../ferry/compat/minmax.h"
#include "ferry/compat/tile_shfl.h"
namespace cg = cooperative_groups;

__global__ void rotate(float2* v) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  float2 x = v[threadIdx.x];
  x = ferry_tile_shfl_down(tile, x, 1);
  v[threadIdx.x] = ferry_tile_shfl(tile, ferry_tile_shfl_xor(tile, x, 2), 0);
}

__global__ void quantize(const float* in, __nv_fp8_storage_t* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < min(n, 4096u)) out[i] = __nv_cvt_float_to_fp8(in[i], __NV_SATFINITE, __NV_E4M3);
}

int main() {
  float* in;
  __nv_fp8_storage_t* out;
  hipMalloc(&in, 4096 * sizeof(float));
  hipMalloc(&out, 4096);
  hipLaunchKernelGGL(quantize, dim3(16), dim3(256), 0, 0, in, out, 4096u);
  hipDeviceSynchronize();
  hipFree(in);
  hipFree(out);
  return 0;
}

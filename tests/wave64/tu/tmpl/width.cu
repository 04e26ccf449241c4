// A template parameter named like the others' macro: it refers to no other file.
template <int WARP_SIZE = 32>
__device__ float tile_sum(float v) {
  for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}
__global__ void use_tile(float* p) { p[threadIdx.x] = tile_sum<WARP_SIZE>(p[threadIdx.x]); }

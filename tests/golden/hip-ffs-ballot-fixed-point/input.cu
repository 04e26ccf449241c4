// __ffs of a ballot held in a variable: the wave64 fix widens k's 'm' to 64 bits; f's own parameter
// 'm' stays 32-bit, so __ffs(m) in f takes no cast, now or when the output is migrated again.
__device__ int f(unsigned int m) { return __ffs(m); }
__global__ void k3(int *out, const int *v) {
  unsigned int m = __ballot_sync(0xffffffff, v[threadIdx.x] > 0);
  out[blockIdx.x] = f(m) + __popc(m);
  int lane = threadIdx.x & 31;
  unsigned int below = m & ((1u << lane) - 1);
  out[threadIdx.x] = __ffs(below);
}

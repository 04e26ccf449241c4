// __ffs of ballots in several shapes: migrating the HIP output again must change nothing.
__global__ void k1(int *out, const int *v) {
  unsigned int mask;
  mask = __ballot_sync(0xffffffff, v[threadIdx.x] > 0);
  out[blockIdx.x] = __ffs(mask);
}
__global__ void k2(int *out, const int *v) {
  unsigned int masks[2];
  masks[0] = __ballot_sync(0xffffffff, v[threadIdx.x] > 0);
  out[blockIdx.x] = __ffs(masks[0]);
}
__device__ int f(unsigned int m) { return __ffs(m); }
__global__ void k3(int *out, const int *v) {
  unsigned int m = __ballot_sync(0xffffffff, v[threadIdx.x] > 0);
  out[blockIdx.x] = f(m) + __popc(m);
  int lane = threadIdx.x & 31;
  unsigned int below = m & ((1u << lane) - 1);
  out[threadIdx.x] = __ffs(below);
}
__global__ void k4(int *out, const int *v) {
  int lane = threadIdx.x % 32;
  const unsigned int act = __activemask();
  out[lane] = __ffs(act) - 1;
}

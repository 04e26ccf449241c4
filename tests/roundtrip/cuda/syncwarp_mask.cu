// A reduction that syncs only the lanes it names: the mask comes back on the way back.
__global__ void tail_sum(float *s) {
  const unsigned int lanes = __ballot_sync(0xffffffff, threadIdx.x < 16);
  if (threadIdx.x < 16) {
    s[threadIdx.x] += s[threadIdx.x + 16];
    __syncwarp(lanes);
    s[threadIdx.x] += s[threadIdx.x + 8];
    __syncwarp(0xffffffff);
  }
  __syncwarp();
}

// Components the warpSize form cannot fix, fixed as logical 32-lane warps (each half of a 64-lane
// wavefront one CUDA warp: shuffles get the width 32, ballots and votes take their half, warpSize
// becomes 32; every other 32 stays). Each case is one of the classes the public corpora left
// unfixed (bench/results/wave64-2026-12-01.md, Session 4). tests/e2e/test_wave64_fixes.sh runs this
// program like kinds.cu: as CUDA at warp 32 (the reference), migrated without the fixes at wave 64
// (must differ) and at wave 32 (must match), and with the fixes at wave 64 (must match).
#include <cstdio>
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define N 1024
#define FULL 0xffffffff

// A dispatch macro launching with K = 32 as well as 256 (the torch-binding class): for K = 32 a
// wavefront holds one warp, so the warpSize form (a reduction over 64 lanes) would read 32 lanes
// that are not there. Each lane uses its warp's maximum, broadcast from the warp's lane 0.
template <int K>
__global__ void row_max_shift(const int* in, int* out) {
  const int tid = threadIdx.x;
  const int i = blockIdx.x * K + tid;
  const int x = in[i] * ((i / 40) % 3 + 1);  // warps with different maxima
  int m = x;
  for (int o = WARP_SIZE / 2; o > 0; o >>= 1) m = max(m, __shfl_down_sync(FULL, m, o));
  const int wmax = __shfl_sync(FULL, m, 0);
  atomicAdd(out, (x - wmax) * (tid % 7 + 1));
  if (tid % WARP_SIZE == 0) atomicAdd(out + 1, wmax * (tid / WARP_SIZE + 1));
}
#define LAUNCH_ROW_MAX(K) row_max_shift<(K)><<<N / (K), dim3((K))>>>(in, out)

// WARP_SIZE in two roles (a warp width here, the side of a padded tile in the transpose below):
// the constant cannot become 64, yet the ballot count must be its warp's.
__global__ void count_hits(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % WARP_SIZE;
  const unsigned hits = __ballot_sync(FULL, in[i] > 3);
  if (lane == 0) {
    atomicAdd(out, __popc(hits) * (threadIdx.x / WARP_SIZE + 1));
    atomicAdd(out + 1, __ffs(hits));
  }
}
__global__ void transpose(const int* in, int* out) {
  __shared__ int tile[WARP_SIZE][WARP_SIZE + 1];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * WARP_SIZE + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * WARP_SIZE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// Votes of a warp, in blocks of 96 threads (three warps: not whole wavefronts).
__global__ void votes(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int x = i < N ? in[i] : 0;
  const int any = __any_sync(FULL, (x + i) % 61 == 0);
  const int all = __all_sync(FULL, (x + i) % 61 != 0);
  if (lane == 0 && i < N) {
    atomicAdd(out, any * (i / 32 + 1));
    atomicAdd(out + 1, all * (i / 32 + 1));
  }
}

// A scan whose shuffle width comes from the host (cuda-samples shfl_scan): the kernel's lane and
// warp ids use warpSize, the host sizes the warp sums with blockDim / 32 and passes the width 32.
__global__ void scan_warps(const int* in, int* out, int width) {
  extern __shared__ int sums[];
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = id % warpSize;
  const int warp = threadIdx.x / warpSize;
  int v = in[id];
  for (int d = 1; d <= width; d *= 2) {
    const int n = __shfl_up_sync(FULL, v, d, width);
    if (lane >= d) v += n;
  }
  if (threadIdx.x % warpSize == warpSize - 1) sums[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < (int)(blockDim.x / warpSize); ++w) s = s * 3 + sums[w];
    atomicAdd(out + 1, s % 100000);
  }
  atomicAdd(out, v * (lane + 1) % 1000);
}

int main() {
  int host[N];
  for (int i = 0; i < N; ++i) host[i] = ((i * 7919) % 23) - 9;
  int* in;
  int* out;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, 2 * sizeof(int) + sizeof host);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  int r[2];
  printf("KLdispatch");  // both block sizes on one line: K = 32 alone is right unfixed too
  const int ks[] = {32, 256};
  for (const int k : ks) {
    cudaMemset(out, 0, 2 * sizeof(int));
    switch (k) {
      case 32: LAUNCH_ROW_MAX(32); break;
      case 256: LAUNCH_ROW_MAX(256); break;
    }
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf(" %d %d", r[0], r[1]);
  }
  printf("\n");
  cudaMemset(out, 0, 2 * sizeof(int));
  count_hits<<<N / 256, 256>>>(in, out);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("KLballot %d %d\n", r[0], r[1]);
  transpose<<<1, dim3(WARP_SIZE, WARP_SIZE)>>>(in, out + 2);

  cudaMemset(out, 0, 2 * sizeof(int));
  votes<<<(N + 95) / 96, 96>>>(in, out);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("KLvote %d %d\n", r[0], r[1]);

  cudaMemset(out, 0, 2 * sizeof(int));
  const int block = 256;
  scan_warps<<<N / block, block, sizeof(int) * block / 32>>>(in, out, 32);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("KLscan %d %d\n", r[0], r[1]);
  return 0;
}

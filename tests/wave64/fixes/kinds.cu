// One kernel per lane-math hazard kind the wave64 fixer rewrites. Each is written the way CUDA
// code is, warp-size-generic except for the one 32-lane assumption it is named after, so on a
// 64-lane wavefront exactly that assumption breaks it. tests/e2e/test_wave64_fixes.sh runs this
// program on the wave64 CPU runtime three times: as CUDA with 32-lane warps (the reference), and
// migrated to HIP without and with the fixes, with 64-lane wavefronts; each "K<code>" line must
// differ from the reference without the fixes and match it with them.
#include <cstdio>
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define N 1024
#define THREADS 256

// FRY2201: the lane id of a 32-lane warp, with a reduction over the whole warp.
__global__ void k2201(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  const int lane = threadIdx.x & 31;
  if (lane == 0) atomicAdd(out, v);  // one partial per warp
}

// FRY2202: the warp index of a 32-lane warp, slots read back by warp count.
__global__ void k2202(const int* in, int* out) {
  __shared__ int partial[32];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x >> 5;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < (int)(blockDim.x / warpSize); ++w) s += partial[w];
    atomicAdd(out, s);
  }
}

// FRY2203: a lane bit in 32 bits, packing the positive values of each warp to its front
// (a warp-level stream compaction); the packed values are summed and counted.
__global__ void k2203(const int* in, int* out) {
  __shared__ int packed[THREADS];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  const int first = threadIdx.x - lane;
  packed[threadIdx.x] = 0;
  __syncthreads();
  const bool hit = in[i] > 0;
  const unsigned long long ballot = __ballot_sync(0xffffffff, hit);
  const unsigned long long below = ballot & ((1u << lane) - 1);
  if (hit) packed[first + __popcll(below)] = in[i];
  __syncthreads();
  if (lane < __popcll(ballot)) {
    atomicAdd(out, packed[first + lane]);
    atomicAdd(out + 1, 1);
  }
}

// FRY2204: a warp-width constant mixed with warpSize.
__global__ void k2204(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  if (threadIdx.x % WARP_SIZE == 0) atomicAdd(out, v);
}

// FRY2205: a butterfly from 16, looped and unrolled.
__global__ void k2205(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  int m = blockIdx.x * blockDim.x + threadIdx.x;  // the maximum is in the last lane
  m = max(m, __shfl_down_sync(0xffffffff, m, 16));
  m = max(m, __shfl_down_sync(0xffffffff, m, 8));
  m = max(m, __shfl_down_sync(0xffffffff, m, 4));
  m = max(m, __shfl_down_sync(0xffffffff, m, 2));
  m = max(m, __shfl_down_sync(0xffffffff, m, 1));
  if (threadIdx.x % warpSize == 0) {
    atomicAdd(out, v);
    atomicMax(out + 1, m);
  }
}

// FRY2205 under width guards, as in the classic unrolled reductions: a butterfly for a group of
// W lanes (a template argument); the whole block's width here, and a group of 8 beside it.
template <unsigned W>
__device__ __forceinline__ int group_sum(int v) {
  if (W >= 32) v += __shfl_down_sync(0xffffffff, v, 16);
  if (W >= 16) v += __shfl_down_sync(0xffffffff, v, 8);
  if (W >= 8) v += __shfl_down_sync(0xffffffff, v, 4);
  if (W >= 4) v += __shfl_down_sync(0xffffffff, v, 2);
  if (W >= 2) v += __shfl_down_sync(0xffffffff, v, 1);
  return v;
}
__global__ void k2205g(const int* in, int* out) {
  const int x = in[blockIdx.x * blockDim.x + threadIdx.x];
  const int v = group_sum<THREADS>(x);
  const int g = group_sum<8>(x * (int)(threadIdx.x % 8));
  if (threadIdx.x % warpSize == 0) atomicAdd(out, v);
  if (threadIdx.x % 8 == 0) atomicAdd(out + 1, g);
}

// FRY2204 through a template parameter's default: `template <int kWarpSize = WARP_SIZE>`.
template <int kWarpSize = WARP_SIZE>
__device__ __forceinline__ int warp_sum(int v) {
  for (int m = kWarpSize >> 1; m >= 1; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
  return v;
}
__global__ void k2204t(const int* in, int* out) {
  const int v = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x % warpSize == 0) atomicAdd(out, v);
}

// FRY2207 / FRY2208: a ballot kept in 32 bits and counted with __popc.
__global__ void k2207(const int* in, int* out) {
  const bool hit = in[blockIdx.x * blockDim.x + threadIdx.x] > 0;
  const unsigned ballot = __ballot_sync(0xffffffff, hit);
  if (threadIdx.x % warpSize == 0) atomicAdd(out, __popc(ballot));
}

// FRY2209: one slot per lane and warp, sized for 32 lanes (a lane rotation through shared
// memory); on 64 lanes the rows of neighbouring warps overlap.
__global__ void k2209(const int* in, int* out) {
  __shared__ int slot[THREADS / 32][32];
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  slot[warp][lane] = in[i] * N + i;  // distinct, so a lost or doubled value shows in the sum
  __syncthreads();
  atomicAdd(out, slot[warp][(lane + 1) % warpSize]);
}

// FRY2205, rows of 32: blocks of 32 x 4 threads, one warp per row (the sgemv pattern). A 64-lane
// wavefront holds two rows; the reduction from 16 and the broadcast from the row's lane 0 must stay
// in their row (the fix gives every shuffle the width 32; the 32s stay).
__global__ void krow(const int* in, int* out) {
  const int row = blockIdx.x * blockDim.y + threadIdx.y;
  int v = in[row * 32 + threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  v = __shfl_sync(0xffffffff, v, 0);  // every lane gets its row's sum
  if (threadIdx.x == 31) atomicAdd(out, v * (row % 5 + 1));
  if (threadIdx.x == 0) atomicAdd(out + 1, 1);
}

int main() {
  int host[N];
  for (int i = 0; i < N; ++i) host[i] = ((i * 7919) % 23) - 9;
  int* in;
  int* out;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, 2 * sizeof(int));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  struct Case {
    const char* name;
    void (*kernel)(const int*, int*);
  };
  const Case cases[] = {{"K2201", k2201}, {"K2202", k2202}, {"K2203", k2203}, {"K2204", k2204},
                        {"K2205", k2205}, {"K2205g", k2205g}, {"K2204t", k2204t},
                        {"K2207", k2207}, {"K2209", k2209}};
  for (const Case& c : cases) {
    cudaMemset(out, 0, 2 * sizeof(int));
    c.kernel<<<N / THREADS, THREADS>>>(in, out);
    int r[2];
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("%s %d %d\n", c.name, r[0], r[1]);
  }
  {
    cudaMemset(out, 0, 2 * sizeof(int));
    const dim3 rows(32, 4);
    krow<<<N / 128, rows>>>(in, out);
    int r[2];
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("K2205r %d %d\n", r[0], r[1]);
  }
  return 0;
}

// Kernels in region form whose locals are kept in registers within a region (rg::Own) and whose
// accumulation loops run in chunks of iterations over the lanes (src/wave64/region_chunk.cpp),
// each checked against the same computation on the host. CTest runs it with the region form
// (default) and with W64_REGIONS=0 (fibers only): both must print "chunks: all ok".
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#define CHECK(cond, what)                                 \
  do {                                                    \
    if (!(cond)) {                                        \
      std::printf("FAIL %s (line %d)\n", what, __LINE__); \
      ++failures;                                         \
    }                                                     \
  } while (0)
static int failures = 0;

// cuda-samples scan's shape: a uint4 changed a component at a time, across barriers; one local
// whose address is taken (stays in its per-lane array).
__global__ void vec_scan(uint4* dst, const uint4* src) {
  __shared__ unsigned s[256];
  const unsigned pos = blockIdx.x * blockDim.x + threadIdx.x;
  uint4 v = src[pos];
  v.y += v.x;
  v.z += v.y;
  v.w += v.z;
  unsigned p = 2 * threadIdx.x - (threadIdx.x & (blockDim.x - 1));
  unsigned* pp = &p;
  s[p] = 0;
  p += blockDim.x;
  s[*pp] = v.w;
  for (unsigned offset = 1; offset < blockDim.x; offset <<= 1) {
    __syncthreads();
    unsigned t = s[p] + s[p - offset];
    __syncthreads();
    s[*pp] = t;
  }
  const unsigned excl = s[p] - v.w;
  v.x += excl;
  v.y += excl;
  v.z += excl;
  v.w += excl;
  dst[pos] = v;
}

// Accumulation loops of several shapes between warp operations: a trip count that is not a
// multiple of the chunk (a parameter), a step of 3, no iteration at all, an inner loop and an
// if in the body, a local of the body, an integer count, a max, two accumulators.
__global__ void accumulate(const float* in, float* out, int n, int none) {
  float sum = 0, sq = 0, big = -1e30f;
  int count = 0;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; ++k) {
    const float x = in[(i + k * 7) % 4096];
    sum += x;
    if (x > 0) ++count;
    big = fmaxf(big, x);
  }
  for (int k = 1; k < 3 * n; k += 3) {
    float part = 0;
    for (int j = 0; j < 2; ++j) part += in[(i * 3 + k + j) % 4096];
    sq += part * part;
  }
  for (int k = 0; k < none; ++k) sum += 1000.f;
  sum += __shfl_xor_sync(0xffffffffu, sum, 1);
  out[i * 4 + 0] = sum;
  out[i * 4 + 1] = sq;
  out[i * 4 + 2] = (float)count;
  out[i * 4 + 3] = big;
}

int main() {
  {
    const int threads = 128, blocks = 3, n = threads * blocks;
    std::vector<uint4> hs(n), hd(n);
    for (int i = 0; i < n; ++i) hs[i] = make_uint4(i % 7, i % 5, i % 3, i % 11);
    uint4 *ds, *dd;
    cudaMalloc(&ds, n * sizeof(uint4));
    cudaMalloc(&dd, n * sizeof(uint4));
    cudaMemcpy(ds, hs.data(), n * sizeof(uint4), cudaMemcpyHostToDevice);
    vec_scan<<<blocks, threads>>>(dd, ds);
    cudaMemcpy(hd.data(), dd, n * sizeof(uint4), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; ++b) {
      unsigned run = 0;
      for (int i = b * threads; i < (b + 1) * threads; ++i) {
        const uint4 v = hs[i];
        CHECK(hd[i].x == run + v.x && hd[i].y == run + v.x + v.y && hd[i].z == run + v.x + v.y + v.z &&
                  hd[i].w == run + v.x + v.y + v.z + v.w,
              "vec_scan");
        run += v.x + v.y + v.z + v.w;
      }
    }
  }
  {
    std::vector<float> hin(4096);
    for (int i = 0; i < 4096; ++i) hin[i] = (float)(i % 13) - 6.f;
    float *din, *dout;
    cudaMalloc(&din, hin.size() * sizeof(float));
    cudaMalloc(&dout, 4 * 256 * sizeof(float));
    cudaMemcpy(din, hin.data(), hin.size() * sizeof(float), cudaMemcpyHostToDevice);
    // 19 iterations (two chunks and 3), blocks of 64 and of one lane
    const int shapes[][2] = {{4, 64}, {1, 1}, {2, 96}};
    for (const auto& sh : shapes) {
      const int blocks = sh[0], threads = sh[1], lanes = blocks * threads, n = 19;
      accumulate<<<blocks, threads>>>(din, dout, n, 0);
      std::vector<float> h(4 * lanes);
      cudaMemcpy(h.data(), dout, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
      std::vector<float> sums(lanes);
      for (int i = 0; i < lanes; ++i) {
        float sum = 0, sq = 0, big = -1e30f;
        int count = 0;
        for (int k = 0; k < n; ++k) {
          const float x = hin[(i + k * 7) % 4096];
          sum += x;
          if (x > 0) ++count;
          big = x > big ? x : big;
        }
        for (int k = 1; k < 3 * n; k += 3) {
          float part = 0;
          for (int j = 0; j < 2; ++j) part += hin[(i * 3 + k + j) % 4096];
          sq += part * part;
        }
        sums[i] = sum;
        CHECK(h[i * 4 + 1] == sq, "accumulate: step 3 with an inner loop");
        CHECK(h[i * 4 + 2] == (float)count, "accumulate: count");
        CHECK(h[i * 4 + 3] == big, "accumulate: max");
      }
      for (int i = 0; i < lanes; ++i) {
        // the xor shuffle's partner lane; in a one-lane block there is none: the lane's own value (CUDA)
        const float e = sums[i] + (threads > 1 ? sums[i ^ 1] : sums[i]);
        CHECK(h[i * 4 + 0] == e, "accumulate: sum");
      }
    }
  }
  if (failures == 0) std::printf("chunks: all ok\n");
  return failures == 0 ? 0 : 1;
}

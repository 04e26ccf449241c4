// Kernels of the shapes the region pass splits (src/wave64/regions.cpp) and of shapes it must
// leave on the fiber path, each checked against the same computation on the host. CTest runs it
// with the region form (default) and with W64_REGIONS=0 (fibers only): both must print "all ok".
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(cond, what)                                 \
  do {                                                    \
    if (!(cond)) {                                        \
      std::printf("FAIL %s (line %d)\n", what, __LINE__); \
      ++failures;                                         \
    }                                                     \
  } while (0)
static int failures = 0;

// A barrier in a loop with a lane-uniform header (split).
__global__ void tree_reduce(const float* x, float* out, int n) {
  __shared__ float s[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.f;
  __syncthreads();
  for (unsigned o = blockDim.x / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

// Shuffles at statement level, a local live across them, a warp's partial sums through shared
// memory, and a return after the last barrier (split; the last region runs as a lambda).
__global__ void warp_sums(const float* x, float* out, int n) {
  __shared__ float part[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  const int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
  if (lane == 0) part[wid] = v;
  __syncthreads();
  if (threadIdx.x >= blockDim.x / 32) return;
  float w = part[threadIdx.x];
  for (int k = 0; k < (int)(blockDim.x / 32); ++k)
    if (k != (int)threadIdx.x) w += 0.f * part[k];
  out[blockIdx.x * 32 + threadIdx.x] = w;
}

// A butterfly with the result declared from the shuffle, votes, and a local array that lives
// across a barrier (split).
__global__ void votes_and_arrays(const int* in, int* out) {
  int mine[3];
  const int t = threadIdx.x;
  mine[0] = in[blockIdx.x * blockDim.x + t];
  mine[1] = mine[0] * 2;
  mine[2] = -mine[0];
  unsigned b = __ballot_sync(0xffffffffu, mine[0] % 3 == 0);
  int any = __any_sync(0xffffffffu, mine[0] > 90);
  int all = __all_sync(0xffffffffu, mine[0] >= 0);
  __syncthreads();
  int x = __shfl_xor_sync(0xffffffffu, mine[1], 1);
  int y = __shfl_sync(0xffffffffu, mine[2], 0);
  int z = __shfl_up_sync(0xffffffffu, mine[0], 3);
  out[(blockIdx.x * blockDim.x + t) * 6 + 0] = (int)__popc(b);
  out[(blockIdx.x * blockDim.x + t) * 6 + 1] = any;
  out[(blockIdx.x * blockDim.x + t) * 6 + 2] = all;
  out[(blockIdx.x * blockDim.x + t) * 6 + 3] = x;
  out[(blockIdx.x * blockDim.x + t) * 6 + 4] = y;
  out[(blockIdx.x * blockDim.x + t) * 6 + 5] = z;
}

// A 2-D block and a tiled product: two barriers per tile in a loop (split).
constexpr int kT = 8;
__global__ void tiled(const float* a, const float* b, float* c, int m) {
  __shared__ float ta[kT][kT];
  __shared__ float tb[kT][kT];
  const int row = blockIdx.y * kT + threadIdx.y, col = blockIdx.x * kT + threadIdx.x;
  float acc = 0.f;
  for (int t = 0; t < m / kT; ++t) {
    ta[threadIdx.y][threadIdx.x] = a[row * m + t * kT + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(t * kT + threadIdx.y) * m + col];
    __syncthreads();
    for (int k = 0; k < kT; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * m + col] = acc;
}

// An if whose condition is a template parameter (lane-uniform) around a barrier (split).
template <int kBlock>
__global__ void unrolled(const float* x, float* out) {
  __shared__ float s[128];
  const unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * kBlock + t];
  __syncthreads();
  if (kBlock >= 128) {
    if (t < 64) s[t] += s[t + 64];
    __syncthreads();
  }
  if (t < 32) {
    float v = s[t] + s[t + 32];
    s[t] = v;
  }
  __syncthreads();
  if (t == 0) {
    float acc = 0.f;
    for (int k = 0; k < 32; ++k) acc += s[k];
    out[blockIdx.x] = acc;
  }
}

// A partial last warp (48 lanes): shuffles that read beyond the block (split).
__global__ void partial_warp(int* out) {
  int v = threadIdx.x * 10;
  int d = __shfl_down_sync(0xffffffffu, v, 8);
  out[threadIdx.x] = d;
}

// Kept on fibers: an early return before a barrier.
__global__ void early_return(const float* x, float* out, int n) {
  __shared__ float s[64];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = x[i];
  __syncthreads();
  out[i] = s[(threadIdx.x + 1) % blockDim.x];
}

// Kept on fibers: a shuffle under a lane-dependent condition.
__global__ void divergent(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x < 16) v = __shfl_xor_sync(0xffffu, v, 1);
  out[threadIdx.x] = v;
}

// Kept on fibers: a barrier inside a device function.
__device__ float block_sum(float v, float* s) {
  s[threadIdx.x] = v;
  __syncthreads();
  float acc = 0.f;
  for (unsigned k = 0; k < blockDim.x; ++k) acc += s[k];
  __syncthreads();
  return acc;
}
__global__ void through_function(const float* x, float* out) {
  __shared__ float s[64];
  float v = block_sum(x[threadIdx.x], s);
  out[threadIdx.x] = v;
}

// A block scan through a function with cooperative groups' barriers in a loop, called inside an
// expression (split: the function is inlined, its result goes through a temporary).
namespace cg = cooperative_groups;
__device__ unsigned scan_step(unsigned v, volatile unsigned* s, cg::thread_block b) {
  s[threadIdx.x] = v;
  for (unsigned o = 1; o < blockDim.x; o <<= 1) {
    cg::sync(b);
    unsigned t = threadIdx.x >= o ? s[threadIdx.x - o] : 0u;
    b.sync();
    s[threadIdx.x] += t;
  }
  cg::sync(b);
  return s[threadIdx.x];
}
__global__ void cg_scan(const unsigned* in, unsigned* out) {
  cg::thread_block b = cg::this_thread_block();
  __shared__ unsigned s[128];
  unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = scan_step(v, s, b) - v + 0u * b.thread_rank();
}

// Split: a parameter moved by a value every lane computes alike runs once for the block, between
// regions (a block step).
__global__ void changes_param(const float* x, float* out, int n) {
  __shared__ float s[64];
  x += blockIdx.x * blockDim.x;
  s[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x] + n * 0;
}

// Kept on fibers: a parameter moved by a value that differs between lanes.
__global__ void param_per_lane(const float* x, float* out) {
  __shared__ float s[64];
  x += threadIdx.x;
  s[threadIdx.x] = x[0];
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}

// Split: warp matrix fragments live across barriers and mma_sync is one step per warp (each warp
// of the block computes one 16 x 16 tile of c = a * b); a `break` under a condition every lane
// computes alike leaves the split loop for the whole block; a parameter moved once per block.
__global__ void wmma_tiles(const half* a, const half* b, float* c, int ksteps) {
  __shared__ half sa[16 * 16];
  c += blockIdx.x * 16 * 32;
  const int warp = threadIdx.x / 32;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
  nvcuda::wmma::fill_fragment(acc, 0.0f);
  for (int kt = 0;; ++kt) {
    if (kt >= ksteps) break;
    for (int e = threadIdx.x; e < 256; e += blockDim.x) sa[e] = a[(e / 16) * (16 * ksteps) + kt * 16 + e % 16];
    __syncthreads();
    nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> fa;
    nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half, nvcuda::wmma::row_major> fb;
    nvcuda::wmma::load_matrix_sync(fa, sa, 16);
    nvcuda::wmma::load_matrix_sync(fb, b + kt * 16 * 32 + warp * 16, 32);
    nvcuda::wmma::mma_sync(acc, fa, fb, acc);
    __syncthreads();
  }
  nvcuda::wmma::store_matrix_sync(c + warp * 16, acc, 32, nvcuda::wmma::mem_row_major);
}

int main() {
  const int n = 1000, threads = 256, blocks = (n + threads - 1) / threads;
  std::vector<float> hx(blocks * threads);
  for (size_t i = 0; i < hx.size(); ++i) hx[i] = (int)(i % 17) - 8 + 0.25f;
  float *x, *out;
  cudaMalloc(&x, hx.size() * sizeof(float));
  cudaMalloc(&out, 64 * 1024 * sizeof(float));
  cudaMemcpy(x, hx.data(), hx.size() * sizeof(float), cudaMemcpyHostToDevice);
  std::vector<float> r(64 * 1024);

  tree_reduce<<<blocks, threads>>>(x, out, n);
  cudaMemcpy(r.data(), out, blocks * sizeof(float), cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) {
    float e = 0;
    for (int i = b * threads; i < (b + 1) * threads && i < n; ++i) e += hx[i];
    CHECK(std::abs(r[b] - e) < 1e-3f, "tree_reduce");
  }

  warp_sums<<<blocks, threads>>>(x, out, n);
  cudaMemcpy(r.data(), out, blocks * 32 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b)
    for (int w = 0; w < threads / 32; ++w) {
      float e = 0;
      for (int i = b * threads + w * 32; i < b * threads + w * 32 + 32 && i < n; ++i) e += hx[i];
      CHECK(std::abs(r[b * 32 + w] - e) < 1e-3f, "warp_sums");
    }

  {
    const int nb = 2, nt = 64;
    std::vector<int> hin(nb * nt), hout(nb * nt * 6);
    for (int i = 0; i < nb * nt; ++i) hin[i] = (i * 7) % 101;
    int *din, *dout;
    cudaMalloc(&din, hin.size() * sizeof(int));
    cudaMalloc(&dout, hout.size() * sizeof(int));
    cudaMemcpy(din, hin.data(), hin.size() * sizeof(int), cudaMemcpyHostToDevice);
    votes_and_arrays<<<nb, nt>>>(din, dout);
    cudaMemcpy(hout.data(), dout, hout.size() * sizeof(int), cudaMemcpyDeviceToHost);
    for (int g = 0; g < nb * nt; ++g) {
      const int w0 = g / 32 * 32, l = g % 32;
      int pop = 0, any = 0, all = 1;
      for (int k = 0; k < 32; ++k) {
        pop += hin[w0 + k] % 3 == 0;
        any |= hin[w0 + k] > 90;
        all &= hin[w0 + k] >= 0;
      }
      CHECK(hout[g * 6 + 0] == pop, "ballot");
      CHECK(hout[g * 6 + 1] == any, "any");
      CHECK(hout[g * 6 + 2] == all, "all");
      CHECK(hout[g * 6 + 3] == hin[w0 + (l ^ 1)] * 2, "shfl_xor");
      CHECK(hout[g * 6 + 4] == -hin[w0], "shfl");
      CHECK(hout[g * 6 + 5] == (l >= 3 ? hin[g - 3] : hin[g]), "shfl_up");
    }
  }

  {
    const int m = 32;
    std::vector<float> ha(m * m), hb(m * m), hc(m * m);
    for (int i = 0; i < m * m; ++i) ha[i] = (i % 5) * 0.5f, hb[i] = (i % 3) - 1.f;
    float *a, *b, *c;
    cudaMalloc(&a, m * m * sizeof(float));
    cudaMalloc(&b, m * m * sizeof(float));
    cudaMalloc(&c, m * m * sizeof(float));
    cudaMemcpy(a, ha.data(), m * m * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb.data(), m * m * sizeof(float), cudaMemcpyHostToDevice);
    tiled<<<dim3(m / kT, m / kT), dim3(kT, kT)>>>(a, b, c, m);
    cudaMemcpy(hc.data(), c, m * m * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) {
        float e = 0;
        for (int k = 0; k < m; ++k) e += ha[i * m + k] * hb[k * m + j];
        CHECK(std::abs(hc[i * m + j] - e) < 1e-3f, "tiled");
      }
  }

  unrolled<128><<<4, 128>>>(x, out);
  cudaMemcpy(r.data(), out, 4 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 4; ++b) {
    float e = 0;
    for (int i = 0; i < 128; ++i) e += hx[b * 128 + i];
    CHECK(std::abs(r[b] - e) < 1e-3f, "unrolled");
  }

  {
    int* d;
    cudaMalloc(&d, 48 * sizeof(int));
    partial_warp<<<1, 48>>>(d);
    std::vector<int> h(48);
    cudaMemcpy(h.data(), d, 48 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 48; ++t) {
      const int w0 = t / 32 * 32, l = t % 32, size = t < 32 ? 32 : 16;
      // beyond the warp's width: own value; beyond the block (inactive): own value (CUDA)
      const int e = l + 8 < 32 && l + 8 < size ? (w0 + l + 8) * 10 : t * 10;
      CHECK(h[t] == e, "partial_warp");
    }
  }

  early_return<<<2, 64>>>(x, out, 100);
  cudaMemcpy(r.data(), out, 100 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; ++i) CHECK(r[i] == hx[(i + 1) % 64], "early_return");

  {
    int* d;
    cudaMalloc(&d, 32 * sizeof(int));
    divergent<<<1, 32>>>(d);
    std::vector<int> h(32);
    cudaMemcpy(h.data(), d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 32; ++t) CHECK(h[t] == (t < 16 ? (t ^ 1) : t), "divergent");
  }

  through_function<<<1, 64>>>(x, out);
  cudaMemcpy(r.data(), out, 64 * sizeof(float), cudaMemcpyDeviceToHost);
  {
    float e = 0;
    for (int i = 0; i < 64; ++i) e += hx[i];
    for (int i = 0; i < 64; ++i) CHECK(std::abs(r[i] - e) < 1e-3f, "through_function");
  }

  {
    std::vector<unsigned> hin(256), hout(256);
    for (int i = 0; i < 256; ++i) hin[i] = (i * 13) % 7;
    unsigned *din, *dout;
    cudaMalloc(&din, 256 * sizeof(unsigned));
    cudaMalloc(&dout, 256 * sizeof(unsigned));
    cudaMemcpy(din, hin.data(), 256 * sizeof(unsigned), cudaMemcpyHostToDevice);
    cg_scan<<<2, 128>>>(din, dout);
    cudaMemcpy(hout.data(), dout, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    for (int b = 0; b < 2; ++b) {
      unsigned acc = 0;
      for (int t = 0; t < 128; ++t) {
        CHECK(hout[b * 128 + t] == acc, "cg_scan");
        acc += hin[b * 128 + t];
      }
    }
  }

  changes_param<<<2, 64>>>(x, out, 0);
  cudaMemcpy(r.data(), out, 128 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 128; ++i) CHECK(r[i] == hx[i / 64 * 64 + 63 - i % 64], "changes_param");

  param_per_lane<<<1, 64>>>(x, out);
  cudaMemcpy(r.data(), out, 64 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; ++i) CHECK(r[i] == hx[63 - i], "param_per_lane");

  {
    // a: 16 x 48, b: 48 x 32 (row-major), c: 16 x 32, small integers (exact in half and float)
    const int ksteps = 3, kk = 16 * ksteps;
    std::vector<half> ha(16 * kk), hb(kk * 32);
    std::vector<float> fa(16 * kk), fb(kk * 32);
    for (int i = 0; i < 16 * kk; ++i) ha[i] = __float2half(fa[i] = (float)(i % 7 - 3));
    for (int i = 0; i < kk * 32; ++i) hb[i] = __float2half(fb[i] = (float)(i % 5 - 2));
    half *da, *db;
    cudaMalloc(&da, ha.size() * sizeof(half));
    cudaMalloc(&db, hb.size() * sizeof(half));
    cudaMemcpy(da, ha.data(), ha.size() * sizeof(half), cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb.data(), hb.size() * sizeof(half), cudaMemcpyHostToDevice);
    wmma_tiles<<<2, 64>>>(da, db, out, ksteps);
    cudaMemcpy(r.data(), out, 2 * 16 * 32 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int blk = 0; blk < 2; ++blk)
      for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 32; ++j) {
          float e = 0;
          for (int k = 0; k < kk; ++k) e += fa[i * kk + k] * fb[k * 32 + j];
          CHECK(r[blk * 512 + i * 32 + j] == e, "wmma_tiles");
        }
    cudaFree(da);
    cudaFree(db);
  }

  if (failures == 0) std::printf("regions: all ok\n");
  return failures == 0 ? 0 : 1;
}

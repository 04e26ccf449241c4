// The wave64 runtime's own test of the CUDA API (the reference side of `diffrun --wave64`): the
// _sync warp intrinsics at 32 lanes with CUDA's shuffle rules, 32-bit ballots, __syncwarp,
// __match_any_sync, __reduce_*_sync, __constant__ memory, the dynamic shared memory opt-in.
#include <cuda_fp16.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

#include "check.h"

__constant__ int c_table[8];

struct Case {
  int kind;
  int arg;
  int width;
};

__global__ void shuffle_kernel(const Case* cases, int n, int* out) {
  const int t = threadIdx.x;
  const int v = t * 3 + 2;
  for (int c = 0; c < n; ++c) {
    int r;
    switch (cases[c].kind) {
      case 0: r = __shfl_sync(0xffffffffu, v, cases[c].arg, cases[c].width); break;
      case 1: r = __shfl_up_sync(0xffffffffu, v, cases[c].arg, cases[c].width); break;
      case 2: r = __shfl_down_sync(0xffffffffu, v, cases[c].arg, cases[c].width); break;
      default: r = __shfl_xor_sync(0xffffffffu, v, cases[c].arg, cases[c].width); break;
    }
    out[c * blockDim.x + t] = r;
  }
}

// CUDA's rules (programming guide, warp shuffle functions): srcLane is taken modulo width
// within the caller's segment; up/down/xor outside the segment return the caller's own value.
int expected(const Case& k, int t) {
  const int lane = t % 32, base = t - lane, w = k.width;
  int src = lane;
  switch (k.kind) {
    case 0: src = (lane / w) * w + (k.arg % w + w) % w; break;
    case 1: src = lane % w >= k.arg ? lane - k.arg : lane; break;
    case 2: src = lane % w + k.arg < w ? lane + k.arg : lane; break;
    default:
      src = lane ^ k.arg;
      if (src / w > lane / w) src = lane;
      break;
  }
  return (base + src) * 3 + 2;
}

__global__ void warp_kernel(unsigned* ballot, unsigned* match, unsigned* sum, int* table, unsigned* active) {
  const int t = threadIdx.x;
  const int lane = t & 31;
  ballot[t] = __ballot_sync(0xffffffffu, lane % 4 == 1);
  match[t] = __match_any_sync(0xffffffffu, lane / 8);
  sum[t] = __reduce_add_sync(0xffffffffu, (unsigned)lane);
  __shared__ int s[64];
  if (lane == 0) s[t / 32] = t;
  __syncwarp();
  table[t] = s[t / 32] + c_table[lane % 8];
  active[t] = 0;
  if (lane < 10) active[t] = __activemask();
}

__global__ void big_smem(float* out) {
  extern __shared__ float smem[];
  smem[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = smem[blockDim.x - 1 - threadIdx.x];
}

int main() {
  std::vector<Case> cases;
  for (int w = 1; w <= 32; w *= 2) {
    for (int a = 0; a < 40; ++a) cases.push_back({0, a, w});
    for (int a = 0; a <= 33; ++a) cases.push_back({1, a, w});
    for (int a = 0; a <= 33; ++a) cases.push_back({2, a, w});
    for (int a = 0; a < 32; ++a) cases.push_back({3, a, w});
  }
  const int B = 256;
  Case* d_cases;
  int* d_out;
  cudaMalloc(&d_cases, cases.size() * sizeof(Case));
  cudaMalloc(&d_out, cases.size() * B * sizeof(int));
  cudaMemcpy(d_cases, cases.data(), cases.size() * sizeof(Case), cudaMemcpyHostToDevice);
  shuffle_kernel<<<1, B>>>(d_cases, (int)cases.size(), d_out);
  std::vector<int> got(cases.size() * B);
  cudaMemcpy(got.data(), d_out, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
  for (std::size_t c = 0; c < cases.size(); ++c)
    for (int t = 0; t < B; ++t)
      CHECK_EQ(got[c * B + t], expected(cases[c], t), "kind %d arg %d width %d t %d", cases[c].kind, cases[c].arg,
               cases[c].width, t);

  const int host_table[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  CHECK_EQ(cudaMemcpyToSymbol(c_table, host_table, sizeof host_table), cudaSuccess, "cudaMemcpyToSymbol");
  unsigned *ballot, *match, *sum, *active;
  int* table;
  cudaMalloc(&ballot, B * 4);
  cudaMalloc(&match, B * 4);
  cudaMalloc(&sum, B * 4);
  cudaMalloc(&active, B * 4);
  cudaMalloc(&table, B * 4);
  warp_kernel<<<1, B>>>(ballot, match, sum, table, active);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess, "sync");
  for (int t = 0; t < B; ++t) {
    const int lane = t & 31;
    CHECK_EQ(ballot[t], 0x22222222u, "__ballot_sync t=%d", t);
    CHECK_EQ(match[t], 0xffu << (lane / 8 * 8), "__match_any_sync t=%d", t);
    CHECK_EQ(sum[t], 496u, "__reduce_add_sync t=%d", t);
    CHECK_EQ(table[t], (t / 32) * 32 + host_table[lane % 8], "__syncwarp + __constant__ t=%d", t);
    CHECK_EQ(active[t], lane < 10 ? 0x3ffu : 0u, "__activemask in a branch t=%d", t);
  }

  float* f;
  cudaMalloc(&f, 1024 * sizeof(float));
  big_smem<<<1, 1024, 100 * 1024>>>(f);
  CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue, "100 KiB of dynamic shared memory without the opt-in");
  CHECK_EQ(cudaFuncSetAttribute(big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024), cudaSuccess,
           "opt-in");
  big_smem<<<1, 1024, 100 * 1024>>>(f);
  CHECK_EQ(cudaGetLastError(), cudaSuccess, "100 KiB with the opt-in");
  CHECK_EQ(f[0], 1023.0f, "dynamic shared memory content");
  int optin = 0;
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  CHECK_EQ(optin, 227 * 1024, "sm_90 opt-in limit");
  CHECK_EQ(cudaProfilerStart(), cudaSuccess, "cudaProfilerStart is a no-op");
  CHECK_EQ(cudaProfilerStop(), cudaSuccess, "cudaProfilerStop is a no-op");

  // half -> float (the branch-free conversion of fp16.h) against its definition, for every bit
  // pattern: zeros, subnormals (m * 2^-24), normals, infinities; NaNs stay NaNs of that sign.
  int half_bad = 0;
  for (unsigned b = 0; b < 65536; ++b) {
    __half_raw r;
    r.x = static_cast<unsigned short>(b);
    const float got = __half2float(__half(r));
    const unsigned e = (b >> 10) & 31u, m = b & 1023u;
    const double sign = (b & 0x8000u) ? -1.0 : 1.0;
    bool ok;
    if (e == 31 && m != 0) ok = std::isnan(got) && std::signbit(got) == ((b & 0x8000u) != 0);
    else {
      const double want = e == 31  ? sign * INFINITY
                          : e == 0 ? sign * std::ldexp(static_cast<double>(m), -24)
                                   : sign * std::ldexp(1.0 + m / 1024.0, static_cast<int>(e) - 15);
      ok = static_cast<double>(got) == want && std::signbit(got) == ((b & 0x8000u) != 0);
    }
    if (!ok && ++half_bad <= 3) std::printf("half bits %04x -> %g\n", b, static_cast<double>(got));
  }
  CHECK_EQ(half_bad, 0, "__half2float of every half");
  return finish("cuda_features (warp 32)");
}

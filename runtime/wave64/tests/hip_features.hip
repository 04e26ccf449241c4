// The wave64 runtime's own test of the HIP API: shuffles at every width and offset, ballots and
// votes (also in diverged code), block barriers, static and dynamic shared memory, atomics across
// blocks, launch forms, fp16/bf16 conversions. Built at wave 64 and at wave 32; every expected
// value is computed on the host from HIP's documented rules, not by the runtime.
#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "check.h"

constexpr int W = warpSize;

// ---- shuffles -------------------------------------------------------------------------------
struct ShflCase {
  int kind;  // 0 idx, 1 up, 2 down, 3 xor
  int arg;
  int width;
};

__global__ void shuffle_kernel(const ShflCase* cases, int n_cases, int* out) {
  const int t = threadIdx.x;
  const int v = t * 7 + 1;
  for (int c = 0; c < n_cases; ++c) {
    const ShflCase k = cases[c];
    int r = 0;
    switch (k.kind) {
      case 0: r = __shfl(v, k.arg, k.width); break;
      case 1: r = __shfl_up(v, (unsigned)k.arg, k.width); break;
      case 2: r = __shfl_down(v, (unsigned)k.arg, k.width); break;
      default: r = __shfl_xor(v, k.arg, k.width); break;
    }
    out[c * blockDim.x + t] = r;
  }
}

// HIP 5.2's rule (amd_warp_functions.h): a source index, taken modulo the wavefront
// (ds_bpermute); a source lane that does not exist reads 0.
int expected_shuffle(const ShflCase& k, int t, int block) {
  const int lane = t % W;
  const int base = t - lane;
  const int wave_lanes = std::min(W, block - base);
  const int w = k.width;
  int index = lane;
  switch (k.kind) {
    case 0: index = k.arg + (lane & ~(w - 1)); break;
    case 1:
      index = lane - k.arg;
      if (index < (lane & ~(w - 1))) index = lane;
      break;
    case 2:
      index = lane + k.arg;
      if ((lane & (w - 1)) + k.arg >= w) index = lane;
      break;
    default:
      index = lane ^ k.arg;
      if (index >= ((lane + w) & ~(w - 1))) index = lane;
      break;
  }
  index &= W - 1;
  return index < wave_lanes ? (base + index) * 7 + 1 : 0;
}

void test_shuffles() {
  std::vector<ShflCase> cases;
  for (int w = 1; w <= W; w *= 2) {
    for (int a = -3; a <= 2 * W + 3; ++a) cases.push_back({0, a, w});
    for (int a = 0; a <= W + 2; ++a) cases.push_back({1, a, w});
    for (int a = 0; a <= W + 2; ++a) cases.push_back({2, a, w});
    for (int a = 0; a < 2 * W; ++a) cases.push_back({3, a, w});
  }
  ShflCase* d_cases;
  hipMalloc(&d_cases, cases.size() * sizeof(ShflCase));
  hipMemcpy(d_cases, cases.data(), cases.size() * sizeof(ShflCase), hipMemcpyHostToDevice);
  for (const int block : {1024, 100, W, 1}) {
    int* d_out;
    const std::size_t n = cases.size() * block;
    hipMalloc(&d_out, n * sizeof(int));
    hipLaunchKernelGGL(shuffle_kernel, dim3(2), dim3(block), 0, 0, d_cases, (int)cases.size(), d_out);
    std::vector<int> got(n);
    hipMemcpy(got.data(), d_out, n * sizeof(int), hipMemcpyDeviceToHost);
    for (std::size_t c = 0; c < cases.size(); ++c)
      for (int t = 0; t < block; ++t)
        CHECK_EQ(got[c * block + t], expected_shuffle(cases[c], t, block), "kind %d arg %d width %d block %d thread %d",
                 cases[c].kind, cases[c].arg, cases[c].width, block, t);
    hipFree(d_out);
  }
  hipFree(d_cases);
}

// Shuffles of other types: the bytes move whole.
__global__ void shuffle_types(double* d, long long* ll, __half* h, float4* f4) {
  const int t = threadIdx.x;
  d[t] = __shfl_down((double)t + 0.25, 1);
  ll[t] = __shfl_xor((long long)t << 40, 3);
  h[t] = __shfl(__float2half((float)t), 5);
  f4[t] = __shfl_up(make_float4(t, t + 1, t + 2, t + 3), 2);
}

void test_shuffle_types() {
  const int B = 128;
  double* d;
  long long* ll;
  __half* h;
  float4* f4;
  hipMalloc(&d, B * sizeof(double));
  hipMalloc(&ll, B * sizeof(long long));
  hipMalloc(&h, B * sizeof(__half));
  hipMalloc(&f4, B * sizeof(float4));
  shuffle_types<<<1, B>>>(d, ll, h, f4);
  for (int t = 0; t < B; ++t) {
    const int lane = t % W, base = t - lane;
    const int down = lane + 1 < W ? t + 1 : t;
    CHECK_EQ(d[t], down + 0.25, "double t=%d", t);
    CHECK_EQ(ll[t], (long long)(base + ((lane ^ 3) & (W - 1))) << 40, "long long t=%d", t);
    CHECK_EQ((int)__half2float(h[t]), base + (5 & (W - 1)), "half t=%d", t);
    const int up = lane >= 2 ? t - 2 : t;
    CHECK_EQ((int)f4[t].w, up + 3, "float4 t=%d", t);
  }
  hipFree(d);
  hipFree(ll);
  hipFree(h);
  hipFree(f4);
}

// ---- votes ------------------------------------------------------------------------------------
__device__ int pred_of(int t) { return ((unsigned)t * 2654435761u >> 7) & 1; }

__global__ void vote_kernel(unsigned long long* ballot, int* any, int* all, unsigned long long* active,
                            unsigned long long* full, int* uniform_all) {
  const int t = threadIdx.x;
  ballot[t] = __ballot(pred_of(t));
  any[t] = __any(t % W == W - 1 && pred_of(t));
  all[t] = __all(pred_of(t) || t % 2 == 0);
  uniform_all[t] = __all(1);
  full[t] = __activemask();
  active[t] = 0;
  if (t % 3 == 0) active[t] = __activemask();  // the lanes that took the branch
}

void test_votes() {
  for (const int B : {256, 100}) {
    unsigned long long *ballot, *active, *full;
    int *any, *all, *uall;
    hipMalloc(&ballot, B * 8);
    hipMalloc(&active, B * 8);
    hipMalloc(&full, B * 8);
    hipMalloc(&any, B * 4);
    hipMalloc(&all, B * 4);
    hipMalloc(&uall, B * 4);
    hipLaunchKernelGGL(vote_kernel, dim3(1), dim3(B), 0, 0, ballot, any, all, active, full, uall);
    for (int t = 0; t < B; ++t) {
      const int base = t - t % W;
      const int n = std::min(W, B - base);
      unsigned long long want_ballot = 0, want_branch = 0;
      int want_any = 0, want_all = 1;
      for (int l = 0; l < n; ++l) {
        if (((unsigned)(base + l) * 2654435761u >> 7) & 1) want_ballot |= 1ull << l;
        if ((base + l) % 3 == 0) want_branch |= 1ull << l;
        want_any |= (l == W - 1) && (((unsigned)(base + l) * 2654435761u >> 7) & 1);
        want_all &= (((unsigned)(base + l) * 2654435761u >> 7) & 1) || (base + l) % 2 == 0;
      }
      const unsigned long long want_full = n == 64 ? ~0ull : (1ull << n) - 1;
      CHECK_EQ(ballot[t], want_ballot, "ballot B=%d t=%d", B, t);
      CHECK_EQ(any[t], want_any, "any B=%d t=%d", B, t);
      CHECK_EQ(all[t], want_all, "all B=%d t=%d", B, t);
      CHECK_EQ(uall[t], 1, "all(1) B=%d t=%d", B, t);
      CHECK_EQ(full[t], want_full, "activemask B=%d t=%d", B, t);
      CHECK_EQ(active[t], t % 3 == 0 ? want_branch : 0ull, "activemask in a branch B=%d t=%d", B, t);
      CHECK_EQ(__popcll(full[t]), n, "popcount B=%d t=%d", B, t);
    }
    hipFree(ballot);
    hipFree(active);
    hipFree(full);
    hipFree(any);
    hipFree(all);
    hipFree(uall);
  }
}

// Lanes that diverge run their shuffles as separate groups and meet again after the branch.
__global__ void diverge_kernel(int* first, int* second) {
  const int lane = __lane_id();
  int v = lane + 100;
  if (lane < 16) v = __shfl_xor(v, 1);
  else v = __shfl_down(v, 2);
  first[threadIdx.x] = v;
  second[threadIdx.x] = __shfl(v, 0);
}

void test_divergence() {
  const int B = W;
  int *first, *second;
  hipMalloc(&first, B * 4);
  hipMalloc(&second, B * 4);
  hipLaunchKernelGGL(diverge_kernel, dim3(1), dim3(B), 0, 0, first, second);
  for (int l = 0; l < B; ++l) {
    int want = 0;
    if (l < 16) want = (l ^ 1) + 100;
    else want = (l + 2 < W) ? l + 2 + 100 : l + 100;  // the source is in the lanes' own group
    CHECK_EQ(first[l], want, "diverged shuffle lane %d", l);
    CHECK_EQ(second[l], 1 + 100, "shuffle after the branch lane %d", l);
  }
  hipFree(first);
  hipFree(second);
}

// ---- barriers and shared memory ---------------------------------------------------------------
__global__ void barrier_kernel(int* out, int* counts) {
  __shared__ int s[1024];
  const int t = threadIdx.x;
  const int n = blockDim.x;
  int acc = 0;
  for (int round = 0; round < 3; ++round) {
    s[t] = t * (round + 1);
    __syncthreads();
    acc += s[(n - 1 - t + round * 37) % n];
    __syncthreads();
  }
  out[blockIdx.x * n + t] = acc;
  const int c = __syncthreads_count(t % 5 == 0);
  const int a = __syncthreads_and(t < 2000);
  const int o = __syncthreads_or(t == n - 3);
  const int z = __syncthreads_or(0);
  if (t == 0) {
    counts[blockIdx.x * 4 + 0] = c;
    counts[blockIdx.x * 4 + 1] = a;
    counts[blockIdx.x * 4 + 2] = o;
    counts[blockIdx.x * 4 + 3] = z;
  }
  // Threads that leave early no longer hold the others at the barrier.
  if (t >= n / 2) return;
  __syncthreads();
  s[t] = -t;
  __syncthreads();
  out[blockIdx.x * n + t] += s[n / 2 - 1 - t] == -(n / 2 - 1 - t) ? 0 : 1000000;
}

void test_barriers() {
  const int B = 1024, G = 3;
  int *out, *counts;
  hipMalloc(&out, G * B * 4);
  hipMalloc(&counts, G * 4 * 4);
  barrier_kernel<<<G, B>>>(out, counts);
  for (int b = 0; b < G; ++b) {
    for (int t = 0; t < B; ++t) {
      int want = 0;
      for (int round = 0; round < 3; ++round) want += ((B - 1 - t + round * 37) % B) * (round + 1);
      CHECK_EQ(out[b * B + t], want, "barrier block %d thread %d", b, t);
    }
    CHECK_EQ(counts[b * 4 + 0], (B + 4) / 5, "__syncthreads_count");
    CHECK_EQ(counts[b * 4 + 1], 1, "__syncthreads_and");
    CHECK_EQ(counts[b * 4 + 2], 1, "__syncthreads_or");
    CHECK_EQ(counts[b * 4 + 3], 0, "__syncthreads_or(0)");
  }
  hipFree(out);
  hipFree(counts);
}

extern __shared__ int file_scope_dyn[];

__global__ void shared_kernel(int* out, int* dyn_out, int* file_dyn_out) {
  __shared__ int block_id;
  extern __shared__ float dyn[];
  const int t = threadIdx.x;
  if (t == 0) block_id = blockIdx.x;
  dyn[t] = blockIdx.x * 1000.0f + t;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = block_id;
  dyn_out[blockIdx.x * blockDim.x + t] = (int)dyn[blockDim.x - 1 - t];
  // The file-scope array names the same dynamic memory.
  file_dyn_out[blockIdx.x * blockDim.x + t] = file_scope_dyn[t] == __float_as_int(dyn[t]);
}

void test_shared() {
  const int B = 64, G = 40;
  int *out, *dyn_out, *fd;
  hipMalloc(&out, G * B * 4);
  hipMalloc(&dyn_out, G * B * 4);
  hipMalloc(&fd, G * B * 4);
  shared_kernel<<<G, B, B * sizeof(float)>>>(out, dyn_out, fd);
  CHECK_EQ(hipGetLastError(), hipSuccess, "launch with dynamic shared memory");
  for (int b = 0; b < G; ++b)
    for (int t = 0; t < B; ++t) {
      CHECK_EQ(out[b * B + t], b, "static __shared__ block %d thread %d", b, t);
      CHECK_EQ(dyn_out[b * B + t], b * 1000 + (B - 1 - t), "dynamic shared block %d thread %d", b, t);
      CHECK_EQ(fd[b * B + t], 1, "file-scope extern __shared__ block %d thread %d", b, t);
    }
  // Above the 64 KiB of LDS: refused, as on gfx906.
  shared_kernel<<<1, B, 65 * 1024>>>(out, dyn_out, fd);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue, "dynamic shared memory above the LDS size");
  hipFree(out);
  hipFree(dyn_out);
  hipFree(fd);
}

// ---- atomics across blocks --------------------------------------------------------------------
__global__ void atomic_kernel(int* counter, float* fsum, unsigned* mx, unsigned* wrap, unsigned* bits,
                              unsigned long long* cas_counter, double* dsum) {
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(counter, 1);
  atomicAdd(fsum, 1.0f);
  atomicAdd(dsum, 0.5);
  atomicMax(mx, id);
  atomicInc(wrap, 99u);
  atomicOr(bits, 1u << (id % 32));
  unsigned long long old = *cas_counter, seen;
  do {
    seen = old;
    old = atomicCAS(cas_counter, seen, seen + 1);
  } while (old != seen);
}

void test_atomics() {
  const int G = 64, B = 256, N = G * B;
  int* counter;
  float* fsum;
  double* dsum;
  unsigned *mx, *wrap, *bits;
  unsigned long long* cas;
  hipMalloc(&counter, 4);
  hipMalloc(&fsum, 4);
  hipMalloc(&dsum, 8);
  hipMalloc(&mx, 4);
  hipMalloc(&wrap, 4);
  hipMalloc(&bits, 4);
  hipMalloc(&cas, 8);
  hipMemset(counter, 0, 4);
  hipMemset(fsum, 0, 4);
  hipMemset(dsum, 0, 8);
  hipMemset(mx, 0, 4);
  hipMemset(wrap, 0, 4);
  hipMemset(bits, 0, 4);
  hipMemset(cas, 0, 8);
  hipLaunchKernelGGL(atomic_kernel, dim3(G), dim3(B), 0, 0, counter, fsum, mx, wrap, bits, cas, dsum);
  hipDeviceSynchronize();
  CHECK_EQ(*counter, N, "atomicAdd int");
  CHECK_EQ(*fsum, (float)N, "atomicAdd float");
  CHECK_EQ(*dsum, N * 0.5, "atomicAdd double");
  CHECK_EQ(*mx, (unsigned)N - 1, "atomicMax");
  CHECK_EQ(*wrap, (unsigned)(N % 100), "atomicInc wraps");
  CHECK_EQ(*bits, 0xffffffffu, "atomicOr");
  CHECK_EQ(*cas, (unsigned long long)N, "atomicCAS loop");
}

// ---- launches ---------------------------------------------------------------------------------
template <typename T, int N>
__global__ void fill_kernel(T* out, T value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) out[i] = value + (T)i;
}

__global__ void index_kernel(int* out) {
  const int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const int tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const int nthreads = blockDim.x * blockDim.y * blockDim.z;
  out[bx * nthreads + tx] = bx * 10000 + tx;
}

// A kernel with default arguments, launched with fewer arguments (shfl_scan of the CUDA samples).
__global__ void default_args_kernel(int* out, int scale = 3, const int* offsets = nullptr) {
  const int i = threadIdx.x;
  out[i] = i * scale + (offsets ? offsets[i] : 0);
}

// A braced list for a parameter of a class type at a launch (rocm-examples' convolution passes
// its uint2 size so), with the bit-field builtins of HIP (its bit_extract).
template <unsigned Width>
__global__ void braced_arg_kernel(unsigned* out, uint2 size, unsigned bits) {
  const unsigned i = threadIdx.x;
  out[i] = size.x * Width + size.y + __bitextract_u32(bits, 4 * (i % 8), 4) +
           static_cast<unsigned>(__bitextract_u64(0xf0ull << 32, 36, 4)) + __bitinsert_u32(0u, 5u, 8, 4);
}

void test_launches() {
  float* f;
  hipMalloc(&f, 100 * sizeof(float));
  hipStream_t s;
  hipStreamCreate(&s);
  fill_kernel<float, 100><<<4, 32, 0, s>>>(f, 0.5f);
  hipStreamSynchronize(s);
  for (int i = 0; i < 100; ++i) CHECK_EQ(f[i], 0.5f + i, "templated <<<>>> launch i=%d", i);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(fill_kernel<float, 100>), dim3(1), dim3(128), 0, s, f, 2.0f);
  for (int i = 0; i < 100; ++i) CHECK_EQ(f[i], 2.0f + i, "hipLaunchKernelGGL templated i=%d", i);
  hipStreamDestroy(s);

  const dim3 grid(3, 2, 2), block(4, 3, 2);
  int* idx;
  hipMalloc(&idx, 12 * 24 * sizeof(int));
  index_kernel<<<grid, block>>>(idx);
  for (int b = 0; b < 12; ++b)
    for (int t = 0; t < 24; ++t) CHECK_EQ(idx[b * 24 + t], b * 10000 + t, "3-D indexes block %d thread %d", b, t);

  index_kernel<<<1, 2048>>>(idx);  // more than 1024 threads
  CHECK_EQ(hipGetLastError(), hipErrorInvalidConfiguration, "block of 2048 threads");
  CHECK_EQ(hipGetLastError(), hipSuccess, "the error was read");
  index_kernel<<<dim3(0), 64>>>(idx);
  CHECK_EQ(hipPeekAtLastError(), hipErrorInvalidConfiguration, "empty grid");
  (void)hipGetLastError();

  hipDeviceProp_t p;
  hipGetDeviceProperties(&p, 0);
  CHECK_EQ(p.warpSize, W, "hipDeviceProp_t::warpSize");
  int ws = 0;
  hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, 0);
  CHECK_EQ(ws, W, "hipDeviceAttributeWarpSize");
  int smem = 0;  // the "Cuda only" attribute a port of cudaDeviceProp::sharedMemPerMultiprocessor reads
  hipDeviceGetAttribute(&smem, hipDeviceAttributeSharedMemPerMultiprocessor, 0);
  CHECK_EQ(smem, static_cast<int>(p.sharedMemPerMultiprocessor), "hipDeviceAttributeSharedMemPerMultiprocessor");

  default_args_kernel<<<1, 64>>>(idx);
  for (int t = 0; t < 64; ++t) CHECK_EQ(idx[t], 3 * t, "default arguments <<<>>> thread %d", t);
  hipLaunchKernelGGL(default_args_kernel, dim3(1), dim3(64), 0, 0, idx, 5);
  for (int t = 0; t < 64; ++t) CHECK_EQ(idx[t], 5 * t, "default arguments hipLaunchKernelGGL thread %d", t);
  int* offsets;
  hipMalloc(&offsets, 64 * sizeof(int));
  for (int t = 0; t < 64; ++t) offsets[t] = 1000 + t;
  default_args_kernel<<<1, 64>>>(idx, 2, offsets);
  for (int t = 0; t < 64; ++t) CHECK_EQ(idx[t], 2 * t + 1000 + t, "every argument given thread %d", t);
  hipFree(offsets);
  unsigned* braced;
  hipMalloc(&braced, 64 * sizeof(unsigned));
  const unsigned w = 3, h = 4;
  braced_arg_kernel<10><<<1, 64>>>(braced, {w, h}, 0x76543210u);
  for (int t = 0; t < 64; ++t)
    CHECK_EQ(braced[t], 3u * 10 + 4 + (t % 8) + 15 + (5u << 8), "braced argument, __bitextract thread %d", t);
  hipFree(braced);
  CHECK_EQ(hipProfilerStart(), hipSuccess, "hipProfilerStart is a no-op");
  CHECK_EQ(hipProfilerStop(), hipSuccess, "hipProfilerStop is a no-op");
  hipFree(f);
  hipFree(idx);
}

// ---- fp16 / bf16 and bit intrinsics ----------------------------------------------------------
void test_numbers() {
  int bad_roundtrip = 0;
  for (unsigned b = 0; b < 65536; ++b) {
    const __half h = __ushort_as_half((unsigned short)b);
    if (__hisnan(h)) continue;
    bad_roundtrip += __half_as_ushort(__float2half(__half2float(h))) != b;
  }
  CHECK_EQ(bad_roundtrip, 0, "every non-NaN half survives half -> float -> half");
#ifdef __FLT16_MAX__
  unsigned s = 12345;
  int bad_rne = 0;
  for (int i = 0; i < 200000; ++i) {
    s = s * 1664525u + 1013904223u;
    float f;
    unsigned bits = s;
    if (i % 4 == 0) bits = (bits & 0x807fffffu) | ((100u + (s >> 27)) << 23);  // near the half range
    std::memcpy(&f, &bits, 4);
    if (f != f) continue;
    const _Float16 ref = (_Float16)f;
    unsigned short rb;
    std::memcpy(&rb, &ref, 2);
    bad_rne += __half_as_ushort(__float2half(f)) != rb;
  }
  CHECK_EQ(bad_rne, 0, "float -> half rounds to nearest even like the compiler's _Float16");
#endif
  CHECK_EQ(__bfloat16_as_ushort(__float2bfloat16(1.0f)), 0x3f80, "bf16(1)");
  CHECK_EQ(__bfloat16_as_ushort(__float2bfloat16(3.14159265f)), 0x4049, "bf16(pi)");
  CHECK_EQ(__bfloat162float(__float2bfloat16(-2.5f)), -2.5f, "bf16(-2.5)");
  CHECK_EQ(__popc(0xf0f0u), 8, "__popc");
  CHECK_EQ(__popcll(~0ull), 64, "__popcll");
  CHECK_EQ(__ffs(0), 0, "__ffs(0)");
  CHECK_EQ(__ffs(8), 4, "__ffs(8)");
  CHECK_EQ(__ffsll(1ll << 40), 41, "__ffsll");
  CHECK_EQ(__clz(1), 31, "__clz");
  CHECK_EQ(__clzll(1), 63, "__clzll");
  CHECK_EQ(__brev(1u), 0x80000000u, "__brev");
  CHECK_EQ(__byte_perm(0x33221100u, 0x77665544u, 0x5140u), 0x55114400u, "__byte_perm");
  CHECK_EQ(__float_as_uint(1.0f), 0x3f800000u, "__float_as_uint");
  CHECK_EQ(max(3, 5u), 5u, "max(int, unsigned)");
  CHECK_EQ(min(-1.5f, 2.0f), -1.5f, "min(float, float)");
}

// time() is pinned by W64_TIME (ferry diffrun --wave64 sets it on both sides), else the clock.
void test_time() {
  if (const char* t = std::getenv("W64_TIME")) {
    CHECK_EQ((long long)time(nullptr), std::atoll(t), "time() returns W64_TIME");
    time_t out = 0;
    time(&out);
    CHECK_EQ((long long)out, std::atoll(t), "time(&t) stores W64_TIME");
  } else {
    CHECK_EQ(time(nullptr) > 1700000000, true, "time() without W64_TIME is the real clock");
  }
}

int main() {
  test_time();
  test_shuffles();
  test_shuffle_types();
  test_votes();
  test_divergence();
  test_barriers();
  test_shared();
  test_atomics();
  test_launches();
  test_numbers();
  char name[64];
  std::snprintf(name, sizeof name, "hip_features (wave %d)", W);
  return finish(name);
}

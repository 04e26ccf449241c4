// What CUDA programs write that the wave64 runtime must build and run on the CUDA side:
// storage classes and attributes with __shared__/__device__/__constant__, __forceinline__ and
// __noinline__ beside the standard library, the pre-CUDA-9 warp intrinsics without _sync,
// printf/assert in kernels, stream capture into a graph, events and host functions in streams,
// and a host helper in a .cpp file of its own (helper.cpp). Prints one line per check and
// "constructs: N checks, M failures".
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>  // after cuda_runtime.h: shared_ptr_base.h spells __attribute__((__noinline__))
#include <vector>

#include "helper.h"

// A library header's GNU spelling after cuda_runtime.h (libstdc++ 13 has one past <memory>).
namespace lib_style {
__attribute__((__noinline__)) inline int seven() { return 7; }
}  // namespace lib_style

static int g_checks = 0, g_failures = 0;
static void check(bool ok, const char* what) {
  ++g_checks;
  if (!ok) {
    ++g_failures;
    std::printf("FAIL %s\n", what);
  }
}

static __device__ int s_static_device;
__device__ static int s_device_static;
static __constant__ int c_static_constant[4] = {1, 2, 3, 4};
__shared__ int file_scope_shared;  // allowed at namespace scope

__device__ __forceinline__ int twice(int x) { return 2 * x; }
static __device__ __forceinline__ int thrice(int x) { return 3 * x; }
__forceinline__ __device__ inline int four(int x) { return 4 * x; }
__device__ __noinline__ int five(int x) { return 5 * x; }
__noinline__ __device__ static int six(int x) { return 6 * x; }

// `static __shared__` in a function template: "conflicting specifiers" if passed through as is.
template <class T>
__device__ T block_sum(T v) {
  static __shared__ T shared[32];
  __shared__ static T total;
  volatile __shared__ int touched;
  __shared__ __align__(16) T scratch[4];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);  // legacy form, no mask
  if (lane == 0) shared[warp] = v;
  if (threadIdx.x == 0) touched = 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    T t = 0;
    for (int w = 0; w < (int)(blockDim.x / 32); ++w) t += shared[w];
    total = t;
    scratch[0] = t;
  }
  __syncthreads();
  return touched ? scratch[0] + total - total : T(0);
}

// `template <class T>` before a kernel with extern __shared__: a function, not a class scope.
template <class T, int Scale>
__global__ void scaled_copy(const T* in, T* out) {
  extern __shared__ T dyn[];
  dyn[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = Scale * dyn[blockDim.x - 1 - threadIdx.x];
}

// A cooperative launch: grid-wide sync between two phases (every block must be resident).
__global__ void grid_two_phase(const int* in, int* partial, int* total) {
  namespace cg = cooperative_groups;
  cg::grid_group g = cg::this_grid();
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  atomicAdd(&s, in[g.thread_rank()]);
  __syncthreads();
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
  g.sync();
  if (g.thread_rank() == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    *total = t;
  }
  g.sync();
  if (threadIdx.x == 0) partial[blockIdx.x] = *total + (g.is_valid() ? 1 : 0);
}

// Texture and surface objects: linear and point filtering, clamp and wrap, a surface write.
__global__ void sample(cudaTextureObject_t lin, cudaTextureObject_t wrap, cudaTextureObject_t bytes,
                       cudaSurfaceObject_t surf, float* out) {
  const int i = threadIdx.x;
  out[i * 3 + 0] = tex2D<float>(lin, i * 0.25f + 0.5f, 2.5f);
  out[i * 3 + 1] = tex2D<float>(wrap, (i + 0.5f) / 4.0f - 0.5f, 0.125f);
  out[i * 3 + 2] = tex1Dfetch<float4>(bytes, i).y;
  surf2Dwrite(static_cast<float>(i * 10), surf, i * static_cast<int>(sizeof(float)), 3);
}

// Launches whose kernel is deduced from the arguments (`axpy<<<g, b>>>(2.0f, x, y, n)`), a
// template with its first argument given and the rest deduced, and an overloaded kernel.
template <class T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
template <int Add, class T, class F>
__global__ void apply_op(T* y, F op, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = op(y[i]) + Add;
}
struct Twice {
  __device__ int operator()(int v) const { return 2 * v; }
};
__global__ void over(int* y) { y[threadIdx.x] += 1; }
__global__ void over(float* y) { y[threadIdx.x] += 0.5f; }

__global__ void sums(const int* in, int* out_int, float* out_float) {
  const int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const int si = block_sum<int>(v);
  const float sf = block_sum<float>(static_cast<float>(v));
  if (threadIdx.x == 0) {
    out_int[blockIdx.x] = si;
    out_float[blockIdx.x] = sf;
  }
}

__global__ void legacy_warp(int* out) {
  const int t = threadIdx.x, lane = t % 32;
  out[t * 8 + 0] = __shfl(t, 3);
  out[t * 8 + 1] = __shfl_up(t, 1);
  out[t * 8 + 2] = __shfl_xor(t, 1);
  out[t * 8 + 3] = __shfl_down(t, 2, 16);
  out[t * 8 + 4] = (int)__ballot(lane % 2 == 0);
  out[t * 8 + 5] = __any(lane == 5);
  out[t * 8 + 6] = __all(lane < 32);
  out[t * 8 + 7] = twice(1) + thrice(1) + four(1) + five(1) + six(1) + c_static_constant[lane % 4];
  if (t == 0) {
    s_static_device = 7;
    s_device_static = 8;
    file_scope_shared = 9;
  }
}

// Reads of PTX special registers, the inline assembly CUDA code uses most: the driver turns
// them into the runtime's values.
__global__ void special_registers(unsigned* out) {
  unsigned lane, lt, le, gt, eq;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(le));
  asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
  asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
  // clock() in device code is a cycle counter: a 100000-cycle spin takes microseconds, not the
  // 0.1 s of CPU time libc's clock() would count.
  const clock_t c0 = clock();
  while (clock() - c0 < 100000) {
  }
  out[threadIdx.x * 5 + 0] = lane;
  out[threadIdx.x * 5 + 1] = lt;
  out[threadIdx.x * 5 + 2] = le;
  out[threadIdx.x * 5 + 3] = gt;
  out[threadIdx.x * 5 + 4] = eq + (t > 0 ? 0u : 1000u);
}

__global__ void print_and_assert(int* flag) {
  assert(blockDim.x == 2);
  if (threadIdx.x == 1) printf("kernel printf: block %d thread %d value %.2f\n", blockIdx.x, threadIdx.x, 1.5);
  flag[threadIdx.x] = 1;
}

__global__ void add_one(int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1;
}
__global__ void times_two(int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 2;
}

static void CUDART_CB host_note(void* data) { ++*static_cast<int*>(data); }

// Lanes of the first two warps never wait; the later warps shuffle. A block runs its first 64
// lanes as plain calls, then the scheduler takes over (the lanes' records are reset only then).
__global__ void late_wait(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  if (threadIdx.x / 32 >= 2) v += __shfl_xor_sync(0xffffffffu, v, 1);
  out[i] = v;
}

int main() {
  check(lib_style::seven() == 7, "__attribute__((__noinline__)) in a header after cuda_runtime.h");
  // Block sums through static __shared__ in a template, legacy __shfl_down.
  const int blocks = 3, threads = 128;
  std::vector<int> h(blocks * threads);
  for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<int>(i % 17);
  int *d_in, *d_out;
  float* d_f;
  cudaMalloc(&d_in, h.size() * sizeof(int));
  cudaMalloc(&d_out, blocks * sizeof(int));
  cudaMalloc(&d_f, blocks * sizeof(float));
  cudaMemcpy(d_in, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice);
  sums<<<blocks, threads>>>(d_in, d_out, d_f);
  int out[blocks];
  float outf[blocks];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(outf, d_f, sizeof outf, cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) {
    int want = 0;
    for (int t = 0; t < threads; ++t) want += h[b * threads + t];
    check(out[b] == want, "static __shared__ in a template: int block sum");
    check(outf[b] == static_cast<float>(want), "static __shared__ in a template: float block sum");
    std::printf("block %d sum %d\n", b, out[b]);
  }

  // extern __shared__ in a `template <class T, int>` kernel.
  {
    int* d_c;
    cudaMalloc(&d_c, h.size() * sizeof(int));
    scaled_copy<int, 3><<<blocks, threads, threads * sizeof(int)>>>(d_in, d_c);
    std::vector<int> c(h.size());
    cudaMemcpy(c.data(), d_c, c.size() * sizeof(int), cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < threads; ++t) ok &= c[b * threads + t] == 3 * h[b * threads + threads - 1 - t];
    check(ok, "extern __shared__ in a template <class T> kernel");
    cudaFree(d_c);
  }

  // Deduced template kernels and an overloaded kernel.
  {
    const int n = 100;
    float *dx, *dy;
    int* di;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    cudaMalloc(&di, n * sizeof(int));
    std::vector<float> hx(n), hy(n);
    std::vector<int> hi(n);
    for (int i = 0; i < n; ++i) hx[i] = static_cast<float>(i), hy[i] = 1.0f, hi[i] = i;
    cudaMemcpy(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(di, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    axpy<<<(n + 31) / 32, 32>>>(2.0f, dx, dy, n);
    apply_op<5><<<1, 128>>>(di, Twice{}, n);
    over<<<1, 4>>>(di);
    over<<<1, 4>>>(dy);
    cudaMemcpy(hy.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(hi.data(), di, n * sizeof(int), cudaMemcpyDeviceToHost);
    check(cudaGetLastError() == cudaSuccess && hy[10] == 21.0f && hy[2] == 5.5f && hy[99] == 199.0f,
          "deduced template kernel axpy<<<>>>(2.0f, x, y, n)");
    check(hi[10] == 25 && hi[0] == 6 && hi[99] == 203, "apply_op<5><<<>>>(y, Twice{}, n), overloaded kernel");
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(di);
  }

  // Legacy warp intrinsics at 32 lanes, CUDA's rules.
  int* d_w;
  cudaMalloc(&d_w, 64 * 8 * sizeof(int));
  legacy_warp<<<1, 64>>>(d_w);
  std::vector<int> w(64 * 8);
  cudaMemcpy(w.data(), d_w, w.size() * sizeof(int), cudaMemcpyDeviceToHost);
  for (int t = 0; t < 64; ++t) {
    const int lane = t % 32, base = t - lane;
    check(w[t * 8 + 0] == base + 3, "__shfl");
    check(w[t * 8 + 1] == (lane >= 1 ? t - 1 : t), "__shfl_up");
    check(w[t * 8 + 2] == (t ^ 1), "__shfl_xor");
    check(w[t * 8 + 3] == (lane % 16 + 2 < 16 ? t + 2 : t), "__shfl_down width 16");
    check(static_cast<unsigned>(w[t * 8 + 4]) == 0x55555555u, "__ballot");
    check(w[t * 8 + 5] == 1 && w[t * 8 + 6] == 1, "__any / __all");
    check(w[t * 8 + 7] == 20 + (lane % 4 + 1), "__forceinline__ / __noinline__ / static __constant__");
  }
  int dev_vals[2];
  cudaMemcpyFromSymbol(&dev_vals[0], s_static_device, sizeof(int));
  cudaMemcpyFromSymbol(&dev_vals[1], s_device_static, sizeof(int));
  check(dev_vals[0] == 7 && dev_vals[1] == 8, "static __device__ / __device__ static");

  // PTX special registers.
  unsigned* d_sr;
  cudaMalloc(&d_sr, 64 * 5 * sizeof(unsigned));
  special_registers<<<1, 64>>>(d_sr);
  std::vector<unsigned> sr(64 * 5);
  cudaMemcpy(sr.data(), d_sr, sr.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
  for (unsigned t = 0; t < 64; ++t) {
    const unsigned lane = t % 32, eq = 1u << lane;
    check(sr[t * 5 + 0] == lane, "%laneid");
    check(sr[t * 5 + 1] == eq - 1u && sr[t * 5 + 2] == (eq | (eq - 1u)), "%lanemask_lt / %lanemask_le");
    check(sr[t * 5 + 3] == ~(eq | (eq - 1u)) && sr[t * 5 + 4] == eq, "%lanemask_gt / %lanemask_eq, %clock64");
  }

  // printf and assert in a kernel.
  int* d_flag;
  cudaMalloc(&d_flag, 2 * sizeof(int));
  print_and_assert<<<1, 2>>>(d_flag);
  check(cudaDeviceSynchronize() == cudaSuccess, "printf/assert kernel");

  // A graph captured from two streams (fork and join through events), replayed three times.
  const int n = 1000;
  int* d_v;
  cudaMalloc(&d_v, n * sizeof(int));
  std::vector<int> hv(n, 1);
  cudaStream_t s1, s2;
  cudaEvent_t fork, join;
  cudaStreamCreate(&s1);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEventCreate(&fork);
  cudaEventCreateWithFlags(&join, cudaEventDisableTiming);
  int host_calls = 0;
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  check(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal) == cudaSuccess, "begin capture");
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(s1, &st);
  check(st == cudaStreamCaptureStatusActive, "capturing");
  cudaMemcpyAsync(d_v, hv.data(), n * sizeof(int), cudaMemcpyHostToDevice, s1);
  cudaEventRecord(fork, s1);
  cudaStreamWaitEvent(s2, fork, 0);
  add_one<<<(n + 255) / 256, 256, 0, s2>>>(d_v, n);
  cudaEventRecord(join, s2);
  cudaStreamWaitEvent(s1, join, 0);
  times_two<<<(n + 255) / 256, 256, 0, s1>>>(d_v, n);
  cudaLaunchHostFunc(s1, host_note, &host_calls);
  check(cudaStreamEndCapture(s1, &graph) == cudaSuccess, "end capture");
  check(host_calls == 0, "captured work does not run at capture");
  size_t nodes = 0;
  cudaGraphGetNodes(graph, nullptr, &nodes);
  check(nodes == 4, "graph has the four captured nodes");
  check(cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0) == cudaSuccess, "instantiate");
  std::vector<int> res(n);
  for (int rep = 0; rep < 3; ++rep) {
    hv.assign(n, rep);
    cudaGraphLaunch(exec, s1);
    cudaStreamSynchronize(s1);
    cudaMemcpy(res.data(), d_v, n * sizeof(int), cudaMemcpyDeviceToHost);
    check(res[0] == (rep + 1) * 2 && res[n - 1] == (rep + 1) * 2, "graph replay");
  }
  check(host_calls == 3, "host function node runs at each replay");
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  // Events as orderings outside a capture.
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a, s2);
  add_one<<<(n + 255) / 256, 256, 0, cudaStreamDefault>>>(d_v, n);  // the flag 0 as the null stream
  times_two<<<(n + 255) / 256, 256, 0, s2>>>(d_v, n);
  cudaEventRecord(b, s2);
  cudaStreamWaitEvent(s1, b, 0);
  cudaMemcpyAsync(res.data(), d_v, n * sizeof(int), cudaMemcpyDeviceToHost, s1);
  cudaStreamSynchronize(s1);
  float ms = -1;
  check(cudaEventElapsedTime(&ms, a, b) == cudaSuccess && ms >= 0, "event timing");
  check(res[0] == 14, "stream order through an event");

  // The typed min/max of CUDA's device math (mergeSort's umin).
  check(umin(3u, 5u) == 3u && umax(3u, 5u) == 5u && llmin(-2, 4) == -2 && ullmax(1ull, 2ull) == 2ull,
        "umin/umax/llmin/ullmax");

  // A host helper from helper.cpp (linked with the kernels).
  check(helper_checksum(res.data(), 4) == 56, "helper.cpp linked");

  // Blocks whose first lanes never wait, after blocks whose lanes all waited, and again.
  {
    const int lb = 6, lt = 128;
    int *lin, *lout;
    cudaMallocManaged(&lin, lb * lt * sizeof(int));
    cudaMallocManaged(&lout, lb * lt * sizeof(int));
    for (int i = 0; i < lb * lt; ++i) lin[i] = i * 3;
    bool ok = true;
    for (int round = 0; round < 2; ++round) {
      add_one<<<lb, lt>>>(lin, 0);
      late_wait<<<lb, lt>>>(lin, lout);
      cudaDeviceSynchronize();
      for (int i = 0; i < lb * lt; ++i) ok &= lout[i] == ((i % lt) / 32 >= 2 ? i * 3 + (i ^ 1) * 3 : i * 3);
    }
    check(ok, "lanes that wait after lanes that ran as plain calls, block after block");
  }

  // Cooperative launch with grid.sync(); one block too many is refused as on hardware.
  {
    const int cblocks = 12, cthreads = 64;
    int *cin, *cpart, *ctotal;
    cudaMallocManaged(&cin, 16 * 256 * sizeof(int));  // the largest grid below
    cudaMallocManaged(&cpart, 16 * sizeof(int));
    cudaMallocManaged(&ctotal, sizeof(int));
    for (int i = 0; i < cblocks * cthreads; ++i) cin[i] = i % 5;
    void* cargs[] = {&cin, &cpart, &ctotal};
    const cudaError_t e =
        cudaLaunchCooperativeKernel((void*)grid_two_phase, dim3(cblocks), dim3(cthreads), cargs, 0, nullptr);
    cudaDeviceSynchronize();
    int want = 0;
    for (int i = 0; i < cblocks * cthreads; ++i) want += i % 5;
    bool all = true;
    for (int b = 0; b < cblocks; ++b) all &= cpart[b] == want + 1;
    check(e == cudaSuccess && *ctotal == want && all, "cooperative launch: grid.sync() between phases");
    // The blocks' threads persist between cooperative launches: again with fewer blocks, with
    // more lanes per block, with more blocks, and after an ordinary launch.
    const int shapes[][2] = {{5, 64}, {3, 256}, {16, 32}, {12, 64}};
    bool again = true;
    for (int k = 0; k < 4; ++k) {
      const int nb = shapes[k][0], nt = shapes[k][1];
      if (k == 3) add_one<<<4, 64>>>(cin, 0);  // an ordinary launch in between (n = 0: no effect)
      for (int i = 0; i < nb * nt; ++i) cin[i] = (i + k) % 7;
      int w = 0;
      for (int i = 0; i < nb * nt; ++i) w += (i + k) % 7;
      again &= cudaLaunchCooperativeKernel((void*)grid_two_phase, dim3(nb), dim3(nt), cargs, 0, nullptr) == cudaSuccess;
      again &= *ctotal == w;
      for (int b = 0; b < nb; ++b) again &= cpart[b] == w + 1;
    }
    check(again, "cooperative launches again: fewer blocks, wider blocks, more blocks, after a plain launch");
    int per_sm = 0, sms = 0, coop = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_two_phase, cthreads, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0);
    check(coop == 1 && cudaLaunchCooperativeKernel(grid_two_phase, dim3(per_sm * sms + 1), dim3(cthreads), cargs, 0,
                                                   nullptr) == cudaErrorCooperativeLaunchTooLarge,
          "cooperative launch: more blocks than resident is refused");
  }

  // Textures and surfaces.
  {
    const int tw = 4, th = 4;
    float img[tw * th];
    for (int i = 0; i < tw * th; ++i) img[i] = static_cast<float>(i);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    cudaMallocArray(&arr, &fd, tw, th);
    cudaMemcpy2DToArray(arr, 0, 0, img, tw * sizeof(float), tw * sizeof(float), th, cudaMemcpyHostToDevice);
    cudaResourceDesc rd;
    std::memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td;
    std::memset(&td, 0, sizeof td);
    td.filterMode = cudaFilterModeLinear;
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t lin, wrap, bytes;
    cudaCreateTextureObject(&lin, &rd, &td, nullptr);
    td.filterMode = cudaFilterModePoint;
    td.normalizedCoords = 1;
    td.addressMode[0] = cudaAddressModeWrap;
    cudaCreateTextureObject(&wrap, &rd, &td, nullptr);
    unsigned char* raw;
    cudaMalloc(&raw, 16);
    unsigned char hraw[16];
    for (int i = 0; i < 16; ++i) hraw[i] = static_cast<unsigned char>(i * 17);
    cudaMemcpy(raw, hraw, 16, cudaMemcpyHostToDevice);
    cudaResourceDesc rl;
    std::memset(&rl, 0, sizeof rl);
    rl.resType = cudaResourceTypeLinear;
    rl.res.linear.devPtr = raw;
    rl.res.linear.desc = cudaCreateChannelDesc<uchar4>();
    rl.res.linear.sizeInBytes = 16;
    cudaTextureDesc tl;
    std::memset(&tl, 0, sizeof tl);
    tl.readMode = cudaReadModeNormalizedFloat;
    cudaCreateTextureObject(&bytes, &rl, &tl, nullptr);
    cudaSurfaceObject_t surf;
    cudaCreateSurfaceObject(&surf, &rd);
    float* tout;
    cudaMallocManaged(&tout, 4 * 3 * sizeof(float));
    sample<<<1, 4>>>(lin, wrap, bytes, surf, tout);
    cudaDeviceSynchronize();
    // Row 2 holds 8..11: linear at x = i/4 + 0.5 blends texel 0 and 1 with weight i/4.
    check(tout[0] == 8.0f && tout[3] == 8.25f && tout[6] == 8.5f && tout[9] == 8.75f, "tex2D linear filtering");
    check(tout[1] == 2.0f && tout[4] == 3.0f && tout[7] == 0.0f && tout[10] == 1.0f, "tex2D point, wrap, normalized");
    check(std::fabs(tout[5] - 85.0f / 255.0f) < 1e-6f, "tex1Dfetch normalized float of uchar4");
    float back[tw * th];
    cudaMemcpy2DFromArray(back, tw * sizeof(float), arr, 0, 0, tw * sizeof(float), th, cudaMemcpyDeviceToHost);
    check(back[12] == 0.0f && back[13] == 10.0f && back[15] == 30.0f && back[8] == 8.0f, "surf2Dwrite");
    cudaDestroyTextureObject(lin);
    cudaDestroyTextureObject(wrap);
    cudaDestroyTextureObject(bytes);
    cudaDestroySurfaceObject(surf);
    cudaFreeArray(arr);
  }

  std::printf("constructs: %d checks, %d failures\n", g_checks, g_failures);
  return g_failures ? 1 : 0;
}

// How fast the wave64 runtime switches lanes, against the floor: the same number of bare
// boost.context switches between 1024 fibers (what any fiber runtime pays). Times are thread CPU
// time, so other load on the machine does not inflate them. Output: one row per operation with
// ns per lane and the ratio to a bare switch.
#include <hip/hip_runtime.h>

#include <time.h>

#include <boost/context/detail/fcontext.hpp>
#include <cstdio>
#include <vector>

#include <sys/mman.h>

namespace {

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

namespace bc = boost::context::detail;
struct Ring {
  std::vector<bc::fcontext_t> fc;
  bc::fcontext_t main_fc = nullptr;
  int cur = 0;
  int rounds = 0;
};
Ring g_ring;

void ring_entry(bc::transfer_t t) {
  Ring& r = g_ring;
  *static_cast<bc::fcontext_t*>(t.data) = t.fctx;
  for (int i = 0; i < r.rounds; ++i) {
    const int me = r.cur;
    const int next = (me + 1) % static_cast<int>(r.fc.size());
    r.cur = next;
    const bc::transfer_t u = bc::jump_fcontext(r.fc[next], &r.fc[me]);
    *static_cast<bc::fcontext_t*>(u.data) = u.fctx;
  }
  bc::jump_fcontext(r.main_fc, &r.fc[r.cur]);
}

double bare_switch_ns(int fibers, int rounds) {
  const std::size_t stack = 64 * 1024 + 4096;
  auto* mem = static_cast<char*>(
      mmap(nullptr, fibers * stack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  g_ring.fc.assign(fibers, nullptr);
  g_ring.rounds = rounds;
  g_ring.cur = 0;
  for (int i = 0; i < fibers; ++i)
    g_ring.fc[i] = bc::make_fcontext(mem + (i + 1) * stack - (i % 61) * 320, 60 * 1024, ring_entry);
  const double t0 = cpu_seconds();
  const bc::transfer_t t = bc::jump_fcontext(g_ring.fc[0], &g_ring.main_fc);
  (void)t;
  const double t1 = cpu_seconds();
  munmap(mem, fibers * stack);
  return (t1 - t0) / (static_cast<double>(fibers) * rounds) * 1e9;
}

__global__ void empty_kernel(int* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = 1;
}
__global__ void sync_kernel(int n, int* out) {
  int a = 0;
  for (int i = 0; i < n; ++i) {
    __syncthreads();
    a += i;
  }
  if (threadIdx.x == 0) out[blockIdx.x] = a;
}
__global__ void shfl_kernel(int n, int* out) {
  int a = threadIdx.x;
  for (int i = 0; i < n; ++i) a += __shfl_xor(a, 1);
  if (threadIdx.x == 0) out[blockIdx.x] = a;
}
__global__ void ballot_kernel(int n, int* out) {
  unsigned long long a = 0;
  for (int i = 0; i < n; ++i) a += __ballot((threadIdx.x + i) & 1);
  if (threadIdx.x == 0) out[blockIdx.x] = (int)a;
}
__global__ void reduce_kernel(int n, float* out) {
  __shared__ float part[1024 / warpSize];
  float v = threadIdx.x;
  for (int r = 0; r < n; ++r) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor(v, o);
    if (threadIdx.x % warpSize == 0) part[threadIdx.x / warpSize] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / warpSize ? part[threadIdx.x] : 0.f;
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

}  // namespace

int main() {
  const int B = 1024, G = 8, N = 200;
  int* o;
  float* f;
  hipMalloc(&o, G * sizeof(int));
  hipMalloc(&f, G * sizeof(float));
  hipLaunchKernelGGL(empty_kernel, dim3(G), dim3(B), 0, 0, o);  // maps the stacks once
  const double bare = bare_switch_ns(B, N);
  std::printf("wave64 runtime, block of %d lanes, wavefront %d, thread CPU time\n", B, warpSize);
  std::printf("%-34s %10s %10s\n", "operation", "ns/lane", "x bare");
  std::printf("%-34s %10.1f %10.2f\n", "bare fcontext switch (baseline)", bare, 1.0);
  double t0 = cpu_seconds();
  for (int r = 0; r < 20; ++r) hipLaunchKernelGGL(empty_kernel, dim3(G), dim3(B), 0, 0, o);
  double ns = (cpu_seconds() - t0) / (20.0 * G * B) * 1e9;
  std::printf("%-34s %10.1f %10.2f\n", "start + finish a lane (empty kernel)", ns, ns / bare);
  struct Op {
    const char* name;
    void (*k)(int, int*);
  };
  for (const Op& op : {Op{"__syncthreads", sync_kernel}, Op{"__shfl_xor", shfl_kernel}, Op{"__ballot", ballot_kernel}}) {
    t0 = cpu_seconds();
    hipLaunchKernelGGL(op.k, dim3(G), dim3(B), 0, 0, N, o);
    ns = (cpu_seconds() - t0) / (static_cast<double>(G) * B * N) * 1e9;
    std::printf("%-34s %10.1f %10.2f\n", op.name, ns, ns / bare);
  }
  t0 = cpu_seconds();
  hipLaunchKernelGGL(reduce_kernel, dim3(G), dim3(B), 0, 0, 20, f);
  const double us = (cpu_seconds() - t0) / (G * 20.0) * 1e6;
  std::printf("%-34s %10.1f us per 1024-thread block\n", "block reduction (shuffles + 2 syncs)", us);
  return 0;
}

// wave64 runtime speed against plain C++ in the same run (bench/wave64_speed_bench.sh): an elementwise
// kernel (no warp operations: the runtime should run it as plain loops over lanes), a block
// reduction (__syncthreads and shuffles: the fiber switches are the cost), a shared-memory tree
// reduction and a tiled matrix product (__syncthreads in loops), each beside the same
// computation written as a C++ loop. Prints one line per case with both times and the ratio
// C++ time / runtime time (the share of plain C++ speed the runtime reaches).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

__global__ void saxpy_steps(float* y, const float* x, float a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void block_reduce(const float* x, float* out, int n) {
  __shared__ float warp_sums[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % warpSize == 0) warp_sums[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x < warpSize) {
    v = threadIdx.x < blockDim.x / warpSize ? warp_sums[threadIdx.x] : 0.f;
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
  }
}

// Barrier-heavy kernels: a tree reduction in shared memory (__syncthreads in a loop) and a tiled
// matrix product (two __syncthreads per tile), the shapes of cuda-samples' reduction and matrixMul.
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

constexpr int kTile = 16;
__global__ void tiled_matmul(const float* a, const float* b, float* c, int m) {
  __shared__ float ta[kTile][kTile];
  __shared__ float tb[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0.f;
  for (int t = 0; t < m / kTile; ++t) {
    ta[threadIdx.y][threadIdx.x] = a[row * m + t * kTile + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(t * kTile + threadIdx.y) * m + col];
    __syncthreads();
    for (int k = 0; k < kTile; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * m + col] = acc;
}

// The two shapes of the programs that took longest on the runtime (bench/results/
// wave64-speed-2026-12-05g.md): a vector local that lives across barriers, changed a component at
// a time (cuda-samples scan), and a long per-lane accumulation loop (How_to_optimize's
// reduce_v7: each lane adds `kPer` elements in one dependent chain).
__global__ void vec_scan(uint4* dst, const uint4* src) {
  __shared__ unsigned s[512];
  const unsigned pos = blockIdx.x * blockDim.x + threadIdx.x;
  uint4 v = src[pos];
  v.y += v.x;
  v.z += v.y;
  v.w += v.z;
  unsigned p = 2 * threadIdx.x - (threadIdx.x & (blockDim.x - 1));
  s[p] = 0;
  p += blockDim.x;
  s[p] = v.w;
  for (unsigned offset = 1; offset < blockDim.x; offset <<= 1) {
    __syncthreads();
    unsigned t = s[p] + s[p - offset];
    __syncthreads();
    s[p] = t;
  }
  const unsigned excl = s[p] - v.w;
  v.x += excl;
  v.y += excl;
  v.z += excl;
  v.w += excl;
  dst[pos] = v;
}

constexpr int kPer = 128;
__global__ void lane_sums(const float* in, float* out) {
  float sum = 0;
  const unsigned i = blockIdx.x * (blockDim.x * kPer) + threadIdx.x;
  for (int k = 0; k < kPer; k++) sum += in[i + k * blockDim.x];
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
  if (threadIdx.x % 32 == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = sum;
}

// CPU time of this thread (the machine may be shared: wall time would count other processes'
// time); with W64_THREADS=1 the kernels run on this thread too. W64_SPEED_WALL=1: wall time
// (kernels spread over several cores).
static double now_s() {
  static const bool wall = std::getenv("W64_SPEED_WALL") != nullptr;
  timespec ts;
  clock_gettime(wall ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static double seconds_since(double t) { return now_s() - t; }

// Keeps the compiler from folding the C++ loops away.
static volatile float g_sink;

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : (1 << 22);
  const int steps = argc > 2 ? std::atoi(argv[2]) : 10;
  const int threads = 256, blocks = (n + threads - 1) / threads;
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) hx[i] = (i % 97) * 0.01f, hy[i] = 1.f;
  float *x, *y, *partial;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&partial, blocks * sizeof(float));
  cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);

  double t = now_s();
  for (int s = 0; s < steps; ++s) saxpy_steps<<<blocks, threads>>>(y, x, 0.5f, n);
  cudaDeviceSynchronize();
  const double rt_elem = seconds_since(t);
  t = now_s();
  for (int s = 0; s < steps; ++s)
    for (int i = 0; i < n; ++i) hy[i] = 0.5f * hx[i] + hy[i];
  g_sink = hy[n / 2];
  const double cpp_elem = seconds_since(t);

  t = now_s();
  for (int s = 0; s < steps; ++s) block_reduce<<<blocks, threads>>>(x, partial, n);
  cudaDeviceSynchronize();
  const double rt_red = seconds_since(t);
  std::vector<float> hp(blocks), cp(blocks);
  cudaMemcpy(hp.data(), partial, blocks * sizeof(float), cudaMemcpyDeviceToHost);
  t = now_s();
  for (int s = 0; s < steps; ++s)
    for (int b = 0; b < blocks; ++b) {
      float acc = 0;
      for (int i = b * threads; i < (b + 1) * threads && i < n; ++i) acc += hx[i];
      cp[b] = acc;
    }
  g_sink = cp[0];
  const double cpp_red = seconds_since(t);

  t = now_s();
  for (int s = 0; s < steps; ++s) tree_reduce<<<blocks, threads>>>(x, partial, n);
  cudaDeviceSynchronize();
  const double rt_tree = seconds_since(t);
  std::vector<float> tp(blocks);
  cudaMemcpy(tp.data(), partial, blocks * sizeof(float), cudaMemcpyDeviceToHost);

  // A square product with about as many multiply-adds per step as n elements * 64.
  int m = kTile;
  while (static_cast<double>(m) * 2 * m * m * 2 <= static_cast<double>(n) * 64) m *= 2;
  std::vector<float> ha(static_cast<size_t>(m) * m), hb(ha.size()), hc(ha.size()), cc(ha.size());
  for (size_t i = 0; i < ha.size(); ++i) ha[i] = (i % 13) * 0.1f, hb[i] = (i % 7) * 0.2f;
  float *da, *db, *dc;
  cudaMalloc(&da, ha.size() * sizeof(float));
  cudaMalloc(&db, ha.size() * sizeof(float));
  cudaMalloc(&dc, ha.size() * sizeof(float));
  cudaMemcpy(da, ha.data(), ha.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb.data(), ha.size() * sizeof(float), cudaMemcpyHostToDevice);
  t = now_s();
  tiled_matmul<<<dim3(m / kTile, m / kTile), dim3(kTile, kTile)>>>(da, db, dc, m);
  cudaDeviceSynchronize();
  const double rt_mm = seconds_since(t);
  cudaMemcpy(hc.data(), dc, ha.size() * sizeof(float), cudaMemcpyDeviceToHost);
  t = now_s();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      float acc = 0;
      for (int tt = 0; tt < m / kTile; ++tt)
        for (int k = 0; k < kTile; ++k) acc += ha[i * m + tt * kTile + k] * hb[(tt * kTile + k) * m + j];
      cc[i * m + j] = acc;
    }
  g_sink = cc[0];
  const double cpp_mm = seconds_since(t);

  // vec_scan: n/4 uint4 elements, an inclusive scan per block of 256; the C++ loop scans each
  // block's 1024 numbers in order
  const int nvec = n / 4, sblocks = nvec / threads;
  std::vector<uint4> hs(nvec), hsd(nvec), csd(nvec);
  for (int i = 0; i < nvec; ++i) hs[i] = make_uint4(i % 7, i % 5, i % 3, i % 11);
  uint4 *dsrc, *ddst;
  cudaMalloc(&dsrc, nvec * sizeof(uint4));
  cudaMalloc(&ddst, nvec * sizeof(uint4));
  cudaMemcpy(dsrc, hs.data(), nvec * sizeof(uint4), cudaMemcpyHostToDevice);
  t = now_s();
  for (int s = 0; s < steps; ++s) vec_scan<<<sblocks, threads>>>(ddst, dsrc);
  cudaDeviceSynchronize();
  const double rt_scan = seconds_since(t);
  cudaMemcpy(hsd.data(), ddst, nvec * sizeof(uint4), cudaMemcpyDeviceToHost);
  t = now_s();
  for (int s = 0; s < steps; ++s)
    for (int b = 0; b < sblocks; ++b) {
      unsigned run = 0;
      for (int i = b * threads; i < (b + 1) * threads; ++i) {
        const uint4 v = hs[i];
        csd[i] = make_uint4(run + v.x, run + v.x + v.y, run + v.x + v.y + v.z, run + v.x + v.y + v.z + v.w);
        run += v.x + v.y + v.z + v.w;
      }
    }
  g_sink = static_cast<float>(csd[1].y);
  const double cpp_scan = seconds_since(t);

  // lane_sums: each lane of a 256-lane block adds kPer elements a block apart (integers: exact in
  // any order); the C++ loop computes each lane's sum the same way, then each warp's
  const int lblocks = n / (threads * kPer);
  std::vector<float> hl(n), hlo(static_cast<size_t>(lblocks) * threads / 32), clo(hlo.size()), lane(threads);
  for (int i = 0; i < n; ++i) hl[i] = static_cast<float>(i % 456);
  float *dl, *dlo;
  cudaMalloc(&dl, n * sizeof(float));
  cudaMalloc(&dlo, hlo.size() * sizeof(float) + 1);
  cudaMemcpy(dl, hl.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  t = now_s();
  for (int s = 0; s < steps; ++s) lane_sums<<<lblocks, threads>>>(dl, dlo);
  cudaDeviceSynchronize();
  const double rt_sums = seconds_since(t);
  cudaMemcpy(hlo.data(), dlo, hlo.size() * sizeof(float), cudaMemcpyDeviceToHost);
  t = now_s();
  for (int s = 0; s < steps; ++s)
    for (int b = 0; b < lblocks; ++b) {
      for (int l = 0; l < threads; ++l) {
        float sum = 0;
        for (int k = 0; k < kPer; ++k) sum += hl[static_cast<size_t>(b) * threads * kPer + l + k * threads];
        lane[l] = sum;
      }
      for (int w = 0; w < threads / 32; ++w) {
        float acc = 0;
        for (int l = 0; l < 32; ++l) acc += lane[w * 32 + l];
        clo[b * threads / 32 + w] = acc;
      }
    }
  g_sink = clo.empty() ? 0.f : clo[0];
  const double cpp_sums = seconds_since(t);

  std::vector<float> ry(n);
  cudaMemcpy(ry.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; i += 4099) ok = ok && ry[i] == hy[i];
  for (int b = 0; b < blocks; ++b) ok = ok && std::abs(hp[b] - cp[b]) <= 1e-3f * (1 + std::abs(cp[b]));
  for (int b = 0; b < blocks; ++b) ok = ok && std::abs(tp[b] - cp[b]) <= 1e-3f * (1 + std::abs(cp[b]));
  for (size_t i = 0; i < cc.size(); i += 101) ok = ok && hc[i] == cc[i];
  for (int i = 0; i < nvec; ++i) ok = ok && hsd[i].x == csd[i].x && hsd[i].w == csd[i].w;
  for (size_t i = 0; i < hlo.size(); ++i) ok = ok && hlo[i] == clo[i];
  std::printf("case\telements\tsteps\truntime_s\tcpp_s\tcpp/runtime\n");
  std::printf("elementwise\t%d\t%d\t%.3f\t%.3f\t%.3f\n", n, steps, rt_elem, cpp_elem, cpp_elem / rt_elem);
  std::printf("block_reduce\t%d\t%d\t%.3f\t%.3f\t%.3f\n", n, steps, rt_red, cpp_red, cpp_red / rt_red);
  std::printf("tree_reduce\t%d\t%d\t%.3f\t%.3f\t%.3f\n", n, steps, rt_tree, cpp_red, cpp_red / rt_tree);
  std::printf("tiled_matmul\t%dx%d\t1\t%.3f\t%.3f\t%.3f\n", m, m, rt_mm, cpp_mm, cpp_mm / rt_mm);
  std::printf("vector_local_scan\t%d\t%d\t%.3f\t%.3f\t%.3f\n", n, steps, rt_scan, cpp_scan, cpp_scan / rt_scan);
  std::printf("lane_serial_sums\t%d\t%d\t%.3f\t%.3f\t%.3f\n", n, steps, rt_sums, cpp_sums, cpp_sums / rt_sums);
  std::printf("results %s\n", ok ? "match" : "DIFFER");
  return ok ? 0 : 1;
}

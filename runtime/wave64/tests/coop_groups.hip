// The wave64 runtime's test of cooperative groups (include/wave64/coop.h), built as HIP at wave
// 64 and wave 32 and as CUDA (coop_groups.cu includes this file) at warp 32: block ranks and
// syncs, tiles of every width (ranks, meta ranks, shuffles, ballots, votes, cg::reduce, tiles
// of tiles), tiles wider than the wavefront (sync and reduce across wavefronts), runtime-sized
// groups, coalesced groups in diverged code. Expected values are computed on the host.
#if defined(W64_TEST_CUDA)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#else
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#endif

#include <vector>

#include "check.h"

namespace cg = cooperative_groups;

#if !defined(W64_TEST_CUDA)
// HIP has no cg::reduce (ported code gets ferry/compat/coop_reduce.h): the same butterfly here.
namespace cooperative_groups {
template <class T>
struct plus {
  T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T>
struct greater {
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <unsigned N, class P, class T, class Op>
T reduce(const thread_block_tile<N, P>& t, T v, Op op) {
  for (unsigned d = N / 2; d > 0; d /= 2) v = op(v, t.shfl_xor(v, d));
  return v;
}
}  // namespace cooperative_groups
#endif
constexpr int W = warpSize;
constexpr int B = 256;  // threads per block in these tests

#if defined(W64_TEST_CUDA)
#define gpuMalloc cudaMallocManaged
#define gpuFree cudaFree
#define gpuSync cudaDeviceSynchronize
#else
#define gpuMalloc hipMallocManaged
#define gpuFree hipFree
#define gpuSync hipDeviceSynchronize
#endif

// Per thread: 0 block rank, 1 block size, 2 tile rank, 3 meta rank, 4 meta size, 5 shfl_down(1),
// 6 shfl_xor(N/2), 7 shfl(0), 8 shfl_up(1), 9 ballot(even rank), 10 any(rank == 1), 11 all(rank
// < N), 12 reduce(plus), 13 reduce(greater), 14 subtile rank, 15 subtile meta rank.
constexpr int F = 16;

template <unsigned N>
__global__ void tile_kernel(long long* out) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<N> t = cg::tiled_partition<N>(cta);
  const int r = cta.thread_rank();
  long long* o = out + r * F;
  o[0] = r;
  o[1] = cta.size();
  o[2] = t.thread_rank();
  o[3] = t.meta_group_rank();
  o[4] = t.meta_group_size();
  const int v = r * 3 + 1;
  o[5] = t.shfl_down(v, 1);
  o[6] = t.shfl_xor(v, N / 2 ? N / 2 : 0);
  o[7] = t.shfl(v, 0);
  o[8] = t.shfl_up(v, 1);
  o[9] = (long long)t.ballot(t.thread_rank() % 2 == 0);
  o[10] = t.any(t.thread_rank() == 1);
  o[11] = t.all(t.thread_rank() < N);
  o[12] = cg::reduce(t, v, cg::plus<int>());
  o[13] = cg::reduce(t, v, cg::greater<int>());
  t.sync();
  cg::sync(t);
  if constexpr (N >= 4) {
    cg::thread_block_tile<N / 4> s = cg::tiled_partition<N / 4>(t);
    o[14] = s.thread_rank();
    o[15] = s.meta_group_rank();
  } else {
    o[14] = -1;
    o[15] = -1;
  }
}

template <unsigned N>
void check_tile() {
  long long* out;
  gpuMalloc(&out, sizeof(long long) * F * B);
  tile_kernel<N><<<1, B>>>(out);
  gpuSync();
  for (int r = 0; r < B; ++r) {
    const long long* o = out + r * F;
    const int tr = r % N, base = r - tr;
    auto v = [](int x) { return x * 3 + 1; };
    CHECK_EQ(o[0], r, "N=%u rank", N);
    CHECK_EQ(o[1], B, "N=%u block size", N);
    CHECK_EQ(o[2], tr, "N=%u r=%d tile rank", N, r);
    CHECK_EQ(o[3], r / N, "N=%u r=%d meta rank", N, r);
    CHECK_EQ(o[4], B / N, "N=%u meta size", N);
    CHECK_EQ(o[5], tr + 1 < (int)N ? v(r + 1) : v(r), "N=%u r=%d shfl_down", N, r);
    CHECK_EQ(o[6], v(base + (tr ^ (N / 2))), "N=%u r=%d shfl_xor", N, r);
    CHECK_EQ(o[7], v(base), "N=%u r=%d shfl(0)", N, r);
    CHECK_EQ(o[8], tr >= 1 ? v(r - 1) : v(r), "N=%u r=%d shfl_up", N, r);
    unsigned long long even = 0;
    for (unsigned i = 0; i < N; i += 2) even |= 1ull << i;
    CHECK_EQ((unsigned long long)o[9], even, "N=%u r=%d ballot", N, r);
    CHECK_EQ(o[10], N > 1 ? 1 : 0, "N=%u any", N);
    CHECK_EQ(o[11], 1, "N=%u all", N);
    long long sum = 0;
    for (unsigned i = 0; i < N; ++i) sum += v(base + (int)i);
    CHECK_EQ(o[12], sum, "N=%u r=%d reduce plus", N, r);
    CHECK_EQ(o[13], v(base + (int)N - 1), "N=%u r=%d reduce greater", N, r);
    if (N >= 4) {
      CHECK_EQ(o[14], tr % (N / 4), "N=%u r=%d subtile rank", N, r);
      CHECK_EQ(o[15], tr / (N / 4), "N=%u r=%d subtile meta rank (within the parent tile)", N, r);
    }
  }
  gpuFree(out);
}

// A tile wider than the wavefront: a barrier over its lanes, a reduction through lane slots.
template <unsigned N>
__global__ void wide_tile_kernel(const int* in, int* sums, int* order_ok) {
  __shared__ cg::block_tile_memory<B> scratch;
  cg::thread_block cta = cg::this_thread_block(scratch);
  cg::thread_block_tile<N> t = cg::tiled_partition<N>(cta);
  __shared__ int stage[B];
  const int r = cta.thread_rank();
  // Writes by one wavefront of the tile must be seen by the others after the tile's sync.
  stage[r] = in[r];
  t.sync();
  const int mirror = t.meta_group_rank() * N + (N - 1 - t.thread_rank());
  order_ok[r] = stage[mirror] == in[mirror];
  sums[r] = cg::reduce(t, in[r], cg::plus<int>());
}

template <unsigned N>
void check_wide_tile() {
  int *in, *sums, *ok;
  gpuMalloc(&in, sizeof(int) * B);
  gpuMalloc(&sums, sizeof(int) * B);
  gpuMalloc(&ok, sizeof(int) * B);
  for (int i = 0; i < B; ++i) in[i] = (i * 37) % 101;
  wide_tile_kernel<N><<<2, B>>>(in, sums, ok);
  gpuSync();
  for (int r = 0; r < B; ++r) {
    int sum = 0;
    for (int i = r / N * N; i < r / N * N + (int)N; ++i) sum += in[i];
    CHECK_EQ(sums[r], sum, "wide tile N=%u r=%d reduce", N, r);
    CHECK_EQ(ok[r], 1, "wide tile N=%u r=%d: a write before sync() is seen after it", N, r);
  }
  gpuFree(in);
  gpuFree(sums);
  gpuFree(ok);
}

// Runtime-sized groups and coalesced groups in diverged code.
__device__ int group_rank(cg::thread_group g) { return g.thread_rank(); }

__global__ void dynamic_kernel(int* out) {
  cg::thread_block cta = cg::this_thread_block();
  const int r = cta.thread_rank();
  cg::thread_group g8 = cg::tiled_partition(cta, 8);
  out[r * 8 + 0] = g8.thread_rank();
  out[r * 8 + 1] = g8.size();
  out[r * 8 + 2] = group_rank(cta);
  g8.sync();
  if (r % 3 == 0) {  // a third of the lanes
    cg::coalesced_group a = cg::coalesced_threads();
    out[r * 8 + 3] = a.size();
    out[r * 8 + 4] = a.thread_rank();
    out[r * 8 + 5] = a.shfl(r, 0);
    out[r * 8 + 6] = a.shfl_down(r, 1);
#if defined(W64_TEST_CUDA)
    out[r * 8 + 7] = cg::reduce(a, 1, cg::plus<int>());
#else
    out[r * 8 + 7] = a.size();  // HIP: no cg::reduce over a coalesced group
#endif
  } else {
    for (int k = 3; k < 8; ++k) out[r * 8 + k] = -1;
  }
}

void check_dynamic() {
  int* out;
  gpuMalloc(&out, sizeof(int) * 8 * B);
  dynamic_kernel<<<1, B>>>(out);
  gpuSync();
  for (int r = 0; r < B; ++r) {
    const int* o = out + r * 8;
    CHECK_EQ(o[0], r % 8, "thread_group(8) rank r=%d", r);
    CHECK_EQ(o[1], 8, "thread_group(8) size");
    CHECK_EQ(o[2], r, "thread_block as thread_group");
    if (r % 3) continue;
    const int wbase = r / W * W;
    std::vector<int> members;
    for (int l = wbase; l < wbase + W; ++l)
      if (l % 3 == 0) members.push_back(l);
    int rank = 0;
    while (members[rank] != r) ++rank;
    CHECK_EQ(o[3], (int)members.size(), "coalesced size r=%d", r);
    CHECK_EQ(o[4], rank, "coalesced rank r=%d", r);
    CHECK_EQ(o[5], members[0], "coalesced shfl(0) r=%d", r);
    CHECK_EQ(o[6], rank + 1 < (int)members.size() ? members[rank + 1] : r, "coalesced shfl_down r=%d", r);
    CHECK_EQ(o[7], (int)members.size(), "coalesced reduce r=%d", r);
  }
  gpuFree(out);
}

// labeled_partition / binary_partition (warpAggregatedAtomicsCG's pattern): a coalesced group of
// the odd lanes split by label (lane % 3), and a tile of 16 split by a predicate.
__global__ void labeled_kernel(int* out) {
  const int r = threadIdx.x;
  for (int k = 0; k < 6; ++k) out[r * 6 + k] = -1;
  if (r % 2) {
    cg::coalesced_group odd = cg::coalesced_threads();
    cg::coalesced_group g = cg::labeled_partition(odd, r % 3);
    out[r * 6 + 0] = g.size();
    out[r * 6 + 1] = g.thread_rank();
    out[r * 6 + 2] = g.shfl(r, 0);
#if defined(W64_TEST_CUDA)
    out[r * 6 + 3] = cg::reduce(g, r, cg::greater<int>());
#else
    out[r * 6 + 3] = g.shfl(r, g.size() - 1);
#endif
  }
  cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
  cg::coalesced_group h = cg::binary_partition(t, r % 4 == 0);
  out[r * 6 + 4] = h.size();
  out[r * 6 + 5] = h.shfl(r, 0);
}

void check_labeled() {
  int* out;
  gpuMalloc(&out, sizeof(int) * 6 * B);
  labeled_kernel<<<1, B>>>(out);
  gpuSync();
  for (int r = 0; r < B; ++r) {
    const int* o = out + r * 6;
    if (r % 2) {
      const int wbase = r / W * W;
      std::vector<int> members;
      for (int l = wbase; l < wbase + W; ++l)
        if (l % 2 && l % 3 == r % 3) members.push_back(l);
      int rank = 0;
      while (members[rank] != r) ++rank;
      CHECK_EQ(o[0], (int)members.size(), "labeled size r=%d", r);
      CHECK_EQ(o[1], rank, "labeled rank r=%d", r);
      CHECK_EQ(o[2], members[0], "labeled shfl(0) r=%d", r);
      CHECK_EQ(o[3], members.back(), "labeled reduce (max) r=%d", r);
    } else {
      CHECK_EQ(o[0], -1, "labeled: even lane r=%d", r);
    }
    const int tbase = r / 16 * 16;
    const bool mine = r % 4 == 0;
    int first = -1, count = 0;
    for (int l = tbase; l < tbase + 16; ++l)
      if ((l % 4 == 0) == mine) {
        if (first < 0) first = l;
        ++count;
      }
    CHECK_EQ(o[4], count, "binary size r=%d", r);
    CHECK_EQ(o[5], first, "binary shfl(0) r=%d", r);
  }
  gpuFree(out);
}

int main() {
  check_tile<1>();
  check_tile<2>();
  check_tile<4>();
  check_tile<8>();
  check_tile<16>();
  check_tile<32>();
#if !defined(W64_TEST_CUDA)
  if constexpr (W == 64) check_tile<64>();
#endif
#if defined(W64_TEST_CUDA)
  check_wide_tile<2 * W>();  // HIP allows no tile wider than the wavefront
  check_wide_tile<B>();
#endif
  check_dynamic();
  check_labeled();
  char name[64];
  std::snprintf(name, sizeof name, "coop_groups (wave %d)", W);
  return finish(name);
}

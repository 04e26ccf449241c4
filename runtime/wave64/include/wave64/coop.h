// wave64 runtime: cooperative groups (<cooperative_groups.h>, <hip/hip_cooperative_groups.h>).
//
// What is modelled: thread_block (this_thread_block), thread_block_tile<N> (tiled_partition<N>)
// with thread_rank/size/num_threads/meta_group_rank/meta_group_size, sync, shfl, shfl_up,
// shfl_down, shfl_xor, ballot, any, all; thread_group (tiled_partition(parent, n)); coalesced_group
// (coalesced_threads) with shfl/shfl_up/shfl_down/ballot/any/all; cg::reduce with plus, less,
// greater, bit_and, bit_or, bit_xor (CUDA only: HIP has none); block_tile_memory; memcpy_async + wait (done at once);
// grid_group's ranks and sizes, and grid_group::sync() in a cooperative launch (every block on its
// own OS thread at once). A tile no wider than the wavefront is a segment of it: its
// shuffles are the wavefront's shuffles at width N, so a thread_block_tile<32> on a 64-lane
// wavefront is two independent tiles, as on AMD hardware. A tile wider than the wavefront (CUDA's
// multi-warp tiles) syncs with a barrier over its lanes and reduces through per-lane slots; it
// has no shuffles or votes (CUDA has none either); HIP allows no tile wider than the wavefront.
//
// labeled_partition / binary_partition of a coalesced group or a tile no wider than the wavefront.
// What is not: multi-grid groups (multi-device launches): they stop the program
// with a message when called.
//
// The API (HIP or CUDA, set by the front header) decides the ballot type: 32-bit in CUDA, 64-bit
// in HIP. Every warp operation takes its call site from default arguments like the intrinsics.
#pragma once

#include <type_traits>

#include "wave64/device.h"

#if defined(W64_API_HIP)
#define W64_CG_SHFL_IDX ::w64::rt::Shfl::HipIdx
#define W64_CG_SHFL_UP ::w64::rt::Shfl::HipUp
#define W64_CG_SHFL_DOWN ::w64::rt::Shfl::HipDown
#define W64_CG_SHFL_XOR ::w64::rt::Shfl::HipXor
#elif defined(W64_API_CUDA)
#define W64_CG_SHFL_IDX ::w64::rt::Shfl::CudaIdx
#define W64_CG_SHFL_UP ::w64::rt::Shfl::CudaUp
#define W64_CG_SHFL_DOWN ::w64::rt::Shfl::CudaDown
#define W64_CG_SHFL_XOR ::w64::rt::Shfl::CudaXor
#else
#error "wave64 runtime: include <hip/hip_runtime.h> or <cuda_runtime.h> before cooperative groups"
#endif

namespace cooperative_groups {

namespace w64_detail {
#if defined(W64_API_HIP)
using lane_mask = unsigned long long;
#else
using lane_mask = unsigned int;
#endif

inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
inline unsigned block_rank() { return ::w64::rt::t_lane->linear; }
inline unsigned wave_lane() { return ::w64::rt::t_lane->lane; }

template <class T>
inline T shuffle(T v, ::w64::rt::Shfl kind, int arg, int width, ::w64::Site s) {
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 16,
                "wave64 runtime: a value shuffled in a cooperative group must be trivially copyable and at "
                "most 16 bytes");
  T out;
  ::w64::rt::shuffle(&v, &out, sizeof(T), kind, arg, width, s);
  return out;
}

inline std::uint64_t wave_ballot(int pred, ::w64::Site s) { return ::w64::rt::vote(::w64::rt::Vote::Ballot, pred, s); }
inline void wave_sync(::w64::Site s) { (void)::w64::rt::vote(::w64::rt::Vote::Sync, 0, s); }

[[noreturn]] inline void unsupported(const char* what) {
  char msg[160];
  snprintf(msg, sizeof msg, "cooperative groups: %s is not supported by the wave64 CPU runtime", what);
  ::w64::trap(msg);
}

// Reduction over `count` lanes from `first` (a tile wider than the wavefront): every lane
// publishes its value, the tile meets, every lane folds the values in lane order, the tile
// meets again before a slot may be reused.
template <class T, class Op>
inline T slot_reduce(T v, Op op, unsigned first, unsigned count) {
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 16,
                "wave64 runtime: cg::reduce over a tile wider than the wavefront takes values of at most 16 bytes");
  std::memcpy(::w64::rt::lane_slot(block_rank()), &v, sizeof(T));
  ::w64::rt::tile_barrier(first, count);
  const unsigned end = std::min(first + count, block_threads());
  T acc;
  std::memcpy(&acc, ::w64::rt::lane_slot(first), sizeof(T));
  for (unsigned i = first + 1; i < end; ++i) {
    T x;
    std::memcpy(&x, ::w64::rt::lane_slot(i), sizeof(T));
    acc = op(acc, x);
  }
  ::w64::rt::tile_barrier(first, count);
  return acc;
}
}  // namespace w64_detail

// ---- a group whose size is known at run time ---------------------------------------------------
class thread_group {
 public:
  // size 0: the whole block.
  explicit thread_group(unsigned tile_size = 0) : size_(tile_size) {}
  unsigned size() const { return size_ ? size_ : w64_detail::block_threads(); }
  unsigned num_threads() const { return size(); }
  unsigned thread_rank() const { return size_ ? w64_detail::block_rank() % size_ : w64_detail::block_rank(); }
  bool is_valid() const { return true; }
  void sync(W64_SITE_PARAM) const {
    if (!size_) __syncthreads();
    else if (size_ <= static_cast<unsigned>(W64_WAVE_SIZE)) w64_detail::wave_sync(w64_site);
    else ::w64::rt::tile_barrier(w64_detail::block_rank() / size_ * size_, size_);
  }

 protected:
  unsigned size_;
};

// ---- the thread block ---------------------------------------------------------------------------
template <unsigned MaxBlockSize = 1024>
struct block_tile_memory {
  alignas(16) unsigned char reserved[16];
};

class thread_block : public thread_group {
 public:
  thread_block() : thread_group(0) {}
  static void sync() { __syncthreads(); }
  static unsigned size() { return w64_detail::block_threads(); }
  static unsigned num_threads() { return size(); }
  static unsigned thread_rank() { return w64_detail::block_rank(); }
  static bool is_valid() { return true; }
  static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static dim3 group_dim() { return blockDim; }
  static dim3 dim_threads() { return blockDim; }
};

inline thread_block this_thread_block() { return thread_block(); }
template <unsigned N>
inline thread_block this_thread_block(block_tile_memory<N>&) {
  return thread_block();
}

// ---- the grid --------------------------------------------------------------------------------------
class grid_group {
 public:
  static unsigned long long size() {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z * w64_detail::block_threads();
  }
  static unsigned long long num_threads() { return size(); }
  static unsigned long long thread_rank() {
    const unsigned long long b =
        blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                         (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
    return b * w64_detail::block_threads() + w64_detail::block_rank();
  }
  static unsigned long long block_rank() { return thread_rank() / w64_detail::block_threads(); }
  static unsigned long long num_blocks() { return size() / w64_detail::block_threads(); }
  static dim3 group_dim() { return gridDim; }
  static dim3 dim_blocks() { return gridDim; }
  static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  // In a cooperative launch (cudaLaunchCooperativeKernel) every block runs at once, each on its
  // own OS thread: sync() is a barrier over the grid. Elsewhere it stops the program.
  static bool is_valid() { return ::w64::rt::in_cooperative_launch(); }
  static void sync() { ::w64::rt::grid_sync(); }
};
inline grid_group this_grid() { return grid_group(); }

// ---- tiles of a compile-time size -----------------------------------------------------------------
template <unsigned N, class Parent = void>
class thread_block_tile;

template <unsigned N>
class thread_block_tile<N, void> {
  static_assert(N > 0 && (N & (N - 1)) == 0, "cooperative groups: a tile size must be a power of two");
  static_assert(N <= 1024, "cooperative groups: a tile holds at most 1024 threads");
#if defined(W64_API_HIP)
  static_assert(N <= static_cast<unsigned>(W64_WAVE_SIZE),
                "cooperative groups (HIP): a tile size must not be greater than the wavefront size");
#endif
  static constexpr bool kInWave = N <= static_cast<unsigned>(W64_WAVE_SIZE);

 public:
  thread_block_tile()
      : meta_rank_(w64_detail::block_rank() / N), meta_size_((w64_detail::block_threads() + N - 1) / N) {}
  thread_block_tile(unsigned meta_rank, unsigned meta_size) : meta_rank_(meta_rank), meta_size_(meta_size) {}
  operator thread_group() const { return thread_group(N); }

  static constexpr unsigned size() { return N; }
  static constexpr unsigned num_threads() { return N; }
  static unsigned thread_rank() { return w64_detail::block_rank() % N; }
  unsigned meta_group_rank() const { return meta_rank_; }
  unsigned meta_group_size() const { return meta_size_; }
  static bool is_valid() { return true; }

  void sync(W64_SITE_PARAM) const {
    if constexpr (kInWave) w64_detail::wave_sync(w64_site);
    else ::w64::rt::tile_barrier(w64_detail::block_rank() / N * N, N);
  }

  template <class T>
  T shfl(T v, int src_rank, W64_SITE_PARAM) const {
    static_assert(kInWave, "cooperative groups: shuffles need a tile no wider than the wavefront");
    return w64_detail::shuffle(v, W64_CG_SHFL_IDX, src_rank, static_cast<int>(N), w64_site);
  }
  template <class T>
  T shfl_up(T v, unsigned delta, W64_SITE_PARAM) const {
    static_assert(kInWave, "cooperative groups: shuffles need a tile no wider than the wavefront");
    return w64_detail::shuffle(v, W64_CG_SHFL_UP, static_cast<int>(delta), static_cast<int>(N), w64_site);
  }
  template <class T>
  T shfl_down(T v, unsigned delta, W64_SITE_PARAM) const {
    static_assert(kInWave, "cooperative groups: shuffles need a tile no wider than the wavefront");
    return w64_detail::shuffle(v, W64_CG_SHFL_DOWN, static_cast<int>(delta), static_cast<int>(N), w64_site);
  }
  template <class T>
  T shfl_xor(T v, unsigned mask, W64_SITE_PARAM) const {
    static_assert(kInWave, "cooperative groups: shuffles need a tile no wider than the wavefront");
    return w64_detail::shuffle(v, W64_CG_SHFL_XOR, static_cast<int>(mask), static_cast<int>(N), w64_site);
  }
  // This tile's bits of the wavefront's ballot, tile rank 0 in bit 0.
  w64_detail::lane_mask ballot(int pred, W64_SITE_PARAM) const {
    static_assert(kInWave, "cooperative groups: votes need a tile no wider than the wavefront");
    const std::uint64_t b = w64_detail::wave_ballot(pred, w64_site);
    const unsigned base = w64_detail::wave_lane() / N * N;
    const std::uint64_t bits = N >= 64 ? b : (b >> base) & ((1ull << N) - 1);
    return static_cast<w64_detail::lane_mask>(bits);
  }
  int any(int pred, W64_SITE_PARAM) const { return ballot(pred, w64_file, w64_line, w64_col) != 0; }
  int all(int pred, W64_SITE_PARAM) const { return ballot(!pred, w64_file, w64_line, w64_col) == 0; }

 private:
  unsigned meta_rank_;
  unsigned meta_size_;
};

template <unsigned N, class Parent>
class thread_block_tile : public thread_block_tile<N, void> {
 public:
  using thread_block_tile<N, void>::thread_block_tile;
  thread_block_tile(const thread_block_tile<N, void>& t) : thread_block_tile<N, void>(t) {}
};

template <unsigned N, class Parent>
inline thread_block_tile<N, Parent> tiled_partition(const Parent& parent) {
  if constexpr (std::is_same<Parent, thread_block>::value) {
    (void)parent;
    return thread_block_tile<N, Parent>();
  } else {
    const unsigned p = parent.size();  // a tile of a tile: meta ranks count within the parent
    return thread_block_tile<N, Parent>(static_cast<unsigned>(parent.thread_rank()) / N, (p + N - 1) / N);
  }
}

inline thread_group tiled_partition(const thread_group& parent, unsigned tile_size) {
  if (tile_size == 0 || (tile_size & (tile_size - 1)) != 0 || tile_size > parent.size())
    w64_detail::unsupported("tiled_partition with a size that is not a power of two no larger than the parent");
  return thread_group(tile_size);
}

// ---- the active lanes of a wavefront ---------------------------------------------------------------
class coalesced_group {
 public:
  explicit coalesced_group(std::uint64_t mask) : mask_(mask) {}
  unsigned size() const { return static_cast<unsigned>(__builtin_popcountll(mask_)); }
  unsigned num_threads() const { return size(); }
  unsigned thread_rank() const {
    const unsigned l = w64_detail::wave_lane();
    return static_cast<unsigned>(__builtin_popcountll(mask_ & ((1ull << l) - 1)));
  }
  unsigned meta_group_rank() const { return 0; }
  unsigned meta_group_size() const { return 1; }
  bool is_valid() const { return mask_ != 0; }
  void sync(W64_SITE_PARAM) const { w64_detail::wave_sync(w64_site); }
  // The group's lanes of the wavefront (bit i: lane i); not a CUDA member.
  std::uint64_t w64_lanes() const { return mask_; }

  template <class T>
  T shfl(T v, int src_rank, W64_SITE_PARAM) const {
    return w64_detail::shuffle(v, W64_CG_SHFL_IDX, lane_of(static_cast<unsigned>(src_rank) % size()), W64_WAVE_SIZE,
                               w64_site);
  }
  template <class T>
  T shfl_down(T v, unsigned delta, W64_SITE_PARAM) const {
    const unsigned r = thread_rank() + delta;
    const int src = r < size() ? lane_of(r) : static_cast<int>(w64_detail::wave_lane());
    return w64_detail::shuffle(v, W64_CG_SHFL_IDX, src, W64_WAVE_SIZE, w64_site);
  }
  template <class T>
  T shfl_up(T v, unsigned delta, W64_SITE_PARAM) const {
    const unsigned r = thread_rank();
    const int src = r >= delta ? lane_of(r - delta) : static_cast<int>(w64_detail::wave_lane());
    return w64_detail::shuffle(v, W64_CG_SHFL_IDX, src, W64_WAVE_SIZE, w64_site);
  }
  // Ballot bits packed by rank (bit i: the group's thread of rank i).
  w64_detail::lane_mask ballot(int pred, W64_SITE_PARAM) const {
    const std::uint64_t b = w64_detail::wave_ballot(pred, w64_site) & mask_;
    std::uint64_t packed = 0;
    unsigned i = 0;
    for (std::uint64_t m = mask_; m; m &= m - 1, ++i)
      if (b >> __builtin_ctzll(m) & 1) packed |= 1ull << i;
    return static_cast<w64_detail::lane_mask>(packed);
  }
  int any(int pred, W64_SITE_PARAM) const { return (w64_detail::wave_ballot(pred, w64_site) & mask_) != 0; }
  int all(int pred, W64_SITE_PARAM) const { return (w64_detail::wave_ballot(!pred, w64_site) & mask_) == 0; }

 private:
  int lane_of(unsigned rank) const {
    std::uint64_t m = mask_;
    for (unsigned i = 0; i < rank; ++i) m &= m - 1;
    return m ? __builtin_ctzll(m) : 0;
  }
  std::uint64_t mask_;
};

inline coalesced_group coalesced_threads(W64_SITE_PARAM) {
  return coalesced_group(::w64::rt::vote(::w64::rt::Vote::Active, 1, w64_site));
}

// labeled_partition / binary_partition: the threads of a coalesced group or of a tile (no wider
// than the wavefront) that pass the same label, as a coalesced group. Every thread of the parent
// calls it; the lanes with the same label are found as __match_any_sync does.
namespace w64_detail {
inline std::uint64_t group_lanes(const coalesced_group& g) { return g.w64_lanes(); }
template <unsigned N, class Parent>
inline std::uint64_t group_lanes(const thread_block_tile<N, Parent>&) {
  static_assert(N <= static_cast<unsigned>(W64_WAVE_SIZE),
                "wave64 runtime: labeled_partition / binary_partition of a tile wider than the wavefront is not "
                "modelled");
  const unsigned base = wave_lane() / N * N;
  return (N >= 64 ? ~0ull : ((1ull << N) - 1)) << base;
}
}  // namespace w64_detail
template <class Group>
inline coalesced_group labeled_partition(const Group& g, unsigned long long label, W64_SITE_PARAM) {
  const std::uint64_t same = ::w64::rt::match(&label, sizeof label, false, nullptr, w64_site);
  return coalesced_group(same & w64_detail::group_lanes(g));
}
template <class Group>
inline coalesced_group binary_partition(const Group& g, bool pred, W64_SITE_PARAM) {
  return labeled_partition(g, pred ? 1ull : 0ull, w64_file, w64_line, w64_col);
}

// ---- free functions -----------------------------------------------------------------------------------
template <class Group>
inline void sync(const Group& g, W64_SITE_PARAM) {
  if constexpr (std::is_same<Group, thread_block>::value || std::is_same<Group, grid_group>::value) g.sync();
  else g.sync(w64_file, w64_line, w64_col);
}
template <class Group>
inline unsigned long long thread_rank(const Group& g) {
  return g.thread_rank();
}
template <class Group>
inline unsigned long long group_size(const Group& g) {
  return g.size();
}

// ---- reductions (cooperative_groups/reduce.h): CUDA only. HIP's cooperative groups have no
// cg::reduce; `ferry migrate --to hip` writes ferry/compat/coop_reduce.h for ports that use it,
// and the runtime runs that header like any HIP code. ------------------------------------------
#if defined(W64_API_CUDA)
template <class T>
struct plus {
  T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T>
struct less {
  T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T>
struct bit_or {
  T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T>
struct bit_xor {
  T operator()(const T& a, const T& b) const { return a ^ b; }
};

// Every lane of the tile gets op folded over the tile's values: a butterfly of xor shuffles in a
// tile no wider than the wavefront, per-lane slots in a wider one.
template <unsigned N, class Parent, class T, class Op>
inline T reduce(const thread_block_tile<N, Parent>& tile, T v, Op op, W64_SITE_PARAM) {
  if constexpr (N <= static_cast<unsigned>(W64_WAVE_SIZE)) {
    for (unsigned d = N / 2; d > 0; d /= 2) v = op(v, tile.shfl_xor(v, d, w64_file, w64_line, w64_col));
    return v;
  } else {
    (void)tile;
    return w64_detail::slot_reduce(v, op, w64_detail::block_rank() / N * N, N);
  }
}
template <class T, class Op>
inline T reduce(const coalesced_group& g, T v, Op op, W64_SITE_PARAM) {
  const unsigned n = g.size();
  const unsigned r = g.thread_rank();
  // A tree over ranks: after the round of stride d, rank r (a multiple of 2d) holds its 2d values.
  for (unsigned d = 1; d < n; d *= 2) {
    const T other = g.shfl_down(v, d, w64_file, w64_line, w64_col);
    if (r % (2 * d) == 0 && r + d < n) v = op(v, other);
  }
  return g.shfl(v, 0, w64_file, w64_line, w64_col);
}
#endif  // W64_API_CUDA

// ---- asynchronous copies (cooperative_groups/memcpy_async.h): done at once by rank 0 -------------------
template <class Group>
inline void memcpy_async(const Group& g, void* dst, const void* src, std::size_t bytes) {
  if (g.thread_rank() == 0) std::memcpy(dst, src, bytes);
}
template <class Group>
inline void wait(const Group& g, W64_SITE_PARAM) {
  sync(g, w64_file, w64_line, w64_col);
}
template <unsigned Stage, class Group>
inline void wait_prior(const Group& g, W64_SITE_PARAM) {
  sync(g, w64_file, w64_line, w64_col);
}

}  // namespace cooperative_groups

// wave64 runtime: a collective model of warp matrix fragments (CUDA's nvcuda::wmma, rocWMMA), so
// that WMMA code can be run at 64 lanes and the one-warp-per-wavefront fix proven
// (docs/wave64.md, "WMMA").
//
// What it models: a fragment belongs to the whole wavefront (warp). Each lane holds
// size / wavefront elements of it (element e of the fragment's row-major order in lane
// e % wave, slot e / wave); load_matrix_sync and store_matrix_sync move each lane's own
// elements through the pointer and stride *that lane* passes, so lanes that pass different
// pointers build the mixed tile they build on hardware; mma_sync gathers every lane's elements of
// A and B with shuffles (a wave barrier at one call site; a lane of a partial wavefront that does
// not exist contributes zeros, as ds_bpermute reads from an inactive lane) and each lane computes
// its elements of D = A * B + C, accumulating in k order (in float for half and float fragments,
// double for double, 64-bit integers for integer ones). In region form (regions.h) mma_sync is
// one step per wavefront: every lane's A, B and C elements are read in place, the whole tile is
// computed in one loop, and each lane's elements of D written back (same order of operations).
// What it does not model: rocWMMA's and CUDA's real element-to-lane layouts (code that reads
// `.x[t]` assuming a row or column gets other elements here; element-wise code is right), the
// rounding of the matrix cores, and the element types other than half, float, double and the
// integer ones.
#pragma once

#include <cstring>
#include <type_traits>

#include "wave64/device.h"
#include "wave64/fp16.h"
#include "wave64/regions.h"
#include "wave64/warp_shuffle.h"

namespace w64::wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

template <class Use, int M, int N, int K>
struct fragment_shape;
template <int M, int N, int K>
struct fragment_shape<matrix_a, M, N, K> {
  static constexpr int rows = M, cols = K;
};
template <int M, int N, int K>
struct fragment_shape<matrix_b, M, N, K> {
  static constexpr int rows = K, cols = N;
};
template <int M, int N, int K>
struct fragment_shape<accumulator, M, N, K> {
  static constexpr int rows = M, cols = N;
};

template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
 public:
  static constexpr int rows = fragment_shape<Use, M, N, K>::rows;
  static constexpr int cols = fragment_shape<Use, M, N, K>::cols;
  static_assert((rows * cols) % W64_WAVE_SIZE == 0, "wave64 runtime: a fragment must spread evenly over the wavefront");
  static constexpr int num_elements = rows * cols / W64_WAVE_SIZE;
  using element_type = T;
  T x[num_elements];
};

// The (row, col) of slot t of the calling lane.
template <class F>
inline void element_at(int t, int& r, int& c) {
  const int e = static_cast<int>(rt::t_lane->lane) + W64_WAVE_SIZE * t;
  r = e / F::cols;
  c = e % F::cols;
}
inline std::size_t offset(int r, int c, unsigned ld, bool row_major) {
  return row_major ? static_cast<std::size_t>(r) * ld + c : r + static_cast<std::size_t>(c) * ld;
}

template <class Use, int M, int N, int K, class T, class L, class V>
inline void fill_fragment(fragment<Use, M, N, K, T, L>& f, const V& v) {
  for (int t = 0; t < f.num_elements; ++t) f.x[t] = static_cast<T>(v);
}

// matrix_a / matrix_b: the layout is the fragment's
template <class Use, int M, int N, int K, class T, class L, class P>
inline void load_matrix_sync(fragment<Use, M, N, K, T, L>& f, const P* p, unsigned ld) {
  static_assert(!std::is_void<L>::value, "wave64 runtime: an accumulator load needs a layout_t");
  using F = fragment<Use, M, N, K, T, L>;
  for (int t = 0; t < F::num_elements; ++t) {
    int r, c;
    element_at<F>(t, r, c);
    f.x[t] = static_cast<T>(p[offset(r, c, ld, std::is_same<L, row_major>::value)]);
  }
}
template <int M, int N, int K, class T, class P>
inline void load_matrix_sync(fragment<accumulator, M, N, K, T, void>& f, const P* p, unsigned ld, layout_t l) {
  using F = fragment<accumulator, M, N, K, T, void>;
  for (int t = 0; t < F::num_elements; ++t) {
    int r, c;
    element_at<F>(t, r, c);
    f.x[t] = static_cast<T>(p[offset(r, c, ld, l == mem_row_major)]);
  }
}
template <int M, int N, int K, class T, class P>
inline void store_matrix_sync(P* p, const fragment<accumulator, M, N, K, T, void>& f, unsigned ld, layout_t l) {
  using F = fragment<accumulator, M, N, K, T, void>;
  for (int t = 0; t < F::num_elements; ++t) {
    int r, c;
    element_at<F>(t, r, c);
    p[offset(r, c, ld, l == mem_row_major)] = static_cast<P>(f.x[t]);
  }
}

// What a product accumulates in: float for half and float, double for double, 64 bits for
// integer fragments (the matrix cores' 32-bit sums, without their overflow).
template <class T>
using acc_t =
    typename std::conditional<std::is_integral<T>::value, long long,
                              typename std::conditional<std::is_same<T, double>::value, double, float>::type>::type;

// Every element of a fragment, gathered from the lanes of the wavefront (16 bytes a shuffle).
template <class F, class Acc>
inline void gather(const F& f, Acc* all, rt::Shfl kind) {
  using T = typename F::element_type;
  constexpr int bytes = static_cast<int>(sizeof(T)) * F::num_elements;
  for (int src = 0; src < W64_WAVE_SIZE; ++src) {
    unsigned char lane_bytes[bytes];
    for (int off = 0; off < bytes; off += 16) {
      struct Chunk {
        unsigned char b[16];
      } in{}, out{};
      const int n = bytes - off < 16 ? bytes - off : 16;
      std::memcpy(in.b, reinterpret_cast<const unsigned char*>(f.x) + off, static_cast<std::size_t>(n));
      out = ::w64::shuffle(in, kind, src, W64_WAVE_SIZE, Site{"<wmma mma_sync>", 0, 0});
      std::memcpy(lane_bytes + off, out.b, static_cast<std::size_t>(n));
    }
    for (int t = 0; t < F::num_elements; ++t) {
      T v;
      std::memcpy(&v, lane_bytes + t * sizeof(T), sizeof(T));
      all[src + W64_WAVE_SIZE * t] = static_cast<Acc>(v);
    }
  }
}

template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC, class TD>
inline void mma_sync_as(fragment<accumulator, M, N, K, TD, void>& d, const fragment<matrix_a, M, N, K, TA, LA>& a,
                        const fragment<matrix_b, M, N, K, TB, LB>& b, const fragment<accumulator, M, N, K, TC, void>& c,
                        rt::Shfl kind) {
  using Acc = acc_t<TD>;
  Acc av[M * K], bv[K * N];
  gather(a, av, kind);
  gather(b, bv, kind);
  using F = fragment<accumulator, M, N, K, TD, void>;
  for (int t = 0; t < F::num_elements; ++t) {
    int r, col;
    element_at<F>(t, r, col);
    Acc s = static_cast<Acc>(c.x[t]);
    for (int k = 0; k < K; ++k) s += av[r * K + k] * bv[k * N + col];
    d.x[t] = static_cast<TD>(s);
  }
}

// Region form: one wavefront's mma_sync, its lanes' operands read in place (args: d, a, b, c
// per lane). A lane that did not reach it, or is past a partial wavefront's end, contributes
// zeros, as on the fiber path; its D is left alone.
template <class D, class A, class B, class C>
void mma_wave(void* const* args, const rt::RegionRec* recs, unsigned count) {
  constexpr int M = D::rows, N = D::cols, K = A::cols;
  constexpr int W = W64_WAVE_SIZE;
  using Acc = acc_t<typename D::element_type>;
  alignas(64) Acc av[M * K] = {}, bv[K * N] = {}, cd[M * N] = {};
  bool any = false;
  for (unsigned l = 0; l < count; ++l) {
    if (!recs[l].active) continue;
    any = true;
    const A& a = *static_cast<const A*>(args[4 * l + 1]);
    const B& b = *static_cast<const B*>(args[4 * l + 2]);
    const C& c = *static_cast<const C*>(args[4 * l + 3]);
    for (int t = 0; t < A::num_elements; ++t) av[l + W * t] = static_cast<Acc>(a.x[t]);
    for (int t = 0; t < B::num_elements; ++t) bv[l + W * t] = static_cast<Acc>(b.x[t]);
    for (int t = 0; t < C::num_elements; ++t) cd[l + W * t] = static_cast<Acc>(c.x[t]);
  }
  if (!any) return;
  // cd[r][col] = c + a[r][0] * b[0][col] + a[r][1] * b[1][col] + ... : each element's sums in k
  // order, as mma_sync_as adds them; the loop over col vectorizes.
  for (int r = 0; r < M; ++r)
    for (int k = 0; k < K; ++k) {
      const Acc x = av[r * K + k];
      for (int col = 0; col < N; ++col) cd[r * N + col] += x * bv[k * N + col];
    }
  for (unsigned l = 0; l < count; ++l) {
    if (!recs[l].active) continue;
    D& d = *static_cast<D*>(args[4 * l]);
    for (int t = 0; t < D::num_elements; ++t) d.x[t] = static_cast<typename D::element_type>(cd[l + W * t]);
  }
}

// The names both public APIs (nvcuda::wmma in cuda/mma.h, rocwmma in hip/rocwmma/rocwmma.hpp)
// take as they are; each adds its own mma_sync, which shuffles as its API does.
namespace api {
using ::w64::wmma::accumulator;
using ::w64::wmma::col_major;
using ::w64::wmma::fill_fragment;
using ::w64::wmma::fragment;
using ::w64::wmma::layout_t;
using ::w64::wmma::load_matrix_sync;
using ::w64::wmma::matrix_a;
using ::w64::wmma::matrix_b;
using ::w64::wmma::mem_col_major;
using ::w64::wmma::mem_row_major;
using ::w64::wmma::row_major;
using ::w64::wmma::store_matrix_sync;
}  // namespace api

}  // namespace w64::wmma

namespace w64::rg {
// `mma_sync(d, a, b, c)` in region form (src/wave64/region_split.cpp writes the call): lane l's
// operands are recorded; the slot's run computes each wavefront (wmma::mma_wave). Both APIs'
// mma_sync (CUDA's and rocWMMA's) compute the same elements.
template <class D, class A, class B, class C>
inline void mma_sync(Slot& s, unsigned l, D& d, const A& a, const B& b, const C& c) {
  s.collective(l, &d, &a, &b, &c, &::w64::wmma::mma_wave<D, A, B, C>);
}
}  // namespace w64::rg

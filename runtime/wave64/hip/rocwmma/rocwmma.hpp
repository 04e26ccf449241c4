// wave64 runtime: rocWMMA's fragments, modelled collectively over the wavefront
// (wave64/wmma.h says what is modelled and what not; docs/wave64.md, "WMMA").
#pragma once

#include "hip/hip_runtime.h"
#include "wave64/wmma.h"

namespace rocwmma {
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
template <class D, class A, class B, class C>
inline void mma_sync(D& d, const A& a, const B& b, const C& c) {
  ::w64::wmma::mma_sync_as(d, a, b, c, ::w64::rt::Shfl::HipIdx);
}
}  // namespace rocwmma

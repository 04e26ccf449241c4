// wave64 runtime: rocWMMA's fragments, modelled collectively over the wavefront
// (wave64/wmma.h says what is modelled and what not; docs/wave64.md, "WMMA").
#pragma once

#include "hip/hip_runtime.h"
#include "wave64/wmma.h"

namespace rocwmma {
using namespace ::w64::wmma::api;
template <class D, class A, class B, class C>
inline void mma_sync(D& d, const A& a, const B& b, const C& c) {
  ::w64::wmma::mma_sync_as(d, a, b, c, ::w64::rt::Shfl::HipIdx);
}
}  // namespace rocwmma

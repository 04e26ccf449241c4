// wave64 runtime: CUDA's warp intrinsics (the CUDA 9 _sync forms), at a warp of 32 lanes.
// A mask that does not name the calling lane is reported once per call site (undefined in CUDA).
#pragma once

#include "wave64/device.h"
#include "wave64/warp_shuffle.h"

static_assert(W64_WAVE_SIZE == 32,
              "wave64 runtime: CUDA code runs with 32-lane warps (W64_WAVE_SIZE=32); "
              "run the HIP port for 64-lane wavefronts");

template <class T>
inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize, W64_SITE_PARAM) {
  ::w64::rt::check_mask(mask, w64_site);
  return ::w64::shuffle(var, ::w64::rt::Shfl::CudaIdx, src_lane, width, w64_site);
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = warpSize, W64_SITE_PARAM) {
  ::w64::rt::check_mask(mask, w64_site);
  return ::w64::shuffle(var, ::w64::rt::Shfl::CudaUp, static_cast<int>(delta), width, w64_site);
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width = warpSize, W64_SITE_PARAM) {
  ::w64::rt::check_mask(mask, w64_site);
  return ::w64::shuffle(var, ::w64::rt::Shfl::CudaDown, static_cast<int>(delta), width, w64_site);
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize, W64_SITE_PARAM) {
  ::w64::rt::check_mask(mask, w64_site);
  return ::w64::shuffle(var, ::w64::rt::Shfl::CudaXor, lane_mask, width, w64_site);
}
inline unsigned __ballot_sync(unsigned mask, int predicate, W64_SITE_PARAM) {
  ::w64::rt::check_mask(mask, w64_site);
  return static_cast<unsigned>(::w64::rt::vote(::w64::rt::Vote::Ballot, predicate, w64_site));
}
inline int __any_sync(unsigned mask, int predicate, W64_SITE_PARAM) {
  ::w64::rt::check_mask(mask, w64_site);
  return static_cast<int>(::w64::rt::vote(::w64::rt::Vote::Any, predicate, w64_site));
}
inline int __all_sync(unsigned mask, int predicate, W64_SITE_PARAM) {
  ::w64::rt::check_mask(mask, w64_site);
  return static_cast<int>(::w64::rt::vote(::w64::rt::Vote::All, predicate, w64_site));
}
inline int __uni_sync(unsigned mask, int predicate, W64_SITE_PARAM) {
  ::w64::rt::check_mask(mask, w64_site);
  const auto b = ::w64::rt::vote(::w64::rt::Vote::Ballot, predicate, w64_site);
  return b == 0 || b == ::w64::rt::vote(::w64::rt::Vote::Active, 1, w64_site);
}
inline unsigned __activemask(W64_SITE_PARAM) {
  return static_cast<unsigned>(::w64::rt::vote(::w64::rt::Vote::Active, 1, w64_site));
}
inline void __syncwarp(unsigned mask = 0xffffffffu, W64_SITE_PARAM) {
  ::w64::rt::check_mask(mask, w64_site);
  ::w64::rt::vote(::w64::rt::Vote::Sync, 0, w64_site);
}
template <class T>
inline unsigned __match_any_sync(unsigned mask, T value, W64_SITE_PARAM) {
  static_assert(std::is_integral<T>::value || std::is_floating_point<T>::value, "__match_any_sync needs a number");
  ::w64::rt::check_mask(mask, w64_site);
  return static_cast<unsigned>(::w64::rt::match(&value, sizeof value, false, nullptr, w64_site));
}
template <class T>
inline unsigned __match_all_sync(unsigned mask, T value, int* pred, W64_SITE_PARAM) {
  static_assert(std::is_integral<T>::value || std::is_floating_point<T>::value, "__match_all_sync needs a number");
  ::w64::rt::check_mask(mask, w64_site);
  return static_cast<unsigned>(::w64::rt::match(&value, sizeof value, true, pred, w64_site));
}

// The pre-CUDA-9 forms without a mask (deprecated, removed for sm_70 and later by nvcc, still in
// older programs): the same operations over the lanes that reach them.
template <class T>
inline T __shfl(T var, int src_lane, int width = warpSize, W64_SITE_PARAM) {
  return ::w64::shuffle(var, ::w64::rt::Shfl::CudaIdx, src_lane, width, w64_site);
}
template <class T>
inline T __shfl_up(T var, unsigned int delta, int width = warpSize, W64_SITE_PARAM) {
  return ::w64::shuffle(var, ::w64::rt::Shfl::CudaUp, static_cast<int>(delta), width, w64_site);
}
template <class T>
inline T __shfl_down(T var, unsigned int delta, int width = warpSize, W64_SITE_PARAM) {
  return ::w64::shuffle(var, ::w64::rt::Shfl::CudaDown, static_cast<int>(delta), width, w64_site);
}
template <class T>
inline T __shfl_xor(T var, int lane_mask, int width = warpSize, W64_SITE_PARAM) {
  return ::w64::shuffle(var, ::w64::rt::Shfl::CudaXor, lane_mask, width, w64_site);
}
inline unsigned __ballot(int predicate, W64_SITE_PARAM) {
  return static_cast<unsigned>(::w64::rt::vote(::w64::rt::Vote::Ballot, predicate, w64_site));
}
inline int __any(int predicate, W64_SITE_PARAM) {
  return static_cast<int>(::w64::rt::vote(::w64::rt::Vote::Any, predicate, w64_site));
}
inline int __all(int predicate, W64_SITE_PARAM) {
  return static_cast<int>(::w64::rt::vote(::w64::rt::Vote::All, predicate, w64_site));
}

#define W64_REDUCE(name, T, op)                                                                                   \
  inline T name(unsigned mask, T value, W64_SITE_PARAM) {                                                         \
    ::w64::rt::check_mask(mask, w64_site);                                                                        \
    return static_cast<T>(::w64::rt::reduce(::w64::rt::Reduce::op, static_cast<std::uint32_t>(value), w64_site)); \
  }
W64_REDUCE(__reduce_add_sync, unsigned, AddU)
W64_REDUCE(__reduce_add_sync, int, AddU)
W64_REDUCE(__reduce_min_sync, unsigned, MinU)
W64_REDUCE(__reduce_min_sync, int, MinS)
W64_REDUCE(__reduce_max_sync, unsigned, MaxU)
W64_REDUCE(__reduce_max_sync, int, MaxS)
W64_REDUCE(__reduce_and_sync, unsigned, And)
W64_REDUCE(__reduce_or_sync, unsigned, Or)
W64_REDUCE(__reduce_xor_sync, unsigned, Xor)
#undef W64_REDUCE

// ---- region form (regions.h): the same intrinsics, storing each lane's arguments ------------
// `::w64::rg::NAME(slot, lane, args...)` is what the driver's region pass writes for `NAME(args...)`
// at the end of a region; the slot's run() then computes every lane's result.
namespace w64::rg {
#define W64_RG_SHFL(name, kind, T2)                                                                           \
  template <class T>                                                                                          \
  inline void name(Slot& s, unsigned l, unsigned mask, T var, T2 arg, int width = warpSize, W64_SITE_PARAM) { \
    s.check_mask(mask, l, w64_site);                                                                          \
    s.shuffle(l, var, rt::Shfl::kind, static_cast<int>(arg), width, w64_site);                                \
  }
W64_RG_SHFL(__shfl_sync, CudaIdx, int)
W64_RG_SHFL(__shfl_up_sync, CudaUp, unsigned int)
W64_RG_SHFL(__shfl_down_sync, CudaDown, unsigned int)
W64_RG_SHFL(__shfl_xor_sync, CudaXor, int)
#undef W64_RG_SHFL
#define W64_RG_SHFL(name, kind, T2)                                                            \
  template <class T>                                                                           \
  inline void name(Slot& s, unsigned l, T var, T2 arg, int width = warpSize, W64_SITE_PARAM) { \
    s.shuffle(l, var, rt::Shfl::kind, static_cast<int>(arg), width, w64_site);                 \
  }
W64_RG_SHFL(__shfl, CudaIdx, int)
W64_RG_SHFL(__shfl_up, CudaUp, unsigned int)
W64_RG_SHFL(__shfl_down, CudaDown, unsigned int)
W64_RG_SHFL(__shfl_xor, CudaXor, int)
#undef W64_RG_SHFL
#define W64_RG_VOTE(name, kind)                                                         \
  inline void name(Slot& s, unsigned l, unsigned mask, int predicate, W64_SITE_PARAM) { \
    s.check_mask(mask, l, w64_site);                                                    \
    s.vote(l, predicate, rt::Vote::kind, w64_site);                                     \
  }
W64_RG_VOTE(__ballot_sync, Ballot)
W64_RG_VOTE(__any_sync, Any)
W64_RG_VOTE(__all_sync, All)
#undef W64_RG_VOTE
#define W64_RG_VOTE(name, kind)                                          \
  inline void name(Slot& s, unsigned l, int predicate, W64_SITE_PARAM) { \
    s.vote(l, predicate, rt::Vote::kind, w64_site);                      \
  }
W64_RG_VOTE(__ballot, Ballot)
W64_RG_VOTE(__any, Any)
W64_RG_VOTE(__all, All)
#undef W64_RG_VOTE
inline void __activemask(Slot& s, unsigned l, W64_SITE_PARAM) { s.vote(l, 1, rt::Vote::Active, w64_site); }
inline void __syncwarp(Slot& s, unsigned l, unsigned mask = 0xffffffffu, W64_SITE_PARAM) {
  s.check_mask(mask, l, w64_site);
  s.vote(l, 0, rt::Vote::Sync, w64_site);
}
}  // namespace w64::rg

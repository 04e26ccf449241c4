// wave64 runtime: HIP's warp (wavefront) intrinsics. Shuffles follow the HIP 5.2 headers
// (ds_bpermute: the source index wraps modulo the wavefront, an inactive source reads 0);
// __ballot and __activemask are 64-bit whatever the wave size. The _sync forms are the ones of
// HIP >= 6.2, which insist on a 64-bit mask.
#pragma once

#include "wave64/device.h"
#include "wave64/warp_shuffle.h"

namespace w64 {
template <class M>
inline void hip_check_mask(M mask, Site s) {
  static_assert(std::is_integral<M>::value && sizeof(M) == 8,
                "wave64 runtime (HIP): the mask of a _sync warp intrinsic must be a 64-bit integer, as in "
                "HIP >= 6.2; a 32-bit mask such as 0xffffffff names lanes 0-31 only");
  rt::check_mask(static_cast<std::uint64_t>(mask), s);
}
}  // namespace w64

#define W64_SITE_HERE (::w64::Site{__FILE__, static_cast<unsigned>(__LINE__), 0u})

template <class T>
inline T __shfl(T var, int src_lane, int width = warpSize, W64_SITE_PARAM) {
  return ::w64::shuffle(var, ::w64::rt::Shfl::HipIdx, src_lane, width, w64_site);
}
template <class T>
inline T __shfl_up(T var, unsigned int lane_delta, int width = warpSize, W64_SITE_PARAM) {
  return ::w64::shuffle(var, ::w64::rt::Shfl::HipUp, static_cast<int>(lane_delta), width, w64_site);
}
template <class T>
inline T __shfl_down(T var, unsigned int lane_delta, int width = warpSize, W64_SITE_PARAM) {
  return ::w64::shuffle(var, ::w64::rt::Shfl::HipDown, static_cast<int>(lane_delta), width, w64_site);
}
template <class T>
inline T __shfl_xor(T var, int lane_mask, int width = warpSize, W64_SITE_PARAM) {
  return ::w64::shuffle(var, ::w64::rt::Shfl::HipXor, lane_mask, width, w64_site);
}
inline int __any(int predicate, W64_SITE_PARAM) {
  return static_cast<int>(::w64::rt::vote(::w64::rt::Vote::Any, predicate, w64_site));
}
inline int __all(int predicate, W64_SITE_PARAM) {
  return static_cast<int>(::w64::rt::vote(::w64::rt::Vote::All, predicate, w64_site));
}
inline unsigned long long __ballot(int predicate, W64_SITE_PARAM) {
  return ::w64::rt::vote(::w64::rt::Vote::Ballot, predicate, w64_site);
}
inline unsigned long long __ballot64(int predicate, W64_SITE_PARAM) {
  return ::w64::rt::vote(::w64::rt::Vote::Ballot, predicate, w64_site);
}
inline unsigned long long __activemask(W64_SITE_PARAM) { return ::w64::rt::vote(::w64::rt::Vote::Active, 1, w64_site); }
inline unsigned int __lane_id() { return ::w64::rt::t_lane->lane; }

// HIP's bit-field builtins (amd_device_functions.h): WIDTH bits of SRC from bit OFFSET, both
// taken modulo the word size, 0 for width 0; the insert replaces those bits of SRC0 by the low
// bits of SRC1. (rocm-examples' bit_extract.)
inline unsigned int __bitextract_u32(unsigned int src, unsigned int offset, unsigned int width) {
  offset &= 31u;
  width &= 31u;
  return width == 0 ? 0u : (src >> offset) & ((1u << width) - 1u);
}
inline unsigned long long __bitextract_u64(unsigned long long src, unsigned int offset, unsigned int width) {
  offset &= 63u;
  width &= 63u;
  return width == 0 ? 0ull : (src >> offset) & ((1ull << width) - 1ull);
}
inline unsigned int __bitinsert_u32(unsigned int src0, unsigned int src1, unsigned int offset, unsigned int width) {
  offset &= 31u;
  width &= 31u;
  const unsigned int mask = (1u << width) - 1u;
  return (src0 & ~(mask << offset)) | ((src1 & mask) << offset);
}
inline unsigned long long __bitinsert_u64(unsigned long long src0, unsigned long long src1, unsigned int offset,
                                          unsigned int width) {
  offset &= 63u;
  width &= 63u;
  const unsigned long long mask = (1ull << width) - 1ull;
  return (src0 & ~(mask << offset)) | ((src1 & mask) << offset);
}

// HIP >= 6.2: the _sync forms (64-bit masks only).
template <class M, class T>
inline T __shfl_sync(M mask, T var, int src_lane, int width = warpSize, W64_SITE_PARAM) {
  ::w64::hip_check_mask(mask, w64_site);
  return ::w64::shuffle(var, ::w64::rt::Shfl::HipIdx, src_lane, width, w64_site);
}
template <class M, class T>
inline T __shfl_up_sync(M mask, T var, unsigned int lane_delta, int width = warpSize, W64_SITE_PARAM) {
  ::w64::hip_check_mask(mask, w64_site);
  return ::w64::shuffle(var, ::w64::rt::Shfl::HipUp, static_cast<int>(lane_delta), width, w64_site);
}
template <class M, class T>
inline T __shfl_down_sync(M mask, T var, unsigned int lane_delta, int width = warpSize, W64_SITE_PARAM) {
  ::w64::hip_check_mask(mask, w64_site);
  return ::w64::shuffle(var, ::w64::rt::Shfl::HipDown, static_cast<int>(lane_delta), width, w64_site);
}
template <class M, class T>
inline T __shfl_xor_sync(M mask, T var, int lane_mask, int width = warpSize, W64_SITE_PARAM) {
  ::w64::hip_check_mask(mask, w64_site);
  return ::w64::shuffle(var, ::w64::rt::Shfl::HipXor, lane_mask, width, w64_site);
}
template <class M>
inline unsigned long long __ballot_sync(M mask, int predicate, W64_SITE_PARAM) {
  ::w64::hip_check_mask(mask, w64_site);
  return ::w64::rt::vote(::w64::rt::Vote::Ballot, predicate, w64_site);
}
template <class M>
inline int __any_sync(M mask, int predicate, W64_SITE_PARAM) {
  ::w64::hip_check_mask(mask, w64_site);
  return static_cast<int>(::w64::rt::vote(::w64::rt::Vote::Any, predicate, w64_site));
}
template <class M>
inline int __all_sync(M mask, int predicate, W64_SITE_PARAM) {
  ::w64::hip_check_mask(mask, w64_site);
  return static_cast<int>(::w64::rt::vote(::w64::rt::Vote::All, predicate, w64_site));
}

// The AMDGPU builtins HIP code (and Ferry's __syncwarp rewrite) uses.
#define __builtin_amdgcn_wave_barrier() ((void)::w64::rt::vote(::w64::rt::Vote::Sync, 0, W64_SITE_HERE))
#define __builtin_amdgcn_fence(order, scope) __atomic_thread_fence(order)
#define __builtin_amdgcn_s_barrier() __syncthreads()
#define __builtin_amdgcn_wavefrontsize() warpSize
#define __builtin_amdgcn_ds_bpermute(addr, v) __shfl((v), (addr) >> 2)
#define __builtin_amdgcn_readfirstlane(v) __shfl((v), __builtin_ctzll(__activemask()))
#define __builtin_amdgcn_mbcnt_lo(mask, acc) \
  (static_cast<unsigned>(acc) +              \
   static_cast<unsigned>(                    \
       __builtin_popcount(static_cast<unsigned>(mask) & ((__lane_id() >= 32) ? ~0u : ((1u << __lane_id()) - 1u)))))
#define __builtin_amdgcn_mbcnt_hi(mask, acc) \
  (static_cast<unsigned>(acc) +              \
   static_cast<unsigned>(__builtin_popcount( \
       static_cast<unsigned>(mask) &         \
       ((__lane_id() < 32) ? 0u : ((__lane_id() == 63) ? 0x7fffffffu : ((1u << (__lane_id() - 32)) - 1u))))))
#define __builtin_amdgcn_s_sleep(n) ((void)0)
#define __builtin_amdgcn_s_memtime() clock64()

// ---- region form (regions.h): the same intrinsics, storing each lane's arguments ------------
// `::w64::rg::NAME(slot, lane, args...)` is what the driver's region pass writes for `NAME(args...)`
// at the end of a region; the slot's run() then computes every lane's result.
namespace w64::rg {
#define W64_RG_SHFL(name, kind, T2)                                                            \
  template <class T>                                                                           \
  inline void name(Slot& s, unsigned l, T var, T2 arg, int width = warpSize, W64_SITE_PARAM) { \
    s.shuffle(l, var, rt::Shfl::kind, static_cast<int>(arg), width, w64_site);                 \
  }
W64_RG_SHFL(__shfl, HipIdx, int)
W64_RG_SHFL(__shfl_up, HipUp, unsigned int)
W64_RG_SHFL(__shfl_down, HipDown, unsigned int)
W64_RG_SHFL(__shfl_xor, HipXor, int)
#undef W64_RG_SHFL
template <class M>
inline void hip_region_mask(Slot& s, unsigned l, M mask, Site site) {
  static_assert(std::is_integral<M>::value && sizeof(M) == 8,
                "wave64 runtime (HIP): the mask of a _sync warp intrinsic must be a 64-bit integer, as in "
                "HIP >= 6.2; a 32-bit mask such as 0xffffffff names lanes 0-31 only");
  s.check_mask(static_cast<std::uint64_t>(mask), l, site);
}
#define W64_RG_SHFL(name, kind, T2)                                                                    \
  template <class M, class T>                                                                          \
  inline void name(Slot& s, unsigned l, M mask, T var, T2 arg, int width = warpSize, W64_SITE_PARAM) { \
    hip_region_mask(s, l, mask, w64_site);                                                             \
    s.shuffle(l, var, rt::Shfl::kind, static_cast<int>(arg), width, w64_site);                         \
  }
W64_RG_SHFL(__shfl_sync, HipIdx, int)
W64_RG_SHFL(__shfl_up_sync, HipUp, unsigned int)
W64_RG_SHFL(__shfl_down_sync, HipDown, unsigned int)
W64_RG_SHFL(__shfl_xor_sync, HipXor, int)
#undef W64_RG_SHFL
#define W64_RG_VOTE(name, kind)                                          \
  inline void name(Slot& s, unsigned l, int predicate, W64_SITE_PARAM) { \
    s.vote(l, predicate, rt::Vote::kind, w64_site);                      \
  }
W64_RG_VOTE(__ballot, Ballot)
W64_RG_VOTE(__ballot64, Ballot)
W64_RG_VOTE(__any, Any)
W64_RG_VOTE(__all, All)
#undef W64_RG_VOTE
#define W64_RG_VOTE(name, kind)                                                  \
  template <class M>                                                             \
  inline void name(Slot& s, unsigned l, M mask, int predicate, W64_SITE_PARAM) { \
    hip_region_mask(s, l, mask, w64_site);                                       \
    s.vote(l, predicate, rt::Vote::kind, w64_site);                              \
  }
W64_RG_VOTE(__ballot_sync, Ballot)
W64_RG_VOTE(__any_sync, Any)
W64_RG_VOTE(__all_sync, All)
#undef W64_RG_VOTE
inline void __activemask(Slot& s, unsigned l, W64_SITE_PARAM) { s.vote(l, 1, rt::Vote::Active, w64_site); }
}  // namespace w64::rg

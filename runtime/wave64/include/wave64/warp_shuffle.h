// wave64 runtime: the one typed shuffle under both APIs' warp intrinsics (warp_cuda.h, warp_hip.h):
// any trivially copyable value of at most 16 bytes moves between lanes as bytes (rt::shuffle).
#pragma once

#include "wave64/device.h"

namespace w64 {
template <class T>
inline T shuffle(T v, rt::Shfl k, int arg, int width, Site s) {
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 16,
                "wave64 runtime: a shuffled value must be trivially copyable and at most 16 bytes");
  T out;
  rt::shuffle(&v, &out, sizeof(T), k, arg, width, s);
  return out;
}
}  // namespace w64

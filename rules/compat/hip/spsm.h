// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/spsm.h.
// cuSPARSE's SpSM under hipSPARSE: cusparseSpSM_solve takes 10 arguments and uses the buffer given
// to cusparseSpSM_analysis (the descriptor keeps it); hipsparseSpSM_solve takes that buffer as an
// 11th argument (ROCm 4.5 to 6.2 at least; rocSPARSE's solve stage needs it, and 6.x refuses a
// null one). ferry_hipsparseSpSM_analysis remembers the buffer of each descriptor and
// ferry_hipsparseSpSM_solve passes it on; the arguments are forwarded unchanged, so either
// release's parameter types apply (6.x's const descriptors included).
// Define FERRY_COMPAT_NO_SPSM if your hipSPARSE's hipsparseSpSM_solve takes cuSPARSE's arguments.
#pragma once
#include <hipsparse/hipsparse.h>

#include <mutex>
#include <tuple>
#include <unordered_map>

#if !defined(FERRY_COMPAT_NO_SPSM)
namespace ferry_compat_spsm {
struct Buffers {
  std::mutex mutex;
  std::unordered_map<const void*, void*> by_descr;
};
inline Buffers& buffers() {
  static Buffers b;  // one for the program: an inline function's static is shared by every unit
  return b;
}
}  // namespace ferry_compat_spsm

template <class... A>
inline hipsparseStatus_t ferry_hipsparseSpSM_analysis(A... a) {
  static_assert(sizeof...(A) == 11, "cusparseSpSM_analysis takes 11 arguments");
  const auto t = std::make_tuple(a...);
  {
    ferry_compat_spsm::Buffers& b = ferry_compat_spsm::buffers();
    const std::lock_guard<std::mutex> lock(b.mutex);
    b.by_descr[static_cast<const void*>(std::get<9>(t))] = static_cast<void*>(std::get<10>(t));
  }
  return hipsparseSpSM_analysis(a...);
}

template <class... A>
inline hipsparseStatus_t ferry_hipsparseSpSM_solve(A... a) {
  static_assert(sizeof...(A) == 10, "cusparseSpSM_solve takes 10 arguments");
  const auto t = std::make_tuple(a...);
  void* buffer = nullptr;
  {
    ferry_compat_spsm::Buffers& b = ferry_compat_spsm::buffers();
    const std::lock_guard<std::mutex> lock(b.mutex);
    const auto it = b.by_descr.find(static_cast<const void*>(std::get<9>(t)));
    if (it != b.by_descr.end()) buffer = it->second;
  }
  return hipsparseSpSM_solve(a..., buffer);  // no analysis seen: null, which hipSPARSE reports
}
#endif  // FERRY_COMPAT_NO_SPSM

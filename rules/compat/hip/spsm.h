// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/spsm.h.
// cuSPARSE's SpSM under hipSPARSE: cusparseSpSM_solve takes 10 arguments and uses the buffer given
// to cusparseSpSM_analysis (the descriptor keeps it); hipsparseSpSM_solve takes that buffer as an
// 11th argument (ROCm 4.5 to 6.2 at least; rocSPARSE's solve stage needs it, and 6.x refuses a
// null one). ferry_hipsparseSpSM_analysis remembers the buffer of each (descriptor, matrix) pair
// and ferry_hipsparseSpSM_solve passes it on; the arguments are forwarded unchanged, so either
// release's parameter types apply (6.x's const descriptors included). hipSPARSE before 6.0 creates
// no SpSM descriptor (createDescr does nothing), so the descriptor alone cannot tell two solves
// apart: the matrix does.
// Define FERRY_COMPAT_NO_SPSM if your hipSPARSE's hipsparseSpSM_solve takes cuSPARSE's arguments.
#pragma once
#include <hipsparse/hipsparse.h>

#include <mutex>
#include <tuple>
#include <unordered_map>
#include <utility>

#if !defined(FERRY_COMPAT_NO_SPSM)
namespace ferry_compat_spsm {
struct PairHash {
  std::size_t operator()(const std::pair<const void*, const void*>& k) const noexcept {
    return std::hash<const void*>()(k.first) * 31u ^ std::hash<const void*>()(k.second);
  }
};
struct Buffers {
  std::mutex mutex;
  std::unordered_map<std::pair<const void*, const void*>, void*, PairHash> by_descr_matrix;
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
    b.by_descr_matrix[{static_cast<const void*>(std::get<9>(t)), static_cast<const void*>(std::get<4>(t))}] =
        static_cast<void*>(std::get<10>(t));
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
    const auto it = b.by_descr_matrix.find(
        {static_cast<const void*>(std::get<9>(t)), static_cast<const void*>(std::get<4>(t))});
    if (it != b.by_descr_matrix.end()) buffer = it->second;
  }
  return hipsparseSpSM_solve(a..., buffer);  // no analysis seen: null, which hipSPARSE reports
}
#endif  // FERRY_COMPAT_NO_SPSM

// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/spsv.h.
// cuSPARSE's SpSV under hipSPARSE: cusparseSpSV_solve takes 9 arguments and uses the buffer given
// to cusparseSpSV_analysis; hipSPARSE's solve takes cuSPARSE's 9 from ROCm 6.0 (hipSPARSE 3.0),
// but 10 in ROCm 4.5 to 5.7 (hipSPARSE 1.x and 2.x), the 10th being that buffer (checked against
// the tags). For those releases ferry_hipsparseSpSV_analysis remembers the buffer of each
// (descriptor, matrix) pair and ferry_hipsparseSpSV_solve passes it on; from hipSPARSE 3.0 both
// forward unchanged. hipSPARSE before 6.0 creates no SpSV descriptor (createDescr does nothing),
// so the descriptor alone cannot tell two solves apart: the matrix does.
// The release is read from hipsparse-version.h, which hipsparse.h includes.
#pragma once
#include <hipsparse/hipsparse.h>

#include <mutex>
#include <tuple>
#include <unordered_map>
#include <utility>

#if defined(hipsparseVersionMajor) && hipsparseVersionMajor >= 3
template <class... A>
inline hipsparseStatus_t ferry_hipsparseSpSV_analysis(A... a) {
  static_assert(sizeof...(A) == 10, "cusparseSpSV_analysis takes 10 arguments");
  return hipsparseSpSV_analysis(a...);
}

template <class... A>
inline hipsparseStatus_t ferry_hipsparseSpSV_solve(A... a) {
  static_assert(sizeof...(A) == 9, "cusparseSpSV_solve takes 9 arguments");
  return hipsparseSpSV_solve(a...);
}
#else
namespace ferry_compat_spsv {
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
}  // namespace ferry_compat_spsv

template <class... A>
inline hipsparseStatus_t ferry_hipsparseSpSV_analysis(A... a) {
  static_assert(sizeof...(A) == 10, "cusparseSpSV_analysis takes 10 arguments");
  const auto t = std::make_tuple(a...);
  {
    ferry_compat_spsv::Buffers& b = ferry_compat_spsv::buffers();
    const std::lock_guard<std::mutex> lock(b.mutex);
    b.by_descr_matrix[{static_cast<const void*>(std::get<8>(t)), static_cast<const void*>(std::get<3>(t))}] =
        static_cast<void*>(std::get<9>(t));
  }
  return hipsparseSpSV_analysis(a...);
}

template <class... A>
inline hipsparseStatus_t ferry_hipsparseSpSV_solve(A... a) {
  static_assert(sizeof...(A) == 9, "cusparseSpSV_solve takes 9 arguments");
  const auto t = std::make_tuple(a...);
  void* buffer = nullptr;
  {
    ferry_compat_spsv::Buffers& b = ferry_compat_spsv::buffers();
    const std::lock_guard<std::mutex> lock(b.mutex);
    const auto it = b.by_descr_matrix.find(
        {static_cast<const void*>(std::get<8>(t)), static_cast<const void*>(std::get<3>(t))});
    if (it != b.by_descr_matrix.end()) buffer = it->second;
  }
  return hipsparseSpSV_solve(a..., buffer);  // no analysis seen: null, which hipSPARSE reports
}
#endif

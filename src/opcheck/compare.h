// Element-wise comparison of a candidate's output with the reference's, in double.
//
// An element passes when both are NaN, both are the same infinity, |got - ref| <= atol + rtol *
// |ref|, or (with an ULP tolerance) its ULP error is at most `ulp`. The ULP error is |got - ref|
// divided by the spacing of the output dtype at |ref| (ulp_spacing), so a reference computed in
// higher precision gives fractional ULPs: 0.5 is correct rounding. Integer outputs pass only when
// equal. The relative error divides by max(|ref|, atol) (by the smallest normal of the dtype when
// atol is 0), so values near zero do not blow it up.
#pragma once

#include <array>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "opcheck/dtype.h"
#include "opcheck/spec.h"

namespace ferry::opcheck {

struct ErrorStats {
  std::int64_t count = 0;
  std::int64_t mismatches = 0;  // elements outside the tolerance
  double max_abs = 0, mean_abs = 0, max_rel = 0;
  double ulp_p50 = 0, ulp_p99 = 0, ulp_max = 0;
  // ULP error in (lower, upper] buckets: 0 | <=0.5 | <=1 | <=2 | <=4 | <=16 | <=64 | more (and NaN)
  static constexpr std::array<double, 7> kUlpBuckets = {0, 0.5, 1, 2, 4, 16, 64};
  std::array<std::int64_t, 8> ulp_histogram{};
  std::int64_t first_mismatch = -1;  // flat index
  double first_ref = 0, first_got = 0;
  [[nodiscard]] bool pass() const { return mismatches == 0; }
};

// Throws std::invalid_argument when the element counts differ.
[[nodiscard]] ErrorStats compare_output(const HostTensor& ref, const HostTensor& got, DType out_dtype,
                                        const Tolerance& tol);

[[nodiscard]] nlohmann::json to_json(const ErrorStats& s);

}  // namespace ferry::opcheck

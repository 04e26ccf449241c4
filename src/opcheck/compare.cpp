#include "opcheck/compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace ferry::opcheck {

ErrorStats compare_output(const HostTensor& ref, const HostTensor& got, DType out_dtype, const Tolerance& tol) {
  if (ref.numel() != got.numel())
    throw std::invalid_argument("output '" + got.name + "': " + std::to_string(got.numel()) +
                                " elements, the reference has " + std::to_string(ref.numel()));
  ErrorStats s;
  s.count = ref.numel();
  const bool integer = !is_float(out_dtype);
  const double rel_floor = tol.atol > 0 ? tol.atol : smallest_normal(out_dtype);
  std::vector<double> ulps;
  ulps.reserve(static_cast<std::size_t>(s.count));
  double sum_abs = 0;
  for (std::int64_t i = 0; i < s.count; ++i) {
    const double r = ref.get(i), g = got.get(i);
    bool ok;
    double err, ulp;
    if (std::isnan(r) || std::isnan(g)) {
      ok = std::isnan(r) && std::isnan(g);
      err = ok ? 0 : std::numeric_limits<double>::infinity();
      ulp = ok ? 0 : std::numeric_limits<double>::infinity();
    } else if (std::isinf(r) || std::isinf(g)) {
      ok = r == g;
      err = ulp = ok ? 0 : std::numeric_limits<double>::infinity();
    } else {
      err = std::fabs(g - r);
      ulp = integer ? err : err / ulp_spacing(out_dtype, r);
      ok = integer ? err == 0 : (err <= tol.atol + tol.rtol * std::fabs(r) || (tol.ulp && ulp <= *tol.ulp));
      s.max_rel = std::max(s.max_rel, err / std::max(std::fabs(r), rel_floor));
    }
    if (!ok) {
      if (s.first_mismatch < 0) s.first_mismatch = i, s.first_ref = r, s.first_got = g;
      ++s.mismatches;
    }
    s.max_abs = std::max(s.max_abs, err);
    if (std::isfinite(err)) sum_abs += err;
    ulps.push_back(ulp);
    std::size_t b = 0;
    while (b < ErrorStats::kUlpBuckets.size() && !(ulp <= ErrorStats::kUlpBuckets[b])) ++b;
    ++s.ulp_histogram[b];
  }
  if (s.count > 0) {
    s.mean_abs = sum_abs / static_cast<double>(s.count);
    auto pct = [&](double q) {
      const auto k = static_cast<std::size_t>(
          std::min<double>(static_cast<double>(ulps.size() - 1), q * static_cast<double>(ulps.size() - 1) + 0.5));
      std::nth_element(ulps.begin(), ulps.begin() + static_cast<std::ptrdiff_t>(k), ulps.end());
      return ulps[k];
    };
    s.ulp_p50 = pct(0.5);
    s.ulp_p99 = pct(0.99);
    s.ulp_max = *std::max_element(ulps.begin(), ulps.end());
  }
  return s;
}

nlohmann::json to_json(const ErrorStats& s) {
  auto num = [](double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(std::isnan(v) ? "nan" : "inf");
  };
  nlohmann::json hist = nlohmann::json::object();
  static const char* kLabels[] = {"0", "<=0.5", "<=1", "<=2", "<=4", "<=16", "<=64", ">64"};
  for (std::size_t b = 0; b < s.ulp_histogram.size(); ++b) hist[kLabels[b]] = s.ulp_histogram[b];
  nlohmann::json j = {
      {"elements", s.count},
      {"mismatches", s.mismatches},
      {"pass", s.pass()},
      {"max_abs", num(s.max_abs)},
      {"mean_abs", num(s.mean_abs)},
      {"max_rel", num(s.max_rel)},
      {"ulp", {{"p50", num(s.ulp_p50)}, {"p99", num(s.ulp_p99)}, {"max", num(s.ulp_max)}, {"histogram", hist}}}};
  if (s.first_mismatch >= 0)
    j["first_mismatch"] = {{"index", s.first_mismatch}, {"reference", num(s.first_ref)}, {"got", num(s.first_got)}};
  return j;
}

}  // namespace ferry::opcheck

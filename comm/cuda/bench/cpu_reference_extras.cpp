// Only for the standalone build of the GPU benchmark (comm/bench/gpu_codecs.sh) where the full
// ferry-comm library (MPI, fmt, zfp) is not built: the one library helper the CPU eb codec calls,
// the same definition as comm/src/codecs/spec.cpp.
#include <cmath>

#include "../../src/codecs/codecs.hpp"

namespace ferry::comm::codec_detail {
double max_finite_abs(std::span<const float> x) {
  float m = 0;
  for (float v : x) {
    float a = std::fabs(v);
    if (a > m && std::isfinite(a)) m = a;
  }
  return m;
}
}  // namespace ferry::comm::codec_detail

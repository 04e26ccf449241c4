// Internal: constructors of the concrete codecs, one file each.
#pragma once

#include <cmath>
#include <memory>
#include <span>

#include "ferry/comm/codec.hpp"

namespace ferry::comm::codec_detail {

std::unique_ptr<Codec> make_cast(bool bf16);
std::unique_ptr<Codec> make_intq(int bits, std::size_t block);
std::unique_ptr<Codec> make_eb(double abs, double rel, std::size_t block, int zstd_level);
std::unique_ptr<Codec> make_zfp(double tol, double rel);

// Largest finite |x| (0 for none); used by the relative bounds (codecs and collectives).
inline double max_finite_abs(std::span<const float> x) {
  float m = 0;
  for (float v : x) {
    float a = std::fabs(v);
    if (a > m && std::isfinite(a)) m = a;
  }
  return m;
}

}  // namespace ferry::comm::codec_detail

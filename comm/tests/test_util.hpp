// Test helpers: deterministic data and the per-element error bound of a codec.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "ferry/comm/codec.hpp"

namespace ferry::comm::test {

inline std::vector<float> normal_data(std::size_t n, std::uint64_t seed, float sigma = 1.0f) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> d(0.0f, sigma);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

// Gradient-like data: normal values whose scale changes per "layer" of 4096 elements over 4 decades.
inline std::vector<float> gradient_data(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> d(0.0f, 1.0f);
  std::mt19937_64 layer_rng(12345);  // same layer scales on every rank
  std::uniform_real_distribution<float> e(-4.0f, 0.0f);
  std::vector<float> v(n);
  float scale = 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 4096 == 0) scale = std::pow(10.0f, e(layer_rng));
    v[i] = d(rng) * scale;
  }
  return v;
}

// Bound on |decompress(compress(x))[i] - x[i]| from the codec's error model; block maxima are
// taken over the aligned blocks the codec uses.
inline double element_bound(const ErrorModel& m, std::span<const float> x, std::size_t i) {
  double a = std::fabs(static_cast<double>(x[i]));
  switch (m.kind) {
    case ErrorModel::Kind::exact: return 0.0;
    case ErrorModel::Kind::relative: return m.u * a + m.abs_floor;
    case ErrorModel::Kind::absolute: {
      double mx = 0;
      if (m.rel_of_max > 0)
        for (float v : x)
          if (std::isfinite(v)) mx = std::max(mx, std::fabs(static_cast<double>(v)));
      return m.u + m.rel_of_max * mx;
    }
    case ErrorModel::Kind::block_relative: {
      std::size_t b0 = i / m.block * m.block, b1 = std::min(x.size(), b0 + m.block);
      double mx = 0;
      for (std::size_t k = b0; k < b1; ++k) mx = std::max(mx, std::fabs(static_cast<double>(x[k])));
      return mx / (2.0 * m.qmax) * (1 + std::ldexp(1.0, -14));
    }
  }
  return 0.0;
}

}  // namespace ferry::comm::test

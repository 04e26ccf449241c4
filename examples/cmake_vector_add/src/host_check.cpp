#include <cmath>
#include <cstddef>

// Host-side reference check: the number of elements where c != a + b.
std::size_t count_mismatches(const float* a, const float* b, const float* c, std::size_t n) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) bad += std::fabs(a[i] + b[i] - c[i]) > 1e-5f;
  return bad;
}

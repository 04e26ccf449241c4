#include "opcheck/inputs.h"

#include <cmath>
#include <cstdlib>
#include <numbers>
#include <stdexcept>

namespace ferry::opcheck {
namespace {

struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 0xcbf29ce484222325ull) {
  for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h;
}

double arg_value(const std::string& a, const OperatorSpec& op, const Dims& dims) {
  char* end = nullptr;
  const double v = std::strtod(a.c_str(), &end);
  if (*end == '\0') return v;
  for (const auto& [k, d] : dims)
    if (k == a) return static_cast<double>(d);
  for (const auto& [k, x] : op.attrs)
    if (k == a) return x;
  throw std::invalid_argument("init argument '" + a + "' is unknown");  // spec validation rules it out
}

}  // namespace

std::vector<std::int64_t> resolve_shape(const TensorSpec& t, const Dims& dims) {
  std::vector<std::int64_t> s;
  for (const std::string& d : t.shape) {
    bool found = false;
    for (const auto& [k, v] : dims)
      if (k == d) s.push_back(v), found = true;
    if (!found) s.push_back(std::stoll(d));
  }
  return s;
}

HostTensor make_input(const OperatorSpec& op, const TensorSpec& t, DType case_dtype, const Dims& dims,
                      std::uint64_t seed) {
  HostTensor h(t.name, t.dtype.value_or(case_dtype), resolve_shape(t, dims));
  SplitMix64 rng{fnv1a(t.name, fnv1a(op.name, seed * 0x9e3779b97f4a7c15ull + 1))};
  std::vector<double> a;
  for (const std::string& s : t.init.args) a.push_back(arg_value(s, op, dims));
  const std::int64_t n = h.numel();
  for (std::int64_t i = 0; i < n; ++i) {
    double v = 0;
    switch (t.init.kind) {
      case Init::Kind::uniform: v = a[0] + (a[1] - a[0]) * rng.uniform01(); break;
      case Init::Kind::normal: {
        const double u1 = 1.0 - rng.uniform01(), u2 = rng.uniform01();  // u1 in (0, 1]
        v = a[0] + a[1] * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
        break;
      }
      case Init::Kind::randint: {
        const auto lo = static_cast<std::int64_t>(a[0]), hi = static_cast<std::int64_t>(a[1]);
        const auto span = static_cast<std::uint64_t>(hi > lo ? hi - lo : 1);
        v = static_cast<double>(lo + static_cast<std::int64_t>(rng.next() % span));
        break;
      }
      case Init::Kind::arange: v = static_cast<double>(i); break;
      case Init::Kind::constant: v = a[0]; break;
    }
    h.set(i, is_float(h.dtype) ? static_cast<double>(static_cast<float>(v)) : v);
  }
  return h;
}

}  // namespace ferry::opcheck

#include "opcheck/dtype.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace ferry::opcheck {

std::optional<DType> parse_dtype(std::string_view s) {
  if (s == "fp32" || s == "float32" || s == "f32" || s == "float") return DType::f32;
  if (s == "fp16" || s == "float16" || s == "f16" || s == "half") return DType::f16;
  if (s == "bf16" || s == "bfloat16") return DType::bf16;
  if (s == "int32" || s == "i32") return DType::i32;
  if (s == "int64" || s == "i64") return DType::i64;
  if (s == "fp64" || s == "float64" || s == "f64" || s == "double") return DType::f64;
  return std::nullopt;
}

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::f32: return "fp32";
    case DType::f16: return "fp16";
    case DType::bf16: return "bf16";
    case DType::i32: return "int32";
    case DType::i64: return "int64";
    case DType::f64: return "fp64";
  }
  return "?";
}

std::size_t dtype_size(DType t) {
  switch (t) {
    case DType::f16:
    case DType::bf16: return 2;
    case DType::f32:
    case DType::i32: return 4;
    case DType::i64:
    case DType::f64: return 8;
  }
  return 0;
}

bool is_float(DType t) { return t != DType::i32 && t != DType::i64; }

int abi_code(DType t) {
  switch (t) {
    case DType::f32: return 0;
    case DType::f16: return 1;
    case DType::bf16: return 2;
    case DType::i32: return 3;
    case DType::i64: return 4;
    case DType::f64: return 5;
  }
  return -1;
}

std::uint16_t f32_to_f16_bits(float f) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  const std::uint16_t sign = static_cast<std::uint16_t>((u >> 16) & 0x8000u);
  const std::uint32_t abs = u & 0x7fffffffu;
  if (abs > 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7e00u);   // NaN
  if (abs >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds to inf
  if (abs < 0x38800000u) {  // below 2^-14: a subnormal half (or zero), multiples of 2^-24
    const float a = std::bit_cast<float>(abs);
    const double q = std::nearbyint(static_cast<double>(a) * 16777216.0);  // ties to even
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(q));
  }
  // Normal: drop 13 mantissa bits with round to nearest even; a carry moves into the exponent.
  const std::uint32_t rounded = abs + 0xfffu + ((abs >> 13) & 1u);
  return static_cast<std::uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

float f16_bits_to_f32(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    const float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  return std::bit_cast<float>(sign | ((exp + 112u) << 23) | (mant << 13));
}

std::uint16_t f32_to_bf16_bits(float f) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((u >> 16) | 0x40u);  // quiet NaN
  return static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

float bf16_bits_to_f32(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

double ulp_spacing(DType t, double x) {
  int mant_bits = 0, min_exp = 0;  // explicit mantissa bits; exponent of the smallest normal
  switch (t) {
    case DType::f16: mant_bits = 10, min_exp = -14; break;
    case DType::bf16: mant_bits = 7, min_exp = -126; break;
    case DType::f32: mant_bits = 23, min_exp = -126; break;
    case DType::f64: mant_bits = 52, min_exp = -1022; break;
    case DType::i32:
    case DType::i64: return 1.0;
  }
  const double a = std::fabs(x);
  int e = min_exp;
  if (a > 0 && std::isfinite(a)) e = std::max(std::ilogb(a), min_exp);
  return std::ldexp(1.0, e - mant_bits);
}

double smallest_normal(DType t) {
  switch (t) {
    case DType::f16: return std::ldexp(1.0, -14);
    case DType::bf16:
    case DType::f32: return std::ldexp(1.0, -126);
    case DType::f64: return std::ldexp(1.0, -1022);
    case DType::i32:
    case DType::i64: return 1.0;
  }
  return 1.0;
}

HostTensor::HostTensor(std::string n, DType t, std::vector<std::int64_t> s)
    : name(std::move(n)), dtype(t), shape(std::move(s)) {
  bytes.assign(static_cast<std::size_t>(numel()) * dtype_size(dtype), 0);
}

std::int64_t HostTensor::numel() const {
  std::int64_t n = 1;
  for (const std::int64_t d : shape) n *= d;
  return n;
}

double HostTensor::get(std::int64_t i) const {
  const unsigned char* p = bytes.data() + static_cast<std::size_t>(i) * dtype_size(dtype);
  switch (dtype) {
    case DType::f32: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case DType::f64: {
      double v;
      std::memcpy(&v, p, 8);
      return v;
    }
    case DType::f16: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return f16_bits_to_f32(v);
    }
    case DType::bf16: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return bf16_bits_to_f32(v);
    }
    case DType::i32: {
      std::int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case DType::i64: {
      std::int64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<double>(v);
    }
  }
  return 0;
}

void HostTensor::set(std::int64_t i, double v) {
  unsigned char* p = bytes.data() + static_cast<std::size_t>(i) * dtype_size(dtype);
  switch (dtype) {
    case DType::f32: {
      const float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
      return;
    }
    case DType::f64: std::memcpy(p, &v, 8); return;
    // double -> float -> half rounds twice; inputs are generated as floats, so this is exact
    // for them (and within half an ulp of the 16-bit format for anything else).
    case DType::f16: {
      const std::uint16_t h = f32_to_f16_bits(static_cast<float>(v));
      std::memcpy(p, &h, 2);
      return;
    }
    case DType::bf16: {
      const std::uint16_t h = f32_to_bf16_bits(static_cast<float>(v));
      std::memcpy(p, &h, 2);
      return;
    }
    case DType::i32: {
      const auto k = static_cast<std::int32_t>(v);
      std::memcpy(p, &k, 4);
      return;
    }
    case DType::i64: {
      const auto k = static_cast<std::int64_t>(v);
      std::memcpy(p, &k, 8);
      return;
    }
  }
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

}  // namespace ferry::opcheck

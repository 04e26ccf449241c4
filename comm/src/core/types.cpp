#include <bit>
#include <cmath>
#include <string>

#include "ferry/comm/types.hpp"

namespace ferry::comm {

std::size_t dtype_size(DType t) {
  switch (t) {
    case DType::f64:
    case DType::i64:
    case DType::u64: return 8;
    case DType::f32:
    case DType::i32:
    case DType::u32: return 4;
    case DType::bf16:
    case DType::f16: return 2;
    case DType::i8:
    case DType::u8: return 1;
  }
  return 0;
}

static constexpr std::string_view dtype_names[] = {"f32", "f64", "bf16", "f16", "i8", "u8", "i32", "u32", "i64", "u64"};

std::string_view dtype_name(DType t) { return dtype_names[static_cast<int>(t)]; }

DType parse_dtype(std::string_view name) {
  for (int i = 0; i < 10; ++i)
    if (dtype_names[i] == name) return static_cast<DType>(i);
  throw UsageError("unknown dtype '" + std::string(name) + "' (f32 f64 bf16 f16 i8 u8 i32 u32 i64 u64)");
}

std::string_view op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::max: return "max";
    case ReduceOp::min: return "min";
  }
  return "?";
}

std::uint16_t float_to_bf16(float f) {
  std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<std::uint16_t>((x >> 16) | 0x0040u);  // quiet NaN
  x += 0x7FFFu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>(x >> 16);
}

float bf16_to_float(std::uint16_t h) { return std::bit_cast<float>(static_cast<std::uint32_t>(h) << 16); }

std::uint16_t float_to_f16(float f) {
  std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  std::uint32_t sign = (x >> 16) & 0x8000u;
  std::uint32_t a = x & 0x7FFFFFFFu;
  if (a >= 0x7F800000u) return static_cast<std::uint16_t>(sign | (a > 0x7F800000u ? 0x7E00u : 0x7C00u));
  if (a >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // >= 65520 rounds to Inf
  if (a < 0x38800000u) {  // below 2^-14: half subnormal, step 2^-24; the scaling is exact
    float scaled = std::bit_cast<float>(a) * 16777216.0f;
    return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(std::nearbyint(scaled)));
  }
  a += 0xFFFu + ((a >> 13) & 1u);
  return static_cast<std::uint16_t>(sign | ((a - 0x38000000u) >> 13));
}

float f16_to_float(std::uint16_t h) {
  std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t e = (h >> 10) & 0x1Fu;
  std::uint32_t m = h & 0x3FFu;
  if (e == 0) {
    float v = static_cast<float>(m) * (1.0f / 16777216.0f);
    return sign ? -v : v;
  }
  if (e == 31) return std::bit_cast<float>(sign | 0x7F800000u | (m << 13));
  return std::bit_cast<float>(sign | ((e + 112u) << 23) | (m << 13));
}

}  // namespace ferry::comm

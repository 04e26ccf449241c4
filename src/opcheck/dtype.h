// Element types of `ferry opcheck` and what the harness needs from them: names in specs,
// sizes, exact conversions to and from double (fp16 and bf16 in software, rounding to nearest
// even), and the spacing of representable values (one unit in the last place) at a value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ferry::opcheck {

enum class DType { f32, f16, bf16, i32, i64, f64 };

// "fp32"/"float32"/"f32", "fp16"/"float16"/"half", "bf16"/"bfloat16", "int32"/"i32",
// "int64"/"i64", "fp64"/"float64"/"double"; nullopt for anything else.
[[nodiscard]] std::optional<DType> parse_dtype(std::string_view s);
[[nodiscard]] std::string_view dtype_name(DType t);  // fp32 fp16 bf16 int32 int64 fp64
[[nodiscard]] std::size_t dtype_size(DType t);
[[nodiscard]] bool is_float(DType t);
[[nodiscard]] int abi_code(DType t);  // the ferry_dtype value of ferry_opcheck.h

[[nodiscard]] std::uint16_t f32_to_f16_bits(float f);
[[nodiscard]] float f16_bits_to_f32(std::uint16_t h);
[[nodiscard]] std::uint16_t f32_to_bf16_bits(float f);
[[nodiscard]] float bf16_bits_to_f32(std::uint16_t b);

// The distance between |x| and the next representable magnitude of `t` in its binade (for
// subnormals and zero: the smallest subnormal step). 1 for integer types.
[[nodiscard]] double ulp_spacing(DType t, double x);
// The smallest positive normal value of a float type (1 for integer types).
[[nodiscard]] double smallest_normal(DType t);

// A host tensor: contiguous, row-major bytes of `dtype`.
struct HostTensor {
  std::string name;
  DType dtype = DType::f32;
  std::vector<std::int64_t> shape;
  std::vector<unsigned char> bytes;

  HostTensor() = default;
  HostTensor(std::string n, DType t, std::vector<std::int64_t> s);
  [[nodiscard]] std::int64_t numel() const;
  [[nodiscard]] double get(std::int64_t i) const;  // converted to double exactly
  void set(std::int64_t i, double v);              // rounded to the dtype (nearest even)
};

[[nodiscard]] std::string shape_text(const std::vector<std::int64_t>& shape);  // "[2, 8, 128]"

}  // namespace ferry::opcheck

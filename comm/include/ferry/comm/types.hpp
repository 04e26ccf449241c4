// ferry-comm element types, reduction operators and errors.
// Interface: DType/ReduceOp enums with sizes and names, the 16-bit float conversions used by the
// bf16/fp16 data types and codecs, and the two exception types every call may throw.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ferry::comm {

enum class DType : std::uint8_t { f32, f64, bf16, f16, i8, u8, i32, u32, i64, u64 };
enum class ReduceOp : std::uint8_t { sum, max, min };

std::size_t dtype_size(DType t);
std::string_view dtype_name(DType t);
std::string_view op_name(ReduceOp op);
DType parse_dtype(std::string_view name);  // throws std::invalid_argument

// Round-to-nearest-even conversions; NaN stays NaN, +-Inf stays +-Inf, overflow goes to +-Inf.
std::uint16_t float_to_bf16(float f);
float bf16_to_float(std::uint16_t h);
std::uint16_t float_to_f16(float f);
float f16_to_float(std::uint16_t h);

// Invalid arguments on this rank alone (null buffer, unknown algorithm, bad codec spec...).
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A collective could not complete: arguments differ across ranks (raised on every rank),
// a peer did not answer before the deadline, or MPI returned an error. After a CommError
// the communicator must not be used for further collectives; abort or finalize.
class CommError : public std::runtime_error {
 public:
  enum class Kind { mismatch, timeout, mpi };
  CommError(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

}  // namespace ferry::comm

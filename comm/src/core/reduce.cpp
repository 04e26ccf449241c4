// Element-wise reduction kernels. 16-bit floats are reduced in float32 and rounded back once per
// reduction step, which is what the reduction-order bound in docs/comm.md assumes.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "context.hpp"

namespace ferry::comm::detail {
namespace {

template <class T>
void reduce_typed(T* __restrict acc, const T* __restrict in, std::size_t n, ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      if constexpr (std::is_integral_v<T>) {  // wrap like MPI does, without signed overflow
        using U = std::make_unsigned_t<T>;
        for (std::size_t i = 0; i < n; ++i)
          acc[i] = static_cast<T>(static_cast<U>(static_cast<U>(acc[i]) + static_cast<U>(in[i])));
      } else {
        for (std::size_t i = 0; i < n; ++i) acc[i] += in[i];
      }
      break;
    // NaN propagates through max/min as it does through sum (MPI leaves this unspecified).
    case ReduceOp::max:
      for (std::size_t i = 0; i < n; ++i) acc[i] = (in[i] > acc[i] || in[i] != in[i]) ? in[i] : acc[i];
      break;
    case ReduceOp::min:
      for (std::size_t i = 0; i < n; ++i) acc[i] = (in[i] < acc[i] || in[i] != in[i]) ? in[i] : acc[i];
      break;
  }
}

template <float (*to_f)(std::uint16_t), std::uint16_t (*from_f)(float)>
void reduce_half(std::uint16_t* acc, const std::uint16_t* in, std::size_t n, ReduceOp op) {
  for (std::size_t i = 0; i < n; ++i) {
    float a = to_f(acc[i]), b = to_f(in[i]), r = a;
    switch (op) {
      case ReduceOp::sum: r = a + b; break;
      case ReduceOp::max: r = (b > a || b != b) ? b : a; break;
      case ReduceOp::min: r = (b < a || b != b) ? b : a; break;
    }
    acc[i] = from_f(r);
  }
}

}  // namespace

void reduce_into(void* acc, const void* in, std::size_t n, DType dtype, ReduceOp op) {
  switch (dtype) {
    case DType::f32: return reduce_typed(static_cast<float*>(acc), static_cast<const float*>(in), n, op);
    case DType::f64: return reduce_typed(static_cast<double*>(acc), static_cast<const double*>(in), n, op);
    case DType::i8: return reduce_typed(static_cast<std::int8_t*>(acc), static_cast<const std::int8_t*>(in), n, op);
    case DType::u8: return reduce_typed(static_cast<std::uint8_t*>(acc), static_cast<const std::uint8_t*>(in), n, op);
    case DType::i32: return reduce_typed(static_cast<std::int32_t*>(acc), static_cast<const std::int32_t*>(in), n, op);
    case DType::u32:
      return reduce_typed(static_cast<std::uint32_t*>(acc), static_cast<const std::uint32_t*>(in), n, op);
    case DType::i64: return reduce_typed(static_cast<std::int64_t*>(acc), static_cast<const std::int64_t*>(in), n, op);
    case DType::u64:
      return reduce_typed(static_cast<std::uint64_t*>(acc), static_cast<const std::uint64_t*>(in), n, op);
    case DType::bf16:
      return reduce_half<bf16_to_float, float_to_bf16>(static_cast<std::uint16_t*>(acc),
                                                       static_cast<const std::uint16_t*>(in), n, op);
    case DType::f16:
      return reduce_half<f16_to_float, float_to_f16>(static_cast<std::uint16_t*>(acc),
                                                     static_cast<const std::uint16_t*>(in), n, op);
  }
}

}  // namespace ferry::comm::detail

// The inputs of a case: shapes resolved from the case's dimensions, values from the spec's init
// and the seed. The generator is spelled out (SplitMix64, Box-Muller) rather than taken from
// <random>, whose distributions differ between standard libraries: a spec and a seed give the
// same inputs on every machine. Values are drawn as float and then rounded to the tensor's dtype,
// so every implementation sees the same representable numbers.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "opcheck/dtype.h"
#include "opcheck/spec.h"

namespace ferry::opcheck {

using Dims = std::vector<std::pair<std::string, std::int64_t>>;

// Shape of `t` for the case (dimension names looked up in dims; literals as written).
[[nodiscard]] std::vector<std::int64_t> resolve_shape(const TensorSpec& t, const Dims& dims);

// Input `index` of an operator for (seed, dims): the stream is keyed by seed, operator name and
// input name, so adding an input does not change the others.
[[nodiscard]] HostTensor make_input(const OperatorSpec& op, const TensorSpec& t, DType case_dtype, const Dims& dims,
                                    std::uint64_t seed);

}  // namespace ferry::opcheck

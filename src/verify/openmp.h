// OpenMP host code: a unit whose source includes <omp.h> or has a `#pragma omp` line is compiled
// with the host compiler's OpenMP flag, as its build gives it (CMake's OpenMP::OpenMP_CXX,
// `-Xcompiler -fopenmp` for nvcc). See docs/verify.md "OpenMP".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ferry::verify {

// The toolchain-neutral word verify's flag lists carry for OpenMP; compile_command() spells it
// for the compiler (`-fopenmp` for hipcc, `-Xcompiler -fopenmp` for nvcc).
inline constexpr std::string_view kOpenmpFlag = "-fopenmp";

// True when `source` includes <omp.h> or has a `#pragma omp` directive.
[[nodiscard]] bool uses_openmp(std::string_view source);

// True when `arg` (one word of a compile command) turns OpenMP on: -fopenmp, -fopenmp=libomp,
// -qopenmp, or an -Xcompiler list containing -fopenmp (`-Xcompiler=-fopenmp,-O3`, given its value).
[[nodiscard]] bool is_openmp_flag(std::string_view arg);

}  // namespace ferry::verify

// ferry/compat_cuda.h: the small header of Ferry's own code that the HIP -> CUDA target writes
// beside a migrated file that needs it, for what HIP has and CUDA does not (docs/targets.md,
// "compat_cuda.h"): float/double atomicMax/atomicMin, cudaDeviceProp fields CUDA 13 removed,
// the cudaMemLocation of a device id, the module launch with a packed argument buffer.
// The header is written whole (each entry is small and guarded by nothing but its namespace),
// so every file that includes it sees the same text and re-migration is a fixed point.
#pragma once

#include <string_view>

#include "migrate/file_migration.h"

namespace ferry::targets::cuda {

inline constexpr std::string_view kCompatHeaderName = "ferry/compat_cuda.h";

// The header's text.
[[nodiscard]] std::string_view compat_header_text();

// ferry/compat_cuda_vector.h: the arithmetic operators HIP's vector types have and CUDA's lack
// (componentwise + - * / % & | ^ with a vector or a scalar, compound assignments, unary minus),
// in the global namespace. Opt out with -DFERRY_NO_VECTOR_OPERATORS.
inline constexpr std::string_view kVectorHeaderName = "ferry/compat_cuda_vector.h";
[[nodiscard]] const std::string& vector_operators_header_text();
void use_vector_operators_header(migrate::FileMigration& file);

// Writes the header `name` (text `text`) beside the file and includes it once, recorded as added
// (ferry/compat_cusparse.h: roc_native_pass.cpp).
void use_side_header(migrate::FileMigration& file, std::string_view name, std::string_view text);

// The ROCm native APIs' side headers (roc_native_pass.cpp writes them; their text is in
// roc_native_headers.cpp): rocSPARSE calls through cuSPARSE's generic API, and rocSOLVER's LU
// calls through cuSOLVER.
inline constexpr std::string_view kCusparseHeaderName = "ferry/compat_cusparse.h";
extern const std::string_view kCusparseHeaderText;
inline constexpr std::string_view kCusolverHeaderName = "ferry/compat_cusolver.h";
extern const std::string_view kCusolverHeaderText;

// The file uses ferry::cuda_compat: the header is written beside it (a side output) and included
// at the top, once per file.
void use_compat_header(migrate::FileMigration& file);
// The same, when an edit of the file (a rule's call template, a pass) wrote ferry::cuda_compat::.
void use_compat_header_if_referenced(migrate::FileMigration& file);

}  // namespace ferry::targets::cuda

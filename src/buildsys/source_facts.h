// What the HIP sources of a tree tell the HIP -> CUDA build-file migrators (docs/build-files.md,
// "The other way"): which user macros select wavefront-64 code, so that a `-DWAVE64` of the build
// files is dropped and the CUDA build takes the 32-lane path (FRY5240), and which nvcc flags the
// code needs that hipcc did not (`--extended-lambda` for `__device__` lambdas,
// `--expt-relaxed-constexpr` for constexpr host functions called in device code, FRY5241).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ferry::buildsys {

struct SourceFacts {
  // Macros the sources test to choose wavefront-64 code: `#ifdef WAVE64` around 64-lane
  // reductions, `#if WAVE_SIZE == 64`. Name -> where ("src/k.hip:12", "" when known by name only).
  std::map<std::string, std::string> wave64_macros;
  // Macros that hold the wavefront width (`WARP_SIZE`, `WAVEFRONT_SIZE`): `-DWARP_SIZE=64` -> 32.
  std::map<std::string, std::string> width_macros;
  // Where the code needs each nvcc flag ("" = nowhere): the first place in each file that needs
  // it, ';'-separated ("k.hip:9;util/scan.hpp:40"), files that include such a file too (the
  // cuda target adds them, "path:0"). A build file passes the flag when one of them is under its folder.
  std::string extended_lambda;    // a `__device__` / `__host__ __device__` lambda
  std::string relaxed_constexpr;  // std::numeric_limits<T>::infinity() ... in device code
  // Where the code calls the driver API (`hipModuleLoad`, `hipCtxCreate`, `hipDrvMemcpy2DUnaligned`:
  // what becomes a `cu*` function), in the same form: CUDA's driver library, libcuda
  // (CUDA::cuda_driver), is linked for them; HIP's libamdhip64 held both APIs. Filled by the cuda
  // target, which knows which names are the driver's.
  std::string driver_api;
  // The project defines arithmetic operators on CUDA/HIP vector types itself (`float4
  // operator+(float4, float4)`, helper_math.h style): the cuda target's compat operators stay out.
  bool user_vector_operators = false;
};

// Components of a CUDA vector type name (float4 -> 4, uchar2 -> 2), 0 when it is not one.
[[nodiscard]] int vector_type_components(std::string_view t);

struct SourceText {
  std::string path;  // relative to the tree
  std::string_view text;
};

// Scans the sources of a tree (any file that is not C/C++/HIP is skipped by the caller).
[[nodiscard]] SourceFacts scan_source_facts(const std::vector<SourceText>& files);

// A macro name that by itself says it selects wavefront-64 code (WAVE64, USE_WAVE64, WAVEFRONT_64,
// WF64, WARP64) or holds the wavefront width (WARP_SIZE, WAVE_SIZE, WAVEFRONT_SIZE, WF_SIZE).
[[nodiscard]] bool is_wave64_macro_name(std::string_view name);
[[nodiscard]] bool is_width_macro_name(std::string_view name);

}  // namespace ferry::buildsys

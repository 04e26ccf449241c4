// The CUDA version the HIP -> CUDA target writes for (`--cuda-version`, default: the installed
// nvcc's). What a version has decides rewrites that differ between CUDA releases: cudaDeviceProp
// fields removed in 13.0, the cudaMemLocation forms of cudaMemPrefetchAsync/cudaMemAdvise (13.0),
// CCCL 3.0's functors (13.0), texture references (removed in 12.0), the oldest GPU architecture
// nvcc still compiles for. Rule rows carry version bounds in their note ("from CUDA X.Y",
// "before CUDA X.Y"), applied by the reverse table builder (docs/rules.md, "Versions").
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ferry::rules {

struct CudaVersion {
  int major = 13;
  int minor = 0;
  [[nodiscard]] bool at_least(int ma, int mi = 0) const { return major > ma || (major == ma && minor >= mi); }
  [[nodiscard]] std::string str() const { return std::to_string(major) + "." + std::to_string(minor); }
  friend bool operator==(const CudaVersion&, const CudaVersion&) = default;
};

// "13", "13.0", "12.4" (a trailing ".patch" is ignored); nullopt when it is not a version.
[[nodiscard]] std::optional<CudaVersion> parse_cuda_version(std::string_view s);

// The version `nvcc --version` reports (nvcc on PATH, else /usr/local/cuda/bin/nvcc); nullopt
// when there is none.
[[nodiscard]] std::optional<CudaVersion> installed_nvcc_version();

// The oldest compute capability (e.g. 75 for sm_75) this CUDA's nvcc compiles for.
[[nodiscard]] int oldest_supported_sm(const CudaVersion& v);

// Version bounds in a rule note: "from CUDA X.Y" or "needs CUDA >= X.Y" (the row applies from
// X.Y on), "before CUDA X.Y" (it applies to older releases only). True when the row applies to `v`.
[[nodiscard]] bool note_allows(std::string_view note, const CudaVersion& v);

}  // namespace ferry::rules

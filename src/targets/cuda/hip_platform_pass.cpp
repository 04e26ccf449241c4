// HIP's platform macros on the way to CUDA (docs/targets.md, "cuda"). hipcc defines
// `__HIP_PLATFORM_NVIDIA__` (and the older `__HIP_PLATFORM_NVCC__`) when it compiles for NVIDIA;
// nvcc does not, so after migration `#ifdef __HIP_PLATFORM_NVIDIA__` would drop the NVIDIA branch
// the author wrote for this very platform (rocm-examples' inline_assembly then ran an empty kernel
// and printed "Validation failed"). The tests become the value they have on NVIDIA: `#ifdef` ->
// `#if 1`, `#ifndef` -> `#if 0`, `defined(__HIP_PLATFORM_NVIDIA__)` and the bare name -> `1`
// (FRY1243); the comment after the value keeps the test as written, `1 /* ferry:
// defined(__HIP_PLATFORM_NVIDIA__) */`, so that CUDA -> HIP restores it. The AMD macros (`__HIP_PLATFORM_AMD__`,
// `__HIP_PLATFORM_HCC__`) are undefined under nvcc, as they should be, and are left as they are.
#include <string>

#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

bool nvidia_platform(std::string_view n) { return n == "__HIP_PLATFORM_NVIDIA__" || n == "__HIP_PLATFORM_NVCC__"; }

// HIP's version macros (hip/hip_version.h): nothing defines them under nvcc, so `#if
// HIP_VERSION_MAJOR < 6` (a workaround for older HIP releases, e.g. an NVIDIA shim that defines
// what later HIP has) would read 0 and take the oldest branch. They become the release Ferry's
// HIP -> CUDA tables describe, ROCm 6.2 (HIP 6.2.0: HIP_VERSION = major * 10000000 + minor * 100000
// + patch), with the name beside the value (FRY1317).
std::string_view hip_version_value(std::string_view n) {
  if (n == "HIP_VERSION_MAJOR") return "6";
  if (n == "HIP_VERSION_MINOR") return "2";
  if (n == "HIP_VERSION_PATCH") return "0";
  if (n == "HIP_VERSION") return "60200000";
  return {};
}

}  // namespace

void hip_platform_pass(migrate::FileMigration& file) {
  if (file.project().migrated_by == "hip") return;  // a round trip's way back: the CUDA original's text
  for (std::size_t ci = 0; ci + 2 < file.code_size(); ++ci) {
    if (!file.in_directive(ci) || !file.is(ci, "#")) continue;
    const std::size_t last = file.directive_last(ci);
    const std::string_view d = file.text(ci + 1);
    if (file.excluded(ci) || !(d == "if" || d == "ifdef" || d == "ifndef" || d == "elif")) {
      ci = last;
      continue;
    }
    if (d == "ifdef" || d == "ifndef") {
      if (last == ci + 2 && nvidia_platform(file.text(ci + 2)) && !file.touched(ci + 2)) {
        const std::string name(file.text(ci + 2));
        const bool ok = file.replace(ci + 1, ci + 2,
                                     std::string(d == "ifdef" ? "if 1" : "if 0") + " /* ferry: #" + std::string(d) +
                                         " " + name + ", defined on NVIDIA */");
        if (ok)
          file.diag(Diag::HipPlatformMacroCuda, ci + 2,
                    "'" + name + "' is defined by hipcc when it compiles for NVIDIA and not by nvcc: the #" +
                        std::string(d) + " is written as its value on NVIDIA",
                    "");
      }
      ci = last;
      continue;
    }
    for (std::size_t k = ci + 2; k <= last && k < file.code_size(); ++k) {
      if (file.is_identifier(k) && !hip_version_value(file.text(k)).empty() && !file.touched(k) &&
          !file.is(k - 1, "defined") && !(file.is(k - 1, "(") && file.is(k - 2, "defined")) &&
          !file.project().defined_macros.contains(std::string(file.text(k)))) {
        const std::string name(file.text(k));
        if (file.replace(k, k, std::string(hip_version_value(name)) + " /* ferry: " + name + " */"))
          file.diag(Diag::HipVersionTestCuda, k,
                    "'" + name +
                        "' is HIP's version, which nothing defines under nvcc (the test would read 0): "
                        "written as its value in ROCm 6.2, " +
                        std::string(hip_version_value(name)) + ", the release Ferry's HIP -> CUDA tables describe",
                    "");
        continue;
      }
      if (!file.is_identifier(k) || !nvidia_platform(file.text(k)) || file.touched(k)) continue;
      const std::string name(file.text(k));
      std::size_t first = k, end = k;
      if (file.is(k - 1, "defined")) first = k - 1;
      else if (file.is(k - 1, "(") && file.is(k - 2, "defined") && file.is(k + 1, ")")) first = k - 2, end = k + 1;
      // The marker holds the test as written, which the hip target puts back (cuda_compat pass):
      // HIP -> CUDA -> HIP must not leave `1` where AMD reads the macro as undefined.
      const std::string test(file.span_text(first, end));
      if (!file.replace(first, end, "1 /* ferry: " + (test.find("*/") == std::string::npos ? test : name) + " */"))
        continue;
      file.diag(Diag::HipPlatformMacroCuda, k,
                "'" + name +
                    "' is defined by hipcc when it compiles for NVIDIA and not by nvcc: the test is "
                    "written as its value on NVIDIA, 1",
                "");
    }
    ci = last;
  }
}

}  // namespace ferry::targets::cuda

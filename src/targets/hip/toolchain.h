// The HIP release a CUDA → HIP migration writes code for (the version model's other half; the
// first half is each rule's `since`, rules/version.h).
//
// Profiles are data (rules/profiles/hip_toolchains.tsv): ROCm 5.2 as Debian 12 ships it, Hygon
// DTK 24.04, ROCm 5.7 to 7.2. `--hip-version` takes a profile name or X.Y; without it the
// installed HIP is read from its hip_version.h (HIP_PATH, ROCM_PATH, or next to the hipcc on
// PATH), else the first profile is used.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rules/version.h"

namespace ferry::targets::hip {

struct Toolchain {
  std::string name;  // "rocm-5.2"; "hip-X.Y" for a version no profile names
  rules::Version hip;
  std::vector<std::pair<std::string, rules::Version>> libraries;  // releases other than `hip`
  bool warp_size_constexpr = true;                                // false from ROCm 7.0: warpSize is a runtime value
  std::string description;
  std::string chosen_by;  // "--hip-version 5.2", "installed HIP (/usr/include/hip/hip_version.h)", "default"

  // The ROCm release of `library` ("hip", "hipsparse", "hipblas", ...).
  [[nodiscard]] rules::Version version_of(std::string_view library) const;
  // "HIP 5.2 (rocm-5.2)", for messages.
  [[nodiscard]] std::string label() const;
};

// Every profile, in table order.
[[nodiscard]] const std::vector<Toolchain>& toolchains();

// The HIP version of an installed toolchain and the header it was read from, if one is found.
[[nodiscard]] std::optional<std::pair<rules::Version, std::string>> detect_installed_hip();

// `spec`: a profile name, X.Y (the profile of that version, else one made from the nearest older
// profile's traits), or empty (the installed HIP, else the first profile). Throws
// std::invalid_argument for anything else, naming the profiles.
[[nodiscard]] Toolchain resolve_toolchain(std::string_view spec);

// The library whose release decides whether a rule of `family` is available: "hip" for the
// runtime, device and header families, "hipblas" (or "rocblas" with `blas` == "rocblas") for
// cublas, "hipsparse"/"rocsparse" for cusparse, "hiprand" for curand, ...
[[nodiscard]] std::string_view library_of_family(std::string_view family, std::string_view blas,
                                                 std::string_view sparse);

}  // namespace ferry::targets::hip

// Constructs of a program that the wave64 runtime does not run as a GPU would, found in its
// sources when `ferry diffrun --wave64` gives a verdict other than SAME, so that the verdict
// names its cause (docs/wave64.md, "What the runtime does not run"):
//   FRY9411  device-only code under an architecture test (`#if __CUDA_ARCH__ >= 700`,
//            `#ifdef __HIP_DEVICE_COMPILE__`): kernels are compiled in the host pass, where
//            neither is defined, so the device branch is left out.
//   FRY9415  a lane count fixed at 32 in the program's own code (`int warp_size = 32;`,
//            `#define WARP_SIZE 32`), searched in the port's folder when one is given (what runs
//            at 64 lanes): sizes, strides or the program's own check that assume 32 lanes.
// Only the program's own folder is read (not headers shared from elsewhere).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ferry::diffrun {

struct ConstructNote {
  std::string code;  // "FRY9411"
  std::string file;  // relative to the folder
  int line = 0;
  std::string message;
};

// The notes of the sources (and headers) in `dir`, in file and line order; at most `max` of them.
[[nodiscard]] std::vector<ConstructNote> unsupported_constructs(const std::filesystem::path& dir, std::size_t max = 5,
                                                                const std::filesystem::path& port_dir = {});

// "FRY9411 file.cu:70: ..." per note, joined by "; ".
[[nodiscard]] std::string describe(const std::vector<ConstructNote>& notes);

}  // namespace ferry::diffrun

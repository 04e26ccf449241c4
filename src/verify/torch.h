// PyTorch C++/CUDA extensions: units that include torch/extension.h, torch/types.h, ATen/... or
// c10/... compile only with PyTorch's include directories, which verify finds the way PyTorch's
// own torch.utils.cpp_extension does: by asking the Python that has torch
// (cpp_extension.include_paths() and Python's include directory), never by guessing a path.
// See docs/verify.md "PyTorch extensions".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "verify/process.h"

namespace ferry::verify {

struct TorchHeaders {
  std::string python;                     // the interpreter that imported torch
  std::string version;                    // torch.__version__
  std::vector<std::string> include_dirs;  // cpp_extension.include_paths(), then Python's include dir
  int cxx11_abi = -1;                     // torch._C._GLIBCXX_USE_CXX11_ABI; -1 when not reported
  std::string problem;                    // empty when the headers are usable, else why not
  [[nodiscard]] bool usable() const { return problem.empty(); }
};

// The first PyTorch header an #include line of `source` names ("torch/extension.h", "ATen/ATen.h",
// "c10/cuda/CUDAGuard.h", ...); empty when there is none.
[[nodiscard]] std::string torch_include(std::string_view source);

// The interpreters to ask, in order: $FERRY_PYTHON, python3 on PATH, /usr/bin/python3 (each once).
[[nodiscard]] std::vector<std::string> default_pythons();

// The probe each interpreter runs (`python -c`), and the reading of its output.
[[nodiscard]] std::string_view torch_probe_script();
[[nodiscard]] TorchHeaders parse_torch_probe(std::string_view output);

// Asks each interpreter in turn; the first that imports torch answers. problem says why none
// could be used: no interpreter with torch, or a torch without its C++ headers (Debian's
// python3-torch without libtorch-dev).
[[nodiscard]] TorchHeaders find_torch(const std::vector<std::string>& pythons, const ProcessRunner& runner);

// The flags a unit gets, as cpp_extension gives them to an extension's sources: -I for each
// include directory, -DTORCH_EXTENSION_NAME=<the unit's file stem>, -DTORCH_API_INCLUDE_EXTENSION_H,
// -D_GLIBCXX_USE_CXX11_ABI=<torch's>; for HIP (hipcc) also -DUSE_ROCM=1 (cpp_extension's HIP
// flags; hipcc defines __HIP_PLATFORM_AMD__). The C++17 PyTorch 2 needs is compile_command's default.
[[nodiscard]] std::vector<std::string> torch_flags(const TorchHeaders& t, std::string_view unit_rel, bool hip);

}  // namespace ferry::verify

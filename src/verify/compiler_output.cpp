#include "verify/compiler_output.h"

#include <array>
#include <regex>

namespace ferry::verify {
namespace {

std::uint32_t to_u32(const std::string& s) { return static_cast<std::uint32_t>(std::stoul(s)); }

std::string_view trim_cr(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
  return line;
}

}  // namespace

std::vector<CompilerError> parse_compiler_output(std::string_view text) {
  // clang/gcc: "path:12:5: error: message"   (column optional for gcc's preprocessor)
  static const std::regex kClang(R"(^(.+?):(\d+):(?:(\d+):)? (fatal error|error|warning|note|remark): (.*)$)");
  // nvcc (EDG): "path(12): error: message", "path(12): error #20-D: message", "catastrophic error"
  static const std::regex kEdg(
      R"(^(.+?)\((\d+)\): (catastrophic error|fatal error|error|warning|remark|note)(?: #[\w-]+)?: (.*)$)");
  // "In file included from path:12:" (clang), "                 from path:12," (gcc)
  static const std::regex kIncluded(R"(^(?:In file included from|\s+from) (.+?):(\d+)(?::(\d+))?[:,]$)");

  std::vector<CompilerError> out;
  std::vector<SourceLocation> pending_chain;
  bool last_was_error = false;  // notes attach to the preceding error
  std::size_t pos = 0;
  std::smatch m;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string line(trim_cr(text.substr(pos, nl - pos)));
    pos = nl + 1;
    if (std::regex_match(line, m, kIncluded)) {
      pending_chain.push_back({m[1].str(), to_u32(m[2].str()), m[3].matched ? to_u32(m[3].str()) : 0});
      continue;
    }
    SourceLocation at;
    std::string severity;
    std::string message;
    if (std::regex_match(line, m, kClang)) {
      at = {m[1].str(), to_u32(m[2].str()), m[3].matched ? to_u32(m[3].str()) : 0};
      severity = m[4].str();
      message = m[5].str();
    } else if (std::regex_match(line, m, kEdg)) {
      at = {m[1].str(), to_u32(m[2].str()), 0};
      severity = m[3].str();
      message = m[4].str();
    } else {
      continue;  // source excerpts, carets, summaries
    }
    if (severity == "note") {
      if (last_was_error && !out.empty()) {
        out.back().notes.push_back(at);
        out.back().note_messages.push_back(message);
      }
      pending_chain.clear();
      continue;
    }
    if (severity == "error" || severity == "fatal error" || severity == "catastrophic error") {
      CompilerError e;
      e.at = std::move(at);
      e.fatal = severity != "error";
      e.message = std::move(message);
      e.include_chain = std::move(pending_chain);
      out.push_back(std::move(e));
      last_was_error = true;
    } else {
      last_was_error = false;
    }
    pending_chain.clear();
  }
  return out;
}

std::optional<std::string> missing_header(const CompilerError& e) {
  static const std::array<std::regex, 3> kPatterns = {
      std::regex(R"(^'([^']+)' file not found)"),              // clang
      std::regex(R"(^([^:]+): No such file or directory)"),    // gcc
      std::regex(R"(^cannot open source file \"([^\"]+)\")"),  // nvcc (EDG)
  };
  std::smatch m;
  for (const std::regex& re : kPatterns)
    if (std::regex_search(e.message, m, re)) return m[1].str();
  return std::nullopt;
}

std::string known_missing_library(std::string_view header) {
  struct Lib {
    std::string_view prefix;
    std::string_view name;
  };
  // Prefixes of include paths, matched at the start of the header name. Debian 12 ships rocPRIM,
  // rocRAND/hipRAND and rocSPARSE/hipSPARSE (installed by `make deps`), so they are not listed;
  // rocBLAS and rocSOLVER exist in Debian but are not installed by default.
  static constexpr Lib kLibs[] = {
      {"hipblaslt/", "hipBLASLt"},
      {"hipblaslt.h", "hipBLASLt"},
      {"hipblas/", "hipBLAS"},
      {"hipblas.h", "hipBLAS"},
      {"hipfft/", "hipFFT"},
      {"hipfft.h", "hipFFT"},
      {"rocfft/", "rocFFT"},
      {"hipcub/", "hipCUB"},
      {"thrust/", "rocThrust"},
      {"rocthrust/", "rocThrust"},
      {"rccl/", "RCCL"},
      {"rccl.h", "RCCL"},
      {"miopen/", "MIOpen"},
      {"hipsolver/", "hipSOLVER"},
      {"hipsolver.h", "hipSOLVER"},
      {"hipsparselt/", "hipSPARSELt"},
      {"rocwmma/", "rocWMMA"},
      {"ck/", "Composable Kernel"},
      {"hiptensor/", "hipTensor"},
      {"hipdnn/", "hipDNN"},
      {"nccl.h", "NCCL"},
      {"cudnn", "cuDNN"},
      {"cutlass/", "CUTLASS"},
      {"cute/", "CUTLASS (CuTe)"},
      {"rocblas/", "rocBLAS"},
      {"rocblas.h", "rocBLAS"},
      {"rocsolver/", "rocSOLVER"},
      {"roctracer/", "roctracer (roctx)"},
      {"roctx.h", "roctracer (roctx)"},
      {"rocm_smi/", "ROCm SMI (rocm-smi-lib)"},
      // OpenMP's header is the compiler's own: gcc always has it, LLVM's clang only with libomp
      // (Debian 12's hipcc is clang 15: libomp-15-dev).
      {"omp.h", "the OpenMP runtime of the compiler (hipcc: LLVM libomp, Debian's libomp-15-dev)"},
      // PyTorch: its C++ headers (absent: no PyTorch, or Debian's python3-torch without
      // libtorch-dev), and the HIP parts only PyTorch for ROCm has.
      {"ATen/hip/", "PyTorch for ROCm"},
      {"c10/hip/", "PyTorch for ROCm"},
      {"torch/", "PyTorch (C++ headers)"},
      {"ATen/", "PyTorch (C++ headers)"},
      {"c10/", "PyTorch (C++ headers)"},
  };
  for (const Lib& l : kLibs)
    if (header.substr(0, l.prefix.size()) == l.prefix) return std::string(l.name);
  return {};
}

}  // namespace ferry::verify

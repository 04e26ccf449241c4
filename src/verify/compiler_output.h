// Reading what a compiler printed: clang/hipcc and gcc (`file:line:col: error: msg`, with
// "In file included from" chains and attached notes) and nvcc's EDG front end
// (`file(line): error: msg`). Only errors are kept, each with its include chain and notes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ferry::verify {

struct SourceLocation {
  std::string file;  // as the compiler printed it (relative to its working directory, or absolute)
  std::uint32_t line = 0;
  std::uint32_t col = 0;  // 0 when the compiler gave none
};

struct CompilerError {
  SourceLocation at;
  bool fatal = false;
  std::string message;
  std::vector<SourceLocation> include_chain;  // outermost first: the TU's own #include line first
  std::vector<SourceLocation> notes;          // "note:" locations printed after the error
  std::vector<std::string> note_messages;
};

[[nodiscard]] std::vector<CompilerError> parse_compiler_output(std::string_view text);

// The header named by a "file not found" error (clang, gcc or nvcc wording), if it is one.
[[nodiscard]] std::optional<std::string> missing_header(const CompilerError& e);

// The library that provides `header` when it is one Debian 12 does not ship for HIP (hipBLAS,
// hipFFT, hipCUB, rocThrust, RCCL, MIOpen, hipSOLVER, hipBLASLt, ...) or that the CUDA toolkit
// does not bundle (NCCL, cuDNN, CUTLASS); empty otherwise.
[[nodiscard]] std::string known_missing_library(std::string_view header);

}  // namespace ferry::verify

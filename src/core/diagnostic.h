// Diagnostics: what Ferry tells the user about a place in their code.
//
// Every diagnostic has a stable code (documented in docs/diagnostics.md), a location in the
// ORIGINAL file, a message saying what is wrong and a hint saying what to do. The codes:
//   FRY1xxx unsupported or partially supported API     FRY2xxx wave64 / warp hazards
//   FRY3xxx resource limits of the target               FRY4xxx changed semantics to review
//   FRY5xxx build system and toolchain                  FRY9xxx input problems
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ferry {

enum class Severity : std::uint8_t { Note, Warning, Error };

[[nodiscard]] std::string_view to_string(Severity s);

struct Diagnostic {
  std::string code;  // "FRY2001"
  Severity severity = Severity::Warning;
  std::string file;
  std::uint32_t line = 0;  // 1-based; 0 when the diagnostic is about the whole file
  std::uint32_t col = 0;
  std::string message;
  std::string hint;

  // "path:line:col: warning: message [FRY2001]" and, when there is a hint, an indented note.
  [[nodiscard]] std::string format() const;
};

// Orders diagnostics by file, line, column and code, so output is stable across --jobs.
void sort_diagnostics(std::vector<Diagnostic>& diags);

}  // namespace ferry

// Diagnostics: what Ferry tells the user about a place in their code.
//
// Every diagnostic has a stable code (a row of core/diagnostics.def, documented in
// docs/diagnostics.md), a location in the ORIGINAL file, a message saying what is wrong and a hint
// saying what to do. The codes:
//   FRY1xxx unsupported or partially supported API     FRY2xxx wave64 / warp hazards
//   FRY3xxx resource limits of the target               FRY4xxx changed semantics to review
//   FRY5xxx build system and toolchain                  FRY9xxx input problems
// Call sites name codes by enumerator (Diag::LaneId32), never by string; the string form
// "FRY2201" exists only in output and when reading reports or user input back.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ferry {

enum class Severity : std::uint8_t { Note, Warning, Error };

[[nodiscard]] std::string_view to_string(Severity s);

// Every code, from core/diagnostics.def; the value is the number after "FRY".
enum class Diag : std::uint16_t {
#define FRY_DIAG(name, id, severity, title, anchor) name = id,
#include "core/diagnostics.def"
#undef FRY_DIAG
};

struct DiagInfo {
  Diag code;
  std::string_view id;  // "FRY2201"
  Severity severity;    // the usual severity
  std::string_view title;
  std::string_view anchor;  // heading anchor in docs/diagnostics.md
};

// The rows of core/diagnostics.def, in file order (sorted by id).
[[nodiscard]] std::span<const DiagInfo> diagnostic_table();
[[nodiscard]] const DiagInfo& info(Diag code);
// "FRY2201".
[[nodiscard]] std::string_view to_string(Diag code);
// "FRY2201" -> Diag::LaneId32; nullopt for a string that is no known code (reports of other
// versions, user input).
[[nodiscard]] std::optional<Diag> parse_diag(std::string_view id);

struct Diagnostic {
  Diag code = Diag::ApiUnsupported;
  Severity severity = Severity::Warning;
  std::string file;
  std::uint32_t line = 0;  // 1-based; 0 when the diagnostic is about the whole file
  std::uint32_t col = 0;
  std::string message;
  std::string hint;
  // The last line of the construct it is about, when that spans lines (an asm statement whose
  // constraints follow its template): verify counts an error on any of them as reported. 0: `line`.
  std::uint32_t end_line = 0;

  // "path:line:col: warning: message [FRY2001]" and, when there is a hint, an indented note.
  [[nodiscard]] std::string format() const;
};

// Orders diagnostics by file, line, column and code, so output is stable across --jobs.
void sort_diagnostics(std::vector<Diagnostic>& diags);

}  // namespace ferry

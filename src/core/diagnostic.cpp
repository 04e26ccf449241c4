#include "core/diagnostic.h"

#include <algorithm>
#include <tuple>

namespace ferry {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "?";
}

std::string Diagnostic::format() const {
  std::string out = file;
  if (line > 0) {
    out += ":" + std::to_string(line);
    if (col > 0) out += ":" + std::to_string(col);
  }
  out += ": ";
  out += to_string(severity);
  out += ": " + message + " [" + code + "]";
  if (!hint.empty()) out += "\n    hint: " + hint;
  return out;
}

void sort_diagnostics(std::vector<Diagnostic>& diags) {
  std::stable_sort(diags.begin(), diags.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.file, a.line, a.col, a.code) < std::tie(b.file, b.line, b.col, b.code);
  });
}

}  // namespace ferry

#include "core/diagnostic.h"

#include <algorithm>
#include <iterator>
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

namespace {

constexpr DiagInfo kTable[] = {
#define FRY_DIAG(name, id, severity, title, anchor) {Diag::name, "FRY" #id, Severity::severity, title, anchor},
#include "core/diagnostics.def"
#undef FRY_DIAG
};

constexpr bool sorted_and_unique() {
  for (std::size_t i = 1; i < std::size(kTable); ++i)
    if (!(kTable[i - 1].code < kTable[i].code)) return false;
  return true;
}
static_assert(sorted_and_unique(), "core/diagnostics.def: rows must be sorted by id, each id once");

constexpr bool ids_are_four_digits() {
  for (const DiagInfo& d : kTable)
    if (d.id.size() != 7 || static_cast<unsigned>(d.code) < 1000 || static_cast<unsigned>(d.code) > 9999) return false;
  return true;
}
static_assert(ids_are_four_digits(), "core/diagnostics.def: ids are four digits (FRYnnnn)");

}  // namespace

std::span<const DiagInfo> diagnostic_table() { return kTable; }

const DiagInfo& info(Diag code) {
  // The table is sorted by id: binary search.
  const auto* it = std::lower_bound(std::begin(kTable), std::end(kTable), code,
                                    [](const DiagInfo& d, Diag c) { return d.code < c; });
  return *it;  // every enumerator has its row (both come from the same .def)
}

std::string_view to_string(Diag code) { return info(code).id; }

std::optional<Diag> parse_diag(std::string_view id) {
  for (const DiagInfo& d : kTable)
    if (d.id == id) return d.code;
  return std::nullopt;
}

std::string Diagnostic::format() const {
  std::string out = file;
  if (line > 0) {
    out += ":" + std::to_string(line);
    if (col > 0) out += ":" + std::to_string(col);
  }
  out += ": ";
  out += to_string(severity);
  out += ": " + message + " [" + std::string(to_string(code)) + "]";
  if (!hint.empty()) out += "\n    hint: " + hint;
  return out;
}

void sort_diagnostics(std::vector<Diagnostic>& diags) {
  std::stable_sort(diags.begin(), diags.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.file, a.line, a.col, a.code) < std::tie(b.file, b.line, b.col, b.code);
  });
}

}  // namespace ferry

// Overloads that migration makes identical: `_cudaGetErrorEnum(cudaError_t)` and
// `_cudaGetErrorEnum(CUresult)` (cuda-samples' helper_cuda.h) both become
// `_cudaGetErrorEnum(hipError_t)`, a redefinition. The first definition in the file stays and
// defines a marker macro after itself; each later one is compiled only where no earlier one was
// (`#if !defined(MARKER)`, defining the marker in turn), so the output compiles whichever of the
// preprocessor branches around them are live (FRY4107).
#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "targets/hip/hip_provided.h"
#include "targets/hip/pass_util.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

// The macro that says "a definition of `signature` was compiled": identifier characters kept,
// the others spelled out so that different signatures never share a marker.
std::string marker_for(const std::string& signature) {
  std::string m = "FERRY_HAVE_";
  for (const char c : signature) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') m += c;
    else if (c == '(') m += "__";
    else if (c == ')') continue;
    else if (c == ',') m += "__";
    else if (c == ' ') m += '_';
    else if (c == '*') m += 'P';
    else if (c == '&') m += 'R';
    else if (c == ':') m += 'N';
    else if (c == '=') m += 'D';
    else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "x%02x", static_cast<unsigned char>(c));
      m += hex;
    }
  }
  return m;
}

// Where a line inserted before code token `first` goes (its line's start when only blanks precede
// it there), and the text to insert there for `line`.
std::pair<std::uint32_t, std::string> line_before(const migrate::FileMigration& file, std::size_t first,
                                                  std::string line) {
  const std::string_view src = file.source();
  const std::uint32_t begin = file.code(first).begin;
  const std::uint32_t ls = line_start(src, begin);
  if (only_blanks(src.substr(ls, begin - ls))) return {ls, std::move(line)};
  return {begin, "\n" + std::move(line)};
}

// Where lines inserted after code token `last` go (the start of the next line when the rest of
// its line is blank or a comment), and the text to insert there for `lines`.
std::pair<std::uint32_t, std::string> lines_after(const migrate::FileMigration& file, std::size_t last,
                                                  std::string lines) {
  const std::string_view src = file.source();
  const std::uint32_t end = file.code(last).end;
  std::size_t eol = src.find('\n', end);
  if (eol == std::string_view::npos) eol = src.size();
  const std::string_view rest = src.substr(end, eol - end);
  const std::size_t cmt = rest.find("//");
  const bool rest_blank = only_blanks(cmt == std::string_view::npos ? rest : rest.substr(0, cmt));
  if (rest_blank && eol < src.size()) return {static_cast<std::uint32_t>(eol + 1), std::move(lines)};
  if (rest_blank) return {static_cast<std::uint32_t>(src.size()), "\n" + std::move(lines)};
  return {end, "\n" + std::move(lines)};
}

std::string shown(const FunctionDefinition& d) {
  std::string s;
  for (const char c : d.signature()) {
    if (c == ',') s += ", ";
    else if (c == '=') s += " = ...";
    else s += c;
  }
  return s;
}

}  // namespace

void same_signature_pass(migrate::FileMigration& file) {
  const rules::RuleSet& rules = file.target().rules();
  auto excluded = [&](std::size_t ci) { return file.excluded(ci); };
  auto all = [](const std::string&) { return true; };
  auto as_written = [](std::string_view w) { return std::string(w); };
  auto renamed = [&](std::string_view w) { return renamed_by(rules, w); };
  // The definitions as written (the file's definition_scan, shared with hip_provided_pass); the
  // names only change their names and parameter types, so each is read again as the rules rename
  // it (not the whole file).
  const std::vector<FunctionDefinition> before = select_definitions(file, excluded, as_written, all);
  if (before.size() < 2) return;
  std::vector<FunctionDefinition> after = before;
  for (FunctionDefinition& d : after) {
    const bool op = d.open == d.name + 2;  // `operator OP (`: its name is not renamed
    if (!op) d.fname = renamed(file.text(d.name));
    std::optional<std::string> params = definition_params(file, d.open, d.close, renamed);
    if (!params) return;  // read as written, it is read renamed too
    d.params = std::move(*params);
  }
  // Renamed signature -> indices of its definitions, in file order.
  std::map<std::string, std::vector<std::size_t>> groups;
  for (std::size_t k = 0; k < after.size(); ++k) groups[after[k].signature()].push_back(k);
  for (const auto& [signature, members] : groups) {
    if (members.size() < 2) continue;
    // Only overloads that migration merged: definitions already alike as written sit in
    // exclusive preprocessor branches (or fail on CUDA too) and are left as written, which also
    // keeps migrating the output again a no-op.
    bool merged = false;
    for (const std::size_t k : members)
      if (before[k].signature() != before[members.front()].signature()) merged = true;
    if (!merged) continue;
    const std::string marker = marker_for(signature);
    const FunctionDefinition& keep = after[members.front()];
    auto [mark_at, mark] = lines_after(file, keep.last, "#define " + marker + "\n");
    if (file.edits().overlaps(mark_at, mark_at) ||
        file.edits().overlaps(file.code(keep.first).begin, file.code(keep.last).end))
      continue;
    std::vector<std::pair<std::uint32_t, std::string>> inserts = {{mark_at, std::move(mark)}};
    bool ok = true;
    for (std::size_t m = 1; m < members.size() && ok; ++m) {
      const FunctionDefinition& d = after[members[m]];
      auto open = line_before(
          file, d.first,
          "#if !defined(" + marker + ")  // an overload above has these parameters once migrated [FRY4107]\n");
      auto close = lines_after(file, d.last, "#define " + marker + "\n#endif\n");
      if (file.edits().overlaps(open.first, open.first) || file.edits().overlaps(close.first, close.first) ||
          file.edits().overlaps(file.code(d.first).begin, file.code(d.last).end))
        ok = false;
      inserts.push_back(std::move(open));
      inserts.push_back(std::move(close));
    }
    if (!ok) continue;
    for (auto& [at, text] : inserts) file.replace_bytes(at, at, std::move(text));
    for (std::size_t m = 1; m < members.size(); ++m) {
      const FunctionDefinition& d = before[members[m]];
      file.count_converted("same_signature");
      file.diag(Diag::SameSignatureAfterMigration, d.name,
                "'" + shown(d) + "' and '" + shown(before[members.front()]) + "' (line " +
                    std::to_string(file.code(keep.name).line) + ") are both '" + shown(after[members[m]]) +
                    "' after migration; this definition is compiled only where the earlier one is not (#if "
                    "!defined(" +
                    marker + "))",
                "the calls now reach the first definition; if they need different bodies, give one of them "
                "another name or parameter type");
    }
  }
}

}  // namespace ferry::targets::hip

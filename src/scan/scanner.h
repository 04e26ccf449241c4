// Internal to src/scan/: the per-file scanner. scan.cpp runs it on each file; its parts live with
// their concern: c_family.cpp, python.cpp, build_files.cpp; libraries.cpp says which library a
// use belongs to.
#pragma once

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rules/rule_set.h"
#include "scan/scan.h"

namespace ferry::scan::detail {

inline bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
inline bool ends(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}
inline bool upper_at(std::string_view s, std::size_t i) {
  return i < s.size() && std::isupper(static_cast<unsigned char>(s[i]));
}
inline std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// ---- libraries.cpp: which library a use belongs to (rules/libraries.h) ----
// The library id of an included header; empty when it is none we know.
std::string_view header_library(std::string_view path);
// The library id of a rule family of the built-in tables.
std::string_view family_library(std::string_view family);
// A name no table knows but whose prefix says which CUDA library it belongs to.
struct Guess {
  std::string_view family;
  std::string_view library;
};
std::optional<Guess> guess_by_prefix(std::string_view n);
// Namespaces that mark a library even when no table lists them.
std::string_view namespace_library(std::string_view ns);
// A link name as build files write it (-lcublas, CUDA::cublas_static, nccl.h in find_path).
std::string_view link_library(std::string_view name);
// The libraries in play, from the uses: most used first.
std::vector<LibraryUse> library_uses(const std::vector<ApiUse>& uses);

// ---- scan.cpp: support of constructs that are not names in a table, per target ----
std::string construct_status(std::string_view target, std::string_view construct);

struct FileScan {
  FileInventory file;
  std::vector<ApiUse> uses;
  std::vector<BuildSystem> builds;
  std::vector<Diagnostic> problems;
  std::set<std::string> defined_macros;  // #define'd in this file: never guessed as CUDA names
  std::vector<bool> guessed;             // parallel to `uses`: found by prefix only
  // C-family files with GPU uses: what migrating the file to each target leaves (warnings and
  // errors of migrate_buffer, the output discarded); no entry when it was not migrated.
  std::map<std::string, std::vector<Diagnostic>> left;
  // Build files with GPU settings: what converting the file for each target leaves (warnings
  // and errors); no entry for a target that does not convert build files.
  std::map<std::string, std::vector<Diagnostic>> build_left;
  std::vector<FrameworkUse> framework;  // Python files: PyTorch uses and their MindSpore coverage
};

class Scanner {
 public:
  Scanner(const std::string& rel, std::string_view text, const std::vector<const targets::Target*>& targets,
          FileScan& out)
      : rel_(rel), text_(text), targets_(targets), out_(out) {}

  void use(std::uint32_t line, std::uint32_t col, std::string name, std::string family, std::string kind,
           std::string library, std::map<std::string, std::string> status, std::string note = {},
           bool guessed = false) {
    out_.uses.push_back(ApiUse{rel_, line, col, std::move(name), std::move(family), std::move(kind), std::move(library),
                               std::move(status), std::move(note)});
    out_.guessed.push_back(guessed);
  }
  std::map<std::string, std::string> construct(std::string_view c) const {
    std::map<std::string, std::string> m;
    for (const targets::Target* t : targets_) m[std::string(t->name())] = construct_status(t->name(), c);
    return m;
  }
  std::map<std::string, std::string> unknown() const {
    std::map<std::string, std::string> m;
    for (const targets::Target* t : targets_) m[std::string(t->name())] = "unknown";
    return m;
  }
  void build(std::string id, std::string detail, std::uint32_t line, std::uint32_t col) {
    for (const BuildSystem& b : out_.builds)
      if (b.id == id && b.detail == detail) return;  // once per file is enough
    out_.builds.push_back(BuildSystem{std::move(id), std::move(detail), rel_, line, col});
  }

  void scan_c_family();
  void scan_python(bool bazel);
  void scan_cmake();
  void scan_make();

 private:
  template <class Lookup>
  const rules::Rule* lookup(Lookup f, std::map<std::string, std::string>& status) const {
    const rules::Rule* first = nullptr;
    for (const targets::Target* t : targets_) {
      const rules::Rule* r = f(t->rules());
      status[std::string(t->name())] = r ? std::string(rules::to_string(r->status)) : "unknown";
      if (r && !first) first = r;
    }
    return first;
  }

  const std::string& rel_;
  std::string_view text_;
  const std::vector<const targets::Target*>& targets_;
  FileScan& out_;
};

}  // namespace ferry::scan::detail

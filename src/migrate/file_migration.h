// Migrating one file: the context every pass works on, and the entry point.
//
// A FileMigration is the lex::CodeView of one source buffer (tokens by code index, packed keys,
// bracket partners, call arguments) plus what migrating it produces: the edits proposed for it,
// the diagnostics raised, the exclusion markers and the counters. Edits are byte ranges over the
// original buffer (rewrite::EditSet); diagnostics point at original lines, always.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/diagnostic.h"
#include "lex/code_view.h"
#include "lex/lexer.h"
#include "rewrite/edit_set.h"
#include "targets/target.h"

namespace ferry::migrate {

using lex::ArgRange;
using lex::npos;

// One line of a target's worklist, the three lists Ascend's TensorFlow migration tool reports
// (success, failed, needs-manual): what was converted at a line, what could not be, and what needs
// a hand change. Targets that keep one (tf_npu) fill it; the JSON and HTML reports list it.
struct WorkItem {
  std::string list;        // "success", "failed" or "needs_manual"
  std::uint32_t line = 0;  // 1-based line of the original
  std::string api;         // tf.estimator.RunConfig
  std::string detail;      // what was done, or what to do
};

// Counters in the spirit of hipify's statistics: per API family, how many names were converted
// and how many were left with a diagnostic.
struct FileStats {
  // (std::less<>: a family is counted by its string_view, without building a string each time)
  std::map<std::string, std::size_t, std::less<>> converted_by_family;
  std::map<std::string, std::size_t, std::less<>> unconverted_by_family;
  std::size_t lines = 0;
  std::size_t bytes = 0;
  std::size_t edits = 0;
  std::vector<WorkItem> worklist;
};

// A file a pass generates beside the migrated one (e.g. the cann target's Ascend C kernel
// skeleton). `name` is a file name, written in the output file's folder.
struct SideOutput {
  std::string name;
  std::string content;
};

// Lines excluded from migration by `// ferry: ignore`, `ignore-next-line` and `off` ... `on`
// comments (index = line number); shared by FileMigration and the project-wide pre-passes.
[[nodiscard]] std::vector<bool> excluded_lines(std::string_view src, const lex::TokenList& toks);

class FileMigration : public lex::CodeView {
 public:
  FileMigration(std::string path, std::string_view src, const targets::Target& target, const targets::Options& options,
                const targets::ProjectContext& project);
  // Takes the tokens of `view` (lexed from the same source, see targets::SourceView::lexed).
  FileMigration(std::string path, lex::CodeView&& view, const targets::Target& target, const targets::Options& options,
                const targets::ProjectContext& project);
  // Gives the tokens back (a pre-pass that borrowed a SourceView's view); the migration is spent.
  [[nodiscard]] lex::CodeView release_view() && { return std::move(static_cast<lex::CodeView&>(*this)); }

  // ----- reading (and the lex::CodeView interface) -----
  [[nodiscard]] std::string_view path() const { return path_; }
  // Marked by `ferry: off` ... `ferry: on`, `ferry: ignore-next-line` or a trailing `ferry: ignore`.
  [[nodiscard]] bool excluded(std::size_t ci) const {
    const std::uint32_t line = code(ci).line;
    return line < excluded_line_.size() && excluded_line_[line];
  }

  // The target's identifier rule (rules::RuleSet::find_identifier) for identifier `ci`'s name:
  // looked up once per distinct name of the file.
  [[nodiscard]] const rules::Rule* identifier_rule(std::size_t ci) const;
  // The target's unmapped API name (Target::unmapped_api_name) for identifier `ci`'s name: looked
  // up once per distinct name of the file.
  [[nodiscard]] const targets::UnmappedApiName* unmapped_api_name(std::size_t ci) const;

  [[nodiscard]] const targets::Target& target() const { return target_; }
  [[nodiscard]] const targets::Options& options() const { return options_; }
  [[nodiscard]] const targets::ProjectContext& project() const { return project_; }

  // ----- writing -----
  // Replaces code tokens [first, last] (and the trivia between them). False on overlap.
  bool replace(std::size_t first, std::size_t last, std::string text);
  bool replace_bytes(std::uint32_t begin, std::uint32_t end, std::string text) {
    return edits_.replace(begin, end, std::move(text));
  }
  bool insert_before(std::size_t ci, std::string text) { return edits_.insert(code(ci).begin, std::move(text)); }
  // Inserts `line` (ending in '\n') where a file's first include belongs: after a leading
  // `#pragma once` or include-guard opening, else at the start of the first code line.
  bool insert_line_at_top(std::string line);
  // Removes the whole `#include` line whose header name is code token `header_ci`, when the line
  // holds nothing else (a trailing comment keeps it). False, removing nothing, otherwise.
  bool remove_include_line(std::size_t header_ci);
  [[nodiscard]] bool touched(std::size_t ci) const { return edits_.overlaps(code(ci).begin, code(ci).end); }
  // A diagnostic at code token `ci` (or at a line and column), with the code's usual severity
  // (core/diagnostics.def) or, in the overloads taking one, another severity.
  void diag(Diag code, std::size_t ci, std::string message, std::string hint) {
    diag(code, info(code).severity, ci, std::move(message), std::move(hint));
  }
  void diag(Diag code, Severity sev, std::size_t ci, std::string message, std::string hint);
  // A diagnostic about the construct from code token `ci` to `last` (its lines all count as reported).
  void diag_span(Diag id, std::size_t ci, std::size_t last, std::string message, std::string hint) {
    diag(id, ci, std::move(message), std::move(hint));
    if (last < code_size() && code(last).line > code(ci).line) diags_.back().end_line = code(last).line;
  }
  void diag_at_line(Diag code, std::uint32_t line, std::uint32_t col, std::string message, std::string hint) {
    diag_at_line(code, info(code).severity, line, col, std::move(message), std::move(hint));
  }
  void diag_at_line(Diag code, Severity sev, std::uint32_t line, std::uint32_t col, std::string message,
                    std::string hint);
  void count_converted(std::string_view family) { count(stats_.converted_by_family, family); }
  void count_unconverted(std::string_view family) { count(stats_.unconverted_by_family, family); }
  void work_item(std::string list, std::uint32_t line, std::string api, std::string detail) {
    stats_.worklist.push_back({std::move(list), line, std::move(api), std::move(detail)});
  }

  // A replacement this file uses comes from a compat header Ferry writes (Availability::Compat):
  // the target includes and writes it in its finishing step. First use first.
  struct CompatUse {
    std::string header;  // "simd", "bf16"
    std::string name;    // the first name that needed it
    std::size_t ci;      // where
  };
  void require_compat(std::string header, std::string name, std::size_t ci) {
    for (const CompatUse& u : compat_uses_)
      if (u.header == header) return;
    compat_uses_.push_back({std::move(header), std::move(name), ci});
  }
  [[nodiscard]] const std::vector<CompatUse>& compat_uses() const { return compat_uses_; }

  void add_side_output(std::string name, std::string content) {
    side_outputs_.push_back({std::move(name), std::move(content)});
  }
  [[nodiscard]] std::vector<SideOutput>& side_outputs() { return side_outputs_; }

  [[nodiscard]] rewrite::EditSet& edits() { return edits_; }
  [[nodiscard]] std::vector<Diagnostic>& diagnostics() { return diags_; }
  [[nodiscard]] FileStats& stats() { return stats_; }

 private:
  void compute_exclusions();
  static void count(std::map<std::string, std::size_t, std::less<>>& by_family, std::string_view family) {
    auto it = by_family.find(family);
    if (it == by_family.end()) it = by_family.emplace(std::string(family), 0).first;
    ++it->second;
  }

  std::string path_;
  const targets::Target& target_;
  const targets::Options& options_;
  const targets::ProjectContext& project_;
  std::vector<bool> excluded_line_;  // index = line number
  rewrite::EditSet edits_;
  std::vector<Diagnostic> diags_;
  FileStats stats_;
  std::vector<SideOutput> side_outputs_;
  std::vector<CompatUse> compat_uses_;
  mutable std::vector<const rules::Rule*> rule_of_name_;  // by lex::CodeView::name_id (identifier_rule)
  mutable std::vector<const targets::UnmappedApiName*> unmapped_of_name_;  // the same, unmapped_api_name
};

struct FileResult {
  std::string output;
  rewrite::LineMap line_map;
  std::vector<Diagnostic> diagnostics;
  FileStats stats;
  std::vector<SideOutput> side_outputs;  // written beside the output file
};

// Runs the target's passes, its rule tables and its finishing step over one buffer.
// `lexed`: the source's tokens when the caller has them (SourceView::lexed), taken over.
[[nodiscard]] FileResult migrate_buffer(std::string path, std::string_view src, const targets::Target& target,
                                        const targets::Options& options, const targets::ProjectContext& project,
                                        lex::CodeView* lexed = nullptr);

// The generic rule application (renames, headers, namespaces, call rewrites, diagnostics for
// unsupported/deprecated/changed APIs). Exposed for targets that run it in a different order.
void apply_rules(FileMigration& file, const rules::RuleSet& rules);

}  // namespace ferry::migrate

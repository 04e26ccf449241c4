// The workbench's model of one migrated tree: OUT (read and written only through SafeRoot), its
// input tree (read-only), and what migrate, the rounds and verify left in OUT/.ferry/. Every call
// reads the state afresh (the CLI may run a round or verify beside the server), so the model holds
// no copy of it. Thread-safe; saves and rounds are serialised by write_lock().
//
//   project()          the tree with a status per file, counts, rounds, last verify summary
//   view(rel)          one file: current text, original text, diagnostics mapped onto the current
//                      lines, verify results per arch with errors at their lines, conflict markers
//                      and the safe fixes that apply
//   save(rel, ...)     optimistic concurrency: the caller names the hash it edited; a file changed
//                      on disk since is refused (409) and left intact
//   apply_fix(rel,id)  one safe fix of `ferry analyze --fix` applied to the current text
//
// A save is an edit by hand in the sense of docs/rounds.md: the manifest still holds the hash Ferry
// wrote, so the next round merges the saved text three-way instead of overwriting it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/profile.h"
#include "serve/safe_fs.h"

namespace ferry::serve {

// The file status the project view shows (precedence in this order).
enum class FileStatus { Conflict, Edited, Migrated, Unchanged, Untracked, Missing, Symlink };
[[nodiscard]] std::string_view status_name(FileStatus s);

// Where an original line lands in the current text of an output: through the line map migrate
// wrote (original -> generated) and a line diff of the generated text against the current one
// (generated -> current, for files edited by hand). `exact` is false when the line sits inside a
// region the user changed (the position is the start of that region).
struct MappedLine {
  std::uint32_t line = 0;  // 1-based; 0: the whole file
  bool exact = true;
};

class LineMapper {
 public:
  // `out_to_orig`: linemaps.json's array for the file (empty: lines unchanged by migration).
  LineMapper(std::vector<std::uint32_t> out_to_orig, std::string_view generated, std::string_view current);
  [[nodiscard]] MappedLine from_original(std::uint32_t orig_line) const;
  [[nodiscard]] MappedLine from_generated(std::uint32_t gen_line) const;

 private:
  std::vector<std::uint32_t> out_to_orig_;
  std::vector<std::uint32_t> gen_to_cur_;    // index gen line-1 -> current line; 0 in a changed region
  std::vector<std::uint32_t> region_start_;  // for lines in changed regions: current line of the region
};

// One safe fix (analyze --fix) applicable to the current text of a file.
struct Fix {
  std::string id;  // "FRY2205:68" (code:line in the current text)
  std::string code;
  std::uint32_t line = 0;
  std::string message;
  std::string hint;
  std::string replacement_preview;  // the lines as they would read after the fix
};

struct SaveResult {
  std::string hash;  // content hash of the saved text (migrate::content_hash)
  std::size_t bytes = 0;
};

struct WorkspaceOptions {
  std::filesystem::path out;
  std::size_t max_file_bytes = 8u << 20;
  // Profile the safe fixes are computed for (FRY2204's width); null: the fixes list is empty.
  const analysis::Profile* fix_profile = nullptr;
  std::string diagnostics_markdown;  // docs/diagnostics.md, for the doc anchor of each code
  std::string docs_url = "/docs/diagnostics.md";
};

class Workspace {
 public:
  // Throws std::invalid_argument when OUT is no tree written by ferry migrate.
  explicit Workspace(WorkspaceOptions options);

  [[nodiscard]] const SafeRoot& out() const { return out_; }
  [[nodiscard]] const std::filesystem::path& out_path() const { return out_.path(); }
  [[nodiscard]] std::size_t max_file_bytes() const { return opt_.max_file_bytes; }

  // OUT/.ferry/manifest.json, read now. Throws std::runtime_error when unreadable.
  [[nodiscard]] nlohmann::json manifest() const;
  // The input tree of the manifest, when it still exists (nullptr otherwise).
  [[nodiscard]] std::shared_ptr<const SafeRoot> input() const;

  [[nodiscard]] nlohmann::json project() const;
  [[nodiscard]] nlohmann::json view(std::string_view rel) const;

  // The current text of an output file (AccessError on refusal).
  [[nodiscard]] std::string read(std::string_view rel) const;
  // The original text of an output file from the input tree (AccessError 404 when there is none).
  [[nodiscard]] std::string read_original(std::string_view rel) const;

  // Replaces `rel` with `content` when its current hash is `base_hash`; AccessError 409 otherwise
  // (and when a round holds the write lock for longer than a few seconds).
  SaveResult save(std::string_view rel, std::string_view content, std::string_view base_hash);

  [[nodiscard]] std::vector<Fix> fixes(std::string_view rel) const;
  [[nodiscard]] std::vector<Fix> fixes_for_text(const std::string& rel, const std::string& text) const;
  // How many times the wave64 planner ran for fixes: a view of a file plans again only when that
  // file's text or another C-family file of OUT changed since its last plan.
  [[nodiscard]] std::size_t fix_plans() const;
  // Applies the fix `id` (from fixes()) to the file whose current hash is `base_hash`.
  SaveResult apply_fix(std::string_view rel, std::string_view id, std::string_view base_hash);

  // Held by a save, and by a round for its whole run.
  [[nodiscard]] std::timed_mutex& write_lock() { return write_mu_; }

  // The docs/diagnostics.md link of a code ("/docs/diagnostics.md#fry2201--..."); empty if none.
  [[nodiscard]] std::string doc_link(std::string_view code) const;

 private:
  struct Current {
    std::string hash;
    std::uintmax_t size = 0;
    bool conflict_markers = false;
  };
  [[nodiscard]] std::optional<Current> current(const std::string& rel, const std::filesystem::path& abs) const;
  [[nodiscard]] std::string generated_text(const nlohmann::json& entry) const;
  // Each fix the wave64 planner offers for one hazard of the file, with its edits.
  struct FixEdits;
  [[nodiscard]] std::vector<FixEdits> compute_fixes(const std::string& rel, const std::string& text) const;
  [[nodiscard]] std::vector<FixEdits> plan_fixes(const std::string& rel, const std::string& text,
                                                 const std::vector<std::string>& texts,
                                                 const std::vector<std::string>& keys) const;

  WorkspaceOptions opt_;
  SafeRoot out_;
  std::map<std::string, std::string> anchors_;  // code (or "FRYaaaa-FRYbbbb" range) -> anchor
  std::timed_mutex write_mu_;
  // Content hashes by (rel, size, mtime): the project view hashes every file of OUT each time.
  mutable std::mutex cache_mu_;
  mutable std::map<std::string, std::pair<std::pair<std::uintmax_t, std::int64_t>, Current>> cache_;
  // The last fixes computed per file, with the tree state they were planned on (compute_fixes).
  struct FixCache;
  mutable std::mutex fix_mu_;
  mutable std::shared_ptr<FixCache> fix_cache_;
};

// The markers rounds write (migrate/merge3.h), by 1-based line of the current text.
[[nodiscard]] std::vector<std::uint32_t> conflict_marker_lines(std::string_view text);

}  // namespace ferry::serve

// Migrating a whole tree, out of tree: read the input (never written), run the target over every
// C-family source in parallel, copy everything else, write outputs atomically, and keep a
// manifest in OUT/.ferry/ so a re-run can tell Ferry's output from the user's edits.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "migrate/file_migration.h"
#include "migrate/rounds.h"
#include "project/project.h"
#include "targets/target.h"

namespace ferry::migrate {

struct TreeOptions {
  std::filesystem::path input;
  std::filesystem::path output;
  unsigned jobs = 1;
  bool force = false;  // discard the user's edits of outputs instead of merging them (rounds)
  // GPU architecture written into migrated build files; empty: the target's default profile.
  std::string arch;
  std::uintmax_t max_file_size = 64ull << 20;
  // Progress (the CLI wires these to report::Progress; the engine never prints). Optional; called
  // once with the number of files and their bytes, then from worker threads once per file done.
  std::function<void(std::size_t files, std::uintmax_t bytes)> on_start;
  std::function<void(std::uintmax_t file_bytes)> on_file_done;
};

struct FileReport {
  std::string rel;
  project::FileKind kind;
  std::string action;  // "migrated", "copied", "skipped"; rounds: "unchanged", "kept", "merged", "conflict"
  FileStats stats;
  std::size_t diagnostics = 0;
};

struct TreeResult {
  std::vector<FileReport> files;
  std::vector<Diagnostic> diagnostics;  // sorted
  std::size_t bytes_in = 0;
  double seconds = 0;
  rounds::RoundSummary round;  // what this round did (docs/rounds.md)
};

class TreeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws TreeError for refusals (output inside input, edited outputs without --force, ...).
[[nodiscard]] TreeResult migrate_tree(const targets::Target& target, const targets::Options& options,
                                      const TreeOptions& tree);

// Stable 64-bit content hash (FNV-1a) used by the manifest; printed as 16 hex digits.
[[nodiscard]] std::string content_hash(std::string_view data);

}  // namespace ferry::migrate

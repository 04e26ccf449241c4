// Rounds: the state a migration leaves in OUT/.ferry/ so the next run over the same OUT can skip
// what did not change, merge the user's hand edits with what changed, and tell the story of each
// round (`ferry status OUT`). docs/rounds.md has the full picture; in short:
//
//   OUT/.ferry/manifest.json   per file: input hash, output hash, generated-text object, action,
//                              diagnostics; plus the fingerprint of rules and options. Written
//                              LAST: it is the commit point of a round.
//   OUT/.ferry/objects/<hash>  the generated text of every file, content-addressed (the merge
//                              base of the next round; a new round never overwrites an old base).
//   OUT/.ferry/journal.jsonl   while a round runs: one line per output about to be written. A
//                              killed run leaves it; the next run adopts the entries whose output
//                              did get written, and completes the rest.
//   OUT/.ferry/rounds.json     the history: one record per round.
//
// A Session is used by migrate_tree: `previous()` says whether a file can be skipped, `commit()`
// writes one file's output (plain, merged three-way, or with conflict markers), `finish()`
// handles deleted and renamed inputs and writes the history and the manifest.
#pragma once

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/diagnostic.h"
#include "migrate/json_spool.h"
#include "project/project.h"
#include "targets/target.h"

namespace ferry::migrate::rounds {

// Diagnostic codes of rounds: Diag::MergeConflict, OrphanKept, InputRenamed, EditsDiscarded,
// CannotMerge (FRY9201-FRY9205, core/diagnostics.def).

// What one round did, for the report and rounds.json.
struct RoundSummary {
  int round = 0;
  std::string time;  // UTC, ISO 8601
  std::size_t migrated = 0, copied = 0, unchanged = 0, merged = 0, conflicted = 0;
  std::size_t removed = 0, orphaned = 0, renamed = 0, edited_by_hand = 0, recovered = 0;
  std::size_t diagnostics = 0, opened = 0, closed = 0;
  double seconds = 0;
};

// Hash of everything besides the input text that decides a file's output: target, options, the
// rule tables (built-in and user), the project-wide facts, the build-file architecture.
[[nodiscard]] std::string fingerprint(const targets::Target& target, const targets::Options& options,
                                      const targets::ProjectContext& project, std::string_view extra);

// Whether an output (its manifest entry and the content hash of the file now) carries edits made
// by hand: it changed since Ferry wrote it, or it differs from the text Ferry generated — a merged
// output holds the user's edits of an earlier round, so the next round must merge them again.
// Outputs with conflict markers count as edited once they changed since Ferry wrote them.
[[nodiscard]] bool carries_hand_edits(const nlohmann::json& entry, std::string_view current_hash);

struct Previous {
  std::vector<Diagnostic> diagnostics;  // of the last round that generated this file
  bool conflict = false;                // the output still carries conflict markers
};

// The result of committing one file.
struct Commit {
  std::string action;                   // "migrated" / "copied" (written as generated), "merged", "conflict", "kept"
  std::vector<Diagnostic> diagnostics;  // rounds' own (FRY92xx)
};

class Session {
 public:
  // Loads the manifest (throws std::runtime_error when unreadable), recovers an interrupted
  // round, and opens the journal. `force`: hand edits are discarded instead of merged.
  Session(std::filesystem::path out, std::string fingerprint, bool force);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  [[nodiscard]] bool has_manifest() const { return !prev_.is_null(); }
  [[nodiscard]] const nlohmann::json& previous_manifest() const { return prev_; }

  // Starts the round (opens the journal), once the caller decided to write into OUT at all.
  // `rels`: the relative paths of this round's inputs.
  void begin(const std::vector<std::string>& rels);

  // When `rel` had the same input and fingerprint last round and its output is still there
  // (untouched, or edited by hand and not --force): what it had, and the file is recorded as
  // skipped; else nullopt. Thread-safe.
  [[nodiscard]] std::optional<Previous> unchanged(const std::string& rel, const std::string& input_hash);

  // Writes the output of `rel` for freshly `generated` text. Thread-safe; `kind_action` is
  // "migrated" or "copied"; `diags` are the migration's diagnostics (stored in the manifest).
  Commit commit(const std::string& rel, project::FileKind kind, const std::string& input_hash,
                const std::string& generated, const std::string& kind_action, const std::vector<Diagnostic>& diags);

  // Deleted/renamed inputs, rounds.json, manifest (last), journal removal, object clean-up.
  // `extra` top-level manifest fields (target, input, ...) are kept as given.
  RoundSummary finish(const nlohmann::json& extra, std::vector<Diagnostic>& diagnostics, double seconds);

 private:
  std::filesystem::path out_;
  std::string fingerprint_;
  bool force_;
  nlohmann::json prev_;  // previous manifest (null when none)
  // This round's entries, each dumped as dump(1) writes it (the manifest's form), spooled to a
  // temporary file: a tree's entries with their diagnostics are not held in memory.
  JsonSpool files_{"the manifest's entries"};
  std::map<std::string, std::string> deleted_by_hash_;  // input hash -> deleted rel
  std::set<std::string> renamed_from_;
  std::set<std::string> inputs_;  // this round's inputs (only when there is a last round)
  RoundSummary sum_;
  std::mutex mu_;
  std::ofstream journal_;
};

// rounds.json, for `ferry status` (an empty array when absent).
[[nodiscard]] nlohmann::json load_history(const std::filesystem::path& out);

}  // namespace ferry::migrate::rounds

// Mapping compiler errors back to the original source and deciding whose fault they are.
//
// Pure functions over parsed compiler output, the line maps `ferry migrate` persisted in
// OUT/.ferry/linemaps.json and the result of compiling the original: no processes, no I/O except
// load_line_maps. The classes and their order of precedence are documented in docs/verify.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rewrite/edit_set.h"
#include "verify/compiler_output.h"

namespace ferry::verify {

enum class FailureClass { None, MigrationDefect, MissingDependency, PreExisting, Diagnosed, TargetGap, Unknown };
[[nodiscard]] std::string_view class_name(FailureClass c);  // "migration-defect", ...

// Whether a diagnostic code says migrate could not port what it flagged and left it for the user
// (FRY1001 no equivalent, FRY1003 inline assembly, FRY1301 a name the release lacks, ...): an error
// on such a line is `diagnosed`, not a silent defect. Notes and review warnings (FRY4001) are not.
[[nodiscard]] bool reports_not_migrated(std::string_view code);

// What the target's release lacks, as its version model knows it (targets::Target::known_gaps).
struct TargetGaps {
  std::string release;                                                 // "HIP 5.2 (rocm-5.2)"
  std::map<std::string, std::string, std::less<>> names;               // name -> why
  std::map<std::pair<std::string, std::string>, std::string> members;  // (type, member) -> why
};

// The name an error is about, when its message quotes one the way clang does ("use of undeclared
// identifier 'X'", "unknown type name 'X'", "no member named 'X' in namespace 'N'", "no template
// named 'X'"); for "no member named 'M' in 'T'" also the type T without namespace, template
// arguments or cv/tag words (`scope`). Empty name: the message names none.
struct QuotedName {
  std::string name;
  std::string scope;  // set for a member of a type
};
[[nodiscard]] QuotedName quoted_name(std::string_view message);
// The name in nvcc's `identifier "X" is undefined`, or nullopt for any other message.
[[nodiscard]] std::optional<std::string> nvcc_undefined_name(std::string_view message);

// One migrated file: rewrite::LineMap plus the original lines migrate raised diagnostics on.
struct FileLineMap {
  rewrite::LineMap map;
  std::map<std::uint32_t, std::vector<std::string>> flagged;  // original line -> codes
};

struct LineMaps {
  std::map<std::string, FileLineMap> files;  // by path relative to the tree root
  [[nodiscard]] const FileLineMap* find(const std::string& rel) const;
};

// Reads OUT/.ferry/linemaps.json; an absent file gives empty maps (every line unchanged).
// Throws std::runtime_error when the file exists but cannot be parsed.
[[nodiscard]] LineMaps load_line_maps(const std::filesystem::path& tree_root);
[[nodiscard]] LineMaps line_maps_from_json(std::string_view text);

// What compiling the original translation unit told us.
struct OriginalCheck {
  enum class State { NotRun, Compiles, Fails, Inconclusive } state = State::NotRun;
  std::set<std::pair<std::string, std::uint32_t>> error_lines;  // (rel, line) in the input tree
  std::string first_error;                                      // "rel:line: message"
  // Names nvcc reports undefined (`identifier "FIXME" is undefined`): it reports each name once
  // per file, so a later use of the same name in the port is the same, pre-existing error.
  std::set<std::string> undefined_names;
  std::string note;     // why NotRun/Inconclusive
  bool cached = false;  // taken from the cache of an earlier run
};

// The first place inside the tree an error belongs to: the error itself when it is in the tree,
// otherwise the innermost #include line of the tree that led to it.
struct Origin {
  std::string rel;
  std::uint32_t out_line = 0;
  std::uint32_t orig_line = 0;
  std::uint32_t col = 0;             // output column; meaningful for the original only on unchanged lines
  bool via_include = false;          // the error itself is outside the tree (a system header)
  bool changed = false;              // the origin line, an include line leading to it, or a note is changed
  std::vector<std::string> flagged;  // diagnostic codes migrate raised on that original line
};

struct MappedError {
  CompilerError raw;
  std::optional<Origin> origin;
  FailureClass cls = FailureClass::Unknown;
  std::string reason;
  std::string library;  // for missing-dependency: the library that provides the header
  // Raised in a header migrate reported as standing in for cuda.h (FRY1410): when it is the
  // unit's first error, the unit is classed by it (unit_class).
  bool stand_in = false;
};

// Turns a path printed by a compiler (relative to `cwd` or absolute) into a path relative to
// `root`, when it lies inside it.
[[nodiscard]] std::optional<std::string> tree_relative(const std::filesystem::path& cwd, const std::string& printed,
                                                       const std::filesystem::path& root);

struct ClassifyContext {
  std::filesystem::path root;  // the tree compiled
  std::filesystem::path cwd;   // where the compiler ran
  const LineMaps* maps = nullptr;
  const std::set<std::string>* tree_files = nullptr;  // rel paths of every file of the tree
  const OriginalCheck* original = nullptr;            // null: not checked
  bool source_is_original = false;                    // --cuda: the tree is itself the original source
  const TargetGaps* gaps = nullptr;                   // null: the target has no version model
};

[[nodiscard]] MappedError map_error(const CompilerError& e, const ClassifyContext& ctx);
void classify(MappedError& e, const ClassifyContext& ctx);

// The class of a failed unit: diagnosed when its first error lies in a header standing in for
// cuda.h (FRY1410); else migration-defect if any error is one, else missing-dependency, else
// pre-existing, else diagnosed, else target-gap, else unknown.
[[nodiscard]] FailureClass unit_class(const std::vector<MappedError>& errors);

// True when every error is a missing header: compiling the original then proves nothing.
[[nodiscard]] bool only_missing_headers(const std::vector<CompilerError>& errors);

}  // namespace ferry::verify

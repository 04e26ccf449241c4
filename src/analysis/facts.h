// What the hazard checks know about one file before any check runs: its function definitions
// (with the flow-insensitive taint of their local variables), its compile-time constants and
// the helpers that return lane ids or thread-derived values. Computed once per file
// (collect_facts), read by every check under checks/.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "migrate/file_migration.h"

namespace ferry::analysis {

// One `name = expr` definition in a function body (a declaration or a plain assignment) and
// the taint of its value (kinds of FunctionInfo's variable sets, as bits: 1 thread, 2 lane,
// 4 ballot). `name` is a copy: facts outlive the text they were computed from (a tree's
// pre-passes read each file, keep its facts and drop the text).
struct VarDef {
  std::string name;
  std::size_t at = 0;  // code index of the '='
  unsigned taint = 0;
};

// One function definition: code indices of its name and of its body's braces.
struct FunctionInfo {
  std::string name;
  std::size_t name_ci = 0;
  std::size_t body_open = 0;               // '{'
  std::size_t body_close = 0;              // '}'
  bool is_kernel = false;                  // declared __global__
  bool is_device = false;                  // declared __device__ or __global__: compiled for the GPU
  bool is_host = false;                    // declared __host__ (with __device__: compiled for both sides)
  std::optional<long long> launch_bounds;  // first argument of __launch_bounds__, when constant
  std::size_t launch_bounds_ci = migrate::npos;
  // Dataflow over the body (flow-insensitive, to a fixpoint), what `name` holds somewhere:
  //   thread var: a value computed from threadIdx / a lane id / blockDim, without blockIdx
  //               or gridDim (a global element index is data, not a lane);
  //   lane var:   a lane id or warp index (derived through & 31, % 32, >> 5, / 32, their
  //               warpSize forms, __lane_id() or a lane helper);
  //   ballot var: the result of __ballot*/__activemask.
  // Read from the final `defs` (taints only grow over the fixpoint's rounds): no set per kind is
  // kept, as a tree's planner holds every file's facts at once.
  [[nodiscard]] bool is_thread_var(std::string_view name) const { return holds(name, 1); }
  [[nodiscard]] bool is_lane_var(std::string_view name) const { return holds(name, 2); }
  [[nodiscard]] bool is_ballot_var(std::string_view name) const { return holds(name, 4); }
  std::map<std::string, long long> local_constants;  // const/constexpr locals with constant values
  std::vector<VarDef> defs;                          // every definition in source order, as the fixpoint left them;
                                                     // empty when the file has no taint source (every taint is 0)
  // Whether a definition of `name` holds a value with taint bit `bit`.
  [[nodiscard]] bool holds(std::string_view name, unsigned bit) const {
    for (const VarDef& d : defs)
      if ((d.taint & bit) && d.name == name) return true;
    return false;
  }
};

// A named compile-time constant of the file: `#define NAME expr` or `constexpr T NAME = expr;`.
// Its name is its key in FileFacts::constants (not kept twice: a tree's planner holds every
// file's constants at once, and a header like glew.h has thousands).
struct ConstantInfo {
  long long value = 0;
  std::size_t name_ci = 0;   // code index of NAME in its definition
  std::size_t first_ci = 0;  // first code index of the definition ('#' or the declaration start)
  std::size_t last_ci = 0;   // last code index of the definition (the value's end or ';')
  bool is_macro = false;
};

struct FileFacts {
  std::vector<FunctionInfo> functions;
  std::map<std::string, ConstantInfo> constants;  // file scope; a name defined twice with
                                                  // different values is left out
  std::set<std::string> lane_helpers;             // functions returning a lane id / warp index
  std::set<std::string> thread_helpers;           // functions returning a thread-derived value
  // Constants other files of the project define (a header's #define WARP_SIZE 32 seen from the
  // .cu that includes it); the file's own definitions win. Used for values, never reported.
  // Borrowed, never copied: one map serves every file of the project (a copy per file made a
  // tree's memory grow with files x constants), so it must outlive the facts; null: none.
  const std::map<std::string, long long>* project_constants = nullptr;
  // The value of another file's constant `name` (project_constants), or null.
  [[nodiscard]] const long long* project_constant(const std::string& name) const {
    if (!project_constants) return nullptr;
    const auto it = project_constants->find(name);
    return it == project_constants->end() ? nullptr : &it->second;
  }
  // Index into `functions` of the function whose body contains `ci`, or npos.
  [[nodiscard]] std::size_t function_at(std::size_t ci) const;
};

// The function definitions of a buffer in source order (FileFacts::functions without the
// dataflow): what a pass that only asks "is this code inside a kernel or device function?" reads.
// A definition's execution space is what its declaration spells (`__global__`, `__device__`,
// `__host__`), not a macro that expands to it.
[[nodiscard]] std::vector<FunctionInfo> function_definitions(const lex::CodeView& v);

// Computes the facts of one file (no diagnostics). `project_constants`: see FileFacts (borrowed:
// it must outlive the facts).
[[nodiscard]] FileFacts collect_facts(const migrate::FileMigration& file,
                                      const std::map<std::string, long long>* project_constants = nullptr);

// The facts of one file (collect_facts(file), without other files' constants), computed at most once
// and shared by the passes that read them (the HIP target's wmma_pass and hazard_pass): the
// planner's copy when it kept one (`planned`, handed over: freed with the slot), else collected on
// first ask. The file must outlive the slot; facts read only the file's tokens, never its edits,
// so any pass may ask.
class FileFactsSlot {
 public:
  explicit FileFactsSlot(const migrate::FileMigration& file, std::optional<FileFacts> planned = std::nullopt)
      : file_(file), own_(std::move(planned)) {}
  FileFactsSlot(const FileFactsSlot&) = delete;
  FileFactsSlot& operator=(const FileFactsSlot&) = delete;
  [[nodiscard]] const FileFacts& get() const {
    if (!own_) own_ = collect_facts(file_);
    return *own_;
  }

 private:
  const migrate::FileMigration& file_;
  mutable std::optional<FileFacts> own_;
};

// Merges the file-scope constants of many files; a name with different values is left out.
void merge_project_constants(const FileFacts& facts, std::map<std::string, long long>& merged,
                             std::set<std::string>& conflicting);

}  // namespace ferry::analysis

// What the region pass knows of a whole file (src/wave64/regions.h): its function definitions and
// macros, and whether a range of code can reach a barrier or warp operation through them; where
// a kernel's parameters and body are.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "wave64/region_syntax.h"

namespace ferry::wave64::regions {

class FileScope {
 public:
  explicit FileScope(const CodeView& v) : v_(v) {}

  // Function definitions (name -> body) and macros of the file; thread_block objects.
  void collect();
  // The function or macro `name` (or, not defined here, the external call) cannot reach a
  // barrier or warp operation.
  [[nodiscard]] bool function_safe(const std::string& name);
  // No barrier, warp operation or call that might reach one in code tokens [first, last]; else
  // false, with what was found in `why`.
  [[nodiscard]] bool range_safe(std::size_t first, std::size_t last, std::string* why);
  // The `(` of `name<...>(` at identifier `id`, or npos.
  [[nodiscard]] std::size_t template_call_paren(std::size_t id) const;
  // The `(` of the parameters and the `{ }` of the body of the kernel whose `__global__` is at
  // `kw`; false for a declaration.
  [[nodiscard]] bool kernel_body(std::size_t kw, std::size_t& params_open, std::size_t& open, std::size_t& close) const;
  // name -> the body ranges of its definitions
  [[nodiscard]] const std::map<std::string, std::vector<std::pair<std::size_t, std::size_t>>>& functions() const {
    return funcs_;
  }

 private:
  const CodeView& v_;
  std::map<std::string, std::vector<std::pair<std::size_t, std::size_t>>> funcs_;  // name -> body ranges
  std::map<std::string, std::pair<std::size_t, std::size_t>> macros_;              // name -> body tokens
  std::map<std::string, bool> safe_memo_;
  std::set<std::string> block_objs_;  // names declared as cooperative groups' thread_block
  std::set<std::string> in_progress_;

  bool is(std::size_t i, std::string_view t) const { return v_.is(i, t); }
  std::string tx(std::size_t i) const { return std::string(v_.text(i)); }
};

// The names of the parameters between `(` at `open` and `)` at `close`.
[[nodiscard]] std::set<std::string> param_names(const CodeView& v, std::size_t open, std::size_t close);

}  // namespace ferry::wave64::regions

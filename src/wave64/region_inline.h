// The region pass's inliner (src/wave64/regions.h): a call of a function of the file that reaches
// a barrier or warp operation, standing as a statement in a kernel (`f(a);`, `x = f(a);`,
// `T x = f(a);`, or inside an expression through a temporary), is replaced by the function's body,
// its names prefixed and every line where it was, so that the splitter sees the barriers.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "wave64/region_scope.h"
#include "wave64/region_syntax.h"

namespace ferry::wave64::regions {

class Inliner {
 public:
  Inliner(const CodeView& v, FileScope& scope) : v_(v), scope_(scope) {}
  // One round over the kernels of the file: `out` is the file with every call that could be
  // inlined replaced; `originals` gets, per kernel ordinal, its body as written the first time
  // one of its calls was; `next_id` numbers the inlined calls. Returns whether any was.
  bool inline_calls(std::string& out, std::map<int, std::string>& originals, int& next_id);

 private:
  const CodeView& v_;
  FileScope& scope_;

  bool is(std::size_t i, std::string_view t) const { return v_.is(i, t); }
  std::string tx(std::size_t i) const { return std::string(v_.text(i)); }
  // Code tokens [first, last] joined by spaces, names in `ren` renamed (directives left out).
  std::string mapped(std::size_t first, std::size_t last, const std::map<std::string, std::string>& ren) const;
  std::optional<std::string> inline_one(const Stmt& s, std::map<std::string, std::string>& types, int id);
};

}  // namespace ferry::wave64::regions

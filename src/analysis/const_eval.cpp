#include "analysis/const_eval.h"

#include <string>
#include <string_view>

#include "lex/const_expr.h"

namespace ferry::analysis {

using lex::CodeView;
using migrate::FileMigration;

namespace {

// The named constants an expression in `scope` (or at file scope) sees: the function's constant
// locals, the file's constants, then the project's.
class FactNames final : public lex::ConstNames {
 public:
  FactNames(const FileFacts& facts, const FunctionInfo* scope) : facts_(facts), scope_(scope) {}
  [[nodiscard]] std::optional<long long> value(std::string_view name) const override {
    const std::string n(name);
    if (scope_) {
      const auto it = scope_->local_constants.find(n);
      if (it != scope_->local_constants.end()) return it->second;
    }
    const auto it = facts_.constants.find(n);
    if (it != facts_.constants.end()) return it->second.value;
    if (const long long* p = facts_.project_constant(n)) return *p;
    return std::nullopt;
  }

 private:
  const FileFacts& facts_;
  const FunctionInfo* scope_;
};

}  // namespace

std::optional<long long> eval(const CodeView& v, const FileFacts& facts, std::size_t first, std::size_t last,
                              const FunctionInfo* scope) {
  const FactNames names(facts, scope);
  return lex::eval_const(v, first, last, &names);
}

std::optional<long long> eval_constant(const FileMigration& file, const FileFacts& facts, std::size_t first,
                                       std::size_t last, const FunctionInfo* scope) {
  const CodeView& v = file;
  return eval(v, facts, first, last, scope);
}

}  // namespace ferry::analysis

// The rule model: name mappings between ecosystems, as data.
//
// A rule maps one source-ecosystem name (function, type, enumerator, macro, header path,
// namespace qualifier) to its target twin, with the API family it belongs to and a support
// status. `Call` rules rewrite a whole call from a template over its arguments. Rules are
// loaded from tab-separated tables (see docs/rules.md); built-in tables are compiled into the
// binary and users may add or override rows with their own files. A row may say which release
// of the target first has its replacement (`since`, rules/version.h).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rules/version.h"

namespace ferry::rules {

enum class RuleKind : std::uint8_t { Func, Type, Enum, Macro, Header, Namespace, Call };
enum class Status : std::uint8_t { Supported, Unsupported, Deprecated, Changed };
// Whether the release a target builds for has a rule's replacement (set by the target from
// `since`; see RuleSet::adjust). Compat: only through a compat header Ferry writes.
enum class Availability : std::uint8_t { Available, Compat, Missing };

struct Rule {
  RuleKind kind;
  Status status;
  std::string from;
  std::string to;  // "-" or empty when there is no replacement
  std::string family;
  std::string note;
  Version since;  // first target release that has `to` (ROCm for CUDA → HIP); unknown: any
  Availability availability = Availability::Available;  // in the target's release
  std::string compat;  // with Availability::Compat: the compat header's name ("simd", "bf16")
  std::string origin;  // "file:line" of the row, for messages

  [[nodiscard]] bool has_replacement() const { return !to.empty() && to != "-"; }
};

class RuleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[nodiscard]] std::string_view to_string(RuleKind k);
[[nodiscard]] std::string_view to_string(Status s);

// Identifier rules (func/type/enum/macro/call) share one lookup; headers and namespaces have
// their own, so `cub` the namespace and a hypothetical `cub` function can coexist.
class RuleSet {
 public:
  enum class Merge { RejectDuplicates, Override };

  // Parses a table. `origin` names it in error messages. Throws RuleError on malformed rows,
  // and on duplicates when `merge` is RejectDuplicates.
  void load_table(std::string_view text, std::string_view origin, Merge merge);
  void add(Rule rule, Merge merge);

  [[nodiscard]] const Rule* find_identifier(std::string_view name) const;
  [[nodiscard]] const Rule* find_header(std::string_view path) const;
  [[nodiscard]] const Rule* find_namespace(std::string_view name) const;

  // Lets a target set what depends on its release (availability, compat) on every row. `f` must
  // not change `kind` or `from`: the indices are keyed on them.
  template <class F>
  void adjust(F&& f) {
    for (auto& r : rules_) f(*r);
  }

  [[nodiscard]] std::size_t size() const { return rules_.size(); }
  [[nodiscard]] const std::vector<std::unique_ptr<Rule>>& all() const { return rules_; }

  // Counts per family and status: family -> status -> count.
  [[nodiscard]] std::map<std::string, std::map<std::string, std::size_t>> stats() const;

 private:
  using Index = std::unordered_map<std::string_view, Rule*>;
  Index& index_for(RuleKind k);
  [[nodiscard]] const Index& index_for(RuleKind k) const;

  std::vector<std::unique_ptr<Rule>> rules_;  // stable addresses; keys view into them
  Index identifiers_;
  // One bit per first-two-bytes of an identifier rule's name: most identifiers of a source file
  // (i, n, float, data) match no rule and are answered without hashing.
  std::vector<std::uint64_t> identifier_heads_ = std::vector<std::uint64_t>(65536 / 64, 0);
  Index headers_;
  Index namespaces_;
};

// Expands a call template: $N is argument N, $N... arguments N..end joined with ", ".
// Returns false when the template references an argument the call does not have.
[[nodiscard]] bool expand_call_template(std::string_view tmpl, const std::vector<std::string>& args, std::string& out);

}  // namespace ferry::rules

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
#include <deque>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rules/version.h"

namespace ferry::rules {

enum class RuleKind : std::uint8_t { Func, Type, Enum, Macro, Header, Namespace, Call };
enum class Status : std::uint8_t { Supported, Unsupported, Deprecated, Changed };
// Whether the release a target builds for has a rule's replacement (set by the target from
// `since`; see RuleSet::adjust). Compat: only through a compat header Ferry writes.
enum class Availability : std::uint8_t { Available, Compat, Missing };

// A rule's text views storage that its RuleSet keeps: the tables compiled into the binary, or
// the set's own copy of what it was given (a user's file, a rule built by a target). A Rule is
// valid as long as its set; RuleSet::add copies a rule's text into the set it joins.
struct Rule {
  RuleKind kind;
  Status status;
  std::string_view from;
  std::string_view to;  // "-" or empty when there is no replacement
  std::string_view family;
  std::string_view note;
  Version since;  // first target release that has `to` (ROCm for CUDA → HIP); unknown: any
  Availability availability = Availability::Available;  // in the target's release
  std::uint32_t line = 0;   // the row's line in `table`; 0: `table` says where the rule comes from
  std::string_view compat;  // with Availability::Compat: the compat header's name ("simd", "bf16")
  std::string_view table;   // the table the row was read from ("rules/cuda2hip/runtime.tsv")

  [[nodiscard]] bool has_replacement() const { return !to.empty() && to != "-"; }
  // "table:line" (or `table` alone for a rule made by a target), for messages.
  [[nodiscard]] std::string origin() const;
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

  // Parses a table. `origin` names it in error messages and Rule::origin. The set keeps a copy of
  // `text`. Throws RuleError on malformed rows, and on duplicates when `merge` is RejectDuplicates.
  void load_table(std::string_view text, std::string_view origin, Merge merge);
  // The same for text that lives as long as the program (the tables compiled into the binary):
  // the rules view it where it is, and no copy is made.
  void load_static_table(std::string_view text, std::string_view origin, Merge merge);
  // Adds a copy of `rule`, its text kept by this set.
  void add(const Rule& rule, Merge merge);

  [[nodiscard]] const Rule* find_identifier(std::string_view name) const;
  [[nodiscard]] const Rule* find_header(std::string_view path) const;
  [[nodiscard]] const Rule* find_namespace(std::string_view name) const;

  // Lets a target set what depends on its release (availability, compat) on every row. `f` must
  // not change `kind` or `from`: the indices are keyed on them. A view it stores must outlive the
  // set (a static table's).
  template <class F>
  void adjust(F&& f) {
    for (Rule& r : rules_) f(r);
  }

  [[nodiscard]] std::size_t size() const { return rules_.size(); }
  // The rules in the order they were first added.
  [[nodiscard]] std::span<const Rule* const> all() const { return order_; }

  // Counts per family and status: family -> status -> count.
  [[nodiscard]] std::map<std::string, std::map<std::string, std::size_t>> stats() const;

 private:
  // Open addressing over the rules' `from` (linear probing, at most half full): one array, no
  // node per rule, and a lookup compares the hash before the text.
  class Index {
   public:
    [[nodiscard]] Rule* find(std::string_view key) const;
    // `rule` under its `from`, unless a rule has that key already: then that one, unchanged.
    Rule* insert(Rule* rule);

   private:
    struct Slot {
      Rule* rule = nullptr;
      std::size_t hash = 0;
    };
    void grow();
    std::vector<Slot> slots_;
    std::size_t size_ = 0;
  };
  // Copies of text the set was given (user files, rules built by targets), in blocks that never
  // move: the rules view them.
  class TextStore {
   public:
    std::string_view keep(std::string_view s);

   private:
    std::vector<std::unique_ptr<char[]>> blocks_;
    std::size_t used_ = 0;  // bytes of blocks_.back() in use
  };

  Index& index_for(RuleKind k);
  void add_kept(Rule&& rule, Merge merge);  // `rule`'s views already outlive the set
  void parse(std::string_view text, std::string_view origin, Merge merge);

  std::deque<Rule> rules_;          // stable addresses: the indices point into it
  std::vector<const Rule*> order_;  // rules_, for all()
  TextStore text_;
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

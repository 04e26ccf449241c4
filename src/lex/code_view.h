// The non-trivia tokens of one buffer, the one cursor every pass reads code through.
//
// Tokens are addressed by *code index*: the position among the non-trivia tokens (comments and
// whitespace skipped), so "the next token" is ci + 1. Built once per buffer: the code index,
// each code token's text packed into one integer (lex::short_key, so `is(ci, "(")` is one
// comparison) and the partner of every bracket. FileMigration (migrate/) is a CodeView plus
// edits and diagnostics; analysis/ and the targets' project-wide pre-passes use CodeView alone.
// Every reader is safe past the end: text() is "", is() is false, partner() is npos.
// The identifiers are interned on first use (occurrences()): a pass that looks for a few names
// visits their occurrences instead of testing every token of the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "lex/lexer.h"

namespace ferry::lex {

inline constexpr std::size_t npos = static_cast<std::size_t>(-1);

// One argument of a parsed call: code indices [first, last] (inclusive); empty when first > last.
struct ArgRange {
  std::size_t first;
  std::size_t last;
  [[nodiscard]] bool empty() const { return first > last; }
};

class CodeView {
 public:
  // Tokenizes `src`, which must outlive the view.
  explicit CodeView(std::string_view src);

  [[nodiscard]] std::string_view source() const { return src_; }
  [[nodiscard]] const TokenList& tokens() const { return toks_; }
  [[nodiscard]] std::size_t code_size() const { return code_.size(); }
  // Code token `ci` (ci < code_size()).
  [[nodiscard, gnu::always_inline]] Token code(std::size_t ci) const { return toks_[code_[ci]]; }
  // Index into tokens() of code token `ci`.
  [[nodiscard]] std::size_t token_index(std::size_t ci) const { return code_[ci]; }
  [[nodiscard]] std::string_view text(std::size_t ci) const {
    if (ci >= code_.size()) return {};
    const std::size_t ti = code_[ci];
    return {src_.data() + toks_.begin(ti), toks_.end(ti) - toks_.begin(ti)};
  }
  // Text of code tokens [first, last] as written, trivia between them included.
  [[nodiscard]] std::string_view span_text(std::size_t first, std::size_t last) const;
  // Every pass asks this of most tokens: short texts compare as one integer (lex::short_key).
  [[nodiscard, gnu::always_inline]] bool is(std::size_t ci, std::string_view t) const {
    if (t.size() <= 7) return ci < code_key_.size() && code_key_[ci] == short_key(t);
    return ci < code_.size() && code_key_[ci] == kLongKey && text(ci) == t;
  }
  // lex::short_key of code token `ci`'s text.
  [[nodiscard]] std::uint64_t key(std::size_t ci) const { return code_key_[ci]; }
  [[nodiscard]] bool is_identifier(std::size_t ci) const {
    return ci < code_.size() && toks_.kind(code_[ci]) == Kind::Identifier;
  }
  [[nodiscard]] bool is_number(std::size_t ci) const {
    return ci < code_.size() && toks_.kind(code_[ci]) == Kind::Number;
  }
  [[nodiscard]] bool in_directive(std::size_t ci) const { return ci < code_.size() && toks_.in_directive(code_[ci]); }

  // ----- brackets and calls -----
  // The partner of the bracket ( [ { ) ] } at `ci`, or npos (unbalanced, or not a bracket).
  // Brackets pair within code and within each directive, never across the two; a stray closer is
  // skipped (it pairs with nothing).
  [[nodiscard]] std::size_t partner(std::size_t ci) const {
    return ci < partner_.size() && partner_[ci] != CodeIndex::kNoPartner ? partner_[ci] : npos;
  }
  // For `(`, `[` or `{` at `open`, the code index of its partner, or npos.
  [[nodiscard]] std::size_t match_bracket(std::size_t open) const;
  // Arguments of the call whose `(` is at `open` (split at top-level commas); empty for `f()` or
  // an unbalanced `(`.
  [[nodiscard]] std::vector<ArgRange> call_args(std::size_t open) const;

  // ----- context of a name -----
  // Member access (`x.name`, `p->name`, `.*`, `->*`) or qualified by a scope other than the
  // global one (`ns::name`, `T<U>::name`; `::name` is not).
  [[nodiscard]] bool is_member_or_qualified(std::size_t ci) const;
  // Right after `.` or `->`.
  [[nodiscard]] bool is_member_name(std::size_t ci) const { return ci > 0 && (is(ci - 1, ".") || is(ci - 1, "->")); }
  // Last code index of the directive line that code token `ci` is on (through continuations).
  [[nodiscard]] std::size_t directive_last(std::size_t ci) const;

  // ----- identifiers by name -----
  // The code indices of the identifier tokens spelled `name`, ascending. The first call interns
  // every identifier of the buffer (one hash each), so each later call is one lookup.
  [[nodiscard]] std::span<const std::uint32_t> occurrences(std::string_view name) const;
  // The same for several names, merged (ascending).
  [[nodiscard]] std::vector<std::uint32_t> occurrences(std::span<const std::string_view> names) const;
  [[nodiscard]] std::vector<std::uint32_t> occurrences(std::initializer_list<std::string_view> names) const {
    return occurrences(std::span<const std::string_view>(names.begin(), names.size()));
  }
  [[nodiscard]] bool mentions(std::string_view name) const { return !occurrences(name).empty(); }
  // The interned id of identifier `ci`'s name (0 .. name_count() - 1; one id per distinct name, in
  // the order of their first occurrences), for per-name tables that a pass fills once per name
  // instead of once per token. Inline: a walk over every token asks it per identifier.
  [[nodiscard]] std::uint32_t name_id(std::size_t ci) const { return index().id_of[ci]; }
  // name_id of every code index at once (code_size() entries; 0 for a token that is no
  // identifier), for a walk over every token that keeps the array in a register.
  [[nodiscard]] const std::uint32_t* name_ids() const { return index().id_of; }
  [[nodiscard]] std::size_t name_count() const { return index().count; }
  // Name `id`'s text (as its first occurrence spells it) and its occurrences (ascending code
  // indices): a walk over the distinct names visits each name once, not each token.
  [[nodiscard]] std::string_view name_text(std::uint32_t id) const { return index().text[id]; }
  [[nodiscard]] std::span<const std::uint32_t> occurrences_of(std::uint32_t id) const {
    const NameArrays& n = index();
    return {n.at + n.first[id], n.first[id + 1] - n.first[id]};
  }

  // Bytes of memory the view holds: its tokens, its code index and, once built, the name index
  // (not the source text, which the caller owns; nor memo() results).
  [[nodiscard]] std::size_t memory_bytes() const;

  // ----- what a reader computed from the tokens, kept with them -----
  // The `T` that `make(*this)` returns, computed by the first reader that asks for a `T` and kept
  // with the tokens: it moves with them (a FileMigration that takes over a pre-pass's view,
  // targets::SourceView::lexed), so a single file's pre-pass and its migration compute it once.
  // `T` must follow from the tokens alone (never from edits, options or another file).
  template <class T, class Make>
  [[nodiscard]] const T& memo(Make make) const {
    for (const auto& [key, value] : memos_)
      if (key == &kMemoKey<T>) return *static_cast<const T*>(value.get());
    auto value = std::make_shared<const T>(make(*this));
    const T& out = *value;
    memos_.emplace_back(&kMemoKey<T>, std::move(value));
    return out;
  }

 private:
  struct NameIndex;
  // The name index's arrays, as plain pointers for the inline readers above (they point into
  // *names_, which is shared and immutable once built; count == 0 with null pointers until then).
  struct NameArrays {
    const std::uint32_t* id_of = nullptr;    // per code index
    const std::uint32_t* first = nullptr;    // per id, count + 1 entries
    const std::uint32_t* at = nullptr;       // the occurrences, grouped by id
    const std::string_view* text = nullptr;  // per id
    std::size_t count = 0;
  };
  [[nodiscard]] const NameArrays& index() const {
    if (!arrays_.first) names();
    return arrays_;
  }
  const NameIndex& names() const;
  // One address per memo() type: its key.
  template <class T>
  static constexpr char kMemoKey = 0;

  std::string_view src_;
  TokenList toks_;
  PodArray<std::uint32_t> code_;                    // token index per code index
  PodArray<std::uint64_t> code_key_;                // short_key per code index
  PodArray<std::uint32_t> partner_;                 // bracket partner per code index, or CodeIndex::kNoPartner
  mutable std::shared_ptr<const NameIndex> names_;  // built by the first occurrences()
  mutable NameArrays arrays_;                       // into *names_
  mutable std::vector<std::pair<const void*, std::shared_ptr<const void>>> memos_;  // memo(): key, value
};

}  // namespace ferry::lex

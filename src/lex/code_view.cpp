#include "lex/code_view.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>

#include "lex/name_hash.h"

namespace ferry::lex {

CodeView::CodeView(std::string_view src) : src_(src) {
  CodeIndex code;
  toks_ = lex(src, &code);
  code_ = std::move(code.token);
  code_key_ = std::move(code.key);
  partner_ = std::move(code.partner);
}

// A short name's hash: its short_key (lex::short_key: the name itself), mixed.
std::uint64_t key_hash(std::uint64_t key) {
  const std::uint64_t h = key * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

namespace {

// The same bytes, for two names of 8 bytes or more (a short name is its short_key): names of up
// to 16 bytes compare as their first and last 8 bytes, without a call.
[[gnu::always_inline]] inline bool same_long_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  if (a.size() > 16) return std::memcmp(a.data(), b.data(), a.size()) == 0;
  std::uint64_t a0, a1, b0, b1;
  std::memcpy(&a0, a.data(), 8);
  std::memcpy(&b0, b.data(), 8);
  std::memcpy(&a1, a.data() + a.size() - 8, 8);
  std::memcpy(&b1, b.data() + b.size() - 8, 8);
  return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

}  // namespace

// Every identifier's code indices, grouped by name: `at[first[id] .. first[id + 1])`. The names
// are an open-addressing table: `slots` holds id + 1 (0: empty), `name_of` each id's text and
// `key_of` its short_key: names of up to 7 bytes compare as that one integer, longer ones
// (kLongKey) as text.
struct CodeView::NameIndex {
  std::vector<std::uint32_t> slots;
  std::vector<std::string_view> name_of;
  std::vector<std::uint64_t> key_of;
  std::vector<std::uint32_t> first;
  std::vector<std::uint32_t> at;
  // per code index (0 for a token that is no identifier); from the heap, not written before the
  // walk that fills it
  std::unique_ptr<std::uint32_t[]> id_of;
  std::size_t id_count = 0;

  // The slot of the name (`key` its short_key): its id + 1 there, or the empty slot where it
  // would go.
  [[nodiscard, gnu::always_inline]] std::size_t slot(std::uint64_t key, std::string_view name) const {
    const std::size_t mask = slots.size() - 1;
    const std::uint32_t* const s = slots.data();
    if (key != kLongKey) {
      for (std::size_t i = key_hash(key) & mask;; i = (i + 1) & mask)
        if (const std::uint32_t id1 = s[i]; id1 == 0 || key_of[id1 - 1] == key) return i;
    }
    for (std::size_t i = name_hash(name) & mask;; i = (i + 1) & mask)
      if (const std::uint32_t id1 = s[i];
          id1 == 0 || (key_of[id1 - 1] == kLongKey && same_long_name(name_of[id1 - 1], name)))
        return i;
  }
  void grow() {
    std::vector<std::uint32_t> old(slots.size() * 2, 0);
    old.swap(slots);
    for (const std::uint32_t id1 : old)
      if (id1 != 0) slots[slot(key_of[id1 - 1], name_of[id1 - 1])] = id1;
  }
  [[nodiscard]] std::uint32_t find(std::string_view name) const {  // id + 1, 0 when absent
    return slots.empty() ? 0 : slots[slot(short_key(name), name)];
  }
};

const CodeView::NameIndex& CodeView::names() const {
  if (names_) return *names_;
  auto n = std::make_shared<NameIndex>();
  const std::size_t code_count = code_.size();
  n->id_of = std::make_unique_for_overwrite<std::uint32_t[]>(code_count);  // written below, every entry
  n->id_count = code_count;
  std::uint32_t* const id_of = n->id_of.get();
  // The identifiers' code indices, in order: every code index is written to the next entry and
  // kept (counted) when it is an identifier, a walk without a branch per token. Room for every
  // code index, in pages of their own (PodArray) of which only those written are touched.
  PodArray<std::uint32_t> idents;
  idents.resize_uninitialized(code_count + 1);
  std::uint32_t* const ident_at = idents.data();
  std::size_t ident_count = 0;
  const std::uint32_t* const code = code_.data();
  for (std::size_t ci = 0; ci < code_count; ++ci) {
    id_of[ci] = 0;
    ident_at[ident_count] = static_cast<std::uint32_t>(ci);
    ident_count += toks_.kind(code[ci]) == Kind::Identifier;
  }
  // Each identifier's name, interned.
  std::vector<std::uint32_t> count;
  std::size_t cap = 64;
  while (cap < code_count / 8) cap *= 2;
  n->slots.assign(cap, 0);
  const std::uint64_t* const keys = code_key_.data();
  for (std::size_t k = 0; k < ident_count; ++k) {
    const std::uint32_t ci = ident_at[k];
    const std::uint64_t key = keys[ci];
    const std::string_view name = key == kLongKey ? text(ci) : std::string_view();
    std::size_t i = n->slot(key, name);
    std::uint32_t id1 = n->slots[i];
    if (id1 == 0) {
      if (2 * (n->name_of.size() + 1) > n->slots.size()) {
        n->grow();
        i = n->slot(key, name);
      }
      n->name_of.push_back(text(ci));
      n->key_of.push_back(key);
      count.push_back(0);
      id1 = static_cast<std::uint32_t>(n->name_of.size());
      n->slots[i] = id1;
    }
    ++count[id1 - 1];
    id_of[ci] = id1 - 1;
  }
  n->first.assign(count.size() + 1, 0);
  for (std::size_t i = 0; i < count.size(); ++i) n->first[i + 1] = n->first[i] + count[i];
  n->at.resize(n->first.back());
  std::vector<std::uint32_t> next(n->first.begin(), n->first.end() - 1);
  for (std::size_t k = 0; k < ident_count; ++k) n->at[next[id_of[ident_at[k]]]++] = ident_at[k];
  arrays_ = {n->id_of.get(), n->first.data(), n->at.data(), n->name_of.data(), n->first.size() - 1};
  names_ = std::move(n);
  return *names_;
}

std::span<const std::uint32_t> CodeView::occurrences(std::string_view name) const {
  const NameIndex& n = names();
  const std::uint32_t id1 = n.find(name);
  if (id1 == 0) return {};
  return {n.at.data() + n.first[id1 - 1], n.first[id1] - n.first[id1 - 1]};
}

std::vector<std::uint32_t> CodeView::occurrences(std::span<const std::string_view> names) const {
  std::vector<std::uint32_t> out;
  for (const std::string_view name : names) {
    const std::span<const std::uint32_t> at = occurrences(name);
    const std::size_t mid = out.size();
    out.insert(out.end(), at.begin(), at.end());
    std::inplace_merge(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(mid), out.end());
  }
  out.erase(std::unique(out.begin(), out.end()), out.end());  // a name given twice
  return out;
}

std::size_t CodeView::memory_bytes() const {
  std::size_t n =
      toks_.memory_bytes() + code_.capacity_bytes() + code_key_.capacity_bytes() + partner_.capacity_bytes();
  if (names_) {
    const NameIndex& x = *names_;
    n += sizeof(NameIndex) + x.slots.capacity() * sizeof(std::uint32_t) +
         x.name_of.capacity() * sizeof(std::string_view) + x.key_of.capacity() * sizeof(std::uint64_t) +
         x.first.capacity() * sizeof(std::uint32_t) + x.at.capacity() * sizeof(std::uint32_t) +
         x.id_count * sizeof(std::uint32_t);
  }
  return n;
}

std::string_view CodeView::span_text(std::size_t first, std::size_t last) const {
  if (first > last || last >= code_.size()) return {};
  return src_.substr(code(first).begin, code(last).end - code(first).begin);
}

std::size_t CodeView::match_bracket(std::size_t open) const {
  if (!(is(open, "(") || is(open, "[") || is(open, "{"))) return npos;
  return partner(open);
}

std::vector<ArgRange> CodeView::call_args(std::size_t open) const {
  std::vector<ArgRange> args;
  const std::size_t close = match_bracket(open);
  if (close == npos) return args;
  if (close == open + 1) return args;  // f()
  std::size_t start = open + 1;
  int depth = 0;
  for (std::size_t i = open + 1; i < close; ++i) {
    if (is(i, "(") || is(i, "[") || is(i, "{")) ++depth;
    else if (is(i, ")") || is(i, "]") || is(i, "}")) --depth;
    else if (depth == 0 && is(i, ",")) {
      args.push_back({start, i - 1});
      start = i + 1;
    }
  }
  args.push_back({start, close - 1});
  return args;
}

bool CodeView::is_member_or_qualified(std::size_t ci) const {
  if (ci == 0) return false;
  if (is(ci - 1, ".") || is(ci - 1, "->") || is(ci - 1, ".*") || is(ci - 1, "->*")) return true;
  if (is(ci - 1, "::")) {
    // `::name` (global scope) is fine; `ns::name` is someone else's name.
    return ci >= 2 && (is_identifier(ci - 2) || is(ci - 2, ">"));
  }
  return false;
}

std::size_t CodeView::directive_last(std::size_t ci) const {
  std::size_t j = ci;
  while (j + 1 < code_.size() && in_directive(j + 1)) {
    bool newline = false;
    for (std::size_t ti = token_index(j) + 1; ti < token_index(j + 1); ++ti)
      if (toks_.kind(ti) == Kind::Newline) newline = true;
    if (newline) break;
    ++j;
  }
  return j;
}

}  // namespace ferry::lex

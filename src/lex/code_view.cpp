#include "lex/code_view.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>

namespace ferry::lex {

namespace {

// short_key of a token, reading its bytes as one word where the buffer allows.
std::uint64_t token_key(std::string_view src, const Token& t) {
  const std::size_t n = t.end - t.begin;
  if (n > 7) return kLongKey;
  if constexpr (std::endian::native == std::endian::little) {
    if (n > 0 && t.begin + 8 <= src.size()) {
      std::uint64_t w;
      std::memcpy(&w, src.data() + t.begin, 8);
      return n | ((w & (~0ull >> (64 - 8 * n))) << 8);
    }
  }
  return short_key(t.text(src));
}

}  // namespace

CodeView::CodeView(std::string_view src) : src_(src), toks_(tokenize(src)) { index(); }

void CodeView::index() {
  code_.reserve(toks_.size() / 2);
  code_key_.reserve(toks_.size() / 2);
  partner_.reserve(toks_.size() / 2);
  // Bracket partners in the same walk: one stack for code, one for the directive being read
  // (reset at each '#', so a directive's brackets never pair with code or another directive's).
  std::vector<std::size_t> code_stack, dir_stack;
  for (std::uint32_t i = 0; i < toks_.size(); ++i) {
    const Token& tok = toks_[i];
    if (is_trivia(tok.kind)) continue;
    const std::size_t ci = code_.size();
    code_.push_back(i);
    code_key_.push_back(token_key(src_, tok));
    partner_.push_back(npos);
    if (tok.kind != Kind::Punct || tok.end - tok.begin != 1) continue;
    std::vector<std::size_t>& st = tok.in_directive ? dir_stack : code_stack;
    const char c = src_[tok.begin];
    if (tok.in_directive && c == '#') dir_stack.clear();
    if (c == '(' || c == '[' || c == '{') {
      st.push_back(ci);
    } else if (c == ')' || c == ']' || c == '}') {
      const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
      // tolerate stray closers: pop to the matching kind if it is on the stack
      auto it = std::find_if(st.rbegin(), st.rend(), [&](std::size_t o) { return src_[code(o).begin] == want; });
      if (it == st.rend()) continue;
      const std::size_t open = *it;
      st.erase(std::next(it).base(), st.end());
      partner_[open] = ci;
      partner_[ci] = open;
    }
  }
}

std::string_view CodeView::span_text(std::size_t first, std::size_t last) const {
  if (first > last || last >= code_.size()) return {};
  return src_.substr(code(first).begin, code(last).end - code(first).begin);
}

std::size_t CodeView::match_bracket(std::size_t open) const {
  if (!(is(open, "(") || is(open, "[") || is(open, "{"))) return npos;
  return partner_[open];
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
      if (toks_[ti].kind == Kind::Newline) newline = true;
    if (newline) break;
    ++j;
  }
  return j;
}

}  // namespace ferry::lex

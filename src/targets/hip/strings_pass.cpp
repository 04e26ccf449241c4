// --rewrite-strings: API names inside string literals, as hipify-clang offers.
//
// By default Ferry never touches string literals or comments: a message that says "cudaMalloc
// failed" is the user's text. With --rewrite-strings, each identifier-shaped word of a string
// literal that the rule tables rename (a function, type, enum or macro rule with a replacement
// the target release has; the called name of a call template) is renamed, so that
// `printf("cudaMemcpy failed: %s\n", cudaGetErrorString(e))` reads `hipMemcpy failed`. Words
// glued to other identifier characters (`mycudaMalloc`), header names, raw strings, character
// literals, strings in directives other than `#define` (`#pragma message`, `#include`) and
// excluded regions are left alone. Each rewritten literal is counted under the family "strings"; there is no
// diagnostic.
#include <cctype>
#include <string>

#include "targets/hip/hip_provided.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The literal with each renamed word replaced; equal to `lit` when nothing applies.
std::string rewrite_literal(const rules::RuleSet& rules, std::string_view lit) {
  std::string out;
  out.reserve(lit.size());
  // Skip the encoding prefix (u8, L, ...) and keep escapes intact: a word never starts right
  // after a backslash (`\nfoo` is the escape \n then "foo").
  std::size_t i = 0;
  while (i < lit.size() && lit[i] != '"') out.push_back(lit[i++]);
  while (i < lit.size()) {
    const char c = lit[i];
    if (c == '\\' && i + 1 < lit.size()) {
      out.push_back(c);
      out.push_back(lit[i + 1]);
      i += 2;
      continue;
    }
    if (!ident_char(c) || std::isdigit(static_cast<unsigned char>(c))) {
      // A number or other character; digits glued to a word are skipped with it below.
      if (ident_char(c)) {
        while (i < lit.size() && ident_char(lit[i])) out.push_back(lit[i++]);
        continue;
      }
      out.push_back(c);
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < lit.size() && ident_char(lit[j])) ++j;
    const std::string_view word = lit.substr(i, j - i);
    const rules::Rule* r = rules.find_identifier(word);
    if (r && r->has_replacement() && r->status != rules::Status::Unsupported &&
        r->availability == rules::Availability::Available)
      out += renamed_by(rules, word);
    else out += word;
    i = j;
  }
  return out;
}

// True when the directive holding code token `ci` is a #define (a macro body's message is code).
bool in_define(const migrate::FileMigration& file, std::size_t ci) {
  const std::string_view src = file.source();
  for (std::size_t k = ci + 1; k-- > 0;) {
    if (!file.code(k).in_directive) return false;
    if (!file.is(k, "#")) continue;
    // The directive's own '#': an unescaped newline (or the file start) before it.
    const std::uint32_t from = k == 0 ? 0 : file.code(k - 1).end, to = file.code(k).begin;
    bool starts = k == 0;
    for (std::uint32_t b = from; b < to; ++b)
      if (src[b] == '\n' && (b == 0 || src[b - 1] != '\\')) starts = true;
    if (starts) return k + 1 < file.code_size() && file.is(k + 1, "define");
  }
  return false;
}

}  // namespace

void strings_pass(migrate::FileMigration& file) {
  if (!file.target().flag("rewrite-strings")) return;
  const rules::RuleSet& rules = file.target().rules();
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    const lex::Token& t = file.code(ci);
    if (t.kind != lex::Kind::String || file.excluded(ci) || file.touched(ci)) continue;
    if (t.in_directive && !in_define(file, ci)) continue;
    const std::string_view lit = file.text(ci);
    std::string repl = rewrite_literal(rules, lit);
    if (repl == lit) continue;
    if (file.replace(ci, ci, std::move(repl))) file.count_converted("strings");
  }
}

}  // namespace ferry::targets::hip

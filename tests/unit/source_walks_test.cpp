// Unit tests of the walks that start from the text or the name index instead of visiting every
// token (analysis::detail::code_tokens_at and launch_opens, next_key, the includes pre-pass): on
// hand-written edge cases and on random token soup, they find exactly what a walk over every token
// finds.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "analysis/names.h"
#include "lex/code_view.h"
#include "targets/target.h"

namespace ferry {
namespace {

std::vector<std::size_t> launch_opens_by_walk(const lex::CodeView& v) {
  std::vector<std::size_t> out;
  for (std::size_t ci = 0; ci < v.code_size(); ++ci)
    if (v.code(ci).kind == lex::Kind::LaunchOpen) out.push_back(ci);
  return out;
}

std::vector<std::string> header_names_by_walk(std::string_view src) {
  const lex::CodeView v(src);
  std::vector<std::string> out;
  const lex::TokenList& toks = v.tokens();
  for (std::size_t i = 0; i < toks.size(); ++i)
    if (toks.kind(i) == lex::Kind::HeaderName) out.emplace_back(src.substr(toks.begin(i), toks.end(i) - toks.begin(i)));
  return out;
}

std::vector<std::string> header_names_by_scan(const std::string& src) {
  const std::vector<targets::SourceView> files = {{"f.cu", src}};
  targets::ProjectContext ctx;
  static const auto target = targets::make_target("hip", {});  // made once: it loads the rules
  const std::unique_ptr<targets::ProjectScan> scan = targets::includes_scan();
  targets::ProjectScan* const scans[] = {scan.get()};
  targets::run_project_scans(files, scans, *target, ctx);
  const auto headers = ctx.includes.find("f.cu");
  return headers ? std::vector<std::string>(headers->begin(), headers->end()) : std::vector<std::string>{};
}

const std::vector<std::string> kEdgeCases = {
    "k<<<1, 2>>>(x);",
    "<<<1, 1>>>();",  // a launch at code index 0
    "a <<<= b; c<<<<d; // k<<<1,1>>>()\n\"<<<\" /* <<< */ k<<<g, b>>>();",
    "#define L(k) k<<<1, 1>>>()\nL(f); t<int><<<g, b, 0, s>>>(p);",
    "x<<<y",  // unclosed at the end
    "#include <a.h>\n#include \"b.h\"\n# include_next <c>\n#import \"d\"\n",
    "#include /* c */ <e.h> // f\n#include MACRO\n#include <unterminated\n<g.h>\n",
    "#\ninclude <h.h>\nint include = 1 < 2;\n#include include <i.h>\n",
    "#define X include <j.h>\nimport <k>;\n#if 1 \\\n  < 2\n#include \\\n  <l.h>\n#endif\n",
    "#include u8\"m.h\"\n#include R\"(n.h)\"\n#include 'o'\n#include <<p.h>\n",
};

TEST(SourceWalks, LaunchOpensAreTheLaunchTokensOfAFullWalk) {
  for (const std::string& src : kEdgeCases) {
    const lex::CodeView v(src);
    EXPECT_EQ(analysis::detail::launch_opens(v), launch_opens_by_walk(v)) << src;
  }
  const lex::CodeView v("a<<<1,2>>>(); b <<< 3, 4 >>> (); c<<<=d;");
  EXPECT_EQ(analysis::detail::launch_opens(v).size(), 2u);
}

// The directives' `#`s as platform_branches takes them from code_tokens_at.
std::vector<std::size_t> directive_hashes(const lex::CodeView& v) {
  return analysis::detail::code_tokens_at(v, "#", [&](std::size_t k) {
    return v.is(k, "#") && v.in_directive(k) && k + 1 < v.code_size() && v.in_directive(k + 1);
  });
}
std::vector<std::size_t> directive_hashes_by_walk(const lex::CodeView& v) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < v.code_size(); ++k)
    if (v.is(k, "#") && v.in_directive(k) && k + 1 < v.code_size() && v.in_directive(k + 1)) out.push_back(k);
  return out;
}

TEST(SourceWalks, CodeTokensAtFindsTheTokensStartingAtTheText) {
  const lex::CodeView v("#if A\n#  define S(x) #x ## y\n#endif\n\"#\" /* # */ a # b\n#\n#include <c>\n");
  EXPECT_EQ(directive_hashes(v), directive_hashes_by_walk(v));
  // #if, #define, the stringizing #x, #endif, the lone # (the next line's # is in a directive), #include
  EXPECT_EQ(directive_hashes(v).size(), 6u);
  // every code token starting with a `(`: the text's parentheses outside comments and strings
  const lex::CodeView w("f(a, (b)) /* ( */ \"(\" g(");
  EXPECT_EQ(analysis::detail::code_tokens_at(w, "(", [](std::size_t) { return true; }),
            (std::vector<std::size_t>{1, 4, 10}));
}

TEST(SourceWalks, NextKeyStopsAtEitherKeyOrTheEnd) {
  const lex::CodeView v("a { b ( c } d");
  const std::uint64_t lb = lex::short_key("{"), rb = lex::short_key("}");
  EXPECT_EQ(analysis::detail::next_key(v, 0, v.code_size(), lb, rb), 1u);
  EXPECT_EQ(analysis::detail::next_key(v, 2, v.code_size(), lb, rb), 5u);
  EXPECT_EQ(analysis::detail::next_key(v, 2, v.code_size(), lb), v.code_size());
  EXPECT_EQ(analysis::detail::next_key(v, 2, 4, rb), 4u);  // not past `end`
}

TEST(SourceWalks, IncludesScanFindsEveryHeaderNameInOrder) {
  for (const std::string& src : kEdgeCases) EXPECT_EQ(header_names_by_scan(src), header_names_by_walk(src)) << src;
  EXPECT_EQ(header_names_by_scan("#include <a.h>\n#include \"b.h\"\n"), (std::vector<std::string>{"<a.h>", "\"b.h\""}));
}

// Random soup of the pieces the two walks care about: launch and shift brackets, quotes,
// comments, directives, the include words, line continuations.
TEST(SourceWalks, RandomSoupMatchesTheFullWalks) {
  const std::vector<std::string> pieces = {
      "<",         "<<",           "<<<",    "<<<=",   ">>>", ">",    "\"",          "\"s\"",
      "'c'",       "/*",           "*/",     "//",     "\n",  "\\\n", "#",           "# ",
      "include",   "include_next", "import", "define", "k",   "(",    ")",           ";",
      " ",         "\t",           "=",      "<h.h>",  "1",   "u8\"", "\n#include ", "\n# include_next",
      "\n#import", "\n#"};
  std::mt19937 rng(26);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1), len(1, 60);
  std::size_t launches = 0, headers = 0;  // the soup reaches both kinds of token
  for (int round = 0; round < 3000; ++round) {
    std::string src;
    for (std::size_t n = len(rng), i = 0; i < n; ++i) src += pieces[pick(rng)];
    const lex::CodeView v(src);
    ASSERT_EQ(analysis::detail::launch_opens(v), launch_opens_by_walk(v)) << src;
    ASSERT_EQ(directive_hashes(v), directive_hashes_by_walk(v)) << src;
    const std::vector<std::string> names = header_names_by_walk(src);
    ASSERT_EQ(header_names_by_scan(src), names) << src;
    launches += launch_opens_by_walk(v).size();
    headers += names.size();
  }
  EXPECT_GT(launches, 100u);
  EXPECT_GT(headers, 100u);
}

}  // namespace
}  // namespace ferry

// The Python tokenizer: lossless, and every string form is one token.
#include <gtest/gtest.h>

#include <string>

#include "lex/python_lexer.h"

namespace ferry::lex::py {
namespace {

std::string joined(std::string_view src) {
  std::string out;
  for (const Token& t : tokenize(src)) out += t.text(src);
  return out;
}

std::vector<std::string> strings(std::string_view src) {
  std::vector<std::string> out;
  for (const Token& t : tokenize(src))
    if (t.kind == Kind::String) out.emplace_back(t.text(src));
  return out;
}

TEST(PythonLexer, Lossless) {
  const std::string src =
      "import torch  # comment 'x'\nx = [1,\n     2]\ny = 1.5e-3 + 0x1f\\\n  + 2j\nif x:\n\tpass\r\n@dec\n"
      "s = '''a\n'b'\n''' ; u = 'unterminated\nv = 1\n";
  EXPECT_EQ(joined(src), src);
}

TEST(PythonLexer, StringForms) {
  EXPECT_EQ(strings("a = r'\\d' + b\"x\" + Rb'y' + f'{x[\"k\"]}' + u'z'"),
            (std::vector<std::string>{"r'\\d'", "b\"x\"", "Rb'y'", "f'{x[\"k\"]}'", "u'z'"}));
  EXPECT_EQ(strings("s = \"\"\"doc 'cuda' \"\"\""), (std::vector<std::string>{"\"\"\"doc 'cuda' \"\"\""}));
  EXPECT_EQ(strings("f'{{literal}} {a!r:>{w}}'"), (std::vector<std::string>{"f'{{literal}} {a!r:>{w}}'"}));
  EXPECT_EQ(strings("'it\\'s'"), (std::vector<std::string>{"'it\\'s'"}));
}

TEST(PythonLexer, CommentsAndContinuations) {
  const std::string src = "x = 1 \\\n  + 2  # 'cuda'\n";
  const auto toks = tokenize(src);
  int continuations = 0, comments = 0;
  for (const Token& t : toks) {
    continuations += t.kind == Kind::Continuation;
    comments += t.kind == Kind::Comment;
  }
  EXPECT_EQ(continuations, 1);
  EXPECT_EQ(comments, 1);
  EXPECT_TRUE(strings(src).empty());
}

TEST(PythonLexer, DepthAndLines) {
  const std::string src = "f(a,\n  b)\nc\n";
  const auto toks = tokenize(src);
  int inner_newlines = 0;
  for (const Token& t : toks)
    if (t.kind == Kind::Newline && t.depth > 0) ++inner_newlines;
  EXPECT_EQ(inner_newlines, 1);
  EXPECT_EQ(toks.back().line, 3u);
}

TEST(PythonLexer, SplitString) {
  const StringParts p = split_string("rb'''abc'''");
  EXPECT_EQ(p.prefix, "rb");
  EXPECT_EQ(p.quote, "'''");
  EXPECT_EQ(p.body, "abc");
  EXPECT_FALSE(split_string("'abc").terminated);
}

}  // namespace
}  // namespace ferry::lex::py

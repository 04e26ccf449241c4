#include "lex/code_view.h"

#include <gtest/gtest.h>

namespace ferry::lex {
namespace {

// Code index of the n-th (0-based) code token whose text is `t`.
std::size_t find(const CodeView& v, std::string_view t, int n = 0) {
  for (std::size_t ci = 0; ci < v.code_size(); ++ci)
    if (v.text(ci) == t && n-- == 0) return ci;
  return npos;
}

TEST(CodeView, SkipsTriviaAndPacksKeys) {
  const CodeView v("int /* c */ x = 1; // tail\nfloat long_identifier_name;\n");
  ASSERT_EQ(v.code_size(), 8u);
  EXPECT_EQ(v.text(1), "x");
  EXPECT_TRUE(v.is(0, "int"));
  EXPECT_TRUE(v.is(6, "long_identifier_name"));
  EXPECT_FALSE(v.is(6, "long_identifier_nam"));
  EXPECT_EQ(v.key(0), short_key("int"));
  EXPECT_EQ(v.key(6), kLongKey);
  EXPECT_TRUE(v.is_identifier(1));
  EXPECT_TRUE(v.is_number(3));
  // past the end: empty, false, npos
  EXPECT_EQ(v.text(100), "");
  EXPECT_FALSE(v.is(100, ";"));
  EXPECT_FALSE(v.is_identifier(100));
  EXPECT_EQ(v.partner(100), npos);
  EXPECT_EQ(v.span_text(0, 3), "int /* c */ x = 1");
}

TEST(CodeView, PartnersPairWithinCodeAndWithinEachDirective) {
  const CodeView v("f(a[1], {b});\n#define M(x) (x\ng(c);\n");
  const std::size_t open = find(v, "(");
  EXPECT_EQ(v.partner(open), find(v, ")"));
  EXPECT_EQ(v.partner(v.partner(open)), open);
  EXPECT_EQ(v.match_bracket(find(v, "[")), find(v, "]"));
  EXPECT_EQ(v.match_bracket(find(v, "{")), find(v, "}"));
  // the directive's unclosed "(x" does not swallow g's parenthesis
  const std::size_t g = find(v, "g");
  EXPECT_EQ(v.partner(g + 1), g + 3);
  EXPECT_EQ(v.partner(find(v, "(", 2)), npos);  // "(x" in the #define
  EXPECT_EQ(v.match_bracket(g), npos);          // not a bracket
}

TEST(CodeView, StrayClosersPairWithNothing) {
  const CodeView v("void k() { a); b]; }\n");
  EXPECT_EQ(v.partner(find(v, "{")), find(v, "}"));
  EXPECT_EQ(v.partner(find(v, ")", 1)), npos);
  EXPECT_EQ(v.partner(find(v, "]")), npos);
}

TEST(CodeView, CallArgumentsSplitAtTopLevelCommas) {
  const CodeView v("f(a, g(b, c), {d, e}, x[1, 2]);\nh();\n");
  const auto args = v.call_args(1);
  ASSERT_EQ(args.size(), 4u);
  EXPECT_EQ(v.span_text(args[0].first, args[0].last), "a");
  EXPECT_EQ(v.span_text(args[1].first, args[1].last), "g(b, c)");
  EXPECT_EQ(v.span_text(args[2].first, args[2].last), "{d, e}");
  EXPECT_EQ(v.span_text(args[3].first, args[3].last), "x[1, 2]");
  EXPECT_TRUE(v.call_args(find(v, "h") + 1).empty());
  EXPECT_TRUE(CodeView("f(a, b").call_args(1).empty());  // unbalanced
}

TEST(CodeView, MemberAndQualifiedNames) {
  const CodeView v("a.x; p->y; ns::z; ::w; T<int>::q; s.*m;\n");
  EXPECT_TRUE(v.is_member_or_qualified(find(v, "x")));
  EXPECT_TRUE(v.is_member_or_qualified(find(v, "y")));
  EXPECT_TRUE(v.is_member_or_qualified(find(v, "z")));
  EXPECT_FALSE(v.is_member_or_qualified(find(v, "w")));
  EXPECT_TRUE(v.is_member_or_qualified(find(v, "q")));
  EXPECT_TRUE(v.is_member_or_qualified(find(v, "m")));
  EXPECT_FALSE(v.is_member_or_qualified(find(v, "a")));
  EXPECT_TRUE(v.is_member_name(find(v, "x")));
  EXPECT_FALSE(v.is_member_name(find(v, "z")));
}

TEST(CodeView, DirectiveLastFollowsContinuations) {
  const CodeView v("#define A 1 + \\\n  2\nint b;\n");
  EXPECT_EQ(v.text(v.directive_last(0)), "2");
  EXPECT_TRUE(v.in_directive(0));
  EXPECT_FALSE(v.in_directive(find(v, "int")));
}

}  // namespace
}  // namespace ferry::lex

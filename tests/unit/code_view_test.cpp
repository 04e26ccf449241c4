#include "lex/code_view.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

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

TEST(CodeView, OccurrencesListEachNamesIdentifiersInOrder) {
  // `x` in a string, a comment and as a member still counts only where it is an identifier token.
  const CodeView v("int x = f(x); // x\nconst char* s = \"x\";\n#define X x\np.x = x + xy;\n");
  std::vector<std::size_t> want;
  for (std::size_t ci = 0; ci < v.code_size(); ++ci)
    if (v.is_identifier(ci) && v.text(ci) == "x") want.push_back(ci);
  ASSERT_EQ(want.size(), 5u);  // the declaration, the argument, the macro body, the member, the operand
  const auto at = v.occurrences("x");
  EXPECT_EQ(std::vector<std::size_t>(at.begin(), at.end()), want);
  EXPECT_TRUE(v.occurrences("nothing").empty());
  EXPECT_TRUE(v.occurrences("").empty());
  EXPECT_FALSE(v.mentions("s2"));
  EXPECT_TRUE(v.mentions("xy"));
  EXPECT_TRUE(v.occurrences("=").empty());  // punctuators are not names
  // Several names, merged in file order; a name given twice counts once.
  const std::vector<std::uint32_t> merged = v.occurrences({"xy", "f", "x", "f"});
  std::vector<std::size_t> expect = want;
  expect.push_back(find(v, "f"));
  expect.push_back(find(v, "xy"));
  std::sort(expect.begin(), expect.end());
  EXPECT_EQ(std::vector<std::size_t>(merged.begin(), merged.end()), expect);
}

TEST(CodeView, NameIdsAreOnePerDistinctName) {
  const CodeView v("a b a c b a long_name_over_eight_bytes long_name_over_eight_bytez 1 +");
  ASSERT_EQ(v.name_count(), 5u);  // a b c and the two long names (1 and + are not names)
  EXPECT_EQ(v.name_id(0), v.name_id(2));
  EXPECT_EQ(v.name_id(0), v.name_id(5));
  EXPECT_EQ(v.name_id(1), v.name_id(4));
  EXPECT_NE(v.name_id(0), v.name_id(1));
  EXPECT_NE(v.name_id(6), v.name_id(7));
  std::vector<bool> seen(v.name_count(), false);
  for (std::size_t ci = 0; ci < 8; ++ci) {
    ASSERT_LT(v.name_id(ci), v.name_count());
    seen[v.name_id(ci)] = true;
    // every occurrence of a name has that name's id
    for (const std::uint32_t o : v.occurrences(v.text(ci))) EXPECT_EQ(v.name_id(o), v.name_id(ci));
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 5);
}

TEST(CodeView, NamesAreReadByIdInFirstOccurrenceOrder) {
  const CodeView v("b a b long_name_over_eight_bytes ( a ) c long_name_over_eight_bytes");
  ASSERT_EQ(v.name_count(), 4u);
  // ids in the order the names first occur, each with its text and its occurrences
  const std::vector<std::string_view> texts = {"b", "a", "long_name_over_eight_bytes", "c"};
  for (std::uint32_t id = 0; id < v.name_count(); ++id) {
    EXPECT_EQ(v.name_text(id), texts[id]);
    const std::span<const std::uint32_t> at = v.occurrences_of(id);
    const std::span<const std::uint32_t> by_name = v.occurrences(texts[id]);
    EXPECT_EQ(std::vector<std::uint32_t>(at.begin(), at.end()),
              std::vector<std::uint32_t>(by_name.begin(), by_name.end()));
    for (const std::uint32_t ci : at) EXPECT_EQ(v.name_id(ci), id);
  }
  EXPECT_EQ(v.occurrences_of(0).size(), 2u);
  EXPECT_EQ(v.occurrences_of(3).size(), 1u);
  // a copy reads the same index
  const CodeView copy = v;
  EXPECT_EQ(copy.name_text(2), "long_name_over_eight_bytes");
  EXPECT_EQ(copy.occurrences_of(1).size(), 2u);
}

TEST(CodeView, NameIndexHoldsAFileOfManyNames) {
  // Enough distinct names to grow the open-addressing table several times.
  std::string src;
  for (int i = 0; i < 5000; ++i) src += "n" + std::to_string(i) + " n" + std::to_string(i % 7) + ";\n";
  const CodeView v(src);
  EXPECT_EQ(v.name_count(), 5000u);
  EXPECT_EQ(v.occurrences("n3").size(), 1u + 5000u / 7 + (3 < 5000 % 7 ? 1u : 0u));
  EXPECT_EQ(v.occurrences("n4999").size(), 1u);
  EXPECT_TRUE(v.occurrences("n5000").empty());
  const std::size_t before = v.memory_bytes();
  EXPECT_GT(before, 0u);
}

TEST(CodeView, TokensAreReadAsTokenValues) {
  const std::string src = "a\n  bb /* x\n y */ c\n#define Q 1\n";
  const CodeView v(src);
  const TokenList& toks = v.tokens();
  const std::vector<Token> flat = tokenize(src);
  ASSERT_EQ(toks.size(), flat.size());
  std::size_t i = 0;
  for (const Token& t : toks) {
    EXPECT_EQ(t.kind, flat[i].kind);
    EXPECT_EQ(t.in_directive, flat[i].in_directive);
    EXPECT_EQ(t.begin, flat[i].begin);
    EXPECT_EQ(t.end, flat[i].end);
    EXPECT_EQ(t.line, flat[i].line);
    EXPECT_EQ(t.col, flat[i].col);
    ++i;
  }
  EXPECT_EQ(v.code(find(v, "c")).col, 7u);
  EXPECT_EQ(v.code(find(v, "c")).line, 3u);
  EXPECT_TRUE(v.code(find(v, "Q")).in_directive);
  EXPECT_EQ(toks.back().end, src.size());
  EXPECT_EQ(toks.line_count(), 5u);
  // The view's memory: the tokens (9 bytes each) and the code index, capacity included.
  EXPECT_GE(v.memory_bytes(), toks.size() * 9 + v.code_size() * 16);
  // A copy reads the same tokens.
  const CodeView copy = v;
  EXPECT_EQ(copy.code_size(), v.code_size());
  EXPECT_EQ(copy.text(find(copy, "bb")), "bb");
}

TEST(CodeView, NameIdsOfEveryTokenAtOnce) {
  const CodeView v("#define A(x) (x + B)\nint a = A(b); a += b; c;\n");
  const std::uint32_t* ids = v.name_ids();
  for (std::size_t ci = 0; ci < v.code_size(); ++ci) {
    if (v.is_identifier(ci)) EXPECT_EQ(ids[ci], v.name_id(ci)) << ci;
    else EXPECT_EQ(ids[ci], 0u) << ci;  // no identifier
  }
}

TEST(CodeView, LongNamesThatDifferInOneByteAreDifferentNames) {
  // Names of 8 to 16 bytes compare as two words, longer ones byte by byte: each pair below differs
  // in one byte (first, middle or last) or in length only.
  std::string src;
  std::vector<std::string> names;
  for (std::size_t len = 8; len <= 24; ++len) {
    const std::string base(len, 'k');
    for (const std::size_t at : {std::size_t{0}, len / 2, len - 1}) {
      std::string other = base;
      other[at] = 'j';
      names.push_back(other);
    }
    names.push_back(base);
  }
  for (const std::string& n : names) src += n + " " + n + ";\n";
  const CodeView v(src);
  std::vector<std::string> distinct = names;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  EXPECT_EQ(v.name_count(), distinct.size());
  for (const std::string& n : distinct) {
    const auto at = v.occurrences(n);
    const auto expected = 2 * static_cast<std::size_t>(std::count(names.begin(), names.end(), n));
    ASSERT_EQ(at.size(), expected) << n;
    for (const std::uint32_t ci : at) EXPECT_EQ(v.text(ci), n);
  }
}

TEST(CodeView, MemoIsComputedOnceAndMovesWithTheTokens) {
  CodeView v("int x ;");
  struct Size {
    std::size_t n;
  };
  struct Other {
    int k;
  };
  int calls = 0;
  const auto make = [&](const CodeView& cv) {
    ++calls;
    return Size{cv.code_size()};
  };
  const Size* first = &v.memo<Size>(make);
  EXPECT_EQ(first->n, 3u);
  EXPECT_EQ(&v.memo<Size>(make), first);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(v.memo<Other>([](const CodeView&) { return Other{7}; }).k, 7);  // one per type
  // A view that takes the tokens over (a FileMigration after a pre-pass) keeps what was computed.
  const CodeView moved(std::move(v));
  EXPECT_EQ(&moved.memo<Size>(make), first);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace ferry::lex

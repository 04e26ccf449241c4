#include "lex/lexer.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace ferry::lex {
namespace {

std::string concat(std::string_view src, const std::vector<Token>& toks) {
  std::string out;
  for (const Token& t : toks) out += t.text(src);
  return out;
}

std::vector<std::pair<Kind, std::string>> code_tokens(std::string_view src) {
  std::vector<std::pair<Kind, std::string>> out;
  for (const Token& t : tokenize(src))
    if (!is_trivia(t.kind)) out.emplace_back(t.kind, std::string(t.text(src)));
  return out;
}

TEST(Lexer, RoundTripsEveryByteAndRangesAreContiguous) {
  const std::string src =
      "#include <cuda_runtime.h>\r\n#define X(a) \\\n  a + 1 // c\n"
      "/* block\n comment */ int x = 0x1fULL; auto s = u8\"str\\\"ing\"_sv; char c = '\\'';\n"
      "auto r = R\"d(raw \" )\" string)d\"; k<<<grid, block, 0, s>>>(x);";
  const auto toks = tokenize(src);
  EXPECT_EQ(concat(src, toks), src);
  std::uint32_t pos = 0;
  for (const Token& t : toks) {
    EXPECT_EQ(t.begin, pos);
    EXPECT_GT(t.end, t.begin);
    pos = t.end;
  }
  EXPECT_EQ(pos, src.size());
}

TEST(Lexer, RoundTripsRandomBytes) {
  std::mt19937 rng(42);
  const std::string alphabet = "ab_1.'\"\\/*#<>\n\r\t R()x:;{}";
  for (int iter = 0; iter < 2000; ++iter) {
    std::string s;
    const int n = static_cast<int>(rng() % 64);
    for (int i = 0; i < n; ++i) s.push_back(alphabet[rng() % alphabet.size()]);
    EXPECT_EQ(concat(s, tokenize(s)), s) << "input: " << s;
  }
}

TEST(Lexer, IdentifiersInsideStringsAndCommentsAreNotIdentifiers) {
  const auto toks = code_tokens("f(\"cudaMalloc\"); // cudaFree\n/* cudaMemcpy */ g('c');");
  for (const auto& [k, t] : toks) {
    if (k == Kind::Identifier) {
      EXPECT_TRUE(t == "f" || t == "g") << t;
    }
  }
}

TEST(Lexer, IncludePathsAreHeaderNames) {
  const auto toks = code_tokens("#include <cuda_runtime.h>\n#  include \"my/cuda.h\"\nx < y > z;");
  ASSERT_GE(toks.size(), 6u);
  EXPECT_EQ(toks[2], std::make_pair(Kind::HeaderName, std::string("<cuda_runtime.h>")));
  EXPECT_EQ(toks[5], std::make_pair(Kind::HeaderName, std::string("\"my/cuda.h\"")));
  // Outside #include, < and > are punctuators.
  EXPECT_EQ(toks[7], std::make_pair(Kind::Punct, std::string("<")));
}

TEST(Lexer, DirectivesAreMarkedIncludingContinuationLines) {
  const std::string src = "#define F(x) \\\n  foo(x)\nbar();\n";
  for (const Token& t : tokenize(src)) {
    const std::string_view text = t.text(src);
    if (text == "foo") {
      EXPECT_TRUE(t.in_directive);
      EXPECT_EQ(t.line, 2u);
    }
    if (text == "bar") {
      EXPECT_FALSE(t.in_directive);
    }
  }
}

TEST(Lexer, LaunchBracketsVersusShiftsAndTemplates) {
  auto kinds = [](std::string_view src) {
    std::vector<std::string> out;
    for (const Token& t : tokenize(src))
      if (!is_trivia(t.kind)) out.push_back(std::string(kind_name(t.kind)) + ":" + std::string(t.text(src)));
    return out;
  };
  EXPECT_EQ(kinds("k<<<g, b>>>(x);"),
            (std::vector<std::string>{"identifier:k", "launch-open:<<<", "identifier:g", "punct:,", "identifier:b",
                                      "launch-close:>>>", "punct:(", "identifier:x", "punct:)", "punct:;"}));
  // No launch open: >>> is a nested template closer followed by '>'.
  EXPECT_EQ(kinds("A<B<C<int>>> v;")[7], "punct:>>");
  EXPECT_EQ(kinds("x = a >> 3;")[3], "punct:>>");
  // A templated kernel with a template argument list inside the launch.
  const auto k = kinds("k<float><<<dim3(n >> 5), 256>>>(p);");
  EXPECT_EQ(k[4], "launch-open:<<<");
  EXPECT_EQ(k[8], "punct:>>");
  EXPECT_EQ(k[13], "launch-close:>>>");
}

TEST(Lexer, RawStringsWithDelimiters) {
  const std::string src = "auto s = R\"x(a)\" b)x\"; next";
  const auto toks = code_tokens(src);
  EXPECT_EQ(toks[3], std::make_pair(Kind::RawString, std::string("R\"x(a)\" b)x\"")));
  EXPECT_EQ(toks[5].second, "next");
}

TEST(Lexer, LiteralSuffixesButNotReservedNames) {
  // "x"_km is one user-defined literal; a reserved name after a literal is a token of its own, as
  // nvcc reads `extern "C"__global__`.
  const auto toks = code_tokens("\"x\"_km extern \"C\"__global__ R\"(r)\"__device__ 'c'_ch");
  ASSERT_EQ(toks.size(), 7u);
  EXPECT_EQ(toks[0], std::make_pair(Kind::String, std::string("\"x\"_km")));
  EXPECT_EQ(toks[2], std::make_pair(Kind::String, std::string("\"C\"")));
  EXPECT_EQ(toks[3], std::make_pair(Kind::Identifier, std::string("__global__")));
  EXPECT_EQ(toks[4], std::make_pair(Kind::RawString, std::string("R\"(r)\"")));
  EXPECT_EQ(toks[5], std::make_pair(Kind::Identifier, std::string("__device__")));
  EXPECT_EQ(toks[6], std::make_pair(Kind::Char, std::string("'c'_ch")));
}

TEST(Lexer, NumbersWithSeparatorsExponentsAndSuffixes) {
  const auto toks = code_tokens("1'000'000 1.5e-3f 0x1p+4 .5 3.f 0xffffffffu");
  ASSERT_EQ(toks.size(), 6u);
  for (const auto& [k, t] : toks) EXPECT_EQ(k, Kind::Number) << t;
}

TEST(Lexer, LinesAndColumns) {
  const std::string src = "a\n  bb /* x\n y */ c";
  const auto toks = tokenize(src);
  for (const Token& t : toks) {
    if (t.text(src) == "bb") {
      EXPECT_EQ(t.line, 2u);
      EXPECT_EQ(t.col, 3u);
    }
    if (t.text(src) == "c") {
      EXPECT_EQ(t.line, 3u);
      EXPECT_EQ(t.col, 7u);
    }
  }
}

TEST(Lexer, BlankRunsCarriageReturnsAndContinuationsMakeOneWhitespaceToken) {
  // A run of blanks, a lone CR and a backslash-newline are one token (its newline counted); a
  // CR before a newline is the newline's.
  const std::string src = "a \t\r \\\n  b\r\nc @ `d;";
  const auto toks = tokenize(src);
  ASSERT_EQ(toks.size(), 11u);
  EXPECT_EQ(toks[1].kind, Kind::Whitespace);
  EXPECT_EQ(toks[1].text(src), " \t\r \\\n  ");
  EXPECT_EQ(toks[2].text(src), "b");
  EXPECT_EQ(toks[2].line, 2u);
  EXPECT_EQ(toks[3].kind, Kind::Newline);
  EXPECT_EQ(toks[3].text(src), "\r\n");
  EXPECT_EQ(toks[4].line, 3u);
  // bytes that are no punctuator are Other; the single-byte punctuators are Punct
  EXPECT_EQ(toks[6].kind, Kind::Other);
  EXPECT_EQ(toks[8].kind, Kind::Other);
  EXPECT_EQ(toks[10].kind, Kind::Punct);
}

TEST(Lexer, UnterminatedConstructsDoNotLoseBytes) {
  for (std::string s : {"\"abc", "'x", "/* never closed", "R\"d(raw", "#include <oops"}) {
    EXPECT_EQ(concat(s, tokenize(s)), s);
  }
}

// Identifiers are scanned sixteen bytes at a time where the buffer allows: every length around a
// block's edge, ended by each kind of byte (or by the end of the buffer), ends where a byte scan
// ends it.
TEST(Lexer, IdentifiersEndAtTheFirstByteThatCannotContinueThem) {
  const std::string name_bytes = "aZz_$09Ab\x80\xff";
  std::string enders = " ([{};,.:+-*/%<>=!&|^~?#@`\\\"'\n\t\x7f\x01";
  enders += '\0';
  std::mt19937 rng(7);
  for (std::size_t len = 1; len <= 40; ++len) {
    for (const char end : enders) {
      for (const std::size_t tail : {0, 1, 5, 15, 16, 17, 40}) {
        std::string name = "n";
        while (name.size() < len) name += name_bytes[rng() % name_bytes.size()];
        const std::string src = name + end + std::string(tail, 'q');
        const std::vector<Token> toks = tokenize(src);
        ASSERT_FALSE(toks.empty());
        if (end == '"' || end == '\'') continue;  // may start a literal's prefix (u8"..", L'x')
        EXPECT_EQ(toks[0].kind, Kind::Identifier) << len << " " << int(end);
        EXPECT_EQ(toks[0].end, len) << "name " << len << " bytes, then byte " << int(static_cast<unsigned char>(end));
      }
      const std::string at_end = "n" + std::string(len - 1, '_');  // the name ends the buffer
      EXPECT_EQ(tokenize(at_end)[0].end, len);
    }
  }
}

TEST(Lexer, OneBytePunctuatorsAreTokensOfTheirOwn) {
  // ( ) [ ] { } ; , ? ~ never start a longer punctuator; ';' ends an unclosed launch.
  const auto toks = code_tokens("a(b)[c]{d};e,f?g:~h;k<<<1;m>>>n");
  const std::vector<std::string> texts = {"a", "(", "b", ")", "[", "c", "]", "{",   "d", "}", ";", "e",  ",", "f",
                                          "?", "g", ":", "~", "h", ";", "k", "<<<", "1", ";", "m", ">>", ">", "n"};
  ASSERT_EQ(toks.size(), texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) EXPECT_EQ(toks[i].second, texts[i]) << i;
  EXPECT_EQ(toks[21].first, Kind::LaunchOpen);
  EXPECT_EQ(toks[25].first, Kind::Punct);  // after the ';', ">>>" closes no launch
  for (const std::size_t i : {1u, 3u, 4u, 6u, 7u, 9u, 10u, 12u, 14u, 17u, 19u}) EXPECT_EQ(toks[i].first, Kind::Punct);
}

}  // namespace
}  // namespace ferry::lex

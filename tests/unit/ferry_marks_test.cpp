// lex/ferry_marks.h: the offsets of "ferry" in a buffer, found once per view, and the questions
// the passes ask of them, against a plain search.
#include "lex/ferry_marks.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace ferry::lex {
namespace {

std::vector<std::uint32_t> plain_search(std::string_view text) {
  std::vector<std::uint32_t> at;
  for (std::size_t i = text.find(kFerryWord); i != std::string_view::npos; i = text.find(kFerryWord, i + 1))
    at.push_back(static_cast<std::uint32_t>(i));
  return at;
}

TEST(FerryMarks, FindsTheWordAtEveryOffsetOfABlockAndAtTheEnds) {
  // every offset around the 16-byte blocks, and the last offsets where the word fits
  for (std::size_t len = 5; len < 70; ++len)
    for (std::size_t at = 0; at + 5 <= len; ++at) {
      std::string text(len, 'f');  // 'f' everywhere: every offset is a first-byte candidate
      text.replace(at, 5, "ferry");
      EXPECT_EQ(find_ferry_word(text), plain_search(text)) << len << " " << at;
    }
  EXPECT_TRUE(find_ferry_word("").empty());
  EXPECT_TRUE(find_ferry_word("ferr").empty());
  EXPECT_EQ(find_ferry_word("ferryferry"), (std::vector<std::uint32_t>{0, 5}));
  EXPECT_TRUE(find_ferry_word("ferr-y fery ferryy").size() == 1);
}

TEST(FerryMarks, AgreesWithAPlainSearchOnRandomText) {
  std::mt19937 rng(3);
  const std::string alphabet = "fery:-/ *\nabc";
  for (int iter = 0; iter < 3000; ++iter) {
    std::string text;
    const std::size_t n = rng() % 200;
    for (std::size_t i = 0; i < n; ++i) text.push_back(alphabet[rng() % alphabet.size()]);
    if (rng() % 2 && n > 0) text.insert(rng() % n, "ferry");
    EXPECT_EQ(find_ferry_word(text), plain_search(text)) << text;
  }
}

TEST(FerryMarks, SourceMentionsAnswersAsFindOnTheSource) {
  const std::string src =
      "int a; // ferry: ignore\n"
      "#include \"ferry/compat_cuda.h\"\n"
      "float b = 1 /* ferry-cuda: 32 */;\n"
      "const char* s = \"ferry-hip: in a string\";\n";
  const CodeView view(src);
  EXPECT_EQ(ferry_marks(view).size(), 4u);
  for (const std::string_view needle :
       {"ferry:", "// ferry: ", "/* ferry: ", "ferry-cuda:", "ferry-hip:", "ferry/compat_cuda", "ferry/compat_hip",
        "ferry: off", "ferry", "xferry", "ferry-cuda: 32 */;\n"})
    EXPECT_EQ(source_mentions(view, needle), src.find(needle) != std::string::npos) << needle;
  const CodeView none("int main() { return 0; }\n");
  EXPECT_TRUE(ferry_marks(none).empty());
  EXPECT_FALSE(source_mentions(none, "ferry:"));
}

TEST(FerryMarks, AreFoundOnceAndMoveWithTheView) {
  const std::string src = "x; // ferry: ignore\n";
  CodeView view(src);
  const std::uint32_t* first = ferry_marks(view).data();
  EXPECT_EQ(ferry_marks(view).data(), first);  // kept, not searched again
  const CodeView moved(std::move(view));
  EXPECT_EQ(ferry_marks(moved).data(), first);
  ASSERT_EQ(ferry_marks(moved).size(), 1u);
  EXPECT_EQ(ferry_marks(moved)[0], 6u);
}

}  // namespace
}  // namespace ferry::lex

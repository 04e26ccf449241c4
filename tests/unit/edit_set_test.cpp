#include "rewrite/edit_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ferry::rewrite {
namespace {

TEST(EditSet, AppliesInSourceOrderWhateverTheOrderOfAddition) {
  const std::string src = "abc def ghi";
  EditSet e;
  ASSERT_TRUE(e.replace(8, 11, "GHI"));
  ASSERT_TRUE(e.replace(0, 3, "A"));
  ASSERT_TRUE(e.insert(4, "<"));
  EXPECT_EQ(e.apply(src), "A <def GHI");
}

TEST(EditSet, RefusesOverlapsButAllowsTouchingRanges) {
  EditSet e;
  ASSERT_TRUE(e.replace(2, 5, "x"));
  EXPECT_FALSE(e.replace(4, 6, "y"));
  EXPECT_FALSE(e.replace(0, 3, "y"));
  EXPECT_FALSE(e.replace(1, 9, "y"));
  EXPECT_FALSE(e.insert(3, "y"));  // strictly inside a replaced range
  EXPECT_TRUE(e.replace(5, 6, "z"));
  EXPECT_TRUE(e.replace(0, 2, "w"));
  EXPECT_TRUE(e.insert(2, "i"));  // at the boundary
  EXPECT_EQ(e.size(), 4u);
}

TEST(EditSet, InsertionsAtOnePointKeepTheirOrder) {
  EditSet e;
  ASSERT_TRUE(e.insert(1, "1"));
  ASSERT_TRUE(e.insert(1, "2"));
  ASSERT_TRUE(e.replace(1, 2, "B"));
  EXPECT_EQ(e.apply("abc"), "a12Bc");
}

TEST(EditSet, LineMapFollowsInsertedAndRemovedLines) {
  const std::string src = "l1\nl2\nl3\nl4\n";
  EditSet e;
  ASSERT_TRUE(e.insert(0, "#include <x>\n"));  // adds an output line before l1
  ASSERT_TRUE(e.replace(3, 9, "L2"));          // "l2\nl3\n" -> "L2": removes a line
  LineMap map;
  const std::string out = e.apply(src, &map);
  EXPECT_EQ(out, "#include <x>\nl1\nL2l4\n");
  ASSERT_GE(map.out_to_orig.size(), 3u);
  EXPECT_EQ(map.original_line(1), 1u);  // the inserted include maps to where it was inserted
  EXPECT_EQ(map.original_line(2), 1u);  // l1
  EXPECT_EQ(map.original_line(3), 2u);  // L2 (started on original line 2)
  EXPECT_TRUE(map.is_changed(1));
  EXPECT_FALSE(map.is_changed(2));
  EXPECT_TRUE(map.is_changed(3));
}

TEST(EditSet, EmptySetReproducesInput) {
  EditSet e;
  LineMap map;
  EXPECT_EQ(e.apply("x\ny", &map), "x\ny");
  EXPECT_EQ(map.original_line(2), 2u);
}

// overlaps() finds its neighbours by start offset alone: on many random edits it answers as a
// comparison with every edit does.
TEST(EditSet, OverlapsAgreesWithEveryEditOnRandomSets) {
  std::mt19937 rng(11);
  for (int round = 0; round < 20; ++round) {
    EditSet e;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> kept;
    const auto reaches = [&](std::uint32_t b, std::uint32_t en) {
      for (const auto& [kb, ke] : kept)
        if (b == en ? (kb < b && b < ke) : (kb == ke ? (b < kb && kb < en) : (b < ke && kb < en))) return true;
      return false;
    };
    for (int i = 0; i < 300; ++i) {
      const std::uint32_t b = rng() % 1000;
      const std::uint32_t en = b + (rng() % 4 == 0 ? 0 : rng() % 6);
      const bool expected = reaches(b, en);
      EXPECT_EQ(e.overlaps(b, en), expected) << b << " " << en;
      if (e.replace(b, en, "x")) kept.emplace_back(b, en);
      else EXPECT_TRUE(expected);
    }
    // for_each_reaching visits, in order, the edits that end after `begin` and start before `end`
    for (std::uint32_t b = 0; b < 1000; b += 37) {
      std::vector<std::pair<std::uint32_t, std::uint32_t>> seen, want;
      e.for_each_reaching(b, b + 20, [&](const Edit& x) { seen.emplace_back(x.begin, x.end); });
      for (const Edit& x : e.edits())
        if (x.end > b && x.begin < b + 20) want.emplace_back(x.begin, x.end);
      EXPECT_EQ(seen, want);
    }
  }
}

// The line map as a byte walk computes it: every output byte's original line, every line an edit
// put a byte on (or removed bytes from) changed. apply() counts the newlines between edits
// sixteen bytes at a time; this checks it on texts long enough for its 255-step lanes, with
// lines of every length and edits that add, remove and keep newlines.
LineMap reference_map(std::string_view src, const std::vector<Edit>& edits) {
  LineMap m;
  std::uint32_t orig = 1, out = 1;
  m.out_to_orig.push_back(1);
  auto mark = [&] {
    if (m.changed_out_lines.empty() || m.changed_out_lines.back() != out) m.changed_out_lines.push_back(out);
  };
  std::size_t pos = 0;
  auto copy = [&](std::size_t to) {
    for (; pos < to; ++pos)
      if (src[pos] == '\n') m.out_to_orig.push_back(++orig), ++out;
  };
  for (const Edit& e : edits) {
    copy(e.begin);
    const std::uint32_t start = orig;
    if (e.replacement.empty()) mark();
    for (const char ch : e.replacement) {
      mark();
      if (ch == '\n') m.out_to_orig.push_back(start), ++out;
    }
    for (; pos < e.end; ++pos) orig += src[pos] == '\n';
    if (!e.replacement.empty() && e.replacement.back() == '\n') m.out_to_orig.back() = orig;
  }
  copy(src.size());
  return m;
}

TEST(EditSet, LineMapAgreesWithAByteWalkOnLongTexts) {
  std::mt19937 rng(5);
  for (int round = 0; round < 40; ++round) {
    std::string src;
    const std::size_t size = 1 + rng() % 20000;
    while (src.size() < size) src += std::string(rng() % (round % 2 ? 4 : 90), 'x') + "\n";
    EditSet e;
    const char* const kTexts[] = {"", "y", "\n", "a\nb", "a\n", "\n\n", "abc\ndef\n"};
    for (int i = 0; i < static_cast<int>(rng() % 60); ++i) {
      const auto b = static_cast<std::uint32_t>(rng() % src.size());
      const auto en = static_cast<std::uint32_t>(std::min<std::size_t>(src.size(), b + rng() % 40));
      (void)e.replace(b, rng() % 3 == 0 ? b : en, kTexts[rng() % std::size(kTexts)]);
    }
    LineMap got;
    (void)e.apply(src, &got);
    const LineMap want = reference_map(src, e.edits());
    EXPECT_EQ(got.out_to_orig, want.out_to_orig) << round;
    EXPECT_EQ(got.changed_out_lines, want.changed_out_lines) << round;
  }
}

}  // namespace
}  // namespace ferry::rewrite

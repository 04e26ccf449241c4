#include "rewrite/edit_set.h"

#include <gtest/gtest.h>

#include <random>
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

}  // namespace
}  // namespace ferry::rewrite

#include "rewrite/edit_set.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace ferry::rewrite

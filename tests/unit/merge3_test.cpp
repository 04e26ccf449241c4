#include "migrate/merge3.h"

#include <gtest/gtest.h>

using ferry::split_lines;
using ferry::migrate::diff_lines;
using ferry::migrate::merge3;

namespace {

std::string apply_hunks(const std::string& a, const std::string& b) {
  const auto A = split_lines(a), B = split_lines(b);
  std::string out;
  std::size_t pos = 0;
  for (const auto& h : diff_lines(A, B)) {
    for (; pos < h.a_begin; ++pos) out += A[pos];
    for (std::size_t j = h.b_begin; j < h.b_end; ++j) out += B[j];
    pos = h.a_end;
  }
  for (; pos < A.size(); ++pos) out += A[pos];
  return out;
}

}  // namespace

TEST(Diff, HunksReproduceTheNewText) {
  const std::string a = "a\nb\nc\nd\ne\nf\n", b = "a\nx\nc\nd\ny\nz\nf\ng\n";
  EXPECT_EQ(apply_hunks(a, b), b);
  EXPECT_EQ(apply_hunks("", b), b);
  EXPECT_EQ(apply_hunks(a, ""), "");
  EXPECT_EQ(diff_lines(split_lines(a), split_lines(a)).size(), 0u);
  const auto h = diff_lines(split_lines("a\nb\nc\n"), split_lines("a\nc\n"));
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].a_begin, 1u);
  EXPECT_EQ(h[0].a_end, 2u);
  EXPECT_EQ(h[0].b_begin, h[0].b_end);
}

TEST(Diff, LargeRandomishInputsRoundTrip) {
  std::string a, b;
  for (int i = 0; i < 3000; ++i) {
    a += "line " + std::to_string(i % 97) + "\n";
    if (i % 7 != 0) b += "line " + std::to_string(i % 97) + "\n";
    if (i % 11 == 0) b += "new " + std::to_string(i) + "\n";
  }
  EXPECT_EQ(apply_hunks(a, b), b);
}

TEST(Merge3, CleanMergeOfDisjointChanges) {
  const std::string base = "1\n2\n3\n4\n5\n6\n7\n";
  const std::string ours = "1\nTWO\n3\n4\n5\n6\n7\n";    // Ferry changed line 2
  const std::string theirs = "1\n2\n3\n4\n5\nSIX\n7\n";  // the user changed line 6
  const auto r = merge3(base, ours, theirs);
  EXPECT_EQ(r.conflicts, 0u);
  EXPECT_EQ(r.text, "1\nTWO\n3\n4\n5\nSIX\n7\n");
}

TEST(Merge3, ConflictGetsMarkers) {
  const auto r = merge3("a\nb\nc\n", "a\nferry\nc\n", "a\nuser\nc\n");
  EXPECT_EQ(r.conflicts, 1u);
  EXPECT_EQ(r.text, std::string("a\n") + std::string(ferry::migrate::kConflictBegin) + "\nferry\n=======\nuser\n" +
                        std::string(ferry::migrate::kConflictEnd) + "\nc\n");
  ASSERT_EQ(r.conflict_lines.size(), 1u);
  EXPECT_EQ(r.conflict_lines[0], 2u);
}

TEST(Merge3, InsertionsAtBothEnds) {
  const std::string base = "x\ny\n";
  const auto r = merge3(base, "head\nx\ny\n", "x\ny\ntail\n");
  EXPECT_EQ(r.conflicts, 0u);
  EXPECT_EQ(r.text, "head\nx\ny\ntail\n");
  // Both sides insert different text at the same end: a conflict.
  const auto c = merge3(base, "x\ny\nferry\n", "x\ny\nuser\n");
  EXPECT_EQ(c.conflicts, 1u);
}

TEST(Merge3, Deletions) {
  const std::string base = "a\nb\nc\nd\ne\n";
  const auto r = merge3(base, "a\nc\nd\ne\n", "a\nb\nc\nd\n");  // ours drops b, theirs drops e
  EXPECT_EQ(r.conflicts, 0u);
  EXPECT_EQ(r.text, "a\nc\nd\n");
  // Deleted by Ferry, edited by the user: conflict (the user's edit must not vanish silently).
  const auto c = merge3(base, "a\nc\nd\ne\n", "a\nB!\nc\nd\ne\n");
  EXPECT_EQ(c.conflicts, 1u);
}

TEST(Merge3, IdenticalChangesOnBothSidesMergeCleanly) {
  const auto r = merge3("a\nb\nc\n", "a\nB\nc\nd\n", "a\nB\nc\nd\n");
  EXPECT_EQ(r.conflicts, 0u);
  EXPECT_EQ(r.text, "a\nB\nc\nd\n");
}

TEST(Merge3, UnchangedSidesAndMissingFinalNewline) {
  EXPECT_EQ(merge3("a\nb", "a\nb", "a\nb!").text, "a\nb!");
  EXPECT_EQ(merge3("a\nb", "A\nb", "a\nb").text, "A\nb");
  EXPECT_EQ(merge3("", "new\n", "").text, "new\n");
  const auto c = merge3("a\nb", "a\nx", "a\ny");
  EXPECT_EQ(c.conflicts, 1u);
  EXPECT_NE(c.text.find("x\n=======\ny\n>>>>>>>"), std::string::npos);
}

// The shared top-level walks of analysis/tokens.h: walk_top_level, angle_close, angle_open, split_top_level,
// launch_args, names_warp_or_wave (the targets' passes and the wave64 compiler driver read template
// lists, parameter lists and launch parameters through them).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/tokens.h"

namespace ferry::analysis {
namespace {

using lex::CodeView;
using lex::npos;

// Code index of the n-th (0-based) code token whose text is `t`.
std::size_t find(const CodeView& v, std::string_view t, int n = 0) {
  for (std::size_t ci = 0; ci < v.code_size(); ++ci)
    if (v.text(ci) == t && n-- == 0) return ci;
  return npos;
}

std::vector<std::string> pieces(const CodeView& v, const std::vector<lex::ArgRange>& rs) {
  std::vector<std::string> out;
  for (const lex::ArgRange& r : rs) out.emplace_back(r.empty() ? "" : v.span_text(r.first, r.last));
  return out;
}

TEST(TopLevelWalk, VisitsOutsideBracketsWithTheAngleDepth) {
  const CodeView v("A<B<int>, f(x, y)> z");
  std::vector<std::pair<std::string, int>> seen;
  const int end = walk_top_level(v, 0, v.code_size() - 1, [&](std::size_t i, int angle) {
    seen.emplace_back(std::string(v.text(i)), angle);
    return true;
  });
  const std::vector<std::pair<std::string, int>> want = {{"A", 0}, {"<", 0}, {"B", 1}, {"<", 1}, {"int", 2}, {">", 2},
                                                         {",", 1}, {"f", 1}, {"(", 1}, {">", 1}, {"z", 0}};
  EXPECT_EQ(seen, want);  // `x, y` inside the parentheses are skipped
  EXPECT_EQ(end, 0);
  // Stopping: the depth where it stopped.
  EXPECT_EQ(walk_top_level(v, 0, v.code_size() - 1, [&](std::size_t i, int) { return !v.is(i, "int"); }), 2);
  // A group that closes past `last` is walked into.
  const CodeView w("a (b, c) d");
  std::vector<std::string> inside;
  walk_top_level(w, 0, 3, [&](std::size_t i, int) {
    inside.emplace_back(w.text(i));
    return true;
  });
  EXPECT_EQ(inside, (std::vector<std::string>{"a", "(", "b", ","}));
}

TEST(TopLevelWalk, AngleClose) {
  const CodeView v("template <class T, int N = (4 > 2)> struct S; X<A<int>> y; Z<int> w; q < r) > s;");
  EXPECT_EQ(angle_close(v, find(v, "<")), find(v, ">", 1));  // the `>` in parentheses is skipped
  EXPECT_EQ(angle_close(v, find(v, "<", 1)), find(v, ">>"));
  EXPECT_EQ(angle_close(v, find(v, "<", 2)), npos);  // a `>>` that closes two lists: not this one's
  EXPECT_EQ(angle_close(v, find(v, "<", 3)), find(v, ">", 2));
  EXPECT_EQ(angle_close(v, find(v, "<", 3), find(v, ">", 2) - 1), npos);  // past `last`
  EXPECT_EQ(angle_close(v, find(v, "<", 4)), npos);                       // a comparison: the enclosing `)` comes first
  EXPECT_EQ(angle_close(v, find(v, "X")), npos);                          // not a `<`
  const CodeView u("T<a; b>");
  EXPECT_EQ(angle_close(u, 1), npos);  // a `;` first
  const CodeView open_paren("T<f(a> b");
  EXPECT_EQ(angle_close(open_paren, 1), npos);  // an unbalanced bracket inside
}

TEST(TopLevelWalk, AngleOpen) {
  const CodeView v("x; k<T, A<int>><<<1, 2>>>(); m<N><<<1, 2>>>(); a > b; c");
  EXPECT_EQ(angle_open(v, find(v, ">>")), find(v, "<"));  // `>>` closes A's list and k's
  EXPECT_EQ(angle_open(v, find(v, ">")), find(v, "<", 2));
  EXPECT_EQ(angle_open(v, find(v, ">"), find(v, "<", 2) + 1), npos);  // not back to `first`
  EXPECT_EQ(angle_open(v, find(v, ">", 1)), npos);                    // a comparison: the `;` first
  EXPECT_EQ(angle_open(v, find(v, "k")), npos);                       // not a `>`
}

TEST(TopLevelWalk, SplitTopLevel) {
  const CodeView v("Map<K, V> m, int a[2] = {1, 2}, f(x, y), n < 4, k");
  const std::vector<lex::ArgRange> all = split_top_level(v, 0, v.code_size() - 1);
  EXPECT_EQ(pieces(v, all), (std::vector<std::string>{"Map<K, V> m", "int a[2] = {1, 2}", "f(x, y)", "n < 4, k"}));
  const std::vector<lex::ArgRange> exprs = split_top_level(v, 0, v.code_size() - 1, false);
  EXPECT_EQ(pieces(v, exprs),
            (std::vector<std::string>{"Map<K", "V> m", "int a[2] = {1, 2}", "f(x, y)", "n < 4", "k"}));
  EXPECT_TRUE(split_top_level(v, 3, 2).empty());
  EXPECT_EQ(pieces(v, split_top_level(v, 0, 1)), (std::vector<std::string>{"Map<"}));
  const CodeView e("a,,b,");
  EXPECT_EQ(pieces(e, split_top_level(e, 0, e.code_size() - 1)), (std::vector<std::string>{"a", "", "b", ""}));
}

TEST(TopLevelWalk, LaunchArgs) {
  const CodeView v("k<<<dim3(a, b), {32, 1}, n < 4 ? 1 : 2>>>(x); j<<<>>>(); u<<<g, b;");
  const std::vector<lex::ArgRange> p = launch_args(v, find(v, "<<<"));
  EXPECT_EQ(pieces(v, p), (std::vector<std::string>{"dim3(a, b)", "{32, 1}", "n < 4 ? 1 : 2"}));
  EXPECT_EQ(p.back().last + 1, find(v, ">>>"));
  const std::vector<lex::ArgRange> none = launch_args(v, find(v, "<<<", 1));
  ASSERT_EQ(none.size(), 1u);  // `<<<>>>`: one empty piece, which ends before the `>>>`
  EXPECT_TRUE(none[0].empty());
  EXPECT_EQ(none[0].last + 1, find(v, ">>>", 1));
  EXPECT_TRUE(launch_args(v, find(v, "<<<", 2)).empty());  // not closed before the `;`
}

TEST(TopLevelWalk, NamesWarpOrWave) {
  for (const char* n : {"warp", "WARP_SIZE", "kWarpSize", "wavefront", "num_warps", "WAVE64"})
    EXPECT_TRUE(names_warp_or_wave(n)) << n;
  for (const char* n : {"", "war", "lanes", "block_size", "wav"}) EXPECT_FALSE(names_warp_or_wave(n)) << n;
}

}  // namespace
}  // namespace ferry::analysis

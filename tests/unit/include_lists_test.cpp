// targets::IncludeLists (ProjectContext::includes): each file's #include names as written, the
// names pooled, the files in the order the unordered map they replaced kept them.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "targets/include_lists.h"

namespace ferry::targets {
namespace {

std::vector<std::string> strings(const IncludeLists::Headers& h) { return {h.begin(), h.end()}; }

TEST(IncludeLists, KeepsEachFilesHeadersInOrder) {
  IncludeLists lists;
  const std::vector<std::string_view> a = {"<cstdio>", "\"util/common.h\"", "<cuda_runtime.h>"};
  const std::vector<std::string_view> none;
  lists.set("src/a.cu", a);
  lists.set("src/empty.cu", none);
  ASSERT_TRUE(lists.find("src/a.cu"));
  EXPECT_EQ(strings(*lists.find("src/a.cu")),
            (std::vector<std::string>{"<cstdio>", "\"util/common.h\"", "<cuda_runtime.h>"}));
  EXPECT_EQ((*lists.find("src/a.cu"))[1], "\"util/common.h\"");
  EXPECT_EQ(lists.find("src/a.cu")->size(), 3u);
  // A file with no #include is known (ProjectContext::project_include asks), with an empty list.
  EXPECT_TRUE(lists.contains("src/empty.cu"));
  ASSERT_TRUE(lists.find("src/empty.cu"));
  EXPECT_TRUE(lists.find("src/empty.cu")->empty());
  EXPECT_FALSE(lists.contains("src/b.cu"));
  EXPECT_FALSE(lists.find("src/b.cu"));
  EXPECT_EQ(lists.size(), 2u);
}

TEST(IncludeLists, PoolsTheNamesThatFilesShare) {
  IncludeLists lists;
  const std::vector<std::string_view> h = {"<cstdio>", "\"helper_cuda.h\"", "<cstdio>"};
  for (int copy = 0; copy < 100; ++copy) lists.set("copy" + std::to_string(copy) + "/k.cu", h);
  EXPECT_EQ(lists.distinct_headers(), 2u);  // kept once, however many files name them
  EXPECT_EQ(strings(*lists.find("copy57/k.cu")),
            (std::vector<std::string>{"<cstdio>", "\"helper_cuda.h\"", "<cstdio>"}));
  // The views stay valid as the pool grows (names are never moved).
  const std::string& first = *lists.find("copy0/k.cu")->begin();
  for (int i = 0; i < 1000; ++i) {
    const std::string name = "<h" + std::to_string(i) + ".h>";
    const std::vector<std::string_view> one = {name};
    lists.set("more/" + std::to_string(i) + ".cu", one);
  }
  EXPECT_EQ(first, "<cstdio>");
  EXPECT_EQ(&first, &*lists.find("copy0/k.cu")->begin());
  EXPECT_EQ(lists.distinct_headers(), 1002u);
}

TEST(IncludeLists, AFileRecordedAgainGetsItsNewList) {
  IncludeLists lists;
  const std::vector<std::string_view> old_list = {"<a.h>", "<b.h>"}, new_list = {"<c.h>"};
  lists.set("k.cu", old_list);
  lists.set("k.cu", new_list);
  EXPECT_EQ(strings(*lists.find("k.cu")), (std::vector<std::string>{"<c.h>"}));
  EXPECT_EQ(lists.size(), 1u);
}

// Readers that take the first file to match (project_include's search by path suffix, the cuda
// target's closure) depend on the order: it is the order of the std::unordered_map the lists
// were kept in before they were pooled, filled the same way.
TEST(IncludeLists, IteratesInTheOrderOfTheMapItReplaced) {
  IncludeLists lists;
  std::unordered_map<std::string, std::vector<std::string>> before;
  for (int i = 0; i < 500; ++i) {
    const std::string file = "d" + std::to_string(i % 7) + "/f" + std::to_string(i) + ".cu";
    const std::string h = "\"h" + std::to_string(i % 13) + ".h\"";
    const std::vector<std::string_view> headers = {h, "<cstdio>"};
    lists.set(file, headers);
    std::vector<std::string>& b = before[file];
    b.assign(headers.begin(), headers.end());
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> got, want;
  for (const auto& [file, headers] : lists) got.emplace_back(file, strings(headers));
  for (const auto& [file, headers] : before) want.emplace_back(file, headers);
  EXPECT_EQ(got, want);
}

// A quoted include found by its path's suffix (ProjectContext::project_include): the index by file
// name finds what a walk over every file in begin()'s order finds, at a path component's boundary
// only, and a set() after a lookup is seen by the next lookup.
const std::string* first_by_walk(const IncludeLists& lists, const std::string& path) {
  for (const auto& [file, _] : lists)
    if (file == path || file.ends_with("/" + path)) return &file;
  return nullptr;
}

TEST(IncludeLists, FindsAFileByItsPathsSuffixAsAWalkDoes) {
  IncludeLists lists;
  const std::vector<std::string_view> none;
  for (int i = 0; i < 400; ++i)  // many files sharing a few names, in several folders
    lists.set("p" + std::to_string(i % 9) + "/q" + std::to_string(i % 4) + "/h" + std::to_string(i % 17) + ".h", none);
  lists.set("h3.h", none);
  lists.set("p1/xh3.h", none);
  for (const std::string path : {"h3.h", "q1/h3.h", "p1/q1/h3.h", "h99.h", "xh3.h", "1/h3.h", "", "q2/", "h5.h"}) {
    const std::string* want = first_by_walk(lists, path);
    const std::string* got = lists.first_ending_with(path);
    EXPECT_EQ(got, want) << path;
  }
  EXPECT_EQ(lists.first_ending_with("1/h3.h"), nullptr);  // "p1/q1/h3.h" ends with "1/h3.h", not "/1/h3.h"
  ASSERT_NE(lists.first_ending_with("xh3.h"), nullptr);
  EXPECT_EQ(*lists.first_ending_with("xh3.h"), "p1/xh3.h");
  EXPECT_EQ(lists.first_ending_with("new/only.h"), nullptr);
  lists.set("deep/new/only.h", none);
  ASSERT_NE(lists.first_ending_with("new/only.h"), nullptr);
  EXPECT_EQ(*lists.first_ending_with("new/only.h"), "deep/new/only.h");
  for (const std::string path : {"h3.h", "q1/h3.h", "h5.h"})
    EXPECT_EQ(lists.first_ending_with(path), first_by_walk(lists, path)) << path;
}

TEST(IncludeLists, MovedListsStillReadTheirNames) {
  IncludeLists lists;
  const std::vector<std::string_view> h = {"<cstdio>", "\"a_rather_long_header_name_beyond_sso.h\""};
  lists.set("k.cu", h);
  const IncludeLists moved = std::move(lists);
  EXPECT_EQ(strings(*moved.find("k.cu")),
            (std::vector<std::string>{"<cstdio>", "\"a_rather_long_header_name_beyond_sso.h\""}));
}

}  // namespace
}  // namespace ferry::targets

// The walk's file list (project::walk_tree): a file's path is its relative path joined to the
// walked root (ProjectFile::abs), not a parsed path kept per file; and migrate_tree's per-file
// reports, made from the walk when the tree is done.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "migrate/migrate_tree.h"
#include "project/project.h"
#include "targets/target.h"

namespace fs = std::filesystem;

namespace ferry {
namespace {

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

struct TempTree {
  fs::path base;
  explicit TempTree(const std::string& name)
      : base(fs::temp_directory_path() / ("ferry-walk-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(base);
  }
  ~TempTree() { fs::remove_all(base); }
};

TEST(ProjectWalk, AFilesPathIsItsRelativePathUnderTheRoot) {
  const TempTree t("abs");
  write(t.base / "in/src/k.cu", "__global__ void k() {}\n");
  write(t.base / "in/include/deep/er/h.cuh", "// h\n");
  write(t.base / "in/CMakeLists.txt", "project(x)\n");
  for (const fs::path& root : {t.base / "in", fs::path((t.base / "in").string() + "/")}) {
    const project::Walk walk = project::walk_tree(root, {});
    EXPECT_EQ(walk.root, root);
    ASSERT_EQ(walk.files.size(), 3u);
    EXPECT_EQ(walk.files[0].rel, "CMakeLists.txt");
    EXPECT_EQ(walk.files[1].rel, "include/deep/er/h.cuh");
    EXPECT_EQ(walk.files[2].rel, "src/k.cu");
    EXPECT_EQ(walk.files[2].kind, project::FileKind::CudaSource);
    EXPECT_EQ(walk.files[2].size, 23u);
    EXPECT_EQ(project::read_file(walk.files[1].abs(walk.root)), "// h\n");
    EXPECT_TRUE(fs::equivalent(walk.files[2].abs(walk.root), t.base / "in/src/k.cu"));
  }
  // A relative root stays relative: the paths are the ones the walk itself opened.
  const fs::path cwd = fs::current_path();
  fs::current_path(t.base);
  const project::Walk rel = project::walk_tree("in", {});
  ASSERT_EQ(rel.files.size(), 3u);
  EXPECT_EQ(rel.files[2].abs(rel.root), fs::path("in/src/k.cu"));
  EXPECT_EQ(project::read_file(rel.files[2].abs(rel.root)), "__global__ void k() {}\n");
  fs::current_path(cwd);
}

// The tree's reports come out in the walk's order, each with its path, kind and action, however
// the loop keeps them while it runs.
TEST(ProjectWalk, MigrateTreeReportsEveryFileOfTheWalk) {
  const TempTree t("reports");
  write(t.base / "in/b/k.cu", "#include <cuda_runtime.h>\nvoid f() { cudaDeviceSynchronize(); }\n");
  write(t.base / "in/a/util.h", "#pragma once\n");
  write(t.base / "in/README.md", "read me\n");
  write(t.base / "in/CMakeLists.txt", "project(x LANGUAGES CXX CUDA)\nadd_executable(k b/k.cu)\n");
  migrate::TreeOptions tree;
  tree.input = t.base / "in";
  tree.output = t.base / "out";
  const targets::Options defaults;
  const migrate::TreeResult r = migrate::migrate_tree(*targets::make_target("hip", defaults), defaults, tree);
  ASSERT_EQ(r.files.size(), 4u);
  EXPECT_EQ(r.files[0].rel, "CMakeLists.txt");
  EXPECT_EQ(r.files[0].kind, project::FileKind::CMake);
  EXPECT_EQ(r.files[1].rel, "README.md");
  EXPECT_EQ(r.files[1].action, "copied");
  EXPECT_EQ(r.files[2].rel, "a/util.h");
  EXPECT_EQ(r.files[3].rel, "b/k.cu");
  EXPECT_EQ(r.files[3].action, "migrated");
  EXPECT_GT(r.files[3].stats.converted_by_family.size(), 0u);
  EXPECT_EQ(project::read_file(t.base / "out/README.md"), "read me\n");
  EXPECT_NE(project::read_file(t.base / "out/b/k.cu").find("hipDeviceSynchronize"), std::string::npos);
  // A second round over the unchanged tree finds every file unchanged, by its content hash.
  const migrate::TreeResult again = migrate::migrate_tree(*targets::make_target("hip", defaults), defaults, tree);
  ASSERT_EQ(again.files.size(), 4u);
  for (const migrate::FileReport& f : again.files) EXPECT_EQ(f.action, "unchanged") << f.rel;
  EXPECT_EQ(again.files[3].rel, "b/k.cu");
}

// The manifest's content hash is FNV-1a's step (64 bits, its offset basis written with one digit
// short) as printed since the first round: a later round compares against hashes an older Ferry
// wrote, so the hash must not change with its speed-ups. `reference` is the byte loop it was.
TEST(ProjectWalk, ContentHashIsTheSameOfEveryLength) {
  EXPECT_EQ(migrate::content_hash(""), "14650fb0739d0383");
  EXPECT_EQ(migrate::content_hash("a"), "44bd8ad473cd9906");
  EXPECT_EQ(migrate::content_hash("foobar"), "88fad7c0a8ff07f2");
  auto reference = [](std::string_view s) {
    std::uint64_t h = 1469598103934665603ull;
    for (const unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return std::string(buf);
  };
  std::string text;
  for (int n = 0; n < 40; ++n) {
    EXPECT_EQ(migrate::content_hash(text), reference(text)) << n;
    text += static_cast<char>(0x80 + n * 7);  // bytes above 0x7f: unsigned, as the reference reads them
  }
}

}  // namespace
}  // namespace ferry

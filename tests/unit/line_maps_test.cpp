#include "migrate/line_maps.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "project/project.h"

namespace ferry::migrate {
namespace {

namespace fs = std::filesystem;

class LineMaps : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ferry-line-maps-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(LineMaps, SpoolWritesWhatJsonDumpWritesInPathOrder) {
  const nlohmann::json b = {{"out_to_orig", {1, 2, 3}}, {"changed_out_lines", nlohmann::json::array()}};
  const nlohmann::json a = {{"out_to_orig", {1}}, {"flagged_orig_lines", {{1, "FRY2201"}}}};
  LineMapSpool spool;
  spool.add("src/b.cu", b.dump());
  spool.add("a \"quoted\".cu", nlohmann::json::array().dump());
  spool.add("a \"quoted\".cu", a.dump());  // a later entry replaces the earlier
  spool.write(dir_ / "linemaps.json");
  const nlohmann::json want = {{"version", 1}, {"files", {{"src/b.cu", b}, {"a \"quoted\".cu", a}}}};
  EXPECT_EQ(project::read_file(dir_ / "linemaps.json"), want.dump());
}

TEST_F(LineMaps, PreviousEntriesAreWhatTheParsedFileHolds) {
  const nlohmann::json x = {{"out_to_orig", {1, 2}}, {"changed_out_lines", {2}}};
  const nlohmann::json file = {{"version", 1}, {"files", {{"k\\u00e9y.cu", x}, {"y.cu", {{"out_to_orig", {}}}}}}};
  project::write_atomically(dir_ / "linemaps.json", file.dump(2));  // any layout
  const PreviousLineMaps prev(dir_ / "linemaps.json");
  ASSERT_TRUE(prev.entry("k\\u00e9y.cu"));
  EXPECT_EQ(*prev.entry("k\\u00e9y.cu"), x.dump());
  EXPECT_EQ(*prev.entry("y.cu"), file["files"]["y.cu"].dump());
  EXPECT_FALSE(prev.entry("z.cu"));
}

TEST_F(LineMaps, PreviousHasNoEntriesForAbsentOrBrokenFiles) {
  EXPECT_FALSE(PreviousLineMaps(dir_ / "absent.json").entry("a.cu"));
  project::write_atomically(dir_ / "broken.json", R"({"files":{"a.cu":{"out_to_orig":[1]}})");
  EXPECT_FALSE(PreviousLineMaps(dir_ / "broken.json").entry("a.cu"));
  project::write_atomically(dir_ / "array.json", R"({"files":[{"a.cu":1}],"version":1})");
  EXPECT_FALSE(PreviousLineMaps(dir_ / "array.json").entry("a.cu"));
  // a key given twice: the last one, as nlohmann::json's parse keeps
  project::write_atomically(dir_ / "twice.json", R"({"files":{"a.cu":[1],"a.cu":[2]},"version":1})");
  EXPECT_EQ(*PreviousLineMaps(dir_ / "twice.json").entry("a.cu"), "[2]");
}

}  // namespace
}  // namespace ferry::migrate

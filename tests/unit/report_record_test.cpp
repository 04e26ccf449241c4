// report::record_migration writes OUT/.ferry/report.json streamed into the file: the same bytes as
// the report's dump(1) and a newline, which `ferry report`, `status` and the workbench read.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "project/project.h"
#include "report/bundle.h"

namespace fs = std::filesystem;

namespace ferry::report {
namespace {

TEST(RecordMigration, WritesTheBytesOfDumpOne) {
  const fs::path out = fs::temp_directory_path() / ("ferry-record-" + std::to_string(::getpid()));
  fs::remove_all(out);
  nlohmann::json j;
  j["tool"] = "ferry";
  j["seconds"] = 0.125;
  j["bytes_in"] = 123456789012ull;
  j["files"] = nlohmann::json::array();
  j["files"].push_back({{"path", "a/\xc3\xa9t\xc3\xa9.cu"},  // UTF-8 kept as is
                        {"action", "migrated"},
                        {"converted", {{"runtime", 3}, {"driver", 1}}},
                        {"unconverted", nlohmann::json::object()},
                        {"worklist", nlohmann::json::array()}});
  j["files"].push_back({{"path", "quote\"tab\tnl\n.h"}, {"lines", -1}, {"ratio", 1e-7}});
  j["diagnostics"] = nlohmann::json::array();
  j["totals"] = {{"files", 2}, {"diagnostics_by_code", nlohmann::json::object()}};
  const std::string want = j.dump(1) + "\n";
  record_migration(out, j);
  const std::string got = project::read_file(out / ".ferry/report.json");
  EXPECT_EQ(got, want);
  fs::remove_all(out);
}

}  // namespace
}  // namespace ferry::report

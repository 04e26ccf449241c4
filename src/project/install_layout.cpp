#include "project/install_layout.h"

#include <cstdlib>
#include <cstring>

namespace ferry::project {
namespace fs = std::filesystem;

fs::path executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return exe.parent_path();
}

fs::path installed_path(const fs::path& relative) {
  const fs::path bin = executable_dir();
  if (bin.empty()) return {};
  const fs::path p = (bin.parent_path() / relative).lexically_normal();
  std::error_code ec;
  return fs::exists(p, ec) ? p : fs::path();
}

bool build_tree_allowed() {
  const char* v = std::getenv("FERRY_IGNORE_BUILD_TREE");
  return v == nullptr || std::strcmp(v, "1") != 0;
}

}  // namespace ferry::project

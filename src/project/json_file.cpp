#include "project/json_file.h"

#include <exception>
#include <system_error>

#include "project/project.h"

namespace ferry::project {

nlohmann::json read_json_or_null(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return nullptr;
  try {
    nlohmann::json j = nlohmann::json::parse(read_file(path), nullptr, false);
    return j.is_discarded() ? nlohmann::json(nullptr) : j;
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace ferry::project

#include "targets/include_lists.h"

namespace ferry::targets {

void IncludeLists::set(const std::string& file, std::span<const std::string_view> headers) {
  Run& run = files_[file];
  run.first = static_cast<std::uint32_t>(ids_.size());
  run.count = static_cast<std::uint32_t>(headers.size());
  for (const std::string_view h : headers) {
    auto it = id_of_.find(h);
    if (it == id_of_.end()) {
      names_.emplace_back(h);
      it = id_of_.emplace(names_.back(), static_cast<std::uint32_t>(names_.size() - 1)).first;
    }
    ids_.push_back(it->second);
  }
}

std::optional<IncludeLists::Headers> IncludeLists::find(const std::string& file) const {
  const auto it = files_.find(file);
  if (it == files_.end()) return std::nullopt;
  return Headers(*this, it->second);
}

}  // namespace ferry::targets

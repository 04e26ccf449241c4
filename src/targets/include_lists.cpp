#include "targets/include_lists.h"

#include <algorithm>
#include <tuple>

namespace ferry::targets {

void IncludeLists::set(const std::string& file, std::span<const std::string_view> headers) {
  {
    const std::lock_guard<std::mutex> hold(*index_lock_);
    indexed_ = false;  // a new file, or a rehash, changes begin()'s order
    by_name_.clear();
  }
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

namespace {

std::string_view last_component(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

const std::string* IncludeLists::first_ending_with(std::string_view path) const {
  const std::lock_guard<std::mutex> hold(*index_lock_);
  if (!indexed_) {
    by_name_.clear();
    by_name_.reserve(files_.size());
    std::uint32_t rank = 0;
    for (const auto& [file, _] : files_) by_name_.push_back({last_component(file), rank++, &file});
    std::sort(by_name_.begin(), by_name_.end(),
              [](const ByName& a, const ByName& b) { return std::tie(a.name, a.rank) < std::tie(b.name, b.rank); });
    indexed_ = true;
  }
  const std::string_view name = last_component(path);
  auto at = std::lower_bound(by_name_.begin(), by_name_.end(), name,
                             [](const ByName& e, std::string_view n) { return e.name < n; });
  for (; at != by_name_.end() && at->name == name; ++at) {  // ascending rank: the first match wins
    const std::string& file = *at->file;
    if (file == path ||
        (file.size() > path.size() && file.ends_with(path) && file[file.size() - path.size() - 1] == '/'))
      return &file;
  }
  return nullptr;
}

}  // namespace ferry::targets

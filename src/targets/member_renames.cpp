#include "targets/member_renames.h"

#include <stdexcept>
#include <string>
#include <unordered_map>

#include "core/split.h"
#include "rules/builtin.h"

namespace ferry::targets {
namespace {

struct MemberTable {
  std::unordered_map<std::string, std::string> to_hip, to_cuda;
};

const MemberTable& member_table() {
  static const MemberTable table = [] {
    MemberTable t;
    for (std::string_view row : table_rows(rules::builtin_table("member_renames.tsv"))) {
      const std::vector<std::string_view> f = split(row, '\t');
      if (f.size() != 3 || f[0].empty() || f[1].empty())
        throw std::runtime_error("rules/member_renames.tsv: expected cuda_member, hip_member, structs: " +
                                 std::string(row));
      t.to_hip.emplace(f[0], f[1]);
      t.to_cuda.emplace(f[1], f[0]);
    }
    return t;
  }();
  return table;
}

}  // namespace

void rename_members(migrate::FileMigration& file, bool to_hip) {
  const auto& map = to_hip ? member_table().to_hip : member_table().to_cuda;
  if (map.empty()) return;
  for (std::size_t ci = 1; ci < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || !(file.is(ci - 1, ".") || file.is(ci - 1, "->"))) continue;
    if (file.excluded(ci) || file.touched(ci)) continue;
    const auto it = map.find(std::string(file.text(ci)));
    if (it == map.end()) continue;
    if (file.replace(ci, ci, it->second)) file.count_converted("driver");
  }
}

}  // namespace ferry::targets

#include "analysis/profile.h"

#include <stdexcept>

#include "core/split.h"
#include "rules/builtin.h"

namespace ferry::analysis {
namespace {

std::uint32_t to_u32(std::string_view s, std::string_view what) {
  std::uint32_t v = 0;
  if (s.empty()) throw std::runtime_error("profiles.tsv: empty " + std::string(what));
  for (char c : s) {
    if (c < '0' || c > '9')
      throw std::runtime_error("profiles.tsv: bad " + std::string(what) + " '" + std::string(s) + "'");
    v = v * 10 + static_cast<std::uint32_t>(c - '0');
  }
  return v;
}

std::vector<Profile> load() {
  std::vector<Profile> out;
  for (const std::string_view line : table_rows(rules::builtin_table("profiles/profiles.tsv"))) {
    const auto f = split(line, '\t');
    if (f.size() != 10) throw std::runtime_error("profiles.tsv: expected 10 fields in: " + std::string(line));
    Profile p;
    p.name = f[0];
    p.vendor = f[1];
    p.wave_size = to_u32(f[2], "wave_size");
    p.lds_static_bytes = to_u32(f[3], "lds_static_bytes");
    p.lds_max_bytes = to_u32(f[4], "lds_max_bytes");
    p.max_threads_per_block = to_u32(f[5], "max_threads_per_block");
    p.max_regs_per_thread = to_u32(f[6], "max_regs_per_thread");
    p.toolchain = f[7];
    p.flag = f[8];
    p.description = f[9];
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

const std::vector<Profile>& profiles() {
  static const std::vector<Profile> kProfiles = load();
  return kProfiles;
}

const Profile* find_profile(std::string_view name) {
  for (const Profile& p : profiles())
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<const Profile*> parse_profile_list(std::string_view list) {
  std::vector<const Profile*> out;
  std::string unknown;
  for (std::string_view name : split(list, ',')) {
    if (name.empty()) continue;
    if (const Profile* p = find_profile(name)) out.push_back(p);
    else unknown += (unknown.empty() ? "" : ", ") + std::string(name);
  }
  if (!unknown.empty()) {
    std::string known;
    for (const Profile& p : profiles()) known += (known.empty() ? "" : ", ") + p.name;
    throw std::invalid_argument("unknown target profile(s): " + unknown + " (known: " + known + ")");
  }
  if (out.empty()) throw std::invalid_argument("no target profile given");
  return out;
}

}  // namespace ferry::analysis

// Hardware target profiles, as data (rules/profiles/profiles.tsv, embedded at build time):
// wavefront width, LDS/shared memory per block, thread and register limits, and the toolchain
// flag that selects each. `ferry targets` lists them; analyze and verify look them up.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ferry::analysis {

struct Profile {
  std::string name;    // "gfx906", "sm_90"
  std::string vendor;  // "amd", "nvidia"
  unsigned wave_size = 32;
  std::uint32_t lds_static_bytes = 0;  // most static __shared__ one block may declare
  std::uint32_t lds_max_bytes = 0;     // most one block can get, dynamic included (opt-in)
  unsigned max_threads_per_block = 1024;
  unsigned max_regs_per_thread = 255;
  std::string toolchain;  // "hipcc" or "nvcc"
  std::string flag;       // "--offload-arch=gfx906", "-arch=sm_90"
  std::string description;
};

// All profiles, in table order. Parsed once from the embedded table.
[[nodiscard]] const std::vector<Profile>& profiles();
[[nodiscard]] const Profile* find_profile(std::string_view name);
// Parses "gfx906,gfx90a" into profiles; throws std::invalid_argument naming the unknown ones
// and the known names.
[[nodiscard]] std::vector<const Profile*> parse_profile_list(std::string_view list);

}  // namespace ferry::analysis

// The wave64 runtime's support of kernels in region form (include/wave64/regions.h): the switch
// W64_REGIONS and the per-lane storage of a region-form block.
#include <cstdlib>
#include <vector>

#include "scheduler_internal.h"
#include "wave64/regions.h"

namespace w64::rt {

bool regions_enabled() {
  static const bool on = sched::env_unsigned("W64_REGIONS", 1) != 0;
  return on;
}

namespace {

// A bump arena per OS thread. Storage handed out stays put until released (the block's
// per-lane arrays are live together): a request that does not fit the current chunk gets a
// chunk of its own, freed at the release that passes it.
struct Arena {
  std::vector<unsigned char> main;
  std::size_t used = 0;
  std::vector<std::pair<std::size_t, void*>> extra;  // (mark when allocated, block)
};
thread_local Arena t_arena;

}  // namespace

void* region_alloc(std::size_t bytes, std::size_t align) {
  Arena& a = t_arena;
  if (a.main.empty()) a.main.resize(std::size_t{1} << 20);
  std::size_t at = (a.used + align - 1) & ~(align - 1);
  auto base = reinterpret_cast<std::uintptr_t>(a.main.data());
  std::size_t pad = ((base + at + align - 1) & ~(std::uintptr_t{align} - 1)) - (base + at);
  if (at + pad + bytes <= a.main.size()) {
    a.used = at + pad + bytes;
    return a.main.data() + at + pad;
  }
  void* p = std::aligned_alloc(align < 64 ? 64 : align, (bytes + 63) & ~std::size_t{63});
  if (!p) sched::fatal("out of memory for a region-form block's per-lane storage");
  a.extra.emplace_back(a.used, p);
  return p;
}

std::size_t region_mark() { return t_arena.used; }

void region_release(std::size_t mark) {
  Arena& a = t_arena;
  while (!a.extra.empty() && a.extra.back().first >= mark) {
    std::free(a.extra.back().second);
    a.extra.pop_back();
  }
  a.used = mark;
}

}  // namespace w64::rt

// The wave64 runtime's warp operations: shuffles, votes, match and reduce as barriers over a
// wavefront's lanes, grouped by call site when lanes diverge (docs/wave64.md, "Divergence").
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <tuple>

#include "scheduler_internal.h"
#include "wave64/regions.h"

namespace w64::rt {
namespace sched {
namespace {

bool quiet() {
  static const bool q = env_unsigned("W64_QUIET", 0) != 0;
  return q;
}

}  // namespace

void warn_once(const Site& s, const char* kind, const std::string& msg) {
  if (quiet()) return;
  static std::mutex m;
  static std::set<std::tuple<std::string, unsigned, unsigned, std::string>> seen;
  std::lock_guard<std::mutex> lock(m);
  if (!seen.emplace(s.file, s.line, s.col, kind).second) return;
  std::fprintf(stderr, "%s:%u:%u: wave64: warning: %s\n", s.file, s.line, s.col, msg.c_str());
}

namespace {

bool site_less(const Lane& a, const Lane& b) {
  if (a.site.line != b.site.line) return a.site.line < b.site.line;
  if (a.site.col != b.site.col) return a.site.col < b.site.col;
  if (a.site.file != b.site.file) {
    const int c = std::strcmp(a.site.file, b.site.file);
    if (c != 0) return c < 0;
  }
  return std::tie(a.op, a.sub) < std::tie(b.op, b.sub);
}

bool same_site(const Lane& a, const Lane& b) {
  return a.site.line == b.site.line && a.site.col == b.site.col && a.op == b.op && a.sub == b.sub &&
         (a.site.file == b.site.file || std::strcmp(a.site.file, b.site.file) == 0);
}

const char* shuffle_name(Shfl k) {
  switch (k) {
    case Shfl::HipIdx: return "__shfl";
    case Shfl::HipUp: return "__shfl_up";
    case Shfl::HipDown: return "__shfl_down";
    case Shfl::HipXor: return "__shfl_xor";
    case Shfl::CudaIdx: return "__shfl_sync";
    case Shfl::CudaUp: return "__shfl_up_sync";
    case Shfl::CudaDown: return "__shfl_down_sync";
    case Shfl::CudaXor: return "__shfl_xor_sync";
  }
  return "__shfl";
}

// The source lane of a shuffle, as the HIP 5.2 headers or the CUDA documentation define it.
inline __attribute__((always_inline)) int shuffle_source(Shfl k, int self, int arg, int width, int wave) {
  int index = self;
  switch (k) {
    case Shfl::HipIdx: index = arg + (self & ~(width - 1)); break;
    case Shfl::CudaIdx: index = (self & ~(width - 1)) + (arg & (width - 1)); break;
    case Shfl::HipUp:
    case Shfl::CudaUp:
      index = self - arg;
      if (index < (self & ~(width - 1))) index = self;
      break;
    case Shfl::HipDown:
    case Shfl::CudaDown:
      index = self + arg;
      if ((self & (width - 1)) + arg >= width) index = self;
      break;
    case Shfl::HipXor:
    case Shfl::CudaXor:
      index = self ^ arg;
      if (index >= ((self + width) & ~(width - 1))) index = self;
      break;
  }
  const bool hip = k <= Shfl::HipXor;
  if (hip) return index & (wave - 1);  // ds_bpermute addresses lanes modulo the wavefront
  return (index < 0 || index >= wave) ? self : index;
}

void compute_group(Worker& w, Wave& wv, std::uint64_t group) {
  Lane* lanes = &w.lanes[wv.first];
  const Lane& head = lanes[__builtin_ctzll(group)];
  const int wave = static_cast<int>(w.launch->wave);
  switch (head.op) {
    case Op::Shuffle: {
      const auto kind = static_cast<Shfl>(head.sub);
      const bool hip = kind <= Shfl::HipXor;
      for (std::uint64_t g = group; g; g &= g - 1) {
        const int i = __builtin_ctzll(g);
        Lane& l = lanes[i];
        const int src = shuffle_source(kind, i, l.arg, l.width, wave);
        if (src < static_cast<int>(wv.size) && (group >> src & 1)) {
          copy_value(l.out, lanes[src].in, l.bytes);
        } else {
          warn_once(l.site, "inactive",
                    std::string(shuffle_name(kind)) + " in lane " + std::to_string(i) + " reads lane " +
                        std::to_string(src) + ", which is not active (diverged, exited or beyond blockDim); " +
                        (hip ? "AMD hardware returns 0"
                             : "the value is undefined in CUDA; "
                               "the caller's own value is returned") +
                        " (reported once per call site)");
          if (hip) std::memset(l.out, 0, l.bytes);
          else std::memcpy(l.out, l.in, l.bytes);
        }
      }
      return;
    }
    case Op::Vote: {
      std::uint64_t ballot = 0;
      for (std::uint64_t g = group; g; g &= g - 1) {
        const int i = __builtin_ctzll(g);
        int p = 0;
        std::memcpy(&p, lanes[i].in, sizeof p);
        if (p) ballot |= 1ull << i;
      }
      std::uint64_t r = 0;
      switch (static_cast<Vote>(head.sub)) {
        case Vote::Ballot: r = ballot; break;
        case Vote::Any: r = ballot != 0; break;
        case Vote::All: r = ballot == group; break;
        case Vote::Active: r = group; break;
        case Vote::Sync: r = 0; break;
      }
      for (std::uint64_t g = group; g; g &= g - 1) std::memcpy(lanes[__builtin_ctzll(g)].out, &r, sizeof r);
      return;
    }
    case Op::Match: {
      const bool all = head.sub != 0;
      bool every = true;
      for (std::uint64_t g = group; g; g &= g - 1) {
        Lane& l = lanes[__builtin_ctzll(g)];
        std::uint64_t m = 0;
        for (std::uint64_t h = group; h; h &= h - 1) {
          const int j = __builtin_ctzll(h);
          if (std::memcmp(l.in, lanes[j].in, l.bytes) == 0) m |= 1ull << j;
        }
        if (m != group) every = false;
        std::memcpy(l.out, &m, sizeof m);
      }
      if (all) {
        const std::uint64_t r = every ? group : 0;
        const int e = every;
        for (std::uint64_t g = group; g; g &= g - 1) {
          Lane& l = lanes[__builtin_ctzll(g)];
          std::memcpy(l.out, &r, sizeof r);
          std::memcpy(l.out + 8, &e, sizeof e);
        }
      }
      return;
    }
    case Op::Reduce: {
      const auto op = static_cast<Reduce>(head.sub);
      std::uint32_t acc = 0;
      bool first = true;
      for (std::uint64_t g = group; g; g &= g - 1) {
        std::uint32_t v = 0;
        std::memcpy(&v, lanes[__builtin_ctzll(g)].in, sizeof v);
        if (first) {
          acc = v;
          first = false;
          continue;
        }
        switch (op) {
          case Reduce::AddU: acc += v; break;
          case Reduce::MinU: acc = std::min(acc, v); break;
          case Reduce::MaxU: acc = std::max(acc, v); break;
          case Reduce::MinS:
            acc = static_cast<std::uint32_t>(std::min(static_cast<std::int32_t>(acc), static_cast<std::int32_t>(v)));
            break;
          case Reduce::MaxS:
            acc = static_cast<std::uint32_t>(std::max(static_cast<std::int32_t>(acc), static_cast<std::int32_t>(v)));
            break;
          case Reduce::And: acc &= v; break;
          case Reduce::Or: acc |= v; break;
          case Reduce::Xor: acc ^= v; break;
        }
      }
      for (std::uint64_t g = group; g; g &= g - 1) std::memcpy(lanes[__builtin_ctzll(g)].out, &acc, sizeof acc);
      return;
    }
  }
}

}  // namespace

bool release_group(Worker& w, Wave& wv, Lane* self) {
  Lane* lanes = &w.lanes[wv.first];
  // Usually every waiting lane is at the same operation: one pass finds that out.
  const Lane* first = &lanes[__builtin_ctzll(wv.arrived)];
  std::uint64_t group = 0;
  for (std::uint64_t a = wv.arrived; a; a &= a - 1) {
    const int i = __builtin_ctzll(a);
    if (same_site(lanes[i], *first)) group |= 1ull << i;
  }
  if (group != wv.arrived) {  // diverged: the group of the earliest call site goes first
    for (std::uint64_t a = wv.arrived; a; a &= a - 1) {
      const Lane& l = lanes[__builtin_ctzll(a)];
      if (site_less(l, *first)) first = &l;
    }
    group = 0;
    for (std::uint64_t a = wv.arrived; a; a &= a - 1) {
      const int i = __builtin_ctzll(a);
      if (same_site(lanes[i], *first)) group |= 1ull << i;
    }
  }
  compute_group(w, wv, group);
  wv.arrived &= ~group;
  bool self_in = false;
  for (std::uint64_t g = group; g; g &= g - 1) {
    Lane* l = &lanes[__builtin_ctzll(g)];
    if (l == self) {
      self_in = true;
      l->state = State::Running;
    } else {
      push_ready(w, l);
    }
  }
  return self_in;
}

Lane* resolve(Worker& w) {
  for (Wave& wv : w.waves) {
    if (!wv.arrived) continue;
    release_group(w, wv, nullptr);
    return pop_ready(w);
  }
  fatal("internal: no lane of the block can run (block barrier count " + std::to_string(w.bar_arrived) + " of " +
        std::to_string(w.nlanes - w.done) + " live lanes)");
}

namespace {

void arrive_wave(Worker& w, Lane* self) {
  Wave& wv = w.waves[self->info.wave];
  self->state = State::WaitWave;
  wv.arrived |= 1ull << self->info.lane;
  if (wv.arrived == wv.live && release_group(w, wv, self)) return;
  wait(w, self);
}

}  // namespace
}  // namespace sched

using namespace sched;

void shuffle(const void* in, void* out, unsigned bytes, Shfl kind, int arg, int width, Site site) {
  Lane* self = current("a shuffle");
  copy_value(self->in, in, bytes);
  self->bytes = bytes;
  self->op = Op::Shuffle;
  self->sub = static_cast<std::uint8_t>(kind);
  self->arg = arg;
  self->width = width;
  self->site = site;
  arrive_wave(*t_worker, self);
  copy_value(out, self->out, bytes);
}

std::uint64_t vote(Vote kind, int pred, Site site) {
  Lane* self = current("a warp vote");
  std::memcpy(self->in, &pred, sizeof pred);
  self->op = Op::Vote;
  self->sub = static_cast<std::uint8_t>(kind);
  self->site = site;
  arrive_wave(*t_worker, self);
  std::uint64_t r = 0;
  std::memcpy(&r, self->out, sizeof r);
  return r;
}

std::uint64_t match(const void* value, unsigned bytes, bool all, int* all_equal, Site site) {
  Lane* self = current("__match_*_sync");
  std::memcpy(self->in, value, bytes);
  self->bytes = bytes;
  self->op = Op::Match;
  self->sub = all ? 1 : 0;
  self->site = site;
  arrive_wave(*t_worker, self);
  std::uint64_t r = 0;
  std::memcpy(&r, self->out, sizeof r);
  if (all_equal) std::memcpy(all_equal, self->out + 8, sizeof(int));
  return r;
}

std::uint32_t reduce(Reduce op, std::uint32_t v, Site site) {
  Lane* self = current("__reduce_*_sync");
  std::memcpy(self->in, &v, sizeof v);
  self->op = Op::Reduce;
  self->sub = static_cast<std::uint8_t>(op);
  self->site = site;
  arrive_wave(*t_worker, self);
  std::uint32_t r = 0;
  std::memcpy(&r, self->out, sizeof r);
  return r;
}

// Region form (regions.h): every lane of each wavefront takes part, as in a group of the
// scheduler whose lanes all arrived; the results are the scheduler's (compute_group).
void region_run(RegionRec* recs, unsigned n, unsigned wave, RegionOp op, std::uint8_t sub, unsigned bytes, Site site) {
  for (unsigned first = 0; first < n; first += wave) {
    const unsigned size = std::min(wave, n - first);
    RegionRec* lanes = recs + first;
    std::uint64_t group = 0;
    for (unsigned i = 0; i < size; ++i)
      if (lanes[i].active) group |= 1ull << i;
    if (!group) continue;
    if (op == RegionOp::Shuffle && bytes == 4 && group == ((size == 64 ? 0 : (1ull << size)) - 1)) {
      // every lane of the wavefront, a 4-byte value: the common case, without the general copy
      const auto kind = static_cast<Shfl>(sub);
      bool inactive = false;
      for (unsigned i = 0; i < size; ++i) {
        RegionRec& l = lanes[i];
        const int src = shuffle_source(kind, static_cast<int>(i), l.arg, l.width, static_cast<int>(wave));
        if (src >= static_cast<int>(size)) {
          inactive = true;
          break;
        }
        std::memcpy(l.out, lanes[src].in, 4);
      }
      if (!inactive) {
        for (unsigned i = 0; i < size; ++i) lanes[i].active = 0;
        continue;
      }
    }
    if (op == RegionOp::Shuffle) {
      const auto kind = static_cast<Shfl>(sub);
      const bool hip = kind <= Shfl::HipXor;
      for (std::uint64_t g = group; g; g &= g - 1) {
        const unsigned i = static_cast<unsigned>(__builtin_ctzll(g));
        RegionRec& l = lanes[i];
        const int src = shuffle_source(kind, static_cast<int>(i), l.arg, l.width, static_cast<int>(wave));
        if (src < static_cast<int>(size) && (group >> src & 1)) {
          copy_value(l.out, lanes[src].in, bytes);
        } else {
          warn_once(site, "inactive",
                    std::string(shuffle_name(kind)) + " in lane " + std::to_string(i) + " reads lane " +
                        std::to_string(src) + ", which is not active (diverged, exited or beyond blockDim); " +
                        (hip ? "AMD hardware returns 0"
                             : "the value is undefined in CUDA; "
                               "the caller's own value is returned") +
                        " (reported once per call site)");
          if (hip) std::memset(l.out, 0, bytes);
          else std::memcpy(l.out, l.in, bytes);
        }
      }
    } else if (op == RegionOp::Vote) {
      std::uint64_t ballot = 0;
      for (std::uint64_t g = group; g; g &= g - 1) {
        const unsigned i = static_cast<unsigned>(__builtin_ctzll(g));
        int p = 0;
        std::memcpy(&p, lanes[i].in, sizeof p);
        if (p) ballot |= 1ull << i;
      }
      std::uint64_t r = 0;
      switch (static_cast<Vote>(sub)) {
        case Vote::Ballot: r = ballot; break;
        case Vote::Any: r = ballot != 0; break;
        case Vote::All: r = ballot == group; break;
        case Vote::Active: r = group; break;
        case Vote::Sync: r = 0; break;
      }
      for (std::uint64_t g = group; g; g &= g - 1) std::memcpy(lanes[__builtin_ctzll(g)].out, &r, sizeof r);
    }
    for (unsigned i = 0; i < size; ++i) lanes[i].active = 0;
  }
}

void region_mask_warning(std::uint64_t /*mask*/, unsigned lane, Site site) {
  warn_once(site, "mask",
            "lane " + std::to_string(lane) +
                " calls a _sync intrinsic with a mask that does not "
                "include it (undefined behaviour in CUDA)");
}

void mask_excludes_lane(std::uint64_t mask, Site site) {
  const Lane* self = current("a _sync warp intrinsic");
  if (!(mask >> self->info.lane & 1))
    warn_once(site, "mask",
              "lane " + std::to_string(self->info.lane) +
                  " calls a _sync intrinsic with a mask that does not "
                  "include it (undefined behaviour in CUDA)");
}

}  // namespace w64::rt

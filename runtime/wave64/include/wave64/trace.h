// wave64 runtime: launch tracing, for `ferry diffrun --wave64 --bisect` (docs/wave64.md, "Where a
// port differs"). Off unless W64_TRACE=DIR is in the environment; then a launch costs one test of
// a flag more than without this header.
//
// With W64_TRACE=DIR, every cudaMalloc/hipMalloc buffer is registered (and zero-filled, so that
// what a kernel leaves unwritten is the same in every run), and each kernel launch appends to
// DIR/trace.txt:
//   launch INDEX NAME          NAME: the kernel as the launch spelled it
//   in ID SIZE HASH            every live buffer before the launch (ID: allocation order)
//   out ID SIZE HASH FILE      every buffer the launch changed; its contents in DIR/FILE, or "-"
//                              past the caps (W64_TRACE_MAX_BUFFER bytes a buffer, 64 MiB;
//                              W64_TRACE_BUDGET bytes in all, 256 MiB)
// Launches past W64_TRACE_LAUNCHES (4096) run untraced.
//
// Replacing launches by the original's: with W64_TRACE_REPLAY=REFDIR (a trace of the reference)
// and W64_TRACE_REPLACE=I,J... (launch indices) or "all", launch I is not run; the buffers that
// the reference's launch I changed get the reference's contents instead (the same ID and SIZE;
// a buffer that cannot be matched is named on a `replace-miss ID` line).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace w64::trace {

struct Buffer {
  std::uint64_t id;
  std::size_t size;
  std::uint64_t hash;
};

struct RefOut {
  std::uint64_t id;
  std::size_t size;
  std::string file;
};

struct State {
  bool on = false;
  std::string dir;
  std::FILE* out = nullptr;
  std::recursive_mutex mu;
  std::map<const void*, Buffer> buffers;
  std::uint64_t next_id = 0;
  std::uint64_t launches = 0;
  std::size_t max_buffer = std::size_t{64} << 20;
  std::size_t budget = std::size_t{256} << 20;
  std::uint64_t max_launches = 4096;
  bool replace_all = false;
  std::set<std::uint64_t> replace;
  std::string replay_dir;
  std::map<std::uint64_t, std::vector<RefOut>> ref_outs;  // the reference's writes, by launch
};

inline std::size_t env_size(const char* name, std::size_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const unsigned long long x = std::strtoull(v, &end, 10);
  return *end == '\0' ? static_cast<std::size_t>(x) : fallback;
}

inline void read_replay(State& s) {
  std::FILE* f = std::fopen((s.replay_dir + "/trace.txt").c_str(), "r");
  if (!f) {
    std::fprintf(stderr, "wave64 trace: cannot read %s/trace.txt\n", s.replay_dir.c_str());
    return;
  }
  char line[4096];
  std::uint64_t launch = 0;
  while (std::fgets(line, sizeof line, f)) {
    unsigned long long a = 0, b = 0, h = 0;
    char file[1024];
    if (std::sscanf(line, "launch %llu", &a) == 1) launch = a;
    else if (std::sscanf(line, "out %llu %llu %llx %1023s", &a, &b, &h, file) == 4 && std::strcmp(file, "-") != 0)
      s.ref_outs[launch].push_back({a, static_cast<std::size_t>(b), file});
  }
  std::fclose(f);
}

inline State& state() {
  static State s;
  static const bool ready = [](State& st) {
    const char* d = std::getenv("W64_TRACE");
    if (!d || !*d) return true;
    st.dir = d;
    st.out = std::fopen((st.dir + "/trace.txt").c_str(), "w");
    if (!st.out) {
      std::fprintf(stderr, "wave64 trace: cannot write %s/trace.txt\n", d);
      return true;
    }
    st.on = true;
    st.max_buffer = env_size("W64_TRACE_MAX_BUFFER", st.max_buffer);
    st.budget = env_size("W64_TRACE_BUDGET", st.budget);
    st.max_launches = env_size("W64_TRACE_LAUNCHES", st.max_launches);
    if (const char* r = std::getenv("W64_TRACE_REPLAY"); r && *r) {
      st.replay_dir = r;
      const char* which = std::getenv("W64_TRACE_REPLACE");
      std::string w = which ? which : "";
      if (w == "all") st.replace_all = true;
      for (std::size_t at = 0; !st.replace_all && at < w.size();) {
        const std::size_t comma = w.find(',', at);
        const std::string item = w.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        if (!item.empty()) st.replace.insert(std::strtoull(item.c_str(), nullptr, 10));
        at = comma == std::string::npos ? w.size() : comma + 1;
      }
      read_replay(st);
    }
    return true;
  }(s);
  (void)ready;
  return s;
}

inline bool enabled() {
  static const bool on = state().on;
  return on;
}

inline std::uint64_t hash(const void* p, std::size_t n) {
  const unsigned char* b = static_cast<const unsigned char*>(p);
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, b + i, 8);
    h = (h ^ w) * 0x100000001B3ull;
    h ^= h >> 29;
  }
  for (; i < n; ++i) h = (h ^ b[i]) * 0x100000001B3ull;
  return h;
}

inline void on_alloc(void* p, std::size_t n) {
  if (!p || !enabled()) return;
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  std::memset(p, 0, n);
  s.buffers[p] = Buffer{s.next_id++, n, hash(p, n)};
}

inline void on_free(void* p) {
  if (!p || !enabled()) return;
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  s.buffers.erase(p);
}

// Puts the reference's contents of launch `index` into the buffers of the same ID and size.
inline void replay(State& s, std::uint64_t index) {
  std::fprintf(s.out, "replaced %llu\n", static_cast<unsigned long long>(index));
  const auto it = s.ref_outs.find(index);
  if (it == s.ref_outs.end()) return;
  for (const RefOut& r : it->second) {
    bool done = false;
    for (auto& [p, b] : s.buffers) {
      if (b.id != r.id || b.size != r.size) continue;
      if (std::FILE* f = std::fopen((s.replay_dir + "/" + r.file).c_str(), "rb")) {
        done = std::fread(const_cast<void*>(p), 1, b.size, f) == b.size;
        std::fclose(f);
      }
      break;
    }
    if (!done) std::fprintf(s.out, "replace-miss %llu\n", static_cast<unsigned long long>(r.id));
  }
}

// Runs one launch (`run()` returns its error code) and records it.
template <class F>
int launch(const char* name, F&& run) {
  if (!enabled()) return run();
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  const std::uint64_t index = s.launches++;
  if (index >= s.max_launches) return run();
  std::fprintf(s.out, "launch %llu %s\n", static_cast<unsigned long long>(index), name && *name ? name : "?");
  for (auto& [p, b] : s.buffers) {
    b.hash = hash(p, b.size);
    std::fprintf(s.out, "in %llu %zu %016llx\n", static_cast<unsigned long long>(b.id), b.size,
                 static_cast<unsigned long long>(b.hash));
  }
  int rc = 0;
  if (!s.replay_dir.empty() && (s.replace_all || s.replace.count(index))) replay(s, index);
  else rc = run();
  for (auto& [p, b] : s.buffers) {
    const std::uint64_t h = hash(p, b.size);
    if (h == b.hash) continue;
    b.hash = h;
    std::string file = "-";
    if (b.size <= s.max_buffer && b.size <= s.budget) {
      file = "L" + std::to_string(index) + "-B" + std::to_string(b.id) + ".bin";
      std::FILE* f = std::fopen((s.dir + "/" + file).c_str(), "wb");
      if (f && std::fwrite(p, 1, b.size, f) == b.size) s.budget -= b.size;
      else file = "-";
      if (f) std::fclose(f);
    }
    std::fprintf(s.out, "out %llu %zu %016llx %s\n", static_cast<unsigned long long>(b.id), b.size,
                 static_cast<unsigned long long>(h), file.c_str());
  }
  std::fflush(s.out);
  return rc;
}

}  // namespace w64::trace

// Host-side state of the wave64 runtime's API: the sticky last error, per-kernel dynamic
// shared memory limits (cudaFuncSetAttribute), the event clock and error names.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <mutex>

#include "wave64/core.h"

namespace w64::api {

int& last_error() {
  static thread_local int e = 0;
  return e;
}

double now_ms() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

namespace {
// MemAvailable of /proc/meminfo, in bytes; 0 when unknown.
std::size_t host_available() {
  std::FILE* f = std::fopen("/proc/meminfo", "r");
  if (!f) return 0;
  char line[256];
  unsigned long long kb = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "MemAvailable: %llu kB", &kb) == 1) break;
  std::fclose(f);
  return static_cast<std::size_t>(kb) * 1024;
}
}  // namespace

bool host_can_back(std::size_t n, bool managed, const char* what) {
  constexpr std::size_t gib = std::size_t{1} << 30;
  constexpr std::size_t device = std::size_t{16} << 30;  // api.h's kDeviceMemory
  if (n < gib) return true;
  const double g = static_cast<double>(n) / static_cast<double>(gib);
  if (managed && n >= device) {
    std::fprintf(stderr,
                 "wave64: error: %s of %.1f GiB: as large as the modelled device's %zu GiB or larger, which "
                 "oversubscribes device memory through the GPU's page migration, a hardware feature the CPU "
                 "runtime does not model (its device memory is host memory); the allocation fails [FRY9403]\n",
                 what, g, device / gib);
    std::fflush(stderr);
    return false;
  }
  const std::size_t avail = host_available();
  if (avail && n > avail) {
    std::fprintf(stderr,
                 "wave64: error: %s of %.1f GiB: more than the %.1f GiB this host has available (the CPU "
                 "runtime's device memory is host memory); the allocation fails [FRY9403]\n",
                 what, g, static_cast<double>(avail) / static_cast<double>(gib));
    std::fflush(stderr);
    return false;
  }
  return true;
}

namespace {
std::mutex g_limits_mutex;
std::map<const void*, std::size_t>& limits() {
  static std::map<const void*, std::size_t> m;
  return m;
}
}  // namespace

void set_dynamic_shared_limit(const void* kernel, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(g_limits_mutex);
  limits()[kernel] = bytes;
}

std::size_t dynamic_shared_limit(const void* kernel, std::size_t fallback) {
  std::lock_guard<std::mutex> lock(g_limits_mutex);
  const auto it = limits().find(kernel);
  return it == limits().end() ? fallback : it->second;
}

const char* error_name(int e) {
  switch (e) {
    case 0: return "Success";
    case 1: return "ErrorInvalidValue";
    case 2: return "ErrorMemoryAllocation";
    case 3: return "ErrorInitializationError";
    case 9: return "ErrorInvalidConfiguration";
    case 13: return "ErrorInvalidSymbol";
    case 98: return "ErrorInvalidDeviceFunction";
    case 100: return "ErrorNoDevice";
    case 101: return "ErrorInvalidDevice";
    case 400: return "ErrorInvalidResourceHandle";
    case 600: return "ErrorNotReady";
    case 704: return "ErrorPeerAccessAlreadyEnabled";
    case 719: return "ErrorLaunchFailure";
    case 720: return "ErrorCooperativeLaunchTooLarge";
    case 801: return "ErrorNotSupported";
    default: return "ErrorUnknown";
  }
}

const char* error_string(int e) {
  switch (e) {
    case 0: return "no error";
    case 1: return "invalid argument";
    case 2: return "out of memory";
    case 3: return "initialization error";
    case 9: return "invalid configuration argument";
    case 13: return "invalid device symbol";
    case 98: return "invalid device function";
    case 100: return "no device";
    case 101: return "invalid device ordinal";
    case 400: return "invalid resource handle";
    case 600: return "device not ready";
    case 704: return "peer access is already enabled";
    case 719: return "unspecified launch failure";
    case 720: return "too many blocks in cooperative launch";
    case 801: return "operation not supported";
    default: return "unknown error";
  }
}

}  // namespace w64::api

// time(): with W64_TIME=<seconds since the epoch> in the environment, every call returns that
// instant, so a program that seeds its input with srand(time(NULL)) (many CUDA samples do) draws
// the same input in both runs of `ferry diffrun --wave64`, which sets it. Without W64_TIME this
// is the real clock. Programs built by `ferry wave64 build` link this definition ahead of libc's.
extern "C" time_t time(time_t* out) noexcept {
  static const long long pinned = [] {
    const char* v = std::getenv("W64_TIME");
    if (!v || !*v) return -1LL;
    char* end = nullptr;
    const long long x = std::strtoll(v, &end, 10);
    return (*end == '\0' && x >= 0) ? x : -1LL;
  }();
  time_t now;
  if (pinned >= 0) {
    now = static_cast<time_t>(pinned);
  } else {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    now = ts.tv_sec;
  }
  if (out) *out = now;
  return now;
}

// Host-side state of the wave64 runtime's API: the sticky last error, per-kernel dynamic
// shared memory limits (cudaFuncSetAttribute), the event clock and error names.
#include <chrono>
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
    case 801: return "operation not supported";
    default: return "unknown error";
  }
}

}  // namespace w64::api

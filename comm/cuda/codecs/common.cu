// The GPU codecs' scratch (Workspace), their settings (fast paths, kernel shapes) and the CUDA error
// check every file uses.
#include <stdexcept>
#include <string>

#include "common.cuh"

namespace ferry::comm::cuda {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("ferry-comm cuda: ") + what + ": " + cudaGetErrorString(e));
}

Workspace::~Workspace() {
  for (void* p : ptr_)
    if (p) cudaFree(p);
}

void* Workspace::get(Slot slot, std::size_t bytes) {
  const int i = static_cast<int>(slot);
  if (bytes > size_[i]) {
    if (ptr_[i]) check(cudaFree(ptr_[i]), "cudaFree");
    ptr_[i] = nullptr;
    check(cudaMalloc(&ptr_[i], bytes), "cudaMalloc workspace");
    size_[i] = bytes;
  }
  return ptr_[i];
}

namespace {
bool g_fast_paths = true;
Tuning g_tuning;
}  // namespace

void set_fast_paths(bool enabled) { g_fast_paths = enabled; }
void set_tuning(const Tuning& t) { g_tuning = t; }
Tuning tuning() { return g_tuning; }

namespace detail {
bool fast_paths_enabled() { return g_fast_paths; }
const Tuning& current_tuning() { return g_tuning; }
}  // namespace detail

}  // namespace ferry::comm::cuda

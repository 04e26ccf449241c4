#include "targets/cuda/compat_header.h"

#include <string>

namespace ferry::targets::cuda {

std::string_view compat_header_text() {
  static const std::string text =
      R"(// ferry/compat_cuda.h: written by Ferry's HIP -> CUDA migration (ferry migrate --to cuda).
// What HIP has and CUDA does not, in a few lines of CUDA each; migrated files include it.
// Regenerated on every migration: edit the migrated code, not this file.
#pragma once

#include <type_traits>

#include <cuda.h>  // types and macros only (CU_LAUNCH_PARAM_*); nothing here links libcuda
#include <cuda_runtime.h>

namespace ferry {
namespace cuda_compat {

#if defined(__CUDACC__)
// ---- atomicMax / atomicMin on float and double: HIP has them, CUDA only for integers.
// A compare-and-swap loop on the bits, with fmax/fmin semantics (a NaN operand is ignored).
namespace detail {
__device__ inline float atomic_fp(float* addr, float val, bool max) {
  unsigned int* bits = reinterpret_cast<unsigned int*>(addr);
  unsigned int old = *bits, assumed;
  do {
    assumed = old;
    const float cur = __uint_as_float(assumed);
    const float next = max ? fmaxf(cur, val) : fminf(cur, val);
    if (__float_as_uint(next) == assumed) break;
    old = atomicCAS(bits, assumed, __float_as_uint(next));
  } while (old != assumed);
  return __uint_as_float(old);
}
__device__ inline double atomic_fp(double* addr, double val, bool max) {
  unsigned long long* bits = reinterpret_cast<unsigned long long*>(addr);
  unsigned long long old = *bits, assumed;
  do {
    assumed = old;
    const double cur = __longlong_as_double(static_cast<long long>(assumed));
    const double next = max ? fmax(cur, val) : fmin(cur, val);
    if (static_cast<unsigned long long>(__double_as_longlong(next)) == assumed) break;
    old = atomicCAS(bits, assumed, static_cast<unsigned long long>(__double_as_longlong(next)));
  } while (old != assumed);
  return __longlong_as_double(static_cast<long long>(old));
}
}  // namespace detail

template <class T, class U>
__device__ inline T atomicMax(T* addr, U val) {
  if constexpr (std::is_floating_point<T>::value) return detail::atomic_fp(addr, static_cast<T>(val), true);
  else return ::atomicMax(addr, static_cast<T>(val));
}
template <class T, class U>
__device__ inline T atomicMin(T* addr, U val) {
  if constexpr (std::is_floating_point<T>::value) return detail::atomic_fp(addr, static_cast<T>(val), false);
  else return ::atomicMin(addr, static_cast<T>(val));
}

// ---- HIP's lane masks (64-bit there), from PTX's special registers.
#define FERRY_LANEMASK(name)                                  \
  __device__ inline unsigned long long lanemask_##name() {    \
    unsigned int m;                                           \
    asm volatile("mov.u32 %0, %%lanemask_" #name ";" : "=r"(m)); \
    return m;                                                 \
  }
FERRY_LANEMASK(lt)
FERRY_LANEMASK(le)
FERRY_LANEMASK(gt)
FERRY_LANEMASK(ge)
FERRY_LANEMASK(eq)
#undef FERRY_LANEMASK
#endif  // __CUDACC__

// ---- cudaDeviceProp fields CUDA 13 removed (clockRate, memoryClockRate, computeMode, ...):
// the same value through cudaDeviceGetAttribute, for the device the properties describe.
inline int device_of(const cudaDeviceProp& p) {
  int n = 0;
  if (cudaGetDeviceCount(&n) == cudaSuccess)
    for (int d = 0; d < n; ++d) {
      int bus = -1, dev = -1, dom = -1;
      cudaDeviceGetAttribute(&bus, cudaDevAttrPciBusId, d);
      cudaDeviceGetAttribute(&dev, cudaDevAttrPciDeviceId, d);
      cudaDeviceGetAttribute(&dom, cudaDevAttrPciDomainId, d);
      if (bus == p.pciBusID && dev == p.pciDeviceID && dom == p.pciDomainID) return d;
    }
  int current = 0;
  cudaGetDevice(&current);
  return current;
}
inline int device_attribute(const cudaDeviceProp& p, cudaDeviceAttr attr) {
  int value = 0;
  cudaDeviceGetAttribute(&value, attr, device_of(p));
  return value;
}
// HIP's gcnArchName names the ISA ("gfx90a"); the NVIDIA counterpart is the compute capability.
inline const char* arch_name(const cudaDeviceProp& p) {
  thread_local char name[16];
  int k = 0;
  for (const char* s = "sm_"; *s; ++s) name[k++] = *s;
  const int cc = p.major * 10 + p.minor;
  if (cc >= 100) name[k++] = static_cast<char>('0' + cc / 100);
  name[k++] = static_cast<char>('0' + (cc / 10) % 10);
  name[k++] = static_cast<char>('0' + cc % 10);
  name[k] = '\0';
  return name;
}

// ---- HIP's device id for memory advice and prefetch -> CUDA 13's cudaMemLocation.
inline cudaMemLocation mem_location(int device) {
  cudaMemLocation l{};
  l.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  l.id = device == cudaCpuDeviceId ? 0 : device;
  return l;
}

// ---- hipModuleLaunchKernel on a kernel from cudaLibraryGetKernel. Arguments as an array go
// through the runtime; a packed buffer (HIP_LAUNCH_PARAM_BUFFER_POINTER, the `extra` argument)
// only through the driver's cuLaunchKernel, found at run time (no link against libcuda).
inline cudaError_t module_launch_kernel(cudaKernel_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                        unsigned by, unsigned bz, unsigned shared, cudaStream_t stream,
                                        void** params, void** extra) {
  if (extra == nullptr)
    return cudaLaunchKernel(reinterpret_cast<const void*>(f), dim3(gx, gy, gz), dim3(bx, by, bz), params, shared,
                            stream);
  using launch_t = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                CUstream, void**, void**);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion("cuLaunchKernel", &fn, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      fn == nullptr)
    return cudaErrorNotSupported;
  const CUresult r = reinterpret_cast<launch_t>(fn)(reinterpret_cast<CUfunction>(f), gx, gy, gz, bx, by, bz, shared,
                                                    reinterpret_cast<CUstream>(stream), params, extra);
  return static_cast<cudaError_t>(r);  // the driver's and the runtime's codes share their values
}

}  // namespace cuda_compat
}  // namespace ferry
)";
  return text;
}

void use_compat_header_if_referenced(migrate::FileMigration& file) {
  for (const rewrite::Edit& e : file.edits().edits())
    if (e.replacement.find("ferry::cuda_compat::") != std::string::npos) {
      use_compat_header(file);
      return;
    }
}

void use_compat_header(migrate::FileMigration& file) {
  for (const migrate::SideOutput& s : file.side_outputs())
    if (s.name == kCompatHeaderName) return;
  file.add_side_output(std::string(kCompatHeaderName), std::string(compat_header_text()));
  // Already included (a migrated file migrated again): the header is still written beside it.
  const std::string inc = "\"" + std::string(kCompatHeaderName) + "\"";
  for (std::size_t ci = 0; ci < file.code_size(); ++ci)
    if (file.code(ci).kind == lex::Kind::HeaderName && file.text(ci) == inc) return;
  file.insert_line_at_top("#include " + inc + "\n");
}

}  // namespace ferry::targets::cuda

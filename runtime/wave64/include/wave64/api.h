// wave64 runtime: the host API (memory, devices, streams, events, errors, launches) under its
// HIP or its CUDA names. Included once per translation unit by hip/hip_runtime.h (W64_API_HIP) or
// cuda_runtime.h (W64_API_CUDA); W64_N(cuda_name, hip_name) picks the spelling of the API.
//
// Device memory is host memory; every copy is a memcpy; streams run their work at once (in
// issue order, so every stream is in order and synchronising is a no-op); events read a steady
// clock. The device model is a gfx906 (HIP) or an sm_90 (CUDA) as far as properties and limits go.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <vector>

#include "wave64/device.h"
#include "wave64/texture.h"

#if defined(W64_API_HIP) == defined(W64_API_CUDA)
#error "wave64 runtime: include either hip/hip_runtime.h or cuda_runtime.h, not both"
#endif
#if defined(W64_API_HIP)
#define W64_N(cuda_name, hip_name) hip_name
#else
#define W64_N(cuda_name, hip_name) cuda_name
#endif

namespace w64::api {
struct Stream;
// A graph is the work a captured stream would have run, in issue order (kernels, copies, sets,
// host functions); launching it runs that work again. Every stream runs its work at once, so
// issue order is a valid order of any graph's dependencies.
struct Graph {
  std::vector<std::function<int()>> nodes;
  std::vector<Stream*> joined;  // streams that joined the capture through an event
};
struct GraphNode {};
struct Stream {
  unsigned flags;
  int priority;
  Graph* capture = nullptr;  // between BeginCapture and EndCapture
};
struct Event {
  unsigned flags;
  bool recorded;
  double ms;                 // steady clock at the last record
  Graph* capture = nullptr;  // recorded on a capturing stream
};
inline bool is_object(const Stream* s) { return reinterpret_cast<std::uintptr_t>(s) > 0x10; }
// The graph `s` is capturing into, or null: work issued there is recorded instead of run.
inline Graph* capture_of(Stream* s) { return is_object(s) ? s->capture : nullptr; }
// Runs `work` now, or records it when `s` is capturing.
template <class F>
int run_or_capture(Stream* s, F work) {
  if (Graph* g = capture_of(s)) {
    g->nodes.emplace_back(std::move(work));
    return 0;
  }
  return work();
}
int& last_error();  // sticky until read by GetLastError, per host thread
double now_ms();
void set_dynamic_shared_limit(const void* kernel, std::size_t bytes);
std::size_t dynamic_shared_limit(const void* kernel, std::size_t fallback);
const char* error_name(int e);
const char* error_string(int e);
inline int record(int e) {
  if (e) last_error() = e;
  return e;
}
}  // namespace w64::api

// ---- types and enumerations ------------------------------------------------------------------
typedef ::w64::api::Stream* W64_N(cudaStream_t, hipStream_t);
typedef ::w64::api::Event* W64_N(cudaEvent_t, hipEvent_t);
using W64_STREAM = W64_N(cudaStream_t, hipStream_t);
using W64_EVENT = W64_N(cudaEvent_t, hipEvent_t);

enum W64_N(cudaError, hipError_t) {
  W64_N(cudaSuccess, hipSuccess) = 0,
  W64_N(cudaErrorInvalidValue, hipErrorInvalidValue) = 1,
  W64_N(cudaErrorMemoryAllocation, hipErrorOutOfMemory) = 2,
  W64_N(cudaErrorInitializationError, hipErrorNotInitialized) = 3,
  W64_N(cudaErrorInvalidConfiguration, hipErrorInvalidConfiguration) = 9,
  W64_N(cudaErrorInvalidSymbol, hipErrorInvalidSymbol) = 13,
  W64_N(cudaErrorInvalidDeviceFunction, hipErrorInvalidDeviceFunction) = 98,
  W64_N(cudaErrorNoDevice, hipErrorNoDevice) = 100,
  W64_N(cudaErrorInvalidDevice, hipErrorInvalidDevice) = 101,
  W64_N(cudaErrorInvalidResourceHandle, hipErrorInvalidHandle) = 400,
  W64_N(cudaErrorNotReady, hipErrorNotReady) = 600,
  W64_N(cudaErrorPeerAccessAlreadyEnabled, hipErrorPeerAccessAlreadyEnabled) = 704,
  W64_N(cudaErrorLaunchFailure, hipErrorLaunchFailure) = 719,
  W64_N(cudaErrorCooperativeLaunchTooLarge, hipErrorCooperativeLaunchTooLarge) = 720,
  W64_N(cudaErrorNotSupported, hipErrorNotSupported) = 801,
  W64_N(cudaErrorUnknown, hipErrorUnknown) = 999,
};
#if defined(W64_API_CUDA)
typedef cudaError cudaError_t;
#endif
using W64_ERR = W64_N(cudaError_t, hipError_t);

enum W64_N(cudaMemcpyKind, hipMemcpyKind) {
  W64_N(cudaMemcpyHostToHost, hipMemcpyHostToHost) = 0,
  W64_N(cudaMemcpyHostToDevice, hipMemcpyHostToDevice) = 1,
  W64_N(cudaMemcpyDeviceToHost, hipMemcpyDeviceToHost) = 2,
  W64_N(cudaMemcpyDeviceToDevice, hipMemcpyDeviceToDevice) = 3,
  W64_N(cudaMemcpyDefault, hipMemcpyDefault) = 4,
};
using W64_KIND = W64_N(cudaMemcpyKind, hipMemcpyKind);

enum W64_N(cudaDeviceAttr, hipDeviceAttribute_t) {
  W64_N(cudaDevAttrMaxThreadsPerBlock, hipDeviceAttributeMaxThreadsPerBlock) = 1,
  W64_N(cudaDevAttrMaxBlockDimX, hipDeviceAttributeMaxBlockDimX),
  W64_N(cudaDevAttrMaxBlockDimY, hipDeviceAttributeMaxBlockDimY),
  W64_N(cudaDevAttrMaxBlockDimZ, hipDeviceAttributeMaxBlockDimZ),
  W64_N(cudaDevAttrMaxGridDimX, hipDeviceAttributeMaxGridDimX),
  W64_N(cudaDevAttrMaxGridDimY, hipDeviceAttributeMaxGridDimY),
  W64_N(cudaDevAttrMaxGridDimZ, hipDeviceAttributeMaxGridDimZ),
  W64_N(cudaDevAttrMaxSharedMemoryPerBlock, hipDeviceAttributeMaxSharedMemoryPerBlock),
  W64_N(cudaDevAttrTotalConstantMemory, hipDeviceAttributeTotalConstantMemory),
  W64_N(cudaDevAttrWarpSize, hipDeviceAttributeWarpSize),
  W64_N(cudaDevAttrMaxRegistersPerBlock, hipDeviceAttributeMaxRegistersPerBlock),
  W64_N(cudaDevAttrClockRate, hipDeviceAttributeClockRate),
  W64_N(cudaDevAttrMultiProcessorCount, hipDeviceAttributeMultiprocessorCount),
  W64_N(cudaDevAttrConcurrentKernels, hipDeviceAttributeConcurrentKernels),
  W64_N(cudaDevAttrPciBusId, hipDeviceAttributePciBusId),
  W64_N(cudaDevAttrPciDeviceId, hipDeviceAttributePciDeviceId),
  W64_N(cudaDevAttrPciDomainId, hipDeviceAttributePciDomainID),
  W64_N(cudaDevAttrMemoryClockRate, hipDeviceAttributeMemoryClockRate),
  W64_N(cudaDevAttrGlobalMemoryBusWidth, hipDeviceAttributeMemoryBusWidth),
  W64_N(cudaDevAttrL2CacheSize, hipDeviceAttributeL2CacheSize),
  W64_N(cudaDevAttrMaxThreadsPerMultiProcessor, hipDeviceAttributeMaxThreadsPerMultiProcessor),
  W64_N(cudaDevAttrUnifiedAddressing, hipDeviceAttributeUnifiedAddressing),
  W64_N(cudaDevAttrComputeCapabilityMajor, hipDeviceAttributeComputeCapabilityMajor),
  W64_N(cudaDevAttrComputeCapabilityMinor, hipDeviceAttributeComputeCapabilityMinor),
  W64_N(cudaDevAttrMaxSharedMemoryPerMultiprocessor, hipDeviceAttributeMaxSharedMemoryPerMultiprocessor),
  W64_N(cudaDevAttrMaxRegistersPerMultiprocessor, hipDeviceAttributeMaxRegistersPerMultiprocessor),
  W64_N(cudaDevAttrManagedMemory, hipDeviceAttributeManagedMemory),
  W64_N(cudaDevAttrCooperativeLaunch, hipDeviceAttributeCooperativeLaunch),
  W64_N(cudaDevAttrMaxSharedMemoryPerBlockOptin, hipDeviceAttributeSharedMemPerBlockOptin),
  W64_N(cudaDevAttrMaxBlocksPerMultiprocessor, hipDeviceAttributeMaxBlocksPerMultiProcessor),
  W64_N(cudaDevAttrComputeMode, hipDeviceAttributeComputeMode),
  W64_N(cudaDevAttrIntegrated, hipDeviceAttributeIntegrated),
  // HIP's "Cuda only" attribute (HIP 5.2 declares it; cudaDeviceProp::sharedMemPerMultiprocessor
  // through an attribute); CUDA itself has only the Max... attribute above.
  W64_N(w64_cudaDevAttrSharedMemPerMultiprocessor, hipDeviceAttributeSharedMemPerMultiprocessor),
};
using W64_ATTR = W64_N(cudaDeviceAttr, hipDeviceAttribute_t);

enum W64_N(cudaComputeMode, hipComputeMode) {
  W64_N(cudaComputeModeDefault, hipComputeModeDefault) = 0,
  W64_N(cudaComputeModeExclusive, hipComputeModeExclusive) = 1,
  W64_N(cudaComputeModeProhibited, hipComputeModeProhibited) = 2,
  W64_N(cudaComputeModeExclusiveProcess, hipComputeModeExclusiveProcess) = 3,
};

enum W64_N(cudaFuncAttribute, hipFuncAttribute) {
  W64_N(cudaFuncAttributeMaxDynamicSharedMemorySize, hipFuncAttributeMaxDynamicSharedMemorySize) = 8,
  W64_N(cudaFuncAttributePreferredSharedMemoryCarveout, hipFuncAttributePreferredSharedMemoryCarveout) = 9,
};
enum W64_N(cudaFuncCache, hipFuncCache_t) {
  W64_N(cudaFuncCachePreferNone, hipFuncCachePreferNone) = 0,
  W64_N(cudaFuncCachePreferShared, hipFuncCachePreferShared) = 1,
  W64_N(cudaFuncCachePreferL1, hipFuncCachePreferL1) = 2,
  W64_N(cudaFuncCachePreferEqual, hipFuncCachePreferEqual) = 3,
};
enum W64_N(cudaSharedMemConfig, hipSharedMemConfig) {
  W64_N(cudaSharedMemBankSizeDefault, hipSharedMemBankSizeDefault) = 0,
  W64_N(cudaSharedMemBankSizeFourByte, hipSharedMemBankSizeFourByte) = 1,
  W64_N(cudaSharedMemBankSizeEightByte, hipSharedMemBankSizeEightByte) = 2,
};
enum W64_N(cudaLimit, hipLimit_t) {
  W64_N(cudaLimitStackSize, hipLimitStackSize) = 0,
  W64_N(cudaLimitPrintfFifoSize, hipLimitPrintfFifoSize) = 1,
  W64_N(cudaLimitMallocHeapSize, hipLimitMallocHeapSize) = 2,
};

#define W64_FLAG(cuda_name, hip_name, value) constexpr unsigned int W64_N(cuda_name, hip_name) = value;
W64_FLAG(cudaStreamNonBlocking, hipStreamNonBlocking, 1)
W64_FLAG(cudaEventDefault, hipEventDefault, 0)
W64_FLAG(cudaEventBlockingSync, hipEventBlockingSync, 1)
W64_FLAG(cudaEventDisableTiming, hipEventDisableTiming, 2)
W64_FLAG(cudaEventInterprocess, hipEventInterprocess, 4)
W64_FLAG(cudaHostAllocDefault, hipHostMallocDefault, 0)
W64_FLAG(cudaHostAllocPortable, hipHostMallocPortable, 1)
W64_FLAG(cudaHostAllocMapped, hipHostMallocMapped, 2)
W64_FLAG(cudaHostAllocWriteCombined, hipHostMallocWriteCombined, 4)
W64_FLAG(cudaHostRegisterDefault, hipHostRegisterDefault, 0)
W64_FLAG(cudaHostRegisterMapped, hipHostRegisterMapped, 2)
W64_FLAG(cudaMemAttachGlobal, hipMemAttachGlobal, 1)
W64_FLAG(cudaMemAttachHost, hipMemAttachHost, 2)
W64_FLAG(cudaDeviceScheduleAuto, hipDeviceScheduleAuto, 0)
W64_FLAG(cudaDeviceScheduleSpin, hipDeviceScheduleSpin, 1)
W64_FLAG(cudaDeviceScheduleYield, hipDeviceScheduleYield, 2)
W64_FLAG(cudaDeviceScheduleBlockingSync, hipDeviceScheduleBlockingSync, 4)
W64_FLAG(cudaDeviceMapHost, hipDeviceMapHost, 8)
#undef W64_FLAG
// A macro, as in CUDA's and HIP's headers: code passes the flag 0 as a stream (the null stream),
// which only a literal 0 can be (rocm-examples: `k<<<g, b, 0, hipStreamDefault>>>`).
#if defined(W64_API_HIP)
#define hipStreamDefault 0x00
#else
#define cudaStreamDefault 0x00
#endif
#define W64_N_STREAM_PER_THREAD reinterpret_cast<W64_STREAM>(0x2)
#if defined(W64_API_HIP)
#define hipStreamPerThread W64_N_STREAM_PER_THREAD
#else
#define cudaStreamPerThread W64_N_STREAM_PER_THREAD
#define cudaStreamLegacy reinterpret_cast<cudaStream_t>(0x1)
#endif

struct W64_N(cudaDeviceProp, hipDeviceProp_t) {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int concurrentManagedAccess;
  int pageableMemoryAccess;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  int clusterLaunch;
  // Unified memory (host memory on this runtime: the host's page tables, as on a Power9 or Grace).
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int hostNativeAtomicSupported;
  int canUseHostPointerForRegisteredMem;
  int accessPolicyMaxWindowSize;
  int reservedSharedMemPerBlock;
  int maxTexture1D;
  int maxTexture2D[2];
  int maxTexture3D[3];
  int maxSurface2D[2];
  // HIP's own fields.
  char gcnArchName[256];
  int gcnArch;
  size_t maxSharedMemoryPerMultiProcessor;
  int clockInstructionRate;
  int isLargeBar;
};
using W64_PROP = W64_N(cudaDeviceProp, hipDeviceProp_t);

struct W64_N(cudaFuncAttributes, hipFuncAttributes) {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
};

// ---- the device model -------------------------------------------------------------------------
namespace w64::api {
#if defined(W64_API_HIP)
constexpr std::size_t kSharedPerBlock = 64 * 1024;  // gfx9 LDS per workgroup
constexpr std::size_t kSharedOptin = 64 * 1024;
constexpr int kMultiProcessors = 60;
#else
constexpr std::size_t kSharedPerBlock = 48 * 1024;  // without the opt-in
constexpr std::size_t kSharedOptin = 227 * 1024;    // sm_90
constexpr int kMultiProcessors = 132;
#endif

inline void fill_properties(W64_PROP& p) {
  std::memset(&p, 0, sizeof p);
  p.cooperativeLaunch = 1;  // every block of a cooperative launch runs at once (grid_group::sync)
  p.pageableMemoryAccessUsesHostPageTables = 1;
  p.directManagedMemAccessFromHost = 1;
  p.hostNativeAtomicSupported = 1;
  p.canUseHostPointerForRegisteredMem = 1;
  p.maxTexture1D = 1 << 27;
  p.maxTexture2D[0] = p.maxTexture2D[1] = 1 << 16;
  p.maxTexture3D[0] = p.maxTexture3D[1] = p.maxTexture3D[2] = 1 << 14;
  p.maxSurface2D[0] = p.maxSurface2D[1] = 1 << 16;
#if defined(W64_API_HIP)
  std::snprintf(p.name, sizeof p.name, "wave64 CPU runtime (gfx906 model, wavefront %d)", W64_WAVE_SIZE);
  std::snprintf(p.gcnArchName, sizeof p.gcnArchName, "gfx906");
  p.gcnArch = 906;
  p.major = 9;
  p.minor = 0;
  p.maxThreadsPerMultiProcessor = 2560;
  p.l2CacheSize = 4 * 1024 * 1024;
  p.clockRate = 1725000;
#else
  std::snprintf(p.name, sizeof p.name, "wave64 CPU runtime (sm_90 model, warp %d)", W64_WAVE_SIZE);
  p.major = 9;
  p.minor = 0;
  p.maxThreadsPerMultiProcessor = 2048;
  p.l2CacheSize = 50 * 1024 * 1024;
  p.clockRate = 1980000;
#endif
  p.totalGlobalMem = std::size_t{16} << 30;
  p.sharedMemPerBlock = kSharedPerBlock;
  p.sharedMemPerBlockOptin = kSharedOptin;
  p.sharedMemPerMultiprocessor = kSharedOptin;
  p.maxSharedMemoryPerMultiProcessor = kSharedOptin;
  p.regsPerBlock = 65536;
  p.regsPerMultiprocessor = 65536;
  p.warpSize = W64_WAVE_SIZE;
  p.memPitch = std::size_t{1} << 31;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsDim[0] = 1024;
  p.maxThreadsDim[1] = 1024;
  p.maxThreadsDim[2] = 64;
  p.maxGridSize[0] = 0x7fffffff;
  p.maxGridSize[1] = 65535;
  p.maxGridSize[2] = 65535;
  p.totalConstMem = 64 * 1024;
  p.textureAlignment = 512;
  p.deviceOverlap = 1;
  p.multiProcessorCount = kMultiProcessors;
  p.canMapHostMemory = 1;
  p.concurrentKernels = 1;
  p.asyncEngineCount = 1;
  p.unifiedAddressing = 1;
  p.memoryClockRate = 1000000;
  p.memoryBusWidth = 4096;
  p.managedMemory = 1;
  p.concurrentManagedAccess = 1;
  p.pageableMemoryAccess = 1;
  p.maxBlocksPerMultiProcessor = 32;
  p.clockInstructionRate = p.clockRate;
}

inline int attribute(int a) {
  W64_PROP p;
  fill_properties(p);
  switch (static_cast<W64_ATTR>(a)) {
    case W64_N(cudaDevAttrMaxThreadsPerBlock, hipDeviceAttributeMaxThreadsPerBlock): return p.maxThreadsPerBlock;
    case W64_N(cudaDevAttrMaxBlockDimX, hipDeviceAttributeMaxBlockDimX): return p.maxThreadsDim[0];
    case W64_N(cudaDevAttrMaxBlockDimY, hipDeviceAttributeMaxBlockDimY): return p.maxThreadsDim[1];
    case W64_N(cudaDevAttrMaxBlockDimZ, hipDeviceAttributeMaxBlockDimZ): return p.maxThreadsDim[2];
    case W64_N(cudaDevAttrMaxGridDimX, hipDeviceAttributeMaxGridDimX): return p.maxGridSize[0];
    case W64_N(cudaDevAttrMaxGridDimY, hipDeviceAttributeMaxGridDimY): return p.maxGridSize[1];
    case W64_N(cudaDevAttrMaxGridDimZ, hipDeviceAttributeMaxGridDimZ): return p.maxGridSize[2];
    case W64_N(cudaDevAttrMaxSharedMemoryPerBlock, hipDeviceAttributeMaxSharedMemoryPerBlock):
      return static_cast<int>(p.sharedMemPerBlock);
    case W64_N(cudaDevAttrTotalConstantMemory, hipDeviceAttributeTotalConstantMemory):
      return static_cast<int>(p.totalConstMem);
    case W64_N(cudaDevAttrWarpSize, hipDeviceAttributeWarpSize): return p.warpSize;
    case W64_N(cudaDevAttrMaxRegistersPerBlock, hipDeviceAttributeMaxRegistersPerBlock): return p.regsPerBlock;
    case W64_N(cudaDevAttrClockRate, hipDeviceAttributeClockRate): return p.clockRate;
    case W64_N(cudaDevAttrMultiProcessorCount, hipDeviceAttributeMultiprocessorCount): return p.multiProcessorCount;
    case W64_N(cudaDevAttrConcurrentKernels, hipDeviceAttributeConcurrentKernels): return 1;
    case W64_N(cudaDevAttrPciBusId, hipDeviceAttributePciBusId): return 0;
    case W64_N(cudaDevAttrPciDeviceId, hipDeviceAttributePciDeviceId): return 0;
    case W64_N(cudaDevAttrPciDomainId, hipDeviceAttributePciDomainID): return 0;
    case W64_N(cudaDevAttrMemoryClockRate, hipDeviceAttributeMemoryClockRate): return p.memoryClockRate;
    case W64_N(cudaDevAttrGlobalMemoryBusWidth, hipDeviceAttributeMemoryBusWidth): return p.memoryBusWidth;
    case W64_N(cudaDevAttrL2CacheSize, hipDeviceAttributeL2CacheSize): return p.l2CacheSize;
    case W64_N(cudaDevAttrMaxThreadsPerMultiProcessor, hipDeviceAttributeMaxThreadsPerMultiProcessor):
      return p.maxThreadsPerMultiProcessor;
    case W64_N(cudaDevAttrUnifiedAddressing, hipDeviceAttributeUnifiedAddressing): return 1;
    case W64_N(cudaDevAttrComputeCapabilityMajor, hipDeviceAttributeComputeCapabilityMajor): return p.major;
    case W64_N(cudaDevAttrComputeCapabilityMinor, hipDeviceAttributeComputeCapabilityMinor): return p.minor;
    case W64_N(cudaDevAttrMaxSharedMemoryPerMultiprocessor, hipDeviceAttributeMaxSharedMemoryPerMultiprocessor):
    case W64_N(w64_cudaDevAttrSharedMemPerMultiprocessor, hipDeviceAttributeSharedMemPerMultiprocessor):
      return static_cast<int>(p.sharedMemPerMultiprocessor);
    case W64_N(cudaDevAttrMaxRegistersPerMultiprocessor, hipDeviceAttributeMaxRegistersPerMultiprocessor):
      return p.regsPerMultiprocessor;
    case W64_N(cudaDevAttrManagedMemory, hipDeviceAttributeManagedMemory): return 1;
    case W64_N(cudaDevAttrCooperativeLaunch, hipDeviceAttributeCooperativeLaunch): return 1;
    case W64_N(cudaDevAttrComputeMode, hipDeviceAttributeComputeMode): return p.computeMode;
    case W64_N(cudaDevAttrIntegrated, hipDeviceAttributeIntegrated): return p.integrated;
    case W64_N(cudaDevAttrMaxSharedMemoryPerBlockOptin, hipDeviceAttributeSharedMemPerBlockOptin):
      return static_cast<int>(p.sharedMemPerBlockOptin);
    case W64_N(cudaDevAttrMaxBlocksPerMultiprocessor, hipDeviceAttributeMaxBlocksPerMultiProcessor):
      return p.maxBlocksPerMultiProcessor;
  }
  return -1;
}

inline W64_ERR err(int e) { return static_cast<W64_ERR>(record(e)); }
inline void* device_alloc(std::size_t n) { return std::aligned_alloc(256, (n + 255) / 256 * 256 + (n == 0 ? 256 : 0)); }

// A launch in <<<>>> (rewritten by the driver) or hipLaunchKernelGGL form.
class Launcher {
 public:
  Launcher(dim3 grid, dim3 block, std::size_t shared = 0, W64_STREAM stream = nullptr)
      : grid_(grid), block_(block), shared_(shared), stream_(stream) {}
  // `call` runs one lane: a lambda that calls the kernel by name with the stored arguments.
  template <class... P, class Call, class... A>
  W64_ERR launch_call(void (*kernel)(P...), Call call, A&&... args) const {
    static_assert(sizeof...(A) <= sizeof...(P),
                  "wave64 runtime: the kernel is launched with more arguments than it has parameters");
    using Args = ArgsPrefix<sizeof...(A), std::decay_t<P>...>;
    if (capture_of(stream_)) {
      // Captured: the graph keeps the converted arguments and launches them at each replay.
      auto c = std::make_shared<KernelCall<Call, Args>>(KernelCall<Call, Args>{call, Args(std::forward<A>(args)...)});
      rt::Launch l{grid_,         block_,
                   shared_,       dynamic_shared_limit(reinterpret_cast<const void*>(kernel), kSharedPerBlock),
                   W64_WAVE_SIZE, &KernelCall<Call, Args>::invoke,
                   c.get()};
      cooperate(l);
      return err(run_or_capture(stream_, [c, l] { return rt::launch(l); }));
    }
    KernelCall<Call, Args> c{call, Args(std::forward<A>(args)...)};
    rt::Launch l{grid_,
                 block_,
                 shared_,
                 dynamic_shared_limit(reinterpret_cast<const void*>(kernel), kSharedPerBlock),
                 W64_WAVE_SIZE,
                 &KernelCall<Call, Args>::invoke,
                 &c};
    cooperate(l);
    return err(rt::launch(l));
  }
  // A kernel named without a single function type: a function template whose arguments the launch
  // deduces (`k<<<g, b>>>(out, in, n)` for `template <class T> __global__ void k(T*, const T*, int)`,
  // or `k<256>` with T still deduced) or an overloaded kernel. As in CUDA, the arguments are kept
  // as their decayed types and each lane's call deduces (or resolves) the kernel from them.
  template <class Call, class... A>
  W64_ERR launch_call(std::nullptr_t, Call call, A&&... args) const {
    using Args = std::tuple<std::decay_t<A>...>;
    if (capture_of(stream_)) {
      auto c = std::make_shared<KernelCall<Call, Args>>(KernelCall<Call, Args>{call, Args(std::forward<A>(args)...)});
      rt::Launch l{grid_,         block_,
                   shared_,       dynamic_shared_limit(nullptr, kSharedPerBlock),
                   W64_WAVE_SIZE, &KernelCall<Call, Args>::invoke,
                   c.get()};
      cooperate(l);
      return err(run_or_capture(stream_, [c, l] { return rt::launch(l); }));
    }
    KernelCall<Call, Args> c{call, Args(std::forward<A>(args)...)};
    rt::Launch l{grid_,
                 block_,
                 shared_,
                 dynamic_shared_limit(nullptr, kSharedPerBlock),
                 W64_WAVE_SIZE,
                 &KernelCall<Call, Args>::invoke,
                 &c};
    cooperate(l);
    return err(rt::launch(l));
  }
  // cudaLaunchCooperativeKernel: the grid's blocks all resident at once (grid_group::sync).
  Launcher& cooperative() {
    cooperative_ = true;
    return *this;
  }
  // Every parameter given (cudaLaunchKernel's argument array).
  template <class... P, class... A>
  W64_ERR launch(void (*kernel)(P...), A&&... args) const {
    static_assert(sizeof...(P) == sizeof...(A),
                  "wave64 runtime: the kernel is launched with a different number of arguments than it "
                  "has parameters");
    return launch_call(
        kernel, [kernel](auto&... a) { kernel(a...); }, std::forward<A>(args)...);
  }

 private:
  void cooperate(rt::Launch& l) const {
    if (!cooperative_) return;
    l.cooperative = true;
    // As many blocks as the device model holds at once: cudaOccupancyMaxActiveBlocksPerMultiprocessor
    // (below) times the multiprocessors.
    const unsigned threads = block_.x * block_.y * block_.z;
    const unsigned per_mp = threads ? std::max(1u, std::min(32u, 2048u / threads)) : 0u;
    l.max_blocks = static_cast<std::uint64_t>(kMultiProcessors) * per_mp;
  }
  dim3 grid_;
  dim3 block_;
  std::size_t shared_;
  W64_STREAM stream_;
  bool cooperative_ = false;
};
}  // namespace w64::api

namespace w64::api {
// The kernel as a function pointer when its name denotes one function (or one explicit
// specialization), else nullptr: a function template whose arguments are deduced at the launch,
// or an overload set. The test is SFINAE on a call that depends on a generic lambda's parameter,
// so an unresolvable name is no error (C++17; g++ and clang).
template <class... P>
constexpr auto kernel_pointer(int, void (*k)(P...)) {
  return k;
}
template <class... F>
struct KernelPointerOr : F... {
  using F::operator()...;
};
template <class... F>
KernelPointerOr(F...) -> KernelPointerOr<F...>;
}  // namespace w64::api
// Variadic: the kernel argument arrives macro-expanded, `HIP_KERNEL_NAME(k<int, 3>)` as `k<int, 3>`.
// `[&]`: template arguments may name the enclosing function's locals (rocm-examples'
// `kernel<BlockSize, WarpSize, items_per_thread>` inside a generic lambda).
#define W64_KERNEL_POINTER(...)                                                                              \
  (::w64::api::KernelPointerOr{[&](auto w64_t) -> decltype(::w64::api::kernel_pointer(w64_t, __VA_ARGS__)) { \
                                 return ::w64::api::kernel_pointer(w64_t, __VA_ARGS__);                      \
                               },                                                                            \
                               [](long) { return nullptr; }}(0))
#define hipLaunchKernelGGL(kernel, grid, block, shared, stream, ...) \
  ::w64::api::Launcher((grid), (block), (shared), (stream))          \
      .launch_call(                                                  \
          W64_KERNEL_POINTER(kernel), [&](auto&... w64_a) { kernel(w64_a...); }, ##__VA_ARGS__)
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(x) x

// ---- memory -----------------------------------------------------------------------------------
inline W64_ERR W64_N(cudaMalloc, hipMalloc)(void** p, size_t n) {
  if (!p) return ::w64::api::err(1);
  *p = ::w64::api::device_alloc(n);
  return ::w64::api::err(*p ? 0 : 2);
}
template <class T>
inline W64_ERR W64_N(cudaMalloc, hipMalloc)(T** p, size_t n) {
  return W64_N(cudaMalloc, hipMalloc)(static_cast<void**>(static_cast<void*>(p)), n);
}
inline W64_ERR W64_N(cudaMallocManaged, hipMallocManaged)(void** p, size_t n, unsigned int = 1) {
  return W64_N(cudaMalloc, hipMalloc)(p, n);
}
template <class T>
inline W64_ERR W64_N(cudaMallocManaged, hipMallocManaged)(T** p, size_t n, unsigned int f = 1) {
  return W64_N(cudaMallocManaged, hipMallocManaged)(static_cast<void**>(static_cast<void*>(p)), n, f);
}
inline W64_ERR W64_N(cudaMallocHost, hipHostMalloc)(void** p, size_t n, unsigned int = 0) {
  return W64_N(cudaMalloc, hipMalloc)(p, n);
}
template <class T>
inline W64_ERR W64_N(cudaMallocHost, hipHostMalloc)(T** p, size_t n, unsigned int f = 0) {
  return W64_N(cudaMallocHost, hipHostMalloc)(static_cast<void**>(static_cast<void*>(p)), n, f);
}
inline W64_ERR W64_N(cudaHostAlloc, hipHostAlloc)(void** p, size_t n, unsigned int = 0) {
  return W64_N(cudaMalloc, hipMalloc)(p, n);
}
template <class T>
inline W64_ERR W64_N(cudaHostAlloc, hipHostAlloc)(T** p, size_t n, unsigned int f = 0) {
  return W64_N(cudaHostAlloc, hipHostAlloc)(static_cast<void**>(static_cast<void*>(p)), n, f);
}
#if defined(W64_API_HIP)
inline hipError_t hipMallocHost(void** p, size_t n) { return hipMalloc(p, n); }
template <class T>
inline hipError_t hipMallocHost(T** p, size_t n) {
  return hipMalloc(p, n);
}
#endif
inline W64_ERR W64_N(cudaMallocPitch, hipMallocPitch)(void** p, size_t* pitch, size_t width, size_t height) {
  if (!pitch) return ::w64::api::err(1);
  *pitch = (width + 255) / 256 * 256;
  return W64_N(cudaMalloc, hipMalloc)(p, *pitch * height);
}
template <class T>
inline W64_ERR W64_N(cudaMallocPitch, hipMallocPitch)(T** p, size_t* pitch, size_t width, size_t height) {
  return W64_N(cudaMallocPitch, hipMallocPitch)(static_cast<void**>(static_cast<void*>(p)), pitch, width, height);
}
inline W64_ERR W64_N(cudaFree, hipFree)(void* p) {
  std::free(p);
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaFreeHost, hipHostFree)(void* p) { return W64_N(cudaFree, hipFree)(p); }
#if defined(W64_API_HIP)
inline hipError_t hipFreeHost(void* p) { return hipFree(p); }
#endif
inline W64_ERR W64_N(cudaHostRegister, hipHostRegister)(void*, size_t, unsigned int) {
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaHostUnregister, hipHostUnregister)(void*) { return W64_N(cudaSuccess, hipSuccess); }
inline W64_ERR W64_N(cudaHostGetDevicePointer, hipHostGetDevicePointer)(void** d, void* h, unsigned int) {
  *d = h;
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaMemcpy, hipMemcpy)(void* dst, const void* src, size_t n, W64_KIND) {
  if (n && (!dst || !src)) return ::w64::api::err(1);
  if (n) std::memmove(dst, src, n);
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaMemcpyAsync, hipMemcpyAsync)(void* dst, const void* src, size_t n, W64_KIND k,
                                                      W64_STREAM s = nullptr) {
  return ::w64::api::err(
      ::w64::api::run_or_capture(s, [=] { return static_cast<int>(W64_N(cudaMemcpy, hipMemcpy)(dst, src, n, k)); }));
}
inline W64_ERR W64_N(cudaMemcpyPeer, hipMemcpyPeer)(void* dst, int, const void* src, int, size_t n) {
  return W64_N(cudaMemcpy, hipMemcpy)(dst, src, n, W64_N(cudaMemcpyDefault, hipMemcpyDefault));
}
inline W64_ERR W64_N(cudaMemcpy2D, hipMemcpy2D)(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                                size_t height, W64_KIND) {
  if (width > dpitch || width > spitch) return ::w64::api::err(1);
  for (size_t r = 0; r < height; ++r)
    std::memmove(static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch, width);
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaMemcpy2DAsync, hipMemcpy2DAsync)(void* dst, size_t dpitch, const void* src, size_t spitch,
                                                          size_t width, size_t height, W64_KIND k,
                                                          W64_STREAM s = nullptr) {
  return ::w64::api::err(::w64::api::run_or_capture(s, [=] {
    return static_cast<int>(W64_N(cudaMemcpy2D, hipMemcpy2D)(dst, dpitch, src, spitch, width, height, k));
  }));
}
inline W64_ERR W64_N(cudaMemset, hipMemset)(void* dst, int v, size_t n) {
  if (n && !dst) return ::w64::api::err(1);
  if (n) std::memset(dst, v, n);
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaMemsetAsync, hipMemsetAsync)(void* dst, int v, size_t n, W64_STREAM s = nullptr) {
  return ::w64::api::err(
      ::w64::api::run_or_capture(s, [=] { return static_cast<int>(W64_N(cudaMemset, hipMemset)(dst, v, n)); }));
}
inline W64_ERR W64_N(cudaMemset2D, hipMemset2D)(void* dst, size_t pitch, int v, size_t width, size_t height) {
  for (size_t r = 0; r < height; ++r) std::memset(static_cast<char*>(dst) + r * pitch, v, width);
  return W64_N(cudaSuccess, hipSuccess);
}
#if defined(W64_API_HIP)
inline hipError_t hipMemsetD32(void* dst, int v, size_t count) {
  for (size_t i = 0; i < count; ++i) static_cast<int*>(dst)[i] = v;
  return hipSuccess;
}
inline hipError_t hipMemsetD8(void* dst, unsigned char v, size_t count) { return hipMemset(dst, v, count); }
#endif
inline W64_ERR W64_N(cudaMemPrefetchAsync, hipMemPrefetchAsync)(const void*, size_t, int, W64_STREAM = nullptr) {
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaMemGetInfo, hipMemGetInfo)(size_t* free_bytes, size_t* total) {
  *free_bytes = std::size_t{15} << 30;
  *total = std::size_t{16} << 30;
  return W64_N(cudaSuccess, hipSuccess);
}
template <class T>
inline W64_ERR W64_N(cudaMemcpyToSymbol,
                     hipMemcpyToSymbol)(const T& symbol, const void* src, size_t n, size_t offset = 0,
                                        W64_KIND = W64_N(cudaMemcpyHostToDevice, hipMemcpyHostToDevice)) {
  if (offset + n > sizeof(T)) return ::w64::api::err(1);
  std::memcpy(reinterpret_cast<char*>(const_cast<T*>(&symbol)) + offset, src, n);
  return W64_N(cudaSuccess, hipSuccess);
}
template <class T>
inline W64_ERR W64_N(cudaMemcpyToSymbolAsync, hipMemcpyToSymbolAsync)(const T& symbol, const void* src, size_t n,
                                                                      size_t offset, W64_KIND k, W64_STREAM = nullptr) {
  return W64_N(cudaMemcpyToSymbol, hipMemcpyToSymbol)(symbol, src, n, offset, k);
}
template <class T>
inline W64_ERR W64_N(cudaMemcpyFromSymbol,
                     hipMemcpyFromSymbol)(void* dst, const T& symbol, size_t n, size_t offset = 0,
                                          W64_KIND = W64_N(cudaMemcpyDeviceToHost, hipMemcpyDeviceToHost)) {
  if (offset + n > sizeof(T)) return ::w64::api::err(1);
  std::memcpy(dst, reinterpret_cast<const char*>(&symbol) + offset, n);
  return W64_N(cudaSuccess, hipSuccess);
}
template <class T>
inline W64_ERR W64_N(cudaMemcpyFromSymbolAsync, hipMemcpyFromSymbolAsync)(void* dst, const T& symbol, size_t n,
                                                                          size_t offset, W64_KIND k,
                                                                          W64_STREAM = nullptr) {
  return W64_N(cudaMemcpyFromSymbol, hipMemcpyFromSymbol)(dst, symbol, n, offset, k);
}
template <class T>
inline W64_ERR W64_N(cudaGetSymbolAddress, hipGetSymbolAddress)(void** p, const T& symbol) {
  *p = const_cast<void*>(static_cast<const void*>(&symbol));
  return W64_N(cudaSuccess, hipSuccess);
}
template <class T>
inline W64_ERR W64_N(cudaGetSymbolSize, hipGetSymbolSize)(size_t* n, const T&) {
  *n = sizeof(T);
  return W64_N(cudaSuccess, hipSuccess);
}

// ---- devices ----------------------------------------------------------------------------------
inline W64_ERR W64_N(cudaGetDeviceCount, hipGetDeviceCount)(int* n) {
  *n = 1;
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaSetDevice, hipSetDevice)(int d) { return ::w64::api::err(d == 0 ? 0 : 101); }
inline W64_ERR W64_N(cudaGetDevice, hipGetDevice)(int* d) {
  *d = 0;
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaChooseDevice, hipChooseDevice)(int* d, const W64_PROP*) {
  *d = 0;
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaGetDeviceProperties, hipGetDeviceProperties)(W64_PROP* p, int d) {
  if (d != 0) return ::w64::api::err(101);
  ::w64::api::fill_properties(*p);
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaDeviceGetAttribute, hipDeviceGetAttribute)(int* v, W64_ATTR a, int d) {
  if (d != 0) return ::w64::api::err(101);
  *v = ::w64::api::attribute(a);
  return ::w64::api::err(*v < 0 ? 1 : 0);
}
inline W64_ERR W64_N(cudaDeviceSynchronize, hipDeviceSynchronize)() { return W64_N(cudaSuccess, hipSuccess); }
#if defined(W64_API_CUDA)
inline cudaError_t cudaThreadSynchronize() { return cudaSuccess; }
#endif
inline W64_ERR W64_N(cudaDeviceReset, hipDeviceReset)() { return W64_N(cudaSuccess, hipSuccess); }
inline W64_ERR W64_N(cudaSetDeviceFlags, hipSetDeviceFlags)(unsigned int) { return W64_N(cudaSuccess, hipSuccess); }
inline W64_ERR W64_N(cudaDeviceSetCacheConfig, hipDeviceSetCacheConfig)(W64_N(cudaFuncCache, hipFuncCache_t)) {
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaDeviceSetSharedMemConfig,
                     hipDeviceSetSharedMemConfig)(W64_N(cudaSharedMemConfig, hipSharedMemConfig)) {
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaDeviceSetLimit, hipDeviceSetLimit)(W64_N(cudaLimit, hipLimit_t), size_t) {
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaDeviceGetLimit, hipDeviceGetLimit)(size_t* v, W64_N(cudaLimit, hipLimit_t)) {
  *v = 64 * 1024;
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaDeviceCanAccessPeer, hipDeviceCanAccessPeer)(int* can, int, int) {
  *can = 0;
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaDeviceEnablePeerAccess, hipDeviceEnablePeerAccess)(int, unsigned int) {
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaDriverGetVersion, hipDriverGetVersion)(int* v) {
  *v = W64_N(13000, 50200000);
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaRuntimeGetVersion, hipRuntimeGetVersion)(int* v) {
  *v = W64_N(13000, 50200000);
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaDeviceGetStreamPriorityRange, hipDeviceGetStreamPriorityRange)(int* least, int* greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = -1;
  return W64_N(cudaSuccess, hipSuccess);
}

// ---- profiler control: nothing to profile on the CPU, so starting and stopping do nothing -----
inline W64_ERR W64_N(cudaProfilerStart, hipProfilerStart)() { return W64_N(cudaSuccess, hipSuccess); }
inline W64_ERR W64_N(cudaProfilerStop, hipProfilerStop)() { return W64_N(cudaSuccess, hipSuccess); }

// ---- errors -----------------------------------------------------------------------------------
inline W64_ERR W64_N(cudaGetLastError, hipGetLastError)() {
  const int e = ::w64::api::last_error();
  ::w64::api::last_error() = 0;
  return static_cast<W64_ERR>(e);
}
inline W64_ERR W64_N(cudaPeekAtLastError, hipPeekAtLastError)() {
  return static_cast<W64_ERR>(::w64::api::last_error());
}
inline const char* W64_N(cudaGetErrorString, hipGetErrorString)(W64_ERR e) { return ::w64::api::error_string(e); }
inline const char* W64_N(cudaGetErrorName, hipGetErrorName)(W64_ERR e) { return ::w64::api::error_name(e); }

// ---- streams and events -----------------------------------------------------------------------
inline W64_ERR W64_N(cudaStreamCreateWithPriority, hipStreamCreateWithPriority)(W64_STREAM* s, unsigned int flags,
                                                                                int priority) {
  *s = new ::w64::api::Stream{flags, priority};
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaStreamCreateWithFlags, hipStreamCreateWithFlags)(W64_STREAM* s, unsigned int flags) {
  return W64_N(cudaStreamCreateWithPriority, hipStreamCreateWithPriority)(s, flags, 0);
}
inline W64_ERR W64_N(cudaStreamCreate, hipStreamCreate)(W64_STREAM* s) {
  return W64_N(cudaStreamCreateWithPriority, hipStreamCreateWithPriority)(s, 0, 0);
}
inline W64_ERR W64_N(cudaStreamDestroy, hipStreamDestroy)(W64_STREAM s) {
  if (reinterpret_cast<std::uintptr_t>(s) > 0x10) delete s;
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaStreamSynchronize, hipStreamSynchronize)(W64_STREAM) { return W64_N(cudaSuccess, hipSuccess); }
inline W64_ERR W64_N(cudaStreamQuery, hipStreamQuery)(W64_STREAM) { return W64_N(cudaSuccess, hipSuccess); }
// Waiting on an event recorded in a capture makes the waiting stream part of that capture (the
// fork of a multi-stream capture); its work is recorded until the capture ends.
inline W64_ERR W64_N(cudaStreamWaitEvent, hipStreamWaitEvent)(W64_STREAM s, W64_EVENT e, unsigned int = 0) {
  if (e && e->capture && ::w64::api::is_object(s) && !s->capture) {
    s->capture = e->capture;
    e->capture->joined.push_back(s);
  }
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaEventCreateWithFlags, hipEventCreateWithFlags)(W64_EVENT* e, unsigned int flags) {
  *e = new ::w64::api::Event{flags, false, 0.0};
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaEventCreate, hipEventCreate)(W64_EVENT* e) {
  return W64_N(cudaEventCreateWithFlags, hipEventCreateWithFlags)(e, 0);
}
inline W64_ERR W64_N(cudaEventDestroy, hipEventDestroy)(W64_EVENT e) {
  delete e;
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaEventRecord, hipEventRecord)(W64_EVENT e, W64_STREAM s = nullptr) {
  if (!e) return ::w64::api::err(400);
  e->capture = ::w64::api::capture_of(s);
  if (e->capture) return W64_N(cudaSuccess, hipSuccess);
  e->recorded = true;
  e->ms = ::w64::api::now_ms();
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaEventSynchronize, hipEventSynchronize)(W64_EVENT e) { return ::w64::api::err(e ? 0 : 400); }
inline W64_ERR W64_N(cudaEventQuery, hipEventQuery)(W64_EVENT e) { return ::w64::api::err(e ? 0 : 400); }
inline W64_ERR W64_N(cudaEventElapsedTime, hipEventElapsedTime)(float* ms, W64_EVENT a, W64_EVENT b) {
  if (!a || !b || !ms) return ::w64::api::err(400);
  if (!a->recorded || !b->recorded) return ::w64::api::err(600);
  *ms = static_cast<float>(b->ms - a->ms);
  return W64_N(cudaSuccess, hipSuccess);
}

// ---- kernels ----------------------------------------------------------------------------------
inline W64_ERR W64_N(cudaFuncSetAttribute, hipFuncSetAttribute)(const void* f,
                                                                W64_N(cudaFuncAttribute, hipFuncAttribute) a, int v) {
  if (a == W64_N(cudaFuncAttributeMaxDynamicSharedMemorySize, hipFuncAttributeMaxDynamicSharedMemorySize)) {
    if (v < 0 || static_cast<std::size_t>(v) > ::w64::api::kSharedOptin) return ::w64::api::err(1);
    ::w64::api::set_dynamic_shared_limit(f, static_cast<std::size_t>(v));
  }
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaFuncSetCacheConfig, hipFuncSetCacheConfig)(const void*, W64_N(cudaFuncCache, hipFuncCache_t)) {
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaFuncGetAttributes, hipFuncGetAttributes)(W64_N(cudaFuncAttributes, hipFuncAttributes) * a,
                                                                  const void* f) {
  std::memset(a, 0, sizeof *a);
  a->maxThreadsPerBlock = 1024;
  a->numRegs = 32;
  a->maxDynamicSharedSizeBytes = static_cast<int>(::w64::api::dynamic_shared_limit(f, ::w64::api::kSharedPerBlock));
  return W64_N(cudaSuccess, hipSuccess);
}
#if defined(W64_API_CUDA)
// CUDA's runtime API also takes the kernel itself (a template in cuda_runtime.h).
template <class... P>
inline cudaError_t cudaFuncSetAttribute(void (*f)(P...), cudaFuncAttribute a, int v) {
  return cudaFuncSetAttribute(reinterpret_cast<const void*>(f), a, v);
}
template <class... P>
inline cudaError_t cudaFuncSetCacheConfig(void (*f)(P...), cudaFuncCache c) {
  return cudaFuncSetCacheConfig(reinterpret_cast<const void*>(f), c);
}
template <class... P>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* a, void (*f)(P...)) {
  return cudaFuncGetAttributes(a, reinterpret_cast<const void*>(f));
}
#endif
template <class F>
inline W64_ERR W64_N(cudaOccupancyMaxActiveBlocksPerMultiprocessor,
                     hipOccupancyMaxActiveBlocksPerMultiprocessor)(int* blocks, F, int block_size, size_t = 0) {
  *blocks = block_size > 0 ? std::max(1, std::min(32, 2048 / block_size)) : 0;
  return W64_N(cudaSuccess, hipSuccess);
}
template <class F>
inline W64_ERR W64_N(cudaOccupancyMaxPotentialBlockSize,
                     hipOccupancyMaxPotentialBlockSize)(int* min_grid, int* block, F, size_t = 0, int limit = 0) {
  *block = limit > 0 ? std::min(limit, 1024) : 1024;
  *min_grid = ::w64::api::kMultiProcessors * std::max(1, 2048 / *block);
  return W64_N(cudaSuccess, hipSuccess);
}
namespace w64::api {
template <class... P, std::size_t... I>
inline W64_ERR launch_with_array(void (*kernel)(P...), const Launcher& l, void** args, std::index_sequence<I...>) {
  return l.launch(kernel, *static_cast<std::decay_t<P>*>(args[I])...);
}
}  // namespace w64::api
template <class... P>
inline W64_ERR W64_N(cudaLaunchKernel, hipLaunchKernel)(void (*kernel)(P...), dim3 grid, dim3 block, void** args,
                                                        size_t shared = 0, W64_STREAM stream = nullptr) {
  return ::w64::api::launch_with_array(kernel, ::w64::api::Launcher(grid, block, shared, stream), args,
                                       std::index_sequence_for<P...>{});
}
// Cooperative launches: every block runs at once on its own OS thread, so grid_group::sync() is a
// real barrier. The kernel must be named with its type: `(void*)kernel` is taken back to the
// kernel by the driver (ferry wave64), since a void* has lost the parameter types.
template <class... P>
inline W64_ERR W64_N(cudaLaunchCooperativeKernel,
                     hipLaunchCooperativeKernel)(void (*kernel)(P...), dim3 grid, dim3 block, void** args,
                                                 size_t shared = 0, W64_STREAM stream = nullptr) {
  ::w64::api::Launcher l(grid, block, shared, stream);
  return ::w64::api::launch_with_array(kernel, l.cooperative(), args, std::index_sequence_for<P...>{});
}
template <class T, class = std::enable_if_t<!std::is_function_v<std::remove_pointer_t<T>>>>
inline W64_ERR W64_N(cudaLaunchCooperativeKernel, hipLaunchCooperativeKernel)(T*, dim3, dim3, void**, size_t = 0,
                                                                              W64_STREAM = nullptr) {
  static_assert(sizeof(T) == 0,
                "wave64 CPU runtime: cudaLaunchCooperativeKernel / hipLaunchCooperativeKernel needs the kernel "
                "itself, not a pointer cast to void* (the runtime converts the argument array to the kernel's "
                "parameter types)");
  return W64_N(cudaErrorInvalidValue, hipErrorInvalidValue);
}

// ---- graphs (stream capture) --------------------------------------------------------------------
typedef ::w64::api::Graph* W64_N(cudaGraph_t, hipGraph_t);
typedef ::w64::api::Graph* W64_N(cudaGraphExec_t, hipGraphExec_t);
typedef ::w64::api::GraphNode* W64_N(cudaGraphNode_t, hipGraphNode_t);
enum W64_N(cudaStreamCaptureMode, hipStreamCaptureMode) {
  W64_N(cudaStreamCaptureModeGlobal, hipStreamCaptureModeGlobal) = 0,
  W64_N(cudaStreamCaptureModeThreadLocal, hipStreamCaptureModeThreadLocal) = 1,
  W64_N(cudaStreamCaptureModeRelaxed, hipStreamCaptureModeRelaxed) = 2,
};
enum W64_N(cudaStreamCaptureStatus, hipStreamCaptureStatus) {
  W64_N(cudaStreamCaptureStatusNone, hipStreamCaptureStatusNone) = 0,
  W64_N(cudaStreamCaptureStatusActive, hipStreamCaptureStatusActive) = 1,
  W64_N(cudaStreamCaptureStatusInvalidated, hipStreamCaptureStatusInvalidated) = 2,
};
constexpr unsigned long long W64_N(cudaGraphInstantiateFlagAutoFreeOnLaunch,
                                   hipGraphInstantiateFlagAutoFreeOnLaunch) = 1;
inline W64_ERR W64_N(cudaStreamBeginCapture, hipStreamBeginCapture)(
    W64_STREAM s, W64_N(cudaStreamCaptureMode, hipStreamCaptureMode) = W64_N(cudaStreamCaptureModeGlobal,
                                                                             hipStreamCaptureModeGlobal)) {
  // The legacy default stream cannot be captured (cudaErrorStreamCaptureUnsupported in CUDA).
  if (!::w64::api::is_object(s) || s->capture) return ::w64::api::err(1);
  s->capture = new ::w64::api::Graph;
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaStreamEndCapture, hipStreamEndCapture)(W64_STREAM s, W64_N(cudaGraph_t, hipGraph_t) * g) {
  if (!::w64::api::is_object(s) || !s->capture || !g) return ::w64::api::err(1);
  *g = s->capture;
  for (::w64::api::Stream* j : s->capture->joined) j->capture = nullptr;
  s->capture->joined.clear();
  s->capture = nullptr;
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaStreamIsCapturing,
                     hipStreamIsCapturing)(W64_STREAM s,
                                           W64_N(cudaStreamCaptureStatus, hipStreamCaptureStatus) * status) {
  if (!status) return ::w64::api::err(1);
  *status = ::w64::api::capture_of(s) ? W64_N(cudaStreamCaptureStatusActive, hipStreamCaptureStatusActive)
                                      : W64_N(cudaStreamCaptureStatusNone, hipStreamCaptureStatusNone);
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaGraphCreate, hipGraphCreate)(W64_N(cudaGraph_t, hipGraph_t) * g, unsigned int = 0) {
  if (!g) return ::w64::api::err(1);
  *g = new ::w64::api::Graph;
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaGraphDestroy, hipGraphDestroy)(W64_N(cudaGraph_t, hipGraph_t) g) {
  delete g;
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaGraphInstantiateWithFlags,
                     hipGraphInstantiateWithFlags)(W64_N(cudaGraphExec_t, hipGraphExec_t) * e,
                                                   W64_N(cudaGraph_t, hipGraph_t) g, unsigned long long = 0) {
  if (!e || !g) return ::w64::api::err(1);
  *e = new ::w64::api::Graph{g->nodes, {}};
  return W64_N(cudaSuccess, hipSuccess);
}
// CUDA 12's form (flags) and the older one (error node, log buffer): both exist in code.
inline W64_ERR W64_N(cudaGraphInstantiate, hipGraphInstantiate)(W64_N(cudaGraphExec_t, hipGraphExec_t) * e,
                                                                W64_N(cudaGraph_t, hipGraph_t) g,
                                                                unsigned long long flags = 0) {
  return W64_N(cudaGraphInstantiateWithFlags, hipGraphInstantiateWithFlags)(e, g, flags);
}
inline W64_ERR W64_N(cudaGraphInstantiate, hipGraphInstantiate)(W64_N(cudaGraphExec_t, hipGraphExec_t) * e,
                                                                W64_N(cudaGraph_t, hipGraph_t) g,
                                                                W64_N(cudaGraphNode_t, hipGraphNode_t) * error_node,
                                                                char* log, size_t log_size) {
  if (error_node) *error_node = nullptr;
  if (log && log_size) log[0] = 0;
  return W64_N(cudaGraphInstantiateWithFlags, hipGraphInstantiateWithFlags)(e, g, 0);
}
inline W64_ERR W64_N(cudaGraphExecDestroy, hipGraphExecDestroy)(W64_N(cudaGraphExec_t, hipGraphExec_t) e) {
  delete e;
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaGraphUpload, hipGraphUpload)(W64_N(cudaGraphExec_t, hipGraphExec_t), W64_STREAM) {
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaGraphLaunch, hipGraphLaunch)(W64_N(cudaGraphExec_t, hipGraphExec_t) e, W64_STREAM s) {
  if (!e) return ::w64::api::err(400);
  return ::w64::api::err(::w64::api::run_or_capture(s, [e] {
    for (const auto& node : e->nodes)
      if (const int r = node()) return r;
    return 0;
  }));
}
inline W64_ERR W64_N(cudaGraphGetNodes, hipGraphGetNodes)(W64_N(cudaGraph_t, hipGraph_t) g,
                                                          W64_N(cudaGraphNode_t, hipGraphNode_t) * nodes,
                                                          size_t* count) {
  if (!g || !count) return ::w64::api::err(1);
  if (nodes)
    for (size_t i = 0; i < *count && i < g->nodes.size(); ++i) nodes[i] = nullptr;
  *count = g->nodes.size();
  return W64_N(cudaSuccess, hipSuccess);
}

// The calling-convention marker of host callbacks (`void CUDART_CB f(void*)`): nothing on the CPU.
#if !defined(CUDART_CB)
#define CUDART_CB
#endif

// Host functions in a stream run in issue order like everything else (or join a capture).
using W64_N(cudaHostFn_t, hipHostFn_t) = void (*)(void*);
inline W64_ERR W64_N(cudaLaunchHostFunc, hipLaunchHostFunc)(W64_STREAM s, W64_N(cudaHostFn_t, hipHostFn_t) fn,
                                                            void* data) {
  return ::w64::api::err(::w64::api::run_or_capture(s, [fn, data] {
    fn(data);
    return 0;
  }));
}
using W64_N(cudaStreamCallback_t, hipStreamCallback_t) = void (*)(W64_STREAM, W64_ERR, void*);
inline W64_ERR W64_N(cudaStreamAddCallback, hipStreamAddCallback)(W64_STREAM s,
                                                                  W64_N(cudaStreamCallback_t, hipStreamCallback_t) cb,
                                                                  void* data, unsigned int) {
  cb(s, W64_N(cudaSuccess, hipSuccess), data);
  return W64_N(cudaSuccess, hipSuccess);
}

// ---- CUDA arrays, texture objects, surface objects (texture.h) ---------------------------------
enum W64_N(cudaChannelFormatKind, hipChannelFormatKind) {
  W64_N(cudaChannelFormatKindSigned, hipChannelFormatKindSigned) = 0,
  W64_N(cudaChannelFormatKindUnsigned, hipChannelFormatKindUnsigned) = 1,
  W64_N(cudaChannelFormatKindFloat, hipChannelFormatKindFloat) = 2,
  W64_N(cudaChannelFormatKindNone, hipChannelFormatKindNone) = 3,
};
struct W64_N(cudaChannelFormatDesc, hipChannelFormatDesc) {
  int x, y, z, w;
  W64_N(cudaChannelFormatKind, hipChannelFormatKind) f;
};
using W64_CHANDESC = W64_N(cudaChannelFormatDesc, hipChannelFormatDesc);
inline W64_CHANDESC W64_N(cudaCreateChannelDesc,
                          hipCreateChannelDesc)(int x, int y, int z, int w,
                                                W64_N(cudaChannelFormatKind, hipChannelFormatKind) f) {
  return W64_CHANDESC{x, y, z, w, f};
}
namespace w64::api {
template <class T>
inline W64_CHANDESC channel_desc_of() {
  using S = typename Components<T>::scalar;
  constexpr int n = Components<T>::n;
  constexpr int b = static_cast<int>(sizeof(S) * 8);
  const auto k = std::is_floating_point_v<S> ? W64_N(cudaChannelFormatKindFloat, hipChannelFormatKindFloat)
                 : std::is_signed_v<S>       ? W64_N(cudaChannelFormatKindSigned, hipChannelFormatKindSigned)
                                             : W64_N(cudaChannelFormatKindUnsigned, hipChannelFormatKindUnsigned);
  return W64_CHANDESC{b, n > 1 ? b : 0, n > 2 ? b : 0, n > 3 ? b : 0, k};
}
}  // namespace w64::api
template <class T>
inline W64_CHANDESC W64_N(cudaCreateChannelDesc, hipCreateChannelDesc)() {
  return ::w64::api::channel_desc_of<T>();
}

struct W64_N(cudaArray, hipArray) : ::w64::api::ArrayStore {};
typedef W64_N(cudaArray, hipArray) * W64_N(cudaArray_t, hipArray_t);
typedef const W64_N(cudaArray, hipArray) * W64_N(cudaArray_const_t, hipArray_const_t);
inline W64_ERR W64_N(cudaMallocArray, hipMallocArray)(W64_N(cudaArray_t, hipArray_t) * a, const W64_CHANDESC* d,
                                                      size_t width, size_t height = 0, unsigned int = 0) {
  if (!a || !d || width == 0) return ::w64::api::err(1);
  auto* arr = new W64_N(cudaArray, hipArray)();
  arr->x = d->x, arr->y = d->y, arr->z = d->z, arr->w = d->w;
  arr->kind = static_cast<::w64::api::ChanKind>(d->f);
  arr->width = width;
  arr->height = height ? height : 1;
  arr->depth = 1;
  arr->texel = static_cast<size_t>(d->x + d->y + d->z + d->w) / 8;
  arr->pitch = arr->texel * width;
  arr->data = static_cast<unsigned char*>(std::calloc(arr->pitch * arr->height, 1));
  *a = arr;
  return ::w64::api::err(arr->data ? 0 : 2);
}
inline W64_ERR W64_N(cudaFreeArray, hipFreeArray)(W64_N(cudaArray_t, hipArray_t) a) {
  if (a) std::free(a->data);
  delete a;
  return W64_N(cudaSuccess, hipSuccess);
}
// wOffset in bytes, hOffset in rows, as the API defines them.
inline W64_ERR W64_N(cudaMemcpy2DToArray, hipMemcpy2DToArray)(W64_N(cudaArray_t, hipArray_t) dst, size_t wOffset,
                                                              size_t hOffset, const void* src, size_t spitch,
                                                              size_t width, size_t height, W64_KIND) {
  if (!dst || wOffset + width > dst->pitch || hOffset + height > dst->height) return ::w64::api::err(1);
  for (size_t r = 0; r < height; ++r)
    std::memmove(dst->data + (hOffset + r) * dst->pitch + wOffset, static_cast<const unsigned char*>(src) + r * spitch,
                 width);
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaMemcpy2DFromArray,
                     hipMemcpy2DFromArray)(void* dst, size_t dpitch, W64_N(cudaArray_const_t, hipArray_const_t) src,
                                           size_t wOffset, size_t hOffset, size_t width, size_t height, W64_KIND) {
  if (!src || wOffset + width > src->pitch || hOffset + height > src->height) return ::w64::api::err(1);
  for (size_t r = 0; r < height; ++r)
    std::memmove(static_cast<unsigned char*>(dst) + r * dpitch, src->data + (hOffset + r) * src->pitch + wOffset,
                 width);
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaMemcpyToArray, hipMemcpyToArray)(W64_N(cudaArray_t, hipArray_t) dst, size_t wOffset,
                                                          size_t hOffset, const void* src, size_t count, W64_KIND) {
  const size_t at = hOffset * (dst ? dst->pitch : 0) + wOffset;
  if (!dst || at + count > dst->pitch * dst->height) return ::w64::api::err(1);
  std::memmove(dst->data + at, src, count);
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaMemcpyFromArray, hipMemcpyFromArray)(void* dst, W64_N(cudaArray_const_t, hipArray_const_t) src,
                                                              size_t wOffset, size_t hOffset, size_t count, W64_KIND) {
  const size_t at = hOffset * (src ? src->pitch : 0) + wOffset;
  if (!src || at + count > src->pitch * src->height) return ::w64::api::err(1);
  std::memmove(dst, src->data + at, count);
  return W64_N(cudaSuccess, hipSuccess);
}

enum W64_N(cudaResourceType, hipResourceType) {
  W64_N(cudaResourceTypeArray, hipResourceTypeArray) = 0,
  W64_N(cudaResourceTypeMipmappedArray, hipResourceTypeMipmappedArray) = 1,
  W64_N(cudaResourceTypeLinear, hipResourceTypeLinear) = 2,
  W64_N(cudaResourceTypePitch2D, hipResourceTypePitch2D) = 3,
};
enum W64_N(cudaTextureAddressMode, hipTextureAddressMode) {
  W64_N(cudaAddressModeWrap, hipAddressModeWrap) = 0,
  W64_N(cudaAddressModeClamp, hipAddressModeClamp) = 1,
  W64_N(cudaAddressModeMirror, hipAddressModeMirror) = 2,
  W64_N(cudaAddressModeBorder, hipAddressModeBorder) = 3,
};
enum W64_N(cudaTextureFilterMode, hipTextureFilterMode) {
  W64_N(cudaFilterModePoint, hipFilterModePoint) = 0,
  W64_N(cudaFilterModeLinear, hipFilterModeLinear) = 1,
};
enum W64_N(cudaTextureReadMode, hipTextureReadMode) {
  W64_N(cudaReadModeElementType, hipReadModeElementType) = 0,
  W64_N(cudaReadModeNormalizedFloat, hipReadModeNormalizedFloat) = 1,
};
enum W64_N(cudaSurfaceBoundaryMode, hipSurfaceBoundaryMode) {
  W64_N(cudaBoundaryModeZero, hipBoundaryModeZero) = 0,
  W64_N(cudaBoundaryModeClamp, hipBoundaryModeClamp) = 1,
  W64_N(cudaBoundaryModeTrap, hipBoundaryModeTrap) = 2,
};
struct W64_N(cudaResourceDesc, hipResourceDesc) {
  W64_N(cudaResourceType, hipResourceType) resType;
  union {
    struct {
      W64_N(cudaArray_t, hipArray_t) array;
    } array;
    struct {
      void* mipmap;
    } mipmap;
    struct {
      void* devPtr;
      W64_CHANDESC desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      W64_CHANDESC desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
  } res;
};
struct W64_N(cudaTextureDesc, hipTextureDesc) {
  W64_N(cudaTextureAddressMode, hipTextureAddressMode) addressMode[3];
  W64_N(cudaTextureFilterMode, hipTextureFilterMode) filterMode;
  W64_N(cudaTextureReadMode, hipTextureReadMode) readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  W64_N(cudaTextureFilterMode, hipTextureFilterMode) mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
struct W64_N(cudaResourceViewDesc, hipResourceViewDesc) {
  int format;
  size_t width, height, depth;
  unsigned int firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
};
#if defined(W64_API_HIP)
typedef ::w64::api::TexView* hipTextureObject_t;
typedef ::w64::api::TexView* hipSurfaceObject_t;
#else
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
#endif
using W64_TEXOBJ = W64_N(cudaTextureObject_t, hipTextureObject_t);
using W64_SURFOBJ = W64_N(cudaSurfaceObject_t, hipSurfaceObject_t);
namespace w64::api {
inline bool view_of(const W64_N(cudaResourceDesc, hipResourceDesc) & r, TexView& v) {
  auto from_desc = [&](const W64_CHANDESC& d) {
    v.bits[0] = d.x, v.bits[1] = d.y, v.bits[2] = d.z, v.bits[3] = d.w;
    v.kind = static_cast<ChanKind>(d.f);
    v.channels = (d.x > 0) + (d.y > 0) + (d.z > 0) + (d.w > 0);
    v.texel = static_cast<std::size_t>(d.x + d.y + d.z + d.w) / 8;
  };
  switch (r.resType) {
    case W64_N(cudaResourceTypeArray, hipResourceTypeArray): {
      const auto* a = r.res.array.array;
      if (!a) return false;
      from_desc(W64_CHANDESC{a->x, a->y, a->z, a->w, static_cast<decltype(W64_CHANDESC::f)>(a->kind)});
      v.data = a->data, v.width = a->width, v.height = a->height, v.depth = a->depth, v.pitch = a->pitch;
      break;
    }
    case W64_N(cudaResourceTypeLinear, hipResourceTypeLinear):
      from_desc(r.res.linear.desc);
      if (!r.res.linear.devPtr || v.texel == 0) return false;
      v.data = static_cast<const unsigned char*>(r.res.linear.devPtr);
      v.width = r.res.linear.sizeInBytes / v.texel, v.height = 1, v.depth = 1, v.pitch = r.res.linear.sizeInBytes;
      break;
    case W64_N(cudaResourceTypePitch2D, hipResourceTypePitch2D):
      from_desc(r.res.pitch2D.desc);
      if (!r.res.pitch2D.devPtr) return false;
      v.data = static_cast<const unsigned char*>(r.res.pitch2D.devPtr);
      v.width = r.res.pitch2D.width, v.height = r.res.pitch2D.height, v.depth = 1, v.pitch = r.res.pitch2D.pitchInBytes;
      break;
    default: return false;  // mipmapped arrays are not modelled
  }
  v.slice = v.pitch * v.height;
  return v.texel > 0;
}
}  // namespace w64::api
inline W64_ERR W64_N(cudaCreateTextureObject,
                     hipCreateTextureObject)(W64_TEXOBJ* obj, const W64_N(cudaResourceDesc, hipResourceDesc) * r,
                                             const W64_N(cudaTextureDesc, hipTextureDesc) * t,
                                             const W64_N(cudaResourceViewDesc, hipResourceViewDesc) * = nullptr) {
  if (!obj || !r || !t) return ::w64::api::err(1);
  auto* v = new ::w64::api::TexView();
  if (!::w64::api::view_of(*r, *v)) {
    delete v;
    return ::w64::api::err(1);
  }
  for (int d = 0; d < 3; ++d) v->address[d] = static_cast<int>(t->addressMode[d]);
  v->linear_filter = t->filterMode == W64_N(cudaFilterModeLinear, hipFilterModeLinear);
  v->normalized_read = t->readMode == W64_N(cudaReadModeNormalizedFloat, hipReadModeNormalizedFloat) &&
                       v->kind != ::w64::api::ChanKind::Float && v->bits[0] <= 16;
  v->normalized_coords = t->normalizedCoords != 0;
  for (int c = 0; c < 4; ++c) v->border[c] = t->borderColor[c];
  *obj = reinterpret_cast<W64_TEXOBJ>(v);
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaDestroyTextureObject, hipDestroyTextureObject)(W64_TEXOBJ obj) {
  delete reinterpret_cast<::w64::api::TexView*>(obj);
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaCreateSurfaceObject,
                     hipCreateSurfaceObject)(W64_SURFOBJ* obj, const W64_N(cudaResourceDesc, hipResourceDesc) * r) {
  if (!obj || !r || r->resType != W64_N(cudaResourceTypeArray, hipResourceTypeArray)) return ::w64::api::err(1);
  auto* v = new ::w64::api::TexView();
  if (!::w64::api::view_of(*r, *v)) {
    delete v;
    return ::w64::api::err(1);
  }
  *obj = reinterpret_cast<W64_SURFOBJ>(v);
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaDestroySurfaceObject, hipDestroySurfaceObject)(W64_SURFOBJ obj) {
  delete reinterpret_cast<::w64::api::TexView*>(obj);
  return W64_N(cudaSuccess, hipSuccess);
}

// Fetches (device code).
template <class T>
inline T tex1Dfetch(W64_TEXOBJ obj, int i) {
  const auto* t = reinterpret_cast<const ::w64::api::TexView*>(obj);
  float v[4];
  const unsigned char* raw =
      i >= 0 && static_cast<size_t>(i) < t->width ? t->data + static_cast<size_t>(i) * t->texel : nullptr;
  ::w64::api::read_channels(*t, raw, v);
  if (!raw)
    for (float& c : v) c = 0.0f;
  return ::w64::api::texel_result<T>(*t, raw, v);
}
template <class T>
inline T tex1D(W64_TEXOBJ obj, float x) {
  return ::w64::api::tex_read<T>(reinterpret_cast<const ::w64::api::TexView*>(obj), 1, x);
}
template <class T>
inline T tex2D(W64_TEXOBJ obj, float x, float y) {
  return ::w64::api::tex_read<T>(reinterpret_cast<const ::w64::api::TexView*>(obj), 2, x, y);
}
template <class T>
inline T tex3D(W64_TEXOBJ obj, float x, float y, float z) {
  return ::w64::api::tex_read<T>(reinterpret_cast<const ::w64::api::TexView*>(obj), 3, x, y, z);
}
template <class T>
inline void tex1Dfetch(T* r, W64_TEXOBJ obj, int i) {
  *r = tex1Dfetch<T>(obj, i);
}
template <class T>
inline void tex1D(T* r, W64_TEXOBJ obj, float x) {
  *r = tex1D<T>(obj, x);
}
template <class T>
inline void tex2D(T* r, W64_TEXOBJ obj, float x, float y) {
  *r = tex2D<T>(obj, x, y);
}
template <class T>
inline void tex3D(T* r, W64_TEXOBJ obj, float x, float y, float z) {
  *r = tex3D<T>(obj, x, y, z);
}
namespace w64::api {
// The texel of a surface access at byte offset x, row y, after the boundary mode; null for zero.
inline unsigned char* surface_texel(W64_SURFOBJ obj, int x, int y, int mode, const char* what) {
  auto* t = reinterpret_cast<TexView*>(obj);
  const long long w = static_cast<long long>(t->width * t->texel), h = static_cast<long long>(t->height);
  long long bx = x, by = y;
  if (bx < 0 || by < 0 || bx + static_cast<long long>(t->texel) > w || by >= h) {
    if (mode == 0) return nullptr;
    if (mode == 2) ::w64::trap(what);  // outside the surface with cudaBoundaryModeTrap
    bx = std::max(0LL, std::min(bx, w - static_cast<long long>(t->texel)));
    by = std::max(0LL, std::min(by, h - 1));
  }
  return const_cast<unsigned char*>(t->data) + by * static_cast<long long>(t->pitch) + bx;
}
}  // namespace w64::api
template <class T>
inline void surf2Dwrite(T value, W64_SURFOBJ s, int x, int y, int mode = 2) {
  if (unsigned char* p = ::w64::api::surface_texel(s, x, y, mode, "surf2Dwrite")) std::memcpy(p, &value, sizeof(T));
}
template <class T>
inline T surf2Dread(W64_SURFOBJ s, int x, int y, int mode = 2) {
  T r{};
  if (const unsigned char* p = ::w64::api::surface_texel(s, x, y, mode, "surf2Dread")) std::memcpy(&r, p, sizeof(T));
  return r;
}
template <class T>
inline void surf2Dread(T* r, W64_SURFOBJ s, int x, int y, int mode = 2) {
  *r = surf2Dread<T>(s, x, y, mode);
}
template <class T>
inline void surf1Dwrite(T value, W64_SURFOBJ s, int x, int mode = 2) {
  surf2Dwrite(value, s, x, 0, mode);
}
template <class T>
inline T surf1Dread(W64_SURFOBJ s, int x, int mode = 2) {
  return surf2Dread<T>(s, x, 0, mode);
}

// ---- what the runtime does not model ------------------------------------------------------------
#define W64_UNSUPPORTED_API(cuda_name, hip_name, why) W64_UNSUPPORTED(W64_N(cuda_name, hip_name), why)
W64_UNSUPPORTED_API(cudaGraphAddKernelNode, hipGraphAddKernelNode,
                    "graph nodes built by hand; capture a stream instead (cudaStreamBeginCapture)")
W64_UNSUPPORTED_API(cudaGraphAddMemcpyNode, hipGraphAddMemcpyNode,
                    "graph nodes built by hand; capture a stream instead (cudaStreamBeginCapture)")
W64_UNSUPPORTED_API(cudaGraphAddMemsetNode, hipGraphAddMemsetNode,
                    "graph nodes built by hand; capture a stream instead (cudaStreamBeginCapture)")
W64_UNSUPPORTED_API(cudaGraphAddHostNode, hipGraphAddHostNode,
                    "graph nodes built by hand; capture a stream instead (cudaStreamBeginCapture)")
W64_UNSUPPORTED_API(cudaGraphAddDependencies, hipGraphAddDependencies, "graph nodes built by hand")
W64_UNSUPPORTED_API(cudaGraphExecKernelNodeSetParams, hipGraphExecKernelNodeSetParams, "graph node updates")
W64_UNSUPPORTED_API(cudaGraphExecUpdate, hipGraphExecUpdate, "graph updates")
W64_UNSUPPORTED_API(cudaMalloc3DArray, hipMalloc3DArray, "3-D CUDA arrays")
W64_UNSUPPORTED_API(cudaBindTexture, hipBindTexture, "texture references")
W64_UNSUPPORTED_API(cudaMemcpy3D, hipMemcpy3D, "3D copies")
W64_UNSUPPORTED_API(cudaIpcGetMemHandle, hipIpcGetMemHandle, "inter-process memory")
W64_UNSUPPORTED_API(cudaIpcOpenMemHandle, hipIpcOpenMemHandle, "inter-process memory")
#undef W64_UNSUPPORTED_API

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
#include <tuple>
#include <type_traits>
#include <vector>

#include "wave64/device.h"
#include "wave64/texture.h"
#include "wave64/trace.h"

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
// Unified-memory hints (cudaMemAdvise, cudaMemPrefetchAsync): device memory is host memory, so
// they change nothing; the names exist so that programs using them build.
enum W64_N(cudaMemoryAdvise, hipMemoryAdvise) {
  W64_N(cudaMemAdviseSetReadMostly, hipMemAdviseSetReadMostly) = 1,
  W64_N(cudaMemAdviseUnsetReadMostly, hipMemAdviseUnsetReadMostly) = 2,
  W64_N(cudaMemAdviseSetPreferredLocation, hipMemAdviseSetPreferredLocation) = 3,
  W64_N(cudaMemAdviseUnsetPreferredLocation, hipMemAdviseUnsetPreferredLocation) = 4,
  W64_N(cudaMemAdviseSetAccessedBy, hipMemAdviseSetAccessedBy) = 5,
  W64_N(cudaMemAdviseUnsetAccessedBy, hipMemAdviseUnsetAccessedBy) = 6,
};
constexpr int W64_N(cudaCpuDeviceId, hipCpuDeviceId) = -1;
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
// gfx906 (60 CUs, 64 KiB LDS) or sm_90 (132 SMs, 227 KiB shared after the opt-in): the API's own
// unless the build names one (`ferry wave64 build --device`, which defines W64_DEVICE_GFX906 or
// W64_DEVICE_SM90). `ferry diffrun --wave64` builds both sides with one model, so that only the
// warp size differs between them (programs that size their grid from the multiprocessor count).
#if defined(W64_DEVICE_GFX906) && defined(W64_DEVICE_SM90)
#error "wave64 runtime: W64_DEVICE_GFX906 and W64_DEVICE_SM90 are both defined"
#endif
#if defined(W64_DEVICE_GFX906) || (defined(W64_API_HIP) && !defined(W64_DEVICE_SM90))
#define W64_MODEL_GFX906 1
#else
#define W64_MODEL_GFX906 0
#endif
namespace w64::api {
// The device memory the model has (totalGlobalMem, cudaMemGetInfo's total).
constexpr std::size_t kDeviceMemory = std::size_t{16} << 30;
#if W64_MODEL_GFX906
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
#if W64_MODEL_GFX906
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
  p.totalGlobalMem = kDeviceMemory;
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
// Device memory is host memory here (docs/wave64.md, "Work a CPU cannot do in time"): an
// allocation of 1 GiB or more that the host cannot back, or a managed one as large as the modelled
// device (oversubscribing device memory through page migration: a GPU's hardware feature),
// fails with FRY9403 on stderr instead of driving the host into swap. `what` names the call.
bool host_can_back(std::size_t n, bool managed, const char* what);
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
      return err(
          run_or_capture(stream_, [c, l, n = name_] { return trace::launch(n, [&] { return rt::launch(l); }); }));
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
    return err(trace::launch(name_, [&] { return rt::launch(l); }));
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
      return err(
          run_or_capture(stream_, [c, l, n = name_] { return trace::launch(n, [&] { return rt::launch(l); }); }));
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
    return err(trace::launch(name_, [&] { return rt::launch(l); }));
  }
  // The kernel as the launch spelled it, for the launch trace (wave64/trace.h).
  Launcher& named(const char* name) {
    name_ = name;
    return *this;
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
  const char* name_ = nullptr;
};
}  // namespace w64::api

namespace w64::api {
// The kernel as a function pointer when its name denotes one function (or one explicit
// specialization), else nullptr: a function template whose arguments are deduced at the launch,
// or an overload set. The test is SFINAE on a call that depends on a generic lambda's parameter,
// so an unresolvable name is no error (C++17; g++ and clang).
// The type of a kernel's parameter I, for a braced list passed to it at a launch (the driver
// writes `kernel_arg_t<I, decltype(&k)>{...}`: the launch's template cannot deduce a braced list).
template <std::size_t I, class F>
struct kernel_arg;
template <std::size_t I, class... P>
struct kernel_arg<I, void (*)(P...)> {
  using type = std::remove_cv_t<std::remove_reference_t<std::tuple_element_t<I, std::tuple<P...>>>>;
};
template <std::size_t I, class F>
using kernel_arg_t = typename kernel_arg<I, F>::type;

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
      .named(#kernel)                                                \
      .launch_call(                                                  \
          W64_KERNEL_POINTER(kernel), [&](auto&... w64_a) { kernel(w64_a...); }, ##__VA_ARGS__)
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(x) x

// The API calls, in two parts of this header, in this order: memory, devices, errors, streams,
// events and launches;
#include "wave64/api_runtime.h"

// then graphs, CUDA arrays, textures, surfaces, and what the runtime does not model.
#include "wave64/api_graphs.h"

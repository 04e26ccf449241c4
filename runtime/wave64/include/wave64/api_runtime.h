// wave64 runtime, part of wave64/api.h: memory, devices, errors, streams and events, kernel launches.
// Included by api.h only, where it stands (it reads the names and types api.h has declared).
#pragma once

#if !defined(W64_N)
#error "wave64 runtime: include wave64/api.h (through hip/hip_runtime.h or cuda_runtime.h), not this part"
#endif

// ---- memory -----------------------------------------------------------------------------------
inline W64_ERR W64_N(cudaMalloc, hipMalloc)(void** p, size_t n) {
  if (!p) return ::w64::api::err(1);
  if (!::w64::api::host_can_back(n, false, W64_N("cudaMalloc", "hipMalloc"))) return ::w64::api::err(2);
  *p = ::w64::api::device_alloc(n);
  ::w64::trace::on_alloc(*p, n);
  return ::w64::api::err(*p ? 0 : 2);
}
template <class T>
inline W64_ERR W64_N(cudaMalloc, hipMalloc)(T** p, size_t n) {
  return W64_N(cudaMalloc, hipMalloc)(static_cast<void**>(static_cast<void*>(p)), n);
}
inline W64_ERR W64_N(cudaMallocManaged, hipMallocManaged)(void** p, size_t n, unsigned int = 1) {
  if (p && !::w64::api::host_can_back(n, true, W64_N("cudaMallocManaged", "hipMallocManaged")))
    return ::w64::api::err(2);
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
  ::w64::trace::on_free(p);
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
inline W64_ERR W64_N(cudaMemAdvise, hipMemAdvise)(const void*, size_t, W64_N(cudaMemoryAdvise, hipMemoryAdvise), int) {
  return W64_N(cudaSuccess, hipSuccess);
}
inline W64_ERR W64_N(cudaMemGetInfo, hipMemGetInfo)(size_t* free_bytes, size_t* total) {
  *free_bytes = ::w64::api::kDeviceMemory - (std::size_t{1} << 30);
  *total = ::w64::api::kDeviceMemory;
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

// wave64 runtime, part of wave64/api.h: graphs (stream capture), CUDA arrays, texture and surface
// objects, and what the runtime does not model.
// Included by api.h only, where it stands (it reads the names and types api.h has declared).
#pragma once

#if !defined(W64_N)
#error "wave64 runtime: include wave64/api.h (through hip/hip_runtime.h or cuda_runtime.h), not this part"
#endif

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

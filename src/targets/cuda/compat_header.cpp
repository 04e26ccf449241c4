#include "targets/cuda/compat_header.h"

#include "rewrite/roundtrip_record.h"

#include <string>

namespace ferry::targets::cuda {

std::string_view compat_header_text() {
  static const std::string text =
      R"(// ferry/compat_cuda.h: written by Ferry's HIP -> CUDA migration (ferry migrate --to cuda).
// What HIP has and CUDA does not, in a few lines of CUDA each; migrated files include it.
// Regenerated on every migration: edit the migrated code, not this file.
#pragma once

#include <math.h>  // nanf, ldexpf of the fp8 conversions, also in a host-only (.cpp) translation unit
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

// ---- HIP's bit-field extract (AMD's v_bfe_u32): offset and width taken modulo the type's
// width, bits past the top read as 0, width 0 gives 0.
__device__ inline unsigned int bitextract_u32(unsigned int src, unsigned int offset, unsigned int width) {
  offset &= 31u;
  width &= 31u;
  return width == 0u ? 0u : (src >> offset) & ((1u << width) - 1u);
}
__device__ inline unsigned long long bitextract_u64(unsigned long long src, unsigned int offset, unsigned int width) {
  offset &= 63u;
  width &= 63u;
  return width == 0u ? 0ull : (src >> offset) & ((1ull << width) - 1ull);
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

// ---- HIP's FNUZ fp8 types (__hip_fp8_e4m3_fnuz, __hip_fp8_e5m2_fnuz): AMD's encoding, not
// CUDA's OCP one. Exponent bias 8 (e4m3) / 16 (e5m2) instead of 7 / 15, no infinities, no
// negative zero, the one NaN at 0x80. The bits are kept as HIP stores them (__x), so data written
// by HIP code reads the same; conversions round to nearest even and saturate to the largest finite
// value (240 / 57344), as HIP's constructors do.
namespace detail {
template <int E, int M, int B>
__host__ __device__ inline float fnuz_to_float(unsigned char v) {
  if (v == 0x80) return nanf("");  // the one NaN
  const int exp = (v >> M) & ((1 << E) - 1), man = v & ((1 << M) - 1);
  const float mag = exp == 0 ? ldexpf(static_cast<float>(man), 1 - B - M)
                             : ldexpf(static_cast<float>(man + (1 << M)), exp - B - M);
  return (v & 0x80) ? -mag : mag;
}
template <int E, int M, int B>
__host__ __device__ inline unsigned char fnuz_from_float(float f) {
  if (f != f) return 0x80;
  const unsigned char sign = f < 0.0f ? 0x80 : 0x00;
  const float a = fabsf(f);
  const unsigned char max_code = 0x7f;
  if (a >= fnuz_to_float<E, M, B>(max_code)) return sign | max_code;  // saturate (and infinities)
  int e = 0;
  frexpf(a, &e);
  e -= 1;  // a = 1.m * 2^e
  if (e < 1 - B) e = 1 - B;  // subnormals: the spacing of the smallest normal binade
  float q = rintf(ldexpf(a, M - e));  // exact scaling, round to nearest even
  if (q >= static_cast<float>(1 << (M + 1))) {
    e += 1;
    q = static_cast<float>(1 << M);
  }
  unsigned code = 0;
  if (q < static_cast<float>(1 << M)) code = static_cast<unsigned>(q);  // subnormal (e == 1 - B)
  else code = (static_cast<unsigned>(e + B) << M) | (static_cast<unsigned>(q) - (1u << M));
  if (code > max_code) code = max_code;
  return code == 0 ? 0 : static_cast<unsigned char>(sign | code);  // no negative zero
}
template <int E, int M, int B>
struct fp8_fnuz {
  unsigned char __x;  // the FNUZ bits (HIP's __hip_fp8_storage_t)
  fp8_fnuz() = default;
  __host__ __device__ fp8_fnuz(float f) : __x(fnuz_from_float<E, M, B>(f)) {}
  __host__ __device__ fp8_fnuz(double d) : __x(fnuz_from_float<E, M, B>(static_cast<float>(d))) {}
  __host__ __device__ fp8_fnuz(int i) : __x(fnuz_from_float<E, M, B>(static_cast<float>(i))) {}
  __host__ __device__ operator float() const { return fnuz_to_float<E, M, B>(__x); }
};
}  // namespace detail
using fp8_e4m3_fnuz = detail::fp8_fnuz<4, 3, 8>;
using fp8_e5m2_fnuz = detail::fp8_fnuz<5, 2, 16>;

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

// The driver's cuLaunchKernel, found at run time (no link against libcuda).
namespace detail {
inline cudaError_t driver_launch_kernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                        unsigned bz, unsigned shared, cudaStream_t stream, void** params,
                                        void** extra) {
  using launch_t = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                CUstream, void**, void**);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion("cuLaunchKernel", &fn, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      fn == nullptr)
    return cudaErrorNotSupported;
  const CUresult r = reinterpret_cast<launch_t>(fn)(f, gx, gy, gz, bx, by, bz, shared,
                                                    reinterpret_cast<CUstream>(stream), params, extra);
  return static_cast<cudaError_t>(r);  // the driver's and the runtime's codes share their values
}
}  // namespace detail

// ---- hipModuleLaunchKernel on a kernel from cudaLibraryGetKernel. Arguments as an array go
// through the runtime; a packed buffer (HIP_LAUNCH_PARAM_BUFFER_POINTER, the `extra` argument)
// only through the driver's cuLaunchKernel, found at run time (no link against libcuda).
inline cudaError_t module_launch_kernel(cudaKernel_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                        unsigned by, unsigned bz, unsigned shared, cudaStream_t stream,
                                        void** params, void** extra) {
  if (extra == nullptr)
    return cudaLaunchKernel(reinterpret_cast<const void*>(f), dim3(gx, gy, gz), dim3(bx, by, bz), params, shared,
                            stream);
  return detail::driver_launch_kernel(reinterpret_cast<CUfunction>(f), gx, gy, gz, bx, by, bz, shared, stream, params,
                                      extra);
}

// ---- hipExtModuleLaunchKernel (hip_ext.h): the sizes are in work-items, the grid is global /
// local in each dimension; optional events recorded around the launch on its stream. HIP's
// partial last work-group (a global size that is no multiple of the local one) has no CUDA form:
// refused with cudaErrorInvalidValue. The flags (hipExtAnyOrderLaunch) only relax HIP's
// ordering; CUDA's in-order stream is one valid order.
namespace detail {
inline bool ext_grid(unsigned global, unsigned local, unsigned& grid) {
  if (local == 0 || global % local != 0) return false;
  grid = global / local;
  return true;
}
}  // namespace detail
template <class Function>
inline cudaError_t ext_module_launch_kernel(Function f, unsigned global_x, unsigned global_y, unsigned global_z,
                                            unsigned local_x, unsigned local_y, unsigned local_z, size_t shared,
                                            cudaStream_t stream, void** params, void** extra,
                                            cudaEvent_t start = nullptr, cudaEvent_t stop = nullptr,
                                            unsigned flags = 0) {
  (void)flags;
  unsigned gx = 0, gy = 0, gz = 0;
  if (!detail::ext_grid(global_x, local_x, gx) || !detail::ext_grid(global_y, local_y, gy) ||
      !detail::ext_grid(global_z, local_z, gz))
    return cudaErrorInvalidValue;
  if (start != nullptr && cudaEventRecord(start, stream) != cudaSuccess) return cudaErrorInvalidResourceHandle;
  cudaError_t r;
  if constexpr (std::is_same_v<Function, cudaKernel_t>) {
    r = module_launch_kernel(f, gx, gy, gz, local_x, local_y, local_z, static_cast<unsigned>(shared), stream, params,
                             extra);
  } else {
    r = detail::driver_launch_kernel(f, gx, gy, gz, local_x, local_y, local_z, static_cast<unsigned>(shared), stream,
                                     params, extra);
  }
  if (r == cudaSuccess && stop != nullptr) r = cudaEventRecord(stop, stream);
  return r;
}

// ---- HIP's conversions for its NVIDIA back end: on CUDA the error is already CUDA's.
inline cudaError_t hipCUDAErrorTohipError(cudaError_t e) { return e; }
inline cudaError_t hipErrorToCudaError(cudaError_t e) { return e; }

// ---- hipSOLVER's workspace sizes: bytes on AMD (what HIP code allocates), elements of T in
// cuSOLVER's legacy API. A query's size becomes bytes as it returns (status 0 is success in
// cuSOLVER; a size past INT_MAX is CUSOLVER_STATUS_INTERNAL_ERROR, 7, as hipSOLVER reports it); a
// routine's size becomes elements as it is passed.
template <class T, class Status>
inline Status solver_lwork_bytes(Status status, int* lwork) {
  if (static_cast<int>(status) != 0 || lwork == nullptr) return status;
  const long long bytes = static_cast<long long>(*lwork) * static_cast<long long>(sizeof(T));
  if (bytes > 2147483647LL) return static_cast<Status>(7);
  *lwork = static_cast<int>(bytes);
  return status;
}
template <class T>
inline int solver_lwork_elements(long long bytes) {
  return static_cast<int>(bytes / static_cast<long long>(sizeof(T)));
}

}  // namespace cuda_compat
}  // namespace ferry
)";
  return text;
}

const std::string& vector_operators_header_text() {
  static const std::string text = [] {
    struct Base {
      const char* name;
      const char* elem;
      bool integer;
    };
    static constexpr Base bases[] = {
        {"char", "signed char", true},
        {"uchar", "unsigned char", true},
        {"short", "short", true},
        {"ushort", "unsigned short", true},
        {"int", "int", true},
        {"uint", "unsigned int", true},
        {"long", "long", true},
        {"ulong", "unsigned long", true},
        {"longlong", "long long", true},
        {"ulonglong", "unsigned long long", true},
        {"float", "float", false},
        {"double", "double", false},
    };
    static constexpr const char* comps[] = {"x", "y", "z", "w"};
    std::string t =
        "// ferry/compat_cuda_vector.h: written by Ferry's HIP -> CUDA migration (ferry migrate --to cuda).\n"
        "// HIP's vector types have arithmetic operators; CUDA's are plain structs. These are HIP's,\n"
        "// componentwise, for the files that use them. Define FERRY_NO_VECTOR_OPERATORS to leave them out\n"
        "// (when another header of the build defines the same operators).\n"
        "// Regenerated on every migration: edit the migrated code, not this file.\n"
        "#pragma once\n\n#include <cuda_runtime.h>\n\n#if !defined(FERRY_NO_VECTOR_OPERATORS)\n"
        "#define FERRY_VOP __host__ __device__ inline\n";
    for (const Base& b : bases)
      for (int n = 1; n <= 4; ++n) {
        const std::string v = std::string(b.name) + std::to_string(n);
        const std::string e = b.elem;
        std::string ops = "+-*/";
        if (b.integer) ops += "%&|^";
        t += "// " + v + "\n";
        for (char op : ops) {
          const std::string o(1, op);
          auto expr = [&](const std::string& l, const std::string& r) {
            std::string s = "make_" + v + "(";
            for (int k = 0; k < n; ++k) {
              const std::string lc = l.empty() ? "s" : l + "." + comps[k];
              const std::string rc = r.empty() ? "s" : r + "." + comps[k];
              s += std::string(k ? ", " : "") + "static_cast<" + e + ">(" + lc + " " + o + " " + rc + ")";
            }
            return s + ")";
          };
          t += "FERRY_VOP " + v + " operator" + o + "(" + v + " a, " + v + " b) { return " + expr("a", "b") + "; }\n";
          t += "FERRY_VOP " + v + " operator" + o + "(" + v + " a, " + e + " s) { return " + expr("a", "") + "; }\n";
          t += "FERRY_VOP " + v + " operator" + o + "(" + e + " s, " + v + " a) { return " + expr("", "a") + "; }\n";
          t += "FERRY_VOP " + v + "& operator" + o + "=(" + v + "& a, " + v + " b) { return a = a " + o + " b; }\n";
          t += "FERRY_VOP " + v + "& operator" + o + "=(" + v + "& a, " + e + " s) { return a = a " + o + " s; }\n";
        }
        if (std::string_view(b.name).front() != 'u') {
          t += "FERRY_VOP " + v + " operator-(" + v + " a) { return make_" + v + "(";
          for (int k = 0; k < n; ++k) t += std::string(k ? ", " : "") + "static_cast<" + e + ">(-a." + comps[k] + ")";
          t += "); }\n";
        }
      }
    t += "#undef FERRY_VOP\n#endif  // FERRY_NO_VECTOR_OPERATORS\n";
    return t;
  }();
  return text;
}

namespace {
// Writes the header `name` beside the file and includes it once, recorded as added.
void add_recorded_header(migrate::FileMigration& file, std::string_view name, std::string_view text) {
  for (const migrate::SideOutput& s : file.side_outputs())
    if (s.name == name) return;
  file.add_side_output(std::string(name), std::string(text));
  // Already included (a migrated file migrated again): the header is still written beside it.
  const std::string inc = "\"" + std::string(name) + "\"";
  for (std::size_t ci = 0; ci < file.code_size(); ++ci)
    if (file.code(ci).kind == lex::Kind::HeaderName && file.text(ci) == inc) return;
  // recorded as added, so that HIP -> CUDA -> HIP drops it (rewrite/roundtrip_record.h, to_hip)
  const std::string line = "#include " + inc + " " + std::string(rewrite::record::to_hip::kAdded) + "\n";
  // Behind a first `#include <cuda.h>` written in place (restored from a round-trip record): where
  // the first HIP -> CUDA put it, after the driver header it inserted at the top, so that
  // HIP -> CUDA -> HIP -> CUDA gives the includes in the same order.
  const std::string_view src = file.source();
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (file.code(ci).kind != lex::Kind::HeaderName) continue;
    const bool first_line = ci >= 2 && file.is(ci - 2, "#") &&
                            (ci == 2 || (ci == 5 && file.is(2, "once")) || (ci == 8 && file.is(4, "define")));
    bool driver_header = file.text(ci) == "<cuda.h>";
    file.edits().for_each_reaching(file.code(ci).begin, file.code(ci).end, [&](const rewrite::Edit& e) {
      driver_header = e.begin == file.code(ci).begin && e.replacement.starts_with("<cuda.h>");
    });
    const std::size_t nl = src.find('\n', file.code(ci).end);
    if (first_line && driver_header && nl != std::string_view::npos &&
        file.edits().insert(static_cast<std::uint32_t>(nl + 1), line))
      return;
    break;
  }
  file.insert_line_at_top(line);
}
}  // namespace

void use_side_header(migrate::FileMigration& file, std::string_view name, std::string_view text) {
  add_recorded_header(file, name, text);
}

void use_vector_operators_header(migrate::FileMigration& file) {
  add_recorded_header(file, kVectorHeaderName, vector_operators_header_text());
}

void use_compat_header_if_referenced(migrate::FileMigration& file) {
  for (const rewrite::Edit& e : file.edits().edits())
    if (e.replacement.find("ferry::cuda_compat::") != std::string::npos) {
      use_compat_header(file);
      return;
    }
}

void use_compat_header(migrate::FileMigration& file) {
  add_recorded_header(file, kCompatHeaderName, compat_header_text());
}

}  // namespace ferry::targets::cuda

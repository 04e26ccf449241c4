#include "rules/libraries.h"

namespace ferry::rules {
namespace {

// clang-format off
constexpr CudaLibrary kLibraries[] = {
  // id, name, category,
  //   families, headers, prefixes, namespaces, links,
  //   hip_link, hip_cmake_target, hip_package
  {"cuda-runtime", "CUDA runtime", "gpu-library",
     "runtime device math graph texture headers fp16 bf16 complex",
     "cuda_* device_launch_parameters.h vector_types.h driver_types.h math_constants.h cuComplex.h "
     "device_functions.h", "", "", "cudart cudart_static",
     "amdhip64", "hip::host", "hip"},
  {"cuda-driver", "CUDA driver", "gpu-library",
     "driver", "cuda.h cudaTypedefs.h", "", "", "cuda cuda_driver",
     "amdhip64", "hip::host", "hip"},
  {"cublaslt", "cuBLASLt", "gpu-library",
     "cublaslt", "cublasLt*", "cublasLt CUBLASLT_", "", "cublasLt",
     "hipblaslt", "roc::hipblaslt", "hipblaslt"},
  {"cublas", "cuBLAS", "gpu-library",
     "cublas", "cublas*", "cublas CUBLAS_", "", "cublas",
     "hipblas", "roc::hipblas", "hipblas"},
  {"cudnn", "cuDNN", "gpu-library",
     "cudnn", "cudnn*", "cudnn CUDNN_", "", "cudnn",
     "MIOpen", "MIOpen", "miopen"},
  {"cufft", "cuFFT", "gpu-library",
     "cufft", "cufft*", "cufft CUFFT_", "", "cufft",
     "hipfft", "hip::hipfft", "hipfft"},
  {"curand", "cuRAND", "gpu-library",
     "curand curand_device", "curand*", "curand CURAND_", "", "curand",
     "hiprand", "hip::hiprand", "hiprand"},
  {"cusparse", "cuSPARSE", "gpu-library",
     "cusparse", "cusparse*", "cusparse CUSPARSE_", "", "cusparse",
     "hipsparse", "roc::hipsparse", "hipsparse"},
  {"cusolver", "cuSOLVER", "gpu-library",
     "cusolver", "cusolver*", "cusolver CUSOLVER_", "", "cusolver",
     "hipsolver", "roc::hipsolver", "hipsolver"},
  {"nccl", "NCCL", "gpu-library",
     "nccl", "nccl.h nccl_net.h", "nccl NCCL_", "", "nccl",
     "rccl", "roc::rccl", "rccl"},
  {"cub", "CUB", "gpu-library",
     "cub", "cub/*", "", "cub", "", "", "", ""},
  {"thrust", "Thrust", "gpu-library",
     "thrust", "thrust/*", "", "thrust", "", "", "", ""},
  {"nvrtc", "NVRTC", "gpu-library",
     "nvrtc", "nvrtc*", "nvrtc NVRTC_", "", "nvrtc", "", "", ""},
  {"cooperative-groups", "cooperative groups", "gpu-library",
     "coop_groups", "cooperative_groups*", "", "cooperative_groups", "", "", "", ""},
  {"wmma", "WMMA (mma.h)", "gpu-library",
     "", "mma.h", "", "nvcuda", "", "", "", ""},
  {"libcudacxx", "libcu++ (cuda::)", "gpu-library",
     "", "cuda/*", "", "cuda", "", "", "", ""},
  {"nvtx", "NVTX", "gpu-library",
     "", "nvToolsExt* nvtx3/*", "", "", "nvToolsExt",
     "roctx64", "roctx64", ""},
  {"nvml", "NVML", "gpu-library",
     "", "nvml.h", "", "", "", "", "", ""},
  {"cutlass", "CUTLASS", "gpu-library",
     "", "cutlass/* cute/*", "", "", "", "", "", ""},
  {"hip-runtime", "HIP runtime", "gpu-library",
     "", "hip/*", "", "", "", "", "", ""},
  {"pytorch-cpp", "PyTorch C++ extension (torch/extension.h, ATen)", "framework",
     "", "torch/* ATen/* c10/*", "", "", "", "", "", ""},
  {"pytorch", "PyTorch (Python, CUDA device use)", "framework", "", "", "", "", "", "", "", ""},
  {"cupy", "CuPy", "framework", "", "", "", "", "", "", "", ""},
  {"pycuda", "PyCUDA", "framework", "", "", "", "", "", "", "", ""},
  {"triton", "Triton", "framework", "", "", "", "", "", "", "", ""},
  {"numba-cuda", "Numba CUDA", "framework", "", "", "", "", "", "", "", ""},
};
// clang-format on

// Calls f(word) for each space-separated word of list until f returns true.
template <class F>
bool any_word(std::string_view list, F f) {
  while (!list.empty()) {
    const std::size_t sp = list.find(' ');
    const std::string_view w = list.substr(0, sp);
    if (!w.empty() && f(w)) return true;
    if (sp == std::string_view::npos) break;
    list.remove_prefix(sp + 1);
  }
  return false;
}

}  // namespace

std::span<const CudaLibrary> cuda_libraries() { return kLibraries; }

bool in_list(std::string_view list, std::string_view word) {
  return any_word(list, [&](std::string_view w) { return w == word; });
}

const CudaLibrary* find_library(std::string_view id) {
  for (const CudaLibrary& l : kLibraries)
    if (l.id == id) return &l;
  return nullptr;
}

const CudaLibrary* library_of_header(std::string_view path) {
  for (const CudaLibrary& l : kLibraries)
    if (in_list(l.headers, path)) return &l;
  const CudaLibrary* best = nullptr;
  std::size_t best_len = 0;
  for (const CudaLibrary& l : kLibraries)
    any_word(l.headers, [&](std::string_view w) {
      if (w.back() != '*') return false;
      const std::string_view p = w.substr(0, w.size() - 1);
      if (path.substr(0, p.size()) == p && p.size() > best_len) best = &l, best_len = p.size();
      return false;
    });
  return best;
}

const CudaLibrary& library_of_family(std::string_view family) {
  for (const CudaLibrary& l : kLibraries)
    if (in_list(l.families, family)) return l;
  return kLibraries[0];  // the runtime: every family no row claims
}

const CudaLibrary* library_of_link(std::string_view name) {
  for (const CudaLibrary& l : kLibraries)
    if (in_list(l.links, name)) return &l;
  return nullptr;
}

const CudaLibrary* library_of_namespace(std::string_view ns) {
  for (const CudaLibrary& l : kLibraries)
    if (in_list(l.namespaces, ns)) return &l;
  return nullptr;
}

}  // namespace ferry::rules

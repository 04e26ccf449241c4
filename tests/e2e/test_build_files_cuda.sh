#!/usr/bin/env bash
# HIP -> CUDA build files (docs/build-files.md, "The other way"), really built with nvcc:
#   1. examples/hip_native (a hipcc Makefile, hipBLAS) migrated with --to cuda, built with make;
#   2. a HIP-language CMake project (written here) migrated, configured and built with CMake's CUDA;
#   3. CUDA -> HIP -> CUDA gives back the CUDA build files byte for byte (make_saxpy, cmake_vector_add);
#   4. a hipcc Makefile (written here) whose recipes name a .cpp kernel file through a variable and
#      compile a source and link a static device library in one command, migrated and built;
#   5. CMake projects (written here) compiled by ROCm's clang: as CMAKE_CXX_COMPILER with hip::device
#      and hiprtc-builtins, as CMAKE_HIP_COMPILER, and FindHIP's hip_add_executable, migrated,
#      configured and built with CMake's CUDA language.
set -euo pipefail
FERRY=${FERRY:?path to the ferry binary}
ROOT=${FERRY_ROOT:?source root}
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ ! -x "$NVCC" ]; then
  echo "SKIP: nvcc is not installed" >&2
  exit 77
fi
export PATH="$(dirname "$NVCC"):$PATH"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# ---- 1. Makefile
"$FERRY" migrate "$ROOT/examples/hip_native" --from hip --to cuda -o "$T/make" > "$T/mk.txt" 2>&1 ||
  fail "migrate: $(cat "$T/mk.txt")"
grep -q 'FRY5003' "$T/mk.txt" || fail "no build-file note: $(cat "$T/mk.txt")"
! grep -v '^\s*#' "$T/make/Makefile" | grep -qE 'hipcc|offload-arch|-lhipblas' ||
  fail "HIP toolchain words left: $(cat "$T/make/Makefile")"
make -C "$T/make" > "$T/make-build.txt" 2>&1 || fail "make: $(tail -40 "$T/make-build.txt")"
grep -q 'nvcc .*-arch=sm_90' "$T/make-build.txt" || fail "not nvcc for sm_90: $(cat "$T/make-build.txt")"
[ -x "$T/make/build/hip_native_test" ] || fail "no binary: $(ls -R "$T/make")"
echo "ok: migrated hipcc Makefile built with nvcc"

# ---- 2. CMake, HIP language
mkdir -p "$T/hipcm"
cat > "$T/hipcm/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.21)
project(scale LANGUAGES CXX HIP)
set(CMAKE_HIP_ARCHITECTURES gfx906)
find_package(hip REQUIRED)
add_executable(scale main.hip)
target_link_libraries(scale PRIVATE hip::device)
CM
cat > "$T/hipcm/main.hip" <<'SRC'
#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void scale(float* x, float a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
int main() {
  float* d = nullptr;
  if (hipMalloc(&d, 256 * sizeof(float)) != hipSuccess) return 1;
  hipLaunchKernelGGL(scale, dim3(1), dim3(256), 0, 0, d, 2.0f, 256);
  std::printf("%s\n", hipGetErrorString(hipDeviceSynchronize()));
  hipFree(d);
  return 0;
}
SRC
"$FERRY" migrate "$T/hipcm" --from hip --to cuda -o "$T/cm" > "$T/cm.txt" 2>&1 || fail "migrate: $(cat "$T/cm.txt")"
grep -q 'LANGUAGES CXX CUDA' "$T/cm/CMakeLists.txt" || fail "no CUDA language: $(cat "$T/cm/CMakeLists.txt")"
cmake -S "$T/cm" -B "$T/cm/build" > "$T/cm-configure.txt" 2>&1 || fail "configure: $(tail -30 "$T/cm-configure.txt")"
cmake --build "$T/cm/build" -v > "$T/cm-build.txt" 2>&1 || fail "build: $(tail -40 "$T/cm-build.txt")"
grep -q 'sm_90\|compute_90' "$T/cm-build.txt" || fail "not compiled for sm_90: $(grep nvcc "$T/cm-build.txt")"
[ -x "$T/cm/build/scale" ] || fail "no scale binary"
echo "ok: migrated HIP-language CMake project built with CMake's CUDA language"

# ---- 3. CUDA -> HIP -> CUDA restores the CUDA build files
for ex in make_saxpy cmake_vector_add; do
  "$FERRY" migrate "$ROOT/examples/$ex" -o "$T/$ex-hip" -q > /dev/null 2>&1 || fail "$ex: migrate to hip"
  "$FERRY" migrate "$T/$ex-hip" --from hip --to cuda -o "$T/$ex-cuda" -q > /dev/null 2>&1 || fail "$ex: migrate back"
  for f in Makefile CMakeLists.txt; do
    [ -f "$ROOT/examples/$ex/$f" ] || continue
    cmp -s "$ROOT/examples/$ex/$f" "$T/$ex-cuda/$f" ||
      fail "$ex/$f: CUDA -> HIP -> CUDA changed it: $(diff "$ROOT/examples/$ex/$f" "$T/$ex-cuda/$f")"
  done
done
echo "ok: CUDA -> HIP -> CUDA restores the build files exactly"

# ---- 4. sources through a variable, a source and a .a in one command
mkdir -p "$T/mixed"
cat > "$T/mixed/Makefile" <<'MK'
HIPCC ?= /opt/rocm/bin/hipcc
SOURCES = kernels.cpp
all: app linked
app:
	$(HIPCC) -O2 $(SOURCES) -o $@
libdev.a: dev.hip
	$(HIPCC) -fgpu-rdc -c $< -o dev.o && ar rcs $@ dev.o
linked: main.hip libdev.a
	$(HIPCC) -fgpu-rdc -o $@ libdev.a $<
MK
cat > "$T/mixed/kernels.cpp" <<'SRC'
#include <hip/hip_runtime.h>
__global__ void k(int* p) { *p = 1; }
int main() {
  int* d = nullptr;
  if (hipMalloc(&d, sizeof(int)) != hipSuccess) return 0;
  hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, d);
  return hipFree(d) == hipSuccess ? 0 : 1;
}
SRC
cat > "$T/mixed/dev.hip" <<'SRC'
#include <hip/hip_runtime.h>
__device__ int twice(int x) { return 2 * x; }
SRC
cat > "$T/mixed/main.hip" <<'SRC'
#include <hip/hip_runtime.h>
__device__ int twice(int x);
__global__ void k(int* p) { *p = twice(*p); }
int main() {
  int* d = nullptr;
  if (hipMalloc(&d, sizeof(int)) != hipSuccess) return 0;
  k<<<1, 1>>>(d);
  return hipFree(d) == hipSuccess ? 0 : 1;
}
SRC
"$FERRY" migrate "$T/mixed" --from hip --to cuda -o "$T/mixed-cuda" > "$T/mixed.txt" 2>&1 ||
  fail "migrate: $(cat "$T/mixed.txt")"
make -C "$T/mixed-cuda" > "$T/mixed-build.txt" 2>&1 || fail "make: $(tail -40 "$T/mixed-build.txt") $(cat "$T/mixed-cuda/Makefile")"
[ -x "$T/mixed-cuda/app" ] && [ -x "$T/mixed-cuda/linked" ] || fail "no binaries: $(ls "$T/mixed-cuda")"
echo "ok: .cpp kernels named through a variable and a source linked with a .a, built with nvcc"

# ---- 5. ROCm's clang as the compiler; FindHIP's legacy commands
cat > "$T/kern.cpp" <<'SRC'
#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void twice(int* x) { x[threadIdx.x] *= 2; }
int main() {
  int* d = nullptr;
  if (hipMalloc(&d, 64 * sizeof(int)) != hipSuccess) return 1;
  hipLaunchKernelGGL(twice, dim3(1), dim3(64), 0, 0, d);
  std::printf("%s\n", hipGetErrorString(hipDeviceSynchronize()));
  return hipFree(d) == hipSuccess ? 0 : 1;
}
SRC
mkdir -p "$T/clangcxx" "$T/hiplang" "$T/findhip"
cp "$T/kern.cpp" "$T/clangcxx/kern.cpp"
cp "$T/kern.cpp" "$T/hiplang/kern.hip"
cp "$T/kern.cpp" "$T/findhip/kern.cpp"
cat > "$T/clangcxx/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.21)
project(clangcxx LANGUAGES CXX)
set(ROCM_PATH /opt/rocm)
set(CMAKE_CXX_COMPILER "${ROCM_PATH}/llvm/bin/clang++")
find_package(hip REQUIRED)
add_executable(twice kern.cpp)
target_link_libraries(twice PRIVATE hip::device)
if(NOT BUILD_SHARED_LIBS)
  target_link_libraries(twice PRIVATE hiprtc-builtins)
endif()
CM
cat > "$T/hiplang/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.21)
set(ROCM_PATH /opt/rocm)
set(CMAKE_HIP_COMPILER_ROCM_ROOT ${ROCM_PATH})
set(CMAKE_HIP_COMPILER ${ROCM_PATH}/llvm/bin/clang++)
project(hiplang LANGUAGES HIP)
add_executable(twice kern.hip)
CM
cat > "$T/findhip/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
set(CMAKE_MODULE_PATH /opt/rocm/lib/cmake/hip ${CMAKE_MODULE_PATH})
project(findhip)
find_package(HIP)
if(NOT HIP_FOUND)
  message(FATAL_ERROR "no HIP")
endif()
set_source_files_properties(kern.cpp PROPERTIES HIP_SOURCE_PROPERTY_FORMAT 1)
hip_add_executable(twice kern.cpp HIPCC_OPTIONS -O2 NVCC_OPTIONS -lineinfo)
CM
for p in clangcxx hiplang findhip; do
  "$FERRY" migrate "$T/$p" --from hip --to cuda -o "$T/$p-cuda" > "$T/$p.txt" 2>&1 || fail "migrate $p: $(cat "$T/$p.txt")"
  cmake -S "$T/$p-cuda" -B "$T/$p-cuda/build" > "$T/$p-configure.txt" 2>&1 ||
    fail "configure $p: $(tail -30 "$T/$p-configure.txt") $(cat "$T/$p-cuda/CMakeLists.txt")"
  cmake --build "$T/$p-cuda/build" > "$T/$p-build.txt" 2>&1 || fail "build $p: $(tail -40 "$T/$p-build.txt")"
  [ -x "$T/$p-cuda/build/twice" ] || fail "no binary for $p: $(ls "$T/$p-cuda/build")"
done
echo "ok: CMake projects compiled by ROCm's clang (C++ compiler, HIP compiler, FindHIP) built with CMake's CUDA"
echo PASS

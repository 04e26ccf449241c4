#!/usr/bin/env bash
# Build files (docs/build-files.md): the CMake example (examples/cmake_vector_add, CUDA language,
# CUDAToolkit, cuRAND) and the Makefile example (examples/make_saxpy, nvcc, -gencode, nvcc-only
# flags) are migrated and then really configured and built with Debian's hipcc for gfx906.
set -euo pipefail
FERRY=${FERRY:?path to the ferry binary}
ROOT=${FERRY_ROOT:?source root}
if ! command -v hipcc >/dev/null || [ ! -f /usr/lib/x86_64-linux-gnu/cmake/hip/hip-config.cmake ]; then
  echo "SKIP: hipcc or the hip CMake package (Debian: hipcc, libamdhip64-dev) is not installed" >&2
  exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# ---- CMake
"$FERRY" migrate "$ROOT/examples/cmake_vector_add" -o "$T/cmake" --arch gfx906 > "$T/cm.txt" 2>&1 ||
  fail "migrate: $(cat "$T/cm.txt")"
grep -q 'FRY5003' "$T/cm.txt" || fail "no build-file note: $(cat "$T/cm.txt")"
grep -q 'find_package(hip REQUIRED)' "$T/cmake/CMakeLists.txt" || fail "no find_package(hip)"
grep -q 'find_package(hiprand REQUIRED)' "$T/cmake/CMakeLists.txt" || fail "no find_package(hiprand)"
! grep -v '^\s*#' "$T/cmake/CMakeLists.txt" | grep -q 'CUDA::' || fail "CUDA:: targets left"
cmake -S "$T/cmake" -B "$T/cmake/build" -G Ninja > "$T/cmake-configure.txt" 2>&1 ||
  fail "configure: $(tail -30 "$T/cmake-configure.txt")"
cmake --build "$T/cmake/build" -v > "$T/cmake-build.txt" 2>&1 || fail "build: $(tail -40 "$T/cmake-build.txt")"
grep -q -- '--offload-arch=gfx906' "$T/cmake-build.txt" || fail "not compiled for gfx906"
[ -x "$T/cmake/build/vector_add" ] || fail "no vector_add binary"
grep -qa 'gfx906' "$T/cmake/build/vector_add" || fail "the binary holds no gfx906 code object"
echo "ok: migrated CMake project configured and built for gfx906"

# ---- Makefile
"$FERRY" migrate "$ROOT/examples/make_saxpy" -o "$T/make" --arch gfx906 > "$T/mk.txt" 2>&1 ||
  fail "migrate: $(cat "$T/mk.txt")"
grep -q 'FRY5002' "$T/mk.txt" || fail "no dropped-flag diagnostics: $(cat "$T/mk.txt")"
! grep -qE 'nvcc|-gencode|sm_[0-9]|-Xcompiler|--expt' <(grep -v '^#' "$T/make/Makefile" | sed 's/#.*//') ||
  fail "CUDA toolchain words left: $(cat "$T/make/Makefile")"
make -C "$T/make" > "$T/make-build.txt" 2>&1 || fail "make: $(tail -40 "$T/make-build.txt")"
grep -q 'hipcc .*--offload-arch=gfx906' "$T/make-build.txt" || fail "not hipcc for gfx906: $(cat "$T/make-build.txt")"
grep -qa 'gfx906' "$T/make/saxpy" || fail "the binary holds no gfx906 code object"
echo "ok: migrated Makefile project built for gfx906"
echo PASS

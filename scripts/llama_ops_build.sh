#!/usr/bin/env bash
# Builds what the GPU runs of examples/llama_ops need, on any machine with nvcc (no GPU needed):
#   BIN_DIR/orig/libllama_ops_capi.so   examples/llama_ops as written (`make capi`)
#   BIN_DIR/rt/libllama_ops_capi.so     its CUDA -> HIP -> CUDA round trip by ferry, built with the
#                                       original Makefile (the migrated one calls hipcc)
#   BIN_DIR/ferry, BIN_DIR/libfmt.so.9  ferry (for opcheck) and the one library it needs beyond libc
#   BIN_DIR/libferry_comm.a, libferry_comm_cuda.a, libzfp.so.1, libzstd.so.1, libcudart.so.13
#                                       for scripts/gpu_llama_train.sh, when build/comm has them
#                                       (cmake --build build --target ferry_comm_python)
# Usage: scripts/llama_ops_build.sh BIN_DIR
# Environment: FERRY (default build/ferry), BUILD (the ferry build folder, default build), NVCC,
#   ARCH (default sm_90), JOBS (default nproc).
set -u -o pipefail
die() { echo "llama_ops_build: $*" >&2; exit 2; }
[ $# -eq 1 ] || die "usage: $0 BIN_DIR"
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
ferry=${FERRY:-$build/ferry}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
arch=${ARCH:-sm_90}
jobs=${JOBS:-$(nproc)}
[ -x "$ferry" ] || die "no ferry binary at $ferry (cmake --build build --target ferry)"
[ -x "$nvcc" ] || die "nvcc not found (set NVCC)"
mkdir -p "$1" || die "cannot create $1"
bin=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$root/examples/llama_ops
cp -a "$src" "$work/orig" && rm -rf "$work/orig/build"
"$ferry" migrate "$work/orig" --to hip -o "$work/hip" -q >"$bin/migrate.log" 2>&1 || [ $? -eq 1 ] || die "ferry migrate --to hip failed (migrate.log)"
"$ferry" migrate "$work/hip" --from hip --to cuda -o "$work/rt" -q >>"$bin/migrate.log" 2>&1 || [ $? -eq 1 ] || die "ferry migrate --to cuda failed (migrate.log)"
cp "$src/Makefile" "$work/rt/Makefile"
cuda_home=$(dirname "$(dirname "$nvcc")")
for side in orig rt; do
  echo "llama_ops_build: building $side" >&2
  make -C "$work/$side" -j "$jobs" capi NVCC="$nvcc" ARCH="-arch=$arch" CUDA_HOME="$cuda_home" >"$bin/build-$side.log" 2>&1 ||
    die "make capi failed for $side (build-$side.log)"
  mkdir -p "$bin/$side" && cp "$work/$side/build/libllama_ops_capi.so" "$bin/$side/"
done
cp "$ferry" "$bin/ferry"
fmt=$(ldd "$ferry" | awk '/libfmt/ {print $3}')
[ -n "$fmt" ] && cp -L "$fmt" "$bin/"
for f in "$build/comm/libferry_comm.a" "$build/comm/cuda/libferry_comm_cuda.a"; do
  [ -f "$f" ] && cp "$f" "$bin/"
done
if [ -f "$bin/libferry_comm.a" ]; then
  for l in libzfp.so.1 libzstd.so.1; do
    cp -L "/usr/lib/x86_64-linux-gnu/$l" "$bin/" 2>/dev/null || echo "llama_ops_build: no $l" >&2
  done
  cp -L "$cuda_home/lib64/libcudart.so.13" "$bin/" 2>/dev/null || echo "llama_ops_build: no libcudart.so.13" >&2
fi
ls -la "$bin" "$bin/orig" "$bin/rt" >&2

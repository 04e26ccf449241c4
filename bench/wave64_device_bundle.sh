#!/usr/bin/env bash
# Make a self-contained bundle that runs `ferry diffrun --wave64 --suite` over corpora on another
# machine (issue 31: the 16-core device, no internet, another distribution and g++):
#
#   bench/wave64_device_bundle.sh FERRY_PREFIX OUTDIR CORPUS...
#   OUT=DIR BUDGET=500 bash OUTDIR/run.sh          # on the other machine
#
# FERRY_PREFIX is a `cmake --install BUILD --prefix DIR` of ferry (bin/ferry beside the wave64
# runtime's lib/ferry/wave64). A CORPUS is a checkout (a folder); one that is absent is skipped
# with a note. OUTDIR gets:
#   run.sh                 bench/wave64_device_run.sh (what it does and writes: its header)
#   wave64_suite_pool.py   the pool it runs
#   sizes.txt              bench/wave64_suite_sizes.txt, the per-folder size options
#   smoke.cu               a warp-sum program the runtime must build and run before the pool starts
#   ferry.tar.gz           prefix/ (the install), lib/ (ferry's shared libraries other than the C and
#                          C++ runtimes), lib-fallback/ (this machine's libstdc++ and libgcc_s, used
#                          only where ferry does not start without them), devlib/ + devinclude/
#                          (boost.context, Google Test and Google Benchmark of this machine with
#                          their headers, for the programs' builds), MANIFEST.txt
#   corpora.tar.xz         the corpora: every source, header and build file (up to 4 MiB), and the
#                          other files of the folders the pool lists and of their data/ folders
#                          (inputs and reference outputs), documents and pictures left out
#   corpora.txt            the corpus names, in the order given
# Nothing fetched is written anywhere but OUTDIR.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 FERRY_PREFIX OUTDIR CORPUS..." >&2
  exit 2
fi
P=$(cd "$1" && pwd)
O=$2
shift 2
[ -x "$P/bin/ferry" ] || {
  echo "no ferry at $P/bin/ferry (give a \`cmake --install\` prefix)" >&2
  exit 2
}
[ -d "$P/lib/ferry/wave64" ] || {
  echo "no wave64 runtime at $P/lib/ferry/wave64" >&2
  exit 2
}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$O"
O=$(cd "$O" && pwd)
S=$(mktemp -d)
trap 'rm -rf "$S"' EXIT

# ---- ferry.tar.gz
cp -a "$P" "$S/prefix"
mkdir -p "$S/lib" "$S/lib-fallback" "$S/devlib" "$S/devinclude"
ldd "$P/bin/ferry" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | while read -r name path; do
  case "$name" in
  libc.so.* | libm.so.* | libpthread.so.* | libdl.so.* | librt.so.* | ld-linux* | libz.so.*) ;;
  libstdc++.so.* | libgcc_s.so.*) cp -L "$path" "$S/lib-fallback/$name" ;;
  *) cp -L "$path" "$S/lib/$name" ;;
  esac
done
triple=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
for d in "/usr/lib/$triple" /usr/lib /usr/local/lib; do
  for f in libboost_context.a libgtest.a libgtest_main.a libgmock.a libgmock_main.a libbenchmark_main.a \
    libbenchmark.a libbenchmark.so; do
    # A library and the chain of links behind it (libbenchmark.so -> .so.1debian -> .so.1.7.1).
    while [ -e "$d/$f" ] && [ ! -e "$S/devlib/$f" ]; do
      cp -P "$d/$f" "$S/devlib/$f"
      [ -L "$d/$f" ] || break
      f=$(readlink "$d/$f")
      case "$f" in */*) break ;; esac
    done
  done
done
for h in gtest gmock benchmark; do
  [ -d "/usr/include/$h" ] && cp -a "/usr/include/$h" "$S/devinclude/"
done
{
  echo "made $(date -u +%FT%TZ) on $(uname -srm), $(g++ --version | head -1)"
  echo "ferry: $("$P/bin/ferry" --version 2>&1 | head -1)"
  echo "lib: $(ls "$S/lib" | tr '\n' ' ')"
  echo "devlib: $(ls "$S/devlib" | tr '\n' ' ')"
  echo "devinclude: $(ls "$S/devinclude" | tr '\n' ' ')"
} >"$S/MANIFEST.txt"
tar -czf "$O/ferry.tar.gz" -C "$S" prefix lib lib-fallback devlib devinclude MANIFEST.txt

# ---- corpora.tar.xz
: >"$O/corpora.txt"
: >"$S/files.txt"
for c in "$@"; do
  if [ ! -d "$c" ]; then
    echo "skip: corpus $c is absent" >&2
    continue
  fi
  c=$(cd "$c" && pwd)
  name=$(basename "$c")
  ln -sfn "$c" "$S/$name"
  echo "$name" >>"$O/corpora.txt"
  python3 - "$HERE" "$c" "$name" >>"$S/files.txt" <<'EOF'
import os, sys
sys.path.insert(0, sys.argv[1])
import wave64_suite_pool as pool
root, name = sys.argv[2], sys.argv[3]
keep_dirs = [os.path.join(root, f) if f != "." else root for f in pool.list_folders(root)]
SRC = (".cu", ".cuh", ".hip", ".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx", ".inl", ".inc",
       ".cmake", ".mk", ".sh", ".py", ".json")
DOC = (".doc", ".docx", ".pdf", ".ppt", ".pptx", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".md", ".html",
       ".excalidraw", ".ipynb", ".dll", ".lib", ".exe", ".sln", ".vcxproj", ".filters")
def wanted(d, f, p):
    if f in ("Makefile", "makefile", "GNUmakefile", "CMakeLists.txt") or f.endswith(SRC) and os.path.getsize(p) <= 4 << 20:
        return True
    if f.lower().endswith(DOC):
        return False
    # A listed program's own files and its data/ folder: inputs it reads and references it checks against.
    for k in keep_dirs:
        if d == k or (d.startswith(k + os.sep) and os.path.relpath(d, k).split(os.sep)[0] == "data"):
            return True
    return False
for d, dirs, files in os.walk(root):
    dirs[:] = sorted(x for x in dirs if x != ".git")
    for f in sorted(files):
        p = os.path.join(d, f)
        if not os.path.islink(p) and os.path.isfile(p) and wanted(d, f, p):
            print(os.path.join(name, os.path.relpath(p, root)))
EOF
done
[ -s "$O/corpora.txt" ] || {
  echo "no corpus found" >&2
  exit 2
}
tar -cf - -C "$S" --dereference -T "$S/files.txt" | xz -6 -T2 >"$O/corpora.tar.xz"

# ---- the scripts
cp "$HERE/wave64_device_run.sh" "$O/run.sh"
cp "$HERE/wave64_suite_pool.py" "$O/wave64_suite_pool.py"
cp "$HERE/wave64_suite_sizes.txt" "$O/sizes.txt"
cat >"$O/smoke.cu" <<'EOF'
// The bundle's smoke test: one warp sum per block with shuffles and a barrier (wave64_device_bundle.sh).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void warp_sums(const int* in, int* out) {
  __shared__ int partial[32];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < blockDim.x / warpSize; ++w) s += partial[w];
    out[blockIdx.x] = s;
  }
}

int main() {
  const int blocks = 4, threads = 256, n = blocks * threads;
  int h[n], r[blocks];
  for (int i = 0; i < n; ++i) h[i] = i % 7;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h);
  cudaMalloc(&d_out, sizeof r);
  cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
  warp_sums<<<blocks, threads>>>(d_in, d_out);
  cudaMemcpy(r, d_out, sizeof r, cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) {
    int want = 0;
    for (int i = 0; i < threads; ++i) want += h[b * threads + i];
    if (r[b] != want) {
      std::printf("smoke: FAILED block %d: %d, expected %d\n", b, r[b], want);
      return 1;
    }
  }
  std::printf("smoke: ok (%d blocks of %d threads)\n", blocks, threads);
  return 0;
}
EOF
echo "bundle: $O ($(du -sh "$O" | cut -f1)): $(tr '\n' ' ' <"$O/corpora.txt")"
ls -la "$O"

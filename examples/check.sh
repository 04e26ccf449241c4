#!/usr/bin/env bash
# Compile-checks the examples with the toolchains found on this machine and
# states the expected outcome of each broken/ case. No GPU needed.
#   examples/check.sh            (from anywhere)
set -u
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
HIPCC=${HIPCC:-hipcc}
fail=0
ok()  { printf 'ok    %s\n' "$1"; }
bad() { printf 'FAIL  %s\n' "$1"; fail=1; }
skip(){ printf 'skip  %s\n' "$1"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if [ -x "$NVCC" ] || command -v "$NVCC" >/dev/null 2>&1; then
    if make -s -C llama_ops NVCC="$NVCC" >"$tmp/llama.log" 2>&1; then ok "llama_ops (make, sm_90)"
    else bad "llama_ops (make)"; cat "$tmp/llama.log"; fi
    "$NVCC" -arch=sm_90 broken/no_hip_equivalent/kernel.cu -o "$tmp/a" >/dev/null 2>&1 \
        && ok "broken/no_hip_equivalent compiles with nvcc" || bad "broken/no_hip_equivalent should compile with nvcc"
    "$NVCC" -arch=sm_90 broken/missing_hip_library/kernel.cu -o "$tmp/b" -lcublas >/dev/null 2>&1 \
        && ok "broken/missing_hip_library compiles with nvcc" || bad "broken/missing_hip_library should compile with nvcc"
    "$NVCC" -arch=sm_90 -c broken/typo/kernel.cu -o "$tmp/c.o" >/dev/null 2>&1 \
        && bad "broken/typo should NOT compile" || ok "broken/typo fails with nvcc, as intended"
else
    skip "nvcc not found ($NVCC)"
fi

if command -v "$HIPCC" >/dev/null 2>&1; then
    for f in kernels.cpp main.cpp; do
        if "$HIPCC" --offload-arch=gfx906 -std=c++17 -O2 -c "hip_native/$f" -o "$tmp/$f.o" \
            >"$tmp/hip.log" 2>&1; then ok "hip_native/$f (hipcc gfx906)"
        else bad "hip_native/$f"; grep -v rocm_agent_enumerator "$tmp/hip.log"; fi
    done
    if [ -e /usr/include/hipblas/hipblas.h ] || [ -e /opt/rocm/include/hipblas/hipblas.h ]; then
        "$HIPCC" --offload-arch=gfx906 -std=c++17 -c hip_native/gemm_hipblas.cpp -o "$tmp/g.o" \
            >/dev/null 2>&1 && ok "hip_native/gemm_hipblas.cpp" || bad "hip_native/gemm_hipblas.cpp"
    else
        skip "hip_native/gemm_hipblas.cpp (no hipBLAS installed)"
    fi
else
    skip "hipcc not found"
fi
exit $fail

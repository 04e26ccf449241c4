#!/usr/bin/env bash
# Issue 30: the tensor-core (WMMA) FlashAttention forward and backward and the decode kernels
# (contiguous and paged KV cache) of examples/llama_ops, carried to HIP/rocWMMA by Ferry, checked
# without a GPU:
#   1. the CUDA original on the wave64 CPU runtime at warp 32 (tests/kernels/flash_wmma_check.cu:
#      fp16 forward and backward with tail tiles, causal, GQA, d = 64 and 128, decode over a
#      contiguous and a paged cache, against float64);
#   2. `ferry migrate --to hip` turns the WMMA path into rocWMMA (header, namespace, bf16 fragments
#      as rocwmma::bfloat16_t) and the port, built with -DLLAMA_OPS_WMMA=1, passes the same checks
#      at 64 lanes (the runtime models fragments collectively; it has no bf16 WMMA, so
#      -DLLAMA_OPS_WMMA_BF16=0 there);
#   3. the HIP -> CUDA way back gives the WMMA (forward, backward) and decode headers back byte for
#      byte;
#   4. `ferry analyze --target gfx90a` reports no hazard in the FlashAttention files;
#   5. when ROCM_HEADERS names an include folder with rocwmma/ (scripts/rocm-headers.sh) and hipcc
#      is installed, the port compiles for gfx90a (and gfx942 where hipcc knows it, else gfx940 of
#      the same family, where the rocWMMA headers know it) against the real
#      rocWMMA headers, fp16 and bf16 fragments (else: said, skipped).
# FLASH_WMMA_FULL=1 runs every case of flash_wmma_check.cu instead of --quick (slower).
set -u
FERRY=${FERRY:?set FERRY to the ferry binary}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

src=$ROOT/examples/llama_ops
mkdir -p "$work/cuda/src" "$work/cuda/tests"
cp -r "$src/include" "$work/cuda/"
cp "$src/src/flash_attention.cu" "$work/cuda/src/"
cp "$ROOT/tests/kernels/flash_wmma_check.cu" "$work/cuda/tests/"

quick=--quick
[[ -n "${FLASH_WMMA_FULL:-}" ]] && quick=
run() {  # run NAME TREE [wave64 run args]: the program's output; its exit code
  local name=$1 tree=$2
  shift 2
  (cd "$work/$tree" && timeout 300 "$FERRY" wave64 run src/flash_attention.cu tests/flash_wmma_check.cu -I include \
    --work "$work/$name.w64" -j 2 "$@" ${quick:+--args --quick} 2>"$work/$name.err")
}
expect_pass() {  # expect_pass LABEL OUTPUT RC WARP
  local label=$1 out=$2 rc=$3 warp=$4
  if [[ $rc -ne 0 ]] || ! grep -q "^PATH wmma WARP $warp$" <<<"$out" || ! grep -q '^PASS failures=0' <<<"$out"; then
    fail "$label (exit $rc)"; grep -v '^OP .* PASS' <<<"$out" | head -20; tail -20 "$work/${5:-x}.err" 2>/dev/null
  else
    echo "ok   $label: $(grep -c '^OP .* PASS' <<<"$out") checks PASS"
  fi
}

out=$(run ref cuda); rc=$?
expect_pass "CUDA original (WMMA) at warp 32" "$out" $rc 32 ref

"$FERRY" migrate "$work/cuda" --to hip --hip-version 5.2 -o "$work/hip" >/dev/null 2>"$work/migrate.log" ||
  [ $? -eq 1 ] || { tail -20 "$work/migrate.log"; fail "migrate --to hip"; }
h=$work/hip/include/llama_ops/kernels/flash_attention_wmma.cuh
grep -q '#include <rocwmma/rocwmma.hpp>' "$h" || fail "the port does not include rocwmma/rocwmma.hpp"
grep -q 'nvcuda' "$h" && fail "nvcuda:: left in the port: $(grep -n nvcuda "$h" | head -3)"
[[ $(grep -c 'rocwmma::bfloat16_t' "$h") -ge 3 ]] || fail "bf16 fragments are not rocwmma::bfloat16_t"
grep -q 'rocwmma::mma_sync' "$h" || fail "no rocwmma::mma_sync in the port"
[[ $fails -eq 0 ]] && echo "ok   migrate --to hip: rocWMMA header, namespace and bf16 fragments"

out=$(run hip hip -D LLAMA_OPS_WMMA=1 -D LLAMA_OPS_WMMA_BF16=0); rc=$?
expect_pass "HIP port (rocWMMA) at wave 64" "$out" $rc 64 hip

"$FERRY" migrate "$work/hip" --from hip --to cuda -o "$work/rt" >/dev/null 2>"$work/back.log" ||
  [ $? -eq 1 ] || { tail -20 "$work/back.log"; fail "migrate --to cuda"; }
for f in include/llama_ops/kernels/flash_attention_wmma.cuh include/llama_ops/kernels/flash_backward_wmma.cuh \
         include/llama_ops/kernels/flash_decode.cuh include/llama_ops/kernels/flash_attention.cuh \
         include/llama_ops/flash_attention.h; do
  cmp -s "$work/cuda/$f" "$work/rt/$f" || { fail "round trip changed $f"; diff "$work/cuda/$f" "$work/rt/$f" | head -10; }
done
[[ $fails -eq 0 ]] && echo "ok   CUDA -> HIP -> CUDA gives the WMMA and decode headers back unchanged"

mkdir -p "$work/an/include/llama_ops/kernels"
cp "$src/include/llama_ops/"{flash_attention.h,portable.cuh} "$work/an/include/llama_ops/"
cp "$src/include/llama_ops/kernels/"{flash_attention_wmma.cuh,flash_backward_wmma.cuh,flash_decode.cuh,flash_attention.cuh} \
  "$work/an/include/llama_ops/kernels/"
an=$("$FERRY" analyze --target gfx90a "$work/an" 2>&1)
if grep -q 'FRY[0-9]' <<<"$an"; then fail "ferry analyze --target gfx90a reports:"; grep 'FRY' <<<"$an" | head -10
else echo "ok   ferry analyze --target gfx90a: nothing to report"; fi

inc=${ROCM_HEADERS:-}
if [[ -n "$inc" && -f "$inc/rocwmma/rocwmma.hpp" ]] && command -v hipcc >/dev/null; then
  # gfx942 (MI300X) where hipcc knows it; else gfx940, the first target of the same gfx94x family
  # (same MFMA instructions), which Debian's hipcc 5.2 knows.
  mi300=""
  for arch in gfx90a gfx942 gfx940; do
    if [[ $arch == gfx940 && -n $mi300 ]]; then continue; fi
    if [[ $arch != gfx90a ]] && ! hipcc --offload-arch=$arch -x hip -c /dev/null -o /dev/null 2>/dev/null; then
      echo "skip hipcc $arch: this hipcc does not know the target"; continue
    fi
    if [[ $arch == gfx94* ]] && ! grep -rqs "$arch" "$inc/rocwmma/internal/config.hpp"; then
      echo "skip hipcc $arch: these rocWMMA headers predate the target"; continue
    fi
    [[ $arch == gfx94* ]] && mi300=$arch
    if (cd "$work/hip" && timeout 600 hipcc --offload-arch=$arch -std=c++17 -O2 -Iinclude -I"$inc" -DLLAMA_OPS_WMMA=1 \
          -c src/flash_attention.cu -o "$work/fa-$arch.o" 2>"$work/hipcc-$arch.log"); then
      echo "ok   the port (forward, backward, decode) compiles for $arch against rocWMMA ($inc)"
    else fail "hipcc $arch with rocWMMA"; grep error "$work/hipcc-$arch.log" | head -10; fi
  done
else
  echo "skip hipcc gfx90a with rocWMMA: set ROCM_HEADERS to an include folder with rocwmma/ (scripts/rocm-headers.sh)"
fi
[[ $fails -eq 0 ]] && echo "all FlashAttention WMMA cases passed" || echo "$fails failed"
exit $((fails > 0))

#!/usr/bin/env bash
# CUDA WMMA -> rocWMMA (the hip target's wmma pass, rules/cuda2hip/wmma.tsv, rules/rocwmma_blocks.tsv):
#   1. the diagnostics: FRY1401 for fragments rocWMMA has no block for on gfx908/gfx90a, FRY4109 for
#      TF32/bf16 element types; the WMMA component's lane math fixed in the one-warp-per-wavefront
#      form (docs/wave64.md, WMMA: blocks doubled in x, warp indices `/ 64`) where its three
#      conditions hold, and left as warnings with the failing condition where one does not;
#   2. migrating the HIP output again changes nothing; HIP -> CUDA -> HIP comes back to the same text;
#      rocWMMA code -> CUDA -> rocWMMA too;
#   3. with hipcc: verify reports the missing rocWMMA headers as a missing dependency (Debian has no
#      rocWMMA), on the original line of `#include <mma.h>`.
source "$(dirname "$0")/verify_lib.sh"
G="$ROOT/tests/golden"

mkdir -p "$WORK/in"
cp "$G/hip-wmma-types/input.cu" "$WORK/in/types.cu"
cp "$G/hip-wmma-gemm/input.cu" "$WORK/in/gemm.cu"
cp "$G/hip-wmma-doubled-blocked/input.cu" "$WORK/in/blocked.cu"
"$FERRY" migrate "$WORK/in" -o "$WORK/hip" --to hip --hip-version 6.0 --report "$WORK/m.json" >"$WORK/m.txt" 2>&1 ||
  [ $? -eq 1 ] || fail "migrate failed: $(cat "$WORK/m.txt")"

python3 - "$WORK" <<'PY'
import json, sys
w = sys.argv[1]
r = json.load(open(f"{w}/m.json"))
def codes(file, code, sev=None):
    return [d for d in r["diagnostics"] if d["file"].endswith(file) and d["code"] == code and
            (sev is None or d["severity"] == sev)]
lacks = codes("types.cu", "FRY1401")
msgs = "\n".join(d["message"] for d in lacks)
assert len(lacks) == 3, msgs
assert "8x8x4 of f64" in msgs and "16x16x16 of u8" in msgs and "32x8x16 of half" in msgs, msgs
assert not any("16x16x16 of s8" in d["message"] for d in lacks), msgs
changed = codes("types.cu", "FRY4109")
assert any("TF32" in d["message"] for d in changed) and any("bf16" in d["message"] for d in changed), changed
# WARP_SIZE counts the warps that own fragments: fixed in the one-warp-per-wavefront form (a note
# that says so, never the harmless "no warp operation" note: WMMA calls are collective)
n2204 = codes("gemm.cu", "FRY2204", "note")
assert len(n2204) == 1 and n2204[0]["hint"].startswith("fixed (wave64 fix): one CUDA warp per 64-lane wavefront"), n2204
n2202 = codes("gemm.cu", "FRY2202", "note")
assert len(n2202) == 2 and all("one CUDA warp per 64-lane wavefront" in d["hint"] for d in n2202), n2202
assert not codes("gemm.cu", "FRY2204", "warning") and not codes("gemm.cu", "FRY2202", "warning")
# each failing condition keeps the warnings, with the WMMA reason and the condition that failed
why = {13: "'threadIdx.x' at line 14 is neither a warp index nor a lane",
       28: "'atomicAdd': a clone lane would apply it twice",
       43: "the cross-lane operation '__shfl_xor_sync' would see the clone lanes",
       60: "a launch's doubled block would have 2048 threads, more than 1024",
       73: "a launch's block: its x extent is not known",
       94: "the macro 'STAGE_ROW' calls 'stage_row', which the fixer does not follow"}
left = {d["line"]: d for d in codes("blocked.cu", "FRY2202", "warning")}
assert sorted(left) == sorted(why), sorted(left)
for line, reason in why.items():
    h = left[line]["hint"]
    assert "WMMA fragment belongs to a whole wavefront" in h and reason in h, (line, h)
assert not [d for d in r["diagnostics"] if d["file"].endswith("blocked.cu") and d["code"].startswith("FRY22")
            and d["severity"] == "note"]
PY
grep -q 'threadIdx.x / 64 /\* ferry-cuda: WARP_SIZE \*/' "$WORK/hip/gemm.cu" || fail "warp index not counted in wavefronts"
grep -q '2 \* (THREADS_PER_BLOCK) /\* ferry-cuda: THREADS_PER_BLOCK \*/' "$WORK/hip/gemm.cu" || fail "block not doubled"
# (an include line may carry its own record: the runtime header added before a HIP header)
! grep -v '^#include' "$WORK/hip/blocked.cu" | grep -q 'ferry-cuda' || fail "a blocked WMMA component was rewritten"

hip="$WORK/hip/gemm.cu"
grep -q '#include <rocwmma/rocwmma.hpp>' "$hip" || fail "no rocWMMA include in $hip"
grep -q 'namespace wmma = rocwmma;' "$hip" || fail "using namespace nvcuda not ported"
# (round-trip records name the CUDA spelling, `rocwmma /* ferry-cuda: nvcuda::wmma */`: not code)
! sed 's#/\* ferry-cuda:[^*]*\*/##g' "$WORK/hip/gemm.cu" "$WORK/hip/types.cu" | grep -q 'nvcuda' ||
  fail "nvcuda left in the HIP output"

# fixed point: the HIP output migrated again is unchanged
"$FERRY" migrate "$WORK/hip" -o "$WORK/hip2" --to hip --hip-version 6.0 -q >/dev/null 2>&1 || [ $? -eq 1 ]
for f in gemm.cu types.cu blocked.cu; do
  diff -u "$WORK/hip/$f" "$WORK/hip2/$f" || fail "re-migrating $f changed it"
done
# round trip: HIP -> CUDA -> HIP comes back
"$FERRY" migrate "$WORK/hip" -o "$WORK/cuda" --to cuda -q >/dev/null 2>&1 || [ $? -eq 1 ]
grep -q 'using namespace nvcuda;' "$WORK/cuda/gemm.cu" || fail "the way back lost using namespace nvcuda"
grep -q 'precision::tf32' "$WORK/cuda/types.cu" || fail "the way back lost the TF32 fragments"
# the doubled blocks and wavefront warp indices are undone: the CUDA launches and 32s are back
! grep -q 'ferry-cuda\|/ 64' "$WORK/cuda/gemm.cu" || fail "the way back kept the one-warp-per-wavefront form"
grep -q 'block_gemm<<<m / (WARPS_PER_BLOCK \* TILE), THREADS_PER_BLOCK>>>' "$WORK/cuda/gemm.cu" ||
  fail "the way back did not restore the launch"
"$FERRY" migrate "$WORK/cuda" -o "$WORK/hip3" --to hip --hip-version 6.0 -q >/dev/null 2>&1 || [ $? -eq 1 ]
for f in gemm.cu types.cu blocked.cu; do
  diff -u "$WORK/hip/$f" "$WORK/hip3/$f" || fail "HIP -> CUDA -> HIP changed $f"
done

# rocWMMA code -> CUDA -> rocWMMA
mkdir -p "$WORK/roc"
cat >"$WORK/roc/k.hip" <<'HIP'
#include <hip/hip_runtime.h>
#include <rocwmma/rocwmma.hpp>

__global__ void k(const __half *a, const __half *b, float *c) {
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, __half, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, 16, 16, 16, __half, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  rocwmma::load_matrix_sync(fa, a, 16);
  rocwmma::load_matrix_sync(fb, b, 16);
  rocwmma::mma_sync(acc, fa, fb, acc);
  rocwmma::store_matrix_sync(c, acc, 16, rocwmma::mem_row_major);
}
HIP
"$FERRY" migrate "$WORK/roc" -o "$WORK/roc-cuda" --to cuda -q >/dev/null 2>&1 || [ $? -eq 1 ]
grep -q 'nvcuda::wmma::mma_sync' "$WORK/roc-cuda/k.cu" "$WORK/roc-cuda/k.hip" 2>/dev/null || fail "rocWMMA -> CUDA"
cuda_file=$(ls "$WORK/roc-cuda" | grep -E '^k\.' | head -1)
mkdir -p "$WORK/roc-cuda-in" && cp "$WORK/roc-cuda/$cuda_file" "$WORK/roc-cuda-in/k.cu"
"$FERRY" migrate "$WORK/roc-cuda-in" -o "$WORK/roc-back" --to hip --hip-version 6.0 -q >/dev/null 2>&1 || [ $? -eq 1 ]
diff -u <(grep -v '^\s*$' "$WORK/roc/k.hip" | grep -v 'hip_runtime') \
        <(grep -v '^\s*$' "$WORK/roc-back/k.cu" | grep -v 'hip_runtime\|ferry-cuda') ||
  fail "rocWMMA -> CUDA -> rocWMMA did not come back"

# verify: rocWMMA is a missing dependency (Debian has none), on the original #include <mma.h>
if command -v hipcc >/dev/null 2>&1; then
  set +e
  "$FERRY" verify "$WORK/hip" --arch gfx90a --jobs 2 --report "$WORK/v.json" >"$WORK/v.txt" 2>&1
  set -e
  python3 - "$WORK" <<'PY'
import json, sys
w = sys.argv[1]
units = {u["file"]: u for u in json.load(open(f"{w}/v.json"))["units"]}
u = units["gemm.cu"]
assert u["status"] == "fail" and u["class"] == "missing-dependency", u
e = next(e for e in u["errors"] if e["class"] == "missing-dependency")
assert e["library"] == "rocWMMA", e
assert e["original"]["line"] == 5, e
PY
else
  echo "hipcc not installed: verify part skipped"
fi
echo "PASS"

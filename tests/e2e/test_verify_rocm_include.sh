#!/usr/bin/env bash
# `ferry verify --rocm-include`: the golden hipCUB, rocThrust and hipBLAS programs
# (tests/golden/hip-rocm-*, our own code) migrated into one tree, then verified for gfx906
# 1. without the ROCm library headers: each unit is missing-dependency (hipCUB, rocThrust, hipBLAS),
#    exit 0, and a note names scripts/rocm-headers.sh;
# 2. with --rocm-include $FERRY_ROCM_INCLUDE (scripts/rocm-headers.sh DEST 5.3): all three units
#    compile (the hipBLAS one with its __half* arguments cast to hipblasHalf* and its complex calls
#    on hipBLAS 5.x's own functions), exit 0, -isystem DIR is on each command, and the report says
#    the check is compile-only.
# Part 2 (and the test) is skipped (77) when FERRY_ROCM_INCLUDE is unset.
source "$(dirname "$0")/verify_lib.sh"
need hipcc
[ -n "${FERRY_ROCM_INCLUDE:-}" ] || { echo "SKIP: FERRY_ROCM_INCLUDE is not set (scripts/rocm-headers.sh DEST 5.3)"; exit 77; }
mkdir -p "$WORK/in"
for c in cub-block-reduce thrust-sort-complex cublas-gemm; do
  cp "$ROOT/tests/golden/hip-rocm-$c/input.cu" "$WORK/in/$c.cu"
done
"$FERRY" migrate "$WORK/in" -o "$WORK/out" --to hip --hip-version 5.2 -q >/dev/null 2>&1 || true

set +e
env -u FERRY_ROCM_INCLUDE "$FERRY" verify "$WORK/out" --arch gfx906 --no-original-check -j 2 \
  --report "$WORK/without.json" > "$WORK/without.txt" 2>&1
rc=$?
set -e
cat "$WORK/without.txt"
[ "$rc" -eq 0 ] || fail "missing ROCm libraries are missing dependencies (exit 0), got $rc"
python3 - "$WORK/without.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
classes = sorted(u["class"] for u in r["units"])
assert classes == ["missing-dependency"] * 3, classes
found = sorted(u["errors"][0]["library"] for u in r["units"])
assert found == ["hipBLAS", "hipCUB", "rocThrust"], found
assert any("scripts/rocm-headers.sh" in n for n in r["notes"]), r["notes"]
assert "rocm_include" not in r
PY

set +e
"$FERRY" verify "$WORK/out" --arch gfx906 --no-original-check -j 2 --rocm-include "$FERRY_ROCM_INCLUDE" \
  --report "$WORK/with.json" > "$WORK/with.txt" 2>&1
rc=$?
set -e
cat "$WORK/with.txt"
[ "$rc" -eq 0 ] || fail "all three compile against the headers (exit 0), got $rc"
python3 - "$WORK/with.json" "$FERRY_ROCM_INCLUDE" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
root = os.path.abspath(sys.argv[2].split(":")[0])
status = {u["file"]: u for u in r["units"]}
assert status["cub-block-reduce.cu"]["status"] == "pass", status["cub-block-reduce.cu"]
assert status["thrust-sort-complex.cu"]["status"] == "pass", status["thrust-sort-complex.cu"]
assert status["cublas-gemm.cu"]["status"] == "pass", status["cublas-gemm.cu"]
assert len(r["units"]) == 3
for u in r["units"]:
    cmd = u["command"]
    assert "-isystem" in cmd and root in cmd, cmd
assert r["rocm_include"]["check"] == "compile-only (no link)", r["rocm_include"]
assert any("never linked" in n for n in r["notes"]), r["notes"]
PY
echo "PASS: verify --rocm-include"

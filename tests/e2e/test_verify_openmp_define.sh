#!/usr/bin/env bash
# `ferry verify` and the build's host flags (docs/verify.md "OpenMP", "Build defines"), over
# tests/e2e/verify_cases/openmp_define (our own code) migrated to HIP:
# 1. omp_sum.cu (host OpenMP) is compiled with -fopenmp by hipcc and with -Xcompiler -fopenmp by
#    nvcc (--cuda over the original); it passes, or, where hipcc's clang has no OpenMP runtime
#    (Debian: libomp-15-dev), is missing-dependency naming OpenMP: never a defect;
# 2. switch.cu is missing-dependency without --define APP_USE_HIP and passes with it; the define
#    is on every command and in the report.
source "$(dirname "$0")/verify_lib.sh"
need hipcc
copy_example tests/e2e/verify_cases/openmp_define "$WORK/in"
"$FERRY" migrate "$WORK/in" -o "$WORK/out" --to hip --hip-version 5.2 -q >/dev/null 2>&1 || true

set +e
"$FERRY" verify "$WORK/out" --arch gfx906 --no-original-check -j 2 --report "$WORK/plain.json" >"$WORK/plain.txt" 2>&1
rc=$?
set -e
cat "$WORK/plain.txt"
[ "$rc" -eq 0 ] || fail "no migration defect expected (exit 0), got $rc"
python3 - "$WORK/plain.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
u = {x["file"]: x for x in r["units"]}
omp = u["omp_sum.cu"]
assert "-fopenmp" in omp["command"], omp["command"]
assert "-fopenmp" not in u["switch.cu"]["command"], u["switch.cu"]["command"]
if omp["status"] != "pass":
    assert omp["class"] == "missing-dependency" and "OpenMP" in omp["errors"][0].get("library", ""), omp
assert u["switch.cu"]["status"] == "fail" and u["switch.cu"]["class"] == "missing-dependency", u["switch.cu"]
assert any("use OpenMP" in n for n in r["notes"]), r["notes"]
assert "defines" not in r
PY

set +e
"$FERRY" verify "$WORK/out" --arch gfx906 --no-original-check -j 2 --define APP_USE_HIP --only switch.cu \
  --report "$WORK/defined.json" >"$WORK/defined.txt" 2>&1
rc=$?
set -e
cat "$WORK/defined.txt"
[ "$rc" -eq 0 ] || fail "switch.cu compiles with --define APP_USE_HIP (exit 0), got $rc"
python3 - "$WORK/defined.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
(u,) = r["units"]
assert u["status"] == "pass", u
assert "-DAPP_USE_HIP" in u["command"], u["command"]
assert r["defines"] == ["APP_USE_HIP"], r.get("defines")
PY

if command -v nvcc >/dev/null 2>&1; then
  set +e
  "$FERRY" verify "$WORK/in" --cuda --only omp_sum.cu --report "$WORK/cuda.json" >"$WORK/cuda.txt" 2>&1
  rc=$?
  set -e
  cat "$WORK/cuda.txt"
  [ "$rc" -eq 0 ] || fail "the original OpenMP unit compiles with nvcc -Xcompiler -fopenmp, got $rc"
  python3 - "$WORK/cuda.json" <<'PY'
import json, sys
(u,) = json.load(open(sys.argv[1]))["units"]
c = u["command"]
i = c.index("-fopenmp")
assert c[i - 1] == "-Xcompiler", c
assert u["status"] == "pass", u
PY
fi
echo "PASS"

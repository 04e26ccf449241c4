#!/usr/bin/env bash
# Migrate examples/llama_ops to HIP and verify it with the real hipcc for gfx906 and gfx90a.
# The units that need hipBLAS or RCCL (not shipped by Debian: gemm.cu, main.cu, allreduce.cu and
# the GEMM bindings bindings/torch_gemm.cu, bindings/opcheck_gemm.cu) must
# be reported as missing-dependency, with the library named and the original line of the
# #include; nothing may be a migration defect; every other unit (the kernels and the host-only
# reference) must really compile, device code included.
source "$(dirname "$0")/verify_lib.sh"
need hipcc

copy_example examples/llama_ops "$WORK/in"
"$FERRY" migrate "$WORK/in" -o "$WORK/out" -q --jobs 2 >/dev/null || [ $? -eq 1 ]
[ -f "$WORK/out/.ferry/linemaps.json" ] || fail "migrate wrote no line maps"

set +e
"$FERRY" verify "$WORK/out" --arch gfx906,gfx90a --jobs 2 --report "$WORK/report.json" > "$WORK/summary.txt"
rc=$?
set -e
cat "$WORK/summary.txt"
[ "$rc" -eq 0 ] || fail "verify exited $rc (expected 0: missing dependencies do not fail)"

python3 - "$WORK/report.json" "$WORK/in" <<'PY'
import json, sys, re
r = json.load(open(sys.argv[1]))
src = sys.argv[2]
units = {(u["file"], u["arch"]): u for u in r["units"]}
arches = {"gfx906", "gfx90a"}
files = {f for f, _ in units}
assert {a for _, a in units} == arches, units.keys()
assert "src/reference.cpp" in files and "src/gemm.cu" in files and "src/allreduce.cu" in files, files
assert r["summary"]["by_class"].get("migration-defect", 0) == 0, r["summary"]
needs_missing = {"src/allreduce.cu", "src/gemm.cu", "src/main.cu", "bindings/torch_gemm.cu", "bindings/opcheck_gemm.cu"}
compiled = {f for f, _ in units} - needs_missing
assert {"src/reference.cpp", "src/softmax.cu", "src/attention.cu", "src/topk.cu", "src/flash_attention.cu",
        "src/backward.cu", "bindings/torch_ops.cu", "bindings/opcheck_ops.cu"} <= compiled, compiled
for (f, a), u in units.items():
    assert "--offload-arch=" + a in u["command"], u["command"]
    if f not in needs_missing:
        assert u["status"] == "pass", (f, a, u.get("class"), u.get("errors"))
        continue
    assert u["status"] == "fail" and u["class"] == "missing-dependency", (f, a, u.get("class"), u.get("errors"))
    e = next(e for e in u["errors"] if e["class"] == "missing-dependency")
    lib = e["library"]
    assert lib in ("hipBLAS", "RCCL"), e
    # The error points at the original #include of the CUDA library it replaced.
    o = e["original"]
    line = open(f"{src}/{o['file']}").read().split("\n")[o["line"] - 1]
    want = {"hipBLAS": "cublas", "RCCL": "nccl"}[lib]
    assert want in line and "#include" in line, (f, o, line)
    assert o["changed_by_ferry"], o
expect_lib = {"src/allreduce.cu": "RCCL", "src/gemm.cu": "hipBLAS", "src/main.cu": "hipBLAS",
              "bindings/torch_gemm.cu": "hipBLAS", "bindings/opcheck_gemm.cu": "hipBLAS"}
for f, lib in expect_lib.items():
    for a in arches:
        assert units[(f, a)]["errors"][0]["library"] == lib, (f, units[(f, a)]["errors"][0])
print("ok:", len(units), "compiles,", r["summary"]["by_class"])
PY
grep -q "missing-dependency (RCCL)" "$WORK/summary.txt" || fail "text summary does not name RCCL"
echo PASS

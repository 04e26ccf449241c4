#!/usr/bin/env bash
# One deliberately broken case per failure class, verified with the real hipcc (gfx906) and, for
# the pre-existing check, nvcc over the originals:
#   examples/broken/missing_hip_library  -> missing-dependency (hipBLAS), original line 5
#   examples/broken/typo                 -> pre-existing, original line 16
#   examples/broken/no_hip_equivalent    -> diagnosed, original line 19 (__nanosleep, which
#                                           migrate reported FRY1001 and left as is)
#   verify_cases/target_gap              -> target-gap, original line 13
#                                           (thread_block_tile::meta_group_rank, ROCm 5.7) and
#                                           line 24 (hipDeviceProp_t::unifiedAddressing, ROCm 6.0)
#   verify_cases/defect (--rules with a wrong mapping) -> migration-defect, src/saxpy.cu:27
#   verify_cases/unknown                 -> unknown, original line 6
# A second run must reuse the cached original checks and classify identically.
source "$(dirname "$0")/verify_lib.sh"
need hipcc
need nvcc
CASES="$(cd "$(dirname "$0")" && pwd)/verify_cases"

mkdir -p "$WORK/in"
for c in missing_hip_library typo no_hip_equivalent; do
  mkdir -p "$WORK/in/$c" && cp "$ROOT/examples/broken/$c/kernel.cu" "$WORK/in/$c/"
done
cp -r "$CASES/unknown" "$WORK/in/unknown"
cp -r "$CASES/target_gap" "$WORK/in/target_gap"
"$FERRY" migrate "$WORK/in" -o "$WORK/out" -q --hip-version 5.2 >/dev/null || [ $? -eq 1 ]
cp -r "$CASES/defect/src" "$WORK/defect-in"
"$FERRY" migrate "$WORK/defect-in" -o "$WORK/defect-out" -q --rules "$CASES/defect/wrong_rules.tsv" >/dev/null || [ $? -eq 1 ]

run_verify() {  # run_verify TREE REPORT -> prints the summary, returns verify's exit code
  set +e
  "$FERRY" verify "$1" --arch gfx906 --jobs 2 --report "$2"
  local rc=$?
  set -e
  return $rc
}
rc=0; run_verify "$WORK/out" "$WORK/broken.json" || rc=$?
[ "$rc" -eq 0 ] || fail "broken cases: verify exited $rc, expected 0 (no migration defect among them)"
rc=0; run_verify "$WORK/defect-out" "$WORK/defect.json" || rc=$?
[ "$rc" -eq 1 ] || fail "defect case: verify exited $rc, expected 1"
rc=0; run_verify "$WORK/out" "$WORK/broken2.json" >/dev/null || rc=$?
[ "$rc" -eq 0 ] || fail "second run: exit $rc"

python3 - "$WORK" <<'PY'
import json, sys
w = sys.argv[1]
def units(path):
    return {u["file"]: u for u in json.load(open(path))["units"]}
b, d, b2 = units(f"{w}/broken.json"), units(f"{w}/defect.json"), units(f"{w}/broken2.json")

def check(u, cls, line, src_root, contains=None):
    assert u["status"] == "fail" and u["class"] == cls, (u["file"], u.get("class"), u.get("errors"))
    e = next(e for e in u["errors"] if e["class"] == cls)
    o = e["original"]
    assert o and o["line"] == line, (u["file"], e)
    text = open(f"{src_root}/{o['file']}").read().split("\n")[line - 1]
    if contains: assert contains in text, (u["file"], line, text)
    return e

e = check(b["missing_hip_library/kernel.cu"], "missing-dependency", 5, f"{w}/in", "cublas_v2.h")
assert e["library"] == "hipBLAS"
check(b["typo/kernel.cu"], "pre-existing", 16, f"{w}/in", "cudaMemcpyHostToDevise")
e = check(b["no_hip_equivalent/kernel.cu"], "diagnosed", 19, f"{w}/in", "__nanosleep")
assert "FRY1001" in e["original"]["flagged"] and not e["original"]["via_include"], e
assert e["reason"].startswith("the migration reported it at this line: FRY1001"), e
u = b["target_gap/kernel.cu"]
e = check(u, "target-gap", 13, f"{w}/in", "meta_group_rank")
assert "ROCm 5.7" in e["reason"], e
gaps = {x["original"]["line"]: x for x in u["errors"] if x["class"] == "target-gap"}
assert 24 in gaps and "unifiedAddressing" in gaps[24]["message"] and "ROCm 6.0" in gaps[24]["reason"], u["errors"]
assert not any(x["class"] == "migration-defect" for x in u["errors"]), u["errors"]
assert json.load(open(f"{w}/broken.json"))["release"] == "HIP 5.2 (rocm-5.2)"
check(b["unknown/kernel.cu"], "unknown", 6, f"{w}/in", "#error")
e = check(d["saxpy.cu"], "migration-defect", 27, f"{w}/defect-in", "cudaDeviceSynchronize")
assert "hipDeviceSynchronise" in e["message"], e
assert d["scale.cu"]["status"] == "pass", d["scale.cu"]
# The original checks: nvcc compiled the originals once and the second run reused them.
r1, r2 = json.load(open(f"{w}/broken.json")), json.load(open(f"{w}/broken2.json"))
assert r1["original_checks"]["typo/kernel.cu"]["state"] == "fails"
assert r1["original_checks"]["unknown/kernel.cu"]["state"] == "compiles"
assert "missing_hip_library/kernel.cu" not in r1["original_checks"]
assert all(c["cached"] for c in r2["original_checks"].values()), r2["original_checks"]
assert {f: u.get("class") for f, u in b.items()} == {f: u.get("class") for f, u in b2.items()}
print("ok: classes", {f: u.get("class") for f, u in b.items()}, "defect:", d["saxpy.cu"]["class"])
PY
echo PASS

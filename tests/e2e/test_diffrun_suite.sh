#!/usr/bin/env bash
# ferry diffrun --wave64 --suite on tests/wave64/suite (five tiny programs of ours): arguments
# from a Makefile run target and a CMake add_test, a .cpp helper linked, one verdict per program
# (SAME, SAME, DIFFERENT for the 32-bit ballot at wave 64, BOTH FAILED for a self-check that
# fails everywhere, UNSUPPORTED for a cuRAND program), the table, results.json and results.html,
# a resumed second run, and a HIP corpus run at wave 32 against wave 64 from a list file.
set -u
FERRY=${FERRY:?set FERRY to the ferry binary}
here=$(cd "$(dirname "$0")" && pwd)
suite="$here/../wave64/suite"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
expect() {  # expect NAME CONDITION-OUTPUT-PATTERN OUTPUT
  if ! grep -qE -- "$2" <<<"$3"; then
    echo "FAIL $1: output lacks /$2/:"
    sed 's/^/    /' <<<"$3" | tail -30
    fails=$((fails + 1))
  else
    echo "ok   $1"
  fi
}
export W64_QUIET=1
"$FERRY" migrate "$suite" --to hip --no-wave64-fix -q -o "$work/port" >/dev/null 2>&1
out=$(timeout 900 "$FERRY" diffrun --wave64 --suite "$suite" --port-dir "$work/port" --results "$work/r" -j 2 -q 2>&1)
rc=$?
[[ $rc -eq 1 ]] || { echo "FAIL suite exit $rc (want 1)"; fails=$((fails + 1)); }
expect vecadd-same-with-makefile-args '^vecadd +SAME ' "$out"
expect warp-reduce-same-with-cpp-helper '^warp_reduce +SAME ' "$out"
expect ballot32-different '^ballot32 +DIFFERENT .*stdout line 1, col [0-9]+: [0-9]+ \(reference\) vs [0-9]+ \(port\)' "$out"
expect selfcheck-both-failed "^selfcheck +BOTH FAILED .*reference: printed 'Result = FAIL'" "$out"
expect curand-unsupported '^curand_pi +UNSUPPORTED +- +- +cuRAND \(curand_pi.cu:[0-9]+, FRY9412; both\)' "$out"
expect summary '5 program\(s\): 1 BOTH FAILED 1 DIFFERENT 2 SAME 1 UNSUPPORTED' "$out"
python3 - "$work/r" <<'PY' || fails=$((fails + 1))
import json, os, sys
r = sys.argv[1]
j = json.load(open(os.path.join(r, "results.json")))
v = {p["program"]: p for p in j["programs"]}
assert v["vecadd"]["args"] == "1000" and v["vecadd"]["args_from"] == "Makefile run target", v["vecadd"]
assert v["selfcheck"]["args"] == "5" and v["selfcheck"]["args_from"] == "CMake add_test", v["selfcheck"]
assert v["warp_reduce"]["sources"] == ["warp_reduce.cu", "host_ref.cpp"], v["warp_reduce"]
assert j["counts"] == {"same": 2, "different": 1, "both-failed": 1, "unsupported": 1}, j["counts"]
assert v["curand_pi"]["first_difference"].startswith("cuRAND (curand_pi.cu:"), v["curand_pi"]
html = open(os.path.join(r, "results.html")).read()
assert "ballot32" in html and "DIFFERENT" in html
print("ok   results.json and results.html")
PY
# Resumable: a second run takes every recorded result and builds nothing.
start=$(date +%s)
out=$(timeout 300 "$FERRY" diffrun --wave64 --suite "$suite" --port-dir "$work/port" --results "$work/r" --json 2>&1)
python3 -c 'import json,sys; j=json.loads(sys.argv[1]); assert all(p["resumed"] for p in j["programs"]), j; print("ok   resumed")' "$out" ||
  fails=$((fails + 1))
[[ $(( $(date +%s) - start )) -lt 20 ]] || { echo "FAIL resumed run took too long"; fails=$((fails + 1)); }
# A HIP corpus against itself: wave 32 (reference) vs wave 64 (port), programs from a list file.
printf '# the lane-width bug only\nballot32\n' > "$work/list"
out=$(timeout 600 "$FERRY" diffrun --wave64 --suite "$work/port" --ref-api hip --ref-wave 32 --list "$work/list" \
  --results "$work/r32" -q 2>&1)
expect hip-wave32-vs-64 '^ballot32 +DIFFERENT ' "$out"
expect hip-list-one-program '^1 program\(s\): 1 DIFFERENT' "$out"
# --bisect in a suite: the DIFFERENT program is bisected against the originals migrated without
# fixes (RESULTS/port-unfixed); this port has no fix, so the difference is not a fix's.
out=$(timeout 600 "$FERRY" diffrun --wave64 --suite "$suite" --port-dir "$work/port" --list "$work/list" \
  --results "$work/rb" --bisect -q 2>&1)
expect suite-bisect '^ballot32 +DIFFERENT .*bisect: the port has no wave64 fix in its folder' "$out"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); b=j["diffrun"]["bisect"]; assert b["unfixed_verdict"] == "different" and b["sites"] == [], b; print("ok   suite bisect JSON")' \
  "$work/rb/programs/ballot32.json" || fails=$((fails + 1))
[[ $fails -eq 0 ]] && echo "all suite cases passed" || echo "$fails failed"
exit $((fails > 0))

#!/usr/bin/env bash
# ferry diffrun end to end with tiny shell commands: same / different outputs, files, timeouts,
# crashes, build failures, JSON. Every run is bounded by --timeout, and the test by `timeout`.
set -u
FERRY=${FERRY:?set FERRY to the ferry binary}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
check() {  # check NAME EXPECTED_RC PATTERN -- ferry args...
  local name=$1 want_rc=$2 pattern=$3
  shift 4
  local out rc
  out=$(cd "$work" && timeout 60 "$FERRY" diffrun -q "$@" 2>&1)
  rc=$?
  if [[ $rc -ne $want_rc ]] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL $name: exit $rc (want $want_rc), output lacks /$pattern/:"
    sed 's/^/    /' <<<"$out"
    fails=$((fails + 1))
  else
    echo "ok   $name"
  fi
}

check same 0 'verdict: SAME' -- --ref 'echo 1.0 2.0' --port 'echo 1.0000001 2.0' --runs 3
check different 1 'line 1, col 5: 2.0 \(reference\) vs 2.5 \(port\)' -- --ref 'echo 1.0 2.0' --port 'echo 1.0 2.5'
check rtol 0 'verdict: SAME' -- --ref 'echo 100' --port 'echo 101' --rtol 0.02
check exit-code 1 'exit codes differ: exit 0 vs exit 3' -- --ref 'true' --port 'exit 3'
check timeout 1 'verdict: TIMEOUT \(port, timed out after' -- --ref 'echo x' --port 'sleep 10' --timeout 1
check both-failed 1 'verdict: BOTH FAILED \(reference: exit 1; port: exit 1\)' -- --ref 'echo x; exit 1' --port 'echo x; exit 1'
check both-crashed 1 'verdict: BOTH FAILED \(reference: signal 6' -- --ref 'kill -ABRT $$' --port 'kill -SEGV $$'
check self-check 1 'port failed its own check: printed .Result = FAIL.' -- --ref 'echo sum 1' --port 'echo sum 1; echo "Result = FAIL" >&2'
check self-check-off 0 'verdict: SAME' -- --ref 'echo Test FAILED' --port 'echo Test FAILED' --no-fail-check
check crash 1 'signal 11 \(SIGSEGV\)' -- --ref 'echo x' --port 'kill -SEGV $$' --timeout 5
check build-failed 1 'build failed' -- --ref 'true' --port 'true' --port-build 'echo broken >&2; exit 2'
check nan 1 'NaN vs NaN' -- --ref 'echo nan' --port 'echo -nan'
check nan-equal 0 'verdict: SAME' -- --ref 'echo nan' --port 'echo -nan' --nan-equal
check inf 1 'infinities of opposite sign' -- --ref 'echo inf' --port 'echo -inf' --rtol 1
check missing-line 1 'missing in the port' -- --ref 'printf "a\nb\n"' --port 'printf "a\n"'
check ignore 0 'verdict: SAME' -- --ref 'echo "time: 1 ms"; echo r 1' --port 'echo "time: 9 ms"; echo r 1' --ignore '^time:'

mkdir -p "$work/ref" "$work/port"
check file 1 'file out.txt: 1 difference' -- --ref 'echo 1 2 3 > out.txt' --port 'echo 1 2 4 > out.txt' \
  --ref-dir ref --port-dir port --file out.txt
check file-missing 1 'file out.txt: missing in the port' -- --ref 'echo 1 > out.txt' --port 'true' \
  --ref-dir ref --port-dir port --file out.txt

# A background job left running must not hang diffrun.
start=$(date +%s)
check background 0 'verdict: SAME' -- --ref 'echo 1' --port 'sleep 30 & echo 1' --timeout 20
[[ $(( $(date +%s) - start )) -lt 15 ]] || { echo "FAIL background: took too long"; fails=$((fails + 1)); }

# JSON report, and a spec file.
json=$(cd "$work" && timeout 60 "$FERRY" diffrun --json --ref 'echo 1.5' --port 'echo 1.75' --runs 2)
python3 - "$json" <<'PY' || fails=$((fails + 1))
import json, sys
j = json.loads(sys.argv[1])
assert j["verdict"] == "different", j
d = j["stdout"]["first"][0]
assert (d["kind"], d["ref"], d["port"], d["line"]) == ("number", "1.5", "1.75", 1), d
assert abs(d["abs_err"] - 0.25) < 1e-12 and len(j["reference"]["runs"]) == 2 and j["ratio"] > 0, j
print("ok   json")
PY
cat > "$work/spec.json" <<'SPEC'
{"ref": {"run": "echo 3.0"}, "port": {"run": "echo 3.00001"}, "rtol": 1e-3, "runs": 2}
SPEC
check spec 0 'verdict: SAME' -- --spec spec.json

echo "$fails failure(s)"
[[ $fails -eq 0 ]]

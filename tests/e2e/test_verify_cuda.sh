#!/usr/bin/env bash
# `ferry verify --cuda`: nvcc -arch=sm_90 over the ORIGINAL examples/llama_ops; every unit compiles.
# Then the pre-existing typo of examples/broken/typo fails the same way with exit 1.
source "$(dirname "$0")/verify_lib.sh"
need nvcc

copy_example examples/llama_ops "$WORK/llama"
set +e
"$FERRY" verify "$WORK/llama" --cuda --jobs 2 --report "$WORK/llama.json" > "$WORK/llama.txt"
rc=$?
set -e
cat "$WORK/llama.txt"
[ "$rc" -eq 0 ] || fail "nvcc over the original llama_ops: exit $rc"
python3 - "$WORK/llama.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["mode"] == "original" and r["summary"]["translation_units"] == 17, r["summary"]
bad = [(u["file"], u.get("errors")) for u in r["units"] if u["status"] != "pass"]
assert not bad, bad
assert all(u["arch"] == "sm_90" and "-arch=sm_90" in u["command"] for u in r["units"])
PY

mkdir -p "$WORK/typo"
cp "$ROOT/examples/broken/typo/kernel.cu" "$WORK/typo/"
set +e
"$FERRY" verify "$WORK/typo" --cuda --json > "$WORK/typo.json"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "a CUDA tree that does not compile must exit 1 in --cuda mode, got $rc"
python3 - "$WORK/typo.json" <<'PY'
import json, sys
u = json.load(open(sys.argv[1]))["units"][0]
e = u["errors"][0]
assert u["class"] == "pre-existing" and e["original"]["line"] == 16, u
PY
echo PASS

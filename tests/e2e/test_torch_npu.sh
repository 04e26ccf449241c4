#!/usr/bin/env bash
# The torch_npu target over a tree: Python files are migrated (C++ files are copied), every
# output is valid Python, the report lists the changes, and a second run changes nothing.
set -euo pipefail
FERRY=${FERRY:?set FERRY to the ferry binary}
ROOT=${FERRY_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/in/pkg"
cp "$ROOT/examples/torch_train/train.py" "$tmp/in/"
for case in "$ROOT"/tests/golden/npu-*/; do cp "$case/input.py" "$tmp/in/pkg/$(basename "$case").py"; done
printf 'int main() { return 0; }\n' > "$tmp/in/helper.cpp"

"$FERRY" migrate "$tmp/in" -o "$tmp/out" --to torch_npu --report "$tmp/report.json" -q > "$tmp/summary.txt"
find "$tmp/out" -name '*.py' -print0 | xargs -0 -n1 python3 -m py_compile
grep -q '^import torch_npu$' "$tmp/out/train.py"
grep -q 'torch.npu.amp.GradScaler()' "$tmp/out/train.py"
grep -q 'backend="hccl"' "$tmp/out/train.py"
cmp "$tmp/in/helper.cpp" "$tmp/out/helper.cpp"  # not Python: copied unchanged
python3 - "$tmp/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
codes = [d["code"] for d in r["diagnostics"]]
assert codes.count("FRY4650") >= 10, codes
for c in ("FRY4651", "FRY4653", "FRY4654", "FRY1650", "FRY1651"):
    assert c in codes, (c, sorted(set(codes)))
PY
# Idempotence: migrating the output again changes no file.
"$FERRY" migrate "$tmp/out" -o "$tmp/again" --to torch_npu -q > /dev/null
for f in $(cd "$tmp/out" && find . -name '*.py'); do cmp "$tmp/out/$f" "$tmp/again/$f"; done
echo "test_torch_npu: PASS"

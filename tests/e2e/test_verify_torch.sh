#!/usr/bin/env bash
# `ferry verify` on a PyTorch C++/CUDA extension (tests/e2e/verify_cases/torch_ext, our own code):
# 1. with an interpreter that has no torch (--python /nonexistent): a note says what is missing and
#    the unit fails as a missing dependency ("PyTorch (C++ headers)"), exit 0;
# 2. with the default interpreters: when one has PyTorch and its C++ headers, every compile command
#    carries torch.utils.cpp_extension.include_paths() (+ Python's include dir), USE_ROCM and
#    TORCH_EXTENSION_NAME, and the unit compiles for gfx906 or fails only on a library that is not
#    installed other than PyTorch itself (Debian 12 has no rocThrust, which c10/util/complex.h
#    includes under HIP). Without such an interpreter part 2 is skipped with a message.
source "$(dirname "$0")/verify_lib.sh"
need hipcc
mkdir -p "$WORK/in"
cp "$ROOT/tests/e2e/verify_cases/torch_ext/relu_ext.cu" "$WORK/in/"
"$FERRY" migrate "$WORK/in" -o "$WORK/out" --to hip --hip-version 5.2 -q >/dev/null 2>&1 || true
[ -f "$WORK/out/relu_ext.cu" ] || fail "migrate wrote no relu_ext.cu"

set +e
"$FERRY" verify "$WORK/out" --arch gfx906 --no-original-check --python /nonexistent/python3 \
  --report "$WORK/none.json" > "$WORK/none.txt" 2>&1
rc=$?
set -e
cat "$WORK/none.txt"
[ "$rc" -eq 0 ] || fail "a missing PyTorch is a missing dependency (exit 0), got $rc"
python3 - "$WORK/none.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = r["torch"]
assert t["included_by"] == "relu_ext.cu" and t["header"] == "torch/extension.h" and not t["usable"], t
assert "no Python with PyTorch found (tried /nonexistent/python3)" in t["problem"], t
assert any("relu_ext.cu includes PyTorch's <torch/extension.h>, but no Python" in n for n in r["notes"]), r["notes"]
u = r["units"][0]
assert u["class"] == "missing-dependency", u
assert u["errors"][0]["library"] == "PyTorch (C++ headers)", u["errors"][0]
assert "-DUSE_ROCM=1" not in u["command"], u["command"]
PY

# Which interpreter has torch with its C++ headers (the way verify asks, independently written).
PY_TORCH=""
for py in ${FERRY_PYTHON:-} python3 /usr/bin/python3; do
  command -v "$py" >/dev/null 2>&1 || continue
  if "$py" -c 'import os, torch.utils.cpp_extension as c; assert os.path.exists(os.path.join(c.include_paths()[0], "torch", "extension.h"))' >/dev/null 2>&1; then
    PY_TORCH=$py; break
  fi
done
if [ -z "$PY_TORCH" ]; then
  echo "part 2 skipped: no Python here has PyTorch with its C++ headers (Debian: python3-torch, libtorch-dev)"
  echo PASS
  exit 0
fi
"$PY_TORCH" -c 'import torch.utils.cpp_extension as c, sysconfig; print("\n".join(c.include_paths() + [sysconfig.get_paths()["include"]]))' \
  2>/dev/null > "$WORK/dirs.txt"
set +e
"$FERRY" verify "$WORK/out" --arch gfx906 --no-original-check --report "$WORK/torch.json" > "$WORK/torch.txt" 2>&1
rc=$?
set -e
cat "$WORK/torch.txt"
[ "$rc" -eq 0 ] || fail "verify with PyTorch's headers: exit $rc"
python3 - "$WORK/torch.json" "$WORK/dirs.txt" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
dirs = [d for d in open(sys.argv[2]).read().splitlines() if d]
t = r["torch"]
assert t["usable"] and t["include_dirs"] == dirs, (t, dirs)
u = r["units"][0]
for d in dirs:
    assert "-I" + d in u["command"], (d, u["command"])
for f in ("-DUSE_ROCM=1", "-DTORCH_EXTENSION_NAME=relu_ext", "-DTORCH_API_INCLUDE_EXTENSION_H"):
    assert f in u["command"], (f, u["command"])
if u["status"] != "pass":
    assert u["class"] == "missing-dependency", u
    for e in u["errors"]:
        assert not e.get("library", "").startswith("PyTorch"), e  # PyTorch's own headers were found
    print("relu_ext.cu: PyTorch's headers found; stops at", u["errors"][0]["message"], "(" + u["errors"][0].get("library", "") + ")")
else:
    print("relu_ext.cu compiles for gfx906 with PyTorch's headers")
PY
echo PASS

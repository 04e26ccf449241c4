#!/usr/bin/env bash
# Done-when of issue 17: the llama_ops kernels (softmax, RMSNorm, top-k, attention, the block and
# warp reductions, embedding, RoPE, SwiGLU) migrated to HIP run on the wave64 CPU runtime with
# 64-lane wavefronts and match the library's CPU reference (tests/wave64/llama_ops_check.cu checks
# each op); migrated WITHOUT the lane-math fixes (--no-wave64-fix) they give wrong results at wave
# 64 and right ones at wave 32. The CUDA original, run at warp 32, is the baseline of all three.
set -u
FERRY=${FERRY:?set FERRY to the ferry binary}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

mkdir -p "$work/cuda/src" "$work/cuda/tests"
cp -r "$ROOT/examples/llama_ops/include" "$work/cuda/"
for f in rmsnorm softmax topk attention embedding rope swiglu; do cp "$ROOT/examples/llama_ops/src/$f.cu" "$work/cuda/src/"; done
cp "$ROOT/examples/llama_ops/src/reference.cpp" "$work/cuda/src/"
cp "$ROOT/tests/wave64/llama_ops_check.cu" "$work/cuda/tests/"
"$FERRY" migrate "$work/cuda" --to hip --hip-version 5.2 -o "$work/fixed" >/dev/null 2>"$work/fixed.log" ||
  { tail -20 "$work/fixed.log"; fail "migrate"; }
"$FERRY" migrate "$work/cuda" --to hip --hip-version 5.2 -o "$work/unfixed" --no-wave64-fix >/dev/null 2>"$work/unfixed.log" ||
  { tail -20 "$work/unfixed.log"; fail "migrate --no-wave64-fix"; }

run() {  # run NAME TREE [wave64 run args]: prints the program's output, returns its exit code
  local name=$1 tree=$2
  shift 2
  (cd "$work/$tree" && timeout 900 "$FERRY" wave64 run src/*.cu src/reference.cpp tests/llama_ops_check.cu -I include \
    --work "$work/$name.w64" -j 2 "$@" --args --quick 2>"$work/$name.err")
}
ops() { grep '^OP' <<<"$1" | awk '{print $2, $3}'; }

out=$(run ref cuda); rc=$?
[[ $rc -eq 0 ]] || { fail "the CUDA original at warp 32 (exit $rc)"; tail -20 "$work/ref.err"; grep FAIL <<<"$out"; }
n=$(grep -c '^OP .* PASS' <<<"$out")
[[ $n -ge 10 ]] || fail "the CUDA original: only $n ops passed"
echo "ok   CUDA original at warp 32: $n ops PASS"

out=$(run fixed fixed); rc=$?
if [[ $rc -ne 0 ]]; then
  fail "fixed port at wave 64 (exit $rc):"; grep FAIL <<<"$out"; tail -20 "$work/fixed.err"
else
  echo "ok   HIP port with the fixes at wave 64: $(grep -c '^OP .* PASS' <<<"$out") ops PASS"
fi

out=$(run unfixed32 unfixed --wave 32); rc=$?
[[ $rc -eq 0 ]] && echo "ok   HIP port without the fixes at wave 32: all PASS" ||
  { fail "unfixed port at wave 32 (exit $rc):"; grep FAIL <<<"$out"; tail -20 "$work/unfixed32.err"; }

out=$(run unfixed unfixed); rc=$?
wrong=$(grep '^OP .* FAIL' <<<"$out" | awk '{print $2}' | tr '\n' ' ')
if [[ $rc -eq 0 ]]; then
  fail "the port WITHOUT the fixes passes at wave 64: the test shows no lane-math bug"
elif [[ -z "$wrong" ]]; then
  fail "the port WITHOUT the fixes at wave 64 exits $rc without naming a wrong op:"; tail -5 "$work/unfixed.err"
else
  echo "ok   HIP port without the fixes at wave 64 is wrong in: $wrong"
fi
[[ $fails -eq 0 ]] && echo "all llama_ops wave64 cases passed" || echo "$fails failed"
exit $((fails > 0))

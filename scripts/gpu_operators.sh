#!/usr/bin/env bash
# Operators and inference of examples/llama_ops on an NVIDIA GPU (run by hand on the H200, not CI):
#   1. tests/e2e/test_llama_torch.py against the real library: each operator's forward and
#      backward through the PyTorch custom ops against torch autograd, and the small model
#   2. ferry opcheck examples/llama_ops/opcheck/llama_ops.json: every operator, the original CUDA
#      build and its CUDA -> HIP -> CUDA round trip, against PyTorch; FlashAttention against
#      float64 attention, timed against SDPA's flash backend
#   3. examples/llama_ops/torch/infer.py: logits of the model on llama_ops (original and round
#      trip) against PyTorch eager and SDPA, and tokens/s of all four in the same run
# Usage: scripts/gpu_operators.sh OUT_DIR BIN_DIR   (BIN_DIR from scripts/llama_ops_build.sh)
# Writes OUT_DIR/{run.log, test_llama_torch.log, opcheck.txt, opcheck.json, opcheck.html, infer.md, infer.json}.
# Environment: STAGES (default "test opcheck infer"), OPCHECK_ARGS (e.g. --only flash_attention),
#   INFER_ARGS, PYTHON (default python3).
set -u -o pipefail
[ $# -eq 2 ] || { echo "usage: $0 OUT_DIR BIN_DIR" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1" || exit 1
out=$(cd "$1" && pwd)
bin=$(cd "$2" && pwd) || exit 1
py=${PYTHON:-python3}
# shellcheck source=scripts/gpu_env.sh
. "$root/scripts/gpu_env.sh"
# The libraries need libcudart/libcublas 13: the toolkit's, else the ones PyTorch's wheels carry.
nv=$("$py" - <<'PY' 2>/dev/null
import glob, os, site
dirs = set()
for s in site.getsitepackages():
    for f in glob.glob(os.path.join(s, "nvidia", "**", "libcublas.so.*"), recursive=True):
        dirs.add(os.path.dirname(f))
print(":".join(sorted(dirs)))
PY
)
export LD_LIBRARY_PATH="$bin:/usr/local/cuda/lib64${nv:+:$nv}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONUNBUFFERED=1 FERRY_PYTHON=$py PYTHONPATH="$root/examples/llama_ops/torch${PYTHONPATH:+:$PYTHONPATH}"
exec > >(tee "$out/run.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
"$py" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
ldd "$bin/orig/libllama_ops_capi.so" | grep -E "not found|cublas|cudart" || true
rc=0
for stage in ${STAGES:-test opcheck infer}; do
  echo "== $stage $(date -u +%H:%M:%S)"
  case $stage in
    test)
      timeout "${TEST_TIMEOUT:-180}" "$py" "$root/tests/e2e/test_llama_torch.py" --lib "$bin/orig/libllama_ops_capi.so" --device cuda \
        >"$out/test_llama_torch.log" 2>&1
      r=$?; tail -5 "$out/test_llama_torch.log" ;;
    opcheck)
      # shellcheck disable=SC2086
      timeout "${OPCHECK_TIMEOUT:-360}" "$bin/ferry" opcheck "$root/examples/llama_ops/opcheck/llama_ops.json" \
        --var LLAMA_OPS_ORIG="$bin/orig" --var LLAMA_OPS_RT="$bin/rt" --python "$py" \
        --report "$out/opcheck.json" --html "$out/opcheck.html" ${OPCHECK_ARGS:-} >"$out/opcheck.txt"
      r=$?; tail -3 "$out/opcheck.txt" ;;
    infer)
      # shellcheck disable=SC2086
      timeout "${INFER_TIMEOUT:-240}" "$py" "$root/examples/llama_ops/torch/infer.py" --lib "$bin/orig/libllama_ops_capi.so" \
        --lib-rt "$bin/rt/libllama_ops_capi.so" --out "$out" ${INFER_ARGS:-}
      r=$? ;;
    *) echo "unknown stage $stage"; r=2 ;;
  esac
  echo "== $stage exit $r"
  [ "$r" -eq 0 ] || rc=1
done
exit $rc

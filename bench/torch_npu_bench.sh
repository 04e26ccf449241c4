#!/usr/bin/env bash
# CUDA/NCCL references left in public PyTorch training scripts after `ferry migrate --to torch_npu`,
# by kind, against the input's own count (bench/torch_npu_refs.py). The corpora are checkouts the
# caller fetched (e.g. pytorch/examples, karpathy/nanoGPT, huggingface/pytorch-image-models) and
# are never committed; without any, the benchmark skips.
#   bash bench/torch_npu_bench.sh [BUILD] [CORPUS_DIR ...]      (or FERRY_TORCH_CORPORA=dir:dir)
set -uo pipefail
BUILD=${1:-build}
shift || true
ROOT=$(cd "$(dirname "$0")/.." && pwd)
corpora=("$@")
if [ ${#corpora[@]} -eq 0 ] && [ -n "${FERRY_TORCH_CORPORA:-}" ]; then
  IFS=: read -r -a corpora <<<"$FERRY_TORCH_CORPORA"
fi
if [ ${#corpora[@]} -eq 0 ]; then
  echo "skipped: no corpus (pass checkout paths, or set FERRY_TORCH_CORPORA)"
  exit 0
fi
exec python3 "$ROOT/bench/torch_npu_refs.py" --ferry "$ROOT/$BUILD/ferry" "${corpora[@]}"

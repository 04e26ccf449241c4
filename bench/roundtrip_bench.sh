#!/usr/bin/env bash
# Whole-tree round-trip properties over public checkouts (bench/roundtrip_property.py):
# CUDA -> HIP -> CUDA byte for byte and the fixed point of the HIP output for each CUDA tree, and
# the HIP -> CUDA output of each HIP tree compiled with nvcc (ferry verify). Trees are given as
# paths, never fetched here; absent ones are skipped:
#   bash bench/roundtrip_bench.sh [BUILD] [--cuda TREE]... [--hip TREE]...
# or, from `make bench`, FERRY_ROUNDTRIP_CUDA / FERRY_ROUNDTRIP_HIP (':'-separated paths), e.g.
#   FERRY_ROUNDTRIP_CUDA=~/src/cuda-samples FERRY_ROUNDTRIP_HIP=~/src/rocm-examples:~/src/HIP-Examples make bench
# Figures of 2026-12-04: bench/results/roundtrip-2026-12-04.md.
set -uo pipefail
BUILD=${1:-build}
shift || true
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export FERRY=${FERRY:-$ROOT/$BUILD/ferry}
export PATH="$PATH:/usr/local/cuda/bin"
IFS=: read -r -a CUDA_TREES <<< "${FERRY_ROUNDTRIP_CUDA:-}"
IFS=: read -r -a HIP_TREES <<< "${FERRY_ROUNDTRIP_HIP:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --cuda) CUDA_TREES+=("$2"); shift 2 ;;
    --hip) HIP_TREES+=("$2"); shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
status=0
ran=0
for t in "${CUDA_TREES[@]}"; do
  [ -n "$t" ] || continue
  [ -d "$t" ] || { echo "SKIP: $t is absent"; continue; }
  ran=1
  python3 "$ROOT/bench/roundtrip_property.py" cuda "$t" || status=1
  python3 "$ROOT/bench/roundtrip_property.py" fixed "$t" || status=1
done
for t in "${HIP_TREES[@]}"; do
  [ -n "$t" ] || continue
  [ -d "$t" ] || { echo "SKIP: $t is absent"; continue; }
  command -v nvcc >/dev/null || { echo "SKIP: nvcc not installed ($t)"; continue; }
  ran=1
  python3 "$ROOT/bench/roundtrip_property.py" hip "$t" --jobs "${JOBS:-2}" || status=1
done
[ $ran = 1 ] || echo "SKIP: no checkout given (--cuda/--hip or FERRY_ROUNDTRIP_CUDA/FERRY_ROUNDTRIP_HIP)"
exit $status

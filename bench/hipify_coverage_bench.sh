#!/usr/bin/env bash
# Coverage of HIPIFY's public API tables by Ferry's CUDA -> HIP rules, per table and in total:
# the same HIP name, a documented better one (the row's note says why, naming HIPIFY), declined
# (left unconverted, the note naming HIPIFY), different, unsupported, missing.
# Usage: hipify_coverage_bench.sh [BUILD] [TABLES_DIR]   (TABLES_DIR: a ROCm/HIPIFY checkout's
# docs/tables; default $FERRY_HIPIFY_TABLES). Skips cleanly without one. The baseline is HIPIFY's
# own count of names it converts, in the same tables.
set -euo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TABLES=${2:-${FERRY_HIPIFY_TABLES:-}}
if [ -z "$TABLES" ] || [ ! -d "$TABLES" ]; then
  echo "skipped: no HIPIFY tables (pass ROCm/HIPIFY's docs/tables folder or set FERRY_HIPIFY_TABLES)"
  exit 0
fi
FERRY="$ROOT/$BUILD/ferry"
echo "-- default libraries (hipBLAS, hipSPARSE; cuDNN -> MIOpen)"
"$FERRY" rules --stats --against-hipify "$TABLES"
echo
echo "-- --blas=rocblas --sparse=rocsparse (HIPIFY's ROC columns for cuBLAS and cuSPARSE)"
"$FERRY" rules --stats --against-hipify "$TABLES" --blas=rocblas --sparse=rocsparse

#!/usr/bin/env bash
# `make bench`: migration time against input size (bench/scaling_bench.py), on the repository's
# examples; FERRY_SCALING_SOURCE=DIR names a larger public checkout instead (skipped when absent).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
exec python3 "$ROOT/bench/scaling_bench.py" "$ROOT/$BUILD/ferry" ${FERRY_SCALING_SOURCE:+"$FERRY_SCALING_SOURCE"}

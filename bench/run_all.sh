#!/usr/bin/env bash
# `make bench`: every benchmark, each printing ratios against a baseline measured in the same run.
set -uo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
status=0

echo "== migration throughput (bench/migrate_bench.cpp): ferry migrate vs raw read+write, 50 MiB corpus"
"$ROOT/$BUILD/bench/ferry_bench_migrate" --mb 50 --reps 3 || status=1

for extra in "$ROOT"/bench/*_bench.sh; do
  [ -f "$extra" ] || continue
  echo
  echo "== $(basename "$extra")"
  bash "$extra" "$BUILD" || status=1
done

if [ -f "$ROOT/comm/bench/run_bench.sh" ]; then
  echo
  echo "== ferry-comm (comm/bench/run_bench.sh)"
  bash "$ROOT/comm/bench/run_bench.sh" "$BUILD" || status=1
fi
exit $status

#!/usr/bin/env bash
# wave64 runtime: lane switch cost of a 1024-lane block (__syncthreads, shuffles, ballots, a
# block reduction) against bare boost.context switches measured in the same run
# (runtime/wave64/bench/switch_bench.hip). One OS thread, thread CPU time.
set -uo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
W64_THREADS=1 "$ROOT/$BUILD/ferry" wave64 run "$ROOT/runtime/wave64/bench/switch_bench.hip" -O2 \
  -o "$out/switch_bench" --work "$out/work"

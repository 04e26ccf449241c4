#!/usr/bin/env bash
# wave64 runtime speed against plain C++ in the same run (issue 31, "Speed"): an elementwise
# kernel and a block reduction on the CPU runtime (CUDA side, warp 32, -O2), each beside the same
# loop in C++ compiled into the same program. The last column is the share of plain C++ speed the
# runtime reaches (goal: >= 0.25 for the elementwise kernel). W64_THREADS=1 compares one core with
# one core in thread CPU time (a shared machine's load does not count); the second run uses every
# core for the kernels in wall time (the C++ loop stays on one). The one-core run is made twice:
# with the kernels in region form (split at their barriers and warp operations, the default) and
# on the fiber path alone (W64_REGIONS=0), from the same build. Two cases have the shapes of the
# suite programs that took longest (bench/results/wave64-speed-2026-12-05g.md): vector_local_scan
# (a uint4 local across barriers, cuda-samples scan) and lane_serial_sums (a 128-iteration
# accumulation loop per lane, How_to_optimize's reduce_v7).
# BASELINE=/path/to/ferry (another build or installed ferry, with its own runtime) builds the
# same program with it too and runs the two one-core region-form runs alternately, twice each:
# before and after in the same run.
# Usage: [BASELINE=FERRY] bench/wave64_speed_bench.sh [BUILD] [ELEMENTS] [STEPS]
set -uo pipefail
BUILD=${1:-build}
N=${2:-1048576}
STEPS=${3:-10}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$ROOT/$BUILD/ferry" wave64 build "$ROOT/bench/wave64_speed/speed.cu" -O2 -o "$out/speed" --work "$out/work" || exit 1
if [[ -n ${BASELINE:-} ]]; then
  "$BASELINE" wave64 build "$ROOT/bench/wave64_speed/speed.cu" -O2 -o "$out/speed_base" --work "$out/work_base" || exit 1
  for round in 1 2; do
    echo "== baseline ($BASELINE), one core, region form, round $round"
    W64_THREADS=1 "$out/speed_base" "$N" "$STEPS"
    echo "== this build ($BUILD), one core, region form, round $round"
    W64_THREADS=1 "$out/speed" "$N" "$STEPS"
  done
fi
echo "== one core (W64_THREADS=1), thread CPU time: kernels in region form (the default)"
W64_THREADS=1 "$out/speed" "$N" "$STEPS"
echo "== one core (W64_THREADS=1), thread CPU time: fiber path only (W64_REGIONS=0)"
W64_THREADS=1 W64_REGIONS=0 "$out/speed" "$N" "$STEPS"
echo "== every core (W64_THREADS=$(nproc)) for the kernels, wall time"
W64_SPEED_WALL=1 "$out/speed" "$N" "$STEPS"

#!/usr/bin/env bash
# Device-buffer allreduce on a GPU machine: correctness against exact sums with 1, 2 and 3 MPI ranks
# (ranks share the GPUs there are; NCCL is used only where every rank has its own GPU), then a timing
# run of every path on 64 MiB with 2 ranks. Results (logs, device_np*.json) go to OUT_DIR.
#   scripts/gpu_comm.sh OUT_DIR [TEST_BINARY]
# TEST_BINARY defaults to build/comm/cuda/ferrycomm-device-test; a binary built elsewhere can be
# carried with the shared libraries it needs in its folder (LD_LIBRARY_PATH is extended with it).
set -u -o pipefail
if [ $# -lt 1 ]; then echo "usage: $0 OUT_DIR [TEST_BINARY]" >&2; exit 2; fi
out=$1
bin=${2:-build/comm/cuda/ferrycomm-device-test}
mkdir -p "$out" || { echo "gpu_comm: cannot create $out" >&2; exit 1; }
[ -x "$bin" ] || { echo "gpu_comm: $bin not found (cmake --build build --target ferrycomm-device-test)" >&2; exit 1; }
export LD_LIBRARY_PATH="$(cd "$(dirname "$bin")" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# shellcheck source=scripts/gpu_env.sh
. "$(dirname "$0")/gpu_env.sh"
rc=0
for np in 1 2 3; do
  echo "== np $np"
  timeout 240 "${gpu_mpirun[@]}" -np "$np" "$bin" --out "$out/device_np$np.json" 2>&1 | tee "$out/device_np$np.log"
  r=${PIPESTATUS[0]}
  [ "$r" -eq 0 ] || { echo "gpu_comm: np $np FAILED (exit $r)"; rc=1; }
done
echo "== fault: rank 1 of 3 freezes during a gpu-int8 allreduce"
timeout 60 "${gpu_mpirun[@]}" -np 3 "$bin" --n 1048576 --fault frozen 2>&1 | tee "$out/device_fault.log"
grep -q DEVICE-FAULT-PASS "$out/device_fault.log" || { echo "gpu_comm: fault test FAILED"; rc=1; }
echo "== bench np 2, 64 MiB"
timeout 300 "${gpu_mpirun[@]}" -np 2 "$bin" --n 4096 --bench 16777216 --reps 5 --out "$out/device_bench_np2.json" 2>&1 |
  tee "$out/device_bench_np2.log"
r=${PIPESTATUS[0]}
[ "$r" -eq 0 ] || { echo "gpu_comm: bench FAILED (exit $r)"; rc=1; }
exit $rc

#!/usr/bin/env bash
# Multi-GPU runs of ferry-comm (issue 9) on a machine with G >= 2 GPUs, one MPI rank per GPU:
#  1. allreduce sweep 1 KiB .. MAX bytes: NCCL against ferry-comm's device paths (mpi-staged,
#     gpu-int8, gpu-eb), nccl-tests columns and max error of the lossy codecs;
#  2. data-parallel training of a scaled-up LLaMA-style decoder on the G GPUs: DDP over NCCL
#     (baseline) and the ferry-comm hook per codec; loss curves, tokens/s, share of step time
#     in the allreduce.
#   scripts/gpu_multi.sh OUT_DIR [LIB_DIR] [MAX_BYTES] [STEPS]
# LINK=tcp [RATE=25gbit]: both NCCL and MPI over loopback TCP (rate-limited with tc when RATE is
# set): where a slow link makes compression pay. SKIP_TRAIN=1: the sweep only.
set -u -o pipefail
if [ $# -lt 1 ]; then echo "usage: $0 OUT_DIR [LIB_DIR] [MAX_BYTES] [STEPS]" >&2; exit 2; fi
out=$1
lib=${2:-.device-bin}
max=${3:-1073741824}
steps=${4:-60}
mkdir -p "$out" || exit 1
gpus=$(nvidia-smi -L | wc -l)
echo "gpu_multi: $gpus GPUs"; nvidia-smi -L; nvidia-smi topo -m 2>/dev/null | head -8
export LD_LIBRARY_PATH="$(cd "$lib" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
rc=0
tag=""
if [ "${LINK:-}" = tcp ]; then
  # A slow link for both sides: NCCL over TCP sockets on loopback (no NVLink, no shared memory),
  # MPI over its TCP transport on loopback, and with RATE (e.g. 25gbit) a token-bucket limit on lo.
  export NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_IB_DISABLE=1 NCCL_NET=Socket NCCL_SOCKET_IFNAME=lo
  export OMPI_MCA_pml=ob1 OMPI_MCA_btl=tcp,self OMPI_MCA_btl_tcp_if_include=lo
  tag="_tcp"
  if [ -n "${RATE:-}" ]; then
    if tc qdisc replace dev lo root tbf rate "$RATE" burst 8mb latency 100ms 2>"$out/tc.err"; then
      tag="_tcp_$RATE"; trap 'tc qdisc del dev lo root 2>/dev/null' EXIT
      echo "gpu_multi: loopback limited to $RATE"; tc qdisc show dev lo
    else
      echo "gpu_multi: tc could not limit lo ($(cat "$out/tc.err")): TCP loopback without a rate limit"
    fi
  fi
fi
# shellcheck source=scripts/gpu_env.sh
. "$(dirname "$0")/gpu_env.sh"  # after the link settings: their NCCL_/OMPI_MCA_ variables travel
echo "== allreduce sweep, $gpus ranks${tag:+, link $tag}"
timeout "${SWEEP_TIMEOUT:-150}" "${gpu_mpirun[@]}" -np "$gpus" \
  "$lib/ferrycomm-device-test" --sweep "$max" --out "$out/sweep_np$gpus$tag.json" 2>&1 | tee "$out/sweep_np$gpus$tag.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "gpu_multi: sweep FAILED"; rc=1; }
[ "${SKIP_TRAIN:-0}" = 1 ] && exit $rc
echo "== training, $gpus ranks"
NP=$gpus BACKEND=nccl VARIANTS=${VARIANTS:-nccl,none,int8+ef,eb:rel=1e-3} TRAIN_TIMEOUT=${TRAIN_TIMEOUT:-200} \
  EXTRA=${EXTRA:-"--model dim=768,layers=6,heads=12,ffn=2048,seq=128 --bucket-mb 25 --eval-every 20 --batch 16"} \
  bash scripts/gpu_training.sh "$out/train_np$gpus" "$lib" "$steps" || rc=1
exit $rc

#!/usr/bin/env bash
# Data-parallel training parity of ferry-comm's codecs (comm/python/training/training_parity.py).
#   comm/bench/training_parity.sh [--quick] PYDIR_OR_BUILD OUT_DIR
# PYDIR_OR_BUILD: a folder holding ferry_comm/ with the built extension (<comm build>/python), or a
# build tree containing one (python/ or comm/python/). Writes OUT_DIR/training_parity.{md,json,png}.
# --quick: the CTest version (2 ranks, 40 steps, < 2 min on 2 cores). Full run: STEPS (400),
# RANKS (2), VARIANTS, TOLERANCE (0.01). Exit 77 (skip) only when torch is not installed.
set -u -o pipefail
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
if [ $# -lt 2 ]; then
  echo "usage: $0 [--quick] BUILD_OR_PYDIR OUT_DIR" >&2
  exit 2
fi
where=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3  # Debian's python3-torch lives here, not in a pyenv python on PATH

if ! "$py" -c 'import torch' 2>/dev/null; then
  echo "training_parity: SKIP: $py cannot import torch (apt-get install python3-torch)"
  exit 77
fi
pydir=
for d in "$where" "$where/python" "$where/comm/python"; do
  if compgen -G "$d/ferry_comm/_ext*.so" >/dev/null; then pydir=$(cd "$d" && pwd); break; fi
done
if [ -z "$pydir" ]; then
  echo "training_parity: no built ferry_comm extension under $where (python/ or comm/python/);" \
       "build with pybind11-dev installed (cmake option FERRY_COMM_PYTHON)" >&2
  exit 1
fi
command -v mpirun >/dev/null || { echo "training_parity: mpirun not found (apt-get install openmpi-bin)" >&2; exit 1; }
mkdir -p "$out"

if [ $quick = 1 ]; then
  ranks=2 args=(--steps 40 --eval-every 10 --warmup 8 --tolerance 0.01) limit=240
else
  ranks=${RANKS:-2} args=(--steps "${STEPS:-400}" --eval-every 25 --tolerance "${TOLERANCE:-0.01}") limit=${RUN_TIMEOUT:-1500}
fi
[ -n "${VARIANTS:-}" ] && args+=(--variants "$VARIANTS")

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# Shared memory between local ranks; no probing of other network interfaces.
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1} OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export PYTHONPATH="$pydir${PYTHONPATH:+:$PYTHONPATH}" FERRY_TRAIN_THREADS=${FERRY_TRAIN_THREADS:-1}
echo "training_parity: mpirun -np $ranks $py $here/../python/training/training_parity.py ${args[*]} --out $out"
timeout --kill-after=10 "$limit" mpirun --oversubscribe --allow-run-as-root --bind-to none -np "$ranks" \
  "$py" "$here/../python/training/training_parity.py" "${args[@]}" --out "$out"
rc=$?
if [ $rc = 124 ] || [ $rc = 137 ]; then echo "training_parity: FAIL: timed out after ${limit} s" >&2; fi
exit $rc

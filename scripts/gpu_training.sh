#!/usr/bin/env bash
# Training parity on GPU: the ferry_comm extension is built on the GPU machine for its Python and
# torch (bindings only; ferry-comm itself comes prebuilt as static libraries), then
# comm/python/training/training_parity.py runs with --device cuda under mpirun, so the DDP hook
# takes the device path (DeviceComm: GPU codecs; NCCL where ranks have their own GPUs).
#   scripts/gpu_training.sh OUT_DIR [LIB_DIR] [STEPS]
# LIB_DIR (default .device-bin) holds libferry_comm.a and libferry_comm_cuda.a built with
# -fPIC (cmake --build build --target ferry_comm_python makes both), libzfp.so.1 and libcudart.so.13.
set -u -o pipefail
if [ $# -lt 1 ]; then echo "usage: $0 OUT_DIR [LIB_DIR] [STEPS]" >&2; exit 2; fi
out=$1
lib=$(cd "${2:-.device-bin}" && pwd)
steps=${3:-400}
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
py=${PYTHON:-python3}
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# shellcheck source=scripts/gpu_env.sh
. "$(dirname "$0")/gpu_env.sh"
build=$(mktemp -d)/python
mkdir -p "$build/ferry_comm"
suffix=$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
# shellcheck disable=SC2046
mpicxx -O2 -std=c++20 -shared -fPIC -DFERRY_COMM_PY_CUDA $("$py" -m pybind11 --includes) \
  -Icomm/include -Icomm/cuda/include -I/usr/local/cuda/include comm/python/src/bindings.cpp \
  -o "$build/ferry_comm/_ext$suffix" "$lib/libferry_comm_cuda.a" "$lib/libferry_comm.a" \
  -L"$lib" -l:libzfp.so.1 -lfmt -lzstd -l:libcudart.so.13 -lnccl -Wl,-rpath,"$lib" 2>&1 | tee "$out/build.log"
[ -f "$build/ferry_comm/_ext$suffix" ] || { echo "gpu_training: extension build failed" >&2; exit 1; }
cp comm/python/ferry_comm/*.py "$build/ferry_comm/"
"$py" -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'gpus', torch.cuda.device_count())" | tee -a "$out/build.log"
export PYTHONPATH="$build" PYTHONUNBUFFERED=1 FERRY_TRAIN_THREADS=${FERRY_TRAIN_THREADS:-4}
# NP ranks (default 2); BACKEND=nccl (one GPU per rank) makes DDP's own NCCL allreduce the baseline;
# EXTRA: more training_parity.py arguments (model shape, batch, bucket size...).
# shellcheck disable=SC2086
timeout "${TRAIN_TIMEOUT:-540}" "${gpu_mpirun[@]}" -x PATH -x PYTHONPATH -x PYTHONUNBUFFERED -x FERRY_TRAIN_THREADS \
  -np "${NP:-2}" \
  "$py" comm/python/training/training_parity.py --device cuda --backend "${BACKEND:-gloo}" --steps "$steps" \
  --variants "${VARIANTS:-gloo,none,bf16,int8+ef,eb:rel=1e-3}" --out "$out" --tolerance 0.01 ${EXTRA:-} 2>&1 |
  tee "$out/run.log"
exit "${PIPESTATUS[0]}"

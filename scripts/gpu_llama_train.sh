#!/usr/bin/env bash
# Data-parallel training of the LLaMA-style model on llama_ops with ferry-comm's DDP hook, on an
# NVIDIA GPU machine (run by hand; CI has no GPU). NP ranks (default 2) share the GPUs there are.
#   scripts/gpu_llama_train.sh OUT_DIR BIN_DIR [STEPS]      (BIN_DIR from scripts/llama_ops_build.sh)
# The ferry_comm Python extension is compiled there for that machine's Python and torch (bindings
# only; ferry-comm comes as the static libraries in BIN_DIR), as scripts/gpu_training.sh does.
# Writes OUT_DIR/{llama_train.md, llama_train.json, llama_train.png, build.log, run.log}.
# Environment: NP, VARIANTS (default: torch,ferry:none,ferry:int8+ef,ferry:eb:rel=1e-3), EXTRA
#   (more train.py arguments), TRAIN_TIMEOUT (s, default 480), PYTHON, LIB (which build of llama_ops in
#   BIN_DIR: orig, the CUDA as written, default; rt, its CUDA -> HIP -> CUDA round trip by ferry).
set -u -o pipefail
[ $# -ge 2 ] || { echo "usage: $0 OUT_DIR BIN_DIR [STEPS]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1" || exit 1
out=$(cd "$1" && pwd)
bin=$(cd "$2" && pwd) || exit 1
steps=${3:-300}
py=${PYTHON:-python3}
lib=${LIB:-orig}
for f in libferry_comm.a libferry_comm_cuda.a libzfp.so.1 libcudart.so.13 "$lib/libllama_ops_capi.so"; do
  [ -e "$bin/$f" ] || { echo "gpu_llama_train: $bin/$f missing (scripts/llama_ops_build.sh)" >&2; exit 2; }
done
# shellcheck source=scripts/gpu_env.sh
. "$root/scripts/gpu_env.sh"
export LD_LIBRARY_PATH="$bin:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ext=$(mktemp -d)/python
mkdir -p "$ext/ferry_comm"
# fmt and zstd as carried in BIN_DIR where the machine has no development links for them
fmt=-lfmt; [ -e "$bin/libfmt.so.9" ] && fmt=-l:libfmt.so.9
zstd=-lzstd; [ -e "$bin/libzstd.so.1" ] && zstd=-l:libzstd.so.1
suffix=$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
# shellcheck disable=SC2046
mpicxx -O2 -std=c++20 -shared -fPIC -DFERRY_COMM_PY_CUDA $("$py" -m pybind11 --includes) \
  -I"$root/comm/include" -I"$root/comm/cuda/include" -I/usr/local/cuda/include "$root/comm/python/src/bindings.cpp" \
  -o "$ext/ferry_comm/_ext$suffix" "$bin/libferry_comm_cuda.a" "$bin/libferry_comm.a" \
  -L"$bin" -L/usr/local/cuda/lib64 -l:libzfp.so.1 "$fmt" "$zstd" -l:libcudart.so.13 -lnccl -Wl,-rpath,"$bin" \
  >"$out/build.log" 2>&1
[ -f "$ext/ferry_comm/_ext$suffix" ] || { cat "$out/build.log"; echo "gpu_llama_train: extension build failed" >&2; exit 1; }
cp "$root"/comm/python/ferry_comm/*.py "$ext/ferry_comm/"
export PYTHONPATH="$ext:$root/examples/llama_ops/torch" PYTHONUNBUFFERED=1
# shellcheck disable=SC2086
timeout "${TRAIN_TIMEOUT:-480}" "${gpu_mpirun[@]}" -x PATH -x PYTHONPATH -x PYTHONUNBUFFERED -np "${NP:-2}" \
  "$py" "$root/examples/llama_ops/torch/train.py" --lib "$bin/$lib/libllama_ops_capi.so" --device cuda --steps "$steps" \
  --variants "${VARIANTS:-torch,ferry:none,ferry:int8+ef,ferry:eb:rel=1e-3}" --out "$out" --tolerance 0.01 ${EXTRA:-} 2>&1 |
  tee "$out/run.log"
exit "${PIPESTATUS[0]}"

#!/usr/bin/env bash
# GPU round trip on an NVIDIA machine (written for the H200; run by hand, not by CI):
#   1. examples/llama_ops as written (CUDA)                  -> reference build
#   2. examples/llama_ops CUDA -> HIP -> CUDA with ferry      -> round-trip build
#      ferry diffrun between 1 and 2: same numbers? port/reference time ratio?
#   3. examples/hip_native HIP -> CUDA with ferry             -> built with nvcc, its own checks
# Usage: scripts/gpu_roundtrip.sh OUT_DIR
# Environment: FERRY (ferry binary; built into build-gpu/ when unset), NVCC, ARCH (sm_90),
#   RUNS (timed runs per side, 5), RUN_TIMEOUT (s per run, 300), BUILD_TIMEOUT (s per build, 900),
#   LLAMA_ARGS (arguments of llama_ops_test, default --quick).
# Writes OUT_DIR/summary.md, OUT_DIR/summary.json, and per-step logs and diffrun reports.
set -u
set -o pipefail

die() { echo "gpu_roundtrip: error: $*" >&2; exit 2; }
log() { echo "gpu_roundtrip: $*" >&2; }

[[ $# -eq 1 ]] || die "usage: $0 OUT_DIR"
OUT=$1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${ARCH:-sm_90}
RUNS=${RUNS:-5}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-900}
LLAMA_ARGS=${LLAMA_ARGS:---quick}
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$NVCC")")}

[[ -x $NVCC ]] || die "nvcc not found (set NVCC)"
command -v nvidia-smi >/dev/null || die "nvidia-smi not found: this script needs an NVIDIA GPU"
nvidia-smi -L >/dev/null 2>&1 || die "nvidia-smi sees no GPU"
mkdir -p "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$OUT/work
rm -rf "$WORK"
mkdir -p "$WORK"

if [[ -z ${FERRY:-} ]]; then
  log "building ferry in build-gpu/"
  (cd "$ROOT" && timeout "$BUILD_TIMEOUT" cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DFERRY_BUILD_COMM=OFF >"$OUT/ferry-build.log" 2>&1 &&
    timeout "$BUILD_TIMEOUT" cmake --build build-gpu --target ferry -j "$(nproc)" >>"$OUT/ferry-build.log" 2>&1) ||
    die "building ferry failed; see $OUT/ferry-build.log"
  FERRY=$ROOT/build-gpu/ferry
fi
[[ -x $FERRY ]] || die "ferry binary $FERRY is not executable"

GPU=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
NVCC_VERSION=$("$NVCC" --version | tail -1)
log "GPU: $GPU; $NVCC_VERSION"

# migrate_files SRC_DIR DST_DIR TO: copies SRC_DIR to DST_DIR, then migrates each source file in
# place with `ferry migrate FILE --to TO` (file by file, so build files stay as written).
migrate_files() {
  local src=$1 dst=$2 to=$3 f
  copy_tree "$src" "$dst" || return 1
  while IFS= read -r f; do
    "$FERRY" migrate "$f" --to "$to" -q -o "$f.ferry" || return 1
    mv "$f.ferry" "$f"
  done < <(find "$dst" -type f \( -name '*.cu' -o -name '*.cuh' -o -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \))
}

# copy_tree SRC DST: a copy without build folders.
copy_tree() {
  rm -rf "$2" && mkdir -p "$2" && cp -a "$1/." "$2/" &&
    find "$2" -mindepth 1 -type d -name 'build*' -prune -exec rm -rf {} +
}

declare -a ROWS=()   # name|status|ratio|detail
add_row() { ROWS+=("$1|$2|$3|$4"); log "$1: $2 ${4:+($4)}"; }

# ---- 1+2: llama_ops, original vs CUDA -> HIP -> CUDA --------------------------------------
LLAMA=$ROOT/examples/llama_ops
if [[ -d $LLAMA ]]; then
  REF=$WORK/llama_ref
  HIP=$WORK/llama_hip
  RT=$WORK/llama_roundtrip
  copy_tree "$LLAMA" "$REF" || die "cannot copy $LLAMA"
  if ! migrate_files "$LLAMA" "$HIP" hip >"$OUT/llama-migrate.log" 2>&1 ||
     ! migrate_files "$HIP" "$RT" cuda >>"$OUT/llama-migrate.log" 2>&1; then
    add_row llama_ops-roundtrip FAIL "" "ferry migrate failed (llama-migrate.log)"
  else
    cp "$LLAMA/Makefile" "$RT/Makefile"  # build with the original Makefile
    # The program prints time_us=... per operator: drop it from the compared text (diffrun
    # times the runs itself).
    for d in "$REF" "$RT"; do
      cat >"$d/run.sh" <<RUN
#!/usr/bin/env bash
set -o pipefail
./build/llama_ops_test $LLAMA_ARGS | sed -E 's/time_us=[^ ]*//'
RUN
      chmod +x "$d/run.sh"
    done
    BUILD="make -s NVCC=$NVCC ARCH=-arch=$ARCH CUDA_HOME=$CUDA_HOME NCCL_HOME=\${NCCL_HOME:-$CUDA_HOME}"
    timeout $((BUILD_TIMEOUT * 2 + RUNS * RUN_TIMEOUT * 2 + 60)) "$FERRY" diffrun \
      --ref-dir "$REF" --ref-build "$BUILD" --ref ./run.sh \
      --port-dir "$RT" --port-build "$BUILD" --port ./run.sh \
      --runs "$RUNS" --timeout "$RUN_TIMEOUT" --build-timeout "$BUILD_TIMEOUT" \
      --rtol 1e-4 --atol 1e-6 --report "$OUT/llama_ops-diffrun.json" >"$OUT/llama_ops-diffrun.txt" 2>&1
    rc=$?
    ratio=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["ratio"]; print("" if r is None else f"{r:.3f}")' \
      "$OUT/llama_ops-diffrun.json" 2>/dev/null || echo "")
    verdict=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$OUT/llama_ops-diffrun.json" 2>/dev/null || echo "no report")
    if [[ $rc -eq 0 ]]; then add_row llama_ops-roundtrip PASS "$ratio" "diffrun: $verdict"
    else add_row llama_ops-roundtrip FAIL "$ratio" "diffrun: $verdict, exit $rc (llama_ops-diffrun.txt)"; fi
  fi
else
  add_row llama_ops-roundtrip SKIP "" "examples/llama_ops not present"
fi

# ---- 3: hip_native, HIP -> CUDA, its own checks --------------------------------------------
HIPN=$ROOT/examples/hip_native
if [[ -d $HIPN ]]; then
  CU=$WORK/hip_native_cuda
  if ! migrate_files "$HIPN" "$CU" cuda >"$OUT/hip_native-migrate.log" 2>&1; then
    add_row hip_native-to-cuda FAIL "" "ferry migrate failed (hip_native-migrate.log)"
  else
    srcs=$(cd "$CU" && ls kernels.cpp main.cpp gemm_hipblas.cpp 2>/dev/null | tr '\n' ' ')
    if ! (cd "$CU" && timeout "$BUILD_TIMEOUT" "$NVCC" -arch="$ARCH" -O2 -std=c++17 -x cu $srcs \
          -o hip_native_test -lcublas) >"$OUT/hip_native-build.log" 2>&1; then
      add_row hip_native-to-cuda FAIL "" "nvcc build failed (hip_native-build.log)"
    else
      times=()
      status=PASS
      for i in $(seq 1 "$RUNS"); do
        start=$(python3 -c 'import time; print(time.time())')
        (cd "$CU" && timeout "$RUN_TIMEOUT" ./hip_native_test) >"$OUT/hip_native-run$i.txt" 2>&1
        rc=$?
        times+=("$(python3 -c 'import sys, time; print(f"{time.time() - float(sys.argv[1]):.3f}")' "$start")")
        if [[ $rc -ne 0 ]] || ! grep -q '^SUMMARY PASS' "$OUT/hip_native-run$i.txt"; then
          status=FAIL
          detail="run $i: exit $rc$([[ $rc -eq 124 ]] && echo ' (timed out)') (hip_native-run$i.txt)"
          break
        fi
      done
      median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
      add_row hip_native-to-cuda "$status" "" "${detail:-own checks: SUMMARY PASS in $RUNS run(s), median ${median}s}"
    fi
  fi
else
  add_row hip_native-to-cuda SKIP "" "examples/hip_native not present"
fi

# ---- summary -----------------------------------------------------------------------------
DATE=$(date -u +%Y-%m-%dT%H:%M:%SZ)
COMMIT=$(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "# GPU round trip ($DATE)"
  echo
  echo "- GPU: $GPU"
  echo "- nvcc: $NVCC_VERSION, -arch=$ARCH"
  echo "- commit: $COMMIT; command: scripts/gpu_roundtrip.sh $1 (RUNS=$RUNS, LLAMA_ARGS=$LLAMA_ARGS)"
  echo
  echo "| example | result | port/reference time (median) | detail |"
  echo "|---|---|---|---|"
  for r in "${ROWS[@]}"; do
    IFS='|' read -r name st ratio detail <<<"$r"
    echo "| $name | $st | ${ratio:-n/a} | $detail |"
  done
} >"$OUT/summary.md"
printf '%s\n' "${ROWS[@]}" | python3 -c '
import json, sys
rows = [dict(zip(("example", "result", "ratio", "detail"), l.rstrip("\n").split("|", 3))) for l in sys.stdin if l.strip()]
for r in rows:
    r["ratio"] = float(r["ratio"]) if r["ratio"] else None
json.dump({"date": sys.argv[1], "gpu": sys.argv[2], "nvcc": sys.argv[3], "arch": sys.argv[4], "commit": sys.argv[5],
           "runs": int(sys.argv[6]), "examples": rows}, open(sys.argv[7], "w"), indent=2)
' "$DATE" "$GPU" "$NVCC_VERSION" "$ARCH" "$COMMIT" "$RUNS" "$OUT/summary.json"
cat "$OUT/summary.md"
for r in "${ROWS[@]}"; do [[ $r == *"|FAIL|"* ]] && exit 1; done
exit 0

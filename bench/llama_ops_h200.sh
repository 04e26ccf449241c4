#!/usr/bin/env bash
# Everything issue 30 measures on an NVIDIA GPU, in one device call of at most ~9.5 minutes:
# FlashAttention forward/backward/decode (contiguous and paged) against SDPA, the LLaMA inference
# benchmark against PyTorch eager and SDPA, `ferry opcheck` of the FlashAttention operators on the
# original and on its CUDA -> HIP -> CUDA round trip, and builds of the forward kernel's variants
# (synchronous K/V copies, a second K buffer) timed against the default.
#
#   1. here (no GPU needed):   bench/llama_ops_h200.sh prepare DIR   [FERRY=build/ferry]
#        DIR/orig  examples/llama_ops as written        DIR/rt  its round trip (ferry migrate twice,
#        DIR/bin   ferry + its libraries (opcheck)                with the original Makefile)
#        DIR/bench this script and the two Python benchmarks
#   2. on the GPU machine:     bash DIR/bench/llama_ops_h200.sh run OUT DIR
#        (device tool: copy DIR to /work/main/_devrun/flashattn, carry ["_devrun/flashattn"], command
#         `bash _devrun/flashattn/bench/llama_ops_h200.sh run $OUT _devrun/flashattn`)
#
# OUT gets at most 8 files: summary.md (every table), run.log, ncu-summary.md (PROFILE=1),
# results.tgz (everything: JSON, per-phase logs, opcheck report, ncu's raw CSV). Phases, each
# bounded in time, the whole run by DEADLINE seconds (default 570): build (-j16, orig, rt and the
# variants in parallel), then PHASES in order (default "opcheck flash infer4k variants infer8k
# ncu"): opcheck (orig and round trip), flash bench, LLaMA inference (ctx 4096, batch 4; orig and
# round trip), variants, LLaMA inference (ctx 8192, batch 1), ncu (PROFILE=1 only: every kernel,
# ours and SDPA's, at every shape of the tables; NCU_PARTS, default "fwd dec bwd").
# Environment: ARCH (default sm_90), BENCH_ARGS (flash bench, default --no-scalar), INFER_ARGS,
# VARIANTS ("name:-DA=1,-DB=2 ...", "none" for no variant), VARIANT_ARGS (the flash bench's
# arguments for the variants, default --variant; --decode-only for decode builds), DEADLINE,
# PHASES, PROFILE, NCU_PARTS, OPCHECK_S (opcheck's bound, default 150 s).
set -u -o pipefail

prepare() {
  local dest=$1 root ferry
  root=$(cd "$(dirname "$0")/.." && pwd)
  ferry=${FERRY:-$root/build/ferry}
  [ -x "$ferry" ] || { echo "prepare: no ferry at $ferry (make build)" >&2; exit 2; }
  mkdir -p "$dest" && dest=$(cd "$dest" && pwd)
  rm -rf "${dest:?}/orig" "${dest:?}/hip" "${dest:?}/rt" "${dest:?}/bin" "${dest:?}/bench"
  cp -a "$root/examples/llama_ops" "$dest/orig" && rm -rf "$dest/orig/build"
  "$ferry" migrate "$dest/orig" --to hip -o "$dest/hip" -q >"$dest/migrate.log" 2>&1 || [ $? -eq 1 ] ||
    { echo "prepare: migrate --to hip failed ($dest/migrate.log)" >&2; exit 1; }
  "$ferry" migrate "$dest/hip" --from hip --to cuda -o "$dest/rt" -q >>"$dest/migrate.log" 2>&1 || [ $? -eq 1 ] ||
    { echo "prepare: migrate --to cuda failed ($dest/migrate.log)" >&2; exit 1; }
  cp "$root/examples/llama_ops/Makefile" "$dest/rt/Makefile"
  rm -rf "$dest/hip"
  mkdir -p "$dest/bin" "$dest/bench"
  cp "$ferry" "$dest/bin/ferry"
  # Every shared library ferry links but glibc's and the compiler's (libfmt, libcpp-httplib,
  # libtree-sitter, OpenSSL, brotli, zlib): the GPU machine is another distribution.
  local so
  for so in $(ldd "$ferry" | awk '$2 == "=>" && $3 ~ /^\// {print $3}'); do
    case $(basename "$so") in
      libc.so* | libm.so* | libstdc++.so* | libgcc_s.so* | ld-linux* | libpthread.so* | libdl.so* | librt.so*) ;;
      *) cp -L "$so" "$dest/bin/" ;;
    esac
  done
  cp "$root/bench/llama_ops_h200.sh" "$root/bench/llama_ops_flash_bench.py" "$root/bench/llama_ops_infer_bench.py" \
    "$root/bench/llama_ops_ncu_summary.py" "$dest/bench/"
  du -sh "$dest"
  echo "prepared $dest; on the GPU: bash $dest/bench/llama_ops_h200.sh run OUT $dest"
}

run() {
  local out dir here t0 deadline
  mkdir -p "$1" && out=$(cd "$1" && pwd)
  dir=$(cd "$2" && pwd)
  here=$dir/bench
  [ -f "$here/llama_ops_flash_bench.py" ] || here=$(cd "$(dirname "$0")" && pwd)
  local work=/tmp/llama_ops_h200.$$
  mkdir -p "$work"
  exec > >(tee "$out/run.log") 2>&1
  t0=$(date +%s)
  deadline=${DEADLINE:-570}
  left() { echo $((deadline - ($(date +%s) - t0))); }
  budget() { local l; l=$(left); [ "$1" -lt "$l" ] && echo "$1" || echo $((l > 5 ? l - 5 : 1)); }
  phase() { echo; echo "== $* (t=$(( $(date +%s) - t0 )) s, $(left) s left)"; }
  local arch=${ARCH:-sm_90}
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv,noheader
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
  nvcc --version | tail -1

  phase "build: orig, rt, variants (make -j16 capi)"
  cp -a "$dir/orig" "$work/orig" && cp -a "$dir/rt" "$work/rt"
  # In order of interest: db16: K and V double-buffered, one barrier a tile, 16 warps (256 query
  # rows) a block, one per SM; w16: 16 warps, single buffers; sync: plain K/V loads; kbuf2: a
  # second K buffer; mask: the masked softmax on every tile.
  local w16=-DLLAMA_OPS_WMMA_WARPS=16,-DLLAMA_OPS_WMMA_MIN_BLOCKS=1
  local variants=${VARIANTS:-"db16:-DLLAMA_OPS_WMMA_KBUF=2,-DLLAMA_OPS_WMMA_VBUF=2,$w16 w16:$w16 sync:-DLLAMA_OPS_CP_ASYNC=0 kbuf2:-DLLAMA_OPS_WMMA_KBUF=2 mask:-DLLAMA_OPS_WMMA_FASTMASK=0"}
  [ "$variants" = none ] && variants=""
  local pids=() v name flags
  for name in orig rt; do
    (timeout "$(budget 240)" make -C "$work/$name" -j16 capi ARCH="-arch=$arch" >"$work/build-$name.log" 2>&1 ||
      echo "BUILD FAILED $name") &
    pids+=($!)
  done
  for v in $variants; do
    name=${v%%:*} flags=${v#*:}
    cp -a "$dir/orig" "$work/var-$name"
    (timeout "$(budget 240)" nice -n 10 make -C "$work/var-$name" -j6 capi ARCH="-arch=$arch ${flags//,/ }" \
      >"$work/build-var-$name.log" 2>&1 || echo "BUILD FAILED variant $name") &
    pids+=($!)
  done
  wait "${pids[@]}"
  grep -h "error" "$work"/build-*.log | head -20
  local lib=$work/orig/build/libllama_ops_capi.so rtlib=$work/rt/build/libllama_ops_capi.so
  [ -f "$lib" ] || { echo "no library: stopping"; tar czf "$out/results.tgz" -C "$work" --exclude='*.o' .; exit 1; }

  ph_ncu() {
  if [ -n "${PROFILE:-}" ] && command -v ncu >/dev/null; then
    phase "ncu: every kernel (ours and SDPA's) at every shape of the tables, per part"
    # One ncu process per part (fwd, dec, bwd), each bounded: a part cut short loses only itself.
    # --profile-from-start off: the benchmark brackets each case with cudaProfilerStart/Stop, so
    # the inputs' own kernels stay out. Raw page, base units: bench/llama_ops_ncu_summary.py
    # turns it into a table per shape.
    mkdir -p "$work/ncu"
    local part cap
    local secs=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats
      --section ComputeWorkloadAnalysis)
    for part in ${NCU_PARTS:-fwd dec bwd}; do
      case $part in fwd) cap=110 ;; dec) cap=45 ;; *) cap=150 ;; esac
      [ "$(left)" -gt 30 ] || { echo "ncu $part: no time left"; continue; }
      rm -f "$work/ncu/ncu-$part.cases.jsonl"
      timeout -k 5 "$(budget $cap)" ncu --profile-from-start off --clock-control none --print-kernel-base demangled \
        --print-units base --csv --page raw "${secs[@]}" python3 "$here/llama_ops_flash_bench.py" --lib "$lib" \
        --out "$work/ncu" --profile "$part" --manifest "$work/ncu/ncu-$part.cases.jsonl" \
        >"$work/ncu/ncu-$part.csv" 2>"$work/ncu/ncu-$part.err"
      echo "ncu $part exit $? ($(grep -c '^"' "$work/ncu/ncu-$part.csv") CSV rows, $(wc -l <"$work/ncu/ncu-$part.cases.jsonl" 2>/dev/null) cases)"
      if ! grep -q '^"' "$work/ncu/ncu-$part.csv" && grep -qiE "unrecogni|invalid|unknown option" "$work/ncu/ncu-$part.err"; then
        echo "ncu $part: an option this ncu lacks; again with the sections only"  # units then ncu's own
        rm -f "$work/ncu/ncu-$part.cases.jsonl"
        timeout -k 5 "$(budget $cap)" ncu --profile-from-start off --clock-control none --csv --page raw "${secs[@]}" \
          python3 "$here/llama_ops_flash_bench.py" --lib "$lib" --out "$work/ncu" --profile "$part" \
          --manifest "$work/ncu/ncu-$part.cases.jsonl" >"$work/ncu/ncu-$part.csv" 2>"$work/ncu/ncu-$part.err"
        echo "ncu $part exit $?"
      fi
      tail -3 "$work/ncu/ncu-$part.err"
    done
    python3 "$here/llama_ops_ncu_summary.py" "$work/ncu" >"$out/ncu-summary.md" 2>"$work/ncu/summary.err" ||
      cat "$work/ncu/summary.err"
    head -c 3000 "$out/ncu-summary.md"
  fi

  }
  ph_opcheck() {
  phase "opcheck: FlashAttention forward and backward (MHA, GQA), orig and round trip"
  if [ -x "$dir/bin/ferry" ]; then
    export LD_LIBRARY_PATH="$dir/bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    # One process per operator, in parallel (the float64 references dominate; ~4 s a
    # configuration, 40 of them): the whole check in the time of its longest operator.
    local op ops="flash_attention flash_attention_causal flash_attention_gqa_causal flash_attention_backward
      flash_attention_causal_backward flash_attention_gqa_causal_backward" opids=() ob
    ob=$(budget ${OPCHECK_S:-150})
    mkdir -p "$work/opcheck"
    for op in $ops; do
      timeout "$ob" "$dir/bin/ferry" opcheck "$work/orig/opcheck/llama_ops.json" \
        --var LLAMA_OPS_ORIG="$work/orig/build" --var LLAMA_OPS_RT="$work/rt/build" --python python3 \
        --report "$work/opcheck/$op.json" --only "$op" >"$work/opcheck/$op.txt" 2>&1 &
      opids+=($!)
    done
    for i in "${!opids[@]}"; do
      wait "${opids[$i]}"
      local orc=$?
      echo "opcheck $(echo $ops | tr -s ' \n' '  ' | cut -d' ' -f$((i + 1))) exit $orc"
    done
    for op in $ops; do cat "$work/opcheck/$op.txt"; done >"$work/opcheck.txt"
    echo "configurations: $(grep -c '^opcheck: .* cuda ' "$work/opcheck.txt"), original PASS: $(grep -c 'cuda PASS' "$work/opcheck.txt"), round trip PASS: $(grep -c 'roundtrip PASS' "$work/opcheck.txt"), FAIL: $(grep -cE 'cuda FAIL|roundtrip FAIL' "$work/opcheck.txt")"
  else
    echo "skip opcheck: no $dir/bin/ferry"
  fi
  }
  ph_flash() {
  phase "flash bench: forward, backward, decode (contiguous, paged) against SDPA"
  PYTHONUNBUFFERED=1 timeout "$(budget 200)" python3 "$here/llama_ops_flash_bench.py" --lib "$lib" \
    --out "$work/flash" ${BENCH_ARGS:---no-scalar} >"$work/flash.log" 2>&1
  echo "flash bench exit $?"; grep -E "checks passed|Error|error" "$work/flash.log" | tail -5
  }
  ph_infer4k() {
  phase "LLaMA inference, ctx 4096, batch 4"
  local rtarg=()
  [ -f "$rtlib" ] && rtarg=(--lib-rt "$rtlib")
  PYTHONUNBUFFERED=1 timeout "$(budget 120)" python3 "$here/llama_ops_infer_bench.py" --lib "$lib" "${rtarg[@]}" \
    --out "$work/infer" --ctx 4096 --batch 4 ${INFER_ARGS:-} >"$work/infer-4k.log" 2>&1
  echo "infer exit $?"; grep -E "^  |PASS|FAIL|Error" "$work/infer-4k.log" | tail -8
  }
  ph_variants() {
  phase "variants of the kernels (two forward shapes, one backward shape)"
  for v in $variants; do
    name=${v%%:*}
    [ -f "$work/var-$name/build/libllama_ops_capi.so" ] || { echo "variant $name: not built"; continue; }
    [ "$(left)" -gt 60 ] || { echo "variant $name: no time left"; continue; }
    echo "-- variant $name (${v#*:})"
    PYTHONUNBUFFERED=1 timeout "$(budget 60)" python3 "$here/llama_ops_flash_bench.py" \
      --lib "$work/var-$name/build/libllama_ops_capi.so" --out "$work/var-$name/out" ${VARIANT_ARGS:---variant} 2>&1 |
      grep -E "^\| [0-9]" | sed "s/^/$name /" | tee -a "$work/variants.md"
  done
  }
  ph_infer8k() {
  if [ "$(left)" -gt 80 ]; then
    phase "LLaMA inference, ctx 8192, batch 1"
    PYTHONUNBUFFERED=1 timeout "$(budget 90)" python3 "$here/llama_ops_infer_bench.py" --lib "$lib" \
      --out "$work/infer" --ctx 8192 --batch 1 ${INFER_ARGS:-} >"$work/infer-8k.log" 2>&1
    echo "infer exit $?"; grep -E "^  |PASS|FAIL|Error" "$work/infer-8k.log" | tail -8
  fi
  }
  local ph
  for ph in ${PHASES:-opcheck flash infer4k variants infer8k ncu}; do
    "ph_$ph"
  done

  phase "summary"
  {
    echo "# llama_ops on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(date -u +%F\ %H:%M) UTC"
    echo; echo "## FlashAttention (bench/llama_ops_flash_bench.py)"; echo
    cat "$work/flash/flash_bench.md" 2>/dev/null || echo "(no result: see flash.log)"
    echo; echo "## Variants of the kernels (ms; forward rows, then backward rows: dq/dk/dv errors)"; echo
    cat "$work/variants.md" 2>/dev/null || echo "(none)"
    echo; echo "## LLaMA inference (bench/llama_ops_infer_bench.py)"; echo
    cat "$work"/infer/infer-*.md 2>/dev/null || echo "(no result: see infer-*.log)"
    echo; echo "## opcheck"; echo; echo '```'
    tail -40 "$work/opcheck.txt" 2>/dev/null; echo '```'
  } >"$out/summary.md"
  cp "$work/flash.log" "$out/" 2>/dev/null
  local keep=()
  for f in flash infer variants.md opcheck.txt opcheck ncu "$work"/*.log "$work"/var-*/out; do
    f=${f#"$work"/}
    [ -e "$work/$f" ] && keep+=("$f")
  done
  tar czf "$out/results.tgz" -C "$work" "${keep[@]}"
  echo "done in $(( $(date +%s) - t0 )) s"
  rm -rf "$work"
}

case "${1:-}" in
  prepare) [ $# -eq 2 ] || { echo "usage: $0 prepare DIR" >&2; exit 2; }; prepare "$2" ;;
  run) [ $# -eq 3 ] || { echo "usage: $0 run OUT DIR" >&2; exit 2; }; run "$2" "$3" ;;
  *) echo "usage: $0 prepare DIR | run OUT DIR" >&2; exit 2 ;;
esac

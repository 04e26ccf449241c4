#!/usr/bin/env bash
# HIP -> CUDA on a corpus of real HIP programs that check their own results (issue 18):
# migrate the whole checkout with `ferry migrate --from hip --to cuda`, build every program with
# its *migrated* build files (Makefile and CMake), run each binary, record what built and passed.
#
#   scripts/gpu_reverse_corpus.sh migrate CHECKOUT MIGRATED   # needs ferry (FERRY or build/ferry)
#   scripts/gpu_reverse_corpus.sh build   MIGRATED OUT        # needs nvcc; no GPU needed
#   scripts/gpu_reverse_corpus.sh run     MIGRATED OUT        # needs an NVIDIA GPU; after build
#   scripts/gpu_reverse_corpus.sh all     CHECKOUT OUT        # the three in a row (OUT/migrated)
#
# A checkout that is absent is skipped with a message (exit 0): the corpora are fetched, never
# committed. A program is a folder holding a source file and a Makefile or CMakeLists.txt that
# builds it (aggregating build files without sources of their own are skipped).
# Environment: ONLY (space-separated folder prefixes: the programs to take), FERRY, NVCC, JOBS (parallel builds, nproc), BUILD_SYSTEMS ("make cmake"),
#   RUN_TIMEOUT (s per run, 120), BUILD_TIMEOUT (s per build, 600), CUDA_VERSION (ferry's
#   --cuda-version; default the installed nvcc's), ARCH (sm_90).
# Writes OUT/build.tsv (program, build system, built, log), OUT/run.tsv (program, build system,
# exit code, seconds, verdict), OUT/logs/*.
set -u
set -o pipefail

die() { echo "gpu_reverse_corpus: error: $*" >&2; exit 2; }
log() { echo "gpu_reverse_corpus: $*" >&2; }

ROOT=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${JOBS:-$(nproc)}
BUILD_SYSTEMS=${BUILD_SYSTEMS:-make cmake}
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-600}
ARCH=${ARCH:-sm_90}
if [[ -z ${NVCC:-} ]]; then NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc); fi
export PATH="$(dirname "$NVCC"):$PATH"

# Programs of a migrated tree, one folder per line (relative).
programs() {
  local tree=$1
  (cd "$tree" && find . -path ./.ferry -prune -o \( -name Makefile -o -name CMakeLists.txt \) -print |
    sed 's|/[^/]*$||' | sort -u | while read -r d; do
      [[ $d == . ]] && continue
      compgen -G "$d/*.hip" >/dev/null || compgen -G "$d/*.cpp" >/dev/null || compgen -G "$d/*.cu" >/dev/null || continue
      d=${d#./}
      if [[ -n ${ONLY:-} ]]; then
        local keep=0 p
        for p in $ONLY; do [[ $d == "$p"* ]] && keep=1; done
        [[ $keep == 1 ]] || continue
      fi
      echo "$d"
    done)
}

# How a program is run (its own self-check): extra arguments by folder pattern.
run_args() {
  case $1 in
    *HIP-Examples-Applications/*) echo "-e -q" ;;  # AMD APP SDK samples: -e verifies against the CPU
    */gpu-burn) echo "-t 5" ;;
    *) echo "" ;;
  esac
}

do_migrate() {
  local checkout=$1 dest=$2
  if [[ ! -d $checkout ]]; then
    log "SKIP: $checkout is absent (fetch the corpus first)"
    exit 0
  fi
  local ferry=${FERRY:-$ROOT/build/ferry}
  [[ -x $ferry ]] || die "ferry binary $ferry not found (set FERRY or build it)"
  local cv=()
  [[ -n ${CUDA_VERSION:-} ]] && cv=(--cuda-version "$CUDA_VERSION")
  rm -rf "$dest"
  "$ferry" migrate "$checkout" --from hip --to cuda "${cv[@]}" --arch "$ARCH" -o "$dest" -q \
    --report "$dest.report.json" > "$dest.summary.txt" 2>&1 || die "ferry migrate failed: $(tail -5 "$dest.summary.txt")"
  log "migrated $checkout -> $dest ($(programs "$dest" | wc -l) programs)"
}

# build_one TREE REL SYSTEM LOGDIR: prints "REL<TAB>SYSTEM<TAB>built|failed<TAB>log"
build_one() {
  local tree=$1 rel=$2 sys=$3 logs=$4 name log rc
  name=$(echo "$rel" | tr '/' '_')
  log=$logs/build-$sys-$name.log
  local dir=$tree/$rel
  if [[ $sys == make ]]; then
    [[ -f $dir/Makefile ]] || { printf '%s\t%s\tabsent\t-\n' "$rel" "$sys"; return; }
    touch "$dir/.ferry-build-stamp"
    (cd "$dir" && timeout "$BUILD_TIMEOUT" make -j1 >"$log" 2>&1)
    rc=$?
  else
    [[ -f $dir/CMakeLists.txt ]] || { printf '%s\t%s\tabsent\t-\n' "$rel" "$sys"; return; }
    (timeout "$BUILD_TIMEOUT" cmake -S "$dir" -B "$dir/build-ferry" -DCMAKE_BUILD_TYPE=Release >"$log" 2>&1 &&
      timeout "$BUILD_TIMEOUT" cmake --build "$dir/build-ferry" -j1 >>"$log" 2>&1)
    rc=$?
  fi
  printf '%s\t%s\t%s\t%s\n' "$rel" "$sys" "$([[ $rc == 0 ]] && echo built || echo failed)" "${log#$logs/}"
}
export -f build_one
export BUILD_TIMEOUT

do_build() {
  local tree=$1 out=$2
  [[ -d $tree ]] || { log "SKIP: $tree is absent"; exit 0; }
  [[ -x $NVCC ]] || die "nvcc not found (set NVCC)"
  mkdir -p "$out/logs"
  tree=$(cd "$tree" && pwd)
  out=$(cd "$out" && pwd)  # the builds cd into each program's folder
  local list
  list=$(programs "$tree")
  log "building $(echo "$list" | wc -l) programs with: $BUILD_SYSTEMS ($JOBS at a time; $("$NVCC" --version | tail -1))"
  for sys in $BUILD_SYSTEMS; do
    for rel in $list; do printf '%s %s\n' "$rel" "$sys"; done
  done | TREE=$tree LOGS=$out/logs xargs -P "$JOBS" -L 1 bash -c 'build_one "$TREE" "$0" "$1" "$LOGS"' |
    sort > "$out/build.tsv.tmp"
  mv "$out/build.tsv.tmp" "$out/build.tsv"
  log "built: $(grep -c $'\tbuilt\t' "$out/build.tsv") of $(grep -vc $'\tabsent\t' "$out/build.tsv")"
}

# The executables a build made: for make, new executables in the folder; for CMake, build-ferry/.
binaries() {
  local dir=$1 sys=$2
  if [[ $sys == make ]]; then
    find "$dir" -maxdepth 2 -type f -perm -u+x -newer "$dir/.ferry-build-stamp" \
      ! -name '*.sh' ! -name '*.pl' ! -name '*.py' ! -name '*.o' ! -name '*.a' ! -name '*.so' ! -path '*/build-ferry/*' 2>/dev/null
  else
    find "$dir/build-ferry" -maxdepth 2 -type f -perm -u+x ! -path '*/CMakeFiles/*' ! -name '*.so' 2>/dev/null
  fi
}

do_run() {
  local tree=$1 out=$2
  [[ -f $out/build.tsv ]] || die "no $out/build.tsv: run the build step first"
  command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || die "no NVIDIA GPU visible"
  tree=$(cd "$tree" && pwd)
  out=$(cd "$out" && pwd)  # the runs cd into each program's folder
  mkdir -p "$out/logs"
  : > "$out/run.tsv"
  while IFS=$'\t' read -r rel sys built _; do
    [[ $built == built ]] || continue
    local dir=$tree/$rel name bin
    name=$(echo "$rel" | tr '/' '_')
    for bin in $(binaries "$dir" "$sys"); do
      local blog=$out/logs/run-$sys-$name-$(basename "$bin").log t0 t1 rc verdict
      t0=$(date +%s.%N)
      # shellcheck disable=SC2046
      (cd "$(dirname "$bin")" && timeout "$RUN_TIMEOUT" "$bin" $(run_args "$rel") >"$blog" 2>&1)
      rc=$?
      t1=$(date +%s.%N)
      verdict=passed
      [[ $rc == 0 ]] || verdict=failed
      # a self-check that prints its failure but exits 0
      if grep -qiE 'validation failed|verification failed|test failed|\bfailed\b.*[0-9]+ (error|mismatch)|^FAIL' "$blog"; then verdict=failed; fi
      printf '%s\t%s\t%s\t%s\t%.2f\t%s\n' "$rel" "$sys" "$(basename "$bin")" "$rc" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$verdict" >> "$out/run.tsv"
    done
  done < "$out/build.tsv"
  log "passed: $(grep -c $'\tpassed$' "$out/run.tsv") of $(wc -l < "$out/run.tsv") runs"
}

[[ $# -ge 3 ]] || die "usage: $0 migrate CHECKOUT MIGRATED | build MIGRATED OUT | run MIGRATED OUT | all CHECKOUT OUT"
case $1 in
  migrate) do_migrate "$2" "$3" ;;
  build) do_build "$2" "$3" ;;
  run) do_run "$2" "$3" ;;
  all)
    mkdir -p "$3"
    do_migrate "$2" "$3/migrated"
    do_build "$3/migrated" "$3"
    do_run "$3/migrated" "$3"
    ;;
  *) die "unknown step '$1'" ;;
esac
